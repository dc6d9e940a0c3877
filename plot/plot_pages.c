// SPDX-License-Identifier: MIT
/*
 * Pages: a document laid out for print with cairo's PDF surface, in the
 * plotter's font and with its graphs replayed as vectors.
 *
 * The layout is a single column flowing down the page: a block that does
 * not fit in what is left of a page starts the next one (a heading keeps a
 * few lines of what follows with it; a table breaks between rows and
 * repeats its head).  Text is drawn with cairo's own text API, as the
 * graphs' text is, so the PDF carries embedded font subsets: selectable,
 * searchable text.  Each line is drawn as runs of one style, not word by
 * word, so that text extracted from the PDF reads as it was written.
 */
#include <cairo-pdf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plot_priv.h"

#define MONO_FONT "DejaVu Sans Mono"
#define BODY_PT 9.5
#define CAPTION_PT 8.0
#define LEADING 1.35

static const struct { const char *name; double w, h; } papers[SLC_PAPER__COUNT] = {
	[SLC_PAPER_A4] = { "a4", 595.2756, 841.8898 },
	[SLC_PAPER_LETTER] = { "letter", 612, 792 },
};

const char *slc_paper_name(enum slc_paper p)
{
	return (unsigned)p < SLC_PAPER__COUNT ? papers[p].name : NULL;
}

int slc_paper_from_name(const char *name)
{
	for (int p = 0; name && p < SLC_PAPER__COUNT; p++)
		if (!strcasecmp(name, papers[p].name))
			return p;
	return -1;
}

struct slc_pages {
	cairo_surface_t *surf;
	cairo_t *cr;
	FILE *f;
	int write_failed;
	double pw, ph;                /* the paper, in points */
	double left, right, top, bottom;  /* the text's left and right edges; the margins above and below it */
	double y;                     /* where the next block starts */
	int page;                     /* pages begun */
	int outline;                  /* the last level-1 heading's outline entry */
	char *title;
	/* the table being collected: its head first, row by row */
	size_t cols, n_cells, cap_cells;
	char **cells;
	int oom;
};

/* One word of a paragraph: its bytes, its style, its width. */
struct word {
	const char *s;
	size_t len;
	int bold;
	int space;                    /* a space before it, unless a line starts with it */
	int brk;                      /* a line may start with it */
	double w;
};

/*
 * The length of the UTF-8 character at @s that cairo accepts, 0 for none:
 * cairo refuses a whole text, and from then on the document, for one
 * overlong form, surrogate, noncharacter or code point past U+10FFFF.
 */
static size_t utf8_len(const char *s)
{
	static const unsigned lowest[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned char c = (unsigned char)*s;
	size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	unsigned cp = len == 1 ? c : len == 2 ? c & 0x1fu : len == 3 ? c & 0x0fu : c & 0x07u;

	for (size_t i = 1; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | ((unsigned char)s[i] & 0x3fu);
	}
	if (!len || cp < lowest[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe)
		return 0;
	return len;
}

/* @s as UTF-8 cairo accepts: invalid bytes '?', control characters spaces (but the bold markers and,
 * with @lines, line breaks). */
static char *clean(const char *s, int lines)
{
	size_t n = strlen(s), k = 0;
	char *o = malloc(n + 1);

	if (!o)
		return NULL;
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t len = utf8_len(s);
		if (!len) {
			o[k++] = '?';
			s++;
			continue;
		}
		if (len == 1 && (c < 0x20 || c == 0x7f) && c != 1 && c != 2 && !(lines && c == '\n'))
			c = ' ';
		if (len == 1) {
			o[k++] = (char)c;
		} else {
			memcpy(o + k, s, len);
			k += len;
		}
		s += len;
	}
	o[k] = '\0';
	return o;
}

static void set_font(cairo_t *cr, const char *face, double size, int bold)
{
	cairo_select_font_face(cr, face, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static double width_of(cairo_t *cr, const char *s, size_t len, const char *face, double size, int bold)
{
	char buf[512];
	cairo_text_extents_t e;
	double w = 0;

	set_font(cr, face, size, bold);
	/* in pieces of whole UTF-8 characters: a piece must be valid text on its own */
	while (len) {
		size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
		while (n < len && n > 1 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		memcpy(buf, s, n);
		buf[n] = '\0';
		cairo_text_extents(cr, buf, &e);
		w += e.x_advance;
		s += n;
		len -= n;
	}
	return w;
}

static void show(cairo_t *cr, double x, double y, const char *s, size_t len)
{
	char small[1024], *buf = len < sizeof(small) ? small : malloc(len + 1);

	if (!buf)
		return;
	memcpy(buf, s, len);
	buf[len] = '\0';
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
	if (buf != small)
		free(buf);
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int length)
{
	struct slc_pages *p = closure;

	if (fwrite(data, 1, length, p->f) != length) {
		p->write_failed = 1;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static void footer(struct slc_pages *p)
{
	char num[32];
	double w;

	cairo_set_source_rgb(p->cr, 0.35, 0.35, 0.35);
	snprintf(num, sizeof(num), "%d", p->page);
	w = width_of(p->cr, num, strlen(num), PLOT_FONT, 8, 0);
	show(p->cr, p->right - w, p->ph - p->bottom / 2, num, strlen(num));
	if (p->title) {
		size_t n = strlen(p->title);
		/* the title shortened, on whole characters, to leave the number its room */
		while (n && width_of(p->cr, p->title, n, PLOT_FONT, 8, 0) > p->right - p->left - w - 20)
			for (n--; n && ((unsigned char)p->title[n] & 0xc0) == 0x80; n--)
				;
		show(p->cr, p->left, p->ph - p->bottom / 2, p->title, n);
	}
	cairo_set_source_rgb(p->cr, 0, 0, 0);
}

static void new_page(struct slc_pages *p)
{
	if (p->page) {
		footer(p);
		cairo_show_page(p->cr);
	}
	/* each page's size is the one set before anything is drawn on it: the paper, on every page */
	cairo_pdf_surface_set_size(p->surf, p->pw, p->ph);
	p->page++;
	p->y = p->top;
}

/* Room for @h points more on this page; a new page when not (or none begun yet). */
static void need(struct slc_pages *p, double h)
{
	/* a hundredth of a point of slack: two half-page graphs fill a page exactly */
	if (!p->page || (p->y + h > p->ph - p->bottom + 0.01 && p->y > p->top))
		new_page(p);
}

int slc_pages_open(struct slc_pages **out, FILE *f, enum slc_paper paper, const char *title, char *err,
		   size_t errlen)
{
	struct slc_pages *p = calloc(1, sizeof(*p));
	unsigned k = (unsigned)paper < SLC_PAPER__COUNT ? (unsigned)paper : SLC_PAPER_A4;

	*out = NULL;
	if (!p || !(p->title = clean(title ? title : "", 0))) {
		free(p);
		return slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	}
	p->f = f;
	p->pw = papers[k].w;
	p->ph = papers[k].h;
	/* about 18 mm at the sides, 20 mm top and bottom: inside what any printer can print */
	p->left = 51;
	p->right = p->pw - 51;
	p->top = 57;
	p->bottom = 57;
	p->surf = cairo_pdf_surface_create_for_stream(to_file, p, p->pw, p->ph);
	p->cr = cairo_create(p->surf);
	if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS) {
		int rc = slc__plot_fail(err, errlen, -EIO, "PDF: %s", cairo_status_to_string(cairo_status(p->cr)));
		cairo_destroy(p->cr);
		cairo_surface_destroy(p->surf);
		free(p->title);
		free(p);
		return rc;
	}
	cairo_pdf_surface_set_metadata(p->surf, CAIRO_PDF_METADATA_TITLE, p->title);
	cairo_pdf_surface_set_metadata(p->surf, CAIRO_PDF_METADATA_CREATOR, "slcscope");
	*out = p;
	return 0;
}

/* @text's words, each measured; NULL when out of memory. */
static struct word *words_of(cairo_t *cr, const char *text, const char *face, double size, size_t *n)
{
	struct word *w = malloc((strlen(text) + 1) * sizeof(*w));
	int bold = 0, space = 0;
	size_t k = 0;

	if (!w)
		return NULL;
	for (const char *s = text; *s;) {
		size_t len;
		if (*s == '\x01' || *s == '\x02') {
			bold = *s++ == '\x01';
			continue;
		}
		if (*s == ' ') {
			space = 1;
			s++;
			continue;
		}
		len = strcspn(s, " \x01\x02");
		w[k] = (struct word){ s, len, bold, space && k, space || !k, 0 };
		w[k].w = width_of(cr, s, len, face, size, bold);
		k++;
		space = 0;
		s += len;
	}
	*n = k;
	return w;
}

/* Are the bytes between words @a and @b (its successor) spaces alone, or none? */
static int plain_gap(const struct word *a, const struct word *b)
{
	for (const char *c = a->s + a->len; c < b->s; c++)
		if (*c != ' ')
			return 0;
	return 1;
}

/* The words [@a, @b) drawn from @x at baseline @y, each run of one style as one text. */
static void draw_line(cairo_t *cr, const struct word *w, size_t a, size_t b, double x, double y, const char *face,
		      double size)
{
	while (a < b) {
		size_t e = a + 1;
		const char *end;
		while (e < b && w[e].bold == w[a].bold && plain_gap(&w[e - 1], &w[e]))
			e++;
		/* the run's bytes are contiguous in the text; the spaces between its words are single */
		end = w[e - 1].s + w[e - 1].len;
		set_font(cr, face, size, w[a].bold);
		show(cr, x, y, w[a].s, (size_t)(end - w[a].s));
		x += width_of(cr, w[a].s, (size_t)(end - w[a].s), face, size, w[a].bold);
		if (e < b && w[e].space)
			x += width_of(cr, " ", 1, face, size, w[e].bold);
		a = e;
	}
}

/* Split words wider than @width at whole characters into pieces a line can start with. */
static struct word *split_long(cairo_t *cr, struct word *w, size_t *n, double width, const char *face, double size)
{
	size_t extra = 0, k = 0;
	struct word *o;

	for (size_t i = 0; i < *n; i++)
		if (w[i].w > width)
			extra += w[i].len;
	if (!extra)
		return w;
	if (!(o = malloc((*n + extra) * sizeof(*o))))
		return w;
	for (size_t i = 0; i < *n; i++) {
		struct word r = w[i];
		while (r.w > width && r.len > 1) {
			size_t cut = 1;
			while (cut < r.len && ((unsigned char)r.s[cut] & 0xc0) == 0x80) cut++;
			for (size_t next = cut; next < r.len;) {
				size_t e = next + 1;
				while (e < r.len && ((unsigned char)r.s[e] & 0xc0) == 0x80) e++;
				if (width_of(cr, r.s, e, face, size, r.bold) > width) break;
				cut = next = e;
			}
			if (cut >= r.len) break;
			o[k] = r;
			o[k].len = cut;
			o[k++].w = width_of(cr, r.s, cut, face, size, r.bold);
			r = (struct word){ r.s + cut, r.len - cut, r.bold, 0, 1, 0 };
			r.w = width_of(cr, r.s, r.len, face, size, r.bold);
		}
		o[k++] = r;
	}
	free(w);
	*n = k;
	return o;
}

/*
 * Lay @text out in lines @width wide from @x; with @draw draw them, the
 * first baseline at *@y plus the ascent, and with @paginate start a new
 * page where a line does not fit.  *@y ends under the last line.
 * Return: the number of lines.
 */
static size_t flow(struct slc_pages *p, const char *text, const char *face, double size, double x, double width,
		   double *y, int draw, int paginate)
{
	double lh = size * LEADING, sp = width_of(p->cr, " ", 1, face, size, 0);
	size_t n = 0, lines = 0, a = 0;
	struct word *w = words_of(p->cr, text, face, size, &n);

	if (!w) {
		p->oom = 1;
		return 0;
	}
	w = split_long(p->cr, w, &n, width, face, size);
	while (a < n) {
		size_t b = a + 1;
		double used = w[a].w;
		for (;;) {
			size_t u = b;
			double uw = b < n && w[b].space ? sp : 0;
			if (b >= n) break;
			while (u < n && (u == b || !w[u].brk)) uw += w[u++].w;
			if (used + uw > width) break;
			used += uw;
			b = u;
		}
		if (paginate && draw && *y + lh > p->ph - p->bottom && *y > p->top) {
			new_page(p);
			*y = p->y;
		}
		if (draw)
			draw_line(p->cr, w, a, b, x, *y + size * 0.95, face, size);
		*y += lh;
		lines++;
		a = b;
	}
	free(w);
	return lines;
}

/* @s all bold (a copy to free), NULL when out of memory. */
static char *bolded(const char *s)
{
	size_t len = strlen(s);
	char *b = malloc(len + 2);

	if (b) {
		b[0] = '\x01';
		memcpy(b + 1, s, len + 1);
	}
	return b;
}

void slc_pages_heading(struct slc_pages *p, int level, const char *text)
{
	double size = level <= 1 ? 16 : level == 2 ? 12.5 : 10.5;
	char *t = clean(text, 0), *b, link[64];
	size_t lines;
	double y = 0;

	if (!t) {
		p->oom = 1;
		return;
	}
	lines = flow(p, t, PLOT_FONT, size, p->left, p->right - p->left, &y, 0, 0);
	/* the heading and three lines of what follows it on one page */
	need(p, (p->y > p->top ? size * 0.9 : 0) + (double)lines * size * LEADING + 3 * BODY_PT * LEADING);
	if (p->y > p->top)
		p->y += size * 0.9;
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	for (char *c = t; *c; c++)
		if (*c == '\x01' || *c == '\x02') *c = ' ';
	if (level <= 2) {
		snprintf(link, sizeof(link), "page=%d pos=[%.1f %.1f]", p->page, p->left, p->y);
		if (level <= 1)
			p->outline = cairo_pdf_surface_add_outline(p->surf, CAIRO_PDF_OUTLINE_ROOT, t, link, 0);
		else
			cairo_pdf_surface_add_outline(p->surf, p->outline, t, link, 0);
	}
	if ((b = bolded(t)))
		flow(p, b, PLOT_FONT, size, p->left, p->right - p->left, &p->y, 1, 1);
	else
		p->oom = 1;
	p->y += size * 0.35;
	free(b);
	free(t);
}

void slc_pages_para(struct slc_pages *p, const char *text)
{
	char *t = clean(text, 0);

	if (!t) {
		p->oom = 1;
		return;
	}
	need(p, 2 * BODY_PT * LEADING);
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	flow(p, t, PLOT_FONT, BODY_PT, p->left, p->right - p->left, &p->y, 1, 1);
	p->y += BODY_PT * 0.6;
	free(t);
}

void slc_pages_pre(struct slc_pages *p, const char *text)
{
	char *t = clean(text, 1), *line, *save = NULL;
	const double size = 7.5;

	if (!t) {
		p->oom = 1;
		return;
	}
	need(p, 3 * size * LEADING);
	cairo_set_source_rgb(p->cr, 0.1, 0.1, 0.1);
	/* each line on its own, its leading spaces kept as an indent (the words would drop them) */
	for (line = t; line; line = save) {
		size_t ind = strspn(line, " ");
		/* at most half the width: the text itself keeps room */
		double x = p->left + fmin(width_of(p->cr, " ", 1, MONO_FONT, size, 0) * (double)ind, (p->right - p->left) / 2);
		save = strchr(line, '\n');
		if (save) *save++ = '\0';
		if (!line[ind]) {
			need(p, size * LEADING);
			p->y += size * LEADING;
			continue;
		}
		flow(p, line + ind, MONO_FONT, size, x, p->right - x, &p->y, 1, 1);
	}
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	p->y += BODY_PT * 0.6;
	free(t);
}

static void add_cells(struct slc_pages *p, size_t cols, const char *const *cells)
{
	if (p->n_cells + cols > p->cap_cells) {
		size_t cap = (p->cap_cells + cols) * 2;
		char **c = realloc(p->cells, cap * sizeof(*c));
		if (!c) {
			p->oom = 1;
			return;
		}
		p->cells = c;
		p->cap_cells = cap;
	}
	for (size_t i = 0; i < cols; i++)
		if (!(p->cells[p->n_cells++] = clean(i < p->cols && cells[i] ? cells[i] : "", 0)))
			p->oom = 1;
}

void slc_pages_table(struct slc_pages *p, size_t cols, const char *const *head)
{
	slc_pages_table_end(p);
	/* the columns past the 16th are left out */
	p->cols = cols < 16 ? cols : 16;
	add_cells(p, p->cols, head);
}

void slc_pages_row(struct slc_pages *p, size_t cols, const char *const *cells)
{
	const char *c[16] = { 0 };

	for (size_t i = 0; i < cols && i < p->cols && i < 16; i++)
		c[i] = cells[i];
	if (p->cols)
		add_cells(p, p->cols, c);
}

/* The longest word of @s, measured. */
static double longest_word(cairo_t *cr, const char *s, double size, int bold)
{
	double m = 0;

	while (*s) {
		size_t len = strcspn(s, " ");
		if (len) m = fmax(m, width_of(cr, s, len, PLOT_FONT, size, bold));
		s += len + (s[len] == ' ');
	}
	return m;
}

/* Column widths for the collected table: each its text's width when all fit, else shared out. */
static double column_widths(struct slc_pages *p, double *w, double size, double pad)
{
	size_t rows = p->n_cells / p->cols;
	double nat[16] = { 0 }, min[16] = { 0 }, snat = 0, smin = 0, avail = p->right - p->left;

	for (size_t c = 0; c < p->cols; c++) {
		for (size_t r = 0; r < rows; r++) {
			const char *s = p->cells[r * p->cols + c];
			double whole = width_of(p->cr, s, strlen(s), PLOT_FONT, size, !r) + 2 * pad;
			nat[c] = fmax(nat[c], whole);
			/* a short cell on one line: a figure stays beside its unit ("1.85 GB", "26.2 MB/s") */
			min[c] = fmax(min[c], strlen(s) <= 12 ? whole : longest_word(p->cr, s, size, !r) + 2 * pad);
		}
		snat += nat[c];
		smin += min[c];
	}
	/* a column narrower than its longest word would break the word: smaller type instead */
	if (smin > avail && size > 5.5)
		return column_widths(p, w, fmax(5.5, size * avail / smin * 0.98), pad);
	for (size_t c = 0; c < p->cols; c++)
		w[c] = snat <= avail ? nat[c] : smin >= avail ? min[c] * avail / smin :
		       min[c] + (nat[c] - min[c]) * (avail - smin) / (snat - smin);
	return size;
}

/* Row @r of the table drawn (or only measured) at p->y; its height. */
static double table_row(struct slc_pages *p, size_t r, const double *w, double size, double pad, int draw)
{
	double x = p->left, h = 0, total = 0;

	for (size_t c = 0; c < p->cols; c++) {
		double y = 0;
		char *s = p->cells[r * p->cols + c];
		/* the head's cells bold */
		char *b = r ? s : bolded(s);
		if (!b) { p->oom = 1; continue; }
		flow(p, b, PLOT_FONT, size, 0, w[c] - 2 * pad, &y, 0, 0);
		h = fmax(h, y);
		if (b != s) free(b);
	}
	h += 2 * pad;
	for (size_t c = 0; c < p->cols; c++) total += w[c];
	if (!draw)
		return h;
	if (!r) {
		cairo_set_source_rgb(p->cr, 0.9, 0.9, 0.9);
		cairo_rectangle(p->cr, p->left, p->y, total, h);
		cairo_fill(p->cr);
	}
	cairo_set_source_rgb(p->cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(p->cr, 0.5);
	for (size_t c = 0; c < p->cols; c++) {
		cairo_rectangle(p->cr, x, p->y, w[c], h);
		cairo_stroke(p->cr);
		x += w[c];
	}
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	x = p->left;
	for (size_t c = 0; c < p->cols; c++) {
		double y = p->y + pad;
		char *s = p->cells[r * p->cols + c];
		char *b = r ? s : bolded(s);
		if (b) flow(p, b, PLOT_FONT, size, x + pad, w[c] - 2 * pad, &y, 1, 0);
		if (b != s) free(b);
		x += w[c];
	}
	p->y += h;
	return h;
}

void slc_pages_table_end(struct slc_pages *p)
{
	double w[16], pad = 3, size;
	size_t rows;

	if (!p->cols)
		return;
	rows = p->n_cells / p->cols;
	if (rows && !p->oom) {
		size = column_widths(p, w, p->cols > 4 ? 7.5 : 8.5, pad);
		/* the head and the first row together */
		need(p, table_row(p, 0, w, size, pad, 0) + (rows > 1 ? table_row(p, 1, w, size, pad, 0) : 0));
		table_row(p, 0, w, size, pad, 1);
		for (size_t r = 1; r < rows; r++) {
			if (p->y + table_row(p, r, w, size, pad, 0) > p->ph - p->bottom) {
				new_page(p);
				table_row(p, 0, w, size, pad, 1);
			}
			table_row(p, r, w, size, pad, 1);
		}
		p->y += BODY_PT * 0.8;
	}
	for (size_t i = 0; i < p->n_cells; i++)
		free(p->cells[i]);
	p->n_cells = 0;
	p->cols = 0;
}

void slc_pages_figure(struct slc_pages *p, const struct slc_plot_drawing *d, const char *caption)
{
	double dw, dh, cw = p->right - p->left, y = 0, capt_h, s;
	char *t = clean(caption ? caption : "", 0);

	if (!t) {
		p->oom = 1;
		return;
	}
	slc__plot_drawing_size(d, &dw, &dh);
	flow(p, t, PLOT_FONT, CAPTION_PT, 0, cw, &y, 0, 0);
	/* 4 pt above the graph, 6 between it and its caption, 8 under that */
	capt_h = y + 18;
	/* at most half the text area's height, caption included: two graphs a page */
	s = fmin(cw / dw, ((p->ph - p->top - p->bottom) / 2 - capt_h) / dh);
	need(p, dh * s + capt_h);
	cairo_save(p->cr);
	cairo_translate(p->cr, p->left + (cw - dw * s) / 2, p->y + 4);
	cairo_scale(p->cr, s, s);
	slc__plot_drawing_paint(p->cr, d);
	cairo_restore(p->cr);
	p->y += 4 + dh * s + 6;
	cairo_set_source_rgb(p->cr, 0.25, 0.25, 0.25);
	flow(p, t, PLOT_FONT, CAPTION_PT, p->left, cw, &p->y, 1, 1);
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	p->y += 8;
	free(t);
}

int slc_pages_close(struct slc_pages *p, char *err, size_t errlen)
{
	cairo_status_t cs;
	int rc = 0;

	slc_pages_table_end(p);
	if (!p->page)
		new_page(p);
	footer(p);
	cairo_show_page(p->cr);
	cs = cairo_status(p->cr);
	cairo_destroy(p->cr);
	cairo_surface_finish(p->surf);
	if (cs == CAIRO_STATUS_SUCCESS)
		cs = cairo_surface_status(p->surf);
	cairo_surface_destroy(p->surf);
	if (p->oom || cs == CAIRO_STATUS_NO_MEMORY)
		rc = slc__plot_fail(err, errlen, -ENOMEM, "out of memory");
	else if (p->write_failed || cs != CAIRO_STATUS_SUCCESS)
		rc = slc__plot_fail(err, errlen, -EIO, "PDF: %s", p->write_failed ? "cannot write" : cairo_status_to_string(cs));
	free(p->cells);
	free(p->title);
	free(p);
	return rc;
}
