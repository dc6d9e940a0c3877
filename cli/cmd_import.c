// SPDX-License-Identifier: MIT
/* slcscope import: turn what other tools recorded (or a trace) into a trace file. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "slcscope/trace.h"

static const struct slc_help_cmd import_doc = {
	.name = "import",
	.summary = "convert fio, iostat, dd or CSV records (or a trace) into a trace file (HDF5)",
	.usage = "import INPUT... -o FILE.h5 [options]",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Write INPUT as a slcscope trace (docs/trace-format.md); several INPUTs (per-job\n"
			  "files of one run) are summed on a common grid. Formats, told by content\n"
			  "(recipes and rules: docs/import.md):\n"
			  "  fio log    fio ... --write_bw_log=run [--log_avg_msec=1000]: run_bw.1.log;\n"
			  "             its jobs N and _iops logs are summed; offset, prio columns read\n"
			  "  fio JSON   fio ... --output-format=json --status-interval=1 --output=run.json\n"
			  "  CSV, time  second,write_MiB_s | time_ms;MBps | \"Time (s)\",\"Speed (MB/s)\"\n"
			  "  CSV, bytes written_GB,MiBs | pos_%,MB_per_s (with --capacity) | chunk files\n"
			  "             N,MB,min,avgMin,avg,avgMax,max (MiB); time is derived\n"
			  "  iostat     iostat -d -k 1 >io.txt | iostat -x -d -y -t 1 >io.txt\n"
			  "  diskstats  while sleep 1; do sed \"s/^/$(date +%s.%N) /\" /proc/diskstats; done\n"
			  "  dd         dd if=/dev/zero of=F bs=1M oflag=direct status=progress 2>dd.txt\n"
			  "  trace      a slcscope trace (copied, with its analysis results)\n"
			  "CSV: RFC 4180 quotes, a BOM, ',' ';' or tab, decimal commas; units from the\n"
			  "header (MB = 10^6, MiB = 2^20, bits refused); writes only where a ddir, rw,\n"
			  "direction or op column says so; rows of one time are summed.\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "output", 'o', "FILE", 'o', "trace to write (required; via a temporary name)", NULL },
			{ "force", 0, NULL, 'F', "replace FILE even when it is not a trace", NULL },
			{ "bin", 'b', "DURATION", CLI_OPT_IMPORT, "per-I/O fio logs, iostat without -t: interval (1s)", "@none" },
			{ "cell", 0, "TYPE", CLI_OPT_IMPORT, "its cell type, slc, mlc, tlc or qlc, kept for analyze",
			  "slc mlc tlc qlc" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Import options", .opt = cli_import_opts },
		{ .text = "Prints samples, bytes, mean speed, notes and warnings (what the file did not\n"
			  "say outright). Exit status: 0 success, 1 bad or unreadable input, 2 usage.\n" },
		{ 0 },
	},
};

static int import_run(int argc, char **argv)
{
	struct slc_import_opts io;
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_TRACE };
	const char *out_path = NULL, *letters;
	struct slc_input *in = NULL;
	char err[256], cmdline[4096];
	int c, li, rc;
	const struct option *opts = cli_getopt(&import_doc, &letters);

	slc_import_opts_init(&io);
	cli_command_line(cmdline, sizeof(cmdline), argc, argv);    /* before getopt permutes argv */
	while ((c = getopt_long(argc, argv, letters, opts, &li)) != -1) {
		if (c == 'o')
			out_path = optarg;
		else if (c == 'F')
			oo.force = 1;
		else if (c != 'b' && c != CLI_OPT_IMPORT)
			return cli_bad_option("import", opts, argv[optind - 1]);
		else if ((rc = cli_import_opt("import", &io, c == 'b' ? "bin" : opts[li].name, optarg)))
			return rc;
	}
	if (optind >= argc)
		return cli_usage("import", "give at least one INPUT");
	if (!out_path)
		return cli_usage("import", "-o FILE.h5 is required");
	oo.inputs = (const char *const *)argv + optind;
	oo.n_inputs = (size_t)(argc - optind);
	if (slc_output_check(out_path, &oo, err, sizeof(err)))
		return cli_fail("import", "%s", err);
	if (slc_input_load_many(&in, oo.inputs, oo.n_inputs, &io, err, sizeof(err))) {
		slc_input_free(in);
		return cli_fail("import", "%s", err);
	}
	if ((rc = slc_import_opts_check(&io, in, err, sizeof(err))) ||
	    (rc = slc_input_write_trace_opts(in, out_path, cmdline, &oo, err, sizeof(err))))
		rc = cli_fail("import", "%s", err);
	else
		slc_input_print_summary(stdout, in, out_path);
	slc_input_free(in);
	return rc;
}

const struct cli_cmd cli_cmd_import = {
	.doc = &import_doc,
	.run = import_run,
};
