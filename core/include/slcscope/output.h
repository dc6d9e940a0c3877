/* SPDX-License-Identifier: MIT */
/*
 * Every file and report directory slcscope writes goes through this one
 * path (docs/safety.md, "Outputs"): an output is a new path or an existing
 * regular file that holds what slcscope writes there, never a device, a FIFO,
 * a socket, one of the command's inputs, a file that backs a loop device or
 * that a running slcscope holds.  It is written under a temporary name in
 * the same directory, every write, flush, fsync and close checked, and
 * renamed over the old file only at the end, so a failure leaves the old
 * file as it was and nothing behind.
 */
#ifndef SLCSCOPE_OUTPUT_H
#define SLCSCOPE_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* What the output holds: decides which existing files it may replace. */
enum slc_output_kind {
	SLC_OUTPUT_TEXT,   /* CSV, JSON, Markdown, an fio job: replaces a text file */
	SLC_OUTPUT_TRACE,  /* an slcscope trace (HDF5): replaces a trace */
	SLC_OUTPUT_GRAPH,  /* PNG, SVG or PDF: replaces a graph */
	SLC_OUTPUT_DATABASE, /* the lab: an SQLite file, written in place, never replaced */
};

struct slc_output_opts {
	enum slc_output_kind kind;
	const char *const *inputs;  /* the command's inputs: never replaced */
	size_t n_inputs;
	int force;                  /* replace a file of another format (never a
				     * device, an input, a loop's file or a locked one) */
	int stdout_ok;              /* "-" is standard output (text only) */
	const char *option;         /* the option that named it, for messages ("-o") */
};

/**
 * slc_output_check() - may @path be written as @o says?  Resolves a symbolic
 * link to the file it names; refuses what the header above lists, a new
 * file in /dev, /proc or /sys, a directory that does not exist, and unless
 * @o->force an existing file of another format (a filesystem or partition
 * table libblkid knows, an HDF5 file that is not a trace, binary data where
 * text is written, a file that is not a graph where a graph is written).
 *
 * Return: 0, or -errno with a one-line reason naming @path and what was
 * found in @err.
 */
int slc_output_check(const char *path, const struct slc_output_opts *o, char *err, size_t errlen);

/**
 * slc_output_held() - is the trace at @path being written by a slcscope run
 * (the lock a run holds on its trace until it ends)?  For a command that
 * reads a trace and keeps what it found (`lab add`, `analyze --store`): a
 * running trace is kept only once its run has ended.  A path that does not
 * name a regular file that can be opened is not held: its reader says what
 * is wrong with it.
 *
 * Return: 0, or -EBUSY with a one-line reason naming @path and the run in
 * @err.
 */
int slc_output_held(const char *path, char *err, size_t errlen);

struct slc_output;

/**
 * slc_output_begin() - check @path (slc_output_check()) and start writing
 * it: a temporary file beside it (or standard output for "-"), removed
 * again by slc_output_abort(), by a failed slc_output_commit() and, once
 * slc_output_signals() was called, by SIGINT/SIGTERM.  The file at @path,
 * when there is one, is locked against a run until the end.
 *
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_output_begin(struct slc_output **out, const char *path, const struct slc_output_opts *o, char *err,
		     size_t errlen);

/* The temporary file's path, for writers that open by name (HDF5, cairo); it
 * ends in @path's name, so its extension is kept.  NULL for standard output. */
const char *slc_output_tmp_path(const struct slc_output *out);

/* A stream on the temporary file (or stdout); NULL when it cannot be opened. */
FILE *slc_output_stream(struct slc_output *out);

/**
 * slc_output_commit() - finish: check the stream's errors, flush, fsync and
 * close it, fsync the temporary file, rename it into place and fsync the
 * directory.  Frees @out whatever the outcome; on failure the temporary
 * file is removed and the old file is untouched.
 *
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_output_commit(struct slc_output *out, char *err, size_t errlen);

/* Give up: remove the temporary file, free @out.  NULL is a no-op. */
void slc_output_abort(struct slc_output *out);

/* What slc_output_write() calls: write the temporary file @tmp (by name) or,
 * for text, the stream @f; 0 or -errno with the reason in @err. */
typedef int (*slc_output_fn)(const char *tmp, FILE *f, void *arg, char *err, size_t errlen);

/**
 * slc_output_write() - slc_output_begin(), @fn, then slc_output_commit(), or
 * slc_output_abort() when @fn fails (its message naming @path, not the
 * temporary file).
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_output_write(const char *path, const struct slc_output_opts *o, slc_output_fn fn, void *arg, char *err,
		     size_t errlen);

/*
 * slc_output_fix_message() - put @out's final path where a writer's message
 * in @msg names its temporary file, so users see the name they gave.
 */
void slc_output_fix_message(const struct slc_output *out, char *msg, size_t len);

/**
 * slc_output_signals() - on SIGINT or SIGTERM, remove every temporary file
 * and staging directory still open, then end the process as the signal
 * would (exit status 130/143).  For commands that only write outputs; a
 * run, which must close its trace on a signal, calls it once its I/O ended.
 */
void slc_output_signals(void);

/* ---- report directories ----------------------------------------------- */

/* The file that marks a directory as an slcscope report, listing its files. */
#define SLC_REPORT_MARKER ".slcscope-report"

struct slc_report_dir;

/**
 * slc_report_dir_check() - may a report be written into @dir?  A new
 * directory (its parent exists), an empty one, an slcscope report (its
 * marker) or a directory holding nothing but @inputs; never "/", /dev,
 * /proc, /sys, a file, or a directory another slcscope is writing a report
 * into.  Cheap: callers check before hours of work.
 *
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_report_dir_check(const char *dir, const char *const *inputs, size_t n_inputs, char *err, size_t errlen);

/**
 * slc_report_dir_begin() - check @dir, create it when missing, mark and lock
 * it, and make a staging directory beside it, where the report is built.
 */
int slc_report_dir_begin(struct slc_report_dir **out, const char *dir, const char *const *inputs, size_t n_inputs,
			 char *err, size_t errlen);

/* The staging directory the report's files are written into. */
const char *slc_report_dir_staging(const struct slc_report_dir *d);

/**
 * slc_report_dir_commit() - move the @n staged files @names into place
 * (the last one last: the page a reader opens), print "wrote DIR/NAME" for
 * each to @log (NULL: quiet), remove the files an earlier report listed and
 * this one did not write, rewrite the marker and remove the staging
 * directory.  Frees @d; on failure nothing of the new report is left.
 */
int slc_report_dir_commit(struct slc_report_dir *d, const char *const *names, size_t n, FILE *log, char *err,
			  size_t errlen);

/* Give up: remove the staging directory, and @dir when begin() created it. */
void slc_report_dir_abort(struct slc_report_dir *d);

/*
 * slc_report_dir_prepare() - check @dir and create it now, marked as a
 * report, for a run that writes its trace into it before the report.
 */
int slc_report_dir_prepare(const char *dir, const char *const *inputs, size_t n_inputs, char *err, size_t errlen);

/*
 * slc_report_dir_unprepare() - remove @dir when it is the directory this
 * process's last slc_report_dir_prepare() made, it holds nothing but the
 * marker of a report never written (a run that then failed or was
 * interrupted) and no other slcscope writes a report into it.  Returns 1
 * when it was removed, else 0 (it holds a trace or a report, someone else
 * made it or holds it).  Not thread-safe: one report per process.
 */
int slc_report_dir_unprepare(const char *dir);

#endif
