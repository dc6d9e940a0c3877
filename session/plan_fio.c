// SPDX-License-Identifier: MIT
/*
 * A plan as an fio job file: one job section per step, run one after the
 * other, so that a lab can run the same steps with the tool it already
 * trusts and compare them step by step.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slcscope/session.h"

/* The first line of every job file slcscope writes: what makes it ours. */
#define FIO_MARK "# fio job file written by slcscope"

/* fio's time with the largest unit that keeps it exact. */
static const char *fio_time(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000000000ull == 0)
		snprintf(buf, len, "%" PRIu64 "s", (uint64_t)(ns / 1000000000ull));
	else if (ns % 1000000ull == 0)
		snprintf(buf, len, "%" PRIu64 "ms", (uint64_t)(ns / 1000000ull));
	else
		snprintf(buf, len, "%" PRIu64 "us", (uint64_t)((ns + 999) / 1000));
	return buf;
}

/* A step's label, "NN-name": its section's name and its logs' prefix.  fio
 * takes most characters, but '%' and spaces read badly in its reports and
 * in file names.  Step names are at most 31 bytes, "pct" three per byte. */
#define LABEL_MAX 128
static const char *step_label(char *buf, size_t i, const char *name)
{
	size_t n = (size_t)snprintf(buf, LABEL_MAX, "%02zu-", i + 1);

	for (const char *c = name; *c && n + 4 < LABEL_MAX; c++) {
		if (*c == '%') {
			memcpy(buf + n, "pct", 3);
			n += 3;
			continue;
		}
		buf[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
				   *c == '_' || *c == '-' || *c == '.' ? *c : '_';
	}
	buf[n] = '\0';
	return buf;
}

static void section(FILE *f, size_t i, const char *name, const char *suffix)
{
	char l[LABEL_MAX];

	fprintf(f, "\n[%s%s]\nstonewall\n", step_label(l, i, name), suffix);
}

/* A wait in which the drive gets no command: a job on fio's null engine
 * (no file, no I/O to the drive), one command a second for the time.
 * fio's startdelay counts from fio's start, not from the stonewall, so it
 * cannot place a wait between steps. */
static void write_wait(FILE *f, size_t i, const char *name, const char *suffix, uint64_t ns)
{
	char t[32];

	section(f, i, name, suffix);
	fprintf(f, "# idle: no I/O to the drive for %s\n", fio_time(t, sizeof(t), ns));
	fprintf(f, "ioengine=null\nrw=read\nbs=4k\nsize=4k\ntime_based=1\nruntime=%s\nrate_iops=1\n",
		fio_time(t, sizeof(t), ns));
}

/* A TRIM from offset 0 as an fio trim job: BLKDISCARD through the sync
 * engine on a block device, a punched hole (falloc) on a file, as slcscope
 * does; fio trims whole blocks, so the block divides the range. */
static void write_trim(FILE *f, size_t i, const struct slc_step *s, enum slc_target_kind kind, uint64_t cap)
{
	uint64_t len = cap, bs = 1ull << 30;

	if (s->bytes.bytes || s->bytes.capacity_multiple > 0)
		slc_size_resolve(&len, &s->bytes, cap);
	while (bs > 512 && len % bs)
		bs /= 2;
	section(f, i, s->name, "");
	if (len == cap)
		fprintf(f, "# TRIM of the whole target\n");
	else
		fprintf(f, "# TRIM of the first %" PRIu64 " bytes\n", len);
	fprintf(f, "ioengine=%s\nrw=trim\nbs=%" PRIu64 "\niodepth=1\noffset=0\nsize=%" PRIu64 "\n",
		kind == SLC_TARGET_NULL ? "null" : kind == SLC_TARGET_BLOCKDEV ? "sync" : "falloc", bs, len - len % bs);
	if (s->wait_ns)
		write_wait(f, i, s->name, "-wait", s->wait_ns);
}

static const char *fio_rw(const struct slc_job *j)
{
	switch (j->kind) {
	case SLC_JOB_SEQ_WRITE: return "write";
	case SLC_JOB_RAND_WRITE: return "randwrite";
	case SLC_JOB_SEQ_READ: return "read";
	case SLC_JOB_RAND_READ: return "randread";
	case SLC_JOB_SEQ_MIXED: return "rw";
	default: return "randrw";
	}
}

/* The data a step writes, where it differs from the [global] incompressible buffers. */
static void write_data(FILE *f, const struct slc_job *j)
{
	if (j->data == SLC_DATA_REPEATING)
		fprintf(f, "# one constant block, over and over\nrefill_buffers=0\nzero_buffers=1\n");
	else if (j->data == SLC_DATA_COMPRESSIBLE)
		fprintf(f, "buffer_compress_percentage=%d\nbuffer_compress_chunk=4k\n",
			(int)((1.0 - j->compress_ratio) * 100.0 + 0.5));
}

/* fio's log_avg_msec for a sampling interval: whole milliseconds, at least 1. */
static uint64_t log_msec(uint64_t interval_ns)
{
	uint64_t ns = interval_ns ? interval_ns : 1000000000ull, ms = (ns + 500000) / 1000000;

	return ms ? ms : 1;
}

static int log_msec_rounded(uint64_t interval_ns)
{
	return interval_ns % 1000000 != 0;
}

/*
 * A curve's logs: bandwidth, IOPS and latency, each line the mean over the
 * sampling interval, so that slcscope import reads back the samples slcscope
 * itself would have taken; named after the step, so that every step's logs
 * are its own.
 */
static void write_logs(FILE *f, size_t i, const char *name, uint64_t interval_ns)
{
	char l[LABEL_MAX], t[32];

	step_label(l, i, name);
	fprintf(f, "# bandwidth, IOPS and latency, each line the mean over the sampling interval\n");
	if (log_msec_rounded(interval_ns))
		fprintf(f, "# the interval %s rounded to %" PRIu64 " ms: fio averages over whole milliseconds\n",
			fio_time(t, sizeof(t), interval_ns), log_msec(interval_ns));
	fprintf(f, "write_bw_log=%s\nwrite_iops_log=%s\nwrite_lat_log=%s\nlog_avg_msec=%" PRIu64 "\n", l, l, l,
		log_msec(interval_ns));
}

/* A job or duty step: its region, pattern, depth, jobs and limit. */
static void write_job(FILE *f, size_t i, const struct slc_step *s, const struct slc_job *j, uint64_t cap,
		      unsigned io_poll)
{
	uint32_t block = j->block_bytes ? j->block_bytes : slc_job_kind_sequential(j->kind) ? 131072 : 4096;
	uint32_t jobs = j->jobs ? j->jobs : 1, qd = j->queue_depth ? j->queue_depth : 32;
	uint64_t range = j->range_bytes ? j->range_bytes : cap - j->offset_bytes, size = range;
	char t[32], w[32];

	section(f, i, s->name, "");
	fprintf(f, "rw=%s\n", fio_rw(j));
	if (j->kind == SLC_JOB_SEQ_MIXED || j->kind == SLC_JOB_RAND_MIXED)
		fprintf(f, "rwmixread=%u\n", slc_job_kind_read_pct(j->kind, j->read_pct));
	fprintf(f, "bs=%u\n", block);
	if (!slc_job_kind_sequential(j->kind))
		fprintf(f, "blockalign=%u\n", j->align_bytes ? j->align_bytes : block);
	fprintf(f, "iodepth=%u\n", qd);
	/* per job, not in [global]: the TRIM and idle sections' engines have no such options */
	if (io_poll & SLC_TARGET_HIPRI)
		fprintf(f, "hipri=1\n");
	if (io_poll & SLC_TARGET_SQPOLL)
		fprintf(f, "sqthread_poll=1\n");
	if (jobs > 1)
		fprintf(f, "numjobs=%u\n", jobs);
	/* sequential jobs each walk a slice of their own, random ones share the range */
	if (jobs > 1 && slc_job_kind_sequential(j->kind))
		size = range / block / jobs * block;
	fprintf(f, "offset=%" PRIu64 "\nsize=%" PRIu64 "\n", j->offset_bytes, size);
	if (jobs > 1 && slc_job_kind_sequential(j->kind))
		fprintf(f, "offset_increment=%" PRIu64 "\n", size);
	write_data(f, j);
	write_logs(f, i, s->name, j->interval_ns);
	if (s->kind == SLC_STEP_DUTY) {
		fprintf(f, "# %u rounds of %s writing, %s idle\n", s->rounds, fio_time(t, sizeof(t), j->max_ns),
			fio_time(w, sizeof(w), s->wait_ns));
		fprintf(f, "thinktime=%s\nthinktime_iotime=%s\ntime_based=1\n", w, t);
		fprintf(f, "runtime=%s\n", fio_time(t, sizeof(t), (uint64_t)s->rounds * (j->max_ns + s->wait_ns)));
		return;
	}
	if (j->max_bytes)
		fprintf(f, "io_size=%" PRIu64 "\n", j->max_bytes / jobs / block * block);
	if (j->max_ns)
		fprintf(f, "%sruntime=%s\n", j->max_bytes ? "" : "time_based=1\n", fio_time(t, sizeof(t), j->max_ns));
}

/* filename= with fio's separator ':' escaped. */
static void write_filename(FILE *f, const char *spec)
{
	fputs("filename=", f);
	for (const char *c = spec; *c; c++) {
		if (*c == ':' || *c == '\\')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputc('\n', f);
}

static void write_intro(FILE *f, const struct slc_plan *p, const char *spec, enum slc_target_kind kind,
			uint64_t cap, const char *command_line)
{
	fprintf(f, FIO_MARK " for plan %s on %s (%" PRIu64 " bytes), %zu steps\n", p->name, spec, cap, p->n);
	if (command_line && *command_line) {
		fputs("# from: ", f);
		for (const char *c = command_line; *c; c++)
			fputc(*c == '\n' ? ' ' : *c, f);
		fputc('\n', f);
	}
	fprintf(f, "# Every step is one job section and runs after the one before (stonewall); each\n"
		   "# section reports on its own (group_reporting).  fio writes the target as slcscope\n"
		   "# would: running this destroys its data.  libaio works as ioengine too.\n");
	if (kind == SLC_TARGET_SIM)
		fprintf(f, "# %s is slcscope's simulated drive: fio cannot run on it; name the drive in filename=\n",
			spec);
	if (kind == SLC_TARGET_NULL)
		fprintf(f, "# %s does no I/O: fio's null engine is its counterpart\n", spec);
}

static void write_global(FILE *f, const char *spec, enum slc_target_kind kind)
{
	fprintf(f, "\n[global]\n");
	if (kind != SLC_TARGET_NULL)
		write_filename(f, spec);
	fprintf(f, "ioengine=%s\ndirect=1\n", kind == SLC_TARGET_NULL ? "null" : "io_uring");
	fprintf(f, "# incompressible data, fresh for every write\nrefill_buffers=1\nbuffer_compress_percentage=0\n");
	fprintf(f, "# random offsets drawn afresh for every command, as slcscope draws them\nnorandommap=1\n");
	fprintf(f, "group_reporting=1\n");
	fprintf(f, "# a log per job, named by fio's job number N in this file (the header lists them)\n"
		   "per_job_logs=1\n");
}

static int step_writes(const struct slc_job *j)
{
	return j->kind != SLC_JOB_SEQ_READ && j->kind != SLC_JOB_RAND_READ;
}

/* One curve's logs in the header: their names and the commands that read them. */
static void index_entry(FILE *f, const char *l, uint64_t first, uint32_t jobs, int writes, uint64_t cap)
{
	if (jobs > 1)
		fprintf(f, "#   %s_bw.N.log, _iops.N.log, _lat.N.log (and _clat, _slat) for N = %" PRIu64
			   " to %" PRIu64 "\n", l, first, first + jobs - 1);
	else
		fprintf(f, "#   %s_bw.%" PRIu64 ".log, _iops.%" PRIu64 ".log, _lat.%" PRIu64
			   ".log (and _clat, _slat)\n", l, first, first, first);
	if (!writes) {
		fprintf(f, "#     reads only: slcscope import reads the writes of a log\n");
		return;
	}
	fprintf(f, "#     slcscope import %s_bw.%" PRIu64 ".log --capacity %" PRIu64 " -o %s.h5\n", l, first, cap, l);
	fprintf(f, "#     slcscope analyze %s_bw.%" PRIu64 ".log --capacity %" PRIu64 "\n", l, first, cap);
}

/*
 * The logs fio will write and how to read them back.  fio numbers its jobs
 * across the whole file from 1, every section's numjobs included, and names
 * a per-job log by that number: counted here as fio counts.
 */
static int write_log_index(FILE *f, const struct slc_plan *p, uint64_t cap, char *err, size_t errlen)
{
	uint64_t thread = 1, ms = 0, ns = 0;
	char l[LABEL_MAX], t[32];
	int rc, header = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		struct slc_job job;
		uint32_t jobs;

		if (s->kind == SLC_STEP_TRIM || s->kind == SLC_STEP_IDLE) {
			thread += 1 + (s->kind == SLC_STEP_TRIM && s->wait_ns);
			continue;
		}
		if ((rc = slc_plan_step_job(p, i, cap, &job, err, errlen)))
			return rc;
		jobs = job.jobs ? job.jobs : 1;
		if (!header) {
			ns = job.interval_ns ? job.interval_ns : 1000000000ull;
			ms = log_msec(ns);
			fprintf(f, "#\n# Logs: fio writes them in the directory it runs in, each line the mean over\n"
				   "# log_avg_msec=%" PRIu64 " (the sampling interval): bandwidth in KiB/s, IOPS, latency\n"
				   "# in ns.  slcscope import and analyze read a step's _bw log with its jobs'\n"
				   "# siblings and its _iops and _lat logs (run fio in an empty directory: an\n"
				   "# older run's logs of more jobs would be read as siblings):\n", ms);
			if (log_msec_rounded(ns))
				fprintf(f, "# (the interval %s rounded to %" PRIu64 " ms: fio averages over whole "
					   "milliseconds)\n", fio_time(t, sizeof(t), ns), ms);
			header = 1;
		}
		index_entry(f, step_label(l, i, s->name), thread, jobs, step_writes(&job), cap);
		thread += jobs;
	}
	return 0;
}

int slc_plan_write_fio(FILE *f, const struct slc_plan *p, const char *spec, enum slc_target_kind kind,
		       uint64_t capacity, unsigned io_poll, const char *command_line, char *err, size_t errlen)
{
	int rc;

	write_intro(f, p, spec, kind, capacity, command_line);
	if ((rc = write_log_index(f, p, capacity, err, errlen)))
		return rc;
	write_global(f, spec, kind);
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		struct slc_job job;
		switch (s->kind) {
		case SLC_STEP_TRIM:
			write_trim(f, i, s, kind, capacity);
			break;
		case SLC_STEP_IDLE:
			write_wait(f, i, s->name, "", s->wait_ns);
			break;
		case SLC_STEP_JOB:
		case SLC_STEP_DUTY:
			if ((rc = slc_plan_step_job(p, i, capacity, &job, err, errlen)))
				return rc;
			write_job(f, i, s, &job, capacity, kind == SLC_TARGET_NULL ? 0 : io_poll);
			break;
		}
	}
	if (ferror(f))
		return snprintf(err, errlen, "cannot write the job file"), -EIO;
	return 0;
}

int slc_fio_job_check(const char *path, const char *target, int force, char *err, size_t errlen)
{
	const struct slc_output_opts oo = { .kind = SLC_OUTPUT_TEXT, .force = force, .option = "--fio-job" };
	struct stat st, ts;
	char line[sizeof(FIO_MARK)];
	size_t n;
	FILE *f;
	int rc;

	if (stat(path, &st) == 0 && stat(target, &ts) == 0 && ts.st_dev == st.st_dev && ts.st_ino == st.st_ino)
		return snprintf(err, errlen, "--fio-job %s: that is the target: the job needs a file of its own",
				path), -EINVAL;
	if ((rc = slc_output_check(path, &oo, err, errlen)))
		return rc;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? 0 : (snprintf(err, errlen, "--fio-job %s: %s", path, strerror(errno)), -errno);
	if (!S_ISREG(st.st_mode))
		return snprintf(err, errlen, "--fio-job %s: not a regular file: the job is written to one", path),
		       -EINVAL;
	if (st.st_size == 0 || force)
		return 0;
	if (!(f = fopen(path, "r")))
		return snprintf(err, errlen, "--fio-job %s: %s", path, strerror(errno)), -errno;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	if (strcmp(line, FIO_MARK) == 0)
		return 0;
	return snprintf(err, errlen, "--fio-job %s: refusing to replace it: not a job file slcscope wrote "
			"(add --force to replace it)", path), -EEXIST;
}

/* The capacity the plan is sized for without writing the target: a block
 * device's size, a file's (or what --size makes it), a simulated drive's. */
static int fio_capacity(const struct slc_fio_job_opts *o, enum slc_target_kind *kind, uint64_t *cap,
			char *err, size_t errlen)
{
	struct slc_target_opts to = { .file_size_bytes = 0 };
	struct slc_target *t = NULL;
	struct stat st;
	int rc;

	*kind = SLC_TARGET_FILE;
	if (!strncmp(o->target, "sim:", 4) || !strncmp(o->target, "null:", 5)) {
		*kind = o->target[0] == 's' ? SLC_TARGET_SIM : SLC_TARGET_NULL;
		if ((rc = slc_target_open(&t, o->target, &to, err, errlen)))
			return rc;
		*cap = slc_target_capacity(t);
		slc_target_close(t);
		return 0;
	}
	if (stat(o->target, &st) != 0) {
		if (!o->file_size_bytes)
			return snprintf(err, errlen, "%s: no such file (give --size to size the job for it)", o->target),
			       -ENOENT;
		st.st_size = 0;
	} else if (S_ISBLK(st.st_mode)) {
		*kind = SLC_TARGET_BLOCKDEV;
		return slc_blockdev_size(o->target, cap, err, errlen);
	} else if (!S_ISREG(st.st_mode)) {
		return snprintf(err, errlen, "%s: not a regular file or block device", o->target), -EINVAL;
	}
	*cap = (uint64_t)st.st_size > o->file_size_bytes ? (uint64_t)st.st_size : o->file_size_bytes;
	*cap = *cap / 4096 * 4096;
	return 0;
}

int slc_fio_job_write(const struct slc_fio_job_opts *o, const struct slc_plan *p, int *usage,
		      char *err, size_t errlen)
{
	const struct slc_output_opts oo = { .kind = SLC_OUTPUT_TEXT, .inputs = &o->target, .n_inputs = 1,
		.force = o->force, .stdout_ok = 1, .option = "--fio-job" };
	int to_stdout = strcmp(o->path, "-") == 0, rc;
	struct slc_output *w;
	enum slc_target_kind kind;
	uint64_t cap = 0;
	FILE *f;

	*usage = 0;
	if ((rc = fio_capacity(o, &kind, &cap, err, errlen)))
		return rc;
	if ((rc = slc_plan_validate(p, cap, 0, err, errlen))) {
		*usage = 1;
		return rc;
	}
	if (!to_stdout && (rc = slc_fio_job_check(o->path, o->target, o->force, err, errlen)))
		return rc;
	if ((rc = slc_output_begin(&w, o->path, &oo, err, errlen)))
		return rc;
	if (!(f = slc_output_stream(w))) {
		rc = slc_errf(err, errlen, -errno, "cannot create %s: %s", o->path, strerror(errno));
		slc_output_abort(w);
		return rc;
	}
	if ((rc = slc_plan_write_fio(f, p, o->target, kind, cap, o->io_poll, o->command_line, err, errlen))) {
		slc_output_abort(w);
		return rc;
	}
	return slc_output_commit(w, err, errlen);
}
