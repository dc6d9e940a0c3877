// SPDX-License-Identifier: MIT
/*
 * What the analysis tests share to build curves and compare figures:
 * deterministic noise (the same sequence in every test, so that a failure
 * names a reproducible curve) and a tolerance check that prints both values.
 * Include after <cmocka.h>.
 */
#ifndef SLC_TEST_CURVES_H
#define SLC_TEST_CURVES_H

#include <math.h>
#include <stdint.h>

/* Deterministic unit-variance noise (LCG + Box-Muller). */
static inline double gauss(uint64_t *r)
{
	double u1, u2;

	*r = *r * 6364136223846793005ull + 1442695040888963407ull;
	u1 = ((double)(*r >> 11) + 0.5) / 9007199254740992.0;
	*r = *r * 6364136223846793005ull + 1442695040888963407ull;
	u2 = ((double)(*r >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* |a - b| <= eps, with both values in the message when not. */
static inline void near_(double a, double b, double eps, const char *what, const char *file, int line)
{
	if (fabs(a - b) <= eps) return;
	print_error("%s: %.17g vs %.17g (within %g)\n", what, a, b, eps);
	_fail(file, line);
}
#define assert_near(a, b, eps) near_((a), (b), (eps), #a " ~ " #b, __FILE__, __LINE__)

#endif
