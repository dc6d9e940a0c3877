// SPDX-License-Identifier: MIT
/*
 * Write-curve graphs with cairo, drawn as the review articles draw them:
 * every sample a dot, a centred moving average over the x axis the curve
 * is drawn against, the phases as shaded bands named above the plot and in
 * a legend outside the data, a zoomed second panel for a cache too short to
 * see on the whole axis.
 *
 * Sizes are relative to the canvas height so that a 1200 x 700 graph reads
 * well on a web page and in print.  The palette is Okabe and Ito's
 * (colour-blind safe); text uses DejaVu Sans (Debian's fonts-dejavu-core).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_priv.h"
#include "plot_draw.h"

void slc_moving_average(double *out, const double *x, const double *y, size_t n, double window)
{
	double half = window / 2, sum = 0;
	size_t lo = 0, hi = 0, cnt = 0;

	for (size_t i = 0; i < n; i++) {
		while (hi < n && x[hi] <= x[i] + half) {
			if (isfinite(y[hi])) { sum += y[hi]; cnt++; }
			hi++;
		}
		while (lo < i && x[lo] < x[i] - half) {
			if (isfinite(y[lo])) { sum -= y[lo]; cnt--; }
			lo++;
		}
		out[i] = cnt ? sum / (double)cnt : NAN;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double slc_plot_window_x(const double *x, const double *t_s, size_t n, double seconds)
{
	double *r, w;
	size_t m = 0;

	if (n < 2 || !(r = malloc(n * sizeof(*r))))
		return NAN;
	for (size_t i = 1; i < n; i++) {
		double dt = t_s[i] - t_s[i - 1];
		if (dt > 0 && isfinite(x[i] - x[i - 1]))
			r[m++] = (x[i] - x[i - 1]) / dt;
	}
	qsort(r, m, sizeof(*r), cmp_double);
	w = m ? r[m / 2] * seconds : NAN;
	free(r);
	return w;
}

/* ---- lines with at most four points a pixel column ---------------------- */

struct lpath {
	cairo_t *cr;
	int started, have;
	long col;
	double cx, first, lo, hi, last;
};

static void lp_point(struct lpath *p, double x, double y)
{
	if (!p->started) { cairo_move_to(p->cr, x, y); p->started = 1; }
	else cairo_line_to(p->cr, x, y);
}

static void lp_flush(struct lpath *p)
{
	if (!p->have)
		return;
	lp_point(p, p->cx, p->first);
	if (p->lo != p->first) lp_point(p, p->cx, p->lo);
	if (p->hi != p->lo) lp_point(p, p->cx, p->hi);
	if (p->last != p->hi) lp_point(p, p->cx, p->last);
	p->have = 0;
}

static void lp_add(struct lpath *p, double x, double y)
{
	long c = (long)floor(x);

	if (p->have && c != p->col)
		lp_flush(p);
	if (!p->have) {
		p->col = c;
		p->cx = x;
		p->first = p->lo = p->hi = p->last = y;
		p->have = 1;
		return;
	}
	if (y < p->lo) p->lo = y;
	if (y > p->hi) p->hi = y;
	p->last = y;
}

static void lp_break(struct lpath *p)
{
	lp_flush(p);
	p->started = 0;
}

/* ---- series ------------------------------------------------------------- */

/* The canvas y of the points drawn inside the frame, for the layout. */
struct extent {
	double *y;
	size_t n, cap;
	size_t markers;
	unsigned rgb;
};

static void ext_add(struct extent *e, const struct frame *f, double x, double y)
{
	if (!e || x < f->x0 || x > f->x0 + f->w || y < f->y0 || y > f->y0 + f->h)
		return;
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 1024;
		double *ny = realloc(e->y, cap * sizeof(*ny));
		if (!ny) return;
		e->y = ny;
		e->cap = cap;
	}
	e->y[e->n++] = y;
}

static int series_colour(const struct slc_plot_spec *s, size_t k)
{
	return s->series[k].colour ? s->series[k].colour - 1 : (int)(k % SLC_COL__COUNT);
}

/* A line's colour: the palette's, but its yellow darkened, which as a thin line nearly vanishes on white. */
static void line_colour(cairo_t *cr, int c)
{
	const double *p = slc__plot_rgb(cr, c);
	double k = c == SLC_COL_YELLOW ? 0.8 : 1;

	cairo_set_source_rgb(cr, p[0] * k, p[1] * k, p[2] * k);
}

/* The band holding @x, or -1. */
static long band_of(const struct slc_plot_band *bands, size_t n_bands, double x)
{
	for (size_t b = 0; b < n_bands; b++)
		if (x >= bands[b].x0 && x <= bands[b].x1)
			return (long)b;
	return -1;
}

void slc_moving_average_within(double *out, const double *x, const double *y, size_t n, double window,
			       const struct slc_plot_band *bands, size_t n_bands)
{
	size_t start = 0;

	/* runs of samples in the same band, each averaged on its own */
	for (size_t i = 1; i <= n; i++) {
		if (i < n && band_of(bands, n_bands, x[i]) == band_of(bands, n_bands, x[i - 1]))
			continue;
		slc_moving_average(out + start, x + start, y + start, i - start, window);
		start = i;
	}
}

/* The moving average of series @sr, within each band when asked; NULL: out of memory. */
static double *moving_average(const struct slc_plot_spec *s, const struct slc_plot_series *sr)
{
	double *ma = malloc((sr->n ? sr->n : 1) * sizeof(*ma)), win = sr->ma_window_x > 0 ? sr->ma_window_x : s->ma_window_x;

	if (!ma)
		return NULL;
	slc_moving_average_within(ma, sr->x, sr->y, sr->n, win, s->bands, s->ma_break_at_bands ? s->n_bands : 0);
	return ma;
}

/* The samples as dots, one per dot-sized cell (a million samples stay a few thousand rectangles). */
static int draw_dots(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, size_t k,
		     struct extent *e)
{
	const struct slc_plot_series *sr = &s->series[k];
	double r = fs * (sr->n > 20000 ? 0.08 : sr->n > 3000 ? 0.12 : 0.18);
	double cell = sr->n > 20000 ? 2 * r : r * 0.5;
	size_t cols = (size_t)(f->w / cell) + 2, rows = (size_t)(f->h / cell) + 2;
	unsigned char *seen = calloc(cols * rows, 1);

	if (!seen)
		return -ENOMEM;
	slc__plot_set_colour(cr, series_colour(s, k), sr->alpha > 0 ? sr->alpha : sr->n > 3000 ? 0.45 : 0.7);
	for (size_t i = 0; i < sr->n; i++) {
		double x = slc__frame_px(f, sr->x[i] / s->x_scale), y = slc__frame_py(f, sr->y[i] / s->y_scale);
		size_t cx, cy;
		if (!isfinite(x) || !isfinite(y) || x < f->x0 - r || x > f->x0 + f->w + r || y < f->y0 - r ||
		    y > f->y0 + f->h + r)
			continue;
		ext_add(e, f, x, y);
		cx = (size_t)((x - f->x0 + r) / cell);
		cy = (size_t)((y - f->y0 + r) / cell);
		if (cx >= cols || cy >= rows || seen[cy * cols + cx])
			continue;
		seen[cy * cols + cx] = 1;
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
	}
	cairo_fill(cr);
	free(seen);
	return 0;
}

/*
 * Dash patterns in units of the line width, so lines differ in grey print
 * too.  @centre > 0: the first dash centred that far along the path (under a
 * legend key's marker), so the key's gaps show on either side of it.
 */
static void set_dash(cairo_t *cr, int dash, double width, double centre)
{
	static const double pat[][4] = { { 0 }, { 6, 3 }, { 1.5, 2.5 }, { 6, 2.5, 1.5, 2.5 }, { 10, 4 }, { 3, 3 },
					 { 10, 3, 1.5, 3 } };
	static const int len[] = { 0, 2, 2, 4, 2, 2, 4 };
	int k = dash > 0 ? 1 + (dash - 1) % 6 : 0;
	double d[4], period = 0, offset = 0;

	for (int i = 0; i < len[k]; i++)
		period += d[i] = pat[k][i] * width;
	if (centre > 0 && period > 0)
		offset = period - fmod(centre - d[0] / 2 + period * 8, period);
	cairo_set_dash(cr, d, len[k], offset);
}

/* The current source colour as 0xRRGGBB, for the layout. */
static unsigned source_rgb(cairo_t *cr)
{
	double r = 0, g = 0, b = 0, a;

	cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a);
	return (unsigned)lround(r * 255) << 16 | (unsigned)lround(g * 255) << 8 | (unsigned)lround(b * 255);
}

/*
 * The markers of series @k along @y: on every point when asked, else about
 * every tenth of the width and at least four along a short line, offset per
 * series so they do not sit on each other.  Each gets a white rim so it
 * stays visible where lines cross.
 */
static void draw_markers(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, size_t k,
			 const double *y, struct extent *e)
{
	const struct slc_plot_series *sr = &s->series[k];
	double first = NAN, last = NAN, gap, next, r = fs * 0.34;

	for (size_t i = 0; i < sr->n; i++) {
		double x = slc__frame_px(f, sr->x[i] / s->x_scale);
		if (!isfinite(x) || !isfinite(slc__frame_py(f, y[i] / s->y_scale))) continue;
		if (!isfinite(first)) first = x;
		last = x;
	}
	if (!isfinite(first))
		return;
	/* not closer than a few marker widths, where a short line would get a blob */
	gap = fmax(fmin(f->w * 0.1, (last - first) / 4.5), r * 4);
	next = first + fmin(gap, last - first) * (0.15 + 0.7 * (double)k / (double)(s->n_series ? s->n_series : 1));
	for (size_t i = 0; i < sr->n; i++) {
		double x = slc__frame_px(f, sr->x[i] / s->x_scale), yy = slc__frame_py(f, y[i] / s->y_scale);
		if (!isfinite(x) || !isfinite(yy) || (!sr->mark_all && x < next))
			continue;
		next = x + gap;
		cairo_save(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);
		slc__plot_marker(cr, sr->marker, x, yy, r * 1.35);
		cairo_restore(cr);
		slc__plot_marker(cr, sr->marker, x, yy, r);
		if (e && x >= f->x0 && x <= f->x0 + f->w && yy >= f->y0 && yy <= f->y0 + f->h)
			e->markers++;
	}
}

/* A line through @y (NAN breaks it), dashed when asked, with its markers. */
static void draw_line(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, size_t k,
		      const double *y, double width, struct extent *e)
{
	const struct slc_plot_series *sr = &s->series[k];
	struct lpath p = { .cr = cr };

	width *= slc__plot_theme(cr)->line;
	cairo_set_line_width(cr, width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	set_dash(cr, sr->dash, width, 0);
	if (e)
		e->rgb = source_rgb(cr);
	for (size_t i = 0; i < sr->n; i++) {
		double x = slc__frame_px(f, sr->x[i] / s->x_scale), yy = slc__frame_py(f, y[i] / s->y_scale);
		if (!isfinite(x) || !isfinite(yy)) { lp_break(&p); continue; }
		lp_add(&p, x, yy);
		ext_add(e, f, x, yy);
	}
	lp_flush(&p);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (sr->marker)
		draw_markers(cr, s, f, fs, k, y, e);
}

/* The area between y_lo and y, one column of the envelope per pixel. */
static void draw_area(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, size_t k)
{
	const struct slc_plot_series *sr = &s->series[k];
	size_t i = 0;

	slc__plot_set_colour(cr, series_colour(s, k), sr->alpha > 0 ? sr->alpha : 0.35);
	while (i < sr->n) {
		size_t a = i, b;
		while (a < sr->n && !(isfinite(sr->y[a]) && isfinite(sr->y_lo[a]))) a++;
		for (b = a; b < sr->n && isfinite(sr->y[b]) && isfinite(sr->y_lo[b]); b++) {
			double x = slc__frame_px(f, sr->x[b] / s->x_scale), y = slc__frame_py(f, sr->y[b] / s->y_scale);
			if (b == a) cairo_move_to(cr, x, y);
			else cairo_line_to(cr, x, y);
		}
		for (size_t j = b; j-- > a;)
			cairo_line_to(cr, slc__frame_px(f, sr->x[j] / s->x_scale), slc__frame_py(f, sr->y_lo[j] / s->y_scale));
		if (b > a) {
			cairo_close_path(cr);
			cairo_fill(cr);
		}
		i = b > a ? b : a + 1;
	}
}

static int draw_series(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, size_t k,
		       struct extent *e)
{
	const struct slc_plot_series *sr = &s->series[k];
	int c = series_colour(s, k), rc;
	double *ma;

	if (sr->line_only && sr->y_lo) {
		draw_area(cr, s, f, k);
		return 0;
	}
	if (sr->line_only) {
		line_colour(cr, c);
		draw_line(cr, s, f, fs, k, sr->y, fs * (sr->marker ? 0.16 : 0.12), e);
		return 0;
	}
	if (!sr->no_dots && (rc = draw_dots(cr, s, f, fs, k, e)))
		return rc;
	if (!(s->ma_window_x > 0 || sr->ma_window_x > 0) || sr->n < 2)
		return 0;
	if (!(ma = moving_average(s, sr)))
		return -ENOMEM;
	/* one series: the black line of the reviews; several: each its colour */
	if (s->n_series == 1 && !sr->no_dots) {
		cairo_set_source_rgb(cr, 0, 0, 0);
	} else {
		const double *p = slc__plot_rgb(cr, c);
		cairo_set_source_rgb(cr, p[0] * 0.85, p[1] * 0.85, p[2] * 0.85);
	}
	draw_line(cr, s, f, fs, k, ma, fs * (sr->no_dots ? 0.16 : 0.14), sr->no_dots ? e : NULL);
	free(ma);
	return 0;
}

/* ---- axes ----------------------------------------------------------------- */

void slc__plot_data_range(const struct slc_plot_spec *s, double *xmax, double *ymin_pos, double *ymax)
{
	*xmax = -INFINITY;
	*ymax = 0;
	*ymin_pos = INFINITY;
	for (size_t k = 0; k < s->n_series; k++)
		for (size_t i = 0; i < s->series[k].n; i++) {
			double x = s->series[k].x[i] / s->x_scale, y = s->series[k].y[i] / s->y_scale;
			double lo = s->series[k].y_lo ? s->series[k].y_lo[i] / s->y_scale : y;
			if (isfinite(x) && x > *xmax) *xmax = x;
			if (isfinite(y) && y > *ymax) *ymax = y;
			if (isfinite(lo) && lo > 0 && lo < *ymin_pos) *ymin_pos = lo;
			if (isfinite(y) && y > 0 && y < *ymin_pos) *ymin_pos = y;
		}
	if (!isfinite(*xmax) || *xmax <= 0) *xmax = 1;
	if (*ymax <= 0) *ymax = 1;
}

/* The y range of @s into @f (ymin, ymax, log_y) and the linear tick step. */
double slc__plot_y_range(struct frame *f, const struct slc_plot_spec *s)
{
	double xmax, ymax, ymin_pos, step, at[64];
	size_t n;

	slc__plot_data_range(s, &xmax, &ymin_pos, &ymax);
	if (s->y_max > 0) ymax = s->y_max;
	if (s->y_min > 0) ymin_pos = s->y_min;
	f->log_y = s->log_y;
	if (f->log_y) {
		/* bounds at 1, 2 or 5 x 10^k around the data when it spans two decades or less, so a
		 * flat curve is not pressed into a sliver; whole decades beyond that */
		double lo = log10(isfinite(ymin_pos) ? ymin_pos : 1), hi = log10(ymax);
		f->ymin = floor(lo + 1e-9);
		f->ymax = ceil(hi - 1e-9);
		if (f->ymax <= f->ymin) f->ymax = f->ymin + 1;
		if (hi - lo <= 2) {
			static const double m[3] = { 5, 2, 1 };
			for (int i = 0; i < 3; i++)
				if (log10(m[i]) + floor(lo + 1e-9) <= lo + 1e-9) { f->ymin = floor(lo + 1e-9) + log10(m[i]); break; }
			for (int i = 2; i >= 0; i--)
				if (log10(m[i]) + floor(hi - 1e-9) >= hi - 1e-9) { f->ymax = floor(hi - 1e-9) + log10(m[i]); break; }
			if (f->ymax - f->ymin < log10(2)) f->ymax = f->ymin + log10(2);
		}
		return 1;
	}
	f->ymin = s->y_min > 0 ? s->y_min : 0;
	/* both ends widened to a tick, so the frame starts and ends on a labelled
	 * grid line (headroom over the data unless the spec fixes the top) */
	n = slc__ticks_span(f->ymin, s->y_max > 0 && s->y_min >= 0 ? ymax : ymax * 1.08, 6, at, 64, &step);
	if (n) f->ymin = fmax(0, fmin(f->ymin, at[0]));
	f->ymax = n ? fmax(at[n - 1], f->ymin + step) : f->ymin + step;
	return step;
}

static void y_tick_text(char *buf, size_t len, const struct slc_plot_spec *s, double v, double step)
{
	if (s->y_format == SLC_YFMT_US) {
		char num[48];
		const char *unit = v >= 1e6 ? "s" : v >= 1e3 ? "ms" : "µs";
		slc__num_label(num, sizeof(num), v >= 1e6 ? v / 1e6 : v >= 1e3 ? v / 1e3 : v);
		snprintf(buf, len, "%s %s", num, unit);
	} else if (s->log_y) {
		slc__log_label(buf, len, v);
	} else {
		slc__tick_label(buf, len, v, step);
	}
}

/* The y ticks' values (at most @max); their count. */
static size_t y_ticks(const struct frame *f, double step, double *v, size_t max)
{
	size_t n = 0;

	if (!f->log_y)
		return slc__ticks_at(f->ymin, f->ymax, step, v, max);
	for (double d = floor(f->ymin + 1e-9); d <= f->ymax + 1e-9 && n < max; d++) {
		/* a short range gets 2 and 5 between the decades */
		for (int k = 0; k < 3 && n < max; k++) {
			double t = (k == 0 ? 1 : k == 1 ? 2 : 5) * pow(10, d);
			if ((k == 0 || f->ymax - f->ymin <= 2) && log10(t) >= f->ymin - 1e-9 && log10(t) <= f->ymax + 1e-9)
				v[n++] = t;
		}
	}
	return n;
}

double slc__plot_y_label_width(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double step, double fs)
{
	double v[64], w = 0;
	char buf[64];
	size_t n = y_ticks(f, step, v, 64);

	for (size_t i = 0; i < n; i++) {
		double tw;
		y_tick_text(buf, sizeof(buf), s, v[i], step);
		tw = slc__plot_text_width(cr, buf, fs * 0.8, 0);
		if (tw > w) w = tw;
	}
	return w;
}

static void grid_line(cairo_t *cr, double x0, double y0, double x1, double y1)
{
	cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

static void draw_grid(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, double step,
		      int ylabels)
{
	double v[64], xt[SLC_TICKS_MAX], xs;
	char buf[64];
	size_t n = y_ticks(f, step, v, 64), nx;

	cairo_set_line_width(cr, fs * 0.05);
	for (size_t i = 0; i < n; i++) {
		grid_line(cr, f->x0, slc__frame_py(f, v[i]), f->x0 + f->w, slc__frame_py(f, v[i]));
		if (!ylabels)
			continue;
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		y_tick_text(buf, sizeof(buf), s, v[i], step);
		slc__plot_text(cr, f->x0 - fs * 0.4, slc__frame_py(f, v[i]), buf, fs * 0.8, 1, 0.5, 0, NULL);
	}
	if (s->x_ticks && s->x_ticks->n) {
		for (size_t i = 0; i < s->x_ticks->n; i++) {
			double x = slc__frame_px(f, s->x_ticks->at[i]);
			grid_line(cr, x, f->y0, x, f->y0 + f->h);
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			slc__plot_text(cr, x, f->y0 + f->h + fs * 0.5, s->x_ticks->labels[i], fs * 0.8, 0.5, 0, 0, NULL);
		}
		return;
	}
	/* fewer ticks on a narrow panel, so their labels never touch */
	nx = slc__ticks(f->xmin, f->xmax, f->w > fs * 40 ? 8 : 4, xt, SLC_TICKS_MAX, &xs);
	for (size_t i = 0; i < nx; i++) {
		double x = slc__frame_px(f, xt[i]);
		grid_line(cr, x, f->y0, x, f->y0 + f->h);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		slc__tick_label(buf, sizeof(buf), xt[i], xs);
		slc__plot_text(cr, x, f->y0 + f->h + fs * 0.5, buf, fs * 0.8, 0.5, 0, 0, NULL);
	}
}

static void shade_bands(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f)
{
	for (size_t b = 0; b < s->n_bands; b++) {
		const struct slc_plot_band *band = &s->bands[b];
		double a = slc__frame_px(f, band->x0 / s->x_scale), z = slc__frame_px(f, band->x1 / s->x_scale);
		if (z < f->x0 || a > f->x0 + f->w) continue;
		if (a < f->x0) a = f->x0;
		if (z > f->x0 + f->w) z = f->x0 + f->w;
		/* at least a hairline, so a one-second stall stays visible */
		if (z - a < 1) z = a + 1;
		slc__plot_set_colour(cr, band->style, band->style == SLC_COL_BLACK ? 0.22 : 0.15);
		cairo_rectangle(cr, a, f->y0, z - a, f->h);
		cairo_fill(cr);
	}
}

static int cmp_y(const void *a, const void *b)
{
	return cmp_double(a, b);
}

static void record_extent(struct slc_plot_layout *lay, size_t k, struct extent *e)
{
	if (!lay || k >= SLC_PLOT_MAX_SERIES)
		return;
	if (lay->n_series <= k) lay->n_series = k + 1;
	lay->series[k].points = e->n;
	lay->series[k].markers = e->markers;
	lay->series[k].rgb = e->rgb;
	if (!e->n)
		return;
	qsort(e->y, e->n, sizeof(*e->y), cmp_y);
	lay->series[k].y_min = e->y[0];
	lay->series[k].y_max = e->y[e->n - 1];
	lay->series[k].y_p5 = e->y[e->n * 5 / 100];
	lay->series[k].y_p95 = e->y[e->n * 95 / 100 < e->n ? e->n * 95 / 100 : e->n - 1];
}

int slc__plot_panel(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, double step,
	       int ylabels, struct slc_plot_layout *lay)
{
	int rc = 0;

	shade_bands(cr, s, f);
	draw_grid(cr, s, f, fs, step, ylabels);
	cairo_save(cr);
	cairo_rectangle(cr, f->x0, f->y0, f->w, f->h);
	cairo_clip(cr);
	for (size_t k = 0; k < s->n_series && !rc; k++) {
		struct extent e = { 0 };
		rc = draw_series(cr, s, f, fs, k, lay ? &e : NULL);
		record_extent(lay, k, &e);
		free(e.y);
	}
	cairo_restore(cr);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fs * 0.08);
	cairo_rectangle(cr, f->x0, f->y0, f->w, f->h);
	cairo_stroke(cr);
	return rc;
}

/* The largest size up to @size at which @s (bold or not) fits in @w. */
static double fitting(cairo_t *cr, const char *s, double size, int bold, double w)
{
	double tw = s ? slc__plot_text_width(cr, s, size, bold) : 0;
	return tw > w && tw > 0 ? size * w / tw : size;
}

/* ---- the legend ----------------------------------------------------------- */

size_t slc__plot_legend_entries(const struct slc_plot_spec *s, struct lentry *e, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < s->n_series && n < max; k++) {
		const struct slc_plot_series *sr = &s->series[k];
		const char *t = sr->label ? sr->label : s->n_series == 1 ? s->dots_label : NULL;
		int kind = sr->line_only ? (sr->y_lo ? LE_SWATCH : LE_LINE) : sr->no_dots ? LE_LINE : LE_DOT;
		if (t)
			e[n++] = (struct lentry){ kind, series_colour(s, k), sr->marker, t, sr->dash };
	}
	if (s->ma_window_x > 0 && s->ma_label && n < max && s->n_series == 1 && !s->series[0].no_dots)
		e[n++] = (struct lentry){ LE_MA, SLC_COL_BLACK, 0, s->ma_label, 0 };
	for (size_t b = 0; b < s->n_bands && n < max; b++) {
		int dup = 0;
		if (!s->bands[b].legend)
			continue;
		for (size_t j = 0; j < b && !dup; j++)
			dup = s->bands[j].legend && !strcmp(s->bands[j].legend, s->bands[b].legend);
		if (!dup)
			e[n++] = (struct lentry){ LE_BAND, s->bands[b].style, 0, s->bands[b].legend, 0 };
	}
	return n;
}

static void legend_key(cairo_t *cr, const struct lentry *e, double x, double y, double fs, double kw)
{
	switch (e->kind) {
	case LE_DOT:
		slc__plot_set_colour(cr, e->colour, 0.8);
		cairo_rectangle(cr, x + kw / 2 - fs * 0.2, y - fs * 0.2, fs * 0.4, fs * 0.4);
		cairo_fill(cr);
		break;
	case LE_LINE:
	case LE_MA:
		if (e->kind == LE_MA) cairo_set_source_rgb(cr, 0, 0, 0);
		else line_colour(cr, e->colour);
		/* the key drawn as thick as the data lines it names */
		cairo_set_line_width(cr, fs * 0.16 * slc__plot_theme(cr)->line);
		set_dash(cr, e->dash, fs * 0.16 * slc__plot_theme(cr)->line, kw / 2);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + kw, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		if (e->marker) {
			cairo_save(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
			slc__plot_marker(cr, e->marker, x + kw / 2, y, fs * 0.46);
			cairo_restore(cr);
			slc__plot_marker(cr, e->marker, x + kw / 2, y, fs * 0.34);
		}
		break;
	case LE_BAR:
		/* the bars' own colour, opaque as they are */
		slc__plot_set_colour(cr, e->colour, 1);
		cairo_rectangle(cr, x + fs * 0.1, y - fs * 0.4, kw - fs * 0.2, fs * 0.8);
		cairo_fill(cr);
		break;
	default:
		slc__plot_set_colour(cr, e->colour, e->kind == LE_BAND ? (e->colour == SLC_COL_BLACK ? 0.3 : 0.25) : 0.5);
		cairo_rectangle(cr, x + fs * 0.1, y - fs * 0.4, kw - fs * 0.2, fs * 0.8);
		cairo_fill(cr);
		break;
	}
}

#define WRAP_LINES 4
#define WRAP_LEN 160

/*
 * Break @s into lines no wider than @w at @size, at spaces (a word wider than
 * @w stays whole on its line); their count, at most WRAP_LINES, the last
 * holding the rest.
 */
static size_t wrap_text(cairo_t *cr, const char *s, double size, double w, char (*out)[WRAP_LEN])
{
	size_t n = 0, len = strlen(s), i = 0;

	while (i < len && n < WRAP_LINES) {
		size_t end = len;
		if (n + 1 < WRAP_LINES) {
			int have = 0;
			for (size_t j = i + 1; j <= len; j++) {
				char buf[WRAP_LEN];
				if (j < len && s[j] != ' ') continue;
				snprintf(buf, sizeof(buf), "%.*s", (int)(j - i), s + i);
				if (have && slc__plot_text_width(cr, buf, size, 0) > w) break;
				end = j;
				have = 1;
			}
		}
		snprintf(out[n++], WRAP_LEN, "%.*s", (int)(end - i), s + i);
		for (i = end; i < len && s[i] == ' '; i++)
			;
	}
	return n;
}

/*
 * Lay the legend out (and draw it when @draw): in rows flowing across
 * @avail_w, or in one column when @column, each entry wrapped to @avail_w.
 * Its box into @box.
 */
void slc__plot_legend(cairo_t *cr, const struct lentry *e, size_t n, double fs, double x, double y, double avail_w,
		 int column, int draw, struct slc_plot_rect *box)
{
	double lh = fs * 1.35, cx = x, cy = y + lh / 2, wmax = 0, kw = fs * 1.5;

	*box = (struct slc_plot_rect){ 0 };
	if (!n)
		return;
	/* a dashed line needs room to show its pattern */
	for (size_t i = 0; i < n; i++)
		if (e[i].dash) kw = fs * 2.6;
	for (size_t i = 0; i < n; i++) {
		char lines[WRAP_LINES][WRAP_LEN];
		size_t nl = 1;
		double size = fs * 0.8, tw = 0, w;
		if (column) {
			nl = wrap_text(cr, e[i].text, size, avail_w - kw - fs * 0.5, lines);
			/* a word wider than the column gets smaller type rather than running off the canvas */
			for (size_t l = 0; l < nl; l++)
				size = fmin(size, fitting(cr, lines[l], fs * 0.8, 0, avail_w - kw - fs * 0.5));
		} else {
			snprintf(lines[0], WRAP_LEN, "%s", e[i].text);
		}
		for (size_t l = 0; l < nl; l++)
			tw = fmax(tw, slc__plot_text_width(cr, lines[l], size, 0));
		w = kw + fs * 0.5 + tw;
		if (!column && cx > x && cx + w > x + avail_w) {
			cx = x;
			cy += lh;
		}
		if (draw) {
			legend_key(cr, &e[i], cx, cy, fs, kw);
			cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
			for (size_t l = 0; l < nl; l++)
				slc__plot_text(cr, cx + kw + fs * 0.3, cy + (double)l * fs * 1.0, lines[l], size, 0, 0.5, 0, NULL);
		}
		if (cx + w - x > wmax) wmax = cx + w - x;
		if (column) cy += lh + (double)(nl - 1) * fs * 1.0;
		else cx += w + fs * 1.0;
	}
	*box = (struct slc_plot_rect){ x, y, wmax, (column ? cy - lh / 2 : cy + lh / 2) - y };
}

/* ---- band labels above the plot ------------------------------------------ */

#define LABEL_ROWS 5

/*
 * Place each band's label in the lowest row above the plot where it
 * touches no other label and its leader line (down to the band's middle)
 * crosses no label of a lower row.  Labels that find no room are left to
 * the legend.  Returns the count placed; *@rows the rows used.
 */
static size_t place_labels(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs,
			   struct placed *pl, size_t max, int *rows)
{
	size_t n = 0;
	double pad = fs * 0.5;

	*rows = 0;
	for (size_t b = 0; b < s->n_bands && n < max; b++) {
		const struct slc_plot_band *band = &s->bands[b];
		double a, z, mid, w, x = 0;
		int row, wide;
		if (!band->label)
			continue;
		a = fmax(slc__frame_px(f, band->x0 / s->x_scale), f->x0);
		z = fmin(slc__frame_px(f, band->x1 / s->x_scale), f->x0 + f->w);
		if (z < a) continue;
		mid = (a + z) / 2;
		w = slc__plot_text_width(cr, band->label, fs * 0.8, 0);
		/* a label that fits over its band slides along it; a narrow band's label is centred on it */
		wide = w + pad < z - a;
		for (row = 0; row < LABEL_ROWS; row++) {
			int ok = 0;
			x = wide ? a + pad * 0.6 : fmax(f->x0, fmin(mid - w / 2, f->x0 + f->w - w));
			for (size_t tries = 0; tries <= n && !ok; tries++) {
				size_t j;
				ok = 1;
				for (j = 0; j < n && ok; j++) {
					if (pl[j].row == row && x < pl[j].x + pl[j].w + pad && pl[j].x < x + w + pad) ok = 0;
					else if (!wide && pl[j].row < row && mid > pl[j].x - pad * 0.3 && mid < pl[j].x + pl[j].w + pad * 0.3) ok = 0;
				}
				if (!ok && wide && pl[j - 1].row == row && pl[j - 1].x + pl[j - 1].w + pad + w <= z)
					x = pl[j - 1].x + pl[j - 1].w + pad;
				else if (!ok)
					break;
			}
			if (ok) break;
		}
		if (row == LABEL_ROWS)
			continue;
		pl[n++] = (struct placed){ x, w, wide ? NAN : fmax(x, fmin(mid, x + w)), mid, row, b };
		if (row + 1 > *rows) *rows = row + 1;
	}
	return n;
}

static void draw_labels(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs,
			const struct placed *pl, size_t n, struct slc_plot_layout *lay)
{
	double lh = fs * 1.25;

	for (size_t i = 0; i < n; i++) {
		const struct slc_plot_band *band = &s->bands[pl[i].band];
		const double *c = slc__plot_rgb(cr, band->style);
		double yc = f->y0 - fs * 0.45 - lh * (pl[i].row + 0.5);
		struct slc_plot_rect box;
		cairo_set_source_rgb(cr, c[0] * 0.7, c[1] * 0.7, c[2] * 0.7);
		slc__plot_text(cr, pl[i].x, yc, band->label, fs * 0.8, 0, 0.5, 0, &box);
		/* a label off its band gets a leader down to the band's middle */
		if (isfinite(pl[i].lead_x)) {
			cairo_set_line_width(cr, fs * 0.05);
			cairo_move_to(cr, pl[i].lead_x, yc + fs * 0.45);
			cairo_line_to(cr, pl[i].mid, f->y0);
			cairo_stroke(cr);
		}
		if (lay && lay->n_labels < SLC_PLOT_MAX_LABELS)
			lay->labels[lay->n_labels++] = box;
	}
}

/* ---- the whole curve graph ------------------------------------------------- */

struct curve_layout {
	struct frame f, z;            /* the plot and the zoom panel (z.w = 0: none) */
	double step;
	struct lentry le[48];
	size_t nle;
	struct placed pl[SLC_PLOT_MAX_LABELS];
	size_t npl;
	double legend_x, legend_y, legend_w;
};

static void frame_x(struct frame *f, const struct slc_plot_spec *s)
{
	double xmax, ymin_pos, ymax;

	slc__plot_data_range(s, &xmax, &ymin_pos, &ymax);
	f->xmin = s->x_min;
	f->xmax = s->x_max > s->x_min ? s->x_max : xmax;
	if (f->xmax <= f->xmin) f->xmax = f->xmin + 1;
}

/* Everything's place: margins from the texts' extents, the label rows, the legend. */
static void curve_layout(cairo_t *cr, const struct slc_plot_spec *s, double W, double H, double fs,
			 struct curve_layout *L)
{
	double header = fs * (s->subtitle ? 3.9 : 2.7), left, right = W - fs * 1.2, bottom;
	struct slc_plot_rect lb;
	int rows;

	memset(L, 0, sizeof(*L));
	L->step = slc__plot_y_range(&L->f, s);
	frame_x(&L->f, s);
	left = fs * 2.4 + slc__plot_y_label_width(cr, s, &L->f, L->step, fs);
	L->nle = slc__plot_legend_entries(s, L->le, 48);
	if (s->legend_right && L->nle) {
		slc__plot_legend(cr, L->le, L->nle, fs, 0, 0, W * 0.25, 1, 0, &lb);
		L->legend_w = fmin(lb.w, W * 0.25);
		right -= L->legend_w + fs * 0.8;
	}
	L->f.x0 = left;
	L->f.w = right - left;
	if (s->zoom_x1 > 0) {
		L->z = L->f;
		L->f.w = (right - left) * 0.70;
		L->z.x0 = left + L->f.w + fs * 2.2;
		L->z.w = right - L->z.x0;
		L->z.xmax = s->zoom_x1 / s->x_scale;
	}
	L->npl = place_labels(cr, s, &L->f, fs, L->pl, SLC_PLOT_MAX_LABELS, &rows);
	L->f.y0 = header + fs * 0.5 + rows * fs * 1.25 + (rows ? fs * 0.45 : 0);
	if (L->z.w > 0 && L->f.y0 < header + fs * 1.9)
		L->f.y0 = header + fs * 1.9;
	bottom = H - fs * 3.6;
	if (!s->legend_right && L->nle) {
		slc__plot_legend(cr, L->le, L->nle, fs, 0, 0, W - fs * 2.4, 0, 0, &lb);
		bottom -= lb.h;
		L->legend_x = fs * 1.2;
		L->legend_y = H - fs * 0.5 - lb.h;
		L->legend_w = W - fs * 2.4;
	} else {
		L->legend_x = W - fs * 1.2 - L->legend_w;
		L->legend_y = L->f.y0;
	}
	L->f.h = bottom - L->f.y0;
	if (L->z.w > 0) {
		L->z.y0 = L->f.y0;
		L->z.h = L->f.h;
	}
}

static void axis_titles(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, double H,
			double xmid)
{
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	slc__plot_text(cr, xmid, f->y0 + f->h + fs * 2.3, s->xlabel, fs * 0.95, 0.5, 0.5, 0, NULL);
	cairo_save(cr);
	cairo_translate(cr, fs * 1.0, f->y0 + f->h / 2);
	cairo_rotate(cr, -M_PI / 2);
	slc__plot_text(cr, 0, 0, s->ylabel, fs * 0.95, 0.5, 0.5, 0, NULL);
	cairo_restore(cr);
}

void slc__plot_titles(cairo_t *cr, const char *title, const char *subtitle, double x, double fs,
		 struct slc_plot_layout *lay)
{
	double w = lay->width - x - fs * 0.8;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	slc__plot_text(cr, x, fs * 1.6, title, fitting(cr, title, fs * 1.25, 1, w), 0, 0.5, 1, &lay->title);
	if (subtitle) {
		cairo_set_source_rgb(cr, 0.33, 0.33, 0.33);
		slc__plot_text(cr, x, fs * 3.0, subtitle, fitting(cr, subtitle, fs * 0.9, 0, w), 0, 0.5, 0, &lay->subtitle);
	}
}

static int draw_curve(cairo_t *cr, const void *spec, double W, double H)
{
	const struct slc_plot_spec *s = spec;
	struct slc_plot_layout lay = { .width = W, .height = H };
	struct curve_layout *L = malloc(sizeof(*L));
	double fs = fmin(H / 50.0, W / 62.0);
	int rc;

	if (!L)
		return -ENOMEM;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	curve_layout(cr, s, W, H, fs, L);
	slc__plot_titles(cr, s->title, s->subtitle, L->f.x0, fs, &lay);
	rc = slc__plot_panel(cr, s, &L->f, fs, L->step, 1, &lay);
	if (!rc && L->z.w > 0) {
		rc = slc__plot_panel(cr, s, &L->z, fs, L->step, 0, NULL);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		slc__plot_text(cr, L->z.x0 + L->z.w / 2, L->z.y0 - fs * 0.8, s->zoom_label, fs * 0.85, 0.5, 0.5, 1, NULL);
		lay.zoom = (struct slc_plot_rect){ L->z.x0, L->z.y0, L->z.w, L->z.h };
	}
	draw_labels(cr, s, &L->f, fs, L->pl, L->npl, &lay);
	axis_titles(cr, s, &L->f, fs, H, L->z.w > 0 ? (L->f.x0 + L->z.x0 + L->z.w) / 2 : L->f.x0 + L->f.w / 2);
	slc__plot_legend(cr, L->le, L->nle, fs, L->legend_x, L->legend_y, L->legend_w, s->legend_right, 1, &lay.legend);
	lay.plot = (struct slc_plot_rect){ L->f.x0, L->f.y0, L->f.w, L->f.h };
	lay.panels[0] = lay.plot;
	lay.n_panels = 1;
	if (lay.zoom.w > 0) lay.panels[lay.n_panels++] = lay.zoom;
	if (s->layout)
		*s->layout = lay;
	free(L);
	return rc;
}

int slc_plot_write(const char *path, const struct slc_plot_spec *spec, char *err, size_t errlen)
{
	struct slc_plot_spec s = *spec;
	size_t total = 0;

	for (size_t k = 0; k < s.n_series; k++) total += s.series[k].n;
	if (!total)
		return slc__plot_fail(err, errlen, -EINVAL, "nothing to plot: no samples");
	if (s.width <= 0) s.width = 1200;
	if (s.height <= 0) s.height = 700;
	if (!(s.x_scale > 0)) s.x_scale = 1;
	if (!(s.y_scale > 0)) s.y_scale = 1;
	return slc__plot_render(path, draw_curve, &s, s.title, s.width, s.height, s.theme, err, errlen);
}
