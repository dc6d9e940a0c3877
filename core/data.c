// SPDX-License-Identifier: MIT
/*
 * The data written: incompressible and never repeating at no throughput cost.
 *
 * Each I/O buffer is filled once with pseudo-random bytes (incompressible),
 * and before every write the first 16 bytes of each 4 KiB are overwritten
 * with a stamp (run nonce, sequence number, offset).  No two 4 KiB blocks a
 * run writes are equal, so neither deduplication nor compression helps a
 * controller, and the per-write cost is 16 bytes of stores per 4 KiB, as
 * fio's scramble_buffers does, instead of regenerating whole buffers.
 */
#include <string.h>

#include "slcscope/core.h"

#define STAMP_EVERY 4096u

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
	g->nonce = splitmix(&x);
	g->seq = splitmix(&x) & 0xffffffffull;     /* random start: runs differ */
}

void slc_datagen_fill(struct slc_datagen *g, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t x = g->nonce ^ (uint64_t)(uintptr_t)buf;
	size_t i, random_len = len;

	if (g->kind == SLC_DATA_REPEATING) {
		for (i = 0; i < len; i++) p[i] = (unsigned char)(0xa5 ^ (i & 0x3f));
		return;
	}
	if (g->kind == SLC_DATA_COMPRESSIBLE) {
		/* per 4 KiB: ratio x 4 KiB random, the rest zeros */
		for (i = 0; i < len; i += STAMP_EVERY) {
			size_t n = len - i < STAMP_EVERY ? len - i : STAMP_EVERY, r = (size_t)(n * g->compress_ratio);
			for (size_t k = 0; k < n; k += 8) {
				uint64_t v = k < r ? splitmix(&x) : 0;
				memcpy(p + i + k, &v, n - k < 8 ? n - k : 8);
			}
		}
		return;
	}
	for (i = 0; i < random_len; i += 8) {
		uint64_t v = splitmix(&x);
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

void slc_datagen_stamp(struct slc_datagen *g, void *buf, size_t len, uint64_t offset)
{
	unsigned char *p = buf;

	if (g->kind == SLC_DATA_REPEATING)
		return;
	for (size_t i = 0; i + 16 <= len; i += STAMP_EVERY) {
		uint64_t a = g->nonce ^ (offset + i), b = g->seq++;
		memcpy(p + i, &a, 8);
		memcpy(p + i + 8, &b, 8);
	}
}
