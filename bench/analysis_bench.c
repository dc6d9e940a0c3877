// SPDX-License-Identifier: MIT
/*
 * Analysis speed: slc_analyze() on synthetic write curves of 7200 samples
 * (a 2-hour run at 1 s) and 1,000,000 samples, each a cache, a noisy
 * direct-to-TLC phase with single-sample dips and an erase-bound phase.
 * Prints the best and median of several runs.  Usage: analysis_bench [runs]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "slcscope/analysis.h"

static uint64_t rng = 0x5eed;

static double uniform(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* cache 10% of the run at 3 GB/s, direct-to-TLC 40% at 1.5 GB/s (15% noise),
 * erase-bound at 0.6 GB/s (25% noise), 1% of samples dip to 5-40%; with
 * comb, 30% of the direct-to-TLC samples fall to 5-30% (the hard case:
 * hundreds of change points to consolidate) */
static void make_curve(double *t, double *bps, size_t n, int comb)
{
	for (size_t i = 0; i < n; i++) {
		double f = (double)i / (double)n, v, e;

		if (f < 0.1) { v = 3e9; e = 0.01; }
		else if (f < 0.5) { v = 1.5e9; e = comb ? 0.05 : 0.15; }
		else { v = 0.6e9; e = 0.25; }
		v *= 1 + e * gauss();
		if (comb && f >= 0.1 && f < 0.5 && uniform() < 0.3) v *= 0.05 + 0.25 * uniform();
		else if (uniform() < 0.01) v *= 0.05 + 0.35 * uniform();
		t[i] = (double)(i + 1);
		bps[i] = v > 0 ? v : 0;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int bench(size_t n, int runs, int comb)
{
	double *t = malloc(n * sizeof(*t)), *bps = malloc(n * sizeof(*bps));
	double *dt = malloc((size_t)runs * sizeof(*dt));
	struct slc_trace_in in = { 0 };
	size_t phases = 0, changes = 0;

	if (!t || !bps || !dt) {
		free(t); free(bps); free(dt);
		return -1;
	}
	make_curve(t, bps, n, comb);
	in.t_s = t;
	in.bps = bps;
	in.n = n;
	for (int r = 0; r < runs; r++) {
		struct slc_analysis a;
		double t0 = now_s();
		int ret = slc_analyze(&a, &in, NULL);

		dt[r] = now_s() - t0;
		phases = a.n_phases;
		changes = a.cpd.n_changes;
		slc_analysis_free(&a);
		if (ret) {
			fprintf(stderr, "slc_analyze: %d\n", ret);
			free(t); free(bps); free(dt);
			return -1;
		}
	}
	qsort(dt, (size_t)runs, sizeof(*dt), cmp);
	printf("| %s | %zu | %d | %.2f | %.2f | %zu | %zu |\n", comb ? "comb" : "3-phase", n, runs, 1e3 * dt[0],
	       1e3 * dt[runs / 2], changes, phases);
	free(t);
	free(bps);
	free(dt);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 5;

	if (runs < 1) runs = 1;
	printf("| curve | samples | runs | best (ms) | median (ms) | change points | phases |\n");
	printf("|---|---|---|---|---|---|---|\n");
	setvbuf(stdout, NULL, _IONBF, 0);
	if (bench(7200, runs * 10, 0) || bench(1000000, runs, 0) ||
	    bench(7200, runs * 10, 1) || bench(1000000, runs, 1))
		return 1;
	return 0;
}
