// SPDX-License-Identifier: MIT
/*
 * The simulated drive under load: queue depth, block size and read/write
 * mixes, driven through the drive's own API with a closed loop of
 * commands (each slot resubmits when its command completes), so that the
 * shapes come from the model's dies, channels and controller alone.
 */
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

#define MAX_SLOTS 64

struct load {
	unsigned qd;          /* commands in flight */
	unsigned read_pct;    /* share of reads, spread evenly */
	uint32_t bs;
	int sequential;
	uint64_t base, range; /* where the commands go */
	uint64_t ns;          /* how long */
	double read_lat_ns;   /* out: mean read latency */
};

static struct slc_sim *open_preset(const char *name)
{
	struct slc_sim_model m;
	struct slc_sim *s;
	char err[256];

	if (slc_sim_model_load(&m, name, err, sizeof(err)) || slc_sim_open(&s, &m, 1, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	return s;
}

/* Run @l from *@clock; returns bytes per second (reads and writes). */
static double run_load(struct slc_sim *s, uint64_t *clock, struct load *l)
{
	uint64_t done[MAX_SLOTS], sub[MAX_SLOTS], t0 = *clock, now = t0, bytes = 0, pos = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull, nread = 0;
	unsigned acc = 0;
	int is_read[MAX_SLOTS] = { 0 };
	double lat = 0;

	assert_true(l->qd >= 1 && l->qd <= MAX_SLOTS);
	for (unsigned i = 0; i < l->qd; i++)
		done[i] = sub[i] = t0;
	for (;;) {
		unsigned k = 0;
		uint64_t off;

		for (unsigned i = 1; i < l->qd; i++)
			if (done[i] < done[k]) k = i;
		now = done[k];
		if (is_read[k]) {
			lat += (double)(now - sub[k]);
			nread++;
		}
		if (now - t0 >= l->ns)
			break;
		sub[k] = now;
		if (l->sequential) {
			off = l->base + pos;
			pos = pos + l->bs >= l->range ? 0 : pos + l->bs;
		} else {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			off = l->base + x % (l->range / l->bs) * l->bs;
		}
		acc += l->read_pct;
		is_read[k] = acc >= 100;
		if (is_read[k]) {
			acc -= 100;
			done[k] = slc_sim_read(s, now, off, l->bs);
		} else {
			done[k] = slc_sim_write(s, now, off, l->bs, NULL);
		}
		assert_true(done[k] > now);
		bytes += l->bs;
	}
	for (unsigned i = 0; i < l->qd; i++)
		if (done[i] > now) now = done[i];
	*clock = now;
	l->read_lat_ns = nread ? lat / (double)nread : NAN;
	return (double)bytes / ((double)(now - t0) * 1e-9);
}

/* Write [0, bytes) sequentially in 1 MiB commands, then let the drive idle @idle_ns. */
static void fill(struct slc_sim *s, uint64_t *clock, uint64_t bytes, uint64_t idle_ns)
{
	for (uint64_t off = 0; off < bytes; off += 1u << 20)
		*clock = slc_sim_write(s, *clock, off, 1u << 20, NULL);
	*clock += idle_ns;
	slc_sim_idle(s, *clock);
}

/* 4 KiB random writes: one at a time pays the command latency every time,
 * a deep queue hides it; the SLC cache takes both (64 MiB of 2.3 GB). */
static void test_qd_random_writes(void **state)
{
	struct slc_sim *s = open_preset("sata240-tlc");
	struct load l = { .qd = 1, .bs = 4096, .range = 1ull << 30, .ns = 200000000ull };
	uint64_t clock = 0;
	double qd1, qd4, qd32;
	(void)state;

	qd1 = run_load(s, &clock, &l) / 4096;
	l.qd = 4;
	qd4 = run_load(s, &clock, &l) / 4096;
	l.qd = 32;
	qd32 = run_load(s, &clock, &l) / 4096;
	print_message("sata240-tlc 4K random write: QD1 %.0f, QD4 %.0f, QD32 %.0f IOPS (QD1/QD32 %.2f)\n",
		      qd1, qd4, qd32, qd1 / qd32);
	assert_true(qd1 <= qd32 / 4);
	assert_true(qd1 < qd4 && qd4 <= qd32 * 1.02);
	/* QD32 in the cache is the controller's limit, as the write curve's first phase */
	assert_true(fabs(qd32 - 80000) / 80000 < 0.05);
	slc_sim_close(s);
}

/* 4 KiB random reads of written data: more dies at once with more commands. */
static void test_qd_random_reads(void **state)
{
	struct slc_sim *s = open_preset("sata240-tlc");
	struct load l = { .qd = 1, .read_pct = 100, .bs = 4096, .range = 256u << 20, .ns = 200000000ull };
	uint64_t clock = 0;
	double qd1, qd4, qd32;
	(void)state;

	fill(s, &clock, 256u << 20, 1000000000ull);
	qd1 = run_load(s, &clock, &l) / 4096;
	l.qd = 4;
	qd4 = run_load(s, &clock, &l) / 4096;
	l.qd = 32;
	qd32 = run_load(s, &clock, &l) / 4096;
	print_message("sata240-tlc 4K random read: QD1 %.0f, QD4 %.0f, QD32 %.0f IOPS\n", qd1, qd4, qd32);
	assert_true(qd1 * 4 < qd32);
	assert_true(qd1 < qd4 && qd4 < qd32);
	/* QD1: the command latency and a page read at least */
	assert_true(qd1 < 1e9 / (45000 + 40000));
	/* reads of never-written space are answered from the map: much faster */
	l.qd = 1;
	l.base = 4ull << 30;
	assert_true(run_load(s, &clock, &l) / 4096 > qd1 * 1.5);
	slc_sim_close(s);
}

/* Sequential QD4: throughput grows with the block size up to the link. */
static void test_sequential_block_sizes(void **state)
{
	static const uint32_t bs[] = { 4096, 16384, 65536, 262144 };
	double rd[4], wr[4];
	(void)state;

	for (int i = 0; i < 4; i++) {
		/* a fresh drive for each write size: all of it in the SLC cache */
		struct slc_sim *s = open_preset("tiny-tlc");
		struct load l = { .qd = 4, .bs = bs[i], .sequential = 1, .range = 128u << 20, .ns = 400000000ull };
		uint64_t clock = 0;

		wr[i] = run_load(s, &clock, &l);
		fill(s, &clock, 128u << 20, 1000000000ull);
		l.read_pct = 100;
		rd[i] = run_load(s, &clock, &l);
		slc_sim_close(s);
		print_message("tiny-tlc sequential QD4 %6u B: read %.0f MB/s, write %.0f MB/s\n", bs[i], rd[i] / 1e6, wr[i] / 1e6);
	}
	for (int i = 1; i < 4; i++) {
		assert_true(rd[i] > rd[i - 1] * 1.05 || rd[i] > 500e6);
		assert_true(wr[i] > wr[i - 1] * 1.05 || wr[i] > 480e6);
	}
	/* the link (560 MB/s) and the SLC programs (520 MB/s) bound them */
	assert_true(rd[3] > 450e6 && rd[3] <= 560e6);
	assert_true(wr[3] > 450e6 && wr[3] <= 560e6);
	assert_true(rd[0] < rd[3] / 2 && wr[0] < wr[3] * 0.6);
}

/* Past the cache a TLC drive writes slowly, and its programs block the
 * reads on their dies: the more writes in the mix, the slower it gets
 * (the review's sequential 128 KiB mix in two streams). */
static void test_tlc_mix_falls_with_writes(void **state)
{
	static const unsigned pct[] = { 100, 60, 20, 0 };
	struct slc_sim *s = open_preset("tiny-tlc");
	struct load l = { .qd = 2, .bs = 131072, .range = 1ull << 30, .ns = 2000000000ull };
	uint64_t clock = 0;
	struct slc_sim_counters c;
	double x[4];
	(void)state;

	fill(s, &clock, 1ull << 30, 0);       /* past the 256 MiB cache: the rest is native */
	for (int i = 0; i < 4; i++) {
		l.read_pct = pct[i];
		x[i] = run_load(s, &clock, &l);
		print_message("tiny-tlc 128K mix, %3u%% reads: %.0f MB/s\n", pct[i], x[i] / 1e6);
	}
	slc_sim_get_counters(s, &c);
	assert_true(c.slc_write_bytes < c.host_write_bytes / 2);
	/* falling from all reads to mostly writes; all writes is about as slow
	 * as mostly writes (the TLC programs set both) */
	assert_true(x[1] < x[0] * 0.7);       /* a few writes already cost the reads much */
	assert_true(x[2] < x[1]);
	assert_true(x[3] < x[1]);
	slc_sim_close(s);
}

/* On a fresh MLC drive reads and writes alone both run at the link, and
 * the mixes dip in the middle: the controller's duplex cost (the 850 Pro
 * review's U shape, down to half).  A TLC drive's model has none: its
 * mixes are set by its programs. */
static void test_mlc_mix_u_shape(void **state)
{
	static const unsigned pct[] = { 100, 80, 50, 20, 0 };
	struct slc_sim *s = open_preset("tiny-mlc");
	struct load l = { .qd = 2, .bs = 131072, .range = 512u << 20, .ns = 1000000000ull };
	uint64_t clock = 0;
	double x[5], ends;
	(void)state;

	fill(s, &clock, 512u << 20, 0);       /* reads of written data, writes that stay well clear of GC */
	for (int i = 0; i < 5; i++) {
		l.read_pct = pct[i];
		x[i] = run_load(s, &clock, &l);
		print_message("tiny-mlc 128K mix, %3u%% reads: %.0f MB/s\n", pct[i], x[i] / 1e6);
	}
	ends = x[0] < x[4] ? x[0] : x[4];
	assert_true(x[0] > 450e6 && x[4] > 450e6);
	assert_true(x[2] < ends * 0.6);       /* the bottom of the U */
	assert_true(x[1] < ends * 0.9 && x[3] < ends * 0.9);
	assert_true(x[1] > x[2] && x[3] > x[2]);
	slc_sim_close(s);
}

/* Reads wait for the program in progress on their die: the same reads are
 * slower beside writes than alone, far more on TLC than on MLC. */
static void test_reads_blocked_by_programs(void **state)
{
	static const char *const preset[] = { "tiny-tlc", "tiny-mlc" };
	double slow[2];
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct slc_sim *s = open_preset(preset[i]);
		struct load rd = { .qd = 4, .read_pct = 100, .bs = 4096, .range = 512u << 20, .ns = 500000000ull };
		struct load mix = rd;
		uint64_t clock = 0;

		/* past the cache, no idle to fold it: the mix's writes are native */
		fill(s, &clock, 1ull << 30, 0);
		run_load(s, &clock, &rd);
		mix.read_pct = 80;
		run_load(s, &clock, &mix);
		slow[i] = mix.read_lat_ns / rd.read_lat_ns;
		print_message("%s 4K QD4 reads: %.0f us alone, %.0f us in an 80/20 mix\n", preset[i],
			      rd.read_lat_ns / 1e3, mix.read_lat_ns / 1e3);
		slc_sim_close(s);
	}
	assert_true(slow[0] > 1.5);
	assert_true(slow[0] > slow[1]);
}

/* A model that names no dies gets program times its dies can sustain:
 * sequential native writes still run at the model's speed. */
static void test_default_dies_keep_speeds(void **state)
{
	static const char *json =
		"{ \"schema\": \"slcscope.sim-model/1\", \"name\": \"fast-mlc\", \"capacity_bytes\": 268435456,"
		"  \"nand\": { \"bits_per_cell\": 2, \"raw_bytes\": 301989888, \"block_bytes\": 2097152 },"
		"  \"controller\": { \"max_iops\": 200000, \"link_MBps\": 3000 },"
		"  \"speed_MBps\": { \"native\": 1500, \"gc_copy\": 800 } }";
	struct slc_sim_model m;
	struct slc_sim *s;
	struct load l = { .qd = 8, .bs = 131072, .sequential = 1, .range = 256u << 20, .ns = 100000000ull };
	uint64_t clock = 0;
	char err[256];
	double bps, dies_bps;
	(void)state;

	if (slc_sim_model_parse(&m, json, "fast-mlc", err, sizeof(err)) || slc_sim_open(&s, &m, 1, err, sizeof(err)))
		fail_msg("%s", err);
	/* 4 channels x 2 dies of 16 KiB pages by default; MLC's 900 us would
	 * give 146 MB/s, so the program time is shortened to 80% busy */
	assert_int_equal(m.channels * m.dies_per_channel, 8);
	dies_bps = 8.0 * m.page_bytes / (m.prog_native_ns * 1e-9);
	assert_true(fabs(dies_bps - 1500e6 / 0.8) / (1500e6 / 0.8) < 1e-6);
	assert_true(m.read_native_ns == 50000 && m.read_slc_ns == 30000);
	l.ns = 30000000ull;                   /* until the write buffer is full */
	run_load(s, &clock, &l);
	l.ns = 100000000ull;
	bps = run_load(s, &clock, &l);
	print_message("fast-mlc sequential 128K QD8: %.0f MB/s (native 1500)\n", bps / 1e6);
	assert_true(fabs(bps - 1500e6) / 1500e6 < 0.03);
	slc_sim_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qd_random_writes),
		cmocka_unit_test(test_qd_random_reads),
		cmocka_unit_test(test_sequential_block_sizes),
		cmocka_unit_test(test_tlc_mix_falls_with_writes),
		cmocka_unit_test(test_mlc_mix_u_shape),
		cmocka_unit_test(test_reads_blocked_by_programs),
		cmocka_unit_test(test_default_dies_keep_speeds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
