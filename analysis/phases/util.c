// SPDX-License-Identifier: MIT
/*
 * Small helpers over a write curve: levels, quantiles, two-level splits, autocorrelation times.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
double slc__t_start(const struct trace *tr, size_t i)
{
	return tr->t[i] - tr->dt[i];
}

/* Mean speed (bytes / time) of samples [i0, i1); time no sample covers
 * (a host pause) is not the drive's. */
double slc__level(const struct trace *tr, size_t i0, size_t i1)
{
	double dur = tr->t[i1 - 1] - slc__t_start(tr, i0) - (tr->gap[i1 - 1] - tr->gap[i0]);

	return dur > 0 ? (tr->cum[i1] - tr->cum[i0]) / dur : tr->v[i0];
}

double slc__blevel(const struct trace *tr, const struct block *b)
{
	return slc__level(tr, b->i0, b->i1);
}

/* Time in [a, b] that samples cover: a phase boundary placed by bytes can
 * fall anywhere, also inside a host pause, so the gaps are intersected
 * with the span rather than counted by sample index. */
double slc__covered(const struct trace *tr, double a, double b)
{
	double d;
	size_t lo = 1, hi = tr->n;

	/* only the trace's own span: before its first sample or after its
	 * last, no sample covers anything */
	if (tr->n == 0) return 0;
	a = fmax(a, slc__t_start(tr, 0));
	b = fmin(b, tr->t[tr->n - 1]);
	if (!(b > a)) return 0;
	d = b - a;

	/* the first sample that ends at or after a; the gaps after it that
	 * start before b are the ones that can overlap the span */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tr->t[mid] < a) lo = mid + 1;
		else hi = mid;
	}
	for (size_t i = lo; i < tr->n && tr->t[i - 1] < b; i++) {
		double g0, g1;

		if (tr->gap[i] <= tr->gap[i - 1]) continue;
		g0 = fmax(a, tr->t[i - 1]);
		g1 = fmin(b, slc__t_start(tr, i));
		if (g1 > g0) d -= g1 - g0;
	}
	return d;
}

double slc__bdur(const struct trace *tr, const struct block *b)
{
	return tr->t[b->i1 - 1] - slc__t_start(tr, b->i0) - (tr->gap[b->i1 - 1] - tr->gap[b->i0]);
}

/* @x in decimal units of @unit to @digits significant figures, in @s. */
const char *slc__fmt_si(char *s, size_t n, double x, const char *unit, int digits)
{
	static const char *pre[] = { "", "k", "M", "G", "T", "P" };
	size_t i = 0;

	if (!isfinite(x)) {
		snprintf(s, n, "unknown");
		return s;
	}
	while (fabs(x) >= 1000 && i + 1 < sizeof(pre) / sizeof(pre[0])) {
		x /= 1000;
		i++;
	}
	snprintf(s, n, "%.*g %s%s", digits, x, pre[i], unit);
	return s;
}

double slc__reldiff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));

	return m > 0 ? fabs(a - b) / m : 0;
}

/* Merge blocks [j, k] into block j. */
void slc__merge_range(struct block *b, size_t *nb, size_t j, size_t k)
{
	b[j].i1 = b[k].i1;
	memmove(b + j + 1, b + k + 1, (*nb - k - 1) * sizeof(*b));
	*nb -= k - j;
}

double slc__sample_quantile(const struct trace *tr, size_t i0, size_t i1,
			      size_t j0, size_t j1, double q, double *tmp)
{
	size_t m = 0;

	for (size_t i = i0; i < i1; i++) tmp[m++] = tr->v[i];
	for (size_t i = j0; i < j1; i++) tmp[m++] = tr->v[i];
	return slc__quantile(tr, tmp, m, q);
}

/* Welch t statistic between the sample means of two blocks. */
double slc__welch_t(const struct trace *tr, const struct block *a, const struct block *c)
{
	double na = (double)(a->i1 - a->i0), nc = (double)(c->i1 - c->i0);
	double ma, mc, va, vc, se;

	if (na < 2 || nc < 2) return INFINITY;
	ma = (tr->sv[a->i1] - tr->sv[a->i0]) / na;
	mc = (tr->sv[c->i1] - tr->sv[c->i0]) / nc;
	va = ((tr->sv2[a->i1] - tr->sv2[a->i0]) - na * ma * ma) / (na - 1);
	vc = ((tr->sv2[c->i1] - tr->sv2[c->i0]) - nc * mc * mc) / (nc - 1);
	se = sqrt(fmax(va, 0) / na + fmax(vc, 0) / nc);
	return se > 0 ? fabs(ma - mc) / se : INFINITY;
}

/* The most lags an autocorrelation sum over @tr's samples takes (lag_*). */
size_t slc__max_lag(const struct trace *tr)
{
	const struct slc_model_params *mp = slc__mp(tr);

	return (size_t)fmax(mp->lag_floor, fmin(mp->lag_max, mp->lag_work / (double)tr->n));
}

/* ... over a stretch of @n of them: a quarter of it at most. */
size_t slc__max_lag_in(const struct trace *tr, size_t n)
{
	size_t m = slc__max_lag(tr);

	return n / 4 < m ? n / 4 : m;
}

/* Integrated autocorrelation time of x[0..n) about its mean (see group_tau). */
double slc__series_tau(const struct slc_model_params *mp, const double *x, size_t n, size_t max_lag)
{
	double m = 0, c0 = 0, tau = 1;

	for (size_t i = 0; i < n; i++) m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) c0 += (x[i] - m) * (x[i] - m);
	if (!(c0 > 0)) return 1;
	for (size_t k = 1; k <= max_lag && k < n; k++) {
		double ck = 0;

		for (size_t i = 0; i + k < n; i++) ck += (x[i] - m) * (x[i + k] - m);
		if (ck / c0 <= mp->rho_cut) break;
		tau += 2 * ck / c0;
	}
	return tau;
}

double slc__mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) s += x[i];
	return n ? s / (double)n : 0;
}

/*
 * Variance inflation of the mean of x[0..n) from batch means: L times the
 * variance of the means of consecutive batches of L = n^(2/3) samples over
 * the variance of the samples, at least 1 (INFINITY with fewer than 8
 * batches).  Unlike
 * the summed autocorrelation (series_tau) it counts the negative lobes of a
 * periodic comb (a stall paid back by the run after it); for a smooth
 * wander whose correlation time is well under L it agrees with it.
 */
double slc__batch_tau(const double *x, size_t n)
{
	size_t L = (size_t)pow((double)n, 2.0 / 3.0), nb;
	double m, v = 0, vb = 0;

	if (L < 2 || n / L < 8) return INFINITY;
	nb = n / L;
	m = slc__mean_of(x, n);
	for (size_t i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
	v /= (double)(n - 1);
	m = slc__mean_of(x, nb * L);
	for (size_t k = 0; k < nb; k++) {
		double d = slc__mean_of(x + k * L, L) - m;
		vb += d * d;
	}
	vb /= (double)(nb - 1);
	/* no credit below 1: a short side can look anticorrelated by chance */
	return v > 0 ? fmax(1.0, (double)L * vb / v) : 1;
}

/* Are all four quarters of x[0..n) above (sign 1) or below (-1) mid? */
int slc__quarters_on_side(const double *x, size_t n, double mid, int sign)
{
	for (size_t q = 0; q < 4; q++) {
		size_t a = q * n / 4, e = (q + 1) * n / 4;
		if (e <= a || sign * (slc__mean_of(x + a, e - a) - mid) <= 0) return 0;
	}
	return 1;
}

/*
 * Where a two-level least-squares fit of x[0..n) splits best, at an index
 * in [lo, hi] (best_split: each side at least @min_side long): the index of
 * the first sample of the second level, or 0 when there is none.
 */
size_t slc__best_split_in(const double *x, size_t n, size_t lo, size_t hi)
{
	double s = 0, s2 = 0, ls = 0, ls2 = 0, bs = INFINITY;
	size_t best = 0;

	for (size_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	for (size_t q = 1; q < n; q++) {
		double l = (double)q, r = (double)(n - q), sse;

		ls += x[q - 1];
		ls2 += x[q - 1] * x[q - 1];
		if (q < lo || q > hi) continue;
		sse = (ls2 - ls * ls / l) + ((s2 - ls2) - (s - ls) * (s - ls) / r);
		if (sse < bs) {
			bs = sse;
			best = q;
		}
	}
	return best;
}

size_t slc__best_split(const double *x, size_t n, size_t min_side)
{
	return n >= 2 * min_side ? slc__best_split_in(x, n, min_side, n - min_side) : 0;
}

/* Mean difference of x[0..k) and x[k..n) over its standard error, each
 * side's variance inflated by the smaller of its summed autocorrelation
 * and its batch-means estimate, pooled as in is_drop. */
double slc__split_t(const struct slc_model_params *mp, const double *x, size_t n, size_t k, size_t max_lag)
{
	double mb = slc__mean_of(x, k), ma = slc__mean_of(x + k, n - k), vb = 0, va = 0, tb, ta, tau, se;

	if (k < 2 || n - k < 2) return 0;
	for (size_t i = 0; i < k; i++) vb += (x[i] - mb) * (x[i] - mb);
	for (size_t i = k; i < n; i++) va += (x[i] - ma) * (x[i] - ma);
	tb = fmin(slc__series_tau(mp, x, k, max_lag), slc__batch_tau(x, k));
	ta = fmin(slc__series_tau(mp, x + k, n - k, max_lag), slc__batch_tau(x + k, n - k));
	tau = vb + va > 0 ? (vb * tb + va * ta) / (vb + va) : 1;
	se = sqrt(tau * (vb / (double)((k - 1) * k) + va / (double)((n - k - 1) * (n - k))));
	return se > 0 ? (mb - ma) / se : INFINITY;
}

/* Split block j at sample @at when b (room for @cap blocks) has room for
 * one more: returns 1, or 0 with nothing written. */
int slc__split_block(struct block *b, size_t *nb, size_t cap, size_t j, size_t at)
{
	if (*nb >= cap) return 0;
	memmove(b + j + 1, b + j, (*nb - j) * sizeof(*b));
	(*nb)++;
	b[j].i1 = b[j + 1].i0 = at;
	/* the second part starts where the first ends, at no step */
	b[j + 1].step = 0;
	return 1;
}

size_t slc__mark_step(struct block *b, size_t *nb, size_t cap, size_t j0, size_t at, int kind)
{
	size_t j = j0;

	while (j < *nb && b[j].i1 <= at) j++;
	/* in a drop: the level after it, the drop kept whole */
	while (j < *nb && b[j].dip) j++;
	if (j == *nb) return *nb;
	if (b[j].i0 < at) {
		if (!slc__split_block(b, nb, cap, j, at)) return *nb;
		j++;
	}
	b[j].step = kind;
	return j;
}

/* The main blocks of [j0, je) from sample @at on are erase-bound, the one
 * holding @at split there (drops keep their label; without room in b, of
 * @cap blocks, it keeps its own).  Returns the new end of the range. */
size_t slc__erase_bound_from(struct block *b, size_t *nb, size_t cap, size_t j0, size_t je, size_t at)
{
	for (size_t j = j0; j < je; j++) {
		if (b[j].i1 <= at) continue;
		if (b[j].i0 < at) {
			je += (size_t)slc__split_block(b, nb, cap, j, at);
			continue;
		}
		if (!b[j].dip) b[j].kind = SLC_PHASE_ERASE_BOUND;
	}
	return je;
}
