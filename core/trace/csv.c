// SPDX-License-Identifier: MIT
/* The CSV record reader (csv.h). */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void slc__csv_init(struct slc__csv *c, const char *text, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->p = text;
	c->end = text + len;
	c->next_line = 1;
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		c->p += 3;
		c->bom = 1;
	}
}

/* At a line end?  Consumes it (CRLF as one) and counts the line. */
static int eat_eol(struct slc__csv *c)
{
	if (c->p >= c->end)
		return 1;
	if (*c->p == '\n' || *c->p == '\r') {
		if (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')
			c->p++;
		c->p++;
		c->next_line++;
		return 1;
	}
	return 0;
}

static int is_blank(char ch, char sep)
{
	return ch == ' ' || (ch == '\t' && sep != '\t');
}

/* Skip blank and '#' lines; 0 when a record starts at c->p, 1 at the end. */
static int skip_noise(struct slc__csv *c)
{
	while (c->p < c->end) {
		const char *q = c->p;

		while (q < c->end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < c->end && *q != '#' && *q != '\n' && *q != '\r')
			return 0;
		while (q < c->end && *q != '\n' && *q != '\r')
			q++;
		c->p = q;
		eat_eol(c);
	}
	return 1;
}

/* The separator of the record at c->p: the most frequent of , ; tab outside quotes. */
static char detect_sep(const struct slc__csv *c)
{
	size_t n[3] = { 0, 0, 0 };
	int inq = 0;

	for (const char *q = c->p; q < c->end && (inq || (*q != '\n' && *q != '\r')); q++) {
		if (*q == '"')
			inq = !inq;
		else if (!inq && (*q == ',' || *q == ';' || *q == '\t'))
			n[*q == ',' ? 0 : *q == ';' ? 1 : 2]++;
	}
	if (n[1] > n[0] && n[1] >= n[2])
		return ';';
	if (n[2] > n[0] && n[2] > n[1])
		return '\t';
	return ',';
}

/* One field into the buffer at @o; returns the new fill or a negative errno. */
static long read_field(struct slc__csv *c, size_t o, int *quoted)
{
	const size_t cap = sizeof(c->buf) - 1;
	size_t keep = o;

	/* a record that filled the buffer leaves no room for this field's
	 * terminator, even an empty field's */
	if (o > cap)
		return -E2BIG;
	while (c->p < c->end && is_blank(*c->p, c->sep))
		c->p++;
	*quoted = c->p < c->end && *c->p == '"';
	if (*quoted) {
		for (c->p++;; c->p++) {
			if (c->p >= c->end)
				return -EBADMSG;
			if (*c->p == '"') {
				if (c->p + 1 < c->end && c->p[1] == '"') {
					c->p++;
				} else {
					c->p++;
					break;
				}
			} else if (*c->p == '\0') {
				return -EINVAL;
			} else if (*c->p == '\n' || (*c->p == '\r' && !(c->p + 1 < c->end && c->p[1] == '\n'))) {
				c->next_line++;
			}
			if (o >= cap)
				return -E2BIG;
			c->buf[o++] = *c->p;
		}
		keep = o;
	}
	/* Unquoted text, or anything between a closing quote and the separator. */
	while (c->p < c->end && *c->p != c->sep && *c->p != '\n' && *c->p != '\r') {
		if (*c->p == '\0')
			return -EINVAL;
		if (o >= cap)
			return -E2BIG;
		c->buf[o++] = *c->p++;
		if (!is_blank(c->buf[o - 1], c->sep))
			keep = o;
	}
	c->buf[keep] = 0;
	return (long)keep + 1;
}

int slc__csv_next(struct slc__csv *c)
{
	size_t o = 0;

	if (skip_noise(c))
		return 0;
	c->line = c->next_line;
	if (!c->sep)
		c->sep = detect_sep(c);
	c->nf = 0;
	for (;;) {
		int q;
		long r;

		if (c->nf == SLC__CSV_MAX_FIELDS)
			return -EMLINK;
		r = read_field(c, o, &q);
		if (r < 0)
			return (int)r;
		c->f[c->nf] = c->buf + o;
		c->quoted[c->nf++] = (unsigned char)q;
		o = (size_t)r;
		if (eat_eol(c))
			return 1;
		c->p++;               /* the separator */
	}
}

int slc__parse_num(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(*out))
		return -EINVAL;
	return 0;
}

int slc__parse_num_comma(const char *s, int comma_ok, double *out)
{
	const char *comma = strchr(s, ',');
	char tmp[64];
	size_t n = strlen(s);

	if (!comma)
		return slc__parse_num(s, out);
	if (!comma_ok || strchr(comma + 1, ',') || strchr(s, '.') || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n + 1);
	tmp[comma - s] = '.';
	return slc__parse_num(tmp, out);
}

int slc__csv_num(const struct slc__csv *c, int i, double *out)
{
	return slc__parse_num_comma(c->f[i], c->sep != ',' || c->quoted[i], out);
}

const char *slc__csv_sep_name(char sep)
{
	return sep == '\t' ? "tab" : sep == ';' ? ";" : ",";
}
