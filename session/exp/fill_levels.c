// SPDX-License-Identifier: MIT
/*
 * The fill-levels plan: TRIM; for 25, 50, 75 and 90% of the capacity, a
 * sequential fill to that level, a settle and a 4 KiB QD4 random burst in
 * the space left; then TRIM everything and burst again.  Dynamic caches
 * shrink as the drive fills: the result is the cache at each level.
 */
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

/* The bursts in order; at_least[i] (when given) says the burst ended inside
 * its first samples still at cache speed, so its cache is the lower bound
 * the analysis found: such a burst did find a cache, never "none". */
static int levels(const struct slc_session *x, struct slc_fill_level *out, int *at_least, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n && n < max; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const struct slc_analysis *a = &x->a[i];
		const char *st = s->params.step ? s->params.step : "";
		int at = s->params.role_arg > 0;
		int bound = !a->has_cache && a->model.cache_bound && isfinite(a->model.cache_min_bytes);
		if (s->params.role != SLC_ROLE_LEVEL_BURST)
			continue;
		if (at_least)
			at_least[n] = bound;
		out[n++] = (struct slc_fill_level){
			.step = st, .fill_pct = (int)s->params.role_arg, .after_trim = !at,
			.cache_bytes = a->has_cache ? a->cache_bytes : bound ? a->model.cache_min_bytes : 0,
			.mean_bps = slc__seg_write_bps(s),
		};
	}
	return (int)n;
}

int slc_session_fill_levels(const struct slc_session *x, struct slc_fill_level *out, size_t max)
{
	return levels(x, out, NULL, max);
}

static void print(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	struct slc_fill_level lv[16];
	int least[16];
	int nl = levels(x, lv, least, 16);
	char a[32];

	for (int i = 0; i < nl; i++) {
		char pct[16];
		snprintf(pct, sizeof(pct), "%d%%", lv[i].fill_pct);
		fprintf(f, "%s %s %s%s;", i ? "" : "\ncache by fill level:", lv[i].after_trim ? "after TRIM" : pct,
			least[i] ? "at least " : "",
			lv[i].cache_bytes > 0 ? slc_format_bytes(a, sizeof(a), lv[i].cache_bytes, u) : "none");
	}
	if (nl > 0)
		fprintf(f, "\n");
}

static void json(json_t *doc, const struct slc_session *x)
{
	struct slc_fill_level lv[16];
	int least[16];
	int nl = levels(x, lv, least, 16);
	json_t *fl;

	if (nl <= 0)
		return;
	fl = json_array();
	for (int i = 0; i < nl; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "step", json_string(lv[i].step));
		json_object_set_new(o, "fill_pct", json_integer(lv[i].fill_pct));
		json_object_set_new(o, "after_trim", json_boolean(lv[i].after_trim));
		json_object_set_new(o, "cache_bytes", json_real(lv[i].cache_bytes));
		json_object_set_new(o, "cache_at_least", json_boolean(least[i]));
		json_object_set_new(o, "mean_bps", slc__jnum(lv[i].mean_bps));
		json_array_append_new(fl, o);
	}
	json_object_set_new(doc, "fill_levels", fl);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_FILL_LEVELS, "fill-levels", "fill-levels", "Cache and burst speed against fill level", 1, 0, slc__figure_fill_levels },
};

const struct slc__experiment slc__exp_fill_levels = {
	.name = "fill-levels",
	.summary = "a random burst at 25/50/75/90% full and after a TRIM: cache by fill",
	.build = build_fill_levels,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
