/* SPDX-License-Identifier: MIT */
/*
 * The sample columns of a trace: one table that the writer, the reader, the
 * in-memory input and the exporters walk, so a column is named, typed and
 * placed in one line.  No HDF5 here: the importers and exporters use it too.
 */
#ifndef SLCSCOPE_TRACE_COLUMNS_H
#define SLCSCOPE_TRACE_COLUMNS_H

#include <stddef.h>

/* One sample column: dataset name, unit attribute, type, place in the structs. */
struct slc__trace_col {
	const char *name;
	const char *units;
	int is_u64;
	int required;           /* the reader refuses a segment without it */
	int reads_apart;        /* reads counted apart: written only for segments that read
				 * (or sweep points), absent in older traces */
	size_t sample_off;      /* offsetof(struct slc_sample, ...) */
	size_t input_off;       /* offsetof(struct slc_input_segment, ...) */
};

/* Number of entries of slc__trace_cols[] (columns.c checks it at compile time). */
#define SLC__TRACE_NCOLS 19

extern const struct slc__trace_col slc__trace_cols[];

#endif
