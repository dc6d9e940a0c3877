// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the HDF5 trace reader (libFuzzer entry point).
 *
 * The input is a whole trace file.  It goes into an anonymous memory file
 * and is loaded through its /proc/self/fd path with slc_input_load(), as
 * `slcscope analyze` loads a trace from disk: the reader, its checks of the
 * heap references and HDF5's own parsing all run on it.  The corpus
 * (testdata/fuzz/trace) holds small real traces to mutate.
 */
#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "slcscope/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slc_input *in = NULL;
	char path[64], err[512];
	int fd = memfd_create("fuzz_trace", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (off == size && slc_input_load(&in, path, err, sizeof(err)) == 0) {
		/* Touch every value handed out so sanitizers see any bad array or string. */
		volatile double sink = 0;
		volatile size_t chars = 0;

		for (size_t s = 0; s < in->n_segments; s++) {
			const struct slc_input_segment *g = &in->segments[s];

			chars += strlen(g->params.step) + strlen(g->params.workload) + strlen(g->params.clock);
			for (size_t i = 0; i < g->n_samples; i++)
				sink += g->bw_bps[i] + (double)g->bytes_total[i] + (double)g->ios[i] + g->t_s[i] +
					g->lat_max_us[i] + g->temp_c[i];
			for (size_t i = 0; i < g->n_events; i++)
				chars += strlen(g->events[i].kind);
		}
		for (size_t i = 0; i < in->n_snapshots; i++)
			chars += strlen(in->snapshots[i].json_text) + strlen(in->snapshots[i].kind);
		for (size_t i = 0; i < in->n_analysis; i++)
			chars += strlen(in->analysis[i].json_text);
		(void)sink;
		(void)chars;
	}
	slc_input_free(in);
	close(fd);
	/* Whatever the file, the reader closes every HDF5 object it opened. */
	if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
		abort();
	return 0;
}
