/* The HTML report: a page per patch (its comparison's metrics, plots,
 * boots and patch text, page-patch.c), a page per queue and the index of
 * every queue (page-index.c), the base kernel's trend (page-trend.c), in
 * the kit of html.c. Its rows come from db-report.c; everything is
 * escaped. */
#include "report.h"

#include "db-report.h"

#include <stdlib.h>

bool report_write_all(sqlite3 *db, const struct pb_queue *q, const char *report_dir, int *pages,
		      pb_err *err)
{
	struct db_cursor c;
	struct comparison_id_row r;
	bool ok = true;

	*pages = 0;
	/* every page the index links: the newest comparison of every patch
	 * of every queue, of every patch of its own, of every series */
	if (!db_report_pages(&c, db, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		char *written = NULL;

		ok = report_write_patch(db, r.id, report_dir, &written, err);
		*pages += ok;
		free(written);
	}
	db_cursor_close(&c, NULL);
	return ok && report_write_index(db, q, report_dir, err) && report_write_trend(db, report_dir, err);
}
