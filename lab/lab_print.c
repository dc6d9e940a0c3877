// SPDX-License-Identifier: MIT
/*
 * The lab's listings: every run, one drive, a ranking, a new run placed
 * among the stored ones; as text tables (units printed), JSON or CSV (plain
 * numbers in bytes, bytes/s and seconds).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "lab_priv.h"

/* The columns of a run row, in the order row_of() reads them; the figures
 * in enum slc_lab_figure order. */
#define RUN_COLUMNS \
	"r.id, r.drive_id, d.name, d.model, d.serial, r.plan, r.created_utc, r.status, r.path, r.sha256," \
	" d.capacity_bytes, r.cache_bytes, r.cache_bps, r.post_cache_bps, r.whole_drive_s, r.recovery_frac," \
	" r.tgbw_bytes, r.cache_min_bytes, r.cache_max_bytes, r.tgbw_horizon_s, r.recovery_trim_frac," \
	" r.erase_onset_bytes FROM runs r JOIN drives d ON d.id = r.drive_id"

/* A stored text as the listings print it: control characters (a terminal's
 * escapes in a name or path another bench stored) as '?'. */
static void copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
	for (char *c = dst; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

/* @s in a column @width characters wide: cut after @width UTF-8 characters
 * (never inside one), then padded with spaces. */
static void cell(FILE *f, const char *s, int width)
{
	int n = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if ((*c & 0xc0) != 0x80 && n++ == width) break;
		fputc(*c, f);
	}
	for (; n < width; n++) fputc(' ', f);
}

static int row_of(void *arg, int ncols, const char *const *c)
{
	struct rows *rs = arg;
	struct run_row *r;

	if (ncols < 22) return 1;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct run_row *nr = realloc(rs->r, cap * sizeof(*nr));
		if (!nr) {
			rs->oom = 1;
			return 1;
		}
		rs->r = nr;
		rs->cap = cap;
	}
	r = &rs->r[rs->n++];
	r->id = strtoll(c[0], NULL, 10);
	r->drive_id = strtoll(c[1], NULL, 10);
	copy(r->drive, sizeof(r->drive), c[2]);
	copy(r->model, sizeof(r->model), c[3]);
	copy(r->serial, sizeof(r->serial), c[4]);
	copy(r->plan, sizeof(r->plan), c[5]);
	copy(r->created, sizeof(r->created), c[6]);
	copy(r->status, sizeof(r->status), c[7]);
	copy(r->path, sizeof(r->path), c[8]);
	copy(r->sha, sizeof(r->sha), c[9]);
	r->capacity = slc__lab_dbl(c[10]);
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) r->v[i] = slc__lab_dbl(c[11 + i]);
	r->cache_min = slc__lab_dbl(c[17]);
	r->cache_max = slc__lab_dbl(c[18]);
	r->horizon = slc__lab_dbl(c[19]);
	r->trim_frac = slc__lab_dbl(c[20]);
	r->onset = slc__lab_dbl(c[21]);
	return 0;
}

int slc__lab_fetch(struct slc_lab *lab, const char *where_order, int np, const char *const *p, struct rows *rs,
		    char *err, size_t errlen)
{
	char sql[2048];
	int rc;

	snprintf(sql, sizeof(sql), "SELECT " RUN_COLUMNS " %s", where_order);
	rc = lab->db.ops->query(&lab->db, sql, np, p, row_of, rs, err, errlen);
	if (!rc && rs->oom) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	return rc;
}

/* ---- values in words ---------------------------------------------------- */

/* The figures as the site and the tables name and word them. */
const struct slc_site_column slc__lab_columns[SLC_LAB_FIGURE__COUNT] = {
	{ "cache", "SLC cache", SLC_VALUE_BYTES, 0, "none" },
	{ "cache-speed", "cache speed", SLC_VALUE_RATE, 0, NULL },
	{ "post-cache", "after the cache", SLC_VALUE_RATE, 0, NULL },
	{ "whole-drive", "whole drive", SLC_VALUE_SECONDS, 1, NULL },
	{ "recovery", "back after idle", SLC_VALUE_SHARE, 0, NULL },
	{ "tgbw", "written in 2 h", SLC_VALUE_BYTES, 0, NULL },
};

static const char *const fig_key[SLC_LAB_FIGURE__COUNT] = {
	"cache_bytes", "cache_bps", "post_cache_bps", "whole_drive_s", "recovery_frac", "tgbw_bytes",
};

/* A figure as the report words it; "-" when unknown. */
static char *fig_words(char *buf, size_t len, const struct run_row *r, int f, enum slc_unit_system u)
{
	if (f == SLC_LAB_CACHE && !isfinite(r->v[f]) && isfinite(r->cache_min)) {
		char a[32], b[32];
		snprintf(buf, len, "%s-%s", slc_format_bytes(a, sizeof(a), r->cache_min, u),
			 slc_format_bytes(b, sizeof(b), r->cache_max, u));
		return buf;
	}
	if (r->v[f] == 0 && slc__lab_columns[f].zero) {
		snprintf(buf, len, "%s", slc__lab_columns[f].zero);
		return buf;
	}
	return slc_value_words(buf, len, slc__lab_columns[f].unit, r->v[f], u);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v)) fprintf(f, "%.17g", v);
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *run_json(const struct run_row *r)
{
	json_t *o = json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:s, s:s, s:s, s:s, s:s}", "run", (json_int_t)r->id,
			      "drive_id", (json_int_t)r->drive_id, "drive", r->drive, "model", r->model, "serial",
			      r->serial, "capacity_bytes", r->capacity > 0 ? json_integer((json_int_t)r->capacity) : json_null(), "plan", r->plan, "created_utc", r->created,
			      "status", r->status, "path", r->path, "sha256", r->sha);
	if (!o) return NULL;
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) json_object_set_new(o, fig_key[i], jnum(r->v[i]));
	json_object_set_new(o, "cache_min_bytes", jnum(r->cache_min));
	json_object_set_new(o, "cache_max_bytes", jnum(r->cache_max));
	json_object_set_new(o, "tgbw_horizon_s", jnum(r->horizon));
	json_object_set_new(o, "recovery_trim_frac", jnum(r->trim_frac));
	json_object_set_new(o, "erase_onset_bytes", jnum(r->onset));
	return o;
}

static void csv_head(FILE *f, const char *first)
{
	fprintf(f, "%srun,drive,model,serial,capacity_bytes,plan,created_utc,status", first);
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) fprintf(f, ",%s", fig_key[i]);
	fprintf(f, ",cache_min_bytes,cache_max_bytes,tgbw_horizon_s,recovery_trim_frac,erase_onset_bytes,path,sha256\n");
}

static void csv_row(FILE *f, const struct run_row *r)
{
	const char *text[3] = { r->drive, r->model, r->serial }, *more_text[3] = { r->plan, r->created, r->status };

	fprintf(f, "%" PRId64, r->id);
	for (int i = 0; i < 3; i++) {
		fputc(',', f);
		slc_csv_field(f, text[i]);
	}
	fputc(',', f);
	csv_num(f, r->capacity);
	for (int i = 0; i < 3; i++) {
		fputc(',', f);
		slc_csv_field(f, more_text[i]);
	}
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) {
		fputc(',', f);
		csv_num(f, r->v[i]);
	}
	const double more[5] = { r->cache_min, r->cache_max, r->horizon, r->trim_frac, r->onset };
	for (int i = 0; i < 5; i++) {
		fputc(',', f);
		csv_num(f, more[i]);
	}
	fputc(',', f);
	slc_csv_field(f, r->path);
	fprintf(f, ",%s\n", r->sha);
}

static int json_out(FILE *f, json_t *doc, char *err, size_t errlen)
{
	int rc = doc && json_dumpf(doc, f, JSON_INDENT(2)) == 0 ? 0 : -ENOMEM;

	json_decref(doc);
	fputc('\n', f);
	if (rc && doc && ferror(f)) snprintf(err, errlen, "cannot write the output");
	else if (rc) snprintf(err, errlen, "out of memory");
	return rc;
}

static json_t *runs_json(const struct rows *rs)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < rs->n; i++) json_array_append_new(a, run_json(&rs->r[i]));
	return a;
}

/* ---- list ------------------------------------------------------------------ */

static void text_table(FILE *f, const struct rows *rs, enum slc_unit_system u)
{
	char cap[32], w[SLC_LAB_FIGURE__COUNT][48];

	fprintf(f, "%5s  %-44s %9s %-13s %-10s %-11s", "run", "drive", "capacity", "plan", "date", "status");
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) fprintf(f, " %15s", slc__lab_columns[i].title);
	fputc('\n', f);
	for (size_t k = 0; k < rs->n; k++) {
		const struct run_row *r = &rs->r[k];
		for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) fig_words(w[i], sizeof(w[i]), r, i, u);
		fprintf(f, "%5" PRId64 "  ", r->id);
		cell(f, r->drive, 44);
		fprintf(f, " %9s ", r->capacity > 0 ? slc_format_bytes(cap, sizeof(cap), r->capacity, u) : "-");
		cell(f, *r->plan ? r->plan : "-", 13);
		fputc(' ', f);
		cell(f, r->created, 10);
		fputc(' ', f);
		cell(f, *r->status ? r->status : "-", 11);
		for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) fprintf(f, " %15s", w[i]);
		fputc('\n', f);
	}
}

int slc_lab_list(struct slc_lab *lab, FILE *f, const struct slc_lab_print_opts *o, char *err, size_t errlen)
{
	struct rows rs = { 0 };
	int rc = slc__lab_fetch(lab, "ORDER BY r.id", 0, NULL, &rs, err, errlen);

	if (!rc) {
		if (o->format == SLC_LAB_JSON) rc = json_out(f, runs_json(&rs), err, errlen);
		else if (o->format == SLC_LAB_CSV) {
			csv_head(f, "");
			for (size_t i = 0; i < rs.n; i++) csv_row(f, &rs.r[i]);
		} else if (!rs.n) fprintf(f, "the lab %s holds no runs yet: slcscope lab add TRACE\n", lab->where);
		else text_table(f, &rs, o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL);
	}
	free(rs.r);
	return rc;
}

/* ---- show ------------------------------------------------------------------ */

struct phase_ctx {
	FILE *f;
	json_t *arr;
	enum slc_unit_system u;
};

static int phase_row(void *arg, int ncols, const char *const *c)
{
	struct phase_ctx *p = arg;
	char a[32], b[32], m[32];
	double v[5];

	if (ncols < 8) return 1;
	for (int i = 0; i < 5; i++) v[i] = slc__lab_dbl(c[3 + i]);
	if (p->arr) {
		json_array_append_new(p->arr, json_pack("{s:s, s:s?, s:i, s:o, s:o, s:o, s:o, s:o}", "kind", c[0], "label",
							c[1], "tier", c[2] ? atoi(c[2]) : 0, "start_bytes", jnum(v[0]),
							"end_bytes", jnum(v[1]), "start_s", jnum(v[2]), "end_s", jnum(v[3]),
							"mean_bps", jnum(v[4])));
		return 0;
	}
	fprintf(p->f, "      %-18s %10s to %-10s %9.1f s to %9.1f s %12s\n", c[1] ? c[1] : c[0],
		slc_format_bytes(a, sizeof(a), v[0], p->u), slc_format_bytes(b, sizeof(b), v[1], p->u), v[2], v[3],
		slc_format_rate(m, sizeof(m), v[4], p->u));
	return 0;
}

static int phases_of(struct slc_lab *lab, int64_t run, struct phase_ctx *p, char *err, size_t errlen)
{
	char id[24];
	const char *q[1] = { id };

	snprintf(id, sizeof(id), "%" PRId64, run);
	return lab->db.ops->query(&lab->db, "SELECT kind, label, tier, start_bytes, end_bytes, start_s, end_s, mean_bps"
				  " FROM phases WHERE run_id = $1 AND segment = (SELECT main_segment FROM runs"
				  " WHERE id = $1) ORDER BY idx", 1, q, phase_row, p, err, errlen);
}

static void show_run(FILE *f, const struct run_row *r, enum slc_unit_system u)
{
	char w[48];

	fprintf(f, "  run %" PRId64 ": %s plan, %s, %s\n    %s\n", r->id, *r->plan ? r->plan : "no", r->created,
		*r->status ? r->status : "status not recorded", r->path);
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++)
		fprintf(f, "    %-16s %s%s\n", slc__lab_columns[i].title, fig_words(w, sizeof(w), r, i, u),
			i == SLC_LAB_CACHE && !isfinite(r->v[i]) && isfinite(r->cache_min) ? " (a bound: sample finer)" : "");
	fprintf(f, "    phases of the main curve:\n");
}

static int show_rows(struct slc_lab *lab, FILE *f, const struct rows *rs, const struct slc_lab_print_opts *o,
		     char *err, size_t errlen)
{
	enum slc_unit_system u = o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL;
	json_t *runs = o->format == SLC_LAB_JSON ? json_array() : NULL;
	int rc = 0;

	for (size_t k = 0; k < rs->n && !rc; k++) {
		const struct run_row *r = &rs->r[k];
		struct phase_ctx p = { f, NULL, u };
		char cap[32];

		if (runs) {
			json_t *j = run_json(r);
			p.arr = json_array();
			rc = phases_of(lab, r->id, &p, err, errlen);
			json_object_set_new(j, "phases", p.arr);
			json_array_append_new(runs, j);
			continue;
		}
		if (k == 0 || rs->r[k - 1].drive_id != r->drive_id)
			fprintf(f, "%s%s\n  model %s, serial %s, %s\n", k ? "\n" : "", r->drive, r->model,
				*r->serial ? r->serial : "-",
				r->capacity > 0 ? slc_format_bytes(cap, sizeof(cap), r->capacity, u) : "capacity unknown");
		show_run(f, r, u);
		rc = phases_of(lab, r->id, &p, err, errlen);
	}
	if (runs) return rc ? (json_decref(runs), rc) : json_out(f, json_pack("{s:o}", "runs", runs), err, errlen);
	return rc;
}

int slc_lab_show(struct slc_lab *lab, const char *which, FILE *f, const struct slc_lab_print_opts *o, char *err,
		 size_t errlen)
{
	struct rows rs = { 0 };
	char pat[512];
	const char *p[1] = { pat };
	size_t j = 0;
	int digits = *which != '\0', rc;

	if (!*which) {
		snprintf(err, errlen, "show: give a run's number or a part of a drive's name (lab list shows them)");
		return -EINVAL;
	}
	for (const char *c = which; *c; c++) digits &= *c >= '0' && *c <= '9';
	if (digits) {
		snprintf(pat, sizeof(pat), "%s", which);
		rc = slc__lab_fetch(lab, "WHERE r.drive_id = (SELECT drive_id FROM runs WHERE id = $1) ORDER BY r.id", 1, p, &rs,
			   err, errlen);
	} else {
		/* a part of the name, with LIKE's own characters taken literally */
		pat[j++] = '%';
		for (const char *c = which; *c && j < sizeof(pat) - 3; c++) {
			if (*c == '%' || *c == '_' || *c == '\\') pat[j++] = '\\';
			pat[j++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		}
		pat[j++] = '%';
		pat[j] = '\0';
		rc = slc__lab_fetch(lab, "WHERE lower(d.model) LIKE $1 ESCAPE '\\' OR lower(d.serial) LIKE $1 ESCAPE '\\'"
			   " OR lower(d.name) LIKE $1 ESCAPE '\\' ORDER BY r.drive_id, r.id", 1, p, &rs, err, errlen);
	}
	if (!rc && !rs.n) {
		snprintf(err, errlen, "no drive in the lab matches '%s' (slcscope lab list shows them)", which);
		rc = -ENOENT;
	}
	if (!rc && o->format == SLC_LAB_CSV) {
		csv_head(f, "");
		for (size_t i = 0; i < rs.n; i++) csv_row(f, &rs.r[i]);
	} else if (!rc) {
		rc = show_rows(lab, f, &rs, o, err, errlen);
	}
	free(rs.r);
	return rc;
}

/* ---- rank ------------------------------------------------------------------ */

/* A run that completed (an import, which records no status, counts as one). */
#define COMPLETE(r) "coalesce(" r ".status, 'complete') = 'complete'"

static const char *const fig_col[SLC_LAB_FIGURE__COUNT] = {
	"r.cache_bytes", "r.cache_bps", "r.post_cache_bps", "r.whole_drive_s", "r.recovery_frac", "r.tgbw_bytes",
};

/* Each drive's latest run that has @by (or any figure, @by < 0), best first. */
static int latest(struct slc_lab *lab, int by, struct rows *rs, char *err, size_t errlen)
{
	char q[1024];

	/* a run that did not complete (interrupted, failed, still running when
	 * it was read) is listed, never ranked: its curves may be cut short */
	if (by < 0)
		return slc__lab_fetch(lab, "WHERE r.id = (SELECT max(r2.id) FROM runs r2 WHERE r2.drive_id = r.drive_id"
				      " AND " COMPLETE("r2") ") ORDER BY r.id", 0, NULL, rs, err, errlen);
	snprintf(q, sizeof(q), "WHERE %1$s IS NOT NULL AND r.id = (SELECT max(r2.id) FROM runs r2 WHERE"
		 " r2.drive_id = r.drive_id AND r2.%2$s IS NOT NULL AND " COMPLETE("r2") ") ORDER BY %1$s %3$s, r.id",
		 fig_col[by], fig_col[by] + 2, slc_lab_figure_lower_better(by) ? "ASC" : "DESC");
	return slc__lab_fetch(lab, q, 0, NULL, rs, err, errlen);
}

/* A bar as long as the value against the largest, as the ranking charts
 * draw it (for a time, lower is better: the best bar is the shortest). */
static void bar(FILE *f, double v, double max)
{
	enum { WIDTH = 30 };
	double frac = max > 0 ? v / max : 0;
	int n = (int)lround(WIDTH * (frac > 1 ? 1 : frac < 0 ? 0 : frac));

	for (int i = 0; i < n; i++) fputc('#', f);
}

int slc_lab_rank(struct slc_lab *lab, enum slc_lab_figure by, FILE *f, const struct slc_lab_print_opts *o,
		 char *err, size_t errlen)
{
	enum slc_unit_system u = o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL;
	struct rows rs = { 0 };
	int low = slc_lab_figure_lower_better(by), rc;

	if ((unsigned)by >= SLC_LAB_FIGURE__COUNT) {
		snprintf(err, errlen, "no such figure");
		return -EINVAL;
	}
	rc = latest(lab, (int)by, &rs, err, errlen);
	if (rc) goto out;
	if (o->format == SLC_LAB_JSON) {
		json_t *a = runs_json(&rs);
		for (size_t i = 0; a && i < rs.n; i++)
			json_object_set_new(json_array_get(a, i), "rank", json_integer((json_int_t)i + 1));
		rc = json_out(f, json_pack("{s:s, s:b, s:o}", "by", slc_lab_figure_name(by), "lower_is_better", low,
					   "drives", a), err, errlen);
	} else if (o->format == SLC_LAB_CSV) {
		csv_head(f, "rank,");
		for (size_t i = 0; i < rs.n; i++) {
			fprintf(f, "%zu,", i + 1);
			csv_row(f, &rs.r[i]);
		}
	} else if (!rs.n) {
		fprintf(f, "no run in the lab %s has a %s figure\n", lab->where, slc__lab_columns[by].title);
	} else {
		fprintf(f, "%s, the latest run of each drive (%s is better)\n", slc__lab_columns[by].title, low ? "lower" : "higher");
		for (size_t i = 0; i < rs.n; i++) {
			char w[48];
			fprintf(f, "%3zu  ", i + 1);
			cell(f, rs.r[i].drive, 44);
			fprintf(f, " %12s  ", fig_words(w, sizeof(w), &rs.r[i], by, u));
			bar(f, rs.r[i].v[by], rs.r[low ? rs.n - 1 : 0].v[by]);
			fprintf(f, "\n");
		}
	}
out:
	free(rs.r);
	return rc;
}

/* ---- compare --------------------------------------------------------------- */

/* How far two runs are: the root mean square of the log ratios of the
 * figures both have (a cache is counted from 1 GB up, so that none and a
 * few MB are neighbours); INFINITY with fewer than two in common. */
static double distance(const struct run_row *a, const struct run_row *b)
{
	double s = 0;
	int n = 0;

	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) {
		double x = a->v[i], y = b->v[i], off = i == SLC_LAB_CACHE ? 1e9 : i == SLC_LAB_RECOVERY ? 0.1 : 0;
		if (!isfinite(x) || !isfinite(y) || x + off <= 0 || y + off <= 0) continue;
		s += pow(log((x + off) / (y + off)), 2);
		n++;
	}
	return n >= 2 ? sqrt(s / n) : INFINITY;
}

static int by_distance(const void *a, const void *b)
{
	const struct slc_lab_near *x = a, *y = b;
	return (x->distance > y->distance) - (x->distance < y->distance);
}

static const char *ordinal(char *buf, size_t len, size_t n)
{
	const char *suf = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd"
							   : n % 10 == 3 ? "rd" : "th";
	snprintf(buf, len, "%zu%s", n, suf);
	return buf;
}

/* The same trace, or another run of the new run's own drive: not a drive to compare it with. */
static int same_drive(const struct run_row *r, const struct run_row *me)
{
	return !strcmp(r->sha, me->sha) || (!strcmp(r->model, me->model) && !strcmp(r->serial, me->serial) &&
					     r->capacity == me->capacity);
}

static void place(FILE *f, json_t *ranks, const struct run_row *me, const struct rows *rs, int fig,
		  enum slc_unit_system u)
{
	size_t better = 0, of = 1;
	int low = slc_lab_figure_lower_better(fig);
	char w[48], o[16];

	if (!isfinite(me->v[fig])) {
		if (!ranks) fprintf(f, "  %-16s %12s\n", slc__lab_columns[fig].title, fig_words(w, sizeof(w), me, fig, u));
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		double v = rs->r[i].v[fig];
		if (!isfinite(v) || same_drive(&rs->r[i], me)) continue;
		of++;
		better += low ? v < me->v[fig] : v > me->v[fig];
	}
	if (ranks)
		json_object_set_new(ranks, slc_lab_figure_name(fig),
				    json_pack("{s:o, s:I, s:I}", "value", jnum(me->v[fig]), "rank", (json_int_t)better + 1,
					      "of", (json_int_t)of));
	else
		fprintf(f, "  %-16s %12s  %s of %zu\n", slc__lab_columns[fig].title, fig_words(w, sizeof(w), me, fig, u),
			ordinal(o, sizeof(o), better + 1), of);
}

static void me_row(struct run_row *me, const struct slc_session *x, const char *path)
{
	struct slc_lab_figures fg;
	struct slc__lab_key k;
	char e[64];
	uint64_t size;

	memset(me, 0, sizeof(*me));
	slc_lab_figures(&fg, x);
	memcpy(me->v, fg.v, sizeof(me->v));
	me->cache_min = fg.cache_min_bytes;
	me->cache_max = fg.cache_max_bytes;
	copy(me->path, sizeof(me->path), path);
	if (slc__lab_sha256(path, me->sha, &size, e, sizeof(e))) me->sha[0] = '\0';
	slc__lab_drive_key(&k, x, me->sha);
	copy(me->drive, sizeof(me->drive), k.name);
	copy(me->model, sizeof(me->model), k.model);
	copy(me->serial, sizeof(me->serial), k.serial);
	me->capacity = (double)k.capacity;
}


int slc_lab_compare(struct slc_lab *lab, const struct slc_session *x, const char *path, FILE *f,
		    const struct slc_lab_print_opts *o, struct slc_lab_near *near, size_t max_near, size_t *n_near,
		    char *err, size_t errlen)
{
	enum slc_unit_system u = o->binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL;
	struct rows rs = { 0 };
	struct run_row me;
	struct slc_lab_near *all = NULL;
	json_t *doc = NULL, *ranks = NULL, *jn = NULL;
	size_t m = 0;
	int rc = latest(lab, -1, &rs, err, errlen);

	*n_near = 0;
	me_row(&me, x, path);
	if (!rc && rs.n && !(all = calloc(rs.n, sizeof(*all)))) rc = -ENOMEM;
	if (rc) goto out;
	if (o->format == SLC_LAB_JSON) {
		doc = json_pack("{s:s, s:s, s:{}, s:[]}", "drive", me.drive, "path", path, "ranks", "nearest");
		ranks = json_object_get(doc, "ranks");
		jn = json_object_get(doc, "nearest");
	} else {
		size_t others = 0;
		for (size_t i = 0; i < rs.n; i++) others += !same_drive(&rs.r[i], &me);
		fprintf(f, "%s (%s) among the %zu other drive%s in the lab:\n", me.drive, path, others,
			others == 1 ? "" : "s");
	}
	for (int i = 0; i < SLC_LAB_FIGURE__COUNT; i++) place(f, ranks, &me, &rs, i, u);
	for (size_t i = 0; i < rs.n; i++) {
		double d = distance(&me, &rs.r[i]);
		if (!isfinite(d) || same_drive(&rs.r[i], &me)) continue;
		all[m] = (struct slc_lab_near){ .run_id = rs.r[i].id, .distance = d };
		copy(all[m].drive, sizeof(all[m].drive), rs.r[i].drive);
		copy(all[m].path, sizeof(all[m].path), rs.r[i].path);
		copy(all[m].sha256, sizeof(all[m].sha256), rs.r[i].sha);
		m++;
	}
	qsort(all, m, sizeof(*all), by_distance);
	if (!doc) fprintf(f, "nearest drives (their figures' log ratios, root mean square):\n");
	for (size_t i = 0; i < m && i < (max_near ? max_near : 5); i++) {
		if (near && i < max_near) near[(*n_near)++] = all[i];
		if (jn)
			json_array_append_new(jn, json_pack("{s:I, s:s, s:f, s:s}", "run", (json_int_t)all[i].run_id, "drive",
							    all[i].drive, "distance", all[i].distance, "path", all[i].path));
		else
		{
			fputs("  ", f);
			cell(f, all[i].drive, 44);
			fprintf(f, " run %-5" PRId64 " distance %.2f\n", all[i].run_id, all[i].distance);
		}
	}
	if (!doc && !m) fprintf(f, "  none: the lab holds no other drive with two figures in common\n");
	if (doc) rc = json_out(f, doc, err, errlen);
out:
	if (rc == -ENOMEM) snprintf(err, errlen, "out of memory");
	free(all);
	free(rs.r);
	return rc;
}

/* The stored trace of @n into @x, when the file at its path is still the
 * trace that was added: checked before it is read and again after (it may
 * have been replaced meanwhile), so that what is drawn under the stored
 * drive's name is its trace and no error quotes another file.
 * Return: 0, -ENOENT when it is no longer there, else -errno; @err says why. */
static int load_stored(struct slc_session *x, const struct slc_lab_near *n, char *err, size_t errlen)
{
	char e[512];
	int rc = slc__lab_same_trace(n->run_id, n->drive, n->path, n->sha256, err, errlen), again;

	if (rc) return rc;
	rc = slc_session_load(x, n->path, -1, NULL, e, sizeof(e));
	if ((again = slc__lab_same_trace(n->run_id, n->drive, n->path, n->sha256, err, errlen))) {
		if (!rc) slc_session_free(x);
		return again;
	}
	if (rc) snprintf(err, errlen, "run %" PRId64 " (%s): %s", n->run_id, n->drive, e);
	return rc == -ENOENT ? -EIO : rc;
}

int slc_lab_compare_report(const char *dir, const struct slc_session *x, const char *path,
			   const struct slc_lab_near *near, size_t n, FILE *log, char *err, size_t errlen)
{
	struct slc_session xs[8] = { 0 };
	struct slc_figure_opts fo = { 0 };
	const char *paths[8] = { path };
	size_t m = 1;
	int rc = 0;

	xs[0] = *x;
	for (size_t i = 0; !rc && i < n && m < 8; i++) {
		char e[1024];
		if (!(rc = load_stored(&xs[m], &near[i], e, sizeof(e)))) paths[m++] = near[i].path;
		else if (rc == -ENOENT && log) fprintf(log, "slcscope lab: %s; left out of the report\n", e);
		if (rc == -ENOENT) rc = 0;
		else if (rc) snprintf(err, errlen, "%s: %s", dir, e);
	}
	if (!rc && m < 2) {
		snprintf(err, errlen, "%s: no stored trace near this run is still there", dir);
		rc = -ENOENT;
	} else if (!rc && !(rc = slc_report_dir_check(dir, paths, m, err, errlen))) {
		rc = slc_report_compare_write(dir, xs, m, &fo, log, err, errlen);
	}
	for (size_t i = 1; i < m; i++) slc_session_free(&xs[i]);
	return rc;
}
