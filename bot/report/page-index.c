/* The index of every queue and each queue's page: its patches, their
 * newest comparison's verdicts per workload, or why they were skipped,
 * and its series runs; then the patches without a series number. */
#include "report.h"
#include "html.h"

#include "compare.h"
#include "db-report.h"
#include "outcome.h"
#include "plot.h"
#include "queue.h"
#include "stats.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each workload of a comparison with its most pressing verdict. */
static bool workload_verdicts(sqlite3 *db, long long cid, pb_str *h, pb_err *err)
{
	struct db_cursor c;
	struct workload_verdict_row r;
	char last[128] = "";
	enum verdict worst = VERDICT_NO_DATA;

	if (!db_report_workload_verdicts(&c, db, cid, err))
		return false;
	for (bool more = true; more;) {
		more = db_cursor_step(&c, &r);
		if (last[0] && (!more || strcmp(r.workload, last))) {
			str_addf(h, "<span class=\"%s tag\">", html_verdict_class(worst));
			html_escape(h, last);
			str_add(h, ": ");
			html_escape(h, verdict_name(worst));
			str_add(h, "</span> ");
			worst = VERDICT_NO_DATA;
		}
		if (more) {
			/* the enum's order is the ranking: the workload's worst */
			snprintf(last, sizeof(last), "%s", r.workload);
			if (r.verdict > worst)
				worst = r.verdict;
		}
	}
	db_cursor_close(&c, NULL);
	return true;
}

/* The index's cells of a patch that has a comparison: its verdicts, its run. */
static bool index_measured(sqlite3 *db, const struct index_row *r, pb_str *h, pb_err *err)
{
	str_add(h, "<td>");
	if (r->status != STATUS_MEASURED) {
		str_add(h, "<span class=\"bad tag\">");
		html_escape(h, status_name(r->status));
		str_add(h, "</span> ");
	}
	if (!workload_verdicts(db, r->id, h, err))
		return false;
	str_add(h, "</td><td>");
	html_escape(h, accel_kind_name(r->accel));
	str_add(h, " ");
	html_escape(h, r->finished_at);
	str_add(h, "</td>");
	return true;
}

/* What a queue's table shows of a patch: what the queue says of it, or,
 * for a queue not loaded, what the database stored of it. */
struct patch_cells {
	int number;
	const char *sha256, *subject, *upstream, *mm_reason;
	const char *fixes; /* one a line */
	bool is_mm, cc_stable;
};

static struct patch_cells cells_of_patch(const struct pb_patch *p, pb_str *fixes)
{
	for (int f = 0; f < p->nfixes; f++)
		str_addf(fixes, "%s%s", f ? "\n" : "", p->fixes[f]);
	return (struct patch_cells){ p->number, p->sha256, p->subject, p->upstream, p->mm_reason,
				     fixes->buf ? fixes->buf : "", p->is_mm, p->cc_stable };
}

static struct patch_cells cells_of_row(const struct measured_row *r)
{
	return (struct patch_cells){ r->number, r->sha256, r->subject, r->upstream, r->mm_reason,
				     r->fixes, r->is_mm, r->cc_stable };
}

/* A patch's first cell: its label, linked to its page when it has one. */
static void label_cell(pb_str *h, const char *queue, int number, const char *sha256, bool linked)
{
	char label[PATCH_LABEL_SIZE];
	char *page = report_patch_page(queue, number, sha256);

	patch_label(label, number, sha256);
	str_add(h, "<td class=\"num\">");
	if (linked)
		html_page_link(h, page, label);
	else
		html_escape(h, label);
	str_add(h, "</td>");
	free(page);
}

/* A queue's table's cells of what is known of a patch. */
static void index_patch(pb_str *h, const char *queue, const struct patch_cells *p, bool linked,
			const char *note)
{
	char up[16];

	label_cell(h, queue, p->number, p->sha256, linked);
	str_add(h, "<td>");
	html_escape(h, p->subject);
	if (note) {
		str_add(h, " <i>");
		html_escape(h, note);
		str_add(h, "</i>");
	}
	str_add(h, "</td>");
	snprintf(up, sizeof(up), "%.12s", p->upstream[0] ? p->upstream : "-");
	html_cell(h, "td", up, "num");
	str_add(h, "<td title=\"");
	html_escape(h, p->mm_reason);
	str_addf(h, "\">%s</td>", p->is_mm ? "mm" : "no");
	html_cell(h, "td", p->cc_stable ? "Cc: stable" : "picked without Cc: stable", NULL);
	str_add(h, "<td>");
	for (const char *f = p->fixes; *f;) {
		size_t n = strcspn(f, "\n");
		char fx[16];

		snprintf(fx, sizeof(fx), "%.*s", (int)(n < 12 ? n : 12), f);
		if (f != p->fixes)
			str_add(h, "<br>");
		html_escape(h, fx);
		f += n + (f[n] == '\n');
	}
	str_add(h, p->fixes[0] ? "</td>" : "-</td>");
}

/* What a queue's page and its part of the index count of it. */
struct queue_count {
	int patches, measured, skipped, gone; /* gone: measured, no longer in the queue */
};

/* One patch of the loaded queue: its row of the queue's table. */
static bool queue_patch_row(sqlite3 *db, const struct pb_queue *q, const struct pb_patch *p, pb_str *h,
			    struct queue_count *n, pb_err *err)
{
	struct db_cursor c;
	struct index_row r = { 0 };
	struct patch_cells pc;
	pb_str fixes;
	bool ok = true;

	if (!db_report_newest(&c, db, q->dir, p->number, err))
		return false;
	if (!db_cursor_step(&c, &r))
		r.id = 0;
	str_init(&fixes);
	pc = cells_of_patch(p, &fixes);
	str_add(h, "<tr>");
	index_patch(h, q->dir, &pc, r.id != 0, NULL);
	if (r.id) {
		ok = index_measured(db, &r, h, err);
		n->measured++;
	} else {
		char *why = p->is_mm ? xstrdup("not measured yet (perfbot run --patch N)")
				     : xasprintf("skipped: not an mm patch (%s)", p->mm_reason);

		str_addf(h, "<td colspan=\"2\" class=\"%s\">", p->is_mm ? "open" : "same");
		html_escape(h, why);
		str_add(h, "</td>");
		free(why);
		n->skipped += !p->is_mm;
	}
	str_add(h, "</tr>\n");
	str_free(&fixes);
	db_cursor_close(&c, NULL);
	return ok;
}

/* The measured patches of queue the database holds: of a queue not loaded
 * (q NULL) every one, of the loaded queue q those no longer in it. */
static bool queue_stored_rows(sqlite3 *db, const char *queue, const struct pb_queue *q, pb_str *h,
			      struct queue_count *n, pb_err *err)
{
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;

	if (!db_report_measured(&c, db, queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct patch_cells pc = cells_of_row(&r);

		if (q && queue_find(q, r.number))
			continue;
		str_add(h, "<tr>");
		index_patch(h, queue, &pc, true, q ? "(measured before; not in the queue now)" : NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
		n->measured++;
		n->gone += q != NULL;
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* The queue as a whole (perfbot run --series): each series' newest run. */
static bool index_series(sqlite3 *db, const char *queue, pb_str *h, pb_err *err)
{
	struct series_index_row r;
	struct db_cursor c;
	char *page;
	int n = 0;

	if (!db_report_series(&c, db, queue, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		if (!n++)
			str_add(h, "<h3>The queue as a whole</h3>\n<table><tr><th>series</th><th>how"
				   "</th><th>patches applied</th><th>workloads: verdict</th>"
				   "<th>run</th></tr>\n");
		page = report_series_page(queue, r.name);
		str_add(h, "<tr><td><a href=\"");
		html_escape(h, page);
		free(page);
		str_add(h, "\">");
		html_escape(h, r.name);
		str_add(h, "</a></td><td>");
		html_escape(h, r.mode == SERIES_FORWARD ? "applied" : "mm patches taken out");
		str_add(h, "</td><td>");
		html_escape(h, r.patches);
		str_add(h, "</td>");
		if (!index_measured(db, &r.run, h, err)) {
			db_cursor_close(&c, NULL);
			return false;
		}
		str_add(h, "</tr>\n");
	}
	if (n)
		str_add(h, "</table>\n");
	return db_cursor_close(&c, err);
}

/* A queue of the report: the index's part and its own page. */
struct queue_entry {
	char *queue, *newest;
	const struct pb_queue *loaded; /* the queue of this run, else NULL */
	struct queue_count n;
};

/* The sentence that counts a queue's patches. */
static char *queue_counts(const struct queue_entry *e)
{
	if (!e->loaded)
		return xasprintf("%d patch%s measured (this queue is not the one loaded: a patch "
				 "never measured is not listed).", e->n.measured,
				 e->n.measured == 1 ? "" : "es");
	return xasprintf("%d patch%s: %d measured, %d skipped as not mm.%s",
			 e->loaded->npatches + e->n.gone,
			 e->loaded->npatches + e->n.gone == 1 ? "" : "es", e->n.measured, e->n.skipped,
			 e->n.gone ? " Some measured before are no longer in the queue." : "");
}

/* <report_dir>/queue-<name>-<hash>.html: every patch of the queue, its
 * newest comparison's verdict per workload or why it was skipped, and its
 * series; e->n gets the counts. */
static bool write_queue_page(sqlite3 *db, struct queue_entry *e, const char *report_dir, pb_err *err)
{
	const struct pb_queue *q = e->loaded;
	char *title = xasprintf("perfbot: queue %s", html_queue_name(e->queue)), *page, *path, *counts;
	pb_str h;
	bool ok = true;

	memset(&e->n, 0, sizeof(e->n));
	str_init(&h);
	html_page_head(&h, title);
	html_nav(&h, NULL);
	str_add(&h, "<p>Queue ");
	html_escape(&h, e->queue);
	str_add(&h, ". <a href=\"trend.html\">The base kernel over time and across versions</a>.</p>\n"
		    "<table><tr><th>#</th><th>subject</th><th>upstream</th><th>mm</th>"
		    "<th>reached stable</th><th>Fixes</th><th>workloads: verdict</th><th>run</th></tr>\n");
	for (int i = 0; ok && q && i < q->npatches; i++)
		ok = queue_patch_row(db, q, &q->patches[i], &h, &e->n, err);
	ok = ok && queue_stored_rows(db, e->queue, q, &h, &e->n, err);
	counts = queue_counts(e);
	str_add(&h, "</table>\n<p>");
	html_escape(&h, counts);
	str_add(&h, "</p>\n");
	free(counts);
	ok = ok && index_series(db, e->queue, &h, err);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	page = report_queue_page(e->queue);
	path = xasprintf("%s/%s", report_dir, page);
	ok = ok && write_file_atomic(path, h.buf, h.len, err);
	free(path);
	free(page);
	free(title);
	str_free(&h);
	return ok;
}

/* The index's part of a queue: its measured patches, its series. */
static bool index_queue(sqlite3 *db, const struct queue_entry *e, pb_str *h, pb_err *err)
{
	char *page = report_queue_page(e->queue), *counts = queue_counts(e);
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;
	int n = 0;

	str_add(h, "<h2>");
	html_page_link(h, page, html_queue_name(e->queue));
	str_add(h, "</h2>\n<p>");
	html_escape(h, e->queue);
	str_add(h, e->loaded ? " (the queue loaded now)" : "");
	if (e->newest[0]) {
		str_add(h, "; newest comparison ");
		html_escape(h, e->newest);
	}
	str_add(h, ". ");
	html_escape(h, counts);
	str_add(h, "</p>\n");
	free(counts);
	free(page);
	if (!db_report_measured(&c, db, e->queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		if (!n++)
			str_add(h, "<table><tr><th>#</th><th>subject</th><th>workloads: verdict</th>"
				   "<th>run</th></tr>\n");
		str_add(h, "<tr>");
		label_cell(h, e->queue, r.number, r.sha256, true);
		html_cell(h, "td", r.subject, NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
	}
	if (n)
		str_add(h, "</table>\n");
	ok = db_cursor_close(&c, ok ? err : NULL) && ok;
	return ok && index_series(db, e->queue, h, err);
}

/* The index's patches without a series number (perfbot run --patch-file). */
static bool index_own(sqlite3 *db, pb_str *h, int *n, pb_err *err)
{
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;

	*n = 0;
	if (!db_report_measured(&c, db, NULL, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		if (!(*n)++)
			str_add(h, "<h2 id=\"own\">Patches on their own</h2>\n<p>Patch files without a "
				   "series number, each by its identity (the first 12 hex digits of its "
				   "sha256).</p>\n<table><tr><th>patch</th><th>subject</th><th>file</th>"
				   "<th>workloads: verdict</th><th>run</th></tr>\n");
		str_add(h, "<tr>");
		label_cell(h, "", 0, r.sha256, true);
		html_cell(h, "td", r.subject, NULL);
		html_cell(h, "td", r.file, NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
	}
	if (*n)
		str_add(h, "</table>\n");
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* Every queue of the database, the newest first, and q where it has no
 * comparison yet; free with queue_entries_free. */
static bool queue_entries(sqlite3 *db, const struct pb_queue *q, struct queue_entry **out, int *n,
			  pb_err *err)
{
	struct db_cursor c;
	struct queue_row r;
	struct queue_entry *e = NULL;
	bool loaded = false;

	*n = 0;
	if (!db_report_queues(&c, db, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		e = xrealloc(e, sizeof(*e) * (size_t)(*n + 1));
		e[*n] = (struct queue_entry){ xstrdup(r.queue), xstrdup(r.newest), NULL, { 0 } };
		if (q && !strcmp(q->dir, r.queue)) {
			e[*n].loaded = q;
			loaded = true;
		}
		(*n)++;
	}
	if (q && !loaded) {
		e = xrealloc(e, sizeof(*e) * (size_t)(*n + 1));
		e[(*n)++] = (struct queue_entry){ xstrdup(q->dir), xstrdup(""), q, { 0 } };
	}
	*out = e;
	return db_cursor_close(&c, err);
}

static void queue_entries_free(struct queue_entry *e, int n)
{
	for (int i = 0; i < n; i++) {
		free(e[i].queue);
		free(e[i].newest);
	}
	free(e);
}

bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err)
{
	struct queue_entry *e = NULL;
	pb_str h, body;
	char *path;
	int n = 0, own = 0, measured = 0;
	bool ok;

	/* a patch of one's own is no queue: it is listed among those on their own */
	if (q && q->one_patch)
		q = NULL;
	ok = mkdir_p(report_dir, err) && queue_entries(db, q, &e, &n, err);

	str_init(&h);
	str_init(&body);
	for (int i = 0; ok && i < n; i++)
		ok = write_queue_page(db, &e[i], report_dir, err);
	for (int i = 0; ok && i < n; i++) {
		ok = index_queue(db, &e[i], &body, err);
		measured += e[i].n.measured;
	}
	ok = ok && index_own(db, &body, &own, err);
	html_page_head(&h, "perfbot: mm patches of the stable queues");
	str_addf(&h, "<p>%d queue%s with %d measured patch%s", n, n == 1 ? "" : "s", measured,
		 measured == 1 ? "" : "es");
	if (own)
		str_addf(&h, ", and %d patch%s on %s own", own, own == 1 ? "" : "es",
			 own == 1 ? "its" : "their");
	str_add(&h, "; the queue with the newest comparison first. <a href=\"trend.html\">The base "
		    "kernel over time and across versions</a>.</p>\n");
	if (!n && !own)
		str_add(&h, "<p>Nothing measured yet.</p>\n");
	str_addn(&h, body.buf ? body.buf : "", body.len);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	if (ok) {
		path = xasprintf("%s/index.html", report_dir);
		ok = write_file_atomic(path, h.buf, h.len, err);
		free(path);
	}
	queue_entries_free(e, n);
	str_free(&body);
	str_free(&h);
	return ok;
}
