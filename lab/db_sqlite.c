// SPDX-License-Identifier: MIT
/*
 * The lab on SQLite: one file, WAL mode so that readers never wait and
 * several benches can add at once (each write waits its turn for up to a
 * minute instead of failing with "database is locked").
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lab_priv.h"

/* A bench adding a large trace holds the write lock for well under a
 * second; a minute covers many benches queued behind each other. */
enum { BUSY_MS = 60000 };

static int sq_err(sqlite3 *h, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(h));
	return sqlite3_errcode(h) == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

/*
 * One step of @st.  A statement outside a transaction that meets another
 * connection's lock where waiting could deadlock gets SQLITE_BUSY at once,
 * without the busy handler: switching a new lab to WAL while another bench
 * holds its write lock is one.  It holds nothing yet (@fresh: no row
 * returned), so it is run again until BUSY_MS have passed.
 */
static int step(sqlite3 *h, sqlite3_stmt *st, int fresh, int *waited_ms)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	int s;

	while ((s = sqlite3_step(st)) == SQLITE_BUSY && fresh && sqlite3_get_autocommit(h) && *waited_ms < BUSY_MS) {
		sqlite3_reset(st);
		nanosleep(&pause, NULL);
		*waited_ms += 10;
	}
	return s;
}

static int sq_query(struct lab_db *db, const char *sql, int np, const char *const *params, lab_row_fn fn, void *arg,
		    char *err, size_t errlen)
{
	sqlite3 *h = db->h;
	sqlite3_stmt *st = NULL;
	const char *tail = sql;
	int rc = 0;

	/* a query may hold several statements (the schema); each is run in turn */
	while (!rc && tail && *tail) {
		const char *vals[64];
		int s = SQLITE_DONE;

		if (sqlite3_prepare_v2(h, tail, -1, &st, &tail) != SQLITE_OK)
			return sq_err(h, "SQLite", err, errlen);
		if (!st) break;       /* only whitespace or a comment left */
		for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
			const char *name = sqlite3_bind_parameter_name(st, i);
			int k = name && name[0] == '$' ? atoi(name + 1) : 0;
			if (k < 1 || k > np) {
				sqlite3_finalize(st);
				snprintf(err, errlen, "SQLite: parameter %s has no value", name ? name : "?");
				return -EINVAL;
			}
			s = params[k - 1] ? sqlite3_bind_text(st, i, params[k - 1], -1, SQLITE_TRANSIENT)
					  : sqlite3_bind_null(st, i);
			if (s != SQLITE_OK) {
				rc = sq_err(h, "SQLite", err, errlen);
				break;
			}
		}
		int rows = 0, waited = 0;
		while (!rc && (s = step(h, st, !rows++, &waited)) == SQLITE_ROW) {
			int n = sqlite3_column_count(st);
			if (n > 64) n = 64;
			for (int c = 0; c < n; c++)
				vals[c] = (const char *)sqlite3_column_text(st, c);
			if (fn && fn(arg, n, vals)) break;
		}
		if (!rc && s != SQLITE_ROW && s != SQLITE_DONE)
			rc = sq_err(h, "SQLite", err, errlen);
		sqlite3_finalize(st);
		st = NULL;
	}
	return rc;
}

static void sq_close(struct lab_db *db)
{
	sqlite3_close(db->h);
	db->h = NULL;
}

static const struct lab_db_ops sqlite_ops = {
	.engine = "SQLite",
	.id_column = "INTEGER PRIMARY KEY",
	.begin = "BEGIN IMMEDIATE",
	/* WAL: readers and one writer at a time without blocking each other */
	.after_schema = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
	.query = sq_query,
	.close = sq_close,
};

int slc__lab_sqlite_open(struct lab_db *db, const char *path, char *err, size_t errlen)
{
	sqlite3 *h = NULL;
	int rc;

	/* NOFOLLOW: the path was checked, a link swapped in since is refused */
	int mode = db->read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

	if (sqlite3_open_v2(path, &h, mode | SQLITE_OPEN_NOFOLLOW, NULL) !=
	    SQLITE_OK) {
		rc = h ? sq_err(h, path, err, errlen) : (snprintf(err, errlen, "%s: out of memory", path), -ENOMEM);
		sqlite3_close(h);
		return rc;
	}
	sqlite3_busy_timeout(h, BUSY_MS);
	sqlite3_extended_result_codes(h, 0);
	db->ops = &sqlite_ops;
	db->h = h;
	/* foreign keys so that a run cannot point at a drive that is not
	 * there; WAL is set once the file is known to be a lab (after_schema):
	 * it is kept in the file, and another program's database is not ours
	 * to change */
	rc = slc__lab_exec(db, "PRAGMA foreign_keys=ON", err, errlen);
	if (rc) {
		sq_close(db);
		return rc;
	}
	return 0;
}
