// SPDX-License-Identifier: MIT
/*
 * Report directories (slcscope/output.h): a report goes into a new or empty
 * directory, an earlier report (its marker) or a directory holding only the
 * inputs it reports on (a run's trace beside its report).  It is built in a
 * staging directory beside it and moved in at the end, while a lock on the
 * directory keeps a second report out.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slcscope/output.h"
#include "output_priv.h"
#include "private.h"

#define MARKER_HEAD "slcscope report\n"
#define MARKER_MAX 65536

struct slc_report_dir {
	char shown[PATH_MAX];     /* as given */
	char dir[PATH_MAX];       /* resolved */
	char staging[PATH_MAX];
	const char *const *inputs;
	size_t n_inputs;
	char *old;                /* the earlier report's marker: its files, a line each */
	int fd, made, slot_made, slot_stage;
};

/* Read @dir's marker into a string (caller frees); NULL when it has none. */
static char *read_marker(int dfd)
{
	int fd = openat(dfd, SLC_REPORT_MARKER, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (!(buf = calloc(1, MARKER_MAX + 1)) || (n = read(fd, buf, MARKER_MAX)) < 0 ||
	    strncmp(buf, MARKER_HEAD, strlen(MARKER_HEAD))) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

/* A report written before reports had a marker: its page's footer says so. */
static int legacy_report(int dfd)
{
	char buf[8192];
	int fd = openat(dfd, "index.html", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "<p><small>slcscope ") != NULL;      /* the footer every report page ends with */
}

/* Does the directory hold something that is neither a report's nor an input?  Its name in @name. */
/* Is @name in @dfd a directory with a report's marker? */
static int is_report_dir(int dfd, const char *name)
{
	int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ok = 0;
	char *m;

	if (sub >= 0) {
		ok = (m = read_marker(sub)) != NULL;
		free(m);
		close(sub);
	}
	return ok;
}

static int foreign_entry(int dfd, const char *const *inputs, size_t n, char *name, size_t len)
{
	int fd = dup(dfd), found = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct stat st;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	for (struct dirent *e; !found && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && slc__same_as_input(&st, inputs, n))
			continue;
		/* a report of its own (a site's run-ID/, left by a site interrupted
		 * before its pages were moved in) is ours to write beside */
		if (S_ISDIR(st.st_mode) && is_report_dir(dfd, e->d_name))
			continue;
		snprintf(name, len, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

/*
 * The checks; @real is the directory resolved, or the path to create.
 * @keep_fd: the open, locked directory is left there (-1 when it is new).
 */
static int check(const char *dir, const char *const *inputs, size_t n, char *real, int *keep_fd, char *err,
		 size_t errlen)
{
	char parent[PATH_MAX], rparent[PATH_MAX], name[256], shown[PATH_MAX + 8];
	const char *sys;
	struct stat st;
	char *marker;
	int fd, rc;

	char trimmed[PATH_MAX];
	size_t len = strlen(dir);

	snprintf(shown, sizeof(shown), "%s", dir);
	if (keep_fd)
		*keep_fd = -1;
	if (!*dir)
		return slc_errf(err, errlen, -EINVAL, "the report directory's name is empty");
	/* "rep/" is the directory rep */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len >= sizeof(trimmed))
		return slc_errf(err, errlen, -ENAMETOOLONG, "%s: name too long", shown);
	memcpy(trimmed, dir, len);
	trimmed[len] = '\0';
	dir = trimmed;
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT)
			return slc_errf(err, errlen, -errno, "%s: %s", shown, strerror(errno));
		slc__split_path(dir, parent, sizeof(parent));
		if (!realpath(parent, rparent) || stat(rparent, &st) || !S_ISDIR(st.st_mode))
			return slc_errf(err, errlen, -ENOENT, "%s: no directory %s to create the report in", shown,
					parent);
		if ((sys = slc__system_dir(rparent)))
			return slc_errf(err, errlen, -EPERM, "%s: a report in %s; write it elsewhere", shown, sys);
		snprintf(real, PATH_MAX, "%s", dir);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return slc_errf(err, errlen, -ENOTDIR, "%s: it is %s; a report is a directory", shown,
				S_ISREG(st.st_mode) ? "a file" : slc__file_type(st.st_mode));
	if (!realpath(dir, real))
		return slc_errf(err, errlen, -errno, "%s: %s", shown, strerror(errno));
	if (!strcmp(real, "/"))
		return slc_errf(err, errlen, -EPERM, "%s: refusing to write a report into the root directory", shown);
	if ((sys = slc__system_dir(real)))
		return slc_errf(err, errlen, -EPERM, "%s: a report in %s; write it elsewhere", shown, sys);
	if ((fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return slc_errf(err, errlen, -errno, "%s: %s", shown, strerror(errno));
	if ((rc = slc__take_lock(fd, shown, err, errlen))) {
		close(fd);
		if (rc == -EBUSY)
			rc = slc_errf(err, errlen, -EBUSY, "%s: another slcscope is writing a report into it; wait for "
				      "it to end or choose another directory", shown);
		return rc;
	}
	marker = read_marker(fd);
	rc = marker || legacy_report(fd) ? 0 : foreign_entry(fd, inputs, n, name, sizeof(name));
	free(marker);
	if (rc < 0)
		rc = slc_errf(err, errlen, rc, "%s: cannot list it: %s", shown, strerror(-rc));
	else if (rc > 0)
		rc = slc_errf(err, errlen, -EEXIST, "%s: not empty and not an slcscope report (it holds '%s'); give "
			      "a new or empty directory", shown, name);
	if (rc || !keep_fd)
		close(fd);
	else
		*keep_fd = fd;
	return rc;
}

int slc_report_dir_check(const char *dir, const char *const *inputs, size_t n_inputs, char *err, size_t errlen)
{
	char real[PATH_MAX];

	if (!dir)
		return slc_errf(err, errlen, -EINVAL, "no report directory named");
	return check(dir, inputs, n_inputs, real, NULL, err, errlen);
}

/* Write @dir's marker listing @names (a temporary file renamed over it). */
static int write_marker(const char *dir, const char *const *names, size_t n)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int fd, rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.slcscope-marker-XXXXXX", dir) >= sizeof(tmp) ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, SLC_REPORT_MARKER) >= sizeof(path))
		return -ENAMETOOLONG;
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return rc;
	}
	fputs(MARKER_HEAD, f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", names[i]);
	rc = slc_stream_error(f);
	if (!rc && (fflush(f) || fsync(fileno(f))))
		rc = -(errno ? errno : EIO);
	if (fclose(f) && !rc)
		rc = -(errno ? errno : EIO);
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

/* Create @d->dir, marked as an empty report. */
static int make_dir(struct slc_report_dir *d, char *err, size_t errlen)
{
	int rc;

	if (mkdir(d->dir, 0777))
		return slc_errf(err, errlen, -errno, "%s: cannot create it: %s", d->shown, strerror(errno));
	if ((d->fd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return slc_errf(err, errlen, -errno, "%s: %s", d->shown, strerror(errno));
	/* locked before it is marked: a second report that finds the marker finds the lock too */
	if ((rc = slc__take_lock(d->fd, d->shown, err, errlen)))
		return rc == -EBUSY ? slc_errf(err, errlen, rc, "%s: another slcscope is writing a report into it; "
					       "wait for it to end or choose another directory", d->shown) : rc;
	d->made = 1;
	d->slot_made = slc__tmp_register(d->dir, SLC__TMP_MADE_DIR);
	if ((rc = write_marker(d->dir, NULL, 0)))
		return slc_errf(err, errlen, rc, "%s: cannot write in it: %s", d->shown, strerror(-rc));
	return 0;
}

/* A staging directory beside @d->dir, or inside it when the parent is
 * another filesystem or not writable. */
static int make_staging(struct slc_report_dir *d, char *err, size_t errlen)
{
	char parent[PATH_MAX];
	const char *name = slc__split_path(d->dir, parent, sizeof(parent));
	struct stat ps, ds;
	int e;

	if (stat(parent, &ps) == 0 && stat(d->dir, &ds) == 0 && ps.st_dev == ds.st_dev &&
	    (size_t)snprintf(d->staging, sizeof(d->staging), "%s/.%s.slcscope-XXXXXX", parent, name) <
		    sizeof(d->staging) && mkdtemp(d->staging))
		goto made;
	if ((size_t)snprintf(d->staging, sizeof(d->staging), "%s/.slcscope-staging-XXXXXX", d->dir) >=
	    sizeof(d->staging))
		return slc_errf(err, errlen, -ENAMETOOLONG, "%s: name too long", d->shown);
	if (!mkdtemp(d->staging)) {
		e = errno;
		d->staging[0] = '\0';
		return slc_errf(err, errlen, -e, "%s: cannot write: %s", d->shown, strerror(e));
	}
made:
	d->slot_stage = slc__tmp_register(d->staging, SLC__TMP_DIR);
	return 0;
}

int slc_report_dir_begin(struct slc_report_dir **out, const char *dir, const char *const *inputs, size_t n_inputs,
			 char *err, size_t errlen)
{
	struct slc_report_dir *d;
	int rc;

	*out = NULL;
	if (!dir)
		return slc_errf(err, errlen, -EINVAL, "no report directory named");
	if (!(d = calloc(1, sizeof(*d))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	d->fd = -1;
	d->slot_made = d->slot_stage = -1;
	d->inputs = inputs;
	d->n_inputs = n_inputs;
	snprintf(d->shown, sizeof(d->shown), "%s", dir);
	rc = check(dir, inputs, n_inputs, d->dir, &d->fd, err, errlen);
	if (!rc && d->fd < 0)
		rc = make_dir(d, err, errlen);
	if (!rc) {
		d->old = read_marker(d->fd);
		rc = make_staging(d, err, errlen);
	}
	if (rc) {
		slc_report_dir_abort(d);
		return rc;
	}
	*out = d;
	return 0;
}

const char *slc_report_dir_staging(const struct slc_report_dir *d)
{
	return d->staging;
}

static void release(struct slc_report_dir *d)
{
	slc__tmp_forget(d->slot_stage);
	slc__tmp_forget(d->slot_made);
	if (d->fd >= 0)
		close(d->fd);
	free(d->old);
	free(d);
}

/* Remove the staging directory (flat: the report's files alone). */
static void remove_staging(struct slc_report_dir *d)
{
	if (!d->staging[0])
		return;
	slc__unlink_in(d->staging, NULL);
	rmdir(d->staging);
}

void slc_report_dir_abort(struct slc_report_dir *d)
{
	if (!d)
		return;
	remove_staging(d);
	if (d->made) {
		char m[PATH_MAX + sizeof(SLC_REPORT_MARKER) + 1];
		snprintf(m, sizeof(m), "%s/%s", d->dir, SLC_REPORT_MARKER);
		unlink(m);
		rmdir(d->dir);
	}
	release(d);
}

static int listed(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* Is @name a line of the earlier report's marker @old? */
static int old_listed(const char *old, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = old + strlen(MARKER_HEAD); *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, name, l) && (p[l] == '\n' || !p[l]))
			return 1;
	return 0;
}

/* Remove the files the earlier report listed that this one did not write. */
static void remove_stale(struct slc_report_dir *d, const char *const *names, size_t n)
{
	char *line, *save = NULL;
	struct stat st;

	if (!d->old)
		return;
	for (line = strtok_r(d->old + strlen(MARKER_HEAD), "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strchr(line, '/') && strcmp(line, SLC_REPORT_MARKER) && !listed(line, names, n) &&
		    fstatat(d->fd, line, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    !slc__same_as_input(&st, d->inputs, d->n_inputs))
			unlinkat(d->fd, line, 0);
}

int slc_report_dir_commit(struct slc_report_dir *d, const char *const *names, size_t n, FILE *log, char *err,
			  size_t errlen)
{
	char from[PATH_MAX + 256], to[PATH_MAX + 256];
	struct stat st;
	int rc = 0;

	/* every name first: nothing moves when one would replace an input */
	for (size_t i = 0; !rc && i < n; i++)
		if (strchr(names[i], '/') || !strcmp(names[i], SLC_REPORT_MARKER))
			rc = slc_errf(err, errlen, -EINVAL, "%s: '%s' is not a report file's name", d->shown, names[i]);
		else if (fstatat(d->fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			 (slc__same_as_input(&st, d->inputs, d->n_inputs) || !S_ISREG(st.st_mode)))
			rc = slc_errf(err, errlen, -EEXIST, "%s/%s: %s; the report's file of that name cannot replace it",
				      d->shown, names[i], S_ISREG(st.st_mode) ? "that is an input" : slc__file_type(st.st_mode));
		else if (!d->made && d->old && fstatat(d->fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			 !old_listed(d->old, names[i]))
			rc = slc_errf(err, errlen, -EEXIST, "%s/%s: not a file of the earlier report; move it away or "
				      "choose another directory", d->shown, names[i]);
	/* from the first move on the directory holds a report: a signal must not remove it */
	if (!rc) {
		d->made = 0;
		slc__tmp_forget(d->slot_made);
		d->slot_made = -1;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s", d->staging, names[i]);
		snprintf(to, sizeof(to), "%s/%s", d->shown, names[i]);
		if (renameat(AT_FDCWD, from, d->fd, names[i]))
			rc = slc_errf(err, errlen, -errno, "%s: %s", to, strerror(errno));
		else if (log)
			fprintf(log, "wrote %s\n", to);
	}
	if (!rc) {
		remove_stale(d, names, n);
		if ((rc = write_marker(d->dir, names, n)) || (rc = slc__fsync_dir(d->dir)))
			rc = slc_errf(err, errlen, rc, "%s: cannot finish the report: %s", d->shown, strerror(-rc));
	}
	if (rc) {
		slc_report_dir_abort(d);
		return rc;
	}
	remove_staging(d);
	release(d);
	return 0;
}

/* The directory this process's slc_report_dir_prepare() last made, the one
 * slc_report_dir_unprepare() may remove (a command line runs one report). */
static struct {
	dev_t dev;
	ino_t ino;
	int set;
} prepared;

int slc_report_dir_prepare(const char *dir, const char *const *inputs, size_t n_inputs, char *err, size_t errlen)
{
	struct slc_report_dir *d = calloc(1, sizeof(*d));
	struct stat st;
	int rc;

	if (!d)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	d->fd = -1;
	d->slot_made = d->slot_stage = -1;
	snprintf(d->shown, sizeof(d->shown), "%s", dir ? dir : "");
	rc = dir ? check(dir, inputs, n_inputs, d->dir, &d->fd, err, errlen)
		 : slc_errf(err, errlen, -EINVAL, "no report directory named");
	if (!rc && d->fd < 0 && (rc = make_dir(d, err, errlen))) {
		slc_report_dir_abort(d);
		return rc;
	}
	prepared.set = !rc && d->made && fstat(d->fd, &st) == 0;
	if (prepared.set) {
		prepared.dev = st.st_dev;
		prepared.ino = st.st_ino;
	}
	release(d);
	return rc;
}

int slc_report_dir_unprepare(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), only = 1;
	struct dirent *e;
	struct stat st;
	char *m;
	DIR *dp;

	if (fd < 0)
		return 0;
	/* only the directory this process's prepare() made, and not while
	 * another slcscope writes a report into it (it holds the lock) */
	if (!prepared.set || fstat(fd, &st) || st.st_dev != prepared.dev || st.st_ino != prepared.ino ||
	    flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return 0;
	}
	/* a marker that lists no file: no report was ever committed here */
	m = read_marker(fd);
	if (!m || strcmp(m, MARKER_HEAD) || !(dp = fdopendir(fd))) {
		free(m);
		close(fd);
		return 0;
	}
	free(m);
	while (only && (e = readdir(dp)))
		only = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, SLC_REPORT_MARKER);
	only = only && unlinkat(dirfd(dp), SLC_REPORT_MARKER, 0) == 0;
	only = only && rmdir(dir) == 0;
	if (only) prepared.set = 0;
	closedir(dp);
	return only;
}
