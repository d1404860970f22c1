/* The views of the mails (mail-view.h): every query a mail needs, so that
 * mail.c renders and perfbot mail picks and writes. */
#include "mail-view.h"

#include <string.h>

#include "queue.h"

bool mail_patch_view_load(struct mail_patch_view *m, sqlite3 *db, const char *db_name,
			  const struct pb_queue *q, const struct pb_patch *p, pb_err *err)
{
	struct index_row newest = { 0 };
	struct db_cursor c;

	memset(m, 0, sizeof(*m));
	if (!db_report_newest(&c, db, q->dir, p->number, err))
		return false;
	if (!db_cursor_step(&c, &newest))
		newest.id = 0;
	if (!db_cursor_close(&c, err))
		return false;
	if (!newest.id) {
		pb_seterr(err, "no comparison of patch %d in %s yet: perfbot run --patch %d measures it",
			  p->number, db_name, p->number);
		return false;
	}
	if (!view_load(&m->view, db, newest.id, err))
		return false;
	/* the trailers are the queue's: only if its file is the one measured */
	m->queued = !strcmp(m->view.r.sha256, p->sha256) ? p : NULL;
	return true;
}

void mail_patch_view_free(struct mail_patch_view *m)
{
	view_free(&m->view);
	memset(m, 0, sizeof(*m));
}

bool mail_series_view_load(struct mail_series_view *m, sqlite3 *db, const struct pb_queue *q,
			   pb_err *err)
{
	struct series_target t;
	bool ok;

	memset(m, 0, sizeof(*m));
	if (!db_series_target(db, q->dir, 0, NULL, NULL, &t, err))
		return false;
	ok = view_load(&m->view, db, t.id, err);
	series_target_free(&t);
	if (ok && !db_report_bisects(&m->bisects, db, m->view.id, err)) {
		view_free(&m->view);
		return false;
	}
	if (!ok)
		return false;
	m->bisected = db_cursor_step(&m->bisects, &m->bisect);
	/* a bisect that cannot be read is an error, not "no bisect": the
	 * mail would leave out what the series' bisect found */
	if (!m->bisected && m->bisects.failed) {
		db_cursor_close(&m->bisects, err);
		view_free(&m->view);
		return false;
	}
	return true;
}

void mail_series_view_free(struct mail_series_view *m)
{
	if (m->bisects.st)
		db_cursor_close(&m->bisects, NULL);
	view_free(&m->view);
	memset(m, 0, sizeof(*m));
}

/* The culprit of m's bisect: the newest stored copy of its patch, else
 * q's. m->queued gets q's copy while it is the one stored: its trailers
 * are then the culprit's. False (err) when neither has it. */
static bool load_culprit(struct mail_bisect_view *m, sqlite3 *db, const struct pb_queue *q,
			 pb_err *err)
{
	const struct bisect_row *b = &m->bisect;
	const struct pb_patch *p = queue_find(q, b->culprit_number);
	bool found;

	if (!db_report_queue_patch(&m->culprit_head, db, q->dir, b->culprit_number, &m->culprit,
				   &found, err))
		return false;
	m->has_culprit = true;
	if (found) {
		m->queued = p && !strcmp(p->sha256, m->culprit.sha256) ? p : NULL;
		return true;
	}
	if (!p) {
		pb_seterr(err, "bisect %lld: its culprit, patch %d, is neither in the database nor in "
			  "the queue %s", b->id, b->culprit_number, q->dir);
		return false;
	}
	m->culprit = (struct patch_page_row){
		.number = p->number, .total = p->total, .series = p->series, .sha256 = p->sha256,
		.subject = p->subject, .author = p->author, .upstream = p->upstream,
		.message_id = p->message_id,
	};
	m->queued = p;
	return true;
}

/* The bisect's steps, copied. */
static bool load_steps(struct mail_bisect_view *m, sqlite3 *db, pb_err *err)
{
	struct bisect_step_row sr;
	struct db_cursor c;

	if (!db_report_bisect_steps(&c, db, m->bisect.id, err))
		return false;
	while (db_cursor_step(&c, &sr))
		mail_steps_add(&m->steps, &sr);
	return db_cursor_close(&c, err);
}

bool mail_bisect_view_load(struct mail_bisect_view *m, sqlite3 *db, const char *db_name,
			   const struct pb_queue *q, long long id, pb_err *err)
{
	bool found;

	memset(m, 0, sizeof(*m));
	if (!db_report_bisect(&m->head, db, id, &m->bisect, &found, err))
		return false;
	if (!found) {
		pb_seterr(err, "no bisect %lld in %s: perfbot bisect makes one", id, db_name);
		goto fail;
	}
	if (!view_load(&m->series, db, m->bisect.series_comparison, err))
		goto fail;
	if (strcmp(m->series.r.series_queue, q->dir)) {
		pb_seterr(err, "bisect %lld is of the queue %s, not %s: --queue names it", id,
			  m->series.r.series_queue, q->dir);
		goto fail;
	}
	if (load_steps(m, db, err) && (!m->bisect.culprit_number || load_culprit(m, db, q, err)))
		return true;
fail:
	mail_bisect_view_free(m);
	return false;
}

void mail_bisect_view_free(struct mail_bisect_view *m)
{
	if (m->culprit_head.st)
		db_cursor_close(&m->culprit_head, NULL);
	mail_steps_free(&m->steps);
	view_free(&m->series);
	if (m->head.st)
		db_cursor_close(&m->head, NULL);
	memset(m, 0, sizeof(*m));
}
