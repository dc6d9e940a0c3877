// SPDX-License-Identifier: MIT
/*
 * The plans' experiments read from an analysed session: fill levels,
 * compressibility, reads after a TRIM, host idle recovery, idle recovery
 * and the folding rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"

/* Mean write speed of a whole segment: bytes / time. */
static double seg_write_bps(const struct slc_input_segment *s)
{
	double t = s->n_samples ? s->t_s[s->n_samples - 1] : 0;

	return t > 0 ? (double)s->bytes_total[s->n_samples - 1] / t : NAN;
}

int slc_session_fill_levels(const struct slc_session *x, struct slc_fill_level *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n && n < max; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const char *st = s->params.step ? s->params.step : "";
		int at = s->params.role_arg > 0;
		if (s->params.role != SLC_ROLE_LEVEL_BURST)
			continue;
		out[n++] = (struct slc_fill_level){
			.step = st, .fill_pct = (int)s->params.role_arg, .after_trim = !at,
			.cache_bytes = x->a[i].has_cache ? x->a[i].cache_bytes : 0, .mean_bps = seg_write_bps(s),
		};
	}
	return (int)n;
}

int slc_session_compressibility(const struct slc_session *x, double *random_bps, double *repeating_bps)
{
	*random_bps = *repeating_bps = NAN;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		if (s->params.role == SLC_ROLE_DATA_RANDOM) *random_bps = seg_write_bps(s);
		if (s->params.role == SLC_ROLE_DATA_REPEAT) *repeating_bps = seg_write_bps(s);
	}
	return isfinite(*random_bps) && isfinite(*repeating_bps);
}

/* Mean read speed of a segment (bytes / time). */
static double seg_mean_bps(const struct slc_input_segment *s)
{
	double t = 0;

	for (size_t k = 0; k < s->n_samples; k++)
		t += s->interval_s[k];
	return t > 0 && s->n_samples ? (double)s->bytes_total[s->n_samples - 1] / t : NAN;
}

int slc_session_trim_responses(const struct slc_session *x, struct slc_trim_response *out, size_t *seg, size_t max)
{
	size_t n = 0;
	double baseline = NAN;
	int after_trim = 0;

	for (size_t i = 0; i < x->in->n_segments && n < max; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		enum slc_workload w = slc_workload_from_name(s->params.workload);
		double *b;

		if (w == SLC_WL_TRIM) {
			after_trim = 1;
			continue;
		}
		if (w != SLC_WL_RAND_READ || s->n_samples == 0) {
			after_trim = 0;      /* only reads right after a TRIM count */
			continue;
		}
		if (!after_trim) {
			baseline = seg_mean_bps(s);
			continue;
		}
		after_trim = 0;
		if (!(baseline > 0) || !(b = malloc(s->n_samples * sizeof(*b))))
			continue;
		for (size_t k = 0; k < s->n_samples; k++)
			b[k] = (double)s->bytes_total[k] - (k ? (double)s->bytes_total[k - 1] : 0.0);
		if (slc_trim_response(&out[n], s->t_s, s->interval_s, b, s->lat_p99_us, s->lat_max_us,
				      s->n_samples, baseline) == 0)
			seg[n++] = i;
		free(b);
	}
	return (int)n;
}

int slc_session_hir(const struct slc_session *x, double *wait_s, double *iops, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < x->in->n_segments && n < max; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		double busy = 0;

		if (slc_workload_from_name(s->params.workload) != SLC_WL_RAND_WRITE_DUTY || !s->n_samples ||
		    !s->params.block_bytes || s->params.role != SLC_ROLE_HIR_ROUNDS)
			continue;
		/* the samples cover the write windows only: their time is the busy time */
		for (size_t k = 0; k < s->n_samples; k++)
			busy += s->interval_s[k];
		wait_s[n] = s->params.role_arg;
		iops[n] = busy > 0 ? (double)s->bytes_total[s->n_samples - 1] / s->params.block_bytes / busy : NAN;
		n++;
	}
	return (int)n;
}

void slc_session_print_experiments(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	char a[32], b[32];

	{
		/* fill-levels plan: the cache at each level */
		struct slc_fill_level lv[16];
		int nl = slc_session_fill_levels(x, lv, 16);
		for (int i = 0; i < nl; i++) {
			char pct[16];
			snprintf(pct, sizeof(pct), "%d%%", lv[i].fill_pct);
			fprintf(f, "%s %s %s;", i ? "" : "\ncache by fill level:", lv[i].after_trim ? "after TRIM" : pct,
				lv[i].cache_bytes > 0 ? slc_format_bytes(a, sizeof(a), lv[i].cache_bytes, u) : "none");
		}
		if (nl > 0)
			fprintf(f, "\n");
	}
	{
		/* compress plan: the same burst with random and with repeating data */
		double rnd, rep;
		if (slc_session_compressibility(x, &rnd, &rep))
			fprintf(f, "\ncompressibility: random data %s, repeating data %s: %.2fx\n",
				slc_format_rate(a, sizeof(a), rnd, u), slc_format_rate(b, sizeof(b), rep, u), rep / rnd);
	}
	{
		double w[8], io[8];
		int n = slc_session_hir(x, w, io, 8);
		if (n > 0) {
			fprintf(f, "\nSNIA host idle recovery (IOPS of the 5 s write windows):");
			for (int i = 0; i < n; i++)
				fprintf(f, " wait %.0f s: %s;", w[i], slc_format_iops(a, sizeof(a), io[i]));
			fprintf(f, "\n");
		}
	}
	{
		struct slc_trim_response tr[4];
		size_t tseg[4];
		int n = slc_session_trim_responses(x, tr, tseg, 4);
		for (int i = 0; i < n; i++) {
			fprintf(f, "\nreads after the TRIM (segment %zu): stalled %.2f s, then %.2f s at %.0f%% of %s"
				" (slowest interval %.0f%%)%s; longest read %.1f ms\n", tseg[i], tr[i].stall_s, tr[i].slow_s,
				tr[i].slow_frac * 100, slc_format_rate(a, sizeof(a), tr[i].baseline_bps, u), tr[i].min_frac * 100,
				tr[i].recovered ? "" : ", not back by the end", tr[i].max_latency_us / 1000);
		}
	}
	{
		double t[16], c2[16], fresh, rate;
		int n = slc_session_idle_recovery(x, t, c2, 16, &fresh);
		if (n >= 2) {
			rate = slc_idle_fold_rate_bps(t, c2, (size_t)n, fresh);
			fprintf(f, "\nidle recovery (cache found after each wait):");
			for (int i = 0; i < n; i++)
				fprintf(f, " %s: %s;", slc_format_duration(a, sizeof(a), (uint64_t)(t[i] * 1e9)),
					slc_format_bytes(b, sizeof(b), c2[i], u));
			if (isfinite(rate))
				fprintf(f, "\n  folding about %s (%s per minute)\n", slc_format_rate(a, sizeof(a), rate, u),
					slc_format_bytes(b, sizeof(b), rate * 60, u));
			else
				fprintf(f, "\n  the whole cache was back after the shortest wait\n");
		}
	}
}

int slc_session_idle_recovery(const struct slc_session *x, double *idle_s, double *cache_bytes, size_t max,
			 double *fresh_bytes)
{
	size_t n = 0, ref = SIZE_MAX;

	*fresh_bytes = NAN;
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		struct slc_recovery r;
		if (slc_workload_from_name(s->params.workload) != SLC_WL_RAND_WRITE)
			continue;
		if (ref == SIZE_MAX) {
			ref = i;
			*fresh_bytes = x->a[i].has_cache ? x->a[i].cache_bytes : 0;
			continue;
		}
		if (s->params.role != SLC_ROLE_IDLE_BURST || !(s->params.idle_before_s > 0) || n == max)
			continue;
		if (slc_recovery(&r, &x->a[ref], &x->a[i]))
			continue;
		idle_s[n] = s->params.idle_before_s;
		cache_bytes[n] = r.cache_bytes;
		n++;
	}
	return (int)n;
}

double slc_idle_fold_rate_bps(const double *idle_s, const double *cache_bytes, size_t n, double fresh_bytes)
{
	double sxy = 0, sxx = 0;

	/* least squares through the origin over the waits that did not yet
	 * bring the whole cache back: the slope is the folding rate */
	for (size_t i = 0; i < n; i++) {
		if (isfinite(fresh_bytes) && fresh_bytes > 0 && cache_bytes[i] >= 0.9 * fresh_bytes)
			continue;
		sxy += idle_s[i] * cache_bytes[i];
		sxx += idle_s[i] * idle_s[i];
	}
	return sxx > 0 ? sxy / sxx : NAN;
}
