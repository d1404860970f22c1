/* perfbot bisect [--metric W.M] [--comparison ID]: which patch of a series
 * made the change its series run found (bisect.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bisect.h"
#include "bundle.h"
#include "cli.h"
#include "db.h"
#include "event.h"
#include "executor.h"
#include "queue.h"

/* [executor] kind = slurm: the bisect as one Slurm job (its steps depend
 * each on the last: one node runs them in turn), which starts from a
 * database holding the series comparison (and the calibration it was
 * judged with); its steps and record come home as a bundle. */
static int bisect_on_slurm(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
			   const struct bisect_request *rq)
{
	char *seed = NULL, *uids[2] = { NULL, NULL }, id_arg[24];
	char *cmd[] = { "bisect", "--comparison", id_arg, "--metric", (char *)rq->metric };
	struct executor_one one = { .name = "bisect", .cmd = cmd, .ncmd = rq->metric ? 5 : 3,
				    .kind = KIND_BISECT, .show = &cli_presenter };
	sqlite3 *db = NULL, *s = NULL;
	long long id = 0, seed_id = 0;
	int rc = PB_EXIT_ERROR, n = 0;
	enum run_end end;
	pb_err err = { "" };

	if (!path_exists(cfg->db_path)) {
		cli_error("no database %s yet: perfbot run --series measures a series first",
			  cfg->db_path);
		return PB_EXIT_ERROR;
	}
	if (!db_open_readonly(cfg->db_path, &db, &err) || !bisect_find_series(db, q, rq, &id, &err))
		goto fail;
	{
		char *uid, *cal;

		if (!db_comparison_uids(db, id, &uid, &cal, &err))
			goto fail;
		/* the series' own uid first: without it there is nothing to send */
		if (uid) {
			uids[n++] = uid;
			if (cal)
				uids[n++] = cal;
		} else {
			free(cal);
		}
	}
	if (!n) {
		pb_seterr(&err, "bisect: series comparison %lld has no uid (stored before schema 9): "
			  "perfbot run --series measures it again", id);
		goto fail;
	}
	/* where the nodes see it: the spool */
	{
		char *root = config_spool_dir(cfg);
		bool made = mkdir_p(root, &err);

		seed = executor_spool(cfg, "bisect-seed");
		free(root);
		if (!made)
			goto fail;
	}
	{
		char *path = xasprintf("%s.db", seed);

		free(seed);
		seed = path;
	}
	if (!bundle_export(cfg->db_path, (const char *const *)uids, n, seed, &err) ||
	    !db_open_readonly(seed, &s, &err))
		goto fail;
	seed_id = db_comparison_of_uid(s, uids[0], KIND_SERIES, NULL);
	db_close(s);
	db_close(db);
	db = NULL;
	if (seed_id <= 0) {
		pb_seterr(&err, "bisect: series comparison %lld did not go into %s", id, seed);
		goto fail;
	}
	snprintf(id_arg, sizeof(id_arg), "%lld", seed_id);
	event_say("perfbot: bisect of series comparison %lld (%s there)\n", id, id_arg);
	one.seed = xstrdup(seed);
	one.page_of = id;
	one.overrides = c->overrides;
	one.noverrides = c->noverrides;
	end = executor_run_one(cfg, q, &one, &err);
	rc = end == RUN_DONE ? one.exit_code : cli_run_status(end, NULL, &err);
	unlink(seed);
	goto out;
fail:
	cli_error("%s", err.msg);
	if (seed)
		unlink(seed);
out:
	db_close(db);
	free(seed);
	free(uids[0]);
	free(uids[1]);
	return rc;
}

static const struct pb_usage usage = {
	"perfbot bisect", "[--metric WORKLOAD.METRIC] [--comparison ID] [options]",
	"Bisects the newest series comparison of the queue (perfbot run --series),\n"
	"or the one named, on what it found (a regression first) or on the metric\n"
	"named. exit status: 0 a culprit confirmed, 1 bad input or environment,\n"
	"2 bad usage, 3 no culprit confirmed (stored as a result)\n",
};

int cmd_bisect(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	const char *metric = NULL;
	int rc, cid = 0;
	const struct pb_option opts[] = {
		OPT_STRING('m', "metric", &metric, "W.M",
			   "the metric to bisect on, e.g. thp-anon.fault_always_ms_per_gib\n"
			   "(default: what the series comparison found)"),
		OPT_INTEGER(0, "comparison", &cid, "ID", 1, 2000000000, "comparison",
			    "the series comparison (default: the queue's newest)"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	{
		struct bisect_request rq = { .series_cid = cid, .metric = metric, .show = &cli_presenter };

		pb_err err;

		rc = cfg.executor == EXECUTOR_SLURM
			     ? bisect_on_slurm(&c, &cfg, &q, &rq)
			     : cli_run_status(pipeline_bisect(&cfg, &q, &rq, &err), NULL, &err);
	}
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
