// SPDX-License-Identifier: MIT
/* slcscope report: a directory with everything an article needs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

static void report_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope report INPUT... -o DIR [--pdf [--paper a4|letter]] [--binary] [--quiet] [--capacity SIZE]\n"
		"                       [--cell TYPE] [--state S]\n"
		"\n"
		"Analyse INPUT (a trace, fio log or CSV) and write into DIR: index.html (one\n"
		"self-contained page, graphs inline, readable on a phone), summary.md (its\n"
		"graphs linked), phases.json (docs/phases-json.md), phases.csv, samples.csv and\n"
		"every graph as SVG and PNG: the drive, its health before and after, the test\n"
		"conditions, the headline figures, each curve's phases.  With 2-8 INPUTs: a\n"
		"comparison report (the curves compared, small multiples, the phase figures).\n"
		"With --pdf also report.pdf: the same text, tables and graphs laid out for\n"
		"print, every graph drawn as vectors (sharp at any zoom, its text selectable).\n"
		"\n"
		"Options:\n"
		"  -o, --output DIR     the report directory: new, empty, or an earlier report\n"
		"  -l, --label TEXT     the next INPUT's name (comparison; default: model, capacity)\n"
		"  -t, --title TEXT     the comparison's title\n"
		"  -s, --segment ROLE   compare the first curve of ROLE (default: the random curve)\n"
		"      --capacity SIZE  the drive's size, where the INPUT does not say (a log)\n"
		"      --cell TYPE      slc, mlc, tlc or qlc: the drive's cell type (as analyze)\n"
		"      --state S        trimmed, used or unknown: the flash before segments the\n"
		"                       plan does not tell (as analyze); these three describe\n"
		"                       one drive: one INPUT only\n"
		"      --binary         GiB and MiB/s instead of GB and MB/s\n"
		"      --theme NAME     graphs' colours: default (colour-blind safe) or print (grays)\n"
		"      --pdf            write report.pdf too\n"
		"      --paper SIZE     report.pdf's paper: a4 (the default: the ISO size, used\n"
		"                       nearly everywhere) or letter (the US and Canada)\n"
		"      --quiet          do not list the files written\n");
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "binary", no_argument, NULL, 0 },
		{ "quiet", no_argument, NULL, 'q' }, { "label", required_argument, NULL, 'l' },
		{ "title", required_argument, NULL, 't' }, { "segment", required_argument, NULL, 's' },
		{ "capacity", required_argument, NULL, 1 }, { "cell", required_argument, NULL, 2 },
		{ "state", required_argument, NULL, 3 }, { "theme", required_argument, NULL, 0 },
		{ "pdf", no_argument, NULL, 0 }, { "paper", required_argument, NULL, 0 }, { NULL, 0, NULL, 0 },
	};
	struct slc_session_hints hints = { 0 };
	int drive_hint = 0;
	struct slc_figure_opts co = { 0 };
	struct slc_session *xs;
	const char *dir = NULL;
	char err[512];
	int opt, idx, quiet = 0, rc = 0, paper = 0;
	size_t n, k;

	while ((opt = getopt_long(argc, argv, "o:l:t:s:", opts, &idx)) != -1) {
		if (opt == 'o') dir = optarg;
		else if (opt == 'q') quiet = 1;
		else if (opt >= 1 && opt <= 3) {
			if (slc_session_hints_set(&hints, opts[idx].name, optarg, err, sizeof(err)))
				return cli_usage("report", "%s", err);
			drive_hint = 1;
		}
		else if (opt == '?') return cli_usage("report", "unknown option '%s'", argv[optind - 1]);
		else {
			paper |= opt == 0 && !strcmp(opts[idx].name, "paper");
			if (slc_figure_opts_set(&co, opt == 'l' ? "label" : opt == 't' ? "title" : opt == 's' ? "segment" :
						opts[idx].name, optarg ? optarg : "", err, sizeof(err)))
				return cli_usage("report", "%s", err);
		}
	}
	n = optind < argc ? (size_t)(argc - optind) : 0;
	if (!n || n > 8 || !dir)
		return cli_usage("report", !dir ? "needs -o DIR" : "takes 1 to 8 INPUTs");
	if (paper && !co.pdf)
		return cli_usage("report", "--paper is report.pdf's paper: give it with --pdf");
	if (drive_hint && n > 1)
		return cli_usage("report", "--capacity, --cell and --state describe one drive: give them with one INPUT");
	if (slc_report_dir_check(dir, (const char *const *)argv + optind, n, err, sizeof(err)))
		return cli_fail("report", "-o %s", err);
	if (!(xs = calloc(n, sizeof(*xs))))
		return cli_fail("report", "out of memory");
	for (k = 0; k < n && !rc; k++) {
		xs[k].allow_no_curve = n == 1;    /* a sweep alone reports its table */
		xs[k].hints = hints;
		rc = cli_load(&xs[k], "report", (const char *const *)&argv[optind + (int)k], 1, NULL, -1, NULL);
	}
	if (!rc && (n == 1 ? slc_report_write(dir, xs, &co, quiet ? NULL : stderr, err, sizeof(err)) :
		    slc_report_compare_write(dir, xs, n, &co, quiet ? NULL : stderr, err, sizeof(err))))
		rc = cli_fail("report", "%s", err);
	for (size_t i = 0; i < k; i++)
		slc_session_free(&xs[i]);
	free(xs);
	return rc ? CLI_FAIL : CLI_OK;
}

const struct cli_cmd cli_cmd_report = {
	.name = "report",
	.summary = "write a report directory (one drive or a comparison): HTML, Markdown, JSON, CSV, graphs",
	.run = cmd_report,
	.help = report_help,
};
