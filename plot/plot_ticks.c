// SPDX-License-Identifier: MIT
/*
 * Axis ticks.  A tick value is computed as k * q / 10^d, with q / 10^d the
 * step written as an integer over a power of ten (both exact in a double),
 * never by adding the step up: the value is then the double nearest its
 * decimal label, so the label reads back as the value and a long axis
 * gathers no rounding error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_ticks.h"

/* a tick this close to a bound (in steps) is on it */
#define ON_BOUND 1e-6
/* a label that reads back this close (relative) is exact */
#define EXACT 1e-9

/* The powers of ten a double holds exactly. */
static const double p10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
				1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* m x 10^e, correctly rounded for the exponents a double's powers of ten cover. */
static double scaled(double m, int e)
{
	if (e >= 0 && e <= 22) return m * p10[e];
	if (e < 0 && e >= -22) return m / p10[-e];
	return m * pow(10, e);
}

/* The fewest decimals (up to 16) that write @step exactly; -1 for none. */
static int step_decimals(double step)
{
	for (int d = 0; d <= 16; d++) {
		double x = step * p10[d];
		if (x >= 0.5 && fabs(x - nearbyint(x)) <= EXACT * x) return d;
	}
	return -1;
}

/* The multiples k0..k1 of @step into @at (at most @max); their count. */
static size_t gen(double k0, double k1, double step, double *at, size_t max)
{
	int d = step_decimals(step);
	double q = d > 0 ? nearbyint(step * p10[d]) : step;
	size_t n = 0;

	if (!isfinite(k0) || !isfinite(k1) || k1 - k0 > 1e6)
		return 0;
	for (double k = k0; k <= k1 && n < max; k++) {
		double v = d > 0 ? k * q / p10[d] : k * step;
		at[n++] = v == 0 ? 0 : v;       /* never "-0" */
	}
	return n;
}

size_t slc__ticks_at(double lo, double hi, double step, double *at, size_t max)
{
	if (!(step > 0) || !isfinite(step) || !isfinite(lo) || !isfinite(hi))
		return 0;
	return gen(ceil(lo / step - ON_BOUND), floor(hi / step + ON_BOUND), step, at, max);
}

/*
 * A range worth ticking: finite, in order, and wide enough for labels of a
 * sensible length (a zero-width range gets 10% either side of its value).
 */
static void window(double *lo, double *hi)
{
	double a = *lo, b = *hi, mag, mid;

	if (!isfinite(a) && !isfinite(b)) { a = 0; b = 1; }
	else if (!isfinite(a)) a = b;
	else if (!isfinite(b)) b = a;
	if (a > b) { double t = a; a = b; b = t; }
	if (!isfinite(b - a)) { a = 0; b = 1; }
	mag = fmax(fabs(a), fabs(b));
	if (b - a <= mag * EXACT || b - a < 1e-300) {
		mid = a / 2 + b / 2;
		if (mid == 0 || fabs(mid) < 1e-300) { a = 0; b = 1; }
		else { a = mid - fabs(mid) * 0.1; b = mid + fabs(mid) * 0.1; }
	}
	*lo = a;
	*hi = b;
}

/* The first and last multiple of @s inside [@lo, @hi], or around it for @span. */
static void bounds(double lo, double hi, double s, int span, double *k0, double *k1)
{
	*k0 = span ? floor(lo / s + ON_BOUND) : ceil(lo / s - ON_BOUND);
	*k1 = span ? ceil(hi / s - ON_BOUND) : floor(hi / s + ON_BOUND);
}

/*
 * The step for about @want ticks over [@lo, @hi]: of the steps 1, 2, 2.5
 * and 5 x 10^k giving 4 to 10 ticks, the one nearest @want; the larger on a
 * tie.  2.5 x 10^k below 10 needs one decimal more than 2 or 5 x 10^k do
 * ("0.25" beside "0.2", "7.5" beside "5"), so it counts as two ticks off
 * @want more than it is: taken only when it fits clearly better.  25, 250
 * ... cost nothing extra.
 */
static double choose(double lo, double hi, int want, size_t max, int span)
{
	static const double mant[4] = { 1, 2, 2.5, 5 };
	double best = 1, best_score = INFINITY;
	int e0 = (int)floor(log10(hi - lo)) - 2;

	for (int e = e0 + 3; e >= e0; e--)
		for (int i = 3; i >= 0; i--) {
			double s = scaled(mant[i], e), k0, k1, n, score;
			bounds(lo, hi, s, span, &k0, &k1);
			n = k1 - k0 + 1;
			score = fabs(n - want);
			if (n < SLC_TICKS_MIN) score += 100 * (SLC_TICKS_MIN - n);
			if (n > SLC_TICKS_MAX || n > (double)max) score += 100 * (n - fmin(SLC_TICKS_MAX, (double)max));
			if (i == 2 && e <= 0) score += 2;
			if (score < best_score) { best_score = score; best = s; }
		}
	return best;
}

static size_t ticks(double lo, double hi, int want, double *at, size_t max, double *step, int span)
{
	double s, k0, k1;

	window(&lo, &hi);
	if (want < SLC_TICKS_MIN) want = SLC_TICKS_MIN;
	if (want > SLC_TICKS_MAX) want = SLC_TICKS_MAX;
	s = choose(lo, hi, want, max, span);
	if (step) *step = s;
	bounds(lo, hi, s, span, &k0, &k1);
	return gen(k0, k1, s, at, max);
}

size_t slc__ticks(double lo, double hi, int want, double *at, size_t max, double *step)
{
	return ticks(lo, hi, want, at, max, step, 0);
}

size_t slc__ticks_span(double lo, double hi, int want, double *at, size_t max, double *step)
{
	return ticks(lo, hi, want, at, max, step, 1);
}

void slc__tick_label(char *buf, size_t len, double v, double step)
{
	if (!(step > 0) || !isfinite(step) || !isfinite(v)) {
		slc__num_label(buf, len, v);
		return;
	}
	if (fabs(v) < step * ON_BOUND) v = 0;
	/* beyond 10^15 fixed notation is a row of digits no reader counts */
	if (fabs(v) < 1e15 && step_decimals(step) >= 0) {
		snprintf(buf, len, "%.*f", step_decimals(step), v);
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (fabs(strtod(buf, NULL) - v) <= EXACT * fmax(fabs(v), step)) return;
	}
}

void slc__num_label(char *buf, size_t len, double v)
{
	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "%g", v == 0 ? 0.0 : v);
		return;
	}
	for (int d = 0; d <= 9; d++) {
		snprintf(buf, len, "%.*f", d, v);
		if (fabs(strtod(buf, NULL) - v) <= EXACT * fabs(v)) return;
	}
	snprintf(buf, len, "%.15g", v);
}

/* "10" and the superscript of @e: 10⁻⁴. */
static void power_label(char *buf, size_t len, double m, int e)
{
	static const char *const sup[10] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
	char digits[16], out[64] = "";
	size_t o = 0;

	if (m != 1) {
		slc__num_label(out, sizeof(out), m);
		strcat(out, "×");
	}
	strcat(out, "10");
	o = strlen(out);
	if (e < 0) o += (size_t)snprintf(out + o, sizeof(out) - o, "⁻");
	snprintf(digits, sizeof(digits), "%d", abs(e));
	for (const char *p = digits; *p && o < sizeof(out) - 4; p++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", sup[*p - '0']);
	snprintf(buf, len, "%s", out);
}

void slc__log_label(char *buf, size_t len, double v)
{
	static const char prefix[] = "kMGTP";
	int e;

	if (!(v > 0) || !isfinite(v)) {
		slc__num_label(buf, len, v);
		return;
	}
	e = (int)floor(log10(v) + EXACT);
	if (e >= 3 && e < 18) {
		int p = e / 3;
		size_t o;
		slc__num_label(buf, len, v / scaled(1, 3 * p));
		o = strlen(buf);
		if (o + 1 < len) { buf[o] = prefix[p - 1]; buf[o + 1] = 0; }
	} else if (e >= -3 && e < 3) {
		slc__num_label(buf, len, v);
	} else {
		power_label(buf, len, nearbyint(v / scaled(1, e) * 1e6) / 1e6, e);
	}
}
