/* SPDX-License-Identifier: MIT */
/*
 * The lab: every run a lab made, in one database, so that a new drive is
 * ranked against all the earlier ones (docs/lab.md).  A run is stored by
 * the SHA-256 of its trace file: adding it again changes nothing.  What is
 * stored is what the report states (the same session figures): the drive's
 * identity, the run's conditions, each write curve's headline figures and
 * phases, and the trace's path.
 *
 * The database is SQLite (a file; WAL mode, so that several benches may add
 * at once) or PostgreSQL (a "postgresql://" or "postgres://" URL), with
 * one schema and the same SQL for both.
 */
#ifndef SLCSCOPE_LAB_H
#define SLCSCOPE_LAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slcscope/units.h"

/* The schema version this library writes; older databases are migrated. */
#define SLC_LAB_SCHEMA 1

struct slc_lab;
struct slc_session;

/* The figures a lab ranks drives by. */
enum slc_lab_figure {
	SLC_LAB_CACHE = 0,          /* "cache": the SLC cache's size, bytes */
	SLC_LAB_CACHE_SPEED,        /* "cache-speed": its first tier's speed */
	SLC_LAB_POST_CACHE,         /* "post-cache": direct to TLC, else erase-bound */
	SLC_LAB_WHOLE_DRIVE,        /* "whole-drive": seconds to write the whole drive */
	SLC_LAB_RECOVERY,           /* "recovery": share of the cache back after idle */
	SLC_LAB_TGBW,               /* "tgbw": bytes written in the curve's first 2 h */
	SLC_LAB_FIGURE__COUNT
};

/** slc_lab_figure_name() - "cache", "cache-speed", ...; NULL when out of range. */
const char *slc_lab_figure_name(enum slc_lab_figure f);

/** slc_lab_figure_from_name() - the figure called @name; -1 when none. */
int slc_lab_figure_from_name(const char *name);

/** slc_lab_figure_lower_better() - 1 when a smaller value ranks higher (whole-drive time). */
int slc_lab_figure_lower_better(enum slc_lab_figure f);

/* One run's headline figures, from the session's main curve (the same
 * curve the report's headline reads); NAN where the run has none. */
struct slc_lab_figures {
	double v[SLC_LAB_FIGURE__COUNT];
	double cache_min_bytes, cache_max_bytes; /* a cache too short to measure: its bounds */
	double erase_onset_bytes;   /* host bytes at the erase-bound onset */
	double tgbw_horizon_s;      /* the horizon tgbw counts (2 h or the curve's length) */
	double recovery_trim_frac;  /* share of the cache back after a TRIM */
};

/**
 * slc_lab_figures() - the headline figures of @x (a loaded session).
 * Return: 0, or -ENOENT when @x has no write curve.
 */
int slc_lab_figures(struct slc_lab_figures *out, const struct slc_session *x);

/**
 * slc_lab_default_path() - ~/.local/share/slcscope/lab.db (XDG_DATA_HOME
 * when set) into @buf.  Return: 0, or -ENAMETOOLONG / -ENOENT (no home).
 */
int slc_lab_default_path(char *buf, size_t len);

/* How slc_lab_open() opens a lab. */
enum {
	SLC_LAB_CREATE = 1,         /* a new file becomes a lab (else: there must be one) */
	SLC_LAB_MAKE_DIR = 2,       /* with SLC_LAB_CREATE: make its directory (the default lab's) */
	SLC_LAB_READ_ONLY = 4,      /* only read: a lab on a read-only file or directory works */
};

/**
 * slc_lab_open() - open the lab at @where: a PostgreSQL URL, or a file
 * path.  A file must be a slcscope lab or, with SLC_LAB_CREATE, new (in an
 * existing directory) or empty; a device, a FIFO, a link, an SQLite URI or
 * ":memory:", a trace, any other file or database is refused.  Creates or
 * migrates the schema unless read-only.  @flags: SLC_LAB_*.
 * Return: 0, or -errno with a one-line reason ("--db WHERE: ...") in @err.
 */
int slc_lab_open(struct slc_lab **lab, const char *where, unsigned flags, char *err, size_t errlen);

/** slc_lab_close() - close the database; NULL is a no-op. */
void slc_lab_close(struct slc_lab *lab);

/** What adding a trace did. */
struct slc_lab_added {
	int64_t run_id;
	int64_t drive_id;
	int existed;                /* the same trace (by its hash) was already stored */
	int moved;                  /* ... at another path: the stored path is now this one */
	int rehashed;               /* the same run's file at its stored path changed since (an analysis
				     * stored in it): the stored hash is now this one */
	char drive[160];            /* the drive's name as the report titles it */
	char sha256[65];
};

/**
 * slc_lab_add() - store the trace at @path: loads and analyses it
 * (damaged or foreign files refused), then stores drive, run, curves and
 * phases in one transaction.
 * Return: 0, or -errno with a one-line reason in @err (nothing stored).
 */
int slc_lab_add(struct slc_lab *lab, const char *path, struct slc_lab_added *out, char *err, size_t errlen);

/**
 * slc_lab_add_trace() - open the lab at @where (NULL: the default one,
 * its directory made), slc_lab_add() the trace at @path, close.  With
 * @path NULL only opens it: a check before a long run.
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_lab_add_trace(const char *where, const char *path, struct slc_lab_added *out, char *err, size_t errlen);

/* How the listing commands print. */
enum slc_lab_format {
	SLC_LAB_TEXT = 0,
	SLC_LAB_JSON,
	SLC_LAB_CSV,
};

struct slc_lab_print_opts {
	enum slc_lab_format format;
	int binary;                 /* GiB and MiB/s instead of GB and MB/s */
};

/** slc_lab_list() - every run, oldest first.  Return: 0 or -errno with @err. */
int slc_lab_list(struct slc_lab *lab, FILE *f, const struct slc_lab_print_opts *o, char *err, size_t errlen);

/**
 * slc_lab_show() - the drives @which names (a run's number, or a part of
 * the drive's model, serial or name) and every run of them with its
 * figures and phases.  Return: 0, -ENOENT when nothing matches, -errno.
 */
int slc_lab_show(struct slc_lab *lab, const char *which, FILE *f, const struct slc_lab_print_opts *o, char *err,
		 size_t errlen);

/**
 * slc_lab_rank() - one row per drive (its latest run that has @by), best
 * first, with a bar scaled to the best, as the reviews' bar charts.
 * Return: 0 or -errno with @err.
 */
int slc_lab_rank(struct slc_lab *lab, enum slc_lab_figure by, FILE *f, const struct slc_lab_print_opts *o,
		 char *err, size_t errlen);

/* One stored drive near a new one. */
struct slc_lab_near {
	int64_t run_id;
	double distance;            /* over the figures both have, log scale */
	char drive[160];
	char path[1024];            /* its trace, as stored */
	char sha256[65];            /* ... and its SHA-256, checked before it is read */
};

/**
 * slc_lab_compare() - place the run of @x (not stored) among the lab's
 * drives: its rank for each figure and the @max_near nearest drives into
 * @near (their count in *@n_near).  Prints to @f.
 * Return: 0 or -errno with @err.
 */
int slc_lab_compare(struct slc_lab *lab, const struct slc_session *x, const char *path, FILE *f,
		    const struct slc_lab_print_opts *o, struct slc_lab_near *near, size_t max_near, size_t *n_near,
		    char *err, size_t errlen);

/**
 * slc_lab_site() - the lab as a static site in @dir (slc_site_write()):
 * every drive in a table sorted in the browser, a ranking chart per
 * figure, a page per drive with its runs and, with @reports, the report of
 * its latest run when its trace is still where it was stored, unchanged.
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_lab_site(struct slc_lab *lab, const char *dir, int binary, int reports, FILE *log, char *err, size_t errlen);

/**
 * slc_lab_compare_report() - a comparison report in @dir (as
 * slc_report_compare_write()) of @x, the run at @path, against the @n
 * drives in @near.  Each stored trace is read only when the file at its
 * path has its stored SHA-256: one no longer there is named on @log and
 * left out; one replaced by another file, or one that cannot be read,
 * fails the report before anything is written, its content never quoted.
 * Return: 0, -ESTALE (a replaced trace) or -errno with a one-line reason
 * in @err.
 */
int slc_lab_compare_report(const char *dir, const struct slc_session *x, const char *path,
			   const struct slc_lab_near *near, size_t n, FILE *log, char *err, size_t errlen);

#endif
