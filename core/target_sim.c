// SPDX-License-Identifier: MIT
/*
 * The simulated drive ("sim:MODEL") as a target, on a virtual clock.  A
 * command completes when the model says; the engine takes one completion
 * per reap, the earliest, so the model sees a device queue of the job's
 * depth exactly and the clock never runs backwards.
 * Only this kind reports ground truth (the model's events and counters).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"

#define SIM_FIFO 1024u

struct sim_priv {
	struct slc_sim *sim;          /* closed with the target unless detached */
	uint64_t clock;               /* virtual now */
	struct slc_io *fifo[SIM_FIFO];   /* in flight, by completion time */
	unsigned head, n;
};

static int sim_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct sim_priv *p = t->priv;
	unsigned i;

	if (p->n == SIM_FIFO)
		return -EBUSY;
	io->submit_ns = p->clock;
	if (io->is_read)
		io->complete_ns = slc_sim_read(p->sim, p->clock, io->offset, io->len);
	else
		io->complete_ns = slc_sim_write(p->sim, p->clock, io->offset, io->len, buf);
	io->result = (int)io->len;
	/* writes complete in order, so this stops at once; a read on an idle
	 * die may pass commands queued before it (ties keep submission order) */
	for (i = p->n; i > 0; i--) {
		struct slc_io *prev = p->fifo[(p->head + i - 1) % SIM_FIFO];
		if (prev->complete_ns <= io->complete_ns)
			break;
		p->fifo[(p->head + i) % SIM_FIFO] = prev;
	}
	p->fifo[(p->head + i) % SIM_FIFO] = io;
	p->n++;
	return 0;
}

/* One completion at a time: the next command is submitted when it completes. */
static int sim_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct sim_priv *p = t->priv;
	struct slc_io *io;

	(void)min;
	if (!p->n || !max)
		return 0;
	io = p->fifo[p->head];
	p->head = (p->head + 1) % SIM_FIFO;
	p->n--;
	if (io->complete_ns > p->clock)
		p->clock = io->complete_ns;
	done[0] = io;
	return 1;
}

static uint64_t sim_now(struct slc_target *t)
{
	return ((struct sim_priv *)t->priv)->clock;
}

static int sim_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	struct sim_priv *p = t->priv;
	p->clock = slc_sim_trim(p->sim, p->clock, offset, len);
	return 0;
}

static void sim_idle(struct slc_target *t, uint64_t until_ns)
{
	struct sim_priv *p = t->priv;
	if (until_ns > p->clock) {
		slc_sim_idle(p->sim, until_ns);
		p->clock = until_ns;
	}
}

/* The whole batch at once: the page walks of its misses overlap. */
static void sim_hint(struct slc_target *t, const uint64_t *offsets, unsigned n)
{
	const struct slc_sim *sim = ((struct sim_priv *)t->priv)->sim;

	for (unsigned i = 0; i < n; i++)
		slc_sim_prefetch(sim, offsets[i]);
}

static size_t sim_events(struct slc_target *t, struct slc_sim_event *ev, size_t max)
{
	return slc_sim_events(((struct sim_priv *)t->priv)->sim, ev, max);
}

static void sim_counters(struct slc_target *t, struct slc_sim_counters *c)
{
	slc_sim_get_counters(((struct sim_priv *)t->priv)->sim, c);
}

static void sim_mark(struct slc_target *t, uint64_t now_ns)
{
	slc_sim_mark(((struct sim_priv *)t->priv)->sim, now_ns);
}

static void sim_close(struct slc_target *t)
{
	struct sim_priv *p = t->priv;

	slc_sim_close(p->sim);
	free(p);
}

static const struct slc_target_ops sim_ops = {
	.name = "sim",
	.caps = SLC_TARGET_CAP_VIRTUAL_CLOCK | SLC_TARGET_CAP_EVENTS | SLC_TARGET_CAP_COUNTERS |
		SLC_TARGET_CAP_ONE_AT_A_TIME,
	.submit = sim_submit,
	.reap = sim_reap,
	.now_ns = sim_now,
	.discard = sim_discard,
	.idle = sim_idle,
	.hint = sim_hint,
	.events = sim_events,
	.counters = sim_counters,
	.mark = sim_mark,
	.close = sim_close,
};

/* Make @t the target of @sim (which it owns from then on); -ENOMEM. */
static int sim_attach(struct slc_target *t, struct slc_sim *sim)
{
	const struct slc_sim_model *m = slc_sim_model_of(sim);
	struct sim_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->sim = sim;
	t->priv = p;
	t->ops = &sim_ops;
	t->kind = SLC_TARGET_SIM;
	t->capacity_bytes = m->capacity_bytes;
	t->logical_block_bytes = 512;
	t->physical_block_bytes = m->unit_bytes;
	t->fd = -1;
	/* only a compressing model reads the payload */
	t->caps = m->compression ? 0 : SLC_TARGET_CAP_IGNORES_DATA;
	return 0;
}

int slc__target_sim_open(struct slc_target *t, const char *spec, const struct slc_target_opts *o,
			 char *err, size_t errlen)
{
	struct slc_sim_model m;
	struct slc_sim *sim;
	int rc;

	if ((rc = slc_sim_model_load(&m, spec, err, errlen)))
		return rc;
	if ((rc = slc_sim_open(&sim, &m, o->seed ? o->seed : 1, err, errlen)))
		return rc;
	if ((rc = sim_attach(t, sim))) {
		slc_sim_close(sim);
		return slc_errf(err, errlen, rc, "out of memory");
	}
	return 0;
}

int slc_target_from_sim(struct slc_target **out, struct slc_sim *sim, const char *spec)
{
	struct slc_target *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t || sim_attach(t, sim)) {
		free(t);
		return -ENOMEM;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec ? spec : slc_sim_model_of(sim)->name);
	*out = t;
	return 0;
}

struct slc_sim *slc_target_sim(struct slc_target *t)
{
	return t->ops == &sim_ops ? ((struct sim_priv *)t->priv)->sim : NULL;
}

struct slc_sim *slc__target_sim_detach(struct slc_target *t)
{
	struct slc_sim *sim = slc_target_sim(t);

	if (sim)
		((struct sim_priv *)t->priv)->sim = NULL;
	return sim;
}
