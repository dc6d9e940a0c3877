// SPDX-License-Identifier: MIT
/*
 * The robust statistics of stats.c over scratch the caller provides (@ws,
 * never overlapping @x): the analysis takes thousands of medians, and
 * with an allocation each every one of them could fail and turn into a
 * NAN that changes the answer instead of an error.
 */
#ifndef SLC_STATS_PRIV_H
#define SLC_STATS_PRIV_H

#include <stddef.h>

/* slc_quantile(); @ws holds @n values */
double slc__quantile_ws(const double *x, size_t n, double q, double *ws);
/* slc_mad_sigma(); @ws holds 2 @n values */
double slc__mad_sigma_ws(const double *x, size_t n, double *ws);
/* slc_diff_sigma(); @ws holds 3 @n values */
double slc__diff_sigma_ws(const double *x, size_t n, double *ws);

#endif
