// SPDX-License-Identifier: MIT
/*
 * The write engine and what it writes: data that neither compresses nor
 * repeats, jobs that stop where they should, samples that add up, the
 * sampler's percentiles, no outlier last sample, and block-device refusals on plain files.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "slcscope/core.h"
#include "slcscope/session.h"
#include "private.h"          /* slc__engine_poll_ns */
#include "target_priv.h"      /* the failing target below implements the ops */

/* Written blocks: zlib cannot shrink them and no two 4 KiB blocks are equal. */
static void test_data_incompressible_unique(void **state)
{
	enum { BLK = 131072, WRITES = 64, SUB = BLK / 4096 };
	struct slc_datagen g;
	unsigned char *buf = malloc(BLK), *seen = malloc((size_t)WRITES * SUB * 32);
	unsigned char out[8192];
	(void)state;

	assert_non_null(buf);
	assert_non_null(seen);
	slc_datagen_init(&g, SLC_DATA_INCOMPRESSIBLE, 1, 7);
	slc_datagen_fill(&g, buf, BLK);
	for (int w = 0; w < WRITES; w++) {
		slc_datagen_next(&g, buf, BLK);
		for (int k = 0; k < SUB; k++) {
			uLongf outlen = sizeof(out);
			unsigned char *blk = buf + k * 4096;
			assert_int_equal(compress2(out, &outlen, blk, 4096, 9), Z_OK);
			if (outlen < 4096)
				fail_msg("write %d block %d compressed to %lu bytes", w, k, (unsigned long)outlen);
			/* keep a 32-byte fingerprint of the block */
			memcpy(seen + ((size_t)w * SUB + k) * 32, blk, 32);
		}
	}
	for (size_t a = 0; a < (size_t)WRITES * SUB; a++)
		for (size_t b = a + 1; b < (size_t)WRITES * SUB; b++)
			if (memcmp(seen + a * 32, seen + b * 32, 32) == 0)
				fail_msg("blocks %zu and %zu are equal", a, b);
	/* a second run differs from the first at the same offsets */
	{
		struct slc_datagen g2;
		unsigned char *b2 = malloc(BLK);
		assert_non_null(b2);
		slc_datagen_init(&g2, SLC_DATA_INCOMPRESSIBLE, 1, 8);
		slc_datagen_fill(&g2, b2, BLK);
		slc_datagen_next(&g2, b2, BLK);
		assert_true(memcmp(b2, seen, 32) != 0);
		free(b2);
	}
	/* the repeating pattern does compress: the controller test needs both */
	slc_datagen_init(&g, SLC_DATA_REPEATING, 1, 7);
	slc_datagen_fill(&g, buf, BLK);
	{
		uLongf outlen = sizeof(out);
		assert_int_equal(compress2(out, &outlen, buf, 4096, 9), Z_OK);
		assert_true(outlen < 512);
	}
	/* the compressible mode keeps its ratio, write after write */
	slc_datagen_init(&g, SLC_DATA_COMPRESSIBLE, 0.5, 7);
	slc_datagen_fill(&g, buf, BLK);
	for (int w = 0; w < 3; w++) {
		uLongf outlen = sizeof(out);
		slc_datagen_next(&g, buf, BLK);
		assert_int_equal(compress2(out, &outlen, buf + 4096, 4096, 9), Z_OK);
		if (outlen < 2048 || outlen > 2300)
			fail_msg("a 4 KiB block at ratio 0.5 compressed to %lu bytes", (unsigned long)outlen);
	}
	free(buf);
	free(seen);
}

struct counts {
	uint64_t samples, ios, last_bytes;
	double last_t;
	int monotonic;
};

static int count(void *arg, const struct slc_sample *s)
{
	struct counts *c = arg;
	if (s->t_s < c->last_t || s->bytes_total < c->last_bytes)
		c->monotonic = 0;
	c->samples++;
	c->ios += s->ios;
	c->last_bytes = s->bytes_total;
	c->last_t = s->t_s;
	return 0;
}

static int cmp32(const void *a, const void *b)
{
	return memcmp(a, b, 32);
}

/* Byte limits are exact and every I/O lands in exactly one sample. */
static void test_engine_byte_limit(void **state)
{
	struct slc_target *t;
	struct slc_target_opts o = { 0 };
	struct slc_job_result res;
	struct counts c = { .monotonic = 1 };
	struct slc_engine_cb cb = { .sample = count, .arg = &c };
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .max_bytes = 40000 * 4096ull + 100, .queue_depth = 64,
			       .interval_ns = 10000000ull, .seed = 1 };
	char err[256];
	(void)state;

	assert_int_equal(slc_target_open(&t, "null:1GiB", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	/* the last I/O is rounded up to a whole block */
	assert_true(res.bytes == 40001 * 4096ull);
	assert_int_equal(res.ios, 40001);
	assert_int_equal(c.ios, 40001);
	assert_true(c.last_bytes == res.bytes);
	assert_true(c.monotonic);
	slc_target_close(t);
}

/* Time limits on the virtual clock: 10 s of sequential writes, 1 s samples. */
static void test_engine_time_limit_sim(void **state)
{
	struct slc_target *t;
	struct slc_target_opts o = { .seed = 1 };
	struct slc_job_result res;
	struct counts c = { .monotonic = 1 };
	struct slc_engine_cb cb = { .sample = count, .arg = &c };
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .max_ns = 10000000000ull };
	char err[256];
	(void)state;

	assert_int_equal(slc_target_open(&t, "sim:tiny-tlc", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.elapsed_ns >= 10000000000ull && res.elapsed_ns < 10100000000ull);
	assert_true(c.samples == 10 || c.samples == 11);
	assert_true(c.last_t >= 10.0 && c.last_t < 10.1);
	assert_true(c.monotonic);
	/* the simulated drive completes one command at a time: batch 1 */
	job.reap_batch = 8;
	assert_int_equal(slc_engine_reap_batch(t, &job), 1);
	slc_target_close(t);
}

/* The queue is refilled once queue depth x jobs / 8 commands are back, at
 * least 1, never more than are in flight. */
static void test_reap_batch(void **state)
{
	struct slc_job j = { .kind = SLC_JOB_RAND_WRITE };
	(void)state;

	assert_int_equal(slc_engine_reap_batch(NULL, &j), 4);          /* QD32 default */
	j.queue_depth = 4;
	assert_int_equal(slc_engine_reap_batch(NULL, &j), 1);
	j.queue_depth = 32, j.jobs = 2;
	assert_int_equal(slc_engine_reap_batch(NULL, &j), 8);
	j.reap_batch = 100;
	assert_int_equal(slc_engine_reap_batch(NULL, &j), 64);
	j.reap_batch = 1;
	assert_int_equal(slc_engine_reap_batch(NULL, &j), 1);
}

/* Up to 4 commands in flight (queue depth x jobs) poll before sleeping;
 * deeper queues, which reap in batches, sleep at once. */
static void test_poll_shallow(void **state)
{
	(void)state;
	assert_true(slc__engine_poll_ns(1) > 0);
	assert_true(slc__engine_poll_ns(4) == slc__engine_poll_ns(1));
	assert_true(slc__engine_poll_ns(4) <= 100000);       /* bounded: tens of microseconds */
	assert_true(slc__engine_poll_ns(0) == 0);
	assert_true(slc__engine_poll_ns(5) == 0);
	assert_true(slc__engine_poll_ns(8) == 0);
	assert_true(slc__engine_poll_ns(32) == 0);
}

/* A stop request ends the job with -ECANCELED and keeps what was sampled. */
static void test_engine_stop(void **state)
{
	struct slc_target *t;
	struct slc_target_opts o = { 0 };
	struct slc_job_result res;
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .max_ns = 3600000000000ull };
	volatile int stop = 1;
	char err[256];
	(void)state;

	assert_int_equal(slc_target_open(&t, "null:1GiB", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_engine_run(t, &job, NULL, &stop, &res, err, sizeof(err)), -ECANCELED);
	slc_target_close(t);
}

/* The io_uring path on a regular file: exact byte and I/O counts, every I/O
 * in one sample, and what reached the file is what the engine promises:
 * each 4 KiB block differs from every other and does not compress.  A buffer
 * refilled while its write is still in flight would show up here as two
 * equal blocks.  Skipped where io_uring or O_DIRECT is unavailable. */
/*
 * A regular file target through io_uring with O_DIRECT, in the first
 * directory whose filesystem takes it (tmpfs does not); skips the test
 * where none does.  @path gets the file's name, to unlink afterwards.
 */
static struct slc_target *open_test_file(const char *stem, const struct slc_target_opts *o, char *path, size_t len)
{
	static const char *dirs[] = { "/var/tmp", "/tmp", "." };
	struct slc_target *t = NULL;
	char err[256] = "";

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !t; i++) {
		int fd;
		snprintf(path, len, "%s/slcscope-test-%s-XXXXXX", dirs[i], stem);
		if ((fd = mkstemp(path)) < 0)
			continue;
		close(fd);
		if (slc_target_open(&t, path, o, err, sizeof(err))) {
			t = NULL;
			unlink(path);
		}
	}
	if (!t) {
		print_message("skipped: no io_uring with O_DIRECT here (%s)\n", err);
		skip();
	}
	return t;
}

static void test_engine_file_uring(void **state)
{
	enum { SIZE = 16 << 20, NBLK = SIZE / 4096 };
	struct slc_target *t = NULL;
	struct slc_target_opts o = { .file_size_bytes = SIZE };
	struct slc_job_result res;
	struct counts c = { .monotonic = 1 };
	struct slc_engine_cb cb = { .sample = count, .arg = &c };
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .queue_depth = 32, .max_bytes = SIZE / 2,
			       .interval_ns = 10000000ull, .seed = 5 };
	char err[256], path[64];
	unsigned char *file, *fp, out[8192];
	FILE *f;
	(void)state;

	t = open_test_file("uring", &o, path, sizeof(path));
	/* random 4 KiB writes at QD32: counts are exact */
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.bytes == SIZE / 2);
	assert_int_equal(res.ios, NBLK / 2);
	assert_int_equal(c.ios, NBLK / 2);
	assert_true(c.last_bytes == res.bytes);
	assert_true(c.monotonic);
	/* the whole queue as one batch, ending on a count that is no multiple
	 * of it: the last commands still drain */
	job.reap_batch = 32;
	job.max_bytes = 777 * 4096;
	assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_int_equal(res.ios, 777);
	/* shallow queues poll before they sleep: the counts stay exact, and
	 * the target sleeps at once again after the job */
	for (uint32_t qd = 1; qd <= 4; qd *= 2) {
		job = (struct slc_job){ .kind = SLC_JOB_RAND_WRITE, .queue_depth = qd, .max_bytes = 301 * 4096,
					.seed = 7 + qd };
		assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
		assert_int_equal(res.ios, 301);
		assert_true(t->poll_ns == 0);
	}
	/* then the whole file once, sequentially in 128 KiB at QD8 */
	job = (struct slc_job){ .kind = SLC_JOB_SEQ_WRITE, .queue_depth = 8, .max_bytes = SIZE, .seed = 6 };
	assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.bytes == SIZE);
	slc_target_close(t);

	file = malloc(SIZE);
	fp = malloc((size_t)NBLK * 32);
	assert_non_null(file);
	assert_non_null(fp);
	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fread(file, 1, SIZE, f), SIZE);
	fclose(f);
	unlink(path);
	for (size_t k = 0; k < NBLK; k++) {
		memcpy(fp + k * 32, file + k * 4096, 32);
		if (k % 64 == 0) {      /* zlib on a sample of the blocks */
			uLongf outlen = sizeof(out);
			assert_int_equal(compress2(out, &outlen, file + k * 4096, 4096, 9), Z_OK);
			if (outlen < 4096)
				fail_msg("block %zu compressed to %lu bytes", k, (unsigned long)outlen);
		}
	}
	qsort(fp, NBLK, 32, cmp32);
	for (size_t k = 1; k < NBLK; k++)
		if (memcmp(fp + (k - 1) * 32, fp + k * 32, 32) == 0)
			fail_msg("two blocks of the file are equal");
	free(file);
	free(fp);
}

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(*(unsigned char *const *)a, *(unsigned char *const *)b, 512);
}

/* The compressed size of the file at @path through zstd --long (its window
 * spans the whole region, so repeats at any distance count); 0 without the
 * zstd command. */
static size_t zstd_long_size(const char *path)
{
	char cmd[256], chunk[65536];
	size_t total = 0, got;
	FILE *z;

	if (system("command -v zstd >/dev/null 2>&1") != 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "zstd -q -c -3 --long=27 < '%s'", path);
	if (!(z = popen(cmd, "r")))
		return 0;
	while ((got = fread(chunk, 1, sizeof(chunk), z)) > 0)
		total += got;
	return pclose(z) == 0 ? total : 0;
}

/* What the engine writes to a file, read back: a sequential fill at QD32 in
 * 128 KiB (buffers come round every 4 MiB) and then random 4 KiB writes
 * over it.  No 512-byte sector equals another, and neither zlib nor zstd
 * --long (which would find repeats megabytes apart) shrinks the region.
 * Skipped where io_uring or O_DIRECT is unavailable. */
static void test_engine_file_sectors_unique(void **state)
{
	enum { SIZE = 32 << 20, NSEC = SIZE / 512 };
	struct slc_target *t = NULL;
	struct slc_target_opts o = { .file_size_bytes = SIZE };
	struct slc_job_result res;
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .max_bytes = SIZE, .seed = 11 };
	char err[256], path[64];
	unsigned char *file, **sec, *out;
	uLongf zlen = compressBound(SIZE);
	size_t dups = 0, zst;
	FILE *f;
	(void)state;

	t = open_test_file("sectors", &o, path, sizeof(path));
	assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.bytes == SIZE);
	job = (struct slc_job){ .kind = SLC_JOB_RAND_WRITE, .max_bytes = SIZE / 4, .seed = 12 };
	assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	slc_target_close(t);

	file = malloc(SIZE);
	sec = malloc(NSEC * sizeof(*sec));
	out = malloc(zlen);
	assert_non_null(file);
	assert_non_null(sec);
	assert_non_null(out);
	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fread(file, 1, SIZE, f), SIZE);
	fclose(f);
	for (size_t k = 0; k < NSEC; k++)
		sec[k] = file + k * 512;
	qsort(sec, NSEC, sizeof(*sec), cmp_sector);
	for (size_t k = 1; k < NSEC; k++)
		dups += memcmp(sec[k - 1], sec[k], 512) == 0;
	assert_int_equal(compress2(out, &zlen, file, SIZE, 6), Z_OK);
	zst = zstd_long_size(path);
	print_message("%zu of %d sectors repeat one before; zlib %.4f, zstd --long %.4f%s\n", dups, NSEC,
		      (double)zlen / SIZE, (double)zst / SIZE, zst ? "" : " (no zstd command: not checked)");
	unlink(path);
	if (dups)
		fail_msg("%zu duplicate 512-byte sectors", dups);
	assert_true((double)zlen / SIZE > 0.999);
	if (zst)
		assert_true((double)zst / SIZE > 0.999);
	free(file);
	free(sec);
	free(out);
}

/* Bad jobs are refused with a reason. */
static void test_engine_bad_jobs(void **state)
{
	static const struct { struct slc_job job; const char *reason; } cases[] = {
		{ { .kind = SLC_JOB_SEQ_WRITE }, "size or a time limit" },
		{ { .kind = SLC_JOB_SEQ_WRITE, .max_bytes = 1, .block_bytes = 1000 }, "not a multiple" },
		{ { .kind = SLC_JOB_SEQ_WRITE, .max_bytes = 1, .queue_depth = 1000 }, "queue depth" },
		{ { .kind = SLC_JOB_SEQ_WRITE, .max_bytes = 1, .offset_bytes = 2ull << 30 }, "past the end" },
		{ { .kind = SLC_JOB_RAND_MIXED, .max_bytes = 1, .read_pct = 101 }, "read share" },
		{ { .kind = SLC_JOB_RAND_READ, .max_bytes = 1, .align_bytes = 1000 }, "alignment" },
		{ { .kind = (enum slc_job_kind)99, .max_bytes = 1 }, "job kind" },
	};
	struct slc_target *t;
	struct slc_target_opts o = { 0 };
	(void)state;

	assert_int_equal(slc_target_open(&t, "null:1GiB", &o, NULL, 0), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct slc_job_result res;
		char err[256] = "";
		assert_int_equal(slc_engine_run(t, &cases[i].job, NULL, NULL, &res, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].reason))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].reason);
	}
	slc_target_close(t);
}

/* The latency histogram: exact below 64 ns, under 1.6% error above. */
static void test_latency_percentiles(void **state)
{
	struct slc_lat_hist h;
	(void)state;

	slc_lat_hist_reset(&h);
	assert_true(isnan(slc_lat_hist_quantile_us(&h, 0.5)));
	for (uint64_t v = 1; v <= 100000; v++)
		slc_lat_hist_add(&h, v * 1000);          /* 1 us .. 100 ms, uniform */
	assert_true(fabs(slc_lat_hist_quantile_us(&h, 0.5) - 50000) / 50000 < 0.016);
	assert_true(fabs(slc_lat_hist_quantile_us(&h, 0.99) - 99000) / 99000 < 0.016);
	assert_true(fabs(slc_lat_hist_quantile_us(&h, 0.999) - 99900) / 99900 < 0.016);
	assert_true(slc_lat_hist_quantile_us(&h, 1.0) == 100000.0);
	slc_lat_hist_add(&h, 40ull * 3600 * 1000000000ull);   /* 40 hours: last bucket, exact max */
	assert_true(slc_lat_hist_quantile_us(&h, 1.0) == 40.0 * 3600 * 1e6);
}

/* A target that completes at once, on a virtual clock of 100 us per I/O, and
 * fails every I/O at or past fail_at: a device error mid-run. */
struct failing {
	struct slc_io *q[512];
	unsigned n;
	uint64_t clock, fail_at;
	uint64_t slice_bytes, written[8];   /* bytes submitted per slice, when slice_bytes */
	uint64_t off4k, reads;              /* commands off a 4 KiB boundary; reads */
};

static int f_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct failing *f = t->priv;
	(void)buf;
	io->submit_ns = f->clock;
	if (f->slice_bytes && io->offset / f->slice_bytes < 8)
		f->written[io->offset / f->slice_bytes] += io->len;
	f->off4k += io->offset % 4096 != 0;
	f->reads += !!io->is_read;
	f->q[f->n++] = io;
	return 0;
}

static int f_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct failing *f = t->priv;
	(void)min;
	if (!f->n || !max)
		return 0;
	f->clock += 100000;
	done[0] = f->q[0];
	done[0]->complete_ns = f->clock;
	done[0]->result = done[0]->offset >= f->fail_at ? -EIO : (int)done[0]->len;
	memmove(f->q, f->q + 1, --f->n * sizeof(f->q[0]));
	return 1;
}

static uint64_t f_now(struct slc_target *t) { return ((struct failing *)t->priv)->clock; }
static int f_discard(struct slc_target *t, uint64_t o, uint64_t l) { (void)t; (void)o; (void)l; return 0; }
static void f_idle(struct slc_target *t, uint64_t until) { ((struct failing *)t->priv)->clock = until; }
static void f_close(struct slc_target *t) { (void)t; }

static const struct slc_target_ops failing_ops = {
	.name = "failing", .submit = f_submit, .reap = f_reap, .now_ns = f_now,
	.discard = f_discard, .idle = f_idle, .close = f_close,
};

/* A failing target of @capacity bytes, its state in @f. */
static struct slc_target failing_target(struct failing *f, const char *spec, uint64_t capacity)
{
	struct slc_target t = { .ops = &failing_ops, .kind = SLC_TARGET_FILE, .capacity_bytes = capacity,
				.logical_block_bytes = 512, .fd = -1, .priv = f };

	snprintf(t.spec, sizeof(t.spec), "%s", spec);
	return t;
}

/* A fresh file for a trace: @path is a mkstemp() template. */
static void temp_file(char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
}

/* An I/O error stops the job, names the offset, and the trace keeps every
 * sample before it. */
static void test_device_error_keeps_trace(void **state)
{
	struct failing f = { .fail_at = 64ull << 20 };
	struct slc_target t = failing_target(&f, "failing", 256ull << 20);
	struct slc_trace_meta meta = { .target = "failing", .capacity_bytes = 256ull << 20 };
	struct slc_plan_opts po;
	struct slc_plan plan;
	struct slc_trace *tr;
	struct slc_input *in;
	struct slc_job_result res;
	size_t failed;
	char err[256], path[] = "/tmp/slcscope-test-engine-XXXXXX";
	(void)state;

	temp_file(path);
	slc_plan_opts_default(&po);
	po.trim_wait_ns = 0;
	po.interval_ns = 100000000ull;          /* 0.1 s */
	assert_int_equal(slc_plan_build(&plan, "seq", &po, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_create(&tr, path, &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_run(&plan, &t, tr, NULL, NULL, &res, &failed, err, sizeof(err)), -EIO);
	assert_int_equal(failed, 1);                    /* the sequential fill */
	assert_true(res.error == -EIO);
	assert_true(res.error_offset == 64ull << 20);   /* the first failing offset */
	assert_non_null(strstr(err, "I/O error at offset 67108864"));
	assert_int_equal(slc_trace_close(tr), 0);
	/* 512 writes of 128 KiB succeeded (64 MiB), at 0.1 ms each: 51.2 ms */
	assert_int_equal(slc_input_load(&in, path, err, sizeof(err)), 0);
	assert_int_equal(in->n_segments, 2);
	assert_true(in->segments[1].n_samples >= 1);
	assert_true(in->segments[1].bytes_total[in->segments[1].n_samples - 1] == 64ull << 20);
	slc_input_free(in);
	unlink(path);
}

/* Random offsets on the alignment asked for, whatever the block size. */
static void test_engine_alignment(void **state)
{
	struct failing f = { .fail_at = UINT64_MAX };
	struct slc_target t = failing_target(&f, "rec", 64u << 20);
	struct slc_job_result res;
	struct slc_job job = { .kind = SLC_JOB_RAND_READ, .block_bytes = 512, .queue_depth = 4,
			       .max_bytes = 4000 * 512, .seed = 5, .align_bytes = 4096 };
	char err[256];
	(void)state;

	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.ios == 4000 && f.reads == 4000 && f.off4k == 0);
	job.align_bytes = 0;                        /* on the block size: most are off 4 KiB */
	f.reads = f.off4k = 0;
	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_true(f.reads == 4000 && f.off4k > 3000);
}

/* A failing target that records the offsets hinted, how many commands had
 * been written when each was, and the offsets written. */
static uint64_t hinted[2048], hinted_at[2048], written[2048];
static unsigned n_hinted, n_written;

static void h_hint(struct slc_target *t, const uint64_t *offsets, unsigned n)
{
	(void)t;
	for (unsigned i = 0; i < n && n_hinted < 2048; i++) {
		hinted_at[n_hinted] = n_written;
		hinted[n_hinted++] = offsets[i];
	}
}

static int h_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	if (n_written < 2048)
		written[n_written++] = io->offset;
	return f_submit(t, io, buf);
}

static const struct slc_target_ops hinting_ops = {
	.name = "hinting", .submit = h_submit, .reap = f_reap, .now_ns = f_now,
	.discard = f_discard, .idle = f_idle, .close = f_close, .hint = h_hint,
};

/* A random job hints every offset, in the order written, and after the
 * first 32, 17 to 32 commands before it: the prefetch has time to arrive
 * and little to be evicted. */
static void test_engine_hints(void **state)
{
	struct failing f = { .fail_at = UINT64_MAX };
	struct slc_target t = failing_target(&f, "hinting", 1ull << 30);
	struct slc_job_result res;
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .block_bytes = 4096, .queue_depth = 8,
			       .max_bytes = 1000 * 4096, .seed = 3 };
	uint64_t lo = UINT64_MAX, hi = 0;
	char err[256];
	(void)state;

	t.ops = &hinting_ops;
	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_int_equal(n_written, 1000);
	assert_true(n_hinted >= 1000 && n_hinted <= 1000 + 32);
	for (unsigned i = 0; i < n_written; i++) {
		assert_true(written[i] == hinted[i]);
		if (i >= 32) {
			if (i - hinted_at[i] < lo) lo = i - hinted_at[i];
			if (i - hinted_at[i] > hi) hi = i - hinted_at[i];
		}
	}
	assert_int_equal(lo, 17);
	assert_int_equal(hi, 32);
}

/* What a step's reads find, by what the plan did before: marked in the trace. */
static void test_plan_read_state(void **state)
{
	struct failing f = { .fail_at = UINT64_MAX };
	struct slc_target t = failing_target(&f, "failing", 256ull << 20);
	struct slc_trace_meta meta = { .target = "failing", .capacity_bytes = 256ull << 20 };
	static const char *const want[] = { "unknown", "", "trimmed", "", "written", "partly", "" };
	struct slc_plan plan = { .name = "test", .n = 7 };
	struct slc_trace *tr;
	struct slc_input *in;
	struct slc_job_result res;
	size_t failed;
	char err[256], path[] = "/tmp/slcscope-test-engine-XXXXXX";
	(void)state;

	temp_file(path);
	for (size_t i = 0; i < plan.n; i++) {
		struct slc_step *st = &plan.step[i];
		snprintf(st->name, sizeof(st->name), "step%zu", i);
		st->kind = SLC_STEP_JOB;
		st->role = SLC_ROLE_SWEEP;
		st->role_arg = 1;
		st->job = (struct slc_job){ .kind = SLC_JOB_RAND_READ, .block_bytes = 4096, .queue_depth = 4,
					    .interval_ns = 1000000000ull };
		st->bytes.bytes = 1 << 20;
		st->range.bytes = 64u << 20;
	}
	/* reads of what nobody said; a TRIM; reads of trimmed space; 64 MiB
	 * written; reads of it; reads of twice that; a mix writes */
	plan.step[1].kind = SLC_STEP_TRIM;
	plan.step[1].role = SLC_ROLE_TRIM;
	plan.step[1].bytes.bytes = 0;               /* all of it */
	plan.step[3].job = (struct slc_job){ .kind = SLC_JOB_SEQ_WRITE, .block_bytes = 131072, .queue_depth = 4 };
	plan.step[3].bytes.bytes = 64u << 20;
	plan.step[3].role = SLC_ROLE_SWEEP_PREP;
	plan.step[5].range.bytes = 128u << 20;
	plan.step[6].job.kind = SLC_JOB_RAND_MIXED;
	plan.step[6].job.read_pct = 0;
	assert_int_equal(slc_trace_create(&tr, path, &meta, err, sizeof(err)), 0);
	if (slc_plan_run(&plan, &t, tr, NULL, NULL, &res, &failed, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(slc_trace_close(tr), 0);
	assert_int_equal(slc_input_load(&in, path, err, sizeof(err)), 0);
	assert_int_equal(in->n_segments, plan.n);
	for (size_t i = 0; i < plan.n; i++)
		if (strcmp(in->segments[i].params.read_state, want[i]))
			fail_msg("step %zu: reads '%s', not '%s'", i, in->segments[i].params.read_state, want[i]);
	assert_int_equal(in->segments[0].params.read_pct, 100);
	assert_int_equal(in->segments[3].params.read_pct, 0);
	/* a read segment has the reads' columns, every I/O a read */
	assert_true(in->segments[4].read_bytes_total[in->segments[4].n_samples - 1] == 1 << 20);
	assert_true(in->segments[3].read_bytes_total[in->segments[3].n_samples - 1] == 0);
	slc_input_free(in);
	unlink(path);
}

/* Sequential jobs write their own slices: 4 jobs over 64 MiB, 16 MiB each,
 * so 16 MiB of I/O puts 4 MiB at the start of every slice. */
static void test_engine_seq_jobs(void **state)
{
	struct failing f = { .fail_at = UINT64_MAX, .slice_bytes = 16u << 20 };
	struct slc_target t = failing_target(&f, "rec", 64u << 20);
	struct slc_job_result res;
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .block_bytes = 131072, .queue_depth = 8, .jobs = 4,
			       .max_bytes = 16u << 20 };
	char err[256];
	(void)state;

	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.bytes == 16u << 20);
	for (int k = 0; k < 4; k++)
		if (f.written[k] != 4u << 20)
			fail_msg("slice %d got %llu bytes", k, (unsigned long long)f.written[k]);
	job.jobs = 64;
	assert_int_equal(slc_engine_run(&t, &job, NULL, NULL, &res, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "commands in flight"));
}

/* What the sampler handed on: every sample, and when each was handed. */
struct seen {
	struct slc_sample s[64];
	size_t n;
	int done_at;                 /* return SLC_ENGINE_DONE at this sample (1-based), 0: never */
};

static int keep(void *arg, const struct slc_sample *smp)
{
	struct seen *v = arg;

	if (v->n < 64)
		v->s[v->n] = *smp;
	v->n++;
	return v->done_at && (int)v->n == v->done_at ? SLC_ENGINE_DONE : 0;
}

/* Reads and writes counted apart, through a merged last sample too. */
static void test_sampler_reads_apart(void **state)
{
	static const uint64_t ms = 1000000, iv = 10 * ms;
	struct slc_sampler smp;
	struct seen v;
	(void)state;

	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 0, iv);
	/* each ms a 4 KiB read of 100 us and, every other ms, an 8 KiB write of 300 us */
	for (uint64_t k = 1; k <= 20; k++) {
		slc_sampler_add_rw(&smp, k * ms, 4096, 100000, 1, keep, &v);
		if (k % 2 == 0)
			slc_sampler_add_rw(&smp, k * ms, 8192, 300000, 0, keep, &v);
	}
	slc_sampler_add_rw(&smp, 20 * ms + ms / 2, 4096, 100000, 1, keep, &v);
	assert_int_equal(slc_sampler_finish(&smp, 20 * ms + ms / 2, keep, &v), 0);
	assert_int_equal(v.n, 2);
	assert_true(v.s[0].ios == 15 && v.s[0].read_ios == 10);
	assert_true(v.s[0].read_bytes_total == 10 * 4096 && v.s[0].bytes_total == 10 * 4096 + 5 * 8192);
	assert_true(fabs(v.s[0].read_lat_mean_us - 100.0) < 1e-9 && fabs(v.s[0].write_lat_mean_us - 300.0) < 1e-9);
	assert_true(fabs(v.s[0].read_lat_p99_us - 100.0) / 100.0 < 0.016);
	assert_true(fabs(v.s[0].write_lat_p50_us - 300.0) / 300.0 < 0.016);
	assert_true(v.s[0].lat_p99_us > 250);             /* all I/O: the writes' tail */
	/* the last 0.5 ms merged into the second sample: its read counted there */
	assert_true(v.s[1].ios == 16 && v.s[1].read_ios == 11);
	assert_true(v.s[1].read_bytes_total == 21 * 4096);
	assert_true(v.s[1].bytes_total - v.s[1].read_bytes_total == 10 * 8192);

	/* writes alone: no read latency, and slc_sampler_add() counts writes */
	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 0, iv);
	for (uint64_t k = 1; k <= 10; k++)
		slc_sampler_add(&smp, k * ms, 4096, 50000, keep, &v);
	slc_sampler_finish(&smp, 10 * ms, keep, &v);
	assert_int_equal(v.n, 1);
	assert_true(v.s[0].read_ios == 0 && v.s[0].read_bytes_total == 0 && isnan(v.s[0].read_lat_p99_us));
	assert_true(fabs(v.s[0].write_lat_mean_us - 50.0) < 1e-9);
}

/* A TRIM through slc_target_discard_stoppable(): done in a child process,
 * which a stop set before it never starts; the file keeps its data then. */
static void test_discard_stoppable(void **state)
{
	enum { SIZE = 8 << 20 };
	struct slc_target_opts o = { .file_size_bytes = SIZE };
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .queue_depth = 8, .max_bytes = SIZE, .seed = 3 };
	struct slc_job_result res;
	struct slc_target *t;
	volatile int stop = 1;
	char err[256], path[64];
	struct stat st;
	int rc;
	(void)state;

	t = open_test_file("trim", &o, path, sizeof(path));
	assert_int_equal(slc_engine_run(t, &job, NULL, NULL, &res, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= SIZE);
	assert_int_equal(slc_target_discard_stoppable(t, 0, SIZE, &stop), -ECANCELED);
	assert_int_equal(stat(path, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= SIZE);
	stop = 0;
	rc = slc_target_discard_stoppable(t, 0, SIZE, &stop);
	if (rc != -EOPNOTSUPP) {            /* a filesystem without hole punching */
		assert_int_equal(rc, 0);
		assert_int_equal(stat(path, &st), 0);
		assert_true((uint64_t)st.st_blocks * 512 < SIZE / 2);
	}
	slc_target_close(t);
	unlink(path);
}

/* A host pause: no sample covers it, nothing of it counts as an interval
 * without I/O, the bytes carry on, and the samples after it start at its end. */
static void test_sampler_pause(void **state)
{
	static const uint64_t ms = 1000000, iv = 10 * ms;
	struct slc_sampler smp;
	struct seen v;
	(void)state;

	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 0, iv);
	for (uint64_t k = 1; k <= 25; k++)        /* 25 ms of 4 KiB every ms */
		slc_sampler_add(&smp, k * ms, 4096, 100000, keep, &v);
	/* stopped from 25.5 ms to 525.5 ms: 50 intervals' worth */
	assert_int_equal(slc_sampler_pause(&smp, 25 * ms + ms / 2, 525 * ms + ms / 2, keep, &v), 0);
	for (uint64_t k = 1; k <= 20; k++)
		slc_sampler_add(&smp, 525 * ms + ms / 2 + k * ms, 4096, 100000, keep, &v);
	slc_sampler_finish(&smp, 545 * ms + ms / 2, keep, &v);
	/* 0-10, 10-20, 20-25.5 before; 525.5-535.5, 535.5-545.5 after */
	assert_int_equal(v.n, 5);
	for (size_t i = 0; i < v.n; i++)
		assert_true(v.s[i].ios > 0);
	assert_true(fabs(v.s[2].t_s - 0.0255) < 1e-9 && fabs(v.s[2].interval_s - 0.0055) < 1e-9);
	assert_true(fabs(v.s[3].t_s - 0.5355) < 1e-9 && fabs(v.s[3].interval_s - 0.010) < 1e-9);
	assert_true(v.s[2].bytes_total == 25 * 4096 && v.s[4].bytes_total == 45 * 4096);
	assert_true(v.s[3].ios == 10 && v.s[4].ios == 10);
}

/* Host pauses: nothing without a stop or a suspend; a SIGCONT is seen once. */
static void test_host_watch(void **state)
{
	struct slc_host_watch w;
	uint64_t susp = 1;
	(void)state;

	assert_int_equal(slc_host_watch_install(), 0);
	slc_host_watch_init(&w);
	assert_int_equal(slc_host_watch_check(&w, &susp), 0);
	assert_true(susp == 0);
	raise(SIGCONT);
	assert_int_equal(slc_host_watch_check(&w, &susp) & SLC_HOST_CONTINUED, SLC_HOST_CONTINUED);
	assert_int_equal(slc_host_watch_check(&w, &susp) & SLC_HOST_CONTINUED, 0);
	signal(SIGCONT, SIG_DFL);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A stop's span: none without a SIGCONT or under 1 ms; with one, from the
 * last check to no earlier than the clock after it, whatever @now said. */
static void test_host_stop(void **state)
{
	uint64_t t = mono_ns(), end = 0;
	(void)state;

	assert_true(slc__host_stop(0, t - 5000000000ull, t, &end) == 0 && end == t);
	assert_true(slc__host_stop(SLC_HOST_SUSPENDED, t - 5000000000ull, t, &end) == 0 && end == t);
	/* a SIGCONT 0.5 ms after the last check: no pause worth a record; 1 ms
	 * is one (@now ahead of the clock, so the clock cannot move it) */
	assert_true(slc__host_stop(SLC_HOST_CONTINUED, t + 10000000000ull, t + 10000500000ull, &end) == 0);
	assert_true(end == t + 10000500000ull);
	assert_true(slc__host_stop(SLC_HOST_CONTINUED, t + 10000000000ull, t + 10001000000ull, &end) == 1000000);
	/* @now read before the stop ended (0 here): the end is the clock's */
	assert_true(slc__host_stop(SLC_HOST_CONTINUED, t - 2000000000ull, 0, &end) >= 2000000000ull);
	assert_true(end >= t && end <= mono_ns());
	/* @now later than the clock (a clock read after the check's): kept */
	assert_true(slc__host_stop(SLC_HOST_CONTINUED, t, t + 3000000000ull, &end) == 3000000000ull);
	assert_true(end == t + 3000000000ull);
}

/* Mixed jobs read the share asked for; read jobs only read. */
static void test_engine_mixed(void **state)
{
	static const struct { enum slc_job_kind kind; uint32_t pct; double want; } cases[] = {
		{ SLC_JOB_RAND_MIXED, 30, 0.30 }, { SLC_JOB_SEQ_MIXED, 70, 0.70 }, { SLC_JOB_SEQ_READ, 0, 1.0 },
		{ SLC_JOB_RAND_MIXED, 0, 0.0 }, { SLC_JOB_SEQ_MIXED, 100, 1.0 },
	};
	struct slc_target *t;
	struct slc_target_opts o = { 0 };
	(void)state;

	assert_int_equal(slc_target_open(&t, "null:1GiB", &o, NULL, 0), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct slc_job job = { .kind = cases[i].kind, .read_pct = cases[i].pct, .block_bytes = 4096,
				       .queue_depth = 8, .jobs = 2, .max_bytes = 40000 * 4096ull, .seed = 3 + i,
				       .interval_ns = 3600000000000ull, .align_bytes = 4096 };
		struct slc_engine_cb cb = { 0 };
		struct slc_job_result res;
		struct seen v;
		uint64_t ios = 0, reads = 0;
		char err[256];

		memset(&v, 0, sizeof(v));
		cb.sample = keep;
		cb.arg = &v;
		assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
		assert_true(v.n >= 1 && v.n <= 64);
		for (size_t k = 0; k < v.n; k++) {
			ios += v.s[k].ios;
			reads += v.s[k].read_ios;
		}
		assert_true(ios == 40000 && res.ios == 40000);
		assert_true(v.s[v.n - 1].read_bytes_total == reads * 4096);
		if (fabs((double)reads / (double)ios - cases[i].want) > 0.02)
			fail_msg("case %zu: %llu of %llu commands read, not %.0f%%", i, (unsigned long long)reads,
				 (unsigned long long)ios, cases[i].want * 100);
	}
	slc_target_close(t);
}

/* The sweep plans: their points, a TRIM and a new preparation before each
 * group after one that wrote, 4 KiB-aligned random offsets, the step time. */
static void test_sweep_plans(void **state)
{
	static const struct { const char *name; size_t steps, points, trims; } want[] = {
		{ "qd-sweep", 14, 12, 1 }, { "bs-sweep", 50, 46, 2 }, { "mixed", 16, 12, 2 },
		{ "basic", 8, 6, 1 }, { "short", 9, 8, 0 },
	};
	struct slc_plan_opts o;
	struct slc_plan p;
	char err[256];
	(void)state;

	slc_plan_opts_default(&o);
	o.step_ns = 2000000000ull;
	o.sweep_state = SLC_SWEEP_STATE_NONE;       /* the builders' plans, as they are */
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		size_t points = 0, trims = 0;
		assert_int_equal(slc_plan_build(&p, want[k].name, &o, err, sizeof(err)), 0);
		assert_int_equal(p.n, want[k].steps);
		assert_int_equal(slc_plan_validate(&p, 4ull << 30, 512, err, sizeof(err)), 0);
		for (size_t i = 0; i < p.n; i++) {
			const struct slc_step *st = &p.step[i];
			assert_int_not_equal(st->role, SLC_ROLE_UNKNOWN);
			assert_true(strlen(st->name) < sizeof(st->name) - 1);   /* never cut short */
			for (size_t j = 0; j < i; j++)
				if (!strcmp(p.step[j].name, st->name) && st->kind != SLC_STEP_TRIM)
					fail_msg("%s: two steps named %s", want[k].name, st->name);
			if (st->kind == SLC_STEP_TRIM) {
				trims++;
				/* the test region is written again after every TRIM */
				assert_true(i + 1 < p.n && p.step[i + 1].role == SLC_ROLE_SWEEP_PREP);
			}
			if (st->role != SLC_ROLE_SWEEP)
				continue;
			points++;
			assert_true(st->job.max_ns == o.step_ns && st->range.bytes == 1ull << 30);
			assert_int_equal(st->job.align_bytes, slc_job_kind_sequential(st->job.kind) ? 0 : 4096);
			assert_true(st->role_arg >= 1 && st->job.read_pct <= 100);
		}
		assert_int_equal(points, want[k].points);
		assert_int_equal(trims, want[k].trims);
	}
	/* a region larger than the target is refused before anything runs */
	o.region.bytes = 8ull << 30;
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_validate(&p, 4ull << 30, 512, err, sizeof(err)), -EINVAL);
	o.region.bytes = 1ull << 30;
	o.step_ns = 0;
	assert_int_equal(slc_plan_build(&p, "basic", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--step-time"));
}

/* Each sweep point of @p comes after the state steps @state asks for. */
static void check_point_state(const struct slc_plan *p, const struct slc_plan_opts *o, size_t points)
{
	size_t seen = 0, settle = o->settle_ns == SLC_PLAN_SETTLE_TRIM_WAIT ? o->trim_wait_ns : o->settle_ns;
	size_t per = o->sweep_state == SLC_SWEEP_STATE_TRIM ? (settle ? 4 : 3) : 1;

	assert_int_equal(p->n, points * per + (o->sweep_state == SLC_SWEEP_STATE_STEADY ? 2 : 0));
	if (o->sweep_state == SLC_SWEEP_STATE_STEADY) {
		/* once: a TRIM, then the whole target written sequentially twice */
		assert_true(p->step[0].kind == SLC_STEP_TRIM && p->step[0].role == SLC_ROLE_TRIM);
		assert_true(p->step[1].kind == SLC_STEP_JOB && p->step[1].role == SLC_ROLE_PRECONDITION);
		assert_true(p->step[1].job.kind == SLC_JOB_SEQ_WRITE && p->step[1].bytes.capacity_multiple == 2.0);
		assert_true(p->step[1].range.bytes == 0 && p->step[1].range.capacity_multiple == 0);
		assert_string_equal(p->step[1].name, "precondition");
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *st = &p->step[i];
		int writes = slc_job_kind_read_pct(st->job.kind, st->job.read_pct) < 100;
		assert_true(strlen(st->name) < sizeof(st->name) - 1);   /* never cut short */
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->step[j].name, st->name))
				fail_msg("%s: two steps named %s", p->name, st->name);
		if (o->sweep_state == SLC_SWEEP_STATE_STEADY) {
			assert_false(st->point_state);
			assert_true(i < 2 || st->role == SLC_ROLE_SWEEP);
		}
		if (st->role != SLC_ROLE_SWEEP)
			continue;
		seen++;
		/* a write point ends after 1 GiB or its time; a read at its time */
		assert_true(st->bytes.bytes == (writes ? o->point_bytes.bytes : 0));
		if (o->sweep_state != SLC_SWEEP_STATE_TRIM)
			continue;
		/* TRIM (with its wait), the region written, the settle: the point's own */
		assert_true(i + 1 >= per);
		st -= per - 1;
		assert_true(st[0].kind == SLC_STEP_TRIM && st[0].role == SLC_ROLE_TRIM && st[0].point_state);
		assert_true(st[0].wait_ns == o->trim_wait_ns && st[0].bytes.bytes == 0);
		assert_true(st[1].kind == SLC_STEP_JOB && st[1].role == SLC_ROLE_SWEEP_PREP && st[1].point_state);
		assert_true(st[1].job.kind == SLC_JOB_SEQ_WRITE && st[1].bytes.bytes == o->region.bytes);
		assert_true(st[1].range.bytes == o->region.bytes);
		if (per == 4) {
			assert_true(st[2].kind == SLC_STEP_IDLE && st[2].role == SLC_ROLE_SETTLE && st[2].point_state);
			assert_true(st[2].wait_ns == settle && st[2].role_arg == 0);
		}
		assert_false(st[per - 1].point_state);
	}
	assert_int_equal(seen, points);
}

/* The state every sweep point starts from: TRIM, region, settle before each;
 * steady state once; or the builders' plan.  --points and the block fit
 * take a point's state steps with it. */
static void test_sweep_point_state(void **state)
{
	static const struct { const char *name; size_t steps, points; } plans[] = {
		{ "qd-sweep", 14, 12 }, { "bs-sweep", 50, 46 }, { "mixed", 16, 12 }, { "basic", 8, 6 }, { "short", 9, 8 },
	};
	struct slc_plan_opts o;
	struct slc_plan p, lab;
	char err[256], note[256];
	(void)state;

	slc_plan_opts_default(&o);
	assert_int_equal(o.sweep_state, SLC_SWEEP_STATE_TRIM);
	for (size_t k = 0; k < sizeof(plans) / sizeof(plans[0]); k++)
		for (int st = SLC_SWEEP_STATE_TRIM; st <= SLC_SWEEP_STATE_NONE; st++)
			for (int zero = 0; zero < 2; zero++) {
				o.sweep_state = (enum slc_sweep_state)st;
				o.trim_wait_ns = zero ? 0 : 30000000000ull;
				assert_int_equal(slc_plan_build(&p, plans[k].name, &o, err, sizeof(err)), 0);
				assert_int_equal(slc_plan_validate(&p, 4ull << 30, 512, err, sizeof(err)), 0);
				if (st == SLC_SWEEP_STATE_NONE)
					assert_int_equal(p.n, plans[k].steps);
				else
					check_point_state(&p, &o, plans[k].points);
			}
	/* an explicit settle, not the TRIM wait */
	slc_plan_opts_default(&o);
	o.settle_ns = 900000000000ull;
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), 0);
	check_point_state(&p, &o, 12);
	assert_true(p.step[2].wait_ns == 900000000000ull);
	/* a plan without points is left alone */
	assert_int_equal(slc_plan_build(&p, "lab", &o, err, sizeof(err)), 0);
	o.sweep_state = SLC_SWEEP_STATE_NONE;
	assert_int_equal(slc_plan_build(&lab, "lab", &o, err, sizeof(err)), 0);
	assert_int_equal(p.n, lab.n);
	assert_memory_equal(p.step, lab.step, p.n * sizeof(p.step[0]));
	/* --points keeps the points named, each with its own state */
	slc_plan_opts_default(&o);
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_keep_points(&p, "rand_write_4k_qd4,rand_read_4k_qd1", err, sizeof(err)), 0);
	check_point_state(&p, &o, 2);
	assert_string_equal(p.step[0].name, "trim_rand_read_4k_qd1");
	assert_string_equal(p.step[7].name, "rand_write_4k_qd4");
	/* ... and so does the block fit: 3 sizes under 4 KiB in each of 4 groups */
	assert_int_equal(slc_plan_build(&p, "bs-sweep", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_fit_block(&p, 4096, note, sizeof(note)), 12);
	check_point_state(&p, &o, 34);
	/* steady state keeps its preconditioning whatever the points */
	o.sweep_state = SLC_SWEEP_STATE_STEADY;
	assert_int_equal(slc_plan_build(&p, "bs-sweep", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_plan_keep_points(&p, "seq_write_1m", err, sizeof(err)), 0);
	check_point_state(&p, &o, 1);
	/* refused: no preconditioning, an unknown state, a settle of years */
	o.steady_bytes = (struct slc_size){ 0, 0 };
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--precondition"));
	o.sweep_state = (enum slc_sweep_state)7;
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sweep-state"));
	slc_plan_opts_default(&o);
	o.settle_ns = 8 * 86400000000000ull;
	assert_int_equal(slc_plan_build(&p, "qd-sweep", &o, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "--settle"));
}

/* What each sweep point of @plan did on a simulated drive. */
struct point_rates {
	const char *kind;             /* "rand_write_4k_qd", "seq_write_" */
	double rate[16];              /* IOPS or bytes/s, in plan order */
	size_t n;
	int iops;
};

static void on_point_end(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *r)
{
	struct point_rates *pr = arg;

	if (p->step[i].role != SLC_ROLE_SWEEP || strncmp(p->step[i].name, pr->kind, strlen(pr->kind)) ||
	    pr->n >= sizeof(pr->rate) / sizeof(pr->rate[0]) || !r->elapsed_ns)
		return;
	pr->rate[pr->n++] = (double)(pr->iops ? r->ios : r->bytes) / ((double)r->elapsed_ns * 1e-9);
}

/* Whether every rate is at least the one before it, less @tol (a share):
 * at the drive's limit the averages differ by its noise only. */
static int rising(const struct point_rates *pr, double tol)
{
	for (size_t i = 1; i < pr->n; i++)
		if (pr->rate[i] < pr->rate[i - 1] * (1 - tol))
			return 0;
	return 1;
}

static void sweep_rates(const char *plan, enum slc_sweep_state st, struct point_rates *pr)
{
	struct slc_target_opts to = { 0 };
	struct slc_target *t;
	struct slc_plan_opts o;
	struct slc_plan p;
	struct slc_job_result res;
	struct slc_plan_hooks h = { .step_end = on_point_end, .arg = pr };
	size_t failed;
	char err[256];

	slc_plan_opts_default(&o);
	o.sweep_state = st;
	o.step_ns = 5000000000ull;
	/* a small drive: its 256 MiB cache holds a point's 192 MiB */
	o.region.bytes = o.point_bytes.bytes = 192ull << 20;
	assert_int_equal(slc_plan_build(&p, plan, &o, err, sizeof(err)), 0);
	assert_int_equal(slc_target_open(&t, "sim:tiny-tlc", &to, err, sizeof(err)), 0);
	if (slc_plan_run(&p, t, NULL, &h, NULL, &res, &failed, err, sizeof(err)))
		fail_msg("%s: step %zu: %s", plan, failed, err);
	slc_target_close(t);
}

/* From a clean drive each time, a deeper queue or a larger block writes no
 * slower; back to back, the cache runs out halfway and they do. */
static void test_sweep_state_rising(void **state)
{
	struct point_rates qd = { "rand_write_4k_qd", { 0 }, 0, 1 }, bs = { "seq_write_", { 0 }, 0, 0 };
	struct point_rates qd0 = qd, bs0 = bs;
	(void)state;

	sweep_rates("qd-sweep", SLC_SWEEP_STATE_TRIM, &qd);
	sweep_rates("bs-sweep", SLC_SWEEP_STATE_TRIM, &bs);
	assert_int_equal(qd.n, 6);
	assert_int_equal(bs.n, 13);
	for (size_t i = 0; i < bs.n; i++)
		if (i >= qd.n ? !rising(&bs, 0.01) && i >= 1 : !rising(&qd, 0.01) || !rising(&bs, 0.01))
			print_message("point %zu: %.0f IOPS, %.4g B/s\n", i, i < qd.n ? qd.rate[i] : 0, bs.rate[i]);
	assert_true(rising(&qd, 0.01) && rising(&bs, 0.01));
	/* the check can fail: the same sweeps back to back */
	sweep_rates("qd-sweep", SLC_SWEEP_STATE_NONE, &qd0);
	sweep_rates("bs-sweep", SLC_SWEEP_STATE_NONE, &bs0);
	assert_false(rising(&qd0, 0.01) && rising(&bs0, 0.01));
}

/* No sample under a tenth of @interval_s, except a run's only one; the times
 * add up; none ends where the one before it ended. */
static void check_no_short_sample(const struct seen *v, double interval_s)
{
	double t = 0;

	assert_true(v->n >= 1 && v->n <= 64);
	for (size_t i = 0; i < v->n; i++) {
		if (v->n > 1 && v->s[i].interval_s < interval_s / 10)
			fail_msg("sample %zu of %zu lasts %g s (interval %g s)", i, v->n, v->s[i].interval_s, interval_s);
		if (v->s[i].t_s <= t || fabs(v->s[i].t_s - t - v->s[i].interval_s) > 1e-9)
			fail_msg("sample %zu: ends at %g s after %g s, lasting %g s", i, v->s[i].t_s, t, v->s[i].interval_s);
		t = v->s[i].t_s;
	}
}

/*
 * A run ending just after an interval's end has no sub-millisecond last
 * sample: that bit is merged into the sample before (bytes, I/Os, worst
 * latency, time); ending later, it is a sample of its own, and so is
 * the bit after a run's first sample.  A finished
 * interval is handed on once the next has lasted a tenth of an interval.
 */
static void test_sampler_short_last_merged(void **state)
{
	static const uint64_t ms = 1000000, iv = 10 * ms;
	struct slc_sampler smp;
	struct seen v;
	(void)state;

	/* an I/O of 4096 bytes each millisecond, 50 us latency; the last one
	 * 0.5 ms after the third interval's end, 900 us latency */
	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 5 * ms, iv);
	for (uint64_t k = 1; k <= 30; k++)
		assert_int_equal(slc_sampler_add(&smp, 5 * ms + k * ms, 4096, 50000, keep, &v), 0);
	assert_int_equal(v.n, 2);                      /* the third is held */
	assert_int_equal(slc_sampler_add(&smp, 5 * ms + 30 * ms + ms / 2, 4096, 900000, keep, &v), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(slc_sampler_finish(&smp, 5 * ms + 30 * ms + ms / 2, keep, &v), 0);
	assert_int_equal(v.n, 3);
	check_no_short_sample(&v, 0.01);
	assert_true(fabs(v.s[2].t_s - 0.0305) < 1e-12);
	assert_true(fabs(v.s[2].interval_s - 0.0105) < 1e-12);
	assert_true(v.s[2].bytes_total == 31 * 4096);
	assert_true(v.s[2].ios == 11);
	assert_true(v.s[2].lat_max_us == 900.0);
	assert_true(fabs(v.s[2].lat_p50_us - 50.0) / 50.0 < 0.016);

	/* the same, going on: the held third sample is handed on at 31 ms, a
	 * tenth into the fourth interval, and the fourth ends with the run */
	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 0, iv);
	for (uint64_t k = 1; k <= 30; k++)
		slc_sampler_add(&smp, k * ms, 4096, 50000, keep, &v);
	slc_sampler_add(&smp, 30 * ms + ms / 2, 4096, 50000, keep, &v);
	assert_int_equal(v.n, 2);
	slc_sampler_add(&smp, 31 * ms, 4096, 50000, keep, &v);
	assert_int_equal(v.n, 3);
	assert_true(v.s[2].bytes_total == 30 * 4096 && fabs(v.s[2].t_s - 0.03) < 1e-12);
	slc_sampler_finish(&smp, 31 * ms, keep, &v);
	assert_int_equal(v.n, 4);
	check_no_short_sample(&v, 0.01);
	assert_true(v.s[3].bytes_total == 32 * 4096 && v.s[3].ios == 2);

	/* a run of one interval and a bit keeps the bit: merged, the run would
	 * have one sample, and the analysis wants two */
	memset(&v, 0, sizeof(v));
	slc_sampler_init(&smp, 0, iv);
	for (uint64_t k = 1; k <= 10; k++)
		slc_sampler_add(&smp, k * ms, 4096, 50000, keep, &v);
	slc_sampler_add(&smp, 10 * ms + ms / 2, 4096, 50000, keep, &v);
	slc_sampler_finish(&smp, 10 * ms + ms / 2, keep, &v);
	assert_int_equal(v.n, 2);
	assert_true(v.s[1].ios == 1 && v.s[1].bytes_total == 11 * 4096);

	/* a callback that says stop at the second sample: the state moves on,
	 * the I/O is counted, no sample repeats the second one's end */
	memset(&v, 0, sizeof(v));
	v.done_at = 2;
	slc_sampler_init(&smp, 0, iv);
	for (uint64_t k = 1; k <= 35; k++)
		slc_sampler_add(&smp, k * ms, 4096, 50000, keep, &v);
	slc_sampler_finish(&smp, 35 * ms, keep, &v);
	check_no_short_sample(&v, 0.01);
	assert_true(v.s[v.n - 1].bytes_total == 35 * 4096);
}

/* Through the engine: a byte limit whose last command completes 0.3 ms
 * after an interval's end (0.1 ms a command, 10 ms samples); a time limit
 * on the simulated drive, whose drain lands just after the limit; a caller
 * that stops the job (SLC_ENGINE_DONE) mid-interval. */
static void test_engine_no_short_last_sample(void **state)
{
	struct failing f = { .fail_at = UINT64_MAX };
	struct slc_target ft = failing_target(&f, "rec", 1ull << 30);
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE, .block_bytes = 131072, .queue_depth = 8,
			       .max_bytes = 1003ull * 131072, .interval_ns = 10000000ull };
	struct slc_engine_cb cb = { .sample = keep };
	struct slc_job_result res;
	struct slc_target *t;
	struct slc_target_opts o = { .seed = 1 };
	struct seen v;
	char err[256];
	(void)state;

	memset(&v, 0, sizeof(v));
	cb.arg = &v;
	assert_int_equal(slc_engine_run(&ft, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_int_equal(res.elapsed_ns, 100300000ull);
	assert_int_equal(v.n, 10);
	check_no_short_sample(&v, 0.01);
	assert_true(v.s[9].bytes_total == res.bytes && fabs(v.s[9].interval_s - 0.0103) < 1e-9);

	memset(&v, 0, sizeof(v));
	assert_int_equal(slc_target_open(&t, "sim:tiny-tlc", &o, err, sizeof(err)), 0);
	job = (struct slc_job){ .kind = SLC_JOB_SEQ_WRITE, .max_ns = 10000000000ull };
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.elapsed_ns > 10000000000ull);  /* the drain, past the limit */
	assert_int_equal(v.n, 10);
	check_no_short_sample(&v, 1.0);
	assert_true(v.s[9].bytes_total == res.bytes);

	memset(&v, 0, sizeof(v));
	v.done_at = 3;
	job = (struct slc_job){ .kind = SLC_JOB_RAND_WRITE, .max_ns = 10000000000ull };
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	assert_true(res.done_early);
	check_no_short_sample(&v, 1.0);
	assert_true(v.s[v.n - 1].bytes_total == res.bytes);
	slc_target_close(t);
}

/* The writer's CPU: on the null target (no I/O) the loop runs flat out, so
 * each sample has a share of one core, and on or waiting for a core nearly
 * all the time; on the simulated drive's virtual clock it is unknown. */
static void test_engine_writer_cpu(void **state)
{
	struct slc_job job = { .kind = SLC_JOB_RAND_WRITE, .max_ns = 300000000ull, .interval_ns = 50000000ull,
			       .seed = 1 };
	struct slc_engine_cb cb = { .sample = keep };
	struct slc_target_opts o = { .seed = 1 };
	struct slc_job_result res;
	struct slc_target *t;
	struct seen v;
	char err[256];
	size_t busy = 0;
	(void)state;

	memset(&v, 0, sizeof(v));
	cb.arg = &v;
	assert_int_equal(slc_target_open(&t, "null:1GiB", &o, err, sizeof(err)), 0);
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	slc_target_close(t);
	assert_true(v.n >= 5 && v.n <= 64);
	for (size_t i = 0; i < v.n; i++) {
		double c = v.s[i].writer_cpu, w = v.s[i].writer_wait;

		assert_true(c >= 0 && c <= 1.1);
		busy += c + (isfinite(w) ? w : 0) >= 0.8;
	}
	assert_true(busy * 2 > v.n);

	memset(&v, 0, sizeof(v));
	assert_int_equal(slc_target_open(&t, "sim:tiny-tlc", &o, err, sizeof(err)), 0);
	job = (struct slc_job){ .kind = SLC_JOB_SEQ_WRITE, .max_ns = 3000000000ull };
	assert_int_equal(slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)), 0);
	slc_target_close(t);
	assert_true(v.n >= 3);
	for (size_t i = 0; i < v.n; i++)
		assert_true(isnan(v.s[i].writer_cpu) && isnan(v.s[i].writer_wait));
}

/* Files and devices: a regular file is never treated as a block device, and
 * the block-device check refuses a non-device with a reason. */
static void test_blockdev_check_on_file(void **state)
{
	char what[256];
	(void)state;
	assert_int_equal(slc_blockdev_check("/dev/null", what, sizeof(what)), -ENOTBLK);
	assert_int_equal(slc_blockdev_check("/nonexistent/dev", what, sizeof(what)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_incompressible_unique),
		cmocka_unit_test(test_engine_byte_limit),
		cmocka_unit_test(test_engine_time_limit_sim),
		cmocka_unit_test(test_reap_batch),
		cmocka_unit_test(test_poll_shallow),
		cmocka_unit_test(test_engine_seq_jobs),
		cmocka_unit_test(test_engine_stop),
		cmocka_unit_test(test_engine_file_uring),
		cmocka_unit_test(test_engine_file_sectors_unique),
		cmocka_unit_test(test_engine_bad_jobs),
		cmocka_unit_test(test_latency_percentiles),
		cmocka_unit_test(test_sampler_short_last_merged),
		cmocka_unit_test(test_sampler_reads_apart),
		cmocka_unit_test(test_sampler_pause),
		cmocka_unit_test(test_discard_stoppable),
		cmocka_unit_test(test_host_watch),
		cmocka_unit_test(test_host_stop),
		cmocka_unit_test(test_engine_mixed),
		cmocka_unit_test(test_sweep_plans),
		cmocka_unit_test(test_engine_alignment),
		cmocka_unit_test(test_engine_hints),
		cmocka_unit_test(test_plan_read_state),
		cmocka_unit_test(test_sweep_point_state),
		cmocka_unit_test(test_sweep_state_rising),
		cmocka_unit_test(test_engine_no_short_last_sample),
		cmocka_unit_test(test_engine_writer_cpu),
		cmocka_unit_test(test_blockdev_check_on_file),
		cmocka_unit_test(test_device_error_keeps_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
