/* [executor] kind = slurm: perfbot's own commands as Slurm jobs (cluster.h)
 * for every command that hands its comparisons to the executor: nightly
 * (its tasks at once, executor_submit_many), run --patch and run --series,
 * bisect, and perfbotd's jobs (one job each, executor_submit). Each job
 * runs perfbot locally on its node into a database of its own, which
 * comes home as a bundle. */
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

struct submit_task;

/* How a request runs, beside what it asks. */
struct submit {
	char *const *overrides;        /* this command's -c overrides: a Slurm job's too */
	int noverrides;
	const char *name;              /* a Slurm job's name; NULL: the request's ("765",
					* "series", "bisect", "calibration"); many's: its
					* spool's ("nightly") */
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
	/* many (executor_submit_many): what its lines start with (NULL:
	 * "perfbot"), and what the caller makes of each task once its
	 * bundle came home or not (NULL: nothing), called before the next
	 * task's is imported, so that what the caller says of a task
	 * follows what its import said */
	const char *who;
	void (*task_ended)(void *ctx, const struct submit_task *t);
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

/* One of many requests run at once as Slurm jobs: a nightly's
 * calibration and patches. */
struct submit_task {
	struct request request;          /* what it asks; a patch's runs, mm or not: the
					  * caller chose it */
	int seed_from;                   /* the task whose database its job starts from,
					  * once that one's job is done (-1: none): a
					  * nightly's patches start from its calibration */
	/* out */
	enum run_end end;                /* RUN_DONE: its job ran to its end; RUN_FAILED:
					  * its job was given up (why); RUN_STOPPED: stopped
					  * before (its job cancelled, or never submitted) */
	char why[256];                   /* why its job was given up */
	char node[64];                   /* where its job ran last ("": nowhere) */
	int exit_code;                   /* perfbot's exit status there, RUN_DONE's */
	char *out;                       /* its job's output, in the spool (NULL: never
					  * submitted); submit_task_free frees it */
	const struct pb_patch *patch;    /* a patch's: the queue's, its row stored here
					  * before the import, so that the comparison is
					  * this queue's patch's (and counts as measured) */
	bool imported;                   /* its bundle came home: outcome says what it found */
	struct pipeline_outcome outcome;
};

/* Runs the n tasks as Slurm jobs in a spool of their own, named
 * how->name (at most [executor] max_jobs at once, each submitted once
 * the job it starts from is done), watches them to their end (stopped
 * as executor_run_one is), then brings home, in order, the bundle of
 * each task whose job ran to its end into db, the caller's, whose lock
 * it holds (a patch's row first), filling in each task and handing it
 * to how->task_ended. Says what it does (event_say), its lines starting
 * how->who. RUN_DONE: every job ended or was given up; RUN_STOPPED
 * (err) when stopped: every job under way cancelled, what had ended
 * brought home; RUN_FAILED (err) when watching them failed after some
 * were submitted: what had ended brought home too. Before any job was
 * submitted (Slurm or [executor] wrong, a patch not in q, a stop):
 * RUN_FAILED or RUN_STOPPED (err), no task handed back, no spool left
 * behind. */
enum run_end executor_submit_many(const struct pb_config *cfg, const struct pb_queue *q,
				  sqlite3 *db, struct submit_task *t, int n,
				  const struct submit *how, pb_err *err);
void submit_task_free(struct submit_task *t);

#endif
