// SPDX-License-Identifier: MIT
/*
 * Change-point segmentation: PELT (Killick, Fearnhead & Eckley 2012) with a
 * Gaussian mean-change cost on winsorized, noise-scaled samples.
 *
 * Throughput samples are not Gaussian: single-sample dips (a flush, a GC
 * hiccup), heavy tails and comb profiles.  Rather than a heavier cost we
 * clip each sample to within clip_k * sigma of a running median of 5: a
 * lone outlier or a pair of them cannot move a segment mean by more than a
 * few sigma, while a step (which a median of 5 follows after 3 samples)
 * is kept intact.  The noise scale comes from first differences so that
 * steps between phases do not inflate it, and the cost is divided by the
 * variance inflation (1 + rho) / (1 - rho) of AR(1) noise so that averaged
 * (smoothed) logs are not over-segmented.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"
#include "alloc_hook.h"
#include "stats_priv.h"

#define MEDIAN_WIDTH 5
/*
 * PELT prunes a candidate start only once a change lies after it, so on a
 * long homogeneous phase the candidate set grows and the search becomes
 * quadratic.  Beyond GRID_MAX samples the search therefore runs on a grid
 * of every B-th sample (B = ceil(n / GRID_MAX)) with the exact costs of
 * the full-resolution samples, and each change found is then placed
 * exactly by a local search over the 2B samples around it.
 */
#define GRID_MAX 2048
/* Autocorrelation estimates from a few hundred samples are noisy and real
 * traces wander slowly; beyond 0.5 the deflation would hide real steps. */
#define RHO_MAX 0.5
/* Relative noise floor: throughput readings are never more precise than
 * about 0.1%, and a zero sigma (perfectly flat synthetic data) would make
 * every cost infinite. */
#define SIGMA_FLOOR_REL 1e-3
/*
 * Comb noise (a DRAM-less drive's journal stalls aliased into 1 s samples:
 * 0 to full speed, sample to sample) is strongly anticorrelated: the mean
 * of a few samples varies far less than independent samples would.  When
 * the variance of block means of COMB_L[] samples is under COMB_PHI of
 * that of independent samples (measured on at least COMB_MIN_BLOCKS
 * blocks), and the noise scale is at least COMB_SCALE of the median level
 * (teeth from stall to full speed: even a 30% step, the closest cache /
 * native ratio, is then under half a sigma per sample and the sample-level
 * cost cannot see it), the block means are segmented too and their changes
 * added.  Milder anticorrelation (a sampler's alternation) is left to the
 * sample-level cost, which sees the steps that matter there.
 */
static const size_t COMB_L[] = { 4, 8, 16 };
#define COMB_PHI 0.2
#define COMB_MIN_BLOCKS 40
#define COMB_SCALE 0.7
#define COMB_REFINE_CTX 10

void slc_cpd_opts_init(struct slc_cpd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->penalty = SLC_PENALTY_MBIC;
	o->clip_k = 3.0;
}

int slc_cpd_opts_set_penalty(struct slc_cpd_opts *o, const char *name)
{
	char *end;
	double v;

	if (strcmp(name, "mbic") == 0) o->penalty = SLC_PENALTY_MBIC;
	else if (strcmp(name, "bic") == 0) o->penalty = SLC_PENALTY_BIC;
	else if (strcmp(name, "aic") == 0) o->penalty = SLC_PENALTY_AIC;
	else {
		v = strtod(name, &end);
		if (*end || !*name || !(v > 0) || !isfinite(v))
			return -EINVAL;
		o->penalty_value = v;
		o->penalty = SLC_PENALTY_MANUAL;
	}
	return 0;
}

static double median5(const double *x, size_t n)
{
	double w[MEDIAN_WIDTH];

	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		double v = x[i];
		while (j > 0 && w[j - 1] > v) {
			w[j] = w[j - 1];
			j--;
		}
		w[j] = v;
	}
	if (n & 1) return w[n / 2];
	return 0.5 * (w[n / 2 - 1] + w[n / 2]);
}

/* Robust scale of x[i + lag] - x[i], as the standard deviation of one
 * sample; @tmp holds 3 @n values. */
static double lag_diff_sigma(const double *x, size_t n, size_t lag, double *tmp)
{
	if (n <= lag) return NAN;
	for (size_t i = 0; i + lag < n; i++) tmp[i] = x[i + lag] - x[i];
	return slc__mad_sigma_ws(tmp, n - lag, tmp + (n - lag)) / sqrt(2.0);
}

/*
 * Noise scale and lag-1 autocorrelation.  For AR(1) noise the variance of
 * lag-k differences is 2 sigma^2 (1 - rho^k), so the ratio of the lag-2 to
 * the lag-1 difference variance is 1 + rho.  MADs keep both insensitive to
 * the few large differences at phase changes.
 */
static int estimate_noise(const double *x, size_t n, double *sigma, double *rho)
{
	double *tmp, s1, s2, r = 0, med;

	*sigma = NAN;
	*rho = 0;
	if (n == 0) return -EINVAL;
	tmp = malloc(3 * n * sizeof(*tmp));
	if (!tmp) return -ENOMEM;
	s1 = lag_diff_sigma(x, n, 1, tmp);
	s2 = lag_diff_sigma(x, n, 2, tmp);
	for (size_t i = 0; i < n; i++) tmp[i] = fabs(x[i]);
	med = slc__quantile_ws(tmp, n, 0.5, tmp + n);
	free(tmp);
	if (isfinite(s1) && isfinite(s2) && s1 > 0) {
		r = (s2 * s2) / (s1 * s1) - 1.0;
		if (r < 0) r = 0;
		if (r > RHO_MAX) r = RHO_MAX;
	}
	if (!isfinite(s1)) s1 = 0;
	s1 /= sqrt(1.0 - r);
	if (s1 < SIGMA_FLOOR_REL * med) s1 = SIGMA_FLOOR_REL * med;
	if (s1 <= 0) s1 = 1.0;	/* all zero: any positive scale will do */
	*sigma = s1;
	*rho = r;
	return 0;
}

/* Sample position of grid point k (the last one is n). */
#define GRID_POS(k) ((k) * step < n ? (k) * step : n)

static double penalty_for(const struct slc_cpd_opts *o, size_t n)
{
	double ln = log((double)(n > 1 ? n : 2));

	switch (o->penalty) {
	case SLC_PENALTY_BIC: return 2.0 * ln;
	case SLC_PENALTY_AIC: return 4.0;
	case SLC_PENALTY_MANUAL: return o->penalty_value;
	case SLC_PENALTY_MBIC:
	default: return 3.0 * ln;
	}
}

struct pelt {
	const double *s1, *s2;	/* prefix sums of z and z^2, n + 1 entries */
	const double *log_len;	/* log(len) - log(n), MBIC only; n + 1 entries */
	double inv_phi;		/* 1 / variance inflation */
	int mbic;
};

/*
 * Cost of z[a..b): residual sum of squares in noise units, deflated for
 * autocorrelation.  MBIC adds log(len / n) per segment (Zhang & Siegmund
 * 2007); folding the -log n into each segment keeps the cost additive with
 * pruning constant K = 0, since log(l1) + log(l2) - log(l1 + l2) <= log n.
 */
static double seg_cost(const struct pelt *p, size_t a, size_t b)
{
	double len = (double)(b - a);
	double sum = p->s1[b] - p->s1[a];
	double rss = (p->s2[b] - p->s2[a]) - sum * sum / len;
	double c = (rss > 0 ? rss : 0) * p->inv_phi;

	if (p->mbic) c += p->log_len[b - a];
	return c;
}

/* Place each change exactly within the grid cells around it. */
static void refine(const struct pelt *p, size_t *ends, size_t k, size_t step, size_t m)
{
	for (size_t i = 0; i + 1 < k; i++) {
		size_t a = i ? ends[i - 1] : 0, c = ends[i + 1], lo, hi, arg = ends[i];
		double best = INFINITY;

		lo = ends[i] > step ? ends[i] - step + 1 : 1;
		hi = ends[i] + step - 1;
		if (lo < a + m) lo = a + m;
		if (hi + m > c) hi = c - m;
		for (size_t q = lo; q <= hi; q++) {
			double v = seg_cost(p, a, q) + seg_cost(p, q, c);
			if (v < best) {
				best = v;
				arg = q;
			}
		}
		ends[i] = arg;
	}
}

/* Remove changes whose cost reduction is below the penalty; 1 if any. */
static int prune(const struct pelt *p, size_t *ends, size_t *k, double beta)
{
	int any = 0;

	for (size_t i = 0; i + 1 < *k;) {
		size_t a = i ? ends[i - 1] : 0, c = ends[i + 1];
		double gain = seg_cost(p, a, c) - seg_cost(p, a, ends[i]) - seg_cost(p, ends[i], c);

		if (gain < beta) {
			memmove(ends + i, ends + i + 1, (*k - i - 1) * sizeof(*ends));
			(*k)--;
			any = 1;
			continue;
		}
		i++;
	}
	return any;
}

/* Winsorize @x around a running median, centre and scale it by @sigma, and
 * give its prefix sums of z and z^2 in @s1 and @s2 (n + 1 entries each). */
static void prefix_sums(double *s1, double *s2, const double *x, size_t n, double sigma, double clip)
{
	double center = x[0];

	s1[0] = s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= MEDIAN_WIDTH / 2 ? i - MEDIAN_WIDTH / 2 : 0;
		size_t hi = i + MEDIAN_WIDTH / 2 + 1 < n ? i + MEDIAN_WIDTH / 2 + 1 : n;
		double med = median5(x + lo, hi - lo), v = x[i], z;

		if (v > med + clip) v = med + clip;
		if (v < med - clip) v = med - clip;
		z = (v - center) / sigma;
		s1[i + 1] = s1[i] + z;
		s2[i + 1] = s2[i] + z * z;
	}
}

/*
 * The optimal partition over grid points 1..@ng (every @step-th sample,
 * segments of at least @mg points): @last[t] is the start of the last
 * segment of the best partition ending at t.  @f, @vals and @cand are
 * scratch of ng + 1 entries.
 */
static void pelt_search(const struct pelt *p, size_t *last, double *f, double *vals, size_t *cand,
			size_t n, size_t step, size_t ng, size_t mg, double beta)
{
	size_t ncand = 0;

	f[0] = -beta;
	cand[ncand++] = 0;
	for (size_t t = mg; t <= ng; t++) {
		double best = INFINITY;
		size_t arg = 0, kept = 0, pt = GRID_POS(t);

		if (t >= 2 * mg) cand[ncand++] = t - mg;
		for (size_t i = 0; i < ncand; i++) {
			size_t s = cand[i];
			double v = f[s] + seg_cost(p, GRID_POS(s), pt);
			vals[i] = v;
			if (v < best) {
				best = v;
				arg = s;
			}
		}
		f[t] = best + beta;
		last[t] = arg;
		/* PELT pruning: a start that is already worse than
		 * the optimum can never become optimal later */
		for (size_t i = 0; i < ncand; i++)
			if (vals[i] <= f[t]) cand[kept++] = cand[i];
		ncand = kept;
	}
}

static int pelt_segment(size_t *ends, size_t max_ends, size_t *n_ends,
			struct slc_cpd_info *info, const double *x, size_t n,
			const struct slc_cpd_opts *opts)
{
	struct slc_cpd_opts def;
	struct pelt p;
	double *s1 = NULL, *s2 = NULL, *f = NULL, *vals = NULL;
	size_t *last = NULL, *cand = NULL, m, k, step, ng, mg;
	double *loglen = NULL;
	double sigma, rho, beta, clip, phi;
	int ret;

	if (!ends || !n_ends || !x || n == 0) return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i])) return -EINVAL;
	if (!opts) {
		slc_cpd_opts_init(&def);
		opts = &def;
	}
	ret = estimate_noise(x, n, &sigma, &rho);
	if (ret) return ret;
	if (opts->sigma > 0) sigma = opts->sigma;
	phi = (1.0 + rho) / (1.0 - rho);
	m = opts->min_seg_len;
	if (m == 0) {
		/* a segment needs two effectively independent samples:
		 * phi + 1 samples of AR(1) noise carry about as much */
		m = (size_t)lround(phi + 1.0);
		if (m < 2) m = 2;
	}
	beta = penalty_for(opts, n);
	clip = (opts->clip_k > 0 ? opts->clip_k : 3.0) * sigma;

	ret = -ENOMEM;
	s1 = malloc((n + 1) * sizeof(*s1));
	s2 = malloc((n + 1) * sizeof(*s2));
	f = malloc((n + 1) * sizeof(*f));
	vals = malloc((n + 1) * sizeof(*vals));
	last = calloc(n + 1, sizeof(*last));
	cand = malloc((n + 1) * sizeof(*cand));
	if (!s1 || !s2 || !f || !vals || !last || !cand) goto out;

	prefix_sums(s1, s2, x, n, sigma, clip);

	p.s1 = s1;
	p.s2 = s2;
	p.inv_phi = 1.0 / phi;
	p.mbic = opts->penalty == SLC_PENALTY_MBIC;
	p.log_len = NULL;
	if (p.mbic) {
		double ln = log((double)n);
		loglen = malloc((n + 1) * sizeof(*loglen));
		if (!loglen) goto out;
		loglen[0] = 0;
		for (size_t i = 1; i <= n; i++) loglen[i] = log((double)i) - ln;
		p.log_len = loglen;
	}

	step = (n + GRID_MAX - 1) / GRID_MAX;
	if (step < 1) step = 1;
	ng = (n + step - 1) / step;	/* grid points 1..ng at pos(k) */
	mg = (m + step - 1) / step;
	if (ng < 2 * mg)
		last[ng] = 0;   /* too short for two segments */
	else
		pelt_search(&p, last, f, vals, cand, n, step, ng, mg, beta);

	/* backtrack */
	k = 0;
	for (size_t t = ng; t > 0; t = last[t]) k++;
	if (k > max_ends) {
		ret = -ENOSPC;
		goto out;
	}
	*n_ends = k;
	for (size_t t = ng; t > 0; t = last[t]) ends[--k] = GRID_POS(t);

	if (step > 1) {
		refine(&p, ends, *n_ends, step, m);
		/* a change that straddles a grid cell can come out as two, one
		 * cell apart; drop any change that no longer pays its penalty */
		if (prune(&p, ends, n_ends, beta)) refine(&p, ends, *n_ends, step, m);
	}
	if (info) {
		info->sigma = sigma;
		info->rho = rho;
		info->min_seg_len = m;
		info->penalty = beta;
		info->n_changes = *n_ends - 1;
	}
	ret = 0;
out:
	free(s1);
	free(s2);
	free(f);
	free(vals);
	free(last);
	free(cand);
	free(loglen);
	return ret;
}

/* Median of |x| (the level of a throughput series); NAN without memory. */
static double median_abs(const double *x, size_t n)
{
	double *tmp = malloc(2 * n * sizeof(*tmp)), med;

	if (!tmp) return NAN;
	for (size_t i = 0; i < n; i++) tmp[i] = fabs(x[i]);
	med = slc__quantile_ws(tmp, n, 0.5, tmp + n);
	free(tmp);
	return med;
}

/*
 * Block-scale variance ratio of x: L sigma_L^2 / sigma^2, with sigma_L the
 * robust scale of block means of L samples (differences of neighbours,
 * so that level changes do not count) and sigma that of single samples.
 * 1 for independent samples, above for smooth noise, far below for a comb.
 * Fills @y with the block means (n / L of them); @tmp holds 3 n / L values.
 */
static double block_phi(const double *x, size_t n, size_t L, double sigma, double *y,
			double *tmp, double *sigma_l)
{
	size_t nb = n / L;

	for (size_t k = 0; k < nb; k++) {
		double s = 0;
		for (size_t i = 0; i < L; i++) s += x[k * L + i];
		y[k] = s / (double)L;
	}
	*sigma_l = lag_diff_sigma(y, nb, 1, tmp);
	return (double)L * *sigma_l * *sigma_l / (sigma * sigma);
}

/*
 * Place each change of the block-mean segmentation (ends @be in blocks of
 * @L samples, @nbe of them, the last n / L) to the sample: within a block
 * either side, where the two-mean least-squares fit of the raw samples
 * between its neighbouring changes (at most COMB_REFINE_CTX blocks away) is
 * best (the CUSUM estimate).  @be is rewritten in samples; the last end is n.
 */
static void comb_refine(const double *x, size_t n, size_t *be, size_t nbe, size_t L)
{
	for (size_t i = 0; i < nbe; i++) be[i] *= L;
	be[nbe - 1] = n;
	for (size_t i = 0; i + 1 < nbe; i++) {
		size_t a = i ? be[i - 1] : 0, c = be[i + 1], e = be[i], arg = e, lo, hi;
		double sa = 0, sc = 0, best = INFINITY;

		/* local means: a slow drift of the levels far away would
		 * move the estimate */
		if (e - a > COMB_REFINE_CTX * L) a = e - COMB_REFINE_CTX * L;
		if (c - e > COMB_REFINE_CTX * L) c = e + COMB_REFINE_CTX * L;
		lo = e > a + L ? e - L + 1 : a + 1;
		hi = e + L - 1 < c ? e + L - 1 : c - 1;

		for (size_t q = a; q < lo; q++) sa += x[q];
		for (size_t q = lo; q < c; q++) sc += x[q];
		for (size_t q = lo; q <= hi; q++) {
			/* SSE(a..q) + SSE(q..c) up to the sum of squares, which
			 * does not depend on q */
			double v = -sa * sa / (double)(q - a) - sc * sc / (double)(c - q);

			if (v < best) {
				best = v;
				arg = q;
			}
			sa += x[q];
			sc -= x[q];
		}
		be[i] = arg;
	}
}

int slc_changepoints(size_t *ends, size_t max_ends, size_t *n_ends,
		     struct slc_cpd_info *info, const double *x, size_t n,
		     const struct slc_cpd_opts *opts)
{
	struct slc_cpd_info inf;
	struct slc_cpd_opts bo;
	double *y = NULL, *tmp = NULL, best_phi = INFINITY, best_sl = 0, level;
	size_t *be = NULL, *u = NULL, nbe = 0, L = 0, nu = 0, k;
	int ret;

	ret = pelt_segment(ends, max_ends, n_ends, &inf, x, n, opts);
	if (ret) return ret;
	if (info) *info = inf;
	if (opts && opts->sigma > 0) return 0;
	level = median_abs(x, n);
	if (isnan(level)) return -ENOMEM;
	if (!(inf.sigma >= COMB_SCALE * level)) return 0;
	for (size_t c = 0; c < sizeof(COMB_L) / sizeof(COMB_L[0]); c++)
		if (n / COMB_L[c] >= COMB_MIN_BLOCKS) L = COMB_L[c];
	if (!L) return 0;
	ret = -ENOMEM;
	y = malloc((n / COMB_L[0]) * sizeof(*y));
	tmp = malloc(3 * (n / COMB_L[0]) * sizeof(*tmp));
	if (!y || !tmp) goto out;
	L = 0;
	for (size_t c = 0; c < sizeof(COMB_L) / sizeof(COMB_L[0]); c++) {
		double sl, phi;

		if (n / COMB_L[c] < COMB_MIN_BLOCKS) break;
		phi = block_phi(x, n, COMB_L[c], inf.sigma, y, tmp, &sl);
		if (phi < best_phi) {
			best_phi = phi;
			best_sl = sl;
			L = COMB_L[c];
		}
	}
	ret = 0;
	if (!(best_phi < COMB_PHI) || !(best_sl > 0)) goto out;
	block_phi(x, n, L, inf.sigma, y, tmp, &best_sl);
	if (opts) bo = *opts;
	else slc_cpd_opts_init(&bo);
	bo.sigma = best_sl;
	bo.min_seg_len = 2;
	ret = -ENOMEM;
	be = malloc((n / L) * sizeof(*be));
	u = malloc((*n_ends + n / L) * sizeof(*u));
	if (!be || !u) goto out;
	ret = pelt_segment(be, n / L, &nbe, NULL, y, n / L, &bo);
	if (ret) goto out;
	comb_refine(x, n, be, nbe, L);
	/* union of both sets of changes; a block change within L samples of
	 * a sample change is the same change */
	k = 0;
	for (size_t i = 0; i + 1 < *n_ends; i++) u[nu++] = ends[i];
	for (size_t i = 0; i + 1 < nbe; i++) {
		size_t e = be[i];
		int near = 0;
		for (size_t q = 0; q + 1 < *n_ends; q++)
			if ((ends[q] > e ? ends[q] - e : e - ends[q]) < L) near = 1;
		if (!near) u[nu++] = e;
	}
	for (size_t i = 1; i < nu; i++)	/* insertion sort: few changes */
		for (size_t j = i; j > 0 && u[j] < u[j - 1]; j--) {
			size_t t = u[j];
			u[j] = u[j - 1];
			u[j - 1] = t;
		}
	ret = -ENOSPC;
	if (nu + 1 > max_ends) goto out;
	for (k = 0; k < nu; k++) ends[k] = u[k];
	ends[k++] = n;
	*n_ends = k;
	if (info) info->n_changes = k - 1;
	ret = 0;
out:
	free(y);
	free(tmp);
	free(be);
	free(u);
	return ret;
}
