// SPDX-License-Identifier: MIT
/*
 * The seq plan: TRIM, one sequential fill; the quickest cache size.
 * Its curve is the whole result (the phases).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_seq(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "seq_fill", SLC_ROLE_FILL, 0, SLC_JOB_SEQ_WRITE, o, 0, o->seq_bytes);
	return 0;
}

const struct slc__experiment slc__exp_seq = {
	.name = "seq",
	.summary = "TRIM, one sequential fill: a quick cache size",
	.build = build_seq,
};
