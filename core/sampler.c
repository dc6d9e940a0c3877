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

void slc_sampler_init(struct slc_sampler *s, uint64_t t0_ns, uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->t0_ns = t0_ns;
	s->interval_ns = interval_ns ? interval_ns : 1000000000ull;
	s->edge_ns = t0_ns + s->interval_ns;
	s->temp_c = NAN;
}

static int emit(struct slc_sampler *s, uint64_t end_ns, slc_sample_fn fn, void *arg)
{
	struct slc_sample out;
	uint64_t start = s->edge_ns - s->interval_ns;

	out.t_s = (double)(end_ns - s->t0_ns) * 1e-9;
	out.interval_s = (double)(end_ns - start) * 1e-9;
	out.bytes_total = s->bytes_total;
	out.ios = s->ios;
	out.lat_p50_us = slc_lat_hist_quantile_us(&s->hist, 0.50);
	out.lat_p99_us = slc_lat_hist_quantile_us(&s->hist, 0.99);
	out.lat_p999_us = slc_lat_hist_quantile_us(&s->hist, 0.999);
	out.lat_max_us = slc_lat_hist_quantile_us(&s->hist, 1.0);
	out.temp_c = s->temp_c;
	s->ios = 0;
	if (s->hist.n)
		slc_lat_hist_reset(&s->hist);
	return fn ? fn(arg, &out) : 0;
}

int slc_sampler_add(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns,
		    slc_sample_fn fn, void *arg)
{
	int rc;

	while (t_ns > s->edge_ns) {
		if ((rc = emit(s, s->edge_ns, fn, arg)))
			return rc;
		s->edge_ns += s->interval_ns;
	}
	s->bytes_total += bytes;
	s->ios++;
	slc_lat_hist_add(&s->hist, lat_ns);
	return 0;
}

int slc_sampler_finish(struct slc_sampler *s, uint64_t t_end_ns, slc_sample_fn fn, void *arg)
{
	int rc;
	uint64_t start;

	while (t_end_ns > s->edge_ns) {
		if ((rc = emit(s, s->edge_ns, fn, arg)))
			return rc;
		s->edge_ns += s->interval_ns;
	}
	start = s->edge_ns - s->interval_ns;
	if (t_end_ns <= start)
		return 0;
	if (s->ios == 0 && (t_end_ns - start) * 100 < s->interval_ns)
		return 0;
	rc = emit(s, t_end_ns, fn, arg);
	s->edge_ns = t_end_ns + s->interval_ns;
	return rc;
}
