// SPDX-License-Identifier: MIT
/*
 * The simulated drive: FTL invariants under randomized operation sequences,
 * model parsing errors, determinism, and the phases of the small presets
 * against the model's own ground truth.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "slcscope/core.h"
#include "target_priv.h"      /* slc__target_sim_detach() */

/* A small model: 64 MiB host, TLC, 1 MiB blocks, a static and a dynamic cache. */
static const char *small_model =
	"{ \"schema\": \"slcscope.sim-model/1\", \"name\": \"small\","
	"  \"capacity_bytes\": 67108864,"
	"  \"nand\": { \"bits_per_cell\": 3, \"raw_bytes\": 100663296, \"block_bytes\": 786432 },"
	"  \"controller\": { \"max_iops\": 80000, \"link_MBps\": 560 },"
	"  \"speed_MBps\": { \"slc_static\": 500, \"slc_dynamic\": 400, \"native\": 80, \"gc_copy\": 200, \"fold_idle\": 50 },"
	"  \"slc_cache\": { \"static_bytes\": 2097152, \"dynamic_max_bytes\": 4194304, \"dynamic_free_ratio\": 0.2 },"
	"  \"gc\": { \"free_fraction\": 0.05, \"idle\": true, \"idle_target_bytes\": 8388608 },"
	"  \"map_cache\": { \"entries\": 4096, \"journal_entries\": 100, \"flush_us_per_entry\": 5, \"miss_us\": 2 },"
	"  \"noise\": { \"io_jitter_sigma\": 0.1, \"native_sigma\": 0.3 } }";

static void open_small(struct slc_sim **s, const char *json, uint64_t seed)
{
	struct slc_sim_model m;
	char err[256];

	if (slc_sim_model_parse(&m, json, "small", err, sizeof(err)))
		fail_msg("parse: %s", err);
	if (slc_sim_open(s, &m, seed, err, sizeof(err)))
		fail_msg("open: %s", err);
}

/* Run a job on an open drive through the engine; the drive stays the caller's. */
static int run_job(struct slc_sim *s, uint64_t *clock, const struct slc_job *job,
		   slc_sample_fn fs, slc_event_fn fe, void *arg)
{
	struct slc_target *t;
	struct slc_engine_cb cb = { .sample = fs, .event = fe, .arg = arg };
	struct slc_job_result res;
	char err[256];
	int rc;

	assert_int_equal(slc_target_from_sim(&t, s, "test"), 0);
	slc_target_idle(t, *clock);
	rc = slc_engine_run(t, job, &cb, NULL, &res, err, sizeof(err));
	if (rc)
		print_message("engine: %s\n", err);
	*clock = slc_target_now_ns(t);
	slc__target_sim_detach(t);   /* hand the drive back */
	slc_target_close(t);
	return rc;
}

static void check(struct slc_sim *s, const char *when)
{
	char err[256];
	if (slc_sim_check(s, err, sizeof(err)))
		fail_msg("%s: %s", when, err);
}

/* Random writes, reads, trims and idle gaps; invariants after every phase. */
static void test_invariants_random_ops(void **state)
{
	struct slc_sim *s;
	uint64_t t = 0, x = 12345;
	(void)state;

	open_small(&s, small_model, 7);
	check(s, "fresh");
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 5000; i++) {
			uint64_t r, off;
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			r = x;
			off = (r >> 8) % (64ull << 20);
			switch (r & 15) {
			case 0: /* trim a random range, unaligned on purpose */
				t = slc_sim_trim(s, t, off, (r >> 40) % (2u << 20));
				break;
			case 1:
				t = slc_sim_read(s, t, off & ~4095ull, 4096);
				break;
			case 2: /* idle gap: background folding and GC */
				slc_sim_idle(s, t + (r >> 50) * 100000ull);
				t += (r >> 50) * 100000ull;
				break;
			default: { /* writes of 4 KiB to 128 KiB, sometimes unaligned */
				uint32_t len = (uint32_t)(4096u << ((r >> 4) % 6));
				if ((r >> 12) & 1) off &= ~4095ull;
				t = slc_sim_write(s, t, off, len, NULL);
			}
			}
		}
		check(s, "after a round of random operations");
	}
	/* a full TRIM leaves nothing mapped and GC can reclaim everything */
	t = slc_sim_trim(s, t, 0, 64ull << 20);
	check(s, "after full trim");
	slc_sim_idle(s, t + 60ull * 1000000000ull);
	check(s, "after a minute of idle");
	assert_int_equal(slc_sim_cache_free_bytes(s) > 0, 1);
	slc_sim_close(s);
}

/* Every unit written stays readable in the map: writes never lose an LBA. */
static void test_no_lba_lost(void **state)
{
	struct slc_sim *s;
	struct slc_job w = { .kind = SLC_JOB_RAND_WRITE, .max_bytes = 3ull * (64u << 20), .seed = 3 };
	uint64_t clock = 0;
	struct slc_sim_counters c;
	(void)state;

	open_small(&s, small_model, 1);
	/* sequential fill: every unit mapped */
	for (uint64_t off = 0; off < (64u << 20); off += 131072)
		clock = slc_sim_write(s, clock, off, 131072, NULL);
	check(s, "after fill");
	/* three capacities of random overwrites force GC many times over */
	assert_int_equal(run_job(s, &clock, &w, NULL, NULL, NULL), 0);
	check(s, "after random overwrites");
	slc_sim_get_counters(s, &c);
	assert_true(c.gc_copy_bytes > 0);
	assert_true(c.erases > 100);
	assert_true(c.nand_write_bytes > c.host_write_bytes);
	/* slc_sim_check() verifies l2p/p2l both ways; also no unit became unmapped:
	 * a read of every unit costs flash time (unmapped reads cost none) */
	{
		uint64_t t0 = clock + 1000000000ull, t1 = t0;
		for (uint64_t off = 0; off < (64u << 20); off += 4096)
			t1 = slc_sim_read(s, t1, off, 4096);
		assert_true(t1 > t0);
	}
	slc_sim_close(s);
}

struct series {
	double t[20000];
	double bps[20000];
	size_t n;
	uint64_t last_bytes;
	struct slc_sim_event ev[64];
	size_t nev;
};

static int collect(void *arg, const struct slc_sample *smp)
{
	struct series *x = arg;
	if (x->n < 20000) {
		x->t[x->n] = smp->t_s;
		x->bps[x->n] = (double)(smp->bytes_total - x->last_bytes) / smp->interval_s;
		x->n++;
	}
	x->last_bytes = smp->bytes_total;
	return 0;
}

static int collect_ev(void *arg, const struct slc_sim_event *e, uint64_t t0)
{
	struct series *x = arg;
	(void)t0;
	if (x->nev < 64) x->ev[x->nev++] = *e;
	return 0;
}

static const struct slc_sim_event *find_ev(const struct series *x, enum slc_sim_event_kind k)
{
	for (size_t i = 0; i < x->nev; i++)
		if (x->ev[i].kind == k) return &x->ev[i];
	return NULL;
}

/* mean speed of the samples entirely inside [a, b] seconds */
static double mean_bps(const struct series *x, double a, double b, double interval)
{
	double sum = 0;
	int n = 0;
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i] - interval >= a && x->t[i] <= b) { sum += x->bps[i]; n++; }
	return n ? sum / n : NAN;
}

static void run_preset(struct series *x, const char *preset, enum slc_job_kind kind, uint64_t max_bytes,
		       uint64_t max_ns, uint64_t interval_ns, uint64_t seed)
{
	struct slc_sim_model m;
	struct slc_sim *s;
	struct slc_job w = { .kind = kind, .max_bytes = max_bytes, .max_ns = max_ns,
			     .interval_ns = interval_ns, .seed = seed };
	uint64_t clock = 0;
	char err[256];

	memset(x, 0, sizeof(*x));
	if (slc_sim_model_load(&m, preset, err, sizeof(err))) fail_msg("%s", err);
	if (slc_sim_open(&s, &m, seed, err, sizeof(err))) fail_msg("%s", err);
	if (run_job(s, &clock, &w, collect, collect_ev, x)) fail_msg("engine failed");
	check(s, preset);
	slc_sim_close(s);
}

/* tiny-tlc under 4K QD32 random: cache at 80k IOPS, direct ~19k, erase-bound slower, onset ~1 capacity */
static void test_tiny_tlc_random_phases(void **state)
{
	static struct series x;
	const struct slc_sim_event *ce, *fe, *cap;
	double cache, direct, erase;
	(void)state;

	run_preset(&x, "tiny-tlc", SLC_JOB_RAND_WRITE, 3ull << 32, 0, 100000000ull, 1);
	cap = find_ev(&x, SLC_SIM_EV_CACHE_CAPACITY);
	ce = find_ev(&x, SLC_SIM_EV_CACHE_EXHAUSTED);
	fe = find_ev(&x, SLC_SIM_EV_FREE_POOL_EXHAUSTED);
	assert_non_null(cap);
	assert_non_null(ce);
	assert_non_null(fe);
	/* the cache takes exactly what the model says was free at the start */
	assert_true(fabs((double)ce->host_bytes - cap->value) <= 131072);
	assert_true(fabs(cap->value - 268435456.0) / 268435456.0 < 0.01);
	cache = mean_bps(&x, 0, (double)ce->t_ns * 1e-9, 0.1) / 4096;
	direct = mean_bps(&x, (double)ce->t_ns * 1e-9 + 1, (double)fe->t_ns * 1e-9 - 1, 0.1) / 4096;
	erase = mean_bps(&x, (double)fe->t_ns * 1e-9 + 5, x.t[x.n - 1], 0.1) / 4096;
	print_message("tiny-tlc rand: cache %.0f IOPS, direct %.0f IOPS, erase-bound %.0f IOPS, onset %.2f capacities\n",
		      cache, direct, erase, (double)fe->host_bytes / 4294967296.0);
	assert_true(cache > 72000 && cache < 88000);
	assert_true(direct > 16000 && direct < 23000);
	assert_true(erase < direct * 0.9);
	assert_true((double)fe->host_bytes / 4294967296.0 > 0.9 && (double)fe->host_bytes / 4294967296.0 < 1.4);
}

/* tiny-qlc2 sequential: two cache tiers, then native QLC at ~130 MB/s */
static void test_tiny_qlc2_sequential_tiers(void **state)
{
	static struct series x;
	const struct slc_sim_event *ce;
	double t_tier, tier1, tier2, native;
	(void)state;

	run_preset(&x, "tiny-qlc2", SLC_JOB_SEQ_WRITE, 4294967296ull, 0, 10000000ull, 1);
	ce = find_ev(&x, SLC_SIM_EV_CACHE_EXHAUSTED);
	assert_non_null(ce);
	t_tier = 268435456.0 / 5e9;                    /* the fast tier lasts ~54 ms */
	tier1 = mean_bps(&x, 0.005, t_tier - 0.002, 0.01);
	tier2 = mean_bps(&x, t_tier + 0.01, (double)ce->t_ns * 1e-9 - 0.01, 0.01);
	native = mean_bps(&x, (double)ce->t_ns * 1e-9 + 1, (double)ce->t_ns * 1e-9 + 5, 0.01);
	print_message("tiny-qlc2 seq: tier 1 %.0f MB/s, tier 2 %.0f MB/s, native %.0f MB/s, cache %.0f MB\n",
		      tier1 / 1e6, tier2 / 1e6, native / 1e6, (double)ce->host_bytes / 1e6);
	assert_true(fabs(tier1 - 5e9) / 5e9 < 0.1);
	assert_true(fabs(tier2 - 3.5e9) / 3.5e9 < 0.1);
	assert_true(fabs(native - 130e6) / 130e6 < 0.15);
	/* dynamic cache: bounded by 25% of unwritten space, so well under the 1 GiB cap */
	assert_true(ce->host_bytes > 600000000ull && ce->host_bytes < 1073741824ull);
}

/* tiny-mlc: no cache, flat at the controller limit, then a drop that keeps decaying */
static void test_tiny_mlc_decay(void **state)
{
	static struct series x;
	const struct slc_sim_event *ce, *fe;
	double flat, early, late, t_end;
	(void)state;

	run_preset(&x, "tiny-mlc", SLC_JOB_RAND_WRITE, 4ull << 32, 0, 1000000000ull, 1);
	ce = find_ev(&x, SLC_SIM_EV_CACHE_EXHAUSTED);
	fe = find_ev(&x, SLC_SIM_EV_FREE_POOL_EXHAUSTED);
	assert_non_null(ce);
	assert_non_null(fe);
	assert_int_equal(ce->host_bytes, 0);           /* no cache at all */
	t_end = x.t[x.n - 1];
	flat = mean_bps(&x, 0, (double)fe->t_ns * 1e-9, 1) / 4096;
	early = mean_bps(&x, (double)fe->t_ns * 1e-9 + 1, (double)fe->t_ns * 1e-9 + 10, 1) / 4096;
	late = mean_bps(&x, t_end - 20, t_end, 1) / 4096;
	print_message("tiny-mlc rand: flat %.0f IOPS, after onset %.0f, at the end %.0f\n", flat, early, late);
	assert_true(fabs(flat - 90000) / 90000 < 0.05);
	assert_true(early < flat * 0.9);
	assert_true(late < early * 0.6);
}

/* Idle folding: after the cache fills, a minute of idle brings it back. */
static void test_idle_fold_recovers_cache(void **state)
{
	struct slc_sim_model m;
	struct slc_sim *s;
	struct slc_job w = { .kind = SLC_JOB_RAND_WRITE, .max_bytes = 512u << 20, .seed = 1 };
	uint64_t clock = 0, before, after;
	char err[256];
	(void)state;

	assert_int_equal(slc_sim_model_load(&m, "tiny-tlc", err, sizeof(err)), 0);
	assert_int_equal(slc_sim_open(&s, &m, 1, err, sizeof(err)), 0);
	assert_int_equal(run_job(s, &clock, &w, NULL, NULL, NULL), 0);
	before = slc_sim_cache_free_bytes(s);
	assert_true(before < 4096 * 1024);
	/* 268 MB at 40 MB/s of idle folding: 3 s gives about 120 MB back */
	slc_sim_idle(s, clock + 3000000000ull);
	after = slc_sim_cache_free_bytes(s);
	assert_true(after > 100000000ull && after < 150000000ull);
	slc_sim_idle(s, clock + 60000000000ull);
	after = slc_sim_cache_free_bytes(s);
	assert_true(after >= 268435456ull);
	check(s, "after idle");
	slc_sim_close(s);
}

/* TRIM makes reads stall and slow down for a while on a drive that says so. */
static void test_trim_read_stall(void **state)
{
	struct slc_sim_model m;
	struct slc_sim *s;
	uint64_t t = 0, t0, first;
	char err[256];
	(void)state;

	assert_int_equal(slc_sim_model_load(&m, "tiny-dramless", err, sizeof(err)), 0);
	assert_int_equal(slc_sim_open(&s, &m, 1, err, sizeof(err)), 0);
	for (uint64_t off = 0; off < (2ull << 30); off += 1u << 20)
		t = slc_sim_write(s, t, off, 1u << 20, NULL);
	t += 10000000000ull;
	t0 = slc_sim_trim(s, t, 0, 2ull << 30);
	first = slc_sim_read(s, t0, 3ull << 30, 4096) - t0;     /* mapped, untrimmed data */
	/* the model stalls the first reads by up to 400 ms */
	assert_true(first >= 390000000ull);
	slc_sim_close(s);
}

/* The same seed gives the same completions, a different seed different ones. */
static void test_determinism(void **state)
{
	static struct series a, b, c;
	(void)state;

	run_preset(&a, "tiny-tlc", SLC_JOB_RAND_WRITE, 1ull << 30, 0, 100000000ull, 5);
	run_preset(&b, "tiny-tlc", SLC_JOB_RAND_WRITE, 1ull << 30, 0, 100000000ull, 5);
	run_preset(&c, "tiny-tlc", SLC_JOB_RAND_WRITE, 1ull << 30, 0, 100000000ull, 6);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.bps, b.bps, a.n * sizeof(double));
	assert_memory_equal(a.t, b.t, a.n * sizeof(double));
	assert_true(a.n != c.n || memcmp(a.bps, c.bps, a.n * sizeof(double)) != 0);
}

/* Thermal: sustained writes heat the drive past its limit, it throttles, events fire. */
static void test_thermal_throttle(void **state)
{
	static struct series x;
	(void)state;

	run_preset(&x, "thermal-nvme", SLC_JOB_SEQ_WRITE, 16ull << 30, 0, 100000000ull, 1);
	assert_non_null(find_ev(&x, SLC_SIM_EV_THROTTLE_ON));
	assert_non_null(find_ev(&x, SLC_SIM_EV_THROTTLE_OFF));
}

/* Compressing controller: repeating data programs less flash than random data. */
static void test_compression(void **state)
{
	const char *json =
		"{ \"schema\": \"slcscope.sim-model/1\", \"name\": \"sf\", \"capacity_bytes\": 67108864,"
		"  \"nand\": { \"bits_per_cell\": 2, \"raw_bytes\": 83886080, \"block_bytes\": 524288 },"
		"  \"controller\": { \"max_iops\": 100000, \"link_MBps\": 560 },"
		"  \"speed_MBps\": { \"native\": 100, \"gc_copy\": 200 }, \"compression\": { \"enabled\": true } }";
	uint64_t nand[2], clock[2] = { 0, 0 };
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct slc_sim *s;
		struct slc_sim_counters c;
		struct slc_job w = { .kind = SLC_JOB_SEQ_WRITE, .max_bytes = 32u << 20, .seed = 1,
				     .data = i ? SLC_DATA_REPEATING : SLC_DATA_INCOMPRESSIBLE };
		open_small(&s, json, 1);
		assert_int_equal(run_job(s, &clock[i], &w, NULL, NULL, NULL), 0);
		slc_sim_get_counters(s, &c);
		nand[i] = c.nand_write_bytes;
		slc_sim_close(s);
	}
	assert_true(nand[1] < nand[0] / 2);
	assert_true(clock[1] < clock[0] / 2);    /* and finishes sooner */
}

struct bad_model {
	const char *json;
	const char *reason;
};

static void test_model_errors(void **state)
{
	static const struct bad_model cases[] = {
		{ "", "line" },
		{ "[]", "JSON object" },
		{ "{\"schema\": \"x\"}", "\"schema\" must be" },
		{ "{\"schema\": \"slcscope.sim-model/1\"}", "missing field 'name'" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 1e12}", "whole number" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capcity_bytes\": 1}", "unknown field 'capcity_bytes'" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"nand\": {\"bits\": 3}}", "unknown field 'nand.bits'" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": -5}", "out of range" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 67108864,"
		  " \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 100663296, \"block_bytes\": 786432},"
		  " \"controller\": {\"max_iops\": 1, \"link_MBps\": 1}, \"speed_MBps\": {\"native\": \"fast\", \"gc_copy\": 1}}",
		  "speed_MBps.native must be a number" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 67108864,"
		  " \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 1048576, \"block_bytes\": 786432},"
		  " \"controller\": {\"max_iops\": 1, \"link_MBps\": 1}, \"speed_MBps\": {\"native\": 1, \"gc_copy\": 1}}",
		  "raw_bytes is smaller" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 67108864,"
		  " \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 100663296, \"block_bytes\": 786432},"
		  " \"controller\": {\"max_iops\": 1, \"link_MBps\": 1}, \"speed_MBps\": {\"native\": 1, \"gc_copy\": 1},"
		  " \"slc_cache\": {\"when_full\": \"later\"}}", "\"direct\" or \"fold\"" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"name\": \"b\"}", "duplicate" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 67108864,"
		  " \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 100663296, \"block_bytes\": 786432, \"page_bytes\": 12288},"
		  " \"controller\": {\"max_iops\": 1, \"link_MBps\": 1}, \"speed_MBps\": {\"native\": 1, \"gc_copy\": 1}}",
		  "nand.page_bytes must be a power of two" },
		{ "{\"schema\": \"slcscope.sim-model/1\", \"name\": \"a\", \"capacity_bytes\": 67108864,"
		  " \"nand\": {\"bits_per_cell\": 3, \"raw_bytes\": 100663296, \"block_bytes\": 786432, \"channels\": 0},"
		  " \"controller\": {\"max_iops\": 1, \"link_MBps\": 1}, \"speed_MBps\": {\"native\": 1, \"gc_copy\": 1}}",
		  "nand.channels = 0 is out of range" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct slc_sim_model m;
		char err[256] = "";
		int rc = slc_sim_model_parse(&m, cases[i].json, "t.json", err, sizeof(err));
		if (rc != -EINVAL || !strstr(err, cases[i].reason))
			fail_msg("case %zu: rc %d, '%s' lacks '%s'", i, rc, err, cases[i].reason);
		if (strncmp(err, "t.json", 6) != 0)
			fail_msg("case %zu: '%s' does not name the file", i, err);
	}
}

/* Too little spare flash for the host capacity is refused at open. */
static void test_open_refuses_impossible_drive(void **state)
{
	const char *json =
		"{ \"schema\": \"slcscope.sim-model/1\", \"name\": \"tight\", \"capacity_bytes\": 67108864,"
		"  \"nand\": { \"bits_per_cell\": 3, \"raw_bytes\": 67108864, \"block_bytes\": 786432 },"
		"  \"controller\": { \"max_iops\": 1000, \"link_MBps\": 100 },"
		"  \"speed_MBps\": { \"native\": 100, \"gc_copy\": 200 } }";
	struct slc_sim_model m;
	struct slc_sim *s = NULL;
	char err[256];
	(void)state;
	assert_int_equal(slc_sim_model_parse(&m, json, "tight", err, sizeof(err)), 0);
	assert_int_equal(slc_sim_open(&s, &m, 1, err, sizeof(err)), -EINVAL);
	assert_null(s);
	assert_non_null(strstr(err, "not enough flash"));
}

/* Every shipped preset parses, and opens when it is small. */
static void test_presets_parse(void **state)
{
	size_t n;
	const struct slc_sim_preset *p = slc_sim_presets(&n);
	(void)state;
	assert_true(n >= 8);
	for (size_t i = 0; i < n; i++) {
		struct slc_sim_model m;
		char err[256];
		if (slc_sim_model_parse(&m, p[i].json, p[i].name, err, sizeof(err)))
			fail_msg("%s", err);
		assert_string_equal(m.name, p[i].name);
		if (m.capacity_bytes < (16ull << 30)) {
			struct slc_sim *s;
			if (slc_sim_open(&s, &m, 1, err, sizeof(err)))
				fail_msg("%s: %s", p[i].name, err);
			slc_sim_close(s);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_presets_parse),
		cmocka_unit_test(test_open_refuses_impossible_drive),
		cmocka_unit_test(test_invariants_random_ops),
		cmocka_unit_test(test_no_lba_lost),
		cmocka_unit_test(test_idle_fold_recovers_cache),
		cmocka_unit_test(test_trim_read_stall),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_compression),
		cmocka_unit_test(test_thermal_throttle),
		cmocka_unit_test(test_tiny_tlc_random_phases),
		cmocka_unit_test(test_tiny_qlc2_sequential_tiers),
		cmocka_unit_test(test_tiny_mlc_decay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
