/* SPDX-License-Identifier: MIT */
/*
 * Graphs with cairo: PNG, SVG and PDF from the same drawing code.
 * Included from slcscope/analysis.h.
 *
 * Text: PNG through cairo's text API; PDF carries cairo's embedded font
 * subsets (selectable, searchable text); SVG gets real <text> elements
 * written by the plotter at the positions cairo measured (cairo's SVG
 * surface would draw glyph outlines).
 */
#ifndef SLCSCOPE_PLOT_H
#define SLCSCOPE_PLOT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Okabe and Ito's colour-blind-safe palette, in the order series use it. */
enum slc_plot_colour {
	SLC_COL_BLUE = 0, SLC_COL_VERMILLION, SLC_COL_GREEN, SLC_COL_ORANGE,
	SLC_COL_PURPLE, SLC_COL_SKY, SLC_COL_BLACK, SLC_COL_YELLOW, SLC_COL__COUNT
};

/*
 * The look of a graph: "default" draws series in the Okabe-Ito palette
 * above; "print" in grays of distinct lightness, for a page printed in
 * black and white (every series also has its dash and marker).  The axes,
 * grid and text are gray in both.
 */
enum slc_plot_theme { SLC_THEME_DEFAULT = 0, SLC_THEME_PRINT, SLC_THEME__COUNT };

/** slc_plot_theme_name() - "default" or "print"; NULL out of range. */
const char *slc_plot_theme_name(enum slc_plot_theme t);
/** slc_plot_theme_from_name() - the theme called @name; -1 when none. */
int slc_plot_theme_from_name(const char *name);

/* Marker shapes for series told apart in grey print too. */
enum slc_plot_marker {
	SLC_MARK_NONE = 0, SLC_MARK_CIRCLE, SLC_MARK_SQUARE, SLC_MARK_TRIANGLE, SLC_MARK_DIAMOND,
	SLC_MARK_DOWN, SLC_MARK_CROSS, SLC_MARK_PLUS, SLC_MARK_STAR, SLC_MARK__COUNT
};

/* One curve: every sample as a dot and its moving average as a line, or a line or band alone. */
struct slc_plot_series {
	const char *label;            /* legend text; NULL for none */
	const double *x;              /* axis position of each sample, increasing (bytes, seconds, ...) */
	const double *y;              /* value of each sample (bytes/s, IOPS, us) */
	const double *y_lo;           /* with line_only: shade the area between y_lo and y */
	size_t n;
	int line_only;                /* a line through the samples (or a band), no dots, no average */
	int no_dots;                  /* the moving average only (comparisons) */
	int colour;                   /* enum slc_plot_colour + 1; 0: by series index */
	int marker;                   /* enum slc_plot_marker along the line (comparisons) */
	int mark_all;                 /* the marker on every point (measured points, not a sampled curve) */
	int dash;                     /* a line's dash pattern, 0: solid; lines told apart in grey print */
	double alpha;                 /* band or dot opacity; 0: the default */
	double ma_window_x;           /* this series' moving-average window; 0: the spec's */
};

/* A shaded phase band; its label is placed above the plot area over the band. */
struct slc_plot_band {
	double x0, x1;                /* in x units */
	const char *label;            /* figures ("SLC cache: 2.29 GB at 80.0k IOPS"); NULL: none */
	const char *legend;           /* the legend's entry for its kind ("SLC cache"); bands with
				       * the same text share one entry */
	int style;                    /* enum slc_plot_colour of the shade */
};

/* A rectangle on the canvas, in pixels (PNG) or points (SVG, PDF), y down. */
struct slc_plot_rect {
	double x, y, w, h;            /* w = 0: not drawn */
};

#define SLC_PLOT_MAX_LABELS 64
#define SLC_PLOT_MAX_SERIES 16
#define SLC_PLOT_MAX_PANELS 16

/*
 * Where the drawing put things, for tests and for callers that annotate
 * the picture: the data areas, the legend and every label's box, and each
 * series' vertical extent inside its data area.
 */
struct slc_plot_layout {
	double width, height;
	struct slc_plot_rect plot;                    /* the (first) data area */
	struct slc_plot_rect zoom;                    /* the zoomed second panel */
	struct slc_plot_rect legend;
	struct slc_plot_rect title, subtitle;
	size_t n_panels;
	struct slc_plot_rect panels[SLC_PLOT_MAX_PANELS];  /* every data area (small multiples) */
	size_t n_labels;
	struct slc_plot_rect labels[SLC_PLOT_MAX_LABELS];  /* band labels */
	size_t n_series;
	struct {
		double y_min, y_max;  /* canvas y of the series' lowest/highest drawn point */
		double y_p5, y_p95;   /* ... of its 5th and 95th percentile point */
		size_t points;        /* points inside the data area */
		size_t markers;       /* markers drawn inside the data area */
		unsigned rgb;         /* the colour its line was drawn in, 0xRRGGBB */
	} series[SLC_PLOT_MAX_SERIES];
};

/** slc_plot_layout_json() - @l as one JSON object on @f. */
void slc_plot_layout_json(FILE *f, const struct slc_plot_layout *l);

/* Tick labels along an axis chosen by the caller (a percentile axis). */
struct slc_plot_ticks {
	const double *at;             /* positions in scaled axis units */
	const char *const *labels;
	size_t n;
};

enum slc_plot_yfmt {
	SLC_YFMT_NUMBER = 0,          /* plain numbers */
	SLC_YFMT_US,                  /* values in microseconds, ticks as "100 µs", "1 ms", "1 s" */
};

struct slc_plot_spec {
	const char *title;            /* drive model and capacity */
	const char *subtitle;         /* the workload in words; may be NULL */
	const char *xlabel, *ylabel;  /* with units in words: "data written (GB)" */
	double x_scale, y_scale;      /* divide x and y by these before drawing (1e9, 1e6) */
	int width, height;            /* pixels (PNG) or points (SVG, PDF); 0: 1200 x 700 */
	/* the moving average: centred, over @ma_window_x of the x axis (unscaled x
	 * units: bytes when x is data written); 0: no average line */
	double ma_window_x;
	const char *ma_label;         /* its legend text */
	int ma_break_at_bands;        /* average within each band only, so it keeps the band's cliff */
	const char *dots_label;       /* legend text of the dots ("1 s samples"); NULL: none */
	const struct slc_plot_series *series;
	size_t n_series;
	const struct slc_plot_band *bands;
	size_t n_bands;
	int log_y;                    /* logarithmic y axis */
	enum slc_plot_yfmt y_format;
	double y_min, y_max;          /* fixed y range (scaled units); both 0: from the data */
	double x_min, x_max;          /* fixed x range (scaled units); both 0: 0 to the data's end */
	const struct slc_plot_ticks *x_ticks;  /* NULL: nice numbers */
	double zoom_x1;               /* > 0: a second panel showing x from x_min to this (unscaled) */
	const char *zoom_label;       /* its heading ("first 6.9 GB") */
	int legend_right;             /* the legend in a column right of the plot (several series), at
				       * most a quarter of the canvas wide: long entries wrap */
	struct slc_plot_layout *layout;  /* filled in when not NULL */
	enum slc_plot_theme theme;    /* colours: default or print */
};

/*
 * Small multiples: one panel per spec, on shared axes (the union of the
 * panels' ranges), under one title.  Each panel's title is its spec's title.
 */
struct slc_plot_multi {
	const char *title, *subtitle;
	const struct slc_plot_spec *panels;
	size_t n_panels;
	int width, height;            /* 0: 1200 x (300 per row of panels) */
	int own_y;                    /* each panel its own y axis and label (different units) */
	int cols;                     /* panels a row; 0: from their count */
	struct slc_plot_layout *layout;
	enum slc_plot_theme theme;    /* colours: default or print */
};

/* Bar charts: one panel per figure, one bar per group in each panel. */
struct slc_bar_panel {
	const char *label;            /* the figure with its unit: "SLC cache (GB)" */
	double scale;                 /* divide the values by this */
	const double *values;         /* one per group; NAN: no bar ("n/a" written) */
};

struct slc_bar_chart {
	const char *title, *subtitle;
	const char *const *groups;    /* the groups' names (drives, or fresh/after idle/after TRIM) */
	size_t n_groups;
	const struct slc_bar_panel *panels;
	size_t n_panels;
	int legend;                   /* 1: the groups in a legend, bars unlabelled (many panels);
				       * 0: each bar named under it */
	int width, height;            /* 0: 1000 x 560 */
	struct slc_plot_layout *layout;
	enum slc_plot_theme theme;    /* colours: default or print */
};

/* The two-panel bar chart of the recovery figures (a slc_bar_chart of two panels). */
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
	struct slc_plot_layout *layout;
	enum slc_plot_theme theme;    /* colours: default or print */
};

/** slc_plot_bars() - like slc_plot_write() for a two-panel bar chart. */
int slc_plot_bars(const char *path, const struct slc_bar_spec *spec, char *err, size_t errlen);

/** slc_plot_bar_chart() - like slc_plot_write() for a bar chart of several panels. */
int slc_plot_bar_chart(const char *path, const struct slc_bar_chart *spec, char *err, size_t errlen);

/**
 * slc_plot_write() - draw @spec into @path; the format follows the
 * extension (.png, .svg, .pdf).  The file is written to a temporary name
 * and renamed, so a failure leaves nothing half-written.
 *
 * Large inputs stay small: dots falling on the same dot-sized cell are drawn
 * once and lines keep the first, lowest, highest and last point of each
 * pixel column, so the file grows with the canvas, not with the samples.
 *
 * Return: 0, -EINVAL (unknown extension, no samples; reason in @err), -EIO.
 */
int slc_plot_write(const char *path, const struct slc_plot_spec *spec, char *err, size_t errlen);

/** slc_plot_multiples() - like slc_plot_write() for small multiples. */
int slc_plot_multiples(const char *path, const struct slc_plot_multi *spec, char *err, size_t errlen);

/**
 * slc_moving_average() - the centred moving average: for each sample, the
 * mean of the finite samples whose @x lies within @window / 2 of its own
 * (@x increasing, in any unit: the window is in the same unit), into @out.
 */
void slc_moving_average(double *out, const double *x, const double *y, size_t n, double window);

/**
 * slc_moving_average_within() - slc_moving_average() over each run of
 * samples lying in the same one of @bands (and each run outside them) on its
 * own, so that a step at a band's edge stays a step instead of a ramp as wide
 * as the window.  With no bands, slc_moving_average().
 */
void slc_moving_average_within(double *out, const double *x, const double *y, size_t n, double window,
			       const struct slc_plot_band *bands, size_t n_bands);

/**
 * slc_plot_window_x() - the x distance covered in @seconds at the median
 * rate of x per second of the samples (@x against @t_s): the bytes written
 * in 30 s at the curve's median speed, for a 30 s average over data written.
 * NAN when it cannot be told (fewer than two samples).
 */
double slc_plot_window_x(const double *x, const double *t_s, size_t n, double seconds);

/* ---- Pages: a print-ready PDF of text, tables and graphs ------------------- */

/* A graph kept in memory as drawing commands (vectors and text), for a page. */
struct slc_plot_drawing;

/**
 * slc_plot_record() - the next graph this thread draws (slc_plot_write(),
 * slc_plot_multiples(), slc_plot_bar_chart(), slc_plot_bars()) goes into
 * *@out instead of its file: the same drawing code as the file's, so a
 * page shows what the SVG and PNG show.  The path's extension is still
 * checked; nothing is written.  NULL: the next graph goes to its file.
 * Free the drawing with slc_plot_drawing_free().
 */
void slc_plot_record(struct slc_plot_drawing **out);
void slc_plot_drawing_free(struct slc_plot_drawing *d);

/*
 * Paper.  A4 (210 x 297 mm, 595 x 842 pt) first: the ISO size, the paper
 * of nearly every country outside North America; Letter (8.5 x 11 in,
 * 612 x 792 pt) for the US and Canada.  The layout is the same on both.
 */
enum slc_paper { SLC_PAPER_A4 = 0, SLC_PAPER_LETTER, SLC_PAPER__COUNT };

/** slc_paper_name() - "a4" or "letter"; NULL out of range. */
const char *slc_paper_name(enum slc_paper p);
/** slc_paper_from_name() - the paper called @name (case-insensitive); -1 when none. */
int slc_paper_from_name(const char *name);

/*
 * A document laid out on pages as it is written: headings, wrapped
 * paragraphs, tables (each column as wide as its text allows, the head
 * repeated after a page break), preformatted text, graphs (each in at most
 * half a page, with its caption), the title and page number at each foot.
 * Text in DejaVu Sans, as the graphs; black and grays only, so it prints
 * the same in black and white.  Text is UTF-8; bytes that are not are
 * shown as '?'.
 */
struct slc_pages;

/**
 * slc_pages_open() - a document on @paper written to @f (the caller opens
 * and closes it); @title goes into the PDF's metadata and every page's foot.
 * Return: 0, -ENOMEM, -EIO.
 */
int slc_pages_open(struct slc_pages **out, FILE *f, enum slc_paper paper, const char *title, char *err,
		   size_t errlen);
/* A heading, level 1 (the document's title) to 3; levels 1 and 2 are the PDF's outline. */
void slc_pages_heading(struct slc_pages *p, int level, const char *text);
/* A paragraph; \x01 ... \x02 mark bold text. */
void slc_pages_para(struct slc_pages *p, const char *text);
/* Text as it is, line by line, in DejaVu Sans Mono (long lines wrapped). */
void slc_pages_pre(struct slc_pages *p, const char *text);
/* A table: its head, then rows of @cols cells, then slc_pages_table_end() draws it. */
void slc_pages_table(struct slc_pages *p, size_t cols, const char *const *head);
void slc_pages_row(struct slc_pages *p, size_t cols, const char *const *cells);
void slc_pages_table_end(struct slc_pages *p);
/* A graph (slc_plot_record()) scaled to the text's width and half a page at most, its caption under it. */
void slc_pages_figure(struct slc_pages *p, const struct slc_plot_drawing *d, const char *caption);
/**
 * slc_pages_close() - end the last page, write the document out and free
 * @p.  Return: 0, or -ENOMEM / -EIO (the first failure since open) with a
 * reason in @err.
 */
int slc_pages_close(struct slc_pages *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
