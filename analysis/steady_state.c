// SPDX-License-Identifier: MIT
/*
 * SNIA PTS steady state: rounds of fixed length, a sliding window of
 * rounds, range and least-squares excursion criteria.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "slcscope/analysis.h"
#include "alloc_hook.h"

#define SS_RANGE_FRAC 0.20	/* PTS: max - min within 20% of the average */
#define SS_SLOPE_FRAC 0.10	/* PTS: fitted excursion within 10% */

int slc_steady_state(struct slc_steady_state *out, const double *t_s,
		     const double *dt_s, const double *bps, size_t n,
		     double from_s, double round_s, unsigned rounds)
{
	double *rb, *rt, t0, end;
	size_t nr;

	if (!out || !t_s || !dt_s || !bps || !(round_s > 0) || rounds < 2)
		return -EINVAL;
	out->reached = 0;
	out->start_s = out->end_s = out->avg_bps = NAN;
	out->range_frac = out->slope_frac = NAN;
	if (n == 0) return 0;
	t0 = t_s[0] - dt_s[0];
	if (from_s > t0) t0 = from_s;
	end = t_s[n - 1];
	if (!(end > t0)) return 0;
	nr = (size_t)floor((end - t0) / round_s + 1e-9);
	if (nr < rounds) return 0;
	rb = calloc(nr, sizeof(*rb));	/* bytes per round */
	rt = calloc(nr, sizeof(*rt));	/* seconds covered per round */
	if (!rb || !rt) {
		free(rb);
		free(rt);
		return -ENOMEM;
	}
	/* a sample belongs to the round holding its midpoint */
	for (size_t i = 0; i < n; i++) {
		double mid = t_s[i] - 0.5 * dt_s[i];
		size_t r;
		if (mid < t0) continue;
		r = (size_t)((mid - t0) / round_s);
		if (r >= nr) break;
		rb[r] += bps[i] * dt_s[i];
		rt[r] += dt_s[i];
	}
	for (size_t r = 0; r < nr; r++) rb[r] = rt[r] > 0 ? rb[r] / rt[r] : NAN;

	for (size_t w = 0; w + rounds <= nr; w++) {
		double sum = 0, mx = -INFINITY, mn = INFINITY, avg, sxy = 0, sxx = 0;
		double xm = (rounds - 1) / 2.0, slope;
		int bad = 0;

		for (unsigned k = 0; k < rounds; k++) {
			double y = rb[w + k];
			if (isnan(y)) bad = 1;
			sum += y;
			mx = fmax(mx, y);
			mn = fmin(mn, y);
		}
		if (bad) continue;
		avg = sum / rounds;
		for (unsigned k = 0; k < rounds; k++) {
			sxy += (k - xm) * (rb[w + k] - avg);
			sxx += (k - xm) * (k - xm);
		}
		slope = sxy / sxx;
		if (avg > 0 && mx - mn <= SS_RANGE_FRAC * avg &&
		    fabs(slope) * (rounds - 1) <= SS_SLOPE_FRAC * avg) {
			out->reached = 1;
			out->start_s = t0 + (double)w * round_s;
			out->end_s = out->start_s + rounds * round_s;
			out->avg_bps = avg;
			out->range_frac = (mx - mn) / avg;
			out->slope_frac = fabs(slope) * (rounds - 1) / avg;
			break;
		}
	}
	free(rb);
	free(rt);
	return 0;
}
