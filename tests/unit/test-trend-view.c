/* The trend page as load-then-render (trend-view.h): a view built in
 * memory renders, the same bytes every time, leaving the view as it was,
 * and the page says what the view holds; a view loaded from a small
 * database holds the base kernel's medians, over time and by version, and
 * the page written from the database is that view rendered. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "db.h"
#include "fixture.h"
#include "report.h"
#include "trend-view.h"

#define W "PB1 sample hugetlb-migrate "

/* A new line at the end of *l, its text owned as a loaded one's is. */
static struct trend_line *line_add(struct trend_line **l, int *n, enum accel_kind accel,
				   const char *workload, const char *metric, const char *unit)
{
	struct trend_line *x;

	*l = xrealloc(*l, sizeof(**l) * (size_t)(*n + 1));
	x = &(*l)[(*n)++];
	*x = (struct trend_line){ .accel = accel, .workload = xstrdup(workload),
				  .metric = xstrdup(metric), .unit = xstrdup(unit) };
	return x;
}

static void point_add(struct trend_line *l, const char *x, double y, int runs)
{
	l->p = xrealloc(l->p, sizeof(*l->p) * (size_t)(l->n + 1));
	l->p[l->n++] = (struct trend_point){ .x = xstrdup(x), .y = y, .runs = runs };
}

/* Everything v holds, as text: what a renderer that changed the view
 * (sorted a line, freed or rewrote a point) would make differ. */
static char *dump(const struct trend_view *v)
{
	pb_str s;

	str_init(&s);
	for (int k = 0; k < 2; k++) {
		const struct trend_line *l = k ? v->versions : v->time;
		int n = k ? v->nversions : v->ntime;

		str_addf(&s, "%s %d %p\n", k ? "versions" : "time", n, (const void *)l);
		for (int i = 0; i < n; i++) {
			str_addf(&s, "%d %s %s %s %d %p:", (int)l[i].accel, l[i].workload, l[i].metric,
				 l[i].unit, l[i].n, (const void *)l[i].p);
			for (int j = 0; j < l[i].n; j++)
				str_addf(&s, " %s=%.17g/%d", l[i].p[j].x, l[i].p[j].y, l[i].p[j].runs);
			str_add(&s, "\n");
		}
	}
	return str_steal(&s);
}

static char *rendered(const struct trend_view *v)
{
	pb_str h;

	str_init(&h);
	trend_html(v, &h);
	return str_steal(&h);
}

/* The view of a base kernel measured twice on tcg-icount, on two versions,
 * with a line of no point (shown nowhere) and names the page escapes. */
static void sample_view(struct trend_view *v)
{
	struct trend_line *l;

	memset(v, 0, sizeof(*v));
	l = line_add(&v->time, &v->ntime, ACCEL_TCG_ICOUNT, "hugetlb-migrate", "migrate_ms", "ms");
	point_add(l, "2026-12-05T00:01", 6, 1);
	point_add(l, "2026-12-06T10:30", 1.5, 1);
	line_add(&v->time, &v->ntime, ACCEL_KVM, "thp-anon", "fault_ms", "ms");
	l = line_add(&v->versions, &v->nversions, ACCEL_TCG_ICOUNT, "hugetlb-migrate", "migrate_ms",
		     "ms");
	point_add(l, "6.1.20", 3, 1);
	point_add(l, "6.1.192", 3.75, 2);
	line_add(&v->versions, &v->nversions, ACCEL_KVM, "thp-anon", "fault_ms", "ms");
	l = line_add(&v->versions, &v->nversions, ACCEL_KVM, "a&b", "m<1>", "ms/\"MiB\"");
	point_add(l, "6.1.20", 1234.5, 3);
}

/* trend_html is a pure function of the view: the same bytes twice, the
 * view unchanged; and the page shows the view's lines and nothing else. */
static void pure(void)
{
	struct trend_view v;
	char *before, *after, *html, *again, *v20, *v192;

	sample_view(&v);
	before = dump(&v);
	html = rendered(&v);
	again = rendered(&v);
	after = dump(&v);
	CHECK_STR(again, html);
	CHECK_STR(after, before);
	CHECK(!strncmp(html, "<!DOCTYPE html>", 15));
	CHECK_HAS(html, "<h1>perfbot: the base kernel over time and across versions</h1>");
	CHECK_HAS(html, "<h2>Over time</h2>");
	CHECK_HAS(html, "<figure><img src=\"plots/trend-tcg-icount-hugetlb-migrate-migrate_ms.svg\" "
			"alt=\"hugetlb-migrate migrate_ms (tcg-icount)\" width=\"440\" height=\"270\">"
			"<figcaption>hugetlb-migrate migrate_ms (tcg-icount), 2 run(s)</figcaption>"
			"</figure>\n");
	CHECK_HAS(html, "<figure><img src=\"plots/trend-version-tcg-icount-hugetlb-migrate-migrate_ms.svg\" "
			"alt=\"hugetlb-migrate migrate_ms (tcg-icount) by base version\" width=\"440\" "
			"height=\"270\"><figcaption>hugetlb-migrate migrate_ms (tcg-icount) by base "
			"version, 2 version(s)</figcaption></figure>\n");
	/* each version's median and comparisons, in the view's order */
	v20 = strstr(html, "<tr><td>tcg-icount</td><td>hugetlb-migrate migrate_ms</td><td>6.1.20</td>"
			   "<td class=\"num\">3</td><td>ms</td><td class=\"num\">1</td></tr>\n");
	v192 = strstr(html, "<tr><td>tcg-icount</td><td>hugetlb-migrate migrate_ms</td><td>6.1.192</td>"
			    "<td class=\"num\">3.75</td><td>ms</td><td class=\"num\">2</td></tr>\n");
	CHECK(v20 && v192 && v20 < v192);
	/* names escaped, in the plot's name as in the table */
	CHECK_HAS(html, "<img src=\"plots/trend-version-kvm-a&amp;b-m&lt;1&gt;.svg\"");
	CHECK_HAS(html, "<tr><td>kvm</td><td>a&amp;b m&lt;1&gt;</td><td>6.1.20</td>"
			"<td class=\"num\">1234</td><td>ms/&quot;MiB&quot;</td><td class=\"num\">3</td></tr>\n");
	/* a line without a point has no plot and no row */
	CHECK(!strstr(html, "thp-anon"));
	CHECK_INT(test_occurrences(html, "<figure>"), 3);
	CHECK_INT(test_occurrences(html, "<tr><td>"), 3);
	CHECK(!strstr(html, "No comparison has run the base kernel yet."));
	CHECK_INT(test_occurrences(html, "</body></html>\n"), 1);
	CHECK(strlen(html) > 15 && !strcmp(html + strlen(html) - 15, "</body></html>\n"));
	free(before);
	free(after);
	free(html);
	free(again);
	trend_view_free(&v);
	CHECK(!v.time && !v.versions && !v.ntime && !v.nversions);
}

/* A view with nothing to show, empty or of lines without points: both
 * parts say so, with no plot and no table. */
static void empty(void)
{
	struct trend_view v = { 0 };
	char *html = rendered(&v), *none;

	CHECK_INT(test_occurrences(html, "<p>No comparison has run the base kernel yet.</p>\n"), 2);
	CHECK_HAS(html, "<h2>Across base kernel versions</h2>");
	CHECK(!strstr(html, "<figure>"));
	CHECK(!strstr(html, "<table>"));
	line_add(&v.time, &v.ntime, ACCEL_TCG, "thp-anon", "fault_ms", "ms");
	line_add(&v.versions, &v.nversions, ACCEL_TCG, "thp-anon", "fault_ms", "ms");
	none = rendered(&v);
	CHECK_STR(none, html);
	free(none);
	free(html);
	trend_view_free(&v);
}

/* The fixture stored again on the base kernel version, accelerator and
 * finish given, its base kernel's boots reporting migrate_ms a and b. */
static void store(sqlite3 *db, struct fixture *f, const char *version, enum accel_kind accel,
		  const char *when, const char *a, const char *b)
{
	char *ta = xasprintf(W "1 migrate_ms %s\n", a), *tb = xasprintf(W "1 migrate_ms %s\n", b);
	const char *texts[4] = { W "1 migrate_ms 100\n", ta, W "1 migrate_ms 100\n", tb };
	const enum side sides[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };
	long long id = 0;
	pb_err err = { "" };

	free(f->tree.version);
	f->tree.version = xstrdup(version);
	/* a kernel of another version is another image */
	for (int s = 0; s < 2; s++)
		snprintf(f->cmp.image[s].key, sizeof(f->cmp.image[s].key), "key%d-%s", s, version);
	f->cmp.accel.kind = accel;
	free(f->cmp.finished_at);
	f->cmp.finished_at = xstrdup(when);
	CHECK(fixture_set_boots(f, 4, texts, sides));
	CHECK(db_store_comparison(db, &f->cmp, "test", NULL, &id, &err));
	CHECK_STR(err.msg, "");
	free(ta);
	free(tb);
}

static void check_point(const struct trend_point *p, const char *x, double y, int runs)
{
	CHECK_STR(p->x, x);
	CHECK(fabs(p->y - y) < 1e-9);
	CHECK_INT(p->runs, runs);
}

/* The view of a small database: a line per accelerator, a point per
 * comparison (the median of its base boots) in the order they ran, and
 * per version (the median of its comparisons' medians) in the versions'
 * order, 6.1.20 before 6.1.192. trend.html is that view rendered. */
static void loaded(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/t.db", dir), *page, *html;
	struct trend_view v;
	struct fixture f;
	sqlite3 *db = NULL;
	pb_err err = { "" };

	CHECK(db_open(path, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 100\n", W "1 migrate_ms 1\n"));
	store(db, &f, "6.1.192", ACCEL_TCG_ICOUNT, "2026-12-05T00:01:00Z", "5", "7");
	store(db, &f, "6.1.20", ACCEL_TCG_ICOUNT, "2026-12-05T00:02:00Z", "2", "4");
	store(db, &f, "6.1.192", ACCEL_TCG_ICOUNT, "2026-12-06T10:30:59Z", "1", "2");
	store(db, &f, "6.1.20", ACCEL_KVM, "2026-12-07T00:00:00Z", "8", "8");
	CHECK(trend_view_load(&v, db, &err));
	CHECK_STR(err.msg, "");
	CHECK_INT(v.ntime, 2);
	CHECK_INT(v.nversions, 2);
	if (v.ntime == 2 && v.nversions == 2) {
		/* kvm first: the lines are in the accelerators' order as stored */
		CHECK_INT(v.time[0].accel, ACCEL_KVM);
		CHECK_INT(v.time[0].n, 1);
		check_point(&v.time[0].p[0], "2026-12-07T00:00", 8, 1);
		CHECK_INT(v.time[1].accel, ACCEL_TCG_ICOUNT);
		CHECK_STR(v.time[1].workload, "hugetlb-migrate");
		CHECK_STR(v.time[1].metric, "migrate_ms");
		CHECK_STR(v.time[1].unit, "ms");
		CHECK_INT(v.time[1].n, 3);
		if (v.time[1].n == 3) {
			check_point(&v.time[1].p[0], "2026-12-05T00:01", 6, 1);
			check_point(&v.time[1].p[1], "2026-12-05T00:02", 3, 1);
			check_point(&v.time[1].p[2], "2026-12-06T10:30", 1.5, 1);
		}
		CHECK_INT(v.versions[0].accel, ACCEL_KVM);
		CHECK_INT(v.versions[0].n, 1);
		check_point(&v.versions[0].p[0], "6.1.20", 8, 1);
		CHECK_INT(v.versions[1].accel, ACCEL_TCG_ICOUNT);
		CHECK_INT(v.versions[1].n, 2);
		if (v.versions[1].n == 2) {
			check_point(&v.versions[1].p[0], "6.1.20", 3, 1);
			check_point(&v.versions[1].p[1], "6.1.192", 3.75, 2);
		}
	}
	/* the page written is the view rendered, its plots beside it */
	CHECK(report_write_trend(db, dir, &err));
	CHECK_STR(err.msg, "");
	page = xasprintf("%s/trend.html", dir);
	html = read_file(page, NULL, NULL);
	free(page);
	page = rendered(&v);
	CHECK_STR(html, page);
	free(page);
	page = xasprintf("%s/plots/trend-version-kvm-hugetlb-migrate-migrate_ms.svg", dir);
	CHECK(path_exists(page));
	free(page);
	free(html);
	trend_view_free(&v);
	fixture_free(&f);
	db_close(db);
	free(path);
	free(dir);
}

/* A database without the report's tables: no view, the query's error. */
static void unreadable(void)
{
	struct trend_view v;
	sqlite3 *db = NULL;
	pb_err err = { "" };

	CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
	CHECK(!trend_view_load(&v, db, &err));
	CHECK(err.msg[0] != '\0');
	CHECK(!v.time && !v.versions && !v.ntime && !v.nversions);
	sqlite3_close(db);
}

void test_trend_view(void)
{
	pure();
	empty();
	loaded();
	unreadable();
}
