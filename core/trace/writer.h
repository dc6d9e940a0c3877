/* SPDX-License-Identifier: MIT */
/*
 * What the writer offers inside the library beyond slc_trace_* (slcscope/
 * trace.h): the parts of a trace that a run never writes but a copy of a
 * loaded input does (export.c's slc_input_write_trace()).
 */
#ifndef SLCSCOPE_TRACE_WRITER_H
#define SLCSCOPE_TRACE_WRITER_H

#include <stddef.h>

#include "slcscope/trace.h"

/* A string attribute on the root of the writer's file; 0 or -EIO. */
int slc__trace_put_root_str(struct slc_trace *t, const char *name, const char *value);

/* Store @json_text as /analysis/@name of the writer's file (as slc_trace_store_json() does). */
int slc__trace_put_json(struct slc_trace *t, const char *name, const char *json_text, char *err, size_t errlen);

/* slc_trace_snapshot() with the segment index given (-1: none). */
int slc__trace_snapshot_at(struct slc_trace *t, const char *kind, long segment, double t_s, const char *json_text);

#endif
