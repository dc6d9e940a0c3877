// SPDX-License-Identifier: MIT
/* The physical ranges of a trace's attributes and samples (limits.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "limits.h"

#include "../private.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)
#define EXACT 9007199254740992.0             /* 2^53: every integer below is exact as a double */

/*
 * docs/trace-format.md ("Limits") gives each line's reason; keep the two
 * together.  The ranges are wide enough for every drive, run and import
 * there is, and narrow enough that what lies outside cannot be one.
 */
static const struct slc__limit limits[] = {
	{ "capacity_bytes", "bytes", MIB, EXACT, 1, 1, "1 MiB to 2^53 bytes, or 0: unknown" },
	{ "logical_block_bytes", "bytes", 512, 64 * KIB, 1, 1, "512 bytes to 64 KiB, or 0: unknown" },
	{ "block_bytes", "bytes", 1, GIB, 1, 1, "1 byte to 1 GiB, or 0: unknown" },
	{ "queue_depth", "commands", 1, 65536, 1, 1, "1 to 65536, or 0: unknown" },
	{ "jobs", "streams", 1, 65536, 1, 1, "1 to 65536, or 0: unknown" },
	{ "planned_steps", "steps", 1, 65536, 1, 1, "1 to 65536, or 0: unknown" },
	{ "reap_batch", "commands", 1, 65536, 1, 1, "1 to 65536, or 0: unknown" },
	{ "poll_us", "us", 0, 1e6, 0, 1, "0 to 1 s" },
	{ "offset_bytes", "bytes", 0, EXACT, 0, 1, "0 to 2^53 bytes" },
	{ "range_bytes", "bytes", 0, EXACT, 0, 1, "0 to 2^53 bytes" },
	{ "idle_before_s", "s", 0, 1e7, 0, 0, "0 to 10^7 s, 116 days" },
	{ "interval_s", "s", 1e-6, 1e6, 0, 0, "1 us to 10^6 s, 11.6 days" },
	{ "role_arg", "s or %", 0, 1e7, 0, 1, "0 to 10^7" },
	{ "read_pct", "%", 0, 100, 0, 1, "0 to 100" },
	{ "t_s", "s", 0, SLC__INPUT_MAX_TIME_S, 0, 0, "0 to 10^10 s" },
	{ "segment", "index", -1, 99999, 0, 1, "-1 to 99999" },
	{ "index", "index", 0, 99999, 0, 1, "0 to 99999" },
	{ "seed", "", 0, 18446744073709551615.0, 0, 1, "0 to 2^64-1" },
};

const struct slc__limit *slc__limit_find(const char *name)
{
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (strcmp(limits[i].name, name) == 0)
			return &limits[i];
	return NULL;
}

int slc__limit_ok(const struct slc__limit *l, double v)
{
	if (isnan(v))
		return 0;
	if (l->zero_unknown && v == 0)
		return 1;
	return v >= l->lo && v <= l->hi && (!l->integer || v == floor(v));
}

int slc__limit_refuse(char *err, size_t errlen, const struct slc__limit *l, const char *path, double v)
{
	return slc_errf(err, errlen, -ERANGE, "attribute %s = %.17g is out of range (%s)", path, v, l->range);
}

/* A latency (us) or temperature (degC) value: unknown (NaN) or in range. */
static int plausible(double v, double lo, double hi)
{
	return isnan(v) || (v >= lo && v <= hi);
}

/* The reads' columns of sample @i: a part of all I/O, never shrinking. */
static int check_reads(const struct slc_input_segment *seg, size_t i, const char *what, char *err, size_t errlen)
{
	const double *lat[] = { seg->read_lat_mean_us, seg->read_lat_p50_us, seg->read_lat_p99_us,
				seg->write_lat_mean_us, seg->write_lat_p50_us, seg->write_lat_p99_us };

	if (seg->read_bytes_total[i] > seg->bytes_total[i] || seg->read_ios[i] > seg->ios[i] ||
	    (i && seg->read_bytes_total[i] < seg->read_bytes_total[i - 1]))
		return slc_errf(err, errlen, -EINVAL, "%s: sample %zu counts more reads than I/O, "
				"or read_bytes_total shrinks", what, i);
	for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++)
		if (lat[k] && !plausible(lat[k][i], 0, SLC__INPUT_MAX_TIME_S * 1e6))
			return slc_errf(err, errlen, -EINVAL,
					"%s: sample %zu has a negative, infinite or impossible read or write latency",
					what, i);
	return 0;
}

int slc__limit_check_samples(const struct slc_input_segment *seg, const char *what, char *err, size_t errlen)
{
	int rc;

	for (size_t i = 0; i < seg->n_samples; i++) {
		double t = seg->t_s[i], dt = seg->interval_s[i];
		uint64_t prev = i ? seg->bytes_total[i - 1] : 0;

		if (!(t >= 0 && t <= SLC__INPUT_MAX_TIME_S) || !(dt >= 0 && dt <= SLC__INPUT_MAX_TIME_S))
			return slc_errf(err, errlen, -EINVAL,
					"%s: sample %zu has a time or interval outside 0 to %g s", what, i,
					SLC__INPUT_MAX_TIME_S);
		if (i && t < seg->t_s[i - 1])
			return slc_errf(err, errlen, -EINVAL, "%s: time goes backwards at sample %zu", what, i);
		/* a sample is the interval_s before its t_s, and begins where the
		 * one before ended (the writer measures both ends, the importers
		 * take the step between times): an overlap beyond rounding, 5% of
		 * the sample, would make every rate and each phase's start wrong
		 * (one at the time of the one before is of zero length: the reader
		 * merges it into that one) */
		if ((!i || t > seg->t_s[i - 1]) && t - dt < (i ? seg->t_s[i - 1] : 0) - 0.05 * dt)
			return slc_errf(err, errlen, -EINVAL,
					"%s: sample %zu's interval (%g s) reaches back over the sample before it "
					"(its time %g s, the previous %g s)", what, i, dt, t, i ? seg->t_s[i - 1] : 0.0);
		if ((double)seg->bytes_total[i] > SLC__INPUT_MAX_BYTES || (double)seg->ios[i] > SLC__INPUT_MAX_BYTES)
			return slc_errf(err, errlen, -EINVAL, "%s: sample %zu counts more than 2^63 bytes or I/Os",
					what, i);
		if (seg->bytes_total[i] < prev)
			return slc_errf(err, errlen, -EINVAL, "%s: bytes_total shrinks at sample %zu", what, i);
		/* The rate of the bytes over the sample's own interval: what the analysis will see. */
		if (dt > 0 && (double)(seg->bytes_total[i] - prev) / dt > SLC__INPUT_MAX_RATE_BPS)
			return slc_errf(err, errlen, -EINVAL, "%s: sample %zu is faster than %g bytes/s (1 PB/s)",
					what, i, SLC__INPUT_MAX_RATE_BPS);
		if (!plausible(seg->lat_p50_us[i], 0, SLC__INPUT_MAX_TIME_S * 1e6) ||
		    !plausible(seg->lat_p99_us[i], 0, SLC__INPUT_MAX_TIME_S * 1e6) ||
		    !plausible(seg->lat_p999_us[i], 0, SLC__INPUT_MAX_TIME_S * 1e6) ||
		    !plausible(seg->lat_max_us[i], 0, SLC__INPUT_MAX_TIME_S * 1e6) ||
		    !plausible(seg->temp_c[i], -273.15, 1000))
			return slc_errf(err, errlen, -EINVAL,
					"%s: sample %zu has a negative, infinite or impossible latency or temperature",
					what, i);
		/* one thread's CPU share: skew between the two clocks lets it pass 1 a little, never 100 */
		if ((seg->writer_cpu && !plausible(seg->writer_cpu[i], 0, 100)) ||
		    (seg->writer_wait && !plausible(seg->writer_wait[i], 0, 100)))
			return slc_errf(err, errlen, -EINVAL, "%s: sample %zu has a writer CPU share outside 0 to 100",
					what, i);
		if ((rc = check_reads(seg, i, what, err, errlen)))
			return rc;
	}
	return 0;
}

int slc__limit_check_params(const struct slc_segment_params *p, const char *what, char *err, size_t errlen)
{
	const struct { const char *name; double v; } v[] = {
		{ "block_bytes", p->block_bytes }, { "queue_depth", p->queue_depth }, { "jobs", p->jobs },
		{ "reap_batch", p->reap_batch }, { "poll_us", p->poll_us },
		{ "offset_bytes", (double)p->offset_bytes }, { "range_bytes", (double)p->range_bytes },
		{ "idle_before_s", p->idle_before_s }, { "interval_s", p->interval_s },
		{ "role_arg", p->role_arg }, { "read_pct", p->read_pct },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct slc__limit *l = slc__limit_find(v[i].name);

		if (!slc__limit_ok(l, v[i].v))
			return slc_errf(err, errlen, -ERANGE, "%s: the %s read, %.17g, is out of range (%s)", what,
					v[i].name, v[i].v, l->range);
	}
	return 0;
}

size_t slc__utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

void slc__escape_text(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (!len)
		return;
	while (*p) {
		size_t n = slc__utf8_len(p);

		if (n == 1 && (*p < ' ' || *p == 0x7f))
			n = 0;
		if (n) {
			if (o + n >= len)
				break;
			memcpy(buf + o, p, n);
			o += n;
			p += n;
		} else {
			if (o + 4 >= len)
				break;
			snprintf(buf + o, 5, "\\x%02x", *p);
			o += 4;
			p++;
		}
	}
	buf[o] = 0;
}
