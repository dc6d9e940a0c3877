// SPDX-License-Identifier: MIT
/*
 * Several jobs of a step on a real target: one writer thread per job, as
 * fio's numjobs, so that the jobs are not limited to one core.  Each
 * writer runs the engine's loop (engine.c) on a twin of the target (its
 * own io_uring ring on the same device or file, ops->twin), with its own
 * buffers and offsets: a sequential job its slice of the range, a random
 * one its own stream of offsets over the whole range.
 *
 * The samples stay exact: a writer counts its completions by sample
 * interval, on the grid that starts at the step's start, and hands an
 * interval's counts on when its first completion after it comes; the
 * caller's thread sums an interval once every writer has passed it, and
 * gives the sum to the step's one sampler, which makes the samples as it
 * does for one loop.  No command is counted twice or lost: a writer
 * passes each interval once, and leaves only after handing on its last.
 * The caller's thread also runs the callbacks (samples, progress,
 * temperature), so the writers never wait for them, and measures the
 * writers' CPU: a sample's writer_cpu is the busiest writer's share.
 *
 * Kinds whose clock is a model's (the simulated drive) keep one loop: a
 * model of one device queue in virtual time has no second core to use.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine_priv.h"

#define LOOK_NS 10000000ull            /* the caller's thread looks at the writers (and *stop) this often */
#define TAKE 32u                       /* intervals summed in one pass */

/* One interval's counts, summed over the writers that handed it on. */
struct pend {
	uint64_t k, tmax;              /* the interval, its last completion */
	struct slc_sampler_acc a;
};

struct writer {
	struct loop l;                 /* first: a loop is its writer */
	struct slc_job_result res;
	pthread_t th;
	int started;
	int sched_fd;                  /* the thread's schedstat, read from the caller's thread */
	uint64_t cpu_prev, wait_prev, wall_prev; /* at the last reading: its CPU, its wait, the clock */
	uint64_t cpu_end, wait_end, wall_end; /* at its end, for the readings after it */
	int rc;
	char err[256];
	/* under the lock */
	uint64_t wm;                   /* the intervals before this one are handed on */
	uint64_t at;                   /* no completion before this time is still to come */
	int done;                      /* all are */
};

struct slc_jobs {
	pthread_mutex_t mu, cb_mu;
	pthread_cond_t news_cv, go_cv;
	struct loop *main;             /* the caller's: its job, callbacks and sampler */
	struct writer *w;
	unsigned n;
	atomic_int halt;
	/* The caller's *stop, copied by its thread: a signal handler sets it in
	 * that thread (the writers block signals), which is no way to tell
	 * another thread; an atomic is */
	atomic_int stop;
	_Atomic uint64_t later;        /* the writers' time limit moved on by the host's stops */
	struct slc_host_watch hw;
	uint64_t pass_ns;              /* the caller's thread last began to wait: the process ran then */
	uint64_t t0;
	uint64_t wall_prev;
	double cpu_share, wait_share;
	/* under mu */
	unsigned ready;
	int go;                        /* 1: start, -1: a writer could not */
	int news;
	int lost;                      /* -ENOMEM: an interval's counts had no room */
	struct pend **pend;            /* by interval, oldest first */
	size_t npend, cap;
};

int slc__jobs_threaded(const struct slc_target *t, const struct slc_job *j)
{
	return j->jobs > 1 && t->ops->twin &&
	       !(slc_target_caps(t) & (SLC_TARGET_CAP_ONE_AT_A_TIME | SLC_TARGET_CAP_VIRTUAL_CLOCK)) &&
	       (!j->max_bytes || j->max_bytes / (j->block_bytes ? j->block_bytes : 4096) >= j->jobs);
}

void slc__jobs_cb_lock(struct slc_jobs *js, int lock)
{
	if (lock)
		pthread_mutex_lock(&js->cb_mu);
	else
		pthread_mutex_unlock(&js->cb_mu);
}

/* Interval @t_ns falls in: (t0 + k*iv, t0 + (k+1)*iv], as the sampler closes them. */
static uint64_t interval_of(const struct slc_jobs *js, uint64_t t_ns)
{
	return t_ns <= js->t0 ? 0 : (t_ns - js->t0 - 1) / js->main->j.interval_ns;
}

/* The pending counts of interval @k, made when none are (under mu). */
static struct pend *pend_of(struct slc_jobs *js, uint64_t k)
{
	size_t i = js->npend;
	struct pend *p;

	while (i && js->pend[i - 1]->k > k)
		i--;
	if (i && js->pend[i - 1]->k == k)
		return js->pend[i - 1];
	if (js->npend == js->cap) {
		size_t cap = js->cap ? 2 * js->cap : 16;
		struct pend **np = realloc(js->pend, cap * sizeof(*np));
		if (!np)
			return NULL;
		js->pend = np;
		js->cap = cap;
	}
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->k = k;
	memmove(js->pend + i + 1, js->pend + i, (js->npend - i) * sizeof(*js->pend));
	js->pend[i] = p;
	js->npend++;
	return p;
}

/* Hand the writer's interval on; the next is the one @next_t falls in, or
 * none (@final): the writer is done. */
static void hand_on(struct loop *l, uint64_t next_t, int final)
{
	struct slc_jobs *js = l->jobs;
	struct writer *w = (struct writer *)l;
	uint64_t k = final ? 0 : interval_of(js, next_t);

	pthread_mutex_lock(&js->mu);
	if (l->bin->ios) {
		struct pend *p = pend_of(js, l->bin_k);
		if (p) {
			slc__acc_sum(&p->a, l->bin);
			if (l->bin_tmax > p->tmax)
				p->tmax = l->bin_tmax;
		} else {
			js->lost = -ENOMEM;
			atomic_store(&js->halt, 1);
		}
	}
	if (final)
		w->done = 1;
	else
		w->wm = k;
	w->at = next_t;
	js->news = 1;
	pthread_cond_signal(&js->news_cv);
	pthread_mutex_unlock(&js->mu);
	if (l->bin->ios)
		memset(l->bin, 0, sizeof(*l->bin));
	l->bin_k = k;
	l->bin_edge = js->t0 + (k + 1) * js->main->j.interval_ns;
	l->bin_marked = 0;
}

/*
 * The sampler hands an interval on once the next has lasted a tenth of an
 * interval (sampler.c); a writer says when it is that far into one, so
 * the samples come as soon as they do from one loop.
 */
static void mark(struct loop *l, uint64_t t_ns)
{
	struct slc_jobs *js = l->jobs;

	pthread_mutex_lock(&js->mu);
	((struct writer *)l)->at = t_ns;
	js->news = 1;
	pthread_cond_signal(&js->news_cv);
	pthread_mutex_unlock(&js->mu);
	l->bin_marked = 1;
}

void slc__jobs_add(struct loop *l, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns, int is_read)
{
	uint64_t iv = l->j.interval_ns;

	if (t_ns > l->bin_edge)
		hand_on(l, t_ns, 0);
	else if (!l->bin_marked && (t_ns - (l->bin_edge - iv)) * 10 >= iv)
		mark(l, t_ns);
	slc__acc_add(l->bin, bytes, lat_ns, is_read);
	l->bin_tmax = t_ns;
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return UINT64_MAX;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define PAIR_NS 20000ull            /* a writer's CPU time and the clock: read this close together */

/*
 * Writer @w's CPU time, and in *@wall the clock at that moment.  This
 * thread may be preempted between the two readings, and a share over a
 * short span would then be off by the time it lost: read again when the
 * clock moved more than PAIR_NS around the CPU time.
 */
static uint64_t cpu_at(const struct writer *w, uint64_t *wall)
{
	uint64_t before = 0, cpu = UINT64_MAX;
	clockid_t c;

	*wall = slc__target_mono_ns();
	if (pthread_getcpuclockid(w->th, &c))
		return UINT64_MAX;
	for (int i = 0; i < 4; i++) {
		before = slc__target_mono_ns();
		cpu = clock_ns(c);
		*wall = slc__target_mono_ns();
		if (*wall - before < PAIR_NS)
			break;
	}
	*wall = before + (*wall - before) / 2;
	return cpu;
}

/* Writer @w's CPU and run-queue wait since the last reading, over the
 * time since (a writer that ended left its counts at its end). */
static void read_writer(struct slc_jobs *js, struct writer *w)
{
	uint64_t now, wt, end;
	double span, share;
	int done;

	pthread_mutex_lock(&js->mu);
	done = w->done;
	pthread_mutex_unlock(&js->mu);
	if (done) {
		now = w->cpu_end;
		wt = w->wait_end;
		end = w->wall_end;
	} else {
		now = cpu_at(w, &end);
		wt = slc__engine_thread_wait_ns(w->sched_fd);
	}
	span = end > w->wall_prev ? (double)(end - w->wall_prev) : 0;
	share = now == UINT64_MAX || w->cpu_prev == UINT64_MAX || now < w->cpu_prev || !span ? NAN :
		slc__engine_cpu_cap((double)(now - w->cpu_prev) / span);
	if (isfinite(share) && !(share <= js->cpu_share)) {
		js->cpu_share = share;
		js->wait_share = wt == UINT64_MAX || w->wait_prev == UINT64_MAX || wt < w->wait_prev ? NAN :
			slc__engine_wait_cap((double)(wt - w->wait_prev) / span, share);
	}
	w->cpu_prev = now;
	w->wait_prev = wt;
	w->wall_prev = end > w->wall_prev ? end : w->wall_prev;
}

/* As the one loop's reading (engine.c), for every writer: the busiest
 * one's share of a core, and the run-queue wait of that one. */
void slc__jobs_cpu(struct slc_jobs *js, double interval_s, double *cpu, double *wait)
{
	uint64_t wall = slc__target_mono_ns();

	if ((double)(wall - js->wall_prev) >= interval_s * 0.5e9) {
		js->cpu_share = js->wait_share = NAN;
		for (unsigned i = 0; i < js->n; i++)
			read_writer(js, &js->w[i]);
		js->wall_prev = wall;
	}
	*cpu = js->cpu_share;
	*wait = js->wait_share;
}

/* A writer thread: its twin and buffers, the start, the loop, its last interval. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct loop *l = &w->l;
	struct slc_jobs *js = l->jobs;
	struct slc_target *tw = NULL;
	int rc;

	w->sched_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	rc = slc__target_twin(js->main->t, l->qd, &tw, w->err, sizeof(w->err));
	if (!rc) {
		l->t = tw;
		tw->poll_ns = slc__engine_poll_ns(l->qd);
		rc = slc__engine_buffers(l, w->err, sizeof(w->err));
	}
	if (!rc && !(l->bin = calloc(1, sizeof(*l->bin))))
		rc = slc_errf(w->err, sizeof(w->err), -ENOMEM, "out of memory");
	pthread_mutex_lock(&js->mu);
	w->rc = rc;
	js->ready++;
	pthread_cond_signal(&js->news_cv);
	while (!js->go)
		pthread_cond_wait(&js->go_cv, &js->mu);
	pthread_mutex_unlock(&js->mu);
	if (!rc && js->go > 0) {
		slc__engine_offsets(l);
		l->r.t0 = l->last = js->t0;
		l->deadline = l->j.max_ns ? js->t0 + l->j.max_ns : UINT64_MAX;
		l->bin_edge = js->t0 + l->j.interval_ns;
		slc__engine_loop(l, w->err, sizeof(w->err));
		slc__engine_reap_rest(l);
		w->rc = l->rc;
		if (w->rc || w->res.error)
			atomic_store(&js->halt, 1);    /* the first error ends the step, as in one loop */
		w->cpu_end = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		w->wait_end = slc__engine_thread_wait_ns(w->sched_fd);
		w->wall_end = slc__target_mono_ns();
		hand_on(l, 0, 1);
	} else {
		pthread_mutex_lock(&js->mu);
		w->done = 1;
		pthread_mutex_unlock(&js->mu);
	}
	if (tw)
		slc_target_close(tw);
	pthread_mutex_lock(&js->mu);            /* the kept buffers' list is shared */
	slc__engine_release(l);
	pthread_mutex_unlock(&js->mu);
	free(l->bin);
	return NULL;
}

/* Writer @i's job: its share of the bytes, its slice or its own offsets. */
static void writer_job(struct slc_jobs *js, unsigned i)
{
	const struct loop *m = js->main;
	struct writer *w = &js->w[i];
	struct loop *l = &w->l;
	uint64_t share = m->j.max_bytes / js->n / m->j.block_bytes * m->j.block_bytes;

	memcpy(l, m, sizeof(*l));
	l->j.jobs = 1;
	l->res = &w->res;
	l->jobs = js;
	l->id = i;
	l->halt = &js->halt;
	l->stop = NULL;
	l->stop_copy = &js->stop;
	l->later = &js->later;
	l->watch = 0;                  /* host pauses: not looked for by writers (docs/trace-format.md) */
	l->r.jobs = NULL;
	l->r.sched_fd = -1;
	w->sched_fd = -1;
	if (m->j.max_bytes)
		l->j.max_bytes = i + 1 < js->n ? share : m->j.max_bytes - share * (js->n - 1);
	if (slc_job_kind_sequential(m->j.kind)) {
		l->j.offset_bytes += (uint64_t)i * m->slice * m->j.block_bytes;
		l->j.range_bytes = m->slice * m->j.block_bytes;
	} else if (i) {
		/* a stream of offsets (and data) of its own; the first writer's is one loop's */
		l->j.seed ^= (uint64_t)i * 0xd1b54a32d192ed03ull;
	}
	slc__engine_prepare(l);
}

/* Take the intervals every running writer has passed (all once none runs);
 * 1 while one runs. */
static int take_ready(struct slc_jobs *js, struct pend **out, size_t *n, uint64_t *at)
{
	uint64_t min = UINT64_MAX;
	unsigned live = 0;
	size_t k = 0;
	int more;

	pthread_mutex_lock(&js->mu);
	if (!js->news) {
		struct timespec ts;
		uint64_t until;

		clock_gettime(CLOCK_REALTIME, &ts);
		until = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + LOOK_NS;
		ts.tv_sec = (time_t)(until / 1000000000ull);
		ts.tv_nsec = (long)(until % 1000000000ull);
		pthread_cond_timedwait(&js->news_cv, &js->mu, &ts);
	}
	js->news = 0;
	*at = UINT64_MAX;
	for (unsigned i = 0; i < js->n; i++)
		if (!js->w[i].done) {
			live++;
			min = js->w[i].wm < min ? js->w[i].wm : min;
			*at = js->w[i].at < *at ? js->w[i].at : *at;
		}
	while (k < js->npend && k < TAKE && js->pend[k]->k < min)
		k++;
	if (k) {
		memcpy(out, js->pend, k * sizeof(*out));
		memmove(js->pend, js->pend + k, (js->npend - k) * sizeof(*js->pend));
		js->npend -= k;
	}
	if (k == TAKE) {
		js->news = 1;           /* more may be ready */
		*at = 0;
	}
	more = live || js->news;
	pthread_mutex_unlock(&js->mu);
	*n = k;
	return more;
}

/*
 * Was the host away (hostpause.c)?  As with one loop, a stop moves the time
 * limit on by its length and the callback records it, and so does a
 * suspend; but the samples are not cut at a stop, as the writers count on
 * the step's grid of intervals: the one it fell in has its time.
 */
static int host_check(struct slc_jobs *js, uint64_t now)
{
	const struct slc_engine_cb *cb = js->main->r.cb;
	uint64_t susp, from = js->pass_ns, stop;
	unsigned what = slc_host_watch_check(&js->hw, &susp);
	int rc = 0;

	stop = slc__host_stop(what, from, now, &now);
	js->pass_ns = now;
	if (stop) {
		js->main->res->host_paused_ns += stop;
		atomic_fetch_add(&js->later, stop);
		if (cb->host_pause)
			rc = cb->host_pause(cb->arg, from, stop, 0, js->t0);
	}
	if (!rc && (what & SLC_HOST_SUSPENDED) && cb->host_pause)
		rc = cb->host_pause(cb->arg, now, susp, 1, js->t0);
	return rc;
}

/* A callback's return: "done" ends the step normally, an error with it;
 * either stops the writers. */
static void heed(struct slc_jobs *js, int *rc, int r2)
{
	if (r2 == SLC_ENGINE_DONE) {
		js->main->res->done_early = 1;
		atomic_store(&js->halt, 1);
	} else if (r2 && !*rc) {
		*rc = r2;
		atomic_store(&js->halt, 1);
	}
}

/* The caller's thread while the writers run: sum their intervals into the
 * sampler, which calls back; a callback's stop or error stops the writers. */
static int gather(struct slc_jobs *js)
{
	static const struct slc_sampler_acc none;
	struct loop *m = js->main;
	struct pend *got[TAKE];
	uint64_t at;
	size_t n;
	int more, rc = 0;

	do {
		if (m->stop)
			atomic_store(&js->stop, *m->stop);
		more = take_ready(js, got, &n, &at);
		pthread_mutex_lock(&js->cb_mu);
		for (size_t i = 0; i < n; i++) {
			heed(js, &rc, slc__sampler_add_acc(&m->smp, got[i]->tmax, &got[i]->a, slc__engine_on_interval,
							   &m->r));
			free(got[i]);
		}
		/* every interval before @at's is in: the sampler may go there */
		if (at && at != UINT64_MAX)
			heed(js, &rc, slc__sampler_add_acc(&m->smp, at, &none, slc__engine_on_interval, &m->r));
		heed(js, &rc, host_check(js, slc__target_mono_ns()));
		pthread_mutex_unlock(&js->cb_mu);
	} while (more);
	return rc;
}

/* Start the writers that could be made; 1 when every one is ready, with
 * the step's start in js->t0; else -errno with the first one's reason. */
static int start(struct slc_jobs *js, unsigned *made, char *err, size_t errlen)
{
	sigset_t all, old;
	int rc = 0;

	/* the writers block every signal, so the caller's handlers run in the
	 * caller's thread, as with one loop, and the writers' waits are not cut short */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (*made = 0; *made < js->n; (*made)++) {
		struct writer *w = &js->w[*made];
		if ((rc = pthread_create(&w->th, NULL, writer_main, w))) {
			rc = slc_errf(err, errlen, -rc, "cannot start a writer thread: %s", strerror(rc));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_lock(&js->mu);
	while (js->ready < *made)
		pthread_cond_wait(&js->news_cv, &js->mu);
	for (unsigned i = 0; !rc && i < *made; i++)
		if (js->w[i].rc)
			rc = slc_errf(err, errlen, js->w[i].rc, "%s", js->w[i].err);
	js->t0 = js->main->t->ops->now_ns(js->main->t);
	/* the first CPU readings start with the step, not the writers' set-up */
	for (unsigned i = 0; !rc && i < *made; i++) {
		struct writer *w = &js->w[i];

		w->cpu_prev = cpu_at(w, &w->wall_prev);
		w->wait_prev = slc__engine_thread_wait_ns(w->sched_fd);
	}
	js->go = rc ? -1 : 1;
	pthread_cond_broadcast(&js->go_cv);
	pthread_mutex_unlock(&js->mu);
	return rc;
}

/* The writers' results as the step's; the reason it ended. */
static int results(struct slc_jobs *js, int rc, char *err, size_t errlen)
{
	struct loop *m = js->main;
	struct slc_job_result *res = m->res;
	int r2;

	for (unsigned i = 0; i < js->n; i++) {
		struct writer *w = &js->w[i];

		res->bytes += w->res.bytes;
		res->ios += w->res.ios;
		res->abandoned += w->res.abandoned;
		if (w->res.error && !res->error) {
			res->error = w->res.error;
			res->error_offset = w->res.error_offset;
		}
		if (w->l.last > m->last)
			m->last = w->l.last;
		if (w->rc && !rc)
			rc = slc_errf(err, errlen, w->rc, "%s", w->err);
	}
	if (!rc && js->lost)
		rc = slc_errf(err, errlen, js->lost, "out of memory for the samples of several writer threads");
	r2 = slc_sampler_finish(&m->smp, m->last, slc__engine_on_interval, &m->r);
	if (r2 == SLC_ENGINE_DONE)
		res->done_early = 1;
	else if (r2 && !rc)
		rc = r2;
	res->elapsed_ns = m->last - js->t0;
	if (!rc && res->error)
		rc = slc_errf(err, errlen, res->error, "I/O error at offset %llu: %s",
			      (unsigned long long)res->error_offset, strerror(-res->error));
	if (!rc && m->stop && *m->stop)
		rc = -ECANCELED;
	return rc;
}

int slc__jobs_run(struct loop *m, char *err, size_t errlen)
{
	struct slc_jobs jobs = { .main = m, .n = m->j.jobs }, *js = &jobs;
	unsigned made = 0;
	int rc;

	pthread_mutex_init(&js->mu, NULL);
	pthread_mutex_init(&js->cb_mu, NULL);
	pthread_cond_init(&js->news_cv, NULL);
	pthread_cond_init(&js->go_cv, NULL);
	atomic_init(&js->halt, 0);
	atomic_init(&js->stop, m->stop ? *m->stop : 0);
	if (!(js->w = calloc(js->n, sizeof(*js->w)))) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < js->n; i++)
		writer_job(js, i);
	if (!(rc = start(js, &made, err, errlen))) {
		m->r.jobs = js;
		m->r.t0 = m->last = js->t0;
		js->wall_prev = js->pass_ns = js->t0;
		slc_host_watch_init(&js->hw);
		js->cpu_share = js->wait_share = NAN;
		slc_sampler_init(&m->smp, js->t0, m->j.interval_ns);
		rc = gather(js);
	}
	for (unsigned i = 0; i < made; i++)
		pthread_join(js->w[i].th, NULL);
	if (made == js->n && js->go > 0)
		rc = results(js, rc, err, errlen);
	for (unsigned i = 0; i < made; i++)
		if (js->w[i].sched_fd >= 0)
			close(js->w[i].sched_fd);
	for (size_t i = 0; i < js->npend; i++)
		free(js->pend[i]);
	free(js->pend);
	free(js->w);
out:
	m->r.jobs = NULL;
	pthread_cond_destroy(&js->go_cv);
	pthread_cond_destroy(&js->news_cv);
	pthread_mutex_destroy(&js->cb_mu);
	pthread_mutex_destroy(&js->mu);
	return rc;
}
