// SPDX-License-Identifier: MIT
/*
 * iostat, /proc/diskstats and dd records (import_sys.h; docs/import.md).
 * Each becomes a curve of bytes written against time for one device (dd:
 * for the one copy), with time 0 at the first record.
 */
#include "import_sys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../private.h"
#include "csv.h"
#include "impbase.h"

#define MAX_TOK 40
#define MAX_DEVS 256
#define SECTOR 512.0

static int tokens(char *line, char **tok, int max)
{
	int n = 0;

	for (char *p = strtok(line, " \t"); p && n < max; p = strtok(NULL, " \t"))
		tok[n++] = p;
	return n;
}

static int is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* A diskstats line after @skip leading tokens: major minor name and at least 11 counters. */
static int diskstats_fields(char **tok, int n)
{
	if (n < 14 || !is_uint(tok[0]) || !is_uint(tok[1]) || is_uint(tok[2]))
		return 0;
	for (int i = 3; i < 14; i++)
		if (!is_uint(tok[i]))
			return 0;
	return 1;
}

/* "N bytes ... copied, T s, R MB/s" in any language; N and T out.  "N+M records" lines give 2. */
static int dd_line(const char *line, double *bytes, double *t_s)
{
	const char *p = line, *q;
	char num[64];
	size_t n = 0;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) && n + 1 < sizeof(num))
		num[n++] = *p++;
	num[n] = 0;
	if (*p == '+' && isdigit((unsigned char)p[1]))
		return 2;
	if (*p != ' ' || !strstr(p, "/s"))
		return 0;
	if ((q = strchr(p, '(')) && (q = strchr(q, ')')))
		p = q + 1;
	if (!(q = strstr(p, ", ")))
		return 0;
	q += 2;
	for (n = 0; *q && *q != ' ' && n + 1 < sizeof(num) - 40; n++)
		num[40 + n] = *q++;
	num[40 + n] = 0;
	num[strspn(num, "0123456789")] = 0;
	if (slc__parse_num(num, bytes) || slc__parse_num_comma(num + 40, 1, t_s) || *t_s < 0)
		return 0;
	return 1;
}

enum slc_input_format slc__sys_detect(const char *text, size_t len)
{
	struct slc__lines l = { text, text + (len < 65536 ? len : 65536), 0 };
	char line[SLC__IMP_MAX_LINE], *tok[MAX_TOK];
	int r, seen = 0, time_line = 0;

	while ((r = slc__next_line(&l, line, sizeof(line))) > 0 && seen < 20) {
		double a, b;
		int n;

		if (slc__blank_or_comment(line))
			continue;
		seen++;
		if (strncmp(line, "Device", 6) == 0 && (strstr(line, "wrtn") || strstr(line, "w/s")))
			return SLC_INPUT_IOSTAT;
		if (seen == 1 && dd_line(line, &a, &b))
			return SLC_INPUT_DD;
		n = tokens(line, tok, MAX_TOK);
		if (seen == 1 && n == 1 && slc__parse_num(tok[0], &a) == 0) {
			time_line = 1;         /* a time, then a whole snapshot */
			continue;
		}
		if (seen <= 2 && ((n >= 15 && slc__parse_num(tok[0], &a) == 0 && diskstats_fields(tok + 1, n - 1)) ||
				  (time_line && diskstats_fields(tok, n))))
			return SLC_INPUT_DISKSTATS;
	}
	return 0;
}

/* ---- one device among many --------------------------------------------- */

struct devs {
	char name[MAX_DEVS][32];
	int written[MAX_DEVS];
	int n;
};

static int dev_index(struct devs *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->name[i], name) == 0)
			return i;
	if (d->n == MAX_DEVS)
		return -1;
	snprintf(d->name[d->n], sizeof(d->name[0]), "%s", name);
	d->written[d->n] = 0;
	return d->n++;
}

static const char *dev_list(char *buf, size_t len, const struct devs *d, int written_only)
{
	size_t k = 0;

	buf[0] = 0;
	for (int i = 0; i < d->n && k + 1 < len; i++)
		if (!written_only || d->written[i])
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", d->name[i]);
	return buf;
}

/* The device to read: the one named, or the only one written to. */
static int pick_device(const struct devs *d, const struct slc_import_opts *o, const char *name, const char *what,
		       char *err, size_t errlen)
{
	char list[200];
	int pick = -1, nw = 0;

	if (o && o->device[0]) {
		const char *want = strncmp(o->device, "/dev/", 5) == 0 ? o->device + 5 : o->device;

		for (int i = 0; i < d->n; i++)
			if (strcmp(d->name[i], want) == 0)
				return i;
		return slc_errf(err, errlen, -EINVAL, "%s: no device '%s' in the %s (it has: %s)", name, o->device,
				what, dev_list(list, sizeof(list), d, 0));
	}
	for (int i = 0; i < d->n; i++)
		if (d->written[i]) {
			pick = i;
			nw++;
		}
	if (nw == 1)
		return pick;
	if (nw == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: no device was written to in the %s", name, what);
	return slc_errf(err, errlen, -EINVAL, "%s: several devices were written to (%s): give --device NAME", name,
			dev_list(list, sizeof(list), d, 1));
}

static int finish(struct slc_input *in, const struct slc__curve *c, const char *name, const char *notes,
		  struct slc__rec *r, enum slc_input_format f, uint32_t bs, char *err, size_t errlen)
{
	if (c->n < 2)
		return slc_errf(err, errlen, -EINVAL, "%s: fewer than two records of the device: no curve", name);
	if (slc__import_meta(in, name, notes) || slc__curve_segment(in, c, 1, bs) || slc__rec_store(in, r))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	in->format = f;
	return 0;
}

/* ---- /proc/diskstats ------------------------------------------------------ */

/* Seconds from a time prefix: epoch or uptime seconds, or ms, us, ns since the epoch. */
static double ts_seconds(double v)
{
	return v > 1e17 ? v / 1e9 : v > 1e14 ? v / 1e6 : v > 1e11 ? v / 1e3 : v;
}

/*
 * One pass over the snapshots: @dev < 0 finds the devices written to;
 * otherwise the device's sectors written go into @c.
 */
static int diskstats_pass(const char *text, size_t len, struct devs *d, int dev, struct slc__curve *c,
			  const char *name, char *err, size_t errlen)
{
	struct slc__lines l = { text, text + len, 0 };
	char line[SLC__IMP_MAX_LINE], *tok[MAX_TOK];
	double now = NAN, first_t = NAN, first_s = NAN;
	double base[MAX_DEVS];
	int r, rc;

	for (int i = 0; i < MAX_DEVS; i++)
		base[i] = NAN;
	while ((r = slc__next_line(&l, line, sizeof(line))) != 0) {
		int n, i, off;
		double v, t, sec;

		if (r < 0)
			return slc__line_error(err, errlen, r, name, l.lineno);
		if (slc__blank_or_comment(line))
			continue;
		n = tokens(line, tok, MAX_TOK);
		if (n == 1 && slc__parse_num(tok[0], &v) == 0) {
			now = ts_seconds(v);       /* a time line before a whole snapshot */
			continue;
		}
		off = n >= 15 && slc__parse_num(tok[0], &v) == 0 && diskstats_fields(tok + 1, n - 1) ? 1 : 0;
		if (!diskstats_fields(tok + off, n - off))
			return slc_errf(err, errlen, -EINVAL,
					"%s line %zu: not a /proc/diskstats line (TIME major minor name counters...)",
					name, l.lineno);
		t = off ? ts_seconds(v) : now;
		if (isnan(t))
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: a snapshot without a time before it", name,
					l.lineno);
		if ((i = dev_index(d, tok[off + 2])) < 0)
			return slc_errf(err, errlen, -EINVAL, "%s: more than %d devices", name, MAX_DEVS);
		sec = strtod(tok[off + 9], NULL);
		if (!isnan(base[i]) && sec != base[i])
			d->written[i] = 1;
		if (isnan(base[i]))
			base[i] = sec;
		if (i != dev)
			continue;
		if (isnan(first_t)) {
			first_t = t;
			first_s = sec;
			continue;
		}
		if (sec < (c->n ? c->b[c->n - 1] / SECTOR + first_s : first_s))
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: sectors written went down (device reset?)",
					name, l.lineno);
		if ((rc = slc__curve_add(c, t - first_t, (sec - first_s) * SECTOR)))
			return slc_errf(err, errlen, rc == -ENOMEM ? -ENOMEM : -EINVAL, "%s line %zu: %s", name,
					l.lineno, rc == -E2BIG ? "more than 2 million snapshots" :
					rc == -ERANGE ? "sectors written past 2^63 bytes" :
					rc == -ENOMEM ? "out of memory" : "time does not increase");
	}
	return 0;
}

static int diskstats_import(struct slc_input *in, const char *name, const char *text, size_t len,
			    const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct devs *d = calloc(1, sizeof(*d));
	struct slc__curve c = { 0 };
	struct slc__rec r = { .n = 0 };
	int dev, rc;

	if (!d)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	rc = diskstats_pass(text, len, d, -1, &c, name, err, errlen);
	if (!rc && (dev = pick_device(d, opts, name, "snapshots", err, errlen)) < 0)
		rc = dev;
	if (!rc) {
		memset(d->written, 0, sizeof(d->written));
		rc = diskstats_pass(text, len, d, dev, &c, name, err, errlen);
	}
	if (!rc) {
		slc__rec_str(&r, "format", "diskstats");
		slc__rec_str(&r, "device", d->name[dev]);
		slc__rec_str(&r, "columns", "field 10: sectors written (512 bytes, cumulative)");
		slc__rec_str(&r, "time_axis", "read: each snapshot's time prefix, from the first snapshot");
		rc = finish(in, &c, name, "", &r, SLC_INPUT_DISKSTATS, 0, err, errlen);
	}
	slc__curve_free(&c);
	free(d);
	return rc;
}

/* ---- iostat ----------------------------------------------------------------- */

struct iostat_cols {
	int rate, cum;                   /* column of write bytes/s, of bytes written in the report (-d) */
	double rate_scale, cum_scale;
	const char *rate_name;
};

static void iostat_header(char **tok, int n, struct iostat_cols *k)
{
	static const struct { const char *name; double scale; int cum; } cols[] = {
		{ "wkB/s", 1024, 0 }, { "wMB/s", 1048576, 0 }, { "wsec/s", SECTOR, 0 }, { "kB_wrtn/s", 1024, 0 },
		{ "MB_wrtn/s", 1048576, 0 }, { "Blk_wrtn/s", SECTOR, 0 }, { "kB_wrtn", 1024, 1 },
		{ "MB_wrtn", 1048576, 1 }, { "Blk_wrtn", SECTOR, 1 },
	};

	k->rate = k->cum = -1;
	for (int i = 1; i < n; i++)
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			if (strcmp(tok[i], cols[c].name) == 0) {
				if (cols[c].cum) {
					k->cum = i;
					k->cum_scale = cols[c].scale;
				} else if (k->rate < 0) {
					k->rate = i;
					k->rate_scale = cols[c].scale;
					k->rate_name = cols[c].name;
				}
			}
}

/* Seconds of the day in an iostat -t time line ("12/01/26 08:41:53", "... 08:41:53 PM", ISO), -1 if none. */
static double iostat_clock(const char *line)
{
	const char *c = strchr(line, ':');
	int h, m, s;

	if (!c || c - line < 2 || strchr(line, ' ') == NULL || !strpbrk(line, "/-"))
		return -1;
	if (sscanf(c - 2, "%2d:%2d:%2d", &h, &m, &s) != 3 || h > 23 || m > 59 || s > 60)
		return -1;
	if (strstr(line, "PM") && h < 12)
		h += 12;
	if (strstr(line, "AM") && h == 12)
		h = 0;
	return h * 3600.0 + m * 60.0 + s;
}

struct iostat_rep {
	double rate, cum;                /* bytes/s; bytes in the report (-d), NAN without */
};

struct iostat_scan {
	struct iostat_cols k;
	struct iostat_rep *rep;          /* the device's reports */
	size_t n, cap;
	double step_sum;                 /* -t: the clock's steps */
	size_t steps;
};

static int iostat_keep(struct iostat_scan *s, double rate, double cum)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 256;
		struct iostat_rep *nr = s->n >= SLC__IMP_MAX_BINS ? NULL : realloc(s->rep, ncap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		s->rep = nr;
		s->cap = ncap;
	}
	s->rep[s->n].rate = rate;
	s->rep[s->n++].cum = cum;
	return 0;
}

/* One device line of a report: the values of the device @want (or note who wrote when @want < 0). */
static int iostat_dev_line(struct iostat_scan *s, struct devs *d, int want, char **tok, int n, const char *name,
			   size_t lineno, char *err, size_t errlen)
{
	double rate, cum = NAN;
	int i = dev_index(d, tok[0]);

	if (i < 0)
		return slc_errf(err, errlen, -EINVAL, "%s: more than %d devices", name, MAX_DEVS);
	if (s->k.rate >= n || (s->k.cum >= 0 && s->k.cum >= n))
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: fewer fields than the Device header", name, lineno);
	if (slc__parse_num_comma(tok[s->k.rate], 1, &rate) ||
	    (s->k.cum >= 0 && slc__parse_num_comma(tok[s->k.cum], 1, &cum)))
		return slc_errf(err, errlen, -EINVAL,
				"%s line %zu: '%.20s' is not a number (iostat -h output? record without -h)", name,
				lineno, tok[s->k.rate]);
	if (rate < 0 || rate * s->k.rate_scale > SLC__IMP_MAX_RATE_BPS)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: write rate out of range", name, lineno);
	if (rate > 0)
		d->written[i] = 1;
	if (i != want)
		return 0;
	if (iostat_keep(s, rate * s->k.rate_scale, s->k.cum >= 0 ? cum * s->k.cum_scale : NAN))
		return slc_errf(err, errlen, -ENOMEM, "%s: more than 2 million reports", name);
	return 0;
}

static int iostat_pass(struct iostat_scan *s, struct devs *d, int want, const char *name, const char *text,
		       size_t len, char *err, size_t errlen)
{
	struct slc__lines l = { text, text + len, 0 };
	char line[SLC__IMP_MAX_LINE], *tok[MAX_TOK];
	double clock = -1;
	int r, rc, in_report = 0;

	while ((r = slc__next_line(&l, line, sizeof(line))) != 0) {
		double c;
		int n;

		if (r < 0)
			return slc__line_error(err, errlen, r, name, l.lineno);
		if (slc__blank_or_comment(line)) {
			in_report = 0;
			continue;
		}
		if (strncmp(line, "Device", 6) == 0) {
			n = tokens(line, tok, MAX_TOK);
			iostat_header(tok, n, &s->k);
			if (s->k.rate < 0)
				return slc_errf(err, errlen, -EINVAL,
						"%s line %zu: no write column (wkB/s, wMB/s, kB_wrtn/s, MB_wrtn/s)",
						name, l.lineno);
			in_report = 1;
			continue;
		}
		if (!in_report) {
			if ((c = iostat_clock(line)) >= 0) {
				if (clock >= 0 && c != clock) {
					s->step_sum += c > clock ? c - clock : c + 86400 - clock;
					s->steps++;
				}
				clock = c;
			}
			continue;
		}
		n = tokens(line, tok, MAX_TOK);
		if ((rc = iostat_dev_line(s, d, want, tok, n, name, l.lineno, err, errlen)))
			return rc;
	}
	return 0;
}

/*
 * The device's curve: every report is one interval (from -t's clock, else
 * --bin, else 1 s).  The first report of iostat -d without -y covers the
 * time since boot: its bytes over its rate say so, and it is dropped.
 */
static int iostat_curve(struct slc_input *in, const struct iostat_scan *s, const struct slc_import_opts *opts,
			struct slc__curve *c, double *step, size_t *dropped, const char *name)
{
	double b = 0;
	size_t first = 0;
	int derived = 0;

	*step = s->steps ? s->step_sum / (double)s->steps : opts && opts->bin_s > 0 ? opts->bin_s : 1.0;
	*dropped = 0;
	if (s->n && !isnan(s->rep[0].cum) && s->rep[0].rate > 0 && s->rep[0].cum / s->rep[0].rate > 3 * *step) {
		first = 1;
		*dropped = 1;
	}
	if (!s->steps && !isnan(s->n ? s->rep[0].cum : NAN)) {
		/* -d: the bytes of a report over its rate are its length */
		double sum = 0;
		size_t k = 0;

		for (size_t i = first; i < s->n; i++)
			if (s->rep[i].rate > 1000 && s->rep[i].cum > 0) {
				sum += s->rep[i].cum / s->rep[i].rate;
				k++;
			}
		if (k) {
			*step = round(sum / (double)k * 1e3) / 1e3;
			derived = 1;
		}
	}
	for (size_t i = first; i < s->n; i++) {
		b += !isnan(s->rep[i].cum) ? s->rep[i].cum : s->rep[i].rate * *step;
		if (slc__curve_add(c, (double)(i - first + 1) * *step, b))
			return -E2BIG;
	}
	if (!s->steps && !derived && !(opts && opts->bin_s > 0))
		slc__import_warn(in, "%s: no -t times in the iostat output: each report taken as 1 s (give --bin "
				 "for another interval)", slc__base_name(name));
	return 0;
}

static int iostat_import(struct slc_input *in, const char *name, const char *text, size_t len,
			 const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct devs *d = calloc(1, sizeof(*d));
	struct iostat_scan s = { .n = 0 };
	struct slc__curve c = { 0 };
	struct slc__rec r = { .n = 0 };
	char notes[128] = "";
	size_t dropped = 0;
	double step = 1;
	int dev, rc;

	if (!d)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	rc = iostat_pass(&s, d, -1, name, text, len, err, errlen);
	if (!rc && (dev = pick_device(d, opts, name, "iostat output", err, errlen)) < 0)
		rc = dev;
	if (!rc) {
		s.step_sum = 0;
		s.steps = 0;
		rc = iostat_pass(&s, d, dev, name, text, len, err, errlen);
	}
	if (!rc && iostat_curve(in, &s, opts, &c, &step, &dropped, name))
		rc = slc_errf(err, errlen, -EINVAL, "%s: more than 2 million reports", name);
	if (!rc) {
		if (dropped)
			snprintf(notes, sizeof(notes), "the first report (the average since boot) was dropped");
		slc__rec_str(&r, "format", "iostat");
		slc__rec_str(&r, "device", d->name[dev]);
		slc__rec_col(&r, "rate", s.k.rate_name, "bytes/s per unit", s.k.rate_scale);
		slc__rec_str(&r, "bytes", s.k.cum >= 0 ? "the report's written column" : "rate x interval");
		slc__rec_num(&r, "interval_s", step);
		slc__rec_str(&r, "time_axis", s.steps ? "read: the -t clock's step, one report per step"
						      : "assumed: one report per --bin (default 1 s)");
		rc = finish(in, &c, name, notes, &r, SLC_INPUT_IOSTAT, 0, err, errlen);
	}
	free(s.rep);
	slc__curve_free(&c);
	free(d);
	return rc;
}

/* ---- dd status=progress -------------------------------------------------- */

static int dd_import(struct slc_input *in, const char *name, const char *text, size_t len, char *err,
		     size_t errlen)
{
	struct slc__lines l = { text, text + len, 0 };
	char line[SLC__IMP_MAX_LINE], notes[128] = "";
	struct slc__curve c = { 0 };
	struct slc__rec r = { .n = 0 };
	double records = 0, bytes = 0, t = 0;
	int rc = 0, k, partial = 0, msgs = 0;

	while (!rc && (k = slc__next_line(&l, line, sizeof(line))) != 0) {
		if (k < 0) {
			rc = slc__line_error(err, errlen, k, name, l.lineno);
			break;
		}
		if (slc__blank_or_comment(line))
			continue;
		if (strncmp(line, "dd:", 3) == 0) {
			msgs++;                /* "dd: error writing ...: No space left on device" ends a device fill */
			continue;
		}
		k = dd_line(line, &bytes, &t);
		if (k == 2) {
			records = strtod(line, NULL);
			partial |= strtod(strchr(line, '+') + 1, NULL) > 0;
			continue;
		}
		if (k == 0) {
			rc = slc_errf(err, errlen, -EINVAL, "%s line %zu: not a dd status line ('N bytes ... copied, "
				      "T s, R/s')", name, l.lineno);
			break;
		}
		if (c.n && t <= c.t[c.n - 1] && bytes >= c.b[c.n - 1]) {
			c.b[c.n - 1] = bytes;     /* the summary line of the same second */
			continue;
		}
		if (c.n && (t < c.t[c.n - 1] || bytes < c.b[c.n - 1])) {
			rc = slc_errf(err, errlen, -EINVAL, "%s line %zu: time or bytes go back (a second dd run? "
				      "import each on its own)", name, l.lineno);
			break;
		}
		if (t > 0 && slc__curve_add(&c, t, bytes))
			rc = slc_errf(err, errlen, -EINVAL, "%s line %zu: out of range", name, l.lineno);
	}
	if (rc) {
		slc__curve_free(&c);
		return rc;
	}
	if (msgs)
		snprintf(notes, sizeof(notes), "%d dd message line(s) skipped", msgs);
	slc__rec_str(&r, "format", "dd");
	slc__rec_str(&r, "columns", "bytes copied so far at elapsed seconds (status=progress, then the summary)");
	slc__rec_str(&r, "time_axis", "read: dd's elapsed time of each line");
	rc = finish(in, &c, name, notes, &r, SLC_INPUT_DD,
		    records > 0 && !partial && c.n ? (uint32_t)fmin(c.b[c.n - 1] / records, 1u << 30) : 0, err,
		    errlen);
	slc__curve_free(&c);
	return rc;
}

int slc__sys_import(struct slc_input *in, enum slc_input_format kind, const char *name, const char *text,
		    size_t len, const struct slc_import_opts *opts, char *err, size_t errlen)
{
	switch (kind) {
	case SLC_INPUT_IOSTAT:
		return iostat_import(in, name, text, len, opts, err, errlen);
	case SLC_INPUT_DISKSTATS:
		return diskstats_import(in, name, text, len, opts, err, errlen);
	default:
		return dd_import(in, name, text, len, err, errlen);
	}
}
