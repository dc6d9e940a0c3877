// SPDX-License-Identifier: MIT
/*
 * The compress plan: TRIM; a sequential burst of incompressible data;
 * TRIM; the same burst of repeating data.  A compressing controller
 * writes the second much faster: the result is the two speeds and their
 * ratio.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_compress(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "burst_random_data", SLC_ROLE_DATA_RANDOM, 0, SLC_JOB_SEQ_WRITE, o, o->burst_ns, slc__no_size);
	slc_plan_add_trim(p, "trim_between", o);
	slc_plan_add_job(p, "burst_repeating_data", SLC_ROLE_DATA_REPEAT, 0, SLC_JOB_SEQ_WRITE, o, o->burst_ns, slc__no_size);
	p->step[p->n - 1].job.data = SLC_DATA_REPEATING;
	return 0;
}

int slc_session_compressibility(const struct slc_session *x, double *random_bps, double *repeating_bps)
{
	*random_bps = *repeating_bps = NAN;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		if (s->params.role == SLC_ROLE_DATA_RANDOM) *random_bps = slc__seg_write_bps(s);
		if (s->params.role == SLC_ROLE_DATA_REPEAT) *repeating_bps = slc__seg_write_bps(s);
	}
	return isfinite(*random_bps) && isfinite(*repeating_bps);
}

static void print(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	double rnd, rep;
	char a[32], b[32];

	if (slc_session_compressibility(x, &rnd, &rep))
		fprintf(f, "\ncompressibility: random data %s, repeating data %s: %.2fx\n",
			slc_format_rate(a, sizeof(a), rnd, u), slc_format_rate(b, sizeof(b), rep, u), rep / rnd);
}

static void json(json_t *doc, const struct slc_session *x)
{
	double rnd, rep;
	json_t *c;

	if (!slc_session_compressibility(x, &rnd, &rep))
		return;
	c = json_object();
	json_object_set_new(c, "random_bps", json_real(rnd));
	json_object_set_new(c, "repeating_bps", json_real(rep));
	json_object_set_new(c, "ratio", json_real(rep / rnd));
	json_object_set_new(doc, "compressibility", c);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_COMPRESS, "compress", "compress", "Incompressible against repeating data", 1, 0, slc__figure_compress },
};

const struct slc__experiment slc__exp_compress = {
	.name = "compress",
	.summary = "the same burst of incompressible and of repeating data",
	.build = build_compress,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
