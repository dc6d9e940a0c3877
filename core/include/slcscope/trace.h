/* SPDX-License-Identifier: MIT */
/*
 * slcscope trace store (public header).
 *
 * A trace is an HDF5 file (layout in docs/trace-format.md, schema
 * "slcscope-trace" version 1): root attributes describe the device and the
 * run, one group per run segment holds the segment's parameters as
 * attributes and one 1-D dataset per sample column, and the simulated
 * drive's ground-truth events sit beside the samples.  Analysis results can
 * be stored back as JSON text under /analysis.
 *
 * The writer is streamed: samples are buffered in memory (bounded) and
 * appended to chunked, deflate-compressed datasets at each flush; the file
 * is consistent on disk after every flush, so a writer killed with SIGKILL
 * loses at most the samples since the last flush.
 *
 * The reader (slc_input_load()) loads a slcscope trace, or imports what
 * other tools recorded (docs/import.md): fio logs and JSON status output,
 * CSV of speed against time or against bytes written, iostat output,
 * /proc/diskstats snapshots and dd status=progress lines.
 *
 * All functions return 0 or -errno and, when given an @err buffer, write a
 * one-line reason to it on failure.
 */
#ifndef SLCSCOPE_TRACE_H
#define SLCSCOPE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slcscope/sample.h"
#include "slcscope/vocab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLC_TRACE_SCHEMA "slcscope-trace"
#define SLC_TRACE_SCHEMA_VERSION 1
#define SLC_TRACE_KIND_MAX 31              /* longest event kind, bytes */
#define SLC_TRACE_BUFFER_SAMPLES 4096      /* samples buffered before a forced flush */

/* Root attributes of a trace. */
struct slc_trace_meta {
	const char *command_line;         /* how the run was started */
	const char *target;               /* "sim:sata240-tlc", "/dev/nvme0n1" */
	const char *device_model;         /* may be NULL */
	const char *device_serial;        /* may be NULL */
	const char *device_firmware;      /* may be NULL */
	uint64_t capacity_bytes;          /* 0 when unknown */
	uint32_t logical_block_bytes;     /* 0 when unknown */
	const char *cell_type;            /* "slc", "mlc", "tlc", "qlc"; NULL when unknown */
	const char *plan;                 /* the plan a run followed, as --plan names it; NULL when none */
	uint32_t planned_steps;           /* the steps in that plan; 0 when none or unknown */
	const char *run_status;           /* "running" (a run's trace not closed by its end), "complete",
					   * "interrupted" or "failed"; NULL when not recorded.  A new
					   * trace with planned_steps starts "running" when this is NULL */
};

/* One run step = one segment group; every field is stored as an attribute. */
struct slc_segment_params {
	const char *step;                 /* "seq_fill", "rand_curve", "import", ... */
	const char *workload;             /* "seq_write", "rand_write", "idle", "imported", ... */
	uint32_t block_bytes;
	uint32_t queue_depth;
	uint32_t jobs;
	uint64_t offset_bytes;            /* start of the region written */
	uint64_t range_bytes;             /* its length */
	double idle_before_s;
	uint64_t seed;
	const char *data_pattern;         /* "random", "repeat", "compressible:<ratio>" */
	double interval_s;                /* nominal sampling interval */
	const char *clock;                /* "monotonic" or "virtual" */
	uint32_t reap_batch;              /* queue refilled once this many completed (0: unknown) */
	enum slc_role role;               /* what the step is for (slcscope/vocab.h) */
	uint32_t role_arg;                /* its argument: a wait in s, a fill level in % */
	uint32_t read_pct;                /* share of the commands that are reads, 0-100 (a
					   * read workload 100, a write 0; mixes their own) */
	const char *read_state;           /* what the reads find: "written" (the plan wrote
					   * it since its last TRIM), "trimmed" (nothing written
					   * since), "partly", "unknown"; "" for no reads */
	uint32_t poll_us;                 /* each reap polled this long for completions before
					   * it slept (0: it slept at once, or unknown) */
	const char *io_mode;              /* how the kernel did the I/O: "irq", "iopoll"
					   * (--hipri), "sqpoll", "iopoll+sqpoll"; "" when
					   * none (simulated, null, no I/O, imports, older) */
};

/* struct slc_sample (one sampling interval) is in slcscope/sample.h. */

/* A ground-truth event of the simulated drive. */
struct slc_event {
	double t_s;                       /* since segment start */
	uint64_t host_bytes;              /* host bytes written in the segment so far */
	const char *kind;                 /* "cache_exhausted", "fold_done", ... (<= 31 bytes) */
	double value;                     /* e.g. capacity in bytes for "cache_capacity" */
};

struct slc_trace;

/**
 * slc_trace_create() - create a trace file for streamed writing.
 * @out:    the new writer; release it with slc_trace_close()
 * @path:   file to create; an existing file is replaced
 * @meta:   root attributes (copied)
 * @err:    buffer for a one-line reason on failure (may be NULL)
 * @errlen: its size
 *
 * The file is created, its root attributes written and flushed before this
 * returns, so even a writer killed right away leaves a valid empty trace.
 *
 * Return: 0, or -errno (-EIO for HDF5 failures).
 */
int slc_trace_create(struct slc_trace **out, const char *path, const struct slc_trace_meta *meta,
		     char *err, size_t errlen);

/**
 * slc_trace_set_flush_interval() - change the automatic flush interval.
 * @t:       writer
 * @flush_s: wall-clock seconds between automatic flushes (default 2.0);
 *           0 flushes on every append
 *
 * Return: 0, or -EINVAL for a negative or non-finite interval.
 */
int slc_trace_set_flush_interval(struct slc_trace *t, double flush_s);

/**
 * slc_trace_set_run_status() - record how the run ended (root attribute run_status).
 * @t:      writer
 * @status: "complete", "interrupted" or "failed"
 *
 * A reader of a trace whose run was stopped then tells a partial plan from
 * a whole one; a trace still "running" was never closed by its run.
 *
 * Return: 0, or -EIO.
 */
int slc_trace_set_run_status(struct slc_trace *t, const char *status);

/**
 * slc_trace_segment_begin() - start a segment (group /segments/NNNN).
 * @t: writer
 * @p: parameters (copied); strings may be NULL (stored as "")
 *
 * Ends the current segment first if one is open.
 *
 * Return: 0 or -errno.
 */
int slc_trace_segment_begin(struct slc_trace *t, const struct slc_segment_params *p);

/**
 * slc_trace_append() - add one sample to the current segment.
 * @t: writer
 * @s: the sample; t_s must not go backwards and bytes_total must not shrink
 *
 * Buffered; written at the next flush (automatic after the flush interval,
 * or when the buffer holds SLC_TRACE_BUFFER_SAMPLES samples).
 *
 * Return: 0, -EINVAL (no open segment, time backwards, bytes shrinking,
 * non-finite time), or the flush's error.
 */
int slc_trace_append(struct slc_trace *t, const struct slc_sample *s);

/**
 * slc_trace_event() - add a ground-truth event to the current segment.
 *
 * Return: 0, -EINVAL (no open segment, kind NULL, empty or too long), or the
 * flush's error.
 */
int slc_trace_event(struct slc_trace *t, const struct slc_event *e);

/**
 * slc_trace_segment_end() - flush and close the current segment.
 *
 * Return: 0, -EINVAL when no segment is open, or -EIO.
 */
int slc_trace_segment_end(struct slc_trace *t);

/**
 * slc_trace_flush() - write buffered samples and events and make the file
 * consistent on disk (HDF5 flush, then fsync).
 *
 * Return: 0 or -EIO.
 */
int slc_trace_flush(struct slc_trace *t);

/**
 * slc_trace_close() - end any open segment, flush, close and free @t.
 * @t: writer (may be NULL)
 *
 * @t is freed even on failure.
 *
 * Return: 0 or the first error met.
 */
int slc_trace_close(struct slc_trace *t);

/**
 * slc_trace_snapshot() - store a device snapshot (e.g. a SMART log as JSON)
 * as /device/snapshots/NNNN with attributes kind, segment and t_s.
 * @t:         writer
 * @kind:      what it is ("smart", "nvme_smart_log", ...; <= 31 bytes)
 * @t_s:       time within the current segment (0 when no segment is open)
 * @json_text: the snapshot (copied)
 *
 * Buffered like samples and written at the next flush.
 *
 * Return: 0, -EINVAL (kind or text missing, kind too long), -ENOMEM, or the
 * flush's error.
 */
int slc_trace_snapshot(struct slc_trace *t, const char *kind, double t_s, const char *json_text);

/**
 * slc_trace_errmsg() - the reason for the writer's last failure ("" if none).
 */
const char *slc_trace_errmsg(const struct slc_trace *t);

/**
 * slc_trace_store_json() - store an analysis result in an existing trace as
 * the string dataset /analysis/@name (replacing one of the same name).
 * @path:      trace file (must be a slcscope trace)
 * @name:      dataset name: letters, digits, '_' and '-' only
 * @json_text: the text stored (UTF-8)
 *
 * The trace is copied to a temporary file beside it, changed, synced and
 * renamed over @path, so a failure never leaves a half-written file.
 *
 * Return: 0, -EINVAL (bad name, not a trace), -errno from the file system, or -EIO.
 */
int slc_trace_store_json(const char *path, const char *name, const char *json_text,
			 char *err, size_t errlen);

/* ---- reading ---------------------------------------------------------- */

enum slc_input_format {
	SLC_INPUT_TRACE = 1,              /* slcscope HDF5 trace */
	SLC_INPUT_FIO = 2,                /* fio write_bw_log / write_iops_log */
	SLC_INPUT_CSV = 3,                /* CSV with a time and a throughput column */
	SLC_INPUT_CSV_BYTES = 4,          /* CSV of throughput against bytes written (time derived) */
	SLC_INPUT_FIO_JSON = 5,           /* fio --output-format=json --status-interval */
	SLC_INPUT_IOSTAT = 6,             /* sysstat iostat -d or -x text output */
	SLC_INPUT_DISKSTATS = 7,          /* /proc/diskstats snapshots with a time prefix */
	SLC_INPUT_DD = 8,                 /* dd status=progress output */
	SLC_INPUT_SUM = 9,                /* several imports summed on a common grid */
};

/* One segment in memory; every array has n_samples entries. */
struct slc_input_segment {
	struct slc_segment_params params; /* strings owned by the input */
	size_t n_samples;
	double *t_s;
	double *interval_s;
	uint64_t *bytes_total;
	uint64_t *ios;
	double *bw_bps;                   /* derived: bytes in the interval / interval_s */
	double *lat_p50_us;
	double *lat_p99_us;
	double *lat_p999_us;
	double *lat_max_us;
	double *temp_c;
	uint64_t *read_bytes_total;       /* reads apart (struct slc_sample); 0 in older traces */
	uint64_t *read_ios;
	double *read_lat_mean_us, *read_lat_p50_us, *read_lat_p99_us;
	double *write_lat_mean_us, *write_lat_p50_us, *write_lat_p99_us;
	double *writer_cpu, *writer_wait; /* struct slc_sample; NAN where unknown and in older traces */
	size_t n_events;
	struct slc_event *events;         /* kinds owned by the input */
};

/* An analysis result stored in a trace. */
struct slc_input_analysis {
	char *name;
	char *json_text;
};

/* A device snapshot stored in a trace. */
struct slc_input_snapshot {
	char *kind;
	long segment;                     /* segment index, -1 when taken outside one */
	double t_s;                       /* time within that segment */
	char *json_text;
};

/* A whole input in memory. */
struct slc_input {
	enum slc_input_format format;
	char *source;                     /* the path given to slc_input_load() */
	struct slc_trace_meta meta;       /* strings owned by the input */
	char *tool_version;               /* trace only, else NULL */
	char *created_utc;                /* trace only, else NULL */
	char *host;                       /* trace only, else NULL */
	char *import_notes;               /* import only: what was merged or skipped */
	char *import_warnings;            /* import only: readings the file did not state outright */
	char *import_record;              /* import only: JSON object of what was read (format, columns, units, axes) */
	size_t n_segments;
	struct slc_input_segment *segments;
	size_t n_analysis;
	struct slc_input_analysis *analysis;
	size_t n_snapshots;
	struct slc_input_snapshot *snapshots;
};

#define SLC_IMPORT_NAME_MAX 128

/* A column named on the command line: its header name and unit scale. */
struct slc_import_col {
	char name[SLC_IMPORT_NAME_MAX];   /* "" when not given */
	char unit[32];                    /* as given ("MiB/s", "ms", "%"); "" when not given */
	double scale;                     /* seconds, bytes/s or bytes per unit; -1 for percent of capacity */
};

/*
 * Options for imports.  Zero-initialise (or slc_import_opts_init()), then
 * set members directly or by name with slc_import_opts_set().
 */
struct slc_import_opts {
	double bin_s;                     /* per-I/O fio logs, iostat without timestamps: interval (0: 1 s) */
	struct slc_import_col time_col;   /* --time-col NAME[:UNIT] */
	struct slc_import_col rate_col;   /* --rate-col NAME:UNIT */
	struct slc_import_col bytes_col;  /* --bytes-col NAME:UNIT (position: bytes written, or %) */
	char ddir_col[SLC_IMPORT_NAME_MAX]; /* --ddir-col NAME */
	uint32_t block_bytes;             /* --bs: block size of an averaged fio IOPS log */
	char device[64];                  /* --device: the device of iostat / diskstats records */
	uint64_t capacity_bytes;          /* --capacity: for percent-of-capacity positions, and
					   * the drive's size for an input that does not say it */
	char cell[8];                     /* --cell: slc, mlc, tlc or qlc; "" when not given */
};

/** slc_import_opts_init() - all options unset. */
void slc_import_opts_init(struct slc_import_opts *o);

/**
 * slc_import_opts_set() - set an import option by its command-line name.
 * @key:   "bin", "time-col", "rate-col", "bytes-col", "ddir-col", "bs",
 *         "device", "capacity" or "cell" (a leading "--" is allowed)
 * @value: "500ms"; "NAME:UNIT" for columns (NAME as in the header; UNIT a
 *         time unit s/ms/us/ns/min/h, a rate B/s kB/s MB/s MiB/s GB/s ...,
 *         a size B kB MB MiB GB GiB ... or % for percent of capacity);
 *         a size ("4k", "128KiB", "1TB") for bs and capacity; slc, mlc, tlc
 *         or qlc for cell
 *
 * Return: 0, -ENOENT for an unknown key, -EINVAL for a bad value (reason in @err).
 */
int slc_import_opts_set(struct slc_import_opts *o, const char *key, const char *value, char *err, size_t errlen);

/**
 * slc_import_opts_check() - do the options @o suit @in, loaded with them,
 * to be written as a trace?  A slcscope trace is copied with its own
 * records of the drive: the drive's options (capacity, cell), which only a
 * log needs, are refused for it (an analysis takes them as evidence).
 *
 * Return: 0, or -EINVAL with a one-line reason in @err.
 */
int slc_import_opts_check(const struct slc_import_opts *o, const struct slc_input *in, char *err, size_t errlen);

/**
 * slc_input_load() - load a trace, fio log or CSV into memory.
 * @out:    the input; free it with slc_input_free()
 * @path:   file; a fio log "NAME_bw.N.log" brings in its sibling jobs
 *          (N = 1, 2, ...) and the matching "NAME_iops.N.log" files
 * @err:    buffer for a one-line reason on failure (may be NULL)
 * @errlen: its size
 *
 * The format is detected from the content (HDF5 signature, fio line shape,
 * CSV header).
 *
 * Return: 0, -ENOENT/-EACCES..., -EINVAL for malformed input (reason in @err),
 * -ERANGE for values out of range, -ENOMEM.
 */
int slc_input_load(struct slc_input **out, const char *path, char *err, size_t errlen);

/** slc_input_load_opts() - slc_input_load() with import options (@opts may be NULL). */
int slc_input_load_opts(struct slc_input **out, const char *path, const struct slc_import_opts *opts,
			char *err, size_t errlen);

/**
 * slc_input_load_many() - import @n files and sum them on a common grid
 * (per-job files of one run, each read in its own format), as fio's
 * NAME_bw.N.log siblings are; one path is slc_input_load_opts().  The grid
 * is the shortest sampling interval of the inputs; every input starts at
 * time 0; traces cannot be summed.
 */
int slc_input_load_many(struct slc_input **out, const char *const *paths, size_t n,
			const struct slc_import_opts *opts, char *err, size_t errlen);

/**
 * slc_input_print_summary() - "LABEL: N segment(s), N samples, X written in
 * T, mean R" and the import's notes and warnings, for a command's output.
 */
void slc_input_print_summary(FILE *out, const struct slc_input *in, const char *label);

struct slc_output_opts;

/**
 * slc_input_export_file() - slc_input_export_csv() or _json() (@json) to
 * @path through the output module (slcscope/output.h: checked, written to a
 * temporary name renamed when complete), or to stdout when @path is NULL
 * or "-".  @o: the output's options; NULL: text, @in's file its input.
 * Return: 0 or -errno (reason in @err).
 */
int slc_input_export_file(const struct slc_input *in, const char *path, int json, const struct slc_output_opts *o,
			  char *err, size_t errlen);

/**
 * slc_input_parse_text() - parse an importable text held in memory (one
 * file, no sibling files); what the fuzz harness drives.
 * @out:  the input; free it with slc_input_free()
 * @name: file name used to tell fio logs ("_bw.", "_iops.") and in reasons
 * @text: the bytes (need not be NUL-terminated)
 * @len:  their count
 */
int slc_input_parse_text(struct slc_input **out, const char *name, const char *text, size_t len,
			 const struct slc_import_opts *opts, char *err, size_t errlen);

/** slc_input_free() - free an input (NULL is ignored). */
void slc_input_free(struct slc_input *in);

/**
 * slc_input_write_trace() - write an input (all segments, events and stored
 * analysis results) to a new trace file.
 * @in:   the input
 * @path: destination, through the output module (slcscope/output.h):
 *        refused when it is @in's file, a device, ... or not a trace;
 *        written to a temporary name beside it and renamed into place, so
 *        nothing is left half-written on failure
 * @command_line: stored as the root attribute command_line; NULL keeps
 *        the input's own
 *
 * Return: 0 or -errno.
 */
int slc_input_write_trace(const struct slc_input *in, const char *path, const char *command_line,
			  char *err, size_t errlen);

/* slc_input_write_trace() with the output's options @o (NULL: as there). */
int slc_input_write_trace_opts(const struct slc_input *in, const char *path, const char *command_line,
			       const struct slc_output_opts *o, char *err, size_t errlen);

/**
 * slc_input_export_csv() - print the samples of every segment as CSV.
 * @in:  the input
 * @out: stream
 *
 * '#' comment lines first (source, then one per segment with its
 * parameters), then the header
 * "segment,t_s,interval_s,bytes_total,ios,write_bytes_per_s,lat_p50_us,
 * lat_p99_us,lat_p999_us,lat_max_us,temp_c" and one row per sample;
 * unknown values are empty.  Numbers are printed so that they read back
 * exactly.
 *
 * Return: 0 or -EIO when writing fails.
 */
int slc_input_export_csv(const struct slc_input *in, FILE *out);

/**
 * slc_input_export_json() - print the whole input as one JSON document:
 * root metadata, segments with parameters, sample columns (NaN as null)
 * and events, and stored analysis results.
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int slc_input_export_json(const struct slc_input *in, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
