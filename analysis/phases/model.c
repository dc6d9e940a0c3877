// SPDX-License-Identifier: MIT
/*
 * The phase model: labellings of the groups scored as a whole.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases_priv.h"
/*
 * Does the curve decay right after the first level (a drive without cache:
 * a flat phase, then the erase-bound decay)?  When the second level falls
 * itself or steps down in small steps with what follows, yes.  When it is
 * only a flat level that later runs into a decay, it is the decay's start
 * if it is short (the top of the decay, as the first stretch of an MLC
 * drive's decay after its flat phase), but a level of its own if it lasts
 * longer than the first level: a short cache, then direct-to-TLC, then
 * erase-bound (a 7 s cache before an hour of direct-to-TLC writing).
 * Nor does the curve decay when later groups come back above the second.
 */
static int decays_after_first(const struct group *g, size_t ng)
{
	if (ng < 2) return 0;
	if (g[0].decay) return 1;
	/* a decay does not come back: a slow stretch right after the first
	 * level that later native writing exceeds is noise (a wander of the
	 * native speed), not the start of a decay */
	if (!slc__stays_below(g, 2, ng, (1 + DELTA_SAME) * g[1].level)) return 0;
	if (g[1].decay & (DECAY_OWN | DECAY_RUN)) return 1;
	return g[1].decay && (g[1].dur_s <= g[0].dur_s ||
			      (g[1].dur_s <= HEAD_DUR * g[0].dur_s &&
			       g[1].cnt >= TREND_MIN_SAMPLES && g[1].trend >= HEAD_TREND));
}

/* Label groups (and so blocks); returns 1 when a cache was found. */
int slc__label(struct block *b, struct group *g, size_t ng)
{
	size_t k = 0, onset;

	if (ng >= 2 && !decays_after_first(g, ng)) {
		while (k + 1 < ng) {
			double later = 0;
			for (size_t q = k + 1; q < ng; q++) later = fmax(later, g[q].level);
			if (g[k].level <= (1 + DELTA_CACHE) * later) break;
			/* a later tier is steady, and faster than most samples
			 * after it (a tooth-free stretch of a comb is not) */
			if (k > 0 && (g[k].decay || g[k].level <= g[k + 1].p90 ||
				      g[k].level < TIER_RATIO_MIN * g[k - 1].level ||
				      g[k].cov > fmax(TIER_COV_FACTOR * g[0].cov, TIER_COV_MIN)))
				break;
			k++;
		}
	}
	onset = slc__erase_onset(g, k, ng);
	for (size_t q = 0; q < ng; q++) {
		int kind = q < k ? SLC_PHASE_SLC_CACHE :
			   q >= onset ? SLC_PHASE_ERASE_BOUND : SLC_PHASE_DIRECT_TO_TLC;
		unsigned tier = q < k ? (unsigned)q + 1 : 0;

		for (size_t j = g[q].first; j <= g[q].last; j++) {
			if (b[j].dip) continue;
			b[j].kind = kind;
			b[j].tier = tier;
		}
	}
	return k > 0;
}
