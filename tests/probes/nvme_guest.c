// SPDX-License-Identifier: MIT
/*
 * Runs inside a QEMU guest with an emulated NVMe controller (qemu_nvme.sh):
 * the NVMe backend against a real protocol peer.  Prints "slc: key=value"
 * lines for the host script to check:
 *   nvme_guest NAMESPACE_DEV CONTROLLER_DEV NOT_NVME_DEV
 * Identity and health of the namespace, host writes counted by the drive
 * after writing 8 MiB, the purge method and a Format NVM (the data read back
 * afterwards), the controller's character device, and a device that is not
 * NVMe.
 *   nvme_guest --read-only DEV
 * only reads: identity, health, temperature and the purge method of a real
 * drive (real_nvme.sh); nothing is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <unistd.h>

#include "probe_priv.h"

#define WRITE_BYTES (8u << 20)

static struct slc_probe *attach(const char *path, int *rc, char *err, size_t errlen)
{
	struct slc_probe *p = calloc(1, sizeof(*p));
	if (!p)
		exit(1);
	slc_identity_init(&p->id);
	snprintf(p->id.path, sizeof(p->id.path), "%s", path);
	p->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0) {
		printf("slc: open_%s=%s\n", path, strerror(errno));
		*rc = -errno;
		return p;
	}
	*rc = slc__nvme_attach(p, err, errlen);
	return p;
}

static void release(struct slc_probe *p)
{
	if (p->ops)
		p->ops->close(p);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

static void print_health(const char *tag, struct slc_probe *p)
{
	struct slc_health h;
	char err[256] = "";
	int rc = p->ops->health(p, &h, err, sizeof(err));
	printf("slc: %s_rc=%d\n", tag, rc);
	if (rc) {
		printf("slc: %s_err=%s\n", tag, err);
		return;
	}
	printf("slc: %s_has_smart=%d\n", tag, h.has_smart);
	printf("slc: %s_host_write_bytes=%" PRIu64 "\n", tag, h.host_write_bytes);
	printf("slc: %s_host_write_cmds=%" PRIu64 "\n", tag, h.host_write_cmds);
	printf("slc: %s_host_read_bytes=%" PRIu64 "\n", tag, h.host_read_bytes);
	printf("slc: %s_temp_c=%.0f\n", tag, h.temp_c);
	printf("slc: %s_warn_temp_c=%.0f\n", tag, h.warn_temp_c);
	printf("slc: %s_crit_temp_c=%.0f\n", tag, h.crit_temp_c);
	printf("slc: %s_available_spare=%" PRIu64 "\n", tag, h.available_spare);
	printf("slc: %s_power_cycles=%" PRIu64 "\n", tag, h.power_cycles);
	printf("slc: %s_nand_unknown=%d\n", tag, h.nand_write_bytes == SLC_PROBE_UNKNOWN);
}

/* 8 MiB of 0xA5 at the start of the namespace, through the page cache and flushed. */
static int write_pattern(const char *dev)
{
	int fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	static unsigned char buf[1u << 20];
	memset(buf, 0xa5, sizeof(buf));
	for (unsigned done = 0; done < WRITE_BYTES; done += sizeof(buf)) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			close(fd);
			return -EIO;
		}
	}
	int rc = fsync(fd) ? -errno : 0;
	close(fd);
	return rc;
}

/* 1: the first 4 KiB read back as zeros (after dropping the page cache), 0 not, -errno. */
static int first_block_zero(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ioctl(fd, BLKFLSBUF, 0);
	unsigned char b[4096];
	ssize_t n = pread(fd, b, sizeof(b), 0);
	close(fd);
	if (n != (ssize_t)sizeof(b))
		return -EIO;
	for (size_t i = 0; i < sizeof(b); i++)
		if (b[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int read_only = argc == 3 && strcmp(argv[1], "--read-only") == 0;
	if (argc != 4 && !read_only) {
		fprintf(stderr, "usage: nvme_guest NAMESPACE_DEV CONTROLLER_DEV NOT_NVME_DEV\n"
				"       nvme_guest --read-only DEV\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	char err[256] = "";
	int rc;
	if (read_only)
		argv++;

	struct slc_probe *p = attach(argv[1], &rc, err, sizeof(err));
	printf("slc: attach_rc=%d\n", rc);
	if (rc) {
		printf("slc: attach_err=%s\n", err);
		return 1;
	}
	const struct slc_identity *id = &p->id;
	printf("slc: model=%s\n", id->model);
	printf("slc: serial=%s\n", id->serial);
	printf("slc: firmware=%s\n", id->firmware);
	printf("slc: pci_vendor=0x%04x\n", id->pci_vendor);
	printf("slc: nvme_version=%s\n", id->nvme_version);
	printf("slc: nsid=%" PRIu32 "\n", id->nsid);
	printf("slc: capacity_bytes=%" PRIu64 "\n", id->capacity_bytes);
	printf("slc: logical_block_bytes=%" PRIu32 "\n", id->logical_block_bytes);
	printf("slc: n_lba_formats=%u\n", id->n_lba_formats);
	for (unsigned i = 0; i < id->n_lba_formats; i++)
		if (id->lba_formats[i].in_use)
			printf("slc: lbaf_in_use=%u:%" PRIu32 "\n", i, id->lba_formats[i].data_bytes);
	printf("slc: volatile_write_cache=%d\n", id->volatile_write_cache);
	printf("slc: format_nvm=%d\n", id->format_nvm);
	printf("slc: crypto_erase=%d\n", id->crypto_erase);
	printf("slc: sanitize=%d,%d,%d\n", id->sanitize_crypto, id->sanitize_block, id->sanitize_overwrite);
	printf("slc: link=%s\n", id->link);

	print_health("before", p);
	double c = 0;
	printf("slc: temperature_rc=%d\n", p->ops->temperature(p, &c));
	printf("slc: temperature_c=%.0f\n", c);
	if (read_only) {
		printf("slc: purge_method=%s\n", slc_purge_kind_name(p->ops->purge_method(p)));
		release(p);
		printf("slc: done=1\n");
		return 0;
	}

	printf("slc: write_rc=%d\n", write_pattern(argv[1]));
	printf("slc: written_zero=%d\n", first_block_zero(argv[1]));
	print_health("after", p);

	enum slc_purge_kind k = p->ops->purge_method(p);
	printf("slc: purge_method=%s\n", slc_purge_kind_name(k));
	if (k == SLC_PURGE_FORMAT_USER || k == SLC_PURGE_FORMAT_CRYPTO || k == SLC_PURGE_SANITIZE_CRYPTO ||
	    k == SLC_PURGE_SANITIZE_BLOCK) {
		rc = p->ops->purge(p, k, err, sizeof(err));
		printf("slc: purge_rc=%d\n", rc);
		if (rc)
			printf("slc: purge_err=%s\n", err);
		printf("slc: purged_zero=%d\n", first_block_zero(argv[1]));
	}
	/* a purge the controller does not offer: refused with the reason */
	rc = p->ops->purge(p, SLC_PURGE_SANITIZE_BLOCK, err, sizeof(err));
	printf("slc: sanitize_block_rc=%d\n", rc);
	if (rc)
		printf("slc: sanitize_block_err=%s\n", err);
	release(p);

	p = attach(argv[2], &rc, err, sizeof(err));
	printf("slc: ctrl_attach_rc=%d\n", rc);
	if (rc == 0) {
		printf("slc: ctrl_nsid=%" PRIu32 "\n", p->id.nsid);
		printf("slc: ctrl_model=%s\n", p->id.model);
		print_health("ctrl", p);
	} else {
		printf("slc: ctrl_attach_err=%s\n", err);
	}
	release(p);

	p = attach(argv[3], &rc, err, sizeof(err));
	printf("slc: other_attach_rc=%d\n", rc);
	printf("slc: other_attach_err=%s\n", err);
	release(p);
	printf("slc: done=1\n");
	return 0;
}
