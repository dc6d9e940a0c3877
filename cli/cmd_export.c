// SPDX-License-Identifier: MIT
/* slcscope export: print a trace (or an importable input) as CSV, JSON or a tidy table. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "slcscope/session.h"

static const struct slc_help_cmd export_doc = {
	.name = "export",
	.summary = "print a trace's samples and parameters as CSV or JSON, or a tidy table",
	.usage = "export INPUT --csv|--json|--tidy [-o FILE] [import options]",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Print the samples and segment parameters of INPUT (a trace, or anything\n"
			  "'slcscope import' reads, with the same import options).\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "csv", 0, NULL, SLC_EXPORT_CSV + 1, "CSV: '#' lines with the source and each segment's\n"
			  "parameters, then one row per sample with the columns\n"
			  "segment, t_s (s), interval_s (s), bytes_total (bytes,\n"
			  "cumulative), ios (count), write_bytes_per_s (bytes/s),\n"
			  "lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us (us),\n"
			  "temp_c (degrees C), read_bytes_total (bytes), read_ios,\n"
			  "read_bytes_per_s (bytes/s), writer_cpu and writer_wait\n"
			  "(shares of a core: on it, waiting for it);\n"
			  "unknown values are empty", NULL },
			{ "json", 0, NULL, SLC_EXPORT_JSON + 1, "one JSON document: metadata, segments with parameters,\n"
			  "sample columns (same names and units; unknown = null),\n"
			  "events, stored analyses, what an import read (\"import\")", NULL },
			{ "tidy", 0, NULL, SLC_EXPORT_TIDY + 1, "CSV for pandas and R: one row per sample with its step,\n"
			  "plan, workload, MB/s, IOPS, latencies, temperature and\n"
			  "analysed phase; unknown values empty (docs/import.md)", NULL },
			{ "output", 'o', "FILE", 'o', "write to FILE (via a temporary name) instead of stdout", NULL },
			{ "force", 0, NULL, 'F', "replace FILE even when it holds another format", NULL },
			{ "help", 'h', NULL, 'h', "show this help", NULL },
			{ "bin", 0, "DURATION", CLI_OPT_IMPORT, "per-I/O fio logs, iostat without -t: interval (1s)", "@none" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Import options (as slcscope import)", .opt = cli_import_opts },
		{ .text = "Exit status: 0 success, 1 bad or unreadable input or output refused, 2 usage.\n" },
		{ 0 },
	},
};

static int export_run(int argc, char **argv)
{
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_TEXT, .stdout_ok = 1 };
	const char *out_path = "-";
	char err[256];
	struct slc_import_opts io = { .bin_s = 0 };
	int c, li, fmt = 0, rc;
	const char *letters;
	const struct option *opts = cli_getopt(&export_doc, &letters);

	while ((c = getopt_long(argc, argv, letters, opts, &li)) != -1) {
		switch (c) {
		case SLC_EXPORT_CSV + 1:
		case SLC_EXPORT_JSON + 1:
		case SLC_EXPORT_TIDY + 1:
			if (fmt && fmt != c)
				return cli_usage("export", "--csv, --json and --tidy exclude each other");
			fmt = c;
			break;
		case 'o': out_path = optarg; break;
		case 'F': oo.force = 1; break;
		case CLI_OPT_IMPORT:
			if ((rc = cli_import_opt("export", &io, opts[li].name, optarg)))
				return rc;
			break;
		default:
			return cli_bad_option("export", opts, argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage("export", "give exactly one INPUT");
	if (!fmt)
		return cli_usage("export", "choose --csv, --json or --tidy");
	oo.inputs = (const char *const *)argv + optind;
	oo.n_inputs = 1;
	rc = slc_session_export(argv[optind], &io, (enum slc_export_format)(fmt - 1), out_path, &oo, err, sizeof(err));
	return rc ? cli_fail("export", "%s", err) : CLI_OK;
}

const struct cli_cmd cli_cmd_export = {
	.doc = &export_doc,
	.run = export_run,
};
