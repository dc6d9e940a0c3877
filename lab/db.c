// SPDX-License-Identifier: MIT
/*
 * The lab's schema, written once for both engines, and its migrations.
 * Version 1: drives (one per model, serial and capacity), runs (one per
 * trace file, by its SHA-256, with the headline figures the report states),
 * curves (each analysed write curve's figures) and phases.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_priv.h"

int slc__lab_exec(struct lab_db *db, const char *sql, char *err, size_t errlen)
{
	return db->ops->query(db, sql, 0, NULL, NULL, NULL, err, errlen);
}

struct int_row {
	int64_t v;
};

static int int_row(void *arg, int ncols, const char *const *vals)
{
	struct int_row *r = arg;
	r->v = ncols > 0 && vals[0] ? strtoll(vals[0], NULL, 10) : -1;
	return 1;
}

int slc__lab_query_int(struct lab_db *db, const char *sql, int np, const char *const *params, int64_t *out, char *err,
		  size_t errlen)
{
	struct int_row r = { -1 };
	int rc = db->ops->query(db, sql, np, params, int_row, &r, err, errlen);
	*out = r.v;
	return rc;
}

const char *slc__lab_num(char *buf, size_t len, double v)
{
	if (!isfinite(v)) return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

double slc__lab_dbl(const char *s)
{
	return s ? strtod(s, NULL) : NAN;
}

/* @ID@ is the engine's auto-numbered key; DOUBLE PRECISION is REAL to
 * SQLite and float8 to PostgreSQL, BIGINT an integer to both. */
static const char schema_v1[] =
	"CREATE TABLE drives (id @ID@, model TEXT NOT NULL, serial TEXT NOT NULL, capacity_bytes BIGINT NOT NULL,"
	" name TEXT NOT NULL, firmware TEXT, cell TEXT, UNIQUE (model, serial, capacity_bytes));"
	"CREATE TABLE runs (id @ID@, drive_id BIGINT NOT NULL REFERENCES drives (id), sha256 TEXT NOT NULL UNIQUE,"
	" path TEXT NOT NULL, file_bytes BIGINT, added_utc TEXT NOT NULL, created_utc TEXT, host TEXT,"
	" tool_version TEXT, plan TEXT, target TEXT, command_line TEXT, status TEXT, firmware TEXT,"
	" main_segment INTEGER, cache_bytes DOUBLE PRECISION, cache_min_bytes DOUBLE PRECISION,"
	" cache_max_bytes DOUBLE PRECISION, cache_bps DOUBLE PRECISION, post_cache_bps DOUBLE PRECISION,"
	" whole_drive_s DOUBLE PRECISION, recovery_frac DOUBLE PRECISION, recovery_trim_frac DOUBLE PRECISION,"
	" tgbw_bytes DOUBLE PRECISION, tgbw_horizon_s DOUBLE PRECISION, erase_onset_bytes DOUBLE PRECISION);"
	"CREATE TABLE curves (run_id BIGINT NOT NULL REFERENCES runs (id), segment INTEGER NOT NULL, step TEXT,"
	" role TEXT, workload TEXT, block_bytes BIGINT, qd INTEGER, jobs INTEGER, idle_before_s DOUBLE PRECISION,"
	" interval_s DOUBLE PRECISION, duration_s DOUBLE PRECISION, written_bytes DOUBLE PRECISION,"
	" cache_bytes DOUBLE PRECISION, cache_bps DOUBLE PRECISION, native_bps DOUBLE PRECISION,"
	" erase_bps DOUBLE PRECISION, erase_onset_bytes DOUBLE PRECISION, confidence DOUBLE PRECISION,"
	" PRIMARY KEY (run_id, segment));"
	"CREATE TABLE phases (run_id BIGINT NOT NULL REFERENCES runs (id), segment INTEGER NOT NULL,"
	" idx INTEGER NOT NULL, kind TEXT NOT NULL, label TEXT, tier INTEGER, start_s DOUBLE PRECISION,"
	" end_s DOUBLE PRECISION, start_bytes DOUBLE PRECISION, end_bytes DOUBLE PRECISION,"
	" mean_bps DOUBLE PRECISION, median_bps DOUBLE PRECISION, PRIMARY KEY (run_id, segment, idx));"
	"CREATE INDEX runs_drive ON runs (drive_id);";

/* migrations[v] brings a database of version v to v + 1 */
static const char *const migrations[SLC_LAB_SCHEMA] = { schema_v1 };

static int tables(void *arg, int ncols, const char *const *vals)
{
	(void)ncols; (void)vals;
	++*(int *)arg;
	return 0;
}

/* How many tables the database holds other than ours, for the "not a lab" check. */
static int count_tables(struct lab_db *db, int *n, char *err, size_t errlen)
{
	const char *sql = strcmp(db->ops->engine, "SQLite") == 0
		? "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'lab_schema'"
		: "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
		  " AND table_name <> 'lab_schema'";
	*n = 0;
	return db->ops->query(db, sql, 0, NULL, tables, n, err, errlen);
}

/* @sql with every @ID@ replaced by @id into @out (long enough: checked by the caller's size). */
static void with_id(char *out, size_t len, const char *sql, const char *id)
{
	size_t j = 0;

	for (const char *c = sql; *c && j + 1 < len; c++) {
		if (strncmp(c, "@ID@", 4) == 0) {
			j += (size_t)snprintf(out + j, len - j, "%s", id);
			if (j >= len) j = len - 1;
			c += 3;
		} else {
			out[j++] = *c;
		}
	}
	out[j] = '\0';
}

static int migrate(struct lab_db *db, int64_t from, char *err, size_t errlen)
{
	char sql[2 * sizeof(schema_v1)], v[24];
	const char *p[1] = { v };
	int rc = 0;

	for (int64_t k = from; k < SLC_LAB_SCHEMA && !rc; k++) {
		with_id(sql, sizeof(sql), migrations[k], db->ops->id_column);
		rc = slc__lab_exec(db, sql, err, errlen);
	}
	snprintf(v, sizeof(v), "%d", SLC_LAB_SCHEMA);
	if (!rc) rc = slc__lab_exec(db, "DELETE FROM lab_schema", err, errlen);
	if (!rc) rc = db->ops->query(db, "INSERT INTO lab_schema (version) VALUES ($1)", 1, p, NULL, NULL, err, errlen);
	return rc;
}

/* A lab opened to read: its version is checked, nothing is made. */
static int schema_read(struct lab_db *db, char *err, size_t errlen)
{
	int64_t v = -1;

	if (slc__lab_query_int(db, "SELECT max(version) FROM lab_schema", 0, NULL, &v, err, errlen) || v < 0) {
		snprintf(err, errlen, "not a slcscope lab (no schema version)");
		return -EINVAL;
	}
	if (v != SLC_LAB_SCHEMA) {
		snprintf(err, errlen, v > SLC_LAB_SCHEMA ? "a lab of schema %" PRId64 ", newer than this slcscope's %d: update "
			 "slcscope" : "a lab of schema %" PRId64 ", older than this slcscope's %d: add a run to migrate it",
			 v, SLC_LAB_SCHEMA);
		return -EPROTO;
	}
	return 0;
}

int slc__lab_schema(struct lab_db *db, char *err, size_t errlen)
{
	int64_t v = -1;
	int rc, others = 0;

	if (db->read_only) return schema_read(db, err, errlen);

	rc = slc__lab_exec(db, db->ops->begin, err, errlen);
	if (rc) return rc;
	if (db->ops->schema_lock) rc = slc__lab_exec(db, db->ops->schema_lock, err, errlen);
	if (!rc) rc = slc__lab_exec(db, "CREATE TABLE IF NOT EXISTS lab_schema (version INTEGER NOT NULL)", err, errlen);
	if (!rc) rc = slc__lab_query_int(db, "SELECT max(version) FROM lab_schema", 0, NULL, &v, err, errlen);
	if (!rc && v < 0) {
		/* a new lab, or a database of something else: only the first is ours to fill */
		rc = count_tables(db, &others, err, errlen);
		if (!rc && others) {
			snprintf(err, errlen, "%s database that is not a slcscope lab (%d table%s of its own): give %s",
				 strcmp(db->ops->engine, "SQLite") ? "a PostgreSQL" : "an SQLite", others, others == 1 ? "" : "s",
				 strcmp(db->ops->engine, "SQLite") ? "an empty database" : "a new path");
			rc = -EEXIST;
		}
		v = 0;
	}
	if (!rc && v > SLC_LAB_SCHEMA) {
		snprintf(err, errlen, "a lab of schema %" PRId64 ", newer than this slcscope's %d: update slcscope", v,
			 SLC_LAB_SCHEMA);
		rc = -EPROTO;
	}
	if (!rc && v < SLC_LAB_SCHEMA) rc = migrate(db, v, err, errlen);
	if (rc) {
		char e2[64];
		slc__lab_exec(db, "ROLLBACK", e2, sizeof(e2));
		return rc;
	}
	rc = slc__lab_exec(db, "COMMIT", err, errlen);
	if (!rc && db->ops->after_schema) rc = slc__lab_exec(db, db->ops->after_schema, err, errlen);
	return rc;
}
