// SPDX-License-Identifier: MIT
/*
 * The ATA backend against a real drive: SLCSCOPE_TEST_ATA=/dev/sdX names it
 * (read-only: IDENTIFY DEVICE and SMART READ DATA only).  Without it the
 * test is skipped (exit 77).  The drive's answers are checked against what
 * the kernel says in sysfs and against each other.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_priv.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);       \
			fprintf(stderr, __VA_ARGS__);                                         \
			fputc('\n', stderr);                                                  \
			failures++;                                                           \
		}                                                                             \
	} while (0)

/* A number from /sys/block/<name>/<file>; -1 when absent. */
static long long sysfs_num(const char *name, const char *file)
{
	char path[512];
	long long v = -1;
	FILE *f;
	snprintf(path, sizeof(path), "/sys/block/%s/%s", name, file);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int main(void)
{
	const char *dev = getenv("SLCSCOPE_TEST_ATA");
	struct slc_probe *p;
	struct slc_health *h1, *h2;
	char err[256] = "", tmp[256], *name;
	long long v;
	double t;
	int rc;

	if (!dev || !dev[0]) {
		printf("SKIP: set SLCSCOPE_TEST_ATA=/dev/sdX (a whole SATA disk; read-only) to test a real drive\n");
		return 77;
	}
	p = calloc(1, sizeof(*p));
	h1 = calloc(1, sizeof(*h1));
	h2 = calloc(1, sizeof(*h2));
	if (!p || !h1 || !h2)
		return 1;
	slc_identity_init(&p->id);
	p->fd = -1;
	snprintf(p->disk_path, sizeof(p->disk_path), "%s", dev);
	snprintf(tmp, sizeof(tmp), "%s", dev);
	name = basename(tmp);
	snprintf(p->id.kernel_name, sizeof(p->id.kernel_name), "%s", name);

	rc = slc__ata_attach(p, err, sizeof(err));
	if (rc == -EACCES || rc == -EPERM) {
		printf("SKIP: %s\n", err);
		return 77;
	}
	if (rc != 0) {
		fprintf(stderr, "FAIL: slc__ata_attach(%s): %d: %s\n", dev, rc, err);
		return 1;
	}
	printf("%s: model \"%s\" serial \"%s\" firmware \"%s\" link \"%s\"\n", dev, p->id.model, p->id.serial,
	       p->id.firmware, p->id.link);
	CHECK(p->ops != NULL, "no ops after attach");
	CHECK(p->id.source == SLC_PROBE_ATA, "source %d", p->id.source);
	CHECK(p->id.model[0] != 0, "empty model");
	CHECK(p->id.serial[0] != 0, "empty serial");
	CHECK(p->id.firmware[0] != 0, "empty firmware");
	CHECK(p->id.link[0] == 0 || strncmp(p->id.link, "SATA ", 5) == 0, "link \"%s\"", p->id.link);
	CHECK(p->id.trim_supported == 0 || p->id.trim_supported == 1, "trim %d", p->id.trim_supported);
	CHECK(p->id.volatile_write_cache >= -1 && p->id.volatile_write_cache <= 1, "vwc %d", p->id.volatile_write_cache);
	if ((v = sysfs_num(name, "size")) > 0)
		CHECK(p->id.capacity_bytes == (unsigned long long)v * 512, "capacity %llu, sysfs %lld sectors",
		      (unsigned long long)p->id.capacity_bytes, v);
	if ((v = sysfs_num(name, "queue/logical_block_size")) > 0)
		CHECK(p->id.logical_block_bytes == v, "logical %u, sysfs %lld", p->id.logical_block_bytes, v);
	if ((v = sysfs_num(name, "queue/physical_block_size")) > 0)
		CHECK(p->id.physical_block_bytes == v, "physical %u, sysfs %lld", p->id.physical_block_bytes, v);
	if ((v = sysfs_num(name, "queue/rotational")) >= 0 && p->id.rotational >= 0)
		CHECK(p->id.rotational == v, "rotational %d, sysfs %lld", p->id.rotational, v);

	rc = p->ops->health(p, h1, err, sizeof(err));
	CHECK(rc == 0, "health: %d %s", rc, err);
	rc = p->ops->health(p, h2, err, sizeof(err));
	CHECK(rc == 0, "health (second): %d %s", rc, err);
	printf("has_smart %d (%s), %u attributes, host writes %llu B, NAND writes %llu B (%s), %.0f C\n",
	       h1->has_smart, h1->no_smart_reason, h1->n_attrs, (unsigned long long)h1->host_write_bytes,
	       (unsigned long long)h1->nand_write_bytes, h1->nand_write_source, h1->temp_c);
	if (h1->has_smart) {
		CHECK(h1->n_attrs > 0, "SMART without attributes");
		for (unsigned i = 0; i < h1->n_attrs; i++)
			CHECK(h1->attrs[i].id != 0 && h1->attrs[i].name[0] != 0, "attribute %u unnamed", i);
		CHECK(isnan(h1->temp_c) || (h1->temp_c >= -15 && h1->temp_c <= 100), "temp %.1f", h1->temp_c);
		CHECK(h1->power_on_hours == SLC_PROBE_UNKNOWN || h1->power_on_hours < 30 * 365 * 24, "poh %llu",
		      (unsigned long long)h1->power_on_hours);
		CHECK(h1->percentage_used == SLC_PROBE_UNKNOWN || h1->percentage_used <= 1000, "used %llu",
		      (unsigned long long)h1->percentage_used);
		/* Cumulative counters never go backwards. */
		if (h1->host_write_bytes != SLC_PROBE_UNKNOWN)
			CHECK(h2->host_write_bytes >= h1->host_write_bytes, "host writes went back");
		if (h1->nand_write_bytes != SLC_PROBE_UNKNOWN)
			CHECK(h2->nand_write_bytes >= h1->nand_write_bytes, "NAND writes went back");
		CHECK(h2->n_attrs == h1->n_attrs, "attribute count changed %u -> %u", h1->n_attrs, h2->n_attrs);
	} else {
		CHECK(h1->no_smart_reason[0] != 0, "no SMART and no reason");
	}

	rc = p->ops->temperature(p, &t);
	CHECK(rc == 0 || rc == -ENODATA, "temperature: %d", rc);
	if (rc == 0) {
		CHECK(t >= -15 && t <= 100, "temperature %.1f", t);
		CHECK(!isnan(h2->temp_c) && fabs(t - h2->temp_c) <= 5, "temperature %.1f vs health %.1f", t,
		      h2->temp_c);
	} else {
		CHECK(isnan(h2->temp_c), "temperature -ENODATA but health has %.1f", h2->temp_c);
	}

	CHECK(p->ops->purge_method(p) == SLC_PURGE_TRIM, "purge method %d", p->ops->purge_method(p));
	err[0] = 0;
	rc = p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err));
	CHECK(rc == -ENOTSUP && err[0] != 0, "purge: %d \"%s\"", rc, err);

	p->ops->close(p);
	CHECK(p->priv == NULL, "close left priv");
	free(p);
	free(h1);
	free(h2);
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("OK\n");
	return 0;
}
