/* What the library asks of the layers above it once something is measured
 * or stored: the report written, the answer said. run/ knows nothing of
 * the report; the commands hand in theirs (cli_presenter, cli.c), and a
 * run without one (a test, a benchmark) shows nothing. Every function
 * may be NULL. report_dir is [report] dir. */
#ifndef PERFBOT_PRESENT_H
#define PERFBOT_PRESENT_H

#include <sqlite3.h>
#include <stdbool.h>

#include "comparison.h"
#include "util.h"

struct pb_queue;

struct presenter {
	/* run --all: the comparison's table as it was measured, before the store */
	void (*measured)(const struct comparison *cmp);
	/* comparison cid, stored in db: its page (*page, the caller's to free),
	 * the index and the trend */
	bool (*pages)(sqlite3 *db, const struct pb_queue *q, const char *report_dir, long long cid,
		      char **page, pb_err *err);
	/* its answer, as the database has it now; table: with what moved */
	void (*answer)(sqlite3 *db, long long cid, bool table);
	/* a bisect stored: the page of its series comparison cid (*page) and the index */
	bool (*bisect_pages)(sqlite3 *db, const struct pb_queue *q, const char *report_dir,
			     long long cid, char **page, pb_err *err);
	/* comparisons imported (a Slurm job's): every page of the queue, and
	 * comparison cid's own (*page; cid 0: none) */
	bool (*imported_pages)(sqlite3 *db, const struct pb_queue *q, const char *report_dir,
			       long long cid, char **page, pb_err *err);
};

#endif
