// SPDX-License-Identifier: MIT
/*
 * run_report: a run plan on a target and its report, with the public API
 * alone.
 *
 *   run_report TARGET PLAN INTERVAL TRACE.h5 DIR
 *
 * Does what `slcscope run TARGET --plan PLAN --interval INTERVAL -o
 * TRACE.h5 --report DIR` does with its defaults: opens the target, builds
 * the plan, runs it into the trace with the drive's identity and SMART
 * snapshots, then analyses the trace and writes the report directory
 * (phases.json, summary.md, graphs, index.html).  A block device is
 * refused: this example never destroys data.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "slcscope/session.h"

static int run(struct slc_target *t, const char *plan_name, uint64_t interval_ns, const char *trace)
{
	struct slc_plan_opts po;
	struct slc_plan plan;
	struct slc_run_opts ro = { .trace_path = trace, .probe = 1 };
	struct slc_job_result res;
	struct slc_run *r;
	char err[512];
	size_t failed;
	int rc;

	slc_plan_opts_default(&po);
	po.interval_ns = interval_ns;
	ro.interval_ns = interval_ns;
	ro.steady_after_bytes = 2 * slc_target_capacity(t);
	if ((rc = slc_plan_build(&plan, plan_name, &po, err, sizeof(err))) ||
	    (rc = slc_run_open(&r, t, &ro, err, sizeof(err)))) {
		fprintf(stderr, "run_report: %s\n", err);
		return rc;
	}
	rc = slc_run_execute(r, &plan, NULL, &res, &failed, err, sizeof(err));
	if (rc)
		fprintf(stderr, "run_report: step %s: %s\n", plan.step[failed].name, err);
	if (slc_run_close(r, err, sizeof(err)) && !rc) {
		fprintf(stderr, "run_report: %s\n", err);
		rc = -EIO;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct slc_target_opts to = { .seed = 1 };
	struct slc_session x = { 0 };
	struct slc_target *t;
	char err[512];
	uint64_t interval_ns;
	struct stat st;
	int rc;

	if (argc != 6) {
		fprintf(stderr, "usage: run_report TARGET PLAN INTERVAL TRACE.h5 DIR\n");
		return 2;
	}
	if (slc_parse_duration_ns(&interval_ns, argv[3], err, sizeof(err))) {
		fprintf(stderr, "run_report: %s: %s\n", argv[3], err);
		return 2;
	}
	if (stat(argv[1], &st) == 0 && S_ISBLK(st.st_mode)) {
		fprintf(stderr, "run_report: %s is a block device; use 'slcscope run --destructive'\n", argv[1]);
		return 2;
	}
	if (slc_target_open(&t, argv[1], &to, err, sizeof(err))) {
		fprintf(stderr, "run_report: %s\n", err);
		return 1;
	}
	rc = run(t, argv[2], interval_ns, argv[4]);
	slc_target_close(t);
	if (rc)
		return 1;
	if (slc_session_load(&x, argv[4], -1, NULL, err, sizeof(err)) ||
	    slc_report_write(argv[5], &x, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "run_report: %s\n", err);
		slc_session_free(&x);
		return 1;
	}
	slc_session_free(&x);
	printf("trace %s, report %s/index.html\n", argv[4], argv[5]);
	return 0;
}
