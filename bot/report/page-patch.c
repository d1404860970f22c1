/* A comparison's page: a patch's or a series': its head (the patch, the
 * kernels, the accelerator, the verdicts), the failure banners, the
 * metrics' tables and strip plots, the boots, the bisection log, the
 * reproduce section and the patch's text. A pure function of its view
 * (patch-view.h): no query, no file read or written here. */
#include "patch-view.h"
#include "report.h"
#include "html.h"

#include "view.h"
#include "outcome.h"
#include "queue.h"
#include "stats.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static void result_html(pb_str *t, const struct patch_metric *r)
{
	const struct metric_samples *ms = &r->samples;
	enum verdict v = r->verdict;
	char a[32], b[32], c[32], n[64], ci[64], p[32], nz[64], sp[64], x0[24], x1[24], at[48] = "";
	char *ub = xasprintf("%s, %s", r->unit, better_name(r->better));

	html_fmt_num(a, sizeof(a), r->median_without);
	html_fmt_num(b, sizeof(b), r->median_with);
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
	str_addf(t, "<tr class=\"%s\">", html_verdict_class(v));
	html_cell(t, "td", r->workload, NULL);
	html_cell(t, "td", r->metric, NULL);
	html_cell(t, "td", ub, NULL);
	html_cell(t, "td", a, "num");
	html_cell(t, "td", b, "num");
	html_cell(t, "td", c, "num");
	html_cell(t, "td", sp, "num");
	html_cell(t, "td", ci, "num");
	html_cell(t, "td", p, "num");
	html_cell(t, "td", nz, "num");
	html_cell(t, "td", n, "num");
	html_cell(t, "td", r->regime, NULL);
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

/* The figure of one metric's strip plot (patch_view_plots wrote it). */
static void result_figure(struct metric_tables *mt, const struct patch_view *v,
			  const struct patch_metric *r)
{
	char *name, *title;

	patch_plot_names(v, r, &name, &title);
	str_add(&mt->figs, "<figure><img src=\"");
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
	free(title);
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
static void comparison_tables(pb_str *h, const struct patch_view *v)
{
	struct metric_tables mt = { 0 };

	for (int i = 0; i < 3; i++)
		str_init(&mt.part[i]);
	str_init(&mt.figs);
	for (int i = 0; i < v->nmetrics; i++) {
		const struct patch_metric *r = &v->metric[i];
		/* diagnostics sit with the times they help explain */
		bool time = r->kind == METRIC_TIME || r->kind == METRIC_DIAGNOSTIC;
		int which = time ? 0 : r->verdict == VERDICT_BEHAVIOUR_CHANGE ? 1 : 2;

		result_html(&mt.part[which], r);
		if (patch_metric_plotted(r))
			result_figure(&mt, v, r);
	}
	metric_tables_html(h, &mt);
	for (int i = 0; i < 3; i++)
		str_free(&mt.part[i]);
	str_free(&mt.figs);
}

/* A kernel of the pair, in a line. */
static void kernel_kv(pb_str *h, const char *k, const struct kernel_row *kr)
{
	char *v = xasprintf("%s, key %.16s, %s", kr->label, kr->key, build_status_name(kr->build_status));

	html_row_kv(h, k, v);
	free(v);
}

static void statistics_kv(pb_str *h, const struct patch_page_row *r)
{
	char *v = view_statistics(r);

	html_row_kv(h, "statistics", v);
	free(v);
}

/* The patch's own rows: who wrote it, where it came from, why mm. */
static void patch_kv(pb_str *h, const struct patch_page_row *r)
{
	html_row_kv(h, "author", r->author);
	str_add(h, "<tr><th>upstream commit</th><td>");
	if (strlen(r->upstream) == 40 && html_is_hex(r->upstream, 40))
		html_commit_link(h, r->upstream, 40);
	else
		html_escape(h, r->upstream[0] ? r->upstream : "(not named)");
	str_add(h, "</td></tr>\n");
	html_row_kv(h, "queue", r->queue);
	/* a patch from a review thread: where to answer it */
	if (r->message_id[0] || r->mail_date[0]) {
		html_row_kv(h, "Message-ID", r->message_id[0] ? r->message_id : "(none)");
		if (r->in_reply_to[0])
			html_row_kv(h, "In-Reply-To", r->in_reply_to);
		html_row_kv(h, "Date", r->mail_date[0] ? r->mail_date : "(none)");
		html_row_kv(h, "To", r->mail_to[0] ? r->mail_to : "(none)");
		html_row_kv(h, "Cc", r->mail_cc[0] ? r->mail_cc : "(none)");
	}
	html_row_kv(h, "reached stable", r->cc_stable ? "explicit Cc: stable tag"
						 : "picked without a Cc: stable tag");
	html_row_kv(h, "Fixes", r->fixes[0] ? r->fixes : "(none)");
	html_row_kv(h, "why mm", r->mm_reason);
}

/* The heading of a series' page and its rows: what was applied, how. */
static void series_heading(pb_str *h, const struct patch_page_row *r, const char *banners)
{
	/* the -rc as a whole: what was applied, and how */
	str_add(h, "Series ");
	html_escape(h, r->series_name);
	str_add(h, r->series_description[0] ? ": " : "");
	html_escape(h, r->series_description);
	str_add(h, "</h1>\n");
	html_nav(h, r->series_queue);
	str_add(h, banners);
	str_add(h, "<table>\n");
	html_row_kv(h, "queue", r->series_queue);
	if (r->series_cover_message_id[0])
		html_row_kv(h, "cover letter Message-ID", r->series_cover_message_id);
	html_row_kv(h, "how", r->series_mode == SERIES_FORWARD
				 ? "every patch applied in series order against the base (the -rc)"
				 : "the queue is in the base already: its mm patches taken out, last "
				   "first, against the base");
	html_row_kv(h, "patches applied, in order", r->series_patches);
	html_row_kv(h, "which patches", r->series_mm_only ? "only the mm patches (--mm-only)"
						     : "every patch of the queue, as in the -rc");
}

/* The rows of how it ran: where, under what, with which workloads, on
 * what schedule, and how many boots counted. */
static void run_kv(pb_str *h, const struct patch_page_row *r)
{
	char *sched;

	html_row_kv(h, "accelerator", r->accel != ACCEL_AUTO ? accel_kind_name(r->accel) : "(nothing booted)");
	if (r->host[0] || r->host_cpu[0]) {
		char *where = xasprintf("%s%s%s%s%s", r->host[0] ? r->host : "a machine not recorded",
					r->host_cpu[0] ? ", " : "", r->host_cpu, r->qemu_version[0] ? ", " : "",
					r->qemu_version);

		html_row_kv(h, "ran on", where);
		free(where);
	}
	html_row_kv(h, "why this accelerator", r->accel_reason);
	html_row_kv(h, "status", status_name(r->status));
	html_row_kv(h, "workloads", r->workloads);
	html_row_kv(h, "why these workloads", r->workload_choice);
	sched = xasprintf("%d boots per kernel, %d iterations per boot, %d guest%s at once at most, "
			  "started %s, %.0f s, perfbot %s", r->boots_per_kernel, r->iterations,
			  r->guests_at_once > 1 ? r->guests_at_once : 1, r->guests_at_once > 1 ? "s" : "",
			  r->started_at, r->wall_seconds, r->perfbot_version);
	html_row_kv(h, "schedule", sched);
	free(sched);
	/* a failed boot's samples count for nothing: say how many counted */
	if (r->boots_ok[0] != r->boots_run[0] || r->boots_ok[1] != r->boots_run[1]) {
		char *ok = xasprintf("%d of %d without, %d of %d with; the samples of the others are "
				     "left out (see Boots)", r->boots_ok[0], r->boots_run[0], r->boots_ok[1],
				     r->boots_run[1]);

		str_add(h, "<tr>");
		html_cell(h, "th", "boots ok", NULL);
		html_cell(h, "td", ok, "bad");
		str_add(h, "</tr>\n");
		free(ok);
	}
}

/* The page's head and the table of what was compared, how and with what. */
static void patch_head(pb_str *h, const struct patch_page_row *r, const char *num,
		       const char *banners)
{
	bool series = r->kind == KIND_SERIES;

	str_add(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>perfbot: ");
	html_escape(h, series ? "series " : "patch ");
	html_escape(h, num);
	str_addf(h, "</title><style>%s</style></head><body>\n<h1>", html_style);
	if (series) {
		series_heading(h, r, banners);
	} else {
		str_add(h, "Patch ");
		html_escape(h, num);
		str_add(h, ": ");
		html_escape(h, r->subject);
		str_add(h, "</h1>\n");
		html_nav(h, r->number > 0 ? r->queue : "");
		str_add(h, banners);
		str_add(h, "<table>\n");
		patch_kv(h, r);
	}
	html_row_kv(h, "pair", pair_method_name(r->pair_method));
	html_row_kv(h, "pair detail", r->pair_detail);
	kernel_kv(h, series ? "kernel without the series" : "kernel without the fix", &r->kernel[0]);
	kernel_kv(h, series ? "kernel with the series" : "kernel with the fix", &r->kernel[1]);
	html_row_kv(h, "base", r->base_version);
	run_kv(h, r);
	html_row_kv(h, "verdict (timing, worst metric)", r->decided ? verdict_name(r->verdict) : "-");
	html_row_kv(h, "behaviour", r->decided ? verdict_name(r->behaviour) : "-");
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
static void boots_table(pb_str *h, const struct patch_view *v, const char *report_dir)
{
	str_add(h, "<h2>Boots</h2>\n<p>A workload without a time metric (the kernel's selftests) runs "
		   "in the first ok boot of each kernel only; <i>ran</i> says what each boot ran.</p>\n"
		   "<table><tr><th>#</th><th>kernel</th><th>outcome</th>"
		   "<th>wall</th><th>ran</th><th>logs</th><th>detail</th></tr>\n");
	for (int i = 0; i < v->nboots; i++) {
		const struct patch_boot *r = &v->boot[i];
		char idx[16], wall[32];

		snprintf(idx, sizeof(idx), "%d", r->index);
		snprintf(wall, sizeof(wall), "%.1f s", r->wall_seconds);
		str_add(h, "<tr>");
		html_cell(h, "td", idx, "num");
		html_cell(h, "td", side_name(r->side), NULL);
		html_cell(h, "td", boot_outcome_name(r->outcome), r->outcome != BOOT_OK ? "bad" : NULL);
		html_cell(h, "td", wall, "num");
		html_cell(h, "td", r->ran, NULL);
		str_add(h, "<td>");
		html_log_link(h, r->console_log, report_dir, "console");
		str_add(h, " ");
		html_log_link(h, r->results_log, report_dir, "results");
		str_add(h, "</td>");
		if (r->outcome != BOOT_OK && r->detail[0]) {
			/* its whole text is in the banner at the top, once */
			char *line = crash_headline(r->detail);

			str_add(h, "<td>");
			html_escape(h, line);
			str_add(h, " <a href=\"#crash\">(above)</a></td>");
			free(line);
		} else {
			html_cell(h, "td", r->detail, NULL);
		}
		str_add(h, "</tr>\n");
	}
	str_add(h, "</table>\n");
}

/* A failed boot, as the crash banner names it. */
struct failed_boot {
	int index, side;
	enum boot_outcome outcome;
	char *headline;
	const char *detail, *console; /* the view's */
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
static void crash_banner(pb_str *h, const struct patch_view *v, const char *report_dir)
{
	const struct patch_page_row *pr = &v->r;
	struct failed_boot *fb = NULL;
	int n = 0;

	for (int i = 0; i < v->nboots; i++) {
		const struct patch_boot *r = &v->boot[i];
		char *line;

		if (r->outcome == BOOT_OK)
			continue;
		line = crash_headline(r->detail);
		fb = xrealloc(fb, sizeof(*fb) * (size_t)(n + 1));
		fb[n++] = (struct failed_boot){ r->index, r->side == SIDE_WITH, r->outcome,
						line[0] ? line : xstrdup(boot_outcome_name(r->outcome)),
						r->detail, r->console_log };
		if (!line[0])
			free(line);
	}
	if (n) {
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
				html_log_link(h, fb[j].console, report_dir, "its console log");
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
	for (int i = 0; i < n; i++)
		free(fb[i].headline);
	free(fb);
}

/* A kernel's .config, linked where patch_view_configs copied it into the
 * report (the page keeps it when the kernel cache is cleaned); where
 * there is none, why. */
static void config_kv(pb_str *h, const char *k, const struct kernel_row *kr, const char *why)
{
	char key[17], *name;

	patch_config_key(key, kr);
	name = xasprintf("configs/%s.config", key);
	str_add(h, "<tr>");
	html_cell(h, "th", k, NULL);
	str_add(h, "<td>");
	if (why) {
		html_escape(h, why);
	} else {
		html_page_link(h, name, name);
		str_add(h, " (kernel ");
		html_escape(h, kr->label);
		str_addf(h, ", key %s)", key);
	}
	str_add(h, "</td></tr>\n");
	free(name);
}

/* How to run the comparison again: perfbot's command with its seed, the
 * version that ran it, both kernels' .config, a boot's QEMU command line
 * and guest kernel command line of each side. */
static void reproduce(pb_str *h, const struct patch_page_row *r, const struct patch_configs *configs)
{
	char *line = view_reproduce_line(r, true);

	str_add(h, "<h2>Reproduce</h2>\n<table>\n<tr><th>command</th><td><pre>");
	html_escape(h, line);
	str_add(h, "</pre></td></tr>\n");
	free(line);
	html_row_kv(h, "perfbot version", r->perfbot_version);
	for (int s = 0; s < 2; s++) {
		char *who = kernel_side(r, s), *k = xasprintf(".config of %s", who);

		config_kv(h, k, &r->kernel[s], configs->why[s]);
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
		guest = view_guest_cmdline(q, &at, &len);
		k = xasprintf("QEMU, the first boot of %s", who);
		str_add(h, "<tr>");
		html_cell(h, "th", k, NULL);
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
			html_cell(h, "th", k, NULL);
			str_add(h, "<td><pre>");
			html_escape(h, guest);
			str_add(h, "</pre></td></tr>\n");
			free(k);
		}
		free(guest);
		free(who);
	}
	if (!(r->qemu_cmdline[0] && r->qemu_cmdline[0][0]) && !(r->qemu_cmdline[1] && r->qemu_cmdline[1][0]))
		html_row_kv(h, "QEMU", "nothing was booted");
	str_add(h, "</table>\n");
}

/* The port (if the pair was made with one) and the patch, as text. */
static void patch_texts(pb_str *h, const struct patch_view *v)
{
	if (v->r.pair_method == PAIR_PORT) {
		str_add(h, "<h2>The port (applied to form the kernel without the fix)</h2>\n<p>");
		html_escape(h, v->r.port_file);
		str_add(h, "</p>\n<pre>");
		html_linkify(h, v->port_text ? v->port_text : "(the port file is gone)");
		str_add(h, "</pre>\n");
	}
	str_add(h, "<h2>The patch</h2>\n<pre>");
	html_linkify(h, v->patch_text ? v->patch_text : "(the patch file is gone)");
	str_add(h, "</pre>\n");
}

/* One bisect's steps: the kernels each compared, and what it found. */
static void bisect_steps_table(pb_str *h, const struct patch_bisect *b)
{
	str_add(h, "<table><tr><th>step</th><th>role</th><th>prefix</th><th>kernel</th>"
		   "<th>against prefix</th><th>kernel</th><th>change</th><th>95% CI</th>"
		   "<th>verdict</th><th>boots a side</th><th>s</th></tr>\n");
	for (int i = 0; i < b->nsteps; i++) {
		const struct patch_bisect_step *r = &b->step[i];
		char num[64];

		str_addf(h, "<tr><td>%d</td>", r->step);
		html_cell(h, "td", bisect_role_name(r->role), NULL);
		str_addf(h, "<td>%d</td>", r->prefix_a);
		str_add(h, "<td><code>");
		html_escape(h, r->kernel_a);
		str_addf(h, "</code> (%.12s)</td><td>%d</td><td><code>", r->key_a, r->prefix_b);
		html_escape(h, r->kernel_b);
		str_addf(h, "</code> (%.12s)</td>", r->key_b);
		snprintf(num, sizeof(num), isnan(r->change_pct) ? "-" : "%+.2f%%", r->change_pct);
		html_cell(h, "td", num, NULL);
		if (isnan(r->ci_lo_pct))
			snprintf(num, sizeof(num), "-");
		else
			snprintf(num, sizeof(num), "[%+.2f%%, %+.2f%%]", r->ci_lo_pct, r->ci_hi_pct);
		html_cell(h, "td", num, NULL);
		str_addf(h, "<td class=\"%s\">", r->bad ? "bad" : "");
		html_escape(h, r->verdict);
		str_addf(h, "%s</td><td>%d</td><td>%.0f</td></tr>\n", r->bad ? " (bad)" : "", r->boots,
			 r->wall_seconds);
	}
	str_add(h, "</table>\n");
}

/* A series page's bisects (perfbot bisect): the culprit and each step. */
static void bisection_log(pb_str *h, const struct patch_view *v)
{
	for (int i = 0; i < v->nbisects; i++) {
		const struct patch_bisect *r = &v->bisect[i];

		if (!i)
			str_add(h, "<h2>Bisection</h2>\n");
		str_addf(h, "<h3>Bisect %lld: ", r->id);
		html_escape(h, r->workload[0] ? r->workload : bisect_change_name(r->change));
		str_add(h, r->workload[0] ? "." : "");
		html_escape(h, r->metric);
		str_add(h, " (");
		html_escape(h, bisect_change_name(r->change));
		str_addf(h, "), %d patch%s: <span class=\"%s tag\">", r->npatches,
			 r->npatches == 1 ? "" : "es", r->status == BISECT_CONFIRMED ? "bad" : "");
		html_escape(h, bisect_status_name(r->status));
		str_add(h, "</span></h3>\n<p>");
		if (r->culprit)
			str_addf(h, "The first prefix that shows the change is %d: the culprit is ",
				 r->culprit);
		html_escape(h, r->detail);
		str_addf(h, ". %d comparisons, %.0f s, finished ", r->steps, r->wall_seconds);
		html_escape(h, r->finished_at);
		str_add(h, ". Confirmed means the change reproduced between the prefixes before "
			   "and with the culprit in two independent comparisons, and did not show "
			   "between the base and the prefix before it.</p>\n");
		bisect_steps_table(h, r);
	}
}

char *patch_page_html(const struct patch_view *v, const struct patch_configs *c,
		      const char *report_dir)
{
	const struct patch_page_row *r = &v->r;
	bool series = r->kind == KIND_SERIES;
	char label[PATCH_LABEL_SIZE];
	pb_str h, banners;

	str_init(&h);
	/* a failed build or boot leads the page, under its heading */
	str_init(&banners);
	build_banner(&banners, r);
	crash_banner(&banners, v, report_dir);
	patch_head(&h, r, series ? r->series_name : patch_label(label, r->number, r->sha256),
		   banners.buf ? banners.buf : "");
	str_free(&banners);
	comparison_tables(&h, v);
	boots_table(&h, v, report_dir);
	reproduce(&h, r, c);
	if (series)
		bisection_log(&h, v);
	else
		patch_texts(&h, v);
	str_add(&h, "</body></html>\n");
	return str_steal(&h);
}
