/* SPDX-License-Identifier: MIT */
/*
 * The simulated drive: a page-mapped flash translation layer in virtual time.
 *
 * A model (struct slc_sim_model) is loaded from JSON: a shipped preset by
 * name ("sata240-tlc") or a file path.  A drive (struct slc_sim) built from
 * it takes host writes, reads and TRIMs with submission times in virtual
 * nanoseconds and answers each with its completion time.  Gaps between I/Os
 * are idle time, during which the drive folds its SLC cache and (if the model
 * says so) collects garbage.  Everything is deterministic for a given seed.
 *
 * Included from slcscope/core.h.
 */
#ifndef SLCSCOPE_SIM_H
#define SLCSCOPE_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SLC_SIM_MODEL_SCHEMA "slcscope.sim-model/1"

enum slc_sim_when_full {
	SLC_SIM_FULL_DIRECT = 0,   /* cache full: write straight to native blocks */
	SLC_SIM_FULL_FOLD = 1,     /* cache full: fold the oldest SLC block, keep writing SLC */
};

/*
 * A drive model.  All sizes in bytes, speeds in bytes per second (the JSON
 * gives MB/s, decimal), times in nanoseconds unless the name says otherwise.
 */
struct slc_sim_model {
	char name[64];
	char description[256];
	char interface[16];                /* "sata", "nvme" */
	uint64_t capacity_bytes;           /* host-visible */
	uint32_t unit_bytes;               /* mapping unit (4096; larger on huge presets) */

	/* NAND */
	uint32_t bits_per_cell;            /* 2 MLC, 3 TLC, 4 QLC; SLC mode stores 1/bits */
	uint64_t raw_bytes;                /* physical flash in native mode */
	uint64_t block_bytes;              /* erase block in native mode */
	double erase_ns;
	uint32_t channels;                 /* flash channels (buses) */
	uint32_t dies_per_channel;         /* dies on each, working in parallel */
	uint32_t page_bytes;               /* program and read unit of one die */
	double read_native_ns;             /* page read (tR) of a native-mode block */
	double read_slc_ns;                /* page read (tR) of an SLC-mode block */
	double prog_native_ns;             /* page program (tPROG) in native mode */
	double prog_slc_ns;                /* page program in SLC mode */
	double channel_bps;                /* transfer rate of one channel's bus */

	/* Host interface and controller */
	double max_iops;                   /* per-command controller limit */
	double link_bps;                   /* interface limit */
	double write_buffer_ns;            /* flash work a write may leave behind its completion */
	double latency_ns;                 /* a command's way through interface and firmware */

	/* Program, copy and read speeds */
	double slc_static_bps, slc_dynamic_bps, native_bps, gc_copy_bps, fold_idle_bps, read_bps;

	/* SLC cache */
	uint64_t slc_static_bytes;         /* host bytes the static SLC pool holds */
	uint64_t slc_dynamic_max_bytes;    /* upper bound of the dynamic cache */
	double slc_dynamic_free_ratio;     /* dynamic cache = ratio x unwritten host bytes, capped */
	uint64_t slc_fast_tier_bytes;      /* dynamic SLC written at slc_static_bps up to here (two tiers) */
	enum slc_sim_when_full when_full;

	/* Garbage collection */
	double gc_free_fraction;           /* foreground GC keeps this fraction of blocks free */
	int idle_gc;                       /* 1: collect garbage when idle */
	uint64_t idle_gc_target_bytes;     /* idle GC stops when this much is free */
	double idle_gc_bps;                /* speed of idle GC copies */

	/* TRIM */
	double trim_process_bps;           /* background processing of trimmed ranges */
	double trim_read_slowdown;         /* read service time factor while processing */
	double trim_read_stall_ns;         /* first reads after a TRIM wait up to this long */

	/* DRAM-less mapping cache (0 entries: full map in DRAM) */
	uint64_t map_cache_entries;        /* mapping units covered by the cache */
	uint32_t map_journal_entries;      /* updates buffered before a map flush */
	double map_flush_entry_ns;         /* flush cost per buffered update */
	double map_miss_ns;                /* extra read on a cache miss */

	/* Noise */
	double io_jitter_sigma;            /* per-I/O lognormal sigma */
	double native_sigma;               /* slow noise on native program speed (log scale) */
	double native_tau_s;               /* its correlation time */

	/* Thermal (enabled when thermal_enabled) */
	int thermal_enabled;
	double ambient_c, idle_w, write_nj_per_byte, c_per_w, thermal_tau_s;
	double throttle_c, throttle_hysteresis_c, throttle_factor;

	/* Controller compression (zlib-estimated) */
	int compression;

	/* Host interface: extra controller time of a command that goes the
	 * other way from the one before it, in multiples of its own */
	double duplex_penalty;
};

/* One shipped preset. */
struct slc_sim_preset {
	const char *name;
	const char *json;                  /* the model file's text */
};

/**
 * slc_sim_presets() - the presets shipped with slcscope.
 * @count: set to their number
 *
 * Return: a static array; do not free.
 */
const struct slc_sim_preset *slc_sim_presets(size_t *count);

/** The preset used when "sim:" names none. */
#define SLC_SIM_DEFAULT_PRESET "sata240-tlc"

/**
 * slc_sim_model_parse() - parse and check a model from JSON text.
 * @out:    filled on success
 * @json:   the text
 * @origin: file or preset name, used in error messages
 * @err:    one-line reason on failure, naming the field
 *
 * Return: 0 or -EINVAL.
 */
int slc_sim_model_parse(struct slc_sim_model *out, const char *json, const char *origin,
			char *err, size_t errlen);

/**
 * slc_sim_model_load() - load a preset by name, or a model file when @spec
 * contains a '/' or ends in ".json".  A leading "sim:" is skipped; an empty
 * @spec (or "sim:") loads the default preset.
 *
 * Return: 0, -ENOENT (no such preset or file), -EINVAL (bad model).
 */
int slc_sim_model_load(struct slc_sim_model *out, const char *spec, char *err, size_t errlen);

/* Ground-truth event kinds recorded by the drive. */
enum slc_sim_event_kind {
	SLC_SIM_EV_CACHE_EXHAUSTED = 0,    /* first write that found no SLC space */
	SLC_SIM_EV_FREE_POOL_EXHAUSTED,    /* first foreground GC: erase-bound begins */
	SLC_SIM_EV_FOLD_DONE,              /* SLC cache completely folded */
	SLC_SIM_EV_THROTTLE_ON,
	SLC_SIM_EV_THROTTLE_OFF,
	SLC_SIM_EV_CACHE_CAPACITY,         /* value: SLC host bytes free (at marks) */
	SLC_SIM_EV_TRIM,                   /* value: bytes trimmed */
	SLC_SIM_EV_CACHE_END_HOST,         /* first write after cache_exhausted whose
	                                      completion waits on the flash: where the
	                                      host sees the cache end (the write buffer
	                                      hides the flash-side event until then) */
	SLC_SIM_EV__COUNT
};

struct slc_sim_event {
	enum slc_sim_event_kind kind;
	uint64_t t_ns;                     /* virtual time */
	uint64_t host_bytes;               /* host bytes written since the last mark */
	double value;
};

/**
 * slc_sim_model_describe() - @m in words, one line per part (capacity,
 * flash, mapping, controller, SLC cache, native speed, idle GC, DRAM,
 * thermal model, compression).
 */
void slc_sim_model_describe(FILE *f, const struct slc_sim_model *m);

/** slc_sim_event_name() - "cache_exhausted", "free_pool_exhausted", ... */
const char *slc_sim_event_name(enum slc_sim_event_kind kind);

/* Counters, cumulative since the drive was created. */
struct slc_sim_counters {
	uint64_t host_write_bytes, host_read_bytes, host_trim_bytes;
	uint64_t nand_write_bytes;         /* all programs: SLC, native, GC, folding */
	uint64_t slc_write_bytes;          /* host data programmed in SLC mode */
	uint64_t gc_copy_bytes, fold_bytes;
	uint64_t erases;
	uint64_t map_flushes;
	double temp_c;                     /* NAN without a thermal model */
	int throttled;
	uint64_t throttle_transitions;     /* times throttling began (NVMe TMT1-style count) */
};

struct slc_sim;

/**
 * slc_sim_open() - build a fresh (all trimmed) drive from @model.
 * @out:   the drive; free with slc_sim_close()
 * @model: copied, may be freed afterwards
 * @seed:  noise seed; the same seed gives the same completions
 *
 * Return: 0, -ENOMEM (the mapping tables need about 8 bytes per unit),
 * -EINVAL with a reason in @err.
 */
int slc_sim_open(struct slc_sim **out, const struct slc_sim_model *model, uint64_t seed,
		 char *err, size_t errlen);

/** slc_sim_close() - free the drive; NULL is allowed. */
void slc_sim_close(struct slc_sim *s);

/** slc_sim_model_of() - the drive's model. */
const struct slc_sim_model *slc_sim_model_of(const struct slc_sim *s);

/**
 * slc_sim_write() - a host write of @len bytes at @offset submitted at
 * @submit_ns.  @data (may be NULL) is only looked at by compressing models.
 *
 * Return: the completion time in virtual ns (>= @submit_ns).  Offsets past
 * the capacity are clipped by the caller; the drive ignores what lies beyond.
 */
uint64_t slc_sim_write(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint32_t len,
		       const void *data);

/**
 * slc_sim_prefetch() - hint that a write or read at @offset comes soon, so
 * that its mapping entry is fetched from memory meanwhile.  Random workloads
 * call it 17-32 commands ahead, for 16 offsets in a row (32 at the start):
 * a prefetch that misses the TLB holds the caller for its page walk, and
 * prefetches issued together wait for their walks together.  It changes no
 * state.
 */
void slc_sim_prefetch(const struct slc_sim *s, uint64_t offset);

/** slc_sim_read() - a host read; returns its completion time. */
uint64_t slc_sim_read(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint32_t len);

/** slc_sim_trim() - discard a range (whole units only); returns completion. */
uint64_t slc_sim_trim(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint64_t len);

/**
 * slc_sim_idle() - let the drive sit idle until @until_ns, doing its
 * background work (folding, idle GC).  Equivalent to the gap before a later
 * I/O; useful to measure recovery without issuing one.
 */
void slc_sim_idle(struct slc_sim *s, uint64_t until_ns);

/** slc_sim_counters() - copy the counters. */
void slc_sim_get_counters(const struct slc_sim *s, struct slc_sim_counters *out);

/**
 * slc_sim_cache_free_bytes() - ground truth: host bytes the SLC cache would
 * take right now before the first write misses it.
 */
uint64_t slc_sim_cache_free_bytes(const struct slc_sim *s);

/**
 * slc_sim_mark() - start a new measurement segment: host_bytes of later
 * events count from here, the exhaustion events may fire again, and a
 * SLC_SIM_EV_CACHE_CAPACITY event records the cache available now.
 */
void slc_sim_mark(struct slc_sim *s, uint64_t now_ns);

/**
 * slc_sim_events() - events recorded since the last call (at most @max);
 * returns how many were copied.  The drive keeps up to 1024 undrained.
 */
size_t slc_sim_events(struct slc_sim *s, struct slc_sim_event *out, size_t max);

/**
 * slc_sim_check() - verify the FTL invariants (mapping both ways, valid
 * counts, free-block accounting).  Slow: for tests.
 *
 * Return: 0, or -EFAULT with the first violation in @err.
 */
int slc_sim_check(const struct slc_sim *s, char *err, size_t errlen);

/** slc_sim_memory_bytes() - memory the drive holds (tables included). */
uint64_t slc_sim_memory_bytes(const struct slc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
