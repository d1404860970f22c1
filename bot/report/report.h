/* HTML reports, written from the database. Everything that came from a patch
 * or a guest is escaped. */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <sqlite3.h>

#include "pages.h"
#include "util.h"

/* Appends s to out with & < > " ' escaped. */
void html_escape(pb_str *out, const char *s);
/* html_escape, with each http:// or https:// URL a link to itself (a
 * sentence's full stop, a parenthesis it did not open left out) and each
 * stable patch's upstream line ("commit <sha> upstream.", "[ Upstream
 * commit <sha> ]") linking its commit on git.kernel.org. */
void html_linkify(pb_str *out, const char *s);

/* Writes <report_dir>/<report_page_of()> for one comparison. */
bool report_write_patch(sqlite3 *db, long long comparison_id, const char *report_dir,
			char **written, pb_err *err);

struct pb_queue;
/* reports/index.html: every queue of the database, the one with the
 * newest comparison first, each with its measured patches (their newest
 * comparison's verdict per workload) and its series; then the patches
 * without a series number. And each queue's page: every patch of it, its
 * verdicts or why it was skipped; of q (the queue loaded, may be NULL)
 * what the queue says, of the others what the database holds. */
bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err);

/* reports/trend.html: each time metric of the base kernel across runs. */
bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err);

/* Every page: of every patch of every queue and of every series (their
 * newest comparison each), the index and the queues' pages, the trend;
 * *pages gets the number of patch and series pages. */
bool report_write_all(sqlite3 *db, const struct pb_queue *q, const char *report_dir, int *pages,
		      pb_err *err);

#endif
