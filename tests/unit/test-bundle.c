/* perfbot import: a job's results database brought into results.db, once
 * however often, every reference mapped; bundles of another perfbot or
 * schema refused with nothing written. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle.h"
#include "check.h"
#include "cli.h"
#include "db.h"
#include "fixture.h"
#include "vm.h"

#define W "PB1 sample hugetlb-migrate "

/* What a home database holds, in one line: comparisons/runs/samples/results/kernels/patches. */
static char *holdings(sqlite3 *db)
{
	return xasprintf("%lld/%lld/%lld/%lld/%lld/%lld", fixture_rows(db, "comparisons"), fixture_rows(db, "runs"),
			 fixture_rows(db, "samples"), fixture_rows(db, "results"), fixture_rows(db, "kernels"), fixture_rows(db, "patches"));
}

/* A copy of the bundle at from, changed by sql. */
static char *bundle_variant(const char *dir, const char *from, const char *name, const char *sql)
{
	char *to = xasprintf("%s/%s", dir, name);
	sqlite3 *b;
	pb_err err = { "" };

	CHECK(copy_file(from, to, &err));
	CHECK(sqlite3_open(to, &b) == SQLITE_OK);
	CHECK(sqlite3_exec(b, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(b);
	return to;
}

void test_bundle(void)
{
	char *dir = test_tmpdir(), *job = xasprintf("%s/job.db", dir), *home = xasprintf("%s/home.db", dir);
	char *logs = xasprintf("%s/logs", dir), *before, *after, *v;
	struct bundle_outcome o;
	struct fixture f;
	sqlite3 *b, *h;
	long long id;
	pb_err err = { "" };

	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n"));
	/* the job's database: two comparisons, one boot's console log inside it */
	CHECK(db_open(job, &b, &err));
	CHECK(db_store_comparison(b, &f.cmp, "test", NULL, &id, &err));
	CHECK(db_store_comparison(b, &f.cmp, "test", NULL, &id, &err));
	CHECK(db_exec(b, "CREATE TABLE bundle_files (path TEXT PRIMARY KEY, content BLOB);"
			 "INSERT INTO bundle_files VALUES ('/nonexistent/boot0.console.log', 'console of boot 0');",
		      &err));
	db_close(b);
	CHECK(bundle_check(job, "test", &err));

	/* home already holds a comparison of the same kernels and patch */
	CHECK(db_open(home, &h, &err));
	CHECK(db_store_comparison(h, &f.cmp, "test", NULL, &id, &err));
	CHECK(bundle_import(h, job, "test", logs, &o, &err));
	CHECK_INT(o.comparisons, 2);
	CHECK_INT(o.imported, 2);
	CHECK(o.first == 2 && o.last == 3);
	CHECK_STR(o.hosts, host_name());
	/* boot 0's console log of each comparison came from the bundle; the
	 * others' paths (/nonexistent/) from nowhere */
	CHECK_INT(o.logs, 2);
	CHECK_INT(o.logs_missing, 2 * 2 * f.cmp.obs.nboots - 2);
	/* everything of both, the kernels and the patch shared, every reference whole */
	CHECK_INT(fixture_rows(h, "comparisons"), 3);
	CHECK_INT(fixture_rows(h, "kernels"), 2);
	CHECK_INT(fixture_rows(h, "patches"), 1);
	CHECK_INT(fixture_rows(h, "runs"), 3 * f.cmp.obs.nboots);
	CHECK(fixture_rows(h, "samples") > 0 && fixture_rows(h, "samples") % 3 == 0);
	CHECK(fixture_rows(h, "results") > 0 && fixture_rows(h, "results") % 3 == 0);
	CHECK_INT(db_count(h, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
	CHECK_INT(db_count(h, "SELECT count(DISTINCT uid) FROM comparisons", 0), 3);
	/* the imported comparisons' samples are the job's, boot for boot */
	CHECK_INT(db_count(h, "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE "
			      "r.comparison_id>=?", 2), 2 * db_count(h, "SELECT count(*) FROM samples s JOIN "
								     "runs r ON r.id=s.run_id WHERE r.comparison_id=?", 1));
	CHECK_INT(db_count(h, "SELECT count(*) FROM comparisons WHERE id>=? AND verdict=(SELECT verdict "
			      "FROM comparisons WHERE id=1) AND kernel_without=(SELECT kernel_without FROM "
			      "comparisons WHERE id=1)", 2), 2);
	/* the log inside the bundle was copied, and its run names the copy */
	{
		char *q = xasprintf("SELECT count(*) FROM runs WHERE comparison_id>=? AND console_log LIKE '%s/imported-%%/%%-boot0.console.log'", logs);
		char *copy = NULL;
		sqlite3_stmt *st;

		CHECK_INT(db_count(h, q, 2), 2);
		if (sqlite3_prepare_v2(h, "SELECT console_log FROM runs WHERE comparison_id=2 AND console_log LIKE '%boot0.console.log'", -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW)
				copy = read_file((const char *)sqlite3_column_text(st, 0), NULL, NULL);
			sqlite3_finalize(st);
		}
		CHECK_STR(copy, "console of boot 0");
		free(copy);
		free(q);
	}

	/* a log read from disk only from the bundle's own directory: one
	 * beside it comes, /etc/hostname (published with the report) does not */
	{
		char *side = xasprintf("%s/side", dir), *beside = NULL, *job2;
		sqlite3 *b2;
		struct bundle_outcome o2;

		CHECK(mkdir_p(side, &err));
		job2 = xasprintf("%s/job2.db", side);
		beside = test_write(side, "boot1.results.log", "PB1 done\n");
		CHECK(db_open(job2, &b2, &err));
		CHECK(db_store_comparison(b2, &f.cmp, "test", NULL, &id, &err));
		{
			char *q = sqlite3_mprintf("UPDATE runs SET results_log=%Q WHERE boot_index=1; "
						  "UPDATE runs SET console_log='/etc/hostname' WHERE boot_index=1; "
						  "UPDATE patches SET queue='/node/scratch/queue'; "
						  "UPDATE kernels SET build_status='built', failure=NULL", beside);

			CHECK(db_exec(b2, q, &err));
			sqlite3_free(q);
		}
		db_close(b2);
		/* home's kernel of that key failed to build; the node built it */
		CHECK(db_exec(h, "UPDATE kernels SET build_status='build-failed', failure='cc1 died' WHERE id=1",
			      &err));
		CHECK(bundle_import(h, job2, "test", logs, &o2, &err));
		CHECK(o2.imported == 1 && o2.logs == 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM runs WHERE comparison_id=? AND console_log='/etc/hostname'", o2.first), 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM runs WHERE comparison_id=? AND results_log LIKE '%-boot1.results.log' AND results_log NOT LIKE '%/side/%'", o2.first), 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM kernels WHERE id=? AND build_status='built' AND failure IS NULL", 1), 1);
		/* its patch is home's, whatever queue path the node had */
		CHECK_INT(fixture_rows(h, "patches"), 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM comparisons WHERE id=? AND patch_id=(SELECT patch_id FROM comparisons WHERE id=1)", o2.first), 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
		free(beside);
		free(job2);
		free(side);
	}

	/* packed on the node, its logs travel inside it: imported after the
	 * node's files are gone, every log comes */
	{
		char *node = xasprintf("%s/node", dir), *job3 = xasprintf("%s/node/job3.db", dir);
		char *l1 = NULL, *l2 = NULL, *copy = NULL;
		sqlite3 *b3;
		struct bundle_outcome o3;
		sqlite3_stmt *st;
		int packed = -1, missing = -1;

		CHECK(mkdir_p(node, &err));
		l1 = test_write(node, "boot1.console.log", "[    0.000000] Linux version 6.1\n");
		l2 = test_write(node, "boot1.results.log", "PB1 done\n");
		CHECK(db_open(job3, &b3, &err));
		CHECK(db_store_comparison(b3, &f.cmp, "test", NULL, &id, &err));
		{
			char *q = sqlite3_mprintf("UPDATE runs SET console_log=%Q, results_log=%Q WHERE "
						  "boot_index=1", l1, l2);

			CHECK(db_exec(b3, q, &err));
			sqlite3_free(q);
		}
		db_close(b3);
		CHECK(bundle_pack(job3, "test", &packed, &missing, &err));
		CHECK_INT(packed, 2);
		CHECK_INT(missing, 2 * f.cmp.obs.nboots - 2); /* the fixture's /nonexistent/ ones */
		/* packing again replaces, adds nothing */
		CHECK(bundle_pack(job3, "test", &packed, &missing, &err));
		CHECK_INT(packed, 2);
		/* the node's files gone: only what the bundle carries can come */
		CHECK(unlink(l1) == 0 && unlink(l2) == 0);
		CHECK(bundle_import(h, job3, "test", logs, &o3, &err));
		CHECK(o3.imported == 1 && o3.logs == 2);
		if (sqlite3_prepare_v2(h, "SELECT console_log FROM runs WHERE comparison_id=? AND boot_index=1",
				       -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, o3.first);
			if (sqlite3_step(st) == SQLITE_ROW)
				copy = read_file((const char *)sqlite3_column_text(st, 0), NULL, NULL);
			sqlite3_finalize(st);
		}
		CHECK_STR(copy, "[    0.000000] Linux version 6.1\n");
		/* a database of another perfbot version is not packed, nor changed */
		v = bundle_variant(dir, job3, "other-pack.db", "UPDATE comparisons SET perfbot_version='v0.1'");
		CHECK(!bundle_pack(v, "test", &packed, &missing, &err));
		CHECK_HAS(err.msg, "was measured by perfbot v0.1");
		free(v);
		free(copy);
		free(l1);
		free(l2);
		free(job3);
		free(node);
	}

	/* a job that started from home's comparison (a bisect, from its series
	 * comparison; measured by an older perfbot): its bundle packs, checks
	 * and brings only its own, with its bisect, once */
	{
		char *seed = xasprintf("%s/seed.db", dir), *job4 = xasprintf("%s/job4.db", dir), *snap;
		char *uid = NULL;
		const char *uids[1];
		struct bundle_outcome o4;
		struct bisect_step steps[2] = {
			{ .role = ROLE_SEARCH, .prefix_a = 0, .prefix_b = 1, .verdict = "regression", .bad = true },
			{ .role = ROLE_CONFIRM, .prefix_a = 0, .prefix_b = 1, .verdict = "regression", .bad = true },
		};
		struct bisect_record r = { .series_comparison = 1, .workload = "hugetlb-migrate",
					   .metric = "migrate_ms", .change = CHANGE_REGRESSION, .npatches = 1,
					   .culprit = 1, .culprit_number = 765, .status = BISECT_CONFIRMED,
					   .detail = "the one", .steps = steps, .nsteps = 2,
					   .started_at = "2026-12-06T22:00:00Z",
					   .finished_at = "2026-12-06T22:10:00Z", .wall_seconds = 600 };
		sqlite3 *b4, *sd;
		sqlite3_stmt *st;
		int packed, missing;

		CHECK(sqlite3_prepare_v2(h, "SELECT uid FROM comparisons WHERE id=1", -1, &st, NULL) == SQLITE_OK);
		CHECK(sqlite3_step(st) == SQLITE_ROW);
		uid = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		uids[0] = uid;
		CHECK(bundle_export(home, uids, 1, seed, &err));
		CHECK(db_open(seed, &sd, &err));
		CHECK_INT(fixture_rows(sd, "comparisons"), 1);
		CHECK_INT(fixture_rows(sd, "runs"), db_count(h, "SELECT count(*) FROM runs WHERE comparison_id=1", 0));
		CHECK_INT(db_count(sd, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
		/* logs of its own names, which the job's bundle does not pack */
		CHECK(db_exec(sd, "UPDATE comparisons SET perfbot_version='v0.1'; UPDATE runs SET "
				  "console_log='/nonexistent/seed-'||id", &err));
		db_close(sd);
		/* a seed whose writer is still open (its -wal holds pages) is
		 * read whole all the same */
		{
			char *seed2 = xasprintf("%s/seed-open.db", dir), *job5 = xasprintf("%s/job5.db", dir);
			sqlite3 *w, *j5;

			CHECK(db_open(seed2, &w, &err));
			CHECK(db_store_comparison(w, &f.cmp, "test", NULL, &id, &err));
			CHECK(bundle_start_from(seed2, job5, &err));
			CHECK(db_open(job5, &j5, &err));
			CHECK_INT(fixture_rows(j5, "comparisons"), 1);
			CHECK_INT(fixture_rows(j5, "bundle_seed"), 1);
			db_close(j5);
			db_close(w);
			free(seed2);
			free(job5);
		}
		/* a job's database made from it holds nothing of its own yet */
		if (!bundle_start_from(seed, job4, &err))
			CHECK_STR(err.msg, "");
		CHECK(!bundle_check(job4, "test", &err));
		CHECK_HAS(err.msg, "holds no comparison of its own");
		CHECK(db_open(job4, &b4, &err));
		CHECK(db_store_comparison(b4, &f.cmp, "test", NULL, &steps[0].comparison_id, &err));
		CHECK(db_store_comparison(b4, &f.cmp, "test", NULL, &steps[1].comparison_id, &err));
		CHECK(db_store_bisect(b4, &r, &id, &err));
		db_close(b4);
		CHECK(bundle_check(job4, "test", &err));
		CHECK(bundle_pack(job4, "test", &packed, &missing, &err));
		/* its two comparisons' logs alone (the same paths, packed once) */
		CHECK_INT(missing, 2 * f.cmp.obs.nboots);
		snap = holdings(h);
		CHECK(bundle_import(h, job4, "test", logs, &o4, &err));
		CHECK(o4.comparisons == 2 && o4.imported == 2 && o4.bisects == 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM comparisons WHERE perfbot_version='v0.1'", 0), 0);
		CHECK_INT(db_count(h, "SELECT count(*) FROM bisects WHERE series_comparison=1 AND culprit_number=765", 0), 1);
		CHECK_INT(db_count(h, "SELECT count(*) FROM bisect_steps s JOIN bisects b ON b.id=s.bisect_id "
				      "WHERE s.comparison_id>=? AND s.bad=1", o4.first), 2);
		CHECK_INT(db_count(h, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
		/* into a database without its series comparison: refused, nothing written */
		{
			char *other = xasprintf("%s/other-home.db", dir);
			sqlite3 *oh;

			CHECK(db_open(other, &oh, &err));
			CHECK(!bundle_import(oh, job4, "test", logs, &o4, &err));
			CHECK_HAS(err.msg, "holds 1 bisect(s) of a series comparison this database does not hold");
			CHECK_INT(fixture_rows(oh, "comparisons"), 0);
			db_close(oh);
			free(other);
		}
		free(snap);
		snap = holdings(h);
		CHECK(bundle_import(h, job4, "test", logs, &o4, &err));
		CHECK(o4.imported == 0 && o4.bisects == 0);
		before = holdings(h);
		CHECK_STR(before, snap);
		CHECK_INT(fixture_rows(h, "bisects"), 1);
		free(before);
		free(snap);
		free(uid);
		free(seed);
		free(job4);
	}

	/* imported again: stored once */
	before = holdings(h);
	CHECK(bundle_import(h, job, "test", logs, &o, &err));
	CHECK(o.comparisons == 2 && o.imported == 0 && o.logs == 0);
	after = holdings(h);
	CHECK_STR(after, before);
	free(after);

	/* refused, in one line, with nothing written */
	v = bundle_variant(dir, job, "other.db", "UPDATE comparisons SET perfbot_version='v0.1-9-gdead'");
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	CHECK_HAS(err.msg, "was measured by perfbot v0.1-9-gdead, this is perfbot test");
	free(v);
	v = bundle_variant(dir, job, "old.db", "PRAGMA user_version = 8");
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	{
		char *want = xasprintf("has schema version 8, this perfbot %d", DB_SCHEMA_VERSION);

		CHECK_HAS(err.msg, want);
		free(want);
	}
	free(v);
	v = bundle_variant(dir, job, "empty.db", "DELETE FROM samples; DELETE FROM results; DELETE FROM runs; "
						 "DELETE FROM comparisons");
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	CHECK_HAS(err.msg, "holds no comparison");
	free(v);
	v = bundle_variant(dir, job, "uid.db", "UPDATE comparisons SET uid='../../etc' WHERE id=1");
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	CHECK_HAS(err.msg, "whose uid is not perfbot's");
	free(v);
	v = xasprintf("%s/missing.db", dir);
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	free(v);
	v = xasprintf("%s/fifo.db", dir);
	CHECK(mkfifo(v, 0600) == 0);
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	CHECK_HAS(err.msg, "fifo.db");
	free(v);
	v = test_write(dir, "text.db", "not a database\n");
	CHECK(!bundle_import(h, v, "test", logs, &o, &err));
	CHECK_HAS(err.msg, "not an SQLite database");
	free(v);
	after = holdings(h);
	CHECK_STR(after, before);
	CHECK_INT(db_count(h, "SELECT count(*) FROM pragma_database_list WHERE name='bundle'", 0), 0);
	free(after);
	free(before);

	db_close(h);
	fixture_free(&f);
	rm_rf(dir);
	free(dir);
	free(job);
	free(home);
	free(logs);
}
