/* A stored comparison's answer, rendered from its view: the terminal's
 * summary, the JSON, run --all's table (answer.h). */
#include "format.h"
#include "answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "queue.h"

/* A row's text, "" for a column it did not read (the tests' rows). */
static const char *text(const char *s)
{
	return s ? s : "";
}

void answer_free(struct answer *a)
{
	view_free(&a->view);
}

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "+4.8% regression of thp-anon.fault_ms" and how many more of its verdict. */
static void headline_change(pb_str *s, const struct view_metric *top, int count)
{
	char pct[32];
	char *name = visible(top->name);

	fmt_pct(pct, sizeof(pct), top->change_pct);
	str_addf(s, "%s%s%s of %s", isnan(top->change_pct) ? "" : pct, isnan(top->change_pct) ? "" : " ",
		 verdict_name(top->verdict), name);
	if (count > 1)
		str_addf(s, " (and %d more)", count - 1);
	free(name);
}

char *answer_headline(const struct answer *a)
{
	const struct view *view = &a->view;
	const struct patch_page_row *r = &view->r;
	int n, count[VERDICT_COUNT] = { 0 }, timing[VERDICT_COUNT] = { 0 };
	const struct view_metric **changed = view_metrics_changed(&view->metrics, &n);
	const struct view_metric *first[VERDICT_COUNT] = { 0 };
	const char *what = r->kind == KIND_SERIES ? "the series" : "the patch";
	pb_str s;

	str_init(&s);
	for (int i = 0; i < view->metrics.n; i++) {
		const struct view_metric *m = &view->metrics.v[i];

		count[m->verdict]++;
		timing[m->verdict] += m->timing;
	}
	for (int i = n - 1; i >= 0; i--) /* most pressing first: the first of each verdict wins */
		first[changed[i]->verdict] = changed[i];
	if (r->status == STATUS_BUILD_FAILED) {
		bool without = r->kernel[0].build_status != BUILD_BUILT;
		bool with = r->kernel[1].build_status != BUILD_BUILT;

		str_addf(&s, "the %s %s failed to build",
			 with && without ? "kernels without and with" : with ? "kernel with" : "kernel without",
			 what);
	} else if (view->crash.boot) {
		char *line = visible(view->crash.line);

		str_addf(&s, "the kernel %s %s %s: %s", side_name(view->crash.side), what,
			 view->crash.outcome == BOOT_PANIC ? "crashed" : "failed", line);
		free(line);
	}
	if (s.len && (r->status != STATUS_MEASURED || !view->metrics.n)) {
		free(changed);
		return str_steal(&s);
	}
	if (count[VERDICT_REGRESSION] || count[VERDICT_IMPROVEMENT]) {
		enum verdict v = count[VERDICT_REGRESSION] ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;

		str_add(&s, s.len ? "; " : "");
		headline_change(&s, first[v], count[v]);
		if (v == VERDICT_REGRESSION && count[VERDICT_IMPROVEMENT])
			str_addf(&s, ", %d %s", count[VERDICT_IMPROVEMENT],
				 plural(count[VERDICT_IMPROVEMENT], verdict_name(VERDICT_IMPROVEMENT), "improvements"));
	} else if (timing[VERDICT_NO_CHANGE])
		str_addf(&s, "%sno change in %d timing %s", s.len ? "; " : "", timing[VERDICT_NO_CHANGE],
			 plural(timing[VERDICT_NO_CHANGE], "metric", "metrics"));
	if (count[VERDICT_INCONCLUSIVE])
		str_addf(&s, "%s%d timing %s undecided", s.len ? "; " : "", count[VERDICT_INCONCLUSIVE],
			 plural(count[VERDICT_INCONCLUSIVE], "metric", "metrics"));
	if (count[VERDICT_NOT_COMPARABLE])
		str_addf(&s, "%s%d timing %s not comparable", s.len ? "; " : "",
			 count[VERDICT_NOT_COMPARABLE],
			 plural(count[VERDICT_NOT_COMPARABLE], "metric", "metrics"));
	if (count[VERDICT_BEHAVIOUR_CHANGE]) {
		const struct view_metric *m = first[VERDICT_BEHAVIOUR_CHANGE];
		char x[32], y[32], *name = visible(m->name);

		fmt_value(x, sizeof(x), m->without);
		fmt_value(y, sizeof(y), m->with);
		str_addf(&s, "%s%d behaviour %s: %s %s -> %s", s.len ? "; " : "",
			 count[VERDICT_BEHAVIOUR_CHANGE],
			 plural(count[VERDICT_BEHAVIOUR_CHANGE], "change", "changes"), name, x, y);
		free(name);
	} else if (!s.len)
		str_add(&s, verdict_name(view->metrics.n ? VERDICT_NO_CHANGE : VERDICT_NO_DATA));
	free(changed);
	return str_steal(&s);
}

/* What the answer is of: "771", a patch of one's own by its identity, "series 5.13.2-rc1". */
static char *answer_of(const struct patch_page_row *r)
{
	char label[PATCH_LABEL_SIZE];

	if (r->kind == KIND_SERIES)
		return xasprintf("series %s", text(r->series_name));
	return xstrdup(patch_label(label, r->number, r->sha256));
}

#define ANSWER_COLUMNS 100
#define NAME_COLUMNS 36
static const char row_fmt[] = "%-36s %9s %9s %8s  %-15s  %s\n";

/* A metric's row under its workload's line (prev: the row before's
 * metric, whose workload's line is out already; NULL: none). */
static void metric_row(FILE *out, const struct view_metric *m, const struct view_metric *prev)
{
	struct view_cells c;
	const char *dot = strchr(m->name, '.');
	size_t wl = dot ? (size_t)(dot - m->name) : 0;
	char *name;

	if (wl && (!prev || strncmp(prev->name, m->name, wl + 1))) {
		char *w = xstrndup(m->name, wl), *vw = visible(w);

		fprintf(out, "%s\n", vw);
		free(vw);
		free(w);
	}
	name = xasprintf("  %s", wl ? dot + 1 : m->name);
	{
		char *v = visible(name);

		free(name);
		name = v;
	}

	view_metric_cells(m, ",", &c);
	/* a long name has its own line: the numbers stay in their columns */
	if (strlen(name) > NAME_COLUMNS) {
		fprintf(out, "%s\n", name);
		fprintf(out, row_fmt, "", c.without, c.with, c.change, c.ci, verdict_name(m->verdict));
	} else
		fprintf(out, row_fmt, name, c.without, c.with, c.change, c.ci, verdict_name(m->verdict));
	free(name);
}

/* The line that repeats the run, cut before 100 columns with '\'. */
static void print_reproduce(const struct patch_page_row *r, FILE *out)
{
	char **w = view_reproduce_words(r, true, NULL);
	size_t col = strlen("reproduce:");

	fputs("reproduce:", out);
	for (int i = 0; w[i]; i++) {
		size_t n = strlen(w[i]);

		if (i && col + 1 + n > ANSWER_COLUMNS - 2) {
			fputs(" \\\n   ", out);
			col = 3;
		}
		fprintf(out, " %s", w[i]);
		col += 1 + n;
	}
	fputc('\n', out);
	view_words_free(w);
}

void answer_print(const struct answer *a, bool table, FILE *out)
{
	const struct view *view = &a->view;
	const struct patch_page_row *r = &view->r;
	char *of = answer_of(r), *headline = answer_headline(a);
	int n, counts[VERDICT_COUNT] = { 0 }, nother = 0;
	const struct view_metric **changed = view_metrics_changed(&view->metrics, &n);

	/* the headline on one line where it fits, else a line a part (its
	 * "; "), a part too long cut between words */
	fputc('\n', out);
	if (strlen(of) + 2 + strlen(headline) <= ANSWER_COLUMNS) {
		fprintf(out, "%s: %s\n", of, headline);
	} else {
		size_t col = strlen(of) + 1;

		fputs(of, out);
		fputc(':', out);
		for (const char *p = headline; *p;) {
			size_t w = strcspn(p, " ");
			bool part_end = w && p[w - 1] == ';';

			if (col + 1 + w > ANSWER_COLUMNS) {
				fputs("\n   ", out);
				col = 3;
			}
			fprintf(out, " %.*s", (int)w, p);
			col += 1 + w;
			p += w + strspn(p + w, " ");
			if (part_end && *p) {
				fputs("\n   ", out);
				col = 3;
			}
		}
		fputc('\n', out);
	}
	if (r->status == STATUS_BUILD_FAILED)
		for (int s = 0; s < 2; s++)
			if (text(r->kernel[s].failure)[0]) {
				char *v = visible_lines(r->kernel[s].failure);

				fprintf(out, "the kernel %s the patch (%s) failed to build:\n%s\n",
					side_name((enum side)s), text(r->kernel[s].label), v);
				free(v);
			}
	if (view->crash.boot)
		fprintf(out, "%s: boot %d, the kernel %s the patch (%s)%s\n  console log: %s\n",
			boot_outcome_name(view->crash.outcome), view->crash.boot, side_name(view->crash.side),
			view->crash.kernel,
			view->crash.failed > 1 ? "; more boots failed: the report lists them" : "",
			view->crash.console_log);
	if (table && n) {
		fputc('\n', out);
		fprintf(out, row_fmt, "changed or undecided", side_name(SIDE_WITHOUT), side_name(SIDE_WITH), "change", "95% CI",
			"verdict");
		for (int i = 0; i < n; i++)
			metric_row(out, changed[i], i ? changed[i - 1] : NULL);
	}
	for (int i = 0; i < view->metrics.n; i++)
		if (!table || !view_metric_changed(&view->metrics.v[i])) {
			counts[view->metrics.v[i].verdict]++;
			nother++;
		}
	if (table && nother) {
		fprintf(out, "%snot shown:", n ? "" : "\n");
		for (int v = VERDICT_COUNT - 1, k = 0; v >= 0; v--)
			if (counts[v])
				fprintf(out, "%s %d %s", k++ ? "," : "", counts[v], verdict_name((enum verdict)v));
		fprintf(out, " (--all: every metric)\n");
	}
	if (r->boots_run[0] + r->boots_run[1])
		fprintf(out, "boots: %d+%d (%d+%d ok) of %d iteration(s), %s\n", r->boots_run[0],
			r->boots_run[1], r->boots_ok[0], r->boots_ok[1], r->iterations,
			r->accel != ACCEL_AUTO ? accel_kind_name(r->accel) : "nothing booted");
	print_reproduce(r, out);
	free(changed);
	free(headline);
	free(of);
}

static void kernel_json(struct json *j, const char *key, const struct kernel_row *k)
{
	json_object_begin(j, key);
	json_string(j, "label", k->label);
	json_string(j, "key", k->key);
	json_string(j, "build_status", build_status_name(k->build_status));
	json_string(j, "failure", k->failure && k->failure[0] ? k->failure : NULL);
	json_object_end(j);
}

/* A stored text, or NULL where the row has none ("" or the tables' "-"). */
static const char *stated(const char *s)
{
	return s && s[0] && strcmp(s, "-") ? s : NULL;
}

/* What the comparison is of: "patch" (its number, label, subject, ...)
 * and "series", the one that is not null. */
static void subject_json(const struct patch_page_row *r, struct json *j)
{
	char label[PATCH_LABEL_SIZE];

	if (r->kind == KIND_SERIES) {
		json_null(j, "patch");
		json_object_begin(j, "series");
		json_string(j, "name", r->series_name);
		json_string(j, "queue", r->series_queue);
		json_string(j, "mode", series_mode_name(r->series_mode));
		json_string(j, "patches", r->series_patches);
		json_bool(j, "mm_only", r->series_mm_only);
		json_object_end(j);
		return;
	}
	json_object_begin(j, "patch");
	if (r->number)
		json_int(j, "number", r->number);
	else
		json_null(j, "number");
	json_string(j, "label", patch_label(label, r->number, r->sha256));
	json_string(j, "subject", r->subject);
	json_string(j, "series", r->series);
	json_string(j, "queue", r->queue);
	json_string(j, "file", r->file);
	json_string(j, "sha256", r->sha256);
	json_string(j, "author", r->author);
	json_string(j, "upstream", r->upstream && r->upstream[0] ? r->upstream : NULL);
	json_object_end(j);
	json_null(j, "series");
}

/* "kernels", "accelerator" and "boots": what ran, and how often. */
static void kernels_json(const struct patch_page_row *r, struct json *j)
{
	json_object_begin(j, "kernels");
	json_string(j, "base_version", r->base_version);
	json_string(j, "config_sha256", r->config_sha256);
	json_string(j, "pair_method", pair_method_name(r->pair_method));
	json_string(j, "pair_detail", r->pair_detail);
	kernel_json(j, "without", &r->kernel[0]);
	kernel_json(j, "with", &r->kernel[1]);
	json_object_end(j);
	json_object_begin(j, "accelerator");
	json_string(j, "name", r->accel != ACCEL_AUTO ? accel_kind_name(r->accel) : NULL);
	json_string(j, "reason", r->accel_reason);
	json_object_end(j);
	json_object_begin(j, "boots");
	json_int(j, "without", r->boots_run[0]);
	json_int(j, "with", r->boots_run[1]);
	json_int(j, "ok_without", r->boots_ok[0]);
	json_int(j, "ok_with", r->boots_ok[1]);
	json_int(j, "iterations", r->iterations);
	json_int(j, "warmup", r->warmup);
	json_object_end(j);
}

/* "crash": the first boot that failed, or null. */
static void crash_json(const struct view_crash *c, struct json *j)
{
	if (!c->boot) {
		json_null(j, "crash");
		return;
	}
	json_object_begin(j, "crash");
	json_string(j, "line", c->line);
	json_int(j, "boot", c->boot);
	json_string(j, "outcome", boot_outcome_name(c->outcome));
	json_string(j, "side", side_name(c->side));
	json_string(j, "kernel", c->kernel);
	json_string(j, "console_log", c->console_log);
	json_int(j, "failed_boots", c->failed);
	json_object_end(j);
}

/* One metric of "metrics": its values, its verdict and what decided it. */
static void metric_json(const struct view_metric *m, struct json *j)
{
	const char *dot = strchr(m->name, '.');
	char *workload = dot ? xstrndup(m->name, (size_t)(dot - m->name)) : xstrdup(m->name);

	json_object_begin(j, NULL);
	json_string(j, "workload", workload);
	free(workload);
	json_string(j, "metric", dot ? dot + 1 : "");
	json_string(j, "unit", m->unit);
	json_string(j, "kind", metric_kind_name(m->timing ? METRIC_TIME : METRIC_BEHAVIOUR));
	json_string(j, "verdict", verdict_name(m->verdict));
	json_number(j, "without", m->without);
	json_number(j, "with", m->with);
	json_number(j, "change_pct", m->change_pct);
	json_number(j, "ci_lo_pct", m->ci_lo_pct);
	json_number(j, "ci_hi_pct", m->ci_hi_pct);
	/* what decided it, as the --all table and the page show it */
	json_string(j, "better", better_name(m->better));
	json_string(j, "regime", stated(m->regime));
	json_number(j, "p_adj", m->p_adj);
	json_number(j, "noise_pct", m->noise_pct);
	json_string(j, "noise_from", stated(m->noise_from));
	json_number(j, "threshold_pct", m->threshold_pct);
	json_int(j, "samples_without", m->n_without);
	json_int(j, "samples_with", m->n_with);
	json_int(j, "boots_without", m->boots_without);
	json_int(j, "boots_with", m->boots_with);
	if (m->look > 0)
		json_int(j, "look", m->look);
	else
		json_null(j, "look");
	json_object_end(j);
}

/* "reproduce": the command, the seed, the versions, where it ran and the
 * QEMU and guest command lines of each side. */
static void reproduce_json(const struct patch_page_row *r, struct json *j)
{
	char *s = view_reproduce_line(r, true);

	json_object_begin(j, "reproduce");
	json_string(j, "command", s);
	free(s);
	json_int(j, "seed", r->seed);
	json_string(j, "perfbot_version", r->perfbot_version);
	json_string(j, "host", r->host && r->host[0] ? r->host : NULL);
	json_string(j, "qemu_version", r->qemu_version && r->qemu_version[0] ? r->qemu_version : NULL);
	for (int k = 0; k < 2; k++) {
		json_object_begin(j, k ? "guest_cmdline" : "qemu_cmdline");
		for (int side = 0; side < 2; side++) {
			const char *q = r->qemu_cmdline[side];
			size_t at, len;

			s = !q || !q[0] ? NULL : k ? view_guest_cmdline(q, &at, &len) : xstrdup(q);
			json_string(j, side_name(side ? SIDE_WITH : SIDE_WITHOUT), s);
			free(s);
		}
		json_object_end(j);
	}
	json_object_end(j);
}

void answer_json(const struct answer *a, struct json *j, const char *key)
{
	const struct view *view = &a->view;
	const struct patch_page_row *r = &view->r;
	char *s;

	json_object_begin(j, key);
	json_int(j, "comparison", view->id);
	json_string(j, "kind", comparison_kind_name(r->kind));
	json_string(j, "status", status_name(r->status));
	subject_json(r, j);
	s = answer_headline(a);
	json_string(j, "headline", s);
	free(s);
	json_string(j, "verdict", r->decided ? verdict_name(r->verdict) : "");
	json_string(j, "behaviour", r->decided ? verdict_name(r->behaviour) : "");
	kernels_json(r, j);
	crash_json(&view->crash, j);
	json_array_begin(j, "metrics");
	for (int i = 0; i < view->metrics.n; i++)
		metric_json(&view->metrics.v[i], j);
	json_array_end(j);
	reproduce_json(r, j);
	s = report_page_of(r);
	json_string(j, "report_page", s);
	free(s);
	json_string(j, "started_at", r->started_at);
	json_string(j, "finished_at", r->finished_at);
	json_number(j, "wall_seconds", r->wall_seconds);
	json_object_end(j);
}

/* The comparison table's own number formats (perfbot run --all). */
static void table_value(char *buf, size_t n, int count, double v)
{
	if (!count)
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

static void table_pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%+.2f%%", v);
}

/* Boots of side s: all of them, or only those that ended ok (the
 * statistics see nothing of the others). */
static int boots_of(const struct comparison *cmp, enum side s, bool ok_only)
{
	int n = 0;

	for (int b = 0; b < cmp->obs.nboots; b++)
		n += cmp->obs.boots[b].side == s &&
		     (!ok_only || cmp->obs.boots[b].rec.outcome == BOOT_OK);
	return n;
}

void comparison_print(const struct comparison *cmp, FILE *out)
{
	int tested_n = 0;

	fprintf(out, "\n%-15s %-34s %11s %11s %9s %-19s %7s %7s  %s\n", "workload", "metric",
		side_name(SIDE_WITHOUT), side_name(SIDE_WITH), "change", "95% CI", "p(Holm)", "noise",
		"verdict");
	for (int i = 0; i < cmp->findings.nresults; i++) {
		const struct metric_result *m = &cmp->findings.results[i];
		char a[32], b[32], c[32], lo[24], hi[24], ci[64], pv[16], nz[16], how[48] = "";

		table_value(a, sizeof(a), m->n[0], m->median[0]);
		table_value(b, sizeof(b), m->n[1], m->median[1]);
		table_pct(c, sizeof(c), m->change_pct);
		table_pct(lo, sizeof(lo), m->ci_lo_pct);
		table_pct(hi, sizeof(hi), m->ci_hi_pct);
		if (isnan(m->ci_lo_pct))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%s,%s]", lo, hi);
		if (isnan(m->p_adj))
			snprintf(pv, sizeof(pv), "-");
		else
			snprintf(pv, sizeof(pv), "%.3g", m->p_adj);
		if (isnan(m->noise_pct))
			snprintf(nz, sizeof(nz), "-");
		else
			snprintf(nz, sizeof(nz), "%.2g%%", m->noise_pct);
		tested_n += !isnan(m->p_adj);
		/* a noisy metric's "no change" is only as fine as what it resolves */
		if (m->verdict == VERDICT_NO_CHANGE && m->threshold_pct > cmp->policy.gate_pct)
			snprintf(how, sizeof(how), " > %.1f%%", m->threshold_pct);
		if (m->look && (m->look < m->boots[0] || m->look < m->boots[1]))
			snprintf(how + strlen(how), sizeof(how) - strlen(how), " (at %d boots)", m->look);
		fprintf(out, "%-15s %-34s %11s %11s %9s %-19s %7s %7s  %s%s%s\n", m->workload,
			m->def->name, a, b, c, ci, pv, nz, verdict_name(m->verdict), how,
			verdict_is_notable(m->verdict) ? "  <==" : "");
	}
	fprintf(out, "\nverdict: %s (timing, worst metric); %s (behaviour)\n", verdict_name(cmp->findings.verdict),
		verdict_name(cmp->findings.behaviour));
	{
		int run[2] = { boots_of(cmp, SIDE_WITHOUT, false), boots_of(cmp, SIDE_WITH, false) };
		int ok[2] = { boots_of(cmp, SIDE_WITHOUT, true), boots_of(cmp, SIDE_WITH, true) };

		/* a failed boot's samples count for nothing: say how many counted */
		if (ok[0] != run[0] || ok[1] != run[1])
			fprintf(out, "boots ok: %d of %d without, %d of %d with; the failed ones' samples "
				     "are left out\n", ok[0], run[0], ok[1], run[1]);
	}
	fprintf(out, "how: %d+%d boots x %d iteration(s) (%d warm-up left out), accel %s, %d at once; a t test on "
		     "log boot medians at each look (%d to %d boots a side),\n"
		     "     Holm over %d metrics, alpha %g spent over the looks (Pocock-type), beta %g mostly at the first; "
		     "gate %g%%; noise: %s\n",
		boots_of(cmp, SIDE_WITHOUT, false), boots_of(cmp, SIDE_WITH, false), cmp->obs.iterations,
		cmp->policy.warmup, cmp->accel.kind != ACCEL_AUTO ? accel_kind_name(cmp->accel.kind) : "-",
		cmp->guests_at_once > 1 ? cmp->guests_at_once : 1, cmp->policy.first_look,
		cmp->policy.last_look, tested_n, cmp->policy.alpha, cmp->policy.beta,
		cmp->policy.gate_pct,
		cmp->noise_calibration ? "a calibration's between-boot CV adds to the t test's variance and is its floor"
				       : "this run's boots alone (no calibration for this accelerator)");
	if (cmp->noise_calibration)
		fprintf(out, "     noise floor: calibration %lld\n", cmp->noise_calibration);
	if (cmp->accel.kind == ACCEL_TCG_ICOUNT)
		fprintf(out, "note: under tcg-icount guest time counts instructions: it measures the work "
			     "a kernel path does, not cache or TLB stalls\n");
}
