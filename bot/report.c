#include "report.h"

#include "compare.h"
#include "plot.h"
#include "queue.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void html_escape(pb_str *out, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&':
			str_add(out, "&amp;");
			break;
		case '<':
			str_add(out, "&lt;");
			break;
		case '>':
			str_add(out, "&gt;");
			break;
		case '"':
			str_add(out, "&quot;");
			break;
		case '\'':
			str_add(out, "&#39;");
			break;
		default:
			str_addn(out, s, 1);
		}
	}
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static void cell(pb_str *h, const char *tag, const char *text, const char *cls)
{
	str_addf(h, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(h, text);
	str_addf(h, "</%s>", tag);
}

static void row_kv(pb_str *h, const char *k, const char *v)
{
	str_add(h, "<tr>");
	cell(h, "th", k, NULL);
	cell(h, "td", v, NULL);
	str_add(h, "</tr>\n");
}

static void fmt_num(char *buf, size_t n, sqlite3_stmt *st, int col)
{
	double v;

	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		snprintf(buf, n, "-");
		return;
	}
	v = sqlite3_column_double(st, col);
	if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* The colour of a verdict's row or tag. */
static const char *verdict_class(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
		return "bad";
	case VERDICT_BEHAVIOUR_CHANGE:
		return "change";
	case VERDICT_IMPROVEMENT:
		return "good";
	case VERDICT_INCONCLUSIVE:
		return "open";
	default:
		return "same";
	}
}

/* A link to a log that sits below the report directory, else its path. */
static void log_link(pb_str *h, const char *path, const char *report_dir, const char *label)
{
	size_t n = strlen(report_dir);

	if (!strncmp(path, report_dir, n) && path[n] == '/') {
		str_add(h, "<a href=\"");
		html_escape(h, path + n + 1);
		str_add(h, "\">");
		html_escape(h, label);
		str_add(h, "</a>");
	} else {
		html_escape(h, path);
	}
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;max-width:80em}"
	"table{border-collapse:collapse;margin:1em 0;font-size:90%}"
	"td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}"
	"td.num{text-align:right;font-family:monospace}"
	".bad{background:#f6c6c6}.good{background:#c8ecc8}.change{background:#fbe3a6}"
	"figure{display:inline-block;margin:.5em}figcaption{font-size:90%;color:#444}"
	".tag{padding:0 .3em;margin:.1em;display:inline-block;border-radius:3px}"
	".same{background:#fff}.open{background:#e4e4f4}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}";

/* One metric's samples of a comparison, per side and boot (warm-up and
 * boots that were not ok left out): for the spread column and the plots. */
struct metric_samples {
	double *v[2][PLOT_MAX_BOOTS];
	int n[2][PLOT_MAX_BOOTS], nboots[2];
};

static bool load_samples(sqlite3 *db, long long cid, const char *workload, const char *metric,
			 struct metric_samples *ms)
{
	sqlite3_stmt *st;
	int last_run[2] = { -1, -1 };

	memset(ms, 0, sizeof(*ms));
	if (sqlite3_prepare_v2(db,
			       "SELECT r.side='with', r.id, s.value FROM samples s JOIN runs r ON r.id=s.run_id "
			       "WHERE r.comparison_id=? AND s.workload=? AND s.metric=? AND NOT s.warmup "
			       "AND r.outcome='ok' ORDER BY r.boot_index, s.iteration",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, cid);
	sqlite3_bind_text(st, 2, workload, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, metric, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int side = sqlite3_column_int(st, 0) ? 1 : 0, run = sqlite3_column_int(st, 1), b;

		if (run != last_run[side]) {
			if (ms->nboots[side] == PLOT_MAX_BOOTS)
				continue;
			ms->nboots[side]++;
			last_run[side] = run;
		}
		b = ms->nboots[side] - 1;
		ms->v[side][b] = xrealloc(ms->v[side][b], sizeof(double) * (size_t)(ms->n[side][b] + 1));
		ms->v[side][b][ms->n[side][b]++] = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	return true;
}

static void samples_free(struct metric_samples *ms)
{
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < ms->nboots[s]; b++)
			free(ms->v[s][b]);
}

/* Spread of one side: sd of its boot medians over their mean, in percent. */
static double side_spread(const struct metric_samples *ms, int side)
{
	double med[PLOT_MAX_BOOTS] = { 0 }, mean;
	int n = ms->nboots[side];

	for (int b = 0; b < n; b++)
		med[b] = stats_median(ms->v[side][b], ms->n[side][b]);
	mean = stats_mean(med, n);
	return n > 1 && mean != 0 ? stats_sd(med, n) / fabs(mean) * 100 : NAN;
}

/* A spread or noise floor: small ones as "<0.01%", never in e-notation. */
static void fmt_small_pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (v < 0.005)
		snprintf(buf, n, "<0.01%%");
	else
		snprintf(buf, n, v < 10 ? "%.2f%%" : "%.0f%%", v);
}

static void fmt_opt(char *buf, size_t n, sqlite3_stmt *st, int col, const char *fmt)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, sqlite3_column_double(st, col));
}

/* The timing table, the behaviour changes apart, the unchanged counters
 * folded away, and a strip plot of every metric that was tested or changed. */
static bool comparison_tables(sqlite3 *db, long long cid, const char *num, const char *report_dir,
			      pb_str *h, pb_err *err)
{
	static const char *const head =
		"<tr><th>workload</th><th>metric</th><th>unit, better</th><th>without</th>"
		"<th>with</th><th>change</th><th>spread without / with</th><th>95% CI</th>"
		"<th>p (Holm)</th><th>noise floor</th><th>boots / samples</th><th>decided by</th>"
		"<th>verdict</th></tr>\n";
	pb_str part[3], figs;
	sqlite3_stmt *st;
	char *plot_dir = xasprintf("%s/plots", report_dir);
	int nplots = 0;
	bool ok = mkdir_p(plot_dir, err);

	if (!ok) {
		free(plot_dir);
		return false;
	}
	if (sqlite3_prepare_v2(db,
			       "SELECT workload, metric, unit, kind, better, median_without, median_with, "
			       "change_pct, verdict, n_without, n_with, ci_lo_pct, ci_hi_pct, p_adj, "
			       "noise_pct, noise_from, regime, boots_without, boots_with "
			       "FROM results WHERE comparison_id=? ORDER BY workload, kind DESC, metric",
			       -1, &st, NULL) != SQLITE_OK) {
		pb_seterr(err, "report: %s", sqlite3_errmsg(db));
		free(plot_dir);
		return false;
	}
	for (int i = 0; i < 3; i++)
		str_init(&part[i]);
	str_init(&figs);
	sqlite3_bind_int64(st, 1, cid);
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		const char *verdict = col_text(st, 8), *workload = col_text(st, 0), *metric = col_text(st, 1);
		enum verdict v = verdict_from_name(verdict);
		bool time = !strcmp(col_text(st, 3), "time");
		bool both = sqlite3_column_int(st, 9) && sqlite3_column_int(st, 10);
		/* 0 timing, 1 behaviour changes, 2 unchanged behaviour */
		int which = time ? 0 : v == VERDICT_BEHAVIOUR_CHANGE ? 1 : 2;
		char a[32], b[32], c[32], n[64], ci[64], p[32], nz[64], sp[64];
		struct metric_samples ms;
		pb_str *t = &part[which];

		if (!load_samples(db, cid, workload, metric, &ms)) {
			pb_seterr(err, "report: %s", sqlite3_errmsg(db));
			ok = false;
			break;
		}
		fmt_num(a, sizeof(a), st, 5);
		fmt_num(b, sizeof(b), st, 6);
		fmt_opt(c, sizeof(c), st, 7, "%+.2f%%");
		fmt_opt(p, sizeof(p), st, 13, "%.3g");
		{
			double s0 = side_spread(&ms, 0), s1 = side_spread(&ms, 1);

			char x0[24], x1[24];

			fmt_small_pct(x0, sizeof(x0), s0);
			fmt_small_pct(x1, sizeof(x1), s1);
			snprintf(sp, sizeof(sp), "%s / %s", x0, x1);
		}
		snprintf(n, sizeof(n), "%d+%d / %d+%d", sqlite3_column_int(st, 17), sqlite3_column_int(st, 18),
			 sqlite3_column_int(st, 9), sqlite3_column_int(st, 10));
		if (sqlite3_column_type(st, 11) == SQLITE_NULL)
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%", sqlite3_column_double(st, 11),
				 sqlite3_column_double(st, 12));
		if (sqlite3_column_type(st, 14) == SQLITE_NULL) {
			snprintf(nz, sizeof(nz), "-");
		} else {
			char x[24];

			fmt_small_pct(x, sizeof(x), sqlite3_column_double(st, 14));
			snprintf(nz, sizeof(nz), "%s (%.20s)", x, col_text(st, 15));
		}
		str_addf(t, "<tr class=\"%s\">", verdict_class(v));
		cell(t, "td", workload, NULL);
		cell(t, "td", metric, NULL);
		{
			char *ub = xasprintf("%s, %s", col_text(st, 2), col_text(st, 4));

			cell(t, "td", ub, NULL);
			free(ub);
		}
		cell(t, "td", a, "num");
		cell(t, "td", b, "num");
		cell(t, "td", c, "num");
		cell(t, "td", sp, "num");
		cell(t, "td", ci, "num");
		cell(t, "td", p, "num");
		cell(t, "td", nz, "num");
		cell(t, "td", n, "num");
		cell(t, "td", col_text(st, 16), NULL);
		str_add(t, verdict_is_notable(v) ? "<td><b>" : "<td>");
		html_escape(t, verdict);
		str_add(t, verdict_is_notable(v) ? " &#9664;</b></td></tr>\n" : "</td></tr>\n");
		if (which < 2 && (ms.nboots[0] || ms.nboots[1]) && (both || which == 1)) {
			char *name = xasprintf("%s-c%lld-%s-%s.svg", num, cid, workload, metric);
			char *svg = xasprintf("%s/%s", plot_dir, name), *title = xasprintf("%s %s", workload, metric);
			struct plot_side sides[2] = {
				{ "without the fix", ms.nboots[0], ms.v[0], ms.n[0] },
				{ "with the fix", ms.nboots[1], ms.v[1], ms.n[1] },
			};

			ok = plot_strip(svg, title, col_text(st, 2), sides, 2, err);
			str_add(&figs, "<figure><img src=\"plots/");
			html_escape(&figs, name);
			str_add(&figs, "\" alt=\"");
			html_escape(&figs, title);
			str_add(&figs, "\" width=\"440\" height=\"270\"><figcaption>");
			html_escape(&figs, title);
			str_add(&figs, ": ");
			html_escape(&figs, verdict);
			str_add(&figs, "</figcaption></figure>\n");
			nplots++;
			free(name);
			free(svg);
			free(title);
		}
		samples_free(&ms);
	}
	sqlite3_finalize(st);
	if (ok) {
		str_add(h, "<h2>Timing (medians of the boots that came out ok)</h2>\n");
		if (part[0].len)
			str_addf(h, "<table>%s%s</table>\n", head, part[0].buf);
		else
			str_add(h, "<p>No time metric.</p>\n");
		str_add(h, "<h2>Behaviour changes</h2>\n");
		if (part[1].len)
			str_addf(h, "<table>%s%s</table>\n", head, part[1].buf);
		else
			str_add(h, "<p>None: every counter and smaps value was the same.</p>\n");
		if (part[2].len)
			str_addf(h, "<details><summary>Behaviour metrics that did not change</summary>"
				    "<table>%s%s</table></details>\n", head, part[2].buf);
		if (nplots)
			str_addf(h, "<h2>Samples</h2>\n<p>Every sample of both kernels; each boot its own "
				    "colour and column, the bar the median.</p>\n<div class=\"plots\">%s</div>\n",
				 figs.buf);
	}
	for (int i = 0; i < 3; i++)
		str_free(&part[i]);
	str_free(&figs);
	free(plot_dir);
	return ok;
}

bool report_write_patch(sqlite3 *db, long long cid, const char *report_dir, char **written,
			pb_err *err)
{
	sqlite3_stmt *st = NULL;
	pb_str h;
	char *path = NULL, num[32];
	int number = 0;
	bool ok = false;

	*written = NULL;
	str_init(&h);
	if (sqlite3_prepare_v2(db,
			       "SELECT p.number, p.subject, p.author, p.upstream, p.cc_stable, p.fixes, "
			       "p.mm_reason, p.file, c.pair_method, c.pair_detail, c.accel, c.accel_reason, "
			       "c.status, c.workloads, c.workload_choice, c.boots_per_kernel, c.iterations, "
			       "c.started_at, c.wall_seconds, kw.label, kw.key, kw.build_status, kw.failure, "
			       "kx.label, kx.key, kx.build_status, kx.failure, kw.version, c.perfbot_version, "
			       "kw.change_file, c.verdict, c.behaviour, c.seed, c.gate_pct, c.alpha, "
			       "c.noise_factor, c.noise_calibration, c.warmup "
			       "FROM comparisons c JOIN patches p ON p.id=c.patch_id "
			       "JOIN kernels kw ON kw.id=c.kernel_without JOIN kernels kx ON kx.id=c.kernel_with "
			       "WHERE c.id=?",
			       -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, cid);
	if (sqlite3_step(st) != SQLITE_ROW) {
		pb_seterr(err, "report: no comparison %lld in the database", cid);
		goto out;
	}
	number = sqlite3_column_int(st, 0);
	snprintf(num, sizeof(num), "%03d", number);
	str_add(&h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>perfbot: patch ");
	str_add(&h, num);
	str_addf(&h, "</title><style>%s</style></head><body>\n<h1>Patch %s: ", style, num);
	html_escape(&h, col_text(st, 1));
	str_add(&h, "</h1>\n<table>\n");
	row_kv(&h, "author", col_text(st, 2));
	row_kv(&h, "upstream commit", col_text(st, 3)[0] ? col_text(st, 3) : "(not named)");
	row_kv(&h, "reached stable", sqlite3_column_int(st, 4) ? "explicit Cc: stable tag"
							     : "picked without a Cc: stable tag");
	row_kv(&h, "Fixes", col_text(st, 5)[0] ? col_text(st, 5) : "(none)");
	row_kv(&h, "why mm", col_text(st, 6));
	row_kv(&h, "pair", col_text(st, 8));
	row_kv(&h, "pair detail", col_text(st, 9));
	{
		char *k = xasprintf("%s, key %.16s, %s", col_text(st, 19), col_text(st, 20), col_text(st, 21));
		char *k2 = xasprintf("%s, key %.16s, %s", col_text(st, 23), col_text(st, 24), col_text(st, 25));

		row_kv(&h, "kernel without the fix", k);
		row_kv(&h, "kernel with the fix", k2);
		free(k);
		free(k2);
	}
	row_kv(&h, "base", col_text(st, 27));
	row_kv(&h, "accelerator", col_text(st, 10)[0] ? col_text(st, 10) : "(nothing booted)");
	row_kv(&h, "why this accelerator", col_text(st, 11));
	row_kv(&h, "status", col_text(st, 12));
	row_kv(&h, "workloads", col_text(st, 13));
	row_kv(&h, "why these workloads", col_text(st, 14));
	{
		char *r = xasprintf("%d boots per kernel, %d iterations per boot, started %s, %.0f s, perfbot %s",
				    sqlite3_column_int(st, 15), sqlite3_column_int(st, 16), col_text(st, 17),
				    sqlite3_column_double(st, 18), col_text(st, 28));

		row_kv(&h, "schedule", r);
		free(r);
	}
	row_kv(&h, "verdict (timing, worst metric)", col_text(st, 30)[0] ? col_text(st, 30) : "-");
	row_kv(&h, "behaviour", col_text(st, 31)[0] ? col_text(st, 31) : "-");
	{
		char *noise = sqlite3_column_type(st, 36) == SQLITE_NULL
				      ? xstrdup("from this run's own boots (no calibration for this accelerator)")
				      : xasprintf("from A/A calibration %lld", (long long)sqlite3_column_int64(st, 36));
		char *r = xasprintf("p = 2 min(Mann-Whitney, Kolmogorov-Smirnov) over boot medians, Holm, "
				    "alpha %g; 95%% CI by bootstrap over boots then iterations (seed %lld); "
				    "gate %g%%; a change must exceed %g x the noise floor, %s; %d warm-up "
				    "iteration(s) left out",
				    sqlite3_column_double(st, 34), (long long)sqlite3_column_int64(st, 32),
				    sqlite3_column_double(st, 33), sqlite3_column_double(st, 35), noise,
				    sqlite3_column_int(st, 37));

		row_kv(&h, "statistics", r);
		free(r);
		free(noise);
	}
	str_add(&h, "</table>\n");
	if (!strcmp(col_text(st, 10), "tcg-icount"))
		str_add(&h, "<p>Guest time under TCG with <code>-icount shift=0</code> counts instructions: "
			    "it measures the work a kernel path does, not cache or TLB stalls.</p>\n");
	for (int s = 0; s < 2; s++) {
		const char *fail = col_text(st, s ? 26 : 22);

		if (fail[0]) {
			str_addf(&h, "<h2 class=\"bad\">The kernel %s the fix failed to build</h2>\n<pre>",
				 s ? "with" : "without");
			html_escape(&h, fail);
			str_add(&h, "</pre>\n");
		}
	}
	{
		char *patch_file = xstrdup(col_text(st, 7));
		/* A port is this project's own change: show it beside the patch. */
		char *port_file = !strcmp(col_text(st, 8), "port") ? xstrdup(col_text(st, 29)) : NULL;

		sqlite3_finalize(st);
		st = NULL;

		if (!comparison_tables(db, cid, num, report_dir, &h, err)) {
			free(patch_file);
			free(port_file);
			goto out;
		}

		if (sqlite3_prepare_v2(db,
				       "SELECT boot_index, side, outcome, detail, wall_seconds, console_log, "
				       "results_log FROM runs WHERE comparison_id=? ORDER BY boot_index",
				       -1, &st, NULL) != SQLITE_OK) {
			free(patch_file);
			free(port_file);
			goto dberr;
		}
		sqlite3_bind_int64(st, 1, cid);
		str_add(&h, "<h2>Boots</h2>\n<table><tr><th>#</th><th>kernel</th><th>outcome</th>"
			    "<th>wall</th><th>logs</th><th>detail</th></tr>\n");
		while (sqlite3_step(st) == SQLITE_ROW) {
			char idx[16], wall[32];
			const char *outcome = col_text(st, 2);

			snprintf(idx, sizeof(idx), "%d", sqlite3_column_int(st, 0));
			snprintf(wall, sizeof(wall), "%.1f s", sqlite3_column_double(st, 4));
			str_add(&h, "<tr>");
			cell(&h, "td", idx, "num");
			cell(&h, "td", col_text(st, 1), NULL);
			cell(&h, "td", outcome, strcmp(outcome, "ok") ? "bad" : NULL);
			cell(&h, "td", wall, "num");
			str_add(&h, "<td>");
			log_link(&h, col_text(st, 5), report_dir, "console");
			str_add(&h, " ");
			log_link(&h, col_text(st, 6), report_dir, "results");
			str_add(&h, "</td>");
			cell(&h, "td", col_text(st, 3), NULL);
			str_add(&h, "</tr>\n");
		}
		str_add(&h, "</table>\n");
		sqlite3_finalize(st);
		st = NULL;

		if (port_file) {
			char *text = read_file(port_file, NULL, NULL);

			str_add(&h, "<h2>The port (applied to form the kernel without the fix)</h2>\n<p>");
			html_escape(&h, port_file);
			str_add(&h, "</p>\n<pre>");
			html_escape(&h, text ? text : "(the port file is gone)");
			str_add(&h, "</pre>\n");
			free(text);
			free(port_file);
		}
		{
			char *text = read_file(patch_file, NULL, NULL);

			str_add(&h, "<h2>The patch</h2>\n<pre>");
			html_escape(&h, text ? text : "(the patch file is gone)");
			str_add(&h, "</pre>\n");
			free(text);
		}
		free(patch_file);
	}
	str_add(&h, "</body></html>\n");
	if (!mkdir_p(report_dir, err))
		goto out;
	path = xasprintf("%s/%s.html", report_dir, num);
	if (!write_file_atomic(path, h.buf, h.len, err))
		goto out;
	*written = path;
	path = NULL;
	ok = true;
	goto out;
dberr:
	pb_seterr(err, "report: %s", sqlite3_errmsg(db));
out:
	sqlite3_finalize(st);
	free(path);
	str_free(&h);
	return ok;
}

static void page_head(pb_str *h, const char *title)
{
	str_add(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	html_escape(h, title);
	str_addf(h, "</title><style>%s</style></head><body>\n<h1>", style);
	html_escape(h, title);
	str_add(h, "</h1>\n");
}

/* Each workload of a comparison with its most pressing verdict. */
static bool workload_verdicts(sqlite3 *db, long long cid, pb_str *h)
{
	sqlite3_stmt *st;
	char last[128] = "";
	enum verdict worst = VERDICT_NO_DATA;

	if (sqlite3_prepare_v2(db, "SELECT workload, verdict FROM results WHERE comparison_id=? "
				   "ORDER BY workload",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, cid);
	for (bool more = true; more;) {
		const char *w = NULL, *v = NULL;

		more = sqlite3_step(st) == SQLITE_ROW;
		if (more) {
			w = col_text(st, 0);
			v = col_text(st, 1);
		}
		if (last[0] && (!more || strcmp(w, last))) {
			str_addf(h, "<span class=\"%s tag\">", verdict_class(worst));
			html_escape(h, last);
			str_add(h, ": ");
			html_escape(h, verdict_name(worst));
			str_add(h, "</span> ");
			worst = VERDICT_NO_DATA;
		}
		if (more) {
			/* the enum's order is the ranking: the workload's worst */
			snprintf(last, sizeof(last), "%s", w);
			if (verdict_from_name(v) > worst)
				worst = verdict_from_name(v);
		}
	}
	sqlite3_finalize(st);
	return true;
}

bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err)
{
	sqlite3_stmt *st = NULL;
	pb_str h;
	char *path;
	int measured = 0, skipped = 0;
	bool ok = false;

	str_init(&h);
	page_head(&h, "perfbot: mm patches of the stable queue");
	str_add(&h, "<p>Queue ");
	html_escape(&h, q->dir);
	str_add(&h, ". <a href=\"trend.html\">The base kernel over time</a>.</p>\n"
		    "<table><tr><th>#</th><th>subject</th><th>upstream</th><th>mm</th>"
		    "<th>reached stable</th><th>Fixes</th><th>workloads: verdict</th><th>run</th></tr>\n");
	if (sqlite3_prepare_v2(db,
			       "SELECT c.id, c.status, c.accel, c.finished_at, c.verdict, c.behaviour "
			       "FROM comparisons c JOIN patches p ON p.id=c.patch_id WHERE c.kind='patch' "
			       "AND p.queue=? AND p.number=? ORDER BY c.id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	for (int i = 0; i < q->npatches; i++) {
		const struct pb_patch *p = &q->patches[i];
		char num[16];
		long long cid = 0;

		snprintf(num, sizeof(num), "%03d", p->number);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, q->dir, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 2, p->number);
		if (sqlite3_step(st) == SQLITE_ROW)
			cid = sqlite3_column_int64(st, 0);
		str_add(&h, "<tr>");
		if (cid) {
			str_addf(&h, "<td class=\"num\"><a href=\"%s.html\">%s</a></td>", num, num);
		} else {
			cell(&h, "td", num, "num");
		}
		cell(&h, "td", p->subject, NULL);
		{
			char up[16];

			snprintf(up, sizeof(up), "%.12s", p->upstream[0] ? p->upstream : "-");
			cell(&h, "td", up, "num");
		}
		str_add(&h, "<td title=\"");
		html_escape(&h, p->mm_reason);
		str_addf(&h, "\">%s</td>", p->is_mm ? "mm" : "no");
		cell(&h, "td", p->cc_stable ? "Cc: stable" : "picked without Cc: stable", NULL);
		str_add(&h, "<td>");
		for (int f = 0; f < p->nfixes; f++) {
			char fx[16];

			snprintf(fx, sizeof(fx), "%.12s", p->fixes[f]);
			if (f)
				str_add(&h, "<br>");
			html_escape(&h, fx);
		}
		str_add(&h, p->nfixes ? "</td>" : "-</td>");
		if (cid) {
			const char *status = col_text(st, 1);
			enum comparison_status cs;

			str_add(&h, "<td>");
			if (!status_parse(status, &cs) || cs != STATUS_MEASURED) {
				str_add(&h, "<span class=\"bad tag\">");
				html_escape(&h, status);
				str_add(&h, "</span> ");
			}
			if (!workload_verdicts(db, cid, &h))
				goto dberr;
			str_add(&h, "</td><td>");
			html_escape(&h, col_text(st, 2));
			str_add(&h, " ");
			html_escape(&h, col_text(st, 3));
			str_add(&h, "</td>");
			measured++;
		} else {
			char *why = p->is_mm ? xstrdup("not measured yet (perfbot run --patch N)")
					     : xasprintf("skipped: not an mm patch (%s)", p->mm_reason);

			str_addf(&h, "<td colspan=\"2\" class=\"%s\">", p->is_mm ? "open" : "same");
			html_escape(&h, why);
			str_add(&h, "</td>");
			free(why);
			skipped += !p->is_mm;
		}
		str_add(&h, "</tr>\n");
	}
	str_addf(&h, "</table>\n<p>%d patches: %d measured, %d skipped as not mm. Generated %s by "
		     "perfbot.</p>\n</body></html>\n",
		 q->npatches, measured, skipped, "from results.db");
	if (!mkdir_p(report_dir, err))
		goto out;
	path = xasprintf("%s/index.html", report_dir);
	ok = write_file_atomic(path, h.buf, h.len, err);
	free(path);
	goto out;
dberr:
	pb_seterr(err, "report: %s", sqlite3_errmsg(db));
out:
	sqlite3_finalize(st);
	str_free(&h);
	return ok;
}

/* One time metric of the base kernel: its median in each comparison. */
struct trend {
	char *accel, *workload, *metric, *unit;
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
		char *name = xasprintf("trend-%s-%s-%s.svg", t->accel, t->workload, t->metric);
		char *svg = xasprintf("%s/%s", plot_dir, name);
		char *title = xasprintf("%s %s (%s)", t->workload, t->metric, t->accel);

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
	free(t->accel);
	free(t->workload);
	free(t->metric);
	free(t->unit);
	memset(t, 0, sizeof(*t));
}

bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err)
{
	sqlite3_stmt *st = NULL;
	struct trend t = { 0 };
	pb_str h, vals;
	char *plot_dir = xasprintf("%s/plots", report_dir), *path;
	long long cur = -1;
	int nplots = 0;
	bool ok = mkdir_p(plot_dir, err);

	str_init(&h);
	str_init(&vals);
	page_head(&h, "perfbot: the base kernel over time");
	str_add(&h, "<p>Each time metric of the base kernel (the side of every comparison that ran "
		    "the base as shipped): its median per comparison, oldest first, one plot per "
		    "accelerator (never compared across them). Drift here is the machine or the base, "
		    "not a patch. <a href=\"index.html\">All patches</a>.</p>\n<div class=\"plots\">\n");
	if (ok && sqlite3_prepare_v2(db,
				     "SELECT c.accel, s.workload, s.metric, x.unit, c.id, c.finished_at, s.value "
				     "FROM samples s JOIN runs r ON r.id=s.run_id JOIN comparisons c "
				     "ON c.id=r.comparison_id JOIN kernels k ON k.id=r.kernel_id JOIN results x "
				     "ON x.comparison_id=c.id AND x.workload=s.workload AND x.metric=s.metric "
				     "WHERE k.label='base' AND r.outcome='ok' AND NOT s.warmup AND x.kind='time' "
				     "ORDER BY c.accel, s.workload, s.metric, c.id",
				     -1, &st, NULL) != SQLITE_OK) {
		pb_seterr(err, "report: %s", sqlite3_errmsg(db));
		ok = false;
	}
	for (bool more = ok; more && ok;) {
		more = sqlite3_step(st) == SQLITE_ROW;
		bool same_metric = more && t.workload && !strcmp(t.accel, col_text(st, 0)) &&
				   !strcmp(t.workload, col_text(st, 1)) && !strcmp(t.metric, col_text(st, 2));
		long long cid = more ? sqlite3_column_int64(st, 4) : -1;

		/* the values of one comparison make one point: their median */
		if (t.workload && (!same_metric || cid != cur) && vals.len) {
			double *v = (double *)vals.buf;
			int nv = (int)(vals.len / sizeof(double));

			t.y = xrealloc(t.y, sizeof(double) * (size_t)(t.n + 1));
			t.y[t.n] = stats_median(v, nv);
			t.n++;
			vals.len = 0;
		}
		if (!same_metric)
			trend_close(&t, plot_dir, &h, &nplots, &ok, err);
		if (!more)
			break;
		if (!t.workload) {
			t.accel = xstrdup(col_text(st, 0));
			t.workload = xstrdup(col_text(st, 1));
			t.metric = xstrdup(col_text(st, 2));
			t.unit = xstrdup(col_text(st, 3));
		}
		if (cid != cur || !same_metric) {
			char when[32];

			snprintf(when, sizeof(when), "%.16s", col_text(st, 5));
			t.when = xrealloc(t.when, sizeof(char *) * (size_t)(t.n + 1));
			t.when[t.n] = xstrdup(when);
			cur = cid;
		}
		{
			double v = sqlite3_column_double(st, 6);

			str_addn(&vals, (const char *)&v, sizeof(v));
		}
	}
	trend_close(&t, plot_dir, &h, &nplots, &ok, err);
	sqlite3_finalize(st);
	if (!nplots)
		str_add(&h, "<p>No comparison has run the base kernel yet.</p>\n");
	str_add(&h, "</div>\n</body></html>\n");
	if (ok) {
		path = xasprintf("%s/trend.html", report_dir);
		ok = write_file_atomic(path, h.buf, h.len, err);
		free(path);
	}
	str_free(&h);
	str_free(&vals);
	free(plot_dir);
	return ok;
}

bool report_write_all(sqlite3 *db, const struct pb_queue *q, const char *report_dir, int *pages,
		      pb_err *err)
{
	sqlite3_stmt *st;
	bool ok = true;

	*pages = 0;
	/* the newest comparison of every patch of this queue gets its page */
	if (sqlite3_prepare_v2(db,
			       "SELECT max(c.id) FROM comparisons c JOIN patches p ON p.id=c.patch_id "
			       "WHERE c.kind='patch' AND p.queue=? GROUP BY p.number",
			       -1, &st, NULL) != SQLITE_OK) {
		pb_seterr(err, "report: %s", sqlite3_errmsg(db));
		return false;
	}
	sqlite3_bind_text(st, 1, q->dir, -1, SQLITE_TRANSIENT);
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		char *written = NULL;

		ok = report_write_patch(db, sqlite3_column_int64(st, 0), report_dir, &written, err);
		*pages += ok;
		free(written);
	}
	sqlite3_finalize(st);
	return ok && report_write_index(db, q, report_dir, err) && report_write_trend(db, report_dir, err);
}
