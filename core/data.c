// SPDX-License-Identifier: MIT
/*
 * The data written: incompressible and unique to the 512-byte sector.
 *
 * Every write gets fresh pseudo-random bytes from eight xorshift64 lanes
 * that run on for the whole job: the 8-byte word at byte 8k of any sector
 * comes from lane k % 8 (each write starts at lane 0 and is a multiple of
 * 64 bytes), so two equal sectors would need lane 0 to repeat a value, which
 * xorshift64 does not within its 2^64-1 period.  A controller that
 * deduplicates or compresses at any granularity, or over any window (zstd
 * --long), finds nothing.  Eight independent lanes keep the shift-xor chains
 * overlapped (about 10 GB/s on one core, BENCHMARKS.md), which is what makes
 * regenerating every buffer affordable: a stamp into buffers filled once
 * would leave the rest of each sector repeating every queue depth x block.
 */
#include <string.h>

#include "slcscope/core.h"

#define CHUNK 4096u     /* the unit of SLC_DATA_COMPRESSIBLE's ratio */
#define STEP (8u * SLC_DATAGEN_LANES)

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void slc_datagen_init(struct slc_datagen *g, enum slc_data_kind kind, double ratio, uint64_t seed)
{
	uint64_t x = seed ^ 0x5eedc0de5eedc0deull;

	memset(g, 0, sizeof(*g));
	g->kind = kind;
	g->compress_ratio = ratio > 0 && ratio <= 1 ? ratio : 1;
	for (unsigned l = 0; l < SLC_DATAGEN_LANES; l++) {
		do
			g->lane[l] = splitmix(&x);
		while (!g->lane[l]);            /* 0 is xorshift's fixed point */
	}
}

#define XS(x) (x ^= x << 13, x ^= x >> 7, x ^= x << 17)

/* @n bytes of the lanes' stream at @p; whole steps from eight named locals
 * (an array indexed in a loop is kept in memory, which serialises the lanes
 * and runs 5x slower), a tail through one more step. */
static void gen(struct slc_datagen *g, unsigned char *p, size_t n)
{
	uint64_t a = g->lane[0], b = g->lane[1], c = g->lane[2], d = g->lane[3];
	uint64_t e = g->lane[4], f = g->lane[5], h = g->lane[6], k = g->lane[7];
	size_t i;

	for (i = 0; i + STEP <= n; i += STEP) {
		uint64_t v[SLC_DATAGEN_LANES] = { a, b, c, d, e, f, h, k };
		memcpy(p + i, v, STEP);
		XS(a), XS(b), XS(c), XS(d), XS(e), XS(f), XS(h), XS(k);
	}
	g->lane[0] = a, g->lane[1] = b, g->lane[2] = c, g->lane[3] = d;
	g->lane[4] = e, g->lane[5] = f, g->lane[6] = h, g->lane[7] = k;
	if (i < n) {
		unsigned char tail[STEP];
		gen(g, tail, STEP);
		memcpy(p + i, tail, n - i);
	}
}

void slc_datagen_fill(struct slc_datagen *g, void *buf, size_t len)
{
	unsigned char *p = buf;

	if (g->kind == SLC_DATA_REPEATING) {
		for (size_t i = 0; i < len; i++) p[i] = (unsigned char)(0xa5 ^ (i & 0x3f));
		return;
	}
	if (g->kind == SLC_DATA_COMPRESSIBLE)
		memset(p, 0, len);      /* the zero part of each 4 KiB stays zero */
	slc_datagen_next(g, buf, len);
}

void slc_datagen_next(struct slc_datagen *g, void *buf, size_t len)
{
	unsigned char *p = buf;

	if (g->kind == SLC_DATA_REPEATING)
		return;
	if (g->kind == SLC_DATA_COMPRESSIBLE) {
		/* per 4 KiB: ratio x 4 KiB random, the rest zeros (from the fill) */
		for (size_t i = 0; i < len; i += CHUNK) {
			size_t n = len - i < CHUNK ? len - i : CHUNK;
			gen(g, p + i, (size_t)(n * g->compress_ratio));
		}
		return;
	}
	gen(g, p, len);
}
