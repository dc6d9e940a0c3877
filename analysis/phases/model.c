// SPDX-License-Identifier: MIT
/*
 * The phase model (docs/analysis.md, "The phase model"): the consolidated
 * groups are read as a whole.  A write curve is cache tier(s), then the
 * native level, then optionally the erase-bound regime; each candidate
 * reading of the groups gets a score, the log-likelihood of the step
 * structure the data support plus log priors from what drives do and from
 * what the run knows (capacity, cell type, the drive's state, the run's
 * main curve), and the best one wins.  The runner-up and the posterior
 * weights are kept: they are the model's uncertainty.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"

/*
 * The priors (params.c).  Speeds are compared as ratios: a ratio inside
 * the range drives show costs nothing, one outside it a normal tail in the
 * log ratio.
 */

/* Text of the model's reasons: one line each, into a fixed buffer. */
struct ex {
	char *buf;
	size_t cap, len;
};

static void exf(struct ex *e, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (!e || e->len + 2 >= e->cap) return;
	va_start(ap, fmt);
	w = vsnprintf(e->buf + e->len, e->cap - e->len - 1, fmt, ap);
	va_end(ap);
	if (w < 0) return;
	e->len += (size_t)w < e->cap - e->len - 1 ? (size_t)w : e->cap - e->len - 2;
	e->buf[e->len++] = '\n';
	e->buf[e->len] = 0;
}

/* Decimal units, three significant figures: the explanation's numbers. */
static const char *fmt_si(char *s, size_t n, double x, const char *unit)
{
	return slc__fmt_si(s, n, x, unit, 3);
}

/* log prior of a speed ratio: 0 inside the range, a normal tail outside */
static double lratio(double r, const struct slc_ratio_prior *p)
{
	double z;

	if (!(r > 0)) return -INFINITY;
	if (r >= p->lo && r <= p->hi) return 0;
	z = log(r < p->lo ? r / p->lo : r / p->hi) / p->sd;
	return -0.5 * z * z;
}

/* The name of @p's parameter @field (the explanation names where each
 * term comes from); for a ratio prior (@field its lo) the prior's, as
 * "tier_*", in @buf. */
static const char *pname(const struct slc_model_params *p, const void *field)
{
	return slc_model_param_at((size_t)((const char *)field - (const char *)p));
}

static const char *prior_name(char *buf, size_t n, const struct slc_model_params *p, const void *field)
{
	const char *lo = pname(p, field);
	size_t len = strlen(lo);

	snprintf(buf, n, "%.*s*", (int)(len > 2 ? len - 2 : len), lo);
	return buf;
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
static int decays_after_first(const struct slc_model_params *p, const struct group *g, size_t ng)
{
	if (ng < 2) return 0;
	if (g[0].decay) return 1;
	/* a decay does not come back: a slow stretch right after the first
	 * level that later native writing exceeds is noise (a wander of the
	 * native speed), not the start of a decay */
	if (!slc__stays_below(p, g, 2, ng, (1 + p->delta_same) * g[1].level)) return 0;
	if (g[1].decay & (DECAY_OWN | DECAY_RUN)) return 1;
	return (g[1].decay || g[1].falls) && (g[1].dur_s <= g[0].dur_s ||
			      (g[1].dur_s <= p->head_dur * g[0].dur_s &&
			       g[1].cnt >= p->trend_min_samples && g[1].trend >= p->head_trend));
}

/* Label groups (and so blocks); returns 1 when a cache was found. */

struct mctx {
	const struct trace *tr;
	const struct block *b;
	const struct group *g;
	size_t ng;
	const struct slc_phase_evidence *ev;
	const struct slc_model_params *p;
	int decay_first;
	size_t onset[SLC__MODEL_MMAX + 2];	/* the data's onset for k cache groups */
	int excluded;		/* set when the evidence, not the shape, ruled a reading out */
	unsigned char *rec;	/* ng flags: the groups a reading takes for the cache back */
	int ignore_evidence;	/* score as if the evidence ruled nothing out */
	struct mctx *sub;	/* the groups after a write buffer's burst; NULL: no such reading */
	struct group *gc;	/* onset_without_rec()'s scratch: ng groups ... */
	size_t *map;		/* ... and ng + 1 indices */
};

static double g_start_bytes(const struct mctx *c, size_t q)
{
	return c->tr->cum[c->b[c->g[q].first].i0];
}

static double g_end_bytes(const struct mctx *c, size_t q)
{
	return c->tr->cum[c->b[c->g[q].last].i1];
}

/* The mean of the samples of groups [a, e). */
static double span_mean(const struct group *g, size_t a, size_t e)
{
	struct span s = slc__span_of(g, a, e);
	return s.cnt > 0 ? s.s1 / s.cnt : 0;
}

/*
 * Log-likelihood lost by reading groups [a, e) as one level: the squared
 * distances of the group means from their common mean, in units of the
 * variance of one sample inflated by the noise's autocorrelation time
 * (pooled over the groups): -chi^2 / 2.
 */
static double merge_cost(const struct group *g, size_t a, size_t e)
{
	struct span s = slc__span_of(g, a, e);
	double m, chi = 0, var;

	if (e <= a + 1 || !(s.cnt > 1)) return 0;
	m = s.s1 / s.cnt;
	/* each group's spread about its own level (a slow wander inside it
	 * included: it is the noise the question "one level or two?" is
	 * asked against), inflated by its autocorrelation time */
	var = 0;
	for (size_t q = a; q < e; q++)
		if (g[q].cnt > 1) var += fmax(0, g[q].s2 - g[q].s1 * g[q].s1 / g[q].cnt) * g[q].tau;
	var /= s.cnt;
	for (size_t q = a; q < e; q++) {
		double mq = g[q].cnt > 0 ? g[q].s1 / g[q].cnt : m;
		chi += g[q].cnt * (mq - m) * (mq - m);
	}
	if (!(var > 0)) return s.c0 > 0 || chi > 0 ? INFINITY : 0;
	return 0.5 * chi / var;
}

/*
 * Log-likelihood lost by reading groups [a, e) as one phase: each jump
 * between neighbouring levels (one below decay_step_min of the other, a
 * step no wander or decay makes, or one the samples show lasting: a
 * small step, the first samples' edge) costs the two levels' merge cost.  Groups
 * marked in @rec (the cache back during a fill) are no part of the phase.
 */
static double jump_cost(const struct slc_model_params *p, const struct group *g, size_t a, size_t e,
			const unsigned char *rec)
{
	double cost = 0;

	for (size_t q = a + 1; q < e; q++) {
		if (rec[q] || rec[q - 1]) continue;
		double lo = fmin(g[q].level, g[q - 1].level), hi = fmax(g[q].level, g[q - 1].level);
		/* a step the samples show lasting (g[q].step: a small one in
		 * the native writing, or the first samples' edge) is no wander
		 * either, however close the levels */
		if (lo < p->decay_step_min * hi || g[q].step) cost += merge_cost(g, q - 1, q + 1);
	}
	return cost;
}

/* The median of the @w samples centred on sample @i (from i - w / 2): the
 * running median of the visits and of the slow stretches. */
static double window_median(const struct trace *tr, size_t i, size_t w)
{
	return slc__median(tr, tr->v + i - w / 2, w);
}

/*
 * The share of the samples of the cache groups [0, k) (their main blocks
 * and the drops between them) within delta_same of @level, and in @visits
 * how many separate visits that makes.  An SLC cache writes at its speed
 * until it is full; a drive that visits the level after the "cache" again
 * and again and comes back each time is a flat drive with dips (garbage collection of an MLC drive without cache), and
 * a run that ends in such a dip cuts the last one off.
 */
static double visited(const struct mctx *c, size_t k, double level, size_t *visits)
{
	const struct slc_model_params *p = c->p;
	const struct trace *tr = c->tr;
	size_t i0 = c->b[c->g[0].first].i0, i1 = c->b[c->g[k - 1].last].i1, at = 0;
	size_t w = c->p->tail_smooth;
	int in = 0;

	*visits = 0;
	if (i1 <= i0 + 2) return 0;
	for (size_t i = i0 + 1; i + 1 < i1; i++) at += fabs(tr->v[i] - level) < p->delta_same * level;
	/* visits counted on a running median: a lone outlier is no visit */
	if (w >= 1 && i1 >= i0 + w)
		for (size_t i = i0 + w / 2; i + w - w / 2 <= i1; i++) {
			double m = window_median(tr, i, w);

			/* a visit ends when the speed is back nearer the cache's
			 * than the level's: the noise of a long visit crosses
			 * the level's own band again and again */
			if (fabs(m - level) < p->delta_same * level && !in) {
				(*visits)++;
				in = 1;
			} else if (m >= 0.5 * (level + c->g[0].level)) {
				in = 0;
			}
		}
	return (double)at / (double)(i1 - i0 - 2);
}

/* One candidate reading: k cache groups (tiers, or one merged level),
 * native groups [k, o), erase-bound groups [o, ng). */
struct cand {
	size_t k, o;
	int merged;
	int rec;		/* later levels near the cache's are the cache back */
	double score;
	size_t od;		/* the data's onset for this reading's groups */
	int buf;		/* the first group is a write buffer's burst: k, o and od
				 * count the groups after it (the context c->sub) */
};

/* The context a reading's group indices refer to. */
static const struct mctx *ctx_of(const struct mctx *c, const struct cand *r)
{
	return r->buf ? c->sub : c;
}

/*
 * The cache back during a fill: a dynamic cache recovers while the drive
 * folds in the background (QLC drives return to SLC speed for a while
 * during a long fill).  A later level is read so when it is at least
 * rec_frac of the cache's speed (folding may run beside it), rec_over_native
 * times the speed of all the writing after the cache (a dynamic QLC
 * cache's native writing runs at 0.03-0.3 of its speed; a native level
 * wanders, a sawtooth's teeth and a DRAM-less drive's runs between stalls
 * rise above it, but by less than twice) and as steady as the cache
 * (native writing wanders; SLC writes do not), after
 * native writing at least as long as the cache took to fill (folding the
 * cache's data takes longer than writing it did; a sawtooth's teeth come
 * far more often), and with sharp edges (sharp_edges()).
 */

/* As steady as the first cache tier (native writing is noisier). */
static int steady_as_cache(const struct slc_model_params *p, const struct group *g, size_t q)
{
	return g[q].cov <= fmax(p->tier_cov_factor * g[0].cov, p->tier_cov_min);
}

/* The speed of reading @r's cache (k > 0): its first tier's, or the one
 * level its merged groups make. */
static double cache_level(const struct group *g, const struct cand *r)
{
	return r->merged ? slc__span_of(g, 0, r->k).level : g[0].level;
}

/* The median of the first min(@n, rec_edge_side) samples from @x, @step
 * apart (the mean of two). */
static double edge_median(const double *x, ptrdiff_t step, size_t n)
{
	double a = x[0], b, c;

	if (n < 2) return a;
	b = x[step];
	if (n < 3) return (a + b) / 2;
	c = x[2 * step];
	return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* How many of samples [@a, @e) lie strictly between @lo and @hi. */
static size_t n_between(const double *v, size_t a, size_t e, double lo, double hi)
{
	size_t n = 0;

	for (size_t i = a; i < e; i++) n += v[i] > lo && v[i] < hi;
	return n;
}

/* The test at one edge: @e the edge's sample at the level's speed, @dir the
 * way out of the group (-1 at its start, +1 at its end).  An edge the trace
 * does not have all around passes. */
static int edge_ok(const struct slc_model_params *p, const double *v, size_t n, size_t e, int dir, double mid,
		   double near)
{
	size_t lo = dir < 0 ? e - p->rec_edge_side - 1 : e - (p->rec_edge_side - 1);
	size_t hi = dir < 0 ? e + p->rec_edge_side : e + p->rec_edge_side + 2;	/* [lo, hi) */

	if (e < (dir < 0 ? p->rec_edge_side + 1 : p->rec_edge_side - 1) || hi > n) return 1;
	return edge_median(v + e + 2 * dir, dir, p->rec_edge_side) < mid &&
	       edge_median(v + e, -dir, p->rec_edge_side) >= near &&
	       n_between(v, lo, hi, mid, near) <= p->rec_edge_between;
}

/*
 * Does group @q start and end as a step between the native speed and its
 * own?  The drive switches to SLC mode when background folding has freed
 * blocks and back when it has used them: each edge falls inside one sample.
 * So beyond the sample that straddles it the writing outside runs at the
 * native speed and the writing inside at the level's.  A wander of the
 * native speed that rises as high ramps up and down over many samples.
 * At each edge the trace has, the edge's sample on the level's side is
 * found from the data: the first (at the start; the last at the end) of
 * the samples within rec_edge_seek of the group's first (last) one that
 * runs within delta_same of the level.  Then the median of the
 * rec_edge_side samples from it inwards must be within delta_same of the
 * level too, the median of the rec_edge_side samples outside beyond the
 * straddler below the geometric midpoint of the two speeds, and at most
 * rec_edge_between of the samples around the edge in between.  A ramp of
 * seven samples or more puts too many of them between the two; one of two
 * to six can pass, as a step with a noisy sample does.
 */
static int sharp_edges(const struct mctx *c, size_t q, double native)
{
	const struct slc_model_params *p = c->p;
	const double *v = c->tr->v;
	size_t n = c->tr->n, i0 = c->b[c->g[q].first].i0, i1 = c->b[c->g[q].last].i1, f, l, lo, hi;
	double lv = c->g[q].level, mid = sqrt(lv * native), near = (1 - p->delta_same) * lv;

	/* the start: f the first sample at the level's speed */
	lo = i0 >= 2 ? i0 - 2 : 0;
	hi = i0 + p->rec_edge_seek < i1 ? i0 + p->rec_edge_seek : i1;
	for (f = lo; f < hi && v[f] < near; f++) continue;
	if (f == hi || !edge_ok(c->p, v, n, f, -1, mid, near)) return 0;
	/* the end: l the last sample at the level's speed */
	lo = i1 > p->rec_edge_seek + 1 && i1 - p->rec_edge_seek - 1 > f ? i1 - p->rec_edge_seek - 1 : f;
	hi = i1 + 2 < n ? i1 + 2 : n;
	for (l = hi; l > lo && v[l - 1] < near; l--) continue;
	return l > lo && edge_ok(c->p, v, n, l - 1, 1, mid, near);
}

/* The cache back's speed: at least rec_frac of the cache's (@c1) and
 * rec_over_native times that of all the writing after the cache. */
static int at_rec_speed(const struct slc_model_params *p, const struct group *g, size_t q, double c1, double native)
{
	return g[q].level >= p->rec_frac * c1 && g[q].level > p->rec_over_native * native;
}

static int is_rec(const struct mctx *c, const struct cand *r, size_t q, double c1, double native)
{
	return q > r->k && at_rec_speed(c->p, c->g, q, c1, native) && steady_as_cache(c->p, c->g, q) &&
	       sharp_edges(c, q, native);
}

/*
 * A burst of the native writing at the cache back's speed: a level of
 * rec_frac to 1 + delta_cache times the cache's speed and rec_over_native
 * times that of all the writing after the cache (the speeds is_rec() asks
 * for) that the reading does not take for the cache back.  With the
 * levels next to it above the geometric midpoint of its speed and the
 * native one (its ramps, however the segmentation cut them), it must
 * last less than the cache did and come after native writing at least as
 * long as the cache took to fill.  Such a burst is an excursion inside the
 * native writing: a little cache recovered during a pause (on a dynamic
 * cache any pause, even a second, lets some come back: methodology.md), or
 * the native speed's wander up to the controller's limit.  It is not
 * writing that the cache must outrun: the cache's step is judged against
 * the levels after it without it.  The
 * parts of a noisy cache after a reading's first part are none: the
 * levels between them run above the midpoint, so their span reaches back
 * to the cache.
 */
static int native_burst(const struct slc_model_params *p, const struct group *g, size_t ng, size_t k, size_t q,
			double c1, double after)
{
	double cache_s = 0, native_s = 0, span_s = 0, mid;
	size_t qa = q, qb = q;

	if (!(q > k && at_rec_speed(p, g, q, c1, after) && g[q].level <= (1 + p->delta_cache) * c1))
		return 0;
	mid = sqrt(g[q].level * after);
	while (qa > k && g[qa - 1].level > mid) qa--;
	while (qb + 1 < ng && g[qb + 1].level > mid) qb++;
	if (qa == k || qb + 1 == ng) return 0;
	for (size_t i = 0; i < k; i++) cache_s += g[i].dur_s;
	for (size_t i = k; i < qa; i++) native_s += g[i].dur_s;
	for (size_t i = qa; i <= qb; i++) span_s += g[i].dur_s;
	return span_s < cache_s && native_s >= cache_s;
}

/* The groups reading @r takes for the cache back, flagged in @mask (ng
 * entries of @c's groups); returns how many. */
static size_t rec_mask(const struct mctx *c, const struct cand *r, unsigned char *mask)
{
	const struct group *g = c->g;
	size_t ng = c->ng, n = 0;
	double c1, cache_s = 0, native_s = 0, after;

	memset(mask, 0, ng);
	if (!r->rec || r->k == 0) return 0;
	c1 = cache_level(g, r);
	after = slc__span_of(g, r->k, ng).level;
	for (size_t q = 0; q < r->k; q++) cache_s += g[q].dur_s;
	for (size_t q = r->k; q < ng; q++) {
		if (native_s >= cache_s && is_rec(c, r, q, c1, after)) {
			mask[q] = 1;
			n++;
			native_s = 0;
		} else {
			native_s += g[q].dur_s;
		}
	}
	return n;
}

/* Does a tier after the first look like one (steady, near the tier before,
 * faster than most samples after it)?  A tooth-free stretch of a comb and
 * native writing are not.  Near the tier before is the ratio prior's range
 * and tier_floor_sd of its standard deviations below: a tier a little slower than
 * the drives show costs its prior's tail, so that the reading can still be
 * the runner-up, while one at direct-to-TLC's ratios is none. */
static int tier_ok(const struct mctx *c, size_t q)
{
	const struct group *g = c->g;
	size_t ng = c->ng;
	double floor = c->p->tier.lo * exp(-c->p->tier_floor_sd * c->p->tier.sd);

	if (g[q].decay || g[q].level < floor * g[q - 1].level) return 0;
	if (q + 1 < ng && g[q].level <= g[q + 1].p90) return 0;
	return steady_as_cache(c->p, g, q);
}

/* Most the cache can be: every block of the flash in SLC mode, the spare
 * area included (at most spare_max of the capacity: 7% on consumer drives,
 * 28% on enterprise ones). */
double slc__cache_limit(const struct slc_phase_evidence *ev)
{
	const struct slc_model_params *p = slc__ev_mp(ev);
	double bits = ev->cell != SLC_CELL_UNKNOWN ? (double)ev->cell : p->slc_bits_unknown;

	return ev->capacity_bytes > 0 ? ev->capacity_bytes * (1 + p->spare_max) / bits : INFINITY;
}

double slc__buffer_limit(const struct slc_phase_evidence *ev)
{
	const struct slc_model_params *p = slc__ev_mp(ev);

	return ev->capacity_bytes > 0 ? fmin(p->buffer_frac * ev->capacity_bytes, p->buffer_max) : 0;
}

/* "under X (the parameter that sets X)" for the buffer's bound, in @buf. */
static const char *buffer_words(const struct slc_phase_evidence *ev, char *buf, size_t n)
{
	const struct slc_model_params *p = slc__ev_mp(ev);
	double lim = slc__buffer_limit(ev);
	char a[32];

	if (lim < p->buffer_frac * ev->capacity_bytes)
		snprintf(buf, n, "under %s (%s)", fmt_si(a, sizeof(a), lim, "B"), pname(p, &p->buffer_max));
	else
		snprintf(buf, n, "under %.1f%% of the capacity (%s)", 100 * p->buffer_frac, pname(p, &p->buffer_frac));
	return buf;
}

/*
 * When the evidence rules out every reading that fits: the drive's counters
 * over the first level, if they show the flash programming conflict_wa or
 * more for each host byte.  The bounds that ruled the readings out count
 * host bytes; such a drive uses up its erased blocks that many times sooner.
 */
static void conflict_wa_note(const struct mctx *c, struct ex *e)
{
	const struct slc_phase_evidence *ev = c->ev;
	const struct trace *tr = c->tr;
	double t0, t1, reach = 0, wa;
	char a[32];

	if (ev->n_ctr < 2 || !ev->ctr_t_s || !ev->ctr_host || !ev->ctr_nand || c->ng < 1) return;
	t0 = slc__t_start(tr, c->b[c->g[0].first].i0);
	t1 = tr->t[c->b[c->g[0].last].i1 - 1];
	for (size_t i = 1; i < ev->n_ctr; i++) reach = fmax(reach, ev->ctr_t_s[i] - ev->ctr_t_s[i - 1]);
	/* the part of the level the readings cover */
	t0 = fmax(t0, ev->ctr_t_s[0]);
	t1 = fmin(t1, ev->ctr_t_s[ev->n_ctr - 1]);
	wa = slc_write_amplification(ev->ctr_t_s, ev->ctr_host, ev->ctr_nand, ev->n_ctr, t0, t1, reach);
	if (!(wa >= c->p->conflict_wa)) return;
	exf(e, "the drive's counters: %.1f NAND bytes for each host byte over the first %s (%s %.1f), where "
	       "writing onto erased flash programs about one; the bounds count host bytes, so this drive "
	       "runs out of erased blocks %.1f times sooner than they allow (a mapping unit larger than "
	       "the writes?)", wa, fmt_si(a, sizeof(a), g_end_bytes(c, 0), "B"), pname(c->p, &c->p->conflict_wa),
	    c->p->conflict_wa, wa);
}

/* The bytes the first level wrote beyond what the second level's speed
 * writes in its time: what a write buffer ran ahead (buffer_burst()). */
static double buffer_excess(const struct group *g)
{
	return g[0].bytes - g[1].level * g[0].dur_s;
}

/* The reference term: how well a level matches the run's main curve. */
static double ref_term(const struct mctx *c, double level, double ref, const char *what,
		       struct ex *e)
{
	double z, t;
	char a[32], r[32];

	if (!(ref > 0) || !(level > 0)) return 0;
	z = log(level / ref) / c->p->ref_sd;
	t = fmax(-0.5 * z * z, -c->p->ref_cap);
	exf(e, "  %s at %s against the main curve's %s (%s %+.1f)", what,
	    fmt_si(a, sizeof(a), level, "B/s"), fmt_si(r, sizeof(r), ref, "B/s"), pname(c->p, &c->p->ref_sd), t);
	return t;
}

/*
 * The longest slow stretch inside the cache's top level (groups [0, top))
 * that the drive came back from while writing went on: a running median
 * of tail_smooth samples under (1 - delta_cache) of the level's 90th
 * percentile (its speed when nothing slows it), followed by one at or
 * above that before the level ends.  Its covered time in *dur and its mean
 * speed in *level; 0 and NAN without one.
 */
static void recovered_stretch(const struct mctx *c, size_t top, double *dur, double *level)
{
	const struct trace *tr = c->tr;
	size_t i0 = c->b[c->g[0].first].i0, i1 = c->b[c->g[top - 1].last].i1;
	size_t w = c->p->tail_smooth, run0 = 0;
	double thr = (1 - c->p->delta_cache) * c->g[0].p90;
	int in = 0;

	*dur = 0;
	*level = NAN;
	if (w < 1 || i1 < i0 + 2 * w) return;
	for (size_t i = i0 + w / 2; i + w / 2 < i1; i++) {
		int slow = window_median(tr, i, w) < thr;

		if (slow && !in) {
			in = 1;
			run0 = i;
		} else if (!slow && in) {
			double d = slc__covered(tr, slc__t_start(tr, run0), tr->t[i - 1]);

			in = 0;
			if (d > *dur) {
				*dur = d;
				*level = slc__level(tr, run0, i);
			}
		}
	}
}

/*
 * A drive that slows to the level after its top speed and comes back
 * while writing goes on (garbage collection or a flush on a drive without
 * an SLC cache) shows it can do so; when the run ends no longer after the
 * drop from that speed (at the end of groups [0, top)) than such a stretch
 * lasted, and the stretch was about as slow as what follows the drop, the
 * drop may be the next one cut off by the end: only a longer run tells a
 * cache's end from it.  1 when so, the figures in @x.
 */
struct tail_like {
	double dur, level;	/* the stretch that came back */
	double tail, after;	/* time from the drop to the end; the level after it */
};

static int tail_like_stretch(const struct mctx *c, size_t top, struct tail_like *x)
{
	const struct trace *tr = c->tr;

	if (top < 1 || top >= c->ng) return 0;
	x->after = c->g[top].level;
	x->tail = slc__covered(tr, slc__t_start(tr, c->b[c->g[top].first].i0), tr->t[tr->n - 1]);
	recovered_stretch(c, top, &x->dur, &x->level);
	return x->dur > 0 && x->tail <= x->dur && slc__reldiff(x->level, x->after) < c->p->delta_cache;
}

/* The jump cost of the drop from the first level to the second (a reading
 * without a cache takes no group for the cache back). */
static double first_jump(const struct mctx *c)
{
	const struct group *g = c->g;

	if (c->ng < 2) return 0;
	return fmin(g[0].level, g[1].level) < c->p->decay_step_min * fmax(g[0].level, g[1].level) ?
		       merge_cost(g, 0, 2) : 0;
}

/*
 * Does the recovered stretch bear on reading @r (in its own context @c)?
 * A cache reading's drop from its top speed (the end of its first tier, or
 * of its one merged level) is then no proof of the cache's end; a reading
 * without a cache owes no jump for that drop.  The figures in @x.
 */
static int tail_fires(const struct mctx *c, const struct cand *r, struct tail_like *x)
{
	if (r->k > 0) return r->k < c->ng && tail_like_stretch(c, r->merged ? r->k : 1, x);
	return r->o == c->ng && first_jump(c) > 0 && tail_like_stretch(c, 1, x);
}

static double tail_term(const struct mctx *c, const struct cand *r, struct ex *e)
{
	struct tail_like x;
	char a[32], b2[32];

	if (!tail_fires(c, r, &x)) return 0;
	exf(e, "  a slow stretch of %.3g s at %s inside the cache came back under writing; the run ends %.3g s "
	       "after the drop to %s: maybe the next such stretch, a longer run would tell (%s %+.1f)",
	    x.dur, fmt_si(a, sizeof(a), x.level, "B/s"), x.tail, fmt_si(b2, sizeof(b2), x.after, "B/s"),
	    pname(c->p, &c->p->tail_cost), -c->p->tail_cost);
	return -c->p->tail_cost;
}

/* The cache's terms of reading @r (k > 0): the capacity's bound, the
 * prior, tiers or one merged level, the step to what follows, the main
 * curve's cache speed.  -INFINITY when the evidence rules it out. */
static double cache_terms(struct mctx *c, const struct cand *r, double c1, struct ex *e)
{
	const struct group *g = c->g;
	const struct slc_model_params *p = c->p;
	const struct slc_phase_evidence *ev = c->ev;
	size_t ng = c->ng, k = r->k;
	double s = 0, t;
	char a[32], b2[32], c2[32], pb[48], bw[96];
	double cb = g_end_bytes(c, k - 1), lim = slc__cache_limit(c->ev);

	if (cb > lim) {
		exf(e, "  a cache of %s cannot be: %s of %s flash hold at most %s in SLC mode",
		    fmt_si(a, sizeof(a), cb, "B"), fmt_si(b2, sizeof(b2), ev->capacity_bytes, "B"),
		    slc_cell_name(ev->cell), fmt_si(c2, sizeof(c2), lim, "B"));
		c->excluded = 1;
		if (!c->ignore_evidence) return -INFINITY;
	}
	t = log(p->prior_cache / (1 - p->prior_cache));
	s += t;
	exf(e, "  most drives have an SLC cache (%s %+.1f)", pname(p, &p->prior_cache), t);
	if (cb < slc__buffer_limit(ev)) {
		s -= p->buffer_cost;
		exf(e, "  %s is %s: a DRAM write buffer more likely than an SLC cache (%s %+.1f)",
		    fmt_si(a, sizeof(a), cb, "B"), buffer_words(ev, bw, sizeof(bw)), pname(p, &p->buffer_cost),
		    -p->buffer_cost);
	} else if (k >= 2 && !r->merged && g[0].level > g[1].level && buffer_excess(g) < slc__buffer_limit(ev)) {
		s -= p->buffer_cost;
		exf(e, "  a first tier of %s (%s beyond the second's speed) is %s: "
		       "a DRAM write buffer more likely than a tier (%s %+.1f)", fmt_si(a, sizeof(a), g_end_bytes(c, 0), "B"),
		    fmt_si(b2, sizeof(b2), buffer_excess(g), "B"), buffer_words(ev, bw, sizeof(bw)),
		    pname(p, &p->buffer_cost), -p->buffer_cost);
	}
	if (c->decay_first) {
		s -= p->decay_first;
		exf(e, "  the curve decays right after its first level, as a drive without cache (%s %+.1f)",
		    pname(p, &p->decay_first), -p->decay_first);
	}
	if (r->merged) {
		t = -merge_cost(g, 0, k);
		s += t;
		exf(e, "  one cache level across %zu levels, its noise (%+.1f)", k, t);
	}
	for (size_t q = 1; q < k && !r->merged; q++) {
		/* steady writing at a tier's ratio is a tier's; below the
		 * drives' range, steady native writing (a fast-native drive
		 * at half the cache's speed) is as likely: the tail alone */
		double rt = g[q].level / g[q - 1].level;

		t = lratio(rt, &p->tier) + (rt >= p->tier.lo ? p->tier_steady : 0);
		s += t;
		exf(e, "  tier %zu at %.2f of tier %zu, %s, faster than "
		       "what follows it (%s%s %+.1f)", q + 1, rt, q,
		    rt >= p->tier.lo ? "as steady as the first" : "slower than tiers are",
		    prior_name(pb, sizeof(pb), p, &p->tier.lo), rt >= p->tier.lo ? ", tier_steady" : "", t);
	}
	if (k < ng) {
		double cl = r->merged ? c1 : g[k - 1].level, rr = g[k].level / cl;

		t = lratio(rr, &p->cache_native);
		s += t;
		exf(e, "  the cache at %s, then %s: ratio %.2f (%s %+.1f)",
		    fmt_si(a, sizeof(a), cl, "B/s"), fmt_si(b2, sizeof(b2), g[k].level, "B/s"), rr,
		    prior_name(pb, sizeof(pb), p, &p->cache_native.lo), t);
		size_t visits;

		t = visited(c, k, g[k].level, &visits);
		/* again and again: one visit is an excursion (throttling) */
		if (t >= p->visit_frac && visits >= 2) {
			s -= p->visit_cost;
			exf(e, "  %.0f%% of the cache's samples were already at %s and came back: a dip, not "
			       "the cache's end (%s %+.1f)", 100 * t, fmt_si(a, sizeof(a), g[k].level, "B/s"),
			    pname(p, &p->visit_cost), -p->visit_cost);
		}
		s += tail_term(c, r, e);
	} else {
		exf(e, "  the cache lasts the whole segment: it was not used up");
	}
	s += ref_term(c, c1, ev->ref_cache_bps, "cache", e);
	return s;
}

/*
 * The jumps between levels inside the native and the erase-bound phases
 * of reading @r.  Without a cache, a drop at the end like a slow stretch
 * the drive came back from is more of the same, not a phase.
 */
static double jump_term(const struct mctx *c, const struct cand *r, const unsigned char *rec, struct ex *e)
{
	double t = -jump_cost(c->p, c->g, r->k, r->o, rec) - jump_cost(c->p, c->g, r->o, c->ng, rec);
	struct tail_like x;
	char a[32];

	if (r->k == 0 && tail_fires(c, r, &x)) {
		/* the drop from the first level only; later jumps still cost */
		double d = first_jump(c);

		exf(e, "  the drop to %s %.3g s before the end is like the %.3g s slow stretch the drive "
		       "came back from: no phase of its own (%+.1f)", fmt_si(a, sizeof(a), x.after, "B/s"),
		    x.tail, x.dur, 0.0);
		t += d;
	}
	if (t < 0) exf(e, "  levels that jump inside one phase (%+.1f)", t);
	return t;
}

/*
 * An onset this early needs a drive written over before, when neither its
 * state nor its capacity is known.  On a drive that started erased, half
 * the flash is in use no sooner than slc__min_onset() says, so an onset at
 * @onset host bytes after a cache of @cache bytes implies a capacity of at
 * most (onset + cache x (bits - 1)) / trim_onset_caps.  A write test puts
 * at most fresh_caps_max capacities on a drive (SNIA PTS's write
 * saturation test runs to 4x; the lab's two hours write 1-3.5x); a reading
 * whose segment writes more than that many of its largest capacity costs
 * what erase-bound writing from the start costs.
 */
static double early_onset(struct mctx *c, double onset, double cache, struct ex *e)
{
	const struct slc_model_params *p = c->p;
	double bits = c->ev->cell != SLC_CELL_UNKNOWN ? (double)c->ev->cell : p->onset_bits_unknown;
	double cap = (onset + cache * (bits - 1)) / p->trim_onset_caps, total = g_end_bytes(c, c->ng - 1);
	char a[32], b[32];

	if (c->ev->state != SLC_STATE_UNKNOWN || c->ev->capacity_bytes > 0 || !(cap > 0)) return 0;
	if (total <= p->fresh_caps_max * cap) return 0;
	exf(e, "  erase-bound from %s on a fresh drive means at most %s of flash, written %.0f times over: "
	       "it needs a drive written full before (%s %+.1f)", fmt_si(a, sizeof(a), onset, "B"),
	    fmt_si(b, sizeof(b), cap, "B"), total / cap, pname(p, &p->no_native_unknown), -p->no_native_unknown);
	return -p->no_native_unknown;
}

/*
 * Where the drive's counters show garbage collection begin (trace.ctr_onset:
 * the speed's first reading had no onset there), a reading without an
 * erase-bound phase from within counter_near of it leaves out what the
 * counters see directly; the speed shows it later, or not at all while a
 * free pool of mostly invalid blocks is cheap to clean.
 */
static double counter_term(const struct mctx *c, const struct cand *r, struct ex *e)
{
	const struct slc_model_params *p = c->p;
	double on = c->tr->ctr_onset, ob = r->o < c->ng ? g_start_bytes(c, r->o) : NAN;
	char a[32];

	if (!(on > 0) || !p->counter_cost || (isfinite(ob) && fabs(ob - on) <= p->counter_near * on)) return 0;
	exf(e, "  the drive's counters show garbage collection from %s: a reading without an onset there "
	       "leaves it out (%s %+.1f)", fmt_si(a, sizeof(a), on, "B"), pname(p, &p->counter_cost), -p->counter_cost);
	return -p->counter_cost;
}

/*
 * Score of the reading with @k cache tiers (groups [0, k)), native groups
 * [k, o) and erase-bound groups [o, ng).  -INFINITY when the evidence rules
 * it out.  With @e, each term is written down.
 */
static double score_groups(struct mctx *c, const struct cand *r, struct ex *e)
{
	const struct group *g = c->g;
	const struct slc_model_params *p = c->p;
	size_t ng = c->ng, k = r->k, o = r->o, od = r->od;
	double s = 0, later = 0, t, c1 = k > 0 ? cache_level(g, r) : 0, after;
	char a[32], b2[32], c2[32], pb[48];
	const struct slc_phase_evidence *ev = c->ev;

	/* cache tiers: each faster than everything after them, steady; or one
	 * noisy cache level that the consolidation split */
	unsigned char *rec = c->rec;
	size_t nrec = 0;

	nrec = rec_mask(c, r, rec);
	after = k > 0 && k < ng ? slc__span_of(g, k, ng).level : 0;
	for (size_t q = k; q < ng; q++)
		if (!rec[q] && !(k > 0 && native_burst(p, g, ng, k, q, c1, after))) later = fmax(later, g[q].level);
	if ((r->rec && !nrec) || (o < ng && rec[o])) return -INFINITY;
	if (r->merged) {
		double top = 0;

		if (k < 2 || c1 <= (1 + p->delta_cache) * later) return -INFINITY;
		for (size_t q = 0; q < k; q++) top = fmax(top, g[q].level);
		/* one noisy level: its parts within a factor merge_span */
		for (size_t q = 0; q < k; q++)
			if (g[q].level <= (1 + p->delta_cache) * later || g[q].level < top / p->merge_span)
				return -INFINITY;
	} else {
		for (size_t q = 0; q < k; q++) {
			if (g[q].level <= (1 + p->delta_cache) * later) return -INFINITY;
			if (q > 0 && !tier_ok(c, q)) return -INFINITY;
		}
		if (k > 0 && (g[0].decay & DECAY_OWN)) return -INFINITY;
	}
	if (k == ng && !(ev->ref_cache_bps > 0)) return -INFINITY;
	if (o < k) return -INFINITY;
	/* the data's onset, or none, or (with a single level after the cache)
	 * that level erase-bound from the start */
	if (o == k && o < ng && ng > k + 1 && g[k + 1].level < p->decay_step_min * g[k].level)
		return -INFINITY;

	if (k > 0) {
		t = cache_terms(c, r, c1, e);
		if (t == -INFINITY) return -INFINITY;
		s += t;
	}
	if (o == k && o < ng) {
		/* no native phase: the flash had no erased blocks left */
		if (ev->state == SLC_STATE_TRIMMED) {
			exf(e, "  right after a TRIM writing cannot be erase-bound from the start");
			c->excluded = 1;
			if (!c->ignore_evidence) return -INFINITY;
		}
		if (ev->state == SLC_STATE_UNKNOWN) {
			s -= p->no_native_unknown;
			exf(e, "  erase-bound from the start needs a drive written full before (%s %+.1f)",
			    pname(p, &p->no_native_unknown), -p->no_native_unknown);
		}
	}
	if (o > k) s += ref_term(c, g[k].level, ev->ref_native_bps, "native level", e);
	if (o < ng) {
		double ob = g_start_bytes(c, o), need;
		double en = span_mean(g, o, ng), nn = o > k ? span_mean(g, k, o) : NAN;

		need = slc__min_onset(ev, k > 0 ? g_end_bytes(c, k - 1) : 0);
		if (need > 0) {
			if (ob < need) {
				exf(e, "  erase-bound from %s cannot be: after a TRIM of %s most blocks stay erased "
				       "for at least %s", fmt_si(a, sizeof(a), ob, "B"),
				    fmt_si(b2, sizeof(b2), ev->capacity_bytes, "B"), fmt_si(c2, sizeof(c2), need, "B"));
				c->excluded = 1;
				if (!c->ignore_evidence) return -INFINITY;
			}
		}
		if (o > k) s += early_onset(c, ob, k > 0 ? g_end_bytes(c, k - 1) : 0, e);
		if (o > k && nn > 0 && en > 0) {
			t = lratio(en / nn, &p->native_erase);
			s += t;
			exf(e, "  erase-bound at %.2f of the native level (%s %+.1f)", en / nn,
			    prior_name(pb, sizeof(pb), p, &p->native_erase.lo), t);
		} else if (o == k && ev->ref_native_bps > 0 && en > 0) {
			t = lratio(en / ev->ref_native_bps, &p->native_erase);
			s += t;
			exf(e, "  erase-bound at %.2f of the main curve's native level (%s %+.1f)",
			    en / ev->ref_native_bps, prior_name(pb, sizeof(pb), p, &p->native_erase.lo), t);
		}
		for (size_t q = o; q < ng; q++)
			if (g[q].decay & (DECAY_OWN | DECAY_RUN)) {
				s += p->decay_bonus;
				exf(e, "  it decays, as garbage collection sets in (%s %+.1f)",
				    pname(p, &p->decay_bonus), p->decay_bonus);
				break;
			}
		s += ref_term(c, g[o].level, ev->ref_erase_bps, "erase-bound level", e);
	}
	s += counter_term(c, r, e);
	/* the likelihood: within a native or an erase-bound phase the speed
	 * wanders, drifts or decays in small steps; a jump between two of its
	 * levels is a phase change the reading leaves out */
	if (nrec) {
		s -= p->rec_cost;
		exf(e, "  %zu later level%s at the cache's speed: the cache back during the fill (%s %+.1f)", nrec,
		    nrec > 1 ? "s" : "", pname(p, &p->rec_cost), -p->rec_cost);
	}
	s += jump_term(c, r, rec, e);
	/* ... and a native phase does not fall for good: one across the
	 * data's lasting drop pays for it */
	if (od < ng && od > k && o > od) {
		t = -merge_cost(g, k, o);
		s += t;
		exf(e, "  one native level across the lasting drop at %s (%+.1f)",
		    fmt_si(a, sizeof(a), g_start_bytes(c, od), "B"), t);
	}
	return s;
}

/*
 * A write buffer's burst.  A drive acknowledges the first writes of a
 * burst from its DRAM at the link's speed while the flash catches up:
 * tens of milliseconds of the flash's work, a few hundred MB at most.  An
 * SLC cache, and a tier of one, is made of whole blocks on every die: 1-3%
 * of the capacity on the reviewed drives (2.3 GB of 240 GB, 3.5 GB per
 * 240 GB, 54 GB of 2 TB).  So with the capacity known, a first level under
 * buffer_frac of it and faster than the next may be read as the buffer's
 * burst: no phase of its own, its samples the next level's.  What the
 * buffer holds is the burst's excess over the next level (buffer_excess()),
 * not all it wrote: sampled finely, the segmentation spreads a few MB of
 * excess over a few samples that wrote several times as much.  Readings of
 * it as a cache or as a first tier pay buffer_cost (cache_terms()).
 */
static int buffer_burst(const struct mctx *c)
{
	const struct slc_phase_evidence *ev = c->ev;

	return c->ng >= 2 && buffer_excess(c->g) < slc__buffer_limit(ev) &&
	       c->g[0].level > (1 + c->p->delta_cache) * c->g[1].level;
}

static double score(struct mctx *c, const struct cand *r, struct ex *e)
{
	struct cand r0 = *r;
	double s;
	char a[32], b[32], x[32], w[96];

	if (!r->buf) return score_groups(c, r, e);
	exf(e, "  %s at %s at the start, %s of it beyond the next level's speed: %s, "
	       "a DRAM write buffer's burst, no phase of its own (+0.0)", fmt_si(a, sizeof(a), g_end_bytes(c, 0), "B"),
	    fmt_si(b, sizeof(b), c->g[0].level, "B/s"), fmt_si(x, sizeof(x), buffer_excess(c->g), "B"),
	    buffer_words(c->ev, w, sizeof(w)));
	r0.buf = 0;
	c->sub->excluded = 0;
	c->sub->ignore_evidence = c->ignore_evidence;
	s = score_groups(c->sub, &r0, e);
	c->excluded |= c->sub->excluded;
	return s;
}

/*
 * After a TRIM of the whole target no erase-bound writing can start while
 * most of the flash is still erased.  A host byte written directly uses a
 * byte of flash; one written to the SLC cache uses bits-per-cell bytes of
 * native capacity until it is folded.  With a cache of @cache_bytes, half
 * the flash is in use no sooner than after
 *   trim_onset_caps x capacity - cache_bytes x (bits - 1)
 * host bytes (onset_bits_unknown when the cell type is unknown: 4, the
 * weakest bound).
 * 0 when the drive was not trimmed or its size is unknown.
 */
double slc__min_onset(const struct slc_phase_evidence *ev, double cache_bytes)
{
	const struct slc_model_params *p = slc__ev_mp(ev);
	double bits = ev->cell != SLC_CELL_UNKNOWN ? (double)ev->cell : p->onset_bits_unknown;

	if (ev->state != SLC_STATE_TRIMMED || !(ev->capacity_bytes > 0)) return 0;
	return fmax(0, p->trim_onset_caps * ev->capacity_bytes -
		       (isfinite(cache_bytes) ? cache_bytes : 0) * (bits - 1));
}

/* The reading (k, o) as a labelling summary. */
static struct slc_labelling reading(const struct mctx *c0, const struct cand *r)
{
	const struct mctx *c = ctx_of(c0, r);
	struct slc_labelling l = { 0 };
	size_t k = r->k, o = r->o;
	double sc = r->score;

	l.valid = 1;
	l.tiers = r->merged ? 1 : (unsigned)k;
	l.native = o > k;
	l.erase_bound = o < c->ng;
	l.cache_bytes = k > 0 ? g_end_bytes(c, k - 1) : NAN;
	l.onset_bytes = o < c->ng ? g_start_bytes(c, o) : NAN;
	l.log_score = sc;
	l.buffer_bytes = r->buf ? g_end_bytes(c0, 0) : 0;
	return l;
}

const char *slc__reading_words(char *w, size_t n, const struct slc_labelling *l)
{
	char a[32], b[32];

	if (l->tiers) snprintf(w, n, "a cache of %s in %u tier%s%s%s%s", fmt_si(a, sizeof(a), l->cache_bytes, "B"),
			       l->tiers, l->tiers > 1 ? "s" : "", l->native ? ", then native" : "",
			       l->erase_bound ? ", erase-bound from " : "",
			       l->erase_bound ? fmt_si(b, sizeof(b), l->onset_bytes, "B") : "");
	else snprintf(w, n, "no cache%s%s%s", l->native ? ", native" : "", l->erase_bound ? ", erase-bound from " : "",
		      l->erase_bound ? fmt_si(b, sizeof(b), l->onset_bytes, "B") : "");
	return w;
}

static void describe(struct ex *e, const struct slc_labelling *l)
{
	char a[32], w[128];

	if (l->buffer_bytes > 0) exf(e, "reading: a write buffer's burst of %s, then:",
				     fmt_si(a, sizeof(a), l->buffer_bytes, "B"));
	exf(e, "reading: %s", slc__reading_words(w, sizeof(w), l));
}

/* The readings the evidence ruled out, each with its reason. */
static void explain_excluded(struct mctx *c, const struct cand *cs, size_t nc, struct ex *e)
{
	for (size_t i = 0; i < nc; i++) {
		char tmp[512];
		struct ex t = { tmp, sizeof(tmp), 0 };
		struct slc_labelling l;

		if (isfinite(cs[i].score)) continue;
		c->excluded = 0;
		tmp[0] = 0;
		score(c, cs + i, &t);
		if (!c->excluded) continue;
		l = reading(c, cs + i);
		describe(e, &l);
		exf(e, "  ruled out by the evidence:");
		if (t.len) {
			/* the last line is the reason */
			char *r = tmp + t.len - 1, *st;
			*r = 0;
			st = strrchr(tmp, '\n');
			exf(e, "%s", st ? st + 1 : tmp);
		}
	}
}

/*
 * The data's onset for a reading that takes some later levels for the
 * cache back: searched over the groups without them (a level at the
 * cache's speed inside the native writing would make the writing after it
 * look like a lasting drop).  The result is an index into all the groups.
 */
static size_t onset_without_rec(struct mctx *c, const struct cand *r)
{
	const struct group *g = c->g;
	size_t ng = c->ng, n = 0, *map = c->map, on;
	struct group *gc = c->gc;

	rec_mask(c, r, c->rec);
	for (size_t q = 0; q < ng; q++) {
		if (c->rec[q]) continue;
		map[n] = q;
		gc[n++] = g[q];
	}
	map[n] = ng;
	on = r->k < n ? map[slc__erase_onset(c->p, gc, r->k, n)] : ng;
	return on;
}

/*
 * The level after @k cache groups that begins nearest the onset the curve
 * binned to coarse_s reads (ng: none).  Sampled finer than a second, a
 * drive's bursts, stalls and wander make hundreds of levels (a DRAM-less
 * drive's comb at 0.25 s: 268), and the data's onset rule picks a drop
 * between two of them; binned, they average into the phases' levels, and
 * the bins' onset is the model's to score like any other.  Only when the
 * binned curve reads the cache as this reading does (within
 * coarse_onset_bins bins, as coarse_onset() asks): else its onset belongs
 * to another reading of the start.
 */
static size_t binned_group(const struct mctx *x, size_t k)
{
	double on = x->tr->binned_onset, best = INFINITY, cache = k ? g_end_bytes(x, k - 1) : 0;
	size_t q = x->ng;

	/* the binned curve reads the cache as this reading does, within
	 * coarse_onset_bins bins: else its levels are another reading's */
	if (!(x->tr->binned_bin > 0) || !isfinite(on) ||
	    fabs(cache - x->tr->binned_cache) > x->p->coarse_onset_bins * x->tr->binned_bin)
		return x->ng;
	for (size_t i = k + 1; i < x->ng; i++) {
		double d = fabs(g_start_bytes(x, i) - on);
		if (d < best) {
			best = d;
			q = i;
		}
	}
	return q;
}

/* The first level after group @k that starts at a step of kind @kind
 * (SLC__STEP_*: a small lasting step, where the counters show garbage
 * collection begin; never the first samples' edge), or x->ng. */
static size_t step_group(const struct mctx *x, size_t k, int kind)
{
	size_t q = k + 1;

	while (q < x->ng && x->g[q].step != kind) q++;
	return q < x->ng ? q : x->ng;
}

/* The candidate readings of @x's groups (flagged @buf): for each k, the
 * data's onset, none, none before the erase-bound regime, the next
 * lasting drop after the data's onset, the level nearest the binned
 * curve's onset (binned_group()), the first small lasting step's and the
 * counters' (step_group(); distinct values only); k >= 2
 * cache groups also as one merged level (k up to SLC__MODEL_MMAX, only so
 * above tiers_max); k >= 1 also with the cache back.  Scored in @c. */
static size_t candidates_of(struct mctx *c, struct mctx *x, int buf, struct cand *cs)
{
	size_t ng = x->ng, kmax = ng < SLC__MODEL_MMAX ? ng : SLC__MODEL_MMAX, nc = 0;

	for (size_t k = 0; k <= kmax; k++) {
		size_t os[8];

		x->onset[k] = k < ng ? slc__erase_onset(x->p, x->g, k, ng) : ng;
		for (int rc = 0; rc <= (k >= 1); rc++)
			/* tiers up to KMAX; more cache groups only as one level */
			for (int m = k > c->p->tiers_max; m <= (k >= 2); m++) {
				struct cand r = { k, ng, m, rc, 0, 0, buf };
				os[0] = rc ? onset_without_rec(x, &r) : x->onset[k];
				os[1] = ng;
				os[2] = k;
				/* the next lasting drop, when the evidence rules the
				 * first out (a write buffer's burst at the start) */
				os[3] = !rc && os[0] + 1 < ng ? slc__erase_onset(x->p, x->g, os[0], ng) : ng;
				/* without a cache, the first drop as the onset: the
				 * drop a one-tier cache would end at is read both
				 * ways, whatever the data's onset rule says of it;
				 * so too after a cache of the first samples only
				 * (trace.lead), which the reading without it saw */
				os[4] = (k == 0 || (k == 1 && x->tr->lead && !buf)) && k + 1 < ng ? k + 1 : ng;
				os[5] = binned_group(x, k);
				os[6] = step_group(x, k, SLC__STEP_SMALL);
				os[7] = step_group(x, k, SLC__STEP_COUNTER);
				int offered[8] = { 0 };

				for (int i = 0, first = -1; i < 8; i++) {
					int seen = 0;

					for (int h = 0; h < i && i >= 5; h++) seen |= offered[h] && os[h] == os[i];
					if (i >= 5 && (os[i] == ng || seen)) continue;
					if ((i == 1 && os[1] == os[0]) || (i == 2 && (os[2] == os[0] || os[2] == ng)) ||
					    (i == 3 && (os[3] == os[0] || os[3] == ng || first < 0 ||
							isfinite(cs[first].score))) ||
					    (i == 4 && (os[4] == ng || os[4] == os[0] || os[4] == os[3])))
						continue;
					if (i == 0) first = (int)nc;
					offered[i] = 1;
					cs[nc] = (struct cand){ k, os[i], m, rc, 0, os[0], buf };
					cs[nc].score = score(c, cs + nc, NULL);
					nc++;
				}
			}
	}
	return nc;
}

/* All the candidate readings: of all the groups, and of those after a
 * write buffer's burst when there may be one. */
static size_t candidates(struct mctx *c, struct cand *cs)
{
	size_t nc = candidates_of(c, c, 0, cs);

	if (c->sub) nc += candidates_of(c, c->sub, 1, cs + nc);
	return nc;
}

static int same_reading(const struct slc_labelling *x, const struct slc_labelling *y)
{
	return x->tiers == y->tiers && x->native == y->native && x->erase_bound == y->erase_bound &&
	       (x->buffer_bytes > 0) == (y->buffer_bytes > 0) &&
	       (x->onset_bytes == y->onset_bytes || (isnan(x->onset_bytes) && isnan(y->onset_bytes))) &&
	       (x->cache_bytes == y->cache_bytes || (isnan(x->cache_bytes) && isnan(y->cache_bytes)));
}

/* The groups reading @r takes for the cache back, in its own context. */
static void mask_of(const struct mctx *c, const struct cand *r, unsigned char *mask)
{
	const struct mctx *x = ctx_of(c, r);

	rec_mask(x, r, mask);
}

/* The kind (and in @tier the cache tier) reading @r gives group @q of all
 * the groups, @rec from mask_of().  A write buffer's burst takes the kind
 * of the level after it. */
static int kind_of(size_t q, const struct cand *r, const unsigned char *rec, unsigned *tier)
{
	size_t x = r->buf && q > 0 ? q - 1 : q;
	int kind = x < r->k || rec[x] ? SLC_PHASE_SLC_CACHE :
		   x >= r->o ? SLC_PHASE_ERASE_BOUND : SLC_PHASE_DIRECT_TO_TLC;

	if (tier) *tier = x < r->k ? (r->merged ? 1 : (unsigned)x + 1) : kind == SLC_PHASE_SLC_CACHE;
	return kind;
}

/* Each group's confidence: the posterior weight of the readings that give
 * it the best reading's kind. */
static void group_confidence(const struct mctx *c, const struct cand *cs, size_t nc, const struct cand *best,
			     double tot, double *conf, unsigned char *mb, unsigned char *mi)
{
	size_t ng = c->ng;

	mask_of(c, best, mb);
	for (size_t q = 0; q < ng; q++) conf[q] = 0;
	for (size_t i = 0; i < nc; i++) {
		if (!isfinite(cs[i].score)) continue;
		mask_of(c, cs + i, mi);
		for (size_t q = 0; q < ng; q++)
			if (kind_of(q, cs + i, mi, NULL) == kind_of(q, best, mb, NULL))
				conf[q] += exp(cs[i].score - best->score);
	}
	for (size_t q = 0; q < ng; q++) conf[q] = tot > 0 ? fmin(1, conf[q] / tot) : 1;
}

/* candidates_of() makes at most 2 (the cache back or not) x 2 (merged or
 * not) x 8 (onsets) readings for each k <= SLC__MODEL_MMAX, for all the
 * groups and for those after a write buffer's burst */
enum { CANDS_MAX = 2 * (SLC__MODEL_MMAX + 1) * 2 * 2 * 8 };

/*
 * What would decide between the best reading and the close runner-up: the
 * options not given when the two differ in the cache or the onset (the
 * flash bounds the cache; the onset comes after about one capacity
 * written; a write buffer's burst is told from a tier by its share of the
 * capacity); the drive's state when they differ in the erase-bound phase
 * and it is unknown; a longer run when the recovered stretch bears on
 * either (tail_fires, in the reading's own context).
 */
static unsigned settle_of(const struct mctx *c, const struct cand *best, const struct cand *ru,
			  const struct slc_labelling *lb, const struct slc_labelling *lr)
{
	const struct slc_phase_evidence *ev = c->ev;
	const struct cand *r[2] = { best, ru };
	unsigned f = 0;

	if (lb->tiers != lr->tiers || lb->erase_bound != lr->erase_bound ||
	    slc__reldiff(lb->cache_bytes, lr->cache_bytes) > c->p->delta_same ||
	    slc__reldiff(lb->onset_bytes, lr->onset_bytes) > c->p->delta_same ||
	    slc__reldiff(lb->buffer_bytes, lr->buffer_bytes) > c->p->delta_same) {
		if (!(ev->capacity_bytes > 0)) f |= SLC_SETTLE_CAPACITY;
		if (ev->cell == SLC_CELL_UNKNOWN) f |= SLC_SETTLE_CELL;
		if (ev->state == SLC_STATE_UNKNOWN && lb->erase_bound != lr->erase_bound) f |= SLC_SETTLE_STATE;
	}
	for (int i = 0; i < 2; i++) {
		struct tail_like x;
		struct cand r0 = *r[i];

		r0.buf = 0;
		if (tail_fires(ctx_of(c, r[i]), &r0, &x)) f |= SLC_SETTLE_LONGER_RUN;
	}
	return f;
}

/* What a reading owns in @mi, afresh: the levels may be read again (the
 * first samples or a small step made levels of their own). */
static void fresh_record(struct slc_model_info *mi)
{
	memset(&mi->best, 0, sizeof(mi->best));
	memset(&mi->runner_up, 0, sizeof(mi->runner_up));
	mi->confidence = 0;
	mi->conflict = mi->no_fit = mi->close_call = 0;
	mi->settle = 0;
}

int slc__model_label(const struct trace *tr, struct block *b, struct group *g, size_t ng,
		     const struct slc_phase_evidence *ev, struct slc_model_info *mi,
		     double *group_conf)
{
	struct mctx c = { tr, b, g, ng, ev, slc__mp(tr), 0, { 0 }, 0, NULL, 0, NULL, NULL, NULL }, sub;
	struct cand cs[CANDS_MAX], best = { 0, ng, 0, 0, -INFINITY, ng, 0 }, ru = best;
	double tot = 0;
	size_t nc, have_ru = 0;
	struct ex e = { mi->explain, sizeof(mi->explain), 0 };
	char a[32], a2[32];

	fresh_record(mi);
	c.decay_first = decays_after_first(c.p, g, ng);
	c.rec = malloc(2 * (ng ? ng : 1));
	c.gc = malloc((ng ? ng : 1) * sizeof(*c.gc));
	c.map = malloc((ng + 1) * sizeof(*c.map));
	if (!c.rec || !c.gc || !c.map) {
		free(c.rec);
		free(c.gc);
		free(c.map);
		return -ENOMEM;
	}
	if (buffer_burst(&c)) {
		sub = c;
		sub.g = g + 1;
		sub.ng = ng - 1;
		sub.decay_first = decays_after_first(sub.p, sub.g, sub.ng);
		c.sub = &sub;
	}
	nc = candidates(&c, cs);
	for (size_t i = 0; i < nc; i++) {
		if (cs[i].score > best.score) best = cs[i];
	}
	if (best.score == -INFINITY) {
		/* nothing fits the evidence: the plain reading, said so */
		best = (struct cand){ 0, c.onset[0], 0, 0, 0, c.onset[0], 0 };
		exf(&e, "no reading fits all the evidence; the curve's shape alone decided");
	}
	mi->best = reading(&c, &best);
	for (size_t i = 0; i < nc; i++) {
		struct slc_labelling x;

		if (!isfinite(cs[i].score)) continue;
		tot += exp(cs[i].score - best.score);
		x = reading(&c, cs + i);
		/* another reading only when it says something else */
		if (cs[i].score > ru.score && !same_reading(&x, &mi->best)) {
			ru = cs[i];
			have_ru = 1;
		}
	}
	/* no reading scored at all: the plain one stands, with no weight */
	mi->no_fit = !(tot > 0);
	mi->confidence = tot > 0 ? fmin(1, 1 / tot) : 0;
	if (have_ru) {
		mi->runner_up = reading(&c, &ru);
		mi->odds = exp(best.score - ru.score);
		mi->close_call = mi->odds < c.p->settle_odds;
		if (mi->close_call) mi->settle = settle_of(&c, &best, &ru, &mi->best, &mi->runner_up);
	} else {
		mi->odds = INFINITY;
	}
	mi->cell = ev->cell;
	group_confidence(&c, cs, nc, &best, tot, group_conf, c.rec, c.rec + ng);
	/* the reasons: the winner's terms, then the runner-up's */
	exf(&e, "levels: %zu after consolidation", ng);
	for (size_t q = 0; q < ng && q < 8; q++)
		exf(&e, "  %s from %s (%.0f samples)", fmt_si(a, sizeof(a), g[q].level, "B/s"),
		    fmt_si(a2, sizeof(a2), g_start_bytes(&c, q), "B"), g[q].cnt);
	describe(&e, &mi->best);
	score(&c, &best, &e);
	if (have_ru) {
		describe(&e, &mi->runner_up);
		score(&c, &ru, &e);
		exf(&e, "odds %.3g : 1 for the first reading", mi->odds);
	}
	/* the readings ruled out, the longest and least of the reasons, leave
	 * room for the conflict below and the passes after the model */
	e.cap = sizeof(mi->explain) - SLC__PLACE_ROOM;
	explain_excluded(&c, cs, nc, &e);
	e.cap = sizeof(mi->explain);
	/* a reading the evidence ruled out fits the curve far better than any
	 * left: the evidence (the capacity, cell type or state given) may be
	 * wrong, and the labels are not to be trusted */
	{
		double fit = -INFINITY;

		c.ignore_evidence = 1;
		for (size_t i = 0; i < nc; i++) {
			c.excluded = 0;
			if (!isfinite(cs[i].score)) {
				double x = score(&c, cs + i, NULL);
				if (c.excluded) fit = fmax(fit, x);
			}
		}
		c.ignore_evidence = 0;
		mi->conflict = fit > best.score + c.p->conflict_ll;
		if (mi->conflict) {
			exf(&e, "the readings that fit the curve are ruled out by the evidence: check the capacity, "
				"the cell type and the drive's state");
			conflict_wa_note(&c, &e);
			mi->confidence = 0;
		}
	}
	mask_of(&c, &best, c.rec);
	for (size_t q = 0; q < ng; q++) {
		unsigned tier;
		int kind = kind_of(q, &best, c.rec, &tier);

		for (size_t j = g[q].first; j <= g[q].last; j++) {
			if (b[j].dip) continue;
			b[j].kind = kind;
			b[j].tier = tier;
		}
	}
	free(c.rec);
	free(c.gc);
	free(c.map);
	return best.k > 0;
}
