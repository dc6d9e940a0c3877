// SPDX-License-Identifier: MIT
/*
 * slcscope analyze: the phase breakdown of a trace, fio log or CSV.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

enum { O_STORE = 256, O_PENALTY, O_BINARY, O_EXPLAIN, O_CELL, O_STATE, O_STEADY_AFTER, O_FORCE, O_PARAMS };

static const struct slc_help_cmd analyze_doc = {
	.name = "analyze",
	.summary = "phase breakdown (cache size, speeds, erase-bound) of a trace, fio log or CSV",
	.usage = "analyze [options] INPUT...",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Find the phases of each write curve in INPUT by change-point analysis: the SLC\n"
			  "cache (host-visible size and speed, tiers), direct-to-TLC, erase-bound, stalls\n"
			  "and throttling, SNIA PTS steady state, and for later bursts how much cache came\n"
			  "back.  INPUT is a slcscope trace (.h5) or anything 'slcscope import' reads\n"
			  "(fio logs and JSON, CSV of speed against time or bytes, iostat, diskstats, dd);\n"
			  "several INPUTs are summed, and the import options apply as there.\n"
			  "Method: docs/analysis.md.  JSON keys: docs/phases-json.md.\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "json", 'j', NULL, 'j', "print the slcscope.phases/2 JSON document", NULL },
			{ "output", 'o', "FILE", 'o', "write the output to FILE instead of stdout", NULL },
			{ "force", 0, NULL, O_FORCE, "replace FILE even when it holds another format", NULL },
			{ "store", 0, NULL, O_STORE, "also store the JSON in the trace (/analysis/phases)", NULL },
			{ "segment", 's', "N", 's', "analyse trace segment N only (see 'slcscope export')", "@none" },
			{ "penalty", 0, "P", O_PENALTY, "mbic (default), bic, aic, or a number (cost units)", "mbic bic aic" },
			{ "explain", 0, NULL, O_EXPLAIN, "with each segment, the evidence and the rules that decided", NULL },
			{ "cell", 0, "TYPE", O_CELL, "slc, mlc, tlc or qlc: the drive's cell type (a simulated\n"
			  "target's is known); bounds the cache and names the native level", "slc mlc tlc qlc" },
			{ "state", 0, "S", O_STATE, "trimmed, used or unknown (default): the drive's flash when\n"
			  "an input's curve began, where the input does not say\n"
			  "(--capacity also bounds the cache and, after a TRIM, the onset)", "trimmed used unknown" },
			{ "steady-after", 0, "SIZE", O_STEADY_AFTER, "SNIA steady state counted only after SIZE written (a size,\n"
			  "or a multiple of the capacity: default 2x, as run --until-steady)", "@none" },
			{ "model-params", 0, "FILE", O_PARAMS, "the phase model's thresholds and priors from FILE, lines\n"
			  "of 'name = value' (docs/analysis.md, \"Model parameters\")", NULL },
			{ "binary", 0, NULL, O_BINARY, "print GiB and MiB/s instead of GB and MB/s", NULL },
			{ "bin", 0, "DURATION", CLI_OPT_IMPORT, "per-I/O fio logs, iostat without -t: interval (1s)", "@none" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Import options (as slcscope import)", .opt = cli_import_opts },
		{ 0 },
	},
};

static int cmd_analyze(int argc, char **argv)
{
	struct slc_cpd_opts co;
	struct slc_model_params mp;
	struct slc_import_opts io = { .bin_s = 0 };
	struct slc_session x = { 0 };
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_TEXT, .stdout_ok = 1 };
	const char *out = "-";
	long only = -1;
	uint64_t seg;
	int opt, li, json = 0, store = 0, rc = CLI_OK;
	enum slc_unit_system u = SLC_UNITS_DECIMAL;
	char *text = NULL, err[512];
	const char *letters;
	const struct option *opts = cli_getopt(&analyze_doc, &letters);

	slc_cpd_opts_init(&co);
	while ((opt = getopt_long(argc, argv, letters, opts, &li)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'o': out = optarg; break;
		case O_STORE: store = 1; break;
		case O_FORCE: oo.force = 1; break;
		case 's':
			if ((rc = cli_parse_uint("analyze", "--segment", optarg, 0, 1000000, &seg)))
				return rc;
			only = (long)seg;
			break;
		case O_PENALTY:
			if (slc_cpd_opts_set_penalty(&co, optarg))
				return cli_usage("analyze", "--penalty: '%s' is not mbic, bic, aic or a positive number", optarg);
			break;
		case O_BINARY: u = SLC_UNITS_BINARY; break;
		case O_PARAMS:
			slc_model_params_default(&mp);
			/* one line: the file and the line that is wrong */
			if (slc_model_params_load(&mp, optarg, err, sizeof(err))) {
				cli_fail("analyze", "--model-params: %s", err);
				return CLI_USAGE;
			}
			x.hints.model_params = &mp;
			break;
		case O_EXPLAIN: x.hints.explain = 1; break;
		case O_CELL:
		case O_STATE:
		case O_STEADY_AFTER:
			if (slc_session_hints_set(&x.hints, opts[li].name, optarg, err, sizeof(err)))
				return cli_usage("analyze", "%s", err);
			break;
		case CLI_OPT_IMPORT:
			if ((rc = cli_import_opt("analyze", &io, opts[li].name, optarg)))
				return rc;
			break;
		default:
			return cli_bad_option("analyze", opts, argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage("analyze", "needs an INPUT (trace, fio log or JSON, CSV, iostat, diskstats, dd)");
	oo.inputs = (const char *const *)argv + optind;
	oo.n_inputs = (size_t)(argc - optind);
	/* a refused output is known before the analysis, and so is a trace a run still writes (to --store) */
	if (slc_output_check(out, &oo, err, sizeof(err)))
		return cli_fail("analyze", "%s", err);
	if (store && slc_output_held(argv[optind], err, sizeof(err)))
		return cli_fail("analyze", "%s", err);
	x.allow_no_curve = 1;
	x.hints.capacity_bytes = (double)io.capacity_bytes;
	if ((rc = cli_load(&x, "analyze", (const char *const *)argv + optind, (size_t)(argc - optind), &io, only, &co)))
		return rc;
	if ((json || store) && (rc = slc_session_json(&text, &x))) {
		slc_session_free(&x);
		return cli_fail("analyze", "cannot build the JSON: %s", strerror(-rc));
	}
	rc = CLI_OK;
	if (slc_session_write(out, &oo, &x, json ? text : NULL, u, err, sizeof(err)))
		rc = cli_fail("analyze", "%s", err);
	else if (store && x.in->format != SLC_INPUT_TRACE)
		rc = cli_fail("analyze", "--store needs a slcscope trace; import %s first", argv[optind]);
	else if (store && slc_trace_store_json(argv[optind], "phases", text, err, sizeof(err)))
		rc = cli_fail("analyze", "%s", err);
	free(text);
	slc_session_free(&x);
	return rc;
}

const struct cli_cmd cli_cmd_analyze = {
	.doc = &analyze_doc,
	.run = cmd_analyze,
};
