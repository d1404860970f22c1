/* The view of the trend page (trend.html): the base kernel's time metrics
 * over time and across base versions, loaded once (trend_view_load) into
 * typed values that outlive the queries. The page is then drawn from it in
 * two steps that run no query: its plots (SVG files, page-trend.c) and its
 * HTML (trend_html, a pure function of the view), so that a view built in
 * memory renders as one loaded would. Only db/ and lower headers here, as
 * in view.h. */
#ifndef PERFBOT_TREND_VIEW_H
#define PERFBOT_TREND_VIEW_H

#include <stdbool.h>

#include <sqlite3.h>

#include "names.h"
#include "util.h"

/* A point of a line: over time, one comparison (x its finish, to the
 * minute; y the median of its samples); across versions, one base version
 * (x the version; y the median of its comparisons' medians). */
struct trend_point {
	char *x;
	double y;
	int runs; /* comparisons behind y: 1 over time */
};

/* One time metric of the base kernel on one accelerator (never two in one
 * line): its points, the oldest first (by comparison, or by version as
 * strverscmp orders them: 6.1.20 before 6.1.192). */
struct trend_line {
	enum accel_kind accel;
	char *workload, *metric, *unit;
	struct trend_point *p;
	int n;
};

/* The page's lines, by accelerator, workload and metric: over time, and
 * across base versions. */
struct trend_view {
	struct trend_line *time, *versions;
	int ntime, nversions;
};

/* Reads the base kernel's time samples and makes them the view's lines;
 * false (err, v left empty) if it cannot. */
bool trend_view_load(struct trend_view *v, sqlite3 *db, pb_err *err);
/* Frees what trend_view_load (or a test, by hand) put in v; v is then
 * empty. */
void trend_view_free(struct trend_view *v);

/* The file name of line l's plot under plots/ (by_version: of the line
 * across versions) and its title: the same for the file plotted and the
 * page that shows it. Free both. */
void trend_line_names(const struct trend_line *l, bool by_version, char **name, char **title);

/* trend.html of v, appended to h: the lines' figures (their plots under
 * plots/, by the names the plots are written to) and the medians by base
 * version in a table. Runs no query and writes no file. */
void trend_html(const struct trend_view *v, pb_str *h);

#endif
