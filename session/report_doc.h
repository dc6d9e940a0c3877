/* SPDX-License-Identifier: MIT */
/*
 * One writer for the report's documents: the same calls give Markdown
 * (summary.md), HTML (index.html) or the PDF's pages (report.pdf), so all
 * say the same things.
 */
#ifndef SLCSCOPE_REPORT_DOC_H
#define SLCSCOPE_REPORT_DOC_H

#include <stdio.h>

#include "session_priv.h"

struct report_fig;

struct doc {
	FILE *f;
	int html;
	struct slc_pages *pdf;        /* not NULL: the PDF's pages instead of @f */
	const struct report_fig *figs;  /* the PDF's graphs, found by name */
	size_t nfigs;
	const char *dir;              /* the report directory: graphs are read from it to inline them */
	int fig;                      /* figures inlined so far (their SVG ids get a prefix each) */
	int rc;                       /* the first graph that could not be inlined: -errno */
	int blocks;                   /* Markdown blocks written so far */
	int with_pdf;                 /* the report has a report.pdf: its list of files says so */
};

void slc__doc_heading(struct doc *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A paragraph; **bold** spans are marked with the markers \x01 ... \x02. */
void slc__doc_para(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void slc__doc_table(struct doc *d, size_t cols, const char *const *head);
void slc__doc_row(struct doc *d, size_t cols, char cells[][96]);
void slc__doc_table_end(struct doc *d);
/* A graph: the SVG inlined in HTML, the PNG linked in Markdown; @name without extension. */
void slc__doc_figure(struct doc *d, const char *name, const char *caption);
void slc__doc_pre(struct doc *d, const char *text);

/*
 * A report file written with every error seen: slc__open_w() clears errno
 * so that slc__close_w() can tell why a buffered write failed (a full disk
 * mid-file shows in ferror() alone); slc__close_w() returns 0 or -errno.
 */
FILE *slc__open_w(const char *path);
int slc__close_w(FILE *f);

/* An HTML page's head (its style: one look for every page slcscope writes) and foot. */
void slc__html_page_begin(FILE *f, const char *title);
void slc__html_page_end(FILE *f);
/* @s as HTML text or an attribute's value: markup characters escaped, control characters as spaces. */
void slc__html_text(FILE *f, const char *s);

/* A graph the report wrote: its file name without extension, its caption, its place. */
struct report_fig {
	char name[128];
	char caption[256];
	long curve;                   /* the analysed segment it shows; -1: an experiment's;
				       * SLC__FIG_SWEEP: a sweep's */
	struct slc_plot_drawing *drawing;  /* for report.pdf: the graph recorded (slc_plot_record()) */
};
#define SLC__FIG_SWEEP (-2L)

/* Every section of a one-input report, in order. */
void slc__report_sections(struct doc *d, const struct slc_session *x, enum slc_unit_system u,
		     const struct report_fig *figs, size_t nfigs);

/*
 * report.pdf (session/report_pdf.c): @fn's sections, the calls that write
 * summary.md and index.html, laid out on @paper into @f, the graphs @figs'
 * recorded drawings.  Return: 0 or -errno with a reason in @err.
 */
int slc__report_pdf(FILE *f, enum slc_paper paper, const char *title, void (*fn)(struct doc *, const void *),
		    const void *arg, const struct report_fig *figs, size_t nfigs, char *err, size_t errlen);
/* The PDF's side of slc__doc_row() and slc__doc_figure(). */
void slc__pdf_row(struct doc *d, size_t cols, char cells[][96]);
void slc__pdf_figure(struct doc *d, const char *name, const char *caption);

/* The number as the shortest text that reads back as the same double. */
void slc__report_num(FILE *f, double v);

#endif
