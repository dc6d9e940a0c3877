// SPDX-License-Identifier: MIT
/*
 * Load any input slcscope reads (trace, fio log, CSV) and print one line per
 * segment: samples, bytes written, mean and peak throughput.  Optionally
 * write it as a trace, like 'slcscope import'.
 *
 *   trace_summary INPUT [OUT.h5]
 */
#include <stdio.h>

#include "slcscope/core.h"
#include "slcscope/trace.h"

int main(int argc, char **argv)
{
	struct slc_input *in;
	char err[256];

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: trace_summary INPUT [OUT.h5]\n");
		return 2;
	}
	if (slc_input_load(&in, argv[1], err, sizeof(err))) {
		fprintf(stderr, "trace_summary: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_input_segment *s = &in->segments[i];
		double peak = 0, secs = s->n_samples ? s->t_s[s->n_samples - 1] : 0;
		double bytes = s->n_samples ? (double)s->bytes_total[s->n_samples - 1] : 0;
		char b[32], mean[32], top[32];

		for (size_t j = 0; j < s->n_samples; j++)
			if (s->bw_bps[j] > peak)
				peak = s->bw_bps[j];
		printf("segment %zu (%s, %s): %zu samples, %s, mean %s, peak %s\n", i, s->params.step,
		       s->params.workload, s->n_samples, slc_format_bytes(b, sizeof(b), bytes, SLC_UNITS_BINARY),
		       slc_format_rate(mean, sizeof(mean), secs > 0 ? bytes / secs : 0, SLC_UNITS_BINARY),
		       slc_format_rate(top, sizeof(top), peak, SLC_UNITS_BINARY));
	}
	if (in->import_notes)
		printf("note: %s\n", in->import_notes);
	if (argc == 3 && slc_input_write_trace(in, argv[2], "trace_summary", err, sizeof(err))) {
		fprintf(stderr, "trace_summary: %s\n", err);
		slc_input_free(in);
		return 1;
	}
	slc_input_free(in);
	return 0;
}
