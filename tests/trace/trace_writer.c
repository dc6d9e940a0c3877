// SPDX-License-Identifier: MIT
/*
 * Test helper: writes traces the Python tests check.
 *
 *   trace_writer PATH fixed
 *       a small deterministic trace (two segments, events, unknown values,
 *       an analysis result) for the h5py test
 *   trace_writer PATH loop FLUSH_EVERY FLUSH_S
 *       appends sample i (t_s = i + 1, bytes_total = (i + 1) * 4096, ...)
 *       every millisecond until killed; with FLUSH_EVERY > 0 it calls
 *       slc_trace_flush() every FLUSH_EVERY samples and prints "flushed N"
 *       after each; FLUSH_S sets the automatic flush interval (default 2).
 *       Prints "appended N T" (T: CLOCK_MONOTONIC seconds) every 100 samples.
 *   trace_writer PATH small N
 *       a small trace for the fuzz corpus (testdata/fuzz/trace): a segment
 *       of N samples (0: no sample chunks at all, a few KB) with an event
 *       and a snapshot, and an analysis result
 *   trace_writer PATH hostile
 *       a write curve (a cache at 1 GB/s, then 200 MB/s) whose model,
 *       target, command line, step and data pattern are full of Markdown
 *       and HTML markup, for the report's escaping test
 *   trace_writer PATH csvtext
 *       the same curve with a step name and a plan holding a comma, a quote
 *       and a line break, latencies unknown in every 7th sample and the
 *       temperature read in every other, for the tidy export's test
 *   trace_writer PATH bursts N
 *       a random write curve (a cache at 1 GB/s for 30 s, then 100 MB/s)
 *       and N recovery bursts after it (cache of 10-16 s each), for the
 *       consistency test's many-curve case
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slcscope/trace.h"

static const struct slc_trace_meta meta = {
	.command_line = "trace_writer",
	.target = "sim:sata240-tlc",
	.device_model = "SIM SATA 240 TLC",
	.device_serial = "SIM0001",
	.device_firmware = "1.0",
	.capacity_bytes = 240057409536ull,
	.logical_block_bytes = 512,
};

static struct slc_sample loop_sample(uint64_t i)
{
	struct slc_sample s = {
		.t_s = (double)(i + 1),
		.interval_s = 1.0,
		.bytes_total = (i + 1) * 4096,
		.ios = i,
		.lat_p50_us = (double)i * 0.5,
		.lat_p99_us = (double)i,
		.lat_p999_us = (double)i * 2,
		.lat_max_us = (double)i * 4,
		.temp_c = i % 3 ? 40.0 + (double)(i % 10) : NAN,
	};
	return s;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fixed(const char *path)
{
	static const struct slc_segment_params p[2] = {
		{ "seq_fill", "seq_write", 131072, 32, 1, 0, 240057409536ull, 0, 7, "random", 1.0, "virtual", 1,
		  SLC_ROLE_FILL, 0, 0, "", 0, "" },
		{ "idle_recovery", "rand_write", 4096, 32, 4, 4096, 1073741824ull, 900.5, 8, "compressible:2.0", 0.5,
		  "monotonic", 16, SLC_ROLE_IDLE_BURST, 0, 0, "", 20, "irq" },
	};
	struct slc_trace *t;
	char err[256];
	int rc;

	rc = slc_trace_create(&t, path, &meta, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "trace_writer: %s\n", err);
		return 1;
	}
	for (int g = 0; g < 2 && !rc; g++) {
		rc = slc_trace_segment_begin(t, &p[g]);
		if (!rc)
			rc = slc_trace_snapshot(t, "smart", 0.0, "{\"temperature_c\": 41, \"data_units_written\": 12}");
		for (uint64_t i = 0; i < (g ? 5u : 10000u) && !rc; i++) {
			struct slc_sample s = loop_sample(i);

			rc = slc_trace_append(t, &s);
		}
		if (!rc) {
			struct slc_event e = { 123.25, 3000000000ull, g ? "fold_done" : "cache_exhausted", 3e9 };

			rc = slc_trace_event(t, &e);
		}
	}
	if (slc_trace_close(t) || rc) {
		fprintf(stderr, "trace_writer: write failed\n");
		return 1;
	}
	if (slc_trace_store_json(path, "phases", "{\"cache_bytes\": 2300000000}", err, sizeof(err))) {
		fprintf(stderr, "trace_writer: %s\n", err);
		return 1;
	}
	return 0;
}

static int small(const char *path, unsigned long n)
{
	static const struct slc_segment_params p = { "seq_fill", "seq_write", 131072, 32, 1, 0, 1073741824ull, 30, 1,
						     "random", 1.0, "virtual", 4, SLC_ROLE_FILL, 0, 0, "", 0, "" };
	struct slc_event e = { 2.5, 250000000ull, "cache_exhausted", 0 };
	struct slc_trace *t;
	char err[256];
	int rc;

	if (slc_trace_create(&t, path, &meta, err, sizeof(err)))
		return 1;
	rc = slc_trace_segment_begin(t, &p);
	for (uint64_t i = 0; i < n && !rc; i++) {
		struct slc_sample s = loop_sample(i);

		rc = slc_trace_append(t, &s);
	}
	if (!rc)
		rc = slc_trace_event(t, &e);
	if (!rc)
		rc = slc_trace_snapshot(t, "smart", 1.0, "{\"temperature_c\": 41}");
	if (slc_trace_close(t) || rc ||
	    slc_trace_store_json(path, "phases", "{\"cache_bytes\": 250000000}", err, sizeof(err))) {
		fprintf(stderr, "trace_writer: write failed\n");
		return 1;
	}
	return 0;
}

/* A write curve (a cache at 1 GB/s, then 200 MB/s) under @m and @p; with
 * @gaps, latencies unknown in every 7th sample, temperatures in every other. */
static int curve(const char *path, const struct slc_trace_meta *m, const struct slc_segment_params *p, int gaps)
{
	struct slc_trace *t;
	char err[256];
	uint64_t bytes = 0;
	int rc;

	if (slc_trace_create(&t, path, m, err, sizeof(err))) {
		fprintf(stderr, "trace_writer: %s\n", err);
		return 1;
	}
	rc = slc_trace_segment_begin(t, p);
	for (uint64_t i = 0; i < 300 && !rc; i++) {
		uint64_t bps = i < 100 ? 1000000000u : 200000000u;
		double lat = gaps && i % 7 == 3 ? NAN : 1;
		struct slc_sample s = { .t_s = (double)(i + 1), .interval_s = 1.0, .ios = bps / 131072,
					.lat_p50_us = 100 * lat, .lat_p99_us = 200 * lat, .lat_p999_us = 300 * lat,
					.lat_max_us = 400 * lat, .temp_c = gaps && i % 2 ? 40.25 + (double)(i % 5) : NAN };

		bytes += bps;
		s.bytes_total = bytes;
		rc = slc_trace_append(t, &s);
	}
	if (slc_trace_close(t) || rc) {
		fprintf(stderr, "trace_writer: write failed\n");
		return 1;
	}
	return 0;
}

static int hostile(const char *path)
{
	static const struct slc_trace_meta m = {
		.command_line = "slcscope run --plan *seq*_x_ `rm -rf /` [a](b) <i>i</i> | c",
		.target = "sim:<b>t</b>|#t",
		.device_model = "# Evil *bold* _it_ `code` [l](http://x) <img src=x> a|b \\ &amp; ~~s~~\nnext\x01",
		.capacity_bytes = 240057409536ull,
		.logical_block_bytes = 512,
	};
	static const struct slc_segment_params p = { "../../*x*_y_/`z`|[w]", "seq_write", 131072, 32, 1, 0,
						     240057409536ull, 0, 1, "random <u>|</u>", 1.0, "virtual", 4,
						     SLC_ROLE_CURVE, 0, 0, "", 0, "" };

	return curve(path, &m, &p, 0);
}

static int csvtext(const char *path)
{
	static const struct slc_trace_meta m = {
		.command_line = "trace_writer csvtext",
		.target = "sim:sata240-tlc",
		.capacity_bytes = 240057409536ull,
		.logical_block_bytes = 512,
		.plan = "my \"plan\", v2",
	};
	static const struct slc_segment_params p = { "burst, \"fast\"\nthen slow", "seq_write", 131072, 32, 1, 0,
						     240057409536ull, 0, 1, "random", 1.0, "virtual", 4,
						     SLC_ROLE_CURVE, 0, 0, "", 0, "" };

	return curve(path, &m, &p, 1);
}

/* One segment of @n 1 s samples at 1 GB/s for @cache_s, then 100 MB/s. */
static int burst(struct slc_trace *t, const char *step, enum slc_role role, unsigned cache_s, unsigned n)
{
	const struct slc_segment_params p = {
		.step = step, .workload = "rand_write", .block_bytes = 4096, .queue_depth = 32, .jobs = 1,
		.range_bytes = 240057409536ull, .idle_before_s = role == SLC_ROLE_IDLE_BURST ? 60 : 0, .seed = 1,
		.data_pattern = "random", .interval_s = 1.0, .clock = "virtual", .reap_batch = 4, .role = role,
		.read_state = "",
	};
	uint64_t b = 0;
	int rc = slc_trace_segment_begin(t, &p);

	for (unsigned i = 0; i < n && !rc; i++) {
		struct slc_sample s = { .t_s = i + 1, .interval_s = 1, .lat_p50_us = NAN, .lat_p99_us = NAN,
					.lat_p999_us = NAN, .lat_max_us = NAN, .temp_c = NAN };
		b += i < cache_s ? 1000000000ull : 100000000ull;
		s.bytes_total = b;
		s.ios = b / 4096;
		rc = slc_trace_append(t, &s);
	}
	return rc;
}

static int bursts(const char *path, unsigned long n)
{
	static const struct slc_trace_meta m = {
		.command_line = "trace_writer bursts", .target = "custom", .device_model = "BURSTS",
		.capacity_bytes = 240057409536ull, .logical_block_bytes = 512,
	};
	struct slc_trace *t;
	char err[256];
	int rc;

	if (slc_trace_create(&t, path, &m, err, sizeof(err))) {
		fprintf(stderr, "trace_writer: %s\n", err);
		return 1;
	}
	rc = burst(t, "rand_curve", SLC_ROLE_CURVE, 30, 90);
	for (unsigned long i = 0; i < n && !rc; i++)
		rc = burst(t, "idle_burst", SLC_ROLE_IDLE_BURST, 10 + (unsigned)(i % 7), 40);
	if (slc_trace_close(t) || rc) {
		fprintf(stderr, "trace_writer: write failed\n");
		return 1;
	}
	return 0;
}

static int loop(const char *path, unsigned long flush_every, double flush_s)
{
	static const struct slc_segment_params p = { "rand_curve", "rand_write", 4096, 32, 1, 0, 0, 0, 1, "random",
						     1.0, "monotonic", 4, SLC_ROLE_CURVE, 0, 0, "", 0, "" };
	struct slc_trace *t;
	struct timespec pause = { 0, 1000000 };
	char err[256];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (slc_trace_create(&t, path, &meta, err, sizeof(err)) || slc_trace_set_flush_interval(t, flush_s) ||
	    slc_trace_segment_begin(t, &p)) {
		fprintf(stderr, "trace_writer: cannot start\n");
		return 1;
	}
	for (uint64_t i = 0;; i++) {
		struct slc_sample s = loop_sample(i);

		if (slc_trace_append(t, &s)) {
			fprintf(stderr, "trace_writer: %s\n", slc_trace_errmsg(t));
			return 1;
		}
		if (flush_every && (i + 1) % flush_every == 0) {
			if (slc_trace_flush(t)) {
				fprintf(stderr, "trace_writer: %s\n", slc_trace_errmsg(t));
				return 1;
			}
			printf("flushed %llu\n", (unsigned long long)(i + 1));
		}
		if ((i + 1) % 100 == 0)
			printf("appended %llu %.6f\n", (unsigned long long)(i + 1), now_s());
		nanosleep(&pause, NULL);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[2], "fixed") == 0)
		return fixed(argv[1]);
	if (argc == 4 && strcmp(argv[2], "small") == 0)
		return small(argv[1], strtoul(argv[3], NULL, 10));
	if (argc == 3 && strcmp(argv[2], "hostile") == 0)
		return hostile(argv[1]);
	if (argc == 3 && strcmp(argv[2], "csvtext") == 0)
		return csvtext(argv[1]);
	if (argc == 4 && strcmp(argv[2], "bursts") == 0)
		return bursts(argv[1], strtoul(argv[3], NULL, 10));
	if (argc >= 3 && strcmp(argv[2], "loop") == 0)
		return loop(argv[1], argc > 3 ? strtoul(argv[3], NULL, 10) : 0, argc > 4 ? atof(argv[4]) : 2.0);
	fprintf(stderr, "usage: trace_writer PATH fixed | PATH loop [FLUSH_EVERY [FLUSH_S]] | PATH small N | PATH hostile | PATH csvtext | PATH bursts N\n");
	return 2;
}
