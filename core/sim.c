// SPDX-License-Identifier: MIT
/*
 * The simulated drive: a page-mapped FTL in virtual time.
 *
 * Physical flash is an array of erase blocks.  A block in native mode holds
 * ppb mapping units; in SLC mode it holds ppb / bits_per_cell.  A physical
 * slot is block * ppb + index, so SLC blocks simply leave their upper slots
 * unused.  l2p maps host units to slots, p2l records which unit each slot
 * was written for; a slot is valid when l2p[p2l[p]] == p, so invalidation
 * never has to touch p2l.
 *
 * Blocks: free (in a free stack), open (being written: one each for SLC host
 * writes, native host writes and GC/fold destination) or full.  Full native
 * and dynamic-SLC blocks sit in buckets by valid count so that the greedy
 * GC victim (fewest valid units) is found in O(1) amortized.  Full SLC
 * blocks are also kept in fill order for folding.  Static SLC blocks form a
 * pool of their own: they never hold native data and never feed the general
 * free pool, so GC does not pick them (folding empties them).
 *
 * Time: the controller takes each command for the larger of its
 * per-command time and the link time, and no command completes sooner than
 * the interface and firmware latency after its submission; that path
 * overlaps the time a command waits in the queue, so one command at a time
 * pays it in full and a deep queue hides it.  Behind the controller the
 * write pipeline does the flash work a write causes (programs at the mode's
 * speed, GC copies, erases, map flushes) at the model's speeds, which are
 * those of the whole drive as the reviews measure them; writes are
 * acknowledged from a write buffer that may run write_buffer_ns of that work
 * ahead, so over many commands the throughput is set by the slower of
 * controller and pipeline.  The flash itself is an array of dies on
 * channels: a block's pages go round the dies (a block stands for a
 * superblock), each page program keeps its die busy for the mode's program time,
 * and work of the whole array (GC, erases, map flushes, folding) keeps every
 * die busy.  Dies slower than the pipeline hold the writes back.  A read
 * goes first on its die but cannot interrupt the operation in progress: it
 * waits for the current program to finish, takes the page read time of the
 * block's cell mode, pushes the die's queued writes back by that much, then
 * crosses its channel and the read data path.  That is why reads beside
 * writes are slow on TLC (programs take milliseconds) and why a deep queue
 * reads faster (more dies at once).  Reads may complete out of submission
 * order.  A gap with everything idle before the next submission is idle
 * time and runs background work (folding, idle GC) unit by unit, so it can
 * be cut short by the next I/O.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

#include "slcscope/core.h"
#include "private.h"

#define INV UINT32_MAX
#define EVQ 1024u
#define MAP_PAGE_SHIFT 10           /* a map page holds 1024 entries */

enum { B_FREE = 0, B_OPEN, B_FULL };
enum { M_NATIVE = 0, M_SLC };

/*
 * 32 bytes, in a table aligned to a cache line: host writes and GC reach
 * blocks at random, and an entry across two lines costs two misses.
 */
struct blk {
	uint32_t valid;              /* valid units */
	uint32_t written;            /* slots programmed */
	uint32_t bprev, bnext;       /* bucket list (full GC candidates) */
	uint32_t sprev, snext;       /* SLC fill-order list (full SLC blocks) */
	uint8_t state, mode, is_static, in_bucket, in_slc_list, fast;
	uint16_t die0;               /* die of its first page (< 64 x 64); the next pages follow */
};
_Static_assert(sizeof(struct blk) == 32, "struct blk fills half a cache line");

struct slc_sim {
	struct slc_sim_model m;
	uint32_t nunits;             /* host units */
	uint32_t nblocks, ppb, spb;  /* blocks, slots per native / SLC block */
	uint32_t unit_shift;         /* log2(unit_bytes) */
	uint64_t ppb_magic;          /* slot / ppb == (slot * ppb_magic) >> 64 */
	uint32_t nstatic;            /* static SLC blocks */
	uint32_t gc_thresh;          /* foreground GC keeps more free blocks than this */
	uint32_t *l2p, *p2l;
	struct blk *blk;
	uint32_t *free_gen, nfree_gen;
	uint32_t *free_static, nfree_static;
	uint32_t open_slc, open_native, open_gc;
	uint32_t *bucket;            /* heads by valid count, ppb + 1 of them */
	uint32_t min_hint;
	uint32_t slc_head, slc_tail; /* oldest, newest full SLC block */
	uint64_t mapped_units;
	uint64_t dyn_slots;          /* slots in dynamic SLC blocks not yet erased */
	uint64_t dyn_max_units;

	/* per-unit costs, ns */
	double slc_static_ns, slc_dynamic_ns, native_ns, copy_ns, fold_ns, idle_gc_ns;
	double io_ns, link_ns_per_byte, lat_ns;

	/* the flash array: dies on channels (times in ns, fractional) */
	uint32_t ndies, nch, page_shift;  /* slot >> page_shift: its page */
	uint32_t next_die;           /* where the stripe of the next block opened starts */
	uint64_t die_magic;          /* x / ndies == (x * die_magic) >> 64 */
	double tr_native_ns, tr_slc_ns, chan_ns_per_byte, rdp_ns_per_byte;
	double tp_native_ns, tp_slc_ns, tp_max_ns;  /* page programs */
	double tpu_native_ns, tpu_slc_ns;    /* a die's share of them per unit */
	double nand_free;            /* write pipeline free from here */
	double *die_free;            /* the die is done with its queued work here */
	double *die_rd;              /* end of its last read (reads go first) */
	double *die_op;              /* length of the write operation it is in */
	double *chan_free;           /* the channel's bus is free from here */
	double nand_max;             /* the latest die_free: the whole array idle from here */
	double rdp_free;             /* read data path (ECC) free from here */

	/* time */
	uint64_t busy_until;         /* controller free from here */
	uint64_t last_done;          /* latest completion answered */
	double prev_f;               /* the last write's service factor */
	int last_dir;                /* the last read or write: DIR_READ, DIR_WRITE, 0 before any */
	uint64_t trim_busy_until, trim_stall_until;
	uint32_t bg_victim, bg_pos;  /* background relocation in progress */
	int bg_is_fold;

	/* noise */
	uint64_t rng[4];
	double jitter[256];
	double ou_x;                 /* slow log-speed noise on native programs */
	double ou_f;                 /* exp(ou_x): the factor, kept between updates */
	uint64_t ou_t;

	/* DRAM-less map cache */
	uint32_t *map_tag;
	uint32_t map_slots;
	uint32_t journal, last_map_page;

	/* thermal */
	double temp_c;
	uint64_t therm_t, therm_bytes;
	int throttled;

	/* compression */
	double comp_ratio;
	uint32_t comp_tick;

	/* counters and events */
	struct slc_sim_counters c;
	uint64_t mark_host_bytes;
	int ev_cache_fired, ev_pool_fired, ev_host_fired, cache_had_data;
	struct slc_sim_event ev[EVQ];
	size_t ev_head, ev_n;
};

/*
 * Block of a slot without a division: m = ceil(2^64 / ppb) makes
 * (p * m) >> 64 exact for every 32-bit p (the error term stays under 1/ppb).
 */
static inline uint32_t blk_of(const struct slc_sim *s, uint32_t p)
{
	return (uint32_t)(((unsigned __int128)p * s->ppb_magic) >> 64);
}

/*
 * Block @b is opened in @mode: its pages continue the stripe where the last
 * block opened left it, so that every die gets its share whatever part of
 * a block a mode uses (a block as a superblock over all dies).
 */
static void open_stripe(struct slc_sim *s, uint32_t b, int mode)
{
	uint32_t slots = mode == M_SLC ? s->spb : s->ppb;

	s->blk[b].die0 = (uint16_t)s->next_die;
	s->next_die = (s->next_die + ((slots + (1u << s->page_shift) - 1) >> s->page_shift)) % s->ndies;
}

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rnd(struct slc_sim *s)
{
	uint64_t *r = s->rng, out = rotl(r[1] * 5, 7) * 9, t = r[1] << 17;
	r[2] ^= r[0]; r[3] ^= r[1]; r[1] ^= r[2]; r[0] ^= r[3]; r[2] ^= t; r[3] = rotl(r[3], 45);
	return out;
}

static double rnd_unit(struct slc_sim *s) { return ((double)(rnd(s) >> 11) + 0.5) / 9007199254740992.0; }

static double rnd_normal(struct slc_sim *s)
{
	double u1 = rnd_unit(s), u2 = rnd_unit(s);
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* ---- events ---- */

static const char *const event_names[SLC_SIM_EV__COUNT] = {
	"cache_exhausted", "free_pool_exhausted", "fold_done",
	"throttle_on", "throttle_off", "cache_capacity", "trim", "cache_end_host",
};

const char *slc_sim_event_name(enum slc_sim_event_kind kind)
{
	return (unsigned)kind < SLC_SIM_EV__COUNT ? event_names[kind] : "unknown";
}

static void event(struct slc_sim *s, enum slc_sim_event_kind kind, uint64_t t_ns, double value)
{
	struct slc_sim_event *e;

	if (s->ev_n == EVQ) {        /* full: drop the oldest */
		s->ev_head = (s->ev_head + 1) % EVQ;
		s->ev_n--;
	}
	e = &s->ev[(s->ev_head + s->ev_n++) % EVQ];
	e->kind = kind;
	e->t_ns = t_ns;
	e->host_bytes = s->c.host_write_bytes - s->mark_host_bytes;
	e->value = value;
}

size_t slc_sim_events(struct slc_sim *s, struct slc_sim_event *out, size_t max)
{
	size_t n = 0;

	while (n < max && s->ev_n) {
		out[n++] = s->ev[s->ev_head];
		s->ev_head = (s->ev_head + 1) % EVQ;
		s->ev_n--;
	}
	return n;
}

/* ---- block lists ---- */

static void bucket_insert(struct slc_sim *s, uint32_t b)
{
	struct blk *k = &s->blk[b];
	uint32_t v = k->valid;

	k->bprev = INV;
	k->bnext = s->bucket[v];
	if (k->bnext != INV) s->blk[k->bnext].bprev = b;
	s->bucket[v] = b;
	k->in_bucket = 1;
	if (v < s->min_hint) s->min_hint = v;
}

static void bucket_remove(struct slc_sim *s, uint32_t b)
{
	struct blk *k = &s->blk[b];

	if (k->bprev != INV) s->blk[k->bprev].bnext = k->bnext;
	else s->bucket[k->valid] = k->bnext;
	if (k->bnext != INV) s->blk[k->bnext].bprev = k->bprev;
	k->in_bucket = 0;
}

static void slc_list_append(struct slc_sim *s, uint32_t b)
{
	struct blk *k = &s->blk[b];

	k->snext = INV;
	k->sprev = s->slc_tail;
	if (s->slc_tail != INV) s->blk[s->slc_tail].snext = b;
	else s->slc_head = b;
	s->slc_tail = b;
	k->in_slc_list = 1;
}

static void slc_list_remove(struct slc_sim *s, uint32_t b)
{
	struct blk *k = &s->blk[b];

	if (k->sprev != INV) s->blk[k->sprev].snext = k->snext;
	else s->slc_head = k->snext;
	if (k->snext != INV) s->blk[k->snext].sprev = k->sprev;
	else s->slc_tail = k->sprev;
	k->in_slc_list = 0;
}

static void close_block(struct slc_sim *s, uint32_t b)
{
	struct blk *k = &s->blk[b];

	k->state = B_FULL;
	if (!k->is_static) bucket_insert(s, b);
	if (k->mode == M_SLC) slc_list_append(s, b);
}

static void erase_block(struct slc_sim *s, uint32_t b, double *cost)
{
	struct blk *k = &s->blk[b];

	if (k->in_bucket) bucket_remove(s, b);
	if (k->in_slc_list) slc_list_remove(s, b);
	if (k->mode == M_SLC && !k->is_static) s->dyn_slots -= s->spb;
	k->valid = 0;
	k->written = 0;
	k->state = B_FREE;
	k->mode = k->is_static ? M_SLC : M_NATIVE;
	k->fast = 0;
	if (k->is_static) s->free_static[s->nfree_static++] = b;
	else s->free_gen[s->nfree_gen++] = b;
	if (b == s->bg_victim) s->bg_victim = INV;
	s->c.erases++;
	*cost += s->m.erase_ns;
}

/* Invalidate the slot a unit was mapped to. */
static inline void invalidate(struct slc_sim *s, uint32_t p)
{
	uint32_t b = blk_of(s, p);
	struct blk *k = &s->blk[b];

	if (k->in_bucket) {
		bucket_remove(s, b);
		k->valid--;
		bucket_insert(s, b);
	} else {
		k->valid--;
	}
}

/* ---- allocation and garbage collection ---- */

static uint32_t pop_free(struct slc_sim *s)
{
	if (s->nfree_gen == 0) {
		/* Cannot happen with the over-provisioning slc_sim_open() demands. */
		fprintf(stderr, "slcscope: simulated drive ran out of free blocks (model bug)\n");
		abort();
	}
	return s->free_gen[--s->nfree_gen];
}

static uint32_t open_gc_slot(struct slc_sim *s)
{
	struct blk *k;

	if (s->open_gc == INV || s->blk[s->open_gc].written == s->ppb) {
		if (s->open_gc != INV) close_block(s, s->open_gc);
		s->open_gc = pop_free(s);
		k = &s->blk[s->open_gc];
		k->state = B_OPEN;
		k->mode = M_NATIVE;
		open_stripe(s, s->open_gc, M_NATIVE);
	}
	k = &s->blk[s->open_gc];
	return s->open_gc * s->ppb + k->written++;
}

/*
 * Move up to @max valid units of block @b, from slot index *pos on, to the
 * GC destination.  Returns the number of slots examined; *moved counts the
 * units copied.
 */
static uint32_t relocate(struct slc_sim *s, uint32_t b, uint32_t *pos, uint32_t max, uint32_t *moved)
{
	struct blk *k = &s->blk[b];
	uint32_t i = *pos, n = 0, base = b * s->ppb;

	*moved = 0;
	for (; i < k->written && *moved < max; i++, n++) {
		uint32_t p = base + i, u = s->p2l[p], np;
		/* the validity checks hit l2p at random: fetch a few slots ahead */
		if (i + 16 < k->written && s->p2l[p + 16] != INV)
			__builtin_prefetch(&s->l2p[s->p2l[p + 16]], 0, 0);
		if (u == INV || s->l2p[u] != p) continue;
		np = open_gc_slot(s);
		s->l2p[u] = np;
		s->p2l[np] = u;
		s->blk[blk_of(s, np)].valid++;
		(*moved)++;
	}
	/* the moved units are no longer valid here */
	if (k->in_bucket) {
		bucket_remove(s, b);
		k->valid -= *moved;
		bucket_insert(s, b);
	} else {
		k->valid -= *moved;
	}
	*pos = i;
	return n;
}

static uint32_t pick_victim(struct slc_sim *s)
{
	for (uint32_t v = s->min_hint; v <= s->ppb; v++) {
		if (s->bucket[v] != INV) {
			s->min_hint = v;
			return s->bucket[v];
		}
	}
	s->min_hint = s->ppb + 1;
	return INV;
}

/* One foreground GC step: collect the block with the fewest valid units. */
static int gc_one(struct slc_sim *s, double *cost)
{
	uint32_t b = pick_victim(s), pos = 0, moved;
	struct blk *k;

	if (b == INV)
		return 0;
	k = &s->blk[b];
	/* nothing to gain from a fully valid native block */
	if (k->mode == M_NATIVE && k->valid >= s->ppb)
		return 0;
	relocate(s, b, &pos, UINT32_MAX, &moved);
	*cost += moved * s->copy_ns;
	s->c.gc_copy_bytes += (uint64_t)moved * s->m.unit_bytes;
	s->c.nand_write_bytes += (uint64_t)moved * s->m.unit_bytes;
	erase_block(s, b, cost);
	return 1;
}

/* Take a free general block for host data, collecting garbage first if needed. */
static uint32_t take_block(struct slc_sim *s, double *cost, uint64_t now_ns)
{
	while (s->nfree_gen <= s->gc_thresh) {
		if (!s->ev_pool_fired) {
			s->ev_pool_fired = 1;
			event(s, SLC_SIM_EV_FREE_POOL_EXHAUSTED, now_ns, 0);
		}
		if (!gc_one(s, cost))
			break;
	}
	return pop_free(s);
}

/* ---- the SLC cache ---- */

static uint64_t dyn_limit_slots(const struct slc_sim *s)
{
	double unwritten = (double)(s->nunits - s->mapped_units);
	double lim = s->m.slc_dynamic_free_ratio * unwritten;

	if (lim > (double)s->dyn_max_units) lim = (double)s->dyn_max_units;
	return (uint64_t)lim;
}

/* May a new dynamic SLC block be opened now? */
static int dyn_room(const struct slc_sim *s)
{
	return s->dyn_max_units && s->dyn_slots + s->spb <= dyn_limit_slots(s) &&
	       s->nfree_gen > s->gc_thresh + 1;
}

uint64_t slc_sim_cache_free_bytes(const struct slc_sim *s)
{
	uint64_t slots = (uint64_t)s->nfree_static * s->spb;
	uint64_t lim = dyn_limit_slots(s);

	if (s->open_slc != INV)
		slots += s->spb - s->blk[s->open_slc].written;
	if (s->dyn_max_units && lim > s->dyn_slots) {
		uint64_t d = (lim - s->dyn_slots) / s->spb * s->spb;
		uint64_t phys = s->nfree_gen > s->gc_thresh + 1 ?
			(uint64_t)(s->nfree_gen - s->gc_thresh - 1) * s->spb : 0;
		slots += d < phys ? d : phys;
	}
	return slots * s->m.unit_bytes;
}

/* A slot in the open SLC block, opening one if the cache has room; INV if not. */
static uint32_t slc_slot(struct slc_sim *s, double *unit_ns)
{
	struct blk *k;

	if (s->open_slc != INV && s->blk[s->open_slc].written == s->spb) {
		close_block(s, s->open_slc);
		s->open_slc = INV;
	}
	if (s->open_slc == INV) {
		uint32_t b;
		if (s->nfree_static) {
			b = s->free_static[--s->nfree_static];
		} else if (dyn_room(s)) {
			b = pop_free(s);
			/* two-tier caches: the first dynamic blocks program faster */
			s->blk[b].fast = s->dyn_slots < s->m.slc_fast_tier_bytes / s->m.unit_bytes;
			s->dyn_slots += s->spb;
		} else {
			return INV;
		}
		k = &s->blk[b];
		k->state = B_OPEN;
		k->mode = M_SLC;
		s->open_slc = b;
		open_stripe(s, b, M_SLC);
	}
	k = &s->blk[s->open_slc];
	*unit_ns = k->is_static || k->fast ? s->slc_static_ns : s->slc_dynamic_ns;
	s->cache_had_data = 1;
	return s->open_slc * s->ppb + k->written++;
}

/*
 * Continue the background relocation of bg_victim by up to @max units at
 * @unit_ns each, counting the bytes in *@counter; erase it when done.
 * Returns the slots examined, at least 1 so that callers make progress.
 */
static uint32_t bg_advance(struct slc_sim *s, uint32_t max, double unit_ns, double *cost, uint64_t *counter)
{
	uint32_t moved, n = relocate(s, s->bg_victim, &s->bg_pos, max, &moved);

	*cost += moved * unit_ns;
	*counter += (uint64_t)moved * s->m.unit_bytes;
	s->c.nand_write_bytes += (uint64_t)moved * s->m.unit_bytes;
	if (s->bg_pos >= s->blk[s->bg_victim].written)
		erase_block(s, s->bg_victim, cost);
	return n ? n : 1;
}

/*
 * Fold up to @max units of the oldest SLC block into native blocks; the open
 * SLC block counts once no full one is left.  Returns units examined, 0 when
 * the cache is empty.
 */
static uint32_t fold_step(struct slc_sim *s, uint32_t max, double unit_ns, double *cost, uint64_t now_ns)
{
	/* folding consumes native blocks; leave the last ones to foreground GC */
	if (s->nfree_gen <= 2)
		return 0;
	if (s->bg_victim == INV || !s->bg_is_fold) {
		uint32_t b = s->slc_head;
		if (b == INV && s->open_slc != INV && s->blk[s->open_slc].written) {
			b = s->open_slc;
			s->open_slc = INV;
			close_block(s, b);
		}
		if (b == INV) {
			if (s->cache_had_data) {
				s->cache_had_data = 0;
				event(s, SLC_SIM_EV_FOLD_DONE, now_ns, 0);
			}
			return 0;
		}
		s->bg_victim = b;
		s->bg_pos = 0;
		s->bg_is_fold = 1;
	}
	return bg_advance(s, max, unit_ns, cost, &s->c.fold_bytes);
}

/* One step of idle GC, like fold_step(); 0 when nothing is worth doing. */
static uint32_t idle_gc_step(struct slc_sim *s, uint32_t max, double *cost)
{
	uint64_t free_bytes = (uint64_t)s->nfree_gen * s->ppb * s->m.unit_bytes;

	if (s->nfree_gen <= 2)
		return 0;
	if (s->bg_victim == INV || s->bg_is_fold) {
		uint32_t b = pick_victim(s);
		/* every drive erases blocks that hold nothing valid (after a
		 * TRIM, say) when it has time; collecting blocks with valid data
		 * is what the model's idle GC setting and target decide */
		if (b == INV)
			return 0;
		if (s->blk[b].valid > 0 && (!s->m.idle_gc || free_bytes >= s->m.idle_gc_target_bytes ||
					    s->blk[b].valid >= s->ppb * 9 / 10))
			return 0;
		s->bg_victim = b;
		s->bg_pos = 0;
		s->bg_is_fold = 0;
	}
	return bg_advance(s, max, s->idle_gc_ns, cost, &s->c.gc_copy_bytes);
}

/* ---- thermal model ---- */

static void thermal_update(struct slc_sim *s, uint64_t now_ns)
{
	double dt, p, target, a;

	if (!s->m.thermal_enabled || now_ns < s->therm_t + 1000000ull)
		return;
	dt = (double)(now_ns - s->therm_t) * 1e-9;
	p = s->m.idle_w + s->m.write_nj_per_byte * 1e-9 * (double)s->therm_bytes / dt;
	target = s->m.ambient_c + s->m.c_per_w * p;
	a = 1.0 - exp(-dt / s->m.thermal_tau_s);
	s->temp_c += (target - s->temp_c) * a;
	s->therm_t = now_ns;
	s->therm_bytes = 0;
	if (!s->throttled && s->temp_c >= s->m.throttle_c) {
		s->throttled = 1;
		s->c.throttle_transitions++;
		event(s, SLC_SIM_EV_THROTTLE_ON, now_ns, s->temp_c);
	} else if (s->throttled && s->temp_c < s->m.throttle_c - s->m.throttle_hysteresis_c) {
		s->throttled = 0;
		event(s, SLC_SIM_EV_THROTTLE_OFF, now_ns, s->temp_c);
	}
}

/* ---- the flash array ---- */

/* The die that holds slot @p: a block's pages go round the dies. */
static inline uint32_t die_of(const struct slc_sim *s, uint32_t p)
{
	uint32_t b = blk_of(s, p), x = s->blk[b].die0 + ((p - b * s->ppb) >> s->page_shift);

	/* x % ndies without a division, as blk_of() */
	return s->ndies == 1 ? 0 : x - s->ndies * (uint32_t)(((unsigned __int128)x * s->die_magic) >> 64);
}

/* Queue @ns of work on die @d, not before @start; @op: the operation it is part of. */
static inline void die_queue(struct slc_sim *s, uint32_t d, double start, double ns, double op)
{
	/* in a local: through the pointer, the store to die_op[] (which the
	 * compiler cannot tell apart from die_free[]) forces a reload */
	double f = s->die_free[d];

	if (f < start) f = start;
	f += ns;
	s->die_free[d] = f;
	s->die_op[d] = op;
	if (f > s->nand_max) s->nand_max = f;
}

/* The end of all flash work queued: write pipeline and dies. */
static inline double flash_end(const struct slc_sim *s)
{
	return s->nand_free > s->nand_max ? s->nand_free : s->nand_max;
}

/* Work of the whole array (GC, erases, map flushes, folding): @ns on every die. */
static void dies_all(struct slc_sim *s, double start, double ns)
{
	for (uint32_t d = 0; d < s->ndies; d++)
		die_queue(s, d, start, ns, s->tp_native_ns);
}

/*
 * A page read of @ns on die @d issued at @t: behind the reads already queued
 * there, else behind the end of the program or erase in progress (the model
 * has no program suspend); the die's queued writes move back by @ns.
 * Returns when the page is in the die's register.
 */
static double die_read(struct slc_sim *s, uint32_t d, double t, double ns)
{
	double b = t, *f = &s->die_free[d];

	if (s->die_rd[d] > b) {
		b = s->die_rd[d];
	} else if (*f > b) {
		double left = *f - b, op = s->die_op[d];
		/* the work queued is a train of operations ending at *f */
		b += op > 0 && left > op ? fmod(left, op) : left;
	}
	s->die_rd[d] = b + ns;
	if (*f > b) *f += ns;
	else *f = b + ns;
	if (*f > s->nand_max) s->nand_max = *f;
	return b + ns;
}

/* @bytes from die @d's register over its channel, from @ready on; returns the end. */
static double chan_xfer(struct slc_sim *s, uint32_t d, double ready, double bytes)
{
	double *c = &s->chan_free[d % s->nch];

	if (*c < ready) *c = ready;
	*c += bytes * s->chan_ns_per_byte;
	return *c;
}

/* ---- background work in idle gaps ---- */

static void background(struct slc_sim *s, uint64_t until_ns)
{
	uint64_t t = s->last_done > (uint64_t)flash_end(s) ? s->last_done : (uint64_t)flash_end(s);

	while (t < until_ns) {
		double budget = (double)(until_ns - t), cost = 0;
		uint32_t max = (uint32_t)(budget / s->fold_ns) + 1, n;

		if (max > 256) max = 256;
		n = fold_step(s, max, s->fold_ns, &cost, t);
		if (n == 0) {
			max = (uint32_t)(budget / s->idle_gc_ns) + 1;
			if (max > 256) max = 256;
			n = idle_gc_step(s, max, &cost);
		}
		if (n == 0)
			break;
		t += (uint64_t)cost + 1;
	}
	/* background work keeps pipeline and dies busy */
	if ((double)t > s->nand_free)
		s->nand_free = (double)t;
	if ((double)t > s->nand_max)
		dies_all(s, (double)t, 0);
	if (s->m.thermal_enabled)
		thermal_update(s, until_ns > s->busy_until ? until_ns : s->busy_until);
}

void slc_sim_idle(struct slc_sim *s, uint64_t until_ns)
{
	if ((double)until_ns > flash_end(s) && until_ns > s->last_done)
		background(s, until_ns);
}

/* ---- host I/O ---- */

static inline double native_noise(struct slc_sim *s, uint64_t now_ns)
{
	double dt;

	if (s->m.native_sigma <= 0)
		return 1.0;
	if (now_ns >= s->ou_t + 1000000ull) {   /* update the slow noise each virtual ms */
		double a;
		dt = (double)(now_ns - s->ou_t) * 1e-9;
		a = exp(-dt / s->m.native_tau_s);
		s->ou_x = s->ou_x * a + s->m.native_sigma * sqrt(1 - a * a) * rnd_normal(s);
		s->ou_t = now_ns;
		s->ou_f = exp(s->ou_x);
	}
	return s->ou_f;
}

static inline double map_cost(struct slc_sim *s, uint32_t u, int is_write)
{
	uint32_t mp = u >> MAP_PAGE_SHIFT, slot;
	double cost = 0;

	if (!s->map_tag)
		return 0;
	slot = mp % s->map_slots;
	if (s->map_tag[slot] != mp) {
		s->map_tag[slot] = mp;
		cost += s->m.map_miss_ns;
	}
	if (is_write && mp != s->last_map_page) {
		s->last_map_page = mp;
		if (++s->journal >= s->m.map_journal_entries) {
			cost += s->journal * s->m.map_flush_entry_ns;
			s->journal = 0;
			s->c.map_flushes++;
		}
	}
	return cost;
}

static double compress_ratio(struct slc_sim *s, const void *data, uint32_t len)
{
	unsigned char out[8192];
	uLongf outlen = sizeof(out);
	uLong inlen = len < 4096 ? len : 4096;

	if (!s->m.compression || !data || !inlen)
		return 1.0;
	if ((s->comp_tick++ & 15) == 0) {   /* sample one write in 16 */
		if (compress2(out, &outlen, data, inlen, 1) == Z_OK && outlen < inlen)
			s->comp_ratio = (double)outlen / (double)inlen;
		else
			s->comp_ratio = 1.0;
		if (s->comp_ratio < 0.1) s->comp_ratio = 0.1;
	}
	return s->comp_ratio;
}

enum { DIR_WRITE = 1, DIR_READ = 2 };

/*
 * The controller's extra time for a command that goes the other way from
 * the one before it (the model's duplex_penalty, in multiples of the
 * command's own controller time).  Consumer controllers handle reads
 * mixed with writes badly: the reviews measure a U-shaped curve of
 * throughput against the read share on MLC drives whose reads and writes
 * alone both run at the link (the 850 Pro's 128 KiB mix falls to half in
 * the middle), which the dies alone do not explain.  Pure reads or writes
 * never pay it.
 */
static inline double turn(struct slc_sim *s, int dir)
{
	double k = s->last_dir && s->last_dir != dir ? 1 + s->m.duplex_penalty : 1;

	s->last_dir = dir;
	return k;
}

/* Per-command service factor: the jitter, and the throttle when hot. */
static inline double io_factor(struct slc_sim *s)
{
	double f = s->jitter[rnd(s) >> 56];

	return s->throttled ? f * s->m.throttle_factor : f;
}

/*
 * The controller's part of a write or TRIM at @start; its completion
 * (before the latency floor) once the write pipeline is no more than
 * @window_ns behind: writes are acknowledged from the write buffer.
 */
static uint64_t finish_io(struct slc_sim *s, uint64_t start, double f, uint32_t len, double window_ns)
{
	double ctrl = s->io_ns, link = len * s->link_ns_per_byte, done;

	if (link > ctrl) ctrl = link;
	ctrl = (double)start + ctrl * f;
	done = s->nand_free - window_ns;
	/* the buffer also holds the pages the dies are programming: they
	 * hold writes back only when further behind than one program */
	if (s->nand_max - window_ns - s->tp_max_ns > done)
		done = s->nand_max - window_ns - s->tp_max_ns;
	if (ctrl > done) done = ctrl;
	s->busy_until = (uint64_t)ctrl + 1;
	return (uint64_t)done + 1;
}

/*
 * The answer to the host for a command submitted at @submit_ns and done
 * inside at @done: no sooner than the interface and firmware latency after
 * its submission.  That path overlaps the time a command waits in the
 * queue, so a deep queue hides it and one command at a time pays it.
 */
static uint64_t answer(struct slc_sim *s, uint64_t submit_ns, uint64_t done)
{
	if (done < submit_ns + (uint64_t)s->lat_ns)
		done = submit_ns + (uint64_t)s->lat_ns;
	if (done > s->last_done) s->last_done = done;
	return done;
}

static uint64_t start_time(struct slc_sim *s, uint64_t submit_ns)
{
	if (submit_ns > s->last_done && (double)submit_ns > flash_end(s))
		background(s, submit_ns);
	return submit_ns > s->busy_until ? submit_ns : s->busy_until;
}

/*
 * Place unit @u of a host write and put its program on its die.  Returns
 * the write pipeline's work for it; *@array gets the work of the whole
 * array it caused (GC, folding to make room, map updates), included.
 */
static double write_unit(struct slc_sim *s, uint64_t u, uint64_t start, double ratio, double f, double *array)
{
	uint32_t old, p;
	double unit_ns, die_ns, op, cost = 0, noise;

	p = slc_slot(s, &unit_ns);
	if (p == INV && s->m.when_full == SLC_SIM_FULL_FOLD && s->slc_head != INV) {
		/* make room in the cache by folding its oldest block now */
		while (s->slc_head != INV && fold_step(s, UINT32_MAX, s->fold_ns, &cost, start)) {
			if (s->bg_victim == INV) break;
		}
		p = slc_slot(s, &unit_ns);
	}
	if (p == INV) {
		if (!s->ev_cache_fired) {
			s->ev_cache_fired = 1;
			event(s, SLC_SIM_EV_CACHE_EXHAUSTED, start, 0);
		}
		if (s->open_native == INV || s->blk[s->open_native].written == s->ppb) {
			if (s->open_native != INV) close_block(s, s->open_native);
			s->open_native = take_block(s, &cost, start);
			s->blk[s->open_native].state = B_OPEN;
			s->blk[s->open_native].mode = M_NATIVE;
			open_stripe(s, s->open_native, M_NATIVE);
		}
		p = s->open_native * s->ppb + s->blk[s->open_native].written++;
		/* a slow spell of the flash slows its programs on the die too */
		noise = native_noise(s, start);
		unit_ns = s->native_ns * noise;
		die_ns = s->tpu_native_ns * noise;
		op = s->tp_native_ns;
	} else {
		s->c.slc_write_bytes += s->m.unit_bytes;
		die_ns = s->tpu_slc_ns;
		op = s->tp_slc_ns;
	}
	/* invalidate after placing: the old slot may sit in a GC victim */
	old = s->l2p[u];
	if (old != INV) invalidate(s, old);
	else s->mapped_units++;
	s->l2p[u] = p;
	s->p2l[p] = (uint32_t)u;
	s->blk[blk_of(s, p)].valid++;
	die_queue(s, die_of(s, p), (double)start, die_ns * ratio * f, op);
	s->c.nand_write_bytes += (uint64_t)(s->m.unit_bytes * ratio);
	cost += map_cost(s, (uint32_t)u, 1);
	*array += cost;
	return cost + unit_ns * ratio;
}

uint64_t slc_sim_write(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint32_t len,
		       const void *data)
{
	uint64_t start = start_time(s, submit_ns), u0, u1, done;
	/* the dies take the previous command's factor (the factors are
	 * independent) so that this one is drawn after the slow noise's draws:
	 * the order of draws the presets' write curves were calibrated with */
	double cost = 0, array = 0, ratio, fd = s->prev_f, f;

	if (len == 0 || offset >= s->m.capacity_bytes) {
		s->prev_f = io_factor(s);
		return answer(s, submit_ns, finish_io(s, start, s->prev_f, len, s->m.write_buffer_ns));
	}
	if (offset + len > s->m.capacity_bytes)
		len = (uint32_t)(s->m.capacity_bytes - offset);
	ratio = compress_ratio(s, data, len);
	u0 = offset >> s->unit_shift;
	u1 = (offset + len - 1) >> s->unit_shift;
	for (uint64_t u = u0; u <= u1; u++)
		cost += write_unit(s, u, start, ratio, fd, &array);
	s->c.host_write_bytes += len;
	if (s->m.thermal_enabled) {
		s->therm_bytes += len;
		thermal_update(s, start);
	}
	f = s->prev_f = io_factor(s);        /* throttled from this write on */
	if (array > 0)
		dies_all(s, (double)start, array * f);
	if (s->nand_free < (double)start) s->nand_free = (double)start;
	s->nand_free += cost * f;
	done = finish_io(s, start, f * turn(s, DIR_WRITE), len, s->m.write_buffer_ns);
	/* ground truth only: the host sees the cache end when completions
	 * start to wait on the flash (the buffer is full of native work); the
	 * event is timed at that completion and counts this write's bytes */
	if (s->ev_cache_fired && !s->ev_host_fired && done > s->busy_until) {
		s->ev_host_fired = 1;
		event(s, SLC_SIM_EV_CACHE_END_HOST, done, 0);
	}
	return answer(s, submit_ns, done);
}

/*
 * Read the units [u0, u1] from @start on with page reads @slow times
 * longer; returns when the last byte has crossed the read data path
 * (@start when nothing is mapped: such reads are answered from the map).
 */
static double read_flash(struct slc_sim *s, uint64_t u0, uint64_t u1, double start, double slow)
{
	double done = start, end = 0, bytes = 0, mapped = 0;
	uint32_t page = INV, d = 0;

	for (uint64_t u = u0; u <= u1; u++) {
		uint32_t p = s->l2p[u];
		double miss;

		if (p == INV)
			continue;
		miss = map_cost(s, (uint32_t)u, 0);     /* a map page read first */
		if ((p >> s->page_shift) != page || miss > 0) {
			if (page != INV) {
				double x = chan_xfer(s, d, end, bytes);
				if (x > done) done = x;
			}
			page = p >> s->page_shift;
			d = die_of(s, p);
			end = die_read(s, d, start, miss + slow *
				       (s->blk[blk_of(s, p)].mode == M_SLC ? s->tr_slc_ns : s->tr_native_ns));
			bytes = 0;
		}
		bytes += s->m.unit_bytes;
		mapped += s->m.unit_bytes;
	}
	if (page == INV)
		return start;
	end = chan_xfer(s, d, end, bytes);
	if (end > done) done = end;
	if (s->rdp_free < done) s->rdp_free = done;
	s->rdp_free += mapped * s->rdp_ns_per_byte;
	return s->rdp_free;
}

uint64_t slc_sim_read(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint32_t len)
{
	uint64_t start = start_time(s, submit_ns);
	double f = io_factor(s), slow = 1, ctrl, done;

	if (start < s->trim_stall_until)
		start = s->trim_stall_until;
	if (start < s->trim_busy_until)
		slow = s->m.trim_read_slowdown;
	ctrl = s->io_ns;
	if (len * s->link_ns_per_byte > ctrl) ctrl = len * s->link_ns_per_byte;
	ctrl = (double)start + ctrl * f * slow * turn(s, DIR_READ);
	done = ctrl;
	if (len && offset < s->m.capacity_bytes) {
		/* the firmware has the command decoded before its page reads start */
		double issue = (double)submit_ns + s->lat_ns, flash;

		if (issue < (double)start) issue = (double)start;
		if (offset + len > s->m.capacity_bytes)
			len = (uint32_t)(s->m.capacity_bytes - offset);
		flash = read_flash(s, offset >> s->unit_shift, (offset + len - 1) >> s->unit_shift,
				   issue, slow * f);
		if (flash > done) done = flash;
	}
	s->busy_until = (uint64_t)ctrl + 1;
	s->c.host_read_bytes += len;
	return answer(s, submit_ns, (uint64_t)done + 1);
}

uint64_t slc_sim_trim(struct slc_sim *s, uint64_t submit_ns, uint64_t offset, uint64_t len)
{
	uint64_t start = start_time(s, submit_ns), u0, u1, trimmed = 0, done;

	if (len && offset < s->m.capacity_bytes) {
		if (len > s->m.capacity_bytes - offset)
			len = s->m.capacity_bytes - offset;
		/* whole units only: a partial unit at either end stays mapped */
		u0 = (offset + s->m.unit_bytes - 1) / s->m.unit_bytes;
		u1 = (offset + len) / s->m.unit_bytes;
		for (uint64_t u = u0; u < u1; u++) {
			if (s->l2p[u] == INV) continue;
			invalidate(s, s->l2p[u]);
			s->l2p[u] = INV;
			s->mapped_units--;
			trimmed++;
		}
	}
	s->c.host_trim_bytes += len;
	/* a TRIM waits for the flash work queued before it */
	done = answer(s, submit_ns, finish_io(s, start, io_factor(s), 0, 0));
	if (trimmed) {
		double bg = (double)trimmed * s->m.unit_bytes / s->m.trim_process_bps * 1e9;
		uint64_t stall = (uint64_t)(bg < s->m.trim_read_stall_ns ? bg : s->m.trim_read_stall_ns);
		s->trim_busy_until = done + (uint64_t)bg;
		s->trim_stall_until = done + stall;
	}
	event(s, SLC_SIM_EV_TRIM, done, (double)trimmed * s->m.unit_bytes);
	return done;
}

void slc_sim_mark(struct slc_sim *s, uint64_t now_ns)
{
	s->mark_host_bytes = s->c.host_write_bytes;
	s->ev_cache_fired = 0;
	s->ev_pool_fired = 0;
	s->ev_host_fired = 0;
	event(s, SLC_SIM_EV_CACHE_CAPACITY, now_ns, (double)slc_sim_cache_free_bytes(s));
}

void slc_sim_get_counters(const struct slc_sim *s, struct slc_sim_counters *out)
{
	*out = s->c;
	out->temp_c = s->m.thermal_enabled ? s->temp_c : NAN;
	out->throttled = s->throttled;
}

const struct slc_sim_model *slc_sim_model_of(const struct slc_sim *s)
{
	return &s->m;
}

uint64_t slc_sim_memory_bytes(const struct slc_sim *s)
{
	return sizeof(*s) + (uint64_t)s->nunits * 4 + (uint64_t)s->nblocks * s->ppb * 4 +
	       (uint64_t)s->nblocks * (sizeof(struct blk) + 8) + (uint64_t)(s->ppb + 1) * 4 +
	       (uint64_t)s->map_slots * 4 + (uint64_t)(3 * s->ndies + s->nch) * sizeof(double);
}

/* ---- construction ---- */

/*
 * The mapping tables are hit at random: back them with transparent huge
 * pages where the kernel allows, which removes most TLB misses.
 */
static void *table_alloc(size_t bytes)
{
	size_t align = 2u << 20, len = (bytes + align - 1) / align * align;
	void *p = aligned_alloc(align, len);

	if (p)
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void slc_sim_prefetch(const struct slc_sim *s, uint64_t offset)
{
	if (offset < s->m.capacity_bytes)
		__builtin_prefetch(&s->l2p[offset >> s->unit_shift], 1, 0);
}


void slc_sim_close(struct slc_sim *s)
{
	if (!s)
		return;
	free(s->l2p);
	free(s->p2l);
	free(s->blk);
	free(s->free_gen);
	free(s->free_static);
	free(s->bucket);
	free(s->map_tag);
	free(s->die_free);
	free(s);
}

/* Per-unit costs, the controller, the dies and channels of @m; -ENOMEM. */
static int setup_timing(struct slc_sim *s, const struct slc_sim_model *m)
{
	s->slc_static_ns = m->unit_bytes / m->slc_static_bps * 1e9;
	s->slc_dynamic_ns = m->unit_bytes / m->slc_dynamic_bps * 1e9;
	s->native_ns = m->unit_bytes / m->native_bps * 1e9;
	s->copy_ns = m->unit_bytes / m->gc_copy_bps * 1e9;
	s->fold_ns = m->unit_bytes / m->fold_idle_bps * 1e9;
	s->idle_gc_ns = m->unit_bytes / m->idle_gc_bps * 1e9;
	s->io_ns = 1e9 / m->max_iops;
	s->link_ns_per_byte = 1e9 / m->link_bps;
	s->lat_ns = m->latency_ns;
	s->nch = m->channels;
	s->ndies = m->channels * m->dies_per_channel;
	s->die_magic = s->ndies > 1 ? (uint64_t)(((unsigned __int128)1 << 64) / s->ndies) + 1 : 0;
	s->page_shift = (uint32_t)__builtin_ctz(m->page_bytes / m->unit_bytes);
	s->tp_native_ns = m->prog_native_ns;
	s->tp_slc_ns = m->prog_slc_ns;
	s->tp_max_ns = m->prog_native_ns > m->prog_slc_ns ? m->prog_native_ns : m->prog_slc_ns;
	s->tpu_native_ns = m->prog_native_ns * m->unit_bytes / m->page_bytes;
	s->tpu_slc_ns = m->prog_slc_ns * m->unit_bytes / m->page_bytes;
	s->tr_native_ns = m->read_native_ns;
	s->tr_slc_ns = m->read_slc_ns;
	s->chan_ns_per_byte = 1e9 / m->channel_bps;
	s->rdp_ns_per_byte = 1e9 / m->read_bps;
	/* one allocation: queue end, last read, operation per die; channels */
	s->die_free = calloc(3 * (size_t)s->ndies + s->nch, sizeof(double));
	if (!s->die_free)
		return -ENOMEM;
	s->die_rd = s->die_free + s->ndies;
	s->die_op = s->die_rd + s->ndies;
	s->chan_free = s->die_op + s->ndies;
	return 0;
}

int slc_sim_open(struct slc_sim **out, const struct slc_sim_model *m, uint64_t seed,
		 char *err, size_t errlen)
{
	struct slc_sim *s;
	uint64_t nunits = m->capacity_bytes / m->unit_bytes;
	uint64_t nblocks = m->raw_bytes / m->block_bytes;
	uint64_t ppb = m->block_bytes / m->unit_bytes, spb = ppb / m->bits_per_cell;
	uint64_t nstatic = spb ? (m->slc_static_bytes / m->unit_bytes + spb - 1) / spb : 0;
	uint64_t thresh, native_room;
	int rc = -ENOMEM;

	*out = NULL;
	if (nunits == 0 || nblocks < 8 || spb == 0)
		return slc_errf(err, errlen, -EINVAL, "%s: too small a drive", m->name);
	if (nblocks * ppb >= INV || nunits >= INV)
		return slc_errf(err, errlen, -EINVAL,
			    "%s: over 2^32 mapping units; use a larger mapping unit", m->name);
	thresh = (uint64_t)(m->gc_free_fraction * (double)nblocks);
	if (thresh < 4) thresh = 4;
	/* native room must hold every host unit plus the GC reserve and open blocks */
	native_room = (nblocks - nstatic) * ppb;
	if (native_room < nunits + (thresh + 4) * ppb)
		return slc_errf(err, errlen, -EINVAL,
			    "%s: not enough flash: %llu native slots for %llu host units plus the GC reserve",
			    m->name, (unsigned long long)native_room, (unsigned long long)nunits);

	s = calloc(1, sizeof(*s));
	if (!s)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	s->m = *m;
	s->nunits = (uint32_t)nunits;
	s->nblocks = (uint32_t)nblocks;
	s->ppb = (uint32_t)ppb;
	s->spb = (uint32_t)spb;
	s->nstatic = (uint32_t)nstatic;
	s->unit_shift = (uint32_t)__builtin_ctz(m->unit_bytes);
	s->ppb_magic = ppb > 1 ? (uint64_t)(((unsigned __int128)1 << 64) / ppb) + 1 : 0;
	s->gc_thresh = (uint32_t)thresh;
	s->dyn_max_units = m->slc_dynamic_max_bytes / m->unit_bytes;
	s->l2p = table_alloc(nunits * sizeof(*s->l2p));
	s->p2l = table_alloc(nblocks * ppb * sizeof(*s->p2l));
	s->blk = table_alloc(nblocks * sizeof(*s->blk));
	s->free_gen = malloc(nblocks * sizeof(*s->free_gen));
	s->free_static = malloc((nstatic + 1) * sizeof(*s->free_static));
	s->bucket = malloc((ppb + 1) * sizeof(*s->bucket));
	if (!s->l2p || !s->p2l || !s->blk || !s->free_gen || !s->free_static || !s->bucket) {
		slc_errf(err, errlen, rc, "%s: out of memory for the mapping tables (%.0f MiB)", m->name,
		     (double)(nunits + nblocks * ppb) * 4 / 1048576.0);
		goto out;
	}
	memset(s->l2p, 0xff, nunits * sizeof(*s->l2p));
	memset(s->p2l, 0xff, nblocks * ppb * sizeof(*s->p2l));
	memset(s->blk, 0, nblocks * sizeof(*s->blk));
	for (uint32_t v = 0; v <= ppb; v++) s->bucket[v] = INV;
	s->min_hint = (uint32_t)ppb + 1;
	/* static SLC blocks first, then the general pool; pop order: low ids first */
	for (uint64_t b = 0; b < nblocks; b++) {
		s->blk[b].bprev = s->blk[b].bnext = s->blk[b].sprev = s->blk[b].snext = INV;
		if (b < nstatic) {
			s->blk[b].is_static = 1;
			s->blk[b].mode = M_SLC;
		}
	}
	for (uint64_t b = nstatic; b-- > 0;) s->free_static[s->nfree_static++] = (uint32_t)b;
	for (uint64_t b = nblocks; b-- > nstatic;) s->free_gen[s->nfree_gen++] = (uint32_t)b;
	s->open_slc = s->open_native = s->open_gc = INV;
	s->slc_head = s->slc_tail = INV;
	s->bg_victim = INV;

	if (setup_timing(s, m)) {
		slc_errf(err, errlen, rc, "out of memory");
		goto out;
	}

	for (int i = 0; i < 4; i++) s->rng[i] = splitmix(&seed);
	/* 256 lognormal factors with mean 1 at evenly spaced normal quantiles */
	for (int i = 0; i < 256; i++) {
		double q = (i + 0.5) / 256.0, z;
		/* inverse normal CDF by bisection on erfc: cheap, done once */
		double lo = -8, hi = 8;
		for (int k = 0; k < 60; k++) {
			z = 0.5 * (lo + hi);
			if (0.5 * erfc(-z / sqrt(2.0)) < q) lo = z; else hi = z;
		}
		z = 0.5 * (lo + hi);
		s->jitter[i] = exp(m->io_jitter_sigma * z - 0.5 * m->io_jitter_sigma * m->io_jitter_sigma);
	}
	if (m->map_cache_entries) {
		s->map_slots = (uint32_t)((m->map_cache_entries >> MAP_PAGE_SHIFT) ? (m->map_cache_entries >> MAP_PAGE_SHIFT) : 1);
		s->map_tag = malloc(s->map_slots * sizeof(*s->map_tag));
		if (!s->map_tag) {
			slc_errf(err, errlen, rc, "out of memory");
			goto out;
		}
		memset(s->map_tag, 0xff, s->map_slots * sizeof(*s->map_tag));
		s->last_map_page = INV;
	}
	s->temp_c = m->ambient_c;
	s->comp_ratio = 1.0;
	s->prev_f = 1.0;
	s->ou_f = 1.0;
	*out = s;
	return 0;
out:
	slc_sim_close(s);
	return rc;
}

/* ---- invariants, for tests ---- */

int slc_sim_check(const struct slc_sim *s, char *err, size_t errlen)
{
	uint32_t *valid = calloc(s->nblocks, sizeof(*valid));
	uint64_t mapped = 0, dyn = 0, nfree_gen = 0, nfree_static = 0;
	int rc = -EFAULT;

	if (!valid)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (uint32_t u = 0; u < s->nunits; u++) {
		uint32_t p = s->l2p[u], b;
		if (p == INV) continue;
		b = p / s->ppb;
		mapped++;
		if (b >= s->nblocks) { slc_errf(err, errlen, rc, "unit %u maps past the flash", u); goto out; }
		if (s->p2l[p] != u) { slc_errf(err, errlen, rc, "unit %u -> slot %u -> unit %u", u, p, s->p2l[p]); goto out; }
		if (s->blk[b].state == B_FREE) { slc_errf(err, errlen, rc, "unit %u in free block %u", u, b); goto out; }
		if (p % s->ppb >= s->blk[b].written) { slc_errf(err, errlen, rc, "unit %u past block %u write pointer", u, b); goto out; }
		valid[b]++;
	}
	if (mapped != s->mapped_units) { slc_errf(err, errlen, rc, "mapped count %llu, expected %llu", (unsigned long long)s->mapped_units, (unsigned long long)mapped); goto out; }
	for (uint32_t b = 0; b < s->nblocks; b++) {
		const struct blk *k = &s->blk[b];
		uint32_t cap = k->mode == M_SLC ? s->spb : s->ppb;
		if (k->valid != valid[b]) { slc_errf(err, errlen, rc, "block %u valid %u, counted %u", b, k->valid, valid[b]); goto out; }
		if (k->written > cap) { slc_errf(err, errlen, rc, "block %u overfilled", b); goto out; }
		if (k->state == B_FREE) { if (k->is_static) nfree_static++; else nfree_gen++; }
		if (k->state == B_FULL && !k->is_static && !k->in_bucket) { slc_errf(err, errlen, rc, "full block %u not a GC candidate", b); goto out; }
		if (k->state != B_FULL && k->in_bucket) { slc_errf(err, errlen, rc, "block %u in a bucket but not full", b); goto out; }
		if (k->mode == M_SLC && !k->is_static && k->state != B_FREE) dyn += s->spb;
		if (k->is_static && k->mode != M_SLC) { slc_errf(err, errlen, rc, "static block %u not SLC", b); goto out; }
	}
	if (nfree_gen != s->nfree_gen || nfree_static != s->nfree_static) { slc_errf(err, errlen, rc, "free counts %u/%u, counted %llu/%llu", s->nfree_gen, s->nfree_static, (unsigned long long)nfree_gen, (unsigned long long)nfree_static); goto out; }
	if (dyn != s->dyn_slots) { slc_errf(err, errlen, rc, "dynamic SLC slots %llu, counted %llu", (unsigned long long)s->dyn_slots, (unsigned long long)dyn); goto out; }
	for (uint32_t v = 0; v <= s->ppb; v++)
		for (uint32_t b = s->bucket[v]; b != INV; b = s->blk[b].bnext)
			if (s->blk[b].valid != v) { slc_errf(err, errlen, rc, "block %u in bucket %u has %u valid", b, v, s->blk[b].valid); goto out; }
	rc = 0;
out:
	free(valid);
	return rc;
}
