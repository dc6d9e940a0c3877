// SPDX-License-Identifier: MIT
/* slcscope report: a directory with everything an article needs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

static void report_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope report INPUT -o DIR [--binary] [--quiet]\n"
		"\n"
		"Analyse INPUT (a trace, fio log or CSV) and write into DIR: index.html (one\n"
		"self-contained page, graphs inline), summary.md (for article authors),\n"
		"phases.json (docs/phases-json.md), phases.csv, samples.csv, and a graph of\n"
		"every write curve as SVG and PNG (curve-N-STEP.svg/.png).\n"
		"\n"
		"Options:\n"
		"  -o, --output DIR   the report directory (created if missing)\n"
		"      --binary       GiB and MiB/s instead of GB and MB/s\n"
		"      --quiet        do not list the files written\n");
}

static int cmd_report(int argc, char **argv)
{
	enum { O_BINARY = 256, O_QUIET };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "binary", no_argument, NULL, O_BINARY },
		{ "quiet", no_argument, NULL, O_QUIET }, { NULL, 0, NULL, 0 },
	};
	struct slc_session x = { 0 };
	const char *dir = NULL;
	char err[512];
	int opt, binary = 0, quiet = 0, rc;

	while ((opt = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': dir = optarg; break;
		case O_BINARY: binary = 1; break;
		case O_QUIET: quiet = 1; break;
		default: return cli_usage("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage("report", optind >= argc ? "needs an INPUT" : "takes one INPUT");
	if (!dir)
		return cli_usage("report", "needs -o DIR");
	if ((rc = cli_load(&x, "report", (const char *const *)&argv[optind], 1, NULL, -1, NULL)))
		return rc;
	if ((rc = slc_report_write(dir, &x, binary, quiet ? NULL : stderr, err, sizeof(err))))
		cli_fail("report", "%s", err);
	slc_session_free(&x);
	return rc ? CLI_FAIL : CLI_OK;
}

const struct cli_cmd cli_cmd_report = {
	.name = "report",
	.summary = "write a report directory: HTML page, Markdown summary, JSON, CSV, graphs",
	.run = cmd_report,
	.help = report_help,
};
