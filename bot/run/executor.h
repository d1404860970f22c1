/* [executor] kind = slurm: perfbot's own commands as Slurm jobs (cluster.h)
 * for every command that hands its comparisons to the executor: nightly
 * (its tasks at once), run --patch and run --series, bisect, and
 * perfbotd's jobs (one job each). Each job runs perfbot locally on its
 * node into a database of its own, which comes home as a bundle. */
#ifndef PERFBOT_EXECUTOR_H
#define PERFBOT_EXECUTOR_H

#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>

#include "cluster.h"
#include "config.h"
#include "pipeline.h"
#include "present.h"
#include "queue.h"
#include "request.h"

/* The perfbot binary the nodes run: this one's (the nodes see its path). */
char *executor_perfbot(void);

/* A spool directory of this command's own, under [executor] spool_dir:
 * <spool>/<what>-<time>-<pid>. Not made yet. Those of commands that wrote
 * nothing for [executor] keep_days go first. */
char *executor_spool(const struct pb_config *cfg, const char *what);

/* k's command line after perfbot's binary: cmd, then the same config file
 * and overrides as this command's (relative paths resolve as here: the job
 * starts in this directory), then what is the job's own, last so that it
 * wins: run locally, the queue q as this command read it (the nodes see
 * it), reports of its own in the spool. */
void executor_job_args(struct cluster_task *k, const struct pb_config *cfg,
		       char *const *overrides, int noverrides, const struct pb_queue *q,
		       const char *spool, char *const *cmd, int ncmd);

/* A done task's bundle into db (this process holds its lock); uid: the
 * newest comparison of kind it brought (or held). Says what it imported
 * (event_say), prefixed who. False, with err, if there was nothing to bring
 * or the bundle was refused (nothing of it stored). */
bool executor_import(sqlite3 *db, const struct pb_config *cfg, const struct cluster_task *k,
		     enum comparison_kind kind, const char *who, char uid[33], pb_err *err);

/* What the comparison of uid in db says, as run would have told it. */
bool executor_outcome(sqlite3 *db, const char *uid, struct pipeline_outcome *out);

/* One command as one Slurm job, to its end. */
struct executor_one {
	const char *name;              /* a word: its job's and files' name ("765", "series") */
	char *const *cmd;              /* perfbot's command: "run", "--patch", "765", ... */
	int ncmd;
	char *const *overrides;        /* this command's -c overrides, the job's too */
	int noverrides;
	char *seed;                    /* a database it starts from, NULL none (freed here) */
	enum comparison_kind kind;     /* the kind of comparison that answers it */
	const struct pb_patch *patch;  /* run --patch: its row stored here first, so that the
					* comparison is this queue's patch's */
	volatile sig_atomic_t *stop;   /* set: cancel the job; NULL: SIGTERM and SIGINT do */
	long long page_of;             /* the comparison here whose page shows the answer
					* (a bisect's series); 0: the answer's own */
	const struct presenter *show;  /* the commands': the pages (NULL: none written) */
	/* out */
	long long comparison;          /* the answer, here (0: none came home) */
	struct pipeline_outcome outcome; /* what it found, when it came home */
	char node[64];                 /* where it ran */
	int exit_code;                 /* perfbot's exit status there, RUN_DONE's (-1: none) */
};

/* Submits one's command, watches it (resubmitted as cluster_run does),
 * says its output, imports its bundle into results.db (waiting for the
 * lock), writes the report. RUN_DONE: the job ran to its end (one's
 * exit_code is perfbot's exit status on the node, the command's own);
 * RUN_FAILED (err) when the job could not run or its bundle not come
 * home; RUN_STOPPED when stopped (its job cancelled). */
enum run_end executor_run_one(const struct pb_config *cfg, const struct pb_queue *q,
			      struct executor_one *one, pb_err *err);

/* How a request runs, beside what it asks. */
struct submit {
	char *const *overrides;        /* this command's -c overrides: a Slurm job's too */
	int noverrides;
	const char *name;              /* a Slurm job's name; NULL: the request's ("765",
					* "series", "bisect", "calibration") */
	const struct presenter *show;  /* the pages and the answer (NULL: none) */
	volatile sig_atomic_t *stop;   /* stops it: a run here after its boot, a Slurm job
					* cancelled; NULL: SIGTERM and SIGINT stop a Slurm job */
	/* here: perfbotd's job (its boots journaled), and what to do once
	 * the kernels are built (run_request's boots_begin) */
	long long job_id;
	void (*boots_begin)(void *ctx, const struct comparison *cmp, const char *why_not);
	void *ctx;
	/* on Slurm: a database the job starts from (the caller's; NULL:
	 * none), the comparison here whose page shows the answer (0: the
	 * answer's own) */
	const char *seed;
	long long page_of;
};

/* What came of a request. */
struct submitted {
	struct pipeline_outcome outcome; /* what it found; comparison 0: nothing stored */
	int exit_code;                   /* a Slurm job's: perfbot's exit status on its
					  * node, the command's own; -1: none (here) */
	char node[64];                   /* where it ran; "" here */
};

/* Runs r where [executor] kind says: here (pipeline.h, bisect.h), or as
 * one Slurm job whose bundle comes home (executor_run_one, its command
 * line request_argv's). A patch that is not mm (and not forced) is said
 * here either way: nothing to ship. How it ended; out what came of it. */
enum run_end executor_submit(const struct pb_config *cfg, const struct pb_queue *q,
			     const struct request *r, const struct submit *how,
			     struct submitted *out, pb_err *err);

#endif
