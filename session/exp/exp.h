/* SPDX-License-Identifier: MIT */
/*
 * One module per experiment, as fio has one file per I/O engine: its plan
 * steps, the analysis of its segments, its words (console, report), its
 * phases.json member and its figures.  registry.c lists the modules; the
 * plan list, --help, docs/plans.md, the report's figures and the figure
 * kinds' names come from that list, so adding an experiment is one module
 * and one registry line.
 */
#ifndef SLCSCOPE_SESSION_EXP_H
#define SLCSCOPE_SESSION_EXP_H

#include <jansson.h>
#include <stdio.h>

#include "../session_priv.h"

/* A figure an experiment draws. */
struct slc__exp_figure {
	enum slc_figure_kind kind;
	const char *name;             /* plot --kind NAME */
	const char *file;             /* the report's file name, without extension */
	const char *caption;
	int inputs;                   /* 1, or 8: one to eight drives */
	int sweep;                    /* placed with the report's sweep table */
	int (*draw)(const char *path, enum slc_figure_kind k, const struct slc_session *xs, size_t n,
		    const struct slc_figure_opts *o, char *err, size_t errlen);
};

struct slc__experiment {
	const char *name;             /* --plan NAME */
	const char *summary;          /* one line: --help, docs/plans.md */
	int sweep;                    /* its points can be chosen with --points */
	const char *note;             /* what 'run -n' adds under the plan; may be NULL */
	slc_plan_builder build;
	/* Its findings in words (console, summary.md, index.html) and as a
	 * member of phases.json, each from the module's one result; nothing
	 * when the input holds no such segments.  NULL: the curves say it. */
	void (*print)(FILE *f, const struct slc_session *x, enum slc_unit_system u);
	void (*json)(json_t *doc, const struct slc_session *x);
	const struct slc__exp_figure *figs;
	size_t n_figs;
};

/* The registry, in the order of --help; NULL past the last. */
const struct slc__experiment *slc__experiment(size_t i);
/* The experiment called @name; NULL when none is. */
const struct slc__experiment *slc__experiment_named(const char *name);
/* The figure of kind @k some experiment draws; NULL when none does. */
const struct slc__exp_figure *slc__exp_figure(enum slc_figure_kind k);

/* Every experiment's phases.json member (session.c). */
void slc__experiments_json(json_t *doc, const struct slc_session *x);

/* Helpers the modules share (common.c). */
extern const struct slc_size slc__no_size;
/* Mean write speed of a whole segment: bytes / time. */
double slc__seg_write_bps(const struct slc_input_segment *s);

extern const struct slc__experiment slc__exp_lab, slc__exp_seq, slc__exp_rand, slc__exp_trim_response,
	slc__exp_fill_levels, slc__exp_compress, slc__exp_hir, slc__exp_idle_sweep, slc__exp_qd_sweep,
	slc__exp_bs_sweep, slc__exp_mixed, slc__exp_basic, slc__exp_short;

#endif
