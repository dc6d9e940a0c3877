// SPDX-License-Identifier: MIT
/*
 * Phases from labelled blocks, and the summary figures of each phase.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/* Statistics of the phase [start_s, end_s] from whole samples i0..i1. */
static void phase_stats(const struct trace *tr, struct slc_phase *p, size_t i0,
			size_t i1, double *tmp)
{
	size_t lo = i0, hi = i1, m;
	double s = 0, s2 = 0, eps;
	/* time no sample covers is the host's, not the drive's: a stopped
	 * process leaves a gap in t_s (a host_pause event, docs/trace-format.md) */
	double dur = slc__covered(tr, p->start_s, p->end_s);

	eps = 1e-6 * (tr->dt[i0] > 0 ? tr->dt[i0] : 1);
	/* drop samples straddling a boundary unless nothing would be left */
	while (lo < hi && slc__t_start(tr, lo) < p->start_s - eps) lo++;
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
	p->median_bps = slc__quantile(tr, tmp, m, 0.5);
	p->p5_bps = slc__quantile(tr, tmp, m, 0.05);
	p->p95_bps = slc__quantile(tr, tmp, m, 0.95);
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
int slc__emit_phases(struct slc_phase **out, size_t *n_out,
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
			ph[np - 1].conf = fmin(ph[np - 1].conf, b[j].conf);
			continue;
		}
		ph[np++] = b[j];
	}
	p = calloc(np, sizeof(*p));
	if (!p) {
		free(ph);
		return -ENOMEM;
	}
	p[0].start_s = slc__t_start(tr, 0);
	p[0].start_bytes = 0;
	for (size_t q = 0; q < np; q++) {
		double range[2];

		p[q].kind = (enum slc_phase_kind)ph[q].kind;
		p[q].tier = ph[q].tier;
		if (q + 1 < np) {
			slc__balance(tr, ph[q].i0, ph[q].i1, ph[q + 1].i1,
				     &p[q].end_s, &p[q].end_bytes, range, tmp);
			p[q].end_lo_bytes = fmin(range[0], p[q].end_bytes);
			p[q].end_hi_bytes = fmax(range[1], p[q].end_bytes);
			p[q + 1].start_s = p[q].end_s;
			p[q + 1].start_bytes = p[q].end_bytes;
		} else {
			p[q].end_s = tr->t[tr->n - 1];
			p[q].end_lo_bytes = p[q].end_hi_bytes = p[q].end_bytes = tr->cum[tr->n];
		}
	}
	for (size_t q = 0; q < np; q++) {
		phase_stats(tr, p + q, ph[q].i0, ph[q].i1, tmp);
		p[q].confidence = keep_all ? NAN : ph[q].conf;
	}
	free(ph);
	*out = p;
	*n_out = np;
	return 0;
}
