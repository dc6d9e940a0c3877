// SPDX-License-Identifier: MIT
/*
 * Before a block device is written: is it mounted (itself or a partition),
 * used as swap, held by dm/md/LVM, partitioned, or does libblkid find a
 * partition table or a filesystem signature on it?
 */
#include <blkid/blkid.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "slcscope/core.h"

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

static void check_mounts(dev_t dev, char *what, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[2048];
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &maj, &min, mnt) != 3)
			continue;
		if (same_disk(dev, maj, min)) {
			add(what, len, "mounted on %s", mnt);
			break;
		}
	}
	fclose(f);
}

static void check_swaps(dev_t dev, char *what, size_t len)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[1024], path[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct stat st;
		if (sscanf(line, "%1023s", path) == 1 && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    same_disk(dev, major(st.st_rdev), minor(st.st_rdev))) {
			add(what, len, "used as swap (%s)", path);
			break;
		}
	}
	fclose(f);
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
	struct stat st;
	int rc;

	what[0] = '\0';
	if (stat(path, &st) != 0) {
		snprintf(what, whatlen, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(what, whatlen, "not a block device");
		return -ENOTBLK;
	}
	check_mounts(st.st_rdev, what, whatlen);
	check_swaps(st.st_rdev, what, whatlen);
	check_sysfs(st.st_rdev, what, whatlen);
	if ((rc = check_signatures(path, what, whatlen)) < 0) {
		snprintf(what, whatlen, "libblkid cannot read it: %s", strerror(-rc));
		return rc;
	}
	return what[0] ? 1 : 0;
}

int slc_blockdev_size(const char *path, uint64_t *bytes, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return slc_errf(err, errlen, -errno, "%s: cannot open: %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, bytes))
		rc = slc_errf(err, errlen, -errno, "%s: cannot read its size: %s", path, strerror(errno));
	close(fd);
	return rc;
}
