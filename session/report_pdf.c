// SPDX-License-Identifier: MIT
/*
 * report.pdf: the report for print.  The document is the one summary.md
 * and index.html are: the same section functions, called with a writer
 * whose output is pages (slcscope/plot.h) instead of a file, so the PDF
 * says what they say, number for number.  Its graphs are the report's
 * figures recorded by the drawing code that wrote their SVG and PNG, and
 * replayed onto the page as vectors and text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report_doc.h"

void slc__pdf_row(struct doc *d, size_t cols, char cells[][96])
{
	const char *c[16];

	/* an empty cell reads "-", as in the page and in Markdown */
	for (size_t i = 0; i < cols && i < 16; i++)
		c[i] = cells[i][0] ? cells[i] : "-";
	slc_pages_row(d->pdf, cols < 16 ? cols : 16, c);
}

void slc__pdf_figure(struct doc *d, const char *name, const char *caption)
{
	for (size_t i = 0; i < d->nfigs; i++)
		if (!strcmp(d->figs[i].name, name) && d->figs[i].drawing) {
			slc_pages_figure(d->pdf, d->figs[i].drawing, caption);
			return;
		}
	/* no recorded graph (out of memory while recording): the caption at least says what is missing */
	slc_pages_para(d->pdf, caption);
}

int slc__report_pdf(FILE *f, enum slc_paper paper, const char *title, void (*fn)(struct doc *, const void *),
		    const void *arg, const struct report_fig *figs, size_t nfigs, char *err, size_t errlen)
{
	struct doc d = { .f = NULL, .figs = figs, .nfigs = nfigs };
	int rc;

	if ((rc = slc_pages_open(&d.pdf, f, paper, title, err, errlen)))
		return rc;
	fn(&d, arg);
	return slc_pages_close(d.pdf, err, errlen);
}
