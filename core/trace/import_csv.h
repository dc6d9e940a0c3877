/* SPDX-License-Identifier: MIT */
/*
 * The CSV importer: speed against time, or against bytes written (time
 * derived), with columns found from the header's names and units or named
 * by the options.
 */
#ifndef SLCSCOPE_TRACE_IMPORT_CSV_H
#define SLCSCOPE_TRACE_IMPORT_CSV_H

#include <stddef.h>

#include "slcscope/trace.h"

/* Parse CSV @text into @in (zeroed, source set); @opts may be NULL. */
int slc__csv_import(struct slc_input *in, const char *name, const char *text, size_t len,
		    const struct slc_import_opts *opts, char *err, size_t errlen);

/* Seconds per unit of a time column name ("time_ms"), 0 if it is not one. */
double slc__unit_time(const char *name);
/* Bytes/s per unit of a rate column name or unit ("write_MiB_s", "MB/s"): 0 not one, -1 bits. */
double slc__unit_rate(const char *name);
/* Bytes per unit of a size unit ("MiB", "GB", "bytes"), -1 for percent ("%"), 0 not one. */
double slc__unit_size(const char *unit);

#endif
