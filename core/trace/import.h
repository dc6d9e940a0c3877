/* SPDX-License-Identifier: MIT */
/* The fio log and CSV importers behind slc_input_load() (load.c). */
#ifndef SLCSCOPE_TRACE_IMPORT_H
#define SLCSCOPE_TRACE_IMPORT_H

#include <stddef.h>

#include "slcscope/trace.h"

/*
 * Fill @in (zeroed, with its source set) from the fio log or CSV at @path;
 * a fio log NAME_bw.N.log brings in its numbered siblings.  On failure the
 * caller frees @in with slc_input_free().
 */
int slc__import_load_file(struct slc_input *in, const char *path, const struct slc_import_opts *opts,
			  char *err, size_t errlen);

#endif
