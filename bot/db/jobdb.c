/* perfbotd's queue in results.db: submitting, claiming and finishing jobs,
 * their states' names, the journal of a running job's boots, and the
 * daemon's own lock. */
#include "jobdb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}


void job_free(struct job *j)
{
	free(j->kind);
	free(j->queue);
	free(j->workloads);
	free(j->overrides);
	free(j->submitted_at);
	free(j->started_at);
	free(j->finished_at);
	free(j->log);
	free(j->message);
	memset(j, 0, sizeof(*j));
}

void jobs_free(struct job *j, int n)
{
	for (int i = 0; i < n; i++)
		job_free(&j[i]);
	free(j);
}

bool jobdb_submit(sqlite3 *db, const char *queue, int patch, const char *workloads, bool force,
		  const char *overrides, long long *id, pb_err *err)
{
	char *now = iso_time_now();
	bool ok = db_run(db, id, err,
			 "INSERT INTO jobs (kind, queue, patch, workloads, force, overrides, state, "
			 "submitted_at) VALUES ('run', ?, ?, ?, ?, ?, ?, ?)",
			 "sisisss", queue, patch, workloads, (int)force, overrides ? overrides : "",
			 job_state_name(JOB_QUEUED), now);

	free(now);
	return ok;
}

bool jobdb_job_config(struct pb_config *cfg, const struct job *j, pb_err *err)
{
	char *lines = xstrdup(j->overrides ? j->overrides : ""), *save = NULL;
	bool ok = true;

	for (char *l = strtok_r(lines, "\n", &save); ok && l; l = strtok_r(NULL, "\n", &save))
		if (!config_override(cfg, l, err)) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			pb_seterr(err, "job %lld's settings from perfbot submit: %s", j->id, msg);
			ok = false;
		}
	free(lines);
	return ok;
}

/* A row of jobs, as the cursor reads it; job_from_row copies it. */
struct job_row {
	long long id, comparison;
	const char *kind, *queue, *workloads, *state, *submitted_at, *started_at, *finished_at;
	const char *log, *message, *overrides;
	int patch, force, attempts, pid, exit_status, journaled_boots;
};

#define R struct job_row
static const struct db_column job_cols[] = {
	DB_COLUMN(R, id, DB_INT64, "id"),
	DB_COLUMN(R, kind, DB_TEXT_OR_NULL, "kind"),
	DB_COLUMN(R, queue, DB_TEXT_OR_NULL, "queue"),
	DB_COLUMN(R, patch, DB_INT, "patch"),
	DB_COLUMN(R, workloads, DB_TEXT_OR_NULL, "workloads"),
	DB_COLUMN(R, force, DB_INT, "force"),
	DB_COLUMN(R, state, DB_TEXT_OR_NULL, "state"),
	DB_COLUMN(R, submitted_at, DB_TEXT_OR_NULL, "submitted_at"),
	DB_COLUMN(R, started_at, DB_TEXT_OR_NULL, "started_at"),
	DB_COLUMN(R, finished_at, DB_TEXT_OR_NULL, "finished_at"),
	DB_COLUMN(R, attempts, DB_INT, "attempts"),
	DB_COLUMN(R, pid, DB_INT, "coalesce(pid, 0)"),
	DB_COLUMN(R, comparison, DB_INT64, "coalesce(comparison_id, 0)"),
	DB_COLUMN(R, exit_status, DB_INT, "coalesce(exit_status, -1)"),
	DB_COLUMN(R, log, DB_TEXT_OR_NULL, "log"),
	DB_COLUMN(R, message, DB_TEXT_OR_NULL, "message"),
	DB_COLUMN(R, journaled_boots, DB_INT,
		  "(SELECT count(*) FROM job_boots b WHERE b.job_id = jobs.id)"),
	DB_COLUMN(R, overrides, DB_TEXT_OR_NULL, "overrides"),
};
#undef R

static void job_from_row(const struct job_row *r, struct job *j)
{
	j->id = r->id;
	j->kind = dup_or_null(r->kind);
	j->queue = dup_or_null(r->queue);
	j->patch = r->patch;
	j->workloads = dup_or_null(r->workloads);
	j->force = r->force != 0;
	if (!job_state_parse(r->state, &j->state))
		j->state = JOB_UNKNOWN;
	j->submitted_at = dup_or_null(r->submitted_at);
	j->started_at = dup_or_null(r->started_at);
	j->finished_at = dup_or_null(r->finished_at);
	j->attempts = r->attempts;
	j->pid = r->pid;
	j->comparison = r->comparison;
	j->exit_status = r->exit_status;
	j->log = dup_or_null(r->log);
	j->message = dup_or_null(r->message);
	j->journaled_boots = r->journaled_boots;
	j->overrides = dup_or_null(r->overrides);
}

/* Every job (id 0) or the one of id, oldest first. */
static bool select_jobs(sqlite3 *db, long long id, struct job **jobs, int *n, pb_err *err)
{
	struct db_cursor c;
	struct job_row r;
	int cap = 0;
	bool ok;

	*jobs = NULL;
	*n = 0;
	ok = id ? db_cursor_open(&c, db, "database", job_cols, (int)PB_ARRAY_SIZE(job_cols), err,
				 "FROM jobs WHERE id=? ORDER BY id", "I", id)
		: db_cursor_open(&c, db, "database", job_cols, (int)PB_ARRAY_SIZE(job_cols), err,
				 "FROM jobs ORDER BY id", "");
	if (!ok)
		return false;
	while (db_cursor_step(&c, &r)) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*jobs = xrealloc(*jobs, sizeof(**jobs) * (size_t)cap);
		}
		memset(&(*jobs)[*n], 0, sizeof(**jobs));
		job_from_row(&r, &(*jobs)[(*n)++]);
	}
	if (!db_cursor_close(&c, err)) {
		jobs_free(*jobs, *n);
		*jobs = NULL;
		*n = 0;
		return false;
	}
	return true;
}

bool jobdb_list(sqlite3 *db, struct job **jobs, int *n, pb_err *err)
{
	return select_jobs(db, 0, jobs, n, err);
}

bool jobdb_requeue_orphans(sqlite3 *db, int max_attempts, int *n, pb_err *err)
{
	char *now = iso_time_now();

	if (!db_exec(db, "BEGIN IMMEDIATE", err)) {
		free(now);
		return false;
	}
	if (!db_run(db, NULL, err,
		    "UPDATE jobs SET state=?, pid=NULL, finished_at=?, message='its perfbotd "
		    "died while it ran, ' || attempts || ' times: given up (perfbot submit queues it "
		    "again)' WHERE state=? AND attempts >= ?",
		    "sssi", job_state_name(JOB_FAILED), now, job_state_name(JOB_RUNNING), max_attempts) ||
	    !db_run(db, NULL, err,
		    "UPDATE jobs SET state=?, pid=NULL, message='its perfbotd stopped while it "
		    "ran: resumes after its last completed boot' WHERE state=?",
		    "ss", job_state_name(JOB_QUEUED), job_state_name(JOB_RUNNING))) {
		db_exec(db, "ROLLBACK", NULL);
		free(now);
		return false;
	}
	*n = sqlite3_changes(db);
	free(now);
	return db_exec(db, "COMMIT", err);
}

bool jobdb_claim(sqlite3 *db, int pid, const char *log_dir, struct job *j, bool *found, pb_err *err)
{
	struct job *got = NULL;
	long long id = 0;
	char *now = NULL;
	int n = 0;
	bool ok;

	*found = false;
	/* one transaction: two daemons never claim the same job */
	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	ok = db_run(db, &id, err, "SELECT coalesce(min(id), 0) FROM jobs WHERE state=?", "s",
		    job_state_name(JOB_QUEUED));
	if (ok && id) {
		char *log = xasprintf("%s/job-%lld.log", log_dir, id);

		now = iso_time_now();
		ok = db_run(db, NULL, err,
			    "UPDATE jobs SET state=?, pid=?, started_at=?, finished_at=NULL, "
			    "attempts=attempts+1, log=?, message=NULL WHERE id=?",
			    "sissI", job_state_name(JOB_RUNNING), pid, now, log, id) &&
		     select_jobs(db, id, &got, &n, err) && n == 1;
		free(log);
	}
	if (!ok) {
		db_exec(db, "ROLLBACK", NULL);
		jobs_free(got, n);
		free(now);
		return false;
	}
	if (!db_exec(db, "COMMIT", err)) {
		jobs_free(got, n);
		free(now);
		return false;
	}
	if (n == 1) {
		*j = got[0];
		free(got);
		*found = true;
	}
	free(now);
	return true;
}

bool jobdb_finish(sqlite3 *db, long long id, enum job_state state, int exit_status,
		  const char *message, pb_err *err)
{
	char *now = iso_time_now();
	/* a job queued again has not finished */
	bool ok = db_run(db, NULL, err,
			 "UPDATE jobs SET state=?, exit_status=NULLIF(?, -1), message=?, pid=NULL, "
			 "finished_at=? WHERE id=?",
			 "sissI", job_state_name(state), exit_status, message,
			 state == JOB_QUEUED ? NULL : now, id);

	free(now);
	return ok;
}

bool jobdb_complete(sqlite3 *db, long long id, long long comparison, pb_err *err)
{
	return db_run(db, NULL, err, "DELETE FROM job_samples WHERE job_id=?", "I", id) &&
	       db_run(db, NULL, err, "DELETE FROM job_boots WHERE job_id=?", "I", id) &&
	       db_run(db, NULL, err,
		      "UPDATE jobs SET state=?, comparison_id=?, journal_inputs=NULL WHERE id=?",
		      "sII", job_state_name(JOB_DONE), comparison, id);
}

bool jobdb_complete_alone(sqlite3 *db, long long id, long long comparison, pb_err *err)
{
	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (!jobdb_complete(db, id, comparison, err) || !db_exec(db, "COMMIT", err)) {
		db_exec(db, "ROLLBACK", NULL);
		return false;
	}
	return true;
}

#define R struct job_result_row
static const struct db_column result_cols[] = {
	DB_COLUMN(R, comparison, DB_INT64, "c.id"),
	DB_COLUMN(R, status, DB_TEXT, "c.status"),
	DB_COLUMN(R, verdict, DB_TEXT, "coalesce(c.verdict, '-')"),
	DB_COLUMN(R, behaviour, DB_TEXT, "coalesce(c.behaviour, '-')"),
	DB_COLUMN(R, boots_per_kernel, DB_INT, "c.boots_per_kernel"),
};
#undef R

bool jobdb_result(struct db_cursor *c, sqlite3 *db, long long id, pb_err *err)
{
	return db_cursor_open(c, db, "database", result_cols, (int)PB_ARRAY_SIZE(result_cols), err,
			      "FROM jobs j JOIN comparisons c ON c.id=j.comparison_id "
			      "WHERE j.id=? AND j.state=?",
			      "Is", id, job_state_name(JOB_DONE));
}


/* A journaled boot and one of its samples, as the cursor reads them. */
struct journal_boot_row {
	int boot_index;
	enum side side;
	enum boot_outcome outcome;
	const char *detail, *qemu_cmdline, *console_log, *results_log;
	double wall_seconds;
};
struct journal_sample_row {
	const char *workload, *metric;
	int iteration;
	double value;
};

#define R struct journal_boot_row
static const struct db_column journal_boot_cols[] = {
	DB_COLUMN(R, boot_index, DB_INT, "boot_index"),
	DB_ENUM_COLUMN(R, side, side_names, "side"),
	DB_ENUM_COLUMN(R, outcome, boot_outcome_names, "outcome"),
	DB_COLUMN(R, detail, DB_TEXT_OR_NULL, "detail"),
	DB_COLUMN(R, wall_seconds, DB_REAL, "wall_seconds"),
	DB_COLUMN(R, qemu_cmdline, DB_TEXT_OR_NULL, "qemu_cmdline"),
	DB_COLUMN(R, console_log, DB_TEXT_OR_NULL, "console_log"),
	DB_COLUMN(R, results_log, DB_TEXT_OR_NULL, "results_log"),
};
#undef R
#define R struct journal_sample_row
static const struct db_column journal_sample_cols[] = {
	DB_COLUMN(R, workload, DB_TEXT_OR_NULL, "workload"),
	DB_COLUMN(R, metric, DB_TEXT_OR_NULL, "metric"),
	DB_COLUMN(R, iteration, DB_INT, "iteration"),
	DB_COLUMN(R, value, DB_REAL, "value"),
};
#undef R

/* The samples of journaled boot b (1, 2, ...), appended to r. */
static bool load_samples(sqlite3 *db, long long id, int b, struct boot_results *r, pb_err *err)
{
	struct db_cursor c;
	struct journal_sample_row s;

	if (!db_cursor_open(&c, db, "database", journal_sample_cols,
			    (int)PB_ARRAY_SIZE(journal_sample_cols), err,
			    "FROM job_samples WHERE job_id=? AND boot_index=? ORDER BY rowid", "Ii", id, b))
		return false;
	while (db_cursor_step(&c, &s)) {
		if (r->nsamples == r->samples_cap) {
			r->samples_cap = r->samples_cap ? 2 * r->samples_cap : 64;
			r->samples = xrealloc(r->samples, sizeof(*r->samples) * (size_t)r->samples_cap);
		}
		r->samples[r->nsamples].workload = dup_or_null(s.workload);
		r->samples[r->nsamples].metric = dup_or_null(s.metric);
		r->samples[r->nsamples].iteration = s.iteration;
		r->samples[r->nsamples].value = s.value;
		r->nsamples++;
	}
	db_cursor_close(&c, NULL);
	return true;
}

/* The journaled boots, with their samples, appended to cmp->obs.boots. */
static bool load_boots(sqlite3 *db, long long id, struct comparison *cmp, pb_err *err)
{
	struct db_cursor c;
	struct journal_boot_row r;
	bool gap = false, ok = true;

	if (!db_cursor_open(&c, db, "database", journal_boot_cols, (int)PB_ARRAY_SIZE(journal_boot_cols),
			    err, "FROM job_boots WHERE job_id=? ORDER BY boot_index", "I", id))
		return false;
	while (ok && db_cursor_step(&c, &r)) {
		struct boot *bt;

		if (r.boot_index != cmp->obs.nboots + 1) {
			gap = true; /* the journal is not ours to resume */
			break;
		}
		cmp->obs.boots = xrealloc(cmp->obs.boots, sizeof(*cmp->obs.boots) * (size_t)(cmp->obs.nboots + 1));
		bt = &cmp->obs.boots[cmp->obs.nboots++];
		memset(bt, 0, sizeof(*bt));
		bt->side = r.side;
		bt->rec.outcome = r.outcome;
		bt->rec.detail = dup_or_null(r.detail);
		bt->rec.wall_seconds = r.wall_seconds;
		bt->rec.qemu_cmdline = dup_or_null(r.qemu_cmdline);
		bt->rec.console_log = dup_or_null(r.console_log);
		bt->rec.results_log = dup_or_null(r.results_log);
		bt->rec.results.done = true;
		ok = load_samples(db, id, cmp->obs.nboots, &bt->rec.results, err);
	}
	if (gap || c.failed)
		pb_seterr(err, "database: the journal of job %lld cannot be read back (%s)", id,
			  gap ? "its boots are not numbered 1, 2, ..." : sqlite3_errmsg(db));
	db_cursor_close(&c, NULL);
	return ok && !gap && !c.failed;
}

/* What a job's journal was made with. */
struct journal_row {
	const char *inputs;
	long long seed;
};
static const struct db_column journal_cols[] = {
	DB_COLUMN(struct journal_row, inputs, DB_TEXT_OR_NULL, "journal_inputs"),
	DB_COLUMN(struct journal_row, seed, DB_INT64, "coalesce(journal_seed, 0)"),
};

bool jobdb_journal_open(sqlite3 *db, long long id, const char *inputs, struct comparison *cmp,
			pb_err *err)
{
	struct journal_row r = { NULL, 0 };
	struct db_cursor c;
	long long seed;
	bool same;

	if (!db_cursor_open(&c, db, "database", journal_cols, (int)PB_ARRAY_SIZE(journal_cols), err,
			    "FROM jobs WHERE id=?", "I", id))
		return false;
	if (!db_cursor_step(&c, &r))
		r = (struct journal_row){ NULL, 0 };
	same = r.inputs && !strcmp(r.inputs, inputs) && r.seed;
	seed = r.seed;
	db_cursor_close(&c, NULL);
	if (same) {
		cmp->seed = (unsigned long)seed;
		return load_boots(db, id, cmp, err);
	}
	/* new, or booted with other kernels or settings: those boots are not this comparison's */
	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (!db_run(db, NULL, err, "DELETE FROM job_samples WHERE job_id=?", "I", id) ||
	    !db_run(db, NULL, err, "DELETE FROM job_boots WHERE job_id=?", "I", id) ||
	    !db_run(db, NULL, err, "UPDATE jobs SET journal_inputs=?, journal_seed=? WHERE id=?", "sII",
		    inputs, (long long)cmp->seed, id)) {
		db_exec(db, "ROLLBACK", NULL);
		return false;
	}
	return db_exec(db, "COMMIT", err);
}

bool jobdb_journal_boot(sqlite3 *db, long long id, const struct comparison *cmp, int b, pb_err *err)
{
	const struct boot *bt = &cmp->obs.boots[b];

	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (!db_run(db, NULL, err,
		    "INSERT INTO job_boots (job_id, boot_index, side, outcome, detail, wall_seconds, "
		    "qemu_cmdline, console_log, results_log) VALUES (?,?,?,?,?,?,?,?,?)",
		    "Iisssdsss", id, b + 1, side_name(bt->side), boot_outcome_name(bt->rec.outcome),
		    bt->rec.detail ? bt->rec.detail : "", bt->rec.wall_seconds,
		    bt->rec.qemu_cmdline ? bt->rec.qemu_cmdline : "",
		    bt->rec.console_log ? bt->rec.console_log : "",
		    bt->rec.results_log ? bt->rec.results_log : ""))
		goto fail;
	for (int i = 0; i < bt->rec.results.nsamples; i++) {
		const struct result_sample *s = &bt->rec.results.samples[i];

		/* a guest that repeats a line: the first value stands, as in samples */
		if (!db_run(db, NULL, err,
			    "INSERT OR IGNORE INTO job_samples (job_id, boot_index, workload, metric, "
			    "iteration, value) VALUES (?,?,?,?,?,?)",
			    "Iissid", id, b + 1, s->workload, s->metric, s->iteration, s->value))
			goto fail;
	}
	return db_exec(db, "COMMIT", err);
fail:
	db_exec(db, "ROLLBACK", NULL);
	return false;
}

/* <db>.perfbotd.lock: held by the daemon for its lifetime, with its pid. */
static char *daemon_lock_path(const char *db_path)
{
	return xasprintf("%s.perfbotd.lock", db_path);
}

bool jobdb_daemon_lock(const char *db_path, pb_err *err)
{
	char *path = daemon_lock_path(db_path), note[32];
	int fd;

	if (!db_prepare_path(path, err)) {
		free(path);
		return false;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		pb_seterr(err, "cannot open %s: %s", path, strerror(errno));
		free(path);
		return false;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int pid = jobdb_daemon_pid(db_path);

		pb_seterr(err, "another perfbotd (pid %d) serves %s", pid, db_path);
		close(fd);
		free(path);
		return false;
	}
	snprintf(note, sizeof(note), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, note, strlen(note), 0) < 0)
		(void)0; /* the lock holds without its note */
	free(path);
	return true; /* fd stays open, and locked, until the daemon exits */
}

int jobdb_daemon_pid(const char *db_path)
{
	char *path = daemon_lock_path(db_path), note[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC), pid = 0;
	ssize_t n;

	free(path);
	if (fd < 0)
		return 0;
	/* a shared lock we can take means nobody holds the exclusive one */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		close(fd);
		return 0;
	}
	n = pread(fd, note, sizeof(note) - 1, 0);
	note[n > 0 ? n : 0] = '\0';
	pid = atoi(note);
	close(fd);
	return pid > 0 ? pid : -1;
}
