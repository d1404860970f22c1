/* A comparison's page, written: its view loaded (every query here), the
 * files it links written beside it (the strip plots, the kernels'
 * .config), then the page rendered by page-patch.c's pure function. */
#include "patch-view.h"
#include "html.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The metrics, timing first by workload, each with its samples. */
static bool load_metrics(struct patch_view *v, sqlite3 *db, pb_err *err)
{
	struct db_cursor c;
	struct result_row r;
	bool ok = true;

	if (!db_report_results(&c, db, v->id, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct patch_metric *m;

		v->metric = xrealloc(v->metric, sizeof(*v->metric) * (size_t)(v->nmetrics + 1));
		m = &v->metric[v->nmetrics++];
		*m = (struct patch_metric){
			xstrdup(r.workload), xstrdup(r.metric), xstrdup(r.unit), xstrdup(r.noise_from),
			xstrdup(r.regime), r.kind, r.better, r.verdict, r.median_without, r.median_with,
			r.change_pct, r.ci_lo_pct, r.p_adj, r.noise_pct, r.ci_hi_pct, r.threshold_pct,
			r.n_without, r.n_with, r.boots_without, r.boots_with, r.look, { { { 0 } }, { { 0 } }, { 0 } }
		};
		ok = load_samples(db, v->id, r.workload, r.metric, &m->samples, err);
	}
	db_cursor_close(&c, NULL);
	return ok;
}

static bool load_boots(struct patch_view *v, sqlite3 *db, pb_err *err)
{
	struct db_cursor c;
	struct boot_row r;

	if (!db_report_boots(&c, db, v->id, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		v->boot = xrealloc(v->boot, sizeof(*v->boot) * (size_t)(v->nboots + 1));
		v->boot[v->nboots++] = (struct patch_boot){
			r.boot_index, r.side, r.outcome, xstrdup(r.detail), xstrdup(r.console_log),
			xstrdup(r.results_log), xstrdup(r.ran), r.wall_seconds
		};
	}
	return db_cursor_close(&c, err);
}

static bool load_steps(struct patch_bisect *b, sqlite3 *db, pb_err *err)
{
	struct bisect_step_row r;
	struct db_cursor c;

	if (!db_report_bisect_steps(&c, db, b->id, err))
		return false;
	while (db_cursor_step(&c, &r)) {
		b->step = xrealloc(b->step, sizeof(*b->step) * (size_t)(b->nsteps + 1));
		b->step[b->nsteps++] = (struct patch_bisect_step){
			r.step, r.prefix_a, r.prefix_b, r.bad, r.boots, r.role, xstrdup(r.verdict),
			xstrdup(r.key_a), xstrdup(r.key_b), xstrdup(r.kernel_a), xstrdup(r.kernel_b),
			r.wall_seconds, r.change_pct, r.ci_lo_pct, r.ci_hi_pct
		};
	}
	return db_cursor_close(&c, err);
}

/* A series' bisects (perfbot bisect), each with its steps. */
static bool load_bisects(struct patch_view *v, sqlite3 *db, pb_err *err)
{
	struct bisect_row r;
	struct db_cursor c;
	bool ok = true;

	if (!db_report_bisects(&c, db, v->id, err))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct patch_bisect *b;

		v->bisect = xrealloc(v->bisect, sizeof(*v->bisect) * (size_t)(v->nbisects + 1));
		b = &v->bisect[v->nbisects++];
		*b = (struct patch_bisect){ r.id, xstrdup(r.workload), xstrdup(r.metric), xstrdup(r.detail),
					    xstrdup(r.finished_at), r.change, r.status, r.npatches,
					    r.culprit, r.steps, r.wall_seconds, NULL, 0 };
		ok = load_steps(b, db, err);
	}
	return db_cursor_close(&c, ok ? err : NULL) && ok;
}

bool patch_view_load(struct patch_view *v, sqlite3 *db, long long cid, pb_err *err)
{
	bool found, series;

	memset(v, 0, sizeof(*v));
	v->id = cid;
	if (!db_report_patch_page(&v->head, db, cid, &v->r, &found, err))
		return false;
	if (!found) {
		db_cursor_close(&v->head, NULL);
		pb_seterr(err, "report: no comparison %lld in the database", cid);
		return false;
	}
	series = v->r.kind == KIND_SERIES;
	v->page = report_page_of(&v->r);
	if (!series)
		v->patch_text = read_file(v->r.file, NULL, NULL);
	/* a port is this project's own change: the page shows it beside the patch */
	if (!series && v->r.pair_method == PAIR_PORT)
		v->port_text = read_file(v->r.port_file, NULL, NULL);
	if (load_boots(v, db, err) && load_metrics(v, db, err) && (!series || load_bisects(v, db, err)))
		return true;
	patch_view_free(v);
	return false;
}

static void samples_free(struct metric_samples *ms)
{
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < ms->nboots[s]; b++)
			free(ms->v[s][b]);
}

static void bisect_free(struct patch_bisect *b)
{
	for (int i = 0; i < b->nsteps; i++) {
		struct patch_bisect_step *s = &b->step[i];

		free(s->verdict);
		free(s->key_a);
		free(s->key_b);
		free(s->kernel_a);
		free(s->kernel_b);
	}
	free(b->step);
	free(b->workload);
	free(b->metric);
	free(b->detail);
	free(b->finished_at);
}

void patch_view_free(struct patch_view *v)
{
	for (int i = 0; i < v->nmetrics; i++) {
		struct patch_metric *m = &v->metric[i];

		free(m->workload);
		free(m->metric);
		free(m->unit);
		free(m->noise_from);
		free(m->regime);
		samples_free(&m->samples);
	}
	for (int i = 0; i < v->nboots; i++) {
		free(v->boot[i].detail);
		free(v->boot[i].console_log);
		free(v->boot[i].results_log);
		free(v->boot[i].ran);
	}
	for (int i = 0; i < v->nbisects; i++)
		bisect_free(&v->bisect[i]);
	if (v->head.st)
		db_cursor_close(&v->head, NULL);
	free(v->metric);
	free(v->boot);
	free(v->bisect);
	free(v->page);
	free(v->patch_text);
	free(v->port_text);
	memset(v, 0, sizeof(*v));
}

bool patch_metric_plotted(const struct patch_metric *m)
{
	/* diagnostics sit with the times they help explain */
	bool time = m->kind == METRIC_TIME || m->kind == METRIC_DIAGNOSTIC;
	bool change = !time && m->verdict == VERDICT_BEHAVIOUR_CHANGE;
	const struct metric_samples *ms = &m->samples;

	return (time || change) && (ms->nboots[0] || ms->nboots[1]) &&
	       ((m->n_without && m->n_with) || change);
}

void patch_plot_names(const struct patch_view *v, const struct patch_metric *m, char **name,
		      char **title)
{
	/* named after the page: <page>-c<cid>-... */
	int page = (int)(strlen(v->page) - strlen(".html"));

	*name = xasprintf("plots/%.*s-c%lld-%s-%s.svg", page, v->page, v->id, m->workload, m->metric);
	*title = xasprintf("%s %s", m->workload, m->metric);
}

bool patch_view_plots(const struct patch_view *v, const char *report_dir, pb_err *err)
{
	char *plot_dir = xasprintf("%s/plots", report_dir);
	bool ok = mkdir_p(plot_dir, err);

	for (int i = 0; ok && i < v->nmetrics; i++) {
		const struct patch_metric *m = &v->metric[i];
		const struct metric_samples *ms = &m->samples;
		struct plot_side sides[2] = {
			{ "without the fix", ms->nboots[0], (double **)ms->v[0], (int *)ms->n[0] },
			{ "with the fix", ms->nboots[1], (double **)ms->v[1], (int *)ms->n[1] },
		};
		char *name, *svg, *title;

		if (!patch_metric_plotted(m))
			continue;
		patch_plot_names(v, m, &name, &title);
		svg = xasprintf("%s/%s", report_dir, name);
		ok = plot_strip(svg, title, m->unit, sides, 2, err);
		free(name);
		free(svg);
		free(title);
	}
	free(plot_dir);
	return ok;
}

void patch_config_key(char key[17], const struct kernel_row *kr)
{
	html_safe_name(key, 17, kr->key, strlen(kr->key));
}

/* A kernel's .config, from its directory in the kernel cache
 * (<cache>/kernels/<key>/config beside its build.log, kernel.h), copied to
 * <report_dir>/configs/<key>.config; NULL, or why it is not there. */
static char *config_copy(const struct kernel_row *kr, const char *report_dir)
{
	char key[17], *dir = xasprintf("%s/configs", report_dir), *dst, *src = NULL, *why = NULL;
	pb_err err = { "" };

	patch_config_key(key, kr);
	dst = xasprintf("%s/configs/%s.config", report_dir, key);
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
	free(src);
	free(dst);
	free(dir);
	return why;
}

void patch_view_configs(const struct patch_view *v, const char *report_dir, struct patch_configs *c)
{
	for (int s = 0; s < 2; s++)
		c->why[s] = config_copy(&v->r.kernel[s], report_dir);
}

void patch_configs_free(struct patch_configs *c)
{
	for (int s = 0; s < 2; s++)
		free(c->why[s]);
	memset(c, 0, sizeof(*c));
}

bool report_write_patch(sqlite3 *db, long long cid, const char *report_dir, char **written,
			pb_err *err)
{
	struct patch_view v;
	struct patch_configs configs = { { NULL } };
	char *page = NULL, *path = NULL;
	bool ok;

	*written = NULL;
	if (!patch_view_load(&v, db, cid, err))
		return false;
	ok = patch_view_plots(&v, report_dir, err);
	if (ok) {
		patch_view_configs(&v, report_dir, &configs);
		page = patch_page_html(&v, &configs, report_dir);
		path = xasprintf("%s/%s", report_dir, v.page);
		ok = mkdir_p(report_dir, err) && write_file_atomic(path, page, strlen(page), err);
	}
	if (ok) {
		*written = path;
		path = NULL;
	}
	free(path);
	free(page);
	patch_configs_free(&configs);
	patch_view_free(&v);
	return ok;
}
