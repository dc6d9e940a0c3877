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

#include "slcscope/analysis.h"
#include "slcscope/core.h"
#include "slcscope/probe.h"
#include "slcscope/probes.h"
#include "cli.h"
#include "report.h"

static void run_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope run TARGET -o FILE.h5 [options]\n"
		"\n"
		"Run the lab's write-behaviour plan on TARGET and record every step in an HDF5\n"
		"trace (docs/trace-format.md).  TARGET is a simulated drive (sim:MODEL, 'sim:'\n"
		"for the default), a regular file, a whole block device (destroys its data: needs\n"
		"--destructive) or null:SIZE (no I/O; measures slcscope's own overhead).\n"
		"\n"
		"Plans (--plan):\n"
		"  lab   TRIM the whole target and wait; sequential fill (128 KiB QD32, one\n"
		"        capacity); TRIM and wait; 4 KiB QD32 random writes for 2 h; idle 15 min;\n"
		"        recovery burst; TRIM of the whole target; recovery burst   [default]\n"
		"  seq   TRIM and wait; sequential fill (a quick cache size)\n"
		"  rand  TRIM and wait; the random write curve\n"
		"  trim-response  TRIM and wait; write 2 x --trim-bytes; random 4 KiB reads of\n"
		"        the second half (5 s, baseline); TRIM the first half; at once the same\n"
		"        reads for --read-time, sampled every 100 ms: how long reads stall and\n"
		"        how slow they get after a large delete\n"
		"  fill-levels  TRIM; fill to 25/50/75/90%%, after each a 4 KiB QD4 random burst\n"
		"        in the space left (--burst); TRIM all; burst again\n"
		"  compress  TRIM; sequential burst of incompressible data; TRIM; the same\n"
		"        burst of repeating data (controllers that compress)\n"
		"  hir   SNIA PTS host idle recovery: TRIM; saturate; for waits of 5, 10, 15,\n"
		"        25 and 50 s: --hir-rounds x (5 s of 4 KiB random writes, the wait), then\n"
		"        saturate again (--burst)\n"
		"  idle-sweep  TRIM and wait; a burst that saturates the cache; then for each\n"
		"        wait of --idle-list: idle, burst (how much cache came back; the burst\n"
		"        saturates it again).  'slcscope plot --kind idle' draws the result\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE.h5     the trace to write (replaced if it exists)\n"
		"  -p, --plan NAME          lab, seq or rand\n"
		"      --seq-bytes SIZE     sequential fill size (default 1x = one capacity)\n"
		"      --rand-time DURATION random curve length (default 2h)\n"
		"      --rand-bytes SIZE    ... or stop it after this much (e.g. 2x, 500GB)\n"
		"      --bs-seq SIZE        sequential block size (default 128k)\n"
		"      --bs-rand SIZE       random block size (default 4k)\n"
		"  -q, --qd N               queue depth per job, 1 to 256 (default 32)\n"
		"  -j, --jobs N             writers at once (default 1): sequential jobs each write\n"
		"                           their own slice, random ones the whole target;\n"
		"                           queue depth x jobs is at most 256\n"
		"      --reap-batch N       refill the queue once N commands have completed\n"
		"                           (default: queue depth x jobs / 8, at least 1;\n"
		"                           1 refills after every completion)\n"
		"  -i, --interval DURATION  sampling interval (default 1s, down to 10ms)\n"
		"      --idle DURATION      idle before the first recovery burst (default 15m)\n"
		"      --burst DURATION     length of each recovery burst (default 60s)\n"
		"      --idle-list LIST     idle-sweep waits (default 5s,15s,30s,1m,2m,5m,15m)\n"
		"      --trim-bytes SIZE    trim-response: the range deleted (default 32GB; at most\n"
		"                           half the target)\n"
		"      --read-time DURATION trim-response: reads after the TRIM (default 30s)\n"
		"      --hir-rounds N       hir: write/wait rounds per wait state (default 360)\n"
		"      --trim-wait DURATION wait after each TRIM (default 30s)\n"
		"      --until-steady       end the random curve early once SNIA PTS steady state\n"
		"                           holds (5 x 60 s rounds within 20%%, slope within 10%%)\n"
		"      --steady-after SIZE  ... counting only after this much (default 2x)\n"
		"      --seed N             offsets, data and simulated noise (default 1)\n"
		"      --size SIZE          regular files: create or extend to this size\n"
		"      --destructive        allow writing a block device (destroys its data)\n"
		"      --force              write a block device even with partitions or a\n"
		"                           filesystem signature on it\n"
		"  -r, --report DIR         afterwards, analyse the trace and write a report into DIR\n"
		"                           (phases.json, phases.csv, graphs, summary.md, index.html;\n"
		"                           DIR is created first, so -o may point into it)\n"
		"  -n, --dry-run            print the plan and what would be destroyed; write nothing\n"
		"      --purge              before the plan, purge the drive: NVMe Sanitize (crypto,\n"
		"                           then block erase) or Format with secure erase when the\n"
		"                           drive supports it, otherwise a TRIM of all of it; the\n"
		"                           trace records which\n"
		"      --temp-every DURATION  read the drive's temperature and write counters this\n"
		"                           often (default 5s; every sample on a simulated drive;\n"
		"                           the sample of that moment carries the temperature)\n"
		"      --no-probe           no identity/SMART snapshots or temperature readings\n"
		"      --quiet              no progress or step lines\n"
		"\n"
		"Ctrl-C or SIGTERM stops the I/O and closes the trace with every sample up to\n"
		"that moment (exit 130 or 143).  A device error stops the run, keeps the trace\n"
		"and reports the offset (exit 1).\n"
		"\n"
		"The trace keeps the drive's identity and a SMART/health snapshot before and\n"
		"after every step (NVMe through libnvme, SATA through libatasmart; none on\n"
		"loop, virtio or files), so 'slcscope analyze' can give each step's write\n"
		"amplification where the drive counts NAND writes.\n");
}

static volatile int stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

struct ui {
	int quiet, tty;
	/* --until-steady: the random curve's samples so far */
	int until_steady;
	struct slc_size steady_after;
	uint64_t steady_after_bytes;
	double *t, *dt, *bps;
	size_t n, cap;
	double from_s, next_check_s;
	uint64_t prev_bytes;
	int steady_reached;
	enum slc_unit_system units;
	uint64_t limit_bytes;
	uint64_t limit_ns;
	struct timespec last;
	int virtual_clock;
	/* probes: identity and health snapshots, temperature */
	struct slc_probe *probe;
	struct slc_trace *trace;
	struct slc_target *target;
	uint64_t seg_t0_ns;
	int smart_warned;
};

/* Store a health snapshot of the drive in the trace under @kind. */
static void health_snapshot(struct ui *u, const char *kind, double t_s)
{
	struct slc_health h;
	char err[256] = "";
	char *js;

	if (!u->probe || !u->trace)
		return;
	if (slc_probe_health(u->probe, &h, err, sizeof(err))) {
		if (!u->smart_warned++ && !u->quiet)
			fprintf(stderr, "%sslcscope run: warning: SMART read failed (%s); the run goes on without it\n",
				u->tty ? "\r\033[K" : "", err);
		return;
	}
	if (!h.has_smart)
		return;                 /* said once, in the identity snapshot */
	if ((js = slc_probe_json(NULL, &h))) {
		slc_trace_snapshot(u->trace, kind, t_s, js);
		free(js);
	}
}

static void segment_open(void *arg, size_t i, const struct slc_plan *p)
{
	struct ui *u = arg;

	(void)i; (void)p;
	u->seg_t0_ns = slc_target_now_ns(u->target);
	health_snapshot(u, "health_before", 0);
}

static void segment_close(void *arg, size_t i, const struct slc_plan *p)
{
	struct ui *u = arg;

	(void)i; (void)p;
	health_snapshot(u, "health_after", (double)(slc_target_now_ns(u->target) - u->seg_t0_ns) * 1e-9);
}

/*
 * Every --temp-every: read the drive's health; the temperature goes into the
 * sample, the cumulative host and NAND write counters and the thermal
 * management transitions into the segment's events, so that the analysis can
 * give each phase its write amplification and tell throttling from GC.
 */
static int read_temperature(void *arg, double *c)
{
	struct ui *u = arg;
	struct slc_health h;
	double t_s;

	if (!u->probe || slc_probe_health(u->probe, &h, NULL, 0) || !h.has_smart)
		return -ENODATA;
	t_s = (double)(slc_target_now_ns(u->target) - u->seg_t0_ns) * 1e-9;
	if (u->trace && h.host_write_bytes != SLC_PROBE_UNKNOWN && h.nand_write_bytes != SLC_PROBE_UNKNOWN) {
		struct slc_event e1 = { t_s, 0, "smart_host_bytes", (double)h.host_write_bytes };
		struct slc_event e2 = { t_s, 0, "smart_nand_bytes", (double)h.nand_write_bytes };
		slc_trace_event(u->trace, &e1);
		slc_trace_event(u->trace, &e2);
	}
	if (u->trace && h.thm_transitions[0] != SLC_PROBE_UNKNOWN) {
		struct slc_event e = { t_s, 0, "thermal_transitions",
				       (double)h.thm_transitions[0] + (h.thm_transitions[1] != SLC_PROBE_UNKNOWN ? (double)h.thm_transitions[1] : 0) };
		slc_trace_event(u->trace, &e);
	}
	if (!isfinite(h.temp_c))
		return -ENODATA;
	*c = h.temp_c;
	return 0;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * --until-steady: stop the random curve once SNIA PTS steady state holds
 * (5 rounds of 60 s, range within 20%, slope within 10% of the average),
 * counting only rounds after --steady-after bytes (default 2x: the drive
 * has been written over twice, so neither the SLC cache nor the pool of
 * erased blocks, which on a drive with much spare area lasts past one
 * capacity, can pass for a plateau).
 */
static int steady_sample(void *arg, size_t i, const struct slc_plan *p, const struct slc_sample *smp)
{
	struct ui *u = arg;
	struct slc_steady_state ss;

	if (!u->until_steady || strcmp(p->step[i].name, "rand_curve") != 0)
		return 0;
	if (u->n == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 4096;
		double *t = realloc(u->t, cap * sizeof(*t)), *dt, *b;
		if (!t) return -ENOMEM;
		u->t = t;
		if (!(dt = realloc(u->dt, cap * sizeof(*dt)))) return -ENOMEM;
		u->dt = dt;
		if (!(b = realloc(u->bps, cap * sizeof(*b)))) return -ENOMEM;
		u->bps = b;
		u->cap = cap;
	}
	u->t[u->n] = smp->t_s;
	u->dt[u->n] = smp->interval_s;
	u->bps[u->n] = smp->interval_s > 0 ? (double)(smp->bytes_total - u->prev_bytes) / smp->interval_s : 0;
	u->prev_bytes = smp->bytes_total;
	u->n++;
	if (smp->bytes_total < u->steady_after_bytes)
		return 0;
	if (u->from_s < 0)
		u->from_s = smp->t_s;
	if (smp->t_s < u->next_check_s)
		return 0;
	u->next_check_s = smp->t_s + 60;
	if (slc_steady_state(&ss, u->t, u->dt, u->bps, u->n, u->from_s, 60, 5) == 0 && ss.reached) {
		u->steady_reached = 1;
		if (!u->quiet)
			fprintf(stderr, "%s[%zu/%zu %s] SNIA steady state from %.0f s to %.0f s at %.1f MB/s: stopping the curve\n",
				u->tty ? "\r\033[K" : "", i + 1, p->n, p->step[i].name, ss.start_s, ss.end_s, ss.avg_bps / 1e6);
		return SLC_ENGINE_DONE;
	}
	return 0;
}

static void step_begin(void *arg, size_t i, const struct slc_plan *p, uint64_t limit_bytes)
{
	struct ui *u = arg;
	const struct slc_step *s = &p->step[i];

	u->n = 0;
	u->prev_bytes = 0;
	u->from_s = -1;
	u->next_check_s = 0;

	u->limit_bytes = limit_bytes;
	u->limit_ns = s->kind == SLC_STEP_JOB ? s->job.max_ns : s->kind == SLC_STEP_DUTY ?
		      (uint64_t)s->rounds * (s->job.max_ns + s->wait_ns) : s->wait_ns;
	if (u->quiet)
		return;
	if (u->tty && s->kind != SLC_STEP_JOB && s->kind != SLC_STEP_DUTY)
		fprintf(stderr, "\r\033[K[%zu/%zu %s] ...", i + 1, p->n, s->name);
}

static void progress(void *arg, size_t i, const struct slc_plan *p, const struct slc_progress *pr)
{
	struct ui *u = arg;
	char b[32], r[32], e[32], eta[32] = "";
	static double last;
	double now;
	uint64_t left_ns = 0;

	if (u->quiet || !u->tty)
		return;
	now = wall_s();
	if (now - last < 0.25)
		return;
	last = now;
	if (u->limit_bytes && pr->bps > 0)
		left_ns = (uint64_t)((double)(u->limit_bytes > pr->bytes ? u->limit_bytes - pr->bytes : 0) / pr->bps * 1e9);
	if (u->limit_ns && u->limit_ns > pr->elapsed_ns && (!left_ns || u->limit_ns - pr->elapsed_ns < left_ns))
		left_ns = u->limit_ns - pr->elapsed_ns;
	if (left_ns)
		snprintf(eta, sizeof(eta), "  ETA %s", slc_format_duration(e, sizeof(e), left_ns));
	fprintf(stderr, "\r\033[K[%zu/%zu %s] %s%s  %s written  %s%s", i + 1, p->n, p->step[i].name,
		slc_format_duration(e, sizeof(e), pr->elapsed_ns), u->virtual_clock ? " (virtual)" : "",
		slc_format_bytes(b, sizeof(b), (double)pr->bytes, u->units),
		slc_format_rate(r, sizeof(r), pr->bps, u->units), eta);
}

static void step_end(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *res)
{
	struct ui *u = arg;
	const struct slc_step *s = &p->step[i];
	char b[32], r[32], d[32];

	if (u->quiet)
		return;
	if (u->tty)
		fprintf(stderr, "\r\033[K");
	if (s->kind == SLC_STEP_JOB || s->kind == SLC_STEP_DUTY)
		fprintf(stderr, "[%zu/%zu %s] %s in %s, %s average\n", i + 1, p->n, s->name,
			slc_format_bytes(b, sizeof(b), (double)res->bytes, u->units),
			slc_format_duration(d, sizeof(d), res->elapsed_ns),
			slc_format_rate(r, sizeof(r), res->elapsed_ns ? (double)res->bytes / ((double)res->elapsed_ns * 1e-9) : 0, u->units));
	else
		fprintf(stderr, "[%zu/%zu %s] %s%s\n", i + 1, p->n, s->name,
			s->kind == SLC_STEP_TRIM ? (s->bytes.bytes || s->bytes.capacity_multiple > 0 ? "TRIM of a range, then waited " : "TRIM of the whole target, then waited ") : "idle ",
			slc_format_duration(d, sizeof(d), s->wait_ns));
}

static void print_plan(const struct slc_plan *p, const char *spec, uint64_t capacity, int virtual_clock,
		       enum slc_unit_system units)
{
	uint64_t fixed_ns = 0;
	int open_ended = 0;
	char a[32], b[32], c[32];

	printf("plan %s on %s (%s):\n", p->name, spec, slc_format_bytes(a, sizeof(a), (double)capacity, units));
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		uint64_t bytes = 0;

		printf("  %zu. %-17s ", i + 1, s->name);
		switch (s->kind) {
		case SLC_STEP_TRIM:
			if (s->bytes.bytes || s->bytes.capacity_multiple > 0) {
				slc_size_resolve(&bytes, &s->bytes, capacity);
				printf("TRIM the first %s", slc_format_bytes(a, sizeof(a), (double)bytes, units));
			} else {
				printf("TRIM all %s", slc_format_bytes(a, sizeof(a), (double)capacity, units));
			}
			printf(", wait %s\n", slc_format_duration(b, sizeof(b), s->wait_ns));
			fixed_ns += s->wait_ns;
			break;
		case SLC_STEP_IDLE:
			printf("idle %s\n", slc_format_duration(b, sizeof(b), s->wait_ns));
			fixed_ns += s->wait_ns;
			break;
		case SLC_STEP_DUTY:
			printf("%u x (random %s QD%u for %s, wait %s)\n", s->rounds,
			       slc_format_bytes(a, sizeof(a), (double)s->job.block_bytes, SLC_UNITS_BINARY), s->job.queue_depth,
			       slc_format_duration(b, sizeof(b), s->job.max_ns),
			       slc_format_duration(c, sizeof(c), s->wait_ns));
			fixed_ns += (uint64_t)s->rounds * (s->job.max_ns + s->wait_ns);
			break;
		case SLC_STEP_JOB:
			slc_size_resolve(&bytes, &s->bytes, capacity);
			printf("%s %s QD%u", s->job.kind == SLC_JOB_SEQ_WRITE ? "sequential" : "random",
			       slc_format_bytes(a, sizeof(a), (double)s->job.block_bytes, SLC_UNITS_BINARY), s->job.queue_depth);
			if (s->job.jobs > 1)
				printf(" x %u jobs", s->job.jobs);
			if (bytes)
				printf(", until %s written", slc_format_bytes(a, sizeof(a), (double)bytes, units));
			if (s->job.max_ns)
				printf("%s %s", bytes ? " or" : ",", slc_format_duration(b, sizeof(b), s->job.max_ns));
			printf("\n");
			if (s->job.max_ns)
				fixed_ns += s->job.max_ns;
			else
				open_ended = 1;
		}
	}
	printf("time: %s%s%s\n", open_ended ? "at least " : "", slc_format_duration(a, sizeof(a), fixed_ns),
	       open_ended ? " plus the sequential fill at the drive's speed" : "");
	if (virtual_clock)
		printf("(virtual time: a simulated drive runs much faster than that)\n");
}

/* What a dry run says about a block device, without opening it for writing. */
static int dry_run_blockdev(const char *path, const struct slc_plan *p, int destructive, int force,
			    enum slc_unit_system units)
{
	uint64_t capacity = 0;
	char what[512], a[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return cli_fail("run", "%s: cannot open: %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &capacity)) {
		close(fd);
		return cli_fail("run", "%s: cannot read its size: %s", path, strerror(errno));
	}
	close(fd);
	print_plan(p, path, capacity, 0, units);
	printf("destroys: all %s on %s", slc_format_bytes(a, sizeof(a), (double)capacity, units), path);
	rc = slc_blockdev_check(path, what, sizeof(what));
	if (rc > 0)
		printf("; found: %s%s", what, force ? " (--force given)" : " (refused without --force)");
	else if (rc < 0)
		printf("; could not check: %s", what);
	printf("\n");
	if (!destructive)
		printf("needs --destructive to run\n");
	return CLI_OK;
}

/*
 * --purge: the strongest purge the drive offers (NVMe Sanitize, then Format
 * with crypto or user-data erase), otherwise a TRIM of the whole target; the
 * trace records which in a "purge" snapshot.
 */
static int do_purge(struct ui *u, struct slc_target *t, struct slc_trace *trace, char *err, size_t errlen)
{
	enum slc_purge_kind k = slc_probe_purge_method(u->probe);
	double w0 = wall_s();
	char js[256];
	int rc;

	if (!u->quiet)
		fprintf(stderr, "slcscope run: purging %s by %s\n", slc_target_spec(t),
			k == SLC_PURGE_TRIM ? "a TRIM of all of it (the drive offers no Sanitize or Format erase)" :
			slc_purge_kind_name(k));
	if (k == SLC_PURGE_TRIM) {
		if ((rc = slc_target_discard(t, 0, slc_target_capacity(t)))) {
			snprintf(err, errlen, "TRIM of the whole target failed: %s", strerror(-rc));
			return rc;
		}
	} else if ((rc = slc_probe_purge(u->probe, k, err, errlen))) {
		return rc;
	}
	snprintf(js, sizeof(js), "{\"schema\": \"slcscope.purge/1\", \"method\": \"%s\", \"wall_s\": %.3f}",
		 slc_purge_kind_name(k), wall_s() - w0);
	slc_trace_snapshot(trace, "purge", 0, js);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	enum {
		O_SEQ_BYTES = 256, O_RAND_TIME, O_RAND_BYTES, O_BS_SEQ, O_BS_RAND, O_IDLE, O_BURST, O_TRIM_WAIT,
		O_SEED, O_SIZE, O_DESTRUCTIVE, O_FORCE, O_QUIET, O_STEADY, O_STEADY_AFTER, O_IDLE_LIST,
		O_TRIM_BYTES, O_READ_TIME, O_HIR_ROUNDS, O_PURGE, O_TEMP_EVERY, O_NO_PROBE,
		O_REAP_BATCH,
	};
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "plan", required_argument, NULL, 'p' },
		{ "seq-bytes", required_argument, NULL, O_SEQ_BYTES }, { "rand-time", required_argument, NULL, O_RAND_TIME },
		{ "rand-bytes", required_argument, NULL, O_RAND_BYTES }, { "bs-seq", required_argument, NULL, O_BS_SEQ },
		{ "bs-rand", required_argument, NULL, O_BS_RAND }, { "qd", required_argument, NULL, 'q' },
		{ "jobs", required_argument, NULL, 'j' }, { "reap-batch", required_argument, NULL, O_REAP_BATCH },
		{ "interval", required_argument, NULL, 'i' }, { "idle", required_argument, NULL, O_IDLE },
		{ "burst", required_argument, NULL, O_BURST }, { "trim-wait", required_argument, NULL, O_TRIM_WAIT },
		{ "seed", required_argument, NULL, O_SEED }, { "size", required_argument, NULL, O_SIZE },
		{ "destructive", no_argument, NULL, O_DESTRUCTIVE }, { "force", no_argument, NULL, O_FORCE },
		{ "dry-run", no_argument, NULL, 'n' }, { "quiet", no_argument, NULL, O_QUIET },
		{ "report", required_argument, NULL, 'r' },
		{ "idle-list", required_argument, NULL, O_IDLE_LIST },
		{ "hir-rounds", required_argument, NULL, O_HIR_ROUNDS },
		{ "trim-bytes", required_argument, NULL, O_TRIM_BYTES }, { "read-time", required_argument, NULL, O_READ_TIME },
		{ "purge", no_argument, NULL, O_PURGE }, { "temp-every", required_argument, NULL, O_TEMP_EVERY },
		{ "no-probe", no_argument, NULL, O_NO_PROBE },
		{ "until-steady", no_argument, NULL, O_STEADY }, { "steady-after", required_argument, NULL, O_STEADY_AFTER },
		{ NULL, 0, NULL, 0 },
	};
	struct slc_plan_opts po;
	struct slc_plan plan;
	struct slc_target_opts to = { 0 };
	struct slc_target *t = NULL;
	struct slc_trace *trace = NULL;
	struct slc_job_result res;
	struct ui u = { 0 };
	struct sigaction sa;
	const char *out = NULL, *plan_name = "lab", *target, *report = NULL;
	char err[512], cmdline[2048] = "", a[32];
	size_t failed = 0;
	int opt, rc, dry = 0, purge = 0, no_probe = 0, temp_every_set = 0;
	uint64_t temp_every_ns = 5000000000ull;
	struct stat st;

	/* first thing: a Ctrl-C while the target opens (a simulated drive
	 * allocates its tables) must not be lost or kill us half-way */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the command line as typed, before getopt permutes argv */
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(cmdline);
		snprintf(cmdline + n, sizeof(cmdline) - n, "%s%s", i ? " " : "slcscope ", argv[i]);
	}
	slc_plan_opts_default(&po);
	u.steady_after.capacity_multiple = 2.0;
	while ((opt = getopt_long(argc, argv, "o:p:q:j:i:nr:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'r': report = optarg; break;
		case 'p': plan_name = optarg; break;
		case O_SEQ_BYTES:
			if (slc_parse_size(&po.seq_bytes, optarg, err, sizeof(err)))
				return cli_usage("run", "--seq-bytes: %s", err);
			break;
		case O_RAND_TIME: if ((rc = cli_parse_duration("run", "--rand-time", optarg, &po.rand_ns))) return rc; break;
		case O_RAND_BYTES:
			if (slc_parse_size(&po.rand_bytes, optarg, err, sizeof(err)))
				return cli_usage("run", "--rand-bytes: %s", err);
			break;
		case O_BS_SEQ: if ((rc = cli_parse_block("run", "--bs-seq", optarg, &po.seq_block_bytes))) return rc; break;
		case O_BS_RAND: if ((rc = cli_parse_block("run", "--bs-rand", optarg, &po.rand_block_bytes))) return rc; break;
		case 'q': {
			uint64_t qd;
			if ((rc = cli_parse_uint("run", "--qd", optarg, 1, 256, &qd)))
				return rc;
			po.queue_depth = (uint32_t)qd;
			break;
		}
		case O_REAP_BATCH: {
			uint64_t b;
			if ((rc = cli_parse_uint("run", "--reap-batch", optarg, 1, 256, &b)))
				return rc;
			po.reap_batch = (uint32_t)b;
			break;
		}
		case 'j': {
			uint64_t jobs;
			if ((rc = cli_parse_uint("run", "--jobs", optarg, 1, 64, &jobs)))
				return rc;
			po.jobs = (uint32_t)jobs;
			break;
		}
		case 'i':
			if ((rc = cli_parse_interval("run", optarg, &po.interval_ns)))
				return rc;
			break;
		case O_IDLE: if ((rc = cli_parse_duration("run", "--idle", optarg, &po.idle_ns))) return rc; break;
		case O_BURST: if ((rc = cli_parse_duration("run", "--burst", optarg, &po.burst_ns))) return rc; break;
		case O_TRIM_WAIT: if ((rc = cli_parse_duration("run", "--trim-wait", optarg, &po.trim_wait_ns))) return rc; break;
		case O_SEED:
			if ((rc = cli_parse_uint("run", "--seed", optarg, 0, UINT64_MAX, &po.seed)))
				return rc;
			break;
		case O_SIZE:
			if (slc_parse_bytes(&to.file_size_bytes, optarg, err, sizeof(err)))
				return cli_usage("run", "--size: %s", err);
			break;
		case O_IDLE_LIST: {
			char list[512], *save = NULL, *tok;
			size_t n = 0;
			uint64_t prev = 0;
			if (strlen(optarg) >= sizeof(list))
				return cli_usage("run", "--idle-list: too long");
			strcpy(list, optarg);
			for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				uint64_t ns;
				if (n == sizeof(po.idle_sweep_ns) / sizeof(po.idle_sweep_ns[0]) || n >= 7)
					return cli_usage("run", "--idle-list: at most 7 waits");
				if ((rc = cli_parse_duration("run", "--idle-list", tok, &ns)))
					return rc;
				if (ns < 1000000000ull || ns <= prev)
					return cli_usage("run", "--idle-list: waits must be at least 1s and increasing");
				po.idle_sweep_ns[n++] = prev = ns;
			}
			if (!n)
				return cli_usage("run", "--idle-list: no waits given");
			po.n_idle_sweep = n;
			break;
		}
		case O_TRIM_BYTES:
			if (slc_parse_size(&po.trim_bytes, optarg, err, sizeof(err)))
				return cli_usage("run", "--trim-bytes: %s", err);
			if (!po.trim_bytes.bytes && !(po.trim_bytes.capacity_multiple > 0))
				return cli_usage("run", "--trim-bytes: must be more than 0");
			break;
		case O_HIR_ROUNDS: {
			uint64_t r;
			if ((rc = cli_parse_uint("run", "--hir-rounds", optarg, 1, 100000, &r)))
				return rc;
			po.hir_rounds = (uint32_t)r;
			break;
		}
		case O_READ_TIME: if ((rc = cli_parse_duration("run", "--read-time", optarg, &po.read_ns))) return rc; break;
		case O_STEADY: u.until_steady = 1; break;
		case O_STEADY_AFTER:
			if (slc_parse_size(&u.steady_after, optarg, err, sizeof(err)))
				return cli_usage("run", "--steady-after: %s", err);
			break;
		case O_PURGE: purge = 1; break;
		case O_NO_PROBE: no_probe = 1; break;
		case O_TEMP_EVERY:
			if ((rc = cli_parse_duration("run", "--temp-every", optarg, &temp_every_ns)))
				return rc;
			if (temp_every_ns < 100000000ull)
				return cli_usage("run", "--temp-every: at least 100ms");
			temp_every_set = 1;
			break;
		case O_DESTRUCTIVE: to.destructive = 1; break;
		case O_FORCE: to.force = 1; break;
		case 'n': dry = 1; break;
		case O_QUIET: u.quiet = 1; break;
		default:
			return cli_usage("run", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage("run", "needs a TARGET (sim:MODEL, a file, a block device or null:SIZE)");
	if (optind < argc - 1)
		return cli_usage("run", "takes one TARGET, got '%s' too", argv[optind + 1]);
	target = argv[optind];
	if (!out && !dry)
		return cli_usage("run", "needs -o FILE.h5 for the trace");
	if ((uint64_t)po.queue_depth * po.jobs > 256)
		return cli_usage("run", "--qd %u x --jobs %u is over 256 commands in flight", po.queue_depth, po.jobs);
	if (po.reap_batch > po.queue_depth * po.jobs)
		return cli_usage("run", "--reap-batch %u is over the %u commands in flight (--qd x --jobs)",
				 po.reap_batch, po.queue_depth * po.jobs);
	if ((rc = slc_plan_build(&plan, plan_name, &po, err, sizeof(err))))
		return cli_usage("run", "--plan: %s", err);
	if (purge && no_probe)
		return cli_usage("run", "--purge needs the drive's probe: drop --no-probe");
	u.units = SLC_UNITS_DECIMAL;
	u.tty = isatty(STDERR_FILENO);
	to.seed = po.seed;

	if (dry && stat(target, &st) == 0 && S_ISBLK(st.st_mode))
		return dry_run_blockdev(target, &plan, to.destructive, to.force, u.units);
	if (dry && strncmp(target, "sim:", 4) && strncmp(target, "null:", 5) && stat(target, &st) != 0) {
		if (!to.file_size_bytes)
			return cli_fail("run", "%s: no such file (give --size to create it)", target);
		print_plan(&plan, target, to.file_size_bytes, 0, u.units);
		printf("creates: %s of %s\n", target, slc_format_bytes(a, sizeof(a), (double)to.file_size_bytes, u.units));
		return CLI_OK;
	}
	if ((rc = slc_target_open(&t, target, &to, err, sizeof(err))))
		return cli_fail("run", "%s", err);
	u.virtual_clock = (slc_target_caps(t) & SLC_TARGET_CAP_VIRTUAL_CLOCK) != 0;
	if (slc_size_resolve(&u.steady_after_bytes, &u.steady_after, slc_target_capacity(t))) {
		slc_target_close(t);
		return cli_usage("run", "--steady-after: too large for this target");
	}
	if (stop_sig) {
		slc_target_close(t);
		fprintf(stderr, "slcscope run: interrupted by %s before anything was written\n",
			stop_sig == SIGTERM ? "SIGTERM" : "SIGINT");
		return 128 + stop_sig;
	}
	if (dry) {
		print_plan(&plan, slc_target_spec(t), slc_target_capacity(t), u.virtual_clock, u.units);
		if (slc_target_kind(t) == SLC_TARGET_FILE)
			printf("destroys: the contents of %s\n", target);
		slc_target_close(t);
		return CLI_OK;
	}
	if (report && mkdir(report, 0755) && errno != EEXIST) {
		slc_target_close(t);
		return cli_fail("run", "cannot create '%s': %s", report, strerror(errno));
	}
	if (!no_probe && slc_target_kind(t) != SLC_TARGET_NULL) {
		char perr[512] = "";
		int prc = slc_probe_open_target(&u.probe, t, perr, sizeof(perr));
		if (prc) {
			u.probe = NULL;
			if (purge) {
				slc_target_close(t);
				return cli_fail("run", "--purge: cannot probe the drive: %s", perr);
			}
			if (!u.quiet)
				fprintf(stderr, "slcscope run: warning: no drive probe (%s); no SMART snapshots\n", perr);
		}
	}
	u.target = t;
	{
		struct slc_trace_meta meta = {
			.command_line = cmdline, .target = slc_target_spec(t),
			.device_model = slc_target_sim(t) ? slc_sim_model_of(slc_target_sim(t))->description : NULL,
			.capacity_bytes = slc_target_capacity(t), .logical_block_bytes = slc_target_logical_block(t),
		};
		struct slc_sysfs_info si;
		char real[4096], model[256];
		/* what sysfs knows of a block device goes into the trace */
		const struct slc_identity *pid = u.probe ? slc_probe_identity(u.probe) : NULL;
		if (pid && slc_target_kind(t) == SLC_TARGET_BLOCKDEV && (pid->model[0] || pid->serial[0])) {
			/* the drive's own identity (NVMe, ATA), else sysfs's */
			snprintf(model, sizeof(model), "%s%s%s", pid->source == SLC_PROBE_NVME || pid->source == SLC_PROBE_ATA ? "" : pid->vendor,
				 pid->source != SLC_PROBE_NVME && pid->source != SLC_PROBE_ATA && pid->vendor[0] && pid->model[0] ? " " : "",
				 pid->model[0] ? pid->model : pid->kernel_name);
			meta.device_model = model;
			meta.device_serial = pid->serial[0] ? pid->serial : NULL;
			meta.device_firmware = pid->firmware[0] ? pid->firmware : NULL;
		} else if (slc_target_kind(t) == SLC_TARGET_BLOCKDEV && realpath(slc_target_spec(t), real) &&
		    slc_sysfs_probe(&si, "/sys", strrchr(real, '/') + 1) == 0) {
			snprintf(model, sizeof(model), "%s%s%s", si.vendor, si.vendor[0] && si.model[0] ? " " : "",
				 si.model[0] ? si.model : si.name);
			meta.device_model = model;
			meta.device_serial = si.serial[0] ? si.serial : NULL;
			meta.device_firmware = si.firmware[0] ? si.firmware : NULL;
		}
		if ((rc = slc_trace_create(&trace, out, &meta, err, sizeof(err)))) {
			slc_probe_close(u.probe);
			slc_target_close(t);
			return cli_fail("run", "%s", err);
		}
	}
	u.trace = trace;
	if (u.probe) {
		/* who the drive is and its health before anything is written */
		struct slc_health h;
		char herr[256] = "", *js;
		int hrc = slc_probe_health(u.probe, &h, herr, sizeof(herr));
		if (hrc && !u.quiet)
			fprintf(stderr, "slcscope run: warning: SMART read failed (%s)\n", herr);
		if ((js = slc_probe_json(slc_probe_identity(u.probe), hrc ? NULL : &h))) {
			slc_trace_snapshot(trace, "identity", 0, js);
			free(js);
		}
		if (!hrc && !h.has_smart && !u.quiet && slc_target_kind(t) == SLC_TARGET_BLOCKDEV)
			fprintf(stderr, "slcscope run: %s; no write amplification or thermal evidence in this trace\n",
				h.no_smart_reason);
	}
	if (purge && (rc = do_purge(&u, t, trace, err, sizeof(err)))) {
		slc_trace_close(trace);
		slc_probe_close(u.probe);
		slc_target_close(t);
		return cli_fail("run", "--purge: %s", err);
	}
	if (!u.quiet && slc_target_kind(t) == SLC_TARGET_BLOCKDEV)
		fprintf(stderr, "slcscope run: destroying all %s on %s\n",
			slc_format_bytes(a, sizeof(a), (double)slc_target_capacity(t), u.units), slc_target_spec(t));
	{
		struct slc_plan_hooks hooks = {
			.step_begin = step_begin, .sample = steady_sample, .progress = progress, .step_end = step_end,
			.arg = &u, .segment_open = segment_open, .segment_close = segment_close,
			.temperature = u.probe ? read_temperature : NULL,
			/* the simulated drive's counters cost nothing: every sample */
			.temperature_every_ns = slc_target_sim(t) && !temp_every_set ? po.interval_ns : temp_every_ns,
		};
		rc = slc_plan_run(&plan, t, trace, &hooks, &stop_sig, &res, &failed, err, sizeof(err));
		free(u.t);
		free(u.dt);
		free(u.bps);
	}
	if (u.tty && !u.quiet)
		fprintf(stderr, "\r\033[K");
	{
		int crc = slc_trace_close(trace);
		if (crc && !rc) {
			rc = crc;
			snprintf(err, sizeof(err), "closing the trace %s failed", out);
		}
	}
	slc_probe_close(u.probe);
	slc_target_close(t);
	if (rc == -ECANCELED || (stop_sig && !rc)) {
		fprintf(stderr, "slcscope run: interrupted by %s during step %s; the trace %s holds every sample up to now\n",
			stop_sig == SIGTERM ? "SIGTERM" : "SIGINT", plan.step[failed].name, out);
		return 128 + (stop_sig ? stop_sig : SIGINT);
	}
	if (rc) {
		if (res.error)
			return cli_fail("run", "step %s: I/O error at offset %" PRIu64 " (%s); the trace %s keeps every sample before it",
					plan.step[failed].name, res.error_offset, strerror(-res.error), out);
		return cli_fail("run", "step %s: %s", plan.step[failed].name, err);
	}
	if (!u.quiet)
		fprintf(stderr, "slcscope run: trace written to %s\n", out);
	if (report) {
		struct analyzed x = { 0 };
		if ((rc = analyzed_load(&x, "run", out, -1, NULL)))
			return rc;
		rc = report_write("run", report, &x, 0, u.quiet);
		analyzed_free(&x);
		if (rc)
			return CLI_FAIL;
		if (!u.quiet)
			fprintf(stderr, "slcscope run: report in %s/index.html\n", report);
	}
	return CLI_OK;
}

const struct cli_cmd cli_cmd_run = {
	.name = "run",
	.summary = "run the lab's write plan on a drive, file or simulated drive",
	.run = cmd_run,
	.help = run_help,
};
