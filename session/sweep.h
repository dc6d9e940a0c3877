/* SPDX-License-Identifier: MIT */
/* The sweep table in the phases document (sweep.c). */
#ifndef SLCSCOPE_SESSION_SWEEP_H
#define SLCSCOPE_SESSION_SWEEP_H

#include <jansson.h>
#include <stdio.h>

#include "slcscope/trace.h"

struct doc;
struct report_fig;

/* Set @doc's "sweep" to the list of @in's sweep points (nothing when it has none). */
void slc__sweep_json(json_t *doc, const struct slc_input *in);

/* The sweep points of @in as CSV on @f (a header line, one row each); 0 or -EIO. */
int slc__sweep_csv(FILE *f, const struct slc_input *in);

/* The report's sweep section: the table, then the figures of @figs placed with the sweep. */
void slc__sweep_section(struct doc *d, const struct slc_input *in, enum slc_unit_system u,
			const struct report_fig *figs, size_t nfigs);

#endif
