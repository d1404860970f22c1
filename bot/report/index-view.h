/* The view of the index and of each queue's page: everything they show,
 * loaded once (index_view_load) into typed values that own their strings
 * and outlive the queries. The renderers (page-index.c) are pure
 * functions over a view, as view.h's are over one comparison: they run no
 * query, write no file and do not call each other, so that a view built
 * in memory renders as one loaded would, and the index counts what the
 * queues' pages list. Only db/ and lower headers here. */
#ifndef PERFBOT_INDEX_VIEW_H
#define PERFBOT_INDEX_VIEW_H

#include <stdbool.h>

#include <sqlite3.h>

#include "db-report.h"
#include "names.h"
#include "util.h"
#include "verdict.h"

struct pb_queue;

/* A workload of a comparison with its most pressing verdict (verdict.h's
 * ranking: the enum's order). */
struct index_workload {
	char *name;
	enum verdict worst;
};

/* A comparison a page shows: how it ended, where it ran, its workloads. */
struct index_run {
	long long id; /* 0: none (a patch of the loaded queue never measured) */
	enum comparison_status status;
	enum accel_kind accel;
	char *finished_at;
	struct index_workload *workloads; /* in the database's order, by name */
	int nworkloads;
};

/* A measured patch as the database stores it, with its newest comparison. */
struct index_patch {
	struct index_run run;
	int number; /* 0: a patch on its own, known by its sha256 */
	bool cc_stable, is_mm;
	char *sha256, *subject, *upstream, *mm_reason, *file;
	char *fixes; /* one a line */
};

/* The newest run of a series of a queue (perfbot run --series). */
struct index_series {
	struct index_run run;
	char *name, *patches;
	enum series_mode mode;
};

/* What a queue's page and its part of the index count of it. */
struct index_count {
	int measured, skipped; /* skipped: of the loaded queue, not mm */
	int gone;              /* measured, no longer in the loaded queue */
};

/* A queue of the report: the index's part of it and its own page. */
struct index_queue {
	char *queue, *newest; /* newest: its newest comparison's time, "" none */
	/* the queue of this run, else NULL: its patches are listed from it,
	 * the others' from the database */
	const struct pb_queue *loaded;
	/* loaded: the newest comparison of each of loaded's patches, in its
	 * order (id 0: none); else NULL */
	struct index_run *newest_runs;
	struct index_patch *measured; /* every measured patch of it, by number */
	int nmeasured;
	struct index_series *series;  /* newest first */
	int nseries;
	struct index_count n;
};

/* The index and the queues' pages. */
struct index_view {
	struct index_queue *queues; /* the one with the newest comparison first */
	int nqueues;
	struct index_patch *own;    /* patches without a series number, newest first */
	int nown;
	int measured;               /* the queues' measured patches, summed */
};

/* Reads every queue of db and q (the queue loaded, may be NULL; not a
 * patch of one's own, which is listed among those on their own): their
 * patches, series and counts, each comparison's worst verdict per
 * workload, then the patches on their own. v points at q, which must
 * outlive it. False (err, v empty) if a query fails. */
bool index_view_load(struct index_view *v, sqlite3 *db, const struct pb_queue *q, pb_err *err);
/* Frees what index_view_load (or a test, by hand) put in v. */
void index_view_free(struct index_view *v);

/* The page of v's queue i (report_queue_page()'s name): every patch of it,
 * its newest comparison's verdict per workload or why it was skipped, and
 * its series. Free it. */
char *queue_page_html(const struct index_view *v, int i);
/* index.html: every queue, its measured patches and series, then the
 * patches on their own. Free it. */
char *index_html(const struct index_view *v);

#endif
