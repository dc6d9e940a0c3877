// SPDX-License-Identifier: MIT
/*
 * Parsing and printing of sizes, durations and rates.
 *
 * Numbers are parsed exactly (integer mantissa and a power-of-ten scale) so
 * that "1.5GiB" is exactly 1610612736 and "0.1GB" exactly 100000000; nothing
 * goes through a float on the way to a byte count.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"

__extension__ typedef unsigned __int128 u128;


/* A decimal number as mantissa / 10^scale. */
struct decimal {
	u128 mant;
	unsigned scale;      /* digits after the point */
};

/*
 * Parse "[digits][.digits]" at *p.  Leading sign characters are refused by
 * the callers before we get here.  Up to 30 significant digits are kept,
 * which is more than any uint64 result can need.
 */
static int parse_decimal(struct decimal *d, const char **p, char *err, size_t errlen, const char *what)
{
	const char *s = *p;
	unsigned ndigits = 0, total = 0;
	int seen_point = 0;

	d->mant = 0;
	d->scale = 0;
	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			total++;
			if (d->mant == 0 && *s == '0' && !seen_point) continue;
			if (ndigits >= 30 || d->scale >= 30)
				return slc_errf(err, errlen, -ERANGE, "%s has too many digits", what);
			d->mant = d->mant * 10 + (u128)(*s - '0');
			ndigits += d->mant ? 1 : 0;
			if (seen_point) d->scale++;
		} else if (*s == '.' && !seen_point) {
			seen_point = 1;
		} else {
			break;
		}
	}
	if (total == 0)
		return slc_errf(err, errlen, -EINVAL, "%s must start with a number", what);
	*p = s;
	return 0;
}

static u128 pow10_u128(unsigned n)
{
	u128 r = 1;
	while (n--) r *= 10;
	return r;
}

static int check_start(const char *s, char *err, size_t errlen, const char *what)
{
	if (!s || !*s)
		return slc_errf(err, errlen, -EINVAL, "empty %s", what);
	if (*s == '-')
		return slc_errf(err, errlen, -EINVAL, "negative %s not allowed", what);
	if (*s == '+' || *s == ' ' || *s == '\t')
		return slc_errf(err, errlen, -EINVAL, "%s must start with a digit", what);
	return 0;
}

/*
 * Parse a size unit at *p: returns the multiplier in bytes, 1 for none.
 * Accepts k/K m/M g/G t/T p/P e/E (binary), with "i" and/or "B"; a "B" after
 * a bare prefix letter makes it decimal ("kB", "MB"); lowercase b is bits.
 */
static int parse_size_unit(uint64_t *mult, const char **p, char *err, size_t errlen)
{
	static const char letters[] = "kmgtpe";
	const char *s = *p;
	const char *l;
	unsigned power;
	int binary;

	while (*s == ' ') s++;
	*mult = 1;
	if (*s == '\0') { *p = s; return 0; }
	if (*s == 'B') { *p = s + 1; return 0; }
	if (*s == 'b')
		return slc_errf(err, errlen, -EINVAL, "'b' means bits; write B for bytes");
	l = strchr(letters, *s | 0x20);
	if (!l || !*s)
		return slc_errf(err, errlen, -EINVAL, "unknown unit '%s' (use B, k, KiB, kB, MiB, MB, GiB, GB, TiB, TB)", s);
	power = (unsigned)(l - letters) + 1;
	s++;
	if (*s == 'i') {
		binary = 1;
		s++;
		if (*s == 'B') s++;
		else if (*s == 'b') return slc_errf(err, errlen, -EINVAL, "'b' means bits; write B for bytes");
	} else if (*s == 'B') {
		binary = 0;
		s++;
	} else if (*s == 'b') {
		return slc_errf(err, errlen, -EINVAL, "'b' means bits; write B for bytes");
	} else {
		binary = 1;
	}
	*mult = 1;
	for (unsigned i = 0; i < power; i++) *mult *= binary ? 1024u : 1000u;
	*p = s;
	return 0;
}

static int decimal_times(uint64_t *out, const struct decimal *d, u128 mult, int exact,
			 char *err, size_t errlen, const char *what)
{
	u128 div = pow10_u128(d->scale);
	u128 num;

	/* mant < 10^30 < 2^100, mult <= 2^60 for sizes: may overflow u128 */
	if (d->mant && mult > ((u128)-1) / d->mant)
		return slc_errf(err, errlen, -ERANGE, "%s too large", what);
	num = d->mant * mult;
	if (exact && num % div)
		return slc_errf(err, errlen, -EINVAL, "%s is not a whole number of bytes", what);
	num = (num + (exact ? 0 : div / 2)) / div;
	if (num > UINT64_MAX)
		return slc_errf(err, errlen, -ERANGE, "%s too large (over 2^64)", what);
	*out = (uint64_t)num;
	return 0;
}

int slc_parse_bytes(uint64_t *out_bytes, const char *s, char *err, size_t errlen)
{
	struct decimal d;
	uint64_t mult;
	int rc;

	if ((rc = check_start(s, err, errlen, "size")))
		return rc;
	if ((rc = parse_decimal(&d, &s, err, errlen, "size")))
		return rc;
	if ((rc = parse_size_unit(&mult, &s, err, errlen)))
		return rc;
	if (*s)
		return slc_errf(err, errlen, -EINVAL, "trailing characters '%s' after the size", s);
	return decimal_times(out_bytes, &d, mult, 1, err, errlen, "size");
}

int slc_parse_size(struct slc_size *out, const char *s, char *err, size_t errlen)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= 2 && (s[n - 1] == 'x' || s[n - 1] == 'X')) {
		struct decimal d;
		const char *p = s;
		int rc;

		if ((rc = check_start(s, err, errlen, "size")))
			return rc;
		if ((rc = parse_decimal(&d, &p, err, errlen, "capacity multiple")))
			return rc;
		if (p != s + n - 1)
			return slc_errf(err, errlen, -EINVAL, "a capacity multiple is a number followed by x, as in 3x");
		if (d.mant == 0)
			return slc_errf(err, errlen, -EINVAL, "capacity multiple must be more than 0");
		out->bytes = 0;
		out->capacity_multiple = (double)d.mant / (double)pow10_u128(d.scale);
		if (out->capacity_multiple > 1e6)
			return slc_errf(err, errlen, -ERANGE, "capacity multiple too large");
		return 0;
	}
	out->capacity_multiple = 0;
	return slc_parse_bytes(&out->bytes, s, err, errlen);
}

int slc_size_resolve(uint64_t *out_bytes, const struct slc_size *size, uint64_t capacity_bytes)
{
	long double v;

	if (size->capacity_multiple <= 0) {
		*out_bytes = size->bytes;
		return 0;
	}
	if (capacity_bytes == 0)
		return -EINVAL;
	v = (long double)size->capacity_multiple * (long double)capacity_bytes;
	if (v >= 18446744073709551615.0L)
		return -ERANGE;
	*out_bytes = (uint64_t)(v + 0.5L);
	/* both set: whichever is less ("32 GB, or a quarter of a small drive") */
	if (size->bytes && size->bytes < *out_bytes)
		*out_bytes = size->bytes;
	return 0;
}

int slc_parse_duration_ns(uint64_t *out_ns, const char *s, char *err, size_t errlen)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1ull }, { "us", 1000ull }, { "ms", 1000000ull },
		{ "s", 1000000000ull }, { "sec", 1000000000ull },
		{ "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	struct decimal d;
	uint64_t mult = 1000000000ull;   /* bare number: seconds */
	int rc;

	if ((rc = check_start(s, err, errlen, "duration")))
		return rc;
	if ((rc = parse_decimal(&d, &s, err, errlen, "duration")))
		return rc;
	while (*s == ' ') s++;
	if (*s) {
		size_t i;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strcmp(s, units[i].name) == 0) break;
		if (i == sizeof(units) / sizeof(units[0]))
			return slc_errf(err, errlen, -EINVAL, "unknown duration unit '%s' (use ms, s, m, h)", s);
		mult = units[i].ns;
	}
	return decimal_times(out_ns, &d, mult, 0, err, errlen, "duration");
}

int slc_parse_rate_bps(double *out_bps, const char *s, char *err, size_t errlen)
{
	struct decimal d;
	uint64_t mult = 1, bps = 0;
	int rc;

	if ((rc = check_start(s, err, errlen, "rate")))
		return rc;
	if ((rc = parse_decimal(&d, &s, err, errlen, "rate")))
		return rc;
	if ((rc = parse_size_unit(&mult, &s, err, errlen)))
		return rc;
	if (strcmp(s, "/s") == 0)
		s += 2;
	if (*s)
		return slc_errf(err, errlen, -EINVAL, "trailing characters '%s' after the rate (write e.g. 500MB/s)", s);
	if ((rc = decimal_times(&bps, &d, mult, 0, err, errlen, "rate")))
		return rc;
	*out_bps = (double)bps;
	return 0;
}

static char *format_scaled(char *buf, size_t len, double v, enum slc_unit_system sys, const char *suffix)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	static const char *const dec[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	const char *const *names = sys == SLC_UNITS_DECIMAL ? dec : bin;
	double base = sys == SLC_UNITS_DECIMAL ? 1000.0 : 1024.0;
	double a = fabs(v);
	int i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "- %s%s", names[0], suffix);
		return buf;
	}
	while (a >= base && i < 6) {
		a /= base;
		v /= base;
		i++;
	}
	if (i == 0 || v == floor(v))
		snprintf(buf, len, "%.0f %s%s", v, names[i], suffix);
	else if (a < 10)
		snprintf(buf, len, "%.2f %s%s", v, names[i], suffix);
	else if (a < 100)
		snprintf(buf, len, "%.1f %s%s", v, names[i], suffix);
	else
		snprintf(buf, len, "%.0f %s%s", v, names[i], suffix);
	return buf;
}

char *slc_format_bytes(char *buf, size_t len, double bytes, enum slc_unit_system sys)
{
	return format_scaled(buf, len, bytes, sys, "");
}

char *slc_format_rate(char *buf, size_t len, double bytes_per_s, enum slc_unit_system sys)
{
	return format_scaled(buf, len, bytes_per_s, sys, "/s");
}

char *slc_format_iops(char *buf, size_t len, double iops)
{
	if (!isfinite(iops))
		snprintf(buf, len, "- IOPS");
	else if (iops >= 1e6)
		snprintf(buf, len, "%.2fM IOPS", iops / 1e6);
	else if (iops >= 1e4)
		snprintf(buf, len, "%.1fk IOPS", iops / 1e3);
	else
		snprintf(buf, len, "%.0f IOPS", iops);
	return buf;
}

char *slc_format_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	if (ns < 1000ull)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000ull)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000000ull)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else if (ns < 60000000000ull)
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%llum %02llus", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%lluh %02llum %02llus", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	return buf;
}

int slc_stream_error(FILE *f)
{
	int e = errno;

	if (!ferror(f))
		return 0;
	/* data still buffered: writing it again says why.  A stream whose
	 * failed write dropped its buffer writes nothing more, and errno is
	 * what that write left, unless a call since has set it. */
	errno = 0;
	if (fflush(f) && errno)
		return -errno;
	return e ? -e : -EIO;
}
