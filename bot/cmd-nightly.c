/* perfbot nightly: the cron job. Runs every mm patch of the queue that has
 * no result yet for the current base tree, kernel config and perfbot version
 * (every one with --all), after one A/A calibration of the workloads the
 * queue's mm patches use (so that tonight's runs use tonight's noise floor),
 * then writes the report again. Holds the database's lock from
 * start to end, so a nightly and a manual run never collide; prints and
 * stores a summary. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "executor.h"
#include "db.h"
#include "kernel.h"
#include "pipeline.h"
#include "prebuild.h"
#include "queue.h"
#include "report.h"
#include "workload.h"

static const struct pb_usage usage = {
	"perfbot nightly", "[--all] [--no-calibrate | --recalibrate] [options]",
	"exit status: 0 done (regressions are in the report, not the status), 1 perfbot could\n"
	"             not go on (another perfbot holds the lock, bad config, ...)\n",
};

/* The comparison of this patch file on this base, config and perfbot, if any. */
static long long measured_before(sqlite3 *db, const struct pb_queue *q, const struct pb_patch *p,
				 const struct kernel_tree *t, const struct kernel_config *kc)
{
	return db_measured_before(db, q->dir, p->number, p->sha256, t->tarball_sha, kc->sha256,
				  perfbot_version);
}

struct tally {
	int run, skipped, regressions, behaviour, failures, mails;
	pb_str lines;
};

/* Whether patch p of the queue runs tonight: mm, and not measured before
 * (every mm patch with --all). */
static bool runs_tonight(const struct pipeline *pl, const struct pb_queue *q,
			 const struct pb_patch *p, bool all)
{
	return p->is_mm && (all || !measured_before(pl->db, q, p, &pl->tree, &pl->kc));
}

/* While patch i boots, the next patch that runs tonight builds beside it. */
struct overlap {
	const struct pb_config *cfg;
	const struct pb_queue *q;
	const struct pipeline *pl;
	bool all;
	int i;
	struct prebuild build;
};

static void overlap_boots_begin(void *ctx, const struct comparison *cmp, const char *why_not)
{
	struct overlap *o = ctx;
	const struct pb_patch *next = NULL;

	if (why_not) {
		printf("perfbot nightly: no build beside %03d's boots under %s: %s\n",
		       o->q->patches[o->i].number, accel_kind_name(cmp->accel.kind), why_not);
		return;
	}
	for (int j = o->i + 1; j < o->q->npatches && !next; j++)
		if (runs_tonight(o->pl, o->q, &o->q->patches[j], o->all))
			next = &o->q->patches[j];
	if (next && prebuild_start(&o->build, o->cfg, next))
		printf("perfbot nightly: %03d's kernels build beside %03d's boots, at idle priority "
		       "(log %s)\n", next->number, o->q->patches[o->i].number, o->build.log);
}

/* what may quote the patch (why it is not mm) and the job: made visible(),
 * so each note is one line, in the log and in the nightly's summary. */
static void note(struct tally *t, const struct pb_patch *p, const char *what)
{
	char *v = visible(what);

	str_addf(&t->lines, "%03d %s\n", p->number, v);
	printf("perfbot nightly: %03d %s\n", p->number, v);
	free(v);
}

/* The workloads of the patches that run tonight, each once, for the
 * calibration (their names point into set). */
static int queue_workloads(const struct workload_set *set, const struct pb_queue *q, char **names,
			   int max)
{
	int n = 0;

	for (int i = 0; i < q->npatches; i++) {
		const struct workload *w[CLI_MAX_WORKLOADS];
		bool fallback;
		int k;

		if (!q->patches[i].is_mm)
			continue;
		k = workloads_for_patch(set, &q->patches[i], w, CLI_MAX_WORKLOADS, &fallback);
		for (int j = 0; j < k; j++) {
			bool seen = false;

			for (int m = 0; m < n; m++)
				seen |= !strcmp(names[m], w[j]->name);
			if (!seen && n < max)
				names[n++] = w[j]->name;
		}
	}
	return n;
}

static void patch_outcome(const struct pb_config *cfg, const struct pb_queue *q,
			  const struct pipeline *pl, const struct pb_patch *p,
			  const struct pipeline_outcome *out, const char *where, struct tally *t);

/* Whether p is skipped tonight (not mm, or measured before), noted so. */
static bool skipped_tonight(const struct pipeline *pl, const struct pb_queue *q,
			    const struct pb_patch *p, bool all, struct tally *t)
{
	long long before;

	if (!p->is_mm) {
		char *why = xasprintf("skipped: not an mm patch (%s)", p->mm_reason);

		note(t, p, why);
		free(why);
		t->skipped++;
		return true;
	}
	before = all ? 0 : measured_before(pl->db, q, p, &pl->tree, &pl->kc);
	if (before) {
		char *why = xasprintf("skipped: already measured for this base, config and perfbot "
				      "(comparison %lld)", before);

		note(t, p, why);
		free(why);
		t->skipped++;
		return true;
	}
	return false;
}

/* One patch of the queue: skipped (not mm, or measured before), or run. */
static void nightly_patch(const struct pb_config *cfg, const struct pb_queue *q,
			  const struct pipeline *pl, const struct pb_patch *p, bool all, struct tally *t,
			  struct overlap *o)
{
	struct request r = { .kind = REQUEST_PATCH, .number = p->number };
	struct submit how = { .boots_begin = overlap_boots_begin, .ctx = o, .show = &cli_presenter };
	struct submitted sub;
	struct pipeline_outcome out;
	pb_err err;
	int prc;

	if (skipped_tonight(pl, q, p, all, t))
		return;
	prc = cli_submitted_status(executor_submit(cfg, q, &r, &how, &sub, &err), &sub, &err, true);
	out = sub.outcome;
	t->run++;
	if (prc == PB_EXIT_ERROR || !out.comparison) {
		note(t, p, "perfbot could not measure it (see the log above)");
		t->failures++;
		return;
	}
	patch_outcome(cfg, q, pl, p, &out, "", t);
}

/* A patch's comparison, stored: counted, noted, answered on the list. where:
 * "" or ", on NODE". */
static void patch_outcome(const struct pb_config *cfg, const struct pb_queue *q,
			  const struct pipeline *pl, const struct pb_patch *p,
			  const struct pipeline_outcome *out_, const char *where, struct tally *t)
{
	const struct pipeline_outcome out = *out_;

	t->failures += out.status != STATUS_MEASURED;
	t->regressions += out.decided && out.verdict == VERDICT_REGRESSION;
	t->behaviour += out.behaviour_change;
	{
		char *what = xasprintf("%s: %s%s (comparison %lld%s)", status_name(out.status),
				       out.decided ? verdict_name(out.verdict) : "-",
				       out.behaviour_change ? ", behaviour change" : "", out.comparison,
				       where);

		note(t, p, what);
		free(what);
	}
	/* what changed is answered on the list: a regression, an
	 * improvement, a behaviour change, a kernel that failed */
	if (out.status != STATUS_MEASURED || out.behaviour_change ||
	    (out.decided && (out.verdict == VERDICT_REGRESSION || out.verdict == VERDICT_IMPROVEMENT))) {
		char *eml = NULL, *what;
		pb_err err;

		if (mail_answer_patch(pl->db, cfg, q, p, &eml, &err)) {
			what = xasprintf("mail %s", eml);
			t->mails++;
		} else {
			what = xasprintf("no mail: %s", err.msg);
		}
		note(t, p, what);
		free(what);
		free(eml);
	}
}

/* Tonight's comparisons as Slurm jobs ([executor] kind = slurm): what
 * nightly makes of each task, come home (or not). */
struct night {
	const struct pb_config *cfg;
	const struct pb_queue *q;
	const struct pipeline *pl;
	struct tally *t;
	long long *calibration;
};

/* Tonight's calibration task: its comparison the patches' noise floor. */
static void calibration_ended(struct night *n, const struct submit_task *k)
{
	if (k->imported) {
		*n->calibration = k->outcome.comparison;
		return;
	}
	printf("perfbot nightly: no calibration tonight (%s): the patches' noise "
	       "floors come from their own boots\n",
	       k->end == RUN_FAILED ? k->why : "see its job's output");
	n->t->failures++;
}

/* A patch's task: counted, noted, answered. */
static void patch_ended(struct night *n, const struct submit_task *k)
{
	char *where, *why;

	n->t->run++;
	if (k->end != RUN_DONE) {
		why = k->end == RUN_FAILED
			      ? xasprintf("its Slurm job was given up: %s", k->why)
			      : xstrdup("not measured: perfbot was stopped (its job cancelled)");
		note(n->t, k->patch, why);
		free(why);
		n->t->failures++;
		return;
	}
	if (!k->imported) {
		why = xasprintf("perfbot could not measure it on %s (exit %d; see %s)",
				k->node[0] ? k->node : "its node", k->exit_code, k->out);
		note(n->t, k->patch, why);
		free(why);
		n->t->failures++;
		return;
	}
	where = xasprintf(", on %s", k->node[0] ? k->node : "?");
	patch_outcome(n->cfg, n->q, n->pl, k->patch, &k->outcome, where, n->t);
	free(where);
}

/* Each task, once it came home or not (executor_submit_many). */
static void task_ended(void *ctx, const struct submit_task *k)
{
	if (k->request.kind == REQUEST_CALIBRATE)
		calibration_ended(ctx, k);
	else
		patch_ended(ctx, k);
}

/* The calibration, then every patch that runs tonight, as Slurm jobs in a
 * spool directory of tonight's; each patch's job starts from the
 * calibration's database, so that it is judged by the noise floor its
 * nodes' QEMU measured tonight (the QEMU build and CPU a calibration
 * counts for are the node's, not this machine's). Each bundle is imported
 * into results.db when the jobs have ended; a stop (SIGTERM, SIGINT)
 * cancels every job still queued or running. */
static bool nightly_slurm(const struct pb_config *cfg, const struct pb_queue *q, const struct cli *c,
			  struct pipeline *pl, char **names, int nnames, bool all, bool calibrate,
			  struct tally *t, long long *calibration)
{
	struct submit_task *k = xcalloc((size_t)q->npatches + 1, sizeof(*k));
	struct night night = { cfg, q, pl, t, calibration };
	struct submit how = { .overrides = c->overrides, .noverrides = c->noverrides,
			      .name = "nightly", .who = "perfbot nightly",
			      .task_ended = task_ended, .ctx = &night };
	int n = 1, first;
	enum run_end end;

	/* the patches first, at 1..: the calibration, at 0, only when one runs */
	for (int i = 0; i < q->npatches; i++) {
		const struct pb_patch *p = &q->patches[i];

		if (skipped_tonight(pl, q, p, all, t))
			continue;
		k[n++].request = (struct request){ .kind = REQUEST_PATCH, .number = p->number };
	}
	first = n > 1 && calibrate && nnames ? 0 : 1;
	k[0].request = (struct request){ .kind = REQUEST_CALIBRATE, .only = names, .nonly = nnames,
					 .per_side = cfg->calibrate_boots };
	k[0].seed_from = -1;
	for (int i = 1; i < n; i++)
		k[i].seed_from = first == 0 ? 0 : -1;
	end = executor_submit_many(cfg, q, pl->db, k + first, n - first, &how, &pl->err);
	for (int i = 0; i < n; i++)
		submit_task_free(&k[i]);
	free(k);
	return end == RUN_DONE;
}

/* The nightly table's row; its id into *nid. */
static bool store_summary(sqlite3 *db, const struct pb_queue *q, const struct pipeline *pl,
			  const struct tally *t, const char *started, long long calibration,
			  long long *nid, pb_err *err)
{
	char *finished = iso_time_now();
	struct db_nightly n = {
		.queue = q->dir, .started_at = started, .finished_at = finished,
		.wall_seconds = now_seconds() - pl->start, .perfbot_version = perfbot_version,
		.tree_sha256 = pl->tree.tarball_sha, .config_sha256 = pl->kc.sha256,
		.patches_run = t->run, .patches_skipped = t->skipped, .regressions = t->regressions,
		.behaviour_changes = t->behaviour, .failures = t->failures,
		.calibration = calibration, .summary = t->lines.buf ? t->lines.buf : "",
	};
	bool ok = db_store_nightly(db, &n, nid, err);

	free(finished);
	return ok;
}

/* The plan: the lock from start to end, the base tree and config the
 * patches are judged on, a calibration, every patch, the report. */
static int nightly(const struct pb_config *cfg, const struct pb_queue *q, const struct cli *c,
		   bool all, bool calibrate, bool recalibrate)
{
	struct pipeline pl;
	struct tally t = { 0 };
	char *started = iso_time_now(), *names[CLI_MAX_WORKLOADS];
	long long calibration = 0, nid = 0;
	int rc = PB_EXIT_ERROR, nnames, pages;

	str_init(&t.lines);
	pipeline_init(&pl, cfg);
	if (!db_lock(cfg->db_path, &pl.err) || !workloads_load(cfg->workloads_dir, &pl.wset, &pl.err) ||
	    !pipeline_prepare(&pl, &(struct prepare){ .stages = STAGE_TREE | STAGE_CONFIGURE }) ||
	    !db_open(cfg->db_path, &pl.db, &pl.err))
		goto fail;
	{
		char *dir = visible(q->dir), *version = visible(pl.tree.version);

		printf("perfbot nightly: queue %s, base %s, config %.16s, perfbot %s%s\n", dir, version,
		       pl.kc.sha256, perfbot_version, all ? ", every mm patch (--all)" : "");
		free(dir);
		free(version);
	}
	/* the calibration first: tonight's runs then use tonight's noise floor,
	 * which is last night's when nothing it measured has changed (the
	 * same base kernel, accelerator, config and workloads) */
	nnames = queue_workloads(&pl.wset, q, names, CLI_MAX_WORKLOADS);
	if (cfg->executor == EXECUTOR_SLURM) {
		if (!nightly_slurm(cfg, q, c, &pl, names, nnames, all, calibrate, &t, &calibration))
			goto fail;
	} else if (calibrate && nnames) {
		struct pipeline_outcome out;
		pb_err err;

		if (cli_run_status(pipeline_calibrate(cfg, q, names, nnames, cfg->calibrate_boots,
						      !recalibrate, &out, &err),
				   NULL, &err) != PB_EXIT_OK)
			t.failures++;
		calibration = out.comparison;
	}
	if (cfg->executor == EXECUTOR_LOCAL) {
		struct overlap o = { .cfg = cfg, .q = q, .pl = &pl, .all = all };

		for (o.i = 0; o.i < q->npatches; o.i++)
			nightly_patch(cfg, q, &pl, &q->patches[o.i], all, &t, &o);
		prebuild_finish(&o.build, NULL);
	}
	if (!report_write_all(pl.db, q, cfg->report_dir, &pages, &pl.err) ||
	    !store_summary(pl.db, q, &pl, &t, started, calibration, &nid, &pl.err))
		goto fail;
	printf("perfbot nightly %lld: %d patch(es) run, %d skipped; %d regression(s), %d behaviour "
	       "change(s), %d failure(s), %d mail(s); calibration %lld; report %s/index.html (%d "
	       "pages); %.0f s\n",
	       nid, t.run, t.skipped, t.regressions, t.behaviour, t.failures, t.mails, calibration,
	       cfg->report_dir, pages, now_seconds() - pl.start);
	rc = PB_EXIT_OK;
	goto out;
fail:
	cli_error("%s", pl.err.msg);
out:
	str_free(&t.lines);
	pipeline_free(&pl);
	free(started);
	return rc;
}

int cmd_nightly(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	bool all = false, no_calibrate = false, recalibrate = false;
	int rc;
	const struct pb_option opts[] = {
		OPT_BOOL('a', "all", &all, "run every mm patch, measured before or not"),
		OPT_BOOL(0, "no-calibrate", &no_calibrate, "skip the A/A calibration"),
		OPT_BOOL(0, "recalibrate", &recalibrate,
			 "calibrate even when the stored calibration still holds"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	if (recalibrate && no_calibrate) {
		cli_error("nightly: --recalibrate and --no-calibrate contradict each other");
		rc = PB_EXIT_USAGE;
		queue_free(&q);
		config_free(&cfg);
		goto out;
	}
	rc = nightly(&cfg, &q, &c, all, !no_calibrate, recalibrate);
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
