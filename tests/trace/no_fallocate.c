// SPDX-License-Identifier: MIT
/* LD_PRELOAD library: a file system without fallocate() (EOPNOTSUPP), for test_disk_full.sh. */
#include <errno.h>
#include <sys/types.h>

int fallocate(int fd, int mode, off_t offset, off_t len);
int fallocate64(int fd, int mode, off_t offset, off_t len);

int fallocate(int fd, int mode, off_t offset, off_t len)
{
	(void)fd, (void)mode, (void)offset, (void)len;
	errno = EOPNOTSUPP;
	return -1;
}

int fallocate64(int fd, int mode, off_t offset, off_t len)
{
	return fallocate(fd, mode, offset, len);
}
