// SPDX-License-Identifier: MIT
/*
 * Trace writer: streamed, chunked + deflate HDF5, flushed to a consistent
 * state on disk at least every flush interval.
 *
 * Crash safety.  Samples and events are kept in a bounded memory buffer and
 * handed to HDF5 only inside slc_trace_flush(), which ends with H5Fflush()
 * and fsync().  Between flushes the library is not touched at all, so the
 * bytes on disk are exactly those of the last completed flush: a process
 * killed there leaves a file that opens normally (format of the earliest
 * HDF5 library version, superblock v0: no "file open for writing" flags
 * that SWMR's superblock v3 leaves behind and that make a plain open refuse
 * the file).  Only a kill inside the flush itself (milliseconds every flush
 * interval) can leave a damaged file; docs/trace-format.md measures this.
 *
 * Full disks.  HDF5 writes a flush's metadata partly in place, partly at the
 * end of the file: a flush that runs out of space half way leaves old
 * metadata pointing at what was never written.  So each flush first reserves
 * room past the end of the file for all it can write (fallocate, the size
 * unchanged; zeros written where the file system has no fallocate, cut off
 * at close), and a full disk fails the flush before HDF5 is touched, the
 * file as the last flush left it.  This matters twice over: HDF5 1.10 never
 * recovers from a failed flush (every later one, and the close, fail too,
 * and its clean-up at exit then crashes on the half-closed file).  A flush
 * that fails inside HDF5 all the same (an I/O error) marks the writer
 * broken: nothing more is handed to HDF5, HDF5's own descriptor is moved
 * off the file, and the file is never closed in HDF5 (detach(),
 * keep_hdf5_from_exit()).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "writer.h"

#include "../private.h"
#include "columns.h"
#include "h5util.h"
#include "limits.h"
#include "publish.h"
#include "../output_priv.h"

#define CHUNK_SAMPLES 4096
#define CHUNK_EVENTS 256
#define DEFLATE_LEVEL 4
/* as many as samples: a run logs the drive's counters with every reading */
#define EVENT_BUFFER 4096

#define NCOLS SLC__TRACE_NCOLS

/* Event columns, in the segment's "events" group. */
enum { EV_T, EV_BYTES, EV_KIND, EV_VALUE, EV_NCOLS };
static const char *const ev_names[EV_NCOLS] = { "t_s", "host_bytes", "kind", "value" };
static const char *const ev_units[EV_NCOLS] = { "s", "bytes", "", "see kind" };

struct buffered_event {
	double t_s;
	uint64_t host_bytes;
	char kind[SLC_TRACE_KIND_MAX + 1];
	double value;
};

#define SNAPSHOT_BUFFER 16
/*
 * Room a flush may need past the end of the file: per sample column a
 * filled chunk compressed to new space and a fresh full-size one (2 x 32 KiB),
 * the event columns' chunks for a full event buffer (16 x 8 KiB each), the
 * metadata written anew; snapshot texts come on top.  2 MiB held that with
 * room to spare for the nine columns of slc__trace_cols[] first; each
 * later column a segment has (the reads', the writer's CPU) adds its two
 * chunks.
 */
#define FLUSH_RESERVE ((off_t)2 << 20)
#define COL_RESERVE ((off_t)64 << 10)
#define BASE_COLS 9

struct pending_snapshot {
	char kind[SLC_TRACE_KIND_MAX + 1];
	double t_s;
	long segment;
	char *json_text;
};

struct slc_trace {
	hid_t file;
	int fd;                          /* for fsync() and fallocate() */
	int no_reserve;                  /* the file system has no fallocate() */
	int broken;                      /* a flush failed inside HDF5 */
	off_t reserved;                  /* bytes reserved past the end of the file */
	char *path;
	double flush_s;
	struct timespec last_flush;
	/* current segment */
	int seg_open;
	size_t seg_count;
	hid_t seg;
	hid_t cols[NCOLS];               /* H5I_INVALID_HID: not in this segment */
	size_t extra_cols;               /* the columns past BASE_COLS the open segment has */
	hid_t ev[EV_NCOLS];
	hid_t kind_type;
	uint64_t n_written, ev_written;
	uint64_t before;                 /* samples in the segments before this one */
	double last_t_s;
	uint64_t last_bytes;
	int have_last;
	/* buffers */
	struct slc_sample *buf;
	size_t nbuf;
	struct buffered_event evbuf[EVENT_BUFFER];
	/* column scratch for writing the event buffer */
	double ev_d[EVENT_BUFFER];
	uint64_t ev_u[EVENT_BUFFER];
	char ev_kinds[EVENT_BUFFER][SLC_TRACE_KIND_MAX + 1];
	size_t nev;
	void *scratch;                   /* one column of the buffer */
	struct pending_snapshot snaps[SNAPSHOT_BUFFER];
	size_t nsnap, snap_written;
	char err[256];
};

/* ---- string datasets (analysis results, snapshots) -------------------- */

static int valid_json_name(const char *name)
{
	if (!name || !name[0] || strlen(name) > 64)
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-'))
			return 0;
	return 1;
}

static hid_t open_or_create_group(hid_t loc, const char *name)
{
	if (H5Lexists(loc, name, H5P_DEFAULT) > 0)
		return H5Gopen2(loc, name, H5P_DEFAULT);
	return H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

/* Scalar UTF-8 string dataset @name in @loc; returns it open, or a negative id. */
static hid_t put_text_dataset(hid_t loc, const char *name, const char *text)
{
	hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR), ds = H5I_INVALID_HID;

	if (type >= 0 && space >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 && H5Tset_cset(type, H5T_CSET_UTF8) >= 0)
		ds = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (ds >= 0 && H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) < 0) {
		slc__h5_capture();
		H5Dclose(ds);
		ds = H5I_INVALID_HID;
	}
	slc__h5_close(space);
	slc__h5_close(type);
	return ds;
}

/* Write @json_text as the string dataset /analysis/@name of an open file. */
static int put_json(hid_t file, const char *name, const char *json_text, char *err, size_t errlen)
{
	hid_t grp = H5I_INVALID_HID, ds = H5I_INVALID_HID;
	char why[160];
	int rc = -EIO;

	if (!valid_json_name(name))
		return slc_errf(err, errlen, -EINVAL, "analysis name must be 1-64 letters, digits, '_' or '-'");
	if (!json_text)
		return slc_errf(err, errlen, -EINVAL, "no JSON text");
	grp = open_or_create_group(file, "analysis");
	if (grp < 0)
		goto out;
	if (H5Lexists(grp, name, H5P_DEFAULT) > 0 && H5Ldelete(grp, name, H5P_DEFAULT) < 0)
		goto out;
	ds = put_text_dataset(grp, name, json_text);
	if (ds < 0)
		goto out;
	if (slc__h5_put_str(ds, "content_type", "application/json") < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		slc_errf(err, errlen, rc, "cannot store analysis '%s': %s", name, slc__h5_reason(why, sizeof(why)));
	slc__h5_close(ds);
	slc__h5_close(grp);
	return rc;
}

/* ---- writer ---------------------------------------------------------- */

static int twerr(struct slc_trace *t, int rc, const char *what)
{
	char why[160];

	/* a file's failure names the file: a run has its target and its trace */
	if (rc == -EIO)
		snprintf(t->err, sizeof(t->err), "%s %s: %s", what, t->path ? t->path : "", slc__h5_reason(why, sizeof(why)));
	else if (rc != -EINVAL && rc != -ENOMEM)
		snprintf(t->err, sizeof(t->err), "%s %s: %s", what, t->path ? t->path : "", strerror(-rc));
	else
		snprintf(t->err, sizeof(t->err), "%s: %s", what, strerror(-rc));
	return rc;
}

const char *slc_trace_errmsg(const struct slc_trace *t)
{
	return t ? t->err : "";
}

static double since_s(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - a->tv_sec) + (double)(now.tv_nsec - a->tv_nsec) * 1e-9;
}

static hid_t make_dataset(hid_t loc, const char *name, hid_t type, hsize_t chunk, const char *units)
{
	hsize_t dim = 0, maxdim = H5S_UNLIMITED;
	hid_t space, dcpl, ds = H5I_INVALID_HID;
	double nan_fill = NAN;

	space = H5Screate_simple(1, &dim, &maxdim);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	/*
	 * NaN fill: a sample that was counted but never written reads as unknown,
	 * not 0.  The last, partial chunk stays unfiltered (full size, written in
	 * place) until it is full: a flush then rewrites only new bytes instead of
	 * recompressing and moving the chunk, so it is short and leaves no dead
	 * copies behind.
	 */
	if (H5Tget_class(type) == H5T_FLOAT && dcpl >= 0)
		H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &nan_fill);
	if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, &chunk) >= 0 && H5Pset_shuffle(dcpl) >= 0 &&
	    H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0 &&
	    H5Pset_chunk_opts(dcpl, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS) >= 0)
		ds = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	if (ds >= 0 && units && units[0] && slc__h5_put_str(ds, "units", units) < 0) {
		H5Dclose(ds);
		ds = H5I_INVALID_HID;
	}
	slc__h5_close(dcpl);
	slc__h5_close(space);
	return ds;
}

/* Extend a 1-D dataset from @old to @old + @n elements and write @data there. */
static int append_rows(hid_t ds, hid_t memtype, uint64_t old, size_t n, const void *data)
{
	hsize_t size = old + n, start = old, count = n;
	hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
	int rc = -EIO;

	if (n == 0)
		return 0;
	if (H5Dset_extent(ds, &size) < 0) {
		slc__h5_capture();
		return -EIO;
	}
	fspace = H5Dget_space(ds);
	mspace = H5Screate_simple(1, &count, NULL);
	if (fspace < 0 || mspace < 0)
		goto out;
	if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL) < 0)
		goto out;
	if (H5Dwrite(ds, memtype, mspace, fspace, H5P_DEFAULT, data) < 0) {
		slc__h5_capture();
		goto out;
	}
	rc = 0;
out:
	slc__h5_close(mspace);
	slc__h5_close(fspace);
	return rc;
}

static int write_sample_buffer(struct slc_trace *t)
{
	for (size_t c = 0; c < NCOLS; c++) {
		const struct slc__trace_col *col = &slc__trace_cols[c];
		int rc;

		if (t->cols[c] < 0)
			continue;
		for (size_t i = 0; i < t->nbuf; i++) {
			const char *src = (const char *)&t->buf[i] + col->sample_off;

			if (col->is_u64)
				memcpy((uint64_t *)t->scratch + i, src, sizeof(uint64_t));
			else
				memcpy((double *)t->scratch + i, src, sizeof(double));
		}
		rc = append_rows(t->cols[c], col->is_u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_DOUBLE, t->n_written,
				 t->nbuf, t->scratch);
		if (rc)
			return rc;
	}
	t->n_written += t->nbuf;
	t->nbuf = 0;
	return 0;
}

static int write_event_buffer(struct slc_trace *t)
{
	double *d = t->ev_d;
	uint64_t *u = t->ev_u;
	char (*kinds)[SLC_TRACE_KIND_MAX + 1] = t->ev_kinds;
	size_t n = t->nev;
	int rc;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		d[i] = t->evbuf[i].t_s;
	rc = append_rows(t->ev[EV_T], H5T_NATIVE_DOUBLE, t->ev_written, n, d);
	for (size_t i = 0; i < n; i++)
		u[i] = t->evbuf[i].host_bytes;
	if (!rc)
		rc = append_rows(t->ev[EV_BYTES], H5T_NATIVE_UINT64, t->ev_written, n, u);
	for (size_t i = 0; i < n; i++)
		memcpy(kinds[i], t->evbuf[i].kind, SLC_TRACE_KIND_MAX + 1);
	if (!rc)
		rc = append_rows(t->ev[EV_KIND], t->kind_type, t->ev_written, n, kinds);
	for (size_t i = 0; i < n; i++)
		d[i] = t->evbuf[i].value;
	if (!rc)
		rc = append_rows(t->ev[EV_VALUE], H5T_NATIVE_DOUBLE, t->ev_written, n, d);
	if (rc)
		return rc;
	t->ev_written += n;
	t->nev = 0;
	return 0;
}

static int write_snapshots(struct slc_trace *t)
{
	hid_t dev, snaps = H5I_INVALID_HID;
	size_t done = 0;
	int rc = -EIO;

	if (t->nsnap == 0)
		return 0;
	dev = open_or_create_group(t->file, "device");
	if (dev >= 0)
		snaps = open_or_create_group(dev, "snapshots");
	if (snaps < 0)
		goto out;
	for (; done < t->nsnap; done++) {
		struct pending_snapshot *p = &t->snaps[done];
		char name[32];
		hid_t ds;
		int bad;

		slc__h5_index_name(name, sizeof(name), t->snap_written);
		ds = put_text_dataset(snaps, name, p->json_text);
		if (ds < 0)
			goto out;
		bad = slc__h5_put_str(ds, "kind", p->kind) | slc__h5_put_f64(ds, "t_s", p->t_s) |
		      slc__h5_put_attr(ds, "segment", H5T_NATIVE_LONG, &p->segment) |
		      slc__h5_put_str(ds, "content_type", "application/json");
		H5Dclose(ds);
		if (bad)
			goto out;
		t->snap_written++;
	}
	rc = 0;
out:
	/* Drop what was written; on failure the rest waits for the next flush. */
	for (size_t i = 0; i < done; i++)
		free(t->snaps[i].json_text);
	memmove(&t->snaps[0], &t->snaps[done], (t->nsnap - done) * sizeof(t->snaps[0]));
	t->nsnap -= done;
	slc__h5_close(snaps);
	slc__h5_close(dev);
	return rc;
}

/* Zeros from the end of the file to @end: room for a file system without fallocate(). */
static int write_zeros(int fd, off_t from, off_t end)
{
	static const char zeros[65536];

	while (from < end) {
		size_t n = end - from < (off_t)sizeof(zeros) ? (size_t)(end - from) : sizeof(zeros);
		ssize_t w = pwrite(fd, zeros, n, from);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		from += w;
	}
	return 0;
}

/* Reserve room past the end of the data for the coming flush; -ENOSPC when the disk is full. */
static int reserve_space(struct slc_trace *t)
{
	off_t want = FLUSH_RESERVE + (off_t)t->extra_cols * COL_RESERVE;
	haddr_t eoa = 0;
	struct stat st;

	for (size_t i = 0; i < t->nsnap; i++)
		want += 2 * (off_t)strlen(t->snaps[i].json_text) + 4096;
	if (fstat(t->fd, &st) < 0)
		return -errno;
	if (!t->no_reserve) {
		if (fallocate(t->fd, FALLOC_FL_KEEP_SIZE, st.st_size, want) == 0) {
			t->reserved = want;
			return 0;
		}
		if (errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
		t->no_reserve = 1;
	}
	/* Zeros beyond HDF5's end of allocation, which a reader ignores. */
	if (H5Fget_eoa(t->file, &eoa) < 0 || (off_t)eoa + want <= st.st_size)
		return 0;
	t->reserved = want;
	return write_zeros(t->fd, st.st_size, (off_t)eoa + want);
}

/* Give back the room reserved past the end of the file (HDF5 closed). */
static void release_space(struct slc_trace *t)
{
	struct stat st;
	off_t end;

	if (!t->reserved || fstat(t->fd, &st) < 0)
		return;
	end = st.st_size;
	if (t->no_reserve) {
		/* The zeros made the file longer: cut it to the end of allocation HDF5 left. */
		hid_t f = slc__h5_open_file(t->path, H5F_ACC_RDONLY);
		haddr_t eoa = 0;

		if (f < 0 || H5Fget_eoa(f, &eoa) < 0 || (off_t)eoa > end)
			eoa = (haddr_t)end;
		slc__h5_close(f);
		end = (off_t)eoa;
	}
	/* Blocks kept past the end survive a close on some file systems; a truncate to the size frees them. */
	if (ftruncate(t->fd, end) == 0)
		t->reserved = 0;
}

/*
 * HDF5 1.10 never recovers from a failed flush: the close fails half way
 * ("slist already enabled") and its clean-up at exit, which closes every
 * file still open, then crashes on that file (SIGSEGV in H5F__close_cb),
 * whether or not the close was tried.  So the clean-up at exit is turned
 * off before HDF5 is first used: every file slcscope opens it also closes,
 * except a broken trace, which is left to the process's end.
 */
__attribute__((constructor)) static void keep_hdf5_from_exit(void)
{
	H5dont_atexit();
}

/*
 * A flush failed inside HDF5: from here on nothing HDF5 does may reach the
 * trace, whose bytes are those the last good flush (and the failed one's
 * writes before the error) left.  HDF5's file descriptor is pointed at a
 * copy of the file in memory, so that the close, HDF5's clean-up at exit
 * included, writes there, and the file stays readable as it is.
 */
static void detach(struct slc_trace *t)
{
	char buf[65536];
	void *handle = NULL;
	off_t off = 0;
	ssize_t n;
	int m;

	t->broken = 1;
	if (H5Fget_vfd_handle(t->file, H5P_DEFAULT, &handle) < 0 || !handle) {
		slc__h5_capture();
		return;
	}
	if ((m = memfd_create("slcscope-trace", MFD_CLOEXEC)) < 0)
		return;
	/* a copy, in case the close reads metadata it had not cached */
	while ((n = pread(t->fd, buf, sizeof(buf), off)) > 0 && write(m, buf, (size_t)n) == n)
		off += n;
	dup2(m, *(int *)handle);
	close(m);
}

int slc_trace_flush(struct slc_trace *t)
{
	int rc = 0;

	if (!t)
		return -EINVAL;
	if (t->broken)
		return -EIO;                     /* the first failure's reason stays in t->err */
	rc = reserve_space(t);
	if (rc)
		return twerr(t, rc, "cannot flush trace");
	if (t->seg_open) {
		rc = write_sample_buffer(t);
		if (!rc)
			rc = write_event_buffer(t);
		if (rc) {
			detach(t);
			return twerr(t, rc, "cannot write samples");
		}
	}
	rc = write_snapshots(t);
	if (rc) {
		detach(t);
		return twerr(t, rc, "cannot write device snapshots");
	}
	if (H5Fflush(t->file, H5F_SCOPE_GLOBAL) < 0) {
		slc__h5_capture();
		detach(t);
		return twerr(t, -EIO, "cannot flush trace");
	}
	/* Survive power loss too, not only the death of this process. */
	if (fsync(t->fd) < 0)
		return twerr(t, -errno, "cannot sync trace");
	clock_gettime(CLOCK_MONOTONIC, &t->last_flush);
	return 0;
}

static int maybe_flush(struct slc_trace *t)
{
	if (t->nbuf >= SLC_TRACE_BUFFER_SAMPLES || t->nev >= EVENT_BUFFER || since_s(&t->last_flush) >= t->flush_s)
		return slc_trace_flush(t);
	return 0;
}

static int write_root_attrs(hid_t f, const struct slc_trace_meta *m)
{
	char host[256] = "", created[32];
	time_t now = time(NULL);
	struct tm tm;
	int rc = 0;

	gethostname(host, sizeof(host) - 1);
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rc |= slc__h5_put_str(f, "schema", SLC_TRACE_SCHEMA);
	rc |= slc__h5_put_u32(f, "schema_version", SLC_TRACE_SCHEMA_VERSION);
	rc |= slc__h5_put_str(f, "tool_version", SLCSCOPE_VERSION);
	rc |= slc__h5_put_str(f, "created_utc", created);
	rc |= slc__h5_put_str(f, "host", host);
	rc |= slc__h5_put_str(f, "command_line", m->command_line);
	rc |= slc__h5_put_str(f, "target", m->target);
	if (m->device_model)
		rc |= slc__h5_put_str(f, "device_model", m->device_model);
	if (m->device_serial)
		rc |= slc__h5_put_str(f, "device_serial", m->device_serial);
	if (m->device_firmware)
		rc |= slc__h5_put_str(f, "device_firmware", m->device_firmware);
	rc |= slc__h5_put_u64(f, "capacity_bytes", m->capacity_bytes);
	rc |= slc__h5_put_u32(f, "logical_block_bytes", m->logical_block_bytes);
	if (m->cell_type)
		rc |= slc__h5_put_str(f, "cell_type", m->cell_type);
	if (m->plan)
		rc |= slc__h5_put_str(f, "plan", m->plan);
	if (m->planned_steps)
		rc |= slc__h5_put_u32(f, "planned_steps", m->planned_steps);
	/* until the run says how it ended: a run killed outright leaves "running" */
	if (m->run_status || m->planned_steps)
		rc |= slc__h5_put_str(f, "run_status", m->run_status ? m->run_status : "running");
	return rc ? -EIO : 0;
}

/* Release what the writer owns besides the HDF5 file. */
static void trace_free(struct slc_trace *t)
{
	if (t->fd >= 0)
		close(t->fd);
	for (size_t i = 0; i < t->nsnap; i++)
		free(t->snaps[i].json_text);
	slc__h5_close(t->kind_type);
	free(t->scratch);
	free(t->buf);
	free(t->path);
	free(t);
}

int slc_trace_create(struct slc_trace **out, const char *path, const struct slc_trace_meta *meta,
		     char *err, size_t errlen)
{
	struct slc_trace *t;
	hid_t fapl = H5I_INVALID_HID, fcpl = H5I_INVALID_HID, segs = H5I_INVALID_HID;
	char why[160];
	int rc = -ENOMEM;

	*out = NULL;
	if (!path || !meta)
		return slc_errf(err, errlen, -EINVAL, "no path or metadata");
	slc__h5_quiet();
	t = calloc(1, sizeof(*t));
	if (!t)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->file = H5I_INVALID_HID;
	t->fd = -1;
	t->flush_s = 2.0;
	t->path = strdup(path);
	t->buf = malloc(SLC_TRACE_BUFFER_SAMPLES * sizeof(*t->buf));
	t->scratch = malloc(SLC_TRACE_BUFFER_SAMPLES * sizeof(double));
	t->kind_type = H5Tcopy(H5T_C_S1);
	if (!t->path || !t->buf || !t->scratch) {
		slc_errf(err, errlen, rc, "out of memory");
		goto fail;
	}
	rc = -EIO;
	if (t->kind_type < 0 || H5Tset_size(t->kind_type, SLC_TRACE_KIND_MAX + 1) < 0 ||
	    H5Tset_strpad(t->kind_type, H5T_STR_NULLTERM) < 0) {
		slc_errf(err, errlen, rc, "cannot create string type: %s", slc__h5_reason(why, sizeof(why)));
		goto fail;
	}
	fapl = slc__h5_file_access();
	fcpl = H5Pcreate(H5P_FILE_CREATE);
	/*
	 * Never reuse freed file space: a chunk that grows is written to new
	 * space at the end of the file, so the old copy the on-disk metadata
	 * still points to stays intact until the new metadata is written.
	 */
	if (fcpl < 0 || H5Pset_file_space_strategy(fcpl, H5F_FSPACE_STRATEGY_NONE, 0, 1) < 0) {
		slc_errf(err, errlen, rc, "cannot set up file creation: %s", slc__h5_reason(why, sizeof(why)));
		goto fail;
	}
	t->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
	if (t->file < 0) {
		slc_errf(err, errlen, rc, "cannot create %s: %s", path, slc__h5_reason(why, sizeof(why)));
		goto fail;
	}
	segs = H5Gcreate2(t->file, "segments", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (segs < 0 || write_root_attrs(t->file, meta) < 0) {
		slc_errf(err, errlen, rc, "cannot write trace header: %s", slc__h5_reason(why, sizeof(why)));
		goto fail;
	}
	t->fd = open(path, O_RDWR | O_CLOEXEC);
	if (t->fd < 0) {
		rc = -errno;
		slc_errf(err, errlen, rc, "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	rc = slc_trace_flush(t);
	if (rc) {
		slc_errf(err, errlen, rc, "%s", t->err);
		goto fail;
	}
	H5Gclose(segs);
	H5Pclose(fcpl);
	H5Pclose(fapl);
	*out = t;
	return 0;
fail:
	slc__h5_close(segs);
	slc__h5_close(fapl);
	slc__h5_close(fcpl);
	if (t->file >= 0) {
		H5Fclose(t->file);
		unlink(path);
	}
	trace_free(t);
	return rc;
}

int slc_trace_set_flush_interval(struct slc_trace *t, double flush_s)
{
	if (!t || !isfinite(flush_s) || flush_s < 0)
		return -EINVAL;
	t->flush_s = flush_s;
	return 0;
}

static void close_segment_handles(struct slc_trace *t)
{
	for (size_t c = 0; c < NCOLS; c++)
		slc__h5_close(t->cols[c]);
	for (size_t c = 0; c < EV_NCOLS; c++)
		slc__h5_close(t->ev[c]);
	slc__h5_close(t->seg);
	t->seg_open = 0;
}

static int write_params(hid_t g, const struct slc_segment_params *p, size_t index)
{
	int rc = 0;

	rc |= slc__h5_put_u32(g, "index", (uint32_t)index);
	rc |= slc__h5_put_str(g, "step", p->step);
	rc |= slc__h5_put_str(g, "workload", p->workload);
	rc |= slc__h5_put_str(g, "role", slc_role_name(p->role));
	rc |= slc__h5_put_u32(g, "role_arg", p->role_arg);
	rc |= slc__h5_put_u32(g, "block_bytes", p->block_bytes);
	rc |= slc__h5_put_u32(g, "queue_depth", p->queue_depth);
	rc |= slc__h5_put_u32(g, "jobs", p->jobs);
	rc |= slc__h5_put_u32(g, "reap_batch", p->reap_batch);
	rc |= slc__h5_put_u32(g, "poll_us", p->poll_us);
	rc |= slc__h5_put_u64(g, "offset_bytes", p->offset_bytes);
	rc |= slc__h5_put_u64(g, "range_bytes", p->range_bytes);
	rc |= slc__h5_put_f64(g, "idle_before_s", p->idle_before_s);
	rc |= slc__h5_put_u64(g, "seed", p->seed);
	rc |= slc__h5_put_str(g, "data_pattern", p->data_pattern);
	rc |= slc__h5_put_f64(g, "interval_s", p->interval_s);
	rc |= slc__h5_put_str(g, "clock", p->clock);
	rc |= slc__h5_put_u32(g, "read_pct", p->read_pct);
	rc |= slc__h5_put_str(g, "read_state", p->read_state);
	rc |= slc__h5_put_str(g, "io_mode", p->io_mode);
	return rc ? -EIO : 0;
}

int slc_trace_segment_begin(struct slc_trace *t, const struct slc_segment_params *p)
{
	char name[32];
	hid_t evg = H5I_INVALID_HID;
	int rc;

	if (!t || !p)
		return -EINVAL;
	if (t->seg_open) {
		rc = slc_trace_segment_end(t);
		if (rc)
			return rc;
	}
	t->seg = H5I_INVALID_HID;
	for (size_t c = 0; c < NCOLS; c++)
		t->cols[c] = H5I_INVALID_HID;
	for (size_t c = 0; c < EV_NCOLS; c++)
		t->ev[c] = H5I_INVALID_HID;
	t->seg_open = 1;
	snprintf(name, sizeof(name), "segments/");
	slc__h5_index_name(name + 9, sizeof(name) - 9, t->seg_count);
	rc = -EIO;
	t->seg = H5Gcreate2(t->file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (t->seg < 0 || write_params(t->seg, p, t->seg_count) < 0)
		goto fail;
	t->extra_cols = 0;
	for (size_t c = 0; c < NCOLS; c++) {
		/* a segment without reads has no use for them: its file stays as small */
		if (slc__trace_cols[c].reads_apart && !p->read_pct && p->role != SLC_ROLE_SWEEP)
			continue;
		t->extra_cols += c >= BASE_COLS;
		t->cols[c] = make_dataset(t->seg, slc__trace_cols[c].name,
					  slc__trace_cols[c].is_u64 ? H5T_STD_U64LE : H5T_IEEE_F64LE, CHUNK_SAMPLES,
					  slc__trace_cols[c].units);
		if (t->cols[c] < 0)
			goto fail;
	}
	evg = H5Gcreate2(t->seg, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (evg < 0)
		goto fail;
	for (size_t c = 0; c < EV_NCOLS; c++) {
		hid_t type = c == EV_KIND ? t->kind_type : c == EV_BYTES ? H5T_STD_U64LE : H5T_IEEE_F64LE;

		t->ev[c] = make_dataset(evg, ev_names[c], type, CHUNK_EVENTS, ev_units[c]);
		if (t->ev[c] < 0)
			goto fail;
	}
	H5Gclose(evg);
	t->seg_count++;
	t->before += t->n_written;
	t->n_written = t->ev_written = 0;
	t->nbuf = t->nev = 0;
	t->have_last = 0;
	return 0;
fail:
	twerr(t, rc, "cannot start segment");
	slc__h5_close(evg);
	close_segment_handles(t);
	return rc;
}

int slc_trace_append(struct slc_trace *t, const struct slc_sample *s)
{
	if (!t || !s)
		return -EINVAL;
	if (!t->seg_open)
		return twerr(t, -EINVAL, "append without a segment");
	if (!isfinite(s->t_s) || !isfinite(s->interval_s) || s->interval_s < 0)
		return twerr(t, -EINVAL, "sample time not finite");
	if (t->have_last && (s->t_s < t->last_t_s || s->bytes_total < t->last_bytes))
		return twerr(t, -EINVAL, "sample time or byte count goes backwards");
	/* no more samples in a segment than the readers take back (limits.h):
	 * the run stops with a trace every reader opens */
	if (t->n_written + t->nbuf >= SLC__INPUT_MAX_SAMPLES ||
	    t->before + t->n_written + t->nbuf >= SLC__INPUT_MAX_MEMORY / SLC__INPUT_SAMPLE_BYTES) {
		snprintf(t->err, sizeof(t->err), "%s holds %llu samples, the most slcscope reads back: sample less "
			 "often (--interval)", t->path ? t->path : "the trace",
			 (unsigned long long)(t->before + t->n_written + t->nbuf));
		return -EFBIG;
	}
	/* A failed flush left the buffer full: try again before adding. */
	if (t->nbuf >= SLC_TRACE_BUFFER_SAMPLES) {
		int rc = slc_trace_flush(t);

		if (rc)
			return rc;
	}
	t->buf[t->nbuf++] = *s;
	t->last_t_s = s->t_s;
	t->last_bytes = s->bytes_total;
	t->have_last = 1;
	return maybe_flush(t);
}

int slc_trace_event(struct slc_trace *t, const struct slc_event *e)
{
	struct buffered_event *b;

	if (!t || !e)
		return -EINVAL;
	if (!t->seg_open)
		return twerr(t, -EINVAL, "event without a segment");
	if (!e->kind || !e->kind[0] || strlen(e->kind) > SLC_TRACE_KIND_MAX)
		return twerr(t, -EINVAL, "event kind empty or longer than 31 bytes");
	if (t->nev >= EVENT_BUFFER) {
		int rc = slc_trace_flush(t);

		if (rc)
			return rc;
	}
	b = &t->evbuf[t->nev++];
	memset(b, 0, sizeof(*b));
	b->t_s = e->t_s;
	b->host_bytes = e->host_bytes;
	memcpy(b->kind, e->kind, strlen(e->kind));
	b->value = e->value;
	return maybe_flush(t);
}

int slc__trace_snapshot_at(struct slc_trace *t, const char *kind, long segment, double t_s, const char *json_text)
{
	struct pending_snapshot *p;

	if (!t || !json_text || !kind || !kind[0] || strlen(kind) > SLC_TRACE_KIND_MAX || !isfinite(t_s))
		return t ? twerr(t, -EINVAL, "snapshot needs a kind of 1-31 bytes, a finite time and text") : -EINVAL;
	if (t->nsnap == SNAPSHOT_BUFFER) {
		int rc = slc_trace_flush(t);

		if (rc)
			return rc;
	}
	p = &t->snaps[t->nsnap];
	memset(p->kind, 0, sizeof(p->kind));
	memcpy(p->kind, kind, strlen(kind));
	p->t_s = t_s;
	p->segment = segment;
	p->json_text = strdup(json_text);
	if (!p->json_text)
		return twerr(t, -ENOMEM, "snapshot");
	t->nsnap++;
	return maybe_flush(t);
}

int slc_trace_snapshot(struct slc_trace *t, const char *kind, double t_s, const char *json_text)
{
	if (!t)
		return -EINVAL;
	return slc__trace_snapshot_at(t, kind, t->seg_open ? (long)t->seg_count - 1 : -1, t_s, json_text);
}

int slc_trace_segment_end(struct slc_trace *t)
{
	int rc;

	if (!t)
		return -EINVAL;
	if (!t->seg_open)
		return twerr(t, -EINVAL, "no segment to end");
	rc = slc_trace_flush(t);
	close_segment_handles(t);
	return rc;
}

int slc_trace_close(struct slc_trace *t)
{
	int rc = 0, rc2;

	if (!t)
		return 0;
	if (t->seg_open)
		rc = slc_trace_segment_end(t);
	else
		rc = slc_trace_flush(t);
	/* a file HDF5 failed to flush cannot be closed (see keep_hdf5_from_exit) */
	if (!t->broken && H5Fclose(t->file) < 0 && !rc)
		rc = -EIO;
	release_space(t);
	rc2 = fsync(t->fd) < 0 ? -errno : 0;
	if (!rc)
		rc = rc2;
	trace_free(t);
	return rc;
}

/* ---- root strings and analysis results ------------------------------ */

int slc_trace_set_run_status(struct slc_trace *t, const char *status)
{
	if (!t || !status)
		return -EINVAL;
	return slc__h5_put_str(t->file, "run_status", status) ? -EIO : 0;
}

int slc__trace_put_root_str(struct slc_trace *t, const char *name, const char *value)
{
	return slc__h5_put_str(t->file, name, value);
}

int slc__trace_put_json(struct slc_trace *t, const char *name, const char *json_text, char *err, size_t errlen)
{
	return put_json(t->file, name, json_text, err, errlen);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, outfd, rc = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	outfd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (outfd < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(outfd, buf + off, (size_t)(n - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				rc = -errno;
				goto out;
			}
			off += w;
		}
	}
out:
	close(in);
	if (close(outfd) < 0 && !rc)
		rc = -errno;
	return rc;
}

int slc_trace_store_json(const char *path, const char *name, const char *json_text, char *err, size_t errlen)
{
	char *tmp = NULL, real[PATH_MAX];
	hid_t f = H5I_INVALID_HID;
	char why[160];
	struct stat st;
	int rc, lockfd, slot;

	slc__h5_quiet();
	if (!valid_json_name(name))
		return slc_errf(err, errlen, -EINVAL, "analysis name must be 1-64 letters, digits, '_' or '-'");
	/* through a symbolic link the file it names is replaced and the link
	 * kept, as every output does (docs/safety.md) */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real))
			return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
		path = real;
	}
	/* a trace a run still writes is the run's: its lock keeps us out until it ends */
	if ((lockfd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return slc_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fstat(lockfd, &st) || !S_ISREG(st.st_mode)) {
		close(lockfd);
		return slc_errf(err, errlen, -EINVAL, "%s: not a regular file", path);
	}
	if ((rc = slc__take_lock(lockfd, path, err, errlen)) || !(tmp = slc__tmp_name_beside(path))) {
		close(lockfd);
		return rc ? rc : slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	slot = slc__tmp_register(tmp, SLC__TMP_FILE);     /* a signal removes the copy */
	rc = copy_file(path, tmp);
	if (rc) {
		slc_errf(err, errlen, rc, "cannot copy %s: %s", path, strerror(-rc));
		goto out;
	}
	f = slc__h5_open_file(tmp, H5F_ACC_RDWR);
	if (f < 0) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: not an HDF5 file (%s)", path,
			      slc__h5_reason(why, sizeof(why)));
		goto out;
	}
	rc = slc__h5_check_schema(f, err, errlen);
	if (!rc)
		rc = put_json(f, name, json_text, err, errlen);
	if (H5Fclose(f) < 0 && !rc)
		rc = slc_errf(err, errlen, -EIO, "cannot close %s: %s", path, slc__h5_reason(why, sizeof(why)));
out:
	rc = slc__publish_tmp(tmp, path, rc, err, errlen);
	slc__tmp_forget(slot);
	free(tmp);
	close(lockfd);
	return rc;
}
