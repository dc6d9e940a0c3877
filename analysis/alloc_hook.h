// SPDX-License-Identifier: MIT
/*
 * In the test build of the analysis only (SLC_PHASES_ALLOC_HOOK, defined by
 * tests/CMakeLists.txt for test_phases_enomem), the allocations of the
 * sources that slc_analyze() runs go to functions the test defines, which
 * fail the allocation it chooses (every failure must come out as -ENOMEM)
 * and count what is not freed.  The library itself allocates with the C
 * library's functions.
 */
#ifndef SLC_ALLOC_HOOK_H
#define SLC_ALLOC_HOOK_H

#ifdef SLC_PHASES_ALLOC_HOOK
#include <stdlib.h>

void *slc__hook_malloc(size_t size);
void *slc__hook_calloc(size_t n, size_t size);
void *slc__hook_realloc(void *p, size_t size);
void slc__hook_free(void *p);
#define malloc(size) slc__hook_malloc(size)
#define calloc(n, size) slc__hook_calloc(n, size)
#define realloc(p, size) slc__hook_realloc(p, size)
#define free(p) slc__hook_free(p)
#endif

#endif
