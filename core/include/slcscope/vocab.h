/* SPDX-License-Identifier: MIT */
/*
 * The words the run, the trace and the analysis share: what a step is for
 * (its role), what it does to the drive (its workload), which events and
 * which drive snapshots a trace can hold.  Each is an enum with one name
 * table here; the names are what the trace stores.  Code elsewhere compares
 * the enums, never the strings, so that renaming a step or an event cannot
 * silently change what the analysis finds.
 *
 * Included from slcscope/core.h.
 */
#ifndef SLCSCOPE_VOCAB_H
#define SLCSCOPE_VOCAB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a step of a plan is for.  The role's argument (role_arg in the
 * trace) qualifies some roles: the wait in seconds for the idle sweep's and
 * host idle recovery's steps, the fill level in percent for the fill-levels
 * plan's steps.
 */
enum slc_role {
	SLC_ROLE_UNKNOWN = 0,         /* a step this version does not know */
	SLC_ROLE_TRIM,                /* a TRIM of the whole target, then a wait */
	SLC_ROLE_TRIM_RANGE,          /* a TRIM of part of it (trim-response) */
	SLC_ROLE_IDLE,                /* an idle wait (arg: its seconds in the idle sweep) */
	SLC_ROLE_FILL,                /* a sequential fill after a TRIM: the cache size */
	SLC_ROLE_CURVE,               /* the random write curve after a TRIM */
	SLC_ROLE_IDLE_BURST,          /* a recovery burst after an idle wait (arg: the wait
				       * in seconds in the idle sweep, 0 in the lab plan) */
	SLC_ROLE_TRIM_BURST,          /* a recovery burst after a TRIM of the whole target */
	SLC_ROLE_SATURATE,            /* a burst that uses the cache up (arg: the host
				       * idle recovery wait it follows, 0 for the first) */
	SLC_ROLE_FILL_TO,             /* fill-levels: sequential fill up to arg percent */
	SLC_ROLE_SETTLE,              /* fill-levels: the wait after a fill to arg percent;
				       * sweeps: the idle before a point (arg 0) */
	SLC_ROLE_LEVEL_BURST,         /* fill-levels: a random burst at arg percent full;
				       * arg 0: after the TRIM of everything */
	SLC_ROLE_READ_BASELINE,       /* trim-response: random reads before the TRIM */
	SLC_ROLE_READ_AFTER_TRIM,     /* trim-response: the same reads right after it */
	SLC_ROLE_DATA_RANDOM,         /* compress: a burst of incompressible data */
	SLC_ROLE_DATA_REPEAT,         /* compress: the same burst of repeating data */
	SLC_ROLE_HIR_ROUNDS,          /* hir: write/wait rounds (arg: the wait in seconds) */
	SLC_ROLE_IMPORTED,            /* a curve read from another tool's output */
	SLC_ROLE_SWEEP_PREP,          /* sweeps: the sequential write of the test region that
				       * the reads then find data in (not a write curve) */
	SLC_ROLE_SWEEP,               /* sweeps: one point of a sweep (arg: the plan's group,
				       * 1, 2, ...; its parameters are the segment's) */
	SLC_ROLE_PRECONDITION,        /* sweeps: the sequential writes that bring the drive to
				       * steady state before points run back to back */
	SLC_ROLE__COUNT
};

/** slc_role_name() - "fill", "curve", ...; "unknown" out of range. */
const char *slc_role_name(enum slc_role r);

/** slc_role_from_name() - the role called @name; SLC_ROLE_UNKNOWN if none. */
enum slc_role slc_role_from_name(const char *name);

/**
 * slc_role_of_step() - the role of a step named as the plans name them
 * ("seq_fill", "burst_at_25%", "hir_wait_5s", ...), with its argument in
 * *@arg (may be NULL).  Traces written before roles were stored are read
 * through this, and the plans name their steps so that it holds for them
 * too.  Other names are read by prefix, as the analysis read them before
 * roles were stored ("burst_at_N", "hir_wait_N", "idle_burst...", a name
 * with "trim" in it a burst after a TRIM); the rest give SLC_ROLE_UNKNOWN.
 */
enum slc_role slc_role_of_step(const char *step, uint32_t *arg);

/**
 * slc_role_after_trim() - whether a step of role @r (argument @arg) writes
 * right after a TRIM of the whole target (a recovery burst after TRIM).
 */
int slc_role_after_trim(enum slc_role r, uint32_t arg);

/* What a step does to the drive. */
enum slc_workload {
	SLC_WL_UNKNOWN = 0,
	SLC_WL_SEQ_WRITE,             /* "seq_write" */
	SLC_WL_RAND_WRITE,            /* "rand_write" */
	SLC_WL_RAND_READ,             /* "rand_read" */
	SLC_WL_RAND_WRITE_DUTY,       /* "rand_write_duty": write/wait rounds in one segment */
	SLC_WL_TRIM,                  /* "trim" */
	SLC_WL_IDLE,                  /* "idle" */
	SLC_WL_IMPORTED,              /* "imported": another tool's curve */
	SLC_WL_SEQ_READ,              /* "seq_read" */
	SLC_WL_SEQ_MIXED,             /* "seq_mixed": sequential, each command a read with the
				       * segment's read_pct chance, else a write */
	SLC_WL_RAND_MIXED,            /* "rand_mixed": the same at random offsets */
	SLC_WL__COUNT
};

/** slc_workload_name() - "seq_write", ...; "unknown" out of range. */
const char *slc_workload_name(enum slc_workload w);

/** slc_workload_from_name() - the workload called @name; SLC_WL_UNKNOWN if none (or NULL). */
enum slc_workload slc_workload_from_name(const char *name);

/** slc_workload_reads() - whether @w issues reads (rand_read, seq_read and the mixes). */
int slc_workload_reads(enum slc_workload w);

/** slc_workload_same() - @a and @b name the same workload (two unknown ones only when spelt alike). */
int slc_workload_same(const char *a, const char *b);

/*
 * Events a trace segment can hold: the simulated drive's ground truth (the
 * first eight, in the order of enum slc_sim_event_kind), the plan's TRIM,
 * the drive counters read during a run, and the host's pauses.
 */
enum slc_event_kind {
	SLC_EVK_CACHE_EXHAUSTED = 0,  /* "cache_exhausted" */
	SLC_EVK_FREE_POOL_EXHAUSTED,  /* "free_pool_exhausted": erase-bound begins */
	SLC_EVK_FOLD_DONE,            /* "fold_done" */
	SLC_EVK_THROTTLE_ON,          /* "throttle_on" */
	SLC_EVK_THROTTLE_OFF,         /* "throttle_off" */
	SLC_EVK_CACHE_CAPACITY,       /* "cache_capacity": value the SLC bytes free */
	SLC_EVK_TRIM,                 /* "trim": value the bytes trimmed */
	SLC_EVK_CACHE_END_HOST,       /* "cache_end_host" */
	SLC_EVK_SMART_HOST_BYTES,     /* "smart_host_bytes": the drive's host write counter */
	SLC_EVK_SMART_NAND_BYTES,     /* "smart_nand_bytes": its NAND write counter */
	SLC_EVK_THERMAL_TRANSITIONS,  /* "thermal_transitions": thermal management entries */
	SLC_EVK_HOST_PAUSE,           /* "host_pause": value the seconds the host was stopped
				       * or suspended (not the drive's time) */
	SLC_EVK_UNKNOWN,              /* a kind this version does not know */
	SLC_EVK__COUNT
};

/** slc_event_kind_name() - "cache_exhausted", ...; "unknown" out of range. */
const char *slc_event_kind_name(enum slc_event_kind k);

/** slc_event_kind_from_name() - the kind called @name; SLC_EVK_UNKNOWN if none. */
enum slc_event_kind slc_event_kind_from_name(const char *name);

/* Drive snapshots a trace can hold (JSON documents of the probes). */
enum slc_snapshot_kind {
	SLC_SNAP_IDENTITY = 0,        /* "identity": who the drive is, before the run */
	SLC_SNAP_HEALTH_BEFORE,       /* "health_before": SMART/health as a step begins */
	SLC_SNAP_HEALTH_AFTER,        /* "health_after": ... and as it ends */
	SLC_SNAP_PURGE,               /* "purge": how the drive was purged */
	SLC_SNAP_UNKNOWN,
	SLC_SNAP__COUNT
};

/** slc_snapshot_kind_name() - "identity", ...; "unknown" out of range. */
const char *slc_snapshot_kind_name(enum slc_snapshot_kind k);

/** slc_snapshot_kind_from_name() - the kind called @name; SLC_SNAP_UNKNOWN if none. */
enum slc_snapshot_kind slc_snapshot_kind_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
