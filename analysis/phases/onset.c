// SPDX-License-Identifier: MIT
/*
 * The erase-bound onset: the search over groups, small lasting steps, the refinement.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/*
 * First erase-bound group among the native groups [k, ng), or ng.  A decay
 * starts it when everything from there on is a lasting drop.  Otherwise
 * the native groups are split in two where a two-level fit is best; a
 * lasting drop there is an onset, and the part before is searched again
 * for an earlier one (direct-to-TLC, erase-bound, then slower still).
 */
size_t slc__erase_onset(const struct slc_model_params *mp, const struct group *g, size_t k, size_t ng)
{
	size_t onset = ng, end = ng;

	for (size_t q = k + 1; q < ng; q++) {
		struct span before = slc__span_of(g, k, q), after = slc__span_of(g, q, ng);
		if (g[q].decay && slc__is_drop(mp, &before, &after) &&
		    slc__stays_below(mp, g, q, ng, before.level)) {
			onset = end = q;
			break;
		}
	}
	while (end > k + 1) {
		size_t best = 0;
		double bs = INFINITY;
		struct span before, after;

		for (size_t q = k + 1; q < end; q++) {
			double sse;
			before = slc__span_of(g, k, q);
			after = slc__span_of(g, q, end);
			if (!slc__stays_below(mp, g, q, end, before.level)) continue;
			sse = slc__span_sse(&before) + slc__span_sse(&after);
			if (sse < bs) {
				bs = sse;
				best = q;
			}
		}
		if (bs == INFINITY) break;
		before = slc__span_of(g, k, best);
		after = slc__span_of(g, best, end);
		if (!slc__is_drop(mp, &before, &after)) break;
		onset = end = best;
	}
	return onset;
}

/*
 * A small lasting step inside the native writing (when no larger onset was
 * found): the best two-level split of the samples of the main blocks from
 * block @j0 and sample @from on (drops left out).  Puts in @at the sample index where the
 * slower level starts, or 0 when there is no such step (STEP_* above), in
 * @fall how much slower it is (a fraction of the level before);
 * returns 0 or -ENOMEM.
 */
static int small_step(const struct trace *tr, const struct block *b, size_t nb,
		      size_t j0, size_t from, double *x, size_t *at, double *fall)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t n = 0, best, *idx, max_lag;

	*at = 0;
	*fall = 0;
	for (size_t j = j0; j < nb; j++)
		if (!b[j].dip && b[j].i1 > from) n += b[j].i1 - (b[j].i0 > from ? b[j].i0 : from);
	if (n < 2 * mp->step_min_len) return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx) return -ENOMEM;
	n = 0;
	for (size_t j = j0; j < nb; j++) {
		if (b[j].dip) continue;
		for (size_t i = b[j].i0 > from ? b[j].i0 : from; i < b[j].i1; i++) {
			idx[n] = i;
			x[n++] = tr->v[i];
		}
	}
	best = slc__best_split(x, n, mp->step_min_len);
	if (best) {
		size_t nb_ = best, na = n - best;
		double mb = slc__mean_of(x, nb_), ma = slc__mean_of(x + best, na), vb = 0, va = 0;
		double tb, ta, tau, se, t_need = mp->step_t;

		max_lag = slc__max_lag(tr);
		for (size_t i = 0; i < nb_; i++) vb += (x[i] - mb) * (x[i] - mb);
		for (size_t i = best; i < n; i++) va += (x[i] - ma) * (x[i] - ma);
		tb = slc__series_tau(mp, x, nb_, max_lag);
		ta = slc__series_tau(mp, x + best, na, max_lag);
		if (ma < (1 - mp->delta_erase) * mb) {
			double bb = slc__batch_tau(x, nb_), ba = slc__batch_tau(x + best, na);

			/* both sides long enough for batch means (8 batches) */
			if (isfinite(bb) && isfinite(ba)) {
				tb = fmin(tb, bb);
				ta = fmin(ta, ba);
				t_need = mp->step_t_large;
			}
		}
		tau = vb + va > 0 ? (vb * tb + va * ta) / (vb + va) : 1;
		vb /= (double)(nb_ - 1);
		va /= (double)(na - 1);
		se = sqrt(tau * (vb / (double)nb_ + va / (double)na));
		if (ma < (1 - mp->step_small) * mb && se > 0 && (mb - ma) / se >= t_need &&
		    (double)nb_ / tb >= mp->step_min_eff && (double)na / ta >= mp->step_min_eff &&
		    slc__quarters_on_side(x, nb_, 0.5 * (mb + ma), 1) &&
		    slc__quarters_on_side(x + best, na, 0.5 * (mb + ma), -1)) {
			*at = idx[best];
			*fall = 1 - ma / mb;
		}
	}
	free(idx);
	return 0;
}

/*
 * An onset the labelling misplaced: the merges that fold a comb's stalls
 * into the level around them can move it to a stall seconds away from the
 * step, carrying the first stretch of erase-bound writing into the
 * direct-to-TLC group before it (which then falls inside, DECAY_OWN) or the
 * last stretch of direct-to-TLC writing into the erase-bound group.  The
 * samples of all the direct-to-TLC groups and the first erase-bound one
 * (drops left out) are split in two where a two-level fit is best, the
 * split searched from the group just before the onset group on.  When the
 * step there is an erase-bound one (delta_erase) and step_t_large standard
 * errors, the onset moves back to it if it lies in that falling group and
 * the part after it is closer to the erase-bound level than to the level
 * before, or forward if it lies in the erase-bound group and the head up
 * to it is closer to the direct-to-TLC level and not significantly below
 * it (a smooth decay's head is, and keeps its onset).  The block holding
 * the split is cut (when b, of @cap blocks, has room for one more).
 * Returns 0 or -ENOMEM.
 */
int slc__refine_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap,
		      const struct group *g, double *x, double min_onset_bytes)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t je = *nb, p, q, kd, n = 0, n0 = 0, np = 0, *idx, best, max_lag, at = 0, side;

	for (size_t j = 0; j < *nb && je == *nb; j++)
		if (!b[j].dip && b[j].kind == SLC_PHASE_ERASE_BOUND) je = j;
	if (je == *nb || b[je].group <= 0) return 0;
	q = (size_t)b[je].group;
	p = q - 1;
	if (g[q].first != je || b[g[p].first].kind != SLC_PHASE_DIRECT_TO_TLC)
		return 0;
	for (kd = p; kd > 0 && b[g[kd - 1].first].kind == SLC_PHASE_DIRECT_TO_TLC; kd--)
		;
	idx = malloc(tr->n * sizeof(*idx));
	if (!idx) return -ENOMEM;
	/* all the direct-to-TLC writing before (its level), the onset group;
	 * the split is searched from the group before the onset group on */
	for (size_t j = g[kd].first; j <= g[q].last; j++) {
		if (b[j].dip) continue;
		if (j == g[p].first) n0 = n;
		for (size_t i = b[j].i0; i < b[j].i1; i++) {
			idx[n] = i;
			x[n++] = tr->v[i];
		}
		if (j <= g[p].last) np = n;
	}
	side = (np - n0) / mp->onset_side_div > mp->texture_side_min ? (np - n0) / mp->onset_side_div :
								       mp->texture_side_min;
	best = n >= n0 + 2 * side ? slc__best_split_in(x, n, n0 > side ? n0 : side, n - side) : 0;
	max_lag = slc__max_lag(tr);
	if (!best || best == np || slc__mean_of(x + best, n - best) >= (1 - mp->delta_erase) * slc__mean_of(x, best) ||
	    slc__split_t(mp, x, n, best, max_lag) < mp->step_t_large)
		goto out;
	if (tr->cum[idx[best]] < min_onset_bytes) goto out;
	if (best < np && (g[p].decay & DECAY_OWN)) {
		/* back: the tail of the group before is at the level after */
		double mb = slc__mean_of(x, best), ma = slc__mean_of(x + np, n - np), mt = slc__mean_of(x + best, np - best);

		if (fabs(mt - ma) < fabs(mt - mb)) {
			at = idx[best];
			slc__erase_bound_from(b, nb, cap, g[p].first, je, at);
		}
	} else if (best > np) {
		/* forward: the head of the onset group is still at the
		 * direct-to-TLC level, not significantly below it (a smooth
		 * decay's head is, unless buried in a comb's noise) */
		struct span d = slc__span_of(g, kd, q);
		double md = d.cnt > 0 ? d.s1 / d.cnt : 0, vd = d.cnt > 1 ? slc__span_sse(&d) / (d.cnt - 1) : 0;
		double td = fmin(d.c0 > 0 ? d.c0tau / d.c0 : 1, slc__batch_tau(x, np)), mh, vh = 0, th, ma, se;
		size_t nh = best - np;

		mh = slc__mean_of(x + np, nh);
		ma = slc__mean_of(x + best, n - best);
		for (size_t i = np; i < best; i++) vh += (x[i] - mh) * (x[i] - mh);
		vh /= (double)(nh > 1 ? nh - 1 : 1);
		th = fmin(slc__series_tau(mp, x + np, nh, max_lag), slc__batch_tau(x + np, nh));
		se = sqrt(td * vd / fmax(d.cnt, 1) + th * vh / (double)nh);
		/* medians too: a comb's stalls dilute the means, and a head
		 * without a stall in it would look close to the diluted level
		 * before (the medians are the runs' levels) */
		double qd = slc__median(tr, x, np), qh = slc__median(tr, x + np, nh), qa = slc__median(tr, x + best, n - best);

		if (d.cnt >= 2 && fabs(mh - md) < fabs(mh - ma) && fabs(qh - qd) < fabs(qh - qa) &&
		    (se <= 0 || (md - mh) / se < mp->t_same)) {
			at = idx[best];
			for (size_t j = je; j <= g[q].last; j++) {
				if (b[j].i0 >= at) break;
				if (b[j].i1 > at) {
					if (slc__split_block(b, nb, cap, j, at)) b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
					break;
				}
				if (!b[j].dip) b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
			}
		}
	}
out:
	free(idx);
	return 0;
}

/*
 * Without an erase-bound phase, look for a small lasting step in the native
 * writing from its first block on: the block that starts there (the one
 * holding the step split, when b, of @cap blocks, has room for one more) is
 * marked a level of its own (block.step), for the model to weigh: a phase
 * change, or a step inside one phase, which then costs the jump
 * (jump_cost() in model.c).  Only the samples from @from on are searched
 * (the cache's teeth before them are no native writing).  @at gets the
 * step's sample, 0 when none was marked, @fall the fraction of the speed
 * it costs.  Returns 0 or -ENOMEM.
 */
int slc__mark_small_step(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp,
			 size_t from, double min_onset_bytes, size_t *at_out, double *fall)
{
	size_t j0 = *nb, at;
	int ret;

	*at_out = 0;

	for (size_t j = 0; j < *nb; j++) {
		if (b[j].dip) continue;
		if (b[j].kind == SLC_PHASE_ERASE_BOUND) return 0;
		if (b[j].kind == SLC_PHASE_DIRECT_TO_TLC && j0 == *nb) j0 = j;
	}
	if (j0 == *nb) return 0;
	ret = small_step(tr, b, *nb, j0, from, tmp, &at, fall);
	if (ret || !at || tr->cum[at] < min_onset_bytes) return ret;
	/* @at is a sample of the native writing, never one of a drop */
	if (slc__mark_step(b, nb, cap, j0, at, SLC__STEP_SMALL) < *nb) *at_out = at;
	return 0;
}

/*
 * The onset of a decay.  Garbage collection that sets in gradually bends
 * the native level into a decay towards an asymptote, often after a first
 * drop (an MLC drive: 90k IOPS, 70k, then a decay to 13k): the fall is
 * spread over the decay, and the segmentation's first lasting step lies
 * well into it (5-15% of the bytes late).  The onset is placed where a flat
 * level, then a step and an exponential approach, fits the samples best
 * (least squares; the level, the step, the depth and
 * the time constant fitted for each candidate onset h, the time constant
 * over a log grid of fit_taus values from 2 samples to the window's
 * length).  The curve gives the window: the decay has covered 63% of its
 * fall (from the native level to the median of the erase-bound phase's last
 * quarter) at i63.  Candidates run from decay_win lengths before
 * the onset the labelling found to that onset (a length: an eighth of the
 * erase-bound samples, at least decay_win_min); the fit covers them and as
 * far after i63 again.  The onset only moves back, into native writing,
 * and not before @min_onset_bytes.
 */

/* Solve the normal equations m (3 x 4, augmented) in place; the
 * coefficients into @beta.  0 when singular. */
static int solve3(double m[3][4], double beta[3])
{
	/* Gauss-Jordan with partial pivoting (row swaps keep the unknowns' order) */
	for (int c = 0; c < 3; c++) {
		int piv = c;
		for (int r = c + 1; r < 3; r++)
			if (fabs(m[r][c]) > fabs(m[piv][c])) piv = r;
		if (!(fabs(m[piv][c]) > 1e-12 * (fabs(m[0][0]) + 1))) return 0;
		for (int q = 0; q < 4; q++) {
			double t = m[c][q];
			m[c][q] = m[piv][q];
			m[piv][q] = t;
		}
		for (int r = 0; r < 3; r++) {
			double f;
			if (r == c) continue;
			f = m[r][c] / m[c][c];
			for (int q = c; q < 4; q++) m[r][q] -= f * m[c][q];
		}
	}
	for (int c = 0; c < 3; c++) beta[c] = m[c][3] / m[c][c];
	return 1;
}

/* Least-squares SSE of y = a + c u(i) + s f(i) over samples [lo, hi): u
 * the step at h (0 before, 1 from h on: the onset may also be a drop), f 0
 * before h and 1 - exp(-(i - h) / tau) from h on. */
static double knee_sse(const double *v, size_t lo, size_t hi, size_t h, double tau, double *coef)
{
	/* normal equations over the regressors (1, u, f) */
	double m[3][4] = { { 0 } }, syy = 0, beta[3], xy[3], sse = 0;

	for (size_t i = lo; i < hi; i++) {
		double r[3] = { 1, i >= h, i > h ? 1 - exp(-(double)(i - h) / tau) : 0 }, y = v[i];
		for (int p = 0; p < 3; p++) {
			for (int q = 0; q < 3; q++) m[p][q] += r[p] * r[q];
			m[p][3] += r[p] * y;
		}
		syy += y * y;
	}
	for (int p = 0; p < 3; p++) xy[p] = m[p][3];
	if (!solve3(m, beta)) return INFINITY;
	if (coef) memcpy(coef, beta, sizeof(beta));
	/* SSE = y'y - beta' X'y */
	for (int p = 0; p < 3; p++) sse += beta[p] * xy[p];
	return syy - sse;
}

/*
 * The best knee over onsets h = h0, h0 + step, ... <= h1 and the time
 * constants of the grid, for the fit over [lo, hi) that falls: its onset (0 if none),
 * time constant @tau_out and SSE @sse_out, and in @sse_at_h1 the best SSE
 * with the onset at h1 (what the knee is compared with).  For one time
 * constant every sum the normal equations need is a suffix sum over the
 * samples from h on: with g_i = exp(-(i - h) / tau), f = 1 - g from h on,
 * so with N the samples from h, Y their sum, A = sum g y, B = sum g and
 * C = sum g^2 (each a recursion from the end), sum f = N - B,
 * sum f^2 = N - 2B + C, sum f y = Y - A; one pass per time constant.
 */
static size_t knee_search(const struct slc_model_params *mp, const double *v, size_t lo, size_t hi, size_t h0,
			  size_t h1, size_t step,
			  double *tau_out, double *sse_out, double *sse_at_h1)
{
	double n = (double)(hi - lo), sy = 0, syy = 0, bs = INFINITY;
	size_t best = 0;

	if (h0 > h1 || hi <= h1 + 1) return 0;
	for (size_t i = lo; i < hi; i++) {
		sy += v[i];
		syy += v[i] * v[i];
	}
	for (size_t k = 0; k < mp->fit_taus; k++) {
		double tau = 2 * pow(n / 2, (double)k / (mp->fit_taus - 1)), g = exp(-1 / tau);
		double A = 0, B = 0, C = 0, Y = 0;
		size_t i = hi;

		for (size_t h = h1;; h = h - step) {
			double N, m[3][4], beta[3], sse;

			/* the suffix sums from h on */
			while (i > h) {
				i--;
				A = v[i] + g * A;
				B = 1 + g * B;
				C = 1 + g * g * C;
				Y += v[i];
			}
			N = (double)(hi - h);
			double sf = N - B, sff = N - 2 * B + C, sfy = Y - A;
			double r[3][3] = { { n, N, sf }, { N, N, sf }, { sf, sf, sff } }, xy[3] = { sy, Y, sfy };
			for (int p = 0; p < 3; p++) {
				for (int q = 0; q < 3; q++) m[p][q] = r[p][q];
				m[p][3] = xy[p];
			}
			/* the speed falls at an onset towards a positive
			 * asymptote: neither the step nor the approach may rise
			 * (a fit that rises matches a noisy native level's
			 * upswing), nor the fit fall to nothing (a comb's stalls
			 * fitted as a collapse) */
			if (solve3(m, beta)) {
				sse = syy - (beta[0] * xy[0] + beta[1] * xy[1] + beta[2] * xy[2]);
				/* the onset found is compared as it best fits */
				if (h == h1 && sse < *sse_at_h1) *sse_at_h1 = sse;
				if (sse < bs && beta[1] <= 0 && beta[2] <= 0 && beta[0] + beta[1] + beta[2] > 0) {
					bs = sse;
					best = h;
					*tau_out = tau;
				}
			}
			if (h < h0 + step) break;
		}
	}
	*sse_out = bs;
	return best;
}

void slc__refine_decay_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *x,
			     double min_onset_bytes)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t je = *nb, jn = *nb, on, neb = 0, d, lo, hi, best = 0, step, i63, m = 0;
	double bs = INFINITY, first, last, top, thr, bt = 1, son = INFINITY;

	for (size_t j = 0; j < *nb && je == *nb; j++) {
		if (b[j].dip) continue;
		if (b[j].kind == SLC_PHASE_ERASE_BOUND) je = j;
		else if (b[j].kind == SLC_PHASE_DIRECT_TO_TLC && jn == *nb) jn = j;
	}
	if (je == *nb || jn == *nb) return;
	on = b[je].i0;
	for (size_t j = je; j < *nb; j++)
		if (!b[j].dip) neb += b[j].i1 - b[j].i0;
	if (neb < 4 * mp->decay_win_min || on - b[jn].i0 < mp->decay_win_min) return;
	/* a decay: its first quarter clearly faster than its last */
	for (size_t j = je; j < *nb; j++)
		for (size_t i = b[j].i0; i < b[j].i1 && !b[j].dip; i++) x[m++] = tr->v[i];
	first = slc__median(tr, x, m / 4);
	last = slc__median(tr, x + m - m / 4, m / 4);
	if (!(first > mp->decay_fall * last)) return;
	/* the native level just before, and where 63% of the fall is done */
	m = on - b[jn].i0 < 4 * mp->decay_win_min ? on - b[jn].i0 : 4 * mp->decay_win_min;
	memcpy(x, tr->v + on - m, m * sizeof(*x));
	top = slc__median(tr, x, m);
	if (!(top > mp->decay_fall * last)) return;
	thr = top - 0.632 * (top - last);
	for (i63 = on; i63 + mp->decay_i63_median <= tr->n; i63++) {
		memcpy(x, tr->v + i63, mp->decay_i63_median * sizeof(*x));
		if (slc__median(tr, x, mp->decay_i63_median) < thr) break;
	}
	if (i63 + mp->decay_i63_median > tr->n) return;
	d = neb / mp->decay_win_div > mp->decay_win_min ? neb / mp->decay_win_div : mp->decay_win_min;
	lo = on > b[jn].i0 + mp->decay_win * d ? on - mp->decay_win * d : b[jn].i0;
	hi = i63 + (i63 - lo) < tr->n ? i63 + (i63 - lo) : tr->n;
	step = (on - lo) / mp->decay_grid ? (on - lo) / mp->decay_grid : 1;
	best = knee_search(mp, tr->v, lo, hi, lo + mp->decay_win_min / 2, on < i63 ? on : i63 - 1, step, &bt, &bs, &son);
	if (!best || best >= on || tr->cum[best] < min_onset_bytes) return;
	/* only when the earlier knee explains the samples clearly better than
	 * the onset found: by more than a BIC penalty (2 ln n), in units of
	 * the best fit's residual variance inflated by the residuals'
	 * autocorrelation time (a wandering native speed fits knees anywhere) */
	{
		size_t nn = hi - lo, max_lag = slc__max_lag(tr);
		double co[3] = { 0, 0, 0 }, tau, gain;

		bs = knee_sse(tr->v, lo, hi, best, bt, co);
		gain = son - bs;
		for (size_t i = lo; i < hi; i++)
			x[i - lo] = tr->v[i] - co[0] - (i >= best ? co[1] : 0) -
				    (i > best ? co[2] * (1 - exp(-(double)(i - best) / bt)) : 0);
		tau = slc__series_tau(mp, x, nn, max_lag);
		if (!(bs > 0) || gain / (bs / (double)nn * tau) < 2 * log((double)nn)) return;
	}
	slc__erase_bound_from(b, nb, cap, jn, je, best);
}
