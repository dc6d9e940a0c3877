// SPDX-License-Identifier: MIT
/*
 * Sweeps: each point of a sweep plan (a segment of role "sweep") summed
 * over its length, reads and writes apart, as the reviews tabulate and
 * plot them: MB/s, IOPS, mean and p99 latency per point.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "report_doc.h"
#include "session_priv.h"
#include "sweep.h"

/* Whether segment @s holds the reads' columns (traces before them do not). */
static int has_read_columns(const struct slc_input_segment *s)
{
	for (size_t k = 0; k < s->n_samples; k++)
		if (s->read_ios[k] || isfinite(s->read_lat_p99_us[k]) || isfinite(s->write_lat_p99_us[k]))
			return 1;
	return 0;
}

static double per_s(double v, double t)
{
	return t > 0 ? v / t : NAN;
}

/* Latencies weighted by the commands they were measured over. */
struct wmean {
	double sum, n;
};

static void add_weighted(struct wmean *m, double v, double w)
{
	if (isfinite(v) && w > 0) {
		m->sum += v * w;
		m->n += w;
	}
}

static double wmean_of(const struct wmean *m)
{
	return m->n > 0 ? m->sum / m->n : NAN;
}

/* The recorder's percentiles are histogram bucket middles, within 1/64 of
 * the latency (32 linear buckets per power of two).  A p99 that far or less
 * under the mean is the bucket's rounding of latencies that barely vary:
 * the p99 of such I/O is the mean, and reading "p99 under the mean" would
 * be the rounding speaking, not the drive. */
static double p99_at_least_mean(double p99, double mean)
{
	if (isfinite(p99) && isfinite(mean) && p99 < mean && mean - p99 <= p99 / 64.0)
		return mean;
	return p99;
}

static void point_of(struct slc_sweep_point *pt, const struct slc_input_segment *s, size_t index)
{
	const struct slc_segment_params *p = &s->params;
	int reads = slc_workload_reads(slc_workload_from_name(p->workload)), split = has_read_columns(s);
	struct wmean p99 = { 0 }, r_mean = { 0 }, w_mean = { 0 }, r_p99 = { 0 }, w_p99 = { 0 };
	uint64_t bytes = s->n_samples ? s->bytes_total[s->n_samples - 1] : 0, rbytes, ios = 0, rios = 0;

	memset(pt, 0, sizeof(*pt));
	pt->segment = index;
	pt->step = p->step ? p->step : "";
	pt->workload = p->workload ? p->workload : "";
	pt->read_state = p->read_state ? p->read_state : "";
	pt->group = p->role_arg;
	pt->block_bytes = p->block_bytes;
	pt->qd = p->queue_depth;
	pt->jobs = p->jobs;
	pt->read_pct = p->read_pct;
	for (size_t k = 0; k < s->n_samples; k++) {
		/* without the reads' columns all I/O is of the workload's kind */
		uint64_t r = split ? s->read_ios[k] : (reads ? s->ios[k] : 0);
		double n = (double)s->ios[k], rn = (double)r, wn = n - rn;

		ios += s->ios[k];
		rios += r;
		pt->duration_s += s->interval_s[k];
		add_weighted(&p99, s->lat_p99_us[k], n);
		if (split) {
			add_weighted(&r_mean, s->read_lat_mean_us[k], rn);
			add_weighted(&w_mean, s->write_lat_mean_us[k], wn);
			add_weighted(&r_p99, s->read_lat_p99_us[k], rn);
			add_weighted(&w_p99, s->write_lat_p99_us[k], wn);
		} else {
			add_weighted(reads ? &r_p99 : &w_p99, s->lat_p99_us[k], n);
		}
	}
	rbytes = split ? (s->n_samples ? s->read_bytes_total[s->n_samples - 1] : 0) : (reads ? bytes : 0);
	pt->read_bytes = rbytes;
	pt->write_bytes = bytes - rbytes;
	pt->read_ios = rios;
	pt->write_ios = ios - rios;
	pt->read_bps = per_s((double)pt->read_bytes, pt->duration_s);
	pt->write_bps = per_s((double)pt->write_bytes, pt->duration_s);
	pt->read_iops = per_s((double)pt->read_ios, pt->duration_s);
	pt->write_iops = per_s((double)pt->write_ios, pt->duration_s);
	pt->read_lat_mean_us = wmean_of(&r_mean);
	pt->write_lat_mean_us = wmean_of(&w_mean);
	pt->lat_mean_us = r_mean.n + w_mean.n > 0 ? (r_mean.sum + w_mean.sum) / (r_mean.n + w_mean.n) : NAN;
	pt->lat_p99_us = p99_at_least_mean(wmean_of(&p99), pt->lat_mean_us);
	pt->read_lat_p99_us = p99_at_least_mean(wmean_of(&r_p99), pt->read_lat_mean_us);
	pt->write_lat_p99_us = p99_at_least_mean(wmean_of(&w_p99), pt->write_lat_mean_us);
}

size_t slc_sweep_points(const struct slc_input *in, struct slc_sweep_point *out, size_t max)
{
	enum slc_sweep_start start = SLC_SWEEP_START_UNKNOWN;
	size_t n = 0;

	for (size_t i = 0; i < in->n_segments; i++) {
		enum slc_role r = in->segments[i].params.role;
		if (r == SLC_ROLE_TRIM)
			start = SLC_SWEEP_START_TRIM;
		else if (r == SLC_ROLE_PRECONDITION)
			start = SLC_SWEEP_START_STEADY;
		if (r != SLC_ROLE_SWEEP)
			continue;
		if (out && n < max) {
			point_of(&out[n], &in->segments[i], i);
			out[n].start = start;
			out[n].settle_s = in->segments[i].params.idle_before_s;
		}
		/* steady state holds from point to point; a TRIM's clean drive does not */
		if (start != SLC_SWEEP_START_STEADY)
			start = SLC_SWEEP_START_AFTER_POINT;
		n++;
	}
	return n;
}

static const char *start_name(enum slc_sweep_start s)
{
	switch (s) {
	case SLC_SWEEP_START_TRIM: return "trim";
	case SLC_SWEEP_START_STEADY: return "steady";
	case SLC_SWEEP_START_AFTER_POINT: return "after_point";
	default: return "unknown";
	}
}

/* The state the points began from, in words ("" when unknown). */
static void start_words(char *buf, size_t len, const struct slc_sweep_point *pts, size_t n)
{
	char d[32];
	size_t k = 1, after = 0;

	buf[0] = '\0';
	while (k < n && pts[k].start == pts[0].start && pts[k].settle_s == pts[0].settle_s)
		k++;
	for (size_t i = 0; i < n; i++)
		after += pts[i].start == SLC_SWEEP_START_AFTER_POINT;
	if (after)
		snprintf(buf, len, "%zu of the %zu points began right after another, where it left off", after, n);
	else if (k == n && pts[0].start == SLC_SWEEP_START_TRIM)
		snprintf(buf, len, "each point began after a TRIM of everything, its region written and %s idle",
			 slc_duration_words(d, sizeof(d), pts[0].settle_s));
	else if (k == n && pts[0].start == SLC_SWEEP_START_STEADY)
		snprintf(buf, len, "the points began in steady state (preconditioned once) and ran back to back");
}

static void print_start(FILE *f, const struct slc_sweep_point *pts, size_t n)
{
	char w[160];

	start_words(w, sizeof(w), pts, n);
	if (w[0])
		fprintf(f, "  start: %s\n", w);
}

int slc__sweep_read(struct slc__sweep *t, const struct slc_input *in)
{
	t->pt = NULL;
	t->n = slc_sweep_points(in, NULL, 0);
	if (!t->n)
		return 0;
	if (!(t->pt = calloc(t->n, sizeof(*t->pt)))) {
		t->n = 0;
		return -ENOMEM;
	}
	slc_sweep_points(in, t->pt, t->n);
	return 0;
}

void slc__sweep_free(struct slc__sweep *t)
{
	free(t->pt);
	t->pt = NULL;
	t->n = 0;
}

/* @v with @decimals decimals, "-" when unknown. */
static void num(char *buf, size_t len, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

/* The throughput unit of the tables: its bytes per second and its name. */
static double mb_unit(enum slc_unit_system u, const char **name)
{
	*name = u == SLC_UNITS_BINARY ? "MiB/s" : "MB/s";
	return u == SLC_UNITS_BINARY ? 1048576.0 : 1e6;
}

void slc_sweep_print(FILE *f, const struct slc_input *in, enum slc_unit_system u)
{
	struct slc__sweep t;

	if (slc__sweep_read(&t, in))
		fprintf(f, "\nsweep: out of memory\n");
	slc__sweep_print(f, &t, u);
	slc__sweep_free(&t);
}

void slc__sweep_print(FILE *f, const struct slc__sweep *t, enum slc_unit_system u)
{
	size_t n = t->n;
	const struct slc_sweep_point *pts = t->pt;
	const char *mbs;
	double mb = mb_unit(u, &mbs);

	if (!n)
		return;
	fprintf(f, "\nsweep: %zu points (throughput in %s, IOPS in commands/s, latency in us)\n", n, mbs);
	print_start(f, pts, n);
	fprintf(f, "  %-20s %-10s %8s %4s %4s %6s %10s %10s %10s %10s %9s %9s\n", "step", "workload", "block", "QD",
		"jobs", "read%", "read", "write", "read", "write", "mean", "p99");
	fprintf(f, "  %-20s %-10s %8s %4s %4s %6s %10s %10s %10s %10s %9s %9s\n", "", "", "", "", "", "", mbs, mbs,
		"IOPS", "IOPS", "us", "us");
	for (size_t i = 0; i < n; i++) {
		const struct slc_sweep_point *p = &pts[i];
		char bs[32], c[6][32];

		slc_format_bytes(bs, sizeof(bs), p->block_bytes, SLC_UNITS_BINARY);
		num(c[0], sizeof(c[0]), p->read_bps / mb, 1);
		num(c[1], sizeof(c[1]), p->write_bps / mb, 1);
		num(c[2], sizeof(c[2]), p->read_iops, 0);
		num(c[3], sizeof(c[3]), p->write_iops, 0);
		num(c[4], sizeof(c[4]), p->lat_mean_us, 1);
		num(c[5], sizeof(c[5]), p->lat_p99_us, 1);
		fprintf(f, "  %-20s %-10s %8s %4u %4u %6u %10s %10s %10s %10s %9s %9s%s\n", p->step, p->workload, bs,
			p->qd, p->jobs, p->read_pct, c[0], c[1], c[2], c[3], c[4], c[5],
			strcmp(p->read_state, "trimmed") == 0 || strcmp(p->read_state, "partly") == 0 ?
			"  (reads of trimmed space)" : "");
	}
}

void slc__sweep_json(json_t *doc, const struct slc__sweep *t)
{
	size_t n = t->n;
	const struct slc_sweep_point *pts = t->pt;
	json_t *a;

	if (!n || !(a = json_array()))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct slc_sweep_point *p = &pts[i];
		json_t *o = json_pack("{s:I, s:s, s:I, s:s, s:I, s:I, s:I, s:I, s:s, s:f}",
				      "segment", (json_int_t)p->segment, "step", p->step, "group", (json_int_t)p->group,
				      "workload", p->workload, "block_bytes", (json_int_t)p->block_bytes,
				      "qd", (json_int_t)p->qd, "jobs", (json_int_t)p->jobs,
				      "read_pct", (json_int_t)p->read_pct, "read_state", p->read_state,
				      "duration_s", p->duration_s);
		if (!o)
			continue;
		json_object_set_new(o, "start", json_string(start_name(p->start)));
		json_object_set_new(o, "settle_s", json_real(p->settle_s));
		json_object_set_new(o, "read_bytes", json_integer((json_int_t)p->read_bytes));
		json_object_set_new(o, "write_bytes", json_integer((json_int_t)p->write_bytes));
		json_object_set_new(o, "read_ios", json_integer((json_int_t)p->read_ios));
		json_object_set_new(o, "write_ios", json_integer((json_int_t)p->write_ios));
		json_object_set_new(o, "read_bps", slc__jnum(p->read_bps));
		json_object_set_new(o, "write_bps", slc__jnum(p->write_bps));
		json_object_set_new(o, "read_iops", slc__jnum(p->read_iops));
		json_object_set_new(o, "write_iops", slc__jnum(p->write_iops));
		json_object_set_new(o, "lat_mean_us", slc__jnum(p->lat_mean_us));
		json_object_set_new(o, "lat_p99_us", slc__jnum(p->lat_p99_us));
		json_object_set_new(o, "read_lat_mean_us", slc__jnum(p->read_lat_mean_us));
		json_object_set_new(o, "read_lat_p99_us", slc__jnum(p->read_lat_p99_us));
		json_object_set_new(o, "write_lat_mean_us", slc__jnum(p->write_lat_mean_us));
		json_object_set_new(o, "write_lat_p99_us", slc__jnum(p->write_lat_p99_us));
		json_array_append_new(a, o);
	}
	json_object_set_new(doc, "sweep", a);
}

int slc__sweep_csv(FILE *f, const struct slc__sweep *t)
{
	size_t n = t->n;
	const struct slc_sweep_point *pts = t->pt;
	char v[12][40];

	fprintf(f, "segment,step,group,workload,block_bytes,qd,jobs,read_pct,read_state,duration_s,read_bytes,"
		   "write_bytes,read_bps,write_bps,read_iops,write_iops,lat_mean_us,lat_p99_us,read_lat_mean_us,"
		   "read_lat_p99_us,write_lat_mean_us,write_lat_p99_us\n");
	for (size_t i = 0; i < n; i++) {
		const struct slc_sweep_point *p = &pts[i];
		const double d[12] = { p->duration_s, p->read_bps, p->write_bps, p->read_iops, p->write_iops,
				       p->lat_mean_us, p->lat_p99_us, p->read_lat_mean_us, p->read_lat_p99_us,
				       p->write_lat_mean_us, p->write_lat_p99_us, 0 };
		for (int k = 0; k < 11; k++) {
			if (isfinite(d[k]))
				snprintf(v[k], sizeof(v[k]), "%.9g", d[k]);
			else
				v[k][0] = '\0';
		}
		/* step names are free text in a trace: quoted, as RFC 4180 has it */
		fprintf(f, "%zu,\"", p->segment);
		for (const char *c = p->step; *c; c++) {
			if (*c == '"') fputc('"', f);
			fputc(*c, f);
		}
		fprintf(f, "\",%u,%s,%u,%u,%u,%u,%s,%s,%llu,%llu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p->group, p->workload,
			p->block_bytes, p->qd, p->jobs, p->read_pct, p->read_state, v[0],
			(unsigned long long)p->read_bytes, (unsigned long long)p->write_bytes, v[1], v[2], v[3], v[4],
			v[5], v[6], v[7], v[8], v[9], v[10]);
	}
	return slc_stream_error(f);
}

void slc__sweep_section(struct doc *d, const struct slc__sweep *t, enum slc_unit_system u,
			const struct report_fig *figs, size_t nfigs)
{
	const char *head[11] = { "point", "workload", "block", "QD x jobs", "reads", "read MB/s", "write MB/s",
				 "read IOPS", "write IOPS", "mean latency (µs)", "p99 latency (µs)" };
	size_t n = t->n;
	const struct slc_sweep_point *pts = t->pt;
	const char *mbs;
	double mb = mb_unit(u, &mbs);
	char c0[160];

	if (!n)
		return;
	if (u == SLC_UNITS_BINARY) {
		head[5] = "read MiB/s";
		head[6] = "write MiB/s";
	}
	slc__doc_heading(d, 2, "Sweeps");
	slc__doc_para(d, "%zu points, each over its whole length; reads and writes apart, throughput in %s, "
		      "latency in microseconds (p99: the intervals' p99 weighted by their commands). Also in "
		      "sweep.csv and phases.json (sweep).", n, mbs);
	start_words(c0, sizeof(c0), pts, n);
	if (c0[0])
		slc__doc_para(d, "Start: %s.", c0);
	slc__doc_table(d, 11, head);
	for (size_t i = 0; i < n; i++) {
		const struct slc_sweep_point *p = &pts[i];
		char c[11][96];

		snprintf(c[0], 96, "%.95s", p->step);
		snprintf(c[1], 96, "%.95s", p->workload);
		slc_format_bytes(c[2], 96, p->block_bytes, SLC_UNITS_BINARY);
		snprintf(c[3], 96, "%u x %u", p->qd, p->jobs);
		snprintf(c[4], 96, "%u%%%s", p->read_pct, strcmp(p->read_state, "trimmed") &&
			 strcmp(p->read_state, "partly") ? "" : " (of trimmed space)");
		num(c[5], 96, p->read_bps / mb, 1);
		num(c[6], 96, p->write_bps / mb, 1);
		num(c[7], 96, p->read_iops, 0);
		num(c[8], 96, p->write_iops, 0);
		num(c[9], 96, p->lat_mean_us, 1);
		num(c[10], 96, p->lat_p99_us, 1);
		slc__doc_row(d, 11, c);
	}
	slc__doc_table_end(d);
	for (size_t f = 0; f < nfigs; f++)
		if (figs[f].curve == SLC__FIG_SWEEP)
			slc__doc_figure(d, figs[f].name, figs[f].caption);
}
