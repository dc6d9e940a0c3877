// SPDX-License-Identifier: MIT
/*
 * A run on a terminal: a progress line (step, elapsed, written, speed, ETA)
 * redrawn in place, one line per finished step, notes on their own line.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/session.h"
#include "session_priv.h"

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void console_note(void *arg, const char *msg)
{
	struct slc_run_console *u = arg;

	if (!u->quiet)
		fprintf(u->f, "%s%s: %s\n", u->tty ? "\r\033[K" : "", u->prog, msg);
}

static void console_steady(void *arg, size_t i, const struct slc_plan *p, const struct slc_steady_state *ss)
{
	struct slc_run_console *u = arg;

	if (!u->quiet)
		fprintf(u->f, "%s[%zu/%zu %s] SNIA steady state from %.0f s to %.0f s at %.1f MB/s: stopping the curve\n",
			u->tty ? "\r\033[K" : "", i + 1, p->n, p->step[i].name, ss->start_s, ss->end_s, ss->avg_bps / 1e6);
}

static void step_begin(void *arg, size_t i, const struct slc_plan *p, uint64_t limit_bytes)
{
	struct slc_run_console *u = arg;
	const struct slc_step *s = &p->step[i];

	u->step_wall_s = wall_s();
	u->limit_bytes = limit_bytes;
	u->limit_ns = s->kind == SLC_STEP_JOB ? s->job.max_ns : s->kind == SLC_STEP_DUTY ?
		      (uint64_t)s->rounds * (s->job.max_ns + s->wait_ns) : s->wait_ns;
	if (u->quiet)
		return;
	if ((u->tty || u->lines) && s->kind != SLC_STEP_JOB && s->kind != SLC_STEP_DUTY)
		fprintf(u->f, "%s[%zu/%zu %s] ...%s", u->tty ? "\r\033[K" : SLC__PROGRESS_LINE, i + 1, p->n, s->name,
			u->tty ? "" : "\n");
}

static void progress(void *arg, size_t i, const struct slc_plan *p, const struct slc_progress *pr)
{
	struct slc_run_console *u = arg;
	char b[32], r[32], e[32], eta[32] = "";
	double now;
	uint64_t left_ns = 0;

	if (u->quiet || (!u->tty && !u->lines))
		return;
	now = wall_s();
	if (now - u->last_s < 0.25)
		return;
	u->last_s = now;
	if (u->limit_bytes && pr->bps > 0)
		left_ns = (uint64_t)((double)(u->limit_bytes > pr->bytes ? u->limit_bytes - pr->bytes : 0) / pr->bps * 1e9);
	if (u->limit_ns && u->limit_ns > pr->elapsed_ns && (!left_ns || u->limit_ns - pr->elapsed_ns < left_ns))
		left_ns = u->limit_ns - pr->elapsed_ns;
	if (left_ns && u->virtual_clock) {
		/* the model's time runs faster than the wall clock: the real time
		 * left is the wall time so far scaled by the share still to do */
		double done = (double)pr->elapsed_ns / ((double)pr->elapsed_ns + (double)left_ns);
		left_ns = done > 0 ? (uint64_t)((now - u->step_wall_s) * (1 - done) / done * 1e9) : 0;
	}
	if (left_ns)
		snprintf(eta, sizeof(eta), "  ETA %s", slc_format_duration(e, sizeof(e), left_ns));
	fprintf(u->f, "%s[%zu/%zu %s] %s%s  %s written  %s%s%s", u->tty ? "\r\033[K" : SLC__PROGRESS_LINE, i + 1, p->n,
		p->step[i].name, slc_format_duration(e, sizeof(e), pr->elapsed_ns), u->virtual_clock ? " (virtual)" : "",
		slc_format_bytes(b, sizeof(b), (double)pr->bytes, u->units),
		slc_format_rate(r, sizeof(r), pr->bps, u->units), eta, u->tty ? "" : "\n");
}

static void step_end(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *res)
{
	struct slc_run_console *u = arg;
	const struct slc_step *s = &p->step[i];
	char b[32], r[32], d[32];

	if (u->quiet)
		return;
	if (u->tty)
		fprintf(u->f, "\r\033[K");
	if (s->kind == SLC_STEP_JOB || s->kind == SLC_STEP_DUTY)
		fprintf(u->f, "[%zu/%zu %s] %s in %s, %s average\n", i + 1, p->n, s->name,
			slc_format_bytes(b, sizeof(b), (double)res->bytes, u->units),
			slc_format_duration(d, sizeof(d), res->elapsed_ns),
			slc_format_rate(r, sizeof(r), res->elapsed_ns ? (double)res->bytes / ((double)res->elapsed_ns * 1e-9) : 0, u->units));
	else    /* the wait done: a stop cuts it short */
		fprintf(u->f, "[%zu/%zu %s] %s%s%s%s\n", i + 1, p->n, s->name,
			s->kind == SLC_STEP_TRIM ? (s->bytes.bytes || s->bytes.capacity_multiple > 0 ? "TRIM of a range, then waited " : "TRIM of the whole target, then waited ") : "idle ",
			slc_format_duration(d, sizeof(d), res->waited_ns), res->waited_ns < s->wait_ns ? " of " : "",
			res->waited_ns < s->wait_ns ? slc_format_duration(b, sizeof(b), s->wait_ns) : "");
}

void slc_run_console_init(struct slc_run_console *c, FILE *f, const char *prog, int quiet)
{
	*c = (struct slc_run_console){ .f = f, .prog = prog, .quiet = quiet, .tty = isatty(fileno(f)),
				       .units = SLC_UNITS_DECIMAL };
}

struct slc_run_ui slc_run_console_ui(struct slc_run_console *c)
{
	return (struct slc_run_ui){ console_note, step_begin, progress, step_end, console_steady, c };
}

void slc_run_console_clear(struct slc_run_console *c)
{
	if (c->tty && !c->quiet)
		fprintf(c->f, "\r\033[K");
}

int slc_run_interrupted(FILE *f, const char *prog, int stop, const char *when)
{
	int sig = SLC_STOP_REASON(stop) ? SLC_STOP_REASON(stop) : SIGINT;

	fprintf(f, "%s: interrupted by %s %s\n", prog, sig == SIGTERM ? "SIGTERM" : "SIGINT", when);
	return 128 + sig;
}

void slc_run_signals(void (*on_stop)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	slc_host_watch_install();
}

int slc_run_dry_blockdev(FILE *out, const char *path, const struct slc_plan *p, int destructive, int force,
			 enum slc_unit_system units, const volatile int *stop, char *err, size_t errlen)
{
	char what[512], a[32];
	uint64_t capacity;
	int rc;

	if ((rc = slc_blockdev_size(path, &capacity, err, errlen)))
		return rc;
	if (slc_plan_validate(p, capacity, 0, err, errlen))
		return -EINVAL;
	slc_plan_print(out, p, path, capacity, 0, units);
	fprintf(out, "destroys: all %s on %s", slc_format_bytes(a, sizeof(a), (double)capacity, units), path);
	if ((rc = slc_blockdev_check_stoppable(path, what, sizeof(what), stop)) == -ECANCELED)
		return rc;
	if (rc > 0)
		fprintf(out, "; found: %s%s", what, rc & SLC_CHECK_IN_USE ? " (refused: --force does not override a mount or swap)"
			: force ? " (--force given)" : " (refused without --force)");
	else if (rc < 0)
		fprintf(out, "; could not check: %s", what);
	fprintf(out, "\n%s", destructive ? "" : "needs --destructive to run\n");
	return 0;
}
