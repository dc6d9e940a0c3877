// SPDX-License-Identifier: MIT
/*
 * The importers' newer paths, in memory: the CSV reader (BOM, quotes,
 * separators, decimal commas, line ends), unit inference, the bytes axis,
 * columns named by options, fio logs told by their grid, --bs, fio JSON
 * reports, iostat, diskstats, dd, the import record, and sums of inputs.
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
#include <unistd.h>
#include <cmocka.h>

#include "slcscope/trace.h"

#define MiB 1048576.0

struct tcase {
	const char *name, *text;
	const char *opt[4];            /* key, value, key, value */
	int rc;
	const char *reason;            /* substring of the error, or of the record/warnings when rc == 0 */
	size_t n;
	double last_bytes, last_bw;    /* checked when > 0 / >= 0 */
};

static const struct tcase cases[] = {
	/* CSV reader */
	{ "a.csv", "\xEF\xBB\xBFsecond,write_MiB_s\r\n1,1\r\n2,2\r\n", { 0 }, 0, "\"bom\":\"utf-8\"", 2, 3 * MiB, 2 * MiB },
	{ "a.csv", "\"Time (s)\",\"Speed, write (MB/s)\",\"x\"\n1,5,\"a \"\"q\"\", b\"\n2,7,\"multi\nline\"\n", { 0 }, 0,
	  "Speed, write", 2, 12e6, 7e6 },
	{ "a.csv", "second,write_MiB_s\r1,1\r2,4\r", { 0 }, 0, NULL, 2, 5 * MiB, 4 * MiB },
	{ "a.csv", "Time (s);Write (MB/s)\n0,5;1,5\n1,0;2,5\n", { 0 }, 0, "\"separator\":\";\"", 2, 2e6, 2.5e6 },
	{ "a.csv", "time_s\twrite_MBps\n1\t1,5\n2\t2\n", { 0 }, 0, "\"separator\":\"tab\"", 2, 3.5e6, 2e6 },
	{ "a.csv", "second,write_MiB_s\n1,1.234,5\n", { 0 }, -EINVAL, "3 fields, the header has 2", 0, 0, 0 },
	{ "a.csv", "second,write_MiB_s\n1,\"1\n", { 0 }, -EINVAL, "line 2: a quoted field is never closed", 0, 0, 0 },
	/* units from names */
	{ "a.csv", "t,writeMibs\n1,1\n2,1\n", { 0 }, 0, NULL, 2, 2 * MiB, MiB },
	{ "a.csv", "t,mibps\n1,1\n2,1\n", { 0 }, 0, NULL, 2, 2 * MiB, MiB },
	{ "a.csv", "t,MB_per_s\n1,1\n2,1\n", { 0 }, 0, NULL, 2, 2e6, 1e6 },
	{ "a.csv", "t,kb/s\n1,1\n2,1\n", { 0 }, 0, NULL, 2, 2e3, 1e3 },
	{ "a.csv", "t,jobs,MBps\n1,4,1\n2,4,1\n", { 0 }, 0, NULL, 2, 2e6, 1e6 },
	/* a generic 'type' column is no direction; a named one must say read or write */
	{ "a.csv", "second,type,write_MiB_s\n1,ssd,1\n2,ssd,1\n", { 0 }, 0, NULL, 2, 2 * MiB, MiB },
	{ "a.csv", "second,op,write_MiB_s\n1,write,1\n2,ssd,1\n", { 0 }, -EINVAL,
	  "line 3: unknown direction 'ssd' in column 'op'", 0, 0, 0 },
	{ "a.csv", "second,type,write_MiB_s\n1,r,1\n2,w,1\n3,w,1\n", { "ddir-col", "type" }, 0, "\"direction\"", 2,
	  2 * MiB, MiB },
	/* refusals list what was seen and name the option */
	{ "a.csv", "Zeit,writeMiBs\n1,1\n", { 0 }, -EINVAL, "'Zeit,writeMiBs'; name one with --time-col", 0, 0, 0 },
	{ "a.csv", "second,speed\n1,1\n", { 0 }, -EINVAL, "'second,speed'; name it with --rate-col NAME:UNIT", 0, 0, 0 },
	{ "a.csv", "Zeit (s);Schreiben\n1;1\n2;3\n", { "time-col", "Zeit (s):s", "rate-col", "Schreiben:MB/s" }, 0,
	  "\"unit\":\"MB/s\"", 2, 4e6, 3e6 },
	{ "a.csv", "second,x\n1,1\n", { "rate-col", "y:MB/s" }, -EINVAL, "--rate-col 'y' is not in the header", 0, 0, 0 },
	/* the bytes axis */
	{ "a.csv", "written_GB,write_MBps\n0,1000\n1,500\n2,500\n", { 0 }, 0, "\"time_axis\":\"derived", 3, 3e9, 5e8 },
	{ "a.csv", "GB written,MiBs\n1,1\n2,2\n", { 0 }, 0, "end of the row", 2, 2e9, 2 * MiB },
	{ "a.csv", "MB,avg\n0,100\n76,100\n", { "bytes-col", "MB:MiB", "rate-col", "avg:MiB/s" }, 0, "MiB", 2,
	  152 * MiB, 100 * MiB },
	{ "c.csv", "N,MB,min,avgMin,avg,avgMax,max\n1,0,1,1,2000,1,1\n2,76,1,1,500,1,1\n", { 0 }, 0,
	  "chunk layout", 2, 152 * MiB, 500 * MiB },
	{ "a.csv", "pos_%,MB_per_s\n50,100\n100,50\n", { 0 }, -EINVAL, "give the drive's --capacity", 0, 0, 0 },
	{ "a.csv", "pos_%,MB_per_s\n50,100\n100,50\n", { "capacity", "1GB" }, 0, "capacity_bytes", 2, 1e9, 5e7 },
	{ "a.csv", "written_GB,MBps\n0,0\n1,1\n", { 0 }, -EINVAL, "line 2: speed 0 over", 0, 0, 0 },
	{ "a.csv", "written_GB,MBps\n1,1\n1,1\n", { 0 }, -EINVAL, "line 3: position does not increase", 0, 0, 0 },
	/* fio: an averaged log with its block sizes filled in is told by its grid, with a warning */
	{ "x_bw.1.log", "1000, 1914062, 1, 131072, 0\n2000, 1914062, 1, 131072, 0\n3000, 1914062, 1, 131072, 0\n"
	  "4000, 1914062, 1, 131072, 0\n", { 0 }, 0, "read as an averaged log", 4, 4 * 1914062 * 1024.0, 1914062 * 1024.0 },
	/* averaged lines cover the time since the line before: a late line holds more, a gap of over
	 * a step and a half is windows without writes (no line) */
	{ "x_bw.1.log", "500, 1000, 1, 0, 0\n1000, 1000, 1, 0, 0\n1650, 1000, 1, 0, 0\n2150, 1000, 1, 0, 0\n", { 0 }, 0,
	  NULL, 4, 2150 * 1024.0, 1000 * 1024.0 },
	{ "x_bw.1.log", "500, 1000, 1, 0, 0\n1000, 1000, 1, 0, 0\n1500, 1000, 1, 0, 0\n3000, 1000, 1, 0, 0\n", { 0 }, 0,
	  NULL, 6, 2000 * 1024.0, 1000 * 1024.0 },
	/* a per-I/O log on a grid (one I/O per interval, each as long as it) reads the same both ways */
	{ "x_bw.1.log", "1000, 128, 1, 131072, 0\n2000, 128, 1, 131072, 0\n3000, 128, 1, 131072, 0\n", { 0 }, 0,
	  "per-I/O", 4, 3 * 131072.0, 131072 },
	{ "x_iops.1.log", "1000, 100, 1, 0, 0\n2000, 100, 1, 0, 0\n", { 0 }, -EINVAL, "give --bs SIZE", 0, 0, 0 },
	{ "x_iops.1.log", "1000, 100, 1, 0, 0\n2000, 100, 1, 0, 0\n", { "bs", "128k" }, 0, "block_bytes_given", 2,
	  200 * 131072.0, 100 * 131072.0 },
	/* newer fio: a priority column, in hex with log_prio */
	{ "x_bw.1.log", "10, 5, 1, 4096, 0x4003\n20, 5, 1, 4096, 0x0000\n1500, 5, 1, 4096, 0x4003\n", { 0 }, 0,
	  "prio", 2, 3 * 4096.0, 4096 },
	{ "x_bw.1.log", "10, 5, 1, 4096, 8192, 0\n1500, 5, 1, 4096, 12288, 0\n", { 0 }, 0, "offset, prio", 2,
	  2 * 4096.0, 4096 },
	/* fio JSON reports */
	{ "r.json", "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":1000,\"write\":{\"io_bytes\":100}}]}\n"
	  "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":2000,\"write\":{\"io_bytes\":300}}]}\n", { 0 }, 0,
	  "fio-json", 2, 300, 200 },
	{ "r.json", "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":1000,\"write\":{\"io_bytes\":100}},"
	  "{\"job_runtime\":1000,\"write\":{\"io_bytes\":50}}]}\n{\"fio version\":\"x\",\"jobs\":[{\"job_runtime\":2000,"
	  "\"write\":{\"io_bytes\":300}},{\"job_runtime\":2000,\"write\":{\"io_bytes\":150}}]}\n", { 0 }, 0, "grid_s", 2,
	  450, 300 },
	{ "r.json", "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":1000,\"write\":{\"io_bytes\":100}}]}\n",
	  { 0 }, -EINVAL, "needs --status-interval", 0, 0, 0 },
	{ "r.json", "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":1000,\"write\":{\"io_bytes\":100}}]}\n"
	  "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"job_runtime\":2000,\"write\":{\"io_bytes\":300}}]}\n{\"fio ver",
	  { 0 }, 0, "fio-json", 2, 300, 200 },
	/* iostat: -d with the bytes of each report (the first, since boot, dropped), -x with --device */
	{ "io.txt", "Linux 6.1 (h) \t12/01/26 \t_x86_64_\t(2 CPU)\n\nDevice tps kB_read/s kB_wrtn/s kB_dscd/s kB_read "
	  "kB_wrtn kB_dscd\nsda 1 0 10.00 0 0 50000 0\nloop0 0 0 0 0 0 0 0\n\nDevice tps kB_read/s kB_wrtn/s kB_dscd/s "
	  "kB_read kB_wrtn kB_dscd\nsda 1 0 2048,00 0 0 2048 0\nloop0 0 0 0 0 0 0 0\n\nDevice tps kB_read/s kB_wrtn/s "
	  "kB_dscd/s kB_read kB_wrtn kB_dscd\nsda 1 0 1024.00 0 0 1024 0\nloop0 0 0 0 0 0 0 0\n", { 0 }, 0,
	  "\"device\":\"sda\"", 2, 3072 * 1024.0, 1024 * 1024.0 },
	{ "io.txt", "Device r/s rkB/s w/s wkB/s\nsda 0 0 1 1000\nsdb 0 0 1 1\n\nDevice r/s rkB/s w/s wkB/s\nsda 0 0 1 "
	  "1000\nsdb 0 0 1 1\n", { 0 }, -EINVAL, "several devices were written to (sda, sdb): give --device NAME", 0, 0, 0 },
	{ "io.txt", "12/01/26 08:00:00\nDevice r/s rkB/s w/s wkB/s\nsda 0 0 1 1000\nsdb 0 0 1 1\n\n12/01/26 08:00:02\n"
	  "Device r/s rkB/s w/s wkB/s\nsda 0 0 1 500\nsdb 0 0 1 1\n", { "device", "/dev/sda" }, 0, "\"interval_s\":2", 2,
	  3000 * 1024.0, 500 * 1024.0 },
	{ "io.txt", "Device r/s rkB/s w/s wkB/s\nsda 0 0 1 1.2M\n", { 0 }, -EINVAL, "record without -h", 0, 0, 0 },
	/* /proc/diskstats with a time prefix, and a time line before a whole snapshot */
	{ "ds.log", "100.0 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1 0 0 0 0\n100.0 7 0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	  "101.0 8 0 sda 1 0 8 1 20 0 3048 5 0 1 1 0 0 0 0\n102.0 8 0 sda 1 0 8 1 30 0 5096 5 0 1 1 0 0 0 0\n", { 0 },
	  0, "diskstats", 2, 4096 * 512.0, 2048 * 512.0 },
	{ "ds.log", "1700000000.5\n 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1\n1700000001.5\n 8 0 sda 1 0 8 1 20 0 1512 5 0 "
	  "1 1\n1700000002.5\n 8 0 sda 1 0 8 1 20 0 2024 5 0 1 1\n", { 0 }, 0, "sectors written", 2, 1024 * 512.0,
	  512 * 512.0 },
	{ "ds.log", "1 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1\n2 8 0 sda 1 0 8 1 10 0 999 5 0 1 1\n", { 0 }, -EINVAL,
	  "line 2: sectors written went down", 0, 0, 0 },
	/* a count past what a trace holds is said so, not taken for a time that does not increase */
	{ "ds.log", "1 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1\n2 8 0 sda 1 0 8 1 10 0 99999999999999999999 5 0 1 1\n", { 0 },
	  -EINVAL, "line 2: sectors written past 2^63 bytes", 0, 0, 0 },
	{ "ds.log", "2 8 0 sda 1 0 8 1 10 0 1000 5 0 1 1\n1 8 0 sda 1 0 8 1 10 0 2000 5 0 1 1\n", { 0 }, -EINVAL,
	  "line 2: time does not increase", 0, 0, 0 },
	/* dd status=progress: CR-separated progress, messages, records, the summary */
	{ "dd.txt", "\r734003200 bytes (734 MB, 700 MiB) copied, 1 s, 734 MB/s\r1241513984 bytes (1.2 GB, 1.2 GiB) "
	  "copied, 2 s, 620 MB/s\ndd: error writing '/dev/sdx': No space left on device\n1500+0 records in\n1500+0 "
	  "records out\n1572864000 bytes (1.6 GB, 1.5 GiB) copied, 2,5 s, 629 MB/s\n", { 0 }, 0, "\"format\":\"dd\"", 3,
	  1572864000.0, (1572864000.0 - 1241513984.0) / 0.5 },
	{ "dd.txt", "1000 bytes copied, 1 s, 1 kB/s\n500 bytes copied, 2 s, 1 kB/s\n", { 0 }, -EINVAL, "a second dd run", 0, 0, 0 },
};

static void set_opts(struct slc_import_opts *o, const char *const *kv)
{
	char err[256];

	slc_import_opts_init(o);
	for (int i = 0; i < 4 && kv[i]; i += 2)
		if (slc_import_opts_set(o, kv[i], kv[i + 1], err, sizeof(err)))
			fail_msg("option %s=%s: %s", kv[i], kv[i + 1], err);
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		struct slc_import_opts o;
		struct slc_input *in = NULL;
		char err[512] = "";
		int rc;

		set_opts(&o, c->opt);
		rc = slc_input_parse_text(&in, c->name, c->text, strlen(c->text), &o, err, sizeof(err));
		if (rc != c->rc)
			fail_msg("case %zu (%s): rc %d, expected %d (%s)", i, c->name, rc, c->rc, err);
		if (rc) {
			assert_null(in);
			if (!strstr(err, c->reason))
				fail_msg("case %zu: reason '%s' lacks '%s'", i, err, c->reason);
			assert_null(strchr(err, '\n'));
			continue;
		}
		{
			const struct slc_input_segment *s = &in->segments[0];
			char both[4096];

			snprintf(both, sizeof(both), "%s | %s", in->import_record ? in->import_record : "",
				 in->import_warnings ? in->import_warnings : "");
			assert_non_null(in->import_record);
			if (c->reason && !strstr(both, c->reason))
				fail_msg("case %zu: record/warnings '%s' lack '%s'", i, both, c->reason);
			if (s->n_samples != c->n)
				fail_msg("case %zu: %zu samples, expected %zu", i, s->n_samples, c->n);
			if (fabs((double)s->bytes_total[s->n_samples - 1] - c->last_bytes) > 1 + 1e-9 * c->last_bytes)
				fail_msg("case %zu: %llu bytes, expected %.0f", i,
					 (unsigned long long)s->bytes_total[s->n_samples - 1], c->last_bytes);
			if (fabs(s->bw_bps[s->n_samples - 1] - c->last_bw) > 1e-6 * (1 + c->last_bw))
				fail_msg("case %zu: last bw %g, expected %g", i, s->bw_bps[s->n_samples - 1], c->last_bw);
		}
		slc_input_free(in);
	}
}

static void test_options(void **state)
{
	struct slc_import_opts o;
	char err[256];

	(void)state;
	slc_import_opts_init(&o);
	assert_int_equal(slc_import_opts_set(&o, "--time-col", "t:ms", err, sizeof(err)), 0);
	assert_true(fabs(o.time_col.scale - 1e-3) < 1e-15);
	assert_int_equal(slc_import_opts_set(&o, "rate-col", "w:Mbps", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown unit 'Mbps'"));
	assert_int_equal(slc_import_opts_set(&o, "bytes-col", "p:%", err, sizeof(err)), 0);
	assert_true(o.bytes_col.scale < 0);
	assert_int_equal(slc_import_opts_set(&o, "bytes-col", ":MiB", err, sizeof(err)), -EINVAL);
	assert_int_equal(slc_import_opts_set(&o, "bs", "4k", err, sizeof(err)), 0);
	assert_int_equal(o.block_bytes, 4096);
	assert_int_equal(slc_import_opts_set(&o, "capacity", "1TB", err, sizeof(err)), 0);
	assert_true(o.capacity_bytes == 1000000000000ull);
	assert_int_equal(slc_import_opts_set(&o, "bin", "0", err, sizeof(err)), -EINVAL);
	assert_int_equal(slc_import_opts_set(&o, "color", "red", err, sizeof(err)), -ENOENT);
}

/* Per-job CSV files of another tool, summed on a common grid. */
static void test_sum(void **state)
{
	char dir[] = "/tmp/slcscope-sum.XXXXXX", a[64], b[64];
	const char *paths[2] = { a, b };
	struct slc_input *in = NULL;
	char err[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/0_log.csv", dir);
	snprintf(b, sizeof(b), "%s/1_log.csv", dir);
	f = fopen(a, "w");
	fputs("second,write_MiB_s\n1,100\n2,100\n3,100\n4,100\n", f);
	fclose(f);
	f = fopen(b, "w");
	fputs("time_ms,MiBps\n500,50\n1000,50\n1500,50\n2000,50\n", f);
	fclose(f);
	assert_int_equal(slc_input_load_many(&in, paths, 2, NULL, err, sizeof(err)), 0);
	assert_int_equal(in->format, SLC_INPUT_SUM);
	assert_int_equal(in->segments[0].n_samples, 8);           /* the finer grid, 0.5 s, over 4 s */
	assert_true(in->segments[0].bytes_total[7] == (uint64_t)(400 * MiB + 100 * MiB));
	assert_true(fabs(in->segments[0].bw_bps[0] - 150 * MiB) < 1);
	assert_true(fabs(in->segments[0].bw_bps[7] - 100 * MiB) < 1);
	assert_non_null(strstr(in->import_record, "\"format\":\"sum\""));
	assert_non_null(strstr(in->import_notes, "2 inputs summed"));
	slc_input_free(in);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
