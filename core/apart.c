// SPDX-License-Identifier: MIT
/*
 * Work that the kernel may hold beyond any signal, done in a child process
 * that the caller can leave behind.
 *
 * A TRIM or a read that the drive does not answer keeps the calling thread
 * in the kernel (uninterruptible: an ioctl(BLKDISCARD), a libblkid read
 * queued behind a stalled command), where Ctrl-C does not reach it.  A
 * thread would not help: a process does not end before every one of its
 * threads has left the kernel.  A child process does: the parent waits for
 * it in slices of 0.1 s, and on a stop request kills it and returns at
 * once, free to close its trace and exit; the child ends when the kernel
 * lets it (and is reaped by init once its parent has gone).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "private.h"

#define SLICE_MS 100

/* All of @len bytes to @fd (a pipe); 0 or -1. */
static int put_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Up to @len bytes from @fd until EOF; the count. */
static size_t get_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static int start_failed(int rc, char *out, size_t outlen)
{
	if (out && outlen)
		snprintf(out, outlen, "cannot start a process for it: %s", strerror(-rc));
	return rc;
}

int slc__apart(slc__apart_fn *fn, void *arg, char *out, size_t outlen, const volatile int *stop)
{
	pid_t parent = getpid(), pid;
	int pfd[2], rc = -EIO, status;
	size_t got;

	if (out && outlen)
		out[0] = '\0';
	if (stop && *stop)
		return -ECANCELED;
	if (pipe2(pfd, O_CLOEXEC))
		return start_failed(-errno, out, outlen);
	if ((pid = fork()) < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return start_failed(rc, out, outlen);
	}
	if (pid == 0) {
		/* the parent alone decides when to stop (a Ctrl-C reaches the
		 * whole process group); a parent gone takes the child along */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		close(pfd[0]);
		rc = fn(arg, out, outlen);
		if (put_all(pfd[1], &rc, sizeof(rc)) || (out && outlen && put_all(pfd[1], out, strnlen(out, outlen - 1) + 1)))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int n;
		if (stop && *stop) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, WNOHANG);
			close(pfd[0]);
			return -ECANCELED;
		}
		n = poll(&p, 1, SLICE_MS);
		if (n > 0)
			break;
		if (n < 0 && errno != EINTR) {
			rc = -errno;
			kill(pid, SIGKILL);
			waitpid(pid, &status, WNOHANG);
			close(pfd[0]);
			return rc;
		}
	}
	got = get_all(pfd[0], &rc, sizeof(rc));
	if (got == sizeof(rc) && out && outlen) {
		size_t n = get_all(pfd[0], out, outlen);
		out[n ? n - 1 : 0] = '\0';
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(rc)) {
		if (out && outlen)
			snprintf(out, outlen, "the checking process died (%s)", WIFSIGNALED(status) ?
				 strsignal(WTERMSIG(status)) : "no answer");
		return -EIO;
	}
	return rc;
}
