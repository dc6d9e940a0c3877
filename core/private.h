/* SPDX-License-Identifier: MIT */
/* Helpers shared by the core library's sources; not installed. */
#ifndef SLCSCOPE_CORE_PRIVATE_H
#define SLCSCOPE_CORE_PRIVATE_H

#include "slcscope/units.h"      /* slc_errf() */

#endif
