// SPDX-License-Identifier: MIT
/*
 * The server in the background: a child process opens it and tells the
 * waiting parent over a pipe, 'R' and the drive's description once mounted,
 * or 'E' and the error, so that the parent returns only when DIR/drive.img
 * can be used (or with the reason it cannot).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slcscope/units.h"
#include "slcscope/emulate.h"

/* The child: open, report to @ready, detach from the terminal, serve, exit. */
static void __attribute__((noreturn)) child(const struct slc_sim_model *m, const struct slc_emu_opts *o,
					    int (*serve)(struct slc_emu *, void *), void *arg, int ready)
{
	struct slc_emu *e;
	char err[512];
	int null, lfd, rc;
	FILE *f;

	setsid();
	if (slc_emu_open(&e, m, o, err, sizeof(err))) {
		dprintf(ready, "E%s", err);
		_exit(1);
	}
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	lfd = o->log ? open(o->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	if (o->log && lfd < 0) {
		dprintf(ready, "E--log %s: %s", o->log, strerror(errno));
		if (null >= 0)
			close(null);
		slc_emu_close(e);
		_exit(1);
	}
	if (!(f = fdopen(ready, "w"))) {
		slc_emu_close(e);       /* the parent sees the pipe close: not ready */
		_exit(1);
	}
	fputc('R', f);
	slc_emu_describe(e, f);
	fclose(f);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(lfd >= 0 ? lfd : null, STDERR_FILENO);
		close(null);
	}
	if (lfd >= 0)
		close(lfd);
	rc = serve(e, arg);
	slc_emu_close(e);
	_exit(rc);
}

int slc_emu_spawn(const struct slc_sim_model *model, const struct slc_emu_opts *o,
		  int (*serve)(struct slc_emu *e, void *arg), void *arg, FILE *ready, pid_t *pid,
		  char *err, size_t errlen)
{
	char buf[4096];
	size_t got = 0;
	int p[2], status;
	pid_t c;

	fflush(NULL);
	if (pipe2(p, O_CLOEXEC))
		return slc_errf(err, errlen, -errno, "pipe: %s", strerror(errno));
	c = fork();
	if (c < 0) {
		int rc = -errno;
		close(p[0]);
		close(p[1]);
		return slc_errf(err, errlen, rc, "fork: %s", strerror(-rc));
	}
	if (c == 0) {
		close(p[0]);
		child(model, o, serve, arg, p[1]);
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
		fputs(buf + 1, ready);
		*pid = c;
		return 0;
	}
	waitpid(c, &status, 0);
	if (got && buf[0] == 'E')
		return slc_errf(err, errlen, -EIO, "%s", buf + 1);
	return slc_errf(err, errlen, -EIO, "the server exited before it was ready");
}
