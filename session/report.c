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
#include <unistd.h>

#include "exp/exp.h"
#include "report_doc.h"
#include "sweep.h"

#define MAX_FIGS 64
#define MAX_FILES (3 + 2 * MAX_FIGS + 3)

/*
 * A report is written into a staging directory (slc_report_dir_begin()) and
 * moved in file by file only once every file is complete: a disk filling up
 * halfway then leaves the previous report (or none), not a page embedding a
 * truncated graph.
 */
struct stage {
	const char *dir;              /* the report directory */
	char tmp[4096];               /* the staging directory */
	char names[MAX_FILES][160];   /* the files written, in the order they are moved */
	size_t n;
	struct slc_report_dir *rd;
	FILE *log;
};

/* @name's staged path in @buf. */
static int staged(char *buf, size_t len, const struct stage *st, const char *name)
{
	return (size_t)snprintf(buf, len, "%s/%s", st->tmp, name) >= len ? -ENAMETOOLONG : 0;
}

static void keep(struct stage *st, const char *name)
{
	if (st->n < MAX_FILES)
		snprintf(st->names[st->n++], sizeof(st->names[0]), "%s", name);
}

/* The error for staged file @name, under the name it would have had. */
static int fail(const struct stage *st, int rc, const char *name, char *err, size_t errlen)
{
	return slc_errf(err, errlen, rc, "%s/%s: cannot write: %s", st->dir, name, strerror(-rc));
}

/* Numbers as the shortest text that reads back the same (15 rather than 15.000000000000002). */
static void num(FILE *f, double v)
{
	slc__report_num(f, v);
}

static int write_phases_csv(const char *path, const struct slc_session *x)
{
	FILE *f = slc__open_w(path);

	if (!f)
		return -errno;
	fprintf(f, "segment,step,kind,tier,start_s,end_s,start_bytes,end_bytes,mean_bps,median_bps,p5_bps,p95_bps,cov,iops_mean\n");
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		for (size_t p = 0; p < x->a[i].n_phases; p++) {
			const struct slc_phase *ph = &x->a[i].phases[p];
			/* a step name is the user's text: quoted as any CSV field */
			fprintf(f, "%zu,", x->seg[i]);
			slc_csv_field(f, s->params.step ? s->params.step : "");
			fprintf(f, ",%s,%u,", slc_phase_kind_name(ph->kind), ph->tier);
			num(f, ph->start_s); fputc(',', f); num(f, ph->end_s); fputc(',', f);
			num(f, ph->start_bytes); fputc(',', f); num(f, ph->end_bytes); fputc(',', f);
			num(f, ph->mean_bps); fputc(',', f); num(f, ph->median_bps); fputc(',', f);
			num(f, ph->p5_bps); fputc(',', f); num(f, ph->p95_bps); fputc(',', f);
			num(f, ph->cov); fputc(',', f); num(f, ph->iops_mean); fputc('\n', f);
		}
	}
	return slc__close_w(f);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = slc__open_w(path);
	if (!f)
		return -errno;
	fputs(text, f);
	return slc__close_w(f);
}

static int write_samples(const char *path, const struct slc_session *x)
{
	FILE *f = slc__open_w(path);

	if (!f)
		return -errno;
	int rc = slc_input_export_csv(x->in, f), c;

	c = slc__close_w(f);
	return c ? c : rc;
}

static int write_sweep_csv(const char *path, const struct slc_session *x)
{
	FILE *f = slc__open_w(path);
	int rc, c;

	if (!f)
		return -errno;
	rc = slc__sweep_csv(f, slc__session_sweep(x));
	c = slc__close_w(f);
	return c ? c : rc;
}

/* phases.json, phases.csv and samples.csv. */
static int write_data(struct stage *st, const struct slc_session *x, char *err, size_t errlen)
{
	char path[4096], *json = NULL;
	int rc;

	if ((rc = slc_session_json(&json, x)))
		return slc_errf(err, errlen, rc, "%s/phases.json: %s", st->dir, strerror(-rc));
	if (!(rc = staged(path, sizeof(path), st, "phases.json")))
		rc = write_text(path, json);
	free(json);
	if (rc)
		return fail(st, rc, "phases.json", err, errlen);
	keep(st, "phases.json");
	if ((rc = staged(path, sizeof(path), st, "phases.csv")) || (rc = write_phases_csv(path, x)))
		return fail(st, rc, "phases.csv", err, errlen);
	keep(st, "phases.csv");
	if ((rc = staged(path, sizeof(path), st, "samples.csv")) || (rc = write_samples(path, x)))
		return fail(st, rc, "samples.csv", err, errlen);
	keep(st, "samples.csv");
	if (slc__session_sweep(x)->n) {
		if ((rc = staged(path, sizeof(path), st, "sweep.csv")) || (rc = write_sweep_csv(path, x)))
			return fail(st, rc, "sweep.csv", err, errlen);
		keep(st, "sweep.csv");
	}
	return 0;
}

struct figset {
	struct report_fig f[MAX_FIGS];
	size_t n;
	int pdf;                      /* record each graph for report.pdf too */
};

static void figset_free(struct figset *fs)
{
	for (size_t i = 0; fs && i < fs->n; i++)
		slc_plot_drawing_free(fs->f[i].drawing);
	free(fs);
}

static int draw_fig(const char *path, long curve, enum slc_figure_kind kind, const struct slc_session *xs, size_t n,
		    const struct slc_figure_opts *o, char *err, size_t errlen)
{
	if (curve >= 0 && kind == SLC_FIG_CURVE)
		return slc_figure_curve(path, xs, curve, o, err, errlen);
	if (curve >= 0 && kind == SLC_FIG_LATENCY)
		return slc_figure_latency(path, xs, curve, o, err, errlen);
	return slc_figure_draw(path, kind, xs, n, o, err, errlen);
}

/*
 * Draw figure @kind of @xs as NAME.svg and NAME.png, and with fs->pdf
 * record it for report.pdf (NAME.pdf only names it: nothing is written);
 * listed in @fs when it could be drawn.  A figure the input has no data
 * for (-EINVAL) is left out; any other failure fails the report.
 */
static int add_fig(struct figset *fs, struct stage *st, const char *name, const char *caption, long curve,
		   enum slc_figure_kind kind, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		   char *err, size_t errlen)
{
	char path[4096], file[160], ferr[512], note[96];
	struct slc_plot_drawing *drawing = NULL;
	struct slc_figure_opts po = *o;

	/* narrower than the screen's 1200: scaled to the page's column, the graph's text stays larger */
	if (!po.width)
		po.width = 960;
	if (fs->n >= MAX_FIGS)
		return 0;
	for (int k = 0; k < 2 + fs->pdf; k++) {
		int rc;
		/* the return value read: the names are the report's own, short ones */
		if (snprintf(file, sizeof(file), "%s.%s", name, k == 2 ? "pdf" : k ? "png" : "svg") >= (int)sizeof(file))
			return slc_errf(err, errlen, -ENAMETOOLONG, "%s: figure name too long", name);
		if ((rc = staged(path, sizeof(path), st, file)))
			return fail(st, rc, file, err, errlen);
		slc_plot_record(k == 2 ? &drawing : NULL);
		rc = draw_fig(path, curve, kind, xs, n, k == 2 ? &po : o, ferr, sizeof(ferr));
		slc_plot_record(NULL);
		if (rc == -EINVAL && !k)
			return 0;
		if (rc) {
			/* the plotter names the staged file; the reason follows it */
			const char *why = strncmp(ferr, path, strlen(path)) ? NULL : strstr(ferr + strlen(path), ": ");
			return slc_errf(err, errlen, rc, "%s/%s: %s", st->dir, k == 2 ? "report.pdf" : file,
					why ? why + 2 : strerror(-rc));
		}
		if (k < 2)
			keep(st, file);
	}
	fs->f[fs->n].drawing = drawing;
	if (snprintf(fs->f[fs->n].name, sizeof(fs->f[fs->n].name), "%s", name) >= (int)sizeof(fs->f[fs->n].name))
		return slc_errf(err, errlen, -ENAMETOOLONG, "%s: figure name too long", name);
	/* a figure copied out of the report still says it shows part of a plan;
	 * a caption cut short is still a caption */
	slc__run_status_words(note, sizeof(note), xs->in, 0);
	if (snprintf(fs->f[fs->n].caption, sizeof(fs->f[fs->n].caption), "%s%s%s%s", caption, note[0] ? " (" : "",
		     note, note[0] ? ")" : "") < 0)
		return slc_errf(err, errlen, -EINVAL, "%s: caption not written", name);
	fs->f[fs->n++].curve = curve;
	return 0;
}

/* A trace's step is free text ("a/b", "../x"): only letters, digits, '-' and '_' go into a file name. */
static void file_part(char *out, size_t len, const char *step)
{
	size_t k = 0;

	for (; step && *step && k + 1 < len && k < 64; step++) {
		char c = *step;
		out[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ? c : '_';
	}
	out[k] = '\0';
	if (!k)
		snprintf(out, len, "curve");
}

/* Every graph of @x: each curve with its latency, then the experiments' figures. */
static int write_graphs(struct figset *fs, struct stage *st, const struct slc_session *x,
			const struct slc_figure_opts *look, char *err,
			size_t errlen)
{
	long main = slc_session_pick(x, 0);
	int rc = 0;

	for (size_t i = 0; !rc && i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_figure_opts co = { .binary = look->binary, .theme = look->theme };
		char name[256], cap[256], h[160], step[72];
		/* the reviews draw 4 KiB random curves in IOPS */
		co.y_iops = s->params.block_bytes && s->params.block_bytes <= 16384 &&
			    slc_workload_from_name(s->params.workload) != SLC_WL_SEQ_WRITE;
		file_part(step, sizeof(step), s->params.step);
		slc_segment_heading(h, sizeof(h), s);
		snprintf(name, sizeof(name), "curve-%zu-%s", x->seg[i], step);
		snprintf(cap, sizeof(cap), "%s: write speed against data written", h);
		rc = add_fig(fs, st, name, cap, (long)i, SLC_FIG_CURVE, x, 1, &co, err, errlen);
		snprintf(name, sizeof(name), "latency-%zu-%s", x->seg[i], step);
		snprintf(cap, sizeof(cap), "%s: latency percentiles against time", h);
		rc = rc ? rc : add_fig(fs, st, name, cap, (long)i, SLC_FIG_LATENCY, x, 1, &co, err, errlen);
		co.role = s->params.role;
		if (!rc && (long)i == main && co.role) {
			snprintf(name, sizeof(name), "latency-cdf-%zu-%s", x->seg[i], step);
			snprintf(cap, sizeof(cap), "%s: the intervals' p99 latency by phase", h);
			rc = add_fig(fs, st, name, cap, (long)i, SLC_FIG_LATENCY_CDF, x, 1, &co, err, errlen);
		}
		if (!rc && co.role && x->drive[i].n_temp) {
			snprintf(name, sizeof(name), "temperature-%zu-%s", x->seg[i], step);
			snprintf(cap, sizeof(cap), "%s: temperature, throttling marked", h);
			rc = add_fig(fs, st, name, cap, (long)i, SLC_FIG_TEMPERATURE, x, 1, &co, err, errlen);
		}
	}
	for (size_t e = 0; !rc && slc__experiment(e); e++)
		for (size_t f = 0; !rc && f < slc__experiment(e)->n_figs; f++) {
			const struct slc__exp_figure *ef = &slc__experiment(e)->figs[f];
			struct slc_figure_opts co = { .binary = look->binary, .theme = look->theme };
			rc = add_fig(fs, st, ef->file, ef->caption, ef->sweep ? SLC__FIG_SWEEP : -1, ef->kind, x, 1, &co,
				     err, errlen);
		}
	return rc;
}

/* summary.md and index.html from @fn's sections; the page inlines the staged graphs. */
static int write_docs(struct stage *st, const char *title, void (*fn)(struct doc *, const void *), const void *arg,
		      char *err, size_t errlen)
{
	char path[4096];

	for (int html = 0; html < 2; html++) {
		const char *name = html ? "index.html" : "summary.md";
		struct doc d = { .html = html, .dir = st->tmp };
		int rc;
		if ((rc = staged(path, sizeof(path), st, name)))
			return fail(st, rc, name, err, errlen);
		if (!(d.f = slc__open_w(path)))
			return fail(st, -errno, name, err, errlen);
		if (html) slc__html_page_begin(d.f, title);
		fn(&d, arg);
		if (html) slc__html_page_end(d.f);
		rc = slc__close_w(d.f);
		if ((rc = rc ? rc : d.rc))
			return fail(st, rc, name, err, errlen);
		keep(st, name);
	}
	return 0;
}

/*
 * report.pdf from @fn's sections, staged as every other file is; before the
 * page, which is moved in last.
 */
static int write_pdf(struct stage *st, const char *title, void (*fn)(struct doc *, const void *), const void *arg,
		     const struct figset *fs, enum slc_paper paper, char *err, size_t errlen)
{
	char path[4096], why[256] = "";
	FILE *f;
	int rc, c;

	if ((rc = staged(path, sizeof(path), st, "report.pdf")))
		return fail(st, rc, "report.pdf", err, errlen);
	if (!(f = slc__open_w(path)))
		return fail(st, -errno, "report.pdf", err, errlen);
	rc = slc__report_pdf(f, paper, title, fn, arg, fs->f, fs->n, why, sizeof(why));
	c = slc__close_w(f);
	/* a full disk shows at close (errno) rather than as cairo's bare write error */
	if (c || rc == -EIO)
		return fail(st, c ? c : rc, "report.pdf", err, errlen);
	if (rc)
		return slc_errf(err, errlen, rc, "%s/report.pdf: %s", st->dir, why);
	keep(st, "report.pdf");
	return 0;
}

/* The report directory checked, locked and a staging directory made (slcscope/output.h). */
static int stage_begin(struct stage *st, const char *dir, const char *const *inputs, size_t n_inputs, FILE *log,
		       char *err, size_t errlen)
{
	int rc;

	st->dir = dir;
	st->log = log;
	st->n = 0;
	if ((rc = slc_report_dir_begin(&st->rd, dir, inputs, n_inputs, err, errlen)))
		return rc;
	snprintf(st->tmp, sizeof(st->tmp), "%s", slc_report_dir_staging(st->rd));
	return 0;
}

/*
 * After @rc == 0, move the staged files into the report directory (the page
 * last: it is what a reader opens), one "wrote" line each; on failure remove
 * the staging directory and whatever it holds.
 */
static int stage_end(struct stage *st, int rc, char *err, size_t errlen)
{
	const char *names[MAX_FILES];

	if (rc) {
		slc_report_dir_abort(st->rd);
		return rc;
	}
	for (size_t i = 0; i < st->n; i++)
		names[i] = st->names[i];
	return slc_report_dir_commit(st->rd, names, st->n, st->log, err, errlen);
}

struct one {
	const struct slc_session *x;
	enum slc_unit_system u;
	const struct figset *fs;
};

static void one_sections(struct doc *d, const void *arg)
{
	const struct one *o = arg;
	char note[512];

	d->with_pdf = o->fs->pdf;
	slc__report_sections(d, o->x, o->u, o->fs->f, o->fs->n);
	if (slc__run_status_words(note, sizeof(note), o->x->in, 1)[0]) {
		slc__doc_heading(d, 2, "Run not complete");
		slc__doc_para(d, "%s", note);
	}
}

int slc_report_write(const char *dir, const struct slc_session *x, const struct slc_figure_opts *look, FILE *log,
		     char *err, size_t errlen)
{
	/* the report's look, one value: units and theme (NULL: decimal, default) */
	const struct slc_figure_opts plain = { 0 }, *lk = look ? look : &plain;
	int binary = lk->binary;
	struct figset *fs = calloc(1, sizeof(*fs));
	struct stage *st = calloc(1, sizeof(*st));
	struct one o = { x, binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL, fs };
	char title[256], note[96];
	int rc;

	if (!fs || !st)
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	else if (!(rc = stage_begin(st, dir, (const char *const *)&x->in->source, 1, log, err, errlen))) {
		fs->pdf = lk->pdf;
		if (!(rc = write_data(st, x, err, errlen)) && !(rc = write_graphs(fs, st, x, lk, err, errlen))) {
			slc_session_drive_name(title, sizeof(title), x);
			/* the page's title, in a browser's tab and history, says it too */
			if (slc__run_status_words(note, sizeof(note), x->in, 0)[0])
				snprintf(title + strlen(title), sizeof(title) - strlen(title), " (%s)", note);
			if (lk->pdf)
				rc = write_pdf(st, title, one_sections, &o, fs, lk->paper, err, errlen);
			rc = rc ? rc : write_docs(st, title, one_sections, &o, err, errlen);
		}
		rc = stage_end(st, rc, err, errlen);
	}
	free(st);
	figset_free(fs);
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
		const struct slc_model_info *m = &x->a[k].model;
		char lo[32], hi[32];
		if (isfinite(cf.cache_bytes)) slc_format_bytes(c[2], 96, cf.cache_bytes, u);
		/* a cache too short for the sampling has bounds, not none */
		else if (m->cache_bound)
			snprintf(c[2], 96, "%s-%s", slc_format_bytes(lo, sizeof(lo), m->cache_min_bytes, u),
				 slc_format_bytes(hi, sizeof(hi), m->cache_max_bytes, u));
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

static int stage_begin_many(struct stage *st, const char *dir, const struct slc_session *xs, size_t n, FILE *log,
			    char *err, size_t errlen)
{
	const char *inputs[8];

	for (size_t i = 0; i < n && i < 8; i++)
		inputs[i] = xs[i].in->source;
	return stage_begin(st, dir, inputs, n < 8 ? n : 8, log, err, errlen);
}

/* A role asked for (-s fill) that an input lacks leaves every figure out:
 * refused before anything is written, as plot refuses it. */
static int have_role(const struct slc_session *xs, size_t n, const struct slc_figure_opts *o, char *err,
		     size_t errlen)
{
	for (size_t i = 0; o->role && i < n; i++)
		if (slc_session_pick(&xs[i], o->role) < 0)
			return slc_errf(err, errlen, -EINVAL, "%s has no %s segment", xs[i].in->source,
					slc_role_name(o->role));
	return 0;
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
	struct stage *st = calloc(1, sizeof(*st));
	struct many m = { xs, n, o, fs };
	int rc;

	if (!fs || !st)
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	else if (n < 2 || n > 8)
		rc = slc_errf(err, errlen, -EINVAL, "a comparison report takes 2 to 8 inputs (%zu given)", n);
	else if ((rc = have_role(xs, n, o, err, errlen)))
		;
	else if (!(rc = stage_begin_many(st, dir, xs, n, log, err, errlen))) {
		const char *title = o->title ? o->title : "Drives compared";
		fs->pdf = o->pdf;
		for (size_t i = 0; !rc && i < sizeof(figs) / sizeof(figs[0]); i++) {
			struct slc_figure_opts co = *o;
			co.log_y = i == 1;
			co.layout_json = NULL;
			rc = add_fig(fs, st, figs[i].name, figs[i].caption, -1, figs[i].kind, xs, n, &co, err, errlen);
		}
		if (!rc && o->pdf)
			rc = write_pdf(st, title, many_sections, &m, fs, o->paper, err, errlen);
		if (!rc)
			rc = write_docs(st, title, many_sections, &m, err, errlen);
		rc = stage_end(st, rc, err, errlen);
	}
	free(st);
	figset_free(fs);
	return rc;
}
