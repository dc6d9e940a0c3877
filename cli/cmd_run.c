// SPDX-License-Identifier: MIT
/*
 * slcscope run: the lab plan (or a shorter one) on a target, into a trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/lab.h"
#include "slcscope/session.h"
#include "cli.h"

enum {
	O_SIZE = 256, O_DESTRUCTIVE, O_FORCE, O_QUIET, O_STEADY, O_STEADY_AFTER, O_PURGE, O_TEMP_EVERY, O_NO_PROBE,
	O_FIO_JOB, O_POINTS, O_LAB, O_HIPRI, O_SQPOLL, O_PLAN_OPT,    /* O_PLAN_OPT + i: the library's i-th plan option */
};

static size_t plan_list(struct slc_help_opt *e, size_t max)
{
	static char def[256];
	size_t n = 0;
	const char *sum;

	for (; slc_plan_name(n, NULL) && n < max; n++) {
		e[n] = (struct slc_help_opt){ .lng = slc_plan_name(n, &sum), .help = sum };
		if (n == 0) {
			snprintf(def, sizeof(def), "%s  [default]", sum);
			e[n].help = def;
		}
	}
	return n;
}

/* The plan options, from the library's --help lines; O_PLAN_OPT + i: the i-th. */
static size_t plan_opts(struct slc_help_opt *e, size_t max)
{
	static char text[8192];
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");
	size_t n = 0;

	if (f) {
		slc_plan_opts_help(f);
		fclose(f);
		n = slc_help_parse(text, e, max);
	}
	for (size_t i = 0; i < n; i++)
		e[i].val = e[i].shrt ? e[i].shrt : O_PLAN_OPT + (int)i;
	return n;
}

static const struct slc_help_cmd run_doc = {
	.name = "run",
	.summary = "run the lab's write plan on a drive, file or simulated drive",
	.usage = "run TARGET -o FILE.h5 [options]\nrun TARGET... -o DIR/ [options]",
	.operands = "@target",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Run the lab's write-behaviour plan on TARGET and record every step in an HDF5\n"
			  "trace (docs/trace-format.md).  TARGET is a simulated drive (sim:MODEL, 'sim:'\n"
			  "for the default), a regular file, a whole block device (destroys its data: needs\n"
			  "--destructive) or null:SIZE (no I/O; measures slcscope's own overhead).\n" },
		{ .title = "Plans (--plan; each step and its source in docs/plans.md)", .list = 1, .more = plan_list },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "output", 'o', "FILE.h5", 'o', "the trace to write (replaced if it exists)", NULL },
			{ "plan", 'p', "NAME", 'p', "one of the plans above (default lab)", "@plans" },
			{ "until-steady", 0, NULL, O_STEADY, "end the random curve early once SNIA PTS steady state\n"
			  "holds (5 x 60 s rounds within 20%, slope within 10%)", NULL },
			{ "steady-after", 0, "SIZE", O_STEADY_AFTER, "... counting only after this much (default 2x)", "@none" },
			{ "size", 0, "SIZE", O_SIZE, "regular files: create or extend to this size", "@none" },
			{ "destructive", 0, NULL, O_DESTRUCTIVE, "allow writing a block device (destroys its data)", NULL },
			{ "force", 0, NULL, O_FORCE, "write a target even with partitions or a signature on\n"
			  "it (never a mounted or swap one); with --fio-job: replace\na FILE slcscope did not write", NULL },
			{ "report", 'r', "DIR", 'r', "afterwards, analyse the trace and write a report into DIR\n"
			  "(phases.json, phases.csv, graphs, summary.md, index.html;\n"
			  "DIR is created first, so -o may point into it)", "@dir" },
			{ "lab", 0, "[=DB]", O_LAB, "afterwards, add the trace to the lab (slcscope lab; DB: an\n"
			  "SQLite file or postgresql://..., default the user's lab)", NULL },
			{ "dry-run", 'n', NULL, 'n', "print the plan and what would be destroyed; write nothing", NULL },
			{ "fio-job", 0, "FILE", O_FIO_JOB, "run nothing: write the plan as an fio job file, a section\n"
			  "per step, sized for TARGET (- for stdout), its curves\nlogged for slcscope import (docs/import.md); "
			  "an existing\nFILE is replaced only when slcscope wrote it (or --force)", NULL },
			{ "purge", 0, NULL, O_PURGE, "before the plan, purge the drive: NVMe Sanitize (crypto, then\n"
			  "block erase) or Format with secure erase when the drive\n"
			  "supports it, otherwise a TRIM of all of it (recorded)", NULL },
			{ "temp-every", 0, "DURATION", O_TEMP_EVERY, "read the drive's temperature and write counters this\n"
			  "often (default 5s; every sample on a simulated drive;\n"
			  "the sample of that moment carries the temperature)", "@none" },
			{ "hipri", 0, NULL, O_HIPRI, "block devices: poll for completions (io_uring IOPOLL, as\n"
			  "fio's --hipri); needs poll queues (NVMe: nvme.poll_queues=N),\n"
			  "refused without them (docs/plans.md, \"Polled I/O\")", NULL },
			{ "sqpoll", 0, NULL, O_SQPOLL, "block devices and files: a kernel thread submits the\n"
			  "commands (io_uring SQPOLL, as fio's --sqthread_poll)", NULL },
			{ "no-probe", 0, NULL, O_NO_PROBE, "no identity/SMART snapshots or temperature readings", NULL },
			{ "quiet", 0, NULL, O_QUIET, "no progress or step lines", NULL },
			{ "points", 0, "LIST", O_POINTS, "a sweep plan: only these points (step names as -n lists\n"
			  "them, comma-separated), each after its own state steps", "@none" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Plan options (each plan uses those it needs)", .more = plan_opts },
		{ .text = "Ctrl-C or SIGTERM stops the I/O and closes the trace with every sample up to\n"
			  "that moment (exit 130 or 143); commands the drive does not answer are abandoned\n"
			  "after 5 s, or at once on a second Ctrl-C.  A device error stops the run, keeps the trace\n"
			  "and reports the offset (exit 1).\n\n"
			  "The trace keeps the drive's identity and a SMART/health snapshot before and\n"
			  "after every step (NVMe through libnvme, SATA through libatasmart; none on\n"
			  "loop, virtio or files), so 'slcscope analyze' can give each step's write\n"
			  "amplification where the drive counts NAND writes.\n" },
		{ 0 },
	},
};

static volatile int stop_sig;

/* The first signal stops the run; a second abandons what the drive has not answered. */
static void on_signal(int sig)
{
	stop_sig = stop_sig ? stop_sig | SLC_STOP_NOW : sig;
}

/* What a dry run says about a block device, without opening it for writing. */
static int dry_run_blockdev(const char *path, const struct slc_plan *p, int destructive, int force,
			    enum slc_unit_system units)
{
	char what[512];
	int rc = slc_run_dry_blockdev(stdout, path, p, destructive, force, units, &stop_sig, what, sizeof(what));

	return rc == -ECANCELED ? slc_run_interrupted(stderr, "slcscope run", stop_sig, "during the checks")
	       : rc == -EINVAL ? cli_usage("run", "%s", what) : rc ? cli_fail("run", "%s", what) : CLI_OK;
}

/* Do @a and @b name one file (the same path, or one inode)? */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return b && (!strcmp(a, b) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
				       sa.st_ino == sb.st_ino));
}

/* Everything the command line says. */
struct run_args {
	struct slc_plan_opts po;
	struct slc_target_opts to;
	const char *out, *plan_name, *target, *report, *fio_job, *points, *lab;
	const char *const *targets;           /* all of them; several run at once into -o DIR/ */
	size_t n_targets;
	struct slc_run_many_child *many;      /* one of several: wait for the others' checks */
	int several;                          /* one of run_several()'s drives (a dry run's too) */
	struct slc_plan *plan;
	struct slc_run_console *u;
	int use_lab, dry, purge, no_probe, until_steady, temp_every_set;
	uint64_t temp_every_ns;
	struct slc_size steady_after;
	char cmdline[2048];
};

/* A plan option (its letter or O_PLAN_OPT + its index); 1 when @opt is not one. */
static int parse_plan_opt(int opt, const char *arg, struct slc_plan_opts *po, int *rc)
{
	char err[256], letter[2] = { (char)opt, 0 };
	const char *name = opt >= O_PLAN_OPT ? slc_plan_opt_name((size_t)(opt - O_PLAN_OPT), NULL) : letter;
	int r;

	if (!name || (r = slc_plan_opts_set(po, name, arg, err, sizeof(err))) == -ENOENT)
		return 1;
	*rc = r ? cli_usage("run", "%s", err) : CLI_OK;
	return 0;
}

static int parse_opt(int opt, const char *arg, struct run_args *a, struct slc_run_console *u, const char *bad)
{
	char err[256];
	int rc = CLI_OK;

	if (!parse_plan_opt(opt, arg, &a->po, &rc))
		return rc;
	switch (opt) {
	case 'o': a->out = arg; break;
	case 'r': a->report = arg; break;
	case O_FIO_JOB: a->fio_job = arg; break;
	case O_LAB: a->use_lab = 1; a->lab = arg; break;
	case O_POINTS: a->points = arg; break;
	case 'p': a->plan_name = arg; break;
	case O_SIZE:
		if (slc_parse_bytes(&a->to.file_size_bytes, arg, err, sizeof(err)))
			return cli_usage("run", "--size: %s", err);
		break;
	case O_STEADY: a->until_steady = 1; break;
	case O_STEADY_AFTER: return cli_parse_size("run", "--steady-after", arg, &a->steady_after);
	case O_PURGE: a->purge = 1; break;
	case O_NO_PROBE: a->no_probe = 1; break;
	case O_TEMP_EVERY:
		if ((rc = cli_parse_duration("run", "--temp-every", arg, &a->temp_every_ns)))
			return rc;
		if (a->temp_every_ns < 100000000ull || a->temp_every_ns > SLC_PLAN_MAX_INTERVAL_NS)
			return cli_usage("run", "--temp-every: from 100ms to 1h, not '%s'", arg);
		a->temp_every_set = 1;
		break;
	case O_DESTRUCTIVE: a->to.destructive = 1; break;
	case O_FORCE: a->to.force = 1; break;
	case O_HIPRI: a->to.io_poll |= SLC_TARGET_HIPRI; break;
	case O_SQPOLL: a->to.io_poll |= SLC_TARGET_SQPOLL; break;
	case 'n': a->dry = 1; break;
	case O_QUIET: u->quiet = 1; break;
	default: {
		const char *letters;
		return cli_bad_option("run", cli_getopt(&run_doc, &letters), bad);
	}
	}
	return CLI_OK;
}

static int parse_args(int argc, char **argv, struct run_args *a, struct slc_plan *plan, struct slc_run_console *u)
{
	char err[512];
	int opt, rc;
	const char *letters;
	const struct option *opts = cli_getopt(&run_doc, &letters);

	cli_command_line(a->cmdline, sizeof(a->cmdline), argc, argv);  /* before getopt permutes argv */
	slc_plan_opts_default(&a->po);
	a->plan_name = slc_plan_name(0, NULL);     /* the registry lists the lab plan first */
	a->temp_every_ns = 5000000000ull;
	a->steady_after.capacity_multiple = 2.0;
	while ((opt = getopt_long(argc, argv, letters, opts, NULL)) != -1)
		if ((rc = parse_opt(opt, optarg, a, u, argv[optind - 1])))
			return rc;
	if (optind >= argc)
		return cli_usage("run", "needs a TARGET (sim:MODEL, a file, a block device or null:SIZE)");
	a->target = argv[optind];
	a->targets = (const char *const *)argv + optind;
	a->n_targets = (size_t)(argc - optind);
	if (a->fio_job && (a->out || a->report || a->dry))
		return cli_usage("run", "--fio-job writes the job file and runs nothing: drop %s",
				 a->out ? "-o" : a->report ? "--report" : "-n");
	if (!a->out && !a->dry && !a->fio_job)
		return cli_usage("run", "needs -o %s", a->n_targets > 1 ? "DIR/ for the traces" : "FILE.h5 for the trace");
	if ((uint64_t)a->po.queue_depth * a->po.jobs > 256)
		return cli_usage("run", "--qd %u x --jobs %u is over 256 commands in flight", a->po.queue_depth, a->po.jobs);
	if (a->po.reap_batch > a->po.queue_depth * a->po.jobs)
		return cli_usage("run", "--reap-batch %u is over the %u commands in flight (--qd x --jobs)",
				 a->po.reap_batch, a->po.queue_depth * a->po.jobs);
	for (size_t i = 0; i < a->n_targets; i++)
		if ((rc = slc_target_check_args(a->targets[i], &a->to, err, sizeof(err))))
			return rc == -ENODEV ? cli_fail("run", "%s", err) : cli_usage("run", "%s", err);
	if (slc_plan_build(plan, a->plan_name, &a->po, err, sizeof(err)) ||
	    (a->points && slc_plan_keep_points(plan, a->points, err, sizeof(err))))
		return cli_usage("run", "%s", err);
	if (a->purge && a->no_probe)
		return cli_usage("run", "--purge needs the drive's probe: drop --no-probe");
	a->to.seed = a->po.seed;
	return CLI_OK;
}

/* A dry run of a file that does not exist yet: the plan and what --size creates. */
static int dry_run_new_file(const struct run_args *a, const struct slc_plan *plan, enum slc_unit_system units)
{
	char b[256];

	if (!a->to.file_size_bytes)
		return cli_fail("run", "%s: no such file (give --size to create it)", a->target);
	if (slc_plan_validate(plan, a->to.file_size_bytes / 4096 * 4096, 4096, b, sizeof(b)))
		return cli_usage("run", "%s", b);
	slc_plan_print(stdout, plan, a->target, a->to.file_size_bytes, 0, units);
	printf("creates: %s of %s\n", a->target, slc_format_bytes(b, sizeof(b), (double)a->to.file_size_bytes, units));
	return CLI_OK;
}

/* The plan on the open target into the trace; the exit code. */
static int run_plan(const struct run_args *a, const struct slc_plan *plan, struct slc_target *t,
		    uint64_t steady_after_bytes, struct slc_run_console *u)
{
	const struct slc_run_ui rui = slc_run_console_ui(u);
	const struct slc_run_opts ro = {
		.trace_path = a->out, .command_line = a->cmdline, .probe = !a->no_probe, .purge = a->purge,
		.temp_every_ns = a->temp_every_set ? a->temp_every_ns : 0, .interval_ns = a->po.interval_ns,
		.until_steady = a->until_steady, .steady_after_bytes = steady_after_bytes, .ui = &rui, .plan = plan,
		.force = a->to.force,
		.stop = &stop_sig,
	};
	struct slc_job_result res = { 0 };
	struct slc_run *r;
	char err[512], cerr[512], b[32];
	size_t failed = 0;
	int rc;

	if ((rc = slc_run_open(&r, t, &ro, err, sizeof(err))))
		return stop_sig ? slc_run_interrupted(stderr, "slcscope run", stop_sig, "in --purge") : cli_fail("run", "%s", err);
	if (!u->quiet && slc_target_kind(t) == SLC_TARGET_BLOCKDEV)
		fprintf(stderr, "slcscope run: destroying all %s on %s\n",
			slc_format_bytes(b, sizeof(b), (double)slc_target_capacity(t), u->units), slc_target_spec(t));
	if (!u->quiet && a->to.io_poll)
		fprintf(stderr, "slcscope run: io_uring mode %s on %s\n", slc_target_io_mode(t), slc_target_spec(t));
	rc = slc_run_execute(r, plan, &stop_sig, &res, &failed, err, sizeof(err));
	slc_run_console_clear(u);
	if (slc_run_close(r, cerr, sizeof(cerr)) && !rc) {
		rc = -EIO;
		snprintf(err, sizeof(err), "%s", cerr);
	}
	if (rc == -ECANCELED || (stop_sig && !rc)) {
		int sig = SLC_STOP_REASON(stop_sig) ? SLC_STOP_REASON(stop_sig) : SIGINT;
		if (res.abandoned)
			fprintf(stderr, "slcscope run: abandoned %u command%s the drive did not answer\n", res.abandoned,
				res.abandoned == 1 ? "" : "s");
		fprintf(stderr, "slcscope run: interrupted by %s during step %s; the trace %s holds every sample up to now%s%s%s\n",
			sig == SIGTERM ? "SIGTERM" : "SIGINT", plan->step[failed].name, a->out, a->report ? " (no report: "
			"'slcscope report " : "", a->report ? a->out : "", a->report ? " -o DIR' writes one)" : "");
		return 128 + sig;
	}
	if (rc && res.error)
		return cli_fail("run", "step %s: I/O error at offset %" PRIu64 " (%s); the trace %s keeps every sample before it",
				plan->step[failed].name, res.error_offset, strerror(-res.error), a->out);
	if (rc)
		return cli_fail("run", "step %s: %s", plan->step[failed].name, err);
	if (!u->quiet)
		fprintf(stderr, "slcscope run: trace written to %s\n", a->out);
	return CLI_OK;
}

static int write_report(const struct run_args *a, const struct slc_run_console *u)
{
	struct slc_session x = { 0 };
	char err[512];
	int rc;

	x.allow_no_curve = 1;             /* a sweep alone reports its table */
	slc_output_signals();             /* the I/O is over: a signal now removes the unfinished report */
	if ((rc = cli_load(&x, "run", &a->out, 1, NULL, -1, NULL)))
		return rc;
	rc = slc_report_write(a->report, &x, NULL, u->quiet ? NULL : stderr, err, sizeof(err));
	slc_session_free(&x);
	if (rc)
		return cli_fail("run", "%s", err);
	if (!u->quiet)
		fprintf(stderr, "slcscope run: report in %s/index.html\n", a->report);
	return CLI_OK;
}

/* The open target: the last checks, a dry run or the run itself, then the report. */
static int run_on(const struct run_args *a, const struct slc_plan *plan, struct slc_target *t, struct slc_run_console *u)
{
	uint64_t steady_after_bytes;
	char err[512];

	u->virtual_clock = !!(slc_target_caps(t) & SLC_TARGET_CAP_VIRTUAL_CLOCK);
	if (slc_plan_validate(plan, slc_target_capacity(t), slc_target_logical_block(t), err, sizeof(err)))
		return cli_usage("run", "%s", err);
	if (slc_size_resolve(&steady_after_bytes, &a->steady_after, slc_target_capacity(t)))
		steady_after_bytes = UINT64_MAX;      /* more than this target holds: never steady */
	if (stop_sig || (!a->dry && slc_run_many_ready(a->many)))
		return stop_sig ? slc_run_interrupted(stderr, "slcscope run", stop_sig, "before anything was written")
		       : CLI_FAIL;
	if (a->dry) {
		slc_plan_print(stdout, plan, slc_target_spec(t), slc_target_capacity(t), u->virtual_clock, u->units);
		if (slc_target_kind(t) == SLC_TARGET_FILE)
			printf("destroys: the contents of %s\n", a->target);
		return CLI_OK;
	}
	return run_plan(a, plan, t, steady_after_bytes, u);
}

/* --fio-job: the plan as an fio job file; nothing is run. */
static int write_fio_job(const struct run_args *a, const struct slc_plan *plan, const struct slc_run_console *u)
{
	const struct slc_fio_job_opts fo = { .path = a->fio_job, .target = a->target,
		.file_size_bytes = a->to.file_size_bytes, .force = a->to.force, .command_line = a->cmdline,
		.io_poll = a->to.io_poll };
	char err[512];
	int usage = 0;

	if (slc_fio_job_write(&fo, plan, &usage, err, sizeof(err)))
		return usage ? cli_usage("run", "%s", err) : cli_fail("run", "%s", err);
	if (!u->quiet && strcmp(a->fio_job, "-"))
		fprintf(stderr, "slcscope run: fio job for plan %s (%zu steps) written to %s; nothing was run\n",
			plan->name, plan->n, a->fio_job);
	return CLI_OK;
}

/* -o before the target opens (a simulated drive takes seconds to build, a
 * device's checks longer), so that a typo fails at once.  Not when the
 * directory is made later: a dry run does not make its --report directory,
 * and with several drives the traces' directory is made once every drive
 * has passed its checks (slc_run_many); the run checks -o again then. */
static int check_out_early(const struct run_args *a, char *err, size_t len)
{
	struct stat st;

	if (!a->out || a->several || (a->dry && a->report && stat(a->report, &st) != 0))
		return 0;
	return slc_run_check_trace(a->target, a->out, a->to.force, err, len);
}

/* One target: the checks, a dry run, --fio-job or the run, the report. */
static int run_target(struct run_args *a, struct slc_plan *plan, struct slc_run_console *u)
{
	struct slc_target *t = NULL;
	char err[512];
	struct stat st;
	int rc;

	/* a dry run of a file still to create without --size fails below: no note before that */
	if ((a->fio_job || (a->dry && (a->to.file_size_bytes || stat(a->target, &st) == 0))) &&
	    slc_plan_fit_spec(plan, a->target, err, sizeof(err)))
		fprintf(stderr, "slcscope run: note: %s\n", err);
	/* what a polled run needs, checked before a dry run or a job file promises one */
	if ((a->fio_job || a->dry) && (a->to.io_poll & SLC_TARGET_HIPRI) && slc_blockdev_poll_queues(a->target, err, sizeof(err)))
		return cli_fail("run", "%s", err);
	if (a->fio_job)
		return write_fio_job(a, plan, u);
	/* a typo in --report is found now, not after hours of writing */
	if (a->report && (a->dry ? slc_report_dir_check(a->report, &a->out, 1, err, sizeof(err))
		       : slc_report_dir_prepare(a->report, &a->out, 1, err, sizeof(err))))
		return cli_fail("run", "--report %s", err);
	if (check_out_early(a, err, sizeof(err)))
		return cli_fail("run", "%s", err);
	if (a->use_lab && a->lab && same_file(a->lab, a->out))
		return cli_usage("run", "--lab=%s is the trace -o names: the lab needs a file of its own", a->lab);
	if (a->use_lab && slc_lab_add_trace(a->lab, NULL, NULL, err, sizeof(err)))
		return cli_fail("run", "--lab: %s", err);
	if (a->dry && stat(a->target, &st) == 0 && S_ISBLK(st.st_mode))
		return dry_run_blockdev(a->target, plan, a->to.destructive, a->to.force, u->units);
	if (a->dry && strncmp(a->target, "sim:", 4) && strncmp(a->target, "null:", 5) && stat(a->target, &st) != 0)
		return dry_run_new_file(a, plan, u->units);
	a->to.stop = &stop_sig;
	if ((rc = slc_target_open(&t, a->target, &a->to, err, sizeof(err))))
		return stop_sig ? slc_run_interrupted(stderr, "slcscope run", stop_sig, "during the checks") : cli_fail("run", "%s", err);
	if (slc_plan_fit_block(plan, slc_target_logical_block(t), err, sizeof(err)))
		fprintf(stderr, "slcscope run: note: %s\n", err);
	rc = run_on(a, plan, t, u);
	slc_target_close(t);
	if (rc == CLI_OK && a->report && !a->dry)
		rc = write_report(a, u);
	if (rc == CLI_OK && a->use_lab && !a->dry) {
		struct slc_lab_added ad;
		if (slc_lab_add_trace(a->lab, a->out, &ad, err, sizeof(err)))
			return cli_fail("run", "--lab: %s (the trace %s is kept)", err, a->out);
		if (!u->quiet) fprintf(stderr, "slcscope run: in the lab as run %lld\n", (long long)ad.run_id);
	}
	/* last, where it is seen: those speeds are not the drive's */
	if (rc == CLI_OK && !a->dry && !u->quiet && slc_session_host_note(err, sizeof(err), a->out))
		fprintf(stderr, "slcscope run: note: %s\n", err);
	return rc;
}

/* A child of run_several(): one of the targets, as if it were the only one. */
static int run_one(void *arg, size_t i, const char *target, const char *trace, struct slc_run_many_child *c)
{
	struct run_args *a = arg;

	(void)i;
	a->target = target;
	a->out = trace;
	a->many = c;
	a->several = 1;
	slc_run_many_console(c, a->u);
	return run_target(a, a->plan, a->u);
}

/* Several targets at once, each in a process of its own (slc_run_many()). */
static int run_several(struct run_args *a)
{
	const struct slc_run_many_opts mo = { .targets = a->targets, .n = a->n_targets, .out_dir = a->out,
		.dry = a->dry, .force = a->to.force, .quiet = a->u->quiet, .log = stderr, .prog = "slcscope run",
		.stop = &stop_sig, .run_one = run_one, .arg = a };
	char err[512];
	int rc;

	if (a->report)
		return cli_usage("run", "give --report with one TARGET; report DIR/*.h5 afterwards");
	if (a->fio_job || a->use_lab)
		return cli_usage("run", "give %s with one TARGET", a->fio_job ? "--fio-job" : "--lab");
	if ((rc = slc_run_many(&mo, err, sizeof(err))) < 0)
		return rc == -EINVAL ? cli_usage("run", "%s", err) : cli_fail("run", "%s", err);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	static struct run_args a;
	static struct slc_plan plan;
	struct slc_run_console u;
	int rc;

	/* first thing: a Ctrl-C while the target opens (a simulated drive
	 * allocates its tables) must not be lost or kill us half-way */
	slc_run_signals(on_signal);
	memset(&a, 0, sizeof(a));
	slc_run_console_init(&u, stderr, "slcscope run", 0);
	if ((rc = parse_args(argc, argv, &a, &plan, &u)))
		return rc;
	a.plan = &plan;
	a.u = &u;
	/* -o DIR/ takes one TARGET too: its trace is DIR/NAME.h5 */
	if (a.n_targets > 1 || (a.out && *a.out && a.out[strlen(a.out) - 1] == '/'))
		return run_several(&a);
	rc = run_target(&a, &plan, &u);
	if (rc != CLI_OK && a.report && !a.dry && slc_report_dir_unprepare(a.report) && !u.quiet)
		fprintf(stderr, "slcscope run: removed %s, made for the report and left empty\n", a.report);
	return rc;
}

const struct cli_cmd cli_cmd_run = {
	.doc = &run_doc,
	.run = cmd_run,
};
