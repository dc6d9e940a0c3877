// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD library for test_flush_eio.sh: a disk whose writes start failing
 * with EIO.  Writes to a file whose path ends in $SLC_EIO_PATH fail once
 * $SLC_EIO_AFTER bytes have been written to it (counted over the process),
 * as a dying drive or a pulled USB stick would fail them; other files are
 * untouched.  fsync() of that file fails the same way from then on.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long long written;
static int failing;

/* Whether @fd is the file the test names. */
static int is_target(int fd)
{
	const char *want = getenv("SLC_EIO_PATH");
	char link[64], path[4096];
	ssize_t n;
	size_t wl;

	if (!want || !*want)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) < 0)
		return 0;
	path[n] = '\0';
	wl = strlen(want);
	return (size_t)n >= wl && strcmp(path + n - wl, want) == 0;
}

/* Count @len bytes for @fd; 1 when the write must fail. */
static int fails(int fd, size_t len)
{
	const char *after = getenv("SLC_EIO_AFTER");

	if (!is_target(fd))
		return 0;
	if (!failing && written + len > strtoull(after ? after : "0", NULL, 10))
		failing = 1;
	if (!failing)
		written += len;
	return failing;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	if (fails(fd, len)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fails(fd, len)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, len);
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	if (failing && is_target(fd)) {
		errno = EIO;
		return -1;
	}
	return real(fd);
}
