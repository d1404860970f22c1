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
 * judged with), made here: its path (the caller's to unlink and free),
 * the comparison here in *id, r's comparison the seed's own. NULL, said,
 * when it cannot be made. Its steps and record come home as a bundle. */
static char *bisect_seed(const struct pb_config *cfg, const struct pb_queue *q, struct request *r,
			 long long *id)
{
	struct bisect_request rq = { .series_cid = r->comparison, .metric = r->metric };
	char *seed = NULL, *uids[2] = { NULL, NULL };
	sqlite3 *db = NULL, *s = NULL;
	long long seed_id = 0;
	int n = 0;
	pb_err err = { "" };

	*id = 0;
	if (!path_exists(cfg->db_path)) {
		cli_error("no database %s yet: perfbot run --series measures a series first",
			  cfg->db_path);
		return NULL;
	}
	if (!db_open_readonly(cfg->db_path, &db, &err) || !bisect_find_series(db, q, &rq, id, &err))
		goto fail;
	{
		char *uid, *cal;

		if (!db_comparison_uids(db, *id, &uid, &cal, &err))
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
			  "perfbot run --series measures it again", *id);
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
		pb_seterr(&err, "bisect: series comparison %lld did not go into %s", *id, seed);
		goto fail;
	}
	event_say("perfbot: bisect of series comparison %lld (%lld there)\n", *id, seed_id);
	r->comparison = seed_id;
	goto out;
fail:
	cli_error("%s", err.msg);
	if (seed)
		unlink(seed);
	free(seed);
	seed = NULL;
out:
	db_close(db);
	free(uids[0]);
	free(uids[1]);
	return seed;
}

/* The bisect r asks, here or as one Slurm job (from a seed database). */
static int run_bisect(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
		      struct request *r)
{
	struct submit how = { .overrides = c->overrides, .noverrides = c->noverrides,
			      .show = &cli_presenter };
	struct submitted sub;
	char *seed = NULL;
	enum run_end end;
	pb_err err;

	if (cfg->executor == EXECUTOR_SLURM) {
		seed = bisect_seed(cfg, q, r, &how.page_of);
		if (!seed)
			return PB_EXIT_ERROR;
		how.seed = seed;
	}
	end = executor_submit(cfg, q, r, &how, &sub, &err);
	if (seed)
		unlink(seed);
	free(seed);
	return cli_submitted_status(end, &sub, &err, false);
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
	struct request r;
	int rc;

	rc = cli_bisect_args(argc, argv, &c, &r, &usage);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	rc = run_bisect(&c, &cfg, &q, &r);
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
