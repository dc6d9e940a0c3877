// SPDX-License-Identifier: MIT
/*
 * Importers: the format of a file from its name and first lines, fio
 * bandwidth/IOPS logs, and several imports summed on a common grid
 * (docs/import.md).  CSV, fio JSON and the system tools' records have
 * their own files.
 *
 * The parsers take untrusted text: every line is bounded, every number is
 * checked for range, time must not go backwards, and any failure gives a
 * one-line reason naming the file and line.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"

#include "../private.h"
#include "csv.h"
#include "impbase.h"
#include "import_csv.h"
#include "import_json.h"
#include "import_sys.h"
#include "input.h"

#define MAX_FILE_BYTES ((size_t)1 << 30)
#define MAX_FIO_JOBS 1024
#define MAX_LINES 10000000ull            /* fio write lines per job */
#define EPOCH_MS 1e12                    /* fio log_unix_epoch times start above this (2001) */

void slc_import_opts_init(struct slc_import_opts *o)
{
	memset(o, 0, sizeof(*o));
}

int slc_import_opts_check(const struct slc_import_opts *o, const struct slc_input *in, char *err, size_t errlen)
{
	/* a trace is copied as it is: what it records of its drive stands */
	if (in->format == SLC_INPUT_TRACE && (o->capacity_bytes || o->cell[0]))
		return slc_errf(err, errlen, -EINVAL, "%s is a slcscope trace, copied with its own records: "
				"--capacity and --cell are for logs (give them to analyze)",
				in->source ? in->source : "the input");
	return 0;
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
	int averaged;                   /* log_avg_msec: every block size 0, or the grid and values say so */
	int bs_filled;                  /* averaged, but the block-size column is filled in */
	int nf;                         /* most fields on a line: 5 with prio, 6 with log_offset */
};

static int split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ','), *s, *e;

		if (n == max)
			return -1;
		if (c)
			*c = 0;
		s = p;
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = 0;
		fields[n++] = s;
		if (!c)
			return n;
		p = c + 1;
	}
}

static int fio_grow(struct fio_job *job, const char *name, char *err, size_t errlen)
{
	size_t ncap = job->cap ? (job->cap * 2 < MAX_LINES ? job->cap * 2 : MAX_LINES) : 1024;
	struct fio_rec *nr = job->n >= MAX_LINES ? NULL : realloc(job->r, ncap * sizeof(*nr));

	if (!nr)
		return slc_errf(err, errlen, -ENOMEM, "%s: more than 10 million write lines", name);
	job->r = nr;
	job->cap = ncap;
	return 0;
}

/* One line's numbers: 0 ok, else the reason. */
static int fio_line(char **f, int nf, double *v, const char *name, size_t lineno, char *err, size_t errlen)
{
	if (nf < 4 || nf > 7)
		return slc_errf(err, errlen, -EINVAL,
				"%s line %zu: expected 'msec, value, ddir, bs[, offset[, prio]]'", name, lineno);
	for (int i = 0; i < 4; i++)
		if (slc__parse_num(f[i], &v[i]))
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: not a number", name, lineno);
	if (v[0] < 0 || v[0] > SLC__IMP_MAX_TIME_S * 1e3)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: time out of range", name, lineno);
	if (v[1] < 0 || v[1] > SLC__IMP_MAX_RATE_BPS / 1024)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: value out of range", name, lineno);
	if (v[2] != 0 && v[2] != 1 && v[2] != 2)
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: direction must be 0, 1 or 2", name, lineno);
	if (v[3] < 0 || v[3] > slc__limit_find("block_bytes")->hi || v[3] != floor(v[3]))
		return slc_errf(err, errlen, -EINVAL, "%s line %zu: block size out of range", name, lineno);
	return 0;
}

static int fio_parse(struct fio_job *job, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct slc__lines l = { text, text + len, 0 };
	char line[SLC__IMP_MAX_LINE], *f[8];
	int r, rc, any_bs = 0, any_zero = 0;

	while ((r = slc__next_line(&l, line, sizeof(line))) != 0) {
		double v[4];
		int nf;

		if (r < 0)
			return slc__line_error(err, errlen, r, name, l.lineno);
		if (slc__blank_or_comment(line))
			continue;
		nf = split(line, f, 8);
		if ((rc = fio_line(f, nf, v, name, l.lineno, err, errlen)))
			return rc;
		if (nf > job->nf)
			job->nf = nf;
		if (v[2] != 1) {
			job->other_dirs++;
			continue;
		}
		if (job->n && v[0] < job->r[job->n - 1].t_ms)
			return slc_errf(err, errlen, -EINVAL, "%s line %zu: time goes backwards", name, l.lineno);
		if (job->n == job->cap && (rc = fio_grow(job, name, err, errlen)))
			return rc;
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

/*
 * A log with block sizes filled in whose lines are on a regular grid (one
 * per interval, 9 in 10 spacings within 10% of the median, at least 10 ms)
 * and whose values say far more was written than the block sizes add up
 * to is an averaged log that another writer filled in: a per-I/O log on a
 * grid is one I/O per interval, each as long as the interval, and both
 * readings agree.  Returns the factor between them when it reads as
 * averaged, else 0.
 */
static double fio_grid_factor(const struct fio_job *job)
{
	double m = median_step_ms(job), by_value = 0, by_bs = 0;
	size_t near = 0;

	if (job->averaged || job->n < 3 || !(m >= 10))
		return 0;
	for (size_t i = 1; i < job->n; i++) {
		double d = job->r[i].t_ms - job->r[i - 1].t_ms;

		if (d <= 0)
			return 0;
		near += fabs(d - m) <= 0.1 * m;
	}
	if (near * 10 < (job->n - 1) * 9)
		return 0;
	for (size_t i = 0; i < job->n; i++) {
		/* bw values are KiB/s, IOPS values I/Os per second of this block size */
		by_value += job->r[i].value * (job->is_iops ? (double)job->r[i].bs : 1024.0) * m / 1e3;
		by_bs += (double)job->r[i].bs;
	}
	return by_bs > 0 && by_value > 2 * by_bs ? by_value / by_bs : 0;
}

struct fio_bin {
	double bytes;
	double ios;
};

/*
 * The time an averaged line's value covers.  fio divides what completed
 * since its previous line by the time since that line, so on a busy
 * machine a late line covers more than log_avg_msec and its value times
 * the spacing is what was written.  The first line has no line before it:
 * the time since the job's start is not its window (fio's clock starts
 * before the first I/O, log_unix_epoch times have no start), and read as
 * one its rate comes out of the first sample's bytes over a step, a false
 * "cache" when the line came late.  So it counts for one step, the rule
 * every importer applies to a first line whose window the file does not
 * state (docs/import.md).  fio writes no line for a window without writes
 * and starts the next window there, so a gap of more than a step and a
 * half is such windows: the line covers one.
 */
static double fio_span_ms(const struct fio_job *job, size_t i, double g_ms)
{
	double d;

	if (i == 0)
		return g_ms;
	d = job->r[i].t_ms - job->r[i - 1].t_ms;
	return d > 0 && d <= 1.5 * g_ms ? d : g_ms;
}

/*
 * Sum the write records of every job into @bins of @g_ms from @base_ms;
 * @bs_opt is the block size of averaged IOPS logs without a _bw log.
 * Returns the block size when every I/O has the same one, else 0.
 */
static uint64_t fio_fill_bins(struct fio_bin *bins, size_t nbins, const struct fio_job *jobs, size_t njobs,
			      double g_ms, double base_ms, int averaged, int have_bw, uint64_t bs_opt)
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
			uint64_t bs = r->bs ? r->bs : bs_opt;
			double span_s = averaged ? fio_span_ms(&jobs[j], i, g_ms) / 1e3 : 0;

			if (k >= nbins)
				k = nbins - 1;
			if (averaged && jobs[j].is_iops) {
				bins[k].ios += r->value * span_s;
				if (!have_bw)
					bins[k].bytes += r->value * span_s * (double)bs;
			} else if (averaged) {
				bins[k].bytes += r->value * 1024.0 * span_s;
				continue;
			} else {
				bins[k].bytes += (double)r->bs;
				bins[k].ios += 1;
			}
			if (bs_seen && bs_seen != bs)
				bs_same = 0;
			bs_seen = bs;
		}
	}
	return bs_same ? bs_seen : 0;
}

/* What the fio logs were read as, for the trace. */
static void fio_record(struct slc_input *in, const struct fio_job *jobs, size_t njobs, size_t nlat, int averaged,
		       double g_ms, uint64_t bs_opt)
{
	struct slc__rec r = { .n = 0 };
	size_t nbw = 0, niops = 0;
	int nf = 0, filled = 0;

	for (size_t j = 0; j < njobs; j++) {
		nbw += !jobs[j].is_iops;
		niops += jobs[j].is_iops;
		nf = jobs[j].nf > nf ? jobs[j].nf : nf;
		filled |= jobs[j].bs_filled;
	}
	slc__rec_str(&r, "format", "fio-log");
	slc__rec_num(&r, "bw_logs", (double)nbw);
	slc__rec_num(&r, "iops_logs", (double)niops);
	if (nlat)
		slc__rec_num(&r, "lat_logs", (double)nlat);
	slc__rec_str(&r, "columns", nf >= 6 ? "msec, value, ddir, bs, offset, prio"
				    : nf == 5 ? "msec, value, ddir, bs, prio (or offset)" : "msec, value, ddir, bs");
	slc__rec_str(&r, "units", nlat ? "bw KiB/s, iops I/Os per s, lat ns (write_lat_mean_us), bs bytes"
				       : "bw KiB/s, iops I/Os per s, bs bytes");
	slc__rec_str(&r, "kind", averaged ? (filled ? "averaged (told by its grid and values; bs column filled in)"
						    : "averaged (log_avg_msec: bs 0)")
					  : "per-I/O");
	slc__rec_num(&r, averaged ? "log_avg_msec" : "bin_ms", g_ms);
	if (bs_opt)
		slc__rec_num(&r, "block_bytes_given", (double)bs_opt);
	slc__rec_str(&r, "time_axis", "read: msec since the job started (log_unix_epoch made relative)");
	slc__rec_store(in, &r);
}

/* Averaged or per-I/O, the same for every job; warns where the grid overrides the block sizes. */
static int fio_kind(struct slc_input *in, struct fio_job *jobs, size_t njobs, const char *name, char *err,
		    size_t errlen)
{
	int averaged = -1;

	for (size_t j = 0; j < njobs; j++) {
		double f = fio_grid_factor(&jobs[j]);

		if (f > 0) {
			jobs[j].averaged = jobs[j].bs_filled = 1;
			slc__import_warn(in, "%s%s: block sizes are filled in, but the lines are on a %.0f ms grid and "
					 "their values give %.0fx the bytes of the block sizes: read as an averaged log "
					 "(log_avg_msec)", slc__base_name(name), njobs > 1 ? " (a job)" : "",
					 median_step_ms(&jobs[j]), f);
		}
		if (jobs[j].n == 0)
			continue;
		if (averaged >= 0 && averaged != jobs[j].averaged)
			return slc_errf(err, errlen, -EINVAL, "%s: jobs mix averaged (log_avg_msec) and per-I/O logs",
					name);
		averaged = jobs[j].averaged;
	}
	return averaged;
}

/* The grid step and first time of the logs. */
static int fio_grid(const struct fio_job *jobs, size_t njobs, int averaged, const struct slc_import_opts *opts,
		    double *g_ms, double *base_ms, double *max_ms)
{
	*g_ms = 0;
	*base_ms = INFINITY;
	*max_ms = 0;
	for (size_t j = 0; j < njobs; j++) {
		if (!jobs[j].n)
			continue;
		*base_ms = fmin(*base_ms, jobs[j].r[0].t_ms);
		*max_ms = fmax(*max_ms, jobs[j].r[jobs[j].n - 1].t_ms);
	}
	if (averaged) {
		for (int pass = 0; pass < 2 && *g_ms <= 0; pass++)
			for (size_t j = 0; j < njobs && *g_ms <= 0; j++)
				if (jobs[j].is_iops == pass && jobs[j].n)
					*g_ms = median_step_ms(&jobs[j]);
	} else {
		*g_ms = (opts && opts->bin_s > 0 ? opts->bin_s : 1.0) * 1e3;
	}
	if (!(*g_ms >= 1e-3))
		return -EINVAL;
	/* log_unix_epoch: make times relative to the first sample. */
	if (*base_ms > EPOCH_MS)
		*base_ms = floor(*base_ms / *g_ms) * *g_ms - (averaged ? *g_ms : 0);
	else
		*base_ms = 0;
	return 0;
}

static int fio_segment(struct slc_input *in, const struct fio_bin *bins, size_t first, size_t nbins, double g_ms,
		       uint32_t jobs, uint32_t bs, const char *name, char *err, size_t errlen)
{
	double cum = 0;

	if (slc__import_segment(in, nbins - first, g_ms / 1e3, jobs, bs))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t k = first; k < nbins; k++) {
		struct slc_input_segment *seg = in->segments;
		size_t i = k - first;

		cum += bins[k].bytes;
		if (cum > SLC__IMP_MAX_BYTES)
			return slc_errf(err, errlen, -ERANGE, "%s: total bytes overflow", name);
		seg->t_s[i] = (double)k * g_ms / 1e3;
		seg->interval_s[i] = g_ms / 1e3;
		seg->bytes_total[i] = (uint64_t)llround(cum);
		seg->ios[i] = (uint64_t)llround(bins[k].ios);
	}
	slc__input_segment_derive_bw(in->segments);
	return 0;
}

/*
 * The mean latency of the writes of each sample from the _lat logs (fio's
 * total latency, submission to completion, in ns): the mean of the lines
 * in the sample, placed as the bandwidth lines are.  An averaged line is
 * one job's mean over the window; the jobs of a section run the same load,
 * so each counts alike.  fio ends an averaged latency log with the job's
 * last partial window, which its bandwidth and IOPS logs leave out: lines
 * after the last of those (@max_ms) have no sample and are dropped.
 */
static int fio_lat(struct slc_input_segment *seg, const struct fio_job *lat, size_t nlat, size_t first,
		   size_t nbins, double g_ms, double base_ms, double max_ms, int averaged)
{
	double *sum = calloc(2 * nbins, sizeof(*sum)), *cnt = sum + nbins;

	if (!sum)
		return -ENOMEM;
	for (size_t j = 0; j < nlat; j++)
		for (size_t i = 0; i < lat[j].n; i++) {
			double t = lat[j].r[i].t_ms - base_ms;
			size_t k = averaged ? (size_t)llround(t / g_ms) : (size_t)floor(t / g_ms) + 1;

			if (lat[j].r[i].t_ms > max_ms)
				break;
			if (t < 0 || k >= nbins)
				k = t < 0 ? 0 : nbins - 1;
			sum[k] += lat[j].r[i].value;
			cnt[k] += 1;
		}
	for (size_t k = first; k < nbins; k++)
		if (cnt[k] > 0)
			seg->write_lat_mean_us[k - first] = sum[k] / cnt[k] / 1e3;
	free(sum);
	return 0;
}

static int fio_build(struct slc_input *in, const char *name, struct fio_job *jobs, size_t njobs,
		     const struct fio_job *lat, size_t nlat, const struct slc_import_opts *opts, char *err,
		     size_t errlen)
{
	int have_bw = 0, averaged, rc;
	size_t nbw = 0, niops = 0, nwrite = 0, other = 0, nbins, first_bin;
	double g_ms, base_ms, max_ms;
	struct fio_bin *bins = NULL;
	uint64_t bs, bs_opt = opts ? opts->block_bytes : 0;
	char notes[256] = "";

	for (size_t j = 0; j < njobs; j++) {
		have_bw |= !jobs[j].is_iops;
		nbw += !jobs[j].is_iops;
		niops += jobs[j].is_iops;
		nwrite += jobs[j].n;
		other += jobs[j].other_dirs;
	}
	/* fio writes an averaged line at the end of each window: a job shorter than one leaves its log empty */
	if (nwrite == 0 && other == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: no write samples: the log is empty (an averaged log has "
				"a line per log_avg_msec window; a job shorter than one has none)", name);
	if (nwrite == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: no write samples (direction 1) in the log", name);
	if ((averaged = fio_kind(in, jobs, njobs, name, err, errlen)) < 0)
		return averaged;
	for (size_t j = 0; j < njobs && averaged && !have_bw && !bs_opt; j++)
		for (size_t i = 0; i < jobs[j].n; i++)
			if (!jobs[j].r[i].bs)
				return slc_errf(err, errlen, -EINVAL,
						"%s: an averaged IOPS log has no block size; give --bs SIZE or import "
						"the matching _bw log", name);
	if (fio_grid(jobs, njobs, averaged, opts, &g_ms, &base_ms, &max_ms))
		return slc_errf(err, errlen, -EINVAL, "%s: cannot tell the logging interval", name);
	if ((max_ms - base_ms) / g_ms + 2 > (double)SLC__IMP_MAX_BINS)
		return slc_errf(err, errlen, -EINVAL,
				"%s: time span too long for the interval (over 2 million samples)", name);
	nbins = (size_t)((max_ms - base_ms) / g_ms) + 2;
	bins = calloc(nbins, sizeof(*bins));
	if (!bins)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	bs = fio_fill_bins(bins, nbins, jobs, njobs, g_ms, base_ms, averaged, have_bw, bs_opt);
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
	if (slc__import_meta(in, name, notes)) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	rc = fio_segment(in, bins, first_bin, nbins, g_ms, (uint32_t)(nbw ? nbw : niops),
			 !averaged || !have_bw ? (uint32_t)(bs > UINT32_MAX ? 0 : bs) : 0, name, err, errlen);
	if (!rc && nlat && fio_lat(in->segments, lat, nlat, first_bin, nbins, g_ms, base_ms, max_ms, averaged))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (!rc) {
		in->format = SLC_INPUT_FIO;
		fio_record(in, jobs, njobs, nlat, averaged, g_ms, bs_opt);
	}
out:
	free(bins);
	return rc;
}

/* The logs fio names NAME_<kind>.N.log; write_lat_log writes three. */
enum fio_kind { FIO_BW, FIO_IOPS, FIO_LAT, FIO_CLAT, FIO_SLAT };
static const char *const fio_kinds[] = { "bw", "iops", "lat", "clat", "slat" };

/*
 * Does @base look like NAME_<kind>.N.log?  Sets the prefix length, the kind
 * and N (fio's job number in its job file: from 1 for a file of one section,
 * from the section's first job in a file of several).
 */
static int fio_name(const char *base, size_t *prefix_len, enum fio_kind *kind, unsigned *num)
{
	const char *dot, *p;
	size_t n = strlen(base);

	if (n < 8 || strcmp(base + n - 4, ".log") != 0)
		return 0;
	dot = base + n - 4;
	p = dot;
	while (p > base && isdigit((unsigned char)p[-1]))
		p--;
	if (p == dot || p == base || p[-1] != '.' || dot - p > 6)
		return 0;
	*num = (unsigned)strtoul(p, NULL, 10);
	p--;
	for (int k = FIO_BW; k <= FIO_SLAT; k++) {
		size_t kl = strlen(fio_kinds[k]) + 1;

		if ((size_t)(p - base) >= kl && *(p - kl) == '_' &&
		    strncmp(p - kl + 1, fio_kinds[k], kl - 1) == 0) {
			*kind = (enum fio_kind)k;
			*prefix_len = (size_t)(p - kl - base);
			return 1;
		}
	}
	return 0;
}

/* A latency log is read with the bandwidth log of its job, never as one. */
static int fio_lat_refused(const char *name, enum fio_kind kind, char *err, size_t errlen)
{
	return slc_errf(err, errlen, -EINVAL, "%s: a latency log (_%s): import the job's _bw log beside it, which "
			"brings its _lat log along", name, fio_kinds[kind]);
}

/* Does the first data line look like a fio log line (4-7 numbers)? */
static int looks_like_fio(const char *text, size_t len)
{
	struct slc__lines l = { text, text + len, 0 };
	char line[SLC__IMP_MAX_LINE], *f[8];
	int r, nf;
	double v;

	while ((r = slc__next_line(&l, line, sizeof(line))) > 0 && slc__blank_or_comment(line))
		;
	if (r <= 0)
		return 0;
	nf = split(line, f, 8);
	if (nf < 4 || nf > 7)
		return 0;
	for (int i = 0; i < nf; i++)
		if (slc__parse_num(f[i], &v))
			return 0;
	return 1;
}

static void fio_jobs_free(struct fio_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(jobs[i].r);
	free(jobs);
}

/*
 * What every importer's result must be, checked in one place with the
 * table a trace is read with (limits.c): each sample's rate over its own
 * interval at most 1 PB/s, times, byte counts and latencies in range, the
 * segment's parameters (interval, block size, jobs) in range.  An importer
 * may miss a bound in its own units (an IOPS value times a block size, a
 * sector count over a snapshot's time); nothing passes this one.
 */
static int import_check(const struct slc_input *in, const char *name, char *err, size_t errlen)
{
	const char *base = slc__base_name(name);
	int rc = 0;

	for (size_t i = 0; i < in->n_segments && !rc; i++)
		if (!(rc = slc__limit_check_samples(&in->segments[i], base, err, errlen)))
			rc = slc__limit_check_params(&in->segments[i].params, base, err, errlen);
	return rc;
}

int slc_input_parse_text(struct slc_input **out, const char *name, const char *text, size_t len,
			 const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct slc_input *in;
	size_t prefix;
	enum fio_kind kind = FIO_BW;
	unsigned num;
	int named, rc;
	enum slc_input_format sys;

	*out = NULL;
	in = calloc(1, sizeof(*in));
	if (!in)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	in->source = strdup(name);
	if (!in->source) {
		slc_input_free(in);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	named = fio_name(slc__base_name(name), &prefix, &kind, &num);
	if (named && kind >= FIO_LAT) {
		rc = fio_lat_refused(name, kind, err, errlen);
	} else if (named || looks_like_fio(text, len)) {
		struct fio_job job = { 0 };

		job.is_iops = kind == FIO_IOPS;
		rc = fio_parse(&job, name, text, len, err, errlen);
		if (!rc)
			rc = fio_build(in, name, &job, 1, NULL, 0, opts, err, errlen);
		free(job.r);
	} else if (slc__fio_json_detect(text, len)) {
		rc = slc__fio_json_import(in, name, text, len, err, errlen);
	} else if ((sys = slc__sys_detect(text, len)) != 0) {
		rc = slc__sys_import(in, sys, name, text, len, opts, err, errlen);
	} else {
		rc = slc__csv_import(in, name, text, len, opts, err, errlen);
	}
	if (!rc)
		rc = import_check(in, name, err, errlen);
	if (rc) {
		slc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

static int read_whole(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	/* Not waiting for a writer: a FIFO (a fio job's log may be one) is refused below, never blocks. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
	struct stat st;
	char *buf;
	int rc = 0;

	*out = NULL;
	if (!fp) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return slc_errf(err, errlen, rc, "cannot open %s: %s", path, strerror(-rc));
	}
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

/* The first of the consecutive job numbers that @num is one of, as the files beside @path say. */
static unsigned fio_first_num(const char *path, size_t plen, enum fio_kind kind, unsigned num, char *file,
			      size_t flen)
{
	struct stat st;

	for (int k = 0; num > 1 && k < MAX_FIO_JOBS; k++) {
		snprintf(file, flen, "%.*s_%s.%u.log", (int)plen, path, fio_kinds[kind], num - 1);
		if (stat(file, &st) < 0)
			break;
		num--;
	}
	return num;
}

/* Read NAME_<kind>.N.log for N from @first on, while they exist, into @jobs. */
static int fio_load_kind(struct fio_job *jobs, size_t *njobs, const char *path, size_t plen, enum fio_kind kind,
			 unsigned first, char *file, size_t flen, char *err, size_t errlen)
{
	int rc = 0;

	for (unsigned n = first; n < first + MAX_FIO_JOBS && !rc; n++) {
		struct stat st;
		char *text;
		size_t len;

		snprintf(file, flen, "%.*s_%s.%u.log", (int)plen, path, fio_kinds[kind], n);
		if (stat(file, &st) < 0)
			break;
		if ((rc = read_whole(file, &text, &len, err, errlen)))
			break;
		jobs[*njobs].is_iops = kind == FIO_IOPS;
		rc = fio_parse(&jobs[*njobs], file, text, len, err, errlen);
		++*njobs;
		free(text);
	}
	return rc;
}

/*
 * Load NAME_bw.N.log and NAME_iops.N.log, and the NAME_lat.N.log of the
 * same jobs, beside @path.  fio numbers the jobs of a job file from 1 across
 * all its sections and a section's jobs one after the other, so a section's
 * logs start at its first job's number: the run of numbers that @path's is
 * one of.
 */
static int fio_load_family(struct slc_input *in, const char *path, size_t dir_len, size_t prefix_len,
			   enum fio_kind kind, unsigned num, const struct slc_import_opts *opts, char *err,
			   size_t errlen)
{
	struct fio_job *jobs = calloc(3 * MAX_FIO_JOBS, sizeof(*jobs));
	size_t njobs = 0, nlat = 0, plen = dir_len + prefix_len, flen = plen + 32;
	char *file = malloc(flen);
	unsigned first;
	int rc = 0;

	if (!jobs || !file) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	first = fio_first_num(path, plen, kind, num, file, flen);
	rc = fio_load_kind(jobs, &njobs, path, plen, FIO_BW, first, file, flen, err, errlen);
	if (!rc)
		rc = fio_load_kind(jobs, &njobs, path, plen, FIO_IOPS, first, file, flen, err, errlen);
	if (!rc)
		rc = fio_load_kind(jobs + njobs, &nlat, path, plen, FIO_LAT, first, file, flen, err, errlen);
	if (!rc && njobs == 0)
		rc = slc_errf(err, errlen, -ENOENT, "%s: no such fio log", path);
	if (!rc)
		rc = fio_build(in, path, jobs, njobs, jobs + njobs, nlat, opts, err, errlen);
out:
	if (jobs)
		fio_jobs_free(jobs, njobs + nlat);
	free(file);
	return rc;
}

int slc__import_load_file(struct slc_input *in, const char *path, const struct slc_import_opts *opts, char *err,
			  size_t errlen)
{
	const char *base = slc__base_name(path);
	struct slc_input *tmp = NULL;
	size_t prefix, len;
	enum fio_kind kind;
	unsigned num;
	int rc;
	char *text;

	if (fio_name(base, &prefix, &kind, &num)) {
		if (kind >= FIO_LAT)
			return fio_lat_refused(path, kind, err, errlen);
		rc = fio_load_family(in, path, (size_t)(base - path), prefix, kind, num, opts, err, errlen);
		return rc ? rc : import_check(in, path, err, errlen);
	}
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

/* ---- several inputs summed ----------------------------------------------- */

/* The cumulative curve of an import's one segment. */
static int input_curve(struct slc__curve *c, const struct slc_input *in)
{
	const struct slc_input_segment *s = &in->segments[0];
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->t0 = s->n_samples ? s->t_s[0] - s->interval_s[0] : 0;
	for (size_t i = 0; i < s->n_samples && !rc; i++)
		rc = slc__curve_add(c, s->t_s[i], (double)s->bytes_total[i]);
	return rc;
}

static int sum_record(struct slc_input *out, struct slc_input *const *parts, size_t n, double g)
{
	size_t len = 64;
	char *rec;

	for (size_t i = 0; i < n; i++)
		len += (parts[i]->import_record ? strlen(parts[i]->import_record) : 4) + 16;
	rec = malloc(len);
	if (!rec)
		return -ENOMEM;
	snprintf(rec, len, "{\"format\":\"sum\",\"grid_s\":%.15g,\"inputs\":[", g);
	for (size_t i = 0; i < n; i++)
		snprintf(rec + strlen(rec), len - strlen(rec), "%s%s", i ? "," : "",
			 parts[i]->import_record ? parts[i]->import_record : "null");
	strcat(rec, "]}");
	out->import_record = rec;
	return 0;
}

/* Notes and warnings of every part, each named by its file. */
static int sum_texts(struct slc_input *out, struct slc_input *const *parts, size_t n)
{
	char notes[1024];
	size_t k = (size_t)snprintf(notes, sizeof(notes), "%zu inputs summed on a common grid", n);

	for (size_t i = 0; i < n; i++) {
		if (parts[i]->import_notes && k < sizeof(notes))
			k += (size_t)snprintf(notes + k, sizeof(notes) - k, "; %s: %s",
					      slc__base_name(parts[i]->source), parts[i]->import_notes);
		if (parts[i]->import_warnings &&
		    slc__import_warn(out, "%s: %s", slc__base_name(parts[i]->source), parts[i]->import_warnings))
			return -ENOMEM;
	}
	return slc__import_meta(out, "", notes);
}

int slc__import_sum(struct slc_input *out, struct slc_input *const *parts, size_t n, char *err, size_t errlen)
{
	struct slc__curve *cv = calloc(n, sizeof(*cv)), sum = { 0 };
	double g = INFINITY;
	uint32_t jobs = 0;
	int rc = 0;

	if (!cv)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		if (parts[i]->format == SLC_INPUT_TRACE || parts[i]->n_segments != 1) {
			rc = slc_errf(err, errlen, -EINVAL, "%s: a slcscope trace cannot be summed with other inputs",
				      parts[i]->source);
			break;
		}
		if ((rc = input_curve(&cv[i], parts[i])))
			rc = slc_errf(err, errlen, rc, "%s: cannot read its samples back", parts[i]->source);
		g = fmin(g, parts[i]->segments[0].params.interval_s);
		jobs += parts[i]->segments[0].params.jobs ? parts[i]->segments[0].params.jobs : 1;
	}
	if (!rc && (rc = slc__curve_sum(&sum, cv, n, g)))
		rc = slc_errf(err, errlen, rc == -ENOMEM ? -ENOMEM : -EINVAL,
			      "the inputs span too long for their %g s grid (over 2 million samples)", g);
	if (!rc && (sum_texts(out, parts, n) || slc__curve_segment(out, &sum, jobs, 0) || sum_record(out, parts, n, g)))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (!rc) {
		free((char *)out->meta.target);
		out->meta.target = strdup(parts[0]->source);
		out->format = SLC_INPUT_SUM;
		rc = import_check(out, parts[0]->source, err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		slc__curve_free(&cv[i]);
	slc__curve_free(&sum);
	free(cv);
	return rc;
}

int slc__import_reads_too(const char *input, const char *other)
{
	const char *ib = slc__base_name(input), *ob = slc__base_name(other);
	size_t ip, op;
	enum fio_kind ik, ok;
	unsigned in, on;
	struct stat a, b;
	char ad[4096], bd[4096];

	if (!fio_name(ib, &ip, &ik, &in) || !fio_name(ob, &op, &ok, &on) || ip != op || strncmp(ib, ob, ip))
		return 0;
	snprintf(ad, sizeof(ad), "%.*s", ib == input ? 1 : (int)(ib - input), ib == input ? "." : input);
	snprintf(bd, sizeof(bd), "%.*s", ob == other ? 1 : (int)(ob - other), ob == other ? "." : other);
	return stat(ad, &a) == 0 && stat(bd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The first job number of the run of logs fio log @path is read with. */
static unsigned fio_run_first(const char *path)
{
	const char *base = slc__base_name(path);
	size_t prefix, plen;
	enum fio_kind kind;
	unsigned num, first;
	char *file;

	if (!fio_name(base, &prefix, &kind, &num)) return 0;
	plen = (size_t)(base - path) + prefix;
	if (!(file = malloc(plen + 32))) return num;
	first = fio_first_num(path, plen, kind, num, file, plen + 32);
	free(file);
	return first;
}

int slc__import_same_run(const char *a, const char *b)
{
	return slc__import_reads_too(a, b) && fio_run_first(a) == fio_run_first(b);
}
