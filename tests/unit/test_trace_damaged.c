// SPDX-License-Identifier: MIT
/*
 * Damaged and hand-made traces: a changed global-heap byte, a changed
 * checksummed metadata byte, values no measurement has, columns of
 * different lengths, samples of zero length, control characters.  Each is
 * refused in one line (or read with one note), never a crash or a hang.
 */
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/trace.h"

static char dir[] = "/tmp/slc_test_damaged.XXXXXX";

static const char *tpath(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

#define COMMAND_LINE "slcscope run sim:tiny-tlc --plan seq -o damaged.h5"

static const struct slc_trace_meta meta = {
	.command_line = COMMAND_LINE,
	.target = "sim:tiny-tlc",
};

static const struct slc_segment_params params = {
	"seq_fill", "seq_write", 131072, 32, 1, 0, 4294967296ull, 30, 1, "random", 1.0, "virtual", 4,
	SLC_ROLE_FILL, 0, 0, "", 0, "",
};

#define N_SAMPLES 50

/* Whether write_trace() says its segment reads (then it has the reads' columns). */
static int with_reads;

/* A trace of N_SAMPLES samples, plus @extra (e.g. a drain sample) when given, a snapshot and an event. */
static void write_trace(const char *path, const struct slc_sample *extra, size_t n_extra)
{
	struct slc_event ev = { 10, 10 * 100000000ull, "cache_exhausted", 0 };
	struct slc_segment_params p = params;
	struct slc_trace *t;
	char err[256];

	p.read_pct = with_reads ? 50 : 0;
	assert_int_equal(slc_trace_create(&t, path, &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &p), 0);
	for (size_t i = 0; i < N_SAMPLES; i++) {
		struct slc_sample s = { (double)(i + 1), 1.0, (i + 1) * 100000000ull, 760, 300, 900, 1500, 2500, 40,
					0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };

		assert_int_equal(slc_trace_append(t, &s), 0);
	}
	for (size_t i = 0; i < n_extra; i++)
		assert_int_equal(slc_trace_append(t, &extra[i]), 0);
	assert_int_equal(slc_trace_event(t, &ev), 0);
	assert_int_equal(slc_trace_snapshot(t, "smart", 1, "{\"temp\": 40}"), 0);
	assert_int_equal(slc_trace_close(t), 0);
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

static void spill(const char *path, const unsigned char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static size_t find(const unsigned char *buf, size_t n, const void *what, size_t len)
{
	for (size_t i = 0; i + len <= n; i++)
		if (memcmp(buf + i, what, len) == 0)
			return i;
	fail_msg("pattern not in the file");
	return 0;
}

/* Load @path (in at most a few seconds), expect a refusal whose one-line reason holds @reason. */
static void expect_refused(const char *path, const char *reason)
{
	struct slc_input *in = (struct slc_input *)1;
	struct timespec a, b;
	char err[512] = "";
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = slc_input_load(&in, path, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (rc == 0)
		fail_msg("%s: read, expected a refusal with '%s'", path, reason);
	assert_null(in);
	if (!strstr(err, reason))
		fail_msg("%s: reason '%s' lacks '%s'", path, err, reason);
	assert_null(strchr(err, '\n'));
	assert_true((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9 < 1.0);
}

/* HDF5 1.10 would abort the test with SIGSEGV or keep it for ~10 minutes: fail it fast instead. */
static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "test_trace_damaged: stuck for 30 s reading a damaged trace\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

/* One byte of the global heap: the size of the object holding the command line, made huge. */
static void test_damaged_heap(void **state)
{
	struct slc_input *in;
	char err[256];
	size_t n, at;
	unsigned char *buf;

	(void)state;
	write_trace(tpath("heap.h5"), NULL, 0);
	buf = slurp(tpath("heap.h5"), &n);
	at = find(buf, n, COMMAND_LINE, strlen(COMMAND_LINE));
	assert_true(at >= 16);
	assert_int_equal(buf[at - 8], strlen(COMMAND_LINE));   /* the object's size, little-endian */
	buf[at - 7] = 0xc8;
	spill(tpath("heap_size.h5"), buf, n);
	buf[at - 7] = 0;
	buf[at - 16] = 0xff;                                       /* the object's index */
	spill(tpath("heap_index.h5"), buf, n);
	free(buf);
	/* the collection no longer parses: no string in it is read, the schema neither */
	expect_refused(tpath("heap_size.h5"), "not a slcscope trace");
	/* the command line names an object no longer there: read as absent */
	assert_int_equal(slc_input_load(&in, tpath("heap_index.h5"), err, sizeof(err)), 0);
	assert_null(in->meta.command_line);
	assert_string_equal(in->meta.target, "sim:tiny-tlc");
	slc_input_free(in);
}

/* One byte of a checksummed chunk index (an extensible array's header). */
static void test_damaged_checksum(void **state)
{
	size_t n, at;
	unsigned char *buf;

	(void)state;
	write_trace(tpath("sum.h5"), NULL, 0);
	buf = slurp(tpath("sum.h5"), &n);
	at = find(buf, n, "EAHD", 4);
	buf[at + 6] ^= 0x40;
	spill(tpath("sum_bad.h5"), buf, n);
	free(buf);
	expect_refused(tpath("sum_bad.h5"), "checksum");
}

static void put_value(const char *path, const char *column, size_t index, hid_t type, const void *v)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), d, fs, ms;
	hsize_t start = index, count = 1;
	char name[64];

	assert_true(f >= 0);
	snprintf(name, sizeof(name), "segments/0000/%s", column);
	d = H5Dopen2(f, name, H5P_DEFAULT);
	fs = H5Dget_space(d);
	ms = H5Screate_simple(1, &count, NULL);
	H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL);
	assert_true(H5Dwrite(d, type, ms, fs, H5P_DEFAULT, v) >= 0);
	H5Sclose(ms);
	H5Sclose(fs);
	H5Dclose(d);
	H5Fclose(f);
}

static void cut_column(const char *path, const char *column, hsize_t len)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), d;
	char name[64];

	assert_true(f >= 0);
	snprintf(name, sizeof(name), "segments/0000/%s", column);
	d = H5Dopen2(f, name, H5P_DEFAULT);
	assert_true(H5Dset_extent(d, &len) >= 0);
	H5Dclose(d);
	H5Fclose(f);
}

static size_t count_of(const char *s, const char *what)
{
	size_t k = 0;

	for (const char *p = s; p && (p = strstr(p, what)); p++)
		k++;
	return k;
}

/* Values no measurement has are refused like the CSV importer's rows. */
static void test_hand_made(void **state)
{
	uint64_t huge = (uint64_t)1 << 63;
	double far = 4.6e301, negative = -5;

	(void)state;
	write_trace(tpath("bytes.h5"), NULL, 0);
	put_value(tpath("bytes.h5"), "bytes_total", N_SAMPLES - 1, H5T_NATIVE_UINT64, &huge);
	expect_refused(tpath("bytes.h5"), "more than 2^63 bytes");
	write_trace(tpath("time.h5"), NULL, 0);
	put_value(tpath("time.h5"), "t_s", N_SAMPLES - 1, H5T_NATIVE_DOUBLE, &far);
	expect_refused(tpath("time.h5"), "time or interval outside 0 to");
	write_trace(tpath("lat.h5"), NULL, 0);
	put_value(tpath("lat.h5"), "lat_p99_us", 3, H5T_NATIVE_DOUBLE, &negative);
	expect_refused(tpath("lat.h5"), "impossible latency");
	write_trace(tpath("rate.h5"), NULL, 0);
	put_value(tpath("rate.h5"), "bytes_total", N_SAMPLES - 1, H5T_NATIVE_UINT64, &(uint64_t){ 4000000000000000000ull });
	expect_refused(tpath("rate.h5"), "faster than");
	/* the reads apart: never more than all I/O, never shrinking, latencies possible */
	with_reads = 1;
	write_trace(tpath("reads.h5"), NULL, 0);
	put_value(tpath("reads.h5"), "read_ios", 5, H5T_NATIVE_UINT64, &(uint64_t){ 761 });
	expect_refused(tpath("reads.h5"), "more reads than I/O");
	write_trace(tpath("rbytes.h5"), NULL, 0);
	put_value(tpath("rbytes.h5"), "read_bytes_total", 5, H5T_NATIVE_UINT64, &(uint64_t){ 1000 });
	expect_refused(tpath("rbytes.h5"), "read_bytes_total shrinks");
	write_trace(tpath("rlat.h5"), NULL, 0);
	put_value(tpath("rlat.h5"), "write_lat_mean_us", 2, H5T_NATIVE_DOUBLE, &negative);
	expect_refused(tpath("rlat.h5"), "impossible read or write latency");
	with_reads = 0;
}

/* Replace attribute @name of object @obj (a path) of the trace @path by a scalar of @type. */
static void put_attr(const char *path, const char *obj, const char *name, hid_t type, const void *v)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), o, sp, a;

	assert_true(f >= 0);
	o = H5Oopen(f, obj, H5P_DEFAULT);
	assert_true(o >= 0);
	if (H5Aexists(o, name) > 0)
		assert_true(H5Adelete(o, name) >= 0);
	sp = H5Screate(H5S_SCALAR);
	a = H5Acreate2(o, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
	assert_true(a >= 0);
	assert_true(H5Awrite(a, type, v) >= 0);
	H5Aclose(a);
	H5Sclose(sp);
	H5Oclose(o);
	H5Fclose(f);
}

/* @path must be refused in one line naming the attribute @attr (its path) as out of range. */
static void refused_by_name(const char *path, const char *attr)
{
	struct slc_input *in = (struct slc_input *)1;
	char err[512] = "";

	if (slc_input_load(&in, path, err, sizeof(err)) == 0)
		fail_msg("%s: read, expected %s refused", path, attr);
	assert_null(in);
	if (!strstr(err, attr) || !strstr(err, "out of range") || !strstr(err, path))
		fail_msg("%s: reason '%s' does not name %s as out of range", path, err, attr);
	assert_null(strchr(err, '\n'));
}

/* An attribute outside its physical range is refused by name, never read into the analysis. */
static void test_attribute_ranges(void **state)
{
	const char *p = tpath("attr.h5");
	struct slc_input *in;
	char err[512];

	(void)state;
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "interval_s", H5T_NATIVE_DOUBLE, &(double){ NAN });
	refused_by_name(p, "attribute /segments/0000/interval_s = nan");
	write_trace(p, NULL, 0);
	put_attr(p, "/", "capacity_bytes", H5T_NATIVE_UINT64, &(uint64_t){ UINT64_MAX });
	refused_by_name(p, "attribute /capacity_bytes = 1.8446744073709552e+19");
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "idle_before_s", H5T_NATIVE_DOUBLE, &(double){ 1e300 });
	refused_by_name(p, "/segments/0000/idle_before_s = 1.0000000000000001e+300");
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "queue_depth", H5T_NATIVE_UINT32, &(uint32_t){ 4000000000u });
	refused_by_name(p, "/segments/0000/queue_depth = 4000000000");
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "read_pct", H5T_NATIVE_UINT32, &(uint32_t){ 101 });
	refused_by_name(p, "/segments/0000/read_pct = 101");
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "block_bytes", H5T_NATIVE_DOUBLE, &(double){ 4096.5 });
	refused_by_name(p, "/segments/0000/block_bytes = 4096.5");
	write_trace(p, NULL, 0);
	put_attr(p, "/", "logical_block_bytes", H5T_NATIVE_INT64, &(int64_t){ -512 });
	refused_by_name(p, "/logical_block_bytes = -512");
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "seed", H5T_NATIVE_DOUBLE, &(double){ -INFINITY });
	refused_by_name(p, "/segments/0000/seed = -inf");
	write_trace(p, NULL, 0);
	put_attr(p, "/device/snapshots/0000", "t_s", H5T_NATIVE_DOUBLE, &(double){ -1 });
	refused_by_name(p, "/device/snapshots/0000/t_s = -1");
	/* in range, whatever the stored type: read; 0 is "unknown" where the table says so */
	write_trace(p, NULL, 0);
	put_attr(p, "/segments/0000", "queue_depth", H5T_NATIVE_UINT64, &(uint64_t){ 64 });
	put_attr(p, "/", "capacity_bytes", H5T_NATIVE_DOUBLE, &(double){ 0 });
	put_attr(p, "/segments/0000", "seed", H5T_NATIVE_UINT64, &(uint64_t){ UINT64_MAX });
	assert_int_equal(slc_input_load(&in, p, err, sizeof(err)), 0);
	assert_int_equal(in->segments[0].params.queue_depth, 64);
	assert_true(in->meta.capacity_bytes == 0);
	assert_true(in->segments[0].params.seed == UINT64_MAX);
	slc_input_free(in);
}

/* A column declaring more samples than the file holds (no chunk written) is refused, not allocated. */
static void test_declared_samples(void **state)
{
	const char *p = tpath("declared.h5");
	hsize_t dim = 1500000, chunk = 4096;
	hid_t f, sp, dcpl, d;

	(void)state;
	write_trace(p, NULL, 0);
	f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
	assert_true(f >= 0);
	assert_true(H5Ldelete(f, "segments/0000/t_s", H5P_DEFAULT) >= 0);
	sp = H5Screate_simple(1, &dim, NULL);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	assert_true(H5Pset_chunk(dcpl, 1, &chunk) >= 0);
	d = H5Dcreate2(f, "segments/0000/t_s", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	assert_true(d >= 0);
	H5Dclose(d);
	H5Pclose(dcpl);
	H5Sclose(sp);
	H5Fclose(f);
	expect_refused(p, "t_s is not a 1-D numeric column of at most 8000000 samples held in the file");
}

/* The file address of object @name's header in the trace @path. */
static haddr_t header_address(const char *path, const char *name)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	H5O_info_t info;

	assert_true(f >= 0);
	assert_true(H5Oget_info_by_name2(f, name, &info, H5O_INFO_BASIC, H5P_DEFAULT) >= 0);
	H5Fclose(f);
	return info.addr;
}

/*
 * Object headers whose lengths HDF5 would trust: a segment's header chunk
 * made 2 GiB long (HDF5 allocates it before reading), an attribute name
 * without its NUL (HDF5 copies the name to its NUL, past the message).
 */
static void test_damaged_headers(void **state)
{
	const char *p = tpath("hdr.h5");
	unsigned char *buf;
	size_t n, at;
	haddr_t addr;

	(void)state;
	write_trace(p, NULL, 0);
	addr = header_address(p, "segments/0000");
	buf = slurp(p, &n);
	assert_true(addr + 16 < n);
	assert_int_equal(buf[addr], 1);                       /* a version 1 header: chunk length at +8 */
	buf[addr + 11] = 0x80;
	spill(tpath("hdr_len.h5"), buf, n);
	expect_refused(tpath("hdr_len.h5"), "lacks segment 0000, or its header is damaged");
	free(buf);
	buf = slurp(p, &n);
	at = find(buf, n, "schema_version", sizeof("schema_version"));   /* the name and its NUL */
	buf[at + strlen("schema_version")] = 'x';
	spill(tpath("hdr_name.h5"), buf, n);
	expect_refused(tpath("hdr_name.h5"), "the root group's object header is damaged");
	free(buf);
}

/* Columns cut to the shortest with one note; control characters replaced. */
static void test_short_columns(void **state)
{
	struct slc_input *in;
	char err[256];

	(void)state;
	write_trace(tpath("short.h5"), NULL, 0);
	cut_column(tpath("short.h5"), "ios", N_SAMPLES - 7);
	assert_int_equal(slc_input_load(&in, tpath("short.h5"), err, sizeof(err)), 0);
	assert_int_equal(in->segments[0].n_samples, N_SAMPLES - 7);
	assert_non_null(in->import_notes);
	assert_int_equal(count_of(in->import_notes, "columns differ in length"), 1);
	assert_non_null(strstr(in->import_notes, "43 to 50 samples"));
	slc_input_free(in);
}

/* A run stopped right at an interval's end: a sample of no time, and a zero-length drain sample. */
static void test_zero_length(void **state)
{
	const struct slc_sample extra[2] = {
		{ N_SAMPLES, 1.0, N_SAMPLES * 100000000ull, 0, NAN, NAN, NAN, NAN, NAN, 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN },
		{ N_SAMPLES, 0.0, N_SAMPLES * 100000000ull + 131072, 1, 250, 250, 250, 250, NAN, 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN },
	};
	struct slc_input *in;
	const struct slc_input_segment *s;
	char err[256];

	(void)state;
	write_trace(tpath("zero.h5"), extra, 2);
	if (slc_input_load(&in, tpath("zero.h5"), err, sizeof(err))) fail_msg("%s", err);
	s = &in->segments[0];
	assert_int_equal(s->n_samples, N_SAMPLES);
	/* the last kept sample took the bytes and I/Os of the two merged into it */
	assert_int_equal(s->bytes_total[N_SAMPLES - 1], N_SAMPLES * 100000000ull + 131072);
	assert_int_equal(s->ios[N_SAMPLES - 1], 761);
	for (size_t i = 0; i < s->n_samples; i++)
		assert_true(s->interval_s[i] > 0 && isfinite(s->bw_bps[i]) && (!i || s->t_s[i] > s->t_s[i - 1]));
	assert_int_equal(count_of(in->import_notes, "2 samples of zero length merged"), 1);
	slc_input_free(in);
}

/*
 * Samples whose interval reaches back over the one before (2 s long, 1 s
 * apart; the first would start at -1 s): every rate would be halved and a
 * phase would start before the run.  Refused; an overlap of rounding is not.
 */
static void test_overlapping_intervals(void **state)
{
	struct slc_segment_params p = params;
	struct slc_trace *t;
	struct slc_input *in;
	char err[256];

	(void)state;
	for (int k = 0; k < 2; k++) {
		double dt = k ? 1.0 + 1e-9 : 2.0;

		assert_int_equal(slc_trace_create(&t, tpath("overlap.h5"), &meta, err, sizeof(err)), 0);
		assert_int_equal(slc_trace_segment_begin(t, &p), 0);
		for (size_t i = 0; i < N_SAMPLES; i++) {
			struct slc_sample s = { (double)(i + 1), dt, (i + 1) * 100000000ull, 760, 300, 900, 1500, 2500,
						40, 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };

			assert_int_equal(slc_trace_append(t, &s), 0);
		}
		assert_int_equal(slc_trace_close(t), 0);
		if (!k) {
			expect_refused(tpath("overlap.h5"), "sample 0's interval (2 s) reaches back over the sample before it");
		} else {
			if (slc_input_load(&in, tpath("overlap.h5"), err, sizeof(err))) fail_msg("%s", err);
			slc_input_free(in);
		}
		unlink(tpath("overlap.h5"));
	}
}

static void test_control_characters(void **state)
{
	struct slc_trace_meta m = meta;
	struct slc_segment_params p = params;
	struct slc_trace *t;
	struct slc_input *in;
	char err[256];

	(void)state;
	m.device_model = "EVIL\033[2J\nMODEL";
	p.step = "a/b\r\n";
	assert_int_equal(slc_trace_create(&t, tpath("ctl.h5"), &m, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &p), 0);
	assert_int_equal(slc_trace_close(t), 0);
	assert_int_equal(slc_input_load(&in, tpath("ctl.h5"), err, sizeof(err)), 0);
	assert_string_equal(in->meta.device_model, "EVIL?[2J?MODEL");
	assert_string_equal(in->segments[0].params.step, "a/b??");
	slc_input_free(in);
}

static int setup(void **state)
{
	(void)state;
	signal(SIGALRM, on_alarm);
	alarm(30);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* An argument runs only the tests whose names match it (cmocka's filter). */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_damaged_heap),
		cmocka_unit_test(test_damaged_checksum),
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_attribute_ranges),
		cmocka_unit_test(test_declared_samples),
		cmocka_unit_test(test_damaged_headers),
		cmocka_unit_test(test_short_columns),
		cmocka_unit_test(test_zero_length),
		cmocka_unit_test(test_overlapping_intervals),
		cmocka_unit_test(test_control_characters),
	};

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
