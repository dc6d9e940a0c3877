// SPDX-License-Identifier: MIT
/*
 * slcscope emulate: serve a simulated drive as DIR/drive.img through FUSE,
 * with the model's timing in real time, for loop devices (the emulator
 * library, slcscope/emulate.h): its options, messages and exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "slcscope/emulate.h"
#include "cli.h"

enum {
	O_CAPACITY = 256, O_STORE, O_SEED, O_PIDFILE, O_LOG, O_QUIET, O_FAIL_AFTER, O_FAIL_AT,
	O_SPIKE_EVERY, O_SPIKE_MS, O_VANISH, O_TRIM_MS,
};
#define STR_(x) #x
#define STR(x) STR_(x)

static const struct slc_help_cmd emulate_doc = {
	.name = "emulate",
	.summary = "serve a simulated drive as a file for a loop device (FUSE, real time)",
	.usage = "emulate MODEL DIR [options]",
	.operands = "@presets;@dir;@none",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Serve a simulated drive as the file DIR/drive.img through FUSE, with the model's\n"
			  "timing applied in real time: attached with\n"
			  "    losetup --direct-io=on -f --show DIR/drive.img\n"
			  "it gives a /dev/loopN that behaves like the model (SLC cache, direct-to-TLC,\n"
			  "erase-bound, idle folding, TRIM).  MODEL is a preset ('slcscope sim list') or a\n"
			  "model file, as in sim:MODEL.  DIR is created if missing and is the mount point;\n"
			  "it also holds stats.json, the model's counters (read-only, fresh at each open).\n"
			  "The data is really stored (reads return what was written) in a sparse file;\n"
			  "TRIM (discard, write-zeroes) reaches the model and punches holes in it.\n" },
		{ .title = "Scales (docs/emulate.md)", .opt = (const struct slc_help_opt[]){
			{ "time-scale", 't', "X", 't', "model seconds per real second (default 1): at 20 the\n"
			  "drive is 20 times faster, its idle folding too;\n0.25 is four times slower.  X or a fraction (1/4)",
			  "@none" },
			{ "size-scale", 's', "F", 's', "shrink capacity, flash, SLC cache, idle-GC target and\n"
			  "map cache by F (0 < F <= 1, e.g. 1/8 or 0.125); speeds\nand erase blocks stay", "@none" },
			{ "capacity", 0, "SIZE", O_CAPACITY, "... or give the capacity: F = SIZE / model capacity", "@none" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "store", 0, "FILE", O_STORE, "keep the data in FILE (sparse; emptied at start, as the\n"
			  "model starts trimmed; kept afterwards; default\nan unlinked file in $TMPDIR, else /var/tmp)", NULL },
			{ "seed", 0, "N", O_SEED, "the model's noise seed (default 1)", "@none" },
			{ "daemon", 'd', NULL, 'd', "detach once DIR/drive.img is ready; the command returns\n"
			  "then (exit 0), or with the error (exit 1)", NULL },
			{ "pidfile", 0, "FILE", O_PIDFILE, "write the server's pid to FILE once ready (removed at exit)", NULL },
			{ "log", 0, "FILE", O_LOG, "with --daemon: events and the final counters go to FILE\n"
			  "(default: discarded)", NULL },
			{ "quiet", 0, NULL, O_QUIET, "no event lines (cache exhausted, TRIM, ...)", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .title = "Faults", .opt = (const struct slc_help_opt[]){
			{ "fail-after-bytes", 0, "SIZE", O_FAIL_AFTER, "every write once SIZE has been written fails (EIO)",
			  "@none" },
			{ "fail-at", 0, "OFFSET[,...]", O_FAIL_AT, "any read or write covering one of these byte\n"
			  "offsets fails (EIO), every time (at most " STR(SLC_EMU_MAX_FAIL_AT) ")", "@none" },
			{ "spike-every", 0, "N", O_SPIKE_EVERY, "every Nth command (reads, writes, TRIMs) completes", "@none" },
			{ "spike-ms", 0, "MS", O_SPIKE_MS, "... MS milliseconds later (real time; default 100)", "@none" },
			{ "trim-ms", 0, "MS", O_TRIM_MS, "every TRIM completes MS ms later (a stalled TRIM)", "@none" },
			{ "vanish-after-bytes", 0, "SIZE", O_VANISH, "once SIZE has been written the drive disappears:\n"
			  "the next write and everything after it fail, the\nFUSE connection is closed and DIR unmounted",
			  "@none" },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .text = "The server runs until SIGINT or SIGTERM (or an unmount of DIR), then unmounts\n"
			  "and prints its counters on stderr: host writes, NAND writes, TRIMs, cache\n"
			  "events.  Detach loop devices first: their I/O fails once the server is gone.\n"
			  "Exit status: 0 after a clean unmount (also after a vanish fault), 1 failure,\n"
			  "2 usage error.  Needs /dev/fuse, and root for loop devices.\n" },
		{ 0 },
	},
};

/* A positive factor: "20", "0.25" or "1/4". */
static int parse_factor(const char *opt, const char *arg, double *out)
{
	char *end;
	double v, d = 1;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '/') {
		const char *s = end + 1;
		d = strtod(s, &end);
		if (end == s)
			d = NAN;
	}
	if (errno || end == arg || *end || !(v > 0) || !(d > 0) || !isfinite(v / d) || v / d > 1e6)
		return cli_usage("emulate", "%s: '%s' is not a positive factor (e.g. 20, 0.25 or 1/4)", opt, arg);
	*out = v / d;
	return 0;
}

static int parse_offsets(const char *arg, struct slc_emu_opts *o)
{
	char list[4096], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(list))
		return cli_usage("emulate", "--fail-at: too long");
	strcpy(list, arg);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char err[128];
		if (o->n_fail_at == SLC_EMU_MAX_FAIL_AT)
			return cli_usage("emulate", "--fail-at: at most %d offsets", SLC_EMU_MAX_FAIL_AT);
		if (slc_parse_bytes(&o->fail_at[o->n_fail_at], tok, err, sizeof(err)))
			return cli_usage("emulate", "--fail-at: %s", err);
		o->n_fail_at++;
	}
	if (!o->n_fail_at)
		return cli_usage("emulate", "--fail-at: no offsets given");
	return 0;
}

/* Serve until the end, then say how it ended (the server's exit code). */
static int serve(struct slc_emu *e, void *arg)
{
	const struct slc_emu_opts *o = arg;
	int rc = slc_emu_serve(e);

	slc_emu_summary(e, stderr);
	if (rc < 0)
		fprintf(stderr, "slcscope emulate: serving failed: %s\n", strerror(-rc));
	else if (slc_emu_vanished(e))
		fprintf(stderr, "slcscope emulate: the drive vanished as asked (--vanish-after-bytes); %s unmounted\n", o->dir);
	else
		fprintf(stderr, "slcscope emulate: %s unmounted\n", o->dir);
	return rc < 0 ? CLI_FAIL : CLI_OK;
}

static int foreground(const struct slc_sim_model *m, struct slc_emu_opts *o)
{
	struct slc_emu *e;
	char err[512];
	int rc;

	if (slc_emu_open(&e, m, o, err, sizeof(err)))
		return cli_fail("emulate", "%s", err);
	slc_emu_describe(e, stdout);
	printf("slcscope emulate: ready, pid %ld (Ctrl-C to stop)\n", (long)getpid());
	fflush(stdout);
	rc = serve(e, o);
	slc_emu_close(e);
	return rc;
}

static int daemonize(const struct slc_sim_model *m, struct slc_emu_opts *o)
{
	char err[4096];
	pid_t pid;

	if (slc_emu_spawn(m, o, serve, o, stdout, &pid, err, sizeof(err)))
		return cli_fail("emulate", "%s", err);
	printf("slcscope emulate: ready, pid %ld\n", (long)pid);
	return CLI_OK;
}

static int emulate_run(int argc, char **argv)
{
	struct slc_emu_opts o;
	struct slc_sim_model m;
	uint64_t capacity = 0, v;
	char err[512];
	int opt, rc, daemon = 0, size_given = 0, spike_ms_given = 0;
	const char *letters;
	const struct option *opts = cli_getopt(&emulate_doc, &letters);

	slc_emu_opts_init(&o);
	while ((opt = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		switch (opt) {
		case 't': if ((rc = parse_factor("--time-scale", optarg, &o.time_scale))) return rc; break;
		case 's':
			if ((rc = parse_factor("--size-scale", optarg, &o.size_scale)))
				return rc;
			if (o.size_scale > 1)
				return cli_usage("emulate", "--size-scale: at most 1 (the model's own size)");
			size_given = 1;
			break;
		case O_CAPACITY:
			if (slc_parse_bytes(&capacity, optarg, err, sizeof(err)) || !capacity)
				return cli_usage("emulate", "--capacity: %s", capacity ? err : "must be more than 0");
			break;
		case O_STORE: o.store = optarg; break;
		case O_SEED: if ((rc = cli_parse_uint("emulate", "--seed", optarg, 0, UINT64_MAX, &o.seed))) return rc; break;
		case 'd': daemon = 1; break;
		case O_PIDFILE: o.pidfile = optarg; break;
		case O_LOG: o.log = optarg; break;
		case O_QUIET: o.quiet = 1; break;
		case O_FAIL_AFTER:
			if (slc_parse_bytes(&o.fail_after_bytes, optarg, err, sizeof(err)))
				return cli_usage("emulate", "--fail-after-bytes: %s", err);
			break;
		case O_FAIL_AT: if ((rc = parse_offsets(optarg, &o))) return rc; break;
		case O_SPIKE_EVERY:
			if ((rc = cli_parse_uint("emulate", "--spike-every", optarg, 1, UINT64_MAX, &o.spike_every)))
				return rc;
			break;
		case O_SPIKE_MS:
			if ((rc = cli_parse_uint("emulate", "--spike-ms", optarg, 1, 600000, &v)))
				return rc;
			o.spike_ns = v * 1000000ull;
			spike_ms_given = 1;
			break;
		case O_TRIM_MS: if ((rc = cli_parse_uint("emulate", "--trim-ms", optarg, 1, 3600000, &v))) return rc;
			o.trim_delay_ns = v * 1000000ull; break;
		case O_VANISH:
			if (slc_parse_bytes(&o.vanish_after_bytes, optarg, err, sizeof(err)))
				return cli_usage("emulate", "--vanish-after-bytes: %s", err);
			break;
		default:
			return cli_bad_option("emulate", opts, argv[optind - 1]);
		}
	}
	if (argc - optind < 2)
		return cli_usage("emulate", "needs a MODEL and a DIR (e.g. slcscope emulate tiny-tlc /mnt/emu)");
	if (argc - optind > 2)
		return cli_usage("emulate", "takes a MODEL and a DIR, got '%s' too", argv[optind + 2]);
	if (capacity && size_given)
		return cli_usage("emulate", "--capacity and --size-scale exclude each other");
	if (spike_ms_given && !o.spike_every)
		return cli_usage("emulate", "--spike-ms needs --spike-every N");
	if (o.log && !daemon)
		return cli_usage("emulate", "--log is for --daemon (in the foreground, redirect stderr)");
	o.dir = argv[optind + 1];
	if ((rc = slc_sim_model_load(&m, argv[optind], err, sizeof(err))))
		return cli_fail("emulate", "%s", err);
	if (capacity && slc_emu_capacity_scale(&m, capacity, &o.size_scale, err, sizeof(err)))
		return cli_usage("emulate", "--capacity: %s", err);
	if (slc_emu_scale_model(&m, o.size_scale, err, sizeof(err)))
		return cli_usage("emulate", "%s", err);
	return daemon ? daemonize(&m, &o) : foreground(&m, &o);
}

const struct cli_cmd cli_cmd_emulate = {
	.doc = &emulate_doc,
	.run = emulate_run,
};
