/* SPDX-License-Identifier: MIT */
/*
 * slcscope probes: drive identity and SMART/health, whatever the device.
 *
 * One interface for every kind of target.  slc_probe_open() looks at a path
 * and picks a backend: NVMe (libnvme), SATA/SCSI-attached ATA (libatasmart),
 * the emulated drive (a loop device over 'slcscope emulate'), or sysfs only
 * (loop, virtio, nbd, files).  The simulated drive has its own backend
 * (slc_probe_open_sim()); slc_probe_open_target() picks between the two for
 * an open write target.  A device without SMART is not an error:
 * slc_health.has_smart is 0 and no_smart_reason says why.
 *
 * Unknown numeric fields are SLC_PROBE_UNKNOWN (integers) or NAN (doubles),
 * never 0, so that "0 bytes written" and "not reported" stay apart.
 */
#ifndef SLCSCOPE_PROBE_H
#define SLCSCOPE_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SLC_PROBE_UNKNOWN UINT64_MAX
#define SLC_PROBE_MAX_LBAF 64
#define SLC_PROBE_MAX_ATTRS 64

/* Where the facts came from. */
enum slc_probe_source {
	SLC_PROBE_SYSFS = 0,               /* sysfs only: no SMART */
	SLC_PROBE_NVME,                    /* libnvme admin commands */
	SLC_PROBE_ATA,                     /* libatasmart (SATA, or ATA behind SAT) */
	SLC_PROBE_SIM,                     /* the simulated drive's own counters */
	SLC_PROBE_FILE,                    /* a regular file: its filesystem's device */
	SLC_PROBE_EMULATED,                /* a loop device over 'slcscope emulate': the model's counters */
};

/** slc_probe_source_name() - "sysfs", "nvme", "ata", "sim", "file", "emulated". */
const char *slc_probe_source_name(enum slc_probe_source s);

/* One NVMe LBA format (Identify Namespace, LBAF0..LBAF63). */
struct slc_lba_format {
	uint32_t data_bytes;               /* 2^LBADS */
	uint16_t metadata_bytes;           /* MS */
	uint8_t rel_perf;                  /* RP: 0 best .. 3 degraded */
	uint8_t in_use;                    /* the namespace's current format */
};

/* One ATA SMART attribute as libatasmart decodes it. */
struct slc_smart_attr {
	uint8_t id;
	char name[48];                     /* libatasmart's name, e.g. "total-lbas-written" */
	int current, worst, threshold;     /* normalized values; -1 when not valid */
	uint64_t raw;                      /* raw value, 48 bits, little-endian */
	uint64_t pretty;                   /* libatasmart's interpreted value */
	char pretty_unit[16];              /* "mK", "ms", "sectors", "none", ... */
	int prefailure;                    /* 1 pre-failure, 0 advisory */
	int failing;                       /* 1 when under its threshold now */
};

/* What the drive is. */
struct slc_identity {
	enum slc_probe_source source;
	char path[256];                    /* as given */
	char kernel_name[64];              /* "nvme0n1", "sda", "loop3"; "" for files, sim */
	char interface[16];                /* "nvme", "sata", "scsi", "loop", "virtio", "file", "sim", ... */
	char model[128], serial[64], firmware[64], vendor[64];
	char link[64];                     /* "PCIe 16.0 GT/s x4", "SATA 6.0 Gb/s"; "" unknown */
	uint64_t capacity_bytes;
	uint32_t logical_block_bytes, physical_block_bytes;
	int rotational;                    /* 1, 0, -1 unknown */
	uint64_t discard_granularity_bytes, discard_max_bytes; /* 0 max = no TRIM */
	int volatile_write_cache;          /* 1 enabled, 0 disabled/absent, -1 unknown */
	char write_cache[32];              /* sysfs queue/write_cache as read */

	/* NVMe */
	uint32_t nsid;                     /* 0 when not NVMe */
	unsigned n_lba_formats;
	struct slc_lba_format lba_formats[SLC_PROBE_MAX_LBAF];
	uint16_t pci_vendor;               /* VID; 0 unknown */
	char nvme_version[16];             /* "1.4" */
	int format_nvm, crypto_erase;      /* OACS/FNA: Format NVM supported, with crypto erase */
	int sanitize_crypto, sanitize_block, sanitize_overwrite; /* SANICAP */

	/* ATA */
	int trim_supported;                /* IDENTIFY word 169 bit 0; -1 unknown */
};

/* A health snapshot.  Cumulative counters are since the drive was made. */
struct slc_health {
	int has_smart;                     /* 0: none on this device (not an error) */
	char no_smart_reason[128];

	uint64_t host_write_bytes, host_read_bytes;   /* NVMe data units x 512000; ATA LBAs x 512 */
	uint64_t host_write_cmds, host_read_cmds;
	uint64_t nand_write_bytes;         /* vendor NAND-write counter or the sim's; UNKNOWN if none */
	char nand_write_source[48];        /* e.g. "ATA attribute 249 (GiB)", "sim" */
	double temp_c;                     /* composite / attribute 194 / model */
	double warn_temp_c, crit_temp_c;   /* WCTEMP/CCTEMP (NVMe) */
	uint64_t thm_transitions[2];       /* NVMe TMT1/TMT2 transition counts */
	uint64_t thm_time_s[2];            /* NVMe time spent in TMT1/TMT2, seconds */
	uint64_t warn_temp_time_min, crit_temp_time_min; /* NVMe WCTT/CCTT, minutes */
	uint64_t percentage_used;          /* NVMe; ATA wear attribute as % used where known */
	uint64_t available_spare, available_spare_threshold;
	uint64_t critical_warning;         /* NVMe bit field */
	uint64_t power_on_hours, power_cycles, unsafe_shutdowns, media_errors;
	int throttled;                     /* 1/0 where the device says so (sim); -1 unknown */

	unsigned n_attrs;                  /* ATA attributes */
	struct slc_smart_attr attrs[SLC_PROBE_MAX_ATTRS];
};

/** slc_health_init() - every field unknown, has_smart 0. */
void slc_health_init(struct slc_health *h);

/** slc_identity_init() - every field unknown. */
void slc_identity_init(struct slc_identity *id);

struct slc_probe;
struct slc_sim;
struct slc_target;

/**
 * slc_probe_open() - probe @path: a block device (whole disk or partition),
 * an NVMe character device (/dev/nvme0), or a regular file.  Opens read-only;
 * never writes.  Fills the identity at once.
 *
 * Return: 0, or -errno with a one-line reason in @err (no such file, not a
 * block device or file, permission denied).
 */
int slc_probe_open(struct slc_probe **out, const char *path, char *err, size_t errlen);

/** slc_probe_open_sim() - the simulated drive's probe (borrows @sim). */
int slc_probe_open_sim(struct slc_probe **out, struct slc_sim *sim, const char *spec,
		       char *err, size_t errlen);

/**
 * slc_probe_open_target() - probe the drive behind open write target @t:
 * the simulated drive's own probe for a sim: target (borrowing the drive:
 * close the probe first), else slc_probe_open() of its spec.
 *
 * Return: 0; -ENODEV for a target with no drive behind it (null:), with
 * the reason in @err; or slc_probe_open()'s errors.
 */
int slc_probe_open_target(struct slc_probe **out, struct slc_target *t, char *err, size_t errlen);

/**
 * slc_probe_print() - @id and @h in words, one field a line, as `slcscope
 * probe` prints them; unknown fields are left out, @h NULL reads "unreadable".
 */
void slc_probe_print(FILE *f, const struct slc_identity *id, const struct slc_health *h);

/** slc_probe_identity() - what the drive is (valid until slc_probe_close()). */
const struct slc_identity *slc_probe_identity(const struct slc_probe *p);

/**
 * slc_probe_health() - read the SMART/health state now.  No SMART is not an
 * error (has_smart = 0); a failing admin command is (-errno, @err says which
 * command and the status it returned).
 */
int slc_probe_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen);

/**
 * slc_probe_temperature() - the temperature now, cheaply (during runs).
 * Return: 0 with *@c set, -ENODATA when the device has no sensor.
 */
int slc_probe_temperature(struct slc_probe *p, double *c);

/* What slc_probe_purge() did. */
enum slc_purge_kind {
	SLC_PURGE_NONE = 0,
	SLC_PURGE_SANITIZE_CRYPTO,         /* NVMe Sanitize, crypto erase */
	SLC_PURGE_SANITIZE_BLOCK,          /* NVMe Sanitize, block erase */
	SLC_PURGE_FORMAT_CRYPTO,           /* NVMe Format NVM, SES=2 */
	SLC_PURGE_FORMAT_USER,             /* NVMe Format NVM, SES=1 */
	SLC_PURGE_TRIM,                    /* whole-device TRIM (caller does it) */
};

/** slc_purge_kind_name() - "sanitize-crypto", ..., "trim", "none". */
const char *slc_purge_kind_name(enum slc_purge_kind k);

/**
 * slc_probe_purge_method() - the strongest purge the drive supports, in the
 * order Sanitize (crypto, block), Format with crypto erase, Format with user
 * data erase; SLC_PURGE_TRIM when it supports none of them.
 */
enum slc_purge_kind slc_probe_purge_method(const struct slc_probe *p);

/**
 * slc_probe_purge() - run @kind (one of the NVMe kinds) and wait until it
 * completes (Sanitize is polled through its log page).  Destroys every byte
 * on the namespace: the caller has checked the destructive-mode flag.
 * Return: 0 or -errno with the command and its status in @err.
 */
int slc_probe_purge(struct slc_probe *p, enum slc_purge_kind kind, char *err, size_t errlen);

/**
 * slc_ata_decode_blob() - decode a libatasmart blob (IDENTIFY + SMART data
 * + thresholds, as sk_disk_get_blob() and 'skdump --save' give it) into @id
 * and @h, without a device: saved drives, 'slcscope probe --ata-blob FILE'.
 * Return: 0, or -errno with a reason in @err (-EINVAL: not such a blob).
 */
int slc_ata_decode_blob(const void *blob, size_t len, struct slc_identity *id, struct slc_health *h,
			char *err, size_t errlen);

/**
 * slc_ata_decode_file() - slc_ata_decode_blob() of the file at @path (at
 * most 1 MiB); @id->path is set to @path.
 * Return: 0, or -errno with "PATH: reason" in @err.
 */
int slc_ata_decode_file(const char *path, struct slc_identity *id, struct slc_health *h, char *err, size_t errlen);

/** slc_probe_close() - NULL is allowed. */
void slc_probe_close(struct slc_probe *p);

/**
 * slc_probe_json() - identity and/or health as one JSON object (text, caller
 * frees).  Either may be NULL.  Unknown fields are null.  The layout is in
 * docs/probes.md; run stores it as the trace's device snapshots.
 */
char *slc_probe_json(const struct slc_identity *id, const struct slc_health *h);

/**
 * slc_health_write_amplification() - NAND bytes / host bytes between two
 * snapshots; NAN when either counter is unknown or no host bytes were
 * written between them.
 */
double slc_health_write_amplification(const struct slc_health *before, const struct slc_health *after);

#ifdef __cplusplus
}
#endif
#endif
