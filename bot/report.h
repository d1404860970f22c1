/* HTML reports, written from the database. Everything that came from a patch
 * or a guest is escaped. */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <sqlite3.h>

#include "util.h"

/* Appends s to out with & < > " ' escaped. */
void html_escape(pb_str *out, const char *s);

/* Writes <report_dir>/<patch number>.html for one comparison. */
bool report_write_patch(sqlite3 *db, long long comparison_id, const char *report_dir,
			char **written, pb_err *err);

#endif
