/* SPDX-License-Identifier: MIT */
/*
 * Shared by analyze, plot and report: load an input (trace, fio log, CSV)
 * and analyse its write-curve segments.
 */
#ifndef SLCSCOPE_CLI_ANALYZE_INPUT_H
#define SLCSCOPE_CLI_ANALYZE_INPUT_H

#include "slcscope/analysis.h"
#include "slcscope/core.h"

#include <stdio.h>

/* What the drive itself said about an analysed segment (probes' snapshots
 * and readings in the trace); NAN / NULL where it said nothing. */
struct analyzed_drive {
	double host_bytes, nand_bytes;  /* counter deltas over the segment (health_before/after) */
	double wa;                      /* their ratio: the segment's write amplification */
	double *phase_wa;               /* per phase, from the readings during the segment */
	double cache_wa;                /* over the cache phases */
	double slc_flash_bytes;         /* cache bytes x cache_wa: flash used in SLC mode */
	double warn_c;                  /* the drive's warning temperature */
	size_t n_temp;                  /* temperature readings in the segment */
	double max_temp_c;
	int relabelled;                 /* phases relabelled by the thermal evidence */
};

struct analyzed {
	struct slc_input *in;
	size_t n;                       /* analysed segments */
	size_t *seg;                    /* their index in in->segments */
	struct slc_analysis *a;         /* one per analysed segment; a[0] is the reference */
	double **bytes;                 /* per-interval bytes of each analysed segment */
	struct analyzed_drive *drive;   /* one per analysed segment */
	int allow_no_curve;             /* set before analyzed_load(): reads-only inputs are fine */
};

/* Is this segment a write curve with samples (not trim, idle or reads)? */
int analyzed_is_curve(const struct slc_input_segment *s);

/*
 * analyzed_load() - load @path and analyse every write-curve segment; the
 * first one becomes a[0].  @only >= 0 restricts to that trace segment.
 * Returns 0, or prints "slcscope CMD: reason" and returns CLI_FAIL.
 */
int analyzed_load(struct analyzed *out, const char *cmd, const char *path, long only,
		  const struct slc_cpd_opts *opts);
void analyzed_free(struct analyzed *x);

/* The phases JSON with step/workload/segment added to each segments[] entry. */
int analyzed_json(char **out, const struct analyzed *x);

/*
 * analyzed_trim_responses() - for every random-read segment that follows a
 * TRIM step, the stall and slowdown against the random reads before it.
 * Fills @out and @seg (trace segment index); returns the count.
 */
int analyzed_trim_responses(const struct analyzed *x, struct slc_trim_response *out, size_t *seg, size_t max);

/*
 * analyzed_hir() - SNIA host idle recovery: for each wait state, the mean
 * IOPS of its write windows.  Returns the count.
 */
int analyzed_hir(const struct analyzed *x, double *wait_s, double *iops, size_t max);

/* One burst of the fill-levels plan. */
struct analyzed_fill_level {
	const char *step;               /* "burst_at_25", ..., "burst_after_trim" */
	int fill_pct;                   /* 25, 50, ...; 0 after the TRIM */
	int after_trim;
	double cache_bytes;             /* 0 when none was found */
	double mean_bps;                /* bytes / time of the whole burst */
};

/* analyzed_fill_levels() - the fill-levels plan's bursts in order; the count. */
int analyzed_fill_levels(const struct analyzed *x, struct analyzed_fill_level *out, size_t max);

/*
 * analyzed_compressibility() - the compress plan's bursts: mean speed with
 * incompressible and with repeating data.  Return: 1 when both are there.
 */
int analyzed_compressibility(const struct analyzed *x, double *random_bps, double *repeating_bps);

/*
 * analyzed_print_experiments() - the experiments' figures in words: cache by
 * fill level, compressibility, host idle recovery, reads after a TRIM, idle
 * recovery and folding rate (whichever the input has).
 */
void analyzed_print_experiments(FILE *f, const struct analyzed *x, enum slc_unit_system u);

#endif
