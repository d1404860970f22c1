/* perfbot jobs: perfbotd's queue, oldest first: what each job is, where it
 * is (queued, running with its journaled boots, done, failed) and what it
 * found; as a table, or (--json) as one JSON array. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "jobdb.h"
#include "json.h"
#include "util.h"

static const struct pb_usage usage = { "perfbot jobs", "[--json] [options]", NULL };

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

/* A NULL or "" string as null. */
static void json_text(struct json *js, const char *key, const char *s)
{
	json_string(js, key, s && s[0] ? s : NULL);
}

/* The jobs as one array, an object a job: the strings as the database
 * has them (the writer escapes them), what is not there yet as null. */
static void print_json(const struct job *j, int n)
{
	struct json js;
	pb_str out;

	str_init(&out);
	json_init(&js, &out);
	json_array_begin(&js, NULL);
	for (int i = 0; i < n; i++) {
		char *command = xasprintf("%s --patch %03d%s%s%s", j[i].kind ? j[i].kind : "",
					  j[i].patch, j[i].workloads && j[i].workloads[0] ? " -w " : "",
					  j[i].workloads ? j[i].workloads : "", j[i].force ? " -f" : "");

		json_object_begin(&js, NULL);
		json_int(&js, "id", j[i].id);
		json_string(&js, "state", job_state_name(j[i].state));
		json_text(&js, "kind", j[i].kind);
		json_string(&js, "command", command);
		json_text(&js, "queue", j[i].queue);
		json_int(&js, "patch", j[i].patch);
		json_array_begin(&js, "workloads");
		if (j[i].workloads) {
			char *names = xstrdup(j[i].workloads), *save = NULL;

			for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save))
				json_string(&js, NULL, w);
			free(names);
		}
		json_array_end(&js);
		json_bool(&js, "force", j[i].force);
		json_array_begin(&js, "settings");
		if (j[i].overrides) {
			char *lines = xstrdup(j[i].overrides), *save = NULL;

			for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
				json_string(&js, NULL, l);
			free(lines);
		}
		json_array_end(&js);
		json_text(&js, "submitted_at", j[i].submitted_at);
		json_text(&js, "started_at", j[i].started_at);
		json_text(&js, "finished_at", j[i].finished_at);
		json_int(&js, "attempts", j[i].attempts);
		json_int(&js, "boots", j[i].journaled_boots);
		if (j[i].pid > 0)
			json_int(&js, "pid", j[i].pid);
		else
			json_null(&js, "pid");
		if (j[i].exit_status >= 0)
			json_int(&js, "exit_status", j[i].exit_status);
		else
			json_null(&js, "exit_status");
		if (j[i].comparison > 0)
			json_int(&js, "comparison_id", j[i].comparison);
		else
			json_null(&js, "comparison_id");
		json_text(&js, "message", j[i].message);
		json_text(&js, "log", j[i].log);
		json_object_end(&js);
		free(command);
	}
	json_array_end(&js);
	fputs(out.buf, stdout);
	str_free(&out);
}

int cmd_jobs(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct job *jobs = NULL;
	sqlite3 *db = NULL;
	bool json = false;
	int n = 0, rc;
	pb_err err;
	const struct pb_option opts[] = {
		OPT_BOOL(0, "json", &json, "the jobs as one JSON array, an object each"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		goto out;
	}
	/* a database that does not exist yet has no jobs: do not create it */
	if (!path_exists(cfg.db_path)) {
		if (json)
			print_json(NULL, 0);
		else
			print_jobs(NULL, 0, 0, cfg.db_path);
		rc = PB_EXIT_OK;
	} else if (!db_open_readonly(cfg.db_path, &db, &err) || !jobdb_list(db, &jobs, &n, &err)) {
		cli_error("%s", err.msg);
	} else {
		if (json)
			print_json(jobs, n);
		else
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
