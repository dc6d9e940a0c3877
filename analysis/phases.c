// SPDX-License-Identifier: MIT
/*
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
 *      texture), otherwise kept as a stall / throttled.
 * Blocks are then labelled (cache tiers, direct-to-TLC, erase-bound; a
 * lasting drop is judged with the noise's autocorrelation time) and every
 * boundary is placed to sub-sample precision by a byte balance.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"

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

struct trace {
	size_t n;
	const double *t;	/* end of each interval */
	double *dt;		/* interval lengths */
	double *v;		/* bytes per second */
	double *cum;		/* bytes written before sample i; n + 1 entries */
	double *sv, *sv2;	/* prefix sums of v and v^2; n + 1 entries */
	double block_bytes;
};

struct block {
	size_t i0, i1;		/* samples [i0, i1) */
	int dip;		/* kept as a temporary drop */
	int kind;		/* enum slc_phase_kind once labelled */
	unsigned tier;
	int group;		/* same level across dips */
};

const char *slc_phase_kind_name(enum slc_phase_kind k)
{
	switch (k) {
	case SLC_PHASE_SLC_CACHE: return "slc_cache";
	case SLC_PHASE_DIRECT_TO_TLC: return "direct_to_tlc";
	case SLC_PHASE_ERASE_BOUND: return "erase_bound";
	case SLC_PHASE_STALL: return "stall";
	case SLC_PHASE_THROTTLED: return "throttled";
	}
	return "unknown";
}

static double t_start(const struct trace *tr, size_t i)
{
	return tr->t[i] - tr->dt[i];
}

/* Mean speed (bytes / time) of samples [i0, i1). */
static double level(const struct trace *tr, size_t i0, size_t i1)
{
	double dur = tr->t[i1 - 1] - t_start(tr, i0);

	return dur > 0 ? (tr->cum[i1] - tr->cum[i0]) / dur : tr->v[i0];
}

static double blevel(const struct trace *tr, const struct block *b)
{
	return level(tr, b->i0, b->i1);
}

static double bdur(const struct trace *tr, const struct block *b)
{
	return tr->t[b->i1 - 1] - t_start(tr, b->i0);
}

static double reldiff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));

	return m > 0 ? fabs(a - b) / m : 0;
}

/* Merge blocks [j, k] into block j. */
static void merge_range(struct block *b, size_t *nb, size_t j, size_t k)
{
	b[j].i1 = b[k].i1;
	memmove(b + j + 1, b + k + 1, (*nb - k - 1) * sizeof(*b));
	*nb -= k - j;
}

static double sample_quantile(const struct trace *tr, size_t i0, size_t i1,
			      size_t j0, size_t j1, double q, double *tmp)
{
	size_t m = 0;

	for (size_t i = i0; i < i1; i++) tmp[m++] = tr->v[i];
	for (size_t i = j0; i < j1; i++) tmp[m++] = tr->v[i];
	return slc_quantile(tmp, m, q);
}

/* Welch t statistic between the sample means of two blocks. */
static double welch_t(const struct trace *tr, const struct block *a, const struct block *c)
{
	double na = (double)(a->i1 - a->i0), nc = (double)(c->i1 - c->i0);
	double ma, mc, va, vc, se;

	if (na < 2 || nc < 2) return INFINITY;
	ma = (tr->sv[a->i1] - tr->sv[a->i0]) / na;
	mc = (tr->sv[c->i1] - tr->sv[c->i0]) / nc;
	va = ((tr->sv2[a->i1] - tr->sv2[a->i0]) - na * ma * ma) / (na - 1);
	vc = ((tr->sv2[c->i1] - tr->sv2[c->i0]) - nc * mc * mc) / (nc - 1);
	se = sqrt(fmax(va, 0) / na + fmax(vc, 0) / nc);
	return se > 0 ? fabs(ma - mc) / se : INFINITY;
}

/*
 * Do drops to level lm recur in samples [i0, i1), one side of a drop?
 * Each side is judged alone: a drop between a cache and a comb phase is
 * texture of the comb even though the cache never drops.
 */
static int recurs(const struct trace *tr, size_t i0, size_t i1, double lm, double *tmp)
{
	size_t k = 0;
	double mid;

	if (i1 - i0 < TEXTURE_SIDE_MIN) return 0;
	mid = 0.5 * (sample_quantile(tr, i0, i1, 0, 0, 0.5, tmp) + lm);
	for (size_t i = i0; i < i1; i++) k += tr->v[i] < mid;
	return (double)k > TEXTURE_FRAC * (double)(i1 - i0);
}

/*
 * Does block x end the context of a drop at level lm?  Only a clearly
 * slower stretch that is long on the context's scale (a phase): short
 * slower blocks are the comb's other teeth.
 */
static int slower_phase(const struct trace *tr, const struct block *x, double lm, size_t ctx)
{
	return blevel(tr, x) < (1 - DELTA_SAME) * lm && 3 * (x->i1 - x->i0) >= ctx;
}

/* Is block x at level lv, or as deep as a drop to lm (a quarter of the way up)? */
static int same_or_tooth(const struct trace *tr, const struct block *x, double lv, double lm)
{
	double lx = blevel(tr, x);

	return reldiff(lx, lv) < DELTA_SAME || lx < lm + 0.25 * (lv - lm);
}

/*
 * Is block m, between a faster level la and a slower lc, a short level of
 * its own rather than a ramp?  It is flat (its inner samples, the first and
 * last left out as they may straddle, span under PLATEAU_FLAT of the smaller
 * step to either side) and would be a later cache tier of la (as steady,
 * at least TIER_RATIO_MIN of it, closer to it than to lc, clearly faster than
 * lc): the end of a cache written at the SLC's speed once a write buffer
 * has filled (the link being faster).  A ramp's blocks slope.
 */
static int plateau(const struct trace *tr, const struct block *m, double la, double lc)
{
	double lm = blevel(tr, m), lo = INFINITY, hi = -INFINITY;

	if (m->i1 - m->i0 < PLATEAU_MIN) return 0;
	if (lm < TIER_RATIO_MIN * la || lm - lc <= la - lm || lm <= (1 + DELTA_CACHE) * lc)
		return 0;
	for (size_t i = m->i0 + 1; i + 1 < m->i1; i++) {
		lo = fmin(lo, tr->v[i]);
		hi = fmax(hi, tr->v[i]);
	}
	return hi - lo < PLATEAU_FLAT * fmin(la - lm, lm - lc);
}

/* Rule 1: merge the closest adjacent pair of levels that are not distinct. */
static int merge_same(const struct trace *tr, struct block *b, size_t *nb)
{
	size_t best = 0;
	double bd = INFINITY;

	for (size_t j = 0; j + 1 < *nb; j++) {
		double d;
		if (b[j].dip || b[j + 1].dip) continue;
		d = reldiff(blevel(tr, b + j), blevel(tr, b + j + 1));
		if (d >= DELTA_SAME && welch_t(tr, b + j, b + j + 1) >= T_SAME) continue;
		if (d < bd) {
			bd = d;
			best = j;
		}
	}
	if (bd == INFINITY) return 0;
	merge_range(b, nb, best, best + 1);
	return 1;
}

/* Rules 2-4 on the first interior block they apply to. */
static int merge_transient(const struct trace *tr, struct block *b, size_t *nb,
			   double *tmp)
{
	for (size_t j = 1; j + 1 < *nb; j++) {
		struct block *a = b + j - 1, *m = b + j, *c = b + j + 1;
		double la, lm, lc, dm, da, dc;

		if (a->dip || m->dip || c->dip) continue;
		la = blevel(tr, a);
		lm = blevel(tr, m);
		lc = blevel(tr, c);
		dm = bdur(tr, m);
		da = bdur(tr, a);
		dc = bdur(tr, c);
		if ((la > lm && lm > lc) || (la < lm && lm < lc)) {
			/* rule 2: a ramp (one or more monotone blocks)
			 * between two longer levels */
			size_t k = j, s;
			double run = dm, lk;
			int down = la > lm;

			while (k + 2 < *nb && !b[k + 2].dip &&
			       2 * (run + bdur(tr, b + k + 1)) < da &&
			       (down ? blevel(tr, b + k + 2) < blevel(tr, b + k + 1)
				     : blevel(tr, b + k + 2) > blevel(tr, b + k + 1))) {
				k++;
				run += bdur(tr, b + k);
			}
			c = b + k + 1;
			lc = blevel(tr, c);
			if (2 * run >= fmin(da, bdur(tr, c))) continue;
			if (k == j && down && plateau(tr, m, la, lc)) continue;
			/* blocks closer to a's level join a, the rest join c */
			for (s = j; s <= k; s++) {
				lk = blevel(tr, b + s);
				if (fabs(lk - la) > fabs(lk - lc)) break;
			}
			if (s <= k) merge_range(b, nb, s, k + 1);
			if (s > j) merge_range(b, nb, j - 1, s - 1);
			return 1;
		}
		if (lm > la && lm > lc) {
			/* rule 3: a short burst */
			if (dm > fmin(da, dc)) continue;
			if (reldiff(la, lc) < DELTA_SAME) merge_range(b, nb, j - 1, j + 1);
			else if (la - lm >= lc - lm) merge_range(b, nb, j - 1, j);
			else merge_range(b, nb, j, j + 1);
			return 1;
		}
		if (lm < (1 - DELTA_SAME) * fmin(la, lc) &&
		    (dm <= dc || (reldiff(la, lc) < DELTA_SAME &&
				  lm < STALL_FRAC * fmin(la, lc)))) {
			/* rule 4: a temporary drop */
			if (reldiff(la, lc) >= DELTA_SAME && lm >= EDGE_DROP_MIN * fmin(la, lc)) {
				/* between two levels, a shallow drop returns to
				 * neither: the slow start (or end) of the lower
				 * one, as a wander of the native speed right after
				 * a cache; a deeper one (a drive's stall after
				 * its cache, at half speed) stays a drop */
				if (lc < la) merge_range(b, nb, j, j + 1);
				else merge_range(b, nb, j - 1, j);
				return 1;
			}
			/* context: a few times the drop's length each side */
			size_t ctx = TEXTURE_CONTEXT_LEN * (m->i1 - m->i0), lo, hi;
			if (ctx < TEXTURE_CONTEXT_MIN) ctx = TEXTURE_CONTEXT_MIN;
			size_t l = j, r = j;

			/* a drop inside one level (the same on both sides, as
			 * a stall inside the cache) recurs only if other drops
			 * do within that level: its context ends where the
			 * level does */
			int inside = reldiff(la, lc) < DELTA_SAME &&
				     lm < STALL_FRAC * fmin(la, lc);

			while (l > 0 && !slower_phase(tr, b + l - 1, lm, ctx) &&
			       m->i0 - b[l - 1].i1 < ctx &&
			       (!inside || same_or_tooth(tr, b + l - 1, la, lm)))
				l--;
			while (r + 1 < *nb && !slower_phase(tr, b + r + 1, lm, ctx) &&
			       b[r + 1].i0 - m->i1 < ctx &&
			       (!inside || same_or_tooth(tr, b + r + 1, lc, lm)))
				r++;
			lo = m->i0 - b[l].i0 > ctx ? m->i0 - ctx : b[l].i0;
			hi = b[r].i1 - m->i1 > ctx ? m->i1 + ctx : b[r].i1;
			if (!recurs(tr, lo, m->i0, lm, tmp) && !recurs(tr, m->i1, hi, lm, tmp)) {
				m->dip = 1;
				m->kind = lm < STALL_FRAC * la ?
					  SLC_PHASE_STALL : SLC_PHASE_THROTTLED;
				return 1;
			}
			if (reldiff(la, lc) < DELTA_SAME) merge_range(b, nb, j - 1, j + 1);
			else if (la - lm <= lc - lm) merge_range(b, nb, j - 1, j);
			else merge_range(b, nb, j, j + 1);
			return 1;
		}
	}
	return 0;
}

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
};

static void group_stats(const struct trace *tr, const struct block *b,
			struct group *g, double *tmp)
{
	double bytes = 0, dur = 0, med, first, last;
	size_t m = 0, q;

	for (size_t j = g->first; j <= g->last; j++) {
		if (b[j].dip) continue;
		bytes += tr->cum[b[j].i1] - tr->cum[b[j].i0];
		dur += bdur(tr, b + j);
		for (size_t i = b[j].i0; i < b[j].i1; i++) tmp[m++] = tr->v[i];
	}
	g->level = dur > 0 ? bytes / dur : 0;
	g->bytes = bytes;
	g->dur_s = dur;
	g->s1 = g->s2 = 0;
	g->cnt = (double)m;
	for (size_t i = 0; i < m; i++) {
		g->s1 += tmp[i];
		g->s2 += tmp[i] * tmp[i];
	}
	g->cov = 0;
	g->decay = 0;
	g->trend = 1;
	g->p90 = m ? slc_quantile(tmp, m, 0.9) : 0;
	if (m < 2) return;
	/* trend: medians of the first and the last quarter, in time order */
	q = m / 4 ? m / 4 : 1;
	first = slc_median(tmp, q);
	last = slc_median(tmp + m - q, q);
	g->trend = last > 0 ? first / last : 1;
	if (m >= TREND_MIN_SAMPLES && first > DECAY_TREND * last) g->decay = DECAY_OWN;
	/* robust coefficient of variation: outliers do not make a cache noisy */
	med = slc_median(tmp, m);
	g->cov = med > 0 ? slc_mad_sigma(tmp, m) / med : 0;
}

/*
 * Variance inflation of the mean of a group's samples: the integrated
 * autocorrelation time 1 + 2 sum_k rho_k, with rho_k the lag-k
 * autocorrelation of the samples about their block's mean, pooled over the
 * group's main blocks (so that level changes do not count), summed up to
 * the first lag where it falls to RHO_CUT (at most @max_lag).  Unlike the
 * segmentation's AR(1) rho it is neither clamped nor shared between phases:
 * a slow wander of the native speed (Ornstein-Uhlenbeck, a correlation
 * time of seconds, sampled every 20-100 ms) inflates the variance of a mean
 * twentyfold and more, and its stretches of ten seconds above or below the
 * mean are not lasting drops, while erase-bound GC may alternate sample to
 * sample.
 */
static double group_tau(const struct trace *tr, const struct block *b, struct group *g,
			size_t max_lag)
{
	double c0 = 0, tau = 1;

	for (size_t j = g->first; j <= g->last; j++) {
		double m = (tr->sv[b[j].i1] - tr->sv[b[j].i0]) / (double)(b[j].i1 - b[j].i0);

		if (b[j].dip) continue;
		for (size_t i = b[j].i0; i < b[j].i1; i++) c0 += (tr->v[i] - m) * (tr->v[i] - m);
	}
	g->c0 = c0;
	if (!(c0 > 0)) return 1;
	for (size_t k = 1; k <= max_lag; k++) {
		double ck = 0;

		for (size_t j = g->first; j <= g->last; j++) {
			double m = (tr->sv[b[j].i1] - tr->sv[b[j].i0]) / (double)(b[j].i1 - b[j].i0);

			if (b[j].dip) continue;
			for (size_t i = b[j].i0; i + k < b[j].i1; i++)
				ck += (tr->v[i] - m) * (tr->v[i + k] - m);
		}
		if (ck / c0 <= RHO_CUT) break;
		tau += 2 * ck / c0;
	}
	return tau;
}

/*
 * Groups: main blocks at one level, separated only by temporary drops.
 * Returns the number of groups written to g (room for nb).
 */
static size_t make_groups(const struct trace *tr, struct block *b, size_t nb,
			  struct group *g, double *tmp)
{
	size_t ng = 0, max_lag;

	for (size_t j = 0; j < nb; j++) {
		if (b[j].dip) continue;
		if (ng > 0) {
			struct group *p = g + ng - 1;
			if (reldiff(p->level, blevel(tr, b + j)) < DELTA_SAME) {
				p->last = j;
				b[j].group = (int)(ng - 1);
				group_stats(tr, b, p, tmp);
				continue;
			}
		}
		g[ng].first = g[ng].last = j;
		b[j].group = (int)ng;
		group_stats(tr, b, g + ng, tmp);
		ng++;
	}
	/* smooth decays: runs of falling levels in small steps */
	for (size_t k = 0; k < ng;) {
		size_t e = k;
		while (e + 1 < ng && g[e + 1].level < g[e].level &&
		       g[e + 1].level >= DECAY_STEP_MIN * g[e].level)
			e++;
		/* the head of the run is the level the decay starts from */
		if (e - k + 1 >= DECAY_MIN_BLOCKS)
			for (size_t q = k + 1; q <= e; q++) g[q].decay |= DECAY_RUN;
		k = e + 1;
	}
	/* a level that runs without a jump into a decay is its beginning */
	for (size_t q = ng - 1; q-- > 1;) {
		const struct block *x = b + g[q].last, *y = b + g[q + 1].first;
		size_t lx = x->i1 - x->i0 < BALANCE_REF_MAX ? x->i1 - x->i0 : BALANCE_REF_MAX;
		size_t ly = y->i1 - y->i0 < BALANCE_REF_MAX ? y->i1 - y->i0 : BALANCE_REF_MAX;

		if (!g[q + 1].decay || g[q].decay || y != x + 1 ||
		    g[q].level < (1 - DELTA_SAME) * g[q + 1].level)
			continue;
		if (reldiff(sample_quantile(tr, x->i1 - lx, x->i1, 0, 0, 0.5, tmp),
			    sample_quantile(tr, y->i0, y->i0 + ly, 0, 0, 0.5, tmp)) < DELTA_SAME)
			g[q].decay = DECAY_HEAD;
	}
	max_lag = (size_t)fmax(LAG_FLOOR, fmin(LAG_MAX, LAG_WORK / (double)tr->n));
	for (size_t q = 0; q < ng; q++) g[q].tau = group_tau(tr, b, g + q, max_lag);
	return ng;
}

/* Speed (bytes / time) and sample sums of groups [a, e). */
struct span {
	double level, s1, s2, cnt;
	double c0, c0tau;	/* for the pooled autocorrelation time */
};

static struct span span_of(const struct group *g, size_t a, size_t e)
{
	struct span r = { 0, 0, 0, 0, 0, 0 };
	double bytes = 0, dur = 0;

	for (size_t q = a; q < e; q++) {
		bytes += g[q].bytes;
		dur += g[q].dur_s;
		r.s1 += g[q].s1;
		r.s2 += g[q].s2;
		r.cnt += g[q].cnt;
		r.c0 += g[q].c0;
		r.c0tau += g[q].c0 * g[q].tau;
	}
	r.level = dur > 0 ? bytes / dur : 0;
	return r;
}

static double span_sse(const struct span *s)
{
	return s->cnt > 0 ? s->s2 - s->s1 * s->s1 / s->cnt : 0;
}

/*
 * A lasting drop: clearly slower, and significant against the spread.  The
 * standard error is inflated by the noise's autocorrelation time, pooled
 * over both sides (weighted by their sums of squares): under the null
 * hypothesis both are one level with one noise process, and a short side's
 * own estimate is biased low (its mean absorbs part of a slow wander).
 */
static int is_drop(const struct span *before, const struct span *after)
{
	double mb, ma, vb, va, se, tau;

	if (!(after->level < (1 - DELTA_ERASE) * before->level)) return 0;
	if (before->cnt < 2 || after->cnt < 2) return 1;
	mb = before->s1 / before->cnt;
	ma = after->s1 / after->cnt;
	vb = span_sse(before) / (before->cnt - 1);
	va = span_sse(after) / (after->cnt - 1);
	tau = before->c0 + after->c0 > 0 ?
	      (before->c0tau + after->c0tau) / (before->c0 + after->c0) : 1;
	/* what follows needs some independent evidence: a few correlation
	 * times of a wandering native speed are no phase.  Its length is
	 * judged by the correlation time of the level before it: the
	 * residuals of what follows about its blocks' means may be a trend
	 * (a decay, a slow fall of the erase-bound speed), not noise. */
	if (after->cnt / (before->c0 > 0 ? before->c0tau / before->c0 : 1) < ONSET_MIN_EFF)
		return 0;
	se = sqrt(tau * (fmax(vb, 0) / before->cnt + fmax(va, 0) / after->cnt));
	return se <= 0 || (mb - ma) / se >= T_SAME;
}

/*
 * Do groups [a, e) all stay below @level (the speed never comes back)?
 * Groups of a few samples (a run's last, partial interval) do not count.
 */
static int stays_below(const struct group *g, size_t a, size_t e, double level)
{
	for (size_t q = a; q < e; q++)
		if (g[q].level >= level && g[q].cnt >= TEXTURE_SIDE_MIN) return 0;
	return 1;
}

/*
 * First erase-bound group among the native groups [k, ng), or ng.  A decay
 * starts it when everything from there on is a lasting drop.  Otherwise
 * the native groups are split in two where a two-level fit is best; a
 * lasting drop there is an onset, and the part before is searched again
 * for an earlier one (direct-to-TLC, erase-bound, then slower still).
 */
static size_t erase_onset(const struct group *g, size_t k, size_t ng)
{
	size_t onset = ng, end = ng;

	for (size_t q = k + 1; q < ng; q++) {
		struct span before = span_of(g, k, q), after = span_of(g, q, ng);
		if (g[q].decay && is_drop(&before, &after) &&
		    stays_below(g, q, ng, before.level)) {
			onset = end = q;
			break;
		}
	}
	while (end > k + 1) {
		size_t best = 0;
		double bs = INFINITY;
		struct span before, after;

		for (size_t q = k + 1; q < end; q++) {
			double sse;
			before = span_of(g, k, q);
			after = span_of(g, q, end);
			if (!stays_below(g, q, end, before.level)) continue;
			sse = span_sse(&before) + span_sse(&after);
			if (sse < bs) {
				bs = sse;
				best = q;
			}
		}
		if (bs == INFINITY) break;
		before = span_of(g, k, best);
		after = span_of(g, best, end);
		if (!is_drop(&before, &after)) break;
		onset = end = best;
	}
	return onset;
}

/*
 * Does the curve decay right after the first level (a drive without cache:
 * a flat phase, then the erase-bound decay)?  When the second level falls
 * itself or steps down in small steps with what follows, yes.  When it is
 * only a flat level that later runs into a decay, it is the decay's start
 * if it is short (the top of the decay, as the first stretch of an MLC
 * drive's decay after its flat phase), but a level of its own if it lasts
 * longer than the first level: a short cache, then direct-to-TLC, then
 * erase-bound (a 7 s cache before an hour of direct-to-TLC writing).
 * Nor does the curve decay when later groups come back above the second.
 */
static int decays_after_first(const struct group *g, size_t ng)
{
	if (ng < 2) return 0;
	if (g[0].decay) return 1;
	/* a decay does not come back: a slow stretch right after the first
	 * level that later native writing exceeds is noise (a wander of the
	 * native speed), not the start of a decay */
	if (!stays_below(g, 2, ng, (1 + DELTA_SAME) * g[1].level)) return 0;
	if (g[1].decay & (DECAY_OWN | DECAY_RUN)) return 1;
	return g[1].decay && (g[1].dur_s <= g[0].dur_s ||
			      (g[1].dur_s <= HEAD_DUR * g[0].dur_s &&
			       g[1].cnt >= TREND_MIN_SAMPLES && g[1].trend >= HEAD_TREND));
}

/* Integrated autocorrelation time of x[0..n) about its mean (see group_tau). */
static double series_tau(const double *x, size_t n, size_t max_lag)
{
	double m = 0, c0 = 0, tau = 1;

	for (size_t i = 0; i < n; i++) m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) c0 += (x[i] - m) * (x[i] - m);
	if (!(c0 > 0)) return 1;
	for (size_t k = 1; k <= max_lag && k < n; k++) {
		double ck = 0;

		for (size_t i = 0; i + k < n; i++) ck += (x[i] - m) * (x[i + k] - m);
		if (ck / c0 <= RHO_CUT) break;
		tau += 2 * ck / c0;
	}
	return tau;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) s += x[i];
	return n ? s / (double)n : 0;
}

/*
 * Variance inflation of the mean of x[0..n) from batch means: L times the
 * variance of the means of consecutive batches of L = n^(2/3) samples over
 * the variance of the samples, at least 1 (INFINITY with fewer than 8
 * batches).  Unlike
 * the summed autocorrelation (series_tau) it counts the negative lobes of a
 * periodic comb (a stall paid back by the run after it); for a smooth
 * wander whose correlation time is well under L it agrees with it.
 */
static double batch_tau(const double *x, size_t n)
{
	size_t L = (size_t)pow((double)n, 2.0 / 3.0), nb;
	double m, v = 0, vb = 0;

	if (L < 2 || n / L < 8) return INFINITY;
	nb = n / L;
	m = mean_of(x, n);
	for (size_t i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
	v /= (double)(n - 1);
	m = mean_of(x, nb * L);
	for (size_t k = 0; k < nb; k++) {
		double d = mean_of(x + k * L, L) - m;
		vb += d * d;
	}
	vb /= (double)(nb - 1);
	/* no credit below 1: a short side can look anticorrelated by chance */
	return v > 0 ? fmax(1.0, (double)L * vb / v) : 1;
}

/* Are all four quarters of x[0..n) above (sign 1) or below (-1) mid? */
static int quarters_on_side(const double *x, size_t n, double mid, int sign)
{
	for (size_t q = 0; q < 4; q++) {
		size_t a = q * n / 4, e = (q + 1) * n / 4;
		if (e <= a || sign * (mean_of(x + a, e - a) - mid) <= 0) return 0;
	}
	return 1;
}

/*
 * Where a two-level least-squares fit of x[0..n) splits best, at an index
 * in [lo, hi] (best_split: each side at least @min_side long): the index of
 * the first sample of the second level, or 0 when there is none.
 */
static size_t best_split_in(const double *x, size_t n, size_t lo, size_t hi)
{
	double s = 0, s2 = 0, ls = 0, ls2 = 0, bs = INFINITY;
	size_t best = 0;

	for (size_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	for (size_t q = 1; q < n; q++) {
		double l = (double)q, r = (double)(n - q), sse;

		ls += x[q - 1];
		ls2 += x[q - 1] * x[q - 1];
		if (q < lo || q > hi) continue;
		sse = (ls2 - ls * ls / l) + ((s2 - ls2) - (s - ls) * (s - ls) / r);
		if (sse < bs) {
			bs = sse;
			best = q;
		}
	}
	return best;
}

static size_t best_split(const double *x, size_t n, size_t min_side)
{
	return n >= 2 * min_side ? best_split_in(x, n, min_side, n - min_side) : 0;
}

/* Mean difference of x[0..k) and x[k..n) over its standard error, each
 * side's variance inflated by the smaller of its summed autocorrelation
 * and its batch-means estimate, pooled as in is_drop. */
static double split_t(const double *x, size_t n, size_t k, size_t max_lag)
{
	double mb = mean_of(x, k), ma = mean_of(x + k, n - k), vb = 0, va = 0, tb, ta, tau, se;

	if (k < 2 || n - k < 2) return 0;
	for (size_t i = 0; i < k; i++) vb += (x[i] - mb) * (x[i] - mb);
	for (size_t i = k; i < n; i++) va += (x[i] - ma) * (x[i] - ma);
	tb = fmin(series_tau(x, k, max_lag), batch_tau(x, k));
	ta = fmin(series_tau(x + k, n - k, max_lag), batch_tau(x + k, n - k));
	tau = vb + va > 0 ? (vb * tb + va * ta) / (vb + va) : 1;
	se = sqrt(tau * (vb / (double)((k - 1) * k) + va / (double)((n - k - 1) * (n - k))));
	return se > 0 ? (mb - ma) / se : INFINITY;
}

/*
 * A small lasting step inside the native writing (when no larger onset was
 * found): the best two-level split of the samples of the main blocks from
 * block @j0 on (drops left out).  Returns the sample index where the slower
 * level starts, or 0 when there is no such step (STEP_* above).
 */
static size_t small_step(const struct trace *tr, const struct block *b, size_t nb,
			 size_t j0, double *x)
{
	size_t n = 0, best, *idx, at = 0, max_lag;

	for (size_t j = j0; j < nb; j++)
		if (!b[j].dip) n += b[j].i1 - b[j].i0;
	if (n < 2 * STEP_MIN_LEN) return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx) return 0;
	n = 0;
	for (size_t j = j0; j < nb; j++) {
		if (b[j].dip) continue;
		for (size_t i = b[j].i0; i < b[j].i1; i++) {
			idx[n] = i;
			x[n++] = tr->v[i];
		}
	}
	best = best_split(x, n, STEP_MIN_LEN);
	if (best) {
		size_t nb_ = best, na = n - best;
		double mb = mean_of(x, nb_), ma = mean_of(x + best, na), vb = 0, va = 0;
		double tb, ta, tau, se, t_need = STEP_T;

		max_lag = (size_t)fmax(LAG_FLOOR, fmin(LAG_MAX, LAG_WORK / (double)tr->n));
		for (size_t i = 0; i < nb_; i++) vb += (x[i] - mb) * (x[i] - mb);
		for (size_t i = best; i < n; i++) va += (x[i] - ma) * (x[i] - ma);
		tb = series_tau(x, nb_, max_lag);
		ta = series_tau(x + best, na, max_lag);
		if (ma < (1 - DELTA_ERASE) * mb) {
			double bb = batch_tau(x, nb_), ba = batch_tau(x + best, na);

			/* both sides long enough for batch means (8 batches) */
			if (isfinite(bb) && isfinite(ba)) {
				tb = fmin(tb, bb);
				ta = fmin(ta, ba);
				t_need = STEP_T_LARGE;
			}
		}
		tau = vb + va > 0 ? (vb * tb + va * ta) / (vb + va) : 1;
		vb /= (double)(nb_ - 1);
		va /= (double)(na - 1);
		se = sqrt(tau * (vb / (double)nb_ + va / (double)na));
		if (ma < (1 - STEP_SMALL) * mb && se > 0 && (mb - ma) / se >= t_need &&
		    (double)nb_ / tb >= STEP_MIN_EFF && (double)na / ta >= STEP_MIN_EFF &&
		    quarters_on_side(x, nb_, 0.5 * (mb + ma), 1) &&
		    quarters_on_side(x + best, na, 0.5 * (mb + ma), -1))
			at = idx[best];
	}
	free(idx);
	return at;
}

/* Split block j at sample @at (b has room for one more block). */
static void split_block(struct block *b, size_t *nb, size_t j, size_t at)
{
	memmove(b + j + 1, b + j, (*nb - j) * sizeof(*b));
	(*nb)++;
	b[j].i1 = b[j + 1].i0 = at;
}

/*
 * An onset the labelling misplaced: the merges that fold a comb's stalls
 * into the level around them can move it to a stall seconds away from the
 * step, carrying the first stretch of erase-bound writing into the
 * direct-to-TLC group before it (which then falls inside, DECAY_OWN) or the
 * last stretch of direct-to-TLC writing into the erase-bound group.  The
 * samples of all the direct-to-TLC groups and the first erase-bound one
 * (drops left out) are split in two where a two-level fit is best, the
 * split searched from the group just before the onset group on.  When the
 * step there is an erase-bound one (DELTA_ERASE) and STEP_T_LARGE standard
 * errors, the onset moves back to it if it lies in that falling group and
 * the part after it is closer to the erase-bound level than to the level
 * before, or forward if it lies in the erase-bound group and the head up
 * to it is closer to the direct-to-TLC level and not significantly below
 * it (a smooth decay's head is, and keeps its onset).  The block holding
 * the split is cut (b has room for one more block).
 */
static void refine_onset(const struct trace *tr, struct block *b, size_t *nb,
			 const struct group *g, double *x)
{
	size_t je = *nb, p, q, kd, n = 0, n0 = 0, np = 0, *idx, best, max_lag, at = 0, side;

	for (size_t j = 0; j < *nb && je == *nb; j++)
		if (!b[j].dip && b[j].kind == SLC_PHASE_ERASE_BOUND) je = j;
	if (je == *nb || b[je].group <= 0) return;
	q = (size_t)b[je].group;
	p = q - 1;
	if (g[q].first != je || b[g[p].first].kind != SLC_PHASE_DIRECT_TO_TLC)
		return;
	for (kd = p; kd > 0 && b[g[kd - 1].first].kind == SLC_PHASE_DIRECT_TO_TLC; kd--)
		;
	idx = malloc(tr->n * sizeof(*idx));
	if (!idx) return;
	/* all the direct-to-TLC writing before (its level), the onset group;
	 * the split is searched from the group before the onset group on */
	for (size_t j = g[kd].first; j <= g[q].last; j++) {
		if (b[j].dip) continue;
		if (j == g[p].first) n0 = n;
		for (size_t i = b[j].i0; i < b[j].i1; i++) {
			idx[n] = i;
			x[n++] = tr->v[i];
		}
		if (j <= g[p].last) np = n;
	}
	side = (np - n0) / 10 > TEXTURE_SIDE_MIN ? (np - n0) / 10 : TEXTURE_SIDE_MIN;
	best = n >= n0 + 2 * side ? best_split_in(x, n, n0 > side ? n0 : side, n - side) : 0;
	max_lag = (size_t)fmax(LAG_FLOOR, fmin(LAG_MAX, LAG_WORK / (double)tr->n));
	if (!best || best == np || mean_of(x + best, n - best) >= (1 - DELTA_ERASE) * mean_of(x, best) ||
	    split_t(x, n, best, max_lag) < STEP_T_LARGE)
		goto out;
	if (best < np && (g[p].decay & DECAY_OWN)) {
		/* back: the tail of the group before is at the level after */
		double mb = mean_of(x, best), ma = mean_of(x + np, n - np), mt = mean_of(x + best, np - best);

		if (fabs(mt - ma) < fabs(mt - mb)) {
			at = idx[best];
			for (size_t j = g[p].first; j < je; j++) {
				if (b[j].i1 <= at) continue;
				if (b[j].i0 < at) {
					split_block(b, nb, j, at);
					je++;
					continue;
				}
				if (!b[j].dip) b[j].kind = SLC_PHASE_ERASE_BOUND;
			}
		}
	} else if (best > np) {
		/* forward: the head of the onset group is still at the
		 * direct-to-TLC level, not significantly below it (a smooth
		 * decay's head is, unless buried in a comb's noise) */
		struct span d = span_of(g, kd, q);
		double md = d.cnt > 0 ? d.s1 / d.cnt : 0, vd = d.cnt > 1 ? span_sse(&d) / (d.cnt - 1) : 0;
		double td = fmin(d.c0 > 0 ? d.c0tau / d.c0 : 1, batch_tau(x, np)), mh, vh = 0, th, ma, se;
		size_t nh = best - np;

		mh = mean_of(x + np, nh);
		ma = mean_of(x + best, n - best);
		for (size_t i = np; i < best; i++) vh += (x[i] - mh) * (x[i] - mh);
		vh /= (double)(nh > 1 ? nh - 1 : 1);
		th = fmin(series_tau(x + np, nh, max_lag), batch_tau(x + np, nh));
		se = sqrt(td * vd / fmax(d.cnt, 1) + th * vh / (double)nh);
		/* medians too: a comb's stalls dilute the means, and a head
		 * without a stall in it would look close to the diluted level
		 * before (the medians are the runs' levels) */
		double qd = slc_median(x, np), qh = slc_median(x + np, nh), qa = slc_median(x + best, n - best);

		if (d.cnt >= 2 && fabs(mh - md) < fabs(mh - ma) && fabs(qh - qd) < fabs(qh - qa) &&
		    (se <= 0 || (md - mh) / se < T_SAME)) {
			at = idx[best];
			for (size_t j = je; j <= g[q].last; j++) {
				if (b[j].i0 >= at) break;
				if (b[j].i1 > at) {
					split_block(b, nb, j, at);
					b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
					break;
				}
				if (!b[j].dip) b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
			}
		}
	}
out:
	free(idx);
}

/*
 * Without an erase-bound phase, look for a small lasting step in the native
 * writing from its first block on; the blocks from there are erase-bound
 * (the block holding the step is split; @b has room for one more).
 */
static void split_small_step(const struct trace *tr, struct block *b, size_t *nb, double *tmp)
{
	size_t j0 = *nb, at;

	for (size_t j = 0; j < *nb; j++) {
		if (b[j].dip) continue;
		if (b[j].kind == SLC_PHASE_ERASE_BOUND) return;
		if (b[j].kind == SLC_PHASE_DIRECT_TO_TLC && j0 == *nb) j0 = j;
	}
	if (j0 == *nb) return;
	at = small_step(tr, b, *nb, j0, tmp);
	if (!at) return;
	for (size_t j = j0; j < *nb; j++) {
		if (b[j].i1 <= at) continue;
		if (b[j].i0 < at) {
			split_block(b, nb, j, at);
			continue;
		}
		if (!b[j].dip) b[j].kind = SLC_PHASE_ERASE_BOUND;
	}
}

/* Label groups (and so blocks); returns 1 when a cache was found. */
static int label(struct block *b, struct group *g, size_t ng)
{
	size_t k = 0, onset;

	if (ng >= 2 && !decays_after_first(g, ng)) {
		while (k + 1 < ng) {
			double later = 0;
			for (size_t q = k + 1; q < ng; q++) later = fmax(later, g[q].level);
			if (g[k].level <= (1 + DELTA_CACHE) * later) break;
			/* a later tier is steady, and faster than most samples
			 * after it (a tooth-free stretch of a comb is not) */
			if (k > 0 && (g[k].decay || g[k].level <= g[k + 1].p90 ||
				      g[k].level < TIER_RATIO_MIN * g[k - 1].level ||
				      g[k].cov > fmax(TIER_COV_FACTOR * g[0].cov, TIER_COV_MIN)))
				break;
			k++;
		}
	}
	onset = erase_onset(g, k, ng);
	for (size_t q = 0; q < ng; q++) {
		int kind = q < k ? SLC_PHASE_SLC_CACHE :
			   q >= onset ? SLC_PHASE_ERASE_BOUND : SLC_PHASE_DIRECT_TO_TLC;
		unsigned tier = q < k ? (unsigned)q + 1 : 0;

		for (size_t j = g[q].first; j <= g[q].last; j++) {
			if (b[j].dip) continue;
			b[j].kind = kind;
			b[j].tier = tier;
		}
	}
	return k > 0;
}

/* Median and robust scale of samples [i0, i1); with @dsigma, also the
 * sample-to-sample scale (MAD of first differences / sqrt 2), which a slow
 * wander of the level does not inflate. */
static void local_level(const struct trace *tr, size_t i0, size_t i1,
			double *med, double *sigma, double *dsigma, double *tmp)
{
	size_t m = i1 - i0;

	for (size_t i = i0; i < i1; i++) tmp[i - i0] = tr->v[i];
	*med = slc_median(tmp, m);
	*sigma = m > 1 ? slc_mad_sigma(tmp, m) : 0;
	if (dsigma) *dsigma = m > 2 ? fmin(*sigma, slc_diff_sigma(tr->v + i0, m)) : *sigma;
}

/*
 * Is x at neither level (BETWEEN_K sigma from both)?  Generous on purpose:
 * an at-level sample let into the window costs a little noise, a
 * straddling sample left out costs up to a whole sample of bytes.
 */
static int between(double x, double va, double sa, double vb, double sb)
{
	return fabs(x - va) > BETWEEN_K * sa && fabs(x - vb) > BETWEEN_K * sb &&
	       x > fmin(va, vb) && x < fmax(va, vb);
}

/* Is x at level vx (within BETWEEN_K sigma) and not at the other level vo? */
static int at_level(double x, double vx, double sx, double vo, double so)
{
	return fabs(x - vx) <= BETWEEN_K * sx && fabs(x - vo) > BETWEEN_K * so;
}

/*
 * Place the boundary between phase A (ending at sample j) and phase B
 * (starting at j) to sub-sample precision.  Over a window of samples around
 * j, the bytes written equal vA * (t* - ta) + vB * (tb - t*), with vA and
 * vB the local speeds just outside the window; solving for t* splits a
 * straddling sample (or a short ramp) by the bytes it carried.  The
 * boundary's byte count is where the speed vA stops: bytes(ta) + vA (t* - ta).
 */
static void balance(const struct trace *tr, size_t a0, size_t j, size_t b1,
		    double *t_out, double *bytes_out, double *tmp)
{
	size_t wmax = BALANCE_HALF_MAX, l = BALANCE_REF_MAX, lo = j, hi = j;
	double va, vb, sa, sb, da, db, vbe, ta, tb, bw, ts;
	size_t ia, ib;

	*t_out = t_start(tr, j);
	*bytes_out = tr->cum[j];
	if (j - a0 < 2 || b1 - j < 2) return;
	if (wmax > (j - a0) / 2) wmax = (j - a0) / 2;
	if (wmax > (b1 - j) / 2) wmax = (b1 - j) / 2;
	/* the window holds the samples that are at neither level: the one
	 * straddling a sharp step, or a ramp; samples at a level stay out so
	 * that their noise (or a comb's teeth) does not move the estimate */
	ia = (j - 1) - a0 > l ? j - 1 - l : a0;
	ib = b1 - (j + 1) > l ? j + 1 + l : b1;
	local_level(tr, ia, j - 1, &va, &sa, &da, tmp);
	local_level(tr, j + 1, ib, &vb, &sb, &db, tmp);
	/* the segmentation may put the edge a sample or two off: a sample
	 * clearly at A's level on B's side (or the reverse) moves it */
	for (size_t d = 0; d < BALANCE_SEEK && j + 2 < b1 &&
	     at_level(tr->v[j], va, sa, vb, sb); d++)
		j++;
	for (size_t d = 0; d < BALANCE_SEEK && j > a0 + 2 &&
	     at_level(tr->v[j - 1], vb, sb, va, sa); d++)
		j--;
	lo = hi = j;
	*t_out = t_start(tr, j);
	*bytes_out = tr->cum[j];
	/* ... or off the straddling sample (a comb's first sample can look
	 * like either).  At the end of a steady level (a cache) the sample
	 * right at the edge is judged against the sample-to-sample noise
	 * (da, db): a level that wanders slowly (the native speed after a
	 * cache) has a wide spread about its median, and a straddler that is
	 * mostly slow would hide in it */
	/* ... against the level of the next few samples, not of thirty, and
	 * their slope: the first of a native level that trends is no
	 * straddler (EDGE_*). */
	vbe = vb;
	if (!(sa <= STEADY_COV * va) || (j - 1) - ia < EDGE_MIN_A || ib - (j + 1) < EDGE_MIN) {
		da = sa;
		db = sb;
	} else {
		/* the median of the next few, carried back to the edge along
		 * the slow level's local slope (a native speed that falls or
		 * rises right after the cache) */
		for (size_t i = 0; i + 1 < EDGE_MIN; i++) tmp[i] = tr->v[j + 2 + i] - tr->v[j + 1 + i];
		vbe = slc_median(tr->v + j + 1, EDGE_NEXT) - 2 * slc_median(tmp, EDGE_MIN - 1);
	}
	for (size_t d = 1; d <= BALANCE_SEEK; d++) {
		if (j - d > a0 && between(tr->v[j - d], va, d == 1 ? da : sa, vb, d == 1 ? db : sb)) lo = j - d;
		if (j + d < b1 && between(tr->v[j + d - 1], va, d == 1 ? da : sa, d == 1 ? vbe : vb, d == 1 ? db : sb))
			hi = j + d;
	}
	if (lo == hi) return;	/* the step falls on a sample edge */
	while (lo > a0 + 1 && j - lo < wmax && between(tr->v[lo - 1], va, sa, vb, sb)) lo--;
	while (hi + 1 < b1 && hi - j < wmax && between(tr->v[hi], va, sa, vb, sb)) hi++;
	/* the bytes balance needs expected speeds: means, teeth included */
	va = level(tr, lo - a0 > l ? lo - l : a0, lo);
	vb = level(tr, hi, b1 - hi > l ? hi + l : b1);
	if (!(fabs(va - vb) > 1e-9 * fmax(fabs(va), fabs(vb)))) return;
	ta = t_start(tr, lo);
	tb = tr->t[hi - 1];
	bw = tr->cum[hi] - tr->cum[lo];
	ts = ta + (bw - vb * (tb - ta)) / (va - vb);
	if (ts < ta) ts = ta;
	if (ts > tb) ts = tb;
	*t_out = ts;
	*bytes_out = tr->cum[lo] + va * (ts - ta);
	if (*bytes_out < tr->cum[lo]) *bytes_out = tr->cum[lo];
	if (*bytes_out > tr->cum[hi]) *bytes_out = tr->cum[hi];
}

/* Statistics of the phase [start_s, end_s] from whole samples i0..i1. */
static void phase_stats(const struct trace *tr, struct slc_phase *p, size_t i0,
			size_t i1, double *tmp)
{
	size_t lo = i0, hi = i1, m;
	double s = 0, s2 = 0, dur = p->end_s - p->start_s, eps;

	eps = 1e-6 * (tr->dt[i0] > 0 ? tr->dt[i0] : 1);
	/* drop samples straddling a boundary unless nothing would be left */
	while (lo < hi && t_start(tr, lo) < p->start_s - eps) lo++;
	while (hi > lo && tr->t[hi - 1] > p->end_s + eps) hi--;
	if (lo >= hi) {
		lo = i0;
		hi = i1;
	}
	m = hi - lo;
	for (size_t i = lo; i < hi; i++) {
		tmp[i - lo] = tr->v[i];
		s += tr->v[i];
		s2 += tr->v[i] * tr->v[i];
	}
	p->median_bps = slc_quantile(tmp, m, 0.5);
	p->p5_bps = slc_quantile(tmp, m, 0.05);
	p->p95_bps = slc_quantile(tmp, m, 0.95);
	p->mean_bps = dur > 0 ? (p->end_bytes - p->start_bytes) / dur : s / (double)m;
	if (m > 1 && s > 0) {
		double mean = s / (double)m, var = (s2 - s * mean) / (double)(m - 1);
		p->cov = var > 0 ? sqrt(var) / mean : 0;
	} else {
		p->cov = 0;
	}
	p->iops_mean = tr->block_bytes > 0 ? p->mean_bps / tr->block_bytes : NAN;
}

/* Turn consecutive blocks into phases; same-kind neighbours become one. */
static int emit_phases(struct slc_phase **out, size_t *n_out,
		       const struct trace *tr, const struct block *b, size_t nb,
		       int keep_all, double *tmp)
{
	struct block *ph;
	struct slc_phase *p;
	size_t np = 0;

	ph = malloc(nb * sizeof(*ph));
	if (!ph) return -ENOMEM;
	for (size_t j = 0; j < nb; j++) {
		if (!keep_all && np > 0 && !b[j].dip && !ph[np - 1].dip &&
		    ph[np - 1].kind == b[j].kind && ph[np - 1].tier == b[j].tier) {
			ph[np - 1].i1 = b[j].i1;
			continue;
		}
		ph[np++] = b[j];
	}
	p = calloc(np, sizeof(*p));
	if (!p) {
		free(ph);
		return -ENOMEM;
	}
	p[0].start_s = t_start(tr, 0);
	p[0].start_bytes = 0;
	for (size_t q = 0; q < np; q++) {
		p[q].kind = (enum slc_phase_kind)ph[q].kind;
		p[q].tier = ph[q].tier;
		if (q + 1 < np) {
			balance(tr, ph[q].i0, ph[q].i1, ph[q + 1].i1,
				&p[q].end_s, &p[q].end_bytes, tmp);
			p[q + 1].start_s = p[q].end_s;
			p[q + 1].start_bytes = p[q].end_bytes;
		} else {
			p[q].end_s = tr->t[tr->n - 1];
			p[q].end_bytes = tr->cum[tr->n];
		}
	}
	for (size_t q = 0; q < np; q++) phase_stats(tr, p + q, ph[q].i0, ph[q].i1, tmp);
	free(ph);
	*out = p;
	*n_out = np;
	return 0;
}

void slc_analysis_free(struct slc_analysis *a)
{
	if (!a) return;
	free(a->phases);
	free(a->segments);
	a->phases = a->segments = NULL;
	a->n_phases = a->n_segments = 0;
}

static int load_trace(struct trace *tr, const struct slc_trace_in *in)
{
	size_t n = in->n;

	if (n == 0 || !in->t_s || (!in->bytes == !in->bps)) return -EINVAL;
	tr->n = n;
	tr->t = in->t_s;
	tr->block_bytes = in->block_bytes;
	tr->dt = malloc(n * sizeof(double));
	tr->v = malloc(n * sizeof(double));
	tr->cum = malloc((n + 1) * sizeof(double));
	tr->sv = malloc((n + 1) * sizeof(double));
	tr->sv2 = malloc((n + 1) * sizeof(double));
	if (!tr->dt || !tr->v || !tr->cum || !tr->sv || !tr->sv2) return -ENOMEM;
	tr->cum[0] = tr->sv[0] = tr->sv2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		double dt, bytes;

		if (in->interval_s) dt = in->interval_s[i];
		else if (i > 0) dt = in->t_s[i] - in->t_s[i - 1];
		else if (n > 1) dt = in->t_s[1] - in->t_s[0];
		else dt = in->t_s[0];
		if (!(dt > 0) || !isfinite(in->t_s[i]) ||
		    (i > 0 && !(in->t_s[i] > in->t_s[i - 1])))
			return -EINVAL;
		bytes = in->bytes ? in->bytes[i] : in->bps[i] * dt;
		if (!isfinite(bytes)) return -EINVAL;
		tr->dt[i] = dt;
		tr->v[i] = bytes / dt;
		tr->cum[i + 1] = tr->cum[i] + bytes;
		tr->sv[i + 1] = tr->sv[i] + tr->v[i];
		tr->sv2[i + 1] = tr->sv2[i] + tr->v[i] * tr->v[i];
	}
	return 0;
}

int slc_analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		const struct slc_cpd_opts *opts)
{
	struct trace tr = { 0 };
	struct block *b = NULL;
	struct group *g = NULL;
	size_t *ends = NULL, nb = 0, ng, start = 0;
	double *tmp = NULL, from_s;
	int ret;

	if (!out) return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->cache_bytes = out->cache_bps = out->cache_end_s = NAN;
	out->erase_bound_start_s = out->erase_bound_start_bytes = NAN;
	if (!in) return -EINVAL;
	ret = load_trace(&tr, in);
	if (ret) goto out;

	ret = -ENOMEM;
	ends = malloc(tr.n * sizeof(*ends));
	tmp = malloc(tr.n * sizeof(*tmp));
	if (!ends || !tmp) goto out;
	ret = slc_changepoints(ends, tr.n, &nb, &out->cpd, tr.v, tr.n, opts);
	if (ret) goto out;

	ret = -ENOMEM;
	b = calloc(nb + 1, sizeof(*b));	/* room for one split (small_step) */
	g = calloc(nb, sizeof(*g));
	if (!b || !g) goto out;
	for (size_t j = 0; j < nb; j++) {
		b[j].i0 = start;
		b[j].i1 = start = ends[j];
	}
	ret = emit_phases(&out->segments, &out->n_segments, &tr, b, nb, 1, tmp);
	if (ret) goto out;

	while (merge_same(&tr, b, &nb) || merge_transient(&tr, b, &nb, tmp))
		;
	ng = make_groups(&tr, b, nb, g, tmp);
	out->has_cache = label(b, g, ng);
	refine_onset(&tr, b, &nb, g, tmp);
	split_small_step(&tr, b, &nb, tmp);
	ret = emit_phases(&out->phases, &out->n_phases, &tr, b, nb, 0, tmp);
	if (ret) goto out;

	from_s = t_start(&tr, 0);
	for (size_t q = 0; q < out->n_phases; q++) {
		const struct slc_phase *p = out->phases + q;
		if (p->kind == SLC_PHASE_SLC_CACHE) {
			out->cache_bytes = p->end_bytes;
			out->cache_end_s = from_s = p->end_s;
			if (p->tier == 1 && isnan(out->cache_bps)) out->cache_bps = p->mean_bps;
		} else if (p->kind == SLC_PHASE_DIRECT_TO_TLC ||
			   p->kind == SLC_PHASE_ERASE_BOUND) {
			if (p->kind == SLC_PHASE_ERASE_BOUND) {
				out->erase_bound_start_s = p->start_s;
				out->erase_bound_start_bytes = p->start_bytes;
			}
			break;
		}
	}
	for (size_t q = 0; q < out->n_phases && isnan(out->erase_bound_start_s); q++) {
		if (out->phases[q].kind == SLC_PHASE_ERASE_BOUND) {
			out->erase_bound_start_s = out->phases[q].start_s;
			out->erase_bound_start_bytes = out->phases[q].start_bytes;
		}
	}
	ret = slc_steady_state(&out->steady, tr.t, tr.dt, tr.v, tr.n, from_s, 60.0, 5);
out:
	free(tr.dt);
	free(tr.v);
	free(tr.cum);
	free(tr.sv);
	free(tr.sv2);
	free(ends);
	free(tmp);
	free(b);
	free(g);
	return ret;
}
