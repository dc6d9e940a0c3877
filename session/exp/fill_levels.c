// SPDX-License-Identifier: MIT
/*
 * The fill-levels plan: TRIM; for 25, 50, 75 and 90% of the capacity, a
 * sequential fill to that level, a settle and a 4 KiB QD4 random burst in
 * the space left; then TRIM everything and burst again.  Dynamic caches
 * shrink as the drive fills: the result is the cache at each level.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_fill_levels(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	static const unsigned pct[] = { 25, 50, 75, 90 };
	struct slc_step *st;

	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	for (size_t i = 0; i < 4; i++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "fill_to_%u%%", pct[i]);
		slc_plan_add_job(p, nm, SLC_ROLE_FILL_TO, pct[i], SLC_JOB_SEQ_WRITE, o, 0, slc__no_size);
		st = &p->step[p->n - 1];
		/* from the previous level to this one */
		st->offset.capacity_multiple = i ? pct[i - 1] / 100.0 : 0;
		st->range.capacity_multiple = (pct[i] - (i ? pct[i - 1] : 0)) / 100.0;
		st->bytes = st->range;
		if (!i) st->offset.capacity_multiple = 0;
		/* let the drive settle (fold its cache) as after a real copy */
		snprintf(nm, sizeof(nm), "settle_%u%%", pct[i]);
		slc_plan_add_step(p, nm, SLC_STEP_IDLE, SLC_ROLE_SETTLE, pct[i])->wait_ns = o->trim_wait_ns;
		snprintf(nm, sizeof(nm), "burst_at_%u%%", pct[i]);
		slc_plan_add_job(p, nm, SLC_ROLE_LEVEL_BURST, pct[i], SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
		st = &p->step[p->n - 1];
		st->job.queue_depth = 4;
		st->offset.capacity_multiple = pct[i] / 100.0;
		st->range.capacity_multiple = (100 - pct[i]) / 100.0;
	}
	slc_plan_add_trim(p, "trim_all", o);
	slc_plan_add_job(p, "burst_after_trim", SLC_ROLE_LEVEL_BURST, 0, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	p->step[p->n - 1].job.queue_depth = 4;
	return 0;
}

/* The result: the bursts in order.  at_least[i] says burst i ended inside
 * its first samples still at cache speed, so its cache is the lower bound
 * the analysis found: such a burst did find a cache, never "none". */
struct levels {
	size_t n;
	struct slc_fill_level lv[16];
	int at_least[16];
};

static int analyze(const struct slc_session *x, void *res)
{
	struct levels *r = res;

	for (size_t i = 0; i < x->n && r->n < 16; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const struct slc_analysis *a = &x->a[i];
		const char *st = s->params.step ? s->params.step : "";
		int at = s->params.role_arg > 0;
		int bound = !a->has_cache && a->model.cache_bound && isfinite(a->model.cache_min_bytes);
		if (s->params.role != SLC_ROLE_LEVEL_BURST)
			continue;
		r->at_least[r->n] = bound;
		r->lv[r->n++] = (struct slc_fill_level){
			.step = st, .fill_pct = (int)s->params.role_arg, .after_trim = !at,
			.cache_bytes = a->has_cache ? a->cache_bytes : bound ? a->model.cache_min_bytes : 0,
			.mean_bps = slc__seg_write_bps(s),
		};
	}
	return r->n > 0;
}

int slc_session_fill_levels(const struct slc_session *x, struct slc_fill_level *out, size_t max)
{
	const struct levels *r = slc__exp_result(x, &slc__exp_fill_levels);
	size_t n = 0;

	for (; r && n < r->n && n < max; n++)
		out[n] = r->lv[n];
	return (int)n;
}

static void print(FILE *f, const void *res, enum slc_unit_system u)
{
	const struct levels *r = res;
	char a[32];

	for (size_t i = 0; i < r->n; i++) {
		char pct[16];
		snprintf(pct, sizeof(pct), "%d%%", r->lv[i].fill_pct);
		fprintf(f, "%s %s %s%s;", i ? "" : "\ncache by fill level:", r->lv[i].after_trim ? "after TRIM" : pct,
			r->at_least[i] ? "at least " : "",
			r->lv[i].cache_bytes > 0 ? slc_format_bytes(a, sizeof(a), r->lv[i].cache_bytes, u) : "none");
	}
	fprintf(f, "\n");
}

static void json(json_t *doc, const void *res)
{
	const struct levels *r = res;
	json_t *fl = json_array();

	for (size_t i = 0; i < r->n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "step", json_string(r->lv[i].step));
		json_object_set_new(o, "fill_pct", json_integer(r->lv[i].fill_pct));
		json_object_set_new(o, "after_trim", json_boolean(r->lv[i].after_trim));
		json_object_set_new(o, "cache_bytes", json_real(r->lv[i].cache_bytes));
		json_object_set_new(o, "cache_at_least", json_boolean(r->at_least[i]));
		json_object_set_new(o, "mean_bps", slc__jnum(r->lv[i].mean_bps));
		json_array_append_new(fl, o);
	}
	json_object_set_new(doc, "fill_levels", fl);
}

static int draw(const char *path, enum slc_figure_kind kind, const struct slc_session *x, size_t nx,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	const struct levels *r = slc__exp_result(x, &slc__exp_fill_levels);
	double cache[16], speed[16];
	char names[16][32], title[256];
	const char *g[16];
	struct slc_bar_panel p[2];
	struct slc_bar_chart c;

	(void)kind; (void)nx;     /* the registry's signature: one drive, one kind */
	if (!r)
		return slc_errf(err, errlen, -EINVAL, "%s has no bursts at fill levels (run --plan fill-levels)", x->in->source);
	for (size_t i = 0; i < r->n; i++) {
		if (r->lv[i].after_trim) snprintf(names[i], sizeof(names[i]), "after TRIM");
		else snprintf(names[i], sizeof(names[i]), "%d%% full", r->lv[i].fill_pct);
		g[i] = names[i];
		cache[i] = r->lv[i].cache_bytes;
		speed[i] = r->lv[i].mean_bps;
	}
	p[0] = (struct slc_bar_panel){ FIG_SIZE_LABEL(o, "SLC cache found"), FIG_SIZE_DIV(o), cache };
	p[1] = (struct slc_bar_panel){ FIG_RATE_LABEL(o, "burst speed"), FIG_RATE_DIV(o), speed };
	c = (struct slc_bar_chart){ .title = slc__fig_title(title, sizeof(title), x, o, "cache and speed against fill level"),
				    .subtitle = "a random-write burst after each sequential fill, and once more after a TRIM of everything",
				    .groups = g, .n_groups = r->n, .panels = p, .n_panels = 2 };
	return slc__fig_bars(path, &c, o, err, errlen);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_FILL_LEVELS, "fill-levels", "fill-levels", "Cache and burst speed against fill level", 1, 0, draw },
};

const struct slc__experiment slc__exp_fill_levels = {
	.name = "fill-levels",
	.summary = "a random burst at 25/50/75/90% full and after a TRIM: cache by fill",
	.build = build_fill_levels,
	.result_size = sizeof(struct levels),
	.analyze = analyze,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
