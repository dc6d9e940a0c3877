// SPDX-License-Identifier: MIT
/*
 * bench/datagen_bench: the cost of the data the engine writes, in ns per
 * 4 KiB and GB/s on one core, against the stamp-only scheme it replaced
 * (16 bytes per 4 KiB into buffers filled once; reimplemented here as the
 * baseline).  32 buffers of BLOCK bytes in rotation, as at QD32.
 * Usage: datagen_bench [BLOCK_BYTES [SECONDS]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slcscope/core.h"

#define QD 32

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void stamp_4k(unsigned char *p, size_t len, uint64_t nonce, uint64_t *seq, uint64_t offset)
{
	for (size_t i = 0; i + 16 <= len; i += 4096) {
		uint64_t a = nonce ^ (offset + i), b = (*seq)++;
		memcpy(p + i, &a, 8);
		memcpy(p + i + 8, &b, 8);
	}
}

int main(int argc, char **argv)
{
	size_t block = argc > 1 ? strtoul(argv[1], NULL, 0) : 4096;
	double secs = argc > 2 ? atof(argv[2]) : 2.0;
	unsigned char *bufs;
	struct slc_datagen g;
	uint64_t seq = 0, n;
	volatile unsigned char sink;
	double t0, dt;

	if (!block || block % 4096 || posix_memalign((void **)&bufs, 4096, QD * block))
		return fprintf(stderr, "datagen_bench: BLOCK_BYTES must be a multiple of 4096\n"), 2;
	static const struct { const char *name; enum slc_data_kind kind; double ratio; } modes[] = {
		{ "stamp per 4 KiB (before)", SLC_DATA_INCOMPRESSIBLE, 1 },
		{ "incompressible (default)", SLC_DATA_INCOMPRESSIBLE, 1 },
		{ "compressible=0.5", SLC_DATA_COMPRESSIBLE, 0.5 },
	};
	printf("| data | block | ns per 4 KiB | GB/s |\n|---|---:|---:|---:|\n");
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		slc_datagen_init(&g, modes[m].kind, modes[m].ratio, 1);
		for (size_t i = 0; i < QD; i++)
			slc_datagen_fill(&g, bufs + i * block, block);
		n = 0;
		t0 = now_s();
		do {
			for (int k = 0; k < 1024; k++, n++) {
				unsigned char *p = bufs + (n % QD) * block;
				if (m == 0)
					stamp_4k(p, block, 0x5eed, &seq, n * block);
				else
					slc_datagen_next(&g, p, block);
			}
		} while ((dt = now_s() - t0) < secs);
		sink = bufs[n % (QD * block)];
		(void)sink;
		printf("| %s | %zu | %.1f | %.2f |\n", modes[m].name, block, dt * 1e9 / ((double)n * block / 4096),
		       (double)n * block / dt / 1e9);
	}
	free(bufs);
	return 0;
}
