/* perfbot jobs: perfbotd's queue, oldest first: what each job is, where it
 * is (queued, running with its journaled boots, done, failed) and what it
 * found. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "jobdb.h"
#include "util.h"

static const struct pb_usage usage = { "perfbot jobs", "[options]", NULL };

/* Every string of a row comes from the database: made visible(), so that
 * none can forge a row or reach the terminal as an escape sequence. */
static void print_jobs(const struct job *j, int n, int daemon, const char *db_path)
{
	char *path = visible(db_path);

	if (daemon > 0)
		printf("perfbotd: running (pid %d) on %s\n", daemon, path);
	else
		printf("perfbotd: not running on %s\n", path);
	free(path);
	if (!n) {
		printf("no jobs (perfbot submit --patch N adds one)\n");
		return;
	}
	printf("%4s %-8s %-36s %8s %5s %-20s %-20s %s\n", "job", "state", "what", "attempts", "boots",
	       "submitted", "finished", "result");
	for (int i = 0; i < n; i++) {
		char *what, *kind = visible(j[i].kind), *workloads = visible(j[i].workloads);
		const char *state = job_state_name(j[i].state);
		char *submitted = visible(j[i].submitted_at);
		char *finished = visible(j[i].finished_at ? j[i].finished_at : "-");
		char *message = visible(j[i].message ? j[i].message : "-");

		what = xasprintf("%s --patch %03d%s%s%s", kind, j[i].patch, workloads[0] ? " -w " : "",
				 workloads, j[i].force ? " -f" : "");
		printf("%4lld %-8s %-36.127s %8d %5d %-20s %-20s %s", j[i].id, state, what,
		       j[i].attempts, j[i].journaled_boots, submitted, finished, message);
		if (j[i].log) {
			char *log = visible(j[i].log);

			printf(" (log %s)", log);
			free(log);
		}
		printf("\n");
		free(what);
		free(kind);
		free(workloads);
		free(submitted);
		free(finished);
		free(message);
	}
}

int cmd_jobs(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct job *jobs = NULL;
	sqlite3 *db = NULL;
	int n = 0, rc = cli_no_args(argc, argv, &c, &usage);
	pb_err err;

	if (rc >= 0)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		goto out;
	}
	/* a database that does not exist yet has no jobs: do not create it */
	if (!path_exists(cfg.db_path)) {
		print_jobs(NULL, 0, 0, cfg.db_path);
		rc = PB_EXIT_OK;
	} else if (!db_open_readonly(cfg.db_path, &db, &err) || !jobdb_list(db, &jobs, &n, &err)) {
		cli_error("%s", err.msg);
	} else {
		print_jobs(jobs, n, jobdb_daemon_pid(cfg.db_path), cfg.db_path);
		rc = PB_EXIT_OK;
	}
	if (db)
		db_close(db);
	jobs_free(jobs, n);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
