// SPDX-License-Identifier: MIT
/* The in-memory input: segment arrays and slc_input_free() (input.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#include "columns.h"

int slc__input_segment_alloc(struct slc_input_segment *seg, size_t n)
{
	size_t m = n ? n : 1;

	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
		void **p = (void **)((char *)seg + slc__trace_cols[c].input_off);

		*p = malloc(m * 8);
		if (!*p)
			return -ENOMEM;
		if (!slc__trace_cols[c].is_u64 && !slc__trace_cols[c].required)
			for (size_t i = 0; i < n; i++)
				((double *)*p)[i] = NAN;
		else
			memset(*p, 0, m * 8);
	}
	seg->bw_bps = malloc(m * sizeof(double));
	if (!seg->bw_bps)
		return -ENOMEM;
	seg->n_samples = n;
	return 0;
}

void slc__input_segment_derive_bw(struct slc_input_segment *seg)
{
	uint64_t prev = 0;

	for (size_t i = 0; i < seg->n_samples; i++) {
		double dt = seg->interval_s[i];
		uint64_t b = seg->bytes_total[i];

		seg->bw_bps[i] = dt > 0 && b >= prev ? (double)(b - prev) / dt : NAN;
		prev = b;
	}
}

void slc__input_segment_clear(struct slc_input_segment *seg)
{
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++)
		free(*(void **)((char *)seg + slc__trace_cols[c].input_off));
	free(seg->bw_bps);
	free((char *)seg->params.step);
	free((char *)seg->params.workload);
	free((char *)seg->params.data_pattern);
	free((char *)seg->params.clock);
	free((char *)seg->params.read_state);
	free((char *)seg->params.io_mode);
	for (size_t i = 0; i < seg->n_events; i++)
		free((char *)seg->events[i].kind);
	free(seg->events);
	memset(seg, 0, sizeof(*seg));
}

void slc_input_free(struct slc_input *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n_segments; i++)
		slc__input_segment_clear(&in->segments[i]);
	free(in->segments);
	for (size_t i = 0; i < in->n_analysis; i++) {
		free(in->analysis[i].name);
		free(in->analysis[i].json_text);
	}
	free(in->analysis);
	for (size_t i = 0; i < in->n_snapshots; i++) {
		free(in->snapshots[i].kind);
		free(in->snapshots[i].json_text);
	}
	free(in->snapshots);
	free(in->source);
	free((char *)in->meta.command_line);
	free((char *)in->meta.target);
	free((char *)in->meta.device_model);
	free((char *)in->meta.device_serial);
	free((char *)in->meta.device_firmware);
	free((char *)in->meta.cell_type);
	free((char *)in->meta.plan);
	free((char *)in->meta.run_status);
	free(in->tool_version);
	free(in->created_utc);
	free(in->host);
	free(in->import_notes);
	free(in->import_warnings);
	free(in->import_record);
	free(in);
}
