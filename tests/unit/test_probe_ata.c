// SPDX-License-Identifier: MIT
/*
 * ATA probe backend against canned libatasmart blobs (testdata/probes/ata,
 * built field by field by make_blobs.py) and against malformed blobs.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probe_priv.h"

#define ATA_DIR TESTDATA_DIR "/probes/ata"
#define REC 8u                             /* record header */
#define PAGE 512u

static unsigned char *load(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	long n;
	unsigned char *b;

	snprintf(path, sizeof(path), "%s/%s", ATA_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* ------------------------------------------------------ expected.txt */

struct kv {
	char key[32];
	char val[128];
};

/* The key=value lines of section [@blob]; returns how many. */
static size_t expected_section(const char *blob, struct kv *out, size_t max)
{
	char path[512], line[256], want[96];
	FILE *f;
	int in = 0;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/expected.txt", ATA_DIR);
	snprintf(want, sizeof(want), "[%s]", blob);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *eq;
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '[') {
			in = strcmp(line, want) == 0;
			continue;
		}
		if (!in || line[0] == '#' || !(eq = strchr(line, '=')))
			continue;
		assert_true(n < max);
		*eq = 0;
		assert_true(strlen(line) < sizeof(out[n].key) && strlen(eq + 1) < sizeof(out[n].val));
		memcpy(out[n].key, line, strlen(line) + 1);
		memcpy(out[n].val, eq + 1, strlen(eq + 1) + 1);
		n++;
	}
	fclose(f);
	return n;
}

static uint64_t num(const char *v)
{
	if (strcmp(v, "unknown") == 0)
		return SLC_PROBE_UNKNOWN;
	return strtoull(v, NULL, 10);
}

static const struct slc_smart_attr *attr(const struct slc_health *h, unsigned id)
{
	for (unsigned i = 0; i < h->n_attrs; i++)
		if (h->attrs[i].id == id)
			return &h->attrs[i];
	return NULL;
}

static void check_attr(const struct slc_health *h, unsigned id, const char *spec)
{
	char name[64];
	int cur, worst, th, failing;
	unsigned long long raw;
	const struct slc_smart_attr *a = attr(h, id);

	if (!a)
		fail_msg("attribute %u missing", id);
	assert_int_equal(sscanf(spec, "%63[^|]|%d|%d|%d|%llu|%d", name, &cur, &worst, &th, &raw, &failing), 6);
	assert_string_equal(a->name, name);
	assert_int_equal(a->current, cur);
	assert_int_equal(a->worst, worst);
	assert_int_equal(a->threshold, th);
	assert_true(a->raw == raw);
	assert_int_equal(a->failing, failing);
}

static void check_blob(const char *file)
{
	struct kv kv[80];
	size_t n = expected_section(file, kv, 80), len, checked = 0;
	unsigned char *b = load(file, &len);
	struct slc_identity *id = calloc(1, sizeof(*id));
	struct slc_health *h = calloc(1, sizeof(*h));
	char err[256] = "";

	assert_true(n > 20);
	assert_non_null(id);
	assert_non_null(h);
	if (slc_ata_decode_blob(b, len, id, h, err, sizeof(err)) != 0)
		fail_msg("%s: %s", file, err);
	assert_int_equal(id->source, SLC_PROBE_ATA);

	for (size_t i = 0; i < n; i++) {
		const char *k = kv[i].key, *v = kv[i].val;
		print_message("  %s: %s = %s\n", file, k, v);
		checked++;
		if (!strcmp(k, "model"))
			assert_string_equal(id->model, v);
		else if (!strcmp(k, "serial"))
			assert_string_equal(id->serial, v);
		else if (!strcmp(k, "firmware"))
			assert_string_equal(id->firmware, v);
		else if (!strcmp(k, "interface"))
			assert_string_equal(id->interface, v);
		else if (!strcmp(k, "link"))
			assert_string_equal(id->link, v);
		else if (!strcmp(k, "capacity_bytes"))
			assert_true(id->capacity_bytes == num(v));
		else if (!strcmp(k, "logical_block_bytes"))
			assert_int_equal(id->logical_block_bytes, num(v));
		else if (!strcmp(k, "physical_block_bytes"))
			assert_int_equal(id->physical_block_bytes, num(v));
		else if (!strcmp(k, "rotational"))
			assert_int_equal(id->rotational, atoi(v));
		else if (!strcmp(k, "trim_supported"))
			assert_int_equal(id->trim_supported, atoi(v));
		else if (!strcmp(k, "volatile_write_cache"))
			assert_int_equal(id->volatile_write_cache, atoi(v));
		else if (!strcmp(k, "has_smart"))
			assert_int_equal(h->has_smart, atoi(v));
		else if (!strcmp(k, "host_write_bytes"))
			assert_true(h->host_write_bytes == num(v));
		else if (!strcmp(k, "host_read_bytes"))
			assert_true(h->host_read_bytes == num(v));
		else if (!strcmp(k, "nand_write_bytes"))
			assert_true(h->nand_write_bytes == num(v));
		else if (!strcmp(k, "nand_write_source"))
			assert_string_equal(h->nand_write_source, v);
		else if (!strcmp(k, "temp_c")) {
			if (!strcmp(v, "unknown"))
				assert_true(isnan(h->temp_c));
			else
				assert_true(h->temp_c == atof(v));
		} else if (!strcmp(k, "percentage_used"))
			assert_true(h->percentage_used == num(v));
		else if (!strcmp(k, "power_on_hours"))
			assert_true(h->power_on_hours == num(v));
		else if (!strcmp(k, "power_cycles"))
			assert_true(h->power_cycles == num(v));
		else if (!strcmp(k, "unsafe_shutdowns"))
			assert_true(h->unsafe_shutdowns == num(v));
		else if (!strcmp(k, "media_errors"))
			assert_true(h->media_errors == num(v));
		else if (!strcmp(k, "n_attrs"))
			assert_int_equal(h->n_attrs, atoi(v));
		else if (!strncmp(k, "attr.", 5))
			check_attr(h, (unsigned)atoi(k + 5), v);
		else
			fail_msg("%s: unexpected key %s in expected.txt", file, k);
	}
	assert_true(checked == n);

	/* What ATA never reports stays unknown, never 0. */
	assert_true(h->host_write_cmds == SLC_PROBE_UNKNOWN);
	assert_true(h->host_read_cmds == SLC_PROBE_UNKNOWN);
	assert_true(isnan(h->warn_temp_c) && isnan(h->crit_temp_c));
	assert_true(h->critical_warning == SLC_PROBE_UNKNOWN);
	assert_int_equal(h->throttled, -1);
	assert_int_equal(id->nsid, 0);
	assert_int_equal(id->n_lba_formats, 0);
	free(id);
	free(h);
	free(b);
}

static void test_samsung_pm871(void **state)
{
	(void)state;
	check_blob("samsung_pm871_tlc.blob");
}

static void test_samsung_860evo(void **state)
{
	(void)state;
	check_blob("samsung_860evo.blob");
}

static void test_dramless(void **state)
{
	(void)state;
	check_blob("dramless_few_attrs.blob");
}

static void test_intel_530(void **state)
{
	(void)state;
	check_blob("intel_530.blob");
}

static void test_hdd_4kn(void **state)
{
	(void)state;
	check_blob("hdd_4kn_7200.blob");
}

/* ------------------------------------------------------ malformed blobs */

/* A failing decode: -EINVAL, a one-line message containing @what. */
static void expect_error(const void *b, size_t len, const char *what)
{
	struct slc_identity *id = calloc(1, sizeof(*id));
	struct slc_health *h = calloc(1, sizeof(*h));
	char err[256] = "";
	int rc = slc_ata_decode_blob(b, len, id, h, err, sizeof(err));
	if (rc != -EINVAL)
		fail_msg("len %zu: expected -EINVAL (%s), got %d (%s)", len, what, rc, err);
	assert_true(err[0] != 0);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, what))
		fail_msg("error \"%s\" does not mention \"%s\"", err, what);
	free(id);
	free(h);
}

static void fix_page_checksum(unsigned char *page)
{
	unsigned s = 0;
	for (unsigned i = 0; i < PAGE - 1; i++)
		s += page[i];
	page[PAGE - 1] = (unsigned char)(-s & 0xff);
}

static void test_empty(void **state)
{
	unsigned char one = 0;
	(void)state;
	expect_error(&one, 0, "empty");
	expect_error(NULL, 0, "empty");
}

/* Every cut of a valid blob fails, except at record boundaries (a shorter valid blob). */
static void test_truncated(void **state)
{
	size_t len;
	unsigned char *b = load("samsung_pm871_tlc.blob", &len);
	/* IDFY (8+512), SMST (8+4), SMDT (8+512), SMTH (8+512). */
	const size_t bounds[] = {520, 532, 1052, 1572};
	char err[256];
	(void)state;

	assert_int_equal(len, 1572);
	for (size_t cut = 1; cut < len; cut++) {
		int boundary = 0;
		unsigned char *c = malloc(cut);  /* exact size: ASan catches any read past the cut */
		assert_non_null(c);
		memcpy(c, b, cut);
		for (size_t k = 0; k < sizeof(bounds) / sizeof(bounds[0]); k++)
			boundary |= cut == bounds[k];
		if (boundary) {
			struct slc_identity id;
			struct slc_health h;
			err[0] = 0;
			if (slc_ata_decode_blob(c, cut, &id, &h, err, sizeof(err)) != 0)
				fail_msg("cut at record boundary %zu: %s", cut, err);
			assert_string_equal(id.model, "SAMSUNG MZ7LN256HMJP-000L7");
			assert_int_equal(h.has_smart, cut >= 1052);
		} else {
			expect_error(c, cut, "truncated");
		}
		free(c);
	}
	free(b);
}

static void test_bad_tag(void **state)
{
	size_t len;
	unsigned char *b = load("samsung_pm871_tlc.blob", &len);
	(void)state;
	b[0] = 'X';                                  /* "XDFY" */
	expect_error(b, len, "unknown record tag \"XDFY\"");
	b[0] = 'I';
	b[532] = 's';                                /* SMDT record at 520+12 */
	expect_error(b, len, "unknown record tag \"sMDT\"");
	free(b);
}

static void test_bad_length_duplicate_missing(void **state)
{
	size_t len;
	unsigned char *b = load("samsung_pm871_tlc.blob", &len), *d;
	(void)state;

	b[7] = 0xff;                                 /* IDFY length 0x000002ff */
	expect_error(b, len, "has length 767, expected 512");
	b[7] = 0x00;

	/* IDFY twice. */
	d = malloc(len + REC + PAGE);
	assert_non_null(d);
	memcpy(d, b, len);
	memcpy(d + len, b, REC + PAGE);
	expect_error(d, len + REC + PAGE, "appears twice");

	/* SMART data only, no IDENTIFY. */
	expect_error(b + 532, REC + PAGE, "no IDENTIFY");
	free(d);
	free(b);
}

static void test_checksums(void **state)
{
	size_t len;
	unsigned char *b = load("samsung_pm871_tlc.blob", &len);
	(void)state;

	b[REC + 100] ^= 1;                           /* an IDENTIFY byte */
	expect_error(b, len, "IDENTIFY checksum");
	b[REC + 100] ^= 1;
	b[540 + 20] ^= 4;                            /* a SMART data byte (payload at 532+8) */
	expect_error(b, len, "SMART data checksum");
	b[540 + 20] ^= 4;
	b[1060 + 3] ^= 1;                            /* a threshold byte (payload at 1052+8) */
	expect_error(b, len, "SMART thresholds checksum");
	free(b);
}

/* IDENTIFY word 82 bit 0 clear: identity decodes, SMART is "none" with a reason. */
static void test_no_smart_feature(void **state)
{
	size_t len;
	unsigned char *b = load("intel_530.blob", &len);
	struct slc_identity id;
	struct slc_health h;
	char err[256] = "";
	(void)state;

	b[REC + 2 * 82] &= (unsigned char)~1u;       /* word 82 bit 0 */
	fix_page_checksum(b + REC);
	assert_int_equal(slc_ata_decode_blob(b, len, &id, &h, err, sizeof(err)), 0);
	assert_string_equal(id.model, "INTEL SSDSC2BW240A4");
	assert_int_equal(h.has_smart, 0);
	assert_non_null(strstr(h.no_smart_reason, "word 82"));
	assert_int_equal(h.n_attrs, 0);
	assert_true(h.host_write_bytes == SLC_PROBE_UNKNOWN);
	assert_true(isnan(h.temp_c));
	free(b);
}

/* IDENTIFY words 27-46: the model, two characters a word, the first in bits 15:8. */
static void set_model(unsigned char *idfy, const char *model)
{
	char m[40];
	memset(m, ' ', sizeof(m));
	memcpy(m, model, strlen(model));
	for (unsigned i = 0; i < 40; i += 2) {
		idfy[2 * 27 + i] = (unsigned char)m[i + 1];
		idfy[2 * 27 + i + 1] = (unsigned char)m[i];
	}
	fix_page_checksum(idfy);
}

/* Intel 540s: 241 has no documented unit there; 249 still counts GiB. */
static void test_intel_540_unit_unknown(void **state)
{
	size_t len;
	unsigned char *b = load("intel_530.blob", &len);
	struct slc_identity id;
	struct slc_health h;
	char err[256] = "";
	(void)state;

	set_model(b + REC, "INTEL SSDSC2KW240H6");
	assert_int_equal(slc_ata_decode_blob(b, len, &id, &h, err, sizeof(err)), 0);
	assert_string_equal(id.model, "INTEL SSDSC2KW240H6");
	assert_true(h.host_write_bytes == SLC_PROBE_UNKNOWN);
	assert_true(h.host_read_bytes == SLC_PROBE_UNKNOWN);
	assert_true(attr(&h, 241)->raw == 197300);   /* the raw count is still there */
	assert_true(h.nand_write_bytes == 8120ull << 30);
	free(b);
}

/* The model decides the unit: the same attributes under another model name read as LBAs. */
static void test_model_decides_unit(void **state)
{
	size_t len;
	unsigned char *b = load("intel_530.blob", &len);
	struct slc_identity id;
	struct slc_health h;
	char err[256] = "";
	(void)state;

	/* Model words 27-46: "INTEL SSDSC2BW240A4" -> "XNTEL ..." (first char, bits 15:8 of word 27). */
	assert_int_equal(b[REC + 2 * 27 + 1], 'I');
	b[REC + 2 * 27 + 1] = 'X';
	fix_page_checksum(b + REC);
	assert_int_equal(slc_ata_decode_blob(b, len, &id, &h, err, sizeof(err)), 0);
	assert_string_equal(id.model, "XNTEL SSDSC2BW240A4");
	assert_true(h.host_write_bytes == 197300ull * 512);
	assert_true(h.nand_write_bytes == SLC_PROBE_UNKNOWN);
	assert_string_equal(h.nand_write_source, "");
	assert_true(h.percentage_used == SLC_PROBE_UNKNOWN);
	free(b);
}

/* In ata.c, not in a header: the link speed from a sysfs tree. */
int slc__ata_link_from_sysfs(const char *root, const char *kname, char *buf, size_t len);

/* testdata/probes/ata/sysfs: sda on ata3 (6.0 Gb/s), sdb behind USB, sdc on ata4 with the link down. */
static void test_link_from_sysfs(void **state)
{
	char link[64] = "";
	const char *root = ATA_DIR "/sysfs";
	(void)state;
	assert_int_equal(slc__ata_link_from_sysfs(root, "sda", link, sizeof(link)), 0);
	assert_string_equal(link, "SATA 6.0 Gb/s");
	assert_int_equal(slc__ata_link_from_sysfs(root, "sdb", link, sizeof(link)), -1);
	assert_int_equal(slc__ata_link_from_sysfs(root, "sdc", link, sizeof(link)), -1);
	assert_int_equal(slc__ata_link_from_sysfs(root, "sdz", link, sizeof(link)), -1);
	assert_int_equal(slc__ata_link_from_sysfs(root, "../sda", link, sizeof(link)), -1);
	assert_int_equal(slc__ata_link_from_sysfs(root, "", link, sizeof(link)), -1);
}

/* Not ATA devices: no ATA SMART (-ENOTSUP) or the open error, each with a reason. */
static void test_attach_not_ata(void **state)
{
	struct slc_probe *p = calloc(1, sizeof(*p));
	char err[256];
	(void)state;
	assert_non_null(p);
	p->fd = -1;

	snprintf(p->disk_path, sizeof(p->disk_path), "/dev/null");
	err[0] = 0;
	assert_int_equal(slc__ata_attach(p, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "/dev/null"));
	assert_null(p->ops);

	snprintf(p->disk_path, sizeof(p->disk_path), "%s/expected.txt", ATA_DIR);
	err[0] = 0;
	assert_int_equal(slc__ata_attach(p, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "no ATA SMART"));

	snprintf(p->disk_path, sizeof(p->disk_path), "%s/no-such-disk", ATA_DIR);
	err[0] = 0;
	assert_int_equal(slc__ata_attach(p, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no-such-disk"));
	assert_null(p->ops);
	assert_null(p->priv);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samsung_pm871),
		cmocka_unit_test(test_samsung_860evo),
		cmocka_unit_test(test_dramless),
		cmocka_unit_test(test_intel_530),
		cmocka_unit_test(test_hdd_4kn),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_tag),
		cmocka_unit_test(test_bad_length_duplicate_missing),
		cmocka_unit_test(test_checksums),
		cmocka_unit_test(test_no_smart_feature),
		cmocka_unit_test(test_model_decides_unit),
		cmocka_unit_test(test_intel_540_unit_unknown),
		cmocka_unit_test(test_link_from_sysfs),
		cmocka_unit_test(test_attach_not_ata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
