// SPDX-License-Identifier: MIT
/* Test-only readers for testdata/analysis (see golden_io.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_io.h"

#define MIB 1048576.0

int golden_trace_read(struct golden_trace *tr, const char *path)
{
	char line[256];
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	memset(tr, 0, sizeof(*tr));
	f = fopen(path, "r");
	if (!f) return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		double t, v;
		if (sscanf(line, "%lf,%lf", &t, &v) != 2) continue;
		if (tr->n > 0 && fabs(t - tr->t_s[tr->n - 1]) < 1e-9) {
			tr->bps[tr->n - 1] += v * MIB;
			continue;
		}
		if (tr->n == cap) {
			size_t nc = cap ? 2 * cap : 1024;
			double *a = realloc(tr->t_s, nc * sizeof(*a));
			double *b;
			if (!a) { ret = -ENOMEM; break; }
			tr->t_s = a;
			b = realloc(tr->bps, nc * sizeof(*b));
			if (!b) { ret = -ENOMEM; break; }
			tr->bps = b;
			cap = nc;
		}
		tr->t_s[tr->n] = t;
		tr->bps[tr->n] = v * MIB;
		tr->n++;
	}
	fclose(f);
	if (ret) golden_trace_free(tr);
	return ret;
}

void golden_trace_free(struct golden_trace *tr)
{
	free(tr->t_s);
	free(tr->bps);
	memset(tr, 0, sizeof(*tr));
}

int golden_expected_get(const char *path, const char *key, char *buf, size_t len)
{
	char line[1024];
	size_t kl = strlen(key);
	FILE *f = fopen(path, "r");
	int ret = -ENOENT;

	if (!f) return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || strncmp(line, key, kl) || line[kl] != '=') continue;
		line[strcspn(line, "\r\n")] = 0;
		snprintf(buf, len, "%s", line + kl + 1);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}
