// SPDX-License-Identifier: MIT
/* slcscope export: print a trace (or an importable input) as CSV, JSON or a tidy table. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "slcscope/session.h"

static void export_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope export INPUT --csv|--json|--tidy [-o FILE] [import options]\n"
		"\n"
		"Print the samples and segment parameters of INPUT (a trace, or anything\n"
		"'slcscope import' reads, with the same import options).\n"
		"\n"
		"Options:\n"
		"  --csv              CSV: '#' lines with the source and each segment's\n"
		"                     parameters, then one row per sample with the columns\n"
		"                     segment, t_s (s), interval_s (s), bytes_total (bytes,\n"
		"                     cumulative), ios (count), write_bytes_per_s (bytes/s),\n"
		"                     lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us (us),\n"
		"                     temp_c (degrees C), read_bytes_total (bytes), read_ios,\n"
		"                     read_bytes_per_s (bytes/s); unknown values are empty\n"
		"  --json             one JSON document: metadata, segments with parameters,\n"
		"                     sample columns (same names and units; unknown = null),\n"
		"                     events, stored analyses, what an import read (\"import\")\n"
		"  --tidy             CSV for pandas and R: one row per sample with its step,\n"
		"                     plan, workload, MB/s, IOPS, latencies, temperature and\n"
		"                     analysed phase; unknown values empty (docs/import.md)\n"
		"  -o, --output FILE  write to FILE (via a temporary name) instead of stdout\n"
		"      --force        replace FILE even when it holds another format\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit status: 0 success, 1 bad or unreadable input or output refused, 2 usage.\n");
}

static int export_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, SLC_EXPORT_CSV + 1 }, { "json", no_argument, NULL, SLC_EXPORT_JSON + 1 },
		{ "tidy", no_argument, NULL, SLC_EXPORT_TIDY + 1 },
		{ "output", required_argument, NULL, 'o' }, { "force", no_argument, NULL, 'F' },
		CLI_IMPORT_OPTIONS, { NULL, 0, NULL, 0 },
	};
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_TEXT, .stdout_ok = 1 };
	const char *out_path = "-";
	char err[256];
	struct slc_import_opts io = { .bin_s = 0 };
	int c, li, fmt = 0, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", opts, &li)) != -1) {
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
			return cli_usage("export", "unknown or incomplete option '%s'", argv[optind - 1]);
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
	.name = "export",
	.summary = "print a trace's samples and parameters as CSV or JSON, or a tidy table",
	.run = export_run,
	.help = export_help,
};
