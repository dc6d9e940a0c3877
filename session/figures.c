// SPDX-License-Identifier: MIT
/*
 * The figures of an analysed session: the write curve, latency, recovery,
 * idle recovery (drawn by the analysis library's plotter), and the table
 * of figure kinds the command line and the report pick from.
 *
 * The moving average of a write curve is centred and defined over the x
 * axis it is drawn against: over data written, its window is the bytes the
 * curve writes in 30 s at its median speed (the reviews' 30 s average,
 * measured in the axis' unit); over time, 30 s.  It is taken within each
 * phase, so a cliff the analysis found stays a cliff in the line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exp/exp.h"
#include "session_priv.h"

#define MA_SECONDS 30.0

/* The figures of any input; the experiments name and draw their own (exp/). */
static const char *const kind_names[SLC_FIG__COUNT] = {
	[SLC_FIG_CURVE] = "curve", [SLC_FIG_COMPARE] = "compare", [SLC_FIG_MULTIPLES] = "multiples",
	[SLC_FIG_BARS] = "bars", [SLC_FIG_LATENCY] = "latency", [SLC_FIG_LATENCY_CDF] = "latency-cdf",
	[SLC_FIG_TEMPERATURE] = "temperature",
};

const char *slc_figure_kind_name(enum slc_figure_kind k)
{
	const struct slc__exp_figure *e;

	if ((unsigned)k >= SLC_FIG__COUNT)
		return NULL;
	return kind_names[k] ? kind_names[k] : (e = slc__exp_figure(k)) ? e->name : NULL;
}

int slc_figure_kind_from_name(const char *name)
{
	for (int k = 0; name && k < SLC_FIG__COUNT; k++)
		if (slc_figure_kind_name((enum slc_figure_kind)k) && !strcmp(name, slc_figure_kind_name((enum slc_figure_kind)k)))
			return k;
	return -1;
}

int slc_figure_kind_inputs(enum slc_figure_kind k)
{
	const struct slc__exp_figure *e = slc__exp_figure(k);

	if (e)
		return e->inputs;
	if (k == SLC_FIG_MULTIPLES)
		return SLC_FIG_MAX_MULTIPLES;
	return k == SLC_FIG_COMPARE || k == SLC_FIG_BARS ? 8 : 1;
}

int slc__fig_write_layout(const char *path, const struct slc_plot_layout *l, char *err, size_t errlen)
{
	const struct slc_output_opts o = { .kind = SLC_OUTPUT_TEXT, .option = "--layout-json" };
	struct slc_output *w;
	FILE *f;
	int rc;

	if (!path)
		return 0;
	if ((rc = slc_output_begin(&w, path, &o, err, errlen)))
		return rc;
	if (!(f = slc_output_stream(w))) {
		rc = slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
		slc_output_abort(w);
		return rc;
	}
	slc_plot_layout_json(f, l);
	return slc_output_commit(w, err, errlen);
}

const char *slc__fig_phase_words(const struct slc_phase *p, enum slc_cell cell)
{
	switch (p->kind) {
	case SLC_PHASE_SLC_CACHE: return p->tier > 1 ? "SLC cache, second tier" : "SLC cache";
	case SLC_PHASE_DIRECT_TO_TLC: return slc_native_words(cell);
	case SLC_PHASE_ERASE_BOUND: return "erase-bound (waits for garbage collection)";
	case SLC_PHASE_STALL: return "stall (no writes complete)";
	default: return "throttled (too hot)";
	}
}

int slc__fig_phase_style(const struct slc_phase *p)
{
	switch (p->kind) {
	case SLC_PHASE_SLC_CACHE: return p->tier > 1 ? SLC_COL_SKY : SLC_COL_GREEN;
	case SLC_PHASE_DIRECT_TO_TLC: return SLC_COL_ORANGE;
	case SLC_PHASE_ERASE_BOUND: return SLC_COL_VERMILLION;
	case SLC_PHASE_STALL: return SLC_COL_BLACK;
	default: return SLC_COL_PURPLE;
	}
}

/* What the x axis shows of segment @s: position of sample @k or of host byte count @bytes at time @t. */
static double x_of(const struct slc_figure_opts *o, const struct slc_session *x, double t, double bytes)
{
	if (o->x_time) return t;
	if (o->x_fraction) return bytes / (double)x->in->meta.capacity_bytes;
	return bytes;
}

/* The curve's axes: scales and labels in words. */
int slc__fig_axes(struct slc_plot_spec *sp, const struct slc_session *x, const struct slc_input_segment *s,
	     const struct slc_figure_opts *o, char *err, size_t errlen)
{
	double dur = s->n_samples ? s->t_s[s->n_samples - 1] : 0;

	if (o->y_iops && !s->params.block_bytes)
		return slc_errf(err, errlen, -EINVAL, "--y iops needs a fixed block size; %s has none", x->in->source);
	if (o->x_fraction && !x->in->meta.capacity_bytes)
		return slc_errf(err, errlen, -EINVAL, "--x fraction needs the drive's capacity; %s does not say it",
				x->in->source);
	if (o->x_time) {
		sp->x_scale = dur > 5400 ? 60 : 1;
		sp->xlabel = dur > 5400 ? "time (minutes)" : "time (seconds)";
	} else if (o->x_fraction) {
		sp->x_scale = 1;
		sp->xlabel = "data written (multiples of the drive's capacity)";
	} else {
		sp->x_scale = FIG_SIZE_DIV(o);
		sp->xlabel = FIG_SIZE_LABEL(o, "data written");
	}
	sp->y_scale = o->y_iops ? 1000 : FIG_RATE_DIV(o);
	sp->ylabel = o->y_iops ? "write speed (thousand IOPS)" : FIG_RATE_LABEL(o, "write speed");
	sp->log_y = o->log_y;
	return 0;
}

/* Analysed segment @i's samples on the axes of @o into *@xo, *@yo (caller frees). */
int slc__fig_samples(double **xo, double **yo, const struct slc_session *x, size_t i, const struct slc_figure_opts *o)
{
	const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
	size_t n = s->n_samples;
	double blk = s->params.block_bytes;

	*xo = malloc((n ? n : 1) * sizeof(double));
	*yo = malloc((n ? n : 1) * sizeof(double));
	if (!*xo || !*yo)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		double dt = s->interval_s[k] > 0 ? s->interval_s[k] : NAN;
		(*xo)[k] = x_of(o, x, s->t_s[k], (double)s->bytes_total[k]);
		(*yo)[k] = x->bytes[i][k] / dt / (o->y_iops ? blk : 1);
	}
	return 0;
}

/* The moving average's window on the x axis and its legend text. */
double slc__fig_ma_window(char *label, size_t len, const double *xs, const struct slc_input_segment *s,
		     const struct slc_figure_opts *o)
{
	double w = o->x_time ? MA_SECONDS : slc_plot_window_x(xs, s->t_s, s->n_samples, MA_SECONDS);
	char b[32];

	if (!(w > 0))
		w = 0;
	if (o->x_time)
		snprintf(label, len, "moving average over %.0f s, centred, within each phase", MA_SECONDS);
	else if (o->x_fraction)
		snprintf(label, len, "moving average over %.2g%% of the capacity (%.0f s at the median speed), centred, "
			 "within each phase",
			 w * 100, MA_SECONDS);
	else
		snprintf(label, len, "moving average over %s (%.0f s at the median speed), centred, within each phase",
			 slc_format_bytes(b, sizeof(b), w, FIG_UNITS(o)), MA_SECONDS);
	return w;
}

struct curve_fig {
	struct slc_plot_band bands[64];
	char labels[64][128];
	char title[256], sub[512], ma[160], dots[64], zoom[96];
	double *x, *y;
};

static void band_label(char *buf, size_t len, const struct slc_phase *ph, enum slc_cell cell,
		       const struct slc_figure_opts *o)
{
	enum slc_unit_system u = FIG_UNITS(o);
	char sp[32], a[32];

	if (o->y_iops && isfinite(ph->iops_mean))
		slc_format_iops(sp, sizeof(sp), ph->iops_mean);
	else
		slc_format_rate(sp, sizeof(sp), ph->mean_bps, u);
	switch (ph->kind) {
	case SLC_PHASE_SLC_CACHE:
		snprintf(buf, len, "%s: %s at %s", ph->tier > 1 ? "SLC cache, tier 2" : "SLC cache",
			 slc_format_bytes(a, sizeof(a), ph->end_bytes - ph->start_bytes, u), sp);
		break;
	case SLC_PHASE_DIRECT_TO_TLC: snprintf(buf, len, "%s: %s", slc_native_words(cell), sp); break;
	case SLC_PHASE_ERASE_BOUND: snprintf(buf, len, "erase-bound: %s", sp); break;
	case SLC_PHASE_STALL: snprintf(buf, len, "stall: %s", slc_duration_words(a, sizeof(a), ph->end_s - ph->start_s)); break;
	default: snprintf(buf, len, "throttled: %s", sp); break;
	}
}

/* Host bytes written by time @t of segment @s; past its end, all it wrote. */
static double bytes_by(const struct slc_input_segment *s, double t)
{
	return slc__seg_bytes_at(s, t, 0);
}

/*
 * The host's pauses (a stopped process, a suspend: host_pause events) as
 * bands after the @nb phases: the gap in the curve is the host's, not a
 * stall of the drive.  Over bytes written a pause has no width, so each is
 * drawn at least 0.6% of the axis wide.
 */
static size_t pause_bands(struct curve_fig *c, size_t nb, const struct slc_session *x, size_t k,
			  const struct slc_figure_opts *o, double xmax)
{
	const struct slc_input_segment *s = &x->in->segments[x->seg[k]];
	char d[32];

	for (size_t e = 0; e < s->n_events && nb < 64; e++) {
		const struct slc_event *ev = &s->events[e];
		double a, z, w = 0.006 * xmax;
		if (!ev->kind || slc_event_kind_from_name(ev->kind) != SLC_EVK_HOST_PAUSE)
			continue;
		a = x_of(o, x, ev->t_s, bytes_by(s, ev->t_s));
		z = x_of(o, x, ev->t_s + (ev->value > 0 ? ev->value : 0), bytes_by(s, ev->t_s));
		if (z - a < w) {
			a -= (w - (z - a)) / 2;
			z = a + w;
		}
		/* a pause before the first sample sits at the axis' start, not off it */
		if (a < 0) {
			z -= a;
			a = 0;
		}
		snprintf(c->labels[nb], sizeof(c->labels[nb]), "host paused %s", slc_duration_words(d, sizeof(d), ev->value));
		c->bands[nb] = (struct slc_plot_band){ a, z, c->labels[nb], "host paused (not the drive)", SLC_COL_PURPLE };
		nb++;
	}
	return nb;
}

/* The phase bands of analysed segment @k; their count.  Sets the zoom when the cache is short. */
static size_t curve_bands(struct curve_fig *c, struct slc_plot_spec *sp, const struct slc_session *x, size_t k,
			  const struct slc_figure_opts *o, double xmax)
{
	const struct slc_analysis *an = &x->a[k];
	double cache_end = NAN;
	size_t nb = 0;
	char b[32];

	for (size_t p = 0; p < an->n_phases && nb < 64; p++) {
		const struct slc_phase *ph = &an->phases[p];
		band_label(c->labels[nb], sizeof(c->labels[nb]), ph, an->model.cell, o);
		c->bands[nb] = (struct slc_plot_band){ x_of(o, x, ph->start_s, ph->start_bytes),
						       x_of(o, x, ph->end_s, ph->end_bytes), c->labels[nb],
						       slc__fig_phase_words(ph, an->model.cell), slc__fig_phase_style(ph) };
		if (ph->kind == SLC_PHASE_SLC_CACHE)
			cache_end = c->bands[nb].x1;
		nb++;
	}
	nb = pause_bands(c, nb, x, k, o, xmax);
	/* a cache under 5% of the axis is a sliver: show the start again, zoomed */
	if (isfinite(cache_end) && cache_end > 0 && cache_end < 0.05 * xmax) {
		sp->zoom_x1 = fmin(cache_end * 3, xmax);
		if (o->x_time)
			snprintf(c->zoom, sizeof(c->zoom), "zoom: the first %s", slc_duration_words(b, sizeof(b), sp->zoom_x1));
		else if (o->x_fraction)
			snprintf(c->zoom, sizeof(c->zoom), "zoom: the first %.2g%% of the capacity", sp->zoom_x1 * 100);
		else
			snprintf(c->zoom, sizeof(c->zoom), "zoom: the first %s", slc_format_bytes(b, sizeof(b), sp->zoom_x1,
				 FIG_UNITS(o)));
		sp->zoom_label = c->zoom;
	}
	return nb;
}

/* "; run interrupted: 3 of 8 steps" after subtitle @sub when the run did not end complete. */
static void status_note(char *sub, size_t len, const struct slc_session *x)
{
	char note[96];
	size_t n = strlen(sub);

	if (slc__run_status_words(note, sizeof(note), x->in, 0)[0] && n < len)
		snprintf(sub + n, len - n, "; %s", note);
}

int slc_figure_curve(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
		     char *err, size_t errlen)
{
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_series sr = { 0 };
	struct slc_plot_layout lay;
	struct curve_fig *c;
	const struct slc_input_segment *s;
	char w[256], d[32];
	int rc;

	if (k < 0 || (size_t)k >= x->n)
		return slc_errf(err, errlen, -EINVAL, "%s: no such write curve", x->in->source);
	s = &x->in->segments[x->seg[k]];
	if ((rc = slc__fig_axes(&sp, x, s, o, err, errlen)))
		return rc;
	if (!(c = calloc(1, sizeof(*c))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if ((rc = slc__fig_samples(&c->x, &c->y, x, (size_t)k, o))) {
		rc = slc_errf(err, errlen, rc, "out of memory");
		goto out;
	}
	sr = (struct slc_plot_series){ .x = c->x, .y = c->y, .n = s->n_samples };
	sp.ma_window_x = slc__fig_ma_window(c->ma, sizeof(c->ma), c->x, s, o);
	sp.ma_label = c->ma;
	sp.ma_break_at_bands = 1;
	snprintf(c->dots, sizeof(c->dots), "every %s sample", slc_duration_words(d, sizeof(d), s->params.interval_s > 0 ?
		 s->params.interval_s : 1));
	sp.dots_label = c->dots;
	sp.n_bands = curve_bands(c, &sp, x, (size_t)k, o, s->n_samples ? c->x[s->n_samples - 1] : 0);
	sp.bands = c->bands;
	snprintf(c->title, sizeof(c->title), "%s", o->title ? o->title : slc_session_drive_name(w, sizeof(w), x));
	snprintf(c->sub, sizeof(c->sub), "%s", slc_segment_words(w, sizeof(w), s));
	status_note(c->sub, sizeof(c->sub), x);
	sp.title = c->title;
	sp.subtitle = c->sub;
	sp.width = o->width;
	sp.theme = o->theme;
	sp.height = o->height;
	sp.series = &sr;
	sp.n_series = 1;
	sp.layout = &lay;
	if (!(rc = slc_plot_write(path, &sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
out:
	free(c->x);
	free(c->y);
	free(c);
	return rc;
}

/* Per-bin means of the percentiles (the maximum's bin maximum) of @s, @nb bins. */
static size_t latency_bins(const struct slc_input_segment *s, size_t nb, double *t, double (*v)[4])
{
	const double *src[4] = { s->lat_p50_us, s->lat_p99_us, s->lat_p999_us, s->lat_max_us };
	size_t per = (s->n_samples + nb - 1) / nb, out = 0;

	for (size_t b = 0; b * per < s->n_samples; b++, out++) {
		size_t lo = b * per, hi = lo + per < s->n_samples ? lo + per : s->n_samples;
		t[out] = (s->t_s[lo] + s->t_s[hi - 1]) / 2;
		for (int q = 0; q < 4; q++) {
			double sum = 0, mx = NAN;
			size_t cnt = 0;
			for (size_t i = lo; src[q] && i < hi; i++)
				if (isfinite(src[q][i]) && src[q][i] > 0) {
					sum += src[q][i];
					cnt++;
					if (!(mx >= src[q][i])) mx = src[q][i];
				}
			v[out][q] = !cnt ? NAN : q == 3 ? mx : sum / (double)cnt;
		}
	}
	return out;
}

/* Whether @s holds one measured latency: imports allocate the columns and leave them unknown (NAN). */
static int has_latency(const struct slc_input_segment *s)
{
	const double *c[4] = { s->lat_p50_us, s->lat_p99_us, s->lat_p999_us, s->lat_max_us };

	for (int q = 0; q < 4; q++)
		for (size_t i = 0; c[q] && i < s->n_samples; i++)
			if (isfinite(c[q][i]) && c[q][i] > 0)
				return 1;
	return 0;
}

int slc_figure_latency(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
		       char *err, size_t errlen)
{
	const struct slc_input_segment *s;
	struct slc_plot_series sr[4];
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_layout lay;
	struct slc_plot_band bands[64];
	char title[256], sub[512], w[256], d[32], bin[32];
	double *t, (*v)[4], *col[5];
	size_t nb, nbands = 0;
	int rc;

	if (k < 0 || (size_t)k >= x->n)
		return slc_errf(err, errlen, -EINVAL, "%s: no such write curve", x->in->source);
	s = &x->in->segments[x->seg[k]];
	if (!has_latency(s))
		return slc_errf(err, errlen, -EINVAL, "%s has no latencies (imported logs carry none)", x->in->source);
	/* about one bin per 3 pixels: 2 h of 1 s samples become 400 bins */
	t = malloc(400 * sizeof(*t));
	v = malloc(400 * sizeof(*v));
	col[0] = malloc(5 * 400 * sizeof(double));
	if (!t || !v || !col[0]) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	nb = latency_bins(s, s->n_samples < 400 ? (s->n_samples ? s->n_samples : 1) : 400, t, v);
	for (int q = 1; q < 5; q++) col[q] = col[0] + q * 400;
	for (size_t i = 0; i < nb; i++) {
		col[0][i] = t[i];
		for (int q = 0; q < 4; q++) col[q + 1][i] = v[i][q];
	}
	/* widest band at the back, so p99.9 is never hidden under the maximum */
	sr[0] = (struct slc_plot_series){ .label = "p99.9 to maximum", .x = col[0], .y = col[4], .y_lo = col[3], .n = nb,
					  .line_only = 1, .colour = SLC_COL_PURPLE + 1, .alpha = 0.35 };
	sr[1] = (struct slc_plot_series){ .label = "p99 to p99.9", .x = col[0], .y = col[3], .y_lo = col[2], .n = nb,
					  .line_only = 1, .colour = SLC_COL_ORANGE + 1, .alpha = 0.55 };
	sr[2] = (struct slc_plot_series){ .label = "median (p50) to p99", .x = col[0], .y = col[2], .y_lo = col[1],
					  .n = nb, .line_only = 1, .colour = SLC_COL_SKY + 1, .alpha = 0.6 };
	sr[3] = (struct slc_plot_series){ .label = "median (p50)", .x = col[0], .y = col[1], .n = nb, .line_only = 1,
					  .colour = SLC_COL_BLUE + 1 };
	for (size_t p = 0; p < x->a[k].n_phases && nbands < 64; p++) {
		const struct slc_phase *ph = &x->a[k].phases[p];
		bands[nbands++] = (struct slc_plot_band){ ph->start_s, ph->end_s, NULL,
							  slc__fig_phase_words(ph, x->a[k].model.cell), slc__fig_phase_style(ph) };
	}
	snprintf(title, sizeof(title), "%s: write latency", o->title ? o->title : slc_session_drive_name(w, sizeof(w), x));
	snprintf(sub, sizeof(sub), "%s; each band: the mean of every %s interval's percentile over %s bins", slc_segment_words(w, sizeof(w), s),
		 slc_duration_words(d, sizeof(d), s->params.interval_s > 0 ? s->params.interval_s : 1),
		 slc_duration_words(bin, sizeof(bin), nb > 1 ? (t[nb - 1] - t[0]) / (double)(nb - 1) : s->params.interval_s));
	status_note(sub, sizeof(sub), x);
	sp = (struct slc_plot_spec){ .title = title, .subtitle = sub, .ylabel = "latency (log scale)", .y_scale = 1,
				     .width = o->width, .theme = o->theme, .height = o->height, .series = sr, .n_series = 4, .log_y = 1,
				     .y_format = SLC_YFMT_US, .bands = bands, .n_bands = nbands, .layout = &lay };
	sp.x_scale = s->n_samples && s->t_s[s->n_samples - 1] > 5400 ? 60 : 1;
	sp.xlabel = sp.x_scale > 1 ? "time (minutes)" : "time (seconds)";
	if (!(rc = slc_plot_write(path, &sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
out:
	free(t);
	free(v);
	free(col[0]);
	return rc;
}

/* The lab plan's recovery bursts: after its idle (argument 0; the idle sweep's have their own figure) or a TRIM. */
static int is_recovery_burst(const struct slc_input_segment *s)
{
	return s->params.role == SLC_ROLE_TRIM_BURST || (s->params.role == SLC_ROLE_IDLE_BURST && !s->params.role_arg);
}

/* Whether @x's steps carry roles (older traces and imports do not: every
 * later curve counts as a burst there, as on the console), and how many
 * recovery bursts it holds. */
static int recovery_bursts(const struct slc_session *x, int *roled)
{
	int n = 0;

	*roled = 0;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		if (s->params.role != SLC_ROLE_UNKNOWN && s->params.role != SLC_ROLE_IMPORTED)
			*roled = 1;
		n += is_recovery_burst(s);
	}
	return n;
}

int slc_figure_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
			char *err, size_t errlen)
{
	struct slc_bar_group g[16];
	char labels[16][64], title[512], w[256], sub[256];
	struct slc_bar_spec bs = { 0 };
	struct slc_plot_layout lay;
	long ref = x->n ? slc_session_pick(x, 0) : -1;
	size_t n = 0;
	int rc, roled, idled = 0, trimmed = 0;

	/* the bursts are the curves after the main one, read against it as the console and the report do */
	if (x->n < 2 || ref < 0)
		return slc_errf(err, errlen, -EINVAL, "%s has one write curve: no recovery to show "
				"(the lab plan's bursts after idle and after TRIM)", x->in->source);
	if (recovery_bursts(x, &roled) < 1 && roled)
		return slc_errf(err, errlen, -EINVAL, "%s has no recovery burst (the lab plan's bursts after idle "
				"and after TRIM)", x->in->source);
	/* the bars are the recoveries the session read, the same the console and the report state */
	for (size_t i = (size_t)ref; i < x->n && n < 16; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_recovery r;
		char d[32];
		/* with roles recorded, other plans' bursts (fill levels, data, saturating ones) are not recoveries */
		if (i > (size_t)ref && roled && !is_recovery_burst(s))
			continue;
		if (slc_session_recovery(x, i, &r))
			continue;
		if (i == (size_t)ref)
			snprintf(labels[n], sizeof(labels[n]), "fresh, after TRIM");
		else if (slc_role_after_trim(s->params.role, s->params.role_arg) && ++trimmed)
			snprintf(labels[n], sizeof(labels[n]), "after a TRIM");
		else if (++idled)
			snprintf(labels[n], sizeof(labels[n]), "after %s idle", slc_duration_words(d, sizeof(d), s->params.idle_before_s));
		g[n] = (struct slc_bar_group){ labels[n], r.cache_bytes, r.burst_bps };
		n++;
	}
	if (n < 2)
		return slc_errf(err, errlen, -EINVAL, "%s: no burst after the main (%s) curve", x->in->source,
				x->in->segments[x->seg[ref]].params.workload);
	snprintf(title, sizeof(title), "%s: recovery", o->title ? o->title : slc_session_drive_name(w, sizeof(w), x));
	bs.title = title;
	snprintf(sub, sizeof(sub), "SLC cache found and burst speed: the fresh drive%s%s", idled ? ", after idling without TRIM" : "",
		 trimmed ? ", after a TRIM of the whole drive" : "");
	bs.subtitle = sub;
	bs.left_label = FIG_SIZE_LABEL(o, "SLC cache found");
	bs.right_label = FIG_RATE_LABEL(o, "burst speed");
	bs.left_scale = FIG_SIZE_DIV(o);
	bs.right_scale = FIG_RATE_DIV(o);
	bs.width = o->width;
	bs.theme = o->theme;
	bs.height = o->height;
	bs.groups = g;
	bs.n_groups = n;
	bs.layout = &lay;
	if (!(rc = slc_plot_bars(path, &bs, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	return rc;
}

int slc_figure_opts_labels(struct slc_figure_opts *o, const char *const *label, const size_t *at, size_t nl, size_t n,
			   char *err, size_t errlen)
{
	size_t trailing = 0;

	for (size_t i = 0; i < nl; i++) trailing += at[i] == n;
	if (trailing && trailing < nl)
		return slc_errf(err, errlen, -EINVAL, "give each -l before its INPUT, or all of them after the INPUTs");
	if (trailing > n)
		return slc_errf(err, errlen, -EINVAL, "%zu names (-l) for %zu INPUT%s", trailing, n, n == 1 ? "" : "s");
	for (size_t i = 0; i < nl; i++) {
		size_t k = trailing ? i : at[i];
		if (k >= SLC_FIG_MAX_MULTIPLES) continue;
		if (o->labels[k])
			return slc_errf(err, errlen, -EINVAL, "two names (-l) for one INPUT: '%s' and '%s'", o->labels[k],
					label[i]);
		o->labels[k] = label[i];
	}
	o->n_labels = nl ? (n < SLC_FIG_MAX_MULTIPLES ? n : SLC_FIG_MAX_MULTIPLES) : 0;
	return 0;
}

int slc_figure_opts_set(struct slc_figure_opts *o, const char *name, const char *v, char *err, size_t errlen)
{
	char *end;
	long n;

	if (!strcmp(name, "x")) {
		if (strcmp(v, "bytes") && strcmp(v, "time") && strcmp(v, "fraction"))
			return slc_errf(err, errlen, -EINVAL, "--x: '%s' is not bytes, time or fraction", v);
		o->x_time = v[0] == 't';
		o->x_fraction = v[0] == 'f';
	} else if (!strcmp(name, "y")) {
		if (!strcmp(v, "log") || !strcmp(v, "linear")) o->log_y = v[1] == 'o';
		else if (!strcmp(v, "bps") || !strcmp(v, "iops")) o->y_iops = v[0] == 'i';
		else return slc_errf(err, errlen, -EINVAL, "--y: '%s' is not bps, iops, log or linear", v);
	} else if (!strcmp(name, "segment")) {
		if ((o->role = slc_role_from_name(v)) == SLC_ROLE_UNKNOWN)
			return slc_errf(err, errlen, -EINVAL, "--segment: '%s' is not a segment number or a role "
					"(fill, curve, idle_burst, trim_burst, ...)", v);
	} else if (!strcmp(name, "label")) {
		if (o->n_labels >= SLC_FIG_MAX_MULTIPLES)
			return slc_errf(err, errlen, -EINVAL, "--label: at most %d, one per input", SLC_FIG_MAX_MULTIPLES);
		o->labels[o->n_labels++] = v;
	} else if (!strcmp(name, "title")) {
		o->title = v;
	} else if (!strcmp(name, "width") || !strcmp(name, "height")) {
		n = strtol(v, &end, 10);
		if (*end || !*v || n < 200 || n > 20000)
			return slc_errf(err, errlen, -EINVAL, "--%s: '%s' is not a size from 200 to 20000", name, v);
		*(name[0] == 'w' ? &o->width : &o->height) = (int)n;
	} else if (!strcmp(name, "binary")) {
		o->binary = 1;
	} else if (!strcmp(name, "theme")) {
		int t = slc_plot_theme_from_name(v);
		if (t < 0)
			return slc_errf(err, errlen, -EINVAL, "--theme: '%s' is not default or print", v);
		o->theme = (enum slc_plot_theme)t;
	} else if (!strcmp(name, "layout-json")) {
		o->layout_json = v;
	} else if (!strcmp(name, "pdf")) {
		o->pdf = 1;
	} else if (!strcmp(name, "paper")) {
		int p = slc_paper_from_name(v);
		if (p < 0)
			return slc_errf(err, errlen, -EINVAL, "--paper: '%s' is not a4 or letter", v);
		o->paper = (enum slc_paper)p;
	} else {
		return slc_errf(err, errlen, -EINVAL, "unknown option '--%s'", name);
	}
	return 0;
}

int slc_figure_draw(const char *path, enum slc_figure_kind kind, const struct slc_session *xs, size_t n,
		    const struct slc_figure_opts *o, char *err, size_t errlen)
{
	long k;

	if (!n || (n > 1 && slc_figure_kind_inputs(kind) == 1))
		return slc_errf(err, errlen, -EINVAL, "--kind %s takes one input", slc_figure_kind_name(kind));
	if (n > (size_t)slc_figure_kind_inputs(kind))
		return slc_errf(err, errlen, -EINVAL, "at most %d inputs on one chart", slc_figure_kind_inputs(kind));
	switch (kind) {
	case SLC_FIG_COMPARE: return slc_figure_compare(path, xs, n, o, err, errlen);
	case SLC_FIG_MULTIPLES: return slc__figure_multiples(path, xs, n, o, err, errlen);
	case SLC_FIG_BARS: return slc__figure_bars(path, xs, n, o, err, errlen);
	default: break;
	}
	if (slc__exp_figure(kind))
		return slc__exp_figure(kind)->draw(path, kind, xs, n, o, err, errlen);
	if ((k = slc_session_pick(xs, o->role)) < 0)
		return slc_errf(err, errlen, -EINVAL, "%s has no %s segment", xs->in->source, slc_role_name(o->role));
	switch (kind) {
	case SLC_FIG_LATENCY: return slc_figure_latency(path, xs, k, o, err, errlen);
	case SLC_FIG_LATENCY_CDF: return slc__figure_latency_cdf(path, xs, k, o, err, errlen);
	case SLC_FIG_TEMPERATURE: return slc__figure_temperature(path, xs, k, o, err, errlen);
	default: return slc_figure_curve(path, xs, k, o, err, errlen);
	}
}

struct drawn {
	enum slc_figure_kind kind;
	const struct slc_session *xs;
	size_t n;
	const struct slc_figure_opts *o;
};

static int draw_tmp(const char *tmp, FILE *f, void *arg, char *err, size_t errlen)
{
	const struct drawn *d = arg;

	(void)f;
	return slc_figure_draw(tmp, d->kind, d->xs, d->n, d->o, err, errlen);
}

int slc_figure_write(const char *path, const struct slc_output_opts *oo, enum slc_figure_kind kind,
		     const struct slc_session *xs, size_t n, const struct slc_figure_opts *o, char *err, size_t errlen)
{
	struct slc_output_opts lo = *oo;
	struct stat a, b;
	int rc;

	/* the layout is an output too: checked against the same inputs before anything is drawn */
	if (o && o->layout_json) {
		lo.kind = SLC_OUTPUT_TEXT;
		lo.option = "--layout-json";
		lo.stdout_ok = 0;
		if (!strcmp(o->layout_json, path) ||
		    (stat(o->layout_json, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino))
			return slc_errf(err, errlen, -EINVAL, "--layout-json %s: that is the graph's file; give another",
					o->layout_json);
		if ((rc = slc_output_check(o->layout_json, &lo, err, errlen)))
			return rc;
	}
	return slc_output_write(path, oo, draw_tmp, &(struct drawn){ kind, xs, n, o }, err, errlen);
}
