/* SPDX-License-Identifier: MIT */
/* Helpers shared by the core library's sources; not installed. */
#ifndef SLCSCOPE_CORE_PRIVATE_H
#define SLCSCOPE_CORE_PRIVATE_H

#include <stdint.h>
#include <stddef.h>

#include "slcscope/sample.h"     /* struct slc_host_watch */
#include "slcscope/units.h"      /* slc_errf() */

struct slc_job;
/* Check @j against a target of @capacity bytes in @logical_block units (0:
 * 512), filling in the engine's defaults (engine.c); 0 or -EINVAL with the
 * reason. */
uint64_t slc__engine_poll_ns(uint32_t inflight_max);
int slc__engine_check_job(uint64_t capacity, uint32_t logical_block, struct slc_job *j, char *err, size_t errlen);
/* 1 when @j's jobs run in a writer thread each on @t (engine_jobs.c): a
 * real target, and at least a block per job */
struct slc_target;
int slc__jobs_threaded(const struct slc_target *t, const struct slc_job *j);

/* Has a SIGCONT come since @w's last check?  Reads no clock, unlike
 * slc_host_watch_check(). */
int slc__host_watch_continued(const struct slc_host_watch *w);

/* A check at @now on the monotonic clock found @what (slc_host_watch_check());
 * the loop's last check ended at @from.  Returns the length of the stop to
 * skip, from @from to *@end, or 0 when there was none worth a record; *@end:
 * where this check ends, no earlier than the clock after a SIGCONT. */
uint64_t slc__host_stop(unsigned what, uint64_t from, uint64_t now, uint64_t *end);

/* Sampling several writer threads (sampler.c): each counts its completions
 * in one interval's struct slc_sampler_acc (bytes_total: the interval's
 * bytes; hist unused), and the intervals' sums reach the sampler whole,
 * as if each command had been added, at @t_ns, the interval's last
 * completion. */
struct slc_sample;
struct slc_sampler;
struct slc_sampler_acc;
void slc__acc_add(struct slc_sampler_acc *a, uint32_t bytes, uint64_t lat_ns, int is_read);
void slc__acc_sum(struct slc_sampler_acc *into, const struct slc_sampler_acc *from);
int slc__sampler_add_acc(struct slc_sampler *s, uint64_t t_ns, const struct slc_sampler_acc *a,
			 int (*fn)(void *arg, const struct slc_sample *smp), void *arg);

/* Record in @fd's extended attributes that slcscope wrote it as a target, as
 * it is now (safety.c); 0 or -errno (-ENOTSUP where xattrs are not kept). */
int slc__target_mark(int fd);

/*
 * Run @fn(@arg, @out, @outlen) in a child process (apart.c): its return and
 * what it wrote to @out come back.  Waits in slices that see *@stop (NULL:
 * never): once it is set the child is killed and left to end when the
 * kernel lets it, and -ECANCELED returned at once.  @fn may only use what
 * survives a fork: memory, descriptors, system calls.
 */
typedef int slc__apart_fn(void *arg, char *out, size_t outlen);
int slc__apart(slc__apart_fn *fn, void *arg, char *out, size_t outlen, const volatile int *stop);

/* 1 when a new file at @path would land under /dev or on a devtmpfs (safety.c). */
int slc__path_in_devfs(const char *path);

/* @kept less the state steps (point_state) at its end: those of a sweep
 * point that is being left out (plan_state.c). */
struct slc_plan;
size_t slc__plan_unstate(const struct slc_plan *p, size_t kept);

#endif
