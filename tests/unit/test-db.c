/* The database layer: schema creation, one transaction per comparison,
 * nothing written when a store fails, and refusal of foreign databases. */
#include <fcntl.h>
#include <math.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "db-report.h"
#include "db.h"
#include "fixture.h"
#include "report.h"
#include "vm.h"

#define W "PB1 sample hugetlb-migrate "

/* A file's bytes, to see that a refused open wrote none. */
static char *bytes(const char *path, size_t *len)
{
	*len = 0;
	return read_file(path, len, NULL);
}

static bool same_bytes(const char *path, const char *before, size_t len)
{
	size_t n;
	char *now = bytes(path, &n);
	bool same = now && n == len && !memcmp(now, before, len);

	free(now);
	return same;
}

/* Makes path read-only for this process: chmod, or (as root, whom chmod
 * does not stop) the immutable flag. false if neither holds. */
static bool make_read_only(const char *path, bool *immutable)
{
	int fd, flags = 0;

	*immutable = false;
	if (chmod(path, 0444) == 0 && access(path, W_OK) < 0)
		return true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags |= FS_IMMUTABLE_FL;
		*immutable = ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
	}
	close(fd);
	return *immutable;
}

static void undo_read_only(const char *path, bool immutable)
{
	int fd = open(path, O_RDONLY), flags = 0;

	if (fd >= 0 && immutable && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags &= ~FS_IMMUTABLE_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
			CHECK(false);
	}
	if (fd >= 0)
		close(fd);
	chmod(path, 0644);
}

/* What is not perfbot's is refused before a byte is written; what only
 * reads opens read-only and creates nothing. */
static void test_not_ours(const char *dir)
{
	char *foreign = xasprintf("%s/foreign.db", dir), *empty = test_write(dir, "empty.db", "");
	char *lock = xasprintf("%s.lock", foreign), *ro = xasprintf("%s/ro.db", dir), *before;
	sqlite3 *db = NULL;
	pb_err err = { "" };
	size_t len;
	bool immutable;

	/* a database of someone else's tables: no perfbot table, no WAL switch */
	CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "CREATE TABLE mine (x); INSERT INTO mine VALUES (1);", NULL, NULL,
			   NULL) == SQLITE_OK);
	sqlite3_close(db);
	before = bytes(foreign, &len);
	CHECK(!db_open(foreign, &db, &err));
	CHECK_HAS(err.msg, "is not a perfbot database");
	CHECK_HAS(err.msg, "its tables: mine");
	CHECK(!db_open_readonly(foreign, &db, &err));
	CHECK_HAS(err.msg, "is not a perfbot database");
	CHECK(!db_check(foreign, DB_READ_WRITE, &err));
	CHECK(!db_lock(foreign, &err)); /* and no lock file beside it */
	CHECK(!path_exists(lock));
	CHECK(same_bytes(foreign, before, len));
	free(before);

	/* a schema version without its tables, a negative one */
	CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "PRAGMA user_version = 3; CREATE TABLE patches (x);", NULL, NULL,
			   NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(!db_open(foreign, &db, &err));
	CHECK_HAS(err.msg, "schema version 3 without the table kernels");
	CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "PRAGMA user_version = -5", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(!db_open(foreign, &db, &err));
	CHECK_HAS(err.msg, "schema version -5, not one perfbot knows");
	CHECK(!strstr(err.msg, "not an error"));

	/* an empty file: read-only commands leave it empty, a writing one makes it perfbot's */
	CHECK(!db_open_readonly(empty, &db, &err));
	CHECK_HAS(err.msg, "empty.db is empty");
	CHECK(same_bytes(empty, "", 0));
	CHECK(db_check(empty, DB_READ_WRITE, &err));
	CHECK(same_bytes(empty, "", 0));
	CHECK(db_open(empty, &db, &err));
	CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
	db_close(db);

	/* a missing one: reading it creates nothing */
	CHECK(!db_open_readonly(ro, &db, &err));
	CHECK_HAS(err.msg, "does not exist");
	CHECK(db_check(ro, DB_READ_WRITE, &err));
	CHECK(!path_exists(ro));

	/* not a regular file: nothing beside it (/dev/null-journal) */
	CHECK(!db_open("/dev/null", &db, &err));
	CHECK_HAS(err.msg, "/dev/null is not a regular file (a character device)");
	CHECK(!db_open(dir, &db, &err));
	CHECK_HAS(err.msg, "is not a regular file (a directory)");
	CHECK(!db_check("/dev/null", DB_READ_WRITE, &err));

	/* a read-only perfbot database: read as it is, refused for writing in words */
	CHECK(db_open(ro, &db, &err));
	CHECK(db_exec(db, "CREATE TABLE extra_of_my_own (x)", &err)); /* tables of one's own stay */
	db_close(db);
	CHECK(db_open_readonly(ro, &db, &err));
	CHECK_INT(db_count(db, "SELECT count(*) FROM jobs", 0), 0);
	CHECK(!db_exec(db, "DELETE FROM jobs", &err)); /* query_only */
	db_close(db);
	{
		char *wal = xasprintf("%s-wal", ro);

		CHECK(!path_exists(wal)); /* a reader leaves no -wal behind */
		free(wal);
	}
	if (make_read_only(ro, &immutable)) {
		before = bytes(ro, &len);
		CHECK(!db_open(ro, &db, &err));
		CHECK_HAS(err.msg, "ro.db is read-only");
		CHECK(!strstr(err.msg, "not an SQLite database"));
		CHECK(db_open_readonly(ro, &db, &err));
		CHECK_INT(db_count(db, "SELECT count(*) FROM jobs", 0), 0);
		db_close(db);
		CHECK(same_bytes(ro, before, len));
		free(before);
		undo_read_only(ro, immutable);
	} else {
		fprintf(stderr, "test-db: cannot make a file read-only here; that check skipped\n");
	}

	/* an older schema: upgraded by a writer, refused (and left as it is) by a reader */
	CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "DROP TABLE patches; PRAGMA user_version = 0", NULL, NULL, NULL) ==
	      SQLITE_OK);
	sqlite3_close(db);
	unlink(foreign);
	{
		char *sql = read_file("tests/data/schema-v1.sql", NULL, NULL);

		CHECK(sql && sqlite3_open(foreign, &db) == SQLITE_OK);
		CHECK(sql && sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(db);
		free(sql);
	}
	before = bytes(foreign, &len);
	CHECK(!db_open_readonly(foreign, &db, &err));
	CHECK_HAS(err.msg, "schema version 1, older than this perfbot's");
	CHECK(same_bytes(foreign, before, len));
	free(before);
	CHECK(db_check(foreign, DB_READ_WRITE, &err));
	CHECK(db_open(foreign, &db, &err));
	db_close(db);

	free(foreign);
	free(empty);
	free(lock);
	free(ro);
}

/* A row read by column name: a reordered or extra column changes nothing,
 * a missing one is an error, NULL is "" or NAN as the column says. */
struct test_row {
	const char *name;
	int n;
	long long big;
	double x, maybe;
};
static const struct db_column test_cols[] = {
	DB_COLUMN(struct test_row, name, DB_TEXT, "'a'"),
	DB_COLUMN(struct test_row, n, DB_INT, "7"),
	DB_COLUMN(struct test_row, big, DB_INT64, "1099511627776"),
	DB_COLUMN(struct test_row, x, DB_REAL, "NULL"),
	DB_COLUMN(struct test_row, maybe, DB_REAL_OR_NAN, "NULL"),
};

static void test_named_columns(sqlite3 *db)
{
	struct db_cursor c;
	struct test_row r;
	pb_err err = { "" };
	int n = (int)PB_ARRAY_SIZE(test_cols);

	CHECK(db_cursor_open(&c, db, "test", test_cols, n, &err, "", ""));
	CHECK(db_cursor_step(&c, &r));
	CHECK_STR(r.name, "a");
	CHECK_INT(r.n, 7);
	CHECK_INT(r.big, 1099511627776LL);
	CHECK(r.x == 0 && isnan(r.maybe));
	CHECK(!db_cursor_step(&c, &r));
	CHECK(db_cursor_close(&c, &err));

	/* another order and a column more: each field still gets its own */
	CHECK(db_cursor_open_sql(&c, db, "test", test_cols, n, &err,
				 "SELECT 1 AS extra, 2.5 AS maybe, NULL AS name, 3 AS n, 4 AS big, "
				 "0.5 AS x"));
	CHECK(db_cursor_step(&c, &r));
	CHECK_STR(r.name, "");
	CHECK_INT(r.n, 3);
	CHECK_INT(r.big, 4);
	CHECK(r.x == 0.5 && r.maybe == 2.5);
	CHECK(db_cursor_close(&c, &err));

	/* a column the query lacks is refused, not read from its neighbour */
	CHECK(!db_cursor_open_sql(&c, db, "test", test_cols, n, &err,
				  "SELECT 'a' AS name, 7 AS n, 2.5 AS maybe, 0.5 AS x"));
	CHECK_HAS(err.msg, "test: the query has no column big");
	CHECK(!db_cursor_open(&c, db, "test", test_cols, n, &err, "WHERE ?", ""));
	CHECK_HAS(err.msg, "0 values for 1 parameters");
}

/* Every report query prepares against the schema, each column found. */
static void test_report_queries(sqlite3 *db)
{
	struct db_cursor c;
	struct patch_page_row pr;
	pb_err err = { "" };
	bool found = true;

	CHECK(db_report_patch_page(&c, db, 1, &pr, &found, &err) && !found);
	db_cursor_close(&c, NULL);
	CHECK(db_report_results(&c, db, 1, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_samples(&c, db, 1, "w", "m", &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_boots(&c, db, 1, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_newest(&c, db, "q", 1, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_workload_verdicts(&c, db, 1, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_trend(&c, db, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_pages(&c, db, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_queues(&c, db, &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_measured(&c, db, "q", &err));
	db_cursor_close(&c, NULL);
	CHECK(db_report_measured(&c, db, NULL, &err));
	db_cursor_close(&c, NULL);
	if (err.msg[0])
		fprintf(stderr, "report queries: %s\n", err.msg);
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
	CHECK_INT(fixture_rows(db, "patches"), 0);
	test_named_columns(db);
	test_report_queries(db);
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n" W "2 pages_migrated 32\n"));
	CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &id, &err));
	CHECK(id > 0);
	CHECK_INT(fixture_rows(db, "patches"), 1);
	CHECK_INT(fixture_rows(db, "kernels"), 2);
	CHECK_INT(fixture_rows(db, "comparisons"), 1);
	CHECK_INT(fixture_rows(db, "runs"), 4);
	CHECK_INT(fixture_rows(db, "samples"), 2 * 2 + 2 * 3);
	CHECK_INT(fixture_rows(db, "results"), f.chosen[0]->nmetrics);
	CHECK_INT(db_count(db, "SELECT count(*) FROM results WHERE verdict='behaviour change' AND "
			       "metric='pages_migrated' AND median_with=32 AND comparison_id=?", id), 1);

	CHECK_INT(db_count(db, "SELECT count(*) FROM results WHERE metric='migrate_ms' AND "
			       "p_mw IS NOT NULL AND regime IS NOT NULL AND boots_with=2 AND comparison_id=?", id), 1);
	CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE kind='patch' AND seed=1 AND "
			       "behaviour='behaviour change' AND id=?", id), 1);

	/* A second comparison of the same patch reuses its patch and kernel rows. */
	CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &id2, &err));
	CHECK(id2 == id + 1);
	CHECK_INT(fixture_rows(db, "patches"), 1);
	CHECK_INT(fixture_rows(db, "kernels"), 2);
	CHECK_INT(fixture_rows(db, "runs"), 8);

	/* nightly's questions: measured before on this base, config and version? */
	CHECK_INT(db_measured_before(db, f.queue.dir, 771, f.cmp.patch->sha256, "cafe", "c0nf", "test"),
		  id2);
	CHECK_INT(db_measured_before(db, f.queue.dir, 771, f.cmp.patch->sha256, "cafe", "c0nf", "v2"), 0);
	{
		struct db_nightly n = { .queue = "q", .started_at = "t0", .finished_at = "t1",
					.perfbot_version = "test", .tree_sha256 = "cafe",
					.config_sha256 = "c0nf", .summary = "771 done\n", .patches_run = 1 };
		long long nid = 0;

		CHECK(db_store_nightly(db, &n, &nid, &err) && nid == 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM nightly WHERE calibration_id IS NULL AND "
				       "patches_run=1 AND id=?", nid), 1);
	}

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
		CHECK_HAS(html, "<h2>Behaviour changes</h2>");
		{
			char *page = report_patch_page(f.queue.dir, 771, f.cmp.patch->sha256);
			char *img = xasprintf("<img src=\"plots/%.*s-c1-hugetlb-migrate-pages_migrated.svg\"",
					      (int)strlen(page) - 5, page);

			CHECK_HAS(report, page);
			CHECK_HAS(html, img);
			free(img);
			free(page);
		}
		{
			/* where it ran: the host, its CPU and QEMU */
			char *ran = xasprintf("<tr><th>ran on</th><td>%s, ", host_name());

			CHECK_HAS(html, ran);
			CHECK_HAS(html, host_cpu_model());
			free(ran);
		}
		free(html);
		unlink(report);
		free(report);
	}
	/* The index and the trend, from the same database. */
	CHECK(report_write_index(db, &f.queue, dir, &err));
	{
		char *p = xasprintf("%s/index.html", dir), *html = read_file(p, NULL, NULL), *q;

		CHECK_HAS(html, "11 patches: 1 measured, 7 skipped as not mm");
		{
			char *page = report_patch_page(f.queue.dir, 771, f.cmp.patch->sha256);
			char *a = xasprintf("<a href=\"%s\">771</a>", page);

			CHECK_HAS(html, a);
			free(a);
			free(page);
		}
		CHECK_HAS(html, "hugetlb-migrate: behaviour change");
		free(html);
		unlink(p);
		free(p);
		/* the queue's own page: its patches not measured too */
		q = report_queue_page(f.queue.dir);
		p = xasprintf("%s/%s", dir, q);
		free(q);
		html = read_file(p, NULL, NULL);
		CHECK_HAS(html, "skipped: not an mm patch");
		CHECK_HAS(html, "not measured yet");
		free(html);
		free(p);
	}
	CHECK(report_write_trend(db, dir, &err));
	{
		char *p = xasprintf("%s/trend.html", dir), *html = read_file(p, NULL, NULL);

		/* the fixture's base kernel is the side with the fix */
		CHECK_HAS(html, "<img src=\"plots/trend-tcg-icount-hugetlb-migrate-migrate_ms.svg\"");
		free(html);
		unlink(p);
		free(p);
	}
	CHECK(!report_write_patch(db, 9999, dir, &report, &err));
	CHECK_HAS(err.msg, "no comparison 9999");

	/* A series comparison (run --series): no patch; its series stored,
	 * its page series-<name>-<hash>.html, the index's "queue as a whole". */
	{
		struct series_info si = { .name = "5.13.2-rc1", .description = "5.13.2-rc1 review",
					  .cover_message_id = "<c@x>", .mm_only = false };
		struct change_step steps[2] = { { .file = "/q/031.patch", .sha256 = "s1", .number = 31 },
						{ .file = "/q/771.patch", .sha256 = "s2", .number = 771 } };
		struct pair_plan keep = f.plan;
		long long sid = 0;
		char *series_page = NULL;

		memset(&f.plan, 0, sizeof(f.plan));
		f.plan.method = PAIR_FORWARD;
		f.plan.detail = xstrdup("2 patches apply forward in series order to 6.1.192");
		kernel_change_set(&f.plan.without, NULL, false, "base");
		kernel_change_series(&f.plan.with, steps, 2, "base+series", "2 patches: 031 771 (forward)");
		f.cmp.patch = NULL;
		f.cmp.series = &si;
		snprintf(f.cmp.image[1].key, sizeof(f.cmp.image[1].key), "key-series");
		CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &sid, &err));
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons c JOIN series s ON "
				       "s.id=c.series_id WHERE c.kind='series' AND c.patch_id IS NULL AND "
				       "s.name='5.13.2-rc1' AND s.patches='031 771' AND s.mode='forward' AND "
				       "c.id=?", sid), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM kernels WHERE key='key-series' AND "
				       "change_file='2 patches: 031 771 (forward)' AND length(change_sha256)=64",
				   0), 1);
		/* a bisect of it: its record, its steps, the target it starts from */
		{
			struct bisect_step bs[2] = {
				{ .role = ROLE_SEARCH, .prefix_a = 0, .prefix_b = 1, .comparison_id = sid,
				  .verdict = "no change" },
				{ .role = ROLE_CONFIRM, .prefix_a = 1, .prefix_b = 2, .comparison_id = sid,
				  .verdict = "behaviour change", .bad = true },
			};
			struct bisect_record br = {
				.series_comparison = sid, .workload = "hugetlb-migrate",
				.metric = "pages_migrated", .change = CHANGE_BEHAVIOUR, .npatches = 2,
				.culprit = 2, .culprit_number = 771, .status = BISECT_CONFIRMED,
				.detail = "[PATCH 5.13 771/800] <culprit>", .steps = bs, .nsteps = 2,
				.started_at = "t0", .finished_at = "t1", .wall_seconds = 12,
			};
			struct series_target t;
			long long bid = 0;

			CHECK(db_store_bisect(db, &br, &bid, &err));
			CHECK_INT(db_count(db, "SELECT count(*) FROM bisect_steps WHERE bisect_id=?", bid), 2);
			CHECK(db_series_target(db, f.queue.dir, 0, NULL, NULL, &t, &err));
			CHECK(t.id == sid);
			CHECK_INT(t.mode, SERIES_FORWARD);
			CHECK_STR(t.workload, "hugetlb-migrate");
			CHECK_STR(t.metric, "pages_migrated");
			CHECK_STR(t.change, "behaviour change");
			series_target_free(&t);
			CHECK(db_series_target(db, f.queue.dir, sid, "hugetlb-migrate", "migrate_ms", &t, &err));
			CHECK_STR(t.metric, "migrate_ms");
			series_target_free(&t);
			CHECK(db_series_target(db, f.queue.dir, sid, "nosuch", "metric", &t, &err));
			CHECK_STR(t.change, "");
			series_target_free(&t);
			CHECK(!db_series_target(db, "/other/queue", 0, NULL, NULL, &t, &err));
			CHECK_HAS(err.msg, "no series comparison of queue /other/queue yet");
		}
		CHECK(report_write_patch(db, sid, dir, &report, &err));
		series_page = report_series_page(f.queue.dir, "5.13.2-rc1");
		CHECK(report && strrchr(report, '/') && !strcmp(strrchr(report, '/') + 1, series_page));
		if (report) {
			char *html = read_file(report, NULL, NULL);

			CHECK_HAS(html, "<title>perfbot: series 5.13.2-rc1</title>");
			CHECK_HAS(html, "<h1>Series 5.13.2-rc1: 5.13.2-rc1 review</h1>");
			/* back to the index and to its queue */
			CHECK_HAS(html, "<p><a href=\"index.html\">All queues</a> &middot; <a href=\"queue-"
					"stable-5.13-");
			CHECK_HAS(html, "<td>031 771</td>");
			CHECK_HAS(html, "kernel with the series");
			CHECK_HAS(html, "<h2>Bisection</h2>");
			CHECK_HAS(html, "the culprit is [PATCH 5.13 771/800] &lt;culprit&gt;");
			CHECK_HAS(html, "behaviour change (bad)");
			free(html);
			unlink(report);
			free(report);
		}
		CHECK(report_write_index(db, &f.queue, dir, &err));
		{
			char *p = xasprintf("%s/index.html", dir), *html = read_file(p, NULL, NULL);
			char *link = xasprintf("<a href=\"%s\">5.13.2-rc1</a>", series_page);

			CHECK_HAS(html, "<h3>The queue as a whole</h3>");
			CHECK_HAS(html, link);
			free(link);
			free(html);
			unlink(p);
			free(p);
		}
		free(series_page);
		pair_plan_free(&f.plan);
		f.plan = keep;
		f.cmp.patch = queue_find(&f.queue, 771);
		f.cmp.series = NULL;
		snprintf(f.cmp.image[1].key, sizeof(f.cmp.image[1].key), "key1");
		db_exec(db, "DELETE FROM bisect_steps; DELETE FROM bisects;", NULL);
		db_exec(db, "DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE "
			    "comparison_id IN (SELECT id FROM comparisons WHERE kind='series'));"
			    "DELETE FROM runs WHERE comparison_id IN (SELECT id FROM comparisons WHERE "
			    "kind='series'); DELETE FROM results WHERE comparison_id IN (SELECT id FROM "
			    "comparisons WHERE kind='series'); DELETE FROM comparisons WHERE kind='series';"
			    "DELETE FROM kernels WHERE key='key-series';", NULL);
	}

	/* A store that fails half-way leaves nothing behind. */
	char *choice = f.cmp.workload_choice;
	f.cmp.workload_choice = NULL; /* comparisons.workload_choice is NOT NULL */
	CHECK(!db_store_comparison(db, &f.cmp, "test", NULL, &id, &err));
	CHECK_INT(fixture_rows(db, "comparisons"), 2);
	CHECK_INT(fixture_rows(db, "runs"), 8);
	CHECK_INT(fixture_rows(db, "samples"), 20);
	f.cmp.workload_choice = choice;

	/* A calibration: no patch, its noise floor stored and found again by accel. */
	{
		struct noise_floor *nf, *got = NULL;
		int nnf, ngot = 0;
		long long cal = 0, which = 0;

		nf = noise_measure(&f.cmp.policy, &f.cmp.obs, &nnf);
		CHECK(nnf == 2); /* migrate_ms, pages_migrated: the metrics with samples */
		f.cmp.patch = NULL;
		f.cmp.kind = KIND_CALIBRATION;
		snprintf(nf[0].sha256, sizeof(nf[0].sha256), "%s", "f1n9e2");
		f.cmp.measured_noise = nf;
		f.cmp.nmeasured_noise = nnf;
		f.cmp.fa_splits = 3;
		CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &cal, &err));
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE kind='calibration' AND "
				       "patch_id IS NULL AND fa_splits=3 AND id=?", cal), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM noise WHERE calibration_id=?", cal), 2);
		CHECK(db_load_noise(db, ACCEL_TCG_ICOUNT, "c0nf", f.cmp.obs.iterations, f.cmp.policy.warmup,
				    &got, &ngot, &which, NULL, &err));
		CHECK(which == cal && ngot == 2);
		CHECK(ngot == 2 && !strcmp(got[0].workload, "hugetlb-migrate") && got[0].boots == 4);
		/* which version of the workload it measured comes back with it */
		CHECK(ngot == 2 && !strcmp(got[0].sha256, "f1n9e2") && !got[1].sha256[0]);
		noise_free(got, ngot);
		CHECK(db_load_noise(db, ACCEL_KVM, NULL, f.cmp.obs.iterations, f.cmp.policy.warmup, &got,
				    &ngot, &which, NULL, &err));
		CHECK(which == 0 && ngot == 0 && !got);
		/* where it ran: the QEMU build and CPU of every boot, the host */
		CHECK(db_count(db, "SELECT count(*) FROM runs WHERE comparison_id=?", cal) > 0);
		{
			char *q = sqlite3_mprintf("SELECT count(*) FROM runs WHERE comparison_id=? AND "
						  "(host_cpu IS NOT %Q OR qemu_version IS NOT %Q)",
						  host_cpu_model(), qemu_version());

			CHECK_INT(db_count(db, q, cal), 0);
			sqlite3_free(q);
			q = sqlite3_mprintf("SELECT count(*) FROM comparisons WHERE id=? AND host=%Q AND "
					    "length(uid)=32 AND uid NOT GLOB '*[^0-9a-f]*'", host_name());
			CHECK_INT(db_count(db, q, cal), 1);
			sqlite3_free(q);
		}
		/* another QEMU build's boots are no noise floor here, and are named */
		{
			long long elsewhere = -1;

			CHECK(db_exec(db, "UPDATE runs SET qemu_version='QEMU emulator version 9.9'", &err));
			CHECK(db_load_noise(db, ACCEL_TCG_ICOUNT, "c0nf", f.cmp.obs.iterations,
					    f.cmp.policy.warmup, &got, &ngot, &which, &elsewhere, &err));
			CHECK(which == 0 && ngot == 0 && elsewhere == cal);
		}
		{
			char *q = sqlite3_mprintf("UPDATE runs SET qemu_version=%Q, host_cpu='Other CPU'",
						  qemu_version());
			long long elsewhere = -1;

			CHECK(db_exec(db, q, &err));
			sqlite3_free(q);
			/* under tcg-icount the host's CPU changes no guest time */
			CHECK(db_load_noise(db, ACCEL_TCG_ICOUNT, "c0nf", f.cmp.obs.iterations,
					    f.cmp.policy.warmup, &got, &ngot, &which, &elsewhere, &err));
			CHECK(which == cal && ngot == 2 && elsewhere == 0);
			noise_free(got, ngot);
			/* under kvm it does; a row from before schema 9 (no CPU) is this machine's */
			CHECK(db_exec(db, "UPDATE comparisons SET accel='kvm'; UPDATE runs SET accel='kvm'", &err));
			CHECK(db_load_noise(db, ACCEL_KVM, "c0nf", f.cmp.obs.iterations, f.cmp.policy.warmup,
					    &got, &ngot, &which, &elsewhere, &err));
			CHECK(which == 0 && ngot == 0 && elsewhere == cal);
			CHECK(db_exec(db, "UPDATE runs SET host_cpu=NULL", &err));
			CHECK(db_load_noise(db, ACCEL_KVM, "c0nf", f.cmp.obs.iterations, f.cmp.policy.warmup,
					    &got, &ngot, &which, &elsewhere, &err));
			CHECK(which == cal && ngot == 2 && elsewhere == 0);
			noise_free(got, ngot);
			CHECK(db_exec(db, "UPDATE comparisons SET accel='tcg-icount'; UPDATE runs SET "
					  "accel='tcg-icount'", &err));
		}
		/* another number of iterations, or of warm-up: another noise */
		CHECK(db_load_noise(db, ACCEL_TCG_ICOUNT, "c0nf", f.cmp.obs.iterations + 1,
				    f.cmp.policy.warmup, &got, &ngot, &which, NULL, &err));
		CHECK(which == 0 && ngot == 0 && !got);
		CHECK(db_load_noise(db, ACCEL_TCG_ICOUNT, "c0nf", f.cmp.obs.iterations,
				    f.cmp.policy.warmup + 1, &got, &ngot, &which, NULL, &err));
		CHECK(which == 0 && ngot == 0 && !got);
		f.cmp.measured_noise = NULL;
		f.cmp.nmeasured_noise = 0;
		noise_free(nf, nnf);
	}
	fixture_free(&f);
	db_close(db);

	/* A version 1 database (issue 2's) is upgraded in place, rows kept. */
	{
		char *v1 = xasprintf("%s/v1.db", dir), *sql = read_file("tests/data/schema-v1.sql", NULL, NULL);
		sqlite3 *old;

		CHECK(sql != NULL);
		CHECK(sqlite3_open(v1, &old) == SQLITE_OK);
		CHECK(sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
		CHECK(sqlite3_exec(old,
				   "INSERT INTO patches VALUES (1,'q',771,800,'5.13','f','s','subj','a','',"
				   "'',0,1,'mm');"
				   "INSERT INTO kernels VALUES (1,'k','6.1','t','c','base',NULL,NULL,0,'built',"
				   "1.0,'',NULL);"
				   "INSERT INTO comparisons VALUES (1,1,'port','d',1,1,'tcg-icount','r','w',"
				   "'c',2,5,'measured','t0','t1',3.0,'v');"
				   "INSERT INTO runs VALUES (1,1,1,'with',1,'tcg-icount','r','q','c','ok','',"
				   "1.0,'','');"
				   "INSERT INTO samples VALUES (1,'w','m',1,2.5);",
				   NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(old);
		CHECK(db_open(v1, &db, &err));
		CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
		CHECK_INT(db_count(db, "SELECT count(*) FROM nightly", 0), 0);
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE kind='patch' AND "
				       "patch_id=1 AND status='measured'", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM samples WHERE warmup=0 AND value=2.5", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
		CHECK_INT(db_count(db, "SELECT count(*) FROM noise", 0), 0);
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_table_info('jobs') WHERE "
				       "name='overrides'", 0), 1);
		db_close(db);
		unlink(v1);
		free(v1);
		free(sql);
	}

	/* A version 4 database (issue 11's): its jobs gain their settings column, rows kept. */
	{
		char *v4 = xasprintf("%s/v4.db", dir), *sql = read_file("tests/data/schema-v4.sql", NULL, NULL);
		sqlite3 *old;

		CHECK(sql != NULL);
		CHECK(sqlite3_open(v4, &old) == SQLITE_OK);
		CHECK(sql && sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
		CHECK(sqlite3_exec(old,
				   "INSERT INTO jobs (kind, queue, patch, workloads, force, state, "
				   "submitted_at) VALUES ('run', '/q', 771, '', 0, 'queued', 't0');",
				   NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(old);
		CHECK(db_open(v4, &db, &err));
		CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
		CHECK_INT(db_count(db, "SELECT count(*) FROM jobs WHERE patch=771 AND overrides=''", 0), 1);
		db_close(db);
		rm_rf(v4);
		free(v4);
		free(sql);
	}

	/* A version 5 database (issue 13's): a comparison judged by the gate over
	 * noise keeps its noise factor; beta, threshold and look are added. */
	{
		char *v5 = xasprintf("%s/v5.db", dir), *sql = read_file("tests/data/schema-v5.sql", NULL, NULL);
		sqlite3 *old;

		CHECK(sql != NULL);
		CHECK(sqlite3_open(v5, &old) == SQLITE_OK);
		CHECK(sql && sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
		CHECK(sqlite3_exec(old,
				   "INSERT INTO comparisons (id, kind, pair_method, pair_detail, "
				   "kernel_without, kernel_with, accel, workloads, workload_choice, "
				   "boots_per_kernel, iterations, status, started_at, finished_at, "
				   "wall_seconds, perfbot_version, noise_factor) VALUES (1, "
				   "'calibration', 'same', '', 1, 1, 'tcg', 'w', 'c', 4, 5, 'measured', "
				   "'t0', 't1', 1.0, 'v', 5);"
				   "INSERT INTO results (comparison_id, workload, metric, unit, kind, better, "
				   "n_without, n_with, verdict, regime) VALUES (1, 'w', 'm', 'ms', 'time', "
				   "'lower', 4, 4, 'no change', 'CI inside gate');",
				   NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(old);
		CHECK(db_open(v5, &db, &err));
		CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE noise_factor=5 AND "
				       "beta IS NULL", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM results WHERE regime='CI inside gate' AND "
				       "threshold_pct IS NULL AND look IS NULL", 0), 1);
		/* and an identity, so that it can be imported elsewhere */
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE length(uid)=32 AND "
				       "host IS NULL", 0), 1);
		db_close(db);
		/* opened again: nothing more to do */
		CHECK(db_open(v5, &db, &err));
		CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
		db_close(db);
		rm_rf(v5);
		free(v5);
		free(sql);
	}

	/* A version 6 database (issue 14's): its patches gain their mail's
	 * headers, '' for those stored before. */
	{
		char *v6 = xasprintf("%s/v6.db", dir), *sql = read_file("tests/data/schema-v6.sql", NULL, NULL);
		sqlite3 *old;

		CHECK(sql != NULL);
		CHECK(sqlite3_open(v6, &old) == SQLITE_OK);
		CHECK(sql && sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
		CHECK(sqlite3_exec(old,
				   "INSERT INTO patches (queue, number, total, series, file, sha256, "
				   "subject, author, upstream, fixes, cc_stable, is_mm, mm_reason) "
				   "VALUES ('q', 771, 800, '5.13', 'f', 'h', 's', 'a', '', '', 0, 1, 'mm/');",
				   NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(old);
		CHECK(db_open(v6, &db, &err));
		CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
		CHECK_INT(db_count(db, "SELECT count(*) FROM patches WHERE number=771 AND message_id='' "
				       "AND in_reply_to='' AND mail_to='' AND mail_cc='' AND mail_date=''", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_table_info('comparisons') WHERE "
				       "name='series_id'", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM series", 0), 0);
		/* and on through 9: where a comparison ran, and its identity anywhere */
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_table_info('comparisons') WHERE "
				       "name IN ('uid', 'host')", 0), 2);
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_table_info('runs') WHERE "
				       "name='host_cpu'", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_index_list('comparisons') WHERE "
				       "name='comparisons_by_uid' AND \"unique\"=1", 0), 1);
		CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE uid IS NULL OR length(uid)<>32", 0), 0);
		db_close(db);
		rm_rf(v6);
		free(v6);
		free(sql);
	}

	/* A version 9 database: its tables made again with the model's
	 * names as CHECKs, rows and indexes kept; a name the model lacks is
	 * refused from then on. One stored with such a name fails the
	 * upgrade, left at 9, and says which. */
	{
		char *v9 = xasprintf("%s/v9.db", dir), *sql = read_file("tests/data/schema-v9.sql", NULL, NULL);
		static const char rows[] =
			"INSERT INTO kernels (id, key, version, tree_sha256, config_sha256, label, reverse, "
			"build_status) VALUES (1, 'k', '6.1.192', 't', 'c', 'base', 0, 'built');"
			"INSERT INTO comparisons (id, kind, pair_method, pair_detail, kernel_without, "
			"kernel_with, accel, workloads, workload_choice, boots_per_kernel, iterations, status, "
			"started_at, finished_at, wall_seconds, perfbot_version, uid) VALUES (1, "
			"'calibration', 'same', '', 1, 1, 'tcg-icount', 'w', 'x', 2, 5, 'measured', 't0', 't1', "
			"1, 'v', 'u1');"
			"INSERT INTO runs (comparison_id, kernel_id, side, boot_index, accel, accel_reason, "
			"qemu_version, qemu_cmdline, outcome, detail, wall_seconds, console_log, results_log) "
			"VALUES (1, 1, 'with', 1, 'tcg-icount', 'r', 'q', 'c', 'boot-panic', 'd', 1, '', '');";
		sqlite3 *old;

		CHECK(sql != NULL);
		for (int bad = 0; bad < 2; bad++) {
			CHECK(sqlite3_open(v9, &old) == SQLITE_OK);
			CHECK(sql && sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
			CHECK(sqlite3_exec(old, rows, NULL, NULL, NULL) == SQLITE_OK);
			if (bad)
				CHECK(sqlite3_exec(old, "UPDATE runs SET outcome='exploded'", NULL, NULL, NULL) ==
				      SQLITE_OK);
			sqlite3_close(old);
			if (bad) {
				CHECK(!db_open(v9, &db, &err));
				CHECK_HAS(err.msg, "CHECK constraint failed");
				CHECK(sqlite3_open(v9, &old) == SQLITE_OK);
				CHECK_INT(db_count(old, "PRAGMA user_version", 0), 9);
				CHECK_INT(db_count(old, "SELECT count(*) FROM runs WHERE outcome='exploded'", 0), 1);
				sqlite3_close(old);
				rm_rf(v9);
				continue;
			}
			CHECK(db_open(v9, &db, &err));
			CHECK_INT(db_count(db, "PRAGMA user_version", 0), DB_SCHEMA_VERSION);
			CHECK_INT(db_count(db, "SELECT count(*) FROM runs r JOIN comparisons c ON c.id="
					       "r.comparison_id JOIN kernels k ON k.id=r.kernel_id WHERE "
					       "r.outcome='boot-panic' AND c.uid='u1'", 0), 1);
			CHECK_INT(db_count(db, "SELECT count(*) FROM sqlite_master WHERE type='index' AND name "
					       "IN ('runs_by_comparison', 'comparisons_by_patch', "
					       "'comparisons_by_uid')", 0), 3);
			CHECK_INT(db_count(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%CHECK (%'",
					   0), 8);
			CHECK_INT(db_count(db, "SELECT count(*) FROM pragma_foreign_key_check", 0), 0);
			CHECK(!db_exec(db, "UPDATE runs SET outcome='exploded'", &err));
			CHECK(!db_exec(db, "UPDATE comparisons SET accel='auto'", &err));
			CHECK(db_exec(db, "UPDATE comparisons SET accel=NULL", &err));
			db_close(db);
			rm_rf(v9);
		}
		free(v9);
		free(sql);
	}

	/* The lock: this process may take it again, another may not. */
	{
		char *lk = xasprintf("%s/locked.db", dir);
		pid_t pid;
		int status = -1;

		CHECK(db_lock(lk, &err));
		CHECK(db_lock(lk, &err));
		pid = fork();
		if (pid == 0) {
			pb_err e2 = { "" };

			_exit(!db_lock(lk, &e2) && strstr(e2.msg, "another perfbot is working on") &&
					      strstr(e2.msg, "pid ")
				      ? 0
				      : 1);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0);
		free(lk);
	}

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
	test_not_ours(dir);
	rm_rf(dir); /* plots/ and the WAL files too */
	free(path);
	free(dir);
}
