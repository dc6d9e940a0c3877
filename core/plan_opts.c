// SPDX-License-Identifier: MIT
/*
 * The plan options by their command-line names: one table gives their
 * parsing, their ranges and their --help lines, so that 'slcscope run'
 * and any other program read them alike.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"

enum opt_kind {
	K_SIZE,           /* struct slc_size, 0 allowed */
	K_SIZE_POS,       /* struct slc_size, more than 0 */
	K_DURATION,       /* uint64_t ns */
	K_STEP,           /* uint64_t ns, at least 10 ms */
	K_INTERVAL,       /* uint64_t ns, 10 ms to 1 h */
	K_BLOCK,          /* uint32_t bytes, a multiple of 512 up to 64 MiB */
	K_U32,            /* uint32_t in [min, max] */
	K_U64,            /* uint64_t in [min, max] */
	K_IDLE_LIST,      /* the idle-sweep waits */
	K_SWEEP_STATE,    /* trim, steady or none */
};

struct plan_opt {
	const char *name;
	char short_name;
	const char *arg, *help;       /* for --help: the value's name, the text (lines split by \n) */
	enum opt_kind kind;
	size_t off;
	uint64_t min, max;
};

#define F(m) offsetof(struct slc_plan_opts, m)

static const struct plan_opt table[] = {
	{ "seq-bytes", 0, "SIZE", "sequential fill size (default 1x = one capacity)", K_SIZE, F(seq_bytes), 0, 0 },
	{ "rand-time", 0, "DURATION", "random curve length (default 2h)", K_DURATION, F(rand_ns), 0, 0 },
	{ "rand-bytes", 0, "SIZE", "... or stop it after this much (e.g. 2x, 500GB)", K_SIZE, F(rand_bytes), 0, 0 },
	{ "bs-seq", 0, "SIZE", "sequential block size (default 128k)", K_BLOCK, F(seq_block_bytes), 0, 0 },
	{ "bs-rand", 0, "SIZE", "random block size (default 4k)", K_BLOCK, F(rand_block_bytes), 0, 0 },
	{ "qd", 'q', "N", "queue depth per job, 1 to 256 (default 32)", K_U32, F(queue_depth), 1, 256 },
	{ "jobs", 'j', "N", "writers at once (default 1), a thread each on a real\n"
	  "target, as fio's numjobs; sequential jobs each write\n"
	  "their own slice, random ones the whole target;\n1 to 64, and queue depth x jobs at most 256", K_U32, F(jobs), 1, 64 },
	{ "reap-batch", 0, "N", "refill a queue once N commands have completed (default\n"
	  "its commands in flight / 8, at least 1; 1: after each)", K_U32, F(reap_batch), 1, 256 },
	{ "interval", 'i', "DURATION", "sampling interval (default 1s; 10ms to 1h)", K_INTERVAL, F(interval_ns), 0, 0 },
	{ "idle", 0, "DURATION", "idle before the first recovery burst (default 15m)", K_DURATION, F(idle_ns), 0, 0 },
	{ "burst", 0, "DURATION", "length of each recovery burst (default 60s)", K_DURATION, F(burst_ns), 0, 0 },
	{ "idle-list", 0, "LIST", "idle-sweep waits (default 5s,15s,30s,1m,2m,5m,15m)", K_IDLE_LIST, 0, 0, 0 },
	{ "trim-bytes", 0, "SIZE", "trim-response: the range deleted (default 32GB or a quarter\n"
	  "of the target, whichever is less; at most half)", K_SIZE_POS, F(trim_bytes), 0, 0 },
	{ "read-time", 0, "DURATION", "trim-response: reads after the TRIM (default 30s)", K_DURATION, F(read_ns), 0, 0 },
	{ "hir-rounds", 0, "N", "hir: write/wait rounds per wait state (default 360)", K_U32, F(hir_rounds), 1, 100000 },
	{ "step-time", 0, "DURATION", "sweeps: each point's length (default 30s; at least 10ms)", K_STEP, F(step_ns), 0, 0 },
	{ "region", 0, "SIZE", "sweeps: the test region from offset 0, written before the\n"
	  "reads (default 1GiB; 1x = the whole target)", K_SIZE_POS, F(region), 0, 0 },
	{ "sweep-state", 0, "STATE", "sweeps: each point's start (docs/plans.md): trim (default:\n"
	  "TRIM, the region written, --settle idle before every\npoint), steady (the target written --precondition once,\n"
	  "points back to back) or none (back to back)", K_SWEEP_STATE, F(sweep_state), 0, 0 },
	{ "settle", 0, "DURATION", "sweeps, state trim: idle before each point (default: as\nlong as --trim-wait; 0: none)",
	  K_DURATION, F(settle_ns), 0, 0 },
	{ "precondition", 0, "SIZE", "sweeps, state steady: sequential writes first (default 2x)", K_SIZE_POS,
	  F(steady_bytes), 0, 0 },
	{ "point-bytes", 0, "SIZE", "sweeps, states trim and steady: a writing point ends after\n"
	  "this much (default 1GiB; 0: --step-time only)", K_SIZE, F(point_bytes), 0, 0 },
	{ "trim-wait", 0, "DURATION", "wait after each TRIM (default 30s)", K_DURATION, F(trim_wait_ns), 0, 0 },
	{ "seed", 0, "N", "offsets, data and simulated noise (default 1)", K_U64, F(seed), 0, UINT64_MAX },
};

#define N_OPTS (sizeof(table) / sizeof(table[0]))

const char *slc_plan_opt_name(size_t i, char *short_name)
{
	if (i >= N_OPTS)
		return NULL;
	if (short_name)
		*short_name = table[i].short_name;
	return table[i].name;
}

static int set_number(const struct plan_opt *t, void *field, const char *arg, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || arg[0] == '+' || v < t->min || v > t->max)
		return slc_errf(err, errlen, -EINVAL, "--%s: '%s' is not a whole number from %llu to %llu", t->name, arg,
				(unsigned long long)t->min, (unsigned long long)t->max);
	if (t->kind == K_U32)
		*(uint32_t *)field = (uint32_t)v;
	else
		*(uint64_t *)field = v;
	return 0;
}

static int set_state(void *field, const char *arg, char *err, size_t errlen)
{
	static const char *const names[] = { [SLC_SWEEP_STATE_TRIM] = "trim", [SLC_SWEEP_STATE_STEADY] = "steady",
					     [SLC_SWEEP_STATE_NONE] = "none" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (!strcmp(arg, names[k])) {
			*(enum slc_sweep_state *)field = (enum slc_sweep_state)k;
			return 0;
		}
	return slc_errf(err, errlen, -EINVAL, "--sweep-state: trim, steady or none, not '%s'", arg);
}

/* One option's value into its field; 0 or -EINVAL with the reason. */
static int set_one(const struct plan_opt *t, struct slc_plan_opts *o, const char *arg, char *err, size_t errlen)
{
	void *field = (char *)o + t->off;
	char why[192];
	uint64_t v;
	struct slc_size *sz = field;

	switch (t->kind) {
	case K_SIZE: case K_SIZE_POS:
		if (slc_parse_size(sz, arg, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--%s: %s", t->name, why);
		if (t->kind == K_SIZE_POS && !sz->bytes && !(sz->capacity_multiple > 0))
			return slc_errf(err, errlen, -EINVAL, "--%s: must be more than 0", t->name);
		return 0;
	case K_DURATION: case K_STEP: case K_INTERVAL:
		if (slc_parse_duration_ns(&v, arg, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--%s: %s", t->name, why);
		if (t->kind == K_STEP && v < 10000000ull)
			return slc_errf(err, errlen, -EINVAL, "--%s: must be at least 10ms", t->name);
		if (t->kind == K_INTERVAL && (v < SLC_PLAN_MIN_INTERVAL_NS || v > SLC_PLAN_MAX_INTERVAL_NS))
			return slc_errf(err, errlen, -EINVAL, "--%s: from 10ms to 1h, not '%s'", t->name, arg);
		*(uint64_t *)field = v;
		return 0;
	case K_BLOCK:
		if (slc_parse_bytes(&v, arg, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--%s: %s", t->name, why);
		if (v == 0 || v % 512 || v > (64u << 20))
			return slc_errf(err, errlen, -EINVAL, "--%s: must be a multiple of 512 bytes, at most 64MiB", t->name);
		*(uint32_t *)field = (uint32_t)v;
		return 0;
	case K_U32: case K_U64:
		return set_number(t, field, arg, err, errlen);
	case K_IDLE_LIST:
		return slc_plan_opts_idle_list(o, arg, err, errlen);
	case K_SWEEP_STATE:
		return set_state(field, arg, err, errlen);
	}
	return -EINVAL;
}

int slc_plan_opts_set(struct slc_plan_opts *o, const char *name, const char *arg, char *err, size_t errlen)
{
	if (name[0] == '-' && name[1] == '-')
		name += 2;
	for (size_t i = 0; i < N_OPTS; i++)
		if (!strcmp(name, table[i].name) || (!name[1] && name[0] == table[i].short_name && name[0]))
			return set_one(&table[i], o, arg ? arg : "", err, errlen);
	return slc_errf(err, errlen, -ENOENT, "--%s: not a plan option", name);
}

void slc_plan_opts_help(FILE *f)
{
	for (size_t i = 0; i < N_OPTS; i++) {
		const char *h = table[i].help;
		char head[64];

		if (table[i].short_name)
			snprintf(head, sizeof(head), "-%c, --%s %s", table[i].short_name, table[i].name, table[i].arg);
		else
			snprintf(head, sizeof(head), "    --%s %s", table[i].name, table[i].arg);
		fprintf(f, "  %-24s ", head);
		if (strlen(head) > 24)
			fprintf(f, "\n  %-24s ", "");
		for (;;) {
			size_t n = strcspn(h, "\n");
			fprintf(f, "%.*s\n", (int)n, h);
			if (!h[n])
				break;
			h += n + 1;
			fprintf(f, "  %-24s ", "");
		}
	}
}
