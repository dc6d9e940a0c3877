/* SPDX-License-Identifier: MIT */
/* Pieces of the curve graph that small multiples and bar charts reuse. */
#ifndef SLCSCOPE_PLOT_DRAW_H
#define SLCSCOPE_PLOT_DRAW_H

#include "plot_priv.h"

enum { LE_DOT, LE_LINE, LE_MA, LE_SWATCH, LE_BAND, LE_BAR };

/* A legend entry: its key's kind, colour and marker, its text, its line's dash pattern. */
struct lentry {
	int kind;
	int colour;
	int marker;
	const char *text;
	int dash;
};

/* A band label placed above the plot. */
struct placed {
	double x, w;                  /* its box across */
	double lead_x, mid;           /* its leader: from under the label to the band's middle */
	int row;
	size_t band;
};

void slc__plot_data_range(const struct slc_plot_spec *s, double *xmax, double *ymin_pos, double *ymax);
double slc__plot_y_range(struct frame *f, const struct slc_plot_spec *s);
double slc__plot_y_label_width(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double step, double fs);
int slc__plot_panel(cairo_t *cr, const struct slc_plot_spec *s, const struct frame *f, double fs, double step,
	       int ylabels, struct slc_plot_layout *lay);
size_t slc__plot_legend_entries(const struct slc_plot_spec *s, struct lentry *e, size_t max);
void slc__plot_legend(cairo_t *cr, const struct lentry *e, size_t n, double fs, double x, double y, double avail_w,
		 int column, int draw, struct slc_plot_rect *box);
void slc__plot_titles(cairo_t *cr, const char *title, const char *subtitle, double x, double fs,
		 struct slc_plot_layout *lay);

#endif
