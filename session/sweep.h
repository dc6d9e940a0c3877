/* SPDX-License-Identifier: MIT */
/* The sweep table in the phases document (sweep.c). */
#ifndef SLCSCOPE_SESSION_SWEEP_H
#define SLCSCOPE_SESSION_SWEEP_H

#include <jansson.h>

#include "slcscope/trace.h"

/* Set @doc's "sweep" to the list of @in's sweep points (nothing when it has none). */
void slc__sweep_json(json_t *doc, const struct slc_input *in);

#endif
