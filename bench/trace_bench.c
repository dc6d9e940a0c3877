// SPDX-License-Identifier: MIT
/*
 * Trace store benchmark: samples written per second, compressed bytes per
 * sample, read-back speed, and the time one flush takes (the window in which
 * a killed writer can damage its file).
 *
 * Usage: trace_bench [N_SAMPLES [PATH]]   (default 1000000, /tmp/slc_trace_bench.h5)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/trace.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Deterministic noise in [0, 1). */
static double noise(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*state >> 11) / 9007199254740992.0;
}

/* A plausible 1 s sample of a 4 KiB random-write curve: ~300 MB/s +-30 %. */
static struct slc_sample make_sample(uint64_t i, uint64_t *bytes, uint64_t *rng)
{
	double bw = 300e6 * (0.7 + 0.6 * noise(rng));
	struct slc_sample s;

	*bytes += (uint64_t)bw / 4096 * 4096;
	s.t_s = (double)(i + 1);
	s.interval_s = 1.0;
	s.bytes_total = *bytes;
	s.ios = (uint64_t)bw / 4096;
	s.lat_p50_us = 300 + 100 * noise(rng);
	s.lat_p99_us = 900 + 400 * noise(rng);
	s.lat_p999_us = 2000 + 2000 * noise(rng);
	s.lat_max_us = 5000 + 20000 * noise(rng);
	s.temp_c = 40 + floor((double)i / 600.0) * 0.5;
	return s;
}

static const struct slc_trace_meta meta = { .command_line = "trace_bench", .target = "bench",
					    .capacity_bytes = 240057409536ull, .logical_block_bytes = 512 };
static const struct slc_segment_params params = {
	.step = "rand_curve", .workload = "rand_write", .block_bytes = 4096, .queue_depth = 32, .jobs = 1,
	.range_bytes = 240057409536ull, .seed = 1, .data_pattern = "random", .interval_s = 1.0,
	.clock = "monotonic", .reap_batch = 4,
};

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000, bytes = 0, rng = 1;
	const char *path = argc > 2 ? argv[2] : "/tmp/slc_trace_bench.h5";
	struct slc_trace *t;
	struct slc_input *in;
	struct stat st;
	char err[256];
	double t0, write_s, read_s, flush_ms, flush_max_ms = 0, flush_size;
	const int flushes = 3600;   /* 2 h at one sample a second */

	/* 1. Streaming: n samples, automatic flushing every 2 s. */
	t0 = now_s();
	if (slc_trace_create(&t, path, &meta, err, sizeof(err)) || slc_trace_segment_begin(t, &params)) {
		fprintf(stderr, "trace_bench: %s\n", err);
		return 1;
	}
	for (uint64_t i = 0; i < n; i++) {
		struct slc_sample s = make_sample(i, &bytes, &rng);

		if (slc_trace_append(t, &s)) {
			fprintf(stderr, "trace_bench: %s\n", slc_trace_errmsg(t));
			return 1;
		}
	}
	if (slc_trace_close(t)) {
		fprintf(stderr, "trace_bench: close failed\n");
		return 1;
	}
	write_s = now_s() - t0;
	stat(path, &st);

	/* 2. Reading it all back. */
	t0 = now_s();
	if (slc_input_load(&in, path, err, sizeof(err))) {
		fprintf(stderr, "trace_bench: %s\n", err);
		return 1;
	}
	read_s = now_s() - t0;
	slc_input_free(in);

	/* 3. A real run's pattern: one sample a second, a flush every 2 samples. */
	bytes = 0;
	if (slc_trace_create(&t, path, &meta, err, sizeof(err)) || slc_trace_segment_begin(t, &params) ||
	    slc_trace_set_flush_interval(t, 1e9)) {
		fprintf(stderr, "trace_bench: %s\n", err);
		return 1;
	}
	flush_ms = 0;
	for (int f = 0; f < flushes; f++) {
		double f0;

		for (int k = 0; k < 2; k++) {
			struct slc_sample s = make_sample((uint64_t)(2 * f + k), &bytes, &rng);

			slc_trace_append(t, &s);
		}
		f0 = now_s();
		if (slc_trace_flush(t)) {
			fprintf(stderr, "trace_bench: %s\n", slc_trace_errmsg(t));
			return 1;
		}
		f0 = (now_s() - f0) * 1e3;
		flush_ms += f0;
		flush_max_ms = fmax(flush_max_ms, f0);
	}
	slc_trace_close(t);
	{
		struct stat st2;

		stat(path, &st2);
		flush_size = (double)st2.st_size / (2.0 * flushes);
	}
	unlink(path);

	printf("samples                 %llu (9 columns, 72 bytes raw each)\n", (unsigned long long)n);
	printf("write                   %.0f samples/s (%.2f s, flushing every 2 s)\n", (double)n / write_s, write_s);
	printf("file size               %lld bytes = %.1f bytes/sample (%.1fx smaller than raw)\n",
	       (long long)st.st_size, (double)st.st_size / (double)n, 72.0 * (double)n / (double)st.st_size);
	printf("read back               %.0f samples/s (%.3f s)\n", (double)n / read_s, read_s);
	printf("flush of 2 samples      %.2f ms mean, %.2f ms max (incl. fsync), %d flushes\n", flush_ms / flushes,
	       flush_max_ms, flushes);
	printf("file, flush every 2     %.0f bytes/sample (superseded partial chunks are not reclaimed)\n",
	       flush_size);
	return 0;
}
