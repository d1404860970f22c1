/* The view of the index and the queues' pages (index-view.h): loaded once,
 * from the report's queries, into values the renderers share; and the
 * pages written from it (page-index.c renders them). */
#include "index-view.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue.h"

/* Each workload of run's comparison with its most pressing verdict. A step
 * that fails ends the list, as the index always had it. */
static bool load_workloads(sqlite3 *db, struct index_run *run, pb_err *err)
{
	struct db_cursor c;
	struct workload_verdict_row r;
	char last[128] = "";
	enum verdict worst = VERDICT_NO_DATA;

	if (!db_report_workload_verdicts(&c, db, run->id, err))
		return false;
	for (bool more = true; more;) {
		more = db_cursor_step(&c, &r);
		if (last[0] && (!more || strcmp(r.workload, last))) {
			struct index_workload *w;

			run->workloads = xrealloc(run->workloads, sizeof(*run->workloads) *
								  (size_t)(run->nworkloads + 1));
			w = &run->workloads[run->nworkloads++];
			*w = (struct index_workload){ xstrdup(last), worst };
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

/* r copied into *run, with its workloads' verdicts (r->id 0: none). */
static bool load_run(sqlite3 *db, const struct index_row *r, struct index_run *run, pb_err *err)
{
	/* a patch never measured has a row of zeros */
	*run = (struct index_run){ r->id, r->status, r->accel, xstrdup(r->id ? r->finished_at : ""),
				   NULL, 0 };
	return !r->id || load_workloads(db, run, err);
}

static void run_free(struct index_run *run)
{
	for (int i = 0; i < run->nworkloads; i++)
		free(run->workloads[i].name);
	free(run->workloads);
	free(run->finished_at);
}

/* The newest comparison of each patch of e's loaded queue. A step that
 * fails reads as none, as the queue's page always had it. */
static bool load_newest(sqlite3 *db, struct index_queue *e, pb_err *err)
{
	const struct pb_queue *q = e->loaded;

	e->newest_runs = xcalloc((size_t)q->npatches + 1, sizeof(*e->newest_runs));
	for (int i = 0; i < q->npatches; i++) {
		struct db_cursor c;
		struct index_row r = { 0 };
		bool ok;

		if (!db_report_newest(&c, db, q->dir, q->patches[i].number, err))
			return false;
		if (!db_cursor_step(&c, &r))
			r.id = 0;
		ok = load_run(db, &r, &e->newest_runs[i], err);
		db_cursor_close(&c, NULL);
		if (!ok)
			return false;
	}
	return true;
}

static void patch_of_row(struct index_patch *p, const struct measured_row *r)
{
	p->number = r->number;
	p->cc_stable = r->cc_stable;
	p->is_mm = r->is_mm;
	p->sha256 = xstrdup(r->sha256);
	p->subject = xstrdup(r->subject);
	p->upstream = xstrdup(r->upstream);
	p->fixes = xstrdup(r->fixes);
	p->mm_reason = xstrdup(r->mm_reason);
	p->file = xstrdup(r->file);
}

static void stored_free(struct index_patch *p)
{
	run_free(&p->run);
	free(p->sha256);
	free(p->subject);
	free(p->upstream);
	free(p->fixes);
	free(p->mm_reason);
	free(p->file);
}

/* The measured patches of queue (NULL: those without a series number). */
static bool load_measured(sqlite3 *db, const char *queue, struct index_patch **out, int *n,
			  pb_err *err)
{
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;

	if (!db_report_measured(&c, db, queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		*out = xrealloc(*out, sizeof(**out) * (size_t)(*n + 1));
		memset(&(*out)[*n], 0, sizeof(**out));
		patch_of_row(&(*out)[*n], &r);
		ok = load_run(db, &r.run, &(*out)[(*n)++].run, err);
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* The newest run of each series of e's queue. */
static bool load_series(sqlite3 *db, struct index_queue *e, pb_err *err)
{
	struct db_cursor c;
	struct series_index_row r;
	bool ok = true;

	if (!db_report_series(&c, db, e->queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct index_series *s;

		e->series = xrealloc(e->series, sizeof(*e->series) * (size_t)(e->nseries + 1));
		s = &e->series[e->nseries++];
		*s = (struct index_series){ .name = xstrdup(r.name), .patches = xstrdup(r.patches),
					    .mode = r.mode };
		ok = load_run(db, &r.run, &s->run, err);
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* Every queue of the database, the newest first, and q where it has no
 * comparison yet. */
static bool load_queues(sqlite3 *db, const struct pb_queue *q, struct index_view *v, pb_err *err)
{
	struct db_cursor c;
	struct queue_row r;
	bool loaded = false;

	if (!db_report_queues(&c, db, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		struct index_queue *e;

		v->queues = xrealloc(v->queues, sizeof(*v->queues) * (size_t)(v->nqueues + 1));
		e = &v->queues[v->nqueues++];
		*e = (struct index_queue){ .queue = xstrdup(r.queue), .newest = xstrdup(r.newest) };
		if (q && !strcmp(q->dir, r.queue)) {
			e->loaded = q;
			loaded = true;
		}
	}
	if (q && !loaded) {
		struct index_queue *e;

		v->queues = xrealloc(v->queues, sizeof(*v->queues) * (size_t)(v->nqueues + 1));
		e = &v->queues[v->nqueues++];
		*e = (struct index_queue){ .queue = xstrdup(q->dir), .newest = xstrdup(""),
					   .loaded = q };
	}
	return db_cursor_close(&c, err);
}

/* What e's page counts: of a queue not loaded, the patches the database
 * holds; of the loaded one, its patches measured and skipped, and those
 * measured that it no longer has. */
static void count_queue(struct index_queue *e)
{
	const struct pb_queue *q = e->loaded;

	memset(&e->n, 0, sizeof(e->n));
	for (int i = 0; q && i < q->npatches; i++) {
		e->n.measured += e->newest_runs[i].id != 0;
		e->n.skipped += !e->newest_runs[i].id && !q->patches[i].is_mm;
	}
	for (int i = 0; i < e->nmeasured; i++) {
		if (q && queue_find(q, e->measured[i].number))
			continue;
		e->n.measured++;
		e->n.gone += q != NULL;
	}
}

bool index_view_load(struct index_view *v, sqlite3 *db, const struct pb_queue *q, pb_err *err)
{
	bool ok;

	memset(v, 0, sizeof(*v));
	/* a patch of one's own is no queue: it is listed among those on their own */
	if (q && q->one_patch)
		q = NULL;
	ok = load_queues(db, q, v, err);
	for (int i = 0; ok && i < v->nqueues; i++) {
		struct index_queue *e = &v->queues[i];

		ok = (!e->loaded || load_newest(db, e, err)) &&
		     load_measured(db, e->queue, &e->measured, &e->nmeasured, err) &&
		     load_series(db, e, err);
		if (ok) {
			count_queue(e);
			v->measured += e->n.measured;
		}
	}
	ok = ok && load_measured(db, NULL, &v->own, &v->nown, err);
	if (!ok)
		index_view_free(v);
	return ok;
}

static void entry_free(struct index_queue *e)
{
	for (int i = 0; e->newest_runs && i < e->loaded->npatches; i++)
		run_free(&e->newest_runs[i]);
	free(e->newest_runs);
	for (int i = 0; i < e->nmeasured; i++)
		stored_free(&e->measured[i]);
	free(e->measured);
	for (int i = 0; i < e->nseries; i++) {
		run_free(&e->series[i].run);
		free(e->series[i].name);
		free(e->series[i].patches);
	}
	free(e->series);
	free(e->queue);
	free(e->newest);
}

void index_view_free(struct index_view *v)
{
	for (int i = 0; i < v->nqueues; i++)
		entry_free(&v->queues[i]);
	free(v->queues);
	for (int i = 0; i < v->nown; i++)
		stored_free(&v->own[i]);
	free(v->own);
	memset(v, 0, sizeof(*v));
}

/* page's text written to <report_dir>/page. */
static bool write_page(const char *report_dir, const char *page, const char *text, pb_err *err)
{
	char *path = xasprintf("%s/%s", report_dir, page);
	bool ok = write_file_atomic(path, text, strlen(text), err);

	free(path);
	return ok;
}

bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err)
{
	struct index_view v;
	char *page, *html;
	bool ok;

	if (!mkdir_p(report_dir, err) || !index_view_load(&v, db, q, err))
		return false;
	ok = true;
	for (int i = 0; ok && i < v.nqueues; i++) {
		page = report_queue_page(v.queues[i].queue);
		html = queue_page_html(&v, i);
		ok = write_page(report_dir, page, html, err);
		free(html);
		free(page);
	}
	if (ok) {
		html = index_html(&v);
		ok = write_page(report_dir, "index.html", html, err);
		free(html);
	}
	index_view_free(&v);
	return ok;
}
