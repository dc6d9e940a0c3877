// SPDX-License-Identifier: MIT
/*
 * The shared vocabulary's name tables, and the one place where a step's
 * name is read back into its role (for traces that stored no role).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/sim.h"
#include "slcscope/vocab.h"

static const char *const role_names[SLC_ROLE__COUNT] = {
	[SLC_ROLE_UNKNOWN] = "unknown",
	[SLC_ROLE_TRIM] = "trim",
	[SLC_ROLE_TRIM_RANGE] = "trim_range",
	[SLC_ROLE_IDLE] = "idle",
	[SLC_ROLE_FILL] = "fill",
	[SLC_ROLE_CURVE] = "curve",
	[SLC_ROLE_IDLE_BURST] = "idle_burst",
	[SLC_ROLE_TRIM_BURST] = "trim_burst",
	[SLC_ROLE_SATURATE] = "saturate",
	[SLC_ROLE_FILL_TO] = "fill_to",
	[SLC_ROLE_SETTLE] = "settle",
	[SLC_ROLE_LEVEL_BURST] = "level_burst",
	[SLC_ROLE_READ_BASELINE] = "read_baseline",
	[SLC_ROLE_READ_AFTER_TRIM] = "read_after_trim",
	[SLC_ROLE_DATA_RANDOM] = "data_random",
	[SLC_ROLE_DATA_REPEAT] = "data_repeat",
	[SLC_ROLE_HIR_ROUNDS] = "hir_rounds",
	[SLC_ROLE_IMPORTED] = "imported",
	[SLC_ROLE_SWEEP_PREP] = "sweep_prep",
	[SLC_ROLE_SWEEP] = "sweep",
	[SLC_ROLE_PRECONDITION] = "precondition",
};

static const char *const workload_names[SLC_WL__COUNT] = {
	[SLC_WL_UNKNOWN] = "unknown",
	[SLC_WL_SEQ_WRITE] = "seq_write",
	[SLC_WL_RAND_WRITE] = "rand_write",
	[SLC_WL_RAND_READ] = "rand_read",
	[SLC_WL_RAND_WRITE_DUTY] = "rand_write_duty",
	[SLC_WL_TRIM] = "trim",
	[SLC_WL_IDLE] = "idle",
	[SLC_WL_IMPORTED] = "imported",
	[SLC_WL_SEQ_READ] = "seq_read",
	[SLC_WL_SEQ_MIXED] = "seq_mixed",
	[SLC_WL_RAND_MIXED] = "rand_mixed",
};

static const char *const event_names[SLC_EVK__COUNT] = {
	[SLC_EVK_CACHE_EXHAUSTED] = "cache_exhausted",
	[SLC_EVK_FREE_POOL_EXHAUSTED] = "free_pool_exhausted",
	[SLC_EVK_FOLD_DONE] = "fold_done",
	[SLC_EVK_THROTTLE_ON] = "throttle_on",
	[SLC_EVK_THROTTLE_OFF] = "throttle_off",
	[SLC_EVK_CACHE_CAPACITY] = "cache_capacity",
	[SLC_EVK_TRIM] = "trim",
	[SLC_EVK_CACHE_END_HOST] = "cache_end_host",
	[SLC_EVK_SMART_HOST_BYTES] = "smart_host_bytes",
	[SLC_EVK_SMART_NAND_BYTES] = "smart_nand_bytes",
	[SLC_EVK_THERMAL_TRANSITIONS] = "thermal_transitions",
	[SLC_EVK_HOST_PAUSE] = "host_pause",
	[SLC_EVK_UNKNOWN] = "unknown",
};

/* The simulated drive's events come first, in its own order. */
_Static_assert((int)SLC_EVK_CACHE_EXHAUSTED == (int)SLC_SIM_EV_CACHE_EXHAUSTED &&
	       (int)SLC_EVK_CACHE_END_HOST == (int)SLC_SIM_EV_CACHE_END_HOST &&
	       (int)SLC_EVK_CACHE_END_HOST + 1 == (int)SLC_SIM_EV__COUNT,
	       "enum slc_event_kind starts with enum slc_sim_event_kind");

static const char *const snapshot_names[SLC_SNAP__COUNT] = {
	[SLC_SNAP_IDENTITY] = "identity",
	[SLC_SNAP_HEALTH_BEFORE] = "health_before",
	[SLC_SNAP_HEALTH_AFTER] = "health_after",
	[SLC_SNAP_PURGE] = "purge",
	[SLC_SNAP_UNKNOWN] = "unknown",
};

static int lookup(const char *const *names, int n, const char *name, int none)
{
	if (!name)
		return none;
	for (int i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return i;
	return none;
}

const char *slc_role_name(enum slc_role r)
{
	return (unsigned)r < SLC_ROLE__COUNT ? role_names[r] : "unknown";
}

enum slc_role slc_role_from_name(const char *name)
{
	return (enum slc_role)lookup(role_names, SLC_ROLE__COUNT, name, SLC_ROLE_UNKNOWN);
}

const char *slc_workload_name(enum slc_workload w)
{
	return (unsigned)w < SLC_WL__COUNT ? workload_names[w] : "unknown";
}

enum slc_workload slc_workload_from_name(const char *name)
{
	return (enum slc_workload)lookup(workload_names, SLC_WL__COUNT, name, SLC_WL_UNKNOWN);
}

const char *slc_event_kind_name(enum slc_event_kind k)
{
	return (unsigned)k < SLC_EVK__COUNT ? event_names[k] : "unknown";
}

enum slc_event_kind slc_event_kind_from_name(const char *name)
{
	return (enum slc_event_kind)lookup(event_names, SLC_EVK__COUNT, name, SLC_EVK_UNKNOWN);
}

const char *slc_snapshot_kind_name(enum slc_snapshot_kind k)
{
	return (unsigned)k < SLC_SNAP__COUNT ? snapshot_names[k] : "unknown";
}

enum slc_snapshot_kind slc_snapshot_kind_from_name(const char *name)
{
	return (enum slc_snapshot_kind)lookup(snapshot_names, SLC_SNAP__COUNT, name, SLC_SNAP_UNKNOWN);
}

/*
 * "PREFIX<number>SUFFIX" with nothing else around: the number in *@arg.
 * The plans qualify steps this way ("idle_burst_30s", "burst_at_25%").
 */
static int numbered(const char *s, const char *prefix, const char *suffix, uint32_t *arg)
{
	size_t np = strlen(prefix), ns = strlen(suffix), n = strlen(s);
	char *end;
	unsigned long v;

	if (n <= np + ns || strncmp(s, prefix, np) || strcmp(s + n - ns, suffix) || s[np] < '0' || s[np] > '9')
		return 0;
	v = strtoul(s + np, &end, 10);
	if ((size_t)(end - s) != n - ns || v > UINT32_MAX)
		return 0;
	*arg = (uint32_t)v;
	return 1;
}

/*
 * Names no plan gives, read as the analysis read step names before roles
 * were stored (by prefix), so that such traces analyse as they always did:
 * "burst_at_N..." a fill-level burst, "hir_wait_N..." host idle recovery
 * rounds, "idle_burst..." a burst after idle, anything else that speaks of a
 * "trim" a burst after a TRIM.
 */
static enum slc_role legacy_role(const char *step, uint32_t *arg)
{
	static const struct { const char *prefix; enum slc_role role; } prefixed[] = {
		{ "burst_at_", SLC_ROLE_LEVEL_BURST }, { "hir_wait_", SLC_ROLE_HIR_ROUNDS },
		{ "idle_burst", SLC_ROLE_IDLE_BURST },
	};

	for (size_t i = 0; i < sizeof(prefixed) / sizeof(prefixed[0]); i++) {
		size_t n = strlen(prefixed[i].prefix);
		if (strncmp(step, prefixed[i].prefix, n) == 0) {
			const char *num = step + n + (step[n] == '_');
			double v = strtod(num, NULL);
			*arg = v > 0 && v < 4294967295.0 ? (uint32_t)v : 0;
			return prefixed[i].role;
		}
	}
	*arg = 0;
	return strstr(step, "trim") ? SLC_ROLE_TRIM_BURST : SLC_ROLE_UNKNOWN;
}

enum slc_role slc_role_of_step(const char *step, uint32_t *arg)
{
	static const struct { const char *name; enum slc_role role; } fixed[] = {
		{ "trim", SLC_ROLE_TRIM }, { "trim_before_rand", SLC_ROLE_TRIM },
		{ "trim_full", SLC_ROLE_TRIM }, { "trim_all", SLC_ROLE_TRIM },
		{ "trim_between", SLC_ROLE_TRIM }, { "trim_range", SLC_ROLE_TRIM_RANGE },
		{ "idle", SLC_ROLE_IDLE }, { "seq_fill", SLC_ROLE_FILL }, { "fill", SLC_ROLE_FILL },
		{ "rand_curve", SLC_ROLE_CURVE }, { "idle_burst", SLC_ROLE_IDLE_BURST },
		{ "trim_burst", SLC_ROLE_TRIM_BURST }, { "saturate", SLC_ROLE_SATURATE },
		{ "burst_after_trim", SLC_ROLE_LEVEL_BURST },
		{ "read_before_trim", SLC_ROLE_READ_BASELINE }, { "read_after_trim", SLC_ROLE_READ_AFTER_TRIM },
		{ "burst_random_data", SLC_ROLE_DATA_RANDOM }, { "burst_repeating_data", SLC_ROLE_DATA_REPEAT },
		{ "import", SLC_ROLE_IMPORTED }, { "precondition", SLC_ROLE_PRECONDITION },
	};
	static const struct { const char *prefix, *suffix; enum slc_role role; } numbered_roles[] = {
		{ "idle_burst_", "s", SLC_ROLE_IDLE_BURST }, { "idle_", "s", SLC_ROLE_IDLE },
		{ "saturate_after_", "s", SLC_ROLE_SATURATE }, { "hir_wait_", "s", SLC_ROLE_HIR_ROUNDS },
		{ "fill_to_", "%", SLC_ROLE_FILL_TO }, { "settle_", "%", SLC_ROLE_SETTLE },
		{ "burst_at_", "%", SLC_ROLE_LEVEL_BURST },
	};
	uint32_t a = 0, dummy;
	enum slc_role r = SLC_ROLE_UNKNOWN;

	if (!arg)
		arg = &dummy;
	if (!step) {
		*arg = 0;
		return r;
	}
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && r == SLC_ROLE_UNKNOWN; i++)
		if (strcmp(step, fixed[i].name) == 0)
			r = fixed[i].role;
	for (size_t i = 0; i < sizeof(numbered_roles) / sizeof(numbered_roles[0]) && r == SLC_ROLE_UNKNOWN; i++)
		if (numbered(step, numbered_roles[i].prefix, numbered_roles[i].suffix, &a))
			r = numbered_roles[i].role;
	if (r == SLC_ROLE_UNKNOWN)
		return legacy_role(step, arg);
	*arg = a;
	return r;
}

int slc_workload_reads(enum slc_workload w)
{
	return w == SLC_WL_RAND_READ || w == SLC_WL_SEQ_READ || w == SLC_WL_SEQ_MIXED || w == SLC_WL_RAND_MIXED;
}

int slc_workload_same(const char *a, const char *b)
{
	enum slc_workload wa = slc_workload_from_name(a), wb = slc_workload_from_name(b);

	if (!a || !b)
		return 0;
	return wa == wb && (wa != SLC_WL_UNKNOWN || strcmp(a, b) == 0);
}

int slc_role_after_trim(enum slc_role r, uint32_t arg)
{
	return r == SLC_ROLE_TRIM_BURST || (r == SLC_ROLE_LEVEL_BURST && arg == 0);
}
