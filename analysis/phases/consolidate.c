// SPDX-License-Identifier: MIT
/*
 * Level consolidation: change-point segments merged into blocks (docs/analysis.md, 2, rules 1-4).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/* The start of the @len samples before @at, not before @first; the end of
 * the @len samples from @at, not past @last. */
static size_t back(size_t at, size_t first, size_t len)
{
	return at - first > len ? at - len : first;
}

static size_t fwd(size_t at, size_t last, size_t len)
{
	return last - at > len ? at + len : last;
}

/*
 * Do drops to level lm recur in samples [i0, i1), one side of a drop?
 * Each side is judged alone: a drop between a cache and a comb phase is
 * texture of the comb even though the cache never drops.
 */
static int recurs_below(const struct trace *tr, size_t i0, size_t i1, double lm, double *tmp, double *mid)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t k = 0;

	if (i1 - i0 < mp->texture_side_min) return 0;
	*mid = 0.5 * (slc__sample_quantile(tr, i0, i1, 0, 0, 0.5, tmp) + lm);
	for (size_t i = i0; i < i1; i++) k += tr->v[i] < *mid;
	return (double)k > mp->texture_frac * (double)(i1 - i0);
}

/* recurs_below() without the midpoint it counted drops below (halfway
 * from the samples' median to lm). */
static int recurs(const struct trace *tr, size_t i0, size_t i1, double lm, double *tmp)
{
	double mid;

	return recurs_below(tr, i0, i1, lm, tmp, &mid);
}

/*
 * Does block x end the context of a drop at level lm?  Only a clearly
 * slower stretch that is long on the context's scale (a phase): short
 * slower blocks are the comb's other teeth.
 */
static int slower_phase(const struct trace *tr, const struct block *x, double lm, size_t ctx)
{
	const struct slc_model_params *mp = slc__mp(tr);
	return slc__blevel(tr, x) < (1 - mp->delta_same) * lm && mp->phase_ctx_div * (x->i1 - x->i0) >= ctx;
}

/* Is block x at level lv, or a tooth as deep as a drop to lm (a quarter of
 * the way up, and no long stretch by slower_phase's measure: a level that
 * lasts is the next phase, as the native writing after a cache whose
 * throttle runs at about its speed)? */
static int same_or_tooth(const struct trace *tr, const struct block *x, double lv, double lm, size_t ctx)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double lx = slc__blevel(tr, x);

	return slc__reldiff(lx, lv) < mp->delta_same ||
	       (lx < lm + 0.25 * (lv - lm) && mp->phase_ctx_div * (x->i1 - x->i0) < ctx);
}

/*
 * Is block m, between a faster level la and a slower lc, a short level of
 * its own rather than a ramp?  It is flat (its inner samples, the first and
 * last left out as they may straddle, span under plateau_flat of the smaller
 * step to either side) and would be a later cache tier of la (as steady,
 * at least tier_lo of it, closer to it than to lc, clearly faster than
 * lc): the end of a cache written at the SLC's speed once a write buffer
 * has filled (the link being faster).  A ramp's blocks slope.  Kept from
 * the ramp rule only inside the tier prior's range (tier_lo): the
 * model reads tiers down to 0.44 at a cost, but a short block that slow
 * between two levels is more likely a ramp's middle than a tier.
 */
static int plateau(const struct trace *tr, const struct block *m, double la, double lc)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double lm = slc__blevel(tr, m), lo = INFINITY, hi = -INFINITY;

	if (m->i1 - m->i0 < mp->plateau_min) return 0;
	if (lm < mp->tier.lo * la || lm - lc <= la - lm || lm <= (1 + mp->delta_cache) * lc)
		return 0;
	for (size_t i = m->i0 + 1; i + 1 < m->i1; i++) {
		lo = fmin(lo, tr->v[i]);
		hi = fmax(hi, tr->v[i]);
	}
	return hi - lo < mp->plateau_flat * fmin(la - lm, lm - lc);
}

/*
 * A cache of 2-3 samples at the start of a curve: the segmentation's
 * minimum length (4 samples and more when the native speed wanders) puts
 * it into one block with the first native samples, whose spread then makes
 * that block "not significantly different" from the native level (rule 1's
 * t test) and the cache is gone.  When the first block's best two-mean
 * split has a head faster than the block after it by delta_cache and a
 * tail nearer that block's level than the head's, the block is split
 * there (when b, of @cap blocks, has room for one more).
 */
void slc__split_lead(const struct trace *tr, struct block *b, size_t *nbp, size_t cap)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t nb = *nbp, n0 = b[0].i1 - b[0].i0, best = 0;
	double bs = INFINITY, next, head, tail;

	if (nb < 2 || n0 < 2 || n0 > 2 * mp->lead_split_min) return;
	next = slc__blevel(tr, b + 1);
	for (size_t k = 1; k < n0; k++) {
		double m1 = slc__level(tr, 0, k), m2 = slc__level(tr, k, n0), sse = 0;
		for (size_t i = 0; i < n0; i++) {
			double d = tr->v[i] - (i < k ? m1 : m2);
			sse += d * d;
		}
		if (sse < bs) {
			bs = sse;
			best = k;
		}
	}
	if (!best) return;
	head = slc__level(tr, 0, best);
	tail = slc__level(tr, best, n0);
	/* ... and above the next block's noise: a noisy cache's first samples
	 * run high by chance */
	{
		size_t m = b[1].i1 - b[1].i0 < mp->lead_noise_max ? b[1].i1 - b[1].i0 : mp->lead_noise_max;
		double sig = slc__mad_sigma(tr, tr->v + b[1].i0, m);

		if (head <= next + mp->lead_noise_k * sig) return;
		/* a lead of two samples: the second joins the next block only
		 * when it is at that level, within its noise; one between the
		 * two is the straddler, which the byte balance splits */
		if (n0 == 2 && fabs(tail - next) > mp->lead_noise_k * sig) return;
	}
	if (!(head > (1 + mp->delta_cache) * next && fabs(tail - next) < fabs(head - tail))) return;
	/* a tail of a sample or two is the straddler and the first native
	 * samples: it joins the next block (the byte balance reads it there);
	 * a longer one is a level of its own until rule 1 says otherwise */
	if (n0 - best < 3) b[0].i1 = b[1].i0 = best;
	else slc__split_block(b, nbp, cap, 0, best);
}

/*
 * Is a drop of a few samples what the trace's own single-sample dips
 * explain?  Isolated dips (a sample 12% under both neighbours, which are
 * not) occur at a rate d.  If dips strike samples independently with
 * probability p, an isolated one is seen at a rate p (1 - p)^2 = d (p up to
 * 1/3, where that rate peaks), and a run of L of them somewhere in n
 * samples is expected n p^L times.  A drop that the dip process makes at
 * least coincident_expect times in the trace is texture, not a stall: a
 * drive that drops single samples now and then also drops two in a row
 * now and then, and a comb whose teeth strike a third of the samples has
 * runs of five.
 */
static double dip_prob(double d)
{
	double lo = 0, hi = 1.0 / 3;

	if (!(d > 0)) return 0;
	if (d >= 4.0 / 27) return hi;
	for (int it = 0; it < 50; it++) {
		double mid = 0.5 * (lo + hi);
		if (mid * (1 - mid) * (1 - mid) < d) lo = mid;
		else hi = mid;
	}
	return lo;
}

static int coincident(const struct trace *tr, const struct block *m)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t len = m->i1 - m->i0;

	return (double)tr->n * pow(tr->dip_prob, (double)len) >= mp->coincident_expect;
}

/*
 * Is a drop what the level's own noise makes somewhere in the trace?  The
 * drop's mean is compared with each side's median (the samples [lo, m->i0)
 * and [m->i1, hi) of the levels right before and after it, up to the
 * texture context or noise_side_min) in units of that side's noise: its robust
 * sigma, and its autocorrelation time tau (n samples of the drop are
 * n / tau independent ones, at least one).  A Gaussian noise makes a
 * deviation of z such units in a window at a rate P(Z > z) per window, and
 * the trace holds n_total / max(n, tau) windows; a drop the noise makes at
 * least coincident_expect times in the trace is noise (a noisy native
 * level's 1 s dip of 20%), not an event.  Judged against the side it is
 * least clearly below; a side shorter than texture_side_min says nothing.
 * Each side's noise is read from at least noise_side_min samples.
 */
static int noise_drop(const struct trace *tr, const struct block *m, size_t lo, size_t hi)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double nm = (double)(m->i1 - m->i0), lm = slc__blevel(tr, m), zmin = INFINITY;
	double tau_max = 1;
	size_t side[2][2] = { { lo, m->i0 }, { m->i1, hi } };

	for (int s = 0; s < 2; s++) {
		size_t a = side[s][0], e = side[s][1], n = e - a;
		double med, sig, tau, se, z;

		if (n < mp->texture_side_min) continue;
		tau = slc__series_tau(mp, tr->v + a, n, slc__max_lag_in(tr, n));
		sig = slc__mad_sigma(tr, tr->v + a, n);
		med = slc__median(tr, tr->v + a, n);
		se = sig * sqrt(fmin(1.0, tau / nm));
		z = se > 0 ? (med - lm) / se : INFINITY;
		if (z < zmin) zmin = z;
		if (tau > tau_max) tau_max = tau;
	}
	if (zmin == INFINITY) return 0;
	if (zmin <= 0) return 1;
	return (double)tr->n / fmax(nm, tau_max) * 0.5 * erfc(zmin / sqrt(2.0)) >= mp->coincident_expect;
}

/* The probability that a sample dips, from the rate of isolated
 * single-sample dips (a sample 12% under both neighbours, which are not
 * dips themselves): once per trace, for coincident(). */
double slc__dip_prob(const struct trace *tr)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t iso = 0;

	if (tr->n < 3) return 0;
	for (size_t i = 1; i + 1 < tr->n; i++) {
		double lo = (1 - mp->delta_same) * fmin(tr->v[i - 1], tr->v[i + 1]);
		if (tr->v[i] < lo && (i < 2 || tr->v[i - 1] >= (1 - mp->delta_same) * tr->v[i - 2]) &&
		    (i + 2 >= tr->n || tr->v[i + 1] >= (1 - mp->delta_same) * tr->v[i + 2]))
			iso++;
	}
	return dip_prob((double)iso / (double)tr->n);
}

/* Rule 1: merge the closest adjacent pair of levels that are not distinct. */
int slc__merge_same(const struct trace *tr, struct block *b, size_t *nb)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t best = 0;
	double bd = INFINITY;

	for (size_t j = 0; j + 1 < *nb; j++) {
		double d;
		if (b[j].dip || b[j + 1].dip) continue;
		d = slc__reldiff(slc__blevel(tr, b + j), slc__blevel(tr, b + j + 1));
		/* the t test needs a spread from each side: the two samples of a
		 * short cache at the start (split from its straddler) give none
		 * worth the name */
		if (d >= mp->delta_same && ((j == 0 && b[0].i1 - b[0].i0 < 3) ||
					slc__welch_t(tr, b + j, b + j + 1) >= mp->t_same))
			continue;
		if (d < bd) {
			bd = d;
			best = j;
		}
	}
	if (bd == INFINITY) return 0;
	slc__merge_range(b, nb, best, best + 1);
	return 1;
}

/*
 * Rule 4 at the end of the curve.  A run that ends inside a drop cuts it
 * off: the last block, more than delta_same below the level before it, is
 * one more of that level's drops when drops to its depth recur there (the
 * texture test, over the samples of that level and the drops kept inside
 * it, at most the texture context back) and it is no longer than the
 * longest of them.  Such a drop is absorbed as the others were (the MLC
 * drive whose GC dips of -25% recover, the last cut off by the end of a
 * 60 s run).  The writing after a cache lasts longer than a tooth of it.
 */
static size_t longest_run_below(const struct trace *tr, size_t i0, size_t i1, double mid)
{
	size_t best = 0, run = 0;

	for (size_t i = i0; i < i1; i++) {
		run = tr->v[i] < mid ? run + 1 : 0;
		if (run > best) best = run;
	}
	return best;
}

static int merge_cut_tooth(const struct trace *tr, struct block *b, size_t *nb, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t j = *nb - 1, l, len, ctx, lo;
	double la, lm, mid;

	if (*nb < 2 || b[j].dip || b[j - 1].dip) return 0;
	la = slc__blevel(tr, b + j - 1);
	lm = slc__blevel(tr, b + j);
	if (lm >= (1 - mp->delta_same) * la) return 0;
	len = b[j].i1 - b[j].i0;
	ctx = mp->texture_context_len * len < mp->texture_context_min ? mp->texture_context_min :
									 mp->texture_context_len * len;
	for (l = j - 1; l > 0 && (b[l - 1].dip || slc__reldiff(slc__blevel(tr, b + l - 1), la) < mp->delta_same); l--)
		;
	lo = back(b[j].i0, b[l].i0, ctx);
	if (!recurs_below(tr, lo, b[j].i0, lm, tmp, &mid)) return 0;
	if (longest_run_below(tr, lo, b[j].i0, mid) < len) return 0;
	slc__merge_range(b, nb, j - 1, j);
	return 1;
}

/*
 * Is block j + 1, a return to speed between slow blocks j and j + 2, a
 * burst in the slow writing (rule 3's) rather than the cache's speed back
 * after a stall?  So when it is at most half as long (in samples) as the
 * slow stretches either side, which go on at one level, with nothing
 * back at the speed after them; a comb's teeth and runs are alike in
 * length.
 */
static int burst_in_slow(const struct trace *tr, const struct block *b, size_t nb, size_t j)
{
	const struct slc_model_params *mp = slc__mp(tr);
	const struct block *m = b + j, *c = b + j + 1;
	double lm = slc__blevel(tr, m), fast;

	if (!(j >= 1 && j + 2 < nb) || b[j + 2].dip) return 0;
	fast = fmin(slc__blevel(tr, b + j - 1), slc__blevel(tr, c));
	/* the slow writing goes on: nothing after it is back at the speed
	 * (stalls between stretches of a cache stay rule 4's) */
	if (j + 3 < nb && slc__blevel(tr, b + j + 3) >= (1 - mp->delta_same) * fast) return 0;
	return 2 * (c->i1 - c->i0) <= m->i1 - m->i0 &&
	       2 * (c->i1 - c->i0) <= b[j + 2].i1 - b[j + 2].i0 &&
	       slc__reldiff(slc__blevel(tr, b + j + 2), lm) < mp->delta_same;
}

/* Rules 2-4 on the first interior block they apply to, then rule 4 on the
 * last block (a drop cut off by the end of the run). */
int slc__merge_transient(const struct trace *tr, struct block *b, size_t *nb,
			   double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	for (size_t j = 1; j + 1 < *nb; j++) {
		struct block *a = b + j - 1, *m = b + j, *c = b + j + 1;
		double la, lm, lc, dm, da, dc;

		if (a->dip || m->dip || c->dip) continue;
		la = slc__blevel(tr, a);
		lm = slc__blevel(tr, m);
		lc = slc__blevel(tr, c);
		dm = slc__bdur(tr, m);
		da = slc__bdur(tr, a);
		dc = slc__bdur(tr, c);
		if ((la > lm && lm > lc) || (la < lm && lm < lc)) {
			/* rule 2: a ramp (one or more monotone blocks)
			 * between two levels ramp_span times as long */
			size_t k = j, s;
			double run = dm, lk;
			int down = la > lm;

			while (k + 2 < *nb && !b[k + 2].dip &&
			       mp->ramp_span * (run + slc__bdur(tr, b + k + 1)) < da &&
			       (down ? slc__blevel(tr, b + k + 2) < slc__blevel(tr, b + k + 1)
				     : slc__blevel(tr, b + k + 2) > slc__blevel(tr, b + k + 1))) {
				k++;
				run += slc__bdur(tr, b + k);
			}
			c = b + k + 1;
			lc = slc__blevel(tr, c);
			if (mp->ramp_span * run >= fmin(da, slc__bdur(tr, c))) continue;
			if (k == j && down && plateau(tr, m, la, lc)) continue;
			/* blocks closer to a's level join a, the rest join c */
			for (s = j; s <= k; s++) {
				lk = slc__blevel(tr, b + s);
				if (fabs(lk - la) > fabs(lk - lc)) break;
			}
			if (s <= k) slc__merge_range(b, nb, s, k + 1);
			if (s > j) slc__merge_range(b, nb, j - 1, s - 1);
			return 1;
		}
		if (lm > la && lm > lc) {
			/* rule 3: a short burst; one back at the speed of the
			 * curve's first level, well above the writing around it,
			 * is kept for the model to read as the cache back */
			if (dm > fmin(da, dc)) continue;
			if (j > 1 && m->i1 - m->i0 >= mp->rec_keep_min && lm >= mp->rec_frac * slc__blevel(tr, b) &&
			    slc__blevel(tr, b) > (1 + mp->delta_cache) * fmax(la, lc) &&
			    lm > (1 + mp->delta_cache) * fmax(la, lc))
				continue;
			if (slc__reldiff(la, lc) < mp->delta_same) slc__merge_range(b, nb, j - 1, j + 1);
			else if (la - lm >= lc - lm) slc__merge_range(b, nb, j - 1, j);
			else slc__merge_range(b, nb, j, j + 1);
			return 1;
		}
		/* (a stall between two blocks at one level lasts at most
		 * stall_span times the two together: a journal flush inside a
		 * cache takes seconds; a slow stretch far longer than the cache
		 * around it, then the cache back, is a dynamic cache's native
		 * writing) */
		if (burst_in_slow(tr, b, *nb, j)) continue;
		if (lm < (1 - mp->delta_same) * fmin(la, lc) &&
		    (dm <= dc || (slc__reldiff(la, lc) < mp->delta_same &&
				  lm < mp->stall_frac * fmin(la, lc) && dm <= mp->stall_span * (da + dc)))) {
			/* rule 4: a temporary drop */
			if (slc__reldiff(la, lc) >= mp->delta_same && lm >= mp->edge_drop_min * fmin(la, lc)) {
				/* between two levels, a shallow drop returns to
				 * neither: the slow start (or end) of the lower
				 * one, as a wander of the native speed right after
				 * a cache; a deeper one (a drive's stall after
				 * its cache, at half speed) stays a drop */
				if (lc < la) slc__merge_range(b, nb, j, j + 1);
				else slc__merge_range(b, nb, j - 1, j);
				return 1;
			}
			/* context: a few times the drop's length each side */
			size_t ctx = mp->texture_context_len * (m->i1 - m->i0), lo, hi, nctx;
			if (ctx < mp->texture_context_min) ctx = mp->texture_context_min;
			nctx = ctx > mp->noise_side_min ? ctx : mp->noise_side_min;
			size_t l = j, r = j;

			/* a drop inside one level (the same on both sides, as
			 * a stall inside the cache) recurs only if other drops
			 * do within that level: its context ends where the
			 * level does */
			int inside = slc__reldiff(la, lc) < mp->delta_same &&
				     lm < mp->stall_frac * fmin(la, lc);

			while (l > 0 && !slower_phase(tr, b + l - 1, lm, ctx) &&
			       m->i0 - b[l - 1].i1 < ctx &&
			       (!inside || same_or_tooth(tr, b + l - 1, la, lm, ctx)))
				l--;
			while (r + 1 < *nb && !slower_phase(tr, b + r + 1, lm, ctx) &&
			       b[r + 1].i0 - m->i1 < ctx &&
			       (!inside || same_or_tooth(tr, b + r + 1, lc, lm, ctx)))
				r++;
			lo = back(m->i0, b[l].i0, ctx);
			hi = fwd(m->i1, b[r].i1, ctx);
			if (!recurs(tr, lo, m->i0, lm, tmp) && !recurs(tr, m->i1, hi, lm, tmp) &&
			    !coincident(tr, m) &&
			    !noise_drop(tr, m, back(m->i0, a->i0, nctx), fwd(m->i1, c->i1, nctx))) {
				m->dip = 1;
				m->kind = lm < mp->stall_frac * la ?
					  SLC_PHASE_STALL : SLC_PHASE_THROTTLED;
				return 1;
			}
			if (slc__reldiff(la, lc) < mp->delta_same) slc__merge_range(b, nb, j - 1, j + 1);
			else if (la - lm <= lc - lm) slc__merge_range(b, nb, j - 1, j);
			else slc__merge_range(b, nb, j, j + 1);
			return 1;
		}
	}
	return merge_cut_tooth(tr, b, nb, tmp);
}
