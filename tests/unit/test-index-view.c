/* The index and the queues' pages as load-then-render (index-view.h): a
 * view built here in memory renders with no database behind it, the same
 * bytes each time, leaving the view as it was, and shows what the view
 * holds; a view loaded from a small database holds each comparison's
 * worst verdict per workload and the queues' counts. */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "db.h"
#include "fixture.h"
#include "html.h"
#include "index-view.h"
#include "report.h"

#define LOADED "/srv/queues/stable-5.13"
#define OTHER "/elsewhere/stable-5.10"

static char *fixes_771[] = { "d6995da31122 (\"mm: fix the fix\")" };

/* A loaded queue of two patches: 771 an mm patch, measured; 772 not mm. */
static void sample_queue(struct pb_queue *q, struct pb_patch p[2])
{
	p[0] = (struct pb_patch){ .sha256 = "771a", .number = 771,
				  .subject = "mm: fix <huge> pages",
				  .upstream = "0123456789abcdef0123456789abcdef01234567",
				  .fixes = fixes_771, .nfixes = 1, .cc_stable = true, .is_mm = true,
				  .mm_reason = "mm/hugetlb.c" };
	p[1] = (struct pb_patch){ .sha256 = "772b", .number = 772, .subject = "drm: fix a panel",
				  .upstream = "", .is_mm = false,
				  .mm_reason = "touches only drivers/gpu/" };
	*q = (struct pb_queue){ .dir = LOADED, .patches = p, .npatches = 2 };
}

/* A comparison shown: id (0 none), how it ended, its workloads' worst
 * verdicts as name, verdict pairs, NULL-terminated. */
static struct index_run run(long long id, enum comparison_status status, ...)
{
	struct index_run r = { id, status, ACCEL_KVM, xstrdup("2026-12-03T00:01:00Z"), NULL, 0 };
	const char *name;
	va_list ap;

	va_start(ap, status);
	while ((name = va_arg(ap, const char *))) {
		r.workloads = xrealloc(r.workloads,
				       sizeof(*r.workloads) * (size_t)(r.nworkloads + 1));
		r.workloads[r.nworkloads].name = xstrdup(name);
		r.workloads[r.nworkloads++].worst = (enum verdict)va_arg(ap, int);
	}
	va_end(ap);
	return r;
}

static struct index_patch stored(int number, const char *sha256, const char *subject,
				 struct index_run r)
{
	return (struct index_patch){ .run = r, .number = number, .cc_stable = false, .is_mm = true,
				     .sha256 = xstrdup(sha256), .subject = xstrdup(subject),
				     .upstream = xstrdup(""), .mm_reason = xstrdup("mm/"),
				     .file = xstrdup(number ? "" : "/home/dev/fix.patch"),
				     .fixes = xstrdup("") };
}

/* Two queues, the loaded one first (771 measured, 772 skipped, 770
 * measured before but gone from it, one series), another not loaded, and
 * a patch on its own. */
static void sample_view(struct index_view *v, const struct pb_queue *q)
{
	struct index_queue *e;

	memset(v, 0, sizeof(*v));
	v->queues = xcalloc(2, sizeof(*v->queues));
	v->nqueues = 2;
	e = &v->queues[0];
	*e = (struct index_queue){ .queue = xstrdup(LOADED),
				   .newest = xstrdup("2026-12-03T00:01:00Z"), .loaded = q,
				   .n = { .measured = 2, .skipped = 1, .gone = 1 } };
	e->newest_runs = xcalloc(2, sizeof(*e->newest_runs));
	e->newest_runs[0] = run(5, STATUS_MEASURED, "thp-anon", VERDICT_REGRESSION, "zswap",
				VERDICT_NO_CHANGE, NULL);
	e->newest_runs[1].finished_at = xstrdup("");
	e->measured = xcalloc(2, sizeof(*e->measured));
	e->nmeasured = 2;
	e->measured[0] = stored(770, "770c", "mm: gone from the queue",
				run(3, STATUS_MEASURED, "zswap", VERDICT_IMPROVEMENT, NULL));
	e->measured[1] = stored(771, "771a", "mm: fix <huge> pages",
				run(5, STATUS_MEASURED, "thp-anon", VERDICT_REGRESSION, "zswap",
				    VERDICT_NO_CHANGE, NULL));
	e->series = xcalloc(1, sizeof(*e->series));
	e->nseries = 1;
	e->series[0] = (struct index_series){ run(7, STATUS_MEASURED, "thp-anon",
						  VERDICT_BEHAVIOUR_CHANGE, NULL),
					      xstrdup("5.13.2-rc1"), xstrdup("770 771"),
					      SERIES_REVERSE };
	e = &v->queues[1];
	*e = (struct index_queue){ .queue = xstrdup(OTHER),
				   .newest = xstrdup("2026-12-01T00:01:00Z"),
				   .n = { .measured = 1 } };
	e->measured = xcalloc(1, sizeof(*e->measured));
	e->nmeasured = 1;
	e->measured[0] = stored(12, "12de", "mm: an older one", run(2, STATUS_BUILD_FAILED, NULL));
	v->own = xcalloc(1, sizeof(*v->own));
	v->nown = 1;
	v->own[0] = stored(0, "abcdef0123456789", "mm: my own fix",
			   run(9, STATUS_MEASURED, "zswap", VERDICT_INCONCLUSIVE, NULL));
	v->measured = 3;
}

/* Everything r holds, as text. */
static void dump_run(pb_str *s, const struct index_run *r)
{
	str_addf(s, " run %lld %d %d %s:", r->id, r->status, r->accel, r->finished_at);
	for (int i = 0; i < r->nworkloads; i++)
		str_addf(s, " %s=%d", r->workloads[i].name, r->workloads[i].worst);
	str_add(s, "\n");
}

static void dump_patch(pb_str *s, const struct index_patch *p)
{
	str_addf(s, "patch %d %d %d %s %s %s %s %s %s", p->number, p->cc_stable, p->is_mm,
		 p->sha256, p->subject, p->upstream, p->mm_reason, p->file, p->fixes);
	dump_run(s, &p->run);
}

/* Everything v holds, as text: the same before and after rendering. */
static char *dump(const struct index_view *v)
{
	pb_str s;

	str_init(&s);
	str_addf(&s, "%d queues, %d own, %d measured\n", v->nqueues, v->nown, v->measured);
	for (int i = 0; i < v->nqueues; i++) {
		const struct index_queue *e = &v->queues[i];

		str_addf(&s, "queue %s %s %p %d %d %d\n", e->queue, e->newest, (void *)e->loaded,
			 e->n.measured, e->n.skipped, e->n.gone);
		for (int p = 0; e->loaded && p < e->loaded->npatches; p++)
			dump_run(&s, &e->newest_runs[p]);
		for (int p = 0; p < e->nmeasured; p++)
			dump_patch(&s, &e->measured[p]);
		for (int p = 0; p < e->nseries; p++) {
			str_addf(&s, "series %s %s %d", e->series[p].name, e->series[p].patches,
				 e->series[p].mode);
			dump_run(&s, &e->series[p].run);
		}
	}
	for (int i = 0; i < v->nown; i++)
		dump_patch(&s, &v->own[i]);
	return str_steal(&s);
}

/* The renderers are pure functions of the view: one built in memory, with
 * no database behind it, renders; again to the same bytes, in any order;
 * and rendering leaves it as it was. */
static void pure(void)
{
	struct pb_patch patches[2];
	struct pb_queue q;
	struct index_view v;
	char *before, *after, *index, *index2, *page0, *page0b, *page1, *worst;

	sample_queue(&q, patches);
	sample_view(&v, &q);
	before = dump(&v);
	index = index_html(&v);
	page0 = queue_page_html(&v, 0);
	page1 = queue_page_html(&v, 1);
	page0b = queue_page_html(&v, 0);
	index2 = index_html(&v);
	CHECK_STR(index2, index);
	CHECK_STR(page0b, page0);
	after = dump(&v);
	CHECK_STR(after, before);
	/* the dump sees what a renderer could change */
	worst = xasprintf(" thp-anon=%d zswap=%d\n", VERDICT_REGRESSION, VERDICT_NO_CHANGE);
	CHECK_HAS(before, worst);
	free(worst);
	free(before);
	free(after);
	free(index);
	free(index2);
	free(page0);
	free(page0b);
	free(page1);
	index_view_free(&v);
	CHECK(!v.queues && !v.nqueues && !v.own);
}

/* Each queue's page and the index show what the view holds: the worst
 * verdict of each workload, the counts, why a patch was skipped, a
 * comparison that failed, the series, the patches on their own. */
static void shown(void)
{
	struct pb_patch patches[2];
	struct pb_queue q;
	struct index_view v;
	char *index, *page0, *page1, *tag, *bad;

	sample_queue(&q, patches);
	sample_view(&v, &q);
	index = index_html(&v);
	page0 = queue_page_html(&v, 0);
	page1 = queue_page_html(&v, 1);
	tag = xasprintf("<span class=\"%s tag\">thp-anon: regression</span> <span class=\"%s tag\">"
			"zswap: no change</span> </td>", html_verdict_class(VERDICT_REGRESSION),
			html_verdict_class(VERDICT_NO_CHANGE));
	CHECK_HAS(index, tag);
	CHECK_HAS(page0, tag);
	free(tag);
	CHECK_HAS(index, "<p>2 queues with 3 measured patches, and 1 patch on its own; ");
	CHECK(!strstr(index, "Nothing measured yet."));
	CHECK_HAS(index, "3 patches: 2 measured, 1 skipped as not mm. Some measured before are no "
			 "longer in the queue.");
	CHECK_HAS(index, "(the queue loaded now); newest comparison 2026-12-03T00:01:00Z.");
	CHECK_HAS(index, "1 patch measured (this queue is not the one loaded");
	CHECK_HAS(index, "<td>mm: my own fix</td><td>/home/dev/fix.patch</td>");
	CHECK_HAS(index, "<span class=\"open tag\">zswap: inconclusive</span>");
	/* the patches not measured are the queue's page's alone */
	CHECK(!strstr(index, "skipped: not an mm patch"));
	CHECK_HAS(page0, "<td colspan=\"2\" class=\"same\">skipped: not an mm patch (touches only "
			 "drivers/gpu/)</td>");
	CHECK_HAS(page0, "mm: fix &lt;huge&gt; pages");
	CHECK_HAS(page0, "<td>mm: gone from the queue <i>(measured before; not in the queue "
			 "now)</i>");
	CHECK_HAS(page0, "<td>d6995da31122</td>");
	CHECK_HAS(page0, "<td>mm patches taken out</td><td>770 771</td>");
	CHECK_HAS(page0, "<span class=\"change tag\">thp-anon: behaviour change</span>");
	/* 771 once (from the queue, not again from the database), 772, 770
	 * (gone); the other queue's patch on its own page */
	CHECK_INT(test_occurrences(page0, "<tr><td class=\"num\">"), 3);
	CHECK_INT(test_occurrences(page0, ">771</a></td>"), 1);
	CHECK(!strstr(page0, ">012</a></td>"));
	CHECK_HAS(page1, ">012</a></td>");
	bad = xasprintf("<td><span class=\"bad tag\">%s</span> </td>",
			status_name(STATUS_BUILD_FAILED));
	CHECK_HAS(page1, bad);
	CHECK_HAS(index, bad);
	free(bad);
	CHECK_HAS(page1, "1 patch measured (this queue is not the one loaded");
	CHECK(!strstr(page1, "The queue as a whole"));
	free(index);
	free(page0);
	free(page1);
	index_view_free(&v);

	/* nothing at all */
	memset(&v, 0, sizeof(v));
	index = index_html(&v);
	CHECK_HAS(index, "<p>0 queues with 0 measured patches; ");
	CHECK_HAS(index, "<p>Nothing measured yet.</p>\n<p>Generated from results.db");
	CHECK(!strstr(index, "Patches on their own"));
	free(index);
}

/* The fixture's comparison stored as of queue (number 0: on its own),
 * finished at when. */
static void store_as(sqlite3 *db, struct fixture *f, const char *queue, int number,
		     const char *when)
{
	struct pb_patch *p = (struct pb_patch *)f->cmp.patch;
	const char *keep = f->cmp.queue_dir;
	long long id = 0;
	pb_err err = { "" };

	free(f->cmp.finished_at);
	f->cmp.finished_at = xstrdup(when);
	p->number = number;
	f->cmp.queue_dir = queue;
	CHECK(db_store_comparison(db, &f->cmp, "test", NULL, &id, &err));
	CHECK_STR(err.msg, "");
	f->cmp.queue_dir = keep;
	p->number = 771;
}

/* The loaded view: the worst verdict of each workload of a comparison
 * (two metrics, one workload), the queues and their counts, the patches
 * on their own; index.html as report_write_index writes it. */
static void check_loaded(sqlite3 *db, struct fixture *f, const char *dir)
{
	const struct metric_result *a, *b;
	const struct pb_patch *p771 = queue_find(&f->queue, 771);
	struct index_view v;
	const struct index_queue *mine;
	const struct index_run *newest;
	char *html, *written, *path;
	pb_err err = { "" };
	int at = (int)(p771 - f->queue.patches);

	a = comparison_result(&f->cmp, "hugetlb-migrate", "migrate_ms");
	b = comparison_result(&f->cmp, "hugetlb-migrate", "pages_migrated");
	store_as(db, f, OTHER, 771, "2026-12-02T00:01:00Z");
	store_as(db, f, f->queue.dir, 771, "2026-12-04T00:01:00Z");
	store_as(db, f, "/home/dev", 0, "2026-12-03T00:01:00Z");
	CHECK(a && b && a->verdict != b->verdict);
	if (!a || !b)
		return;
	CHECK(index_view_load(&v, db, &f->queue, &err));
	CHECK_STR(err.msg, "");
	CHECK_INT(v.nqueues, 2);
	if (v.nqueues != 2) {
		index_view_free(&v);
		return;
	}
	mine = &v.queues[0];
	CHECK_STR(mine->queue, f->queue.dir); /* the newest comparison's queue first */
	CHECK(mine->loaded == &f->queue && !v.queues[1].loaded);
	CHECK_STR(v.queues[1].queue, OTHER);
	newest = &mine->newest_runs[at];
	CHECK(newest->id > 0);
	CHECK_INT(newest->nworkloads, 1);
	CHECK_STR(newest->workloads[0].name, "hugetlb-migrate");
	/* of its two metrics, the one the ranking puts higher */
	CHECK_INT(newest->workloads[0].worst, a->verdict > b->verdict ? a->verdict : b->verdict);
	CHECK_INT(newest->workloads[0].worst, VERDICT_BEHAVIOUR_CHANGE);
	CHECK_INT(mine->newest_runs[at ? 0 : 1].id, 0);
	CHECK_INT(mine->nmeasured, 1);
	CHECK_INT(mine->measured[0].number, 771);
	CHECK_INT(mine->measured[0].run.workloads[0].worst, VERDICT_BEHAVIOUR_CHANGE);
	CHECK_INT(mine->n.measured, 1);
	CHECK_INT(mine->n.skipped, 7); /* the bundled queue's non-mm patches */
	CHECK_INT(mine->n.gone, 0);
	CHECK_INT(v.queues[1].n.measured, 1);
	CHECK_INT(v.nown, 1);
	CHECK_STR(v.own[0].sha256, p771->sha256);
	CHECK_INT(v.measured, 2);

	CHECK(report_write_index(db, &f->queue, dir, &err));
	html = index_html(&v);
	path = xasprintf("%s/index.html", dir);
	written = read_file(path, NULL, NULL);
	CHECK_STR(written, html);
	free(written);
	free(html);
	free(path);
	index_view_free(&v);

	/* a patch of one's own is no queue: none is loaded */
	f->queue.one_patch = true;
	CHECK(index_view_load(&v, db, &f->queue, &err));
	CHECK_INT(v.nqueues, 2);
	CHECK(!v.queues[0].loaded && !v.queues[1].loaded && !v.queues[0].newest_runs);
	index_view_free(&v);
	f->queue.one_patch = false;
}

/* A query that fails half-way through: no view (and nothing leaked), and
 * report_write_index writes no page. */
static void check_failed(sqlite3 *db, struct fixture *f, const char *dir)
{
	struct index_view v;
	char *page = report_queue_page(f->queue.dir), *path = xasprintf("%s/%s", dir, page);
	char *index = xasprintf("%s/index.html", dir);
	pb_err err = { "" };

	CHECK(sqlite3_exec(db, "ALTER TABLE results RENAME TO results_gone", NULL, NULL, NULL) ==
	      SQLITE_OK);
	CHECK(!index_view_load(&v, db, &f->queue, &err));
	CHECK(err.msg[0] != '\0');
	CHECK(!v.queues && !v.nqueues && !v.own);
	err.msg[0] = '\0';
	CHECK(!report_write_index(db, &f->queue, dir, &err));
	CHECK(err.msg[0] != '\0');
	CHECK(access(path, F_OK) != 0);
	CHECK(access(index, F_OK) != 0);
	CHECK(sqlite3_exec(db, "ALTER TABLE results_gone RENAME TO results", NULL, NULL, NULL) ==
	      SQLITE_OK);
	free(index);
	free(path);
	free(page);
}

void test_index_view(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir);
	char *pages = xasprintf("%s/report", dir), *failed = xasprintf("%s/failed", dir);
	struct fixture f;
	sqlite3 *db = NULL;
	pb_err err = { "" };

	pure();
	shown();
	CHECK(db_open(path, &db, &err));
	CHECK(fixture_init(&f, "PB1 sample hugetlb-migrate 1 migrate_ms 1\n"
			       "PB1 sample hugetlb-migrate 1 pages_migrated 0\n",
			   "PB1 sample hugetlb-migrate 1 migrate_ms 2\n"
			   "PB1 sample hugetlb-migrate 1 pages_migrated 32\n"));
	check_loaded(db, &f, pages);
	check_failed(db, &f, failed);
	db_close(db);
	fixture_free(&f);
	free(failed);
	free(pages);
	free(path);
	free(dir);
}
