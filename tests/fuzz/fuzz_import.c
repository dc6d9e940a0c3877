// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the importers (libFuzzer entry point).
 *
 * The first input byte picks how the rest is read: bits 0-2 the file name
 * (a CSV, a fio "_bw" / "_iops" log, fio JSON, iostat, diskstats or dd
 * output: the name matters only for fio logs, the content decides the
 * rest), bits 3-4 the bin width for per-I/O fio logs, bits 5-7 a set of
 * options for the CSV reader's named columns, --bs, --capacity and
 * --device.  The remaining bytes are the file's content.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "slcscope/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void pick_opts(struct slc_import_opts *o, unsigned k)
{
	switch (k) {
	case 1:             /* the chunk layout named by hand, decimal */
		strcpy(o->bytes_col.name, "MB");
		o->bytes_col.scale = 1e6;
		strcpy(o->rate_col.name, "avg");
		o->rate_col.scale = 1e6;
		break;
	case 2:             /* percent of the capacity */
		strcpy(o->bytes_col.name, "pos");
		o->bytes_col.scale = -1;
		strcpy(o->rate_col.name, "v");
		o->rate_col.scale = 1048576;
		o->capacity_bytes = 1000000000000ull;
		break;
	case 3:
		strcpy(o->time_col.name, "t");
		o->time_col.scale = 1e-3;
		strcpy(o->ddir_col, "type");
		break;
	case 4:
		o->block_bytes = 131072;
		strcpy(o->device, "sda");
		break;
	case 5:
		o->capacity_bytes = 1;
		strcpy(o->device, "loop0");
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double bins_s[4] = { 1.0, 0.001, 0.25, 60.0 };
	static const char *const names[8] = { "fuzz.csv", "fuzz_bw.1.log", "fuzz.json", "fuzz_iops.1.log",
					      "io.txt", "ds.log", "dd.txt", "fuzz.csv" };
	struct slc_import_opts opts;
	struct slc_input *in = NULL;
	char err[256];

	if (size < 1)
		return 0;
	slc_import_opts_init(&opts);
	opts.bin_s = bins_s[(data[0] >> 3) & 3];
	pick_opts(&opts, data[0] >> 5);
	if (slc_input_parse_text(&in, names[data[0] & 7], (const char *)data + 1, size - 1, &opts, err,
				 sizeof(err)) == 0) {
		/* Touch every sample so sanitizers see any bad array. */
		volatile double sink = 0;

		for (size_t s = 0; s < in->n_segments; s++)
			for (size_t i = 0; i < in->segments[s].n_samples; i++)
				sink += in->segments[s].bw_bps[i] + (double)in->segments[s].bytes_total[i];
		sink += in->import_record ? (double)strlen(in->import_record) : 0;
		(void)sink;
	}
	slc_input_free(in);
	return 0;
}
