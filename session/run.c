// SPDX-License-Identifier: MIT
/*
 * A run session: a plan on a target into a trace, with what the drive says
 * about itself recorded beside the samples: its identity, a SMART/health
 * snapshot before and after every step, and during each step its
 * temperature and write counters, so that the analysis can give each phase
 * its write amplification and tell throttling from garbage collection.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/probe.h"
#include "slcscope/probes.h"
#include "slcscope/session.h"

struct slc_run {
	struct slc_run_opts o;
	struct slc_target *target;
	struct slc_trace *trace;
	struct slc_probe *probe;
	int lock_fd;                  /* the trace's path, flocked; -1 */
	int lock_created;             /* the lock made the file */
	uint64_t seg_t0_ns;
	int smart_warned;
	/* until_steady: the random curve's samples so far */
	double *t, *dt, *bps;
	size_t n, cap;
	double from_s, next_check_s;
	uint64_t prev_bytes;
};

static void note(const struct slc_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(const struct slc_run *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!r->o.ui || !r->o.ui->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->o.ui->note(r->o.ui->arg, msg);
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Store a health snapshot of the drive in the trace under @kind. */
static void health_snapshot(struct slc_run *r, enum slc_snapshot_kind kind, double t_s)
{
	struct slc_health h;
	char err[256] = "";
	char *js;

	if (!r->probe)
		return;
	if (slc_probe_health(r->probe, &h, err, sizeof(err))) {
		if (!r->smart_warned++)
			note(r, "warning: SMART read failed (%s); the run goes on without it", err);
		return;
	}
	if (!h.has_smart)
		return;                 /* said once, in the identity snapshot */
	if ((js = slc_probe_json(NULL, &h))) {
		slc_trace_snapshot(r->trace, slc_snapshot_kind_name(kind), t_s, js);
		free(js);
	}
}

static double seg_time_s(struct slc_run *r)
{
	return (double)(slc_target_now_ns(r->target) - r->seg_t0_ns) * 1e-9;
}

static void segment_open(void *arg, size_t i, const struct slc_plan *p)
{
	struct slc_run *r = arg;

	(void)i; (void)p;
	r->seg_t0_ns = slc_target_now_ns(r->target);
	health_snapshot(r, SLC_SNAP_HEALTH_BEFORE, 0);
}

static void segment_close(void *arg, size_t i, const struct slc_plan *p)
{
	struct slc_run *r = arg;

	(void)i; (void)p;
	health_snapshot(r, SLC_SNAP_HEALTH_AFTER, seg_time_s(r));
}

static void counter_event(struct slc_run *r, double t_s, enum slc_event_kind kind, double value)
{
	struct slc_event e = { t_s, 0, slc_event_kind_name(kind), value };

	slc_trace_event(r->trace, &e);
}

/*
 * Every temp_every_ns: read the drive's health; the temperature goes into
 * the sample, the cumulative host and NAND write counters and the thermal
 * management transitions into the segment's events.
 */
static int read_temperature(void *arg, double *c)
{
	struct slc_run *r = arg;
	struct slc_health h;
	double t_s;

	if (!r->probe || slc_probe_health(r->probe, &h, NULL, 0) || !h.has_smart)
		return -ENODATA;
	t_s = seg_time_s(r);
	if (h.host_write_bytes != SLC_PROBE_UNKNOWN && h.nand_write_bytes != SLC_PROBE_UNKNOWN) {
		counter_event(r, t_s, SLC_EVK_SMART_HOST_BYTES, (double)h.host_write_bytes);
		counter_event(r, t_s, SLC_EVK_SMART_NAND_BYTES, (double)h.nand_write_bytes);
	}
	if (h.thm_transitions[0] != SLC_PROBE_UNKNOWN)
		counter_event(r, t_s, SLC_EVK_THERMAL_TRANSITIONS, (double)h.thm_transitions[0] +
			      (h.thm_transitions[1] != SLC_PROBE_UNKNOWN ? (double)h.thm_transitions[1] : 0));
	if (!isfinite(h.temp_c))
		return -ENODATA;
	*c = h.temp_c;
	return 0;
}

static int keep_sample(struct slc_run *r, const struct slc_sample *smp)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4096;
		double *t = realloc(r->t, cap * sizeof(*t)), *dt, *b;
		if (!t) return -ENOMEM;
		r->t = t;
		if (!(dt = realloc(r->dt, cap * sizeof(*dt)))) return -ENOMEM;
		r->dt = dt;
		if (!(b = realloc(r->bps, cap * sizeof(*b)))) return -ENOMEM;
		r->bps = b;
		r->cap = cap;
	}
	r->t[r->n] = smp->t_s;
	r->dt[r->n] = smp->interval_s;
	r->bps[r->n] = smp->interval_s > 0 ? (double)(smp->bytes_total - r->prev_bytes) / smp->interval_s : 0;
	r->prev_bytes = smp->bytes_total;
	r->n++;
	return 0;
}

/*
 * until_steady: stop the random curve once SNIA PTS steady state holds (5
 * rounds of 60 s, range within 20%, slope within 10% of the average),
 * counting only rounds after steady_after_bytes (by default 2x: the drive
 * has been written over twice, so neither the SLC cache nor the pool of
 * erased blocks, which on a drive with much spare area lasts past one
 * capacity, can pass for a plateau).
 */
static int steady_sample(void *arg, size_t i, const struct slc_plan *p, const struct slc_sample *smp)
{
	struct slc_run *r = arg;
	struct slc_steady_state ss;
	int rc;

	if (!r->o.until_steady || p->step[i].role != SLC_ROLE_CURVE)
		return 0;
	if ((rc = keep_sample(r, smp)))
		return rc;
	if (smp->bytes_total < r->o.steady_after_bytes)
		return 0;
	if (r->from_s < 0)
		r->from_s = smp->t_s;
	if (smp->t_s < r->next_check_s)
		return 0;
	r->next_check_s = smp->t_s + 60;
	if (slc_steady_state(&ss, r->t, r->dt, r->bps, r->n, r->from_s, 60, 5) == 0 && ss.reached) {
		if (r->o.ui && r->o.ui->steady)
			r->o.ui->steady(r->o.ui->arg, i, p, &ss);
		return SLC_ENGINE_DONE;
	}
	return 0;
}

static void step_begin(void *arg, size_t i, const struct slc_plan *p, uint64_t limit_bytes)
{
	struct slc_run *r = arg;

	r->n = 0;
	r->prev_bytes = 0;
	r->from_s = -1;
	r->next_check_s = 0;
	if (r->o.ui && r->o.ui->step_begin)
		r->o.ui->step_begin(r->o.ui->arg, i, p, limit_bytes);
}

static void progress(void *arg, size_t i, const struct slc_plan *p, const struct slc_progress *pr)
{
	struct slc_run *r = arg;

	if (r->o.ui && r->o.ui->progress)
		r->o.ui->progress(r->o.ui->arg, i, p, pr);
}

/* Stopped, and the drive is slow to answer what is in flight: say so, or
 * the stop looks ignored. */
static void draining(void *arg, size_t i, const struct slc_plan *p, const struct slc_drain *d)
{
	struct slc_run *r = arg;
	char a[32], b[32];

	note(r, "stopping %s: waiting for %u command%s still in flight (the oldest for %s, at offset %llu); "
	     "interrupt again to abandon them, or they are abandoned after %s without an answer",
	     p->step[i].name, d->inflight, d->inflight == 1 ? "" : "s", slc_format_duration(a, sizeof(a), d->oldest_ns),
	     (unsigned long long)d->oldest_offset, slc_format_duration(b, sizeof(b), d->timeout_ns));
}

static void host_pause(void *arg, size_t i, const struct slc_plan *p, double paused_s, int suspended)
{
	struct slc_run *r = arg;
	char a[32];

	note(r, "%s: the %s for %s; recorded as a host pause (host_pause event), not a drive stall",
	     p->step[i].name, suspended ? "machine was suspended" : "process was stopped",
	     slc_format_duration(a, sizeof(a), (uint64_t)(paused_s * 1e9)));
}

static void step_end(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *res)
{
	struct slc_run *r = arg;

	if (r->o.ui && r->o.ui->step_end)
		r->o.ui->step_end(r->o.ui->arg, i, p, res);
}

/* The drive's own identity (NVMe, ATA) for the trace, else what sysfs knows of a block device;
 * @id holds the strings @meta points to (the probe's outlive the call, sysfs's are read here). */
struct meta_text {
	char model[256], serial[128], firmware[128];
};

static void device_meta(struct slc_run *r, struct slc_trace_meta *meta, struct meta_text *id)
{
	char *model = id->model;
	size_t len = sizeof(id->model);
	const struct slc_identity *pid = r->probe ? slc_probe_identity(r->probe) : NULL;
	struct slc_target *t = r->target;
	struct slc_sysfs_info si;
	char real[4096];

	if (slc_target_sim(t))
		meta->device_model = slc_sim_model_of(slc_target_sim(t))->description;
	if (slc_target_kind(t) != SLC_TARGET_BLOCKDEV)
		return;
	if (pid && (pid->model[0] || pid->serial[0])) {
		int own = pid->source == SLC_PROBE_NVME || pid->source == SLC_PROBE_ATA;
		snprintf(model, len, "%s%s%s", own ? "" : pid->vendor, !own && pid->vendor[0] && pid->model[0] ? " " : "",
			 pid->model[0] ? pid->model : pid->kernel_name);
		meta->device_model = model;
		meta->device_serial = pid->serial[0] ? pid->serial : NULL;
		meta->device_firmware = pid->firmware[0] ? pid->firmware : NULL;
	} else if (realpath(slc_target_spec(t), real) && slc_sysfs_probe(&si, "/sys", strrchr(real, '/') + 1) == 0) {
		snprintf(model, len, "%s%s%s", si.vendor, si.vendor[0] && si.model[0] ? " " : "",
			 si.model[0] ? si.model : si.name);
		snprintf(id->serial, sizeof(id->serial), "%s", si.serial);
		snprintf(id->firmware, sizeof(id->firmware), "%s", si.firmware);
		meta->device_model = model;
		meta->device_serial = id->serial[0] ? id->serial : NULL;
		meta->device_firmware = id->firmware[0] ? id->firmware : NULL;
	}
}

/* Who the drive is and its health before anything is written. */
static void identity_snapshot(struct slc_run *r)
{
	struct slc_health h;
	char herr[256] = "", *js;
	int hrc = slc_probe_health(r->probe, &h, herr, sizeof(herr));

	if (hrc)
		note(r, "warning: SMART read failed (%s)", herr);
	if ((js = slc_probe_json(slc_probe_identity(r->probe), hrc ? NULL : &h))) {
		slc_trace_snapshot(r->trace, slc_snapshot_kind_name(SLC_SNAP_IDENTITY), 0, js);
		free(js);
	}
	if (!hrc && !h.has_smart && slc_target_kind(r->target) == SLC_TARGET_BLOCKDEV)
		note(r, "%s; no write amplification or thermal evidence in this trace", h.no_smart_reason);
}

/*
 * The strongest purge the drive offers (NVMe Sanitize, then Format with
 * crypto or user-data erase), otherwise a TRIM of the whole target; the
 * trace records which in a "purge" snapshot.
 */
static int purge(struct slc_run *r, char *err, size_t errlen)
{
	struct slc_target *t = r->target;
	enum slc_purge_kind k = slc_probe_purge_method(r->probe);
	double w0 = wall_s();
	char js[256];
	int rc;

	note(r, "purging %s by %s", slc_target_spec(t),
	     k == SLC_PURGE_TRIM ? "a TRIM of all of it (the drive offers no Sanitize or Format erase)" :
	     slc_purge_kind_name(k));
	if (k == SLC_PURGE_TRIM) {
		if ((rc = slc_target_discard_stoppable(t, 0, slc_target_capacity(t), r->o.stop)))
			return slc_errf(err, errlen, rc, "TRIM of the whole target %s: %s",
					rc == -ECANCELED ? "stopped" : "failed", strerror(-rc));
	} else if ((rc = slc_probe_purge(r->probe, k, err, errlen))) {
		return rc;
	}
	snprintf(js, sizeof(js), "{\"schema\": \"slcscope.purge/1\", \"method\": \"%s\", \"wall_s\": %.3f}",
		 slc_purge_kind_name(k), wall_s() - w0);
	slc_trace_snapshot(r->trace, slc_snapshot_kind_name(SLC_SNAP_PURGE), 0, js);
	return 0;
}

/* Who holds the trace's lock, as the holder wrote it there. */
#define WRITER_XATTR "user.slcscope.writer"

int slc_run_check_trace(const char *target, const char *path, int force, char *err, size_t errlen)
{
	const struct slc_output_opts o = { .kind = SLC_OUTPUT_TRACE, .force = force };
	struct stat st, ts;

	if (stat(path, &st) == 0 && stat(target, &ts) == 0 && ts.st_dev == st.st_dev && ts.st_ino == st.st_ino)
		return slc_errf(err, errlen, -EINVAL, "-o %s: that is the target: the trace needs a file of its own", path);
	return slc_output_check(path, &o, err, errlen);
}

/* Lock the trace's path for this run: two runs writing one trace would mix
 * or lose each other's samples.  The lock is on the file at that path,
 * which the trace then truncates and writes in place. */
static int lock_output(struct slc_run *r, const char *path, char *err, size_t errlen)
{
	char who[256];
	time_t now = time(NULL);
	struct tm tm;
	ssize_t n;
	int rc;

	if ((rc = slc_run_check_trace(slc_target_spec(r->target), path, r->o.force, err, errlen)))
		return rc;
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	r->lock_created = r->lock_fd >= 0;
	if (r->lock_fd < 0 && errno == EEXIST)
		r->lock_fd = open(path, O_RDWR | O_CLOEXEC);
	if (r->lock_fd < 0)
		return slc_errf(err, errlen, -errno, "cannot create %s: %s", path, strerror(errno));
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB) == 0) {
		localtime_r(&now, &tm);
		n = snprintf(who, sizeof(who), "pid %ld, the run of %s started ", (long)getpid(), slc_target_spec(r->target));
		strftime(who + n, sizeof(who) - (size_t)n, "%Y-%m-%d %H:%M:%S", &tm);
		fsetxattr(r->lock_fd, WRITER_XATTR, who, strlen(who), 0);   /* only to name it: optional */
		return 0;
	}
	rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
	n = fgetxattr(r->lock_fd, WRITER_XATTR, who, sizeof(who) - 1);
	who[n > 0 ? n : 0] = '\0';
	close(r->lock_fd);
	r->lock_fd = -1;
	if (rc != -EBUSY)
		return slc_errf(err, errlen, rc, "cannot lock %s: %s", path, strerror(-rc));
	return slc_errf(err, errlen, rc, "-o %s: another slcscope run is writing this trace (%s); wait for it to "
			"end or choose another name", path, n > 0 ? who : "it holds the lock");
}

/* The lock taken by lock_output() released; @failed: the trace was never made. */
static void unlock_output(struct slc_run *r, int failed)
{
	struct stat st;

	if (r->lock_fd < 0)
		return;
	if (failed && r->lock_created && fstat(r->lock_fd, &st) == 0 && st.st_size == 0)
		unlink(r->o.trace_path);
	else
		fremovexattr(r->lock_fd, WRITER_XATTR);
	close(r->lock_fd);
	r->lock_fd = -1;
}

static int open_probe(struct slc_run *r, char *err, size_t errlen)
{
	struct slc_target *t = r->target;
	char perr[512] = "";
	int rc;

	if (r->o.purge && (slc_target_caps(t) & SLC_TARGET_CAP_NO_IO))
		return slc_errf(err, errlen, -EINVAL, "--purge: %s has no drive to purge", slc_target_spec(t));
	if (!r->o.probe || (slc_target_caps(t) & SLC_TARGET_CAP_NO_IO))
		return 0;
	rc = slc_probe_open_target(&r->probe, t, perr, sizeof(perr));
	if (!rc)
		return 0;
	r->probe = NULL;
	if (r->o.purge)
		return slc_errf(err, errlen, rc, "--purge: cannot probe the drive: %s", perr);
	note(r, "warning: no drive probe (%s); no SMART snapshots", perr);
	return 0;
}

int slc_run_open(struct slc_run **out, struct slc_target *t, const struct slc_run_opts *o, char *err, size_t errlen)
{
	struct slc_run *r = calloc(1, sizeof(*r));
	struct slc_trace_meta meta = { 0 };
	struct meta_text id;
	int rc;

	*out = NULL;
	if (!r)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	r->o = *o;
	r->target = t;
	r->lock_fd = -1;
	if (o->purge && !o->probe) {
		free(r);
		return slc_errf(err, errlen, -EINVAL, "--purge needs the drive's probe");
	}
	if ((o->plan && (rc = slc_plan_validate(o->plan, slc_target_capacity(t), slc_target_logical_block(t),
						 err, errlen))) || (rc = lock_output(r, o->trace_path, err, errlen))) {
		free(r);
		return rc;
	}
	if ((rc = open_probe(r, err, errlen))) {
		unlock_output(r, 1);
		free(r);
		return rc;
	}
	meta = (struct slc_trace_meta){ .command_line = o->command_line, .target = slc_target_spec(t),
		.capacity_bytes = slc_target_capacity(t), .logical_block_bytes = slc_target_logical_block(t),
		.plan = o->plan ? o->plan->name : NULL, .planned_steps = o->plan ? (uint32_t)o->plan->n : 0 };
	device_meta(r, &meta, &id);
	if ((rc = slc_trace_create(&r->trace, o->trace_path, &meta, err, errlen))) {
		slc_probe_close(r->probe);
		unlock_output(r, 1);
		free(r);
		return rc;
	}
	if (r->probe)
		identity_snapshot(r);
	if (o->purge && (rc = purge(r, err, errlen))) {
		char perr[512];
		snprintf(perr, sizeof(perr), "--purge: %s", err);
		snprintf(err, errlen, "%s", perr);
		slc_trace_set_run_status(r->trace, rc == -ECANCELED ? "interrupted" : "failed");
		slc_run_close(r, NULL, 0);
		return rc;
	}
	*out = r;
	return 0;
}

int slc_run_execute(struct slc_run *r, const struct slc_plan *p, const volatile int *stop,
		    struct slc_job_result *res, size_t *failed_step, char *err, size_t errlen)
{
	uint64_t every = r->o.temp_every_ns;
	int rc;
	struct slc_plan_hooks hooks = {
		.step_begin = step_begin, .sample = steady_sample, .progress = progress, .step_end = step_end,
		.arg = r, .segment_open = segment_open, .segment_close = segment_close,
		.temperature = r->probe ? read_temperature : NULL, .draining = draining, .host_pause = host_pause,
	};

	if (!every)
		every = (slc_target_caps(r->target) & SLC_TARGET_CAP_VIRTUAL_CLOCK) ?
			(r->o.interval_ns ? r->o.interval_ns : 1000000000ull) : 5000000000ull;
	hooks.temperature_every_ns = every;
	rc = slc_plan_run(p, r->target, r->trace, &hooks, stop, res, failed_step, err, errlen);
	/* a report of the trace tells a stopped plan from a whole one by this */
	slc_trace_set_run_status(r->trace, rc == -ECANCELED || (stop && *stop) ? "interrupted" : rc ? "failed" : "complete");
	return rc;
}

int slc_run_close(struct slc_run *r, char *err, size_t errlen)
{
	int rc;

	if (!r)
		return 0;
	rc = slc_trace_close(r->trace);
	if (rc)
		slc_errf(err, errlen, rc, "closing the trace %s failed", r->o.trace_path);
	unlock_output(r, 0);
	slc_probe_close(r->probe);
	free(r->t);
	free(r->dt);
	free(r->bps);
	free(r);
	return rc;
}
