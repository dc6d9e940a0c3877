// SPDX-License-Identifier: MIT
/*
 * The tidy export (slcscope export --tidy): one CSV row per sample with
 * the segment's parameters repeated and the analysed phase of the sample,
 * so that pandas or R group and plot it without joining tables.  The
 * columns are documented in docs/import.md, "Tidy export".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/session.h"

static const char tidy_header[] =
	"step,experiment,segment,role,workload,block_bytes,queue_depth,t_s,interval_s,bytes,mb_s,iops,"
	"lat_p50_us,lat_p99_us,lat_p999_us,lat_max_us,temp_c,phase,cache_tier\n";

void slc_csv_field(FILE *f, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n)
		return;
	if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && s[0] != '\t' && s[n - 1] != ' ' && s[n - 1] != '\t') {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A count, empty when 0 means "not recorded" (an import's block size). */
static void count(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, "%" PRIu64, v);
}

/*
 * A number followed by a separator; empty when unknown (NAN).  15 digits
 * keep nanoseconds over 11 days and every byte count below a petabyte,
 * without the 17th digit's noise (15.000000000000002 s) or exponents.
 */
static void num_sep(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	fputc(',', f);
}

/* The analysed segment of trace segment @si, or NULL. */
static const struct slc_analysis *analysis_of(const struct slc_session *x, size_t si)
{
	for (size_t k = 0; k < x->n; k++)
		if (x->seg[k] == si)
			return &x->a[k];
	return NULL;
}

/*
 * The phase holding most of the interval that ends at @t_end: the one its
 * middle falls in (phases are contiguous with sub-sample boundaries).  The
 * last phase keeps its end so that the final sample is not left out.
 */
static const struct slc_phase *phase_at(const struct slc_analysis *a, double t_end, double interval_s)
{
	double mid = t_end - (interval_s > 0 ? interval_s / 2 : 0);

	for (size_t p = 0; a && p < a->n_phases; p++) {
		const struct slc_phase *ph = &a->phases[p];

		if (mid >= ph->start_s && (mid < ph->end_s || (p + 1 == a->n_phases && mid <= ph->end_s)))
			return ph;
	}
	return NULL;
}

/* Whether the segment counted its I/Os: an import of a bandwidth log has
 * bytes but no command count, and its IOPS are unknown, not zero. */
static int ios_recorded(const struct slc_input_segment *s)
{
	uint64_t ios = 0;

	for (size_t j = 0; j < s->n_samples; j++)
		ios += s->ios[j];
	return ios > 0 || !s->n_samples || !s->bytes_total[s->n_samples - 1];
}

static void tidy_row(FILE *f, const struct slc_input_segment *s, size_t si, size_t j, const char *experiment,
		     const struct slc_analysis *a, int with_ios)
{
	const struct slc_segment_params *p = &s->params;
	double dt = s->interval_s[j];
	double d_bytes = (double)s->bytes_total[j] - (j ? (double)s->bytes_total[j - 1] : 0.0);
	const struct slc_phase *ph = phase_at(a, s->t_s[j], dt);

	slc_csv_field(f, p->step);
	fputc(',', f);
	slc_csv_field(f, experiment);
	fprintf(f, ",%zu,", si);
	slc_csv_field(f, slc_role_name(p->role));
	fputc(',', f);
	slc_csv_field(f, p->workload);
	fputc(',', f);
	count(f, p->block_bytes);
	fputc(',', f);
	count(f, p->queue_depth);
	fputc(',', f);
	num_sep(f, s->t_s[j]);
	num_sep(f, dt);
	fprintf(f, "%" PRIu64 ",", s->bytes_total[j]);
	num_sep(f, dt > 0 ? d_bytes / dt / 1e6 : NAN);
	num_sep(f, dt > 0 && with_ios ? (double)s->ios[j] / dt : NAN);
	num_sep(f, s->lat_p50_us[j]);
	num_sep(f, s->lat_p99_us[j]);
	num_sep(f, s->lat_p999_us[j]);
	num_sep(f, s->lat_max_us[j]);
	num_sep(f, s->temp_c[j]);
	if (ph)
		slc_csv_field(f, slc_phase_label(ph, a->model.cell));
	fputc(',', f);
	if (ph && ph->kind == SLC_PHASE_SLC_CACHE && ph->tier)
		fprintf(f, "%u", ph->tier);
	fputc('\n', f);
}

int slc_session_export_tidy(FILE *f, const struct slc_session *x)
{
	const struct slc_input *in = x->in;

	fputs(tidy_header, f);
	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_input_segment *s = &in->segments[i];
		const struct slc_analysis *a = analysis_of(x, i);
		int with_ios = ios_recorded(s);

		for (size_t j = 0; j < s->n_samples; j++)
			tidy_row(f, s, i, j, in->meta.plan, a, with_ios);
	}
	return slc_stream_error(f);
}

static int tidy_tmp(const char *tmp, FILE *f, void *arg, char *err, size_t errlen)
{
	int rc = slc_session_export_tidy(f, arg);

	(void)tmp;
	return rc ? slc_errf(err, errlen, rc, "cannot write the export: %s", strerror(-rc)) : 0;
}

/* The session the tidy table is made of; an input without a curve to
 * analyse (TRIM and idle steps only) still has its samples, without phases. */
static int tidy_session(struct slc_session *x, const char *input, const struct slc_import_opts *io, char *err,
			size_t errlen)
{
	int rc;

	x->allow_no_curve = 1;
	rc = slc_session_load_many(x, &input, 1, io, -1, NULL, err, errlen);
	if (rc == -ENODATA) {
		slc_session_free(x);
		rc = slc_input_load_opts(&x->in, input, io, err, errlen);
	}
	return rc;
}

int slc_session_export(const char *input, const struct slc_import_opts *io, enum slc_export_format fmt,
		       const char *path, const struct slc_output_opts *oo, char *err, size_t errlen)
{
	const struct slc_output_opts def = { .kind = SLC_OUTPUT_TEXT, .inputs = &input, .n_inputs = 1, .stdout_ok = 1 };
	struct slc_session x = { 0 };
	int rc;

	if (fmt != SLC_EXPORT_TIDY) {
		if (!(rc = slc_input_load_opts(&x.in, input, io, err, errlen)))
			rc = slc_input_export_file(x.in, path, fmt == SLC_EXPORT_JSON, oo ? oo : &def, err, errlen);
	} else if (!(rc = tidy_session(&x, input, io, err, errlen))) {
		rc = slc_output_write(path ? path : "-", oo ? oo : &def, tidy_tmp, &x, err, errlen);
	}
	slc_session_free(&x);
	return rc;
}
