// SPDX-License-Identifier: MIT
/* slcscope export: print a trace (or an importable input) as CSV or JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "slcscope/trace.h"

static void export_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope export INPUT --csv|--json [-o FILE]\n"
		"\n"
		"Print the samples and segment parameters of INPUT (a trace, or anything\n"
		"'slcscope import' reads).\n"
		"\n"
		"Options:\n"
		"  --csv              CSV: '#' lines with the source and each segment's\n"
		"                     parameters, then one row per sample with the columns\n"
		"                     segment, t_s (s), interval_s (s), bytes_total (bytes,\n"
		"                     cumulative), ios (count), write_bytes_per_s (bytes/s),\n"
		"                     lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us (us),\n"
		"                     temp_c (degrees C); unknown values are empty\n"
		"  --json             one JSON document: metadata, segments with parameters,\n"
		"                     sample columns (same names and units; unknown = null),\n"
		"                     events and stored analysis results\n"
		"  -o, --output FILE  write to FILE (via a temporary name, renamed when\n"
		"                     complete) instead of standard output\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit status: 0 success, 1 bad or unreadable input, 2 usage.\n");
}

static int export_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = NULL;
	struct slc_input *in = NULL;
	char err[256], *tmp = NULL;
	FILE *out = stdout;
	int c, fmt = 0, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'j':
			if (fmt && fmt != c)
				return cli_usage("export", "--csv and --json exclude each other");
			fmt = c;
			break;
		case 'o':
			out_path = optarg;
			break;
		default:
			return cli_usage("export", "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage("export", "give exactly one INPUT");
	if (!fmt)
		return cli_usage("export", "choose --csv or --json");
	rc = slc_input_load(&in, argv[optind], err, sizeof(err));
	if (rc)
		return cli_fail("export", "%s", err);
	if (out_path) {
		size_t n = strlen(out_path) + 32;

		tmp = malloc(n);
		if (!tmp) {
			slc_input_free(in);
			return cli_fail("export", "out of memory");
		}
		snprintf(tmp, n, "%s.tmp.%ld", out_path, (long)getpid());
		out = fopen(tmp, "w");
		if (!out) {
			rc = errno;
			free(tmp);
			slc_input_free(in);
			return cli_fail("export", "cannot create %s: %s", out_path, strerror(rc));
		}
	}
	rc = fmt == 'c' ? slc_input_export_csv(in, out) : slc_input_export_json(in, out);
	slc_input_free(in);
	if (out_path) {
		if (fclose(out) != 0 && !rc)
			rc = -EIO;
		if (!rc && rename(tmp, out_path) < 0)
			rc = -errno;
		if (rc)
			unlink(tmp);
		free(tmp);
	} else if (fflush(stdout) != 0 && !rc) {
		rc = -EIO;
	}
	if (rc)
		return cli_fail("export", "cannot write %s: %s", out_path ? out_path : "standard output", strerror(-rc));
	return CLI_OK;
}

const struct cli_cmd cli_cmd_export = {
	.name = "export",
	.summary = "print a trace's samples and parameters as CSV or JSON",
	.run = export_run,
	.help = export_help,
};
