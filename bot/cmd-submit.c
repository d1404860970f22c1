/* perfbot submit --patch N: queue a run for perfbotd. Checked here as run
 * would check it (the patch is in the queue and mm, the workloads exist),
 * so that bad input is refused now, not at 3 a.m. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "host.h"
#include "jobdb.h"
#include "queue.h"
#include "workload.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: perfbot submit --patch N [options]\n"
		     "  -p, --patch N         the series number of the patch\n"
		     "  -w, --workload NAME   run this workload (repeatable), as perfbot run does\n"
		     "  -f, --force           measure a patch that is not an mm patch too\n");
	cli_common_usage(out);
	fprintf(out, "perfbotd runs the queued jobs one at a time; perfbot jobs lists them.\n"
		     "exit status: 0 queued, 1 bad input (nothing queued), 2 bad usage\n");
}

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

static int submit(const struct pb_config *cfg, const struct pb_queue *q, int number, char **only,
		  int nonly, bool force)
{
	const struct pb_patch *p = cli_queue_patch(q, number);
	sqlite3 *db = NULL;
	pb_str names;
	long long id;
	pb_err err;
	int daemon, rc = PB_EXIT_ERROR;

	str_init(&names);
	if (!p)
		goto out;
	if (!p->is_mm && !force) {
		cli_error("patch %03d is not an mm patch (%s): nothing to measure (--force queues it anyway)",
			  p->number, p->mm_reason);
		goto out;
	}
	if (!workload_names(cfg, only, nonly, &names))
		goto out;
	if (!db_open(cfg->db_path, &db, &err) ||
	    !jobdb_submit(db, q->dir, p->number, names.buf, force, &id, &err)) {
		cli_error("%s", err.msg);
		goto out;
	}
	printf("perfbot: job %lld queued: run --patch %03d%s%s%s (%s)\n", id, p->number,
	       names.len ? " --workload " : "", names.buf, force ? " --force" : "", p->subject);
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
	return rc;
}

int cmd_submit(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	int rc = cli_patch_args(argc, argv, &c, &a, usage);

	if (rc < 0 && !cli_load_config_queue(&c, &cfg, &q))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		rc = submit(&cfg, &q, a.number, a.only, a.nonly, a.force);
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
