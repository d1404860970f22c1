/* The base kernel's trend: each time metric across runs, and its median
 * per base kernel version, by accelerator. A pure function of its view
 * (trend-view.h), which loads it and draws its plots: no query, no file
 * read or written here. */
#include "report.h"
#include "html.h"
#include "trend-view.h"

#include <stdio.h>
#include <stdlib.h>

/* A line's figure: its plot, captioned with how many points it has. */
static void line_figure(pb_str *h, const struct trend_line *l, bool by_version)
{
	char *name, *title;

	trend_line_names(l, by_version, &name, &title);
	str_add(h, "<figure><img src=\"plots/");
	html_escape(h, name);
	str_add(h, "\" alt=\"");
	html_escape(h, title);
	str_add(h, "\" width=\"440\" height=\"270\"><figcaption>");
	html_escape(h, title);
	str_addf(h, ", %d %s</figcaption></figure>\n", l->n, by_version ? "version(s)" : "run(s)");
	free(name);
	free(title);
}

/* A line's rows of the table by version: a row per version. */
static void line_rows(pb_str *h, const struct trend_line *l)
{
	char *metric = xasprintf("%s %s", l->workload, l->metric);

	for (int i = 0; i < l->n; i++) {
		char med[32], runs[16];

		html_fmt_num(med, sizeof(med), l->p[i].y);
		snprintf(runs, sizeof(runs), "%d", l->p[i].runs);
		str_add(h, "<tr>");
		html_cell(h, "td", accel_kind_name(l->accel), NULL);
		html_cell(h, "td", metric, NULL);
		html_cell(h, "td", l->p[i].x, NULL);
		html_cell(h, "td", med, "num");
		html_cell(h, "td", l->unit, NULL);
		html_cell(h, "td", runs, "num");
		str_add(h, "</tr>\n");
	}
	free(metric);
}

/* trend.html's part over time: a plot per line. */
static void over_time_html(pb_str *h, const struct trend_view *v)
{
	int nplots = 0;

	str_add(h, "<p><a href=\"index.html\">All queues</a></p>\n<h2>Over time</h2>\n"
		   "<p>Each time metric of the base kernel (the side of every comparison that ran "
		   "the base as shipped): its median per comparison, oldest first, one plot per "
		   "accelerator (never compared across them). Drift here is the machine or the base, "
		   "not a patch.</p>\n<div class=\"plots\">\n");
	for (int i = 0; i < v->ntime; i++)
		if (v->time[i].n) {
			line_figure(h, &v->time[i], false);
			nplots++;
		}
	if (!nplots)
		str_add(h, "<p>No comparison has run the base kernel yet.</p>\n");
	str_add(h, "</div>\n");
}

/* trend.html's part by base version: a plot per line, and each line's
 * medians in one table. */
static void versions_html(pb_str *h, const struct trend_view *v)
{
	int nplots = 0;

	str_add(h, "<h2>Across base kernel versions</h2>\n<p>Each time metric of the base kernel: "
		   "the median, per base kernel version, of its comparisons' medians, the oldest "
		   "version first; one plot per accelerator (never compared across them). A step "
		   "here came with the stable release, not with a patch.</p>\n");
	for (int i = 0; i < v->nversions; i++)
		nplots += v->versions[i].n > 0;
	if (!nplots) {
		str_add(h, "<p>No comparison has run the base kernel yet.</p>\n");
		return;
	}
	str_add(h, "<div class=\"plots\">\n");
	for (int i = 0; i < v->nversions; i++)
		if (v->versions[i].n)
			line_figure(h, &v->versions[i], true);
	str_add(h, "</div>\n<table><tr><th>accelerator</th><th>metric</th><th>base version</th>"
		   "<th>median</th><th>unit</th><th>comparisons</th></tr>\n");
	for (int i = 0; i < v->nversions; i++)
		line_rows(h, &v->versions[i]);
	str_add(h, "</table>\n");
}

void trend_html(const struct trend_view *v, pb_str *h)
{
	html_page_head(h, "perfbot: the base kernel over time and across versions");
	over_time_html(h, v);
	versions_html(h, v);
	str_add(h, "</body></html>\n");
}
