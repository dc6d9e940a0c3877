// SPDX-License-Identifier: MIT
/*
 * Figures of a run's curves beyond the write curve: latency by phase and
 * temperature with its throttling; and what the experiment modules'
 * figures share (exp/exp.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/exp.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

const char *slc__fig_title(char *buf, size_t len, const struct slc_session *x, const struct slc_figure_opts *o,
			   const char *what)
{
	char w[256];
	snprintf(buf, len, "%s: %s", o->title ? o->title : slc_session_drive_name(w, sizeof(w), x), what);
	return buf;
}

static int finish(const char *path, struct slc_plot_spec *sp, const struct slc_figure_opts *o, char *err,
		  size_t errlen)
{
	struct slc_plot_layout lay;
	int rc;

	sp->width = o->width;
	sp->theme = o->theme;
	sp->height = o->height;
	sp->layout = &lay;
	if (!(rc = slc_plot_write(path, sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	return rc;
}

int slc__fig_bars(const char *path, struct slc_bar_chart *c, const struct slc_figure_opts *o, char *err,
		  size_t errlen)
{
	struct slc_plot_layout lay;
	int rc;

	c->width = o->width;
	c->theme = o->theme;
	c->height = o->height;
	c->layout = &lay;
	if (!(rc = slc_plot_bar_chart(path, c, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	return rc;
}

/* The phases of one kind (and tier) pooled: their intervals' p99, sorted, as a curve from 0 to 100%. */
struct pooled {
	double *x, *y;
	size_t n;
	char label[96];
};

static void pool_phase(struct pooled *pk, const struct slc_input_segment *s, const struct slc_phase *ph)
{
	for (size_t i = 0; i < s->n_samples; i++)
		if (s->t_s[i] > ph->start_s && s->t_s[i] <= ph->end_s + 1e-9 && isfinite(s->lat_p99_us[i]) &&
		    s->lat_p99_us[i] > 0)
			pk->y[pk->n++] = s->lat_p99_us[i];
}

int slc__figure_latency_cdf(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
			   char *err, size_t errlen)
{
	const struct slc_input_segment *s = &x->in->segments[x->seg[k]];
	const struct slc_analysis *an = &x->a[k];
	struct pooled pk[8] = { 0 };
	struct slc_plot_series sr[8];
	struct slc_plot_spec sp = { 0 };
	const struct slc_phase *first[8];
	char title[256], sub[512], d[32];
	size_t np = 0, used = 0;
	int rc = 0;

	if (!s->lat_p99_us)
		return slc_errf(err, errlen, -EINVAL, "%s has no latencies (imported logs carry none)", x->in->source);
	for (size_t p = 0; p < an->n_phases; p++) {
		const struct slc_phase *ph = &an->phases[p];
		size_t j;
		for (j = 0; j < np && !(first[j]->kind == ph->kind && (first[j]->tier > 1) == (ph->tier > 1)); j++) {}
		if (j == np) {
			if (np == 8) continue;
			first[np] = ph;
			if (!(pk[np].y = malloc(s->n_samples * sizeof(double))) || !(pk[np].x = malloc(s->n_samples * sizeof(double)))) {
				rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
				np++;
				goto out;
			}
			np++;
		}
		pool_phase(&pk[j], s, ph);
	}
	for (size_t j = 0; j < np; j++) {
		if (pk[j].n < 2)
			continue;
		qsort(pk[j].y, pk[j].n, sizeof(double), cmp_double);
		for (size_t i = 0; i < pk[j].n; i++)
			pk[j].x[i] = 100.0 * ((double)i + 0.5) / (double)pk[j].n;
		snprintf(pk[j].label, sizeof(pk[j].label), "%s (%zu intervals)", slc__fig_phase_words(first[j], an->model.cell), pk[j].n);
		sr[used++] = (struct slc_plot_series){ .label = pk[j].label, .x = pk[j].x, .y = pk[j].y, .n = pk[j].n,
						       .line_only = 1, .colour = slc__fig_phase_style(first[j]) + 1 };
	}
	if (!used) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: no phase with latencies to draw", x->in->source);
		goto out;
	}
	snprintf(sub, sizeof(sub), "each %s interval's 99th-percentile latency, sorted within its phase "
		 "(at 90%%: the p99 that 90%% of the intervals stayed under)",
		 slc_duration_words(d, sizeof(d), s->params.interval_s > 0 ? s->params.interval_s : 1));
	sp = (struct slc_plot_spec){ .title = slc__fig_title(title, sizeof(title), x, o, "write latency by phase"), .subtitle = sub,
				     .xlabel = "share of the phase's intervals (%)", .ylabel = "99th-percentile latency (log scale)",
				     .x_scale = 1, .y_scale = 1, .series = sr, .n_series = used, .log_y = 1,
				     .y_format = SLC_YFMT_US, .x_max = 100 };
	rc = finish(path, &sp, o, err, errlen);
out:
	for (size_t j = 0; j < np; j++) {
		free(pk[j].x);
		free(pk[j].y);
	}
	return rc;
}

struct spans {
	double a[64], z[64];
	size_t n;
};

static void span_add(struct spans *sp, double a, double z)
{
	if (sp->n < 64 && isfinite(a) && isfinite(z) && z > a) {
		sp->a[sp->n] = a;
		sp->z[sp->n++] = z;
	}
}

static int span_cmp(const void *l, const void *r)
{
	double a = *(const double *)l, b = *(const double *)r;
	return (a > b) - (a < b);
}

/* The drive's own throttle events, else the intervals its thermal-management entry counter rose in. */
static void throttle_events(struct spans *sp, const struct slc_input_segment *s, double end)
{
	double on = NAN, last_t = NAN, last_n = NAN;
	int ground = 0;

	for (size_t e = 0; e < s->n_events; e++)
		ground |= s->events[e].kind && slc_event_kind_from_name(s->events[e].kind) == SLC_EVK_THROTTLE_ON;
	for (size_t e = 0; e < s->n_events; e++) {
		const struct slc_event *ev = &s->events[e];
		enum slc_event_kind k = ev->kind ? slc_event_kind_from_name(ev->kind) : SLC_EVK_UNKNOWN;
		if (k == SLC_EVK_THROTTLE_ON && !isfinite(on))
			on = ev->t_s;
		else if (k == SLC_EVK_THROTTLE_OFF && isfinite(on)) {
			span_add(sp, on, ev->t_s);
			on = NAN;
		} else if (k == SLC_EVK_THERMAL_TRANSITIONS && !ground) {
			/* the entry happened somewhere between the two readings */
			if (isfinite(last_n) && ev->value > last_n)
				span_add(sp, last_t, ev->t_s);
			last_n = ev->value;
			last_t = ev->t_s;
		}
	}
	span_add(sp, on, end);
}

/*
 * Where the drive throttled, as bands after the @nb in @b: its throttle
 * events or counter, and its readings at or above its warning temperature
 * @warn_c; overlapping evidence merged into one band.  A throttled phase
 * of the analysis runs on past these (it is a speed, not a temperature):
 * shading it all would mark the drive hot where it was cool.
 */
static size_t throttle_bands(struct slc_plot_band *b, size_t nb, const struct slc_input_segment *s, double warn_c,
			     const char *legend, int style)
{
	struct spans sp = { .n = 0 };
	double end = s->n_samples ? s->t_s[s->n_samples - 1] : 0;

	throttle_events(&sp, s, end);
	for (size_t i = 0; isfinite(warn_c) && s->temp_c && i < s->n_samples; i++)
		if (isfinite(s->temp_c[i]) && s->temp_c[i] >= warn_c)
			span_add(&sp, s->t_s[i] - (s->interval_s && s->interval_s[i] > 0 ? s->interval_s[i] : 0.001), s->t_s[i]);
	/* sorted by start, each span with its end: the pairs move together */
	{
		double pr[64][2];
		for (size_t i = 0; i < sp.n; i++) { pr[i][0] = sp.a[i]; pr[i][1] = sp.z[i]; }
		qsort(pr, sp.n, sizeof(pr[0]), span_cmp);
		for (size_t i = 0; i < sp.n && nb < 64; i++) {
			if (nb && b[nb - 1].style == style && b[nb - 1].legend == legend && pr[i][0] <= b[nb - 1].x1) {
				b[nb - 1].x1 = fmax(b[nb - 1].x1, pr[i][1]);
				continue;
			}
			b[nb++] = (struct slc_plot_band){ pr[i][0], pr[i][1], NULL, legend, style };
		}
	}
	/* a throttle of a second in an hour still shows */
	for (size_t i = 0; i < nb; i++)
		if (b[i].legend == legend && b[i].x1 - b[i].x0 < 0.004 * end) {
			double mid = (b[i].x0 + b[i].x1) / 2;
			b[i].x0 = mid - 0.002 * end;
			b[i].x1 = mid + 0.002 * end;
		}
	return nb;
}

int slc__figure_temperature(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
			   char *err, size_t errlen)
{
	const struct slc_input_segment *s = &x->in->segments[x->seg[k]];
	const struct slc_session_drive *dr = &x->drive[k];
	double lo = INFINITY, hi = -INFINITY, wx[2], wy[2], *tx, *ty;
	struct slc_plot_series sr[2];
	struct slc_plot_band bands[64];
	struct slc_plot_spec sp = { 0 };
	char title[256], sub[512], wl[64], w[256];
	size_t nb = 0, nt = 0;
	int rc;

	/* readings come every few samples: the line joins them, it does not stop between */
	tx = malloc((s->n_samples + 1) * sizeof(*tx));
	ty = malloc((s->n_samples + 1) * sizeof(*ty));
	if (!tx || !ty) {
		free(tx);
		free(ty);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; s->temp_c && i < s->n_samples; i++)
		if (isfinite(s->temp_c[i])) {
			lo = fmin(lo, s->temp_c[i]);
			hi = fmax(hi, s->temp_c[i]);
			tx[nt] = s->t_s[i];
			ty[nt++] = s->temp_c[i];
		}
	if (!nt) {
		free(tx);
		free(ty);
		return slc_errf(err, errlen, -EINVAL, "%s has no temperature readings in this curve (run with the drive's probe)",
				x->in->source);
	}
	for (size_t p = 0; p < x->a[k].n_phases && nb < 64; p++) {
		const struct slc_phase *ph = &x->a[k].phases[p];
		if (ph->kind == SLC_PHASE_STALL)
			bands[nb++] = (struct slc_plot_band){ ph->start_s, ph->end_s, NULL, slc__fig_phase_words(ph, x->a[k].model.cell), slc__fig_phase_style(ph) };
	}
	{
		const struct slc_phase thr = { .kind = SLC_PHASE_THROTTLED };
		nb = throttle_bands(bands, nb, s, dr->warn_c, slc__fig_phase_words(&thr, x->a[k].model.cell),
				    slc__fig_phase_style(&thr));
	}
	sr[0] = (struct slc_plot_series){ .label = "drive temperature", .x = tx, .y = ty, .n = nt,
					  .line_only = 1, .colour = SLC_COL_VERMILLION + 1 };
	sp.n_series = 1;
	if (isfinite(dr->warn_c)) {
		wx[0] = 0;
		wx[1] = s->t_s[s->n_samples - 1];
		wy[0] = wy[1] = dr->warn_c;
		snprintf(wl, sizeof(wl), "the drive's warning temperature (%.0f °C)", dr->warn_c);
		sr[1] = (struct slc_plot_series){ .label = wl, .x = wx, .y = wy, .n = 2, .line_only = 1, .colour = SLC_COL_BLACK + 1 };
		sp.n_series = 2;
		hi = fmax(hi, dr->warn_c);
	}
	snprintf(sub, sizeof(sub), "%s; shaded: throttled (the drive's throttle report or at its warning temperature), stalls", slc_segment_words(w, sizeof(w), s));
	sp.title = slc__fig_title(title, sizeof(title), x, o, "temperature");
	sp.subtitle = sub;
	sp.x_scale = s->t_s[s->n_samples - 1] > 5400 ? 60 : 1;
	sp.xlabel = sp.x_scale > 1 ? "time (minutes)" : "time (seconds)";
	sp.ylabel = "temperature (°C)";
	sp.y_scale = 1;
	sp.y_min = fmax(0, floor((lo - 3) / 5) * 5);
	sp.y_max = hi + 3;
	sp.series = sr;
	sp.bands = bands;
	sp.n_bands = nb;
	rc = finish(path, &sp, o, err, errlen);
	free(tx);
	free(ty);
	return rc;
}
