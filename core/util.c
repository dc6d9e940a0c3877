// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>

#include "private.h"

int slc_errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}
