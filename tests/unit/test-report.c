/* The HTML report on a small database built here: where each page is
 * (nothing of one queue overwrites another's), the index of every queue,
 * the trend across base versions, the links, the crash banner and the
 * reproduce section. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "db-report.h"
#include "db.h"
#include "fixture.h"
#include "patch-view.h"
#include "report.h"

#define W "PB1 sample hugetlb-migrate "
#define OTHER_QUEUE "/elsewhere/stable-5.13"

/* dir/name's text ("" if it cannot be read). */
static char *page_text(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL, NULL);

	free(path);
	return text ? text : xstrdup("");
}

/* The fixture's comparison stored again, as of queue, finished at when. */
static long long store_as(sqlite3 *db, struct fixture *f, const char *queue, const char *when)
{
	const char *keep = f->cmp.queue_dir;
	long long id = 0;
	pb_err err = { "" };

	free(f->cmp.finished_at);
	f->cmp.finished_at = xstrdup(when);
	f->cmp.queue_dir = queue;
	CHECK(db_store_comparison(db, &f->cmp, "test", NULL, &id, &err));
	if (err.msg[0])
		fprintf(stderr, "store: %s\n", err.msg);
	f->cmp.queue_dir = keep;
	return id;
}

/* Page names: a queue's patch by the queue and its label, two queues of
 * one name apart, a patch of its own by its identity. */
static void check_page_names(void)
{
	char *a = report_patch_page("/srv/a/stable-5.13", 771, "331a264fdc689d89f4b1"),
	     *b = report_patch_page("/srv/b/stable-5.13", 771, "331a264fdc689d89f4b1"),
	     *a2 = report_patch_page("/srv/a/stable-5.13/", 771, "ffff"),
	     *qa = report_queue_page("/srv/a/stable-5.13"), *own = report_patch_page("/x", 0,
										"331a264fdc689d89f4b1"),
	     *own2 = report_patch_page("", 0, "331a264fdc689d89f4b1"),
	     *odd = report_queue_page("/q/a b<c>&\"d.mbox"), *empty = report_queue_page("");
	struct patch_page_row r = { .number = 5, .queue = "/srv/a/stable-5.13", .sha256 = "ab",
				    .kind = KIND_PATCH };
	char *ra;

	CHECK(starts_with(a, "queue-stable-5.13-") && ends_with(a, "-771.html"));
	CHECK_INT(strlen(a), strlen("queue-stable-5.13-12345678-771.html"));
	CHECK(strcmp(a, b) != 0);
	/* the key is the path as stored: the same path, the same page, run
	 * after run; the name without a trailing slash */
	CHECK(starts_with(a2, "queue-stable-5.13-") && ends_with(a2, "-771.html"));
	free(a2);
	a2 = report_patch_page("/srv/a/stable-5.13", 771, "ffff");
	CHECK_STR(a2, a);
	/* a queue's patch pages start with its page's name */
	CHECK_INT(strncmp(a, qa, strlen(qa) - 5), 0);
	CHECK(ends_with(qa, ".html") && strchr(qa, '/') == NULL);
	CHECK_STR(own, "patch-331a264fdc68.html");
	CHECK_STR(own2, own);
	CHECK(starts_with(odd, "queue-a_b_c___d.mbox-"));
	CHECK(starts_with(empty, "queue-q-"));
	ra = report_page_of(&r);
	CHECK(starts_with(ra, "queue-stable-5.13-") && ends_with(ra, "-005.html"));
	free(ra);
	r.kind = KIND_SERIES;
	r.series_name = "5.13.2-rc1";
	r.series_queue = r.queue;
	r.queue = NULL;
	ra = report_page_of(&r);
	/* a series' page by its name and its queue's path: a queue directory
	 * and the review mbox of the same -rc are two pages */
	CHECK(starts_with(ra, "series-5.13.2-rc1-") && ends_with(ra, ".html"));
	CHECK_INT(strlen(ra), strlen("series-5.13.2-rc1-12345678.html"));
	CHECK_INT(strncmp(ra + strlen("series-5.13.2-rc1-"), qa + strlen("queue-stable-5.13-"), 8), 0);
	{
		char *mbox = report_series_page("/srv/a/5.13.2-rc1.mbox", "5.13.2-rc1"),
		     *odd_name = report_series_page("/q", "a/b");

		CHECK(strcmp(mbox, ra) != 0 && starts_with(mbox, "series-5.13.2-rc1-"));
		CHECK(starts_with(odd_name, "series-a_b-") && strchr(odd_name, '/') == NULL);
		free(mbox);
		free(odd_name);
	}
	free(ra);
	free(a);
	free(b);
	free(a2);
	free(qa);
	free(own);
	free(own2);
	free(odd);
	free(empty);
}

static char *linkified(const char *text)
{
	pb_str s;

	str_init(&s);
	html_linkify(&s, text);
	return s.buf ? str_steal(&s) : xstrdup("");
}

#define SHA "6acfb5ba150cf75005ce85e0e25d79ef2fec287c"

/* URLs of a patch's text are links, escaped; nothing else is. */
static void check_links(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "Link: https://lkml.kernel.org/r/20210521022747.35736-1-songmuchun@bytedance.com\n",
		  "Link: <a href=\"https://lkml.kernel.org/r/20210521022747.35736-1-songmuchun@bytedance.com\">"
		  "https://lkml.kernel.org/r/20210521022747.35736-1-songmuchun@bytedance.com</a>\n" },
		/* the query's & escaped; the URL ends where HTML markup would start */
		{ "see https://a.org/x?a=1&b=<2>.", "see <a href=\"https://a.org/x?a=1&amp;b=\">"
		  "https://a.org/x?a=1&amp;b=</a>&lt;2&gt;." },
		{ "(http://a.org/b_(c)), end.", "(<a href=\"http://a.org/b_(c)\">http://a.org/b_(c)</a>), end." },
		{ "x https://a.org/\"onmouseover=alert(1)", "x <a href=\"https://a.org/\">https://a.org/</a>"
		  "&quot;onmouseover=alert(1)" },
		{ "javascript:alert(1) data:text/html,x ftp://a.org", "javascript:alert(1) data:text/html,x "
		  "ftp://a.org" },
		{ "xhttps://a.org https:// http://.", "xhttps://a.org https:// http://." },
		{ "commit " SHA " upstream.\n", "commit <a href=\"https://git.kernel.org/linus/" SHA "\">" SHA
		  "</a> upstream.\n" },
		{ "a\n[ Upstream commit " SHA " ]\n", "a\n[ Upstream commit <a href=\"https://git.kernel.org/"
		  "linus/" SHA "\">" SHA "</a> ]\n" },
		/* not a stable patch's upstream line: left alone */
		{ "+ commit " SHA " upstream", "+ commit " SHA " upstream" },
		{ "commit " SHA "\n", "commit " SHA "\n" },
		{ "", "" },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *out = linkified(cases[i].in);

		CHECK_STR(out, cases[i].out);
		free(out);
	}
	{
		pb_str s;

		str_init(&s);
		html_linkify(&s, NULL);
		CHECK_INT(s.len, 0);
		str_free(&s);
	}
}

/* Two queues with a patch 771 each, a patch of its own and a series: every
 * one has its page, the index lists them all by queue, newest first. */
static void check_index(sqlite3 *db, struct fixture *f, const char *dir)
{
	struct pb_patch *p = (struct pb_patch *)f->cmp.patch;
	char *mine = report_patch_page(f->queue.dir, 771, p->sha256);
	char *other = report_patch_page(OTHER_QUEUE, 771, p->sha256);
	char *own = report_patch_page("", 0, p->sha256), *qmine = report_queue_page(f->queue.dir);
	char *qother = report_queue_page(OTHER_QUEUE), *html, *a, *b;
	int pages = 0;
	pb_err err = { "" };

	store_as(db, f, f->queue.dir, "2026-12-03T00:01:00Z");
	store_as(db, f, OTHER_QUEUE, "2026-12-04T00:01:00Z");
	p->number = 0;
	store_as(db, f, "/home/dev", "2026-12-02T00:01:00Z");
	p->number = 771;
	CHECK(report_write_all(db, &f->queue, dir, &pages, &err));
	CHECK_STR(err.msg, "");
	CHECK_INT(pages, 3);
	CHECK(strcmp(mine, other) != 0);
	CHECK_HAS(own, "patch-");
	html = page_text(dir, mine);
	CHECK_HAS(html, "<h1>Patch 771: ");
	/* back to the index and to its queue; its text's links */
	a = xasprintf("<p><a href=\"index.html\">All queues</a> &middot; <a href=\"%s\">queue "
		      "stable-5.13</a></p>", qmine);
	CHECK_HAS(html, a);
	free(a);
	CHECK_HAS(html, "<a href=\"https://lkml.kernel.org/r/20210521022747.35736-1-songmuchun@"
			"bytedance.com\">");
	CHECK_HAS(html, "<tr><th>upstream commit</th><td><a href=\"https://git.kernel.org/linus/");
	free(html);
	html = page_text(dir, other);
	CHECK_HAS(html, "<h1>Patch 771: ");
	free(html);
	html = page_text(dir, own);
	{
		char label[PATCH_LABEL_SIZE], *h1;

		h1 = xasprintf("<h1>Patch %s: ", patch_label(label, 0, p->sha256));
		CHECK_HAS(html, h1);
		free(h1);
	}
	CHECK_HAS(html, "<p><a href=\"index.html\">All queues</a> &middot; <a href=\"index.html#own\">"
			"Patches on their own</a></p>");
	free(html);

	/* the index: both queues, the newest first, each linked to its page,
	 * each patch to its own; the patches on their own apart */
	html = page_text(dir, "index.html");
	a = xasprintf("<h2><a href=\"%s\">stable-5.13</a></h2>", qother);
	b = xasprintf("<h2><a href=\"%s\">stable-5.13</a></h2>", qmine);
	CHECK(strstr(html, a) && strstr(html, b) && strstr(html, a) < strstr(html, b));
	free(a);
	free(b);
	a = xasprintf("<a href=\"%s\">771</a>", mine);
	b = xasprintf("<a href=\"%s\">771</a>", other);
	CHECK_HAS(html, a);
	CHECK_HAS(html, b);
	free(a);
	free(b);
	CHECK_HAS(html, "(the queue loaded now)");
	CHECK_HAS(html, "11 patches: 1 measured, 7 skipped as not mm.");
	CHECK_HAS(html, "<h2 id=\"own\">Patches on their own</h2>");
	a = xasprintf("<a href=\"%s\">%.12s</a></td><td>mm: migrate: fix missing", own, p->sha256);
	CHECK_HAS(html, a);
	free(a);
	CHECK_HAS(html, "2 queues with 2 measured patches, and 1 patch on its own");
	CHECK_HAS(html, "hugetlb-migrate: behaviour change");
	/* what only the queue's page shows: the patches not measured */
	CHECK(!strstr(html, "skipped: not an mm patch"));
	free(html);

	/* the loaded queue's page: every patch of it; the other's: what the
	 * database holds */
	html = page_text(dir, qmine);
	CHECK_HAS(html, "skipped: not an mm patch");
	CHECK_HAS(html, "not measured yet");
	CHECK_INT(test_occurrences(html, "<tr>"), 1 + 11);
	CHECK_HAS(html, "<a href=\"index.html\">All queues</a>");
	free(html);
	html = page_text(dir, qother);
	CHECK_HAS(html, "1 patch measured (this queue is not the one loaded");
	CHECK_INT(test_occurrences(html, "<tr>"), 1 + 1);
	CHECK_HAS(html, "d6995da31122"); /* its Fixes:, from the database */
	free(html);
	free(mine);
	free(other);
	free(own);
	free(qmine);
	free(qother);
}

/* The base kernel across its versions: the median per version, the
 * versions in their order (6.1.20 before 6.1.192), never two accelerators
 * in one plot. */
static void check_trend_versions(sqlite3 *db, struct fixture *f, const char *dir)
{
	const char *texts[4] = { W "1 migrate_ms 1\n", W "1 migrate_ms 5\n", W "1 migrate_ms 1\n",
				 W "1 migrate_ms 7\n" };
	const enum side sides[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };
	char *html, *v20, *v192;
	pb_err err = { "" };

	free(f->tree.version);
	f->tree.version = xstrdup("6.1.20");
	snprintf(f->cmp.image[0].key, sizeof(f->cmp.image[0].key), "key0-v20");
	snprintf(f->cmp.image[1].key, sizeof(f->cmp.image[1].key), "key1-v20");
	CHECK(fixture_set_boots(f, 4, texts, sides));
	store_as(db, f, f->queue.dir, "2026-12-05T00:01:00Z");
	/* the same base under kvm: a plot of its own */
	f->cmp.accel.kind = ACCEL_KVM;
	store_as(db, f, f->queue.dir, "2026-12-05T00:02:00Z");
	f->cmp.accel.kind = ACCEL_TCG_ICOUNT;
	free(f->tree.version);
	f->tree.version = xstrdup("6.1.192");
	snprintf(f->cmp.image[0].key, sizeof(f->cmp.image[0].key), "key0");
	snprintf(f->cmp.image[1].key, sizeof(f->cmp.image[1].key), "key1");

	CHECK(report_write_trend(db, dir, &err));
	CHECK_STR(err.msg, "");
	html = page_text(dir, "trend.html");
	CHECK_HAS(html, "<h2>Across base kernel versions</h2>");
	CHECK_HAS(html, "<img src=\"plots/trend-version-tcg-icount-hugetlb-migrate-migrate_ms.svg\"");
	CHECK_HAS(html, "<img src=\"plots/trend-version-kvm-hugetlb-migrate-migrate_ms.svg\"");
	v20 = strstr(html, "<td>tcg-icount</td><td>hugetlb-migrate migrate_ms</td><td>6.1.20</td>"
			   "<td class=\"num\">6</td><td>ms</td><td class=\"num\">1</td>");
	v192 = strstr(html, "<td>tcg-icount</td><td>hugetlb-migrate migrate_ms</td><td>6.1.192</td>"
			    "<td class=\"num\">2</td><td>ms</td><td class=\"num\">3</td>");
	CHECK(v20 && v192 && v20 < v192);
	/* kvm's own row: its one comparison on 6.1.20, nothing of tcg-icount */
	CHECK_HAS(html, "<td>kvm</td><td>hugetlb-migrate migrate_ms</td><td>6.1.20</td>"
			"<td class=\"num\">6</td><td>ms</td><td class=\"num\">1</td>");
	CHECK(!strstr(html, "<td>kvm</td><td>hugetlb-migrate migrate_ms</td><td>6.1.192</td>"));
	CHECK_HAS(html, "<a href=\"index.html\">");
	{
		char *svg = xasprintf("%s/plots/trend-version-tcg-icount-hugetlb-migrate-migrate_ms.svg", dir);

		CHECK(path_exists(svg));
		free(svg);
	}
	free(html);
}

#define OOPS "[    0.390281] kernel BUG at ../work/mm/vmscan.c:7562!\n" \
	     "[    0.390291] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n" \
	     "[    0.390303] RIP: 0010:kswapd_init+0x0/0x2 <f0> & co\n" \
	     "[    0.390592] ---[ end trace 0000000000000000 ]---\n" \
	     "[    0.390601] RIP: 0010:kswapd_init+0x0/0x2 <f0> & co\n" \
	     "[    0.390765] Kernel panic - not syncing: Fatal exception\n"

/* A kernel that BUG()s: the banner at the top names the BUG line, the
 * boots and their kernel, links their console logs, and prints the oops
 * once (for every boot that hit it, and without the registers the kernel
 * prints again after the trace); a page without a failed boot has none. */
static void check_crash(sqlite3 *db, struct fixture *f, const char *dir)
{
	char *page = report_patch_page(f->queue.dir, 771, f->cmp.patch->sha256), *html, *li;
	char *log = xasprintf("%s/logs/771-x/boot01-without.console.log", dir);
	char *before = page_text(dir, page);
	struct boot *b = f->cmp.obs.boots;
	long long id;
	pb_err err = { "" };

	CHECK_HAS(before, "<h1>Patch 771");
	CHECK(!strstr(before, "id=\"crash\""));
	free(before);
	free(page);
	for (int i = 0; i < 3; i += 2) {
		b[i].rec.outcome = BOOT_PANIC;
		free(b[i].rec.detail);
		b[i].rec.detail = xstrdup(OOPS);
	}
	free(b[0].rec.console_log);
	b[0].rec.console_log = xstrdup(log);
	b[1].rec.outcome = BOOT_TIMEOUT;
	free(b[1].rec.detail);
	b[1].rec.detail = xstrdup("no \"PB1 done\" within 600 s");
	/* and the kernel with the fix failed to build (a test's mix: both
	 * banners) */
	f->cmp.image[1].failure = xstrdup("mm/vmscan.c:1: error: <oops>");
	snprintf(f->cmp.image[1].key, sizeof(f->cmp.image[1].key), "keyC1");
	comparison_compute(&f->cmp);
	id = store_as(db, f, f->queue.dir, "2026-12-06T00:00:00Z");
	free(f->cmp.image[1].failure);
	f->cmp.image[1].failure = NULL;
	snprintf(f->cmp.image[1].key, sizeof(f->cmp.image[1].key), "key1");
	CHECK(report_write_patch(db, id, dir, &page, &err));
	html = read_file(page, NULL, NULL);
	CHECK_HAS(html, "<div id=\"crash\">\n<h2 class=\"bad\">kernel BUG at ../work/mm/vmscan.c:7562!</h2>");
	li = xasprintf("<li>boot 1, the kernel without the fix (base+port): boot-panic; <a href=\"logs/"
		       "771-x/boot01-without.console.log\">its console log</a></li>");
	CHECK_HAS(html, li);
	free(li);
	CHECK_HAS(html, "<li>boot 3, the kernel without the fix (base+port): boot-panic; "
			"/nonexistent/boot2.console.log</li>");
	CHECK_HAS(html, "<h2 class=\"bad\">no &quot;PB1 done&quot; within 600 s</h2>\n<ul>\n<li>boot 2, "
			"the kernel with the fix (base): timeout;");
	/* the oops once, escaped; the boots table names it in its line */
	CHECK_INT(test_occurrences(html, "invalid opcode"), 1);
	CHECK_INT(test_occurrences(html, "kswapd_init+0x0/0x2 &lt;f0&gt; &amp; co"), 1);
	/* the registers the kernel prints again after the end of the trace: once */
	CHECK_HAS(html, "---[ end trace 0000000000000000 ]---\n(1 line printed again, as above)\n"
			"[    0.390765] Kernel panic - not syncing: Fatal exception\n</pre>");
	CHECK_INT(test_occurrences(html, "kernel BUG at ../work/mm/vmscan.c:7562! <a href=\"#crash\">(above)</a>"), 2);
	/* at the top: under the heading, the build's banner first, above
	 * the table of the comparison, the plots and the tables */
	CHECK_HAS(html, "</p>\n<h2 class=\"bad\">The kernel with the fix failed to build</h2>\n<pre>"
			"mm/vmscan.c:1: error: &lt;oops&gt;</pre>\n<div id=\"crash\">");
	CHECK(strstr(html, "<h1>") < strstr(html, "id=\"crash\""));
	CHECK(strstr(html, "id=\"crash\"") < strstr(html, "<tr><th>author</th>"));
	CHECK(strstr(html, "id=\"crash\"") < strstr(html, "<h2>Timing"));
	free(html);
	free(page);
	free(log);
	for (int i = 0; i < 3; i++) {
		b[i].rec.outcome = BOOT_OK;
		free(b[i].rec.detail);
		b[i].rec.detail = xstrdup("");
	}
	comparison_compute(&f->cmp);
}

/* The reproduce section: the command with its seed, perfbot's version,
 * each kernel's .config copied from the kernel cache into the report (or
 * why not), a boot's QEMU and guest command lines of each side. */
static void check_reproduce(sqlite3 *db, struct fixture *f, const char *dir)
{
	char *cache = xasprintf("%s/cache/kernels/keyR0", dir), *cfg = xasprintf("%s/config", cache);
	char *report = xasprintf("%s/rep", dir), *page = NULL, *html, *copy, *text;
	struct boot *b = f->cmp.obs.boots;
	long long id;
	pb_err err = { "" };

	CHECK(mkdir_p(cache, &err));
	free(test_write(cache, "config", "CONFIG_MMU=y\n# <not html>\n"));
	free(f->cmp.image[0].log);
	f->cmp.image[0].log = xasprintf("%s/build.log", cache);
	free(f->cmp.image[1].log);
	f->cmp.image[1].log = xasprintf("%s/cache/kernels/keyR1/build.log", dir);
	snprintf(f->cmp.image[0].key, sizeof(f->cmp.image[0].key), "keyR0");
	snprintf(f->cmp.image[1].key, sizeof(f->cmp.image[1].key), "keyR1");
	for (int i = 0; i < f->cmp.obs.nboots; i++) {
		free(b[i].rec.qemu_cmdline);
		b[i].rec.qemu_cmdline = xasprintf("qemu-system-x86_64 -m 1024 -kernel /c/%d/bzImage -append "
						  "console=ttyS0 panic=-1 it's<%d> -serial file:/l/%d.log "
						  "-serial file:/l/%d.r.log", i, i, i, i);
	}
	f->cmp.seed = 4242;
	id = store_as(db, f, f->queue.dir, "2026-12-07T00:00:00Z");
	CHECK(report_write_patch(db, id, report, &page, &err));
	CHECK_STR(err.msg, "");
	html = read_file(page, NULL, NULL);
	CHECK_HAS(html, "<h2>Reproduce</h2>");
	CHECK_HAS(html, "<tr><th>command</th><td><pre>perfbot run --patch 771 --queue queue/stable-5.13 "
			"-c run.seed=4242 -c qemu.accel=tcg-icount");
	CHECK_HAS(html, "<tr><th>perfbot version</th><td>test</td></tr>");
	/* the kernel without the fix: copied, linked; the other: gone */
	CHECK_HAS(html, "<tr><th>.config of the kernel without the fix (base+port)</th><td><a href=\""
			"configs/keyR0.config\">configs/keyR0.config</a> (kernel base+port, key keyR0)</td></tr>");
	copy = xasprintf("%s/configs/keyR0.config", report);
	text = read_file(copy, NULL, NULL);
	CHECK_STR(text, "CONFIG_MMU=y\n# <not html>\n");
	free(text);
	free(copy);
	CHECK_HAS(html, "<tr><th>.config of the kernel with the fix (base)</th><td>not found: the kernel "
			"cache no longer holds ");
	/* the first boot of each side: its QEMU line, the -append quoted */
	CHECK_HAS(html, "<tr><th>QEMU, the first boot of the kernel without the fix (base+port)</th><td><pre>"
			"qemu-system-x86_64 -m 1024 -kernel /c/0/bzImage -append &#39;console=ttyS0 panic=-1 "
			"it&#39;\\&#39;&#39;s&lt;0&gt;&#39; -serial file:/l/0.log -serial file:/l/0.r.log</pre>");
	CHECK_HAS(html, "<tr><th>guest kernel command line, the kernel with the fix (base)</th><td><pre>"
			"console=ttyS0 panic=-1 it&#39;s&lt;1&gt;</pre></td></tr>");
	CHECK(!strstr(html, "/c/2/bzImage"));
	free(html);
	free(page);

	/* the cache cleaned: the copy made before stays linked */
	CHECK(rm_rf(cache));
	CHECK(report_write_patch(db, id, report, &page, &err));
	html = read_file(page, NULL, NULL);
	CHECK_HAS(html, "<a href=\"configs/keyR0.config\">");
	free(html);
	free(page);

	/* older rows: no build log recorded, no boot stored */
	CHECK(db_exec(db, "UPDATE kernels SET build_log=NULL WHERE key='keyR1'", &err));
	CHECK(db_exec(db, "DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE "
			  "comparison_id=(SELECT max(id) FROM comparisons)); DELETE FROM runs WHERE "
			  "comparison_id=(SELECT max(id) FROM comparisons)", &err));
	CHECK(report_write_patch(db, id, report, &page, &err));
	html = read_file(page, NULL, NULL);
	CHECK_HAS(html, "<tr><th>.config of the kernel with the fix (base)</th><td>not found: the "
			"database does not say where the kernel was built</td></tr>");
	CHECK_HAS(html, "<tr><th>QEMU</th><td>nothing was booted</td></tr>");
	free(html);
	free(page);
	for (int s = 0; s < 2; s++) {
		free(f->cmp.image[s].log);
		f->cmp.image[s].log = xstrdup("/nonexistent/build.log");
		snprintf(f->cmp.image[s].key, sizeof(f->cmp.image[s].key), "key%d", s);
	}
	free(cfg);
	free(cache);
	free(report);
}

/* A database of schema 1, upgraded: its rows lack most of what the pages
 * show now, and the report is written all the same. */
static void check_old_database(const char *dir)
{
	char *v1 = xasprintf("%s/v1.db", dir), *rep = xasprintf("%s/v1-rep", dir);
	char *sql = read_file("tests/data/schema-v1.sql", NULL, NULL), *page = report_patch_page("q", 771, "s");
	char *html;
	sqlite3 *db;
	pb_err err = { "" };
	int pages = 0;

	CHECK(sql != NULL);
	CHECK(sqlite3_open(v1, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
	CHECK(sqlite3_exec(db,
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
	sqlite3_close(db);
	CHECK(db_open(v1, &db, &err));
	CHECK(report_write_all(db, NULL, rep, &pages, &err));
	CHECK_STR(err.msg, "");
	CHECK_INT(pages, 1);
	html = page_text(rep, "index.html");
	CHECK_HAS(html, "1 queue with 1 measured patch;");
	CHECK_HAS(html, page);
	free(html);
	html = page_text(rep, page);
	CHECK_HAS(html, "<h1>Patch 771: subj</h1>");
	CHECK_HAS(html, "<h2>Reproduce</h2>");
	CHECK_HAS(html, "not found: the database does not say where the kernel was built");
	CHECK_HAS(html, "<tr><th>QEMU, the first boot of the kernel with the fix (base)</th><td><pre>c</pre>");
	CHECK(!strstr(html, "id=\"crash\""));
	free(html);
	html = page_text(rep, "trend.html");
	CHECK_HAS(html, "<h2>Across base kernel versions</h2>");
	free(html);
	db_close(db);
	free(page);
	free(sql);
	free(rep);
	free(v1);
}

/* The page is a pure function of its view: the view loaded holds what
 * was stored (each metric's samples by side and boot, every boot); its
 * rendering is the page report_write_patch wrote, the same bytes again,
 * writes no file (no plot, no config under the report directory it is
 * given) and leaves the view as it was; a view changed in memory renders
 * the change. */
static void check_patch_view(sqlite3 *db, struct fixture *f, const char *dir)
{
	char *report = xasprintf("%s/pv", dir), *gone = xasprintf("%s/pv-none", dir);
	char *page = NULL, *written, *html, *again, *none;
	struct patch_configs cfg = { { NULL } };
	struct patch_view v;
	const struct patch_metric *m;
	const char *texts[4] = { W "1 migrate_ms 3\n", W "1 migrate_ms 6\n", W "1 migrate_ms 4\n",
				 W "1 migrate_ms 9\n" };
	const enum side sides[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };
	long long id;
	pb_err err = { "" };

	CHECK(fixture_set_boots(f, 4, texts, sides));
	id = store_as(db, f, f->queue.dir, "2026-12-08T00:00:00Z");
	CHECK(report_write_patch(db, id, report, &page, &err));
	written = read_file(page, NULL, NULL);
	CHECK(patch_view_load(&v, db, id, &err));
	CHECK(v.nmetrics >= 1);
	CHECK_INT(v.nboots, 4);
	if (v.nmetrics < 1 || v.nboots < 2) {
		patch_view_free(&v);
		free(written);
		free(page);
		free(report);
		free(gone);
		return;
	}
	CHECK_INT(v.nbisects, 0);
	m = &v.metric[0];
	CHECK_STR(m->metric, "migrate_ms");
	CHECK_INT(m->samples.nboots[0], 2);
	CHECK_INT(m->samples.nboots[1], 2);
	CHECK(m->samples.n[0][0] == 1 && m->samples.v[0][0][0] == 3);
	CHECK(m->samples.n[0][1] == 1 && m->samples.v[0][1][0] == 4);
	CHECK(m->samples.n[1][0] == 1 && m->samples.v[1][0][0] == 6);
	CHECK(m->samples.n[1][1] == 1 && m->samples.v[1][1][0] == 9);
	CHECK(patch_metric_plotted(m));
	CHECK(v.patch_text != NULL);
	patch_view_configs(&v, report, &cfg);
	html = patch_page_html(&v, &cfg, report);
	CHECK_STR(html, written);
	/* rendering again, for a report directory that does not exist:
	 * nothing written there, and (no log of the fixture's being under
	 * either) the same page */
	none = patch_page_html(&v, &cfg, gone);
	again = patch_page_html(&v, &cfg, report);
	CHECK_STR(again, html);
	CHECK_STR(none, html);
	CHECK(!path_exists(gone));
	CHECK_STR(v.metric[0].metric, "migrate_ms");
	CHECK_INT(v.metric[0].samples.nboots[1], 2);
	free(again);
	/* a boot that panicked, changed in the view alone */
	v.boot[1].outcome = BOOT_PANIC;
	free(v.boot[1].detail);
	v.boot[1].detail = xstrdup("Kernel panic - not syncing: <in memory>");
	again = patch_page_html(&v, &cfg, report);
	CHECK(!strstr(html, "id=\"crash\""));
	CHECK_HAS(again, "<div id=\"crash\">\n<h2 class=\"bad\">Kernel panic - not syncing: &lt;in memory&gt;</h2>");
	free(again);
	free(none);
	free(html);
	free(written);
	free(page);
	patch_configs_free(&cfg);
	patch_view_free(&v);
	CHECK(!patch_view_load(&v, db, 99999, &err));
	CHECK_STR(err.msg, "report: no comparison 99999 in the database");
	free(report);
	free(gone);
}

void test_report(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir);
	struct fixture f;
	sqlite3 *db = NULL;
	pb_err err = { "" };

	check_page_names();
	check_links();
	CHECK(db_open(path, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n"));
	check_index(db, &f, dir);
	check_trend_versions(db, &f, dir);
	check_crash(db, &f, dir);
	check_reproduce(db, &f, dir);
	check_patch_view(db, &f, dir);
	check_old_database(dir);
	db_close(db);
	fixture_free(&f);
	rm_rf(dir);
	free(path);
	free(dir);
}
