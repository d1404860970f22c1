/* Text perfbot did not write (a patch's subject and author, a guest's
 * console, a compiler's error) reaches the HTML only escaped: a subject
 * with a <script> and an attribute break-out, a panic message with markup. */
#include <fcntl.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "db.h"
#include "fixture.h"
#include "jobdb.h"
#include "report.h"

#define W "PB1 sample hugetlb-migrate "
#define HOSTILE "<script>alert(\"s\")</script> \"><img src=x onerror=alert(1)> & 'q'"

static void check_page(const char *path)
{
	char *html = read_file(path, NULL, NULL);

	CHECK(html != NULL);
	if (!html)
		return;
	CHECK(!strcasestr(html, "<script"));
	CHECK(!strstr(html, "<img src=x"));
	CHECK_HAS(html, "&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;");
	CHECK_HAS(html, "&amp; &#39;q&#39;");
	free(html);
}

/* ... and reaches the terminal only made visible(): no ESC, no C1 control,
 * no newline that would forge a line or a row. */
static void check_visible(void)
{
	pb_err err;
	char *v, buf[8];

	v = visible("a\nb\x1b[31mc\rd\x7f" "e\tf\a");
	CHECK_STR(v, "a\\x0ab\\x1b[31mc\\x0dd\\x7fe\\x09f\\x07");
	free(v);
	v = visible("Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7 \\ plain"); /* UTF-8 is left alone */
	CHECK_STR(v, "Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7 \\ plain");
	free(v);
	/* CSI as a C1 control in UTF-8, a stray byte, overlong, a surrogate, cut short */
	v = visible("\xc2\x9b" "2J \xff \xc0\xaf \xed\xa0\x80 \xe2\x82");
	CHECK_STR(v, "\\xc2\\x9b2J \\xff \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82");
	free(v);
	v = visible_lines("l1\n\tl2\x1b[2J\r\n");
	CHECK_STR(v, "l1\n\tl2\\x1b[2J\\x0d\n");
	free(v);
	v = visible(NULL);
	CHECK_STR(v, "");
	free(v);
	visible_into(buf, sizeof(buf), "abcd\nef"); /* no half escape */
	CHECK_STR(buf, "abcd");
	visible_into(buf, 6, "ab\xc3\xa9\xc3\xa9"); /* no half character */
	CHECK_STR(buf, "ab\xc3\xa9");
	pb_seterr(&err, "--patch '%s': bad", "7\n71");
	CHECK_STR(err.msg, "--patch '7\\x0a71': bad");
}

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static bool raw_controls(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f ||
		    ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] < 0xa0))
			return true;
	return false;
}

/* perfbot list --long of a patch whose sign-offs and subject carry
 * escape sequences; perfbot jobs of a database whose strings do. */
static void check_terminal(void)
{
	char *dir = test_tmpdir(), *qdir = xasprintf("%s/queue", dir), *dbp = xasprintf("%s/r.db", dir);
	char *good = read_file("queue/stable-5.13/009-patch-mm-migrate-fix-missing-update-page-"
			       "private-to-hugetlb-pa.patch", NULL, NULL);
	char *cfgp = test_write(dir, "config.ini", "[queue]\ndir = queue\n[database]\npath = r.db\n");
	char *argv_list[] = { "list", "--long", "--config", cfgp, NULL };
	char *argv_jobs[] = { "jobs", "--config", cfgp, NULL };
	const char *so = "Signed-off-by: Muchun Song <songmuchun@bytedance.com>\n";
	char *at, *out, *patch;
	pb_err err = { "" };
	long long id = 0;
	sqlite3 *db;
	int rc = -1;

	CHECK(good != NULL);
	CHECK(mkdir_p(qdir, &err));
	at = good ? strstr(good, so) : NULL;
	CHECK(at != NULL);
	if (!at)
		goto out;
	patch = xasprintf("%.*sSigned-off-by: Mallory \x1b]0;pwned\x07\x1b[2J <m@x>\n"
			  "Signed-off-by: Eve \xc2\x9b" "31m\r<e@x>\n%s",
			  (int)(at - good), good, at);
	free(test_write(qdir, "771-hostile.patch", patch));
	free(patch);
	out = test_run_command(cmd_list, argv_list, &rc, NULL);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(!raw_controls(out));
	CHECK_HAS(out, "Signed-off-by: Mallory \\x1b]0;pwned\\x07\\x1b[2J <m@x>\n");
	CHECK_HAS(out, "Signed-off-by: Eve \\xc2\\x9b31m\\x0d<e@x>\n");
	free(out);

	CHECK(db_open(dbp, &db, &err));
	CHECK(jobdb_submit(db, qdir, 771, "thp-anon", false, NULL, &id, &err));
	CHECK(sqlite3_exec(db, "UPDATE jobs SET state = 'done', message = 'ok' || char(10) || "
			       "'   2 done     run --patch 765 forged', workloads = 'thp-anon' || "
			       "char(27) || '[2J', log = '/x' || char(13) || char(27) || ']0;t' || char(7)",
			   NULL, NULL, NULL) == SQLITE_OK);
	db_close(db);
	out = test_run_command(cmd_jobs, argv_jobs, &rc, NULL);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(!raw_controls(out));
	CHECK_INT(count_char(out, '\n'), 3); /* the daemon's line, the header, one row */
	CHECK_HAS(out, "ok\\x0a   2 done     run --patch 765 forged (log /x\\x0d\\x1b]0;t\\x07)\n");
	CHECK_HAS(out, "-w thp-anon\\x1b[2J");
	free(out);
out:
	free(good);
	free(cfgp);
	free(qdir);
	free(dbp);
	free(dir);
}

void test_hostile(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir), *page = NULL, *index, *page_name;
	struct fixture f;
	struct pb_patch *p;
	sqlite3 *db;
	long long id = 0;
	pb_err err = { "" };

	CHECK(db_open(path, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n", W "1 migrate_ms 2\n"));
	p = (struct pb_patch *)f.cmp.patch;
	free(p->subject);
	p->subject = xstrdup("mm: " HOSTILE);
	free(p->author);
	p->author = xstrdup("Mallory " HOSTILE);
	free(p->message_id);
	p->message_id = xstrdup("<" HOSTILE ">");
	free(p->cc);
	p->cc = xstrdup("Eve " HOSTILE);
	f.cmp.obs.boots[0].rec.outcome = BOOT_PANIC;
	free(f.cmp.obs.boots[0].rec.detail);
	f.cmp.obs.boots[0].rec.detail = xstrdup("Kernel panic - not syncing: " HOSTILE);
	f.cmp.image[1].failure = xstrdup("mm/migrate.c:1: error: " HOSTILE);
	comparison_compute(&f.cmp);
	CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &id, &err));
	CHECK_INT(db_count(db, "SELECT count(*) FROM patches WHERE message_id LIKE '<%>' AND "
			       "mail_cc LIKE 'Eve %'", 0), 1);
	CHECK(report_write_patch(db, id, dir, &page, &err));
	if (page) {
		char *html = read_file(page, NULL, NULL);

		check_page(page);
		CHECK(html && strstr(html, "<th>Message-ID</th>") && strstr(html, "<th>Cc</th>"));
		free(html);
	}
	CHECK(report_write_index(db, &f.queue, dir, &err));
	index = xasprintf("%s/index.html", dir);
	check_page(index);
	free(index);
	/* the queue's page: the subject again */
	page_name = report_queue_page(f.queue.dir);
	index = xasprintf("%s/%s", dir, page_name);
	check_page(index);
	free(index);
	free(page_name);
	free(page);
	db_close(db);
	fixture_free(&f);
	free(path);
	free(dir);
	check_visible();
	check_terminal();
}
