// SPDX-License-Identifier: MIT
/* slcscope probe: what a drive is and how healthy it is.  Never writes. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slcscope/core.h"
#include "slcscope/probe.h"

static void probe_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope probe DEVICE|FILE|sim:MODEL [--json]\n"
		"       slcscope probe --ata-blob FILE [--json]\n"
		"\n"
		"Print what the drive is (model, serial, firmware, capacity, block sizes, LBA\n"
		"formats, interface and link, rotational, TRIM granularity, volatile write\n"
		"cache, Format/Sanitize support) and its SMART/health state (data written\n"
		"and read, temperature and thresholds, thermal throttling counters, wear,\n"
		"spare, critical warnings; ATA attributes by name).  NVMe drives are read\n"
		"through libnvme, SATA drives through libatasmart; loop, virtio and other\n"
		"devices, and regular files, show what sysfs knows and \"no SMART\".  A\n"
		"simulated drive reports its model's counters (host and NAND writes,\n"
		"temperature).  The device is opened read-only; nothing is written.\n"
		"Reading SMART needs root on most systems.\n"
		"\n"
		"Options:\n"
		"  --json        one JSON document (schema slcscope.probe/1, docs/probes.md)\n"
		"  --ata-blob FILE  decode a saved libatasmart blob (IDENTIFY and SMART data,\n"
		"                as 'skdump --save=FILE /dev/sdX' writes it) instead of a device\n"
		"  -h, --help    show this help\n"
		"\n"
		"Exit status: 0 success (also without SMART), 1 the device cannot be opened or\n"
		"an admin command failed, 2 usage.\n");
}

static void line_str(const char *k, const char *v)
{
	if (v && *v)
		printf("  %-26s %s\n", k, v);
}

static void line_u64(const char *k, uint64_t v, const char *unit)
{
	if (v != SLC_PROBE_UNKNOWN)
		printf("  %-26s %" PRIu64 "%s%s\n", k, v, unit ? " " : "", unit ? unit : "");
}

static void line_bytes(const char *k, uint64_t v)
{
	char b[32];

	if (v != SLC_PROBE_UNKNOWN)
		printf("  %-26s %s (%" PRIu64 " bytes)\n", k,
		       slc_format_bytes(b, sizeof(b), (double)v, SLC_UNITS_DECIMAL), v);
}

static const char *tri(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static void print_text(const struct slc_identity *id, const struct slc_health *h)
{
	char b[32];

	printf("%s (%s, read through %s)\n", id->path, id->interface[0] ? id->interface : "device",
	       slc_probe_source_name(id->source));
	line_str("model", id->model);
	line_str("vendor", id->source == SLC_PROBE_NVME || id->source == SLC_PROBE_ATA ? NULL : id->vendor);
	line_str("serial", id->serial);
	line_str("firmware", id->firmware);
	line_str(id->source == SLC_PROBE_FILE ? "on block device" : "kernel name", id->kernel_name);
	line_str("link", id->link);
	if (id->capacity_bytes && id->capacity_bytes != SLC_PROBE_UNKNOWN)
		printf("  %-26s %s (%" PRIu64 " bytes)\n", "capacity",
		       slc_format_bytes(b, sizeof(b), (double)id->capacity_bytes, SLC_UNITS_DECIMAL), id->capacity_bytes);
	if (id->logical_block_bytes)
		printf("  %-26s %u / %u bytes\n", "logical / physical block", id->logical_block_bytes,
		       id->physical_block_bytes);
	printf("  %-26s %s\n", "rotational", tri(id->rotational));
	if (id->discard_max_bytes && id->discard_max_bytes != SLC_PROBE_UNKNOWN)
		printf("  %-26s yes, granularity %" PRIu64 " bytes, up to %s per command\n", "TRIM/discard",
		       id->discard_granularity_bytes,
		       slc_format_bytes(b, sizeof(b), (double)id->discard_max_bytes, SLC_UNITS_DECIMAL));
	else if (id->source != SLC_PROBE_FILE)
		printf("  %-26s %s\n", "TRIM/discard", id->trim_supported <= 0 ? "no" : id->kernel_name[0] ?
		       "supported by the drive, not enabled by the kernel" : "supported by the drive");
	printf("  %-26s %s%s%s%s\n", "volatile write cache", tri(id->volatile_write_cache),
	       id->write_cache[0] ? " (kernel: " : "", id->write_cache, id->write_cache[0] ? ")" : "");
	if (id->source == SLC_PROBE_NVME) {
		printf("  %-26s %u\n", "namespace", id->nsid);
		line_str("NVMe version", id->nvme_version);
		if (id->pci_vendor)
			printf("  %-26s 0x%04x\n", "PCI vendor", id->pci_vendor);
		printf("  %-26s format %s, crypto erase %s; sanitize crypto %s, block %s, overwrite %s\n",
		       "erase support", tri(id->format_nvm), tri(id->crypto_erase), tri(id->sanitize_crypto),
		       tri(id->sanitize_block), tri(id->sanitize_overwrite));
		for (unsigned i = 0; i < id->n_lba_formats && i < SLC_PROBE_MAX_LBAF; i++) {
			const struct slc_lba_format *f = &id->lba_formats[i];
			printf("  %-26s %u + %u bytes metadata, relative performance %u%s\n", i ? "" : "LBA formats",
			       f->data_bytes, f->metadata_bytes, f->rel_perf, f->in_use ? "  (in use)" : "");
		}
	}
	printf("health\n");
	if (!h) {
		printf("  unreadable\n");
		return;
	}
	if (!h->has_smart) {
		printf("  %s\n", h->no_smart_reason[0] ? h->no_smart_reason : "no SMART on this device");
		return;
	}
	line_bytes("host writes", h->host_write_bytes);
	line_bytes("host reads", h->host_read_bytes);
	line_u64("host write commands", h->host_write_cmds, NULL);
	line_u64("host read commands", h->host_read_cmds, NULL);
	if (h->nand_write_bytes != SLC_PROBE_UNKNOWN) {
		line_bytes("NAND writes", h->nand_write_bytes);
		line_str("  counted by", h->nand_write_source);
	} else {
		printf("  %-26s not reported by this drive\n", "NAND writes");
	}
	if (isfinite(h->temp_c))
		printf("  %-26s %.1f C\n", "temperature", h->temp_c);
	if (isfinite(h->warn_temp_c))
		printf("  %-26s %.0f C\n", "warning temperature", h->warn_temp_c);
	if (isfinite(h->crit_temp_c))
		printf("  %-26s %.0f C\n", "critical temperature", h->crit_temp_c);
	if (h->thm_transitions[0] != SLC_PROBE_UNKNOWN)
		printf("  %-26s TMT1 %" PRIu64 " times (%" PRIu64 " s), TMT2 %" PRIu64 " times (%" PRIu64 " s)\n",
		       "thermal management", h->thm_transitions[0], h->thm_time_s[0], h->thm_transitions[1], h->thm_time_s[1]);
	line_u64("time above warning temp", h->warn_temp_time_min, "min");
	line_u64("time above critical temp", h->crit_temp_time_min, "min");
	if (h->throttled >= 0)
		printf("  %-26s %s\n", "throttled now", h->throttled ? "yes" : "no");
	line_u64("percentage used", h->percentage_used, "%");
	if (h->available_spare != SLC_PROBE_UNKNOWN)
		printf("  %-26s %" PRIu64 " %% (threshold %" PRIu64 " %%)\n", "available spare", h->available_spare,
		       h->available_spare_threshold);
	if (h->critical_warning != SLC_PROBE_UNKNOWN)
		printf("  %-26s 0x%02" PRIx64 "%s\n", "critical warning", h->critical_warning,
		       h->critical_warning ? "  (ATTENTION)" : " (none)");
	line_u64("power-on hours", h->power_on_hours, "h");
	line_u64("power cycles", h->power_cycles, NULL);
	line_u64("unsafe shutdowns", h->unsafe_shutdowns, NULL);
	line_u64("media errors", h->media_errors, NULL);
	if (h->n_attrs) {
		printf("  %-3s %-28s %5s %5s %5s %16s  %s\n", "id", "attribute", "value", "worst", "thres", "raw", "interpreted");
		for (unsigned i = 0; i < h->n_attrs && i < SLC_PROBE_MAX_ATTRS; i++) {
			const struct slc_smart_attr *a = &h->attrs[i];
			printf("  %3u %-28s %5d %5d %5d %16" PRIu64 "  %" PRIu64 " %s%s\n", a->id, a->name, a->current,
			       a->worst, a->threshold, a->raw, a->pretty, a->pretty_unit, a->failing ? "  FAILING" : "");
		}
	}
}

static int probe_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ata-blob", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *blob = NULL;
	struct slc_probe *p = NULL;
	struct slc_sim *sim = NULL;
	struct slc_health h;
	char err[512];
	const char *dev;
	int c, json = 0, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'b')
			blob = optarg;
		else
			return cli_usage("probe", "unknown option '%s'", argv[optind - 1]);
	}
	if (blob) {
		struct slc_identity id;
		struct slc_health bh;
		FILE *f;
		unsigned char *buf;
		long n;
		if (optind != argc)
			return cli_usage("probe", "--ata-blob takes the place of DEVICE");
		if (!(f = fopen(blob, "rb")))
			return cli_fail("probe", "%s: %s", blob, strerror(errno));
		if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1 << 20) || fseek(f, 0, SEEK_SET)) {
			fclose(f);
			return cli_fail("probe", "%s: not a libatasmart blob (unreadable, or over 1 MiB)", blob);
		}
		buf = malloc(n ? (size_t)n : 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			fclose(f);
			return cli_fail("probe", "%s: cannot read", blob);
		}
		fclose(f);
		rc = slc_ata_decode_blob(buf, (size_t)n, &id, &bh, err, sizeof(err));
		free(buf);
		if (rc)
			return cli_fail("probe", "%s: %s", blob, err);
		snprintf(id.path, sizeof(id.path), "%s", blob);
		if (json) {
			char *s = slc_probe_json(&id, &bh);
			if (s) printf("%s\n", s);
			free(s);
		} else {
			print_text(&id, &bh);
		}
		return CLI_OK;
	}
	if (optind != argc - 1)
		return cli_usage("probe", "give exactly one DEVICE, FILE or sim:MODEL");
	dev = argv[optind];
	if (!strncmp(dev, "sim:", 4)) {
		struct slc_sim_model m;
		if ((rc = slc_sim_model_load(&m, dev, err, sizeof(err))))
			return cli_fail("probe", "%s", err);
		if ((rc = slc_sim_open(&sim, &m, 1, err, sizeof(err))))
			return cli_fail("probe", "%s", err);
		rc = slc_probe_open_sim(&p, sim, dev, err, sizeof(err));
	} else {
		rc = slc_probe_open(&p, dev, err, sizeof(err));
	}
	if (rc) {
		slc_sim_close(sim);
		return cli_fail("probe", "%s", err);
	}
	rc = slc_probe_health(p, &h, err, sizeof(err));
	if (json) {
		char *s = slc_probe_json(slc_probe_identity(p), rc ? NULL : &h);
		if (s) {
			printf("%s\n", s);
			free(s);
		}
	} else {
		print_text(slc_probe_identity(p), rc ? NULL : &h);
	}
	slc_probe_close(p);
	slc_sim_close(sim);
	if (rc)
		return cli_fail("probe", "SMART/health: %s", err);
	return CLI_OK;
}

const struct cli_cmd cli_cmd_probe = {
	.name = "probe",
	.summary = "drive identity and SMART/health (NVMe, SATA, sysfs, simulated)",
	.run = probe_run,
	.help = probe_help,
};
