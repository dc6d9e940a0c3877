// SPDX-License-Identifier: MIT
/*
 * slcscope emulate: the simulated drive as a file served through FUSE.
 *
 * DIR (the mount point) holds drive.img, the drive, and stats.json, its
 * counters.  Every read, write and fallocate of drive.img goes through the
 * model under one lock: the request's arrival, in real time, becomes a
 * submission in model time (real elapsed x time scale), the model answers
 * with a completion in model time, and the reply is sent when real time
 * reaches it (completion / time scale).  Replies wait in a heap served by
 * one timer thread, so any number of requests can be in flight without
 * holding a FUSE worker each.  The data goes to a sparse store file before
 * the reply is queued, so a read after a completed write sees it; TRIM
 * (fallocate PUNCH_HOLE or ZERO_RANGE, which is what the loop driver sends
 * for discards and write-zeroes) reaches the model and punches the store.
 *
 * drive.img is opened with FOPEN_DIRECT_IO: the kernel never caches it, so
 * every block I/O of a loop device attached with --direct-io=on reaches the
 * model as it is issued, and async direct I/O (FUSE_CAP_ASYNC_DIO) keeps
 * several of them in flight (max_background is raised from the kernel's 12
 * so that a queue depth of 32 or more gets through).
 */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <inttypes.h>
#include <jansson.h>
#include <linux/falloc.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "emulate.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

enum { INO_ROOT = FUSE_ROOT_ID, INO_IMG, INO_STATS };

#define IMG_NAME "drive.img"
#define STATS_NAME "stats.json"
#define LAST_EVENTS 32
#define LATE_NS 1000000ull          /* a reply more than 1 ms after its model time is late */

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

struct emu {
	struct emu_opts o;
	struct slc_sim_model m;
	struct slc_sim *sim;
	struct fuse_session *se;
	int mounted;
	int store_fd;
	char store_path[4096];
	int punch_ok;
	int dir_created;
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
	struct last_event last[LAST_EVENTS];
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

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- model scaling ---- */

int emu_scale_model(struct slc_sim_model *m, double s, char *err, size_t errlen)
{
	uint64_t grain = m->unit_bytes > 1048576 ? m->unit_bytes : 1048576, blocks;
	double spare;

	if (!(s > 0) || s > 1)
		return slc_errf(err, errlen, -EINVAL, "size scale must be above 0 and at most 1");
	if (s == 1)
		return 0;
	spare = (double)m->raw_bytes / (double)m->capacity_bytes;
	m->capacity_bytes = (uint64_t)((double)m->capacity_bytes * s) / grain * grain;
	if (m->capacity_bytes < grain)
		return slc_errf(err, errlen, -EINVAL, "size scale %g leaves less than %" PRIu64 " bytes", s, grain);
	/* the flash keeps the same share of spare, in whole erase blocks */
	blocks = (uint64_t)ceil((double)m->capacity_bytes * spare / (double)m->block_bytes);
	m->raw_bytes = blocks * m->block_bytes;
	m->slc_static_bytes = (uint64_t)((double)m->slc_static_bytes * s) / m->unit_bytes * m->unit_bytes;
	m->slc_dynamic_max_bytes = (uint64_t)((double)m->slc_dynamic_max_bytes * s);
	m->slc_fast_tier_bytes = (uint64_t)((double)m->slc_fast_tier_bytes * s);
	m->idle_gc_target_bytes = (uint64_t)((double)m->idle_gc_target_bytes * s);
	if (m->map_cache_entries) {
		m->map_cache_entries = (uint64_t)((double)m->map_cache_entries * s);
		if (m->map_cache_entries < 1024)
			m->map_cache_entries = 1024;
	}
	if (blocks < 16)
		return slc_errf(err, errlen, -EINVAL, "size scale %g leaves %" PRIu64 " erase blocks of %" PRIu64
			    " bytes; the model needs at least 16 (use a larger scale)", s, blocks, m->block_bytes);
	return 0;
}

/* ---- time ---- */

/* Model time of a real instant; never goes backwards.  Under e->mu. */
static uint64_t vnow(struct emu *e, uint64_t real)
{
	uint64_t v = real > e->t0 ? (uint64_t)((double)(real - e->t0) * e->o.time_scale) : 0;

	if (v < e->last_v)
		v = e->last_v;
	e->last_v = v;
	return v;
}

static uint64_t real_of(const struct emu *e, uint64_t v)
{
	return e->t0 + (uint64_t)((double)v / e->o.time_scale);
}

/* ---- replies at their time ---- */

static void send_reply(struct emu *e, struct pending *p, uint64_t now)
{
	__atomic_fetch_sub(&e->in_flight, 1, __ATOMIC_RELAXED);
	if (now > p->due_ns + LATE_NS) {
		uint64_t late = now - p->due_ns;
		pthread_mutex_lock(&e->mu);
		e->late++;
		if (late > e->max_late_ns)
			e->max_late_ns = late;
		pthread_mutex_unlock(&e->mu);
	}
	switch (p->kind) {
	case P_WRITE: fuse_reply_write(p->req, p->count); break;
	case P_READ: fuse_reply_buf(p->req, p->buf, p->count); break;
	default: fuse_reply_err(p->req, p->err); break;
	}
	free(p->buf);
}

static void heap_swap(struct pending *a, struct pending *b)
{
	struct pending t = *a;
	*a = *b;
	*b = t;
}

/* Queue a reply for p->due_ns, or send it now when that has passed. */
static void schedule(struct emu *e, struct pending p)
{
	uint64_t now = mono_ns();
	size_t i;

	if (p.due_ns <= now) {
		send_reply(e, &p, now);
		return;
	}
	pthread_mutex_lock(&e->qmu);
	if (e->qn == e->qcap) {
		size_t cap = e->qcap ? e->qcap * 2 : 256;
		struct pending *h = realloc(e->heap, cap * sizeof(*h));
		if (!h) {
			pthread_mutex_unlock(&e->qmu);
			send_reply(e, &p, now);    /* early rather than never */
			return;
		}
		e->heap = h;
		e->qcap = cap;
	}
	i = e->qn++;
	e->heap[i] = p;
	while (i > 0 && e->heap[(i - 1) / 2].due_ns > e->heap[i].due_ns) {
		heap_swap(&e->heap[(i - 1) / 2], &e->heap[i]);
		i = (i - 1) / 2;
	}
	if (i == 0)
		pthread_cond_signal(&e->qcond);
	pthread_mutex_unlock(&e->qmu);
}

static struct pending heap_pop(struct emu *e)
{
	struct pending top = e->heap[0];
	size_t i = 0;

	e->heap[0] = e->heap[--e->qn];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < e->qn && e->heap[l].due_ns < e->heap[m].due_ns) m = l;
		if (r < e->qn && e->heap[r].due_ns < e->heap[m].due_ns) m = r;
		if (m == i) break;
		heap_swap(&e->heap[m], &e->heap[i]);
		i = m;
	}
	return top;
}

static void *timer_main(void *arg)
{
	struct emu *e = arg;

	pthread_mutex_lock(&e->qmu);
	for (;;) {
		uint64_t now;
		if (!e->qn) {
			if (e->qstop)
				break;
			pthread_cond_wait(&e->qcond, &e->qmu);
			continue;
		}
		now = mono_ns();
		if (e->heap[0].due_ns <= now || e->qstop) {
			struct pending p = heap_pop(e);
			pthread_mutex_unlock(&e->qmu);
			send_reply(e, &p, e->qstop ? p.due_ns : now);
			pthread_mutex_lock(&e->qmu);
		} else {
			struct timespec ts = { (time_t)(e->heap[0].due_ns / 1000000000ull),
					       (long)(e->heap[0].due_ns % 1000000000ull) };
			pthread_cond_timedwait(&e->qcond, &e->qmu, &ts);
		}
	}
	pthread_mutex_unlock(&e->qmu);
	return NULL;
}

/* ---- events and faults (under e->mu) ---- */

static void drain_events(struct emu *e)
{
	struct slc_sim_event ev[16];
	size_t n;

	while ((n = slc_sim_events(e->sim, ev, 16)) > 0) {
		for (size_t i = 0; i < n; i++) {
			struct last_event *l;
			double real_s = (double)(real_of(e, ev[i].t_ns) - e->t0) * 1e-9;

			if ((unsigned)ev[i].kind < SLC_SIM_EV__COUNT)
				e->ev_count[ev[i].kind]++;
			if (e->n_last == LAST_EVENTS) {
				memmove(e->last, e->last + 1, sizeof(e->last[0]) * (LAST_EVENTS - 1));
				e->n_last--;
			}
			l = &e->last[e->n_last++];
			l->ev = ev[i];
			l->real_s = real_s;
			if (!e->o.quiet && ev[i].kind != SLC_SIM_EV_CACHE_CAPACITY) {
				char b[32], v[32] = "";
				if (ev[i].kind == SLC_SIM_EV_TRIM)
					slc_format_bytes(v, sizeof(v), ev[i].value, SLC_UNITS_DECIMAL);
				fprintf(stderr, "slcscope emulate: %9.3f s  %-20s model %.3f s, %s written since the last TRIM%s%s\n",
					real_s, slc_sim_event_name(ev[i].kind), (double)ev[i].t_ns * 1e-9,
					slc_format_bytes(b, sizeof(b), (double)ev[i].host_bytes, SLC_UNITS_DECIMAL),
					v[0] ? ", trimmed " : "", v);
			}
		}
	}
}

static int hits_fail_at(const struct emu *e, uint64_t off, uint64_t len)
{
	for (size_t i = 0; i < e->o.n_fail_at; i++)
		if (e->o.fail_at[i] >= off && e->o.fail_at[i] < off + len)
			return 1;
	return 0;
}

/* A command goes into the model; its reply (or error) takes it out. Under e->mu. */
static void enter(struct emu *e)
{
	uint64_t n = __atomic_add_fetch(&e->in_flight, 1, __ATOMIC_RELAXED);

	if (n > e->in_flight_max)
		e->in_flight_max = n;
}

static void leave_err(struct emu *e, fuse_req_t req, int err)
{
	__atomic_fetch_sub(&e->in_flight, 1, __ATOMIC_RELAXED);
	fuse_reply_err(req, err);
}

static uint64_t spike(struct emu *e)
{
	if (e->o.spike_every && e->cmds % e->o.spike_every == 0) {
		e->spikes++;
		return e->o.spike_ns;
	}
	return 0;
}

/* ---- stats.json ---- */

static char *stats_json(struct emu *e)
{
	struct slc_sim_counters c;
	json_t *root, *ev, *last, *faults, *model;
	uint64_t now = mono_ns(), v;
	char *s;

	pthread_mutex_lock(&e->mu);
	v = vnow(e, now);
	if (!e->vanished)
		slc_sim_idle(e->sim, v);        /* background work up to now */
	drain_events(e);
	slc_sim_get_counters(e->sim, &c);
	root = json_object();
	model = json_object();
	json_object_set_new(model, "name", json_string(e->m.name));
	json_object_set_new(model, "capacity_bytes", json_integer((json_int_t)e->m.capacity_bytes));
	json_object_set_new(model, "raw_bytes", json_integer((json_int_t)e->m.raw_bytes));
	json_object_set_new(model, "slc_static_bytes", json_integer((json_int_t)e->m.slc_static_bytes));
	json_object_set_new(model, "slc_dynamic_max_bytes", json_integer((json_int_t)e->m.slc_dynamic_max_bytes));
	if (e->m.thermal_enabled)
		json_object_set_new(model, "throttle_c", json_real(e->m.throttle_c));
	json_object_set_new(model, "time_scale", json_real(e->o.time_scale));
	json_object_set_new(model, "size_scale", json_real(e->o.size_scale));
	json_object_set_new(root, "schema", json_string("slcscope.emulate-stats/1"));
	json_object_set_new(root, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(root, "model", model);
	json_object_set_new(root, "uptime_s", json_real((double)(now - e->t0) * 1e-9));
	json_object_set_new(root, "model_time_s", json_real((double)v * 1e-9));
	json_object_set_new(root, "commands", json_integer((json_int_t)e->cmds));
	json_object_set_new(root, "write_commands", json_integer((json_int_t)e->write_cmds));
	json_object_set_new(root, "read_commands", json_integer((json_int_t)e->read_cmds));
	json_object_set_new(root, "trim_commands", json_integer((json_int_t)e->trim_cmds));
	json_object_set_new(root, "host_write_bytes", json_integer((json_int_t)c.host_write_bytes));
	json_object_set_new(root, "host_read_bytes", json_integer((json_int_t)c.host_read_bytes));
	json_object_set_new(root, "host_trim_bytes", json_integer((json_int_t)c.host_trim_bytes));
	json_object_set_new(root, "nand_write_bytes", json_integer((json_int_t)c.nand_write_bytes));
	json_object_set_new(root, "slc_write_bytes", json_integer((json_int_t)c.slc_write_bytes));
	json_object_set_new(root, "gc_copy_bytes", json_integer((json_int_t)c.gc_copy_bytes));
	json_object_set_new(root, "fold_bytes", json_integer((json_int_t)c.fold_bytes));
	json_object_set_new(root, "erases", json_integer((json_int_t)c.erases));
	json_object_set_new(root, "map_flushes", json_integer((json_int_t)c.map_flushes));
	json_object_set_new(root, "write_amplification",
			    c.host_write_bytes ? json_real((double)c.nand_write_bytes / (double)c.host_write_bytes) : json_null());
	json_object_set_new(root, "cache_free_bytes", json_integer((json_int_t)slc_sim_cache_free_bytes(e->sim)));
	json_object_set_new(root, "temp_c", isnan(c.temp_c) ? json_null() : json_real(c.temp_c));
	ev = json_object();
	for (int k = 0; k < SLC_SIM_EV__COUNT; k++)
		json_object_set_new(ev, slc_sim_event_name((enum slc_sim_event_kind)k), json_integer((json_int_t)e->ev_count[k]));
	json_object_set_new(root, "events", ev);
	last = json_array();
	for (size_t i = 0; i < e->n_last; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "event", json_string(slc_sim_event_name(e->last[i].ev.kind)));
		json_object_set_new(o, "t_s", json_real(e->last[i].real_s));
		json_object_set_new(o, "model_t_s", json_real((double)e->last[i].ev.t_ns * 1e-9));
		json_object_set_new(o, "host_bytes", json_integer((json_int_t)e->last[i].ev.host_bytes));
		json_object_set_new(o, "value", json_real(e->last[i].ev.value));
		json_array_append_new(last, o);
	}
	json_object_set_new(root, "last_events", last);
	faults = json_object();
	json_object_set_new(faults, "injected_errors", json_integer((json_int_t)e->injected_errors));
	json_object_set_new(faults, "spikes", json_integer((json_int_t)e->spikes));
	json_object_set_new(faults, "vanished", json_boolean(e->vanished));
	json_object_set_new(root, "faults", faults);
	json_object_set_new(root, "late_replies", json_integer((json_int_t)e->late));
	json_object_set_new(root, "max_late_ms", json_real((double)e->max_late_ns * 1e-6));
	json_object_set_new(root, "opens_direct", json_integer((json_int_t)e->opens_direct));
	json_object_set_new(root, "opens_buffered", json_integer((json_int_t)e->opens_buffered));
	json_object_set_new(root, "async_dio", json_boolean(e->async_dio));
	json_object_set_new(root, "max_background", json_integer((json_int_t)e->max_background));
	json_object_set_new(root, "in_flight_max", json_integer((json_int_t)e->in_flight_max));
	pthread_mutex_unlock(&e->mu);
	s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (s) {
		size_t n = strlen(s);
		char *t = realloc(s, n + 2);
		if (t) {
			t[n] = '\n';
			t[n + 1] = 0;
			s = t;
		}
	}
	return s;
}

/* ---- FUSE operations ---- */

static struct emu *emu_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static void fill_stat(struct emu *e, fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = e->uid;
	st->st_gid = e->gid;
	st->st_atime = st->st_mtime = st->st_ctime = e->start_wall;
	st->st_blksize = 4096;
	switch (ino) {
	case INO_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		break;
	case INO_IMG: {
		struct stat ss;
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)e->m.capacity_bytes;
		if (fstat(e->store_fd, &ss) == 0)
			st->st_blocks = ss.st_blocks;    /* what the store holds: du shows TRIM */
		break;
	}
	case INO_STATS: {
		char *s = stats_json(e);
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = s ? (off_t)strlen(s) : 0;
		free(s);
		break;
	}
	}
}

static void op_init(void *ud, struct fuse_conn_info *conn)
{
	struct emu *e = ud;

	/* several direct I/Os in flight: async DIO, and more background
	 * requests than the kernel's default of 12 */
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	conn->max_background = 256;
	conn->congestion_threshold = 192;
	e->async_dio = !!(conn->want & FUSE_CAP_ASYNC_DIO);
	e->max_background = conn->max_background;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct emu *e = emu_of(req);
	struct fuse_entry_param ep;

	memset(&ep, 0, sizeof(ep));
	if (parent != INO_ROOT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (strcmp(name, IMG_NAME) == 0)
		ep.ino = INO_IMG;
	else if (strcmp(name, STATS_NAME) == 0)
		ep.ino = INO_STATS;
	else {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_stat(e, ep.ino, &ep.attr);
	ep.attr_timeout = ep.ino == INO_IMG ? 1.0 : 0;
	ep.entry_timeout = 1.0;
	fuse_reply_entry(req, &ep);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct stat st;

	(void)fi;
	if (ino != INO_ROOT && ino != INO_IMG && ino != INO_STATS) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_stat(e, ino, &st);
	fuse_reply_attr(req, &st, ino == INO_IMG ? 1.0 : 0);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct stat st;

	(void)fi;
	/* a drive has the size it has; times and modes are accepted and ignored */
	if ((to_set & FUSE_SET_ATTR_SIZE) && (ino != INO_IMG || (uint64_t)attr->st_size != e->m.capacity_bytes)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fill_stat(e, ino, &st);
	fuse_reply_attr(req, &st, ino == INO_IMG ? 1.0 : 0);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	static const struct { const char *name; fuse_ino_t ino; mode_t mode; } ents[] = {
		{ ".", INO_ROOT, S_IFDIR }, { "..", INO_ROOT, S_IFDIR },
		{ IMG_NAME, INO_IMG, S_IFREG }, { STATS_NAME, INO_STATS, S_IFREG },
	};
	char buf[1024];
	size_t used = 0;

	(void)fi;
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (size_t i = (size_t)off; i < sizeof(ents) / sizeof(ents[0]); i++) {
		struct stat st = { .st_ino = ents[i].ino, .st_mode = ents[i].mode };
		size_t n = fuse_add_direntry(req, buf + used, sizeof(buf) - used, ents[i].name, &st, (off_t)(i + 1));
		if (used + n > sizeof(buf) || used + n > size)
			break;
		used += n;
	}
	fuse_reply_buf(req, buf, used);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);

	if (ino == INO_STATS) {
		if ((fi->flags & O_ACCMODE) != O_RDONLY) {
			fuse_reply_err(req, EACCES);
			return;
		}
		fi->fh = (uint64_t)(uintptr_t)stats_json(e);
		if (!fi->fh) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		fi->direct_io = 1;               /* each open is a fresh snapshot */
		fuse_reply_open(req, fi);
		return;
	}
	if (ino != INO_IMG) {
		fuse_reply_err(req, ino == INO_ROOT ? EISDIR : ENOENT);
		return;
	}
	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return;
	}
	if (fi->flags & O_DIRECT) {
		e->opens_direct++;
	} else {
		e->opens_buffered++;
		if (!e->warned_buffered && (fi->flags & O_ACCMODE) != O_RDONLY && !e->o.quiet) {
			e->warned_buffered = 1;
			fprintf(stderr, "slcscope emulate: note: %s opened for writing without O_DIRECT: each request "
				"still reaches the model, but one at a time (a loop device needs "
				"'losetup --direct-io=on' for several in flight)\n", IMG_NAME);
		}
	}
	pthread_mutex_unlock(&e->mu);
	fi->direct_io = 1;                      /* never cached: every I/O reaches the model */
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino == INO_STATS)
		free((void *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void store_error(struct emu *e, const char *what, int err)
{
	pthread_mutex_lock(&e->mu);
	if (!e->warned_store) {
		e->warned_store = 1;
		fprintf(stderr, "slcscope emulate: the data store %s failed: %s (the I/O gets an error)\n", what, strerror(err));
	}
	pthread_mutex_unlock(&e->mu);
}

/* A fault for an I/O of @len bytes at @off, or 0; under e->mu. */
static int fault(struct emu *e, uint64_t off, uint64_t len, int is_write)
{
	if (hits_fail_at(e, off, len)) {
		e->injected_errors++;
		return EIO;
	}
	if (!is_write)
		return 0;
	if (e->written >= e->o.vanish_after_bytes) {
		e->vanished = 1;
		e->injected_errors++;
		if (!e->o.quiet)
			fprintf(stderr, "slcscope emulate: vanishing after %" PRIu64 " bytes written (--vanish-after-bytes)\n",
				e->written);
		fuse_session_exit(e->se);
		return EIO;
	}
	if (e->written >= e->o.fail_after_bytes) {
		e->injected_errors++;
		return EIO;
	}
	return 0;
}

/*
 * Take a command in: with the lock held, count it and apply the injected
 * faults.  Return: 1 with the lock held and the command admitted, or 0 with
 * the lock released and the request answered (the device is gone, or a
 * fault hit it).
 */
static int admit(struct emu *e, fuse_req_t req, uint64_t off, size_t size, int write)
{
	int f;

	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return 0;
	}
	e->cmds++;
	if (write)
		e->write_cmds++;
	else
		e->read_cmds++;
	if ((f = fault(e, off, size, write))) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, f);
		return 0;
	}
	return 1;
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	size_t left;

	(void)fi;
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (off < 0 || (uint64_t)off >= e->m.capacity_bytes) {
		fuse_reply_err(req, size ? ENOSPC : 0);
		return;
	}
	if (size > e->m.capacity_bytes - (uint64_t)off)
		size = e->m.capacity_bytes - (uint64_t)off;
	if (!admit(e, req, (uint64_t)off, size, 1))
		return;
	enter(e);
	done = slc_sim_write(e->sim, vnow(e, now), (uint64_t)off, (uint32_t)size, buf);
	e->written += size;
	extra = spike(e);
	drain_events(e);
	pthread_mutex_unlock(&e->mu);
	for (left = size; left;) {
		ssize_t n = pwrite(e->store_fd, buf + (size - left), left, off + (off_t)(size - left));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;
			store_error(e, "write", err);
			leave_err(e, req, err);
			return;
		}
		left -= (size_t)n;
	}
	schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_WRITE, .count = size });
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	size_t got = 0;
	char *buf;

	if (ino == INO_STATS) {
		const char *s = (const char *)(uintptr_t)fi->fh;
		size_t n = strlen(s);
		char *copy;
		if ((uint64_t)off >= n) {
			fuse_reply_buf(req, NULL, 0);
			return;
		}
		/* reply from a copy: the reader may close the file, and its release
		 * free the snapshot, before fuse_reply_buf() has returned */
		n = n - (size_t)off < size ? n - (size_t)off : size;
		if (!(copy = malloc(n))) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		memcpy(copy, s + off, n);
		fuse_reply_buf(req, copy, n);
		free(copy);
		return;
	}
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (off < 0 || (uint64_t)off >= e->m.capacity_bytes || !size) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > e->m.capacity_bytes - (uint64_t)off)
		size = e->m.capacity_bytes - (uint64_t)off;
	if (!admit(e, req, (uint64_t)off, size, 0))
		return;
	enter(e);
	done = slc_sim_read(e->sim, vnow(e, now), (uint64_t)off, (uint32_t)size);
	e->read_bytes += size;
	extra = spike(e);
	drain_events(e);
	pthread_mutex_unlock(&e->mu);
	buf = malloc(size);
	if (!buf) {
		leave_err(e, req, ENOMEM);
		return;
	}
	while (got < size) {
		ssize_t n = pread(e->store_fd, buf + got, size - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			store_error(e, "read", err);
			free(buf);
			leave_err(e, req, err);
			return;
		}
		if (n == 0) {                  /* past the store's end: unwritten */
			memset(buf + got, 0, size - got);
			break;
		}
		got += (size_t)n;
	}
	schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_READ,
				      .buf = buf, .count = size });
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	uint64_t o = (uint64_t)off, l = (uint64_t)len;

	(void)fi;
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (off < 0 || len <= 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))) {
		/* allocation: every byte of the drive is already there */
		fuse_reply_err(req, o + l > e->m.capacity_bytes && !(mode & FALLOC_FL_KEEP_SIZE) ? EFBIG : 0);
		return;
	}
	if (o >= e->m.capacity_bytes) {
		fuse_reply_err(req, 0);
		return;
	}
	if (l > e->m.capacity_bytes - o)
		l = e->m.capacity_bytes - o;
	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return;
	}
	e->cmds++;
	e->trim_cmds++;
	/* a discard (PUNCH_HOLE) or write-zeroes (ZERO_RANGE) both unmap in the
	 * model: drives answer reads of deallocated blocks with zeroes */
	enter(e);
	done = slc_sim_trim(e->sim, vnow(e, now), o, l);
	e->trimmed_bytes += l;
	slc_sim_mark(e->sim, done);     /* the cache may be back: exhaustion can fire again */
	extra = spike(e);
	drain_events(e);
	pthread_mutex_unlock(&e->mu);
	if (fallocate(e->store_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)o, (off_t)l)) {
		int err = errno;
		store_error(e, "hole punch", err);
		leave_err(e, req, err);
		return;
	}
	schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_ERR, .err = 0 });
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	/* the model acknowledges writes from its buffer; a flush costs nothing */
	(void)ino; (void)datasync; (void)fi;
	fuse_reply_err(req, 0);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino; (void)fi;
	fuse_reply_err(req, 0);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct emu *e = emu_of(req);
	struct statvfs sv;

	(void)ino;
	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = sv.f_frsize = 4096;
	sv.f_blocks = e->m.capacity_bytes / 4096;
	sv.f_files = 3;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

static const struct fuse_lowlevel_ops ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.readdir = op_readdir,
	.open = op_open,
	.release = op_release,
	.read = op_read,
	.write = op_write,
	.fallocate = op_fallocate,
	.fsync = op_fsync,
	.flush = op_flush,
	.statfs = op_statfs,
};

/* ---- set-up and tear-down ---- */

static int open_store(struct emu *e, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (e->o.store) {
		fd = open(e->o.store, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return slc_errf(err, errlen, -errno, "--store %s: %s", e->o.store, strerror(errno));
		snprintf(e->store_path, sizeof(e->store_path), "%s", e->o.store);
	} else {
		if (!tmp || !*tmp)
			tmp = "/var/tmp";
		fd = open(tmp, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(e->store_path, sizeof(e->store_path), "%s/slcscope-store.XXXXXX", tmp);
			fd = mkostemp(e->store_path, O_CLOEXEC);
			if (fd < 0)
				return slc_errf(err, errlen, -errno, "cannot create the data store in %s: %s (set TMPDIR or --store)",
					    tmp, strerror(errno));
			unlink(e->store_path);
		}
		snprintf(e->store_path, sizeof(e->store_path), "%s (unlinked)", tmp);
	}
	e->store_fd = fd;
	/* a fresh drive: all trimmed, so the store starts as one hole */
	if (ftruncate(fd, 0) || ftruncate(fd, (off_t)e->m.capacity_bytes))
		return slc_errf(err, errlen, -errno, "the data store %s: cannot set its size: %s", e->store_path, strerror(errno));
	e->punch_ok = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
	if (!e->punch_ok)
		return slc_errf(err, errlen, -EOPNOTSUPP, "the data store %s: its filesystem cannot punch holes (%s), "
			    "so TRIM could not free data; put it elsewhere (--store or TMPDIR)", e->store_path, strerror(errno));
	return 0;
}

int emu_open(struct emu **out, const struct slc_sim_model *model, const struct emu_opts *o,
	     char *err, size_t errlen)
{
	struct emu *e = calloc(1, sizeof(*e));
	pthread_condattr_t ca;
	struct stat st;
	int rc;

	*out = NULL;
	if (!e)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	e->o = *o;
	e->m = *model;
	e->store_fd = -1;
	e->uid = getuid();
	e->gid = getgid();
	e->start_wall = time(NULL);
	pthread_mutex_init(&e->mu, NULL);
	pthread_mutex_init(&e->qmu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&e->qcond, &ca);
	pthread_condattr_destroy(&ca);
	*out = e;

	if ((rc = slc_sim_open(&e->sim, &e->m, o->seed ? o->seed : 1, err, errlen)))
		return rc;
	if ((rc = open_store(e, err, errlen)))
		return rc;
	if (stat(o->dir, &st)) {
		if (errno != ENOENT || mkdir(o->dir, 0755))
			return slc_errf(err, errlen, -errno, "%s: %s", o->dir, strerror(errno));
		e->dir_created = 1;
	} else if (!S_ISDIR(st.st_mode)) {
		return slc_errf(err, errlen, -ENOTDIR, "%s: not a directory", o->dir);
	}
	/* a FUSE server behind a loop device must not wait on its own
	 * writeback when memory is short */
	prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0);
	{
		char fsname[128];
		snprintf(fsname, sizeof(fsname), "-ofsname=slcscope:%s,subtype=slcscope,auto_unmount", e->m.name);
		char *argv[] = { "slcscope", fsname, NULL };
		struct fuse_args args = FUSE_ARGS_INIT(2, argv);
		/* libfuse prints its own reason on stderr when this fails */
		e->se = fuse_session_new(&args, &ops, sizeof(ops), e);
		fuse_opt_free_args(&args);
	}
	if (!e->se)
		return slc_errf(err, errlen, -EIO, "cannot start a FUSE session (is /dev/fuse there? modprobe fuse)");
	if (fuse_session_mount(e->se, o->dir) != 0)
		return slc_errf(err, errlen, -EIO, "cannot mount FUSE on %s (needs /dev/fuse and root or fusermount3 "
			    "from the fuse3 package)", o->dir);
	e->mounted = 1;
	e->t0 = mono_ns();
	if (pthread_create(&e->timer, NULL, timer_main, e)) {
		return slc_errf(err, errlen, -EAGAIN, "cannot start the timer thread");
	}
	e->timer_started = 1;
	return 0;
}

static void stop_timer(struct emu *e)
{
	if (!e->timer_started)
		return;
	pthread_mutex_lock(&e->qmu);
	e->qstop = 1;                          /* what is queued goes out now */
	pthread_cond_signal(&e->qcond);
	pthread_mutex_unlock(&e->qmu);
	pthread_join(e->timer, NULL);
	e->timer_started = 0;
}

int emu_serve(struct emu *e)
{
	struct fuse_loop_config *cfg;
	int rc;

	if (fuse_set_signal_handlers(e->se))
		return -EIO;
	cfg = fuse_loop_cfg_create();
	if (!cfg) {
		fuse_remove_signal_handlers(e->se);
		return -ENOMEM;
	}
	/* workers only copy data and queue the reply; a few cover any queue depth */
	fuse_loop_cfg_set_max_threads(cfg, 16);
	fuse_loop_cfg_set_idle_threads(cfg, 8);
	rc = fuse_session_loop_mt(e->se, cfg);
	fuse_loop_cfg_destroy(cfg);
	fuse_remove_signal_handlers(e->se);
	stop_timer(e);
	fuse_session_unmount(e->se);
	e->mounted = 0;
	return rc < 0 ? rc : 0;
}

int emu_vanished(const struct emu *e)
{
	return e->vanished;
}

void emu_describe(struct emu *e, FILE *out)
{
	const struct slc_sim_model *m = &e->m;
	double t = e->o.time_scale;
	char a[32], b[32], c[32], d[32];

	fprintf(out, "slcscope emulate: %s, size scale %g, time scale %g (model seconds per real second)\n",
		m->name, e->o.size_scale, t);
	fprintf(out, "  %s/%s  %s (%" PRIu64 " bytes), data in %s; counters in %s/%s\n", e->o.dir, IMG_NAME,
		slc_format_bytes(a, sizeof(a), (double)m->capacity_bytes, SLC_UNITS_DECIMAL), m->capacity_bytes,
		e->store_path, e->o.dir, STATS_NAME);
	fprintf(out, "  as the host sees it: SLC cache %s at %s, native %s, link %s\n",
		slc_format_bytes(a, sizeof(a), (double)slc_sim_cache_free_bytes(e->sim), SLC_UNITS_DECIMAL),
		slc_format_rate(b, sizeof(b), m->slc_static_bps * t, SLC_UNITS_DECIMAL),
		slc_format_rate(c, sizeof(c), m->native_bps * t, SLC_UNITS_DECIMAL),
		slc_format_rate(d, sizeof(d), m->link_bps * t, SLC_UNITS_DECIMAL));
	fprintf(out, "  attach: losetup --direct-io=on -f --show %s/%s\n", e->o.dir, IMG_NAME);
}

void emu_summary(struct emu *e, FILE *out)
{
	struct slc_sim_counters c;
	char a[32], b[32], d[32], f[32];
	double up;

	pthread_mutex_lock(&e->mu);
	slc_sim_get_counters(e->sim, &c);
	up = (double)(mono_ns() - e->t0) * 1e-9;
	fprintf(out, "slcscope emulate: %s served for %.1f s (%.1f s of model time)\n", e->m.name, up,
		(double)e->last_v * 1e-9);
	fprintf(out, "  host writes  %s in %" PRIu64 " commands, reads %s in %" PRIu64 "\n",
		slc_format_bytes(a, sizeof(a), (double)c.host_write_bytes, SLC_UNITS_DECIMAL), e->write_cmds,
		slc_format_bytes(b, sizeof(b), (double)c.host_read_bytes, SLC_UNITS_DECIMAL), e->read_cmds);
	fprintf(out, "  TRIMs        %" PRIu64 " commands, %s\n", e->trim_cmds,
		slc_format_bytes(a, sizeof(a), (double)c.host_trim_bytes, SLC_UNITS_DECIMAL));
	fprintf(out, "  NAND writes  %s (write amplification %.2f), SLC %s, GC copies %s, folded %s, %" PRIu64 " erases\n",
		slc_format_bytes(a, sizeof(a), (double)c.nand_write_bytes, SLC_UNITS_DECIMAL),
		c.host_write_bytes ? (double)c.nand_write_bytes / (double)c.host_write_bytes : 0.0,
		slc_format_bytes(b, sizeof(b), (double)c.slc_write_bytes, SLC_UNITS_DECIMAL),
		slc_format_bytes(d, sizeof(d), (double)c.gc_copy_bytes, SLC_UNITS_DECIMAL),
		slc_format_bytes(f, sizeof(f), (double)c.fold_bytes, SLC_UNITS_DECIMAL), c.erases);
	fprintf(out, "  events       cache_exhausted %" PRIu64 ", free_pool_exhausted %" PRIu64 ", fold_done %" PRIu64
		", throttle_on %" PRIu64 "\n", e->ev_count[SLC_SIM_EV_CACHE_EXHAUSTED],
		e->ev_count[SLC_SIM_EV_FREE_POOL_EXHAUSTED], e->ev_count[SLC_SIM_EV_FOLD_DONE],
		e->ev_count[SLC_SIM_EV_THROTTLE_ON]);
	fprintf(out, "  replies      up to %" PRIu64 " commands in flight; %" PRIu64 " more than 1 ms late (worst %.1f ms)%s\n",
		e->in_flight_max, e->late, (double)e->max_late_ns * 1e-6,
		e->late * 10 > e->cmds && e->cmds > 100 ? ": the host could not keep up, try a smaller --time-scale" : "");
	if (e->injected_errors || e->spikes || e->vanished)
		fprintf(out, "  faults       %" PRIu64 " errors injected, %" PRIu64 " latency spikes%s\n",
			e->injected_errors, e->spikes, e->vanished ? ", vanished" : "");
	pthread_mutex_unlock(&e->mu);
}

void emu_close(struct emu *e)
{
	if (!e)
		return;
	stop_timer(e);
	if (e->se) {
		if (e->mounted)
			fuse_session_unmount(e->se);
		fuse_session_destroy(e->se);
	}
	if (e->dir_created)
		rmdir(e->o.dir);
	if (e->store_fd >= 0)
		close(e->store_fd);
	slc_sim_close(e->sim);
	free(e->heap);
	pthread_cond_destroy(&e->qcond);
	pthread_mutex_destroy(&e->qmu);
	pthread_mutex_destroy(&e->mu);
	free(e);
}
