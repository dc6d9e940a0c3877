// SPDX-License-Identifier: MIT
/*
 * Unit tests of the plotter's moving averages: the plain centred average
 * ramps across a step as wide as its window; the average within bands keeps
 * the step where a band ends, and without bands is the plain one.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "slcscope/plot.h"

#define N 100

/* 1 s samples at 2000 up to x = 40, then 400: a cache cliff. */
static void cliff(double *x, double *y)
{
	for (int i = 0; i < N; i++) {
		x[i] = i + 1;
		y[i] = i + 1 <= 40 ? 2000 : 400;
	}
}

static void test_plain_ramps(void **state)
{
	double x[N], y[N], out[N];

	(void)state;
	cliff(x, y);
	slc_moving_average(out, x, y, N, 10);
	/* within half a window of the step the average is between the levels */
	assert_true(out[38] < 2000 && out[38] > 400);
	assert_true(out[41] < 2000 && out[41] > 400);
	assert_true(fabs(out[10] - 2000) < 1e-9 && fabs(out[80] - 400) < 1e-9);
}

static void test_within_bands_keeps_the_step(void **state)
{
	double x[N], y[N], out[N];
	const struct slc_plot_band bands[2] = { { 0, 40, NULL, NULL, 0 }, { 40, N, NULL, NULL, 0 } };

	(void)state;
	cliff(x, y);
	slc_moving_average_within(out, x, y, N, 10, bands, 2);
	for (int i = 0; i < N; i++)
		assert_true(fabs(out[i] - y[i]) < 1e-9);
}

static void test_no_bands_is_plain(void **state)
{
	double x[N], y[N], a[N], b[N];

	(void)state;
	cliff(x, y);
	slc_moving_average(a, x, y, N, 10);
	slc_moving_average_within(b, x, y, N, 10, NULL, 0);
	for (int i = 0; i < N; i++)
		assert_true(fabs(a[i] - b[i]) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_ramps),
		cmocka_unit_test(test_within_bands_keeps_the_step),
		cmocka_unit_test(test_no_bands_is_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
