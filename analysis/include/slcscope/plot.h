/* SPDX-License-Identifier: MIT */
/*
 * Graphs with cairo: PNG, SVG and PDF from the same drawing code.
 * Included from slcscope/analysis.h.
 */
#ifndef SLCSCOPE_PLOT_H
#define SLCSCOPE_PLOT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One curve: every sample as a dot, its moving average as a line. */
struct slc_plot_series {
	const char *label;            /* legend text; NULL for none */
	const double *x;              /* axis position of each sample (bytes or seconds) */
	const double *y;              /* value of each sample (bytes/s or IOPS) */
	const double *t_s;            /* sample times, for the moving-average window */
	size_t n;
	int line_only;                /* draw a thin line through the samples, no dots, no average */
};

/* A shaded phase band with its label ("SLC cache 2.30 GB, 80.0k IOPS"). */
struct slc_plot_band {
	double x0, x1;                /* in x units */
	const char *label;
	int style;                    /* 0..5: palette index of the shade */
};

struct slc_plot_spec {
	const char *title;            /* drive model and workload */
	const char *subtitle;         /* may be NULL */
	const char *xlabel, *ylabel;  /* with units: "data written (GB)", "MB/s" */
	double x_scale, y_scale;      /* divide x and y by these before drawing (1e9, 1e6) */
	int width, height;            /* pixels (PNG) or points (SVG, PDF); 0: 1200 x 700 */
	double ma_window_s;           /* moving average window; 0: 30 s */
	const struct slc_plot_series *series;
	size_t n_series;
	const struct slc_plot_band *bands;
	size_t n_bands;
	int log_y;                    /* logarithmic y axis (latencies) */
};

/* A bar chart of a few groups (fresh, after idle, after TRIM) in two panels. */
struct slc_bar_group {
	const char *label;            /* "fresh", "after 15m idle", "after TRIM" */
	double left, right;           /* the two panels' values; NAN: no bar */
};

struct slc_bar_spec {
	const char *title, *subtitle;
	const char *left_label, *right_label;   /* panel titles with units */
	double left_scale, right_scale;         /* divide values by these */
	int width, height;
	const struct slc_bar_group *groups;
	size_t n_groups;
};

/** slc_plot_bars() - like slc_plot_write() for a two-panel bar chart. */
int slc_plot_bars(const char *path, const struct slc_bar_spec *spec, char *err, size_t errlen);

/**
 * slc_plot_write() - draw @spec into @path; the format follows the
 * extension (.png, .svg, .pdf).  The file is written to a temporary name
 * and renamed, so a failure leaves nothing half-written.
 *
 * Return: 0, -EINVAL (unknown extension, no samples; reason in @err), -EIO.
 */
int slc_plot_write(const char *path, const struct slc_plot_spec *spec, char *err, size_t errlen);

/**
 * slc_moving_average() - the mean of the samples within the trailing
 * @window_s seconds of each sample (@t_s increasing), into @out (n values).
 */
void slc_moving_average(double *out, const double *t_s, const double *y, size_t n, double window_s);

#ifdef __cplusplus
}
#endif
#endif
