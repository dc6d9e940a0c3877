// SPDX-License-Identifier: MIT
/*
 * Unit tests of the analysis library: change points, sub-sample phase
 * boundaries, SNIA steady state, the phases JSON document, argument checks.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "slcscope/analysis.h"

#include "test_curves.h"

/* Piecewise-constant levels plus noise; returns a malloc'd array of n. */
static double *levels(const double *lv, const size_t *len, size_t k, double noise,
		      uint64_t seed, size_t *n)
{
	double *x;
	size_t m = 0;

	*n = 0;
	for (size_t i = 0; i < k; i++) *n += len[i];
	x = malloc(*n * sizeof(*x));
	assert_non_null(x);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < len[i]; j++) x[m++] = lv[i] + noise * gauss(&seed);
	return x;
}

struct cp_case {
	const char *name;
	double lv[4];
	size_t len[4];
	size_t k;
	double noise;
	size_t outlier;		/* index of a single-sample dip, 0 = none */
	size_t ends[4];		/* expected segment ends */
	size_t n_ends;
};

static const struct cp_case cp_cases[] = {
	{ "flat", { 100 }, { 300 }, 1, 1.0, 0, { 300 }, 1 },
	{ "one step", { 100, 80 }, { 150, 150 }, 2, 1.0, 0, { 150, 300 }, 2 },
	{ "two steps", { 100, 60, 30 }, { 50, 100, 200 }, 3, 2.0, 0, { 50, 150, 350 }, 3 },
	{ "short first segment", { 300, 90 }, { 5, 600 }, 2, 3.0, 0, { 5, 605 }, 2 },
	{ "outlier is not a change", { 100 }, { 400 }, 1, 1.0, 200, { 400 }, 1 },
	{ "grid search, exact placement", { 100, 70, 40 }, { 3001, 4999, 2000 }, 3, 2.0, 0,
	  { 3001, 8000, 10000 }, 3 },
};

static void test_changepoints_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cp_cases) / sizeof(cp_cases[0]); c++) {
		const struct cp_case *t = cp_cases + c;
		size_t n, n_ends = 0, *ends;
		struct slc_cpd_info info;
		double *x = levels(t->lv, t->len, t->k, t->noise, 7 + c, &n);

		if (t->outlier) x[t->outlier] *= 0.1;
		ends = malloc(n * sizeof(*ends));
		assert_non_null(ends);
		assert_int_equal(slc_changepoints(ends, n, &n_ends, &info, x, n, NULL), 0);
		if (n_ends != t->n_ends) {
			for (size_t i = 0; i < n_ends; i++) print_message("end %zu\n", ends[i]);
			fail_msg("%s: %zu segments", t->name, n_ends);
		}
		for (size_t i = 0; i < n_ends; i++)
			if (ends[i] != t->ends[i])
				fail_msg("%s: end %zu at %zu, expected %zu", t->name, i, ends[i], t->ends[i]);
		assert_int_equal(info.n_changes, n_ends - 1);
		assert_true(info.sigma > 0.5 * t->noise && info.sigma < 1.5 * t->noise);
		free(ends);
		free(x);
	}
}

static void test_changepoints_options(void **state)
{
	const double lv[] = { 100, 95, 100 };
	const size_t len[] = { 200, 200, 200 };
	size_t n, ends[600], n_mbic = 0, n_aic = 0, n_man = 0;
	struct slc_cpd_opts o;
	struct slc_cpd_info info;
	double *x = levels(lv, len, 3, 2.0, 3, &n);
	(void)state;

	assert_int_equal(slc_changepoints(ends, n, &n_mbic, NULL, x, n, NULL), 0);
	slc_cpd_opts_init(&o);
	o.penalty = SLC_PENALTY_AIC;
	assert_int_equal(slc_changepoints(ends, n, &n_aic, NULL, x, n, &o), 0);
	assert_true(n_aic >= n_mbic);
	o.penalty = SLC_PENALTY_MANUAL;
	o.penalty_value = 1e9;	/* no change is worth that */
	assert_int_equal(slc_changepoints(ends, n, &n_man, &info, x, n, &o), 0);
	assert_int_equal(n_man, 1);
	assert_float_equal(info.penalty, 1e9, 0);
	o.penalty = SLC_PENALTY_BIC;
	o.min_seg_len = 250;	/* the 200-sample middle level cannot stand alone */
	o.sigma = 2.0;
	assert_int_equal(slc_changepoints(ends, n, &n_man, &info, x, n, &o), 0);
	assert_int_equal(info.min_seg_len, 250);
	assert_float_equal(info.sigma, 2.0, 0);
	for (size_t i = 0; i + 1 < n_man; i++) assert_true(ends[i + 1] - ends[i] >= 250);
	free(x);
}

/* Smoothed (AR(1)) noise: rho, the scale and the minimum length follow it. */
static void test_changepoints_autocorrelated(void **state)
{
	static const struct { double rho, lo, hi; size_t min_seg; } rows[] = {
		{ 0.0, 0.0, 0.1, 2 },
		{ 0.3, 0.15, 0.45, 3 },
		{ 0.8, 0.45, 0.5, 4 },	/* estimate clamped at 0.5 */
	};
	(void)state;
	for (size_t c = 0; c < sizeof(rows) / sizeof(rows[0]); c++) {
		size_t n = 4000, ends[4000], n_ends;
		double x[4000], e = 0, sd = sqrt(1 - rows[c].rho * rows[c].rho);
		struct slc_cpd_info info;
		uint64_t r = 5 + c;

		for (size_t i = 0; i < n; i++) {
			e = rows[c].rho * e + sd * gauss(&r);	/* unit variance */
			x[i] = 100 + e;
		}
		assert_int_equal(slc_changepoints(ends, n, &n_ends, &info, x, n, NULL), 0);
		if (info.rho < rows[c].lo || info.rho > rows[c].hi)
			fail_msg("rho %.2f: estimated %.3f", rows[c].rho, info.rho);
		assert_int_equal(info.min_seg_len, rows[c].min_seg);
		if (rows[c].rho < 0.5) {
			assert_true(info.sigma > 0.85 && info.sigma < 1.15);
			assert_int_equal(n_ends, 1);	/* no level change */
		}
	}
}

static void test_changepoints_errors(void **state)
{
	double x[4] = { 1, 2, NAN, 4 }, y[6] = { 9, 9, 9, 1, 1, 1 };
	size_t ends[6], n_ends;
	(void)state;

	assert_int_equal(slc_changepoints(ends, 4, &n_ends, NULL, x, 0, NULL), -EINVAL);
	assert_int_equal(slc_changepoints(ends, 4, &n_ends, NULL, x, 4, NULL), -EINVAL);
	assert_int_equal(slc_changepoints(NULL, 4, &n_ends, NULL, y, 6, NULL), -EINVAL);
	assert_int_equal(slc_changepoints(ends, 1, &n_ends, NULL, y, 6, NULL), -ENOSPC);
	assert_int_equal(slc_changepoints(ends, 6, &n_ends, NULL, y, 6, NULL), 0);
	assert_int_equal(n_ends, 2);
	assert_int_equal(ends[0], 3);
}

static void test_quantile_matches_sort(void **state)
{
	uint64_t r = 11;
	double x[101], s[101];
	(void)state;

	for (size_t n = 1; n <= 101; n += 10) {
		for (size_t i = 0; i < n; i++) x[i] = s[i] = floor(10 * gauss(&r));	/* ties */
		for (size_t i = 1; i < n; i++)	/* insertion sort as the reference */
			for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
				double t = s[j]; s[j] = s[j - 1]; s[j - 1] = t;
			}
		for (double q = 0; q <= 1.0001; q += 0.05) {
			double h = (double)(n - 1) * fmin(q, 1.0), lo = floor(h);
			size_t i = (size_t)lo;
			double want = i + 1 < n ? s[i] + (h - lo) * (s[i + 1] - s[i]) : s[i];
			assert_float_equal(slc_quantile(x, n, fmin(q, 1.0)), want, 1e-9);
		}
	}
}

/*
 * Noise-free two-speed curve whose cache ends inside a sample: the
 * straddling sample carries frac of a second at the fast speed.  The cache
 * size must come out exact, from bytes or from bps, with given intervals.
 */
struct straddle_case {
	size_t full;		/* whole cache samples */
	double frac;		/* fraction of the next one at cache speed */
	double fast_bps, slow_bps, dt_s;
};

static const struct straddle_case straddle_cases[] = {
	{ 7, 0.4, 3e9, 9e8, 1.0 },
	{ 60, 0.9, 2e9, 1.4e9, 1.0 },	/* ratio 0.7 */
	{ 300, 0.05, 5e9, 1.3e8, 0.5 },
	{ 2500, 0.5, 3e9, 1e9, 1.0 },	/* grid search */
};

static void test_straddle_exact(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(straddle_cases) / sizeof(straddle_cases[0]); c++) {
		const struct straddle_case *k = straddle_cases + c;
		size_t n = k->full * 3 + 100;
		double *t = malloc(n * sizeof(*t)), *b = malloc(n * sizeof(*b));
		double *dt = malloc(n * sizeof(*dt));
		double want = (k->full + k->frac) * k->dt_s * k->fast_bps;
		struct slc_trace_in in = { 0 };
		struct slc_analysis a;

		assert_true(t && b && dt);
		for (size_t i = 0; i < n; i++) {
			double f = i < k->full ? 1.0 : i == k->full ? k->frac : 0.0;
			t[i] = (double)(i + 1) * k->dt_s;
			dt[i] = k->dt_s;
			b[i] = k->dt_s * (f * k->fast_bps + (1 - f) * k->slow_bps);
		}
		in.t_s = t;
		in.interval_s = dt;
		in.bytes = b;
		in.n = n;
		in.block_bytes = 4096;
		assert_int_equal(slc_analyze(&a, &in, NULL), 0);
		assert_true(a.has_cache);
		if (fabs(a.cache_bytes - want) > 1e-6 * want)
			fail_msg("case %zu: cache %.6g B, expected %.6g B", c, a.cache_bytes, want);
		assert_float_equal(a.cache_end_s, (k->full + k->frac) * k->dt_s, 1e-6);
		assert_float_equal(a.cache_bps, k->fast_bps, 1e-6 * k->fast_bps);
		assert_int_equal(a.n_phases, 2);
		assert_int_equal(a.phases[0].kind, SLC_PHASE_SLC_CACHE);
		assert_int_equal(a.phases[1].kind, SLC_PHASE_DIRECT_TO_TLC);
		assert_float_equal(a.phases[1].mean_bps, k->slow_bps, 1e-6 * k->slow_bps);
		assert_float_equal(a.phases[0].iops_mean, k->fast_bps / 4096, 1e-3);
		slc_analysis_free(&a);
		free(t);
		free(b);
		free(dt);
	}
}

/* Analyse n samples of bytes per interval; the analysis must succeed. */
static void analyze_bytes(struct slc_analysis *a, const double *t, const double *dt, const double *b, size_t n)
{
	struct slc_trace_in in = { 0 };

	in.t_s = t;
	in.interval_s = dt;
	in.bytes = b;
	in.n = n;
	assert_int_equal(slc_analyze(a, &in, NULL), 0);
}

/* A cache found, its size within @tol (relative) of @want. */
static void assert_cache_near(const struct slc_analysis *a, double want, double tol)
{
	assert_true(a->has_cache);
	if (!(fabs(a->cache_bytes / want - 1) < tol))
		fail_msg("cache %.6g B, expected %.6g B (%+.2f%%)", a->cache_bytes, want, 100 * (a->cache_bytes / want - 1));
}

/* A cache of 8 samples at 100 ms, the straddling sample 20% cache and 80%
 * native, the native speed wandering slowly (+-30% over 3 s) so that the
 * straddler lies within its spread about the median but far outside its
 * sample-to-sample noise: the straddler's cache part is counted. */
static void test_straddle_wander(void **state)
{
	enum { N = 400, FULL = 8 };
	const double dts = 0.1, fast = 328e6, slow = 100e6, frac = 0.2;
	double t[N], b[N], dt[N], want = (FULL + frac) * dts * fast;
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		/* native speed at the middle of sample i, zero phase at the edge */
		double native = slow * (1 + 0.3 * sin(2 * M_PI * ((double)i + 0.5 - FULL) * dts / 3.0));
		double f = i < FULL ? 1.0 : i == FULL ? frac : 0.0;

		t[i] = (double)(i + 1) * dts;
		dt[i] = dts;
		b[i] = dts * (f * fast + (1 - f) * (i == FULL ? slow : native));
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_cache_near(&a, want, 0.005);
	slc_analysis_free(&a);
}

/* An 8-sample cache at 1 s, 20% of the next sample at its speed, then
 * native writing with 5% noise whose two samples after the straddler
 * stray 2.5 sigma towards the cache's speed: they are the native level's
 * noise, not a ramp, and do not move the cache's end (each would add a
 * twentieth of a second of cache). */
static void test_straddle_then_noise(void **state)
{
	enum { N = 300, FULL = 8 };
	const double fast = 3e9, slow = 9e8, frac = 0.2, sd = 0.05;
	double t[N], b[N], dt[N], want = (FULL + frac) * fast;
	uint64_t r = 7;
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		double f = i < FULL ? 1.0 : i == FULL ? frac : 0.0;
		double e = i == FULL + 1 || i == FULL + 2 ? 2.5 * sd : i > FULL ? sd * gauss(&r) : 0;

		t[i] = (double)(i + 1);
		dt[i] = 1;
		b[i] = f * fast + (1 - f) * slow * (1 + e);
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_cache_near(&a, want, 0.005);
	slc_analysis_free(&a);
}

/* An 8-sample cache at 100 ms ending exactly on a sample edge, the native
 * speed then falling 160 -> 100 MB/s over 3 s: its first sample continues
 * the trend and is no straddler (the cache is not stretched into it). */
static void test_edge_native_trend(void **state)
{
	enum { N = 400, FULL = 8 };
	double t[N], b[N], dt[N], want = 0;
	uint64_t r = 2;
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		size_t k = i - FULL;
		double v = i < FULL ? 328e6 : 160e6 - 60e6 * (double)(k < 30 ? k : 30) / 30;

		t[i] = (double)(i + 1) * 0.1;
		dt[i] = 0.1;
		b[i] = 0.1 * v * (1 + 0.01 * gauss(&r));
		if (i < FULL) want += b[i];
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_cache_near(&a, want, 0.002);
	slc_analysis_free(&a);
}

/* A host pause (2 s no sample covers) exactly where the speed changes, as
 * when the page cache under a file drains while the process is stopped:
 * neither phase counts the pause in its mean speed, whichever side of it
 * the boundary lands on. */
static void test_pause_at_boundary(void **state)
{
	enum { N = 40, FAST = 10 };
	double t[N], b[N], dt[N];
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		double v = i < FAST ? 900e6 : 200e6;

		t[i] = (double)(i + 1) * 0.1 + (i >= FAST ? 2.0 : 0);
		dt[i] = 0.1;
		b[i] = 0.1 * v * (1 + 0.002 * (double)(i % 2));
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_true(a.n_phases >= 2);
	for (size_t q = 0; q < a.n_phases; q++) {
		double r = a.phases[q].mean_bps / a.phases[q].median_bps;

		if (!(r > 0.9 && r < 1.1))
			fail_msg("phase %zu %.2f-%.2f s: mean %.4g B/s, median %.4g B/s", q,
				 a.phases[q].start_s, a.phases[q].end_s, a.phases[q].mean_bps,
				 a.phases[q].median_bps);
	}
	slc_analysis_free(&a);
}

/*
 * A flat drive at 258 MB/s (4 Hz samples) that slows to 190 MB/s for 16 s
 * and comes back while writing goes on, then 49.5 s in slows to 178 MB/s
 * and on to 137 MB/s (the Samsung 860 PRO's 60 s QD16 run, fio-plot).  A
 * tail no longer than the stretch it came back from may be the next such
 * stretch cut off: no cache, a cache as the runner-up.  A tail of 40 s is
 * no such stretch: the first stretch was an excursion inside a cache, and
 * the drop is its end.
 */
static void gc_tail_curve(struct slc_analysis *a, double tail_s, uint64_t seed)
{
	enum { MAXN = 2000 };
	static double t[MAXN], b[MAXN], dt[MAXN];
	double head_s = 49.5;
	size_t n = (size_t)((head_s + tail_s) / 0.25);
	uint64_t r = seed;

	assert_true(n <= MAXN);
	for (size_t i = 0; i < n; i++) {
		double ts = (double)(i + 1) * 0.25, v = 258e6, x = (ts - head_s) / tail_s;

		if (ts > 14 && ts <= 18) v = 240e6 - (ts - 14) * 10e6;
		else if (ts > 18 && ts <= 30) v = 190e6;
		if (ts > head_s) v = x < 0.6 ? 178e6 : x < 0.8 ? 178e6 - (x - 0.6) / 0.2 * 40e6 : 137e6;
		t[i] = ts;
		dt[i] = 0.25;
		b[i] = 0.25 * v * (1 + 0.01 * gauss(&r));
	}
	analyze_bytes(a, t, dt, b, n);
}

static void test_gc_tail(void **state)
{
	struct slc_analysis a;
	(void)state;

	for (uint64_t seed = 1; seed <= 3; seed++) {
		gc_tail_curve(&a, 10.5, seed);
		if (a.has_cache)
			fail_msg("seed %u: a 10.5 s tail after a 16 s stretch that came back read as a cache of %.3g B",
				 (unsigned)seed, a.cache_bytes);
		/* a close call: the runner-up a cache, or the same drop read as
		 * the erase-bound onset */
		assert_true(a.model.runner_up.valid && (a.model.runner_up.tiers >= 1 || a.model.runner_up.erase_bound));
		assert_true(a.model.odds < 20);
		/* a close call names what would decide it: a longer run, and
		 * the capacity (unknown here) */
		assert_true(a.model.settle & SLC_SETTLE_LONGER_RUN);
		assert_true(a.model.settle & SLC_SETTLE_CAPACITY);
		slc_analysis_free(&a);
		gc_tail_curve(&a, 40, seed);
		if (!a.has_cache) fail_msg("seed %u: a 40 s tail at a lower speed read as no cache", (unsigned)seed);
		slc_analysis_free(&a);
	}
}

/*
 * A cache at 1.64 GB/s throttled once for 32 s to 605 MB/s (5.5% noise),
 * with two lone samples at a third of its speed, then native writing at
 * 557 MB/s for 700 s: one visit to the native level, however its noise
 * crosses the level's band, is a throttle, not a flat drive's dips.
 */
static void test_throttle_one_visit(void **state)
{
	enum { N = 4600, C1 = 190, TH = 160, C2 = 480 };
	static double t[N], b[N], dt[N];
	double want = 0;
	uint64_t r = 3;
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		double v = i < C1 ? 1.64e9 : i < C1 + TH ? 605e6 : i < C1 + TH + C2 ? 1.64e9 : 557e6;

		v *= 1 + (i >= C1 && i < C1 + TH ? 0.055 : 0.02) * gauss(&r);
		if (i == 60 || i == 500) v = 0.35 * 1.64e9;
		t[i] = (double)(i + 1) * 0.2;
		dt[i] = 0.2;
		b[i] = 0.2 * v;
		if (i < C1 + TH + C2) want += b[i];
	}
	analyze_bytes(&a, t, dt, b, N);
	if (!a.has_cache) fail_msg("a cache throttled once read as no cache");
	assert_cache_near(&a, want, 0.01);
	/* the native writing lasts: no call for a longer run (the capacity,
	 * unknown, would still tell a cache from an early onset) */
	assert_false(a.model.settle & SLC_SETTLE_LONGER_RUN);
	slc_analysis_free(&a);
}

/* Curves of levels (B/s, samples) at 1 s with 2% noise, analysed. */
static void levels_curve(struct slc_analysis *a, const double *lv, const size_t *len, size_t k, uint64_t seed)
{
	enum { MAXN = 1000 };
	static double t[MAXN], b[MAXN], dt[MAXN];
	size_t n = 0;
	uint64_t r = seed;

	for (size_t q = 0; q < k; q++)
		for (size_t i = 0; i < len[q]; i++, n++) {
			assert_true(n < MAXN);
			t[n] = (double)(n + 1);
			dt[n] = 1;
			b[n] = lv[q] > 0 ? lv[q] * (1 + 0.02 * gauss(&r)) : 0;
		}
	analyze_bytes(a, t, dt, b, n);
}

/*
 * Two 20 s stalls (nothing written) inside a 2 GB/s cache with 5 s at its
 * speed between them, then the cache goes on for 100 s: the short return
 * between two stalls is the cache, not a burst in slow writing (the cache
 * comes back after them), and the cache is one level to its end.  And a
 * 20 s stall inside a cache whose run ends 10 s after a drop to 600 MB/s:
 * a stall is no slowdown to the level after the drop, so the drop is the
 * cache's end.
 */
static void test_stalls_inside_cache(void **state)
{
	static const double lv[] = { 2e9, 0, 2e9, 0, 2e9, 0.5e9 }, lv2[] = { 2e9, 0, 2e9, 0.6e9 };
	static const size_t len[] = { 100, 20, 5, 20, 100, 150 }, len2[] = { 50, 20, 120, 10 };
	struct slc_analysis a;
	(void)state;

	levels_curve(&a, lv, len, 6, 11);
	if (!a.has_cache || a.model.best.tiers != 1)
		fail_msg("stalls inside a cache: has_cache %d, %u tiers", a.has_cache, a.model.best.tiers);
	assert_float_equal(a.cache_end_s, 245, 1.5);
	slc_analysis_free(&a);
	levels_curve(&a, lv2, len2, 4, 12);
	if (!a.has_cache) fail_msg("a cache with a stall, then 10 s at 600 MB/s, read as no cache");
	assert_false(a.model.settle & SLC_SETTLE_LONGER_RUN);
	slc_analysis_free(&a);
}

/* 90 s at exactly 1 GB/s, then 10 s of nothing (a noise-free level and
 * one of zero): whatever reading the model finds, it must not claim to be
 * sure of a plain reading it fell back to because none could be scored. */
static void test_no_reading_fits(void **state)
{
	double t[100], b[100], dt[100];
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < 100; i++) {
		t[i] = (double)(i + 1);
		dt[i] = 1;
		b[i] = i < 90 ? 1e9 : 0;
	}
	analyze_bytes(&a, t, dt, b, 100);
	if (a.model.no_fit) assert_float_equal(a.model.confidence, 0, 0);
	else if (!(isfinite(a.model.best.log_score) && a.model.confidence > 0))
		fail_msg("a scored reading (log score %g) with confidence %g", a.model.best.log_score, a.model.confidence);
	slc_analysis_free(&a);
	/* 45 s at 1 GB/s, 45 s at 500 MB/s, then 10 s of nothing, noise-free:
	 * no reading can be scored; the answer says it is unsure */
	for (size_t i = 0; i < 100; i++) b[i] = i < 45 ? 1e9 : i < 90 ? 5e8 : 0;
	analyze_bytes(&a, t, dt, b, 100);
	assert_true(a.model.no_fit);
	assert_float_equal(a.model.confidence, 0, 0);
	slc_analysis_free(&a);
}

/*
 * A drive without a cache (SATA MLC, 128 GB): flat at 470 MB/s for 128 GB
 * (AR(1) noise, rho 0.9, 2%), then garbage collection sets in and the speed
 * decays towards 217 MB/s (time constant 17.5 s) for the last 108 s.  The
 * drop is read both ways, a cache's end and the onset of erase-bound
 * writing, although the decay's samples are too few, against the flat
 * level's autocorrelation, for the onset rule's own evidence: the decay
 * after the first level decides against the cache.
 */
static void test_flat_then_decay(void **state)
{
	enum { N1 = 545, N2 = 216, N = N1 + N2 };
	static double t[N], b[N], dt[N];
	struct slc_analysis a;
	(void)state;

	/* 5 of these 8 noise seeds read as a cache of 132-133 GB when the
	 * erase-bound reading was left out */
	for (uint64_t seed = 1; seed <= 8; seed++) {
		uint64_t r = seed;
		double u = 0;

		for (size_t i = 0; i < N; i++) {
			double v = i < N1 ? 470e6 : 217e6 + 220e6 * exp(-0.5 * (double)(i - N1) / 17.5);

			u = 0.9 * u + sqrt(1 - 0.81) * gauss(&r);
			t[i] = 0.5 * (double)(i + 1);
			dt[i] = 0.5;
			b[i] = 0.5 * v * (1 + 0.02 * u);
		}
		analyze_bytes(&a, t, dt, b, N);
		if (a.has_cache)
			fail_msg("seed %u: a flat level then a decay read as a cache of %.4g B", (unsigned)seed, a.cache_bytes);
		if (!(fabs(a.erase_bound_start_bytes / (0.5 * N1 * 470e6) - 1) < 0.05))
			fail_msg("seed %u: onset at %.4g B", (unsigned)seed, a.erase_bound_start_bytes);
		slc_analysis_free(&a);
	}
}

/* A 4 s cache at 1 GB/s, then direct-to-TLC writing drifting down 12%
 * over 12 s (three times the cache), then a decay: the cache stays a
 * cache (a falling head of a decay is one only when about as long as the
 * first level). */
static void test_cache_then_drift(void **state)
{
	enum { N = 1400 };
	double t[N], b[N], dt[N];
	uint64_t r = 1;		/* 36 of seeds 1-40 read no cache before the rule */
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		double v;

		if (i < 200) v = 1e9 * (1 + 0.01 * gauss(&r));
		else if (i < 800) v = 450e6 * (1 - 0.12 * (double)(i - 200) / 600) * (1 + 0.02 * gauss(&r));
		else v = 396e6 * exp(-(double)(i - 800) / 400) * (1 + 0.02 * gauss(&r)) +
			 150e6 * (1 - exp(-(double)(i - 800) / 400));
		t[i] = (double)(i + 1) * 0.02;
		dt[i] = 0.02;
		b[i] = 0.02 * v;
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_cache_near(&a, 4e9, 0.01);
	slc_analysis_free(&a);
}

/* A comb at 20 ms (57 of every 201 samples stalled) whose runs drop from
 * 68 to 48 MB/s inside a run: the onset stays where the runs drop, not on
 * the next stall (the refinement's forward move compares medians). */
static void test_comb_onset_in_run(void **state)
{
	enum { N = 9643, CACHE = 133, ON = 2386, P = 201, S = 57 };
	static double t[N], b[N], dt[N];
	double want = 0;
	uint64_t r = 1;
	struct slc_analysis a;
	(void)state;

	for (size_t i = 0; i < N; i++) {
		double v = i < CACHE ? 330e6 * (1 + 0.01 * gauss(&r)) :
			   i % P < S ? 0 : (i < ON ? 68e6 : 48e6) * (1 + 0.01 * gauss(&r));

		t[i] = (double)(i + 1) * 0.02;
		dt[i] = 0.02;
		b[i] = 0.02 * v;
		if (i < ON) want += b[i];
	}
	analyze_bytes(&a, t, dt, b, N);
	assert_true(a.has_cache);
	if (!(fabs(a.erase_bound_start_bytes / want - 1) < 0.005))
		fail_msg("onset %.6g B, expected %.6g B", a.erase_bound_start_bytes, want);
	slc_analysis_free(&a);
}

static void test_analyze_errors(void **state)
{
	double t[3] = { 1, 2, 2 }, v[3] = { 1, 1, 1 };
	struct slc_trace_in in = { .t_s = t, .bps = v, .bytes = v, .n = 3 };
	struct slc_analysis a;
	(void)state;

	assert_int_equal(slc_analyze(&a, &in, NULL), -EINVAL);	/* bytes and bps */
	slc_analysis_free(&a);
	in.bytes = NULL;
	assert_int_equal(slc_analyze(&a, &in, NULL), -EINVAL);	/* time not increasing */
	slc_analysis_free(&a);
	in.n = 0;
	assert_int_equal(slc_analyze(&a, &in, NULL), -EINVAL);
	slc_analysis_free(&a);
	assert_int_equal(slc_analyze(&a, NULL, NULL), -EINVAL);
	slc_analysis_free(&a);
	slc_analysis_free(NULL);
}

/* Tiny and degenerate inputs: one phase, no crash, no cache. */
static void test_analyze_tiny(void **state)
{
	static const double t[] = { 1, 2, 3, 4, 5, 6 };
	static const double flat[] = { 5, 5, 5, 5, 5, 5 }, zero[] = { 0, 0, 0, 0, 0, 0 };
	(void)state;

	for (size_t n = 1; n <= 6; n++) {
		const double *v[] = { flat, zero };
		for (size_t k = 0; k < 2; k++) {
			struct slc_trace_in in = { .t_s = t, .bps = v[k], .n = n };
			struct slc_analysis a;
			char *js = NULL;

			assert_int_equal(slc_analyze(&a, &in, NULL), 0);
			assert_false(a.has_cache);
			assert_int_equal(a.n_phases, 1);
			assert_float_equal(a.phases[0].end_bytes, (double)n * v[k][0], 1e-9);
			assert_int_equal(slc_phases_json(&js, &a, 1), 0);
			free(js);
			slc_analysis_free(&a);
		}
	}
}

struct ss_case {
	const char *name;
	double base_bps, drop_s, slope_per_s;	/* level, drop to half at drop_s, trend */
	size_t n;
	int reached;
	double start_s;
};

static const struct ss_case ss_cases[] = {
	{ "flat", 1e9, 1e9, 0, 600, 1, 0 },
	{ "too short", 1e9, 1e9, 0, 299, 0, NAN },
	{ "steep trend", 1e9, 1e9, -1e6, 900, 0, NAN },	/* -6%/round: range 24% */
	{ "settles after a drop", 1e9, 130, 0, 900, 1, 180 },
};

static void test_steady_state_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(ss_cases) / sizeof(ss_cases[0]); c++) {
		const struct ss_case *k = ss_cases + c;
		double *t = malloc(k->n * sizeof(*t)), *dt = malloc(k->n * sizeof(*dt));
		double *v = malloc(k->n * sizeof(*v));
		struct slc_steady_state ss;

		assert_true(t && dt && v);
		for (size_t i = 0; i < k->n; i++) {
			t[i] = (double)i + 1;
			dt[i] = 1;
			v[i] = (t[i] > k->drop_s ? 0.5 : 1.0) * k->base_bps + k->slope_per_s * t[i];
		}
		assert_int_equal(slc_steady_state(&ss, t, dt, v, k->n, 0, 60, 5), 0);
		if (ss.reached != k->reached) fail_msg("%s: reached %d", k->name, ss.reached);
		if (k->reached) {
			assert_float_equal(ss.start_s, k->start_s, 1e-9);
			assert_float_equal(ss.end_s, k->start_s + 300, 1e-9);
			assert_true(ss.range_frac <= 0.2 && ss.slope_frac <= 0.1);
		} else {
			assert_true(isnan(ss.start_s));
		}
		free(t);
		free(dt);
		free(v);
	}
	{
		struct slc_steady_state ss;
		double one = 1;
		assert_int_equal(slc_steady_state(&ss, &one, &one, &one, 1, 0, 60, 1), -EINVAL);
		assert_int_equal(slc_steady_state(&ss, &one, &one, &one, 1, 0, 0, 5), -EINVAL);
	}
}

static void test_phases_json(void **state)
{
	size_t n = 200;
	double t[200], v[200];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 200 };
	struct slc_analysis a[2];
	json_t *doc, *cache, *ph, *segs;
	json_error_t err;
	char *s = NULL;
	(void)state;

	for (size_t i = 0; i < n; i++) {
		t[i] = (double)i + 1;
		v[i] = i < 50 ? 3e9 : 1e9;
	}
	assert_int_equal(slc_analyze(a, &in, NULL), 0);
	for (size_t i = 0; i < n; i++) v[i] = 2e9;	/* a second segment, no cache */
	assert_int_equal(slc_analyze(a + 1, &in, NULL), 0);
	assert_int_equal(slc_phases_json(&s, a, 2), 0);
	doc = json_loads(s, 0, &err);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "slcscope.phases/2");
	cache = json_object_get(doc, "cache");
	assert_float_equal(json_number_value(json_object_get(cache, "size_bytes")), 150e9, 1e3);
	assert_float_equal(json_number_value(json_object_get(cache, "speed_bps")), 3e9, 1);
	ph = json_object_get(doc, "phases");
	assert_int_equal(json_array_size(ph), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(ph, 0), "kind")), "slc_cache");
	assert_true(json_is_null(json_object_get(json_array_get(ph, 0), "iops_mean")));
	assert_true(json_is_boolean(json_object_get(json_object_get(doc, "steady_state"), "reached")));
	segs = json_object_get(doc, "segments");
	assert_int_equal(json_array_size(segs), 2);
	assert_true(json_is_null(json_object_get(json_object_get(json_array_get(segs, 1), "cache"),
						 "size_bytes")));
	assert_null(json_object_get(json_array_get(segs, 0), "recovery"));
	assert_float_equal(json_number_value(json_object_get(json_object_get(json_array_get(segs, 1),
									     "recovery"), "cache_frac")), 0, 0);
	json_decref(doc);
	free(s);
	assert_int_equal(slc_phases_json(&s, a, 0), -EINVAL);
	slc_analysis_free(a);
	slc_analysis_free(a + 1);
}

/* Labelling rules on small piecewise-constant curves (1 s samples, 2% noise). */
struct label_case {
	const char *name;
	double lv[5];		/* GB/s */
	size_t len[5];		/* samples */
	size_t k;
	const char *kinds;
	int has_cache;
};

static const struct label_case label_cases[] = {
	{ "cache, stall, native", { 5, 0.8, 1.8 }, { 15, 20, 300 }, 3,
	  "slc_cache,stall,direct_to_tlc", 1 },
	{ "drop that recovers is not a cache end", { 2, 1.3, 2 }, { 300, 20, 300 }, 3,
	  "direct_to_tlc,throttled,direct_to_tlc", 0 },
	{ "burst at the cache's speed far above native is the cache back", { 3, 0.3, 2.5, 0.3 }, { 100, 300, 4, 300 }, 4,
	  "slc_cache,direct_to_tlc,slc_cache,direct_to_tlc", 1 },
	{ "burst well below the cache's speed inside native is absorbed", { 3, 1, 1.5, 1 }, { 100, 300, 4, 300 }, 4,
	  "slc_cache,direct_to_tlc", 1 },
	{ "cache, direct-to-TLC, erase-bound", { 3, 1.5, 0.6 }, { 100, 500, 500 }, 3,
	  "slc_cache,direct_to_tlc,erase_bound", 1 },
	{ "two tiers", { 5, 3.5, 0.5 }, { 60, 120, 500 }, 3,
	  "slc_cache,slc_cache,direct_to_tlc", 1 },
	{ "one level", { 1.8 }, { 800 }, 1, "direct_to_tlc", 0 },
	/* GC dips that recover, the run ending inside the last: no cache */
	{ "dips, the last cut off", { 2, 1.5, 2, 1.5 }, { 150, 30, 150, 25 }, 4, "direct_to_tlc", 0 },
	/* a first foreground GC that slows writing by 8% (nvme2t-qlc): long,
	 * persistent and tens of standard errors, it is an onset */
	{ "small lasting step", { 3, 1.0, 0.92 }, { 100, 1500, 1500 }, 3,
	  "slc_cache,direct_to_tlc,erase_bound", 1 },
	/* ... a 3% step is not (under STEP_SMALL), nor is a short 8% one */
	{ "3% step", { 3, 1.0, 0.97 }, { 100, 1500, 1500 }, 3, "slc_cache,direct_to_tlc", 1 },
	{ "short 8% step", { 3, 1.0, 0.92 }, { 100, 1500, 60 }, 3, "slc_cache,direct_to_tlc", 1 },
};

static void test_labels_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(label_cases) / sizeof(label_cases[0]); c++) {
		const struct label_case *k = label_cases + c;
		size_t n;
		double *v = levels(k->lv, k->len, k->k, 0, 0, &n), *t = malloc(n * sizeof(*t));
		struct slc_trace_in in = { 0 };
		struct slc_analysis a;
		char kinds[256] = "";
		uint64_t r = 99 + c;

		assert_non_null(t);
		for (size_t i = 0; i < n; i++) {
			t[i] = (double)i + 1;
			v[i] *= 1e9 * (1 + 0.02 * gauss(&r));
		}
		in.t_s = t;
		in.bps = v;
		in.n = n;
		assert_int_equal(slc_analyze(&a, &in, NULL), 0);
		for (size_t i = 0; i < a.n_phases; i++) {
			strcat(kinds, i ? "," : "");
			strcat(kinds, slc_phase_kind_name(a.phases[i].kind));
		}
		if (strcmp(kinds, k->kinds) || a.has_cache != k->has_cache)
			fail_msg("%s: %s, cache %d", k->name, kinds, a.has_cache);
		if (k->has_cache)
			assert_int_equal(a.phases[0].tier, 1);
		slc_analysis_free(&a);
		free(t);
		free(v);
	}
}

/*
 * A write buffer that fills during the cache: the link's 3.5 GB/s, then
 * 4 samples at the SLC's 3.0 GB/s, then native (thermal-nvme sequential at
 * 10 ms).  The 3.0 GB/s stretch is flat: a level (a later tier), not a ramp
 * whose byte-equivalent step at 3.5 GB/s would end the cache 3% early.
 */
static void test_plateau_not_ramp(void **state)
{
	double t[300], v[300], bytes = 0, cache = 0;
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 300 };
	struct slc_analysis a;
	uint64_t r = 5;

	(void)state;
	for (size_t i = 0; i < 300; i++) {
		double lv = i < 12 ? 3.5e9 : i < 16 ? 3.0e9 : 1.5e9;

		t[i] = 0.01 * (double)(i + 1);
		v[i] = lv * (1 + 0.003 * gauss(&r));
		bytes += 0.01 * v[i];
		if (i == 15) cache = bytes;
	}
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	assert_int_equal(a.has_cache, 1);
	print_message("# plateau: cache %.5g, truth %.5g\n", a.cache_bytes, cache);
	assert_true(fabs(a.cache_bytes / cache - 1) < 0.005);
	slc_analysis_free(&a);
}

/*
 * A DRAM-less drive's comb at 1 s (sata480-dramless random): journal stalls
 * alias into samples from 0 to full speed, in the cache (164 MB/s between
 * stalls of 1.5 s every 2.5 s: 66 MB/s) and after (110 MB/s, stalls of
 * 2.4 s every 4 s: 44 MB/s).  Sample to sample the cache cannot be told
 * from the native comb; block means can.
 */
static void test_comb_cache_1s(void **state)
{
	enum { N = 2000, SUB = 100, CACHE_S = 108 };
	static double t[N], v[N];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = N };
	struct slc_analysis a;
	double cache = 0, phase = 0, stall = 1.5, bytes = 0;
	uint64_t r = 11;
	int native = 0;

	(void)state;
	for (size_t i = 0; i < N; i++) {
		double b = 0;

		for (size_t k = 0; k < SUB; k++) {
			int in_cache = i < CACHE_S;
			double period = in_cache ? 2.5 : 4.0, full = in_cache ? 164e6 : 110e6;

			phase += 1.0 / SUB;
			/* the native comb starts with a stall (as in the
			 * simulated drive: the journal fills faster) */
			if (!in_cache && !native) {
				native = 1;
				phase = period;
			}
			if (phase >= period) {
				phase -= period;
				/* stall lengths vary by +-20% */
				stall = (in_cache ? 1.5 : 2.4) * (1 + 0.2 * fmax(-1, fmin(1, gauss(&r) / 2)));
			}
			b += phase < stall ? 0 : full / SUB;
		}
		t[i] = (double)(i + 1);
		v[i] = b;
		bytes += b;
		if (i + 1 == CACHE_S) cache = bytes;
	}
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	print_message("# comb at 1 s: cache %.5g, truth %.5g, %zu phases\n",
		      a.has_cache ? a.cache_bytes : NAN, cache, a.n_phases);
	assert_int_equal(a.has_cache, 1);
	assert_true(fabs(a.cache_bytes / cache - 1) <= 0.01);
	assert_int_equal(a.phases[a.n_phases - 1].kind, SLC_PHASE_DIRECT_TO_TLC);
	slc_analysis_free(&a);
}

static void test_recovery(void **state)
{
	struct slc_phase fp = { .mean_bps = 3e9 }, sp = { .mean_bps = 2.5e9 };
	struct slc_analysis fresh = { .has_cache = 1, .cache_bytes = 100e9, .phases = &fp, .n_phases = 1 };
	struct slc_analysis idle = { .has_cache = 1, .cache_bytes = 25e9, .phases = &sp, .n_phases = 1 };
	struct slc_analysis none = { .has_cache = 0, .cache_bytes = NAN, .phases = &sp, .n_phases = 1 };
	struct slc_recovery r;
	(void)state;

	assert_int_equal(slc_recovery(&r, &fresh, &idle), 0);
	assert_float_equal(r.burst_bps, 2.5e9, 0);
	assert_float_equal(r.cache_bytes, 25e9, 0);
	assert_float_equal(r.cache_frac, 0.25, 1e-12);
	assert_int_equal(slc_recovery(&r, &fresh, &none), 0);
	assert_float_equal(r.cache_bytes, 0, 0);
	assert_float_equal(r.cache_frac, 0, 0);
	assert_int_equal(slc_recovery(&r, &none, &idle), 0);
	assert_true(isnan(r.cache_frac));
	none.n_phases = 0;
	assert_int_equal(slc_recovery(&r, &fresh, &none), -EINVAL);
	assert_int_equal(slc_recovery(NULL, &fresh, &idle), -EINVAL);
}

static void test_kind_names(void **state)
{
	static const struct { enum slc_phase_kind k; const char *name; } names[] = {
		{ SLC_PHASE_SLC_CACHE, "slc_cache" },
		{ SLC_PHASE_DIRECT_TO_TLC, "direct_to_tlc" },
		{ SLC_PHASE_ERASE_BOUND, "erase_bound" },
		{ SLC_PHASE_STALL, "stall" },
		{ SLC_PHASE_THROTTLED, "throttled" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(slc_phase_kind_name(names[i].k), names[i].name);
}

/* Two flat levels, @n1 samples at @v1 then @n2 at @v2 (1 s each, 1% noise). */
static void two_levels(double *t, double *v, size_t n1, double v1, size_t n2, double v2, uint64_t seed)
{
	for (size_t i = 0; i < n1 + n2; i++) {
		t[i] = (double)(i + 1);
		v[i] = (i < n1 ? v1 : v2) * (1 + 0.01 * gauss(&seed));
	}
}

/* What a run knows of its drive: capacity, cell type and state. */
static void drive_evidence(struct slc_phase_evidence *ev, double capacity, enum slc_cell cell,
			   enum slc_drive_state state)
{
	slc_phase_evidence_init(ev);
	ev->capacity_bytes = capacity;
	ev->cell = cell;
	ev->state = state;
}

static int phase_kind(const struct slc_analysis *a, size_t i)
{
	return i < a->n_phases ? (int)a->phases[i].kind : -1;
}

/*
 * The phase model reads a step by what the run knows.  A burst after idle
 * whose level after the cache sits at the main curve's erase-bound speed is
 * erase-bound; the same burst after a TRIM is native (direct writing) at
 * the main curve's native speed; a 400 GB "cache" on a 240 GB TLC drive
 * cannot be one; after a TRIM of a 240 GB drive no erase-bound phase
 * starts at 2 GB.  Without evidence the model says when it cannot decide.
 */
static void test_model_evidence(void **state)
{
	static double t[400], v[400];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 60 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;

	(void)state;
	/* idle burst: 7 s at 328 MB/s, then 48 MB/s; main curve 77 / 58 MB/s */
	two_levels(t, v, 7, 328e6, 53, 48e6, 3);
	drive_evidence(&ev, 240e9, SLC_CELL_TLC, SLC_STATE_USED);
	ev.ref_cache_bps = 328e6;
	ev.ref_native_bps = 77e6;
	ev.ref_erase_bps = 55e6;
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.has_cache);
	assert_int_equal(phase_kind(&a, 1), SLC_PHASE_ERASE_BOUND);
	assert_true(a.model.odds > 10);
	slc_analysis_free(&a);
	/* the same burst with nothing known: native (a curve usually begins
	 * on an erased drive), a reading with an erase-bound phase kept as the
	 * runner-up (erase-bound from the start after the cache, or a flat
	 * drive without cache that steps down) */
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_true(a.has_cache);
	assert_int_equal(phase_kind(&a, 1), SLC_PHASE_DIRECT_TO_TLC);
	assert_true(a.model.runner_up.valid);
	assert_true(a.model.runner_up.erase_bound);
	assert_true(a.model.odds < 100);
	slc_analysis_free(&a);
	/* after a TRIM, 70 MB/s is the native level: never erase-bound at 2 GB */
	two_levels(t, v, 7, 328e6, 53, 70e6, 4);
	ev.state = SLC_STATE_TRIMMED;
	ev.ref_native_bps = NAN;
	ev.ref_erase_bps = 70e6;	/* even a reference that says otherwise */
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.has_cache);
	assert_int_equal(phase_kind(&a, 1), SLC_PHASE_DIRECT_TO_TLC);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_non_null(strstr(a.model.explain, "ruled out by the evidence"));
	slc_analysis_free(&a);
	/* no cache on a drive whose flat first level is more than the flash
	 * could hold in SLC mode: 400 s at 1 GB/s on a 240 GB TLC drive */
	in.n = 400;
	two_levels(t, v, 300, 1e9, 100, 0.7e9, 5);
	ev.state = SLC_STATE_UNKNOWN;
	ev.ref_cache_bps = ev.ref_native_bps = ev.ref_erase_bps = NAN;
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_false(a.has_cache);
	assert_int_equal(phase_kind(&a, 1), SLC_PHASE_ERASE_BOUND);
	slc_analysis_free(&a);
	/* ... which with nothing known reads as a cache, the other reading kept */
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_true(a.has_cache);
	assert_true(a.model.runner_up.valid);
	assert_int_equal(a.model.runner_up.tiers, 0);
	for (size_t q = 0; q < a.n_phases; q++) {
		assert_true(a.phases[q].confidence > 0 && a.phases[q].confidence <= 1);
		assert_true(a.phases[q].end_lo_bytes <= a.phases[q].end_bytes);
		assert_true(a.phases[q].end_hi_bytes >= a.phases[q].end_bytes);
	}
	slc_analysis_free(&a);
	/* a flat drive with dips to 0.75x that recover, the run ending in
	 * one: no cache.  Cut off shorter than the dips, the last is one more
	 * of them (the consolidation absorbs it); longer, the model reads it:
	 * the dips visit the "native" level and come back, so a cache is not
	 * even the runner-up (an erase-bound onset may be) */
	in.n = 400;
	static const size_t cuts[] = { 385, 360 };
	for (size_t k = 0; k < 2; k++) {
		two_levels(t, v, 400, 1e9, 0, 0, 6);
		for (size_t i = 0; i < 400; i++)
			if ((i >= 100 && i < 120) || (i >= 240 && i < 260) || i >= cuts[k]) v[i] *= 0.75;
		assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
		assert_false(a.has_cache);
		/* the visits keep a cache out of the two best readings */
		if (k == 1 && a.model.runner_up.valid && a.model.runner_up.tiers > 0) fail_msg("%s", a.model.explain);
		slc_analysis_free(&a);
	}
	/* evidence that rules out what fits: on a 100 GB TLC drive after a
	 * TRIM a 45 GB cache is more than its flash holds in SLC mode, and
	 * erase-bound writing from 45 GB too early: a conflict, said so, not
	 * a confident reading */
	in.n = 200;
	two_levels(t, v, 45, 1e9, 155, 0.3e9, 7);
	drive_evidence(&ev, 100e9, SLC_CELL_TLC, SLC_STATE_TRIMMED);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.model.conflict);
	assert_true(a.model.confidence == 0);
	slc_analysis_free(&a);
	assert_int_equal(slc_cell_from_name("QLC"), SLC_CELL_QLC);
	assert_int_equal(slc_cell_from_name("xlc"), -1);
	assert_string_equal(slc_cell_name(SLC_CELL_MLC), "mlc");
}

/*
 * A write buffer's burst at the start: sampled every 10 ms, 40 ms at the
 * link's speed, then the flash's.  On a drive of known capacity a level
 * that small (under 0.1% of it) is no SLC cache and no cache tier; without
 * the capacity it stays one.
 */
static void test_write_buffer(void **state)
{
	static double t[600], v[600];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 400 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	uint64_t seed = 11;

	(void)state;
	for (size_t i = 0; i < 400; i++) {
		t[i] = 0.01 * (double)(i + 1);
		v[i] = (i < 4 ? 275e6 : 135e6) * (1 + 0.005 * gauss(&seed));
	}
	drive_evidence(&ev, 120e9, SLC_CELL_MLC, SLC_STATE_TRIMMED);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_false(a.has_cache);
	assert_false(a.model.cache_bound);
	assert_true(a.model.best.buffer_bytes > 10e6 && a.model.best.buffer_bytes < 12e6);
	assert_int_equal(phase_kind(&a, 0), SLC_PHASE_DIRECT_TO_TLC);
	assert_true(a.model.runner_up.valid);
	assert_int_equal(a.model.runner_up.tiers, 1);
	assert_non_null(strstr(a.model.explain, "write buffer's burst"));
	slc_analysis_free(&a);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_true(a.has_cache || a.model.cache_bound);
	slc_analysis_free(&a);
	/* before a cache: 50 ms at 5.4 GB/s, 3 s at 4.5 GB/s, then 2 GB/s;
	 * one tier of 13.8 GB on a 1 TB drive, two without the capacity */
	in.n = 600;
	for (size_t i = 0; i < 600; i++) {
		t[i] = 0.01 * (double)(i + 1);
		v[i] = (i < 5 ? 5.4e9 : i < 305 ? 4.5e9 : 2e9) * (1 + 0.005 * gauss(&seed));
	}
	ev.capacity_bytes = 1e12;
	ev.cell = SLC_CELL_TLC;
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.has_cache);
	assert_int_equal(a.model.best.tiers, 1);
	assert_true(a.model.best.buffer_bytes > 0);
	assert_true(fabs(a.cache_bytes - 13.77e9) < 0.1e9);
	slc_analysis_free(&a);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_int_equal(a.model.best.tiers, 2);
	assert_true(a.model.best.buffer_bytes == 0);
	slc_analysis_free(&a);
}

/*
 * The same burst sampled more finely: 60 ms at 246 MB/s before a 184 MB/s
 * cache of 0.27 GB on a 4 GiB TLC drive, sampled every 10 ms (the DRAM-less
 * test drive).  The level wrote 14.7 MB, over 0.1% of the capacity, but
 * only 3.7 MB beyond the cache's speed: what the buffer ran ahead.  One
 * tier, the burst no phase of its own.
 */
static void test_write_buffer_spread(void **state)
{
	static double t[2200], v[2200];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 2200 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	uint64_t seed = 5;

	(void)state;
	for (size_t i = 0; i < 2200; i++) {
		t[i] = 0.01 * (double)(i + 1);
		v[i] = (i < 6 ? 246e6 : i < 146 ? 184e6 : 44e6) * (1 + 0.02 * gauss(&seed));
	}
	drive_evidence(&ev, 4294967296.0, SLC_CELL_TLC, SLC_STATE_TRIMMED);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.has_cache);
	assert_int_equal(a.model.best.tiers, 1);
	assert_true(a.model.best.buffer_bytes > 10e6 && a.model.best.buffer_bytes < 20e6);
	assert_true(fabs(a.cache_bytes - 0.2725e9) < 0.01e9);
	slc_analysis_free(&a);
}

/*
 * A cache back during a fill starts and ends as a step; the native speed's
 * wander does not.  A 2 GB cache at 500 MB/s, 10 ms samples, then native
 * writing at 80 MB/s (10% noise) with, 10 s in, 1.2 s at 300 MB/s (as
 * steady as the cache): entered and left in one sample it is the cache
 * back; reached and left over 7 samples or more (a hump of the native
 * speed, as the 240 GB TLC drive's at 10 ms: 45 samples) it is native
 * writing.  On 8 noise seeds each.  Ramps of 2-6 samples are not asserted:
 * they can look like a step's straddler and one noisy sample.
 */
static void cache_back(double *t, double *v, size_t ramp, uint64_t seed)
{
	for (size_t i = 0; i < 4000; i++) {
		double lv;
		size_t j = i - 1400;	/* the hump's samples from its start */

		t[i] = 0.01 * (double)(i + 1);
		if (i < 400) lv = 500e6 * (1 + 0.01 * gauss(&seed));
		else if (i < 1400 || j >= 120 + 2 * ramp) lv = 80e6 * (1 + 0.1 * gauss(&seed));
		else if (j < ramp) lv = 80e6 + 220e6 * (double)j / (double)ramp;
		else if (j < ramp + 120) lv = 300e6 * (1 + 0.02 * gauss(&seed));
		else lv = 300e6 - 220e6 * (double)(j - ramp - 120) / (double)ramp;
		v[i] = lv;
	}
}

static size_t n_kind(const struct slc_analysis *a, enum slc_phase_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n_phases; i++) n += a->phases[i].kind == k;
	return n;
}

static void test_cache_back_edges(void **state)
{
	static const size_t ramps[] = { 0, 1, 7, 8, 10, 12, 15, 25, 35, 50 };
	static double t[4000], v[4000];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 4000 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	unsigned wrong = 0;

	(void)state;
	drive_evidence(&ev, 240e9, SLC_CELL_TLC, SLC_STATE_TRIMMED);
	for (size_t r = 0; r < sizeof(ramps) / sizeof(ramps[0]); r++)
		for (uint64_t seed = 1; seed <= 8; seed++) {
			cache_back(t, v, ramps[r], seed);
			assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
			assert_true(a.has_cache && fabs(a.cache_bytes - 2e9) < 0.05e9);
			if (n_kind(&a, SLC_PHASE_SLC_CACHE) != (ramps[r] <= 1 ? 2u : 1u)) {
				print_message("# cache back, ramp %zu samples, seed %llu: %zu cache phases\n", ramps[r],
					      (unsigned long long)seed, n_kind(&a, SLC_PHASE_SLC_CACHE));
				wrong++;
			}
			slc_analysis_free(&a);
		}
	assert_int_equal(wrong, 0);
}

/*
 * A burst of the native speed up to the cache's, far from the cache: 100 ms
 * samples, a 2.3 GB cache at 328 MB/s, then native writing at 85 MB/s that
 * wanders (AR(1), 25%), and 200 s in, 2.4 s that ramp to 325 MB/s and
 * back over 8 samples each (the controller's limit; the 240 GB TLC drive's
 * random curve at 244 GB).  Not the cache back (its edges ramp), so native
 * writing's excursion: the cache is still the first level, not ruled out
 * by a later one as fast.  On 64 noise seeds: the segmentation cuts the
 * ramps differently each time.
 */
static void test_native_burst(void **state)
{
	static double t[3000], v[3000];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 3000 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	unsigned wrong = 0;

	(void)state;
	drive_evidence(&ev, 240e9, SLC_CELL_TLC, SLC_STATE_TRIMMED);
	for (uint64_t seed = 1; seed <= 64; seed++) {
		uint64_t r = seed;
		double e = 0;

		for (size_t i = 0; i < 3000; i++) {
			size_t j = i - 2000;

			t[i] = 0.1 * (double)(i + 1);
			e = 0.9 * e + 0.436 * 0.25 * gauss(&r);
			v[i] = i < 70 ? 328e6 * (1 + 0.01 * gauss(&r)) : fmax(1e6, 85e6 * (1 + e));
			if (i >= 2000 && j < 8) v[i] = 100e6 + 220e6 * (double)j / 8;
			else if (i >= 2000 && j < 16) v[i] = 325e6 * (1 + 0.05 * gauss(&r));
			else if (i >= 2000 && j < 24) v[i] = 320e6 - 220e6 * (double)(j - 16) / 8;
		}
		assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
		if (!a.has_cache || fabs(a.cache_bytes - 2.296e9) > 0.05e9 || n_kind(&a, SLC_PHASE_SLC_CACHE) != 1) {
			print_message("# native burst, seed %llu: cache %d, %.4g B, %zu cache phases\n",
				      (unsigned long long)seed, a.has_cache, a.cache_bytes, n_kind(&a, SLC_PHASE_SLC_CACHE));
			wrong++;
		}
		slc_analysis_free(&a);
	}
	assert_int_equal(wrong, 0);
}

/*
 * A cache inside the first 1 s sample, then a stall.  On a drive whose
 * writing stalls again and again (a DRAM-less drive under 4 KiB random
 * writes: 1.6 s journal flushes every few hundred MB) the cache may go on
 * after the stall, and only the flash in SLC mode bounds it; after a stall
 * that does not recur it ended inside the sample.
 */
static void test_short_cache_stall(void **state)
{
	static const double comb[4] = { 60e6, 2e6, 45e6, 75e6 };
	static double t[200], v[200];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 200 };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	uint64_t seed = 9;

	(void)state;
	drive_evidence(&ev, 4294967296.0, SLC_CELL_TLC, SLC_STATE_TRIMMED);
	for (int texture = 1; texture >= 0; texture--) {
		for (size_t i = 0; i < 200; i++) {
			t[i] = (double)(i + 1);
			v[i] = i == 0 ? 164e6 : i == 1 ? 0 : texture ? comb[i % 4] * (1 + 0.1 * gauss(&seed))
								 : 45e6 * (1 + 0.1 * gauss(&seed));
		}
		assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
		assert_false(a.has_cache);
		assert_true(a.model.cache_bound);
		assert_int_equal(a.model.cache_bound_stall, texture);
		assert_true(a.model.cache_min_bytes > 100e6 && a.model.cache_min_bytes < 164e6);
		if (texture)
			assert_true(fabs(a.model.cache_max_bytes - 4294967296.0 * 1.28 / 3) < 1e6);
		else
			assert_true(fabs(a.model.cache_max_bytes - 164e6) < 1e3);
		slc_analysis_free(&a);
		/* without the capacity nothing bounds it from above */
		assert_int_equal(slc_analyze(&a, &in, NULL), 0);
		assert_true(a.model.cache_bound);
		assert_int_equal(a.model.cache_bound_stall, texture);
		assert_true(texture ? isinf(a.model.cache_max_bytes) : fabs(a.model.cache_max_bytes - 164e6) < 1e3);
		slc_analysis_free(&a);
	}
}

/*
 * A DRAM-less drive's cache in bursts, sampled every 100 ms: 0.9 s at
 * 180 MB/s between 1.6 s stalls for 110 s, then the native writing in
 * the same rhythm at 90 MB/s for 500 s.  Each burst is a level of its own
 * at this interval (the fine reading: no cache, erase-bound at half the
 * speed); binned to a second the bursts make the cache's level, and the
 * cache is the whole 110 s, native writing after it.
 */
static void test_cache_in_bursts(void **state)
{
	static double t[6100], v[6100];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 6100 };
	struct slc_analysis a;
	uint64_t seed = 31;
	double cache = 0;

	(void)state;
	for (size_t i = 0; i < 6100; i++) {
		size_t ph = i % 25;	/* 2.5 s: 9 samples of writing, 16 of stall */
		double burst = i < 1100 ? 180e6 : 90e6;

		t[i] = 0.1 * (double)(i + 1);
		v[i] = ph < 9 ? burst * (1 + 0.01 * gauss(&seed)) : 0;
		if (i < 1100) cache += v[i] * 0.1;
	}
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	assert_true(a.has_cache);
	assert_true(fabs(a.cache_bytes / cache - 1) < 0.03);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_non_null(strstr(a.model.explain, "binned"));
	slc_analysis_free(&a);
}

/*
 * A kept drop must be more than the level's own noise.  A cache, then a
 * native level with 12% AR(1) noise (rho 0.7) and no event in it: over 16
 * curves of 6000 samples, the noise's own excursions (a second or two 25%
 * down) are no phase of their own.  A 15 s throttle to 60% in the same
 * noise is kept.
 */
static int has_kind(const struct slc_analysis *a, enum slc_phase_kind k)
{
	for (size_t i = 0; i < a->n_phases; i++)
		if (a->phases[i].kind == k) return 1;
	return 0;
}

static void noisy_native(double *t, double *v, size_t n, size_t d0, size_t dlen, double depth,
			 uint64_t seed)
{
	const double rho = 0.7;
	double e = 0;

	for (size_t i = 0; i < n; i++) {
		t[i] = 0.25 * (double)(i + 1);
		e = rho * e + sqrt(1 - rho * rho) * 0.12 * gauss(&seed);
		if (i < 400) v[i] = 3e9 * (1 + 0.01 * gauss(&seed));
		else v[i] = 1.2e9 * (1 + e) * (i >= d0 && i < d0 + dlen ? 1 - depth : 1);
	}
}

static void test_drop_beyond_noise(void **state)
{
	static double t[6000], v[6000];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 6000 };
	struct slc_analysis a;

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		noisy_native(t, v, 6000, 0, 0, 0, seed);
		assert_int_equal(slc_analyze(&a, &in, NULL), 0);
		assert_true(a.has_cache);
		assert_false(has_kind(&a, SLC_PHASE_THROTTLED));
		assert_false(has_kind(&a, SLC_PHASE_STALL));
		slc_analysis_free(&a);
	}
	noisy_native(t, v, 6000, 3000, 60, 0.4, 5);
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	assert_true(has_kind(&a, SLC_PHASE_THROTTLED));
	slc_analysis_free(&a);
}

/*
 * A second tier a little slower than the drives show (0.57 of the first,
 * the prior's range starting at 0.6) costs the prior's tail and is still a
 * reading: a steady middle level between a short fast one and noisy slow
 * writing is two tiers, by the best reading or the runner-up.  Direct-to-
 * TLC's ratios (0.42, under the floor of 0.44) are no tier.
 */
static void three_flat(double *t, double *v, double r2, uint64_t seed)
{
	for (size_t i = 0; i < 2220; i++) {
		t[i] = 0.5 * (double)(i + 1);
		if (i < 20) v[i] = 3e9 * (1 + 0.01 * gauss(&seed));
		else if (i < 220) v[i] = 3e9 * r2 * (1 + 0.01 * gauss(&seed));
		else v[i] = 0.6e9 * (1 + 0.08 * gauss(&seed));
	}
}

static void test_tier_near_prior(void **state)
{
	static double t[2220], v[2220];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 2220 };
	struct slc_analysis a;

	(void)state;
	three_flat(t, v, 0.57, 9);
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	assert_true(a.model.best.tiers == 2 || (a.model.runner_up.valid && a.model.runner_up.tiers == 2));
	slc_analysis_free(&a);
	three_flat(t, v, 0.42, 9);
	assert_int_equal(slc_analyze(&a, &in, NULL), 0);
	assert_int_equal(a.model.best.tiers, 1);
	assert_false(a.model.runner_up.valid && a.model.runner_up.tiers == 2);
	slc_analysis_free(&a);
}

/*
 * No cache (an MLC drive): a flat level, then a step to 0.7 of it and a
 * decay towards 0.45 with a time constant of a seventh of the run after it.
 * The decay's samples fall by 24% first quarter to last, under a decay's
 * own fall (25%), but steadily: the level after the first is a decay's
 * start, and the curve reads as no cache.  5% AR(1) noise (rho 0.7).
 */
static void test_flat_then_falling(void **state)
{
	static double t[950], v[950];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = 950 };
	struct slc_analysis a;
	const double rho = 0.7;

	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		uint64_t r = seed;
		double e = 0;

		for (size_t i = 0; i < 950; i++) {
			t[i] = (double)(i + 1);
			e = rho * e + sqrt(1 - rho * rho) * 0.05 * gauss(&r);
			v[i] = (i < 450 ? 1.96e9 : 0.86e9 + 0.54e9 * exp(-(double)(i - 450) / 70)) * (1 + e);
		}
		assert_int_equal(slc_analyze(&a, &in, NULL), 0);
		assert_false(a.has_cache);
		slc_analysis_free(&a);
	}
}

/*
 * The drive's counters place the erase-bound onset.  A 20 s cache at
 * 2 GB/s, native writing at 500 MB/s, and from @gc_s on garbage collection
 * (NAND bytes 1.5 per host byte); the speed falls to @eb_bps only from
 * @slow_s on.  Counters read every second.
 */
static void gc_curve(double *t, double *v, double *ct, double *ch, double *cn, size_t n, double gc_s,
		     double slow_s, double eb_bps, double fold_to_s, uint64_t seed)
{
	double host = 0, nand = 0;

	for (size_t i = 0; i < n; i++) {
		double ts = (double)i, bps = i < 20 ? 2e9 : ts >= slow_s ? eb_bps : 5e8;

		t[i] = ts + 1;
		v[i] = bps * (1 + 0.03 * gauss(&seed));
		host += v[i];
		/* folding the cache after it (fold_to_s): a tenth more NAND
		 * writing for a while; garbage collection: half more, lasting */
		nand += v[i] * (ts >= gc_s ? 1.5 : i >= 20 && ts < fold_to_s ? 1.1 : 1.0);
		ct[i] = t[i];
		ch[i] = host;
		cn[i] = nand;
	}
}

/*
 * A 4 TB TLC drive written at random right after a TRIM whose mapping unit
 * is larger than the writes (the nvme4t-tlc preset: 32 KiB): a cache of
 * 50 GB, 400 GB more at 0.72 of its speed, then garbage collection's steps
 * down.  Every reading that fits needs an onset the TRIM bound, counted in
 * host bytes, forbids; the explanation says so, and with counters that
 * show 8 NAND bytes per host byte it names them.  At 1 NAND byte per host
 * byte it does not.
 */
static void test_conflict_wa(void **state)
{
	enum { N = 7200 };
	static const double lv[] = { 623e6, 450e6, 193e6, 105e6, 90e6, 72.8e6, 59.6e6 };
	static const size_t len[] = { 80, 878, 675, 1057, 1191, 1343, 1976 };
	static double t[N], v[N], ct[N], ch[N], cn[N];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = N };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	uint64_t seed = 21;
	(void)state;

	for (int wa = 8; wa >= 1; wa -= 7) {
		double host = 0;
		size_t i = 0;

		for (size_t q = 0; q < 7; q++)
			for (size_t k = 0; k < len[q]; k++, i++) {
				t[i] = (double)(i + 1);
				v[i] = lv[q] * (1 + 0.02 * gauss(&seed));
				host += v[i];
				ct[i] = t[i];
				ch[i] = host;
				cn[i] = wa * host;
			}
		drive_evidence(&ev, 4e12, SLC_CELL_TLC, SLC_STATE_TRIMMED);
		ev.ctr_t_s = ct;
		ev.ctr_host = ch;
		ev.ctr_nand = cn;
		ev.n_ctr = N;
		assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
		if (!a.model.conflict) fail_msg("no conflict:\n%s", a.model.explain);
		if (wa == 8) assert_non_null(strstr(a.model.explain, "8.0 NAND bytes for each host byte"));
		else assert_null(strstr(a.model.explain, "NAND bytes for each host byte"));
		slc_analysis_free(&a);
	}
}

static void test_counter_onset(void **state)
{
	enum { N = 1200 };
	static double t[N], v[N], ct[N], ch[N], cn[N];
	struct slc_trace_in in = { .t_s = t, .bps = v, .n = N };
	struct slc_phase_evidence ev;
	struct slc_analysis a;
	double want;
	(void)state;

	slc_phase_evidence_init(&ev);
	ev.ctr_t_s = ct;
	ev.ctr_host = ch;
	ev.ctr_nand = cn;
	ev.n_ctr = N;
	/* the speed falls 30 s after GC began: the counters' onset wins */
	gc_curve(t, v, ct, ch, cn, N, 600, 630, 3.5e8, 0, 3);
	want = 0;
	for (size_t i = 0; i < 600; i++) want += v[i];
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(a.has_cache);
	if (!(fabs(a.erase_bound_start_bytes / want - 1) < 0.01))
		fail_msg("onset %.4g B, the counters say %.4g B", a.erase_bound_start_bytes, want);
	assert_non_null(strstr(a.model.explain, "drive's counters"));
	slc_analysis_free(&a);
	/* without them the speed's onset, 30 s later */
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_true(a.erase_bound_start_bytes > want * 1.02);
	slc_analysis_free(&a);
	/* the speed does not change at all: the counters alone give the onset */
	gc_curve(t, v, ct, ch, cn, N, 600, 1e9, 0, 0, 4);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, NULL), 0);
	assert_true(isnan(a.erase_bound_start_bytes));
	slc_analysis_free(&a);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_true(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	slc_analysis_free(&a);
	/* folding the cache (a tenth more for 200 s, less than the cache's
	 * bytes) is no garbage collection */
	gc_curve(t, v, ct, ch, cn, N, 1e9, 1e9, 0, 220, 5);
	assert_int_equal(slc_analyze_ev(&a, &in, NULL, &ev), 0);
	assert_false(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	slc_analysis_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changepoints_table),
		cmocka_unit_test(test_changepoints_options),
		cmocka_unit_test(test_changepoints_autocorrelated),
		cmocka_unit_test(test_changepoints_errors),
		cmocka_unit_test(test_quantile_matches_sort),
		cmocka_unit_test(test_straddle_exact),
		cmocka_unit_test(test_straddle_wander),
		cmocka_unit_test(test_straddle_then_noise),
		cmocka_unit_test(test_edge_native_trend),
		cmocka_unit_test(test_pause_at_boundary),
		cmocka_unit_test(test_gc_tail),
		cmocka_unit_test(test_throttle_one_visit),
		cmocka_unit_test(test_stalls_inside_cache),
		cmocka_unit_test(test_no_reading_fits),
		cmocka_unit_test(test_flat_then_decay),
		cmocka_unit_test(test_cache_then_drift),
		cmocka_unit_test(test_comb_onset_in_run),
		cmocka_unit_test(test_analyze_errors),
		cmocka_unit_test(test_analyze_tiny),
		cmocka_unit_test(test_steady_state_table),
		cmocka_unit_test(test_phases_json),
		cmocka_unit_test(test_labels_table),
		cmocka_unit_test(test_plateau_not_ramp),
		cmocka_unit_test(test_model_evidence),
		cmocka_unit_test(test_conflict_wa),
		cmocka_unit_test(test_write_buffer),
		cmocka_unit_test(test_write_buffer_spread),
		cmocka_unit_test(test_cache_back_edges),
		cmocka_unit_test(test_native_burst),
		cmocka_unit_test(test_short_cache_stall),
		cmocka_unit_test(test_cache_in_bursts),
		cmocka_unit_test(test_drop_beyond_noise),
		cmocka_unit_test(test_tier_near_prior),
		cmocka_unit_test(test_flat_then_falling),
		cmocka_unit_test(test_counter_onset),
		cmocka_unit_test(test_comb_cache_1s),
		cmocka_unit_test(test_recovery),
		cmocka_unit_test(test_kind_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
