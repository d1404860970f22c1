/* The index of every queue and each queue's page: its patches, their
 * newest comparison's verdicts per workload, or why they were skipped,
 * and its series runs; then the patches without a series number. Each
 * rendered from the view index_view_load reads (index-view.h), by
 * functions that run no query and write no file: report_write_index
 * (index-view.c) loads, then writes. */
#include "index-view.h"
#include "report.h"
#include "html.h"

#include "queue.h"

#include <stdlib.h>
#include <string.h>

/* Each workload of a comparison with its most pressing verdict. */
static void run_verdicts(pb_str *h, const struct index_run *run)
{
	for (int i = 0; i < run->nworkloads; i++) {
		str_addf(h, "<span class=\"%s tag\">", html_verdict_class(run->workloads[i].worst));
		html_escape(h, run->workloads[i].name);
		str_add(h, ": ");
		html_escape(h, verdict_name(run->workloads[i].worst));
		str_add(h, "</span> ");
	}
}

/* The index's cells of a patch that has a comparison: its verdicts, its run. */
static void index_measured(pb_str *h, const struct index_run *run)
{
	str_add(h, "<td>");
	if (run->status != STATUS_MEASURED) {
		str_add(h, "<span class=\"bad tag\">");
		html_escape(h, status_name(run->status));
		str_add(h, "</span> ");
	}
	run_verdicts(h, run);
	str_add(h, "</td><td>");
	html_escape(h, accel_kind_name(run->accel));
	str_add(h, " ");
	html_escape(h, run->finished_at);
	str_add(h, "</td>");
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

static struct patch_cells cells_of_stored(const struct index_patch *p)
{
	return (struct patch_cells){ p->number, p->sha256, p->subject, p->upstream, p->mm_reason,
				     p->fixes, p->is_mm, p->cc_stable };
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

/* Patch i of e's loaded queue: its row of the queue's table. */
static void queue_patch_row(pb_str *h, const struct index_queue *e, int i)
{
	const struct pb_patch *p = &e->loaded->patches[i];
	const struct index_run *run = &e->newest_runs[i];
	struct patch_cells pc;
	pb_str fixes;

	str_init(&fixes);
	pc = cells_of_patch(p, &fixes);
	str_add(h, "<tr>");
	index_patch(h, e->queue, &pc, run->id != 0, NULL);
	if (run->id) {
		index_measured(h, run);
	} else {
		char *why = p->is_mm ? xstrdup("not measured yet (perfbot run --patch N)")
				     : xasprintf("skipped: not an mm patch (%s)", p->mm_reason);

		str_addf(h, "<td colspan=\"2\" class=\"%s\">", p->is_mm ? "open" : "same");
		html_escape(h, why);
		str_add(h, "</td>");
		free(why);
	}
	str_add(h, "</tr>\n");
	str_free(&fixes);
}

/* The measured patches of e the database holds: of a queue not loaded
 * every one, of the loaded queue those no longer in it. */
static void queue_stored_rows(pb_str *h, const struct index_queue *e)
{
	const struct pb_queue *q = e->loaded;

	for (int i = 0; i < e->nmeasured; i++) {
		struct patch_cells pc = cells_of_stored(&e->measured[i]);

		if (q && queue_find(q, e->measured[i].number))
			continue;
		str_add(h, "<tr>");
		index_patch(h, e->queue, &pc, true, q ? "(measured before; not in the queue now)" : NULL);
		index_measured(h, &e->measured[i].run);
		str_add(h, "</tr>\n");
	}
}

/* The queue as a whole (perfbot run --series): each series' newest run. */
static void index_series(pb_str *h, const struct index_queue *e)
{
	if (e->nseries)
		str_add(h, "<h3>The queue as a whole</h3>\n<table><tr><th>series</th><th>how"
			   "</th><th>patches applied</th><th>workloads: verdict</th>"
			   "<th>run</th></tr>\n");
	for (int i = 0; i < e->nseries; i++) {
		const struct index_series *s = &e->series[i];
		char *page = report_series_page(e->queue, s->name);

		str_add(h, "<tr><td><a href=\"");
		html_escape(h, page);
		free(page);
		str_add(h, "\">");
		html_escape(h, s->name);
		str_add(h, "</a></td><td>");
		html_escape(h, s->mode == SERIES_FORWARD ? "applied" : "mm patches taken out");
		str_add(h, "</td><td>");
		html_escape(h, s->patches);
		str_add(h, "</td>");
		index_measured(h, &s->run);
		str_add(h, "</tr>\n");
	}
	if (e->nseries)
		str_add(h, "</table>\n");
}

/* The sentence that counts a queue's patches. */
static char *queue_counts(const struct index_queue *e)
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

char *queue_page_html(const struct index_view *v, int i)
{
	const struct index_queue *e = &v->queues[i];
	char *title = xasprintf("perfbot: queue %s", html_queue_name(e->queue)), *counts;
	pb_str h;

	str_init(&h);
	html_page_head(&h, title);
	html_nav(&h, NULL);
	str_add(&h, "<p>Queue ");
	html_escape(&h, e->queue);
	str_add(&h, ". <a href=\"trend.html\">The base kernel over time and across versions</a>.</p>\n"
		    "<table><tr><th>#</th><th>subject</th><th>upstream</th><th>mm</th>"
		    "<th>reached stable</th><th>Fixes</th><th>workloads: verdict</th><th>run</th></tr>\n");
	for (int p = 0; e->loaded && p < e->loaded->npatches; p++)
		queue_patch_row(&h, e, p);
	queue_stored_rows(&h, e);
	counts = queue_counts(e);
	str_add(&h, "</table>\n<p>");
	html_escape(&h, counts);
	str_add(&h, "</p>\n");
	free(counts);
	index_series(&h, e);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	free(title);
	return str_steal(&h);
}

/* The index's part of a queue: its measured patches, its series. */
static void index_queue(pb_str *h, const struct index_queue *e)
{
	char *page = report_queue_page(e->queue), *counts = queue_counts(e);

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
	if (e->nmeasured)
		str_add(h, "<table><tr><th>#</th><th>subject</th><th>workloads: verdict</th>"
			   "<th>run</th></tr>\n");
	for (int i = 0; i < e->nmeasured; i++) {
		const struct index_patch *p = &e->measured[i];

		str_add(h, "<tr>");
		label_cell(h, e->queue, p->number, p->sha256, true);
		html_cell(h, "td", p->subject, NULL);
		index_measured(h, &p->run);
		str_add(h, "</tr>\n");
	}
	if (e->nmeasured)
		str_add(h, "</table>\n");
	index_series(h, e);
}

/* The index's patches without a series number (perfbot run --patch-file). */
static void index_own(pb_str *h, const struct index_view *v)
{
	if (v->nown)
		str_add(h, "<h2 id=\"own\">Patches on their own</h2>\n<p>Patch files without a "
			   "series number, each by its identity (the first 12 hex digits of its "
			   "sha256).</p>\n<table><tr><th>patch</th><th>subject</th><th>file</th>"
			   "<th>workloads: verdict</th><th>run</th></tr>\n");
	for (int i = 0; i < v->nown; i++) {
		const struct index_patch *p = &v->own[i];

		str_add(h, "<tr>");
		label_cell(h, "", 0, p->sha256, true);
		html_cell(h, "td", p->subject, NULL);
		html_cell(h, "td", p->file, NULL);
		index_measured(h, &p->run);
		str_add(h, "</tr>\n");
	}
	if (v->nown)
		str_add(h, "</table>\n");
}

char *index_html(const struct index_view *v)
{
	int n = v->nqueues, own = v->nown, measured = v->measured;
	pb_str h;

	str_init(&h);
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
	for (int i = 0; i < n; i++)
		index_queue(&h, &v->queues[i]);
	index_own(&h, v);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	return str_steal(&h);
}
