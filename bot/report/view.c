/* The view of one stored comparison (view.h): loaded once, from the
 * report's queries, into values the renderers share. */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "format.h"
#include "outcome.h"
#include "queue.h"

/* A row's text, "" for a column it did not read (the tests' rows). */
static const char *text(const char *s)
{
	return s ? s : "";
}

void view_metrics_add(struct view_metrics *m, const struct result_row *r)
{
	struct view_metric *x;

	m->v = xrealloc(m->v, sizeof(*m->v) * (size_t)(m->n + 1));
	x = &m->v[m->n++];
	x->name = xasprintf("%s.%s", r->workload, r->metric);
	x->unit = xstrdup(r->unit);
	x->timing = r->kind == METRIC_TIME;
	x->verdict = r->verdict;
	x->without = r->median_without;
	x->with = r->median_with;
	x->change_pct = r->change_pct;
	x->ci_lo_pct = r->ci_lo_pct;
	x->ci_hi_pct = isnan(r->ci_lo_pct) ? NAN : r->ci_hi_pct;
	x->better = r->better;
	x->regime = xstrdup(r->regime ? r->regime : "");
	x->noise_from = xstrdup(r->noise_from ? r->noise_from : "");
	x->p_adj = r->p_adj;
	x->noise_pct = r->noise_pct;
	x->threshold_pct = r->threshold_pct;
	x->n_without = r->n_without;
	x->n_with = r->n_with;
	x->boots_without = r->boots_without;
	x->boots_with = r->boots_with;
	x->look = r->look;
}

void view_metrics_free(struct view_metrics *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].unit);
		free(m->v[i].regime);
		free(m->v[i].noise_from);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

bool view_metric_changed(const struct view_metric *m)
{
	return verdict_is_notable(m->verdict) || m->verdict == VERDICT_INCONCLUSIVE;
}

/* The ranking of verdict.h, most pressing first, then the larger change. */
static int by_rank(const void *a, const void *b)
{
	const struct view_metric *x = *(const struct view_metric *const *)a;
	const struct view_metric *y = *(const struct view_metric *const *)b;
	double cx = isnan(x->change_pct) ? -1 : fabs(x->change_pct);
	double cy = isnan(y->change_pct) ? -1 : fabs(y->change_pct);

	if (x->verdict != y->verdict)
		return x->verdict < y->verdict ? 1 : -1;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return strcmp(x->name, y->name);
}

const struct view_metric **view_metrics_changed(const struct view_metrics *m, int *n)
{
	const struct view_metric **v = xcalloc((size_t)m->n + 1, sizeof(*v));

	*n = 0;
	for (int i = 0; i < m->n; i++)
		if (view_metric_changed(&m->v[i]))
			v[(*n)++] = &m->v[i];
	qsort(v, (size_t)*n, sizeof(*v), by_rank);
	return v;
}

char *shell_quote(const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789._/=:,+-@%";
	pb_str q;

	if (s[0] && strspn(s, plain) == strlen(s))
		return xstrdup(s);
	str_init(&q);
	str_add(&q, "'");
	for (; *s; s++)
		if (*s == '\'')
			str_add(&q, "'\\''");
		else
			str_addn(&q, s, 1);
	str_add(&q, "'");
	return str_steal(&q);
}

char **view_reproduce_words(const struct patch_page_row *r, bool with_queue, int *n)
{
	char **w = xcalloc(12, sizeof(*w)), *q;
	int k = 0;

	w[k++] = xstrdup("perfbot run");
	if (r->kind == KIND_SERIES) {
		w[k++] = xstrdup(r->series_mm_only ? "--series --mm-only" : "--series");
		if (with_queue && text(r->series_queue)[0]) {
			q = shell_quote(text(r->series_queue));
			w[k++] = xasprintf("--queue %s", q);
			free(q);
		}
	} else if (r->number) {
		w[k++] = xasprintf("--patch %d", r->number);
		if (with_queue && text(r->queue)[0]) {
			q = shell_quote(text(r->queue));
			w[k++] = xasprintf("--queue %s", q);
			free(q);
		}
	} else {
		q = shell_quote(text(r->file));
		w[k++] = xasprintf("--patch-file %s", q);
		free(q);
	}
	w[k++] = xasprintf("-c run.seed=%lld", r->seed);
	if (r->accel != ACCEL_AUTO) {
		q = shell_quote(accel_kind_name(r->accel));
		w[k++] = xasprintf("-c qemu.accel=%s", q);
		free(q);
	}
	/* a run takes more boots while a metric is undecided: only fewer than
	 * a fresh config.ini's tells that run.boots was set */
	if (r->boots_per_kernel < CONFIG_DEFAULT_BOOTS)
		w[k++] = xasprintf("-c run.boots=%d", r->boots_per_kernel);
	if (r->iterations != CONFIG_DEFAULT_ITERATIONS)
		w[k++] = xasprintf("-c run.iterations=%d", r->iterations);
	if (r->warmup != CONFIG_DEFAULT_WARMUP)
		w[k++] = xasprintf("-c run.warmup=%d", r->warmup);
	if (n)
		*n = k;
	return w;
}

void view_words_free(char **words)
{
	for (int i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}

char *view_reproduce_line(const struct patch_page_row *r, bool with_queue)
{
	char **w = view_reproduce_words(r, with_queue, NULL);
	pb_str s;

	str_init(&s);
	for (int i = 0; w[i]; i++)
		str_addf(&s, "%s%s", i ? " " : "", w[i]);
	view_words_free(w);
	return str_steal(&s);
}

char *view_statistics(const struct patch_page_row *r)
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

char *view_guest_cmdline(const char *qemu, size_t *at, size_t *len)
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

void view_metric_cells(const struct view_metric *m, const char *ci_sep, struct view_cells *c)
{
	char lo[32], hi[32];

	fmt_value(c->without, sizeof(c->without), m->without);
	fmt_value(c->with, sizeof(c->with), m->with);
	fmt_pct(c->change, sizeof(c->change), m->change_pct);
	snprintf(c->ci, sizeof(c->ci), "-");
	if (!isnan(m->ci_lo_pct)) {
		fmt_pct(lo, sizeof(lo), m->ci_lo_pct);
		fmt_pct(hi, sizeof(hi), m->ci_hi_pct);
		snprintf(c->ci, sizeof(c->ci), "[%s%s%s]", lo, ci_sep, hi);
	}
}

/* The first boot that failed, from the boots in their order: a panic
 * says more than a timeout, so the first panic, else the first. */
static void crash_add(struct view_crash *k, const struct boot_row *b, const struct patch_page_row *r)
{
	if (b->outcome == BOOT_OK)
		return;
	k->failed++;
	if (k->boot && (b->outcome != BOOT_PANIC || k->outcome == BOOT_PANIC))
		return;
	free(k->kernel);
	free(k->line);
	free(k->console_log);
	k->boot = b->boot_index;
	k->outcome = b->outcome;
	k->side = b->side;
	k->kernel = xstrdup(text(r->kernel[b->side == SIDE_WITH].label));
	k->line = crash_headline(text(b->detail));
	k->console_log = xstrdup(text(b->console_log));
}

bool view_load(struct view *v, sqlite3 *db, long long cid, pb_err *err)
{
	struct db_cursor c;
	struct result_row m;
	struct boot_row b;
	bool found;

	memset(v, 0, sizeof(*v));
	v->id = cid;
	if (!db_report_patch_page(&v->page, db, cid, &v->r, &found, err))
		return false;
	if (!found) {
		db_cursor_close(&v->page, NULL);
		pb_seterr(err, "no comparison %lld of a patch or a series", cid);
		return false;
	}
	if (!db_report_results(&c, db, cid, err))
		goto fail;
	while (db_cursor_step(&c, &m))
		view_metrics_add(&v->metrics, &m);
	if (!db_cursor_close(&c, err) || !db_report_boots(&c, db, cid, err))
		goto fail;
	while (db_cursor_step(&c, &b))
		crash_add(&v->crash, &b, &v->r);
	if (db_cursor_close(&c, err))
		return true;
fail:
	view_free(v);
	return false;
}

void view_free(struct view *v)
{
	struct view_crash *k = &v->crash;

	if (v->page.st)
		db_cursor_close(&v->page, NULL);
	view_metrics_free(&v->metrics);
	free(k->kernel);
	free(k->line);
	free(k->console_log);
	memset(v, 0, sizeof(*v));
}
