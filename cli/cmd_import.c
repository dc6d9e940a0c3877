// SPDX-License-Identifier: MIT
/* slcscope import: turn a fio log or a CSV (or a trace) into a trace file. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slcscope/core.h"
#include "slcscope/trace.h"

static void import_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope import INPUT -o FILE.h5 [--bin DURATION]\n"
		"\n"
		"Read INPUT and write it as a slcscope trace (HDF5, docs/trace-format.md).\n"
		"INPUT is one of:\n"
		"  fio logs   NAME_bw.N.log or NAME_iops.N.log from write_bw_log/write_iops_log;\n"
		"             all jobs N = 1, 2, ... beside it are merged by summing on a\n"
		"             common time grid; only writes (ddir 1) count; bw values in KiB/s.\n"
		"             With log_avg_msec the grid is the logging interval; without it\n"
		"             every I/O is binned into intervals of --bin.\n"
		"  CSV        a header naming a time column with its unit (second, time_s,\n"
		"             t_ms, ...) and a throughput column with its unit (write_MiB_s,\n"
		"             MBps, bytes_per_s, KiB/s, ...; MB = 10^6 bytes, MiB = 2^20;\n"
		"             Mb/Gbps (bits) are refused). A direction column (ddir, rw, op)\n"
		"             keeps only write rows. Rows that repeat the previous time are\n"
		"             summed. Each row's time is the end of its interval.\n"
		"  trace      a slcscope trace (copied, with its analysis results).\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   trace to write (required); written under a temporary\n"
		"                      name and renamed, so a failure leaves nothing behind\n"
		"  -b, --bin DURATION  interval for per-I/O fio logs (default 1s; e.g. 500ms)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Prints the number of samples, bytes written (binary units) and mean\n"
		"throughput. Exit status: 0 success, 1 bad or unreadable input, 2 usage.\n");
}

static void print_summary(const struct slc_input *in, const char *out_path)
{
	char b1[32], b2[32], b3[32];
	size_t n = 0;
	double bytes = 0, secs = 0;

	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_input_segment *s = &in->segments[i];

		n += s->n_samples;
		if (s->n_samples) {
			bytes += (double)s->bytes_total[s->n_samples - 1];
			secs += s->t_s[s->n_samples - 1];
		}
	}
	printf("%s: %zu segment(s), %zu samples, %s written in %s, mean %s\n", out_path, in->n_segments, n,
	       slc_format_bytes(b1, sizeof(b1), bytes, SLC_UNITS_BINARY),
	       slc_format_duration(b2, sizeof(b2), (uint64_t)llround(secs * 1e9)),
	       slc_format_rate(b3, sizeof(b3), secs > 0 ? bytes / secs : 0, SLC_UNITS_BINARY));
	if (in->import_notes)
		printf("note: %s\n", in->import_notes);
}

static int import_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "bin", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	struct slc_import_opts io = { 1.0 };
	const char *out_path = NULL;
	struct slc_input *in = NULL;
	char err[256], cmdline[4096];
	uint64_t ns;
	int c, rc;

	opterr = 0;
	cli_command_line(cmdline, sizeof(cmdline), argc, argv);    /* before getopt permutes argv */
	while ((c = getopt_long(argc, argv, "o:b:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'b':
			if (slc_parse_duration_ns(&ns, optarg, err, sizeof(err))) {
				rc = cli_usage("import", "--bin: %s", err);
				goto out;
			}
			if (ns < 1000000 || ns > 86400000000000ull) {
				rc = cli_usage("import", "--bin must be between 1ms and 1d");
				goto out;
			}
			io.bin_s = (double)ns / 1e9;
			break;
		default:
			rc = cli_usage("import", "unknown or incomplete option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	if (optind != argc - 1) {
		rc = cli_usage("import", "give exactly one INPUT");
		goto out;
	}
	if (!out_path) {
		rc = cli_usage("import", "-o FILE.h5 is required");
		goto out;
	}
	if (slc_input_load_opts(&in, argv[optind], &io, err, sizeof(err)) ||
	    slc_input_write_trace(in, out_path, cmdline, err, sizeof(err))) {
		rc = cli_fail("import", "%s", err);
		goto out;
	}
	print_summary(in, out_path);
	rc = CLI_OK;
out:
	slc_input_free(in);
	return rc;
}

const struct cli_cmd cli_cmd_import = {
	.name = "import",
	.summary = "convert a fio log or CSV into a trace file (HDF5)",
	.run = import_run,
	.help = import_help,
};
