// SPDX-License-Identifier: MIT
/*
 * Targets: block device and regular file (io_uring), simulated drive
 * (virtual clock) and null (completes at once).  One const ops table each.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/core.h"
#include "private.h"


static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- io_uring: block devices and files ---- */

struct uring_priv {
	struct io_uring ring;
	unsigned queued;              /* prepared, not yet submitted */
	int fixed_file;
	int fixed_bufs;
	void **bufs;                  /* registered buffers, by slot */
	unsigned nbufs;
};

static uint64_t uring_now(struct slc_target *t)
{
	(void)t;
	return mono_ns();
}

static int uring_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct uring_priv *u = t->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_file ? 0 : t->fd;

	if (!sqe) {
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

static int uring_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct uring_priv *u = t->priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t now;
	int rc;

	do {
		rc = io_uring_submit_and_wait(&u->ring, min);
	} while (rc == -EINTR && min == 0);
	if (rc < 0 && rc != -EINTR)
		return rc;
	u->queued = 0;
	now = mono_ns();
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		struct slc_io *io;
		if (n == max)
			break;
		io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		io->complete_ns = now;
		done[n++] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
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

static void real_idle(struct slc_target *t, uint64_t until_ns)
{
	(void)t;
	for (;;) {
		uint64_t now = mono_ns();
		struct timespec ts;
		if (now >= until_ns)
			return;
		ts.tv_sec = (time_t)((until_ns - now) / 1000000000ull);
		ts.tv_nsec = (long)((until_ns - now) % 1000000000ull);
		if (ts.tv_sec > 0) { ts.tv_sec = 0; ts.tv_nsec = 200000000; }  /* wake to check signals */
		nanosleep(&ts, NULL);
	}
}

static void uring_close(struct slc_target *t)
{
	struct uring_priv *u = t->priv;

	if (u) {
		/* Drop the ring's references to the file before tearing the ring
		 * down: ring teardown runs asynchronously after exit, and a held
		 * registered file would keep the O_EXCL claim on the device for a
		 * moment, so an immediate next run could find it busy. */
		if (u->fixed_bufs)
			io_uring_unregister_buffers(&u->ring);
		if (u->fixed_file)
			io_uring_unregister_files(&u->ring);
		io_uring_queue_exit(&u->ring);
		free(u->bufs);
		free(u);
	}
	if (t->fd >= 0)
		close(t->fd);
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

static int file_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	if (offset >= t->capacity_bytes)
		return 0;
	if (len > t->capacity_bytes - offset)
		len = t->capacity_bytes - offset;
	return fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)len) ? -errno : 0;
}

static const struct slc_target_ops blockdev_ops = {
	.name = "blockdev",
	.submit = uring_submit,
	.reap = uring_reap,
	.now_ns = uring_now,
	.discard = blk_discard,
	.idle = real_idle,
	.register_buffers = uring_register_buffers,
	.close = uring_close,
};

static const struct slc_target_ops file_ops = {
	.name = "file",
	.submit = uring_submit,
	.reap = uring_reap,
	.now_ns = uring_now,
	.discard = file_discard,
	.idle = real_idle,
	.register_buffers = uring_register_buffers,
	.close = uring_close,
};

static int uring_setup(struct slc_target *t, unsigned entries, char *err, size_t errlen)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	int rc;

	if (!u)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	/*
	 * One thread submits and reaps, so let the kernel run completion work
	 * only when we wait for it (DEFER_TASKRUN, 6.1+) instead of interrupting
	 * the submitter; fall back to cooperative task work (5.19+), then to
	 * the plain ring.
	 */
	rc = io_uring_queue_init(entries, &u->ring, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	if (rc == -EINVAL)
		rc = io_uring_queue_init(entries, &u->ring, IORING_SETUP_COOP_TASKRUN);
	if (rc == -EINVAL)
		rc = io_uring_queue_init(entries, &u->ring, 0);
	if (rc < 0) {
		free(u);
		return slc_errf(err, errlen, rc, "io_uring is not available (%s): a kernel 5.6 or newer "
			    "with io_uring enabled is needed (sysctl kernel.io_uring_disabled=0)", strerror(-rc));
	}
	t->priv = u;
	if (io_uring_register_files(&u->ring, &t->fd, 1) == 0)
		u->fixed_file = 1;
	return 0;
}

/* ---- simulated drive: virtual clock ---- */

#define SIM_FIFO 1024u

struct sim_priv {
	uint64_t clock;               /* virtual now */
	struct slc_io *fifo[SIM_FIFO];   /* in flight, completion order */
	unsigned head, n;
};

static int sim_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct sim_priv *p = t->priv;

	if (p->n == SIM_FIFO)
		return -EBUSY;
	io->submit_ns = p->clock;
	if (io->is_read)
		io->complete_ns = slc_sim_read(t->sim, p->clock, io->offset, io->len);
	else
		io->complete_ns = slc_sim_write(t->sim, p->clock, io->offset, io->len, buf);
	io->result = (int)io->len;
	p->fifo[(p->head + p->n++) % SIM_FIFO] = io;
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
	p->clock = slc_sim_trim(t->sim, p->clock, offset, len);
	return 0;
}

static void sim_idle(struct slc_target *t, uint64_t until_ns)
{
	struct sim_priv *p = t->priv;
	if (until_ns > p->clock) {
		slc_sim_idle(t->sim, until_ns);
		p->clock = until_ns;
	}
}

static void sim_hint(struct slc_target *t, uint64_t offset)
{
	slc_sim_prefetch(t->sim, offset);
}

static void sim_close(struct slc_target *t)
{
	slc_sim_close(t->sim);
	free(t->priv);
}

static const struct slc_target_ops sim_ops = {
	.name = "sim",
	.submit = sim_submit,
	.reap = sim_reap,
	.now_ns = sim_now,
	.discard = sim_discard,
	.idle = sim_idle,
	.hint = sim_hint,
	.close = sim_close,
};

int slc_target_from_sim(struct slc_target **out, struct slc_sim *sim, const char *spec)
{
	struct slc_target *t = calloc(1, sizeof(*t));
	const struct slc_sim_model *m = slc_sim_model_of(sim);

	*out = NULL;
	if (!t || !(t->priv = calloc(1, sizeof(struct sim_priv)))) {
		free(t);
		return -ENOMEM;
	}
	t->ops = &sim_ops;
	t->kind = SLC_TARGET_SIM;
	snprintf(t->spec, sizeof(t->spec), "%s", spec ? spec : m->name);
	t->capacity_bytes = m->capacity_bytes;
	t->logical_block_bytes = 512;
	t->physical_block_bytes = m->unit_bytes;
	t->fd = -1;
	t->sim = sim;
	*out = t;
	return 0;
}

/* ---- null: completes at once ---- */

struct null_priv {
	struct slc_io *q[1024];
	unsigned n;
};

static int null_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct null_priv *p = t->priv;
	(void)buf;
	if (p->n == 1024)
		return -EBUSY;
	p->q[p->n++] = io;
	return 0;
}

static int null_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct null_priv *p = t->priv;
	uint64_t now = mono_ns();
	unsigned n = p->n < max ? p->n : max;

	(void)min;
	for (unsigned i = 0; i < n; i++) {
		p->q[i]->result = (int)p->q[i]->len;
		p->q[i]->complete_ns = now;
		done[i] = p->q[i];
	}
	memmove(p->q, p->q + n, (p->n - n) * sizeof(p->q[0]));
	p->n -= n;
	return (int)n;
}

static int null_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	(void)t; (void)offset; (void)len;
	return 0;
}

static void null_close(struct slc_target *t)
{
	free(t->priv);
}

static const struct slc_target_ops null_ops = {
	.name = "null",
	.submit = null_submit,
	.reap = null_reap,
	.now_ns = uring_now,
	.discard = null_discard,
	.idle = real_idle,
	.close = null_close,
};

/* ---- opening ---- */

static int open_blockdev(struct slc_target *t, const char *path, const struct slc_target_opts *o,
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
	rc = slc_blockdev_check(path, what, sizeof(what));
	if (rc < 0)
		return slc_errf(err, errlen, rc, "%s: cannot check whether it is in use: %s", path, what);
	if (rc > 0 && !o->force)
		return slc_errf(err, errlen, -EBUSY, "%s: refusing to write: %s (add --force to destroy it anyway)", path, what);
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
	return uring_setup(t, o->max_queue_depth, err, errlen);
}

static int open_file(struct slc_target *t, const char *path, const struct slc_target_opts *o,
		     char *err, size_t errlen)
{
	struct stat st;
	int rc;

	t->fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC | (o->file_size_bytes ? O_CREAT : 0), 0644);
	if (t->fd < 0) {
		rc = -errno;
		if (rc == -EINVAL)
			return slc_errf(err, errlen, rc, "%s: the filesystem does not support O_DIRECT", path);
		if (rc == -ENOENT)
			return slc_errf(err, errlen, rc, "%s: no such file (give --size to create it)", path);
		return slc_errf(err, errlen, rc, "%s: cannot open: %s", path, strerror(-rc));
	}
	if (fstat(t->fd, &st))
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s: not a regular file or block device", path);
	if (o->file_size_bytes && (uint64_t)st.st_size < o->file_size_bytes) {
		/* allocate the extents now, as unwritten: the filesystem's own
		 * allocation stays out of the measured writes */
		if (fallocate(t->fd, 0, 0, (off_t)o->file_size_bytes) &&
		    ftruncate(t->fd, (off_t)o->file_size_bytes))
			return slc_errf(err, errlen, -errno, "%s: cannot extend to %" PRIu64 " bytes: %s", path,
				    o->file_size_bytes, strerror(errno));
		st.st_size = (off_t)o->file_size_bytes;
	}
	if (st.st_size <= 0)
		return slc_errf(err, errlen, -EINVAL, "%s: empty file (give --size)", path);
	t->capacity_bytes = (uint64_t)st.st_size / 4096 * 4096;
	t->logical_block_bytes = 4096;    /* safe O_DIRECT alignment on any filesystem */
	t->physical_block_bytes = 4096;
	t->ops = &file_ops;
	t->kind = SLC_TARGET_FILE;
	return uring_setup(t, o->max_queue_depth, err, errlen);
}

int slc_target_open(struct slc_target **out, const char *spec, const struct slc_target_opts *opts,
		    char *err, size_t errlen)
{
	struct slc_target_opts o = opts ? *opts : (struct slc_target_opts){ 0 };
	struct slc_target *t;
	struct stat st;
	int rc;

	*out = NULL;
	if (!o.max_queue_depth)
		o.max_queue_depth = 256;
	if (!spec || !*spec)
		return slc_errf(err, errlen, -EINVAL, "no target given");
	if (strlen(spec) >= sizeof(t->spec))
		return slc_errf(err, errlen, -ENAMETOOLONG, "target name too long");
	if (strncmp(spec, "sim:", 4) == 0) {
		struct slc_sim_model m;
		struct slc_sim *sim;
		if ((rc = slc_sim_model_load(&m, spec, err, errlen)))
			return rc;
		if ((rc = slc_sim_open(&sim, &m, o.seed ? o.seed : 1, err, errlen)))
			return rc;
		if ((rc = slc_target_from_sim(out, sim, spec))) {
			slc_sim_close(sim);
			return slc_errf(err, errlen, rc, "out of memory");
		}
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->fd = -1;
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if (strncmp(spec, "null:", 5) == 0) {
		if (slc_parse_bytes(&t->capacity_bytes, spec + 5, err, errlen) || t->capacity_bytes < 4096) {
			if (t->capacity_bytes < 4096)
				slc_errf(err, errlen, -EINVAL, "null: needs a size of at least 4k, as in null:100GB");
			free(t);
			return -EINVAL;
		}
		t->priv = calloc(1, sizeof(struct null_priv));
		if (!t->priv) {
			free(t);
			return slc_errf(err, errlen, -ENOMEM, "out of memory");
		}
		t->ops = &null_ops;
		t->kind = SLC_TARGET_NULL;
		t->logical_block_bytes = 512;
		t->physical_block_bytes = 4096;
		*out = t;
		return 0;
	}
	if (stat(spec, &st) == 0 && S_ISBLK(st.st_mode))
		rc = open_blockdev(t, spec, &o, err, errlen);
	else
		rc = open_file(t, spec, &o, err, errlen);
	if (rc) {
		if (!t->ops)
			t->ops = &file_ops;   /* for the cleanup below */
		t->ops->close(t);
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void slc_target_close(struct slc_target *t)
{
	if (!t)
		return;
	t->ops->close(t);
	free(t);
}

const char *slc_target_spec(const struct slc_target *t) { return t->spec; }
enum slc_target_kind slc_target_kind(const struct slc_target *t) { return t->kind; }
uint64_t slc_target_capacity(const struct slc_target *t) { return t->capacity_bytes; }
uint32_t slc_target_logical_block(const struct slc_target *t) { return t->logical_block_bytes; }
uint64_t slc_target_now_ns(struct slc_target *t) { return t->ops->now_ns(t); }
int slc_target_discard(struct slc_target *t, uint64_t offset, uint64_t len) { return t->ops->discard(t, offset, len); }
void slc_target_idle(struct slc_target *t, uint64_t until_ns) { t->ops->idle(t, until_ns); }
struct slc_sim *slc_target_sim(struct slc_target *t) { return t->kind == SLC_TARGET_SIM ? t->sim : NULL; }

unsigned slc_target_caps(const struct slc_target *t)
{
	switch (t->kind) {
	case SLC_TARGET_SIM:
		return SLC_TARGET_CAP_VIRTUAL_CLOCK | SLC_TARGET_CAP_EVENTS | SLC_TARGET_CAP_COUNTERS;
	case SLC_TARGET_NULL:
		return SLC_TARGET_CAP_NO_IO;
	case SLC_TARGET_BLOCKDEV:
		return SLC_TARGET_CAP_DESTROYS_DATA;
	default:
		return 0;
	}
}
