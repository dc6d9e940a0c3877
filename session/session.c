// SPDX-License-Identifier: MIT
/*
 * An analysed session: an input loaded, its write curves analysed, the
 * drive's own evidence (counters, temperature) attached to each, and the
 * phases document.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/exp.h"
#include "slcscope/session.h"
#include "slcscope/sim.h"
#include "sweep.h"

int slc_session_is_curve(const struct slc_input_segment *s)
{
	enum slc_workload w = slc_workload_from_name(s->params.workload);

	/* a sweep's points and the write that prepares them are not write curves */
	return s->n_samples >= 2 && w != SLC_WL_TRIM && w != SLC_WL_IDLE && !slc_workload_reads(w) &&
	       w != SLC_WL_RAND_WRITE_DUTY && s->params.role != SLC_ROLE_SWEEP && s->params.role != SLC_ROLE_SWEEP_PREP;
}

void slc_session_free(struct slc_session *x)
{
	for (size_t i = 0; i < x->n; i++) {
		slc_analysis_free(&x->a[i]);
		free(x->bytes[i]);
		if (x->drive) {
			free(x->drive[i].phase_wa);
			free(x->drive[i].phase_host);
		}
	}
	slc__experiments_free(x);
	free(x->drive);
	free(x->ev);
	free(x->a);
	free(x->bytes);
	free(x->seg);
	slc_input_free(x->in);
	memset(x, 0, sizeof(*x));
}

/* The figures a snapshot's health holds (NAN when absent or null), from
 * one parse of its JSON. */
struct snap_figures {
	double host, nand, warn_c;
};

static void snap_health(const char *json_text, struct snap_figures *f)
{
	json_t *doc = json_loads(json_text, 0, NULL), *h = json_object_get(doc, "health"), *v;

	v = json_object_get(h, "host_write_bytes");
	f->host = json_is_number(v) ? json_number_value(v) : NAN;
	v = json_object_get(h, "nand_write_bytes");
	f->nand = json_is_number(v) ? json_number_value(v) : NAN;
	v = json_object_get(h, "warn_temp_c");
	f->warn_c = json_is_number(v) ? json_number_value(v) : NAN;
	json_decref(doc);
}

/*
 * The drive's host and NAND write counters of segment @s as three arrays
 * (one allocation, *t first; free(*t)), for the phase model: pairs of
 * events at the same time, as the run records them.  0 readings leaves
 * them NULL.
 */
static int segment_counters(const struct slc_input_segment *s, double **t, double **h, double **nd, size_t *n)
{
	size_t nc = 0, nh = 0;

	*t = *h = *nd = NULL;
	*n = 0;
	for (size_t i = 0; i < s->n_events; i++)
		if (s->events[i].kind && slc_event_kind_from_name(s->events[i].kind) == SLC_EVK_SMART_HOST_BYTES) nc++;
	if (!nc) return 0;
	if (!(*t = malloc(3 * nc * sizeof(**t)))) return -ENOMEM;
	*h = *t + nc;
	*nd = *h + nc;
	nc = 0;
	for (size_t i = 0; i < s->n_events; i++) {
		const struct slc_event *e = &s->events[i];
		enum slc_event_kind kind = e->kind ? slc_event_kind_from_name(e->kind) : SLC_EVK_UNKNOWN;

		if (kind == SLC_EVK_SMART_HOST_BYTES) {
			(*t)[nc] = e->t_s;
			(*h)[nc++] = e->value;
		} else if (kind == SLC_EVK_SMART_NAND_BYTES && nh < nc && (*t)[nh] == e->t_s) {
			(*nd)[nh++] = e->value;
		}
	}
	*n = nh;
	return 0;
}

/*
 * The drive's evidence for analysed segment @k (trace segment @si): the
 * counters before and after it, the readings during it (its write
 * counters as @ev carries them to the model); relabel throttling and work
 * out the write amplification of the segment and of each phase.
 */
static int drive_evidence(struct slc_session *x, size_t k, size_t si, const struct slc_phase_evidence *ev)
{
	const struct slc_input *in = x->in;
	const struct slc_input_segment *s = &in->segments[si];
	struct slc_session_drive *d = &x->drive[k];
	struct slc_analysis *a = &x->a[k];
	struct snap_figures before = { NAN, NAN, NAN }, after = { NAN, NAN, NAN }, ident = { NAN, NAN, NAN };
	double *tt = NULL, *tc = NULL, *mt = NULL, *mv = NULL;
	const double *ct = ev->ctr_t_s, *ch = ev->ctr_host, *cn = ev->ctr_nand;
	size_t nt = 0, nm = 0, nc = ev->n_ctr;
	int rc = 0;

	*d = (struct slc_session_drive){ .host_bytes = NAN, .nand_bytes = NAN, .wa = NAN, .cache_wa = NAN,
				      .slc_flash_bytes = NAN, .warn_c = NAN, .max_temp_c = NAN };
	for (size_t i = 0; i < in->n_snapshots; i++) {
		const struct slc_input_snapshot *sn = &in->snapshots[i];
		enum slc_snapshot_kind kind;
		if (!sn->kind || !sn->json_text)
			continue;
		kind = slc_snapshot_kind_from_name(sn->kind);
		if (sn->segment < 0 && kind == SLC_SNAP_IDENTITY)
			snap_health(sn->json_text, &ident);
		else if (sn->segment == (long)si && kind == SLC_SNAP_HEALTH_BEFORE)
			snap_health(sn->json_text, &before);
		else if (sn->segment == (long)si && kind == SLC_SNAP_HEALTH_AFTER)
			snap_health(sn->json_text, &after);
	}
	d->warn_c = isfinite(before.warn_c) ? before.warn_c : ident.warn_c;
	if (isfinite(before.host) && isfinite(after.host) && after.host > before.host) {
		d->host_bytes = after.host - before.host;
		if (isfinite(before.nand) && isfinite(after.nand) && after.nand >= before.nand) {
			d->nand_bytes = after.nand - before.nand;
			d->wa = d->nand_bytes / d->host_bytes;
		}
	}

	tt = malloc((s->n_samples + 1) * sizeof(*tt));
	tc = malloc((s->n_samples + 1) * sizeof(*tc));
	mt = malloc((s->n_events + 1) * sizeof(*mt));
	mv = malloc((s->n_events + 1) * sizeof(*mv));
	if (!tt || !tc || !mt || !mv) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; s->temp_c && i < s->n_samples; i++)
		if (isfinite(s->temp_c[i])) {
			tt[nt] = s->t_s[i];
			tc[nt++] = s->temp_c[i];
			if (!(d->max_temp_c >= s->temp_c[i])) d->max_temp_c = s->temp_c[i];
		}
	d->n_temp = nt;
	for (size_t i = 0; i < s->n_events; i++) {
		const struct slc_event *e = &s->events[i];
		if (e->kind && slc_event_kind_from_name(e->kind) == SLC_EVK_THERMAL_TRANSITIONS) {
			mt[nm] = e->t_s;
			mv[nm++] = e->value;
		}
	}
	{
		struct slc_thermal_in th = { .temp_t_s = tt, .temp_c = tc, .n_temp = nt, .warn_c = d->warn_c,
					     .tmt_t_s = mt, .tmt = mv, .n_tmt = nm,
					     .interval_s = s->n_samples ? s->interval_s[0] : 1 };
		int r = slc_analysis_apply_thermal(a, &th);
		d->relabelled = r > 0 ? r : 0;
	}
	if (nc >= 2 && a->n_phases) {
		double reach = s->n_samples ? s->interval_s[0] : 1;
		for (size_t i = 1; i < nc; i++)
			if (ct[i] - ct[i - 1] > reach) reach = ct[i] - ct[i - 1];
		if (!(d->phase_wa = malloc(a->n_phases * sizeof(*d->phase_wa)))) {
			rc = -ENOMEM;
			goto out;
		}
		for (size_t p = 0; p < a->n_phases; p++)
			d->phase_wa[p] = slc_write_amplification(ct, ch, cn, nc, a->phases[p].start_s, a->phases[p].end_s, reach);
		if (a->has_cache) {
			d->cache_wa = slc_write_amplification(ct, ch, cn, nc, a->phases[0].start_s, a->cache_end_s, reach);
			if (isfinite(d->cache_wa))
				d->slc_flash_bytes = a->cache_bytes * d->cache_wa;
		}
	}
	if (!rc && s->writer_cpu && a->n_phases) {
		if (!(d->phase_host = malloc(a->n_phases * sizeof(*d->phase_host)))) {
			rc = -ENOMEM;
			goto out;
		}
		for (size_t p = 0; p < a->n_phases; p++) {
			slc_phase_host_of(&d->phase_host[p], s, a->phases[p].start_s, a->phases[p].end_s);
			d->host_bound += (size_t)d->phase_host[p].host_bound;
		}
	}
out:
	free(tt); free(tc); free(mt); free(mv);
	return rc;
}

/* An input of reads only (trim-response on a fast fill) or of a sweep
 * still has something to say. */
static int has_reads(const struct slc_input *in)
{
	for (size_t i = 0; i < in->n_segments; i++)
		if ((slc_workload_reads(slc_workload_from_name(in->segments[i].params.workload)) ||
		     in->segments[i].params.role == SLC_ROLE_SWEEP) && in->segments[i].n_samples > 0)
			return 1;
	return 0;
}

int slc_session_load(struct slc_session *x, const char *path, long only, const struct slc_cpd_opts *opts,
		     char *err, size_t errlen)
{
	return slc_session_load_many(x, &path, 1, NULL, only, opts, err, errlen);
}

/* The cell type of a simulated target's model; unknown for the rest. */
static enum slc_cell target_cell(const char *target)
{
	struct slc_sim_model m;
	char err[256];

	if (!target || strncmp(target, "sim:", 4) || slc_sim_model_load(&m, target, err, sizeof(err)))
		return SLC_CELL_UNKNOWN;
	return m.bits_per_cell >= 1 && m.bits_per_cell <= 4 ? (enum slc_cell)m.bits_per_cell : SLC_CELL_UNKNOWN;
}

/* The cell type a trace records (an import's --cell), else its simulated
 * target's. */
static enum slc_cell trace_cell(const struct slc_trace_meta *m)
{
	int c = m->cell_type ? slc_cell_from_name(m->cell_type) : -1;

	return c > 0 ? (enum slc_cell)c : target_cell(m->target);
}

/* A burst read against the run's main curve: the roles that write a burst
 * after the drive's state was changed (idle, TRIM, a fill level). */
static int is_burst(enum slc_role r)
{
	return r == SLC_ROLE_IDLE_BURST || r == SLC_ROLE_TRIM_BURST || r == SLC_ROLE_LEVEL_BURST ||
	       r == SLC_ROLE_SATURATE || r == SLC_ROLE_HIR_ROUNDS;
}

/* The main curve's levels as the reference of a later burst @s: the
 * latest analysed curve (else the first analysed segment) of the same
 * workload and block size. */
static void reference(struct slc_phase_evidence *ev, const struct slc_session *x,
		      const struct slc_input_segment *s)
{
	long pick = -1;

	for (size_t k = 0; k < x->n; k++) {
		const struct slc_input_segment *r = &x->in->segments[x->seg[k]];
		if (strcmp(r->params.workload, s->params.workload) || r->params.block_bytes != s->params.block_bytes)
			continue;
		if (r->params.role == SLC_ROLE_CURVE || pick < 0) pick = (long)k;
	}
	if (pick < 0) return;
	{
		const struct slc_analysis *a = &x->a[pick];
		ev->ref_cache_bps = a->has_cache ? a->cache_bps : NAN;
		ev->ref_cache_bytes = a->has_cache ? a->cache_bytes : NAN;
		for (size_t q = 0; q < a->n_phases; q++) {
			const struct slc_phase *p = &a->phases[q];
			if (p->kind == SLC_PHASE_DIRECT_TO_TLC && isnan(ev->ref_native_bps)) ev->ref_native_bps = p->mean_bps;
			if (p->kind == SLC_PHASE_ERASE_BOUND && isnan(ev->ref_erase_bps)) ev->ref_erase_bps = p->mean_bps;
		}
	}
}

/* The samples of @ti without the time a recorded host pause covers: a
 * stopped process is not the drive.  One writer thread cuts its samples at
 * a stop, so none is covered; writer threads count on the step's grid
 * through it, leaving intervals of little or no I/O that would read as a
 * stall.  A sample the pause covers for the most part (over 90%) is left
 * out: a gap in time that no phase counts, as a cut is, its bytes going to
 * the next sample kept so that the bytes written stay exact; one it covers
 * in part keeps its bytes over the time the host ran.  @u holds the copies
 * (NULL when none was needed) for unpause_free(). */
struct unpaused {
	double *t, *dt, *b;
};

static int unpause(struct slc_trace_in *ti, const struct slc_input_segment *s, struct unpaused *u)
{
	size_t m = 0, np = 0;
	double carry = 0;

	*u = (struct unpaused){ 0 };
	for (size_t e = 0; e < s->n_events; e++)
		np += s->events[e].kind && slc_event_kind_from_name(s->events[e].kind) == SLC_EVK_HOST_PAUSE;
	if (!np)
		return 0;
	u->t = malloc(ti->n * sizeof(double));
	u->dt = malloc(ti->n * sizeof(double));
	u->b = malloc(ti->n * sizeof(double));
	if (!u->t || !u->dt || !u->b)
		return -ENOMEM;
	for (size_t k = 0; k < ti->n; k++) {
		double hi = ti->t_s[k], lo = hi - ti->interval_s[k], in = 0;
		for (size_t e = 0; e < s->n_events; e++) {
			const struct slc_event *ev = &s->events[e];
			if (ev->kind && slc_event_kind_from_name(ev->kind) == SLC_EVK_HOST_PAUSE)
				in += fmax(0, fmin(hi, ev->t_s + ev->value) - fmax(lo, ev->t_s));
		}
		if (in > 0.9 * ti->interval_s[k] && k + 1 < ti->n) {
			carry += ti->bytes[k];
			continue;
		}
		u->t[m] = ti->t_s[k];
		u->dt[m] = ti->interval_s[k] - fmin(in, 0.9 * ti->interval_s[k]);
		u->b[m++] = ti->bytes[k] + carry;
		carry = 0;
	}
	ti->t_s = u->t;
	ti->interval_s = u->dt;
	ti->bytes = u->b;
	ti->n = m;
	return 0;
}

static void unpause_free(struct unpaused *u)
{
	free(u->t);
	free(u->dt);
	free(u->b);
}

/* Keep only trace segment @seg's analysis (the others were read as its
 * reference). */
static void keep_only(struct slc_session *x, size_t seg)
{
	size_t m = 0;

	for (size_t k = 0; k < x->n; k++) {
		if (x->seg[k] != seg) {
			slc_analysis_free(&x->a[k]);
			free(x->bytes[k]);
			free(x->drive[k].phase_wa);
			free(x->drive[k].phase_host);
			continue;
		}
		x->a[m] = x->a[k];
		x->bytes[m] = x->bytes[k];
		x->seg[m] = x->seg[k];
		x->drive[m] = x->drive[k];
		x->ev[m] = x->ev[k];
		m++;
	}
	x->n = m;
}

int slc_session_load_many(struct slc_session *x, const char *const *paths, size_t n_paths,
			  const struct slc_import_opts *io, long only, const struct slc_cpd_opts *opts, char *err,
			  size_t errlen)
{
	int rc, allow = x->allow_no_curve;
	struct slc_session_hints hints = x->hints;
	const char *path = n_paths ? paths[0] : NULL;
	enum slc_drive_state state;
	enum slc_cell cell;
	double capacity;

	memset(x, 0, sizeof(*x));
	x->allow_no_curve = allow;
	x->hints = hints;
	if ((rc = slc_input_load_many(&x->in, paths, n_paths, io, err, errlen)))
		return rc;
	if (only >= 0 && (size_t)only >= x->in->n_segments) {
		slc_errf(err, errlen, -EINVAL, "%s has %zu segments; there is no segment %ld", path, x->in->n_segments, only);
		slc_session_free(x);
		x->allow_no_curve = allow;
		x->hints = hints;
		return -EINVAL;
	}
	x->seg = calloc(x->in->n_segments + 1, sizeof(*x->seg));
	x->a = calloc(x->in->n_segments + 1, sizeof(*x->a));
	x->bytes = calloc(x->in->n_segments + 1, sizeof(*x->bytes));
	x->drive = calloc(x->in->n_segments + 1, sizeof(*x->drive));
	x->ev = calloc(x->in->n_segments + 1, sizeof(*x->ev));
	if (!x->seg || !x->a || !x->bytes || !x->drive || !x->ev) {
		slc_session_free(x);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	/* what the run knows besides the curves: the target's size and cell
	 * type, the state each step leaves the flash in (a simulated drive
	 * starts erased) */
	capacity = hints.capacity_bytes > 0 ? hints.capacity_bytes : (double)x->in->meta.capacity_bytes;
	cell = hints.cell ? (enum slc_cell)hints.cell : trace_cell(&x->in->meta);
	state = x->in->meta.target && !strncmp(x->in->meta.target, "sim:", 4) ? SLC_STATE_TRIMMED : SLC_STATE_UNKNOWN;
	for (size_t i = 0; i < x->in->n_segments; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		struct slc_phase_evidence *ev = &x->ev[x->n];
		struct slc_trace_in ti;
		struct unpaused up = { 0 };
		double *b, *ct = NULL, *ch, *cn;

		if (s->params.role == SLC_ROLE_TRIM || slc_role_after_trim(s->params.role, s->params.role_arg))
			state = SLC_STATE_TRIMMED;
		if (!slc_session_is_curve(s)) continue;
		slc_phase_evidence_init(ev);
		ev->params = hints.model_params;
		ev->capacity_bytes = capacity;
		ev->cell = cell;
		ev->state = state;
		if (hints.steady_after.bytes) ev->steady_after_bytes = (double)hints.steady_after.bytes;
		else if (hints.steady_after.capacity_multiple > 0)
			ev->steady_after_bytes = capacity > 0 ? hints.steady_after.capacity_multiple * capacity : 0;
		if (s->params.role == SLC_ROLE_LEVEL_BURST && s->params.role_arg > 0) ev->state = SLC_STATE_USED;
		if (ev->state == SLC_STATE_UNKNOWN && hints.state) ev->state = (enum slc_drive_state)hints.state;
		if (is_burst(s->params.role)) reference(ev, x, s);
		/* whatever it wrote, the flash is no longer erased */
		state = SLC_STATE_USED;
		/* with one segment asked for, the curves before it are still
		 * read: a burst's reference is the run's main curve */
		if (only >= 0 && (size_t)only != i && !((size_t)only > i && s->params.role == SLC_ROLE_CURVE))
			continue;
		b = malloc(s->n_samples * sizeof(*b));
		if (!b) {
			slc_session_free(x);
			return slc_errf(err, errlen, -ENOMEM, "out of memory");
		}
		for (size_t k = 0; k < s->n_samples; k++)
			b[k] = (double)s->bytes_total[k] - (k ? (double)s->bytes_total[k - 1] : 0.0);
		ti = (struct slc_trace_in){ .t_s = s->t_s, .interval_s = s->interval_s, .bytes = b,
					    .n = s->n_samples, .block_bytes = s->params.block_bytes };
		x->bytes[x->n] = b;
		x->seg[x->n] = i;
		if ((rc = segment_counters(s, &ct, &ch, &cn, &ev->n_ctr)) || (rc = unpause(&ti, s, &up))) {
			unpause_free(&up);
			free(ct);
			slc_session_free(x);
			return slc_errf(err, errlen, rc, "out of memory");
		}
		ev->ctr_t_s = ct;
		ev->ctr_host = ch;
		ev->ctr_nand = cn;
		rc = slc_analyze_ev(&x->a[x->n], &ti, opts, ev);
		unpause_free(&up);
		x->n++;
		if (!rc && (rc = drive_evidence(x, x->n - 1, i, ev)))
			slc_errf(err, errlen, rc, "out of memory");
		else if (rc)
			slc_errf(err, errlen, rc, "%s: segment %zu (%s): cannot analyse: %s", path, i,
				 s->params.step ? s->params.step : "-", strerror(-rc));
		/* the readings stay with the segment's events; the evidence
		 * keeps what it says, not a pointer into them */
		free(ct);
		ev->ctr_t_s = ev->ctr_host = ev->ctr_nand = NULL;
		ev->n_ctr = 0;
		if (rc) {
			slc_session_free(x);
			return rc;
		}
	}
	if (only >= 0) keep_only(x, (size_t)only);
	/* a run stopped before its first curve still has a report: the drive,
	 * the conditions and how far it got */
	if (!x->n && (!x->allow_no_curve || !(has_reads(x->in) || (x->in->meta.run_status &&
								    strcmp(x->in->meta.run_status, "complete"))))) {
		slc_errf(err, errlen, -ENODATA, "%s: no write curve to analyse (no segment with at least 2 samples of writes)", path);
		slc_session_free(x);
		return -ENODATA;
	}
	if ((rc = slc__experiments_analyze(x))) {
		slc_session_free(x);
		return slc_errf(err, errlen, rc, "out of memory");
	}
	return 0;
}

/* The drive's own figures for analysed segment @k: segment["drive"], a
 * write_amplification on each phase, cache.slc_flash_bytes_est. */
static void drive_json(json_t *seg, const struct slc_session *x, size_t k)
{
	const struct slc_session_drive *d = &x->drive[k];
	json_t *o = json_object(), *ph = json_object_get(seg, "phases"), *cache = json_object_get(seg, "cache");

	json_object_set_new(o, "host_write_bytes", slc__jnum(d->host_bytes));
	json_object_set_new(o, "nand_write_bytes", slc__jnum(d->nand_bytes));
	json_object_set_new(o, "write_amplification", slc__jnum(d->wa));
	json_object_set_new(o, "cache_write_amplification", slc__jnum(d->cache_wa));
	json_object_set_new(o, "warn_temp_c", slc__jnum(d->warn_c));
	json_object_set_new(o, "temp_readings", json_integer((json_int_t)d->n_temp));
	json_object_set_new(o, "max_temp_c", slc__jnum(d->max_temp_c));
	json_object_set_new(o, "thermal_relabelled", json_integer(d->relabelled));
	json_object_set_new(seg, "drive", o);
	if (json_is_object(cache))
		json_object_set_new(cache, "slc_flash_bytes_est", slc__jnum(d->slc_flash_bytes));
	for (size_t p = 0; p < json_array_size(ph) && p < x->a[k].n_phases; p++) {
		const struct slc_phase_host *h = d->phase_host ? &d->phase_host[p] : NULL;
		json_t *po = json_array_get(ph, p);

		json_object_set_new(po, "write_amplification", d->phase_wa ? slc__jnum(d->phase_wa[p]) : json_null());
		json_object_set_new(po, "host_bound", json_boolean(h && h->host_bound));
		json_object_set_new(po, "writer_cpu", slc__jnum(h ? h->cpu : NAN));
		json_object_set_new(po, "writer_wait", slc__jnum(h ? h->wait : NAN));
	}
}

/* What the model read segment @k with: model.evidence. */
static void evidence_json(json_t *seg, const struct slc_session *x, size_t k)
{
	const struct slc_phase_evidence *ev = &x->ev[k];
	json_t *m = json_object_get(seg, "model"), *o;

	if (!json_is_object(m)) return;
	o = json_pack("{s:o, s:s, s:s, s:{s:o, s:o, s:o, s:o}}", "capacity_bytes",
		      ev->capacity_bytes > 0 ? json_real(ev->capacity_bytes) : json_null(),
		      "cell", slc_cell_name(ev->cell), "state", slc_drive_state_name(ev->state),
		      "reference", "cache_bps", slc__jnum(ev->ref_cache_bps), "native_bps",
		      slc__jnum(ev->ref_native_bps), "erase_bound_bps", slc__jnum(ev->ref_erase_bps),
		      "cache_bytes", slc__jnum(ev->ref_cache_bytes));
	if (o) json_object_set_new(m, "evidence", o);
}

/* Each segment's "recovery" against the session's main curve, the same
 * reference as the report's headline and the console, so that every output
 * states one fraction; segments up to the main curve have none. */
static void recovery_json(json_t *o, const struct slc_session *x, size_t i)
{
	long ref = slc_session_pick(x, 0);
	struct slc_recovery r;
	json_t *rec;

	json_object_del(o, "recovery");
	if (ref < 0 || i <= (size_t)ref || slc_session_recovery(x, i, &r))
		return;
	rec = json_object();
	json_object_set_new(rec, "burst_bps", slc__jnum(r.burst_bps));
	json_object_set_new(rec, "cache_bytes", slc__jnum(r.cache_bytes));
	json_object_set_new(rec, "cache_frac", slc__jnum(r.cache_frac));
	json_object_set_new(o, "recovery", rec);
}

int slc_session_json(char **out, const struct slc_session *x)
{
	char *text = NULL;
	json_t *doc, *segs;
	json_error_t jerr;
	int rc = x->n ? slc_phases_json(&text, x->a, x->n) : 0;

	if (rc)
		return rc;
	if (x->n) {
		doc = json_loads(text, 0, &jerr);
		free(text);
	} else {
		/* no write curve: the keys the schema promises, empty */
		doc = json_pack("{s:s, s:{s:n, s:n}, s:[], s:{s:b, s:n}, s:[]}", "schema", "slcscope.phases/2",
				"cache", "size_bytes", "speed_bps", "phases", "steady_state", "reached", 0, "start_s",
				"segments");
	}
	if (!doc)
		return -ENOMEM;
	segs = json_object_get(doc, "segments");
	for (size_t i = 0; i < x->n && i < json_array_size(segs); i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		json_t *o = json_array_get(segs, i);
		json_object_set_new(o, "segment", json_integer((json_int_t)x->seg[i]));
		json_object_set_new(o, "step", json_string(s->params.step ? s->params.step : ""));
		json_object_set_new(o, "workload", json_string(s->params.workload ? s->params.workload : ""));
		json_object_set_new(o, "block_bytes", json_integer(s->params.block_bytes));
		json_object_set_new(o, "idle_before_s", json_real(s->params.idle_before_s));
		drive_json(o, x, i);
		evidence_json(o, x, i);
		recovery_json(o, x, i);
		if (i == 0) {
			drive_json(doc, x, 0);      /* the top level repeats the first segment */
			evidence_json(doc, x, 0);
		}
	}
	slc__experiments_json(doc, x);
	slc__sweep_json(doc, slc__session_sweep(x));
	json_object_set_new(doc, "source", json_string(x->in->source ? x->in->source : ""));
	if (x->in->meta.target)
		json_object_set_new(doc, "target", json_string(x->in->meta.target));
	*out = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(doc);
	return *out ? 0 : -ENOMEM;
}


int slc_session_hints_set(struct slc_session_hints *h, const char *name, const char *value, char *err,
			  size_t errlen)
{
	struct slc_size sz;
	char why[256];

	if (!strcmp(name, "cell")) {
		if ((h->cell = slc_cell_from_name(value)) <= 0)
			return slc_errf(err, errlen, -EINVAL, "--cell: '%s' is not slc, mlc, tlc or qlc", value);
	} else if (!strcmp(name, "state")) {
		if ((h->state = slc_drive_state_from_name(value)) < 0)
			return slc_errf(err, errlen, -EINVAL, "--state: '%s' is not trimmed, used or unknown", value);
	} else if (!strcmp(name, "capacity") || !strcmp(name, "steady-after")) {
		if (slc_parse_size(&sz, value, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--%s: %s", name, why);
		if (name[0] == 's') {
			h->steady_after = sz;
		} else {
			struct slc_import_opts io;

			if (!sz.bytes)
				return slc_errf(err, errlen, -EINVAL, "--capacity: '%s' is not a size in bytes", value);
			/* the capacities a trace can hold, as import takes them */
			slc_import_opts_init(&io);
			if (slc_import_opts_set(&io, "capacity", value, err, errlen))
				return -EINVAL;
			h->capacity_bytes = (double)sz.bytes;
		}
	} else {
		return slc_errf(err, errlen, -ENOENT, "no hint '%s'", name);
	}
	return 0;
}
