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
	/* a cache that ran out inside the burst's first samples (too short
	 * for the interval) has only bounds: the lower one, marked, not "none" */
	out->at_least = !seg->has_cache && seg->model.cache_bound && isfinite(seg->model.cache_min_bytes);
	if (out->at_least)
		out->cache_bytes = seg->model.cache_min_bytes;
	/* no fresh cache, nothing to recover: a fraction would mislead */
	out->cache_frac = fresh->has_cache && fresh->cache_bytes > 0 && !out->at_least ?
			  out->cache_bytes / fresh->cache_bytes : NAN;
	/* a cache measured twice differs by the sampling, so a later burst may
	 * find a little more than the first: that is all of it, never "104%" */
	if (out->cache_frac > 1.0)
		out->cache_frac = 1.0;
	return 0;
}
