// SPDX-License-Identifier: MIT
/*
 * The FUSE operations: DIR holds drive.img and stats.json.  A read, write or
 * fallocate of drive.img takes the model lock, turns its real arrival into a
 * model submission, checks the injected faults, calls the model, releases
 * the lock, moves the data to or from the store, and queues the reply for
 * the model's completion (replies.c).  A discard (PUNCH_HOLE) or
 * write-zeroes (ZERO_RANGE), which is what the loop driver sends, is a TRIM.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "emu_priv.h"

enum { INO_ROOT = FUSE_ROOT_ID, INO_IMG, INO_STATS };

static int hits_fail_at(const struct slc_emu *e, uint64_t off, uint64_t len)
{
	for (size_t i = 0; i < e->o.n_fail_at; i++)
		if (e->o.fail_at[i] >= off && e->o.fail_at[i] < off + len)
			return 1;
	return 0;
}

/* A command goes into the model; its reply (or error) takes it out. Under e->mu. */
static void enter(struct slc_emu *e)
{
	uint64_t n = __atomic_add_fetch(&e->in_flight, 1, __ATOMIC_RELAXED);

	if (n > e->in_flight_max)
		e->in_flight_max = n;
}

static void leave_err(struct slc_emu *e, fuse_req_t req, int err)
{
	__atomic_fetch_sub(&e->in_flight, 1, __ATOMIC_RELAXED);
	fuse_reply_err(req, err);
}

static uint64_t spike(struct slc_emu *e)
{
	if (e->o.spike_every && e->cmds % e->o.spike_every == 0) {
		e->spikes++;
		return e->o.spike_ns;
	}
	return 0;
}

static struct slc_emu *emu_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static void fill_stat(struct slc_emu *e, fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = e->uid;
	st->st_gid = e->gid;
	st->st_atime = st->st_mtime = st->st_ctime = e->start_wall;
	st->st_blksize = 4096;
	switch (ino) {
	case INO_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		break;
	case INO_IMG: {
		struct stat ss;
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)e->m.capacity_bytes;
		if (fstat(e->store_fd, &ss) == 0)
			st->st_blocks = ss.st_blocks;    /* what the store holds: du shows TRIM */
		break;
	}
	case INO_STATS: {
		char *s = slc__emu_snapshot_json(e);
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = s ? (off_t)strlen(s) : 0;
		free(s);
		break;
	}
	}
}

static void op_init(void *ud, struct fuse_conn_info *conn)
{
	struct slc_emu *e = ud;

	/* several direct I/Os in flight: async DIO, and more background
	 * requests than the kernel's default of 12 */
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	conn->max_background = 256;
	conn->congestion_threshold = 192;
	e->async_dio = !!(conn->want & FUSE_CAP_ASYNC_DIO);
	e->max_background = conn->max_background;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct slc_emu *e = emu_of(req);
	struct fuse_entry_param ep;

	memset(&ep, 0, sizeof(ep));
	if (parent != INO_ROOT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (strcmp(name, SLC_EMU_IMG_NAME) == 0)
		ep.ino = INO_IMG;
	else if (strcmp(name, SLC_EMU_STATS_NAME) == 0)
		ep.ino = INO_STATS;
	else {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_stat(e, ep.ino, &ep.attr);
	ep.attr_timeout = ep.ino == INO_IMG ? 1.0 : 0;
	ep.entry_timeout = 1.0;
	fuse_reply_entry(req, &ep);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);
	struct stat st;

	(void)fi;
	if (ino != INO_ROOT && ino != INO_IMG && ino != INO_STATS) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_stat(e, ino, &st);
	fuse_reply_attr(req, &st, ino == INO_IMG ? 1.0 : 0);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);
	struct stat st;

	(void)fi;
	/* a drive has the size it has; times and modes are accepted and ignored */
	if ((to_set & FUSE_SET_ATTR_SIZE) && (ino != INO_IMG || (uint64_t)attr->st_size != e->m.capacity_bytes)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fill_stat(e, ino, &st);
	fuse_reply_attr(req, &st, ino == INO_IMG ? 1.0 : 0);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	static const struct { const char *name; fuse_ino_t ino; mode_t mode; } ents[] = {
		{ ".", INO_ROOT, S_IFDIR }, { "..", INO_ROOT, S_IFDIR },
		{ SLC_EMU_IMG_NAME, INO_IMG, S_IFREG }, { SLC_EMU_STATS_NAME, INO_STATS, S_IFREG },
	};
	char buf[1024];
	size_t used = 0;

	(void)fi;
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (size_t i = (size_t)off; i < sizeof(ents) / sizeof(ents[0]); i++) {
		struct stat st = { .st_ino = ents[i].ino, .st_mode = ents[i].mode };
		size_t n = fuse_add_direntry(req, buf + used, sizeof(buf) - used, ents[i].name, &st, (off_t)(i + 1));
		if (used + n > sizeof(buf) || used + n > size)
			break;
		used += n;
	}
	fuse_reply_buf(req, buf, used);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);

	if (ino == INO_STATS) {
		if ((fi->flags & O_ACCMODE) != O_RDONLY) {
			fuse_reply_err(req, EACCES);
			return;
		}
		fi->fh = (uint64_t)(uintptr_t)slc__emu_snapshot_json(e);
		if (!fi->fh) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		fi->direct_io = 1;               /* each open is a fresh snapshot */
		fuse_reply_open(req, fi);
		return;
	}
	if (ino != INO_IMG) {
		fuse_reply_err(req, ino == INO_ROOT ? EISDIR : ENOENT);
		return;
	}
	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return;
	}
	if (fi->flags & O_DIRECT) {
		e->opens_direct++;
	} else {
		e->opens_buffered++;
		if (!e->warned_buffered && (fi->flags & O_ACCMODE) != O_RDONLY && !e->o.quiet) {
			e->warned_buffered = 1;
			fprintf(stderr, "slcscope emulate: note: %s opened for writing without O_DIRECT: each request "
				"still reaches the model, but one at a time (a loop device needs "
				"'losetup --direct-io=on' for several in flight)\n", SLC_EMU_IMG_NAME);
		}
	}
	pthread_mutex_unlock(&e->mu);
	fi->direct_io = 1;                      /* never cached: every I/O reaches the model */
	fi->keep_cache = 0;
	/* a close sends no FLUSH (op_flush does nothing anyway): the kernel
	 * takes the inode's lock for a FLUSH, and a TRIM the model holds (a
	 * fallocate, under that lock) would then hold every close of drive.img,
	 * a disk's close never waits for its TRIMs */
	fi->noflush = 1;
	fuse_reply_open(req, fi);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino == INO_STATS)
		free((void *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void store_error(struct slc_emu *e, const char *what, int err)
{
	pthread_mutex_lock(&e->mu);
	if (!e->warned_store) {
		e->warned_store = 1;
		fprintf(stderr, "slcscope emulate: the data store %s failed: %s (the I/O gets an error)\n", what, strerror(err));
	}
	pthread_mutex_unlock(&e->mu);
}

/* A fault for an I/O of @len bytes at @off, or 0; under e->mu. */
static int fault(struct slc_emu *e, uint64_t off, uint64_t len, int is_write)
{
	if (hits_fail_at(e, off, len)) {
		e->injected_errors++;
		return EIO;
	}
	if (!is_write)
		return 0;
	if (e->written >= e->o.vanish_after_bytes) {
		e->vanished = 1;
		e->injected_errors++;
		if (!e->o.quiet)
			fprintf(stderr, "slcscope emulate: vanishing after %" PRIu64 " bytes written (--vanish-after-bytes)\n",
				e->written);
		fuse_session_exit(e->se);
		return EIO;
	}
	if (e->written >= e->o.fail_after_bytes) {
		e->injected_errors++;
		return EIO;
	}
	return 0;
}

/*
 * Take a command in: with the lock held, count it and apply the injected
 * faults.  Return: 1 with the lock held and the command admitted, or 0 with
 * the lock released and the request answered (the device is gone, or a
 * fault hit it).
 */
static int admit(struct slc_emu *e, fuse_req_t req, uint64_t off, size_t size, int write)
{
	int f;

	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return 0;
	}
	e->cmds++;
	if (write)
		e->write_cmds++;
	else
		e->read_cmds++;
	if ((f = fault(e, off, size, write))) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, f);
		return 0;
	}
	return 1;
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	size_t left;

	(void)fi;
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (off < 0 || (uint64_t)off >= e->m.capacity_bytes) {
		fuse_reply_err(req, size ? ENOSPC : 0);
		return;
	}
	if (size > e->m.capacity_bytes - (uint64_t)off)
		size = e->m.capacity_bytes - (uint64_t)off;
	if (!admit(e, req, (uint64_t)off, size, 1))
		return;
	enter(e);
	done = slc_sim_write(e->sim, vnow(e, now), (uint64_t)off, (uint32_t)size, buf);
	e->written += size;
	extra = spike(e);
	slc__emu_drain_events(e);
	pthread_mutex_unlock(&e->mu);
	for (left = size; left;) {
		ssize_t n = pwrite(e->store_fd, buf + (size - left), left, off + (off_t)(size - left));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;
			store_error(e, "write", err);
			leave_err(e, req, err);
			return;
		}
		left -= (size_t)n;
	}
	slc__emu_schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_WRITE,
					      .count = size });
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	size_t got = 0;
	char *buf;

	if (ino == INO_STATS) {
		const char *s = (const char *)(uintptr_t)fi->fh;
		size_t n = strlen(s);
		char *copy;
		if ((uint64_t)off >= n) {
			fuse_reply_buf(req, NULL, 0);
			return;
		}
		/* reply from a copy: the reader may close the file, and its release
		 * free the snapshot, before fuse_reply_buf() has returned */
		n = n - (size_t)off < size ? n - (size_t)off : size;
		if (!(copy = malloc(n))) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		memcpy(copy, s + off, n);
		fuse_reply_buf(req, copy, n);
		free(copy);
		return;
	}
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (off < 0 || (uint64_t)off >= e->m.capacity_bytes || !size) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > e->m.capacity_bytes - (uint64_t)off)
		size = e->m.capacity_bytes - (uint64_t)off;
	if (!admit(e, req, (uint64_t)off, size, 0))
		return;
	enter(e);
	done = slc_sim_read(e->sim, vnow(e, now), (uint64_t)off, (uint32_t)size);
	e->read_bytes += size;
	extra = spike(e);
	slc__emu_drain_events(e);
	pthread_mutex_unlock(&e->mu);
	buf = malloc(size);
	if (!buf) {
		leave_err(e, req, ENOMEM);
		return;
	}
	while (got < size) {
		ssize_t n = pread(e->store_fd, buf + got, size - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			store_error(e, "read", err);
			free(buf);
			leave_err(e, req, err);
			return;
		}
		if (n == 0) {                  /* past the store's end: unwritten */
			memset(buf + got, 0, size - got);
			break;
		}
		got += (size_t)n;
	}
	slc__emu_schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_READ,
				      .buf = buf, .count = size });
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	struct slc_emu *e = emu_of(req);
	uint64_t now = mono_ns(), done, extra;
	uint64_t o = (uint64_t)off, l = (uint64_t)len;

	(void)fi;
	if (ino != INO_IMG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (off < 0 || len <= 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))) {
		/* allocation: every byte of the drive is already there */
		fuse_reply_err(req, o + l > e->m.capacity_bytes && !(mode & FALLOC_FL_KEEP_SIZE) ? EFBIG : 0);
		return;
	}
	if (o >= e->m.capacity_bytes) {
		fuse_reply_err(req, 0);
		return;
	}
	if (l > e->m.capacity_bytes - o)
		l = e->m.capacity_bytes - o;
	pthread_mutex_lock(&e->mu);
	if (e->vanished) {
		pthread_mutex_unlock(&e->mu);
		fuse_reply_err(req, ENODEV);
		return;
	}
	e->cmds++;
	e->trim_cmds++;
	/* a discard (PUNCH_HOLE) or write-zeroes (ZERO_RANGE) both unmap in the
	 * model: drives answer reads of deallocated blocks with zeroes */
	enter(e);
	done = slc_sim_trim(e->sim, vnow(e, now), o, l);
	e->trimmed_bytes += l;
	slc_sim_mark(e->sim, done);     /* the cache may be back: exhaustion can fire again */
	extra = spike(e) + e->o.trim_delay_ns;
	slc__emu_drain_events(e);
	pthread_mutex_unlock(&e->mu);
	if (fallocate(e->store_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)o, (off_t)l)) {
		int err = errno;
		store_error(e, "hole punch", err);
		leave_err(e, req, err);
		return;
	}
	slc__emu_schedule(e, (struct pending){ .due_ns = real_of(e, done) + extra, .req = req, .kind = P_ERR, .err = 0 });
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	/* the model acknowledges writes from its buffer; a flush costs nothing */
	(void)ino; (void)datasync; (void)fi;
	fuse_reply_err(req, 0);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino; (void)fi;
	fuse_reply_err(req, 0);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct slc_emu *e = emu_of(req);
	struct statvfs sv;
	struct stat ss;

	(void)ino;
	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = sv.f_frsize = 4096;
	sv.f_blocks = e->m.capacity_bytes / 4096;
	/* drive.img is all the filesystem holds: what its store does not hold
	 * yet is free, so a run on drive.img finds the room it needs */
	if (fstat(e->store_fd, &ss) == 0 && (uint64_t)ss.st_blocks / 8 < sv.f_blocks)
		sv.f_bfree = sv.f_bavail = sv.f_blocks - (uint64_t)ss.st_blocks / 8;
	sv.f_files = 3;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

const struct fuse_lowlevel_ops slc__emu_fuse_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.readdir = op_readdir,
	.open = op_open,
	.release = op_release,
	.read = op_read,
	.write = op_write,
	.fallocate = op_fallocate,
	.fsync = op_fsync,
	.flush = op_flush,
	.statfs = op_statfs,
};
