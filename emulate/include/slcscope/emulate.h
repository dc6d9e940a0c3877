/* SPDX-License-Identifier: MIT */
/*
 * slcscope emulator library (public header): a simulated drive
 * (slcscope/sim.h) served as the file DIR/drive.img through FUSE, with the
 * model's timing applied in real time, so that a loop device over it behaves
 * like the model.  The data is kept in a sparse store, TRIM comes from
 * fallocate(PUNCH_HOLE), the counters are in DIR/stats.json
 * (slcscope/emu_stats.h), and faults can be injected.  docs/emulate.md
 * describes the behaviour and the scales.
 */
#ifndef SLCSCOPE_EMULATE_H
#define SLCSCOPE_EMULATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "slcscope/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLC_EMU_MAX_FAIL_AT 64

struct slc_emu_opts {
	double time_scale;              /* model seconds per real second */
	double size_scale;              /* capacity and cache factor (model already scaled) */
	const char *dir;                /* mount point */
	const char *store;              /* data store; NULL: an unlinked file in $TMPDIR */
	const char *pidfile;            /* the server's pid, written once it is ready, removed at close; NULL: none */
	const char *log;                /* slc_emu_spawn(): the server's stderr, appended; NULL: discarded */
	uint64_t seed;
	int quiet;                      /* no event lines on stderr */
	/* faults */
	uint64_t fail_after_bytes;      /* UINT64_MAX: off */
	uint64_t fail_at[SLC_EMU_MAX_FAIL_AT];
	size_t n_fail_at;
	uint64_t spike_every;           /* 0: off */
	uint64_t spike_ns;
	uint64_t vanish_after_bytes;    /* UINT64_MAX: off */
	uint64_t trim_delay_ns;         /* every TRIM answered this much later (a stalled TRIM); 0: off */
};

struct slc_emu;

/**
 * slc_emu_opts_init() - the defaults: both scales 1, seed 1, no faults,
 * spikes (once enabled) of 100 ms; @dir is left for the caller.
 */
void slc_emu_opts_init(struct slc_emu_opts *o);

/**
 * slc_emu_capacity_scale() - the size scale that gives the drive
 * @capacity_bytes.
 *
 * Return: 0, or -ERANGE with a reason in @err when the model is smaller.
 */
int slc_emu_capacity_scale(const struct slc_sim_model *m, uint64_t capacity_bytes, double *size_scale,
			   char *err, size_t errlen);

/**
 * slc_emu_scale_model() - shrink a model by @size_scale: capacity, flash,
 * SLC cache sizes, idle-GC target and map cache shrink together, speeds and
 * erase block size stay.
 *
 * Return: 0 or -EINVAL with a reason in @err.
 */
int slc_emu_scale_model(struct slc_sim_model *m, double size_scale, char *err, size_t errlen);

/**
 * slc_emu_open() - build the drive from @model (already scaled), open the
 * store, mount DIR, then write the pidfile.
 * @out: the server; free with slc_emu_close().  NULL on failure.
 *
 * Return: 0, or -errno with a one-line reason in @err.
 */
int slc_emu_open(struct slc_emu **out, const struct slc_sim_model *model, const struct slc_emu_opts *o,
		 char *err, size_t errlen);

/**
 * slc_emu_serve() - answer requests until SIGINT/SIGTERM/SIGHUP, an unmount
 * of DIR, or a vanish fault; then unmount.
 *
 * Return: 0, or -errno.
 */
int slc_emu_serve(struct slc_emu *e);

/** slc_emu_describe() - the scaled drive as the host sees it, and how to attach it. */
void slc_emu_describe(struct slc_emu *e, FILE *out);

/** slc_emu_summary() - the counters and events, for the end of a run. */
void slc_emu_summary(struct slc_emu *e, FILE *out);

/** slc_emu_vanished() - 1 if the run ended because of the vanish fault. */
int slc_emu_vanished(const struct slc_emu *e);

/** slc_emu_close() - free everything (unmounts if still mounted, removes the pidfile); NULL is allowed. */
void slc_emu_close(struct slc_emu *e);

/**
 * slc_emu_spawn() - run the server in the background.  A child process in a
 * session of its own opens it (slc_emu_open()), sends its stdin and stdout
 * to /dev/null and its stderr to o->log, calls @serve (which runs
 * slc_emu_serve() and reports), closes the server and exits with what
 * @serve returned.  The caller returns once the child is ready or has failed.
 * @ready: gets the drive's description (slc_emu_describe()) once ready
 * @pid:   the child's
 *
 * Return: 0 once ready, or -errno with the reason in @err (the child's, or
 * why it could not be started).
 */
int slc_emu_spawn(const struct slc_sim_model *model, const struct slc_emu_opts *o,
		  int (*serve)(struct slc_emu *e, void *arg), void *arg, FILE *ready, pid_t *pid,
		  char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
