/* SPDX-License-Identifier: MIT */
/*
 * What every importer shares: bounded text lines, the one import segment
 * and its metadata, warnings, the import record (what was read, stored in
 * the trace) and cumulative-bytes curves summed on a common grid.
 */
#ifndef SLCSCOPE_TRACE_IMPBASE_H
#define SLCSCOPE_TRACE_IMPBASE_H

#include <stddef.h>
#include <stdint.h>

#include "slcscope/trace.h"

#include "input.h"

#define SLC__IMP_MAX_LINE 4096

/* the limits a trace's samples are read with too (input.h) */
#define SLC__IMP_MAX_BINS SLC__INPUT_MAX_SAMPLES
#define SLC__IMP_MAX_TIME_S SLC__INPUT_MAX_TIME_S
#define SLC__IMP_MAX_RATE_BPS SLC__INPUT_MAX_RATE_BPS
#define SLC__IMP_MAX_BYTES SLC__INPUT_MAX_BYTES

/* Text lines ending in LF, CRLF or a lone CR (dd's progress updates). */
struct slc__lines {
	const char *p, *end;
	size_t lineno;
};

/* Next line into @buf without its end; 1 got one, 0 end, -E2BIG too long, -EINVAL binary. */
int slc__next_line(struct slc__lines *l, char *buf, size_t len);
int slc__blank_or_comment(const char *line);
/* The one-line reason for a slc__next_line() failure. */
int slc__line_error(char *err, size_t errlen, int rc, const char *name, size_t lineno);
const char *slc__base_name(const char *path);

/* The import's one segment (step "import", clock "log") with @n samples. */
int slc__import_segment(struct slc_input *in, size_t n, double interval_s, uint32_t jobs, uint32_t block_bytes);
/* Target and notes of an import. */
int slc__import_meta(struct slc_input *in, const char *path, const char *notes);
/* Add a warning (input read in a way the file does not say outright). */
int slc__import_warn(struct slc_input *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The import record: one JSON object, built member by member. */
struct slc__rec {
	char s[2048];
	size_t n;
	int full;
};
void slc__rec_str(struct slc__rec *r, const char *key, const char *val);
void slc__rec_num(struct slc__rec *r, const char *key, double val);
void slc__rec_obj(struct slc__rec *r, const char *key, const struct slc__rec *sub);
/* A column member: {"name": .., "unit": .., "scale": ..}; @unit may be NULL. */
void slc__rec_col(struct slc__rec *r, const char *key, const char *name, const char *unit, double scale);
/* Store "{...}" as in->import_record. */
int slc__rec_store(struct slc_input *in, const struct slc__rec *r);

/* Cumulative bytes b[i] at times t[i] (seconds, increasing), from (t0, 0). */
struct slc__curve {
	double t0;
	double *t, *b;
	size_t n, cap;
};
/* Append a point; -EINVAL when time does not increase or bytes shrink, -E2BIG past the limit. */
int slc__curve_add(struct slc__curve *c, double t, double b);
void slc__curve_free(struct slc__curve *c);
/* Sum @k curves sampled every @g seconds from the earliest start to the latest end. */
int slc__curve_sum(struct slc__curve *out, const struct slc__curve *in, size_t k, double g);
/* The median spacing of a curve's points (0 with fewer than two). */
double slc__curve_step(const struct slc__curve *c);
/* The segment of @in from @c: one sample per point, times from c->t0. */
int slc__curve_segment(struct slc_input *in, const struct slc__curve *c, uint32_t jobs, uint32_t block_bytes);

#endif
