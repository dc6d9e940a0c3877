/* SPDX-License-Identifier: MIT */
/*
 * slcscope analysis library (public header).
 *
 * Pure functions over arrays: no globals, no I/O.  Nothing here includes
 * core internals; inputs are plain arrays of samples.
 */
#ifndef SLCSCOPE_ANALYSIS_H
#define SLCSCOPE_ANALYSIS_H

#include <stddef.h>


#ifdef __cplusplus
extern "C" {
#endif

/**
 * slc_quantile() - the q-quantile (0 <= q <= 1) of @n values, linear
 * interpolation between order statistics (type 7, as numpy and R default).
 * @x is not modified.  Returns NAN when @n is 0.
 */
double slc_quantile(const double *x, size_t n, double q);

/** slc_median() - slc_quantile(x, n, 0.5). */
double slc_median(const double *x, size_t n);

/**
 * slc_mad_sigma() - robust noise scale: the median absolute deviation from
 * the median, times 1.4826 so that it estimates the standard deviation of
 * normal data.  Returns NAN when @n is 0.
 */
double slc_mad_sigma(const double *x, size_t n);

/**
 * slc_diff_sigma() - robust noise scale of a series with level shifts: MAD
 * of the first differences divided by sqrt(2), so that steps between phases
 * do not inflate it.  Returns NAN when @n < 2.
 */
double slc_diff_sigma(const double *x, size_t n);

/* ---- change-point segmentation (changepoint.c) ---- */

/** enum slc_penalty - penalty per change point used by slc_changepoints(). */
enum slc_penalty {
	SLC_PENALTY_MBIC = 0,	/* modified BIC (Zhang & Siegmund 2007), default */
	SLC_PENALTY_BIC,	/* 2 log n per change (one mean parameter + location) */
	SLC_PENALTY_AIC,	/* 4 per change */
	SLC_PENALTY_MANUAL,	/* slc_cpd_opts.penalty_value per change */
};

/**
 * struct slc_cpd_opts - options of the change-point search.  Zero fields
 * mean "estimate from the data"; slc_cpd_opts_init() gives the defaults.
 */
struct slc_cpd_opts {
	enum slc_penalty penalty;	/* SLC_PENALTY_MBIC by default */
	double penalty_value;		/* per change, cost units; MANUAL only */
	size_t min_seg_len;		/* samples; 0 = estimate (>= 2) */
	double sigma;			/* noise scale, units of x; 0 = estimate */
	double clip_k;			/* winsorize at clip_k * sigma around a
					   running median; 0 = 3.0 */
};

/**
 * struct slc_cpd_info - what the search estimated and used.
 */
struct slc_cpd_info {
	double sigma;			/* noise scale (units of x) */
	double rho;			/* lag-1 autocorrelation of the noise */
	size_t min_seg_len;		/* samples */
	double penalty;			/* per change, cost units */
	size_t n_changes;		/* change points found */
};

/** slc_cpd_opts_init() - fill @o with the defaults (MBIC, all estimated). */
void slc_cpd_opts_init(struct slc_cpd_opts *o);

/**
 * slc_cpd_opts_set_penalty() - the penalty called @name: "mbic", "bic",
 * "aic", or a positive number (cost units, manual).
 * Return: 0, or -EINVAL for anything else (@o unchanged).
 */
int slc_cpd_opts_set_penalty(struct slc_cpd_opts *o, const char *name);

/**
 * slc_changepoints() - PELT optimal segmentation of @x into segments of
 * constant mean (Killick, Fearnhead & Eckley 2012).
 * @ends:     output, end index (exclusive) of each segment, in order; the
 *            last one is @n.  Caller-allocated.
 * @max_ends: room in @ends; @n is always enough.
 * @n_ends:   output, number of segments written.
 * @info:     output, estimated parameters; may be NULL.
 * @x:        samples (e.g. throughput per interval), not modified.
 * @n:        number of samples.
 * @opts:     options, or NULL for the defaults.
 *
 * The cost is the Gaussian mean-change cost on a winsorized copy of @x
 * (outliers clipped at clip_k * sigma around a running median of 5), scaled
 * by the noise scale sigma estimated from first differences (MAD) and
 * corrected for lag-1 autocorrelation.  Runs in O(n) expected time.
 *
 * Return: 0, -EINVAL on bad arguments (n == 0, non-finite values),
 * -ENOSPC when @max_ends is too small, -ENOMEM.
 */
int slc_changepoints(size_t *ends, size_t max_ends, size_t *n_ends,
		     struct slc_cpd_info *info, const double *x, size_t n,
		     const struct slc_cpd_opts *opts);

/* ---- the phase model's parameters (phases/params.c) ---- */

/* A speed ratio's prior: free inside [lo, hi], a normal tail of @sd in the
 * log ratio outside. */
struct slc_ratio_prior {
	double lo, hi, sd;
};

/**
 * struct slc_model_params - every threshold and prior of the phase model
 * (docs/analysis.md, "Model parameters").  slc_model_params_default()
 * fills it; analysis/phases/params.c says where each default comes from.
 * Counts are size_t, the rest doubles; ratios are of speeds.
 */
struct slc_model_params {
	/* segmentation and levels (consolidation rules 1-4) */
	double delta_same;		/* levels closer than this (relative) are one */
	double t_same;			/* ... or closer than this many standard errors */
	double stall_frac;		/* a drop below this share of the level before is a stall */
	double stall_span;		/* a stall inside one level lasts at most this many times it */
	double edge_drop_min;		/* a drop above this share of the slower level is its slow edge */
	double ramp_span;		/* a ramp: the levels each side this many times as long */
	size_t plateau_min;		/* samples of a short flat level (not a ramp) */
	double plateau_flat;		/* its inner range under this share of the steps around it */
	size_t texture_context_len;	/* texture context: this many drop lengths each side... */
	size_t texture_context_min;	/* ... and at least this many samples */
	double texture_frac;		/* drops recur when more than this share of the context dips */
	size_t phase_ctx_div;		/* a slower block of a context over this many is a phase */
	size_t texture_side_min;	/* fewest samples of a side that says anything */
	double coincident_expect;	/* a drop the noise makes this often in the trace is texture */
	size_t noise_side_min;		/* samples a side's noise is read from, at least */
	size_t lead_split_min;		/* a leading block of up to twice this may hold a short cache */
	size_t lead_noise_max;		/* samples of the next block its noise is read from */
	double lead_noise_k;		/* a leading cache stands this many of those sigmas above it */
	/* cache tiers, the cache back, short caches, the coarse curve */
	double delta_cache;		/* a cache is this much faster than all after it */
	double tier_cov_factor;		/* a later tier is at most this much noisier than the first... */
	double tier_cov_min;		/* ... or under this coefficient of variation */
	size_t tiers_max;		/* cache tiers at most (more groups only as one level) */
	double merge_span;		/* the levels a noisy cache splits into lie within this factor */
	double teeth_at_level;		/* still cache while 1 sample in this many runs at its speed */
	double teeth_k;			/* at the cache's speed: within this many of its sigmas */
	double steady_cov;		/* a level this steady (sigma / median) is a cache's */
	double rec_frac;		/* the cache back: at least this share of the cache's speed... */
	double rec_over_native;		/* ... and this many times the writing after the cache */
	size_t rec_keep_min;		/* a burst of this many samples may be the cache back */
	size_t rec_edge_side;		/* samples each side of its edge (1-3: a median of three) */
	size_t rec_edge_between;	/* of those around the edge, at most this many in between */
	size_t rec_edge_seek;		/* samples from a group's end its edge is looked for */
	double bound_samples;		/* a cache shorter than this many samples is a bound */
	size_t short_next;		/* samples after a short cache it must outrun */
	double coarse_s;		/* the coarse curve's bins (seconds) */
	size_t coarse_min_bins;		/* ... used when the curve spans this many bins */
	size_t coarse_cache_bins;	/* a coarse cache of this many bins decides */
	double coarse_burst_cov;	/* the fine samples of a coarse cache: bursts at this CoV */
	double coarse_burst_q;		/* ... their speed this quantile */
	double coarse_native_q;		/* the native writing after it: this quantile */
	double coarse_onset_bins;	/* caches within this many bins' bytes agree */
	/* the erase-bound onset and decays */
	double delta_erase;		/* erase-bound: this much slower than native */
	double step_small;		/* a smaller lasting step: at least this... */
	double step_t;			/* ... and this many standard errors */
	double step_t_large;		/* a step of delta_erase found so: this many */
	size_t step_min_len;		/* samples each side of such a step */
	double step_min_eff;		/* effectively independent samples each side */
	double onset_min_eff;		/* an erase-bound phase holds this many of them */
	size_t onset_side_div;		/* the onset split's sides: the level before's samples over this */
	size_t decay_min_blocks;	/* a decay: this many falling levels in a row... */
	double decay_step_min;		/* ... each at least this share of the one before */
	double decay_trend;		/* ... or a level whose first quarter is this much faster */
	double head_trend;		/* a decay's head falls this much itself... */
	double head_dur;		/* ... and lasts at most this many times the first level */
	size_t trend_min_samples;	/* fewest samples for a trend */
	size_t decay_win;		/* decay knee: candidates this many lengths before the onset */
	size_t decay_win_min;		/* a length: at least this many samples */
	size_t decay_win_div;		/* ... and the erase-bound samples over this */
	double decay_fall;		/* a decay's first quarter is this much faster than its last */
	size_t decay_i63_median;	/* samples a 63%-fall point's median is read over */
	size_t decay_grid;		/* candidate onsets tried at most */
	size_t fit_taus;		/* time constants an exponential fit tries */
	double rho_cut;			/* autocorrelation summed until it falls to this */
	double lag_max;			/* ... over this many lags at most */
	double lag_work;		/* ... and this many lags x samples at most */
	double lag_floor;		/* ... but at least this many lags */
	size_t counter_side_min;	/* counter readings each side of a knee */
	double counter_wa_step;		/* least step of NAND bytes per host byte that is GC */
	double counter_near;		/* counters looked at within this share of the curve's onset */
	double counter_cost;		/* against a reading without the onset the counters show */
	/* boundaries (the byte balance) */
	double between_k;		/* a straddler is this many sigmas from both levels */
	double ramp_k;			/* a ramp's further samples this many */
	size_t balance_seek;		/* samples the edge may move (1-2) */
	size_t balance_ref_max;		/* samples each side for the local speeds */
	size_t balance_half_max;	/* half-width cap of the balance window */
	size_t edge_min_a;		/* samples of the cache for the straddler's test */
	size_t edge_min;		/* samples of the slow level for it (and its slope) */
	size_t edge_next;		/* samples the slow level's edge speed is the median of */
	/* priors and score terms (log units) */
	double prior_cache;		/* share of drives with an SLC cache */
	struct slc_ratio_prior cache_native;	/* native / cache speed */
	struct slc_ratio_prior native_erase;	/* erase-bound / native speed */
	struct slc_ratio_prior tier;	/* a tier / the tier before (lo: also a short flat level's least) */
	double tier_floor_sd;		/* a tier is at most this many tier.sd under tier.lo */
	double tier_steady;		/* for a later tier that is steady */
	double decay_first;		/* against a cache when the curve decays after its first level */
	double ref_sd;			/* ln spread of one drive's level between segments */
	double ref_cap;			/* largest penalty of one mismatched reference */
	double no_native_unknown;	/* against erase-bound from the start, state unknown */
	double trim_onset_caps;		/* after a TRIM, no onset before this share of the flash is used */
	double onset_bits_unknown;	/* bits per cell for that bound, cell unknown */
	double fresh_caps_max;		/* most capacities a write test writes onto a fresh drive */
	double slc_bits_unknown;	/* bits per cell for the cache limit, cell unknown */
	double spare_max;		/* the most spare flash, as a share of the capacity */
	double buffer_frac;		/* a "cache" under this share of the capacity: a DRAM buffer */
	double buffer_max;		/* ... and under this many bytes, whatever the capacity */
	double buffer_cost;		/* ... against reading it as a cache */
	double conflict_wa;		/* NAND bytes per host byte of the first level that the bounds' host bytes miss */
	double decay_bonus;		/* for an erase-bound reading of a decay */
	double rec_cost;		/* against reading later levels as the cache back */
	double visit_frac;		/* a "cache" this often at the level after it... */
	double visit_cost;		/* ... costs this */
	double tail_cost;		/* a run ending no longer after a drop than a slow stretch the
					 * drive came back from: against the drop as a cache's end */
	size_t tail_smooth;		/* samples of the running median that finds such stretches */
	double conflict_ll;		/* a ruled-out reading this much better: a conflict */
	double settle_odds;		/* a runner-up under these odds is a close call */
	/* SNIA PTS steady state (the search after the phases) */
	double steady_round_s;		/* a round's length (PTS: 60 s) */
	size_t steady_rounds;		/* rounds in the window (PTS: 5) */
};

/** slc_model_params_default() - fill @p with the defaults (the model's tuned values). */
void slc_model_params_default(struct slc_model_params *p);

/**
 * slc_model_params_load() - set the parameters a text file names: one
 * "name = value" a line, '#' starts a comment, blank lines are fine.  Only
 * the fields named change (fill @p with slc_model_params_default() first).
 * Return: 0; -EINVAL (an unknown name, a value that is not a finite number,
 * not whole for a count, or out of the field's range; @p unchanged) or
 * -errno of opening the file, with a one-line reason naming the line in
 * @err.
 */
int slc_model_params_load(struct slc_model_params *p, const char *path, char *err, size_t errlen);

/** slc_model_params_count() - how many named parameters there are. */
size_t slc_model_params_count(void);

/**
 * slc_model_param_name() - the name of parameter @i (< slc_model_params_count()),
 * with its value in @p in *@value when @value is not NULL; NULL past the end.
 */
const char *slc_model_param_name(size_t i, const struct slc_model_params *p, double *value);

/** slc_model_param_at() - the name of the parameter at byte offset @off of
 * the struct (offsetof), or "?" when none is. */
const char *slc_model_param_at(size_t off);

/**
 * slc_model_params_set() - set parameter @name from the text @value.
 * Return: 0, or -EINVAL with a one-line reason in @err (@p unchanged).
 */
int slc_model_params_set(struct slc_model_params *p, const char *name, const char *value, char *err,
			 size_t errlen);

/* ---- phases (phases.c) ---- */

/** enum slc_phase_kind - what a stretch of a write curve is. */
enum slc_phase_kind {
	SLC_PHASE_SLC_CACHE = 0,	/* writes land in SLC-mode flash */
	SLC_PHASE_DIRECT_TO_TLC,	/* native speed, erased blocks left */
	SLC_PHASE_ERASE_BOUND,		/* native speed bound by GC/erase */
	SLC_PHASE_STALL,		/* temporary drop below half speed */
	SLC_PHASE_THROTTLED,		/* temporary milder drop */
};

/** slc_phase_kind_name() - "slc_cache", "direct_to_tlc", ... */
const char *slc_phase_kind_name(enum slc_phase_kind k);

/** struct slc_phase - one phase of a write curve, or one change-point segment. */
struct slc_phase {
	enum slc_phase_kind kind;
	unsigned tier;			/* 1, 2.. for slc_cache phases, else 0 */
	double start_s, end_s;		/* trace time, sub-sample precision */
	double start_bytes, end_bytes;	/* host bytes written at start / end */
	double mean_bps;		/* (end_bytes - start_bytes) / duration */
	double median_bps, p5_bps, p95_bps;	/* over whole samples inside */
	double cov;			/* std / mean of whole samples inside */
	double iops_mean;		/* mean_bps / block size, NAN if unknown */
	double confidence;		/* share of the model's weight on this kind here, 0-1 */
	double end_lo_bytes, end_hi_bytes;	/* where the end may lie (bytes) */
};

/**
 * struct slc_steady_state - SNIA PTS steady-state check.
 */
struct slc_steady_state {
	int reached;			/* 1 when a window meets both criteria */
	double start_s, end_s;		/* the first such window; NAN if none */
	double avg_bps;			/* window average; NAN if none */
	double range_frac;		/* (max - min) / avg of that window */
	double slope_frac;		/* fitted excursion across it / avg */
	double from_bytes;		/* searched from this many bytes written; NAN: not searched */
	int rule;			/* enum slc_steady_rule: where the search began */
};

/* Where the steady-state search of a write curve begins. */
enum slc_steady_rule {
	SLC_STEADY_AFTER_CACHE = 0,	/* the drive was written over before: after the cache */
	SLC_STEADY_AFTER_PRECONDITION,	/* after steady_after_bytes (2x the capacity) */
	SLC_STEADY_AFTER_ONSET,		/* capacity unknown: from the erase-bound onset */
	SLC_STEADY_NOT_SEARCHED,	/* a fresh drive without an onset: not preconditioned */
};

/** enum slc_cell - bits one flash cell stores in native mode. */
enum slc_cell {
	SLC_CELL_UNKNOWN = 0,
	SLC_CELL_SLC = 1,
	SLC_CELL_MLC = 2,
	SLC_CELL_TLC = 3,
	SLC_CELL_QLC = 4,
};

/** slc_cell_name() - "slc", "mlc", "tlc", "qlc" or "unknown". */
const char *slc_cell_name(enum slc_cell c);

/** slc_cell_from_name() - the cell type named @s (case-insensitive); -1 if none. */
int slc_cell_from_name(const char *s);

/**
 * slc_native_name() - the native level's name for a drive of cell type @c:
 * "direct_to_tlc", "direct_to_qlc", "native_mlc", "native_slc", or
 * "native" when the cell type is unknown (the JSON's phases[].label).
 */
const char *slc_native_name(enum slc_cell c);

/** slc_native_words() - the same in words: "direct to TLC", "native (MLC)", "native". */
const char *slc_native_words(enum slc_cell c);

/** slc_phase_label() - @p's name for a drive of cell type @c (its kind's, the
 * native level's by slc_native_name()). */
const char *slc_phase_label(const struct slc_phase *p, enum slc_cell c);

/** enum slc_drive_state - the drive's flash when a write curve begins. */
enum slc_drive_state {
	SLC_STATE_UNKNOWN = 0,		/* not known (an imported log) */
	SLC_STATE_TRIMMED,		/* all of the target trimmed right before */
	SLC_STATE_USED,			/* written over and not trimmed since */
};

/** slc_drive_state_name() - "unknown", "trimmed" or "used". */
const char *slc_drive_state_name(enum slc_drive_state s);

/** slc_drive_state_from_name() - the state named exactly @s; -1 if none. */
int slc_drive_state_from_name(const char *s);

/**
 * struct slc_phase_evidence - what the run knows besides the curve, for
 * the phase model (docs/analysis.md, "The phase model").  Zero it and set
 * what is known; NAN (or 0) means unknown.
 */
struct slc_phase_evidence {
	double capacity_bytes;		/* the target's size; 0 unknown */
	enum slc_cell cell;		/* native cell type */
	enum slc_drive_state state;	/* what the flash is like at the start */
	/* The run's main curve (another segment of the same run): its cache
	 * tier 1, native and erase-bound speeds and its cache size; NAN each
	 * when unknown.  A burst after idle or TRIM is read against these. */
	double ref_cache_bps, ref_native_bps, ref_erase_bps, ref_cache_bytes;
	/* SNIA steady state counts only after this many bytes of the curve
	 * (run --until-steady's rule; 0: twice the capacity when it is known) */
	double steady_after_bytes;
	/* The drive's cumulative host and NAND write counters, read at
	 * segment times @ctr_t_s (ascending); NULL or n_ctr 0 when not read.
	 * A lasting step in NAND bytes per host byte places the erase-bound
	 * onset (docs/analysis.md, "The drive's counters"). */
	const double *ctr_t_s, *ctr_host, *ctr_nand;
	size_t n_ctr;
	/* The phase model's thresholds and priors; NULL: the defaults. */
	const struct slc_model_params *params;
};

/** slc_phase_evidence_init() - nothing known. */
void slc_phase_evidence_init(struct slc_phase_evidence *ev);

/** struct slc_labelling - one reading of a write curve by the phase model. */
struct slc_labelling {
	int valid;			/* 0: there is no such reading */
	unsigned tiers;			/* cache tiers, 0 without a cache */
	int native;			/* 1: it has a native (direct) phase */
	int erase_bound;		/* 1: it has an erase-bound phase */
	double cache_bytes;		/* NAN without a cache */
	double onset_bytes;		/* erase-bound onset; NAN without */
	double log_score;		/* log-likelihood + log prior (natural log) */
	double buffer_bytes;		/* a write buffer's burst at the start (no
					 * phase of its own); 0 when none */
};

#define SLC_EXPLAIN_MAX 3072

/** struct slc_model_info - the model's choice, its runner-up, its reasons. */
struct slc_model_info {
	struct slc_labelling best, runner_up;	/* runner_up.valid 0 if none */
	double odds;			/* best : runner-up likelihood ratio, INFINITY if none */
	double confidence;		/* posterior weight of the best reading, 0-1 */
	int cache_bound;		/* 1: a cache ended inside the first samples: too
					 * short to measure at this interval (no cache
					 * phase; has_cache 0); only bounds */
	unsigned cache_bound_samples;	/* how many samples it lasted at most */
	int cache_bound_stall;		/* 1: a stall right after them, of a kind that
					 * recurs, hides where it ended: at most the
					 * flash in SLC mode (INFINITY, capacity unknown) */
	double cache_min_bytes, cache_max_bytes;	/* the bounds; NAN otherwise */
	enum slc_cell cell;		/* the cell type the labels assume */
	int conflict;			/* 1: the evidence ruled out every reading that fits the curve */
	int no_fit;			/* 1: no reading could be scored; the plain one (no
					 * cache) is shown with confidence 0 */
	int close_call;			/* 1: a runner-up under settle_odds against */
	unsigned settle;		/* SLC_SETTLE_* flags: what would decide between
					 * the best reading and a close runner-up */
	char explain[SLC_EXPLAIN_MAX];	/* the evidence and rules, one line each */
};

/* Evidence that would settle a close call (odds under settle_odds). */
enum {
	SLC_SETTLE_CAPACITY = 1,	/* --capacity: the flash bounds the cache, the onset
					 * comes near one capacity written */
	SLC_SETTLE_STATE = 2,		/* --state: erased or written over before */
	SLC_SETTLE_LONGER_RUN = 4,	/* a longer run: whether a drop near the end lasts */
	SLC_SETTLE_CELL = 8,		/* --cell: bits per cell bound the cache in SLC mode */
};

/**
 * struct slc_trace_in - one write-curve segment as plain arrays.
 * Exactly one of @bytes and @bps must be given.
 */
struct slc_trace_in {
	const double *t_s;		/* end-of-interval time of each sample */
	const double *interval_s;	/* interval lengths; NULL = derive from t_s */
	const double *bytes;		/* bytes written in each interval, or NULL */
	const double *bps;		/* throughput of each interval, or NULL */
	size_t n;			/* number of samples */
	double block_bytes;		/* I/O size for IOPS, 0 when unknown */
};

/**
 * struct slc_analysis - result of slc_analyze().  Free with
 * slc_analysis_free().
 */
struct slc_analysis {
	int has_cache;			/* 0: the curve shows no SLC cache */
	double cache_bytes;		/* host bytes written at cache speed; NAN if none */
	double cache_bps;		/* mean speed of the first cache tier; NAN if none */
	double cache_end_s;		/* NAN if none */
	double erase_bound_start_s;	/* onset of erase_bound; NAN if none */
	double erase_bound_start_bytes;
	struct slc_phase *phases;	/* labelled phases, in time order */
	size_t n_phases;
	struct slc_phase *segments;	/* raw change-point segments (kind unset) */
	size_t n_segments;
	struct slc_steady_state steady;	/* searched from the end of the cache */
	struct slc_cpd_info cpd;	/* parameters of the segmentation */
	struct slc_model_info model;	/* how the phases were chosen */
};

/**
 * slc_analyze() - segment a write curve and label its phases.
 * @out:  result; free with slc_analysis_free() (also after an error).
 * @in:   the samples.
 * @opts: change-point options, or NULL for the defaults.
 *
 * Return: 0, -EINVAL (no samples, neither or both of bytes/bps, times not
 * increasing, non-finite values), -ENOMEM.
 */
int slc_analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		const struct slc_cpd_opts *opts);

/**
 * slc_analyze_ev() - slc_analyze() with what the run knows besides the
 * curve (@ev may be NULL: nothing).  The phase model weighs it against
 * the curve's shape (docs/analysis.md); out->model says which reading won,
 * the runner-up and why.
 */
int slc_analyze_ev(struct slc_analysis *out, const struct slc_trace_in *in,
		   const struct slc_cpd_opts *opts, const struct slc_phase_evidence *ev);

/** slc_analysis_free() - release what slc_analyze() allocated in @a. */
void slc_analysis_free(struct slc_analysis *a);

/* ---- steady state (steady_state.c) ---- */

/**
 * slc_steady_state() - SNIA PTS steady state: the first window of @rounds
 * rounds of @round_s seconds (PTS: 5 x 60 s) where max-min of the round
 * averages is within 20% of the window average and the least-squares line
 * moves by at most 10% of the average across the window.
 * @out:     result.
 * @t_s:     end-of-interval times.
 * @dt_s:    interval lengths.
 * @bps:     throughput of each interval (bytes/s).
 * @n:       samples.
 * @from_s:  search only rounds starting at or after this time.
 * @round_s: round length (60 in the PTS).
 * @rounds:  window length in rounds (5 in the PTS, >= 2).
 *
 * Return: 0 (reached or not is in @out), -EINVAL.
 */
int slc_steady_state(struct slc_steady_state *out, const double *t_s,
		     const double *dt_s, const double *bps, size_t n,
		     double from_s, double round_s, unsigned rounds);

/* ---- recovery (recovery.c) ---- */

/** struct slc_recovery - a burst after idle or TRIM against the fresh run. */
struct slc_recovery {
	double burst_bps;		/* mean speed of the segment's first phase */
	double cache_bytes;		/* cache seen in the segment, 0 if none */
	double cache_frac;		/* cache_bytes / fresh cache; NAN without one or when a bound */
	int at_least;			/* its cache ran out inside the first samples: cache_bytes is a lower bound */
};

/**
 * slc_recovery() - how much of the fresh drive's cache a later trace
 * segment (a burst after an idle wait, or after TRIM) found again.
 * @out:   result.
 * @fresh: analysis of the fresh write curve (the reference).
 * @seg:   analysis of the later segment.
 *
 * Return: 0, -EINVAL (NULL arguments, @seg without phases).
 */
int slc_recovery(struct slc_recovery *out, const struct slc_analysis *fresh,
		 const struct slc_analysis *seg);

/* ---- reads after a large TRIM (trim_response.c) ---- */

/** struct slc_trim_response - how reads fared right after a TRIM. */
struct slc_trim_response {
	double baseline_bps;		/* read speed before the TRIM */
	double stall_s;			/* from the TRIM until the first read completed */
	double slow_s;			/* then, how long reads ran under 90% of the baseline */
	double slow_until_s;		/* trace time reads were back (or the end) */
	double slow_frac;		/* mean speed in that stretch / baseline */
	double min_frac;		/* slowest interval after the stall / baseline */
	double max_latency_us;		/* longest read */
	double max_p99_us;		/* highest per-interval p99 */
	int recovered;			/* 1 when reads came back within the segment */
};

/**
 * slc_trim_response() - stall, slow stretch and latencies of the reads
 * after a TRIM.  Reads are "back" once 5 intervals in a row run at 90% of
 * @baseline_bps or more.
 * @bytes: bytes read in each interval; the latency arrays may be NULL.
 *
 * Return: 0, -EINVAL (no samples, no positive baseline).
 */
int slc_trim_response(struct slc_trim_response *out, const double *t_s, const double *interval_s,
		      const double *bytes, const double *lat_p99_us, const double *lat_max_us, size_t n,
		      double baseline_bps);

/* ---- JSON (phases_json.c) ---- */

/**
 * slc_phases_json() - the "slcscope.phases/1" document (docs/phases-json.md)
 * for @n trace segments; top-level cache and phases describe @seg[0], and
 * each later segment carries its recovery against @seg[0].
 * @out:  output, a NUL-terminated string the caller frees with free().
 * @seg:  analyses, one per trace segment.
 * @n:    number of segments (>= 1).
 *
 * Return: 0, -EINVAL, -ENOMEM.
 */
int slc_phases_json(char **out, const struct slc_analysis *seg, size_t n);

/* ---- drive-side evidence (thermal.c) ---- */

/* What the drive said during a segment: temperature readings and its
 * thermal-management transition count, each with segment times. */
struct slc_thermal_in {
	const double *temp_t_s, *temp_c;	/* readings (no NAN) */
	size_t n_temp;
	double warn_c;			/* warning temperature; NAN unknown */
	const double *tmt_t_s, *tmt;	/* cumulative transition counts */
	size_t n_tmt;
	double interval_s;		/* the sampling interval: least reach of a reading */
};

/**
 * slc_analysis_apply_thermal() - label throttling from the drive's evidence.
 * A dip (stall or throttled) becomes "throttled" when a reading inside it
 * (give or take the gap between readings) is at or over the warning
 * temperature or the transition count rose, and "stall" when the readings
 * show neither.  A slower direct-to-TLC or erase-bound phase that begins as
 * the temperature crosses the warning threshold (or the count rises) becomes
 * "throttled", unless the readings show the drive cool (5 C under the
 * warning) for most of it, and the cache and erase-bound figures are worked
 * out again.
 * Without readings nothing changes.
 *
 * Return: the number of phases relabelled, or -EINVAL.
 */
int slc_analysis_apply_thermal(struct slc_analysis *a, const struct slc_thermal_in *th);

/**
 * slc_write_amplification() - NAND bytes over host bytes between @from_s and
 * @to_s, from cumulative drive counters read at @t_s (linear between
 * readings; a reading reaches @reach_s beyond the first and last).
 *
 * Return: the ratio, or NAN when the counters do not cover the span or no
 * host bytes were counted in it.
 */
double slc_write_amplification(const double *t_s, const double *host, const double *nand, size_t n,
			       double from_s, double to_s, double reach_s);

#ifdef __cplusplus
}
#endif
#endif
