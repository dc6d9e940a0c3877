/* SPDX-License-Identifier: MIT */
/*
 * Records people keep of a fill done with dd or a file copy: sysstat's
 * iostat text output (-d or -x), /proc/diskstats snapshots with a time
 * prefix, and dd status=progress lines.
 */
#ifndef SLCSCOPE_TRACE_IMPORT_SYS_H
#define SLCSCOPE_TRACE_IMPORT_SYS_H

#include <stddef.h>

#include "slcscope/trace.h"

/* SLC_INPUT_IOSTAT, _DISKSTATS or _DD when @text looks like one, else 0. */
enum slc_input_format slc__sys_detect(const char *text, size_t len);

/* Parse @text of kind @kind into @in (zeroed, source set); @opts may be NULL. */
int slc__sys_import(struct slc_input *in, enum slc_input_format kind, const char *name, const char *text,
		    size_t len, const struct slc_import_opts *opts, char *err, size_t errlen);

#endif
