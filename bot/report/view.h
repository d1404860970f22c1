/* The view of one stored comparison: everything its answer on the
 * terminal, its JSON and its mail show, loaded once (view_load) into typed
 * values that outlive the queries. The renderers (answer.c, mail.c) are
 * pure functions over a view: they run no query and do not call each
 * other, so that a view built in memory renders as one loaded would, and
 * the terminal, the mail and the JSON cannot say different things. Only
 * db/ and lower headers here: the renderers include this one, never the
 * other way round. */
#ifndef PERFBOT_VIEW_H
#define PERFBOT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

#include "db-report.h"
#include "names.h"
#include "util.h"
#include "verdict.h"

/* One metric of a comparison as the answer and the mail show it, copied
 * out of its result_row (whose strings last only until the cursor's next
 * step). */
struct view_metric {
	char *name; /* workload.metric */
	char *unit;
	bool timing; /* a time metric (kind "time"): the others are behaviour */
	enum verdict verdict;
	double without, with, change_pct, ci_lo_pct, ci_hi_pct; /* NAN: none */
	/* how it was decided (the JSON's): NAN and "" where the row has none;
	 * the direction every row has */
	enum better better;
	char *regime, *noise_from;
	double p_adj, noise_pct, threshold_pct;
	int n_without, n_with, boots_without, boots_with, look;
};
struct view_metrics {
	struct view_metric *v;
	int n;
};
void view_metrics_add(struct view_metrics *m, const struct result_row *r);
void view_metrics_free(struct view_metrics *m);
/* What a reader must look at: the notable verdicts, and one more boots
 * may still decide. */
bool view_metric_changed(const struct view_metric *m);
/* The changed metrics, most pressing first (verdict.h's ranking, then the
 * larger change); *n of them. Free the array (not its metrics). */
const struct view_metric **view_metrics_changed(const struct view_metrics *m, int *n);

/* A metric's numbers as every table writes them (format.h's): the two
 * medians, the change and its 95% CI ("[lo<sep>hi]", "-" for none). The
 * terminal and the mail lay them out each in their columns. */
struct view_cells {
	char without[32], with[32], change[32], ci[80];
};
void view_metric_cells(const struct view_metric *m, const char *ci_sep, struct view_cells *c);

/* The first boot that failed, the answer's crash: 0 boot if none. */
struct view_crash {
	int boot;                /* its place in the boot order, from 1 */
	int failed;              /* boots that failed, this one included */
	enum boot_outcome outcome;
	enum side side;
	char *kernel, *line, *console_log;
};

/* A stored comparison as its answer and its mail tell it. */
struct view {
	long long id;
	struct db_cursor page;   /* holds r's strings while the view lives */
	struct patch_page_row r;
	struct view_metrics metrics;
	struct view_crash crash;
};
/* Reads comparison cid: its page row, its metrics, its first failed boot;
 * false (err) if it cannot, or there is none. */
bool view_load(struct view *v, sqlite3 *db, long long cid, pb_err *err);
/* Frees what view_load (or a test, by hand) put in v. */
void view_free(struct view *v);

/* The command that repeats comparison r, as shell-ready words (a path
 * quoted where the shell would split it): "perfbot run", what it measured
 * ("--patch 771", "--patch-file PATH" for a patch without a series number,
 * "--series [--mm-only]"), "--queue DIR" when with_queue and the patch has
 * a queue, then what makes the run the same ("-c run.seed=N", the
 * accelerator, a schedule other than a fresh config.ini's). NULL-terminated;
 * *n (may be NULL) gets their count. Free with view_words_free. */
char **view_reproduce_words(const struct patch_page_row *r, bool with_queue, int *n);
void view_words_free(char **words);
/* The same words as one line. Free it. */
char *view_reproduce_line(const struct patch_page_row *r, bool with_queue);

/* s quoted for a POSIX shell where it has to be ('...'), else a copy. */
char *shell_quote(const char *s);

/* How a comparison's verdicts were reached, in a paragraph (the patch
 * page's statistics row, the mail's): the test, alpha, beta, the gate, the
 * looks, the noise, the seed. Free it. */
char *view_statistics(const struct patch_page_row *r);

/* The guest kernel's command line of a QEMU command line (the argument
 * of its -append, which runs.qemu_cmdline holds unquoted, up to the next
 * option perfbot gives after it), or NULL. *at and *len: where it is. */
char *view_guest_cmdline(const char *qemu, size_t *at, size_t *len);

#endif
