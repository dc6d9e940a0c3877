// SPDX-License-Identifier: MIT
/*
 * The lab on SQLite: the schema made once and checked on every open, a
 * trace stored once however often it is added, its headline figures as
 * the curve says, the ranking's order, and what is refused (a damaged
 * trace, another program's database, a lab of a newer schema), each time
 * with the database left as it was.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "slcscope/lab.h"
#include "slcscope/session.h"
#include "slcscope/trace.h"
#include "slcscope/vocab.h"
#include "lab_priv.h"          /* slc__lab_sqlite_open, slc__lab_exec */

static char dir[] = "/tmp/slc_test_lab.XXXXXX";

static const char *tpath(const char *name)
{
	static char buf[16][256];
	static int k;
	k = (k + 1) % 16;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* A write curve after a TRIM (sequential with @seq: a fill, else 4 KiB
 * random): @cache_s seconds at 500 MB/s, then 100 MB/s until @total_s, on a
 * drive of @cap_bytes called @model. */
static void write_curve(const char *path, const char *model, uint64_t cap_bytes, int cache_s, int total_s, int seq)
{
	struct slc_trace_meta meta = { .command_line = "test_lab", .target = "/dev/test", .device_model = model,
				       .device_serial = "S1", .capacity_bytes = cap_bytes, .plan = "seq",
				       .planned_steps = 1, .run_status = "complete" };
	struct slc_segment_params p = { "rand_curve", "rand_write", 4096, 32, 1, 0, cap_bytes, 30, 1, "random", 1.0,
					"monotonic", 4, SLC_ROLE_CURVE, 0, 0, "", 0, "" };
	struct slc_trace *t;
	uint64_t bytes = 0;

	if (seq) {
		p.step = "seq_fill";
		p.workload = "seq_write";
		p.block_bytes = 131072;
		p.role = SLC_ROLE_FILL;
	}
	char err[256];

	assert_int_equal(slc_trace_create(&t, path, &meta, err, sizeof(err)), 0);
	assert_int_equal(slc_trace_segment_begin(t, &p), 0);
	for (int i = 0; i < total_s; i++) {
		/* a little noise, so that the levels have a spread to measure */
		double bps = (i < cache_s ? 500e6 : 100e6) * (1 + 0.01 * ((i * 7919) % 5 - 2));
		bytes += (uint64_t)bps;
		struct slc_sample s = { (double)(i + 1), 1.0, bytes, (uint64_t)(bps / 4096), 50, 90, 120, 400, NAN,
					0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
		assert_int_equal(slc_trace_append(t, &s), 0);
	}
	assert_int_equal(slc_trace_close(t), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir)) return -1;
	write_curve(tpath("a.h5"), "Drive A", 40000000000ull, 20, 400, 1); /* 10 GB cache, fills the whole drive */
	write_curve(tpath("b.h5"), "Drive B", 500000000000ull, 60, 300, 0);/* 30 GB */
	write_curve(tpath("c.h5"), "Drive C", 100000000000ull, 4, 300, 0); /* 2 GB */
	/* random writes of a drive's capacity are no fill: no whole-drive time */
	write_curve(tpath("r.h5"), "Drive R", 40000000000ull, 20, 400, 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Rows in @table, read straight from the file. */
static long rows(const char *db, const char *table)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[128];
	long n = -1;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

static void sql(const char *db, const char *stmt)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, stmt, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

static void test_figures(void **state)
{
	struct slc_session x = { 0 };
	struct slc_lab_figures f;
	char err[256];

	(void)state;
	assert_int_equal(slc_session_load(&x, tpath("a.h5"), -1, NULL, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_figures(&f, &x), 0);
	assert_true(fabs(f.v[SLC_LAB_CACHE] / 10e9 - 1) < 0.05);
	assert_true(fabs(f.v[SLC_LAB_CACHE_SPEED] / 500e6 - 1) < 0.03);
	assert_true(fabs(f.v[SLC_LAB_POST_CACHE] / 100e6 - 1) < 0.03);
	/* 40 GB: 10 GB in 20 s, then 30 GB at 100 MB/s */
	assert_true(fabs(f.v[SLC_LAB_WHOLE_DRIVE] / 320 - 1) < 0.03);
	slc_session_free(&x);
	memset(&x, 0, sizeof(x));
	assert_int_equal(slc_session_load(&x, tpath("r.h5"), -1, NULL, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_figures(&f, &x), 0);
	assert_true(isnan(f.v[SLC_LAB_WHOLE_DRIVE]));
	/* a 7 min curve has no "written in 2 h" and no recovery */
	assert_true(isnan(f.v[SLC_LAB_TGBW]));
	assert_true(isnan(f.v[SLC_LAB_RECOVERY]));
	slc_session_free(&x);
}

static void test_add_once(void **state)
{
	const char *db = tpath("lab.db");
	struct slc_lab_added ad;
	struct slc_lab *lab;
	char err[256];
	long runs, phases;

	(void)state;
	unlink(db);
	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("a.h5"), &ad, err, sizeof(err)), 0);
	assert_false(ad.existed);
	assert_int_equal(ad.run_id, 1);
	assert_string_equal(ad.drive, "Drive A, 40 GB");
	slc_lab_close(lab);
	runs = rows(db, "runs");
	phases = rows(db, "phases");
	assert_int_equal(runs, 1);
	assert_true(phases >= 2);
	assert_int_equal(rows(db, "lab_schema"), 1);

	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("a.h5"), &ad, err, sizeof(err)), 0);
	assert_true(ad.existed);
	assert_int_equal(ad.run_id, 1);
	assert_int_equal(slc_lab_add(lab, tpath("b.h5"), &ad, err, sizeof(err)), 0);
	assert_int_equal(ad.run_id, 2);
	slc_lab_close(lab);
	assert_int_equal(rows(db, "runs"), 2);
	assert_int_equal(rows(db, "drives"), 2);
}

static void test_rank_order(void **state)
{
	const char *db = tpath("rank.db"), *out = tpath("rank.txt");
	struct slc_lab_print_opts po = { SLC_LAB_CSV, 0 };
	struct slc_lab_added ad;
	struct slc_lab *lab;
	char err[256], line[1024];
	const char *order[3] = { "\"Drive B", "\"Drive A", "\"Drive C" };
	FILE *f;
	int k = 0;

	(void)state;
	unlink(db);
	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("c.h5"), &ad, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("a.h5"), &ad, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("b.h5"), &ad, err, sizeof(err)), 0);
	assert_non_null(f = fopen(out, "w+"));
	assert_int_equal(slc_lab_rank(lab, SLC_LAB_CACHE, f, &po, err, sizeof(err)), 0);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));      /* the header */
	while (fgets(line, sizeof(line), f)) {
		const char *name = strchr(strchr(line, ',') + 1, ',') + 1;
		assert_true(k < 3);
		assert_memory_equal(name, order[k], strlen(order[k]));
		k++;
	}
	assert_int_equal(k, 3);
	fclose(f);
	/* only drive A wrote its whole capacity: the others have no such figure */
	assert_non_null(f = fopen(out, "w+"));
	assert_int_equal(slc_lab_rank(lab, SLC_LAB_WHOLE_DRIVE, f, &po, err, sizeof(err)), 0);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, "Drive A"));
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_int_equal(slc_lab_show(lab, "no such drive", stdout, &po, err, sizeof(err)), -ENOENT);
	slc_lab_close(lab);
}

static void test_refused(void **state)
{
	const char *db = tpath("refuse.db"), *other = tpath("other.db"), *cut = tpath("cut.h5");
	struct slc_lab_added ad;
	struct slc_lab *lab;
	char err[256], cmd[600];

	(void)state;
	unlink(db);
	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_add(lab, tpath("a.h5"), &ad, err, sizeof(err)), 0);
	/* a trace cut short: refused, nothing stored */
	snprintf(cmd, sizeof(cmd), "head -c $(( $(stat -c %%s '%s') / 2 )) '%s' > '%s'", tpath("a.h5"), tpath("a.h5"), cut);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(slc_lab_add(lab, cut, &ad, err, sizeof(err)), 0);
	assert_true(strlen(err) > 0 && !strchr(err, '\n'));
	/* not a trace at all */
	assert_int_not_equal(slc_lab_add(lab, db, &ad, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a slcscope trace"));
	slc_lab_close(lab);
	assert_int_equal(rows(db, "runs"), 1);

	/* a lab a newer slcscope wrote */
	sql(db, "UPDATE lab_schema SET version = 99");
	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_CREATE, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "newer"));
	/* another program's database: refused and left as it was */
	unlink(other);
	sql(other, "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
	assert_int_equal(slc_lab_open(&lab, other, SLC_LAB_CREATE, err, sizeof(err)), -EEXIST);
	assert_int_equal(rows(other, "t"), 1);
	assert_int_equal(rows(other, "sqlite_master"), 1);
	/* a trace is no lab; nor is a device or a missing directory */
	assert_int_not_equal(slc_lab_open(&lab, tpath("a.h5"), SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_not_equal(slc_lab_open(&lab, "/dev/null", SLC_LAB_CREATE, err, sizeof(err)), 0);
	assert_int_equal(slc_lab_open(&lab, tpath("no/such/dir/lab.db"), SLC_LAB_CREATE, err, sizeof(err)), -ENOENT);
	/* SQLite's URIs and in-memory name would not be the file they seem */
	assert_int_equal(slc_lab_open(&lab, "file:x.db", SLC_LAB_CREATE, err, sizeof(err)), -EINVAL);
	assert_int_equal(slc_lab_open(&lab, ":memory:", SLC_LAB_CREATE, err, sizeof(err)), -EINVAL);
	/* reading a lab that is not there makes none */
	assert_int_equal(slc_lab_open(&lab, tpath("typo.db"), SLC_LAB_READ_ONLY, err, sizeof(err)), -ENOENT);
	assert_int_equal(access(tpath("typo.db"), F_OK), -1);
	assert_non_null(strstr(err, "--db "));
	/* a lab opened to read is read as it is */
	sql(db, "UPDATE lab_schema SET version = 1");
	assert_int_equal(slc_lab_open(&lab, db, SLC_LAB_READ_ONLY, err, sizeof(err)), 0);
	assert_int_not_equal(slc_lab_add(lab, tpath("b.h5"), &ad, err, sizeof(err)), 0);
	slc_lab_close(lab);
	assert_int_equal(rows(db, "runs"), 1);
}

/* Another bench holds a new lab's write lock for a moment. */
struct holder {
	const char *path;
	pthread_mutex_t m;
	pthread_cond_t c;
	int locked;
};

static void *hold_write_lock(void *arg)
{
	struct holder *hd = arg;
	const struct timespec moment = { 0, 300 * 1000 * 1000 };
	sqlite3 *h;

	assert_int_equal(sqlite3_open(hd->path, &h), SQLITE_OK);
	sqlite3_busy_timeout(h, 60000);
	assert_int_equal(sqlite3_exec(h, "BEGIN IMMEDIATE; INSERT INTO t VALUES (1)", NULL, NULL, NULL), SQLITE_OK);
	pthread_mutex_lock(&hd->m);
	hd->locked = 1;
	pthread_cond_signal(&hd->c);
	pthread_mutex_unlock(&hd->m);
	nanosleep(&moment, NULL);
	assert_int_equal(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	return NULL;
}

/* Switching a rollback-journal database to WAL while another connection
 * holds its write lock: SQLite answers "database is locked" at once (its
 * busy handler would deadlock), and the lab waits its turn instead. */
static void test_busy_journal_switch(void **state)
{
	struct holder hd = { .path = tpath("busy.db"), .m = PTHREAD_MUTEX_INITIALIZER, .c = PTHREAD_COND_INITIALIZER };
	struct lab_db db = { 0 };
	pthread_t th;
	char err[256] = "";
	sqlite3 *h;

	(void)state;
	assert_int_equal(sqlite3_open(hd.path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE t (a INTEGER)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(pthread_create(&th, NULL, hold_write_lock, &hd), 0);
	pthread_mutex_lock(&hd.m);
	while (!hd.locked) pthread_cond_wait(&hd.c, &hd.m);
	pthread_mutex_unlock(&hd.m);
	assert_int_equal(slc__lab_sqlite_open(&db, hd.path, err, sizeof(err)), 0);
	assert_int_equal(slc__lab_exec(&db, "PRAGMA journal_mode=WAL", err, sizeof(err)), 0);
	db.ops->close(&db);
	pthread_join(th, NULL);
	assert_int_equal(sqlite3_open(hd.path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "SELECT 1 FROM t WHERE a = 1", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_add_once),
		cmocka_unit_test(test_rank_order),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_busy_journal_switch),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
