// SPDX-License-Identifier: MIT
/*
 * Targets: which kind a spec names, closing, and the accessors.  The kinds
 * are in target_uring.c (block devices, regular files), target_sim.c and
 * target_null.c; target_priv.h says what each one implements.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"

static int is_sim(const char *spec) { return strncmp(spec, "sim:", 4) == 0; }
static int is_null(const char *spec) { return strncmp(spec, "null:", 5) == 0; }

static int is_blockdev(const char *spec)
{
	struct stat st;

	return stat(spec, &st) == 0 && S_ISBLK(st.st_mode);
}

static int is_anything(const char *spec)
{
	(void)spec;
	return 1;
}

/* The first entry whose match accepts the spec opens it: the prefixes
 * first, then what the path is; a path that is not a block device is a
 * regular file (created when the options give a size). */
static const struct {
	int (*match)(const char *spec);
	slc__target_open_fn *open;
} kinds[] = {
	{ is_sim, slc__target_sim_open },
	{ is_null, slc__target_null_open },
	{ is_blockdev, slc__target_blockdev_open },
	{ is_anything, slc__target_file_open },
};

int slc_target_open(struct slc_target **out, const char *spec, const struct slc_target_opts *opts,
		    char *err, size_t errlen)
{
	struct slc_target_opts o = opts ? *opts : (struct slc_target_opts){ 0 };
	struct slc_target *t;
	size_t k = 0;
	int rc;

	*out = NULL;
	if (!o.max_queue_depth)
		o.max_queue_depth = 256;
	if (!spec || !*spec)
		return slc_errf(err, errlen, -EINVAL, "no target given");
	if (strlen(spec) >= sizeof(t->spec))
		return slc_errf(err, errlen, -ENAMETOOLONG, "target name too long");
	while (!kinds[k].match(spec))
		k++;
	if ((rc = slc__target_io_poll_args(spec, o.io_poll, is_sim(spec) || is_null(spec), kinds[k].match == is_blockdev,
					   err, errlen)))
		return rc;
	t = calloc(1, sizeof(*t));
	if (!t)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->fd = -1;
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if ((rc = kinds[k].open(t, spec, &o, err, errlen))) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int slc_target_check_args(const char *spec, const struct slc_target_opts *o, char *err, size_t errlen)
{
	uint64_t bytes;

	if (!spec || !*spec)
		return slc_errf(err, errlen, -EINVAL, "no target given");
	if (is_null(spec) && slc__target_null_size(spec, &bytes, err, errlen))
		return -EINVAL;
	/* a mistyped device (/dev/sdz) is no file to create, dry run or not */
	if (!is_sim(spec) && !is_null(spec) && access(spec, F_OK) != 0 && errno == ENOENT && slc__path_in_devfs(spec))
		return slc_errf(err, errlen, -ENODEV, "%s: no such device", spec);
	/* a file smaller than one O_DIRECT block holds nothing to write; Linux
	 * keeps no file of 8 EiB or more */
	if (o && o->file_size_bytes && (o->file_size_bytes < 4096 || o->file_size_bytes > (uint64_t)INT64_MAX))
		return slc_errf(err, errlen, -EINVAL, "--size: from 4k to 8 EiB less one byte, not %llu bytes",
				(unsigned long long)o->file_size_bytes);
	return o ? slc__target_io_poll_args(spec, o->io_poll, is_sim(spec) || is_null(spec), is_blockdev(spec),
					   err, errlen) : 0;
}

/* Polling is refused where it cannot be what was asked for, rather than
 * ignored: a run that says it polled must have polled. */
int slc__target_io_poll_args(const char *spec, unsigned io_poll, int no_kernel_io, int blockdev,
			     char *err, size_t errlen)
{
	const char *opt = io_poll & SLC_TARGET_HIPRI ? "--hipri" : "--sqpoll";

	if (io_poll & ~(SLC_TARGET_HIPRI | SLC_TARGET_SQPOLL))
		return slc_errf(err, errlen, -EINVAL, "io_poll: unknown flags 0x%x", io_poll);
	if (io_poll && no_kernel_io)
		return slc_errf(err, errlen, -EINVAL, "%s: %s does no kernel I/O, so there is nothing to poll; "
				"drop %s or give a block device%s", opt, spec, opt,
				io_poll & SLC_TARGET_HIPRI ? "" : " or a file");
	if ((io_poll & SLC_TARGET_HIPRI) && !blockdev)
		return slc_errf(err, errlen, -EINVAL, "--hipri: polled completions need a block device with poll "
				"queues; %s is a regular file (--sqpoll works on files)", spec);
	return 0;
}

int slc__target_twin(struct slc_target *t, unsigned qd, struct slc_target **out, char *err, size_t errlen)
{
	struct slc_target *tw;
	int rc;

	*out = NULL;
	if (!t->ops->twin)
		return slc_errf(err, errlen, -ENOTSUP, "%s: one writer thread only", t->spec);
	if (!(tw = malloc(sizeof(*tw))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	*tw = *t;
	tw->fd = -1;
	tw->priv = NULL;
	tw->poll_ns = 0;
	if ((rc = t->ops->twin(t, tw, qd, err, errlen))) {
		free(tw);
		return rc;
	}
	*out = tw;
	return 0;
}

void slc_target_close(struct slc_target *t)
{
	if (!t)
		return;
	t->ops->close(t);
	free(t);
}

/* ---- the clock of the real-time kinds ---- */

uint64_t slc__target_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t slc__target_mono_now(struct slc_target *t)
{
	(void)t;
	return slc__target_mono_ns();
}

void slc__target_mono_idle(struct slc_target *t, uint64_t until_ns)
{
	(void)t;
	for (;;) {
		uint64_t now = slc__target_mono_ns();
		struct timespec ts;
		if (now >= until_ns)
			return;
		ts.tv_sec = (time_t)((until_ns - now) / 1000000000ull);
		ts.tv_nsec = (long)((until_ns - now) % 1000000000ull);
		if (ts.tv_sec > 0) { ts.tv_sec = 0; ts.tv_nsec = 200000000; }  /* wake to check signals */
		nanosleep(&ts, NULL);
	}
}

/* ---- accessors ---- */

const char *slc_target_spec(const struct slc_target *t) { return t->spec; }
enum slc_target_kind slc_target_kind(const struct slc_target *t) { return t->kind; }
unsigned slc_target_caps(const struct slc_target *t) { return t->ops->caps | t->caps; }
uint64_t slc_target_capacity(const struct slc_target *t) { return t->capacity_bytes; }
uint32_t slc_target_logical_block(const struct slc_target *t) { return t->logical_block_bytes; }
uint64_t slc_target_now_ns(struct slc_target *t) { return t->ops->now_ns(t); }
const char *slc_target_io_mode(const struct slc_target *t) { return t->io_mode ? t->io_mode : ""; }
int slc_target_discard(struct slc_target *t, uint64_t offset, uint64_t len) { return t->ops->discard(t, offset, len); }
void slc_target_idle(struct slc_target *t, uint64_t until_ns) { t->ops->idle(t, until_ns); }

/* ---- a TRIM that a stop request can leave behind ---- */

/*
 * A whole-drive TRIM took minutes on a large drive, and one the drive does
 * not answer holds the ioctl (or fallocate) in the kernel, where a signal
 * does not interrupt it.  So the range goes in chunks (a stop is seen
 * between them; kernels since 6.10 also end a killed BLKDISCARD between its
 * commands), and a real device's chunks are sent by a child process that a
 * stop leaves behind (apart.c).
 */
#define DISCARD_CHUNK_BYTES (1ull << 30)

static int discard_chunks(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop)
{
	while (len) {
		uint64_t n = len < DISCARD_CHUNK_BYTES ? len : DISCARD_CHUNK_BYTES;
		int rc;
		if (stop && *stop)
			return -ECANCELED;
		if ((rc = t->ops->discard(t, offset, n)))
			return rc;
		offset += n;
		len -= n;
	}
	return 0;
}

struct discard_job {
	struct slc_target *t;
	uint64_t offset, len;
};

static int discard_in_child(void *arg, char *out, size_t outlen)
{
	struct discard_job *j = arg;

	(void)out; (void)outlen;
	return discard_chunks(j->t, j->offset, j->len, NULL);
}

int slc__target_discard_apart(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop)
{
	struct discard_job j = { t, offset, len };

	return slc__apart(discard_in_child, &j, NULL, 0, stop);
}

int slc_target_discard_stoppable(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop)
{
	if (t->ops->discard_stoppable)
		return t->ops->discard_stoppable(t, offset, len, stop);
	/* the other kinds TRIM in memory, at once: one command, as the
	 * simulated drive's timing of a TRIM depends on how it is split */
	if (stop && *stop)
		return -ECANCELED;
	return t->ops->discard(t, offset, len);
}

size_t slc_target_events(struct slc_target *t, struct slc_sim_event *ev, size_t max)
{
	return t->ops->events ? t->ops->events(t, ev, max) : 0;
}

int slc_target_counters(struct slc_target *t, struct slc_sim_counters *c)
{
	if (!t->ops->counters)
		return -ENOTSUP;
	t->ops->counters(t, c);
	return 0;
}
