// SPDX-License-Identifier: MIT
/*
 * The short plan: the CrystalDiskMark set on the test region, no TRIM:
 * SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T1, RND4K Q1T1, each read then
 * write.  On 1 GiB it mostly measures the SLC cache.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static int build_short(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	static const struct { const char *name; int seq; uint32_t block, qd; } set[] = {
		{ "seq1m_q8t1", 1, 1u << 20, 8 }, { "seq128k_q32t1", 1, 128u << 10, 32 },
		{ "rnd4k_q32t1", 0, 4096, 32 }, { "rnd4k_q1t1", 0, 4096, 1 },
	};

	(void)err; (void)errlen;
	slc_plan_add_prep(p, "prepare", o);
	for (uint32_t i = 0; i < 4; i++)
		for (int w = 0; w < 2; w++) {
			char nm[32];
			enum slc_job_kind k = set[i].seq ? (w ? SLC_JOB_SEQ_WRITE : SLC_JOB_SEQ_READ)
							 : (w ? SLC_JOB_RAND_WRITE : SLC_JOB_RAND_READ);
			snprintf(nm, sizeof(nm), "%s_%s", set[i].name, w ? "write" : "read");
			slc_plan_add_point(p, nm, i + 1, k, set[i].block, set[i].qd, 1, 0, o);
		}
	return 0;
}

const struct slc__experiment slc__exp_short = {
	.name = "short",
	.summary = "the CrystalDiskMark set on 1 GiB: mostly measures the SLC cache",
	.sweep = 1,
	.note = "short tests on a small region mostly measure the SLC cache; the write curve\n"
		"(--plan lab or rand) shows what the drive does once it is used up",
	.build = build_short,
};
