// SPDX-License-Identifier: MIT
/*
 * The report's sections, in words and tables: the drive, its health before
 * and after, the test conditions, the headline figures, every curve's
 * phases with its graphs, the experiments.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_doc.h"
#include "exp/exp.h"
#include "sweep.h"

#define HORIZON_S 7200.0

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s && *s ? s : NULL;
}

static void identity_section(struct doc *d, const struct slc_session *x, enum slc_unit_system u)
{
	static const struct { const char *key, *name; } rows[] = {
		{ "model", "model" }, { "serial", "serial number" }, { "firmware", "firmware" }, { "vendor", "vendor" },
		{ "interface", "interface" }, { "link", "link" }, { "kernel_name", "device" },
	};
	json_t *id = slc__session_identity_json(x);
	char cells[2][96];
	json_t *v;

	slc__doc_heading(d, 2, "The drive");
	slc__doc_table(d, 2, (const char *const[]){ "identity", "as the drive reports it" });
	for (size_t i = 0; id && i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!jstr(id, rows[i].key)) continue;
		snprintf(cells[0], 96, "%s", rows[i].name);
		snprintf(cells[1], 96, "%s", jstr(id, rows[i].key));
		slc__doc_row(d, 2, cells);
	}
	if (!id) {
		snprintf(cells[0], 96, "model");
		snprintf(cells[1], 96, "%s", x->in->meta.device_model ? x->in->meta.device_model : "not recorded");
		slc__doc_row(d, 2, cells);
	}
	if (x->in->meta.capacity_bytes) {
		snprintf(cells[0], 96, "capacity");
		slc_format_bytes(cells[1], 96, (double)x->in->meta.capacity_bytes, u);
		slc__doc_row(d, 2, cells);
	}
	if (id && json_is_integer(v = json_object_get(id, "logical_block_bytes"))) {
		snprintf(cells[0], 96, "block size, logical / physical");
		snprintf(cells[1], 96, "%lld / %lld bytes", (long long)json_integer_value(v),
			 (long long)json_integer_value(json_object_get(id, "physical_block_bytes")));
		slc__doc_row(d, 2, cells);
	}
	slc__doc_table_end(d);
	json_decref(id);
}

/* The health object of the first snapshot of @kind (first or last in the trace). */
static json_t *health(const struct slc_session *x, enum slc_snapshot_kind kind, int last)
{
	json_t *found = NULL;

	for (size_t i = 0; i < x->in->n_snapshots; i++) {
		const struct slc_input_snapshot *sn = &x->in->snapshots[i];
		json_t *doc, *h;
		if (!sn->kind || slc_snapshot_kind_from_name(sn->kind) != kind || !sn->json_text)
			continue;
		doc = json_loads(sn->json_text, 0, NULL);
		h = json_object_get(doc, "health");
		if (json_is_object(h)) {
			json_incref(h);
			json_decref(found);
			found = h;
		}
		json_decref(doc);
		if (found && !last)
			break;
	}
	return found;
}

static void health_cell(char *buf, json_t *h, const char *key, int bytes, enum slc_unit_system u)
{
	json_t *v = json_object_get(h, key);

	buf[0] = '\0';
	if (json_is_array(v)) v = json_array_get(v, 0);
	if (!json_is_number(v)) return;
	if (bytes) slc_format_bytes(buf, 96, json_number_value(v), u);
	else snprintf(buf, 96, "%g", json_number_value(v));
}

static void health_section(struct doc *d, const struct slc_session *x, enum slc_unit_system u)
{
	static const struct { const char *key, *name; int bytes; } rows[] = {
		{ "host_write_bytes", "host writes", 1 }, { "nand_write_bytes", "NAND writes", 1 },
		{ "host_read_bytes", "host reads", 1 }, { "temp_c", "temperature (°C)", 0 },
		{ "percentage_used", "life used (%)", 0 }, { "available_spare", "available spare (%)", 0 },
		{ "media_errors", "media errors", 0 }, { "critical_warning", "critical warning", 0 },
		{ "unsafe_shutdowns", "unsafe shutdowns", 0 }, { "power_on_hours", "power-on hours", 0 },
		{ "power_cycles", "power cycles", 0 }, { "thm_transitions", "thermal throttling entries", 0 },
	};
	json_t *b = health(x, SLC_SNAP_HEALTH_BEFORE, 0), *a = health(x, SLC_SNAP_HEALTH_AFTER, 1);
	char cells[3][96];
	size_t shown = 0;

	slc__doc_heading(d, 2, "Drive health before and after");
	if (!b && !a) {
		slc__doc_para(d, "The input holds no SMART or health snapshots (run with the drive's probe).");
		return;
	}
	slc__doc_table(d, 3, (const char *const[]){ "SMART / health", "before the run", "after the run" });
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(cells[0], 96, "%s", rows[i].name);
		health_cell(cells[1], b, rows[i].key, rows[i].bytes, u);
		health_cell(cells[2], a, rows[i].key, rows[i].bytes, u);
		if (!cells[1][0] && !cells[2][0]) continue;
		slc__doc_row(d, 3, cells);
		shown++;
	}
	slc__doc_table_end(d);
	if (!shown)
		slc__doc_para(d, "The drive reported no SMART figures.");
	json_decref(a);
	json_decref(b);
}

/* The plan, from the recorded command line ("--plan NAME", "--plan=NAME" or
 * "-p NAME"; none given: the lab plan). */
static void plan_of(char *buf, size_t len, const struct slc_session *x)
{
	const char *cl = x->in->meta.command_line, *p = cl ? strstr(cl, " --plan") : NULL;
	size_t skip = 8;

	if (cl && !(p && (p[7] == ' ' || p[7] == '='))) {
		p = strstr(cl, " -p ");
		skip = 4;
	}
	if (x->in->format != SLC_INPUT_TRACE)
		snprintf(buf, len, "imported from another tool");
	else if (p && (skip == 4 || p[7] == ' ' || p[7] == '='))
		snprintf(buf, len, "%.*s", (int)strcspn(p + skip, " "), p + skip);
	else if (cl && strstr(cl, " run "))
		snprintf(buf, len, "lab (the default)");
	else
		snprintf(buf, len, "not recorded");
}

static void step_row(struct doc *d, const struct slc_input_segment *s)
{
	char c[8][96];
	enum slc_workload wl = slc_workload_from_name(s->params.workload);

	memset(c, 0, sizeof(c));
	if (wl == SLC_WL_TRIM) snprintf(c[0], 96, "TRIM of the whole drive");
	else if (wl == SLC_WL_IDLE) snprintf(c[0], 96, "idle, no I/O");
	else slc_segment_heading(c[0], 96, s);
	if (s->params.block_bytes) {
		slc_format_bytes(c[1], 96, s->params.block_bytes, SLC_UNITS_BINARY);
		snprintf(c[2], 96, "%u", s->params.queue_depth);
		snprintf(c[3], 96, "%u", s->params.jobs ? s->params.jobs : 1);
	}
	if (s->params.interval_s > 0 && s->n_samples) slc_duration_words(c[4], 96, s->params.interval_s);
	if (s->params.block_bytes && s->params.data_pattern) snprintf(c[5], 96, "%s", s->params.data_pattern);
	if (s->n_samples) slc_duration_words(c[6], 96, s->t_s[s->n_samples - 1]);
	if (s->params.idle_before_s > 0) slc_duration_words(c[7], 96, s->params.idle_before_s);
	slc__doc_row(d, 8, c);
}

/* How the kernel did the I/O, when it was not the usual interrupts: a
 * polled run's latencies and CPU are not comparable with another's. */
static const char *io_mode_words(const struct slc_session *x)
{
	for (size_t i = 0; i < x->in->n_segments; i++) {
		const char *m = x->in->segments[i].params.io_mode;
		if (!m || !*m || !strcmp(m, "irq"))
			continue;
		if (!strcmp(m, "iopoll"))
			return "polled completions (io_uring IOPOLL, run --hipri)";
		if (!strcmp(m, "sqpoll"))
			return "a kernel thread submitting the commands (io_uring SQPOLL, run --sqpoll)";
		return "polled completions and a kernel submission thread (run --hipri --sqpoll)";
	}
	return NULL;
}

static void conditions_section(struct doc *d, const struct slc_session *x)
{
	char plan[64];

	plan_of(plan, sizeof(plan), x);
	slc__doc_heading(d, 2, "Test conditions");
	slc__doc_para(d, "Plan: %s. Run on %s%s%s, written by slcscope %s; this report by slcscope %s. Target: %s.", plan,
		 x->in->created_utc ? x->in->created_utc : "an unrecorded date", x->in->host ? " on host " : "",
		 x->in->host ? x->in->host : "", x->in->tool_version ? x->in->tool_version : "(unknown)", SLCSCOPE_VERSION,
		 x->in->meta.target && x->in->meta.target[0] ? x->in->meta.target : x->in->source);
	if (x->in->meta.command_line)
		slc__doc_para(d, "Command line: %s", x->in->meta.command_line);
	if (io_mode_words(x))
		slc__doc_para(d, "I/O: %s.", io_mode_words(x));
	slc__doc_table(d, 8, (const char *const[]){ "step", "block size", "queue depth", "jobs", "sampled every", "data",
					       "duration", "idle before" });
	for (size_t i = 0; i < x->in->n_segments; i++)
		step_row(d, &x->in->segments[i]);
	slc__doc_table_end(d);
}

static void headline_row(struct doc *d, const char *what, const char *value)
{
	char c[2][96];

	snprintf(c[0], 96, "%s", what);
	snprintf(c[1], 96, "%s", value);
	slc__doc_row(d, 2, c);
}

static void speed_text(char *buf, double bps, double blk, enum slc_unit_system u)
{
	char a[32], b[32];

	if (!isfinite(bps)) {
		snprintf(buf, 96, "none seen");
		return;
	}
	slc_format_rate(a, sizeof(a), bps, u);
	if (isfinite(blk) && blk <= 65536)
		snprintf(buf, 96, "%s (%s)", slc_format_iops(b, sizeof(b), bps / blk), a);
	else
		snprintf(buf, 96, "%s", a);
}

static void recovery_rows(struct doc *d, const struct slc_session *x, enum slc_unit_system u)
{
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_recovery r;
		char what[96], v[96], a[32], b[32], w[96];
		if (s->params.role != SLC_ROLE_IDLE_BURST && s->params.role != SLC_ROLE_TRIM_BURST)
			continue;
		if (slc_session_recovery(x, i, &r))
			continue;
		if (s->params.role == SLC_ROLE_TRIM_BURST) snprintf(what, sizeof(what), "recovery after a TRIM");
		else snprintf(what, sizeof(what), "recovery after %s idle", slc_duration_words(a, sizeof(a), s->params.idle_before_s));
		snprintf(v, sizeof(v), "%s; burst at %s", slc_recovery_words(w, sizeof(w), &r, u),
			 slc_format_rate(b, sizeof(b), r.burst_bps, u));
		headline_row(d, what, v);
	}
}

static void headline_section(struct doc *d, const struct slc_session *x, enum slc_unit_system u)
{
	long k = slc_session_pick(x, 0);
	struct slc_curve_figures cf;
	const struct slc_input_segment *s;
	char v[96], a[32], b[32], h[32], t2[32];

	if (k < 0 || slc_session_curve_figures(&cf, x, (size_t)k, HORIZON_S))
		return;
	s = &x->in->segments[x->seg[k]];
	slc__doc_heading(d, 2, "Headline figures");
	slc__doc_para(d, "From the %s.", slc_segment_heading(v, sizeof(v), s));
	slc__doc_table(d, 2, (const char *const[]){ "figure", "value" });
	if (isfinite(cf.cache2_bytes))
		snprintf(v, sizeof(v), "%s in two tiers: %s, then %s at %s", slc_format_bytes(a, sizeof(a), cf.cache_bytes, u),
			 slc_format_bytes(b, sizeof(b), cf.cache1_bytes, u), slc_format_bytes(h, sizeof(h), cf.cache2_bytes, u),
			 slc_format_rate(t2, sizeof(t2), cf.cache2_bps, u));
	else if (isfinite(cf.cache_bytes))
		slc_format_bytes(v, sizeof(v), cf.cache_bytes, u);
	else if (x->a[k].model.cache_bound && isfinite(x->a[k].model.cache_max_bytes))
		snprintf(v, sizeof(v), "%s to %s (%s)", slc_format_bytes(a, sizeof(a), x->a[k].model.cache_min_bytes, u),
			 slc_format_bytes(b, sizeof(b), x->a[k].model.cache_max_bytes, u),
			 x->a[k].model.cache_bound_stall ? "its end hidden by a stall" : "too short for this interval");
	else if (x->a[k].model.cache_bound)
		snprintf(v, sizeof(v), "at least %s (its end hidden by a stall)",
			 slc_format_bytes(a, sizeof(a), x->a[k].model.cache_min_bytes, u));
	else
		snprintf(v, sizeof(v), "none seen");
	headline_row(d, "SLC cache (host data written at cache speed)", v);
	speed_text(v, cf.cache_bps, cf.block_bytes, u);
	if (!isfinite(cf.cache_bps) && x->a[k].model.cache_bound)
		snprintf(v, sizeof(v), "not measurable at this interval");
	headline_row(d, isfinite(cf.cache2_bytes) ? "cache speed, first tier" : "cache speed", v);
	speed_text(v, cf.native_bps, cf.block_bytes, u);
	{
		char lab[64];
		snprintf(lab, sizeof(lab), "%s speed (cache full)", slc_native_words(x->a[k].model.cell));
		lab[0] = (char)toupper((unsigned char)lab[0]);
		headline_row(d, lab, v);
	}
	speed_text(v, cf.erase_bps, cf.block_bytes, u);
	headline_row(d, "erase-bound speed", v);
	if (isfinite(x->a[k].erase_bound_start_bytes)) {
		slc_format_bytes(v, sizeof(v), x->a[k].erase_bound_start_bytes, u);
		headline_row(d, "erase-bound from (data written)", v);
	}
	snprintf(h, sizeof(h), "data written in %s", cf.horizon_s >= HORIZON_S ? "2 h" : slc_duration_words(a, sizeof(a), cf.horizon_s));
	slc_format_bytes(v, sizeof(v), cf.written_bytes, u);
	headline_row(d, h, v);
	recovery_rows(d, x, u);
	slc__doc_table_end(d);
}

/* How sure the model is, as on the console: the runner-up of a close call
 * and what would decide it. */
static void model_words(char *p, size_t len, const struct slc_model_info *m, enum slc_unit_system u)
{
	char w[320];
	size_t n;

	n = (size_t)snprintf(p, len, "The model is %s. ", slc_model_sure_words(w, sizeof(w), m));
	if (n < len && m->runner_up.valid && m->close_call)
		n += (size_t)snprintf(p + n, len - n, "Runner-up (odds %.1f : 1 against): %s. ", m->odds,
				      slc_reading_words(w, sizeof(w), &m->runner_up, u));
	if (n < len && m->settle) snprintf(p + n, len - n, "To decide: %s. ", slc_settle_words(w, sizeof(w), m->settle));
}

static void curve_text(struct doc *d, const struct slc_session *x, size_t i, enum slc_unit_system u)
{
	const struct slc_analysis *an = &x->a[i];
	const struct slc_session_drive *dr = &x->drive[i];
	char p[2048] = "", a[32], b[32], w[320];
	size_t n = 0;

	if (an->has_cache)
		n += (size_t)snprintf(p + n, sizeof(p) - n, "SLC cache: \x01%s\x02 at %s. ", slc_format_bytes(a, sizeof(a), an->cache_bytes, u),
				      slc_format_rate(b, sizeof(b), an->cache_bps, u));
	else if (an->model.cache_bound)
		n += (size_t)snprintf(p + n, sizeof(p) - n, "SLC cache: %s. ", slc_cache_bound_words(w, sizeof(w), an, u));
	else
		n += (size_t)snprintf(p + n, sizeof(p) - n, "No SLC cache seen. ");
	if (isfinite(an->erase_bound_start_bytes) && n < sizeof(p))
		n += (size_t)snprintf(p + n, sizeof(p) - n, "Erase-bound from %s written. ",
				      slc_format_bytes(a, sizeof(a), an->erase_bound_start_bytes, u));
	if (isfinite(dr->wa) && n < sizeof(p))
		n += (size_t)snprintf(p + n, sizeof(p) - n, "The drive counted %s of NAND writes for %s of host writes: "
				      "write amplification %.2f. ", slc_format_bytes(a, sizeof(a), dr->nand_bytes, u),
				      slc_format_bytes(b, sizeof(b), dr->host_bytes, u), dr->wa);
	if (isfinite(dr->slc_flash_bytes) && n < sizeof(p))
		n += (size_t)snprintf(p + n, sizeof(p) - n, "Flash used in SLC mode: about %s. ",
				      slc_format_bytes(a, sizeof(a), dr->slc_flash_bytes, u));
	if (dr->n_temp && isfinite(dr->max_temp_c) && n < sizeof(p))
		n += (size_t)snprintf(p + n, sizeof(p) - n, "Temperature up to %.0f °C. ", dr->max_temp_c);
	if (n < sizeof(p)) model_words(p + n, sizeof(p) - n, &an->model, u);
	slc__doc_para(d, "%s", p);
}

static void phase_table(struct doc *d, const struct slc_analysis *an, enum slc_unit_system u)
{
	char c[8][96];

	slc__doc_table(d, 8, (const char *const[]){ "phase", "from", "to", "lasts", "mean speed", "median", "p5 to p95",
					       "CoV" });
	for (size_t p = 0; p < an->n_phases; p++) {
		const struct slc_phase *ph = &an->phases[p];
		char a[32], b[32];
		snprintf(c[0], 96, "%s%s", slc__fig_phase_words(ph, an->model.cell), ph->kind == SLC_PHASE_SLC_CACHE && ph->tier <= 1 && p + 1 < an->n_phases &&
			 an->phases[p + 1].tier > 1 ? ", first tier" : "");
		slc_format_bytes(c[1], 96, ph->start_bytes, u);
		slc_format_bytes(c[2], 96, ph->end_bytes, u);
		slc_duration_words(c[3], 96, ph->end_s - ph->start_s);
		if (isfinite(ph->iops_mean))
			snprintf(c[4], 96, "%s (%s)", slc_format_iops(a, sizeof(a), ph->iops_mean), slc_format_rate(b, sizeof(b), ph->mean_bps, u));
		else
			slc_format_rate(c[4], 96, ph->mean_bps, u);
		slc_format_rate(c[5], 96, ph->median_bps, u);
		snprintf(c[6], 96, "%s to %s", slc_format_rate(a, sizeof(a), ph->p5_bps, u), slc_format_rate(b, sizeof(b), ph->p95_bps, u));
		if (isfinite(ph->cov)) snprintf(c[7], 96, "%.2f", ph->cov);
		else c[7][0] = '\0';
		slc__doc_row(d, 8, c);
	}
	slc__doc_table_end(d);
}

/* Each host-bound phase of curve @i: its speed is not the drive's. */
static void host_bound_text(struct doc *d, const struct slc_session *x, size_t i)
{
	const struct slc_session_drive *dr = &x->drive[i];
	const struct slc_analysis *an = &x->a[i];
	char w[320];

	for (size_t p = 0; dr->phase_host && p < an->n_phases; p++)
		if (dr->phase_host[p].host_bound)
			slc__doc_para(d, "%s, %.0f to %.0f s: %s.", slc__fig_phase_words(&an->phases[p], an->model.cell),
				      an->phases[p].start_s, an->phases[p].end_s,
				      slc_host_bound_words(w, sizeof(w), &dr->phase_host[p]));
}

void slc__report_sections(struct doc *d, const struct slc_session *x, enum slc_unit_system u,
		     const struct report_fig *figs, size_t nfigs)
{
	char name[256], *text = NULL;
	size_t len = 0;
	FILE *m;

	slc__doc_heading(d, 1, "%s", slc_session_drive_name(name, sizeof(name), x));
	slc__doc_para(d, "Write behaviour under sustained writes, from %s. Files: phases.json (docs/phases-json.md), "
		 "phases.csv, samples.csv, summary.md, %severy graph as SVG and PNG.", x->in->source,
		 d->with_pdf ? "report.pdf (this report for print), " : "");
	identity_section(d, x, u);
	health_section(d, x, u);
	conditions_section(d, x);
	headline_section(d, x, u);
	for (size_t i = 0; i < x->n; i++) {
		slc__doc_heading(d, 2, "%s", slc_segment_heading(name, sizeof(name), &x->in->segments[x->seg[i]]));
		curve_text(d, x, i, u);
		phase_table(d, &x->a[i], u);
		host_bound_text(d, x, i);
		for (size_t f = 0; f < nfigs; f++)
			if (figs[f].curve == (long)i)
				slc__doc_figure(d, figs[f].name, figs[f].caption);
	}
	slc__sweep_section(d, slc__session_sweep(x), u, figs, nfigs);
	if ((m = open_memstream(&text, &len))) {
		slc_session_print_experiments(m, x, u);
		fclose(m);
	}
	if ((text && len) || nfigs) {
		int any = text && len;
		for (size_t f = 0; f < nfigs; f++) any = any || figs[f].curve == -1;
		if (any) slc__doc_heading(d, 2, "Experiments");
		if (text && len) slc__doc_pre(d, text);
		for (size_t f = 0; f < nfigs; f++)
			if (figs[f].curve == -1)
				slc__doc_figure(d, figs[f].name, figs[f].caption);
	}
	free(text);
}
