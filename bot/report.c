#include "report.h"

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

static const char *verdict_class(const char *v)
{
	if (!strcmp(v, "regression"))
		return "bad";
	if (!strcmp(v, "behaviour change"))
		return "change";
	if (!strcmp(v, "improvement"))
		return "good";
	if (!strcmp(v, "inconclusive"))
		return "open";
	return "same";
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
	"table{border-collapse:collapse;margin:1em 0}"
	"td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}"
	"td.num{text-align:right;font-family:monospace}"
	".bad{background:#f6c6c6}.good{background:#c8ecc8}.change{background:#fbe3a6}"
	".same{background:#fff}.open{background:#e4e4f4}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}";

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

		/* The comparison table, in the form LKP and mmtests users know. */
		if (sqlite3_prepare_v2(db,
				       "SELECT workload, metric, unit, kind, better, median_without, median_with, "
				       "change_pct, verdict, n_without, n_with, ci_lo_pct, ci_hi_pct, p_adj, "
				       "noise_pct, noise_from, regime, boots_without, boots_with "
				       "FROM results WHERE comparison_id=? ORDER BY kind DESC, workload, metric",
				       -1, &st, NULL) != SQLITE_OK) {
			free(patch_file);
			free(port_file);
			goto dberr;
		}
		sqlite3_bind_int64(st, 1, cid);
		str_add(&h, "<h2>Comparison (medians)</h2>\n<table><tr><th>workload</th><th>metric</th>"
			    "<th>unit</th><th>kind</th><th>better</th><th>without</th><th>with</th>"
			    "<th>change</th><th>95% CI</th><th>p (Holm)</th><th>noise floor</th>"
			    "<th>boots / samples</th><th>decided by</th><th>verdict</th></tr>\n");
		while (sqlite3_step(st) == SQLITE_ROW) {
			char a[32], b[32], c[32], n[64], ci[64], p[32], nz[64];
			const char *verdict = col_text(st, 8);

			fmt_num(a, sizeof(a), st, 5);
			fmt_num(b, sizeof(b), st, 6);
			if (sqlite3_column_type(st, 7) == SQLITE_NULL)
				snprintf(c, sizeof(c), "-");
			else
				snprintf(c, sizeof(c), "%+.2f%%", sqlite3_column_double(st, 7));
			snprintf(n, sizeof(n), "%d+%d / %d+%d", sqlite3_column_int(st, 17),
				 sqlite3_column_int(st, 18), sqlite3_column_int(st, 9), sqlite3_column_int(st, 10));
			if (sqlite3_column_type(st, 11) == SQLITE_NULL)
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%", sqlite3_column_double(st, 11),
					 sqlite3_column_double(st, 12));
			if (sqlite3_column_type(st, 13) == SQLITE_NULL)
				snprintf(p, sizeof(p), "-");
			else
				snprintf(p, sizeof(p), "%.3g", sqlite3_column_double(st, 13));
			if (sqlite3_column_type(st, 14) == SQLITE_NULL)
				snprintf(nz, sizeof(nz), "-");
			else
				snprintf(nz, sizeof(nz), "%.2g%% (%.20s)", sqlite3_column_double(st, 14),
					 col_text(st, 15));
			str_addf(&h, "<tr class=\"%s\">", verdict_class(verdict));
			cell(&h, "td", col_text(st, 0), NULL);
			cell(&h, "td", col_text(st, 1), NULL);
			cell(&h, "td", col_text(st, 2), NULL);
			cell(&h, "td", col_text(st, 3), NULL);
			cell(&h, "td", col_text(st, 4), NULL);
			cell(&h, "td", a, "num");
			cell(&h, "td", b, "num");
			cell(&h, "td", c, "num");
			cell(&h, "td", ci, "num");
			cell(&h, "td", p, "num");
			cell(&h, "td", nz, "num");
			cell(&h, "td", n, "num");
			cell(&h, "td", col_text(st, 16), NULL);
			cell(&h, "td", verdict, NULL);
			str_add(&h, "</tr>\n");
		}
		str_add(&h, "</table>\n");
		sqlite3_finalize(st);
		st = NULL;

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
