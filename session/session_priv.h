/* SPDX-License-Identifier: MIT */
/* The session library's shared internals. */
#ifndef SLCSCOPE_SESSION_PRIV_H
#define SLCSCOPE_SESSION_PRIV_H

#include <jansson.h>

#include "slcscope/plot.h"
#include "slcscope/session.h"

/* What a drive of slc_run_many() sends its parent besides its words: a
 * line starting with \001, then 'P' and the progress line a terminal would
 * redraw in place, or 'R': its checks passed, it waits for the go. */
#define SLC__PROGRESS_LINE "\001P"
#define SLC__READY_LINE "\001R"

/* A number as JSON, or null when it is not finite (exp/common.c). */
json_t *slc__jnum(double v);

/* The identity snapshot's "identity" object (a new reference; NULL when there is none). */
json_t *slc__session_identity_json(const struct slc_session *x);

/* Write @l as JSON to @path (the --layout-json debug output); 0 or -errno. */
int slc__fig_write_layout(const char *path, const struct slc_plot_layout *l, char *err, size_t errlen);

/*
 * How much of its plan a run did that did not end complete (the trace's
 * run_status): @full a sentence for the report, else a short note for
 * captions and subtitles.  "" for a complete run or one that does not say.
 */
char *slc__run_status_words(char *buf, size_t len, const struct slc_input *in, int full);

/* Host bytes written by time @t of segment @s, linear between samples;
 * past its end, all it wrote, or NAN when @nan_past_end. */
double slc__seg_bytes_at(const struct slc_input_segment *s, double t, int nan_past_end);

/* slc_segment_words(), with or without the segment's duration. */
char *slc__fig_segment_words(char *buf, size_t len, const struct slc_input_segment *s, int duration);

/* The phase's name in words and its band colour. */
const char *slc__fig_phase_words(const struct slc_phase *p, enum slc_cell cell);
int slc__fig_phase_style(const struct slc_phase *p);

/* The curve's axes (scales, labels in words) for @o; 0 or -EINVAL with a reason. */
int slc__fig_axes(struct slc_plot_spec *sp, const struct slc_session *x, const struct slc_input_segment *s,
	     const struct slc_figure_opts *o, char *err, size_t errlen);
/* Analysed segment @i's samples on the axes of @o (caller frees both); 0 or -ENOMEM. */
int slc__fig_samples(double **xo, double **yo, const struct slc_session *x, size_t i, const struct slc_figure_opts *o);
/* The centred moving average's window on the x axis of @o, its legend text into @label. */
double slc__fig_ma_window(char *label, size_t len, const double *xs, const struct slc_input_segment *s,
		     const struct slc_figure_opts *o);

/* The figures' units, chosen in one place: a speed label ("what (MB/s)" or
 * "what (MiB/s)", a string literal), the unit, the bytes per second of it
 * and the unit system for the figures' words. */
#define FIG_RATE_LABEL(o, what) ((o)->binary ? what " (MiB/s)" : what " (MB/s)")
#define FIG_RATE_UNIT(o) ((o)->binary ? "MiB/s" : "MB/s")
#define FIG_RATE_DIV(o) ((o)->binary ? 1048576.0 : 1e6)
#define FIG_UNITS(o) ((o)->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL)
/* ... and the same for an amount of data (GB or GiB) */
#define FIG_SIZE_LABEL(o, what) ((o)->binary ? what " (GiB)" : what " (GB)")
#define FIG_SIZE_UNIT(o) ((o)->binary ? "GiB" : "GB")
#define FIG_SIZE_DIV(o) ((o)->binary ? 1073741824.0 : 1e9)

/* The figures of the plans' experiments (figures_exp.c). */
int slc__figure_latency_cdf(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
			   char *err, size_t errlen);
int slc__figure_temperature(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
			   char *err, size_t errlen);
int slc__figure_multiples(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
			 char *err, size_t errlen);
int slc__figure_bars(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		    char *err, size_t errlen);
/* The sweeps' graphs (figures_sweep.c): @k one of SLC_FIG_SWEEP_QD, _BS, SLC_FIG_MIXED; 1-8 drives. */
int slc__figure_sweep(const char *path, enum slc_figure_kind k, const struct slc_session *xs, size_t n,
		      const struct slc_figure_opts *o, char *err, size_t errlen);

#endif
