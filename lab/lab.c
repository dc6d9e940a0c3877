// SPDX-License-Identifier: MIT
/*
 * The lab: opening it safely, a run's headline figures, and adding a trace.
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

static const char *const figure_names[SLC_LAB_FIGURE__COUNT] = {
	"cache", "cache-speed", "post-cache", "whole-drive", "recovery", "tgbw",
};

const char *slc_lab_figure_name(enum slc_lab_figure f)
{
	return (unsigned)f < SLC_LAB_FIGURE__COUNT ? figure_names[f] : NULL;
}

int slc_lab_figure_from_name(const char *name)
{
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++)
		if (name && strcmp(name, figure_names[i]) == 0) return i;
	return -1;
}

int slc_lab_figure_lower_better(enum slc_lab_figure f)
{
	return f == SLC_LAB_WHOLE_DRIVE;
}

/* ---- a run's figures -------------------------------------------------- */

/* Seconds from the segment's start until it had written @bytes; NAN when it never did. */
static double time_to(const struct slc_input_segment *s, double bytes)
{
	double t0, b0 = 0;

	if (!s->n_samples || !(bytes > 0)) return NAN;
	t0 = s->t_s[0] - s->interval_s[0];
	for (size_t i = 0; i < s->n_samples; i++) {
		double b1 = (double)s->bytes_total[i], ta = s->t_s[i] - s->interval_s[i];
		if (b1 >= bytes)
			return ta + s->interval_s[i] * (b1 > b0 ? (bytes - b0) / (b1 - b0) : 1) - t0;
		b0 = b1;
	}
	return NAN;
}

/* The whole drive written as the reviews time it: the first sequential
 * write curve that wrote the capacity (the lab plan's fill).  Random writes
 * over the capacity are not a fill: each block may be written many times. */
static double whole_drive_s(const struct slc_session *x)
{
	double cap = (double)x->in->meta.capacity_bytes;

	for (size_t k = 0; k < x->n && cap > 0; k++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[k]];
		double t = slc_workload_from_name(s->params.workload) == SLC_WL_SEQ_WRITE ? time_to(s, cap) : NAN;
		if (isfinite(t)) return t;
	}
	return NAN;
}

int slc_lab_figures(struct slc_lab_figures *out, const struct slc_session *x)
{
	long ref = slc_session_pick(x, 0);
	struct slc_curve_figures cf;
	const struct slc_analysis *an;

	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) out->v[i] = NAN;
	out->cache_min_bytes = out->cache_max_bytes = out->erase_onset_bytes = NAN;
	out->tgbw_horizon_s = out->recovery_trim_frac = NAN;
	if (ref < 0 || slc_session_curve_figures(&cf, x, (size_t)ref, 7200)) return -ENOENT;
	an = &x->a[ref];
	/* a drive the model reads without a cache has none: 0 B, ranked last;
	 * a cache too short to measure is unknown, with its bounds */
	out->v[SLC_LAB_CACHE] = an->has_cache ? cf.cache_bytes : an->model.cache_bound ? NAN : 0;
	out->v[SLC_LAB_CACHE_SPEED] = cf.cache_bps;
	/* what the reviews call the speed after the cache: direct to TLC where
	 * the drive has that level, else the erase-bound level it falls to */
	out->v[SLC_LAB_POST_CACHE] = isfinite(cf.native_bps) ? cf.native_bps : cf.erase_bps;
	out->v[SLC_LAB_WHOLE_DRIVE] = whole_drive_s(x);
	/* the reviews' "written in 2 h": a shorter curve has no such figure */
	out->v[SLC_LAB_TGBW] = cf.horizon_s >= 7200 * 0.99 ? cf.written_bytes : NAN;
	out->tgbw_horizon_s = cf.horizon_s;
	if (an->model.cache_bound) {
		out->cache_min_bytes = an->model.cache_min_bytes;
		out->cache_max_bytes = an->model.cache_max_bytes;
	}
	out->erase_onset_bytes = an->erase_bound_start_bytes;
	/* against the main curve, as the report's headline states it */
	for (size_t i = (size_t)ref + 1; i < x->n; i++) {
		enum slc_role role = x->in->segments[x->seg[i]].params.role;
		struct slc_recovery r;
		double *dst = role == SLC_ROLE_IDLE_BURST ? &out->v[SLC_LAB_RECOVERY]
			      : role == SLC_ROLE_TRIM_BURST ? &out->recovery_trim_frac : NULL;
		if (dst && isnan(*dst) && slc_session_recovery(x, i, &r) == 0) *dst = r.cache_frac;
	}
	return 0;
}

/* ---- opening ------------------------------------------------------------ */

int slc_lab_default_path(char *buf, size_t len)
{
	const char *d = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (d && d[0] == '/') n = snprintf(buf, len, "%s/slcscope/lab.db", d);
	else if (home && home[0] == '/') n = snprintf(buf, len, "%s/.local/share/slcscope/lab.db", home);
	else return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p of @path's directory, private to the user (the lab names drives and hosts). */
static int make_dirs(const char *path, char *err, size_t errlen)
{
	char d[PATH_MAX];

	snprintf(d, sizeof(d), "%s", path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/') continue;
		*p = '\0';
		if (mkdir(d, 0700) && errno != EEXIST) {
			snprintf(err, errlen, "cannot make the directory %s: %s", d, strerror(errno));
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

/* The output rules of docs/safety.md for a database: a new path, an empty
 * file, or an SQLite database (that it is a lab is checked once it is
 * open); never a device, a file in use, a link swapped in. */
static int check_file(const char *path, unsigned flags, char *err, size_t errlen)
{
	const struct slc_output_opts oo = { .kind = SLC_OUTPUT_DATABASE, .option = "--db" };
	struct stat st;
	int rc;

	/* SQLite reads these as a URI or an in-memory database, not as the file they seem to name */
	if (strncmp(path, "file:", 5) == 0 || strcmp(path, ":memory:") == 0) {
		snprintf(err, errlen, "--db %s: an SQLite URI or in-memory name, not a lab's file; give its path", path);
		return -EINVAL;
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "--db %s: a symbolic link; give the file it names", path);
		return -ELOOP;
	}
	if (!(flags & SLC_LAB_CREATE) && lstat(path, &st) != 0) {
		snprintf(err, errlen, "--db %s: no lab there (slcscope lab add TRACE makes one)", path);
		return -ENOENT;
	}
	if ((flags & SLC_LAB_MAKE_DIR) && (rc = make_dirs(path, err, errlen))) return rc;
	return slc_output_check(path, &oo, err, errlen);
}

static int is_url(const char *w)
{
	return strncmp(w, "postgresql://", 13) == 0 || strncmp(w, "postgres://", 11) == 0;
}

/* "--db WHERE: " before a reason that does not name the lab yet; a URL's
 * password is not repeated. */
static void name_lab(const char *where, char *err, size_t errlen)
{
	char shown[256], e[512];
	const char *at = strchr(where, '@'), *scheme = strstr(where, "://");

	if (strncmp(err, "--db ", 5) == 0) return;
	if (is_url(where) && at && scheme && at > scheme)
		snprintf(shown, sizeof(shown), "%.*s...%s", (int)(scheme + 3 - where), where, at);
	else
		snprintf(shown, sizeof(shown), "%s", where);
	snprintf(e, sizeof(e), "--db %s: %s", shown, err);
	snprintf(err, errlen, "%s", e);
}

int slc_lab_open(struct slc_lab **lab, const char *where, unsigned flags, char *err, size_t errlen)
{
	struct slc_lab *l;
	int rc;

	*lab = NULL;
	if (!where || !*where) {
		snprintf(err, errlen, "no lab named");
		return -EINVAL;
	}
	if (!(l = calloc(1, sizeof(*l)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(l->where, sizeof(l->where), "%s", where);
	l->db.read_only = !!(flags & SLC_LAB_READ_ONLY);
	if (is_url(where)) rc = slc__lab_pg_open(&l->db, where, err, errlen);
	else if (!(rc = check_file(where, flags, err, errlen))) rc = slc__lab_sqlite_open(&l->db, where, err, errlen);
	if (!rc && (rc = slc__lab_schema(&l->db, err, errlen)))
		l->db.ops->close(&l->db);
	if (rc) {
		name_lab(where, err, errlen);
		free(l);
		return rc;
	}
	*lab = l;
	return 0;
}

void slc_lab_close(struct slc_lab *lab)
{
	if (!lab) return;
	lab->db.ops->close(&lab->db);
	free(lab);
}

int slc_lab_add_trace(const char *where, const char *path, struct slc_lab_added *out, char *err, size_t errlen)
{
	char def[PATH_MAX];
	struct slc_lab *lab;
	int rc;

	if (!where && (rc = slc_lab_default_path(def, sizeof(def)))) {
		snprintf(err, errlen, "no home directory for the default lab: name one (--lab=DB)");
		return rc;
	}
	if ((rc = slc_lab_open(&lab, where ? where : def, SLC_LAB_CREATE | (where ? 0 : SLC_LAB_MAKE_DIR), err, errlen)))
		return rc;
	if (path) rc = slc_lab_add(lab, path, out, err, errlen);
	slc_lab_close(lab);
	return rc;
}
