// SPDX-License-Identifier: MIT
/*
 * The state each sweep point starts from.  Run back to back, the points of
 * a sweep measure whatever the point before left: the SLC cache runs out
 * in the middle, and a later point (a deeper queue, a larger block) measures
 * slower than an earlier one for that reason alone.  The reviews TRIM the
 * drive and let it idle before each test; SNIA's PTS preconditions it to
 * steady state once.  Either is a defined start, put in as steps before the
 * points so that the trace shows it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"

/* The longest wait a plan takes, as check_ranges() in plan.c: a week. */
#define MAX_SETTLE_NS (7 * 86400000000000ull)

/* Step @s made anew: @prefix, then the point's name when it has one. */
static struct slc_step *put(struct slc_step *s, const char *prefix, const char *point, enum slc_step_kind kind,
			    enum slc_role role)
{
	char name[sizeof(s->name)];

	/* the prefix kept whole, a long point name cut (the sweeps' fit) */
	snprintf(name, sizeof(name), "%s%s%.*s", prefix, *point ? "_" : "",
		 (int)(sizeof(name) - 2 - strlen(prefix)), point);
	memset(s, 0, sizeof(*s));
	memcpy(s->name, name, sizeof(name));
	s->kind = kind;
	s->role = role;
	return s;
}

static void put_trim(struct slc_step *s, const char *point, const struct slc_plan_opts *o)
{
	put(s, "trim", point, SLC_STEP_TRIM, SLC_ROLE_TRIM)->wait_ns = o->trim_wait_ns;
}

/* A sequential write from offset 0, as the builders prepare the region;
 * @seed_at makes its seed, as a builder's step at that index would get. */
static void put_write(struct slc_step *s, const char *prefix, const char *point, enum slc_role role,
		      struct slc_size bytes, struct slc_size range, const struct slc_plan_opts *o, size_t seed_at)
{
	put(s, prefix, point, SLC_STEP_JOB, role);
	s->job.kind = SLC_JOB_SEQ_WRITE;
	s->job.block_bytes = o->seq_block_bytes;
	s->job.queue_depth = o->queue_depth;
	s->job.jobs = o->jobs;
	s->job.reap_batch = o->reap_batch;
	s->job.interval_ns = o->interval_ns;
	s->job.seed = o->seed + seed_at;
	s->bytes = bytes;
	s->range = range;
}

static uint64_t settle_ns(const struct slc_plan_opts *o)
{
	return o->settle_ns == SLC_PLAN_SETTLE_TRIM_WAIT ? o->trim_wait_ns : o->settle_ns;
}

/* The steps put before each point: TRIM, the region written, the settle
 * (none when it lasts nothing). */
static size_t state_steps(const struct slc_plan_opts *o)
{
	return settle_ns(o) ? 3 : 2;
}

static int check(const struct slc_plan_opts *o, size_t points, size_t others, char *err, size_t errlen)
{
	size_t need;

	switch (o->sweep_state) {
	case SLC_SWEEP_STATE_TRIM:
		if (o->settle_ns != SLC_PLAN_SETTLE_TRIM_WAIT && o->settle_ns > MAX_SETTLE_NS)
			return slc_errf(err, errlen, -ERANGE, "--settle: at most 7 days (168h), not %.6g h",
					(double)o->settle_ns / 3.6e12);
		need = others + (1 + state_steps(o)) * points;
		break;
	case SLC_SWEEP_STATE_STEADY:
		if (!o->steady_bytes.bytes && !(o->steady_bytes.capacity_multiple > 0))
			return slc_errf(err, errlen, -EINVAL, "--precondition: must be more than 0");
		need = others + 2 + points;
		break;
	default:
		return slc_errf(err, errlen, -EINVAL, "--sweep-state: trim, steady or none");
	}
	if (need > SLC_PLAN_MAX_STEPS)
		return slc_errf(err, errlen, -EINVAL, "--sweep-state: %zu steps, more than a plan holds (%d)", need,
				SLC_PLAN_MAX_STEPS);
	return 0;
}

/* The builders' own start of a group (its TRIM, its write of the region). */
static int builders_state(const struct slc_step *s)
{
	return s->role == SLC_ROLE_TRIM || s->role == SLC_ROLE_SWEEP_PREP;
}

/* Before the point at @i: at @n, TRIM, the region written, the settle, and
 * the point itself last (it may lie where they go: @n >= @i). */
static void put_point_state(struct slc_plan *p, size_t n, size_t i, const struct slc_plan_opts *o)
{
	struct slc_step *at = &p->step[n];
	size_t k = state_steps(o);

	at[k] = p->step[i];
	put_trim(&at[0], at[k].name, o);
	put_write(&at[1], "prep", at[k].name, SLC_ROLE_SWEEP_PREP, o->region, o->region, o, n + 1);
	if (k == 3)
		put(&at[2], "settle", at[k].name, SLC_STEP_IDLE, SLC_ROLE_SETTLE)->wait_ns = settle_ns(o);
	while (k--)
		at[k].point_state = 1;
}

int slc_plan_set_point_state(struct slc_plan *p, const struct slc_plan_opts *o, char *err, size_t errlen)
{
	static const struct slc_size none = { 0, 0 };
	size_t points = 0, others = 0, m = 0, n;
	int rc;

	if (o->sweep_state == SLC_SWEEP_STATE_NONE)
		return 0;
	for (size_t i = 0; i < p->n; i++) {
		points += p->step[i].role == SLC_ROLE_SWEEP;
		others += p->step[i].role != SLC_ROLE_SWEEP && !builders_state(&p->step[i]);
	}
	if (!points)
		return 0;
	if ((rc = check(o, points, others, err, errlen)))
		return rc;
	/* the builders' start of each group gives way to the state asked for */
	for (size_t i = 0; i < p->n; i++) {
		struct slc_step *s = &p->step[i];
		if (builders_state(s))
			continue;
		if (s->role == SLC_ROLE_SWEEP && slc_job_kind_read_pct(s->job.kind, s->job.read_pct) < 100)
			s->bytes = o->point_bytes;
		p->step[m++] = *s;
	}
	if (o->sweep_state == SLC_SWEEP_STATE_STEADY) {
		memmove(&p->step[2], &p->step[0], m * sizeof(p->step[0]));
		put_trim(&p->step[0], "", o);
		put_write(&p->step[1], "precondition", "", SLC_ROLE_PRECONDITION, o->steady_bytes, none, o, 1);
		p->n = m + 2;
		return 0;
	}
	/* from the end, so that every step moves once and only to a later slot */
	n = m + state_steps(o) * points;
	p->n = n;
	for (size_t i = m; i-- > 0;) {
		if (p->step[i].role != SLC_ROLE_SWEEP) {
			p->step[--n] = p->step[i];
			continue;
		}
		n -= 1 + state_steps(o);
		put_point_state(p, n, i, o);
	}
	return 0;
}

size_t slc__plan_unstate(const struct slc_plan *p, size_t kept)
{
	while (kept && p->step[kept - 1].point_state)
		kept--;
	return kept;
}
