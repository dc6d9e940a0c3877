// SPDX-License-Identifier: MIT
/* Helpers every importer shares (impbase.h). */
#include "impbase.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../private.h"
#include "input.h"

int slc__next_line(struct slc__lines *l, char *buf, size_t len)
{
	size_t n = 0;

	if (l->p >= l->end)
		return 0;
	l->lineno++;
	while (l->p < l->end && *l->p != '\n' && *l->p != '\r') {
		char c = *l->p++;

		if (c == '\0')
			return -EINVAL;
		if (n + 1 >= len)
			return -E2BIG;
		buf[n++] = c;
	}
	if (l->p < l->end && *l->p == '\r' && l->p + 1 < l->end && l->p[1] == '\n')
		l->p++;
	if (l->p < l->end)
		l->p++;
	buf[n] = 0;
	return 1;
}

int slc__blank_or_comment(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	return *line == 0 || *line == '#';
}

int slc__line_error(char *err, size_t errlen, int rc, const char *name, size_t lineno)
{
	if (rc == -E2BIG)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: longer than %d bytes", name, lineno,
				SLC__IMP_MAX_LINE - 2);
	return slc_errf(err, errlen, -EINVAL, "%s line %zu: binary data, not text", name, lineno);
}

const char *slc__base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* strdup() that maps NULL to NULL; sets *@rc to -ENOMEM on failure. */
static char *dup_or_null(const char *s, int *rc)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*rc = -ENOMEM;
	return d;
}

int slc__import_segment(struct slc_input *in, size_t n, double interval_s, uint32_t jobs, uint32_t block_bytes)
{
	struct slc_input_segment *seg;
	int rc = 0;

	in->segments = calloc(1, sizeof(*in->segments));
	if (!in->segments)
		return -ENOMEM;
	in->n_segments = 1;
	seg = in->segments;
	seg->params.step = dup_or_null("import", &rc);
	seg->params.workload = dup_or_null(slc_workload_name(SLC_WL_IMPORTED), &rc);
	seg->params.role = SLC_ROLE_IMPORTED;
	seg->params.data_pattern = dup_or_null("", &rc);
	seg->params.clock = dup_or_null("log", &rc);
	seg->params.interval_s = interval_s;
	seg->params.jobs = jobs;
	seg->params.block_bytes = block_bytes;
	if (rc)
		return rc;
	return slc__input_segment_alloc(seg, n);
}

int slc__import_meta(struct slc_input *in, const char *path, const char *notes)
{
	int rc = 0;

	in->meta.target = dup_or_null(path, &rc);
	in->meta.command_line = dup_or_null("", &rc);
	if (notes && notes[0])
		in->import_notes = dup_or_null(notes, &rc);
	return rc;
}

int slc__import_warn(struct slc_input *in, const char *fmt, ...)
{
	size_t old = in->import_warnings ? strlen(in->import_warnings) : 0;
	char msg[512], *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s = realloc(in->import_warnings, old + strlen(msg) + 3);
	if (!s)
		return -ENOMEM;
	if (old)
		memcpy(s + old, "; ", 3);
	else
		s[0] = 0;
	strcat(s, msg);
	in->import_warnings = s;
	return 0;
}

/* ---- the import record ------------------------------------------------- */

static void rec_put(struct slc__rec *r, const char *text)
{
	size_t len = strlen(text);

	if (r->full || r->n + len + 2 >= sizeof(r->s)) {
		r->full = 1;
		return;
	}
	memcpy(r->s + r->n, text, len + 1);
	r->n += len;
}

/* A JSON string of printable ASCII: other bytes become '?', at most 80 of them. */
static void rec_quote(struct slc__rec *r, const char *s)
{
	char q[200];
	size_t n = 0;

	q[n++] = '"';
	for (size_t i = 0; s[i] && i < 80; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			q[n++] = '\\';
		q[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	q[n++] = '"';
	q[n] = 0;
	rec_put(r, q);
}

static void rec_key(struct slc__rec *r, const char *key)
{
	if (r->n)
		rec_put(r, ",");
	rec_quote(r, key);
	rec_put(r, ":");
}

void slc__rec_str(struct slc__rec *r, const char *key, const char *val)
{
	rec_key(r, key);
	if (val)
		rec_quote(r, val);
	else
		rec_put(r, "null");
}

void slc__rec_num(struct slc__rec *r, const char *key, double val)
{
	char b[40];

	rec_key(r, key);
	if (!isfinite(val))
		snprintf(b, sizeof(b), "null");
	else
		snprintf(b, sizeof(b), "%.15g", val);
	rec_put(r, b);
}

void slc__rec_obj(struct slc__rec *r, const char *key, const struct slc__rec *sub)
{
	rec_key(r, key);
	rec_put(r, "{");
	rec_put(r, sub->s);
	rec_put(r, "}");
	r->full |= sub->full;
}

void slc__rec_col(struct slc__rec *r, const char *key, const char *name, const char *unit, double scale)
{
	struct slc__rec c = { .n = 0 };

	slc__rec_str(&c, "name", name);
	if (unit)
		slc__rec_str(&c, "unit", unit);
	if (scale > 0)
		slc__rec_num(&c, "scale", scale);
	slc__rec_obj(r, key, &c);
}

int slc__rec_store(struct slc_input *in, const struct slc__rec *r)
{
	size_t n = strlen(r->s);
	char *s = malloc(n + 3);

	if (!s)
		return -ENOMEM;
	s[0] = '{';
	memcpy(s + 1, r->s, n);
	s[n + 1] = '}';
	s[n + 2] = 0;
	free(in->import_record);
	in->import_record = s;
	return 0;
}

/* ---- curves -------------------------------------------------------------- */

int slc__curve_add(struct slc__curve *c, double t, double b)
{
	if (!isfinite(t) || !isfinite(b) || b < 0 || b > SLC__IMP_MAX_BYTES)
		return -ERANGE;
	if (t <= (c->n ? c->t[c->n - 1] : c->t0) || (c->n && b < c->b[c->n - 1]))
		return -EINVAL;
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 256;
		double *nt, *nb;

		if (c->n >= SLC__IMP_MAX_BINS)
			return -E2BIG;
		nt = realloc(c->t, ncap * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		c->t = nt;
		nb = realloc(c->b, ncap * sizeof(*nb));
		if (!nb)
			return -ENOMEM;
		c->b = nb;
		c->cap = ncap;
	}
	c->t[c->n] = t;
	c->b[c->n++] = b;
	return 0;
}

void slc__curve_free(struct slc__curve *c)
{
	free(c->t);
	free(c->b);
	memset(c, 0, sizeof(*c));
}

/* Bytes at time @t: linear between points, 0 before the start, the total after the end. */
static double curve_at(const struct slc__curve *c, double t, size_t *hint)
{
	size_t i = *hint;

	if (t <= c->t0 || !c->n)
		return 0;
	if (t >= c->t[c->n - 1])
		return c->b[c->n - 1];
	while (i < c->n && c->t[i] < t)
		i++;
	*hint = i;
	{
		double ta = i ? c->t[i - 1] : c->t0, ba = i ? c->b[i - 1] : 0;

		return ba + (c->b[i] - ba) * (t - ta) / (c->t[i] - ta);
	}
}

int slc__curve_sum(struct slc__curve *out, const struct slc__curve *in, size_t k, double g)
{
	double t0 = INFINITY, t1 = -INFINITY;
	size_t *hint = calloc(k ? k : 1, sizeof(*hint)), n;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!hint)
		return -ENOMEM;
	for (size_t j = 0; j < k; j++) {
		t0 = fmin(t0, in[j].t0);
		if (in[j].n)
			t1 = fmax(t1, in[j].t[in[j].n - 1]);
	}
	if (!(g > 0) || !(t1 > t0) || (t1 - t0) / g > (double)SLC__IMP_MAX_BINS) {
		free(hint);
		return -E2BIG;
	}
	out->t0 = t0;
	n = (size_t)ceil((t1 - t0) / g - 1e-9);
	for (size_t i = 1; i <= n && !rc; i++) {
		double t = i == n ? t1 : t0 + (double)i * g, b = 0;

		for (size_t j = 0; j < k; j++)
			b += curve_at(&in[j], t, &hint[j]);
		/* Rounding may make a sum dip by a fraction of a byte; never let it shrink. */
		if (out->n && b < out->b[out->n - 1])
			b = out->b[out->n - 1];
		rc = slc__curve_add(out, t, b);
	}
	free(hint);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double slc__curve_step(const struct slc__curve *c)
{
	double *d, m;

	if (c->n < 2)
		return c->n ? c->t[0] - c->t0 : 0;
	d = malloc((c->n - 1) * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 1; i < c->n; i++)
		d[i - 1] = c->t[i] - c->t[i - 1];
	qsort(d, c->n - 1, sizeof(*d), cmp_double);
	m = d[(c->n - 1) / 2];
	free(d);
	return m;
}

int slc__curve_segment(struct slc_input *in, const struct slc__curve *c, uint32_t jobs, uint32_t block_bytes)
{
	struct slc_input_segment *seg;
	int rc;

	if (c->n == 0)
		return -EINVAL;
	rc = slc__import_segment(in, c->n, (c->t[c->n - 1] - c->t0) / (double)c->n, jobs, block_bytes);
	if (rc)
		return rc;
	seg = in->segments;
	for (size_t i = 0; i < c->n; i++) {
		seg->t_s[i] = c->t[i] - c->t0;
		seg->interval_s[i] = c->t[i] - (i ? c->t[i - 1] : c->t0);
		seg->bytes_total[i] = (uint64_t)llround(c->b[i]);
	}
	slc__input_segment_derive_bw(seg);
	return 0;
}
