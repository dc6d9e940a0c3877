// SPDX-License-Identifier: MIT
/*
 * slc_analyze() out of memory: the analysis sources are compiled into this
 * test again with SLC_PHASES_ALLOC_HOOK (analysis/alloc_hook.h), so that
 * their allocations come here.  For each curve the analysis runs once to
 * count its allocations, then once per allocation with that one failing:
 * each run returns -ENOMEM with nothing allocated left in the result and
 * nothing leaked.  And the passes that split blocks stay inside the block
 * array: a split without room is refused, a curve with many splits is read.
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

#include "slcscope/analysis.h"
#include "phases_priv.h"
/* phases_priv.h routes the allocations of what follows it to the hook, the
 * test's own are the C library's */
#undef malloc
#undef calloc
#undef realloc
#undef free

static size_t n_alloc;		/* allocations since the count was reset */
static size_t fail_at;		/* the allocation to fail, from 1; 0: none */
static long live;		/* allocated and not freed */

static int fails(void)
{
	return ++n_alloc == fail_at;
}

void *slc__hook_malloc(size_t size)
{
	void *p = fails() ? NULL : malloc(size);

	live += p != NULL;
	return p;
}

void *slc__hook_calloc(size_t n, size_t size)
{
	void *p = fails() ? NULL : calloc(n, size);

	live += p != NULL;
	return p;
}

void *slc__hook_realloc(void *p, size_t size)
{
	void *q = fails() ? NULL : realloc(p, size);

	live += !p && q;
	return q;
}

void slc__hook_free(void *p)
{
	live -= p != NULL;
	free(p);
}

/* Deterministic unit-variance noise (LCG + Box-Muller). */
static double gauss(uint64_t *r)
{
	double u1, u2;

	*r = *r * 6364136223846793005ull + 1442695040888963407ull;
	u1 = ((double)(*r >> 11) + 0.5) / 9007199254740992.0;
	*r = *r * 6364136223846793005ull + 1442695040888963407ull;
	u2 = ((double)(*r >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* A stretch of a curve: @n samples at @bps (falling exponentially to
 * @end_bps when that is set), relative noise @noise, and in every @period
 * samples the first @low at @low_frac of the speed (a comb's teeth). */
struct seg {
	double bps;
	size_t n;
	double noise;
	size_t period, low;
	double low_frac, end_bps;
};

struct curve {
	double *t, *dt, *bytes;
	struct slc_trace_in in;
};

static void make_curve(struct curve *c, double dt, const struct seg *s, size_t k)
{
	uint64_t r = 42;
	size_t n = 0, m = 0;
	double t = 0;

	for (size_t i = 0; i < k; i++) n += s[i].n;
	c->t = malloc(n * sizeof(double));
	c->dt = malloc(n * sizeof(double));
	c->bytes = malloc(n * sizeof(double));
	assert_true(c->t && c->dt && c->bytes);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < s[i].n; j++) {
			double v = s[i].bps;

			if (s[i].end_bps > 0)
				v = s[i].end_bps + (s[i].bps - s[i].end_bps) * exp(-5.0 * (double)j / (double)s[i].n);
			if (s[i].period && j % s[i].period < s[i].low) v *= s[i].low_frac;
			v *= 1 + s[i].noise * gauss(&r);
			t += dt;
			c->t[m] = t;
			c->dt[m] = dt;
			c->bytes[m++] = fmax(v, 0) * dt;
		}
	c->in = (struct slc_trace_in){ .t_s = c->t, .interval_s = c->dt, .bytes = c->bytes, .n = n,
				       .block_bytes = 131072 };
}

static void free_curve(struct curve *c)
{
	free(c->t);
	free(c->dt);
	free(c->bytes);
}

/* The phases cover the curve, one after the other. */
static void check_phases(const struct slc_analysis *a, const struct curve *c)
{
	double total = 0;

	for (size_t i = 0; i < c->in.n; i++) total += c->bytes[i];
	assert_true(a->n_phases >= 1);
	assert_true(fabs(a->phases[0].start_bytes) < 1e-6 * total);
	for (size_t q = 0; q < a->n_phases; q++) {
		assert_true(a->phases[q].end_bytes >= a->phases[q].start_bytes);
		if (q + 1 < a->n_phases) assert_true(a->phases[q].end_bytes == a->phases[q + 1].start_bytes);
	}
	assert_true(fabs(a->phases[a->n_phases - 1].end_bytes - total) <= 1e-9 * total);
}

/* Each allocation of the analysis of @c (with the drive's evidence @ev,
 * NULL: none) failing in turn; @want_eb: the analysis that succeeds must
 * have an erase-bound phase. */
static void sweep_ev(const char *name, const struct curve *c, const struct slc_phase_evidence *ev, int want_eb)
{
	struct slc_analysis a;
	size_t total;

	fail_at = 0;
	n_alloc = 0;
	live = 0;
	assert_int_equal(slc_analyze_ev(&a, &c->in, NULL, ev), 0);
	check_phases(&a, c);
	if (want_eb) assert_true(isfinite(a.erase_bound_start_bytes));
	slc_analysis_free(&a);
	assert_int_equal(live, 0);
	total = n_alloc;
	assert_true(total > 0);
	print_message("%s: %zu samples, %zu allocations, each failed in turn\n", name, c->in.n, total);
	for (size_t k = 1; k <= total; k++) {
		int ret;

		fail_at = k;
		n_alloc = 0;
		ret = slc_analyze_ev(&a, &c->in, NULL, ev);
		if (ret != -ENOMEM) print_message("%s: allocation %zu of %zu failed: returned %d\n", name, k, total, ret);
		assert_int_equal(ret, -ENOMEM);
		assert_true(n_alloc >= k);
		assert_null(a.phases);
		assert_null(a.segments);
		assert_int_equal(a.n_phases, 0);
		/* freeable, twice too */
		slc_analysis_free(&a);
		slc_analysis_free(&a);
		assert_int_equal(live, 0);
	}
	fail_at = 0;
}

static void sweep(const char *name, const struct curve *c)
{
	sweep_ev(name, c, NULL, 0);
}

#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

/* A cache, then native writing whose speed never changes while the
 * drive's counters show garbage collection begin halfway (NAND bytes per
 * host byte 1.0, then 1.5: more NAND bytes than the cache holds): the
 * counters' step is a level boundary the model reads again
 * (counter_read()). */
static void test_counters(void **state)
{
	static const struct seg s[] = {
		{ 2e9, 20, 0.02, 0, 0, 0, 0 },
		{ 5e8, 980, 0.03, 0, 0, 0, 0 },
	};
	struct curve c;
	struct slc_phase_evidence ev;
	double *host, *nand, h = 0, f = 0;

	(void)state;
	make_curve(&c, 1, s, COUNT(s));
	host = malloc(c.in.n * sizeof(double));
	nand = malloc(c.in.n * sizeof(double));
	assert_true(host && nand);
	for (size_t i = 0; i < c.in.n; i++) {
		h += c.bytes[i];
		f += c.bytes[i] * (i >= 550 ? 1.5 : 1.0);
		host[i] = h;
		nand[i] = f;
	}
	slc_phase_evidence_init(&ev);
	ev.ctr_t_s = c.t;
	ev.ctr_host = host;
	ev.ctr_nand = nand;
	ev.n_ctr = c.in.n;
	sweep_ev("counters", &c, &ev, 1);
	free(host);
	free(nand);
	free_curve(&c);
}

/* A cache, native writing, then erase-bound, sampled every 0.25 s over
 * ten minutes: the curve binned to a second is read too. */
static void test_cache_native_erase(void **state)
{
	static const struct seg s[] = {
		{ 3e9, 600, 0.02, 0, 0, 0, 0 },
		{ 1e9, 900, 0.04, 0, 0, 0, 0 },
		{ 0.5e9, 900, 0.04, 0, 0, 0, 0 },
	};
	struct curve c;

	(void)state;
	make_curve(&c, 0.25, s, COUNT(s));
	sweep("cache, native, erase-bound", &c);
	free_curve(&c);
}

/* A steady cache, then native writing with a comb's stalls. */
static void test_comb(void **state)
{
	static const struct seg s[] = {
		{ 3e9, 200, 0.02, 0, 0, 0, 0 },
		{ 1.2e9, 1000, 0.03, 10, 3, 0.2, 0 },
	};
	struct curve c;

	(void)state;
	make_curve(&c, 1, s, COUNT(s));
	sweep("comb", &c);
	free_curve(&c);
}

/* A DRAM-less drive's journal stalls aliased into the samples: every
 * other one near zero, in the cache and after it (the segmentation reads
 * the block means too). */
static void test_dramless_comb(void **state)
{
	static const struct seg s[] = {
		{ 3e9, 300, 0.05, 2, 1, 0.1, 0 },
		{ 1.2e9, 900, 0.05, 2, 1, 0.1, 0 },
	};
	struct curve c;

	(void)state;
	make_curve(&c, 1, s, COUNT(s));
	sweep("DRAM-less comb", &c);
	free_curve(&c);
}

/* A cache of two samples: a bound, not a phase. */
static void test_short_cache(void **state)
{
	static const struct seg s[] = {
		{ 3e9, 2, 0.01, 0, 0, 0, 0 },
		{ 1e9, 800, 0.05, 0, 0, 0, 0 },
	};
	struct curve c;

	(void)state;
	make_curve(&c, 1, s, COUNT(s));
	sweep("short cache", &c);
	free_curve(&c);
}

static void test_flat(void **state)
{
	static const struct seg s[] = { { 1e9, 300, 0.02, 0, 0, 0, 0 } };
	struct curve c;

	(void)state;
	make_curve(&c, 1, s, COUNT(s));
	sweep("flat", &c);
	free_curve(&c);
}

/* A cache, native writing and a long decay (the onset refined back). */
static void test_decay(void **state)
{
	static const struct seg s[] = {
		{ 2.5e9, 300, 0.02, 0, 0, 0, 0 },
		{ 1e9, 600, 0.03, 0, 0, 0, 0 },
		{ 1e9, 1500, 0.03, 0, 0, 0, 0.3e9 },
	};
	struct curve c;

	(void)state;
	make_curve(&c, 0.5, s, COUNT(s));
	sweep("decay", &c);
	free_curve(&c);
}

/* A split needs room for one more block: without it nothing is written
 * (the array is exactly as long as its room, for ASan to see). */
static void test_split_refused_when_full(void **state)
{
	struct block *b = malloc(3 * sizeof(*b));
	size_t nb = 3, je;

	(void)state;
	assert_non_null(b);
	memset(b, 0, 3 * sizeof(*b));
	for (size_t j = 0; j < 3; j++) {
		b[j].i0 = 10 * j;
		b[j].i1 = 10 * (j + 1);
		b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
	}
	assert_int_equal(slc__split_block(b, &nb, 3, 1, 15), 0);
	assert_int_equal(nb, 3);
	assert_int_equal(b[1].i0, 10);
	assert_int_equal(b[1].i1, 20);
	je = slc__erase_bound_from(b, &nb, 3, 0, 3, 15);
	assert_int_equal(je, 3);
	assert_int_equal(nb, 3);
	assert_int_equal(b[1].kind, SLC_PHASE_DIRECT_TO_TLC);
	assert_int_equal(b[2].kind, SLC_PHASE_ERASE_BOUND);
	/* with room, the split is made */
	b = realloc(b, 4 * sizeof(*b));
	assert_non_null(b);
	je = slc__erase_bound_from(b, &nb, 4, 0, 3, 15);
	assert_int_equal(je, 4);
	assert_int_equal(nb, 4);
	assert_int_equal(b[1].i1, 15);
	assert_int_equal(b[2].i0, 15);
	assert_int_equal(b[2].kind, SLC_PHASE_ERASE_BOUND);
	free(b);
}

/* Blocks [0, e[0]), [e[0], e[1]), ... of the given kinds, in an array of
 * exactly @cap (at least @nb) blocks: a write past it is ASan's. */
static struct block *make_blocks(const size_t *e, const int *kind, size_t nb, size_t cap)
{
	struct block *b = calloc(cap, sizeof(*b));

	assert_non_null(b);
	for (size_t j = 0; j < nb; j++) {
		b[j].i0 = j ? e[j - 1] : 0;
		b[j].i1 = e[j];
		b[j].kind = kind[j];
		b[j].tier = kind[j] == SLC_PHASE_SLC_CACHE;
	}
	return b;
}

/*
 * The passes that split, on blocks whose split they want to make, in an
 * array without room and then with room for one more: without room no
 * block is added and nothing is written past the array, with room the
 * split is made once.
 */
static void test_passes_without_room(void **state)
{
	/* a steady cache whose end is toothed (one sample in three at its
	 * speed), then native writing with a small lasting step */
	static const struct seg s[] = {
		{ 3e9, 400, 0.01, 0, 0, 0, 0 },
		{ 3e9, 150, 0.01, 3, 2, 0.3, 0 },
		{ 1e9, 1200, 0.02, 0, 0, 0, 0 },
		{ 0.9e9, 1200, 0.02, 0, 0, 0, 0 },
	};
	static const size_t e[] = { 400, 2950 }, e2[] = { 550, 2950 };
	static const int kind[] = { SLC_PHASE_SLC_CACHE, SLC_PHASE_DIRECT_TO_TLC };
	struct curve c;
	struct trace tr;
	struct block *b;
	double *tmp, fall;
	size_t nb, at;

	(void)state;
	make_curve(&c, 0.5, s, COUNT(s));
	memset(&tr, 0, sizeof(tr));
	assert_int_equal(slc__load_trace(&tr, &c.in), 0);
	tmp = malloc(c.in.n * sizeof(*tmp));
	assert_non_null(tmp);
	for (size_t room = 0; room <= 1; room++) {
		/* the teeth extend the cache into the native block */
		nb = 2;
		b = make_blocks(e, kind, nb, nb + room);
		slc__extend_cache_teeth(&tr, b, &nb, 2 + room, tmp);
		assert_int_equal(nb, 2 + room);
		if (room) {
			assert_true(b[1].i1 > 400 && b[1].i1 < 600);
			assert_int_equal(b[1].kind, SLC_PHASE_SLC_CACHE);
		} else {
			assert_int_equal(b[1].i0, 400);
		}
		free(b);
		/* the small step splits the native block after the teeth */
		nb = 2;
		b = make_blocks(e2, kind, nb, nb + room);
		assert_int_equal(slc__mark_small_step(&tr, b, &nb, 2 + room, tmp, 0, 0, &at, &fall), 0);
		assert_int_equal(nb, 2 + room);
		if (room) {
			assert_true(b[2].i0 > 1600 && b[2].i0 < 1800);
			assert_int_equal(at, b[2].i0);
			assert_int_equal(b[2].step, 1);
		} else {
			/* no room for a level of its own: nothing marked */
			assert_int_equal(at, 0);
			assert_int_equal(b[1].step, 0);
		}
		free(b);
	}
	free(tmp);
	slc__free_trace(&tr);
	free_curve(&c);
}

/*
 * Curves that make the passes split: a toothed cache end (the teeth
 * extend the cache), a small lasting step, a long decay (its onset
 * refined), sampled finer than a second or not (the binned curve read
 * too).  Read without a write past the block array (ASan), the phases
 * covering each curve.
 */
static void test_many_splits(void **state)
{
	static const struct seg step[] = {
		{ 3e9, 400, 0.01, 0, 0, 0, 0 },
		{ 3e9, 150, 0.01, 3, 2, 0.3, 0 },
		{ 1e9, 1200, 0.02, 0, 0, 0, 0 },
		{ 0.9e9, 1200, 0.02, 0, 0, 0, 0 },
	};
	static const struct seg decay[] = {
		{ 3e9, 400, 0.01, 0, 0, 0, 0 },
		{ 3e9, 150, 0.01, 3, 2, 0.3, 0 },
		{ 1e9, 800, 0.02, 0, 0, 0, 0 },
		{ 1e9, 1500, 0.02, 0, 0, 0, 0.3e9 },
	};
	static const struct seg stalls[] = {
		{ 3e9, 2, 0.01, 0, 0, 0, 0 },
		{ 2.2e9, 500, 0.01, 0, 0, 0, 0 },
		{ 2.2e9, 300, 0.01, 3, 1, 0.3, 0 },
		{ 0.2e9, 5, 0.02, 0, 0, 0, 0 },
		{ 1e9, 600, 0.03, 0, 0, 0, 0 },
		{ 0.9e9, 600, 0.03, 0, 0, 0, 0 },
		{ 0.9e9, 1000, 0.03, 40, 2, 0.1, 0.3e9 },
	};
	const struct {
		const struct seg *s;
		size_t k;
		double dt;
	} cs[] = {
		{ step, COUNT(step), 0.5 }, { step, COUNT(step), 0.25 },
		{ decay, COUNT(decay), 0.5 }, { decay, COUNT(decay), 0.25 },
		{ stalls, COUNT(stalls), 0.2 },
	};

	(void)state;
	live = 0;
	for (size_t i = 0; i < COUNT(cs); i++) {
		struct curve c;
		struct slc_analysis a;

		make_curve(&c, cs[i].dt, cs[i].s, cs[i].k);
		assert_int_equal(slc_analyze(&a, &c.in, NULL), 0);
		check_phases(&a, &c);
		assert_true(a.n_phases >= 3);
		slc_analysis_free(&a);
		assert_int_equal(live, 0);
		free_curve(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_refused_when_full),
		cmocka_unit_test(test_passes_without_room),
		cmocka_unit_test(test_many_splits),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_short_cache),
		cmocka_unit_test(test_comb),
		cmocka_unit_test(test_dramless_comb),
		cmocka_unit_test(test_cache_native_erase),
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
