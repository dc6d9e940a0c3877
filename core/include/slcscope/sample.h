/* SPDX-License-Identifier: MIT */
/*
 * Per-interval samples and the sampler that makes them: bytes, I/Os and a
 * latency histogram per interval, constant memory however long the run.
 * Included from slcscope/core.h.
 */
#ifndef SLCSCOPE_SAMPLE_H
#define SLCSCOPE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One sampling interval. */
struct slc_sample {
	double t_s;               /* end of the interval, seconds since segment start */
	double interval_s;        /* its length */
	uint64_t bytes_total;     /* cumulative host bytes at t_s within the segment */
	uint64_t ios;             /* I/Os completed in the interval */
	double lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us;  /* NAN when no I/O */
	double temp_c;            /* NAN when unknown */
	/* Reads and writes apart: bytes_total, ios and the lat_* above count
	 * both; these count reads only, and writes are the difference (a
	 * trace without these columns read them as 0: all I/O was one kind,
	 * the segment's workload says which). */
	uint64_t read_bytes_total;  /* cumulative read bytes at t_s within the segment */
	uint64_t read_ios;          /* reads completed in the interval */
	double read_lat_mean_us, read_lat_p50_us, read_lat_p99_us;     /* NAN when no read */
	double write_lat_mean_us, write_lat_p50_us, write_lat_p99_us;  /* NAN when no write */
	/* The busiest writer thread's CPU time in the interval over its wall
	 * time: the share of one core (0 to a little over 1).  Near 1 the host,
	 * not the drive, set the pace.  NAN when unknown: a virtual clock (the
	 * simulated drive's time is not the host's), imports, older traces. */
	double writer_cpu;
	/* Its share of the interval spent ready to run but waiting for a CPU
	 * (other work had them): on a busy host a writer that is the limit
	 * runs less than a core, and waits for the rest.  NAN when unknown,
	 * as above, or without the kernel's schedstat. */
	double writer_wait;
};

/*
 * Latency histogram: exact below 64 ns, then 32 sub-buckets per power of
 * two (relative error under 1.6%) up to 2^42 ns (73 minutes); longer
 * latencies land in the last bucket, the maximum is kept exactly.
 */
#define SLC_LAT_SUB 32
#define SLC_LAT_BUCKETS (64 + (42 - 6) * SLC_LAT_SUB)

struct slc_lat_hist {
	uint64_t count[SLC_LAT_BUCKETS];
	uint64_t n;
	uint64_t max_ns;
};

/** slc_lat_hist_reset() - empty the histogram. */
void slc_lat_hist_reset(struct slc_lat_hist *h);

/** slc_lat_hist_add() - count one latency. */
void slc_lat_hist_add(struct slc_lat_hist *h, uint64_t lat_ns);

/**
 * slc_lat_hist_quantile_us() - the q-quantile (0..1) in microseconds, the
 * middle of its bucket; q = 1 gives the exact maximum; NAN when empty.
 */
double slc_lat_hist_quantile_us(const struct slc_lat_hist *h, double q);

/* Called for every finished interval; return non-zero to stop the run. */
typedef int (*slc_sample_fn)(void *arg, const struct slc_sample *s);

/* One interval's counts: all I/O, and reads and writes apart. */
struct slc_sampler_acc {
	uint64_t bytes_total;     /* cumulative, all I/O */
	uint64_t read_bytes_total;/* cumulative, reads */
	uint64_t ios, read_ios;   /* in the interval */
	uint64_t lat_sum_ns[2];   /* [0] writes, [1] reads */
	struct slc_lat_hist hist; /* all I/O */
	struct slc_lat_hist dir[2];
};

struct slc_sampler {
	uint64_t t0_ns;           /* segment start (target clock) */
	uint64_t interval_ns;
	uint64_t edge_ns;         /* end of the current interval */
	double temp_c;
	struct slc_sampler_acc cur;
	/* the last finished interval, held back in case the run ends just after it */
	int held;
	uint64_t handed;          /* samples handed on */
	uint64_t held_start_ns, held_end_ns;
	struct slc_sampler_acc held_acc;
};

/** slc_sampler_init() - start sampling at @t0_ns with intervals of @interval_ns. */
void slc_sampler_init(struct slc_sampler *s, uint64_t t0_ns, uint64_t interval_ns);

/**
 * slc_sampler_add() - count a write of @bytes that completed at @t_ns after
 * @lat_ns.  Completion times must not go backwards.  Emits every interval
 * that ended before @t_ns through @fn (empty intervals too: a stall is a run
 * of zero samples, not a gap), the last one only once the next has lasted a
 * tenth of an interval: a run that ends before that has its last moments
 * merged into it by slc_sampler_finish().  The I/O is counted whatever @fn
 * returns.
 *
 * Return: 0, or the first non-zero value @fn returned.
 */
int slc_sampler_add(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns,
		    slc_sample_fn fn, void *arg);

/** slc_sampler_add_rw() - slc_sampler_add() for a read (@is_read) or a write. */
int slc_sampler_add_rw(struct slc_sampler *s, uint64_t t_ns, uint32_t bytes, uint64_t lat_ns, int is_read,
		       slc_sample_fn fn, void *arg);

/**
 * slc_sampler_finish() - emit the intervals up to @t_end_ns.  The last one
 * may be shorter; when it lasted under a tenth of an interval it is merged
 * into the sample before it (bytes, I/Os and latencies together, that
 * sample's time extended to @t_end_ns), so that no sample is that short,
 * except after a run's first sample (merged, the run would have one sample
 * only) or as a run's only one (dropped when it lasted under 1% of an
 * interval and saw no I/O).
 */
int slc_sampler_finish(struct slc_sampler *s, uint64_t t_end_ns, slc_sample_fn fn, void *arg);

/**
 * slc_sampler_pause() - the host was away (stopped) from @from_ns to @to_ns:
 * the intervals up to @from_ns are emitted as slc_sampler_finish() would,
 * none covers the pause, and the next one starts at @to_ns.  The samples'
 * times then jump over the pause: no sample of zero bytes stands for time
 * in which nothing was submitted.
 */
int slc_sampler_pause(struct slc_sampler *s, uint64_t from_ns, uint64_t to_ns, slc_sample_fn fn, void *arg);

/*
 * Watching for host pauses (hostpause.c): a SIGCONT handler counts resumes
 * from a stop; the boot clock's lead on the monotonic one grows by every
 * suspend.
 */
struct slc_host_watch {
	unsigned conts;           /* resumes seen */
	int64_t boot_off_ns;      /* CLOCK_BOOTTIME - CLOCK_MONOTONIC when last checked */
};

enum {
	SLC_HOST_CONTINUED = 1u << 0, /* a SIGCONT came: the process was stopped */
	SLC_HOST_SUSPENDED = 1u << 1, /* the machine was suspended */
};

/** slc_host_watch_install() - count SIGCONTs (process-wide); 0 or -1 (errno). */
int slc_host_watch_install(void);

/** slc_host_watch_init() - start watching from now. */
void slc_host_watch_init(struct slc_host_watch *w);

/**
 * slc_host_watch_check() - what happened since the last check or init:
 * SLC_HOST_* bits; *@suspended_ns the length of the suspends (0 if none).
 * Without slc_host_watch_install() stops are not seen.
 */
unsigned slc_host_watch_check(struct slc_host_watch *w, uint64_t *suspended_ns);

#ifdef __cplusplus
}
#endif
#endif
