// SPDX-License-Identifier: MIT
/*
 * The rand plan: TRIM, the 4 KiB random write curve; its curve is the
 * result (the phases).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_rand(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_job(p, "rand_curve", SLC_ROLE_CURVE, 0, SLC_JOB_RAND_WRITE, o, o->rand_ns, o->rand_bytes);
	return 0;
}

const struct slc__experiment slc__exp_rand = {
	.name = "rand",
	.summary = "TRIM, the random write curve",
	.build = build_rand,
};
