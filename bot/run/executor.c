/* perfbot's commands as Slurm jobs (executor.h). */
#include "executor.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "bundle.h"
#include "db.h"
#include "event.h"
#include "stop.h"
#include "version.h"

char *executor_perfbot(void)
{
	char *dir = exe_dir(), *perfbot = xasprintf("%s/perfbot", dir ? dir : "/usr/bin");

	free(dir);
	return perfbot;
}

/* The spool directories (and a bisect's starting databases) of commands
 * that wrote nothing for [executor] keep_days, removed: only names this
 * perfbot gives (<what>-<time>-<pid>[.db]). */
static void prune_spool(const struct pb_config *cfg, const char *root)
{
	DIR *d;
	struct dirent *e;
	time_t before = time(NULL) - (time_t)cfg->spool_keep_days * 86400;

	if (!cfg->spool_keep_days || !(d = opendir(root)))
		return;
	while ((e = readdir(d))) {
		struct stat st;
		char *path;

		if (fnmatch("*-[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]-[0-9][0-9]-[0-9][0-9]Z-[0-9]*",
			    e->d_name, 0))
			continue;
		path = xasprintf("%s/%s", root, e->d_name);
		if (lstat(path, &st) == 0 && st.st_mtime < before && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			rm_rf(path);
		free(path);
	}
	closedir(d);
}

char *executor_spool(const struct pb_config *cfg, const char *what)
{
	char *root = config_spool_dir(cfg), *stamp = iso_time_now(), *spool;

	prune_spool(cfg, root);

	for (char *p = stamp; *p; p++)
		if (*p == ':')
			*p = '-';
	spool = xasprintf("%s/%s-%s-%d", root, what, stamp, (int)getpid());
	free(stamp);
	free(root);
	return spool;
}

/* k's command line after perfbot's binary: cmd, then the same config file
 * and overrides as this command's (relative paths resolve as here: the job
 * starts in this directory), then what is the job's own, last so that it
 * wins: run locally, the queue q as this command read it (the nodes see
 * it), reports of its own in the spool. */
static void job_args(struct cluster_task *k, const struct pb_config *cfg,
		     char *const *overrides, int noverrides, const struct pb_queue *q,
		     const char *spool, char *const *cmd, int ncmd)
{
	int n = 0, cap = ncmd + 2 * noverrides + 10;

	k->args = xcalloc((size_t)cap + 1, sizeof(char *));
	for (int i = 0; i < ncmd; i++)
		k->args[n++] = xstrdup(cmd[i]);
	k->args[n++] = xstrdup("-C");
	k->args[n++] = xstrdup(cfg->path);
	for (int i = 0; i < noverrides; i++) {
		k->args[n++] = xstrdup("-c");
		k->args[n++] = xstrdup(overrides[i]);
	}
	k->args[n++] = xstrdup("-c");
	k->args[n++] = xstrdup("executor.kind=local");
	k->args[n++] = xstrdup("--queue");
	k->args[n++] = xstrdup(q->dir);
	k->args[n++] = xstrdup("--report-dir");
	k->args[n++] = xasprintf("%s/%s-reports", spool, k->name);
}

/* What the comparison of uid in db says, as run would have told it. */
static bool outcome_of(sqlite3 *db, const char *uid, struct pipeline_outcome *out)
{
	struct db_comparison_outcome o;
	bool found;

	memset(out, 0, sizeof(*out));
	if (!db_comparison_by_uid(db, uid, &o, &found, NULL) || !found)
		return false;
	out->comparison = o.id;
	out->status = o.status;
	out->decided = o.decided;
	out->verdict = o.verdict;
	out->behaviour_change = o.decided && o.behaviour == VERDICT_BEHAVIOUR_CHANGE;
	return true;
}

/* A done task's bundle into db (this process holds its lock); uid: the
 * newest comparison of kind it brought (or held). Says what it imported
 * (event_say), prefixed who. False, with err, if there was nothing to bring
 * or the bundle was refused (nothing of it stored). */
static bool import_bundle(sqlite3 *db, const struct pb_config *cfg, const struct cluster_task *k,
			  enum comparison_kind kind, const char *who, char uid[33], pb_err *err)
{
	struct bundle_outcome o;
	char *logs = xasprintf("%s/logs", cfg->report_dir);
	bool ok = false;

	uid[0] = '\0';
	if (!k->db || !path_exists(k->db))
		pb_seterr(err, "its job stored nothing");
	else if (bundle_import(db, k->db, perfbot_version, logs, &o, err))
		ok = true;
	if (ok) {
		bundle_newest_uid(k->db, kind, uid);
		event_say("%s: %s: imported %d comparison(s)%s of its bundle, %d log(s)\n", who, k->name,
			  o.imported, o.bisects ? " and its bisect" : "", o.logs);
		if (!uid[0]) {
			pb_seterr(err, "its bundle %s holds no %s comparison", k->db, comparison_kind_name(kind));
			ok = false;
		}
	}
	free(logs);
	return ok;
}

/* The job's output (what perfbot said on its node), as it was. */
static void show_output(const struct cluster_task *k)
{
	size_t len = 0;
	char *text = k->out ? read_file(k->out, &len, NULL) : NULL;

	event_say("perfbot: --- the output of Slurm job %ld (%s, on %s) ---\n", k->job, k->out ? k->out : "?",
		  k->node[0] ? k->node : "?");
	if (text && len) {
		event_write(EVENT_SAY, text, len);
		if (text[len - 1] != '\n')
			event_say("\n");
	}
	event_say("perfbot: --- end of its output ---\n");
	free(text);
}

/* The n jobs of k, watched to their end (cluster_run). Without a stop
 * of the caller's, SIGTERM and SIGINT stop them, and only for as long as
 * they run: their handlers are put back after. *stopped: whether a stop
 * came. */
static bool watch_jobs(const struct pb_config *cfg, const char *spool, const char *perfbot,
		       struct cluster_task *k, int n, volatile sig_atomic_t *caller_stop,
		       bool *stopped, pb_err *err)
{
	volatile sig_atomic_t *stop = caller_stop ? caller_stop : &stop_requested;
	struct stop_saved saved;
	bool ok;

	if (!caller_stop) {
		stop_requested = 0;
		stop_catch(&saved);
	}
	ok = cluster_run(cfg, spool, perfbot, k, n, 2, stop, err);
	if (!caller_stop)
		stop_release(&saved);
	*stopped = *stop != 0;
	return ok;
}

/* The bundle of k, a job done, brought home into results.db with one's
 * patch, and the pages of its answer written. RUN_DONE, saying where
 * the answer is; RUN_FAILED (err) when it did not come home or its
 * pages could not be written. */
static enum run_end bring_home(const struct pb_config *cfg, const struct pb_queue *q,
			       struct executor_one *one, const struct cluster_task *k, pb_err *err)
{
	sqlite3 *db = NULL;
	char uid[33], *page = NULL;
	enum run_end rc = RUN_FAILED;
	struct pipeline_outcome o;

	/* the job is done: its answer is brought home even if a stop comes now */
	if (!db_lock_wait(cfg->db_path, NULL, err) || !db_open(cfg->db_path, &db, err) ||
	    (one->patch && !db_store_patch(db, one->patch, q->dir, NULL, err)) ||
	    !import_bundle(db, cfg, k, one->kind, "perfbot", uid, err)) {
		pb_err why = *err;

		pb_seterr(err, "%s: its bundle %s did not come home: %s", one->name, k->db ? k->db : "?",
			  why.msg);
		goto out;
	}
	if (outcome_of(db, uid, &o)) {
		one->comparison = o.comparison;
		one->outcome = o;
	}
	/* the patches' pages and the index, and the answer's page (a series',
	 * which shows its bisect) */
	if (one->show && one->show->imported_pages &&
	    !one->show->imported_pages(db, q, cfg->report_dir,
				       one->page_of ? one->page_of : one->comparison, &page, err))
		goto out;
	event_say("perfbot: %s: Slurm job %ld on %s: exit %d; comparison %lld here; report %s\n", one->name,
		  k->job, k->node[0] ? k->node : "?", k->exit_code, one->comparison,
		  page ? page : cfg->report_dir);
	one->exit_code = k->exit_code;
	rc = RUN_DONE;
out:
	free(page);
	db_close(db);
	return rc;
}

enum run_end executor_run_one(const struct pb_config *cfg, const struct pb_queue *q,
			      struct executor_one *one, pb_err *err)
{
	char *spool = executor_spool(cfg, one->name), *perfbot = executor_perfbot();
	struct cluster_task k = { .name = xstrdup(one->name), .seed_from = -1, .seed = one->seed };
	enum run_end rc = RUN_FAILED;
	bool ok, stopped;

	err->msg[0] = '\0';
	one->exit_code = -1;
	one->seed = NULL;
	one->comparison = 0;
	one->node[0] = '\0';
	job_args(&k, cfg, one->overrides, one->noverrides, q, spool, one->cmd, one->ncmd);
	{
		char *v = visible(spool);

		event_say("perfbot: %s as a Slurm job ([executor] kind = slurm), spool %s\n", one->name, v);
		free(v);
	}
	event_flush(EVENT_SAY);
	ok = watch_jobs(cfg, spool, perfbot, &k, 1, one->stop, &stopped, err);
	snprintf(one->node, sizeof(one->node), "%s", k.node);
	if (!k.attempts) {
		/* nothing submitted (Slurm or [executor] wrong): no spool left */
		rm_rf(spool);
		goto out;
	}
	if (k.out && path_exists(k.out))
		show_output(&k);
	if (!ok || k.state == TASK_CANCELLED) {
		pb_seterr(err, "%s: stopped; its Slurm job %ld cancelled, nothing of it stored", one->name,
			  k.job);
		/* perfbotd's job stays queued; a command stopped by hand failed */
		rc = one->stop ? RUN_STOPPED : RUN_FAILED;
		goto out;
	}
	if (k.state != TASK_DONE) {
		pb_seterr(err, "%s: its Slurm job was given up: %s", one->name, k.why);
		goto out;
	}
	/* perfbot refused it on the node (bad input, nothing to measure): its
	 * output said why, and there is nothing to bring */
	if (!pb_exit_answered(k.exit_code) &&
	    (!k.db || !path_exists(k.db) || !bundle_check(k.db, perfbot_version, err))) {
		event_say("perfbot: %s: Slurm job %ld on %s: exit %d, nothing stored (its output says why)\n",
			  one->name, k.job, k.node[0] ? k.node : "?", k.exit_code);
		err->msg[0] = '\0';
		one->exit_code = k.exit_code;
		rc = RUN_DONE;
		goto out;
	}
	/* it ran, and found nothing to measure (not an mm patch) */
	if (k.exit_code == 0 && (!k.db || !path_exists(k.db))) {
		event_say("perfbot: %s: Slurm job %ld on %s: exit 0, nothing to measure\n", one->name, k.job,
			  k.node[0] ? k.node : "?");
		one->exit_code = 0;
		rc = RUN_DONE;
		goto out;
	}
	rc = bring_home(cfg, q, one, &k, err);
out:
	cluster_task_free(&k);
	free(perfbot);
	free(spool);
	return rc;
}

static enum run_end submit_here(const struct pb_config *cfg, const struct pb_queue *q,
				const struct request *r, const struct submit *how,
				struct submitted *out, pb_err *err)
{
	struct run_request rq = {
		.number = r->number, .only = (char **)r->only, .nonly = r->nonly,
		.force = r->force, .series = r->kind == REQUEST_SERIES, .mm_only = r->mm_only,
		.all = r->all, .job_id = how->job_id, .stop = how->stop,
		.boots_begin = how->boots_begin, .ctx = how->ctx, .show = how->show,
	};
	struct bisect_request brq = { .series_cid = r->comparison, .metric = r->metric,
				      .show = how->show };

	switch (r->kind) {
	case REQUEST_PATCH:
		return pipeline_run_patch(cfg, q, &rq, &out->outcome, err);
	case REQUEST_SERIES:
		return pipeline_run_series(cfg, q, &rq, &out->outcome, err);
	case REQUEST_BISECT:
		return pipeline_bisect(cfg, q, &brq, err);
	case REQUEST_CALIBRATE:
		return pipeline_calibrate(cfg, q, (char **)r->only, r->nonly,
					  r->per_side ? r->per_side : cfg->calibrate_boots, false,
					  &out->outcome, err);
	}
	pb_seterr(err, "a request of no kind perfbot knows (%d)", (int)r->kind);
	return RUN_FAILED;
}

/* The kind of comparison that answers r; its job's name into name: a
 * patch's number ("765"), else what it is ("series", "calibration"). */
static enum comparison_kind job_of(const struct request *r, char name[16])
{
	static const struct {
		const char *name;
		enum comparison_kind kind;
	} of[] = {
		[REQUEST_PATCH] = { NULL, KIND_PATCH },
		[REQUEST_SERIES] = { "series", KIND_SERIES },
		[REQUEST_BISECT] = { "bisect", KIND_BISECT },
		[REQUEST_CALIBRATE] = { NULL, KIND_CALIBRATION },
	};

	if (r->kind == REQUEST_PATCH)
		snprintf(name, 16, "%03d", r->number);
	else if (r->kind == REQUEST_CALIBRATE)
		snprintf(name, 16, "%s", comparison_kind_name(KIND_CALIBRATION));
	else
		snprintf(name, 16, "%s", of[r->kind].name);
	return of[r->kind].kind;
}

static enum run_end submit_slurm(const struct pb_config *cfg, const struct pb_queue *q,
				 const struct request *r, const struct submit *how,
				 struct submitted *out, pb_err *err)
{
	struct executor_one one = { .overrides = how->overrides, .noverrides = how->noverrides,
				    .page_of = how->page_of, .stop = how->stop, .show = how->show };
	char name[16], **argv;
	enum run_end end;

	one.kind = job_of(r, name);
	one.name = how->name ? how->name : name;
	if (r->kind == REQUEST_PATCH) {
		one.patch = queue_patch(q, r->number, err);
		if (!one.patch)
			return RUN_FAILED;
		/* said here, as run says it: there is nothing to measure */
		if (!one.patch->is_mm && !r->force)
			return submit_here(cfg, q, r, how, out, err);
	}
	argv = request_argv(r, &one.ncmd);
	one.cmd = argv;
	one.seed = how->seed ? xstrdup(how->seed) : NULL; /* the job's to free */
	end = executor_run_one(cfg, q, &one, err);
	out->exit_code = one.exit_code;
	snprintf(out->node, sizeof(out->node), "%s", one.node);
	if (one.comparison)
		out->outcome = one.outcome;
	request_argv_free(argv);
	return end;
}

enum run_end executor_submit(const struct pb_config *cfg, const struct pb_queue *q,
			     const struct request *r, const struct submit *how,
			     struct submitted *out, pb_err *err)
{
	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	err->msg[0] = '\0';
	if (cfg->executor == EXECUTOR_SLURM)
		return submit_slurm(cfg, q, r, how, out, err);
	return submit_here(cfg, q, r, how, out, err);
}

void submit_task_free(struct submit_task *t)
{
	free(t->out);
	t->out = NULL;
}

/* The n tasks made ready, each one's job in k: its request's command
 * line (request_argv) with this command's settings, in spool; a patch
 * request's patch looked up in q. False (err) if one is not there, or a
 * task starts from one that is not another of them. */
static bool many_jobs(const struct pb_config *cfg, const struct pb_queue *q,
		      const struct submit *how, const char *spool, struct submit_task *t,
		      struct cluster_task *k, int n, pb_err *err)
{
	for (int i = 0; i < n; i++) {
		struct request r = t[i].request;
		int from = t[i].seed_from, ncmd;
		char name[16], **argv;

		memset(&t[i], 0, sizeof(t[i]));
		t[i].request = r;
		t[i].seed_from = from;
		t[i].end = RUN_STOPPED;
		if (from < -1 || from >= n || from == i) {
			pb_seterr(err, "task %d of %d starts from task %d", i, n, from);
			return false;
		}
		if (r.kind == REQUEST_PATCH && !(t[i].patch = queue_patch(q, r.number, err)))
			return false;
		job_of(&r, name);
		k[i].name = xstrdup(name);
		k[i].seed_from = from;
		argv = request_argv(&r, &ncmd);
		job_args(&k[i], cfg, how->overrides, how->noverrides, q, spool, argv, ncmd);
		request_argv_free(argv);
	}
	return true;
}

/* Whether any of the n jobs of k was ever submitted. */
static bool any_submitted(const struct cluster_task *k, int n)
{
	for (int i = 0; i < n; i++)
		if (k[i].attempts > 0)
			return true;
	return false;
}

/* Task t, its job k watched to its end or stopped: how it ended, and
 * the bundle of a job that ran to its end imported into db. A patch's
 * row goes in first: the import maps the node's copy (number and hash)
 * onto it, so that the comparison is this queue's patch's, and counts
 * as measured the next night. */
static void task_home(const struct pb_config *cfg, const struct pb_queue *q, sqlite3 *db,
		      const char *who, struct submit_task *t, const struct cluster_task *k)
{
	char name[16], uid[33];
	enum comparison_kind kind = job_of(&t->request, name);
	pb_err e;

	t->end = k->state == TASK_DONE ? RUN_DONE
		 : k->state == TASK_GAVE_UP ? RUN_FAILED : RUN_STOPPED;
	snprintf(t->why, sizeof(t->why), "%s", k->why);
	snprintf(t->node, sizeof(t->node), "%s", k->node);
	t->exit_code = k->exit_code;
	t->out = k->out ? xstrdup(k->out) : NULL;
	if (t->end != RUN_DONE || (t->patch && !db_store_patch(db, t->patch, q->dir, NULL, &e)))
		return;
	if (!import_bundle(db, cfg, k, kind, who, uid, &e)) {
		char *v = visible(e.msg);

		event_say("%s: %s: nothing to import from %s: %s\n", who, k->name,
			  k->db ? k->db : "?", v);
		free(v);
		return;
	}
	t->imported = outcome_of(db, uid, &t->outcome);
}

enum run_end executor_submit_many(const struct pb_config *cfg, const struct pb_queue *q,
				  sqlite3 *db, struct submit_task *t, int n,
				  const struct submit *how, pb_err *err)
{
	const char *who = how->who ? how->who : "perfbot";
	char *spool = executor_spool(cfg, how->name ? how->name : "many");
	char *perfbot = executor_perfbot();
	struct cluster_task *k = xcalloc((size_t)n + 1, sizeof(*k));
	enum run_end end = RUN_FAILED;
	bool ok = true, stopped = false;

	err->msg[0] = '\0';
	if (!many_jobs(cfg, q, how, spool, t, k, n, err))
		goto out;
	if (n > 0) {
		char *v = visible(spool);

		event_say("%s: %d job(s) for Slurm (at most %d at once), spool %s\n", who, n,
			  cfg->slurm_max_jobs, v);
		free(v);
		ok = watch_jobs(cfg, spool, perfbot, k, n, how->stop, &stopped, err);
	}
	end = ok ? RUN_DONE : stopped ? RUN_STOPPED : RUN_FAILED;
	/* nothing submitted (Slurm or [executor] wrong): nothing to bring
	 * home, no spool left behind */
	if (!ok && !any_submitted(k, n)) {
		rm_rf(spool);
		goto out;
	}
	/* what ended comes home, even after a stop (whose error is kept) */
	for (int i = 0; i < n; i++) {
		task_home(cfg, q, db, who, &t[i], &k[i]);
		if (how->task_ended)
			how->task_ended(how->ctx, &t[i]);
	}
out:
	for (int i = 0; i < n; i++)
		cluster_task_free(&k[i]);
	free(k);
	free(perfbot);
	free(spool);
	return end;
}
