/* The database layer: schema creation, one transaction per comparison,
 * nothing written when a store fails, and refusal of foreign databases. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "db.h"
#include "fixture.h"
#include "report.h"

#define W "PB1 sample hugetlb-migrate "

static long long count(sqlite3 *db, const char *table)
{
	char *sql = xasprintf("SELECT count(*) FROM %s", table);
	long long n = db_count(db, sql, 0);

	free(sql);
	return n;
}

void test_db(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir), *report = NULL;
	struct fixture f;
	sqlite3 *db;
	long long id = 0, id2 = 0;
	pb_err err = { "" };

	CHECK(db_open(path, &db, &err));
	CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
	CHECK_INT(count(db, "patches"), 0);
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n" W "2 pages_migrated 32\n"));
	CHECK(db_store_comparison(db, &f.cmp, "test", &id, &err));
	CHECK(id > 0);
	CHECK_INT(count(db, "patches"), 1);
	CHECK_INT(count(db, "kernels"), 2);
	CHECK_INT(count(db, "comparisons"), 1);
	CHECK_INT(count(db, "runs"), 4);
	CHECK_INT(count(db, "samples"), 2 * 2 + 2 * 3);
	CHECK_INT(count(db, "results"), f.chosen[0]->nmetrics);
	CHECK_INT(db_count(db, "SELECT count(*) FROM results WHERE verdict='behaviour change' AND "
			       "metric='pages_migrated' AND median_with=32 AND comparison_id=?", id), 1);

	/* A second comparison of the same patch reuses its patch and kernel rows. */
	CHECK(db_store_comparison(db, &f.cmp, "test", &id2, &err));
	CHECK(id2 == id + 1);
	CHECK_INT(count(db, "patches"), 1);
	CHECK_INT(count(db, "kernels"), 2);
	CHECK_INT(count(db, "runs"), 8);

	/* The report is written from the database, everything escaped. */
	CHECK(report_write_patch(db, id, dir, &report, &err));
	if (report) {
		char *html = read_file(report, NULL, NULL);

		CHECK_HAS(html, "a test &lt;pair&gt; &amp; &quot;detail&quot;");
		CHECK(!strstr(html, "<pair>"));
		CHECK_HAS(html, "pages_migrated");
		CHECK_HAS(html, "behaviour change");
		CHECK_HAS(html, "picked without a Cc: stable tag");
		CHECK_HAS(html, "The port (applied to form the kernel without the fix)");
		free(html);
		unlink(report);
		free(report);
	}
	CHECK(!report_write_patch(db, 9999, dir, &report, &err));
	CHECK_HAS(err.msg, "no comparison 9999");

	/* A store that fails half-way leaves nothing behind. */
	f.cmp.status = NULL; /* comparisons.status is NOT NULL */
	CHECK(!db_store_comparison(db, &f.cmp, "test", &id, &err));
	CHECK_INT(count(db, "comparisons"), 2);
	CHECK_INT(count(db, "runs"), 8);
	CHECK_INT(count(db, "samples"), 20);
	fixture_free(&f);
	db_close(db);

	/* Another schema version, or not a database at all, is refused. */
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK(!db_open(path, &db, &err));
	CHECK_HAS(err.msg, "schema version 99");
	{
		char *junk = test_write(dir, "junk.db", "this is not a database, just text that is long enough "
							"to fill the sqlite header area and more text\n");

		CHECK(!db_open(junk, &db, &err));
		CHECK_HAS(err.msg, "junk.db");
		unlink(junk);
		free(junk);
	}
	unlink(path);
	{
		char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);

		unlink(wal);
		unlink(shm);
		free(wal);
		free(shm);
	}
	rmdir(dir);
	free(path);
	free(dir);
}
