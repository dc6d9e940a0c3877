// SPDX-License-Identifier: MIT
/*
 * The experiments slcscope knows, one module each (exp.h): building a
 * plan by name, the plan list, every experiment's words and phases.json
 * member, and the figure kinds the experiments draw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "../sweep.h"

static const struct slc__experiment *const registry[] = {
	&slc__exp_lab, &slc__exp_seq, &slc__exp_rand, &slc__exp_trim_response, &slc__exp_fill_levels,
	&slc__exp_compress, &slc__exp_hir, &slc__exp_idle_sweep, &slc__exp_qd_sweep, &slc__exp_bs_sweep,
	&slc__exp_mixed, &slc__exp_basic, &slc__exp_short,
};

#define N_EXP (sizeof(registry) / sizeof(registry[0]))

const struct slc__experiment *slc__experiment(size_t i)
{
	return i < N_EXP ? registry[i] : NULL;
}

const struct slc__experiment *slc__experiment_named(const char *name)
{
	for (size_t i = 0; name && i < N_EXP; i++)
		if (!strcmp(name, registry[i]->name))
			return registry[i];
	return NULL;
}

const struct slc__exp_figure *slc__exp_figure(enum slc_figure_kind k)
{
	for (size_t i = 0; i < N_EXP; i++)
		for (size_t f = 0; f < registry[i]->n_figs; f++)
			if (registry[i]->figs[f].kind == k)
				return &registry[i]->figs[f];
	return NULL;
}

const char *slc_plan_name(size_t i, const char **summary)
{
	if (i >= N_EXP)
		return NULL;
	if (summary)
		*summary = registry[i]->summary;
	return registry[i]->name;
}

int slc_plan_is_sweep(const char *name)
{
	const struct slc__experiment *e = slc__experiment_named(name);

	return e && e->sweep;
}

int slc_plan_build(struct slc_plan *p, const char *name, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	char names[256] = "";

	for (size_t i = 0; i < N_EXP; i++) {
		if (!strcmp(name, registry[i]->name))
			return slc_plan_make(p, name, registry[i]->build, o, err, errlen);
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "", registry[i]->name);
	}
	memset(p, 0, sizeof(*p));
	return slc_errf(err, errlen, -EINVAL, "--plan: unknown plan '%s' (%s)", name, names);
}

/* x->exp[SWEEP]: the sweep points the three sweep plans share (one table
 * whichever of them ran, and for imports of sweeps) */
#define SWEEP N_EXP

int slc__experiments_analyze(struct slc_session *x)
{
	int rc;

	slc__experiments_free(x);
	if (!(x->exp = calloc(N_EXP + 1, sizeof(*x->exp))) || !(x->exp[SWEEP] = calloc(1, sizeof(struct slc__sweep))))
		return -ENOMEM;
	if ((rc = slc__sweep_read(x->exp[SWEEP], x->in)))
		return rc;
	for (size_t i = 0; i < N_EXP; i++) {
		if (!registry[i]->analyze)
			continue;
		if (!(x->exp[i] = calloc(1, registry[i]->result_size)))
			return -ENOMEM;
		if ((rc = registry[i]->analyze(x, x->exp[i])) < 0)
			return rc;
		if (rc == 0) {
			if (registry[i]->free_result)
				registry[i]->free_result(x->exp[i]);
			free(x->exp[i]);
			x->exp[i] = NULL;
		}
	}
	return 0;
}

void slc__experiments_free(struct slc_session *x)
{
	if (x->exp && x->exp[SWEEP])
		slc__sweep_free(x->exp[SWEEP]);
	for (size_t i = 0; x->exp && i <= SWEEP; i++) {
		if (i < N_EXP && x->exp[i] && registry[i]->free_result)
			registry[i]->free_result(x->exp[i]);
		free(x->exp[i]);
	}
	free(x->exp);
	x->exp = NULL;
}

const void *slc__exp_result(const struct slc_session *x, const struct slc__experiment *e)
{
	for (size_t i = 0; x->exp && i < N_EXP; i++)
		if (registry[i] == e)
			return x->exp[i];
	return NULL;
}

const struct slc__sweep *slc__session_sweep(const struct slc_session *x)
{
	static const struct slc__sweep none;

	return x->exp && x->exp[SWEEP] ? x->exp[SWEEP] : &none;
}

void slc_session_print_experiments(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	for (size_t i = 0; x->exp && i < N_EXP; i++)
		if (registry[i]->print && x->exp[i])
			registry[i]->print(f, x->exp[i], u);
}

void slc__experiments_json(json_t *doc, const struct slc_session *x)
{
	for (size_t i = 0; x->exp && i < N_EXP; i++)
		if (registry[i]->json && x->exp[i])
			registry[i]->json(doc, x->exp[i]);
}

void slc_plans_markdown(FILE *f)
{
	fprintf(f, "| plan | what it does | sweep |\n|---|---|---|\n");
	for (size_t i = 0; i < N_EXP; i++)
		fprintf(f, "| `%s` | %s | %s |\n", registry[i]->name, registry[i]->summary,
			registry[i]->sweep ? "yes (`--points`)" : "");
}
