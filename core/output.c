// SPDX-License-Identifier: MIT
/* The one way slcscope writes a file (slcscope/output.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <blkid.h>

#include "slcscope/output.h"
#include "slcscope/trace.h"
#include "output_priv.h"
#include "private.h"
#include "trace/import.h"

/* ---- temporaries a signal removes ---------------------------------------- */

#define NREG 16
static struct {
	volatile sig_atomic_t used;
	int kind;
	char path[PATH_MAX];
} reg[NREG];

int slc__tmp_register(const char *path, int kind)
{
	for (int i = 0; i < NREG; i++)
		if (!reg[i].used) {
			snprintf(reg[i].path, sizeof(reg[i].path), "%s", path);
			reg[i].kind = kind;
			reg[i].used = 1;
			return i;
		}
	return -1;
}

void slc__tmp_forget(int slot)
{
	if (slot >= 0 && slot < NREG)
		reg[slot].used = 0;
}

/*
 * Remove the entries of directory @dir whose names start with @prefix (all
 * but . and .. when NULL), with system calls alone: it runs in a signal
 * handler.
 */
void slc__unlink_in(const char *dir, const char *prefix)
{
	char buf[4096];
	size_t pl = prefix ? strlen(prefix) : 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			const char *name = buf + at + 19;
			memcpy(&reclen, buf + at + 16, sizeof(reclen));
			if (prefix ? !strncmp(name, prefix, pl) : strcmp(name, ".") && strcmp(name, ".."))
				unlinkat(fd, name, 0);
			at += reclen;
		}
	close(fd);
}

/*
 * Remove @path and the files whose names start with its name: a writer given
 * a temporary path may stage its own file beside it (PATH.tmp.PID).
 */
static void remove_tmp_family(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) : 0;

	unlink(path);
	if (dl >= sizeof(dir))
		return;
	if (!slash || !dl) {
		dir[0] = slash ? '/' : '.';
		dir[1] = '\0';
	} else {
		memcpy(dir, path, dl);
		dir[dl] = '\0';
	}
	slc__unlink_in(dir, slash ? slash + 1 : path);
}

static void on_signal(int sig)
{
	for (int i = 0; i < NREG; i++) {
		if (!reg[i].used)
			continue;
		if (reg[i].kind == SLC__TMP_FILE) {
			remove_tmp_family(reg[i].path);
		} else if (reg[i].kind == SLC__TMP_DIR) {
			slc__unlink_in(reg[i].path, NULL);
			rmdir(reg[i].path);
		} else {
			char m[PATH_MAX + 32];
			size_t l = strlen(reg[i].path);
			if (l + sizeof("/" SLC_REPORT_MARKER) <= sizeof(m)) {
				memcpy(m, reg[i].path, l);
				memcpy(m + l, "/" SLC_REPORT_MARKER, sizeof("/" SLC_REPORT_MARKER));
				unlink(m);
			}
			rmdir(reg[i].path);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void slc_output_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* ---- checks shared with report directories ------------------------------ */

const char *slc__file_type(mode_t mode)
{
	return S_ISBLK(mode) ? "a block device" : S_ISCHR(mode) ? "a character device" : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket" : S_ISDIR(mode) ? "a directory" : S_ISLNK(mode) ? "a symbolic link"
	       : "not a regular file";
}

const char *slc__system_dir(const char *real)
{
	static const char *const sys[] = { "/dev", "/proc", "/sys" };

	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		size_t l = strlen(sys[i]);
		if (!strncmp(real, sys[i], l) && (real[l] == '/' || !real[l]))
			return sys[i];
	}
	return NULL;
}

const char *slc__same_as_input(const struct stat *st, const char *const *inputs, size_t n)
{
	struct stat is;

	for (size_t i = 0; i < n; i++)
		if (inputs[i] && stat(inputs[i], &is) == 0 && is.st_dev == st->st_dev && is.st_ino == st->st_ino)
			return inputs[i];
	return NULL;
}

/* An input, or a file an input brings in (a fio job's other logs): its name, else NULL. */
static const char *read_with_input(const char *path, const struct stat *st, const char *const *inputs, size_t n)
{
	const char *in = slc__same_as_input(st, inputs, n);

	for (size_t i = 0; !in && i < n; i++)
		if (inputs[i] && slc__import_reads_too(inputs[i], path))
			in = inputs[i];
	return in;
}

/* Who holds a trace's lock, as the holder wrote it there (session/run.c). */
#define WRITER_XATTR "user.slcscope.writer"

/* @op: LOCK_EX to hold the file, LOCK_SH only to look whether a writer
 * holds it (two lookers at once never see each other); @advice ends the
 * reason when a writer does. */
static int lock_as(int fd, int op, const char *what, const char *advice, char *err, size_t errlen)
{
	char who[256];
	ssize_t n;

	if (flock(fd, op | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK)
		return slc_errf(err, errlen, -errno, "%s: cannot lock it: %s", what, strerror(errno));
	n = fgetxattr(fd, WRITER_XATTR, who, sizeof(who) - 1);
	who[n > 0 ? n : 0] = '\0';
	return slc_errf(err, errlen, -EBUSY, "%s: another slcscope is writing it (%s); %s", what,
			n > 0 ? who : "it holds the lock", advice);
}

#define OUTPUT_ADVICE "wait for it to end or choose another name"

int slc_output_held(const char *path, char *err, size_t errlen)
{
	struct stat st, fst;
	int fd, rc = 0;

	/* a device or a FIFO is never opened here: opening one can act on it */
	if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) >= 0) {
		if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) &&
		    lock_as(fd, LOCK_SH, path, "try again once the run has ended", err, errlen) == -EBUSY)
			rc = -EBUSY;
		close(fd);          /* and with it the shared lock */
	}
	/* not held: a lock that failed otherwise tells nothing of a writer */
	if (!rc && err && errlen)
		err[0] = '\0';
	return rc;
}

int slc__take_lock(int fd, const char *what, char *err, size_t errlen)
{
	return lock_as(fd, LOCK_EX, what, OUTPUT_ADVICE, err, errlen);
}

const char *slc__split_path(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, len, ".");
		return path;
	}
	snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return slash + 1;
}

int slc__fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	/* some filesystems cannot sync a directory: the rename stands all the same */
	if (fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
		rc = -errno;
	close(fd);
	return rc;
}

/* ---- what an existing file holds ---------------------------------------- */

static const unsigned char hdf5_magic[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };

/* A filesystem or partition table libblkid knows, into @what. */
static void blkid_format(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *val;

	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) == 0)
			snprintf(what, len, "a %s partition table", val);
		else if (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0)
			snprintf(what, len, "a %s filesystem signature", val);
	}
	blkid_free_probe(pr);
}

/*
 * Is the head of an existing file (@buf, @n bytes of @size) what an output
 * of @kind may replace?  NULL, or what it holds instead.  A trace has the
 * HDF5 signature at 0 and slcscope's schema name in its header (slcscope
 * never writes a user block before it); a graph starts as PNG, PDF or SVG
 * do; text has no NUL byte.
 */
static const char *foreign(enum slc_output_kind kind, int fd, off_t size, const unsigned char *buf, size_t n)
{
	unsigned char m[8];
	int h5 = 0;

	/* a user block of any power of two from 512 bytes moves the signature there */
	for (off_t at = 0; !h5 && at + 8 <= size; at = at ? at * 2 : 512)
		if (pread(fd, m, 8, at) == 8 && !memcmp(m, hdf5_magic, 8))
			h5 = at ? 2 : 1;
	if (kind == SLC_OUTPUT_TRACE)
		return h5 == 1 && memmem(buf, n, SLC_TRACE_SCHEMA, strlen(SLC_TRACE_SCHEMA)) ? NULL
		       : h5 == 2 ? "an HDF5 file with a user block, not an slcscope trace"
		       : h5 ? "an HDF5 file that is not an slcscope trace" : "data that is not an slcscope trace";
	if (h5)
		return "an HDF5 file";
	if (kind == SLC_OUTPUT_DATABASE)
		return n >= 16 && !memcmp(buf, "SQLite format 3", 16) ? NULL : "a file that is not an SQLite database";
	if (kind == SLC_OUTPUT_GRAPH) {
		if ((n >= 8 && !memcmp(buf, "\x89PNG\r\n\x1a\n", 8)) || (n >= 5 && !memcmp(buf, "%PDF-", 5)) ||
		    (memmem(buf, n < 512 ? n : 512, "<svg", 4) && !memchr(buf, 0, n)))
			return NULL;
		return "a file that is not a PNG, PDF or SVG graph";
	}
	return memchr(buf, 0, n) ? "binary data, not text" : NULL;
}

/* Refuse an existing regular file @real (@st) that @o may not replace. */
static int check_existing(const char *shown, const char *real, const struct stat *st, const struct slc_output_opts *o,
			  char *err, size_t errlen)
{
	static unsigned char buf[65536];
	char what[512] = "";
	const char *in, *f = NULL;
	ssize_t n;
	int fd;

	if ((in = read_with_input(real, st, o->inputs, o->n_inputs)))
		return slc_errf(err, errlen, -EINVAL, "%s: that is %s %s; write the output to another file", shown,
				slc__same_as_input(st, o->inputs, o->n_inputs) ? "the input" : "read with the input", in);
	if (slc__file_in_use(st, real, what, sizeof(what)))
		return slc_errf(err, errlen, -EBUSY, "%s: refusing to replace a file in use: %s", shown, what);
	if (o->force || st->st_size == 0)
		return 0;
	if ((fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return slc_errf(err, errlen, -errno, "%s: cannot read it: %s", shown, strerror(errno));
	if ((n = pread(fd, buf, sizeof(buf), 0)) < 0) {
		close(fd);
		return slc_errf(err, errlen, -errno, "%s: cannot read it: %s", shown, strerror(errno));
	}
	blkid_format(real, what, sizeof(what));
	if (!what[0] && (f = foreign(o->kind, fd, st->st_size, buf, (size_t)n)))
		snprintf(what, sizeof(what), "%s", f);
	close(fd);
	/* a lab is never replaced, so there is nothing to force */
	if (what[0] && o->kind == SLC_OUTPUT_DATABASE)
		return slc_errf(err, errlen, -EEXIST, "%s: it holds %s, not a lab; give a new path or a lab", shown, what);
	if (what[0])
		return slc_errf(err, errlen, -EEXIST, "%s: it holds %s; refusing to replace it (--force does)", shown,
				what);
	return 0;
}

/*
 * Does @path, or a link it leads through, name a file in /proc (/dev/stdout,
 * /dev/fd/1, /proc/self/fd/3)?  Renaming over the file such a descriptor
 * has open would replace what the shell redirected, not append to it.
 */
static int via_proc(const char *path)
{
	char cur[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(cur, sizeof(cur), "%s", path);
	for (int i = 0; i < 40; i++) {
		slc__split_path(cur, dir, sizeof(dir));
		if (realpath(dir, rdir) && (!strcmp(rdir, "/proc") || !strncmp(rdir, "/proc/", 6)))
			return 1;
		if ((n = readlink(cur, link, sizeof(link) - 1)) <= 0)
			return 0;
		link[n] = '\0';
		if (link[0] == '/' || (size_t)snprintf(rdir, sizeof(rdir), "%s/%s", dir, link) >= sizeof(rdir))
			snprintf(cur, sizeof(cur), "%s", link);
		else
			snprintf(cur, sizeof(cur), "%s", rdir);
	}
	return 0;
}

/*
 * The checks, with @real set to the file to write (a link resolved).  @lockfd
 * (NULL: released) keeps the existing file's lock.
 */
static int check(const char *path, const struct slc_output_opts *o, char *real, int *lockfd, char *err,
		 size_t errlen)
{
	const char *opt = o->option ? o->option : "-o";
	char shown[PATH_MAX + 64], dir[PATH_MAX], rdir[PATH_MAX];
	const char *sys;
	struct stat st, ls;
	int rc, fd;

	snprintf(shown, sizeof(shown), "%s %s", opt, path);
	if (!*path)
		return slc_errf(err, errlen, -EINVAL, "%s: an empty file name", opt);
	if (via_proc(path))
		return slc_errf(err, errlen, -EINVAL, "%s: it names an open file descriptor (/proc); give a file name, "
				"or - for standard output", shown);
	if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode)) {
		if (!realpath(path, real))
			return errno == ELOOP ? slc_errf(err, errlen, -ELOOP, "%s: a loop of symbolic links", shown)
			       : slc_errf(err, errlen, -ENOENT, "%s: a symbolic link to a missing file; give the file "
					  "itself", shown);
	} else {
		snprintf(real, PATH_MAX, "%s", path);
	}
	if (stat(real, &st) != 0) {
		if (errno != ENOENT)
			return slc_errf(err, errlen, -errno, "%s: %s", shown, strerror(errno));
		slc__split_path(real, dir, sizeof(dir));
		if (!realpath(dir, rdir) || stat(rdir, &st) != 0 || !S_ISDIR(st.st_mode))
			return slc_errf(err, errlen, -ENOENT, "%s: no directory %s to create it in", shown, dir);
		if ((sys = slc__system_dir(rdir)))
			return slc_errf(err, errlen, -EPERM, "%s: a new file in %s; outputs go elsewhere", shown, sys);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return slc_errf(err, errlen, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				"%s: it is %s; outputs are new or regular files", shown, slc__file_type(st.st_mode));
	if ((rc = check_existing(shown, real, &st, o, err, errlen)))
		return rc;
	if ((fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return slc_errf(err, errlen, -errno, "%s: %s", shown, strerror(errno));
	if ((rc = lock_as(fd, lockfd ? LOCK_EX : LOCK_SH, shown, OUTPUT_ADVICE, err, errlen)) || !lockfd)
		close(fd);
	else
		*lockfd = fd;
	return rc;
}

int slc_output_check(const char *path, const struct slc_output_opts *o, char *err, size_t errlen)
{
	char real[PATH_MAX];

	if (!path || !o)
		return slc_errf(err, errlen, -EINVAL, "no output named");
	if (!strcmp(path, "-"))
		return o->stdout_ok && o->kind == SLC_OUTPUT_TEXT ? 0
		       : slc_errf(err, errlen, -EINVAL, "%s -: this output is not text; give a file name",
				  o->option ? o->option : "-o");
	return check(path, o, real, NULL, err, errlen);
}

/* ---- writing --------------------------------------------------------------- */

struct slc_output {
	char path[PATH_MAX];       /* as given */
	char real[PATH_MAX];       /* the file renamed over */
	char tmp[PATH_MAX];
	FILE *f;
	int to_stdout, lockfd, slot;
};

int slc_output_begin(struct slc_output **out, const char *path, const struct slc_output_opts *o, char *err,
		     size_t errlen)
{
	struct slc_output *w;
	char dir[PATH_MAX];
	const char *name;
	struct stat st;
	mode_t mask;
	int rc, fd;

	*out = NULL;
	if (!path || !o || !strcmp(path, "-"))
		if ((rc = slc_output_check(path, o, err, errlen)))
			return rc;
	if (!(w = calloc(1, sizeof(*w))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	w->lockfd = -1;
	w->slot = -1;
	snprintf(w->path, sizeof(w->path), "%s", path);
	if (!strcmp(path, "-")) {
		w->to_stdout = 1;
		w->f = stdout;
		*out = w;
		return 0;
	}
	if ((rc = check(path, o, w->real, &w->lockfd, err, errlen))) {
		free(w);
		return rc;
	}
	name = slc__split_path(w->real, dir, sizeof(dir));
	/* the name kept in the temporary's when it fits a directory entry, else its extension alone */
	if (strlen(name) > 200)
		name = strrchr(name, '.') && strlen(strrchr(name, '.')) < 16 ? strrchr(name, '.') : "";
	if ((size_t)snprintf(w->tmp, sizeof(w->tmp), "%s/.slcscope-XXXXXX-%s", dir, name) >= sizeof(w->tmp)) {
		slc_output_abort(w);
		return slc_errf(err, errlen, -ENAMETOOLONG, "%s: name too long", path);
	}
	if ((fd = mkostemps(w->tmp, (int)strlen(name) + 1, O_CLOEXEC)) < 0) {
		rc = slc_errf(err, errlen, -errno, "%s: cannot create a file in %s: %s", path, dir, strerror(errno));
		w->tmp[0] = '\0';
		slc_output_abort(w);
		return rc;
	}
	w->slot = slc__tmp_register(w->tmp, SLC__TMP_FILE);
	/* the mode the old file had, else what a new file gets */
	mask = umask(0);
	umask(mask);
	if (w->lockfd >= 0 && fstat(w->lockfd, &st) == 0) {
		/* what the file was, less set-id bits: a root run keeps a user's file the user's */
		if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid)) {
			/* an owner the filesystem cannot give: the file is root's, as a new one */
		}
		fchmod(fd, st.st_mode & 0777);
	} else {
		fchmod(fd, 0666 & ~mask);
	}
	close(fd);
	*out = w;
	return 0;
}

const char *slc_output_tmp_path(const struct slc_output *w)
{
	return w && !w->to_stdout ? w->tmp : NULL;
}

FILE *slc_output_stream(struct slc_output *w)
{
	if (w && !w->f)
		w->f = fopen(w->tmp, "we");
	return w ? w->f : NULL;
}

void slc_output_fix_message(const struct slc_output *w, char *msg, size_t len)
{
	char *at, rest[1024];
	size_t tl;

	if (!w || w->to_stdout || !w->tmp[0] || !(at = strstr(msg, w->tmp)))
		return;
	tl = strlen(w->tmp);
	snprintf(rest, sizeof(rest), "%s", at + tl);
	snprintf(at, len - (size_t)(at - msg), "%s%s", w->path, rest);
}

static void release(struct slc_output *w)
{
	slc__tmp_forget(w->slot);
	if (w->lockfd >= 0)
		close(w->lockfd);
	free(w);
}

void slc_output_abort(struct slc_output *w)
{
	if (!w)
		return;
	if (w->f && !w->to_stdout)
		fclose(w->f);
	if (w->tmp[0])
		unlink(w->tmp);
	release(w);
}

/* Flush, sync and close the stream: 0 or -errno. */
static int close_stream(FILE *f, int is_stdout)
{
	/* a buffered write that failed, and why */
	int rc = slc_stream_error(f);

	if (!rc && fflush(f))
		rc = -(errno ? errno : EIO);
	if (!is_stdout && fsync(fileno(f)) && !rc)
		rc = -errno;
	if (!is_stdout && fclose(f) && !rc)
		rc = -(errno ? errno : EIO);
	return rc;
}

int slc_output_commit(struct slc_output *w, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;
	int rc = 0, fd;

	if (w->to_stdout) {
		rc = close_stream(stdout, 1);
		release(w);
		return rc ? slc_errf(err, errlen, rc, "cannot write standard output: %s", strerror(-rc)) : 0;
	}
	if (w->f) {
		rc = close_stream(w->f, 0);
		w->f = NULL;
	} else if ((fd = open(w->tmp, O_RDONLY | O_CLOEXEC)) < 0 || fsync(fd)) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
	} else {
		close(fd);
	}
	/* what the path is now: it may have become something else since the check */
	if (!rc && lstat(w->real, &st) == 0 && !S_ISREG(st.st_mode))
		rc = slc_errf(err, errlen, -EINVAL, "%s: it became %s while it was written; left as it is", w->path,
			      slc__file_type(st.st_mode));
	else if (rc)
		slc_errf(err, errlen, rc, "%s: cannot write: %s", w->path, strerror(-rc));
	else if (rename(w->tmp, w->real))
		rc = slc_errf(err, errlen, -errno, "%s: cannot rename into place: %s", w->path, strerror(errno));
	else if ((rc = slc__fsync_dir((slc__split_path(w->real, dir, sizeof(dir)), dir))))
		rc = slc_errf(err, errlen, rc, "%s: written, but its directory cannot be synced: %s", w->path,
			      strerror(-rc));
	else
		w->tmp[0] = '\0';
	if (w->tmp[0])
		unlink(w->tmp);
	release(w);
	return rc;
}

int slc_output_write(const char *path, const struct slc_output_opts *o, slc_output_fn fn, void *arg, char *err,
		     size_t errlen)
{
	struct slc_output *w;
	FILE *f = NULL;
	int rc;

	if ((rc = slc_output_begin(&w, path, o, err, errlen)))
		return rc;
	if (o->kind == SLC_OUTPUT_TEXT && !(f = slc_output_stream(w))) {
		rc = slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
		slc_output_abort(w);
		return rc;
	}
	if ((rc = fn(slc_output_tmp_path(w), f, arg, err, errlen))) {
		slc_output_fix_message(w, err, errlen);
		slc_output_abort(w);
		return rc;
	}
	return slc_output_commit(w, err, errlen);
}
