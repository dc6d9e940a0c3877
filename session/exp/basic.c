// SPDX-License-Identifier: MIT
/*
 * The basic plan: sequential 256 KiB read and write, 4 KiB random at QD1
 * and QD4.  Its points are in the report's sweep table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_basic(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_prep(p, "prepare", o);
	for (int w = 0; w < 2; w++) {
		slc_plan_add_point(p, w ? "seq_write_256k" : "seq_read_256k", 1 + 2 * (uint32_t)w,
			  w ? SLC_JOB_SEQ_WRITE : SLC_JOB_SEQ_READ, 256u << 10, 1, 1, 0, o);
		slc_plan_add_point(p, w ? "rand_write_4k_qd1" : "rand_read_4k_qd1", 2 + 2 * (uint32_t)w,
			  w ? SLC_JOB_RAND_WRITE : SLC_JOB_RAND_READ, 4096, 1, 1, 0, o);
		slc_plan_add_point(p, w ? "rand_write_4k_qd4" : "rand_read_4k_qd4", 2 + 2 * (uint32_t)w,
			  w ? SLC_JOB_RAND_WRITE : SLC_JOB_RAND_READ, 4096, 4, 1, 0, o);
	}
	return 0;
}

const struct slc__experiment slc__exp_basic = {
	.name = "basic",
	.summary = "sequential 256 KiB read and write, 4 KiB random at QD1 and QD4",
	.sweep = 1,
	.build = build_basic,
};
