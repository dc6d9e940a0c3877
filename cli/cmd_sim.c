// SPDX-License-Identifier: MIT
/*
 * slcscope sim: list and show the simulated drive models, and run one
 * workload on a simulated drive in virtual time.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "slcscope/session.h"
#include "cli.h"

static const struct slc_help_cmd sim_doc = {
	.name = "sim",
	.summary = "list, show and run the simulated drives",
	.usage = "sim list\nsim show MODEL\nsim run MODEL [options]",
	.operands = "list show run;@presets;@none",
	.sect = (const struct slc_help_sect[]){
		{ .text = "The simulated drive: a flash translation layer (SLC cache, direct-to-TLC writes,\n"
			  "greedy garbage collection, idle folding, TRIM) in virtual time.  MODEL is a preset\n"
			  "name from 'sim list' or a model file (JSON, see docs/sim-model.md).  Anywhere a\n"
			  "device is accepted, 'sim:MODEL' names a simulated drive ('sim:' alone: "
			  SLC_SIM_DEFAULT_PRESET ").\n\n"
			  "sim run writes one workload on a fresh (trimmed) drive and prints a CSV of\n"
			  "per-interval samples; the drive's own events (cache exhausted, erase-bound\n"
			  "begins, ...) and a summary go to stderr.\n" },
		{ .title = "Options for sim run", .opt = (const struct slc_help_opt[]){
			{ "workload", 'w', "seq|rand", 'w', "sequential or random writes (default seq)", "seq rand" },
			{ "bs", 'b', "SIZE", 'b', "block size (default 128k for seq, 4k for rand)", "@none" },
			{ "qd", 'q', "N", 'q', "queue depth, 1 to 256 (default 32)", "@none" },
			{ "bytes", 's', "SIZE", 's', "stop after this much (default 1x = one capacity for\n"
			  "seq; e.g. 2x, 100GB, 4GiB)", "@none" },
			{ "time", 't', "DURATION", 't', "stop after this much virtual time (e.g. 2h, 90s)", "@none" },
			{ "interval", 'i', "DURATION", 'i', "sampling interval (default 1s, down to 10ms)", "@none" },
			{ "seed", 0, "N", 'S', "noise and offset seed (default 1)", "@none" },
			{ "idle", 0, "DURATION", 'I', "let the drive idle this long first (after a fill)", "@none" },
			{ "prefill", 0, "SIZE", 'P', "write this much sequentially before the measured run", "@none" },
			{ "repeat-data", 0, NULL, 'R', "write one repeating block (compressibility tests)", NULL },
			{ "output", 'o', "FILE", 'o', "write the CSV here instead of stdout", NULL },
			{ "quiet", 0, NULL, 'Q', "no events or summary on stderr", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ 0 },
	},
};

static int cmd_list(void)
{
	size_t n;
	const struct slc_sim_preset *p = slc_sim_presets(&n);

	for (size_t i = 0; i < n; i++) {
		struct slc_sim_model m;
		char err[256], cap[32];

		if (slc_sim_model_parse(&m, p[i].json, p[i].name, err, sizeof(err)))
			return cli_fail("sim", "%s", err);
		printf("%-18s %8s  %s%s\n", m.name, slc_format_bytes(cap, sizeof(cap), (double)m.capacity_bytes, SLC_UNITS_DECIMAL),
		       m.description, strcmp(m.name, SLC_SIM_DEFAULT_PRESET) == 0 ? " [default]" : "");
	}
	return CLI_OK;
}

static int cmd_show(const char *spec)
{
	struct slc_sim_model m;
	char err[256];

	if (slc_sim_model_load(&m, spec, err, sizeof(err)))
		return cli_fail("sim", "%s", err);
	slc_sim_model_describe(stdout, &m);
	return CLI_OK;
}

static volatile int stop_flag;
static void on_signal(int sig) { stop_flag = sig; }

/* What `sim run` was told. */
struct sim_args {
	struct slc_sim_curve c;
	const char *out_path;
};

static int parse_sim_args(int argc, char **argv, struct sim_args *a)
{
	const char *letters;
	const struct option *opts = cli_getopt(&sim_doc, &letters);
	int opt, rc = 0;

	while (!rc && (opt = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			if (strcmp(optarg, "seq") == 0) a->c.job.kind = SLC_JOB_SEQ_WRITE;
			else if (strcmp(optarg, "rand") == 0) a->c.job.kind = SLC_JOB_RAND_WRITE;
			else return cli_usage("sim", "--workload: '%s' is not seq or rand", optarg);
			break;
		case 'b': rc = cli_parse_block("sim", "--bs", optarg, &a->c.job.block_bytes); break;
		case 'q': rc = cli_parse_u32("sim", "--qd", optarg, 1, 256, &a->c.job.queue_depth); break;
		case 's': rc = cli_parse_size("sim", "--bytes", optarg, &a->c.bytes); a->c.have_bytes = 1; break;
		case 't': rc = cli_parse_duration("sim", "--time", optarg, &a->c.job.max_ns); a->c.have_time = 1; break;
		case 'i': rc = cli_parse_interval("sim", optarg, &a->c.job.interval_ns); break;
		case 'S': rc = cli_parse_uint("sim", "--seed", optarg, 0, UINT64_MAX, &a->c.job.seed); break;
		case 'I': rc = cli_parse_duration("sim", "--idle", optarg, &a->c.idle_ns); break;
		case 'P': rc = cli_parse_size("sim", "--prefill", optarg, &a->c.prefill); break;
		case 'R': a->c.job.data = SLC_DATA_REPEATING; break;
		case 'o': a->out_path = optarg; break;
		case 'Q': a->c.quiet = 1; break;
		default:
			return cli_bad_option("sim", opts, argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind != argc - 1)
		return cli_usage("sim", optind >= argc ? "run needs a MODEL" : "run takes one MODEL");
	if (!a->c.job.seed) a->c.job.seed = 1;
	a->c.model = argv[optind];
	return CLI_OK;
}

static int cmd_run(int argc, char **argv)
{
	struct sim_args sa = { .c.job = { .kind = SLC_JOB_SEQ_WRITE } };
	struct slc_output *ow = NULL;
	FILE *csv = stdout;
	char err[256];
	int rc;

	if ((rc = parse_sim_args(argc, argv, &sa)))
		return rc;
	if (sa.out_path && (slc_output_begin(&ow, sa.out_path, &(struct slc_output_opts){ .kind = SLC_OUTPUT_TEXT,
			.inputs = &sa.c.model, .n_inputs = 1 }, err, sizeof(err)) || !(csv = slc_output_stream(ow))))
		return cli_fail("sim", "%s", ow ? (slc_output_abort(ow), strerror(errno)) : err);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = slc_sim_curve_run(&sa.c, csv, stderr, &stop_flag, err, sizeof(err));
	if (rc == -ECANCELED)
		fprintf(stderr, "slcscope sim: interrupted; samples up to the interruption were written\n");
	rc = rc == -ECANCELED ? 128 + stop_flag : rc == -EDOM ? cli_usage("sim", "%s", err)
	     : rc ? cli_fail("sim", "%s", err) : CLI_OK;
	/* an interrupted run keeps the samples it wrote */
	if (ow && (rc == CLI_OK || rc > 128))
		rc = slc_output_commit(ow, err, sizeof(err)) ? cli_fail("sim", "%s", err) : rc;
	else
		slc_output_abort(ow);
	return rc;
}

static int sim_run(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage("sim", "needs a subcommand: list, show or run");
	if (strcmp(argv[1], "list") == 0) {
		if (argc != 2) return cli_usage("sim", "list takes no arguments");
		return cmd_list();
	}
	if (strcmp(argv[1], "show") == 0) {
		if (argc != 3) return cli_usage("sim", "show takes one MODEL");
		return cmd_show(argv[2]);
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	return cli_usage("sim", "unknown subcommand '%s' (list, show, run)", argv[1]);
}

const struct cli_cmd cli_cmd_sim = {
	.doc = &sim_doc,
	.run = sim_run,
};
