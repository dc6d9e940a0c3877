/* SPDX-License-Identifier: MIT */
/*
 * Test-only readers for testdata/analysis: a two-column CSV reader
 * (time, MiB/s) and the key=value expected-result files.  The real trace
 * importers live elsewhere; these exist so the analysis can be tested alone.
 */
#ifndef SLCSCOPE_TEST_GOLDEN_IO_H
#define SLCSCOPE_TEST_GOLDEN_IO_H

#include <stddef.h>

struct golden_trace {
	double *t_s;
	double *bps;
	size_t n;
};

/*
 * Read "time,MiB/s" rows after a header line.  Rows sharing a time stamp
 * (the mixed real run has one row per direction and no direction column)
 * are summed.  Returns 0 or -errno; free with golden_trace_free().
 */
int golden_trace_read(struct golden_trace *tr, const char *path);
void golden_trace_free(struct golden_trace *tr);

/*
 * Value of "key=" in an expected-result file, copied into buf; returns 0,
 * -ENOENT when the key is absent, or -errno.
 */
int golden_expected_get(const char *path, const char *key, char *buf, size_t len);

#endif
