// SPDX-License-Identifier: MIT
/*
 * Run plans: the lab methodology as a list of steps, and the runner that
 * executes them on a target, one trace segment per step.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "slcscope/core.h"
#include "private.h"

#define IS_JOB(s) ((s)->kind == SLC_STEP_JOB || (s)->kind == SLC_STEP_DUTY)

void slc_plan_opts_default(struct slc_plan_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seq_bytes.capacity_multiple = 1.0;
	o->seq_block_bytes = 128u << 10;
	o->rand_block_bytes = 4096;
	o->queue_depth = 32;
	o->jobs = 1;
	o->rand_ns = 7200ull * 1000000000ull;
	o->idle_ns = 900ull * 1000000000ull;
	o->burst_ns = 60ull * 1000000000ull;
	o->trim_wait_ns = 30ull * 1000000000ull;
	o->interval_ns = 1000000000ull;
	o->seed = 1;
	/* the reviews delete a 32 GB file; on a drive under 128 GB, a quarter of it */
	o->trim_bytes.bytes = 32000000000ull;
	o->trim_bytes.capacity_multiple = 0.25;
	o->read_ns = 30ull * 1000000000ull;
	o->hir_rounds = 360;
	o->step_ns = 30ull * 1000000000ull;
	o->region.bytes = 1ull << 30;
	/* each point after a TRIM of everything, as the reviews start each test */
	o->sweep_state = SLC_SWEEP_STATE_TRIM;
	o->settle_ns = SLC_PLAN_SETTLE_TRIM_WAIT;
	/* SNIA PTS: twice the user capacity written before the measurements */
	o->steady_bytes.capacity_multiple = 2.0;
	o->point_bytes.bytes = 1ull << 30;
	{
		static const uint64_t waits_s[] = { 5, 15, 30, 60, 120, 300, 900 };
		o->n_idle_sweep = sizeof(waits_s) / sizeof(waits_s[0]);
		for (size_t i = 0; i < o->n_idle_sweep; i++)
			o->idle_sweep_ns[i] = waits_s[i] * 1000000000ull;
	}
}

int slc_plan_opts_idle_list(struct slc_plan_opts *o, const char *list, char *err, size_t errlen)
{
	char buf[512], why[128], *save = NULL, *tok;
	size_t n = 0;
	uint64_t prev = 0;

	if (strlen(list) >= sizeof(buf))
		return slc_errf(err, errlen, -EINVAL, "--idle-list: too long");
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t ns;
		if (n >= 7)
			return slc_errf(err, errlen, -EINVAL, "--idle-list: at most 7 waits");
		if (slc_parse_duration_ns(&ns, tok, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--idle-list: %s", why);
		if (ns < 1000000000ull || ns <= prev)
			return slc_errf(err, errlen, -EINVAL, "--idle-list: waits must be at least 1s and increasing");
		o->idle_sweep_ns[n++] = prev = ns;
	}
	if (!n)
		return slc_errf(err, errlen, -EINVAL, "--idle-list: no waits given");
	o->n_idle_sweep = n;
	return 0;
}

/* Let the target idle for @ns, in slices of 200 ms so that a stop request
 * (Ctrl-C) is noticed during a long wait (a TRIM's, an idle step's).
 * Return: how long it waited, less than @ns when stopped. */
static uint64_t wait_stoppable(struct slc_target *t, uint64_t ns, const volatile int *stop)
{
	uint64_t t0 = slc_target_now_ns(t), end = t0 + ns, now;

	while ((now = slc_target_now_ns(t)) < end) {
		uint64_t slice = 200000000ull;
		if (stop && *stop)
			break;
		slc_target_idle(t, end - now < slice ? end : now + slice);
	}
	now = slc_target_now_ns(t);
	return now - t0 < ns ? now - t0 : ns;
}

struct slc_step *slc_plan_add_step(struct slc_plan *p, const char *name, enum slc_step_kind kind,
				   enum slc_role role, uint32_t role_arg)
{
	struct slc_step *s;

	/* a plan past its room fails when made (slc_plan_make); the extra
	 * steps overwrite the last one meanwhile, so no builder checks */
	if (p->n >= SLC_PLAN_MAX_STEPS) {
		p->overflow = 1;
		p->n = SLC_PLAN_MAX_STEPS - 1;
	}
	s = &p->step[p->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->kind = kind;
	s->role = role;
	s->role_arg = role_arg;
	return s;
}

struct slc_step *slc_plan_add_trim(struct slc_plan *p, const char *name, const struct slc_plan_opts *o)
{
	struct slc_step *s = slc_plan_add_step(p, name, SLC_STEP_TRIM, SLC_ROLE_TRIM, 0);

	s->wait_ns = o->trim_wait_ns;
	return s;
}

struct slc_step *slc_plan_add_job(struct slc_plan *p, const char *name, enum slc_role role, uint32_t role_arg,
				  enum slc_job_kind kind, const struct slc_plan_opts *o, uint64_t max_ns,
				  struct slc_size bytes)
{
	struct slc_step *s = slc_plan_add_step(p, name, SLC_STEP_JOB, role, role_arg);

	s->job.kind = kind;
	s->job.block_bytes = kind == SLC_JOB_SEQ_WRITE ? o->seq_block_bytes : o->rand_block_bytes;
	s->job.queue_depth = o->queue_depth;
	s->job.jobs = o->jobs;
	s->job.reap_batch = o->reap_batch;
	s->job.max_ns = max_ns;
	s->job.interval_ns = o->interval_ns;
	s->job.seed = o->seed + p->n;
	s->bytes = bytes;
	return s;
}

struct slc_step *slc_plan_add_point(struct slc_plan *p, const char *name, uint32_t group, enum slc_job_kind kind,
				    uint32_t block, uint32_t qd, uint32_t jobs, uint32_t read_pct,
				    const struct slc_plan_opts *o)
{
	struct slc_step *s = slc_plan_add_step(p, name, SLC_STEP_JOB, SLC_ROLE_SWEEP, group);

	s->job.kind = kind;
	s->job.block_bytes = block;
	s->job.queue_depth = qd;
	s->job.jobs = jobs;
	s->job.read_pct = slc_job_kind_read_pct(kind, read_pct);
	/* the reviews' 4 KiB-aligned random offsets, whatever the block size */
	s->job.align_bytes = slc_job_kind_sequential(kind) ? 0 : 4096;
	s->job.reap_batch = o->reap_batch;
	s->job.max_ns = o->step_ns;
	s->job.interval_ns = o->interval_ns;
	s->job.seed = o->seed + p->n;
	s->range = o->region;
	return s;
}

struct slc_step *slc_plan_add_prep(struct slc_plan *p, const char *name, const struct slc_plan_opts *o)
{
	struct slc_step *s = slc_plan_add_job(p, name, SLC_ROLE_SWEEP_PREP, 0, SLC_JOB_SEQ_WRITE, o, 0, o->region);

	s->range = o->region;
	return s;
}

/* A job step with neither a size nor a time never ends: name the option that made it so. */
static int check_limits(const struct slc_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		const char *why;
		if (!IS_JOB(s) || s->job.max_ns || s->bytes.bytes || s->bytes.capacity_multiple > 0)
			continue;
		switch (s->role) {
		case SLC_ROLE_FILL: why = "--seq-bytes: must be more than 0"; break;
		case SLC_ROLE_CURVE: why = "--rand-time 0 needs --rand-bytes: the random curve would never end"; break;
		case SLC_ROLE_READ_AFTER_TRIM: why = "--read-time: must be more than 0"; break;
		case SLC_ROLE_SWEEP: why = "--step-time: must be more than 0"; break;
		case SLC_ROLE_SWEEP_PREP: why = "--region: must be more than 0"; break;
		default: why = "--burst: must be more than 0"; break;
		}
		return slc_errf(err, errlen, -EINVAL, "%s (step %s)", why, s->name);
	}
	return 0;
}

/*
 * The options' ranges, checked before anything is opened: a typo (99999h)
 * must not start a run that ends in years.  The interval: 10 ms is the
 * finest the sampler keeps up with; over an hour, no curve has the two
 * samples the analysis wants.  A step of over a week is no test anyone
 * waits for.
 */
#define MAX_STEP_NS (7 * 86400000000000ull)
#define MAX_WRITES_X 1000u            /* a step writes at most this many times the target */

static int check_ranges(const struct slc_plan_opts *o, char *err, size_t errlen)
{
	const struct { const char *opt; uint64_t ns; } t[] = {
		{ "--rand-time", o->rand_ns }, { "--idle", o->idle_ns }, { "--burst", o->burst_ns },
		{ "--trim-wait", o->trim_wait_ns }, { "--read-time", o->read_ns }, { "--step-time", o->step_ns },
	};

	if (o->interval_ns && (o->interval_ns < SLC_PLAN_MIN_INTERVAL_NS || o->interval_ns > SLC_PLAN_MAX_INTERVAL_NS))
		return slc_errf(err, errlen, -ERANGE, "--interval: from 10ms to 1h, not %.6g s", (double)o->interval_ns * 1e-9);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].ns > MAX_STEP_NS)
			return slc_errf(err, errlen, -ERANGE, "%s: at most 7 days (168h), not %.6g h", t[i].opt,
					(double)t[i].ns / 3.6e12);
	for (size_t i = 0; i < o->n_idle_sweep && i < sizeof(o->idle_sweep_ns) / sizeof(o->idle_sweep_ns[0]); i++)
		if (o->idle_sweep_ns[i] > MAX_STEP_NS)
			return slc_errf(err, errlen, -ERANGE, "--idle-list: each wait at most 7 days (168h)");
	return 0;
}

int slc_plan_make(struct slc_plan *p, const char *name, slc_plan_builder build, const struct slc_plan_opts *o,
		  char *err, size_t errlen)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = check_ranges(o, err, errlen)))
		return rc;
	snprintf(p->name, sizeof(p->name), "%s", name);
	if ((rc = build(p, o, err, errlen)))
		return rc;
	if (p->overflow)
		return slc_errf(err, errlen, -E2BIG, "plan %s: more than %d steps", name, SLC_PLAN_MAX_STEPS);
	if ((rc = slc_plan_set_point_state(p, o, err, errlen)))
		return rc;
	return check_limits(p, err, errlen);
}

struct step_ctx {
	struct slc_trace *trace;
	const struct slc_plan *p;
	const struct slc_plan_hooks *h;
	size_t i;
	int trace_rc;
	double t_offset_s;            /* DUTY: rounds continue one segment */
	uint64_t bytes_offset;
};

static int on_sample(void *arg, const struct slc_sample *smp)
{
	struct step_ctx *c = arg;
	struct slc_sample shifted = *smp, *s = &shifted;

	shifted.t_s += c->t_offset_s;
	shifted.bytes_total += c->bytes_offset;
	if (c->trace && (c->trace_rc = slc_trace_append(c->trace, s)))
		return c->trace_rc;
	if (c->h && c->h->sample)
		return c->h->sample(c->h->arg, c->i, c->p, s);
	return 0;
}

/* A target's ground-truth event into the trace.  The trace's event kinds
 * begin with the ground-truth kinds, in their order (vocab.c asserts it). */
static int on_event(void *arg, const struct slc_sim_event *e, uint64_t t0)
{
	struct step_ctx *c = arg;
	struct slc_event ev = {
		.t_s = e->t_ns >= t0 ? (double)(e->t_ns - t0) * 1e-9 : 0,
		.host_bytes = e->host_bytes,
		.kind = slc_event_kind_name((enum slc_event_kind)e->kind),
		.value = e->value,
	};

	if (c->trace && (c->trace_rc = slc_trace_event(c->trace, &ev)))
		return c->trace_rc;
	return 0;
}

static int on_temperature(void *arg, double *c)
{
	struct step_ctx *ctx = arg;

	return ctx->h->temperature(ctx->h->arg, c);
}

static void on_draining(void *arg, const struct slc_drain *d)
{
	struct step_ctx *c = arg;

	c->h->draining(c->h->arg, c->i, c->p, d);
}

/* A host pause: an event in the segment (its length in seconds as the
 * value), so that the gap in the samples reads as the host's, not the drive's. */
static int on_host_pause(void *arg, uint64_t at_ns, uint64_t paused_ns, int suspended, uint64_t t0)
{
	struct step_ctx *c = arg;
	struct slc_event ev = {
		.t_s = (at_ns >= t0 ? (double)(at_ns - t0) * 1e-9 : 0) + c->t_offset_s,
		.host_bytes = 0,
		.kind = slc_event_kind_name(SLC_EVK_HOST_PAUSE),
		.value = (double)paused_ns * 1e-9,
	};

	if (c->trace && (c->trace_rc = slc_trace_event(c->trace, &ev)))
		return c->trace_rc;
	if (c->h && c->h->host_pause)
		c->h->host_pause(c->h->arg, c->i, c->p, ev.value, suspended);
	return 0;
}

static void on_progress(void *arg, const struct slc_progress *pr)
{
	struct step_ctx *c = arg;

	if (c->h && c->h->progress)
		c->h->progress(c->h->arg, c->i, c->p, pr);
}

static const char *workload_name(const struct slc_step *s)
{
	if (s->kind == SLC_STEP_TRIM) return slc_workload_name(SLC_WL_TRIM);
	if (s->kind == SLC_STEP_DUTY) return slc_workload_name(SLC_WL_RAND_WRITE_DUTY);
	if (s->kind == SLC_STEP_IDLE) return slc_workload_name(SLC_WL_IDLE);
	switch (s->job.kind) {
	case SLC_JOB_SEQ_WRITE: return slc_workload_name(SLC_WL_SEQ_WRITE);
	case SLC_JOB_RAND_WRITE: return slc_workload_name(SLC_WL_RAND_WRITE);
	case SLC_JOB_SEQ_READ: return slc_workload_name(SLC_WL_SEQ_READ);
	case SLC_JOB_SEQ_MIXED: return slc_workload_name(SLC_WL_SEQ_MIXED);
	case SLC_JOB_RAND_MIXED: return slc_workload_name(SLC_WL_RAND_MIXED);
	default: return slc_workload_name(SLC_WL_RAND_READ);
	}
}

static const char *data_name(const struct slc_job *j, char *buf, size_t len)
{
	if (j->data == SLC_DATA_REPEATING) return "repeat";
	if (j->data == SLC_DATA_COMPRESSIBLE) {
		snprintf(buf, len, "compressible:%.2f", j->compress_ratio);
		return buf;
	}
	return "random";
}

/* A TRIM of a range that reads follow (SLC_ROLE_TRIM_RANGE) deletes the
 * first part of what was written and the reads stay in the rest: the range
 * must fit in half of this target. */
static int check_plan_fits(const struct slc_plan *p, uint64_t cap, char *err, size_t errlen)
{
	uint64_t tb;

	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		if (s->kind != SLC_STEP_TRIM || s->role != SLC_ROLE_TRIM_RANGE)
			continue;
		if (slc_size_resolve(&tb, &s->bytes, cap) || tb > cap / 2)
			return slc_errf(err, errlen, -EINVAL, "the deleted range (--trim-bytes) must be at most "
					"half the target (%llu bytes)", (unsigned long long)(cap / 2));
	}
	return 0;
}

/* The job a job step runs on a target of @cap bytes: its size and region
 * resolved, the region on whole blocks. */
static int resolve_job(const struct slc_step *s, uint64_t cap, struct slc_job *job, char *err, size_t errlen)
{
	uint64_t blk;

	if (slc_size_resolve(&job->max_bytes, &s->bytes, cap) ||
	    slc_size_resolve(&job->offset_bytes, &s->offset, cap) ||
	    slc_size_resolve(&job->range_bytes, &s->range, cap) ||
	    job->offset_bytes + job->range_bytes > cap) {
		char r[32], t[32];
		int sweep = s->role == SLC_ROLE_SWEEP || s->role == SLC_ROLE_SWEEP_PREP;

		slc_format_bytes(r, sizeof(r), (double)(job->offset_bytes + job->range_bytes), SLC_UNITS_DECIMAL);
		slc_format_bytes(t, sizeof(t), (double)cap, SLC_UNITS_DECIMAL);
		return slc_errf(err, errlen, -EINVAL, "step %s: its region (%s from the start) is larger than the "
				"target (%s)%s", s->name, r, t, sweep ? ": give a smaller --region" : "");
	}
	if (s->offset.bytes == 0 && s->offset.capacity_multiple == 0) {
		job->offset_bytes = s->job.offset_bytes;
		if (!(s->range.bytes || s->range.capacity_multiple > 0))
			job->range_bytes = s->job.range_bytes;
	}
	/* fractions of the capacity land on whole blocks */
	blk = job->block_bytes ? job->block_bytes : (slc_job_kind_sequential(job->kind) ? 131072 : 4096);
	job->offset_bytes -= job->offset_bytes % blk;
	job->range_bytes -= job->range_bytes % blk;
	if (job->max_bytes > 0 && s->bytes.capacity_multiple > 0)
		job->max_bytes -= job->max_bytes % blk;
	return 0;
}

/*
 * What the plan wrote since its last TRIM of everything, so that a step's
 * reads can be marked: reads of space never written or trimmed are allowed
 * (a drive answers them from its map, without reading flash), and the
 * analysis must know which it saw.  One extent written in order (the
 * sequential writes, merged while they touch) and the hull of the rest.
 */
struct written {
	int known;                    /* a TRIM of everything: nothing is written but what follows */
	uint64_t lo, hi;              /* written in full */
	uint64_t dlo, dhi;            /* written here and there (random writes) */
};

static int overlaps(uint64_t a, uint64_t b, uint64_t lo, uint64_t hi)
{
	return lo < hi && a < hi && lo < b;
}

static const char *read_state(const struct written *w, const struct slc_job *job, uint64_t cap)
{
	uint64_t a = job->offset_bytes, b = a + (job->range_bytes ? job->range_bytes : cap - a);

	if (!slc_job_kind_read_pct(job->kind, job->read_pct))
		return "";
	if (w->lo < w->hi && a >= w->lo && b <= w->hi)
		return "written";
	if (!w->known)
		return "unknown";
	return overlaps(a, b, w->lo, w->hi) || overlaps(a, b, w->dlo, w->dhi) ? "partly" : "trimmed";
}

static void hull(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t b)
{
	if (*lo >= *hi) {
		*lo = a;
		*hi = b;
		return;
	}
	if (a < *lo) *lo = a;
	if (b > *hi) *hi = b;
}

/* After step @s on a target of @cap bytes, which did @res. */
static void note_written(struct written *w, const struct slc_step *s, const struct slc_job *job,
			 const struct slc_job_result *res, uint64_t cap)
{
	uint64_t a = job->offset_bytes, range = job->range_bytes ? job->range_bytes : cap - a, len = cap;

	if (s->kind == SLC_STEP_TRIM) {
		if ((s->bytes.bytes || s->bytes.capacity_multiple > 0) && slc_size_resolve(&len, &s->bytes, cap))
			return;
		if (len >= cap) {
			*w = (struct written){ .known = 1 };
			return;
		}
		/* a TRIM from 0: what lay below @len is gone */
		if (w->lo < len) w->lo = len < w->hi ? len : w->hi;
		if (w->dlo < len) w->dlo = len < w->dhi ? len : w->dhi;
		return;
	}
	if (!IS_JOB(s) || slc_job_kind_read_pct(job->kind, job->read_pct) == 100 || !res->bytes)
		return;
	if (job->kind == SLC_JOB_SEQ_WRITE && (job->jobs <= 1 || res->bytes >= range)) {
		uint64_t b = a + (res->bytes < range ? res->bytes : range);
		if (w->lo >= w->hi || (a <= w->hi && b >= w->lo)) {
			hull(&w->lo, &w->hi, a, b);
			return;
		}
	}
	hull(&w->dlo, &w->dhi, a, a + range);
}

/* What the trace records of step @s as its segment: the job's values with
 * the engine's defaults filled in, and the target's clock. */
static void describe_segment(struct slc_segment_params *sp, const struct slc_step *s, const struct slc_job *job,
			     const struct slc_target *t, double idle_before_s, const struct written *w,
			     char *dbuf, size_t dlen)
{
	sp->read_state = IS_JOB(s) ? read_state(w, job, slc_target_capacity(t)) : "";
	sp->step = s->name;
	sp->role = s->role;
	sp->role_arg = s->role_arg;
	sp->workload = workload_name(s);
	sp->block_bytes = IS_JOB(s) ? (job->block_bytes ? job->block_bytes :
		(slc_job_kind_sequential(job->kind) ? 131072 : 4096)) : 0;
	sp->read_pct = IS_JOB(s) ? slc_job_kind_read_pct(job->kind, job->read_pct) : 0;
	sp->queue_depth = IS_JOB(s) ? (job->queue_depth ? job->queue_depth : 32) : 0;
	sp->jobs = IS_JOB(s) ? (job->jobs ? job->jobs : 1) : 0;
	sp->reap_batch = IS_JOB(s) ? slc_engine_reap_batch(t, job) : 0;
	sp->io_mode = IS_JOB(s) ? slc_target_io_mode(t) : "";
	/* only the kernel's rings poll (block devices and files), and not
	 * where the kernel's own wait polls the device (--hipri); with a
	 * thread per job each polls its own queue */
	sp->poll_us = IS_JOB(s) && (slc_target_kind(t) == SLC_TARGET_BLOCKDEV || slc_target_kind(t) == SLC_TARGET_FILE) &&
		strcmp(sp->io_mode, "iopoll") ?
		(uint32_t)(slc__engine_poll_ns(sp->queue_depth * (slc__jobs_threaded(t, job) ? 1 : sp->jobs)) / 1000) : 0;
	sp->offset_bytes = job->offset_bytes;
	sp->range_bytes = job->range_bytes ? job->range_bytes : slc_target_capacity(t);
	sp->idle_before_s = idle_before_s;
	sp->seed = job->seed;
	sp->data_pattern = data_name(job, dbuf, dlen);
	sp->interval_s = (double)(job->interval_ns ? job->interval_ns : 1000000000ull) * 1e-9;
	sp->clock = slc_target_caps(t) & SLC_TARGET_CAP_VIRTUAL_CLOCK ? "virtual" : "monotonic";
}

/* TRIM the step's range from 0 (all of the target when it has none), record
 * it as an event, then wait. */
static int run_trim(const struct slc_step *s, struct slc_target *t, struct slc_trace *trace,
		    const volatile int *stop, uint64_t *waited_ns, char *err, size_t errlen)
{
	uint64_t t0 = slc_target_now_ns(t), cap = slc_target_capacity(t), len = cap;
	int rc;

	if ((s->bytes.bytes || s->bytes.capacity_multiple > 0) &&
	    (slc_size_resolve(&len, &s->bytes, cap) || len > cap))
		return slc_errf(err, errlen, -EINVAL, "step %s: TRIM range larger than the target", s->name);
	if ((rc = slc_target_discard_stoppable(t, 0, len, stop)) == -ECANCELED)
		return rc;
	if (rc)
		return slc_errf(err, errlen, rc, "step %s: TRIM failed: %s", s->name, strerror(-rc));
	if (trace) {
		struct slc_event ev = { (double)(slc_target_now_ns(t) - t0) * 1e-9, 0, slc_event_kind_name(SLC_EVK_TRIM), (double)len };
		slc_trace_event(trace, &ev);
	}
	*waited_ns = wait_stoppable(t, s->wait_ns, stop);
	return 0;
}

/* How a step's work ended. */
struct step_end {
	int rc;                       /* 0, or what ends the plan after the step */
	int at_once;                  /* end the plan now, the segment left open (rc) */
};

/* Rounds of writing and waiting, one segment: the samples continue where
 * the previous round's left off. */
static struct step_end run_duty(const struct slc_step *s, struct slc_target *t, const struct slc_job *job,
				const struct slc_engine_cb *cb, struct step_ctx *ctx, const volatile int *stop,
				struct slc_job_result *res, char *err, size_t errlen)
{
	uint64_t seg_t0 = slc_target_now_ns(t), total = 0, ios = 0;
	struct step_end e = { 0, 0 };

	for (uint32_t r = 0; r < s->rounds && !e.rc; r++) {
		ctx->t_offset_s = (double)(slc_target_now_ns(t) - seg_t0) / 1e9;
		ctx->bytes_offset = total;
		e.rc = slc_engine_run(t, job, cb, stop, res, err, errlen);
		total += res->bytes;
		ios += res->ios;
		if (ctx->trace_rc)
			return (struct step_end){ slc_errf(err, errlen, ctx->trace_rc, "trace: %s",
							   slc_trace_errmsg(ctx->trace)), 1 };
		if (e.rc || (stop && *stop))
			break;
		wait_stoppable(t, s->wait_ns, stop);
	}
	res->bytes = total;
	res->ios = ios;
	res->elapsed_ns = slc_target_now_ns(t) - seg_t0;
	return e;
}

/* Do step @s's work inside its open segment; *@idle_before_s becomes the
 * wait the next step follows. */
static struct step_end run_step_work(const struct slc_step *s, struct slc_target *t, const struct slc_job *job,
				     struct step_ctx *ctx, const volatile int *stop, struct slc_job_result *res,
				     double *idle_before_s, char *err, size_t errlen)
{
	const struct slc_plan_hooks *hooks = ctx->h;
	struct slc_engine_cb cb = { on_sample, on_event, on_progress, ctx,
				    hooks && hooks->temperature ? on_temperature : NULL,
				    hooks ? hooks->temperature_every_ns : 0,
				    hooks && hooks->draining ? on_draining : NULL,
				    hooks ? hooks->drain_timeout_ns : 0, on_host_pause };
	struct step_end e = { 0, 0 };

	switch (s->kind) {
	case SLC_STEP_TRIM:
		res->waited_ns = 0;
		if ((e.rc = run_trim(s, t, ctx->trace, stop, &res->waited_ns, err, errlen)))
			e.at_once = 1;
		*idle_before_s = (double)s->wait_ns / 1e9;
		break;
	case SLC_STEP_IDLE:
		res->waited_ns = wait_stoppable(t, s->wait_ns, stop);
		*idle_before_s = (double)s->wait_ns / 1e9;
		break;
	case SLC_STEP_DUTY:
		e = run_duty(s, t, job, &cb, ctx, stop, res, err, errlen);
		*idle_before_s = 0;
		break;
	case SLC_STEP_JOB:
		e.rc = slc_engine_run(t, job, &cb, stop, res, err, errlen);
		if (ctx->trace_rc)
			e = (struct step_end){ slc_errf(err, errlen, ctx->trace_rc, "trace: %s",
							slc_trace_errmsg(ctx->trace)), 1 };
		*idle_before_s = 0;
		break;
	}
	return e;
}

/* One step: its job resolved, its segment opened, its work, the segment
 * closed.  Return: 0 to go on, or what ends the plan. */
static int run_step(const struct slc_plan *p, size_t i, struct slc_target *t, struct slc_trace *trace,
		    const struct slc_plan_hooks *hooks, const volatile int *stop, struct slc_job_result *res,
		    double *idle_before_s, struct written *w, char *err, size_t errlen)
{
	const struct slc_step *s = &p->step[i];
	struct step_ctx ctx = { .trace = trace, .p = p, .h = hooks, .i = i };
	struct slc_job job = s->job;
	struct slc_segment_params sp = { 0 };
	struct step_end e;
	char dbuf[32];
	int rc;

	if ((rc = check_plan_fits(p, slc_target_capacity(t), err, errlen)))
		return rc;
	if (IS_JOB(s) && (rc = resolve_job(s, slc_target_capacity(t), &job, err, errlen)))
		return rc;
	if (hooks && hooks->step_begin)
		hooks->step_begin(hooks->arg, i, p, job.max_bytes);
	describe_segment(&sp, s, &job, t, *idle_before_s, w, dbuf, sizeof(dbuf));
	if (trace && (rc = slc_trace_segment_begin(trace, &sp)))
		return slc_errf(err, errlen, rc, "trace: %s", slc_trace_errmsg(trace));
	if (hooks && hooks->segment_open)
		hooks->segment_open(hooks->arg, i, p);
	e = run_step_work(s, t, &job, &ctx, stop, res, idle_before_s, err, errlen);
	note_written(w, s, &job, res, slc_target_capacity(t));
	if (e.at_once)
		return e.rc;
	if (hooks && hooks->segment_close)
		hooks->segment_close(hooks->arg, i, p);
	if (hooks && hooks->step_end)
		hooks->step_end(hooks->arg, i, p, res);
	if (trace) {
		int r2 = slc_trace_segment_end(trace);
		if (r2 && !e.rc)
			return slc_errf(err, errlen, r2, "trace: %s", slc_trace_errmsg(trace));
	}
	return e.rc;
}

int slc_plan_step_job(const struct slc_plan *p, size_t i, uint64_t capacity, struct slc_job *job,
		      char *err, size_t errlen)
{
	if (i >= p->n)
		return slc_errf(err, errlen, -EINVAL, "no step %zu in plan %s", i, p->name);
	*job = p->step[i].job;
	if (!IS_JOB(&p->step[i]))
		return 0;
	return resolve_job(&p->step[i], capacity, job, err, errlen);
}

size_t slc_plan_fit_block(struct slc_plan *p, uint32_t logical_block, char *note, size_t notelen)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	size_t n = 0, kept = 0;

	if (note && notelen) note[0] = '\0';
	if (!logical_block) logical_block = 512;
	for (size_t i = 0; i < p->n; i++) {
		uint32_t b = p->step[i].job.block_bytes;

		if (p->step[i].role == SLC_ROLE_SWEEP && b && b % logical_block) {
			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
			n++;
			kept = slc__plan_unstate(p, kept);
			continue;
		}
		p->step[kept++] = p->step[i];
	}
	p->n = kept;
	if (n && note) {
		char a[32], c[32];

		slc_format_bytes(a, sizeof(a), lo, SLC_UNITS_BINARY);
		slc_format_bytes(c, sizeof(c), hi, SLC_UNITS_BINARY);
		snprintf(note, notelen, "%s: %zu point%s of %s to %s left out: the target's logical block is %u bytes",
			 p->name, n, n > 1 ? "s" : "", a, c, logical_block);
	}
	return n;
}

size_t slc_plan_fit_spec(struct slc_plan *p, const char *spec, char *note, size_t notelen)
{
	uint32_t lbs = 4096;        /* a file: the unit the file target opens it in */
	uint64_t bytes;
	struct stat st;

	if (note && notelen)
		note[0] = '\0';
	/* a simulated or null drive is fitted when it opens: opening one only
	 * to read its block size would build its whole model twice */
	if (!strncmp(spec, "sim:", 4) || !strncmp(spec, "null:", 5))
		return 0;
	if (stat(spec, &st) == 0 && S_ISBLK(st.st_mode) && slc_blockdev_geometry(spec, &bytes, &lbs, NULL, 0))
		return 0;
	return slc_plan_fit_block(p, lbs, note, notelen);
}

/* The name after the one at @q in a comma-separated list. */
static const char *next_name(const char *q)
{
	q += strcspn(q, ",");
	return *q ? q + 1 : q;
}

/* Is @name one of the comma-separated names in @list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *q = list; *q; q = next_name(q))
		if (strcspn(q, ",") == n && !strncmp(q, name, n))
			return 1;
	return 0;
}

int slc_plan_keep_points(struct slc_plan *p, const char *list, char *err, size_t errlen)
{
	size_t kept = 0, points = 0;

	if (!list || !*list)
		return slc_errf(err, errlen, -EINVAL, "--points: give one or more of the plan's sweep points");
	for (size_t i = 0; i < p->n; i++)
		points += p->step[i].role == SLC_ROLE_SWEEP;
	if (!points)
		return slc_errf(err, errlen, -EINVAL, "--points: plan %s has no sweep points ('slcscope run --help' "
				"marks the sweep plans)", p->name);
	/* every name must be a point: a typo runs nothing rather than less */
	for (const char *q = list; *q; q = next_name(q)) {
		size_t len = strcspn(q, ","), i;
		for (i = 0; i < p->n; i++)
			if (p->step[i].role == SLC_ROLE_SWEEP && strlen(p->step[i].name) == len &&
			    !strncmp(p->step[i].name, q, len))
				break;
		if (i == p->n)
			return slc_errf(err, errlen, -EINVAL, "--points: plan %s has no point '%.*s' "
					"('slcscope run TARGET --plan %s -n' lists them)", p->name, (int)len, q, p->name);
	}
	for (size_t i = 0; i < p->n; i++)
		if (p->step[i].role != SLC_ROLE_SWEEP || in_list(list, p->step[i].name))
			p->step[kept++] = p->step[i];
		else
			kept = slc__plan_unstate(p, kept);
	p->n = kept;
	return 0;
}

int slc_plan_validate(const struct slc_plan *p, uint64_t capacity, uint32_t logical_block, char *err, size_t errlen)
{
	char why[256];
	int rc;

	if (capacity < 4096)
		return slc_errf(err, errlen, -EINVAL, "the target has %llu bytes, less than one 4k block",
				(unsigned long long)capacity);
	if ((rc = check_plan_fits(p, capacity, err, errlen)))
		return rc;
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		struct slc_job job = s->job;
		uint64_t len;
		if (s->kind == SLC_STEP_TRIM && (s->bytes.bytes || s->bytes.capacity_multiple > 0) &&
		    (slc_size_resolve(&len, &s->bytes, capacity) || len > capacity))
			return slc_errf(err, errlen, -EINVAL, "step %s: TRIM range larger than the target", s->name);
		if (!IS_JOB(s))
			continue;
		if ((rc = resolve_job(s, capacity, &job, err, errlen)))
			return rc;
		if ((rc = slc__engine_check_job(capacity, logical_block, &job, why, sizeof(why))))
			return slc_errf(err, errlen, rc, "step %s: %s", s->name, why);
		/* a typo in a size (TB for GB) would wear the drive out for weeks */
		if (job.max_bytes / MAX_WRITES_X > capacity)
			return slc_errf(err, errlen, -ERANGE, "step %s: writes %llu bytes, over %u times the target's %llu",
					s->name, (unsigned long long)job.max_bytes, MAX_WRITES_X,
					(unsigned long long)capacity);
	}
	return 0;
}

int slc_plan_run(const struct slc_plan *p, struct slc_target *t, struct slc_trace *trace,
		 const struct slc_plan_hooks *hooks, const volatile int *stop,
		 struct slc_job_result *res, size_t *failed_step, char *err, size_t errlen)
{
	double idle_before_s = 0;
	struct written w = { 0 };
	int rc;

	memset(res, 0, sizeof(*res));
	*failed_step = 0;
	/* every step's sizes before the first TRIM: a plan that cannot finish destroys nothing */
	if ((rc = slc_plan_validate(p, slc_target_capacity(t), slc_target_logical_block(t), err, errlen)))
		return rc;
	for (size_t i = 0; i < p->n; i++) {
		*failed_step = i;
		if (stop && *stop)
			return -ECANCELED;
		if ((rc = run_step(p, i, t, trace, hooks, stop, res, &idle_before_s, &w, err, errlen)))
			return rc;
		if (stop && *stop)
			return -ECANCELED;
	}
	return 0;
}
