/* SPDX-License-Identifier: MIT */
/*
 * fio's JSON output with --status-interval: one document per report, each
 * with the bytes every job has written so far; read as a curve per job and
 * summed on the reports' grid.
 */
#ifndef SLCSCOPE_TRACE_IMPORT_JSON_H
#define SLCSCOPE_TRACE_IMPORT_JSON_H

#include <stddef.h>

#include "slcscope/trace.h"

/* Does @text start like fio's JSON output? */
int slc__fio_json_detect(const char *text, size_t len);

/* Parse it into @in (zeroed, source set). */
int slc__fio_json_import(struct slc_input *in, const char *name, const char *text, size_t len, char *err,
			 size_t errlen);

#endif
