// SPDX-License-Identifier: MIT
/* The report's document writer: Markdown or HTML from the same calls. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_doc.h"

void slc__report_num(FILE *f, double v)
{
	char buf[40];

	if (!isfinite(v))
		return;
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

/*
 * @s for the document.  Text from a trace (models, targets, step names,
 * command lines) is free text, so nothing in it may act as markup: in HTML
 * the usual escapes; in Markdown a backslash before every character that
 * could open markup (CommonMark reads a backslash before ASCII punctuation
 * as that character), and line breaks and other control characters become
 * spaces, since they would end a table row or a heading early.  \x01/\x02
 * turn bold on and off; a stray one (the markers are control characters a
 * trace could hold too) cannot leave the rest of the document bold.
 */
static void put_text(struct doc *d, const char *s)
{
	int bold = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\x01' || c == '\x02') {
			if ((c == '\x01') != bold)
				fputs(d->html ? (bold ? "</b>" : "<b>") : "**", d->f);
			bold = c == '\x01';
		} else if (d->html) {
			if (c == '<') fputs("&lt;", d->f);
			else if (c == '>') fputs("&gt;", d->f);
			else if (c == '&') fputs("&amp;", d->f);
			else fputc(c, d->f);
		} else if (c < 0x20 || c == 0x7f) {
			fputc(' ', d->f);
		} else {
			if (strchr("\\`*_[]<>#|~&", c))
				fputc('\\', d->f);
			fputc(c, d->f);
		}
	}
	if (bold)
		fputs(d->html ? "</b>" : "**", d->f);
}

/* Markdown blocks are apart by a blank line; the first starts the file. */
static void md_block(struct doc *d)
{
	if (!d->html && d->blocks++)
		fputc('\n', d->f);
}

static void vput(struct doc *d, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	put_text(d, buf);
}

/* The PDF's heading (@level > 0) or paragraph, from the same words. */
static void vpdf(struct doc *d, int level, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (level)
		slc_pages_heading(d->pdf, level, buf);
	else
		slc_pages_para(d->pdf, buf);
}

void slc__doc_heading(struct doc *d, int level, const char *fmt, ...)
{
	va_list ap;

	if (d->pdf) {
		va_start(ap, fmt);
		vpdf(d, level > 0 ? level : 1, fmt, ap);
		va_end(ap);
		return;
	}
	md_block(d);
	fprintf(d->f, d->html ? "<h%d>" : "%.*s ", level, "######");
	va_start(ap, fmt);
	vput(d, fmt, ap);
	va_end(ap);
	fprintf(d->f, d->html ? "</h%d>\n" : "\n", level);
}

void slc__doc_para(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (d->pdf) {
		va_start(ap, fmt);
		vpdf(d, 0, fmt, ap);
		va_end(ap);
		return;
	}
	md_block(d);
	if (d->html)
		fputs("<p>", d->f);
	va_start(ap, fmt);
	vput(d, fmt, ap);
	va_end(ap);
	fputs(d->html ? "</p>\n" : "\n", d->f);
}

void slc__doc_table(struct doc *d, size_t cols, const char *const *head)
{
	if (d->pdf) {
		slc_pages_table(d->pdf, cols, head);
		return;
	}
	md_block(d);
	fputs(d->html ? "<div class=\"t\"><table><tr>" : "|", d->f);
	for (size_t i = 0; i < cols; i++) {
		fputs(d->html ? "<th>" : " ", d->f);
		put_text(d, head[i]);
		fputs(d->html ? "</th>" : " |", d->f);
	}
	fputs(d->html ? "</tr>\n" : "\n|", d->f);
	for (size_t i = 0; !d->html && i < cols; i++)
		fputs(i ? "---:|" : "---|", d->f);
	if (!d->html)
		fputc('\n', d->f);
}

void slc__doc_row(struct doc *d, size_t cols, char cells[][96])
{
	if (d->pdf) {
		slc__pdf_row(d, cols, cells);
		return;
	}
	fputs(d->html ? "<tr>" : "|", d->f);
	for (size_t i = 0; i < cols; i++) {
		fputs(d->html ? "<td>" : " ", d->f);
		put_text(d, cells[i][0] ? cells[i] : "-");
		fputs(d->html ? "</td>" : " |", d->f);
	}
	fputs(d->html ? "</tr>\n" : "\n", d->f);
}

void slc__doc_table_end(struct doc *d)
{
	if (d->pdf)
		slc_pages_table_end(d->pdf);
	else if (d->html)
		fputs("</table></div>\n", d->f);
}

void slc__doc_pre(struct doc *d, const char *text)
{
	size_t run = 0, longest = 0, len = strlen(text);

	if (d->pdf) {
		slc_pages_pre(d->pdf, text);
		return;
	}
	if (d->html) {
		fputs("<pre>", d->f);
		put_text(d, text);
		fputs("</pre>\n", d->f);
		return;
	}
	/* the text is kept as it is, so the fence is longer than any run of backticks in it */
	for (const char *c = text; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest) longest = run;
	}
	longest = longest < 3 ? 3 : longest + 1;
	md_block(d);
	for (size_t i = 0; i < longest; i++) fputc('`', d->f);
	fprintf(d->f, "\n%s%s", text, len && text[len - 1] != '\n' ? "\n" : "");
	for (size_t i = 0; i < longest; i++) fputc('`', d->f);
	fputc('\n', d->f);
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
 * Inline an SVG file into the page.  cairo names its clips "clip1", ... in
 * every file; several figures in one page would resolve each other's
 * references, so ids get a per-figure prefix.
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
	/* the XML prolog goes: the page is HTML */
	body = strstr(buf, "<svg");
	snprintf(pfx, sizeof(pfx), "f%d-", fig);
	put_prefixed(f, body ? body : buf, pfx);
	free(buf);
	return 0;
}

void slc__doc_figure(struct doc *d, const char *name, const char *caption)
{
	char path[4096];
	int rc;

	if (d->pdf) {
		slc__pdf_figure(d, name, caption);
		return;
	}
	if (!d->html) {
		md_block(d);
		fputs("![", d->f);
		put_text(d, caption);
		fprintf(d->f, "](%s.png)\n\n*", name);
		put_text(d, caption);
		fprintf(d->f, "* ([SVG](%s.svg), [PNG](%s.png))\n", name, name);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.svg", d->dir, name);
	fputs("<figure>\n", d->f);
	if ((rc = inline_svg(d->f, path, d->fig++)) && !d->rc)
		d->rc = rc;
	fputs("\n<figcaption>", d->f);
	put_text(d, caption);
	fprintf(d->f, " (<a href=\"%s.svg\">SVG</a>, <a href=\"%s.png\">PNG</a>)</figcaption>\n</figure>\n", name, name);
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

void slc__html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '<') fputs("&lt;", f);
		else if (c == '>') fputs("&gt;", f);
		else if (c == '&') fputs("&amp;", f);
		else if (c == '"') fputs("&quot;", f);
		else fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
}

void slc__html_page_begin(FILE *f, const char *title)
{
	fputs(page_head1, f);
	slc__html_text(f, title);
	fputs(page_head2, f);
}

void slc__html_page_end(FILE *f)
{
	fprintf(f, "<p><small>slcscope %s</small></p>\n</body></html>\n", SLCSCOPE_VERSION);
}

FILE *slc__open_w(const char *path)
{
	FILE *f = fopen(path, "we");

	/* errno is read at close to tell why a buffered write failed */
	if (f)
		errno = 0;
	return f;
}

/* fclose() only reports the last flush: a write that failed earlier (the
 * disk full mid-file) is seen by slc_stream_error(). */
int slc__close_w(FILE *f)
{
	int bad = slc_stream_error(f);

	if (fclose(f))
		return errno ? -errno : -EIO;
	return bad;
}
