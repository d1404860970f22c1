/* perfbot's answers on the list (see mail.h): their addresses, their
 * headers, folded and encoded, and their bodies in 72 columns, a patch's,
 * a series' and a bisect's built from the same parts. */
#include "format.h"
#include "mail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "db-report.h"
#include "queue.h"
#include "pages.h"

/* Who a message goes to. */
struct recipients {
	struct mail_address from, *to, *cc;
	int nto, ncc;
};

static void recipients_free(struct recipients *r)
{
	mail_address_free(&r->from);
	mail_addresses_free(r->to, r->nto);
	mail_addresses_free(r->cc, r->ncc);
	memset(r, 0, sizeof(*r));
}

static bool address_in(const struct mail_address *v, int n, const char *addr)
{
	for (int i = 0; i < n; i++)
		if (!strcasecmp(v[i].addr, addr))
			return true;
	return false;
}

/* Appends a to *v unless it is From or already To or Cc: each address
 * once, never the sender. */
static void address_add(struct mail_address **v, int *n, struct mail_address *a,
			const struct recipients *r)
{
	if (!strcasecmp(a->addr, r->from.addr) || address_in(r->to, r->nto, a->addr) ||
	    address_in(r->cc, r->ncc, a->addr)) {
		mail_address_free(a);
		return;
	}
	*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
	(*v)[(*n)++] = *a;
}

/* From, To the one answered (to: a patch's author, a cover letter's
 * From), Cc the queued patch's trailers (sign-offs, then Cc:), then
 * [mail] cc. who names the one answered when to must be an address (its
 * error); with who NULL a to that is none (a cover letter not known) makes
 * [mail] cc the To, as the list is then who is answered. */
static bool recipients(const char *from, const char *to, const char *who,
		       const struct pb_patch *queued, const char *list_cc, struct recipients *r,
		       pb_err *err)
{
	struct mail_address a, *list;
	int nlist;
	bool list_to;

	memset(r, 0, sizeof(*r));
	if (!mail_address_from_input(from, &r->from)) {
		pb_seterr(err, "[mail] from: '%.100s' is not a mail address", from);
		return false;
	}
	if (mail_address_from_input(to, &a)) {
		r->to = xcalloc(1, sizeof(*r->to));
		r->to[r->nto++] = a;
	} else if (who) {
		pb_seterr(err, "%s '%.100s' has no mail address to answer", who, to);
		goto fail;
	}
	for (int i = 0; queued && i < queued->nsignoffs + queued->nccs; i++) {
		int k = i - queued->nsignoffs;

		if (mail_address_from_input(k < 0 ? queued->signoffs[i] : queued->ccs[k], &a))
			address_add(&r->cc, &r->ncc, &a, r);
	}
	if (!mail_address_list(list_cc, &list, &nlist, err))
		goto fail;
	list_to = !r->nto;
	for (int i = 0; i < nlist; i++)
		address_add(list_to ? &r->to : &r->cc, list_to ? &r->nto : &r->ncc, &list[i], r);
	free(list);
	if (r->nto)
		return true;
	pb_seterr(err, "no one to send it to: the cover letter's sender is not known and [mail] cc "
		       "is empty");
fail:
	recipients_free(r);
	return false;
}

/* A Message-ID a reply may name: <left@right>, printable ASCII, no spaces. */
static bool message_id_ok(const char *id)
{
	size_t n = strlen(id);

	if (n < 5 || n > 250 || id[0] != '<' || id[n - 1] != '>' || !strchr(id, '@'))
		return false;
	for (size_t i = 1; i < n - 1; i++)
		if (id[i] <= 0x20 || id[i] >= 0x7f || id[i] == '<' || id[i] == '>')
			return false;
	return true;
}


/* A subject as the queue's mail had it: "[PATCH 5.13 771/800] ...". */
static char *subject_of(const char *series, int number, int total, const char *subject)
{
	int width = snprintf(NULL, 0, "%d", total);

	if (total <= 0)
		return xasprintf("[PATCH%s%s] %s", series[0] ? " " : "", series, subject);
	return xasprintf("[PATCH%s%s %0*d/%d] %s", series[0] ? " " : "", series, width, number, total,
			 subject);
}

static char *patch_subject(const struct patch_page_row *r)
{
	return subject_of(r->series, r->number, r->total, r->subject);
}

/* The headers of a reply to reply_to (left out where it is not a
 * Message-ID a reply may name). The Message-ID is <perfbot-tag-hash>, the
 * hash of idtext, what makes the message the same: written again, the
 * same message replaces its file rather than starting a thread. */
static void headers(pb_str *out, const struct recipients *r, const char *subject, const char *tag,
		    const char *idtext, const char *reply_to, time_t date)
{
	char *v, when[64], hex[65];
	struct tm tm;

	v = mail_address_value(&r->from, 1);
	mail_header_folded(out, "From", v);
	free(v);
	v = mail_address_value(r->to, r->nto);
	mail_header_folded(out, "To", v);
	free(v);
	if (r->ncc) {
		v = mail_address_value(r->cc, r->ncc);
		mail_header_folded(out, "Cc", v);
		free(v);
	}
	mail_header(out, "Subject", subject);
	gmtime_r(&date, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	mail_header_folded(out, "Date", when);
	sha256_buf(idtext, strlen(idtext), hex);
	v = xasprintf("<perfbot-%s-%.16s@perfbot>", tag, hex);
	mail_header_folded(out, "Message-ID", v);
	free(v);
	if (message_id_ok(reply_to)) {
		mail_header_folded(out, "In-Reply-To", reply_to);
		mail_header_folded(out, "References", reply_to);
	}
	str_add(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
		     "Content-Transfer-Encoding: 8bit\n\n");
}

/* The body's first line: the most pressing thing the comparison of what
 * ("the patch", "the series") found, where it found it ("on:", "in 4
 * patches of 5.13.2-rc1:"); none says what had no regression. */
static char *summary(const struct patch_page_row *r, const struct view_metric *top,
		     const char *what, const char *where, const char *none)
{
	char pct[32], *name = top ? visible(top->name) : NULL, *s;

	fmt_pct(pct, sizeof(pct), top ? top->change_pct : NAN);
	if (r->status == STATUS_BUILD_FAILED)
		s = xasprintf("perfbot could not build the kernel %s %s:",
			      side_name(r->kernel[1].build_status == BUILD_BUILT ? SIDE_WITHOUT : SIDE_WITH),
			      what);
	else if (r->status == STATUS_BOOT_FAILED)
		s = xasprintf("perfbot found no boot of a kernel that came out ok %s", where);
	else if (!top)
		s = xasprintf("perfbot found no regression in %s", none);
	else if (top->verdict == VERDICT_REGRESSION || top->verdict == VERDICT_IMPROVEMENT)
		s = xasprintf("perfbot noticed a %s%s%s of %s %s", isnan(top->change_pct) ? "" : pct,
			      isnan(top->change_pct) ? "" : " ", verdict_name(top->verdict), name, where);
	else if (top->verdict == VERDICT_BEHAVIOUR_CHANGE)
		s = xasprintf("perfbot noticed a behaviour change of %s %s", name, where);
	else
		s = xasprintf("perfbot could not decide whether %s changed %s", name, where);
	free(name);
	return s;
}

/* s with every word longer than max bytes cut to its first max - 3 and
 * "...": a header folds only between words, and one of a metric's long
 * names would not fit its 78 columns (the body names it whole). Taken. */
static char *cut_long_words(char *s, size_t max)
{
	pb_str out;
	const char *p = s;

	str_init(&out);
	while (*p) {
		size_t sp = strspn(p, " "), w;

		str_addf(&out, "%.*s", (int)sp, p);
		p += sp;
		w = strcspn(p, " ");
		if (w > max) {
			size_t cut = max - 3;

			while (cut > 0 && ((unsigned char)p[cut] & 0xc0) == 0x80)
				cut--; /* never inside a UTF-8 character */
			str_addf(&out, "%.*s...", (int)cut, p);
		} else
			str_addf(&out, "%.*s", (int)w, p);
		p += w;
	}
	free(s);
	return str_steal(&out);
}

/* The Subject: the body's first line, LKP's way ("perfbot noticed a
 * +4.8% regression of thp-anon.fault_ms on [PATCH 6.1 3/9] mm: ...", "perfbot
 * found no regression in 23 mm patches of 6.1.120-rc1"). The reply threads
 * under what it answers by In-Reply-To and References, not by "Re:". */
static char *headline(const struct patch_page_row *r, const struct view_metrics *m,
		      const char *what, const char *on, const char *none)
{
	int nchanged;
	const struct view_metric **changed = view_metrics_changed(m, &nchanged);
	char *where = xasprintf("%s %s", on, none);
	char *line = summary(r, nchanged ? changed[0] : NULL, what, where, none);
	size_t n = strlen(line);

	if (n && line[n - 1] == ':')
		line[n - 1] = '\0';
	free(changed);
	free(where);
	return cut_long_words(line, 60);
}

/* "key:" and its value, wrapped under a 10-column hanging indent. */
static void kv(pb_str *out, const char *key, const char *value)
{
	char first[16], *v = visible(value);

	snprintf(first, sizeof(first), "%-9s ", key);
	mail_wrap(out, first, "          ", v);
	free(v);
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The table of what changed: the metric on its line (wrapped, never past
 * 72 columns), its numbers under it; then how many did not change. */
static void metrics_table(pb_str *out, const struct patch_page_row *r, const struct view_metrics *all,
			  const struct view_metric *const *changed, int nchanged)
{
	static const char row_fmt[] = "%11s %11s %8s  %-16s";
	int counts[VERDICT_COUNT] = { 0 }, nother = 0;
	char line[256];

	if (nchanged) {
		int failed = r->boots_run[0] + r->boots_run[1] - r->boots_ok[0] - r->boots_ok[1];

		/* boots_run 0: a row that did not count them (as boots_per_kernel) */
		if (failed > 0)
			str_addf(out, "%d+%d ok boots of %d iteration(s) (%d failed, left out),\n"
				      "the medians of the ok boots:\n\n", r->boots_ok[0], r->boots_ok[1],
				 r->iterations, failed);
		else
			str_addf(out, "%d+%d boots of %d iteration(s), the medians of the boots:\n\n",
				 r->boots_run[0] ? r->boots_run[0] : r->boots_per_kernel,
				 r->boots_run[1] ? r->boots_run[1] : r->boots_per_kernel, r->iterations);
		snprintf(line, sizeof(line), row_fmt, side_name(SIDE_WITHOUT), side_name(SIDE_WITH), "change", "95% CI");
		str_addf(out, "%s  verdict\n", line);
	}
	for (int i = 0; i < nchanged; i++) {
		const struct view_metric *m = changed[i];
		struct view_cells c;
		char *name = xasprintf("%s (%s)", m->name, m->unit), *vname = visible(name);

		view_metric_cells(m, ", ", &c);
		mail_wrap(out, "", "  ", vname);
		snprintf(line, sizeof(line), row_fmt, c.without, c.with, c.change, c.ci);
		/* numbers too wide for the verdict beside them: it goes below */
		if (strlen(line) + 2 + strlen(verdict_name(m->verdict)) > MAIL_BODY_COLUMNS)
			str_addf(out, "%s\n%38s  %s\n", line, "", verdict_name(m->verdict));
		else
			str_addf(out, "%s  %s\n", line, verdict_name(m->verdict));
		free(name);
		free(vname);
	}
	for (int i = 0; i < all->n; i++)
		if (!view_metric_changed(&all->v[i])) {
			counts[all->v[i].verdict]++;
			nother++;
		}
	if (nother) {
		pb_str s;

		str_init(&s);
		str_addf(&s, "%s%d metric(s):", nchanged ? "The other " : "", nother);
		for (int v = VERDICT_COUNT - 1, k = 0; v >= 0; v--)
			if (counts[v])
				str_addf(&s, "%s %d %s", k++ ? "," : "", counts[v], verdict_name((enum verdict)v));
		str_add(&s, ".");
		str_add(out, nchanged ? "\n" : "");
		mail_wrap(out, "", "", s.buf);
		str_free(&s);
	}
}


/* The kernels: base, .config, what each side applied, the pair, and a
 * patch's file (a series has none). */
static void kernels(pb_str *out, const struct patch_page_row *r)
{
	char *v;

	v = xasprintf("%s, .config %.12s", r->base_version, r->config_sha256);
	kv(out, "base:", v);
	free(v);
	v = r->port_file[0] ? xasprintf("%s, %s", r->kernel[0].label, basename_of(r->port_file))
			    : xstrdup(r->kernel[0].label);
	kv(out, "without:", v);
	free(v);
	kv(out, "with:", r->kernel[1].label);
	v = xasprintf("%s: %s", pair_method_name(r->pair_method), r->pair_detail);
	kv(out, "pair:", v);
	free(v);
	if (r->file[0])
		kv(out, "file:", basename_of(r->file));
}

/* cmd and its nopt options (freed), continued with '\' before 72. */
static void reproduce(pb_str *out, const char *cmd, char **opt, int nopt)
{
	size_t col = 2 + mail_columns(cmd, strlen(cmd));

	str_addf(out, "To reproduce, in a perfbot checkout with this queue:\n\n  %s", cmd);
	for (int i = 0; i < nopt; i++) {
		size_t w = mail_columns(opt[i], strlen(opt[i]));

		if (col + 1 + w > MAIL_BODY_COLUMNS - 2) {
			str_add(out, " \\\n     ");
			col = 5;
		}
		str_addf(out, " %s", opt[i]);
		col += 1 + w;
		free(opt[i]);
	}
	str_add(out, "\n");
}

/* The perfbot run that repeats r (answer.h), without the queue: the
 * reader runs it in a checkout with this queue. */
static void reproduce_run(pb_str *out, const struct patch_page_row *r)
{
	int n;
	char **w = view_reproduce_words(r, false, &n), *cmd = xasprintf("%s %s", w[0], w[1]);

	free(w[0]);
	free(w[1]);
	reproduce(out, cmd, w + 2, n - 2);
	free(cmd);
	free(w);
}

/* "what" and the link to page under [report] url, when it is set. */
static void report_link(pb_str *out, const char *url, const char *what, const char *page)
{
	size_t n = strlen(url);
	char *v;

	if (!n)
		return;
	while (n && url[n - 1] == '/')
		n--;
	v = xasprintf("%.*s/%s", (int)n, url, page);
	str_addf(out, "\n%s\n\n", what);
	mail_wrap(out, "  ", "  ", v);
	free(v);
}

/* The signature: which perfbot, what it answers with, when. */
static void signature(pb_str *out, const char *text)
{
	str_add(out, "\n-- \n");
	mail_wrap(out, "", "", text);
}

/* The patch answered: its subject, author and upstream commit. */
static void patch_lines(pb_str *out, const struct patch_page_row *r)
{
	char *subject = patch_subject(r), *v = visible(subject);

	kv(out, "patch:", v);
	free(v);
	kv(out, "author:", r->author);
	v = xasprintf("%.12s", r->upstream[0] ? r->upstream : "(not named)");
	kv(out, "upstream:", v);
	free(v);
	free(subject);
}

/* A series' name and its cover letter's subject. */
static void series_line(pb_str *out, const struct patch_page_row *s)
{
	char *v = xasprintf("%s%s%s", s->series_name, s->series_description[0] ? ": " : "",
			    s->series_description);

	kv(out, "series:", v);
	free(v);
}

/* What bisect b said: "3 (thp-anon.fault_ms): confirmed, the culprit is
 * [PATCH ...]", or its status and why. */
static void bisect_line(pb_str *out, const struct bisect_row *b)
{
	bool confirmed = b->culprit && b->status == BISECT_CONFIRMED;
	char *v = xasprintf("%lld (%s%s%s): %s%s%s", b->id,
			    b->workload[0] ? b->workload : bisect_change_name(b->change),
			    b->workload[0] ? "." : "", b->metric, bisect_status_name(b->status),
			    confirmed ? ", the culprit is " : ": ", b->detail);

	kv(out, "bisect:", v);
	free(v);
}

/* A comparison's mail body, for a patch or a series. */
struct comparison_body {
	const struct patch_page_row *row;
	long long comparison_id;
	const struct view_metrics *metrics;
	const char *what, *where, *none; /* how its first line words it: summary() */
	const char *lines;               /* what it is of, in "key: value" lines */
	const char *report_url, *page;
};

/* The line saying what it found, what it is of, the table of what
 * changed, the accelerator, how the verdicts were reached, the kernels,
 * how to reproduce it, the report's page, the signature. */
static void comparison_body(pb_str *out, const struct comparison_body *b)
{
	const struct patch_page_row *r = b->row;
	int nchanged;
	const struct view_metric **changed = view_metrics_changed(b->metrics, &nchanged);
	char *line = summary(r, nchanged ? changed[0] : NULL, b->what, b->where, b->none), *v;

	mail_wrap(out, "", "", line);
	str_addf(out, "\n%s\n", b->lines);
	metrics_table(out, r, b->metrics, changed, nchanged);
	str_add(out, "\n");
	v = xasprintf("%s%s%s", r->accel != ACCEL_AUTO ? accel_kind_name(r->accel) : "(nothing booted)",
		      r->accel_reason[0] ? ": " : "",
		      r->accel_reason);
	kv(out, "accel:", v);
	free(v);
	v = view_statistics(r);
	kv(out, "how:", v);
	free(v);
	str_add(out, "\n");
	kernels(out, r);
	str_add(out, "\n");
	reproduce_run(out, r);
	report_link(out, b->report_url, "The report, with every sample and boot:", b->page);
	v = xasprintf("perfbot %s, comparison %lld, finished %s", r->perfbot_version, b->comparison_id,
		      r->finished_at);
	signature(out, v);
	free(v);
	free(line);
	free(changed);
}

bool mail_patch_message(const struct mail_patch_input *in, pb_str *out, pb_err *err)
{
	const struct patch_page_row *r = &in->view->r;
	long long cid = in->view->id;
	struct recipients rc;
	char *who = xasprintf("patch %d: its author", r->number), *subject, *v, *tag, *idtext;
	char *plain = visible(r->subject), *page;
	pb_str lines;
	bool ok = recipients(in->from, r->author, who, in->queued, in->list_cc, &rc, err);

	free(who);
	if (!ok) {
		free(plain);
		return false;
	}
	v = patch_subject(r);
	subject = headline(r, &in->view->metrics, v, "on", v);
	free(v);
	tag = xasprintf("%03d-c%lld", r->number, cid);
	/* the same comparison's mail has the same id, whenever it is written */
	idtext = xasprintf("perfbot mail\n%lld\n%s\n%s", cid, r->sha256, r->started_at);
	headers(out, &rc, subject, tag, idtext, r->message_id, in->date);
	str_init(&lines);
	patch_lines(&lines, r);
	page = report_page_of(r);
	comparison_body(out, &(struct comparison_body){
		.row = r, .comparison_id = cid, .metrics = &in->view->metrics,
		.what = "the patch", .where = "on:", .none = plain, .lines = lines.buf,
		.report_url = in->report_url, .page = page });
	str_free(&lines);
	free(page);
	free(idtext);
	free(tag);
	free(subject);
	free(plain);
	recipients_free(&rc);
	return true;
}

/* How many words s has: the patches of a series' "031 771". */
static int count_words(const char *s)
{
	int n = 0;

	for (s += strspn(s, " "); *s; s += strspn(s, " ")) {
		n++;
		s += strcspn(s, " ");
	}
	return n;
}

bool mail_series_message(const struct mail_series_input *in, pb_str *out, pb_err *err)
{
	const struct patch_page_row *r = &in->view->r;
	long long cid = in->view->id;
	bool forward = r->series_mode == SERIES_FORWARD;
	/* taking the queue out of its base takes its mm patches alone */
	bool mm = r->series_mm_only || !forward;
	int n = count_words(r->series_patches);
	struct recipients rc;
	char *subject, *tag, *idtext, *where, *none, *v, *page;
	pb_str lines;

	if (!recipients(in->from, in->cover.from, NULL, NULL, in->list_cc, &rc, err))
		return false;
	none = xasprintf("%d %spatch%s of %s", n, mm ? "mm " : "", n == 1 ? "" : "es", r->series_name);
	subject = headline(r, &in->view->metrics, r->series_name, "in", none);
	tag = xasprintf("series-%s-c%lld", r->series_name, cid);
	idtext = xasprintf("perfbot mail\nseries\n%lld\n%s", cid, r->started_at);
	headers(out, &rc, subject, tag, idtext, r->series_cover_message_id, in->date);
	where = xasprintf("in %s:", none);
	str_init(&lines);
	series_line(&lines, r);
	kv(&lines, "mode:", forward ? "the -rc, every patch applied in series order against its base"
				    : "the queue is in its base already: its mm patches taken out, "
				      "last first");
	v = xasprintf("%s (%s)", r->series_patches,
		      !forward ? "the queue's mm patches" : mm ? "the mm patches only, --mm-only"
							 : "every patch of the queue");
	kv(&lines, "patches:", v);
	free(v);
	if (in->bisect)
		bisect_line(&lines, in->bisect);
	page = report_page_of(r);
	comparison_body(out, &(struct comparison_body){
		.row = r, .comparison_id = cid, .metrics = &in->view->metrics,
		.what = "the series", .where = where, .none = none, .lines = lines.buf,
		.report_url = in->report_url, .page = page });
	str_free(&lines);
	free(page);
	free(where);
	free(none);
	free(idtext);
	free(tag);
	free(subject);
	recipients_free(&rc);
	return true;
}

void mail_steps_add(struct mail_steps *s, const struct bisect_step_row *r)
{
	struct mail_step *x;

	s->v = xrealloc(s->v, sizeof(*s->v) * (size_t)(s->n + 1));
	x = &s->v[s->n++];
	x->step = r->step;
	x->prefix_a = r->prefix_a;
	x->prefix_b = r->prefix_b;
	x->bad = r->bad;
	x->role = r->role;
	x->verdict = xstrdup(r->verdict);
	x->change_pct = r->change_pct;
}

void mail_steps_free(struct mail_steps *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->v[i].verdict);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* What a bisect looked for, as its mail words it: "a +5.7% regression of
 * thp-anon.fault_ms" (the change the series comparison measured), "a
 * behaviour change of ...", "a build failure". */
static char *bisect_change(const struct bisect_row *b, const struct view_metrics *series)
{
	char *name, *change = visible(bisect_change_name(b->change)), *s, pct[32] = "";

	if (!b->workload[0]) {
		s = b->change == CHANGE_BUILD_FAILED ? xstrdup("a build failure")
		    : b->change == CHANGE_BOOT_FAILED ? xstrdup("a boot failure")
							: xasprintf("a %s", change);
		free(change);
		return s;
	}
	name = xasprintf("%s.%s", b->workload, b->metric);
	for (int i = 0; i < series->n; i++)
		if (!strcmp(series->v[i].name, name) && !isnan(series->v[i].change_pct) &&
		    (series->v[i].verdict == VERDICT_REGRESSION ||
		     series->v[i].verdict == VERDICT_IMPROVEMENT))
			fmt_pct(pct, sizeof(pct), series->v[i].change_pct);
	s = visible(name);
	free(name);
	name = s;
	s = xasprintf("%s %s%s%s of %s", pct[0] || !strchr("aeiou", change[0]) ? "a" : "an", pct,
		      pct[0] ? " " : "", change, name);
	free(name);
	free(change);
	return s;
}

/* The bisection log, a step a line: the prefixes compared, the bisected
 * metric's change between them, the verdict ("bad": the later prefix
 * shows the change), in 42 columns and the verdict wrapped after them. */
static void steps_table(pb_str *out, const struct mail_steps *s)
{
	static const char fmt[] = "%4s  %-13.13s  %9.9s  %8s  ";
	char line[128], pct[32], prefixes[32];

	snprintf(line, sizeof(line), fmt, "step", "role", "prefixes", "change");
	str_addf(out, "%sverdict\n", line);
	for (int i = 0; i < s->n; i++) {
		const struct mail_step *x = &s->v[i];
		char *role = visible(bisect_role_name(x->role)), *verdict = xasprintf("%s%s", x->verdict, x->bad ? " (bad)" : "");
		char *v = visible(verdict), step[16];

		snprintf(step, sizeof(step), "%d", x->step);
		snprintf(prefixes, sizeof(prefixes), "%d->%d", x->prefix_a, x->prefix_b);
		fmt_pct(pct, sizeof(pct), x->change_pct);
		snprintf(line, sizeof(line), fmt, step, role, prefixes, pct);
		mail_wrap(out, line, "                                          ", v);
		free(v);
		free(verdict);
		free(role);
	}
}

/* What a bisect found, naming the culprit as patch ("this patch" in the
 * body, its subject in the Subject); colon: the body's line goes on. A
 * culprit not confirmed is never named as one. */
static char *bisect_headline(const struct mail_bisect_input *in, const char *patch, bool colon)
{
	const struct bisect_row *b = in->bisect;
	const struct patch_page_row *s = &in->series->r, *c = in->culprit;
	bool confirmed = c && b->status == BISECT_CONFIRMED;
	char *change = bisect_change(b, &in->series->metrics), *v;
	const char *end = colon ? ":" : "";

	v = confirmed ? xasprintf("perfbot bisected %s in %s to %s%s", change, s->series_name, patch,
				  end)
	    : c	      ? xasprintf("perfbot could not confirm that %s caused %s in %s%s", patch, change,
			s->series_name, end)
		      : xasprintf("perfbot could not confirm which patch caused %s in %s%s", change,
				  s->series_name, end);
	free(change);
	return v;
}

/* The body answering a bisect's culprit: what it found, the patch, the
 * log, what confirmed means, how to reproduce it, the series' page. */
static void bisect_body(pb_str *out, const struct mail_bisect_input *in)
{
	const struct bisect_row *b = in->bisect;
	const struct patch_page_row *s = &in->series->r, *c = in->culprit;
	char *v, *opt[1];
	int nopt = 0;

	v = bisect_headline(in, "this patch", true);
	mail_wrap(out, "", "", v);
	free(v);
	str_add(out, "\n");
	if (c)
		patch_lines(out, c);
	series_line(out, s);
	bisect_line(out, b);
	str_add(out, "\n");
	v = s->series_mode == SERIES_FORWARD
		    ? xasprintf("Prefix k is the base with the series' first k patches applied (0: "
				"without the series, %d: with it).", b->npatches)
		    : xasprintf("Prefix k is the base without the queue's mm patches after its first k "
				"(0: all %d taken out, %d: the base).", b->npatches, b->npatches);
	mail_wrap(out, "", "", v);
	free(v);
	str_add(out, "\n");
	steps_table(out, in->steps);
	str_add(out, "\n");
	v = xasprintf("Confirmed means, as KernelCI asks: the change reproduced between prefixes "
		      "k-1 and k in two independent comparisons, and did not show between prefix 0 "
		      "and k-1. This bisect is %s. %d comparisons, %.0fs, finished %s.",
		      bisect_status_name(b->status), b->steps, b->wall_seconds, b->finished_at);
	mail_wrap(out, "", "", v);
	free(v);
	str_add(out, "\n");
	if (b->workload[0])
		opt[nopt++] = xasprintf("--metric %s.%s", b->workload, b->metric);
	v = xasprintf("perfbot bisect --comparison %lld", b->series_comparison);
	reproduce(out, v, opt, nopt);
	free(v);
	v = report_page_of(s);
	report_link(out, in->report_url, "The series' report, with the bisection log:", v);
	free(v);
	v = xasprintf("perfbot %s, bisect %lld of comparison %lld, finished %s", s->perfbot_version,
		      b->id, b->series_comparison, b->finished_at);
	signature(out, v);
	free(v);
}

bool mail_bisect_message(const struct mail_bisect_input *in, pb_str *out, pb_err *err)
{
	const struct bisect_row *b = in->bisect;
	const struct patch_page_row *c = in->culprit, *s = &in->series->r;
	struct recipients rc;
	char *who = c ? xasprintf("patch %d: its author", c->number) : NULL, *subject, *tag, *idtext, *v;
	bool ok = recipients(in->from, c ? c->author : in->cover.from, who, c ? in->queued : NULL,
			     in->list_cc, &rc, err);

	free(who);
	if (!ok)
		return false;
	/* answers the culprit's own review mail; the cover letter without one */
	v = c ? patch_subject(c) : NULL;
	subject = cut_long_words(bisect_headline(in, v ? v : "", false), 60);
	free(v);
	tag = xasprintf("bisect-%lld", b->id);
	idtext = xasprintf("perfbot mail\nbisect\n%lld\n%lld\n%s", b->id, b->series_comparison,
			   b->finished_at);
	headers(out, &rc, subject, tag, idtext,
		c && message_id_ok(c->message_id) ? c->message_id : s->series_cover_message_id,
		in->date);
	bisect_body(out, in);
	free(idtext);
	free(tag);
	free(subject);
	recipients_free(&rc);
	return true;
}
