// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the fio log and CSV parsers (libFuzzer entry point).
 *
 * The first input byte picks how the rest is read: bit 0 chooses the file
 * name (a CSV or a fio "_bw" / "_iops" log, bit 1), bits 2-3 the bin width
 * for per-I/O fio logs; the remaining bytes are the file's content.
 */
#include <stddef.h>
#include <stdint.h>

#include "slcscope/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double bins_s[4] = { 1.0, 0.001, 0.25, 60.0 };
	static const char *const names[4] = { "fuzz.csv", "fuzz_bw.1.log", "fuzz.csv", "fuzz_iops.1.log" };
	struct slc_import_opts opts = { .bin_s = 0 };
	struct slc_input *in = NULL;
	char err[256];

	if (size < 1)
		return 0;
	opts.bin_s = bins_s[(data[0] >> 2) & 3];
	if (slc_input_parse_text(&in, names[data[0] & 3], (const char *)data + 1, size - 1, &opts, err,
				 sizeof(err)) == 0) {
		/* Touch every sample so sanitizers see any bad array. */
		volatile double sink = 0;

		for (size_t s = 0; s < in->n_segments; s++)
			for (size_t i = 0; i < in->segments[s].n_samples; i++)
				sink += in->segments[s].bw_bps[i] + (double)in->segments[s].bytes_total[i];
		(void)sink;
	}
	slc_input_free(in);
	return 0;
}
