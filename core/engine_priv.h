/* SPDX-License-Identifier: MIT */
/*
 * Inside the engine: one loop's state (engine.c) and the writer threads
 * that run one loop each when a step has several jobs (engine_jobs.c).
 */
#ifndef SLCSCOPE_ENGINE_PRIV_H
#define SLCSCOPE_ENGINE_PRIV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"

/* random offsets drawn ahead, refilled half a ring at a time (engine.c) */
#define AHEAD 32u
#define MAX_QD 256u

struct slc_jobs;

struct run {
	struct slc_target *t;
	const struct slc_engine_cb *cb;
	struct slc_jobs *jobs;        /* several writer threads: their CPU is read from there */
	uint64_t t0;
	uint64_t last_bytes;
	double next_temp_s;           /* real targets: next temperature reading */
	int cpu_on;                   /* real clock: the writer's CPU is measured */
	int sched_fd;                 /* this thread's schedstat, -1 without one */
	uint64_t cpu_prev, wait_prev, wall_prev; /* at the last reading: thread CPU, run-queue wait, monotonic */
	double cpu_share, wait_share; /* the last reading's shares of the time */
};

/* One job's loop: the commands, their buffers, where the next ones go. */
struct loop {
	struct slc_target *t;
	struct slc_job j;
	struct run r;
	struct slc_job_result *res;
	const volatile int *stop;
	struct slc_sampler smp;
	struct slc_datagen gen;
	struct slc_io ios[MAX_QD], *done[MAX_QD];
	void *bufs[MAX_QD];
	uint8_t busy[MAX_QD];         /* slot in flight */
	uint32_t free_slots[MAX_QD], nfree, inflight;
	uint64_t ahead[AHEAD];        /* random jobs: the next offsets, hinted already */
	uint32_t ah;
	uint64_t nblk, submitted, rng, deadline, last;
	uint64_t nslots;              /* random jobs: offsets to draw from, align_bytes apart */
	uint64_t mix_rng;             /* mixed jobs: which commands read */
	uint32_t mix_cut;             /* a command reads when the draw's top 32 bits are below */
	uint64_t pos[64], slice;      /* sequential jobs: position in each job's slice */
	uint32_t qd, batch, next_job;
	int rc, submitting, reads;
	int seq;                      /* a sequential kind: looked up once, not per command */
	int ignores_data;            /* the target never looks at the payload: no fresh data */
	int draining, told, abandoned; /* after a stop: see drain_stopped() */
	int watch;                    /* real clock: host pauses are looked for (hostpause.c) */
	struct slc_host_watch hw;
	uint64_t pass_ns;             /* the loop's last wait began: the process ran then */
	uint64_t drain_t0, drain_last; /* its start, its last completion (monotonic) */
	/* one of several writer threads (engine_jobs.c): its completions go to
	 * @bin, the counts of sample interval @bin_k, not to @smp */
	struct slc_jobs *jobs;
	unsigned id;
	atomic_int *halt;             /* set: the others failed, or the callback said stop */
	atomic_int *stop_copy;        /* the caller's *stop as its thread last saw it (for @stop) */
	_Atomic uint64_t *later;      /* the time limit moved on by this (the host was stopped) */
	struct slc_sampler_acc *bin;
	uint64_t bin_k, bin_edge, bin_tmax;
	int bin_marked;               /* a tenth of its interval is over: said so */
};

/* engine.c, for the writer threads */
void slc__engine_prepare(struct loop *l);
int slc__engine_buffers(struct loop *l, char *err, size_t errlen);
void slc__engine_offsets(struct loop *l);
void slc__engine_loop(struct loop *l, char *err, size_t errlen);
void slc__engine_reap_rest(struct loop *l);
void slc__engine_release(struct loop *l);
int slc__engine_on_interval(void *arg, const struct slc_sample *smp);
uint64_t slc__engine_thread_wait_ns(int fd);
/* @wait_share held to what the interval leaves beside @cpu_share: the
 * kernel adds a thread's wait for a CPU to schedstat only when the thread
 * next runs, so one reading can hold waits of earlier intervals. */
double slc__engine_wait_cap(double wait_share, double cpu_share);

/* A thread's CPU time over a wall span, held to one core: the thread's
 * clock and the wall clock are read a few microseconds apart, so a busy
 * thread over a short span can read a little over 1. NAN stays NAN. */
double slc__engine_cpu_cap(double cpu_share);

/* engine_jobs.c */
int slc__jobs_run(struct loop *l, char *err, size_t errlen);
/* A writer thread's completion, into its interval's counts. */
void slc__jobs_add(struct loop *l, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns, int is_read);
/* The busiest writer thread's CPU and run-queue wait since the last reading. */
void slc__jobs_cpu(struct slc_jobs *js, double interval_s, double *cpu, double *wait);
/* Calls to the caller's callbacks from a writer thread take turns with the sampler's. */
void slc__jobs_cb_lock(struct slc_jobs *js, int lock);

#endif
