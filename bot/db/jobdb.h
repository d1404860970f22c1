/* perfbotd's queue in results.db: jobs that perfbot submit adds and the
 * daemon runs one at a time, and the journal of a running job's completed
 * boots, from which a job whose daemon died resumes. */
#ifndef PERFBOT_JOBDB_H
#define PERFBOT_JOBDB_H

#include <sqlite3.h>

#include "config.h"
#include "db.h"

/* Where a job is: enum job_state, its names in names.h (the database
 * stores them, perfbot jobs and perfbotd's log print them). */

struct job {
	long long id;
	char *kind;            /* "run" */
	char *queue;
	int patch;
	char *workloads;       /* space-separated; "" = chosen by the patch's paths */
	bool force;
	char *overrides;       /* "section.key=value" lines submit was given ("": none) */
	enum job_state state;
	char *submitted_at, *started_at, *finished_at;
	int attempts, pid, exit_status; /* exit_status -1: none yet */
	long long comparison;
	char *log, *message;
	int journaled_boots;
};
void job_free(struct job *j);
void jobs_free(struct job *j, int n);

/* overrides: "section.key=value" lines (NULL or "": none), applied over
 * perfbotd's configuration when the job runs. */
bool jobdb_submit(sqlite3 *db, const char *queue, int patch, const char *workloads, bool force,
		  const char *overrides, long long *id, pb_err *err);
/* The configuration job j runs with: its overrides applied to cfg (perfbotd's,
 * or a copy of it), each checked as -c is. */
bool jobdb_job_config(struct pb_config *cfg, const struct job *j, pb_err *err);
/* Every job, oldest first. */
bool jobdb_list(sqlite3 *db, struct job **jobs, int *n, pb_err *err);
/* Jobs left running by a perfbotd that died back to queued (their journal
 * stays); *n of them. One that has had max_attempts fails instead. */
bool jobdb_requeue_orphans(sqlite3 *db, int max_attempts, int *n, pb_err *err);
/* Marks the oldest queued job running under pid, writing to log (the
 * placeholder %lld becomes its id) and fills *j; *found false if none. */
bool jobdb_claim(sqlite3 *db, int pid, const char *log_dir, struct job *j, bool *found,
		 pb_err *err);
/* The end of an attempt: state done/failed/queued, perfbot run's exit
 * status (-1: none), a line for perfbot jobs. */
bool jobdb_finish(sqlite3 *db, long long id, enum job_state state, int exit_status,
		  const char *message, pb_err *err);
/* Inside the transaction that stores the job's comparison: the job is
 * done and its journal goes (the boots are now runs). */
bool jobdb_complete(sqlite3 *db, long long id, long long comparison, pb_err *err);
/* The same in a transaction of its own: for a comparison that came home
 * from elsewhere (a Slurm job's bundle), stored before. */
bool jobdb_complete_alone(sqlite3 *db, long long id, long long comparison, pb_err *err);

/* What a done job's comparison found (its strings valid until close). */
struct job_result_row {
	long long comparison;
	const char *status, *verdict, *behaviour; /* "-": none */
	int boots_per_kernel;
};
/* Opens the cursor over job id's comparison, if the job is done: one row
 * or none (db_cursor_step, db_cursor_close). */
bool jobdb_result(struct db_cursor *c, sqlite3 *db, long long id, pb_err *err);

/* Before a job's first boot. inputs names everything its boots depend on
 * (kernels, accelerator, guest plan). If the journal holds boots made with
 * the same inputs, they are loaded into cmp (cmp->obs.nboots > 0 after) and
 * cmp->seed becomes theirs; otherwise the journal is emptied and starts
 * anew with these inputs and cmp->seed. */
bool jobdb_journal_open(sqlite3 *db, long long id, const char *inputs, struct comparison *cmp,
			pb_err *err);
/* Commits boot b of cmp to the journal, with its samples. */
bool jobdb_journal_boot(sqlite3 *db, long long id, const struct comparison *cmp, int b,
			pb_err *err);

/* perfbotd's own lock, <db>.perfbotd.lock, held until it exits: one daemon
 * per database. */
bool jobdb_daemon_lock(const char *db_path, pb_err *err);
/* The pid of the perfbotd serving db_path, 0 if none (-1: one whose pid is
 * not known). */
int jobdb_daemon_pid(const char *db_path);

#endif
