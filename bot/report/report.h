/* HTML reports, written from the database. Everything that came from a patch
 * or a guest is escaped. */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <sqlite3.h>

#include "util.h"

/* Appends s to out with & < > " ' escaped. */
void html_escape(pb_str *out, const char *s);

struct patch_page_row;
/* How a comparison's verdicts were reached, in a paragraph (the patch
 * page's statistics row, the mail's): the test, alpha, beta, the gate, the
 * looks, the noise, the seed. Free it. */
char *report_statistics(const struct patch_page_row *r);

/* Writes <report_dir>/<patch number>.html for one comparison. */
bool report_write_patch(sqlite3 *db, long long comparison_id, const char *report_dir,
			char **written, pb_err *err);

struct pb_queue;
/* reports/index.html: every patch of the queue, its newest comparison's
 * verdict per workload, or why it was skipped. */
bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err);

/* reports/trend.html: each time metric of the base kernel across runs. */
bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err);

/* Every patch page (newest comparison each), the index and the trend;
 * *pages gets the number of patch pages. */
bool report_write_all(sqlite3 *db, const struct pb_queue *q, const char *report_dir, int *pages,
		      pb_err *err);

#endif
