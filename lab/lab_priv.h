/* SPDX-License-Identifier: MIT */
/*
 * The lab's database layer: one small ops table per engine (SQLite,
 * PostgreSQL), text in and text out, so that the schema and every query are
 * written once.  Queries number their parameters $1, $2, ... in order of
 * first use: PostgreSQL's syntax, which SQLite reads as named parameters
 * bound in that order.
 */
#ifndef SLCSCOPE_LAB_PRIV_H
#define SLCSCOPE_LAB_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "slcscope/lab.h"
#include "slcscope/session.h"

/* One result row: @vals[i] is NULL for SQL NULL.  Non-zero stops the query. */
typedef int (*lab_row_fn)(void *arg, int ncols, const char *const *vals);

struct lab_db;

struct lab_db_ops {
	const char *engine;        /* "SQLite", "PostgreSQL": for messages */
	const char *id_column;     /* an auto-numbered primary key's type */
	const char *begin;         /* a write transaction that waits for other writers */
	const char *after_schema;  /* run once the database is known to be a lab; NULL: none */
	const char *schema_lock;   /* serialises creating the schema inside that transaction; NULL: begin does */
	int (*query)(struct lab_db *db, const char *sql, int np, const char *const *params, lab_row_fn fn, void *arg,
		     char *err, size_t errlen);
	void (*close)(struct lab_db *db);
};

struct lab_db {
	const struct lab_db_ops *ops;
	int read_only;             /* opened to read: no schema made, no journal mode set */
	void *h;                   /* the engine's handle */
};

struct slc_lab {
	struct lab_db db;
	char where[1024];          /* what was opened: for messages */
};

/* The engines: open @where into @db.  0 or -errno with @err. */
int slc__lab_sqlite_open(struct lab_db *db, const char *path, char *err, size_t errlen);
int slc__lab_pg_open(struct lab_db *db, const char *url, char *err, size_t errlen);

/* A statement without rows. */
int slc__lab_exec(struct lab_db *db, const char *sql, char *err, size_t errlen);

/* The first column of the first row as an integer into *@out (-1 when no row). */
int slc__lab_query_int(struct lab_db *db, const char *sql, int np, const char *const *params, int64_t *out, char *err,
		  size_t errlen);

/* The SHA-256 of the regular file at @path, in hex, and its size. */
int slc__lab_sha256(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen);

/*
 * Is the file at @path still the trace run @run of @drive stored with the
 * SHA-256 @sha?  Checked before a stored path is read: the file there may
 * have been replaced since, and a lab another bench wrote may name any
 * file.  Only hashed, never parsed, so nothing of another file is quoted.
 * Return: 0 when it is; -ENOENT when nothing is there any more; -ESTALE
 * when another file is; another -errno when it cannot be read.  @err
 * names the run and the path.
 */
int slc__lab_same_trace(int64_t run, const char *drive, const char *path, const char *sha, char *err, size_t errlen);

/* Creates the schema or migrates an older one to SLC_LAB_SCHEMA. */
int slc__lab_schema(struct lab_db *db, char *err, size_t errlen);

/* "%.17g" of @v into @buf, or NULL for a NAN (SQL NULL). */
const char *slc__lab_num(char *buf, size_t len, double v);

/* A column's text as a number; NAN for NULL. */
double slc__lab_dbl(const char *s);

/* One run as the listings read it. */
struct run_row {
	int64_t id, drive_id;
	char drive[160], model[256], serial[64], plan[32], created[32], status[16], path[1024], sha[65];
	double capacity, v[SLC_LAB_FIGURE__COUNT], cache_min, cache_max, horizon, trim_frac, onset;
};

struct rows {
	struct run_row *r;
	size_t n, cap;
	int oom;
};

/* The runs a query's WHERE and ORDER BY (@where_order) select, into @rs (caller frees rs->r). */
int slc__lab_fetch(struct slc_lab *lab, const char *where_order, int np, const char *const *p, struct rows *rs,
		   char *err, size_t errlen);

/* What a drive is known by in the lab: its model, serial and capacity. */
struct slc__lab_key {
	char name[160], model[256], serial[64];
	uint64_t capacity;
};

/* The key of the drive of @x, whose trace has the SHA-256 @sha. */
void slc__lab_drive_key(struct slc__lab_key *k, const struct slc_session *x, const char *sha);

/* The figures' names, words and units, in enum slc_lab_figure order. */
extern const struct slc_site_column slc__lab_columns[SLC_LAB_FIGURE__COUNT];

#endif
