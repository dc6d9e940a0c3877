// SPDX-License-Identifier: MIT
/* Files written under a temporary name and renamed into place (publish.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "publish.h"

#include "../private.h"

char *slc__tmp_name_beside(const char *path)
{
	size_t n = strlen(path) + 32;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s.tmp.%ld", path, (long)getpid());
	return s;
}

/* fsync the file at @path (by name); 0 or -errno. */
static int fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int slc__publish_tmp(const char *tmp, const char *path, int rc, char *err, size_t errlen)
{
	if (!rc)
		rc = fsync_path(tmp);
	if (!rc && rename(tmp, path) < 0)
		rc = slc_errf(err, errlen, -errno, "cannot rename into %s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}
