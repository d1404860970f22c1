/* Slurm, as the executor sees it: sbatch's argv for a comparison's job,
 * scontrol's one-line account of a job, and the rule for what follows
 * each state. Slurm 22.05 (Debian 12); no slurmdbd is assumed, so a job's
 * end is read from scontrol within MinJobAge. */
#include "slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The value of key= in a line of key=value words ("" if absent), up to
 * the next space. */
static void word_value(const char *line, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *at = line; (at = strstr(at, key)); at += klen) {
		if ((at != line && at[-1] != ' ') || at[klen] != '=')
			continue;
		at += klen + 1;
		snprintf(out, len, "%.*s", (int)strcspn(at, " \n"), at);
		return;
	}
}

bool slurm_parse_job(const char *line, struct slurm_job *job)
{
	char code[32];

	memset(job, 0, sizeof(*job));
	word_value(line, "JobState", job->state, sizeof(job->state));
	word_value(line, "Reason", job->reason, sizeof(job->reason));
	word_value(line, "NodeList", job->node, sizeof(job->node));
	if (!strcmp(job->node, "(null)"))
		job->node[0] = '\0';
	word_value(line, "ExitCode", code, sizeof(code));
	if (sscanf(code, "%d:%d", &job->exit_code, &job->signal) != 2)
		job->exit_code = job->signal = 0;
	word_value(line, "Restarts", code, sizeof(code));
	job->restarts = atoi(code);
	return job->state[0] != '\0';
}

/* Whether the reason of a pending job is a hold, which nothing releases
 * unless someone acts: launch_failed_requeued_held (22.05, after a batch
 * launch failure), JobHeldAdmin, JobHeldUser. */
static bool held(const struct slurm_job *job)
{
	return !strcmp(job->state, "REQUEUE_HOLD") ||
	       (!strcmp(job->state, "PENDING") && strcasestr(job->reason, "held"));
}

enum slurm_next slurm_next(const struct slurm_job *job, int attempts, int resubmits)
{
	/* ended for a reason outside perfbot: another submission may do */
	static const char *const outside_states[] = { "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
						      "BOOT_FAIL", "OUT_OF_MEMORY" };
	bool outside = held(job);

	/* past the --deadline the submitter set (extra_args): another
	 * submission would only defeat it */
	if (!strcmp(job->state, "DEADLINE"))
		return SLURM_GIVE_UP;

	for (size_t i = 0; i < PB_ARRAY_SIZE(outside_states); i++)
		outside |= !strcmp(job->state, outside_states[i]);
	if (!strcmp(job->state, "COMPLETED"))
		return SLURM_DONE;
	if (!strcmp(job->state, "FAILED")) {
		/* perfbot ran to its end and said how: bad usage (2) and a
		 * kernel that failed (3) are answers another node would give
		 * again, and so is perfbot dying of a signal of its own (the
		 * script saw 128 + it: a crash repeats). Bad input or
		 * environment (1) may be this node's (a full disk), stopped (4)
		 * is a signal from outside; a launch failure or the script
		 * killed is Slurm's. */
		outside = !strcmp(job->reason, "JobLaunchFailure") || job->signal ||
			  pb_exit_not_answered_there(job->exit_code);
		if (!outside)
			return SLURM_DONE;
	}
	/* anything else is under way: pending, running, completing,
	 * requeued, suspended, a node powering up, a state a newer Slurm adds */
	if (!outside)
		return SLURM_WAIT;
	return attempts <= resubmits ? SLURM_RESUBMIT : SLURM_GIVE_UP;
}

/* Appends s (a copy) to argv. */
static void push(char ***argv, int *n, char *s)
{
	*argv = xrealloc(*argv, sizeof(**argv) * (size_t)(*n + 2));
	(*argv)[(*n)++] = s;
	(*argv)[*n] = NULL;
}

char **slurm_sbatch_argv(const struct pb_config *cfg, const char *name, const char *output,
			 const char *chdir, const char *script, char *const *args)
{
	char **argv = NULL, *extra, *save = NULL;
	int n = 0;

	push(&argv, &n, xstrdup("sbatch"));
	push(&argv, &n, xstrdup("--parsable"));
	push(&argv, &n, xasprintf("--job-name=%s", name));
	push(&argv, &n, xasprintf("--output=%s", output));
	if (chdir)
		push(&argv, &n, xasprintf("--chdir=%s", chdir));
	push(&argv, &n, xasprintf("--cpus-per-task=%d", cfg->slurm_cpus));
	if (cfg->slurm_time_limit > 0)
		push(&argv, &n, xasprintf("--time=%d", cfg->slurm_time_limit));
	if (cfg->slurm_partition[0])
		push(&argv, &n, xasprintf("--partition=%s", cfg->slurm_partition));
	if (cfg->slurm_account[0])
		push(&argv, &n, xasprintf("--account=%s", cfg->slurm_account));
	extra = xstrdup(cfg->slurm_extra_args);
	for (char *w = strtok_r(extra, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		push(&argv, &n, xstrdup(w));
	free(extra);
	push(&argv, &n, xstrdup(script));
	for (char *const *a = args; a && *a; a++)
		push(&argv, &n, xstrdup(*a));
	return argv;
}

void slurm_argv_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}
