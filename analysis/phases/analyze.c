// SPDX-License-Identifier: MIT
/*
 * slc_analyze(): segmentation, consolidation, the model, the phases.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
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

void slc_analysis_free(struct slc_analysis *a)
{
	if (!a) return;
	free(a->phases);
	free(a->segments);
	a->phases = a->segments = NULL;
	a->n_phases = a->n_segments = 0;
}

int slc__load_trace(struct trace *tr, const struct slc_trace_in *in)
{
	size_t n = in->n;

	if (n == 0 || !in->t_s || (!in->bytes == !in->bps)) return -EINVAL;
	tr->n = n;
	tr->t = in->t_s;
	tr->binned_onset = NAN;
	tr->binned_cache = tr->binned_bin = 0;
	tr->lead = 0;
	tr->block_bytes = in->block_bytes;
	tr->dt = malloc(n * sizeof(double));
	tr->v = malloc(n * sizeof(double));
	tr->cum = malloc((n + 1) * sizeof(double));
	tr->sv = malloc((n + 1) * sizeof(double));
	tr->sv2 = malloc((n + 1) * sizeof(double));
	tr->gap = malloc(n * sizeof(double));
	tr->ws = malloc(3 * n * sizeof(double));
	if (!tr->dt || !tr->v || !tr->cum || !tr->sv || !tr->sv2 || !tr->gap || !tr->ws) return -ENOMEM;
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
		/* a step in t_s beyond the interval: time nothing was written
		 * (a stopped run's host pause, the waits between a duty step's
		 * rounds), not the drive's writing time */
		tr->gap[i] = i && in->interval_s && in->t_s[i] - dt - in->t_s[i - 1] > 1e-6 * dt ?
			tr->gap[i - 1] + (in->t_s[i] - dt - in->t_s[i - 1]) : (i ? tr->gap[i - 1] : 0);
	}
	return 0;
}

void slc__free_trace(struct trace *tr)
{
	free(tr->dt);
	free(tr->v);
	free(tr->cum);
	free(tr->sv);
	free(tr->sv2);
	free(tr->gap);
	free(tr->ws);
}

void slc_phase_evidence_init(struct slc_phase_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->ref_cache_bps = ev->ref_native_bps = ev->ref_erase_bps = ev->ref_cache_bytes = NAN;
}

int slc_analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		const struct slc_cpd_opts *opts)
{
	return slc_analyze_ev(out, in, opts, NULL);
}


/*
 * A cache shorter than the segmentation can see: the first sample (or
 * two) more than 15% faster than every one of the five after them, fewer
 * than bound_samples of them.  Sampled every second, a 0.2 s cache is part
 * of one sample; reading the level after it as the cache would be wrong,
 * and its size cannot be measured: the host bytes at cache speed are at
 * least the excess over the level after and at most all the bytes of
 * those samples.
 *
 * Unless a stall follows them and such stalls recur in the writing after:
 * a drive whose writing stalls again and again (a DRAM-less drive flushing
 * its mapping journal every few hundred MB, cache or not) stalls inside
 * its cache too, and may go on at cache speed after the stall.  Then the
 * samples say only where the cache began; its end is bounded by the flash
 * in SLC mode (slc__cache_limit()), and a finer interval must place it.
 * Such stalls recur when more than texture_frac of the texture_context_min
 * samples after the stall (as many as the trace has, at least
 * texture_side_min) are under stall_frac of their median, as rule 4
 * reads a comb's teeth; a stall after the cache that does not recur is
 * the drive's pause once the cache is full (it ended before it).
 */
static int stall_hides_end(const struct trace *tr, size_t nf, double med, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t i = 1, n = 0, low = 0;
	double m;

	/* the stall: in the bound's last sample (it may hold one that
	 * straddles the cache's end) or right after it */
	while (i <= nf && i < tr->n && !(tr->v[i] < mp->stall_frac * med)) i++;
	if (i > nf || i >= tr->n) return 0;
	while (i < tr->n && tr->v[i] < mp->stall_frac * med) i++;
	/* a short trace: what it has, if enough to tell a texture */
	if (i + mp->texture_side_min > tr->n) return 0;
	for (n = 0; n < mp->texture_context_min && i + n < tr->n; n++) tmp[n] = tr->v[i + n];
	m = slc__median(tr, tmp, n);
	for (size_t j = 0; j < n; j++) low += tr->v[i + j] < mp->stall_frac * m;
	return (double)low > mp->texture_frac * (double)n;
}

/*
 * The first samples, fewer than bound_samples, each faster by delta_cache
 * than every one of the short_next after them (@one: the first sample
 * alone, a cache the segmentation ended there, and the one after it it may
 * reach into), and a straddler after them still above the level after: a
 * cache that ended inside them, if they wrote more than a write buffer's
 * burst.  Returns how many samples (0: none), in @excess what they wrote
 * beyond the level after them, in @med that level.
 */
static size_t short_lead(const struct trace *tr, const struct slc_phase_evidence *ev, int one, double *tmp,
			 double *excess_out, double *med_out)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t lim = (size_t)mp->bound_samples;

	/* a one-sample cache block may reach into the next sample (it
	 * straddles): bound by two */
	for (size_t nf = one ? 2 : 1; nf < (one ? 3 : lim) && nf + mp->short_next <= tr->n; nf++) {
		double top = 0, med, excess = 0;
		size_t i;

		for (i = 0; i < mp->short_next; i++) {
			tmp[i] = tr->v[nf + i];
			top = fmax(top, tmp[i]);
		}
		med = slc__median(tr, tmp, mp->short_next);
		for (i = 0; i < nf && (one || tr->v[i] > (1 + mp->delta_cache) * top); i++)
			excess += fmax(0, tr->v[i] - med) * tr->dt[i];
		if (i < nf) continue;
		/* a straddler after them, still well above the level after */
		while (nf < lim && nf < tr->n && tr->v[nf] > (1 + mp->delta_cache) * med) {
			excess += (tr->v[nf] - med) * tr->dt[nf];
			nf++;
		}
		/* all of it under the smallest an SLC cache can be: a write
		 * buffer's burst (slc__buffer_limit()) */
		if (tr->cum[nf] < slc__buffer_limit(ev))
			return 0;
		*excess_out = excess;
		*med_out = med;
		return nf;
	}
	return 0;
}

/* The cache of the first samples, which the model read as a level of its
 * own (@one: a block of one sample, which may straddle into the next),
 * given as bounds: as short_lead() finds them. */
static size_t short_cache(struct slc_analysis *out, const struct trace *tr, const struct slc_phase_evidence *ev,
			  int one, double *tmp)
{
	double excess = 0, med = 0;
	size_t nf;

	if (out->has_cache) return 0;
	nf = short_lead(tr, ev, one, tmp, &excess, &med);
	if (nf) {
		out->model.cache_bound = 1;
		out->model.cache_bound_samples = (unsigned)nf;
		out->model.cache_min_bytes = excess;
		out->model.cache_max_bytes = tr->cum[nf];
		if (stall_hides_end(tr, nf, med, tmp)) {
			out->model.cache_bound_stall = 1;
			out->model.cache_max_bytes = fmax(tr->cum[nf], slc__cache_limit(ev));
		}
	}
	return nf;
}

/*
 * SNIA steady state, searched where the drive can be in it.  The PTS
 * preconditions a drive by writing twice its capacity; a fresh drive's
 * cache-then-direct stretch is no steady state however flat it looks.  So:
 * after steady_after_bytes (default 2x the capacity) when the capacity is
 * known and the drive was not written over before; without a capacity,
 * from the erase-bound onset (none: not searched); on a drive written over
 * before, from the end of the cache.
 */
static int steady(struct slc_analysis *out, const struct trace *tr, const struct slc_phase_evidence *ev,
		  double from_s)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double after = ev->steady_after_bytes > 0 ? ev->steady_after_bytes :
		       ev->capacity_bytes > 0 ? 2 * ev->capacity_bytes : 0;
	int rule = SLC_STEADY_AFTER_CACHE, ret;
	double from_b = out->has_cache ? out->cache_bytes : 0;

	if (ev->state != SLC_STATE_USED) {
		if (after > 0) {
			size_t i = 0;
			rule = SLC_STEADY_AFTER_PRECONDITION;
			while (i < tr->n && tr->cum[i + 1] < after) i++;
			from_b = after;
			from_s = i < tr->n ? fmax(from_s, tr->t[i]) : INFINITY;
		} else if (isfinite(out->erase_bound_start_s)) {
			rule = SLC_STEADY_AFTER_ONSET;
			from_s = fmax(from_s, out->erase_bound_start_s);
			from_b = out->erase_bound_start_bytes;
		} else {
			rule = SLC_STEADY_NOT_SEARCHED;
			from_s = INFINITY;
		}
	}
	ret = slc_steady_state(&out->steady, tr->t, tr->dt, tr->v, tr->n,
			       isfinite(from_s) ? from_s : tr->t[tr->n - 1] + 1, mp->steady_round_s,
			       (unsigned)mp->steady_rounds);
	out->steady.rule = rule;
	out->steady.from_bytes = rule == SLC_STEADY_NOT_SEARCHED ? NAN : from_b;
	return ret;
}

/*
 * The curve binned to about coarse_s.  Garbage collection sets in on a
 * scale of minutes and gigabytes, an SLC cache lasts seconds to minutes;
 * below a second the speed wanders (a drive's write buffer, its folding
 * and GC bursts, a DRAM-less drive's map writes), and a 10 ms curve of two
 * hours has hundreds of levels whose wander the model and the onset search
 * take for phases.  So when the samples are shorter than coarse_s / 2 and
 * the curve spans coarse_min_bins such bins, the curve is binned to about
 * coarse_s (whole samples per bin) and analysed the same way (into @a, to
 * be freed; @nbins gets the number of bins).  Returns 1 when it was, 0 when
 * not, -ENOMEM.
 */
static int coarse_read(struct slc_analysis *a, size_t *nbins, const struct trace *tr,
		       const struct slc_cpd_opts *opts, const struct slc_phase_evidence *ev, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	size_t nb = 0, i = 0;
	double *t, *dt, *by;
	struct slc_trace_in ci = { 0 };
	int ret = -ENOMEM;

	for (size_t k = 0; k < tr->n; k++) tmp[k] = tr->dt[k];
	if (tr->n < 2 * mp->coarse_min_bins || slc__median(tr, tmp, tr->n) >= 0.5 * mp->coarse_s ||
	    tr->t[tr->n - 1] - slc__t_start(tr, 0) < mp->coarse_min_bins * mp->coarse_s)
		return 0;
	t = malloc(tr->n * sizeof(*t));
	dt = malloc(tr->n * sizeof(*dt));
	by = malloc(tr->n * sizeof(*by));
	if (t && dt && by) {
		while (i < tr->n) {
			double d = 0, b = 0;
			while (i < tr->n && d < mp->coarse_s * (1 - 1e-9)) {
				d += tr->dt[i];
				b += tr->cum[i + 1] - tr->cum[i];
				i++;
			}
			t[nb] = tr->t[i - 1];
			dt[nb] = d;
			by[nb++] = b;
		}
		ci = (struct slc_trace_in){ .t_s = t, .interval_s = dt, .bytes = by, .n = nb,
					    .block_bytes = tr->block_bytes };
		ret = slc__analyze(a, &ci, opts, ev, 0);
		if (ret) slc_analysis_free(a);
		/* the binned curve read or not; only a failure to allocate is the
		 * caller's too */
		ret = ret == -ENOMEM ? ret : !ret;
		*nbins = nb;
	}
	free(t);
	free(dt);
	free(by);
	return ret;
}

/*
 * The cache's end from the coarse curve.  A DRAM-less drive writes its
 * cache in bursts between stalls (its map writes), and the native writing
 * after it too, at half the speed: sampled finer than the bursts, each
 * burst is a level of its own and the model cannot tell the cache's from
 * the native writing's.  Binned to a second they average into the cache's
 * level.  So a cache the coarse curve reads over at least coarse_cache_bins
 * bins (no bound) decides when the fine curve's cache differs by more than
 * a bin's bytes and the fine writing between the two ends still runs at
 * the fine cache's speed (within delta_same) in one sample in
 * teeth_at_level at least (the teeth rule of boundary.c): a cache in
 * bursts, not a slower level (a second tier, native writing) that the
 * bins' fewer samples read as part of it.  Where the fine curve found no
 * cache, its samples up to the coarse end must be bursts (a CoV of
 * coarse_burst_cov or more), their speed their 90th percentile: a flat
 * level the coarse model takes for a cache is the fine model's to judge.  Its end is put at full resolution: after the last sample
 * within a bin of the coarse end that is faster than the native writing
 * after it (its 95th percentile over the next coarse_cache_bins bins, plus
 * delta_cache).  Fine blocks before it are the cache (stalls stay
 * stalls), the initial cache's blocks after it native.  Returns 1 when it
 * decided.
 */
static int coarse_cache(struct slc_analysis *out, const struct trace *tr, struct block *b, size_t *nb,
			size_t cap, const struct slc_analysis *ca, double *tmp)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double fine = out->has_cache ? out->model.best.cache_bytes : 0, t0 = slc__t_start(tr, 0);
	double bin_bytes = 0, thr;
	size_t ie = 0, at, w0, w1, nx;
	unsigned tier = 1;
	int in_cache = 1;

	if (!ca->has_cache || ca->model.cache_bound || !(ca->cache_end_s - t0 >= mp->coarse_cache_bins * mp->coarse_s))
		return 0;
	while (ie < tr->n && tr->cum[ie] < ca->cache_bytes) ie++;
	if (ie >= tr->n) return 0;
	w0 = w1 = ie;
	while (w0 > 0 && tr->t[ie] - tr->t[w0 - 1] < mp->coarse_s) w0--;
	while (w1 < tr->n && tr->t[w1] - tr->t[ie] < mp->coarse_s) w1++;
	bin_bytes = tr->cum[w1] - tr->cum[w0];
	if (fabs(fine - ca->cache_bytes) <= bin_bytes) return 0;
	/* the fine curve's writing between the two ends still runs at its
	 * cache's speed in bursts (one sample in teeth_at_level at least):
	 * a cache in bursts, not a slower level the bins blur into it */
	{
		size_t i0 = 0, at_level = 0;
		double cl = NAN;

		for (size_t j = 0; j < *nb && isnan(cl) && fine > 0; j++)
			if (!b[j].dip && b[j].kind == SLC_PHASE_SLC_CACHE) cl = slc__blevel(tr, b + j);
		while (i0 < tr->n && tr->cum[i0] < fine) i0++;
		if (ie <= i0) return 0;
		if (!(fine > 0)) {
			/* no fine cache: the bursts' own speed, and bursts they
			 * must be (a CoV of coarse_burst_cov at least: writing
			 * between stalls), not a flat level */
			double m = (tr->sv[ie] - tr->sv[i0]) / (double)(ie - i0);
			double var = (tr->sv2[ie] - tr->sv2[i0]) / (double)(ie - i0) - m * m;

			if (!(m > 0) || sqrt(fmax(var, 0)) < mp->coarse_burst_cov * m) return 0;
			cl = slc__sample_quantile(tr, i0, ie, 0, 0, mp->coarse_burst_q, tmp);
		}
		if (!(cl > 0)) return 0;
		for (size_t i = i0; i < ie; i++) at_level += fabs(tr->v[i] - cl) <= mp->delta_same * cl;
		if ((double)at_level * mp->teeth_at_level < (double)(ie - i0)) return 0;
	}
	for (nx = ie; nx < tr->n && tr->t[nx] - tr->t[ie] < mp->coarse_cache_bins * mp->coarse_s; nx++)
		;
	thr = (1 + mp->delta_cache) * slc__sample_quantile(tr, ie, nx, 0, 0, mp->coarse_native_q, tmp);
	at = ie;
	for (size_t i = w0; i < w1; i++)
		if (tr->v[i] > thr) at = i + 1;
	for (size_t j = 0; j < *nb; j++)
		if (b[j].i0 < at && b[j].i1 > at) {
			slc__split_block(b, nb, cap, j, at);
			break;
		}
	for (size_t j = 0; j < *nb; j++) {
		if (b[j].dip) continue;
		if (b[j].i1 <= at) {
			if (b[j].kind == SLC_PHASE_SLC_CACHE && b[j].tier) tier = b[j].tier;
			b[j].kind = SLC_PHASE_SLC_CACHE;
			b[j].tier = tier;
			b[j].conf = ca->model.confidence;
		} else if (in_cache && b[j].kind == SLC_PHASE_SLC_CACHE) {
			b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
			b[j].tier = 0;
		} else {
			in_cache = 0;
		}
	}
	out->model = ca->model;
	out->model.best.cache_bytes = tr->cum[at];
	out->has_cache = 1;
	return 1;
}

/*
 * The erase-bound onset from the coarse curve, where it finds one (bytes)
 * and reads the cache as the fine one does (within two bins' bytes: a
 * second tier the bins blur into the native level would make the native
 * level its erase-bound one); the boundary is then placed at the full
 * resolution.  Where the coarse curve shows none, the fine one's stands: a
 * small lasting step (a QLC drive's first GC, 8-12%) needs the many
 * samples of fine sampling to pass its test.  Returns the coarse onset, or
 * 0 (none, or no coarse decision).
 */
static double coarse_onset(const struct trace *tr, const struct slc_analysis *ca, size_t nbins,
			   double cache_bytes)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double bin = tr->cum[tr->n] / (double)nbins;

	if (!nbins || !isfinite(ca->erase_bound_start_bytes)) return 0;
	if (fabs((ca->has_cache ? ca->cache_bytes : 0) - (isfinite(cache_bytes) ? cache_bytes : 0)) >
	    mp->coarse_onset_bins * bin)
		return 0;
	return ca->erase_bound_start_bytes;
}

/* One more line of the model's reasons, when @room bytes still fit. */
static void explain_line(struct slc_analysis *out, size_t room, const char *fmt, ...)
{
	size_t len = strlen(out->model.explain), cap = sizeof(out->model.explain);
	va_list ap;

	if (len + room >= cap) return;
	va_start(ap, fmt);
	vsnprintf(out->model.explain + len, cap - len, fmt, ap);
	va_end(ap);
}

/* A line of reasons for what the binned curve decided. */
static void explain_add(struct slc_analysis *out, const struct trace *tr, const char *what, double bytes)
{
	explain_line(out, 96, "%s from the curve binned to %.0f s: %.4g GB written\n", what, slc__mp(tr)->coarse_s,
		     bytes / 1e9);
}

/* Host bytes where the first erase-bound block starts; NAN: none. */
static double onset_at(const struct trace *tr, const struct block *b, size_t nb)
{
	for (size_t j = 0; j < nb; j++)
		if (!b[j].dip && b[j].kind == SLC_PHASE_ERASE_BOUND) return tr->cum[b[j].i0];
	return NAN;
}

/* Put the onset at @bytes (NAN: none): native writing before, erase-bound
 * from there; caches, the cache back and drops keep their labels (the block
 * holding it is split when b, of @cap blocks, has room for one more, else
 * native). */
static void set_onset(const struct trace *tr, struct block *b, size_t *nb, size_t cap, double bytes)
{
	size_t at = tr->n, jn = *nb;

	for (size_t j = 0; j < *nb && jn == *nb; j++)
		if (!b[j].dip && (b[j].kind == SLC_PHASE_DIRECT_TO_TLC || b[j].kind == SLC_PHASE_ERASE_BOUND))
			jn = j;
	if (jn == *nb) return;
	if (isfinite(bytes)) {
		at = b[jn].i0;
		while (at < tr->n && tr->cum[at] < bytes) at++;
	}
	for (size_t j = jn; j < *nb; j++) {
		if (b[j].dip || b[j].kind == SLC_PHASE_SLC_CACHE) continue;
		if (b[j].i0 < at && b[j].i1 > at) {
			slc__split_block(b, nb, cap, j, at);
			b[j].kind = SLC_PHASE_DIRECT_TO_TLC;
			continue;
		}
		b[j].kind = b[j].i0 >= at ? SLC_PHASE_ERASE_BOUND : SLC_PHASE_DIRECT_TO_TLC;
	}
}

/*
 * The onset the coarse curve found (@on bytes), put at full resolution.
 * The bins tell that the speed falls and about where; the samples, four to
 * a hundred times as many, where a decay's knee is: the knee fit may move
 * it earlier (only when it fits clearly better), and the reasons say so.
 */
static void coarse_onset_apply(struct slc_analysis *out, const struct trace *tr, struct block *b, size_t *nb,
			       size_t bcap, double on, const struct slc_phase_evidence *ev, double *tmp)
{
	double now;

	set_onset(tr, b, nb, bcap, on);
	explain_add(out, tr, "onset", on);
	slc__refine_decay_onset(tr, b, nb, bcap, tmp, slc__min_onset(ev, out->model.best.cache_bytes));
	now = onset_at(tr, b, *nb);
	if (isfinite(now) && now < on)
		explain_line(out, 96, "onset moved to %.4g GB written by the decay's knee fitted to every sample\n",
			     now / 1e9);
}

/*
 * Where the drive's counters show garbage collection begin between @lo (at
 * the earliest the end of the model's cache, *@cache bytes) and @hi host
 * bytes: slc__counter_onset(), @w the NAND bytes per host byte each side,
 * @extra the NAND bytes the step adds.  NAN when they show none, or one a
 * freshly trimmed drive cannot have yet, as from the curve.
 */
static double counters_onset(const struct slc_analysis *out, const struct trace *tr,
			     const struct slc_phase_evidence *ev, double lo, double hi, double *w, double *extra,
			     double *cache)
{
	double on, need;

	*cache = out->has_cache && isfinite(out->model.best.cache_bytes) ? out->model.best.cache_bytes : 0;
	on = slc__counter_onset(tr, ev, fmax(*cache, lo), hi, w, w + 1, extra);
	need = slc__min_onset(ev, *cache);
	return isfinite(on) && !(need > 0 && on < need) ? on : NAN;
}

/*
 * The model's onset placed where the drive's counters show garbage
 * collection begin: they see it directly, the speed only once it costs (a
 * sample or more later, and later still on a coarse interval).  The
 * counters are read around it (within counter_near of its bytes) and move
 * it only earlier, by more than a sample: a drive's NAND writing also
 * steps up for other reasons (folding a QLC cache, a second regime of GC
 * later on).  One that a freshly trimmed drive cannot have yet is left
 * out, as from the curve.  Where the model read no onset, the counters
 * were its evidence already (counter_read()).
 */
static void counter_onset(struct slc_analysis *out, const struct trace *tr, struct block *b, size_t *nb,
			  size_t bcap, const struct slc_phase_evidence *ev)
{
	const struct slc_model_params *mp = slc__mp(tr);
	double w[2], extra, cache, cur = onset_at(tr, b, *nb), on, sample;
	size_t i = 0;

	if (!isfinite(cur)) return;
	on = counters_onset(out, tr, ev, (1 - mp->counter_near) * cur, (1 + mp->counter_near) * cur, w, &extra, &cache);
	if (!isfinite(on)) return;
	while (i + 1 < tr->n && tr->cum[i + 1] < on) i++;
	sample = tr->cum[i + 1] - tr->cum[i];
	if (!(on < cur - sample)) return;
	set_onset(tr, b, nb, bcap, on);
	explain_line(out, 160, "onset from the drive's counters: %.4g GB written (NAND bytes per host byte %.2f "
		     "before, %.2f after); the speed alone put it at %.4g GB\n", on / 1e9, w[0], w[1], cur / 1e9);
}

/*
 * The model reads whole levels; the passes after it work on the samples.
 * Its reading (model.best, its odds and runner-up) stays as it chose it;
 * what each pass did to it is stated in the reasons, by name, so that the
 * reasons lead from the reading to the answer: where the cache ends, where
 * the erase-bound phase begins, and any phase a pass added or took away.
 * The shape is read from the blocks as headline() will read the phases.
 */
struct shape {
	double cache_end, onset;	/* host bytes; NAN: none */
	int cache;			/* 0 none, 1 a cache, 2 one too short to measure (a bound) */
	int native, erase_bound;
};

static struct shape shape_of(const struct trace *tr, const struct block *b, size_t nb, int cache)
{
	struct shape s = { NAN, NAN, cache, 0, 0 };
	int past = 0;

	for (size_t j = 0; j < nb; j++) {
		if (b[j].dip) continue;
		if (b[j].kind == SLC_PHASE_SLC_CACHE && !past && cache == 1) s.cache_end = tr->cum[b[j].i1];
		if (b[j].kind == SLC_PHASE_DIRECT_TO_TLC || b[j].kind == SLC_PHASE_ERASE_BOUND) past = 1;
		s.native |= b[j].kind == SLC_PHASE_DIRECT_TO_TLC;
		if (b[j].kind == SLC_PHASE_ERASE_BOUND && !s.erase_bound) {
			s.erase_bound = 1;
			s.onset = tr->cum[b[j].i0];
		}
	}
	return s;
}

/* A move the reasons can show: @a and @b differ in the figures written. */
static int moved(double a, double b)
{
	char x[32], y[32];

	return isfinite(a) && isfinite(b) &&
	       strcmp(slc__fmt_si(x, sizeof(x), a, "B", 4), slc__fmt_si(y, sizeof(y), b, "B", 4));
}

/* The cache of shape @s in words, for "(before: ...)". */
static const char *cache_words(char *w, size_t n, const struct shape *s)
{
	char x[32];

	if (s->cache == 2) snprintf(w, n, "a bound");
	else if (s->cache == 1 && isfinite(s->cache_end))
		snprintf(w, n, "up to %s", slc__fmt_si(x, sizeof(x), s->cache_end, "B", 4));
	else snprintf(w, n, s->cache ? "a cache" : "none");
	return w;
}

/* What the pass @by did to the reading: @s before, @n after (@s then
 * updated); @quiet: the pass states its own figures, only a phase it adds
 * or takes away is said here. */
static void journal(struct slc_analysis *out, struct shape *s, struct shape n, const char *by, int quiet)
{
	char x[32], y[32], w[48];

	if (n.cache != s->cache && n.cache == 1)
		explain_line(out, 160, "%s: a cache up to %s written (before: %s)\n", by,
			     slc__fmt_si(x, sizeof(x), n.cache_end, "B", 4), cache_words(w, sizeof(w), s));
	else if (n.cache != s->cache)
		explain_line(out, 160, "%s: %s (before: %s)\n", by,
			     n.cache ? "a cache too short to measure, its size only bounded" : "no cache",
			     cache_words(w, sizeof(w), s));
	else if (!quiet && moved(s->cache_end, n.cache_end))
		explain_line(out, 160, "%s: the cache's end at %s written (before: %s)\n", by,
			     slc__fmt_si(x, sizeof(x), n.cache_end, "B", 4), slc__fmt_si(y, sizeof(y), s->cache_end, "B", 4));
	if (n.native != s->native)
		explain_line(out, 160, "%s: %s native phase (before: %s)\n", by, n.native ? "a" : "no",
			     n.native ? "none" : "one");
	if (n.erase_bound != s->erase_bound && n.erase_bound)
		explain_line(out, 160, "%s: erase-bound from %s written (before: no such phase)\n", by,
			     slc__fmt_si(x, sizeof(x), n.onset, "B", 4));
	else if (n.erase_bound != s->erase_bound)
		explain_line(out, 160, "%s: no erase-bound phase (before: from %s)\n", by,
			     slc__fmt_si(y, sizeof(y), s->onset, "B", 4));
	else if (!quiet && moved(s->onset, n.onset))
		explain_line(out, 160, "%s: the onset at %s written (before: %s)\n", by,
			     slc__fmt_si(x, sizeof(x), n.onset, "B", 4), slc__fmt_si(y, sizeof(y), s->onset, "B", 4));
	*s = n;
}

/* The reading as the model stated it. */
static struct shape shape_read(const struct slc_labelling *l)
{
	return (struct shape){ l->tiers ? l->cache_bytes : NAN, l->erase_bound ? l->onset_bytes : NAN, l->tiers > 0,
			       l->native, l->erase_bound };
}

/* The last step to the answer: the phases' boundaries to sub-sample
 * precision (section 3 of docs/analysis.md), from @s, the blocks' shape
 * after the last pass. */
static void answer_stated(struct slc_analysis *out, struct shape *s)
{
	struct shape n = { out->has_cache ? out->cache_bytes : NAN, out->erase_bound_start_bytes,
			   out->has_cache ? 1 : out->model.cache_bound ? 2 : 0, 0, isfinite(out->erase_bound_start_bytes) };

	for (size_t q = 0; q < out->n_phases; q++) n.native |= out->phases[q].kind == SLC_PHASE_DIRECT_TO_TLC;
	journal(out, s, n, "the boundaries to sub-sample precision", 0);
}

/* The kind of the first main block after the cache's. */
static int first_after_cache(const struct block *b, size_t nb)
{
	size_t j = 0;

	while (j < nb && (b[j].dip || b[j].kind == SLC_PHASE_SLC_CACHE)) j++;
	return j < nb ? b[j].kind : -1;
}

/* The cache and onset figures from the phases; returns where the steady
 * state search may begin (the end of the cache). */
static double headline(struct slc_analysis *out, double from_s)
{
	for (size_t q = 0; q < out->n_phases; q++) {
		const struct slc_phase *p = out->phases + q;
		if (p->kind == SLC_PHASE_SLC_CACHE && out->model.cache_bound) {
			from_s = p->end_s;
		} else if (p->kind == SLC_PHASE_SLC_CACHE) {
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
	return from_s;
}

/*
 * The placement: the model chose its reading on whole levels; these passes
 * carry its boundaries to the samples, in this order (each a stage of its
 * own, tested in test_phases_stages and test_phases_analyze), and each
 * one's effect is stated in the reasons (journal(), only in the answer's
 * own reading @say, not the binned curve's).  @sh gets the blocks' shape
 * after the last pass.  Returns 0 or -ENOMEM.
 */
struct placing {
	struct slc_analysis *out;
	const struct trace *tr;
	const struct block *b;
	const size_t *nb;
	struct shape *sh;
	const int *one;		/* the cache of one sample, to be bounded */
	int say;
};

static void placed(const struct placing *p, const char *by, int quiet)
{
	const struct slc_analysis *o = p->out;
	int cache = o->has_cache ? 1 : *p->one || o->model.cache_bound ? 2 : 0;

	if (p->say) journal(p->out, p->sh, shape_of(p->tr, p->b, *p->nb, cache), by, quiet);
}

static int place(struct slc_analysis *out, const struct trace *tr, struct block *b, size_t *nbp, size_t cap,
		 const struct group *g, const struct slc_phase_evidence *evp, const struct slc_analysis *ca,
		 size_t nbins, int say, double *tmp, struct shape *sh)
{
	int one = 0, ret, by_ctr;
	const struct placing pl = { out, tr, b, nbp, sh, &one, say };

	*sh = shape_read(&out->model.best);
	if (out->has_cache) slc__extend_cache_teeth(tr, b, nbp, cap, tmp);
	placed(&pl, "the cache's teeth (writing at its speed between stalls)", 0);
	/* a cache of a single sample (it ended inside it) is no phase that
	 * sample can measure: a bound (short_cache); so is the cache of the
	 * first few samples short_lead() found (one 2: bounded as it was found) */
	if (out->has_cache && !b[0].dip && *nbp > 1 && b[1].kind != SLC_PHASE_SLC_CACHE &&
	    (b[0].i1 == 1 || b[0].i1 == tr->lead)) {
		out->has_cache = 0;
		one = b[0].i1 == tr->lead ? 2 : 1;
	}
	placed(&pl, "a cache that ended inside the first samples", 0);
	/* an onset the model read at the counters' step (counter_read()) is
	 * at their sample already: the speed's fits would move it to where
	 * the speed shows it, and the counters' placement to where they show
	 * it searched around it: it stays */
	by_ctr = tr->ctr_onset > 0 && onset_at(tr, b, *nbp) == tr->ctr_onset;
	ret = by_ctr ? 0 : slc__refine_onset(tr, b, nbp, cap, g, tmp, slc__min_onset(evp, out->model.best.cache_bytes));
	if (ret) return ret;
	placed(&pl, "the onset's two-level fit to the samples", 0);
	if (!by_ctr) slc__refine_decay_onset(tr, b, nbp, cap, tmp, slc__min_onset(evp, out->model.best.cache_bytes));
	placed(&pl, "the decay's knee fitted to every sample", 0);
	if (ca) {
		double on, odds = out->model.odds;
		struct slc_labelling fine = out->model.best;
		int cc = coarse_cache(out, tr, b, nbp, cap, ca, tmp);
		char w[128];

		if (cc) {
			explain_add(out, tr, "the cache's end", out->model.best.cache_bytes);
			/* the model's record is the binned curve's now: what the
			 * samples at their own interval read, for the record */
			explain_line(out, 260, "the samples at their own interval read %s (odds %.3g : 1): their "
				     "levels are the bursts between stalls, which the bins average\n",
				     slc__reading_words(w, sizeof(w), &fine), odds);
		}
		on = coarse_onset(tr, ca, nbins, out->has_cache ? out->model.best.cache_bytes : 0);
		/* the coarse reading has native writing after the cache and no
		 * onset: an erase-bound phase the fine reading began right after
		 * its (wrong) cache goes with it */
		if (cc && !(on > 0) && !by_ctr && ca->model.best.native &&
		    first_after_cache(b, *nbp) == SLC_PHASE_ERASE_BOUND)
			set_onset(tr, b, nbp, cap, NAN);
		if (on > 0 && !by_ctr) coarse_onset_apply(out, tr, b, nbp, cap, on, evp, tmp);
		/* the binned curve's reading is now the model's, its reasons
		 * the answer's: what differs from it is what to state; an
		 * onset kept at the counters' boundary first, by its name */
		if (cc) *sh = shape_read(&out->model.best);
		if (cc && by_ctr) placed(&pl, "the drive's counters (the samples' reading had its onset there)", 0);
		placed(&pl, "the binned curve's reading", 1);
	}
	if (!by_ctr) counter_onset(out, tr, b, nbp, cap, evp);
	placed(&pl, "the drive's counters", 1);
	/* the cache of the first samples the model read: its samples are its
	 * phase (so that the native level's figures leave them out), its size
	 * a bound.  Where the model read none, none: it read those samples as
	 * a level of their own (short_lead_read()) */
	{
		size_t nf = one ? short_cache(out, tr, evp, one == 1, tmp) : 0;
		if (nf && !b[0].dip && (b[0].i1 <= nf || slc__split_block(b, nbp, cap, 0, nf))) {
			b[0].kind = SLC_PHASE_SLC_CACHE;
			b[0].tier = 1;
		}
		/* the one-sample cache is a bound now, or none */
		one = 0;
	}
	placed(&pl, "the first samples, faster than the rest", 0);
	return 0;
}

/* The levels made again from the blocks (a step between two of them now)
 * and read once more by the model.  Returns 0 or a negative errno. */
static int read_again(struct slc_analysis *out, const struct trace *tr, struct block *b, size_t nb, struct group *g,
		      size_t *ng, const struct slc_phase_evidence *ev, double *gconf, double *tmp)
{
	int ret;

	*ng = slc__make_groups(tr, b, nb, g, tmp);
	ret = slc__model_label(tr, b, g, *ng, ev, &out->model, gconf);
	if (ret < 0) return ret;
	out->has_cache = ret;
	return 0;
}

/*
 * The first samples, faster than the rest, when the model read no cache:
 * the segmentation's minimum length puts a cache of one or two samples
 * into the block after it, and the model reads that block as native
 * writing.  When short_lead() finds them, they are made a level of their
 * own (block.step: a reading without a cache pays for the jump) and the
 * model reads the levels once more; tr->lead keeps how many samples, for
 * place() to state such a cache as the bound it is.  Returns 0 or a
 * negative errno.
 */
static int short_lead_read(struct slc_analysis *out, struct trace *tr, struct block *b, size_t *nb, size_t cap,
			   struct group *g, size_t *ng, const struct slc_phase_evidence *ev, double *gconf, double *tmp)
{
	double excess, med;
	size_t nf;

	if (out->has_cache) return 0;
	nf = short_lead(tr, ev, 0, tmp, &excess, &med);
	/* a first block of those samples is a level the model has read */
	if (!nf || b[0].dip || b[0].i1 <= nf || !slc__split_block(b, nb, cap, 0, nf)) return 0;
	b[1].step = SLC__STEP_LEAD;
	tr->lead = nf;
	return read_again(out, tr, b, *nb, g, ng, ev, gconf, tmp);
}

/*
 * A small lasting step in the native writing of the model's reading: a
 * drive's first foreground GC can cost it only 5-15% of its speed (a
 * datacenter drive's spare area, a QLC drive's native writing), a step the
 * levels, 12% apart before they are two (delta_same), and the model's
 * wander of 25% (decay_step_min) take in.  When the samples show one
 * (slc__mark_small_step()), the levels are made again with the step between
 * two of them and the model reads them once more: the step is then a
 * candidate onset, and a reading that keeps it inside one phase pays for
 * the jump.  @at gets the step's sample (0: none), @fall what it costs.
 * Returns 0 or a negative errno.
 */
static int small_step_read(struct slc_analysis *out, struct trace *tr, struct block *b, size_t *nb, size_t cap,
			   struct group *g, size_t *ng, const struct slc_phase_evidence *ev, double *gconf, double *tmp,
			   size_t *at, double *fall)
{
	size_t from = 0, teeth;
	int ret;

	*at = 0;
	if (!out->model.best.native || out->model.best.erase_bound) return 0;
	/* the native writing begins after the cache's teeth, which the
	 * placement will give the cache (splitting the block they end in
	 * when there is room for one more) */
	teeth = out->has_cache ? slc__cache_teeth_end(tr, b, *nb, tmp, NULL) : 0;
	for (size_t i = 0; i < *nb; i++)
		if (!b[i].dip && b[i].kind == SLC_PHASE_DIRECT_TO_TLC && b[i].i1 > teeth) {
			from = b[i].i0 >= teeth || *nb >= cap ? b[i].i0 : teeth;
			break;
		}
	ret = slc__mark_small_step(tr, b, nb, cap, tmp, from, slc__min_onset(ev, out->model.best.cache_bytes), at,
				   fall);
	if (ret || !*at) return ret;
	return read_again(out, tr, b, *nb, g, ng, ev, gconf, tmp);
}

/*
 * The drive's counters, when the model's reading has native writing and no
 * onset: where they show garbage collection begin (slc__counter_onset():
 * a lasting step in the NAND bytes per host byte; one whose added NAND
 * bytes exceed the cache's size, which folding the cache cannot write; not
 * before a freshly trimmed drive can have one), the block there is split
 * and marked a level of its own (SLC__STEP_COUNTER), trace.ctr_onset keeps
 * its bytes and the model reads the levels once more: the onset there is a
 * candidate, and a reading without it pays counter_cost (model.c).  The
 * boundary is at the counters' sample, or after a drop that holds it.  @wa
 * gets the NAND bytes per host byte before and after, and the counters'
 * onset.  Returns 0 or a negative errno.
 */
static int counter_read(struct slc_analysis *out, struct trace *tr, struct block *b, size_t *nb, size_t cap,
			struct group *g, size_t *ng, const struct slc_phase_evidence *ev, double *gconf, double *tmp,
			double *wa)
{
	double extra, on, cache;
	size_t at = 0, j;

	if (!out->model.best.native || out->model.best.erase_bound) return 0;
	on = counters_onset(out, tr, ev, 0, tr->cum[tr->n], wa, &extra, &cache);
	if (!isfinite(on) || !(extra > cache)) return 0;
	while (at < tr->n && tr->cum[at] < on) at++;
	if (!at || at >= tr->n) return 0;
	/* in a drop (garbage collection often begins with a stall): the level
	 * after it */
	j = slc__mark_step(b, nb, cap, 0, at, SLC__STEP_COUNTER);
	if (j == *nb) return 0;
	tr->ctr_onset = tr->cum[b[j].i0];
	wa[2] = on;
	return read_again(out, tr, b, *nb, g, ng, ev, gconf, tmp);
}

/* What made the levels the model read last: the reasons' lines for the
 * first samples, the small step (@at, @fall) and the counters' onset (@wa:
 * the NAND bytes per host byte each side, the counters' own onset) made
 * levels of their own. */
static void read_again_lines(struct slc_analysis *out, const struct trace *tr, size_t at, double fall,
			     const double *wa)
{
	char x[32];

	if (tr->lead)
		explain_line(out, 160, "the first %zu sample%s, faster than the rest: a level of %s own, read again\n",
			     tr->lead, tr->lead > 1 ? "s" : "", tr->lead > 1 ? "their" : "its");
	if (at)
		explain_line(out, 160, "a lasting step of %.0f%% in the native writing at %s written: two levels, "
			     "read again\n", 100 * fall, slc__fmt_si(x, sizeof(x), tr->cum[at], "B", 4));
	if (tr->ctr_onset > 0)
		explain_line(out, 200, "the drive's counters show garbage collection from %s written (NAND bytes "
			     "per host byte %.2f before, %.2f after), where the speed's reading had no onset: a "
			     "level boundary there, read again\n", slc__fmt_si(x, sizeof(x), wa[2], "B", 4),
			     wa[0], wa[1]);
}

int slc_analyze_ev(struct slc_analysis *out, const struct slc_trace_in *in,
		   const struct slc_cpd_opts *opts, const struct slc_phase_evidence *evp)
{
	return slc__analyze(out, in, opts, evp, 1);
}

/* Blocks the passes after the segmentation may add: each splits one
 * block at most, twelve in all (the lead, the short lead, the small step,
 * the counters' step, the cache's teeth, the onset's refinement, the
 * decay's onset, the coarse cache's end, the coarse onset and its decay's
 * knee, the counters' onset, the short cache); a split without room is
 * not made. */
enum { SPLITS_MAX = 12 };

int slc__analyze(struct slc_analysis *out, const struct slc_trace_in *in,
		 const struct slc_cpd_opts *opts, const struct slc_phase_evidence *evp, int coarse)
{
	struct slc_phase_evidence ev;
	double *gconf = NULL;
	struct trace tr = { 0 };
	struct block *b = NULL;
	struct group *g = NULL;
	size_t *ends = NULL, nb = 0, ng, start = 0, cap;
	double *tmp = NULL, from_s;
	struct shape sh;
	struct slc_analysis ca;
	size_t nbins = 0, step_at = 0;
	double step_fall = 0, wa[3] = { NAN, NAN, NAN };
	int binned = 0;
	int ret;

	if (!out) return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (evp) ev = *evp;
	else slc_phase_evidence_init(&ev);
	tr.mp = slc__ev_mp(&ev);
	out->model.odds = INFINITY;
	out->model.cache_min_bytes = out->model.cache_max_bytes = NAN;
	out->cache_bytes = out->cache_bps = out->cache_end_s = NAN;
	out->erase_bound_start_s = out->erase_bound_start_bytes = NAN;
	if (!in) return -EINVAL;
	ret = slc__load_trace(&tr, in);
	if (ret) goto out;

	ret = -ENOMEM;
	ends = malloc(tr.n * sizeof(*ends));
	tmp = malloc(tr.n * sizeof(*tmp));
	if (!ends || !tmp) goto out;
	ret = slc_changepoints(ends, tr.n, &nb, &out->cpd, tr.v, tr.n, opts);
	if (ret) goto out;

	ret = -ENOMEM;
	/* room for the splits; there are at most as many groups as blocks */
	cap = nb + SPLITS_MAX;
	b = calloc(cap, sizeof(*b));
	g = calloc(cap, sizeof(*g));
	gconf = calloc(cap, sizeof(*gconf));
	if (!b || !g || !gconf) goto out;
	for (size_t j = 0; j < nb; j++) {
		b[j].i0 = start;
		b[j].i1 = start = ends[j];
	}
	ret = slc__emit_phases(&out->segments, &out->n_segments, &tr, b, nb, 1, tmp);
	if (ret) goto out;

	tr.dip_prob = slc__dip_prob(&tr);
	slc__split_lead(&tr, b, &nb, cap);
	while (slc__merge_same(&tr, b, &nb) || slc__merge_transient(&tr, b, &nb, tmp))
		;
	ng = slc__make_groups(&tr, b, nb, g, tmp);
	/* the curve binned to coarse_s, read first: its onset is one the model
	 * scores (binned_group() in model.c), its cache and onset are placed
	 * after it (place()) */
	binned = coarse ? coarse_read(&ca, &nbins, &tr, opts, &ev, tmp) : 0;
	if (binned < 0) {
		ret = binned;
		binned = 0;
		goto out;
	}
	if (binned) {
		tr.binned_onset = ca.erase_bound_start_bytes;
		tr.binned_cache = ca.has_cache ? ca.cache_bytes : 0;
		tr.binned_bin = tr.cum[tr.n] / (double)nbins;
	}
	ret = slc__model_label(&tr, b, g, ng, &ev, &out->model, gconf);
	if (ret < 0) goto out;
	out->has_cache = ret;
	ret = short_lead_read(out, &tr, b, &nb, cap, g, &ng, &ev, gconf, tmp);
	if (ret) goto out;
	ret = small_step_read(out, &tr, b, &nb, cap, g, &ng, &ev, gconf, tmp, &step_at, &step_fall);
	if (ret) goto out;
	ret = counter_read(out, &tr, b, &nb, cap, g, &ng, &ev, gconf, tmp, wa);
	if (ret) goto out;
	read_again_lines(out, &tr, step_at, step_fall, wa);
	for (size_t j = 0; j < nb; j++) b[j].conf = b[j].dip ? 1 : gconf[b[j].group];
	ret = place(out, &tr, b, &nb, cap, g, &ev, binned ? &ca : NULL, nbins, coarse, tmp, &sh);
	if (ret) goto out;
	ret = slc__emit_phases(&out->phases, &out->n_phases, &tr, b, nb, 0, tmp);
	if (ret) goto out;

	from_s = headline(out, slc__t_start(&tr, 0));
	if (coarse) answer_stated(out, &sh);
	ret = steady(out, &tr, &ev, from_s);
out:
	if (binned) slc_analysis_free(&ca);
	slc__free_trace(&tr);
	free(ends);
	free(tmp);
	free(b);
	free(g);
	free(gconf);
	/* nothing half made for the caller to free */
	if (ret) slc_analysis_free(out);
	return ret;
}
