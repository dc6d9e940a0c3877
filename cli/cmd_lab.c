// SPDX-License-Identifier: MIT
/* slcscope lab: every run in one database, drives ranked against the history. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/lab.h"
#include "slcscope/session.h"
#include "cli.h"

static const struct slc_help_cmd lab_doc = {
	.name = "lab",
	.summary = "a database of runs: add traces, list, show a drive, rank drives, place a new run",
	.usage = "lab add TRACE...             store runs (the same trace twice: once)\n"
		 "lab list                     every run with its headline figures\n"
		 "lab show DRIVE               a drive's runs and phases (run number or part of its name)\n"
		 "lab rank --by FIGURE         the drives ranked, as the reviews' bar charts\n"
		 "lab compare TRACE [-o DIR]   a new run placed among the stored drives\n"
		 "lab site DIR                 a static site: every drive, rankings, reports",
	.operands = "add list show rank compare site;@file",
	.sect = (const struct slc_help_sect[]){
		{ .text = "The lab is a database of runs: each drive's identity, the run's conditions, every\n"
			  "write curve's headline figures and phases, the trace's path and SHA-256 (docs/lab.md).\n"
			  "FIGURE: cache, cache-speed, post-cache (direct to TLC, else erase-bound), whole-drive\n"
			  "(time to write the whole capacity), recovery (share of the cache back after idle),\n"
			  "tgbw (bytes written in the curve's first 2 h).\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "db", 0, "PATH|URL", 'd', "the lab: an SQLite file (default ~/.local/share/slcscope/lab.db),\n"
			  "or postgresql://... for a lab shared by several benches", NULL },
			{ "by", 0, "FIGURE", 'b', "rank: the figure (default cache)",
			  "cache cache-speed post-cache whole-drive recovery tgbw" },
			{ "json", 0, NULL, 'j', "list, show, rank, compare: machine-readable (bytes, bytes/s, s)", NULL },
			{ "csv", 0, NULL, 'c', "list, show, rank: the same as CSV", NULL },
			{ "binary", 0, NULL, 'B', "GiB and MiB/s instead of GB and MB/s", NULL },
			{ "nearest", 'n', "N", 'n', "compare: how many nearest drives (default 5, at most 7)", "@none" },
			{ "output", 'o', "DIR", 'o', "compare: also write a comparison report of the new run\n"
			  "against the nearest drives whose traces are still there", "@dir" },
			{ "no-reports", 0, NULL, 'R', "site: no report of each drive's latest run (faster)", NULL },
			{ "quiet", 0, NULL, 'q', "add: print nothing but errors", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ 0 },
	},
};

struct lab_args {
	const char *db, *out;
	int by, quiet, no_reports;
	unsigned nearest;
	uint64_t given;               /* the options given, a bit each (OPT_BIT of its letter) */
	struct slc_lab_print_opts po;
};

#define OPT_BIT(c) (1ull << ((c) >= 'a' ? (c) - 'a' + 26 : (c) - 'A'))

/* Each subcommand: its operands and the options it takes (any other is refused). */
static const struct lab_sub {
	const char *name, *operands;
	int min, max;
	uint64_t opts;
} subs[] = {
	{ "add", "one or more TRACEs", 1, 1 << 30, OPT_BIT('d') | OPT_BIT('q') },
	{ "list", "no arguments", 0, 0, OPT_BIT('d') | OPT_BIT('j') | OPT_BIT('c') | OPT_BIT('B') },
	{ "show", "one DRIVE", 1, 1, OPT_BIT('d') | OPT_BIT('j') | OPT_BIT('c') | OPT_BIT('B') },
	{ "rank", "no arguments", 0, 0, OPT_BIT('d') | OPT_BIT('b') | OPT_BIT('j') | OPT_BIT('c') | OPT_BIT('B') },
	{ "compare", "one TRACE", 1, 1, OPT_BIT('d') | OPT_BIT('j') | OPT_BIT('B') | OPT_BIT('n') | OPT_BIT('o') | OPT_BIT('q') },
	{ "site", "one DIR", 1, 1, OPT_BIT('d') | OPT_BIT('B') | OPT_BIT('R') | OPT_BIT('q') },
};

static int lab_opts(int argc, char **argv, struct lab_args *a)
{
	const char *letters;
	const struct option *opts = cli_getopt(&lab_doc, &letters);
	uint64_t v;
	int opt;

	while ((opt = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		if (opt == '?') return cli_bad_option("lab", opts, argv[optind - 1]);
		if ((opt == 'j' || opt == 'c') && (a->given & (OPT_BIT('j') | OPT_BIT('c'))))
			return cli_usage("lab", "--json and --csv: one of them");
		a->given |= OPT_BIT(opt);
		if (opt == 'd') a->db = optarg;
		else if (opt == 'b' && (a->by = slc_lab_figure_from_name(optarg)) < 0)
			return cli_usage("lab", "--by: cache, cache-speed, post-cache, whole-drive, recovery or tgbw, not '%s'",
					 optarg);
		else if (opt == 'j' || opt == 'c') a->po.format = opt == 'j' ? SLC_LAB_JSON : SLC_LAB_CSV;
		else if (opt == 'B') a->po.binary = 1;
		else if (opt == 'n' && cli_parse_uint("lab", "--nearest", optarg, 1, 7, &v)) return CLI_USAGE;
		else if (opt == 'n') a->nearest = (unsigned)v;
		else if (opt == 'o') a->out = optarg;
		else if (opt == 'q') a->quiet = 1;
		else if (opt == 'R') a->no_reports = 1;
	}
	return CLI_OK;
}

/* The subcommand, its operands and its options checked: NULL and the usage error in *@rc. */
static const struct lab_sub *lab_sub(int argc, char **argv, const struct lab_args *a, int *rc)
{
	const char *letters;
	const struct option *lo = cli_getopt(&lab_doc, &letters);
	const struct lab_sub *s = NULL;
	int nargs = argc - optind - 1;

	for (size_t i = 0; optind < argc && i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[optind], subs[i].name)) s = &subs[i];
	*rc = optind >= argc ? cli_usage("lab", "needs add, list, show, rank, compare or site")
	      : !s ? cli_usage("lab", "'%s' is not add, list, show, rank, compare or site", argv[optind])
	      : nargs < s->min || nargs > s->max ? cli_usage("lab", "%s takes %s", s->name, s->operands) : CLI_OK;
	for (size_t i = 0; !*rc && lo[i].name; i++)
		if ((a->given & OPT_BIT(lo[i].val)) && !(s->opts & OPT_BIT(lo[i].val)))
			*rc = cli_usage("lab", "--%s is not an option of lab %s", lo[i].name, s->name);
	return *rc ? NULL : s;
}

static int lab_add(struct slc_lab *lab, char **paths, int n, int quiet)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		struct slc_lab_added ad;
		char err[512];
		if (slc_lab_add(lab, paths[i], &ad, err, sizeof(err))) {
			bad += cli_fail("lab", "%s", err) != 0;
			continue;
		}
		if (!quiet)
			printf("%s %s: %s (run %lld)%s\n", ad.existed ? "already in the lab:" : "added", paths[i], ad.drive,
			       (long long)ad.run_id, ad.moved ? "; stored at this path now" : ad.rehashed ? "; the file changed, the run follows it" : "");
	}
	return bad ? CLI_FAIL : CLI_OK;
}

/* compare: place the run, then (-o) the report against the nearest stored traces. */
static int lab_compare(struct slc_lab *lab, const char *path, const struct lab_args *a)
{
	struct slc_session x = { 0 };
	struct slc_lab_near near[7];
	size_t nn = 0;
	char err[512];
	int rc = a->out && slc_report_dir_check(a->out, &path, 1, err, sizeof(err)) ? cli_fail("lab", "-o %s", err)
		 : cli_load(&x, "lab", &path, 1, NULL, -1, NULL);

	if (!rc && slc_lab_compare(lab, &x, path, stdout, &a->po, near, a->nearest ? a->nearest : 5, &nn, err,
				   sizeof(err)))
		rc = cli_fail("lab", "%s", err);
	if (!rc && a->out && slc_lab_compare_report(a->out, &x, path, near, nn, a->quiet ? NULL : stderr, err, sizeof(err)))
		rc = cli_fail("lab", "-o %s", err);
	slc_session_free(&x);
	return rc;
}

static int cmd_lab(int argc, char **argv)
{
	struct lab_args a = { .by = SLC_LAB_CACHE };
	char def[PATH_MAX], err[512];
	const struct lab_sub *s;
	struct slc_lab *lab;
	const char *sub;
	int rc, nargs;

	if ((rc = lab_opts(argc, argv, &a)) || !(s = lab_sub(argc, argv, &a, &rc))) return rc;
	sub = s->name;
	optind++;
	nargs = argc - optind;
	if (!strcmp(sub, "site") && slc_report_dir_check(argv[optind], NULL, 0, err, sizeof(err)))
		return cli_fail("lab", "site %s", err);
	if (!a.db && slc_lab_default_path(def, sizeof(def)))
		return cli_usage("lab", "no home directory for the default lab: give --db PATH");
	/* only add writes the lab: the others read it, and make none where there is none */
	if (slc_lab_open(&lab, a.db ? a.db : def, strcmp(sub, "add") ? SLC_LAB_READ_ONLY
			 : SLC_LAB_CREATE | (a.db ? 0 : SLC_LAB_MAKE_DIR), err, sizeof(err)))
		return cli_fail("lab", "%s", err);
	if (!strcmp(sub, "add")) rc = lab_add(lab, argv + optind, nargs, a.quiet);
	else if (!strcmp(sub, "compare")) rc = lab_compare(lab, argv[optind], &a);
	else if (!strcmp(sub, "site")) {
		if (slc_lab_site(lab, argv[optind], a.po.binary, !a.no_reports, a.quiet ? NULL : stderr, err, sizeof(err)))
			rc = cli_fail("lab", "site: %s", err);
	}
	else if ((!strcmp(sub, "list") ? slc_lab_list(lab, stdout, &a.po, err, sizeof(err)) :
		  !strcmp(sub, "show") ? slc_lab_show(lab, argv[optind], stdout, &a.po, err, sizeof(err)) :
		  slc_lab_rank(lab, a.by, stdout, &a.po, err, sizeof(err))))
		rc = cli_fail("lab", "%s", err);
	slc_lab_close(lab);
	return rc;
}

const struct cli_cmd cli_cmd_lab = {
	.doc = &lab_doc,
	.run = cmd_lab,
};
