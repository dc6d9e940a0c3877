// SPDX-License-Identifier: MIT
/*
 * The compress plan: TRIM; a sequential burst of incompressible data;
 * TRIM; the same burst of repeating data.  A compressing controller
 * writes the second much faster: the result is the two speeds and their
 * ratio.
 */
#include <errno.h>
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

/* The result: the two bursts' mean speeds and their ratio. */
struct compress {
	double random_bps, repeating_bps, ratio;
};

static int analyze(const struct slc_session *x, void *res)
{
	struct compress *r = res;

	r->random_bps = r->repeating_bps = NAN;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		if (s->params.role == SLC_ROLE_DATA_RANDOM) r->random_bps = slc__seg_write_bps(s);
		if (s->params.role == SLC_ROLE_DATA_REPEAT) r->repeating_bps = slc__seg_write_bps(s);
	}
	r->ratio = r->repeating_bps / r->random_bps;
	return isfinite(r->random_bps) && isfinite(r->repeating_bps);
}

int slc_session_compressibility(const struct slc_session *x, double *random_bps, double *repeating_bps)
{
	const struct compress *r = slc__exp_result(x, &slc__exp_compress);

	*random_bps = r ? r->random_bps : NAN;
	*repeating_bps = r ? r->repeating_bps : NAN;
	return r != NULL;
}

static void print(FILE *f, const void *res, enum slc_unit_system u)
{
	const struct compress *r = res;
	char a[32], b[32];

	fprintf(f, "\ncompressibility: random data %s, repeating data %s: %.2fx\n",
		slc_format_rate(a, sizeof(a), r->random_bps, u), slc_format_rate(b, sizeof(b), r->repeating_bps, u),
		r->ratio);
}

static void json(json_t *doc, const void *res)
{
	const struct compress *r = res;
	json_t *c = json_object();

	json_object_set_new(c, "random_bps", json_real(r->random_bps));
	json_object_set_new(c, "repeating_bps", json_real(r->repeating_bps));
	json_object_set_new(c, "ratio", json_real(r->ratio));
	json_object_set_new(doc, "compressibility", c);
}

static int draw(const char *path, enum slc_figure_kind kind, const struct slc_session *x, size_t nx,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	const struct compress *r = slc__exp_result(x, &slc__exp_compress);
	const char *g[2] = { "incompressible (random) data", "repeating data" };
	double v[2];
	char title[256];
	struct slc_bar_panel p;
	struct slc_bar_chart c;

	(void)kind; (void)nx;     /* the registry's signature: one drive, one kind */
	if (!r)
		return slc_errf(err, errlen, -EINVAL, "%s has no bursts of random and repeating data (run --plan compress)",
				x->in->source);
	v[0] = r->random_bps;
	v[1] = r->repeating_bps;
	p = (struct slc_bar_panel){ FIG_RATE_LABEL(o, "mean write speed"), FIG_RATE_DIV(o), v };
	c = (struct slc_bar_chart){ .title = slc__fig_title(title, sizeof(title), x, o, "compressible against random data"),
				    .subtitle = "the same burst twice: a controller that compresses writes repeating data faster",
				    .groups = g, .n_groups = 2, .panels = &p, .n_panels = 1 };
	return slc__fig_bars(path, &c, o, err, errlen);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_COMPRESS, "compress", "compress", "Incompressible against repeating data", 1, 0, draw },
};

const struct slc__experiment slc__exp_compress = {
	.name = "compress",
	.summary = "the same burst of incompressible and of repeating data",
	.build = build_compress,
	.result_size = sizeof(struct compress),
	.analyze = analyze,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
