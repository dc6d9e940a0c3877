/* SPDX-License-Identifier: MIT */
/* Write-curve graphs from analysed inputs (plot, report and run --report). */
#ifndef SLCSCOPE_CLI_CURVE_PLOT_H
#define SLCSCOPE_CLI_CURVE_PLOT_H

#include "analyze_input.h"

struct curve_opts {
	int x_time;                   /* x axis: time instead of data written */
	int y_iops;                   /* y axis: IOPS instead of MB/s (fixed-block workloads) */
	int binary;                   /* GiB / MiB/s instead of GB / MB/s */
	int width, height;
};

/*
 * curve_plot() - graph analysed segment @k of @x (every sample a dot, the
 * 30 s moving average, phase bands with their figures) into @path
 * (.png/.svg/.pdf).  @k < 0: every analysed segment on one chart (compare).
 * Returns 0 or -errno with a reason in @err.
 */
int curve_plot(const char *path, const struct analyzed *x, long k, const struct curve_opts *o,
	       char *err, size_t errlen);

/*
 * curve_plot_many() - several inputs on one chart, each its first write
 * curve, with a legend.
 */
int curve_plot_many(const char *path, const struct analyzed *xs, size_t n, const struct curve_opts *o,
		    char *err, size_t errlen);

/* latency_plot() - p50/p99/p99.9/max of analysed segment @k against time (log scale). */
int latency_plot(const char *path, const struct analyzed *x, long k, const struct curve_opts *o,
		 char *err, size_t errlen);

/* recovery_plot() - cache found and burst speed: fresh, after idle, after TRIM. */
int recovery_plot(const char *path, const struct analyzed *x, const struct curve_opts *o,
		  char *err, size_t errlen);

/*
 * idle_recovery_points() - for each idle burst after the first random burst
 * (the reference), its idle time and the cache it found; returns the count.
 * @fresh_bytes: the reference's cache (0 without one).
 */
int idle_recovery_points(const struct analyzed *x, double *idle_s, double *cache_bytes, size_t max,
			 double *fresh_bytes);

/*
 * idle_fold_rate_bps() - the folding rate: slope through the origin of the
 * cache recovered against idle time, over the waits that had not yet brought
 * back 90% of @fresh_bytes; NAN when every wait brought it all back.
 */
double idle_fold_rate_bps(const double *idle_s, const double *cache_bytes, size_t n, double fresh_bytes);

/* idle_recovery_plot() - cache recovered against idle time (plan idle-sweep). */
int idle_recovery_plot(const char *path, const struct analyzed *x, const struct curve_opts *o,
		       char *err, size_t errlen);

#endif
