// SPDX-License-Identifier: MIT
/*
 * The idle-sweep plan: TRIM; a burst that uses the cache up; then for each
 * wait, idle and burst again.  Each burst finds the cache the idle time
 * gave back (the drive folded SLC into TLC meanwhile) and uses it up again.
 * The result (struct slc_idle_sweep): the cache found after each wait
 * against the fresh drive's, and the folding rate; every word, the
 * phases.json member and the figure read it, so they cannot disagree.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_idle_sweep(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	/* trim + saturating burst + (idle + burst) per wait must fit the plan */
	if (o->n_idle_sweep == 0 || 2 + 2 * o->n_idle_sweep > SLC_PLAN_MAX_STEPS)
		return slc_errf(err, errlen, -EINVAL, "the idle sweep takes 1 to %d waits",
				(SLC_PLAN_MAX_STEPS - 2) / 2);
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "saturate", SLC_ROLE_SATURATE, 0, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	for (size_t i = 0; i < o->n_idle_sweep; i++) {
		char name_buf[32];
		uint32_t wait_s = (uint32_t)(o->idle_sweep_ns[i] / 1000000000ull);
		snprintf(name_buf, sizeof(name_buf), "idle_%lus", (unsigned long)wait_s);
		slc_plan_add_step(p, name_buf, SLC_STEP_IDLE, SLC_ROLE_IDLE, wait_s)->wait_ns = o->idle_sweep_ns[i];
		snprintf(name_buf, sizeof(name_buf), "idle_burst_%lus", (unsigned long)wait_s);
		slc_plan_add_job(p, name_buf, SLC_ROLE_IDLE_BURST, wait_s, SLC_JOB_RAND_WRITE, o, o->burst_ns, slc__no_size);
	}
	return 0;
}

/* The cache a burst found: measured when its cache phase shows; when the
 * cache ran out inside the first samples (too short for the interval), the
 * model's lower bound, marked as one, never "none". */
static double burst_cache(const struct slc_analysis *a, int *at_least)
{
	*at_least = 0;
	if (a->has_cache)
		return a->cache_bytes;
	if (a->model.cache_bound && isfinite(a->model.cache_min_bytes)) {
		*at_least = 1;
		return a->model.cache_min_bytes;
	}
	return 0;
}

/* The folding rate: the slope through the origin of the cache found
 * against the wait, over the waits that did not bring the whole cache
 * back (90%).  A wait that did bring it back within t says the rate was at
 * least cache / t: a slope below that would contradict the points, so the
 * bound is the answer then, marked as one. */
static void fold_rate(struct slc_idle_sweep *r)
{
	double sxy = 0, sxx = 0, bound = 0;

	r->fold_bps = NAN;
	r->fold_at_least = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct slc_idle_point *p = &r->pt[i];
		if (p->all_back || p->at_least) {
			if (p->idle_s > 0 && p->cache_bytes / p->idle_s > bound)
				bound = p->cache_bytes / p->idle_s;
			continue;
		}
		sxy += p->idle_s * p->cache_bytes;
		sxx += p->idle_s * p->idle_s;
	}
	if (sxx > 0)
		r->fold_bps = sxy / sxx;
	if (bound > 0 && !(r->fold_bps >= bound)) {
		r->fold_bps = bound;
		r->fold_at_least = 1;
	}
}

static int analyze(const struct slc_session *x, void *res)
{
	struct slc_idle_sweep *r = res;
	size_t ref = SIZE_MAX;
	int fresh_at_least = 0;

	memset(r, 0, sizeof(*r));
	r->fresh_bytes = NAN;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_idle_point *p;
		if (slc_workload_from_name(s->params.workload) != SLC_WL_RAND_WRITE)
			continue;
		if (ref == SIZE_MAX) {
			ref = i;
			r->fresh_bytes = burst_cache(&x->a[i], &fresh_at_least);
			continue;
		}
		if (s->params.role != SLC_ROLE_IDLE_BURST || !(s->params.idle_before_s > 0) ||
		    r->n == sizeof(r->pt) / sizeof(r->pt[0]))
			continue;
		p = &r->pt[r->n++];
		p->segment = x->seg[i];
		p->idle_s = s->params.idle_before_s;
		p->cache_bytes = burst_cache(&x->a[i], &p->at_least);
		p->burst_bps = x->a[i].n_phases ? x->a[i].phases[0].mean_bps : NAN;
		p->cache_frac = r->fresh_bytes > 0 && !fresh_at_least ? p->cache_bytes / r->fresh_bytes : NAN;
		/* the same cache measured twice differs by a few percent: 90% and
		 * more is all of it back, and is worded so (never "104%"); more
		 * than the fresh measure is all of it, so the fraction stops at 1 */
		if (p->cache_frac > 1.0)
			p->cache_frac = 1.0;
		p->all_back = isfinite(p->cache_frac) && p->cache_frac >= 0.9;
	}
	fold_rate(r);
	return r->n > 0;
}

int slc_session_idle_sweep(const struct slc_session *x, struct slc_idle_sweep *r)
{
	const struct slc_idle_sweep *got = slc__exp_result(x, &slc__exp_idle_sweep);

	if (got) {
		*r = *got;
	} else {
		memset(r, 0, sizeof(*r));
		r->fresh_bytes = r->fold_bps = NAN;
	}
	return (int)r->n;
}

int slc_session_idle_recovery(const struct slc_session *x, double *idle_s, double *cache_bytes, size_t max,
			      double *fresh_bytes)
{
	struct slc_idle_sweep r;
	size_t n = 0;

	slc_session_idle_sweep(x, &r);
	for (; n < r.n && n < max; n++) {
		idle_s[n] = r.pt[n].idle_s;
		cache_bytes[n] = r.pt[n].cache_bytes;
	}
	*fresh_bytes = r.fresh_bytes;
	return (int)n;
}

double slc_idle_fold_rate_bps(const double *idle_s, const double *cache_bytes, size_t n, double fresh_bytes)
{
	struct slc_idle_sweep r = { .fresh_bytes = fresh_bytes };

	for (size_t i = 0; i < n && r.n < sizeof(r.pt) / sizeof(r.pt[0]); i++) {
		struct slc_idle_point *p = &r.pt[r.n++];
		p->idle_s = idle_s[i];
		p->cache_bytes = cache_bytes[i];
		p->all_back = isfinite(fresh_bytes) && fresh_bytes > 0 && cache_bytes[i] >= 0.9 * fresh_bytes;
	}
	fold_rate(&r);
	return r.fold_bps;
}

char *slc_idle_point_words(char *buf, size_t len, const struct slc_idle_point *p, enum slc_unit_system u)
{
	char a[32];

	slc_format_bytes(a, sizeof(a), p->cache_bytes, u);
	if (p->all_back)
		snprintf(buf, len, "all of the cache back (%s)", a);
	else if (p->at_least)
		snprintf(buf, len, "at least %s (ran out within the first samples)", a);
	else if (isfinite(p->cache_frac))
		snprintf(buf, len, "%s (%.0f%% of the fresh cache)", a, p->cache_frac * 100);
	else
		snprintf(buf, len, "%s", a);
	return buf;
}

static void print(FILE *f, const void *res, enum slc_unit_system u)
{
	const struct slc_idle_sweep *r = res;
	char a[32], b[32], w[160];

	/* one wait is the lab plan's recovery burst, which the curves say */
	if (r->n < 2)
		return;
	fprintf(f, "\nidle recovery (cache found after each wait):");
	for (size_t i = 0; i < r->n; i++)
		fprintf(f, " %s: %s;", slc_format_duration(a, sizeof(a), (uint64_t)(r->pt[i].idle_s * 1e9)),
			slc_idle_point_words(w, sizeof(w), &r->pt[i], u));
	if (isfinite(r->fold_bps))
		fprintf(f, "\n  folding %s%s (%s per minute)\n", r->fold_at_least ? "at least " : "about ",
			slc_format_rate(a, sizeof(a), r->fold_bps, u), slc_format_bytes(b, sizeof(b), r->fold_bps * 60, u));
	else
		fprintf(f, "\n  no folding rate: no wait gave part of the cache back\n");
}

static void json(json_t *doc, const void *res)
{
	const struct slc_idle_sweep *r = res;
	json_t *ir = json_object(), *pts = json_array();

	for (size_t i = 0; i < r->n; i++) {
		json_t *pt = json_object();
		json_object_set_new(pt, "idle_s", json_real(r->pt[i].idle_s));
		json_object_set_new(pt, "cache_bytes", json_real(r->pt[i].cache_bytes));
		json_object_set_new(pt, "cache_frac", slc__jnum(r->pt[i].cache_frac));
		json_object_set_new(pt, "cache_at_least", json_boolean(r->pt[i].at_least));
		json_object_set_new(pt, "all_back", json_boolean(r->pt[i].all_back));
		json_object_set_new(pt, "burst_bps", slc__jnum(r->pt[i].burst_bps));
		json_array_append_new(pts, pt);
	}
	json_object_set_new(ir, "fresh_cache_bytes", slc__jnum(r->fresh_bytes));
	json_object_set_new(ir, "fold_bps", slc__jnum(r->fold_bps));
	json_object_set_new(ir, "fold_at_least", json_boolean(r->fold_at_least));
	json_object_set_new(ir, "points", pts);
	json_object_set_new(doc, "idle_recovery", ir);
}

int slc_figure_idle_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
			     char *err, size_t errlen)
{
	const struct slc_idle_sweep *r = slc__exp_result(x, &slc__exp_idle_sweep);
	double t[16], c[16], fresh = r ? r->fresh_bytes : NAN, ref[2], rt[2];
	struct slc_plot_series sr[2];
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_layout lay;
	char title[512], w[256];
	size_t n = 0;
	int rc;

	for (; r && n < r->n && n < 16; n++) {
		t[n] = r->pt[n].idle_s;
		c[n] = r->pt[n].cache_bytes;
	}
	if (n < 2)
		return slc_errf(err, errlen, -EINVAL, "%s has fewer than two bursts after different idle times "
				"(run --plan idle-sweep)", x->in->source);
	sr[0] = (struct slc_plot_series){ .label = "cache found after the wait", .x = t, .y = c, .n = n,
					  .line_only = 1, .marker = SLC_MARK_CIRCLE };
	ref[0] = ref[1] = fresh;
	rt[0] = 0;
	rt[1] = t[n - 1];
	sr[1] = (struct slc_plot_series){ .label = "the fresh drive's cache", .x = rt, .y = ref, .n = 2, .line_only = 1,
					  .colour = SLC_COL_BLACK + 1 };
	snprintf(title, sizeof(title), "%s: idle recovery", o->title ? o->title : slc_session_drive_name(w, sizeof(w), x));
	sp.title = title;
	sp.subtitle = "SLC cache found by a burst after each idle wait (the burst before it used the cache up)";
	sp.xlabel = "idle time (seconds)";
	sp.ylabel = FIG_SIZE_LABEL(o, "cache recovered");
	sp.x_scale = 1;
	sp.y_scale = FIG_SIZE_DIV(o);
	sp.width = o->width;
	sp.theme = o->theme;
	sp.height = o->height;
	sp.series = sr;
	sp.n_series = isfinite(fresh) && fresh > 0 ? 2 : 1;
	sp.layout = &lay;
	if (!(rc = slc_plot_write(path, &sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	return rc;
}

static int draw(const char *path, enum slc_figure_kind k, const struct slc_session *xs, size_t n,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	(void)k; (void)n;
	return slc_figure_idle_recovery(path, xs, o, err, errlen);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_IDLE, "idle", "idle-recovery", "Cache recovered against idle time", 1, 0, draw },
};

const struct slc__experiment slc__exp_idle_sweep = {
	.name = "idle-sweep",
	.summary = "a saturating burst, then idle and burst again per wait: folding rate",
	.build = build_idle_sweep,
	.result_size = sizeof(struct slc_idle_sweep),
	.analyze = analyze,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
