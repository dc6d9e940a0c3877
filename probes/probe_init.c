// SPDX-License-Identifier: MIT
/*
 * Initial values and names of the probes API (slcscope/probe.h): every field
 * unknown until a backend fills it.
 */
#include <math.h>
#include <string.h>

#include "probe_priv.h"

void slc_identity_init(struct slc_identity *id)
{
	memset(id, 0, sizeof(*id));
	id->source = SLC_PROBE_SYSFS;
	id->capacity_bytes = SLC_PROBE_UNKNOWN;
	id->rotational = -1;
	id->discard_granularity_bytes = SLC_PROBE_UNKNOWN;
	id->discard_max_bytes = SLC_PROBE_UNKNOWN;
	id->volatile_write_cache = -1;
	id->format_nvm = -1;
	id->crypto_erase = -1;
	id->sanitize_crypto = -1;
	id->sanitize_block = -1;
	id->sanitize_overwrite = -1;
	id->trim_supported = -1;
}

void slc_health_init(struct slc_health *h)
{
	memset(h, 0, sizeof(*h));
	h->has_smart = 0;
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

const char *slc_probe_source_name(enum slc_probe_source s)
{
	switch (s) {
	case SLC_PROBE_SYSFS: return "sysfs";
	case SLC_PROBE_NVME: return "nvme";
	case SLC_PROBE_ATA: return "ata";
	case SLC_PROBE_SIM: return "sim";
	case SLC_PROBE_FILE: return "file";
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
