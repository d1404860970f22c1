/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare.
 * perfbot run --series: the same for the queue as a whole (the -rc). */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "bisect.h"
#include "cli.h"
#include "db.h"
#include "event.h"
#include "executor.h"
#include "pipeline.h"
#include "queue.h"

static const struct pb_usage usage = {
	"perfbot run", "--patch N [options]\n   or: perfbot run --patch-file FILE|- [options]\n"
	"   or: perfbot run --series [--mm-only] [--no-bisect] [options]",
	"exit status: 0 measured, no regression (or nothing to measure), 1 bad input\n"
	"             or environment, 2 bad usage, 3 a kernel failed to build or boot,\n"
	"             5 a regression, 6 a behaviour change without one (3, 5, 6: stored);\n"
	"             with --bisect-exit: 0 good, 1 bad, 125 skip, 128 error\n",
};

/* A series run here that found a regression, a behaviour change or a
 * kernel that failed is bisected to the patch that did it, as the -rc's
 * answer needs; an improvement is not. The series' exit status rc stands
 * unless the bisect could not go on. (On Slurm, the node's perfbot run
 * --series bisects, as this one does.) */
static int bisect_series(const struct pb_config *cfg, const struct pb_queue *q,
			 const struct pipeline_outcome *out, bool bisect, int rc)
{
	const char *what = out->status == STATUS_BUILD_FAILED  ? "a kernel that failed to build"
			   : out->status == STATUS_BOOT_FAILED ? "a kernel that failed to boot"
			   : out->decided && out->verdict == VERDICT_REGRESSION ? "a regression"
			   : out->behaviour_change ? "a behaviour change" : NULL;
	struct request r = { .kind = REQUEST_BISECT, .comparison = out->comparison };
	struct submit how = { .show = &cli_presenter };
	struct submitted sub;
	enum run_end end;
	pb_err err;

	if (rc == PB_EXIT_ERROR || rc == PB_EXIT_STOPPED || !out->comparison || !what)
		return rc;
	if (!bisect) {
		event_say("perfbot: the series showed %s: perfbot bisect --comparison %lld finds the "
			  "patch\n", what, out->comparison);
		return rc;
	}
	event_say("perfbot: the series showed %s: bisecting comparison %lld (--no-bisect: not)\n",
		  what, out->comparison);
	event_flush(EVENT_SAY);
	end = executor_submit(cfg, q, &r, &how, &sub, &err);
	if (end == RUN_FAILED)
		return cli_run_status(end, NULL, &err);
	return rc;
}

/* What the options ask, where [executor] kind says: here, or as one Slurm
 * job (whose exit status, perfbot's on its node, is this one's) that runs
 * it on its node, the series' bisect too, its answer imported here. */
static int run_request(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
		       const struct patch_args *a, struct pipeline_outcome *out)
{
	struct submit how = { .overrides = c->overrides, .noverrides = c->noverrides,
			      .show = &cli_presenter };
	struct submitted sub;
	struct request r;
	enum run_end end;
	pb_err err;
	int rc;

	/* the node would need the file, and a queue to find it in */
	if (cfg->executor == EXECUTOR_SLURM && a->patch_file) {
		cli_error("--patch-file runs on this machine: add -c executor.kind=local");
		return PB_EXIT_ERROR;
	}
	cli_run_request(a, &r);
	if (r.kind == REQUEST_PATCH && !cli_queue_patch(q, r.number))
		return PB_EXIT_ERROR;
	end = executor_submit(cfg, q, &r, &how, &sub, &err);
	*out = sub.outcome;
	rc = cli_submitted_status(end, &sub, &err, true);
	if (cfg->executor != EXECUTOR_SLURM && r.kind == REQUEST_SERIES)
		rc = bisect_series(cfg, q, out, !a->no_bisect, rc);
	return rc;
}

/* git bisect run's: 0 good, 1 bad, 125 skip (this commit cannot be
 * judged), 128 stops the bisection (perfbot could not run). */
static int bisect_status(int rc, const struct pipeline_outcome *o)
{
	switch (rc) {
	case PB_EXIT_REGRESSION:
	case PB_EXIT_BEHAVIOUR:
		return 1;
	case PB_EXIT_KERNEL:
		return 125;
	case PB_EXIT_OK:
		/* measured but undecided: more boots, not a "good" */
		return o->comparison && o->decided &&
				       (o->verdict == VERDICT_INCONCLUSIVE || o->verdict == VERDICT_NO_DATA)
			       ? 125
			       : 0;
	default:
		return 128;
	}
}

/* run --json: the answer's document on stdout, alone: what the run said
 * went to stderr (event_stderr), so that a script reads JSON alone. */
static bool print_json(const struct pb_config *cfg, int rc, long long cid)
{
	struct answer a;
	struct json j;
	sqlite3 *db = NULL;
	pb_err err;
	pb_str s;
	bool ok = true;

	str_init(&s);
	json_init(&j, &s);
	json_object_begin(&j, NULL);
	json_int(&j, "exit_status", rc);
	json_array_begin(&j, "comparisons");
	if (cid) {
		ok = db_open_readonly(cfg->db_path, &db, &err) && view_load(&a.view, db, cid, &err);
		if (ok) {
			answer_json(&a, &j, NULL);
			answer_free(&a);
		} else
			cli_error("--json: %s", err.msg);
		db_close(db);
	}
	json_array_end(&j);
	json_object_end(&j);
	event_sink_set(NULL);
	fputs(s.buf, stdout);
	fflush(stdout);
	str_free(&s);
	return ok;
}

int cmd_run(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	struct pipeline_outcome out = { 0 };
	int rc = cli_patch_args(argc, argv, &c, &a, &usage, true);
	bool parsed = rc < 0, loaded = false;

	/* --json: what the run says goes to stderr, the document to stdout */
	if (parsed && a.json)
		event_sink_set(&event_stderr);
	if (rc < 0 && !cli_load_config_patches(&c, &cfg, &q, &a))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		loaded = true;
		rc = run_request(&c, &cfg, &q, &a, &out);
	}
	if (a.bisect_exit && (parsed || rc == PB_EXIT_USAGE))
		rc = bisect_status(rc, &out);
	/* the document says the status perfbot exits with, whatever happened */
	if (parsed && a.json)
		print_json(loaded ? &cfg : NULL, rc, loaded ? out.comparison : 0);
	if (loaded) {
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
