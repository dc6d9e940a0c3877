// SPDX-License-Identifier: MIT
/*
 * Internals of the phase analysis, shared by the files of analysis/phases/.
 * From change-point segments to labelled phases (docs/analysis.md).
 *
 * The segmentation finds every statistically credible level change; most
 * are not phase changes.  Segments are first consolidated into blocks by
 * a few rules applied until nothing changes:
 *   1. neighbours within DELTA_SAME of each other, or not significantly
 *      different (Welch t < T_SAME), are one level;
 *   2. a short block between a higher and a lower one is a transition
 *      (a ramp) and joins the neighbour closest in level;
 *   3. a short block above both neighbours is a burst (cache recovered
 *      during a pause) and is absorbed;
 *   4. a block below both neighbours that is no longer than what follows
 *      (or a stall of any length inside one level) is a temporary drop:
 *      absorbed when such drops recur around it (comb or sawtooth
 *      texture) or the level's own noise makes one somewhere in the
 *      trace, otherwise kept as a stall / throttled.
 * Blocks are then labelled (cache tiers, direct-to-TLC, erase-bound; a
 * lasting drop is judged with the noise's autocorrelation time) and every
 * boundary is placed to sub-sample precision by a byte balance.
 */
#ifndef SLC_PHASES_PRIV_H
#define SLC_PHASES_PRIV_H

#include <stddef.h>

#include "slcscope/analysis.h"
#include "../alloc_hook.h"
#include "../stats_priv.h"

/* Levels closer than this (relative) are one level: smaller than any phase
 * change that matters (a cache/native ratio of 0.7 is a 30% step). */
#define DELTA_SAME 0.12
/* A cache tier must be this much faster than everything after it. */
#define DELTA_CACHE 0.15
/* Erase-bound: this much slower than the first native phase. */
#define DELTA_ERASE 0.15
/* A smaller lasting step (first foreground GC on a QLC drive: 8-11%) is an
 * erase-bound onset only when it is unmistakable: at least STEP_SMALL,
 * STEP_T standard errors (autocorrelation included), each side at least
 * STEP_MIN_LEN samples and STEP_MIN_EFF effectively independent ones, and
 * every quarter of each side on its side of the midpoint (persistent, not
 * a slow wander of the native speed). */
#define STEP_SMALL 0.05
#define STEP_T 10.0
/* A step of at least DELTA_ERASE found this way (the erase-bound onset of a
 * comb whose stalls the labelling merged into the level around it) needs
 * STEP_T_LARGE standard errors, with the autocorrelation time from batch
 * means where they give less (a periodic comb's stalls are paid back by the
 * runs after them).  The split is the best of thousands, so not 3. */
#define STEP_T_LARGE 5.0
#define STEP_MIN_LEN 100
#define STEP_MIN_EFF 100.0
/* A drop between two different levels that stays above this fraction of the
 * slower one is that level's slow start or end, not a temporary drop: the
 * simulated native speed wanders by 10-20% for seconds, while real drives'
 * stalls after the cache run at half speed or less. */
#define EDGE_DROP_MIN 0.75
/* An erase-bound phase holds at least this many effectively independent
 * samples (its count over the noise's autocorrelation time). */
#define ONSET_MIN_EFF 15.0
/* A drop below this fraction of the level before it is a stall. */
#define STALL_FRAC 0.5
/* Later cache tiers are as steady as the first (native writes are not) and
 * close to its speed: QLC tiers step 5 -> 3.5 GB/s (0.7), while the
 * methodology's direct-to-TLC speeds are 0.24-0.44 of the cache's. */
#define TIER_RATIO_MIN 0.6
#define TIER_COV_FACTOR 2.0
#define TIER_COV_MIN 0.05
/* Neighbours whose means differ by less than this many standard errors
 * (Welch) are one level whatever their relative difference: the split was
 * noise (a comb's teeth cluster by chance). */
#define T_SAME 3.0
/* A decay: at least this many consecutive falling levels, each step small,
 * or one level whose first quarter is this much faster than its last. */
#define DECAY_MIN_BLOCKS 3
#define DECAY_STEP_MIN 0.75
#define DECAY_TREND 1.25
/* The level right after the first that runs into a decay (its head) is
 * part of the decay when it falls itself by this much, first quarter to
 * last, even when it is longer than the first level (a flat level of its
 * own does not fall)... */
#define HEAD_TREND 1.1
/* ... and is at most this much longer than the first level (a cache's
 * direct-to-TLC phase drifting down by 10% and lasting three times the
 * cache is a level of its own) */
#define HEAD_DUR 1.5
/* A block of at least PLATEAU_MIN samples whose inner samples are flat
 * (range under PLATEAU_FLAT of the steps around it) is a level, not a ramp. */
#define PLATEAU_MIN 4
#define PLATEAU_FLAT 0.25
/* Rule 4 texture test: the context is up to TEXTURE_CONTEXT_LEN drop
 * lengths (at least TEXTURE_CONTEXT_MIN samples) each side, over the blocks
 * reached without passing a long stretch clearly below the drop.  When more
 * than TEXTURE_FRAC of the context on either side (of at least
 * TEXTURE_SIDE_MIN samples) lies below the midpoint between the drop and
 * that side's median, such drops recur: they are the phase's texture
 * (comb, sawtooth), not an event. */
#define TEXTURE_CONTEXT_LEN 10
#define TEXTURE_CONTEXT_MIN 30
#define TEXTURE_FRAC 0.10
#define TEXTURE_SIDE_MIN 10
/* Fewest samples for a trend (first vs last quarter) to mean anything. */
#define TREND_MIN_SAMPLES 40
#define BETWEEN_K 2.0
/* ... and each further sample of a ramp, RAMP_K sigma from both */
#define RAMP_K 3.0
#define BALANCE_SEEK 2
/* Samples (at most) each side used for the local speeds of a boundary. */
#define BALANCE_REF_MAX 30
/* Half-width cap (samples) of the byte-balance window at a boundary. */
#define BALANCE_HALF_MAX 10
/* A level this steady (robust sigma over its median) is a cache's: see
 * balance, the straddling sample. */
#define STEADY_COV 0.05
/* ... with at least EDGE_MIN_A samples of it and EDGE_MIN of the slow level
 * (its sample-to-sample scale), the first slow sample compared with the
 * median of the EDGE_NEXT after it. */
#define EDGE_MIN_A 4
#define EDGE_MIN 8
#define EDGE_NEXT 3
/* Autocorrelation of the noise (for the standard error of a level's mean):
 * lags summed until it falls to RHO_CUT, at most LAG_MAX samples. */
#define RHO_CUT 0.05
#define LAG_MAX 1000
/* ... and at most LAG_WORK / n lags (not under LAG_FLOOR): the sum costs
 * n x lags, and a million finely sampled smooth samples would take a
 * second at 1000 lags. */
#define LAG_WORK 1e8
#define LAG_FLOOR 100
/* Time constants an exponential fit tries: log-spaced from 2 samples to
 * the fitted stretch's length (the decay onset's knee, a decay's start). */
#define FIT_TAUS 24

struct trace {
	size_t n;
	const double *t;	/* end of each interval */
	double *dt;		/* interval lengths */
	double *v;		/* bytes per second */
	double *cum;		/* bytes written before sample i; n + 1 entries */
	double *sv, *sv2;	/* prefix sums of v and v^2; n + 1 entries */
	double *gap;		/* time no sample covers before sample i (a host pause,
				 * a duty step's waits: t_s jumps over it); n entries */
	double *ws;		/* scratch of the statistics below: 3 n entries */
	double dip_prob;	/* probability that a sample dips (slc__dip_prob) */
	double block_bytes;
};

struct block {
	size_t i0, i1;		/* samples [i0, i1) */
	int dip;		/* kept as a temporary drop */
	int kind;		/* enum slc_phase_kind once labelled */
	unsigned tier;
	int group;		/* same level across dips */
	double conf;		/* the model's weight on its kind */
};


/* Why a group is part of a decay: its own samples fall (first quarter vs
 * last), it is in a run of small falling steps, or it is a level that runs
 * without a jump into a decay (the decay's flat head). */
enum { DECAY_OWN = 1, DECAY_RUN = 2, DECAY_HEAD = 4 };

struct group {
	size_t first, last;	/* block indices (main blocks, dips between) */
	double level;		/* bytes / time over its main blocks */
	double bytes, dur_s;	/* over its main blocks */
	double s1, s2, cnt;	/* sum, sum of squares, count of its samples */
	double c0;		/* sum of squares about its blocks' means */
	double tau;		/* integrated autocorrelation time of that noise */
	double p90;		/* 90th percentile of its samples */
	double trend;		/* median of its first quarter over its last's */
	double cov;		/* coefficient of variation of its samples */
	int decay;		/* part of a smooth decay: DECAY_* flags */
	int falls;		/* falls by less than a decay (HEAD_TREND), as a
				 * decay does: a decay's start when short */
};


/* Speed (bytes / time) and sample sums of groups [a, e). */
struct span {
	double level, s1, s2, cnt;
	double c0, c0tau;	/* for the pooled autocorrelation time */
};


/* The statistics of stats.c over @tr's scratch, for at most tr->n values:
 * the passes allocate nothing for them. */
static inline double slc__quantile(const struct trace *tr, const double *x, size_t n, double q)
{
	return slc__quantile_ws(x, n, q, tr->ws);
}

static inline double slc__median(const struct trace *tr, const double *x, size_t n)
{
	return slc__quantile_ws(x, n, 0.5, tr->ws);
}

static inline double slc__mad_sigma(const struct trace *tr, const double *x, size_t n)
{
	return slc__mad_sigma_ws(x, n, tr->ws);
}

static inline double slc__diff_sigma(const struct trace *tr, const double *x, size_t n)
{
	return slc__diff_sigma_ws(x, n, tr->ws);
}

/* util.c */
double slc__t_start(const struct trace *tr, size_t i);
double slc__level(const struct trace *tr, size_t i0, size_t i1);
double slc__covered(const struct trace *tr, double a, double b);
double slc__blevel(const struct trace *tr, const struct block *b);
double slc__bdur(const struct trace *tr, const struct block *b);
double slc__reldiff(double a, double b);
void slc__merge_range(struct block *b, size_t *nb, size_t j, size_t k);
double slc__sample_quantile(const struct trace *tr, size_t i0, size_t i1,
			      size_t j0, size_t j1, double q, double *tmp);
double slc__welch_t(const struct trace *tr, const struct block *a, const struct block *c);
double slc__series_tau(const double *x, size_t n, size_t max_lag);
size_t slc__max_lag(const struct trace *tr);
size_t slc__max_lag_in(const struct trace *tr, size_t n);
double slc__mean_of(const double *x, size_t n);
double slc__batch_tau(const double *x, size_t n);
int slc__quarters_on_side(const double *x, size_t n, double mid, int sign);
size_t slc__best_split_in(const double *x, size_t n, size_t lo, size_t hi);
size_t slc__best_split(const double *x, size_t n, size_t min_side);
double slc__split_t(const double *x, size_t n, size_t k, size_t max_lag);
/* The passes that add blocks (splits) take the room of b, @cap blocks, and
 * never go past it: a split without room is not made. */
int slc__split_block(struct block *b, size_t *nb, size_t cap, size_t j, size_t at);
void slc__extend_cache_teeth(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp);
size_t slc__erase_bound_from(struct block *b, size_t *nb, size_t cap, size_t j0, size_t je, size_t at);

/* consolidate.c: a stall between two blocks at one level is at most this
 * many times as long as the two */
#define STALL_SPAN 4.0
/* a burst at this share of the first level's speed may be the cache back
 * (the model decides, by the same share: model.c's REC_FRAC) */
#define REC_FRAC 0.5
#define REC_KEEP REC_FRAC
/* a leading block of up to 2 x MIN_LEAD_SPLIT samples may
 * hold a short cache and the first native samples */
#define MIN_LEAD_SPLIT 8
double slc__dip_prob(const struct trace *tr);
void slc__split_lead(const struct trace *tr, struct block *b, size_t *nb, size_t cap);
int slc__merge_same(const struct trace *tr, struct block *b, size_t *nb);
int slc__merge_transient(const struct trace *tr, struct block *b, size_t *nb,
			   double *tmp);

/* groups.c */
size_t slc__make_groups(const struct trace *tr, struct block *b, size_t nb,
			  struct group *g, double *tmp);
struct span slc__span_of(const struct group *g, size_t a, size_t e);
double slc__span_sse(const struct span *s);
int slc__is_drop(const struct span *before, const struct span *after);
int slc__stays_below(const struct group *g, size_t a, size_t e, double level);

/* onset.c */
size_t slc__erase_onset(const struct group *g, size_t k, size_t ng);
/* slc__refine_onset() and slc__split_small_step() return 0 or -ENOMEM */
int slc__refine_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap,
		      const struct group *g, double *x, double min_onset_bytes);
void slc__refine_decay_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *x,
			     double min_onset_bytes);
int slc__split_small_step(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp,
			  double min_onset_bytes);

/* analyze.c: slc_analyze_ev(), with (@coarse) or without the onset decided
 * on the curve binned to a second */
int slc__analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		 const struct slc_cpd_opts *opts, const struct slc_phase_evidence *ev, int coarse);

/* model.c: the phase model and its parameters (docs/analysis.md) */
#define TEETH_AT_LEVEL 4.0	/* a stretch is still cache while 1 sample in this many runs at its speed */
#define SLC__MODEL_KMAX 3		/* cache tiers at most */
#define SLC__MODEL_MMAX 8		/* groups a noisy cache may be split into */
/* A speed ratio's prior: free inside [lo, hi], a normal tail of @sd in the
 * log ratio outside. */
struct slc__ratio_prior {
	double lo, hi, sd;
};
struct slc__model_params {
	double prior_cache;		/* share of drives with an SLC cache */
	struct slc__ratio_prior cache_native;	/* native / cache speed */
	struct slc__ratio_prior native_erase;	/* erase-bound / native speed */
	struct slc__ratio_prior tier;	/* a tier / the tier before */
	double tier_steady;		/* for a later tier that is steady (native writing is not) */
	double decay_first;		/* against a cache when the curve decays after its first level */
	double ref_sd;			/* ln spread of one drive's level between segments */
	double ref_cap;			/* largest penalty of one mismatched reference */
	double no_native_unknown;	/* against erase-bound from the start, state unknown */
	double trim_onset_caps;		/* after a TRIM, no onset before this share of the flash is used */
	double fresh_caps_max;		/* most capacities a write test writes onto a fresh drive */
	double slc_bits_unknown;	/* bits per cell assumed for the cache limit, cell unknown */
	double spare_max;		/* the most spare flash, as a share of the capacity */
	double buffer_frac, buffer_cost;	/* a "cache" under this share of the capacity: a DRAM buffer */
	double decay_bonus;		/* for an erase-bound reading of a decay */
	double rec_cost;		/* against reading later levels as the cache back */
	double visit_frac, visit_cost;	/* a "cache" this often at the level after it: against */
	double bound_samples;		/* a cache shorter than this many samples is a bound */
};
extern const struct slc__model_params slc__model_defaults;
double slc__min_onset(const struct slc_phase_evidence *ev, double cache_bytes);
/* Most the cache can be: every block of the flash in SLC mode, the spare
 * area included; INFINITY with the capacity unknown. */
double slc__cache_limit(const struct slc_phase_evidence *ev);
/* The drive's counters: readings each side of a knee, and the least step
 * in NAND bytes per host byte that is garbage collection (a tenth more
 * flash writing per host byte; a random erase-bound regime costs 0.3-2). */
#define COUNTER_SIDE_MIN 3
#define COUNTER_WA_STEP 0.1
/* Where the counters look for the onset around the curve's: GC starts
 * before the speed shows it, by a few percent of the bytes at most. */
#define COUNTER_NEAR 0.2
/* The erase-bound onset in curve bytes from the counters read while the
 * curve's bytes were in [@from_bytes, @to_bytes] (NAN: no lasting step),
 * the slopes each side and the NAND bytes the step added after it. */
double slc__counter_onset(const struct trace *tr, const struct slc_phase_evidence *ev, double from_bytes,
			  double to_bytes, double *wa_before, double *wa_after, double *extra_bytes);
/* Returns 1 with a cache, 0 without, -ENOMEM. */
int slc__model_label(const struct trace *tr, struct block *b, struct group *g, size_t ng,
		     const struct slc_phase_evidence *ev, struct slc_model_info *mi,
		     double *group_conf);

/* boundary.c */
void slc__balance(const struct trace *tr, size_t a0, size_t j, size_t b1,
		  double *t_out, double *bytes_out, double *range, double *tmp);

/* summary.c */
int slc__emit_phases(struct slc_phase **out, size_t *n_out,
		       const struct trace *tr, const struct block *b, size_t nb,
		       int keep_all, double *tmp);

#endif
