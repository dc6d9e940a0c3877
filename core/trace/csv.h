/* SPDX-License-Identifier: MIT */
/*
 * An RFC 4180 record reader for the CSV importer: quoted fields (with
 * separators, doubled quotes and line breaks inside), CRLF, LF or CR line
 * ends, a UTF-8 byte-order mark, and the separator (',' ';' or tab) found
 * from the header.  Numbers may use a decimal comma where the separator is
 * not a comma (or inside quotes).
 */
#ifndef SLCSCOPE_TRACE_CSV_H
#define SLCSCOPE_TRACE_CSV_H

#include <stddef.h>

#define SLC__CSV_MAX_RECORD 4096        /* bytes of one record, separators included */
#define SLC__CSV_MAX_FIELDS 64

struct slc__csv {
	const char *p, *end;
	size_t line;                     /* physical line of the record's first byte (1-based) */
	size_t next_line;
	char sep;                        /* 0 until the header has been read */
	int bom;                         /* the text began with a UTF-8 BOM */
	int nf;
	char *f[SLC__CSV_MAX_FIELDS];
	unsigned char quoted[SLC__CSV_MAX_FIELDS];
	char buf[SLC__CSV_MAX_RECORD + SLC__CSV_MAX_FIELDS];
};

/* Start reading @len bytes of @text (a BOM is skipped and remembered). */
void slc__csv_init(struct slc__csv *c, const char *text, size_t len);

/*
 * The next record that is not blank and not a '#' comment into c->f[0..nf).
 * Fields are trimmed of spaces outside quotes.  The first call picks the
 * separator from that record.  Returns 1, 0 at the end, or -E2BIG (record
 * too long), -EMLINK (too many fields), -EINVAL (a NUL byte: binary data),
 * -EBADMSG (a quote that never closes) with c->line naming the record.
 */
int slc__csv_next(struct slc__csv *c);

/* Field @i as a finite number (decimal comma allowed where unambiguous): 0 or -EINVAL. */
int slc__csv_num(const struct slc__csv *c, int i, double *out);

/* A finite number filling all of @s, '.' as the decimal mark: 0 or -EINVAL. */
int slc__parse_num(const char *s, double *out);

/* Like slc__parse_num(), also taking one ',' as the decimal mark when @comma_ok. */
int slc__parse_num_comma(const char *s, int comma_ok, double *out);

/* The separator's name for messages and the import record: "," ";" "tab". */
const char *slc__csv_sep_name(char sep);

#endif
