// SPDX-License-Identifier: MIT
/*
 * The figures of an analysed session: write curves, latency, recovery,
 * idle recovery, comparisons (drawn by the analysis library's plotter).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"

struct owned {
	double *x, *y;
	char label[160];
};

/* Fill @sr (and the arrays in @o) for analysed segment @i of @x. */
static int make_series(struct slc_plot_series *sr, struct owned *o, const struct slc_session *x, size_t i,
		       const struct slc_figure_opts *opt)
{
	const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
	size_t n = s->n_samples;
	double blk = s->params.block_bytes;

	o->x = malloc(n * sizeof(double));
	o->y = malloc(n * sizeof(double));
	if (!o->x || !o->y)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		double dt = s->interval_s[k] > 0 ? s->interval_s[k] : NAN;
		o->x[k] = opt->x_time ? s->t_s[k] : (double)s->bytes_total[k];
		o->y[k] = x->bytes[i][k] / dt / (opt->y_iops ? blk : 1);
	}
	sr->x = o->x;
	sr->y = o->y;
	sr->t_s = s->t_s;
	sr->n = n;
	return 0;
}

static const char *phase_name(enum slc_phase_kind k)
{
	switch (k) {
	case SLC_PHASE_SLC_CACHE: return "SLC cache";
	case SLC_PHASE_DIRECT_TO_TLC: return "direct to TLC";
	case SLC_PHASE_ERASE_BOUND: return "erase-bound";
	case SLC_PHASE_STALL: return "stall";
	default: return "throttled";
	}
}

static void axis_labels(struct slc_plot_spec *sp, const struct slc_figure_opts *o)
{
	sp->x_scale = o->x_time ? 1 : (o->binary ? 1073741824.0 : 1e9);
	sp->xlabel = o->x_time ? "time (s)" : (o->binary ? "data written (GiB)" : "data written (GB)");
	sp->y_scale = o->y_iops ? 1000 : (o->binary ? 1048576.0 : 1e6);
	sp->ylabel = o->y_iops ? "thousand IOPS" : (o->binary ? "write speed (MiB/s)" : "write speed (MB/s)");
}

int slc_figure_curve(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
	       char *err, size_t errlen)
{
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_series sr = { 0 };
	struct slc_plot_band bands[64];
	char labels[64][160], title[512], sub[512], a[32], b[32];
	struct owned ow = { 0 };
	const struct slc_input_segment *s;
	const struct slc_analysis *an;
	size_t nb = 0;
	int rc;

	if (k < 0 || (size_t)k >= x->n)
		return snprintf(err, errlen, "no such write curve"), -EINVAL;
	s = &x->in->segments[x->seg[k]];
	an = &x->a[k];
	if (o->y_iops && !s->params.block_bytes)
		return snprintf(err, errlen, "--y iops needs a fixed block size; this input has none"), -EINVAL;
	if ((rc = make_series(&sr, &ow, x, (size_t)k, o))) {
		free(ow.x);
		free(ow.y);
		return snprintf(err, errlen, "out of memory"), rc;
	}
	for (size_t p = 0; p < an->n_phases && nb < 64; p++) {
		const struct slc_phase *ph = &an->phases[p];
		double speed = o->y_iops ? ph->iops_mean : ph->mean_bps;
		char sp_txt[32];
		if (ph->kind == SLC_PHASE_STALL || ph->kind == SLC_PHASE_THROTTLED)
			continue;
		if (o->y_iops && isfinite(speed))
			slc_format_iops(sp_txt, sizeof(sp_txt), speed);
		else
			slc_format_rate(sp_txt, sizeof(sp_txt), ph->mean_bps, o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL);
		if (ph->kind == SLC_PHASE_SLC_CACHE)
			snprintf(labels[nb], sizeof(labels[nb]), "%s%s: %s at %s", phase_name(ph->kind),
				 ph->tier > 1 ? " (tier 2)" : "",
				 slc_format_bytes(a, sizeof(a), ph->end_bytes - ph->start_bytes, o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL),
				 sp_txt);
		else
			snprintf(labels[nb], sizeof(labels[nb]), "%s: %s", phase_name(ph->kind), sp_txt);
		bands[nb].x0 = o->x_time ? ph->start_s : ph->start_bytes;
		bands[nb].x1 = o->x_time ? ph->end_s : ph->end_bytes;
		bands[nb].label = labels[nb];
		bands[nb].style = ph->kind == SLC_PHASE_SLC_CACHE ? 2 : ph->kind == SLC_PHASE_DIRECT_TO_TLC ? 3 : 1;
		nb++;
	}
	snprintf(title, sizeof(title), "%s", x->in->meta.device_model && x->in->meta.device_model[0] ?
		 x->in->meta.device_model : (x->in->meta.target && x->in->meta.target[0] ? x->in->meta.target : x->in->source));
	if (s->params.block_bytes)
		snprintf(sub, sizeof(sub), "%s %s writes, QD%u, %s; every %s sample a dot",
			 slc_workload_from_name(s->params.workload) == SLC_WL_SEQ_WRITE ? "sequential" : "random",
			 slc_format_bytes(a, sizeof(a), s->params.block_bytes, SLC_UNITS_BINARY), s->params.queue_depth,
			 s->params.step, slc_format_duration(b, sizeof(b), (uint64_t)(s->params.interval_s * 1e9)));
	else
		snprintf(sub, sizeof(sub), "imported from %s", x->in->source);
	sp.title = title;
	sp.subtitle = sub;
	axis_labels(&sp, o);
	sp.width = o->width;
	sp.height = o->height;
	sp.series = &sr;
	sp.n_series = 1;
	sp.bands = bands;
	sp.n_bands = nb;
	rc = slc_plot_write(path, &sp, err, errlen);
	free(ow.x);
	free(ow.y);
	return rc;
}

int slc_figure_compare(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		    char *err, size_t errlen)
{
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_series *sr = calloc(n, sizeof(*sr));
	struct owned *ow = calloc(n, sizeof(*ow));
	int rc = 0;

	if (!sr || !ow) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct slc_session *x = &xs[i];
		const struct slc_input_segment *s = &x->in->segments[x->seg[0]];
		char a[32];
		if (o->y_iops && !s->params.block_bytes) {
			rc = -EINVAL;
			snprintf(err, errlen, "--y iops needs a fixed block size; %s has none", x->in->source);
			goto out;
		}
		if ((rc = make_series(&sr[i], &ow[i], x, 0, o))) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		if (x->a[0].has_cache)
			snprintf(ow[i].label, sizeof(ow[i].label), "%s (cache %s)",
				 x->in->meta.device_model && x->in->meta.device_model[0] ? x->in->meta.device_model : x->in->source,
				 slc_format_bytes(a, sizeof(a), x->a[0].cache_bytes, o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL));
		else
			snprintf(ow[i].label, sizeof(ow[i].label), "%s (no cache)",
				 x->in->meta.device_model && x->in->meta.device_model[0] ? x->in->meta.device_model : x->in->source);
		sr[i].label = ow[i].label;
	}
	sp.title = "Write curves compared";
	sp.subtitle = "each drive's first write curve; lines are 30 s moving averages";
	axis_labels(&sp, o);
	sp.width = o->width;
	sp.height = o->height;
	sp.series = sr;
	sp.n_series = n;
	rc = slc_plot_write(path, &sp, err, errlen);
out:
	for (size_t i = 0; ow && i < n; i++) {
		free(ow[i].x);
		free(ow[i].y);
	}
	free(ow);
	free(sr);
	return rc;
}

int slc_figure_latency(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
		 char *err, size_t errlen)
{
	static const char *const names[4] = { "p50", "p99", "p99.9", "max" };
	const struct slc_input_segment *s;
	struct slc_plot_series sr[4];
	struct slc_plot_spec sp = { 0 };
	char title[512], sub[256], a[32];
	size_t used = 0;

	if (k < 0 || (size_t)k >= x->n)
		return snprintf(err, errlen, "no such write curve"), -EINVAL;
	s = &x->in->segments[x->seg[k]];
	for (int i = 0; i < 4; i++) {
		const double *y = i == 0 ? s->lat_p50_us : i == 1 ? s->lat_p99_us : i == 2 ? s->lat_p999_us : s->lat_max_us;
		int any = 0;
		for (size_t j = 0; y && j < s->n_samples && !any; j++)
			any = isfinite(y[j]) && y[j] > 0;
		if (!any)
			continue;
		sr[used] = (struct slc_plot_series){ .label = names[i], .x = s->t_s, .y = y, .n = s->n_samples, .line_only = 1 };
		used++;
	}
	if (!used)
		return snprintf(err, errlen, "%s has no latencies (imported logs carry none)", x->in->source), -EINVAL;
	snprintf(title, sizeof(title), "%s: latency", x->in->meta.device_model && x->in->meta.device_model[0] ?
		 x->in->meta.device_model : x->in->source);
	snprintf(sub, sizeof(sub), "%s, %s QD%u; percentiles of each %.3g s interval", s->params.step,
		 slc_format_bytes(a, sizeof(a), s->params.block_bytes, SLC_UNITS_BINARY), s->params.queue_depth,
		 s->params.interval_s);
	sp.title = title;
	sp.subtitle = sub;
	sp.xlabel = "time (s)";
	sp.ylabel = "latency (us, log scale)";
	sp.x_scale = sp.y_scale = 1;
	sp.width = o->width;
	sp.height = o->height;
	sp.series = sr;
	sp.n_series = used;
	sp.log_y = 1;
	return slc_plot_write(path, &sp, err, errlen);
}

int slc_figure_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
		  char *err, size_t errlen)
{
	struct slc_bar_group g[16];
	char labels[16][64], title[512];
	struct slc_bar_spec bs = { 0 };
	const char *wl;
	size_t ref = SIZE_MAX, n = 0;

	/* the bursts are the curves after the first one of their workload */
	if (x->n < 2)
		return snprintf(err, errlen, "%s has one write curve: no recovery to show "
				"(the lab plan's bursts after idle and after TRIM)", x->in->source), -EINVAL;
	wl = x->in->segments[x->seg[x->n - 1]].params.workload;
	for (size_t i = 0; i < x->n && n < 16; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_recovery r;
		char d[32];
		if (!slc_workload_same(s->params.workload, wl))
			continue;
		if (ref == SIZE_MAX)
			ref = i;
		if (slc_recovery(&r, &x->a[ref], &x->a[i]))
			continue;
		if (i == ref)
			snprintf(labels[n], sizeof(labels[n]), "fresh (%s)", s->params.step);
		else if (slc_role_after_trim(s->params.role, s->params.role_arg))
			snprintf(labels[n], sizeof(labels[n]), "after TRIM");
		else
			snprintf(labels[n], sizeof(labels[n]), "after %s idle",
				 slc_format_duration(d, sizeof(d), (uint64_t)(s->params.idle_before_s * 1e9)));
		g[n] = (struct slc_bar_group){ labels[n], r.cache_bytes, r.burst_bps };
		n++;
	}
	if (n < 2)
		return snprintf(err, errlen, "%s: no burst after the first %s curve", x->in->source, wl ? wl : "write"), -EINVAL;
	snprintf(title, sizeof(title), "%s: recovery", x->in->meta.device_model && x->in->meta.device_model[0] ?
		 x->in->meta.device_model : x->in->source);
	bs.title = title;
	bs.subtitle = "cache found and burst speed: fresh drive, after idle, after a TRIM of the whole drive";
	bs.left_label = o->binary ? "SLC cache found (GiB)" : "SLC cache found (GB)";
	bs.right_label = o->binary ? "burst speed (MiB/s)" : "burst speed (MB/s)";
	bs.left_scale = o->binary ? 1073741824.0 : 1e9;
	bs.right_scale = o->binary ? 1048576.0 : 1e6;
	bs.width = o->width;
	bs.height = o->height;
	bs.groups = g;
	bs.n_groups = n;
	return slc_plot_bars(path, &bs, err, errlen);
}

int slc_figure_idle_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
		       char *err, size_t errlen)
{
	double t[16], c[16], fresh, ref[2], rt[2];
	struct slc_plot_series sr[2];
	struct slc_plot_spec sp = { 0 };
	char title[512];
	int n = slc_session_idle_recovery(x, t, c, 16, &fresh);

	if (n < 2)
		return snprintf(err, errlen, "%s has fewer than two bursts after different idle times "
				"(run --plan idle-sweep)", x->in->source), -EINVAL;
	sr[0] = (struct slc_plot_series){ .label = "cache found after the wait", .x = t, .y = c, .n = (size_t)n, .line_only = 1 };
	ref[0] = ref[1] = fresh;
	rt[0] = 0;
	rt[1] = t[n - 1];
	sr[1] = (struct slc_plot_series){ .label = "fresh drive's cache", .x = rt, .y = ref, .n = 2, .line_only = 1 };
	snprintf(title, sizeof(title), "%s: idle recovery", x->in->meta.device_model && x->in->meta.device_model[0] ?
		 x->in->meta.device_model : x->in->source);
	sp.title = title;
	sp.subtitle = "SLC cache found by a burst after each idle wait (the burst before it saturated the cache)";
	sp.xlabel = "idle time (s)";
	sp.ylabel = o->binary ? "cache recovered (GiB)" : "cache recovered (GB)";
	sp.x_scale = 1;
	sp.y_scale = o->binary ? 1073741824.0 : 1e9;
	sp.width = o->width;
	sp.height = o->height;
	sp.series = sr;
	sp.n_series = isfinite(fresh) && fresh > 0 ? 2 : 1;
	return slc_plot_write(path, &sp, err, errlen);
}
