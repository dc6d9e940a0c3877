// SPDX-License-Identifier: MIT
/*
 * The trim-response plan: TRIM; write twice the range; random reads of the
 * second half (the baseline); TRIM the first half; at once random reads of
 * the second half again, sampled every 100 ms: the reviews' "delete a
 * 32 GB file and watch reads".  The result: how long reads stalled and
 * slowed after the TRIM.  The range is 32 GB or a quarter of the target,
 * whichever is less (slc_plan_opts_default), so small drives run it too.
 */
#include <errno.h>
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

/* The result: each random-read segment right after a TRIM, read against
 * the reads before it. */
struct responses {
	size_t n;
	struct slc_trim_response tr[4];
	size_t seg[4];                /* their trace segments */
};

static int analyze(const struct slc_session *x, void *res)
{
	struct responses *r = res;
	double baseline = NAN;
	int after_trim = 0;

	for (size_t i = 0; i < x->in->n_segments && r->n < 4; i++) {
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
		if (!(baseline > 0))
			continue;
		if (!(b = malloc(s->n_samples * sizeof(*b))))
			return -ENOMEM;
		for (size_t k = 0; k < s->n_samples; k++)
			b[k] = (double)s->bytes_total[k] - (k ? (double)s->bytes_total[k - 1] : 0.0);
		if (slc_trim_response(&r->tr[r->n], s->t_s, s->interval_s, b, s->lat_p99_us, s->lat_max_us,
				      s->n_samples, baseline) == 0)
			r->seg[r->n++] = i;
		free(b);
	}
	return r->n > 0;
}

int slc_session_trim_responses(const struct slc_session *x, struct slc_trim_response *out, size_t *seg, size_t max)
{
	const struct responses *r = slc__exp_result(x, &slc__exp_trim_response);
	size_t n = 0;

	for (; r && n < r->n && n < max; n++) {
		out[n] = r->tr[n];
		seg[n] = r->seg[n];
	}
	return (int)n;
}

/* "then 1.20 s at 40% of" or "then no slow reads against": without a slow
 * stretch there is no mean speed of it to state. */
static const char *slow_words(char *buf, size_t len, const struct slc_trim_response *tr)
{
	if (isfinite(tr->slow_frac))
		snprintf(buf, len, "%.2f s at %.0f%% of", tr->slow_s, tr->slow_frac * 100);
	else
		snprintf(buf, len, "no slow reads against");
	return buf;
}

static void print(FILE *f, const void *res, enum slc_unit_system u)
{
	const struct responses *r = res;
	char a[32], slow[64];

	for (size_t i = 0; i < r->n; i++) {
		const struct slc_trim_response *tr = &r->tr[i];
		fprintf(f, "\nreads after the TRIM (segment %zu): stalled %.2f s, then %s %s"
			" (slowest interval %.0f%%)%s; longest read %.1f ms\n", r->seg[i], tr->stall_s,
			slow_words(slow, sizeof(slow), tr), slc_format_rate(a, sizeof(a), tr->baseline_bps, u),
			tr->min_frac * 100, tr->recovered ? "" : ", not back by the end", tr->max_latency_us / 1000);
	}
}

static void json(json_t *doc, const void *res)
{
	const struct responses *r = res;
	json_t *arr = json_array();

	for (size_t i = 0; i < r->n; i++) {
		const struct slc_trim_response *tr = &r->tr[i];
		json_t *o = json_object();
		json_object_set_new(o, "segment", json_integer((json_int_t)r->seg[i]));
		json_object_set_new(o, "baseline_bps", json_real(tr->baseline_bps));
		json_object_set_new(o, "stall_s", json_real(tr->stall_s));
		json_object_set_new(o, "slow_s", json_real(tr->slow_s));
		json_object_set_new(o, "slow_frac", slc__jnum(tr->slow_frac));
		json_object_set_new(o, "min_frac", slc__jnum(tr->min_frac));
		json_object_set_new(o, "max_latency_us", slc__jnum(tr->max_latency_us));
		json_object_set_new(o, "max_p99_us", slc__jnum(tr->max_p99_us));
		json_object_set_new(o, "recovered", json_boolean(tr->recovered));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "trim_response", arr);
}

/* The first response's reads over time: throughput against the baseline
 * above, p99 and longest read below. */
static int draw(const char *path, enum slc_figure_kind kind, const struct slc_session *x, size_t nx,
		const struct slc_figure_opts *o, char *err, size_t errlen)
{
	const struct responses *r = slc__exp_result(x, &slc__exp_trim_response);
	const struct slc_trim_response *tr;
	struct slc_plot_spec ps[2] = { 0 };
	struct slc_plot_series sr[4];
	struct slc_plot_multi m = { 0 };
	struct slc_plot_layout lay;
	const struct slc_input_segment *s;
	double *bps, bx[2], by[2];
	char title[256], sub[512], a[32], slow[64];
	int rc;

	(void)kind; (void)nx;     /* the registry's signature: one drive, one kind */
	if (!r)
		return slc_errf(err, errlen, -EINVAL, "%s has no random reads right after a TRIM (run --plan trim-response)",
				x->in->source);
	tr = &r->tr[0];
	s = &x->in->segments[r->seg[0]];
	if (!(bps = malloc(s->n_samples * sizeof(*bps))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < s->n_samples; i++)
		bps[i] = s->interval_s[i] > 0 ? ((double)s->bytes_total[i] - (i ? (double)s->bytes_total[i - 1] : 0)) / s->interval_s[i] : NAN;
	bx[0] = 0;
	bx[1] = s->t_s[s->n_samples - 1];
	by[0] = by[1] = tr->baseline_bps;
	sr[0] = (struct slc_plot_series){ .label = "reads after the TRIM", .x = s->t_s, .y = bps, .n = s->n_samples, .line_only = 1 };
	sr[1] = (struct slc_plot_series){ .label = "the same reads before it", .x = bx, .y = by, .n = 2, .line_only = 1,
					  .colour = SLC_COL_BLACK + 1 };
	sr[2] = (struct slc_plot_series){ .label = "p99 latency", .x = s->t_s, .y = s->lat_p99_us, .n = s->lat_p99_us ? s->n_samples : 0,
					  .line_only = 1, .colour = SLC_COL_ORANGE + 1 };
	sr[3] = (struct slc_plot_series){ .label = "longest read", .x = s->t_s, .y = s->lat_max_us, .n = s->lat_max_us ? s->n_samples : 0,
					  .line_only = 1, .colour = SLC_COL_PURPLE + 1 };
	ps[0] = (struct slc_plot_spec){ .title = "read throughput", .xlabel = "time since the TRIM (seconds)",
					.ylabel = FIG_RATE_LABEL(o, "read speed"), .x_scale = 1,
					.y_scale = FIG_RATE_DIV(o), .series = sr, .n_series = 2 };
	ps[1] = (struct slc_plot_spec){ .title = "read latency", .xlabel = ps[0].xlabel, .ylabel = "latency (log scale)",
					.x_scale = 1, .y_scale = 1, .series = sr + 2, .n_series = s->lat_p99_us ? 2 : 0,
					.log_y = 1, .y_format = SLC_YFMT_US };
	/* the console's words */
	snprintf(sub, sizeof(sub), "%s; stalled %.2f s, then %s the %s before the TRIM; longest read %.1f ms",
		 s->params.block_bytes ? "random reads" : "reads", tr->stall_s, slow_words(slow, sizeof(slow), tr),
		 slc_format_rate(a, sizeof(a), tr->baseline_bps, FIG_UNITS(o)), tr->max_latency_us / 1000);
	m = (struct slc_plot_multi){ .title = slc__fig_title(title, sizeof(title), x, o, "reads right after a TRIM"),
				     .subtitle = sub, .panels = ps, .n_panels = ps[1].n_series ? 2 : 1, .own_y = 1,
				     .cols = 1, .width = o->width, .theme = o->theme, .height = o->height ? o->height : 760, .layout = &lay };
	if (!(rc = slc_plot_multiples(path, &m, err, errlen)))
		rc = slc__fig_write_layout(o->layout_json, &lay, err, errlen);
	free(bps);
	return rc;
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_TRIM_RESPONSE, "trim-response", "trim-response", "Reads right after a TRIM: throughput and latency",
	  1, 0, draw },
};

const struct slc__experiment slc__exp_trim_response = {
	.name = "trim-response",
	.summary = "reads before and right after a large TRIM: stalls and slowdown",
	.build = build_trim_response,
	.result_size = sizeof(struct responses),
	.analyze = analyze,
	.print = print,
	.json = json,
	.figs = figs,
	.n_figs = 1,
};
