/* SPDX-License-Identifier: MIT */
/* The sweep table in the phases document (sweep.c). */
#ifndef SLCSCOPE_SESSION_SWEEP_H
#define SLCSCOPE_SESSION_SWEEP_H

#include <jansson.h>
#include <stdio.h>

#include "slcscope/trace.h"

struct doc;
struct report_fig;

/* The sweep points of a trace, read once when its session loads: the
 * sweep plans' one result, which every table, figure and file renders. */
struct slc__sweep {
	size_t n;
	struct slc_sweep_point *pt;
};

/* @t from @in's points (n 0 when it has none); 0 or -ENOMEM. */
int slc__sweep_read(struct slc__sweep *t, const struct slc_input *in);
void slc__sweep_free(struct slc__sweep *t);

/* The sweep table on the console (nothing without points). */
void slc__sweep_print(FILE *f, const struct slc__sweep *t, enum slc_unit_system u);

/* Set @doc's "sweep" to the list of points (nothing without points). */
void slc__sweep_json(json_t *doc, const struct slc__sweep *t);

/* The points as CSV on @f (a header line, one row each); 0 or -EIO. */
int slc__sweep_csv(FILE *f, const struct slc__sweep *t);

/* The report's sweep section: the table, then the figures of @figs placed with the sweep. */
void slc__sweep_section(struct doc *d, const struct slc__sweep *t, enum slc_unit_system u,
			const struct report_fig *figs, size_t nfigs);

#endif
