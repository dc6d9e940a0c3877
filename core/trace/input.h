/* SPDX-License-Identifier: MIT */
/*
 * The in-memory input (struct slc_input, slcscope/trace.h) as the reader and
 * the importers fill it: per-segment sample arrays, allocated and freed here.
 */
#ifndef SLCSCOPE_TRACE_INPUT_H
#define SLCSCOPE_TRACE_INPUT_H

#include <stddef.h>

#include "slcscope/trace.h"

/* What an input may hold, imported or read from a trace alike (one table). */
#include "limits.h"

/* Allocate the per-sample arrays of @seg for @n samples (latencies and temp NAN). */
int slc__input_segment_alloc(struct slc_input_segment *seg, size_t n);

/* Free what a segment owns (not the segment itself) and zero it. */
void slc__input_segment_clear(struct slc_input_segment *seg);

/* Compute bw_bps from bytes_total and interval_s. */
void slc__input_segment_derive_bw(struct slc_input_segment *seg);

#endif
