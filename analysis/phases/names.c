// SPDX-License-Identifier: MIT
/*
 * The names of cell types, drive states and the native level: one table
 * each, read both ways.
 */
#include <string.h>
#include <strings.h>

#include "phases_priv.h"

/* By cell type: its name, the native level's name and its words. */
static const struct {
	const char *name, *native, *words;
} cells[] = {
	[SLC_CELL_UNKNOWN] = { "unknown", "native", "native" },
	[SLC_CELL_SLC] = { "slc", "native_slc", "native (SLC)" },
	[SLC_CELL_MLC] = { "mlc", "native_mlc", "native (MLC)" },
	[SLC_CELL_TLC] = { "tlc", "direct_to_tlc", "direct to TLC" },
	[SLC_CELL_QLC] = { "qlc", "direct_to_qlc", "direct to QLC" },
};

static const char *const states[] = {
	[SLC_STATE_UNKNOWN] = "unknown",
	[SLC_STATE_TRIMMED] = "trimmed",
	[SLC_STATE_USED] = "used",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned cell_index(enum slc_cell c)
{
	return (unsigned)c < COUNT(cells) ? (unsigned)c : SLC_CELL_UNKNOWN;
}

const char *slc_cell_name(enum slc_cell c)
{
	return cells[cell_index(c)].name;
}

const char *slc_native_name(enum slc_cell c)
{
	return cells[cell_index(c)].native;
}

const char *slc_native_words(enum slc_cell c)
{
	return cells[cell_index(c)].words;
}

int slc_cell_from_name(const char *s)
{
	for (unsigned i = 0; s && i < COUNT(cells); i++)
		if (!strcasecmp(s, cells[i].name)) return (int)i;
	return -1;
}

const char *slc_phase_label(const struct slc_phase *p, enum slc_cell c)
{
	return p->kind == SLC_PHASE_DIRECT_TO_TLC ? slc_native_name(c) : slc_phase_kind_name(p->kind);
}

const char *slc_drive_state_name(enum slc_drive_state s)
{
	return (unsigned)s < COUNT(states) ? states[s] : states[SLC_STATE_UNKNOWN];
}

int slc_drive_state_from_name(const char *s)
{
	for (unsigned i = 0; s && i < COUNT(states); i++)
		if (!strcmp(s, states[i])) return (int)i;
	return -1;
}
