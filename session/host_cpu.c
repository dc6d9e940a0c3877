// SPDX-License-Identifier: MIT
/*
 * Host-bound phases: the writer threads' CPU over a phase, from the
 * samples' writer_cpu and writer_wait columns (docs/trace-format.md: the
 * busiest writer's).  A writer busy all the time submits as fast as the
 * host lets it, so the speed measured then is the host's, whatever the
 * drive could do.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slcscope/session.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void slc_phase_host_of(struct slc_phase_host *out, const struct slc_input_segment *s, double start_s,
		       double end_s)
{
	size_t known = 0, nw = 0, busy = 0;
	double *cpu, *wait;

	*out = (struct slc_phase_host){ .cpu = NAN, .wait = NAN };
	if (!s->writer_cpu || !s->n_samples)
		return;
	cpu = malloc(2 * s->n_samples * sizeof(*cpu));
	if (!cpu)
		return;         /* unknown, as for a trace without the column */
	wait = cpu + s->n_samples;
	for (size_t i = 0; i < s->n_samples; i++) {
		double mid = s->t_s[i] - s->interval_s[i] / 2;
		double c = s->writer_cpu[i], w = s->writer_wait ? s->writer_wait[i] : NAN;

		if (mid < start_s || mid > end_s || !isfinite(c))
			continue;
		cpu[known++] = c;
		if (isfinite(w))
			wait[nw++] = w;
		/* waiting for a CPU other work held is time the writer wanted to run */
		busy += c + (isfinite(w) ? w : 0) >= SLC_HOST_BOUND_SHARE;
	}
	/* a polled ring's waits spin in the kernel (run --hipri): its writer is
	 * busy all the time whatever limits the speed, so that says nothing */
	out->host_bound = known && 2 * busy > known && !(s->params.io_mode && !strcmp(s->params.io_mode, "iopoll"));
	out->cpu = median(cpu, known);
	out->wait = median(wait, nw);
	free(cpu);
}

char *slc_host_bound_words(char *buf, size_t len, const struct slc_phase_host *h)
{
	char waited[64] = "";

	if (isfinite(h->wait) && h->wait >= 0.05)
		snprintf(waited, sizeof(waited), " and waited %.0f%% of the time for one", h->wait * 100);
	snprintf(buf, len, "host-bound: the busiest writer thread used %.0f%% of a core%s; its speed is the "
		 "host's limit, not the drive's", h->cpu * 100, waited);
	return buf;
}

/*
 * What would lift a host-bound step's limit.  Each job of a step on a real
 * target has a writer thread of its own (docs/plans.md, "Jobs"), so while
 * this host has cores the step did not use, more jobs would: as many as
 * the cores, each with its share of the commands the step had in flight
 * (the engine takes 256 at most).  Once every core ran a writer, the host
 * is the limit.
 */
static void advice(char *buf, size_t len, const struct slc_segment_params *p, const struct slc_phase_host *h)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t jobs = p->jobs ? p->jobs : 1, qd = p->queue_depth ? p->queue_depth : 32;
	uint32_t n = cores > 0 ? (uint32_t)(cores < 64 ? cores : 64) : 1, q = qd;
	const char *idle = isfinite(h->wait) && h->wait >= 0.1 ? "on a host with idle cores" : "";
	char what[64], qs[24] = "";

	snprintf(what, sizeof(what), "%u writer thread%s on %ld core%s", jobs, jobs == 1 ? "" : "s", cores,
		 cores == 1 ? "" : "s");
	if (jobs < n && (uint64_t)n * q > 256)
		q = 256 / n;
	if (q != qd)
		snprintf(qs, sizeof(qs), " --qd %u", q);
	if (jobs < n)
		snprintf(buf, len, "%s: try --jobs %u%s (a thread per job)%s%s", what, n, qs, *idle ? ", " : "", idle);
	else if (cores > 0 && jobs > (uint32_t)cores)
		snprintf(buf, len, "%s: the host is the limit (more jobs than cores take turns on them)", what);
	else
		snprintf(buf, len, "%s: the host is the limit; %s", what,
			 *idle ? "run it on a host with idle cores" : "a faster host would lift it");
}

/* Any sample of @path whose writer was busy: without one no phase can be
 * host-bound, and the analysis (seconds on a long trace) is not needed. */
static int any_busy_sample(const char *path)
{
	struct slc_input *in = NULL;
	char err[256];
	int busy = 0;

	if (slc_input_load(&in, path, err, sizeof(err)))
		return 0;
	for (size_t k = 0; k < in->n_segments && !busy; k++) {
		const struct slc_input_segment *s = &in->segments[k];

		for (size_t i = 0; s->writer_cpu && i < s->n_samples && !busy; i++) {
			double w = s->writer_wait ? s->writer_wait[i] : NAN;

			busy = s->writer_cpu[i] + (isfinite(w) ? w : 0) >= SLC_HOST_BOUND_SHARE;
		}
	}
	slc_input_free(in);
	return busy;
}

size_t slc_session_host_note(char *buf, size_t len, const char *path)
{
	struct slc_session x = { 0 };
	const struct slc_phase_host *worst = NULL;
	const struct slc_segment_params *wp = NULL;
	const char *step = "";
	size_t n = 0, all = 0;
	char err[256], w[320], a[160];

	buf[0] = '\0';
	if (!any_busy_sample(path) || slc_session_load(&x, path, -1, NULL, err, sizeof(err)))
		return 0;
	for (size_t k = 0; k < x.n; k++) {
		const struct slc_session_drive *d = &x.drive[k];

		all += x.a[k].n_phases;
		for (size_t p = 0; d->phase_host && p < x.a[k].n_phases; p++) {
			if (!d->phase_host[p].host_bound)
				continue;
			n++;
			if (!worst || d->phase_host[p].cpu > worst->cpu) {
				worst = &d->phase_host[p];
				wp = &x.in->segments[x.seg[k]].params;
				step = wp->step;
			}
		}
	}
	if (worst) {
		advice(a, sizeof(a), wp, worst);
		snprintf(buf, len, "%zu of %zu phase%s %s host-bound (the busiest, in %s: %s); %s", n, all,
			 all == 1 ? "" : "s", n == 1 ? "was" : "were", step ? step : "",
			 slc_host_bound_words(w, sizeof(w), worst), a);
	}
	slc_session_free(&x);
	return n;
}
