// SPDX-License-Identifier: MIT
/*
 * Recovery metrics: a burst after idle or TRIM against the fresh run.
 */
#include <errno.h>
#include <math.h>

#include "slcscope/analysis.h"

int slc_recovery(struct slc_recovery *out, const struct slc_analysis *fresh,
		 const struct slc_analysis *seg)
{
	if (!out || !fresh || !seg || seg->n_phases == 0 || !seg->phases) return -EINVAL;
	out->burst_bps = seg->phases[0].mean_bps;
	out->cache_bytes = seg->has_cache ? seg->cache_bytes : 0;
	/* no fresh cache, nothing to recover: a fraction would mislead */
	out->cache_frac = fresh->has_cache && fresh->cache_bytes > 0 ?
			  out->cache_bytes / fresh->cache_bytes : NAN;
	return 0;
}
