// SPDX-License-Identifier: MIT
/*
 * Write-curve graphs with cairo.
 *
 * One drawing function renders to any cairo surface, so PNG, SVG and PDF
 * come out identical.  Sizes are in points relative to the canvas so that
 * a 1200 x 700 graph reads well on a web page and in print.  The palette is
 * Okabe and Ito's (colour-blind safe); text uses DejaVu Sans (Debian's
 * fonts-dejavu-core, which the set-up script installs).
 */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slcscope/plot.h"

#define FONT "DejaVu Sans"

/* Okabe-Ito: blue, vermillion, bluish green, orange, reddish purple, sky blue */
static const double palette[6][3] = {
	{ 0.000, 0.447, 0.698 }, { 0.835, 0.369, 0.000 }, { 0.000, 0.620, 0.451 },
	{ 0.902, 0.624, 0.000 }, { 0.800, 0.475, 0.655 }, { 0.337, 0.706, 0.914 },
};

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

void slc_moving_average(double *out, const double *t_s, const double *y, size_t n, double window_s)
{
	double sum = 0;
	size_t lo = 0, cnt = 0;

	for (size_t i = 0; i < n; i++) {
		if (isfinite(y[i])) { sum += y[i]; cnt++; }
		while (lo < i && t_s[i] - t_s[lo] >= window_s) {
			if (isfinite(y[lo])) { sum -= y[lo]; cnt--; }
			lo++;
		}
		out[i] = cnt ? sum / (double)cnt : NAN;
	}
}

/* A "nice" tick step (1, 2, 2.5 or 5 x 10^k) for about @want ticks over @range. */
static double nice_step(double range, int want)
{
	double raw = range / want, mag = pow(10, floor(log10(raw))), f = raw / mag;

	if (f <= 1) return mag;
	if (f <= 2) return 2 * mag;
	if (f <= 2.5) return 2.5 * mag;
	if (f <= 5) return 5 * mag;
	return 10 * mag;
}

static void tick_label(char *buf, size_t len, double v, double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	if (decimals > 6) decimals = 6;
	snprintf(buf, len, "%.*f", decimals, v);
}

/* Every text drawn is also logged, so that the SVG can carry it as <desc>:
 * cairo draws SVG text as glyph outlines, which no reader or search finds. */
struct textlog {
	char buf[16384];
	size_t n;
};
static const cairo_user_data_key_t textlog_key;

static void log_text(cairo_t *cr, const char *s)
{
	struct textlog *l = cairo_get_user_data(cr, &textlog_key);
	size_t len = strlen(s);

	if (!l || !*s || l->n + len + 2 >= sizeof(l->buf))
		return;
	memcpy(l->buf + l->n, s, len);
	l->n += len;
	l->buf[l->n++] = '\n';
	l->buf[l->n] = '\0';
}

static void text(cairo_t *cr, double x, double y, const char *s, double size, double ax, double ay, int bold)
{
	cairo_text_extents_t e;

	log_text(cr, s);
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.width * ax - e.x_bearing, y - e.height * ay - e.y_bearing);
	cairo_show_text(cr, s);
}

struct frame {
	double x0, y0, w, h;          /* plot area */
	double xmin, xmax, ymin, ymax;    /* log_y: ymin/ymax are decades */
	int log_y;
};

static double px(const struct frame *f, double x) { return f->x0 + (x - f->xmin) / (f->xmax - f->xmin) * f->w; }
static double py(const struct frame *f, double y)
{
	if (f->log_y)
		y = y > 0 ? log10(y) : NAN;
	return f->y0 + f->h - (y - f->ymin) / (f->ymax - f->ymin) * f->h;
}

/* The data's extent on the scaled axes: the largest x and y, the smallest positive y. */
static void data_range(const struct slc_plot_spec *s, double *xmax, double *ymax, double *ymin_pos)
{
	*xmax = -INFINITY;
	*ymax = 0;
	*ymin_pos = INFINITY;
	for (size_t k = 0; k < s->n_series; k++)
		for (size_t i = 0; i < s->series[k].n; i++) {
			double x = s->series[k].x[i] / s->x_scale, y = s->series[k].y[i] / s->y_scale;
			if (isfinite(x) && x > *xmax) *xmax = x;
			if (isfinite(y) && y > *ymax) *ymax = y;
			if (isfinite(y) && y > 0 && y < *ymin_pos) *ymin_pos = y;
		}
	if (!isfinite(*xmax) || *xmax <= 0) *xmax = 1;
	if (*ymax <= 0) *ymax = 1;
}

/* The plot area and the axes' ranges; the y tick step. */
static double make_frame(struct frame *f, const struct slc_plot_spec *s, double W, double H, double fs)
{
	double xmax, ymax, ymin_pos, step;

	data_range(s, &xmax, &ymax, &ymin_pos);
	f->x0 = fs * 5.5;
	f->y0 = fs * (s->subtitle ? 4.6 : 3.4);
	f->w = W - f->x0 - fs * 1.5;
	f->h = H - f->y0 - fs * 4.0;
	f->xmin = 0;
	f->xmax = xmax;
	f->log_y = s->log_y;
	if (f->log_y) {
		f->ymin = floor(log10(isfinite(ymin_pos) ? ymin_pos : 1));
		f->ymax = ceil(log10(ymax));
		if (f->ymax <= f->ymin) f->ymax = f->ymin + 1;
		step = 1;
	} else {
		f->ymin = 0;
		step = nice_step(ymax * 1.08, 6);
		f->ymax = ceil(ymax * 1.08 / step) * step;
	}
	return step;
}

static void draw_bands(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *fr, double fs)
{
	const struct frame f = *fr;

	/* phase bands, shaded, with their labels stacked at the top */
	for (size_t b = 0; b < s->n_bands; b++) {
		const struct slc_plot_band *band = &s->bands[b];
		const double *c = palette[band->style % 6];
		double a = px(&f, band->x0 / s->x_scale), z = px(&f, band->x1 / s->x_scale);
		if (z < f.x0 || a > f.x0 + f.w) continue;
		if (a < f.x0) a = f.x0;
		if (z > f.x0 + f.w) z = f.x0 + f.w;
		cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.13);
		cairo_rectangle(cr, a, f.y0, z - a, f.h);
		cairo_fill(cr);
		if (band->label) {
			cairo_set_source_rgb(cr, c[0] * 0.75, c[1] * 0.75, c[2] * 0.75);
			text(cr, a + fs * 0.4, f.y0 + fs * (1.0 + 1.2 * (double)(b % 3)), band->label, fs * 0.8, 0, 0.5, 0);
		}
	}

}

static void draw_grid(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *fr, double fs, double step, double H)
{
	const struct frame f = *fr;
	char buf[64];

	/* grid and ticks */
	cairo_set_line_width(cr, fs * 0.05);
	for (double v = f.ymin; v <= f.ymax + step * 1e-9; v += step) {
		double yv = f.log_y ? pow(10, v) : v;
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, f.x0, py(&f, yv));
		cairo_line_to(cr, f.x0 + f.w, py(&f, yv));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		if (f.log_y) snprintf(buf, sizeof(buf), "%.0f", yv);
		else tick_label(buf, sizeof(buf), v, step);
		text(cr, f.x0 - fs * 0.4, py(&f, yv), buf, fs * 0.8, 1, 0.5, 0);
	}
	step = nice_step(f.xmax, 8);
	for (double v = 0; v <= f.xmax + step * 1e-9; v += step) {
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, px(&f, v), f.y0);
		cairo_line_to(cr, px(&f, v), f.y0 + f.h);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		tick_label(buf, sizeof(buf), v, step);
		text(cr, px(&f, v), f.y0 + f.h + fs * 0.5, buf, fs * 0.8, 0.5, 0, 0);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	text(cr, f.x0 + f.w / 2, H - fs * 1.2, s->xlabel ? s->xlabel : "", fs * 0.95, 0.5, 0.5, 0);
	cairo_save(cr);
	cairo_translate(cr, fs * 1.2, f.y0 + f.h / 2);
	cairo_rotate(cr, -M_PI / 2);
	text(cr, 0, 0, s->ylabel ? s->ylabel : "", fs * 0.95, 0.5, 0.5, 0);
	cairo_restore(cr);

}

/* One series: its samples as dots and its moving average, or a line. */
static int draw_series(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *fr, double fs, size_t k)
{
	const struct frame f = *fr;
	const struct slc_plot_series *sr = &s->series[k];
	const double *c = palette[(k + (s->n_series > 1 ? 0 : 0)) % 6];
	double r = fs * (sr->n > 20000 ? 0.08 : sr->n > 3000 ? 0.12 : 0.18);

	if (sr->line_only) {
		int started = 0;
		cairo_set_source_rgb(cr, c[0], c[1], c[2]);
		cairo_set_line_width(cr, fs * 0.09);
		for (size_t i = 0; i < sr->n; i++) {
			double x = px(&f, sr->x[i] / s->x_scale), y = py(&f, sr->y[i] / s->y_scale);
			if (!isfinite(x) || !isfinite(y)) { started = 0; continue; }
			if (!started) { cairo_move_to(cr, x, y); started = 1; }
			else cairo_line_to(cr, x, y);
		}
		cairo_stroke(cr);
		return 0;
	}
	cairo_set_source_rgba(cr, c[0], c[1], c[2], sr->n > 3000 ? 0.45 : 0.7);
	for (size_t i = 0; i < sr->n; i++) {
		double x = px(&f, sr->x[i] / s->x_scale), y = py(&f, sr->y[i] / s->y_scale);
		if (!isfinite(x) || !isfinite(y)) continue;
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
	}
	cairo_fill(cr);
	if (sr->t_s && sr->n > 1) {
		int started = 0;
		double *ma = malloc(sr->n * sizeof(*ma));
		if (!ma) return -ENOMEM;
		slc_moving_average(ma, sr->t_s, sr->y, sr->n, s->ma_window_s > 0 ? s->ma_window_s : 30);
		/* one series: the black line of the reviews; several: each its colour */
		if (s->n_series == 1) cairo_set_source_rgb(cr, 0, 0, 0);
		else cairo_set_source_rgb(cr, c[0] * 0.8, c[1] * 0.8, c[2] * 0.8);
		cairo_set_line_width(cr, fs * 0.14);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		for (size_t i = 0; i < sr->n; i++) {
			double x = px(&f, sr->x[i] / s->x_scale), y = py(&f, ma[i] / s->y_scale);
			if (!isfinite(x) || !isfinite(y)) continue;
			if (!started) { cairo_move_to(cr, x, y); started = 1; }
			else cairo_line_to(cr, x, y);
		}
		cairo_stroke(cr);
		free(ma);
	}
	return 0;
}

static void draw_legend(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *fr, double fs)
{
	const struct frame f = *fr;
	double lx = f.x0 + f.w - fs * 0.6, ly = f.y0 + f.h - fs * 0.8;
	int lines = 0;
	for (size_t k = s->n_series; k-- > 0;) {
		const double *c = palette[k % 6];
		if (!s->series[k].label) continue;
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		text(cr, lx - fs * 1.6, ly - lines * fs * 1.3, s->series[k].label, fs * 0.8, 1, 0.5, 0);
		cairo_set_source_rgb(cr, c[0], c[1], c[2]);
		cairo_rectangle(cr, lx - fs * 1.2, ly - lines * fs * 1.3 - fs * 0.3, fs * 0.6, fs * 0.6);
		cairo_fill(cr);
		lines++;
	}
	if (s->n_series == 1 && s->series[0].t_s) {
		char l[64];
		snprintf(l, sizeof(l), "%.0f s moving average", s->ma_window_s > 0 ? s->ma_window_s : 30);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		text(cr, lx - fs * 1.6, ly - lines * fs * 1.3, l, fs * 0.8, 1, 0.5, 0);
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_set_line_width(cr, fs * 0.14);
		cairo_move_to(cr, lx - fs * 1.3, ly - lines * fs * 1.3);
		cairo_line_to(cr, lx - fs * 0.5, ly - lines * fs * 1.3);
		cairo_stroke(cr);
	}
}

static int draw(cairo_t *cr, const struct slc_plot_spec *s, double W, double H)
{
	struct frame f;
	double fs = H / 50.0;         /* base font size */
	double step;
	int rc = 0;

	/* background */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	step = make_frame(&f, s, W, H, fs);

	/* title */
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text(cr, f.x0, fs * 1.6, s->title ? s->title : "", fs * 1.25, 0, 0.5, 1);
	if (s->subtitle) {
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		text(cr, f.x0, fs * 3.0, s->subtitle, fs * 0.9, 0, 0.5, 0);
	}
	draw_bands(cr, s, &f, fs);
	draw_grid(cr, s, &f, fs, step, H);

	/* samples as dots, then the moving average */
	cairo_save(cr);
	cairo_rectangle(cr, f.x0, f.y0, f.w, f.h);
	cairo_clip(cr);
	for (size_t k = 0; k < s->n_series && !rc; k++)
		rc = draw_series(cr, s, &f, fs, k);
	cairo_restore(cr);
	if (rc)
		return rc;

	/* axes frame */
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fs * 0.08);
	cairo_rectangle(cr, f.x0, f.y0, f.w, f.h);
	cairo_stroke(cr);
	draw_legend(cr, s, &f, fs);
	return 0;
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<') fputs("&lt;", f);
		else if (*s == '>') fputs("&gt;", f);
		else if (*s == '&') fputs("&amp;", f);
		else fputc(*s, f);
	}
}

/* Insert <title> and <desc> (the texts drawn) after the opening <svg> tag. */
static int svg_add_desc(const char *path, const char *title, const char *texts, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char tmp2[4200], *buf = NULL, *tag, *end;
	long len;
	int rc = 0;

	if (!f)
		return fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(buf);
		return fail(err, errlen, -EIO, "%s: cannot read the SVG back", path);
	}
	fclose(f);
	buf[len] = '\0';
	if (!(tag = strstr(buf, "<svg")) || !(end = strchr(tag, '>'))) {
		free(buf);
		return fail(err, errlen, -EIO, "%s: no <svg> element", path);
	}
	snprintf(tmp2, sizeof(tmp2), "%s.desc", path);
	if (!(f = fopen(tmp2, "we"))) {
		free(buf);
		return fail(err, errlen, -errno, "%s: %s", tmp2, strerror(errno));
	}
	fwrite(buf, 1, (size_t)(end - buf + 1), f);
	fputs("\n<title>", f);
	xml_escaped(f, title ? title : "");
	fputs("</title>\n<desc>", f);
	xml_escaped(f, texts);
	fputs("</desc>", f);
	fputs(end + 1, f);
	free(buf);
	if (fclose(f))
		rc = fail(err, errlen, -EIO, "%s: cannot annotate the SVG", path);
	else if (rename(tmp2, path))
		rc = fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp2);
	return rc;
}

typedef int (*draw_fn)(cairo_t *cr, const void *spec, double w, double h);

static int draw_curve(cairo_t *cr, const void *spec, double w, double h)
{
	return draw(cr, spec, w, h);
}

/* Render @fn into @path (.png/.svg/.pdf) through a temporary file. */
static int render(const char *path, draw_fn fn, const void *spec, const char *title, int width, int height,
		  char *err, size_t errlen)
{
	const char *ext = strrchr(path, '.');
	char tmp[4096];
	cairo_surface_t *surf;
	cairo_t *cr;
	int rc, kind;
	struct textlog *tlog = NULL;

	if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".svg") && strcmp(ext, ".pdf")))
		return fail(err, errlen, -EINVAL, "%s: the graph's file name must end in .png, .svg or .pdf", path);
	kind = ext[1] == 'p' ? (ext[2] == 'n' ? 0 : 2) : 1;
	if (width < 200 || height < 150 || width > 20000 || height > 20000)
		return fail(err, errlen, -EINVAL, "graph size %dx%d is outside 200x150 to 20000x20000", width, height);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= sizeof(tmp))
		return fail(err, errlen, -ENAMETOOLONG, "%s: name too long", path);
	if (kind == 0)
		surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	else if (kind == 1)
		surf = cairo_svg_surface_create(tmp, width, height);
	else
		surf = cairo_pdf_surface_create(tmp, width, height);
	if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
		rc = fail(err, errlen, -EIO, "%s: %s", path, cairo_status_to_string(cairo_surface_status(surf)));
		cairo_surface_destroy(surf);
		unlink(tmp);
		return rc;
	}
	cr = cairo_create(surf);
	if (kind == 1 && !(tlog = calloc(1, sizeof(*tlog)))) {
		cairo_destroy(cr);
		cairo_surface_destroy(surf);
		unlink(tmp);
		return fail(err, errlen, -ENOMEM, "out of memory");
	}
	if (tlog)
		cairo_set_user_data(cr, &textlog_key, tlog, NULL);
	rc = fn(cr, spec, width, height);
	cairo_destroy(cr);
	if (!rc && kind == 0 && cairo_surface_write_to_png(surf, tmp) != CAIRO_STATUS_SUCCESS)
		rc = fail(err, errlen, -EIO, "%s: cannot write the PNG", path);
	cairo_surface_finish(surf);
	if (!rc && cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
		rc = fail(err, errlen, -EIO, "%s: %s", path, cairo_status_to_string(cairo_surface_status(surf)));
	cairo_surface_destroy(surf);
	if (!rc && tlog)
		rc = svg_add_desc(tmp, title, tlog->buf, err, errlen);
	free(tlog);
	if (!rc && rename(tmp, path))
		rc = fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}

int slc_plot_write(const char *path, const struct slc_plot_spec *spec, char *err, size_t errlen)
{
	struct slc_plot_spec s = *spec;
	size_t total = 0;

	for (size_t k = 0; k < s.n_series; k++) total += s.series[k].n;
	if (!total)
		return fail(err, errlen, -EINVAL, "nothing to plot: no samples");
	if (s.width <= 0) s.width = 1200;
	if (s.height <= 0) s.height = 700;
	if (!(s.x_scale > 0)) s.x_scale = 1;
	if (!(s.y_scale > 0)) s.y_scale = 1;
	return render(path, draw_curve, &s, s.title, s.width, s.height, err, errlen);
}

static void bar_panel(cairo_t *cr, const struct slc_bar_spec *s, int right, double x0, double y0, double w, double h, double fs)
{
	double vmax = 0, step, top, bw;
	char buf[64];
	size_t n = s->n_groups;

	for (size_t i = 0; i < n; i++) {
		double v = (right ? s->groups[i].right : s->groups[i].left) / (right ? s->right_scale : s->left_scale);
		if (isfinite(v) && v > vmax) vmax = v;
	}
	if (vmax <= 0) vmax = 1;
	step = nice_step(vmax * 1.1, 5);
	top = ceil(vmax * 1.1 / step) * step;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text(cr, x0 + w / 2, y0 - fs * 1.0, right ? s->right_label : s->left_label, fs * 0.95, 0.5, 0.5, 1);
	cairo_set_line_width(cr, fs * 0.05);
	for (double v = 0; v <= top + step * 1e-9; v += step) {
		double y = y0 + h - v / top * h;
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, x0, y);
		cairo_line_to(cr, x0 + w, y);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		tick_label(buf, sizeof(buf), v, step);
		text(cr, x0 - fs * 0.4, y, buf, fs * 0.8, 1, 0.5, 0);
	}
	bw = w / (double)n * 0.6;
	for (size_t i = 0; i < n; i++) {
		double v = (right ? s->groups[i].right : s->groups[i].left) / (right ? s->right_scale : s->left_scale);
		double cx = x0 + (i + 0.5) * w / (double)n;
		const double *c = palette[i % 6];
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		text(cr, cx, y0 + h + fs * 0.5, s->groups[i].label, fs * 0.8, 0.5, 0, 0);
		if (!isfinite(v))
			continue;
		cairo_set_source_rgb(cr, c[0], c[1], c[2]);
		cairo_rectangle(cr, cx - bw / 2, y0 + h - v / top * h, bw, v / top * h);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		snprintf(buf, sizeof(buf), v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
		text(cr, cx, y0 + h - v / top * h - fs * 0.3, buf, fs * 0.8, 0.5, 1, 0);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fs * 0.08);
	cairo_rectangle(cr, x0, y0, w, h);
	cairo_stroke(cr);
}

static int draw_bars(cairo_t *cr, const void *spec, double W, double H)
{
	const struct slc_bar_spec *s = spec;
	double fs = H / 40.0, top = fs * (s->subtitle ? 6.5 : 5.2), pw = (W - fs * 10) / 2;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text(cr, fs * 1.5, fs * 1.6, s->title ? s->title : "", fs * 1.15, 0, 0.5, 1);
	if (s->subtitle) {
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		text(cr, fs * 1.5, fs * 3.0, s->subtitle, fs * 0.85, 0, 0.5, 0);
	}
	bar_panel(cr, s, 0, fs * 4.5, top, pw, H - top - fs * 3, fs);
	bar_panel(cr, s, 1, fs * 9 + pw, top, pw, H - top - fs * 3, fs);
	return 0;
}

int slc_plot_bars(const char *path, const struct slc_bar_spec *spec, char *err, size_t errlen)
{
	struct slc_bar_spec s = *spec;

	if (!s.n_groups)
		return fail(err, errlen, -EINVAL, "nothing to plot: no groups");
	if (s.width <= 0) s.width = 1000;
	if (s.height <= 0) s.height = 560;
	if (!(s.left_scale > 0)) s.left_scale = 1;
	if (!(s.right_scale > 0)) s.right_scale = 1;
	return render(path, draw_bars, &s, s.title, s.width, s.height, err, errlen);
}
