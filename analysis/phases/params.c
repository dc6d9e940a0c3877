// SPDX-License-Identifier: MIT
/*
 * The phase model's parameters: the defaults, each with where its number
 * comes from, and the table of their names (docs/analysis.md, "Model
 * parameters").  "Tuned" means chosen on the bench/curves tune seeds and
 * checked on the real traces (testdata/, the golden tests); the reviews'
 * figures are those of the methodology (methodology.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "phases_priv.h"

const struct slc_model_params slc__model_defaults = {
	/* ---- segmentation and levels ---- */
	/* Levels closer than this (relative) are one level: smaller than any
	 * phase change that matters (a cache/native ratio of 0.7 is a 30%
	 * step).  Tuned. */
	.delta_same = 0.12,
	/* Neighbours whose means differ by less than this many standard
	 * errors (Welch) are one level whatever their relative difference:
	 * the split was noise (a comb's teeth cluster by chance).  Statistics:
	 * a t of 3. */
	.t_same = 3.0,
	/* A drop below this fraction of the level before it is a stall: real
	 * drives' stalls after the cache run at half speed or less (the real
	 * traces). */
	.stall_frac = 0.5,
	/* A stall between two blocks at one level is at most this many times
	 * as long as the two: a journal flush inside a cache takes seconds; a
	 * slow stretch far longer than the cache around it, then the cache
	 * back, is a dynamic cache's native writing.  Tuned. */
	.stall_span = 4.0,
	/* A drop between two different levels that stays above this fraction
	 * of the slower one is that level's slow start or end, not a
	 * temporary drop: the simulated native speed wanders by 10-20% for
	 * seconds, while real drives' stalls after the cache run at half
	 * speed or less (the real traces). */
	.edge_drop_min = 0.75,
	/* A ramp (rule 2: monotone blocks between a faster and a slower level)
	 * is short against the levels around it: each lasts at least this
	 * many times as long.  Tuned. */
	.ramp_span = 2.0,
	/* A block of at least this many samples whose inner samples are flat
	 * (range under plateau_flat of the steps around it) is a level, not a
	 * ramp.  Tuned. */
	.plateau_min = 4,
	.plateau_flat = 0.25,
	/* Rule 4 texture test: the context is up to texture_context_len drop
	 * lengths (at least texture_context_min samples) each side.  When more
	 * than texture_frac of the context on either side (of at least
	 * texture_side_min samples) lies below the midpoint between the drop
	 * and that side's median, such drops recur: they are the phase's
	 * texture (comb, sawtooth), not an event.  Tuned. */
	.texture_context_len = 10,
	.texture_context_min = 30,
	.texture_frac = 0.10,
	.texture_side_min = 10,
	/* The context ends at a clearly slower block at least a third of its
	 * length (phase_ctx_div: 3): a phase; shorter ones are the comb's
	 * other teeth.  Tuned. */
	.phase_ctx_div = 3,
	/* A drop the dip process or the level's own noise makes at least this
	 * many times in the trace is texture, not a stall (a drive that drops
	 * single samples now and then also drops two in a row).  Statistics:
	 * a 5% level. */
	.coincident_expect = 0.05,
	/* A side's noise is read from at least this many samples: its spread
	 * and correlation time from a few dozen autocorrelated samples come
	 * out low.  Statistics. */
	.noise_side_min = 200,
	/* A leading block of up to twice this many samples may hold a short
	 * cache and the first native samples (the segmentation's minimum
	 * length puts a cache of 2-3 samples into one block with them).
	 * Tuned. */
	.lead_split_min = 8,
	/* ... its head must stand lead_noise_k robust sigmas of the next
	 * block's first lead_noise_max samples above it: a noisy cache's
	 * first samples run high by chance.  Statistics (3 sigma). */
	.lead_noise_max = 64,
	.lead_noise_k = 3.0,

	/* ---- cache tiers, the cache back, short caches ---- */
	/* A cache tier is this much faster than everything after it: the
	 * reviews' fast-native drives reach 0.7 of the cache's speed, so a
	 * cache is a step of 15% or more. */
	.delta_cache = 0.15,
	/* Later cache tiers are as steady as the first (native writes are
	 * not): at most tier_cov_factor times its coefficient of variation, or
	 * under tier_cov_min.  Tuned on the real QLC traces. */
	.tier_cov_factor = 2.0,
	.tier_cov_min = 0.05,
	/* Cache tiers at most; more cache groups are read only as one noisy
	 * level.  The reviews' drives show one to three. */
	.tiers_max = 3,
	/* The levels a noisy cache splits into lie within this factor: a CoV
	 * of 0.3 gives stretches of a few samples up to 50% off the mean
	 * either way, 1.5 / 0.5 = 3 between the fastest and the slowest
	 * (statistics). */
	.merge_span = 3.0,
	/* A stretch is still cache while one sample in this many runs at its
	 * speed (teeth strike a half of the samples and more as a cache folds
	 * while it fills).  Tuned. */
	.teeth_at_level = 4.0,
	/* At the cache's speed: within this many of its robust sigmas.
	 * Statistics (3 sigma). */
	.teeth_k = 3.0,
	/* A level this steady (robust sigma over its median) is a cache's:
	 * SLC writes do not wander (the real traces). */
	.steady_cov = 0.05,
	/* The cache back during a fill (a dynamic cache recovers while the
	 * drive folds): at least rec_frac of the cache's speed (folding may
	 * run beside it) and rec_over_native times the speed of all the
	 * writing after the cache (a dynamic QLC cache's native writing runs
	 * at 0.03-0.3 of its speed in the reviews; a native level's wander, a
	 * sawtooth's teeth rise above it by less than twice).  Also the share
	 * a short burst keeps of the first level's speed to be kept for the
	 * model (consolidation rule 3). */
	.rec_frac = 0.5,
	.rec_over_native = 3.0,
	/* A burst kept for the model to read as the cache back lasts at least
	 * this many samples (fewer are a ramp's or the noise's).  Tuned. */
	.rec_keep_min = 3,
	/* Samples each side of a cache back's edge, beyond the one that
	 * straddles it (a median of at most three: edge_median()); of the
	 * 2 x rec_edge_side + 1 around it, at most rec_edge_between between
	 * the two levels (the straddler and one noisy sample); the edge looked
	 * for within rec_edge_seek samples of the group's end (the
	 * segmentation places a block's end a sample or two off a step).
	 * Tuned. */
	.rec_edge_side = 3,
	.rec_edge_between = 2,
	.rec_edge_seek = 5,
	/* A cache shorter than this many samples is a bound, not a phase:
	 * sampled every second a 0.2 s cache is part of one sample.  Tuned. */
	.bound_samples = 3.0,
	/* A short cache's samples are faster than every one of this many
	 * after them.  Tuned. */
	.short_next = 5,
	/* The coarse curve: garbage collection sets in on a scale of minutes
	 * and gigabytes, an SLC cache lasts seconds to minutes; below a second
	 * the speed wanders (physics of the drives in the real traces).  So a
	 * curve sampled under coarse_s / 2 that spans coarse_min_bins bins is
	 * also read binned to coarse_s. */
	.coarse_s = 1.0,
	.coarse_min_bins = 300,
	/* A coarse cache of at least this many bins decides the cache's end
	 * (a DRAM-less drive writes its cache in bursts); the fine samples
	 * must then be bursts (a CoV of coarse_burst_cov at least), their
	 * speed their coarse_burst_q quantile, the native writing after it its
	 * coarse_native_q quantile.  Tuned on the real DRAM-less traces. */
	.coarse_cache_bins = 10,
	.coarse_burst_cov = 0.5,
	.coarse_burst_q = 0.9,
	.coarse_native_q = 0.95,
	/* The coarse onset stands when the coarse cache is within this many
	 * bins' bytes of the fine one (a second tier the bins blur into the
	 * native level would make the native level its erase-bound one).
	 * Tuned. */
	.coarse_onset_bins = 2.0,

	/* ---- the erase-bound onset and decays ---- */
	/* Erase-bound: this much slower than the first native phase (the
	 * reviews: ADATA SP550 0.74, an MLC decay towards 0.5). */
	.delta_erase = 0.15,
	/* A smaller lasting step (a QLC drive's first foreground GC: 8-11% in
	 * the reviews) is an erase-bound onset only when it is unmistakable:
	 * at least step_small, step_t standard errors (autocorrelation
	 * included), each side at least step_min_len samples and step_min_eff
	 * effectively independent ones.  Tuned. */
	.step_small = 0.05,
	.step_t = 10.0,
	/* A step of at least delta_erase found this way needs step_t_large
	 * standard errors: the split is the best of thousands, so not 3.
	 * Statistics. */
	.step_t_large = 5.0,
	.step_min_len = 100,
	.step_min_eff = 100.0,
	/* An erase-bound phase holds at least this many effectively
	 * independent samples: a few correlation times of a wandering native
	 * speed are no phase.  Tuned. */
	.onset_min_eff = 15.0,
	/* The refined onset's split keeps a tenth of the level before (at
	 * least texture_side_min samples) each side.  Tuned. */
	.onset_side_div = 10,
	/* A decay: at least decay_min_blocks consecutive falling levels, each
	 * at least decay_step_min of the one before, or one level whose first
	 * quarter is decay_trend times its last.  Tuned on the MLC decays of
	 * the real traces. */
	.decay_min_blocks = 3,
	.decay_step_min = 0.75,
	.decay_trend = 1.25,
	/* The level right after the first that runs into a decay is part of
	 * the decay when it falls itself by head_trend, first quarter to last,
	 * and is at most head_dur times as long as the first level (a cache's
	 * direct-to-TLC phase drifting down by 10% and lasting three times the
	 * cache is a level of its own).  Tuned. */
	.head_trend = 1.1,
	.head_dur = 1.5,
	/* Fewest samples for a trend (first vs last quarter) to mean
	 * anything.  Statistics. */
	.trend_min_samples = 40,
	/* The decay's knee: candidates from decay_win lengths before the onset
	 * the labelling found (a length: the erase-bound samples over
	 * decay_win_div, at least decay_win_min); a decay's first quarter is
	 * decay_fall times its last; the 63% point is where the median of
	 * decay_i63_median samples falls under it; at most decay_grid
	 * candidate onsets.  Tuned on the real MLC traces. */
	.decay_win = 2,
	.decay_win_min = 20,
	.decay_win_div = 8,
	.decay_fall = 1.1,
	.decay_i63_median = 5,
	.decay_grid = 256,
	/* Time constants an exponential fit tries: log-spaced from 2 samples
	 * to the fitted stretch's length.  Numerics. */
	.fit_taus = 24,
	/* Autocorrelation of the noise (for the standard error of a level's
	 * mean): lags summed until it falls to rho_cut, at most lag_max, and
	 * at most lag_work / n (not under lag_floor): the sum costs n x lags,
	 * and a million finely sampled smooth samples would take a second at
	 * 1000 lags.  Statistics and cost. */
	.rho_cut = 0.05,
	.lag_max = 1000,
	.lag_work = 1e8,
	.lag_floor = 100,
	/* The drive's counters: readings each side of a knee, and the least
	 * step in NAND bytes per host byte that is garbage collection (a tenth
	 * more flash writing per host byte; a random erase-bound regime costs
	 * 0.3-2, physics); they look for the onset within counter_near of the
	 * curve's bytes (GC starts before the speed shows it, by a few percent
	 * of the bytes at most). */
	.counter_side_min = 3,
	.counter_wa_step = 0.1,
	.counter_near = 0.2,
	/* A reading without an erase-bound phase from within counter_near of
	 * where the counters show garbage collection begin (when the speed's
	 * first reading had no onset) pays this: the counters see it directly,
	 * the speed only once it costs (later, or not at all while a free pool
	 * of mostly invalid blocks is cheap to clean).  The size of the model's
	 * other terms for direct evidence (buffer_cost, visit_cost), not
	 * tuned. */
	.counter_cost = 3.0,

	/* ---- boundaries ---- */
	/* A sample at neither level is between_k sigmas from both (generous:
	 * a straddler left out costs up to a sample of bytes); a ramp's
	 * further samples ramp_k sigmas.  Statistics. */
	.between_k = 2.0,
	.ramp_k = 3.0,
	/* The segmentation may put an edge a sample or two off.  At most 2:
	 * the balance reads that far into a phase of three samples. */
	.balance_seek = 2,
	/* Samples (at most) each side for a boundary's local speeds, and the
	 * balance window's half-width cap.  Tuned. */
	.balance_ref_max = 30,
	.balance_half_max = 10,
	/* The straddler at a cache's end: at least edge_min_a samples of the
	 * cache and edge_min of the slow level (its sample-to-sample scale),
	 * the first slow sample compared with the median of the edge_next
	 * after it.  Tuned. */
	.edge_min_a = 4,
	.edge_min = 8,
	.edge_next = 3,

	/* ---- priors and score terms (natural log) ---- */
	/* Most consumer drives under test have an SLC cache (the reviews). */
	.prior_cache = 0.8,
	/* Speed ratios (the reviews' figures): direct-to-TLC at 0.24-0.44 of
	 * the cache's speed, QLC lower (0.05-0.3), a few fast-native drives
	 * near 0.7, up to the cache's step (1 / (1 + delta_cache)); an
	 * erase-bound level at 0.5-0.9 of the native one (ADATA SP550 0.74, a
	 * QLC drive's first foreground GC 0.9, an MLC decay towards 0.5); a
	 * later cache tier at 0.6-0.9 of the one before (QLC: 5 -> 3.5 GB/s).
	 * The tails' widths are tuned. */
	.cache_native = { 0.0, 1.0 / (1 + 0.15), 0.15 },
	.native_erase = { 0.2, 0.9, 0.25 },
	.tier = { 0.6, 0.9, 0.15 },
	/* A tier is read so down to two of its prior's standard deviations
	 * below its range: it pays the tail there; slower is direct-to-TLC's
	 * ratio.  Tuned. */
	.tier_floor_sd = 2.0,
	/* For a later tier that is steady (native writing is not).  Tuned. */
	.tier_steady = 1.5,
	/* Against a cache when the curve decays right after its first level,
	 * as a drive without cache does (MLC drives in the real traces).
	 * Tuned. */
	.decay_first = 4.0,
	/* One drive's level between segments of a run varies by this much
	 * (ln), and one mismatched reference costs at most ref_cap.  Tuned on
	 * the real traces' bursts. */
	.ref_sd = 0.15,
	.ref_cap = 12.0,
	/* Against erase-bound writing from the start with the drive's state
	 * unknown: it needs a drive written full before.  Tuned. */
	.no_native_unknown = 4.0,
	/* After a TRIM no erase-bound writing before half the flash is in use
	 * (physics: GC needs used blocks), 4 bits per cell assumed when the
	 * cell type is unknown (the weakest bound). */
	.trim_onset_caps = 0.5,
	.onset_bits_unknown = 4.0,
	/* A write test puts at most this many capacities on a drive (SNIA
	 * PTS's write saturation test runs to 4x; the lab's two hours write
	 * 1-3.5x). */
	.fresh_caps_max = 4.0,
	/* The most the cache can be: every block in SLC mode, the spare area
	 * included (at most spare_max of the capacity: 7% on consumer drives,
	 * 28% on enterprise ones), at slc_bits_unknown bits per cell when the
	 * cell type is unknown (physics). */
	.slc_bits_unknown = 2.0,
	.spare_max = 0.28,
	/* A DRAM write buffer holds a few hundred MB at most; an SLC cache is
	 * 1-3% of the capacity on the reviewed drives (2.3 GB of 240 GB,
	 * 54 GB of 2 TB): a "cache" under buffer_frac of it is more likely a
	 * buffer, at buffer_cost.  The cost is tuned.  On a drive of several
	 * TB that share grows past what any buffer holds: a burst is read as
	 * a buffer's only while it is also under buffer_max (a few hundred MB,
	 * with room: the DRAM of a drive holds its mapping table, ~1 GB per
	 * TB, and the writes it has acknowledged but not programmed are what
	 * its power-loss protection, or a drive without any, can afford to
	 * lose; physics, not tuned). */
	.buffer_frac = 0.001,
	.buffer_max = 1e9,
	.buffer_cost = 3.0,
	/* Writing onto erased flash programs each host byte about once (the
	 * 240 GB preset's counters before garbage collection: 1.0001).
	 * The bounds on the cache and the onset count host bytes, so when the
	 * counters show the first level programming more than conflict_wa
	 * NAND bytes for each (a mapping unit larger than the writes: each
	 * 4 KiB write rewrites a 16 or 32 KiB unit), and the evidence rules
	 * out every reading that fits, the explanation says so.  Words only:
	 * no score depends on it. */
	.conflict_wa = 2.0,
	/* For an erase-bound reading of a decay (GC sets in gradually), and
	 * against reading later levels as the cache back.  Tuned. */
	.decay_bonus = 1.0,
	.rec_cost = 1.0,
	/* A "cache" that visits the level after it again and again (this
	 * share of its samples, two visits) is a flat drive with dips (an MLC
	 * drive's GC without cache): visit_cost against it.  Tuned. */
	.visit_frac = 0.05,
	.visit_cost = 3.0,
	/* A drive that slows to the level after its top speed and comes back
	 * while writing goes on (the Samsung 860 PRO's 15 s garbage-collection
	 * dips, fio-plot traces) shows it can; a run that ends no longer after
	 * the drop than such a stretch lasted may have cut the next one off.
	 * As strong as visits again and again (visit_cost); the running median
	 * of 5 samples keeps a lone outlier from being a stretch or a visit. */
	.tail_cost = 3.0,
	.tail_smooth = 5,
	/* A reading the evidence ruled out that fits the curve this much
	 * better (log-likelihood) than every reading left is a conflict: the
	 * evidence may be wrong.  Statistics (odds of e^100). */
	.conflict_ll = 100.0,
	/* Odds under 20 : 1 (the best reading under 95% against the runner-up
	 * alone) are a close call: the answer names the runner-up and the
	 * evidence that would settle it. */
	.settle_odds = 20.0,

	/* ---- SNIA PTS steady state ---- */
	/* The PTS's window: five rounds of 60 s. */
	.steady_round_s = 60.0,
	.steady_rounds = 5,
};

/* Each parameter: its name, where it is, whether it is a count, and the
 * values it may take (a count whole).  The ranges keep the code's indexing
 * safe (rec_edge_side, balance_seek) and the numbers meaningful. */
struct param {
	const char *name;
	size_t off;
	int count;
	double lo, hi;
};

static const struct param params[] = {
	{ "delta_same", offsetof(struct slc_model_params, delta_same), 0, 1e-6, 0.99 },
	{ "t_same", offsetof(struct slc_model_params, t_same), 0, 0, 1e6 },
	{ "stall_frac", offsetof(struct slc_model_params, stall_frac), 0, 0, 1 },
	{ "stall_span", offsetof(struct slc_model_params, stall_span), 0, 0, 1e6 },
	{ "edge_drop_min", offsetof(struct slc_model_params, edge_drop_min), 0, 0, 1 },
	{ "ramp_span", offsetof(struct slc_model_params, ramp_span), 0, 0, 1e6 },
	{ "plateau_min", offsetof(struct slc_model_params, plateau_min), 1, 1, 1e6 },
	{ "plateau_flat", offsetof(struct slc_model_params, plateau_flat), 0, 0, 1e6 },
	{ "texture_context_len", offsetof(struct slc_model_params, texture_context_len), 1, 1, 1e6 },
	{ "texture_context_min", offsetof(struct slc_model_params, texture_context_min), 1, 1, 1e6 },
	{ "texture_frac", offsetof(struct slc_model_params, texture_frac), 0, 0, 1 },
	{ "phase_ctx_div", offsetof(struct slc_model_params, phase_ctx_div), 1, 1, 1e6 },
	{ "texture_side_min", offsetof(struct slc_model_params, texture_side_min), 1, 1, 1e6 },
	{ "coincident_expect", offsetof(struct slc_model_params, coincident_expect), 0, 0, 1e6 },
	{ "noise_side_min", offsetof(struct slc_model_params, noise_side_min), 1, 1, 1e6 },
	{ "lead_split_min", offsetof(struct slc_model_params, lead_split_min), 1, 1, 1e6 },
	{ "lead_noise_max", offsetof(struct slc_model_params, lead_noise_max), 1, 1, 1e6 },
	{ "lead_noise_k", offsetof(struct slc_model_params, lead_noise_k), 0, 0, 1e6 },
	{ "delta_cache", offsetof(struct slc_model_params, delta_cache), 0, 0, 100 },
	{ "tier_cov_factor", offsetof(struct slc_model_params, tier_cov_factor), 0, 0, 1e6 },
	{ "tier_cov_min", offsetof(struct slc_model_params, tier_cov_min), 0, 0, 1e6 },
	{ "tiers_max", offsetof(struct slc_model_params, tiers_max), 1, 1, SLC__MODEL_MMAX },
	{ "merge_span", offsetof(struct slc_model_params, merge_span), 0, 1, 1e6 },
	{ "teeth_at_level", offsetof(struct slc_model_params, teeth_at_level), 0, 1, 1e6 },
	{ "teeth_k", offsetof(struct slc_model_params, teeth_k), 0, 0, 1e6 },
	{ "steady_cov", offsetof(struct slc_model_params, steady_cov), 0, 0, 1e6 },
	{ "rec_frac", offsetof(struct slc_model_params, rec_frac), 0, 0, 1e6 },
	{ "rec_over_native", offsetof(struct slc_model_params, rec_over_native), 0, 0, 1e6 },
	{ "rec_keep_min", offsetof(struct slc_model_params, rec_keep_min), 1, 0, 1e6 },
	{ "rec_edge_side", offsetof(struct slc_model_params, rec_edge_side), 1, 1, 3 },
	{ "rec_edge_between", offsetof(struct slc_model_params, rec_edge_between), 1, 0, 1e6 },
	{ "rec_edge_seek", offsetof(struct slc_model_params, rec_edge_seek), 1, 0, 1e6 },
	{ "bound_samples", offsetof(struct slc_model_params, bound_samples), 0, 0, 1e6 },
	{ "short_next", offsetof(struct slc_model_params, short_next), 1, 1, 1e6 },
	{ "coarse_s", offsetof(struct slc_model_params, coarse_s), 0, 1e-9, 1e9 },
	{ "coarse_min_bins", offsetof(struct slc_model_params, coarse_min_bins), 1, 1, 1e9 },
	{ "coarse_cache_bins", offsetof(struct slc_model_params, coarse_cache_bins), 1, 0, 1e9 },
	{ "coarse_burst_cov", offsetof(struct slc_model_params, coarse_burst_cov), 0, 0, 1e6 },
	{ "coarse_burst_q", offsetof(struct slc_model_params, coarse_burst_q), 0, 0, 1 },
	{ "coarse_native_q", offsetof(struct slc_model_params, coarse_native_q), 0, 0, 1 },
	{ "coarse_onset_bins", offsetof(struct slc_model_params, coarse_onset_bins), 0, 0, 1e9 },
	{ "delta_erase", offsetof(struct slc_model_params, delta_erase), 0, 0, 1 },
	{ "step_small", offsetof(struct slc_model_params, step_small), 0, 0, 1 },
	{ "step_t", offsetof(struct slc_model_params, step_t), 0, 0, 1e6 },
	{ "step_t_large", offsetof(struct slc_model_params, step_t_large), 0, 0, 1e6 },
	{ "step_min_len", offsetof(struct slc_model_params, step_min_len), 1, 2, 1e9 },
	{ "step_min_eff", offsetof(struct slc_model_params, step_min_eff), 0, 0, 1e9 },
	{ "onset_min_eff", offsetof(struct slc_model_params, onset_min_eff), 0, 0, 1e9 },
	{ "onset_side_div", offsetof(struct slc_model_params, onset_side_div), 1, 1, 1e6 },
	{ "decay_min_blocks", offsetof(struct slc_model_params, decay_min_blocks), 1, 1, 1e6 },
	{ "decay_step_min", offsetof(struct slc_model_params, decay_step_min), 0, 0, 1 },
	{ "decay_trend", offsetof(struct slc_model_params, decay_trend), 0, 1, 1e6 },
	{ "head_trend", offsetof(struct slc_model_params, head_trend), 0, 1, 1e6 },
	{ "head_dur", offsetof(struct slc_model_params, head_dur), 0, 0, 1e6 },
	{ "trend_min_samples", offsetof(struct slc_model_params, trend_min_samples), 1, 4, 1e9 },
	{ "decay_win", offsetof(struct slc_model_params, decay_win), 1, 1, 1e6 },
	{ "decay_win_min", offsetof(struct slc_model_params, decay_win_min), 1, 2, 1e6 },
	{ "decay_win_div", offsetof(struct slc_model_params, decay_win_div), 1, 1, 1e6 },
	{ "decay_fall", offsetof(struct slc_model_params, decay_fall), 0, 1, 1e6 },
	{ "decay_i63_median", offsetof(struct slc_model_params, decay_i63_median), 1, 1, 1e6 },
	{ "decay_grid", offsetof(struct slc_model_params, decay_grid), 1, 1, 1e9 },
	{ "fit_taus", offsetof(struct slc_model_params, fit_taus), 1, 2, 1e4 },
	{ "rho_cut", offsetof(struct slc_model_params, rho_cut), 0, -1, 1 },
	{ "lag_max", offsetof(struct slc_model_params, lag_max), 0, 1, 1e9 },
	{ "lag_work", offsetof(struct slc_model_params, lag_work), 0, 1, 1e15 },
	{ "lag_floor", offsetof(struct slc_model_params, lag_floor), 0, 1, 1e9 },
	{ "counter_side_min", offsetof(struct slc_model_params, counter_side_min), 1, 1, 1e6 },
	{ "counter_wa_step", offsetof(struct slc_model_params, counter_wa_step), 0, 0, 1e6 },
	{ "counter_near", offsetof(struct slc_model_params, counter_near), 0, 0, 1 },
	{ "counter_cost", offsetof(struct slc_model_params, counter_cost), 0, -1e6, 1e6 },
	{ "between_k", offsetof(struct slc_model_params, between_k), 0, 0, 1e6 },
	{ "ramp_k", offsetof(struct slc_model_params, ramp_k), 0, 0, 1e6 },
	{ "balance_seek", offsetof(struct slc_model_params, balance_seek), 1, 1, 2 },
	{ "balance_ref_max", offsetof(struct slc_model_params, balance_ref_max), 1, 1, 1e6 },
	{ "balance_half_max", offsetof(struct slc_model_params, balance_half_max), 1, 0, 1e6 },
	{ "edge_min_a", offsetof(struct slc_model_params, edge_min_a), 1, 0, 1e6 },
	{ "edge_min", offsetof(struct slc_model_params, edge_min), 1, 2, 1e6 },
	{ "edge_next", offsetof(struct slc_model_params, edge_next), 1, 1, 1e6 },
	{ "prior_cache", offsetof(struct slc_model_params, prior_cache), 0, 1e-9, 1 - 1e-9 },
	{ "cache_native_lo", offsetof(struct slc_model_params, cache_native.lo), 0, 0, 1e6 },
	{ "cache_native_hi", offsetof(struct slc_model_params, cache_native.hi), 0, 1e-9, 1e6 },
	{ "cache_native_sd", offsetof(struct slc_model_params, cache_native.sd), 0, 1e-9, 1e6 },
	{ "native_erase_lo", offsetof(struct slc_model_params, native_erase.lo), 0, 1e-9, 1e6 },
	{ "native_erase_hi", offsetof(struct slc_model_params, native_erase.hi), 0, 1e-9, 1e6 },
	{ "native_erase_sd", offsetof(struct slc_model_params, native_erase.sd), 0, 1e-9, 1e6 },
	{ "tier_lo", offsetof(struct slc_model_params, tier.lo), 0, 1e-9, 1e6 },
	{ "tier_hi", offsetof(struct slc_model_params, tier.hi), 0, 1e-9, 1e6 },
	{ "tier_sd", offsetof(struct slc_model_params, tier.sd), 0, 1e-9, 1e6 },
	{ "tier_floor_sd", offsetof(struct slc_model_params, tier_floor_sd), 0, 0, 1e6 },
	{ "tier_steady", offsetof(struct slc_model_params, tier_steady), 0, -1e6, 1e6 },
	{ "decay_first", offsetof(struct slc_model_params, decay_first), 0, -1e6, 1e6 },
	{ "ref_sd", offsetof(struct slc_model_params, ref_sd), 0, 1e-9, 1e6 },
	{ "ref_cap", offsetof(struct slc_model_params, ref_cap), 0, 0, 1e6 },
	{ "no_native_unknown", offsetof(struct slc_model_params, no_native_unknown), 0, -1e6, 1e6 },
	{ "trim_onset_caps", offsetof(struct slc_model_params, trim_onset_caps), 0, 1e-9, 1e6 },
	{ "onset_bits_unknown", offsetof(struct slc_model_params, onset_bits_unknown), 0, 1, 4 },
	{ "fresh_caps_max", offsetof(struct slc_model_params, fresh_caps_max), 0, 0, 1e6 },
	{ "slc_bits_unknown", offsetof(struct slc_model_params, slc_bits_unknown), 0, 1, 4 },
	{ "spare_max", offsetof(struct slc_model_params, spare_max), 0, 0, 1e6 },
	{ "buffer_frac", offsetof(struct slc_model_params, buffer_frac), 0, 0, 1 },
	{ "buffer_max", offsetof(struct slc_model_params, buffer_max), 0, 0, 1e18 },
	{ "buffer_cost", offsetof(struct slc_model_params, buffer_cost), 0, -1e6, 1e6 },
	{ "conflict_wa", offsetof(struct slc_model_params, conflict_wa), 0, 1, 1e6 },
	{ "decay_bonus", offsetof(struct slc_model_params, decay_bonus), 0, -1e6, 1e6 },
	{ "rec_cost", offsetof(struct slc_model_params, rec_cost), 0, -1e6, 1e6 },
	{ "visit_frac", offsetof(struct slc_model_params, visit_frac), 0, 0, 1 },
	{ "visit_cost", offsetof(struct slc_model_params, visit_cost), 0, -1e6, 1e6 },
	{ "tail_cost", offsetof(struct slc_model_params, tail_cost), 0, -1e6, 1e6 },
	{ "tail_smooth", offsetof(struct slc_model_params, tail_smooth), 1, 1, 15 },
	{ "conflict_ll", offsetof(struct slc_model_params, conflict_ll), 0, 0, 1e9 },
	{ "settle_odds", offsetof(struct slc_model_params, settle_odds), 0, 1, 1e9 },
	{ "steady_round_s", offsetof(struct slc_model_params, steady_round_s), 0, 1e-9, 1e9 },
	{ "steady_rounds", offsetof(struct slc_model_params, steady_rounds), 1, 2, 1e6 },
};

static const size_t n_params = sizeof(params) / sizeof(params[0]);

void slc_model_params_default(struct slc_model_params *p)
{
	*p = slc__model_defaults;
}

size_t slc_model_params_count(void)
{
	return n_params;
}

static double get(const struct slc_model_params *p, const struct param *d)
{
	const char *at = (const char *)p + d->off;

	return d->count ? (double)*(const size_t *)(const void *)at : *(const double *)(const void *)at;
}

const char *slc_model_param_name(size_t i, const struct slc_model_params *p, double *value)
{
	if (i >= n_params) return NULL;
	if (value) *value = get(p ? p : &slc__model_defaults, params + i);
	return params[i].name;
}

const char *slc_model_param_at(size_t off)
{
	for (size_t i = 0; i < n_params; i++)
		if (params[i].off == off) return params[i].name;
	return "?";
}

int slc_model_params_set(struct slc_model_params *p, const char *name, const char *value, char *err,
			 size_t errlen)
{
	const struct param *d = NULL;
	char *end;
	double v;

	for (size_t i = 0; i < n_params && !d; i++)
		if (!strcmp(params[i].name, name)) d = params + i;
	if (!d) {
		char shown[96];
		size_t n = 0;

		/* a name from a file may be anything: bytes outside printable
		 * ASCII are shown as \xNN, and a long one is cut */
		for (const unsigned char *c = (const unsigned char *)name; *c && n + 5 < sizeof(shown); c++)
			n += (size_t)snprintf(shown + n, sizeof(shown) - n, *c >= 0x20 && *c < 0x7f ? "%c" : "\\x%02x",
					      *c);
		snprintf(err, errlen, "unknown parameter '%s%s'", shown, strlen(name) > n ? "..." : "");
		return -EINVAL;
	}
	errno = 0;
	v = strtod(value, &end);
	while (*end == ' ' || *end == '\t') end++;
	if (end == value || *end || errno == ERANGE || !isfinite(v)) {
		snprintf(err, errlen, "%s: '%s' is not a finite number", name, value);
		return -EINVAL;
	}
	if (d->count && v != floor(v)) {
		snprintf(err, errlen, "%s: '%s' is not a whole number (it counts)", name, value);
		return -EINVAL;
	}
	if (!(v >= d->lo && v <= d->hi)) {
		snprintf(err, errlen, "%s = %g is out of range [%g, %g]", name, v, d->lo, d->hi);
		return -EINVAL;
	}
	if (d->count) *(size_t *)(void *)((char *)p + d->off) = (size_t)v;
	else *(double *)(void *)((char *)p + d->off) = v;
	return 0;
}

/* Values the code reads together: edge_next of the samples edge_min asks for. */
static int consistent(const struct slc_model_params *p, char *err, size_t errlen)
{
	if (p->edge_next > p->edge_min) {
		snprintf(err, errlen, "edge_next (%zu) is more than edge_min (%zu)", p->edge_next, p->edge_min);
		return -EINVAL;
	}
	return 0;
}

/* One line of a parameter file into @p: blank, a comment, or name = value. */
static int load_line(struct slc_model_params *p, char *s, char *err, size_t errlen)
{
	char *eq, *name, *value, *e;

	if ((e = strchr(s, '#'))) *e = 0;
	while (*s == ' ' || *s == '\t') s++;
	for (e = s + strlen(s); e > s && strchr(" \t\r\n", e[-1]); e--) continue;
	*e = 0;
	if (!*s) return 0;
	if (!(eq = strchr(s, '='))) {
		snprintf(err, errlen, "'%s' is not name = value", s);
		return -EINVAL;
	}
	name = s;
	for (e = eq; e > name && (e[-1] == ' ' || e[-1] == '\t'); e--) continue;
	*e = 0;
	for (value = eq + 1; *value == ' ' || *value == '\t'; value++) continue;
	if (!*name || !*value) {
		snprintf(err, errlen, "'%s' is not name = value", s);
		return -EINVAL;
	}
	return slc_model_params_set(p, name, value, err, errlen);
}

/* The largest parameter file read: every parameter with a comment line
 * fits in a few kB. */
enum { PARAMS_FILE_MAX = 1 << 20 };

int slc_model_params_load(struct slc_model_params *p, const char *path, char *err, size_t errlen)
{
	struct slc_model_params q = *p;
	char line[512], why[256];
	unsigned no = 0;
	int rc = 0, fd;
	struct stat st;
	FILE *f;

	/* a regular file of modest size: a FIFO or a device would block or
	 * never end (O_NONBLOCK so that opening a FIFO does not wait) */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > PARAMS_FILE_MAX) {
		snprintf(err, errlen, "%s: %s", path, S_ISDIR(st.st_mode) ? "a directory, not a parameter file" :
			 !S_ISREG(st.st_mode) ? "not a regular file" : "larger than a parameter file can be (1 MiB)");
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		rc = -errno;
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, sizeof(why), "line longer than %zu characters", sizeof(line) - 2);
			rc = -EINVAL;
		} else {
			rc = load_line(&q, line, why, sizeof(why));
		}
		if (rc) snprintf(err, errlen, "%s:%u: %s", path, no, why);
	}
	if (!rc && ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot read it", path);
	}
	fclose(f);
	if (!rc && (rc = consistent(&q, why, sizeof(why)))) snprintf(err, errlen, "%s: %s", path, why);
	if (!rc) *p = q;
	return rc;
}
