/* The view of a comparison's page (page-patch.c): everything the page of a
 * patch or of a series shows, loaded once (patch_view_load) into typed
 * values that outlive the queries: its head row, every metric with its
 * samples, every boot, a series' bisects with their steps, and the texts
 * of the patch and its port. patch_page_html renders it as a pure
 * function: no query, no file read or written, so that a view built in
 * memory renders as one loaded would. What the page links beside it (the
 * strip plots, the kernels' .config) is written apart, before, by
 * patch_view_plots and patch_view_configs. */
#ifndef PERFBOT_PATCH_VIEW_H
#define PERFBOT_PATCH_VIEW_H

#include <stdbool.h>

#include <sqlite3.h>

#include "db-report.h"
#include "names.h"
#include "plot.h"
#include "util.h"
#include "verdict.h"

/* One metric's samples of a comparison, per side and boot (warm-up and
 * boots that were not ok left out): for the spread column and the plots.
 * Past PLOT_MAX_BOOTS boots a side, the rest are left out. */
struct metric_samples {
	double *v[2][PLOT_MAX_BOOTS];
	int n[2][PLOT_MAX_BOOTS], nboots[2];
};

/* One metric of the comparison, a result_row whose strings it owns. */
struct patch_metric {
	char *workload, *metric, *unit, *noise_from, *regime;
	enum metric_kind kind;
	enum better better;
	enum verdict verdict;
	double median_without, median_with, change_pct, ci_lo_pct, p_adj, noise_pct; /* NAN: none */
	double ci_hi_pct, threshold_pct;
	int n_without, n_with, boots_without, boots_with, look;
	struct metric_samples samples;
};

/* One boot of the comparison, a boot_row whose strings it owns. */
struct patch_boot {
	int index;
	enum side side;
	enum boot_outcome outcome;
	char *detail, *console_log, *results_log, *ran;
	double wall_seconds;
};

/* One step of a bisect, a bisect_step_row whose strings it owns. */
struct patch_bisect_step {
	int step, prefix_a, prefix_b, bad, boots;
	enum bisect_role role;
	char *verdict, *key_a, *key_b, *kernel_a, *kernel_b;
	double wall_seconds, change_pct, ci_lo_pct, ci_hi_pct;
};

/* One bisect of a series comparison and its steps. */
struct patch_bisect {
	long long id;
	char *workload, *metric, *detail, *finished_at;
	enum bisect_change change;
	enum bisect_status status;
	int npatches, culprit, steps;
	double wall_seconds;
	struct patch_bisect_step *step;
	int nsteps;
};

struct patch_view {
	long long id;
	struct db_cursor head;   /* holds r's strings while the view lives */
	struct patch_page_row r;
	char *page;              /* its file name in the report directory */
	struct patch_metric *metric;
	int nmetrics;
	struct patch_boot *boot;
	int nboots;
	struct patch_bisect *bisect; /* a series' bisects, the newest first */
	int nbisects;
	/* a patch's text and its port's (pair port): NULL where the file
	 * is gone (or, for the port, where the pair was not made with one) */
	char *patch_text, *port_text;
};

/* Reads comparison cid and everything its page shows; false (err) if it
 * cannot, or there is none. */
bool patch_view_load(struct patch_view *v, sqlite3 *db, long long cid, pb_err *err);
/* Frees what patch_view_load (or a test, by hand) put in v. */
void patch_view_free(struct patch_view *v);

/* Does the page show a strip plot of metric m: a time metric both sides
 * measured, or a behaviour change, with samples to show. */
bool patch_metric_plotted(const struct patch_metric *m);
/* The plot of the view's metric m, relative to the report directory
 * ("plots/<page>-c<cid>-<workload>-<metric>.svg"), and its title: the
 * same for the file plotted and the page that shows it. Free both. */
void patch_plot_names(const struct patch_view *v, const struct patch_metric *m, char **name,
		      char **title);
/* Writes the strip plot of every metric patch_metric_plotted() names
 * under <report_dir>/plots. */
bool patch_view_plots(const struct patch_view *v, const char *report_dir, pb_err *err);

/* The kernels' .config files the page links: each copied from the kernel
 * cache to <report_dir>/configs/<key>.config (kept when the cache is
 * cleaned), or why not. */
struct patch_configs {
	char *why[2]; /* without, with: NULL where it is there to link */
};
/* The name of a kernel's .config there: <key>, its first 16 characters
 * made safe for a file name. */
void patch_config_key(char key[17], const struct kernel_row *kr);
void patch_view_configs(const struct patch_view *v, const char *report_dir, struct patch_configs *c);
void patch_configs_free(struct patch_configs *c);

/* The page of v, its configs as c says, its logs linked relative to
 * report_dir. Free it. */
char *patch_page_html(const struct patch_view *v, const struct patch_configs *c,
		      const char *report_dir);

#endif
