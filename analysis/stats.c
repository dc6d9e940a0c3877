// SPDX-License-Identifier: MIT
/*
 * Robust statistics used throughout the analysis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"
#include "alloc_hook.h"
#include "stats_priv.h"

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

double slc__quantile_ws(const double *x, size_t n, double q, double *ws)
{
	double h, lo, r;
	size_t i;

	if (n == 0) return NAN;
	memcpy(ws, x, n * sizeof(*ws));
	if (q <= 0) q = 0;
	if (q >= 1) q = 1;
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	select_kth(ws, n, i);
	r = ws[i];
	if (i + 1 < n && h > lo) {
		double next = ws[i + 1];
		for (size_t j = i + 2; j < n; j++)
			if (ws[j] < next) next = ws[j];
		r += (h - lo) * (next - r);
	}
	return r;
}

double slc_quantile(const double *x, size_t n, double q)
{
	double *ws, r;

	if (n == 0) return NAN;
	ws = malloc(n * sizeof(*ws));
	if (!ws) return NAN;
	r = slc__quantile_ws(x, n, q, ws);
	free(ws);
	return r;
}

double slc_median(const double *x, size_t n)
{
	return slc_quantile(x, n, 0.5);
}

double slc__mad_sigma_ws(const double *x, size_t n, double *ws)
{
	double med;

	if (n == 0) return NAN;
	med = slc__quantile_ws(x, n, 0.5, ws + n);
	for (size_t i = 0; i < n; i++) ws[i] = fabs(x[i] - med);
	return 1.4826 * slc__quantile_ws(ws, n, 0.5, ws + n);
}

double slc_mad_sigma(const double *x, size_t n)
{
	double *ws, r;

	if (n == 0) return NAN;
	ws = malloc(2 * n * sizeof(*ws));
	if (!ws) return NAN;
	r = slc__mad_sigma_ws(x, n, ws);
	free(ws);
	return r;
}

double slc__diff_sigma_ws(const double *x, size_t n, double *ws)
{
	if (n < 2) return NAN;
	for (size_t i = 0; i + 1 < n; i++) ws[i] = x[i + 1] - x[i];
	return slc__mad_sigma_ws(ws, n - 1, ws + n - 1) / sqrt(2.0);
}

double slc_diff_sigma(const double *x, size_t n)
{
	double *ws, r;

	if (n < 2) return NAN;
	ws = malloc(3 * n * sizeof(*ws));
	if (!ws) return NAN;
	r = slc__diff_sigma_ws(x, n, ws);
	free(ws);
	return r;
}
