// SPDX-License-Identifier: MIT
/*
 * Bar charts (one panel per figure, one bar per drive or per state) and
 * small multiples (one write curve per panel on shared axes): the two
 * figures review articles print most after the write curve itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_draw.h"

/* ---- bar charts ------------------------------------------------------------ */

static void value_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

/* The largest font size up to @size at which @s fits in @w. */
static double fit_size(cairo_t *cr, const char *s, double size, double w)
{
	double tw = slc__plot_text_width(cr, s, size, 0);
	return tw > w && tw > 0 ? fmax(size * 0.6, size * w / tw) : size;
}

static void bar_panel(cairo_t *cr, const struct slc_bar_chart *s, size_t p, const struct slc_plot_rect *r,
		      double fs)
{
	const struct slc_bar_panel *pn = &s->panels[p];
	double vmax = 0, step, top, bw, slot = r->w / (double)s->n_groups, at[SLC_TICKS_MAX + 2];
	char buf[64];
	size_t nt;

	for (size_t i = 0; i < s->n_groups; i++) {
		double v = pn->values[i] / pn->scale;
		if (isfinite(v) && v > vmax) vmax = v;
	}
	if (vmax <= 0) vmax = 1;
	nt = slc__ticks_span(0, vmax * 1.12, 5, at, SLC_TICKS_MAX + 2, &step);
	top = nt ? at[nt - 1] : vmax * 1.12;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	slc__plot_text(cr, r->x + r->w / 2, r->y - fs * 0.9, pn->label, fit_size(cr, pn->label, fs * 0.9, r->w + fs * 3), 0.5,
		  0.5, 1, NULL);
	cairo_set_line_width(cr, fs * 0.05);
	for (size_t t = 0; t < nt; t++) {
		double v = at[t], y = r->y + r->h - v / top * r->h;
		cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
		cairo_move_to(cr, r->x, y);
		cairo_line_to(cr, r->x + r->w, y);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		slc__tick_label(buf, sizeof(buf), v, step);
		slc__plot_text(cr, r->x - fs * 0.4, y, buf, fs * 0.75, 1, 0.5, 0, NULL);
	}
	bw = slot * (s->legend ? 0.72 : 0.6);
	for (size_t i = 0; i < s->n_groups; i++) {
		double v = pn->values[i] / pn->scale, cx = r->x + (i + 0.5) * slot;
		if (!s->legend) {
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			slc__plot_text(cr, cx, r->y + r->h + fs * 0.5, s->groups[i], fit_size(cr, s->groups[i], fs * 0.8, slot * 0.95),
				  0.5, 0, 0, NULL);
		}
		if (!isfinite(v)) {
			cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
			slc__plot_text(cr, cx, r->y + r->h - fs * 0.3, "n/a", fs * 0.7, 0.5, 1, 0, NULL);
			continue;
		}
		slc__plot_set_colour(cr, (int)(i % SLC_COL__COUNT), 1);
		cairo_rectangle(cr, cx - bw / 2, r->y + r->h - v / top * r->h, bw, v / top * r->h);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		value_text(buf, sizeof(buf), v);
		slc__plot_text(cr, cx, r->y + r->h - v / top * r->h - fs * 0.25, buf, fit_size(cr, buf, fs * 0.72, slot), 0.5, 1, 0,
			  NULL);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fs * 0.08);
	cairo_rectangle(cr, r->x, r->y, r->w, r->h);
	cairo_stroke(cr);
}

static int draw_bar_chart(cairo_t *cr, const void *spec, double W, double H)
{
	const struct slc_bar_chart *s = spec;
	struct slc_plot_layout lay = { .width = W, .height = H };
	struct lentry le[16];
	size_t cols = s->n_panels <= 3 ? s->n_panels : 3, rows = (s->n_panels + cols - 1) / cols, nle = 0;
	double fs = fmin(H / (rows > 1 ? 48.0 : 40.0), W / 55.0);
	double top = fs * (s->subtitle ? 6.2 : 4.9), bottom = H - fs * (s->legend ? 0.8 : 2.6), cw, ch;
	struct slc_plot_rect lb = { 0 };

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	slc__plot_titles(cr, s->title, s->subtitle, fs * 1.5, fs, &lay);
	for (size_t i = 0; s->legend && i < s->n_groups && nle < 16; i++)
		le[nle++] = (struct lentry){ LE_BAR, (int)(i % SLC_COL__COUNT), 0, s->groups[i], 0 };
	if (nle) {
		slc__plot_legend(cr, le, nle, fs, 0, 0, W - fs * 3, 0, 0, &lb);
		bottom -= lb.h + fs * 0.4;
		slc__plot_legend(cr, le, nle, fs, fs * 1.5, H - fs * 0.6 - lb.h, W - fs * 3, 0, 1, &lay.legend);
	}
	cw = (W - fs * 1.5) / (double)cols;
	ch = (bottom - top) / (double)rows;
	for (size_t p = 0; p < s->n_panels; p++) {
		struct slc_plot_rect r = { fs * 4.2 + (double)(p % cols) * cw, top + (double)(p / cols) * ch, cw - fs * 5.0,
					   ch - fs * (rows > 1 ? 3.2 : 0.6) };
		bar_panel(cr, s, p, &r, fs);
		if (lay.n_panels < SLC_PLOT_MAX_PANELS) lay.panels[lay.n_panels++] = r;
	}
	lay.plot = lay.panels[0];
	if (s->layout)
		*s->layout = lay;
	return 0;
}

int slc_plot_bar_chart(const char *path, const struct slc_bar_chart *spec, char *err, size_t errlen)
{
	struct slc_bar_chart s = *spec;

	if (!s.n_groups || !s.n_panels)
		return slc__plot_fail(err, errlen, -EINVAL, "nothing to plot: no bars");
	if (s.width <= 0) s.width = 1000;
	if (s.height <= 0) s.height = s.n_panels > 3 ? 760 : 560;
	return slc__plot_render(path, draw_bar_chart, &s, s.title, s.width, s.height, s.theme, err, errlen);
}

int slc_plot_bars(const char *path, const struct slc_bar_spec *spec, char *err, size_t errlen)
{
	struct slc_bar_panel p[2];
	struct slc_bar_chart c = { 0 };
	const char **names;
	double *v;
	int rc;

	if (!spec->n_groups)
		return slc__plot_fail(err, errlen, -EINVAL, "nothing to plot: no groups");
	names = calloc(spec->n_groups, sizeof(*names));
	v = calloc(2 * spec->n_groups, sizeof(*v));
	if (!names || !v) {
		free(names);
		free(v);
		return slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < spec->n_groups; i++) {
		names[i] = spec->groups[i].label;
		v[i] = spec->groups[i].left;
		v[spec->n_groups + i] = spec->groups[i].right;
	}
	p[0] = (struct slc_bar_panel){ spec->left_label, spec->left_scale > 0 ? spec->left_scale : 1, v };
	p[1] = (struct slc_bar_panel){ spec->right_label, spec->right_scale > 0 ? spec->right_scale : 1, v + spec->n_groups };
	c = (struct slc_bar_chart){ .title = spec->title, .subtitle = spec->subtitle, .groups = names,
				    .n_groups = spec->n_groups, .panels = p, .n_panels = 2, .width = spec->width,
				    .height = spec->height, .layout = spec->layout, .theme = spec->theme };
	rc = slc_plot_bar_chart(path, &c, err, errlen);
	free(names);
	free(v);
	return rc;
}

/* ---- small multiples -------------------------------------------------------- */

/* The legend of all panels: each entry once. */
static size_t multi_legend(const struct slc_plot_multi *m, struct lentry *le, size_t max)
{
	size_t n = 0;

	for (size_t p = 0; p < m->n_panels; p++) {
		struct lentry e[48];
		size_t k = slc__plot_legend_entries(&m->panels[p], e, 48);
		for (size_t i = 0; i < k && n < max; i++) {
			int dup = 0;
			for (size_t j = 0; j < n && !dup; j++)
				dup = !strcmp(le[j].text, e[i].text);
			if (!dup)
				le[n++] = e[i];
		}
	}
	return n;
}

static size_t multi_cols(const struct slc_plot_multi *m)
{
	size_t n = m->n_panels;
	if (m->cols > 0) return (size_t)m->cols < n ? (size_t)m->cols : n;
	/* three across up to nine panels, then four: panels stay wide enough for their labels */
	return n <= 2 ? n : n <= 4 ? 2 : n <= 9 ? 3 : 4;
}

static void panel_ylabel(cairo_t *cr, const char *label, double x, double y, double fs)
{
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -M_PI / 2);
	slc__plot_text(cr, 0, 0, label, fs * 0.9, 0.5, 0.5, 0, NULL);
	cairo_restore(cr);
}

/* @s into @buf, cut short with an ellipsis (at a whole UTF-8 character) until it fits @w. */
static void ellipsize(cairo_t *cr, char *buf, size_t len, const char *s, double size, double w)
{
	snprintf(buf, len, "%s", s);
	for (size_t cut = strlen(buf); cut > 1 && slc__plot_text_width(cr, buf, size, 1) > w;) {
		for (cut--; cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80; cut--)
			;
		snprintf(buf, len, "%.*s\u2026", (int)cut, s);
	}
}

/*
 * A panel's title in lines that fit @w, in type no smaller than reads
 * well: one line, or two broken at a space (the second cut short if it must
 * be).  Returns the count of lines; the type's size in *@size.
 */
static int title_lines(cairo_t *cr, const char *title, double w, double fs, char (*out)[200], double *size)
{
	size_t cut = 0;

	*size = fmax(fit_size(cr, title, fs * 0.9, w), fs * 0.78);
	out[1][0] = 0;
	if (slc__plot_text_width(cr, title, *size, 1) <= w) {
		snprintf(out[0], 200, "%s", title);
		return 1;
	}
	for (size_t i = 1; title[i] && i < 199; i++) {
		if (title[i] != ' ') continue;
		snprintf(out[0], 200, "%.*s", (int)i, title);
		if (slc__plot_text_width(cr, out[0], *size, 1) > w) break;
		cut = i;
	}
	if (!cut) {
		ellipsize(cr, out[0], 200, title, *size, w);
		return 1;
	}
	snprintf(out[0], 200, "%.*s", (int)cut, title);
	ellipsize(cr, out[1], 200, title + cut + 1, *size, w);
	return 2;
}

/* A panel's title over its data area (the last line just above it); its box into the layout. */
static void panel_title(cairo_t *cr, const char *title, const struct frame *f, double fs, struct slc_plot_layout *lay)
{
	char lines[2][200];
	double size;
	struct slc_plot_rect box, b2;
	int n;

	if (!title)
		return;
	n = title_lines(cr, title, f->w, fs, lines, &size);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	slc__plot_text(cr, f->x0 + f->w / 2, f->y0 - fs * 0.75 - (n - 1) * fs * 0.95, lines[0], size, 0.5, 0.5, 1, &box);
	if (n == 2) {
		slc__plot_text(cr, f->x0 + f->w / 2, f->y0 - fs * 0.75, lines[1], size, 0.5, 0.5, 1, &b2);
		box.w = fmax(box.x + box.w, b2.x + b2.w) - fmin(box.x, b2.x);
		box.x = fmin(box.x, b2.x);
		box.h = b2.y + b2.h - box.y;
	}
	if (lay->n_labels < SLC_PLOT_MAX_LABELS)
		lay->labels[lay->n_labels++] = box;
}

/* Room for a second title line over every panel when some title needs one (@w: about a panel's width). */
static double title_room(cairo_t *cr, const struct slc_plot_multi *m, double w, double fs)
{
	char lines[2][200];
	double size;

	for (size_t p = 0; p < m->n_panels; p++)
		if (m->panels[p].title && title_lines(cr, m->panels[p].title, w, fs, lines, &size) > 1)
			return fs * 0.95;
	return 0;
}

static int draw_multi(cairo_t *cr, const void *spec, double W, double H)
{
	const struct slc_plot_multi *m = spec;
	struct slc_plot_layout lay = { .width = W, .height = H };
	size_t n = m->n_panels, cols = multi_cols(m), rows = (n + cols - 1) / cols, nle;
	double fs = fmin(W / 75.0, H / 45.0), xmax = 0, ymax = 0, top, bottom, cw, ch, left, room;
	struct slc_plot_spec *ps = calloc(n, sizeof(*ps));
	struct lentry le[48];
	struct slc_plot_rect lb;
	int rc = 0;

	if (!ps)
		return -ENOMEM;
	/* shared axes: the union of the panels' ranges */
	for (size_t p = 0; p < n; p++) {
		double x, ylo, y;
		slc__plot_data_range(&m->panels[p], &x, &ylo, &y);
		if (x > xmax) xmax = x;
		if (y > ymax) ymax = y;
	}
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	slc__plot_titles(cr, m->title, m->subtitle, fs * 1.5, fs, &lay);
	nle = multi_legend(m, le, 48);
	slc__plot_legend(cr, le, nle, fs, 0, 0, W - fs * 3, 0, 0, &lb);
	slc__plot_legend(cr, le, nle, fs, fs * 1.5, H - fs * 0.5 - lb.h, W - fs * 3, 0, 1, &lay.legend);
	top = fs * (m->subtitle ? 4.0 : 2.8);
	bottom = H - fs * 3.2 - lb.h;
	cw = (W - fs * 2.0) / (double)cols;
	ch = (bottom - top) / (double)rows;
	/* the panel's width less a generous y axis, so a title judged to fit on one line does */
	room = title_room(cr, m, cw - fs * 7.0, fs);
	for (size_t p = 0; p < n && !rc; p++) {
		struct frame f = { 0 };
		double step;
		ps[p] = m->panels[p];
		ps[p].x_max = xmax * 1.0000001;
		if (!m->own_y) {
			ps[p].y_max = ymax * 1.08;
			ps[p].y_min = 0;
		}
		step = slc__plot_y_range(&f, &ps[p]);
		f.xmin = 0;
		f.xmax = ps[p].x_max;
		left = fs * (m->own_y ? 2.4 : 1.0) + slc__plot_y_label_width(cr, &ps[p], &f, step, fs) + fs * 0.6;
		f.x0 = fs * 2.0 + (double)(p % cols) * cw + left;
		f.w = cw - left - fs * 0.8;
		f.y0 = top + (double)(p / cols) * ch + fs * 1.6 + room;
		f.h = ch - fs * 3.0 - room;
		panel_title(cr, ps[p].title, &f, fs, &lay);
		rc = slc__plot_panel(cr, &ps[p], &f, fs, step, 1, NULL);
		if (m->own_y)
			panel_ylabel(cr, ps[p].ylabel, f.x0 - left + fs * 0.6, f.y0 + f.h / 2, fs);
		if (lay.n_panels < SLC_PLOT_MAX_PANELS)
			lay.panels[lay.n_panels++] = (struct slc_plot_rect){ f.x0, f.y0, f.w, f.h };
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	slc__plot_text(cr, W / 2, bottom + fs * 1.1, m->panels[0].xlabel, fs * 0.95, 0.5, 0.5, 0, NULL);
	if (!m->own_y)
		panel_ylabel(cr, m->panels[0].ylabel, fs * 1.0, (top + bottom) / 2, fs);
	lay.plot = lay.panels[0];
	if (m->layout)
		*m->layout = lay;
	free(ps);
	return rc;
}

int slc_plot_multiples(const char *path, const struct slc_plot_multi *spec, char *err, size_t errlen)
{
	struct slc_plot_multi m = *spec;
	size_t cols;

	if (!m.n_panels || m.n_panels > SLC_PLOT_MAX_PANELS)
		return slc__plot_fail(err, errlen, -EINVAL, "small multiples take 1 to %d panels", SLC_PLOT_MAX_PANELS);
	cols = multi_cols(&m);
	if (m.width <= 0) m.width = 1200;
	if (m.height <= 0) m.height = 160 + 300 * (int)((m.n_panels + cols - 1) / cols);
	return slc__plot_render(path, draw_multi, &m, m.title, m.width, m.height, m.theme, err, errlen);
}
