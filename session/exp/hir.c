// SPDX-License-Identifier: MIT
/*
 * The hir plan: SNIA PTS host idle recovery.  TRIM; saturate with a
 * random burst; for waits of 5, 10, 15, 25 and 50 s, rounds of 5 s of
 * 4 KiB random writes and the wait (one segment), then saturate again.
 * The result: the IOPS of the write windows per wait state.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_hir(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	static const unsigned waits_s[] = { 5, 10, 15, 25, 50 };

	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "saturate", SLC_ROLE_SATURATE, 0, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	for (size_t i = 0; i < 5; i++) {
		char nm[32];
		struct slc_step *st;
		snprintf(nm, sizeof(nm), "hir_wait_%us", waits_s[i]);
		slc_plan_add_job(p, nm, SLC_ROLE_HIR_ROUNDS, waits_s[i], SLC_JOB_RAND_WRITE, o, 5000000000ull, slc__no_size);
		st = &p->step[p->n - 1];
		st->kind = SLC_STEP_DUTY;
		st->wait_ns = waits_s[i] * 1000000000ull;
		st->rounds = o->hir_rounds ? o->hir_rounds : 360;
		snprintf(nm, sizeof(nm), "saturate_after_%us", waits_s[i]);
		slc_plan_add_job(p, nm, SLC_ROLE_SATURATE, waits_s[i], SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	}
	return 0;
}

int slc_session_hir(const struct slc_session *x, double *wait_s, double *iops, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < x->in->n_segments && n < max; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		double busy = 0;

		if (slc_workload_from_name(s->params.workload) != SLC_WL_RAND_WRITE_DUTY || !s->n_samples ||
		    !s->params.block_bytes || s->params.role != SLC_ROLE_HIR_ROUNDS)
			continue;
		/* the samples cover the write windows only: their time is the busy time */
		for (size_t k = 0; k < s->n_samples; k++)
			busy += s->interval_s[k];
		wait_s[n] = s->params.role_arg;
		iops[n] = busy > 0 ? (double)s->bytes_total[s->n_samples - 1] / s->params.block_bytes / busy : NAN;
		n++;
	}
	return (int)n;
}

static void print(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	double w[8], io[8];
	int n = slc_session_hir(x, w, io, 8);
	char a[32];

	(void)u;
	if (n <= 0)
		return;
	fprintf(f, "\nSNIA host idle recovery (IOPS of the 5 s write windows):");
	for (int i = 0; i < n; i++)
		fprintf(f, " wait %.0f s: %s;", w[i], slc_format_iops(a, sizeof(a), io[i]));
	fprintf(f, "\n");
}

static void json(json_t *doc, const struct slc_session *x)
{
	double w[8], io[8];
	int n = slc_session_hir(x, w, io, 8);
	json_t *arr;

	if (n <= 0)
		return;
	arr = json_array();
	for (int i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "wait_s", json_real(w[i]));
		json_object_set_new(o, "iops", slc__jnum(io[i]));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "host_idle_recovery", arr);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_HIR, "hir", "hir", "Host idle recovery: write speed per wait state", 1, 0, slc__figure_hir },
};

const struct slc__experiment slc__exp_hir = {
	.name = "hir",
	.summary = "SNIA PTS host idle recovery: write/wait rounds at five waits",
	.build = build_hir,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
