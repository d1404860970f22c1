/* perfbot submit --patch N: queue a run for perfbotd. Checked here as run
 * checks it before it builds (the patch is in the queue and mm, the
 * workloads exist, their packages and parameters, the kernel source: the
 * same code), so that bad input is refused now, not at 3 a.m. The options
 * that change the configuration (-c, --boots, --kernel-source, ...) are
 * stored with the job and applied when perfbotd runs it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "host.h"
#include "jobdb.h"
#include "pipeline.h"
#include "queue.h"
#include "workload.h"

/* the options are run's: cli_patch_args() */
static const struct pb_usage usage = {
	"perfbot submit", "--patch N [options]",
	"perfbotd runs the queued jobs one at a time; perfbot jobs lists them.\n"
	"exit status: 0 queued, 1 bad input (nothing queued), 2 bad usage\n",
};

/* The names as one space-separated string, after checking they exist. */
static bool workload_names(const struct pb_config *cfg, char **only, int nonly, pb_str *names)
{
	const struct workload *chosen[CLI_MAX_WORKLOADS];
	struct workload_set wset = { 0 };
	pb_err err;
	bool ok = workloads_load(cfg->workloads_dir, &wset, &err) &&
		  host_workloads_named(&wset, only, nonly, chosen, &err);

	if (!ok)
		cli_error("%s", err.msg);
	for (int i = 0; ok && i < nonly; i++)
		str_addf(names, "%s%s", i ? " " : "", chosen[i]->name);
	workloads_free(&wset);
	return ok;
}

/* The job's settings: for each key the command line set, its value as
 * this configuration has it (paths made absolute here, where they were
 * given), one "section.key=value" a line. database.path is where the job
 * is queued, not a setting of it. false (err) for one that cannot be
 * stored. */
static bool job_overrides(const struct cli *c, const struct pb_config *cfg, pb_str *out, pb_err *err)
{
	char *dump = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&dump, &len);
	pb_str seen;
	bool ok = true;

	if (!f) {
		pb_seterr(err, "cannot list the configuration: out of memory");
		return false;
	}
	config_dump(cfg, f);
	fclose(f);
	str_init(&seen);
	for (int i = 0; ok && i < c->noverrides; i++) {
		const char *o = c->overrides[i], *eq = strchr(o, '=');
		char *key = eq ? xstrndup(o, (size_t)(eq - o)) : NULL, *pat, *at;

		if (!key || !strcmp(key, "database.path")) {
			free(key);
			continue;
		}
		pat = xasprintf("\n%s = ", key);
		if (!strstr(seen.buf, pat)) {
			char *line = xasprintf("\n%s", dump);

			at = strstr(line, pat);
			if (!at) {
				pb_seterr(err, "%s: not a setting perfbot submit can store with the job", key);
				ok = false;
			} else {
				size_t n = strcspn(at + strlen(pat), "\n");

				str_addf(out, "%s%s=%.*s", out->len ? "\n" : "", key, (int)n, at + strlen(pat));
				str_addf(&seen, "%s", pat);
			}
			free(line);
		}
		free(pat);
		free(key);
	}
	str_free(&seen);
	free(dump);
	return ok;
}

static int submit(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
		  int number, char **only, int nonly, bool force)
{
	const struct pb_patch *p = cli_queue_patch(q, number);
	sqlite3 *db = NULL;
	pb_str names, overrides;
	char *subject;
	long long id;
	pb_err err;
	int daemon, rc = PB_EXIT_ERROR;

	str_init(&names);
	str_init(&overrides);
	if (!p)
		goto out;
	if (!p->is_mm && !force) {
		cli_error("patch %03d is not an mm patch (%s): nothing to measure (--force queues it anyway)",
			  p->number, p->mm_reason);
		goto out;
	}
	if (!workload_names(cfg, only, nonly, &names))
		goto out;
	if (!pipeline_check_run(cfg, p, only, nonly, &err) || !job_overrides(c, cfg, &overrides, &err) ||
	    !db_open(cfg->db_path, &db, &err) ||
	    !jobdb_submit(db, q->dir, p->number, names.buf, force, overrides.buf, &id, &err)) {
		cli_error("%s", err.msg);
		goto out;
	}
	subject = visible(p->subject);
	printf("perfbot: job %lld queued: run --patch %03d%s%s%s (%s)\n", id, p->number,
	       names.len ? " --workload " : "", names.buf, force ? " --force" : "", subject);
	free(subject);
	if (overrides.len) {
		printf("perfbot: with ");
		for (const char *l = overrides.buf; *l;) {
			size_t n = strcspn(l, "\n");

			printf("%s-c %.*s", l == overrides.buf ? "" : " ", (int)n, l);
			l += n + (l[n] == '\n');
		}
		printf("\n");
	}
	daemon = jobdb_daemon_pid(cfg->db_path);
	if (daemon > 0)
		printf("perfbot: perfbotd (pid %d) runs it; perfbot jobs shows where it is\n", daemon);
	else
		printf("perfbot: no perfbotd is running on %s: it runs when one starts (perfbotd, or "
		       "systemctl start perfbotd)\n", cfg->db_path);
	rc = PB_EXIT_OK;
out:
	if (db)
		db_close(db);
	str_free(&names);
	str_free(&overrides);
	return rc;
}

int cmd_submit(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	int rc = cli_patch_args(argc, argv, &c, &a, &usage, false);

	/* the job runs with perfbotd's configuration file, never this one */
	if (rc < 0 && c.config_path) {
		cli_error("submit --config %s: perfbotd runs its jobs with its own configuration; give "
			  "what this job needs as -c section.key=value", c.config_path);
		rc = PB_EXIT_USAGE;
	}
	if (rc < 0 && !cli_load_config_queue(&c, &cfg, &q))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		rc = submit(&c, &cfg, &q, a.number, a.only, a.nonly, a.force);
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
