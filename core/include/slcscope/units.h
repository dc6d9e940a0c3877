/* SPDX-License-Identifier: MIT */
/*
 * Units, included from slcscope/core.h.
 *
 * Units: parsing and printing of sizes, durations and rates.
 *
 * Every command parses its numeric arguments through these functions so that
 * "4k", "128KiB", "1.5GiB", "240GB", "3x", "90s", "15m", "2h" and "100ms"
 * mean the same everywhere.
 *
 * Size suffixes:
 *   none            bytes
 *   k m g t p e     binary multiples (KiB...), as in fio and dd: 4k = 4096
 *   Ki Mi Gi ...    binary, with or without a trailing B (KiB, MiB, ...)
 *   kB KB MB GB ... decimal (1000-based): 240GB = 240 000 000 000
 *   Nx              N times the target's capacity (resolved later)
 * A lowercase trailing 'b' (bits) is refused.  Fractions are allowed as long
 * as the result is a whole number of bytes.
 *
 * Durations: ns us ms s m h d; a bare number is seconds.
 *
 * All parsers return 0 on success or -EINVAL / -ERANGE, and on failure write
 * a one-line reason (without the input itself) to @err when @err is not NULL.
 */
#ifndef SLCSCOPE_UNITS_H
#define SLCSCOPE_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A size argument: either absolute bytes or a multiple of the capacity. */
struct slc_size {
	uint64_t bytes;              /* absolute size; 0: capacity_multiple alone */
	double capacity_multiple;    /* "3x" -> 3.0; 0: bytes alone; both set: the lesser */
};

/* Prefix system used when printing sizes and rates. */
enum slc_unit_system {
	SLC_UNITS_BINARY = 0,        /* KiB, MiB, GiB, TiB */
	SLC_UNITS_DECIMAL = 1,       /* kB, MB, GB, TB */
};

/**
 * slc_parse_bytes() - parse an absolute size ("4k", "1.5GiB", "240GB").
 * @out_bytes: result
 * @s:         input text
 * @err:       buffer for the reason on failure (may be NULL)
 * @errlen:    its size
 *
 * Return: 0, -EINVAL for malformed input, -ERANGE for values over UINT64_MAX.
 */
int slc_parse_bytes(uint64_t *out_bytes, const char *s, char *err, size_t errlen);

/**
 * slc_parse_size() - like slc_parse_bytes() but also accepts "Nx" (times
 * the capacity, N > 0, fractions allowed).
 */
int slc_parse_size(struct slc_size *out, const char *s, char *err, size_t errlen);

/**
 * slc_size_resolve() - turn @size into bytes for a target of @capacity_bytes
 * (with both fields set, the lesser of the two).
 *
 * Return: 0, or -ERANGE when the product overflows, -EINVAL when a capacity
 * multiple is asked for but @capacity_bytes is 0.
 */
int slc_size_resolve(uint64_t *out_bytes, const struct slc_size *size, uint64_t capacity_bytes);

/**
 * slc_parse_duration_ns() - parse a duration ("90s", "15m", "2h", "100ms",
 * "1.5h", a bare number means seconds) into nanoseconds.
 */
int slc_parse_duration_ns(uint64_t *out_ns, const char *s, char *err, size_t errlen);

/**
 * slc_parse_rate_bps() - parse a throughput ("500MB/s", "2GiB/s", "80MiB/s",
 * "1000000" bytes/s) into bytes per second; the "/s" is optional.
 */
int slc_parse_rate_bps(double *out_bps, const char *s, char *err, size_t errlen);

/**
 * slc_format_bytes() - print @bytes with a unit ("1.50 GiB", "240.06 GB",
 * "512 B"), three significant digits at least.
 *
 * Return: @buf.
 */
char *slc_format_bytes(char *buf, size_t len, double bytes, enum slc_unit_system sys);

/** slc_format_rate() - print a throughput ("512.3 MB/s", "1.91 GiB/s"). */
char *slc_format_rate(char *buf, size_t len, double bytes_per_s, enum slc_unit_system sys);

/** slc_format_iops() - print an I/O rate ("80.1k IOPS", "950 IOPS"). */
char *slc_format_iops(char *buf, size_t len, double iops);

/**
 * slc_format_duration() - print a duration: "250 ms", "42.0 s", "15m 00s",
 * "2h 03m 05s".
 */
char *slc_format_duration(char *buf, size_t len, uint64_t ns);

/**
 * slc_errf() - write a one-line reason into @err (when not NULL) and return
 * @rc, for "return slc_errf(err, errlen, -EINVAL, "...", ...);": how every
 * slcscope library reports why a call failed.
 */
int slc_errf(char *err, size_t errlen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/**
 * slc_stream_error() - 0 when stream @f has had no write error; else the
 * failed write's -errno (-ENOSPC on a full disk, -EPIPE on a closed pipe):
 * asked of the system once more by flushing what is still buffered, else
 * errno as the caller finds it (call it right after the writes), or -EIO.
 */
int slc_stream_error(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
