// SPDX-License-Identifier: MIT
/*
 * The plotter's canvas: text, colours, markers, and rendering one drawing
 * function to PNG, SVG or PDF.
 *
 * Text in SVG: cairo's SVG surface writes every glyph as an outline, which
 * no reader can select, search or translate.  On an SVG surface the plotter
 * therefore draws no glyphs; it measures each text with cairo (so the
 * layout is the one the PNG gets) and writes a <text> element at that
 * position, in the same font, size, weight, colour and transformation.
 * Right-aligned and centred texts keep their anchor, so a viewer that
 * substitutes another sans-serif font keeps the alignment.  PDF keeps
 * cairo's own text, which is real text (embedded font subsets).
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot_priv.h"

/* The themes, by enum slc_plot_theme.
 * Default: DejaVu Sans (installed with cairo's fonts on Debian), and the
 * Okabe-Ito palette, safe for the common colour-vision deficiencies (blue,
 * vermillion, bluish green, orange, reddish purple, sky blue, black,
 * yellow).
 * Print: a page is read at arm's length and gray lines print lighter than
 * they show, so text a tenth larger and data lines half as thick again;
 * grays of distinct lightness in the palette's order, dark and light
 * alternating so that neighbours differ (the dashes and markers every
 * series also has tell them apart where grays are close). */
static const struct slc__theme themes[SLC_THEME__COUNT] = {
	[SLC_THEME_DEFAULT] = {
		.font = PLOT_FONT, .text = 1.0, .line = 1.0,
		.rgb = {
			{ 0.000, 0.447, 0.698 }, { 0.835, 0.369, 0.000 }, { 0.000, 0.620, 0.451 }, { 0.902, 0.624, 0.000 },
			{ 0.800, 0.475, 0.655 }, { 0.337, 0.706, 0.914 }, { 0.000, 0.000, 0.000 }, { 0.941, 0.894, 0.259 },
		},
	},
	[SLC_THEME_PRINT] = {
		.font = PLOT_FONT, .text = 1.1, .line = 1.5,
		.rgb = {
			{ 0.15, 0.15, 0.15 }, { 0.55, 0.55, 0.55 }, { 0.32, 0.32, 0.32 }, { 0.70, 0.70, 0.70 },
			{ 0.45, 0.45, 0.45 }, { 0.62, 0.62, 0.62 }, { 0.00, 0.00, 0.00 }, { 0.78, 0.78, 0.78 },
		},
	},
};

static const char *const theme_names[SLC_THEME__COUNT] = { [SLC_THEME_DEFAULT] = "default", [SLC_THEME_PRINT] = "print" };

static const cairo_user_data_key_t theme_key;

const char *slc_plot_theme_name(enum slc_plot_theme t)
{
	return (unsigned)t < SLC_THEME__COUNT ? theme_names[t] : NULL;
}

int slc_plot_theme_from_name(const char *name)
{
	for (int t = 0; name && t < SLC_THEME__COUNT; t++)
		if (!strcmp(name, theme_names[t]))
			return t;
	return -1;
}

const struct slc__theme *slc__plot_theme(cairo_t *cr)
{
	const enum slc_plot_theme *t = cairo_get_user_data(cr, &theme_key);

	return &themes[t && (unsigned)*t < SLC_THEME__COUNT ? (unsigned)*t : SLC_THEME_DEFAULT];
}

const double *slc__plot_rgb(cairo_t *cr, int colour)
{
	return slc__plot_theme(cr)->rgb[(colour % SLC_COL__COUNT + SLC_COL__COUNT) % SLC_COL__COUNT];
}

int slc__plot_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

double slc__frame_px(const struct frame *f, double x)
{
	return f->x0 + (x - f->xmin) / (f->xmax - f->xmin) * f->w;
}

double slc__frame_py(const struct frame *f, double y)
{
	if (f->log_y)
		y = y > 0 ? log10(y) : NAN;
	return f->y0 + f->h - (y - f->ymin) / (f->ymax - f->ymin) * f->h;
}

void slc__plot_set_colour(cairo_t *cr, int colour, double alpha)
{
	const double *c = slc__plot_rgb(cr, colour);

	cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

void slc__plot_marker(cairo_t *cr, int marker, double x, double y, double r)
{
	cairo_new_sub_path(cr);
	switch (marker) {
	case SLC_MARK_CIRCLE: cairo_arc(cr, x, y, r, 0, 2 * M_PI); cairo_fill(cr); break;
	case SLC_MARK_SQUARE: cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7); cairo_fill(cr); break;
	case SLC_MARK_TRIANGLE:
	case SLC_MARK_DOWN: {
		double d = marker == SLC_MARK_DOWN ? -1 : 1;
		cairo_move_to(cr, x, y - d * r * 1.1);
		cairo_line_to(cr, x + r, y + d * r * 0.75);
		cairo_line_to(cr, x - r, y + d * r * 0.75);
		cairo_close_path(cr);
		cairo_fill(cr);
		break;
	}
	case SLC_MARK_DIAMOND:
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r * 1.2);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		cairo_fill(cr);
		break;
	case SLC_MARK_CROSS:
	case SLC_MARK_PLUS:
	case SLC_MARK_STAR:
		cairo_save(cr);
		cairo_set_line_width(cr, r * 0.45);
		for (int k = 0; k < (marker == SLC_MARK_STAR ? 3 : 2); k++) {
			double a = (marker == SLC_MARK_CROSS ? M_PI / 4 : 0) + k * (marker == SLC_MARK_STAR ? M_PI / 3 : M_PI / 2);
			cairo_move_to(cr, x - cos(a) * r * 1.1, y - sin(a) * r * 1.1);
			cairo_line_to(cr, x + cos(a) * r * 1.1, y + sin(a) * r * 1.1);
		}
		cairo_stroke(cr);
		cairo_restore(cr);
		break;
	default: break;
	}
}

/* The SVG <text> elements, collected while drawing. */
struct svgtext {
	FILE *f;
	char *buf;
	size_t len;
};
static const cairo_user_data_key_t svgtext_key;

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<') fputs("&lt;", f);
		else if (*s == '>') fputs("&gt;", f);
		else if (*s == '&') fputs("&amp;", f);
		else if (*s == '"') fputs("&quot;", f);
		else fputc(*s, f);
	}
}

static void svg_text(struct svgtext *t, cairo_t *cr, double bx, double by, const cairo_text_extents_t *e,
		     double ax, const char *s, double size, int bold)
{
	cairo_matrix_t m;
	double r = 0, g = 0, b = 0, a = 1;
	const char *anchor = ax > 0.75 ? "end" : ax > 0.25 ? "middle" : "start";
	double x = ax > 0.75 ? bx + e->x_advance : ax > 0.25 ? bx + e->x_advance / 2 : bx;

	cairo_get_matrix(cr, &m);
	cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a);
	fprintf(t->f, "<text x=\"%.2f\" y=\"%.2f\" font-family=\"%s, Verdana, sans-serif\" font-size=\"%.2f\"%s "
		"text-anchor=\"%s\" fill=\"rgb(%d,%d,%d)\"", x, by, slc__plot_theme(cr)->font, size * slc__plot_theme(cr)->text,
		bold ? " font-weight=\"bold\"" : "",
		anchor, (int)lround(r * 255), (int)lround(g * 255), (int)lround(b * 255));
	if (a < 1)
		fprintf(t->f, " fill-opacity=\"%.3f\"", a);
	if (m.xx != 1 || m.yx != 0 || m.xy != 0 || m.yy != 1 || m.x0 != 0 || m.y0 != 0)
		fprintf(t->f, " transform=\"matrix(%.6g %.6g %.6g %.6g %.3f %.3f)\"", m.xx, m.yx, m.xy, m.yy, m.x0, m.y0);
	fputc('>', t->f);
	xml_escaped(t->f, s);
	fputs("</text>\n", t->f);
}

/* The theme's face at @size times its text scale: measuring and drawing
 * both come here, so the layout fits the text as drawn. */
static void set_font(cairo_t *cr, double size, int bold)
{
	const struct slc__theme *th = slc__plot_theme(cr);

	cairo_select_font_face(cr, th->font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size * th->text);
}

double slc__plot_text_width(cairo_t *cr, const char *s, double size, int bold)
{
	cairo_text_extents_t e;

	set_font(cr, size, bold);
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

void slc__plot_text(cairo_t *cr, double x, double y, const char *s, double size, double ax, double ay, int bold,
	       struct slc_plot_rect *box)
{
	struct svgtext *t = cairo_get_user_data(cr, &svgtext_key);
	cairo_text_extents_t e;
	double bx, by;

	if (!s || !*s)
		return;
	set_font(cr, size, bold);
	cairo_text_extents(cr, s, &e);
	bx = x - e.width * ax - e.x_bearing;
	by = y - e.height * ay - e.y_bearing;
	if (box)
		*box = (struct slc_plot_rect){ x - e.width * ax, y - e.height * ay, e.width, e.height };
	if (t && t->f) {
		svg_text(t, cr, bx, by, &e, ax, s, size, bold);
		return;
	}
	cairo_move_to(cr, bx, by);
	cairo_show_text(cr, s);
}

/*
 * Put <title> after the opening <svg> tag and the collected texts before its
 * end, in @path (cairo's output); errors name @final, the file it becomes.
 */
static int svg_finish(const char *path, const char *final, const char *title, const char *texts, char *err,
		      size_t errlen)
{
	FILE *f = fopen(path, "re");
	char tmp2[4200], *buf = NULL, *tag, *end, *close;
	long len;
	int rc = 0;

	if (!f)
		return slc__plot_fail(err, errlen, -errno, "%s: %s", final, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(buf);
		return slc__plot_fail(err, errlen, -EIO, "%s: cannot read the SVG back", final);
	}
	fclose(f);
	buf[len] = '\0';
	if (!(tag = strstr(buf, "<svg")) || !(end = strchr(tag, '>')) || !(close = strstr(end, "</svg>"))) {
		free(buf);
		return slc__plot_fail(err, errlen, -EIO, "%s: cairo wrote no complete <svg> element", final);
	}
	snprintf(tmp2, sizeof(tmp2), "%s.txt", path);
	if (!(f = fopen(tmp2, "we"))) {
		free(buf);
		return slc__plot_fail(err, errlen, -errno, "%s: %s", final, strerror(errno));
	}
	/* errno tells why a buffered write failed, when one did */
	errno = 0;
	fwrite(buf, 1, (size_t)(end - buf + 1), f);
	fputs("\n<title>", f);
	xml_escaped(f, title ? title : "");
	fputs("</title>\n", f);
	fwrite(end + 1, 1, (size_t)(close - end - 1), f);
	fputs("<g id=\"texts\">\n", f);
	fputs(texts ? texts : "", f);
	fputs("</g>\n", f);
	fputs(close, f);
	/* a write that failed before the last flush shows in ferror() alone */
	rc = ferror(f) ? -(errno ? errno : EIO) : 0;
	free(buf);
	if (fclose(f) && !rc)
		rc = errno ? -errno : -EIO;
	if (rc)
		slc__plot_fail(err, errlen, rc, "%s: cannot write: %s", final, strerror(-rc));
	else if (rename(tmp2, path))
		rc = slc__plot_fail(err, errlen, -errno, "%s: %s", final, strerror(errno));
	if (rc)
		unlink(tmp2);
	return rc;
}

static cairo_surface_t *make_surface(int kind, const char *tmp, int width, int height)
{
	cairo_surface_t *s;

	if (kind == 0)
		return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	if (kind == 2)
		return cairo_pdf_surface_create(tmp, width, height);
	s = cairo_svg_surface_create(tmp, width, height);
	/* width="1200px", not points: the page embeds it at the size it was drawn */
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
		cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
	return s;
}

/*
 * A graph for a page: the drawing function's commands kept in a recording
 * surface, which a PDF surface replays as vectors and text (no pixels).
 * Thread-local, so that the figure functions above the plotter keep their
 * one signature (a path) whether the graph goes to a file or to a page.
 */
struct slc_plot_drawing {
	cairo_surface_t *rec;
	double width, height;
};

static _Thread_local struct slc_plot_drawing **record_to;

void slc_plot_record(struct slc_plot_drawing **out)
{
	record_to = out;
}

void slc_plot_drawing_free(struct slc_plot_drawing *d)
{
	if (!d)
		return;
	cairo_surface_destroy(d->rec);
	free(d);
}

void slc__plot_drawing_size(const struct slc_plot_drawing *d, double *w, double *h)
{
	*w = d->width;
	*h = d->height;
}

void slc__plot_drawing_paint(cairo_t *cr, const struct slc_plot_drawing *d)
{
	cairo_save(cr);
	cairo_rectangle(cr, 0, 0, d->width, d->height);
	cairo_clip(cr);
	cairo_set_source_surface(cr, d->rec, 0, 0);
	cairo_paint(cr);
	cairo_restore(cr);
}

/* Draw into a recording surface kept in *@out: the same drawing as a file's. */
static int record(struct slc_plot_drawing **out, plot_draw_fn fn, const void *spec, int width, int height,
		  enum slc_plot_theme theme, char *err, size_t errlen)
{
	struct slc_plot_drawing *d = calloc(1, sizeof(*d));
	cairo_t *cr;
	int rc;

	if (!d)
		return slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	d->width = width;
	d->height = height;
	d->rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &(cairo_rectangle_t){ 0, 0, width, height });
	cr = cairo_create(d->rec);
	cairo_set_user_data(cr, &theme_key, &theme, NULL);
	if ((rc = fn(cr, spec, width, height)))
		slc__plot_fail(err, errlen, rc, "graph: %s", strerror(-rc));
	else if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = slc__plot_fail(err, errlen, cairo_status(cr) == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO, "graph: %s",
				    cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	if (rc) {
		slc_plot_drawing_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

int slc__plot_render(const char *path, plot_draw_fn fn, const void *spec, const char *title, int width, int height,
		     enum slc_plot_theme theme, char *err, size_t errlen)
{
	const char *ext = strrchr(path, '.');
	char tmp[4096];
	cairo_surface_t *surf;
	cairo_t *cr;
	struct svgtext st = { 0 };
	struct slc_plot_drawing **rec = record_to;
	int rc, kind;

	record_to = NULL;
	if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".svg") && strcmp(ext, ".pdf")))
		return slc__plot_fail(err, errlen, -EINVAL, "%s: the graph's file name must end in .png, .svg or .pdf", path);
	kind = ext[1] == 'p' ? (ext[2] == 'n' ? 0 : 2) : 1;
	if (width < 200 || height < 150 || width > 20000 || height > 20000)
		return slc__plot_fail(err, errlen, -EINVAL, "graph size %dx%d is outside 200x150 to 20000x20000", width, height);
	if (rec)
		return record(rec, fn, spec, width, height, theme, err, errlen);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= sizeof(tmp))
		return slc__plot_fail(err, errlen, -ENAMETOOLONG, "%s: name too long", path);
	surf = make_surface(kind, tmp, width, height);
	if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
		rc = slc__plot_fail(err, errlen, -EIO, "%s: %s", path, cairo_status_to_string(cairo_surface_status(surf)));
		cairo_surface_destroy(surf);
		unlink(tmp);
		return rc;
	}
	cr = cairo_create(surf);
	if (kind == 1 && !(st.f = open_memstream(&st.buf, &st.len))) {
		cairo_destroy(cr);
		cairo_surface_destroy(surf);
		unlink(tmp);
		return slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	}
	if (st.f)
		cairo_set_user_data(cr, &svgtext_key, &st, NULL);
	/* the drawing asks the context for its colours (slc__plot_rgb): no theme argument on every call */
	cairo_set_user_data(cr, &theme_key, &theme, NULL);
	if ((rc = fn(cr, spec, width, height)))
		slc__plot_fail(err, errlen, rc, "%s: %s", path, strerror(-rc));
	/* a drawing error (out of memory) is the context's, not the surface's */
	else if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = slc__plot_fail(err, errlen, cairo_status(cr) == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO, "%s: %s",
				    path, cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	if (!rc && kind == 0 && cairo_surface_write_to_png(surf, tmp) != CAIRO_STATUS_SUCCESS)
		rc = slc__plot_fail(err, errlen, -EIO, "%s: cannot write the PNG", path);
	cairo_surface_finish(surf);
	if (!rc && cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
		rc = slc__plot_fail(err, errlen, -EIO, "%s: %s", path, cairo_status_to_string(cairo_surface_status(surf)));
	cairo_surface_destroy(surf);
	if (st.f && fclose(st.f) && !rc)
		rc = slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	if (!rc && kind == 1)
		rc = svg_finish(tmp, path, title, st.buf, err, errlen);
	free(st.buf);
	if (!rc && rename(tmp, path))
		rc = slc__plot_fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}

static void rect_json(FILE *f, const char *name, const struct slc_plot_rect *r)
{
	fprintf(f, "\"%s\":{\"x\":%.2f,\"y\":%.2f,\"w\":%.2f,\"h\":%.2f}", name, r->x, r->y, r->w, r->h);
}

void slc_plot_layout_json(FILE *f, const struct slc_plot_layout *l)
{
	fprintf(f, "{\"width\":%.0f,\"height\":%.0f,", l->width, l->height);
	rect_json(f, "plot", &l->plot);
	fputc(',', f);
	rect_json(f, "zoom", &l->zoom);
	fputc(',', f);
	rect_json(f, "legend", &l->legend);
	fputc(',', f);
	rect_json(f, "title", &l->title);
	fputc(',', f);
	rect_json(f, "subtitle", &l->subtitle);
	fputs(",\"panels\":[", f);
	for (size_t i = 0; i < l->n_panels; i++) {
		const struct slc_plot_rect *r = &l->panels[i];
		fprintf(f, "%s{\"x\":%.2f,\"y\":%.2f,\"w\":%.2f,\"h\":%.2f}", i ? "," : "", r->x, r->y, r->w, r->h);
	}
	fputs("],\"labels\":[", f);
	for (size_t i = 0; i < l->n_labels; i++) {
		const struct slc_plot_rect *r = &l->labels[i];
		fprintf(f, "%s{\"x\":%.2f,\"y\":%.2f,\"w\":%.2f,\"h\":%.2f}", i ? "," : "", r->x, r->y, r->w, r->h);
	}
	fputs("],\"series\":[", f);
	for (size_t i = 0; i < l->n_series; i++)
		fprintf(f, "%s{\"y_min\":%.2f,\"y_max\":%.2f,\"y_p5\":%.2f,\"y_p95\":%.2f,\"points\":%zu,"
			"\"markers\":%zu,\"colour\":\"#%06x\"}", i ? "," : "", l->series[i].y_min, l->series[i].y_max,
			l->series[i].y_p5, l->series[i].y_p95, l->series[i].points, l->series[i].markers, l->series[i].rgb);
	fputs("]}\n", f);
}
