/* SPDX-License-Identifier: MIT */
/*
 * Inside the targets: what a target is and what each kind implements.
 *
 * One source file per kind, as fio has one per I/O engine: target_uring.c
 * (block devices and regular files through io_uring), target_sim.c (the
 * simulated drive in virtual time), target_null.c (completes at once).
 * target.c picks the kind for a spec from a table of {match, open} entries
 * and holds the accessors.  The engine drives every kind through the ops;
 * what only some kinds have (ground-truth events, counters, a job mark) is
 * an optional op, and what the run must know of a kind is a capability
 * (SLC_TARGET_CAP_*), so that the engine and the plan runner never name a
 * kind.  Not installed: public code sees struct slc_target as opaque.
 */
#ifndef SLCSCOPE_TARGET_PRIV_H
#define SLCSCOPE_TARGET_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "slcscope/engine.h"

struct slc_target_ops {
	const char *name;
	unsigned caps;                /* SLC_TARGET_CAP_*, for slc_target_caps() */
	/* submit: queue @io (the engine calls reap after a batch) */
	int (*submit)(struct slc_target *t, struct slc_io *io, void *buf);
	/* reap: send queued commands, then wait until at least @min completed;
	 * returns completions in @done (at most @max), count, or -errno */
	int (*reap)(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min);
	/* optional, for kinds whose commands can take any time (real devices):
	 * as reap with @min 1, but back after @timeout_ns with 0 if nothing
	 * completed (or a signal came) */
	int (*reap_timed)(struct slc_target *t, struct slc_io **done, unsigned max, uint64_t timeout_ns);
	/* optional: the commands in flight are given up; the kernel may still
	 * complete them, so the target takes no more I/O and its close must
	 * not wait for them */
	void (*abandon)(struct slc_target *t);
	uint64_t (*now_ns)(struct slc_target *t);
	/* discard a range (TRIM); whole device when len covers it */
	int (*discard)(struct slc_target *t, uint64_t offset, uint64_t len);
	/* optional, for kinds whose TRIM the kernel does in the caller's
	 * thread, uninterruptibly: slc_target_discard_stoppable() by
	 * slc__target_discard_apart() (after the kind's own bookkeeping) */
	int (*discard_stoppable)(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop);
	/* idle until @until_ns on the target clock (sleep, or virtual time) */
	void (*idle)(struct slc_target *t, uint64_t until_ns);
	/* optional: commands at @offsets come soon, in this order, after
	 * those of the last call (the engine hints its whole ring of AHEAD
	 * at the start, then half of it at a time) */
	void (*hint)(struct slc_target *t, const uint64_t *offsets, unsigned n);
	/* optional: register @n buffers of @bytes for fixed I/O */
	int (*register_buffers)(struct slc_target *t, void **bufs, unsigned n, size_t bytes);
	/* optional (SLC_TARGET_CAP_EVENTS): up to @max ground-truth events
	 * since the last call, in time order; the count */
	size_t (*events)(struct slc_target *t, struct slc_sim_event *ev, size_t max);
	/* optional (SLC_TARGET_CAP_COUNTERS): host and NAND writes, temperature */
	void (*counters)(struct slc_target *t, struct slc_sim_counters *c);
	/* optional: a job starts at @now_ns (events count host bytes from here) */
	void (*mark)(struct slc_target *t, uint64_t now_ns);
	/* optional, for kinds that several writer threads can share: fill
	 * @tw (a copy of @t less its descriptor and state) as a twin of @t, the
	 * same device or file with its own queue for @qd commands in flight.
	 * Called in the thread that submits to the twin (an io_uring ring has
	 * one submitter); the twin is closed before @t. */
	int (*twin)(struct slc_target *t, struct slc_target *tw, unsigned qd, char *err, size_t errlen);
	/* free what open allocated (priv, the descriptor); not @t itself */
	void (*close)(struct slc_target *t);
};

struct slc_target {
	const struct slc_target_ops *ops;
	enum slc_target_kind kind;
	char spec[256];               /* as given: "/dev/nvme0n1", "sim:tiny-tlc", ... */
	uint64_t capacity_bytes;
	uint32_t logical_block_bytes;
	uint32_t physical_block_bytes;
	int fd;                       /* -1 when the kind has none (sim, null) */
	void *priv;                   /* the kind's own state */
	unsigned caps;                /* capabilities of this target beyond its kind's */
	uint64_t poll_ns;             /* set by the engine for a job: how long a reap may poll
				       * for completions before it sleeps (0: sleeps at once) */
	const char *io_mode;          /* slc_target_io_mode(); NULL: "" */
};

/* slc_target_check_args()'s word on slc_target_opts.io_poll for @spec
 * (also said by the opens, for callers that skip the check). */
int slc__target_io_poll_args(const char *spec, unsigned io_poll, int no_kernel_io, int blockdev,
			     char *err, size_t errlen);

/*
 * A kind's open: fill @t (allocated and zeroed by slc_target_open(), with
 * spec set and fd -1) for @spec.  Return: 0, or -errno with a reason in
 * @err; on failure the kind has released whatever it took, and the caller
 * only frees @t.
 */
/* ops->discard in chunks in a child process, waited for in slices that see
 * *@stop (target.c): slc_target_discard_stoppable() for real devices */
int slc__target_discard_apart(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop);

typedef int slc__target_open_fn(struct slc_target *t, const char *spec, const struct slc_target_opts *o,
				char *err, size_t errlen);

slc__target_open_fn slc__target_blockdev_open;   /* target_uring.c */
slc__target_open_fn slc__target_file_open;       /* target_uring.c */
slc__target_open_fn slc__target_sim_open;        /* target_sim.c */
slc__target_open_fn slc__target_null_open;       /* target_null.c */

/* A twin of @t (ops->twin) in *@out, closed with slc_target_close(); 0,
 * or -errno with the reason (-ENOTSUP: the kind has none). */
int slc__target_twin(struct slc_target *t, unsigned qd, struct slc_target **out, char *err, size_t errlen);

/* The size a "null:SIZE" spec names: 0, or -EINVAL with the reason. */
int slc__target_null_size(const char *spec, uint64_t *bytes, char *err, size_t errlen);

/* The monotonic clock, for the kinds that run in real time. */
uint64_t slc__target_mono_ns(void);
uint64_t slc__target_mono_now(struct slc_target *t);
/* Sleep until @until_ns on the monotonic clock, waking every 200 ms so a
 * signal is noticed. */
void slc__target_mono_idle(struct slc_target *t, uint64_t until_ns);

/*
 * slc__target_sim_detach() - take the simulated drive back from a target
 * made by slc_target_from_sim(): slc_target_close() then leaves it open.
 * Return: the drive, or NULL when @t is not a simulated drive.
 */
struct slc_sim *slc__target_sim_detach(struct slc_target *t);

#endif
