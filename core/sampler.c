// SPDX-License-Identifier: MIT
/*
 * Interval sampling with a log-linear latency histogram.
 */
#include <math.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"

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

static inline void hist_add(struct slc_lat_hist *h, uint64_t lat_ns)
{
	h->count[bucket_of(lat_ns)]++;
	h->n++;
	if (lat_ns > h->max_ns)
		h->max_ns = lat_ns;
}

void slc_lat_hist_add(struct slc_lat_hist *h, uint64_t lat_ns)
{
	hist_add(h, lat_ns);
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

static double mean_us(uint64_t sum_ns, uint64_t n)
{
	return n ? (double)sum_ns / (double)n / 1000.0 : NAN;
}

static int put(const struct slc_sampler *s, uint64_t start_ns, uint64_t end_ns, const struct slc_sampler_acc *a,
	       slc_sample_fn fn, void *arg)
{
	struct slc_sample out;

	memset(&out, 0, sizeof(out));
	out.t_s = (double)(end_ns - s->t0_ns) * 1e-9;
	out.interval_s = (double)(end_ns - start_ns) * 1e-9;
	out.bytes_total = a->bytes_total;
	out.ios = a->ios;
	out.lat_p50_us = slc_lat_hist_quantile_us(&a->hist, 0.50);
	out.lat_p99_us = slc_lat_hist_quantile_us(&a->hist, 0.99);
	out.lat_p999_us = slc_lat_hist_quantile_us(&a->hist, 0.999);
	out.lat_max_us = slc_lat_hist_quantile_us(&a->hist, 1.0);
	out.temp_c = s->temp_c;
	out.read_bytes_total = a->read_bytes_total;
	out.read_ios = a->read_ios;
	out.read_lat_mean_us = mean_us(a->lat_sum_ns[1], a->dir[1].n);
	out.read_lat_p50_us = slc_lat_hist_quantile_us(&a->dir[1], 0.50);
	out.read_lat_p99_us = slc_lat_hist_quantile_us(&a->dir[1], 0.99);
	out.write_lat_mean_us = mean_us(a->lat_sum_ns[0], a->dir[0].n);
	out.write_lat_p50_us = slc_lat_hist_quantile_us(&a->dir[0], 0.50);
	out.write_lat_p99_us = slc_lat_hist_quantile_us(&a->dir[0], 0.99);
	out.writer_cpu = out.writer_wait = NAN;   /* the engine measures them */
	return fn ? fn(arg, &out) : 0;
}

/* Hand the held interval to @fn. */
static int release(struct slc_sampler *s, slc_sample_fn fn, void *arg)
{
	if (!s->held)
		return 0;
	s->held = 0;
	s->handed++;
	return put(s, s->held_start_ns, s->held_end_ns, &s->held_acc, fn, arg);
}

/* Empty a histogram only when it holds something: a reset writes 9 KiB. */
static void hist_clear(struct slc_lat_hist *h)
{
	if (h->n)
		slc_lat_hist_reset(h);
}

static void hist_copy(struct slc_lat_hist *dst, const struct slc_lat_hist *src)
{
	if (src->n)
		*dst = *src;
	else
		hist_clear(dst);
}

/*
 * @a's histogram of all I/O from its reads' and writes': a command is
 * counted in its direction only, which halves the histogram work per
 * command (the sum is exact, so the quantiles are those of a histogram
 * counted directly).
 */
static void acc_total(struct slc_sampler_acc *a)
{
	struct slc_lat_hist *h = &a->hist;

	if (!a->dir[1].n || !a->dir[0].n) {
		hist_copy(h, a->dir[1].n ? &a->dir[1] : &a->dir[0]);
		return;
	}
	for (unsigned i = 0; i < SLC_LAT_BUCKETS; i++)
		h->count[i] = a->dir[0].count[i] + a->dir[1].count[i];
	h->n = a->dir[0].n + a->dir[1].n;
	h->max_ns = a->dir[0].max_ns > a->dir[1].max_ns ? a->dir[0].max_ns : a->dir[1].max_ns;
}

/* Start a new interval: the per-interval counts go, the cumulative ones stay. */
static void acc_restart(struct slc_sampler_acc *a)
{
	a->ios = a->read_ios = 0;
	a->lat_sum_ns[0] = a->lat_sum_ns[1] = 0;
	hist_clear(&a->hist);
	hist_clear(&a->dir[0]);
	hist_clear(&a->dir[1]);
}

/* @a's interval into @into's (the cumulative counts become @a's). */
static void acc_merge(struct slc_sampler_acc *into, const struct slc_sampler_acc *a)
{
	const struct slc_lat_hist *src[3] = { &a->hist, &a->dir[0], &a->dir[1] };
	struct slc_lat_hist *dst[3] = { &into->hist, &into->dir[0], &into->dir[1] };

	into->bytes_total = a->bytes_total;
	into->read_bytes_total = a->read_bytes_total;
	into->ios += a->ios;
	into->read_ios += a->read_ios;
	into->lat_sum_ns[0] += a->lat_sum_ns[0];
	into->lat_sum_ns[1] += a->lat_sum_ns[1];
	for (int k = 0; k < 3; k++) {
		for (unsigned i = 0; src[k]->n && i < SLC_LAT_BUCKETS; i++)
			dst[k]->count[i] += src[k]->count[i];
		dst[k]->n += src[k]->n;
		if (src[k]->max_ns > dst[k]->max_ns)
			dst[k]->max_ns = src[k]->max_ns;
	}
}

/* The current interval ended at edge_ns: the one held before it was not the
 * last, this one is held in its place.  The state moves on whatever @fn
 * returns (a caller that stops on it still completes what is in flight). */
static int close_interval(struct slc_sampler *s, slc_sample_fn fn, void *arg)
{
	int rc = release(s, fn, arg);
	struct slc_sampler_acc *h = &s->held_acc, *c = &s->cur;

	acc_total(c);
	s->held = 1;
	s->held_start_ns = s->edge_ns - s->interval_ns;
	s->held_end_ns = s->edge_ns;
	h->bytes_total = c->bytes_total;
	h->read_bytes_total = c->read_bytes_total;
	h->ios = c->ios;
	h->read_ios = c->read_ios;
	h->lat_sum_ns[0] = c->lat_sum_ns[0];
	h->lat_sum_ns[1] = c->lat_sum_ns[1];
	hist_copy(&h->hist, &c->hist);
	hist_copy(&h->dir[0], &c->dir[0]);
	hist_copy(&h->dir[1], &c->dir[1]);
	acc_restart(c);
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

int slc_sampler_add_rw(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns, int is_read,
		       slc_sample_fn fn, void *arg)
{
	int rc = advance(s, t_ns, fn, arg), d = !!is_read;
	struct slc_sampler_acc *c = &s->cur;

	/* counted even when @fn said stop: the I/O did complete */
	c->bytes_total += bytes;
	c->ios++;
	if (d) {
		c->read_bytes_total += bytes;
		c->read_ios++;
	}
	c->lat_sum_ns[d] += lat_ns;
	hist_add(&c->dir[d], lat_ns);
	return rc;
}

int slc_sampler_add(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns,
		    slc_sample_fn fn, void *arg)
{
	return slc_sampler_add_rw(s, t_ns, bytes, lat_ns, 0, fn, arg);
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
	acc_total(&s->cur);
	if (s->held && s->handed && (t_end_ns - start) * SHORT_DIV < s->interval_ns) {
		/* too short to stand alone: the held sample takes it in (not a
		 * run's first: a run of one interval would be left with one sample,
		 * and the analysis wants two of a curve) */
		s->held_end_ns = t_end_ns;
		acc_merge(&s->held_acc, &s->cur);
	} else if ((r2 = release(s, fn, arg)) && !rc) {
		rc = r2;
	}
	if (!s->held && (s->cur.ios || (t_end_ns - start) * 100 >= s->interval_ns) &&
	    (r2 = put(s, start, t_end_ns, &s->cur, fn, arg)) && !rc)
		rc = r2;
	if ((r2 = release(s, fn, arg)) && !rc)
		rc = r2;
	acc_restart(&s->cur);
	s->edge_ns = t_end_ns + s->interval_ns;
	return rc;
}

int slc_sampler_pause(struct slc_sampler *s, uint64_t from_ns, uint64_t to_ns, slc_sample_fn fn, void *arg)
{
	/* what came before the pause ends as a run would; what follows
	 * starts a fresh grid, its samples handed on as before */
	int rc = slc_sampler_finish(s, from_ns, fn, arg);

	s->edge_ns = (to_ns > from_ns ? to_ns : from_ns) + s->interval_ns;
	return rc;
}

void slc__acc_add(struct slc_sampler_acc *a, uint32_t bytes, uint64_t lat_ns, int is_read)
{
	int d = !!is_read;

	a->bytes_total += bytes;
	a->ios++;
	if (d) {
		a->read_bytes_total += bytes;
		a->read_ios++;
	}
	a->lat_sum_ns[d] += lat_ns;
	hist_add(&a->dir[d], lat_ns);
}

/* @from's counts into @into's, bytes included (both hold one interval's). */
void slc__acc_sum(struct slc_sampler_acc *into, const struct slc_sampler_acc *from)
{
	into->bytes_total += from->bytes_total;
	into->read_bytes_total += from->read_bytes_total;
	into->ios += from->ios;
	into->read_ios += from->read_ios;
	for (int d = 0; d < 2; d++) {
		const struct slc_lat_hist *src = &from->dir[d];
		struct slc_lat_hist *dst = &into->dir[d];

		into->lat_sum_ns[d] += from->lat_sum_ns[d];
		for (unsigned i = 0; src->n && i < SLC_LAT_BUCKETS; i++)
			dst->count[i] += src->count[i];
		dst->n += src->n;
		if (src->max_ns > dst->max_ns)
			dst->max_ns = src->max_ns;
	}
}

int slc__sampler_add_acc(struct slc_sampler *s, uint64_t t_ns, const struct slc_sampler_acc *a, slc_sample_fn fn,
			 void *arg)
{
	int rc = advance(s, t_ns, fn, arg);

	slc__acc_sum(&s->cur, a);
	return rc;
}
