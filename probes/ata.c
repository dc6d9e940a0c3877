// SPDX-License-Identifier: MIT
/*
 * ATA backend of the probes: identity and SMART of SATA drives (and ATA
 * drives behind a SCSI/ATA translation layer) through libatasmart.
 *
 * libatasmart reads IDENTIFY DEVICE, SMART READ DATA and SMART READ
 * THRESHOLDS and names the attributes; it parses IDENTIFY only into model,
 * serial and firmware.  The other IDENTIFY words (sector sizes, TRIM,
 * rotation rate, write cache, SATA speed) are decoded here from the raw
 * 512-byte IDENTIFY data, which libatasmart hands out inside its blob
 * (sk_disk_get_blob).  Word numbers follow ACS-3 (T13/2161-D), 7.12.7
 * "IDENTIFY DEVICE data".  docs/probes-ata.md says where every field comes
 * from, and which vendor attributes are interpreted and on what authority.
 *
 * The blob is a sequence of records: a 4-byte tag ("IDFY", "SMST", "SMDT",
 * "SMTH" as bytes in that order), a 4-byte big-endian payload length, the
 * payload (512 bytes of IDENTIFY / SMART data / SMART thresholds, or a
 * 4-byte big-endian SMART RETURN STATUS result, 1 = good).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atasmart.h>

#include "probe_priv.h"
#include "slcscope/units.h"

#define ATA_SECTOR 512u
#define ID_WORDS 256u
#define BLOB_PAGE 512u

/* Unit multipliers of vendor counters. */
#define U_LBA 512ull
#define U_32MIB (32ull << 20)
#define U_GIB (1ull << 30)

struct ata_priv {
	SkDisk *disk;
	char model[41];
	uint32_t logical_bytes;              /* from IDENTIFY */
};

/* ---------------------------------------------------------------- errors */

/* the reason only; the callers return their own code */
#define seterr(err, errlen, ...) ((void)slc_errf((err), (errlen), 0, __VA_ARGS__))

/* libatasmart sometimes stores a negated errno (sk_disk_set_blob: -ENODATA). */
static int neg_errno(int fallback)
{
	int e = errno;
	if (e < 0)
		e = -e;
	return e ? -e : -fallback;
}

/* ------------------------------------------------------------- the blob */

enum rec { REC_IDFY, REC_SMST, REC_SMDT, REC_SMTH, REC_N };
static const char rec_tag[REC_N][5] = {"IDFY", "SMST", "SMDT", "SMTH"};
static const uint32_t rec_len[REC_N] = {BLOB_PAGE, 4, BLOB_PAGE, BLOB_PAGE};

struct blob_view {
	const uint8_t *rec[REC_N];         /* payloads, NULL when absent */
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * Check a blob record by record, as strictly as libatasmart (every length
 * exact, no record twice, IDENTIFY present) and more: an unknown tag is an
 * error here, where libatasmart would skip it silently.
 */
static int blob_split(const uint8_t *b, size_t len, struct blob_view *v, char *err, size_t errlen)
{
	size_t off = 0;
	memset(v, 0, sizeof(*v));
	if (len == 0) {
		seterr(err, errlen, "ATA blob is empty");
		return -EINVAL;
	}
	while (off < len) {
		unsigned k;
		uint32_t n;
		if (len - off < 8) {
			seterr(err, errlen, "ATA blob truncated: %zu byte(s) at offset %zu, a record header needs 8",
			       len - off, off);
			return -EINVAL;
		}
		for (k = 0; k < REC_N; k++)
			if (memcmp(b + off, rec_tag[k], 4) == 0)
				break;
		if (k == REC_N) {
			char t[5];
			for (unsigned i = 0; i < 4; i++)
				t[i] = (b[off + i] >= 0x20 && b[off + i] < 0x7f) ? (char)b[off + i] : '?';
			t[4] = 0;
			seterr(err, errlen, "ATA blob: unknown record tag \"%s\" at offset %zu", t, off);
			return -EINVAL;
		}
		n = be32(b + off + 4);
		if (n != rec_len[k]) {
			seterr(err, errlen, "ATA blob: record %s at offset %zu has length %u, expected %u", rec_tag[k], off,
			       n, rec_len[k]);
			return -EINVAL;
		}
		if (len - off - 8 < n) {
			seterr(err, errlen, "ATA blob truncated: record %s at offset %zu needs %u bytes, %zu left",
			       rec_tag[k], off, n, len - off - 8);
			return -EINVAL;
		}
		if (v->rec[k]) {
			seterr(err, errlen, "ATA blob: record %s appears twice", rec_tag[k]);
			return -EINVAL;
		}
		v->rec[k] = b + off + 8;
		off += 8 + (size_t)n;
	}
	if (!v->rec[REC_IDFY]) {
		seterr(err, errlen, "ATA blob has no IDENTIFY (IDFY) record");
		return -EINVAL;
	}
	return 0;
}

/* Sum of the 512 bytes modulo 256: 0 for a valid SMART page / IDENTIFY. */
static unsigned page_sum(const uint8_t *p)
{
	unsigned s = 0;
	for (unsigned i = 0; i < BLOB_PAGE; i++)
		s += p[i];
	return s & 0xff;
}

/* ----------------------------------------------------- IDENTIFY words */

static uint16_t idw(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

/* Words 82..87 are valid when word 83 (and 86/87 likewise) has bits 15:14 = 01b. */
static int cmdset_valid(const uint8_t *id)
{
	return (idw(id, 83) & 0xc000) == 0x4000;
}

static const char *sata_speed(unsigned code)
{
	switch (code) {
	case 1: return "1.5 Gb/s";
	case 2: return "3.0 Gb/s";
	case 3: return "6.0 Gb/s";
	default: return NULL;
	}
}

/* Word 76 is 0000h or FFFFh on devices that are not Serial ATA. */
static int is_sata(const uint8_t *id)
{
	uint16_t w76 = idw(id, 76);
	return w76 != 0 && w76 != 0xffff;
}

/*
 * The ATA fields of @id from raw IDENTIFY DEVICE data.  Only what the data
 * states is set; the rest is left as it is (the dispatcher's sysfs facts or
 * unknown).
 */
static void decode_identify(const uint8_t *id, struct slc_identity *out)
{
	uint16_t w106 = idw(id, 106), w217 = idw(id, 217), w169 = idw(id, 169);
	uint32_t lsize = ATA_SECTOR, psize;
	uint64_t sectors;

	/* Logical sector size: words 117-118 (in words) when word 106 bit 12 says so. */
	if ((w106 & 0xc000) == 0x4000 && (w106 & (1u << 12))) {
		uint32_t words = (uint32_t)idw(id, 117) | (uint32_t)idw(id, 118) << 16;
		if (words >= 256 && words <= (1u << 20))
			lsize = words * 2;
	}
	out->logical_block_bytes = lsize;
	/* Physical sector: 2^(word 106 bits 3:0) logical sectors when bit 13 is set. */
	psize = lsize;
	if ((w106 & 0xc000) == 0x4000 && (w106 & (1u << 13)))
		psize = lsize << (w106 & 0xf);
	out->physical_block_bytes = psize;

	/* Capacity: words 230-233 (ACS-3, word 69 bit 3), else 100-103 (48-bit, word 83 bit 10), else 60-61. */
	sectors = 0;
	if (idw(id, 69) & (1u << 3))
		for (int w = 233; w >= 230; w--)
			sectors = sectors << 16 | idw(id, (unsigned)w);
	if (sectors == 0 && cmdset_valid(id) && (idw(id, 83) & (1u << 10)))
		for (int w = 103; w >= 100; w--)
			sectors = sectors << 16 | idw(id, (unsigned)w);
	if (sectors == 0)
		sectors = (uint64_t)idw(id, 60) | (uint64_t)idw(id, 61) << 16;
	if (sectors)
		out->capacity_bytes = sectors * lsize;

	/* TRIM: word 169 bit 0 (DATA SET MANAGEMENT with TRIM). */
	if (w169 != 0xffff)
		out->trim_supported = (w169 & 1) ? 1 : 0;

	/* Nominal media rotation rate, word 217: 1 = non-rotating, 0401h..FFFEh rpm. */
	if (w217 == 1)
		out->rotational = 0;
	else if (w217 >= 0x0401 && w217 <= 0xfffe)
		out->rotational = 1;

	/* Volatile write cache: supported word 82 bit 5, enabled word 85 bit 5. */
	if (cmdset_valid(id)) {
		if (!(idw(id, 82) & (1u << 5)))
			out->volatile_write_cache = 0;
		else
			out->volatile_write_cache = (idw(id, 85) & (1u << 5)) ? 1 : 0;
	}

	/* Current negotiated SATA speed: word 77 bits 3:1. */
	if (is_sata(id)) {
		const char *s = sata_speed((idw(id, 77) >> 1) & 7);
		if (s && out->link[0] == 0)
			snprintf(out->link, sizeof(out->link), "SATA %s", s);
	}
}

/*
 * "SATA 6.0 Gb/s" from <root>/class/ata_link/linkN/sata_spd when the disk's
 * device (<root>/block/<kname>/device) sits on port ataN.  Not static so
 * that the tests can point it at a canned tree; no header declares it.
 */
int slc__ata_link_from_sysfs(const char *root, const char *kname, char *buf, size_t len);
int slc__ata_link_from_sysfs(const char *root, const char *kname, char *buf, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], spd[16];
	const char *s;
	unsigned port = 0;
	FILE *f;
	int found = 0;

	if (!kname || !kname[0] || strchr(kname, '/') || strlen(kname) > 64 || strlen(root) > 1024)
		return -1;
	snprintf(path, sizeof(path), "%.1024s/block/%.64s/device", root, kname);
	if (!realpath(path, real))
		return -1;
	for (s = real; (s = strstr(s, "/ata")) != NULL; s += 4) {
		char *end;
		unsigned long n = strtoul(s + 4, &end, 10);
		if (end != s + 4 && *end == '/') {
			port = (unsigned)n;
			found = 1;
		}
	}
	if (!found)
		return -1;
	snprintf(path, sizeof(path), "%.1024s/class/ata_link/link%u/sata_spd", root, port);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(spd, sizeof(spd), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	spd[strcspn(spd, "\n")] = 0;
	if (strcmp(spd, "1.5 Gb/s") && strcmp(spd, "3.0 Gb/s") && strcmp(spd, "6.0 Gb/s"))
		return -1;                 /* "<unknown>": link down or not negotiated */
	snprintf(buf, len, "SATA %s", spd);
	return 0;
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

/* ---------------------------------------------- vendor attribute tables */

/*
 * Attribute meanings that differ between vendors, keyed by attribute id and
 * an extended regular expression on the IDENTIFY model string.  Sources:
 * smartmontools' drive database (drivedb.h) entries named in
 * docs/probes-ata.md.  The first matching row wins.
 */

/* Host writes/reads: which attributes and in what unit. */
struct host_unit {
	const char *model_re;
	uint8_t write_id, read_id;         /* 0: none */
	uint64_t unit;                     /* bytes per count; 0 = unknown unit */
};

static const struct host_unit host_units[] = {
	/* Intel 540s / Pro 5400s: the database names no 241/242 for them: unit unknown. */
	{"^INTEL SSDSC[2K]K[WF](120H|180H|240H|360H|480H|010X)6", 241, 242, 0},
	/* Intel 320/330/335/520/525/53x/545s, 730, DC S3xx0/S4x00: Host_Writes_32MiB / Host_Reads_32MiB. */
	{"^INTEL SSD", 241, 242, U_32MIB},
	/* Phison-based Kingston (UV300, KC310, KC400, V310, HyperX Savage): Lifetime_Writes_GiB. */
	{"^KINGSTON (SUV300|SKC310|SKC400|SV310|SHSS)", 241, 242, U_GIB},
	/* Marvell-based SanDisk (Ultra II, Ultra Plus, Extreme II/Pro): Total_Writes_GiB. */
	{"^SanDisk (SDSSDHII|Ultra II |SDSSDHP|SDSSDXP)", 241, 242, U_GIB},
	/* Silicon Motion based Transcend SSD370/MTS400..., Crucial BX100/BX200: Host_Writes_32MiB. */
	{"^(TS[0-9]+G(SSD|MSA|MTS)|CT[0-9]+BX[12]00SSD1)", 241, 242, U_32MIB},
	/* Crucial/Micron MX/M500/M550/1100/1300: 246 Total_LBAs_Written, no read counter. */
	{"^(CT[0-9]+(MX[0-9]+|M5[05]0)SSD|Micron_|MTFDDA)", 246, 0, U_LBA},
	/* OCZ/Toshiba Trion: 241 "Host_Writes", unit not documented. */
	{"^(OCZ-TRION|TOSHIBA-TR150)", 241, 0, 0},
	/* Everything else (Samsung included): the default Total_LBAs_Written / Total_LBAs_Read. */
	{"", 241, 242, U_LBA},
};

/* NAND (flash) writes: vendor counters with a known unit. */
struct nand_unit {
	const char *model_re;
	uint8_t id;
	uint64_t unit;
	const char *source;
};

static const struct nand_unit nand_units[] = {
	/* NAND_Writes_1GiB: Intel 330/335/520/525/53x/540s/545s, DC S3110, Pro 5400s. */
	{"^INTEL SSD", 249, U_GIB, "ATA attribute 249 (GiB)"},
	/* NAND_Writes_32MiB: Intel DC S3510/S3520/S3610/S3710, S4500/S4600. */
	{"^INTEL SSD", 243, U_32MIB, "ATA attribute 243 (32 MiB)"},
	/* NAND_Writes_1GiB: Samsung OEM PM871 (MZ7LN, MZNLN) and CM871a (MZ7TY, MZNTY). */
	{"^SAMSUNG MZ(7LN|NLN|7TY|NTY)", 249, U_GIB, "ATA attribute 249 (GiB)"},
	{"^KINGSTON (SUV300|SKC310|SKC400|SV310|SHSS)", 233, U_GIB, "ATA attribute 233 (GiB)"}, /* Flash_Writes_GiB */
	{"^SanDisk (SDSSDHII|Ultra II |SDSSDHP|SDSSDXP)", 233, U_GIB, "ATA attribute 233 (GiB)"}, /* Total_NAND_Writes_GiB */
};

/* Wear as percentage used. */
enum wear_how { WEAR_100_MINUS_NORMALIZED, WEAR_RAW_PERCENT };
struct wear_attr {
	const char *model_re;
	uint8_t id;
	enum wear_how how;
};

static const struct wear_attr wear_attrs[] = {
	/* Samsung Wear_Leveling_Count: normalized 100 (new) down to 0. */
	{"^(Samsung SSD|SAMSUNG MZ)", 177, WEAR_100_MINUS_NORMALIZED},
	/* Intel Media_Wearout_Indicator: normalized 100 down to 1 as erase cycles reach the rating. */
	{"^INTEL SSD", 233, WEAR_100_MINUS_NORMALIZED},
	/* Crucial/Micron Percent_Lifetime_Remain: raw = percent of lifetime used. */
	{"^(CT[0-9]+(MX[0-9]+|M5[05]0)SSD|Micron_|MTFDDA)", 202, WEAR_RAW_PERCENT},
};

static int model_matches(const char *re, const char *model)
{
	regex_t r;
	int ok;
	if (!re[0])
		return 1;
	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
		return 0;
	ok = regexec(&r, model, 0, NULL, 0) == 0;
	regfree(&r);
	return ok;
}

static const struct slc_smart_attr *find_attr(const struct slc_health *h, uint8_t id)
{
	for (unsigned i = 0; i < h->n_attrs; i++)
		if (h->attrs[i].id == id)
			return &h->attrs[i];
	return NULL;
}

static uint64_t mul_or_unknown(uint64_t count, uint64_t unit)
{
	if (unit == 0 || count > UINT64_MAX / unit)
		return SLC_PROBE_UNKNOWN;
	return count * unit;
}

/* ------------------------------------------------------------ attributes */

static const char *unit_name(SkSmartAttributeUnit u)
{
	switch (u) {
	case SK_SMART_ATTRIBUTE_UNIT_NONE: return "none";
	case SK_SMART_ATTRIBUTE_UNIT_MSECONDS: return "ms";
	case SK_SMART_ATTRIBUTE_UNIT_SECTORS: return "sectors";
	case SK_SMART_ATTRIBUTE_UNIT_MKELVIN: return "mK";
	case SK_SMART_ATTRIBUTE_UNIT_SMALL_PERCENT: return "%/1000";
	case SK_SMART_ATTRIBUTE_UNIT_PERCENT: return "%";
	case SK_SMART_ATTRIBUTE_UNIT_MB: return "MB";
	default: return "unknown";
	}
}

static void attr_cb(SkDisk *d, const SkSmartAttributeParsedData *a, void *userdata)
{
	struct slc_health *h = userdata;
	struct slc_smart_attr *o;
	(void)d;
	if (h->n_attrs >= SLC_PROBE_MAX_ATTRS)
		return;
	o = &h->attrs[h->n_attrs++];
	memset(o, 0, sizeof(*o));
	o->id = a->id;
	copy_str(o->name, sizeof(o->name), a->name);
	o->current = a->current_value_valid ? a->current_value : -1;
	o->worst = a->worst_value_valid ? a->worst_value : -1;
	o->threshold = a->threshold_valid ? a->threshold : -1;
	o->raw = 0;
	for (int i = 5; i >= 0; i--)
		o->raw = o->raw << 8 | a->raw[i];
	o->pretty = a->pretty_value;
	copy_str(o->pretty_unit, sizeof(o->pretty_unit), unit_name(a->pretty_unit));
	o->prefailure = a->prefailure ? 1 : 0;
	o->failing = (a->good_now_valid && !a->good_now) ? 1 : 0;
}

/* Temperature in C from attribute 194, else 190, as libatasmart decoded it (mK). */
static double temp_from_attrs(const struct slc_health *h)
{
	static const uint8_t ids[] = {194, 190};
	for (unsigned k = 0; k < sizeof(ids); k++) {
		const struct slc_smart_attr *a = find_attr(h, ids[k]);
		if (a && strcmp(a->pretty_unit, "mK") == 0)
			return ((double)a->pretty - 273150.0) / 1000.0;
	}
	return NAN;
}

/*
 * Everything in @h that SMART data says, from a disk whose SMART data
 * libatasmart holds (read from the drive or set from a blob).
 */
static int fill_health(SkDisk *d, const char *model, uint32_t logical_bytes, struct slc_health *h, char *err,
		       size_t errlen)
{
	const struct slc_smart_attr *a;
	uint64_t v;

	h->n_attrs = 0;
	if (sk_disk_smart_parse_attributes(d, attr_cb, h) < 0) {
		int e = neg_errno(EIO);
		seterr(err, errlen, "parsing SMART attributes failed: %s", strerror(-e));
		return e;
	}
	h->has_smart = 1;
	h->no_smart_reason[0] = 0;

	/*
	 * Host writes and reads.  "LBAs" are 512 bytes on 512-byte-sector
	 * drives; on drives with other logical sector sizes no source says
	 * whether vendors count logical sectors or 512-byte units: unknown.
	 */
	for (size_t i = 0; i < sizeof(host_units) / sizeof(host_units[0]); i++) {
		const struct host_unit *u = &host_units[i];
		uint64_t unit = u->unit;
		if (!model_matches(u->model_re, model))
			continue;
		if (unit == U_LBA && logical_bytes != ATA_SECTOR)
			unit = 0;
		if (u->write_id && (a = find_attr(h, u->write_id)))
			h->host_write_bytes = mul_or_unknown(a->raw, unit);
		if (u->read_id && (a = find_attr(h, u->read_id)))
			h->host_read_bytes = mul_or_unknown(a->raw, unit);
		break;
	}

	/* NAND writes. */
	for (size_t i = 0; i < sizeof(nand_units) / sizeof(nand_units[0]); i++) {
		const struct nand_unit *u = &nand_units[i];
		if (!(a = find_attr(h, u->id)) || !model_matches(u->model_re, model))
			continue;
		h->nand_write_bytes = mul_or_unknown(a->raw, u->unit);
		copy_str(h->nand_write_source, sizeof(h->nand_write_source), u->source);
		break;
	}

	/* Wear. */
	for (size_t i = 0; i < sizeof(wear_attrs) / sizeof(wear_attrs[0]); i++) {
		const struct wear_attr *w = &wear_attrs[i];
		if (!(a = find_attr(h, w->id)) || !model_matches(w->model_re, model))
			continue;
		if (w->how == WEAR_RAW_PERCENT && a->raw <= 1000)
			h->percentage_used = a->raw;
		else if (w->how == WEAR_100_MINUS_NORMALIZED && a->current >= 0 && a->current <= 100)
			h->percentage_used = (uint64_t)(100 - a->current);
		break;
	}

	h->temp_c = temp_from_attrs(h);

	if (sk_disk_smart_get_power_on(d, &v) == 0)
		h->power_on_hours = v / 3600000ull;
	if (sk_disk_smart_get_power_cycle(d, &v) == 0)
		h->power_cycles = v;

	/* Unsafe shutdowns: 174 Unexpect_Power_Loss_Ct, Samsung 235 POR_Recovery_Count, else 192. */
	if ((a = find_attr(h, 174)))
		h->unsafe_shutdowns = a->raw;
	else if ((a = find_attr(h, 235)) && model_matches("^(Samsung SSD|SAMSUNG MZ)", model))
		h->unsafe_shutdowns = a->raw;
	else if ((a = find_attr(h, 192)))
		h->unsafe_shutdowns = a->raw;

	/* 187 Reported_Uncorrect: errors the drive could not correct. */
	if ((a = find_attr(h, 187)))
		h->media_errors = a->raw;
	return 0;
}

/* SMART availability from IDENTIFY: word 82 bit 0 supported, word 85 bit 0 enabled. */
static const char *smart_absent_reason(const uint8_t *id)
{
	if (!cmdset_valid(id) || !(idw(id, 82) & 1))
		return "the drive does not support the SMART feature set (IDENTIFY word 82 bit 0)";
	return NULL;
}

/* ------------------------------------------------------------ the blob API */

int slc_ata_decode_blob(const void *blob, size_t len, struct slc_identity *id, struct slc_health *h,
			char *err, size_t errlen)
{
	struct blob_view v;
	const SkIdentifyParsedData *ipd;
	SkDisk *d = NULL;
	void *copy;
	int rc;

	if (!blob && len) {
		seterr(err, errlen, "ATA blob is NULL");
		return -EINVAL;
	}
	if ((rc = blob_split(blob, len, &v, err, errlen)) < 0)
		return rc;
	/* Integrity word 255: signature A5h in bits 7:0, then the sum of all 512 bytes is 0. */
	if (v.rec[REC_IDFY][510] == 0xa5 && page_sum(v.rec[REC_IDFY]) != 0) {
		seterr(err, errlen, "ATA blob: IDENTIFY checksum mismatch (word 255)");
		return -EINVAL;
	}
	if (v.rec[REC_SMDT] && page_sum(v.rec[REC_SMDT]) != 0) {
		seterr(err, errlen, "ATA blob: SMART data checksum mismatch (byte 511)");
		return -EINVAL;
	}
	if (v.rec[REC_SMTH] && page_sum(v.rec[REC_SMTH]) != 0) {
		seterr(err, errlen, "ATA blob: SMART thresholds checksum mismatch (byte 511)");
		return -EINVAL;
	}

	if (sk_disk_open(NULL, &d) < 0) {
		rc = neg_errno(ENOMEM);
		seterr(err, errlen, "libatasmart: cannot create a blob disk: %s", strerror(-rc));
		return rc;
	}
	/* An aligned private copy: libatasmart walks the blob as 32-bit words. */
	if (!(copy = malloc(len))) {
		sk_disk_free(d);
		seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(copy, blob, len);
	rc = sk_disk_set_blob(d, copy, len);
	free(copy);
	if (rc < 0) {
		rc = neg_errno(EINVAL);
		seterr(err, errlen, "libatasmart rejected the blob: %s", strerror(-rc));
		goto out;
	}
	if (sk_disk_identify_parse(d, &ipd) < 0) {
		rc = neg_errno(EINVAL);
		seterr(err, errlen, "libatasmart: cannot parse IDENTIFY from the blob: %s", strerror(-rc));
		goto out;
	}

	if (id) {
		slc_identity_init(id);
		id->source = SLC_PROBE_ATA;
		copy_str(id->interface, sizeof(id->interface), is_sata(v.rec[REC_IDFY]) ? "sata" : "ata");
		copy_str(id->model, sizeof(id->model), ipd->model);
		copy_str(id->serial, sizeof(id->serial), ipd->serial);
		copy_str(id->firmware, sizeof(id->firmware), ipd->firmware);
		decode_identify(v.rec[REC_IDFY], id);
	}
	if (h) {
		const char *why = smart_absent_reason(v.rec[REC_IDFY]);
		slc_health_init(h);
		if (why) {
			copy_str(h->no_smart_reason, sizeof(h->no_smart_reason), why);
		} else if (!v.rec[REC_SMDT]) {
			copy_str(h->no_smart_reason, sizeof(h->no_smart_reason), "the blob holds no SMART data (SMDT) record");
		} else {
			struct slc_identity *tmp = calloc(1, sizeof(*tmp));
			if (!tmp) {
				seterr(err, errlen, "out of memory");
				rc = -ENOMEM;
				goto out;
			}
			decode_identify(v.rec[REC_IDFY], tmp);
			rc = fill_health(d, ipd->model, tmp->logical_block_bytes, h, err, errlen);
			free(tmp);
			if (rc < 0)
				goto out;
		}
	}
	rc = 0;
out:
	sk_disk_free(d);
	return rc;
}

/* ------------------------------------------------------------ the device */

static struct ata_priv *priv_of(const struct slc_probe *p)
{
	return p->priv;
}

static int ata_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	struct ata_priv *a = priv_of(p);
	SkBool avail = 0;
	int rc;

	slc_health_init(h);
	if (sk_disk_smart_is_available(a->disk, &avail) < 0 || !avail) {
		copy_str(h->no_smart_reason, sizeof(h->no_smart_reason),
			 "the drive does not support the SMART feature set (IDENTIFY word 82 bit 0)");
		return 0;
	}
	if (sk_disk_smart_read_data(a->disk) < 0) {
		rc = neg_errno(EIO);
		seterr(err, errlen, "%s: SMART READ DATA failed: %s", p->disk_path, strerror(-rc));
		return rc;
	}
	return fill_health(a->disk, a->model, a->logical_bytes, h, err, errlen);
}

static int ata_temperature(struct slc_probe *p, double *c)
{
	struct ata_priv *a = priv_of(p);
	struct slc_health *h;
	SkBool avail = 0;
	double t;

	if (sk_disk_smart_is_available(a->disk, &avail) < 0 || !avail)
		return -ENODATA;
	if (sk_disk_smart_read_data(a->disk) < 0)
		return neg_errno(EIO);
	/* Attribute 194 / 190 only: libatasmart's own helper also takes 231, SSD life left on many SSDs. */
	if (!(h = calloc(1, sizeof(*h))))
		return -ENOMEM;
	if (sk_disk_smart_parse_attributes(a->disk, attr_cb, h) < 0) {
		free(h);
		return neg_errno(EIO);
	}
	t = temp_from_attrs(h);
	free(h);
	if (isnan(t))
		return -ENODATA;
	*c = t;
	return 0;
}

static enum slc_purge_kind ata_purge_method(const struct slc_probe *p)
{
	(void)p;
	return SLC_PURGE_TRIM;
}

static int ata_purge(struct slc_probe *p, enum slc_purge_kind kind, char *err, size_t errlen)
{
	if (kind == SLC_PURGE_TRIM)
		seterr(err, errlen, "%s: a whole-device TRIM is issued by the caller, not by the ATA backend",
		       p->disk_path);
	else
		seterr(err, errlen, "%s: %s is not offered for ATA drives (no ATA Security Erase or Sanitize); use TRIM",
		       p->disk_path, slc_purge_kind_name(kind));
	return -ENOTSUP;
}

static void ata_close(struct slc_probe *p)
{
	struct ata_priv *a = priv_of(p);
	if (!a)
		return;
	if (a->disk)
		sk_disk_free(a->disk);
	free(a);
	p->priv = NULL;
}

/* The whole disk's kernel name: the last component of disk_path with links resolved ("sda"). */
static const char *disk_name(const struct slc_probe *p, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *slash;
	if (!realpath(p->disk_path, real))
		return p->id.kernel_name;
	slash = strrchr(real, '/');
	slash = slash ? slash + 1 : real;
	if (strlen(slash) >= len)
		return p->id.kernel_name;
	memcpy(buf, slash, strlen(slash) + 1);
	return buf;
}

static const struct slc_probe_ops ata_ops = {
	.health = ata_health,
	.temperature = ata_temperature,
	.purge_method = ata_purge_method,
	.purge = ata_purge,
	.close = ata_close,
};

int slc__ata_attach(struct slc_probe *p, char *err, size_t errlen)
{
	SkDisk *d = NULL;
	SkBool avail = 0;
	const SkIdentifyParsedData *ipd;
	const void *blob;
	size_t blen;
	struct blob_view v;
	struct ata_priv *a;
	uint64_t size;
	char link[64], kname[128];
	int rc;

	if (!p->disk_path[0]) {
		seterr(err, errlen, "no disk path to probe");
		return -EINVAL;
	}
	if (sk_disk_open(p->disk_path, &d) < 0) {
		rc = neg_errno(EIO);
		if (rc == -ENODEV) {
			seterr(err, errlen, "%s: not a block device: no ATA SMART", p->disk_path);
			return -ENOTSUP;
		}
		seterr(err, errlen, "%s: cannot open for ATA commands: %s%s", p->disk_path, strerror(-rc),
		       rc == -EACCES ? " (needs root or the disk group)" : "");
		return rc;
	}
	if (sk_disk_identify_is_available(d, &avail) < 0 || !avail) {
		sk_disk_free(d);
		seterr(err, errlen, "%s: no ATA SMART: the device does not answer ATA IDENTIFY DEVICE "
		       "(not ATA, or no SCSI/ATA translation)", p->disk_path);
		return -ENOTSUP;
	}
	if (sk_disk_identify_parse(d, &ipd) < 0) {
		rc = neg_errno(EIO);
		sk_disk_free(d);
		seterr(err, errlen, "%s: cannot parse IDENTIFY DEVICE data: %s", p->disk_path, strerror(-rc));
		return rc;
	}
	/* The raw IDENTIFY words come out of libatasmart's blob. */
	if (sk_disk_get_blob(d, &blob, &blen) < 0 || blob_split(blob, blen, &v, NULL, 0) < 0) {
		rc = neg_errno(EIO);
		sk_disk_free(d);
		seterr(err, errlen, "%s: cannot get the IDENTIFY data from libatasmart: %s", p->disk_path,
		       strerror(-rc));
		return rc;
	}
	if (!(a = calloc(1, sizeof(*a)))) {
		sk_disk_free(d);
		seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	a->disk = d;
	copy_str(a->model, sizeof(a->model), ipd->model);

	p->id.source = SLC_PROBE_ATA;
	if (!p->id.interface[0])
		copy_str(p->id.interface, sizeof(p->id.interface), is_sata(v.rec[REC_IDFY]) ? "sata" : "ata");
	copy_str(p->id.model, sizeof(p->id.model), ipd->model);
	copy_str(p->id.serial, sizeof(p->id.serial), ipd->serial);
	copy_str(p->id.firmware, sizeof(p->id.firmware), ipd->firmware);
	if (slc__ata_link_from_sysfs("/sys", disk_name(p, kname, sizeof(kname)), link, sizeof(link)) == 0)
		copy_str(p->id.link, sizeof(p->id.link), link);
	decode_identify(v.rec[REC_IDFY], &p->id);
	a->logical_bytes = p->id.logical_block_bytes;
	/* The size the kernel gives the block device (BLKGETSIZE64), if it answers. */
	if (sk_disk_get_size(d, &size) == 0 && size > 0 && size != UINT64_MAX)
		p->id.capacity_bytes = size;

	p->priv = a;
	p->ops = &ata_ops;
	return 0;
}

int slc_ata_decode_file(const char *path, struct slc_identity *id, struct slc_health *h, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	char why[256];
	long n;
	int rc;

	if (!f)
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1 << 20) || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return slc_errf(err, errlen, -EINVAL, "%s: not a libatasmart blob (unreadable, or over 1 MiB)", path);
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return slc_errf(err, errlen, -EIO, "%s: cannot read", path);
	}
	fclose(f);
	rc = slc_ata_decode_blob(buf, (size_t)n, id, h, why, sizeof(why));
	free(buf);
	if (rc)
		return slc_errf(err, errlen, rc, "%s: %s", path, why);
	snprintf(id->path, sizeof(id->path), "%s", path);
	return 0;
}
