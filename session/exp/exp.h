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
	/* Its one result: analyze() reads the session's segments into
	 * result_size bytes (zeroed) once, when the session is loaded, and
	 * returns 1 when the input holds the experiment's segments, 0 when it
	 * does not (the result is then dropped), or -ENOMEM.  free_result()
	 * (may be NULL) frees what analyze() allocated in it, also after a
	 * failure.  Everything else renders that stored result and computes
	 * nothing, so no two outputs can disagree.  NULL: the curves say it. */
	size_t result_size;
	int (*analyze)(const struct slc_session *x, void *result);
	void (*free_result)(void *result);
	/* Its findings in words (console, summary.md, index.html) and as a
	 * member of phases.json, from the result. */
	void (*print)(FILE *f, const void *result, enum slc_unit_system u);
	void (*json)(json_t *doc, const void *result);
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

/* Every experiment's result into @x (slc_session_load); 0 or -ENOMEM. */
int slc__experiments_analyze(struct slc_session *x);
/* Free what slc__experiments_analyze() stored. */
void slc__experiments_free(struct slc_session *x);
/* The sweep points of @x, read at load (n 0 when it has none). */
const struct slc__sweep *slc__session_sweep(const struct slc_session *x);
/* The result experiment @e stored in @x; NULL when the input holds none of its segments. */
const void *slc__exp_result(const struct slc_session *x, const struct slc__experiment *e);

/* What the experiments' figures share (figures_exp.c): "DRIVE: WHAT" in
 * @buf, and a bar chart sized, themed and laid out by @o. */
const char *slc__fig_title(char *buf, size_t len, const struct slc_session *x, const struct slc_figure_opts *o,
			   const char *what);
int slc__fig_bars(const char *path, struct slc_bar_chart *c, const struct slc_figure_opts *o, char *err,
		  size_t errlen);

/* Helpers the modules share (common.c). */
extern const struct slc_size slc__no_size;
/* Mean write speed of a whole segment: bytes / time. */
double slc__seg_write_bps(const struct slc_input_segment *s);

extern const struct slc__experiment slc__exp_lab, slc__exp_seq, slc__exp_rand, slc__exp_trim_response,
	slc__exp_fill_levels, slc__exp_compress, slc__exp_hir, slc__exp_idle_sweep, slc__exp_qd_sweep,
	slc__exp_bs_sweep, slc__exp_mixed, slc__exp_basic, slc__exp_short;

#endif
