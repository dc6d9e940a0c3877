/* SPDX-License-Identifier: MIT */
/* Internals shared by the trace writer, the trace reader and the importers. */
#ifndef SLCSCOPE_TRACE_PRIV_H
#define SLCSCOPE_TRACE_PRIV_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "slcscope/trace.h"

/* One sample column: dataset name, unit attribute, type, place in struct slc_sample. */
struct trace_col {
	const char *name;
	const char *units;
	int is_u64;
	int required;           /* the reader refuses a segment without it */
	size_t sample_off;      /* offsetof(struct slc_sample, ...) */
	size_t input_off;       /* offsetof(struct slc_input_segment, ...) */
};

extern const struct trace_col trace_cols[];
extern const size_t trace_ncols;

/* printf into @err (may be NULL); always returns @rc for 'return seterr(...)'. */
int seterr(char *err, size_t errlen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Silence HDF5's own error printing (once per process). */
void h5_quiet(void);

/* Close any HDF5 identifier by its kind; negative ones are ignored. */
void h5_close(hid_t id);

/* Keep the most specific message on HDF5's error stack; call right after a failing call. */
void h5_capture(void);

/* The message kept by h5_capture() or on the stack now, or "HDF5 error". */
const char *h5_reason(char *buf, size_t len);

/* Scalar attributes; strings are variable-length UTF-8. Return 0 or -EIO. */
int h5_put_str(hid_t obj, const char *name, const char *value);
int h5_put_u64(hid_t obj, const char *name, uint64_t v);
int h5_put_u32(hid_t obj, const char *name, uint32_t v);
int h5_put_f64(hid_t obj, const char *name, double v);

/* Write @json_text as the string dataset /analysis/@name of an open file. */
int trace_put_json(hid_t file, const char *name, const char *json_text, char *err, size_t errlen);

/*
 * H5Fopen() with the trace's file access properties (no file locking).
 * Read-only opens use SWMR-read mode first: it tolerates a superblock whose
 * end-of-allocation lags the data written (a writer killed inside a flush).
 */
hid_t trace_open_file(const char *path, unsigned flags);

/* Check the schema attributes of an open file; 0 or -EINVAL with a reason. */
int trace_check_schema(hid_t f, char *err, size_t errlen);

/* trace_put_json() on the file of an open writer. */
int trace_put_json_writer(struct slc_trace *t, const char *name, const char *json_text, char *err, size_t errlen);

/* slc_trace_snapshot() with the segment index given (-1: none). */
int trace_snapshot_at(struct slc_trace *t, const char *kind, long segment, double t_s, const char *json_text);

/* A string attribute on the root of an open writer's file. */
int trace_put_root_str(struct slc_trace *t, const char *name, const char *value);

/* Name of segment @index ("0000", "0001", ...). */
void trace_segment_name(char *buf, size_t len, size_t index);

/* A temporary file name beside @path (caller frees); NULL on ENOMEM. */
char *tmp_name_beside(const char *path);

/* fsync the file at @path (by name); 0 or -errno. */
int fsync_path(const char *path);

/* Compute bw_bps from bytes_total and interval_s. */
void input_segment_derive_bw(struct slc_input_segment *seg);

/* Allocate the per-sample arrays of @seg for @n samples (latencies and temp NAN). */
int input_segment_alloc(struct slc_input_segment *seg, size_t n);

/* Free what a segment owns (not the segment itself). */
void input_segment_clear(struct slc_input_segment *seg);

/* Readers behind slc_input_load(). */
int trace_load_hdf5(struct slc_input *in, const char *path, char *err, size_t errlen);
int import_load_file(struct slc_input *in, const char *path, const struct slc_import_opts *opts,
		     char *err, size_t errlen);

/*
 * Finish a write through a temporary file: when @rc is 0, fsync @tmp and
 * rename it to @path; on any failure remove @tmp.  Returns the final rc.
 */
int publish_tmp(const char *tmp, const char *path, int rc, char *err, size_t errlen);

/* strdup() that maps NULL to NULL; sets *@rc to -ENOMEM on failure. */
char *dup_or_null(const char *s, int *rc);

#endif
