// SPDX-License-Identifier: MIT
/*
 * The "slcscope.phases/2" JSON document (docs/phases-json.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "slcscope/analysis.h"

/* NAN and infinities have no JSON form: they become null. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static int set(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

static json_t *phase_json(const struct slc_phase *p, int with_kind, enum slc_cell cell)
{
	json_t *o = json_object();
	int e = 0;

	if (!o) return NULL;
	if (with_kind) {
		e |= set(o, "kind", json_string(slc_phase_kind_name(p->kind)));
		e |= set(o, "label", json_string(slc_phase_label(p, cell)));
		if (p->kind == SLC_PHASE_SLC_CACHE) e |= set(o, "tier", json_integer(p->tier));
	}
	e |= set(o, "start_s", num(p->start_s));
	e |= set(o, "end_s", num(p->end_s));
	e |= set(o, "start_bytes", num(p->start_bytes));
	e |= set(o, "end_bytes", num(p->end_bytes));
	e |= set(o, "mean_bps", num(p->mean_bps));
	e |= set(o, "median_bps", num(p->median_bps));
	e |= set(o, "p5_bps", num(p->p5_bps));
	e |= set(o, "p95_bps", num(p->p95_bps));
	e |= set(o, "cov", num(p->cov));
	e |= set(o, "iops_mean", num(p->iops_mean));
	if (with_kind) {
		e |= set(o, "confidence", num(p->confidence));
		e |= set(o, "end_range_bytes", json_pack("[oo]", num(p->end_lo_bytes), num(p->end_hi_bytes)));
	}
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *phase_list(const struct slc_phase *p, size_t n, int with_kind, enum slc_cell cell)
{
	json_t *a = json_array();

	if (!a) return NULL;
	for (size_t i = 0; i < n; i++) {
		if (json_array_append_new(a, phase_json(p + i, with_kind, cell))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The evidence that would settle a close call, as names. */
static json_t *settle_json(unsigned f)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ SLC_SETTLE_CAPACITY, "capacity" },
		{ SLC_SETTLE_CELL, "cell" },
		{ SLC_SETTLE_STATE, "state" },
		{ SLC_SETTLE_LONGER_RUN, "longer_run" },
	};
	json_t *a = json_array();

	for (size_t i = 0; a && i < sizeof(names) / sizeof(names[0]); i++)
		if ((f & names[i].bit) && json_array_append_new(a, json_string(names[i].name))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *reading_json(const struct slc_labelling *l)
{
	if (!l->valid) return json_null();
	return json_pack("{s:i, s:b, s:b, s:o, s:o, s:o, s:o}", "cache_tiers", (int)l->tiers, "native", l->native,
			 "erase_bound", l->erase_bound, "cache_bytes", num(l->cache_bytes),
			 "erase_bound_start_bytes", num(l->onset_bytes), "write_buffer_bytes", num(l->buffer_bytes),
			 "log_score", num(l->log_score));
}

/* "model": the reading chosen, the runner-up, the odds, the reasons. */
static json_t *model_json(const struct slc_model_info *m)
{
	json_t *o = json_object(), *why = json_array();
	const char *p = m->explain;
	int e = 0;

	if (!o || !why) {
		json_decref(o);
		json_decref(why);
		return NULL;
	}
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		e |= json_array_append_new(why, json_stringn(p, l));
		p += l + (nl ? 1 : 0);
	}
	e |= set(o, "cell", json_string(slc_cell_name(m->cell)));
	e |= set(o, "confidence", num(m->confidence));
	e |= set(o, "conflict", json_boolean(m->conflict));
	e |= set(o, "no_fit", json_boolean(m->no_fit));
	e |= set(o, "best", reading_json(&m->best));
	e |= set(o, "runner_up", reading_json(&m->runner_up));
	e |= set(o, "odds", num(m->odds));
	e |= set(o, "settle", settle_json(m->settle));
	e |= set(o, "explain", why);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The keys shared by the top level and each entry of "segments". */
static int fill(json_t *o, const struct slc_analysis *a)
{
	json_t *cache = json_object(), *ss = json_object(), *cpd = json_object();
	int e = 0;

	if (!cache || !ss || !cpd) {
		json_decref(cache);
		json_decref(ss);
		json_decref(cpd);
		return -1;
	}
	e |= set(cache, "size_bytes", a->has_cache ? num(a->cache_bytes) : json_null());
	e |= set(cache, "speed_bps", a->has_cache ? num(a->cache_bps) : json_null());
	e |= set(cache, "end_s", a->has_cache ? num(a->cache_end_s) : json_null());
	e |= set(cache, "bound", a->model.cache_bound ?
		 json_pack("{s:o, s:o, s:i, s:b}", "min_bytes", num(a->model.cache_min_bytes), "max_bytes",
			   num(a->model.cache_max_bytes), "samples", (int)a->model.cache_bound_samples,
			   "stall_after", a->model.cache_bound_stall) :
		 json_null());
	e |= set(o, "cache", cache);
	e |= set(o, "erase_bound_start_s", num(a->erase_bound_start_s));
	e |= set(o, "erase_bound_start_bytes", num(a->erase_bound_start_bytes));
	e |= set(o, "phases", phase_list(a->phases, a->n_phases, 1, a->model.cell));
	e |= set(o, "model", model_json(&a->model));
	e |= set(ss, "reached", json_boolean(a->steady.reached));
	e |= set(ss, "start_s", num(a->steady.start_s));
	e |= set(ss, "end_s", num(a->steady.end_s));
	e |= set(ss, "avg_bps", num(a->steady.avg_bps));
	e |= set(ss, "range_frac", num(a->steady.range_frac));
	e |= set(ss, "slope_frac", num(a->steady.slope_frac));
	{
		static const char *rules[] = { "after_cache", "after_preconditioning", "after_onset", "not_searched" };
		e |= set(ss, "from_bytes", num(a->steady.from_bytes));
		e |= set(ss, "rule", json_string(rules[a->steady.rule >= 0 && a->steady.rule <= 3 ? a->steady.rule : 0]));
	}
	e |= set(o, "steady_state", ss);
	e |= set(cpd, "sigma_bps", num(a->cpd.sigma));
	e |= set(cpd, "rho", num(a->cpd.rho));
	e |= set(cpd, "min_seg_len", json_integer((json_int_t)a->cpd.min_seg_len));
	e |= set(cpd, "penalty", num(a->cpd.penalty));
	e |= set(cpd, "changepoints", phase_list(a->segments, a->n_segments, 0, a->model.cell));
	e |= set(o, "changepoint", cpd);
	return e ? -1 : 0;
}

/* "recovery" of a later segment against the first. */
static int add_recovery(json_t *o, const struct slc_analysis *fresh,
			const struct slc_analysis *seg)
{
	struct slc_recovery r;
	json_t *rec;
	int e = 0;

	if (slc_recovery(&r, fresh, seg)) return set(o, "recovery", json_null());
	rec = json_object();
	if (!rec) return -1;
	e |= set(rec, "burst_bps", num(r.burst_bps));
	e |= set(rec, "cache_bytes", num(r.cache_bytes));
	e |= set(rec, "cache_frac", num(r.cache_frac));
	if (e) {
		json_decref(rec);
		return -1;
	}
	return set(o, "recovery", rec);
}

int slc_phases_json(char **out, const struct slc_analysis *seg, size_t n)
{
	json_t *doc, *segs;
	int ret = -ENOMEM;

	if (!out || !seg || n == 0) return -EINVAL;
	*out = NULL;
	doc = json_object();
	segs = json_array();
	if (!doc || !segs) {
		json_decref(doc);
		json_decref(segs);
		return -ENOMEM;
	}
	if (set(doc, "schema", json_string("slcscope.phases/2")) || fill(doc, seg)) {
		json_decref(segs);
		goto out;
	}
	if (set(doc, "segments", segs)) goto out;
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		if (!o) goto out;
		if (fill(o, seg + i) || (i > 0 && add_recovery(o, seg, seg + i))) {
			json_decref(o);
			goto out;
		}
		if (json_array_append_new(segs, o)) goto out;	/* steals o */
	}
	*out = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	if (*out) ret = 0;
out:
	json_decref(doc);
	return ret;
}
