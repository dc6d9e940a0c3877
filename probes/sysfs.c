// SPDX-License-Identifier: MIT
/*
 * Block-device facts from sysfs.  Every file is optional: virtual devices
 * (loop, virtio, nbd) lack device/model and the like, and that is not an
 * error.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slcscope/probes.h"

/* Read the first line of root/block/name/rel into buf, trimmed. */
static int read_attr(char *buf, size_t len, const char *root, const char *name, const char *rel)
{
	char path[512];
	FILE *f;
	size_t n;

	buf[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s/%s", root, name, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1])) buf[--n] = '\0';
	n = strspn(buf, " \t");
	if (n) memmove(buf, buf + n, strlen(buf + n) + 1);
	return 0;
}

static uint64_t read_u64(const char *root, const char *name, const char *rel, uint64_t dflt)
{
	char buf[64], *end;
	unsigned long long v;

	if (read_attr(buf, sizeof(buf), root, name, rel) || !buf[0])
		return dflt;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return dflt;
	return v;
}

static int count_entries(const char *root, const char *name, const char *rel, int partitions)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int n = 0;
	size_t nl = strlen(name);

	snprintf(path, sizeof(path), "%s/block/%s%s%s", root, name, rel[0] ? "/" : "", rel);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		/* partitions are subdirectories named <name><N> or <name>p<N> */
		if (partitions && strncmp(de->d_name, name, nl) != 0)
			continue;
		n++;
	}
	closedir(d);
	return n;
}

int slc_sysfs_probe(struct slc_sysfs_info *out, const char *sysfs_root, const char *name)
{
	char path[512], buf[128];
	struct stat st;

	if (!name || !*name || strchr(name, '/') || strlen(name) >= sizeof(out->name))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/block/%s", sysfs_root, name);
	if (stat(path, &st) != 0)
		return -ENOENT;
	snprintf(out->name, sizeof(out->name), "%s", name);
	read_attr(out->model, sizeof(out->model), sysfs_root, name, "device/model");
	read_attr(out->vendor, sizeof(out->vendor), sysfs_root, name, "device/vendor");
	read_attr(out->serial, sizeof(out->serial), sysfs_root, name, "device/serial");
	if (read_attr(out->firmware, sizeof(out->firmware), sysfs_root, name, "device/firmware_rev"))
		read_attr(out->firmware, sizeof(out->firmware), sysfs_root, name, "device/rev");
	out->capacity_bytes = read_u64(sysfs_root, name, "size", 0) * 512u;
	out->logical_block_bytes = (uint32_t)read_u64(sysfs_root, name, "queue/logical_block_size", 512);
	out->physical_block_bytes = (uint32_t)read_u64(sysfs_root, name, "queue/physical_block_size",
						       out->logical_block_bytes);
	if (read_attr(buf, sizeof(buf), sysfs_root, name, "queue/rotational") == 0 && buf[0])
		out->rotational = buf[0] == '1';
	else
		out->rotational = -1;
	out->discard_granularity_bytes = read_u64(sysfs_root, name, "queue/discard_granularity", 0);
	out->discard_max_bytes = read_u64(sysfs_root, name, "queue/discard_max_bytes", 0);
	read_attr(out->write_cache, sizeof(out->write_cache), sysfs_root, name, "queue/write_cache");
	out->holders = count_entries(sysfs_root, name, "holders", 0);
	out->partitions = count_entries(sysfs_root, name, "", 1);
	return 0;
}
