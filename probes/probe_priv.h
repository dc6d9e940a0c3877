/* SPDX-License-Identifier: MIT */
/*
 * Inside the probes library: the probe, its ops, and the backends' entry
 * points.  probe.c (the dispatcher) opens the device and fills what sysfs
 * knows, then hands it to the first backend of its table that takes it: a
 * regular file, the emulated drive over a loop device (probe_emu.c), NVMe
 * (nvme.c), ATA (ata.c), or sysfs alone.  The simulated drive has no path;
 * probe_sim.c attaches it.
 */
#ifndef SLCSCOPE_PROBE_PRIV_H
#define SLCSCOPE_PROBE_PRIV_H

#include "slcscope/probe.h"
#include "slcscope/probes.h"

struct slc_probe;

struct slc_probe_ops {
	int (*health)(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen);
	int (*temperature)(struct slc_probe *p, double *c);      /* -ENODATA: no sensor */
	enum slc_purge_kind (*purge_method)(const struct slc_probe *p);
	int (*purge)(struct slc_probe *p, enum slc_purge_kind kind, char *err, size_t errlen);
	void (*close)(struct slc_probe *p);                      /* frees priv, not fd */
};

struct slc_probe {
	struct slc_identity id;
	const struct slc_probe_ops *ops;   /* NULL: sysfs only */
	int fd;                            /* read-only descriptor of the device; -1 */
	char disk_path[256];               /* the whole disk ("/dev/sda" for /dev/sda2) */
	void *priv;                        /* the backend's */
	struct slc_sim *sim;               /* SLC_PROBE_SIM only */
	char no_smart_reason[128];         /* why a backend did not attach; "" */
};

/*
 * NVMe backend (libnvme).  @fd is an NVMe namespace block device or
 * controller character device opened read-only by the dispatcher.
 * Fills id's NVMe fields (model, serial, firmware, nsid, LBA formats, VWC,
 * Format/Sanitize capabilities, PCI vendor, version, link from sysfs when
 * known) and sets p->ops.  Return: 0, -ENOTTY when @fd does not answer NVMe
 * admin commands, other -errno with a reason in @err.
 */
int slc__nvme_attach(struct slc_probe *p, char *err, size_t errlen);

/* Pure decoders of NVMe pages (little-endian, as the spec lays them out). */
void slc__nvme_decode_id_ctrl(const void *page4096, struct slc_identity *id);
void slc__nvme_decode_id_ns(const void *page4096, struct slc_identity *id);
void slc__nvme_decode_smart(const void *page512, struct slc_health *h);
/* "Invalid Field in Command (0x2)"-style text of an NVMe status, or errno's. */
const char *slc__nvme_status_text(int status, char *buf, size_t len);

/*
 * The emulated drive (probe_emu.c): a loop device whose backing file is the
 * drive.img of a 'slcscope emulate' mount reports the model's counters from
 * the stats.json beside it.  Return: 0, or -ENOTSUP for any other device.
 */
int slc__emu_attach(struct slc_probe *p, char *err, size_t errlen);

/*
 * ATA backend (libatasmart).  Opens p->disk_path through libatasmart.
 * Return: 0, -ENOTSUP when the device has no ATA SMART (SCSI, USB without
 * SAT, virtio), other -errno with a reason in @err.
 */
int slc__ata_attach(struct slc_probe *p, char *err, size_t errlen);

/* A probe of @path with every identity field unknown, no backend, fd -1;
 * NULL when out of memory. */
struct slc_probe *slc__probe_alloc(const char *path);

#endif
