// SPDX-License-Identifier: MIT
/* Robust statistics: quantiles, MAD and difference-based noise scale. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "slcscope/analysis.h"

static void test_quantile(void **state)
{
	const double x[] = { 5, 1, 4, 2, 3 };
	(void)state;
	assert_float_equal(slc_median(x, 5), 3.0, 1e-12);
	assert_float_equal(slc_quantile(x, 5, 0.0), 1.0, 1e-12);
	assert_float_equal(slc_quantile(x, 5, 1.0), 5.0, 1e-12);
	assert_float_equal(slc_quantile(x, 5, 0.25), 2.0, 1e-12);
	assert_float_equal(slc_quantile(x, 4, 0.5), 3.0, 1e-12);  /* 5 1 4 2 -> 3 */
	assert_float_equal(slc_quantile(x, 5, 0.1), 1.4, 1e-12);
	assert_true(isnan(slc_median(x, 0)));
	assert_float_equal(x[0], 5.0, 0);  /* input untouched */
}

static void test_mad(void **state)
{
	const double x[] = { 1, 2, 3, 4, 100 };
	(void)state;
	/* median 3, |dev| = 2 1 0 1 97 -> median 1 */
	assert_float_equal(slc_mad_sigma(x, 5), 1.4826, 1e-9);
}

static void test_diff_sigma_ignores_steps(void **state)
{
	double x[2000];
	uint64_t r = 42;
	(void)state;
	/* unit-variance gaussian noise (Box-Muller over an LCG) on two levels far apart */
	for (int i = 0; i < 2000; i++) {
		double u1, u2;
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		u1 = ((double)(r >> 11) + 0.5) / 9007199254740992.0;
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		u2 = ((double)(r >> 11) + 0.5) / 9007199254740992.0;
		x[i] = (i < 1000 ? 1000.0 : 100.0) + sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
	}
	double s = slc_diff_sigma(x, 2000);
	assert_true(s > 0.9 && s < 1.1);
	assert_true(slc_mad_sigma(x, 2000) > 100.0);  /* the plain MAD would see the step */
	assert_true(isnan(slc_diff_sigma(x, 1)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_diff_sigma_ignores_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
