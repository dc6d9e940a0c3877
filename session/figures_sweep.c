// SPDX-License-Identifier: MIT
/*
 * The sweeps' graphs, as the reviews draw them: IOPS against queue depth,
 * throughput against block size (log2 axis), throughput against the share
 * of reads; reads and writes (or sequential and random) as separate lines,
 * up to eight drives on one graph.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/exp.h"
#include "session_priv.h"
#include "sweep.h"

#define MAX_LINES SLC_PLOT_MAX_SERIES
#define MAX_PTS 32

/* One line of the graph: a drive's points of one kind, by x. */
struct line {
	char label[320];
	double x[MAX_PTS], y[MAX_PTS];
	size_t n;
};

/* Which line of a graph point @p belongs to (0, 1), or -1 for none; its x and y. */
static int place(enum slc_figure_kind k, const struct slc_sweep_point *p, int binary, double *x, double *y)
{
	enum slc_workload w = slc_workload_from_name(p->workload);
	double mb = binary ? 1048576.0 : 1e6;

	switch (k) {
	case SLC_FIG_SWEEP_QD:
		if (p->block_bytes != 4096 || p->jobs != 1 || (w != SLC_WL_RAND_READ && w != SLC_WL_RAND_WRITE) || !p->qd)
			return -1;
		*x = log2((double)p->qd);
		*y = w == SLC_WL_RAND_READ ? p->read_iops : p->write_iops;
		return w == SLC_WL_RAND_WRITE;
	case SLC_FIG_SWEEP_BS:
		if (p->qd != 4 || !p->block_bytes ||
		    (w != SLC_WL_RAND_READ && w != SLC_WL_RAND_WRITE && w != SLC_WL_SEQ_READ && w != SLC_WL_SEQ_WRITE))
			return -1;
		*x = log2((double)p->block_bytes);
		*y = (p->read_bps + p->write_bps) / mb;
		return (w == SLC_WL_RAND_WRITE || w == SLC_WL_SEQ_WRITE) + 2 * (w == SLC_WL_SEQ_READ || w == SLC_WL_SEQ_WRITE);
	default:
		if (w != SLC_WL_SEQ_MIXED && w != SLC_WL_RAND_MIXED)
			return -1;
		*x = p->read_pct;
		*y = (p->read_bps + p->write_bps) / mb;
		return w == SLC_WL_RAND_MIXED;
	}
}

static void add_point(struct line *l, double x, double y)
{
	size_t i;

	if (l->n >= MAX_PTS || !isfinite(y))
		return;
	for (i = l->n; i > 0 && l->x[i - 1] > x; i--) {
		l->x[i] = l->x[i - 1];
		l->y[i] = l->y[i - 1];
	}
	l->x[i] = x;
	l->y[i] = y;
	l->n++;
}

static const char *const line_names[3][4] = {
	{ "random reads", "random writes" },
	{ "random reads", "random writes", "sequential reads", "sequential writes" },
	{ "sequential", "random" },
};

/* The lines of drive @x (labelled @drive when several drives share the graph) into @lines. */
static size_t drive_lines(struct line *lines, size_t room, enum slc_figure_kind k, const struct slc_session *x,
			  const char *drive, int binary)
{
	int ki = k == SLC_FIG_SWEEP_QD ? 0 : k == SLC_FIG_SWEEP_BS ? 1 : 2, nl = ki == 1 ? 4 : 2;
	const struct slc__sweep *t = slc__session_sweep(x);
	const struct slc_sweep_point *pts = t->pt;
	size_t n = t->n, used = 0;
	struct line tmp[4];

	memset(tmp, 0, sizeof(tmp));
	for (size_t i = 0; i < n; i++) {
		double px, py;
		int li = place(k, &pts[i], binary, &px, &py);
		if (li >= 0)
			add_point(&tmp[li], px, py);
	}
	for (int li = 0; li < nl; li++) {
		/* a line needs two points: one block size is no block size sweep */
		if (tmp[li].n < 2 || used >= room)
			continue;
		lines[used] = tmp[li];
		if (drive)
			snprintf(lines[used].label, sizeof(lines[used].label), "%s: %s", drive, line_names[ki][li]);
		else
			snprintf(lines[used].label, sizeof(lines[used].label), "%s", line_names[ki][li]);
		used++;
	}
	return used;
}

/* Tick labels for a log2 axis of queue depths or block sizes from @lo to @hi. */
static size_t log2_ticks(double *at, char (*names)[24], const char **labels, int lo, int hi, int bytes)
{
	size_t n = 0;

	for (int e = lo < 0 ? 0 : lo; e <= hi && e < 40 && n < 24; e++) {
		uint64_t v = 1ull << e;
		if (!bytes) snprintf(names[n], 24, "%llu", (unsigned long long)v);
		else if (v >= (1ull << 30)) snprintf(names[n], 24, "%lluG", (unsigned long long)(v >> 30));
		else if (v >= (1u << 20)) snprintf(names[n], 24, "%lluM", (unsigned long long)(v >> 20));
		else if (v >= 1024) snprintf(names[n], 24, "%lluK", (unsigned long long)(v >> 10));
		else snprintf(names[n], 24, "%llu", (unsigned long long)v);
		at[n] = e;
		labels[n] = names[n];
		n++;
	}
	return n;
}

int slc__figure_sweep(const char *path, enum slc_figure_kind k, const struct slc_session *xs, size_t nx,
		      const struct slc_figure_opts *o, char *err, size_t errlen)
{
	struct line *lines = calloc(MAX_LINES, sizeof(*lines));
	struct slc_plot_series sr[MAX_LINES];
	struct slc_plot_spec sp = { 0 };
	struct slc_plot_ticks ticks = { 0 };
	struct slc_plot_layout lay;
	double at[24], lo = INFINITY, hi = -INFINITY;
	char names[24][24], title[300], who[100];
	const char *labels[24];
	size_t n = 0;
	int rc;

	if (!lines)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nx; i++) {
		const char *drive = NULL;
		if (nx > 1) {
			if (i < o->n_labels && o->labels[i] && o->labels[i][0]) snprintf(who, sizeof(who), "%s", o->labels[i]);
			else slc_session_drive_name(who, sizeof(who), &xs[i]);
			drive = who;
		}
		n += drive_lines(lines + n, MAX_LINES - n, k, &xs[i], drive, o->binary);
	}
	if (!n) {
		free(lines);
		return slc_errf(err, errlen, -EINVAL, "%s has no %s points (run --plan %s)", xs[0].in->source,
				k == SLC_FIG_SWEEP_QD ? "queue depth sweep" : k == SLC_FIG_SWEEP_BS ? "block size sweep" :
				"read/write mix", slc_figure_kind_name(k));
	}
	for (size_t i = 0; i < n; i++) {
		sr[i] = (struct slc_plot_series){ .label = lines[i].label, .x = lines[i].x, .y = lines[i].y,
						  .n = lines[i].n, .line_only = 1, .marker = 1 + (int)(i % 8),
						  .mark_all = 1, .dash = (int)(i % 7) };
		lo = fmin(lo, lines[i].x[0]);
		hi = fmax(hi, lines[i].x[lines[i].n - 1]);
	}
	if (nx > 1) snprintf(who, sizeof(who), "%zu drives", nx);
	else if (o->title) snprintf(who, sizeof(who), "%s", o->title);
	else slc_session_drive_name(who, sizeof(who), &xs[0]);
	sp.series = sr;
	sp.n_series = n;
	sp.x_scale = sp.y_scale = 1;
	sp.legend_right = n > 2;
	sp.width = o->width;
	sp.theme = o->theme;
	sp.height = o->height;
	sp.layout = &lay;
	if (k == SLC_FIG_MIXED) {
		snprintf(title, sizeof(title), "%s: throughput against the share of reads", who);
		sp.subtitle = "each command a read with that chance, else a write; reads and writes together";
		sp.xlabel = "reads (% of the commands)";
		sp.x_min = 0;
		sp.x_max = 100;
	} else {
		ticks.n = log2_ticks(at, names, labels, (int)lo, (int)ceil(hi), k == SLC_FIG_SWEEP_BS);
		ticks.at = at;
		ticks.labels = labels;
		sp.x_ticks = &ticks;
		sp.x_min = lo - 0.25;
		sp.x_max = hi + 0.25;
		snprintf(title, sizeof(title), "%s: %s", who, k == SLC_FIG_SWEEP_QD ? "4 KiB random IOPS against queue depth" :
			 "throughput against block size at QD4");
		sp.subtitle = k == SLC_FIG_SWEEP_QD ? "one job, random offsets on 4 KiB" :
			"random offsets on 4 KiB; log2 block size axis";
		sp.xlabel = k == SLC_FIG_SWEEP_QD ? "queue depth (log2 axis)" : "block size (bytes, log2 axis)";
	}
	sp.title = title;
	sp.ylabel = k == SLC_FIG_SWEEP_QD ? "IOPS" : FIG_RATE_LABEL(o, "throughput");
	sp.log_y = o->log_y;
	if (!(rc = slc_plot_write(path, &sp, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	free(lines);
	return rc;
}
