/* The JSON writer: structure, separators, escaping, invalid UTF-8, numbers;
 * and the documents list, pair and jobs --json print. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "cli.h"
#include "db.h"
#include "jobdb.h"
#include "json.h"

static void check_commands(void);

static char *quoted(const char *s)
{
	pb_str out;

	str_init(&out);
	json_quote(&out, s);
	return str_steal(&out);
}

void test_json(void)
{
	pb_str out;
	struct json j;
	char *s;

	str_init(&out);
	json_init(&j, &out);
	json_object_begin(&j, NULL);
	json_string(&j, "patch", "771");
	json_int(&j, "n", -3);
	json_number(&j, "pct", 4.75);
	json_number(&j, "none", NAN);
	json_number(&j, "whole", 16);
	json_bool(&j, "ok", true);
	json_null(&j, "nothing");
	json_array_begin(&j, "empty");
	json_array_end(&j);
	json_array_begin(&j, "list");
	json_int(&j, NULL, 1);
	json_object_begin(&j, NULL);
	json_string(&j, "k", NULL);
	json_object_end(&j);
	json_array_end(&j);
	json_object_end(&j);
	CHECK_STR(out.buf, "{\n  \"patch\": \"771\",\n  \"n\": -3,\n  \"pct\": 4.75,\n  \"none\": null,\n"
			   "  \"whole\": 16,\n  \"ok\": true,\n  \"nothing\": null,\n  \"empty\": [],\n"
			   "  \"list\": [\n    1,\n    {\n      \"k\": null\n    }\n  ]\n}\n");
	str_free(&out);

	s = quoted("a\"b\\c\nd\te\x01");
	CHECK_STR(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(s);
	/* UTF-8 passes; a stray byte, an overlong form and a cut character do not */
	s = quoted("M\xc3\xbcller \xff \xc0\xaf \xe2\x82");
	CHECK_STR(s, "\"M\xc3\xbcller \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\"");
	free(s);
	s = quoted("\xed\xa0\x80"); /* a surrogate */
	CHECK_STR(s, "\"\\ufffd\\ufffd\\ufffd\"");
	free(s);
	check_commands();
}

/* The documents of list, pair and jobs --json, from a queue written here:
 * a subject with a quote, a backslash and a byte that is not UTF-8, a
 * patch that applies, one already in the base, one that applies nowhere,
 * paired on a tiny kernel tarball; and a database with two jobs. */

/* [PATCH 6.1 N/4] subject, line at of mm/a.c ("line N" of 40) from old to new */
static void write_patch(const char *dir, int n, const char *subject, int at, const char *old,
			const char *new)
{
	char *name = xasprintf("%03d.patch", n);
	char *text = xasprintf("From: Test <t@example.org>\nSubject: [PATCH 6.1 %03d/4] %s\n\n"
			       "Fixes: 0123456789ab (\"mm: the bug\")\n"
			       "Signed-off-by: Test <t@example.org>\n---\n"
			       "--- a/mm/a.c\n+++ b/mm/a.c\n@@ -%d,7 +%d,7 @@\n"
			       " line %d\n line %d\n line %d\n-%s\n+%s\n line %d\n line %d\n line %d\n",
			       n, subject, at - 3, at - 3, at - 3, at - 2, at - 1, old, new, at + 1,
			       at + 2, at + 3);

	free(test_write(dir, name, text));
	free(text);
	free(name);
}

/* dir/linux.tar.xz: a 6.1.0 "kernel" of a Makefile and mm/a.c, whose line
 * 30 is patch 002's already. */
static bool write_tarball(const char *dir)
{
	char *top = xasprintf("%s/linux-6.1/mm", dir);
	char *argv[] = { "tar", "cJf", "linux.tar.xz", "linux-6.1", NULL };
	struct spawn_opts o = { .cwd = dir };
	struct spawn_result r;
	pb_err err = { "" };
	pb_str a;
	bool ok;

	str_init(&a);
	for (int i = 1; i <= 40; i++)
		str_addf(&a, i == 30 ? "line thirty\n" : "line %d\n", i);
	ok = mkdir_p(top, &err);
	free(test_write(top, "a.c", a.buf));
	*strrchr(top, '/') = '\0';
	free(test_write(top, "Makefile", "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n"));
	ok = ok && spawn_wait(argv, &o, &r) && r.status == 0;
	str_free(&a);
	free(top);
	return ok;
}

#define HOSTILE_SUBJECT "mm: a \"quoted\" back\\slash \xff fix"
#define HOSTILE_JSON "\"subject\": \"mm: a \\\"quoted\\\" back\\\\slash \\ufffd fix\""

static void check_list_json(const char *cfg, const char *qdir)
{
	char *argv[] = { "list", "--json", "--config", (char *)cfg, "--queue", (char *)qdir, NULL };
	char *mm[] = { "list", "--json", "--mm", "--long", "--config", (char *)cfg, "--queue",
		       (char *)qdir, NULL };
	char *err, *out, *want;
	int rc = -1;

	out = test_run_command(cmd_list, argv, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_STR(err, "");
	CHECK(out[0] == '{');
	want = xasprintf("\"queue\": \"%s\",\n  \"description\": null,\n  \"patches\": [\n", qdir);
	CHECK_HAS(out, want);
	free(want);
	CHECK_HAS(out, "\"number\": 1,\n      \"label\": \"001\",\n      " HOSTILE_JSON);
	CHECK_HAS(out, "\"series\": \"6.1\",\n      \"total\": 4,\n");
	CHECK_HAS(out, "\"author\": \"Test <t@example.org>\",\n      \"upstream\": null,\n"
		       "      \"cc_stable\": false,\n      \"is_mm\": true,\n      \"mm_reason\": \"mm/a.c\"");
	CHECK_HAS(out, "\"files\": [\n        {\n          \"path\": \"mm/a.c\",\n"
		       "          \"added\": 1,\n          \"removed\": 1\n        }\n      ],\n");
	CHECK_HAS(out, "\"fixes\": [\n        \"0123456789ab (\\\"mm: the bug\\\")\"\n      ]");
	CHECK_HAS(out, "\"message_id\": null");
	CHECK_HAS(out, "\"label\": \"003\"");
	CHECK_HAS(out, "\"label\": \"004\"");
	CHECK(!strstr(out, "NUM/TOTAL") && !strstr(out, "\xff"));
	free(out);
	free(err);

	/* --mm leaves 004 out; --long changes nothing */
	out = test_run_command(cmd_list, mm, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(out[0] == '{');
	CHECK_HAS(out, "\"label\": \"003\"");
	CHECK(!strstr(out, "\"label\": \"004\""));
	free(out);
	free(err);
}

static void check_pair_json(const char *cfg, const char *qdir, const char *series_dir)
{
	char *argv[] = { "pair", "--json", "--config", (char *)cfg, "--queue", (char *)qdir, NULL };
	char *one[] = { "pair", "--json", "-p", "2", "--config", (char *)cfg, "--queue", (char *)qdir,
			NULL };
	char *series[] = { "pair", "--json", "--series", "--config", (char *)cfg, "--queue",
			   (char *)series_dir, NULL };
	char *broken[] = { "pair", "--json", "--series", "--config", (char *)cfg, "--queue",
			   (char *)qdir, NULL };
	char *err, *out, *want;
	int rc = -1;

	/* every mm patch: 003 forms no pair, the status says so */
	out = test_run_command(cmd_pair, argv, &rc, &err);
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK(out[0] == '[');
	CHECK(!strstr(err, "003")); /* its error is in the document */
	want = xasprintf("\"patch\": 1,\n    \"label\": \"001\",\n    \"method\": \"forward\",\n"
			 "    \"detail\": \"applies forward to 6.1.0: clean\",\n    \"summary\": null,\n"
			 "    \"without\": {\n      \"label\": \"base\",\n      \"applied\": []\n    },\n"
			 "    \"with\": {\n      \"label\": \"base+patch\",\n      \"applied\": [\n"
			 "        {\n          \"file\": \"%s/001.patch\",\n          \"reverse\": false,\n",
			 qdir);
	CHECK_HAS(out, want);
	free(want);
	CHECK_HAS(out, "\"patch\": 1\n        }\n      ]\n    },\n    \"error\": null\n  },");
	CHECK_HAS(out, "\"label\": \"002\",\n    \"method\": \"reverse\"");
	CHECK_HAS(out, "\"without\": {\n      \"label\": \"base-patch\"");
	CHECK_HAS(out, "\"reverse\": true");
	CHECK_HAS(out, "\"label\": \"003\",\n    \"method\": null,\n    \"detail\": null,\n"
		       "    \"summary\": null,\n    \"without\": null,\n    \"with\": null,\n"
		       "    \"error\": \"patch 003 applies neither forward nor in reverse");
	CHECK(!strstr(out, "\"004\"")); /* not mm */
	CHECK(out[strlen(out) - 2] == ']');
	free(out);
	free(err);

	/* --patch N: that one alone */
	out = test_run_command(cmd_pair, one, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(out[0] == '[');
	CHECK_HAS(out, "\"label\": \"002\"");
	CHECK(!strstr(out, "\"001\""));
	free(out);
	free(err);

	/* --series: one object, the series by its name */
	out = test_run_command(cmd_pair, series, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(out[0] == '[');
	CHECK_HAS(out, "\"patch\": null,\n    \"label\": \"one\",\n    \"method\": \"forward\"");
	CHECK_HAS(out, "\"summary\": \"1 patch: 001 (forward)\"");
	CHECK_HAS(out, "\"label\": \"base+series\"");
	free(out);
	free(err);

	/* a series that forms no pair: its one line on stderr, no document */
	out = test_run_command(cmd_pair, broken, &rc, &err);
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK_STR(out, "");
	CHECK_HAS(err, "perfbot: series: patch 002");
	free(out);
	free(err);
}

static void check_jobs_json(const char *cfg, const char *dbp)
{
	char *argv[] = { "jobs", "--json", "--config", (char *)cfg, "--db", (char *)dbp, NULL };
	char *out, *err;
	pb_err e = { "" };
	long long id = 0;
	sqlite3 *db;
	int rc = -1;

	/* no database yet: no jobs, and none is made */
	out = test_run_command(cmd_jobs, argv, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_STR(out, "[]\n");
	CHECK(!path_exists(dbp));
	free(out);
	free(err);

	CHECK(db_open(dbp, &db, &e));
	CHECK(jobdb_submit(db, "/q", 771, "thp-anon zswap", true, "run.boots=3\nrun.seed=7", &id, &e));
	CHECK(jobdb_submit(db, "/q", 765, "", false, NULL, &id, &e));
	CHECK(sqlite3_exec(db, "UPDATE jobs SET state = 'failed', finished_at = 'then', exit_status = 1, "
			       "attempts = 1, message = 'it \"broke\" \\ here' || char(10) || CAST(x'ff' AS TEXT) "
			       "WHERE id = 1", NULL, NULL, NULL) == SQLITE_OK);
	db_close(db);
	out = test_run_command(cmd_jobs, argv, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(out[0] == '[');
	CHECK(!strstr(out, "perfbotd:"));
	CHECK_HAS(out, "\"id\": 1,\n    \"state\": \"failed\",\n    \"kind\": \"run\",\n"
		       "    \"command\": \"run --patch 771 -w thp-anon zswap -f\",\n"
		       "    \"queue\": \"/q\",\n    \"patch\": 771,\n"
		       "    \"workloads\": [\n      \"thp-anon\",\n      \"zswap\"\n    ],\n"
		       "    \"force\": true,\n"
		       "    \"settings\": [\n      \"run.boots=3\",\n      \"run.seed=7\"\n    ],\n");
	CHECK_HAS(out, "\"started_at\": null,\n    \"finished_at\": \"then\",\n    \"attempts\": 1,\n"
		       "    \"boots\": 0,\n    \"pid\": null,\n    \"exit_status\": 1,\n"
		       "    \"comparison_id\": null,\n"
		       "    \"message\": \"it \\\"broke\\\" \\\\ here\\n\\ufffd\",\n    \"log\": null\n");
	CHECK_HAS(out, "\"id\": 2,\n    \"state\": \"queued\"");
	CHECK_HAS(out, "\"workloads\": [],\n    \"force\": false,\n    \"settings\": [],\n");
	CHECK_HAS(out, "\"exit_status\": null");
	free(out);
	free(err);
}

static void check_commands(void)
{
	char *dir = test_tmpdir(), *qdir = xasprintf("%s/queue", dir), *sdir = xasprintf("%s/one", dir);
	char *dbp = xasprintf("%s/r.db", dir), *cfg;
	pb_err err = { "" };

	CHECK(mkdir_p(qdir, &err) && mkdir_p(sdir, &err));
	CHECK(write_tarball(dir));
	cfg = xasprintf("[kernel]\nsource = %s/linux.tar.xz\n[cache]\ndir = %s/cache\n", dir, dir);
	free(test_write(dir, "config.ini", cfg));
	free(cfg);
	cfg = xasprintf("%s/config.ini", dir);
	write_patch(qdir, 1, HOSTILE_SUBJECT, 20, "line 20", "line twenty");
	write_patch(qdir, 2, "mm: already in the base", 30, "line 30", "line thirty");
	write_patch(qdir, 3, "mm: applies nowhere", 10, "line ten", "line TEN");
	write_patch(sdir, 1, HOSTILE_SUBJECT, 20, "line 20", "line twenty");
	{
		/* 004: not mm */
		char *text = xasprintf("From: Test <t@example.org>\nSubject: [PATCH 6.1 004/4] doc: x\n\n"
				       "Signed-off-by: Test <t@example.org>\n---\n--- a/doc/x\n+++ b/doc/x\n"
				       "@@ -1 +1 @@\n-a\n+b\n");

		free(test_write(qdir, "004.patch", text));
		free(text);
	}
	check_list_json(cfg, qdir);
	check_pair_json(cfg, qdir, sdir);
	check_jobs_json(cfg, dbp);
	rm_rf(dir);
	free(cfg);
	free(dbp);
	free(sdir);
	free(qdir);
	free(dir);
}
