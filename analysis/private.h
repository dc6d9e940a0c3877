/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the analysis sources; not part of the public API.
 */
#ifndef SLCSCOPE_ANALYSIS_PRIVATE_H
#define SLCSCOPE_ANALYSIS_PRIVATE_H

#include <stddef.h>

/* qsort() comparator for doubles, ascending. */
int slc_cmp_double(const void *a, const void *b);

/* Type-7 quantile of an already sorted array of n >= 1 values. */
double slc_sorted_quantile(const double *s, size_t n, double q);

#endif
