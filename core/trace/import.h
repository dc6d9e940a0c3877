/* SPDX-License-Identifier: MIT */
/* The importers behind slc_input_load() and slc_input_load_many() (load.c). */
#ifndef SLCSCOPE_TRACE_IMPORT_H
#define SLCSCOPE_TRACE_IMPORT_H

#include <stddef.h>

#include "slcscope/trace.h"

/*
 * Fill @in (zeroed, with its source set) from the file at @path in any
 * importable format; a fio log NAME_bw.N.log brings in its numbered
 * siblings.  On failure the caller frees @in with slc_input_free().
 */
int slc__import_load_file(struct slc_input *in, const char *path, const struct slc_import_opts *opts,
			  char *err, size_t errlen);

/*
 * Fill @out (zeroed, source set) with the sum of @n imports, each one
 * segment from time 0, on the shortest of their sampling intervals.
 */
int slc__import_sum(struct slc_input *out, struct slc_input *const *parts, size_t n, char *err, size_t errlen);

/*
 * Is @other a file that loading @input reads too: both fio logs of one job
 * family (NAME_bw.N.log, NAME_iops.N.log) in one directory?
 */
int slc__import_reads_too(const char *input, const char *other);
/* Are @a and @b logs of one fio run, each read with all of it (one family,
 * and the same run of job numbers)? */
int slc__import_same_run(const char *a, const char *b);

#endif
