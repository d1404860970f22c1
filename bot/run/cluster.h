/* Comparisons run as Slurm jobs: each task a perfbot command that a node
 * runs into a database of its own, made a bundle that carries its logs;
 * submitted, watched, resubmitted when it ended for a reason outside
 * perfbot, cancelled when perfbot is stopped. The caller imports the
 * bundles. */
#ifndef PERFBOT_CLUSTER_H
#define PERFBOT_CLUSTER_H

#include <signal.h>
#include <stdbool.h>

#include "config.h"

enum task_state { TASK_WAITING, TASK_ACTIVE, TASK_DONE, TASK_GAVE_UP, TASK_CANCELLED };

struct cluster_task {
	/* the caller's */
	char *name;              /* a word: the job's name (perfbot-<name>) and its files' */
	char **args;             /* perfbot's command after the binary: "run", "--patch", "31", ... */
	int seed_from;           /* the task whose database this one starts from (-1: none); it
				  * is submitted once that one is done */
	char *seed;              /* else a database it starts from (NULL: none), freed with it */
	/* the executor's */
	char *db, *out;          /* the latest submission's spool/<name>-<attempt>.db (the
				  * bundle) and .out (its output): a submission never touches
				  * another's */
	long job;                /* the Slurm job id of the latest submission */
	int attempts;            /* submissions */
	int unseen;              /* polls in a row scontrol said the job is unknown */
	int refusals;            /* sbatch refused it, in a row */
	double not_before;       /* no new submission before (now_seconds) */
	enum task_state state;
	int exit_code;           /* perfbot's, once done */
	char node[64];           /* where it ran last */
	char why[256];           /* why it gave up, or the reasons it was resubmitted */
};

/* The job script: constant text, every value an argument (never a
 * shell string built from one). */
extern const char cluster_job_script[];

/* Runs the tasks on Slurm: at most [executor] max_jobs submitted at once,
 * each into spool (which the nodes must see), perfbot the binary the
 * nodes run, in this process's working directory. Watches them every poll
 * seconds until each is done or given up; *stop set (SIGTERM) cancels
 * every active job and returns false. A refused submission is tried again
 * (3 times, 30 s apart, then the task is given up), unless it is the
 * first: then Slurm or [executor] is wrong, nothing runs, false with err.
 * Says its progress (event_say). */
bool cluster_run(const struct pb_config *cfg, const char *spool, const char *perfbot,
		 struct cluster_task *t, int n, double poll, volatile sig_atomic_t *stop, pb_err *err);
void cluster_task_free(struct cluster_task *t);

#endif
