// SPDX-License-Identifier: MIT
/*
 * The erase-bound onset from the drive's own write counters (docs/analysis.md,
 * "The drive's counters").  Garbage collection copies valid pages before it
 * can erase a block, so from the moment the drive runs out of erased blocks
 * it writes more to the flash than the host sends: the NAND counter's slope
 * against the host counter steps up and stays up.  The speed follows later
 * and less sharply (a free pool of mostly invalid blocks is cheap to clean
 * at first), so where the counters are read the step in their slope places
 * the onset, on the bytes axis, whatever the sampling interval.
 */
#include <math.h>
#include <stdio.h>

#include "phases_priv.h"

/* Curve bytes written by segment time @t (linear inside a sample). */
static double bytes_at(const struct trace *tr, double t)
{
	size_t lo = 0, hi = tr->n;

	if (!tr->n || t <= slc__t_start(tr, 0)) return 0;
	if (t >= tr->t[tr->n - 1]) return tr->cum[tr->n];
	while (lo < hi) {	/* first sample ending at or after t */
		size_t mid = lo + (hi - lo) / 2;
		if (tr->t[mid] < t) lo = mid + 1;
		else hi = mid;
	}
	{
		double t0 = slc__t_start(tr, lo), d = tr->t[lo] - t0;
		return tr->cum[lo] + (d > 0 ? (t - t0) / d : 1) * (tr->cum[lo + 1] - tr->cum[lo]);
	}
}

/* NAND bytes per host byte between readings @a and @b (NAN: no host bytes). */
static double slope(const struct slc_phase_evidence *ev, size_t a, size_t b)
{
	double dh = ev->ctr_host[b] - ev->ctr_host[a];

	return dh > 0 ? (ev->ctr_nand[b] - ev->ctr_nand[a]) / dh : NAN;
}

double slc__counter_onset(const struct trace *tr, const struct slc_phase_evidence *ev, double from_bytes,
			  double to_bytes, double *wa_before, double *wa_after, double *extra_bytes)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t c = 0, e, k = 0, n;
	double best = 0, s0, s1;

	*wa_before = *wa_after = *extra_bytes = NAN;
	if (!ev || !ev->ctr_t_s || !ev->ctr_host || !ev->ctr_nand || ev->n_ctr < 2 * mp->counter_side_min + 1)
		return NAN;
	n = ev->n_ctr;
	/* the readings in [from_bytes, to_bytes] of the curve */
	while (c < n && bytes_at(tr, ev->ctr_t_s[c]) < from_bytes) c++;
	e = n;
	while (e > c && (ev->ctr_t_s[e - 1] > tr->t[tr->n - 1] || bytes_at(tr, ev->ctr_t_s[e - 1]) > to_bytes)) e--;
	if (e < c + 2 * mp->counter_side_min + 1) return NAN;
	e--;
	if (!(ev->ctr_host[e] > ev->ctr_host[c])) return NAN;
	/* the knee: the reading furthest below the chord from the first to
	 * the last (for a slope that steps up once, exactly the step) */
	for (size_t i = c + mp->counter_side_min; i + mp->counter_side_min <= e; i++) {
		double f = (ev->ctr_host[i] - ev->ctr_host[c]) / (ev->ctr_host[e] - ev->ctr_host[c]);
		double below = ev->ctr_nand[c] + f * (ev->ctr_nand[e] - ev->ctr_nand[c]) - ev->ctr_nand[i];
		if (below > best) {
			best = below;
			k = i;
		}
	}
	if (!k) return NAN;
	s0 = slope(ev, c, k);
	s1 = slope(ev, k, e);
	/* garbage collection lasts: both halves of the stretch after the knee
	 * write more per host byte than before it by the margin (a burst of
	 * folding after the cache rises and ends); the whole stretch, their
	 * mean, then does too */
	{
		size_t m = k + (e - k) / 2;
		if (!(slope(ev, k, m) - s0 >= mp->counter_wa_step && slope(ev, m, e) - s0 >= mp->counter_wa_step))
			return NAN;
	}
	*wa_before = s0;
	*wa_after = s1;
	*extra_bytes = (s1 - s0) * (ev->ctr_host[e] - ev->ctr_host[k]);
	return bytes_at(tr, ev->ctr_t_s[k]);
}
