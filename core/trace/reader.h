/* SPDX-License-Identifier: MIT */
/* The HDF5 trace reader behind slc_input_load() (load.c). */
#ifndef SLCSCOPE_TRACE_READER_H
#define SLCSCOPE_TRACE_READER_H

#include <stddef.h>

#include "slcscope/trace.h"

/*
 * Fill @in (zeroed, with its source set) from the trace at @path.  On
 * failure @in may hold part of the trace: the caller frees it with
 * slc_input_free().
 */
int slc__trace_load_hdf5(struct slc_input *in, const char *path, char *err, size_t errlen);

#endif
