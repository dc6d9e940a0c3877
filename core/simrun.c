// SPDX-License-Identifier: MIT
/*
 * Workloads on the simulated drive in virtual time.
 *
 * The drive serves one command at a time in submission order, so with a
 * queue depth of QD the k-th command is submitted when the (k-QD)-th
 * completes: a ring of QD completion times is the whole queue.  Completions
 * arrive in order, so each one goes to the sampler as soon as it is known.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"

#define EV_BATCH 64
#define AHEAD 16            /* random offsets drawn this many commands ahead */

struct run_ctx {
	struct slc_sim *s;
	slc_sample_fn on_sample;
	slc_sim_event_fn on_event;
	void *arg;
	uint64_t t0;
};

static int drain_events(struct run_ctx *c)
{
	struct slc_sim_event ev[EV_BATCH];
	size_t n;
	int rc;

	while ((n = slc_sim_events(c->s, ev, EV_BATCH)) > 0)
		for (size_t i = 0; i < n; i++)
			if (c->on_event && (rc = c->on_event(c->arg, &ev[i], c->t0)))
				return rc;
	return 0;
}

/* Sample hook: drain the drive's events first so they arrive in time order. */
static int sample_hook(void *arg, const struct slc_sample *smp)
{
	struct run_ctx *c = arg;
	struct slc_sample out = *smp;
	struct slc_sim_counters cnt;
	int rc;

	if ((rc = drain_events(c)))
		return rc;
	slc_sim_get_counters(c->s, &cnt);
	out.temp_c = cnt.temp_c;
	return c->on_sample ? c->on_sample(c->arg, &out) : 0;
}

static inline uint64_t xs(uint64_t *x)
{
	/* xorshift64*: offsets and data only need to be fast and not repeat */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int slc_sim_run(struct slc_sim *s, uint64_t *clock_ns, const struct slc_sim_workload *wl,
		slc_sample_fn on_sample, slc_sim_event_fn on_event, void *arg,
		const volatile int *stop, char *err, size_t errlen)
{
	const struct slc_sim_model *m = slc_sim_model_of(s);
	struct slc_sim_workload w = *wl;
	struct run_ctx ctx = { s, on_sample, on_event, arg, *clock_ns };
	struct slc_sampler smp;
	uint64_t *ring = NULL, nblk, pos = 0, bytes = 0, rng, last = *clock_ns, deadline;
	uint8_t *data = NULL;
	uint64_t ahead[AHEAD];
	uint32_t head = 0, ah = 0;
	int rc = 0, writes = w.kind != SLC_WL_RAND_READ;

	if (!w.block_bytes)
		w.block_bytes = w.kind == SLC_WL_SEQ_WRITE ? 131072 : 4096;
	if (!w.queue_depth)
		w.queue_depth = 32;
	if (!w.interval_ns)
		w.interval_ns = 1000000000ull;
	if (w.block_bytes % 512 || w.block_bytes > (64u << 20))
		return fail(err, errlen, "block size must be a multiple of 512 bytes, at most 64 MiB");
	if (w.queue_depth > 65536)
		return fail(err, errlen, "queue depth must be 1 to 65536");
	if (w.offset_bytes >= m->capacity_bytes)
		return fail(err, errlen, "offset is past the end of the drive");
	if (!w.range_bytes || w.range_bytes > m->capacity_bytes - w.offset_bytes)
		w.range_bytes = m->capacity_bytes - w.offset_bytes;
	nblk = w.range_bytes / w.block_bytes;
	if (nblk == 0)
		return fail(err, errlen, "the range is smaller than one block");
	if (!w.max_bytes && !w.max_ns)
		return fail(err, errlen, "a workload needs a size or a time limit");

	ring = malloc(w.queue_depth * sizeof(*ring));
	if (m->compression && writes)
		data = malloc(w.block_bytes);
	if (!ring || (m->compression && writes && !data)) {
		rc = fail(err, errlen, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < w.queue_depth; i++) ring[i] = *clock_ns;
	rng = w.seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	if (!rng) rng = 1;
	if (data) {
		/* the repeating pattern is fixed; random data changes every write */
		for (uint32_t i = 0; i < w.block_bytes; i += 8) {
			uint64_t v = w.data == SLC_DATA_REPEAT ? 0x5a5a5a5a00000000ull + (i & 0xff) : xs(&rng);
			memcpy(data + i, &v, 8);
		}
	}
	/* draw random offsets AHEAD commands early and prefetch their mapping */
	for (uint32_t i = 0; i < AHEAD; i++) {
		ahead[i] = w.offset_bytes + (uint64_t)(((unsigned __int128)xs(&rng) * nblk) >> 64) * w.block_bytes;
		slc_sim_prefetch(s, ahead[i]);
	}
	deadline = w.max_ns ? *clock_ns + w.max_ns : UINT64_MAX;
	slc_sim_mark(s, *clock_ns);
	slc_sampler_init(&smp, *clock_ns, w.interval_ns);

	while ((!w.max_bytes || bytes < w.max_bytes)) {
		uint64_t submit = ring[head], done, off;
		uint32_t len = w.block_bytes;

		if (submit >= deadline)
			break;
		if (stop && *stop) {
			rc = -ECANCELED;
			break;
		}
		if (w.max_bytes && w.max_bytes - bytes < len)
			len = (uint32_t)((w.max_bytes - bytes + 511) / 512 * 512);
		if (w.kind == SLC_WL_SEQ_WRITE) {
			off = w.offset_bytes + pos * w.block_bytes;
			pos = pos + 1 == nblk ? 0 : pos + 1;
		} else {
			/* Lemire's multiply-shift: uniform enough, no division */
			off = ahead[ah];
			ahead[ah] = w.offset_bytes +
				    (uint64_t)(((unsigned __int128)xs(&rng) * nblk) >> 64) * w.block_bytes;
			slc_sim_prefetch(s, ahead[ah]);
			ah = ah + 1 == AHEAD ? 0 : ah + 1;
		}
		if (data && w.data == SLC_DATA_RANDOM)
			for (uint32_t i = 0; i < len && i < 4096; i += 8) {
				uint64_t v = xs(&rng);
				memcpy(data + i, &v, 8);
			}
		if (writes)
			done = slc_sim_write(s, submit, off, len, data);
		else
			done = slc_sim_read(s, submit, off, len);
		ring[head] = done;
		head = head + 1 == w.queue_depth ? 0 : head + 1;
		bytes += len;
		last = done;
		if ((rc = slc_sampler_add(&smp, done, len, done - submit, sample_hook, &ctx)))
			break;
	}
	if (rc == 0 || rc == -ECANCELED) {
		int rc2 = slc_sampler_finish(&smp, last, sample_hook, &ctx);
		if (!rc2) rc2 = drain_events(&ctx);
		if (rc == 0) rc = rc2;
	}
	*clock_ns = last;
out:
	free(ring);
	free(data);
	return rc;
}
