#include "cli.h"
#include "answer.h"
#include "event.h"
#include "executor.h"
#include "layout.h"
#include "pipeline.h"
#include "queue.h"
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *cli_program = "perfbot";

/* One line, whatever the arguments held (a newline in --patch, an escape
 * sequence from a patch): see visible(). */
void cli_error(const char *fmt, ...)
{
	va_list ap;
	char *raw, *line;

	va_start(ap, fmt);
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	va_end(ap);
	line = visible(raw ? raw : "out of memory");
	fprintf(stderr, "%s: %s\n", cli_program, line);
	free(line);
	free(raw);
}

static void add_override(struct cli *c, char *s)
{
	c->overrides = xrealloc(c->overrides, sizeof(char *) * (size_t)(c->noverrides + 1));
	c->overrides[c->noverrides++] = s;
}

static bool config_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	(void)opt;
	(void)err;
	((struct cli *)value)->config_path = arg;
	return true;
}

/* Checked with the configuration, where each key's rule is. */
static bool set_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	(void)err;
	if (opt->data)
		add_override(value, xasprintf("%s=%s", (const char *)opt->data, arg));
	else
		add_override(value, xstrdup(arg));
	return true;
}

/* Named shortcuts for the keys people override most (--boots N is -c
 * run.boots=N); -c section.key=value reaches every other key. */
#define OPT_SHORTCUT(name, argh, key, help)                                           \
	OPT_CALLBACK_DATA(0, (name), NULL, (argh), key " (" help ")", set_option, key)

const struct pb_option cli_common_options[] = {
	OPT_GROUP("the configuration (config.ini, then these, in order)"),
	OPT_CALLBACK('C', "config", NULL, "FILE",
		     "configuration (default: $PERFBOT_CONFIG, ./config.ini, the checkout's, "
		     "~/.config/perfbot, " PERFBOT_SYSCONFDIR "/perfbot)",
		     config_option),
	OPT_CALLBACK('c', "set", NULL, "SECTION.KEY=VAL", "override any configuration key",
		     set_option),
	OPT_SHORTCUT("accel", "MODE", "qemu.accel", "auto|kvm|tcg|tcg-icount"),
	OPT_SHORTCUT("boots", "N", "run.boots", "boots per kernel"),
	OPT_SHORTCUT("iterations", "N", "run.iterations", "iterations per boot"),
	OPT_SHORTCUT("cache-dir", "DIR", "cache.dir", "kernel trees, builds, ccache"),
	OPT_SHORTCUT("db", "FILE", "database.path", "results database"),
	OPT_SHORTCUT("queue", "DIR", "queue.dir", "directory of patch files"),
	OPT_SHORTCUT("report-dir", "DIR", "report.dir", "where HTML reports go"),
	OPT_SHORTCUT("jobs", "N", "kernel.jobs", "make -j (0: all CPUs)"),
	OPT_SHORTCUT("kernel-source", "FILE", "kernel.source", "linux-source tarball"),
	OPT_END(),
};

/* config.ini of the checkout this binary was built in (layout.c finds
 * the checkout above build/perfbot). */
static char *config_beside_binary(void)
{
	const struct pb_layout *l = layout_get();
	char *p;

	if (l->installed || !l->data_dir)
		return NULL;
	p = xasprintf("%s/config.ini", l->data_dir);
	if (path_exists(p))
		return p;
	free(p);
	return NULL;
}

/* The first config.ini that exists of: the user's, the system's. */
static char *installed_config(void)
{
	const struct pb_layout *l = layout_get();

	if (l->user_config && path_exists(l->user_config))
		return xstrdup(l->user_config);
	if (path_exists(l->system_config))
		return xstrdup(l->system_config);
	return NULL;
}

bool cli_load_config(struct cli *c, struct pb_config *cfg, pb_err *err)
{
	char *found = NULL;
	const char *path = c->config_path;
	bool ok;

	if (!path)
		path = getenv("PERFBOT_CONFIG");
	if (!path && path_exists("config.ini"))
		path = "config.ini";
	if (!path)
		path = found = config_beside_binary();
	if (!path)
		path = found = installed_config();
	if (!path) {
		pb_seterr(err, "no config.ini here, beside perfbot, in ~/.config/perfbot or %s "
			  "(use --config FILE)", PERFBOT_SYSCONFDIR "/perfbot");
		return false;
	}
	ok = config_load(cfg, path, err);
	free(found);
	if (!ok)
		return false; /* config_load freed what it had */
	for (int i = 0; ok && i < c->noverrides; i++)
		ok = config_override(cfg, c->overrides[i], err);
	if (!ok)
		config_free(cfg);
	return ok;
}

void cli_free(struct cli *c)
{
	for (int i = 0; i < c->noverrides; i++)
		free(c->overrides[i]);
	free(c->overrides);
	memset(c, 0, sizeof(*c));
}

/* -w X -w X is one X (the limit counts the options given). */
static void unique_workloads(char **names, int *n)
{
	int k = 0;

	for (int i = 0; i < *n; i++) {
		bool seen = false;

		for (int d = 0; d < k && !seen; d++)
			seen = !strcmp(names[d], names[i]);
		if (!seen)
			names[k++] = names[i];
	}
	*n = k;
}

/* What one patch's or the series' options may not say together, said in
 * one line: PB_EXIT_USAGE, else PB_OPT_GO_ON. */
static int patch_args_check(const char *cmd, const struct patch_args *a, bool series_ok)
{
	if (a->series && a->number >= 0) {
		cli_error("%s: --series runs the whole queue: it takes no --patch", cmd);
		return PB_EXIT_USAGE;
	}
	if (a->patch_file && (a->series || a->number >= 0)) {
		cli_error("%s: --patch-file is one patch of your own: it takes no --%s", cmd,
			  a->series ? "series" : "patch");
		return PB_EXIT_USAGE;
	}
	if (a->patch_file && !a->patch_file[0]) {
		cli_error("%s: --patch-file needs a file name ('-': standard input)", cmd);
		return PB_EXIT_USAGE;
	}
	if ((a->mm_only || a->no_bisect) && !a->series) {
		cli_error("%s: --%s goes with --series", cmd, a->mm_only ? "mm-only" : "no-bisect");
		return PB_EXIT_USAGE;
	}
	if (a->series && a->force) {
		cli_error("%s: --force is for one patch; --series measures the queue's mm patches", cmd);
		return PB_EXIT_USAGE;
	}
	if (a->number < 0 && !a->series && !a->patch_file) {
		cli_error("%s needs --patch N (perfbot list shows the numbers)%s", cmd,
			  series_ok ? ", --patch-file FILE or --series" : "");
		return PB_EXIT_USAGE;
	}
	return PB_OPT_GO_ON;
}

int cli_patch_args(int argc, char **argv, struct cli *c, struct patch_args *a,
		   const struct pb_usage *u, bool series_ok)
{
	struct pb_option opts[13];
	int rc, k = 0;

	opts[k++] = (struct pb_option)OPT_CLI_PATCH(
		&a->number, "the series number of the patch (765 of [PATCH 5.13 765/800])");
	if (series_ok) {
		opts[k++] = (struct pb_option)OPT_STRING(
			0, "patch-file", &a->patch_file, "FILE",
			"a patch of your own instead of the queue's: any git format-patch\n"
			"file, mail or plain unified diff ('-': standard input); known by\n"
			"the first 12 hex digits of its sha256");
		opts[k++] = (struct pb_option)OPT_BOOL(
			's', "series", &a->series,
			"the queue as a whole (the -rc): the base against the base with every\n"
			"patch applied in series order (or, where the queue is in the base\n"
			"already, with its mm patches taken out)");
		opts[k++] = (struct pb_option)OPT_BOOL(
			0, "mm-only", &a->mm_only, "with --series: apply only the mm patches");
		opts[k++] = (struct pb_option)OPT_BOOL(
			'a', "all", &a->all,
			"print every metric's row, the statistics and each failed boot's\n"
			"text (by default: the headline, what changed or is undecided)");
		opts[k++] = (struct pb_option)OPT_BOOL(
			0, "json", &a->json,
			"the answer as one JSON document on stdout (what run prints goes\n"
			"to stderr): exit status, and per comparison its patch, kernels,\n"
			"accelerator, headline, crash, metrics and reproduce command");
		opts[k++] = (struct pb_option)OPT_BOOL(
			0, "bisect-exit", &a->bisect_exit,
			"exit as git bisect run wants: 0 no regression, 1 a regression or\n"
			"behaviour change, 125 a kernel that failed or no verdict (skip),\n"
			"128 an error (git bisect stops)");
		opts[k++] = (struct pb_option)OPT_BOOL(
			0, "no-bisect", &a->no_bisect,
			"with --series: do not bisect a regression, behaviour change or\n"
			"failed kernel it finds (perfbot bisect does it later)");
	}
	opts[k++] = (struct pb_option)OPT_CLI_WORKLOADS(
		a->only, &a->nonly,
		"run this workload instead of those the patch's paths choose\n"
		"(repeatable; the *.ini files of run.workloads)");
	opts[k++] = (struct pb_option)OPT_BOOL('f', "force", &a->force,
					       "measure a patch that is not an mm patch too");
	opts[k++] = (struct pb_option)OPT_CLI_COMMON(c);
	opts[k++] = (struct pb_option)OPT_END();
	memset(a, 0, sizeof(*a));
	a->number = -1;
	rc = parse_options(argc, argv, opts, u, NULL);
	if (rc != PB_OPT_GO_ON)
		return rc;
	unique_workloads(a->only, &a->nonly);
	return patch_args_check(argv[0], a, series_ok);
}

void cli_run_request(const struct patch_args *a, struct request *r)
{
	*r = (struct request){
		.kind = a->series ? REQUEST_SERIES : REQUEST_PATCH,
		.number = a->series ? 0 : a->number,
		.only = a->only,
		.nonly = a->nonly,
		.force = a->force,
		.all = a->all,
		.mm_only = a->mm_only,
		.no_bisect = a->no_bisect,
	};
}

int cli_bisect_args(int argc, char **argv, struct cli *c, struct request *r, const struct pb_usage *u)
{
	const char *metric = NULL;
	int rc, cid = 0;
	const struct pb_option opts[] = {
		OPT_STRING('m', "metric", &metric, "W.M",
			   "the metric to bisect on, e.g. thp-anon.fault_always_ms_per_gib\n"
			   "(default: what the series comparison found)"),
		OPT_INTEGER(0, "comparison", &cid, "ID", 1, 2000000000, "comparison",
			    "the series comparison (default: the queue's newest)"),
		OPT_CLI_COMMON(c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, u, NULL);
	*r = (struct request){ .kind = REQUEST_BISECT, .comparison = cid, .metric = metric };
	return rc;
}

int cli_calibrate_args(int argc, char **argv, struct cli *c, struct request *r, char **only,
		       const struct pb_usage *u)
{
	int rc, nonly = 0, per_side = 0;
	const struct pb_option opts[] = {
		OPT_CLI_WORKLOADS(only, &nonly, "calibrate this workload (repeatable; default: every one)"),
		OPT_INTEGER('b', "per-side", &per_side, "N", 2, 1000, "boots",
			    "boots per side (default [calibrate] boots, 4)"),
		OPT_CLI_COMMON(c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, u, NULL);
	*r = (struct request){ .kind = REQUEST_CALIBRATE, .only = only, .nonly = nonly,
			       .per_side = per_side };
	return rc;
}

int cli_no_args(int argc, char **argv, struct cli *c, const struct pb_usage *u)
{
	const struct pb_option opts[] = { OPT_CLI_COMMON(c), OPT_END() };

	return parse_options(argc, argv, opts, u, NULL);
}

bool cli_load_config_queue(struct cli *c, struct pb_config *cfg, struct pb_queue *q)
{
	pb_err err;
	char *spool;
	bool ok;

	if (!cli_load_config(c, cfg, &err)) {
		cli_error("%s", err.msg);
		return false;
	}
	spool = config_queue_spool(cfg);
	ok = queue_load(cfg->queue_dir, spool, q, &err);
	free(spool);
	if (!ok) {
		cli_error("%s", err.msg);
		config_free(cfg);
	}
	return ok;
}

bool cli_load_config_patches(struct cli *c, struct pb_config *cfg, struct pb_queue *q,
			     struct patch_args *a)
{
	pb_err err;
	char *spool;
	bool ok;

	if (!a->patch_file)
		return cli_load_config_queue(c, cfg, q);
	if (!cli_load_config(c, cfg, &err)) {
		cli_error("%s", err.msg);
		return false;
	}
	spool = config_queue_spool(cfg);
	ok = queue_load_patch_file(a->patch_file, spool, q, &err);
	free(spool);
	if (!ok) {
		cli_error("%s", err.msg);
		config_free(cfg);
		return false;
	}
	a->number = q->patches[0].number;
	return true;
}

static void show_measured(const struct comparison *cmp)
{
	struct event_buffer eb;

	if (event_buffer_open(&eb, EVENT_SAY)) {
		comparison_print(cmp, eb.f);
		event_buffer_close(&eb);
	}
}

static bool show_pages(sqlite3 *db, const struct pb_queue *q, const char *dir, long long cid,
		       char **page, pb_err *err)
{
	return report_write_patch(db, cid, dir, page, err) && report_write_index(db, q, dir, err) &&
	       report_write_trend(db, dir, err);
}

/* The answer as the database has it now (answer.h): the headline, the
 * crash, what changed, how to repeat it. Stored already: a failure to
 * read it back is said, not the run's. */
static void show_answer(sqlite3 *db, long long cid, bool table)
{
	struct event_buffer eb;
	struct answer a;
	pb_err err;

	if (!view_load(&a.view, db, cid, &err)) {
		event_progress("perfbot: the answer cannot be read back: %s\n", err.msg);
		return;
	}
	if (event_buffer_open(&eb, EVENT_SAY)) {
		answer_print(&a, table, eb.f);
		event_buffer_close(&eb);
	}
	answer_free(&a);
}

static bool show_bisect_pages(sqlite3 *db, const struct pb_queue *q, const char *dir, long long cid,
			      char **page, pb_err *err)
{
	return report_write_patch(db, cid, dir, page, err) && report_write_index(db, q, dir, err);
}

static bool show_imported_pages(sqlite3 *db, const struct pb_queue *q, const char *dir,
				long long cid, char **page, pb_err *err)
{
	int pages;

	return report_write_all(db, q, dir, &pages, err) &&
	       (!cid || report_write_patch(db, cid, dir, page, err));
}

const struct presenter cli_presenter = {
	.measured = show_measured,
	.pages = show_pages,
	.answer = show_answer,
	.bisect_pages = show_bisect_pages,
	.imported_pages = show_imported_pages,
};

int cli_run_status(enum run_end end, const struct pipeline_outcome *o, const pb_err *err)
{
	if (err->msg[0])
		cli_error("%s", err->msg);
	switch (end) {
	case RUN_DONE:
		break;
	case RUN_KERNEL_FAILED:
		return PB_EXIT_KERNEL;
	case RUN_STOPPED:
		return PB_EXIT_STOPPED;
	case RUN_FAILED:
	default:
		return PB_EXIT_ERROR;
	}
	if (!o || !o->comparison)
		return PB_EXIT_OK;
	if (o->decided && o->verdict == VERDICT_REGRESSION)
		return PB_EXIT_REGRESSION;
	return o->behaviour_change ? PB_EXIT_BEHAVIOUR : PB_EXIT_OK;
}

int cli_submitted_status(enum run_end end, const struct submitted *s, const pb_err *err, bool run)
{
	if (end == RUN_DONE && s->exit_code >= 0)
		return s->exit_code;
	return cli_run_status(end, run ? &s->outcome : NULL, err);
}

const struct pb_patch *cli_queue_patch(const struct pb_queue *q, int number)
{
	const struct pb_patch *p = queue_find(q, number);
	char *missing;

	if (p)
		return p;
	/* every number, however many: a line of its own, not a pb_err */
	missing = queue_missing(q, number);
	cli_error("%s", missing);
	free(missing);
	return NULL;
}

bool cli_patch_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	char *end;
	long v;

	(void)opt;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (!arg[0] || *end || errno || v < 1 || v > 100000) {
		pb_seterr(err, "--patch '%s': expected a patch number such as 765", arg);
		return false;
	}
	*(int *)value = (int)v;
	return true;
}
