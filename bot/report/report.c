/* The HTML report: a page per patch (its comparison's metrics, plots,
 * boots and patch text), a page per queue, the index of every queue and
 * the base kernel's trend. Its rows come from db-report.c; everything is escaped. */
#include "report.h"

#include "answer.h"
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

/* A name's characters that are safe in a file name and a URL: [A-Za-z0-9._-],
 * '_' for any other; at most size - 1 of them. */
static void safe_name(char *out, size_t size, const char *in, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < size; i++) {
		char ch = in[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';

		out[k++] = ok ? ch : '_';
	}
	out[k] = 0;
}

/* "<kind>-<name>-<hash>": name (n bytes, made safe, at most 40; fallback
 * when it is empty) and the first 8 hex digits of the sha256 of the queue's
 * path as stored, so that pages of two queues of one name stay apart. */
static char *keyed_name(const char *kind, const char *name, size_t n, const char *fallback,
			const char *queue)
{
	const char *q = queue ? queue : "";
	char safe[41], hash[65];

	safe_name(safe, sizeof(safe), name, n);
	sha256_buf(q, strlen(q), hash);
	return xasprintf("%s-%s-%.8s", kind, safe[0] ? safe : fallback, hash);
}

/* "queue-<name>-<hash>": where a queue's pages' names start. */
static char *queue_key(const char *queue)
{
	const char *q = queue ? queue : "", *base;
	size_t n = strlen(q);

	while (n > 1 && q[n - 1] == '/')
		n--;
	for (base = q + n; base > q && base[-1] != '/'; base--)
		;
	return keyed_name("queue", base, (size_t)(q + n - base), "q", q);
}

char *report_queue_page(const char *queue)
{
	char *key = queue_key(queue), *page = xasprintf("%s.html", key);

	free(key);
	return page;
}

char *report_patch_page(const char *queue, int number, const char *sha256)
{
	char label[PATCH_LABEL_SIZE], safe[PATCH_LABEL_SIZE], *key, *page;

	patch_label(label, number, sha256);
	safe_name(safe, sizeof(safe), label, strlen(label));
	if (number <= 0)
		return xasprintf("patch-%s.html", safe);
	key = queue_key(queue);
	page = xasprintf("%s-%s.html", key, safe);
	free(key);
	return page;
}

char *report_series_page(const char *queue, const char *name)
{
	char *key = keyed_name("series", name, strlen(name), "s", queue), *page;

	page = xasprintf("%s.html", key);
	free(key);
	return page;
}

char *report_page_of(const struct patch_page_row *r)
{
	if (r->kind == KIND_SERIES)
		return report_series_page(r->series_queue, r->series_name);
	return report_patch_page(r->queue, r->number, r->sha256);
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

/* A number as the tables show it: "-" for none (NULL). */
static void fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000 || v == floor(v))
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

/* Is the text at s an http(s) URL's start, after a word's end? */
static size_t url_length(const char *text, const char *s)
{
	size_t n, open = 0, close = 0;

	if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '/' || s[-1] == '.'))
		return 0;
	if (starts_with(s, "https://"))
		n = 8;
	else if (starts_with(s, "http://"))
		n = 7;
	else
		return 0;
	if (!isalnum((unsigned char)s[n]) && s[n] != '[')
		return 0;
	/* up to a space, a control or what would end it in HTML or in a mail */
	while (s[n] && (unsigned char)s[n] > ' ' && s[n] != 0x7f && !strchr("<>\"'`{}|\\^", s[n])) {
		open += s[n] == '(';
		close += s[n] == ')';
		n++;
	}
	/* a sentence's full stop, a closing parenthesis the URL did not open */
	while (n > 8 && (strchr(".,;:!?", s[n - 1]) || (s[n - 1] == ')' && close > open))) {
		close -= s[n - 1] == ')';
		n--;
	}
	return n;
}

static bool is_hex(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") >= n;
}

static void commit_link(pb_str *out, const char *hex, size_t n)
{
	char h[41];

	snprintf(h, sizeof(h), "%.*s", (int)(n < 40 ? n : 40), hex);
	str_addf(out, "<a href=\"https://git.kernel.org/linus/%s\">%s</a>", h, h);
}

/* A stable patch's upstream line ("commit <sha> upstream.", "[ Upstream
 * commit <sha> ]") at s: the length of what precedes the commit id. */
static size_t upstream_prefix(const char *s)
{
	static const char *const prefix[] = { "commit ", "[ Upstream commit ", "[ upstream commit " };

	for (size_t i = 0; i < PB_ARRAY_SIZE(prefix); i++) {
		size_t n = strlen(prefix[i]);

		if (starts_with(s, prefix[i]) && is_hex(s + n, 40) && !isalnum((unsigned char)s[n + 40]) &&
		    (i || starts_with(s + n + 40, " upstream")))
			return n;
	}
	return 0;
}

void html_linkify(pb_str *out, const char *s)
{
	const char *text = s, *plain;

	if (!s)
		return;
	for (plain = s; *s;) {
		size_t n = url_length(text, s), up = s == text || s[-1] == '\n' ? upstream_prefix(s) : 0;
		char *part;

		if (!n && !up) {
			s++;
			continue;
		}
		part = xstrndup(plain, (size_t)(s - plain));
		html_escape(out, part);
		free(part);
		if (up) {
			part = xstrndup(s, up);
			html_escape(out, part);
			free(part);
			commit_link(out, s + up, 40);
			s += up + 40;
		} else {
			part = xstrndup(s, n);
			str_add(out, "<a href=\"");
			html_escape(out, part);
			str_add(out, "\">");
			html_escape(out, part);
			str_add(out, "</a>");
			free(part);
			s += n;
		}
		plain = s;
	}
	html_escape(out, plain);
}

/* A link to a page, its text escaped. */
static void page_link(pb_str *h, const char *page, const char *text)
{
	str_add(h, "<a href=\"");
	html_escape(h, page);
	str_add(h, "\">");
	html_escape(h, text);
	str_add(h, "</a>");
}

/* A queue's name as headings show it: its directory's or file's. */
static const char *queue_name(const char *queue)
{
	const char *slash = strrchr(queue, '/');

	return slash && slash[1] ? slash + 1 : queue;
}

/* The line under a page's heading: back to the index, and to the page's
 * queue (queue: a queue's path), or to the patches on their own ("": a
 * patch without a series number). */
static void nav(pb_str *h, const char *queue)
{
	str_add(h, "<p><a href=\"index.html\">All queues</a>");
	if (queue && !queue[0])
		str_add(h, " &middot; <a href=\"index.html#own\">Patches on their own</a>");
	if (queue && queue[0]) {
		char *page = report_queue_page(queue), *what = xasprintf("queue %s", queue_name(queue));

		str_add(h, " &middot; ");
		page_link(h, page, what);
		free(what);
		free(page);
	}
	str_add(h, "</p>\n");
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
			 struct metric_samples *ms, pb_err *err)
{
	struct db_cursor c;
	struct sample_row r;
	int last_run[2] = { -1, -1 };

	memset(ms, 0, sizeof(*ms));
	if (!db_report_samples(&c, db, cid, workload, metric, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		int side = r.with_fix ? 1 : 0, b;

		if (r.run != last_run[side]) {
			if (ms->nboots[side] == PLOT_MAX_BOOTS)
				continue;
			ms->nboots[side]++;
			last_run[side] = r.run;
		}
		b = ms->nboots[side] - 1;
		ms->v[side][b] = xrealloc(ms->v[side][b], sizeof(double) * (size_t)(ms->n[side][b] + 1));
		ms->v[side][b][ms->n[side][b]++] = r.value;
	}
	db_cursor_close(&c, NULL); /* a step that fails ends the samples, as it always has */
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

static void fmt_opt(char *buf, size_t n, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, v);
}

/* The three tables of a comparison's metrics and its strip plots. */
struct metric_tables {
	pb_str part[3];   /* 0 timing, 1 behaviour changes, 2 unchanged behaviour */
	pb_str figs;
	int nplots;
};

/* One metric's row of its table. */
static void result_html(pb_str *t, const struct result_row *r, const struct metric_samples *ms)
{
	enum verdict v = r->verdict;
	char a[32], b[32], c[32], n[64], ci[64], p[32], nz[64], sp[64], x0[24], x1[24], at[48] = "";
	char *ub = xasprintf("%s, %s", r->unit, better_name(r->better));

	fmt_num(a, sizeof(a), r->median_without);
	fmt_num(b, sizeof(b), r->median_with);
	fmt_opt(c, sizeof(c), r->change_pct, "%+.2f%%");
	fmt_opt(p, sizeof(p), r->p_adj, "%.3g");
	fmt_small_pct(x0, sizeof(x0), side_spread(ms, 0));
	fmt_small_pct(x1, sizeof(x1), side_spread(ms, 1));
	snprintf(sp, sizeof(sp), "%s / %s", x0, x1);
	snprintf(n, sizeof(n), "%d+%d / %d+%d", r->boots_without, r->boots_with, r->n_without,
		 r->n_with);
	if (isnan(r->ci_lo_pct))
		snprintf(ci, sizeof(ci), "-");
	else
		snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%", r->ci_lo_pct, r->ci_hi_pct);
	if (isnan(r->noise_pct)) {
		snprintf(nz, sizeof(nz), "-");
	} else {
		fmt_small_pct(x0, sizeof(x0), r->noise_pct);
		snprintf(nz, sizeof(nz), "%s (%.20s)", x0, r->noise_from);
	}
	str_addf(t, "<tr class=\"%s\">", verdict_class(v));
	cell(t, "td", r->workload, NULL);
	cell(t, "td", r->metric, NULL);
	cell(t, "td", ub, NULL);
	cell(t, "td", a, "num");
	cell(t, "td", b, "num");
	cell(t, "td", c, "num");
	cell(t, "td", sp, "num");
	cell(t, "td", ci, "num");
	cell(t, "td", p, "num");
	cell(t, "td", nz, "num");
	cell(t, "td", n, "num");
	cell(t, "td", r->regime, NULL);
	str_add(t, verdict_is_notable(v) ? "<td><b>" : "<td>");
	html_escape(t, verdict_name(r->verdict));
	/* what "no change" means: none larger than what this metric resolves */
	if (v == VERDICT_NO_CHANGE && !isnan(r->threshold_pct))
		str_addf(t, " larger than %.1f%%", r->threshold_pct);
	if (r->look && (r->look < r->boots_without || r->look < r->boots_with))
		snprintf(at, sizeof(at), " (at %d boots)", r->look);
	str_add(t, at);
	str_add(t, verdict_is_notable(v) ? " &#9664;</b></td></tr>\n" : "</td></tr>\n");
	free(ub);
}

/* The strip plot of one metric, and its figure for the page. */
static bool result_plot(struct metric_tables *mt, const char *plot_dir, const char *num,
			long long cid, const struct result_row *r, const struct metric_samples *ms,
			pb_err *err)
{
	char *name = xasprintf("%s-c%lld-%s-%s.svg", num, cid, r->workload, r->metric);
	char *svg = xasprintf("%s/%s", plot_dir, name), *title = xasprintf("%s %s", r->workload, r->metric);
	struct plot_side sides[2] = {
		{ "without the fix", ms->nboots[0], (double **)ms->v[0], (int *)ms->n[0] },
		{ "with the fix", ms->nboots[1], (double **)ms->v[1], (int *)ms->n[1] },
	};
	bool ok = plot_strip(svg, title, r->unit, sides, 2, err);

	str_add(&mt->figs, "<figure><img src=\"plots/");
	html_escape(&mt->figs, name);
	str_add(&mt->figs, "\" alt=\"");
	html_escape(&mt->figs, title);
	str_add(&mt->figs, "\" width=\"440\" height=\"270\"><figcaption>");
	html_escape(&mt->figs, title);
	str_add(&mt->figs, ": ");
	html_escape(&mt->figs, verdict_name(r->verdict));
	str_add(&mt->figs, "</figcaption></figure>\n");
	mt->nplots++;
	free(name);
	free(svg);
	free(title);
	return ok;
}

static void metric_tables_html(pb_str *h, const struct metric_tables *mt)
{
	static const char *const head =
		"<tr><th>workload</th><th>metric</th><th>unit, better</th><th>without</th>"
		"<th>with</th><th>change</th><th>spread without / with</th><th>95% CI</th>"
		"<th>p (Holm)</th><th>noise floor</th><th>boots / samples</th><th>decided by</th>"
		"<th>verdict</th></tr>\n";

	str_add(h, "<h2>Timing (medians of the boots that came out ok)</h2>\n");
	if (mt->part[0].len)
		str_addf(h, "<table>%s%s</table>\n", head, mt->part[0].buf);
	else
		str_add(h, "<p>No time metric.</p>\n");
	str_add(h, "<h2>Behaviour changes</h2>\n");
	if (mt->part[1].len)
		str_addf(h, "<table>%s%s</table>\n", head, mt->part[1].buf);
	else
		str_add(h, "<p>None: every counter and smaps value was the same.</p>\n");
	if (mt->part[2].len)
		str_addf(h, "<details><summary>Behaviour metrics that did not change</summary>"
			    "<table>%s%s</table></details>\n", head, mt->part[2].buf);
	if (mt->nplots)
		str_addf(h, "<h2>Samples</h2>\n<p>Every sample of both kernels; each boot its own "
			    "colour and column, the bar the median.</p>\n<div class=\"plots\">%s</div>\n",
			 mt->figs.buf);
}

/* The timing table, the behaviour changes apart, the unchanged counters
 * folded away, and a strip plot of every metric that was tested or changed. */
static bool comparison_tables(sqlite3 *db, long long cid, const char *num, const char *report_dir,
			      pb_str *h, pb_err *err)
{
	struct metric_tables mt = { 0 };
	struct db_cursor c;
	struct result_row r;
	char *plot_dir = xasprintf("%s/plots", report_dir);
	bool ok = mkdir_p(plot_dir, err);

	if (!ok || !db_report_results(&c, db, cid, err)) {
		free(plot_dir);
		return false;
	}
	for (int i = 0; i < 3; i++)
		str_init(&mt.part[i]);
	str_init(&mt.figs);
	while (ok && db_cursor_step(&c, &r)) {
		enum verdict v = r.verdict;
		/* diagnostics sit with the times they help explain */
		bool time = r.kind == METRIC_TIME || r.kind == METRIC_DIAGNOSTIC;
		bool both = r.n_without && r.n_with;
		int which = time ? 0 : v == VERDICT_BEHAVIOUR_CHANGE ? 1 : 2;
		struct metric_samples ms;

		if (!load_samples(db, cid, r.workload, r.metric, &ms, err)) {
			ok = false;
			break;
		}
		result_html(&mt.part[which], &r, &ms);
		if (which < 2 && (ms.nboots[0] || ms.nboots[1]) && (both || which == 1))
			ok = result_plot(&mt, plot_dir, num, cid, &r, &ms, err);
		samples_free(&ms);
	}
	db_cursor_close(&c, NULL);
	if (ok)
		metric_tables_html(h, &mt);
	for (int i = 0; i < 3; i++)
		str_free(&mt.part[i]);
	str_free(&mt.figs);
	free(plot_dir);
	return ok;
}

/* A kernel of the pair, in a line. */
static void kernel_kv(pb_str *h, const char *k, const struct kernel_row *kr)
{
	char *v = xasprintf("%s, key %.16s, %s", kr->label, kr->key, build_status_name(kr->build_status));

	row_kv(h, k, v);
	free(v);
}

char *report_statistics(const struct patch_page_row *r)
{
	char *noise = !r->noise_calibration
			      ? xstrdup("from this run's own boots (no calibration for this accelerator)")
			      : xasprintf("from A/A calibration %lld", r->noise_calibration);
	char *v;

	/* a row of an older perfbot was judged by its own rules: say which */
	if (!(r->beta > 0))
		v = xasprintf("p = 2 min(Mann-Whitney, Kolmogorov-Smirnov) over boot medians, Holm, "
			      "alpha %g; 95%% CI by bootstrap over boots then iterations (seed %lld); "
			      "gate %g%%; a change must exceed %g x the noise floor, %s; %d warm-up "
			      "iteration(s) left out (the procedure before schema 6)",
			      r->alpha, r->seed, r->gate_pct, r->noise_factor, noise, r->warmup);
	else
		v = xasprintf("a t test on the logarithms of the boot medians at each look (after "
			      "the first boots and after each extra round), Holm over the metrics, "
			      "alpha %g for flags spent over the looks (Lan-DeMets, Pocock-type) and "
			      "beta %g for \"no change\" mostly at the first (Kim-DeMets, t^1/4); 95%% t interval; gate %g%%, or a noisy "
			      "metric's own resolvable threshold; between-boot noise %s; %d warm-up "
			      "iteration(s) left out; seed %lld",
			      r->alpha, r->beta, r->gate_pct, noise, r->warmup, r->seed);
	free(noise);
	return v;
}

static void statistics_kv(pb_str *h, const struct patch_page_row *r)
{
	char *v = report_statistics(r);

	row_kv(h, "statistics", v);
	free(v);
}

/* The patch's own rows: who wrote it, where it came from, why mm. */
static void patch_kv(pb_str *h, const struct patch_page_row *r)
{
	row_kv(h, "author", r->author);
	str_add(h, "<tr><th>upstream commit</th><td>");
	if (strlen(r->upstream) == 40 && is_hex(r->upstream, 40))
		commit_link(h, r->upstream, 40);
	else
		html_escape(h, r->upstream[0] ? r->upstream : "(not named)");
	str_add(h, "</td></tr>\n");
	row_kv(h, "queue", r->queue);
	/* a patch from a review thread: where to answer it */
	if (r->message_id[0] || r->mail_date[0]) {
		row_kv(h, "Message-ID", r->message_id[0] ? r->message_id : "(none)");
		if (r->in_reply_to[0])
			row_kv(h, "In-Reply-To", r->in_reply_to);
		row_kv(h, "Date", r->mail_date[0] ? r->mail_date : "(none)");
		row_kv(h, "To", r->mail_to[0] ? r->mail_to : "(none)");
		row_kv(h, "Cc", r->mail_cc[0] ? r->mail_cc : "(none)");
	}
	row_kv(h, "reached stable", r->cc_stable ? "explicit Cc: stable tag"
						 : "picked without a Cc: stable tag");
	row_kv(h, "Fixes", r->fixes[0] ? r->fixes : "(none)");
	row_kv(h, "why mm", r->mm_reason);
}

/* The page's head and the table of what was compared, how and with what. */
static void patch_head(pb_str *h, const struct patch_page_row *r, const char *num,
		       const char *banners)
{
	bool series = r->kind == KIND_SERIES;
	char *sched;

	str_add(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>perfbot: ");
	html_escape(h, series ? "series " : "patch ");
	html_escape(h, num);
	str_addf(h, "</title><style>%s</style></head><body>\n<h1>", style);
	if (series) {
		/* the -rc as a whole: what was applied, and how */
		str_add(h, "Series ");
		html_escape(h, r->series_name);
		str_add(h, r->series_description[0] ? ": " : "");
		html_escape(h, r->series_description);
		str_add(h, "</h1>\n");
		nav(h, r->series_queue);
		str_add(h, banners);
		str_add(h, "<table>\n");
		row_kv(h, "queue", r->series_queue);
		if (r->series_cover_message_id[0])
			row_kv(h, "cover letter Message-ID", r->series_cover_message_id);
		row_kv(h, "how", r->series_mode == SERIES_FORWARD
					 ? "every patch applied in series order against the base (the -rc)"
					 : "the queue is in the base already: its mm patches taken out, last "
					   "first, against the base");
		row_kv(h, "patches applied, in order", r->series_patches);
		row_kv(h, "which patches", r->series_mm_only ? "only the mm patches (--mm-only)"
							     : "every patch of the queue, as in the -rc");
	} else {
		str_add(h, "Patch ");
		html_escape(h, num);
		str_add(h, ": ");
		html_escape(h, r->subject);
		str_add(h, "</h1>\n");
		nav(h, r->number > 0 ? r->queue : "");
		str_add(h, banners);
		str_add(h, "<table>\n");
		patch_kv(h, r);
	}
	row_kv(h, "pair", pair_method_name(r->pair_method));
	row_kv(h, "pair detail", r->pair_detail);
	kernel_kv(h, series ? "kernel without the series" : "kernel without the fix", &r->kernel[0]);
	kernel_kv(h, series ? "kernel with the series" : "kernel with the fix", &r->kernel[1]);
	row_kv(h, "base", r->base_version);
	row_kv(h, "accelerator", r->accel != ACCEL_AUTO ? accel_kind_name(r->accel) : "(nothing booted)");
	if (r->host[0] || r->host_cpu[0]) {
		char *where = xasprintf("%s%s%s%s%s", r->host[0] ? r->host : "a machine not recorded",
					r->host_cpu[0] ? ", " : "", r->host_cpu, r->qemu_version[0] ? ", " : "",
					r->qemu_version);

		row_kv(h, "ran on", where);
		free(where);
	}
	row_kv(h, "why this accelerator", r->accel_reason);
	row_kv(h, "status", status_name(r->status));
	row_kv(h, "workloads", r->workloads);
	row_kv(h, "why these workloads", r->workload_choice);
	sched = xasprintf("%d boots per kernel, %d iterations per boot, %d guest%s at once at most, "
			  "started %s, %.0f s, perfbot %s", r->boots_per_kernel, r->iterations,
			  r->guests_at_once > 1 ? r->guests_at_once : 1, r->guests_at_once > 1 ? "s" : "",
			  r->started_at, r->wall_seconds, r->perfbot_version);
	row_kv(h, "schedule", sched);
	free(sched);
	/* a failed boot's samples count for nothing: say how many counted */
	if (r->boots_ok[0] != r->boots_run[0] || r->boots_ok[1] != r->boots_run[1]) {
		char *ok = xasprintf("%d of %d without, %d of %d with; the samples of the others are "
				     "left out (see Boots)", r->boots_ok[0], r->boots_run[0], r->boots_ok[1],
				     r->boots_run[1]);

		str_add(h, "<tr>");
		cell(h, "th", "boots ok", NULL);
		cell(h, "td", ok, "bad");
		str_add(h, "</tr>\n");
		free(ok);
	}
	row_kv(h, "verdict (timing, worst metric)", r->decided ? verdict_name(r->verdict) : "-");
	row_kv(h, "behaviour", r->decided ? verdict_name(r->behaviour) : "-");
	statistics_kv(h, r);
	str_add(h, "</table>\n");
	if (r->accel == ACCEL_TCG_ICOUNT)
		str_add(h, "<p>Guest time under TCG with <code>-icount shift=0</code> counts instructions: "
			   "it measures the work a kernel path does, not cache or TLB stalls.</p>\n");
}

/* The banner of a kernel that failed to build: its compiler's error. */
static void build_banner(pb_str *h, const struct patch_page_row *r)
{
	for (int s = 0; s < 2; s++) {
		const char *fail = r->kernel[s].failure;

		if (fail[0]) {
			str_addf(h, "<h2 class=\"bad\">The kernel %s the fix failed to build</h2>\n<pre>",
				 side_name((enum side)s));
			html_escape(h, fail);
			str_add(h, "</pre>\n");
		}
	}
}

/* Every boot of the comparison, its outcome and its logs. */
static bool boots_table(sqlite3 *db, long long cid, const char *report_dir, pb_str *h, pb_err *err)
{
	struct db_cursor c;
	struct boot_row r;

	if (!db_report_boots(&c, db, cid, err))
		return false;
	str_add(h, "<h2>Boots</h2>\n<p>A workload without a time metric (the kernel's selftests) runs "
		   "in the first ok boot of each kernel only; <i>ran</i> says what each boot ran.</p>\n"
		   "<table><tr><th>#</th><th>kernel</th><th>outcome</th>"
		   "<th>wall</th><th>ran</th><th>logs</th><th>detail</th></tr>\n");
	while (db_cursor_step(&c, &r)) {
		char idx[16], wall[32];

		snprintf(idx, sizeof(idx), "%d", r.boot_index);
		snprintf(wall, sizeof(wall), "%.1f s", r.wall_seconds);
		str_add(h, "<tr>");
		cell(h, "td", idx, "num");
		cell(h, "td", side_name(r.side), NULL);
		cell(h, "td", boot_outcome_name(r.outcome), r.outcome != BOOT_OK ? "bad" : NULL);
		cell(h, "td", wall, "num");
		cell(h, "td", r.ran, NULL);
		str_add(h, "<td>");
		log_link(h, r.console_log, report_dir, "console");
		str_add(h, " ");
		log_link(h, r.results_log, report_dir, "results");
		str_add(h, "</td>");
		if (r.outcome != BOOT_OK && r.detail[0]) {
			/* its whole text is in the banner at the top, once */
			char *line = crash_headline(r.detail);

			str_add(h, "<td>");
			html_escape(h, line);
			str_add(h, " <a href=\"#crash\">(above)</a></td>");
			free(line);
		} else {
			cell(h, "td", r.detail, NULL);
		}
		str_add(h, "</tr>\n");
	}
	str_add(h, "</table>\n");
	db_cursor_close(&c, NULL);
	return true;
}

/* A failed boot, as the crash banner names it. */
struct failed_boot {
	int index, side;
	enum boot_outcome outcome;
	char *headline, *detail, *console;
};

/* "without the fix (base+port)": a side of the comparison and its kernel. */
static char *kernel_side(const struct patch_page_row *r, int side)
{
	bool series = r->kind == KIND_SERIES;

	return xasprintf("the kernel %s the %s (%s)", side_name(side ? SIDE_WITH : SIDE_WITHOUT), series ? "series" : "fix",
			 r->kernel[side].label);
}

/* A console line [at, at + n) without its "[    0.390281] " time stamp. */
static const char *untimed(const char *at, size_t *n)
{
	const char *end = memchr(at, ']', *n);

	if (*n && at[0] == '[' && end) {
		end += 1 + (end + 1 < at + *n && end[1] == ' ');
		*n -= (size_t)(end - at);
		return end;
	}
	return at;
}

/* Is the line [l, l + n) one of text's lines up to stop (time stamps
 * aside)? */
static bool line_before(const char *text, const char *stop, const char *l, size_t n)
{
	for (const char *at = text; at < stop;) {
		size_t len = strcspn(at, "\n"), un = len;
		const char *u = untimed(at, &un);

		if (un == n && !memcmp(u, l, n))
			return true;
		at += len + (at[len] == '\n');
	}
	return false;
}

/* An oops as the page prints it: once. After its "---[ end trace ... ]---"
 * the kernel prints the registers again on its way to the panic; those
 * lines, shown just above, are left out (the console log has them). */
static char *oops_once(const char *detail)
{
	const char *trace = strstr(detail, "---[ end trace"), *at;
	int dropped = 0;
	pb_str out;

	if (!trace)
		return xstrdup(detail);
	at = trace + strcspn(trace, "\n");
	at += *at == '\n';
	str_init(&out);
	str_addn(&out, detail, (size_t)(at - detail));
	while (*at) {
		size_t len = strcspn(at, "\n"), un = len;
		const char *u = untimed(at, &un);

		if (un && line_before(detail, trace, u, un)) {
			dropped++;
		} else {
			if (dropped)
				str_addf(&out, "(%d line%s printed again, as above)\n", dropped,
					 dropped == 1 ? "" : "s");
			dropped = 0;
			str_addn(&out, at, len + (at[len] == '\n'));
		}
		at += len + (at[len] == '\n');
	}
	if (dropped)
		str_addf(&out, "(%d line%s printed again, as above)\n", dropped, dropped == 1 ? "" : "s");
	return str_steal(&out);
}

/* The banner at the top of a page whose boots did not all come out ok:
 * each failure's one line (crash_headline), which boots ended so, of which
 * kernel, their console logs, and the failure's text once. */
static bool crash_banner(sqlite3 *db, long long cid, const struct patch_page_row *pr,
			 const char *report_dir, pb_str *h, pb_err *err)
{
	struct failed_boot *fb = NULL;
	struct db_cursor c;
	struct boot_row r;
	int n = 0;
	bool ok;

	if (!db_report_boots(&c, db, cid, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		char *line;

		if (r.outcome == BOOT_OK)
			continue;
		line = crash_headline(r.detail);
		fb = xrealloc(fb, sizeof(*fb) * (size_t)(n + 1));
		fb[n++] = (struct failed_boot){ r.boot_index, r.side == SIDE_WITH, r.outcome,
						line[0] ? line : xstrdup(boot_outcome_name(r.outcome)),
						xstrdup(r.detail),
						xstrdup(r.console_log) };
		if (!line[0])
			free(line);
	}
	ok = db_cursor_close(&c, err);
	if (ok && n) {
		str_add(h, "<div id=\"crash\">\n");
		/* each headline once, with every boot that ended with it */
		for (int i = 0; i < n; i++) {
			int first = i;

			for (int j = 0; j < i; j++)
				if (!strcmp(fb[j].headline, fb[i].headline))
					first = j;
			if (first != i)
				continue;
			str_add(h, "<h2 class=\"bad\">");
			html_escape(h, fb[i].headline);
			str_add(h, "</h2>\n<ul>\n");
			for (int j = i; j < n; j++) {
				char *who;

				if (strcmp(fb[j].headline, fb[i].headline))
					continue;
				who = kernel_side(pr, fb[j].side);
				str_addf(h, "<li>boot %d, ", fb[j].index);
				html_escape(h, who);
				str_add(h, ": ");
				html_escape(h, boot_outcome_name(fb[j].outcome));
				str_add(h, "; ");
				log_link(h, fb[j].console, report_dir, "its console log");
				str_add(h, "</li>\n");
				free(who);
			}
			str_add(h, "</ul>\n");
			if (strcmp(fb[i].detail, fb[i].headline)) {
				char *oops = oops_once(fb[i].detail);

				str_add(h, "<pre>");
				html_escape(h, oops);
				str_add(h, "</pre>\n");
				free(oops);
			}
		}
		str_add(h, "</div>\n");
	}
	for (int i = 0; i < n; i++) {
		free(fb[i].headline);
		free(fb[i].detail);
		free(fb[i].console);
	}
	free(fb);
	return ok;
}

char *report_guest_cmdline(const char *qemu, size_t *at, size_t *len)
{
	const char *a = strstr(qemu, " -append "), *end;

	if (!a)
		return NULL;
	a += strlen(" -append ");
	end = strstr(a, " -serial ");
	if (!end)
		end = a + strlen(a);
	*at = (size_t)(a - qemu);
	*len = (size_t)(end - a);
	return xstrndup(a, *len);
}

/* A kernel's .config, from its directory in the kernel cache
 * (<cache>/kernels/<key>/config beside its build.log, kernel.h), copied to
 * <report_dir>/configs/<key>.config and linked: the page keeps it when the
 * cache is cleaned. Where there is none, why. */
static void config_kv(pb_str *h, const char *k, const struct kernel_row *kr, const char *report_dir)
{
	char key[17], *name, *dir = xasprintf("%s/configs", report_dir), *dst, *src = NULL, *why = NULL;
	pb_err err = { "" };

	safe_name(key, sizeof(key), kr->key, strlen(kr->key));
	name = xasprintf("configs/%s.config", key);
	dst = xasprintf("%s/%s", report_dir, name);
	if (ends_with(kr->build_log, "/build.log"))
		src = xasprintf("%.*s/config", (int)(strlen(kr->build_log) - strlen("/build.log")),
				kr->build_log);
	if (path_exists(dst))
		; /* copied before: the same key, the same kernel */
	else if (kr->build_status != BUILD_BUILT)
		why = xstrdup("none: the kernel did not build");
	else if (!src)
		why = xstrdup("not found: the database does not say where the kernel was built");
	else if (!path_exists(src))
		why = xasprintf("not found: the kernel cache no longer holds %s", src);
	else if (!mkdir_p(dir, &err) || !copy_file(src, dst, &err))
		why = xasprintf("not copied: %s", err.msg[0] ? err.msg : "cannot write it");
	str_add(h, "<tr>");
	cell(h, "th", k, NULL);
	str_add(h, "<td>");
	if (why) {
		html_escape(h, why);
	} else {
		page_link(h, name, name);
		str_add(h, " (kernel ");
		html_escape(h, kr->label);
		str_addf(h, ", key %s)", key);
	}
	str_add(h, "</td></tr>\n");
	free(why);
	free(src);
	free(dst);
	free(dir);
	free(name);
}

/* How to run the comparison again: perfbot's command with its seed, the
 * version that ran it, both kernels' .config, a boot's QEMU command line
 * and guest kernel command line of each side. */
static void reproduce(pb_str *h, const struct patch_page_row *r, const char *report_dir)
{
	char *line = answer_reproduce_line(r, true);

	str_add(h, "<h2>Reproduce</h2>\n<table>\n<tr><th>command</th><td><pre>");
	html_escape(h, line);
	str_add(h, "</pre></td></tr>\n");
	free(line);
	row_kv(h, "perfbot version", r->perfbot_version);
	for (int s = 0; s < 2; s++) {
		char *who = kernel_side(r, s), *k = xasprintf(".config of %s", who);

		config_kv(h, k, &r->kernel[s], report_dir);
		free(k);
		free(who);
	}
	for (int s = 0; s < 2; s++) {
		const char *q = r->qemu_cmdline[s] ? r->qemu_cmdline[s] : "";
		char *who, *k, *guest;
		size_t at = 0, len = 0;

		if (!q[0])
			continue;
		who = kernel_side(r, s);
		guest = report_guest_cmdline(q, &at, &len);
		k = xasprintf("QEMU, the first boot of %s", who);
		str_add(h, "<tr>");
		cell(h, "th", k, NULL);
		str_add(h, "<td><pre>");
		if (guest) {
			/* the -append argument quoted, as a shell needs it */
			char *head = xstrndup(q, at), *quoted = shell_quote(guest);

			html_escape(h, head);
			html_escape(h, quoted);
			html_escape(h, q + at + len);
			free(head);
			free(quoted);
		} else {
			html_escape(h, q);
		}
		str_add(h, "</pre></td></tr>\n");
		free(k);
		if (guest) {
			k = xasprintf("guest kernel command line, %s", who);
			str_add(h, "<tr>");
			cell(h, "th", k, NULL);
			str_add(h, "<td><pre>");
			html_escape(h, guest);
			str_add(h, "</pre></td></tr>\n");
			free(k);
		}
		free(guest);
		free(who);
	}
	if (!(r->qemu_cmdline[0] && r->qemu_cmdline[0][0]) && !(r->qemu_cmdline[1] && r->qemu_cmdline[1][0]))
		row_kv(h, "QEMU", "nothing was booted");
	str_add(h, "</table>\n");
}

/* The port (if the pair was made with one) and the patch, as text. */
static void patch_texts(pb_str *h, const char *patch_file, const char *port_file)
{
	char *text;

	if (port_file) {
		text = read_file(port_file, NULL, NULL);
		str_add(h, "<h2>The port (applied to form the kernel without the fix)</h2>\n<p>");
		html_escape(h, port_file);
		str_add(h, "</p>\n<pre>");
		html_linkify(h, text ? text : "(the port file is gone)");
		str_add(h, "</pre>\n");
		free(text);
	}
	text = read_file(patch_file, NULL, NULL);
	str_add(h, "<h2>The patch</h2>\n<pre>");
	html_linkify(h, text ? text : "(the patch file is gone)");
	str_add(h, "</pre>\n");
	free(text);
}

/* One bisect's steps: the kernels each compared, and what it found. */
static bool bisect_steps_table(sqlite3 *db, long long bid, pb_str *h, pb_err *err)
{
	struct bisect_step_row r;
	struct db_cursor c;

	if (!db_report_bisect_steps(&c, db, bid, err))
		return false;
	str_add(h, "<table><tr><th>step</th><th>role</th><th>prefix</th><th>kernel</th>"
		   "<th>against prefix</th><th>kernel</th><th>change</th><th>95% CI</th>"
		   "<th>verdict</th><th>boots a side</th><th>s</th></tr>\n");
	while (db_cursor_step(&c, &r)) {
		char num[64];

		str_addf(h, "<tr><td>%d</td>", r.step);
		cell(h, "td", bisect_role_name(r.role), NULL);
		str_addf(h, "<td>%d</td>", r.prefix_a);
		str_add(h, "<td><code>");
		html_escape(h, r.kernel_a);
		str_addf(h, "</code> (%.12s)</td><td>%d</td><td><code>", r.key_a, r.prefix_b);
		html_escape(h, r.kernel_b);
		str_addf(h, "</code> (%.12s)</td>", r.key_b);
		snprintf(num, sizeof(num), isnan(r.change_pct) ? "-" : "%+.2f%%", r.change_pct);
		cell(h, "td", num, NULL);
		if (isnan(r.ci_lo_pct))
			snprintf(num, sizeof(num), "-");
		else
			snprintf(num, sizeof(num), "[%+.2f%%, %+.2f%%]", r.ci_lo_pct, r.ci_hi_pct);
		cell(h, "td", num, NULL);
		str_addf(h, "<td class=\"%s\">", r.bad ? "bad" : "");
		html_escape(h, r.verdict);
		str_addf(h, "%s</td><td>%d</td><td>%.0f</td></tr>\n", r.bad ? " (bad)" : "", r.boots,
			 r.wall_seconds);
	}
	str_add(h, "</table>\n");
	return db_cursor_close(&c, err);
}

/* A series page's bisects (perfbot bisect): the culprit and each step
 * (SQLite steps the two cursors side by side). */
static bool bisection_log(sqlite3 *db, long long cid, pb_str *h, pb_err *err)
{
	struct bisect_row r;
	struct db_cursor c;
	bool ok = true, first = true;

	if (!db_report_bisects(&c, db, cid, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		if (first)
			str_add(h, "<h2>Bisection</h2>\n");
		first = false;
		str_addf(h, "<h3>Bisect %lld: ", r.id);
		html_escape(h, r.workload[0] ? r.workload : bisect_change_name(r.change));
		str_add(h, r.workload[0] ? "." : "");
		html_escape(h, r.metric);
		str_add(h, " (");
		html_escape(h, bisect_change_name(r.change));
		str_addf(h, "), %d patch%s: <span class=\"%s tag\">", r.npatches,
			 r.npatches == 1 ? "" : "es", r.status == BISECT_CONFIRMED ? "bad" : "");
		html_escape(h, bisect_status_name(r.status));
		str_add(h, "</span></h3>\n<p>");
		if (r.culprit)
			str_addf(h, "The first prefix that shows the change is %d: the culprit is ",
				 r.culprit);
		html_escape(h, r.detail);
		str_addf(h, ". %d comparisons, %.0f s, finished ", r.steps, r.wall_seconds);
		html_escape(h, r.finished_at);
		str_add(h, ". Confirmed means the change reproduced between the prefixes before "
			   "and with the culprit in two independent comparisons, and did not show "
			   "between the base and the prefix before it.</p>\n");
		ok = bisect_steps_table(db, r.id, h, err);
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

bool report_write_patch(sqlite3 *db, long long cid, const char *report_dir, char **written,
			pb_err *err)
{
	struct patch_page_row r;
	struct db_cursor c;
	pb_str h, banners, repro;
	char *path = NULL, *num = NULL, *page = NULL, *patch_file = NULL, *port_file = NULL;
	char label[PATCH_LABEL_SIZE];
	bool ok = false, found, series;

	*written = NULL;
	str_init(&h);
	if (!db_report_patch_page(&c, db, cid, &r, &found, err))
		goto out;
	if (!found) {
		db_cursor_close(&c, NULL);
		pb_seterr(err, "report: no comparison %lld in the database", cid);
		goto out;
	}
	series = r.kind == KIND_SERIES;
	page = report_page_of(&r);
	/* the plots are named after the page: <page>-c<cid>-... */
	num = xstrndup(page, strlen(page) - strlen(".html"));
	/* a failed build or boot leads the page, under its heading */
	str_init(&banners);
	build_banner(&banners, &r);
	if (!crash_banner(db, cid, &r, report_dir, &banners, err)) {
		str_free(&banners);
		db_cursor_close(&c, NULL);
		goto out;
	}
	patch_head(&h, &r, series ? r.series_name : patch_label(label, r.number, r.sha256),
		   banners.buf ? banners.buf : "");
	str_free(&banners);
	patch_file = series ? NULL : xstrdup(r.file);
	/* A port is this project's own change: show it beside the patch. */
	port_file = r.pair_method == PAIR_PORT ? xstrdup(r.port_file) : NULL;
	str_init(&repro);
	reproduce(&repro, &r, report_dir);
	db_cursor_close(&c, NULL);
	ok = comparison_tables(db, cid, num, report_dir, &h, err) &&
	     boots_table(db, cid, report_dir, &h, err);
	str_addn(&h, repro.buf ? repro.buf : "", repro.len);
	str_free(&repro);
	if (!ok)
		goto out;
	ok = false;
	if (!series)
		patch_texts(&h, patch_file, port_file);
	else if (!bisection_log(db, cid, &h, err))
		goto out;
	str_add(&h, "</body></html>\n");
	if (!mkdir_p(report_dir, err))
		goto out;
	path = xasprintf("%s/%s", report_dir, page);
	if (!write_file_atomic(path, h.buf, h.len, err))
		goto out;
	*written = path;
	path = NULL;
	ok = true;
out:
	free(num);
	free(page);
	free(patch_file);
	free(port_file);
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
static bool workload_verdicts(sqlite3 *db, long long cid, pb_str *h, pb_err *err)
{
	struct db_cursor c;
	struct workload_verdict_row r;
	char last[128] = "";
	enum verdict worst = VERDICT_NO_DATA;

	if (!db_report_workload_verdicts(&c, db, cid, err))
		return false;
	for (bool more = true; more;) {
		more = db_cursor_step(&c, &r);
		if (last[0] && (!more || strcmp(r.workload, last))) {
			str_addf(h, "<span class=\"%s tag\">", verdict_class(worst));
			html_escape(h, last);
			str_add(h, ": ");
			html_escape(h, verdict_name(worst));
			str_add(h, "</span> ");
			worst = VERDICT_NO_DATA;
		}
		if (more) {
			/* the enum's order is the ranking: the workload's worst */
			snprintf(last, sizeof(last), "%s", r.workload);
			if (r.verdict > worst)
				worst = r.verdict;
		}
	}
	db_cursor_close(&c, NULL);
	return true;
}

/* The index's cells of a patch that has a comparison: its verdicts, its run. */
static bool index_measured(sqlite3 *db, const struct index_row *r, pb_str *h, pb_err *err)
{
	str_add(h, "<td>");
	if (r->status != STATUS_MEASURED) {
		str_add(h, "<span class=\"bad tag\">");
		html_escape(h, status_name(r->status));
		str_add(h, "</span> ");
	}
	if (!workload_verdicts(db, r->id, h, err))
		return false;
	str_add(h, "</td><td>");
	html_escape(h, accel_kind_name(r->accel));
	str_add(h, " ");
	html_escape(h, r->finished_at);
	str_add(h, "</td>");
	return true;
}

/* What a queue's table shows of a patch: what the queue says of it, or,
 * for a queue not loaded, what the database stored of it. */
struct patch_cells {
	int number;
	const char *sha256, *subject, *upstream, *mm_reason;
	const char *fixes; /* one a line */
	bool is_mm, cc_stable;
};

static struct patch_cells cells_of_patch(const struct pb_patch *p, pb_str *fixes)
{
	for (int f = 0; f < p->nfixes; f++)
		str_addf(fixes, "%s%s", f ? "\n" : "", p->fixes[f]);
	return (struct patch_cells){ p->number, p->sha256, p->subject, p->upstream, p->mm_reason,
				     fixes->buf ? fixes->buf : "", p->is_mm, p->cc_stable };
}

static struct patch_cells cells_of_row(const struct measured_row *r)
{
	return (struct patch_cells){ r->number, r->sha256, r->subject, r->upstream, r->mm_reason,
				     r->fixes, r->is_mm, r->cc_stable };
}

/* A patch's first cell: its label, linked to its page when it has one. */
static void label_cell(pb_str *h, const char *queue, int number, const char *sha256, bool linked)
{
	char label[PATCH_LABEL_SIZE];
	char *page = report_patch_page(queue, number, sha256);

	patch_label(label, number, sha256);
	str_add(h, "<td class=\"num\">");
	if (linked)
		page_link(h, page, label);
	else
		html_escape(h, label);
	str_add(h, "</td>");
	free(page);
}

/* A queue's table's cells of what is known of a patch. */
static void index_patch(pb_str *h, const char *queue, const struct patch_cells *p, bool linked,
			const char *note)
{
	char up[16];

	label_cell(h, queue, p->number, p->sha256, linked);
	str_add(h, "<td>");
	html_escape(h, p->subject);
	if (note) {
		str_add(h, " <i>");
		html_escape(h, note);
		str_add(h, "</i>");
	}
	str_add(h, "</td>");
	snprintf(up, sizeof(up), "%.12s", p->upstream[0] ? p->upstream : "-");
	cell(h, "td", up, "num");
	str_add(h, "<td title=\"");
	html_escape(h, p->mm_reason);
	str_addf(h, "\">%s</td>", p->is_mm ? "mm" : "no");
	cell(h, "td", p->cc_stable ? "Cc: stable" : "picked without Cc: stable", NULL);
	str_add(h, "<td>");
	for (const char *f = p->fixes; *f;) {
		size_t n = strcspn(f, "\n");
		char fx[16];

		snprintf(fx, sizeof(fx), "%.*s", (int)(n < 12 ? n : 12), f);
		if (f != p->fixes)
			str_add(h, "<br>");
		html_escape(h, fx);
		f += n + (f[n] == '\n');
	}
	str_add(h, p->fixes[0] ? "</td>" : "-</td>");
}

/* What a queue's page and its part of the index count of it. */
struct queue_count {
	int patches, measured, skipped, gone; /* gone: measured, no longer in the queue */
};

/* One patch of the loaded queue: its row of the queue's table. */
static bool queue_patch_row(sqlite3 *db, const struct pb_queue *q, const struct pb_patch *p, pb_str *h,
			    struct queue_count *n, pb_err *err)
{
	struct db_cursor c;
	struct index_row r = { 0 };
	struct patch_cells pc;
	pb_str fixes;
	bool ok = true;

	if (!db_report_newest(&c, db, q->dir, p->number, err))
		return false;
	if (!db_cursor_step(&c, &r))
		r.id = 0;
	str_init(&fixes);
	pc = cells_of_patch(p, &fixes);
	str_add(h, "<tr>");
	index_patch(h, q->dir, &pc, r.id != 0, NULL);
	if (r.id) {
		ok = index_measured(db, &r, h, err);
		n->measured++;
	} else {
		char *why = p->is_mm ? xstrdup("not measured yet (perfbot run --patch N)")
				     : xasprintf("skipped: not an mm patch (%s)", p->mm_reason);

		str_addf(h, "<td colspan=\"2\" class=\"%s\">", p->is_mm ? "open" : "same");
		html_escape(h, why);
		str_add(h, "</td>");
		free(why);
		n->skipped += !p->is_mm;
	}
	str_add(h, "</tr>\n");
	str_free(&fixes);
	db_cursor_close(&c, NULL);
	return ok;
}

/* The measured patches of queue the database holds: of a queue not loaded
 * (q NULL) every one, of the loaded queue q those no longer in it. */
static bool queue_stored_rows(sqlite3 *db, const char *queue, const struct pb_queue *q, pb_str *h,
			      struct queue_count *n, pb_err *err)
{
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;

	if (!db_report_measured(&c, db, queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct patch_cells pc = cells_of_row(&r);

		if (q && queue_find(q, r.number))
			continue;
		str_add(h, "<tr>");
		index_patch(h, queue, &pc, true, q ? "(measured before; not in the queue now)" : NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
		n->measured++;
		n->gone += q != NULL;
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* The queue as a whole (perfbot run --series): each series' newest run. */
static bool index_series(sqlite3 *db, const char *queue, pb_str *h, pb_err *err)
{
	struct series_index_row r;
	struct db_cursor c;
	char *page;
	int n = 0;

	if (!db_report_series(&c, db, queue, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		if (!n++)
			str_add(h, "<h3>The queue as a whole</h3>\n<table><tr><th>series</th><th>how"
				   "</th><th>patches applied</th><th>workloads: verdict</th>"
				   "<th>run</th></tr>\n");
		page = report_series_page(queue, r.name);
		str_add(h, "<tr><td><a href=\"");
		html_escape(h, page);
		free(page);
		str_add(h, "\">");
		html_escape(h, r.name);
		str_add(h, "</a></td><td>");
		html_escape(h, r.mode == SERIES_FORWARD ? "applied" : "mm patches taken out");
		str_add(h, "</td><td>");
		html_escape(h, r.patches);
		str_add(h, "</td>");
		if (!index_measured(db, &r.run, h, err)) {
			db_cursor_close(&c, NULL);
			return false;
		}
		str_add(h, "</tr>\n");
	}
	if (n)
		str_add(h, "</table>\n");
	return db_cursor_close(&c, err);
}

/* A queue of the report: the index's part and its own page. */
struct queue_entry {
	char *queue, *newest;
	const struct pb_queue *loaded; /* the queue of this run, else NULL */
	struct queue_count n;
};

/* The sentence that counts a queue's patches. */
static char *queue_counts(const struct queue_entry *e)
{
	if (!e->loaded)
		return xasprintf("%d patch%s measured (this queue is not the one loaded: a patch "
				 "never measured is not listed).", e->n.measured,
				 e->n.measured == 1 ? "" : "es");
	return xasprintf("%d patch%s: %d measured, %d skipped as not mm.%s",
			 e->loaded->npatches + e->n.gone,
			 e->loaded->npatches + e->n.gone == 1 ? "" : "es", e->n.measured, e->n.skipped,
			 e->n.gone ? " Some measured before are no longer in the queue." : "");
}

/* <report_dir>/queue-<name>-<hash>.html: every patch of the queue, its
 * newest comparison's verdict per workload or why it was skipped, and its
 * series; e->n gets the counts. */
static bool write_queue_page(sqlite3 *db, struct queue_entry *e, const char *report_dir, pb_err *err)
{
	const struct pb_queue *q = e->loaded;
	char *title = xasprintf("perfbot: queue %s", queue_name(e->queue)), *page, *path, *counts;
	pb_str h;
	bool ok = true;

	memset(&e->n, 0, sizeof(e->n));
	str_init(&h);
	page_head(&h, title);
	nav(&h, NULL);
	str_add(&h, "<p>Queue ");
	html_escape(&h, e->queue);
	str_add(&h, ". <a href=\"trend.html\">The base kernel over time and across versions</a>.</p>\n"
		    "<table><tr><th>#</th><th>subject</th><th>upstream</th><th>mm</th>"
		    "<th>reached stable</th><th>Fixes</th><th>workloads: verdict</th><th>run</th></tr>\n");
	for (int i = 0; ok && q && i < q->npatches; i++)
		ok = queue_patch_row(db, q, &q->patches[i], &h, &e->n, err);
	ok = ok && queue_stored_rows(db, e->queue, q, &h, &e->n, err);
	counts = queue_counts(e);
	str_add(&h, "</table>\n<p>");
	html_escape(&h, counts);
	str_add(&h, "</p>\n");
	free(counts);
	ok = ok && index_series(db, e->queue, &h, err);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	page = report_queue_page(e->queue);
	path = xasprintf("%s/%s", report_dir, page);
	ok = ok && write_file_atomic(path, h.buf, h.len, err);
	free(path);
	free(page);
	free(title);
	str_free(&h);
	return ok;
}

/* The index's part of a queue: its measured patches, its series. */
static bool index_queue(sqlite3 *db, const struct queue_entry *e, pb_str *h, pb_err *err)
{
	char *page = report_queue_page(e->queue), *counts = queue_counts(e);
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;
	int n = 0;

	str_add(h, "<h2>");
	page_link(h, page, queue_name(e->queue));
	str_add(h, "</h2>\n<p>");
	html_escape(h, e->queue);
	str_add(h, e->loaded ? " (the queue loaded now)" : "");
	if (e->newest[0]) {
		str_add(h, "; newest comparison ");
		html_escape(h, e->newest);
	}
	str_add(h, ". ");
	html_escape(h, counts);
	str_add(h, "</p>\n");
	free(counts);
	free(page);
	if (!db_report_measured(&c, db, e->queue, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		if (!n++)
			str_add(h, "<table><tr><th>#</th><th>subject</th><th>workloads: verdict</th>"
				   "<th>run</th></tr>\n");
		str_add(h, "<tr>");
		label_cell(h, e->queue, r.number, r.sha256, true);
		cell(h, "td", r.subject, NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
	}
	if (n)
		str_add(h, "</table>\n");
	ok = db_cursor_close(&c, ok ? err : NULL) && ok;
	return ok && index_series(db, e->queue, h, err);
}

/* The index's patches without a series number (perfbot run --patch-file). */
static bool index_own(sqlite3 *db, pb_str *h, int *n, pb_err *err)
{
	struct db_cursor c;
	struct measured_row r;
	bool ok = true;

	*n = 0;
	if (!db_report_measured(&c, db, NULL, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		if (!(*n)++)
			str_add(h, "<h2 id=\"own\">Patches on their own</h2>\n<p>Patch files without a "
				   "series number, each by its identity (the first 12 hex digits of its "
				   "sha256).</p>\n<table><tr><th>patch</th><th>subject</th><th>file</th>"
				   "<th>workloads: verdict</th><th>run</th></tr>\n");
		str_add(h, "<tr>");
		label_cell(h, "", 0, r.sha256, true);
		cell(h, "td", r.subject, NULL);
		cell(h, "td", r.file, NULL);
		ok = index_measured(db, &r.run, h, err);
		str_add(h, "</tr>\n");
	}
	if (*n)
		str_add(h, "</table>\n");
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

/* Every queue of the database, the newest first, and q where it has no
 * comparison yet; free with queue_entries_free. */
static bool queue_entries(sqlite3 *db, const struct pb_queue *q, struct queue_entry **out, int *n,
			  pb_err *err)
{
	struct db_cursor c;
	struct queue_row r;
	struct queue_entry *e = NULL;
	bool loaded = false;

	*n = 0;
	if (!db_report_queues(&c, db, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		e = xrealloc(e, sizeof(*e) * (size_t)(*n + 1));
		e[*n] = (struct queue_entry){ xstrdup(r.queue), xstrdup(r.newest), NULL, { 0 } };
		if (q && !strcmp(q->dir, r.queue)) {
			e[*n].loaded = q;
			loaded = true;
		}
		(*n)++;
	}
	if (q && !loaded) {
		e = xrealloc(e, sizeof(*e) * (size_t)(*n + 1));
		e[(*n)++] = (struct queue_entry){ xstrdup(q->dir), xstrdup(""), q, { 0 } };
	}
	*out = e;
	return db_cursor_close(&c, err);
}

static void queue_entries_free(struct queue_entry *e, int n)
{
	for (int i = 0; i < n; i++) {
		free(e[i].queue);
		free(e[i].newest);
	}
	free(e);
}

bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err)
{
	struct queue_entry *e = NULL;
	pb_str h, body;
	char *path;
	int n = 0, own = 0, measured = 0;
	bool ok;

	/* a patch of one's own is no queue: it is listed among those on their own */
	if (q && q->one_patch)
		q = NULL;
	ok = mkdir_p(report_dir, err) && queue_entries(db, q, &e, &n, err);

	str_init(&h);
	str_init(&body);
	for (int i = 0; ok && i < n; i++)
		ok = write_queue_page(db, &e[i], report_dir, err);
	for (int i = 0; ok && i < n; i++) {
		ok = index_queue(db, &e[i], &body, err);
		measured += e[i].n.measured;
	}
	ok = ok && index_own(db, &body, &own, err);
	page_head(&h, "perfbot: mm patches of the stable queues");
	str_addf(&h, "<p>%d queue%s with %d measured patch%s", n, n == 1 ? "" : "s", measured,
		 measured == 1 ? "" : "es");
	if (own)
		str_addf(&h, ", and %d patch%s on %s own", own, own == 1 ? "" : "es",
			 own == 1 ? "its" : "their");
	str_add(&h, "; the queue with the newest comparison first. <a href=\"trend.html\">The base "
		    "kernel over time and across versions</a>.</p>\n");
	if (!n && !own)
		str_add(&h, "<p>Nothing measured yet.</p>\n");
	str_addn(&h, body.buf ? body.buf : "", body.len);
	str_add(&h, "<p>Generated from results.db by perfbot.</p>\n</body></html>\n");
	if (ok) {
		path = xasprintf("%s/index.html", report_dir);
		ok = write_file_atomic(path, h.buf, h.len, err);
		free(path);
	}
	queue_entries_free(e, n);
	str_free(&body);
	str_free(&h);
	return ok;
}

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

			fmt_num(med, sizeof(med), pt[i].median);
			snprintf(runs, sizeof(runs), "%d", pt[i].runs);
			str_add(table, "<tr>");
			cell(table, "td", accel_kind_name(w->accel), NULL);
			cell(table, "td", metric, NULL);
			cell(table, "td", pt[i].version, NULL);
			cell(table, "td", med, "num");
			cell(table, "td", w->unit, NULL);
			cell(table, "td", runs, "num");
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
	page_head(&h, "perfbot: the base kernel over time and across versions");
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
