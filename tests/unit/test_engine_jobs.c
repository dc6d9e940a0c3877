// SPDX-License-Identifier: MIT
/*
 * Several jobs, one writer thread each: every command is counted once (the
 * threads' sum is the step's, the samples' sum too), a sequential job
 * writes exactly its slice, random ones their own offsets, an interval's
 * counts from several threads make the sample one loop would have made,
 * and a stop ends every thread at once.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/core.h"
#include "private.h"          /* slc__sampler_add_acc */
#include "target_priv.h"      /* the counting target below implements the ops */
#include "engine_priv.h"      /* slc__engine_cpu_cap, slc__engine_wait_cap */

/* ---- a target that counts what each of its twins was given ---- */

#define MAX_REC 8
#define MAX_QD_TEST 256u
#define MAX_BLK 4096u

struct rec {
	struct slc_io *q[MAX_QD_TEST];
	unsigned n;
	uint64_t ios, bytes, lo, hi;
	uint16_t hits[MAX_BLK];       /* writes per block of the test's block size */
};

static struct rec recs[MAX_REC];
static atomic_uint nrec;
static uint32_t rec_block;
static int twin_fails;

static int rec_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct rec *r = t->priv;
	uint64_t b = io->offset / rec_block;

	(void)buf;
	if (r->n == MAX_QD_TEST)
		return -EBUSY;
	r->q[r->n++] = io;
	r->ios++;
	r->bytes += io->len;
	r->lo = io->offset < r->lo ? io->offset : r->lo;
	r->hi = io->offset + io->len > r->hi ? io->offset + io->len : r->hi;
	if (b < MAX_BLK)
		r->hits[b]++;
	return 0;
}

static int rec_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct rec *r = t->priv;
	uint64_t now = slc__target_mono_ns();
	unsigned n = r->n < max ? r->n : max;

	(void)min;
	for (unsigned i = 0; i < n; i++) {
		r->q[i]->result = (int)r->q[i]->len;
		r->q[i]->complete_ns = now;
		done[i] = r->q[i];
	}
	memmove(r->q, r->q + n, (r->n - n) * sizeof(r->q[0]));
	r->n -= n;
	return (int)n;
}

static int rec_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	(void)t; (void)offset; (void)len;
	return 0;
}

static int rec_twin(struct slc_target *t, struct slc_target *tw, unsigned qd, char *err, size_t errlen)
{
	unsigned i;

	(void)t; (void)qd;
	if (twin_fails)
		return slc_errf(err, errlen, -EIO, "rec: no twin today");
	i = atomic_fetch_add(&nrec, 1);
	if (i >= MAX_REC)
		return slc_errf(err, errlen, -ENOSPC, "rec: too many twins");
	tw->priv = &recs[i];
	return 0;
}

static void rec_close(struct slc_target *t)
{
	(void)t;
}

static const struct slc_target_ops rec_ops = {
	.name = "rec",
	.caps = SLC_TARGET_CAP_NO_IO | SLC_TARGET_CAP_IGNORES_DATA,
	.submit = rec_submit,
	.reap = rec_reap,
	.now_ns = slc__target_mono_now,
	.discard = rec_discard,
	.idle = slc__target_mono_idle,
	.twin = rec_twin,
	.close = rec_close,
};

static struct slc_target rec_target(uint64_t capacity, uint32_t block)
{
	struct slc_target t = { .ops = &rec_ops, .kind = SLC_TARGET_NULL, .capacity_bytes = capacity,
				.logical_block_bytes = 512, .fd = -1 };

	memset(recs, 0, sizeof(recs));
	for (unsigned i = 0; i < MAX_REC; i++)
		recs[i].lo = UINT64_MAX;
	atomic_store(&nrec, 0);
	rec_block = block;
	twin_fails = 0;
	snprintf(t.spec, sizeof(t.spec), "rec:");
	t.priv = &recs[MAX_REC - 1];   /* the step's own target: no writer uses it */
	return t;
}

/* ---- what the samples said ---- */

struct seen {
	size_t n;
	uint64_t ios, last_bytes;
	double last_t;
	int monotonic, cpu_known, cpu_bad;
	int stop_at;                  /* set *stop at this sample (1-based), 0: never */
	int done_at;                  /* return SLC_ENGINE_DONE at this sample */
	volatile int *stop;
};

static int seen_sample(void *arg, const struct slc_sample *s)
{
	struct seen *v = arg;

	v->n++;
	v->ios += s->ios;
	if (s->bytes_total < v->last_bytes || s->t_s <= v->last_t)
		v->monotonic = 0;
	v->last_bytes = s->bytes_total;
	v->last_t = s->t_s;
	if (isfinite(s->writer_cpu)) {
		v->cpu_known++;
		if (s->writer_cpu < 0 || s->writer_cpu > 1.1) {
			/* one thread's share of one core, a little clock skew aside */
			print_message("writer_cpu %f in the sample at %f s\n", s->writer_cpu, s->t_s);
			v->cpu_bad++;
		}
	}
	if (v->stop_at && (int)v->n == v->stop_at)
		*v->stop = 1;
	return v->done_at && (int)v->n == v->done_at ? SLC_ENGINE_DONE : 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Random jobs on N threads: the step's counts are the sum of the threads',
 * the samples' sum is the step's, each thread used a twin of its own. */
static void test_jobs_random_sum(void **state)
{
	enum { CAP = 64 << 20 };
	(void)state;

	for (uint32_t jobs = 2; jobs <= 4; jobs += 2) {
		struct slc_target t = rec_target(CAP, 4096);
		struct seen v = { .monotonic = 1 };
		struct slc_engine_cb cb = { .sample = seen_sample, .arg = &v };
		struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .queue_depth = 16, .jobs = jobs,
				       .max_bytes = 3000000 * 4096ull, .interval_ns = 5000000ull, .seed = 3 };
		struct slc_job_result res;
		uint64_t ios = 0, bytes = 0;
		char err[256];

		assert_int_equal(slc_engine_run(&t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
		assert_int_equal(atomic_load(&nrec), jobs);
		for (unsigned i = 0; i < jobs; i++) {
			ios += recs[i].ios;
			bytes += recs[i].bytes;
			/* a random job draws from the whole range */
			assert_true(recs[i].lo < CAP / 8 && recs[i].hi > CAP - CAP / 8);
			assert_true(recs[i].ios > 0);
		}
		assert_true(res.ios == ios && res.bytes == bytes);
		assert_true(res.bytes == 3000000 * 4096ull);
		assert_true(v.ios == res.ios);
		assert_true(v.last_bytes == res.bytes);
		assert_true(v.monotonic);
		assert_true(v.n >= 2);
		assert_true(v.cpu_bad == 0);
		/* the threads' offsets differ: not one stream twice */
		assert_true(memcmp(recs[0].hits, recs[1].hits, sizeof(recs[0].hits)) != 0);
	}
}

/* Sequential jobs on N threads: each writes its slice, every block of it
 * exactly once when the step writes the range once. */
static void test_jobs_seq_slices(void **state)
{
	enum { BLK = 131072, NBLK = 512, CAP = NBLK * BLK, JOBS = 4 };
	struct slc_target t = rec_target(CAP, BLK);
	struct seen v = { .monotonic = 1 };
	struct slc_engine_cb cb = { .sample = seen_sample, .arg = &v };
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .block_bytes = BLK, .queue_depth = 8, .jobs = JOBS,
			       .max_bytes = CAP, .interval_ns = 1000000ull };
	struct slc_job_result res;
	char err[256];
	(void)state;

	assert_int_equal(slc_engine_run(&t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.bytes == CAP);
	assert_int_equal(atomic_load(&nrec), JOBS);
	for (unsigned k = 0; k < JOBS; k++) {
		/* the twins were opened in any order: find the one at slice k */
		struct rec *r = NULL;
		for (unsigned i = 0; i < JOBS; i++)
			if (recs[i].lo == (uint64_t)k * (CAP / JOBS))
				r = &recs[i];
		assert_non_null(r);
		assert_true(r->hi == (uint64_t)(k + 1) * (CAP / JOBS));
		assert_true(r->bytes == CAP / JOBS);
		for (unsigned b = k * NBLK / JOBS; b < (k + 1) * NBLK / JOBS; b++)
			if (r->hits[b] != 1)
				fail_msg("slice %u: block %u written %u times", k, b, r->hits[b]);
	}
	assert_true(v.ios == res.ios && v.last_bytes == res.bytes && v.monotonic);
}

/* A stop request (the caller's flag, as Ctrl-C sets it) ends every thread
 * at once: -ECANCELED, the samples up to it kept; a callback's "done" ends
 * the step normally; a time limit ends it on time. */
static void test_jobs_stop(void **state)
{
	struct slc_target t = rec_target(1ull << 30, 4096);
	volatile int stop = 0;
	struct seen v = { .monotonic = 1, .stop_at = 3, .stop = &stop };
	struct slc_engine_cb cb = { .sample = seen_sample, .arg = &v };
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .queue_depth = 32, .jobs = 3,
			       .max_ns = 3600000000000ull, .interval_ns = 20000000ull, .seed = 1 };
	struct slc_job_result res;
	char err[256];
	double t0 = mono_s();
	(void)state;

	assert_int_equal(slc_engine_run(&t, &job, &cb, &stop, &res, err, sizeof(err)), -ECANCELED);
	assert_true(mono_s() - t0 < 2.0);
	assert_true(v.n >= 3 && v.ios == res.ios && v.last_bytes == res.bytes && v.monotonic);

	t = rec_target(1ull << 30, 4096);
	v = (struct seen){ .monotonic = 1, .done_at = 2 };
	t0 = mono_s();
	assert_int_equal(slc_engine_run(&t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(mono_s() - t0 < 2.0);
	assert_true(res.done_early);
	assert_true(v.ios == res.ios && v.last_bytes == res.bytes);

	t = rec_target(1ull << 30, 4096);
	v = (struct seen){ .monotonic = 1 };
	job.max_ns = 200000000ull;
	assert_int_equal(slc_engine_run(&t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	/* on time (the last completion came just before the limit, or after it), give
	 * or take a busy host's scheduling */
	if (res.elapsed_ns < 190000000ull || res.elapsed_ns >= 1000000000ull)
		fail_msg("a 200 ms step took %.3f s", res.elapsed_ns * 1e-9);
	assert_true(v.n >= 9 && v.n <= 50);
	assert_true(v.ios == res.ios && v.last_bytes == res.bytes && v.monotonic);
	/* a writer busy all the time: its share of a core is known */
	assert_true(v.cpu_known * 2 > (int)v.n && v.cpu_bad == 0);
}

/* A writer that cannot open its twin stops the step before any I/O, with
 * the twin's reason; a target without twins keeps one thread. */
static void test_jobs_twin_fails(void **state)
{
	struct slc_target t = rec_target(1ull << 30, 4096);
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .queue_depth = 4, .jobs = 2, .max_bytes = 1 << 20 };
	struct slc_job_result res;
	char err[256];
	(void)state;

	twin_fails = 1;
	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), -EIO);
	assert_string_equal(err, "rec: no twin today");
	assert_true(res.ios == 0);

	/* fewer blocks than jobs: one loop does them */
	t = rec_target(1ull << 30, 4096);
	job.max_bytes = 4096;
	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_int_equal(atomic_load(&nrec), 0);
	assert_true(res.ios == 1 && recs[MAX_REC - 1].ios == 1);
}

/*
 * Through io_uring on a regular file (O_DIRECT; tmpfs does not take it, so
 * the first directory whose filesystem does): two writer threads, each on
 * its own ring, write the file's two halves, every block of them, and the
 * counts add up.  Skipped where no directory takes O_DIRECT.
 */
static void test_jobs_file_uring(void **state)
{
	enum { SIZE = 8 << 20, BLK = 65536 };
	static const char *dirs[] = { "/var/tmp", "/tmp", "." };
	struct slc_target_opts o = { .file_size_bytes = SIZE };
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .block_bytes = BLK, .queue_depth = 4, .jobs = 2,
			       .max_bytes = SIZE, .seed = 9 };
	struct seen v = { .monotonic = 1 };
	struct slc_engine_cb cb = { .sample = seen_sample, .arg = &v };
	struct slc_target *t = NULL;
	struct slc_job_result res;
	char err[256] = "", path[64];
	unsigned char *buf = malloc(BLK), zero[512] = { 0 };
	FILE *f;
	(void)state;

	assert_non_null(buf);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !t; i++) {
		int fd;
		snprintf(path, sizeof(path), "%s/slcscope-test-jobs-XXXXXX", dirs[i]);
		if ((fd = mkstemp(path)) < 0)
			continue;
		close(fd);
		if (slc_target_open(&t, path, &o, err, sizeof(err))) {
			t = NULL;
			unlink(path);
		}
	}
	if (!t) {
		free(buf);
		print_message("skipped: no io_uring with O_DIRECT here (%s)\n", err);
		skip();
	}
	assert_true(slc__jobs_threaded(t, &job));
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	slc_target_close(t);
	assert_true(res.bytes == SIZE && res.ios == SIZE / BLK);
	assert_true(v.ios == res.ios && v.last_bytes == res.bytes && v.monotonic);
	assert_non_null(f = fopen(path, "rb"));
	for (unsigned b = 0; b < SIZE / BLK; b++) {
		assert_int_equal(fread(buf, 1, BLK, f), BLK);
		if (!memcmp(buf, zero, sizeof(zero)))
			fail_msg("block %u of the file was not written", b);
	}
	fclose(f);
	unlink(path);
	free(buf);
}

struct kept {
	struct slc_sample s[8];
	size_t n;
};

static int keep(void *arg, const struct slc_sample *smp)
{
	struct kept *k = arg;

	if (k->n < 8)
		k->s[k->n] = *smp;
	k->n++;
	return 0;
}

static int same(double x, double y)
{
	return (isnan(x) && isnan(y)) || x == y;
}

/* Intervals counted apart and summed make the samples that counting every
 * command in one sampler makes: bytes, I/Os, reads, percentiles, maxima,
 * the short last interval merged into the one before. */
/* A thread's share of a core read a little over 1 (its clock and the wall
 * clock read microseconds apart) is held to 1, and its wait to what is left,
 * so the two never sum over the interval. */
static void test_cpu_caps(void **state)
{
	(void)state;
	assert_true(slc__engine_cpu_cap(1.0017) == 1.0);
	assert_true(slc__engine_cpu_cap(-0.01) == 0.0);
	assert_true(slc__engine_cpu_cap(0.42) == 0.42);
	assert_true(isnan(slc__engine_cpu_cap(NAN)));
	assert_true(slc__engine_wait_cap(0.5, slc__engine_cpu_cap(1.0017)) == 0.0);
	assert_true(fabs(slc__engine_wait_cap(0.5, 0.8) - 0.2) < 1e-12);
	assert_true(slc__engine_wait_cap(0.1, 0.8) == 0.1);
	assert_true(slc__engine_wait_cap(0.3, NAN) == 0.3);
}

static void test_sampler_acc_sum(void **state)
{
	static const uint64_t ms = 1000000, iv = 10 * ms;
	struct slc_sampler *one = calloc(2, sizeof(*one)), *two = one + 1;
	struct slc_sampler_acc *a = calloc(3, sizeof(*a)), *b = a + 1, *sum = a + 2;
	struct kept k1 = { .n = 0 }, k2 = { .n = 0 };
	uint64_t seed = 7, end = 3 * iv + iv / 20;
	(void)state;

	assert_non_null(one);
	assert_non_null(a);
	slc_sampler_init(one, 0, iv);
	slc_sampler_init(two, 0, iv);
	for (uint64_t k = 0; k < 4; k++) {
		uint64_t tmax = 0, n = k < 3 ? 1000 : 50;
		memset(a, 0, 3 * sizeof(*a));
		for (uint64_t i = 0; i < n; i++) {
			/* two writers' completions in interval k: (k*iv, (k+1)*iv], the last one short */
			uint64_t t = k * iv + 1 + i * ((k < 3 ? iv : end - 3 * iv) - 1) / n;
			uint64_t lat = 1000 + (seed = seed * 6364136223846793005ull + 1442695040888963407ull) % 5000000;
			int rd = i % 3 == 0;

			assert_int_equal(slc_sampler_add_rw(one, t, 4096, lat, rd, keep, &k1), 0);
			slc__acc_add(i % 2 ? a : b, 4096, lat, rd);
			tmax = t;
		}
		slc__acc_sum(sum, a);
		slc__acc_sum(sum, b);
		assert_int_equal(slc__sampler_add_acc(two, tmax, sum, keep, &k2), 0);
		/* handed on at the same moments */
		assert_true(k1.n == k2.n);
	}
	assert_int_equal(slc_sampler_finish(one, end, keep, &k1), 0);
	assert_int_equal(slc_sampler_finish(two, end, keep, &k2), 0);
	assert_true(k1.n == 3 && k2.n == 3);
	for (size_t i = 0; i < k1.n; i++) {
		const struct slc_sample *x = &k1.s[i], *y = &k2.s[i];

		assert_true(x->ios == y->ios && x->read_ios == y->read_ios);
		assert_true(x->bytes_total == y->bytes_total && x->read_bytes_total == y->read_bytes_total);
		assert_true(same(x->t_s, y->t_s) && same(x->interval_s, y->interval_s));
		assert_true(same(x->lat_p50_us, y->lat_p50_us) && same(x->lat_p99_us, y->lat_p99_us));
		assert_true(same(x->lat_p999_us, y->lat_p999_us) && same(x->lat_max_us, y->lat_max_us));
		assert_true(same(x->read_lat_mean_us, y->read_lat_mean_us) &&
			    same(x->write_lat_p99_us, y->write_lat_p99_us));
	}
	assert_true(k1.s[2].ios == 1050);     /* the short last interval went into the third */
	free(a);
	free(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_random_sum),
		cmocka_unit_test(test_jobs_seq_slices),
		cmocka_unit_test(test_jobs_stop),
		cmocka_unit_test(test_jobs_twin_fails),
		cmocka_unit_test(test_jobs_file_uring),
		cmocka_unit_test(test_sampler_acc_sum),
		cmocka_unit_test(test_cpu_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
