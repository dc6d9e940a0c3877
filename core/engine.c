// SPDX-License-Identifier: MIT
/*
 * The write engine: one loop for every target.
 *
 * Keep queue_depth commands in flight: fill every free slot, then reap at
 * least one completion, account it, and refill.  Real targets batch the
 * refills into one io_uring submission; a target that models a device
 * queue (SLC_TARGET_CAP_ONE_AT_A_TIME) completes one command per reap in
 * its own time, which reproduces a device queue of that depth exactly.
 * Random offsets are drawn a few commands ahead so a target can prefetch
 * through its hint op (a simulated drive's mapping table is large).  The
 * engine knows targets only by their ops and capabilities (target_priv.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"

#define AHEAD 16u
#define MAX_QD 256u
#define EV_BATCH 64u


static inline uint64_t xs(uint64_t *x)
{
	/* xorshift64*: offsets only need to be fast and uniform */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

struct run {
	struct slc_target *t;
	const struct slc_engine_cb *cb;
	uint64_t t0;
	uint64_t last_bytes;
	double next_temp_s;           /* real targets: next temperature reading */
};

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
static int on_interval(void *arg, const struct slc_sample *smp)
{
	struct run *r = arg;
	struct slc_sample out = *smp;
	struct slc_sim_counters c;
	int rc;

	if ((rc = drain_events(r)))
		return rc;
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

uint32_t slc_engine_reap_batch(const struct slc_target *t, const struct slc_job *job)
{
	uint32_t qd = (job->queue_depth ? job->queue_depth : 32) * (job->jobs ? job->jobs : 1);
	uint32_t b = job->reap_batch ? job->reap_batch : qd / 8;

	if (t && (slc_target_caps(t) & SLC_TARGET_CAP_ONE_AT_A_TIME))
		return 1;
	if (b > qd)
		b = qd;
	return b ? b : 1;
}

static int check_job(const struct slc_target *t, struct slc_job *j, char *err, size_t errlen)
{
	uint32_t align = t->logical_block_bytes ? t->logical_block_bytes : 512;

	if (!j->block_bytes)
		j->block_bytes = j->kind == SLC_JOB_SEQ_WRITE ? 131072 : 4096;
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
	if (j->offset_bytes >= t->capacity_bytes)
		return slc_errf(err, errlen, -EINVAL, "offset is past the end of the target");
	if (!j->range_bytes || j->range_bytes > t->capacity_bytes - j->offset_bytes)
		j->range_bytes = t->capacity_bytes - j->offset_bytes;
	if (j->range_bytes / j->jobs < j->block_bytes)
		return slc_errf(err, errlen, -EINVAL, "the range is smaller than one block per job");
	if (!j->max_bytes && !j->max_ns)
		return slc_errf(err, errlen, -EINVAL, "a job needs a size or a time limit");
	return 0;
}

int slc_engine_run(struct slc_target *t, const struct slc_job *job, const struct slc_engine_cb *cb,
		   const volatile int *stop, struct slc_job_result *res, char *err, size_t errlen)
{
	static const struct slc_engine_cb no_cb;
	struct slc_job j = *job;
	struct run r = { .t = t, .cb = cb ? cb : &no_cb };
	struct slc_sampler smp;
	struct slc_datagen gen;
	struct slc_io ios[MAX_QD], *done[MAX_QD];
	void *bufs[MAX_QD] = { 0 };
	uint32_t free_slots[MAX_QD], nfree, inflight = 0, ah = 0;
	uint64_t ahead[AHEAD], nblk, submitted = 0, rng, deadline, last;
	uint64_t pos[64] = { 0 }, slice;   /* sequential jobs: position in each job's slice */
	uint32_t qd, batch, next_job = 0;
	int rc = 0, submitting = 1, reads = job->kind == SLC_JOB_RAND_READ;

	memset(res, 0, sizeof(*res));
	if ((rc = check_job(t, &j, err, errlen)))
		return rc;
	nblk = j.range_bytes / j.block_bytes;
	slice = nblk / j.jobs;             /* blocks per sequential job */
	qd = j.queue_depth * j.jobs;       /* commands in flight, all jobs */
	batch = slc_engine_reap_batch(t, &j);
	for (uint32_t i = 0; i < qd; i++) {
		if (posix_memalign(&bufs[i], 4096, j.block_bytes)) {
			bufs[i] = NULL;
			rc = slc_errf(err, errlen, -ENOMEM, "out of memory for I/O buffers");
			goto out;
		}
	}
	slc_datagen_init(&gen, j.data, j.compress_ratio, j.seed);
	for (uint32_t i = 0; i < qd; i++) {
		slc_datagen_fill(&gen, bufs[i], j.block_bytes);
		free_slots[i] = qd - 1 - i;
	}
	nfree = qd;
	if (t->ops->register_buffers && (rc = t->ops->register_buffers(t, bufs, qd, j.block_bytes))) {
		rc = slc_errf(err, errlen, rc, "cannot register I/O buffers: %s", strerror(-rc));
		goto out;
	}
	rng = j.seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	if (!rng) rng = 1;
	for (uint32_t i = 0; i < AHEAD; i++) {
		ahead[i] = j.offset_bytes + (uint64_t)(((unsigned __int128)xs(&rng) * nblk) >> 64) * j.block_bytes;
		if (j.kind != SLC_JOB_SEQ_WRITE && t->ops->hint)
			t->ops->hint(t, ahead[i]);
	}
	r.t0 = last = t->ops->now_ns(t);
	deadline = j.max_ns ? r.t0 + j.max_ns : UINT64_MAX;
	if (t->ops->mark)
		t->ops->mark(t, r.t0);
	slc_sampler_init(&smp, r.t0, j.interval_ns);

	while (inflight || submitting) {
		uint64_t now = t->ops->now_ns(t);
		int n;

		if (submitting && ((stop && *stop) || now >= deadline || (j.max_bytes && submitted >= j.max_bytes)))
			submitting = 0;
		while (submitting && nfree && (!j.max_bytes || submitted < j.max_bytes)) {
			struct slc_io *io = &ios[free_slots[nfree - 1]];
			uint32_t slot = free_slots[nfree - 1];

			io->slot = slot;
			io->len = j.block_bytes;
			if (j.max_bytes && j.max_bytes - submitted < io->len)
				io->len = (uint32_t)((j.max_bytes - submitted + j.block_bytes - 1) / j.block_bytes * j.block_bytes);
			io->is_read = reads;
			if (j.kind == SLC_JOB_SEQ_WRITE) {
				/* jobs take turns, each in its own slice */
				uint32_t k = next_job;
				next_job = next_job + 1 == j.jobs ? 0 : next_job + 1;
				io->offset = j.offset_bytes + ((uint64_t)k * slice + pos[k]) * j.block_bytes;
				pos[k] = pos[k] + 1 == slice ? 0 : pos[k] + 1;
			} else {
				io->offset = ahead[ah];
				ahead[ah] = j.offset_bytes +
					    (uint64_t)(((unsigned __int128)xs(&rng) * nblk) >> 64) * j.block_bytes;
				if (t->ops->hint)
					t->ops->hint(t, ahead[ah]);
				ah = ah + 1 == AHEAD ? 0 : ah + 1;
			}
			if (!reads)
				slc_datagen_stamp(&gen, bufs[slot], io->len, io->offset);
			io->submit_ns = now;
			io->result = 0;
			if ((rc = t->ops->submit(t, io, bufs[slot]))) {
				rc = slc_errf(err, errlen, rc, "submitting an I/O failed: %s", strerror(-rc));
				submitting = 0;
				break;
			}
			nfree--;
			inflight++;
			submitted += io->len;
		}
		if (!inflight)
			break;
		/* Refill once @batch commands are back: one wake-up per batch,
		 * not per completion (a halted CPU is slow to wake, and so is the
		 * task that submits); the device sees qd - batch + 1 .. qd
		 * commands.  Submission over: drain one at a time. */
		n = t->ops->reap(t, done, qd, submitting && inflight >= batch ? batch : 1);
		if (n < 0) {
			if (n == -EINTR)
				continue;
			rc = slc_errf(err, errlen, n, "waiting for I/O failed: %s", strerror(-n));
			break;
		}
		for (int i = 0; i < n; i++) {
			struct slc_io *io = done[i];
			int r2;

			inflight--;
			free_slots[nfree++] = io->slot;
			if (io->result != (int)io->len) {
				/* the first error stops submission; in-flight ones drain */
				if (!res->error) {
					res->error = io->result < 0 ? io->result : -EIO;
					res->error_offset = io->offset;
				}
				submitting = 0;
				continue;
			}
			if (io->complete_ns > last)
				last = io->complete_ns;
			res->bytes += io->len;
			res->ios++;
			r2 = slc_sampler_add(&smp, io->complete_ns < last ? last : io->complete_ns,
					     io->len, io->complete_ns - io->submit_ns, on_interval, &r);
			if (r2 == SLC_ENGINE_DONE) {
				/* the caller has seen enough: finish normally */
				res->done_early = 1;
				submitting = 0;
			} else if (r2) {
				rc = r2;
				submitting = 0;
			}
		}
	}
	/* drain anything a failure left in flight so the buffers can be freed */
	while (inflight) {
		int n = t->ops->reap(t, done, qd, 1);
		if (n <= 0 && n != -EINTR)
			break;
		if (n > 0)
			inflight -= (uint32_t)n;
	}
	if (!rc || rc == -ECANCELED) {
		int r2 = slc_sampler_finish(&smp, last, on_interval, &r);
		if (r2 == SLC_ENGINE_DONE) {
			res->done_early = 1;
			r2 = 0;
		}
		if (!r2) r2 = drain_events(&r);
		if (!rc) rc = r2;
	}
	res->elapsed_ns = last - r.t0;
	if (!rc && res->error)
		rc = slc_errf(err, errlen, res->error, "I/O error at offset %llu: %s",
			  (unsigned long long)res->error_offset, strerror(-res->error));
	if (!rc && stop && *stop)
		rc = -ECANCELED;
out:
	for (uint32_t i = 0; i < MAX_QD; i++)
		free(bufs[i]);
	return rc;
}
