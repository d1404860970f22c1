/* The view of one stored comparison: everything its answer on the
 * terminal, its JSON and its mail show, loaded once (view_load) into typed
 * values that outlive the queries. The renderers (answer.c, mail.c) are
 * pure functions over a view: they run no query and do not call each
 * other, so that a view built in memory renders as one loaded would, and
 * the terminal, the mail and the JSON cannot say different things. Only
 * db/ and lower headers here: the renderers include this one, never the
 * other way round. */
#ifndef PERFBOT_VIEW_H
#define PERFBOT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

#include "db-report.h"
#include "names.h"
#include "util.h"
#include "verdict.h"

/* One metric of a comparison as the answer and the mail show it, copied
 * out of its result_row (whose strings last only until the cursor's next
 * step). */
struct view_metric {
	char *name; /* workload.metric */
	char *unit;
	bool timing; /* a time metric (kind "time"): the others are behaviour */
	enum verdict verdict;
	double without, with, change_pct, ci_lo_pct, ci_hi_pct; /* NAN: none */
	/* how it was decided (the JSON's): NAN and "" where the row has none;
	 * the direction every row has */
	enum better better;
	char *regime, *noise_from;
	double p_adj, noise_pct, threshold_pct;
	int n_without, n_with, boots_without, boots_with, look;
};
struct view_metrics {
	struct view_metric *v;
	int n;
};
void view_metrics_add(struct view_metrics *m, const struct result_row *r);
void view_metrics_free(struct view_metrics *m);
/* What a reader must look at: the notable verdicts, and one more boots
 * may still decide. */
bool view_metric_changed(const struct view_metric *m);
/* The changed metrics, most pressing first (verdict.h's ranking, then the
 * larger change); *n of them. Free the array (not its metrics). */
const struct view_metric **view_metrics_changed(const struct view_metrics *m, int *n);

/* The first boot that failed, the answer's crash: 0 boot if none. */
struct view_crash {
	int boot;                /* its place in the boot order, from 1 */
	int failed;              /* boots that failed, this one included */
	enum boot_outcome outcome;
	enum side side;
	char *kernel, *line, *console_log;
};

/* A stored comparison as its answer and its mail tell it. */
struct view {
	long long id;
	struct db_cursor page;   /* holds r's strings while the view lives */
	struct patch_page_row r;
	struct view_metrics metrics;
	struct view_crash crash;
};
/* Reads comparison cid: its page row, its metrics, its first failed boot;
 * false (err) if it cannot, or there is none. */
bool view_load(struct view *v, sqlite3 *db, long long cid, pb_err *err);
/* Frees what view_load (or a test, by hand) put in v. */
void view_free(struct view *v);

#endif
