// SPDX-License-Identifier: MIT
/*
 * Block devices and regular files, through io_uring: registered buffers and
 * a registered file, commands prepared one by one and sent with the reap
 * (one io_uring_submit_and_wait per refill).  Block devices are opened
 * O_DIRECT|O_EXCL after the safety checks (safety.c); files are created or
 * extended to the size asked for.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"
#include "output_priv.h"       /* slc__take_lock */

struct uring_priv {
	int ring_ready;
	int created;                  /* files: this open made it */
	int touched;                  /* files: written or discarded */
	int discard_left;             /* files: a stop left a TRIM behind in a child (apart.c) */
	struct io_uring ring;
	unsigned queued;              /* prepared, not yet submitted */
	int fixed_file;
	int fixed_bufs;
	void **bufs;                  /* registered buffers, by slot */
	unsigned nbufs;
	int abandoned;                /* commands were given up: see uring_abandon() */
	unsigned poll_misses;         /* polls in a row that ended without the completions */
	unsigned poll_rest;           /* reaps left that sleep at once after those */
	int iopoll_here;              /* IOPOLL without SQPOLL: this thread's waits poll the
				       * device in the kernel, so they never sleep */
	unsigned io_poll;             /* SLC_TARGET_HIPRI | SLC_TARGET_SQPOLL: a twin's ring is set up alike */
	struct uring_priv *parent;    /* a twin's (uring_twin()): the target it was made from */
};

#define POLL_MISSES 8u                /* after this many misses in a row ... */
#define POLL_REST 1024u               /* ... this many reaps do not poll */

static int uring_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct uring_priv *u = t->priv;
	struct io_uring_sqe *sqe;
	int fd = u->fixed_file ? 0 : t->fd;

	if (u->abandoned)
		return -ECANCELED;
	if (!(sqe = io_uring_get_sqe(&u->ring))) {
		int rc = io_uring_submit(&u->ring);
		if (rc < 0)
			return rc;
		u->queued = 0;
		sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			return -EBUSY;
	}
	if (io->is_read) {
		if (u->fixed_bufs && io->slot < u->nbufs && u->bufs[io->slot] == buf)
			io_uring_prep_read_fixed(sqe, fd, buf, io->len, io->offset, (int)io->slot);
		else
			io_uring_prep_read(sqe, fd, buf, io->len, io->offset);
	} else {
		if (u->fixed_bufs && io->slot < u->nbufs && u->bufs[io->slot] == buf)
			io_uring_prep_write_fixed(sqe, fd, buf, io->len, io->offset, (int)io->slot);
		else
			io_uring_prep_write(sqe, fd, buf, io->len, io->offset);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	u->queued++;
	return 0;
}

/* Completions ready now, into @done. */
static unsigned take_cqes(struct uring_priv *u, struct slc_io **done, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0, seen = 0;
	uint64_t now = slc__target_mono_ns();

	io_uring_for_each_cqe(&u->ring, head, cqe) {
		struct slc_io *io;
		if (n == max)
			break;
		seen++;
		/* a kernel without timed waits gets liburing's own timeout command */
		if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
			continue;
		io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		io->complete_ns = now;
		done[n++] = io;
	}
	io_uring_cq_advance(&u->ring, seen);
	return n;
}

/*
 * Before sleeping for @min completions, submit what is queued and poll for
 * them for up to t->poll_ns (the engine's choice for a shallow queue).  A
 * ring whose completions run as deferred task work shows them only when
 * asked, so each poll enters the kernel for them (io_uring_get_events).
 * A device slower than the poll keeps missing it: it then sleeps at once
 * for POLL_REST reaps before trying again.
 * Return: 1 when the completions are there (everything submitted).
 */
static int poll_first(struct slc_target *t, struct uring_priv *u, unsigned min)
{
	uint64_t end;

	if (!t->poll_ns || !min)
		return 0;
	if (u->poll_rest) {
		u->poll_rest--;
		return 0;
	}
	if (u->queued || io_uring_sq_ready(&u->ring)) {
		/* a partial submission leaves the rest in the ring: polling
		 * would only miss, so the wait below sends them (and says why
		 * when it cannot) */
		if (io_uring_submit(&u->ring) < 0 || io_uring_sq_ready(&u->ring))
			return 0;
		u->queued = 0;
	}
	end = slc__target_mono_ns() + t->poll_ns;
	while (io_uring_cq_ready(&u->ring) < min) {
		if (slc__target_mono_ns() >= end) {
			if (++u->poll_misses >= POLL_MISSES) {
				u->poll_misses = 0;
				u->poll_rest = POLL_REST;
			}
			return 0;
		}
		if (io_uring_get_events(&u->ring) < 0)
			return 0;
	}
	u->poll_misses = 0;
	return 1;
}

static int uring_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct uring_priv *u = t->priv;
	int rc;

	if (u->abandoned)
		return -ECANCELED;
	/* a polled ring's wait below spins in the kernel already */
	if (!u->iopoll_here && poll_first(t, u, min))
		return (int)take_cqes(u, done, max);
	do {
		rc = io_uring_submit_and_wait(&u->ring, min);
	} while (rc == -EINTR && min == 0);
	if (rc < 0 && rc != -EINTR)
		return rc;
	u->queued = 0;
	return (int)take_cqes(u, done, max);
}

/*
 * A wait on an IOPOLL ring polls until it has its completions and takes no
 * timeout (the kernel ignores it, and the timeout command liburing sends
 * older kernels is refused there), so it polls without a minimum, in
 * rounds, until one is there or the time is up.
 */
static int iopoll_timed(struct uring_priv *u, struct slc_io **done, unsigned max, uint64_t timeout_ns)
{
	uint64_t end = slc__target_mono_ns() + timeout_ns;
	int rc = io_uring_submit(&u->ring);

	if (rc < 0 && rc != -EINTR)
		return rc;
	u->queued = 0;
	while (!io_uring_cq_ready(&u->ring) && slc__target_mono_ns() < end)
		if ((rc = io_uring_get_events(&u->ring)) < 0) {
			if (rc != -EINTR)
				return rc;
			break;            /* a signal: back to the caller, as the sleeping wait is */
		}
	return (int)take_cqes(u, done, max);
}

static int uring_reap_timed(struct slc_target *t, struct slc_io **done, unsigned max, uint64_t timeout_ns)
{
	struct uring_priv *u = t->priv;
	struct __kernel_timespec ts = { .tv_sec = (long long)(timeout_ns / 1000000000u),
					.tv_nsec = (long long)(timeout_ns % 1000000000u) };
	struct io_uring_cqe *cqe;
	int rc;

	if (u->abandoned)
		return -ECANCELED;
	if (u->iopoll_here)
		return iopoll_timed(u, done, max, timeout_ns);
	rc = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	if (rc < 0 && rc != -ETIME && rc != -EINTR)
		return rc;
	u->queued = 0;
	return (int)take_cqes(u, done, max);
}

/*
 * The kernel may still read or write the buffers of the commands given up
 * and still holds the registered file and buffers, so nothing more goes
 * through the ring, and close skips the unregistering, which on older
 * kernels waits for those commands.  Closing the ring itself does not
 * wait: its teardown runs in the kernel once they complete.
 */
static void uring_abandon(struct slc_target *t)
{
	((struct uring_priv *)t->priv)->abandoned = 1;
}

static int uring_register_buffers(struct slc_target *t, void **bufs, unsigned n, size_t bytes)
{
	struct uring_priv *u = t->priv;
	struct iovec *iov = calloc(n, sizeof(*iov));
	int rc;

	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = bytes;
	}
	if (u->fixed_bufs) {
		io_uring_unregister_buffers(&u->ring);
		u->fixed_bufs = 0;
	}
	rc = io_uring_register_buffers(&u->ring, iov, n);
	free(iov);
	free(u->bufs);
	u->bufs = NULL;
	if (rc < 0)
		return 0;            /* not fatal: plain buffers work too */
	u->bufs = malloc(n * sizeof(*u->bufs));
	if (!u->bufs) {
		io_uring_unregister_buffers(&u->ring);
		return 0;
	}
	memcpy(u->bufs, bufs, n * sizeof(*u->bufs));
	u->nbufs = n;
	u->fixed_bufs = 1;
	return 0;
}

/* A file written is marked as slcscope's (its data is ours now: safety.c);
 * one the open created and nothing wrote goes again. */
static void file_done(struct slc_target *t, struct uring_priv *u)
{
	struct stat a, b;

	/* a TRIM left in the kernel may hold the file's lock, which setting
	 * the mark takes: unmarked, the next run checks the file as any other */
	if (u->touched) {
		if (!u->discard_left)
			slc__target_mark(t->fd);   /* without xattrs, the file is checked as any other */
	} else if (u->created && fstat(t->fd, &a) == 0 && stat(t->spec, &b) == 0 &&
		 a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlink(t->spec);
}

static void uring_close(struct slc_target *t)
{
	struct uring_priv *u = t->priv;

	if (u && u->parent && u->touched)
		__atomic_store_n(&u->parent->touched, 1, __ATOMIC_RELAXED);   /* twins close at once */
	else if (u && !u->parent && t->kind == SLC_TARGET_FILE && t->fd >= 0)
		file_done(t, u);
	if (u && u->ring_ready) {
		/* Drop the ring's references to the file before tearing the ring
		 * down: ring teardown runs asynchronously after exit, and a held
		 * registered file would keep the O_EXCL claim on the device for a
		 * moment, so an immediate next run could find it busy. */
		if (u->fixed_bufs && !u->abandoned)
			io_uring_unregister_buffers(&u->ring);
		if (u->fixed_file && !u->abandoned)
			io_uring_unregister_files(&u->ring);
		io_uring_queue_exit(&u->ring);
		free(u->bufs);
	}
	free(u);
	t->priv = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

static int blk_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	uint64_t range[2];

	if (offset >= t->capacity_bytes)
		return 0;
	if (len > t->capacity_bytes - offset)
		len = t->capacity_bytes - offset;
	range[0] = offset;
	range[1] = len;
	return ioctl(t->fd, BLKDISCARD, range) ? -errno : 0;
}

static int file_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	((struct uring_priv *)t->priv)->touched = 1;
	return uring_submit(t, io, buf);
}

static int file_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	((struct uring_priv *)t->priv)->touched = 1;
	if (offset >= t->capacity_bytes)
		return 0;
	if (len > t->capacity_bytes - offset)
		len = t->capacity_bytes - offset;
	return fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)len) ? -errno : 0;
}

static int file_discard_stoppable(struct slc_target *t, uint64_t offset, uint64_t len, const volatile int *stop)
{
	struct uring_priv *u = t->priv;
	int rc;

	u->touched = 1;               /* the child's note of it stays in the child */
	if ((rc = slc__target_discard_apart(t, offset, len, stop)) == -ECANCELED)
		u->discard_left = 1;
	return rc;
}

static int uring_setup(struct slc_target *t, unsigned entries, unsigned io_poll, char *err, size_t errlen);

/* A ring of its own on a duplicate of @t's descriptor (the same open file,
 * so a block device's exclusive claim covers it): the file stays @t's,
 * which marks or removes it at its close as the writes through the twin
 * say. */
static int uring_twin(struct slc_target *t, struct slc_target *tw, unsigned qd, char *err, size_t errlen)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	int rc;

	if (!u)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	u->parent = t->priv;
	tw->priv = u;
	if ((tw->fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0)) < 0)
		rc = slc_errf(err, errlen, -errno, "%s: cannot share the descriptor with a writer thread: %s",
			      t->spec, strerror(errno));
	else
		rc = uring_setup(tw, qd, u->parent->io_poll, err, errlen);
	if (rc)
		uring_close(tw);
	return rc;
}

static const struct slc_target_ops blockdev_ops = {
	.name = "blockdev",
	.caps = SLC_TARGET_CAP_DESTROYS_DATA,
	.submit = uring_submit,
	.reap = uring_reap,
	.reap_timed = uring_reap_timed,
	.abandon = uring_abandon,
	.now_ns = slc__target_mono_now,
	.discard = blk_discard,
	.discard_stoppable = slc__target_discard_apart,
	.idle = slc__target_mono_idle,
	.register_buffers = uring_register_buffers,
	.twin = uring_twin,
	.close = uring_close,
};

static const struct slc_target_ops file_ops = {
	.name = "file",
	.submit = file_submit,
	.reap = uring_reap,
	.reap_timed = uring_reap_timed,
	.abandon = uring_abandon,
	.now_ns = slc__target_mono_now,
	.discard = file_discard,
	.discard_stoppable = file_discard_stoppable,
	.idle = slc__target_mono_idle,
	.register_buffers = uring_register_buffers,
	.twin = uring_twin,
	.close = uring_close,
};

/* The SQ thread sleeps after this long without commands: longer than any
 * gap between a job's refills, far shorter than an idle step, which would
 * otherwise keep a CPU spinning for nothing. */
#define SQ_THREAD_IDLE_MS 100u

static int ring_init(struct uring_priv *u, unsigned entries, unsigned flags)
{
	struct io_uring_params p = { .flags = flags, .sq_thread_idle = SQ_THREAD_IDLE_MS };

	return io_uring_queue_init_params(entries, &u->ring, &p);
}

static const char *io_mode_name(unsigned io_poll)
{
	static const char *const names[] = { "irq", "iopoll", "sqpoll", "iopoll+sqpoll" };

	return names[io_poll & (SLC_TARGET_HIPRI | SLC_TARGET_SQPOLL)];
}

static int uring_setup(struct slc_target *t, unsigned entries, unsigned io_poll, char *err, size_t errlen)
{
	struct uring_priv *u = t->priv ? t->priv : calloc(1, sizeof(*u));
	unsigned base = (io_poll & SLC_TARGET_HIPRI ? IORING_SETUP_IOPOLL : 0) |
			(io_poll & SLC_TARGET_SQPOLL ? IORING_SETUP_SQPOLL : 0);
	int rc = -EINVAL;

	if (!u)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->priv = u;
	/*
	 * One thread submits and reaps, so let the kernel run completion work
	 * only when we wait for it (DEFER_TASKRUN, 6.1+; not with an SQ
	 * thread, which is a second issuer) instead of interrupting the
	 * submitter; fall back to cooperative task work (5.19+), then to the
	 * plain ring.
	 */
	if (!(base & IORING_SETUP_SQPOLL))
		rc = ring_init(u, entries, base | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	if (rc == -EINVAL)
		rc = ring_init(u, entries, base | IORING_SETUP_COOP_TASKRUN);
	if (rc == -EINVAL)
		rc = ring_init(u, entries, base);
	if (rc < 0 && io_poll)
		return slc_errf(err, errlen, rc, "%s: the kernel refused a ring with %s (%s)%s", t->spec,
				io_poll & SLC_TARGET_HIPRI ? "polled completions (IORING_SETUP_IOPOLL)" :
				"a submission thread (IORING_SETUP_SQPOLL)", strerror(-rc),
				rc == -EPERM ? ": before Linux 5.11 an SQ thread needs root (CAP_SYS_NICE)" : "");
	if (rc < 0)
		return slc_errf(err, errlen, rc, "io_uring is not available (%s): a kernel 5.6 or newer "
			    "with io_uring enabled is needed (sysctl kernel.io_uring_disabled=0)", strerror(-rc));
	u->ring_ready = 1;
	u->iopoll_here = (io_poll & SLC_TARGET_HIPRI) && !(io_poll & SLC_TARGET_SQPOLL);
	u->io_poll = io_poll;
	t->io_mode = io_mode_name(io_poll);
	if (io_uring_register_files(&u->ring, &t->fd, 1) == 0)
		u->fixed_file = 1;
	return 0;
}

struct check_job {
	const char *path;
	int blk;
};

static int check_in_child(void *arg, char *what, size_t len)
{
	const struct check_job *j = arg;

	return j->blk ? slc_blockdev_check(j->path, what, len) : slc_file_check(j->path, 0, what, len);
}

/* slc_blockdev_check() or slc_file_check() in a child process: the reads
 * of libblkid, queued behind a command the drive holds, would keep this
 * process in the kernel past any Ctrl-C (apart.c). */
static int check(const char *path, int blk, const struct slc_target_opts *o, char *what, size_t len)
{
	struct check_job j = { path, blk };

	return slc__apart(check_in_child, &j, what, len, o->stop);
}

/* What the checks' result @rc means for the open: 0 to go on, or the refusal. */
static int refuse(const char *path, int rc, const char *what, const struct slc_target_opts *o, char *err, size_t errlen)
{
	if (rc == -ECANCELED)
		return slc_errf(err, errlen, rc, "%s: stopped during the safety checks; nothing was written", path);
	if (rc < 0)
		return slc_errf(err, errlen, rc, "%s: cannot check whether it is in use: %s", path, what);
	if (rc & SLC_CHECK_IN_USE)
		return slc_errf(err, errlen, -EBUSY, "%s: refusing to write: %s; --force does not override a mount or "
				"swap: unmount it (or swapoff) first", path, what);
	if (rc && !o->force)
		return slc_errf(err, errlen, -EBUSY, "%s: refusing to write: %s (add --force to destroy it anyway)", path, what);
	return 0;
}

/* A read-only device (a loop device attached -r, a write-protected card)
 * is refused before the checks and the probe, not at the first write. */
static int blockdev_writable(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), ro = 0;

	if (fd < 0)
		return slc_errf(err, errlen, -errno, "%s: cannot open: %s", path, strerror(errno));
	if (ioctl(fd, BLKROGET, &ro) != 0)
		ro = 0;                   /* not known: the read-write open still tells */
	close(fd);
	if (ro)
		return slc_errf(err, errlen, -EROFS, "%s: the device is read-only (BLKROGET); nothing was written", path);
	return 0;
}

/*
 * --hipri on a queue without poll queues would still run: the kernel turns
 * the polled commands into interrupt-driven ones and the ring spins on
 * completions that arrive by interrupt, a run that says it polled when it
 * did not.  The queue's io_poll (its own, or its disk's for a partition)
 * tells.
 */
static int poll_queues_of(const struct stat *stp, const char *path, char *err, size_t errlen)
{
	struct stat st = *stp;
	char f[96], v[8] = "";
	int rc = -ENOENT;

	for (size_t i = 0; i < 2 && rc == -ENOENT; i++) {
		FILE *in;
		/* a partition's queue is its disk's, one directory up */
		snprintf(f, sizeof(f), "/sys/dev/block/%u:%u/%squeue/io_poll", major(st.st_rdev), minor(st.st_rdev),
			 i ? "../" : "");
		if (!(in = fopen(f, "r"))) {
			rc = -errno;
			continue;
		}
		rc = fgets(v, sizeof(v), in) ? 0 : -EIO;
		fclose(in);
	}
	if (rc)
		return slc_errf(err, errlen, rc, "%s: --hipri: cannot tell whether the device has poll queues "
				"(%s: %s)", path, f, strerror(-rc));
	if (v[0] != '1')
		return slc_errf(err, errlen, -EOPNOTSUPP, "%s: --hipri needs poll queues and the device has none "
				"(%s is %c): an NVMe drive gets them with nvme.poll_queues=N on the "
				"kernel command line (or modprobe nvme poll_queues=N); or drop --hipri", path, f, v[0] ? v[0] : '?');
	return 0;
}

static int has_poll_queues(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	return poll_queues_of(&st, path, err, errlen);
}

int slc_blockdev_poll_queues(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st))
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s: --hipri: not a block device", path);
	return poll_queues_of(&st, path, err, errlen);
}

static int blockdev_open(struct slc_target *t, const char *path, const struct slc_target_opts *o,
			 char *err, size_t errlen)
{
	char what[512];
	uint64_t size = 0;
	int lbs = 0;
	unsigned int pbs = 0;
	int rc;

	if (!o->destructive)
		return slc_errf(err, errlen, -EPERM, "%s is a block device: writing it destroys everything on it; "
			    "add --destructive to do that", path);
	if ((rc = blockdev_writable(path, err, errlen)))
		return rc;
	if ((rc = refuse(path, check(path, 1, o, what, sizeof(what)), what, o, err, errlen)))
		return rc;
	t->fd = open(path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
	if (t->fd < 0) {
		rc = -errno;
		return slc_errf(err, errlen, rc, rc == -EBUSY ? "%s: in use by the kernel or another program (mounted, "
			    "held by a RAID/LVM/dm device, or open exclusively)" : "%s: cannot open: %s",
			    path, strerror(-rc));
	}
	if (ioctl(t->fd, BLKGETSIZE64, &size) || ioctl(t->fd, BLKSSZGET, &lbs) || ioctl(t->fd, BLKPBSZGET, &pbs))
		return slc_errf(err, errlen, -errno, "%s: cannot read the device geometry: %s", path, strerror(errno));
	t->capacity_bytes = size;
	t->logical_block_bytes = (uint32_t)lbs;
	t->physical_block_bytes = pbs;
	t->ops = &blockdev_ops;
	t->kind = SLC_TARGET_BLOCKDEV;
	if ((o->io_poll & SLC_TARGET_HIPRI) && (rc = has_poll_queues(t->fd, path, err, errlen)))
		return rc;
	return uring_setup(t, o->max_queue_depth, o->io_poll, err, errlen);
}

/* The filesystem that holds (or would hold) @path is not read-only: said
 * before the checks, not as a failed open after them. */
static int file_fs_writable(const char *path, int exists, char *err, size_t errlen)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct statvfs sv;

	if (exists)
		snprintf(dir, sizeof(dir), "%s", path);
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (statvfs(dir, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		return slc_errf(err, errlen, -EROFS, "%s: on a read-only filesystem; nothing was written", path);
	return 0;
}

/*
 * The plan may write every byte of the file, and its TRIMs punch holes
 * that later writes fill again, so the file's whole size must fit in what
 * it holds already plus the filesystem's free space: a sparse file larger
 * than that would fill the filesystem half-way through the run (and fail
 * whatever else writes there).  No margin is kept: a trace that then finds
 * the disk full is closed with what it holds (a filesystem of only the
 * target, as the emulator's, would otherwise never fit).  Copy-on-write
 * filesystems with snapshots may need more than this.
 */

static int file_space(const char *path, int fd, uint64_t size, char *err, size_t errlen)
{
	struct statvfs sv;
	struct stat st;
	uint64_t have, avail;
	char a[32], b[32], c[32];

	if (fstat(fd, &st) != 0 || fstatvfs(fd, &sv) != 0)
		return 0;                 /* not known: the writes still report ENOSPC */
	have = (uint64_t)st.st_blocks * 512;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (have >= size || avail >= size - have)
		return 0;
	return slc_errf(err, errlen, -ENOSPC, "%s: not enough free space: the run may write all %s of it, %s more "
			"than it holds now, and the filesystem has %s free; "
			"nothing was written", path, slc_format_bytes(a, sizeof(a), (double)size, SLC_UNITS_DECIMAL),
			slc_format_bytes(b, sizeof(b), (double)(size - have), SLC_UNITS_DECIMAL),
			slc_format_bytes(c, sizeof(c), (double)avail, SLC_UNITS_DECIMAL));
}

/* Open the file, creating it when the options give a size and it does not
 * exist; existing files pass the checks first.  @st: the file as checked. */
static int file_create_or_check(struct slc_target *t, const char *path, const struct slc_target_opts *o,
				struct stat *st, char *err, size_t errlen)
{
	struct uring_priv *u = t->priv;
	char what[1024];
	int rc, exists = stat(path, st) == 0, missing = !exists && errno == ENOENT;

	if (missing && slc__path_in_devfs(path))
		return slc_errf(err, errlen, -ENODEV, "%s: no such device", path);
	/* opening some character devices acts (a watchdog arms itself, a tape rewinds) */
	if (exists && !S_ISREG(st->st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s: not a regular file or block device", path);
	if ((rc = file_fs_writable(path, exists, err, errlen)))
		return rc;
	/* a trace another run is writing: no --force destroys it (the
	 * checks below would only see a file open elsewhere) */
	if (exists) {
		/* the file as checked (a link followed, as the open below does);
		 * O_NONBLOCK: a FIFO put in its place does not hang the open */
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		struct stat now;

		rc = fd >= 0 && fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == st->st_dev &&
		     now.st_ino == st->st_ino ? slc__take_lock(fd, path, err, errlen) : 0;
		if (fd >= 0) close(fd);
		if (rc == -EBUSY) return rc;
	}
	if (exists && (rc = refuse(path, check(path, 0, o, what, sizeof(what)), what, o, err, errlen)))
		return rc;
	if (missing && o->file_size_bytes) {
		t->fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC | O_CREAT | O_EXCL, 0644);
		u->created = t->fd >= 0;
		if (t->fd < 0 && errno == EINVAL)
			unlink(path);     /* made before O_DIRECT was refused, and by us (O_EXCL) */
	} else {
		t->fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	}
	if (t->fd < 0) {
		rc = -errno;
		if (rc == -EINVAL)
			return slc_errf(err, errlen, -EOPNOTSUPP, "%s: the filesystem does not support O_DIRECT", path);
		if (rc == -ENOENT)
			return slc_errf(err, errlen, rc, "%s: no such file (give --size to create it)", path);
		return slc_errf(err, errlen, rc, "%s: cannot open: %s", path, strerror(-rc));
	}
	/* two runs on one file would mix their writes and measure each other */
	if (flock(t->fd, LOCK_EX | LOCK_NB))
		return slc_errf(err, errlen, -EBUSY, errno == EWOULDBLOCK ? "%s: another slcscope run is writing it "
				"(the file is locked)" : "%s: cannot lock it: %s", path, strerror(errno));
	if (exists) {
		struct stat now;
		if (fstat(t->fd, &now) || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
			return slc_errf(err, errlen, -EAGAIN, "%s: replaced while it was checked; try again", path);
	}
	return fstat(t->fd, st) ? slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno)) : 0;
}

/* --size: the file's extents allocated (fallocate), else a sparse file (ftruncate). */
struct extend_job {
	int fd;
	uint64_t size;
};

/* In a child process (apart.c): a filesystem without unwritten extents
 * (exFAT, some network ones) writes every byte of the allocation, which
 * takes minutes for a large file and does not stop for a signal. */
static int extend_in_child(void *arg, char *out, size_t outlen)
{
	const struct extend_job *j = arg;

	(void)out; (void)outlen;
	if (fallocate(j->fd, 0, 0, (off_t)j->size) == 0)
		return 0;
	if (errno != EOPNOTSUPP)
		return -errno;
	return ftruncate(j->fd, (off_t)j->size) ? -errno : 0;
}

static int file_open(struct slc_target *t, const char *path, const struct slc_target_opts *o,
		     char *err, size_t errlen)
{
	struct stat st;
	int rc;

	if (!(t->priv = calloc(1, sizeof(struct uring_priv))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->kind = SLC_TARGET_FILE;
	if ((rc = file_create_or_check(t, path, o, &st, err, errlen)))
		return rc;
	if (!S_ISREG(st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s: not a regular file or block device", path);
	if ((rc = file_space(path, t->fd, (uint64_t)st.st_size > o->file_size_bytes ? (uint64_t)st.st_size :
			     o->file_size_bytes, err, errlen)))
		return rc;
	if (o->file_size_bytes && (uint64_t)st.st_size < o->file_size_bytes) {
		/* allocate the extents now, as unwritten: the filesystem's own
		 * allocation stays out of the measured writes; a filesystem
		 * without fallocate gets a sparse file, but one without the
		 * space is refused now rather than half-way through a fill */
		struct extend_job j = { t->fd, o->file_size_bytes };
		if ((rc = slc__apart(extend_in_child, &j, NULL, 0, o->stop)) == -ECANCELED)
			return slc_errf(err, errlen, rc, "%s: stopped while it was extended to %" PRIu64 " bytes", path,
					o->file_size_bytes);
		if (rc)
			return slc_errf(err, errlen, rc, "%s: cannot extend to %" PRIu64 " bytes: %s", path,
				    o->file_size_bytes, strerror(-rc));
		st.st_size = (off_t)o->file_size_bytes;
	}
	if (st.st_size <= 0)
		return slc_errf(err, errlen, -EINVAL, "%s: empty file (give --size)", path);
	t->capacity_bytes = (uint64_t)st.st_size / 4096 * 4096;
	t->logical_block_bytes = 4096;    /* safe O_DIRECT alignment on any filesystem */
	t->physical_block_bytes = 4096;
	t->ops = &file_ops;
	return uring_setup(t, o->max_queue_depth, o->io_poll, err, errlen);
}

/* A failed open leaves nothing behind: the ring, its buffers, the descriptor. */
int slc__target_blockdev_open(struct slc_target *t, const char *spec, const struct slc_target_opts *o,
			      char *err, size_t errlen)
{
	int rc = blockdev_open(t, spec, o, err, errlen);

	if (rc)
		uring_close(t);
	return rc;
}

int slc__target_file_open(struct slc_target *t, const char *spec, const struct slc_target_opts *o,
			  char *err, size_t errlen)
{
	int rc = file_open(t, spec, o, err, errlen);

	if (rc)
		uring_close(t);
	return rc;
}
