/* SPDX-License-Identifier: MIT */
/*
 * slcscope session library (public header): what the command line does,
 * callable from any program.
 *
 *  - An analysed session: any input (trace, fio log, CSV) loaded, every
 *    write curve analysed, with the drive's evidence (SMART counters,
 *    temperature readings) attached to each segment; the experiments of
 *    the plans (recovery, idle sweep, fill levels, host idle recovery,
 *    reads after TRIM, compressibility); the phases document (JSON).
 *  - The figures (write curve, latency, recovery, idle recovery,
 *    comparison) and the report directory.
 *  - A run session: a plan on an open target into a trace, with the
 *    drive's identity, SMART snapshots around every step, temperature and
 *    write counters during it, and an optional purge first.
 *
 * Steps are told apart by their role (slcscope/vocab.h), never by name.
 */
#ifndef SLCSCOPE_SESSION_H
#define SLCSCOPE_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slcscope/analysis.h"
#include "slcscope/plot.h"
#include "slcscope/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- an analysed input ------------------------------------------------ */

/* What the drive itself said about an analysed segment (probes' snapshots
 * and readings in the trace); NAN / NULL where it said nothing. */
/*
 * The writer's CPU over a phase: the medians of its samples' writer_cpu
 * and writer_wait (docs/trace-format.md); NAN where the trace has none (a
 * simulated drive, an import, an older trace).
 */
struct slc_phase_host {
	double cpu;                     /* share of a core the busiest writer thread used */
	double wait;                    /* share of the time that thread waited for a CPU */
	int host_bound;                 /* busy (cpu + wait >= SLC_HOST_BOUND_SHARE) in most samples */
};

/* A writer thread on a core, or waiting for one, this share of the time
 * or more set the pace itself: what was measured is the host's limit. */
#define SLC_HOST_BOUND_SHARE 0.9

struct slc_session_drive {
	double host_bytes, nand_bytes;  /* counter deltas over the segment (health_before/after) */
	double wa;                      /* their ratio: the segment's write amplification */
	double *phase_wa;               /* per phase, from the readings during the segment */
	double cache_wa;                /* over the cache phases */
	double slc_flash_bytes;         /* cache bytes x cache_wa: flash used in SLC mode */
	double warn_c;                  /* the drive's warning temperature */
	size_t n_temp;                  /* temperature readings in the segment */
	double max_temp_c;
	int relabelled;                 /* phases relabelled by the thermal evidence */
	struct slc_phase_host *phase_host; /* per phase; NULL when no sample says */
	size_t host_bound;              /* phases that are host-bound */
};

/*
 * What the user knows of the drive, for inputs that do not say it (an
 * imported log, a real device whose cell type no probe reports); given,
 * they win over what a trace records (its capacity, an import's cell type).
 */
struct slc_session_hints {
	double capacity_bytes;          /* 0: the input's (a trace's target), or unknown */
	int cell;                       /* enum slc_cell; SLC_CELL_UNKNOWN: from the target */
	int state;                      /* enum slc_drive_state for segments the plan does not tell */
	int explain;                    /* print the model's reasons with the phases */
	struct slc_size steady_after;   /* SNIA steady state counted after this; zero: 2x the capacity */
	const struct slc_model_params *model_params; /* the phase model's; NULL: the defaults */
};

/*
 * slc_session_hints_set() - set hint @name ("capacity": a size in bytes,
 * "cell": slc|mlc|tlc|qlc, "state": trimmed|used|unknown, "steady-after": a
 * size or a multiple of the capacity) of @h from @value, as the command
 * line gives it.  Returns 0, or -EINVAL with a one-line reason in @err;
 * -ENOENT when @name is no hint.
 */
int slc_session_hints_set(struct slc_session_hints *h, const char *name, const char *value, char *err,
			  size_t errlen);

struct slc_session {
	struct slc_input *in;
	size_t n;                       /* analysed segments */
	size_t *seg;                    /* their index in in->segments */
	struct slc_analysis *a;         /* one per analysed segment; a[0] is the reference */
	double **bytes;                 /* per-interval bytes of each analysed segment */
	struct slc_session_drive *drive;/* one per analysed segment */
	int allow_no_curve;             /* set before slc_session_load(): reads-only inputs are fine */
	struct slc_session_hints hints; /* set before slc_session_load(): what the user says */
	struct slc_phase_evidence *ev;  /* the evidence each analysed segment was read with */
	void **exp;                     /* each experiment's result, read once at load (private) */
};

/** slc_session_is_curve() - a write curve with samples (not TRIM, idle, reads or duty rounds)? */
int slc_session_is_curve(const struct slc_input_segment *s);

/**
 * slc_session_load() - load @path and analyse every write-curve segment;
 * the first one becomes a[0].  @only >= 0 restricts to that trace segment;
 * @opts may be NULL (defaults).  Keep @x->allow_no_curve as set before.
 *
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_session_load(struct slc_session *x, const char *path, long only, const struct slc_cpd_opts *opts,
		     char *err, size_t errlen);

/**
 * slc_session_load_many() - slc_session_load() of @n inputs imported with
 * @io (may be NULL) and summed on a common grid (slc_input_load_many()).
 */
int slc_session_load_many(struct slc_session *x, const char *const *paths, size_t n,
			  const struct slc_import_opts *io, long only, const struct slc_cpd_opts *opts, char *err,
			  size_t errlen);

/** slc_session_free() - free what slc_session_load() made; @x may be zeroed. */
void slc_session_free(struct slc_session *x);

/**
 * slc_session_json() - the phases document (docs/phases-json.md): the
 * analysis of every segment with step/workload/segment/drive added, and
 * the experiments the input holds.  Caller frees *@out.
 * Return: 0 or -errno.
 */
int slc_session_json(char **out, const struct slc_session *x);

/**
 * slc_session_print() - the phase breakdown in words and a table: each
 * curve's cache, erase-bound onset, the drive's counters and temperature,
 * recovery against the first curve, every phase's figures, the experiments.
 */
void slc_session_print(FILE *f, const struct slc_session *x, enum slc_unit_system u);

/*
 * slc_session_write() - @json_text (when not NULL) or slc_session_print()'s
 * words to @path ("-": stdout) through the output module with @oo.
 * Return: 0 or -errno with the reason in @err.
 */
int slc_session_write(const char *path, const struct slc_output_opts *oo, const struct slc_session *x,
		      const char *json_text, enum slc_unit_system u, char *err, size_t errlen);

/* ---- export ------------------------------------------------------------ */

/* What `slcscope export` writes. */
enum slc_export_format {
	SLC_EXPORT_CSV = 0,           /* the samples as stored (slc_input_export_csv()) */
	SLC_EXPORT_JSON,              /* everything the input holds (slc_input_export_json()) */
	SLC_EXPORT_TIDY,              /* one row per sample with its segment and phase */
};

/*
 * slc_session_export_tidy() - the tidy table of @x on @f: a header line,
 * then one CSV row per sample of every segment (analysed or not) with the
 * segment's step, plan, role, workload, block size and queue depth, the
 * sample's time, bytes, MB/s, IOPS, latencies and temperature, and the
 * phase the analysis put it in; an empty cell where nothing was recorded
 * (docs/import.md, "Tidy export").
 * Return: 0 or -EIO.
 */
int slc_session_export_tidy(FILE *f, const struct slc_session *x);

/*
 * slc_session_export() - load @input (imported with @io, may be NULL) and
 * write it as @fmt to @path ("-": stdout) through the output module with
 * @oo (NULL: text, stdout allowed).  The tidy table analyses the input
 * first; one without a write curve is exported without phases.
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_session_export(const char *input, const struct slc_import_opts *io, enum slc_export_format fmt,
		       const char *path, const struct slc_output_opts *oo, char *err, size_t errlen);

/* ---- the experiments -------------------------------------------------- */

/*
 * slc_session_trim_responses() - for the random-read segments that follow
 * a TRIM step (the first 4; the plan has one), the stall and slowdown
 * against the random reads before it, as read when @x was loaded.  Fills
 * @out and @seg (trace segment index), up to @max; the count.
 */
int slc_session_trim_responses(const struct slc_session *x, struct slc_trim_response *out, size_t *seg, size_t max);

/* slc_session_hir() - SNIA host idle recovery: each wait state's mean IOPS of its write windows (the first 16); the count. */
int slc_session_hir(const struct slc_session *x, double *wait_s, double *iops, size_t max);

/* One burst of the fill-levels plan. */
struct slc_fill_level {
	const char *step;               /* the step's name */
	int fill_pct;                   /* 25, 50, ...; 0 after the TRIM */
	int after_trim;
	double cache_bytes;             /* 0 when none was found */
	double mean_bps;                /* bytes / time of the whole burst */
};

/* slc_session_fill_levels() - the fill-levels plan's bursts in order (the first 16); the count. */
int slc_session_fill_levels(const struct slc_session *x, struct slc_fill_level *out, size_t max);

/* slc_session_compressibility() - the compress plan's two bursts' mean speeds; 1 when both are there. */
int slc_session_compressibility(const struct slc_session *x, double *random_bps, double *repeating_bps);

/*
 * slc_session_idle_recovery() - for each idle burst after the first random
 * burst (the reference), its idle time and the cache it found; the count.
 * @fresh_bytes: the reference's cache (0 without one, NAN without a reference).
 */
int slc_session_idle_recovery(const struct slc_session *x, double *idle_s, double *cache_bytes, size_t max,
			      double *fresh_bytes);

/* One wait of the idle sweep: the burst after it against the fresh drive. */
struct slc_idle_point {
	size_t segment;               /* the burst's segment in the input */
	double idle_s;                /* the wait before it */
	double cache_bytes;           /* the cache it found (a lower bound when at_least) */
	double cache_frac;            /* of the fresh cache; NAN when that is unknown or a bound */
	double burst_bps;             /* the burst's first phase's mean speed */
	int at_least;                 /* its cache ran out inside the first samples: a lower bound */
	int all_back;                 /* 90% or more: the whole cache, within what a remeasure varies */
};

/* The idle sweep's result: every word, phases.json member and figure of it reads this. */
struct slc_idle_sweep {
	size_t n;
	struct slc_idle_point pt[16];
	double fresh_bytes;           /* the fresh drive's cache; NAN without a fresh curve */
	double fold_bps;              /* the folding rate; NAN when no wait gave part of it back */
	int fold_at_least;            /* fold_bps is a lower bound (a wait gave it all back) */
};

/** slc_session_idle_sweep() - the idle sweep of @x into @r; the number of waits. */
int slc_session_idle_sweep(const struct slc_session *x, struct slc_idle_sweep *r);

/** slc_idle_point_words() - one wait's cache in words ("all of the cache back (241 MB)"). */
char *slc_idle_point_words(char *buf, size_t len, const struct slc_idle_point *p, enum slc_unit_system u);


/*
 * slc_idle_fold_rate_bps() - the folding rate: slope through the origin of
 * the cache recovered against idle time, over the waits that had not yet
 * brought back 90% of @fresh_bytes; NAN when every wait brought it all back.
 */
double slc_idle_fold_rate_bps(const double *idle_s, const double *cache_bytes, size_t n, double fresh_bytes);

/*
 * slc_session_print_experiments() - the experiments' figures in words:
 * cache by fill level, compressibility, host idle recovery, reads after a
 * TRIM, idle recovery and folding rate (whichever the input has).
 */
void slc_session_print_experiments(FILE *f, const struct slc_session *x, enum slc_unit_system u);

/* ---- sweeps ------------------------------------------------------------ */

/* One point of a sweep (a segment of role SLC_ROLE_SWEEP), over its whole length. */
/* How a sweep point began, read from the steps before it in the trace. */
enum slc_sweep_start {
	SLC_SWEEP_START_UNKNOWN = 0,    /* first in a trace with nothing before it */
	SLC_SWEEP_START_TRIM,           /* after a TRIM of everything since the last point */
	SLC_SWEEP_START_STEADY,         /* after the preconditioning, no TRIM since */
	SLC_SWEEP_START_AFTER_POINT,    /* right after another point: where it left off */
};

struct slc_sweep_point {
	size_t segment;                 /* index in the input */
	enum slc_sweep_start start;
	double settle_s;                /* the idle right before it */
	const char *step, *workload;    /* borrowed from the input */
	const char *read_state;         /* "written", "trimmed", "partly", "unknown" or "" */
	uint32_t group;                 /* the plan's group of points (role_arg) */
	uint32_t block_bytes, qd, jobs, read_pct;
	double duration_s;
	uint64_t read_bytes, write_bytes, read_ios, write_ios;
	double read_bps, write_bps;     /* bytes/s over the point */
	double read_iops, write_iops;
	double lat_mean_us;             /* all commands; NAN when unknown */
	double lat_p99_us;              /* the intervals' p99, weighted by their commands */
	double read_lat_mean_us, read_lat_p99_us, write_lat_mean_us, write_lat_p99_us;
};

/**
 * slc_sweep_points() - the sweep points of @in, in trace order, into @out
 * (up to @max).  Traces without the reads' columns count a read workload's
 * I/O as reads and any other as writes.
 * Return: how many points @in has (more than @max when @out was too short).
 */
size_t slc_sweep_points(const struct slc_input *in, struct slc_sweep_point *out, size_t max);

/** slc_sweep_print() - the sweep table: MB/s (MiB/s with binary units), IOPS, latency in us. */
void slc_sweep_print(FILE *f, const struct slc_input *in, enum slc_unit_system u);

/* ---- words and headline figures --------------------------------------- */

/**
 * slc_session_drive_name() - the drive for a title or a legend: its model
 * with its capacity ("Samsung SSD 860 EVO, 500 GB"; a simulated preset as
 * "Simulated 240 GB SATA TLC (sata240-tlc)"); the target or the file name
 * when the input names no drive.  Returns @buf.
 */
char *slc_session_drive_name(char *buf, size_t len, const struct slc_session *x);

/** slc_segment_words() - a subtitle: "4 KiB random writes, QD32, 2 h after a TRIM of the whole drive". */
char *slc_segment_words(char *buf, size_t len, const struct slc_input_segment *s);

/** slc_segment_heading() - a heading from the step's role: "Burst after 15 min idle (4 KiB random writes, QD32)". */
char *slc_segment_heading(char *buf, size_t len, const struct slc_input_segment *s);

/**
 * slc_cache_bound_words() - a cache too short for the sampling, in words (an
 * analysis with model.cache_bound set): "ended inside the first sample: at
 * least 299 MB, at most 1.80 GB; sample finer (--interval) to measure it".
 */
char *slc_cache_bound_words(char *buf, size_t len, const struct slc_analysis *an, enum slc_unit_system u);

/** slc_duration_words() - "30 s", "15 min", "2 h", "1 h 53 min". */
char *slc_duration_words(char *buf, size_t len, double seconds);

/** slc_reading_words() - a reading of the model: "a cache of 2.29 GB in 1 tier, native, erase-bound from 263 GB". */
char *slc_reading_words(char *buf, size_t len, const struct slc_labelling *l, enum slc_unit_system u);

/** slc_model_sure_words() - how sure the model is: "79% sure", or "unsure: " and why. */
const char *slc_model_sure_words(char *buf, size_t len, const struct slc_model_info *m);

/** slc_settle_words() - what would decide a close call (model.settle): "--capacity (...); a longer run (...)". */
char *slc_settle_words(char *buf, size_t len, unsigned settle);

/**
 * slc_phase_host_of() - the writer's CPU over [@start_s, @end_s] of @s, from
 * the samples whose middle falls inside.
 */
void slc_phase_host_of(struct slc_phase_host *out, const struct slc_input_segment *s, double start_s,
		       double end_s);

/**
 * slc_host_bound_words() - a host-bound phase in words, the same on the
 * console and in the report: "host-bound: the busiest writer thread used
 * 97% of a core; its speed is the host's limit, not the drive's".
 */
char *slc_host_bound_words(char *buf, size_t len, const struct slc_phase_host *h);

/**
 * slc_session_host_note() - analyse the trace at @path and say, in @buf,
 * which of its phases were host-bound: "2 of 3 phases ... (rand_curve
 * native 0-120 s: host-bound: ...); 1 writer thread on 8 cores: try
 * --jobs 8 ...", or that all the host's cores ran writers.
 * Return: the host-bound phases (0 also when the trace has no curve).
 */
size_t slc_session_host_note(char *buf, size_t len, const char *path);

/* A recovery burst's cache in words, the same on the console and in the report. */
char *slc_recovery_words(char *buf, size_t len, const struct slc_recovery *r, enum slc_unit_system u);

/** slc_session_find_role() - the first analysed segment of @role; -1 when none. */
long slc_session_find_role(const struct slc_session *x, enum slc_role role);

/**
 * slc_session_pick() - the analysed segment a figure shows: the first of
 * @role (-1 when none), or with @role 0 the random write curve after TRIM,
 * falling back to the first analysed segment.
 */
long slc_session_pick(const struct slc_session *x, enum slc_role role);

/**
 * slc_session_recovery() - analysed segment @i read against the main curve
 * (slc_session_pick(x, 0)) into @out, as every output states it; the main
 * curve itself is the fresh drive.  Return: 0, or -ENOENT when @i is before
 * the main curve or has no recovery to state.
 */
int slc_session_recovery(const struct slc_session *x, size_t i, struct slc_recovery *out);

/* The figures review articles quote for a write curve; NAN where it has none. */
struct slc_curve_figures {
	double cache_bytes;             /* the whole cache (every tier) */
	double cache_bps;               /* the first tier's speed */
	double cache1_bytes;            /* the first tier alone */
	double cache2_bytes, cache2_bps;/* the second tier */
	double native_bps;              /* direct to TLC (bytes / time over those phases) */
	double erase_bps;               /* erase-bound */
	double written_bytes;           /* host bytes written in the first @horizon_s */
	double horizon_s;               /* the horizon asked, or the curve's length when shorter */
	double duration_s;              /* the curve's length */
	double block_bytes;             /* I/O size; NAN when unknown */
};

/**
 * slc_session_curve_figures() - @out for analysed segment @k; @horizon_s
 * is the time "written in" counts (7200: the reviews' 2 h).
 * Return: 0, -1 when there is no such segment.
 */
int slc_session_curve_figures(struct slc_curve_figures *out, const struct slc_session *x, size_t k, double horizon_s);

/* ---- figures and the report ------------------------------------------- */

enum slc_figure_kind {
	SLC_FIG_CURVE = 0,            /* "curve": the write curve with its phases */
	SLC_FIG_COMPARE,              /* "compare": 2-8 drives' curves on one chart */
	SLC_FIG_MULTIPLES,            /* "multiples": one panel per drive, shared axes */
	SLC_FIG_BARS,                 /* "bars": the phase figures across drives */
	SLC_FIG_LATENCY,              /* "latency": percentile bands against time */
	SLC_FIG_LATENCY_CDF,          /* "latency-cdf": each phase's per-interval p99, sorted */
	SLC_FIG_RECOVERY,             /* "recovery": fresh, after idle, after TRIM */
	SLC_FIG_IDLE,                 /* "idle": cache recovered against idle time */
	SLC_FIG_TEMPERATURE,          /* "temperature": over the run, throttling marked */
	SLC_FIG_TRIM_RESPONSE,        /* the trim-response plan's: reads right after a TRIM */
	SLC_FIG_HIR,                  /* the hir plan's: host idle recovery, IOPS per wait state */
	SLC_FIG_FILL_LEVELS,          /* the fill-levels plan's: burst speed and cache against fill */
	SLC_FIG_COMPRESS,             /* the compress plan's: incompressible against repeating data */
	SLC_FIG_SWEEP_QD,             /* the qd-sweep plan's: 4 KiB random IOPS against queue depth */
	SLC_FIG_SWEEP_BS,             /* the bs-sweep plan's: throughput against block size (log2) */
	SLC_FIG_MIXED,                /* the mixed plan's: throughput against the share of reads */
	SLC_FIG__COUNT
};

/*
 * The plans (session/exp/: one module per experiment, listed in its
 * registry).
 *
 * slc_plan_build() - make the plan called @name from @o (the steps each
 * plan runs: docs/plans.md).  Return: 0, or -EINVAL for an unknown name
 * or options that make a job step endless (the reason in @err, naming the
 * option).
 */
int slc_plan_build(struct slc_plan *p, const char *name, const struct slc_plan_opts *o, char *err, size_t errlen);

/** slc_plan_name() - the @i-th plan, its one-line summary in *@summary (may be NULL); NULL past the last. */
const char *slc_plan_name(size_t i, const char **summary);

/** slc_plan_is_sweep() - 1 when plan @name has sweep points (run --points). */
int slc_plan_is_sweep(const char *name);

/** slc_plans_markdown() - the plan table of docs/plans.md. */
void slc_plans_markdown(FILE *f);

/** slc_figure_kind_name() - "curve", "compare", ...; NULL out of range. */
const char *slc_figure_kind_name(enum slc_figure_kind k);

/** slc_figure_kind_from_name() - the kind called @name; -1 when none. */
int slc_figure_kind_from_name(const char *name);

/** slc_figure_kind_inputs() - how many inputs @k draws: 1, or 2-8 (returns 8). */
int slc_figure_kind_inputs(enum slc_figure_kind k);

/* Small multiples take the most inputs: one panel each, in a grid. */
#define SLC_FIG_MAX_MULTIPLES 12

struct slc_figure_opts {
	int x_time;                   /* x axis: time instead of data written */
	int x_fraction;               /* x axis: data written as a fraction of the drive's capacity */
	int y_iops;                   /* y axis: IOPS instead of MB/s (fixed-block workloads) */
	int log_y;                    /* logarithmic y axis */
	int binary;                   /* GiB / MiB/s instead of GB / MB/s */
	int width, height;            /* pixels; 0: the plot library's default */
	const char *title;            /* instead of the drive's name; NULL: the drive's */
	const char *labels[SLC_FIG_MAX_MULTIPLES];  /* one per input, for legends; NULL entries: the drive's name */
	size_t n_labels;
	enum slc_role role;           /* the curve to draw: the first of this role; 0: the random
				       * curve after TRIM, else the first write curve */
	const char *layout_json;      /* write where the drawing put things (struct slc_plot_layout) here */
	enum slc_plot_theme theme;    /* colours: default (Okabe-Ito) or print (grays) */
	int pdf;                      /* reports: report.pdf too, its graphs drawn as the SVGs are */
	enum slc_paper paper;         /* report.pdf's paper: A4 (0) or Letter */
};

/**
 * slc_figure_opts_labels() - the @nl names @label of @n inputs into @o:
 * @at[i] is how many inputs came before name i on the command line.  Each
 * name is the input's after it; names all after the last input are the
 * inputs' in order.  Return: 0, or -EINVAL with the reason in @err (names
 * both before and after the inputs, more names than inputs, two for one).
 */
int slc_figure_opts_labels(struct slc_figure_opts *o, const char *const *label, const size_t *at, size_t nl, size_t n,
			   char *err, size_t errlen);

/**
 * slc_figure_opts_set() - set option @name of @o from @value as the command
 * line spells it: "x" (bytes, time, fraction), "y" (bps, iops, log,
 * linear), "segment" (a role: fill, curve, idle_burst, ...), "label" (the
 * next input's), "title", "width", "height" (200-20000), "binary",
 * "layout-json" (a path), "theme" (default, print), "pdf" (no value),
 * "paper" (a4, letter).  @value is borrowed.
 * Return: 0, or -EINVAL with the reason in @err.
 */
int slc_figure_opts_set(struct slc_figure_opts *o, const char *name, const char *value, char *err, size_t errlen);

/**
 * slc_figure_draw() - figure @kind of the @n inputs @xs into @path
 * (.png/.svg/.pdf).  Return: 0 or -errno with a reason in @err (-EINVAL
 * when the inputs hold nothing to draw, with what would).
 */
int slc_figure_draw(const char *path, enum slc_figure_kind kind, const struct slc_session *xs, size_t n,
		    const struct slc_figure_opts *o, char *err, size_t errlen);

/* slc_figure_draw() through the output module (slcscope/output.h) with @oo. */
int slc_figure_write(const char *path, const struct slc_output_opts *oo, enum slc_figure_kind kind,
		     const struct slc_session *xs, size_t n, const struct slc_figure_opts *o, char *err, size_t errlen);

/*
 * slc_figure_curve() - graph analysed segment @k of @x (every sample a dot,
 * the centred moving average, phase bands with their figures, a zoomed
 * panel for a short cache) into @path (.png/.svg/.pdf).
 * Return: 0 or -errno with a reason in @err.
 */
int slc_figure_curve(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
		     char *err, size_t errlen);

/* slc_figure_compare() - 2-8 inputs' curves on one chart (the one o->role picks), the legend outside. */
int slc_figure_compare(const char *path, const struct slc_session *xs, size_t n, const struct slc_figure_opts *o,
		       char *err, size_t errlen);

/* slc_figure_latency() - latency percentile bands of analysed segment @k against time (log scale). */
int slc_figure_latency(const char *path, const struct slc_session *x, long k, const struct slc_figure_opts *o,
		       char *err, size_t errlen);

/* slc_figure_recovery() - cache found and burst speed: fresh, after idle, after TRIM. */
int slc_figure_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
			char *err, size_t errlen);

/* slc_figure_idle_recovery() - cache recovered against idle time (plan idle-sweep). */
int slc_figure_idle_recovery(const char *path, const struct slc_session *x, const struct slc_figure_opts *o,
			     char *err, size_t errlen);

/*
 * slc_report_write() - the report of @x in directory @dir (created if
 * missing): phases.json, phases.csv, samples.csv, graphs, summary.md,
 * index.html, and with look->pdf report.pdf (on look->paper).  One line
 * "wrote PATH" per file on @log unless NULL.  The
 * files are written under temporary names and renamed into @dir once all
 * are complete: on failure (a full disk) @dir keeps what it had.
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_report_write(const char *dir, const struct slc_session *x, const struct slc_figure_opts *look, FILE *log,
		     char *err, size_t errlen);

/*
 * slc_report_compare_write() - a comparison report of the @n inputs @xs
 * (2-8) in @dir: the comparison, small multiples and phase-figure bars as
 * SVG and PNG, a table of every drive's figures (comparison.csv),
 * summary.md and index.html (and report.pdf with @o->pdf); @o's labels,
 * title, role, units, theme and paper apply.
 * Written as slc_report_write() does: complete, or @dir left as it was.
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_report_compare_write(const char *dir, const struct slc_session *xs, size_t n,
			     const struct slc_figure_opts *o, FILE *log, char *err, size_t errlen);

/*
 * slc_csv_field() - @s as one CSV field (RFC 4180): quoted when it holds a
 * separator, a quote or a line break, or blanks at either end that a reader
 * would trim; nothing for NULL or "".
 */
void slc_csv_field(FILE *f, const char *s);

/* ---- one curve on the simulated drive (slcscope sim run) -------------- */

struct slc_sim_curve {
	const char *model;            /* a preset's name or a model file */
	struct slc_job job;           /* the workload; max_bytes from @bytes */
	struct slc_size bytes;        /* how much (with @have_bytes; else one capacity without @have_time) */
	struct slc_size prefill;      /* written sequentially first, not sampled */
	uint64_t idle_ns;             /* the drive idles this long before the curve */
	int have_bytes, have_time, quiet;
};

/**
 * slc_sim_curve_run() - @c on a fresh simulated drive in virtual time: one
 * CSV line per sample to @csv (with its header), the drive's events and a
 * summary (write amplification, erases, memory) to @log unless quiet.
 * Return: 0; -ECANCELED when @stop was set (the samples so far written);
 * -EDOM when --bytes or --prefill does not fit the drive; another -errno;
 * the reason in @err.
 */
int slc_sim_curve_run(const struct slc_sim_curve *c, FILE *csv, FILE *log, const volatile int *stop, char *err,
		      size_t errlen);

/* ---- a lab's site ---------------------------------------------------- */

/* What a number is, for its words: "2.29 GB", "483 MB/s", "1 h 2 min", "98%". */
enum slc_value_unit {
	SLC_VALUE_BYTES = 0,
	SLC_VALUE_RATE,               /* bytes per second */
	SLC_VALUE_SECONDS,
	SLC_VALUE_SHARE,              /* 0-1, in words a percentage */
};

/** slc_value_words() - @v in words with its unit; "-" when it is NAN. */
char *slc_value_words(char *buf, size_t len, enum slc_value_unit unit, double v, enum slc_unit_system u);

/* One figure the site ranks drives by. */
struct slc_site_column {
	const char *key;              /* in file names: rank-KEY.svg */
	const char *title;            /* "SLC cache" */
	enum slc_value_unit unit;
	int lower_better;
	const char *zero;             /* the words for 0 ("none"); NULL: the number */
};

/* One stored run of a drive. */
struct slc_site_run {
	int64_t id;
	const char *created, *plan, *status;
	const char *path;             /* its trace; NULL when it is no longer there as stored */
	const double *v;              /* one value per column; NAN: none */
	const char *note;             /* said beside the figures (a cache given as bounds); NULL */
	int partial;                  /* the run did not complete: listed, never the drive's figure */
};

struct slc_site_drive {
	int64_t id;
	const char *name, *model, *serial;
	double capacity_bytes;        /* 0 when unknown */
	const struct slc_site_run *runs;  /* oldest first */
	size_t n_runs;
};

struct slc_site {
	const char *title;
	const struct slc_site_column *cols;
	size_t n_cols;
	const struct slc_site_drive *drives;
	size_t n_drives;
	int reports;                  /* each drive's latest run's report in run-ID/ */
	int binary;                   /* GiB and MiB/s */
};

/**
 * slc_site_write() - a static site of @s in @dir: index.html (every drive,
 * each with its latest value of each figure, a table sorted in the browser
 * by any column; a ranking chart per figure, rank-KEY.svg/.png), a page per
 * drive (drive-ID.html: its runs, a link to its report) and, with
 * @s->reports, the report of each drive's latest run in run-ID/ (a drive
 * whose trace cannot be read gets none, and its page says why).  @dir is a
 * report directory (slc_report_dir_check()): new, empty or an earlier site.
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_site_write(const char *dir, const struct slc_site *s, FILE *log, char *err, size_t errlen);

/* ---- a run ------------------------------------------------------------ */

/* What the run tells its user while it goes; every member optional. */
struct slc_run_ui {
	/* a warning or notice in one line, without a trailing newline */
	void (*note)(void *arg, const char *msg);
	void (*step_begin)(void *arg, size_t i, const struct slc_plan *p, uint64_t limit_bytes);
	void (*progress)(void *arg, size_t i, const struct slc_plan *p, const struct slc_progress *pr);
	void (*step_end)(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *r);
	/* --until-steady: SNIA steady state reached, the curve stops */
	void (*steady)(void *arg, size_t i, const struct slc_plan *p, const struct slc_steady_state *ss);
	void *arg;
};

struct slc_run_opts {
	const char *trace_path;       /* the trace to write */
	const char *command_line;     /* recorded in the trace; may be NULL */
	int probe;                    /* identity, SMART snapshots, temperature readings */
	int purge;                    /* purge the drive before the plan (needs the probe) */
	uint64_t temp_every_ns;       /* temperature and counters this often; 0: every
				       * @interval_ns on a target with a virtual clock (the
				       * simulated drive's counters cost nothing), else 5 s */
	uint64_t interval_ns;         /* the plan's sampling interval (0: 1 s) */
	int until_steady;             /* end the random curve once SNIA steady state holds */
	uint64_t steady_after_bytes;  /* ... counting only after this much */
	const struct slc_run_ui *ui;  /* may be NULL */
	const struct slc_plan *plan;  /* may be NULL; else checked against the target
				       * (slc_plan_validate()) before anything is written */
	int force;                    /* replace a trace path holding another format */
	const volatile int *stop;     /* may be NULL; non-zero: the purge's TRIM stops
				       * (slc_run_open() returns -ECANCELED) */
};

struct slc_run;

/**
 * slc_run_open() - start a run on @t (borrowed: close it after
 * slc_run_close()): check @o->plan against @t; lock the trace's path
 * (flock, held until slc_run_close(): a second run on the same path is
 * refused with -EBUSY, naming the first when the filesystem keeps extended
 * attributes) after refusing what slc_output_check() refuses (the target
 * being the input; another format unless @o->force);
 * open the drive's probe (a warning when there is none), create the trace
 * with the drive's identity, take the identity and health snapshot, and
 * purge the drive when asked.
 * Return: 0, or -errno with a one-line reason in @err (nothing left open).
 */
int slc_run_open(struct slc_run **out, struct slc_target *t, const struct slc_run_opts *o, char *err, size_t errlen);

/**
 * slc_run_check_trace() - whether @path may become the trace of a run on
 * @target (its spec): not the target itself, nor anything no output may be
 * (slc_output_check(), an old trace being what -o replaces).  slc_run_open()
 * checks it; a program checks it sooner, before the target opens.
 * Return: 0, or -errno with a one-line reason naming -o in @err.
 */
int slc_run_check_trace(const char *target, const char *path, int force, char *err, size_t errlen);

/**
 * slc_run_execute() - run @p: one trace segment per step, health snapshots
 * around each, temperature and counters during each.  As slc_plan_run().
 */
int slc_run_execute(struct slc_run *r, const struct slc_plan *p, const volatile int *stop,
		    struct slc_job_result *res, size_t *failed_step, char *err, size_t errlen);

/**
 * slc_run_close() - close the trace (everything sampled stays readable),
 * the probe, and free @r (NULL is allowed).
 * Return: 0, or -errno when the trace could not be closed (reason in @err).
 */
int slc_run_close(struct slc_run *r, char *err, size_t errlen);

/*
 * A run on a terminal (what `slcscope run` shows): on a terminal a progress
 * line redrawn in place, always a line per finished step, and notes as
 * "PROG: message".  Quiet: nothing.
 */
struct slc_run_console {
	FILE *f;
	const char *prog;             /* "slcscope run" */
	int quiet, tty;
	int lines;                    /* not a terminal, but the progress wanted as lines
				       * (a drive of slc_run_many(), whose parent draws it) */
	enum slc_unit_system units;
	int virtual_clock;            /* the target's time is a model's: said on the line,
				       * and the ETA is the wall time still to go */
	uint64_t limit_bytes, limit_ns; /* the step in progress */
	double last_s;                /* when the line was last drawn */
	double step_wall_s;           /* when the step began, on the wall clock */
};

/** slc_run_console_init() - a console on @f (a tty gets the progress line). */
void slc_run_console_init(struct slc_run_console *c, FILE *f, const char *prog, int quiet);

/** slc_run_console_ui() - its callbacks, for struct slc_run_opts.ui. */
struct slc_run_ui slc_run_console_ui(struct slc_run_console *c);

/**
 * slc_run_signals() - what a run does first: SIGINT and SIGTERM to
 * @on_stop (which sets the stop flag the run is given), and a stop
 * (SIGSTOP, Ctrl-Z) watched for, so that it is recorded as the host's
 * pause, not the drive's (slc_host_watch_install()).
 */
void slc_run_signals(void (*on_stop)(int sig));

/**
 * slc_run_interrupted() - say on @f that a stop request (@stop as the signal
 * handler set it: SIGINT or SIGTERM, maybe | SLC_STOP_NOW) ended the run
 * @when ("before anything was written"), as "PROG: interrupted by SIGINT WHEN".
 * Return: the exit status, 128 + the signal.
 */
int slc_run_interrupted(FILE *f, const char *prog, int stop, const char *when);

/**
 * slc_run_dry_blockdev() - a dry run on block device @path to @out: the plan
 * sized for it, what it would destroy and what the safety checks found
 * (read-only: the device is never opened for writing).  @stop ends the
 * checks early.  Return: 0; -ECANCELED when stopped; -EINVAL when the plan
 * does not fit the device; another -errno when the device cannot be read;
 * the reason in @err.
 */
int slc_run_dry_blockdev(FILE *out, const char *path, const struct slc_plan *p, int destructive, int force,
			 enum slc_unit_system units, const volatile int *stop, char *err, size_t errlen);

/** slc_run_console_clear() - erase the progress line (before other output). */
void slc_run_console_clear(struct slc_run_console *c);

/* ---- several drives at once ----------------------------------------- */

/* A drive's run in its own process, as slc_run_many() started it. */
struct slc_run_many_child;

struct slc_run_many_opts {
	const char *const *targets;   /* 2 to 64, each a target slc_target_open() takes */
	size_t n;
	const char *out_dir;          /* the traces go to OUT_DIR/NAME.h5; NULL only when @dry */
	int dry;                      /* a dry run: each drive's in turn, its output on stdout */
	int force;                    /* a trace path may hold another format (slc_output_check()) */
	int quiet;                    /* no progress, no line for a written trace */
	FILE *log;                    /* the drives' lines, prefixed "[NAME] "; a terminal gets
				       * a progress line per drive redrawn in place */
	const char *prog;             /* "slcscope run" */
	const volatile int *stop;     /* the caller's stop flag (slc_run_signals()); passed
				       * on to every drive as the signal that set it */
	/*
	 * In the child of drive @i: run @target into @trace_path (NULL in a
	 * dry run) as a single run does, its words on stderr, calling
	 * slc_run_many_ready(@c) after every check and before writing; the
	 * exit status.  @c is NULL in a dry run.
	 */
	int (*run_one)(void *arg, size_t i, const char *target, const char *trace_path,
		       struct slc_run_many_child *c);
	void *arg;
};

/**
 * slc_run_many() - run @o->targets at once, one child process each, into
 * OUT_DIR/NAME.h5: NAME from the target (sim:tiny-tlc -> sim-tiny-tlc, a
 * device's kernel name, a file's base name), refused when two targets
 * share it or are the same device or file.  Every drive does all its
 * checks first; only when all pass is OUT_DIR made (when new) and any
 * drive written.  Ends with a line per drive on @o->log: trace written,
 * refused or failed (its last line), interrupted.
 * Return: the exit status (0; 1 when a drive failed or was refused; 128 +
 * the signal when stopped), or -errno with a one-line reason in @err when
 * the targets or -o are wrong (nothing started).
 */
int slc_run_many(const struct slc_run_many_opts *o, char *err, size_t errlen);

/**
 * slc_run_many_ready() - in a drive's child: its checks passed; wait for
 * the others.  Return: 0 (write now; also for @c NULL, a single run), or
 * -ECANCELED: another drive was refused or the run stopped: write nothing.
 */
int slc_run_many_ready(struct slc_run_many_child *c);

/** slc_run_many_console() - make @u (on stderr) the console of the drive @c: lines for the parent. */
void slc_run_many_console(const struct slc_run_many_child *c, struct slc_run_console *u);

/**
 * slc_plan_print() - the plan in words, one line a step, and how long it
 * takes, for a target @spec of @capacity_bytes (@virtual_clock: a
 * simulated drive).
 */
void slc_plan_print(FILE *f, const struct slc_plan *p, const char *spec, uint64_t capacity_bytes, int virtual_clock,
		    enum slc_unit_system units);

/**
 * slc_plan_write_fio() - @p as an fio job file on @f: one job section per
 * step in order (stonewall), for a target @spec of @kind and @capacity
 * bytes, every size resolved for it; @io_poll (SLC_TARGET_HIPRI,
 * SLC_TARGET_SQPOLL) gives each writing job fio's hipri and sqthread_poll;
 * @command_line (may be NULL) is noted in a comment.  Nothing is run
 * (docs/plans.md, "fio job files").
 * Return: 0, or -errno with the reason in @err.
 */
int slc_plan_write_fio(FILE *f, const struct slc_plan *p, const char *spec, enum slc_target_kind kind,
		       uint64_t capacity, unsigned io_poll, const char *command_line, char *err, size_t errlen);

/**
 * slc_fio_job_check() - whether --fio-job @path may be written: absent,
 * empty, or a job file slcscope wrote (its first line says so); anything
 * else only with @force; never a file that is not regular or is @target.
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_fio_job_check(const char *path, const char *target, int force, char *err, size_t errlen);

/* What `slcscope run --fio-job` writes, and for which target. */
struct slc_fio_job_opts {
	const char *path;             /* the job file; "-" for stdout */
	const char *target;           /* as given to run: sim:, null:, a file, a block device */
	uint64_t file_size_bytes;     /* a file's --size: the job is sized for it (0: the file's) */
	int force;                    /* replace a file slcscope did not write */
	const char *command_line;     /* noted in the file (may be NULL) */
	unsigned io_poll;             /* run's --hipri/--sqpoll (slc_target_opts.io_poll): fio's hipri/sqthread_poll */
};

/**
 * slc_fio_job_write() - @p sized for @o->target, whose capacity is read
 * without writing it (a block device's size, a file's or its --size, a
 * simulated drive's), checked (slc_plan_validate()) and written as an fio
 * job file to @o->path after slc_fio_job_check().
 * Return: 0, or -errno with a one-line reason in @err; *@usage set when
 * the plan does not fit the target (a usage error).
 */
int slc_fio_job_write(const struct slc_fio_job_opts *o, const struct slc_plan *p, int *usage,
		      char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
