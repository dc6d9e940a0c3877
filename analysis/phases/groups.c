// SPDX-License-Identifier: MIT
/*
 * Groups (one level across temporary drops), their statistics, and lasting drops.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/*
 * Does a group's speed fall as a decay does, beyond its noise?  Its
 * samples (in time order, its main blocks) fitted by least squares with an
 * exponential approach from its start, y = a + s exp(-i / tau) for each of
 * fit_taus time constants (log-spaced from 2 samples to the group's
 * length), against one flat level: the decay's fit must gain more than a
 * BIC penalty (2 ln n) in units of its residual variance inflated by the
 * residuals' autocorrelation time (the decay onset's test, onset.c), fall
 * (s > 0) and stay above nothing.  A wander of the native speed gains
 * little once its correlation is counted; an exponential that has reached
 * its asymptote in the group's second half still gains in full.
 */
static int falls_steadily(const struct trace *tr, const struct block *b, const struct group *g,
			  double *x)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t m = 0, n = (size_t)g->cnt;
	double my = 0, sst = 0, best = INFINITY, ba = 0, bs = 0, bt = 1, tau_r;

	if (n < mp->trend_min_samples) return 0;
	for (size_t j = g->first; j <= g->last; j++)
		for (size_t i = b[j].i0; i < b[j].i1 && !b[j].dip; i++) x[m++] = tr->v[i];
	my = slc__mean_of(x, n);
	for (size_t i = 0; i < n; i++) sst += (x[i] - my) * (x[i] - my);
	for (size_t k = 0; k < mp->fit_taus; k++) {
		double tau = 2 * pow((double)n / 2, (double)k / (mp->fit_taus - 1)), e = exp(-1 / tau), f = 1;
		double sf = 0, sff = 0, sfy = 0, a, sl, sse, den;

		for (size_t i = 0; i < n; i++, f *= e) {
			sf += f;
			sff += f * f;
			sfy += f * x[i];
		}
		den = sff - sf * sf / (double)n;
		if (!(den > 0)) continue;
		sl = (sfy - sf * my) / den;
		a = my - sl * sf / (double)n;
		sse = sst - sl * sl * den;
		if (sse < best && sl > 0 && a > 0) {
			best = sse;
			ba = a;
			bs = sl;
			bt = tau;
		}
	}
	if (best == INFINITY) return 0;
	if (!(best > 0)) return 1;	/* the decay fits exactly */
	{
		double f = 1, e = exp(-1 / bt);

		for (size_t i = 0; i < n; i++, f *= e) x[i] -= ba + bs * f;
	}
	tau_r = slc__series_tau(mp, x, n, slc__max_lag_in(tr, n));
	return (sst - best) / (best / (double)n * tau_r) > 2 * log((double)n);
}

static void group_stats(const struct trace *tr, const struct block *b,
			struct group *g, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double bytes = 0, dur = 0, med, first, last;
	size_t m = 0, q;
	int falls = 0;

	for (size_t j = g->first; j <= g->last; j++) {
		if (b[j].dip) continue;
		bytes += tr->cum[b[j].i1] - tr->cum[b[j].i0];
		dur += slc__bdur(tr, b + j);
		for (size_t i = b[j].i0; i < b[j].i1; i++) tmp[m++] = tr->v[i];
	}
	g->level = dur > 0 ? bytes / dur : 0;
	g->bytes = bytes;
	g->dur_s = dur;
	g->s1 = g->s2 = 0;
	g->cnt = (double)m;
	for (size_t i = 0; i < m; i++) {
		g->s1 += tmp[i];
		g->s2 += tmp[i] * tmp[i];
	}
	g->cov = 0;
	g->decay = 0;
	g->falls = 0;
	g->trend = 1;
	g->p90 = m ? slc__quantile(tr, tmp, m, 0.9) : 0;
	if (m < 2) return;
	/* trend: medians of the first and the last quarter, in time order */
	q = m / 4 ? m / 4 : 1;
	first = slc__median(tr, tmp, q);
	last = slc__median(tr, tmp + m - q, q);
	g->trend = last > 0 ? first / last : 1;
	/* a decay moves the whole distribution down; teeth at a level's end
	 * (a comb as a cache fills up) pull only its lower part: the upper
	 * quartile must fall too */
	if (m >= mp->trend_min_samples && first > mp->decay_trend * last &&
	    slc__quantile(tr, tmp, q, 0.75) > mp->decay_trend * slc__quantile(tr, tmp + m - q, q, 0.75))
		g->decay = DECAY_OWN;
	/* a smaller fall (head_trend) that a decay explains beyond the
	 * noise: the start of a decay when the level is short enough (the
	 * model's decays_after_first), a drift of the native speed otherwise */
	else if (m >= mp->trend_min_samples && first > mp->head_trend * last &&
		 slc__quantile(tr, tmp, q, 0.75) > mp->head_trend * slc__quantile(tr, tmp + m - q, q, 0.75))
		falls = 1;
	/* robust coefficient of variation: outliers do not make a cache noisy */
	med = slc__median(tr, tmp, m);
	g->cov = med > 0 ? slc__mad_sigma(tr, tmp, m) / med : 0;
	g->falls = falls && falls_steadily(tr, b, g, tmp);
}

/*
 * Variance inflation of the mean of a group's samples: the integrated
 * autocorrelation time 1 + 2 sum_k rho_k, with rho_k the lag-k
 * autocorrelation of the samples about their block's mean, pooled over the
 * group's main blocks (so that level changes do not count), summed up to
 * the first lag where it falls to rho_cut (at most @max_lag).  Unlike the
 * segmentation's AR(1) rho it is neither clamped nor shared between phases:
 * a slow wander of the native speed (Ornstein-Uhlenbeck, a correlation
 * time of seconds, sampled every 20-100 ms) inflates the variance of a mean
 * twentyfold and more, and its stretches of ten seconds above or below the
 * mean are not lasting drops, while erase-bound GC may alternate sample to
 * sample.
 */
static double group_tau(const struct trace *tr, const struct block *b, struct group *g,
			size_t max_lag)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double c0 = 0, tau = 1;

	for (size_t j = g->first; j <= g->last; j++) {
		double m = (tr->sv[b[j].i1] - tr->sv[b[j].i0]) / (double)(b[j].i1 - b[j].i0);

		if (b[j].dip) continue;
		for (size_t i = b[j].i0; i < b[j].i1; i++) c0 += (tr->v[i] - m) * (tr->v[i] - m);
	}
	g->c0 = c0;
	if (!(c0 > 0)) return 1;
	for (size_t k = 1; k <= max_lag; k++) {
		double ck = 0;

		for (size_t j = g->first; j <= g->last; j++) {
			double m = (tr->sv[b[j].i1] - tr->sv[b[j].i0]) / (double)(b[j].i1 - b[j].i0);

			if (b[j].dip) continue;
			for (size_t i = b[j].i0; i + k < b[j].i1; i++)
				ck += (tr->v[i] - m) * (tr->v[i + k] - m);
		}
		if (ck / c0 <= mp->rho_cut) break;
		tau += 2 * ck / c0;
	}
	return tau;
}

/*
 * Groups: main blocks at one level, separated only by temporary drops.
 * Returns the number of groups written to g (room for nb).
 */
size_t slc__make_groups(const struct trace *tr, struct block *b, size_t nb,
			  struct group *g, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t ng = 0, max_lag;

	for (size_t j = 0; j < nb; j++) {
		if (b[j].dip) continue;
		if (ng > 0 && !b[j].step) {
			struct group *p = g + ng - 1;
			if (slc__reldiff(p->level, slc__blevel(tr, b + j)) < mp->delta_same) {
				p->last = j;
				b[j].group = (int)(ng - 1);
				group_stats(tr, b, p, tmp);
				continue;
			}
		}
		g[ng].first = g[ng].last = j;
		b[j].group = (int)ng;
		group_stats(tr, b, g + ng, tmp);
		g[ng].step = b[j].step;
		ng++;
	}
	/* smooth decays: runs of falling levels in small steps */
	for (size_t k = 0; k < ng;) {
		size_t e = k;
		while (e + 1 < ng && g[e + 1].level < g[e].level &&
		       g[e + 1].level >= mp->decay_step_min * g[e].level)
			e++;
		/* the head of the run is the level the decay starts from */
		if (e - k + 1 >= mp->decay_min_blocks)
			for (size_t q = k + 1; q <= e; q++) g[q].decay |= DECAY_RUN;
		k = e + 1;
	}
	/* a level that runs without a jump into a decay is its beginning */
	for (size_t q = ng - 1; q-- > 1;) {
		const struct block *x = b + g[q].last, *y = b + g[q + 1].first;
		size_t lx = x->i1 - x->i0 < mp->balance_ref_max ? x->i1 - x->i0 : mp->balance_ref_max;
		size_t ly = y->i1 - y->i0 < mp->balance_ref_max ? y->i1 - y->i0 : mp->balance_ref_max;

		if (!g[q + 1].decay || g[q].decay || y != x + 1 ||
		    g[q].level < (1 - mp->delta_same) * g[q + 1].level)
			continue;
		if (slc__reldiff(slc__sample_quantile(tr, x->i1 - lx, x->i1, 0, 0, 0.5, tmp),
			    slc__sample_quantile(tr, y->i0, y->i0 + ly, 0, 0, 0.5, tmp)) < mp->delta_same)
			g[q].decay = DECAY_HEAD;
	}
	max_lag = slc__max_lag(tr);
	for (size_t q = 0; q < ng; q++) g[q].tau = group_tau(tr, b, g + q, max_lag);
	return ng;
}

struct span slc__span_of(const struct group *g, size_t a, size_t e)
{
	struct span r = { 0, 0, 0, 0, 0, 0 };
	double bytes = 0, dur = 0;

	for (size_t q = a; q < e; q++) {
		bytes += g[q].bytes;
		dur += g[q].dur_s;
		r.s1 += g[q].s1;
		r.s2 += g[q].s2;
		r.cnt += g[q].cnt;
		r.c0 += g[q].c0;
		r.c0tau += g[q].c0 * g[q].tau;
	}
	r.level = dur > 0 ? bytes / dur : 0;
	return r;
}

double slc__span_sse(const struct span *s)
{
	return s->cnt > 0 ? s->s2 - s->s1 * s->s1 / s->cnt : 0;
}

/*
 * A lasting drop: clearly slower, and significant against the spread.  The
 * standard error is inflated by the noise's autocorrelation time, pooled
 * over both sides (weighted by their sums of squares): under the null
 * hypothesis both are one level with one noise process, and a short side's
 * own estimate is biased low (its mean absorbs part of a slow wander).
 */
int slc__is_drop(const struct slc_model_params *mp, const struct span *before, const struct span *after)
{
	double mb, ma, vb, va, se, tau;

	if (!(after->level < (1 - mp->delta_erase) * before->level)) return 0;
	if (before->cnt < 2 || after->cnt < 2) return 1;
	mb = before->s1 / before->cnt;
	ma = after->s1 / after->cnt;
	vb = slc__span_sse(before) / (before->cnt - 1);
	va = slc__span_sse(after) / (after->cnt - 1);
	tau = before->c0 + after->c0 > 0 ?
	      (before->c0tau + after->c0tau) / (before->c0 + after->c0) : 1;
	/* what follows needs some independent evidence: a few correlation
	 * times of a wandering native speed are no phase.  Its length is
	 * judged by the correlation time of the level before it: the
	 * residuals of what follows about its blocks' means may be a trend
	 * (a decay, a slow fall of the erase-bound speed), not noise. */
	if (after->cnt / (before->c0 > 0 ? before->c0tau / before->c0 : 1) < mp->onset_min_eff)
		return 0;
	se = sqrt(tau * (fmax(vb, 0) / before->cnt + fmax(va, 0) / after->cnt));
	return se <= 0 || (mb - ma) / se >= mp->t_same;
}

/*
 * Do groups [a, e) all stay below @level (the speed never comes back)?
 * Groups of a few samples (a run's last, partial interval) do not count.
 */
int slc__stays_below(const struct slc_model_params *mp, const struct group *g, size_t a, size_t e, double level)
{
	for (size_t q = a; q < e; q++)
		if (g[q].level >= level && g[q].cnt >= mp->texture_side_min) return 0;
	return 1;
}
