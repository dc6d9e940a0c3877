// SPDX-License-Identifier: MIT
/* A simulated drive's model in words (slcscope sim show). */
#include <inttypes.h>
#include <stdio.h>

#include "slcscope/sim.h"
#include "slcscope/units.h"

void slc_sim_model_describe(FILE *f, const struct slc_sim_model *m)
{
	char a[32], b[32], c[32];
	double spare;
	uint64_t units, slots;

	units = m->capacity_bytes / m->unit_bytes;
	slots = m->raw_bytes / m->block_bytes * (m->block_bytes / m->unit_bytes);
	spare = (double)(m->raw_bytes - m->capacity_bytes) / (double)m->capacity_bytes * 100;
	fprintf(f, "model        %s\n", m->name);
	fprintf(f, "description  %s\n", m->description);
	fprintf(f, "interface    %s\n", m->interface[0] ? m->interface : "-");
	fprintf(f, "capacity     %s (%" PRIu64 " bytes)\n", slc_format_bytes(a, sizeof(a), (double)m->capacity_bytes, SLC_UNITS_DECIMAL), m->capacity_bytes);
	fprintf(f, "flash        %s raw, %u bits per cell, %.1f%% spare, erase blocks of %s\n",
	       slc_format_bytes(a, sizeof(a), (double)m->raw_bytes, SLC_UNITS_BINARY), m->bits_per_cell, spare,
	       slc_format_bytes(b, sizeof(b), (double)m->block_bytes, SLC_UNITS_BINARY));
	fprintf(f, "mapping      %u-byte units, %s of tables\n", m->unit_bytes,
	       slc_format_bytes(c, sizeof(c), (double)(units + slots) * 4, SLC_UNITS_BINARY));
	fprintf(f, "controller   %.0f IOPS per command, link %s, %.0f us a command beside that\n", m->max_iops,
	       slc_format_rate(a, sizeof(a), m->link_bps, SLC_UNITS_DECIMAL), m->latency_ns / 1e3);
	if (m->duplex_penalty > 0)
		fprintf(f, "duplex       a command that turns from reads to writes or back takes %.1fx its controller time\n",
			1 + m->duplex_penalty);
	fprintf(f, "dies         %u channels x %u dies, %s pages: program %.0f us (SLC %.0f us), read %.0f us (SLC %.0f us), channels %s\n",
	       m->channels, m->dies_per_channel, slc_format_bytes(b, sizeof(b), (double)m->page_bytes, SLC_UNITS_BINARY),
	       m->prog_native_ns / 1e3, m->prog_slc_ns / 1e3, m->read_native_ns / 1e3, m->read_slc_ns / 1e3,
	       slc_format_rate(c, sizeof(c), m->channel_bps, SLC_UNITS_DECIMAL));
	if (m->slc_static_bytes || m->slc_dynamic_max_bytes) {
		fprintf(f, "SLC cache    static %s, dynamic up to %s (%.0f%% of unwritten space), %s; when full: %s\n",
		       slc_format_bytes(a, sizeof(a), (double)m->slc_static_bytes, SLC_UNITS_DECIMAL),
		       slc_format_bytes(b, sizeof(b), (double)m->slc_dynamic_max_bytes, SLC_UNITS_DECIMAL),
		       m->slc_dynamic_free_ratio * 100,
		       slc_format_rate(c, sizeof(c), m->slc_static_bps, SLC_UNITS_DECIMAL),
		       m->when_full == SLC_SIM_FULL_FOLD ? "fold" : "write direct to native");
	} else {
		fprintf(f, "SLC cache    none\n");
	}
	fprintf(f, "native       %s program, GC copies %s, idle folding %s\n",
	       slc_format_rate(a, sizeof(a), m->native_bps, SLC_UNITS_DECIMAL),
	       slc_format_rate(b, sizeof(b), m->gc_copy_bps, SLC_UNITS_DECIMAL),
	       slc_format_rate(c, sizeof(c), m->fold_idle_bps, SLC_UNITS_DECIMAL));
	fprintf(f, "idle GC      %s\n", m->idle_gc ? slc_format_bytes(a, sizeof(a), (double)m->idle_gc_target_bytes, SLC_UNITS_DECIMAL) : "no");
	fprintf(f, "DRAM         %s\n", m->map_cache_entries ? "none (small mapping cache)" : "full mapping table");
	fprintf(f, "thermal      %s\n", m->thermal_enabled ? "modelled" : "not modelled");
	fprintf(f, "compression  %s\n", m->compression ? "yes" : "no");
}
