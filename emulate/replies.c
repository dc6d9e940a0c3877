// SPDX-License-Identifier: MIT
/*
 * Replies at their time: a reply waits in a heap ordered by its due time
 * (the model's completion in real time) and one timer thread sends it when
 * the clock reaches that, so any number of requests can be in flight
 * without holding a FUSE worker each.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "emu_priv.h"

#define LATE_NS 1000000ull          /* a reply more than 1 ms after its model time is late */

static void send_reply(struct slc_emu *e, struct pending *p, uint64_t now)
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

void slc__emu_schedule(struct slc_emu *e, struct pending p)
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

static struct pending heap_pop(struct slc_emu *e)
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
	struct slc_emu *e = arg;

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

int slc__emu_timer_start(struct slc_emu *e)
{
	if (pthread_create(&e->timer, NULL, timer_main, e))
		return -EAGAIN;
	e->timer_started = 1;
	return 0;
}

void slc__emu_timer_stop(struct slc_emu *e)
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
