// SPDX-License-Identifier: MIT
/*
 * Robust statistics used throughout the analysis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile of an already sorted array. */
static double sorted_quantile(const double *s, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (q <= 0) return s[0];
	if (q >= 1) return s[n - 1];
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n) return s[n - 1];
	return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

double slc_quantile(const double *x, size_t n, double q)
{
	double *s, r;

	if (n == 0) return NAN;
	s = malloc(n * sizeof(*s));
	if (!s) return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	r = sorted_quantile(s, n, q);
	free(s);
	return r;
}

double slc_median(const double *x, size_t n)
{
	return slc_quantile(x, n, 0.5);
}

double slc_mad_sigma(const double *x, size_t n)
{
	double *d, med, r;

	if (n == 0) return NAN;
	d = malloc(n * sizeof(*d));
	if (!d) return NAN;
	med = slc_median(x, n);
	for (size_t i = 0; i < n; i++) d[i] = fabs(x[i] - med);
	r = 1.4826 * slc_median(d, n);
	free(d);
	return r;
}

double slc_diff_sigma(const double *x, size_t n)
{
	double *d, r;

	if (n < 2) return NAN;
	d = malloc((n - 1) * sizeof(*d));
	if (!d) return NAN;
	for (size_t i = 0; i + 1 < n; i++) d[i] = x[i + 1] - x[i];
	r = slc_mad_sigma(d, n - 1) / sqrt(2.0);
	free(d);
	return r;
}
