/* SPDX-License-Identifier: MIT */
/*
 * The simulated drive served as a file through FUSE (slcscope emulate): the
 * model's timing applied in real time, the data kept in a sparse store,
 * TRIM from fallocate(PUNCH_HOLE), counters in DIR/stats.json, and fault
 * injection.  Used by cli/cmd_emulate.c only.
 */
#ifndef SLCSCOPE_CLI_EMULATE_H
#define SLCSCOPE_CLI_EMULATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slcscope/sim.h"

#define EMU_MAX_FAIL_AT 64

struct emu_opts {
	double time_scale;              /* model seconds per real second */
	double size_scale;              /* capacity and cache factor (model already scaled) */
	const char *dir;                /* mount point */
	const char *store;              /* data store; NULL: an unlinked file in $TMPDIR */
	uint64_t seed;
	int buffered;                   /* serve drive.img through the page cache (no FOPEN_DIRECT_IO) */
	int quiet;
	/* faults */
	uint64_t fail_after_bytes;      /* UINT64_MAX: off */
	uint64_t fail_at[EMU_MAX_FAIL_AT];
	size_t n_fail_at;
	uint64_t spike_every;           /* 0: off */
	uint64_t spike_ns;
	uint64_t vanish_after_bytes;    /* UINT64_MAX: off */
};

struct emu;

/*
 * emu_open() - build the drive from @model (already scaled), open the store,
 * mount DIR.  Errors are one line in @err.
 */
int emu_open(struct emu **out, const struct slc_sim_model *model, const struct emu_opts *o,
	     char *err, size_t errlen);

/*
 * emu_serve() - answer requests until SIGINT/SIGTERM/SIGHUP, an unmount of
 * DIR, or a vanish fault; then unmount.  Returns 0, or -errno.
 */
int emu_serve(struct emu *e);

/* emu_describe() - the scaled drive as the host sees it, and how to attach it. */
void emu_describe(struct emu *e, FILE *out);

/* emu_summary() - the counters and events, for the end of a run. */
void emu_summary(struct emu *e, FILE *out);

/* emu_vanished() - 1 if the run ended because of --vanish-after-bytes. */
int emu_vanished(const struct emu *e);

/* emu_close() - free everything (unmounts if still mounted). */
void emu_close(struct emu *e);

/*
 * emu_scale_model() - shrink a model by @size_scale: capacity, flash,
 * SLC cache sizes, idle-GC target and map cache shrink together, speeds and
 * erase block size stay.  Returns 0 or -EINVAL with a reason.
 */
int emu_scale_model(struct slc_sim_model *m, double size_scale, char *err, size_t errlen);

#endif
