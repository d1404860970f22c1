/* Comparisons as Slurm jobs: cluster_run's loop of sbatch, scontrol and
 * scancel (see cluster.h). What each job state means is slurm.c's. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm.h"
#include "util.h"

const char cluster_job_script[] =
	"#!/bin/sh\n"
	"# A perfbot comparison as a Slurm job, written by perfbot: sbatch gives\n"
	"# it its arguments. $1 perfbot, $2 the job's own database, $3 a database\n"
	"# to start from (\"\" none: the calibration it is judged with), then\n"
	"# perfbot's command. The database is then made a bundle that carries its\n"
	"# boots' logs (perfbot bundle), for perfbot import. Exit status: perfbot's.\n"
	"perfbot=$1 db=$2 seed=$3\n"
	"shift 3\n"
	"rm -f \"$db\" \"$db-wal\" \"$db-shm\"\n"
	"if [ -n \"$seed\" ]; then\n"
	"\tcp \"$seed\" \"$db\" || exit 1\n"
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
	memset(t, 0, sizeof(*t));
}

/* sbatch for task i; its job id into t[i].job. */
static bool submit(const struct pb_config *cfg, const char *script, const char *perfbot,
		   struct cluster_task *t, int i, pb_err *err)
{
	struct cluster_task *k = &t[i];
	const char *seed = k->seed_from >= 0 && t[k->seed_from].state == TASK_DONE &&
					   path_exists(t[k->seed_from].db)
				   ? t[k->seed_from].db
				   : "";
	int nargs = 0, status = -1;
	char **args, **argv, *name = xasprintf("perfbot-%s", k->name);
	pb_str out;
	bool ok;

	for (char **a = k->args; a && *a; a++)
		nargs++;
	args = xcalloc((size_t)nargs + 4, sizeof(char *));
	args[0] = (char *)perfbot;
	args[1] = k->db;
	args[2] = (char *)seed;
	for (int a = 0; a < nargs; a++)
		args[3 + a] = k->args[a];
	argv = slurm_sbatch_argv(cfg, name, k->out, script, args);
	str_init(&out);
	ok = spawn_capture(argv, NULL, true, &out, &status) && status == 0;
	if (ok) {
		/* --parsable: "ID" or "ID;cluster" */
		k->job = strtol(out.buf ? out.buf : "", NULL, 10);
		ok = k->job > 0;
	}
	if (!ok) {
		/* sbatch's last line says why ("sbatch: error: invalid partition ...") */
		char *text = out.buf ? trim(out.buf) : "", *nl = strrchr(text, '\n');
		char *v = visible(nl ? nl + 1 : text);

		pb_seterr(err, "sbatch refused the job of %s (exit %d): %s", k->name, status, v);
		free(v);
	} else {
		k->attempts++;
		k->state = TASK_ACTIVE;
		printf("perfbot: %s: Slurm job %ld submitted (attempt %d)%s%s\n", k->name, k->job,
		       k->attempts, seed[0] ? ", starting from " : "", seed[0] ? t[k->seed_from].name : "");
	}
	str_free(&out);
	slurm_argv_free(argv);
	free(args);
	free(name);
	return ok;
}

/* What scontrol says of job id now; false if it knows nothing of it. */
static bool job_state(long id, struct slurm_job *job)
{
	char num[32];
	char *argv[] = { "scontrol", "-o", "show", "job", num, NULL };
	pb_str out;
	int status = -1;
	bool ok;

	snprintf(num, sizeof(num), "%ld", id);
	str_init(&out);
	ok = spawn_capture(argv, NULL, false, &out, &status) && status == 0 && out.buf &&
	     slurm_parse_job(out.buf, job);
	str_free(&out);
	return ok;
}

static void cancel(long id)
{
	char num[32];
	char *argv[] = { "scancel", num, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "", .timeout = 30 };
	struct spawn_result r;

	snprintf(num, sizeof(num), "%ld", id);
	spawn_wait(argv, &o, &r);
}

static void nap(double seconds)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (long)seconds) * 1e9) };

	nanosleep(&ts, NULL);
}

/* Whether task i may be submitted now: waiting, and what it starts from
 * settled. */
static bool ready(const struct cluster_task *t, int i)
{
	int s = t[i].seed_from;

	return t[i].state == TASK_WAITING &&
	       (s < 0 || t[s].state == TASK_DONE || t[s].state == TASK_GAVE_UP);
}

bool cluster_run(const struct pb_config *cfg, const char *spool, const char *perfbot,
		 struct cluster_task *t, int n, double poll, volatile sig_atomic_t *stop, pb_err *err)
{
	char *script = xasprintf("%s/job.sh", spool);
	int open = n;
	bool ok = mkdir_p(spool, err) &&
		  write_file_atomic(script, cluster_job_script, strlen(cluster_job_script), err);

	for (int i = 0; i < n; i++) {
		t[i].db = xasprintf("%s/%s.db", spool, t[i].name);
		t[i].out = xasprintf("%s/%s.out", spool, t[i].name);
		t[i].state = TASK_WAITING;
	}
	while (ok && open > 0) {
		int active = 0;

		if (stop && *stop)
			break;
		for (int i = 0; i < n; i++)
			active += t[i].state == TASK_ACTIVE;
		for (int i = 0; ok && i < n && active < cfg->slurm_max_jobs; i++)
			if (ready(t, i) && (ok = submit(cfg, script, perfbot, t, i, err)))
				active++;
		if (!ok)
			break;
		nap(poll);
		for (int i = 0; i < n && !(stop && *stop); i++) {
			struct slurm_job job;
			enum slurm_next next;

			if (t[i].state != TASK_ACTIVE)
				continue;
			if (!job_state(t[i].job, &job)) {
				/* gone from scontrol (past MinJobAge, or slurmctld
				 * restarted): ask again, then count it lost */
				if (++t[i].unseen < 10)
					continue;
				snprintf(job.state, sizeof(job.state), "NODE_FAIL");
				snprintf(job.reason, sizeof(job.reason), "unknown to scontrol");
				job.node[0] = '\0';
				job.exit_code = job.signal = 0;
			}
			t[i].unseen = 0;
			next = slurm_next(&job, t[i].attempts, cfg->slurm_resubmits);
			if (next == SLURM_WAIT)
				continue;
			snprintf(t[i].node, sizeof(t[i].node), "%s", job.node);
			if (next == SLURM_DONE) {
				t[i].state = TASK_DONE;
				t[i].exit_code = job.exit_code;
				open--;
				printf("perfbot: %s: Slurm job %ld on %s ended, %s, exit %d\n", t[i].name,
				       t[i].job, job.node[0] ? job.node : "?", job.state, job.exit_code);
				continue;
			}
			{
				size_t at = strlen(t[i].why);

				snprintf(t[i].why + at, sizeof(t[i].why) - at, "%sjob %ld %s (%s)",
					 at ? "; " : "", t[i].job, job.state, job.reason);
			}
			if (next == SLURM_RESUBMIT) {
				printf("perfbot: %s: Slurm job %ld ended %s (%s), outside perfbot: submitted "
				       "again\n", t[i].name, t[i].job, job.state, job.reason);
				t[i].state = TASK_WAITING;
			} else {
				printf("perfbot: %s: Slurm job %ld ended %s (%s), %d submission(s): given up\n",
				       t[i].name, t[i].job, job.state, job.reason, t[i].attempts);
				t[i].state = TASK_GAVE_UP;
				open--;
			}
		}
		fflush(stdout);
	}
	if (stop && *stop) {
		for (int i = 0; i < n; i++)
			if (t[i].state == TASK_ACTIVE) {
				cancel(t[i].job);
				t[i].state = TASK_CANCELLED;
				printf("perfbot: %s: Slurm job %ld cancelled (perfbot stopped)\n", t[i].name,
				       t[i].job);
			}
		pb_seterr(err, "stopped: every Slurm job of it cancelled");
		ok = false;
	} else if (!ok) {
		for (int i = 0; i < n; i++)
			if (t[i].state == TASK_ACTIVE)
				cancel(t[i].job);
	}
	free(script);
	return ok;
}
