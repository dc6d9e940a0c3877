// SPDX-License-Identifier: MIT
/*
 * Importers, table-driven: fio logs and CSV files in testdata/import with
 * their expected sample counts, totals and notes; the bad inputs with their
 * one-line reasons; in-memory texts through slc_input_parse_text().
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/analysis.h"
#include "slcscope/trace.h"

struct file_case {
	const char *file;              /* under testdata/import */
	int rc;
	const char *reason;            /* substring of the error when rc != 0 */
	size_t n_samples;
	double first_t_s, interval_s;
	uint64_t last_bytes;
	uint64_t first_ios;
	uint32_t jobs, block_bytes;
	const char *notes;             /* substring of the notes, NULL: none */
};

#define MiB 1048576.0

static const struct file_case file_cases[] = {
	/* 2 jobs x 100 MiB/s for 2 s then 2 x 50 MiB/s for 2 s, averaged over 1 s; each line covers
	 * the time since the line before, so the jitter of the times counts, and a first line one step
	 * (job 2's first line at 999 ms too): 614604.8 KiB in all (0.033% over 600 MiB), and
	 * 25600 I/Os/s x 2 x 1 s in the first second */
	{ "avg_bw.1.log", 0, NULL, 4, 1, 1, 629355315, 51200, 2, 0, "1 non-write lines skipped" },
	{ "avg_iops.2.log", 0, NULL, 4, 1, 1, 629355315, 51200, 2, 0, "merged on a 1000 ms grid" },
	/* a section of a job file of several: its two jobs are fio's jobs 3 and 4, and either log
	 * brings the other; 2 x 50 MiB/s for 0.2 s then 2 x 25 MiB/s for 0.2 s at 100 ms, and 400
	 * I/Os/s x 2 x 0.1 s in the first window */
	{ "sect_bw.4.log", 0, NULL, 4, 0.1, 0.1, 31457280, 80, 2, 0, "merged on a 100 ms grid" },
	{ "sect_bw.3.log", 0, NULL, 4, 0.1, 0.1, 31457280, 80, 2, 0, "1 non-write lines skipped" },
	{ .file = "sect_lat.3.log", .rc = -EINVAL, .reason = "a latency log (_lat): import the job's _bw log" },
	{ .file = "sect_clat.3.log", .rc = -EINVAL, .reason = "a latency log (_clat)" },
	/* per-I/O: three 4 KiB writes in the first second, one in the second, one 128 KiB in the third */
	{ "raw_bw.1.log", 0, NULL, 3, 1, 1, 4 * 4096 + 131072, 3, 1, 0, "1 non-write lines skipped" },
	{ "t_ms_MBps.csv", 0, NULL, 4, 0.5, 0.5, 300000000, 0, 1, 0, NULL },
	{ "time_s_bytes_per_s.csv", 0, NULL, 3, 10, 10, 60000, 0, 1, 0, NULL },
	{ "direction.csv", 0, NULL, 3, 1, 1, 4000 * 1024, 0, 1, 0, "2 non-write rows skipped" },
	/* real data: 1 s samples in MiB/s, Apache-2.0 (testdata/import/realdata/README.md) */
	{ "realdata/biwin_x570_1tb_fresh_200g_seqwrite_1s.csv", 0, NULL, 101, 1, 1, 0, 0, 1, 0, NULL },
	{ "realdata/biwin_x570_1tb_postprecond_200g_seqwrite_1s.csv", 0, NULL, 80, 1, 1, 0, 0, 1, 0, NULL },
	{ "realdata/biwin_x570_1tb_mixed5050_nocliff_1s.csv", 0, NULL, 79, 1, 1, 0, 0, 1, 0,
	  "79 rows sharing a time step with the row before were summed" },
	/* bad inputs */
	{ .file = "bad/empty.csv", .rc = -EINVAL, .reason = "empty file" },
	{ .file = "bad/header_only.csv", .rc = -EINVAL, .reason = "no data rows" },
	{ .file = "bad/one_row.csv", .rc = -EINVAL, .reason = "only one time step" },
	{ .file = "bad/garbage.csv", .rc = -EINVAL, .reason = "line 3: not a number" },
	{ .file = "bad/backwards.csv", .rc = -EINVAL, .reason = "line 4: time goes backwards" },
	{ .file = "bad/huge.csv", .rc = -EINVAL, .reason = "line 3: throughput out of range" },
	{ .file = "bad/bits.csv", .rc = -EINVAL, .reason = "bits per second" },
	{ .file = "bad/no_time.csv", .rc = -EINVAL, .reason = "no time column" },
	{ .file = "bad/no_rate.csv", .rc = -EINVAL, .reason = "no throughput column" },
	{ .file = "bad/fields.csv", .rc = -EINVAL, .reason = "line 2: 3 fields, the header has 2" },
	{ .file = "bad/binary.csv", .rc = -EINVAL, .reason = "line 3: binary data" },
	{ .file = "bad/garbage_bw.1.log", .rc = -EINVAL, .reason = "line 2: not a number" },
	{ .file = "bad/backwards_bw.1.log", .rc = -EINVAL, .reason = "line 2: time goes backwards" },
	{ .file = "bad/huge_bw.1.log", .rc = -EINVAL, .reason = "line 2: time out of range" },
	{ .file = "bad/readonly_bw.1.log", .rc = -EINVAL, .reason = "no write samples" },
	{ .file = "bad/empty_bw.1.log", .rc = -EINVAL, .reason = "no write samples" },
	{ .file = "bad/avg_iops.1.log", .rc = -EINVAL, .reason = "averaged IOPS log has no block size" },
	{ .file = "bad/missing.csv", .rc = -ENOENT, .reason = "No such file" },
};

/* Integral of a CSV's MiB/s: rows of one time summed, the first interval as long as the second. */
static double csv_total_mib(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	double t[1024], v[1024], sum = 0, tt, vv;
	size_t n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && n < 1024) {
		if (sscanf(line, "%lf,%lf", &tt, &vv) != 2)
			continue;
		if (n && tt == t[n - 1]) {
			v[n - 1] += vv;
		} else {
			t[n] = tt;
			v[n++] = vv;
		}
	}
	fclose(f);
	assert_true(n >= 2);
	for (size_t i = 0; i < n; i++)
		sum += v[i] * (i ? t[i] - t[i - 1] : t[1] - t[0]);
	return sum;
}

static void test_files(void **state)
{
	for (size_t i = 0; i < sizeof(file_cases) / sizeof(file_cases[0]); i++) {
		const struct file_case *c = &file_cases[i];
		struct slc_input *in = NULL;
		char path[512], err[256] = "";
		int rc;

		snprintf(path, sizeof(path), "%s/import/%s", TESTDATA_DIR, c->file);
		rc = slc_input_load(&in, path, err, sizeof(err));
		if (rc != c->rc)
			fail_msg("%s: rc %d, expected %d (%s)", c->file, rc, c->rc, err);
		if (rc) {
			assert_null(in);
			if (!strstr(err, c->reason))
				fail_msg("%s: reason '%s' lacks '%s'", c->file, err, c->reason);
			assert_null(strchr(err, '\n'));
			continue;
		}
		assert_int_equal(in->n_segments, 1);
		{
			const struct slc_input_segment *s = &in->segments[0];
			uint64_t want_last = c->last_bytes;

			if (strncmp(c->file, "realdata/", 9) == 0)
				want_last = (uint64_t)llround(csv_total_mib(path) * MiB);
			if (s->n_samples != c->n_samples)
				fail_msg("%s: %zu samples, expected %zu", c->file, s->n_samples, c->n_samples);
			assert_true(fabs(s->t_s[0] - c->first_t_s) < 1e-9);
			assert_true(fabs(s->interval_s[0] - c->interval_s) < 1e-9);
			if (s->bytes_total[s->n_samples - 1] != want_last)
				fail_msg("%s: %llu bytes, expected %llu", c->file,
					 (unsigned long long)s->bytes_total[s->n_samples - 1], (unsigned long long)want_last);
			assert_int_equal(s->ios[0], c->first_ios);
			assert_int_equal(s->params.jobs, c->jobs);
			assert_int_equal(s->params.block_bytes, c->block_bytes);
			assert_string_equal(s->params.step, "import");
			assert_true(isnan(s->lat_p99_us[0]) && isnan(s->temp_c[0]));
		}
		if (c->notes) {
			if (!in->import_notes || !strstr(in->import_notes, c->notes))
				fail_msg("%s: notes '%s' lack '%s'", c->file, in->import_notes ? in->import_notes : "",
					 c->notes);
		}
		slc_input_free(in);
	}
}

struct text_case {
	const char *name;
	const char *text;
	int rc;
	const char *reason;
	size_t n_samples;
	double last_bw_bps;
};

static const struct text_case text_cases[] = {
	/* headers naming time and throughput with units */
	{ "a.csv", "second,write_MiB_s\n1,1\n2,2\n", 0, NULL, 2, 2 * MiB },
	{ "a.csv", "time_s,bytes_per_s\n1,5\n2,7\n", 0, NULL, 2, 7 },
	{ "a.csv", "t_ms,MBps\n1000,1\n2000,3\n", 0, NULL, 2, 3e6 },
	{ "a.csv", "Time (s),Throughput (MB/s)\n1,1\n2,3\n", 0, NULL, 2, 3e6 },
	{ "a.csv", "time_us,GiB/s\n1000000,1\n2000000,2\n", 0, NULL, 2, 2 * 1073741824.0 },
	{ "a.csv", "elapsed_s,kB_s\r\n1,1\r\n2,2\r\n", 0, NULL, 2, 2000 },
	{ "a.csv", "second,read_MiB_s,write_MiB_s\n1,9,1\n2,9,2\n", 0, NULL, 2, 2 * MiB },
	{ "a.csv", "\"second\",\"write_MiB_s\"\n\"1\",\"1\"\n\"2\",\"4\"\n", 0, NULL, 2, 4 * MiB },
	{ "a.csv", "second,write_MiB_s\n1,1\n\n# gap\n2,2\n", 0, NULL, 2, 2 * MiB },
	{ "a.csv", "second,write_MiB_s\n1,1\n1,1\n2,2\n2,3\n", 0, NULL, 2, 5 * MiB },
	{ "a.csv", "second,op,write_MiB_s\n1,read,1\n1,write,1\n2,write,2\n2,trim,3\n", 0, NULL, 2, 2 * MiB },
	{ "a.csv", "second,write_MiB_s\n1,0\n5,0\n", 0, NULL, 2, 0 },
	/* bad */
	{ .name = "a.csv", .text = "", .rc = -EINVAL, .reason = "empty file" },
	{ .name = "a.csv", .text = "\n\n# only comments\n", .rc = -EINVAL, .reason = "empty file" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,-5\n2,1\n", .rc = -EINVAL, .reason = "throughput out of range" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,nan\n2,1\n", .rc = -EINVAL, .reason = "not a number" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,inf\n2,1\n", .rc = -EINVAL, .reason = "not a number" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n-1,1\n2,1\n", .rc = -EINVAL, .reason = "time out of range" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1e20,1\n2e20,1\n", .rc = -EINVAL, .reason = "time out of range" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,1e400\n", .rc = -EINVAL, .reason = "not a number" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n0,900000000\n1e9,900000000\n", .rc = -ERANGE, .reason = "total bytes overflow" },
	{ .name = "a.csv", .text = "second,write_Gbps\n1,1\n2,1\n", .rc = -EINVAL, .reason = "bits per second" },
	{ .name = "a.csv", .text = "second,dir,write_MiB_s\n1,sideways,1\n", .rc = -EINVAL, .reason = "unknown direction" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,1\n2\n", .rc = -EINVAL, .reason = "1 fields, the header has 2" },
	{ .name = "a.csv", .text = "second,write_MiB_s\n1,1 2\n", .rc = -EINVAL, .reason = "not a number" },
	/* fio */
	{ "j_bw.1.log", "1000, 1024, 1, 0\n2000, 2048, 1, 0\n", 0, NULL, 2, 2048 * 1024.0 },
	{ "j_iops.1.log", "5, 1, 1, 4096, 0\n6, 1, 1, 4096, 0\n", 0, NULL, 1, 8192 },
	{ "noname.log", "1000, 1024, 1, 0, 0\n2000, 1024, 1, 0, 0\n", 0, NULL, 2, 1024 * 1024.0 },
	/* log_unix_epoch: times made relative to the first line */
	{ "e_bw.1.log", "1700000001000, 1024, 1, 0\n1700000002000, 2048, 1, 0\n", 0, NULL, 2, 2048 * 1024.0 },
	{ .name = "j_bw.1.log", .text = "1000, 1024, 1\n", .rc = -EINVAL, .reason = "expected 'msec, value, ddir, bs" },
	{ .name = "j_bw.1.log", .text = "1000, 1024, 5, 0\n", .rc = -EINVAL, .reason = "direction must be 0, 1 or 2" },
	{ .name = "j_bw.1.log", .text = "1000, 1024, 1, -4\n", .rc = -EINVAL, .reason = "block size out of range" },
	{ .name = "j_bw.1.log", .text = "1000, 1e30, 1, 0\n", .rc = -EINVAL, .reason = "value out of range" },
	{ .name = "j_bw.1.log", .text = "1000, 1, 1, 0\n2000, 1, 1, 4096\n", .rc = -EINVAL, .reason = "mix" },
	{ .name = "j_bw.1.log", .text = "1, 1, 1, 4096\n1e11, 1, 1, 4096\n", .rc = -EINVAL, .reason = "time span too long" },
	/* the rate of every importer's samples against the trace's limit (1 PB/s): an averaged IOPS log
	 * (its values times the block size), a diskstats log (sectors over the snapshots' time) */
	{ .name = "j_iops.1.log", .text = "1000, 1e11, 1, 1048576\n2000, 1e11, 1, 1048576\n3000, 1e11, 1, 1048576\n",
	  .rc = -EINVAL, .reason = "j_iops.1.log: sample 0 is faster than 1e+15 bytes/s" },
	{ .name = "ds.log", .text = "1 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1 0 0 0 0\n2 8 0 sda 1 0 8 1 20 0 9000000000000 5 0 1 1 "
	  "0 0 0 0\n3 8 0 sda 1 0 8 1 30 0 9000000001000 5 0 1 1 0 0 0 0\n", .rc = -EINVAL,
	  .reason = "ds.log: sample 0 is faster than 1e+15 bytes/s" },
	{ .name = "j_bw.1.log", .text = "1000, 1, 1, 2147483648\n", .rc = -EINVAL, .reason = "block size out of range" },
	/* the segment's parameters against the same table: a 1 ns sampling interval */
	{ .name = "ns.csv", .text = "t_ns,MBps\n1,1\n2,1\n3,1\n", .rc = -ERANGE,
	  .reason = "ns.csv: the interval_s read, 1.0000000000000001e-09, is out of range (1 us to" },
};

static void test_texts(void **state)
{
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		const struct text_case *c = &text_cases[i];
		struct slc_input *in = NULL;
		char err[256] = "";
		int rc = slc_input_parse_text(&in, c->name, c->text, strlen(c->text), NULL, err, sizeof(err));

		if (rc != c->rc)
			fail_msg("case %zu: rc %d, expected %d (%s)", i, rc, c->rc, err);
		if (rc) {
			assert_null(in);
			if (!strstr(err, c->reason))
				fail_msg("case %zu: reason '%s' lacks '%s'", i, err, c->reason);
			continue;
		}
		if (in->segments[0].n_samples != c->n_samples)
			fail_msg("case %zu: %zu samples, expected %zu", i, in->segments[0].n_samples, c->n_samples);
		if (fabs(in->segments[0].bw_bps[c->n_samples - 1] - c->last_bw_bps) > 1e-6 * (1 + c->last_bw_bps))
			fail_msg("case %zu: last bw %g, expected %g", i, in->segments[0].bw_bps[c->n_samples - 1],
				 c->last_bw_bps);
		slc_input_free(in);
	}
}

/* A per-I/O log binned at 250 ms instead of 1 s. */
static void test_bin_option(void **state)
{
	static const char text[] = "100, 1, 1, 4096, 0\n300, 1, 1, 4096, 0\n900, 1, 1, 4096, 0\n";
	struct slc_import_opts o = { .bin_s = 0.25 };
	struct slc_input *in = NULL;
	char err[256];

	assert_int_equal(slc_input_parse_text(&in, "x_bw.1.log", text, strlen(text), &o, err, sizeof(err)), 0);
	assert_int_equal(in->segments[0].n_samples, 4);
	assert_true(fabs(in->segments[0].t_s[0] - 0.25) < 1e-12);
	assert_int_equal(in->segments[0].ios[2], 0);
	assert_int_equal(in->segments[0].bytes_total[3], 3 * 4096);
	slc_input_free(in);
}

/*
 * An averaged log whose first line comes 1.4 steps after the job's start:
 * the line's average counts for one step like every first line whose
 * window the file does not state, so the first sample's rate is the line's
 * (read over the 1.4 s since the start, it came out 1.4 times the rest: a
 * false cache).
 */
static void test_first_line_window(void **state)
{
	static const char text[] = "1400, 1024, 1, 0\n2400, 1024, 1, 0\n3400, 1024, 1, 0\n4400, 1024, 1, 0\n";
	struct slc_input *in = NULL;
	char err[256];

	(void)state;
	assert_int_equal(slc_input_parse_text(&in, "late_bw.1.log", text, strlen(text), NULL, err, sizeof(err)), 0);
	assert_int_equal(in->segments[0].n_samples, 4);
	for (size_t i = 0; i < 4; i++)
		if (fabs(in->segments[0].bw_bps[i] - MiB) > 1e-6 * MiB)
			fail_msg("sample %zu: %g B/s, expected %g", i, in->segments[0].bw_bps[i], MiB);
	slc_input_free(in);
}

/*
 * The _lat logs of a section's jobs come with its _bw log: each sample's
 * write_lat_mean_us is the mean of the jobs' lines (ns) in it, reads
 * skipped; the last partial window, which only the latency log has, is
 * dropped.  The _clat log is not read.
 */
static void test_fio_lat(void **state)
{
	static const double want_us[] = { 2500, 2500, 4500, 4500 };
	struct slc_input *in = NULL;
	char path[512], err[256] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/import/sect_bw.3.log", TESTDATA_DIR);
	if (slc_input_load(&in, path, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	assert_int_equal(in->segments[0].n_samples, 4);
	for (size_t i = 0; i < 4; i++)
		if (fabs(in->segments[0].write_lat_mean_us[i] - want_us[i]) > 1e-9)
			fail_msg("sample %zu: %g us, expected %g", i, in->segments[0].write_lat_mean_us[i], want_us[i]);
	assert_non_null(strstr(in->import_record, "\"lat_logs\":2"));
	slc_input_free(in);
}

/* @path refused at once (never opened for a blocking read) with a reason holding @reason. */
static void refused_input(const char *path, const char *reason)
{
	struct slc_input *in = (struct slc_input *)1;
	char err[512] = "";

	assert_int_not_equal(slc_input_load(&in, path, err, sizeof(err)), 0);
	assert_null(in);
	if (!strstr(err, reason))
		fail_msg("%s: reason '%s' lacks '%s'", path, err, reason);
	assert_null(strchr(err, '\n'));
}

/* Inputs that are not regular files are refused by what they are; names that are not UTF-8 escaped. */
static void test_not_regular(void **state)
{
	char dir[] = "/tmp/slc_test_import.XXXXXX", fifo[64], bad[64], esc[64];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo.csv", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	refused_input(fifo, "is a FIFO, not a regular file");
	refused_input(dir, "is a directory, not a regular file");
	refused_input("/dev/null", "is a character device, not a regular file");
	/* a fio job's sibling log that is a FIFO: refused too, not waited on */
	snprintf(bad, sizeof(bad), "%s/j_bw.1.log", dir);
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("1000, 1024, 1, 0\n2000, 1024, 1, 0\n", f);
	fclose(f);
	snprintf(fifo, sizeof(fifo), "%s/j_bw.2.log", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	refused_input(bad, "j_bw.2.log: not a regular file");
	unlink(fifo);
	unlink(bad);
	snprintf(bad, sizeof(bad), "%s/bad\xff\x1b.csv", dir);
	snprintf(esc, sizeof(esc), "%s/bad\\xff\\x1b.csv", dir);
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("second,write_MiB_s\n1,-5\n2,1\n", f);
	fclose(f);
	refused_input(bad, esc);
	unlink(bad);
	unlink(fifo);
	snprintf(fifo, sizeof(fifo), "%s/fifo.csv", dir);
	unlink(fifo);
	assert_int_equal(rmdir(dir), 0);
}

/* The import's --cell takes exactly the cell types the analysis knows by
 * name (the two libraries keep their own lists: core does not link the
 * analysis), and stores the analysis's spelling. */
static void test_cell_names_agree(void **state)
{
	static const char *const others[] = { "unknown", "plc", "", "tlc2", "s" };
	struct slc_import_opts o;
	char err[256], upper[16];
	int accepted = 0;
	(void)state;

	for (int c = SLC_CELL_SLC; c <= SLC_CELL_QLC; c++) {
		const char *name = slc_cell_name((enum slc_cell)c);
		size_t i;

		for (i = 0; name[i] && i + 1 < sizeof(upper); i++)
			upper[i] = (char)(name[i] - 'a' + 'A');
		upper[i] = 0;
		slc_import_opts_init(&o);
		assert_int_equal(slc_import_opts_set(&o, "cell", upper, err, sizeof(err)), 0);
		assert_string_equal(o.cell, name);
		assert_int_equal(slc_cell_from_name(o.cell), c);
		accepted++;
	}
	assert_int_equal(accepted, 4);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		slc_import_opts_init(&o);
		assert_int_not_equal(slc_import_opts_set(&o, "cell", others[i], err, sizeof(err)), 0);
		assert_non_null(strstr(err, "--cell"));
	}
}

/* slc_import_opts_check(): a trace keeps its own records of the drive, so
 * --capacity or --cell for one is refused with its name; a log takes them,
 * and a trace without them passes. */
static void test_opts_check(void **state)
{
	struct slc_import_opts o;
	struct slc_input in = { .format = SLC_INPUT_TRACE, .source = "run.h5" };
	char err[256] = "";

	(void)state;
	slc_import_opts_init(&o);
	assert_int_equal(slc_import_opts_check(&o, &in, err, sizeof(err)), 0);
	assert_int_equal(slc_import_opts_set(&o, "capacity", "240G", err, sizeof(err)), 0);
	assert_int_equal(slc_import_opts_check(&o, &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "run.h5 is a slcscope trace"));
	slc_import_opts_init(&o);
	assert_int_equal(slc_import_opts_set(&o, "cell", "tlc", err, sizeof(err)), 0);
	assert_int_equal(slc_import_opts_check(&o, &in, err, sizeof(err)), -EINVAL);
	in.format = SLC_INPUT_FIO;
	assert_int_equal(slc_import_opts_check(&o, &in, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_bin_option),
		cmocka_unit_test(test_first_line_window),
		cmocka_unit_test(test_fio_lat),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_cell_names_agree),
		cmocka_unit_test(test_opts_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
