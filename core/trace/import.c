// SPDX-License-Identifier: MIT
/*
 * Importers: fio bandwidth/IOPS logs and CSV files of time and throughput,
 * each turned into one segment of samples (docs/trace-format.md, "Import").
 *
 * The parsers take untrusted text: every line is bounded, every number is
 * checked for range, time must not go backwards, and any failure gives a
 * one-line reason naming the file and line.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import.h"

#include "../private.h"
#include "input.h"

#define MAX_LINE 4096
#define MAX_FIELDS 64
#define MAX_FILE_BYTES ((size_t)1 << 30)
#define MAX_FIO_JOBS 1024
#define MAX_BINS SLC__INPUT_MAX_SAMPLES
#define MAX_LINES 10000000ull            /* fio write lines per job */
#define MAX_TIME_S SLC__INPUT_MAX_TIME_S
#define MAX_RATE_BPS SLC__INPUT_MAX_RATE_BPS
#define MAX_BYTES SLC__INPUT_MAX_BYTES
#define EPOCH_MS 1e12                    /* fio log_unix_epoch times start above this (2001) */

/* ---- line reading ---------------------------------------------------- */

struct lines {
	const char *p, *end;
	size_t lineno;
};

/* Next line into @buf without the end of line; 1 got one, 0 end, -EINVAL too long or binary. */
static int next_line(struct lines *l, char *buf, size_t len)
{
	size_t n = 0;

	if (l->p >= l->end)
		return 0;
	l->lineno++;
	while (l->p < l->end && *l->p != '\n') {
		char c = *l->p++;

		if (c == '\0')
			return -EINVAL;
		if (n + 1 >= len)
			return -E2BIG;
		buf[n++] = c;
	}
	if (l->p < l->end)
		l->p++;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = 0;
	return 1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	if (e - s >= 2 && s[0] == '"' && e[-1] == '"') {
		e[-1] = 0;
		s++;
	}
	return s;
}

static int split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == max)
			return -1;
		if (c)
			*c = 0;
		fields[n++] = trim(p);
		if (!c)
			return n;
		p = c + 1;
	}
}

static int blank_or_comment(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	return *line == 0 || *line == '#';
}

/* A finite number filling the whole field. */
static int parse_num(const char *s, double *out)
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

static int line_error(char *err, size_t errlen, int rc, const char *name, size_t lineno)
{
	if (rc == -E2BIG)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: longer than %d bytes", name, lineno, MAX_LINE - 2);
	return slc_errf(err, errlen, -EINVAL, "%s line %zu: binary data, not text", name, lineno);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ---- building the segment --------------------------------------------- */

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

static int make_segment(struct slc_input *in, size_t n, double interval_s, uint32_t jobs, uint32_t block_bytes)
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

static int set_meta(struct slc_input *in, const char *path, const char *notes)
{
	int rc = 0;

	in->meta.target = dup_or_null(path, &rc);
	in->meta.command_line = dup_or_null("", &rc);
	if (notes && notes[0])
		in->import_notes = dup_or_null(notes, &rc);
	return rc;
}

/* ---- CSV --------------------------------------------------------------- */

struct csv_cols {
	int time, rate, dir;
	double time_scale_s;            /* seconds per time unit */
	double rate_scale_bps;          /* bytes/s per throughput unit */
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

/* Seconds per unit for a time column name, 0 if the name is not a time column. */
static double time_unit(const char *raw)
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

/*
 * Bytes/s per unit for a throughput column name ("write_MiB_s", "MBps",
 * "bytes_per_s", "bw (KiB/s)"); 0 if it is not one, -1 for bits per second.
 */
static double rate_unit(const char *raw)
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
	if (!stem_end)
		return 0;
	len = (size_t)(stem_end - s);
	if (len >= 5 && strncasecmp(stem_end - 5, "bytes", 5) == 0) {
		len -= 5;
	} else if (len >= 1 && (stem_end[-1] == 'B' || stem_end[-1] == 'b')) {
		/* "Mb/s", "Gbps": an upper-case prefix with a lower-case b means bits. */
		if (stem_end[-1] == 'b' && len >= 2 && isupper((unsigned char)stem_end[-2]))
			return -1;
		len -= 1;
	} else {
		return 0;
	}
	s[len] = 0;
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

static int is_dir_column(const char *raw)
{
	static const char *const names[] = { "ddir", "dir", "direction", "rw", "op", "operation", "type", "io_type",
					     "iotype", NULL };
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

static int csv_header(char **f, int nf, struct csv_cols *c, const char *name, char *err, size_t errlen)
{
	int write_rate = -1;

	c->time = c->rate = c->dir = -1;
	for (int i = 0; i < nf; i++) {
		double ts = time_unit(f[i]), rs;
		char low[128];

		if (c->time < 0 && ts > 0) {
			c->time = i;
			c->time_scale_s = ts;
			continue;
		}
		if (c->dir < 0 && is_dir_column(f[i])) {
			c->dir = i;
			continue;
		}
		rs = rate_unit(f[i]);
		if (rs < 0)
			return slc_errf(err, errlen, -EINVAL,
					"%s: column '%.40s' is in bits per second; give bytes (B) per second", name,
					f[i]);
		lower_copy(low, f[i], sizeof(low));
		if (rs == 0 || strstr(low, "read") || strstr(low, "trim"))
			continue;
		if (strstr(low, "write") && write_rate < 0) {
			write_rate = i;
			c->rate_scale_bps = rs;
		} else if (c->rate < 0 && write_rate < 0) {
			c->rate = i;
			c->rate_scale_bps = rs;
		}
	}
	if (write_rate >= 0)
		c->rate = write_rate;
	if (c->time < 0)
		return slc_errf(err, errlen, -EINVAL,
				"%s: no time column in the header (e.g. 'second', 'time_s', 't_ms')", name);
	if (c->rate < 0)
		return slc_errf(err, errlen, -EINVAL,
				"%s: no throughput column with a unit in the header (e.g. 'write_MiB_s', 'MBps', 'bytes_per_s')",
				name);
	return 0;
}

struct csv_row {
	double t_s;
	double bps;
};

/* The data rows kept so far: writes only, one per time step. */
struct csv_rows {
	struct csv_row *r;
	size_t n, cap;
	size_t merged, skipped;         /* for the import notes */
};

/* The header: the first line that is neither blank nor a '#' comment. */
static int csv_read_header(struct lines *l, struct csv_cols *c, int *nf_header, const char *name, char *err,
			   size_t errlen)
{
	char line[MAX_LINE], *f[MAX_FIELDS];
	int r;

	while ((r = next_line(l, line, sizeof(line))) > 0 && blank_or_comment(line))
		;
	if (r < 0)
		return line_error(err, errlen, r, name, l->lineno);
	if (r == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: empty file", name);
	*nf_header = split(line, f, MAX_FIELDS);
	if (*nf_header < 0)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: more than %d columns", name, l->lineno, MAX_FIELDS);
	return csv_header(f, *nf_header, c, name, err, errlen);
}

/* Room for one more row; -ENOMEM past MAX_BINS. */
static int csv_grow(struct csv_rows *rows, const char *name, char *err, size_t errlen)
{
	size_t ncap = rows->cap ? (rows->cap * 2 < MAX_BINS ? rows->cap * 2 : MAX_BINS) : 256;
	struct csv_row *nr = rows->n >= MAX_BINS ? NULL : realloc(rows->r, ncap * sizeof(*rows->r));

	if (!nr)
		return slc_errf(err, errlen, -ENOMEM, "%s: more than 2 million rows", name);
	rows->r = nr;
	rows->cap = ncap;
	return 0;
}

/* One data line, split into @nf fields: checked, then kept, summed into the row before or skipped. */
static int csv_add_row(struct csv_rows *rows, char **f, int nf, int nf_header, const struct csv_cols *c,
		       const char *name, size_t lineno, char *err, size_t errlen)
{
	double t, v;

	if (nf != nf_header)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: %d fields, the header has %d", name, lineno,
				nf < 0 ? MAX_FIELDS : nf, nf_header);
	if (parse_num(f[c->time], &t) || parse_num(f[c->rate], &v))
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: not a number", name, lineno);
	t *= c->time_scale_s;
	v *= c->rate_scale_bps;
	if (t < 0 || t > MAX_TIME_S)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: time out of range", name, lineno);
	if (v < 0 || v > MAX_RATE_BPS)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: throughput out of range (0 to 1 PB/s)", name,
				lineno);
	if (c->dir >= 0) {
		int w = dir_is_write(f[c->dir]);

		if (w < 0)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: unknown direction '%.20s'", name, lineno,
					f[c->dir]);
		if (!w) {
			rows->skipped++;
			return 0;
		}
	}
	if (rows->n && t < rows->r[rows->n - 1].t_s)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: time goes backwards", name, lineno);
	if (rows->n && t == rows->r[rows->n - 1].t_s) {
		/* Same time step again (one row per job or direction): sum. */
		rows->r[rows->n - 1].bps += v;
		rows->merged++;
		return 0;
	}
	if (rows->n == rows->cap) {
		int rc = csv_grow(rows, name, err, errlen);

		if (rc)
			return rc;
	}
	rows->r[rows->n].t_s = t;
	rows->r[rows->n].bps = v;
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
		if (cum > MAX_BYTES)
			return slc_errf(err, errlen, -ERANGE, "%s: total bytes overflow", name);
		seg->t_s[i] = r[i].t_s - origin;
		seg->interval_s[i] = dt;
		seg->bytes_total[i] = (uint64_t)llround(cum);
	}
	seg->params.interval_s = dts_sum / (double)rows->n;
	slc__input_segment_derive_bw(seg);
	return 0;
}

static int csv_parse(struct slc_input *in, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct lines l = { text, text + len, 0 };
	char line[MAX_LINE], *f[MAX_FIELDS], notes[256] = "";
	struct csv_cols c = { -1, -1, -1, 0, 0 };
	struct csv_rows rows = { 0 };
	int nf_header = 0, r, rc;

	rc = csv_read_header(&l, &c, &nf_header, name, err, errlen);
	if (rc)
		return rc;
	while ((r = next_line(&l, line, sizeof(line))) != 0) {
		if (r < 0) {
			rc = line_error(err, errlen, r, name, l.lineno);
			goto out;
		}
		if (blank_or_comment(line))
			continue;
		rc = csv_add_row(&rows, f, split(line, f, MAX_FIELDS), nf_header, &c, name, l.lineno, err, errlen);
		if (rc)
			goto out;
	}
	if (rows.n < 2) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: %s", name,
			      rows.n ? "only one time step; need two to know the interval" : "no data rows");
		goto out;
	}
	if (rows.merged)
		snprintf(notes, sizeof(notes), "%zu rows sharing a time step with the row before were summed",
			 rows.merged);
	if (rows.skipped)
		snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%s%zu non-write rows skipped",
			 notes[0] ? "; " : "", rows.skipped);
	rc = set_meta(in, name, notes);
	if (!rc)
		rc = make_segment(in, rows.n, rows.r[1].t_s - rows.r[0].t_s, 1, 0);
	if (rc) {
		slc_errf(err, errlen, rc, "out of memory");
		goto out;
	}
	rc = csv_fill_segment(in->segments, &rows, name, err, errlen);
	if (!rc)
		in->format = SLC_INPUT_CSV;
out:
	free(rows.r);
	return rc;
}

/* ---- fio logs ----------------------------------------------------------- */

struct fio_rec {
	double t_ms;
	double value;
	uint64_t bs;
};

struct fio_job {
	struct fio_rec *r;
	size_t n, cap;
	size_t other_dirs;
	int is_iops;
	int averaged;                   /* log_avg_msec: every block size is 0 */
};

static int fio_parse(struct fio_job *job, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct lines l = { text, text + len, 0 };
	char line[MAX_LINE], *f[8];
	int r, any_bs = 0, any_zero = 0;

	while ((r = next_line(&l, line, sizeof(line))) != 0) {
		double v[6];
		int nf;

		if (r < 0)
			return line_error(err, errlen, r, name, l.lineno);
		if (blank_or_comment(line))
			continue;
		nf = split(line, f, 8);
		if (nf < 4 || nf > 7)
			return slc_errf(err, errlen, -EINVAL,
					"%s line %zu: expected 'msec, value, ddir, bs[, offset[, prio]]'", name,
					l.lineno);
		for (int i = 0; i < 4; i++)
			if (parse_num(f[i], &v[i]))
				return slc_errf(err, errlen, -EINVAL, "%s line %zu: not a number", name, l.lineno);
		if (v[0] < 0 || v[0] > MAX_TIME_S * 1e3)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: time out of range", name, l.lineno);
		if (v[1] < 0 || v[1] > MAX_RATE_BPS / 1024)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: value out of range", name, l.lineno);
		if (v[2] != 0 && v[2] != 1 && v[2] != 2)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: direction must be 0, 1 or 2", name,
					l.lineno);
		if (v[3] < 0 || v[3] > 1e12 || v[3] != floor(v[3]))
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: block size out of range", name, l.lineno);
		if (v[2] != 1) {
			job->other_dirs++;
			continue;
		}
		if (job->n && v[0] < job->r[job->n - 1].t_ms)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: time goes backwards", name, l.lineno);
		if (job->n == job->cap) {
			size_t ncap = job->cap ? (job->cap * 2 < MAX_LINES ? job->cap * 2 : MAX_LINES) : 1024;
			struct fio_rec *nr = job->n >= MAX_LINES ? NULL : realloc(job->r, ncap * sizeof(*nr));

			if (!nr)
				return slc_errf(err, errlen, -ENOMEM, "%s: more than 10 million write lines", name);
			job->r = nr;
			job->cap = ncap;
		}
		job->r[job->n].t_ms = v[0];
		job->r[job->n].value = v[1];
		job->r[job->n].bs = (uint64_t)v[3];
		any_bs |= v[3] > 0;
		any_zero |= v[3] == 0;
		job->n++;
	}
	if (any_bs && any_zero)
		return slc_errf(err, errlen, -EINVAL,
				"%s: lines mix block size 0 (log_avg_msec) and per-I/O block sizes", name);
	job->averaged = !any_bs;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The log_avg_msec of an averaged log: the median spacing of its lines. */
static double median_step_ms(const struct fio_job *job)
{
	double *d, m = 0;
	size_t n = 0;

	if (job->n < 2)
		return job->n ? job->r[0].t_ms : 0;
	d = malloc((job->n - 1) * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 1; i < job->n; i++)
		if (job->r[i].t_ms > job->r[i - 1].t_ms)
			d[n++] = job->r[i].t_ms - job->r[i - 1].t_ms;
	if (n) {
		qsort(d, n, sizeof(*d), cmp_double);
		m = d[n / 2];
	}
	free(d);
	return m;
}

struct fio_bin {
	double bytes;
	double ios;
};

/*
 * Sum the write records of every job into @bins of @g_ms from @base_ms.
 * Returns the block size when every per-I/O record has the same one, else 0.
 */
static uint64_t fio_fill_bins(struct fio_bin *bins, size_t nbins, const struct fio_job *jobs, size_t njobs,
			      double g_ms, double base_ms, int averaged, int have_bw)
{
	uint64_t bs_seen = 0;
	int bs_same = 1;

	for (size_t j = 0; j < njobs; j++) {
		/* Per-I/O logs: the _bw and _iops logs list the same I/Os; count them once. */
		if (!averaged && jobs[j].is_iops && have_bw)
			continue;
		for (size_t i = 0; i < jobs[j].n; i++) {
			const struct fio_rec *r = &jobs[j].r[i];
			double t = r->t_ms - base_ms;
			size_t k = averaged ? (size_t)llround(t / g_ms) : (size_t)floor(t / g_ms) + 1;

			if (k >= nbins)
				k = nbins - 1;
			if (averaged && jobs[j].is_iops) {
				bins[k].ios += r->value * g_ms / 1e3;
			} else if (averaged) {
				bins[k].bytes += r->value * 1024.0 * g_ms / 1e3;
			} else {
				bins[k].bytes += (double)r->bs;
				bins[k].ios += 1;
				if (bs_seen && bs_seen != r->bs)
					bs_same = 0;
				bs_seen = r->bs;
			}
		}
	}
	return bs_same ? bs_seen : 0;
}

static int fio_build(struct slc_input *in, const char *name, struct fio_job *jobs, size_t njobs,
		     const struct slc_import_opts *opts, char *err, size_t errlen)
{
	int have_bw = 0, averaged = -1, rc;
	size_t nbw = 0, niops = 0, nwrite = 0, other = 0, nbins, first_bin;
	double g_ms = 0, base_ms = INFINITY, max_ms = 0, cum = 0;
	struct fio_bin *bins = NULL;
	uint64_t bs;
	char notes[256] = "";

	for (size_t j = 0; j < njobs; j++) {
		have_bw |= !jobs[j].is_iops;
		nbw += !jobs[j].is_iops;
		niops += jobs[j].is_iops;
		nwrite += jobs[j].n;
		other += jobs[j].other_dirs;
		if (jobs[j].n == 0)
			continue;
		if (averaged >= 0 && averaged != jobs[j].averaged)
			return slc_errf(err, errlen, -EINVAL, "%s: jobs mix averaged (log_avg_msec) and per-I/O logs",
					name);
		averaged = jobs[j].averaged;
		base_ms = fmin(base_ms, jobs[j].r[0].t_ms);
		max_ms = fmax(max_ms, jobs[j].r[jobs[j].n - 1].t_ms);
	}
	if (nwrite == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: no write samples (direction 1) in the log", name);
	if (averaged && !have_bw)
		return slc_errf(err, errlen, -EINVAL,
				"%s: an averaged IOPS log has no block size; import the matching _bw log", name);
	if (averaged) {
		for (size_t j = 0; j < njobs && g_ms <= 0; j++)
			if (!jobs[j].is_iops)
				g_ms = median_step_ms(&jobs[j]);
	} else {
		g_ms = (opts && opts->bin_s > 0 ? opts->bin_s : 1.0) * 1e3;
	}
	if (!(g_ms >= 1e-3))
		return slc_errf(err, errlen, -EINVAL, "%s: cannot tell the logging interval", name);
	/* log_unix_epoch: make times relative to the first sample. */
	if (base_ms > EPOCH_MS)
		base_ms = floor(base_ms / g_ms) * g_ms - (averaged ? g_ms : 0);
	else
		base_ms = 0;
	if ((max_ms - base_ms) / g_ms + 2 > (double)MAX_BINS)
		return slc_errf(err, errlen, -EINVAL,
				"%s: time span too long for the interval (over 2 million samples)", name);
	nbins = (size_t)((max_ms - base_ms) / g_ms) + 2;
	bins = calloc(nbins, sizeof(*bins));
	if (!bins)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	bs = fio_fill_bins(bins, nbins, jobs, njobs, g_ms, base_ms, averaged, have_bw);
	/* Drop empty bins at the very end (the last partial one) and bin 0 if empty. */
	while (nbins > 1 && bins[nbins - 1].bytes == 0 && bins[nbins - 1].ios == 0)
		nbins--;
	first_bin = bins[0].bytes == 0 && bins[0].ios == 0 ? 1 : 0;
	if (nbins <= first_bin) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: no write samples", name);
		goto out;
	}
	if (njobs > 1 || other)
		snprintf(notes, sizeof(notes), "%zu fio log(s) merged on a %.0f ms grid; %zu non-write lines skipped",
			 njobs, g_ms, other);
	rc = set_meta(in, name, notes);
	if (!rc)
		rc = make_segment(in, nbins - first_bin, g_ms / 1e3, (uint32_t)(nbw ? nbw : niops),
				  !averaged ? (uint32_t)(bs > UINT32_MAX ? 0 : bs) : 0);
	if (rc) {
		slc_errf(err, errlen, rc, "out of memory");
		goto out;
	}
	for (size_t k = first_bin; k < nbins; k++) {
		struct slc_input_segment *seg = in->segments;
		size_t i = k - first_bin;

		cum += bins[k].bytes;
		if (cum > MAX_BYTES) {
			rc = slc_errf(err, errlen, -ERANGE, "%s: total bytes overflow", name);
			goto out;
		}
		seg->t_s[i] = (double)k * g_ms / 1e3;
		seg->interval_s[i] = g_ms / 1e3;
		seg->bytes_total[i] = (uint64_t)llround(cum);
		seg->ios[i] = (uint64_t)llround(bins[k].ios);
	}
	slc__input_segment_derive_bw(in->segments);
	in->format = SLC_INPUT_FIO;
	rc = 0;
out:
	free(bins);
	return rc;
}

/* Does @base look like NAME_bw.N.log or NAME_iops.N.log?  Sets the prefix length and kind. */
static int fio_name(const char *base, size_t *prefix_len, int *is_iops)
{
	const char *dot, *p;
	size_t n = strlen(base);

	if (n < 8 || strcmp(base + n - 4, ".log") != 0)
		return 0;
	dot = base + n - 4;
	p = dot;
	while (p > base && isdigit((unsigned char)p[-1]))
		p--;
	if (p == dot || p == base || p[-1] != '.')
		return 0;
	p--;
	if (p - base >= 3 && strncmp(p - 3, "_bw", 3) == 0) {
		*is_iops = 0;
		*prefix_len = (size_t)(p - 3 - base);
		return 1;
	}
	if (p - base >= 5 && strncmp(p - 5, "_iops", 5) == 0) {
		*is_iops = 1;
		*prefix_len = (size_t)(p - 5 - base);
		return 1;
	}
	return 0;
}

/* Does the first data line look like a fio log line (4-7 numbers)? */
static int looks_like_fio(const char *text, size_t len)
{
	struct lines l = { text, text + len, 0 };
	char line[MAX_LINE], *f[8];
	int r, nf;
	double v;

	while ((r = next_line(&l, line, sizeof(line))) > 0 && blank_or_comment(line))
		;
	if (r <= 0)
		return 0;
	nf = split(line, f, 8);
	if (nf < 4 || nf > 7)
		return 0;
	for (int i = 0; i < nf; i++)
		if (parse_num(f[i], &v))
			return 0;
	return 1;
}

static void fio_jobs_free(struct fio_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(jobs[i].r);
	free(jobs);
}

int slc_input_parse_text(struct slc_input **out, const char *name, const char *text, size_t len,
			 const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct slc_input *in;
	size_t prefix;
	int is_iops = 0, rc;

	*out = NULL;
	in = calloc(1, sizeof(*in));
	if (!in)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	in->source = strdup(name);
	if (!in->source) {
		slc_input_free(in);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	if (fio_name(base_name(name), &prefix, &is_iops) || looks_like_fio(text, len)) {
		struct fio_job job = { 0 };

		job.is_iops = is_iops;
		rc = fio_parse(&job, name, text, len, err, errlen);
		if (!rc)
			rc = fio_build(in, name, &job, 1, opts, err, errlen);
		free(job.r);
	} else {
		rc = csv_parse(in, name, text, len, err, errlen);
	}
	if (rc) {
		slc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

static int read_whole(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	struct stat st;
	char *buf;
	int rc = 0;

	*out = NULL;
	if (!fp)
		return slc_errf(err, errlen, -errno, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > MAX_FILE_BYTES) {
		fclose(fp);
		return slc_errf(err, errlen, -EINVAL, "%s: not a regular file under 1 GiB", path);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(fp);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	*len = fread(buf, 1, (size_t)st.st_size, fp);
	if (ferror(fp))
		rc = slc_errf(err, errlen, -EIO, "cannot read %s", path);
	fclose(fp);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

/* Load NAME_bw.N.log and NAME_iops.N.log for N = 1, 2, ... beside @path. */
static int fio_load_family(struct slc_input *in, const char *path, size_t dir_len, size_t prefix_len,
			   const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct fio_job *jobs = calloc(2 * MAX_FIO_JOBS, sizeof(*jobs));
	size_t njobs = 0, plen = dir_len + prefix_len, flen = plen + 32;
	char *file = malloc(flen);
	int rc = 0;

	if (!jobs || !file) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (int kind = 0; kind < 2 && !rc; kind++) {
		for (int n = 1; n <= MAX_FIO_JOBS && !rc; n++) {
			struct stat st;
			char *text;
			size_t len;

			snprintf(file, flen, "%.*s_%s.%d.log", (int)plen, path, kind ? "iops" : "bw", n);
			if (stat(file, &st) < 0)
				break;
			rc = read_whole(file, &text, &len, err, errlen);
			if (rc)
				break;
			jobs[njobs].is_iops = kind;
			rc = fio_parse(&jobs[njobs], file, text, len, err, errlen);
			njobs++;
			free(text);
		}
	}
	if (!rc && njobs == 0)
		rc = slc_errf(err, errlen, -ENOENT, "%s: fio logs must be numbered from 1 (NAME_bw.1.log)", path);
	if (!rc)
		rc = fio_build(in, path, jobs, njobs, opts, err, errlen);
out:
	if (jobs)
		fio_jobs_free(jobs, njobs);
	free(file);
	return rc;
}

int slc__import_load_file(struct slc_input *in, const char *path, const struct slc_import_opts *opts, char *err,
			  size_t errlen)
{
	const char *base = base_name(path);
	struct slc_input *tmp = NULL;
	size_t prefix, len;
	int is_iops, rc;
	char *text;

	if (fio_name(base, &prefix, &is_iops))
		return fio_load_family(in, path, (size_t)(base - path), prefix, opts, err, errlen);
	rc = read_whole(path, &text, &len, err, errlen);
	if (rc)
		return rc;
	rc = slc_input_parse_text(&tmp, path, text, len, opts, err, errlen);
	free(text);
	if (rc)
		return rc;
	/* Move the parsed content into @in (which already holds the source). */
	free(tmp->source);
	tmp->source = in->source;
	*in = *tmp;
	free(tmp);
	return 0;
}
