// SPDX-License-Identifier: MIT
/*
 * fio --output-format=json --status-interval=N (import_json.h): the
 * documents follow one another; each job's write.io_bytes is cumulative at
 * its job_runtime (ms), so every job is a curve of bytes against time.
 */
#include "import_json.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../private.h"
#include "impbase.h"

#define MAX_JOBS 1024

int slc__fio_json_detect(const char *text, size_t len)
{
	size_t i = 0, n = len < 4096 ? len : 4096;

	while (i < n && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i < n && text[i] == '{' && memmem(text + i, n - i, "\"fio version\"", 13) != NULL;
}

/* A job's runtime in ms and bytes written so far; -1 when the job lacks them. */
static int job_point(json_t *job, double *t_ms, double *bytes)
{
	json_t *w = json_object_get(job, "write"), *rt = json_object_get(job, "job_runtime");
	json_t *b = json_object_get(w, "io_bytes");

	if (!json_is_integer(rt))
		rt = json_object_get(w, "runtime");     /* fio before job_runtime: the writes' own runtime */
	if (!json_is_integer(b) || !json_is_integer(rt))
		return -1;
	*t_ms = (double)json_integer_value(rt);
	*bytes = (double)json_integer_value(b);
	return *t_ms >= 0 && *bytes >= 0 ? 0 : -1;
}

/* Add a report's point to a job's curve; a repeated time keeps the larger count. */
static int curve_point(struct slc__curve *c, double t, double b)
{
	if (t <= 0)
		return 0;
	if (c->n && t <= c->t[c->n - 1]) {
		if (b < c->b[c->n - 1])
			return -EINVAL;
		c->b[c->n - 1] = b;
		return 0;
	}
	return slc__curve_add(c, t, b);
}

/* One report's jobs into the curves; returns how many jobs it has, or -errno. */
static int one_report(json_t *doc, struct slc__curve *cv, size_t *njobs)
{
	json_t *jobs = json_object_get(doc, "jobs");
	size_t n = json_array_size(jobs);
	int rc;

	if (!json_is_array(jobs) || n == 0 || n > MAX_JOBS)
		return -EINVAL;
	if (*njobs && n != *njobs)
		return -EMLINK;
	*njobs = n;
	for (size_t j = 0; j < n; j++) {
		double t, b;

		if (job_point(json_array_get(jobs, j), &t, &b))
			return -EINVAL;
		if ((rc = curve_point(&cv[j], t / 1e3, b)))
			return rc;
	}
	return (int)n;
}

static int fio_json_reports(struct slc__curve *cv, size_t *njobs, size_t *nrep, size_t *cut, const char *name,
			    const char *text, size_t len, char *err, size_t errlen)
{
	size_t pos = 0;

	for (;;) {
		json_error_t je;
		json_t *doc;
		int rc;

		while (pos < len && strchr(" \t\r\n", text[pos]))
			pos++;
		if (pos >= len)
			return 0;
		if (text[pos] != '{') {
			/* fio's own messages between reports, when stderr went to the same file */
			const char *nl = memchr(text + pos, '\n', len - pos);

			pos = nl ? (size_t)(nl - text) + 1 : len;
			continue;
		}
		doc = json_loadb(text + pos, len - pos, JSON_DISABLE_EOF_CHECK, &je);
		if (!doc) {
			if (*nrep && je.position >= (int)(len - pos) - 1) {
				(*cut)++;    /* the last report cut off (fio stopped while writing it) */
				return 0;
			}
			return slc_errf(err, errlen, -EINVAL, "%s: report %zu is not JSON: %s (line %d)", name,
					*nrep + 1, je.text, je.line);
		}
		rc = one_report(doc, cv, njobs);
		json_decref(doc);
		if (rc == -EMLINK)
			return slc_errf(err, errlen, -EINVAL, "%s: report %zu lists another number of jobs", name,
					*nrep + 1);
		if (rc < 0)
			return slc_errf(err, errlen, -EINVAL,
					"%s: report %zu: %s", name, *nrep + 1,
					rc == -EINVAL ? "a job without write.io_bytes and job_runtime, or bytes that shrink"
						      : "too many reports");
		(*nrep)++;
		pos += (size_t)je.position;
	}
}

int slc__fio_json_import(struct slc_input *in, const char *name, const char *text, size_t len, char *err,
			 size_t errlen)
{
	struct slc__curve *cv = calloc(MAX_JOBS, sizeof(*cv)), sum = { 0 };
	const struct slc__curve *use;
	size_t njobs = 0, nrep = 0, cut = 0, points = 0;
	struct slc__rec r = { .n = 0 };
	char notes[160];
	double g = 0;
	int rc;

	if (!cv)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	rc = fio_json_reports(cv, &njobs, &nrep, &cut, name, text, len, err, errlen);
	for (size_t j = 0; j < njobs; j++)
		points = cv[j].n > points ? cv[j].n : points;
	if (!rc && points < 2)
		rc = slc_errf(err, errlen, -EINVAL,
			      "%s: %zu fio report(s) with writes: a curve needs --status-interval (e.g. 1)", name, nrep);
	if (!rc && njobs > 1) {
		g = slc__curve_step(&cv[0]);
		if (slc__curve_sum(&sum, cv, njobs, g))
			rc = slc_errf(err, errlen, -EINVAL, "%s: the reports span too long for their interval", name);
	}
	use = njobs > 1 ? &sum : &cv[0];
	snprintf(notes, sizeof(notes), "%zu fio JSON reports of %zu job(s)%s%s", nrep, njobs,
		 njobs > 1 ? " summed on the report grid" : "", cut ? "; the last report is cut off, ignored" : "");
	if (!rc && (slc__import_meta(in, name, notes) || slc__curve_segment(in, use, (uint32_t)njobs, 0)))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (!rc) {
		in->format = SLC_INPUT_FIO_JSON;
		slc__rec_str(&r, "format", "fio-json");
		slc__rec_num(&r, "reports", (double)nrep);
		slc__rec_num(&r, "jobs", (double)njobs);
		slc__rec_str(&r, "columns", "jobs[].write.io_bytes (bytes, cumulative) at jobs[].job_runtime (ms)");
		slc__rec_str(&r, "time_axis", njobs > 1 ? "read: job runtimes, summed on the first job's report grid"
							: "read: the job's runtime at each report");
		if (njobs > 1)
			slc__rec_num(&r, "grid_s", g);
		slc__rec_store(in, &r);
	}
	for (size_t j = 0; j < MAX_JOBS; j++)
		slc__curve_free(&cv[j]);
	slc__curve_free(&sum);
	free(cv);
	return rc;
}
