// SPDX-License-Identifier: MIT
/*
 * Adding a trace to the lab: hashed, loaded and analysed outside the
 * database, then stored in one transaction, so that a refused or failed
 * add leaves nothing behind and a second add of the same file changes
 * nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slcscope/analysis.h"
#include "slcscope/output.h"
#include "slcscope/session.h"
#include "slcscope/trace.h"
#include "slcscope/vocab.h"
#include "lab_priv.h"

/* The SHA-256 of the file at @path in hex, and its size. */
int slc__lab_sha256(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen)
{
	unsigned char md[EVP_MAX_MD_SIZE], buf[1 << 16];
	unsigned int mdlen = 0;
	EVP_MD_CTX *c;
	struct stat st;
	ssize_t n;
	int fd, rc = 0;

	/* a device or FIFO is never opened (opening some has effects); fstat()
	 * below catches one swapped in after this */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file: a lab stores trace files", path);
		return -EINVAL;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0) close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s is not a regular file: a lab stores trace files", path);
		return -EINVAL;
	}
	if (!(c = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(c, EVP_sha256(), NULL)) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
	}
	*size = 0;
	while (!rc && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		} else {
			EVP_DigestUpdate(c, buf, (size_t)n);
			*size += (uint64_t)n;
		}
	}
	if (!rc && !EVP_DigestFinal_ex(c, md, &mdlen)) rc = -EIO;
	EVP_MD_CTX_free(c);
	close(fd);
	for (unsigned i = 0; !rc && i < mdlen && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return rc;
}

int slc__lab_same_trace(int64_t run, const char *drive, const char *path, const char *sha, char *err, size_t errlen)
{
	char hex[65], e[512];
	uint64_t size;
	int rc = slc__lab_sha256(path, hex, &size, e, sizeof(e));

	if (rc == -ENOENT || rc == -ENOTDIR) {
		snprintf(err, errlen, "run %" PRId64 " (%s): %s is no longer there", run, drive, path);
		return -ENOENT;
	}
	if (rc) {
		snprintf(err, errlen, "run %" PRId64 " (%s): %s; cannot check that it is the trace that was added", run,
			 drive, e);
		return rc;
	}
	if (strcmp(hex, sha) != 0) {
		snprintf(err, errlen, "run %" PRId64 " (%s): %s is no longer the trace that was added (SHA-256 differs); "
			 "lab add that trace from where it is now, or move this file away to leave the run out", run, drive,
			 path);
		return -ESTALE;
	}
	return 0;
}

struct add_ctx {
	struct lab_db *db;
	const struct slc_session *x;
	const struct slc_lab_figures *fg;
	const char *path, *sha;
	uint64_t size;
	int64_t drive_id, run_id;
	char *err;
	size_t errlen;
};

void slc__lab_drive_key(struct slc__lab_key *k, const struct slc_session *x, const char *sha)
{
	const struct slc_trace_meta *m = &x->in->meta;

	slc_session_drive_name(k->name, sizeof(k->name), x);
	/* a drive is its model, serial and size; a trace that names no model
	 * (an imported log) is a drive of its own: logs of different drives
	 * share file names (fio's job_bw.1.log) */
	if (m->device_model && *m->device_model) {
		snprintf(k->model, sizeof(k->model), "%s", m->device_model);
		snprintf(k->serial, sizeof(k->serial), "%s", m->device_serial ? m->device_serial : "");
	} else {
		snprintf(k->model, sizeof(k->model), "%s", k->name);
		snprintf(k->serial, sizeof(k->serial), "trace %.16s", sha);
	}
	k->capacity = m->capacity_bytes;
}

static int add_drive(struct add_ctx *c, const struct slc__lab_key *k)
{
	const struct slc_trace_meta *m = &c->x->in->meta;
	char cap[24];
	const char *p[6] = { k->model, k->serial, cap, k->name, m->device_firmware, m->cell_type };
	int rc;

	snprintf(cap, sizeof(cap), "%" PRIu64, k->capacity);
	rc = c->db->ops->query(c->db, "INSERT INTO drives (model, serial, capacity_bytes, name, firmware, cell)"
			       " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (model, serial, capacity_bytes) DO NOTHING",
			       6, p, NULL, NULL, c->err, c->errlen);
	if (!rc)
		rc = slc__lab_query_int(c->db, "SELECT id FROM drives WHERE model = $1 AND serial = $2 AND capacity_bytes = $3",
				   3, p, &c->drive_id, c->err, c->errlen);
	return rc;
}

static int add_run(struct add_ctx *c)
{
	const struct slc_input *in = c->x->in;
	const struct slc_lab_figures *f = c->fg;
	char did[24], size[24], now[32], seg[24], n[13][32];
	time_t t = time(NULL);
	struct tm tm;
	long ref = slc_session_pick(c->x, 0);
	const char *p[26];

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(did, sizeof(did), "%" PRId64, c->drive_id);
	snprintf(size, sizeof(size), "%" PRIu64, c->size);
	snprintf(seg, sizeof(seg), "%zu", ref >= 0 ? c->x->seg[ref] : 0);
	const char *head[14] = { did, c->sha, c->path, size, now, in->created_utc, in->host, in->tool_version,
				 in->meta.plan, in->meta.target, in->meta.command_line, in->meta.run_status,
				 in->meta.device_firmware, ref >= 0 ? seg : NULL };
	const double v[12] = { f->v[SLC_LAB_CACHE], f->cache_min_bytes, f->cache_max_bytes, f->v[SLC_LAB_CACHE_SPEED],
			       f->v[SLC_LAB_POST_CACHE], f->v[SLC_LAB_WHOLE_DRIVE], f->v[SLC_LAB_RECOVERY],
			       f->recovery_trim_frac, f->v[SLC_LAB_TGBW], f->tgbw_horizon_s, f->erase_onset_bytes, NAN };
	memcpy(p, head, sizeof(head));
	for (int i = 0; i < 11; i++) p[14 + i] = slc__lab_num(n[i], sizeof(n[i]), v[i]);
	return slc__lab_query_int(c->db,
			     "INSERT INTO runs (drive_id, sha256, path, file_bytes, added_utc, created_utc, host,"
			     " tool_version, plan, target, command_line, status, firmware, main_segment, cache_bytes,"
			     " cache_min_bytes, cache_max_bytes, cache_bps, post_cache_bps, whole_drive_s,"
			     " recovery_frac, recovery_trim_frac, tgbw_bytes, tgbw_horizon_s, erase_onset_bytes)"
			     " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,"
			     " $18, $19, $20, $21, $22, $23, $24, $25) ON CONFLICT (sha256) DO NOTHING RETURNING id",
			     25, p, &c->run_id, c->err, c->errlen);
}

static int add_phases(struct add_ctx *c, size_t k, const char *rid, const char *sg)
{
	const struct slc_analysis *an = &c->x->a[k];
	int rc = 0;

	for (size_t i = 0; i < an->n_phases && !rc; i++) {
		const struct slc_phase *ph = &an->phases[i];
		char idx[24], tier[24], n[6][32];
		const double v[6] = { ph->start_s, ph->end_s, ph->start_bytes, ph->end_bytes, ph->mean_bps, ph->median_bps };
		const char *p[12] = { rid, sg, idx, slc_phase_kind_name(ph->kind), slc_phase_label(ph, an->model.cell), tier };

		snprintf(idx, sizeof(idx), "%zu", i);
		snprintf(tier, sizeof(tier), "%d", ph->tier);
		for (int j = 0; j < 6; j++) p[6 + j] = slc__lab_num(n[j], sizeof(n[j]), v[j]);
		rc = c->db->ops->query(c->db, "INSERT INTO phases (run_id, segment, idx, kind, label, tier, start_s, end_s,"
				       " start_bytes, end_bytes, mean_bps, median_bps) VALUES ($1, $2, $3, $4, $5, $6,"
				       " $7, $8, $9, $10, $11, $12)", 12, p, NULL, NULL, c->err, c->errlen);
	}
	return rc;
}

static int add_curves(struct add_ctx *c)
{
	char rid[24];
	int rc = 0;

	snprintf(rid, sizeof(rid), "%" PRId64, c->run_id);
	for (size_t k = 0; k < c->x->n && !rc; k++) {
		const struct slc_input_segment *s = &c->x->in->segments[c->x->seg[k]];
		const struct slc_analysis *an = &c->x->a[k];
		struct slc_curve_figures cf;
		char sg[24], bs[24], qd[24], jobs[24], n[10][32];
		const char *p[18] = { rid, sg, s->params.step, slc_role_name(s->params.role), s->params.workload, bs, qd, jobs };

		if (slc_session_curve_figures(&cf, c->x, k, 7200)) continue;
		snprintf(sg, sizeof(sg), "%zu", c->x->seg[k]);
		snprintf(bs, sizeof(bs), "%" PRIu32, s->params.block_bytes);
		snprintf(qd, sizeof(qd), "%" PRIu32, s->params.queue_depth);
		snprintf(jobs, sizeof(jobs), "%" PRIu32, s->params.jobs);
		const double v[10] = { s->params.idle_before_s, s->params.interval_s, cf.duration_s, cf.written_bytes,
				       cf.cache_bytes, cf.cache_bps, cf.native_bps, cf.erase_bps,
				       an->erase_bound_start_bytes, an->model.confidence };
		for (int j = 0; j < 10; j++) p[8 + j] = slc__lab_num(n[j], sizeof(n[j]), v[j]);
		rc = c->db->ops->query(c->db, "INSERT INTO curves (run_id, segment, step, role, workload, block_bytes, qd,"
				       " jobs, idle_before_s, interval_s, duration_s, written_bytes, cache_bytes, cache_bps,"
				       " native_bps, erase_bps, erase_onset_bytes, confidence) VALUES ($1, $2, $3, $4,"
				       " $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
				       18, p, NULL, NULL, c->err, c->errlen);
		if (!rc) rc = add_phases(c, k, rid, sg);
	}
	return rc;
}

/*
 * A trace whose hash the lab does not know may still be a run it stores:
 * the file at the same path, written at the same time on the same host,
 * changed since it was added ('analyze --store' puts the analysis in it).
 * That run's record follows the file (its hash and size); *@out says so.
 */
static int same_run(struct add_ctx *c, struct slc_lab_added *out)
{
	const struct slc_input *in = c->x->in;
	const char *p[3] = { c->path, in->created_utc, in->host };
	char rid[24], size[24];
	int64_t id = -1;
	int rc;

	if (!in->created_utc || !in->host) return 0;
	rc = slc__lab_query_int(c->db, "SELECT id FROM runs WHERE path = $1 AND created_utc = $2 AND host = $3", 3, p,
				&id, c->err, c->errlen);
	if (rc || id < 0) return rc;
	snprintf(rid, sizeof(rid), "%" PRId64, id);
	snprintf(size, sizeof(size), "%" PRIu64, c->size);
	{
		const char *u[3] = { c->sha, size, rid };
		rc = c->db->ops->query(c->db, "UPDATE runs SET sha256 = $1, file_bytes = $2 WHERE id = $3", 3, u, NULL,
				       NULL, c->err, c->errlen);
	}
	if (!rc) rc = slc__lab_query_int(c->db, "SELECT drive_id FROM runs WHERE id = $1", 1, (const char *[]){ rid },
					 &out->drive_id, c->err, c->errlen);
	if (!rc) {
		out->existed = out->rehashed = 1;
		out->run_id = id;
	}
	return rc;
}

/* Everything in one transaction; the hash is looked up inside it, so two
 * benches adding the same file at once store it once. */
static int store(struct add_ctx *c, struct slc_lab_added *out)
{
	const char *p[1] = { c->sha };
	char e2[64];
	int64_t id = -1;
	int rc = slc__lab_exec(c->db, c->db->ops->begin, c->err, c->errlen);

	if (rc) return rc;
	rc = slc__lab_query_int(c->db, "SELECT id FROM runs WHERE sha256 = $1", 1, p, &id, c->err, c->errlen);
	if (!rc && id >= 0) {
		/* stored before; a trace moved since is found at its new path */
		const char *mp[2] = { c->sha, c->path };
		int64_t same = -1;
		out->existed = 1;
		out->run_id = id;
		rc = slc__lab_query_int(c->db, "SELECT drive_id FROM runs WHERE sha256 = $1", 1, p, &out->drive_id, c->err,
				   c->errlen);
		if (!rc) rc = slc__lab_query_int(c->db, "SELECT id FROM runs WHERE sha256 = $1 AND path = $2", 2, mp, &same,
						 c->err, c->errlen);
		if (!rc && same < 0) {
			rc = c->db->ops->query(c->db, "UPDATE runs SET path = $2 WHERE sha256 = $1", 2, mp, NULL, NULL, c->err,
					       c->errlen);
			out->moved = !rc;
		}
		if (!rc && out->moved) return slc__lab_exec(c->db, "COMMIT", c->err, c->errlen);
		slc__lab_exec(c->db, "ROLLBACK", e2, sizeof(e2));
		return rc;
	}
	if (!rc && !(rc = same_run(c, out)) && out->rehashed)
		return slc__lab_exec(c->db, "COMMIT", c->err, c->errlen);
	if (!rc) {
		struct slc__lab_key k;
		slc__lab_drive_key(&k, c->x, c->sha);
		rc = add_drive(c, &k);
	}
	if (!rc) rc = add_run(c);
	if (!rc && c->run_id < 0) {
		/* another bench stored the same file since the look-up above */
		slc__lab_exec(c->db, "ROLLBACK", e2, sizeof(e2));
		out->existed = 1;
		rc = slc__lab_query_int(c->db, "SELECT id FROM runs WHERE sha256 = $1", 1, p, &out->run_id, c->err, c->errlen);
		if (!rc)
			rc = slc__lab_query_int(c->db, "SELECT drive_id FROM runs WHERE sha256 = $1", 1, p, &out->drive_id,
					   c->err, c->errlen);
		return rc;
	}
	if (!rc) rc = add_curves(c);
	if (!rc) rc = slc__lab_exec(c->db, "COMMIT", c->err, c->errlen);
	if (rc) {
		slc__lab_exec(c->db, "ROLLBACK", e2, sizeof(e2));
		return rc;
	}
	out->run_id = c->run_id;
	out->drive_id = c->drive_id;
	return 0;
}

/* An HDF5 file's signature at its start, where slcscope writes it: a log
 * or a CSV is told apart before the importers try to read it as one. */
static int is_hdf5(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };
	unsigned char head[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ok;

	if (fd < 0) return 0;
	ok = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) && memcmp(head, sig, sizeof(sig)) == 0;
	close(fd);
	return ok;
}

int slc_lab_add(struct slc_lab *lab, const char *path, struct slc_lab_added *out, char *err, size_t errlen)
{
	struct slc_session x = { 0 };
	struct slc_lab_figures fg;
	char real[PATH_MAX], again[65] = "";
	struct add_ctx c = { .db = &lab->db, .x = &x, .fg = &fg, .err = err, .errlen = errlen };
	uint64_t size2;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = slc__lab_sha256(path, out->sha256, &c.size, err, errlen))) return rc;
	if (!realpath(path, real)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (!is_hdf5(path)) {
		snprintf(err, errlen, "%s is not a slcscope trace: import it first (slcscope import %s -o TRACE.h5)", path,
			 path);
		return -EINVAL;
	}
	if ((rc = slc_output_held(path, err, errlen)))
		return rc;
	if ((rc = slc_session_load(&x, path, -1, NULL, err, errlen))) return rc;
	if (x.in->format != SLC_INPUT_TRACE) {
		snprintf(err, errlen, "%s is not a slcscope trace", path);
		rc = -EINVAL;
	} else if (slc_lab_figures(&fg, &x)) {
		snprintf(err, errlen, "%s has no write curve to rank", path);
		rc = -ENOENT;
	} else if (slc__lab_sha256(path, again, &size2, err, errlen) || strcmp(again, out->sha256) != 0) {
		snprintf(err, errlen, "%s changed while it was read: add it once the run has finished", path);
		rc = -EAGAIN;
	}
	if (!rc) {
		slc_session_drive_name(out->drive, sizeof(out->drive), &x);
		c.path = real;
		c.sha = out->sha256;
		rc = store(&c, out);
		if (rc && !*err) snprintf(err, errlen, "%s: could not be stored", path);
	}
	slc_session_free(&x);
	return rc;
}
