// SPDX-License-Identifier: MIT
/*
 * slcscope emulate: serve a simulated drive as DIR/drive.img through FUSE,
 * with the model's timing in real time, for loop devices (cli/emulate.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "cli.h"
#include "emulate.h"

static void emulate_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope emulate MODEL DIR [options]\n"
		"\n"
		"Serve a simulated drive as the file DIR/drive.img through FUSE, with the model's\n"
		"timing applied in real time: attached with\n"
		"    losetup --direct-io=on -f --show DIR/drive.img\n"
		"it gives a /dev/loopN that behaves like the model (SLC cache, direct-to-TLC,\n"
		"erase-bound, idle folding, TRIM).  MODEL is a preset ('slcscope sim list') or a\n"
		"model file, as in sim:MODEL.  DIR is created if missing and is the mount point;\n"
		"it also holds stats.json, the model's counters (read-only, fresh at each open).\n"
		"The data is really stored (reads return what was written) in a sparse file;\n"
		"TRIM (discard, write-zeroes) reaches the model and punches holes in it.\n"
		"\n"
		"Scales (docs/emulate.md):\n"
		"  -t, --time-scale X       model seconds per real second (default 1): at 20 the\n"
		"                           drive is 20 times faster, its idle folding too;\n"
		"                           0.25 is four times slower.  X or a fraction (1/4)\n"
		"  -s, --size-scale F       shrink capacity, flash, SLC cache, idle-GC target and\n"
		"                           map cache by F (0 < F <= 1, e.g. 1/8 or 0.125); speeds\n"
		"                           and erase blocks stay\n"
		"      --capacity SIZE      ... or give the capacity: F = SIZE / model capacity\n"
		"\n"
		"Options:\n"
		"      --store FILE         keep the data in FILE (sparse; emptied at start, as the\n"
		"                           model starts trimmed; kept afterwards; default\n"
		"                           an unlinked file in $TMPDIR, else /var/tmp)\n"
		"      --seed N             the model's noise seed (default 1)\n"
		"  -d, --daemon             detach once DIR/drive.img is ready; the command returns\n"
		"                           then (exit 0), or with the error (exit 1)\n"
		"      --pidfile FILE       write the server's pid to FILE once ready (removed at exit)\n"
		"      --log FILE           with --daemon: events and the final counters go to FILE\n"
		"                           (default: discarded)\n"
		"      --quiet              no event lines (cache exhausted, TRIM, ...)\n"
		"\n"
		"Faults:\n"
		"      --fail-after-bytes SIZE  every write once SIZE has been written fails (EIO)\n"
		"      --fail-at OFFSET[,...]   any read or write covering one of these byte\n"
		"                               offsets fails (EIO), every time (at most %d)\n"
		"      --spike-every N          every Nth command (reads, writes, TRIMs) completes\n"
		"      --spike-ms MS            ... MS milliseconds later (real time; default 100)\n"
		"      --vanish-after-bytes SIZE  once SIZE has been written the drive disappears:\n"
		"                               the next write and everything after it fail, the\n"
		"                               FUSE connection is closed and DIR unmounted\n"
		"\n"
		"The server runs until SIGINT or SIGTERM (or an unmount of DIR), then unmounts\n"
		"and prints its counters on stderr: host writes, NAND writes, TRIMs, cache\n"
		"events.  Detach loop devices first: their I/O fails once the server is gone.\n"
		"Exit status: 0 after a clean unmount (also after a vanish fault), 1 failure,\n"
		"2 usage error.  Needs /dev/fuse, and root for loop devices.\n",
		EMU_MAX_FAIL_AT);
}

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

static int parse_offsets(const char *arg, struct emu_opts *o)
{
	char list[4096], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(list))
		return cli_usage("emulate", "--fail-at: too long");
	strcpy(list, arg);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char err[128];
		if (o->n_fail_at == EMU_MAX_FAIL_AT)
			return cli_usage("emulate", "--fail-at: at most %d offsets", EMU_MAX_FAIL_AT);
		if (slc_parse_bytes(&o->fail_at[o->n_fail_at], tok, err, sizeof(err)))
			return cli_usage("emulate", "--fail-at: %s", err);
		o->n_fail_at++;
	}
	if (!o->n_fail_at)
		return cli_usage("emulate", "--fail-at: no offsets given");
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "%ld\n", (long)getpid());
	return fclose(f) ? -errno : 0;
}

/*
 * Set up and serve.  @ready (daemon: the pipe to the waiting parent, else -1)
 * gets 'R' and the description once mounted, or 'E' and the error.
 */
static int serve(const struct slc_sim_model *m, struct emu_opts *o, const char *pidfile, const char *log, int ready)
{
	struct emu *e = NULL;
	char err[512];
	int rc;

	if ((rc = emu_open(&e, m, o, err, sizeof(err)))) {
		emu_close(e);
		if (o->size_scale < 1 && strstr(err, "not enough flash")) {
			size_t n = strlen(err);
			/* the GC reserve and the static SLC pool do not shrink below whole blocks */
			snprintf(err + n, sizeof(err) - n, " (size scale %g is too small for this model: use a larger one)",
				 o->size_scale);
		}
		if (ready >= 0) {
			dprintf(ready, "E%s", err);
			close(ready);
			return CLI_FAIL;
		}
		return cli_fail("emulate", "%s", err);
	}
	if (pidfile && (rc = write_pidfile(pidfile))) {
		emu_close(e);
		snprintf(err, sizeof(err), "--pidfile %s: %s", pidfile, strerror(-rc));
		if (ready >= 0) {
			dprintf(ready, "E%s", err);
			close(ready);
			return CLI_FAIL;
		}
		return cli_fail("emulate", "%s", err);
	}
	if (ready >= 0) {
		FILE *f = fdopen(ready, "w");
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		int lfd = log ? open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;

		if (log && lfd < 0) {
			snprintf(err, sizeof(err), "--log %s: %s", log, strerror(errno));
			if (f) {
				fprintf(f, "E%s", err);
				fclose(f);
			}
			if (null >= 0)
				close(null);
			if (pidfile)
				unlink(pidfile);
			emu_close(e);
			return CLI_FAIL;
		}
		if (f) {
			fputc('R', f);
			emu_describe(e, f);
			fprintf(f, "slcscope emulate: ready, pid %ld\n", (long)getpid());
			fclose(f);
		}
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(lfd >= 0 ? lfd : null, STDERR_FILENO);
			close(null);
		}
		if (lfd >= 0)
			close(lfd);
	} else {
		emu_describe(e, stdout);
		printf("slcscope emulate: ready, pid %ld (Ctrl-C to stop)\n", (long)getpid());
		fflush(stdout);
	}
	rc = emu_serve(e);
	emu_summary(e, stderr);
	if (rc < 0)
		fprintf(stderr, "slcscope emulate: serving failed: %s\n", strerror(-rc));
	else if (emu_vanished(e))
		fprintf(stderr, "slcscope emulate: the drive vanished as asked (--vanish-after-bytes); %s unmounted\n", o->dir);
	else
		fprintf(stderr, "slcscope emulate: %s unmounted\n", o->dir);
	emu_close(e);
	if (pidfile)
		unlink(pidfile);
	return rc < 0 ? CLI_FAIL : CLI_OK;
}

static int daemonize(const struct slc_sim_model *m, struct emu_opts *o, const char *pidfile, const char *log)
{
	char buf[4096];
	size_t got = 0;
	int p[2], status;
	pid_t pid;

	fflush(NULL);
	if (pipe2(p, O_CLOEXEC))
		return cli_fail("emulate", "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return cli_fail("emulate", "fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		setsid();
		_exit(serve(m, o, pidfile, log, p[1]));
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], buf + got, sizeof(buf) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (got += (size_t)n) == sizeof(buf) - 1)
			break;
	}
	close(p[0]);
	buf[got] = 0;
	if (got && buf[0] == 'R') {
		fputs(buf + 1, stdout);
		return CLI_OK;
	}
	waitpid(pid, &status, 0);
	if (got && buf[0] == 'E')
		return cli_fail("emulate", "%s", buf + 1);
	return cli_fail("emulate", "the server exited before it was ready");
}

static int emulate_run(int argc, char **argv)
{
	enum {
		O_CAPACITY = 256, O_STORE, O_SEED, O_PIDFILE, O_LOG, O_QUIET, O_FAIL_AFTER, O_FAIL_AT,
		O_SPIKE_EVERY, O_SPIKE_MS, O_VANISH,
	};
	static const struct option opts[] = {
		{ "time-scale", required_argument, NULL, 't' }, { "size-scale", required_argument, NULL, 's' },
		{ "capacity", required_argument, NULL, O_CAPACITY }, { "store", required_argument, NULL, O_STORE },
		{ "seed", required_argument, NULL, O_SEED }, { "daemon", no_argument, NULL, 'd' },
		{ "pidfile", required_argument, NULL, O_PIDFILE }, { "log", required_argument, NULL, O_LOG },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "fail-after-bytes", required_argument, NULL, O_FAIL_AFTER }, { "fail-at", required_argument, NULL, O_FAIL_AT },
		{ "spike-every", required_argument, NULL, O_SPIKE_EVERY }, { "spike-ms", required_argument, NULL, O_SPIKE_MS },
		{ "vanish-after-bytes", required_argument, NULL, O_VANISH },
		{ NULL, 0, NULL, 0 },
	};
	struct emu_opts o = { .time_scale = 1, .size_scale = 1, .seed = 1,
			      .fail_after_bytes = UINT64_MAX, .vanish_after_bytes = UINT64_MAX,
			      .spike_ns = 100000000ull };
	struct slc_sim_model m;
	const char *pidfile = NULL, *log = NULL;
	uint64_t capacity = 0, v;
	char err[512];
	int opt, rc, daemon = 0, size_given = 0, spike_ms_given = 0;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "t:s:d", opts, NULL)) != -1) {
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
		case O_PIDFILE: pidfile = optarg; break;
		case O_LOG: log = optarg; break;
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
		case O_VANISH:
			if (slc_parse_bytes(&o.vanish_after_bytes, optarg, err, sizeof(err)))
				return cli_usage("emulate", "--vanish-after-bytes: %s", err);
			break;
		default:
			return cli_usage("emulate", "unknown option '%s'", argv[optind - 1]);
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
	if (log && !daemon)
		return cli_usage("emulate", "--log is for --daemon (in the foreground, redirect stderr)");
	o.dir = argv[optind + 1];
	if ((rc = slc_sim_model_load(&m, argv[optind], err, sizeof(err))))
		return cli_fail("emulate", "%s", err);
	if (capacity) {
		if (capacity > m.capacity_bytes)
			return cli_usage("emulate", "--capacity: larger than the model's %" PRIu64 " bytes", m.capacity_bytes);
		o.size_scale = (double)capacity / (double)m.capacity_bytes;
	}
	if (emu_scale_model(&m, o.size_scale, err, sizeof(err)))
		return cli_usage("emulate", "%s", err);
	if (daemon)
		return daemonize(&m, &o, pidfile, log);
	return serve(&m, &o, pidfile, NULL, -1);
}

const struct cli_cmd cli_cmd_emulate = {
	.name = "emulate",
	.summary = "serve a simulated drive as a file for a loop device (FUSE, real time)",
	.run = emulate_run,
	.help = emulate_help,
};
