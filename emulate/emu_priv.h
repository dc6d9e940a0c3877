/* SPDX-License-Identifier: MIT */
/*
 * Inside the emulator library: the server's state and what its files share.
 * emulate.c sets the server up and tears it down, fuse_ops.c answers the
 * kernel's requests, replies.c sends their replies when real time reaches
 * the model's completion, stats.c keeps the events and makes stats.json and
 * the summaries, scale.c shrinks models, daemon.c runs the server in the
 * background.
 */
#ifndef SLCSCOPE_EMU_PRIV_H
#define SLCSCOPE_EMU_PRIV_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "slcscope/emu_stats.h"
#include "slcscope/emulate.h"
#include "slcscope/sim.h"

struct pending {
	uint64_t due_ns;                /* CLOCK_MONOTONIC */
	fuse_req_t req;
	char *buf;                      /* read data (freed after the reply), or NULL */
	size_t count;                   /* bytes written or read */
	int kind;                       /* P_ERR, P_WRITE, P_READ */
	int err;
};
enum { P_ERR = 0, P_WRITE, P_READ };

struct last_event {
	struct slc_sim_event ev;
	double real_s;
};

struct slc_emu {
	struct slc_emu_opts o;
	struct slc_sim_model m;
	struct slc_sim *sim;
	struct fuse_session *se;
	int mounted;
	int store_fd;
	char store_path[4096];
	int punch_ok;
	int dir_created;
	int pidfile_written;
	uint64_t t0;                    /* real time of model time 0 */
	time_t start_wall;
	uid_t uid;
	gid_t gid;

	pthread_mutex_t mu;             /* the model and everything below */
	uint64_t last_v;
	uint64_t cmds, write_cmds, read_cmds, trim_cmds;
	uint64_t written, read_bytes, trimmed_bytes;   /* as the host sent them */
	uint64_t injected_errors, spikes;
	uint64_t late, max_late_ns;
	uint64_t in_flight, in_flight_max;   /* commands in the model, not yet answered */
	uint64_t opens_direct, opens_buffered;
	int warned_buffered, warned_store;
	int vanished;
	int async_dio;
	unsigned max_background;
	uint64_t ev_count[SLC_SIM_EV__COUNT];
	struct last_event last[SLC_EMU_STATS_LAST_EVENTS];
	size_t n_last;

	/* replies waiting for their time */
	pthread_mutex_t qmu;
	pthread_cond_t qcond;
	struct pending *heap;
	size_t qn, qcap;
	int qstop;
	pthread_t timer;
	int timer_started;
};

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Model time of a real instant; never goes backwards.  Under e->mu. */
static inline uint64_t vnow(struct slc_emu *e, uint64_t real)
{
	uint64_t v = real > e->t0 ? (uint64_t)((double)(real - e->t0) * e->o.time_scale) : 0;

	if (v < e->last_v)
		v = e->last_v;
	e->last_v = v;
	return v;
}

/* Real time of a model instant. */
static inline uint64_t real_of(const struct slc_emu *e, uint64_t v)
{
	return e->t0 + (uint64_t)((double)v / e->o.time_scale);
}

/* fuse_ops.c: the session's operations (user data: the struct slc_emu). */
extern const struct fuse_lowlevel_ops slc__emu_fuse_ops;

/* replies.c: queue a reply for p.due_ns, or send it now when that has passed. */
void slc__emu_schedule(struct slc_emu *e, struct pending p);
/* replies.c: the thread that sends queued replies; stopping it sends what is left at once. */
int slc__emu_timer_start(struct slc_emu *e);
void slc__emu_timer_stop(struct slc_emu *e);

/* stats.c: count the model's new events, keep the last ones, print them (unless quiet).  Under e->mu. */
void slc__emu_drain_events(struct slc_emu *e);
/* stats.c: stats.json as it is now (the model idles up to now first); free(), NULL: out of memory. */
char *slc__emu_snapshot_json(struct slc_emu *e);

#endif
