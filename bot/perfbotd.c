/* perfbotd: runs the jobs perfbot submit puts in results.db, one at a time,
 * each in a child process (a job that crashes is a failed job, not a dead
 * daemon). A job's boots are journaled as they complete; a job that was
 * running when perfbotd died is resumed after its last completed boot.
 * SIGTERM: stop once the boots under way end (the job stays queued, resumed
 * by the next perfbotd); SIGHUP: re-read config.ini before the next job.
 * Logs to stderr with --foreground, to syslog otherwise (or with --syslog). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "executor.h"
#include "jobdb.h"
#include "pipeline.h"
#include "prebuild.h"
#include "queue.h"
#include "stop.h"

/* A crash that kills perfbotd with it (the OOM killer, a host reboot) is
 * not retried for ever. */
#define MAX_ATTEMPTS 3

static volatile sig_atomic_t reload_requested;
static bool use_syslog;

static void on_reload(int sig)
{
	(void)sig;
	reload_requested = 1;
}

static void say(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (use_syslog) {
		vsyslog(prio, fmt, ap);
	} else {
		char *now = iso_time_now();

		fprintf(stderr, "perfbotd %s: ", now);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		free(now);
	}
	va_end(ap);
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa = { 0 };

	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: waitpid and sleep return, the loop looks at the flags */
	sigaction(sig, &sa, NULL);
}

static const struct pb_usage usage = {
	"perfbotd", "[options]",
	"signals: SIGTERM stops once the boots under way end (the job resumes on the next start),\n"
	"         SIGHUP re-reads config.ini before the next job.\n"
	"exit status: 0 stopped, 1 cannot start (bad config, another perfbotd, database)\n",
};

/* The last non-empty line of a job's log, for perfbot jobs. */
static char *last_line(const char *path)
{
	size_t len;
	pb_err err;
	char *text = read_file(path, &len, &err), *line, *end;

	if (!text)
		return xstrdup("(no log)");
	end = text + len;
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	*end = '\0';
	line = strrchr(text, '\n');
	line = xstrndup(line ? line + 1 : text, 300);
	free(text);
	return line;
}

/* What a job that stored its comparison found, in a line. */
static char *result_line(sqlite3 *db, long long job)
{
	struct job_result_row r;
	struct db_cursor c;
	char *line = NULL;

	if (!jobdb_result(&c, db, job, NULL))
		return NULL;
	if (db_cursor_step(&c, &r))
		line = xasprintf("%s: comparison %lld, %d boots per kernel, timing %s, behaviour %s",
				 r.status, r.comparison, r.boots_per_kernel, r.verdict, r.behaviour);
	db_cursor_close(&c, NULL);
	return line;
}

/* The job's boots begin: under tcg-icount the next queued job's kernels
 * build beside them (prebuild.h), if it runs with this job's settings
 * (cfg carries this job's overrides; other overrides could make other
 * kernels). */
struct next_job {
	const struct pb_config *cfg;
	long long id;             /* this job's */
	const char *overrides;    /* this job's, which cfg carries ("": none) */
	struct prebuild build;
	struct pb_queue q;        /* the next job's, while it builds */
	bool loaded;
};

static void next_job_build(void *ctx, const struct comparison *cmp, const char *why_not)
{
	struct next_job *nj = ctx;
	struct job *jobs = NULL;
	const struct pb_patch *p = NULL;
	sqlite3 *db = NULL;
	int n = 0;
	pb_err err;

	(void)cmp;
	if (why_not || !db_open_readonly(nj->cfg->db_path, &db, &err))
		return;
	if (jobdb_list(db, &jobs, &n, &err))
		for (int i = 0; i < n && !p; i++) {
			char *spool;

			if (jobs[i].state != JOB_QUEUED || jobs[i].id == nj->id ||
			    /* cfg carries this job's overrides: the next one's config
			     * is cfg only when its overrides are the same */
			    strcmp(jobs[i].overrides ? jobs[i].overrides : "", nj->overrides))
				continue;
			if (nj->loaded)
				queue_free(&nj->q);
			spool = config_queue_spool(nj->cfg);
			nj->loaded = queue_load(jobs[i].queue, spool, &nj->q, &err);
			free(spool);
			if (!nj->loaded)
				break;
			p = queue_find(&nj->q, jobs[i].patch);
			if (p && !p->is_mm && !jobs[i].force)
				p = NULL; /* its run measures nothing */
			else if (p && prebuild_start(&nj->build, nj->cfg, p))
				printf("perfbot: job %lld's kernels (patch %03d) build beside these boots, "
				       "at idle priority (log %s)\n", jobs[i].id, p->number,
				       nj->build.log);
		}
	jobs_free(jobs, n);
	db_close(db);
}

/* The job's request, where [executor] kind says. Here, its boots are
 * journaled and its store completes the job. On Slurm, it is one Slurm job
 * (perfbot run --patch on a node, with perfbotd's settings and the job's
 * own), its comparison imported and made the job's; a stop cancels the
 * Slurm job: the job stays queued and is submitted again (no boot
 * journal: the node's run is whole or nothing). */
static int job_submit(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
		      const struct job *j, const struct request *r, struct next_job *nj)
{
	char *lines = xstrdup(j->overrides ? j->overrides : ""), *save = NULL;
	char **overrides = xcalloc((size_t)c->noverrides + strlen(lines) + 1, sizeof(char *));
	char *name = xasprintf("job%lld", j->id);
	struct submit how = { .overrides = overrides, .name = name, .show = &cli_presenter,
			      .stop = &stop_requested, .job_id = j->id, .boots_begin = next_job_build,
			      .ctx = nj };
	struct submitted sub = { .exit_code = -1 };
	bool slurm = cfg->executor == EXECUTOR_SLURM;
	sqlite3 *db = NULL;
	pb_err err;
	int rc;

	for (int i = 0; i < c->noverrides; i++)
		overrides[how.noverrides++] = c->overrides[i];
	for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		overrides[how.noverrides++] = l;
	if (slurm && !queue_find(q, j->patch)) {
		cli_error("no patch %03d in queue %s any more", j->patch, q->dir);
		rc = PB_EXIT_ERROR;
	} else {
		rc = cli_submitted_status(executor_submit(cfg, q, r, &how, &sub, &err), &sub, &err, true);
	}
	/* the job is done with the comparison its Slurm job brought (here,
	 * the store did it) */
	if (slurm && sub.exit_code >= 0 && sub.outcome.comparison && pb_exit_answered(rc) &&
	    !(db_lock_wait(cfg->db_path, NULL, &err) && db_open(cfg->db_path, &db, &err) &&
	      jobdb_complete_alone(db, j->id, sub.outcome.comparison, &err))) {
		cli_error("job %lld: %s", j->id, err.msg);
		rc = PB_EXIT_ERROR;
	}
	db_close(db);
	free(overrides);
	free(lines);
	free(name);
	return rc;
}

/* In the child: the job as perfbot run would do it, its output in its log. */
static void __attribute__((noreturn)) job_child(const struct cli *c, struct pb_config *cfg, const struct job *j,
						pid_t parent)
{
	struct pb_queue q;
	char *only[CLI_MAX_WORKLOADS], *names = xstrdup(j->workloads), *save = NULL, *spool;
	bool loaded;
	int nonly = 0, fd, rc = PB_EXIT_ERROR;
	pb_err err;

	cli_program = "perfbot"; /* its log reads as perfbot run's would */
	/* dies with perfbotd, and so do its QEMU and build (their own PDEATHSIG) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(PB_EXIT_ERROR);
	signal(SIGHUP, SIG_IGN);
	stop_catch(NULL);
	fd = open(j->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(PB_EXIT_ERROR);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
	{
		char *now = iso_time_now();

		printf("=== perfbotd job %lld, attempt %d, %s: run --patch %03d%s%s%s\n", j->id, j->attempts,
		       now, j->patch, j->workloads[0] ? " --workload " : "", j->workloads,
		       j->force ? " --force" : "");
		free(now);
	}
	/* the settings its submit was given, over perfbotd's (this is the
	 * child's own copy of the configuration) */
	if (j->overrides && j->overrides[0])
		printf("=== with the settings it was submitted with: %s\n", j->overrides);
	if (!jobdb_job_config(cfg, j, &err)) {
		cli_error("%s", err.msg);
		fflush(stdout);
		fflush(stderr);
		_exit(PB_EXIT_ERROR);
	}
	for (char *w = strtok_r(names, " ", &save); w && nonly < CLI_MAX_WORKLOADS;
	     w = strtok_r(NULL, " ", &save))
		only[nonly++] = w;
	spool = config_queue_spool(cfg);
	loaded = queue_load(j->queue, spool, &q, &err);
	free(spool);
	if (!loaded) {
		cli_error("%s", err.msg);
	} else {
		struct next_job nj = { .cfg = cfg, .id = j->id,
				       .overrides = j->overrides ? j->overrides : "" };
		struct request r = { .kind = REQUEST_PATCH, .number = j->patch, .only = only,
				     .nonly = nonly, .force = j->force };

		/* the job's status is perfbot run's, as a Slurm node's is */
		rc = job_submit(c, cfg, &q, j, &r, &nj);
		queue_free(&q);
		/* the build dies with this process: let it end, unless stopping */
		prebuild_finish(&nj.build, &stop_requested);
		if (nj.loaded)
			queue_free(&nj.q);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}

/* Runs one claimed job to its end (or to a stop); records how it ended. */
static void run_job(sqlite3 *db, const struct cli *c, struct pb_config *cfg, struct job *j)
{
	pid_t parent = getpid(), child;
	bool forwarded = false, hup_said = false;
	char *msg = NULL;
	enum job_state state;
	int st = 0, rc = -1;
	pb_err err;

	say(LOG_INFO, "job %lld: run --patch %03d%s%s, attempt %d%s; log %s", j->id, j->patch,
	    j->workloads[0] ? " --workload " : "", j->workloads, j->attempts,
	    j->journaled_boots ? ", resuming after its journaled boots" : "", j->log);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		say(LOG_ERR, "job %lld: cannot fork: %s", j->id, strerror(errno));
		jobdb_finish(db, j->id, JOB_QUEUED, -1, "perfbotd could not start it", &err);
		sleep(5);
		return;
	}
	if (child == 0)
		job_child(c, cfg, j, parent);
	for (;;) {
		pid_t w = waitpid(child, &st, 0);

		if (w == child)
			break;
		if (w < 0 && errno != EINTR) {
			say(LOG_ERR, "job %lld: waitpid: %s", j->id, strerror(errno));
			break;
		}
		if (reload_requested && !hup_said) {
			say(LOG_INFO, "SIGHUP: config.ini is re-read when job %lld ends", j->id);
			hup_said = true;
		}
		if (stop_requested && !forwarded) {
			say(LOG_NOTICE, "job %lld: stopping once the boots under way end (SIGTERM)", j->id);
			kill(child, SIGTERM);
			forwarded = true;
		}
	}
	if (WIFEXITED(st))
		rc = WEXITSTATUS(st);
	if (rc == PB_EXIT_STOPPED) {
		state = JOB_QUEUED;
		msg = xasprintf(cfg->executor == EXECUTOR_SLURM
					? "stopped by SIGTERM: its Slurm job cancelled; runs whole again"
					: "stopped by SIGTERM: resumes after its last completed boot");
	} else if (pb_exit_answered(rc) && (msg = result_line(db, j->id))) {
		state = JOB_DONE;
	} else if (rc == PB_EXIT_OK) {
		state = JOB_DONE; /* nothing to measure: a patch perfbot run would skip */
		msg = last_line(j->log);
	} else if (rc >= 0) {
		state = JOB_FAILED;
		msg = last_line(j->log);
	} else {
		state = JOB_FAILED;
		msg = xasprintf("perfbot died of signal %d (see its log)",
				WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	}
	if (!jobdb_finish(db, j->id, state, rc, msg, &err))
		say(LOG_ERR, "job %lld: %s", j->id, err.msg);
	say(rc == PB_EXIT_OK || rc == PB_EXIT_STOPPED || rc == PB_EXIT_REGRESSION || rc == PB_EXIT_BEHAVIOUR
		    ? LOG_INFO
		    : LOG_WARNING,
	    "job %lld %s (exit %d): %s",
	    j->id, job_state_name(state), rc, msg);
	free(msg);
}

/* SIGHUP: config.ini and the command line's overrides again; a broken file
 * keeps the configuration in force. */
static void reload(struct cli *c, struct pb_config *cfg)
{
	struct pb_config fresh;
	pb_err err;

	if (!cli_load_config(c, &fresh, &err)) {
		say(LOG_ERR, "SIGHUP: %s; keeping the configuration read before", err.msg);
		return;
	}
	if (strcmp(fresh.db_path, cfg->db_path)) {
		say(LOG_ERR, "SIGHUP: %s names another database (%s); that needs a restart, keeping the "
			     "configuration read before", fresh.path, fresh.db_path);
		config_free(&fresh);
		return;
	}
	config_free(cfg);
	*cfg = fresh;
	say(LOG_INFO, "SIGHUP: re-read %s (run.boots %d, run.iterations %d, run.max_boots %d)", cfg->path,
	    cfg->boots, cfg->iterations, cfg->max_boots);
}

static int serve(struct cli *c, struct pb_config *cfg, bool once, int poll_s)
{
	sqlite3 *db = NULL;
	char *log_dir = xasprintf("%s/logs", cfg->report_dir);
	int orphans = 0, ran = 0;
	pb_err err;

	/* the database is checked before the log directory is made */
	if (!jobdb_daemon_lock(cfg->db_path, &err) || !db_open(cfg->db_path, &db, &err) ||
	    !mkdir_p(log_dir, &err) || !jobdb_requeue_orphans(db, MAX_ATTEMPTS, &orphans, &err)) {
		say(LOG_ERR, "%s", err.msg);
		if (db)
			db_close(db);
		free(log_dir);
		return PB_EXIT_ERROR;
	}
	say(LOG_INFO, "started (pid %d, perfbot %s), serving %s%s", (int)getpid(), perfbot_version,
	    cfg->db_path, once ? " until its queue is empty" : "");
	if (orphans)
		say(LOG_NOTICE, "%d job(s) were running when the last perfbotd stopped: queued again, to "
				"resume after their last completed boot", orphans);
	while (!stop_requested) {
		struct job j = { 0 };
		bool found;

		if (reload_requested) {
			reload_requested = 0;
			reload(c, cfg);
			free(log_dir);
			log_dir = xasprintf("%s/logs", cfg->report_dir);
			if (!mkdir_p(log_dir, &err))
				say(LOG_ERR, "%s", err.msg);
		}
		if (!jobdb_claim(db, (int)getpid(), log_dir, &j, &found, &err)) {
			say(LOG_ERR, "%s", err.msg);
			sleep((unsigned)poll_s);
			continue;
		}
		if (found) {
			run_job(db, c, cfg, &j);
			job_free(&j);
			ran++;
			continue;
		}
		if (once)
			break;
		sleep((unsigned)poll_s); /* a signal cuts it short */
	}
	say(LOG_INFO, "%s after %d job(s)", stop_requested ? "stopped (SIGTERM)" : "queue empty, exiting",
	    ran);
	db_close(db);
	free(log_dir);
	return PB_EXIT_OK;
}

/* Before detaching or creating anything (the log directory, the lock): a
 * database that is not perfbot's, or another perfbotd, is said on the
 * terminal with exit 1, not in syslog after "started". */
static bool may_serve(const struct pb_config *cfg)
{
	pb_err err;

	if (!db_check(cfg->db_path, DB_READ_WRITE, &err)) {
		cli_error("%s", err.msg);
		return false;
	}
	if (jobdb_daemon_pid(cfg->db_path) != 0) {
		cli_error("another perfbotd (pid %d) serves %s", jobdb_daemon_pid(cfg->db_path),
			  cfg->db_path);
		return false;
	}
	return true;
}

/* Into the background: the parent says so and returns its exit status
 * (*parent true); the child, in a session of its own with /dev/null for
 * stdin, stdout and stderr, logs to syslog. */
static int detach(bool *parent)
{
	pid_t pid = fork();
	int fd;

	*parent = pid != 0;
	if (pid < 0) {
		cli_error("cannot fork: %s", strerror(errno));
		return PB_EXIT_ERROR;
	}
	if (pid > 0) {
		printf("perfbotd: started in the background (pid %d), logging to syslog\n", (int)pid);
		return PB_EXIT_OK;
	}
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	use_syslog = true;
	return PB_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	bool foreground = false, once = false, parent = false;
	int rc, poll_s = 10;
	pb_err err;
	const struct pb_option opts[] = {
		OPT_BOOL('F', "foreground", &foreground,
			 "stay attached and log to stderr (what systemd and tests use)"),
		OPT_BOOL('s', "syslog", &use_syslog, "log to syslog even in the foreground"),
		OPT_BOOL('1', "once", &once, "exit when no job is queued instead of waiting for one"),
		OPT_INTEGER('i', "poll", &poll_s, "SECS", 1, 3600, "seconds",
			    "how often an idle perfbotd looks for a job (default 10)"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	path_add_sbin();
	cli_program = "perfbotd";
	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = may_serve(&cfg) ? PB_EXIT_OK : PB_EXIT_ERROR;
	if (rc == PB_EXIT_OK && !foreground)
		rc = detach(&parent);
	/* an error, or the parent of the perfbotd now in the background */
	if (rc != PB_EXIT_OK || parent) {
		config_free(&cfg);
		goto out;
	}
	if (use_syslog)
		openlog("perfbotd", LOG_PID, LOG_DAEMON);
	stop_catch(NULL);
	handle(SIGHUP, on_reload);
	rc = serve(&c, &cfg, once, poll_s);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
