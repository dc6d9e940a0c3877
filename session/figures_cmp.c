// SPDX-License-Identifier: MIT
/*
 * Figures across drives: the comparison chart (each drive's moving average
 * with its own colour and marker, the legend outside the data), small
 * multiples (one panel per drive, shared axes) and the phase figures as
 * bars.  Each drive shows the curve o->role picks: the random write curve
 * after TRIM unless asked otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_priv.h"

#define HORIZON_S 7200.0              /* the reviews' headline: data written in 2 h */

struct drive_curve {
	long k;                       /* analysed segment shown */
	double *x, *y;
	char label[160];
	struct slc_plot_band bands[64];
	size_t n_bands;
};

static void free_curves(struct drive_curve *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++) {
		free(d[i].x);
		free(d[i].y);
	}
	free(d);
}

/* Pick, label and sample every drive's curve; NULL with a reason in @err. */
static struct drive_curve *load_curves(const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
				       struct slc_plot_spec *sp, char *err, size_t errlen)
{
	struct drive_curve *d = calloc(n, sizeof(*d));
	int rc = 0;

	if (!d)
		return slc_errf(err, errlen, -ENOMEM, "out of memory"), NULL;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct slc_session *x = &xs[i];
		const struct slc_input_segment *s;
		if ((d[i].k = slc_session_pick(x, o->role)) < 0) {
			rc = slc_errf(err, errlen, -EINVAL, "%s has no %s segment", x->in->source, slc_role_name(o->role));
			break;
		}
		s = &x->in->segments[x->seg[d[i].k]];
		if ((rc = slc__fig_axes(sp, x, s, o, err, errlen)))
			break;
		if ((rc = slc__fig_samples(&d[i].x, &d[i].y, x, (size_t)d[i].k, o)))
			rc = slc_errf(err, errlen, rc, "out of memory");
		if (i < o->n_labels && o->labels[i] && o->labels[i][0])
			snprintf(d[i].label, sizeof(d[i].label), "%s", o->labels[i]);
		else
			slc_session_drive_name(d[i].label, sizeof(d[i].label), x);
		for (size_t p = 0; p < x->a[d[i].k].n_phases && d[i].n_bands < 64; p++) {
			const struct slc_phase *ph = &x->a[d[i].k].phases[p];
			d[i].bands[d[i].n_bands++] = (struct slc_plot_band){
				o->x_time ? ph->start_s : o->x_fraction ? ph->start_bytes / (double)x->in->meta.capacity_bytes : ph->start_bytes,
				o->x_time ? ph->end_s : o->x_fraction ? ph->end_bytes / (double)x->in->meta.capacity_bytes : ph->end_bytes,
				NULL, slc__fig_phase_words(ph, x->a[d[i].k].model.cell), slc__fig_phase_style(ph) };
		}
	}
	if (rc) {
		free_curves(d, n);
		return NULL;
	}
	return d;
}

/* The subtitle: the shared workload in words when every drive ran the same, and what the lines are. */
static void compare_subtitle(char *buf, size_t len, const struct slc_session *xs, const struct drive_curve *d, size_t n,
			     const char *lines)
{
	const struct slc_input_segment *s0 = &xs[0].in->segments[xs[0].seg[d[0].k]];
	int same = 1;
	char w[256];

	for (size_t i = 1; i < n; i++) {
		const struct slc_input_segment *s = &xs[i].in->segments[xs[i].seg[d[i].k]];
		same = same && s->params.role == s0->params.role && s->params.block_bytes == s0->params.block_bytes &&
		       s->params.queue_depth == s0->params.queue_depth;
	}
	if (same && s0->params.block_bytes) {
		/* the durations differ between drives: the workload and the purpose only */
		slc__fig_segment_words(w, sizeof(w), s0, 0);
		snprintf(buf, len, "%s; %s", w, lines);
	} else {
		snprintf(buf, len, "each drive's write curve; %s", lines);
	}
}

int slc_figure_compare(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		       char *err, size_t errlen)
{
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_series sr[8];
	struct slc_plot_layout lay;
	struct drive_curve *d;
	char title[256], sub[512], ma[160];
	int rc;

	if (n < 2 || n > 8)
		return slc_errf(err, errlen, -EINVAL, "a comparison takes 2 to 8 inputs (%zu given)", n);
	if (!(d = load_curves(xs, n, o, &sp, err, errlen)))
		return -EINVAL;
	/* the lines are the moving averages, so the axes fit them rather than every outlying sample */
	for (size_t i = 0; i < n; i++) {
		const struct slc_input_segment *s = &xs[i].in->segments[xs[i].seg[d[i].k]];
		double *avg = malloc((s->n_samples ? s->n_samples : 1) * sizeof(*avg));
		if (!avg) {
			free_curves(d, n);
			return slc_errf(err, errlen, -ENOMEM, "out of memory");
		}
		/* within each phase, so a cache cliff stays a drop instead of a ramp as wide as the window */
		slc_moving_average_within(avg, d[i].x, d[i].y, s->n_samples, slc__fig_ma_window(ma, sizeof(ma), d[i].x, s, o),
					  d[i].bands, d[i].n_bands);
		free(d[i].y);
		d[i].y = avg;
		/* colour, marker and dash all differ, so the lines read in grey print too */
		sr[i] = (struct slc_plot_series){ .label = d[i].label, .x = d[i].x, .y = d[i].y, .n = s->n_samples,
						  .line_only = 1, .colour = (int)i + 1, .marker = (int)i + 1, .dash = (int)i };
	}
	snprintf(title, sizeof(title), "%s", o->title ? o->title : "Write curves compared");
	compare_subtitle(sub, sizeof(sub), xs, d, n, "lines: centred 30 s moving averages within each phase");
	sp.title = title;
	sp.subtitle = sub;
	sp.width = o->width;
	sp.theme = o->theme;
	sp.height = o->height;
	sp.series = sr;
	sp.n_series = n;
	sp.legend_right = 1;
	sp.layout = &lay;
	if (!(rc = slc_plot_write(path, &sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	free_curves(d, n);
	return rc;
}

int slc__figure_multiples(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
			 char *err, size_t errlen)
{
	struct slc_plot_spec ax = { 0 }, ps[SLC_FIG_MAX_MULTIPLES];
	struct slc_plot_series sr[SLC_FIG_MAX_MULTIPLES];
	struct slc_plot_multi m = { 0 };
	struct slc_plot_layout lay;
	struct drive_curve *d;
	char title[256], sub[512], ma[SLC_FIG_MAX_MULTIPLES][160], dots[SLC_FIG_MAX_MULTIPLES][48];
	int rc;

	if (n < 1 || n > SLC_FIG_MAX_MULTIPLES)
		return slc_errf(err, errlen, -EINVAL, "small multiples take 1 to %d inputs (%zu given)", SLC_FIG_MAX_MULTIPLES, n);
	if (!(d = load_curves(xs, n, o, &ax, err, errlen)))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct slc_input_segment *s = &xs[i].in->segments[xs[i].seg[d[i].k]];
		char w[32];
		ps[i] = ax;
		sr[i] = (struct slc_plot_series){ .x = d[i].x, .y = d[i].y, .n = s->n_samples };
		snprintf(dots[i], sizeof(dots[i]), "every %s sample", slc_duration_words(w, sizeof(w), s->params.interval_s > 0 ? s->params.interval_s : 1));
		ps[i].ma_window_x = slc__fig_ma_window(ma[i], sizeof(ma[i]), d[i].x, s, o);
		ps[i].ma_label = "centred 30 s moving average, within each phase";
		ps[i].ma_break_at_bands = 1;
		ps[i].dots_label = dots[i];
		ps[i].title = d[i].label;
		ps[i].series = &sr[i];
		ps[i].n_series = 1;
		ps[i].bands = d[i].bands;
		ps[i].n_bands = d[i].n_bands;
	}
	snprintf(title, sizeof(title), "%s", o->title ? o->title : "Write curves side by side");
	compare_subtitle(sub, sizeof(sub), xs, d, n, "shared axes");
	m = (struct slc_plot_multi){ .title = title, .subtitle = sub, .panels = ps, .n_panels = n, .width = o->width, .theme = o->theme,
				     .height = o->height, .layout = &lay };
	if (!(rc = slc_plot_multiples(path, &m, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	free_curves(d, n);
	return rc;
}

int slc__figure_bars(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		    char *err, size_t errlen)
{
	struct slc_curve_figures cf[8];
	const char *names[8];
	char labels[8][160], title[256], sub[256], wl[64], h[32], l[5][96];
	double v[5][8], horizon = HORIZON_S, spd = FIG_RATE_DIV(o), sz = FIG_SIZE_DIV(o);
	struct slc_bar_panel p[5];
	struct slc_bar_chart c = { 0 };
	struct slc_plot_layout lay;
	int iops = o->y_iops, rc;

	if (n < 1 || n > 8)
		return slc_errf(err, errlen, -EINVAL, "the bar chart takes 1 to 8 inputs (%zu given)", n);
	for (size_t i = 0; i < n; i++) {
		long k = slc_session_pick(&xs[i], o->role);
		if (k < 0)
			return slc_errf(err, errlen, -EINVAL, "%s has no %s segment", xs[i].in->source, slc_role_name(o->role));
		slc_session_curve_figures(&cf[i], &xs[i], (size_t)k, HORIZON_S);
		if (cf[i].horizon_s < horizon) horizon = cf[i].horizon_s;
		iops = iops && isfinite(cf[i].block_bytes);
		if (i < o->n_labels && o->labels[i] && o->labels[i][0]) snprintf(labels[i], sizeof(labels[i]), "%s", o->labels[i]);
		else slc_session_drive_name(labels[i], sizeof(labels[i]), &xs[i]);
		names[i] = labels[i];
	}
	if (o->y_iops && !iops)
		return slc_errf(err, errlen, -EINVAL, "--y iops needs a fixed block size on every input");
	for (size_t i = 0; i < n; i++) {
		struct slc_curve_figures w;
		slc_session_curve_figures(&w, &xs[i], (size_t)slc_session_pick(&xs[i], o->role), horizon);
		double div = iops ? cf[i].block_bytes * 1000 / spd : 1;
		v[0][i] = cf[i].cache_bytes;
		v[1][i] = cf[i].cache_bps / div;
		v[2][i] = cf[i].native_bps / div;
		v[3][i] = cf[i].erase_bps / div;
		v[4][i] = w.written_bytes;
	}
	snprintf(wl, sizeof(wl), iops ? "thousand IOPS" : FIG_RATE_UNIT(o));
	snprintf(h, sizeof(h), "%s", horizon >= HORIZON_S ? "2 h" : "");
	if (!h[0]) slc_duration_words(h, sizeof(h), horizon);
	{
		snprintf(l[0], sizeof(l[0]), "SLC cache (%s)", FIG_SIZE_UNIT(o));
		snprintf(l[1], sizeof(l[1]), "cache speed, first tier (%s)", wl);
		snprintf(l[2], sizeof(l[2]), "direct-to-TLC speed (%s)", wl);
		snprintf(l[3], sizeof(l[3]), "erase-bound speed (%s)", wl);
		snprintf(l[4], sizeof(l[4]), "data written in %s (%s)", h, FIG_SIZE_UNIT(o));
		for (int i = 0; i < 5; i++)
			p[i] = (struct slc_bar_panel){ l[i], i == 0 || i == 4 ? sz : spd, v[i] };
	}
	snprintf(title, sizeof(title), "%s", o->title ? o->title : "Phase figures compared");
	snprintf(sub, sizeof(sub), "from each drive's write curve; n/a: the curve shows no such phase");
	c = (struct slc_bar_chart){ .title = title, .subtitle = sub, .groups = names, .n_groups = n, .panels = p,
				    .n_panels = 5, .legend = 1, .width = o->width, .theme = o->theme, .height = o->height, .layout = &lay };
	if (!(rc = slc_plot_bar_chart(path, &c, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	return rc;
}
