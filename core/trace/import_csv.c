// SPDX-License-Identifier: MIT
/*
 * CSV import (import_csv.h; docs/import.md): a time axis read from the file,
 * or a position axis (bytes written, or percent of the capacity) with the
 * time derived by integrating bytes over the speed.
 *
 * The text is untrusted: records are bounded (csv.h), numbers are checked
 * for range, an axis must not go backwards, and every failure gives one
 * line naming the file, the line and, where it helps, the option to use.
 */
#include "import_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../private.h"
#include "csv.h"
#include "impbase.h"
#include "input.h"

struct csv_cols {
	int time, rate, dir, pos;
	double time_scale_s;            /* seconds per time unit */
	double rate_scale_bps;          /* bytes/s per throughput unit */
	double pos_scale;               /* bytes per position unit; -1 percent of capacity */
	int chunks;                     /* the chunk layout: positions are chunk starts in MiB */
	int bits;                       /* a column in bits per second, -1 none */
	const char *time_unit, *rate_unit, *pos_unit;
	char tname[64], rname[64], dname[64], pname[64];  /* the header's names, for messages and the record */
};

static void lower_copy(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = 0;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

double slc__unit_time(const char *raw)
{
	static const char *const bare_s[] = { "t", "time", "second", "seconds", "sec", "secs", "s", "elapsed",
					      "timestamp", NULL };
	static const char *const bare_ms[] = { "ms", "msec", "millisecond", "milliseconds", NULL };
	static const char *const bases[] = { "t", "time", "elapsed", "timestamp", "clock", "runtime", NULL };
	static const struct { const char *unit; double s; } units[] = {
		{ "s", 1 }, { "sec", 1 }, { "secs", 1 }, { "second", 1 }, { "seconds", 1 },
		{ "ms", 1e-3 }, { "msec", 1e-3 }, { "us", 1e-6 }, { "usec", 1e-6 }, { "ns", 1e-9 },
		{ "min", 60 }, { "h", 3600 }, { "hour", 3600 }, { "hours", 3600 },
	};
	char s[128], *sep, *unit;
	size_t n = 0, bl;

	for (const char *p = raw; *p && n + 1 < sizeof(s); p++) {
		if (*p == ')' || *p == ']')
			continue;
		s[n++] = strchr("([ /", *p) ? '_' : (char)tolower((unsigned char)*p);
	}
	while (n && s[n - 1] == '_')
		n--;
	s[n] = 0;
	if (in_list(s, bare_s))
		return 1;
	if (in_list(s, bare_ms))
		return 1e-3;
	sep = strrchr(s, '_');
	if (!sep)
		return 0;
	unit = sep + 1;
	*sep = 0;
	while (sep > s && sep[-1] == '_')
		*--sep = 0;
	bl = strlen(s);
	if (!in_list(s, bases) && !(bl > 5 && strcmp(s + bl - 5, "_time") == 0))
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].unit) == 0)
			return units[i].s;
	return 0;
}

/* The byte-size prefix ending @s (length @len, the 'B' or "bytes" removed): bytes per unit, 0 unknown. */
static double size_prefix(const char *s, size_t len)
{
	if (len >= 2 && (s[len - 1] == 'i' || s[len - 1] == 'I')) {
		switch (tolower((unsigned char)s[len - 2])) {
		case 'k': return 1024.0;
		case 'm': return 1048576.0;
		case 'g': return 1073741824.0;
		case 't': return 1099511627776.0;
		default: return 0;
		}
	}
	if (len >= 1) {
		char c = s[len - 1];
		int alone = len == 1 || !isalpha((unsigned char)s[len - 2]) || isupper((unsigned char)c);

		if (alone) {
			switch (tolower((unsigned char)c)) {
			case 'k': return 1e3;
			case 'm': return 1e6;
			case 'g': return 1e9;
			case 't': return 1e12;
			default: break;
			}
		}
		if (isalnum((unsigned char)c) && alone)
			return 0;                     /* an unknown prefix letter */
	}
	return 1;
}

/*
 * "write_MiB_s", "MBps", "bytes_per_s", "bw (KiB/s)", "writeMibs", "mibps",
 * "MB_per_s", "kb/s": an upper-case prefix with a lower-case b means bits.
 */
double slc__unit_rate(const char *raw)
{
	static const char *const rates[] = { "_per_sec", "_per_s", "persec", "/sec", "_sec", "ps", "/s", "_s", NULL };
	char s[128];
	size_t n = 0, len;
	const char *stem_end = NULL;

	for (const char *p = raw; *p && n + 1 < sizeof(s); p++)
		if (!strchr(" ()[]", *p))
			s[n++] = *p;
	s[n] = 0;
	for (const char *const *r = rates; *r; r++) {
		size_t rl = strlen(*r);

		if (n > rl && strcasecmp(s + n - rl, *r) == 0) {
			s[n - rl] = 0;
			stem_end = s + n - rl;
			break;
		}
	}
	/* A bare 's' after a prefixed byte unit ("MiBs", "kbs"), not after any 'b' ("jobs"). */
	if (!stem_end && n >= 3 && (s[n - 1] == 's' || s[n - 1] == 'S') && strchr("bB", s[n - 2]) &&
	    strchr("kKmMgGtTiI", s[n - 3])) {
		s[n - 1] = 0;
		stem_end = s + n - 1;
	}
	if (!stem_end)
		return 0;
	len = (size_t)(stem_end - s);
	if (len >= 5 && strncasecmp(stem_end - 5, "bytes", 5) == 0) {
		len -= 5;
	} else if (len >= 1 && (stem_end[-1] == 'B' || stem_end[-1] == 'b')) {
		if (stem_end[-1] == 'b' && len >= 2 && isupper((unsigned char)stem_end[-2]))
			return -1;
		len -= 1;
	} else {
		return 0;
	}
	s[len] = 0;
	return size_prefix(s, len);
}

double slc__unit_size(const char *unit)
{
	static const struct { const char *u; double b; } units[] = {
		{ "b", 1 }, { "byte", 1 }, { "bytes", 1 }, { "kb", 1e3 }, { "kib", 1024.0 }, { "mb", 1e6 },
		{ "mib", 1048576.0 }, { "gb", 1e9 }, { "gib", 1073741824.0 }, { "tb", 1e12 },
		{ "tib", 1099511627776.0 }, { "sector", 512 }, { "sectors", 512 }, { "%", -1 }, { "percent", -1 },
		{ "pct", -1 },
	};
	char s[32];

	lower_copy(s, unit, sizeof(s));
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(s, units[i].u) == 0)
			return units[i].b;
	return 0;
}

/*
 * A position column: one size unit (or '%') and otherwise only words that
 * say where the write is ("written_GB", "Position (%)", "MB", "bytes_written").
 */
static double pos_unit(const char *raw, const char **unit_out)
{
	static const char *const words[] = { "written", "write", "writes", "wr", "pos", "position", "offset",
					     "lba", "data", "amount", "total", "fill", "filled", "progress",
					     "addr", "address", "capacity", "host", "of", NULL };
	static const char *const units[] = { "B", "bytes", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB",
					     "sectors", "%" };
	double found = 0;
	const char *p = raw;

	while (*p) {
		char tok[32], low[32];
		size_t n = 0;

		if (*p == '%') {
			tok[n++] = *p++;
		} else if (isalnum((unsigned char)*p)) {
			while (isalnum((unsigned char)*p) && n + 1 < sizeof(tok))
				tok[n++] = *p++;
		} else {
			p++;
			continue;
		}
		tok[n] = 0;
		lower_copy(low, tok, sizeof(low));
		if (slc__unit_size(tok) != 0 && found == 0) {
			found = slc__unit_size(tok);
			for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
				if (slc__unit_size(units[i]) == found)
					*unit_out = units[i];
		} else if (!in_list(low, words)) {
			return 0;
		}
	}
	return found;
}

/* Only columns named as one: a generic 'type' may hold anything. */
static int is_dir_column(const char *raw)
{
	static const char *const names[] = { "ddir", "dir", "direction", "rw", "op", "operation", "io_dir",
					     "io_direction", NULL };
	char s[64];

	lower_copy(s, raw, sizeof(s));
	return in_list(s, names);
}

/* 1 write, 0 other direction, -1 unknown. */
static int dir_is_write(const char *raw)
{
	static const char *const w[] = { "write", "writes", "w", "wr", "1", NULL };
	static const char *const o[] = { "read", "reads", "r", "rd", "0", "trim", "discard", "2", NULL };
	char s[32];

	lower_copy(s, raw, sizeof(s));
	if (in_list(s, w))
		return 1;
	return in_list(s, o) ? 0 : -1;
}

/* The header as one line for messages, cut to fit. */
static const char *header_text(char *buf, size_t len, const struct slc__csv *c)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < c->nf && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? (c->sep == '\t' ? "\t" : c->sep == ';' ? ";" : ",") : "",
				      c->f[i]);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
	return buf;
}

static int find_col(const struct slc__csv *c, const char *want, const char *opt, const char *name, char *err,
		    size_t errlen)
{
	char h[160];

	for (int i = 0; i < c->nf; i++)
		if (strcasecmp(c->f[i], want) == 0)
			return i;
	return slc_errf(err, errlen, -EINVAL, "%s: %s '%.40s' is not in the header '%s'", name, opt, want,
			header_text(h, sizeof(h), c));
}

/* Columns from the header's names and units. */
static int infer_cols(const struct slc__csv *c, struct csv_cols *k, const char *name, char *err, size_t errlen)
{
	int write_rate = -1;

	for (int i = 0; i < c->nf; i++) {
		const char *f = c->f[i], *pu = NULL;
		double ts = slc__unit_time(f), rs, ps;
		char low[128];

		if (k->time < 0 && ts > 0) {
			k->time = i;
			k->time_scale_s = ts;
			continue;
		}
		if (k->dir < 0 && is_dir_column(f)) {
			k->dir = i;
			continue;
		}
		rs = slc__unit_rate(f);
		if (rs < 0 && k->bits < 0)
			k->bits = i;
		lower_copy(low, f, sizeof(low));
		if (rs < 0)
			continue;
		if (rs == 0) {
			if (k->pos < 0 && (ps = pos_unit(f, &pu)) != 0) {
				k->pos = i;
				k->pos_scale = ps;
				k->pos_unit = pu;
			}
			continue;
		}
		if (strstr(low, "read") || strstr(low, "trim"))
			continue;
		if (strstr(low, "write") && write_rate < 0) {
			write_rate = i;
			k->rate_scale_bps = rs;
		} else if (k->rate < 0 && write_rate < 0) {
			k->rate = i;
			k->rate_scale_bps = rs;
		}
	}
	if (write_rate >= 0)
		k->rate = write_rate;
	return 0;
}

/* The chunk files of linear-write test tools: N,MB,min,avgMin,avg,avgMax,max, binary MB. */
static void chunk_layout(const struct slc__csv *c, struct csv_cols *k)
{
	static const char *const names[] = { "n", "mb", "min", "avgmin", "avg", "avgmax", "max" };
	char low[16];

	if (c->nf != 7)
		return;
	for (int i = 0; i < 7; i++) {
		lower_copy(low, c->f[i], sizeof(low));
		if (strcmp(low, names[i]) != 0)
			return;
	}
	k->chunks = 1;
	k->pos = 1;
	k->pos_scale = 1048576.0;
	k->pos_unit = "MiB";
	k->rate = 4;
	k->rate_scale_bps = 1048576.0;
	k->rate_unit = "MiB/s";
	k->time = -1;
}

/* The columns named by the options replace what the names suggest. */
static int option_cols(const struct slc__csv *c, struct csv_cols *k, const struct slc_import_opts *o,
		       const char *name, char *err, size_t errlen)
{
	int i;

	if (o->time_col.name[0]) {
		if ((i = find_col(c, o->time_col.name, "--time-col", name, err, errlen)) < 0)
			return i;
		k->time = i;
		k->time_scale_s = o->time_col.scale > 0 ? o->time_col.scale : slc__unit_time(c->f[i]);
		if (!(k->time_scale_s > 0))
			k->time_scale_s = 1;
		k->time_unit = o->time_col.unit[0] ? o->time_col.unit : NULL;
	} else if (o->bytes_col.name[0]) {
		k->time = -1;        /* a position named on its own: the bytes axis */
	}
	if (o->rate_col.name[0]) {
		if ((i = find_col(c, o->rate_col.name, "--rate-col", name, err, errlen)) < 0)
			return i;
		k->rate = i;
		k->rate_scale_bps = o->rate_col.scale > 0 ? o->rate_col.scale : slc__unit_rate(c->f[i]);
		if (!(k->rate_scale_bps > 0))
			return slc_errf(err, errlen, -EINVAL, "%s: --rate-col %s needs a unit (%s:MiB/s)", name,
					o->rate_col.name, o->rate_col.name);
		k->rate_unit = o->rate_col.unit[0] ? o->rate_col.unit : NULL;
	}
	if (o->bytes_col.name[0]) {
		const char *pu = NULL;

		if ((i = find_col(c, o->bytes_col.name, "--bytes-col", name, err, errlen)) < 0)
			return i;
		k->pos = i;
		k->pos_scale = o->bytes_col.scale != 0 ? o->bytes_col.scale : pos_unit(c->f[i], &pu);
		k->pos_unit = o->bytes_col.unit[0] ? o->bytes_col.unit : pu;
		k->chunks = 0;
		if (k->pos_scale == 0)
			return slc_errf(err, errlen, -EINVAL, "%s: --bytes-col %s needs a unit (%s:MiB, %s:%%)", name,
					o->bytes_col.name, o->bytes_col.name, o->bytes_col.name);
	}
	if (o->ddir_col[0]) {
		if ((i = find_col(c, o->ddir_col, "--ddir-col", name, err, errlen)) < 0)
			return i;
		k->dir = i;
	}
	return 0;
}

static int csv_header(const struct slc__csv *c, struct csv_cols *k, const struct slc_import_opts *o,
		      const char *name, char *err, size_t errlen)
{
	char h[160];
	int rc;

	k->time = k->rate = k->dir = k->pos = k->bits = -1;
	if ((rc = infer_cols(c, k, name, err, errlen)))
		return rc;
	if (k->time < 0 && k->rate < 0)
		chunk_layout(c, k);
	if (o && (rc = option_cols(c, k, o, name, err, errlen)))
		return rc;
	if (k->time < 0 && k->pos < 0)
		return slc_errf(err, errlen, -EINVAL,
				"%s: no time column (or bytes-written column) in the header '%s'; name one with "
				"--time-col NAME[:UNIT] or --bytes-col NAME:UNIT", name, header_text(h, sizeof(h), c));
	if (k->rate < 0 && k->bits >= 0)
		return slc_errf(err, errlen, -EINVAL,
				"%s: column '%.40s' is in bits per second; give bytes (B) per second "
				"(--rate-col '%.40s:MB/s' if it is bytes after all)", name, c->f[k->bits], c->f[k->bits]);
	if (k->rate < 0)
		return slc_errf(err, errlen, -EINVAL,
				"%s: no throughput column with a unit in the header '%s'; name it with "
				"--rate-col NAME:UNIT (e.g. write_MiB_s, MBps, bytes_per_s are found alone)", name,
				header_text(h, sizeof(h), c));
	if (k->time < 0 && k->pos_scale < 0 && !(o && o->capacity_bytes))
		return slc_errf(err, errlen, -EINVAL,
				"%s: column '%.40s' is a percentage of the capacity; give the drive's --capacity", name,
				c->f[k->pos]);
	snprintf(k->tname, sizeof(k->tname), "%s", k->time >= 0 ? c->f[k->time] : "");
	snprintf(k->rname, sizeof(k->rname), "%s", c->f[k->rate]);
	snprintf(k->dname, sizeof(k->dname), "%s", k->dir >= 0 ? c->f[k->dir] : "");
	snprintf(k->pname, sizeof(k->pname), "%s", k->pos >= 0 ? c->f[k->pos] : "");
	return 0;
}

struct csv_row {
	double t_s;                     /* time, or position in bytes on the bytes axis */
	double bps;
	size_t line;
};

/* The data rows kept so far: writes only, one per time step. */
struct csv_rows {
	struct csv_row *r;
	size_t n, cap;
	size_t merged, skipped;         /* for the import notes */
};

static int record_error(const struct slc__csv *c, int r, const char *name, char *err, size_t errlen)
{
	switch (r) {
	case -EMLINK:
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: more than %d columns", name, c->line,
				SLC__CSV_MAX_FIELDS);
	case -EBADMSG:
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: a quoted field is never closed", name, c->line);
	default:
		return slc__line_error(err, errlen, r, name, c->next_line);
	}
}

/* Room for one more row; -ENOMEM past the sample limit. */
static int csv_grow(struct csv_rows *rows, const char *name, char *err, size_t errlen)
{
	size_t ncap = rows->cap ? (rows->cap * 2 < SLC__IMP_MAX_BINS ? rows->cap * 2 : SLC__IMP_MAX_BINS) : 256;
	struct csv_row *nr = rows->n >= SLC__IMP_MAX_BINS ? NULL : realloc(rows->r, ncap * sizeof(*rows->r));

	if (!nr)
		return slc_errf(err, errlen, -ENOMEM, "%s: more than 2 million rows", name);
	rows->r = nr;
	rows->cap = ncap;
	return 0;
}

/* The axis value (time in s, or position in bytes) and the speed of the record; 1 skip, 0 keep. */
static int csv_values(const struct slc__csv *c, const struct csv_cols *k, const struct slc_import_opts *o,
		      int nf_header, double *x, double *v, const char *name, char *err, size_t errlen)
{
	int ax = k->time >= 0 ? k->time : k->pos;

	if (c->nf != nf_header)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: %d fields, the header has %d", name, c->line,
				c->nf, nf_header);
	for (int i = 0; i < 2; i++) {
		int col = i ? k->rate : ax;

		if (slc__csv_num(c, col, i ? v : x))
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: not a number: '%.20s' in column '%s'",
					name, c->line, c->f[col], i ? k->rname : k->time >= 0 ? k->tname : k->pname);
	}
	*v *= k->rate_scale_bps;
	if (k->time >= 0)
		*x *= k->time_scale_s;
	else
		*x *= k->pos_scale < 0 ? (double)o->capacity_bytes / 100.0 : k->pos_scale;
	if (k->time >= 0 && (*x < 0 || *x > SLC__IMP_MAX_TIME_S))
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: time out of range", name, c->line);
	if (k->time < 0 && (*x < 0 || *x > SLC__IMP_MAX_BYTES))
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: position out of range", name, c->line);
	if (*v < 0 || *v > SLC__IMP_MAX_RATE_BPS)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: throughput out of range (0 to 1 PB/s)", name,
				c->line);
	if (k->dir >= 0) {
		int w = dir_is_write(c->f[k->dir]);

		if (w < 0)
			return slc_errf(err, errlen, -EINVAL,
					"%s line %zu: unknown direction '%.20s' in column '%.40s' (write/w/1, read/r/0, "
					"trim/2; name another column with --ddir-col)", name, c->line, c->f[k->dir],
					k->dname);
		if (!w)
			return 1;
	}
	return 0;
}

/* One record: kept, summed into the row before (same time) or skipped. */
static int csv_add_row(struct csv_rows *rows, const struct slc__csv *c, const struct csv_cols *k,
		       const struct slc_import_opts *o, int nf_header, const char *name, char *err, size_t errlen)
{
	double t, v;
	int rc = csv_values(c, k, o, nf_header, &t, &v, name, err, errlen);

	if (rc < 0)
		return rc;
	if (rc) {
		rows->skipped++;
		return 0;
	}
	if (k->time < 0 && rows->n && t <= rows->r[rows->n - 1].t_s)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: position does not increase", name, c->line);
	if (rows->n && t < rows->r[rows->n - 1].t_s)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: time goes backwards", name, c->line);
	if (rows->n && t == rows->r[rows->n - 1].t_s) {
		/* Same time step again (one row per job or direction): sum. */
		rows->r[rows->n - 1].bps += v;
		rows->merged++;
		return 0;
	}
	if (rows->n == rows->cap && (rc = csv_grow(rows, name, err, errlen)))
		return rc;
	rows->r[rows->n].t_s = t;
	rows->r[rows->n].bps = v;
	rows->r[rows->n].line = c->line;
	rows->n++;
	return 0;
}

/* The samples of the one segment; each row's time is the end of its interval. */
static int csv_fill_segment(struct slc_input_segment *seg, const struct csv_rows *rows, const char *name, char *err,
			    size_t errlen)
{
	const struct csv_row *r = rows->r;
	/* The first interval is as long as the second. */
	double origin = r[0].t_s - (r[1].t_s - r[0].t_s), cum = 0, dts_sum = 0;

	for (size_t i = 0; i < rows->n; i++) {
		double dt = i ? r[i].t_s - r[i - 1].t_s : r[1].t_s - r[0].t_s;

		cum += r[i].bps * dt;
		dts_sum += dt;
		if (cum > SLC__IMP_MAX_BYTES)
			return slc_errf(err, errlen, -ERANGE, "%s: total bytes overflow", name);
		seg->t_s[i] = r[i].t_s - origin;
		seg->interval_s[i] = dt;
		seg->bytes_total[i] = (uint64_t)llround(cum);
	}
	seg->params.interval_s = dts_sum / (double)rows->n;
	slc__input_segment_derive_bw(seg);
	return 0;
}

/*
 * The bytes axis: each row is a stretch of the write at one speed, its
 * time the bytes over the speed.  Positions are the stretch's start when
 * the first is 0 (or in the chunk layout) and the last stretch is as long
 * as the one before; otherwise they are its end, and the first stretch
 * starts at 0 unless it would be much longer than the next (then it is as
 * long as the second, and what came before was not recorded).
 */
static int bytes_axis_curve(struct slc__curve *cv, const struct csv_rows *rows, int starts, const char *name,
			    char *err, size_t errlen)
{
	const struct csv_row *r = rows->r;
	double step = r[1].t_s - r[0].t_s, base, t = 0;
	int rc;

	base = starts ? r[0].t_s : (r[0].t_s <= 1.5 * step ? 0 : r[0].t_s - step);
	cv->t0 = 0;
	for (size_t i = 0; i < rows->n; i++) {
		double a = starts ? r[i].t_s : (i ? r[i - 1].t_s : base);
		double b = starts ? (i + 1 < rows->n ? r[i + 1].t_s : r[i].t_s + (r[i].t_s - r[i - 1].t_s)) : r[i].t_s;

		if (!(r[i].bps > 0))
			return slc_errf(err, errlen, -EINVAL,
					"%s line %zu: speed 0 over %.0f bytes: no time can be derived for them", name,
					r[i].line, b - a);
		t += (b - a) / r[i].bps;
		if (t > SLC__IMP_MAX_TIME_S)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: derived time out of range", name, r[i].line);
		if ((rc = slc__curve_add(cv, t, b - base)))
			return slc_errf(err, errlen, rc == -ENOMEM ? -ENOMEM : -EINVAL, "%s line %zu: %s", name,
					r[i].line, rc == -ENOMEM ? "out of memory" : "no time can be derived");
	}
	return 0;
}

/* The unit a scale stands for, for the record ("MiB/s" for 1048576 bytes/s). */
static const char *scale_name(double scale, int kind)
{
	static const struct { double v; const char *t, *r, *b; } u[] = {
		{ 1, "s", "B/s", "B" }, { 1e-3, "ms", NULL, NULL }, { 1e-6, "us", NULL, NULL }, { 1e-9, "ns", NULL, NULL },
		{ 60, "min", NULL, NULL }, { 3600, "h", NULL, NULL }, { 1e3, NULL, "kB/s", "kB" },
		{ 1024, NULL, "KiB/s", "KiB" }, { 1e6, NULL, "MB/s", "MB" }, { 1048576, NULL, "MiB/s", "MiB" },
		{ 1e9, NULL, "GB/s", "GB" }, { 1073741824.0, NULL, "GiB/s", "GiB" }, { 1e12, NULL, "TB/s", "TB" },
		{ 1099511627776.0, NULL, "TiB/s", "TiB" }, { 512, NULL, NULL, "sectors" }, { -1, NULL, NULL, "%" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (u[i].v == scale)
			return kind == 't' ? u[i].t : kind == 'r' ? u[i].r : u[i].b;
	return NULL;
}

static void csv_record(struct slc_input *in, const struct slc__csv *c, const struct csv_cols *k,
		       const struct slc_import_opts *o, int starts)
{
	struct slc__rec r = { .n = 0 }, cols = { .n = 0 };

	slc__rec_str(&r, "format", k->time >= 0 ? "csv" : k->chunks ? "csv-bytes (chunk layout)" : "csv-bytes");
	slc__rec_str(&r, "separator", slc__csv_sep_name(c->sep));
	slc__rec_str(&r, "decimal_mark", c->sep != ',' ? "',' or '.'" : "'.'");
	if (c->bom)
		slc__rec_str(&r, "bom", "utf-8");
	if (k->time >= 0)
		slc__rec_col(&cols, "time", k->tname, k->time_unit ? k->time_unit : scale_name(k->time_scale_s, 't'),
			     k->time_scale_s);
	else
		slc__rec_col(&cols, "position", k->pname, k->pos_unit ? k->pos_unit : scale_name(k->pos_scale, 'b'),
			     k->pos_scale);
	slc__rec_col(&cols, "rate", k->rname, k->rate_unit ? k->rate_unit : scale_name(k->rate_scale_bps, 'r'),
		     k->rate_scale_bps);
	if (k->dir >= 0)
		slc__rec_col(&cols, "direction", k->dname, NULL, 0);
	slc__rec_obj(&r, "columns", &cols);
	if (k->time >= 0) {
		slc__rec_str(&r, "time_axis", "read: each row's time is the end of its interval");
	} else {
		slc__rec_str(&r, "time_axis", "derived: bytes of each row over its speed, summed");
		slc__rec_str(&r, "position_is", starts ? "start of the row's stretch" : "end of the row's stretch");
		if (k->pos_scale < 0)
			slc__rec_num(&r, "capacity_bytes", (double)o->capacity_bytes);
	}
	slc__rec_store(in, &r);
}

static int csv_build(struct slc_input *in, const struct slc__csv *c, const struct csv_cols *k,
		     const struct slc_import_opts *o, const struct csv_rows *rows, const char *name, char *err,
		     size_t errlen)
{
	char notes[256] = "";
	int starts = k->chunks || rows->r[0].t_s == 0, rc;
	struct slc__curve cv = { 0 };

	if (rows->merged)
		snprintf(notes, sizeof(notes), "%zu rows sharing a time step with the row before were summed",
			 rows->merged);
	if (rows->skipped)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%s%zu non-write rows skipped",
			 notes[0] ? "; " : "", rows->skipped);
	if (k->time < 0)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%stime derived from bytes and speed",
			 notes[0] ? "; " : "");
	rc = slc__import_meta(in, name, notes);
	if (!rc && k->time >= 0)
		rc = slc__import_segment(in, rows->n, rows->r[1].t_s - rows->r[0].t_s, 1, 0);
	if (rc)
		return slc_errf(err, errlen, rc, "out of memory");
	if (k->time >= 0) {
		rc = csv_fill_segment(in->segments, rows, name, err, errlen);
	} else {
		rc = bytes_axis_curve(&cv, rows, starts, name, err, errlen);
		if (!rc && slc__curve_segment(in, &cv, 1, k->chunks ? 4u << 20 : 0))
			rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		slc__curve_free(&cv);
	}
	if (rc)
		return rc;
	in->format = k->time >= 0 ? SLC_INPUT_CSV : SLC_INPUT_CSV_BYTES;
	csv_record(in, c, k, o, starts);
	if (k->chunks)
		slc__import_warn(in, "chunk layout N,MB,min,avgMin,avg,avgMax,max: 'MB' read as MiB before each "
				     "chunk and speeds as MiB/s (give --bytes-col MB:MB --rate-col avg:MB/s if decimal)");
	return 0;
}

int slc__csv_import(struct slc_input *in, const char *name, const char *text, size_t len,
		    const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct slc__csv *c = malloc(sizeof(*c));
	struct csv_cols k = { 0 };
	struct csv_rows rows = { 0 };
	int nf_header, r, rc;

	if (!c)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	slc__csv_init(c, text, len);
	r = slc__csv_next(c);
	if (r <= 0) {
		rc = r ? record_error(c, r, name, err, errlen) : slc_errf(err, errlen, -EINVAL, "%s: empty file", name);
		goto out;
	}
	nf_header = c->nf;
	if ((rc = csv_header(c, &k, opts, name, err, errlen)))
		goto out;
	while (!rc && (r = slc__csv_next(c)) > 0)
		rc = csv_add_row(&rows, c, &k, opts, nf_header, name, err, errlen);
	if (!rc && r < 0)
		rc = record_error(c, r, name, err, errlen);
	if (!rc && rows.n < 2)
		rc = slc_errf(err, errlen, -EINVAL, "%s: %s", name,
			      rows.n ? (k.time >= 0 ? "only one time step; need two to know the interval"
						    : "only one row; need two to know the stretch")
				     : "no data rows");
	if (!rc)
		rc = csv_build(in, c, &k, opts, &rows, name, err, errlen);
out:
	free(rows.r);
	free(c);
	return rc;
}
