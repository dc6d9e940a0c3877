// SPDX-License-Identifier: MIT
/* The library's own version, for programs that check it at run time. */
#include "slcscope/version.h"

const char *slc_version(void)
{
	return SLCSCOPE_VERSION_STRING;
}

unsigned slc_version_number(void)
{
	return SLCSCOPE_VERSION_NUMBER;
}
