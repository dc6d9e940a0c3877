// SPDX-License-Identifier: MIT
/*
 * The bs-sweep plan: random reads, then writes, 512 B to 256 KiB at QD4;
 * TRIM; sequential reads, then writes, 512 B to 2 MiB at QD4; throughput
 * against block size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static const char *size_word(uint32_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0) snprintf(buf, len, "%um", b >> 20);
	else if (b >= 1024 && b % 1024 == 0) snprintf(buf, len, "%uk", b >> 10);
	else snprintf(buf, len, "%u", b);
	return buf;
}

static int build_bs_sweep(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	static const uint32_t top[2] = { 256u << 10, 2u << 20 };

	(void)err; (void)errlen;
	for (int seq = 0; seq < 2; seq++) {
		slc_plan_add_trim(p, seq ? "trim_between" : "trim", o);
		slc_plan_add_prep(p, seq ? "prepare_seq" : "prepare_rand", o);
		for (int w = 0; w < 2; w++)
			for (uint32_t b = 512; b <= top[seq]; b *= 2) {
				char nm[32], sz[16];
				enum slc_job_kind k = seq ? (w ? SLC_JOB_SEQ_WRITE : SLC_JOB_SEQ_READ)
							  : (w ? SLC_JOB_RAND_WRITE : SLC_JOB_RAND_READ);
				size_word(b, sz, sizeof(sz));
				if (seq)
					snprintf(nm, sizeof(nm), "seq_%s_%s", w ? "write" : "read", sz);
				else
					snprintf(nm, sizeof(nm), "rand_%s_%s", w ? "write" : "read", sz);
				slc_plan_add_point(p, nm, 1 + 2 * (uint32_t)seq + (uint32_t)w, k, b, 4, 1, 0, o);
			}
	}
	return 0;
}

static const struct slc__exp_figure figs[] = {
	{ SLC_FIG_SWEEP_BS, "bs-sweep", "bs-sweep", "Throughput against block size (log2 axis)", 8, 1, slc__figure_sweep },
};

const struct slc__experiment slc__exp_bs_sweep = {
	.name = "bs-sweep",
	.summary = "random 512 B-256 KiB, sequential 512 B-2 MiB, read and write, QD4",
	.sweep = 1,
	.build = build_bs_sweep,
	.figs = figs,
	.n_figs = 1,
};
