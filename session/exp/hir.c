// SPDX-License-Identifier: MIT
/*
 * The hir plan: SNIA PTS host idle recovery.  TRIM; saturate with a
 * random burst; for waits of 5, 10, 15, 25 and 50 s, rounds of 5 s of
 * 4 KiB random writes and the wait (one segment), then saturate again.
 * The result: the IOPS of the write windows per wait state.
 */
#include <errno.h>
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

/* The result: each wait state's mean IOPS of its write windows. */
struct hir {
	size_t n;
	double wait_s[16], iops[16];
};

static int analyze(const struct slc_session *x, void *res)
{
	struct hir *r = res;

	for (size_t i = 0; i < x->in->n_segments && r->n < 16; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		double busy = 0;

		if (slc_workload_from_name(s->params.workload) != SLC_WL_RAND_WRITE_DUTY || !s->n_samples ||
		    !s->params.block_bytes || s->params.role != SLC_ROLE_HIR_ROUNDS)
			continue;
		/* the samples cover the write windows only: their time is the busy time */
		for (size_t k = 0; k < s->n_samples; k++)
			busy += s->interval_s[k];
		r->wait_s[r->n] = s->params.role_arg;
		r->iops[r->n] = busy > 0 ? (double)s->bytes_total[s->n_samples - 1] / s->params.block_bytes / busy : NAN;
		r->n++;
	}
	return r->n > 0;
}

int slc_session_hir(const struct slc_session *x, double *wait_s, double *iops, size_t max)
{
	const struct hir *r = slc__exp_result(x, &slc__exp_hir);
	size_t n = 0;

	for (; r && n < r->n && n < max; n++) {
		wait_s[n] = r->wait_s[n];
		iops[n] = r->iops[n];
	}
	return (int)n;
}

static void print(FILE *f, const void *res, enum slc_unit_system u)
{
	const struct hir *r = res;
	char a[32];

	(void)u;
	fprintf(f, "\nSNIA host idle recovery (IOPS of the 5 s write windows):");
	for (size_t i = 0; i < r->n; i++)
		fprintf(f, " wait %.0f s: %s;", r->wait_s[i], slc_format_iops(a, sizeof(a), r->iops[i]));
	fprintf(f, "\n");
}

static void json(json_t *doc, const void *res)
{
	const struct hir *r = res;
	json_t *arr = json_array();

	for (size_t i = 0; i < r->n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "wait_s", json_real(r->wait_s[i]));
		json_object_set_new(o, "iops", slc__jnum(r->iops[i]));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "host_idle_recovery", arr);
}

static int draw(const char *path, enum slc_figure_kind kind, const struct slc_session *x, size_t nx,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	const struct hir *r = slc__exp_result(x, &slc__exp_hir);
	char names[16][32], title[256];
	const char *g[16];
	struct slc_bar_panel p;
	struct slc_bar_chart c;

	(void)kind; (void)nx;     /* the registry's signature: one drive, one kind */
	if (!r)
		return slc_errf(err, errlen, -EINVAL, "%s has no host idle recovery rounds (run --plan hir)", x->in->source);
	for (size_t i = 0; i < r->n; i++) {
		snprintf(names[i], sizeof(names[i]), "%.0f s waits", r->wait_s[i]);
		g[i] = names[i];
	}
	p = (struct slc_bar_panel){ "write speed in the 5 s windows (thousand IOPS)", 1000, r->iops };
	c = (struct slc_bar_chart){ .title = slc__fig_title(title, sizeof(title), x, o, "host idle recovery"),
				    .subtitle = "SNIA PTS host idle recovery: 5 s of writes, then each wait state's idle time, repeated",
				    .groups = g, .n_groups = r->n, .panels = &p, .n_panels = 1 };
	return slc__fig_bars(path, &c, o, err, errlen);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_HIR, "hir", "hir", "Host idle recovery: write speed per wait state", 1, 0, draw },
};

const struct slc__experiment slc__exp_hir = {
	.name = "hir",
	.summary = "SNIA PTS host idle recovery: write/wait rounds at five waits",
	.build = build_hir,
	.result_size = sizeof(struct hir),
	.analyze = analyze,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
