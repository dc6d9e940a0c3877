/* SPDX-License-Identifier: MIT */
/*
 * slcscope analysis library (public header).
 *
 * Pure functions over arrays: no globals, no I/O.  Nothing here includes
 * core internals; inputs are plain arrays of samples.
 */
#ifndef SLCSCOPE_ANALYSIS_H
#define SLCSCOPE_ANALYSIS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * slc_quantile() - the q-quantile (0 <= q <= 1) of @n values, linear
 * interpolation between order statistics (type 7, as numpy and R default).
 * @x is not modified.  Returns NAN when @n is 0.
 */
double slc_quantile(const double *x, size_t n, double q);

/** slc_median() - slc_quantile(x, n, 0.5). */
double slc_median(const double *x, size_t n);

/**
 * slc_mad_sigma() - robust noise scale: the median absolute deviation from
 * the median, times 1.4826 so that it estimates the standard deviation of
 * normal data.  Returns NAN when @n is 0.
 */
double slc_mad_sigma(const double *x, size_t n);

/**
 * slc_diff_sigma() - robust noise scale of a series with level shifts: MAD
 * of the first differences divided by sqrt(2), so that steps between phases
 * do not inflate it.  Returns NAN when @n < 2.
 */
double slc_diff_sigma(const double *x, size_t n);

#ifdef __cplusplus
}
#endif
#endif
