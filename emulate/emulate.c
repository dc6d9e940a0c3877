// SPDX-License-Identifier: MIT
/*
 * The emulator: the simulated drive as a file served through FUSE.
 *
 * DIR (the mount point) holds drive.img, the drive, and stats.json, its
 * counters.  Every read, write and fallocate of drive.img goes through the
 * model under one lock: the request's arrival, in real time, becomes a
 * submission in model time (real elapsed x time scale), the model answers
 * with a completion in model time, and the reply is sent when real time
 * reaches it (completion / time scale).  Replies wait in a heap served by
 * one timer thread, so any number of requests can be in flight without
 * holding a FUSE worker each.  The data goes to a sparse store file before
 * the reply is queued, so a read after a completed write sees it; TRIM
 * (fallocate PUNCH_HOLE or ZERO_RANGE, which is what the loop driver sends
 * for discards and write-zeroes) reaches the model and punches the store.
 *
 * drive.img is opened with FOPEN_DIRECT_IO: the kernel never caches it, so
 * every block I/O of a loop device attached with --direct-io=on reaches the
 * model as it is issued, and async direct I/O (FUSE_CAP_ASYNC_DIO) keeps
 * several of them in flight (max_background is raised from the kernel's 12
 * so that a queue depth of 32 or more gets through).
 *
 * This file sets the server up and tears it down; emu_priv.h says where the
 * rest is.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/units.h"
#include "emu_priv.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

void slc_emu_opts_init(struct slc_emu_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time_scale = 1;
	o->size_scale = 1;
	o->seed = 1;
	o->fail_after_bytes = UINT64_MAX;
	o->vanish_after_bytes = UINT64_MAX;
	o->spike_ns = 100000000ull;
}

/* ---- set-up and tear-down ---- */

static int open_store(struct slc_emu *e, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (e->o.store) {
		fd = open(e->o.store, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return slc_errf(err, errlen, -errno, "--store %s: %s", e->o.store, strerror(errno));
		snprintf(e->store_path, sizeof(e->store_path), "%s", e->o.store);
	} else {
		if (!tmp || !*tmp)
			tmp = "/var/tmp";
		fd = open(tmp, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(e->store_path, sizeof(e->store_path), "%s/slcscope-store.XXXXXX", tmp);
			fd = mkostemp(e->store_path, O_CLOEXEC);
			if (fd < 0)
				return slc_errf(err, errlen, -errno, "cannot create the data store in %s: %s (set TMPDIR or --store)",
					    tmp, strerror(errno));
			unlink(e->store_path);
		}
		snprintf(e->store_path, sizeof(e->store_path), "%s (unlinked)", tmp);
	}
	e->store_fd = fd;
	/* a fresh drive: all trimmed, so the store starts as one hole */
	if (ftruncate(fd, 0) || ftruncate(fd, (off_t)e->m.capacity_bytes))
		return slc_errf(err, errlen, -errno, "the data store %s: cannot set its size: %s", e->store_path, strerror(errno));
	e->punch_ok = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
	if (!e->punch_ok)
		return slc_errf(err, errlen, -EOPNOTSUPP, "the data store %s: its filesystem cannot punch holes (%s), "
			    "so TRIM could not free data; put it elsewhere (--store or TMPDIR)", e->store_path, strerror(errno));
	return 0;
}

static struct slc_emu *alloc_emu(const struct slc_sim_model *model, const struct slc_emu_opts *o)
{
	struct slc_emu *e = calloc(1, sizeof(*e));
	pthread_condattr_t ca;

	if (!e)
		return NULL;
	e->o = *o;
	e->m = *model;
	e->store_fd = -1;
	e->uid = getuid();
	e->gid = getgid();
	e->start_wall = time(NULL);
	pthread_mutex_init(&e->mu, NULL);
	pthread_mutex_init(&e->qmu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&e->qcond, &ca);
	pthread_condattr_destroy(&ca);
	return e;
}

static int open_model(struct slc_emu *e, char *err, size_t errlen)
{
	int rc = slc_sim_open(&e->sim, &e->m, e->o.seed ? e->o.seed : 1, err, errlen);

	if (rc && err && e->o.size_scale < 1 && strstr(err, "not enough flash")) {
		size_t n = strlen(err);
		/* the GC reserve and the static SLC pool do not shrink below whole blocks */
		snprintf(err + n, errlen - n, " (size scale %g is too small for this model: use a larger one)",
			 e->o.size_scale);
	}
	return rc;
}

static int mount_dir(struct slc_emu *e, char *err, size_t errlen)
{
	const char *dir = e->o.dir;
	struct stat st;

	if (stat(dir, &st)) {
		if (errno != ENOENT || mkdir(dir, 0755))
			return slc_errf(err, errlen, -errno, "%s: %s", dir, strerror(errno));
		e->dir_created = 1;
	} else if (!S_ISDIR(st.st_mode)) {
		return slc_errf(err, errlen, -ENOTDIR, "%s: not a directory", dir);
	}
	/* a FUSE server behind a loop device must not wait on its own
	 * writeback when memory is short */
	prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0);
	{
		char fsname[128];
		snprintf(fsname, sizeof(fsname), "-ofsname=slcscope:%s,subtype=slcscope,auto_unmount", e->m.name);
		char *argv[] = { "slcscope", fsname, NULL };
		struct fuse_args args = FUSE_ARGS_INIT(2, argv);
		/* libfuse prints its own reason on stderr when this fails */
		e->se = fuse_session_new(&args, &slc__emu_fuse_ops, sizeof(slc__emu_fuse_ops), e);
		fuse_opt_free_args(&args);
	}
	if (!e->se)
		return slc_errf(err, errlen, -EIO, "cannot start a FUSE session (is /dev/fuse there? modprobe fuse)");
	if (fuse_session_mount(e->se, dir) != 0)
		return slc_errf(err, errlen, -EIO, "cannot mount FUSE on %s (needs /dev/fuse and root or fusermount3 "
			    "from the fuse3 package)", dir);
	e->mounted = 1;
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "%ld\n", (long)getpid());
	return fclose(f) ? -errno : 0;
}

int slc_emu_open(struct slc_emu **out, const struct slc_sim_model *model, const struct slc_emu_opts *o,
		 char *err, size_t errlen)
{
	struct slc_emu *e = alloc_emu(model, o);
	int rc;

	*out = NULL;
	if (!e)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if ((rc = open_model(e, err, errlen)) || (rc = open_store(e, err, errlen)) || (rc = mount_dir(e, err, errlen)))
		goto fail;
	e->t0 = mono_ns();
	if ((rc = slc__emu_timer_start(e))) {
		slc_errf(err, errlen, rc, "cannot start the timer thread");
		goto fail;
	}
	if (o->pidfile) {
		if ((rc = write_pidfile(o->pidfile))) {
			slc_errf(err, errlen, rc, "--pidfile %s: %s", o->pidfile, strerror(-rc));
			goto fail;
		}
		e->pidfile_written = 1;
	}
	*out = e;
	return 0;
fail:
	slc_emu_close(e);
	return rc;
}

int slc_emu_serve(struct slc_emu *e)
{
	struct fuse_loop_config *cfg;
	int rc;

	if (fuse_set_signal_handlers(e->se))
		return -EIO;
	cfg = fuse_loop_cfg_create();
	if (!cfg) {
		fuse_remove_signal_handlers(e->se);
		return -ENOMEM;
	}
	/* workers only copy data and queue the reply; a few cover any queue depth */
	fuse_loop_cfg_set_max_threads(cfg, 16);
	fuse_loop_cfg_set_idle_threads(cfg, 8);
	rc = fuse_session_loop_mt(e->se, cfg);
	fuse_loop_cfg_destroy(cfg);
	fuse_remove_signal_handlers(e->se);
	slc__emu_timer_stop(e);
	fuse_session_unmount(e->se);
	e->mounted = 0;
	return rc < 0 ? rc : 0;
}

int slc_emu_vanished(const struct slc_emu *e)
{
	return e->vanished;
}

void slc_emu_close(struct slc_emu *e)
{
	if (!e)
		return;
	slc__emu_timer_stop(e);
	if (e->se) {
		if (e->mounted)
			fuse_session_unmount(e->se);
		fuse_session_destroy(e->se);
	}
	if (e->dir_created)
		rmdir(e->o.dir);
	if (e->store_fd >= 0)
		close(e->store_fd);
	slc_sim_close(e->sim);
	free(e->heap);
	pthread_cond_destroy(&e->qcond);
	pthread_mutex_destroy(&e->qmu);
	pthread_mutex_destroy(&e->mu);
	if (e->pidfile_written)
		unlink(e->o.pidfile);
	free(e);
}
