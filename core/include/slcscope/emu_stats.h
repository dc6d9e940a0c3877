/* SPDX-License-Identifier: MIT */
/*
 * The emulated drive's counters: DIR/stats.json of 'slcscope emulate'
 * (schema slcscope.emulate-stats/1).  The emulator writes it, the probes read
 * it as the drive's SMART; both go through this header (the key names, the
 * counters as a struct, one writer and one reader) so that the two sides
 * cannot drift apart.  It lives in core because the probes must not depend on
 * the emulator.
 *
 * Included from slcscope/core.h.
 */
#ifndef SLCSCOPE_EMU_STATS_H
#define SLCSCOPE_EMU_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "slcscope/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLC_EMU_STATS_SCHEMA "slcscope.emulate-stats/1"

/* What an emulator's mount point holds: the drive and its counters. */
#define SLC_EMU_IMG_NAME "drive.img"
#define SLC_EMU_STATS_NAME "stats.json"

/* The most recent events the document lists. */
#define SLC_EMU_STATS_LAST_EVENTS 32

/* Key names, at the top level: */
#define SLC_EMU_KEY_SCHEMA "schema"
#define SLC_EMU_KEY_PID "pid"
#define SLC_EMU_KEY_MODEL "model"                  /* an object: SLC_EMU_KEY_MODEL_* */
#define SLC_EMU_KEY_UPTIME_S "uptime_s"
#define SLC_EMU_KEY_MODEL_TIME_S "model_time_s"
#define SLC_EMU_KEY_COMMANDS "commands"
#define SLC_EMU_KEY_WRITE_COMMANDS "write_commands"
#define SLC_EMU_KEY_READ_COMMANDS "read_commands"
#define SLC_EMU_KEY_TRIM_COMMANDS "trim_commands"
#define SLC_EMU_KEY_HOST_WRITE_BYTES "host_write_bytes"
#define SLC_EMU_KEY_HOST_READ_BYTES "host_read_bytes"
#define SLC_EMU_KEY_HOST_TRIM_BYTES "host_trim_bytes"
#define SLC_EMU_KEY_NAND_WRITE_BYTES "nand_write_bytes"
#define SLC_EMU_KEY_SLC_WRITE_BYTES "slc_write_bytes"
#define SLC_EMU_KEY_GC_COPY_BYTES "gc_copy_bytes"
#define SLC_EMU_KEY_FOLD_BYTES "fold_bytes"
#define SLC_EMU_KEY_ERASES "erases"
#define SLC_EMU_KEY_MAP_FLUSHES "map_flushes"
#define SLC_EMU_KEY_WRITE_AMPLIFICATION "write_amplification"
#define SLC_EMU_KEY_CACHE_FREE_BYTES "cache_free_bytes"
#define SLC_EMU_KEY_TEMP_C "temp_c"
#define SLC_EMU_KEY_EVENTS "events"                /* an object: slc_sim_event_name() -> count */
#define SLC_EMU_KEY_LAST_EVENTS "last_events"      /* an array of objects: SLC_EMU_KEY_EV_* */
#define SLC_EMU_KEY_FAULTS "faults"                /* an object: SLC_EMU_KEY_FAULT_* */
#define SLC_EMU_KEY_LATE_REPLIES "late_replies"
#define SLC_EMU_KEY_MAX_LATE_MS "max_late_ms"
#define SLC_EMU_KEY_OPENS_DIRECT "opens_direct"
#define SLC_EMU_KEY_OPENS_BUFFERED "opens_buffered"
#define SLC_EMU_KEY_ASYNC_DIO "async_dio"
#define SLC_EMU_KEY_MAX_BACKGROUND "max_background"
#define SLC_EMU_KEY_IN_FLIGHT_MAX "in_flight_max"
/* In "model": */
#define SLC_EMU_KEY_MODEL_NAME "name"
#define SLC_EMU_KEY_MODEL_CAPACITY_BYTES "capacity_bytes"
#define SLC_EMU_KEY_MODEL_RAW_BYTES "raw_bytes"
#define SLC_EMU_KEY_MODEL_SLC_STATIC_BYTES "slc_static_bytes"
#define SLC_EMU_KEY_MODEL_SLC_DYNAMIC_MAX_BYTES "slc_dynamic_max_bytes"
#define SLC_EMU_KEY_MODEL_THROTTLE_C "throttle_c"
#define SLC_EMU_KEY_MODEL_TIME_SCALE "time_scale"
#define SLC_EMU_KEY_MODEL_SIZE_SCALE "size_scale"
/* In each of "last_events": */
#define SLC_EMU_KEY_EV_EVENT "event"
#define SLC_EMU_KEY_EV_T_S "t_s"
#define SLC_EMU_KEY_EV_MODEL_T_S "model_t_s"
#define SLC_EMU_KEY_EV_HOST_BYTES "host_bytes"
#define SLC_EMU_KEY_EV_VALUE "value"
/* In "faults": */
#define SLC_EMU_KEY_FAULT_INJECTED_ERRORS "injected_errors"
#define SLC_EMU_KEY_FAULT_SPIKES "spikes"
#define SLC_EMU_KEY_FAULT_VANISHED "vanished"

/* An integer the document does not have (or not as a number >= 0). */
#define SLC_EMU_STATS_UNKNOWN UINT64_MAX

/* The model as served: after the size scale. */
struct slc_emu_stats_model {
	char name[64];
	uint64_t capacity_bytes, raw_bytes, slc_static_bytes, slc_dynamic_max_bytes;
	double throttle_c;                 /* NAN: no thermal model (the key is left out) */
	double time_scale;                 /* model seconds per real second */
	double size_scale;
};

struct slc_emu_stats_event {
	enum slc_sim_event_kind kind;      /* SLC_SIM_EV__COUNT: a name this build does not know */
	double t_s;                        /* real seconds since the mount */
	double model_t_s;
	uint64_t host_bytes;               /* host bytes written since the last mark */
	double value;
};

struct slc_emu_stats_faults {
	uint64_t injected_errors, spikes;
	int vanished;                      /* the drive is gone (--vanish-after-bytes) */
};

/*
 * The document.  Read back, integers it lacks are SLC_EMU_STATS_UNKNOWN,
 * numbers NAN, strings "" and flags 0; written, SLC_EMU_STATS_UNKNOWN and NAN
 * leave the key out, except where a field says null.
 */
struct slc_emu_stats {
	uint64_t pid;                      /* the server's */
	struct slc_emu_stats_model model;
	double uptime_s;                   /* real seconds since the mount */
	double model_time_s;
	uint64_t commands, write_commands, read_commands, trim_commands;
	uint64_t host_write_bytes, host_read_bytes, host_trim_bytes;   /* as the model counted them */
	uint64_t nand_write_bytes, slc_write_bytes, gc_copy_bytes, fold_bytes, erases, map_flushes;
	double write_amplification;        /* NAN: null (nothing written yet) */
	uint64_t cache_free_bytes;
	double temp_c;                     /* NAN: null (no thermal model) */
	uint64_t events[SLC_SIM_EV__COUNT];   /* counts by kind, keyed by slc_sim_event_name() */
	struct slc_emu_stats_event last_events[SLC_EMU_STATS_LAST_EVENTS];   /* oldest first */
	size_t n_last_events;
	struct slc_emu_stats_faults faults;
	uint64_t late_replies;             /* replies sent more than 1 ms after their time */
	double max_late_ms;
	uint64_t opens_direct, opens_buffered;   /* opens of drive.img with and without O_DIRECT */
	int async_dio;                     /* the kernel granted FUSE_CAP_ASYNC_DIO */
	uint64_t max_background;           /* the FUSE connection's */
	uint64_t in_flight_max;            /* the most commands in the model at once */
};

/** slc_emu_stats_init() - everything unknown (as an empty document reads). */
void slc_emu_stats_init(struct slc_emu_stats *s);

/**
 * slc_emu_stats_format() - the document as JSON text, indented, ending in a
 * newline.
 *
 * Return: a string to free(), or NULL when out of memory.
 */
char *slc_emu_stats_format(const struct slc_emu_stats *s);

/**
 * slc_emu_stats_parse() - read a document from JSON text.
 * @origin: the file it came from, for messages
 *
 * Return: 0, -EINVAL (not JSON, or not SLC_EMU_STATS_SCHEMA) with a reason in
 * @err.
 */
int slc_emu_stats_parse(struct slc_emu_stats *s, const char *text, const char *origin, char *err, size_t errlen);

/**
 * slc_emu_stats_load() - read a document from a file (DIR/stats.json).
 *
 * Return: 0, -EIO (unreadable or not JSON), -EINVAL (not
 * SLC_EMU_STATS_SCHEMA) with a reason in @err.
 */
int slc_emu_stats_load(struct slc_emu_stats *s, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
