// SPDX-License-Identifier: MIT
#include "columns.h"

#include "slcscope/trace.h"

const struct slc__trace_col slc__trace_cols[] = {
	{ "t_s", "s", 0, 1, 0, offsetof(struct slc_sample, t_s), offsetof(struct slc_input_segment, t_s) },
	{ "interval_s", "s", 0, 1, 0, offsetof(struct slc_sample, interval_s),
	  offsetof(struct slc_input_segment, interval_s) },
	{ "bytes_total", "bytes", 1, 1, 0, offsetof(struct slc_sample, bytes_total),
	  offsetof(struct slc_input_segment, bytes_total) },
	{ "ios", "count", 1, 0, 0, offsetof(struct slc_sample, ios), offsetof(struct slc_input_segment, ios) },
	{ "lat_p50_us", "us", 0, 0, 0, offsetof(struct slc_sample, lat_p50_us),
	  offsetof(struct slc_input_segment, lat_p50_us) },
	{ "lat_p99_us", "us", 0, 0, 0, offsetof(struct slc_sample, lat_p99_us),
	  offsetof(struct slc_input_segment, lat_p99_us) },
	{ "lat_p999_us", "us", 0, 0, 0, offsetof(struct slc_sample, lat_p999_us),
	  offsetof(struct slc_input_segment, lat_p999_us) },
	{ "lat_max_us", "us", 0, 0, 0, offsetof(struct slc_sample, lat_max_us),
	  offsetof(struct slc_input_segment, lat_max_us) },
	{ "temp_c", "degC", 0, 0, 0, offsetof(struct slc_sample, temp_c), offsetof(struct slc_input_segment, temp_c) },
#define COL(name, unit, u64) { #name, unit, u64, 0, 1, offsetof(struct slc_sample, name), \
			       offsetof(struct slc_input_segment, name) }
	/* reads apart from writes: optional, older traces have none */
	COL(read_bytes_total, "bytes", 1), COL(read_ios, "count", 1),
	COL(read_lat_mean_us, "us", 0), COL(read_lat_p50_us, "us", 0), COL(read_lat_p99_us, "us", 0),
	COL(write_lat_mean_us, "us", 0), COL(write_lat_p50_us, "us", 0), COL(write_lat_p99_us, "us", 0),
#undef COL
	/* optional: older traces, imports and virtual clocks read as NAN */
	{ "writer_cpu", "core", 0, 0, 0, offsetof(struct slc_sample, writer_cpu),
	  offsetof(struct slc_input_segment, writer_cpu) },
	{ "writer_wait", "core", 0, 0, 0, offsetof(struct slc_sample, writer_wait),
	  offsetof(struct slc_input_segment, writer_wait) },
};

_Static_assert(sizeof(slc__trace_cols) / sizeof(slc__trace_cols[0]) == SLC__TRACE_NCOLS,
	       "SLC__TRACE_NCOLS must count the entries of slc__trace_cols");
