/* The view of the trend page (trend-view.h): the report's two trend
 * queries read once, their samples made into lines of medians; and the
 * page written: its plots drawn from the view, then its HTML
 * (page-trend.c's pure trend_html). */
#include "trend-view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-report.h"
#include "plot.h"
#include "report.h"
#include "stats.h"

/* One time metric's samples as a query gives them, copied (a row's text
 * lasts only until the cursor's next step): each one's comparison, its x
 * (the comparison's finish to the minute, or its base version) and its
 * value. */
struct trend_samples {
	enum accel_kind accel;
	char *workload, *metric, *unit;
	long long *cid;
	char **x;
	double *value;
	int n;
};

/* The rows of c, a trend_samples for each time metric (the queries order
 * the rows by accelerator, workload and metric, then comparison or base
 * version); *m and *n grow. */
static void samples_read(struct db_cursor *c, bool by_version, struct trend_samples **m, int *n)
{
	struct trend_row r;

	while (db_cursor_step(c, &r)) {
		struct trend_samples *s = *n ? &(*m)[*n - 1] : NULL;
		char when[32];

		if (!s || s->accel != r.accel || strcmp(s->workload, r.workload) ||
		    strcmp(s->metric, r.metric)) {
			*m = xrealloc(*m, sizeof(**m) * (size_t)(*n + 1));
			s = &(*m)[(*n)++];
			*s = (struct trend_samples){ .accel = r.accel, .workload = xstrdup(r.workload),
						     .metric = xstrdup(r.metric),
						     .unit = xstrdup(r.unit) };
		}
		snprintf(when, sizeof(when), "%.16s", r.finished_at);
		s->cid = xrealloc(s->cid, sizeof(*s->cid) * (size_t)(s->n + 1));
		s->x = xrealloc(s->x, sizeof(*s->x) * (size_t)(s->n + 1));
		s->value = xrealloc(s->value, sizeof(*s->value) * (size_t)(s->n + 1));
		s->cid[s->n] = r.cid;
		s->x[s->n] = xstrdup(by_version ? r.version : when);
		s->value[s->n] = r.value;
		s->n++;
	}
}

static void samples_free(struct trend_samples *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->x[i]);
	free(s->x);
	free(s->cid);
	free(s->value);
	free(s->workload);
	free(s->metric);
	free(s->unit);
}

/* The median of each comparison's values of samples [from, to) (a
 * comparison's are consecutive), then the median of those; *runs: how
 * many comparisons. Of one comparison that is its median, as is. */
static double runs_median(const struct trend_samples *s, int from, int to, int *runs)
{
	double *meds = xcalloc((size_t)(to - from), sizeof(double)), m;
	int k = 0;

	for (int i = from; i < to;) {
		int j = i;

		while (j < to && s->cid[j] == s->cid[i])
			j++;
		meds[k++] = stats_median(s->value + i, j - i);
		i = j;
	}
	m = stats_median(meds, k);
	*runs = k;
	free(meds);
	return m;
}

static int version_order(const void *a, const void *b)
{
	return strverscmp(((const struct trend_point *)a)->x, ((const struct trend_point *)b)->x);
}

/* The line of s: a point per comparison, or (by_version) per base
 * version, the versions then in their order (the query orders them as
 * text). */
static void line_of(struct trend_line *l, const struct trend_samples *s, bool by_version)
{
	*l = (struct trend_line){ .accel = s->accel, .workload = xstrdup(s->workload),
				  .metric = xstrdup(s->metric), .unit = xstrdup(s->unit) };
	l->p = xcalloc((size_t)(s->n ? s->n : 1), sizeof(*l->p));
	for (int i = 0; i < s->n;) {
		int j = i;

		while (j < s->n && (by_version ? !strcmp(s->x[j], s->x[i]) : s->cid[j] == s->cid[i]))
			j++;
		l->p[l->n].x = xstrdup(s->x[i]);
		l->p[l->n].y = runs_median(s, i, j, &l->p[l->n].runs);
		l->n++;
		i = j;
	}
	if (by_version)
		qsort(l->p, (size_t)l->n, sizeof(*l->p), version_order);
}

/* The lines of cursor c's rows, into *l and *n; the cursor stays open. */
static void lines_read(struct db_cursor *c, bool by_version, struct trend_line **l, int *n)
{
	struct trend_samples *m = NULL;
	int nm = 0;

	samples_read(c, by_version, &m, &nm);
	*l = xcalloc((size_t)(nm ? nm : 1), sizeof(**l));
	for (int i = 0; i < nm; i++) {
		line_of(&(*l)[i], &m[i], by_version);
		samples_free(&m[i]);
	}
	*n = nm;
	free(m);
}

bool trend_view_load(struct trend_view *v, sqlite3 *db, pb_err *err)
{
	struct db_cursor c;

	memset(v, 0, sizeof(*v));
	if (!db_report_trend(&c, db, err))
		return false;
	/* a step that fails only cuts the lines over time short (the page
	 * has always been so): the query across versions reads the same
	 * rows, and its failure fails the load */
	lines_read(&c, false, &v->time, &v->ntime);
	db_cursor_close(&c, NULL);
	if (!db_report_trend_versions(&c, db, err)) {
		trend_view_free(v);
		return false;
	}
	lines_read(&c, true, &v->versions, &v->nversions);
	if (!db_cursor_close(&c, err)) {
		trend_view_free(v);
		return false;
	}
	return true;
}

static void lines_free(struct trend_line *l, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < l[i].n; k++)
			free(l[i].p[k].x);
		free(l[i].p);
		free(l[i].workload);
		free(l[i].metric);
		free(l[i].unit);
	}
	free(l);
}

void trend_view_free(struct trend_view *v)
{
	lines_free(v->time, v->ntime);
	lines_free(v->versions, v->nversions);
	memset(v, 0, sizeof(*v));
}

/* A line's plot (its file's name under plots/) and its title: the same
 * for the file plotted and the page that shows it. Free both. */
void trend_line_names(const struct trend_line *l, bool by_version, char **name, char **title)
{
	const char *accel = accel_kind_name(l->accel);

	if (by_version) {
		*name = xasprintf("trend-version-%s-%s-%s.svg", accel, l->workload, l->metric);
		*title = xasprintf("%s %s (%s) by base version", l->workload, l->metric, accel);
	} else {
		*name = xasprintf("trend-%s-%s-%s.svg", accel, l->workload, l->metric);
		*title = xasprintf("%s %s (%s)", l->workload, l->metric, accel);
	}
}

/* Line l's plot, in plot_dir. */
static bool line_plot(const struct trend_line *l, bool by_version, const char *plot_dir,
		      pb_err *err)
{
	const char **x = xcalloc((size_t)l->n, sizeof(*x));
	double *y = xcalloc((size_t)l->n, sizeof(*y));
	char *name, *title, *svg;
	bool ok;

	for (int i = 0; i < l->n; i++) {
		x[i] = l->p[i].x;
		y[i] = l->p[i].y;
	}
	trend_line_names(l, by_version, &name, &title);
	svg = xasprintf("%s/%s", plot_dir, name);
	ok = plot_trend(svg, title, l->unit, y, x, l->n, err);
	free(svg);
	free(name);
	free(title);
	free(x);
	free(y);
	return ok;
}

/* The plot of every line with a point, over time then across versions;
 * the first that fails stops them (and the page). */
static bool trend_plots(const struct trend_view *v, const char *plot_dir, pb_err *err)
{
	for (int i = 0; i < v->ntime; i++)
		if (v->time[i].n && !line_plot(&v->time[i], false, plot_dir, err))
			return false;
	for (int i = 0; i < v->nversions; i++)
		if (v->versions[i].n && !line_plot(&v->versions[i], true, plot_dir, err))
			return false;
	return true;
}

bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err)
{
	char *plot_dir = xasprintf("%s/plots", report_dir), *path;
	struct trend_view v;
	bool ok;

	if (!mkdir_p(plot_dir, err) || !trend_view_load(&v, db, err)) {
		free(plot_dir);
		return false;
	}
	ok = trend_plots(&v, plot_dir, err);
	if (ok) {
		pb_str h;

		str_init(&h);
		trend_html(&v, &h);
		path = xasprintf("%s/trend.html", report_dir);
		ok = write_file_atomic(path, h.buf, h.len, err);
		free(path);
		str_free(&h);
	}
	trend_view_free(&v);
	free(plot_dir);
	return ok;
}
