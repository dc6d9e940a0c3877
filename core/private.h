/* SPDX-License-Identifier: MIT */
/* Helpers shared by the core library's sources; not installed. */
#ifndef SLCSCOPE_CORE_PRIVATE_H
#define SLCSCOPE_CORE_PRIVATE_H

#include <stddef.h>

/*
 * slc_errf() - write a one-line reason into @err (when not NULL) and return
 * @rc, for "return slc_errf(err, errlen, -EINVAL, "...", ...);".
 */
int slc_errf(char *err, size_t errlen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
