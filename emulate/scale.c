// SPDX-License-Identifier: MIT
/*
 * Models for the emulator: a drive shrunk by a size scale, so that every
 * phase needs that share of the bytes and of the time (docs/emulate.md,
 * "Time and size scales").
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "slcscope/emulate.h"
#include "slcscope/units.h"

int slc_emu_capacity_scale(const struct slc_sim_model *m, uint64_t capacity_bytes, double *size_scale,
			   char *err, size_t errlen)
{
	if (capacity_bytes > m->capacity_bytes)
		return slc_errf(err, errlen, -ERANGE, "larger than the model's %" PRIu64 " bytes", m->capacity_bytes);
	*size_scale = (double)capacity_bytes / (double)m->capacity_bytes;
	return 0;
}

int slc_emu_scale_model(struct slc_sim_model *m, double s, char *err, size_t errlen)
{
	uint64_t grain = m->unit_bytes > 1048576 ? m->unit_bytes : 1048576, blocks;
	double spare;

	if (!(s > 0) || s > 1)
		return slc_errf(err, errlen, -EINVAL, "size scale must be above 0 and at most 1");
	if (s == 1)
		return 0;
	spare = (double)m->raw_bytes / (double)m->capacity_bytes;
	m->capacity_bytes = (uint64_t)((double)m->capacity_bytes * s) / grain * grain;
	if (m->capacity_bytes < grain)
		return slc_errf(err, errlen, -EINVAL, "size scale %g leaves less than %" PRIu64 " bytes", s, grain);
	/* the flash keeps the same share of spare, in whole erase blocks */
	blocks = (uint64_t)ceil((double)m->capacity_bytes * spare / (double)m->block_bytes);
	m->raw_bytes = blocks * m->block_bytes;
	m->slc_static_bytes = (uint64_t)((double)m->slc_static_bytes * s) / m->unit_bytes * m->unit_bytes;
	m->slc_dynamic_max_bytes = (uint64_t)((double)m->slc_dynamic_max_bytes * s);
	m->slc_fast_tier_bytes = (uint64_t)((double)m->slc_fast_tier_bytes * s);
	m->idle_gc_target_bytes = (uint64_t)((double)m->idle_gc_target_bytes * s);
	if (m->map_cache_entries) {
		m->map_cache_entries = (uint64_t)((double)m->map_cache_entries * s);
		if (m->map_cache_entries < 1024)
			m->map_cache_entries = 1024;
	}
	if (blocks < 16)
		return slc_errf(err, errlen, -EINVAL, "size scale %g leaves %" PRIu64 " erase blocks of %" PRIu64
			    " bytes; the model needs at least 16 (use a larger scale)", s, blocks, m->block_bytes);
	return 0;
}
