/* What each mail is rendered from, loaded by one function apiece, so that
 * mail.c's renderers run no query and perfbot mail only picks, renders and
 * writes: a patch's newest comparison, a queue's newest series comparison
 * with its newest bisect, or a bisect with its steps, the series
 * comparison it bisected and its culprit's patch. Each holds the cursors
 * its rows' strings live in until it is freed. db_name: the database's
 * path, as an error names it. */
#ifndef PERFBOT_MAIL_VIEW_H
#define PERFBOT_MAIL_VIEW_H

#include <stdbool.h>

#include <sqlite3.h>

#include "db-report.h"
#include "mail.h"
#include "util.h"
#include "view.h"

struct pb_queue;
struct pb_patch;

/* Patch p of queue q: its newest comparison. */
struct mail_patch_view {
	struct view view;
	/* p where its file is the one measured (its trailers are the
	 * mail's), else NULL: it changed since */
	const struct pb_patch *queued;
};
/* False (err) if it cannot be read, or p has no comparison yet. */
bool mail_patch_view_load(struct mail_patch_view *m, sqlite3 *db, const char *db_name,
			  const struct pb_queue *q, const struct pb_patch *p, pb_err *err);
void mail_patch_view_free(struct mail_patch_view *m);

/* Queue q's newest series comparison and its newest bisect. */
struct mail_series_view {
	struct view view;
	struct db_cursor bisects; /* holds bisect's strings */
	struct bisect_row bisect;
	bool bisected;            /* false: none, bisect unset */
};
bool mail_series_view_load(struct mail_series_view *m, sqlite3 *db, const struct pb_queue *q,
			   pb_err *err);
void mail_series_view_free(struct mail_series_view *m);

/* Bisect id of queue q. */
struct mail_bisect_view {
	struct db_cursor head, culprit_head; /* hold bisect's and culprit's strings */
	struct bisect_row bisect;
	struct view series;      /* the series comparison it bisected */
	struct mail_steps steps;
	/* its culprit's patch: the newest stored copy of it, else the queue's
	 * (a patch measured only within the series has none stored) */
	bool has_culprit;
	struct patch_page_row culprit;
	const struct pb_patch *queued; /* the queue's copy while it is the one stored */
};
/* False (err) if it cannot be read, there is no bisect id, it is of
 * another queue, or neither the database nor q has its culprit. */
bool mail_bisect_view_load(struct mail_bisect_view *m, sqlite3 *db, const char *db_name,
			   const struct pb_queue *q, long long id, pb_err *err);
void mail_bisect_view_free(struct mail_bisect_view *m);

#endif
