// SPDX-License-Identifier: MIT
/*
 * Internals of the phase analysis, shared by the files of analysis/phases/.
 * From change-point segments to labelled phases (docs/analysis.md).
 *
 * The segmentation finds every statistically credible level change; most
 * are not phase changes.  Segments are first consolidated into blocks by
 * a few rules applied until nothing changes:
 *   1. neighbours within delta_same of each other, or not significantly
 *      different (Welch t < t_same), are one level;
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
 * Every threshold and prior is a field of struct slc_model_params
 * (params.c: the defaults and where each comes from).
 */
#ifndef SLC_PHASES_PRIV_H
#define SLC_PHASES_PRIV_H

#include <stddef.h>

#include "slcscope/analysis.h"
#include "../alloc_hook.h"
#include "../stats_priv.h"

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
	double binned_onset;	/* host bytes where the curve binned to coarse_s
				 * reads an erase-bound onset; NAN: none */
	double binned_cache;	/* ... and its cache (0: none) */
	double binned_bin;	/* ... and the bytes of a bin; 0: not binned */
	size_t lead;		/* the first samples, faster than the rest, a
				 * level of their own for the model (short_lead()
				 * in analyze.c); 0: none */
	double ctr_onset;	/* host bytes where the drive's counters show
				 * garbage collection begin, a level boundary for
				 * the model (counter_read() in analyze.c); 0: none */
	const struct slc_model_params *mp;	/* NULL: the defaults (slc__mp()) */
};

/* params.c: the defaults */
extern const struct slc_model_params slc__model_defaults;

/* The parameters @tr is read with. */
static inline const struct slc_model_params *slc__mp(const struct trace *tr)
{
	return tr && tr->mp ? tr->mp : &slc__model_defaults;
}

/* ... and those evidence @ev asks for. */
static inline const struct slc_model_params *slc__ev_mp(const struct slc_phase_evidence *ev)
{
	return ev && ev->params ? ev->params : &slc__model_defaults;
}

struct block {
	size_t i0, i1;		/* samples [i0, i1) */
	int dip;		/* kept as a temporary drop */
	int kind;		/* enum slc_phase_kind once labelled */
	unsigned tier;
	int group;		/* same level across dips */
	double conf;		/* the model's weight on its kind */
	int step;		/* SLC__STEP_*: it starts at a step the samples
				 * show lasting, a level of its own, not the one
				 * before, however close */
};


/* A step the samples show lasting: a small one in the native writing
 * (slc__mark_small_step()), or the edge after the first samples when they
 * are faster than the rest (short_lead() in analyze.c); or where the
 * drive's counters show garbage collection begin (counter_read() in
 * analyze.c), a boundary whether the speed steps there or not. */
enum { SLC__STEP_SMALL = 1, SLC__STEP_LEAD = 2, SLC__STEP_COUNTER = 3 };

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
	int falls;		/* falls by less than a decay (head_trend), as a
				 * decay does: a decay's start when short */
	int step;		/* its first block's SLC__STEP_* */
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

/* analyze.c: the trace of @in (every array allocated; -EINVAL on bad
 * samples, -ENOMEM), and freeing it (also a partly loaded one) */
int slc__load_trace(struct trace *tr, const struct slc_trace_in *in);
void slc__free_trace(struct trace *tr);

/* util.c */
double slc__t_start(const struct trace *tr, size_t i);
double slc__level(const struct trace *tr, size_t i0, size_t i1);
double slc__covered(const struct trace *tr, double a, double b);
double slc__blevel(const struct trace *tr, const struct block *b);
double slc__bdur(const struct trace *tr, const struct block *b);
double slc__reldiff(double a, double b);
const char *slc__fmt_si(char *s, size_t n, double x, const char *unit, int digits);
void slc__merge_range(struct block *b, size_t *nb, size_t j, size_t k);
double slc__sample_quantile(const struct trace *tr, size_t i0, size_t i1,
			      size_t j0, size_t j1, double q, double *tmp);
double slc__welch_t(const struct trace *tr, const struct block *a, const struct block *c);
double slc__series_tau(const struct slc_model_params *mp, const double *x, size_t n, size_t max_lag);
size_t slc__max_lag(const struct trace *tr);
size_t slc__max_lag_in(const struct trace *tr, size_t n);
double slc__mean_of(const double *x, size_t n);
double slc__batch_tau(const double *x, size_t n);
int slc__quarters_on_side(const double *x, size_t n, double mid, int sign);
size_t slc__best_split_in(const double *x, size_t n, size_t lo, size_t hi);
size_t slc__best_split(const double *x, size_t n, size_t min_side);
double slc__split_t(const struct slc_model_params *mp, const double *x, size_t n, size_t k, size_t max_lag);
/* The passes that add blocks (splits) take the room of b, @cap blocks, and
 * never go past it: a split without room is not made. */
int slc__split_block(struct block *b, size_t *nb, size_t cap, size_t j, size_t at);
/* The level from sample @at on (searched from block @j0) marked a step of
 * @kind (SLC__STEP_*): the block holding @at split there, or, when a drop
 * holds it, the level after the drop.  Returns the marked block, or *@nb
 * (none after @at, or no room to split). */
size_t slc__mark_step(struct block *b, size_t *nb, size_t cap, size_t j0, size_t at, int kind);
void slc__extend_cache_teeth(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp);
/* The sample where the cache's teeth end (0: none; @jc, may be NULL, gets
 * the cache's last block), the blocks unchanged. */
size_t slc__cache_teeth_end(const struct trace *tr, const struct block *b, size_t nb, double *tmp, size_t *jc);
size_t slc__erase_bound_from(struct block *b, size_t *nb, size_t cap, size_t j0, size_t je, size_t at);

/* consolidate.c */
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
int slc__is_drop(const struct slc_model_params *mp, const struct span *before, const struct span *after);
int slc__stays_below(const struct slc_model_params *mp, const struct group *g, size_t a, size_t e, double level);

/* onset.c */
size_t slc__erase_onset(const struct slc_model_params *mp, const struct group *g, size_t k, size_t ng);
/* slc__refine_onset() and slc__mark_small_step() return 0 or -ENOMEM */
int slc__refine_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap,
		      const struct group *g, double *x, double min_onset_bytes);
void slc__refine_decay_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *x,
			     double min_onset_bytes);
int slc__mark_small_step(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double *tmp,
			 size_t from, double min_onset_bytes, size_t *at, double *fall);

/* analyze.c: slc_analyze_ev(), with (@coarse) or without the onset decided
 * on the curve binned to a second */
int slc__analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		 const struct slc_cpd_opts *opts, const struct slc_phase_evidence *ev, int coarse);

/* model.c: the phase model (docs/analysis.md) */
/* Groups a noisy cache may be split into: it sizes the model's arrays of
 * candidates, so it is no parameter (tiers_max is at most this). */
enum { SLC__MODEL_MMAX = 8 };
/* Bytes of the reasons the list of readings ruled out leaves free: for
 * the conflict note, the levels read again and the passes after the
 * model, which state what each did to its reading (analyze.c); six lines
 * or so. */
enum { SLC__PLACE_ROOM = 1000 };
double slc__min_onset(const struct slc_phase_evidence *ev, double cache_bytes);
/* Most the cache can be: every block of the flash in SLC mode, the spare
 * area included; INFINITY with the capacity unknown. */
double slc__cache_limit(const struct slc_phase_evidence *ev);
/* The most a DRAM write buffer's burst can hold on this drive (buffer_frac
 * of the capacity, at most buffer_max); 0 with the capacity unknown. */
double slc__buffer_limit(const struct slc_phase_evidence *ev);
/* The erase-bound onset in curve bytes from the counters read while the
 * curve's bytes were in [@from_bytes, @to_bytes] (NAN: no lasting step),
 * the slopes each side and the NAND bytes the step added after it. */
double slc__counter_onset(const struct trace *tr, const struct slc_phase_evidence *ev, double from_bytes,
			  double to_bytes, double *wa_before, double *wa_after, double *extra_bytes);
/* The reading @l in words, as the reasons give it ("a cache of 7.03 GB in
 * 1 tier, then native", "no cache, native, erase-bound from 12 GB"). */
const char *slc__reading_words(char *w, size_t n, const struct slc_labelling *l);

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
