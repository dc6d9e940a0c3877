// SPDX-License-Identifier: MIT
/*
 * The NVMe backend's admin path against a mocked ioctl() (nvme_ioctl_shim):
 * attach and identity, health, temperature, purge method and purge, error
 * statuses, bad replies, a missing libnvme, and libnvme (with its json-c)
 * loaded next to the jansson model parser.
 *
 * The shim is either linked into this program (exported symbols) or
 * LD_PRELOADed; its control table is found with dlsym either way.
 */
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <nvme/types.h>

#include "test_hooks.h"
#include "nvme_ioctl_shim.h"
#include "probe_priv.h"
#include "slcscope/sim.h"

#define PAGES TESTDATA_DIR "/probes/nvme/"

/* Admin opcodes and the command dwords libnvme builds (NVMe Base 2.0). */
#define OPC_GET_LOG 0x02
#define OPC_IDENTIFY 0x06
#define OPC_GET_FEATURES 0x0a
#define OPC_FORMAT 0x80
#define OPC_SANITIZE 0x84
/* Get Log Page CDW10: LID 7:0, RAE bit 15, NUMDL 31:16 (512 bytes: 127 dwords, 0's based) */
#define CDW10_SMART (0x02u | 1u << 15 | 127u << 16)
#define CDW10_SANITIZE_LOG (0x81u | 127u << 16)

static const struct nvme_shim_api *shim;
static uint8_t id_ctrl[4096], id_ns[4096], smart[512];
static uint8_t san_running[512], san_done[512], san_failed[512];
static char tmpl[256];

static void load(const char *name, void *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), PAGES "%s", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	size_t n = fread(buf, 1, len, f);
	int more = fgetc(f) != EOF;
	fclose(f);
	if (n != len || more)
		fail_msg("%s: not %zu bytes", path, len);
}

static int setup(void **state)
{
	(void)state;
	shim = dlsym(RTLD_DEFAULT, "nvme_shim_api");
	if (!shim) {
		fprintf(stderr, "nvme_shim_api not found: the shim is neither linked nor preloaded\n");
		return -1;
	}
	load("id-ctrl.bin", id_ctrl, sizeof(id_ctrl));
	load("id-ns.bin", id_ns, sizeof(id_ns));
	load("smart.bin", smart, sizeof(smart));
	load("sanitize-running.bin", san_running, sizeof(san_running));
	load("sanitize-done.bin", san_done, sizeof(san_done));
	load("sanitize-failed.bin", san_failed, sizeof(san_failed));
	const char *dir = getenv("TMPDIR");
	snprintf(tmpl, sizeof(tmpl), "%s/nvme-fake-XXXXXX", dir && *dir ? dir : "/tmp");
	return 0;
}

/* A probe on a fresh regular file standing for the device; the shim answers on it. */
static struct slc_probe *fake_probe(long nsid_reply)
{
	char path[256];
	snprintf(path, sizeof(path), "%s", tmpl);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	struct slc_probe *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	slc_identity_init(&p->id);
	p->fd = fd;
	shim->reset(fd, nsid_reply);
	return p;
}

static void done(struct slc_probe *p)
{
	if (p->ops && p->ops->close)
		p->ops->close(p);
	close(p->fd);
	shim->reset(-1, 0);
	free(p);
}

/* Every expected command was sent, and nothing else. */
static void assert_script_done(void)
{
	if (shim->mismatches())
		fail_msg("%s", shim->mismatch_text());
	assert_int_equal(shim->pending(), 0);
}

static void expect_cmd(uint8_t opc, uint32_t nsid, uint32_t cdw10, uint32_t len, const void *reply, size_t rlen,
		       int status, int err)
{
	struct nvme_shim_step s = {
		.opcode = opc, .nsid = nsid, .cdw10 = cdw10, .data_len = len,
		.reply = reply, .reply_len = rlen, .status = status, .err = err,
	};
	shim->expect(&s);
}

static void expect_identify(const void *ctrl, const void *ns, int vwc_wce)
{
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, ctrl, 4096, 0, 0);
	if (ns)
		expect_cmd(OPC_IDENTIFY, 1, NVME_IDENTIFY_CNS_NS, 4096, ns, 4096, 0, 0);
	if (vwc_wce >= 0) {
		struct nvme_shim_step s = { .opcode = OPC_GET_FEATURES, .nsid = 0, .cdw10 = NVME_FEAT_FID_VOLATILE_WC,
					    .result = (uint32_t)vwc_wce };
		shim->expect(&s);
	}
}

/* Attach a namespace device that answers with the canned pages. */
static struct slc_probe *attached(const void *ctrl)
{
	struct slc_probe *p = fake_probe(1);
	char err[256] = "";
	expect_identify(ctrl, id_ns, (((const uint8_t *)ctrl)[525] & 1) ? 1 : -1);
	int rc = slc__nvme_attach(p, err, sizeof(err));
	if (rc)
		fail_msg("attach: %d %s", rc, err);
	assert_script_done();
	return p;
}

static void one_line(const char *s)
{
	assert_true(s[0] != '\0');
	assert_null(strchr(s, '\n'));
}

/* Runs first: the library is loaded once per process and then kept. */
static void test_missing_library(void **state)
{
	(void)state;
	struct slc_probe *p = fake_probe(1);
	char err[256] = "";
	slc__test_nvme_soname = "/nonexistent/libnvme.so.1";
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -ELIBACC);
	slc__test_nvme_soname = NULL;
	one_line(err);
	assert_non_null(strstr(err, "cannot load /nonexistent/libnvme.so.1"));
	assert_non_null(strstr(err, "libnvme1"));
	assert_null(p->ops);
	assert_int_equal(shim->answered(), 0);
	/* the next attach loads the real library */
	expect_identify(id_ctrl, id_ns, 1);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	done(p);
}

static void test_attach_identity(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	const struct slc_identity *id = &p->id;
	assert_ptr_not_equal(p->ops, NULL);
	assert_int_equal(id->source, SLC_PROBE_NVME);
	assert_string_equal(id->interface, "nvme");
	assert_string_equal(id->model, "Generic TLC NVMe SSD 1TB");
	assert_string_equal(id->serial, "TLC1T2304000123");
	assert_string_equal(id->firmware, "3.1.0A");
	assert_int_equal(id->nsid, 1);
	assert_int_equal(id->pci_vendor, 0x1e4b);
	assert_string_equal(id->nvme_version, "1.4");
	assert_int_equal(id->n_lba_formats, 3);
	assert_int_equal(id->lba_formats[0].data_bytes, 512);
	assert_int_equal(id->lba_formats[0].in_use, 1);
	assert_int_equal(id->lba_formats[2].data_bytes, 4096);
	assert_int_equal(id->lba_formats[2].metadata_bytes, 8);
	assert_int_equal(id->lba_formats[2].in_use, 0);
	assert_int_equal(id->logical_block_bytes, 512);
	assert_true(id->capacity_bytes == 1953525168ull * 512);
	assert_int_equal(id->volatile_write_cache, 1);
	assert_int_equal(id->format_nvm, 1);
	assert_int_equal(id->crypto_erase, 1);
	assert_int_equal(id->sanitize_crypto, 1);
	assert_int_equal(id->sanitize_block, 1);
	assert_int_equal(id->sanitize_overwrite, 0);
	assert_string_equal(id->link, "");            /* a regular file has no PCIe link */
	done(p);
}

/* sysfs's capacity and block size win; a cache turned off reads 0. */
static void test_attach_keeps_sysfs(void **state)
{
	(void)state;
	struct slc_probe *p = fake_probe(1);
	char err[256] = "";
	p->id.capacity_bytes = 1000204886016ull;
	p->id.logical_block_bytes = 4096;
	expect_identify(id_ctrl, id_ns, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	assert_true(p->id.capacity_bytes == 1000204886016ull);
	assert_int_equal(p->id.logical_block_bytes, 4096);
	assert_int_equal(p->id.volatile_write_cache, 0);
	done(p);
}

static void test_health(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	struct slc_health h;
	char err[256] = "";
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, smart, sizeof(smart), 0, 0);
	assert_int_equal(p->ops->health(p, &h, err, sizeof(err)), 0);
	assert_script_done();
	assert_int_equal(h.has_smart, 1);
	assert_true(h.host_write_bytes == 12345678ull * 512000);
	assert_true(h.host_read_bytes == 9876543ull * 512000);
	assert_true(h.host_write_cmds == 234567890);
	assert_true(h.host_read_cmds == 123456789);
	assert_true(h.nand_write_bytes == SLC_PROBE_UNKNOWN);
	assert_true(h.temp_c == 45.0);
	assert_true(h.warn_temp_c == 70.0);
	assert_true(h.crit_temp_c == 80.0);
	assert_true(h.thm_transitions[0] == 41 && h.thm_transitions[1] == 3);
	assert_true(h.thm_time_s[0] == 1234 && h.thm_time_s[1] == 56);
	assert_true(h.warn_temp_time_min == 15 && h.crit_temp_time_min == 2);
	assert_true(h.percentage_used == 3);
	assert_true(h.available_spare == 100 && h.available_spare_threshold == 10);
	assert_true(h.critical_warning == 0);
	assert_true(h.power_on_hours == 3456 && h.power_cycles == 512);
	assert_true(h.unsafe_shutdowns == 37 && h.media_errors == 1);
	done(p);
}

static void test_temperature(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	double c = 0;
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, smart, sizeof(smart), 0, 0);
	assert_int_equal(p->ops->temperature(p, &c), 0);
	assert_true(c == 45.0);
	/* no composite temperature: no sensor */
	uint8_t cold[512];
	memcpy(cold, smart, sizeof(cold));
	cold[1] = cold[2] = 0;
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, cold, sizeof(cold), 0, 0);
	assert_int_equal(p->ops->temperature(p, &c), -ENODATA);
	/* a failing log: an error, not a temperature */
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, NULL, 0, 0x109, 0);
	assert_int_equal(p->ops->temperature(p, &c), -EIO);
	assert_script_done();
	done(p);
}

static void patch_caps(uint8_t *ctrl, uint16_t oacs, uint8_t fna, uint32_t sanicap)
{
	memcpy(ctrl, id_ctrl, 4096);
	ctrl[offsetof(struct nvme_id_ctrl, oacs)] = (uint8_t)oacs;
	ctrl[offsetof(struct nvme_id_ctrl, oacs) + 1] = (uint8_t)(oacs >> 8);
	ctrl[offsetof(struct nvme_id_ctrl, fna)] = fna;
	for (int i = 0; i < 4; i++)
		ctrl[offsetof(struct nvme_id_ctrl, sanicap) + i] = (uint8_t)(sanicap >> (8 * i));
}

static enum slc_purge_kind method_for(uint16_t oacs, uint8_t fna, uint32_t sanicap)
{
	uint8_t ctrl[4096];
	patch_caps(ctrl, oacs, fna, sanicap);
	struct slc_probe *p = attached(ctrl);
	enum slc_purge_kind k = p->ops->purge_method(p);
	done(p);
	return k;
}

static void test_purge_method(void **state)
{
	(void)state;
	assert_int_equal(method_for(0x17, 0x04, 0x3), SLC_PURGE_SANITIZE_CRYPTO);
	assert_int_equal(method_for(0x17, 0x04, 0x2), SLC_PURGE_SANITIZE_BLOCK);
	assert_int_equal(method_for(0x17, 0x04, 0x4), SLC_PURGE_FORMAT_CRYPTO);   /* overwrite only: not used */
	assert_int_equal(method_for(0x17, 0x00, 0x0), SLC_PURGE_FORMAT_USER);
	assert_int_equal(method_for(0x15, 0x04, 0x0), SLC_PURGE_TRIM);            /* no Format NVM */

	/* The controller's character device has no namespace: no Format, Sanitize is fine. */
	uint8_t ctrl[4096];
	char err[256] = "";
	patch_caps(ctrl, 0x17, 0x04, 0x0);
	struct slc_probe *p = fake_probe(-ENOTTY);
	expect_identify(ctrl, NULL, 1);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	assert_int_equal(p->id.nsid, 0);
	assert_int_equal(p->id.n_lba_formats, 0);
	assert_int_equal(p->ops->purge_method(p), SLC_PURGE_TRIM);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_USER, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "namespace"));
	done(p);
}

static void test_purge_sanitize(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	char err[256] = "";
	slc__test_sanitize_poll_ms = 0;
	/* SANACT 100b crypto erase; the log is polled until it reports completion */
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_CRYPTO_ERASE, 0, NULL, 0, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_running, 512, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_running, 512, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_done, 512, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err)), 0);
	assert_script_done();

	/* Block erase: a log still showing the previous (crypto) sanitize is not its end */
	uint8_t block_running[512], block_done[512];
	memcpy(block_running, san_running, 512);
	memcpy(block_done, san_done, 512);
	block_running[4] = block_done[4] = NVME_SANITIZE_SANACT_START_BLOCK_ERASE;
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_BLOCK_ERASE, 0, NULL, 0, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_done, 512, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, block_running, 512, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, block_done, 512, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_BLOCK, err, sizeof(err)), 0);
	assert_script_done();
	slc__test_sanitize_poll_ms = ULLONG_MAX;
	done(p);
}

static void test_purge_format(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	char err[256] = "";
	/* Format NVM CDW10: LBAF 3:0 (0, kept), MSET 4, PI 7:5, PIL 8, SES 11:9 */
	expect_cmd(OPC_FORMAT, 1, 2u << 9, 0, NULL, 0, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_CRYPTO, err, sizeof(err)), 0);
	expect_cmd(OPC_FORMAT, 1, 1u << 9, 0, NULL, 0, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_USER, err, sizeof(err)), 0);
	assert_script_done();
	done(p);

	/* The namespace's current format (here LBAF 1, 4 KiB) is kept */
	uint8_t ns4k[4096];
	memcpy(ns4k, id_ns, sizeof(ns4k));
	ns4k[offsetof(struct nvme_id_ns, flbas)] = 1;
	p = fake_probe(1);
	expect_identify(id_ctrl, ns4k, 1);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_int_equal(p->id.logical_block_bytes, 4096);
	assert_true(p->id.capacity_bytes == 1953525168ull * 4096);
	expect_cmd(OPC_FORMAT, 1, 1u | 2u << 9, 0, NULL, 0, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_CRYPTO, err, sizeof(err)), 0);
	assert_script_done();
	done(p);

	/* FLBAS naming a format the namespace does not have: Format is not offered nor sent */
	uint8_t ctrl[4096];
	patch_caps(ctrl, 0x17, 0x04, 0x0);
	ns4k[offsetof(struct nvme_id_ns, flbas)] = 5;
	p = fake_probe(1);
	expect_identify(ctrl, ns4k, 1);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	assert_int_equal(p->ops->purge_method(p), SLC_PURGE_TRIM);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_CRYPTO, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "current LBA format is not known"));
	assert_int_equal(shim->mismatches(), 0);
	done(p);
}

static void test_purge_errors(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	char err[256] = "";
	slc__test_sanitize_poll_ms = 0;

	/* the drive reports failure in the log */
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_CRYPTO_ERASE, 0, NULL, 0, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_running, 512, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_failed, 512, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err)), -EIO);
	one_line(err);
	assert_non_null(strstr(err, "Sanitize (crypto erase): the drive reports the sanitize operation failed"));

	/* the command is refused */
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_CRYPTO_ERASE, 0, NULL, 0, 0x401d, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Sanitize (crypto erase): Sanitize In Progress (0x1d)");

	/* still running when the time is up */
	slc__test_sanitize_timeout_ms = 0;
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_CRYPTO_ERASE, 0, NULL, 0, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, san_running, 512, 0, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err)), -ETIMEDOUT);
	one_line(err);
	assert_non_null(strstr(err, "not finished"));
	assert_non_null(strstr(err, "25.0 % done"));
	slc__test_sanitize_timeout_ms = ULLONG_MAX;

	/* the status log itself fails */
	expect_cmd(OPC_SANITIZE, 0, NVME_SANITIZE_SANACT_START_CRYPTO_ERASE, 0, NULL, 0, 0, 0);
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SANITIZE_LOG, 512, NULL, 0, 0x109, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_CRYPTO, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Get Log Page Sanitize Status (81h): Invalid Log Page (0x109)");

	/* Format refused with Invalid Format; no permission */
	expect_cmd(OPC_FORMAT, 1, 2u << 9, 0, NULL, 0, 0x10a, 0);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_CRYPTO, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Format NVM (cryptographic erase): Invalid Format (0x10a)");
	expect_cmd(OPC_FORMAT, 1, 1u << 9, 0, NULL, 0, 0, EACCES);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_USER, err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, "Format NVM (user data erase): "));
	assert_non_null(strstr(err, "need root"));

	/* TRIM and NONE are not NVMe commands */
	assert_int_equal(p->ops->purge(p, SLC_PURGE_TRIM, err, sizeof(err)), -EINVAL);
	assert_int_equal(p->ops->purge(p, SLC_PURGE_NONE, err, sizeof(err)), -EINVAL);
	assert_script_done();
	slc__test_sanitize_poll_ms = ULLONG_MAX;
	done(p);

	/* what the controller cannot do is refused before any command */
	uint8_t ctrl[4096];
	patch_caps(ctrl, 0x15, 0x00, 0x0);
	p = attached(ctrl);
	int before = shim->answered();
	assert_int_equal(p->ops->purge(p, SLC_PURGE_SANITIZE_BLOCK, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "Sanitize (block erase): not supported by this controller (SANICAP)");
	assert_int_equal(p->ops->purge(p, SLC_PURGE_FORMAT_USER, err, sizeof(err)), -EOPNOTSUPP);
	assert_int_equal(shim->answered(), before);
	done(p);
}

static void test_errors(void **state)
{
	(void)state;
	char err[256];
	struct slc_probe *p;

	/* Identify Controller answered Invalid Command Opcode (with DNR) */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, NULL, 0, 0x4001, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Identify Controller: Invalid Command Opcode (0x1)");
	assert_null(p->ops);
	assert_script_done();
	done(p);

	/* the admin ioctl is not there: not NVMe */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, NULL, 0, 0, ENOTTY);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -ENOTTY);
	one_line(err);
	assert_non_null(strstr(err, "not an NVMe device"));
	assert_script_done();
	done(p);

	/* a plain file the shim does not answer for: the kernel's own ENOTTY */
	p = fake_probe(1);
	shim->reset(-1, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -ENOTTY);
	assert_non_null(strstr(err, "not an NVMe device"));
	done(p);

	/* no permission for admin commands */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, NULL, 0, 0, EACCES);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, "Identify Controller: Permission denied"));
	done(p);

	/* Identify Namespace fails */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, id_ctrl, 4096, 0, 0);
	expect_cmd(OPC_IDENTIFY, 1, NVME_IDENTIFY_CNS_NS, 4096, NULL, 0, 0x000b, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Identify Namespace 1: Invalid Namespace or Format (0xb)");
	assert_null(p->ops);
	assert_string_equal(p->id.model, "");          /* the identity is left as it was */
	assert_int_equal(p->id.source, SLC_PROBE_SYSFS);
	assert_null(p->priv);
	assert_script_done();
	done(p);

	/* Get Features (volatile write cache) refused: the state is unknown, attach goes on */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, id_ctrl, 4096, 0, 0);
	expect_cmd(OPC_IDENTIFY, 1, NVME_IDENTIFY_CNS_NS, 4096, id_ns, 4096, 0, 0);
	expect_cmd(OPC_GET_FEATURES, 0, NVME_FEAT_FID_VOLATILE_WC, 0, NULL, 0, 0x0002, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_int_equal(p->id.volatile_write_cache, -1);
	assert_script_done();

	/* SMART log: Invalid Log Page */
	struct slc_health h;
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, NULL, 0, 0x109, 0);
	assert_int_equal(p->ops->health(p, &h, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Get Log Page SMART / Health Information (02h): Invalid Log Page (0x109)");
	/* ... or the ioctl breaks */
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, NULL, 0, 0, EIO);
	assert_int_equal(p->ops->health(p, &h, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Get Log Page SMART / Health Information (02h): Input/output error");
	assert_script_done();
	done(p);
}

/* Short and garbage replies: no crash, bounded and printable results. */
static void test_bad_replies(void **state)
{
	(void)state;
	char err[256];
	struct slc_probe *p;

	/* a short Identify Controller transfer: the rest reads as zero */
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, id_ctrl, 40, 0, 0);
	expect_cmd(OPC_IDENTIFY, 1, NVME_IDENTIFY_CNS_NS, 4096, id_ns, 20, 0, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	assert_string_equal(p->id.serial, "TLC1T2304000123");
	assert_string_equal(p->id.model, "Generic TLC NVMe");   /* cut at byte 40 */
	assert_string_equal(p->id.firmware, "");
	assert_string_equal(p->id.nvme_version, "");
	assert_int_equal(p->id.volatile_write_cache, 0);
	assert_int_equal(p->id.n_lba_formats, 1);
	assert_int_equal(p->id.lba_formats[0].data_bytes, 0);  /* LBADS 0: not a format */
	assert_true(p->id.capacity_bytes == SLC_PROBE_UNKNOWN);
	assert_int_equal(p->ops->purge_method(p), SLC_PURGE_TRIM);
	done(p);

	/* garbage everywhere */
	uint8_t junk_ctrl[4096], junk_ns[4096], junk_log[512];
	unsigned seed = 12345;
	for (size_t i = 0; i < sizeof(junk_ctrl); i++)
		junk_ctrl[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	for (size_t i = 0; i < sizeof(junk_ns); i++)
		junk_ns[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	for (size_t i = 0; i < sizeof(junk_log); i++)
		junk_log[i] = 0xff;
	p = fake_probe(1);
	expect_cmd(OPC_IDENTIFY, 0, NVME_IDENTIFY_CNS_CTRL, 4096, junk_ctrl, sizeof(junk_ctrl), 0, 0);
	expect_cmd(OPC_IDENTIFY, 1, NVME_IDENTIFY_CNS_NS, 4096, junk_ns, sizeof(junk_ns), 0, 0);
	if (junk_ctrl[525] & 1)
		expect_cmd(OPC_GET_FEATURES, 0, NVME_FEAT_FID_VOLATILE_WC, 0, NULL, 0, 0, 0);
	assert_int_equal(slc__nvme_attach(p, err, sizeof(err)), 0);
	assert_script_done();
	for (const char *s = p->id.model; *s; s++)
		assert_true(*s >= 0x20 && *s < 0x7f);
	assert_true(p->id.n_lba_formats >= 1 && p->id.n_lba_formats <= SLC_PROBE_MAX_LBAF);
	unsigned in_use = 0;
	for (unsigned i = 0; i < SLC_PROBE_MAX_LBAF; i++)
		in_use += p->id.lba_formats[i].in_use;
	assert_true(in_use <= 1);
	struct slc_health h;
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, junk_log, sizeof(junk_log), 0, 0);
	assert_int_equal(p->ops->health(p, &h, err, sizeof(err)), 0);
	assert_true(h.host_write_bytes == SLC_PROBE_UNKNOWN);   /* 2^128-1 data units fit no counter */
	assert_true(h.power_on_hours == SLC_PROBE_UNKNOWN);
	assert_true(h.temp_c == 65535.0 - 273.0);
	assert_script_done();
	done(p);
}

/*
 * libnvme, and with it json-c, loaded in the same program as jansson's model
 * parser: the parser must still get jansson's json_object_get().
 */
static void test_jansson_next_to_libnvme(void **state)
{
	(void)state;
	struct slc_probe *p = attached(id_ctrl);
	/* json-c is in the process, but not in the global scope */
	void *jc = dlopen("libjson-c.so.5", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(jc);
	dlclose(jc);
	assert_null(dlsym(RTLD_DEFAULT, "json_tokener_parse"));
	assert_null(dlsym(RTLD_DEFAULT, "nvme_identify"));

	static const char model[] =
		"{\"schema\": \"slcscope.sim-model/1\", \"name\": \"nvme-jsonc-check\","
		" \"description\": \"parsed next to libnvme\", \"interface\": \"nvme\","
		" \"capacity_bytes\": 1000204886016,"
		" \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 1099511627776, \"block_bytes\": 25165824, \"erase_ms\": 3.5},"
		" \"controller\": {\"max_iops\": 500000, \"link_MBps\": 3500},"
		" \"speed_MBps\": {\"slc_static\": 3000, \"native\": 600, \"gc_copy\": 900, \"fold_idle\": 300, \"read\": 3400},"
		" \"slc_cache\": {\"static_bytes\": 12000000000, \"when_full\": \"direct\"},"
		" \"gc\": {\"free_fraction\": 0.02, \"idle\": false},"
		" \"trim\": {\"process_GBps\": 40, \"read_slowdown\": 1.5, \"read_stall_ms\": 30},"
		" \"noise\": {\"io_jitter_sigma\": 0.1, \"native_sigma\": 0.45, \"native_tau_s\": 1.0}}";
	struct slc_sim_model m;
	char err[256] = "";
	int rc = slc_sim_model_parse(&m, model, "test", err, sizeof(err));
	if (rc)
		fail_msg("model: %s", err);
	assert_string_equal(m.name, "nvme-jsonc-check");
	assert_string_equal(m.description, "parsed next to libnvme");
	assert_string_equal(m.interface, "nvme");
	assert_true(m.capacity_bytes == 1000204886016ull);
	assert_int_equal(m.bits_per_cell, 3);
	assert_true(m.slc_static_bytes == 12000000000ull);
	assert_true(fabs(m.slc_static_bps - 3000e6) < 1);
	assert_true(fabs(m.native_bps - 600e6) < 1);

	/* a preset too, and a model error still names its field */
	assert_int_equal(slc_sim_model_load(&m, SLC_SIM_DEFAULT_PRESET, err, sizeof(err)), 0);
	assert_string_equal(m.name, SLC_SIM_DEFAULT_PRESET);
	assert_true(m.capacity_bytes == 240057409536ull);
	assert_int_equal(slc_sim_model_parse(&m, "{\"schema\": \"slcscope.sim-model/1\", \"name\": 7}", "bad",
					     err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "name"));

	/* and the NVMe backend still works after the parser ran */
	struct slc_health h;
	expect_cmd(OPC_GET_LOG, NVME_NSID_ALL, CDW10_SMART, 512, smart, sizeof(smart), 0, 0);
	assert_int_equal(p->ops->health(p, &h, err, sizeof(err)), 0);
	assert_true(h.host_write_cmds == 234567890);
	assert_script_done();
	done(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_attach_identity),
		cmocka_unit_test(test_attach_keeps_sysfs),
		cmocka_unit_test(test_health),
		cmocka_unit_test(test_temperature),
		cmocka_unit_test(test_purge_method),
		cmocka_unit_test(test_purge_sanitize),
		cmocka_unit_test(test_purge_format),
		cmocka_unit_test(test_purge_errors),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bad_replies),
		cmocka_unit_test(test_jansson_next_to_libnvme),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
