// SPDX-License-Identifier: MIT
/*
 * Robust statistics used throughout the analysis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"

/*
 * Partially order s so that s[k] is the k-th smallest and nothing after it
 * is smaller (quickselect, median-of-three pivot).  Expected O(n): the
 * noise estimates take medians of a million samples, where a full sort
 * would dominate the analysis time.
 */
static void select_kth(double *s, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double a = s[lo], b = s[mid], c = s[hi], piv, t;

		piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		while (i <= j) {
			while (s[i] < piv) i++;
			while (s[j] > piv) j--;
			if (i <= j) {
				t = s[i]; s[i] = s[j]; s[j] = t;
				i++;
				if (j == 0) break;
				j--;
			}
		}
		if (k <= j) hi = j;
		else if (k >= i) lo = i;
		else return;
	}
}

double slc_quantile(const double *x, size_t n, double q)
{
	double *s, h, lo, r;
	size_t i;

	if (n == 0) return NAN;
	s = malloc(n * sizeof(*s));
	if (!s) return NAN;
	memcpy(s, x, n * sizeof(*s));
	if (q <= 0) q = 0;
	if (q >= 1) q = 1;
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	select_kth(s, n, i);
	r = s[i];
	if (i + 1 < n && h > lo) {
		double next = s[i + 1];
		for (size_t j = i + 2; j < n; j++)
			if (s[j] < next) next = s[j];
		r += (h - lo) * (next - r);
	}
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
