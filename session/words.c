// SPDX-License-Identifier: MIT
/*
 * An analysed session in words and headline figures: the drive's name for
 * titles and legends, each step's workload and purpose for subtitles and
 * headings (from its role, never its name), and the figures review
 * articles quote for a write curve.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "session_priv.h"

char *slc_cache_bound_words(char *buf, size_t len, const struct slc_analysis *an, enum slc_unit_system u)
{
	char a[32], b[32], n[32];
	const double mx = an->model.cache_max_bytes;

	slc_format_bytes(a, sizeof(a), an->model.cache_min_bytes, u);
	if (an->model.cache_bound_stall)
		snprintf(buf, len, "at least %s at the start; a stall follows, as the drive's stalls do all along, so the "
			 "cache may go on after it: at most %s%s; sample finer (--interval) to measure it", a,
			 isfinite(mx) ? slc_format_bytes(b, sizeof(b), mx, u) : "what the flash holds in SLC mode",
			 isfinite(mx) ? " (the flash in SLC mode)" : " (give --capacity to bound it)");
	else
		snprintf(buf, len, "ended inside the first %s: at least %s, at most %s; sample finer (--interval) to "
			 "measure it", an->model.cache_bound_samples > 1 ?
			 (snprintf(n, sizeof(n), "%u samples", an->model.cache_bound_samples), n) : "sample", a,
			 slc_format_bytes(b, sizeof(b), mx, u));
	return buf;
}

char *slc_duration_words(char *buf, size_t len, double s)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "an unknown time");
	else if (s < 120)
		snprintf(buf, len, "%.3g s", s);
	else if (s < 3600)
		snprintf(buf, len, "%.0f min", s / 60);
	else if (fmod(s, 3600) < 60 || fmod(s, 3600) > 3540)
		snprintf(buf, len, "%.0f h", round(s / 3600));
	else
		snprintf(buf, len, "%.0f h %.0f min", floor(s / 3600), floor(fmod(s, 3600) / 60));
	return buf;
}

/* The identity snapshot's object (a new reference; NULL when there is none). */
json_t *slc__session_identity_json(const struct slc_session *x)
{
	for (size_t i = 0; i < x->in->n_snapshots; i++) {
		const struct slc_input_snapshot *sn = &x->in->snapshots[i];
		json_t *doc, *id;
		if (!sn->kind || slc_snapshot_kind_from_name(sn->kind) != SLC_SNAP_IDENTITY || !sn->json_text)
			continue;
		doc = json_loads(sn->json_text, 0, NULL);
		id = json_object_get(doc, "identity");
		if (json_is_object(id)) {
			json_incref(id);
			json_decref(doc);
			return id;
		}
		json_decref(doc);
	}
	return NULL;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s && *s ? s : NULL;
}

char *slc_session_drive_name(char *buf, size_t len, const struct slc_session *x)
{
	json_t *id = slc__session_identity_json(x);
	const char *model = x->in->meta.device_model, *iface = id ? jstr(id, "interface") : NULL;
	const char *serial = id ? jstr(id, "serial") : NULL, *base;
	double cap = (double)x->in->meta.capacity_bytes;
	char c[32];

	if (iface && !strcmp(iface, "sim") && model) {
		/* a simulated preset: its description up to the first comma names the drive */
		int n = (int)strcspn(model, ",(:;");
		const char *cut = strstr(model, " for "), *that = strstr(model, " that ");
		if (that && (!cut || that < cut)) cut = that;
		if (cut && cut - model < n) n = (int)(cut - model);
		while (n > 0 && model[n - 1] == ' ') n--;
		snprintf(buf, len, "Simulated %.*s%s%s%s", n, model, serial && !strncmp(serial, "SIM-", 4) ? " (" : "",
			 serial && !strncmp(serial, "SIM-", 4) ? serial + 4 : "", serial && !strncmp(serial, "SIM-", 4) ? ")" : "");
	} else if (model && *model) {
		int has_cap = strcasestr(model, "GB") || strcasestr(model, "TB");
		if (!has_cap && cap > 0)
			snprintf(buf, len, "%s, %s", model, slc_format_bytes(c, sizeof(c), cap, SLC_UNITS_DECIMAL));
		else
			snprintf(buf, len, "%s", model);
	} else if (x->in->meta.target && *x->in->meta.target) {
		snprintf(buf, len, "%s", x->in->meta.target);
	} else {
		base = strrchr(x->in->source, '/');
		snprintf(buf, len, "%s", base ? base + 1 : x->in->source);
	}
	json_decref(id);
	return buf;
}

/* "4 KiB random writes, QD32" (with the jobs when several). */
static int workload_words(char *buf, size_t len, const struct slc_input_segment *s)
{
	enum slc_workload w = slc_workload_from_name(s->params.workload);
	const char *what = w == SLC_WL_SEQ_WRITE ? "sequential writes" : w == SLC_WL_RAND_READ ? "random reads" :
			   w == SLC_WL_RAND_WRITE_DUTY ? "random writes in rounds" : w == SLC_WL_SEQ_READ ?
			   "sequential reads" : "random writes";
	char b[32], j[32] = "", mix[64];

	if (w == SLC_WL_SEQ_MIXED || w == SLC_WL_RAND_MIXED) {
		snprintf(mix, sizeof(mix), "%s, %u%% reads", w == SLC_WL_SEQ_MIXED ? "sequential" : "random",
			 s->params.read_pct);
		what = mix;
	}

	if (!s->params.block_bytes)
		return snprintf(buf, len, "imported curve");
	if (s->params.jobs > 1)
		snprintf(j, sizeof(j), ", %u jobs", s->params.jobs);
	return snprintf(buf, len, "%s %s, QD%u%s", slc_format_bytes(b, sizeof(b), s->params.block_bytes, SLC_UNITS_BINARY),
			what, s->params.queue_depth, j);
}

/*
 * A fill step's range is the whole target even when the plan stops it
 * after a set size (trim-response writes twice the range it deletes): the
 * bytes it wrote tell whether it filled the range.  Returns 1 for a whole
 * fill, else 0 with the size written in @b.
 */
static int fill_whole(char *b, size_t len, const struct slc_input_segment *s)
{
	double wrote = s->n_samples && s->bytes_total ? (double)s->bytes_total[s->n_samples - 1] : NAN;

	if (!isfinite(wrote) || !s->params.range_bytes || wrote >= 0.99 * (double)s->params.range_bytes)
		return 1;
	slc_format_bytes(b, len, wrote, SLC_UNITS_BINARY);
	return 0;
}

static int is_read(const struct slc_input_segment *s)
{
	enum slc_workload w = slc_workload_from_name(s->params.workload);
	return w == SLC_WL_RAND_READ || w == SLC_WL_SEQ_READ;
}

/* What the step is for, in words ("after a TRIM of the whole drive"). */
static void purpose_words(char *buf, size_t len, const struct slc_input_segment *s)
{
	char d[32], b[32];
	uint32_t arg = s->params.role_arg;

	slc_duration_words(d, sizeof(d), s->params.idle_before_s);
	switch (s->params.role) {
	case SLC_ROLE_FILL:
		if (fill_whole(b, sizeof(b), s)) snprintf(buf, len, "filling the whole drive after a TRIM");
		else snprintf(buf, len, "writing %s after a TRIM", b);
		break;
	case SLC_ROLE_CURVE: snprintf(buf, len, "after a TRIM of the whole drive"); break;
	case SLC_ROLE_IDLE_BURST: snprintf(buf, len, "after %s idle, no TRIM", d); break;
	case SLC_ROLE_TRIM_BURST: snprintf(buf, len, "after a TRIM of the whole drive (%s wait)", d); break;
	case SLC_ROLE_SATURATE: snprintf(buf, len, "filling the cache"); break;
	case SLC_ROLE_LEVEL_BURST:
		if (arg) snprintf(buf, len, "with the drive %u%% full", arg);
		else snprintf(buf, len, "after a TRIM of everything");
		break;
	case SLC_ROLE_FILL_TO: snprintf(buf, len, "filling the drive to %u%%", arg); break;
	case SLC_ROLE_DATA_RANDOM: snprintf(buf, len, "incompressible data"); break;
	case SLC_ROLE_DATA_REPEAT: snprintf(buf, len, "repeating (compressible) data"); break;
	case SLC_ROLE_HIR_ROUNDS: snprintf(buf, len, "writes with %u s waits (host idle recovery)", arg); break;
	case SLC_ROLE_READ_BASELINE: snprintf(buf, len, "before the TRIM"); break;
	case SLC_ROLE_READ_AFTER_TRIM: snprintf(buf, len, "right after a TRIM"); break;
	case SLC_ROLE_IMPORTED: snprintf(buf, len, "imported"); break;
	case SLC_ROLE_SWEEP_PREP: snprintf(buf, len, "writing the sweep's test region"); break;
	case SLC_ROLE_SWEEP: snprintf(buf, len, "a sweep point"); break;
	case SLC_ROLE_PRECONDITION: snprintf(buf, len, "preconditioning the sweep to steady state"); break;
	default: buf[0] = '\0'; break;
	}
}

char *slc__run_status_words(char *buf, size_t len, const struct slc_input *in, int full)
{
	const char *st = in->meta.run_status;
	int stopped = st && !strcmp(st, "interrupted"), failed = st && !strcmp(st, "failed");
	char steps[96] = "";

	buf[0] = '\0';
	if (!st || !strcmp(st, "complete"))
		return buf;
	/* each step the run began has its segment, the last one cut short */
	if (in->meta.planned_steps)
		snprintf(steps, sizeof(steps), "%zu of %u steps", in->n_segments, in->meta.planned_steps);
	if (!full)
		snprintf(buf, len, "%s%s%s", stopped ? "run interrupted" : failed ? "run stopped by an error" :
			 "run not finished", steps[0] ? ": " : "", steps);
	else if (stopped || failed)
		snprintf(buf, len, "The run was %s: %s%s of its plan ran (the last one cut short); the graphs show only "
			 "what it wrote up to then.", stopped ? "interrupted (Ctrl-C or SIGTERM)" : "stopped by an error",
			 steps[0] ? steps : "not every step", "");
	else
		snprintf(buf, len, "The run did not finish: its trace was never closed (status \"%s\": the process was "
			 "killed or the host went down)%s%s%s.", st, steps[0] ? "; " : "", steps,
			 steps[0] ? " of its plan are in it" : "");
	return buf;
}

static double seg_duration(const struct slc_input_segment *s)
{
	return s->n_samples ? s->t_s[s->n_samples - 1] : NAN;
}

char *slc__fig_segment_words(char *buf, size_t len, const struct slc_input_segment *s, int duration)
{
	char w[96], p[96], d[32];

	workload_words(w, sizeof(w), s);
	purpose_words(p, sizeof(p), s);
	if (duration)
		snprintf(buf, len, "%s, %s%s%s", w, slc_duration_words(d, sizeof(d), seg_duration(s)), p[0] ? " " : "", p);
	else
		snprintf(buf, len, "%s%s%s", w, p[0] ? ", " : "", p);
	return buf;
}

char *slc_segment_words(char *buf, size_t len, const struct slc_input_segment *s)
{
	return slc__fig_segment_words(buf, len, s, 1);
}

char *slc_segment_heading(char *buf, size_t len, const struct slc_input_segment *s)
{
	char w[96], d[32], b[32];
	uint32_t arg = s->params.role_arg;

	workload_words(w, sizeof(w), s);
	slc_duration_words(d, sizeof(d), s->params.idle_before_s);
	switch (s->params.role) {
	case SLC_ROLE_FILL:
		if (fill_whole(b, sizeof(b), s)) snprintf(buf, len, "Sequential fill of the whole drive (%s)", w);
		else snprintf(buf, len, "Sequential write of %s after a TRIM (%s)", b, w);
		break;
	case SLC_ROLE_FILL_TO: snprintf(buf, len, "Sequential fill to %u%% full (%s)", arg, w); break;
	case SLC_ROLE_READ_BASELINE: snprintf(buf, len, "Reads before the TRIM (%s)", w); break;
	case SLC_ROLE_READ_AFTER_TRIM: snprintf(buf, len, "Reads right after a TRIM (%s)", w); break;
	case SLC_ROLE_HIR_ROUNDS: snprintf(buf, len, "Host idle recovery rounds, %u s waits (%s)", arg, w); break;
	case SLC_ROLE_TRIM: snprintf(buf, len, "TRIM of the whole drive"); break;
	case SLC_ROLE_TRIM_RANGE: snprintf(buf, len, "TRIM of part of the drive"); break;
	case SLC_ROLE_CURVE: snprintf(buf, len, "Write curve after TRIM (%s)", w); break;
	case SLC_ROLE_IDLE_BURST: snprintf(buf, len, "Burst after %s idle (%s)", d, w); break;
	case SLC_ROLE_TRIM_BURST: snprintf(buf, len, "Burst after TRIM (%s)", w); break;
	case SLC_ROLE_SATURATE: snprintf(buf, len, "Cache-saturating burst (%s)", w); break;
	case SLC_ROLE_LEVEL_BURST:
		if (arg) snprintf(buf, len, "Burst at %u%% full (%s)", arg, w);
		else snprintf(buf, len, "Burst after TRIM of everything (%s)", w);
		break;
	case SLC_ROLE_DATA_RANDOM: snprintf(buf, len, "Incompressible data (%s)", w); break;
	case SLC_ROLE_DATA_REPEAT: snprintf(buf, len, "Repeating data (%s)", w); break;
	case SLC_ROLE_IMPORTED: snprintf(buf, len, "Imported write curve"); break;
	case SLC_ROLE_SWEEP_PREP: snprintf(buf, len, "Test region written for the sweep (%s)", w); break;
	case SLC_ROLE_SWEEP: snprintf(buf, len, "Sweep point (%s)", w); break;
	case SLC_ROLE_PRECONDITION: snprintf(buf, len, "Preconditioning before the sweep (%s)", w); break;
	default: snprintf(buf, len, "%s (%s)", is_read(s) ? "Reads" : "Write curve", w); break;
	}
	return buf;
}

long slc_session_find_role(const struct slc_session *x, enum slc_role role)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->in->segments[x->seg[i]].params.role == role)
			return (long)i;
	return -1;
}

long slc_session_pick(const struct slc_session *x, enum slc_role role)
{
	long k = slc_session_find_role(x, role ? role : SLC_ROLE_CURVE);
	return k >= 0 ? k : role ? -1 : 0;
}

double slc__seg_bytes_at(const struct slc_input_segment *s, double t, int nan_past_end)
{
	double t0 = 0, b0 = 0;

	for (size_t i = 0; i < s->n_samples; i++) {
		double t1 = s->t_s[i], b1 = (double)s->bytes_total[i];
		if (t1 >= t)
			return t1 > t0 ? b0 + (b1 - b0) * (t - t0) / (t1 - t0) : b1;
		t0 = t1;
		b0 = b1;
	}
	return nan_past_end ? NAN : b0;
}

/* Host bytes written by time @t in segment @s (linear between samples); NAN past its end. */
static double bytes_at(const struct slc_input_segment *s, double t)
{
	return slc__seg_bytes_at(s, t, 1);
}

int slc_session_curve_figures(struct slc_curve_figures *out, const struct slc_session *x, size_t k, double horizon_s)
{
	const struct slc_analysis *an;
	const struct slc_input_segment *s;
	double nb = 0, nt = 0, eb = 0, et = 0;

	if (k >= x->n)
		return -1;
	an = &x->a[k];
	s = &x->in->segments[x->seg[k]];
	*out = (struct slc_curve_figures){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	out->duration_s = seg_duration(s);
	out->block_bytes = s->params.block_bytes ? s->params.block_bytes : NAN;
	for (size_t p = 0; p < an->n_phases; p++) {
		const struct slc_phase *ph = &an->phases[p];
		double b = ph->end_bytes - ph->start_bytes, t = ph->end_s - ph->start_s;
		if (ph->kind == SLC_PHASE_SLC_CACHE && ph->tier <= 1) {
			out->cache1_bytes = (isfinite(out->cache1_bytes) ? out->cache1_bytes : 0) + b;
		} else if (ph->kind == SLC_PHASE_SLC_CACHE) {
			out->cache2_bytes = (isfinite(out->cache2_bytes) ? out->cache2_bytes : 0) + b;
			out->cache2_bps = ph->mean_bps;
		} else if (ph->kind == SLC_PHASE_DIRECT_TO_TLC) {
			nb += b;
			nt += t;
		} else if (ph->kind == SLC_PHASE_ERASE_BOUND) {
			eb += b;
			et += t;
		}
	}
	if (an->has_cache) {
		out->cache_bytes = an->cache_bytes;
		out->cache_bps = an->cache_bps;
	}
	if (nt > 0) out->native_bps = nb / nt;
	if (et > 0) out->erase_bps = eb / et;
	out->horizon_s = isfinite(out->duration_s) && out->duration_s < horizon_s ? out->duration_s : horizon_s;
	out->written_bytes = bytes_at(s, out->horizon_s);
	return 0;
}

char *slc_recovery_words(char *buf, size_t len, const struct slc_recovery *r, enum slc_unit_system u)
{
	char a[32];

	slc_format_bytes(a, sizeof(a), r->cache_bytes, u);
	/* a remeasured cache varies by a few percent: 90% and more is all of it */
	if (isfinite(r->cache_frac) && r->cache_frac >= 0.9)
		snprintf(buf, len, "all of the cache back (%s, %.0f%% of the first measure)", a, r->cache_frac * 100);
	else if (r->at_least)
		snprintf(buf, len, "at least %s of cache (ran out within the first samples)", a);
	else if (isfinite(r->cache_frac))
		snprintf(buf, len, "%.0f%% of the cache back (%s)", r->cache_frac * 100, a);
	else
		snprintf(buf, len, "%s of cache", a);
	return buf;
}

/* One reading in words: "a cache of 2.29 GB in 1 tier, native, erase-bound from 263 GB". */
char *slc_reading_words(char *buf, size_t len, const struct slc_labelling *l, enum slc_unit_system u)
{
	char a[32], b[48];
	size_t w = 0;

	if (!len) return buf;
	buf[0] = '\0';
	if (l->buffer_bytes > 0)
		w = (size_t)snprintf(buf, len, "a write buffer's %s burst, ", slc_format_bytes(a, sizeof(a), l->buffer_bytes, u));
	if (w >= len) return buf;
	if (l->erase_bound) snprintf(b, sizeof(b), ", erase-bound from %s", slc_format_bytes(a, sizeof(a), l->onset_bytes, u));
	else b[0] = '\0';
	snprintf(buf + w, len - w, "%s%s%s%s%s", l->tiers ? "a cache of " : "no cache",
		 l->tiers ? slc_format_bytes(a, sizeof(a), l->cache_bytes, u) : "",
		 l->tiers > 1 ? (l->tiers == 2 ? " in 2 tiers" : " in 3 tiers") : "",
		 l->native ? ", native" : ", no native phase", b);
	return buf;
}

/* What would decide a close call (model.settle), in words; "" for none. */
char *slc_settle_words(char *buf, size_t len, unsigned settle)
{
	static const struct { unsigned bit; const char *what; } ways[] = {
		{ SLC_SETTLE_LONGER_RUN, "a longer run (does the drop near the end last?)" },
		{ SLC_SETTLE_CAPACITY, "--capacity (the flash bounds the cache)" },
		{ SLC_SETTLE_CELL, "--cell (bits per cell bound it in SLC mode)" },
		{ SLC_SETTLE_STATE, "--state trimmed|used (erased before, or written over)" },
	};
	size_t n = 0;

	if (!len) return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]) && n < len; i++)
		if (settle & ways[i].bit) n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", ways[i].what);
	return buf;
}

/* How sure the model is: "79% sure", or why it is unsure. */
const char *slc_model_sure_words(char *buf, size_t len, const struct slc_model_info *m)
{
	if (m->conflict)
		snprintf(buf, len, "unsure: the evidence rules out every reading that fits the curve "
				   "(check --capacity, --cell, --state)");
	else if (m->no_fit)
		snprintf(buf, len, "unsure: no reading fits the curve; its plain reading is shown");
	else
		snprintf(buf, len, "%.0f%% sure", 100 * m->confidence);
	return buf;
}
