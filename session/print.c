// SPDX-License-Identifier: MIT
/* The phase breakdown of an analysed session in words and a table (slcscope analyze). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/session.h"
#include "exp/exp.h"
#include "sweep.h"

static const char *kind_label(const struct slc_phase *p, enum slc_cell cell, char *buf, size_t len)
{
	if (p->kind == SLC_PHASE_SLC_CACHE && p->tier)
		snprintf(buf, len, "slc_cache tier %u", p->tier);
	else
		snprintf(buf, len, "%s", slc_phase_label(p, cell));
	return buf;
}

/* The boundary range of the phase that ends at @bytes (the cache's last
 * tier, the phase before the onset). */
static const struct slc_phase *phase_ending(const struct slc_analysis *an, double bytes)
{
	for (size_t q = 0; q < an->n_phases; q++)
		if (an->phases[q].end_bytes == bytes) return &an->phases[q];
	return NULL;
}

static void print_cache_onset(FILE *f, const struct slc_analysis *an, enum slc_unit_system u)
{
	char a[32], b[32], c[32], d[32];
	const struct slc_phase *p;

	if (an->has_cache) {
		p = phase_ending(an, an->cache_bytes);
		fprintf(f, "  SLC cache: %s at %s, used up at %.1f s", slc_format_bytes(a, sizeof(a), an->cache_bytes, u),
			slc_format_rate(b, sizeof(b), an->cache_bps, u), an->cache_end_s);
		if (p && p->end_hi_bytes > p->end_lo_bytes)
			fprintf(f, " (ends within %s-%s)", slc_format_bytes(c, sizeof(c), p->end_lo_bytes, u),
				slc_format_bytes(d, sizeof(d), p->end_hi_bytes, u));
		fprintf(f, "\n");
	} else if (an->model.cache_bound) {
		char w[320];
		fprintf(f, "  SLC cache: %s\n", slc_cache_bound_words(w, sizeof(w), an, u));
	} else if (an->model.best.buffer_bytes > 0) {
		fprintf(f, "  SLC cache: none seen (the first %s were a write buffer's burst: too few bytes for an "
			   "SLC cache on this capacity)\n", slc_format_bytes(a, sizeof(a), an->model.best.buffer_bytes, u));
	} else {
		fprintf(f, "  SLC cache: none seen\n");
	}
	if (isfinite(an->erase_bound_start_s)) {
		p = phase_ending(an, an->erase_bound_start_bytes);
		fprintf(f, "  erase-bound from %.1f s, %s written", an->erase_bound_start_s,
			slc_format_bytes(a, sizeof(a), an->erase_bound_start_bytes, u));
		if (p && p->end_hi_bytes > p->end_lo_bytes)
			fprintf(f, " (within %s-%s)", slc_format_bytes(c, sizeof(c), p->end_lo_bytes, u),
				slc_format_bytes(d, sizeof(d), p->end_hi_bytes, u));
		fprintf(f, "\n");
	}
}

/* SNIA steady state, and from where it was searched (the preconditioning rule). */
static void print_steady(FILE *f, const struct slc_analysis *an, enum slc_unit_system u)
{
	char a[32], b[32];
	const struct slc_steady_state *st = &an->steady;

	if (st->reached)
		fprintf(f, "  SNIA steady state: reached, %.0f-%.0f s at %s", st->start_s, st->end_s,
			slc_format_rate(a, sizeof(a), st->avg_bps, u));
	else
		fprintf(f, "  SNIA steady state: not reached");
	switch (st->rule) {
	case SLC_STEADY_AFTER_PRECONDITION:
		fprintf(f, " (counted after %s written, the preconditioning", slc_format_bytes(b, sizeof(b), st->from_bytes, u));
		if (an->n_phases && an->phases[an->n_phases - 1].end_bytes < st->from_bytes) fprintf(f, "; the curve wrote less");
		fprintf(f, ")");
		break;
	case SLC_STEADY_AFTER_ONSET:
		fprintf(f, " (counted from the erase-bound onset; give --capacity for the 2x preconditioning rule)");
		break;
	case SLC_STEADY_NOT_SEARCHED:
		fprintf(f, " (not searched: no erase-bound onset, and without --capacity the 2x preconditioning "
			   "cannot be counted)");
		break;
	default:
		break;
	}
	fprintf(f, "\n");
}

/* How sure the model is, the runner-up when it is close, the reasons with
 * --explain. */
static void print_model(FILE *f, const struct slc_session *x, size_t i, enum slc_unit_system u)
{
	const struct slc_model_info *m = &x->a[i].model;
	const struct slc_phase_evidence *ev = &x->ev[i];
	char w[320], a[32];

	fprintf(f, "  the model: %s", slc_model_sure_words(w, sizeof(w), m));
	if (ev->capacity_bytes > 0) fprintf(f, "; %s", slc_format_bytes(a, sizeof(a), ev->capacity_bytes, u));
	if (ev->cell) fprintf(f, " %s", slc_cell_name(ev->cell));
	if (ev->state == SLC_STATE_TRIMMED) fprintf(f, ", after a TRIM");
	else if (ev->state == SLC_STATE_USED) fprintf(f, ", written over before");
	if (isfinite(ev->ref_cache_bps) || isfinite(ev->ref_native_bps)) fprintf(f, ", read against the main curve");
	fprintf(f, "\n");
	if (m->runner_up.valid && m->close_call) {
		slc_reading_words(w, sizeof(w), &m->runner_up, u);
		fprintf(f, "  runner-up (odds %.1f : 1 against): %s\n", m->odds, w);
	}
	if (m->settle) fprintf(f, "  to decide: %s\n", slc_settle_words(w, sizeof(w), m->settle));
	if (x->hints.explain && m->explain[0]) {
		const char *p = m->explain;
		fprintf(f, "  why:\n");
		while (*p) {
			const char *e = strchr(p, '\n');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			fprintf(f, "    %.*s\n", (int)l, p);
			p += l + (e ? 1 : 0);
		}
	}
}

void slc_session_print(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], k[32];
	long ref = slc_session_pick(x, 0);

	fprintf(f, "%s", x->in->source);
	if (x->in->meta.target && x->in->meta.target[0])
		fprintf(f, " (target %s)", x->in->meta.target);
	fprintf(f, "\n");
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const struct slc_analysis *an = &x->a[i];

		fprintf(f, "\nsegment %zu: %s", x->seg[i], s->params.step && s->params.step[0] ? s->params.step : "write curve");
		if (s->params.block_bytes)
			fprintf(f, " (%s, %s QD%u%s%.0u%s)", s->params.workload,
				slc_format_bytes(a, sizeof(a), s->params.block_bytes, SLC_UNITS_BINARY), s->params.queue_depth,
				s->params.jobs > 1 ? ", " : "", s->params.jobs > 1 ? s->params.jobs : 0,
				s->params.jobs > 1 ? " jobs" : "");
		if (s->params.idle_before_s > 0)
			fprintf(f, ", after %s idle", slc_format_duration(b, sizeof(b), (uint64_t)(s->params.idle_before_s * 1e9)));
		fprintf(f, "\n");
		print_cache_onset(f, an, u);
		print_model(f, x, i, u);
		{
			const struct slc_session_drive *dr = &x->drive[i];
			if (isfinite(dr->wa))
				fprintf(f, "  drive counters: %s host, %s NAND: write amplification %.2f\n",
					slc_format_bytes(a, sizeof(a), dr->host_bytes, u),
					slc_format_bytes(b, sizeof(b), dr->nand_bytes, u), dr->wa);
			if (isfinite(dr->slc_flash_bytes))
				fprintf(f, "  flash used in SLC mode: about %s (cache x its write amplification %.2f)\n",
					slc_format_bytes(a, sizeof(a), dr->slc_flash_bytes, u), dr->cache_wa);
			if (dr->n_temp)
				fprintf(f, "  temperature: up to %.1f C in %zu readings%s%s%s\n", dr->max_temp_c, dr->n_temp,
					isfinite(dr->warn_c) ? (snprintf(c, sizeof(c), ", warning at %.0f C", dr->warn_c), c) : "",
					dr->relabelled ? "; throttling told from stalls by it" : "", "");
		}
		/* against the main curve, as the report's headline and phases.json */
		if (ref >= 0 && i > (size_t)ref) {
			struct slc_recovery r;
			char w[128];
			if (slc_session_recovery(x, i, &r) == 0)
				fprintf(f, "  recovery: burst %s, %s\n", slc_format_rate(a, sizeof(a), r.burst_bps, u),
					slc_recovery_words(w, sizeof(w), &r, u));
		}
		fprintf(f, "  %-18s %9s %9s %10s %10s %12s %12s %12s %12s %6s %10s\n", "phase", "start s", "end s",
			"start", "end", "mean", "median", "p5", "p95", "CoV", "IOPS");
		for (size_t p = 0; p < an->n_phases; p++) {
			const struct slc_phase *ph = &an->phases[p];
			char io[32] = "-";
			if (isfinite(ph->iops_mean))
				slc_format_iops(io, sizeof(io), ph->iops_mean);
			if (strlen(io) > 5 && strcmp(io + strlen(io) - 5, " IOPS") == 0)
				io[strlen(io) - 5] = '\0';
			fprintf(f, "  %-18s %9.1f %9.1f %10s %10s %12s %12s %12s %12s %6.3f %10s\n",
				kind_label(ph, an->model.cell, k, sizeof(k)), ph->start_s, ph->end_s,
				slc_format_bytes(a, sizeof(a), ph->start_bytes, u), slc_format_bytes(b, sizeof(b), ph->end_bytes, u),
				slc_format_rate(c, sizeof(c), ph->mean_bps, u), slc_format_rate(d, sizeof(d), ph->median_bps, u),
				slc_format_rate(e, sizeof(e), ph->p5_bps, u), slc_format_rate(g, sizeof(g), ph->p95_bps, u),
				ph->cov, io);
		}
		for (size_t p = 0; x->drive[i].phase_host && p < an->n_phases; p++) {
			char w[320];
			if (x->drive[i].phase_host[p].host_bound)
				fprintf(f, "  %s %.1f-%.1f s: %s\n", kind_label(&an->phases[p], an->model.cell, k, sizeof(k)),
					an->phases[p].start_s, an->phases[p].end_s,
					slc_host_bound_words(w, sizeof(w), &x->drive[i].phase_host[p]));
		}
		print_steady(f, an, u);
	}
	slc_session_print_experiments(f, x, u);
	slc__sweep_print(f, slc__session_sweep(x), u);
}

struct printed {
	const struct slc_session *x;
	const char *json;
	enum slc_unit_system u;
};

static int print_tmp(const char *tmp, FILE *f, void *arg, char *err, size_t errlen)
{
	const struct printed *p = arg;

	(void)tmp, (void)err, (void)errlen;
	if (p->json)
		fprintf(f, "%s\n", p->json);
	else
		slc_session_print(f, p->x, p->u);
	return 0;
}

int slc_session_write(const char *path, const struct slc_output_opts *oo, const struct slc_session *x,
		      const char *json_text, enum slc_unit_system u, char *err, size_t errlen)
{
	return slc_output_write(path, oo, print_tmp, &(struct printed){ x, json_text, u }, err, errlen);
}
