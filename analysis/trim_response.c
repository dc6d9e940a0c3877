// SPDX-License-Identifier: MIT
/*
 * Reads right after a large TRIM: how long they stall and how slow they are
 * while the drive processes the discarded range (the reviews' "delete a
 * 32 GB file and watch reads").  Pure function over the read samples.
 */
#include <errno.h>
#include <math.h>

#include "slcscope/analysis.h"

#define RECOVERED_RUN 5          /* intervals in a row at >= 90% of the baseline */

int slc_trim_response(struct slc_trim_response *out, const double *t_s, const double *interval_s,
		      const double *bytes, const double *lat_p99_us, const double *lat_max_us, size_t n,
		      double baseline_bps)
{
	size_t i, first = n, run = 0, slow_end = n;
	double sum_bytes = 0, sum_t = 0;

	if (!out || !t_s || !interval_s || !bytes || n == 0 || !(baseline_bps > 0))
		return -EINVAL;
	out->baseline_bps = baseline_bps;
	out->stall_s = 0;
	out->max_latency_us = NAN;
	out->max_p99_us = NAN;
	out->min_frac = NAN;
	for (i = 0; i < n; i++) {
		if (lat_max_us && isfinite(lat_max_us[i]) && !(lat_max_us[i] <= out->max_latency_us))
			out->max_latency_us = lat_max_us[i];
		if (lat_p99_us && isfinite(lat_p99_us[i]) && !(lat_p99_us[i] <= out->max_p99_us))
			out->max_p99_us = lat_p99_us[i];
	}
	/* the stall: intervals from the start in which no read completed */
	for (i = 0; i < n && bytes[i] <= 0; i++)
		out->stall_s += interval_s[i];
	first = i;
	/* the slow stretch: from the first read until RECOVERED_RUN intervals
	 * in a row run at 90% of the baseline or more */
	for (i = first; i < n; i++) {
		double bps = interval_s[i] > 0 ? bytes[i] / interval_s[i] : 0;
		if (!(bps / baseline_bps >= out->min_frac))
			out->min_frac = bps / baseline_bps;
		if (bps >= 0.9 * baseline_bps) {
			if (++run == RECOVERED_RUN) {
				slow_end = i + 1 - RECOVERED_RUN;
				break;
			}
		} else {
			run = 0;
		}
	}
	for (i = first; i < slow_end && i < n; i++) {
		sum_bytes += bytes[i];
		sum_t += interval_s[i];
	}
	out->recovered = slow_end < n;
	out->slow_s = sum_t;
	out->slow_until_s = slow_end < n ? t_s[slow_end] - interval_s[slow_end] : t_s[n - 1];
	out->slow_frac = sum_t > 0 ? sum_bytes / sum_t / baseline_bps : NAN;
	return 0;
}
