// SPDX-License-Identifier: MIT
/*
 * The trim-response plan: TRIM; write twice the range; random reads of the
 * second half (the baseline); TRIM the first half; at once random reads of
 * the second half again, sampled every 100 ms: the reviews' "delete a
 * 32 GB file and watch reads".  The result: how long reads stalled and
 * slowed after the TRIM.  The range is 32 GB or a quarter of the target,
 * whichever is less (slc_plan_opts_default), so small drives run it too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_trim_response(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	struct slc_step *st;
	struct slc_size twice = o->trim_bytes;

	(void)err; (void)errlen;
	/* both may be set (the lesser counts): double both */
	twice.capacity_multiple *= 2;
	twice.bytes *= 2;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "fill", SLC_ROLE_FILL, 0, SLC_JOB_SEQ_WRITE, o, 0, twice);
	/* the reads stay in the half that is not deleted */
	for (int k = 0; k < 2; k++) {
		slc_plan_add_job(p, k ? "read_after_trim" : "read_before_trim",
			k ? SLC_ROLE_READ_AFTER_TRIM : SLC_ROLE_READ_BASELINE, 0, SLC_JOB_RAND_READ, o,
			k ? o->read_ns : 5000000000ull, slc__no_size);
		st = &p->step[p->n - 1];
		st->job.block_bytes = 4096;
		st->job.interval_ns = 100000000ull;
		st->offset = st->range = o->trim_bytes;
		if (!k) {
			st = slc_plan_add_step(p, "trim_range", SLC_STEP_TRIM, SLC_ROLE_TRIM_RANGE, 0);
			st->bytes = o->trim_bytes;
		}
	}
	return 0;
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

static void print(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	struct slc_trim_response tr[4];
	size_t tseg[4];
	int n = slc_session_trim_responses(x, tr, tseg, 4);
	char a[32];

	for (int i = 0; i < n; i++) {
		char slow[64] = "no slow reads against";

		/* without a slow stretch there is no mean speed of it to state */
		if (isfinite(tr[i].slow_frac))
			snprintf(slow, sizeof(slow), "%.2f s at %.0f%% of", tr[i].slow_s, tr[i].slow_frac * 100);
		fprintf(f, "\nreads after the TRIM (segment %zu): stalled %.2f s, then %s %s"
			" (slowest interval %.0f%%)%s; longest read %.1f ms\n", tseg[i], tr[i].stall_s, slow,
			slc_format_rate(a, sizeof(a), tr[i].baseline_bps, u), tr[i].min_frac * 100,
			tr[i].recovered ? "" : ", not back by the end", tr[i].max_latency_us / 1000);
	}
}

static void json(json_t *doc, const struct slc_session *x)
{
	struct slc_trim_response tr[4];
	size_t tseg[4];
	int n = slc_session_trim_responses(x, tr, tseg, 4);
	json_t *arr;

	if (n <= 0)
		return;
	arr = json_array();
	for (int i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "segment", json_integer((json_int_t)tseg[i]));
		json_object_set_new(o, "baseline_bps", json_real(tr[i].baseline_bps));
		json_object_set_new(o, "stall_s", json_real(tr[i].stall_s));
		json_object_set_new(o, "slow_s", json_real(tr[i].slow_s));
		json_object_set_new(o, "slow_frac", slc__jnum(tr[i].slow_frac));
		json_object_set_new(o, "min_frac", slc__jnum(tr[i].min_frac));
		json_object_set_new(o, "max_latency_us", slc__jnum(tr[i].max_latency_us));
		json_object_set_new(o, "max_p99_us", slc__jnum(tr[i].max_p99_us));
		json_object_set_new(o, "recovered", json_boolean(tr[i].recovered));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "trim_response", arr);
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_TRIM_RESPONSE, "trim-response", "trim-response", "Reads right after a TRIM: throughput and latency",
	  1, 0, slc__figure_trim_response },
};

const struct slc__experiment slc__exp_trim_response = {
	.name = "trim-response",
	.summary = "reads before and right after a large TRIM: stalls and slowdown",
	.build = build_trim_response,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
