// SPDX-License-Identifier: MIT
/* What a probe found, in words (slcscope probe): identity, then health. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "slcscope/probe.h"
#include "slcscope/units.h"

static void line_str(FILE *f, const char *k, const char *v)
{
	if (v && *v)
		fprintf(f, "  %-26s %s\n", k, v);
}

static void line_u64(FILE *f, const char *k, uint64_t v, const char *unit)
{
	if (v != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s %" PRIu64 "%s%s\n", k, v, unit ? " " : "", unit ? unit : "");
}

static void line_bytes(FILE *f, const char *k, uint64_t v)
{
	char b[32];

	if (v != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s %s (%" PRIu64 " bytes)\n", k,
		       slc_format_bytes(b, sizeof(b), (double)v, SLC_UNITS_DECIMAL), v);
}

static const char *tri(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void slc_probe_print(FILE *f, const struct slc_identity *id, const struct slc_health *h)
{
	char b[32];

	fprintf(f, "%s (%s, read through %s)\n", id->path, id->interface[0] ? id->interface : "device",
	       slc_probe_source_name(id->source));
	line_str(f, "model", id->model);
	line_str(f, "vendor", id->source == SLC_PROBE_NVME || id->source == SLC_PROBE_ATA ? NULL : id->vendor);
	line_str(f, "serial", id->serial);
	line_str(f, "firmware", id->firmware);
	line_str(f, id->source == SLC_PROBE_FILE ? "on block device" : "kernel name", id->kernel_name);
	line_str(f, "link", id->link);
	if (id->capacity_bytes && id->capacity_bytes != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s %s (%" PRIu64 " bytes)\n", "capacity",
		       slc_format_bytes(b, sizeof(b), (double)id->capacity_bytes, SLC_UNITS_DECIMAL), id->capacity_bytes);
	if (id->logical_block_bytes)
		fprintf(f, "  %-26s %u / %u bytes\n", "logical / physical block", id->logical_block_bytes,
		       id->physical_block_bytes);
	fprintf(f, "  %-26s %s\n", "rotational", tri(id->rotational));
	if (id->discard_max_bytes && id->discard_max_bytes != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s yes, granularity %" PRIu64 " bytes, up to %s per command\n", "TRIM/discard",
		       id->discard_granularity_bytes,
		       slc_format_bytes(b, sizeof(b), (double)id->discard_max_bytes, SLC_UNITS_DECIMAL));
	else if (id->source != SLC_PROBE_FILE)
		fprintf(f, "  %-26s %s\n", "TRIM/discard", id->trim_supported <= 0 ? "no" : id->kernel_name[0] ?
		       "supported by the drive, not enabled by the kernel" : "supported by the drive");
	fprintf(f, "  %-26s %s%s%s%s\n", "volatile write cache", tri(id->volatile_write_cache),
	       id->write_cache[0] ? " (kernel: " : "", id->write_cache, id->write_cache[0] ? ")" : "");
	if (id->source == SLC_PROBE_NVME) {
		fprintf(f, "  %-26s %u\n", "namespace", id->nsid);
		line_str(f, "NVMe version", id->nvme_version);
		if (id->pci_vendor)
			fprintf(f, "  %-26s 0x%04x\n", "PCI vendor", id->pci_vendor);
		fprintf(f, "  %-26s format %s, crypto erase %s; sanitize crypto %s, block %s, overwrite %s\n",
		       "erase support", tri(id->format_nvm), tri(id->crypto_erase), tri(id->sanitize_crypto),
		       tri(id->sanitize_block), tri(id->sanitize_overwrite));
		for (unsigned i = 0; i < id->n_lba_formats && i < SLC_PROBE_MAX_LBAF; i++) {
			const struct slc_lba_format *lf = &id->lba_formats[i];
			fprintf(f, "  %-26s %u + %u bytes metadata, relative performance %u%s\n", i ? "" : "LBA formats",
			       lf->data_bytes, lf->metadata_bytes, lf->rel_perf, lf->in_use ? "  (in use)" : "");
		}
	}
	fprintf(f, "health\n");
	if (!h) {
		fprintf(f, "  unreadable\n");
		return;
	}
	if (!h->has_smart) {
		fprintf(f, "  %s\n", h->no_smart_reason[0] ? h->no_smart_reason : "no SMART on this device");
		return;
	}
	line_bytes(f, "host writes", h->host_write_bytes);
	line_bytes(f, "host reads", h->host_read_bytes);
	line_u64(f, "host write commands", h->host_write_cmds, NULL);
	line_u64(f, "host read commands", h->host_read_cmds, NULL);
	if (h->nand_write_bytes != SLC_PROBE_UNKNOWN) {
		line_bytes(f, "NAND writes", h->nand_write_bytes);
		line_str(f, "  counted by", h->nand_write_source);
	} else {
		fprintf(f, "  %-26s not reported by this drive\n", "NAND writes");
	}
	if (isfinite(h->temp_c))
		fprintf(f, "  %-26s %.1f C\n", "temperature", h->temp_c);
	if (isfinite(h->warn_temp_c))
		fprintf(f, "  %-26s %.0f C\n", "warning temperature", h->warn_temp_c);
	if (isfinite(h->crit_temp_c))
		fprintf(f, "  %-26s %.0f C\n", "critical temperature", h->crit_temp_c);
	if (h->thm_transitions[0] != SLC_PROBE_UNKNOWN) {
		fprintf(f, "  %-26s", "thermal management");
		for (int k = 0; k < 2; k++) {
			/* a count or a time the drive does not report is left out, never printed as 2^64-1 */
			if (h->thm_transitions[k] != SLC_PROBE_UNKNOWN)
				fprintf(f, "%s TMT%d %" PRIu64 " times", k ? "," : "", k + 1, h->thm_transitions[k]);
			if (h->thm_transitions[k] != SLC_PROBE_UNKNOWN && h->thm_time_s[k] != SLC_PROBE_UNKNOWN)
				fprintf(f, " (%" PRIu64 " s)", h->thm_time_s[k]);
		}
		fprintf(f, "\n");
	}
	line_u64(f, "time above warning temp", h->warn_temp_time_min, "min");
	line_u64(f, "time above critical temp", h->crit_temp_time_min, "min");
	if (h->throttled >= 0)
		fprintf(f, "  %-26s %s\n", "throttled now", h->throttled ? "yes" : "no");
	line_u64(f, "percentage used", h->percentage_used, "%");
	if (h->available_spare != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s %" PRIu64 " %% (threshold %" PRIu64 " %%)\n", "available spare", h->available_spare,
		       h->available_spare_threshold);
	if (h->critical_warning != SLC_PROBE_UNKNOWN)
		fprintf(f, "  %-26s 0x%02" PRIx64 "%s\n", "critical warning", h->critical_warning,
		       h->critical_warning ? "  (ATTENTION)" : " (none)");
	line_u64(f, "power-on hours", h->power_on_hours, "h");
	line_u64(f, "power cycles", h->power_cycles, NULL);
	line_u64(f, "unsafe shutdowns", h->unsafe_shutdowns, NULL);
	line_u64(f, "media errors", h->media_errors, NULL);
	if (h->n_attrs) {
		fprintf(f, "  %-3s %-28s %5s %5s %5s %16s  %s\n", "id", "attribute", "value", "worst", "thres", "raw", "interpreted");
		for (unsigned i = 0; i < h->n_attrs && i < SLC_PROBE_MAX_ATTRS; i++) {
			const struct slc_smart_attr *a = &h->attrs[i];
			fprintf(f, "  %3u %-28s %5d %5d %5d %16" PRIu64 "  %" PRIu64 " %s%s\n", a->id, a->name, a->current,
			       a->worst, a->threshold, a->raw, a->pretty, a->pretty_unit, a->failing ? "  FAILING" : "");
		}
	}
}
