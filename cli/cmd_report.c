// SPDX-License-Identifier: MIT
/* slcscope report: a directory with everything an article needs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

/* The drive's evidence options; values above the letters and 1, which
 * getopt_long() returns for each INPUT in place. */
enum { O_HINT = 256 };

static const struct slc_help_cmd report_doc = {
	.name = "report",
	.summary = "write a report directory (one drive or a comparison): HTML, Markdown, JSON, CSV, graphs",
	.usage = "report INPUT... -o DIR [--pdf [--paper a4|letter]] [--binary] [--quiet] [--capacity SIZE]\n"
		 "                [--cell TYPE] [--state S]",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Analyse INPUT (a trace, fio log or CSV) and write into DIR: index.html (one\n"
			  "self-contained page, graphs inline, readable on a phone), summary.md (its\n"
			  "graphs linked), phases.json (docs/phases-json.md), phases.csv, samples.csv and\n"
			  "every graph as SVG and PNG: the drive, its health before and after, the test\n"
			  "conditions, the headline figures, each curve's phases.  With 2-8 INPUTs: a\n"
			  "comparison report (the curves compared, small multiples, the phase figures).\n"
			  "With --pdf also report.pdf: the same text, tables and graphs laid out for\n"
			  "print, every graph drawn as vectors (sharp at any zoom, its text selectable).\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "output", 'o', "DIR", 'o', "the report directory: new, empty, or an earlier report", "@dir" },
			{ "label", 'l', "TEXT", 'l', "the name of the INPUT after it, or, all given after the\n"
			  "INPUTs, of each in order (default: model, capacity)", "@none" },
			{ "title", 't', "TEXT", 't', "the comparison's title", "@none" },
			{ "segment", 's', "ROLE", 's', "compare the first curve of ROLE (default: the random curve)", "@none" },
			{ "capacity", 0, "SIZE", O_HINT, "the drive's size, where the INPUT does not say (a log)", "@none" },
			{ "cell", 0, "TYPE", O_HINT + 1, "slc, mlc, tlc or qlc: the drive's cell type (as analyze)", "slc mlc tlc qlc" },
			{ "state", 0, "S", O_HINT + 2, "trimmed, used or unknown: the flash before segments the\n"
			  "plan does not tell (as analyze); these three describe\none drive: one INPUT only",
			  "trimmed used unknown" },
			{ "binary", 0, NULL, 0, "GiB and MiB/s instead of GB and MB/s", NULL },
			{ "theme", 0, "NAME", 0, "graphs' colours: default (colour-blind safe) or print (grays)", "default print" },
			{ "pdf", 0, NULL, 0, "write report.pdf too", NULL },
			{ "paper", 0, "SIZE", 0, "report.pdf's paper: a4 (the default: the ISO size, used\n"
			  "nearly everywhere) or letter (the US and Canada)", "a4 letter" },
			{ "quiet", 0, NULL, 'q', "do not list the files written", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ 0 },
	},
};

static int cmd_report(int argc, char **argv)
{
	struct slc_session_hints hints = { 0 };
	int drive_hint = 0;
	struct slc_figure_opts co = { 0 };
	struct slc_session *xs;
	const char *dir = NULL;
	char err[512];
	int opt, idx, quiet = 0, rc = 0, paper = 0;
	size_t n, k;
	const char *letters;
	const struct option *opts = cli_getopt(&report_doc, &letters);

	struct cli_inputs in = { 0 };
	char order[160];

	snprintf(order, sizeof(order), "-%s", letters);
	while ((opt = getopt_long(argc, argv, order, opts, &idx)) != -1) {
		if ((rc = cli_operand("report", &in, opt, optarg)) >= 0) {
			if (rc) return rc;
		} else if (opt == 'o') dir = optarg;
		else if (opt == 'q') quiet = 1;
		else if (opt >= O_HINT && opt <= O_HINT + 2) {
			if (slc_session_hints_set(&hints, opts[idx].name, optarg, err, sizeof(err)))
				return cli_usage("report", "%s", err);
			drive_hint = 1;
		}
		else if (opt == '?') return cli_bad_option("report", opts, argv[optind - 1]);
		else {
			paper |= opt == 0 && !strcmp(opts[idx].name, "paper");
			if (slc_figure_opts_set(&co, opt == 'l' ? "label" : opt == 't' ? "title" : opt == 's' ? "segment" :
						opts[idx].name, optarg ? optarg : "", err, sizeof(err)))
				return cli_usage("report", "%s", err);
		}
	}
	if ((rc = cli_operands_end("report", &in, &co, argc, argv))) return rc;
	n = in.n;
	if (!n || n > 8 || !dir)
		return cli_usage("report", !dir ? "needs -o DIR" : "takes 1 to 8 INPUTs");
	if (paper && !co.pdf)
		return cli_usage("report", "--paper is report.pdf's paper: give it with --pdf");
	if (drive_hint && n > 1)
		return cli_usage("report", "--capacity, --cell and --state describe one drive: give them with one INPUT");
	if (slc_report_dir_check(dir, in.path, n, err, sizeof(err)))
		return cli_fail("report", "-o %s", err);
	if (!(xs = calloc(n, sizeof(*xs))))
		return cli_fail("report", "out of memory");
	for (k = 0; k < n && !rc; k++) {
		xs[k].allow_no_curve = n == 1;    /* a sweep alone reports its table */
		xs[k].hints = hints;
		rc = cli_load(&xs[k], "report", &in.path[k], 1, NULL, -1, NULL);
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
	.doc = &report_doc,
	.run = cmd_report,
};
