// SPDX-License-Identifier: MIT
/*
 * Stand-in slc_health_init() / slc_identity_init() for building the ATA
 * backend and its tests before the dispatcher (probe.c) exists.  CMake
 * compiles this file only while probes/probe.c is absent; delete it once the
 * dispatcher provides the real ones.
 */
#include <math.h>
#include <string.h>

#include "probe_priv.h"

#ifndef SLCSCOPE_HAVE_PROBE_DISPATCHER

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

void slc_identity_init(struct slc_identity *id)
{
	memset(id, 0, sizeof(*id));
	id->capacity_bytes = SLC_PROBE_UNKNOWN;
	id->rotational = -1;
	id->volatile_write_cache = -1;
	id->trim_supported = -1;
}

const char *slc_purge_kind_name(enum slc_purge_kind k)
{
	switch (k) {
	case SLC_PURGE_SANITIZE_CRYPTO: return "sanitize-crypto";
	case SLC_PURGE_SANITIZE_BLOCK: return "sanitize-block";
	case SLC_PURGE_FORMAT_CRYPTO: return "format-crypto";
	case SLC_PURGE_FORMAT_USER: return "format-user";
	case SLC_PURGE_TRIM: return "trim";
	default: return "none";
	}
}

#endif
