// SPDX-License-Identifier: MIT
/*
 * The probe dispatcher: open a path read-only, fill what sysfs knows, then
 * hand the device to the first backend of the table below that takes it:
 * the emulated drive (probe_emu.c) for loop devices, NVMe (nvme.c), ATA
 * (ata.c).  Devices none answers (loop, virtio, nbd, SCSI without SAT) and
 * regular files keep the sysfs facts and report "no SMART".  The simulated
 * drive's probe (probe_sim.c) reads the model's counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <jansson.h>

#include "probe_priv.h"
#include "slcscope/units.h"

const char *slc_probe_source_name(enum slc_probe_source s)
{
	switch (s) {
	case SLC_PROBE_SYSFS: return "sysfs";
	case SLC_PROBE_NVME: return "nvme";
	case SLC_PROBE_ATA: return "ata";
	case SLC_PROBE_SIM: return "sim";
	case SLC_PROBE_FILE: return "file";
	case SLC_PROBE_EMULATED: return "emulated";
	}
	return "unknown";
}

const char *slc_purge_kind_name(enum slc_purge_kind k)
{
	switch (k) {
	case SLC_PURGE_NONE: return "none";
	case SLC_PURGE_SANITIZE_CRYPTO: return "sanitize-crypto";
	case SLC_PURGE_SANITIZE_BLOCK: return "sanitize-block";
	case SLC_PURGE_FORMAT_CRYPTO: return "format-crypto";
	case SLC_PURGE_FORMAT_USER: return "format-user";
	case SLC_PURGE_TRIM: return "trim";
	}
	return "unknown";
}

void slc_identity_init(struct slc_identity *id)
{
	memset(id, 0, sizeof(*id));
	id->capacity_bytes = SLC_PROBE_UNKNOWN;
	id->discard_granularity_bytes = id->discard_max_bytes = SLC_PROBE_UNKNOWN;
	id->rotational = -1;
	id->volatile_write_cache = -1;
	id->trim_supported = -1;
	id->format_nvm = id->crypto_erase = -1;
	id->sanitize_crypto = id->sanitize_block = id->sanitize_overwrite = -1;
}

void slc_health_init(struct slc_health *h)
{
	memset(h, 0, sizeof(*h));
	h->host_write_bytes = h->host_read_bytes = SLC_PROBE_UNKNOWN;
	h->host_write_cmds = h->host_read_cmds = SLC_PROBE_UNKNOWN;
	h->nand_write_bytes = SLC_PROBE_UNKNOWN;
	h->temp_c = h->warn_temp_c = h->crit_temp_c = NAN;
	h->thm_transitions[0] = h->thm_transitions[1] = SLC_PROBE_UNKNOWN;
	h->thm_time_s[0] = h->thm_time_s[1] = SLC_PROBE_UNKNOWN;
	h->warn_temp_time_min = h->crit_temp_time_min = SLC_PROBE_UNKNOWN;
	h->percentage_used = SLC_PROBE_UNKNOWN;
	h->available_spare = h->available_spare_threshold = SLC_PROBE_UNKNOWN;
	h->critical_warning = SLC_PROBE_UNKNOWN;
	h->power_on_hours = h->power_cycles = SLC_PROBE_UNKNOWN;
	h->unsafe_shutdowns = h->media_errors = SLC_PROBE_UNKNOWN;
	h->throttled = -1;
}

/* Copy the sysfs facts of kernel device @name into @id. */
static void fill_sysfs(struct slc_identity *id, const char *name)
{
	struct slc_sysfs_info si;

	if (slc_sysfs_probe(&si, "/sys", name) != 0)
		return;
	snprintf(id->kernel_name, sizeof(id->kernel_name), "%s", si.name);
	snprintf(id->model, sizeof(id->model), "%s", si.model);
	snprintf(id->vendor, sizeof(id->vendor), "%s", si.vendor);
	snprintf(id->serial, sizeof(id->serial), "%s", si.serial);
	snprintf(id->firmware, sizeof(id->firmware), "%s", si.firmware);
	id->capacity_bytes = si.capacity_bytes;
	id->logical_block_bytes = si.logical_block_bytes;
	id->physical_block_bytes = si.physical_block_bytes;
	id->rotational = si.rotational;
	id->discard_granularity_bytes = si.discard_granularity_bytes;
	id->discard_max_bytes = si.discard_max_bytes;
	snprintf(id->write_cache, sizeof(id->write_cache), "%s", si.write_cache);
	if (!strcmp(si.write_cache, "write back"))
		id->volatile_write_cache = 1;
	else if (!strcmp(si.write_cache, "write through"))
		id->volatile_write_cache = 0;
}

/*
 * The whole disk's kernel name for block device @dev (a partition gives its
 * disk), and the size of @dev itself in bytes when @dev_bytes is not NULL
 * (left alone when sysfs does not say).  Return: 0, or -ENOENT when sysfs
 * does not know the device.
 */
static int disk_of(dev_t dev, char *name, size_t len, uint64_t *dev_bytes)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16];
	const char *base;
	struct stat st;
	FILE *f;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return -ENOENT;
	snprintf(part, sizeof(part), "%s/size", real);
	if (dev_bytes && (f = fopen(part, "re"))) {
		unsigned long long sectors;
		if (fscanf(f, "%llu", &sectors) == 1)
			*dev_bytes = (uint64_t)sectors * 512u;
		fclose(f);
	}
	snprintf(part, sizeof(part), "%s/partition", real);
	if (stat(part, &st) == 0) {
		char *slash = strrchr(real, '/');
		if (slash) *slash = '\0';
	}
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	snprintf(name, len, "%s", base);
	return 0;
}

static const char *interface_of(const char *name)
{
	static const struct { const char *prefix, *iface; } t[] = {
		{ "nvme", "nvme" }, { "loop", "loop" }, { "vd", "virtio" }, { "nbd", "nbd" },
		{ "md", "md" }, { "dm-", "dm" }, { "mmcblk", "mmc" }, { "zram", "zram" },
		{ "ram", "ram" }, { "xvd", "xen" }, { "sd", "scsi" }, { "sr", "scsi" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strncmp(name, t[i].prefix, strlen(t[i].prefix)))
			return t[i].iface;
	return "block";
}

static void no_smart(struct slc_probe *p, struct slc_health *h)
{
	slc_health_init(h);
	switch (p->id.source) {
	case SLC_PROBE_FILE:
		snprintf(h->no_smart_reason, sizeof(h->no_smart_reason), "a regular file has no SMART");
		break;
	default:
		if (p->no_smart_reason[0])
			snprintf(h->no_smart_reason, sizeof(h->no_smart_reason), "%s", p->no_smart_reason);
		else
			snprintf(h->no_smart_reason, sizeof(h->no_smart_reason), "no SMART on this device (%s)",
				 p->id.interface[0] ? p->id.interface : "unknown interface");
		break;
	}
}

/* What a probe is opened on: a path, and what stat() says it is. */
struct subject {
	const char *path;
	struct stat st;
};

/* A regular file: the facts of the device its filesystem lives on. */
static void file_facts(struct slc_probe *p, const struct stat *st)
{
	char disk[64] = "";

	snprintf(p->id.interface, sizeof(p->id.interface), "file");
	if (disk_of(st->st_dev, disk, sizeof(disk), NULL) == 0) {
		fill_sysfs(&p->id, disk);
		snprintf(p->disk_path, sizeof(p->disk_path), "/dev/%s", disk);
	}
	p->id.capacity_bytes = (uint64_t)st->st_size;
}

/* A device: open it read-only and fill what sysfs knows, the interface
 * the backends are chosen by included. */
static int device_facts(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	char disk[64] = "";
	uint64_t dev_bytes = SLC_PROBE_UNKNOWN;
	int rc;

	p->fd = open(s->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (p->fd < 0) {
		rc = -errno;
		return slc_errf(err, errlen, rc, "%s: %s", s->path, strerror(-rc));
	}
	if (S_ISBLK(s->st.st_mode) && disk_of(s->st.st_rdev, disk, sizeof(disk), &dev_bytes) == 0) {
		fill_sysfs(&p->id, disk);
		snprintf(p->disk_path, sizeof(p->disk_path), "/dev/%s", disk);
		snprintf(p->id.interface, sizeof(p->id.interface), "%s", interface_of(disk));
		if (dev_bytes != SLC_PROBE_UNKNOWN)
			p->id.capacity_bytes = dev_bytes;      /* a partition reports its own size */
	} else if (S_ISCHR(s->st.st_mode)) {
		snprintf(p->disk_path, sizeof(p->disk_path), "%s", s->path);
		snprintf(p->id.interface, sizeof(p->id.interface), "nvme");
	} else {
		snprintf(p->disk_path, sizeof(p->disk_path), "%s", s->path);
		snprintf(p->id.interface, sizeof(p->id.interface), "block");
	}
	return 0;
}

/* ---- the backends of a path: match says whether one takes the subject,
 * attach fills the identity and sets the ops (0, or -errno: the probe
 * fails).  The simulated drive has no path: slc_probe_open_sim() and
 * slc_probe_open_target() (probe_sim.c) attach it. ---- */

static int match_file(const struct slc_probe *p, const struct subject *s)
{
	(void)p;
	return S_ISREG(s->st.st_mode);
}

static int attach_file(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	(void)s; (void)err; (void)errlen;
	p->id.source = SLC_PROBE_FILE;
	return 0;
}

static int match_loop(const struct slc_probe *p, const struct subject *s)
{
	(void)s;
	return !strcmp(p->id.interface, "loop");
}

/* A loop device over 'slcscope emulate' reports the model's counters; any
 * other loop device keeps what sysfs knows. */
static int attach_emu(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	char e[256] = "";

	(void)s; (void)err; (void)errlen;
	if (slc__emu_attach(p, e, sizeof(e)) == 0)
		p->id.source = SLC_PROBE_EMULATED;
	return 0;
}

static int match_nvme(const struct slc_probe *p, const struct subject *s)
{
	(void)s;
	return !strcmp(p->id.interface, "nvme");
}

/* A namespace that does not answer admin commands keeps its sysfs facts;
 * a controller (character device) that does not is an error. */
static int attach_nvme(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	char e[256] = "";
	int rc = slc__nvme_attach(p, e, sizeof(e));

	if (rc == 0)
		p->id.source = SLC_PROBE_NVME;
	else if (rc != -ENOTTY || S_ISCHR(s->st.st_mode))
		return slc_errf(err, errlen, rc, "%s: %s", s->path, e[0] ? e : strerror(-rc));
	return 0;
}

static int match_ata(const struct slc_probe *p, const struct subject *s)
{
	(void)s;
	return !strcmp(p->id.interface, "scsi") || !strcmp(p->id.interface, "block");
}

/* SATA, or ATA behind a SCSI/ATA translation (USB bridges).  Without ATA
 * SMART the device keeps what sysfs knows, and the reason. */
static int attach_ata(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	char e[256] = "", iface[16];
	int rc;

	(void)s; (void)err; (void)errlen;
	snprintf(iface, sizeof(iface), "%s", p->id.interface);
	p->id.interface[0] = '\0';         /* the ATA backend says sata or ata */
	rc = slc__ata_attach(p, e, sizeof(e));
	if (rc == 0) {
		p->id.source = SLC_PROBE_ATA;
	} else {
		snprintf(p->id.interface, sizeof(p->id.interface), "%s", iface);
		if (rc != -ENOTSUP)
			snprintf(p->no_smart_reason, sizeof(p->no_smart_reason), "no SMART: %.117s", e[0] ? e : strerror(-rc));
	}
	return 0;
}

static int match_any(const struct slc_probe *p, const struct subject *s)
{
	(void)p; (void)s;
	return 1;
}

/* loop, virtio, nbd, md, dm, ...: what sysfs knows, no SMART. */
static int attach_sysfs(struct slc_probe *p, const struct subject *s, char *err, size_t errlen)
{
	(void)p; (void)s; (void)err; (void)errlen;
	return 0;
}

/* The first backend whose match takes the subject gets it. */
static const struct probe_backend {
	const char *name;
	int (*match)(const struct slc_probe *p, const struct subject *s);
	int (*attach)(struct slc_probe *p, const struct subject *s, char *err, size_t errlen);
} backends[] = {
	{ "file", match_file, attach_file },
	{ "emulated", match_loop, attach_emu },
	{ "nvme", match_nvme, attach_nvme },
	{ "ata", match_ata, attach_ata },
	{ "sysfs", match_any, attach_sysfs },
};

struct slc_probe *slc__probe_alloc(const char *path)
{
	struct slc_probe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	slc_identity_init(&p->id);
	snprintf(p->id.path, sizeof(p->id.path), "%s", path);
	p->fd = -1;
	return p;
}

int slc_probe_open(struct slc_probe **out, const char *path, char *err, size_t errlen)
{
	const struct probe_backend *b = backends;
	struct subject s = { .path = path };
	struct slc_probe *p;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return slc_errf(err, errlen, -EINVAL, "no device named");
	if (stat(path, &s.st) != 0)
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISBLK(s.st.st_mode) && !S_ISCHR(s.st.st_mode) && !S_ISREG(s.st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s: not a block device, NVMe controller or regular file", path);
	if (!(p = slc__probe_alloc(path)))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	p->id.source = SLC_PROBE_SYSFS;
	if (S_ISREG(s.st.st_mode)) {
		file_facts(p, &s.st);
	} else if ((rc = device_facts(p, &s, err, errlen))) {
		free(p);
		return rc;
	}
	while (!b->match(p, &s))
		b++;
	if ((rc = b->attach(p, &s, err, errlen))) {
		if (p->fd >= 0)
			close(p->fd);
		free(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* ---- the common calls ---- */

const struct slc_identity *slc_probe_identity(const struct slc_probe *p)
{
	return &p->id;
}

int slc_probe_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	if (!p->ops || !p->ops->health) {
		no_smart(p, h);
		return 0;
	}
	return p->ops->health(p, h, err, errlen);
}

int slc_probe_temperature(struct slc_probe *p, double *c)
{
	if (!p->ops || !p->ops->temperature)
		return -ENODATA;
	return p->ops->temperature(p, c);
}

enum slc_purge_kind slc_probe_purge_method(const struct slc_probe *p)
{
	if (!p->ops || !p->ops->purge_method)
		return SLC_PURGE_TRIM;
	return p->ops->purge_method(p);
}

int slc_probe_purge(struct slc_probe *p, enum slc_purge_kind kind, char *err, size_t errlen)
{
	if (kind == SLC_PURGE_TRIM || kind == SLC_PURGE_NONE)
		return slc_errf(err, errlen, -EINVAL, "a TRIM purge is the caller's (the write target discards)");
	if (!p->ops || !p->ops->purge)
		return slc_errf(err, errlen, -ENOTSUP, "%s: this device offers no %s", p->id.path, slc_purge_kind_name(kind));
	return p->ops->purge(p, kind, err, errlen);
}

void slc_probe_close(struct slc_probe *p)
{
	if (!p)
		return;
	if (p->ops && p->ops->close)
		p->ops->close(p);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

double slc_health_write_amplification(const struct slc_health *a, const struct slc_health *b)
{
	if (!a || !b || a->nand_write_bytes == SLC_PROBE_UNKNOWN || b->nand_write_bytes == SLC_PROBE_UNKNOWN ||
	    a->host_write_bytes == SLC_PROBE_UNKNOWN || b->host_write_bytes == SLC_PROBE_UNKNOWN ||
	    b->host_write_bytes <= a->host_write_bytes || b->nand_write_bytes < a->nand_write_bytes)
		return NAN;
	return (double)(b->nand_write_bytes - a->nand_write_bytes) /
	       (double)(b->host_write_bytes - a->host_write_bytes);
}

/* ---- JSON ---- */

static json_t *jnum(uint64_t v)
{
	return v == SLC_PROBE_UNKNOWN ? json_null() : json_integer((json_int_t)v);
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jtri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *identity_json(const struct slc_identity *id)
{
	json_t *o = json_object(), *lbaf;

	json_object_set_new(o, "source", json_string(slc_probe_source_name(id->source)));
	json_object_set_new(o, "path", jstr(id->path));
	json_object_set_new(o, "kernel_name", jstr(id->kernel_name));
	json_object_set_new(o, "interface", jstr(id->interface));
	json_object_set_new(o, "model", jstr(id->model));
	json_object_set_new(o, "serial", jstr(id->serial));
	json_object_set_new(o, "firmware", jstr(id->firmware));
	json_object_set_new(o, "vendor", jstr(id->vendor));
	json_object_set_new(o, "link", jstr(id->link));
	json_object_set_new(o, "capacity_bytes", jnum(id->capacity_bytes));
	json_object_set_new(o, "logical_block_bytes", id->logical_block_bytes ? json_integer(id->logical_block_bytes) : json_null());
	json_object_set_new(o, "physical_block_bytes", id->physical_block_bytes ? json_integer(id->physical_block_bytes) : json_null());
	json_object_set_new(o, "rotational", jtri(id->rotational));
	json_object_set_new(o, "discard_granularity_bytes", jnum(id->discard_granularity_bytes));
	json_object_set_new(o, "discard_max_bytes", jnum(id->discard_max_bytes));
	json_object_set_new(o, "volatile_write_cache", jtri(id->volatile_write_cache));
	json_object_set_new(o, "write_cache", jstr(id->write_cache));
	if (id->source == SLC_PROBE_NVME) {
		json_t *n = json_object();
		json_object_set_new(n, "nsid", json_integer(id->nsid));
		json_object_set_new(n, "version", jstr(id->nvme_version));
		json_object_set_new(n, "pci_vendor", id->pci_vendor ? json_integer(id->pci_vendor) : json_null());
		json_object_set_new(n, "format_nvm", jtri(id->format_nvm));
		json_object_set_new(n, "crypto_erase", jtri(id->crypto_erase));
		json_object_set_new(n, "sanitize_crypto", jtri(id->sanitize_crypto));
		json_object_set_new(n, "sanitize_block", jtri(id->sanitize_block));
		json_object_set_new(n, "sanitize_overwrite", jtri(id->sanitize_overwrite));
		lbaf = json_array();
		for (unsigned i = 0; i < id->n_lba_formats && i < SLC_PROBE_MAX_LBAF; i++) {
			const struct slc_lba_format *f = &id->lba_formats[i];
			json_array_append_new(lbaf, json_pack("{s:i, s:i, s:i, s:b}", "data_bytes", (json_int_t)f->data_bytes,
							      "metadata_bytes", (json_int_t)f->metadata_bytes,
							      "rel_perf", (json_int_t)f->rel_perf, "in_use", f->in_use));
		}
		json_object_set_new(n, "lba_formats", lbaf);
		json_object_set_new(o, "nvme", n);
	}
	if (id->source == SLC_PROBE_ATA)
		json_object_set_new(o, "trim_supported", jtri(id->trim_supported));
	return o;
}

static json_t *health_json(const struct slc_health *h)
{
	json_t *o = json_object(), *a;

	json_object_set_new(o, "has_smart", json_boolean(h->has_smart));
	if (!h->has_smart) {
		json_object_set_new(o, "no_smart_reason", jstr(h->no_smart_reason));
		return o;
	}
	json_object_set_new(o, "host_write_bytes", jnum(h->host_write_bytes));
	json_object_set_new(o, "host_read_bytes", jnum(h->host_read_bytes));
	json_object_set_new(o, "host_write_cmds", jnum(h->host_write_cmds));
	json_object_set_new(o, "host_read_cmds", jnum(h->host_read_cmds));
	json_object_set_new(o, "nand_write_bytes", jnum(h->nand_write_bytes));
	json_object_set_new(o, "nand_write_source", jstr(h->nand_write_source));
	json_object_set_new(o, "temp_c", jreal(h->temp_c));
	json_object_set_new(o, "warn_temp_c", jreal(h->warn_temp_c));
	json_object_set_new(o, "crit_temp_c", jreal(h->crit_temp_c));
	json_object_set_new(o, "thm_transitions", json_pack("[o, o]", jnum(h->thm_transitions[0]), jnum(h->thm_transitions[1])));
	json_object_set_new(o, "thm_time_s", json_pack("[o, o]", jnum(h->thm_time_s[0]), jnum(h->thm_time_s[1])));
	json_object_set_new(o, "warn_temp_time_min", jnum(h->warn_temp_time_min));
	json_object_set_new(o, "crit_temp_time_min", jnum(h->crit_temp_time_min));
	json_object_set_new(o, "percentage_used", jnum(h->percentage_used));
	json_object_set_new(o, "available_spare", jnum(h->available_spare));
	json_object_set_new(o, "available_spare_threshold", jnum(h->available_spare_threshold));
	json_object_set_new(o, "critical_warning", jnum(h->critical_warning));
	json_object_set_new(o, "power_on_hours", jnum(h->power_on_hours));
	json_object_set_new(o, "power_cycles", jnum(h->power_cycles));
	json_object_set_new(o, "unsafe_shutdowns", jnum(h->unsafe_shutdowns));
	json_object_set_new(o, "media_errors", jnum(h->media_errors));
	json_object_set_new(o, "throttled", jtri(h->throttled));
	if (h->n_attrs) {
		a = json_array();
		for (unsigned i = 0; i < h->n_attrs && i < SLC_PROBE_MAX_ATTRS; i++) {
			const struct slc_smart_attr *s = &h->attrs[i];
			json_t *e = json_object();
			json_object_set_new(e, "id", json_integer(s->id));
			json_object_set_new(e, "name", jstr(s->name));
			json_object_set_new(e, "current", s->current < 0 ? json_null() : json_integer(s->current));
			json_object_set_new(e, "worst", s->worst < 0 ? json_null() : json_integer(s->worst));
			json_object_set_new(e, "threshold", s->threshold < 0 ? json_null() : json_integer(s->threshold));
			json_object_set_new(e, "raw", json_integer((json_int_t)s->raw));
			json_object_set_new(e, "pretty", json_integer((json_int_t)s->pretty));
			json_object_set_new(e, "pretty_unit", jstr(s->pretty_unit));
			json_object_set_new(e, "prefailure", json_boolean(s->prefailure));
			json_object_set_new(e, "failing", json_boolean(s->failing));
			json_array_append_new(a, e);
		}
		json_object_set_new(o, "attributes", a);
	}
	return o;
}

char *slc_probe_json(const struct slc_identity *id, const struct slc_health *h)
{
	json_t *o = json_object();
	char *s;

	if (!o)
		return NULL;
	json_object_set_new(o, "schema", json_string("slcscope.probe/1"));
	if (id)
		json_object_set_new(o, "identity", identity_json(id));
	if (h)
		json_object_set_new(o, "health", health_json(h));
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(o);
	return s;
}
