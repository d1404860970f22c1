/* The Slurm executor's dealings with Slurm: the sbatch command line of a
 * comparison's job, what scontrol says of a job, and what to do next. */
#ifndef PERFBOT_SLURM_H
#define PERFBOT_SLURM_H

#include <stdbool.h>

#include "config.h"

/* What `scontrol -o show job ID` says of a job. */
struct slurm_job {
	char state[32];   /* JobState: PENDING, RUNNING, COMPLETED, FAILED, ... */
	char reason[64];  /* Reason: None, NonZeroExitCode, JobLaunchFailure, ... */
	char node[64];    /* NodeList, "" before it runs */
	int exit_code;    /* of ExitCode=E:S */
	int signal;       /* S of ExitCode=E:S */
	int restarts;     /* Restarts */
};

/* Parses one line of `scontrol -o show job` (key=value words); false if it
 * has no JobState. */
bool slurm_parse_job(const char *line, struct slurm_job *job);

enum slurm_next {
	SLURM_WAIT,      /* pending, running, or a state not known to end: ask again later */
	SLURM_DONE,      /* perfbot ran and answered: import what it stored (exit_code says how) */
	SLURM_RESUBMIT,  /* ended, or held, for a reason outside perfbot: node failure, preemption,
			  * time limit, a cancel not perfbot's own, a launch failure, perfbot stopped
			  * by a signal or failing on this node's environment (exit 1); the caller
			  * cancels a held job first */
	SLURM_GIVE_UP,   /* such a reason once more than resubmits allows */
};

/* What follows a job in that state, after attempts submissions (1: the first). */
enum slurm_next slurm_next(const struct slurm_job *job, int attempts, int resubmits);

/* sbatch's argv (NULL-terminated, each string the caller's to free with
 * slurm_argv_free) for script with args: --parsable, the job's name, its output
 * file, its working directory (chdir, NULL: sbatch's default), [executor]'s
 * partition, account, time limit, CPUs and extra_args (split at white space;
 * never through a shell). */
char **slurm_sbatch_argv(const struct pb_config *cfg, const char *name, const char *output,
			 const char *chdir, const char *script, char *const *args);
void slurm_argv_free(char **argv);

#endif
