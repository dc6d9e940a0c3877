// SPDX-License-Identifier: MIT
/*
 * docs/plans.md's table of plans is the registry's: the test prints it with
 * slc_plans_markdown() and finds it, byte for byte, between the page's
 * markers, so a plan added, renamed or reworded in its module fails here
 * until the page says the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slcscope/core.h"
#include "slcscope/session.h"

#define BEGIN "<!-- plans: the registry's table (slc_plans_markdown) -->\n"
#define END "<!-- end of the registry's table -->"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void test_plans_doc_matches_registry(void **state)
{
	char *page = slurp(SOURCE_DIR "/docs/plans.md"), *table = NULL, *a, *b;
	size_t len = 0;
	FILE *m = open_memstream(&table, &len);

	(void)state;
	assert_non_null(page);
	assert_non_null(m);
	slc_plans_markdown(m);
	fclose(m);
	a = strstr(page, BEGIN);
	assert_non_null(a);
	a += strlen(BEGIN);
	b = strstr(a, END);
	assert_non_null(b);
	if ((size_t)(b - a) != len || memcmp(a, table, len)) {
		fprintf(stderr, "docs/plans.md differs from the registry; it should read:\n%s", table);
		fail();
	}
	free(page);
	free(table);
}

static void test_every_plan_builds(void **state)
{
	struct slc_plan_opts o;
	struct slc_plan *p = malloc(sizeof(*p));
	char err[256];
	const char *name;

	(void)state;
	assert_non_null(p);
	slc_plan_opts_default(&o);
	for (size_t i = 0; (name = slc_plan_name(i, NULL)); i++) {
		assert_int_equal(slc_plan_build(p, name, &o, err, sizeof(err)), 0);
		assert_string_equal(p->name, name);
		assert_true(p->n > 0);
	}
	assert_int_not_equal(slc_plan_build(p, "no-such-plan", &o, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "lab"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plans_doc_matches_registry),
		cmocka_unit_test(test_every_plan_builds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
