// SPDX-License-Identifier: MIT
/*
 * The write engine: one loop for every target.
 *
 * Keep queue_depth commands in flight: fill every free slot, then reap at
 * least one completion, account it, and refill.  Real targets batch the
 * refills into one io_uring submission; a target that models a device
 * queue (SLC_TARGET_CAP_ONE_AT_A_TIME) completes one command per reap in
 * its own time, which reproduces a device queue of that depth exactly.
 * Random offsets are drawn 16-32 commands ahead, 16 at a time, so a target
 * can prefetch a batch through its hint op (a simulated drive's mapping
 * table is large, and its misses cost less issued together).  The
 * engine knows targets only by their ops and capabilities (target_priv.h).
 * A step of several jobs on a target with twins runs this loop once per
 * job, each in a writer thread of its own (engine_jobs.c); elsewhere one
 * loop keeps queue depth x jobs commands in flight, the jobs taking turns.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "private.h"
#include "engine_priv.h"

#define EV_BATCH 64u
#define DRAIN_TELL_NS 500000000ull    /* a stopped job's drain this long is worth a word */
#define DRAIN_SLICE_NS 100000000ull   /* how soon a second stop request is noticed */
#define POLL_QD 4u                    /* at most this many in flight: poll before sleeping */
#define POLL_NS 20000ull              /* for this long */


static inline uint64_t xs(uint64_t *x)
{
	/* xorshift64*: offsets only need to be fast and uniform */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Time this thread spent ready to run but waiting for a CPU, ns (the
 * second field of schedstat); UINT64_MAX when the kernel does not say. */
uint64_t slc__engine_thread_wait_ns(int fd)
{
	char buf[96];
	unsigned long long run, wait;
	ssize_t n;

	if (fd < 0 || (n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return UINT64_MAX;
	buf[n] = 0;
	return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? wait : UINT64_MAX;
}

double slc__engine_cpu_cap(double cpu_share)
{
	return isfinite(cpu_share) ? fmin(fmax(cpu_share, 0.0), 1.0) : cpu_share;
}

double slc__engine_wait_cap(double wait_share, double cpu_share)
{
	double room = isfinite(cpu_share) ? 1.0 - slc__engine_cpu_cap(cpu_share) : 1.0;

	return isfinite(wait_share) ? fmin(fmax(wait_share, 0.0), room) : wait_share;
}

static void cpu_start(struct run *r, int on)
{
	r->cpu_on = on;
	r->sched_fd = on ? open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC) : -1;
	r->cpu_share = r->wait_share = NAN;
	r->cpu_prev = thread_cpu_ns();
	r->wait_prev = slc__engine_thread_wait_ns(r->sched_fd);
	r->wall_prev = slc__target_mono_ns();
}

/*
 * This thread's CPU time since the last reading over the wall time since:
 * the share of a core that the loop, which submits, reaps and samples,
 * used; and the share it spent waiting for a CPU that other work held.
 * Read when a sample is handed on, a tenth of an interval after its end
 * (the sampler holds it that long), so each reading spans about an
 * interval; samples handed on together (the intervals of a stall, a run's
 * end) share the reading of the first, which spans them all.
 */
static void cpu_reading(struct run *r, struct slc_sample *out)
{
	uint64_t cpu, wait, wall;

	out->writer_cpu = out->writer_wait = NAN;
	if (r->jobs) {
		slc__jobs_cpu(r->jobs, out->interval_s, &out->writer_cpu, &out->writer_wait);
		return;
	}
	if (!r->cpu_on)
		return;
	wall = slc__target_mono_ns();
	if ((double)(wall - r->wall_prev) >= out->interval_s * 0.5e9) {
		cpu = thread_cpu_ns();
		wait = slc__engine_thread_wait_ns(r->sched_fd);
		r->cpu_share = slc__engine_cpu_cap((double)(cpu - r->cpu_prev) / (double)(wall - r->wall_prev));
		r->wait_share = wait == UINT64_MAX || r->wait_prev == UINT64_MAX ? NAN :
			slc__engine_wait_cap((double)(wait - r->wait_prev) / (double)(wall - r->wall_prev), r->cpu_share);
		r->cpu_prev = cpu;
		r->wait_prev = wait;
		r->wall_prev = wall;
	}
	out->writer_cpu = r->cpu_share;
	out->writer_wait = r->wait_share;
}

static int drain_events(struct run *r)
{
	struct slc_sim_event ev[EV_BATCH];
	size_t n;
	int rc;

	while ((n = slc_target_events(r->t, ev, EV_BATCH)) > 0)
		for (size_t i = 0; i < n; i++)
			if (r->cb->event && (rc = r->cb->event(r->cb->arg, &ev[i], r->t0)))
				return rc;
	return 0;
}

/* Sampler output: events first (time order), temperature, then progress. */
int slc__engine_on_interval(void *arg, const struct slc_sample *smp)
{
	struct run *r = arg;
	struct slc_sample out = *smp;
	struct slc_sim_counters c;
	int rc;

	if ((rc = drain_events(r)))
		return rc;
	cpu_reading(r, &out);
	if (r->cb->temperature && smp->t_s >= r->next_temp_s) {
		double temp;
		uint64_t every = r->cb->temperature_every_ns ? r->cb->temperature_every_ns : 5000000000ull;
		out.temp_c = r->cb->temperature(r->cb->arg, &temp) == 0 ? temp : NAN;
		r->next_temp_s = smp->t_s + (double)every * 1e-9;
	} else if (slc_target_counters(r->t, &c) == 0) {
		out.temp_c = c.temp_c;
	}
	if (r->cb->sample && (rc = r->cb->sample(r->cb->arg, &out)))
		return rc;
	if (r->cb->progress) {
		struct slc_progress p = {
			.bytes = smp->bytes_total,
			.elapsed_ns = (uint64_t)(smp->t_s * 1e9),
			.bps = smp->interval_s > 0 ? (double)(smp->bytes_total - r->last_bytes) / smp->interval_s : 0,
		};
		r->cb->progress(r->cb->arg, &p);
	}
	r->last_bytes = smp->bytes_total;
	return 0;
}

int slc_job_kind_sequential(enum slc_job_kind k)
{
	return k == SLC_JOB_SEQ_WRITE || k == SLC_JOB_SEQ_READ || k == SLC_JOB_SEQ_MIXED;
}

uint32_t slc_job_kind_read_pct(enum slc_job_kind k, uint32_t mix_pct)
{
	if (k == SLC_JOB_RAND_READ || k == SLC_JOB_SEQ_READ)
		return 100;
	if (k == SLC_JOB_SEQ_MIXED || k == SLC_JOB_RAND_MIXED)
		return mix_pct > 100 ? 100 : mix_pct;
	return 0;
}

uint32_t slc_engine_reap_batch(const struct slc_target *t, const struct slc_job *job)
{
	/* a writer thread per job refills its own queue */
	uint32_t jobs = t && slc__jobs_threaded(t, job) ? 1 : job->jobs ? job->jobs : 1;
	uint32_t qd = (job->queue_depth ? job->queue_depth : 32) * jobs;
	uint32_t b = job->reap_batch ? job->reap_batch : qd / 8;

	if (t && (slc_target_caps(t) & SLC_TARGET_CAP_ONE_AT_A_TIME))
		return 1;
	if (b > qd)
		b = qd;
	return b ? b : 1;
}

/*
 * With a few commands in flight the submitter waits for every completion
 * alone, and a thread that sleeps on each one pays its wake-up every time
 * and is woken wherever the scheduler puts it, often on the CPU the
 * completing work runs on.  Polling for a short while first keeps it
 * awake and in place: 4 KiB random reads and writes at queue depths 1-4
 * on a loop device ran 1.2-1.7x faster so, and deeper queues, which reap
 * in batches, no faster (BENCHMARKS.md).  The wait is bounded, and the
 * target stops polling for a while when polls keep missing (a slow
 * device), so it costs CPU only where it pays.
 */
uint64_t slc__engine_poll_ns(uint32_t inflight_max)
{
	return inflight_max && inflight_max <= POLL_QD ? POLL_NS : 0;
}

int slc__engine_check_job(uint64_t capacity, uint32_t logical_block, struct slc_job *j, char *err, size_t errlen)
{
	uint32_t align = logical_block ? logical_block : 512;

	if (!j->block_bytes)
		j->block_bytes = slc_job_kind_sequential(j->kind) ? 131072 : 4096;
	if ((unsigned)j->kind > SLC_JOB_RAND_MIXED)
		return slc_errf(err, errlen, -EINVAL, "unknown job kind %d", (int)j->kind);
	if (j->read_pct > 100)
		return slc_errf(err, errlen, -EINVAL, "read share %u%% is over 100%%", j->read_pct);
	if (j->align_bytes % align)
		return slc_errf(err, errlen, -EINVAL, "offset alignment %u is not a multiple of the target's "
				"%u-byte logical block", j->align_bytes, align);
	if (!j->queue_depth)
		j->queue_depth = 32;
	if (!j->jobs)
		j->jobs = 1;
	if (!j->interval_ns)
		j->interval_ns = 1000000000ull;
	if (j->block_bytes % align || j->block_bytes > (64u << 20))
		return slc_errf(err, errlen, -EINVAL, "block size %u is not a multiple of the target's %u-byte "
			    "logical block or is over 64 MiB", j->block_bytes, align);
	if (j->jobs > 64 || (uint64_t)j->queue_depth * j->jobs > MAX_QD)
		return slc_errf(err, errlen, -EINVAL, "queue depth %u x %u jobs is over %u commands in flight",
				j->queue_depth, j->jobs, MAX_QD);
	if (j->offset_bytes % align)
		return slc_errf(err, errlen, -EINVAL, "offset is not a multiple of the %u-byte logical block", align);
	if (j->offset_bytes >= capacity)
		return slc_errf(err, errlen, -EINVAL, "offset is past the end of the target");
	if (!j->range_bytes || j->range_bytes > capacity - j->offset_bytes)
		j->range_bytes = capacity - j->offset_bytes;
	/* sequential jobs each write a slice of their own; random ones share the range */
	if (j->range_bytes / (slc_job_kind_sequential(j->kind) ? j->jobs : 1) < j->block_bytes)
		return slc_errf(err, errlen, -EINVAL, "the range (%" PRIu64 " bytes) is smaller than one %u-byte "
				"block%s: a larger target or --region, fewer --jobs or a smaller block", j->range_bytes,
				j->block_bytes, slc_job_kind_sequential(j->kind) && j->jobs > 1 ? " per job" : "");
	if (!j->max_bytes && !j->max_ns)
		return slc_errf(err, errlen, -EINVAL, "a job needs a size or a time limit");
	return 0;
}

/* A uniform block in the job's range. */
static uint64_t draw_offset(struct loop *l)
{
	uint32_t step = l->j.align_bytes ? l->j.align_bytes : l->j.block_bytes;

	return l->j.offset_bytes + (uint64_t)(((unsigned __int128)xs(&l->rng) * l->nslots) >> 64) * step;
}

/* One buffer per command in flight, filled once, registered when the target can. */
int slc__engine_buffers(struct loop *l, char *err, size_t errlen)
{
	struct slc_target *t = l->t;
	int rc;

	for (uint32_t i = 0; i < l->qd; i++) {
		if (posix_memalign(&l->bufs[i], 4096, l->j.block_bytes)) {
			l->bufs[i] = NULL;
			return slc_errf(err, errlen, -ENOMEM, "out of memory for I/O buffers");
		}
	}
	slc_datagen_init(&l->gen, l->j.data, l->j.compress_ratio, l->j.seed);
	for (uint32_t i = 0; i < l->qd; i++) {
		slc_datagen_fill(&l->gen, l->bufs[i], l->j.block_bytes);
		l->free_slots[i] = l->qd - 1 - i;
	}
	l->nfree = l->qd;
	if (t->ops->register_buffers && (rc = t->ops->register_buffers(t, l->bufs, l->qd, l->j.block_bytes)))
		return slc_errf(err, errlen, rc, "cannot register I/O buffers: %s", strerror(-rc));
	return 0;
}

/* The first offsets. */
void slc__engine_offsets(struct loop *l)
{
	struct slc_target *t = l->t;

	l->seq = slc_job_kind_sequential(l->j.kind);
	l->rng = l->j.seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	if (!l->rng) l->rng = 1;
	l->ah = 0;
	for (uint32_t i = 0; i < AHEAD; i++)
		l->ahead[i] = draw_offset(l);
	if (!slc_job_kind_sequential(l->j.kind) && t->ops->hint)
		t->ops->hint(t, l->ahead, AHEAD);
}

/* The first offsets, the job's start on the target clock, the sampler. */
static void start_job(struct loop *l)
{
	struct slc_target *t = l->t;

	slc__engine_offsets(l);
	l->r.t0 = l->last = t->ops->now_ns(t);
	l->deadline = l->j.max_ns ? l->r.t0 + l->j.max_ns : UINT64_MAX;
	if (t->ops->mark)
		t->ops->mark(t, l->r.t0);
	slc_sampler_init(&l->smp, l->r.t0, l->j.interval_ns);
	l->watch = !(slc_target_caps(t) & SLC_TARGET_CAP_VIRTUAL_CLOCK);
	/* a virtual clock's samples span the model's time, not the host's */
	cpu_start(&l->r, l->watch);
	l->pass_ns = l->r.t0;
	if (l->watch)
		slc_host_watch_init(&l->hw);
}

/*
 * Was the host away since the loop's last wait began?  A stop: the samples skip
 * it (slc_sampler_pause()), a time limit is extended by it, the callback
 * records it.  A suspend: only recorded, the clock did not run.
 */
static void host_check(struct loop *l, uint64_t now)
{
	uint64_t susp, from = l->pass_ns, stop;
	unsigned what = slc_host_watch_check(&l->hw, &susp);
	const struct slc_engine_cb *cb = l->r.cb;
	int rc = 0;

	/* real targets only: their clock is the monotonic one */
	stop = slc__host_stop(what, from, now, &now);
	l->pass_ns = now;
	if (stop) {
		l->res->host_paused_ns += stop;
		if (l->deadline != UINT64_MAX)
			l->deadline += stop;
		rc = slc_sampler_pause(&l->smp, from, now, slc__engine_on_interval, &l->r);
		if (!rc && cb->host_pause)
			rc = cb->host_pause(cb->arg, from, stop, 0, l->r.t0);
	}
	if (!rc && (what & SLC_HOST_SUSPENDED) && cb->host_pause)
		rc = cb->host_pause(cb->arg, now, susp, 1, l->r.t0);
	if (rc == SLC_ENGINE_DONE) {
		l->res->done_early = 1;
		l->submitting = 0;
	} else if (rc && !l->rc) {
		l->rc = rc;
		l->submitting = 0;
	}
}

/* Where @io goes: sequential jobs take turns, each in its own slice;
 * random ones take the oldest offset drawn ahead, and once half the ring is
 * used up, draw and hint that half again. */
static void place(struct loop *l, struct slc_io *io)
{
	struct slc_target *t = l->t;

	if (l->seq) {
		uint32_t k = l->next_job;
		l->next_job = l->next_job + 1 == l->j.jobs ? 0 : l->next_job + 1;
		io->offset = l->j.offset_bytes + ((uint64_t)k * l->slice + l->pos[k]) * l->j.block_bytes;
		l->pos[k] = l->pos[k] + 1 == l->slice ? 0 : l->pos[k] + 1;
	} else {
		io->offset = l->ahead[l->ah];
		l->ah = l->ah + 1 == AHEAD ? 0 : l->ah + 1;
		/* a half used up is drawn again in one go, its hints back to
		 * back: a hint that misses the TLB holds the loop for a page
		 * walk, and walks issued together overlap */
		if (l->ah % (AHEAD / 2) == 0) {
			uint32_t h = (l->ah + AHEAD / 2) % AHEAD;
			for (uint32_t i = h; i < h + AHEAD / 2; i++)
				l->ahead[i] = draw_offset(l);
			if (t->ops->hint)
				t->ops->hint(t, l->ahead + h, AHEAD / 2);
		}
	}
}

/* Fill every free slot until the byte limit; a failed submit ends submission. */
static void submit_free(struct loop *l, uint64_t now, char *err, size_t errlen)
{
	const struct slc_job *j = &l->j;
	int rc;

	while (l->submitting && l->nfree && (!j->max_bytes || l->submitted < j->max_bytes)) {
		uint32_t slot = l->free_slots[l->nfree - 1];
		struct slc_io *io = &l->ios[slot];

		io->slot = slot;
		io->len = j->block_bytes;
		if (j->max_bytes && j->max_bytes - l->submitted < io->len)
			io->len = (uint32_t)((j->max_bytes - l->submitted + j->block_bytes - 1) / j->block_bytes * j->block_bytes);
		io->is_read = l->reads;
		if (l->mix_cut)
			io->is_read = (uint32_t)(xs(&l->mix_rng) >> 32) < l->mix_cut;
		place(l, io);
		if (!io->is_read && !l->ignores_data)
			slc_datagen_next(&l->gen, l->bufs[slot], io->len);
		io->submit_ns = now;
		io->result = 0;
		if ((rc = l->t->ops->submit(l->t, io, l->bufs[slot]))) {
			l->rc = slc_errf(err, errlen, rc, "submitting an I/O failed: %s", strerror(-rc));
			l->submitting = 0;
			break;
		}
		l->nfree--;
		l->inflight++;
		l->busy[slot] = 1;
		l->submitted += io->len;
	}
}

/* Account @n completions: free their slots, feed the sampler; the first
 * error or a callback's return ends submission (in-flight ones drain). */
static void complete(struct loop *l, int n)
{
	struct slc_job_result *res = l->res;

	for (int i = 0; i < n; i++) {
		struct slc_io *io = l->done[i];
		int r2;

		l->inflight--;
		l->busy[io->slot] = 0;
		l->free_slots[l->nfree++] = io->slot;
		if (io->result != (int)io->len) {
			if (!res->error) {
				res->error = io->result < 0 ? io->result : -EIO;
				res->error_offset = io->offset;
			}
			l->submitting = 0;
			continue;
		}
		if (io->complete_ns > l->last)
			l->last = io->complete_ns;
		res->bytes += io->len;
		res->ios++;
		if (l->jobs) {
			slc__jobs_add(l, io->complete_ns < l->last ? l->last : io->complete_ns, io->len,
				      io->complete_ns - io->submit_ns, io->is_read);
			continue;
		}
		r2 = slc_sampler_add_rw(&l->smp, io->complete_ns < l->last ? l->last : io->complete_ns,
					io->len, io->complete_ns - io->submit_ns, io->is_read, slc__engine_on_interval, &l->r);
		if (r2 == SLC_ENGINE_DONE) {
			/* the caller has seen enough: finish normally */
			res->done_early = 1;
			l->submitting = 0;
		} else if (r2) {
			l->rc = r2;
			l->submitting = 0;
		}
	}
}

/* The stop request: the caller's, or its copy a writer thread reads. */
static int stop_of(const struct loop *l)
{
	if (l->stop_copy)
		return atomic_load_explicit(l->stop_copy, memory_order_relaxed);
	return l->stop ? *l->stop : 0;
}

/* The time limit, moved on by the host's stops a writer thread was told of. */
static uint64_t deadline_of(const struct loop *l)
{
	if (!l->later || l->deadline == UINT64_MAX)
		return l->deadline;
	return l->deadline + atomic_load_explicit(l->later, memory_order_relaxed);
}

/* Tell the callback what a stopped job still waits for: how many, the oldest. */
static void tell_draining(struct loop *l, uint64_t timeout_ns)
{
	struct slc_drain d = { .inflight = l->inflight, .timeout_ns = timeout_ns };
	uint64_t now = l->t->ops->now_ns(l->t), first = now;

	for (uint32_t i = 0; i < l->qd; i++)
		if (l->busy[i] && l->ios[i].submit_ns <= first) {
			first = l->ios[i].submit_ns;
			d.oldest_offset = l->ios[i].offset;
		}
	d.oldest_ns = now - first;
	l->told = 1;
	if (!l->r.cb->draining)
		return;
	if (l->jobs)
		slc__jobs_cb_lock(l->jobs, 1);
	l->r.cb->draining(l->r.cb->arg, &d);
	if (l->jobs)
		slc__jobs_cb_lock(l->jobs, 0);
}

/*
 * A stopped job waits for its commands in short slices, so that a second
 * stop request (SLC_STOP_NOW) is seen at once; says once what it waits for
 * when that takes a while; abandons them after the drain timeout without a
 * completion: a drive that does not answer must not hold the stop.
 * Return: completions, or -errno.
 */
static int drain_stopped(struct loop *l)
{
	struct slc_target *t = l->t;
	uint64_t timeout = l->r.cb->drain_timeout_ns ? l->r.cb->drain_timeout_ns : SLC_ENGINE_DRAIN_TIMEOUT_NS;
	uint64_t now = slc__target_mono_ns(), slice = DRAIN_SLICE_NS;
	int n;

	if (!l->draining) {
		l->draining = 1;
		l->drain_t0 = l->drain_last = now;
	}
	if ((stop_of(l) & SLC_STOP_NOW) || now - l->drain_last >= timeout) {
		l->abandoned = 1;
		l->res->abandoned = l->inflight;
		t->ops->abandon(t);
		return 0;
	}
	if (!l->told && now - l->drain_t0 >= DRAIN_TELL_NS)
		tell_draining(l, timeout);
	if (timeout - (now - l->drain_last) < slice)
		slice = timeout - (now - l->drain_last);
	n = t->ops->reap_timed(t, l->done, l->qd, slice);
	if (n > 0)
		l->drain_last = slc__target_mono_ns();
	return n;
}

/* Keep the queue full until the limits, a stop, an error or a callback end it. */
void slc__engine_loop(struct loop *l, char *err, size_t errlen)
{
	struct slc_target *t = l->t;
	const struct slc_job *j = &l->j;

	while (l->inflight || l->submitting) {
		uint64_t now = t->ops->now_ns(t);
		int n;

		/* pass_ns stays at the last check (after the last wait): a stop
		 * outside the wait (while submitting or counting completions, most
		 * of the time on a fast target) is then measured from there */
		if (l->submitting) {
			int late = now >= deadline_of(l);

			/* at the time limit, a stop the check below has not seen yet
			 * moves the limit on first */
			if (late && l->watch && slc__host_watch_continued(&l->hw)) {
				host_check(l, now);
				now = l->pass_ns;
				late = now >= deadline_of(l);
			}
			if (stop_of(l) || late || (j->max_bytes && l->submitted >= j->max_bytes) ||
			    (l->halt && atomic_load_explicit(l->halt, memory_order_relaxed)))
				l->submitting = 0;
		}
		submit_free(l, now, err, errlen);
		if (!l->inflight)
			break;
		/* Refill once @batch commands are back: one wake-up per batch,
		 * not per completion (a halted CPU is slow to wake, and so is the
		 * task that submits); the device sees qd - batch + 1 .. qd
		 * commands.  Submission over: drain one at a time, after a stop
		 * with a bound where commands can take any time. */
		if (!l->submitting && stop_of(l) && t->ops->reap_timed && t->ops->abandon)
			n = drain_stopped(l);
		else
			n = t->ops->reap(t, l->done, l->qd, l->submitting && l->inflight >= l->batch ? l->batch : 1);
		/* before the completions reach the sampler: a stop inside that
		 * wait must not become intervals of nothing (the resume's SIGCONT
		 * may also have cut the wait short: -EINTR) */
		if (l->watch)
			host_check(l, n > 0 ? l->done[0]->complete_ns : t->ops->now_ns(t));
		if (l->abandoned)
			break;
		if (n < 0) {
			if (n == -EINTR)
				continue;
			l->rc = slc_errf(err, errlen, n, "waiting for I/O failed: %s", strerror(-n));
			break;
		}
		complete(l, n);
	}
}

/* Drain what a failure left in flight, so the buffers can be freed. */
void slc__engine_reap_rest(struct loop *l)
{
	while (l->inflight && !l->abandoned) {
		int n = l->t->ops->reap(l->t, l->done, l->qd, 1);
		if (n <= 0 && n != -EINTR)
			break;
		if (n > 0)
			l->inflight -= (uint32_t)n;
	}
}

/* Drain what a failure left in flight; close the last interval; say why
 * the job ended. */
static int finish_job(struct loop *l, char *err, size_t errlen)
{
	struct slc_job_result *res = l->res;
	int rc = l->rc;

	slc__engine_reap_rest(l);
	{
		/* after a failure too: the sample held back holds completed I/O */
		int r2 = slc_sampler_finish(&l->smp, l->last, slc__engine_on_interval, &l->r);
		if (r2 == SLC_ENGINE_DONE) {
			res->done_early = 1;
			r2 = 0;
		}
		if (!r2 && (!rc || rc == -ECANCELED)) r2 = drain_events(&l->r);
		if (!rc) rc = r2;
	}
	res->elapsed_ns = l->last - l->r.t0;
	if (!rc && res->error)
		rc = slc_errf(err, errlen, res->error, "I/O error at offset %llu: %s",
			  (unsigned long long)res->error_offset, strerror(-res->error));
	if (!rc && l->stop && *l->stop)
		rc = -ECANCELED;
	return rc;
}

/*
 * The kernel may still use an abandoned command's buffer, so the
 * buffers stay allocated until the process exits; a list reachable from here
 * says they are kept on purpose (a leak checker sees them referenced).
 */
struct kept_buffers {
	struct kept_buffers *next;
	void *bufs[MAX_QD];
};
static struct kept_buffers *kept;

static void keep_abandoned(struct loop *l)
{
	struct kept_buffers *k = malloc(sizeof(*k));

	if (!k)
		return;                 /* then they leak, which is still safe */
	memcpy(k->bufs, l->bufs, sizeof(k->bufs));
	k->next = kept;
	kept = k;
}

/* What a loop runs with, from its checked job: where its offsets go, how
 * many commands it keeps in flight, how many it reaps at once. */
void slc__engine_prepare(struct loop *l)
{
	l->nblk = l->j.range_bytes / l->j.block_bytes;
	/* on whole blocks without an alignment: the range's blocks, so the
	 * offsets a seed gives do not depend on the range's last partial block */
	l->nslots = l->j.align_bytes ? (l->j.range_bytes - l->j.block_bytes) / l->j.align_bytes + 1 : l->nblk;
	if (l->j.kind == SLC_JOB_SEQ_MIXED || l->j.kind == SLC_JOB_RAND_MIXED) {
		/* a share of 100% reads every command: the cut cannot reach 2^32 */
		l->reads = l->j.read_pct == 100;
		l->mix_cut = l->j.read_pct == 100 || !l->j.read_pct ? 0 :
			(uint32_t)(((uint64_t)l->j.read_pct << 32) / 100);
		l->mix_rng = (l->j.seed ^ 0xa0761d6478bd642full) | 1;
	}
	l->slice = l->nblk / l->j.jobs;          /* blocks per sequential job */
	l->qd = l->j.queue_depth * l->j.jobs;    /* commands in flight, all jobs */
	l->batch = slc_engine_reap_batch(l->t, &l->j);
}

/* The loop's buffers go, or stay when the kernel may still use them. */
void slc__engine_release(struct loop *l)
{
	if (l->abandoned)
		keep_abandoned(l);
	else
		for (uint32_t i = 0; i < MAX_QD; i++)
			free(l->bufs[i]);
	memset(l->bufs, 0, sizeof(l->bufs));
}

int slc_engine_run(struct slc_target *t, const struct slc_job *job, const struct slc_engine_cb *cb,
		   const volatile int *stop, struct slc_job_result *res, char *err, size_t errlen)
{
	static const struct slc_engine_cb no_cb;
	struct loop loop = {
		.t = t, .j = *job, .r = { .t = t, .cb = cb ? cb : &no_cb, .sched_fd = -1 }, .res = res, .stop = stop,
		.submitting = 1, .reads = slc_job_kind_read_pct(job->kind, 0) == 100,
		.ignores_data = !!(slc_target_caps(t) & SLC_TARGET_CAP_IGNORES_DATA),
	}, *l = &loop;
	int rc;

	memset(res, 0, sizeof(*res));
	if ((rc = slc__engine_check_job(t->capacity_bytes, t->logical_block_bytes, &l->j, err, errlen)))
		return rc;
	slc__engine_prepare(l);
	if (slc__jobs_threaded(t, &l->j))
		return slc__jobs_run(l, err, errlen);
	t->poll_ns = slc__engine_poll_ns(l->qd);
	if ((rc = slc__engine_buffers(l, err, errlen)))
		goto out;
	start_job(l);
	slc__engine_loop(l, err, errlen);
	rc = finish_job(l, err, errlen);
out:
	t->poll_ns = 0;
	if (l->r.sched_fd >= 0)
		close(l->r.sched_fd);
	slc__engine_release(l);
	return rc;
}
