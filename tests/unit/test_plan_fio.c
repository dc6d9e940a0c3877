// SPDX-License-Identifier: MIT
/* The fio job of a plan: run's --hipri and --sqpoll reach each I/O job as
 * fio's hipri and sqthread_poll, and never a TRIM or idle section. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slcscope/session.h"

/* The job file of the lab plan on a 1 GiB block device with @io_poll. */
static char *job_file(unsigned io_poll, enum slc_target_kind kind)
{
	struct slc_plan_opts o;
	struct slc_plan *p = calloc(1, sizeof(*p));
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(p);
	assert_non_null(f);
	slc_plan_opts_default(&o);
	assert_int_equal(slc_plan_build(p, "lab", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_write_fio(f, p, "/dev/nvme0n1", kind, 1ull << 30, io_poll, NULL, err, sizeof(err)), 0);
	fclose(f);
	free(p);
	return text;
}

/* How many sections of @text have @line, and how many sections of each engine it has. */
static void count(const char *text, const char *line, int *with, int *jobs, int *others)
{
	char *copy = strdup(text), *save = NULL, *ln;
	int in_job = 0, has = 0, other = 0;

	*with = *jobs = *others = 0;
	for (ln = strtok_r(copy, "\n", &save);; ln = strtok_r(NULL, "\n", &save)) {
		if (!ln || (ln[0] == '[' && strcmp(ln, "[global]"))) {
			if (in_job) {
				*with += has;
				*jobs += !other;
				*others += other;
				assert_false(other && has);   /* never in a TRIM or idle section */
			}
			if (!ln) break;
			in_job = 1;
			has = other = 0;
			continue;
		}
		if (!strcmp(ln, "[global]")) { in_job = 0; continue; }
		if (!strncmp(ln, "ioengine=", 9)) other = 1;   /* TRIM and idle sections name their own */
		if (!strcmp(ln, line)) has = 1;
	}
	free(copy);
}

static void test_hipri_in_every_io_job(void **state)
{
	int with, jobs, others;
	char *t = job_file(SLC_TARGET_HIPRI, SLC_TARGET_BLOCKDEV);

	(void)state;
	count(t, "hipri=1", &with, &jobs, &others);
	assert_true(jobs >= 4 && others >= 3);
	assert_int_equal(with, jobs);
	assert_null(strstr(t, "sqthread_poll"));
	free(t);
}

static void test_sqpoll_and_none(void **state)
{
	int with, jobs, others;
	char *t = job_file(SLC_TARGET_HIPRI | SLC_TARGET_SQPOLL, SLC_TARGET_BLOCKDEV);

	(void)state;
	count(t, "sqthread_poll=1", &with, &jobs, &others);
	assert_int_equal(with, jobs);
	free(t);
	t = job_file(0, SLC_TARGET_BLOCKDEV);
	assert_null(strstr(t, "hipri"));
	assert_null(strstr(t, "sqthread_poll"));
	free(t);
	/* fio's null engine has no such options */
	t = job_file(SLC_TARGET_HIPRI, SLC_TARGET_NULL);
	assert_null(strstr(t, "hipri"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hipri_in_every_io_job),
		cmocka_unit_test(test_sqpoll_and_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
