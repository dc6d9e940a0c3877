// SPDX-License-Identifier: MIT
/*
 * Unit tests of the phase model's parameters: the defaults, a parameter
 * file (one value changed, bad lines refused with their line number), and
 * a changed parameter changing what the model reads.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/analysis.h"

/* A parameter file holding @text; its path in @path. */
static void write_file(char *path, size_t len, const char *text)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, len, "%s/model_params_XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Load @text over the defaults into @p; the return code, the reason in @err. */
static int load_text(struct slc_model_params *p, const char *text, char *err, size_t errlen)
{
	char path[256];
	int rc;

	slc_model_params_default(p);
	write_file(path, sizeof(path), text);
	err[0] = 0;
	rc = slc_model_params_load(p, path, err, errlen);
	unlink(path);
	return rc;
}

static void test_defaults(void **state)
{
	struct slc_model_params p, q;
	size_t n = slc_model_params_count();
	char err[256];

	(void)state;
	slc_model_params_default(&p);
	assert_true(p.delta_same == 0.12);
	assert_true(p.prior_cache == 0.8);
	assert_int_equal(p.tiers_max, 3);
	assert_true(p.cache_native.hi == 1.0 / (1 + 0.15));
	/* every field has a name: the names' offsets cover the struct once */
	assert_int_equal(sizeof(double), sizeof(size_t));
	assert_int_equal(n * sizeof(double), sizeof(p));
	for (size_t i = 0; i < n; i++) {
		double v;
		const char *name = slc_model_param_name(i, &p, &v);
		char text[64];

		assert_non_null(name);
		assert_true(isfinite(v));
		/* the name names the field, and its default reads back */
		snprintf(text, sizeof(text), "%.17g", v);
		q = p;
		assert_int_equal(slc_model_params_set(&q, name, text, err, sizeof(err)), 0);
		assert_memory_equal(&q, &p, sizeof(p));
		for (size_t j = 0; j < i; j++) assert_string_not_equal(slc_model_param_name(j, NULL, NULL), name);
	}
	assert_null(slc_model_param_name(n, &p, NULL));
	assert_string_equal(slc_model_param_at(offsetof(struct slc_model_params, prior_cache)), "prior_cache");
	assert_string_equal(slc_model_param_at(offsetof(struct slc_model_params, tier.sd)), "tier_sd");
	/* a file of comments and blank lines changes nothing */
	assert_int_equal(load_text(&q, "# nothing\n\n   \t\n# delta_same = 0.5\n", err, sizeof(err)), 0);
	assert_memory_equal(&q, &p, sizeof(p));
}

static void test_override_one(void **state)
{
	struct slc_model_params p, q;
	char err[256];

	(void)state;
	slc_model_params_default(&p);
	assert_int_equal(load_text(&q, "# the cache must be 30% faster\n  delta_cache =  0.3  # comment\n", err,
				   sizeof(err)), 0);
	assert_true(q.delta_cache == 0.3);
	q.delta_cache = p.delta_cache;
	assert_memory_equal(&q, &p, sizeof(p));
	assert_int_equal(load_text(&q, "tiers_max = 2\ntier_lo=0.5\n", err, sizeof(err)), 0);
	assert_int_equal(q.tiers_max, 2);
	assert_true(q.tier.lo == 0.5);
	q.tiers_max = p.tiers_max;
	q.tier.lo = p.tier.lo;
	assert_memory_equal(&q, &p, sizeof(p));
}

/* @text is refused with -EINVAL, a reason naming line @line, and @p left as it was. */
static void refused(const char *text, unsigned line, const char *why)
{
	struct slc_model_params p, d;
	char err[256], at[32];

	slc_model_params_default(&d);
	assert_int_equal(load_text(&p, text, err, sizeof(err)), -EINVAL);
	snprintf(at, sizeof(at), ":%u: ", line);
	if (!strstr(err, at) || !strstr(err, why)) fail_msg("'%s' for %s", err, text);
	assert_null(strchr(err, '\n'));
	assert_memory_equal(&p, &d, sizeof(p));
}

static void test_bad_lines(void **state)
{
	struct slc_model_params p;
	char err[256];

	(void)state;
	refused("delta_same = 0.1\nno_such_thing = 1\n", 2, "unknown parameter 'no_such_thing'");
	refused("# a comment\n\nstep_t = nan\n", 3, "not a finite number");
	refused("step_t = inf\n", 1, "not a finite number");
	refused("step_t = 10x\n", 1, "not a finite number");
	refused("step_t = 10 5\n", 1, "not a finite number");
	refused("step_t =\n", 1, "not name = value");
	refused("step_t 10\n", 1, "not name = value");
	refused("prior_cache = 1.5\n", 1, "out of range");
	refused("delta_cache = -0.1\n", 1, "out of range");
	refused("tiers_max = 2.5\n", 1, "not a whole number");
	refused("tiers_max = 9\n", 1, "out of range");
	refused("rec_edge_side = 4\n", 1, "out of range");
	/* values the code reads together */
	assert_int_equal(load_text(&p, "edge_next = 9\n", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "edge_next"));
	/* a file that is not there */
	slc_model_params_default(&p);
	assert_int_equal(slc_model_params_load(&p, "/nonexistent/params.txt", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/params.txt"));
}

/* A cache at 2.1 GB/s for 300 s, then native writing at 0.7 of it. */
static int analyse(struct slc_analysis *a, const struct slc_model_params *mp)
{
	enum { N = 1500 };
	static double t[N], bps[N];
	struct slc_trace_in in = { .t_s = t, .bps = bps, .n = N };
	struct slc_phase_evidence ev;
	uint64_t r = 7;

	for (size_t i = 0; i < N; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		t[i] = (double)(i + 1);
		bps[i] = (i < 300 ? 2.1e9 : 1.47e9) * (1 + 0.02 * (((double)(r >> 11) / 9007199254740992.0) - 0.5));
	}
	slc_phase_evidence_init(&ev);
	ev.params = mp;
	return slc_analyze_ev(a, &in, NULL, &ev);
}

static void test_parameter_is_used(void **state)
{
	struct slc_model_params p;
	struct slc_analysis a;
	char err[256];

	(void)state;
	assert_int_equal(analyse(&a, NULL), 0);
	assert_int_equal(a.has_cache, 1);
	assert_true(fabs(a.cache_bytes - 300 * 2.1e9) < 0.01 * 300 * 2.1e9);
	assert_non_null(strstr(a.model.explain, "most drives have an SLC cache (prior_cache +1.4)"));
	slc_analysis_free(&a);
	/* the defaults given are the defaults */
	slc_model_params_default(&p);
	assert_int_equal(analyse(&a, &p), 0);
	assert_int_equal(a.has_cache, 1);
	slc_analysis_free(&a);
	/* a cache must now be 50% faster than what follows: 0.7 is native
	 * writing slowing down, not the end of a cache */
	assert_int_equal(load_text(&p, "delta_cache = 0.5\n", err, sizeof(err)), 0);
	assert_int_equal(analyse(&a, &p), 0);
	assert_int_equal(a.has_cache, 0);
	slc_analysis_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_override_one),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_parameter_is_used),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
