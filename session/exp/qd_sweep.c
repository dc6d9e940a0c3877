// SPDX-License-Identifier: MIT
/*
 * The qd-sweep plan: 4 KiB random reads, then writes, at QD 1, 2, 4, 8,
 * 16, 32 on the test region; IOPS against queue depth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_qd_sweep(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	slc_plan_add_trim(p, "trim", o);
	slc_plan_add_prep(p, "prepare", o);
	for (int w = 0; w < 2; w++)
		for (uint32_t qd = 1; qd <= 32; qd *= 2) {
			char nm[32];
			snprintf(nm, sizeof(nm), "rand_%s_4k_qd%u", w ? "write" : "read", qd);
			slc_plan_add_point(p, nm, 1 + (uint32_t)w, w ? SLC_JOB_RAND_WRITE : SLC_JOB_RAND_READ, 4096, qd, 1, 0, o);
		}
	return 0;
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_SWEEP_QD, "qd-sweep", "qd-sweep", "4 KiB random IOPS against queue depth", 8, 1, slc__figure_sweep },
};

const struct slc__experiment slc__exp_qd_sweep = {
	.name = "qd-sweep",
	.summary = "4 KiB random read and write at QD 1, 2, 4, 8, 16, 32",
	.sweep = 1,
	.build = build_qd_sweep,
	.figs = figs,
	.n_figs = 1,
};
