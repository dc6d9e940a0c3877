/* SPDX-License-Identifier: MIT */
/*
 * What a measurement can hold: the physical range of every trace
 * attribute and of the samples, in one table (limits.c) that the trace
 * reader and every importer check against, and that docs/trace-format.md
 * ("Limits") prints.  A value outside is a damaged or hand-made file, not
 * a measurement, and is refused by name rather than analysed.  No HDF5 here.
 */
#ifndef SLCSCOPE_TRACE_LIMITS_H
#define SLCSCOPE_TRACE_LIMITS_H

#include <stddef.h>

#include "slcscope/trace.h"

/* per import or segment: 92 days at 1 s (an 8 TB QLC drive's sequential
 * fill at 10 ms is 4.8 M samples); a trace must hold the bytes of its
 * columns (reader.c), so a small hostile file cannot claim them.  A
 * trace's samples together are held to SLC__INPUT_MAX_MEMORY (6.7 M); the
 * writer stops a run at either. */
#define SLC__INPUT_MAX_SAMPLES 8000000ull
#define SLC__INPUT_MAX_TIME_S 1e10           /* ~300 years */
#define SLC__INPUT_MAX_RATE_BPS 1e15         /* 1 PB/s: nothing real is faster */
#define SLC__INPUT_MAX_BYTES 9.2e18          /* below 2^63 */
/* All samples of one input together, as held in memory (19 columns and the rate, 8 bytes each). */
#define SLC__INPUT_MAX_MEMORY ((size_t)1 << 30)
#define SLC__INPUT_SAMPLE_BYTES ((size_t)20 * 8)

/* The range of one attribute (or sample quantity). */
struct slc__limit {
	const char *name;       /* attribute name (the last part of its path) */
	const char *unit;
	double lo, hi;          /* inclusive */
	int zero_unknown;       /* 0 is allowed too: "unknown" (older traces, imports) */
	int integer;            /* only whole numbers */
	const char *range;      /* the range as the refusal prints it */
};

/* The attribute @name's entry, or NULL when it has no range (strings, seed). */
const struct slc__limit *slc__limit_find(const char *name);

/* Whether @v is in @l's range (NaN never is). */
int slc__limit_ok(const struct slc__limit *l, double v);

/*
 * The one-line refusal of @v for attribute @path (e.g.
 * "/segments/0003/interval_s"): "attribute PATH = V is out of range (R)".
 * Returns -ERANGE.
 */
int slc__limit_refuse(char *err, size_t errlen, const struct slc__limit *l, const char *path, double v);

/*
 * The limits on a segment's samples, as the reader checks a trace's and
 * every importer its own (times, byte counts, rate, latencies,
 * temperatures, reads within all I/O).  @what names the input in the
 * reason ("segment 0001" or a file name).  0 or -EINVAL with the reason.
 */
int slc__limit_check_samples(const struct slc_input_segment *seg, const char *what, char *err, size_t errlen);

/* The segment parameters an importer set, against the same table as a trace's. */
int slc__limit_check_params(const struct slc_segment_params *p, const char *what, char *err, size_t errlen);

/*
 * @s for a message: control characters and bytes that are not UTF-8 become
 * \xNN (a file name can be any bytes; a terminal or a JSON document wants
 * text).  Always terminates @buf.
 */
void slc__escape_text(char *buf, size_t len, const char *s);
/* Length of the UTF-8 sequence at @s (1-4), or 0 when it is not one. */
size_t slc__utf8_len(const unsigned char *s);

#endif
