// SPDX-License-Identifier: MIT
/*
 * A lab's site: every drive on one page, a table the browser sorts and a
 * ranking chart per figure, a page per drive and each drive's report.  The
 * pages share the reports' look and their words for every number; the
 * files go through the report directory's staging (slcscope/output.h), so
 * a failure leaves the earlier site as it was.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/plot.h"
#include "report_doc.h"

char *slc_value_words(char *buf, size_t len, enum slc_value_unit unit, double v, enum slc_unit_system u)
{
	if (!isfinite(v)) snprintf(buf, len, "-");
	else if (unit == SLC_VALUE_BYTES) slc_format_bytes(buf, len, v, u);
	else if (unit == SLC_VALUE_RATE) slc_format_rate(buf, len, v, u);
	else if (unit == SLC_VALUE_SECONDS) slc_duration_words(buf, len, v);
	else snprintf(buf, len, "%.0f%%", 100 * v);
	return buf;
}

static char *words(char *buf, size_t len, const struct slc_site_column *c, double v, enum slc_unit_system u)
{
	if (v == 0 && c->zero) {
		snprintf(buf, len, "%s", c->zero);
		return buf;
	}
	return slc_value_words(buf, len, c->unit, v, u);
}

/* The drive's latest run with a value of column @c; NULL when none has one. */
static const struct slc_site_run *latest_with(const struct slc_site_drive *d, size_t c)
{
	for (size_t i = d->n_runs; i-- > 0;)
		if (!d->runs[i].partial && isfinite(d->runs[i].v[c])) return &d->runs[i];
	return NULL;
}

struct site_ctx {
	const struct slc_site *s;
	const char *dir, *tmp;
	enum slc_unit_system u;
	char (*names)[160];
	size_t n_names, cap;
	char **report_note;           /* per drive: why it has no report; NULL: it has one (or none asked) */
	char *err;
	size_t errlen;
};

static int keep(struct site_ctx *c, const char *name)
{
	if (c->n_names == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 32;
		char (*n)[160] = realloc(c->names, cap * sizeof(*n));
		if (!n) return slc_errf(c->err, c->errlen, -ENOMEM, "out of memory");
		c->names = n;
		c->cap = cap;
	}
	snprintf(c->names[c->n_names++], sizeof(c->names[0]), "%s", name);
	return 0;
}

static FILE *stage_open(struct site_ctx *c, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", c->tmp, name);
	if (!(f = slc__open_w(path))) slc_errf(c->err, c->errlen, -errno, "%s/%s: %s", c->dir, name, strerror(errno));
	return f;
}

static int stage_close(struct site_ctx *c, FILE *f, const char *name)
{
	int rc = slc__close_w(f);

	if (rc)
		return slc_errf(c->err, c->errlen, rc, "%s/%s: cannot write: %s", c->dir, name, strerror(-rc));
	return keep(c, name);
}

/* ---- ranking charts ------------------------------------------------------- */

struct ranked {
	char name[64];
	double v;
};

static int lower_first(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	return (x->v > y->v) - (x->v < y->v);
}

static int higher_first(const void *a, const void *b)
{
	return lower_first(b, a);
}

/* The axis unit of a chart of values up to @max. */
static void chart_unit(const struct slc_site_column *col, double max, enum slc_unit_system u, char *unit, size_t len,
		       double *scale)
{
	int bin = u == SLC_UNITS_BINARY;
	double k = bin ? 1024 : 1000;

	if (col->unit == SLC_VALUE_SHARE) {
		snprintf(unit, len, "%%");
		*scale = 0.01;
	} else if (col->unit == SLC_VALUE_SECONDS) {
		snprintf(unit, len, max >= 7200 ? "h" : max >= 600 ? "min" : "s");
		*scale = max >= 7200 ? 3600 : max >= 600 ? 60 : 1;
	} else if (col->unit == SLC_VALUE_RATE) {
		/* the reviews chart speeds in MB/s up to PCIe 5 drives' 10+ GB/s */
		int giga = max >= 10 * k * k * k;
		snprintf(unit, len, "%s%sB/s", giga ? "G" : "M", bin ? "i" : "");
		*scale = giga ? k * k * k : k * k;
	} else {
		int giga = max >= k * k * k;
		snprintf(unit, len, "%s%sB", giga ? "G" : "M", bin ? "i" : "");
		*scale = giga ? k * k * k : k * k;
	}
}

/* A name short enough to stand under a bar into @buf: a simulated drive's
 * preset ("Simulated 240 GB SATA TLC (sata240-tlc)" as "sata240-tlc"),
 * else the name. */
static void short_name(char *buf, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *open = strrchr(name, '(');

	if (strncmp(name, "Simulated ", 10) == 0 && open && name[n - 1] == ')')
		snprintf(buf, len, "%.*s", (int)(name + n - 1 - open - 1), open + 1);
	else
		snprintf(buf, len, "%s", name);
}

static int rank_chart(struct site_ctx *c, size_t col, int *drawn)
{
	const struct slc_site_column *cl = &c->s->cols[col];
	struct ranked *r = calloc(c->s->n_drives + 1, sizeof(*r));
	const char **groups = calloc(c->s->n_drives + 1, sizeof(*groups));
	double *vals = calloc(c->s->n_drives + 1, sizeof(*vals)), scale = 1;
	char label[96], unit[16], name[160], path[4096], sub[128];
	size_t n = 0;
	int rc = 0;

	*drawn = 0;
	if (!r || !groups || !vals) rc = slc_errf(c->err, c->errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < c->s->n_drives; i++) {
		const struct slc_site_run *run = latest_with(&c->s->drives[i], col);
		if (!run) continue;
		short_name(r[n].name, sizeof(r[n].name), c->s->drives[i].name);
		r[n++].v = run->v[col];
	}
	if (!rc && n) {
		qsort(r, n, sizeof(*r), cl->lower_better ? lower_first : higher_first);
		for (size_t i = 0; i < n; i++) {
			groups[i] = r[i].name;
			vals[i] = r[i].v;
		}
		chart_unit(cl, cl->lower_better ? r[n - 1].v : r[0].v, c->u, unit, sizeof(unit), &scale);
		snprintf(label, sizeof(label), "%s (%s)", cl->title, unit);
		snprintf(sub, sizeof(sub), "each drive's latest run; %s is better", cl->lower_better ? "lower" : "higher");
		const struct slc_bar_panel panel = { label, scale, vals };
		const struct slc_bar_chart chart = { .title = cl->title, .subtitle = sub, .groups = groups, .n_groups = n,
						     .panels = &panel, .n_panels = 1,
						     .width = n > 12 ? (int)(120 + 70 * n) : 1000, .height = 560 };
		for (int png = 0; !rc && png < 2; png++) {
			snprintf(name, sizeof(name), "rank-%s.%s", cl->key, png ? "png" : "svg");
			snprintf(path, sizeof(path), "%s/%s", c->tmp, name);
			if (!(rc = slc_plot_bar_chart(path, &chart, c->err, c->errlen))) rc = keep(c, name);
		}
		*drawn = !rc;
	}
	free(r);
	free(groups);
	free(vals);
	return rc;
}

/* ---- the pages ------------------------------------------------------------ */

/* Sorts a table.sort by the column whose heading is clicked: by each cell's
 * data-v, numbers as numbers, cells without a value last either way. */
static const char sort_script[] =
	"<script>\n"
	"document.querySelectorAll('table.sort th').forEach(function (th, col) {\n"
	"  th.style.cursor = 'pointer';\n"
	"  th.title = 'sort by this column';\n"
	"  th.addEventListener('click', function () {\n"
	"    var tb = th.closest('table').tBodies[0], rows = Array.prototype.slice.call(tb.rows);\n"
	"    var down = th.dataset.dir !== 'down';\n"
	"    th.dataset.dir = down ? 'down' : 'up';\n"
	"    rows.sort(function (a, b) {\n"
	"      var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v, nx = parseFloat(x), ny = parseFloat(y);\n"
	"      if (x === '' || y === '') return (x === '') - (y === '');\n"
	"      if (isNaN(nx) || isNaN(ny)) return (down ? 1 : -1) * x.localeCompare(y);\n"
	"      return down ? ny - nx : nx - ny;\n"
	"    });\n"
	"    rows.forEach(function (r) { tb.appendChild(r); });\n"
	"  });\n"
	"});\n"
	"</script>\n";

static void cell_num(FILE *f, const struct slc_site_column *col, double v, enum slc_unit_system u)
{
	char w[64];

	if (isfinite(v)) fprintf(f, "<td data-v=\"%.17g\">", v);
	else fputs("<td data-v=\"\">", f);
	slc__html_text(f, words(w, sizeof(w), col, v, u));
	fputs("</td>", f);
}

static void index_table(struct site_ctx *c, FILE *f)
{
	const struct slc_site *s = c->s;
	char cap[32];

	fputs("<div class=\"t\"><table class=\"sort\" id=\"drives\"><thead><tr><th>Drive</th><th>Capacity</th>"
	      "<th>Runs</th><th>Latest run</th>", f);
	for (size_t k = 0; k < s->n_cols; k++) {
		fputs("<th>", f);
		slc__html_text(f, s->cols[k].title);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < s->n_drives; i++) {
		const struct slc_site_drive *d = &s->drives[i];
		const struct slc_site_run *last = d->n_runs ? &d->runs[d->n_runs - 1] : NULL;
		fprintf(f, "<tr><td data-v=\"");
		slc__html_text(f, d->name);
		fprintf(f, "\"><a href=\"drive-%" PRId64 ".html\">", d->id);
		slc__html_text(f, d->name);
		fprintf(f, "</a></td><td data-v=\"%.17g\">%s</td><td data-v=\"%zu\">%zu</td><td data-v=\"", d->capacity_bytes,
			d->capacity_bytes > 0 ? slc_format_bytes(cap, sizeof(cap), d->capacity_bytes, c->u) : "-",
			d->n_runs, d->n_runs);
		slc__html_text(f, last && last->created ? last->created : "");
		fputs("\">", f);
		slc__html_text(f, last && last->created ? last->created : "-");
		fputs("</td>", f);
		for (size_t k = 0; k < s->n_cols; k++) {
			const struct slc_site_run *r = latest_with(d, k);
			cell_num(f, &s->cols[k], r ? r->v[k] : NAN, c->u);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

static int write_index(struct site_ctx *c, const int *drawn)
{
	const struct slc_site *s = c->s;
	struct doc d = { .html = 1, .dir = c->tmp };
	size_t runs = 0;
	char cap[256];

	if (!(d.f = stage_open(c, "index.html"))) return -EIO;
	for (size_t i = 0; i < s->n_drives; i++) runs += s->drives[i].n_runs;
	slc__html_page_begin(d.f, s->title);
	slc__doc_heading(&d, 1, "%s", s->title);
	slc__doc_para(&d, "%zu drive%s, %zu run%s. Each drive with the latest value of each figure; click a column's "
		      "heading to sort by it, a drive for its runs and its report.", s->n_drives,
		      s->n_drives == 1 ? "" : "s", runs, runs == 1 ? "" : "s");
	index_table(c, d.f);
	slc__doc_heading(&d, 2, "Rankings");
	for (size_t k = 0; k < s->n_cols; k++) {
		char name[160];
		if (!drawn[k]) continue;
		snprintf(name, sizeof(name), "rank-%s", s->cols[k].key);
		snprintf(cap, sizeof(cap), "%s: the drives ranked, %s is better", s->cols[k].title,
			 s->cols[k].lower_better ? "lower" : "higher");
		slc__doc_figure(&d, name, cap);
	}
	fputs(sort_script, d.f);
	slc__html_page_end(d.f);
	if (d.rc) {
		fclose(d.f);
		return slc_errf(c->err, c->errlen, d.rc, "%s/index.html: a ranking chart could not be inlined", c->dir);
	}
	return stage_close(c, d.f, "index.html");
}

static void runs_table(struct site_ctx *c, FILE *f, const struct slc_site_drive *d)
{
	const struct slc_site *s = c->s;

	fputs("<div class=\"t\"><table class=\"sort\"><thead><tr><th>Run</th><th>Made</th><th>Plan</th><th>Status</th>", f);
	for (size_t k = 0; k < s->n_cols; k++) {
		fputs("<th>", f);
		slc__html_text(f, s->cols[k].title);
		fputs("</th>", f);
	}
	fputs("<th>Trace</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = d->n_runs; i-- > 0;) {
		const struct slc_site_run *r = &d->runs[i];
		fprintf(f, "<tr><td data-v=\"%" PRId64 "\">%" PRId64 "</td>", r->id, r->id);
		const char *t[3] = { r->created, r->plan, r->status };
		for (int j = 0; j < 3; j++) {
			fputs("<td data-v=\"", f);
			slc__html_text(f, t[j] ? t[j] : "");
			fputs("\">", f);
			slc__html_text(f, t[j] && *t[j] ? t[j] : "-");
			fputs("</td>", f);
		}
		for (size_t k = 0; k < s->n_cols; k++) cell_num(f, &s->cols[k], r->v[k], c->u);
		fputs("<td data-v=\"\">", f);
		slc__html_text(f, r->path ? r->path : "no longer where it was stored");
		if (r->note) {
			fputs("<br><small>", f);
			slc__html_text(f, r->note);
			fputs("</small>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

static int write_drive(struct site_ctx *c, size_t i)
{
	const struct slc_site_drive *d = &c->s->drives[i];
	const struct slc_site_run *last = d->n_runs ? &d->runs[d->n_runs - 1] : NULL;
	struct doc doc = { .html = 1, .dir = c->tmp };
	char name[64], cap[32];

	snprintf(name, sizeof(name), "drive-%" PRId64 ".html", d->id);
	if (!(doc.f = stage_open(c, name))) return -EIO;
	slc__html_page_begin(doc.f, d->name);
	fputs("<p><a href=\"index.html\">All drives</a></p>\n", doc.f);
	slc__doc_heading(&doc, 1, "%s", d->name);
	slc__doc_para(&doc, "Model %s, serial %s, %s.", d->model && *d->model ? d->model : "not known",
		      d->serial && *d->serial ? d->serial : "not known",
		      d->capacity_bytes > 0 ? slc_format_bytes(cap, sizeof(cap), d->capacity_bytes, c->u)
					    : "capacity not known");
	if (last && c->s->reports && !c->report_note[i])
		fprintf(doc.f, "<p><a href=\"run-%" PRId64 "/index.html\">The report of the latest run (%" PRId64 ")</a></p>\n",
			last->id, last->id);
	else if (last && c->s->reports)
		slc__doc_para(&doc, "No report of the latest run (%" PRId64 "): %s.", last->id, c->report_note[i]);
	slc__doc_heading(&doc, 2, "Runs, the latest first");
	runs_table(c, doc.f, d);
	fputs(sort_script, doc.f);
	slc__html_page_end(doc.f);
	return stage_close(c, doc.f, name);
}

/* Each drive's latest run's report in DIR/run-ID/; a drive whose trace
 * cannot be read keeps a note of why instead. */
static int write_reports(struct site_ctx *c, FILE *log)
{
	const struct slc_figure_opts look = { .binary = c->s->binary };

	for (size_t i = 0; i < c->s->n_drives; i++) {
		const struct slc_site_drive *d = &c->s->drives[i];
		const struct slc_site_run *last = d->n_runs ? &d->runs[d->n_runs - 1] : NULL;
		struct slc_session x = { 0 };
		char sub[4096], e[512] = "";

		if (!last) continue;
		snprintf(sub, sizeof(sub), "%s/run-%" PRId64, c->dir, last->id);
		x.allow_no_curve = 1;
		if (!last->path) snprintf(e, sizeof(e), "its trace is no longer where it was stored");
		else if (!slc_session_load(&x, last->path, -1, NULL, e, sizeof(e)) &&
			 !slc_report_write(sub, &x, &look, NULL, e, sizeof(e)) && log)
			fprintf(log, "wrote %s/index.html\n", sub);
		slc_session_free(&x);
		if (*e && !(c->report_note[i] = strdup(e))) return slc_errf(c->err, c->errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Is @dir a report (its marker lists summary.md, which every report writes
 * and a site does not)?  A site never replaces one: the report's own files
 * would be removed as the site's old ones. */
static int is_run_report(const char *dir)
{
	char path[4096], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, SLC_REPORT_MARKER);
	if (!(f = fopen(path, "re"))) return 0;
	while (!found && fgets(line, sizeof(line), f)) found = !strcmp(line, "summary.md\n");
	fclose(f);
	return found;
}

int slc_site_write(const char *dir, const struct slc_site *s, FILE *log, char *err, size_t errlen)
{
	if (is_run_report(dir))
		return slc_errf(err, errlen, -EEXIST, "%s is a report, not a site: give another directory", dir);
	struct site_ctx c = { .s = s, .dir = dir, .u = s->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL, .err = err,
			      .errlen = errlen };
	struct slc_report_dir *rd = NULL;
	int *drawn = calloc(s->n_cols + 1, sizeof(*drawn));
	int rc;

	c.report_note = calloc(s->n_drives + 1, sizeof(*c.report_note));
	if (!drawn || !c.report_note) rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	else rc = slc_report_dir_begin(&rd, dir, NULL, 0, err, errlen);
	if (!rc) c.tmp = slc_report_dir_staging(rd);
	if (!rc && s->reports) rc = write_reports(&c, log);
	for (size_t k = 0; !rc && k < s->n_cols; k++) rc = rank_chart(&c, k, &drawn[k]);
	for (size_t i = 0; !rc && i < s->n_drives; i++) rc = write_drive(&c, i);
	if (!rc) rc = write_index(&c, drawn);
	if (!rc) {
		const char **names = calloc(c.n_names + 1, sizeof(*names));
		for (size_t i = 0; names && i < c.n_names; i++) names[i] = c.names[i];
		rc = names ? slc_report_dir_commit(rd, names, c.n_names, log, err, errlen)
			   : slc_errf(err, errlen, -ENOMEM, "out of memory");
		free(names);
		rd = NULL;
	}
	slc_report_dir_abort(rd);
	for (size_t i = 0; c.report_note && i < s->n_drives; i++) free(c.report_note[i]);
	free(c.report_note);
	free(c.names);
	free(drawn);
	return rc;
}
