// SPDX-License-Identifier: MIT
/*
 * Axis ticks over thousands of random ranges (a fixed seed, so a failure
 * repeats): 4 to 10 ticks a step of 1, 2, 2.5 or 5 x 10^k apart, covering
 * the range, each label distinct and reading back as its tick's value; and
 * the axes users saw printed wrong, label by label.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plot_ticks.h"

#define MAXT 32

static uint64_t rng = 0x5eed1234abcdULL;

/* splitmix64: uniform in [0, 1) */
static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

/* 1 when @step is 1, 2, 2.5 or 5 x 10^k. */
static int nice_step(double step)
{
	double m = step / pow(10, floor(log10(step)));
	return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 2.5) < 1e-9 || fabs(m - 5) < 1e-9 ||
	       fabs(m - 10) < 1e-9;
}

/* Fails with the range in the message: the labels of ticks @at, @n of them @step apart. */
static void check_labels(const double *at, size_t n, double step, double lo, double hi)
{
	char lab[MAXT][64];

	for (size_t i = 0; i < n; i++) {
		double back, tol = 1e-9 * fmax(fabs(at[i]), step);
		slc__tick_label(lab[i], sizeof(lab[i]), at[i], step);
		back = strtod(lab[i], NULL);
		if (fabs(back - at[i]) > tol)
			fail_msg("[%.17g, %.17g] step %.17g: label \"%s\" reads %.17g, tick %.17g", lo, hi, step, lab[i],
				 back, at[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(lab[i], lab[j]))
				fail_msg("[%.17g, %.17g] step %.17g: label \"%s\" twice", lo, hi, step, lab[i]);
	}
}

/* The ticks of [@lo, @hi] (@span: around it), checked. */
static void check_range(double lo, double hi, int want, int span)
{
	double at[MAXT], step = 0;
	size_t n = span ? slc__ticks_span(lo, hi, want, at, MAXT, &step) : slc__ticks(lo, hi, want, at, MAXT, &step);

	if (n < SLC_TICKS_MIN || n > SLC_TICKS_MAX)
		fail_msg("[%.17g, %.17g] want %d: %zu ticks", lo, hi, want, n);
	if (!(step > 0) || !nice_step(step))
		fail_msg("[%.17g, %.17g]: step %.17g", lo, hi, step);
	for (size_t i = 1; i < n; i++)
		if (fabs(at[i] - at[i - 1] - step) > 1e-9 * fmax(step, fabs(at[i])))
			fail_msg("[%.17g, %.17g] step %.17g: ticks %.17g and %.17g", lo, hi, step, at[i - 1], at[i]);
	if (isfinite(lo) && isfinite(hi) && hi - lo > 1e-9 * fmax(fabs(lo), fabs(hi))) {
		double a = fmin(lo, hi), b = fmax(lo, hi), tol = 1e-9 * fmax(step, fmax(fabs(a), fabs(b)));
		if (at[0] > a + step + tol || at[n - 1] < b - step - tol)
			fail_msg("[%.17g, %.17g]: ticks %.17g to %.17g leave a gap over a step %.17g", lo, hi, at[0],
				 at[n - 1], step);
		if (!span && (at[0] < a - tol || at[n - 1] > b + tol))
			fail_msg("[%.17g, %.17g]: ticks %.17g to %.17g outside", lo, hi, at[0], at[n - 1]);
		if (span && (at[0] > a + tol || at[n - 1] < b - tol))
			fail_msg("[%.17g, %.17g]: ticks %.17g to %.17g do not span it", lo, hi, at[0], at[n - 1]);
	}
	check_labels(at, n, step, lo, hi);
}

static void test_random_ranges(void **state)
{
	(void)state;
	for (int i = 0; i < 20000; i++) {
		/* widths from 1e-6 to 1e12, anywhere from 0 to 50 widths off zero, either sign */
		double width = pow(10, -6 + 18 * uniform()), off = uniform() < 0.3 ? 0 : (uniform() - 0.5) * 100;
		double lo = off * width, hi = lo + width * (0.5 + uniform());
		int want = 3 + (int)(uniform() * 9);
		check_range(lo, hi, want, i & 1);
	}
}

static void test_odd_ranges(void **state)
{
	const double r[][2] = { { 5, 5 }, { 0, 0 }, { -3, -3 }, { 1e12, 1e12 }, { 1e-6, 1e-6 }, { 10, 0 },
				{ -10, -2 }, { -1e-6, 1e-6 }, { NAN, 4 }, { 4, NAN }, { NAN, NAN }, { -INFINITY, 3 },
				{ 0, INFINITY }, { -INFINITY, INFINITY }, { 0, 1e12 }, { 0, 1e-6 }, { 1e12, 1e12 + 1 },
				{ 1, 1 + 1e-12 }, { -1e300, 1e300 }, { 0, 1e-300 } };
	(void)state;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		check_range(r[i][0], r[i][1], 6, 0);
		check_range(r[i][0], r[i][1], 6, 1);
	}
}

/* @n labels of @at on step @step equal to @want. */
static void expect_labels(const double *at, size_t n, double step, const char *const *want, size_t nwant)
{
	char buf[64];

	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++) {
		slc__tick_label(buf, sizeof(buf), at[i], step);
		assert_string_equal(buf, want[i]);
	}
}

/* The axes users saw: "0.0 0.2 0.5 0.8 1.0 1.2" for 0.25 steps, "0 2 5 8 10" on a latency axis. */
static void test_seen_axes(void **state)
{
	static const char *const quarters[] = { "0.00", "0.25", "0.50", "0.75", "1.00", "1.25" };
	static const char *const halves[] = { "0.0", "2.5", "5.0", "7.5", "10.0" };
	static const char *const tenths[] = { "0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2" };
	static const char *const latency[] = { "0", "2", "4", "6", "8", "10" };
	double at[MAXT], step;
	size_t n;
	(void)state;

	n = slc__ticks_at(0, 1.25, 0.25, at, MAXT);
	expect_labels(at, n, 0.25, quarters, 6);
	n = slc__ticks_at(0, 10, 2.5, at, MAXT);
	expect_labels(at, n, 2.5, halves, 5);
	n = slc__ticks(0, 1.25, 6, at, MAXT, &step);
	assert_float_equal(step, 0.2, 1e-12);
	expect_labels(at, n, step, tenths, 7);
	n = slc__ticks(0, 10, 6, at, MAXT, &step);
	assert_float_equal(step, 2, 0);
	expect_labels(at, n, step, latency, 6);
	/* ticks on the axis of the step, not on its sum: the 7th of 0.1 is 0.7 exactly */
	n = slc__ticks_at(0, 1, 0.1, at, MAXT);
	assert_int_equal(n, 11);
	assert_true(at[7] == 0.7);
	assert_true(at[3] == 0.3);
}

static void test_log_labels(void **state)
{
	static const struct { double v; const char *s; } c[] = {
		{ 1, "1" }, { 2, "2" }, { 10, "10" }, { 500, "500" }, { 1000, "1k" }, { 2000, "2k" }, { 50000, "50k" },
		{ 1e6, "1M" }, { 2e9, "2G" }, { 1e12, "1T" }, { 0.5, "0.5" }, { 0.01, "0.01" }, { 0.001, "0.001" },
		{ 1e-4, "10⁻⁴" }, { 2e-5, "2×10⁻⁵" }, { 1e20, "10²⁰" },
	};
	char buf[64];
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		slc__log_label(buf, sizeof(buf), c[i].v);
		assert_string_equal(buf, c[i].s);
	}
	slc__num_label(buf, sizeof(buf), 1.25);
	assert_string_equal(buf, "1.25");
	slc__num_label(buf, sizeof(buf), 250);
	assert_string_equal(buf, "250");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ranges),
		cmocka_unit_test(test_odd_ranges),
		cmocka_unit_test(test_seen_axes),
		cmocka_unit_test(test_log_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
