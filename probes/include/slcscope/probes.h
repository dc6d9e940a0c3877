/* SPDX-License-Identifier: MIT */
/*
 * slcscope probes library (public header): what the system knows about a
 * drive.  sysfs now; NVMe (libnvme) and SATA (libatasmart) SMART later.
 */
#ifndef SLCSCOPE_PROBES_H
#define SLCSCOPE_PROBES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Facts about a block device read from /sys/block/<name>. */
struct slc_sysfs_info {
	char name[64];                   /* kernel name, e.g. "nvme0n1" */
	char model[128];                 /* device/model, trimmed; "" if unknown */
	char vendor[64];                 /* device/vendor, trimmed; "" if unknown */
	char serial[64];                 /* device/serial, trimmed; "" if unknown */
	char firmware[64];               /* device/firmware_rev or device/rev */
	uint64_t capacity_bytes;         /* size (512-byte sectors) * 512 */
	uint32_t logical_block_bytes;    /* queue/logical_block_size */
	uint32_t physical_block_bytes;   /* queue/physical_block_size */
	int rotational;                  /* queue/rotational: 1, 0, or -1 unknown */
	uint64_t discard_granularity_bytes; /* queue/discard_granularity */
	uint64_t discard_max_bytes;      /* queue/discard_max_bytes; 0 = no TRIM */
	char write_cache[32];            /* queue/write_cache ("write back", ...) */
	int holders;                     /* entries in holders/ (dm, md, ...) */
	int partitions;                  /* partitions seen as <name>/<name>N */
};

/**
 * slc_sysfs_probe() - read what sysfs knows about block device @name.
 * @out:        filled on success
 * @sysfs_root: normally "/sys"; tests pass a canned tree
 * @name:       kernel name ("sda", "nvme0n1", "loop3"), not a path
 *
 * Return: 0, or -ENOENT when the device is not in sysfs, -EINVAL for a
 * malformed name.
 */
int slc_sysfs_probe(struct slc_sysfs_info *out, const char *sysfs_root, const char *name);

#ifdef __cplusplus
}
#endif
#endif
