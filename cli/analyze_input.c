// SPDX-License-Identifier: MIT
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_input.h"
#include "cli.h"
#include "curve_plot.h"

int analyzed_is_curve(const struct slc_input_segment *s)
{
	const char *w = s->params.workload ? s->params.workload : "";

	return s->n_samples >= 2 && strcmp(w, "trim") && strcmp(w, "idle") && strcmp(w, "rand_read");
}

void analyzed_free(struct analyzed *x)
{
	for (size_t i = 0; i < x->n; i++) {
		slc_analysis_free(&x->a[i]);
		free(x->bytes[i]);
	}
	free(x->a);
	free(x->bytes);
	free(x->seg);
	slc_input_free(x->in);
	memset(x, 0, sizeof(*x));
}

int analyzed_load(struct analyzed *x, const char *cmd, const char *path, long only,
		  const struct slc_cpd_opts *opts)
{
	char err[512];
	int rc;

	memset(x, 0, sizeof(*x));
	if ((rc = slc_input_load(&x->in, path, err, sizeof(err))))
		return cli_fail(cmd, "%s", err);
	if (only >= 0 && (size_t)only >= x->in->n_segments) {
		cli_fail(cmd, "%s has %zu segments; there is no segment %ld", path, x->in->n_segments, only);
		analyzed_free(x);
		return CLI_FAIL;
	}
	x->seg = calloc(x->in->n_segments + 1, sizeof(*x->seg));
	x->a = calloc(x->in->n_segments + 1, sizeof(*x->a));
	x->bytes = calloc(x->in->n_segments + 1, sizeof(*x->bytes));
	if (!x->seg || !x->a || !x->bytes) {
		analyzed_free(x);
		return cli_fail(cmd, "out of memory");
	}
	for (size_t i = 0; i < x->in->n_segments; i++) {
		const struct slc_input_segment *s = &x->in->segments[i];
		struct slc_trace_in ti;
		double *b;

		if ((only >= 0 && (size_t)only != i) || !analyzed_is_curve(s))
			continue;
		b = malloc(s->n_samples * sizeof(*b));
		if (!b) {
			analyzed_free(x);
			return cli_fail(cmd, "out of memory");
		}
		for (size_t k = 0; k < s->n_samples; k++)
			b[k] = (double)s->bytes_total[k] - (k ? (double)s->bytes_total[k - 1] : 0.0);
		ti = (struct slc_trace_in){ .t_s = s->t_s, .interval_s = s->interval_s, .bytes = b,
					    .n = s->n_samples, .block_bytes = s->params.block_bytes };
		x->bytes[x->n] = b;
		x->seg[x->n] = i;
		if ((rc = slc_analyze(&x->a[x->n], &ti, opts))) {
			x->n++;
			cli_fail(cmd, "%s: segment %zu (%s): cannot analyse: %s", path, i,
				 s->params.step ? s->params.step : "-", strerror(-rc));
			analyzed_free(x);
			return CLI_FAIL;
		}
		x->n++;
	}
	if (!x->n) {
		cli_fail(cmd, "%s: no write curve to analyse (no segment with at least 2 samples of writes)", path);
		analyzed_free(x);
		return CLI_FAIL;
	}
	return 0;
}

int analyzed_json(char **out, const struct analyzed *x)
{
	char *text = NULL;
	json_t *doc, *segs;
	json_error_t jerr;
	int rc = slc_phases_json(&text, x->a, x->n);

	if (rc)
		return rc;
	doc = json_loads(text, 0, &jerr);
	free(text);
	if (!doc)
		return -ENOMEM;
	segs = json_object_get(doc, "segments");
	for (size_t i = 0; i < x->n && i < json_array_size(segs); i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		json_t *o = json_array_get(segs, i);
		json_object_set_new(o, "segment", json_integer((json_int_t)x->seg[i]));
		json_object_set_new(o, "step", json_string(s->params.step ? s->params.step : ""));
		json_object_set_new(o, "workload", json_string(s->params.workload ? s->params.workload : ""));
		json_object_set_new(o, "block_bytes", json_integer(s->params.block_bytes));
		json_object_set_new(o, "idle_before_s", json_real(s->params.idle_before_s));
	}
	{
		double t[16], c[16], fresh, rate;
		int n = idle_recovery_points(x, t, c, 16, &fresh);
		if (n >= 1) {
			json_t *ir = json_object(), *pts = json_array();
			for (int i = 0; i < n; i++) {
				json_t *pt = json_object();
				json_object_set_new(pt, "idle_s", json_real(t[i]));
				json_object_set_new(pt, "cache_bytes", json_real(c[i]));
				json_object_set_new(pt, "cache_frac", fresh > 0 ? json_real(c[i] / fresh) : json_null());
				json_array_append_new(pts, pt);
			}
			rate = idle_fold_rate_bps(t, c, (size_t)n, fresh);
			json_object_set_new(ir, "fresh_cache_bytes", isfinite(fresh) ? json_real(fresh) : json_null());
			json_object_set_new(ir, "fold_bps", isfinite(rate) ? json_real(rate) : json_null());
			json_object_set_new(ir, "points", pts);
			json_object_set_new(doc, "idle_recovery", ir);
		}
	}
	json_object_set_new(doc, "source", json_string(x->in->source ? x->in->source : ""));
	if (x->in->meta.target)
		json_object_set_new(doc, "target", json_string(x->in->meta.target));
	*out = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(doc);
	return *out ? 0 : -ENOMEM;
}
