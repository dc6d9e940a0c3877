// SPDX-License-Identifier: MIT
/*
 * The NVMe page decoders against the canned pages of testdata/probes/nvme
 * (built field by field by make_pages.py) and the values beside them in
 * expected.json; the status texts.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include <nvme/types.h>

#include "probe_priv.h"

#define PAGES TESTDATA_DIR "/probes/nvme/"

static json_t *expected;

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

static uint64_t num(const char *section, const char *key)
{
	json_t *v = json_object_get(json_object_get(expected, section), key);
	if (!json_is_integer(v))
		fail_msg("expected.json: %s.%s missing", section, key);
	return (uint64_t)json_integer_value(v);
}

static const char *str(const char *section, const char *key)
{
	json_t *v = json_object_get(json_object_get(expected, section), key);
	if (!json_is_string(v))
		fail_msg("expected.json: %s.%s missing", section, key);
	return json_string_value(v);
}

static int setup(void **state)
{
	(void)state;
	json_error_t e;
	expected = json_load_file(PAGES "expected.json", 0, &e);
	if (!expected) {
		fprintf(stderr, "expected.json: %s (line %d)\n", e.text, e.line);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	json_decref(expected);
	return 0;
}

static void test_id_ctrl(void **state)
{
	(void)state;
	uint8_t page[4096];
	struct slc_identity id;
	load("id-ctrl.bin", page, sizeof(page));
	slc_identity_init(&id);
	slc__nvme_decode_id_ctrl(page, &id);
	assert_string_equal(id.model, str("id_ctrl", "model"));
	assert_string_equal(id.serial, str("id_ctrl", "serial"));
	assert_string_equal(id.firmware, str("id_ctrl", "firmware"));
	assert_int_equal(id.pci_vendor, num("id_ctrl", "pci_vendor"));
	assert_string_equal(id.nvme_version, str("id_ctrl", "nvme_version"));
	assert_int_equal(id.format_nvm, num("id_ctrl", "format_nvm"));
	assert_int_equal(id.crypto_erase, num("id_ctrl", "crypto_erase"));
	assert_int_equal(id.sanitize_crypto, num("id_ctrl", "sanitize_crypto"));
	assert_int_equal(id.sanitize_block, num("id_ctrl", "sanitize_block"));
	assert_int_equal(id.sanitize_overwrite, num("id_ctrl", "sanitize_overwrite"));
	/* present: the state is unknown until Get Features */
	assert_int_equal(num("id_ctrl", "vwc_present"), 1);
	assert_int_equal(id.volatile_write_cache, -1);
	/* WCTEMP/CCTEMP reach the health snapshot; their place in the page: */
	const struct nvme_id_ctrl *c = (const void *)page;
	assert_int_equal(le16toh(c->wctemp) - 273, num("id_ctrl", "warn_temp_c"));
	assert_int_equal(le16toh(c->cctemp) - 273, num("id_ctrl", "crit_temp_c"));
}

static void test_id_ctrl_variants(void **state)
{
	(void)state;
	uint8_t page[4096];
	struct slc_identity id;
	load("id-ctrl.bin", page, sizeof(page));
	/* VER 2.0.1, no VWC, crypto erase bit without Format NVM, overwrite only */
	page[80] = 1, page[81] = 0, page[82] = 2, page[83] = 0;
	page[525] = 0;
	page[256] = 0x01;                 /* OACS: Security only */
	page[328] = 0x04;                 /* SANICAP: overwrite */
	/* a NUL and a control character inside the model */
	page[24 + 7] = '\0';
	page[4] = '\t';
	slc_identity_init(&id);
	slc__nvme_decode_id_ctrl(page, &id);
	assert_string_equal(id.nvme_version, "2.0.1");
	assert_int_equal(id.volatile_write_cache, 0);
	assert_int_equal(id.format_nvm, 0);
	assert_int_equal(id.crypto_erase, 0);
	assert_int_equal(id.sanitize_crypto, 0);
	assert_int_equal(id.sanitize_block, 0);
	assert_int_equal(id.sanitize_overwrite, 1);
	assert_string_equal(id.model, "Generic");
	assert_string_equal(id.serial, "?LC1T2304000123");
}

static void test_id_ns(void **state)
{
	(void)state;
	uint8_t page[4096];
	struct slc_identity id;
	load("id-ns.bin", page, sizeof(page));
	slc_identity_init(&id);
	slc__nvme_decode_id_ns(page, &id);
	assert_int_equal(id.n_lba_formats, num("id_ns", "n_lba_formats"));
	json_t *fmts = json_object_get(json_object_get(expected, "id_ns"), "lba_formats");
	assert_int_equal(json_array_size(fmts), id.n_lba_formats);
	for (unsigned i = 0; i < id.n_lba_formats; i++) {
		json_t *f = json_array_get(fmts, i);
		assert_int_equal(id.lba_formats[i].data_bytes, json_integer_value(json_object_get(f, "data_bytes")));
		assert_int_equal(id.lba_formats[i].metadata_bytes,
				 json_integer_value(json_object_get(f, "metadata_bytes")));
		assert_int_equal(id.lba_formats[i].rel_perf, json_integer_value(json_object_get(f, "rel_perf")));
		assert_int_equal(id.lba_formats[i].in_use, json_integer_value(json_object_get(f, "in_use")));
	}
	for (unsigned i = id.n_lba_formats; i < SLC_PROBE_MAX_LBAF; i++)
		assert_int_equal(id.lba_formats[i].data_bytes, 0);
	assert_int_equal(id.logical_block_bytes, num("id_ns", "logical_block_bytes"));
	assert_true(id.capacity_bytes == num("id_ns", "capacity_bytes"));
}

static void test_id_ns_formats(void **state)
{
	(void)state;
	uint8_t page[4096];
	struct slc_identity id;
	load("id-ns.bin", page, sizeof(page));
	/* 20 formats; FLBAS picks format 17 through bits 6:5 (upper) and 3:0 (lower) */
	page[25] = 19;
	page[26] = (1u << 5) | 1u;
	page[128 + 4 * 17 + 2] = 12;       /* LBAF17 LBADS 4 KiB */
	page[128 + 4 * 18 + 2] = 40;       /* LBAF18 LBADS out of range */
	slc_identity_init(&id);
	id.capacity_bytes = 123;           /* sysfs's value stays */
	slc__nvme_decode_id_ns(page, &id);
	assert_int_equal(id.n_lba_formats, 20);
	assert_int_equal(id.lba_formats[17].in_use, 1);
	assert_int_equal(id.lba_formats[1].in_use, 0);
	assert_int_equal(id.lba_formats[17].data_bytes, 4096);
	assert_int_equal(id.lba_formats[18].data_bytes, 0);
	assert_int_equal(id.logical_block_bytes, 4096);
	assert_true(id.capacity_bytes == 123);

	/* NLBAF 255 (garbage) is bounded */
	page[25] = 255;
	slc_identity_init(&id);
	slc__nvme_decode_id_ns(page, &id);
	assert_int_equal(id.n_lba_formats, SLC_PROBE_MAX_LBAF);
}

static void test_smart(void **state)
{
	(void)state;
	uint8_t page[512];
	struct slc_health h;
	load("smart.bin", page, sizeof(page));
	slc_health_init(&h);
	slc__nvme_decode_smart(page, &h);
	assert_int_equal(h.has_smart, 1);
	assert_true(h.critical_warning == num("smart", "critical_warning"));
	assert_true(h.temp_c == (double)num("smart", "temp_c"));
	assert_true(h.available_spare == num("smart", "available_spare"));
	assert_true(h.available_spare_threshold == num("smart", "available_spare_threshold"));
	assert_true(h.percentage_used == num("smart", "percentage_used"));
	assert_true(h.host_read_bytes == num("smart", "host_read_bytes"));
	assert_true(h.host_write_bytes == num("smart", "host_write_bytes"));
	assert_true(h.host_read_cmds == num("smart", "host_read_cmds"));
	assert_true(h.host_write_cmds == num("smart", "host_write_cmds"));
	assert_true(h.power_cycles == num("smart", "power_cycles"));
	assert_true(h.power_on_hours == num("smart", "power_on_hours"));
	assert_true(h.unsafe_shutdowns == num("smart", "unsafe_shutdowns"));
	assert_true(h.media_errors == num("smart", "media_errors"));
	assert_true(h.warn_temp_time_min == num("smart", "warn_temp_time_min"));
	assert_true(h.crit_temp_time_min == num("smart", "crit_temp_time_min"));
	json_t *smart = json_object_get(expected, "smart");
	for (int i = 0; i < 2; i++) {
		assert_true(h.thm_transitions[i] ==
			    (uint64_t)json_integer_value(json_array_get(json_object_get(smart, "thm_transitions"), i)));
		assert_true(h.thm_time_s[i] ==
			    (uint64_t)json_integer_value(json_array_get(json_object_get(smart, "thm_time_s"), i)));
	}
	/* no standard NVMe source of NAND writes */
	assert_true(h.nand_write_bytes == SLC_PROBE_UNKNOWN);
	/* the identify thresholds are not in this page */
	assert_true(isnan(h.warn_temp_c));
}

static void test_smart_limits(void **state)
{
	(void)state;
	uint8_t page[512];
	struct slc_health h;
	load("smart.bin", page, sizeof(page));
	/* no composite temperature; data units just over 2^64 / 512000; a 128-bit counter */
	page[1] = page[2] = 0;
	uint64_t du = UINT64_MAX / 512000 + 1;
	for (int i = 0; i < 8; i++)
		page[48 + i] = (uint8_t)(du >> (8 * i));
	page[128 + 8] = 1;                 /* Power On Hours bit 64 */
	slc_health_init(&h);
	slc__nvme_decode_smart(page, &h);
	assert_true(isnan(h.temp_c));
	assert_true(h.host_write_bytes == SLC_PROBE_UNKNOWN);
	assert_true(h.power_on_hours == SLC_PROBE_UNKNOWN);
	assert_true(h.host_read_bytes == num("smart", "host_read_bytes"));
}

/* The Sanitize Status pages hold what make_pages.py says (the purge reads them). */
static void test_sanitize_pages(void **state)
{
	(void)state;
	static const char *const names[] = { "sanitize-running", "sanitize-done", "sanitize-failed" };
	json_t *san = json_object_get(expected, "sanitize");
	for (size_t i = 0; i < 3; i++) {
		uint8_t page[512];
		char file[64];
		snprintf(file, sizeof(file), "%s.bin", names[i]);
		load(file, page, sizeof(page));
		const struct nvme_sanitize_log_page *l = (const void *)page;
		json_t *e = json_object_get(san, names[i]);
		assert_non_null(e);
		assert_int_equal(le16toh(l->sstat) & 7, json_integer_value(json_object_get(e, "status")));
		assert_int_equal((le16toh(l->sstat) >> 8) & 1,
				 json_integer_value(json_object_get(e, "global_data_erased")));
		assert_int_equal(le32toh(l->scdw10) & 7, json_integer_value(json_object_get(e, "sanact")));
		assert_true(fabs(le16toh(l->sprog) / 65536.0 - json_real_value(json_object_get(e, "progress"))) < 1e-9);
	}
}

/* Pages at an odd address decode the same (the decoders copy before reading). */
static void test_unaligned(void **state)
{
	(void)state;
	static uint8_t buf[4096 + 1];
	struct slc_identity id;
	struct slc_health h;
	load("id-ctrl.bin", buf + 1, 4096);
	slc_identity_init(&id);
	slc__nvme_decode_id_ctrl(buf + 1, &id);
	assert_int_equal(id.pci_vendor, num("id_ctrl", "pci_vendor"));
	load("id-ns.bin", buf + 1, 4096);
	slc__nvme_decode_id_ns(buf + 1, &id);
	assert_true(id.capacity_bytes == num("id_ns", "capacity_bytes"));
	load("smart.bin", buf + 1, 512);
	slc_health_init(&h);
	slc__nvme_decode_smart(buf + 1, &h);
	assert_true(h.host_write_bytes == num("smart", "host_write_bytes"));
	assert_true(h.thm_time_s[1] == 56);
}

static void test_status_text(void **state)
{
	(void)state;
	char b[128];
	assert_string_equal(slc__nvme_status_text(0x2, b, sizeof(b)), "Invalid Field in Command (0x2)");
	assert_string_equal(slc__nvme_status_text(0x4001, b, sizeof(b)), "Invalid Command Opcode (0x1)"); /* DNR */
	assert_string_equal(slc__nvme_status_text(0x109, b, sizeof(b)), "Invalid Log Page (0x109)");
	assert_string_equal(slc__nvme_status_text(0x10a, b, sizeof(b)), "Invalid Format (0x10a)");
	assert_string_equal(slc__nvme_status_text(0x1d, b, sizeof(b)), "Sanitize In Progress (0x1d)");
	assert_string_equal(slc__nvme_status_text(0x281, b, sizeof(b)), "Unrecovered Read Error (0x281)");
	assert_string_equal(slc__nvme_status_text(0x3f7, b, sizeof(b)),
			    "NVMe status 0x3f7 (status code type 3, status code 0xf7)");
	assert_string_equal(slc__nvme_status_text(-ENOTTY, b, sizeof(b)), strerror(ENOTTY));
	/* a short buffer is cut, still terminated */
	char tiny[8];
	slc__nvme_status_text(0x2, tiny, sizeof(tiny));
	assert_int_equal(strlen(tiny), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_ctrl),
		cmocka_unit_test(test_id_ctrl_variants),
		cmocka_unit_test(test_id_ns),
		cmocka_unit_test(test_id_ns_formats),
		cmocka_unit_test(test_smart),
		cmocka_unit_test(test_smart_limits),
		cmocka_unit_test(test_sanitize_pages),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_status_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
