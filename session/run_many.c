// SPDX-License-Identifier: MIT
/*
 * Several drives at once: one child process per drive, each running the
 * single-drive run into a trace of its own, the parent showing them all.
 *
 * A child does every check of a single run, then says it is ready and
 * waits; the parent lets them all write only once every one is ready, so
 * one refused drive means nothing is written to any.  Children live in a
 * process group of their own: a Ctrl-C reaches the parent alone, which
 * passes it on once, so that one Ctrl-C is not taken for the second that
 * abandons what a drive has not answered.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/output.h"
#include "slcscope/session.h"
#include "session_priv.h"

struct slc_run_many_child {
	int go_fd;                    /* the parent writes one byte: write; EOF: do not */
	int lines;                    /* the parent shows progress: send it */
};

/* One drive, as the parent sees it. */
struct drive {
	const char *target;
	char name[NAME_MAX - 3], path[PATH_MAX];
	pid_t pid;
	int fd, go_fd;                /* its words; its go */
	int ready, status, done;
	char buf[4096];               /* a line still coming */
	size_t len;
	char progress[512], last[512];/* its progress line; its last line of words */
};

struct many {
	const struct slc_run_many_opts *o;
	struct drive *d;
	size_t n;
	int tty, drawn, went;
	pid_t parent;
	const char *held;             /* why the drives were told not to write */
	double last_draw_s;
};

/*
 * The drives' processes, for a Ctrl-Z: they are not in the terminal's
 * process group, so the parent stops them with itself and continues them
 * with itself; each records the stop as a host pause, as a single run does.
 */
static pid_t drive_pids[64];

static void on_tstp(int sig)
{
	int e = errno;

	(void)sig;
	for (size_t i = 0; i < sizeof(drive_pids) / sizeof(drive_pids[0]); i++)
		if (drive_pids[i] > 0)
			kill(drive_pids[i], SIGSTOP);
	kill(getpid(), SIGSTOP);
	errno = e;
}

static void on_cont(int sig)
{
	int e = errno;

	(void)sig;
	for (size_t i = 0; i < sizeof(drive_pids) / sizeof(drive_pids[0]); i++)
		if (drive_pids[i] > 0)
			kill(drive_pids[i], SIGCONT);
	errno = e;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The drive's name for its trace and its lines: sim:tiny-tlc -> sim-tiny-tlc,
 * /dev/disk/by-id/... -> the device's kernel name, a file -> its base name. */
static int drive_name(char *name, size_t len, const char *target, char *err, size_t errlen)
{
	char real[PATH_MAX], copy[PATH_MAX];
	const char *base = target;
	struct stat st;

	if (!strncmp(target, "sim:", 4) || !strncmp(target, "null:", 5)) {
		size_t k = strcspn(target, ":");
		snprintf(name, len, "%.*s%s%s", (int)k, target, target[k + 1] ? "-" : "", target + k + 1);
	} else {
		if (stat(target, &st) == 0 && S_ISBLK(st.st_mode) && realpath(target, real))
			target = real;
		snprintf(copy, sizeof(copy), "%s", target);
		base = basename(copy);
		snprintf(name, len, "%s", base);
	}
	for (char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '-';
	if (!name[0] || !strcmp(name, ".") || !strcmp(name, ".."))
		return slc_errf(err, errlen, -EINVAL, "%s: no name for its trace in it", target);
	return 0;
}

/* Two targets that are one device (2) or one file (1), however they are spelled; else 0. */
static int same_target(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb) || (sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT))
		return 0;
	if (S_ISBLK(sa.st_mode))
		return sa.st_rdev == sb.st_rdev ? 2 : 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* -o with several targets: a directory, new (ending in '/', its parent there) or existing. */
static int check_dir(const char *dir, int *exists, char *err, size_t errlen)
{
	char copy[PATH_MAX];
	struct stat st;
	size_t l = strlen(dir);

	*exists = stat(dir, &st) == 0;
	/* "FILE/": a regular file where the directory should be */
	if (!*exists && errno == ENOTDIR)
		return slc_errf(err, errlen, -ENOTDIR, "-o %s: not a directory: a file is in its place", dir);
	if (*exists && !S_ISDIR(st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "-o %s: not a directory: with several TARGETs, -o names a "
				"directory for their traces (DIR/)", dir);
	if (*exists)
		return 0;
	if (!l || dir[l - 1] != '/')
		return slc_errf(err, errlen, -EINVAL, "-o %s: with several TARGETs, -o names a directory for their "
				"traces: end it with '/'", dir);
	snprintf(copy, sizeof(copy), "%s", dir);
	while (l > 1 && copy[l - 1] == '/')
		copy[--l] = '\0';
	if (stat(dirname(copy), &st) || !S_ISDIR(st.st_mode))
		return slc_errf(err, errlen, -ENOENT, "-o %s: %s is not a directory", dir, copy);
	return 0;
}

/* Names, traces and the directory, before any drive is opened. */
static int plan_drives(struct many *m, char *err, size_t errlen)
{
	const struct slc_run_many_opts *o = m->o;
	const struct slc_output_opts oo = { .kind = SLC_OUTPUT_TRACE, .force = o->force, .option = "-o" };
	int exists = 0, same, rc;

	if (o->out_dir && (rc = check_dir(o->out_dir, &exists, err, errlen)))
		return rc;
	for (size_t i = 0; i < m->n; i++) {
		struct drive *d = &m->d[i];
		d->target = o->targets[i];
		d->fd = d->go_fd = -1;
		if ((rc = drive_name(d->name, sizeof(d->name), d->target, err, errlen)))
			return rc;
		snprintf(d->progress, sizeof(d->progress), "[%s] ...", d->name);
		for (size_t j = 0; j < i; j++) {
			if ((same = same_target(d->target, m->d[j].target)))
				return slc_errf(err, errlen, -EINVAL, "%s and %s are the same %s: give each once",
						m->d[j].target, d->target, same == 2 ? "device" : "file");
			if (!strcmp(d->name, m->d[j].name))
				return slc_errf(err, errlen, -EINVAL, "%s and %s would both write the trace %s.h5: give "
						"each drive once, files with different names", m->d[j].target, d->target,
						d->name);
		}
		if (o->out_dir)
			snprintf(d->path, sizeof(d->path), "%s%s%s.h5", o->out_dir,
				 o->out_dir[strlen(o->out_dir) - 1] == '/' ? "" : "/", d->name);
		if (exists && (rc = slc_output_check(d->path, &oo, err, errlen)))
			return rc;
	}
	return 0;
}

int slc_run_many_ready(struct slc_run_many_child *c)
{
	char b;
	ssize_t r;

	if (!c)
		return 0;
	fprintf(stderr, "%s\n", SLC__READY_LINE);
	fflush(stderr);
	while ((r = read(c->go_fd, &b, 1)) < 0 && errno == EINTR)
		;
	close(c->go_fd);
	return r == 1 ? 0 : -ECANCELED;
}

void slc_run_many_console(const struct slc_run_many_child *c, struct slc_run_console *u)
{
	u->tty = 0;
	u->lines = c && c->lines;
}

/* The child's side: its words to the pipe, the single run, its exit status. */
static void child(struct many *m, size_t i, int wfd, int go_fd)
{
	struct slc_run_many_child c = { .go_fd = go_fd, .lines = m->tty };

	if (!m->o->dry)                        /* a dry run's plans may go to the terminal: stay in its group */
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);      /* the parent gone: stop, as a Ctrl-C would */
	if (getppid() != m->parent)            /* ... also when it went before that was said */
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	for (size_t j = 0; j < m->n; j++) {
		if (m->d[j].fd >= 0) close(m->d[j].fd);
		if (m->d[j].go_fd >= 0) close(m->d[j].go_fd);
	}
	dup2(wfd, STDERR_FILENO);
	if (!m->o->dry)                        /* a dry run's plans go to stdout, one drive after another */
		dup2(wfd, STDOUT_FILENO);
	close(wfd);
	setvbuf(stderr, NULL, _IOLBF, 0);
	exit(m->o->run_one(m->o->arg, i, m->d[i].target, m->o->out_dir ? m->d[i].path : NULL, m->o->dry ? NULL : &c));
}

static int start(struct many *m, size_t i, char *err, size_t errlen)
{
	struct drive *d = &m->d[i];
	int p[2], g[2] = { -1, -1 };

	if (pipe2(p, O_CLOEXEC) || (!m->o->dry && pipe2(g, O_CLOEXEC)))
		return slc_errf(err, errlen, -errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	if ((d->pid = fork()) < 0)
		return slc_errf(err, errlen, -errno, "fork: %s", strerror(errno));
	if (d->pid == 0) {
		close(p[0]);
		if (g[1] >= 0) close(g[1]);
		child(m, i, p[1], g[0]);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	if (g[0] >= 0) close(g[0]);
	d->fd = p[0];
	d->go_fd = g[1];
	return 0;
}

static int term_cols(FILE *f)
{
	struct winsize ws;
	return ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
}

/* On a terminal: the block of progress lines, one per drive, redrawn in place. */
static void draw(struct many *m, int erase_only)
{
	FILE *f = m->o->log;
	int cols = term_cols(f);

	if (!m->tty)
		return;
	if (m->drawn)
		fprintf(f, "\033[%zuA\r\033[J", m->n);
	m->drawn = !erase_only;
	if (erase_only)
		return;
	for (size_t i = 0; i < m->n; i++)
		fprintf(f, "%.*s\n", cols - 1, m->d[i].progress);
	fflush(f);
	m->last_draw_s = wall_s();
}

/* One complete line from drive @i. */
static void line(struct many *m, size_t i, char *s)
{
	struct drive *d = &m->d[i];

	if (!strcmp(s, SLC__READY_LINE)) {
		d->ready = 1;
		return;
	}
	if (!strncmp(s, SLC__PROGRESS_LINE, strlen(SLC__PROGRESS_LINE))) {
		snprintf(d->progress, sizeof(d->progress), "[%s] %s", d->name, s + strlen(SLC__PROGRESS_LINE));
		return;
	}
	/* the line as far as it fits: it is shown on one screen line */
	if (!strncmp(s, "slcscope run: ", 14))
		snprintf(d->last, sizeof(d->last), "%.*s", (int)sizeof(d->last) - 1, s + 14);
	else if (s[0])
		snprintf(d->last, sizeof(d->last), "%.*s", (int)sizeof(d->last) - 1, s);
	if (m->tty && m->drawn) {
		draw(m, 1);
		fprintf(m->o->log, "[%s] %s\n", d->name, s);
		draw(m, 0);
	} else {
		fprintf(m->o->log, "[%s] %s\n", d->name, s);
	}
}

/* What drive @i wrote since last time: 0, -1 when nothing was there, 1 at its end. */
static int drain(struct many *m, size_t i)
{
	struct drive *d = &m->d[i];
	ssize_t r = read(d->fd, d->buf + d->len, sizeof(d->buf) - 1 - d->len);
	char *nl, *s;

	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 1;
	d->len += (size_t)r;
	d->buf[d->len] = '\0';
	for (s = d->buf; (nl = strchr(s, '\n')); s = nl + 1) {
		*nl = '\0';
		line(m, i, s);
	}
	d->len -= (size_t)(s - d->buf);
	memmove(d->buf, s, d->len);
	if (r == 0 || d->len == sizeof(d->buf) - 1) {        /* the end, or a line too long to keep */
		d->buf[d->len] = '\0';
		if (d->len)
			line(m, i, d->buf);
		d->len = 0;
	}
	return r == 0;
}

/* Drive @i's process has ended (@reaped: its status is in) or closed its pipe. */
static void finish(struct many *m, size_t i, int reaped)
{
	struct drive *d = &m->d[i];

	while (drain(m, i) == 0)
		;
	close(d->fd);
	while (!reaped && waitpid(d->pid, &d->status, 0) < 0 && errno == EINTR)
		;
	drive_pids[i] = 0;
	d->done = 1;
	snprintf(d->progress, sizeof(d->progress), "[%s] ended", d->name);
}

/* Every drive checked: let them write (after making the directory), or none. */
static void release(struct many *m, int go)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->d[i].go_fd < 0)
			continue;
		ssize_t w = go ? write(m->d[i].go_fd, "g", 1) : 0;   /* a child gone says why at its end */
		(void)w;
		close(m->d[i].go_fd);
		m->d[i].go_fd = -1;
	}
	m->went = go;
}

static void forward(struct many *m, int stop, int *sent)
{
	int sig = SLC_STOP_REASON(stop) ? SLC_STOP_REASON(stop) : SIGINT;
	int level = stop ? (stop & SLC_STOP_NOW ? 2 : 1) : 0;

	for (; *sent < level; (*sent)++)
		for (size_t i = 0; i < m->n; i++)
			if (!m->d[i].done && m->d[i].pid > 0)
				kill(m->d[i].pid, sig);
}

/* The parent's loop: words and progress in, the go once all are ready, signals out. */
static void watch(struct many *m, size_t from, size_t to)
{
	const volatile int *stop = m->o->stop;
	struct pollfd pf[64];
	size_t live = to - from, idx[64];
	int sent = 0;

	while (live) {
		size_t k = 0, ready = 0, ended = 0;
		for (size_t i = from; i < to; i++) {
			ready += m->d[i].ready && !m->d[i].done;
			ended += m->d[i].done;
			if (!m->d[i].done) {
				pf[k] = (struct pollfd){ .fd = m->d[i].fd, .events = POLLIN };
				idx[k++] = i;
			}
		}
		if (stop && *stop && m->d[from].go_fd >= 0) {
			m->held = "interrupted before anything was written";
			release(m, 0);
		}
		if (m->d[from].go_fd >= 0 && ready + ended == to - from) {
			if (ended)
				m->held = "another drive was refused; nothing was written";
			else if (mkdir(m->o->out_dir, 0755) && errno != EEXIST)
				m->held = "the directory for the traces could not be made";
			if (m->held && !ended)
				fprintf(m->o->log, "%s: cannot make %s: %s\n", m->o->prog, m->o->out_dir, strerror(errno));
			release(m, !m->held);
		}
		if (stop)
			forward(m, *stop, &sent);
		if (m->tty && !m->drawn && m->went)
			draw(m, 0);
		poll(pf, k, 250);
		for (size_t j = 0; j < k; j++)
			if ((pf[j].revents & (POLLIN | POLLHUP | POLLERR)) && drain(m, idx[j]) == 1) {
				finish(m, idx[j], 0);
				live--;
			}
		/* a process the drive's stuck TRIM left behind may hold the pipe open past the drive's end */
		for (size_t j = 0; j < k; j++) {
			struct drive *d = &m->d[idx[j]];
			if (!d->done && waitpid(d->pid, &d->status, WNOHANG) == d->pid) {
				finish(m, idx[j], 1);
				live--;
			}
		}
		if (m->drawn && wall_s() - m->last_draw_s > 0.25)
			draw(m, 0);
	}
	draw(m, 1);
}

static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

/* A line per drive: written, interrupted, failed (why), or never started; the exit status. */
static int summary(struct many *m)
{
	FILE *f = m->o->log;
	const char *p = m->o->prog;
	int rc = 0, intr = 0, refused = 0, stop_held = !m->went && m->o->stop && *m->o->stop;

	for (size_t i = 0; i < m->n; i++)
		refused += !m->went && !m->d[i].ready && exit_code(m->d[i].status) != 0 &&
			   exit_code(m->d[i].status) != 130 && exit_code(m->d[i].status) != 143;
	for (size_t i = 0; i < m->n; i++) {
		struct drive *d = &m->d[i];
		int c = exit_code(d->status);
		if (c == 130 || c == 143)
			intr = c;
		else if (c)
			rc = 1;
		if (!c && !m->o->quiet)
			fprintf(f, "%s: %s: trace written to %s\n", p, d->name, d->path);
		else if (!m->went && (c == 130 || c == 143 || (c && d->ready)))
			fprintf(f, "%s: %s: not started: %s\n", p, d->name, c == 130 || c == 143 ?
				"interrupted before anything was written" : m->held);
		else if (c == 130 || c == 143)
			fprintf(f, "%s: %s: interrupted by %s; the trace %s holds every sample up to then\n", p, d->name,
				c == 130 ? "SIGINT" : "SIGTERM", d->path);
		else if (c)
			fprintf(f, "%s: %s: %s: %s\n", p, d->name, m->went ? "failed" : "refused",
				d->last[0] ? d->last : "exited without saying why");
	}
	if (refused && !m->went)
		fprintf(f, "%s: nothing was written to any drive: %d of %zu refused\n", p, refused, m->n);
	if (stop_held && !intr)       /* the drives told to write nothing may not have seen the signal */
		intr = 128 + (SLC_STOP_REASON(*m->o->stop) ? SLC_STOP_REASON(*m->o->stop) : SIGINT);
	return intr ? intr : rc;
}

/* A dry run: each drive's plan and what it would destroy, one after another. */
static int dry_run(struct many *m, char *err, size_t errlen)
{
	int rc = 0, c;

	for (size_t i = 0; i < m->n; i++) {
		printf("%s== %s (%s)\n", i ? "\n" : "", m->d[i].name, m->d[i].target);
		if ((c = start(m, i, err, errlen)))
			return c;
		watch(m, i, i + 1);
		if ((c = exit_code(m->d[i].status)) && (!rc || c > 128))
			rc = c;
	}
	return rc;
}

int slc_run_many(const struct slc_run_many_opts *o, char *err, size_t errlen)
{
	struct many m = { .o = o, .n = o->n, .tty = isatty(fileno(o->log)) && !o->quiet, .parent = getpid() };
	void (*old_pipe)(int);
	int rc;

	if (o->n < 1 || o->n > 64)
		return slc_errf(err, errlen, -EINVAL, "from 1 to 64 TARGETs at once, not %zu", o->n);
	if (!o->out_dir && !o->dry)
		return slc_errf(err, errlen, -EINVAL, "needs -o DIR/ for the traces of several TARGETs");
	if (!(m.d = calloc(o->n, sizeof(*m.d))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if ((rc = plan_drives(&m, err, errlen))) {
		free(m.d);
		return rc;
	}
	old_pipe = signal(SIGPIPE, SIG_IGN);  /* a go to a drive already gone must not end us */
	if (o->dry) {
		rc = dry_run(&m, err, errlen);
	} else {
		struct sigaction sa = { .sa_handler = on_tstp }, old_tstp, old_cont;
		size_t started = 0;
		for (; started < o->n; started++)
			if ((rc = start(&m, started, err, errlen))) {
				release(&m, 0);   /* those started see no go and end */
				break;
			}
		for (size_t i = 0; i < started; i++)
			drive_pids[i] = m.d[i].pid;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(SIGTSTP, &sa, &old_tstp);
		sa.sa_handler = on_cont;
		sigaction(SIGCONT, &sa, &old_cont);
		watch(&m, 0, started);
		sigaction(SIGTSTP, &old_tstp, NULL);
		sigaction(SIGCONT, &old_cont, NULL);
		if (!rc)
			rc = summary(&m);
	}
	signal(SIGPIPE, old_pipe);
	free(m.d);
	return rc;
}
