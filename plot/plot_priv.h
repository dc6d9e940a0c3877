/* SPDX-License-Identifier: MIT */
/* The plotter's shared pieces: palette, text, frames, rendering to a file. */
#ifndef SLCSCOPE_PLOT_PRIV_H
#define SLCSCOPE_PLOT_PRIV_H

#include <cairo.h>

#include "slcscope/plot.h"
#include "plot_ticks.h"

#define PLOT_FONT "DejaVu Sans"

/* A look: the face and the scales of text and data lines against the
 * figure's base sizes, and the colours by SLC_COL_* index. */
struct slc__theme {
	const char *font;
	double text, line;
	double rgb[SLC_COL__COUNT][3];
};

/* The theme @cr draws in (slc__plot_render sets it on the context, so no
 * drawing call takes a theme argument). */
const struct slc__theme *slc__plot_theme(cairo_t *cr);
/* Colour @colour (an SLC_COL_* index, wrapped) of the theme @cr draws in. */
const double *slc__plot_rgb(cairo_t *cr, int colour);

/* A data area and the ranges it maps (log_y: ymin/ymax are decades). */
struct frame {
	double x0, y0, w, h;
	double xmin, xmax, ymin, ymax;
	int log_y;
};

double slc__frame_px(const struct frame *f, double x);
double slc__frame_py(const struct frame *f, double y);

int slc__plot_fail(char *err, size_t errlen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Draw @s with its ink box's point (@ax, @ay) in [0,1]^2 at (@x, @y); the
 * ink box is returned in @box when not NULL.  On an SVG surface the text
 * becomes a <text> element instead of glyph outlines.
 */
void slc__plot_text(cairo_t *cr, double x, double y, const char *s, double size, double ax, double ay, int bold,
	       struct slc_plot_rect *box);
/* The advance width of @s at @size. */
double slc__plot_text_width(cairo_t *cr, const char *s, double size, int bold);

void slc__plot_set_colour(cairo_t *cr, int colour, double alpha);
void slc__plot_marker(cairo_t *cr, int marker, double x, double y, double r);

typedef int (*plot_draw_fn)(cairo_t *cr, const void *spec, double w, double h);

/* Render @fn into @path (.png/.svg/.pdf) through a temporary file. */
int slc__plot_render(const char *path, plot_draw_fn fn, const void *spec, const char *title, int width, int height,
		     enum slc_plot_theme theme, char *err, size_t errlen);

/* A recorded graph's size, and its drawing painted at the origin of @cr's user space. */
void slc__plot_drawing_size(const struct slc_plot_drawing *d, double *w, double *h);
void slc__plot_drawing_paint(cairo_t *cr, const struct slc_plot_drawing *d);

static inline int rect_overlap(const struct slc_plot_rect *a, const struct slc_plot_rect *b)
{
	return a->w > 0 && b->w > 0 && a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

#endif
