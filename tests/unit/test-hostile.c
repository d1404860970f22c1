/* Text perfbot did not write (a patch's subject and author, a guest's
 * console, a compiler's error) reaches the HTML only escaped: a subject
 * with a <script> and an attribute break-out, a panic message with markup. */
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "check.h"
#include "db.h"
#include "fixture.h"
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

void test_hostile(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir), *page = NULL, *index;
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
	f.cmp.boots[0].rec.outcome = BOOT_PANIC;
	free(f.cmp.boots[0].rec.detail);
	f.cmp.boots[0].rec.detail = xstrdup("Kernel panic - not syncing: " HOSTILE);
	f.cmp.image[1].failure = xstrdup("mm/migrate.c:1: error: " HOSTILE);
	compare_compute(&f.cmp);
	CHECK(db_store_comparison(db, &f.cmp, "test", &id, &err));
	CHECK(report_write_patch(db, id, dir, &page, &err));
	if (page)
		check_page(page);
	CHECK(report_write_index(db, &f.queue, dir, &err));
	index = xasprintf("%s/index.html", dir);
	check_page(index);
	free(index);
	free(page);
	db_close(db);
	fixture_free(&f);
	free(path);
	free(dir);
}
