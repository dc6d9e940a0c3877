// SPDX-License-Identifier: MIT
/*
 * Reports for article authors: everything a review needs from one input,
 * in one directory, self-contained (the HTML page inlines its SVG graphs).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slcscope/session.h"

static int path_in(char *buf, size_t len, const char *dir, const char *name)
{
	return (size_t)snprintf(buf, len, "%s/%s", dir, name) >= len ? -ENAMETOOLONG : 0;
}

static void num(FILE *f, double v)
{
	if (isfinite(v)) fprintf(f, "%.17g", v);
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

/* The Markdown summary: what an article needs, figures with units. */
static void summary(FILE *f, const struct slc_session *x, enum slc_unit_system u, int html)
{
	char a[32], b[32], c[32];
	const char *title = x->in->meta.device_model && x->in->meta.device_model[0] ? x->in->meta.device_model :
			    x->in->meta.target && x->in->meta.target[0] ? x->in->meta.target : x->in->source;

	if (!html)
		fprintf(f, "# %s\n\nSource: `%s`%s%s%s%s%s%s\n", title, x->in->source,
			x->in->meta.target ? ", target " : "", x->in->meta.target ? x->in->meta.target : "",
			x->in->meta.device_firmware ? ", firmware " : "", x->in->meta.device_firmware ? x->in->meta.device_firmware : "",
			x->in->meta.device_serial ? ", serial " : "", x->in->meta.device_serial ? x->in->meta.device_serial : "");
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const struct slc_analysis *an = &x->a[i];
		struct slc_recovery r;

		fprintf(f, html ? "<h2>%s</h2>\n<p>" : "\n## %s\n\n", s->params.step && s->params.step[0] ? s->params.step : "write curve");
		if (s->params.block_bytes)
			fprintf(f, "%s %s writes at queue depth %u. ", slc_workload_from_name(s->params.workload) != SLC_WL_SEQ_WRITE ? "Random" : "Sequential",
				slc_format_bytes(a, sizeof(a), s->params.block_bytes, SLC_UNITS_BINARY), s->params.queue_depth);
		if (an->has_cache)
			fprintf(f, html ? "SLC cache: <b>%s</b> at %s. " : "SLC cache: **%s** at %s. ",
				slc_format_bytes(a, sizeof(a), an->cache_bytes, u), slc_format_rate(b, sizeof(b), an->cache_bps, u));
		else
			fprintf(f, "No SLC cache seen. ");
		if (isfinite(an->erase_bound_start_bytes))
			fprintf(f, "Erase-bound from %s written. ", slc_format_bytes(a, sizeof(a), an->erase_bound_start_bytes, u));
		if (isfinite(x->drive[i].wa))
			fprintf(f, "The drive counted %s of NAND writes for %s of host writes: write amplification %.2f. ",
				slc_format_bytes(a, sizeof(a), x->drive[i].nand_bytes, u),
				slc_format_bytes(b, sizeof(b), x->drive[i].host_bytes, u), x->drive[i].wa);
		if (isfinite(x->drive[i].slc_flash_bytes))
			fprintf(f, "Flash used in SLC mode: about %s. ", slc_format_bytes(a, sizeof(a), x->drive[i].slc_flash_bytes, u));
		if (x->drive[i].n_temp && isfinite(x->drive[i].max_temp_c))
			fprintf(f, "Temperature up to %.0f C%s. ", x->drive[i].max_temp_c,
				isfinite(x->drive[i].warn_c) ? (snprintf(c, sizeof(c), " (warning at %.0f C)", x->drive[i].warn_c), c) : "");
		if (i > 0 && slc_recovery(&r, &x->a[0], an) == 0 && isfinite(r.cache_frac))
			fprintf(f, "After %s: %.0f%% of the first segment's cache came back. ",
				s->params.idle_before_s > 0 ? slc_format_duration(c, sizeof(c), (uint64_t)(s->params.idle_before_s * 1e9)) : "no wait",
				r.cache_frac * 100);
		fprintf(f, html ? "</p>\n<table><tr><th>phase</th><th>from</th><th>to</th><th>mean</th><th>median</th><th>p5-p95</th><th>IOPS</th></tr>\n" :
			"\n\n| phase | from | to | mean | median | p5-p95 | IOPS |\n|---|---|---|---|---|---|---|\n");
		for (size_t p = 0; p < an->n_phases; p++) {
			const struct slc_phase *ph = &an->phases[p];
			char d[32], e[32], g[32], io[32] = "-";
			if (isfinite(ph->iops_mean)) slc_format_iops(io, sizeof(io), ph->iops_mean);
			fprintf(f, html ? "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s-%s</td><td>%s</td></tr>\n" :
				"| %s | %s | %s | %s | %s | %s-%s | %s |\n",
				slc_phase_kind_name(ph->kind), slc_format_bytes(a, sizeof(a), ph->start_bytes, u),
				slc_format_bytes(b, sizeof(b), ph->end_bytes, u), slc_format_rate(c, sizeof(c), ph->mean_bps, u),
				slc_format_rate(d, sizeof(d), ph->median_bps, u), slc_format_rate(e, sizeof(e), ph->p5_bps, u),
				slc_format_rate(g, sizeof(g), ph->p95_bps, u), io);
		}
		if (html)
			fprintf(f, "</table>\n");
	}
}

/* Write @line with every id and reference to one prefixed by @pfx. */
static void put_prefixed(FILE *f, const char *line, const char *pfx)
{
	static const char *const marks[] = { "id=\"", "href=\"#", "url(#" };

	while (*line) {
		const char *best = NULL;
		size_t blen = 0;
		for (size_t m = 0; m < 3; m++) {
			const char *hit = strstr(line, marks[m]);
			if (hit && (!best || hit < best)) {
				best = hit;
				blen = strlen(marks[m]);
			}
		}
		if (!best) {
			fputs(line, f);
			return;
		}
		fwrite(line, 1, (size_t)(best - line) + blen, f);
		fputs(pfx, f);
		line = best + blen;
	}
}

/*
 * Inline an SVG file into the page.  cairo names its glyphs and clips
 * "glyph0-1", "clip1", ... in every file; several figures in one page would
 * resolve each other's references, so ids get a per-figure prefix.
 */
static int inline_svg(FILE *f, const char *path, int fig)
{
	FILE *in = fopen(path, "re");
	char pfx[16], *buf, *body;
	long len;

	if (!in)
		return -errno;
	if (fseek(in, 0, SEEK_END) || (len = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1))) {
		fclose(in);
		return -EIO;
	}
	if (fread(buf, 1, (size_t)len, in) != (size_t)len) {
		free(buf);
		fclose(in);
		return -EIO;
	}
	fclose(in);
	buf[len] = '\0';
	/* drop the XML prolog: the page is HTML */
	body = strstr(buf, "<svg");
	snprintf(pfx, sizeof(pfx), "f%d-", fig);
	put_prefixed(f, body ? body : buf, pfx);
	free(buf);
	return 0;
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

/* Every write curve as SVG and PNG (@svgs: the SVGs' paths, for the page), latency graphs. */
static int write_curves(const char *dir, const struct slc_session *x, int binary, char (*svgs)[4096], FILE *log,
			char *err, size_t errlen)
{
	char path[4096], ferr[512];
	int rc;

	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_figure_opts co = { .binary = binary };
		const char *step = s->params.step && s->params.step[0] ? s->params.step : "curve";
		/* the reviews draw 4 KiB random curves in IOPS */
		co.y_iops = s->params.block_bytes && s->params.block_bytes <= 16384 &&
			    slc_workload_from_name(s->params.workload) != SLC_WL_SEQ_WRITE;
		for (int k = 0; k < 2; k++) {
			char name[256];
			snprintf(name, sizeof(name), "curve-%zu-%s.%s", x->seg[i], step, k ? "png" : "svg");
			path_in(path, sizeof(path), dir, name);
			if ((rc = slc_figure_curve(path, x, (long)i, &co, ferr, sizeof(ferr))))
				return slc_errf(err, errlen, rc, "%s", ferr);
			if (!k) snprintf(svgs[i], sizeof(svgs[i]), "%s", path);
			wrote(log, path);
		}
	}
	/* latency of every curve that has it */
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_figure_opts co = { .binary = binary };
		char name[256];
		snprintf(name, sizeof(name), "latency-%zu-%s.png", x->seg[i], s->params.step && s->params.step[0] ? s->params.step : "curve");
		path_in(path, sizeof(path), dir, name);
		if (slc_figure_latency(path, x, (long)i, &co, ferr, sizeof(ferr)) == 0)
			wrote(log, path);
	}
	return 0;
}

/* The recovery chart of the bursts (its SVG's path in @recovery_svg) and the idle sweep's. */
static void write_recovery(const char *dir, const struct slc_session *x, int binary, char *recovery_svg, FILE *log)
{
	struct slc_figure_opts co = { .binary = binary };
	char path[4096], ferr[512];

	path_in(path, sizeof(path), dir, "recovery.svg");
	if (slc_figure_recovery(path, x, &co, ferr, sizeof(ferr)) == 0) {
		snprintf(recovery_svg, 4096, "%s", path);
		wrote(log, path);
		path_in(path, sizeof(path), dir, "recovery.png");
		if (slc_figure_recovery(path, x, &co, ferr, sizeof(ferr)) == 0)
			wrote(log, path);
	}
	path_in(path, sizeof(path), dir, "idle-recovery.png");
	if (slc_figure_idle_recovery(path, x, &co, ferr, sizeof(ferr)) == 0)
		wrote(log, path);
}

static int write_summary_md(const char *dir, const struct slc_session *x, enum slc_unit_system u, FILE *log,
			    char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	path_in(path, sizeof(path), dir, "summary.md");
	if (!(f = fopen(path, "we")))
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	summary(f, x, u, 0);
	slc_session_print_experiments(f, x, u);
	if (fclose(f))
		return slc_errf(err, errlen, -EIO, "%s: cannot write", path);
	wrote(log, path);
	return 0;
}

/* The experiments' figures, as plain text in the page. */
static void html_experiments(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	slc_session_print_experiments(m, x, u);
	fclose(m);
	if (text && len) {
		fprintf(f, "<pre>");
		for (const char *c = text; *c; c++) {
			if (*c == '<') fputs("&lt;", f);
			else if (*c == '&') fputs("&amp;", f);
			else fputc(*c, f);
		}
		fprintf(f, "</pre>\n");
	}
	free(text);
}

static int write_index_html(const char *dir, const struct slc_session *x, enum slc_unit_system u,
			    char (*svgs)[4096], const char *recovery_svg, FILE *log, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	path_in(path, sizeof(path), dir, "index.html");
	if (!(f = fopen(path, "we")))
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>slcscope report</title>\n"
		"<style>body{font-family:'DejaVu Sans',sans-serif;max-width:1240px;margin:2em auto;color:#222}"
		"table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
		"td:first-child{text-align:left}svg{max-width:100%%;height:auto}</style></head><body>\n");
	fprintf(f, "<h1>%s</h1>\n<p>Source: <code>%s</code>. Files: phases.json, phases.csv, samples.csv, summary.md.</p>\n",
		x->in->meta.device_model && x->in->meta.device_model[0] ? x->in->meta.device_model : x->in->source, x->in->source);
	summary(f, x, u, 1);
	html_experiments(f, x, u);
	for (size_t i = 0; i < x->n; i++) {
		fprintf(f, "<figure>\n");
		inline_svg(f, svgs[i], (int)i);
		fprintf(f, "</figure>\n");
	}
	if (recovery_svg[0]) {
		fprintf(f, "<h2>Recovery</h2>\n<figure>\n");
		inline_svg(f, recovery_svg, (int)x->n);
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "<p><small>slcscope %s</small></p>\n</body></html>\n", SLCSCOPE_VERSION);
	if (fclose(f))
		return slc_errf(err, errlen, -EIO, "%s: cannot write", path);
	wrote(log, path);
	return 0;
}

int slc_report_write(const char *dir, const struct slc_session *x, int binary, FILE *log, char *err, size_t errlen)
{
	enum slc_unit_system u = binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL;
	char recovery_svg[4096] = "";
	char (*svgs)[4096] = calloc(x->n + 1, sizeof(*svgs));
	int rc;

	if (!svgs)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (mkdir(dir, 0755) && errno != EEXIST)
		rc = slc_errf(err, errlen, -errno, "cannot create '%s': %s", dir, strerror(errno));
	else if (!(rc = write_data(dir, x, log, err, errlen)) && !(rc = write_curves(dir, x, binary, svgs, log, err, errlen))) {
		write_recovery(dir, x, binary, recovery_svg, log);
		if (!(rc = write_summary_md(dir, x, u, log, err, errlen)))
			rc = write_index_html(dir, x, u, svgs, recovery_svg, log, err, errlen);
	}
	free(svgs);
	return rc;
}
