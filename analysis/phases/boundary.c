// SPDX-License-Identifier: MIT
/*
 * Boundaries to sub-sample precision by a byte balance (docs/analysis.md, 3).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/* Median and robust scale of samples [i0, i1); with @dsigma, also the
 * sample-to-sample scale (MAD of first differences / sqrt 2), which a slow
 * wander of the level does not inflate. */
static void local_level(const struct trace *tr, size_t i0, size_t i1,
			double *med, double *sigma, double *dsigma, double *tmp)
{
	size_t m = i1 - i0;

	for (size_t i = i0; i < i1; i++) tmp[i - i0] = tr->v[i];
	*med = slc__median(tr, tmp, m);
	*sigma = m > 1 ? slc__mad_sigma(tr, tmp, m) : 0;
	if (dsigma) *dsigma = m > 2 ? fmin(*sigma, slc__diff_sigma(tr, tr->v + i0, m)) : *sigma;
}

/*
 * Is x at neither level (between_k sigma from both)?  Generous on purpose:
 * an at-level sample let into the window costs a little noise, a
 * straddling sample left out costs up to a whole sample of bytes.
 */
static int between_k(double x, double va, double sa, double vb, double sb, double k)
{
	return fabs(x - va) > k * sa && fabs(x - vb) > k * sb && x > fmin(va, vb) && x < fmax(va, vb);
}

static int between(const struct slc_model_params *mp, double x, double va, double sa, double vb, double sb)
{
	return between_k(x, va, sa, vb, sb, mp->between_k);
}

/*
 * Is x, a sample beyond the one next to the edge, part of a ramp?  One
 * sample straddles a step; the samples of a ramp stand out of both
 * levels' noise (ramp_k sigma), and a sample that strays from its level
 * by less is noise.  Taking in such samples on the side they stray to
 * would bias the balance: each adds its excess, none takes any away.
 */
static int in_ramp(const struct slc_model_params *mp, double x, double va, double sa, double vb, double sb)
{
	return between_k(x, va, sa, vb, sb, mp->ramp_k);
}

/* Is x at level vx (within between_k sigma) and not at the other level vo? */
static int at_level(const struct slc_model_params *mp, double x, double vx, double sx, double vo, double so)
{
	return fabs(x - vx) <= mp->between_k * sx && fabs(x - vo) > mp->between_k * so;
}

/*
 * Place the boundary between phase A (ending at sample j) and phase B
 * (starting at j) to sub-sample precision.  Over a window of samples around
 * j, the bytes written equal vA * (t* - ta) + vB * (tb - t*), with vA and
 * vB the local speeds just outside the window; solving for t* splits a
 * straddling sample (or a short ramp) by the bytes it carried.  The
 * boundary's byte count is where the speed vA stops: bytes(ta) + vA (t* - ta).
 */
void slc__balance(const struct trace *tr, size_t a0, size_t j, size_t b1,
		    double *t_out, double *bytes_out, double *range, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t wmax = mp->balance_half_max, l = mp->balance_ref_max, lo = j, hi = j;
	double va, vb, sa, sb, da, db, vbe, ta, tb, bw, ts;
	size_t ia, ib;

	*t_out = slc__t_start(tr, j);
	*bytes_out = tr->cum[j];
	/* where the boundary may lie: a sample either side of a step on a
	 * sample edge (a straddler within the noise goes unseen), else the
	 * window of samples at neither level */
	range[0] = tr->cum[j > a0 ? j - 1 : j];
	range[1] = tr->cum[j < b1 ? j + 1 : j];
	if (j - a0 < 2 || b1 - j < 2) return;
	if (wmax > (j - a0) / 2) wmax = (j - a0) / 2;
	if (wmax > (b1 - j) / 2) wmax = (b1 - j) / 2;
	/* the window holds the samples that are at neither level: the one
	 * straddling a sharp step, or a ramp; samples at a level stay out so
	 * that their noise (or a comb's teeth) does not move the estimate */
	ia = (j - 1) - a0 > l ? j - 1 - l : a0;
	ib = b1 - (j + 1) > l ? j + 1 + l : b1;
	local_level(tr, ia, j - 1, &va, &sa, &da, tmp);
	local_level(tr, j + 1, ib, &vb, &sb, &db, tmp);
	/* the segmentation may put the edge a sample or two off: a sample
	 * clearly at A's level on B's side (or the reverse) moves it */
	for (size_t d = 0; d < mp->balance_seek && j + 2 < b1 &&
	     at_level(mp, tr->v[j], va, sa, vb, sb); d++)
		j++;
	for (size_t d = 0; d < mp->balance_seek && j > a0 + 2 &&
	     at_level(mp, tr->v[j - 1], vb, sb, va, sa); d++)
		j--;
	lo = hi = j;
	*t_out = slc__t_start(tr, j);
	*bytes_out = tr->cum[j];
	range[0] = tr->cum[j - 1];
	range[1] = tr->cum[j + 1];
	/* ... or off the straddling sample (a comb's first sample can look
	 * like either).  At the end of a steady level (a cache) the sample
	 * right at the edge is judged against the sample-to-sample noise
	 * (da, db): a level that wanders slowly (the native speed after a
	 * cache) has a wide spread about its median, and a straddler that is
	 * mostly slow would hide in it */
	/* ... against the level of the next few samples, not of thirty, and
	 * their slope: the first of a native level that trends is no
	 * straddler (EDGE_*). */
	vbe = vb;
	if (!(sa <= mp->steady_cov * va) || (j - 1) - ia < mp->edge_min_a || ib - (j + 1) < mp->edge_min) {
		da = sa;
		db = sb;
	} else {
		/* the median of the next few, carried back to the edge along
		 * the slow level's local slope (a native speed that falls or
		 * rises right after the cache) */
		for (size_t i = 0; i + 1 < mp->edge_min; i++) tmp[i] = tr->v[j + 2 + i] - tr->v[j + 1 + i];
		vbe = slc__median(tr, tr->v + j + 1, mp->edge_next) - 2 * slc__median(tr, tmp, mp->edge_min - 1);
	}
	if (j - 1 > a0 && between(mp, tr->v[j - 1], va, da, vb, db)) lo = j - 1;
	if (j + 1 < b1 && between(mp, tr->v[j], va, da, vbe, db)) hi = j + 1;
	for (size_t d = 2; d <= mp->balance_seek; d++) {
		if (j - d > a0 && in_ramp(mp, tr->v[j - d], va, sa, vb, sb)) lo = j - d;
		if (j + d < b1 && in_ramp(mp, tr->v[j + d - 1], va, sa, vb, sb)) hi = j + d;
	}
	if (lo == hi) return;	/* the step falls on a sample edge */
	while (lo > a0 + 1 && j - lo < wmax && in_ramp(mp, tr->v[lo - 1], va, sa, vb, sb)) lo--;
	while (hi + 1 < b1 && hi - j < wmax && in_ramp(mp, tr->v[hi], va, sa, vb, sb)) hi++;
	/* the bytes balance needs expected speeds: means, teeth included */
	va = slc__level(tr, lo - a0 > l ? lo - l : a0, lo);
	vb = slc__level(tr, hi, b1 - hi > l ? hi + l : b1);
	if (!(fabs(va - vb) > 1e-9 * fmax(fabs(va), fabs(vb)))) return;
	range[0] = tr->cum[lo];
	range[1] = tr->cum[hi];
	ta = slc__t_start(tr, lo);
	tb = tr->t[hi - 1];
	bw = tr->cum[hi] - tr->cum[lo];
	ts = ta + (bw - vb * (tb - ta)) / (va - vb);
	if (ts < ta) ts = ta;
	if (ts > tb) ts = tb;
	*t_out = ts;
	*bytes_out = tr->cum[lo] + va * (ts - ta);
	if (*bytes_out < tr->cum[lo]) *bytes_out = tr->cum[lo];
	if (*bytes_out > tr->cum[hi]) *bytes_out = tr->cum[hi];
}

/*
 * The end of a cache that folds as it fills (slc__cache_teeth_end() finds
 * it, slc__extend_cache_teeth() gives the blocks before it to the cache):
 * in its last stretch some
 * samples drop to a fraction of its speed (the drive folds between host
 * writes: teeth) while the rest still run at it.  The segmentation sees a
 * level between the cache's and the native one there and the labelling
 * gives it to the native writing, so the cache ends at its first tooth.  A
 * stretch whose untoothed samples run at the cache's speed is still the
 * cache: native writing never reaches that speed (the cache is a step of
 * 15% or more above it; the cache before the teeth must be steady), and one sample at its speed is strong evidence
 * where a tooth is weak (teeth strike a half of the samples and more).
 * From the end of the leading cache on, each sample at the cache's level
 * (within teeth_k of its robust sigmas of its median, and delta_same at
 * most: native writing a few percent slower stays out) counts teeth_at_level - 1, each other
 * -1 (the stretch is cache while at least one sample in teeth_at_level is
 * at its speed); the cache runs to where that sum peaks, when it peaks
 * above 0 (a tooth-free end stays put, the sum falls from its first native
 * sample on), within at most the cache's own length and not into a drop
 * the consolidation kept (a stall, throttling) or an erase-bound block.
 * slc__extend_cache_teeth(): @b has room for @cap blocks; without room for
 * one more, the block holding the end is not split.
 */
size_t slc__cache_teeth_end(const struct trace *tr, const struct block *b, size_t nb, double *tmp, size_t *jcp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t jc = nb, e, lim, best = 0, m = 0;
	double level, sum = 0, peak = 0, sig, at;

	for (size_t j = 0; j < nb; j++) {
		if (b[j].dip) continue;
		if (b[j].kind != SLC_PHASE_SLC_CACHE) break;
		jc = j;
	}
	if (jc == nb || jc + 1 >= nb) return 0;
	for (size_t i = b[jc].i0; i < b[jc].i1; i++) tmp[m++] = tr->v[i];
	level = slc__median(tr, tmp, m);
	/* only a steady cache: one toothed all along (a DRAM-less drive's
	 * journal stalls) has no level of its own that native writing misses */
	sig = slc__mad_sigma(tr, tmp, m);
	if (!(level > 0) || sig > mp->steady_cov * level) return 0;
	at = level - fmin(mp->teeth_k * sig, mp->delta_same * level);
	e = b[jc].i1;
	lim = e + (e - b[0].i0) < tr->n ? e + (e - b[0].i0) : tr->n;
	for (size_t j = jc + 1; j < nb; j++)
		if ((b[j].dip || b[j].kind == SLC_PHASE_ERASE_BOUND) && b[j].i0 < lim) lim = b[j].i0;
	for (size_t i = e; i < lim; i++) {
		int at_level = tr->v[i] >= at;

		sum += at_level ? mp->teeth_at_level - 1 : -1;
		/* one sample in teeth_at_level is enough: a tie ends the
		 * stretch at the sample at the cache's speed that makes it */
		if (at_level && sum >= peak) {
			peak = sum;
			best = i + 1;
		}
	}
	if (jcp) *jcp = jc;
	return best;
}

void slc__extend_cache_teeth(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp)
{
	size_t jc = 0, best = slc__cache_teeth_end(tr, b, *nb, tmp, &jc);

	if (!best) return;
	for (size_t j = jc + 1; j < *nb && b[j].i0 < best; j++) {
		if (b[j].i1 > best && !slc__split_block(b, nb, cap, j, best)) break;
		b[j].kind = SLC_PHASE_SLC_CACHE;
		b[j].tier = b[jc].tier;
		b[j].dip = 0;
		b[j].group = b[jc].group;
		b[j].conf = b[jc].conf;
	}
}
