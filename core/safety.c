// SPDX-License-Identifier: MIT
/*
 * Before a target is written: what uses it and what it holds.
 *
 * In use (never written, whatever the flags): mounted (itself, one of its
 * partitions, a loop device over it, or as the backing store of a FUSE
 * filesystem such as fuse2fs, which opens it without O_EXCL) or used as
 * swap.  Found (written only with --force): held by dm/md/LVM, partitioned,
 * a loop device over it, open in another process (files), or carrying a
 * signature: what libblkid knows (filesystems, partition tables) and HDF5
 * (slcscope traces).
 */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "private.h"
#include "output_priv.h"

__attribute__((format(printf, 3, 4)))
static void add(char *what, size_t len, const char *fmt, ...)
{
	size_t n = strlen(what);
	if (n && n + 2 < len) {
		strcat(what, "; ");
		n += 2;
	}
	if (n < len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what + n, len - n, fmt, ap);
		va_end(ap);
	}
}

/* What is checked: a block device (and its partitions) or a regular file. */
struct subject {
	int blk;
	dev_t rdev;                   /* blk: the device */
	dev_t dev;                    /* file: where it lives */
	ino_t ino;
	const char *name;             /* file: its base name */
};

/* Does maj:min (a mount's device) belong to @dev, itself or one of its partitions? */
static int same_disk(dev_t dev, unsigned maj, unsigned min)
{
	char path[128], buf[64];
	FILE *f;
	unsigned pmaj, pmin;

	if (major(dev) == maj && minor(dev) == min)
		return 1;
	/* a partition's sysfs directory sits inside its disk's: ../dev is the disk */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", maj, min);
	if (access(path, F_OK) != 0)
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", maj, min);
	if (!(f = fopen(path, "re")))
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%u:%u", &pmaj, &pmin) != 2) {
		fclose(f);
		return 0;
	}
	fclose(f);
	return major(dev) == pmaj && minor(dev) == pmin;
}

/* Is what @st describes the subject (for a block device: or a partition of it)? */
static int is_subject(const struct subject *s, const struct stat *st)
{
	if (s->blk)
		return S_ISBLK(st->st_mode) && same_disk(s->rdev, major(st->st_rdev), minor(st->st_rdev));
	return S_ISREG(st->st_mode) && st->st_dev == s->dev && st->st_ino == s->ino;
}

/* mountinfo and /proc/swaps write a space, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3])) {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/* A process that has the subject open: does it serve a FUSE filesystem
 * (holds /dev/fuse)? */
struct opener {
	int pid;
	int fuse;
	char comm[32];
};

static void read_comm(int pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm[0] = '\0';
	if ((f = fopen(path, "re"))) {
		if (fgets(comm, (int)len, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
}

/* Is descriptor @fd of process @pid open for writing (the flags fdinfo gives, in octal)? */
static int fd_writes(int pid, const char *fd)
{
	char path[320], line[128];
	unsigned long flags;
	int w = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %lo", &flags) == 1) {
			w = (flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR;
			break;
		}
	fclose(f);
	return w;
}

/*
 * Does process @pid have the subject open (@writers: for writing, as
 * fd_writes() reads it); does it hold /dev/fuse (@fuse, may be NULL)?
 */
static int scan_fds(const struct subject *s, int pid, int *fuse, int writers)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int has = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	if (!(d = opendir(path)))
		return 0;
	if (fuse)
		*fuse = 0;
	while ((de = readdir(d))) {
		char fd[320];
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		snprintf(fd, sizeof(fd), "%s/%s", path, de->d_name);
		if (stat(fd, &st) != 0)
			continue;
		if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 10 && minor(st.st_rdev) == 229) {
			if (fuse)
				*fuse = 1;      /* /dev/fuse */
		} else if (is_subject(s, &st) && (!writers || fd_writes(pid, de->d_name))) {
			has = 1;
		}
	}
	closedir(d);
	return has;
}

/* The other processes that have the subject open (what /proc lets us see), up to @max. */
static size_t find_openers(const struct subject *s, struct opener *op, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;
	int self = (int)getpid();

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		int pid = atoi(de->d_name), fuse = 0;
		if (pid <= 0 || pid == self || !scan_fds(s, pid, &fuse, 0))
			continue;
		op[n].pid = pid;
		op[n].fuse = fuse;
		read_comm(pid, op[n].comm, sizeof(op[n].comm));
		n++;
	}
	closedir(d);
	return n;
}


/*
 * Another process that holds the subject open for writing (a database on
 * the raw device, a VM's disk, dd) would have its data destroyed and would
 * disturb the measurement; readers (udev, blkid, a monitor) are harmless.
 * Named in @what; 1 when one was found.
 */
static int check_writers(const struct subject *s, char *what, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int self = (int)getpid(), found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && found < 4) {
		int pid = atoi(de->d_name);
		char comm[32];
		if (pid <= 0 || pid == self || !scan_fds(s, pid, NULL, 1))
			continue;
		read_comm(pid, comm, sizeof(comm));
		add(what, len, "open for writing in %s (pid %d)", comm, pid);
		found++;
	}
	closedir(d);
	return found > 0;
}

/* Is the mount whose source is @src (fstype @type) made from the subject? */
static int source_is_subject(const struct subject *s, const char *type, const char *src,
			     const struct opener *op, size_t nop)
{
	const char *base;
	struct stat st;

	if (src[0] == '/' && stat(src, &st) == 0 && is_subject(s, &st))
		return 1;
	/* a FUSE server names its source as it was given, often relative to
	 * a directory it has left: a server holding the subject open whose
	 * source has the subject's name is the one */
	if (strncmp(type, "fuse", 4) != 0 || s->blk)
		return 0;
	base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	for (size_t i = 0; i < nop; i++)
		if (op[i].fuse && strcmp(base, s->name) == 0)
			return 1;
	return 0;
}

/* Mounted, itself, a partition or as a FUSE filesystem's source?  1 when it is. */
static int check_mounts(const struct subject *s, const struct opener *op, size_t nop, char *what, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[4096], type[256], src[4096];
		const char *sep = strstr(line, " - ");
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3 || !sep ||
		    sscanf(sep + 3, "%255s %4095s", type, src) != 2)
			continue;
		unescape(mnt);
		unescape(src);
		if ((s->blk && same_disk(s->rdev, maj, min)) || source_is_subject(s, type, src, op, nop)) {
			add(what, len, "mounted on %s (%s)", mnt, type);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Used as swap, itself or a partition?  1 when it is. */
static int check_swaps(const struct subject *s, char *what, size_t len)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4200], path[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;
		if (sscanf(line, "%4095s", path) != 1)
			continue;
		unescape(path);
		if (stat(path, &st) == 0 && is_subject(s, &st)) {
			add(what, len, "used as swap (%s)", path);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* A FUSE server with the subject open but no mount found for it still serves from it. */
static int check_fuse_servers(const struct opener *op, size_t nop, char *what, size_t len)
{
	for (size_t i = 0; i < nop; i++)
		if (op[i].fuse) {
			add(what, len, "open in %s (pid %d), which serves a FUSE filesystem", op[i].comm, op[i].pid);
			return 1;
		}
	return 0;
}

/* Mounts, swap, FUSE servers: SLC_CHECK_IN_USE when any is found. */
static int check_in_use(const struct subject *s, const struct opener *op, size_t nop, char *what, size_t len)
{
	int m = check_mounts(s, op, nop, what, len);
	int w = check_swaps(s, what, len);

	if (!m && check_fuse_servers(op, nop, what, len))
		m = 1;
	return m || w ? SLC_CHECK_IN_USE : 0;
}

static void check_sysfs(dev_t dev, char *what, size_t len)
{
	char path[128];
	struct dirent *de;
	DIR *d;
	int nparts = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(dev), minor(dev));
	if ((d = opendir(path))) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.') {
				add(what, len, "held by %s (device mapper, RAID or LVM)", de->d_name);
				break;
			}
		closedir(d);
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if ((d = opendir(path))) {
		while ((de = readdir(d))) {
			char p2[512];
			if (de->d_name[0] == '.')
				continue;
			snprintf(p2, sizeof(p2), "%s/%s/partition", path, de->d_name);
			if (access(p2, F_OK) == 0)
				nparts++;
		}
		closedir(d);
	}
	if (nparts) {
		char n[16];
		snprintf(n, sizeof(n), "%d", nparts);
		add(what, len, "%s partition(s)", n);
	}
}

static int check_signatures(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *val;
	int rc;

	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		char buf[160];
		if (blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) == 0) {
			snprintf(buf, sizeof(buf), "a %s partition table", val);
			add(what, len, "%s", buf);
		}
		if (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0) {
			const char *label = NULL;
			blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
			snprintf(buf, sizeof(buf), "a %s signature%s%s%s", val, label ? " (label '" : "",
				 label ? label : "", label ? "')" : "");
			add(what, len, "%s", buf);
		}
	} else if (rc == -2) {
		add(what, len, "%s", "ambivalent signatures (several filesystems)");
	}
	blkid_free_probe(pr);
	return 0;
}

int slc_blockdev_check(const char *path, char *what, size_t whatlen)
{
	struct opener op[16];
	struct subject s = { .blk = 1 };
	struct stat st;
	size_t nop, n0;
	int rc, in_use;

	what[0] = '\0';
	if (stat(path, &st) != 0) {
		snprintf(what, whatlen, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(what, whatlen, "not a block device");
		return -ENOTBLK;
	}
	s.rdev = st.st_rdev;
	nop = find_openers(&s, op, sizeof(op) / sizeof(op[0]));
	in_use = check_in_use(&s, op, nop, what, whatlen);
	n0 = strlen(what);
	check_writers(&s, what, whatlen);
	check_sysfs(st.st_rdev, what, whatlen);
	if ((rc = check_signatures(path, what, whatlen)) < 0) {
		snprintf(what, whatlen, "libblkid cannot read it: %s", strerror(-rc));
		return rc;
	}
	return in_use | (strlen(what) > n0 ? SLC_CHECK_FOUND : 0);
}

/* ---- regular files ---- */

/* Is loop device @name (loop0, ...) backed by the file? */
static int loop_backed_by(const char *name, const struct subject *s)
{
	char path[300], back[4096];
	struct loop_info64 li;
	struct stat st;
	FILE *f;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "/dev/%s", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
		rc = ioctl(fd, LOOP_GET_STATUS64, &li) == 0 ? 1 : -1;
		close(fd);
		if (rc > 0)
			return (dev_t)li.lo_device == s->dev && (ino_t)li.lo_inode == s->ino;
	}
	/* no device node to ask: the path the kernel keeps */
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (!(f = fopen(path, "re")))
		return 0;
	if (fgets(back, sizeof(back), f)) {
		back[strcspn(back, "\n")] = '\0';
		rc = stat(back, &st) == 0 && is_subject(s, &st);
	}
	fclose(f);
	return rc > 0;
}

/* The loop devices over the file: in use when one is mounted or swap, else found. */
static int check_loops(const struct subject *s, char *what, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int r = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300], buf[64], use[1024] = "";
		struct subject l = { .blk = 1 };
		struct opener op[16];
		unsigned maj, min;
		size_t nop;
		FILE *f;
		if (strncmp(de->d_name, "loop", 4) != 0 || !loop_backed_by(de->d_name, s))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2) {
			l.rdev = makedev(maj, min);
			nop = find_openers(&l, op, sizeof(op) / sizeof(op[0]));
			if (check_in_use(&l, op, nop, use, sizeof(use))) {
				add(what, len, "backs /dev/%s, which is %s", de->d_name, use);
				r |= SLC_CHECK_IN_USE;
			} else {
				add(what, len, "backs the loop device /dev/%s", de->d_name);
				r |= SLC_CHECK_FOUND;
			}
		}
		fclose(f);
	}
	closedir(d);
	return r;
}

static const unsigned char hdf5_magic[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };

/* HDF5 puts its superblock at 0, 512, 1024, 2048, ...: look in the first 64 KiB. */
static void check_hdf5(const char *path, char *what, size_t len)
{
	static unsigned char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return;
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	for (size_t at = 0; n >= 8 && at + 8 <= (size_t)n; at = at ? at * 2 : 512)
		if (memcmp(buf + at, hdf5_magic, 8) == 0) {
			add(what, len, "%s", memmem(buf, (size_t)n, "slcscope", 8) ? "an HDF5 signature (an slcscope trace)"
			    : "an HDF5 signature");
			return;
		}
}

#define MARK_NAME "user.slcscope.target"

static void mark_value(char *buf, size_t len, const struct stat *st)
{
	snprintf(buf, len, "slcscope target: size %jd, mtime %jd.%09ld", (intmax_t)st->st_size,
		 (intmax_t)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

int slc__target_mark(int fd)
{
	char v[128];
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	mark_value(v, sizeof(v), &st);
	return fsetxattr(fd, MARK_NAME, v, strlen(v), 0) ? -errno : 0;
}

/* Did slcscope write the file last, as a target (its mark matches the file as it is)? */
static int marked(const char *path, const struct stat *st)
{
	char want[128], have[128];
	ssize_t n = getxattr(path, MARK_NAME, have, sizeof(have) - 1);

	if (n <= 0)
		return 0;
	have[n] = '\0';
	mark_value(want, sizeof(want), st);
	return strcmp(want, have) == 0;
}

int slc_file_check(const char *path, unsigned flags, char *what, size_t whatlen)
{
	struct subject s = { 0 };
	struct opener op[16];
	struct stat st;
	size_t nop, n0;
	int r, rc;

	what[0] = '\0';
	if (stat(path, &st) != 0) {
		snprintf(what, whatlen, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(what, whatlen, "not a regular file");
		return -EINVAL;
	}
	s.dev = st.st_dev;
	s.ino = st.st_ino;
	s.name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	nop = find_openers(&s, op, sizeof(op) / sizeof(op[0]));
	r = check_in_use(&s, op, nop, what, whatlen) | check_loops(&s, what, whatlen);
	n0 = strlen(what);
	for (size_t i = 0; i < nop && !(flags & SLC_CHECK_AS_OUTPUT); i++)
		if (!op[i].fuse)
			add(what, whatlen, "open in %s (pid %d)", op[i].comm, op[i].pid);
	/* slcscope's own data may look like anything: a file it wrote last is not checked for signatures */
	if (!marked(path, &st)) {
		if ((rc = check_signatures(path, what, whatlen)) < 0) {
			snprintf(what, whatlen, "libblkid cannot read it: %s", strerror(-rc));
			return rc;
		}
		if (!(flags & SLC_CHECK_AS_OUTPUT))
			check_hdf5(path, what, whatlen);
	}
	return r | (strlen(what) > n0 ? SLC_CHECK_FOUND : 0);
}

int slc_blockdev_geometry(const char *path, uint64_t *bytes, uint32_t *logical_block, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0, lbs = 0;

	if (fd < 0)
		return slc_errf(err, errlen, -errno, "%s: cannot open: %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, bytes))
		rc = slc_errf(err, errlen, -errno, "%s: cannot read its size: %s", path, strerror(errno));
	else if (logical_block && ioctl(fd, BLKSSZGET, &lbs))
		rc = slc_errf(err, errlen, -errno, "%s: cannot read its logical block size: %s", path, strerror(errno));
	if (logical_block && !rc)
		*logical_block = (uint32_t)lbs;
	close(fd);
	return rc;
}

int slc_blockdev_size(const char *path, uint64_t *bytes, char *err, size_t errlen)
{
	return slc_blockdev_geometry(path, bytes, NULL, err, errlen);
}

int slc__file_in_use(const struct stat *st, const char *path, char *what, size_t len)
{
	struct subject s = { .dev = st->st_dev, .ino = st->st_ino };
	struct opener op[16];
	size_t nop;

	what[0] = '\0';
	s.name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	nop = find_openers(&s, op, sizeof(op) / sizeof(op[0]));
	return (check_in_use(&s, op, nop, what, len) | check_loops(&s, what, len)) != 0;
}

/*
 * Would a file at @path (which does not exist) be created among the
 * device nodes: under /dev, or on a devtmpfs mounted elsewhere?  A
 * mistyped device name (/dev/sdz) must not become a regular file there:
 * it would fill the RAM that devtmpfs lives in and shadow the device
 * that appears under that name later.
 */
int slc__path_in_devfs(const char *path)
{
	char dir[4096], real[4096], line[8192];
	struct stat st;
	FILE *f;
	int found = 0;

	slc__split_path(path, dir, sizeof(dir));
	if (!realpath(dir, real))
		return strncmp(path, "/dev/", 5) == 0;
	if (strcmp(real, "/dev") == 0 || strncmp(real, "/dev/", 5) == 0)
		return 1;
	if (stat(real, &st) != 0 || !(f = fopen("/proc/self/mountinfo", "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char type[64];
		const char *sep = strstr(line, " - ");
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) == 2 && sep && sscanf(sep + 3, "%63s", type) == 1 &&
		    maj == major(st.st_dev) && min == minor(st.st_dev) && strcmp(type, "devtmpfs") == 0)
			found = 1;
	}
	fclose(f);
	return found;
}

static int blockdev_check_child(void *arg, char *what, size_t len)
{
	return slc_blockdev_check(arg, what, len);
}

int slc_blockdev_check_stoppable(const char *path, char *what, size_t whatlen, const volatile int *stop)
{
	/* libblkid's reads of a drive that holds a command keep the reader
	 * in the kernel past any signal: read from a child (apart.c) */
	return slc__apart(blockdev_check_child, (void *)path, what, whatlen, stop);
}
