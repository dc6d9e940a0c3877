// SPDX-License-Identifier: MIT
/*
 * Interval sampling with a log-linear latency histogram.
 */
#include <math.h>
#include <string.h>

#include "slcscope/core.h"

void slc_lat_hist_reset(struct slc_lat_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static inline unsigned bucket_of(uint64_t v)
{
	unsigned msb, idx;

	if (v < 64)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	idx = 64u + (msb - 6u) * SLC_LAT_SUB + (unsigned)((v >> (msb - 5)) & (SLC_LAT_SUB - 1));
	return idx < SLC_LAT_BUCKETS ? idx : SLC_LAT_BUCKETS - 1;
}

/* Middle of bucket @i in ns. */
static double bucket_mid(unsigned i)
{
	unsigned msb, sub;
	double lo, width;

	if (i < 64)
		return (double)i;
	msb = (i - 64u) / SLC_LAT_SUB + 6u;
	sub = (i - 64u) % SLC_LAT_SUB;
	width = ldexp(1.0, (int)msb - 5);
	lo = ldexp(1.0, (int)msb) + sub * width;
	return lo + width / 2;
}

void slc_lat_hist_add(struct slc_lat_hist *h, uint64_t lat_ns)
{
	h->count[bucket_of(lat_ns)]++;
	h->n++;
	if (lat_ns > h->max_ns)
		h->max_ns = lat_ns;
}

double slc_lat_hist_quantile_us(const struct slc_lat_hist *h, double q)
{
	uint64_t rank, seen = 0;
	double v;

	if (h->n == 0)
		return NAN;
	if (q >= 1.0)
		return (double)h->max_ns / 1000.0;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank == 0) rank = 1;
	for (unsigned i = 0; i < SLC_LAT_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank) {
			v = bucket_mid(i);
			/* never report more than the true maximum */
			if (v > (double)h->max_ns) v = (double)h->max_ns;
			return v / 1000.0;
		}
	}
	return (double)h->max_ns / 1000.0;
}

/*
 * A run's last interval ends when its last command completes, usually just
 * past an interval's end (a time limit falls on one; the drain after it
 * takes a fraction of a millisecond): a sample that short has a throughput
 * of its few completions over almost no time, an outlier.  So a finished
 * interval is held until the next one has lasted SHORT_DIV-th of an
 * interval, and a run that ends before that extends the held sample to its
 * end, unless it is the run's first.  Samples reach the callback at most that much later than before.
 */
#define SHORT_DIV 10

void slc_sampler_init(struct slc_sampler *s, uint64_t t0_ns, uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->t0_ns = t0_ns;
	s->interval_ns = interval_ns ? interval_ns : 1000000000ull;
	s->edge_ns = t0_ns + s->interval_ns;
	s->temp_c = NAN;
}

static int put(const struct slc_sampler *s, uint64_t start_ns, uint64_t end_ns, uint64_t bytes_total, uint64_t ios,
	       const struct slc_lat_hist *h, slc_sample_fn fn, void *arg)
{
	struct slc_sample out;

	out.t_s = (double)(end_ns - s->t0_ns) * 1e-9;
	out.interval_s = (double)(end_ns - start_ns) * 1e-9;
	out.bytes_total = bytes_total;
	out.ios = ios;
	out.lat_p50_us = slc_lat_hist_quantile_us(h, 0.50);
	out.lat_p99_us = slc_lat_hist_quantile_us(h, 0.99);
	out.lat_p999_us = slc_lat_hist_quantile_us(h, 0.999);
	out.lat_max_us = slc_lat_hist_quantile_us(h, 1.0);
	out.temp_c = s->temp_c;
	return fn ? fn(arg, &out) : 0;
}

/* Hand the held interval to @fn. */
static int release(struct slc_sampler *s, slc_sample_fn fn, void *arg)
{
	if (!s->held)
		return 0;
	s->held = 0;
	s->handed++;
	return put(s, s->held_start_ns, s->held_end_ns, s->held_bytes_total, s->held_ios, &s->held_hist, fn, arg);
}

/* The current interval ended at edge_ns: the one held before it was not the
 * last, this one is held in its place.  The state moves on whatever @fn
 * returns (a caller that stops on it still completes what is in flight). */
static int close_interval(struct slc_sampler *s, slc_sample_fn fn, void *arg)
{
	int rc = release(s, fn, arg);

	s->held = 1;
	s->held_start_ns = s->edge_ns - s->interval_ns;
	s->held_end_ns = s->edge_ns;
	s->held_bytes_total = s->bytes_total;
	s->held_ios = s->ios;
	if (s->hist.n) {
		s->held_hist = s->hist;
		slc_lat_hist_reset(&s->hist);
	} else if (s->held_hist.n) {
		slc_lat_hist_reset(&s->held_hist);
	}
	s->ios = 0;
	s->edge_ns += s->interval_ns;
	return rc;
}

/* Close every interval that ended before @t_ns; release the held one once
 * the current interval is too long to be merged into it. */
static int advance(struct slc_sampler *s, uint64_t t_ns, slc_sample_fn fn, void *arg)
{
	int rc = 0, r2;

	while (t_ns > s->edge_ns)
		if ((r2 = close_interval(s, fn, arg)) && !rc)
			rc = r2;
	if (s->held && (t_ns - (s->edge_ns - s->interval_ns)) * SHORT_DIV >= s->interval_ns &&
	    (r2 = release(s, fn, arg)) && !rc)
		rc = r2;
	return rc;
}

int slc_sampler_add(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns,
		    slc_sample_fn fn, void *arg)
{
	int rc = advance(s, t_ns, fn, arg);

	/* counted even when @fn said stop: the I/O did complete */
	s->bytes_total += bytes;
	s->ios++;
	slc_lat_hist_add(&s->hist, lat_ns);
	return rc;
}

int slc_sampler_finish(struct slc_sampler *s, uint64_t t_end_ns, slc_sample_fn fn, void *arg)
{
	uint64_t start;
	int rc = 0, r2;

	while (t_end_ns > s->edge_ns)
		if ((r2 = close_interval(s, fn, arg)) && !rc)
			rc = r2;
	start = s->edge_ns - s->interval_ns;
	if (t_end_ns <= start)
		return (r2 = release(s, fn, arg)) && !rc ? r2 : rc;
	if (s->held && s->handed && (t_end_ns - start) * SHORT_DIV < s->interval_ns) {
		/* too short to stand alone: the held sample takes it in (not a
		 * run's first: a run of one interval would be left with one sample,
		 * and the analysis wants two of a curve) */
		s->held_end_ns = t_end_ns;
		s->held_bytes_total = s->bytes_total;
		s->held_ios += s->ios;
		for (unsigned i = 0; s->hist.n && i < SLC_LAT_BUCKETS; i++)
			s->held_hist.count[i] += s->hist.count[i];
		s->held_hist.n += s->hist.n;
		if (s->hist.max_ns > s->held_hist.max_ns)
			s->held_hist.max_ns = s->hist.max_ns;
	} else if ((r2 = release(s, fn, arg)) && !rc) {
		rc = r2;
	}
	if (!s->held && (s->ios || (t_end_ns - start) * 100 >= s->interval_ns) &&
	    (r2 = put(s, start, t_end_ns, s->bytes_total, s->ios, &s->hist, fn, arg)) && !rc)
		rc = r2;
	if ((r2 = release(s, fn, arg)) && !rc)
		rc = r2;
	s->ios = 0;
	if (s->hist.n)
		slc_lat_hist_reset(&s->hist);
	s->edge_ns = t_end_ns + s->interval_ns;
	return rc;
}
