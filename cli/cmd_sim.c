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

struct run_out {
	FILE *f;
	int quiet;
	uint32_t block_bytes;
};

static int on_sample(void *arg, const struct slc_sample *s)
{
	struct run_out *o = arg;
	fprintf(o->f, "%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f\n", s->t_s, s->interval_s,
		s->bytes_total, s->ios, s->lat_p50_us, s->lat_p99_us, s->lat_p999_us, s->lat_max_us, s->temp_c);
	return ferror(o->f) ? -EIO : 0;
}

static int on_event(void *arg, const struct slc_sim_event *e, uint64_t t0)
{
	struct run_out *o = arg;
	char b[32], v[32];

	if (!o->quiet)
		fprintf(stderr, "event %-20s at %9.3f s, %s written%s%s\n", slc_sim_event_name(e->kind),
			(double)(e->t_ns - t0) * 1e-9, slc_format_bytes(b, sizeof(b), (double)e->host_bytes, SLC_UNITS_DECIMAL),
			e->kind == SLC_SIM_EV_CACHE_CAPACITY ? ", cache free " : "",
			e->kind == SLC_SIM_EV_CACHE_CAPACITY ? slc_format_bytes(v, sizeof(v), e->value, SLC_UNITS_DECIMAL) : "");
	return 0;
}

static volatile int stop_flag;
static void on_signal(int sig) { stop_flag = sig; }

/* What `sim run` was told. */
struct sim_args {
	struct slc_job w;
	struct slc_size bytes, prefill;
	uint64_t idle_ns;
	int have_bytes, have_time, quiet;
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
			if (strcmp(optarg, "seq") == 0) a->w.kind = SLC_JOB_SEQ_WRITE;
			else if (strcmp(optarg, "rand") == 0) a->w.kind = SLC_JOB_RAND_WRITE;
			else return cli_usage("sim", "--workload: '%s' is not seq or rand", optarg);
			break;
		case 'b': rc = cli_parse_block("sim", "--bs", optarg, &a->w.block_bytes); break;
		case 'q': rc = cli_parse_u32("sim", "--qd", optarg, 1, 256, &a->w.queue_depth); break;
		case 's': rc = cli_parse_size("sim", "--bytes", optarg, &a->bytes); a->have_bytes = 1; break;
		case 't': rc = cli_parse_duration("sim", "--time", optarg, &a->w.max_ns); a->have_time = 1; break;
		case 'i': rc = cli_parse_interval("sim", optarg, &a->w.interval_ns); break;
		case 'S': rc = cli_parse_uint("sim", "--seed", optarg, 0, UINT64_MAX, &a->w.seed); break;
		case 'I': rc = cli_parse_duration("sim", "--idle", optarg, &a->idle_ns); break;
		case 'P': rc = cli_parse_size("sim", "--prefill", optarg, &a->prefill); break;
		case 'R': a->w.data = SLC_DATA_REPEATING; break;
		case 'o': a->out_path = optarg; break;
		case 'Q': a->quiet = 1; break;
		default:
			return cli_bad_option("sim", opts, argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind != argc - 1)
		return cli_usage("sim", optind >= argc ? "run needs a MODEL" : "run takes one MODEL");
	if (!a->w.seed) a->w.seed = 1;
	return CLI_OK;
}

static int cmd_run(int argc, char **argv)
{
	struct sim_args sa = { .w = { .kind = SLC_JOB_SEQ_WRITE } };
	struct slc_job w;
	struct slc_engine_cb cb = { .sample = on_sample, .event = on_event, .arg = NULL };
	struct slc_job_result res;
	struct slc_target *t = NULL;
	struct slc_size bytes, prefill;
	struct slc_sim_model m;
	struct slc_sim *s = NULL;
	struct slc_sim_counters c;
	struct run_out o = { stdout, 0, 0 };
	const char *out_path = NULL;
	struct slc_output *ow = NULL;
	uint64_t idle_ns;
	char err[256], a[32], b[32];
	int rc;

	if ((rc = parse_sim_args(argc, argv, &sa)))
		return rc;
	w = sa.w;
	bytes = sa.bytes;
	prefill = sa.prefill;
	idle_ns = sa.idle_ns;
	out_path = sa.out_path;
	o.quiet = sa.quiet;
	if ((rc = slc_sim_model_load(&m, argv[optind], err, sizeof(err))))
		return cli_fail("sim", "%s", err);
	if (!sa.have_bytes && !sa.have_time)
		bytes.capacity_multiple = 1.0;
	if (slc_size_resolve(&w.max_bytes, &bytes, m.capacity_bytes))
		return cli_usage("sim", "--bytes: too large for this drive");
	if ((rc = slc_sim_open(&s, &m, w.seed, err, sizeof(err))))
		return cli_fail("sim", "%s", err);
	if (slc_target_from_sim(&t, s, argv[optind])) {
		slc_sim_close(s);
		return cli_fail("sim", "out of memory");
	}
	s = NULL;
	cb.arg = &o;
	if (out_path && (slc_output_begin(&ow, out_path, &(struct slc_output_opts){ .kind = SLC_OUTPUT_TEXT,
			.inputs = (const char *const *)&argv[optind], .n_inputs = 1 }, err, sizeof(err)) ||
			 !(o.f = slc_output_stream(ow)))) {
		rc = cli_fail("sim", "%s", ow ? strerror(errno) : err);
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (prefill.bytes || prefill.capacity_multiple > 0) {
		struct slc_job pw = { .kind = SLC_JOB_SEQ_WRITE, .seed = w.seed };
		if (slc_size_resolve(&pw.max_bytes, &prefill, m.capacity_bytes) || !pw.max_bytes) {
			rc = cli_usage("sim", "--prefill: must be more than 0 and fit the drive");
			goto out;
		}
		if ((rc = slc_engine_run(t, &pw, NULL, &stop_flag, &res, err, sizeof(err)))) {
			rc = rc == -ECANCELED ? 128 + stop_flag : cli_fail("sim", "prefill: %s", err);
			goto out;
		}
	}
	if (idle_ns)
		slc_target_idle(t, slc_target_now_ns(t) + idle_ns);
	fprintf(o.f, "time_s,interval_s,bytes_total,ios,lat_p50_us,lat_p99_us,lat_p999_us,lat_max_us,temp_c\n");
	rc = slc_engine_run(t, &w, &cb, &stop_flag, &res, err, sizeof(err));
	if (rc == -ECANCELED) {
		fprintf(stderr, "slcscope sim: interrupted; samples up to the interruption were written\n");
		rc = 128 + stop_flag;
		goto out;
	} else if (rc) {
		rc = cli_fail("sim", "%s", rc == -EINVAL ? err : strerror(-rc));
		goto out;
	}
	slc_sim_get_counters(slc_target_sim(t), &c);
	if (!o.quiet) {
		fprintf(stderr, "host writes %s, NAND writes %s (write amplification %.2f), %" PRIu64 " erases, drive memory %s\n",
			slc_format_bytes(a, sizeof(a), (double)c.host_write_bytes, SLC_UNITS_DECIMAL),
			slc_format_bytes(b, sizeof(b), (double)c.nand_write_bytes, SLC_UNITS_DECIMAL),
			c.host_write_bytes ? (double)c.nand_write_bytes / (double)c.host_write_bytes : 0.0,
			c.erases, slc_format_bytes(err, sizeof(err), (double)slc_sim_memory_bytes(slc_target_sim(t)), SLC_UNITS_BINARY));
	}
	rc = CLI_OK;
out:
	/* an interrupted run keeps the samples it wrote */
	if (ow && (rc == CLI_OK || rc > 128))
		rc = slc_output_commit(ow, err, sizeof(err)) ? cli_fail("sim", "%s", err) : rc;
	else
		slc_output_abort(ow);
	slc_target_close(t);
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
