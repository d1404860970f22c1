/* The base kernel's trend: each time metric across runs, and its median
 * per base kernel version, by accelerator. */
#include "report.h"
#include "html.h"

#include "compare.h"
#include "db-report.h"
#include "outcome.h"
#include "plot.h"
#include "queue.h"
#include "stats.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One time metric of the base kernel: its median in each comparison. */
struct trend {
	enum accel_kind accel;
	char *workload, *metric, *unit;
	double *y;
	char **when;
	int n;
};

static void trend_close(struct trend *t, const char *plot_dir, pb_str *h, int *nplots, bool *ok,
			pb_err *err)
{
	if (!t->workload)
		return;
	if (*ok && t->n) {
		const char *accel = accel_kind_name(t->accel);
		char *name = xasprintf("trend-%s-%s-%s.svg", accel, t->workload, t->metric);
		char *svg = xasprintf("%s/%s", plot_dir, name);
		char *title = xasprintf("%s %s (%s)", t->workload, t->metric, accel);

		*ok = plot_trend(svg, title, t->unit, t->y, (const char *const *)t->when, t->n, err);
		str_add(h, "<figure><img src=\"plots/");
		html_escape(h, name);
		str_add(h, "\" alt=\"");
		html_escape(h, title);
		str_add(h, "\" width=\"440\" height=\"270\"><figcaption>");
		html_escape(h, title);
		str_addf(h, ", %d run(s)</figcaption></figure>\n", t->n);
		(*nplots)++;
		free(name);
		free(svg);
		free(title);
	}
	for (int i = 0; i < t->n; i++)
		free(t->when[i]);
	free(t->when);
	free(t->y);
	free(t->workload);
	free(t->metric);
	free(t->unit);
	memset(t, 0, sizeof(*t));
}

/* The trend's walk over its rows: the metric being gathered, the values of
 * its current comparison, the plots made. */
struct trend_walk {
	struct trend t;
	pb_str vals;
	long long cur;
	int nplots;
};

/* One row (more false: the end); the values of one comparison make one
 * point, their median, and each metric its plot. */
static void trend_step(struct trend_walk *w, const struct trend_row *r, bool more,
		       const char *plot_dir, pb_str *h, bool *ok, pb_err *err)
{
	struct trend *t = &w->t;
	bool same_metric = more && t->workload && t->accel == r->accel &&
			   !strcmp(t->workload, r->workload) && !strcmp(t->metric, r->metric);
	long long cid = more ? r->cid : -1;

	if (t->workload && (!same_metric || cid != w->cur) && w->vals.len) {
		double *v = (double *)w->vals.buf;
		int nv = (int)(w->vals.len / sizeof(double));

		t->y = xrealloc(t->y, sizeof(double) * (size_t)(t->n + 1));
		t->y[t->n] = stats_median(v, nv);
		t->n++;
		w->vals.len = 0;
	}
	if (!same_metric)
		trend_close(t, plot_dir, h, &w->nplots, ok, err);
	if (!more)
		return;
	if (!t->workload) {
		t->accel = r->accel;
		t->workload = xstrdup(r->workload);
		t->metric = xstrdup(r->metric);
		t->unit = xstrdup(r->unit);
	}
	if (cid != w->cur || !same_metric) {
		char when[32];

		snprintf(when, sizeof(when), "%.16s", r->finished_at);
		t->when = xrealloc(t->when, sizeof(char *) * (size_t)(t->n + 1));
		t->when[t->n] = xstrdup(when);
		w->cur = cid;
	}
	str_addn(&w->vals, (const char *)&r->value, sizeof(r->value));
}

/* One time metric of the base kernel across base versions: its rows, in
 * version (as text) and comparison order. */
struct version_walk {
	enum accel_kind accel;
	char *workload, *metric, *unit;
	char **version;
	long long *cid;
	double *value;
	int n, nplots;
};

/* A point of the plot: a base version, the median of its comparisons'
 * medians, how many comparisons. */
struct version_point {
	const char *version;
	double median;
	int runs;
};

static int version_order(const void *a, const void *b)
{
	return strverscmp(((const struct version_point *)a)->version,
			  ((const struct version_point *)b)->version);
}

/* The median of each comparison's values of rows [from, to). */
static double runs_median(const struct version_walk *w, int from, int to, int *runs)
{
	double *meds = xcalloc((size_t)(to - from), sizeof(double)), m;
	int k = 0;

	for (int i = from; i < to;) {
		int j = i;

		while (j < to && w->cid[j] == w->cid[i])
			j++;
		meds[k++] = stats_median(w->value + i, j - i);
		i = j;
	}
	m = stats_median(meds, k);
	*runs = k;
	free(meds);
	return m;
}

/* The metric gathered: its plot over the versions (oldest first), its
 * rows of the table; then the walk is emptied. */
static void version_close(struct version_walk *w, const char *plot_dir, pb_str *figs, pb_str *table,
			  bool *ok, pb_err *err)
{
	struct version_point *pt = xcalloc((size_t)(w->n ? w->n : 1), sizeof(*pt));
	int np = 0;

	for (int i = 0; i < w->n;) {
		int j = i;

		while (j < w->n && !strcmp(w->version[j], w->version[i]))
			j++;
		pt[np].version = w->version[i];
		pt[np].median = runs_median(w, i, j, &pt[np].runs);
		np++;
		i = j;
	}
	qsort(pt, (size_t)np, sizeof(*pt), version_order);
	if (*ok && np) {
		char *name = xasprintf("trend-version-%s-%s-%s.svg", accel_kind_name(w->accel), w->workload,
				       w->metric);
		char *svg = xasprintf("%s/%s", plot_dir, name);
		char *title = xasprintf("%s %s (%s) by base version", w->workload, w->metric,
					accel_kind_name(w->accel));
		const char **labels = xcalloc((size_t)np, sizeof(*labels));
		double *y = xcalloc((size_t)np, sizeof(*y));

		for (int i = 0; i < np; i++) {
			labels[i] = pt[i].version;
			y[i] = pt[i].median;
		}
		*ok = plot_trend(svg, title, w->unit, y, labels, np, err);
		str_add(figs, "<figure><img src=\"plots/");
		html_escape(figs, name);
		str_add(figs, "\" alt=\"");
		html_escape(figs, title);
		str_add(figs, "\" width=\"440\" height=\"270\"><figcaption>");
		html_escape(figs, title);
		str_addf(figs, ", %d version(s)</figcaption></figure>\n", np);
		w->nplots++;
		for (int i = 0; i < np; i++) {
			char med[32], runs[16], *metric = xasprintf("%s %s", w->workload, w->metric);

			html_fmt_num(med, sizeof(med), pt[i].median);
			snprintf(runs, sizeof(runs), "%d", pt[i].runs);
			str_add(table, "<tr>");
			html_cell(table, "td", accel_kind_name(w->accel), NULL);
			html_cell(table, "td", metric, NULL);
			html_cell(table, "td", pt[i].version, NULL);
			html_cell(table, "td", med, "num");
			html_cell(table, "td", w->unit, NULL);
			html_cell(table, "td", runs, "num");
			str_add(table, "</tr>\n");
			free(metric);
		}
		free(labels);
		free(y);
		free(name);
		free(svg);
		free(title);
	}
	free(pt);
	for (int i = 0; i < w->n; i++)
		free(w->version[i]);
	free(w->version);
	free(w->cid);
	free(w->value);
	free(w->workload);
	free(w->metric);
	free(w->unit);
	w->version = NULL;
	w->cid = NULL;
	w->value = NULL;
	w->accel = ACCEL_AUTO;
	w->workload = w->metric = w->unit = NULL;
	w->n = 0;
}

/* trend.html's part by base version: each time metric's median per base
 * version, by accelerator. */
static bool trend_versions(sqlite3 *db, const char *plot_dir, pb_str *h, pb_err *err)
{
	struct version_walk w = { 0 };
	struct db_cursor c;
	struct trend_row r;
	pb_str figs, table;
	bool ok = true;

	if (!db_report_trend_versions(&c, db, err))
		return false;
	str_init(&figs);
	str_init(&table);
	for (bool more = true; more && ok;) {
		more = db_cursor_step(&c, &r);
		if (w.metric && (!more || w.accel != r.accel || strcmp(w.workload, r.workload) ||
				 strcmp(w.metric, r.metric)))
			version_close(&w, plot_dir, &figs, &table, &ok, err);
		if (!more)
			break;
		if (!w.metric) {
			w.accel = r.accel;
			w.workload = xstrdup(r.workload);
			w.metric = xstrdup(r.metric);
			w.unit = xstrdup(r.unit);
		}
		w.version = xrealloc(w.version, sizeof(char *) * (size_t)(w.n + 1));
		w.cid = xrealloc(w.cid, sizeof(long long) * (size_t)(w.n + 1));
		w.value = xrealloc(w.value, sizeof(double) * (size_t)(w.n + 1));
		w.version[w.n] = xstrdup(r.version);
		w.cid[w.n] = r.cid;
		w.value[w.n] = r.value;
		w.n++;
	}
	version_close(&w, plot_dir, &figs, &table, &ok, err);
	ok = db_cursor_close(&c, ok ? err : NULL) && ok;
	str_add(h, "<h2>Across base kernel versions</h2>\n<p>Each time metric of the base kernel: "
		   "the median, per base kernel version, of its comparisons' medians, the oldest "
		   "version first; one plot per accelerator (never compared across them). A step "
		   "here came with the stable release, not with a patch.</p>\n");
	if (w.nplots)
		str_addf(h, "<div class=\"plots\">\n%s</div>\n<table><tr><th>accelerator</th>"
			    "<th>metric</th><th>base version</th><th>median</th><th>unit</th>"
			    "<th>comparisons</th></tr>\n%s</table>\n", figs.buf, table.buf);
	else
		str_add(h, "<p>No comparison has run the base kernel yet.</p>\n");
	str_free(&figs);
	str_free(&table);
	return ok;
}

bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err)
{
	struct trend_walk w = { .cur = -1 };
	struct db_cursor c = { 0 };
	struct trend_row r;
	pb_str h;
	char *plot_dir = xasprintf("%s/plots", report_dir), *path;
	bool ok = mkdir_p(plot_dir, err);

	str_init(&h);
	str_init(&w.vals);
	html_page_head(&h, "perfbot: the base kernel over time and across versions");
	str_add(&h, "<p><a href=\"index.html\">All queues</a></p>\n<h2>Over time</h2>\n"
		    "<p>Each time metric of the base kernel (the side of every comparison that ran "
		    "the base as shipped): its median per comparison, oldest first, one plot per "
		    "accelerator (never compared across them). Drift here is the machine or the base, "
		    "not a patch.</p>\n<div class=\"plots\">\n");
	if (ok && !db_report_trend(&c, db, err))
		ok = false;
	for (bool more = ok; more && ok;) {
		more = db_cursor_step(&c, &r);
		trend_step(&w, &r, more, plot_dir, &h, &ok, err);
	}
	trend_close(&w.t, plot_dir, &h, &w.nplots, &ok, err);
	db_cursor_close(&c, NULL);
	if (!w.nplots)
		str_add(&h, "<p>No comparison has run the base kernel yet.</p>\n");
	str_add(&h, "</div>\n");
	ok = ok && trend_versions(db, plot_dir, &h, err);
	str_add(&h, "</body></html>\n");
	if (ok) {
		path = xasprintf("%s/trend.html", report_dir);
		ok = write_file_atomic(path, h.buf, h.len, err);
		free(path);
	}
	str_free(&h);
	str_free(&w.vals);
	free(plot_dir);
	return ok;
}
