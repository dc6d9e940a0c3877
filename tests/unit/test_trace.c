// SPDX-License-Identifier: MIT
/*
 * Trace store: write a trace, read it back and compare every sample,
 * parameter, event and attribute; store analysis results; refuse bad files
 * with their one-line reasons; writer misuse.
 */
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/trace.h"

static char dir[] = "/tmp/slc_test_trace.XXXXXX";

static const char *tpath(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static const struct slc_trace_meta meta = {
	.command_line = "slcscope run --target sim:sata240-tlc",
	.target = "sim:sata240-tlc",
	.device_model = "SIM SATA 240 TLC",
	.device_serial = NULL,
	.device_firmware = "1.0",
	.capacity_bytes = 240057409536ull,
	.logical_block_bytes = 512,
};

static const struct slc_segment_params seg_params[2] = {
	{ "rand_curve", "rand_write", 4096, 32, 1, 0, 240057409536ull, 0, 42, "random", 1.0, "virtual", 4,
	  SLC_ROLE_CURVE, 0, 0, "", 0, "" },
	{ "idle_recovery", "rand_write", 4096, 32, 1, 0, 240057409536ull, 900.0, 43, "random", 1.0, "virtual", 1,
	  SLC_ROLE_IDLE_BURST, 30, 0, "", 20, "sqpoll" },
};

static struct slc_sample sample_at(size_t seg, size_t i)
{
	struct slc_sample s = {
		.t_s = (double)(i + 1) * 1.0 + 0.001 * (double)seg,
		.interval_s = 1.0,
		.bytes_total = (uint64_t)(i + 1) * 327680000ull + seg,
		.ios = 80000 - i,
		.lat_p50_us = 350.5 + (double)i,
		.lat_p99_us = i % 7 ? 900.25 : NAN,
		.lat_p999_us = 2000.125,
		.lat_max_us = 1e6 / 3.0,
		.temp_c = i % 3 ? 41.5 : NAN,
		.writer_cpu = i % 5 ? 0.25 * (double)(i % 5) : NAN,
		.writer_wait = i % 4 ? 0.01 * (double)(i % 4) : NAN,
	};
	return s;
}

static const size_t seg_samples[2] = { 10000, 3 };   /* more than one chunk and buffer, and a tiny one */

static void write_trace(const char *path)
{
	struct slc_trace *t;
	char err[256];
	struct slc_event ev[2] = {
		{ 2300.5, 2300000000ull, "cache_exhausted", 0 },
		{ 1.0, 1, "cache_capacity", 3e9 },
	};

	assert_int_equal(slc_trace_create(&t, path, &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_set_flush_interval(t, 0.5), 0);
	assert_int_equal(slc_trace_snapshot(t, "identify", 0, "{\"model\": \"SIM\"}"), 0);
	for (size_t g = 0; g < 2; g++) {
		assert_int_equal(slc_trace_segment_begin(t, &seg_params[g]), 0);
		for (size_t i = 0; i < seg_samples[g]; i++) {
			struct slc_sample s = sample_at(g, i);

			assert_int_equal(slc_trace_append(t, &s), 0);
		}
		assert_int_equal(slc_trace_event(t, &ev[g]), 0);
		assert_int_equal(slc_trace_snapshot(t, "smart", 10.5 * (double)g, g ? "{\"temp\": 45}" : "{\"temp\": 40}"), 0);
		if (g == 0)
			assert_int_equal(slc_trace_segment_end(t), 0);
	}
	/* segment 1 is still open: close() ends it */
	assert_int_equal(slc_trace_close(t), 0);
}

static void assert_same_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_memory_equal(&a, &b, sizeof(a));
}

static void check_trace(const struct slc_input *in)
{
	assert_int_equal(in->format, SLC_INPUT_TRACE);
	assert_string_equal(in->meta.command_line, meta.command_line);
	assert_string_equal(in->meta.target, meta.target);
	assert_string_equal(in->meta.device_model, meta.device_model);
	assert_null(in->meta.device_serial);
	assert_string_equal(in->meta.device_firmware, meta.device_firmware);
	assert_int_equal(in->meta.capacity_bytes, meta.capacity_bytes);
	assert_int_equal(in->meta.logical_block_bytes, meta.logical_block_bytes);
	assert_string_equal(in->tool_version, SLCSCOPE_VERSION);
	assert_non_null(in->created_utc);
	assert_int_equal(in->n_segments, 2);
	for (size_t g = 0; g < 2; g++) {
		const struct slc_input_segment *s = &in->segments[g];
		const struct slc_segment_params *p = &seg_params[g];
		uint64_t prev = 0;

		assert_string_equal(s->params.step, p->step);
		assert_string_equal(s->params.workload, p->workload);
		assert_string_equal(s->params.data_pattern, p->data_pattern);
		assert_string_equal(s->params.clock, p->clock);
		assert_string_equal(s->params.io_mode, p->io_mode);
		assert_int_equal(s->params.block_bytes, p->block_bytes);
		assert_int_equal(s->params.queue_depth, p->queue_depth);
		assert_int_equal(s->params.jobs, p->jobs);
		assert_int_equal(s->params.reap_batch, p->reap_batch);
		assert_int_equal(s->params.poll_us, p->poll_us);
		assert_int_equal(s->params.offset_bytes, p->offset_bytes);
		assert_int_equal(s->params.range_bytes, p->range_bytes);
		assert_int_equal(s->params.seed, p->seed);
		assert_same_double(s->params.idle_before_s, p->idle_before_s);
		assert_same_double(s->params.interval_s, p->interval_s);
		assert_int_equal(s->n_samples, seg_samples[g]);
		for (size_t i = 0; i < s->n_samples; i++) {
			struct slc_sample want = sample_at(g, i);

			assert_same_double(s->t_s[i], want.t_s);
			assert_same_double(s->interval_s[i], want.interval_s);
			assert_int_equal(s->bytes_total[i], want.bytes_total);
			assert_int_equal(s->ios[i], want.ios);
			assert_same_double(s->lat_p50_us[i], want.lat_p50_us);
			assert_same_double(s->lat_p99_us[i], want.lat_p99_us);
			assert_same_double(s->lat_p999_us[i], want.lat_p999_us);
			assert_same_double(s->lat_max_us[i], want.lat_max_us);
			assert_same_double(s->temp_c[i], want.temp_c);
			assert_same_double(s->writer_cpu[i], want.writer_cpu);
			assert_same_double(s->writer_wait[i], want.writer_wait);
			assert_same_double(s->bw_bps[i], (double)(want.bytes_total - prev) / want.interval_s);
			prev = want.bytes_total;
		}
		assert_int_equal(s->n_events, 1);
	}
	/* the role is stored, not read from the step name */
	assert_int_equal(in->segments[0].params.role, SLC_ROLE_CURVE);
	assert_int_equal(in->segments[1].params.role, SLC_ROLE_IDLE_BURST);
	assert_int_equal(in->segments[1].params.role_arg, 30);
	assert_string_equal(in->segments[0].events[0].kind, "cache_exhausted");
	assert_same_double(in->segments[0].events[0].t_s, 2300.5);
	assert_int_equal(in->segments[0].events[0].host_bytes, 2300000000ull);
	assert_string_equal(in->segments[1].events[0].kind, "cache_capacity");
	assert_same_double(in->segments[1].events[0].value, 3e9);
	assert_int_equal(in->n_snapshots, 3);
	assert_string_equal(in->snapshots[0].kind, "identify");
	assert_int_equal(in->snapshots[0].segment, -1);
	assert_string_equal(in->snapshots[1].kind, "smart");
	assert_int_equal(in->snapshots[1].segment, 0);
	assert_string_equal(in->snapshots[1].json_text, "{\"temp\": 40}");
	assert_int_equal(in->snapshots[2].segment, 1);
	assert_same_double(in->snapshots[2].t_s, 10.5);
}

static void test_round_trip(void **state)
{
	struct slc_input *in = NULL;
	char err[256];

	write_trace(tpath("rt.h5"));
	assert_int_equal(slc_input_load(&in, tpath("rt.h5"), err, sizeof(err)), 0);
	check_trace(in);
	slc_input_free(in);
}

/* A trace written before the writer's CPU was recorded has no such columns:
 * it loads, and reads them as unknown. */
static void test_without_cpu_columns(void **state)
{
	struct slc_input *in = NULL;
	char err[256];
	hid_t f;

	write_trace(tpath("old.h5"));
	f = H5Fopen(tpath("old.h5"), H5F_ACC_RDWR, H5P_DEFAULT);
	assert_true(f >= 0);
	for (int g = 0; g < 2; g++) {
		char name[64];

		snprintf(name, sizeof(name), "segments/%04d/writer_cpu", g);
		assert_true(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
		snprintf(name, sizeof(name), "segments/%04d/writer_wait", g);
		assert_true(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
	}
	H5Fclose(f);
	assert_int_equal(slc_input_load(&in, tpath("old.h5"), err, sizeof(err)), 0);
	assert_int_equal(in->n_segments, 2);
	for (size_t g = 0; g < 2; g++) {
		const struct slc_input_segment *s = &in->segments[g];

		assert_int_equal(s->n_samples, seg_samples[g]);
		for (size_t i = 0; i < s->n_samples; i++) {
			assert_true(isnan(s->writer_cpu[i]));
			assert_true(isnan(s->writer_wait[i]));
			assert_int_equal(s->bytes_total[i], sample_at(g, i).bytes_total);
		}
	}
	slc_input_free(in);
	(void)state;
}

/* Importing a trace and writing it again keeps everything. */
static void test_rewrite(void **state)
{
	struct slc_input *in = NULL, *again = NULL;
	char err[256];

	write_trace(tpath("a.h5"));
	assert_int_equal(slc_input_load(&in, tpath("a.h5"), err, sizeof(err)), 0);
	assert_int_equal(slc_input_write_trace(in, tpath("b.h5"), NULL, err, sizeof(err)), 0);
	assert_int_equal(slc_input_load(&again, tpath("b.h5"), err, sizeof(err)), 0);
	check_trace(again);
	slc_input_free(in);
	slc_input_free(again);
}

static void test_store_json(void **state)
{
	struct slc_input *in = NULL;
	char err[256];

	write_trace(tpath("j.h5"));
	assert_int_equal(slc_trace_store_json(tpath("j.h5"), "phases", "{\"cache_bytes\": 1}", err, sizeof(err)), 0);
	assert_int_equal(slc_trace_store_json(tpath("j.h5"), "phases", "{\"cache_bytes\": 2}", err, sizeof(err)), 0);
	assert_int_equal(slc_trace_store_json(tpath("j.h5"), "steady", "[]", err, sizeof(err)), 0);
	assert_int_equal(slc_trace_store_json(tpath("j.h5"), "bad/name", "[]", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "analysis name"));
	assert_int_equal(slc_input_load(&in, tpath("j.h5"), err, sizeof(err)), 0);
	check_trace(in);
	assert_int_equal(in->n_analysis, 2);
	assert_string_equal(in->analysis[0].name, "phases");
	assert_string_equal(in->analysis[0].json_text, "{\"cache_bytes\": 2}");
	assert_string_equal(in->analysis[1].name, "steady");
	slc_input_free(in);
	/* not a trace: refused, the file left as it was */
	assert_int_equal(slc_trace_store_json(tpath("nope.h5"), "x", "1", err, sizeof(err)), -ENOENT);
	assert_int_equal(access(tpath("nope.h5"), F_OK), -1);
}

/* ---- bad files ------------------------------------------------------- */

static void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

static void truncate_copy(const char *from, const char *to, long keep)
{
	FILE *f = fopen(from, "rb");
	char *buf = malloc((size_t)keep);

	assert_non_null(f);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)keep, f), (size_t)keep);
	fclose(f);
	write_bytes(to, buf, (size_t)keep);
	free(buf);
}

static void set_u32_attr(const char *path, const char *name, uint32_t v)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), a;

	assert_true(f >= 0);
	a = H5Aopen(f, name, H5P_DEFAULT);
	assert_true(a >= 0);
	assert_true(H5Awrite(a, H5T_NATIVE_UINT32, &v) >= 0);
	H5Aclose(a);
	H5Fclose(f);
}

static void set_t_s(const char *path, size_t index, double v)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), d, fs, ms;
	hsize_t start = index, count = 1;

	assert_true(f >= 0);
	d = H5Dopen2(f, "segments/0000/t_s", H5P_DEFAULT);
	fs = H5Dget_space(d);
	ms = H5Screate_simple(1, &count, NULL);
	H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL);
	assert_true(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, &v) >= 0);
	H5Sclose(ms);
	H5Sclose(fs);
	H5Dclose(d);
	H5Fclose(f);
}

struct bad_case {
	const char *file;
	const char *reason;
};

static void test_bad_files(void **state)
{
	static const char hdf5_head[8] = { '\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n' };
	static const struct bad_case cases[] = {
		{ "truncated.h5", "damaged or truncated HDF5 file" },
		{ "signature_only.h5", "damaged or truncated HDF5 file" },
		{ "foreign.h5", "not a slcscope trace" },
		{ "version99.h5", "schema version 99 is not supported" },
		{ "backwards.h5", "time goes backwards at sample 5" },
		{ "missing.h5", "No such file" },
	};
	hid_t f;

	write_trace(tpath("good.h5"));
	truncate_copy(tpath("good.h5"), tpath("truncated.h5"), 3000);
	write_bytes(tpath("signature_only.h5"), hdf5_head, sizeof(hdf5_head));
	f = H5Fcreate(tpath("foreign.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	assert_true(f >= 0);
	H5Fclose(f);
	write_trace(tpath("version99.h5"));
	set_u32_attr(tpath("version99.h5"), "schema_version", 99);
	write_trace(tpath("backwards.h5"));
	set_t_s(tpath("backwards.h5"), 5, 1.0);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct slc_input *in = (struct slc_input *)1;
		char err[256] = "";
		int rc = slc_input_load(&in, tpath(cases[i].file), err, sizeof(err));

		assert_true(rc < 0);
		assert_null(in);
		if (!strstr(err, cases[i].reason))
			fail_msg("%s: reason '%s' lacks '%s'", cases[i].file, err, cases[i].reason);
		assert_null(strchr(err, '\n'));
	}
}

/* ---- writer misuse --------------------------------------------------- */

/* A segment stops at the most samples a reader takes back, with a reason
 * that says what to do, and the trace closes as a whole. */
static void test_writer_segment_limit(void **state)
{
	struct slc_trace *t;
	struct slc_sample s = sample_at(0, 0);
	char err[256];
	int rc = 0;
	size_t i;

	(void)state;
	assert_int_equal(slc_trace_create(&t, tpath("limit.h5"), &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &seg_params[0]), 0);
	/* a first segment of a million, then the rest in a second: the
	 * limit is the trace's, all segments together (1 GiB / 160 bytes) */
	for (i = 0; i < 8000000 && !(rc = slc_trace_append(t, &s)); i++) {
		s.t_s += 0.01;
		s.bytes_total += 1000;
		if (i + 1 == 1000000) {
			assert_int_equal(slc_trace_segment_end(t), 0);
			assert_int_equal(slc_trace_segment_begin(t, &seg_params[1]), 0);
			s.t_s = 0;
			s.bytes_total = 0;
		}
	}
	assert_int_equal(rc, -EFBIG);
	assert_int_equal(i, ((size_t)1 << 30) / 160);
	assert_non_null(strstr(slc_trace_errmsg(t), "sample less often"));
	assert_int_equal(slc_trace_close(t), 0);
	unlink(tpath("limit.h5"));
}

static void test_writer_misuse(void **state)
{
	struct slc_trace *t;
	struct slc_sample s = sample_at(0, 5), back = sample_at(0, 1);
	struct slc_event long_kind = { 0, 0, "a_kind_name_that_is_longer_than_31_bytes", 0 };
	char err[256];

	assert_int_equal(slc_trace_create(&t, tpath("misuse.h5"), &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_append(t, &s), -EINVAL);
	assert_non_null(strstr(slc_trace_errmsg(t), "without a segment"));
	assert_int_equal(slc_trace_segment_end(t), -EINVAL);
	assert_int_equal(slc_trace_segment_begin(t, &seg_params[0]), 0);
	assert_int_equal(slc_trace_append(t, &s), 0);
	assert_int_equal(slc_trace_append(t, &back), -EINVAL);
	assert_non_null(strstr(slc_trace_errmsg(t), "backwards"));
	s.t_s = NAN;
	assert_int_equal(slc_trace_append(t, &s), -EINVAL);
	assert_int_equal(slc_trace_event(t, &long_kind), -EINVAL);
	assert_int_equal(slc_trace_snapshot(t, long_kind.kind, 0, "{}"), -EINVAL);
	assert_int_equal(slc_trace_snapshot(t, "smart", NAN, "{}"), -EINVAL);
	assert_int_equal(slc_trace_snapshot(t, "smart", 0, NULL), -EINVAL);
	assert_int_equal(slc_trace_set_flush_interval(t, -1), -EINVAL);
	assert_int_equal(slc_trace_close(t), 0);
	assert_int_equal(slc_trace_close(NULL), 0);

	assert_int_equal(slc_trace_create(&t, "/nonexistent-dir/x.h5", &meta, err, sizeof(err)), -EIO);
	assert_null(t);
	assert_non_null(strstr(err, "cannot create /nonexistent-dir/x.h5"));
}

/* An empty trace (created, nothing appended) is valid. */
static void test_empty_trace(void **state)
{
	struct slc_trace *t;
	struct slc_input *in;
	char err[256];

	assert_int_equal(slc_trace_create(&t, tpath("empty.h5"), &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &seg_params[0]), 0);
	assert_int_equal(slc_trace_close(t), 0);
	assert_int_equal(slc_input_load(&in, tpath("empty.h5"), err, sizeof(err)), 0);
	assert_int_equal(in->n_segments, 1);
	assert_int_equal(in->segments[0].n_samples, 0);
	assert_int_equal(in->segments[0].n_events, 0);
	slc_input_free(in);
}

/* A run's trace says how much of the plan it holds and how the run ended; others say nothing. */
static void test_run_status(void **state)
{
	struct slc_trace_meta m = meta;
	struct slc_trace *t;
	struct slc_input *in;
	char err[256];

	m.planned_steps = 8;
	assert_int_equal(slc_trace_create(&t, tpath("status.h5"), &m, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &seg_params[0]), 0);
	assert_int_equal(slc_trace_flush(t), 0);
	/* a run killed before its end leaves "running" */
	assert_int_equal(slc_input_load(&in, tpath("status.h5"), err, sizeof(err)), 0);
	assert_string_equal(in->meta.run_status, "running");
	assert_int_equal(in->meta.planned_steps, 8);
	slc_input_free(in);
	assert_int_equal(slc_trace_set_run_status(t, "interrupted"), 0);
	assert_int_equal(slc_trace_close(t), 0);
	assert_int_equal(slc_input_load(&in, tpath("status.h5"), err, sizeof(err)), 0);
	assert_string_equal(in->meta.run_status, "interrupted");
	assert_int_equal(in->meta.planned_steps, 8);
	assert_int_equal(in->n_segments, 1);
	slc_input_free(in);
	assert_int_equal(slc_input_load(&in, tpath("empty.h5"), err, sizeof(err)), 0);
	assert_null(in->meta.run_status);
	assert_int_equal(in->meta.planned_steps, 0);
	slc_input_free(in);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_without_cpu_columns),
		cmocka_unit_test(test_store_json),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_writer_misuse),
		cmocka_unit_test(test_writer_segment_limit),
		cmocka_unit_test(test_empty_trace),
		cmocka_unit_test(test_run_status),
	};

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	return cmocka_run_group_tests(tests, setup, teardown);
}
