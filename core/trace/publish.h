/* SPDX-License-Identifier: MIT */
/*
 * Writing a file through a temporary name beside it, so that a failure or a
 * crash never leaves a half-written file under the final name.
 */
#ifndef SLCSCOPE_TRACE_PUBLISH_H
#define SLCSCOPE_TRACE_PUBLISH_H

#include <stddef.h>

/* A temporary file name beside @path (caller frees); NULL on ENOMEM. */
char *slc__tmp_name_beside(const char *path);

/*
 * Finish a write through a temporary file: when @rc is 0, fsync @tmp and
 * rename it to @path; on any failure remove @tmp.  Returns the final rc.
 */
int slc__publish_tmp(const char *tmp, const char *path, int rc, char *err, size_t errlen);

#endif
