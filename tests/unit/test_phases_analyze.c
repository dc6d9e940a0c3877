// SPDX-License-Identifier: MIT
/*
 * Unit tests of the stages slc_analyze() runs after the phase model
 * (analysis/phases/analyze.c): the coarse reading of a finely sampled
 * curve (its cache's end and its onset), the onset from the drive's
 * counters, a cache too short for the sampling (a bound), the placing of
 * an onset, the headline figures and the SNIA steady-state search.  Each
 * stage is static, so each test drives slc_analyze_ev() with a curve
 * built so that the stage's part in the answer shows, and checks that
 * part against the curve's own truth and the stage's documented promise
 * (its comment in analyze.c, docs/analysis.md).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "slcscope/analysis.h"

#include "test_curves.h"


/* ---- curves ---- */

/* A curve of @n samples of @dt seconds each, speeds in v (bytes/s). */
struct curve {
	double *t, *v;
	size_t n;
	double dt;
};

static void curve_new(struct curve *c, size_t n, double dt)
{
	c->t = malloc(n * sizeof(double));
	c->v = malloc(n * sizeof(double));
	assert_true(c->t && c->v);
	c->n = n;
	c->dt = dt;
	for (size_t i = 0; i < n; i++) c->t[i] = dt * (double)(i + 1);
}

static void curve_free(struct curve *c)
{
	free(c->t);
	free(c->v);
	c->t = c->v = NULL;
}

/* The same writing sampled @k times coarser (mean speed of each k samples). */
static void curve_bin(struct curve *out, const struct curve *c, size_t k)
{
	curve_new(out, c->n / k, c->dt * (double)k);
	for (size_t i = 0; i < out->n; i++) {
		double s = 0;
		for (size_t j = 0; j < k; j++) s += c->v[i * k + j];
		out->v[i] = s / (double)k;
	}
}

/* Host bytes written by the end of sample @i (exclusive). */
static double bytes_before(const struct curve *c, size_t i)
{
	double b = 0;

	for (size_t j = 0; j < i && j < c->n; j++) b += c->v[j] * c->dt;
	return b;
}

static int has_kind(const struct slc_analysis *a, enum slc_phase_kind k)
{
	for (size_t i = 0; i < a->n_phases; i++)
		if (a->phases[i].kind == k) return 1;
	return 0;
}

/* The reasons state every way the answer differs from the model's
 * reading (model.best, by whole levels): a cache added, bounded or taken
 * away, a native or erase-bound phase added or taken away, the cache's end
 * or the onset moved by more than the reasons' four figures show. */
static void check_stated(const struct slc_analysis *a)
{
	const struct slc_labelling *l = &a->model.best;
	const char *ex = a->model.explain;
	int cache = a->has_cache ? 1 : a->model.cache_bound ? 2 : 0, native = has_kind(a, SLC_PHASE_DIRECT_TO_TLC);
	int eb = has_kind(a, SLC_PHASE_ERASE_BOUND);

	if (cache != (l->tiers > 0))
		assert_non_null(strstr(ex, cache == 1 ? ": a cache up to " :
					   cache == 2 ? ": a cache too short to measure, its size only bounded (before: " :
							": no cache (before: "));
	else if (cache == 1 && fabs(a->cache_bytes / l->cache_bytes - 1) > 1e-3)
		assert_non_null(strstr(ex, "the cache's end"));
	if (native != l->native)
		assert_non_null(strstr(ex, native ? ": a native phase (before: none)" : ": no native phase (before: one)"));
	if (eb != l->erase_bound)
		assert_non_null(strstr(ex, eb ? "written (before: no such phase)" : ": no erase-bound phase (before: "));
	else if (eb && fabs(a->erase_bound_start_bytes / l->onset_bytes - 1) > 1e-3)
		assert_true(strstr(ex, "the onset at ") || strstr(ex, "onset from the ") || strstr(ex, "onset moved to "));
}

/* Every analysis here is checked for check_stated(). */
static int analyze(struct slc_analysis *a, const struct curve *c, const struct slc_phase_evidence *ev)
{
	struct slc_trace_in in = { .t_s = c->t, .bps = c->v, .n = c->n };
	int ret = slc_analyze_ev(a, &in, NULL, ev);

	if (!ret) check_stated(a);
	return ret;
}

static void dump(const char *what, const struct slc_analysis *a)
{
	print_message("# %s: cache %d %.6g B to %.5g s (bound %d [%.4g, %.4g]), onset %.6g B, %zu phases\n", what,
		      a->has_cache, a->cache_bytes, a->cache_end_s, a->model.cache_bound, a->model.cache_min_bytes,
		      a->model.cache_max_bytes, a->erase_bound_start_bytes, a->n_phases);
	for (size_t i = 0; i < a->n_phases && a->n_phases <= 12; i++)
		print_message("#   %-13s t%u %9.4g-%9.4g s %11.5g-%11.5g B %9.4g B/s\n",
			      slc_phase_kind_name(a->phases[i].kind), a->phases[i].tier, a->phases[i].start_s,
			      a->phases[i].end_s, a->phases[i].start_bytes, a->phases[i].end_bytes,
			      a->phases[i].mean_bps);
}

/* Evidence that switches the coarse reading off (no curve spans that many
 * bins): what the fine reading alone makes of a curve. */
static struct slc_model_params no_coarse;

static void fine_only(struct slc_phase_evidence *ev)
{
	slc_model_params_default(&no_coarse);
	no_coarse.coarse_min_bins = 1000000000;
	slc_phase_evidence_init(ev);
	ev->params = &no_coarse;
}

/* ---- the coarse reading: coarse_read, coarse_cache, coarse_onset ---- */

/*
 * A DRAM-less drive's cache in bursts at 10 ms: 0.9 s of writing at
 * 180 MB/s, 1.6 s stalled, for @cache_s s, then the native writing in the
 * same rhythm at 90 MB/s; @total_s s in all.  Returns the bytes written
 * before the native writing begins.
 */
static double bursts(struct curve *c, double cache_s, double total_s, uint64_t seed)
{
	size_t n = (size_t)(total_s * 100 + 0.5), nc = (size_t)(cache_s * 100 + 0.5);

	curve_new(c, n, 0.01);
	for (size_t i = 0; i < n; i++) {
		size_t ph = i % 250;
		c->v[i] = ph < 90 ? (i < nc ? 180e6 : 90e6) * (1 + 0.01 * gauss(&seed)) : 0;
	}
	return bytes_before(c, nc);
}

/*
 * coarse_cache: bursts that the fine reading cannot tell from the native
 * writing's average into the cache's level at a second; a coarse cache of
 * 10 bins or more then decides, its end put at full resolution.  The
 * cache (110 s, 400 s in all) within 3% of the bytes written at cache
 * speed, where the fine reading alone finds none or misses it; the same
 * writing sampled every second gives the same cache within 3%.
 */
static void test_coarse_cache_bursts(void **state)
{
	struct curve c, c1;
	struct slc_phase_evidence ev;
	struct slc_analysis a, f, s;
	double truth = bursts(&c, 110, 400, 31);

	(void)state;
	fine_only(&ev);
	assert_int_equal(analyze(&f, &c, &ev), 0);
	dump("bursts, fine alone", &f);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("bursts, 10 ms", &a);
	/* the stage has something to correct */
	assert_false(f.has_cache && fabs(f.cache_bytes / truth - 1) <= 0.03);
	assert_true(a.has_cache);
	assert_near(a.cache_bytes / truth, 1, 0.03);
	assert_non_null(strstr(a.model.explain, "the cache's end from the curve binned"));
	/* and what the samples read, which the binned curve's reading replaced */
	assert_non_null(strstr(a.model.explain, "the samples at their own interval read "));
	/* the fine reading began erase-bound writing right after its cache
	 * (the native bursts at half the speed); the coarse reading has
	 * native writing there and no onset, so none is left */
	assert_true(isfinite(f.erase_bound_start_bytes));
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_false(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	assert_true(has_kind(&a, SLC_PHASE_DIRECT_TO_TLC));
	/* at full resolution: the last burst at cache speed ends at 108.4 s,
	 * the first native one begins at 110 s; the stall between is
	 * either's */
	assert_true(a.cache_end_s >= 108.4 - 0.01 && a.cache_end_s <= 110.0 + 0.01);
	curve_bin(&c1, &c, 100);
	assert_int_equal(analyze(&s, &c1, NULL), 0);
	dump("bursts, 1 s", &s);
	assert_true(s.has_cache);
	assert_near(s.cache_bytes / a.cache_bytes, 1, 0.03);
	slc_analysis_free(&a);
	slc_analysis_free(&f);
	slc_analysis_free(&s);
	curve_free(&c);
	curve_free(&c1);
}

/*
 * coarse_cache: a coarse cache shorter than coarse_cache_bins bins leaves
 * the fine reading alone.  Bursts at cache speed for 40 s, then native
 * bursts: the binned reading decides the cache's end (within 3% of the
 * bytes written at cache speed); told to decide only from 50 bins, it
 * does not, and the answer is the fine reading's.
 */
static void test_coarse_cache_short(void **state)
{
	static struct slc_model_params p50;
	struct curve c;
	struct slc_phase_evidence ev, e50;
	struct slc_analysis a, f;
	double truth = bursts(&c, 40, 400, 35);

	(void)state;
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("a 40 s cache in bursts", &a);
	assert_non_null(strstr(a.model.explain, "the cache's end from the curve binned"));
	assert_true(a.has_cache);
	assert_near(a.cache_bytes / truth, 1, 0.03);
	slc_analysis_free(&a);

	slc_model_params_default(&p50);
	p50.coarse_cache_bins = 50;
	slc_phase_evidence_init(&e50);
	e50.params = &p50;
	fine_only(&ev);
	assert_int_equal(analyze(&a, &c, &e50), 0);
	assert_int_equal(analyze(&f, &c, &ev), 0);
	dump("the same, deciding from 50 bins", &a);
	assert_null(strstr(a.model.explain, "the cache's end from the curve binned"));
	assert_int_equal(a.has_cache, f.has_cache);
	if (a.has_cache) assert_near(a.cache_bytes, f.cache_bytes, 0);
	assert_false(a.has_cache && fabs(a.cache_bytes / truth - 1) <= 0.03);
	slc_analysis_free(&a);
	slc_analysis_free(&f);
	curve_free(&c);
}

/*
 * The bursts every @dt s: two samples of writing, three stalled, at
 * 180 MB/s for 110 s, then at 90 MB/s; 400 s in all.
 */
static void comb(struct curve *c, double dt, uint64_t seed)
{
	curve_new(c, (size_t)(400 / dt), dt);
	for (size_t i = 0; i < c->n; i++)
		c->v[i] = i % 5 < 2 ? (c->t[i] <= 110 ? 180e6 : 90e6) * (1 + 0.01 * gauss(&seed)) : 0;
}

/*
 * coarse_read: the curve is binned only when its samples are shorter than
 * half a bin (coarse_s, 1 s) and it spans coarse_min_bins (300) bins.
 * The 10 ms bursts of the test above over only 250 s are read as the fine
 * reading alone reads them, with no line of the binned curve's in the
 * reasons.  So are the bursts sampled every 0.5 s, while the very same
 * samples 0.49 s apart are binned, and the binned reading corrects the
 * cache the fine one misses (7.9 GB written at cache speed).
 */
static void test_coarse_read_gate(void **state)
{
	struct curve c;
	struct slc_phase_evidence ev;
	struct slc_analysis a, f;

	(void)state;
	fine_only(&ev);
	for (size_t k = 0; k < 2; k++) {
		if (k) comb(&c, 0.5, 34);
		else bursts(&c, 110, 250, 32);
		assert_int_equal(analyze(&a, &c, NULL), 0);
		assert_int_equal(analyze(&f, &c, &ev), 0);
		dump(k ? "bursts at 0.5 s" : "bursts over 250 s", &a);
		assert_null(strstr(a.model.explain, "binned"));
		assert_int_equal(a.has_cache, f.has_cache);
		assert_int_equal(a.n_phases, f.n_phases);
		if (a.has_cache) assert_near(a.cache_bytes, f.cache_bytes, 0);
		for (size_t i = 0; i < a.n_phases; i++) assert_int_equal(a.phases[i].kind, f.phases[i].kind);
		/* what a coarse reading would correct */
		assert_false(f.has_cache && fabs(f.cache_bytes / 7.92e9 - 1) < 0.1);
		slc_analysis_free(&a);
		slc_analysis_free(&f);
		curve_free(&c);
	}
	comb(&c, 0.49, 34);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("bursts at 0.49 s", &a);
	assert_non_null(strstr(a.model.explain, "binned"));
	assert_true(a.has_cache);
	assert_near(a.cache_bytes / bytes_before(&c, (size_t)(110 / 0.49)), 1, 0.03);
	slc_analysis_free(&a);
	curve_free(&c);
}

/*
 * A cache of 20 s at 2 GB/s, native writing at 500 MB/s, and from
 * @onset_s on garbage collection: the speed decays to @eb_frac of the
 * native level with a time constant of @tau_s s.  Sampled every 10 ms
 * with @cov noise; @total_s s in all.  Returns the bytes written before
 * the onset.
 */
static double decay(struct curve *c, double onset_s, double tau_s, double eb_frac, double total_s, double cov,
		    uint64_t seed)
{
	size_t n = (size_t)(total_s * 100 + 0.5), no = (size_t)(onset_s * 100 + 0.5);

	curve_new(c, n, 0.01);
	for (size_t i = 0; i < n; i++) {
		double ts = c->dt * (double)i, lv;

		if (i < 2000) lv = 2e9;
		else if (i < no) lv = 5e8;
		else lv = 5e8 * (eb_frac + (1 - eb_frac) * exp(-(ts - onset_s) / tau_s));
		c->v[i] = lv * (1 + cov * gauss(&seed));
	}
	return bytes_before(c, no);
}

/*
 * coarse_onset: where the binned curve finds an onset and reads the cache
 * as the fine one does, its bytes decide (the reasons say so).  A slow
 * decay from 200 s on (to 60% with a 20 s time constant) at 10 ms: a
 * decay has no sharp start, so the onset may lie up to half a time
 * constant into it (the speed 39% of the way down) and no more than two
 * bins before it; the same writing at 1 s within 3% of it.
 */
static void test_coarse_onset_decay(void **state)
{
	struct curve c, c1;
	struct slc_analysis a, s;
	double truth = decay(&c, 200, 20, 0.6, 500, 0.05, 41);

	(void)state;
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("decay, 10 ms", &a);
	assert_true(a.has_cache);
	assert_non_null(strstr(a.model.explain, "onset from the curve binned"));
	assert_true(isfinite(a.erase_bound_start_bytes));
	assert_true(a.erase_bound_start_bytes >= truth - 2 * 5e8);
	assert_true(a.erase_bound_start_bytes <= truth + 10 * 5e8);
	curve_bin(&c1, &c, 100);
	assert_int_equal(analyze(&s, &c1, NULL), 0);
	dump("decay, 1 s", &s);
	assert_true(isfinite(s.erase_bound_start_bytes));
	assert_near(s.erase_bound_start_bytes / a.erase_bound_start_bytes, 1, 0.03);
	slc_analysis_free(&a);
	slc_analysis_free(&s);
	curve_free(&c);
	curve_free(&c1);
}

/*
 * coarse_onset: where the binned curve shows no onset the fine one's
 * stands.  A small lasting step (10%) only 12 s before the end: the
 * same writing at 1 s shows no onset (12 samples after it are under the
 * 15 effectively independent ones an erase-bound phase holds), the fine
 * samples do, and the onset is theirs.  And a flat native level shows
 * none at either resolution.
 */
static void test_coarse_onset_none(void **state)
{
	struct curve c;
	struct slc_phase_evidence ev;
	struct slc_analysis a, f;
	double truth = decay(&c, 340, 0.01, 0.9, 352, 0.05, 42);

	(void)state;
	fine_only(&ev);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_int_equal(analyze(&f, &c, &ev), 0);
	dump("late small step, 10 ms", &a);
	dump("late small step, fine alone", &f);
	assert_null(strstr(a.model.explain, "onset from the curve binned"));
	assert_true(isfinite(a.erase_bound_start_bytes));
	assert_near(a.erase_bound_start_bytes, f.erase_bound_start_bytes, 0);
	/* the step is sharp: within a second's bytes */
	assert_near(a.erase_bound_start_bytes, truth, 5e8);
	{
		struct curve c1;
		struct slc_analysis s;

		curve_bin(&c1, &c, 100);
		assert_int_equal(analyze(&s, &c1, NULL), 0);
		dump("late small step, 1 s", &s);
		assert_true(isnan(s.erase_bound_start_bytes));
		slc_analysis_free(&s);
		curve_free(&c1);
	}
	slc_analysis_free(&a);
	slc_analysis_free(&f);
	curve_free(&c);

	decay(&c, 1e9, 1, 1, 400, 0.05, 43);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("flat native, 10 ms", &a);
	assert_true(a.has_cache);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_false(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	assert_null(strstr(a.model.explain, "onset from the curve binned"));
	slc_analysis_free(&a);
	curve_free(&c);
}

/* ---- the drive's counters: counter_onset, set_onset ---- */

/*
 * At 1 s: a cache of 20 s at 2 GB/s, native writing at 500 MB/s (3%
 * noise) for @n samples in all, the speed falling to @eb_frac of it from
 * @slow_s on; stalls (5% of the speed) for 3 s from each of @stall_s
 * (up to 2; 0: none).  Counters read every second: NAND bytes @wa0 per
 * host byte, @wa1 from @gc_s on.
 */
struct gc {
	struct curve c;
	double *ct, *ch, *cn;
	struct slc_phase_evidence ev;
};

static void gc_new(struct gc *g, size_t n, double slow_s, double eb_frac, const double *stall_s, double gc_s,
		   double wa0, double wa1, uint64_t seed)
{
	double host = 0, nand = 0;

	curve_new(&g->c, n, 1);
	g->ct = malloc(n * sizeof(double));
	g->ch = malloc(n * sizeof(double));
	g->cn = malloc(n * sizeof(double));
	assert_true(g->ct && g->ch && g->cn);
	for (size_t i = 0; i < n; i++) {
		double ts = (double)i, bps = i < 20 ? 2e9 : ts >= slow_s ? eb_frac * 5e8 : 5e8;

		for (size_t k = 0; stall_s && k < 2; k++)
			if (stall_s[k] > 0 && ts >= stall_s[k] && ts < stall_s[k] + 3) bps *= 0.05;
		g->c.v[i] = bps * (1 + 0.03 * gauss(&seed));
		host += g->c.v[i];
		nand += g->c.v[i] * (ts >= gc_s ? wa1 : wa0);
		g->ct[i] = g->c.t[i];
		g->ch[i] = host;
		g->cn[i] = nand;
	}
	slc_phase_evidence_init(&g->ev);
	g->ev.ctr_t_s = g->ct;
	g->ev.ctr_host = g->ch;
	g->ev.ctr_nand = g->cn;
	g->ev.n_ctr = n;
}

static void gc_free(struct gc *g)
{
	curve_free(&g->c);
	free(g->ct);
	free(g->ch);
	free(g->cn);
}

/* The bytes written in the sample holding byte @b of curve @c. */
static double sample_bytes_at(const struct curve *c, double b)
{
	double cum = 0;

	for (size_t i = 0; i < c->n; i++) {
		double s = c->v[i] * c->dt;
		if (cum + s >= b) return s;
		cum += s;
	}
	return 0;
}

/*
 * counter_read without an onset on the curve: the speed never changes,
 * the NAND bytes per host byte step from 1.0 to 1.5 at 600 s and the
 * bytes that adds (0.5 x 580 s x 500 MB/s) far exceed the cache's 40 GB.
 * The counters' step is a level boundary the model reads again, and its
 * reading has the onset there (within a sample's bytes: the counters are
 * read once a sample); the readings without it pay counter_cost, and the
 * reasons say so.  Without the counters there is none; with counter_cost
 * 0 the readings with and without it are a coin toss (the speed cannot
 * tell), so the term is what decides.
 */
static void test_counter_onset_flat_speed(void **state)
{
	struct gc g;
	struct slc_analysis a;
	double truth;

	(void)state;
	gc_new(&g, 1200, 1e9, 1, NULL, 600, 1.0, 1.5, 51);
	truth = bytes_before(&g.c, 600);
	assert_int_equal(analyze(&a, &g.c, NULL), 0);
	assert_true(isnan(a.erase_bound_start_bytes));
	slc_analysis_free(&a);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("flat speed, counters step at 600 s", &a);
	assert_true(a.has_cache);
	assert_near(a.erase_bound_start_bytes, truth, sample_bytes_at(&g.c, truth));
	assert_near(a.model.best.onset_bytes, truth, sample_bytes_at(&g.c, truth));
	assert_non_null(strstr(a.model.explain, "where the speed's reading had no onset: a level boundary there, "
						"read again"));
	assert_non_null(strstr(a.model.explain, "leaves it out (counter_cost -3.0)"));
	if (!(a.model.odds > 10)) fail_msg("odds %g", a.model.odds);
	/* the counters' placement after the model adds nothing */
	assert_null(strstr(a.model.explain, "onset from the drive's counters"));
	slc_analysis_free(&a);
	{
		struct slc_model_params mp;

		slc_model_params_default(&mp);
		mp.counter_cost = 0;
		g.ev.params = &mp;
		assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
		if (!(a.model.odds < 2)) fail_msg("odds %g:\n%s", a.model.odds, a.model.explain);
		slc_analysis_free(&a);
	}
	gc_free(&g);
}

/*
 * counter_read when garbage collection begins with a stall: the counters
 * step at 600 s inside a 3 s stall (599-602 s) in native writing whose
 * speed never changes.  The stall stays one phase, the onset is the first
 * level after it (the counters' boundary), and no placement after the
 * model moves it or says the speed put it anywhere.
 */
static void test_counter_onset_in_stall(void **state)
{
	static const double stall[] = { 599, 0 };
	struct gc g;
	struct slc_analysis a;
	size_t stalls = 0;
	double after;

	(void)state;
	gc_new(&g, 1200, 1e9, 1, stall, 600, 1.0, 1.5, 57);
	after = bytes_before(&g.c, 602);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("counters step inside a stall", &a);
	for (size_t q = 0; q < a.n_phases; q++) stalls += a.phases[q].kind == SLC_PHASE_STALL;
	assert_int_equal(stalls, 1);
	assert_near(a.erase_bound_start_bytes, after, sample_bytes_at(&g.c, after));
	assert_null(strstr(a.model.explain, "onset from the drive's counters"));
	assert_non_null(strstr(a.model.explain, "a level boundary there, read again"));
	slc_analysis_free(&a);
	gc_free(&g);
}

/*
 * counter_onset gives no onset without a lasting step: flat counters
 * (1.2 NAND bytes per host byte throughout), or a step whose added NAND
 * bytes (0.15 x 200 s x 500 MB/s, 15 GB) stay under the cache's 40 GB,
 * which folding the cache could write.  A step of 0.5 there adds 50 GB:
 * an onset.
 */
static void test_counter_onset_none(void **state)
{
	struct gc g;
	struct slc_analysis a;
	double truth;

	(void)state;
	gc_new(&g, 1200, 1e9, 1, NULL, 1e9, 1.2, 1.2, 52);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("flat counters", &a);
	assert_true(a.has_cache);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_false(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	assert_null(strstr(a.model.explain, "drive's counters"));
	slc_analysis_free(&a);
	gc_free(&g);

	gc_new(&g, 1200, 1e9, 1, NULL, 1000, 1.0, 1.15, 53);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("a step under the cache's bytes", &a);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_null(strstr(a.model.explain, "drive's counters"));
	slc_analysis_free(&a);
	gc_free(&g);

	gc_new(&g, 1200, 1e9, 1, NULL, 1000, 1.0, 1.5, 53);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("a step over the cache's bytes", &a);
	truth = bytes_before(&g.c, 1000);
	assert_near(a.erase_bound_start_bytes, truth, sample_bytes_at(&g.c, truth));
	slc_analysis_free(&a);
	gc_free(&g);
}

/*
 * counter_onset with an onset on the curve moves it only earlier, by more
 * than a sample: the speed falls to 70% at 640 s, the counters step at
 * 600 s (within counter_near, 20%, of it): the onset at the counters'
 * step.  The counters stepping at 680 s, after the speed's onset, leave
 * the speed's onset alone.
 */
static void test_counter_onset_earlier_only(void **state)
{
	struct gc g;
	struct slc_analysis a, s;
	double truth;

	(void)state;
	gc_new(&g, 1200, 640, 0.7, NULL, 600, 1.0, 1.5, 54);
	truth = bytes_before(&g.c, 600);
	assert_int_equal(analyze(&s, &g.c, NULL), 0);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("speed 640 s, counters 600 s", &a);
	assert_near(s.erase_bound_start_bytes, bytes_before(&g.c, 640), sample_bytes_at(&g.c, truth));
	assert_near(a.erase_bound_start_bytes, truth, sample_bytes_at(&g.c, truth));
	assert_non_null(strstr(a.model.explain, "the speed alone put it at"));
	slc_analysis_free(&a);
	slc_analysis_free(&s);
	gc_free(&g);

	gc_new(&g, 1200, 640, 0.7, NULL, 680, 1.0, 1.5, 55);
	assert_int_equal(analyze(&s, &g.c, NULL), 0);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("speed 640 s, counters 680 s", &a);
	assert_near(a.erase_bound_start_bytes, s.erase_bound_start_bytes, 0);
	assert_null(strstr(a.model.explain, "drive's counters"));
	slc_analysis_free(&a);
	slc_analysis_free(&s);
	gc_free(&g);
}

/*
 * counter_onset leaves out an onset a freshly trimmed drive cannot have
 * yet (slc__min_onset: half the capacity less the cache's extra flash):
 * a TLC drive of 2 TB, trimmed, has none at 330 GB; one of 500 GB can.
 */
static void test_counter_onset_trimmed(void **state)
{
	struct gc g;
	struct slc_analysis a;
	double truth;

	(void)state;
	gc_new(&g, 1200, 1e9, 1, NULL, 600, 1.0, 1.5, 56);
	truth = bytes_before(&g.c, 600);
	g.ev.cell = SLC_CELL_TLC;
	g.ev.state = SLC_STATE_TRIMMED;
	g.ev.capacity_bytes = 2e12;
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("trimmed 2 TB", &a);
	assert_true(isnan(a.erase_bound_start_bytes));
	slc_analysis_free(&a);
	g.ev.capacity_bytes = 5e11;
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("trimmed 500 GB", &a);
	assert_near(a.erase_bound_start_bytes, truth, sample_bytes_at(&g.c, truth));
	slc_analysis_free(&a);
	gc_free(&g);
}

/*
 * set_onset: native writing before the onset, erase-bound from it; the
 * cache and the drops keep their labels, and the block holding the onset
 * is split there.  Stalls at 300 s and at 800 s in native writing whose
 * speed never changes, the counters stepping at 600 s.
 */
static void test_set_onset_keeps_labels(void **state)
{
	static const double stalls[2] = { 300, 800 };
	struct gc g;
	struct slc_analysis a;
	double truth;
	size_t q, n_stall = 0;

	(void)state;
	gc_new(&g, 1200, 1e9, 1, stalls, 600, 1.0, 1.5, 57);
	truth = bytes_before(&g.c, 600);
	assert_int_equal(analyze(&a, &g.c, &g.ev), 0);
	dump("stalls around the counters' onset", &a);
	assert_true(a.n_phases >= 5);
	assert_int_equal(a.phases[0].kind, SLC_PHASE_SLC_CACHE);
	for (q = 0; q < a.n_phases; q++) {
		const struct slc_phase *p = a.phases + q;
		double mid = 0.5 * (p->start_s + p->end_s);

		if (p->kind == SLC_PHASE_STALL || p->kind == SLC_PHASE_THROTTLED) {
			n_stall++;
			assert_true(fabs(mid - 301.5) < 2 || fabs(mid - 801.5) < 2);
		} else if (p->kind != SLC_PHASE_SLC_CACHE) {
			/* each side of the onset one kind, whatever the stalls */
			assert_int_equal(p->kind, p->end_bytes <= truth + sample_bytes_at(&g.c, truth) ?
						  SLC_PHASE_DIRECT_TO_TLC : SLC_PHASE_ERASE_BOUND);
		}
	}
	assert_int_equal(n_stall, 2);
	assert_near(a.erase_bound_start_bytes, truth, sample_bytes_at(&g.c, truth));
	slc_analysis_free(&a);
	gc_free(&g);
}

/* ---- a cache too short for the sampling: short_cache ---- */

/*
 * At 1 s, a cache at 2 GB/s for @frac samples, then 500 MB/s (2% noise)
 * for 200 samples in all.  Returns the bytes written at cache speed.
 */
static double short_curve(struct curve *c, double frac, uint64_t seed)
{
	curve_new(c, 200, 1);
	for (size_t i = 0; i < c->n; i++) {
		double at = fmin(1, fmax(0, frac - (double)i));
		c->v[i] = (at * 2e9 + (1 - at) * 5e8) * (1 + (i < frac ? 0 : 0.02 * gauss(&seed)));
	}
	return frac * 2e9;
}

/*
 * Caches of 0.5, 1.5 and 2.5 samples: either a bound that holds the bytes
 * written at cache speed (at least the excess over the level after, at
 * most all the bytes of its samples, which are the first phase, a cache
 * one; fewer than bound_samples, 3, of them), or a cache phase whose size
 * is within the bytes of the sample its end falls in.
 */
static void test_short_cache_bound(void **state)
{
	static const double fr[] = { 0.5, 1.5, 2.5 };

	(void)state;
	for (size_t k = 0; k < 3; k++) {
		struct curve c;
		struct slc_analysis a;
		double truth = short_curve(&c, fr[k], 71 + k);
		char what[48];

		snprintf(what, sizeof(what), "a cache of %.1f samples", fr[k]);
		assert_int_equal(analyze(&a, &c, NULL), 0);
		dump(what, &a);
		assert_int_equal(a.phases[0].kind, SLC_PHASE_SLC_CACHE);
		if (a.model.cache_bound) {
			assert_false(a.has_cache);
			assert_non_null(strstr(a.model.explain, ": a cache too short to measure, its size only bounded (before: "));
			assert_true(a.model.cache_min_bytes <= truth);
			assert_true(truth <= a.model.cache_max_bytes);
			assert_true(a.model.cache_bound_samples >= 1 && a.model.cache_bound_samples < 3);
			assert_near(a.phases[0].end_bytes, a.model.cache_max_bytes, 1);
		} else {
			assert_true(a.has_cache);
			assert_near(a.cache_bytes, truth, c.v[(size_t)fr[k]] * c.dt);
		}
		/* the level after is never the cache */
		assert_true(a.phases[a.n_phases - 1].kind != SLC_PHASE_SLC_CACHE);
		slc_analysis_free(&a);
		curve_free(&c);
	}
}

/*
 * short_cache gives no bound where nothing is faster: a flat curve has
 * neither cache nor bound.  A burst under what a DRAM write buffer holds
 * is the buffer's, no cache: 1.25 GB on a 4 TB drive is over buffer_max
 * (1 GB, whatever the capacity) and stays a cache's bound; with buffer_max
 * raised to 2 GB it is under both that and buffer_frac of the capacity
 * (4 GB), and no cache.
 */
static void test_short_cache_none(void **state)
{
	static struct slc_model_params big;
	struct curve c;
	struct slc_analysis a;
	struct slc_phase_evidence ev;

	(void)state;
	short_curve(&c, 0, 65);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_false(a.has_cache);
	assert_false(a.model.cache_bound);
	assert_true(isnan(a.model.cache_min_bytes) && isnan(a.model.cache_max_bytes));
	assert_false(has_kind(&a, SLC_PHASE_SLC_CACHE));
	slc_analysis_free(&a);
	curve_free(&c);

	short_curve(&c, 0.5, 66);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_true(a.model.cache_bound);
	slc_analysis_free(&a);
	slc_phase_evidence_init(&ev);
	ev.capacity_bytes = 4e12;
	assert_int_equal(analyze(&a, &c, &ev), 0);
	dump("a 1.25 GB burst on a 4 TB drive", &a);
	assert_true(a.model.cache_bound);
	assert_true(a.model.cache_max_bytes >= 1.25e9 * 0.99);
	slc_analysis_free(&a);
	slc_model_params_default(&big);
	big.buffer_max = 2e9;
	ev.params = &big;
	assert_int_equal(analyze(&a, &c, &ev), 0);
	dump("the same, buffer_max 2 GB", &a);
	assert_false(a.model.cache_bound);
	assert_false(a.has_cache);
	assert_true(isnan(a.model.cache_max_bytes));
	slc_analysis_free(&a);
	curve_free(&c);
}

/*
 * A cache that ends inside the first sample is a bound, whatever the
 * noise of the native level after it (docs/analysis.md, "A cache too
 * short for the sampling"): no sample after the first is 15% above that
 * level, so no phase may take the second sample, at the native speed, for
 * cache.  Over ten noise realisations of a half-sample cache.
 */
static void test_short_cache_noise(void **state)
{
	(void)state;
	for (uint64_t seed = 58; seed < 68; seed++) {
		struct curve c;
		struct slc_analysis a;
		double truth = short_curve(&c, 0.5, seed);

		assert_int_equal(analyze(&a, &c, NULL), 0);
		if (!a.model.cache_bound) {
			dump("a half-sample cache", &a);
			fail_msg("seed %u: no bound", (unsigned)seed);
		}
		assert_false(a.has_cache);
		assert_true(a.model.cache_min_bytes <= truth && truth <= a.model.cache_max_bytes);
		slc_analysis_free(&a);
		curve_free(&c);
	}
}

/*
 * A cache that ended inside the first samples, when the segmentation
 * gives it no block of its own: the samples are made a level of their
 * own and the model reads them again.  Its reading has the cache; the
 * answer gives that cache as the bound the samples allow, and says so.
 * Over the half-sample caches of test_short_cache_noise.
 */
static void test_short_lead_read(void **state)
{
	unsigned reread = 0;

	(void)state;
	for (uint64_t seed = 58; seed < 68; seed++) {
		struct curve c;
		struct slc_analysis a;

		short_curve(&c, 0.5, seed);
		assert_int_equal(analyze(&a, &c, NULL), 0);
		assert_int_equal(a.model.best.tiers, 1);
		assert_true(a.model.cache_bound);
		assert_non_null(strstr(a.model.explain, "a cache that ended inside the first samples: a cache too short "
							"to measure, its size only bounded (before: up to "));
		assert_null(strstr(a.model.explain, "(before: none)"));
		reread += strstr(a.model.explain, "the first 1 sample, faster than the rest: a level of its own, "
						  "read again\n") != NULL;
		slc_analysis_free(&a);
		curve_free(&c);
	}
	/* the tenth seed's segmentation has the sample as a block already */
	assert_int_equal(reread, 9);
}

/*
 * Both: a cache inside the first sample, then native writing at 1 s with
 * a lasting step of 10% 400 samples on.  The first sample is made a level
 * of its own, then the step; the model reads both, and the reasons keep
 * the line for each.
 */
static void test_read_again_both(void **state)
{
	struct curve c;
	struct slc_analysis a;
	uint64_t seed = 95;

	(void)state;
	curve_new(&c, 800, 1);
	c.v[0] = 1.25e9;
	for (size_t i = 1; i < c.n; i++) c.v[i] = (i < 400 ? 5e8 : 4.5e8) * (1 + 0.02 * gauss(&seed));
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("a first-sample cache and a small step", &a);
	assert_non_null(strstr(a.model.explain, "the first 1 sample, faster than the rest: a level of its own, "
						"read again\n"));
	assert_non_null(strstr(a.model.explain, "a lasting step of 10% in the native writing at "));
	assert_int_equal(a.model.best.tiers, 1);
	assert_true(a.model.best.erase_bound);
	assert_true(a.model.cache_bound);
	assert_near(a.erase_bound_start_bytes / bytes_before(&c, 400), 1, 0.01);
	slc_analysis_free(&a);
	curve_free(&c);
}

/* ---- the headline figures ---- */

/*
 * At 1 s: levels lv[i] (bytes/s) for len[i] samples, 2% noise.
 */
static void steps(struct curve *c, const double *lv, const size_t *len, size_t k, uint64_t seed)
{
	size_t n = 0, m = 0;

	for (size_t i = 0; i < k; i++) n += len[i];
	curve_new(c, n, 1);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < len[i]; j++) c->v[m++] = lv[i] * (1 + 0.02 * gauss(&seed));
}

/* The headline figures as the phases give them: the cache's end is the
 * end of the last cache phase before the first native or erase-bound one,
 * its speed the mean of the first tier's first phase, the onset the start
 * of the first erase-bound phase. */
static void check_headline(const struct slc_analysis *a)
{
	size_t q = 0;
	double bps = NAN;
	const struct slc_phase *last = NULL;

	for (; q < a->n_phases; q++) {
		const struct slc_phase *p = a->phases + q;
		if (p->kind == SLC_PHASE_DIRECT_TO_TLC || p->kind == SLC_PHASE_ERASE_BOUND) break;
		if (p->kind != SLC_PHASE_SLC_CACHE) continue;
		last = p;
		if (p->tier == 1 && isnan(bps)) bps = p->mean_bps;
	}
	assert_non_null(last);
	assert_near(a->cache_bytes, last->end_bytes, 0);
	assert_near(a->cache_end_s, last->end_s, 0);
	assert_near(a->cache_bps, bps, 0);
	for (q = 0; q < a->n_phases && a->phases[q].kind != SLC_PHASE_ERASE_BOUND; q++)
		;
	if (q < a->n_phases) {
		assert_near(a->erase_bound_start_bytes, a->phases[q].start_bytes, 0);
		assert_near(a->erase_bound_start_s, a->phases[q].start_s, 0);
	} else {
		assert_true(isnan(a->erase_bound_start_bytes) && isnan(a->erase_bound_start_s));
	}
}

/*
 * Two cache tiers (3 GB/s for 30 s, 1.5 GB/s for 30 s), native writing at
 * 500 MB/s for 300 s, erase-bound at 300 MB/s for 300 s: the figures as
 * the phases give them, and those the curve's (the cache's end within a
 * sample of 135 GB, its speed the first tier's within 2%, the onset
 * within a sample of 285 GB).
 */
static void test_headline_tiers(void **state)
{
	static const double lv[] = { 3e9, 1.5e9, 5e8, 3e8 };
	static const size_t len[] = { 30, 30, 300, 300 };
	struct curve c;
	struct slc_analysis a;

	(void)state;
	steps(&c, lv, len, 4, 71);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("two tiers", &a);
	assert_true(a.has_cache);
	check_headline(&a);
	assert_near(a.cache_bytes, bytes_before(&c, 60), 1.5e9);
	assert_near(a.cache_end_s, 60, 1);
	assert_near(a.cache_bps / 3e9, 1, 0.02);
	assert_near(a.erase_bound_start_bytes, bytes_before(&c, 360), 5e8);
	slc_analysis_free(&a);
	curve_free(&c);
}

/*
 * A cache then erase-bound writing with no native phase (a drive written
 * over before): the onset is the cache's end.  A cache too short to
 * measure (a bound): no cache figures, though its samples are a cache
 * phase.  No cache at all: none.
 */
static void test_headline_edges(void **state)
{
	static const double lv[] = { 2e9, 3e8 }, flat[] = { 5e8 };
	static const size_t len[] = { 40, 600 }, flen[] = { 400 };
	struct curve c;
	struct slc_analysis a;
	struct slc_phase_evidence ev;

	(void)state;
	steps(&c, lv, len, 2, 72);
	slc_phase_evidence_init(&ev);
	ev.state = SLC_STATE_USED;
	/* the run's main curve: native writing at 500 MB/s, erase-bound at
	 * 300 MB/s */
	ev.ref_native_bps = 5e8;
	ev.ref_erase_bps = 3e8;
	ev.ref_cache_bps = 2e9;
	assert_int_equal(analyze(&a, &c, &ev), 0);
	dump("cache then erase-bound, used", &a);
	assert_true(a.has_cache);
	check_headline(&a);
	assert_true(has_kind(&a, SLC_PHASE_ERASE_BOUND));
	assert_false(has_kind(&a, SLC_PHASE_DIRECT_TO_TLC));
	assert_near(a.erase_bound_start_bytes, a.cache_bytes, 0);
	assert_near(a.erase_bound_start_s, a.cache_end_s, 0);
	slc_analysis_free(&a);
	curve_free(&c);

	short_curve(&c, 0.5, 71);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_true(a.model.cache_bound);
	assert_int_equal(a.phases[0].kind, SLC_PHASE_SLC_CACHE);
	assert_true(isnan(a.cache_bytes) && isnan(a.cache_bps) && isnan(a.cache_end_s));
	slc_analysis_free(&a);
	curve_free(&c);

	steps(&c, flat, flen, 1, 74);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_false(a.has_cache);
	assert_true(isnan(a.cache_bytes) && isnan(a.cache_bps) && isnan(a.cache_end_s));
	assert_true(isnan(a.erase_bound_start_bytes) && isnan(a.erase_bound_start_s));
	slc_analysis_free(&a);
	curve_free(&c);
}

/* ---- SNIA steady state: steady ---- */

/*
 * A cache (30 s), native writing at 500 MB/s to 300 s, then a flat
 * erase-bound tail at 300 MB/s for 600 s; nothing known of the drive, so
 * the search begins at the onset: steady state is reached there, five
 * rounds of 60 s at the tail's speed.  Written over before (state used),
 * the search begins at the cache's end.
 */
static void test_steady_flat_tail(void **state)
{
	static const double lv[] = { 2e9, 5e8, 3e8 };
	static const size_t len[] = { 30, 270, 600 };
	struct curve c;
	struct slc_analysis a;
	struct slc_phase_evidence ev;

	(void)state;
	steps(&c, lv, len, 3, 81);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("flat erase-bound tail", &a);
	assert_true(isfinite(a.erase_bound_start_s));
	assert_int_equal(a.steady.rule, SLC_STEADY_AFTER_ONSET);
	assert_near(a.steady.from_bytes, a.erase_bound_start_bytes, 0);
	assert_true(a.steady.reached);
	assert_true(a.steady.start_s >= a.erase_bound_start_s);
	assert_near(a.steady.end_s - a.steady.start_s, 300, 1e-9);
	assert_near(a.steady.avg_bps / 3e8, 1, 0.02);
	slc_analysis_free(&a);

	slc_phase_evidence_init(&ev);
	ev.state = SLC_STATE_USED;
	assert_int_equal(analyze(&a, &c, &ev), 0);
	assert_int_equal(a.steady.rule, SLC_STEADY_AFTER_CACHE);
	assert_near(a.steady.from_bytes, a.cache_bytes, 0);
	assert_true(a.steady.start_s >= a.cache_end_s);
	slc_analysis_free(&a);
	curve_free(&c);
}

/*
 * A tail still falling (erase-bound from 300 s, 450 -> 150 MB/s over
 * 600 s: a third of its speed every five rounds) is no steady state; a
 * flat native level on a fresh drive with no onset and no capacity is
 * not searched; with a capacity of 100 GB the search begins after twice
 * it is written.
 */
static void test_steady_not(void **state)
{
	static const double lv[] = { 2e9, 5e8 };
	static const size_t len[] = { 30, 870 };
	struct curve c;
	struct slc_analysis a;
	struct slc_phase_evidence ev;
	size_t i;

	(void)state;
	steps(&c, lv, len, 2, 82);
	for (i = 300; i < c.n; i++) c.v[i] *= 0.9 - 0.6 * (double)(i - 300) / 600;
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("falling tail", &a);
	assert_true(isfinite(a.erase_bound_start_s));
	assert_int_equal(a.steady.rule, SLC_STEADY_AFTER_ONSET);
	assert_false(a.steady.reached);
	assert_true(isnan(a.steady.start_s));
	slc_analysis_free(&a);
	curve_free(&c);

	steps(&c, lv, len, 2, 83);
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_true(isnan(a.erase_bound_start_s));
	assert_int_equal(a.steady.rule, SLC_STEADY_NOT_SEARCHED);
	assert_false(a.steady.reached);
	assert_true(isnan(a.steady.from_bytes));
	slc_analysis_free(&a);
	slc_phase_evidence_init(&ev);
	ev.capacity_bytes = 1e11;
	assert_int_equal(analyze(&a, &c, &ev), 0);
	assert_int_equal(a.steady.rule, SLC_STEADY_AFTER_PRECONDITION);
	assert_near(a.steady.from_bytes, 2e11, 0);
	assert_true(a.steady.reached);
	for (i = 0; i < c.n && bytes_before(&c, i + 1) < 2e11; i++)
		;
	assert_true(a.steady.start_s >= c.t[i] - c.dt);
	slc_analysis_free(&a);
	curve_free(&c);
}

/* ---- the answer stated: place() and journal() ---- */

/*
 * A cache of 20.5 samples at 2 GB/s, then 500 MB/s: the model's levels end
 * at a sample's edge, the answer shares the sample the end falls in by its
 * bytes; the model's reading keeps its figure, and the reasons say where
 * the end moved.
 */
static void test_placement_stated(void **state)
{
	struct curve c;
	struct slc_analysis a;
	double truth = short_curve(&c, 20.5, 81);

	(void)state;
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("a cache of 20.5 samples", &a);
	assert_true(a.has_cache);
	/* the levels end after sample 20, the answer within its bytes */
	assert_non_null(strstr(a.model.explain, "reading: a cache of 40 GB in 1 tier"));
	assert_true(a.cache_bytes > bytes_before(&c, 20) && a.cache_bytes < bytes_before(&c, 21));
	assert_near(a.cache_bytes, truth, 0.1e9);
	assert_near(a.model.best.cache_bytes, bytes_before(&c, 20), 1);
	assert_non_null(strstr(a.model.explain,
			       "the boundaries to sub-sample precision: the cache's end at 41 GB written (before: 40 GB)\n"));
	slc_analysis_free(&a);
	curve_free(&c);
}

/*
 * A lasting step of 10% in native writing sampled every 100 ms, with 10%
 * noise (a QLC drive's first garbage collection): the levels, 12% apart
 * before they are two, hold it as one; the samples show it lasting, so the
 * levels are made again with the step between two of them and the model
 * reads the onset there itself.  No pass after it adds the phase.
 */
static void test_small_step_read(void **state)
{
	struct curve c;
	struct slc_analysis a;
	uint64_t seed = 91;

	(void)state;
	curve_new(&c, 6000, 0.1);
	for (size_t i = 0; i < c.n; i++)
		c.v[i] = (i < 200 ? 2e9 : i < 3000 ? 5e8 : 4.5e8) * (1 + 0.1 * gauss(&seed));
	assert_int_equal(analyze(&a, &c, NULL), 0);
	dump("a small step", &a);
	assert_non_null(strstr(a.model.explain, "a lasting step of 10% in the native writing at 180.1 GB written: "
						"two levels, read again\n"));
	/* the model's reading has it, and the reading without it was
	 * weighed: the jump inside one phase is what it costs */
	assert_ptr_equal(strstr(a.model.explain, "reading: "),
			 strstr(a.model.explain, "reading: a cache of 40 GB in 1 tier, then native, erase-bound from "
						 "180 GB\n"));
	assert_true(a.model.best.erase_bound);
	assert_near(a.model.best.onset_bytes / bytes_before(&c, 3000), 1, 0.01);
	assert_null(strstr(a.model.explain, "(before: no such phase)"));
	assert_near(a.erase_bound_start_bytes / bytes_before(&c, 3000), 1, 0.01);
	slc_analysis_free(&a);
	curve_free(&c);

	/* the same without a cache: the native writing from the first sample */
	seed = 93;
	curve_new(&c, 6000, 0.1);
	for (size_t i = 0; i < c.n; i++) c.v[i] = (i < 3000 ? 5e8 : 4.5e8) * (1 + 0.1 * gauss(&seed));
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_non_null(strstr(a.model.explain, "a lasting step of 10% in the native writing at 149.8 GB written"));
	assert_true(a.model.best.erase_bound);
	assert_near(a.erase_bound_start_bytes / bytes_before(&c, 3000), 1, 0.01);
	slc_analysis_free(&a);
	curve_free(&c);

	/* a step of 3%, under step_small: one level, no onset */
	seed = 92;
	curve_new(&c, 6000, 0.1);
	for (size_t i = 0; i < c.n; i++)
		c.v[i] = (i < 200 ? 2e9 : i < 3000 ? 5e8 : 4.85e8) * (1 + 0.1 * gauss(&seed));
	assert_int_equal(analyze(&a, &c, NULL), 0);
	assert_null(strstr(a.model.explain, "a lasting step of"));
	assert_false(a.model.best.erase_bound);
	assert_false(isfinite(a.erase_bound_start_bytes));
	slc_analysis_free(&a);
	curve_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coarse_cache_bursts),
		cmocka_unit_test(test_coarse_cache_short),
		cmocka_unit_test(test_coarse_read_gate),
		cmocka_unit_test(test_coarse_onset_decay),
		cmocka_unit_test(test_coarse_onset_none),
		cmocka_unit_test(test_counter_onset_flat_speed),
		cmocka_unit_test(test_counter_onset_in_stall),
		cmocka_unit_test(test_counter_onset_none),
		cmocka_unit_test(test_counter_onset_earlier_only),
		cmocka_unit_test(test_counter_onset_trimmed),
		cmocka_unit_test(test_set_onset_keeps_labels),
		cmocka_unit_test(test_short_cache_bound),
		cmocka_unit_test(test_short_cache_none),
		cmocka_unit_test(test_short_cache_noise),
		cmocka_unit_test(test_short_lead_read),
		cmocka_unit_test(test_read_again_both),
		cmocka_unit_test(test_headline_tiers),
		cmocka_unit_test(test_headline_edges),
		cmocka_unit_test(test_steady_flat_tail),
		cmocka_unit_test(test_steady_not),
		cmocka_unit_test(test_placement_stated),
		cmocka_unit_test(test_small_step_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
