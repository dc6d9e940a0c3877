// SPDX-License-Identifier: MIT
/*
 * Unit tests of each stage of the phase model (analysis/phases/), on small
 * hand-built curves: the segmentation, the consolidation rules, the
 * groups, the model's choice, the onset refinements, the byte balance at a
 * boundary, the phases and the helpers they share.  Each curve is what a
 * drive writes in a simple case (a cache then native writing, a stall, an
 * erase-bound step or decay) and each assertion what the stage must make
 * of it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "phases_priv.h"

#include "test_curves.h"

/* ---- curves ---- */


/* Levels lv[i] for len[i] samples each, with Gaussian noise of @cov times
 * the level; written into @x (room for the sum of len); returns the count. */
static size_t levels(double *x, const double *lv, const size_t *len, size_t k, double cov, uint64_t seed)
{
	size_t m = 0;

	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < len[i]; j++) x[m++] = lv[i] * (1 + cov * gauss(&seed));
	return m;
}

/*
 * The trace the analysis itself loads (slc__load_trace) from samples at the
 * speeds v[0..n) lasting dts[i] seconds (NULL: @dt0 each; bytes = v dt,
 * interval_s given).  @pause (NULL: none) holds the host's idle seconds
 * before each sample: t_s jumps over them.  Fields the stages set later
 * (dip_prob) or that have defaults when zero (mp) stay zeroed.
 */
struct tbuf {
	struct trace tr;
	double *t;
};

static void tb_init_dt(struct tbuf *x, const double *v, size_t n, const double *dts, double dt0,
		       const double *pause)
{
	double *dt = malloc(n * sizeof(double)), *bytes = malloc(n * sizeof(double));
	struct slc_trace_in in = { 0 };

	memset(x, 0, sizeof(*x));
	x->t = malloc(n * sizeof(double));
	assert_true(x->t && dt && bytes);
	for (size_t i = 0; i < n; i++) {
		dt[i] = dts ? dts[i] : dt0;
		bytes[i] = v[i] * dt[i];
		x->t[i] = (i ? x->t[i - 1] : 0) + (pause ? pause[i] : 0) + dt[i];
	}
	in.t_s = x->t;
	in.interval_s = dt;
	in.bytes = bytes;
	in.n = n;
	assert_int_equal(slc__load_trace(&x->tr, &in), 0);
	free(dt);
	free(bytes);
}

/* ... every interval @dt seconds long */
static void tb_init(struct tbuf *x, const double *v, size_t n, double dt, const double *pause)
{
	tb_init_dt(x, v, n, NULL, dt, pause);
}

static void tb_free(struct tbuf *x)
{
	free(x->t);
	slc__free_trace(&x->tr);
}

/* Blocks ending at ends[0..nb) (the first starting at 0), all zeroed
 * otherwise; @b has room for more. */
static size_t mkblocks(struct block *b, const size_t *ends, size_t nb)
{
	size_t start = 0;

	for (size_t j = 0; j < nb; j++) {
		memset(b + j, 0, sizeof(*b));
		b[j].i0 = start;
		b[j].i1 = start = ends[j];
	}
	return nb;
}

/* Everything one stage test needs: a curve of up to NMAX samples, its
 * trace, blocks and groups with room to split, scratch space. */
#define NMAX 600
#define BMAX 32
struct fx {
	double v[NMAX], tmp[NMAX], x[NMAX];
	size_t n, nb;
	struct tbuf tb;
	struct block b[BMAX];
	struct group g[BMAX];
};

static struct fx *fx_new(const double *lv, const size_t *len, size_t k, double cov, uint64_t seed)
{
	struct fx *f = calloc(1, sizeof(*f));
	size_t tot = 0;

	assert_non_null(f);
	for (size_t i = 0; i < k; i++) tot += len[i];
	assert_true(tot <= NMAX);
	f->n = levels(f->v, lv, len, k, cov, seed);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	return f;
}

/* Blocks at the levels' own edges. */
static void fx_blocks_at_levels(struct fx *f, const size_t *len, size_t k)
{
	size_t ends[BMAX], e = 0;

	for (size_t i = 0; i < k; i++) ends[i] = e += len[i];
	f->nb = mkblocks(f->b, ends, k);
}

static void fx_free(struct fx *f)
{
	tb_free(&f->tb);
	free(f);
}

/* The first main block of kind @kind, or nb. */
static size_t first_of_kind(const struct block *b, size_t nb, int kind)
{
	for (size_t j = 0; j < nb; j++)
		if (!b[j].dip && b[j].kind == kind) return j;
	return nb;
}

/* Blocks tile the samples: contiguous from 0 to n. */
static void assert_tiles(const struct block *b, size_t nb, size_t n)
{
	assert_true(nb > 0);
	assert_int_equal(b[0].i0, 0);
	for (size_t j = 0; j + 1 < nb; j++) {
		assert_int_equal(b[j].i1, b[j + 1].i0);
		assert_true(b[j].i0 < b[j].i1);
	}
	assert_int_equal(b[nb - 1].i1, n);
}

static size_t absdiff(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

/* ---- change-point segmentation ---- */

/* A cache at 100 running into native writing at 60: one change, at the
 * sample where the speed fell. */
static void test_cp_step_found(void **state)
{
	double x[240];
	size_t len[] = { 120, 120 }, ends[240], ne = 0;
	double lv[] = { 100, 60 };
	struct slc_cpd_info info;

	(void)state;
	levels(x, lv, len, 2, 0.02, 11);
	assert_int_equal(slc_changepoints(ends, 240, &ne, &info, x, 240, NULL), 0);
	assert_int_equal(ne, 2);
	assert_true(absdiff(ends[0], 120) <= 1);
	assert_int_equal(ends[1], 240);
	assert_int_equal(info.n_changes, 1);
}

/* A flat noisy native level: no change point (noise is not a phase). */
static void test_cp_flat_none(void **state)
{
	double x[300], lv[] = { 300 };
	size_t len[] = { 300 }, ends[300], ne = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		levels(x, lv, len, 1, 0.05, seed);
		assert_int_equal(slc_changepoints(ends, 300, &ne, NULL, x, 300, NULL), 0);
		assert_int_equal(ne, 1);
		assert_int_equal(ends[0], 300);
	}
}

/* The penalty is in units of the noise: the same per change (3 ln n,
 * MBIC) whatever the noise, the noise scale estimated grows with the
 * noise, so a 5% step that is plain in quiet writing is none in writing
 * that wanders by 20%. */
static void test_cp_penalty_scales_with_noise(void **state)
{
	double x[300], lv[] = { 100, 95 };
	size_t len[] = { 150, 150 }, ends[300], ne = 0;
	struct slc_cpd_info quiet, loud;

	(void)state;
	levels(x, lv, len, 2, 0.005, 4);
	assert_int_equal(slc_changepoints(ends, 300, &ne, &quiet, x, 300, NULL), 0);
	assert_int_equal(ne, 2);
	assert_true(absdiff(ends[0], 150) <= 1);
	levels(x, lv, len, 2, 0.2, 4);
	assert_int_equal(slc_changepoints(ends, 300, &ne, &loud, x, 300, NULL), 0);
	assert_int_equal(ne, 1);
	assert_near(quiet.penalty, 3 * log(300.0), 1e-9);
	assert_near(loud.penalty, quiet.penalty, 1e-9);
	/* in the data's units (penalty x sigma^2) it grows with the noise */
	assert_true(loud.sigma > 20 * quiet.sigma);
	assert_true(loud.penalty * loud.sigma * loud.sigma > 400 * quiet.penalty * quiet.sigma * quiet.sigma);
}

/* ---- util.c: levels, quantiles, splits ---- */

/* A host pause inside a stretch is not the drive's time: the level of
 * samples at 100 B/s stays 100 with a 50 s pause among them, and the
 * time covered leaves the pause out, also when a span starts or ends
 * inside it. */
static void test_util_level_covered_pause(void **state)
{
	double v[100], pause[100] = { 0 };
	struct tbuf tb;

	(void)state;
	for (size_t i = 0; i < 100; i++) v[i] = 100;
	pause[40] = 50;		/* sample 40 ends at 40 + 50 + 1 = 91 s */
	tb_init(&tb, v, 100, 1.0, pause);
	assert_near(tb.tr.t[39], 40, 1e-12);
	assert_near(slc__t_start(&tb.tr, 40), 90, 1e-12);
	assert_near(slc__level(&tb.tr, 0, 100), 100, 1e-9);
	assert_near(slc__level(&tb.tr, 30, 50), 100, 1e-9);
	/* [0, 150] holds 50 s of pause */
	assert_near(slc__covered(&tb.tr, 0, 150), 100, 1e-9);
	/* [60, 95]: 30 s of the pause (60..90) are not covered */
	assert_near(slc__covered(&tb.tr, 60, 95), 5, 1e-9);
	/* a span without the pause is all covered */
	assert_near(slc__covered(&tb.tr, 95, 120), 25, 1e-9);
	{
		struct block bl = { .i0 = 30, .i1 = 50 };
		assert_near(slc__bdur(&tb.tr, &bl), 20, 1e-9);
	}
	tb_free(&tb);
}

/* Quantiles over two ranges of samples read the samples (in any order)
 * and leave the trace as it was. */
static void test_util_sample_quantile(void **state)
{
	double v[20], tmp[20];
	struct tbuf tb;

	(void)state;
	for (size_t i = 0; i < 20; i++) v[i] = (double)((i * 7) % 20);	/* 0..19 shuffled */
	tb_init(&tb, v, 20, 1.0, NULL);
	assert_near(slc__sample_quantile(&tb.tr, 0, 20, 0, 0, 0.5, tmp), 9.5, 1e-12);
	assert_near(slc__sample_quantile(&tb.tr, 0, 20, 0, 0, 0.0, tmp), 0, 1e-12);
	assert_near(slc__sample_quantile(&tb.tr, 0, 20, 0, 0, 1.0, tmp), 19, 1e-12);
	/* [0, 3) and [17, 20): 0, 7, 14 and 19, 6, 13 */
	assert_near(slc__sample_quantile(&tb.tr, 0, 3, 17, 20, 0.5, tmp), 10, 1e-12);
	for (size_t i = 0; i < 20; i++) assert_near(tb.tr.v[i], v[i], 0);
	tb_free(&tb);
}

/* The two-level fit splits at the step; none when a side would be
 * shorter than asked.  The autocorrelation time of independent noise is
 * about 1, of a slow AR(1) wander (rho 0.9) near (1 + rho) / (1 - rho). */
static void test_util_split_and_tau(void **state)
{
	double x[400];
	uint64_t r = 5;

	(void)state;
	for (size_t i = 0; i < 100; i++) x[i] = (i < 37 ? 10 : 7) + 0.3 * gauss(&r);
	assert_int_equal(slc__best_split(x, 100, 10), 37);
	assert_int_equal(slc__best_split_in(x, 100, 50, 90), 50);
	assert_int_equal(slc__best_split(x, 100, 51), 0);
	assert_true(slc__split_t(&slc__model_defaults, x, 100, 37, 20) > 20);
	for (size_t i = 0; i < 400; i++) x[i] = gauss(&r);
	assert_true(slc__series_tau(&slc__model_defaults, x, 400, 100) < 1.6);
	x[0] = gauss(&r);
	for (size_t i = 1; i < 400; i++) x[i] = 0.9 * x[i - 1] + sqrt(1 - 0.81) * gauss(&r);
	{
		double tau = slc__series_tau(&slc__model_defaults, x, 400, 100);
		assert_true(tau > 6 && tau < 40);
	}
	/* batch means need 8 batches of n^(2/3): none under 512 samples;
	 * independent noise gets no credit below 1 */
	assert_true(isinf(slc__batch_tau(x, 400)));
	{
		double y[600];

		for (size_t i = 0; i < 600; i++) y[i] = gauss(&r);
		assert_true(slc__batch_tau(y, 600) >= 1 && slc__batch_tau(y, 600) < 3);
		/* a wander slower than a batch inflates it */
		for (size_t i = 0; i < 600; i++) y[i] += (i / 150) % 2 ? 2 : -2;
		assert_true(slc__batch_tau(y, 600) > 10);
	}
	/* all four quarters on their side of a midpoint */
	for (size_t i = 0; i < 100; i++) x[i] = 10 + (i % 2 ? 0.5 : -0.5);
	assert_true(slc__quarters_on_side(x, 100, 9, 1));
	assert_false(slc__quarters_on_side(x, 100, 9, -1));
	x[80] = x[81] = x[82] = x[83] = -100;	/* the last quarter falls below */
	assert_false(slc__quarters_on_side(x, 100, 9, 1));
}

/* Welch's t: two blocks at one level are not different, two levels ten
 * noise units apart are. */
static void test_util_welch_reldiff(void **state)
{
	double lv[] = { 100, 100, 90 };
	size_t len[] = { 50, 50, 50 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 21);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	assert_true(slc__welch_t(&f->tb.tr, f->b, f->b + 1) < slc__model_defaults.t_same);
	assert_true(slc__welch_t(&f->tb.tr, f->b + 1, f->b + 2) > 10 * slc__model_defaults.t_same);
	assert_near(slc__reldiff(100, 80), 0.2, 1e-12);
	assert_near(slc__reldiff(80, 100), 0.2, 1e-12);
	assert_near(slc__reldiff(0, 0), 0, 0);
	fx_free(f);
}

/* Splitting a block and merging it back leave the blocks as they were;
 * erase_bound_from labels the main blocks from a sample on, splitting the
 * one holding it, and leaves drops alone. */
static void test_util_split_merge_erase_from(void **state)
{
	struct block b[8];
	size_t ends[] = { 100, 103, 300 }, nb = mkblocks(b, ends, 3), je;

	(void)state;
	b[1].dip = 1;
	b[1].kind = SLC_PHASE_STALL;
	b[0].kind = b[2].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__split_block(b, &nb, 8, 2, 200);
	assert_int_equal(nb, 4);
	assert_tiles(b, nb, 300);
	assert_int_equal(b[2].i1, 200);
	slc__merge_range(b, &nb, 2, 3);
	assert_int_equal(nb, 3);
	assert_tiles(b, nb, 300);
	assert_int_equal(b[2].i0, 103);

	je = slc__erase_bound_from(b, &nb, 8, 0, nb, 50);
	assert_int_equal(nb, 4);
	assert_int_equal(je, 4);
	assert_tiles(b, nb, 300);
	assert_int_equal(b[0].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_int_equal(b[0].i1, 50);
	assert_int_equal(b[1].kind, SLC_PHASE_ERASE_BOUND);
	assert_int_equal(b[2].kind, SLC_PHASE_STALL);	/* the drop keeps its label */
	assert_int_equal(b[3].kind, SLC_PHASE_ERASE_BOUND);
}

/* ---- dip_prob ---- */

/* Steady writing, or writing whose drops last two samples, has no
 * isolated single-sample dips. */
static void test_dip_prob_none(void **state)
{
	double v[300];
	struct tbuf tb;
	uint64_t r = 9;

	(void)state;
	for (size_t i = 0; i < 300; i++) v[i] = 100 * (1 + 0.02 * gauss(&r));
	tb_init(&tb, v, 300, 1.0, NULL);
	assert_near(slc__dip_prob(&tb.tr), 0, 0);
	tb_free(&tb);
	for (size_t i = 20; i + 1 < 300; i += 40) v[i] = v[i + 1] = 30;
	tb_init(&tb, v, 300, 1.0, NULL);
	assert_near(slc__dip_prob(&tb.tr), 0, 0);
	tb_free(&tb);
}

/* Isolated dips at a rate d give the per-sample probability p with
 * p (1 - p)^2 = d; a comb whose teeth strike every third sample is at the
 * ceiling of 1/3. */
static void test_dip_prob_rate(void **state)
{
	double v[300], p;
	struct tbuf tb;

	(void)state;
	for (size_t i = 0; i < 300; i++) v[i] = 100;
	for (size_t i = 25; i < 300; i += 50) v[i] = 40;	/* 6 dips */
	tb_init(&tb, v, 300, 1.0, NULL);
	p = slc__dip_prob(&tb.tr);
	assert_true(p > 0 && p < 1.0 / 3);
	assert_near(p * (1 - p) * (1 - p), 6.0 / 300, 1e-6);
	tb_free(&tb);
	for (size_t i = 0; i < 300; i++) v[i] = i % 3 == 2 ? 40 : 100;
	tb_init(&tb, v, 300, 1.0, NULL);
	assert_near(slc__dip_prob(&tb.tr), 1.0 / 3, 1e-12);
	tb_free(&tb);
}

/* ---- split_lead ---- */

/* A 3-sample cache the segmentation put into one block with the first 7
 * native samples is split off; the tail stays a block of its own. */
static void test_split_lead_long_tail(void **state)
{
	double lv[] = { 1000, 300, 300 };
	size_t len[] = { 3, 7, 200 }, ends[] = { 10, 210 };
	struct fx *f = fx_new(lv, len, 3, 0.02, 31);

	(void)state;
	f->nb = mkblocks(f->b, ends, 2);
	slc__split_lead(&f->tb.tr, f->b, &f->nb, BMAX);
	assert_int_equal(f->nb, 3);
	assert_tiles(f->b, f->nb, 210);
	assert_int_equal(f->b[0].i1, 3);
	assert_int_equal(f->b[1].i1, 10);
	fx_free(f);
}

/* With a tail of one or two samples (the straddler), the tail joins the
 * next block; a first block at the next one's level, or longer than a
 * short cache can hide in, stays as it is. */
static void test_split_lead_short_tail_and_none(void **state)
{
	double lv[] = { 1000, 300 }, flat[] = { 300 };
	size_t len[] = { 3, 202 }, ends[] = { 5, 205 }, lenf[] = { 205 }, endl[] = { 17, 205 };
	struct fx *f = fx_new(lv, len, 2, 0.02, 32);

	(void)state;
	f->nb = mkblocks(f->b, ends, 2);
	slc__split_lead(&f->tb.tr, f->b, &f->nb, BMAX);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[0].i1, 3);
	assert_int_equal(f->b[1].i0, 3);
	assert_int_equal(f->b[1].i1, 205);
	fx_free(f);

	f = fx_new(flat, lenf, 1, 0.02, 33);
	f->nb = mkblocks(f->b, ends, 2);
	slc__split_lead(&f->tb.tr, f->b, &f->nb, BMAX);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[0].i1, 5);
	fx_free(f);

	/* 3 cache samples, but a first block of 17 (over 2 x MIN_LEAD_SPLIT) */
	f = fx_new(lv, len, 2, 0.02, 34);
	f->nb = mkblocks(f->b, endl, 2);
	slc__split_lead(&f->tb.tr, f->b, &f->nb, BMAX);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[0].i1, 17);
	fx_free(f);
}

/* ---- merge_same (rule 1) ---- */

/* Two blocks 4% apart (within slc__model_defaults.delta_same) are one level. */
static void test_merge_same_close(void **state)
{
	double lv[] = { 100, 104 };
	size_t len[] = { 100, 100 };
	struct fx *f = fx_new(lv, len, 2, 0.01, 41);

	(void)state;
	fx_blocks_at_levels(f, len, 2);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 1);
	assert_int_equal(f->nb, 1);
	assert_tiles(f->b, f->nb, 200);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 0);
	fx_free(f);
}

/* Two levels 40% apart stay apart; 20% apart in writing that swings by
 * 60 either way sample to sample they are not significantly different
 * (Welch t under 1) and merge. */
static void test_merge_same_distinct_vs_noise(void **state)
{
	double lv[] = { 100, 60 }, lv2[] = { 100, 80 };
	size_t len[] = { 100, 100 }, len2[] = { 10, 10 };
	struct fx *f = fx_new(lv, len, 2, 0.02, 42);
	double v[20];

	(void)state;
	fx_blocks_at_levels(f, len, 2);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 0);
	assert_int_equal(f->nb, 2);
	fx_free(f);

	f = fx_new(lv2, len2, 2, 0, 43);
	for (size_t i = 0; i < 20; i++) v[i] = lv2[i / 10] + (i % 2 ? 60 : -60);
	tb_free(&f->tb);
	tb_init(&f->tb, v, 20, 1.0, NULL);
	fx_blocks_at_levels(f, len2, 2);
	assert_true(slc__reldiff(slc__blevel(&f->tb.tr, f->b), slc__blevel(&f->tb.tr, f->b + 1)) >= slc__model_defaults.delta_same);
	assert_true(slc__welch_t(&f->tb.tr, f->b, f->b + 1) < slc__model_defaults.t_same);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 1);
	assert_int_equal(f->nb, 1);
	fx_free(f);
}

/* The closest pair merges first, and a kept drop is never merged across. */
static void test_merge_same_closest_first_and_dips(void **state)
{
	double lv[] = { 100, 95, 60, 58 }, lv2[] = { 100, 30, 100 };
	size_t len[] = { 80, 80, 80, 80 }, len2[] = { 100, 3, 100 };
	struct fx *f = fx_new(lv, len, 4, 0.005, 44);

	(void)state;
	fx_blocks_at_levels(f, len, 4);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 1);
	assert_int_equal(f->nb, 3);
	assert_int_equal(f->b[1].i1, 160);
	assert_int_equal(f->b[2].i0, 160);
	assert_int_equal(f->b[2].i1, 320);
	fx_free(f);

	f = fx_new(lv2, len2, 3, 0.01, 45);
	fx_blocks_at_levels(f, len2, 3);
	f->b[1].dip = 1;
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 0);
	assert_int_equal(f->nb, 3);
	fx_free(f);
}

/* ---- merge_transient (rules 2-4) ---- */

/* Rule 2: a two-sample ramp between a fast and a slow level joins the
 * level it is closer to. */
static void test_merge_transient_ramp(void **state)
{
	double lv[] = { 100, 55, 40 };
	size_t len[] = { 100, 2, 100 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 51);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 2);
	assert_tiles(f->b, f->nb, 202);
	assert_int_equal(f->b[0].i1, 100);
	fx_free(f);
}

/* Rule 2 over several blocks: a ramp cut into three (800, 600, 400
 * between 1000 and 300): each part joins the level it is closer to. */
static void test_merge_transient_long_ramp(void **state)
{
	double lv[] = { 1000, 800, 600, 400, 300 };
	size_t len[] = { 100, 2, 2, 2, 100 };
	struct fx *f = fx_new(lv, len, 5, 0.005, 50);

	(void)state;
	fx_blocks_at_levels(f, len, 5);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 2);
	assert_tiles(f->b, f->nb, 206);
	assert_int_equal(f->b[0].i1, 102);
	fx_free(f);
}

/* Rule 3: a short burst inside one level is absorbed into it; one back
 * at the cache's speed inside the native writing after a cache is kept
 * for the model to read as the cache back. */
static void test_merge_transient_burst(void **state)
{
	double lv[] = { 100, 150, 100 }, lv2[] = { 1000, 300, 1000, 300 };
	size_t len[] = { 100, 3, 100 }, len2[] = { 30, 150, 5, 150 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 52);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 1);
	assert_tiles(f->b, f->nb, 203);
	fx_free(f);

	f = fx_new(lv2, len2, 4, 0.01, 58);
	fx_blocks_at_levels(f, len2, 4);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 0);
	assert_int_equal(f->nb, 4);
	assert_int_equal(f->b[2].i0, 180);
	assert_int_equal(f->b[2].i1, 185);
	fx_free(f);
}

/* A cache of 100 samples, 150 of native writing, 5 back at the cache's
 * speed, 150 native: the native writing is no drop inside the cache. */
static void test_merge_transient_native_before_cache_back(void **state)
{
	double lv[] = { 1000, 300, 1000, 300 };
	size_t len[] = { 100, 150, 5, 150 };
	struct fx *f;

	(void)state;
	f = fx_new(lv, len, 4, 0.01, 58);
	fx_blocks_at_levels(f, len, 4);
	while (slc__merge_same(&f->tb.tr, f->b, &f->nb) || slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp))
		;
	assert_int_equal(f->b[0].i1, 100);
	assert_true(slc__blevel(&f->tb.tr, f->b) > 900);
	fx_free(f);
}

/* Rule 4 between two levels: a shallow drop right after a cache (at 83%
 * of the native speed) is the native level's slow start and joins it; a
 * stall at 40% of it is a drop of its own, kept. */
static void test_merge_transient_edge_drop(void **state)
{
	double lv[] = { 1000, 250, 300 }, lv2[] = { 1000, 120, 300 };
	size_t len[] = { 100, 5, 200 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 59);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[0].i1, 100);
	assert_false(f->b[1].dip);
	fx_free(f);

	f = fx_new(lv2, len, 3, 0.01, 60);
	fx_blocks_at_levels(f, len, 3);
	f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 3);
	assert_true(f->b[1].dip);
	assert_int_equal(f->b[1].kind, SLC_PHASE_STALL);
	fx_free(f);
}

/* Rule 4: a 3-sample stall to 30% inside steady writing, which the
 * trace's noise and dips cannot make, is kept as a stall; one to 70% as
 * throttling. */
static void test_merge_transient_stall_kept(void **state)
{
	double lv[] = { 100, 30, 100 }, lv2[] = { 100, 70, 100 };
	size_t len[] = { 150, 3, 150 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 53);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 3);
	assert_true(f->b[1].dip);
	assert_int_equal(f->b[1].kind, SLC_PHASE_STALL);
	/* kept drops are final: nothing more to do */
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 0);
	assert_int_equal(slc__merge_same(&f->tb.tr, f->b, &f->nb), 0);
	fx_free(f);

	f = fx_new(lv2, len, 3, 0.01, 54);
	fx_blocks_at_levels(f, len, 3);
	f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_true(f->b[1].dip);
	assert_int_equal(f->b[1].kind, SLC_PHASE_THROTTLED);
	fx_free(f);
}

/* Rule 4 against the trace's own dips: a single one-sample dip is as
 * likely as the isolated dips the trace shows (itself among them:
 * coincident()), so it is texture and is absorbed; so is a 3-sample
 * drop where such drops recur (a comb). */
static void test_merge_transient_dip_absorbed(void **state)
{
	double lv[] = { 100, 30, 100 };
	size_t len[] = { 150, 1, 150 };
	struct fx *f = fx_new(lv, len, 3, 0.01, 55);

	(void)state;
	fx_blocks_at_levels(f, len, 3);
	f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
	assert_true(f->tb.tr.dip_prob > 0);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
	assert_int_equal(f->nb, 1);
	fx_free(f);

	/* drops of 3 samples every 12 on both sides of the one judged */
	{
		size_t len3[] = { 150, 3, 150 };
		f = fx_new(lv, len3, 3, 0.01, 56);
		for (size_t i = 6; i + 3 < f->n; i += 12)
			if (i + 3 <= 150 || i >= 153) f->v[i] = f->v[i + 1] = f->v[i + 2] = 30;
		tb_free(&f->tb);
		tb_init(&f->tb, f->v, f->n, 1.0, NULL);
		fx_blocks_at_levels(f, len3, 3);
		f->tb.tr.dip_prob = slc__dip_prob(&f->tb.tr);
		assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 1);
		assert_int_equal(f->nb, 1);
		assert_false(f->b[0].dip);
		fx_free(f);
	}
}

/* Two long levels clearly apart (a cache, then native writing) are no
 * transient of each other. */
static void test_merge_transient_levels_stay(void **state)
{
	double lv[] = { 100, 40 };
	size_t len[] = { 150, 150 };
	struct fx *f = fx_new(lv, len, 2, 0.01, 57);

	(void)state;
	fx_blocks_at_levels(f, len, 2);
	assert_int_equal(slc__merge_transient(&f->tb.tr, f->b, &f->nb, f->tmp), 0);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[0].i1, 150);
	fx_free(f);
}

/* ---- make_groups ---- */

/* A level broken by a kept stall is one group across it; the stall's
 * samples are no part of the level, and a slower level after is a group
 * of its own. */
static void test_groups_across_dip(void **state)
{
	double lv[] = { 100, 30, 101, 50 };
	size_t len[] = { 100, 3, 100, 150 };
	struct fx *f = fx_new(lv, len, 4, 0.01, 61);
	size_t ng;

	(void)state;
	fx_blocks_at_levels(f, len, 4);
	f->b[1].dip = 1;
	f->b[1].kind = SLC_PHASE_STALL;
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(ng, 2);
	assert_int_equal(f->g[0].first, 0);
	assert_int_equal(f->g[0].last, 2);
	assert_int_equal(f->b[0].group, 0);
	assert_int_equal(f->b[2].group, 0);
	assert_int_equal(f->b[3].group, 1);
	assert_near(f->g[0].cnt, 200, 0);
	assert_near(f->g[0].bytes,
			    f->tb.tr.cum[100] + (f->tb.tr.cum[203] - f->tb.tr.cum[103]), 1e-6);
	assert_true(fabs(f->g[0].level - 100.5) < 1.5);
	assert_true(fabs(f->g[1].level - 50) < 1);
	assert_true(f->g[0].tau >= 1 && f->g[1].tau >= 1);
	fx_free(f);
}

/* Levels falling in small steps (each 0.8 of the one before) are a
 * decay after the first; a single large step is none. */
static void test_groups_decay_run(void **state)
{
	double lv[] = { 100, 80, 64, 51.2 }, lv2[] = { 100, 50 };
	size_t len[] = { 60, 60, 60, 60 }, len2[] = { 100, 100 };
	struct fx *f = fx_new(lv, len, 4, 0.01, 62);
	size_t ng;

	(void)state;
	fx_blocks_at_levels(f, len, 4);
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(ng, 4);
	assert_false(f->g[0].decay & DECAY_RUN);
	for (size_t q = 1; q < 4; q++) assert_true(f->g[q].decay & DECAY_RUN);
	fx_free(f);

	f = fx_new(lv2, len2, 2, 0.01, 63);
	fx_blocks_at_levels(f, len2, 2);
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(ng, 2);
	assert_int_equal(f->g[0].decay, 0);
	assert_int_equal(f->g[1].decay, 0);
	/* 100 -> 50: a lasting drop by is_drop's measure */
	{
		struct span a = slc__span_of(f->g, 0, 1), c = slc__span_of(f->g, 1, 2);
		assert_true(slc__is_drop(&slc__model_defaults, &a, &c));
		assert_false(slc__is_drop(&slc__model_defaults, &c, &a));
	}
	fx_free(f);
}

/* ---- model_label ---- */

static int run_model(struct fx *f, struct slc_model_info *mi, size_t *ng)
{
	struct slc_phase_evidence ev;
	double conf[BMAX];
	int ret;

	slc_phase_evidence_init(&ev);
	memset(mi, 0, sizeof(*mi));
	*ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	ret = slc__model_label(&f->tb.tr, f->b, f->g, *ng, &ev, mi, conf);
	for (size_t q = 0; q < *ng; q++) assert_true(conf[q] >= 0 && conf[q] <= 1);
	return ret;
}

/* Fast then slow (1000 then 300 B/s): a cache of the first level's
 * bytes, native writing after it, with a runner-up it beats. */
static void test_model_cache_then_native(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 300 }, ng;
	struct fx *f = fx_new(lv, len, 2, 0.01, 71);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 2);
	assert_int_equal(run_model(f, mi, &ng), 1);
	assert_int_equal(ng, 2);
	assert_true(mi->best.valid);
	assert_int_equal(mi->best.tiers, 1);
	assert_true(mi->best.native);
	assert_false(mi->best.erase_bound);
	assert_near(mi->best.cache_bytes, f->tb.tr.cum[100], 1e-6);
	assert_true(mi->odds > 1);
	assert_true(mi->runner_up.valid);
	assert_true(mi->runner_up.log_score < mi->best.log_score);
	assert_true(mi->confidence > 0.5 && mi->confidence <= 1);
	assert_int_equal(f->b[0].kind, SLC_PHASE_SLC_CACHE);
	assert_int_equal(f->b[0].tier, 1);
	assert_int_equal(f->b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_true(strlen(mi->explain) > 0);
	free(mi);
	fx_free(f);
}

/* A flat curve is native writing: no cache. */
static void test_model_flat_no_cache(void **state)
{
	double lv[] = { 300 };
	size_t len[] = { 300 }, ng;
	struct fx *f = fx_new(lv, len, 1, 0.03, 72);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 1);
	assert_int_equal(run_model(f, mi, &ng), 0);
	assert_int_equal(mi->best.tiers, 0);
	assert_true(isnan(mi->best.cache_bytes));
	assert_true(mi->best.native);
	assert_false(mi->best.erase_bound);
	assert_int_equal(f->b[0].kind, SLC_PHASE_DIRECT_TO_TLC);
	free(mi);
	fx_free(f);
}

/* A cache, native writing, then an erase-bound level at two thirds of
 * the native one: the onset where the third level starts. */
static void test_model_cache_native_erase(void **state)
{
	double lv[] = { 1000, 300, 200 };
	size_t len[] = { 60, 200, 200 }, ng;
	struct fx *f = fx_new(lv, len, 3, 0.01, 73);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 3);
	assert_int_equal(run_model(f, mi, &ng), 1);
	assert_int_equal(ng, 3);
	assert_int_equal(mi->best.tiers, 1);
	assert_true(mi->best.native);
	assert_true(mi->best.erase_bound);
	assert_near(mi->best.cache_bytes, f->tb.tr.cum[60], 1e-6);
	assert_near(mi->best.onset_bytes, f->tb.tr.cum[260], 1e-6);
	assert_int_equal(f->b[0].kind, SLC_PHASE_SLC_CACHE);
	assert_int_equal(f->b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_int_equal(f->b[2].kind, SLC_PHASE_ERASE_BOUND);
	free(mi);
	fx_free(f);
}

/* Two steady cache tiers (1000, then 800: a QLC drive's second tier),
 * then native writing: two tiers, the cache's bytes those of both. */
static void test_model_two_tiers(void **state)
{
	double lv[] = { 1000, 800, 300 };
	size_t len[] = { 50, 50, 300 }, ng;
	struct fx *f = fx_new(lv, len, 3, 0.01, 74);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 3);
	assert_int_equal(run_model(f, mi, &ng), 1);
	assert_int_equal(mi->best.tiers, 2);
	assert_near(mi->best.cache_bytes, f->tb.tr.cum[100], 1e-6);
	assert_true(mi->odds > 1);
	assert_int_equal(f->b[0].tier, 1);
	assert_int_equal(f->b[1].kind, SLC_PHASE_SLC_CACHE);
	assert_int_equal(f->b[1].tier, 2);
	assert_int_equal(f->b[2].kind, SLC_PHASE_DIRECT_TO_TLC);
	free(mi);
	fx_free(f);
}

/* The levels may be read again (the first samples or a small step made
 * levels of their own): what a reading before left in the model's record
 * (a close call, what would settle it, a conflict) is no part of this
 * one.  One flat level: no close call, nothing to settle. */
static void test_model_read_again_fresh(void **state)
{
	double lv[] = { 300 };
	size_t len[] = { 400 }, ng;
	struct fx *f = fx_new(lv, len, 1, 0.01, 79);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));
	struct slc_phase_evidence ev;
	double conf[BMAX];

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 1);
	slc_phase_evidence_init(&ev);
	mi->close_call = mi->conflict = mi->no_fit = 1;
	mi->settle = SLC_SETTLE_CAPACITY | SLC_SETTLE_CELL;
	mi->best.tiers = 2;
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(slc__model_label(&f->tb.tr, f->b, f->g, ng, &ev, mi, conf), 0);
	assert_int_equal(mi->best.tiers, 0);
	assert_true(mi->best.native);
	assert_false(mi->close_call);
	assert_int_equal(mi->settle, 0);
	assert_false(mi->conflict);
	assert_false(mi->no_fit);
	free(mi);
	fx_free(f);
}

/*
 * The counters' step as the model reads it: a cache, then native writing
 * whose speed never changes, its second half a level of its own where the
 * drive's counters show garbage collection begin (SLC__STEP_COUNTER,
 * trace.ctr_onset).  The reading with the onset there wins; without the
 * counters' bytes the readings with and without it are alike; with the onset more than counter_near away a reading pays the term
 * as one without any does, and the two are alike again.
 */
static void test_model_counter_step(void **state)
{
	double lv[] = { 1000, 300, 300 };
	size_t len[] = { 50, 200, 200 }, ng;
	struct fx *f = fx_new(lv, len, 3, 0.01, 80);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 3);
	f->b[2].step = SLC__STEP_COUNTER;
	f->tb.tr.ctr_onset = f->tb.tr.cum[250];
	assert_int_equal(run_model(f, mi, &ng), 1);
	assert_int_equal(ng, 3);
	assert_true(mi->best.erase_bound);
	assert_near(mi->best.onset_bytes, f->tb.tr.cum[250], 1e-6);
	assert_int_equal(f->b[2].kind, SLC_PHASE_ERASE_BOUND);
	assert_non_null(strstr(mi->explain, "(counter_cost -3.0)"));
	assert_true(mi->odds > 10);
	/* the same levels without the counters' bytes: no term, and the
	 * speed cannot tell the readings with and without the onset apart */
	f->tb.tr.ctr_onset = 0;
	assert_int_equal(run_model(f, mi, &ng), 1);
	if (!(mi->odds < 2)) fail_msg("odds %g\n%s", mi->odds, mi->explain);
	assert_null(strstr(mi->explain, "counter_cost"));
	/* counters far from the only onset on offer: it pays as well, and the
	 * two readings are alike again */
	f->tb.tr.ctr_onset = 3 * f->tb.tr.cum[250];
	assert_int_equal(run_model(f, mi, &ng), 1);
	if (!(mi->odds < 2)) fail_msg("odds %g\n%s", mi->odds, mi->explain);
	{
		const char *x = strstr(mi->explain, "(counter_cost -3.0)");
		assert_non_null(x);
		assert_non_null(strstr(x + 1, "(counter_cost -3.0)"));
	}
	free(mi);
	fx_free(f);
}

/* Right after a TRIM of a small drive, no erase-bound writing can start
 * before half its flash is used (slc__min_onset): the erase-bound reading
 * is ruled out, and as the reading left fits the curve far worse, the
 * model says the evidence conflicts with the curve. */
static void test_model_evidence_rules_out_onset(void **state)
{
	double lv[] = { 1000, 300, 200 };
	size_t len[] = { 60, 200, 200 }, ng;
	struct fx *f = fx_new(lv, len, 3, 0.01, 75);
	struct slc_model_info *mi = calloc(1, sizeof(*mi));
	struct slc_phase_evidence ev;
	double conf[BMAX];

	(void)state;
	assert_non_null(mi);
	fx_blocks_at_levels(f, len, 3);
	slc_phase_evidence_init(&ev);
	ev.state = SLC_STATE_TRIMMED;
	ev.capacity_bytes = 1e6;	/* the curve writes 160 kB */
	assert_true(slc__min_onset(&ev, f->tb.tr.cum[60]) > f->tb.tr.cum[f->n]);
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(slc__model_label(&f->tb.tr, f->b, f->g, ng, &ev, mi, conf), 1);
	assert_false(mi->best.erase_bound);
	assert_near(mi->best.cache_bytes, f->tb.tr.cum[60], 1e-6);
	assert_int_equal(first_of_kind(f->b, f->nb, SLC_PHASE_ERASE_BOUND), f->nb);
	assert_true(mi->conflict);
	assert_near(mi->confidence, 0, 0);
	assert_non_null(strstr(mi->explain, "ruled out by the evidence"));
	free(mi);
	fx_free(f);
}

/* The bounds the evidence sets: the cache at most the flash in SLC mode
 * (spare area included), the onset after a TRIM no sooner than half the
 * flash used, less what the cache's bytes took in SLC mode. */
static void test_model_bounds(void **state)
{
	struct slc_phase_evidence ev;

	(void)state;
	slc_phase_evidence_init(&ev);
	assert_true(isinf(slc__cache_limit(&ev)));
	assert_near(slc__min_onset(&ev, 1e9), 0, 0);
	ev.capacity_bytes = 1e12;
	ev.cell = SLC_CELL_TLC;
	assert_near(slc__cache_limit(&ev), 1e12 * (1 + slc__model_defaults.spare_max) / 3, 1);
	assert_near(slc__min_onset(&ev, 1e9), 0, 0);	/* not trimmed: no bound */
	ev.state = SLC_STATE_TRIMMED;
	assert_near(slc__min_onset(&ev, 1e10), 0.5e12 - 2e10, 1);
	assert_near(slc__min_onset(&ev, NAN), 0.5e12, 1);
	assert_near(slc__min_onset(&ev, 1e12), 0, 0);
	ev.cell = SLC_CELL_UNKNOWN;	/* 4 bits: the weakest bound */
	assert_near(slc__min_onset(&ev, 1e10), 0.5e12 - 3e10, 1);
	assert_near(slc__cache_limit(&ev), 1e12 * (1 + slc__model_defaults.spare_max) / 2, 1);
}

/* The data's onset over groups: a lasting drop (300 -> 200) is one; a
 * level that comes back above is none. */
static void test_erase_onset_groups(void **state)
{
	double lv[] = { 300, 200 }, lv2[] = { 300, 200, 300 };
	size_t len[] = { 200, 200 }, len2[] = { 150, 100, 150 }, ng;
	struct fx *f = fx_new(lv, len, 2, 0.01, 76);

	(void)state;
	fx_blocks_at_levels(f, len, 2);
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(slc__erase_onset(&slc__model_defaults, f->g, 0, ng), 1);
	assert_true(slc__stays_below(&slc__model_defaults, f->g, 1, ng, f->g[0].level));
	fx_free(f);

	f = fx_new(lv2, len2, 3, 0.01, 77);
	fx_blocks_at_levels(f, len2, 3);
	ng = slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_int_equal(ng, 3);
	assert_false(slc__stays_below(&slc__model_defaults, f->g, 1, ng, f->g[0].level * 0.95));
	assert_int_equal(slc__erase_onset(&slc__model_defaults, f->g, 0, ng), ng);
	fx_free(f);
}

/* ---- counter_onset (counters.c) ---- */

/* Counters read every 10 s of a 300 s curve at 200 B/s; NAND bytes per
 * host byte @wa0 before @knee_s, @wa1 from there (until @end_s, then @wa0
 * again).  Fills t, host and nand (31 readings). */
static void counters(double *t, double *host, double *nand, double knee_s, double end_s, double wa0, double wa1)
{
	double h = 5e6, nd = 7e6;

	for (size_t i = 0; i <= 30; i++) {
		double ti = 10.0 * (double)i;

		if (i) {
			double mid = ti - 5, wa = mid > knee_s && mid < end_s ? wa1 : wa0;
			h += 2000;
			nd += wa * 2000;
		}
		t[i] = ti;
		host[i] = h;
		nand[i] = nd;
	}
}

/* Garbage collection from 150 s on (1.1 -> 2.0 NAND bytes per host
 * byte): the onset at the bytes written by then, the slopes each side,
 * the NAND bytes the step added. */
static void test_counter_onset_step(void **state)
{
	double lv[] = { 200 }, t[31], host[31], nand[31], w0, w1, extra, on;
	size_t len[] = { 300 };
	struct fx *f = fx_new(lv, len, 1, 0, 78);
	struct slc_phase_evidence ev;

	(void)state;
	slc_phase_evidence_init(&ev);
	counters(t, host, nand, 150, INFINITY, 1.1, 2.0);
	ev.ctr_t_s = t;
	ev.ctr_host = host;
	ev.ctr_nand = nand;
	ev.n_ctr = 31;
	on = slc__counter_onset(&f->tb.tr, &ev, 0, f->tb.tr.cum[f->n], &w0, &w1, &extra);
	assert_near(on, 150 * 200, 1e-6);
	assert_near(w0, 1.1, 1e-9);
	assert_near(w1, 2.0, 1e-9);
	assert_near(extra, 0.9 * 150 * 200, 1e-3);
	/* a window that starts after the knee sees no step */
	on = slc__counter_onset(&f->tb.tr, &ev, 160 * 200, f->tb.tr.cum[f->n], &w0, &w1, &extra);
	assert_true(isnan(on));
	fx_free(f);
}

/* No lasting step: a constant ratio, or a burst of folding after the
 * cache that rises and ends; too few readings say nothing. */
static void test_counter_onset_none(void **state)
{
	double lv[] = { 200 }, t[31], host[31], nand[31], w0, w1, extra;
	size_t len[] = { 300 };
	struct fx *f = fx_new(lv, len, 1, 0, 79);
	struct slc_phase_evidence ev;

	(void)state;
	slc_phase_evidence_init(&ev);
	ev.ctr_t_s = t;
	ev.ctr_host = host;
	ev.ctr_nand = nand;
	ev.n_ctr = 31;
	counters(t, host, nand, 150, INFINITY, 1.1, 1.1);
	assert_true(isnan(slc__counter_onset(&f->tb.tr, &ev, 0, f->tb.tr.cum[f->n], &w0, &w1, &extra)));
	counters(t, host, nand, 100, 160, 1.1, 3.0);
	assert_true(isnan(slc__counter_onset(&f->tb.tr, &ev, 0, f->tb.tr.cum[f->n], &w0, &w1, &extra)));
	counters(t, host, nand, 150, INFINITY, 1.1, 2.0);
	ev.n_ctr = 2 * slc__model_defaults.counter_side_min;
	assert_true(isnan(slc__counter_onset(&f->tb.tr, &ev, 0, f->tb.tr.cum[f->n], &w0, &w1, &extra)));
	assert_true(isnan(w0) && isnan(w1) && isnan(extra));
	fx_free(f);
}

/* ---- extend_cache_teeth ---- */

/* A steady cache whose last stretch folds between writes (every other
 * sample at the cache's speed, the rest at 40%) runs to the end of the
 * teeth, not to the first tooth. */
static void test_teeth_extend(void **state)
{
	double lv[] = { 1000, 1000, 300 };
	size_t len[] = { 100, 40, 200 }, ends[] = { 100, 140, 340 };
	struct fx *f = fx_new(lv, len, 3, 0.005, 81);
	size_t jn;

	(void)state;
	for (size_t i = 100; i < 140; i += 2) f->v[i] = 400;	/* teeth: 100, 102, .. 138 */
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	f->nb = mkblocks(f->b, ends, 3);
	f->b[0].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = 1;
	f->b[1].kind = f->b[2].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
	assert_tiles(f->b, f->nb, 340);
	jn = first_of_kind(f->b, f->nb, SLC_PHASE_DIRECT_TO_TLC);
	assert_true(jn < f->nb);
	/* the last sample at the cache's speed is 139 */
	assert_int_equal(f->b[jn].i0, 140);
	for (size_t j = 0; j < jn; j++) {
		assert_int_equal(f->b[j].kind, SLC_PHASE_SLC_CACHE);
		assert_int_equal(f->b[j].tier, 1);
	}
	fx_free(f);
}

/* The rule is one sample in teeth_at_level at the cache's speed: three
 * teeth and then one sample back at it (a cache that folds in its last
 * second) is still the cache up to that sample; two such samples among
 * nine, or none, are not. */
static void test_teeth_one_in_four(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 200 }, ends[] = { 100, 300 }, jn;
	struct fx *f = fx_new(lv, len, 2, 0.005, 85);

	(void)state;
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 100; i < 110; i++) f->v[i] = 300;
		if (pass == 0) f->v[103] = 1000;                      /* teeth 100-102, back at 103 */
		if (pass == 1) f->v[104] = f->v[108] = 1000;          /* 2 in 9: 1 in 4.5 */
		tb_free(&f->tb);
		tb_init(&f->tb, f->v, f->n, 1.0, NULL);
		f->nb = mkblocks(f->b, ends, 2);
		f->b[0].kind = SLC_PHASE_SLC_CACHE;
		f->b[0].tier = 1;
		f->b[1].kind = SLC_PHASE_DIRECT_TO_TLC;
		slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
		assert_tiles(f->b, f->nb, 300);
		jn = first_of_kind(f->b, f->nb, SLC_PHASE_DIRECT_TO_TLC);
		assert_true(jn < f->nb);
		assert_int_equal(f->b[jn].i0, pass == 0 ? 104 : 100);
	}
	fx_free(f);
}

/* Teeth that go on for longer than the cache took are native writing
 * with bursts: the cache grows by its own length at most, and not into a
 * stall the consolidation kept. */
static void test_teeth_capped(void **state)
{
	double lv[] = { 1000, 1000, 300 };
	size_t len[] = { 50, 150, 100 }, ends[] = { 50, 200, 300 }, ends2[] = { 50, 70, 73, 200, 300 }, jn;
	struct fx *f = fx_new(lv, len, 3, 0.005, 84);

	(void)state;
	for (size_t i = 50; i < 200; i += 2) f->v[i] = 400;
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	f->nb = mkblocks(f->b, ends, 3);
	f->b[0].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = 1;
	f->b[1].kind = f->b[2].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
	assert_tiles(f->b, f->nb, 300);
	jn = first_of_kind(f->b, f->nb, SLC_PHASE_DIRECT_TO_TLC);
	assert_true(jn < f->nb);
	assert_true(f->b[jn].i0 > 90 && f->b[jn].i0 <= 100);

	/* a kept stall at 70..73 stops it */
	for (size_t i = 70; i < 73; i++) f->v[i] = 100;
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	f->nb = mkblocks(f->b, ends2, 5);
	f->b[0].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = 1;
	f->b[1].kind = f->b[3].kind = f->b[4].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[2].kind = SLC_PHASE_STALL;
	f->b[2].dip = 1;
	slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
	assert_tiles(f->b, f->nb, 300);
	for (size_t j = 0; j < f->nb; j++) {
		if (f->b[j].i0 >= 70) assert_int_not_equal(f->b[j].kind, SLC_PHASE_SLC_CACHE);
		/* the stall is still a stall */
		if (f->b[j].i0 == 70) {
			assert_true(f->b[j].dip);
			assert_int_equal(f->b[j].kind, SLC_PHASE_STALL);
		}
	}
	/* the teeth up to the stall are the cache's */
	assert_int_equal(f->b[1].kind, SLC_PHASE_SLC_CACHE);
	assert_int_equal(f->b[1].i1, 70);
	fx_free(f);
}

/* A cache that ends cleanly stays where it ends; so does a noisy one
 * (a DRAM-less drive's cache has no steady level native writing misses). */
static void test_teeth_clean_end_and_noisy(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 200 };
	struct fx *f = fx_new(lv, len, 2, 0.01, 82);

	(void)state;
	fx_blocks_at_levels(f, len, 2);
	f->b[0].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = 1;
	f->b[1].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 100);
	assert_int_equal(f->b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	fx_free(f);

	/* a cache with a CoV of 20%, then writing that reaches its speed
	 * one sample in two */
	{
		double lv2[] = { 1000, 1000, 300 };
		size_t len2[] = { 100, 40, 200 }, ends[] = { 100, 140, 340 };

		f = fx_new(lv2, len2, 3, 0.2, 83);
		for (size_t i = 100; i < 140; i += 2) f->v[i] = 400;
		tb_free(&f->tb);
		tb_init(&f->tb, f->v, f->n, 1.0, NULL);
		f->nb = mkblocks(f->b, ends, 3);
		f->b[0].kind = SLC_PHASE_SLC_CACHE;
		f->b[0].tier = 1;
		f->b[1].kind = f->b[2].kind = SLC_PHASE_DIRECT_TO_TLC;
		slc__extend_cache_teeth(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp);
		assert_int_equal(f->nb, 3);
		assert_int_equal(f->b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
		fx_free(f);
	}
}

/* ---- refine_onset ---- */

/* Native at 300, erase-bound at 200 from sample 250, but the labelling
 * put the onset at 200: the first 50 samples of the erase-bound group
 * still run at the native speed.  The onset moves forward to the step. */
static struct fx *onset_fixture(size_t label_at, uint64_t seed)
{
	double lv[] = { 300, 200 };
	size_t len[] = { 250, 200 }, ends[] = { label_at, 450 };
	struct fx *f = fx_new(lv, len, 2, 0.01, seed);

	f->nb = mkblocks(f->b, ends, 2);
	slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[1].kind = SLC_PHASE_ERASE_BOUND;
	return f;
}

static void test_refine_onset_forward(void **state)
{
	struct fx *f = onset_fixture(200, 91);
	size_t je;

	(void)state;
	assert_int_equal(f->b[1].group, 1);
	slc__refine_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->g, f->x, 0);
	assert_tiles(f->b, f->nb, 450);
	je = first_of_kind(f->b, f->nb, SLC_PHASE_ERASE_BOUND);
	assert_true(je < f->nb);
	assert_true(absdiff(f->b[je].i0, 250) <= 2);
	for (size_t j = 0; j < je; j++) assert_int_equal(f->b[j].kind, SLC_PHASE_DIRECT_TO_TLC);
	fx_free(f);
}

/* The other way: the labelling put the onset at 250, 50 samples after
 * the step, and the native group before it falls inside (its last
 * quarter at the erase-bound level: DECAY_OWN).  The onset moves back. */
static void test_refine_onset_back(void **state)
{
	double lv[] = { 300, 200 };
	size_t len[] = { 200, 250 }, ends[] = { 250, 450 }, je;
	struct fx *f = fx_new(lv, len, 2, 0.01, 94);

	(void)state;
	f->nb = mkblocks(f->b, ends, 2);
	slc__make_groups(&f->tb.tr, f->b, f->nb, f->g, f->tmp);
	assert_true(f->g[0].decay & DECAY_OWN);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[1].kind = SLC_PHASE_ERASE_BOUND;
	slc__refine_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->g, f->x, 0);
	assert_tiles(f->b, f->nb, 450);
	je = first_of_kind(f->b, f->nb, SLC_PHASE_ERASE_BOUND);
	assert_true(je < f->nb);
	assert_true(absdiff(f->b[je].i0, 200) <= 2);
	fx_free(f);
}

/* An onset already at the step stays; one the evidence says cannot be
 * that early (min_onset_bytes: after a TRIM) is not moved there. */
static void test_refine_onset_stays(void **state)
{
	struct fx *f = onset_fixture(250, 92);

	(void)state;
	slc__refine_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->g, f->x, 0);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 250);
	assert_int_equal(f->b[1].kind, SLC_PHASE_ERASE_BOUND);
	fx_free(f);

	f = onset_fixture(200, 93);
	slc__refine_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->g, f->x, f->tb.tr.cum[f->n]);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 200);
	assert_int_equal(f->b[1].kind, SLC_PHASE_ERASE_BOUND);
	fx_free(f);
}

/* ---- refine_decay_onset ---- */

/* Native at 300 until sample 200, then garbage collection bends it into a
 * decay towards 150 (time constant 30 samples); the labelling's onset lies
 * 25 samples into the decay.  The knee moves back to where it starts. */
static struct fx *decay_fixture(size_t label_at, double tau, uint64_t seed)
{
	double lv[] = { 1 };
	size_t len[] = { 400 }, ends[] = { label_at, 400 };
	struct fx *f = fx_new(lv, len, 1, 0.01, seed);

	for (size_t i = 0; i < 400; i++) {
		double clean = i < 200 ? 300 : 150 + 150 * (tau > 0 ? exp(-(double)(i - 200) / tau) : 0);
		f->v[i] *= clean;	/* 1% noise on the clean curve */
	}
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	f->nb = mkblocks(f->b, ends, 2);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[1].kind = SLC_PHASE_ERASE_BOUND;
	return f;
}

static void test_refine_decay_onset_back(void **state)
{
	struct fx *f = decay_fixture(225, 30, 101);
	size_t je;

	(void)state;
	slc__refine_decay_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->x, 0);
	assert_tiles(f->b, f->nb, 400);
	je = first_of_kind(f->b, f->nb, SLC_PHASE_ERASE_BOUND);
	assert_true(je < f->nb);
	assert_true(absdiff(f->b[je].i0, 200) <= 3);
	fx_free(f);
}

/* A decay whose onset the labelling placed right keeps it (within a
 * sample or two). */
static void test_refine_decay_onset_in_place(void **state)
{
	struct fx *f = decay_fixture(200, 30, 104);
	size_t je;

	(void)state;
	slc__refine_decay_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->x, 0);
	je = first_of_kind(f->b, f->nb, SLC_PHASE_ERASE_BOUND);
	assert_true(je < f->nb);
	assert_true(absdiff(f->b[je].i0, 200) <= 2);
	fx_free(f);
}

/* A sharp step (no decay after it) keeps its onset; so does a decay
 * when the evidence puts the onset no earlier than where it is. */
static void test_refine_decay_onset_none(void **state)
{
	struct fx *f = decay_fixture(200, 0, 102);

	(void)state;
	slc__refine_decay_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->x, 0);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 200);
	fx_free(f);

	f = decay_fixture(225, 30, 103);
	slc__refine_decay_onset(&f->tb.tr, f->b, &f->nb, BMAX, f->x, f->tb.tr.cum[225]);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 225);
	fx_free(f);
}

/* ---- mark_small_step ---- */

/* A QLC drive's first foreground GC: native writing 10% slower from
 * sample 200 on, each side 200 samples.  The step is found within a
 * couple of samples; the block is split there and the second part marked
 * a level of its own, its kind left to the model. */
static void test_small_step_found(void **state)
{
	double lv[] = { 300, 270 };
	size_t len[] = { 200, 200 }, ends[] = { 400 }, at;
	double fall;
	struct fx *f = fx_new(lv, len, 2, 0.01, 111);

	(void)state;
	f->nb = mkblocks(f->b, ends, 1);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	assert_int_equal(slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, 0, &at, &fall), 0);
	assert_int_equal(f->nb, 2);
	assert_tiles(f->b, f->nb, 400);
	assert_int_equal(at, f->b[1].i0);
	assert_true(absdiff(f->b[1].i0, 200) <= 2);
	assert_true(fall > 0.09 && fall < 0.11);
	assert_int_equal(f->b[0].step, 0);
	assert_int_equal(f->b[1].step, 1);
	assert_int_equal(f->b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	/* the groups keep the two levels apart, 10% being under delta_same */
	{
		struct group g[BMAX];
		size_t ng = slc__make_groups(&f->tb.tr, f->b, f->nb, g, f->tmp);

		assert_int_equal(ng, 2);
		assert_int_equal(g[1].step, 1);
		/* and without the mark, one level */
		f->b[1].step = 0;
		assert_int_equal(slc__make_groups(&f->tb.tr, f->b, f->nb, g, f->tmp), 1);
	}
	fx_free(f);
}

/* None on a flat native level, none for a 3% step (under STEP_SMALL),
 * none when an erase-bound phase is there already. */
static void test_small_step_none(void **state)
{
	double flat[] = { 300 }, small[] = { 300, 291 }, lv[] = { 300, 270 };
	size_t lenf[] = { 400 }, len[] = { 200, 200 }, ends[] = { 400 }, ends2[] = { 100, 400 }, at;
	double fall;
	struct fx *f = fx_new(flat, lenf, 1, 0.01, 112);

	(void)state;
	f->nb = mkblocks(f->b, ends, 1);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, 0, &at, &fall);
	assert_int_equal(f->nb, 1);
	assert_int_equal(f->b[0].kind, SLC_PHASE_DIRECT_TO_TLC);
	fx_free(f);

	f = fx_new(small, len, 2, 0.002, 113);
	f->nb = mkblocks(f->b, ends, 1);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, 0, &at, &fall);
	assert_int_equal(f->nb, 1);
	fx_free(f);

	f = fx_new(lv, len, 2, 0.01, 114);
	f->nb = mkblocks(f->b, ends2, 2);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[1].kind = SLC_PHASE_ERASE_BOUND;
	slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, 0, &at, &fall);
	assert_int_equal(f->nb, 2);
	assert_int_equal(f->b[1].i0, 100);
	fx_free(f);

	/* a native speed that wanders slowly (AR(1), correlation time of
	 * about 40 samples, 5%) has stretches above and below its mean that
	 * are no lasting step */
	f = fx_new(flat, lenf, 1, 0, 116);
	{
		uint64_t r = 116;
		double w = 0;

		for (size_t i = 0; i < 400; i++) {
			w = 0.95 * w + sqrt(1 - 0.95 * 0.95) * gauss(&r);
			f->v[i] = 300 * (1 + 0.05 * w);
		}
	}
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	f->nb = mkblocks(f->b, ends, 1);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, 0, &at, &fall);
	assert_int_equal(f->nb, 1);
	fx_free(f);

	/* the step, but the evidence says no onset before the end */
	f = fx_new(lv, len, 2, 0.01, 115);
	f->nb = mkblocks(f->b, ends, 1);
	f->b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
	slc__mark_small_step(&f->tb.tr, f->b, &f->nb, BMAX, f->tmp, 0, f->tb.tr.cum[400], &at, &fall);
	assert_int_equal(f->nb, 1);
	fx_free(f);
}

/* ---- balance (boundary.c) ---- */

/* A step on a sample edge: the boundary is that edge, in time and bytes. */
static void test_balance_on_edge(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 100 };
	struct fx *f = fx_new(lv, len, 2, 0.005, 121);
	double t, by, range[2];

	(void)state;
	slc__balance(&f->tb.tr, 0, 100, 200, &t, &by, range, f->tmp);
	assert_near(t, 100, 1e-9);
	assert_near(by, f->tb.tr.cum[100], 1e-6);
	assert_true(range[0] <= by && by <= range[1]);
	fx_free(f);
}

/* A cache that ends 40% into sample 100: that sample wrote 0.4 s at 1000
 * and 0.6 s at 300 (580 B/s).  The balance puts the end at 100.4 s and
 * the bytes written at cache speed at those before the sample plus 400,
 * whichever side of the straddler the segmentation put the edge. */
static void test_balance_straddler(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 100 };
	struct fx *f = fx_new(lv, len, 2, 0.005, 122);
	double t, by, range[2], want = 0;

	(void)state;
	f->v[100] = 0.4 * 1000 + 0.6 * 300;
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	want = f->tb.tr.cum[100] + 400;
	for (size_t j = 100; j <= 101; j++) {
		slc__balance(&f->tb.tr, 0, j, 200, &t, &by, range, f->tmp);
		assert_true(fabs(t - 100.4) < 0.05);
		assert_true(fabs(by - want) < 30);
		assert_true(range[0] <= by && by <= range[1]);
		assert_true(range[0] <= f->tb.tr.cum[100] && range[1] >= f->tb.tr.cum[101]);
	}
	fx_free(f);
}

/* The cache back: a rising edge 40% into sample 100 (0.4 s at 300, then
 * 1000) ends the native writing at 100.4 s and 100 x 300 + 120 bytes. */
static void test_balance_rising(void **state)
{
	double lv[] = { 300, 1000 };
	size_t len[] = { 100, 100 };
	struct fx *f = fx_new(lv, len, 2, 0.005, 123);
	double t, by, range[2], want;

	(void)state;
	f->v[100] = 0.4 * 300 + 0.6 * 1000;
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	want = f->tb.tr.cum[100] + 0.4 * 300;
	for (size_t j = 100; j <= 101; j++) {
		slc__balance(&f->tb.tr, 0, j, 200, &t, &by, range, f->tmp);
		assert_true(fabs(t - 100.4) < 0.05);
		assert_true(fabs(by - want) < 30);
	}
	fx_free(f);
}

/* A cache that ends in a 4-sample ramp (860, 720, 580, 440 between 1000
 * and 300): the bytes balance puts the end 2 s into it, wherever in the
 * ramp the segmentation cut. */
static void test_balance_ramp(void **state)
{
	double lv[] = { 1000, 300 };
	size_t len[] = { 100, 104 };
	struct fx *f = fx_new(lv, len, 2, 0.005, 124);
	double t, by, range[2], want;

	(void)state;
	for (size_t i = 0; i < 4; i++) f->v[100 + i] = 1000 - 140 * (double)(i + 1);
	tb_free(&f->tb);
	tb_init(&f->tb, f->v, f->n, 1.0, NULL);
	want = f->tb.tr.cum[100] + 2000;
	for (size_t j = 101; j <= 103; j++) {
		slc__balance(&f->tb.tr, 0, j, 204, &t, &by, range, f->tmp);
		assert_true(fabs(t - 102) < 0.1);
		assert_true(fabs(by - want) < 60);
		assert_true(range[0] <= f->tb.tr.cum[101] && range[1] >= f->tb.tr.cum[103]);
	}
	fx_free(f);
}

/* ---- emit_phases ---- */

/* Same-kind neighbours become one phase (not across a kept drop); with
 * keep_all every block is one. */
static void test_emit_merges_same_kind(void **state)
{
	double lv[] = { 1000, 1000, 300, 30, 300 };
	size_t len[] = { 50, 50, 100, 3, 100 }, np = 0;
	struct fx *f = fx_new(lv, len, 5, 0.005, 131);
	struct slc_phase *p = NULL;

	(void)state;
	fx_blocks_at_levels(f, len, 5);
	f->b[0].kind = f->b[1].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = f->b[1].tier = 1;
	f->b[2].kind = f->b[4].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[3].kind = SLC_PHASE_STALL;
	f->b[3].dip = 1;
	for (size_t j = 0; j < 5; j++) f->b[j].conf = 0.9;
	f->b[1].conf = 0.6;	/* a merged phase is as sure as its least sure part */
	assert_int_equal(slc__emit_phases(&p, &np, &f->tb.tr, f->b, f->nb, 0, f->tmp), 0);
	assert_int_equal(np, 4);
	assert_int_equal(p[0].kind, SLC_PHASE_SLC_CACHE);
	assert_int_equal(p[0].tier, 1);
	assert_int_equal(p[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_int_equal(p[2].kind, SLC_PHASE_STALL);
	assert_int_equal(p[3].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_near(p[0].end_bytes, f->tb.tr.cum[100], 1e-6);
	assert_near(p[0].confidence, 0.6, 1e-12);
	assert_near(p[1].confidence, 0.9, 1e-12);
	free(p);

	/* a second cache tier is a phase of its own */
	f->b[1].tier = 2;
	assert_int_equal(slc__emit_phases(&p, &np, &f->tb.tr, f->b, f->nb, 0, f->tmp), 0);
	assert_int_equal(np, 5);
	free(p);

	assert_int_equal(slc__emit_phases(&p, &np, &f->tb.tr, f->b, f->nb, 1, f->tmp), 0);
	assert_int_equal(np, 5);
	assert_true(isnan(p[0].confidence));
	free(p);
	fx_free(f);
}

/* The phases tile the trace: each starts where the one before ends, the
 * first at the trace's start, the last at its end with all its bytes. */
static void test_emit_tiles_bytes_and_time(void **state)
{
	double lv[] = { 1000, 580, 300, 200 };
	size_t len[] = { 80, 1, 150, 120 }, ends[] = { 81, 231, 351 }, np = 0;
	struct fx *f = fx_new(lv, len, 4, 0.01, 132);
	struct slc_phase *p = NULL;
	double bytes = 0, time = 0;

	(void)state;
	f->nb = mkblocks(f->b, ends, 3);
	f->b[0].kind = SLC_PHASE_SLC_CACHE;
	f->b[0].tier = 1;
	f->b[1].kind = SLC_PHASE_DIRECT_TO_TLC;
	f->b[2].kind = SLC_PHASE_ERASE_BOUND;
	assert_int_equal(slc__emit_phases(&p, &np, &f->tb.tr, f->b, f->nb, 0, f->tmp), 0);
	assert_int_equal(np, 3);
	assert_near(p[0].start_s, 0, 1e-12);
	assert_near(p[0].start_bytes, 0, 0);
	for (size_t q = 0; q < np; q++) {
		assert_true(p[q].end_bytes >= p[q].start_bytes);
		assert_true(p[q].end_s > p[q].start_s);
		assert_true(p[q].end_lo_bytes <= p[q].end_bytes && p[q].end_bytes <= p[q].end_hi_bytes);
		if (q + 1 < np) {
			assert_near(p[q + 1].start_s, p[q].end_s, 0);
			assert_near(p[q + 1].start_bytes, p[q].end_bytes, 0);
		}
		bytes += p[q].end_bytes - p[q].start_bytes;
		time += p[q].end_s - p[q].start_s;
		assert_true(p[q].p5_bps <= p[q].median_bps && p[q].median_bps <= p[q].p95_bps);
	}
	assert_near(bytes, f->tb.tr.cum[f->n], 1e-6 * f->tb.tr.cum[f->n]);
	assert_near(time, f->tb.tr.t[f->n - 1], 1e-9);
	assert_near(p[np - 1].end_s, f->tb.tr.t[f->n - 1], 0);
	/* the cache's end falls inside the straddling sample 80 */
	assert_true(p[0].end_bytes > f->tb.tr.cum[80] && p[0].end_bytes < f->tb.tr.cum[81]);
	free(p);
	fx_free(f);
}

/* A phase's mean is its bytes over the time samples cover: a 10 s host
 * pause inside the native phase does not dilute its speed, and samples
 * of unequal length count by their time. */
static void test_emit_mean_over_covered_time(void **state)
{
	double lv[] = { 1000, 300 }, v[200], pause[200] = { 0 };
	size_t len[] = { 100, 100 }, ends[] = { 100, 200 }, np = 0;
	struct tbuf tb;
	struct block b[4];
	double tmp[200];
	struct slc_phase *p = NULL;

	(void)state;
	levels(v, lv, len, 2, 0.01, 133);
	pause[150] = 10;
	tb_init(&tb, v, 200, 1.0, pause);
	mkblocks(b, ends, 2);
	b[0].kind = SLC_PHASE_SLC_CACHE;
	b[0].tier = 1;
	b[1].kind = SLC_PHASE_DIRECT_TO_TLC;
	assert_int_equal(slc__emit_phases(&p, &np, &tb.tr, b, 2, 0, tmp), 0);
	assert_int_equal(np, 2);
	for (size_t q = 0; q < 2; q++) {
		double pz = q == 1 ? 10 : 0;

		assert_near(p[q].mean_bps,
				    (p[q].end_bytes - p[q].start_bytes) / (p[q].end_s - p[q].start_s - pz),
				    1e-9 * p[q].mean_bps);
		assert_true(fabs(p[q].mean_bps - lv[q]) < 0.01 * lv[q]);
	}
	assert_near(p[1].end_s, 210, 1e-9);
	free(p);
	tb_free(&tb);

	/* intervals of 0.5 s at 400 B/s and 1.5 s at 200 B/s in turn: the
	 * phase wrote 500 B every 2 s, 250 B/s, not the samples' 300 */
	{
		double dts[200];

		for (size_t i = 0; i < 200; i++) {
			v[i] = i % 2 ? 200 : 400;
			dts[i] = i % 2 ? 1.5 : 0.5;
		}
		tb_init_dt(&tb, v, 200, dts, 0, NULL);
		b[0].i1 = 200;
		b[0].kind = SLC_PHASE_DIRECT_TO_TLC;
		assert_int_equal(slc__emit_phases(&p, &np, &tb.tr, b, 1, 0, tmp), 0);
		assert_int_equal(np, 1);
		assert_near(p[0].mean_bps, 250, 1e-9);
		assert_near(p[0].end_bytes, 100 * 500, 1e-6);
		assert_near(p[0].end_s, 200, 1e-9);
		free(p);
		tb_free(&tb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cp_step_found),
		cmocka_unit_test(test_cp_flat_none),
		cmocka_unit_test(test_cp_penalty_scales_with_noise),
		cmocka_unit_test(test_util_level_covered_pause),
		cmocka_unit_test(test_util_sample_quantile),
		cmocka_unit_test(test_util_split_and_tau),
		cmocka_unit_test(test_util_welch_reldiff),
		cmocka_unit_test(test_util_split_merge_erase_from),
		cmocka_unit_test(test_dip_prob_none),
		cmocka_unit_test(test_dip_prob_rate),
		cmocka_unit_test(test_split_lead_long_tail),
		cmocka_unit_test(test_split_lead_short_tail_and_none),
		cmocka_unit_test(test_merge_same_close),
		cmocka_unit_test(test_merge_same_distinct_vs_noise),
		cmocka_unit_test(test_merge_same_closest_first_and_dips),
		cmocka_unit_test(test_merge_transient_ramp),
		cmocka_unit_test(test_merge_transient_long_ramp),
		cmocka_unit_test(test_merge_transient_burst),
		cmocka_unit_test(test_merge_transient_native_before_cache_back),
		cmocka_unit_test(test_merge_transient_edge_drop),
		cmocka_unit_test(test_merge_transient_stall_kept),
		cmocka_unit_test(test_merge_transient_dip_absorbed),
		cmocka_unit_test(test_merge_transient_levels_stay),
		cmocka_unit_test(test_groups_across_dip),
		cmocka_unit_test(test_groups_decay_run),
		cmocka_unit_test(test_model_cache_then_native),
		cmocka_unit_test(test_model_flat_no_cache),
		cmocka_unit_test(test_model_cache_native_erase),
		cmocka_unit_test(test_model_two_tiers),
		cmocka_unit_test(test_model_evidence_rules_out_onset),
		cmocka_unit_test(test_model_read_again_fresh),
		cmocka_unit_test(test_model_counter_step),
		cmocka_unit_test(test_model_bounds),
		cmocka_unit_test(test_erase_onset_groups),
		cmocka_unit_test(test_counter_onset_step),
		cmocka_unit_test(test_counter_onset_none),
		cmocka_unit_test(test_teeth_extend),
		cmocka_unit_test(test_teeth_clean_end_and_noisy),
		cmocka_unit_test(test_teeth_one_in_four),
		cmocka_unit_test(test_teeth_capped),
		cmocka_unit_test(test_refine_onset_forward),
		cmocka_unit_test(test_refine_onset_stays),
		cmocka_unit_test(test_refine_onset_back),
		cmocka_unit_test(test_refine_decay_onset_back),
		cmocka_unit_test(test_refine_decay_onset_none),
		cmocka_unit_test(test_refine_decay_onset_in_place),
		cmocka_unit_test(test_small_step_found),
		cmocka_unit_test(test_small_step_none),
		cmocka_unit_test(test_balance_on_edge),
		cmocka_unit_test(test_balance_straddler),
		cmocka_unit_test(test_balance_rising),
		cmocka_unit_test(test_balance_ramp),
		cmocka_unit_test(test_emit_merges_same_kind),
		cmocka_unit_test(test_emit_tiles_bytes_and_time),
		cmocka_unit_test(test_emit_mean_over_covered_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
