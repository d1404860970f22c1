/* Comparisons as Slurm jobs: cluster_run's loop of sbatch, scontrol and
 * scancel (see cluster.h). What each job state means is slurm.c's. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "event.h"
#include "slurm.h"
#include "util.h"
#include "version.h"

const char cluster_job_script[] =
	"#!/bin/sh\n"
	"# A perfbot comparison as a Slurm job, written by perfbot: sbatch gives\n"
	"# it its arguments. $1 perfbot, $2 the job's own database, $3 a database\n"
	"# to start from (\"\" none: the calibration it is judged with), then\n"
	"# perfbot's command. The database is then made a bundle that carries its\n"
	"# boots' logs (perfbot bundle), for perfbot import. Exit status: perfbot's,\n"
	"# or 1 when the database to start from could not be copied or an ok run's\n"
	"# logs could not be packed.\n"
	"perfbot=$1 db=$2 seed=$3\n"
	"shift 3\n"
	"rm -f \"$db\" \"$db-wal\" \"$db-shm\"\n"
	"if [ -n \"$seed\" ]; then\n"
	"\t\"$perfbot\" bundle --start-from \"$seed\" \"$db\" || exit 1\n"
	"fi\n"
	"echo \"perfbot job $SLURM_JOB_ID on $(hostname): $*\"\n"
	"\"$perfbot\" \"$@\" --db \"$db\"\n"
	"rc=$?\n"
	"if [ -f \"$db\" ]; then\n"
	"\t\"$perfbot\" bundle \"$db\" || [ \"$rc\" -ne 0 ] || rc=1\n"
	"fi\n"
	"exit \"$rc\"\n";

void cluster_task_free(struct cluster_task *t)
{
	free(t->name);
	for (char **a = t->args; a && *a; a++)
		free(*a);
	free(t->args);
	free(t->db);
	free(t->out);
	free(t->seed);
	memset(t, 0, sizeof(*t));
}

#define REFUSALS_MAX 3
#define REFUSAL_WAIT 30.0

/* sbatch's job id in its --parsable output: the last line that is one
 * ("ID" or "ID;cluster"); warnings may come before it. 0 if none. */
static long parse_job_id(const char *out)
{
	long id = 0;

	for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char *end;
		long v = strtol(line, &end, 10);

		if (v > 0 && end != line && (*end == '\n' || *end == ';' || *end == '\0'))
			id = v;
	}
	return id;
}

/* sbatch for task i, as attempt attempts + 1; its job id into t[i].job.
 * False with err (sbatch's last line) when refused. */
static bool submit(const struct pb_config *cfg, const char *spool, const char *script,
		   const char *perfbot, const char *cwd, struct cluster_task *t, int i, pb_err *err)
{
	struct cluster_task *k = &t[i];
	const char *seed = k->seed_from >= 0 && t[k->seed_from].state == TASK_DONE &&
					   t[k->seed_from].db && path_exists(t[k->seed_from].db)
				   ? t[k->seed_from].db
			   : k->seed ? k->seed
				   : "";
	const char *seed_name = k->seed_from >= 0 ? t[k->seed_from].name : "what it needs from here";
	int nargs = 0, status = -1;
	char **args, **argv, *name = xasprintf("perfbot-%s", k->name);
	pb_str out;
	bool ok;

	free(k->db);
	free(k->out);
	k->db = xasprintf("%s/%s-%d.db", spool, k->name, k->attempts + 1);
	k->out = xasprintf("%s/%s-%d.out", spool, k->name, k->attempts + 1);
	for (char **a = k->args; a && *a; a++)
		nargs++;
	args = xcalloc((size_t)nargs + 4, sizeof(char *));
	args[0] = (char *)perfbot;
	args[1] = k->db;
	args[2] = (char *)seed;
	for (int a = 0; a < nargs; a++)
		args[3 + a] = k->args[a];
	argv = slurm_sbatch_argv(cfg, name, k->out, cwd, script, args);
	str_init(&out);
	ok = spawn_capture(argv, NULL, true, &out, &status) && status == 0 &&
	     (k->job = parse_job_id(out.buf)) > 0;
	if (!ok) {
		/* sbatch's last line says why ("sbatch: error: invalid partition ...") */
		char *text = out.buf ? trim(out.buf) : "", *nl = strrchr(text, '\n');
		char *v = visible(nl ? nl + 1 : text);

		pb_seterr(err, "sbatch refused the job of %s (exit %d): %s", k->name, status, v);
		free(v);
	} else {
		k->attempts++;
		k->refusals = 0;
		k->state = TASK_ACTIVE;
		event_say("perfbot: %s: Slurm job %ld submitted (attempt %d)%s%s\n", k->name, k->job,
			  k->attempts, seed[0] ? ", starting from " : "", seed[0] ? seed_name : "");
	}
	str_free(&out);
	slurm_argv_free(argv);
	free(args);
	free(name);
	return ok;
}

enum job_seen { SEEN_KNOWN, SEEN_UNKNOWN, SEEN_NO_ANSWER };

/* What scontrol says of job id now: known (into *job), unknown to it
 * ("Invalid job id": past MinJobAge, or lost), or no answer (slurmctld
 * down or busy: ask again, it says nothing of the job). */
static enum job_seen job_state(long id, struct slurm_job *job)
{
	char num[32];
	char *argv[] = { "scontrol", "-o", "show", "job", num, NULL };
	pb_str out;
	int status = -1;
	enum job_seen seen = SEEN_NO_ANSWER;

	snprintf(num, sizeof(num), "%ld", id);
	str_init(&out);
	if (spawn_capture(argv, NULL, true, &out, &status) && out.buf) {
		if (status == 0 && slurm_parse_job(out.buf, job))
			seen = SEEN_KNOWN;
		else if (strstr(out.buf, "Invalid job id"))
			seen = SEEN_UNKNOWN;
	}
	str_free(&out);
	return seen;
}

/* scancel of every job of ids, in one call. */
static void cancel(const long *ids, int n)
{
	char **argv = xcalloc((size_t)n + 2, sizeof(char *));
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "", .timeout = 30 };
	struct spawn_result r;

	argv[0] = xstrdup("scancel");
	for (int i = 0; i < n; i++)
		argv[1 + i] = xasprintf("%ld", ids[i]);
	if (n)
		spawn_wait(argv, &o, &r);
	for (int i = 0; i <= n; i++)
		free(argv[i]);
	free(argv);
}

static void cancel_one(long id)
{
	cancel(&id, 1);
}

static void nap(double seconds)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (long)seconds) * 1e9) };

	nanosleep(&ts, NULL);
}

/* Whether task i may be submitted now: waiting, past its wait after a
 * refusal, and what it starts from settled. */
static bool ready(const struct cluster_task *t, int i, double now)
{
	int s = t[i].seed_from;

	return t[i].state == TASK_WAITING && now >= t[i].not_before &&
	       (s < 0 || t[s].state == TASK_DONE || t[s].state == TASK_GAVE_UP);
}

/* What follows job of task k in the state scontrol gave; false while it
 * is under way. */
static bool settle(const struct pb_config *cfg, struct cluster_task *k, const struct slurm_job *job)
{
	enum slurm_next next = slurm_next(job, k->attempts, cfg->slurm_resubmits);
	size_t at;
	pb_err e;

	if (next == SLURM_WAIT)
		return false;
	/* exit 1 after it stored comparisons of its own (a series whose
	 * bisect could not go on, a bisect stopped at a step): perfbot's
	 * answer with an error after it, not a node's fault to run again */
	if (next == SLURM_RESUBMIT && !strcmp(job->state, "FAILED") && job->exit_code == 1 &&
	    !job->signal && k->db && bundle_check(k->db, perfbot_version, &e))
		next = SLURM_DONE;
	snprintf(k->node, sizeof(k->node), "%s", job->node);
	if (next == SLURM_DONE) {
		k->state = TASK_DONE;
		k->exit_code = job->exit_code;
		event_say("perfbot: %s: Slurm job %ld on %s ended, %s, exit %d\n", k->name, k->job,
			  job->node[0] ? job->node : "?", job->state, job->exit_code);
		return true;
	}
	at = strlen(k->why);
	snprintf(k->why + at, sizeof(k->why) - at, "%sjob %ld %s (%s)", at ? "; " : "", k->job,
		 job->state, job->reason);
	/* a held job stays in the queue until cancelled */
	cancel_one(k->job);
	if (next == SLURM_RESUBMIT) {
		event_say("perfbot: %s: Slurm job %ld %s (%s), outside perfbot: submitted again\n", k->name,
			  k->job, job->state, job->reason);
		k->state = TASK_WAITING;
		return false;
	}
	event_say("perfbot: %s: Slurm job %ld %s (%s), %d submission(s): given up\n", k->name, k->job,
		  job->state, job->reason, k->attempts);
	k->state = TASK_GAVE_UP;
	return true;
}

/* sbatch refused task k, after others of its run went through: it waits
 * longer each time and tries again, until REFUSALS_MAX. True when that
 * was its last: given up. */
static bool refused(struct cluster_task *k, const pb_err *err)
{
	size_t at;

	event_say("perfbot: %s: %s\n", k->name, err->msg);
	if (++k->refusals < REFUSALS_MAX) {
		k->not_before = now_seconds() + REFUSAL_WAIT * k->refusals;
		return false;
	}
	at = strlen(k->why);
	snprintf(k->why + at, sizeof(k->why) - at, "%s%s", at ? "; " : "", err->msg);
	k->state = TASK_GAVE_UP;
	return true;
}

/* What scontrol says now of each job under way, each that ended settled;
 * how many did. One it no longer knows of has failed (NODE_FAIL) once
 * it was asked ten times. */
static int poll_active(const struct pb_config *cfg, struct cluster_task *t, int n,
		       volatile sig_atomic_t *stop)
{
	int ended = 0;

	for (int i = 0; i < n && !(stop && *stop); i++) {
		struct slurm_job job;
		enum job_seen seen;

		if (t[i].state != TASK_ACTIVE)
			continue;
		seen = job_state(t[i].job, &job);
		if (seen == SEEN_NO_ANSWER)
			continue;
		if (seen == SEEN_UNKNOWN) {
			/* forgotten: ended long ago, or slurmctld lost it */
			if (++t[i].unseen < 10)
				continue;
			memset(&job, 0, sizeof(job));
			snprintf(job.state, sizeof(job.state), "NODE_FAIL");
			snprintf(job.reason, sizeof(job.reason), "unknown to scontrol");
		}
		t[i].unseen = 0;
		ended += settle(cfg, &t[i], &job);
	}
	return ended;
}

/* perfbot stopped: every job under way cancelled, in one scancel. */
static void cancel_active(struct cluster_task *t, int n)
{
	long *ids = xcalloc((size_t)n + 1, sizeof(long));
	int nids = 0;

	for (int i = 0; i < n; i++)
		if (t[i].state == TASK_ACTIVE) {
			ids[nids++] = t[i].job;
			t[i].state = TASK_CANCELLED;
			event_say("perfbot: %s: Slurm job %ld cancelled (perfbot stopped)\n", t[i].name,
				  t[i].job);
		}
	cancel(ids, nids);
	free(ids);
}

bool cluster_run(const struct pb_config *cfg, const char *spool, const char *perfbot,
		 struct cluster_task *t, int n, double poll, volatile sig_atomic_t *stop, pb_err *err)
{
	char *script = xasprintf("%s/job.sh", spool), *cwd = getcwd(NULL, 0);
	int open = n, submitted = 0;
	bool ok = mkdir_p(spool, err) &&
		  write_file_atomic(script, cluster_job_script, strlen(cluster_job_script), err);

	for (int i = 0; i < n; i++)
		t[i].state = TASK_WAITING;
	while (ok && open > 0 && !(stop && *stop)) {
		int active = 0;

		for (int i = 0; i < n; i++)
			active += t[i].state == TASK_ACTIVE;
		for (int i = 0; i < n && active < cfg->slurm_max_jobs && !(stop && *stop); i++) {
			if (!ready(t, i, now_seconds()))
				continue;
			if (submit(cfg, spool, script, perfbot, cwd, t, i, err)) {
				active++;
				submitted++;
				continue;
			}
			/* the first refusal of all: Slurm or [executor] is wrong */
			if (!submitted) {
				ok = false;
				break;
			}
			open -= refused(&t[i], err);
		}
		if (!ok)
			break;
		nap(poll);
		open -= poll_active(cfg, t, n, stop);
		event_flush(EVENT_SAY);
	}
	/* a stop once every job had ended has nothing to cancel */
	if (stop && *stop && open > 0) {
		cancel_active(t, n);
		pb_seterr(err, "stopped: every Slurm job of it cancelled");
		ok = false;
	}
	free(cwd);
	free(script);
	return ok;
}
