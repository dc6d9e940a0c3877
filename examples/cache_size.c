// SPDX-License-Identifier: MIT
/*
 * cache_size: the SLC cache size of a drive, with the library alone.
 *
 *   cache_size [TARGET]     TARGET defaults to sim:sata240-tlc
 *
 * Opens the target (a simulated drive, a file, or - only with
 * SLCSCOPE_DESTRUCTIVE=1 in the environment - a block device), TRIMs it,
 * writes it once sequentially in 128 KiB blocks at QD32 while sampling every
 * second, and runs the change-point analysis on the samples: the same steps
 * as `slcscope run TARGET --plan seq` followed by `slcscope analyze`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/analysis.h"
#include "slcscope/core.h"

struct samples {
	double t[100000], dt[100000], bytes[100000];
	size_t n;
	uint64_t last;
};

static int keep(void *arg, const struct slc_sample *s)
{
	struct samples *x = arg;

	if (x->n < 100000) {
		x->t[x->n] = s->t_s;
		x->dt[x->n] = s->interval_s;
		x->bytes[x->n] = (double)(s->bytes_total - x->last);
		x->n++;
	}
	x->last = s->bytes_total;
	return 0;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "sim:sata240-tlc";
	const char *d = getenv("SLCSCOPE_DESTRUCTIVE");
	struct slc_target_opts o = { .seed = 1, .destructive = d && strcmp(d, "1") == 0 };
	static struct samples x;
	struct slc_engine_cb cb = { .sample = keep, .arg = &x };
	struct slc_job job = { .kind = SLC_JOB_SEQ_WRITE };
	struct slc_job_result res;
	struct slc_target *t;
	struct slc_analysis a;
	struct slc_trace_in in;
	char err[512], b1[32], b2[32];
	int rc;

	if ((rc = slc_target_open(&t, spec, &o, err, sizeof(err)))) {
		fprintf(stderr, "cache_size: %s\n", err);
		return 1;
	}
	job.max_bytes = slc_target_capacity(t);
	if ((rc = slc_target_discard(t, 0, slc_target_capacity(t))) ||
	    (rc = slc_engine_run(t, &job, &cb, NULL, &res, err, sizeof(err)))) {
		fprintf(stderr, "cache_size: %s\n", rc ? err : "TRIM failed");
		slc_target_close(t);
		return 1;
	}
	slc_target_close(t);
	in = (struct slc_trace_in){ .t_s = x.t, .interval_s = x.dt, .bytes = x.bytes, .n = x.n, .block_bytes = 131072 };
	if ((rc = slc_analyze(&a, &in, NULL))) {
		fprintf(stderr, "cache_size: the analysis failed (%d)\n", rc);
		slc_analysis_free(&a);
		return 1;
	}
	if (a.has_cache)
		printf("%s: SLC cache %s at %s\n", spec, slc_format_bytes(b1, sizeof(b1), a.cache_bytes, SLC_UNITS_DECIMAL),
		       slc_format_rate(b2, sizeof(b2), a.cache_bps, SLC_UNITS_DECIMAL));
	else
		printf("%s: no SLC cache seen\n", spec);
	slc_analysis_free(&a);
	return 0;
}
