/* SPDX-License-Identifier: MIT */
/*
 * Targets and the write engine.
 *
 * A target is what gets written: a block device, a regular file, a
 * simulated drive ("sim:MODEL") or nothing ("null:SIZE").  Each kind is a
 * const ops table inside the library; what differs between kinds shows
 * here only as capabilities (slc_target_caps()).  The engine drives any
 * of them with the same loop: keep
 * queue_depth commands in flight, reap completions, feed the sampler.  Real
 * targets go through io_uring with registered buffers and a registered file;
 * the simulated drive answers in virtual time; the null target completes at
 * once and so measures the engine's own overhead.
 *
 * Included from slcscope/core.h.
 */
#ifndef SLCSCOPE_ENGINE_H
#define SLCSCOPE_ENGINE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "slcscope/units.h"
#include "slcscope/sample.h"
#include "slcscope/sim.h"
#include "slcscope/vocab.h"

struct slc_trace;

#ifdef __cplusplus
extern "C" {
#endif

enum slc_target_kind {
	SLC_TARGET_BLOCKDEV = 0,
	SLC_TARGET_FILE,
	SLC_TARGET_SIM,
	SLC_TARGET_NULL,
};

/* How to open a target. */
struct slc_target_opts {
	uint64_t file_size_bytes;     /* regular files: create/extend to this size (0: keep) */
	int destructive;              /* block devices: the user asked to destroy the data */
	int force;                    /* write despite what slc_blockdev_check() or
				       * slc_file_check() found; never a mount or swap */
	uint64_t seed;                /* simulated drive noise */
	uint32_t max_queue_depth;     /* ring size; default 256 */
	const volatile int *stop;     /* may be NULL; non-zero: the safety checks, which
				       * a stalled drive can hold in the kernel, are
				       * left behind and the open fails with -ECANCELED */
	unsigned io_poll;             /* SLC_TARGET_HIPRI | SLC_TARGET_SQPOLL; 0: interrupts */
};

/*
 * How a block device's ring does its I/O (slc_target_opts.io_poll).
 * SLC_TARGET_HIPRI: completions are polled for (IORING_SETUP_IOPOLL), only
 * on a block device whose queue has poll queues (its queue/io_poll reads 1;
 * NVMe: nvme.poll_queues=N), refused otherwise rather than left to the
 * kernel's silent fallback to interrupts.  SLC_TARGET_SQPOLL: a kernel
 * thread takes the commands from the ring (IORING_SETUP_SQPOLL; it sleeps
 * after 100 ms without any).  Block devices and files take SQPOLL, block
 * devices alone HIPRI; the simulated and null targets do no kernel I/O and
 * refuse both (slc_target_check_args()).
 */
#define SLC_TARGET_HIPRI 1u
#define SLC_TARGET_SQPOLL 2u

/**
 * slc_blockdev_poll_queues() - whether block device @path has poll queues
 * (its queue's io_poll, its disk's for a partition), as --hipri needs:
 * what run's dry run and --fio-job check before they promise a polled run.
 * Return: 0; -EOPNOTSUPP (none; the fix in @err), or -errno.
 */
int slc_blockdev_poll_queues(const char *path, char *err, size_t errlen);

/* One command in flight. */
struct slc_io {
	uint64_t offset;
	uint32_t len;
	uint32_t slot;                /* buffer index */
	int is_read;
	uint64_t submit_ns;           /* target clock */
	uint64_t complete_ns;
	int result;                   /* bytes done, or -errno */
};

/* An open target; opaque: use the accessors below. */
struct slc_target;

/**
 * slc_target_open() - open @spec: "sim:MODEL", "null:SIZE", a block device
 * (needs @o->destructive) or a regular file (created when
 * @o->file_size_bytes is set).  Block devices are opened O_DIRECT|O_EXCL;
 * block devices and existing files are refused when in use (mounted or
 * swap: whatever the flags) or when slc_blockdev_check() or
 * slc_file_check() found something (unless @o->force).  A file is locked
 * (flock) while open, so two runs never write it at once; a file the open
 * created is removed again by slc_target_close() when nothing was written
 * to it, and a file written is marked as slcscope's (slc_file_check()).
 * @out: the target; close with slc_target_close()
 *
 * Return: 0 or -errno with a one-line reason in @err.
 */
int slc_target_open(struct slc_target **out, const char *spec, const struct slc_target_opts *o,
		    char *err, size_t errlen);

/**
 * slc_target_check_args() - what can be said of @spec and @o before
 * anything is opened: a "null:" size that parses and is at least 4 KiB, a
 * file size (@o->file_size_bytes) from 4 KiB to 8 EiB less one byte, and a
 * path that is not there under /dev (or on a devtmpfs): no such device.
 * Return: 0, -EINVAL with the reason in @err (a usage error), or -ENODEV
 * ("PATH: no such device": a device that is not there, no file to create).
 */
int slc_target_check_args(const char *spec, const struct slc_target_opts *o, char *err, size_t errlen);

/**
 * slc_target_from_sim() - wrap an open simulated drive as a target; the
 * target owns @sim from then on (slc_target_close() frees it).
 * Return: 0 or -ENOMEM (then @sim is still the caller's).
 */
int slc_target_from_sim(struct slc_target **out, struct slc_sim *sim, const char *spec);

/** slc_target_close() - close and free; NULL is allowed. */
void slc_target_close(struct slc_target *t);

/* What a target can do, for the run and the probes (slc_target_caps()). */
enum {
	SLC_TARGET_CAP_VIRTUAL_CLOCK = 1u << 0, /* its clock is a model's, not the wall clock */
	SLC_TARGET_CAP_EVENTS = 1u << 1,        /* reports ground-truth events (slc_target_events()) */
	SLC_TARGET_CAP_COUNTERS = 1u << 2,      /* counts host and NAND writes (slc_target_counters()) */
	SLC_TARGET_CAP_NO_IO = 1u << 3,         /* completes commands without doing them (null:) */
	SLC_TARGET_CAP_DESTROYS_DATA = 1u << 4, /* writes what a user may still need (block devices) */
	SLC_TARGET_CAP_IGNORES_DATA = 1u << 6,  /* never looks at what is written (null:, a simulated
						 * drive that does not compress): no fresh data needed */
	SLC_TARGET_CAP_ONE_AT_A_TIME = 1u << 5, /* completes one command per reap, in order (a
						 * modelled device queue): reap batch 1 */
};

/* What the run and the probes need to know of an open target. */
const char *slc_target_spec(const struct slc_target *t);            /* as given */
enum slc_target_kind slc_target_kind(const struct slc_target *t);
unsigned slc_target_caps(const struct slc_target *t);               /* SLC_TARGET_CAP_* */
uint64_t slc_target_capacity(const struct slc_target *t);           /* bytes */
uint32_t slc_target_logical_block(const struct slc_target *t);      /* bytes; 0 when unknown */
uint64_t slc_target_now_ns(struct slc_target *t);                   /* the target's clock */
/* How its I/O completes and is submitted: "irq", "iopoll", "sqpoll" or
 * "iopoll+sqpoll" for the kernel's rings, "" for targets without kernel I/O. */
const char *slc_target_io_mode(const struct slc_target *t);
/** slc_target_discard() - TRIM @len bytes at @offset; 0 or -errno. */
int slc_target_discard(struct slc_target *t, uint64_t offset, uint64_t len);
/**
 * slc_target_discard_stoppable() - as slc_target_discard(), and back within
 * 0.1 s of *@stop becoming non-zero (NULL: never) with -ECANCELED.  On a
 * block device or a file the TRIM runs in a child process, in chunks of at
 * most 1 GiB: a TRIM the drive does not answer blocks its caller in the
 * kernel, where no signal reaches it.  A stopped child is killed; it ends
 * when the chunk in flight completes, holding the device (O_EXCL) until
 * then.  The other kinds (simulated, null) TRIM at once, in one call.
 */
int slc_target_discard_stoppable(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop);
/** slc_target_idle() - do nothing until @until_ns on the target's clock. */
void slc_target_idle(struct slc_target *t, uint64_t until_ns);
/** slc_target_sim() - the simulated drive behind a sim: target, else NULL (borrowed). */
struct slc_sim *slc_target_sim(struct slc_target *t);
/**
 * slc_target_events() - up to @max ground-truth events that happened since
 * the last call, in time order (SLC_TARGET_CAP_EVENTS; the engine drains
 * them during a job).  Return: how many were stored in @ev; 0 when the
 * target reports none.
 */
size_t slc_target_events(struct slc_target *t, struct slc_sim_event *ev, size_t max);
/**
 * slc_target_counters() - host and NAND writes and the temperature now
 * (SLC_TARGET_CAP_COUNTERS).  Return: 0, or -ENOTSUP when the target does
 * not count.
 */
int slc_target_counters(struct slc_target *t, struct slc_sim_counters *c);

/* What the safety checks found, by how far --force reaches (a mask). */
enum {
	SLC_CHECK_FOUND = 1u << 0,    /* partitions, a signature, holders, a loop device over
				       * it, open in another process: written only with force */
	SLC_CHECK_IN_USE = 1u << 1,   /* mounted (itself, a partition, a loop device over it,
				       * or as a FUSE filesystem's source) or swap: never written */
};

/**
 * slc_blockdev_check() - the safety checks for writing block device @path:
 * mounted (a partition too, FUSE filesystems such as fuse2fs included) or
 * used as swap; holders, partitions, a partition table or filesystem
 * signature (libblkid).  Fills @what with what was found.
 *
 * Return: 0 when nothing was found, else SLC_CHECK_FOUND and/or
 * SLC_CHECK_IN_USE (see @what); -errno when the checks could not be made.
 */
int slc_blockdev_check(const char *path, char *what, size_t whatlen);

/**
 * slc_blockdev_check_stoppable() - slc_blockdev_check() in a child process,
 * back within 0.1 s of *@stop becoming non-zero with -ECANCELED (the child,
 * maybe held in the kernel by the drive, is killed and left behind).
 */
int slc_blockdev_check_stoppable(const char *path, char *what, size_t whatlen, const volatile int *stop);

/* slc_file_check() flags */
enum {
	SLC_CHECK_AS_OUTPUT = 1u << 0, /* a trace to replace: an HDF5 file and readers are expected */
};

/**
 * slc_file_check() - the safety checks for writing regular file @path:
 * used as swap, mounted through FUSE (fuse2fs), or backing a loop device
 * that is mounted or swap (SLC_CHECK_IN_USE); backing a loop device, open in
 * another process, or carrying a signature libblkid knows or an HDF5 one
 * (SLC_CHECK_FOUND).  A file slcscope wrote last as a target, unchanged
 * since (an extended attribute user.slcscope.target records its size and
 * modification time), is not checked for signatures: its data is
 * slcscope's.  Fills @what with what was found.
 *
 * Return: 0, a mask as slc_blockdev_check(), or -errno.
 */
int slc_file_check(const char *path, unsigned flags, char *what, size_t whatlen);

/** slc_blockdev_size() - the size of block device @path in bytes, read-only; 0 or -errno with a reason. */
int slc_blockdev_size(const char *path, uint64_t *bytes, char *err, size_t errlen);

/** slc_blockdev_geometry() - as slc_blockdev_size(), and the logical block in bytes (@logical_block may be NULL). */
int slc_blockdev_geometry(const char *path, uint64_t *bytes, uint32_t *logical_block, char *err, size_t errlen);

/* ---- data written ---- */

enum slc_data_kind {
	SLC_DATA_INCOMPRESSIBLE = 0,  /* random, fresh for every write: no 512-byte
				       * sector of a job equals another */
	SLC_DATA_REPEATING,           /* one constant block, over and over */
	SLC_DATA_COMPRESSIBLE,        /* random then zeros, to a target ratio */
};

#define SLC_DATAGEN_LANES 8

struct slc_datagen {
	enum slc_data_kind kind;
	double compress_ratio;        /* for SLC_DATA_COMPRESSIBLE: compressed/original */
	uint64_t lane[SLC_DATAGEN_LANES]; /* xorshift64 states, seeded per job */
};

/** slc_datagen_init() - a generator; @seed makes the data repeatable. */
void slc_datagen_init(struct slc_datagen *g, enum slc_data_kind kind, double ratio, uint64_t seed);

/** slc_datagen_fill() - fill @buf once (the repeating block, compressible zeros) before it is first used. */
void slc_datagen_fill(struct slc_datagen *g, void *buf, size_t len);

/**
 * slc_datagen_next() - fresh data in @buf before each write: the next @len
 * bytes of the job's stream (the random part of each 4 KiB for
 * SLC_DATA_COMPRESSIBLE; nothing for SLC_DATA_REPEATING).  No 512-byte
 * sector repeats within a job; about 10 GB/s on one core (BENCHMARKS.md).
 */
void slc_datagen_next(struct slc_datagen *g, void *buf, size_t len);

/* ---- the engine ---- */

enum slc_job_kind {
	SLC_JOB_SEQ_WRITE = 0,
	SLC_JOB_RAND_WRITE,
	SLC_JOB_RAND_READ,
	SLC_JOB_SEQ_READ,
	SLC_JOB_SEQ_MIXED,            /* sequential; each command a read with read_pct % chance */
	SLC_JOB_RAND_MIXED,           /* the same at random offsets */
};

/** slc_job_kind_sequential() - whether jobs of kind @k walk their range in order. */
int slc_job_kind_sequential(enum slc_job_kind k);

/** slc_job_kind_read_pct() - the share of reads of kind @k: 0, 100, or @mix_pct for the mixes. */
uint32_t slc_job_kind_read_pct(enum slc_job_kind k, uint32_t mix_pct);

struct slc_job {
	enum slc_job_kind kind;
	uint32_t block_bytes;         /* default 128 KiB sequential, 4 KiB random */
	uint32_t queue_depth;         /* per job; default 32; queue_depth x jobs at most 256 */
	uint32_t jobs;                /* writers sharing the target, default 1: sequential
				       * jobs each write their own slice of the range, random
				       * jobs all draw over the whole range */
	uint64_t offset_bytes;        /* region start */
	uint64_t range_bytes;         /* region length; 0 = to the end */
	uint64_t max_bytes;           /* stop after this many bytes (0: no limit) */
	uint64_t max_ns;              /* stop submitting after this long (0: no limit) */
	uint64_t interval_ns;         /* sampling interval; default 1 s */
	uint64_t seed;
	enum slc_data_kind data;
	double compress_ratio;
	uint32_t reap_batch;          /* refill the queue once this many commands have
				       * completed (0: queue depth x jobs / 8, at least 1;
				       * 1: after every completion); io_uring targets */
	uint32_t read_pct;            /* mixed kinds: percent of commands that read (0-100) */
	uint32_t align_bytes;         /* random kinds: offsets on multiples of this (0: the
				       * block size); a multiple of the logical block */
};

/* Progress, called about twice a second of target time with totals so far. */
struct slc_progress {
	uint64_t bytes;               /* done in this job */
	uint64_t elapsed_ns;          /* target clock since the job started */
	double bps;                   /* over the last interval */
};
typedef void (*slc_progress_fn)(void *arg, const struct slc_progress *p);
typedef int (*slc_event_fn)(void *arg, const struct slc_sim_event *ev, uint64_t job_t0_ns);

/* A sample callback returns this to end the job normally (steady state reached). */
#define SLC_ENGINE_DONE 1

/*
 * A stop request (*stop of slc_engine_run()) is any non-zero value, such
 * as the signal that asked for it; with SLC_STOP_NOW set too (a second
 * Ctrl-C) the commands still in flight are abandoned instead of awaited.
 */
#define SLC_STOP_NOW 0x10000
#define SLC_STOP_REASON(v) ((v) & (SLC_STOP_NOW - 1))
/* How long a stopped job waits for a completion before it abandons what is
 * still in flight, unless slc_engine_cb.drain_timeout_ns says otherwise. */
#define SLC_ENGINE_DRAIN_TIMEOUT_NS 5000000000ull

/* A stopped job still waiting for its commands (slc_engine_cb.draining). */
struct slc_drain {
	uint32_t inflight;            /* commands not answered yet */
	uint64_t oldest_ns;           /* how long the oldest of them has been waiting */
	uint64_t oldest_offset;       /* where it goes */
	uint64_t timeout_ns;          /* they are abandoned after this long without a completion */
};

struct slc_engine_cb {
	slc_sample_fn sample;         /* every interval; may return SLC_ENGINE_DONE */
	slc_event_fn event;           /* simulated drive ground truth */
	slc_progress_fn progress;
	void *arg;
	/* read the drive's temperature (0 and *c, or -errno) every
	 * @temperature_every_ns of target time (0: 5 s); the sample that ends
	 * the interval of a reading carries it in temp_c, the others NAN.
	 * Without it the simulated drive reports its model's temperature in
	 * every sample. */
	int (*temperature)(void *arg, double *c);
	uint64_t temperature_every_ns;
	/* told once when a stopped job's commands take over half a second to
	 * come back (on targets with a real clock) */
	void (*draining)(void *arg, const struct slc_drain *d);
	uint64_t drain_timeout_ns;    /* 0: SLC_ENGINE_DRAIN_TIMEOUT_NS */
	/* the host was away (targets with a real clock): stopped from @at_ns
	 * for @paused_ns (no sample covers that time), or suspended for
	 * @paused_ns at @at_ns (the monotonic clock did not run); times on the
	 * target clock, the job's start @job_t0_ns; may return non-zero to stop */
	int (*host_pause)(void *arg, uint64_t at_ns, uint64_t paused_ns, int suspended, uint64_t job_t0_ns);
};

/* Where a job stopped, for the report. */
struct slc_job_result {
	uint64_t bytes;               /* completed successfully */
	uint64_t ios;
	uint64_t elapsed_ns;
	int error;                    /* first I/O error (-errno), 0 if none */
	int done_early;               /* a sample callback returned SLC_ENGINE_DONE */
	uint64_t error_offset;        /* where it happened */
	uint64_t waited_ns;           /* plan TRIM and idle steps: the wait done, less than
				       * the step's when stopped */
	uint32_t abandoned;           /* commands left unanswered after a stop; the target
				       * takes no more I/O then, only slc_target_close() */
	uint64_t host_paused_ns;      /* time the process was stopped (SIGSTOP) during the
				       * job; a time limit is extended by it */
};

/**
 * slc_engine_run() - run @job on @t until its byte or time limit, a stop
 * request (*@stop non-zero: Ctrl-C) or an I/O error.  Samples go to
 * @cb->sample as intervals finish, including the partial last one, so an
 * interrupted job keeps every sample up to the interruption.
 *
 * A stopped job waits for the commands in flight, at most
 * @cb->drain_timeout_ns without a completion, or none at all once
 * SLC_STOP_NOW is set in *@stop; what is still out then is abandoned
 * (@res->abandoned), its buffers kept until the process exits, as the
 * kernel may still use them.
 *
 * Return: 0; -ECANCELED when stopped; -EIO (or the I/O's -errno) on a device
 * error, with @res->error_offset set; -EINVAL for a bad job (reason in @err);
 * or a callback's non-zero return.
 */
int slc_engine_run(struct slc_target *t, const struct slc_job *job, const struct slc_engine_cb *cb,
		   const volatile int *stop, struct slc_job_result *res, char *err, size_t errlen);

/* The reap batch @job runs with on @t: its own, or the default (an eighth
 * of the commands in flight: queue depth x jobs in one loop, queue depth
 * in each writer thread where the jobs have one each), never more than
 * those (larger values are clamped); 1 on targets that complete one at a
 * time (SLC_TARGET_CAP_ONE_AT_A_TIME: the simulated drive). */
uint32_t slc_engine_reap_batch(const struct slc_target *t, const struct slc_job *job);

/* ---- run plans ---- */

enum slc_step_kind {
	SLC_STEP_TRIM = 0,            /* discard the whole target, then wait */
	SLC_STEP_IDLE,                /* do nothing for a while */
	SLC_STEP_JOB,                 /* a write (or read) curve */
	SLC_STEP_DUTY,                /* @rounds x (the job for job.max_ns, then idle wait_ns),
				       * all in one segment (SNIA host idle recovery) */
};

struct slc_step {
	char name[32];                /* "trim", "seq_fill", "rand_curve", "idle", "idle_burst", ... */
	enum slc_step_kind kind;
	enum slc_role role;           /* what the step is for, stored in the trace */
	uint32_t role_arg;            /* the role's argument (slcscope/vocab.h) */
	struct slc_job job;           /* JOB: max_bytes is resolved from @bytes at run time;
				       * TRIM: job.offset_bytes/range_bytes, 0 = whole target */
	struct slc_size bytes;        /* JOB: size limit; TRIM: the range from 0 (0 = all) */
	struct slc_size offset, range;/* JOB: region, resolved at run time when set */
	uint64_t wait_ns;             /* TRIM: wait after it; IDLE: how long */
	uint32_t rounds;              /* DUTY: write/wait rounds */
	int point_state;              /* a step that puts the drive in the state of the sweep
				       * point after it: it goes when that point is left out */
};

/* Room for the largest sweep (bs-sweep: 46 points) with a TRIM, a write of
 * the region and a settle before each point: a plan is about 52 KiB (the
 * command line keeps it static; on a thread's stack, mind its size). */
#define SLC_PLAN_MAX_STEPS 256

/* The sampling interval's range (--interval): 10 ms to 1 h. */
#define SLC_PLAN_MIN_INTERVAL_NS 10000000ull
#define SLC_PLAN_MAX_INTERVAL_NS 3600000000000ull

struct slc_plan {
	char name[16];
	size_t n;
	int overflow;                 /* a builder added more than SLC_PLAN_MAX_STEPS */
	struct slc_step step[SLC_PLAN_MAX_STEPS];
};

/* The state each sweep point starts from (slc_plan_opts.sweep_state). */
enum slc_sweep_state {
	SLC_SWEEP_STATE_TRIM = 0,     /* before every point: TRIM everything, write the test
				       * region, idle settle_ns (the reviews' clean drive) */
	SLC_SWEEP_STATE_STEADY,       /* TRIM, write the whole target steady_bytes
				       * sequentially once, then the points back to back */
	SLC_SWEEP_STATE_NONE,         /* the builders' TRIM and region write per group, then
				       * the points back to back: each inherits the last's state */
};

/* slc_plan_opts.settle_ns: as long as the TRIM wait.  The reviews pause
 * 15 minutes between whole tests; within one test the points follow each
 * other, and what a point's settle must let the drive fold is the region
 * just written (1 GiB: about 30 s on the cheap SATA drive of the reviews,
 * which empties its 2.3 GB cache in about a minute). */
#define SLC_PLAN_SETTLE_TRIM_WAIT UINT64_MAX

/* What the plans are made of; slc_plan_opts_default() gives the lab's values. */
struct slc_plan_opts {
	struct slc_size seq_bytes;    /* sequential fill: 1x */
	uint32_t seq_block_bytes;     /* 128 KiB */
	uint32_t rand_block_bytes;    /* 4 KiB */
	uint32_t queue_depth;         /* 32, per job */
	uint32_t jobs;                /* 1 */
	uint32_t reap_batch;          /* 0: the engine's default (queue depth / 8) */
	uint64_t rand_ns;             /* random curve: 2 h */
	struct slc_size rand_bytes;   /* ... or this many bytes (0: time only) */
	uint64_t idle_ns;             /* idle before the recovery burst: 15 min */
	uint64_t burst_ns;            /* each recovery burst: 60 s */
	uint64_t trim_wait_ns;        /* wait after each TRIM: 30 s */
	uint64_t interval_ns;         /* sampling: 1 s */
	uint64_t seed;
	struct slc_size trim_bytes;   /* trim-response plan: the range deleted (32 GB, at most 1/4 of the target) */
	uint64_t read_ns;             /* trim-response plan: random reads after it (30 s) */
	uint32_t hir_rounds;          /* hir plan: write/wait rounds per wait state (360) */
	uint64_t idle_sweep_ns[12];   /* idle-sweep plan: the waits, shortest first */
	size_t n_idle_sweep;          /* 5 s, 15 s, 30 s, 1 min, 2 min, 5 min, 15 min */
	uint64_t step_ns;             /* sweep plans: each point's length (30 s) */
	struct slc_size region;       /* sweep plans: the test region from offset 0 (1 GiB) */
	enum slc_sweep_state sweep_state; /* sweep plans: each point's start (TRIM) */
	uint64_t settle_ns;           /* sweep state TRIM: idle before each point
				       * (SLC_PLAN_SETTLE_TRIM_WAIT: trim_wait_ns) */
	struct slc_size steady_bytes; /* sweep state STEADY: sequential preconditioning (2x) */
	struct slc_size point_bytes;  /* sweep states TRIM, STEADY: a point that writes ends
				       * after this much, or at step_ns (1 GiB; 0: time only) */
};

/** slc_plan_opts_default() - the lab methodology's values. */
void slc_plan_opts_default(struct slc_plan_opts *o);

/**
 * slc_plan_opts_set() - set the plan option @name ("qd" or "q", "step-time",
 * "--sweep-state", ... as 'slcscope run --help' lists them) from @arg.
 * Return: 0; -EINVAL with the reason in @err naming the option; -ENOENT
 * when @name is not a plan option.
 */
int slc_plan_opts_set(struct slc_plan_opts *o, const char *name, const char *arg, char *err, size_t errlen);

/** slc_plan_opt_name() - the @i-th plan option's long name and its letter (0: none); NULL past the last. */
const char *slc_plan_opt_name(size_t i, char *short_name);

/** slc_plan_opts_help() - the plan options' --help lines. */
void slc_plan_opts_help(FILE *f);

/**
 * slc_plan_opts_idle_list() - the idle-sweep waits from @list, as in
 * "5s,15s,1m": 1 to 7 waits of at least 1 s, increasing.
 * Return: 0, or -EINVAL with the reason in @err (naming --idle-list).
 */
int slc_plan_opts_idle_list(struct slc_plan_opts *o, const char *list, char *err, size_t errlen);

/* A plan's steps from the options (session/exp/: one module per plan). */
typedef int (*slc_plan_builder)(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen);

/**
 * slc_plan_make() - make plan @name with @build: the options' ranges
 * checked first, then the steps built, then every job step checked to end
 * (a size or a time).  The plans slcscope knows are built by name with
 * slc_plan_build() (slcscope/session.h); this is for a program's own.
 * Return: 0, or -EINVAL/-ERANGE/-E2BIG with the reason in @err (naming
 * the option).
 */
int slc_plan_make(struct slc_plan *p, const char *name, slc_plan_builder build, const struct slc_plan_opts *o,
		  char *err, size_t errlen);

/*
 * The steps plans are made of, appended to @p (past SLC_PLAN_MAX_STEPS the
 * plan fails in slc_plan_make()).  Each returns the new step to adjust.
 *   _step   any step, zeroed but for its name, kind and role
 *   _trim   a TRIM of the whole target, then the TRIM wait
 *   _job    a write or read job with the options' block size, queue
 *           depth, jobs and interval, limited by @max_ns and/or @bytes
 *   _point  a sweep point (SLC_ROLE_SWEEP, group @group): @o->step_ns over
 *           @o->region, random offsets 4 KiB-aligned
 *   _prep   the sweep region written sequentially once, so reads find data
 */
struct slc_step *slc_plan_add_step(struct slc_plan *p, const char *name, enum slc_step_kind kind,
				   enum slc_role role, uint32_t role_arg);
struct slc_step *slc_plan_add_trim(struct slc_plan *p, const char *name, const struct slc_plan_opts *o);
struct slc_step *slc_plan_add_job(struct slc_plan *p, const char *name, enum slc_role role, uint32_t role_arg,
				  enum slc_job_kind kind, const struct slc_plan_opts *o, uint64_t max_ns,
				  struct slc_size bytes);
struct slc_step *slc_plan_add_point(struct slc_plan *p, const char *name, uint32_t group, enum slc_job_kind kind,
				    uint32_t block, uint32_t qd, uint32_t jobs, uint32_t read_pct,
				    const struct slc_plan_opts *o);
struct slc_step *slc_plan_add_prep(struct slc_plan *p, const char *name, const struct slc_plan_opts *o);

/**
 * slc_plan_set_point_state() - give every sweep point of @p (role
 * SLC_ROLE_SWEEP) the start @o->sweep_state asks for, as steps before it
 * that the trace keeps as segments:
 *   SLC_SWEEP_STATE_TRIM  before each point a TRIM of everything (and the
 *          TRIM wait), the test region written (SLC_ROLE_SWEEP_PREP), an idle
 *          of @o->settle_ns (SLC_ROLE_SETTLE, argument 0; none when 0): every point
 *          starts on a clean drive with its cache emptied, as the reviews
 *          test; these steps are marked point_state
 *   SLC_SWEEP_STATE_STEADY  once, before the first point: a TRIM, then the
 *          whole target written sequentially (128 KiB, QD32) for
 *          @o->steady_bytes (SLC_ROLE_PRECONDITION; SNIA PTS's
 *          workload-independent preconditioning, without its convergence
 *          test); the points back to back from there
 *   SLC_SWEEP_STATE_NONE  @p as built
 * In the first two, a point that writes also ends once it has moved
 * @o->point_bytes (when not 0), before its step time: a fixed volume, as
 * CrystalDiskMark's 1 GiB test, so that a deeper queue or a larger block
 * does not write past the cache for longer than a slower point would.
 * The builders' own TRIMs and region writes give way to these in the first
 * two.  A plan without sweep points is left alone.  slc_plan_make() calls it.
 * Return: 0, or -EINVAL (the steps do not fit SLC_PLAN_MAX_STEPS, an
 * unknown state, a STEADY preconditioning of no bytes; reason in @err).
 */
int slc_plan_set_point_state(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen);

/**
 * slc_plan_keep_points() - keep of @p's sweep points only those named in
 * @list (comma-separated step names, as 'run -n' lists them); its other
 * steps (the preparation, the TRIMs) stay, but for the state steps of the
 * points left out (point_state).  To rerun or cross-check one
 * point without the whole sweep.
 * Return: 0, or -EINVAL (a plan without sweep points, a name it lacks;
 * the reason in @err).
 */
int slc_plan_keep_points(struct slc_plan *p, const char *list, char *err, size_t errlen);

/**
 * slc_plan_fit_block() - leave out of @p the sweep points whose block size
 * is no multiple of the target's @logical_block (0: 512): a 4Kn drive or a
 * file read with O_DIRECT takes no 512-byte I/O, and the rest of the sweep
 * still measures (their state steps go with them).  Writes what was left
 * out to @note ("" when nothing).
 *
 * Return: how many points were left out.
 */
size_t slc_plan_fit_block(struct slc_plan *p, uint32_t logical_block, char *note, size_t notelen);

/**
 * slc_plan_fit_spec() - slc_plan_fit_block() for the target @spec names,
 * without opening it for writing: a block device's logical block read
 * read-only, a file's O_DIRECT unit of 4 KiB (whether it exists yet or
 * not).  For the paths that open no target (a dry run of a block device or
 * of a new file, an fio job file), so that they list what a run would do.
 * Simulated and null targets are left as they are (they are fitted when
 * they open), and so is a device that cannot be read (its path's own error
 * says why).
 *
 * Return: how many points were left out.
 */
size_t slc_plan_fit_spec(struct slc_plan *p, const char *spec, char *note, size_t notelen);

/**
 * slc_plan_validate() - check every step of @p against a target of
 * @capacity bytes in @logical_block units (0: 512) without touching it:
 * sizes, ranges and blocks that fit, the engine's limits.  slc_plan_run()
 * calls it before the first step; a caller calls it earlier, before
 * anything else is destroyed (a purge).
 *
 * Return: 0, or -EINVAL with the step and the reason in @err.
 */
int slc_plan_validate(const struct slc_plan *p, uint64_t capacity, uint32_t logical_block, char *err, size_t errlen);

/**
 * slc_plan_step_job() - the job step @i of @p runs on a target of
 * @capacity bytes: its size and region resolved as slc_plan_run() resolves
 * them (the region on whole blocks); other steps get their job as built.
 * Return: 0, or -EINVAL with the reason in @err.
 */
int slc_plan_step_job(const struct slc_plan *p, size_t i, uint64_t capacity, struct slc_job *job,
		      char *err, size_t errlen);

/* Hooks the plan runner calls; all optional. */
struct slc_plan_hooks {
	void (*step_begin)(void *arg, size_t i, const struct slc_plan *p, uint64_t limit_bytes);
	/* every sample of a job step after the trace has it; SLC_ENGINE_DONE ends the step */
	int (*sample)(void *arg, size_t i, const struct slc_plan *p, const struct slc_sample *s);
	void (*progress)(void *arg, size_t i, const struct slc_plan *p, const struct slc_progress *pr);
	void (*step_end)(void *arg, size_t i, const struct slc_plan *p, const struct slc_job_result *r);
	void *arg;
	/* after the step's trace segment is open, before any I/O (snapshots) */
	void (*segment_open)(void *arg, size_t i, const struct slc_plan *p);
	/* before the step's trace segment closes, after its I/O */
	void (*segment_close)(void *arg, size_t i, const struct slc_plan *p);
	/* the drive's temperature, as in struct slc_engine_cb */
	int (*temperature)(void *arg, double *c);
	uint64_t temperature_every_ns;
	/* a stopped step's commands are slow to come back, as in struct slc_engine_cb */
	void (*draining)(void *arg, size_t i, const struct slc_plan *p, const struct slc_drain *d);
	uint64_t drain_timeout_ns;
	/* the host was away for @paused_s (stopped, or @suspended), after the
	 * trace has its host_pause event */
	void (*host_pause)(void *arg, size_t i, const struct slc_plan *p, double paused_s, int suspended);
};

/**
 * slc_plan_run() - run every step of @p on @t, one trace segment per step
 * in @trace (may be NULL), the simulated drive's events included.
 * Steps 0..@first-1 are skipped.
 *
 * Return: 0; -ECANCELED when *@stop was set (the trace holds everything up
 * to the interruption); an I/O error (-errno, @res says where); or another
 * -errno with a reason in @err.  @failed_step says which step stopped.
 */
int slc_plan_run(const struct slc_plan *p, struct slc_target *t, struct slc_trace *trace,
		 const struct slc_plan_hooks *hooks, const volatile int *stop,
		 struct slc_job_result *res, size_t *failed_step, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
