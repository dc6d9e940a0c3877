// SPDX-License-Identifier: MIT
/*
 * Reports for article authors: everything a review needs from one input
 * (or a comparison of several), in one directory; the HTML page is
 * self-contained (its SVG graphs inline) and reads on a phone too.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_doc.h"

static int path_in(char *buf, size_t len, const char *dir, const char *name)
{
	return (size_t)snprintf(buf, len, "%s/%s", dir, name) >= len ? -ENAMETOOLONG : 0;
}

/* Numbers as the shortest text that reads back the same (15 rather than 15.000000000000002). */
static void num(FILE *f, double v)
{
	slc__report_num(f, v);
}

static int write_phases_csv(const char *path, const struct slc_session *x)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fprintf(f, "segment,step,kind,tier,start_s,end_s,start_bytes,end_bytes,mean_bps,median_bps,p5_bps,p95_bps,cov,iops_mean\n");
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		for (size_t p = 0; p < x->a[i].n_phases; p++) {
			const struct slc_phase *ph = &x->a[i].phases[p];
			fprintf(f, "%zu,%s,%s,%u,", x->seg[i], s->params.step ? s->params.step : "",
				slc_phase_kind_name(ph->kind), ph->tier);
			num(f, ph->start_s); fputc(',', f); num(f, ph->end_s); fputc(',', f);
			num(f, ph->start_bytes); fputc(',', f); num(f, ph->end_bytes); fputc(',', f);
			num(f, ph->mean_bps); fputc(',', f); num(f, ph->median_bps); fputc(',', f);
			num(f, ph->p5_bps); fputc(',', f); num(f, ph->p95_bps); fputc(',', f);
			num(f, ph->cov); fputc(',', f); num(f, ph->iops_mean); fputc('\n', f);
		}
	}
	return fclose(f) ? -errno : 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* "wrote PATH" on the log, when there is one. */
static void wrote(FILE *log, const char *path)
{
	if (log)
		fprintf(log, "wrote %s\n", path);
}

/* phases.json, phases.csv and samples.csv. */
static int write_data(const char *dir, const struct slc_session *x, FILE *log, char *err, size_t errlen)
{
	char path[4096], *json = NULL;
	FILE *f;
	int rc;

	if ((rc = slc_session_json(&json, x)) || path_in(path, sizeof(path), dir, "phases.json") ||
	    (rc = write_text(path, json))) {
		free(json);
		return slc_errf(err, errlen, -EIO, "%s/phases.json: %s", dir, strerror(rc < 0 ? -rc : ENAMETOOLONG));
	}
	free(json);
	wrote(log, path);
	path_in(path, sizeof(path), dir, "phases.csv");
	if ((rc = write_phases_csv(path, x)))
		return slc_errf(err, errlen, rc, "%s: %s", path, strerror(-rc));
	wrote(log, path);
	path_in(path, sizeof(path), dir, "samples.csv");
	if (!(f = fopen(path, "we")) || slc_input_export_csv(x->in, f) || fclose(f))
		return slc_errf(err, errlen, -EIO, "%s: cannot write", path);
	wrote(log, path);
	return 0;
}


#define MAX_FIGS 64

struct figset {
	struct report_fig f[MAX_FIGS];
	size_t n;
};

/* Draw figure @kind of @xs as NAME.svg and NAME.png; listed in @fs when it could be drawn. */
static void add_fig(struct figset *fs, const char *dir, const char *name, const char *caption, long curve,
		    enum slc_figure_kind kind, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		    FILE *log)
{
	char path[4096], ferr[512];

	if (fs->n >= MAX_FIGS)
		return;
	for (int k = 0; k < 2; k++) {
		int rc;
		snprintf(path, sizeof(path), "%s/%s.%s", dir, name, k ? "png" : "svg");
		if (curve >= 0 && kind == SLC_FIG_CURVE)
			rc = slc_figure_curve(path, xs, curve, o, ferr, sizeof(ferr));
		else if (curve >= 0 && kind == SLC_FIG_LATENCY)
			rc = slc_figure_latency(path, xs, curve, o, ferr, sizeof(ferr));
		else
			rc = slc_figure_draw(path, kind, xs, n, o, ferr, sizeof(ferr));
		if (rc)
			return;
		wrote(log, path);
	}
	snprintf(fs->f[fs->n].name, sizeof(fs->f[fs->n].name), "%s", name);
	snprintf(fs->f[fs->n].caption, sizeof(fs->f[fs->n].caption), "%s", caption);
	fs->f[fs->n++].curve = curve;
}

/* Every graph of @x: each curve with its latency, then the experiments' figures. */
static void write_graphs(struct figset *fs, const char *dir, const struct slc_session *x, int binary, FILE *log)
{
	static const struct { enum slc_figure_kind kind; const char *name, *caption; } exp[] = {
		{ SLC_FIG_RECOVERY, "recovery", "Recovery: the cache and burst speed of the fresh drive, after idle, after TRIM" },
		{ SLC_FIG_IDLE, "idle-recovery", "Cache recovered against idle time" },
		{ SLC_FIG_TRIM_RESPONSE, "trim-response", "Reads right after a TRIM: throughput and latency" },
		{ SLC_FIG_HIR, "hir", "Host idle recovery: write speed per wait state" },
		{ SLC_FIG_FILL_LEVELS, "fill-levels", "Cache and burst speed against fill level" },
		{ SLC_FIG_COMPRESS, "compress", "Incompressible against repeating data" },
	};
	long main = slc_session_pick(x, 0);

	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_figure_opts co = { .binary = binary };
		const char *step = s->params.step && s->params.step[0] ? s->params.step : "curve";
		char name[256], cap[256], h[160];
		/* the reviews draw 4 KiB random curves in IOPS */
		co.y_iops = s->params.block_bytes && s->params.block_bytes <= 16384 &&
			    slc_workload_from_name(s->params.workload) != SLC_WL_SEQ_WRITE;
		slc_segment_heading(h, sizeof(h), s);
		snprintf(name, sizeof(name), "curve-%zu-%s", x->seg[i], step);
		snprintf(cap, sizeof(cap), "%s: write speed against data written", h);
		add_fig(fs, dir, name, cap, (long)i, SLC_FIG_CURVE, x, 1, &co, log);
		snprintf(name, sizeof(name), "latency-%zu-%s", x->seg[i], step);
		snprintf(cap, sizeof(cap), "%s: latency percentiles against time", h);
		add_fig(fs, dir, name, cap, (long)i, SLC_FIG_LATENCY, x, 1, &co, log);
		co.role = s->params.role;
		if ((long)i == main && co.role) {
			snprintf(name, sizeof(name), "latency-cdf-%zu-%s", x->seg[i], step);
			snprintf(cap, sizeof(cap), "%s: the intervals' p99 latency by phase", h);
			add_fig(fs, dir, name, cap, (long)i, SLC_FIG_LATENCY_CDF, x, 1, &co, log);
		}
		if (co.role && x->drive[i].n_temp) {
			snprintf(name, sizeof(name), "temperature-%zu-%s", x->seg[i], step);
			snprintf(cap, sizeof(cap), "%s: temperature, throttling marked", h);
			add_fig(fs, dir, name, cap, (long)i, SLC_FIG_TEMPERATURE, x, 1, &co, log);
		}
	}
	for (size_t e = 0; e < sizeof(exp) / sizeof(exp[0]); e++) {
		struct slc_figure_opts co = { .binary = binary };
		add_fig(fs, dir, exp[e].name, exp[e].caption, -1, exp[e].kind, x, 1, &co, log);
	}
}

static const char page_head1[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>";
static const char page_head2[] =
	"</title>\n<style>body{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:1240px;margin:0 auto;padding:0 12px 2em;"
	"color:#222;line-height:1.45}h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em}"
	".t{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.6em 0;font-size:.92em}"
	"td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}"
	"td:first-child{min-width:8em}th{background:#f3f3f3}figure{margin:1em 0}"
	"svg{max-width:100%;height:auto;display:block}figcaption{font-size:.9em;color:#555}"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85em;background:#f6f6f6;padding:.6em}"
	"p{overflow-wrap:anywhere}</style></head><body>\n";

/* summary.md and index.html from @fn's sections. */
static int write_docs(const char *dir, const char *title, void (*fn)(struct doc *, const void *), const void *arg,
		      FILE *log, char *err, size_t errlen)
{
	char path[4096];

	for (int html = 0; html < 2; html++) {
		struct doc d = { .html = html, .dir = dir };
		path_in(path, sizeof(path), dir, html ? "index.html" : "summary.md");
		if (!(d.f = fopen(path, "we")))
			return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
		if (html) {
			fputs(page_head1, d.f);
			for (const char *c = title; *c; c++)
				fputs(*c == '<' ? "&lt;" : *c == '&' ? "&amp;" : (char[2]){ *c, 0 }, d.f);
			fputs(page_head2, d.f);
		}
		fn(&d, arg);
		if (html)
			fprintf(d.f, "<p><small>slcscope %s</small></p>\n</body></html>\n", SLCSCOPE_VERSION);
		if (fclose(d.f))
			return slc_errf(err, errlen, -EIO, "%s: cannot write", path);
		wrote(log, path);
	}
	return 0;
}

struct one {
	const struct slc_session *x;
	enum slc_unit_system u;
	const struct figset *fs;
};

static void one_sections(struct doc *d, const void *arg)
{
	const struct one *o = arg;
	slc__report_sections(d, o->x, o->u, o->fs->f, o->fs->n);
}

int slc_report_write(const char *dir, const struct slc_session *x, int binary, FILE *log, char *err, size_t errlen)
{
	struct figset *fs = calloc(1, sizeof(*fs));
	struct one o = { x, binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL, fs };
	char title[256];
	int rc;

	if (!fs)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (mkdir(dir, 0755) && errno != EEXIST)
		rc = slc_errf(err, errlen, -errno, "cannot create '%s': %s", dir, strerror(errno));
	else if (!(rc = write_data(dir, x, log, err, errlen))) {
		write_graphs(fs, dir, x, binary, log);
		rc = write_docs(dir, slc_session_drive_name(title, sizeof(title), x), one_sections, &o, log, err, errlen);
	}
	free(fs);
	return rc;
}

/* ---- a comparison of several drives --------------------------------------- */

struct many {
	const struct slc_session *xs;
	size_t n;
	const struct slc_figure_opts *o;
	const struct figset *fs;
};

static void drive_row(struct doc *d, const struct slc_session *x, const char *label, enum slc_role role,
		      enum slc_unit_system u)
{
	struct slc_curve_figures cf;
	long k = slc_session_pick(x, role);
	char c[8][96];

	memset(c, 0, sizeof(c));
	snprintf(c[0], 96, "%.95s", label);
	if (x->in->meta.capacity_bytes) slc_format_bytes(c[1], 96, (double)x->in->meta.capacity_bytes, u);
	if (k >= 0 && !slc_session_curve_figures(&cf, x, (size_t)k, 7200)) {
		if (isfinite(cf.cache_bytes)) slc_format_bytes(c[2], 96, cf.cache_bytes, u);
		else snprintf(c[2], 96, "none");
		if (isfinite(cf.cache_bps)) slc_format_rate(c[3], 96, cf.cache_bps, u);
		if (isfinite(cf.native_bps)) slc_format_rate(c[4], 96, cf.native_bps, u);
		if (isfinite(cf.erase_bps)) slc_format_rate(c[5], 96, cf.erase_bps, u);
		if (isfinite(cf.written_bytes)) slc_format_bytes(c[6], 96, cf.written_bytes, u);
		slc_duration_words(c[7], 96, cf.duration_s);
	}
	slc__doc_row(d, 8, c);
}

static void many_sections(struct doc *d, const void *arg)
{
	const struct many *m = arg;
	enum slc_unit_system u = m->o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL;
	char label[256];

	slc__doc_heading(d, 1, "%s", m->o->title ? m->o->title : "Drives compared");
	slc__doc_para(d, "%zu drives, each by its %s. Per drive: run slcscope report on its input for the full report.", m->n,
		 m->o->role ? slc_role_name(m->o->role) : "random write curve after TRIM");
	slc__doc_table(d, 8, (const char *const[]){ "drive", "capacity", "SLC cache", "cache speed", "direct to TLC",
					       "erase-bound", "written in 2 h", "curve length" });
	for (size_t i = 0; i < m->n; i++) {
		if (i < m->o->n_labels && m->o->labels[i]) snprintf(label, sizeof(label), "%s", m->o->labels[i]);
		else slc_session_drive_name(label, sizeof(label), &m->xs[i]);
		drive_row(d, &m->xs[i], label, m->o->role, u);
	}
	slc__doc_table_end(d);
	slc__doc_para(d, "Written in 2 h: host data written in the curve's first 2 hours (the whole curve when shorter, "
		 "see its length).");
	for (size_t f = 0; f < m->fs->n; f++)
		slc__doc_figure(d, m->fs->f[f].name, m->fs->f[f].caption);
	slc__doc_heading(d, 2, "Inputs");
	for (size_t i = 0; i < m->n; i++)
		slc__doc_para(d, "%zu. %s", i + 1, m->xs[i].in->source);
}

int slc_report_compare_write(const char *dir, const struct slc_session *xs, size_t n,
			     const struct slc_figure_opts *o, FILE *log, char *err, size_t errlen)
{
	static const struct { enum slc_figure_kind kind; const char *name, *caption; } figs[] = {
		{ SLC_FIG_COMPARE, "compare", "The write curves compared (centred 30 s moving averages)" },
		{ SLC_FIG_COMPARE, "compare-log", "The same on a logarithmic speed axis" },
		{ SLC_FIG_MULTIPLES, "multiples", "Each drive's curve on shared axes, every sample a dot" },
		{ SLC_FIG_BARS, "bars", "The phase figures across the drives" },
	};
	struct figset *fs = calloc(1, sizeof(*fs));
	struct many m = { xs, n, o, fs };
	int rc;

	if (!fs)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (n < 2 || n > 8)
		rc = slc_errf(err, errlen, -EINVAL, "a comparison report takes 2 to 8 inputs (%zu given)", n);
	else if (mkdir(dir, 0755) && errno != EEXIST)
		rc = slc_errf(err, errlen, -errno, "cannot create '%s': %s", dir, strerror(errno));
	else {
		for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
			struct slc_figure_opts co = *o;
			co.log_y = i == 1;
			co.layout_json = NULL;
			add_fig(fs, dir, figs[i].name, figs[i].caption, -1, figs[i].kind, xs, n, &co, log);
		}
		rc = write_docs(dir, o->title ? o->title : "Drives compared", many_sections, &m, log, err, errlen);
	}
	free(fs);
	return rc;
}
