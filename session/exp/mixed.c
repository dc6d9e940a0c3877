// SPDX-License-Identifier: MIT
/*
 * The mixed plan: reads 0 to 100% in 20% steps, sequential 128 KiB with 2
 * jobs at QD1, then random 4 KiB with 4 jobs at QD8; throughput against
 * the share of reads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_mixed(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	(void)err; (void)errlen;
	for (int rnd = 0; rnd < 2; rnd++) {
		slc_plan_add_trim(p, rnd ? "trim_between" : "trim", o);
		slc_plan_add_prep(p, rnd ? "prepare_rand" : "prepare_seq", o);
		for (uint32_t pct = 0; pct <= 100; pct += 20) {
			char nm[32];
			snprintf(nm, sizeof(nm), "%s_read_%u%%", rnd ? "mix_rand_4k" : "mix_seq_128k", pct);
			if (rnd)
				slc_plan_add_point(p, nm, 2, SLC_JOB_RAND_MIXED, 4096, 8, 4, pct, o);
			else
				slc_plan_add_point(p, nm, 1, SLC_JOB_SEQ_MIXED, 128u << 10, 1, 2, pct, o);
		}
	}
	return 0;
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_MIXED, "mixed", "mixed", "Throughput against the share of reads", 8, 1, slc__figure_sweep },
};

const struct slc__experiment slc__exp_mixed = {
	.name = "mixed",
	.summary = "reads 0-100% in 20% steps: seq 128 KiB x 2 jobs, random 4 KiB x 4 jobs",
	.sweep = 1,
	.build = build_mixed,
	.figs = figs,
	.n_figs = 1,
};
