// SPDX-License-Identifier: MIT
/*
 * The lab plan: the lab methodology in one run.  TRIM; a sequential fill;
 * TRIM; the random write curve; idle; a burst (recovery after idle); TRIM
 * of everything; a burst (recovery after TRIM).  The curves carry the
 * phases; the result is each later curve's recovery against the main one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_lab(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "seq_fill", SLC_ROLE_FILL, 0, SLC_JOB_SEQ_WRITE, o, 0, o->seq_bytes);
	slc_plan_add_trim(p, "trim_before_rand", o);
	slc_plan_add_job(p, "rand_curve", SLC_ROLE_CURVE, 0, SLC_JOB_RAND_WRITE, o, o->rand_ns, o->rand_bytes);
	slc_plan_add_step(p, "idle", SLC_STEP_IDLE, SLC_ROLE_IDLE, 0)->wait_ns = o->idle_ns;
	slc_plan_add_job(p, "idle_burst", SLC_ROLE_IDLE_BURST, 0, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	slc_plan_add_trim(p, "trim_full", o);
	slc_plan_add_job(p, "trim_burst", SLC_ROLE_TRIM_BURST, 0, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	return 0;
}

/* The result: every analysed segment from the main curve on, read against
 * it (slc_recovery): the main curve itself is the fresh drive.  The
 * console, phases.json, the report's headline, the recovery figure and the
 * lab database all read these, so they state one fraction. */
struct recoveries {
	long ref;                     /* the main curve (slc_session_pick) */
	size_t n;                     /* the session's analysed segments */
	unsigned char *has;
	struct slc_recovery *r;
};

static int analyze(const struct slc_session *x, void *res)
{
	struct recoveries *r = res;
	int any = 0;

	r->ref = x->n ? slc_session_pick(x, 0) : -1;
	if (r->ref < 0)
		return 0;
	r->has = calloc(x->n, sizeof(*r->has));
	r->r = calloc(x->n, sizeof(*r->r));
	if (!r->has || !r->r)
		return -ENOMEM;
	r->n = x->n;
	for (size_t i = (size_t)r->ref; i < x->n; i++)
		if (!slc_recovery(&r->r[i], &x->a[r->ref], &x->a[i]))
			any = r->has[i] = 1;
	return any;
}

static void free_result(void *res)
{
	struct recoveries *r = res;

	free(r->has);
	free(r->r);
}

int slc_session_recovery(const struct slc_session *x, size_t i, struct slc_recovery *out)
{
	const struct recoveries *r = slc__exp_result(x, &slc__exp_lab);

	if (!r || i >= r->n || !r->has[i])
		return -ENOENT;
	*out = r->r[i];
	return 0;
}

static int draw(const char *path, enum slc_figure_kind k, const struct slc_session *xs, size_t n,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	(void)k; (void)n;
	return slc_figure_recovery(path, xs, o, err, errlen);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_RECOVERY, "recovery", "recovery",
	  "Recovery: the cache and burst speed of the fresh drive, after idle, after TRIM", 1, 0, draw },
};

const struct slc__experiment slc__exp_lab = {
	.name = "lab",
	.summary = "fill, 2 h random curve, recovery after idle and after TRIM",
	.build = build_lab,
	.result_size = sizeof(struct recoveries),
	.analyze = analyze,
	.free_result = free_result,
	.figs = figs,
	.n_figs = 1,
};
