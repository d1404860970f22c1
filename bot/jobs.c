/* The two jobs that build and boot: a patch's comparison (perfbot run) and
 * an A/A calibration (perfbot calibrate). run, calibrate and nightly call
 * them; each prints its progress and table and stores one comparison. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "db.h"
#include "host.h"
#include "jobdb.h"
#include "jobs.h"
#include "kernel.h"
#include "measure.h"
#include "queue.h"
#include "report.h"
#include "vm.h"
#include "workload.h"

#define FA_SPLITS 200

static void outcome_set(struct job_outcome *jo, long long cid, const struct comparison *cmp)
{
	if (!jo)
		return;
	jo->comparison = cid;
	jo->status = cmp->status;
	jo->decided = cmp->decided;
	jo->verdict = cmp->verdict;
	jo->behaviour_change = cmp->decided && cmp->behaviour == VERDICT_BEHAVIOUR_CHANGE;
}

static bool build_pair(const struct pb_config *cfg, struct kernel_tree *tree,
		       const struct kernel_config *kc, const struct pair_plan *plan,
		       struct comparison *cmp, pb_err *err)
{
	const struct kernel_change *c[2] = { &plan->without, &plan->with };

	for (int s = 0; s < 2; s++) {
		if (!kernel_build(cfg, tree, kc, c[s], &cmp->image[s], err))
			return false;
		if (cmp->image[s].built)
			fprintf(stderr, "perfbot: %-7s the fix: %-10s %s (%s)\n", side_name((enum side)s),
				c[s]->label, cmp->image[s].bzimage,
				cmp->image[s].cached ? "cached" : "built now");
		else
			fprintf(stderr, "perfbot: %-7s the fix: %-10s BUILD FAILED, log %s\n",
				side_name((enum side)s), c[s]->label, cmp->image[s].log);
	}
	return true;
}

/* What the journaled boots of a job depend on: were any of these different,
 * its boots would not belong in one comparison. */
static char *journal_inputs(const struct comparison *cmp, const struct guest_plan *gp,
			    const struct pb_config *cfg)
{
	pb_str s;

	str_init(&s);
	str_addf(&s, "kernels %s %s; accel %s; iterations %d; cmdline %s; workloads", cmp->image[0].key,
		 cmp->image[1].key, cmp->accel.name, cfg->iterations, gp->kernel_cmdline);
	for (int i = 0; i < gp->nworkloads; i++)
		str_addf(&s, " [%s %s]", gp->workloads[i]->name, gp->args[i] ? gp->args[i] : "");
	return str_steal(&s);
}

struct journal {
	sqlite3 *db;
	long long job;
};

static bool journal_boot(void *ctx, const struct comparison *cmp, int b, pb_err *err)
{
	const struct journal *j = ctx;

	return jobdb_journal_boot(j->db, j->job, cmp, b, err);
}

/* What run checks of its input before it builds anything: the workloads
 * (named, or chosen by the patch's paths), the packages they need, their
 * parameters. On success wset, chosen, gp are the caller's to free. */
static bool run_inputs(const struct pb_config *cfg, const struct pb_patch *p, char **only, int nonly,
		       struct workload_set *wset, const struct workload **chosen, int *nchosen,
		       bool *fallback, struct guest_plan *gp, pb_err *err)
{
	*fallback = false;
	if (!workloads_load(cfg->workloads_dir, wset, err))
		return false;
	if (nonly) {
		if (!host_workloads_named(wset, only, nonly, chosen, err))
			return false;
		*nchosen = nonly;
	} else {
		*nchosen = workloads_for_patch(wset, p, chosen, CLI_MAX_WORKLOADS, fallback);
	}
	/* Before any build: a missing package or a bad workload parameter. */
	return host_check_requirements(chosen, *nchosen, err) &&
	       guest_plan_init(gp, cfg, chosen, *nchosen, err);
}

bool job_check_run(const struct pb_config *cfg, const struct pb_patch *p, char **only, int nonly,
		   pb_err *err)
{
	const struct workload *chosen[CLI_MAX_WORKLOADS];
	struct workload_set wset = { 0 };
	struct guest_plan gp = { 0 };
	int nchosen = 0;
	bool fallback, ok = run_inputs(cfg, p, only, nonly, &wset, chosen, &nchosen, &fallback, &gp, err) &&
			    kernel_source_check(cfg, err);

	guest_plan_free(&gp);
	workloads_free(&wset);
	return ok;
}

int job_run_patch(const struct pb_config *cfg, const struct pb_queue *q,
		  const struct run_request *rq, struct job_outcome *jo)
{
	const int number = rq->number, nonly = rq->nonly;
	char **only = rq->only;
	const bool force = rq->force;
	const struct pb_patch *p = cli_queue_patch(q, number);
	struct journal journal = { 0 };
	const struct workload *chosen[CLI_MAX_WORKLOADS];
	struct workload_set wset = { 0 };
	struct kernel_tree tree = { 0 };
	struct pair_plan plan = { 0 };
	struct kernel_config kc = { 0 };
	struct comparison cmp = { 0 };
	struct guest_plan gp = { 0 };
	sqlite3 *db = NULL;
	char *log_dir = NULL, *initrd = NULL, *stamp = NULL;
	char *report = NULL;
	struct noise_floor *noise = NULL;
	int nnoise = 0;
	double start = now_seconds();
	bool fallback;
	int nchosen, rc = PB_EXIT_ERROR;
	long long cid;
	pb_err err;

	if (!p)
		return PB_EXIT_ERROR;
	if (jo)
		memset(jo, 0, sizeof(*jo));
	if (!p->is_mm && !force) {
		char *subject = visible(p->subject), *reason = visible(p->mm_reason);

		if (jo)
			jo->skipped = true;
		printf("perfbot: patch %03d (%s) is not an mm patch (%s): nothing to measure "
		       "(--force measures it anyway)\n", p->number, subject, reason);
		free(subject);
		free(reason);
		return PB_EXIT_OK;
	}
	if (!run_inputs(cfg, p, only, nonly, &wset, chosen, &nchosen, &fallback, &gp, &err))
		goto fail;
	{
		char *subject = visible(p->subject);

		printf("perfbot: patch %03d/%d %s\n", p->number, p->total, subject);
		free(subject);
	}

	if (!tree_prepare(cfg, &tree, &err) || !pair_decide(cfg, &tree, p, &plan, &err) ||
	    !host_selftests(&tree, &gp, &err))
		goto fail;
	{
		char *detail = visible(plan.detail);

		printf("perfbot: pair formed by %s: %s\n", pair_method_name(plan.method), detail);
		free(detail);
	}
	if (!kernel_config_prepare(cfg, &tree, &kc, &err))
		goto fail;
	/* Opened only now: bad input above never creates or touches the database.
	 * perfbotd's job waits for a manual run to finish; a manual run refuses. */
	if (!(rq->job_id ? db_lock_wait(cfg->db_path, rq->stop, &err) : db_lock(cfg->db_path, &err)) ||
	    !db_open(cfg->db_path, &db, &err)) {
		if (rq->stop && *rq->stop) {
			printf("perfbot: %s; job %lld stays queued\n", err.msg, rq->job_id);
			rc = PB_EXIT_STOPPED;
			goto out;
		}
		goto fail;
	}
	cmp.job_id = rq->job_id;

	cmp.patch = p;
	cmp.queue_dir = q->dir;
	cmp.tree = &tree;
	cmp.plan = &plan;
	cmp.config = &kc;
	cmp.workloads = chosen;
	cmp.nworkloads = nchosen;
	cmp.kind = "patch";
	cmp.boots_per_kernel = cfg->boots;
	cmp.iterations = cfg->iterations;
	cmp.seed = measure_seed(cfg);
	verdict_policy_init(&cmp.policy, cfg, NULL, cmp.seed);
	cmp.started_at = iso_time_now();
	{
		pb_str why;

		str_init(&why);
		if (nonly) {
			str_add(&why, "named on the command line (--workload)");
		} else if (fallback) {
			str_add(&why, "no workload declares a path this patch touches; ran the fallback set:");
			for (int i = 0; i < nchosen; i++)
				str_addf(&why, " %s", chosen[i]->name);
		} else {
			str_add(&why, "chosen by the paths the patch touches:");
			for (int i = 0; i < nchosen; i++)
				str_addf(&why, " %s", chosen[i]->name);
		}
		cmp.workload_choice = str_steal(&why);
	}
	printf("perfbot: workloads: ");
	for (int i = 0; i < nchosen; i++)
		printf("%s%s", i ? ", " : "", chosen[i]->name);
	printf(" (%s)\n", cmp.workload_choice);

	if (!build_pair(cfg, &tree, &kc, &plan, &cmp, &err))
		goto fail;
	if (!cmp.image[0].built || !cmp.image[1].built) {
		cmp.status = STATUS_BUILD_FAILED;
	} else {
		stamp = host_timestamp();
		log_dir = xasprintf("%s/logs/%03d-%s", cfg->report_dir, p->number, stamp);
		if (!host_guest_prepare(cfg, &gp, cmp.image[1].bzimage, log_dir, &initrd, &cmp.accel,
					&err))
			goto fail;
		cmp.booted = true;
		printf("perfbot: accelerator %s: %s\n", cmp.accel.name, cmp.accel.reason);
		verdict_policy_init(&cmp.policy, cfg, cmp.accel.name, cmp.seed);
		if (!db_load_noise(db, cmp.accel.name, kc.sha256, &noise, &nnoise,
				   &cmp.noise_calibration, &err))
			goto fail;
		cmp.noise = noise;
		cmp.nnoise = nnoise;
		if (rq->job_id) {
			char *inputs = journal_inputs(&cmp, &gp, cfg);
			bool ok = jobdb_journal_open(db, rq->job_id, inputs, &cmp, &err);

			free(inputs);
			if (!ok)
				goto fail;
			if (cmp.nboots)
				printf("perfbot: job %lld resumes after its last completed boot: %d boot(s) "
				       "journaled (seed %lu)\n", rq->job_id, cmp.nboots, cmp.seed);
			verdict_policy_init(&cmp.policy, cfg, cmp.accel.name, cmp.seed);
			journal.db = db;
			journal.job = rq->job_id;
		}
		if (cmp.noise_calibration)
			printf("perfbot: noise floor from calibration %lld (%s)\n", cmp.noise_calibration,
			       cmp.accel.name);
		else
			printf("perfbot: no calibration for %s yet (perfbot calibrate): the noise floor "
			       "comes from this run's own boots\n", cmp.accel.name);
		{
			struct measure_plan mp = {
				.guest = &gp, .initrd = initrd, .log_dir = log_dir,
				.kernel = { cmp.image[0].bzimage, cmp.image[1].bzimage },
				.label = { plan.without.label, plan.with.label },
				.first_rounds = cfg->boots,
				.max_rounds = cfg->max_boots > cfg->boots ? cfg->max_boots : cfg->boots,
				.budget_seconds = cfg->budget_minutes * 60.0,
				.boot_done = journal.db ? journal_boot : NULL, .ctx = &journal,
				.stop = rq->stop,
			};

			if (!measure_boots(cfg, &cmp, &mp, &err))
				goto fail;
		}
		unlink(initrd);
		if (cmp.interrupted) {
			printf("perfbot: stopped after boot %d; job %lld resumes from there\n", cmp.nboots,
			       rq->job_id);
			rc = PB_EXIT_STOPPED;
			goto out;
		}
		cmp.status = measure_ok_boots(&cmp, SIDE_WITHOUT) && measure_ok_boots(&cmp, SIDE_WITH)
				     ? STATUS_MEASURED
				     : STATUS_BOOT_FAILED;
	}
	cmp.finished_at = iso_time_now();
	cmp.wall_seconds = now_seconds() - start;
	if (!db_store_comparison(db, &cmp, perfbot_version, &cid, &err))
		goto fail;
	if (cmp.nresults)
		compare_print(&cmp, stdout);
	/* what the guest's console and the compiler said: their lines, made visible() */
	for (int b = 0; b < cmp.nboots; b++)
		if (cmp.boots[b].rec.outcome != BOOT_OK) {
			char *detail = visible_lines(cmp.boots[b].rec.detail);

			printf("boot %d (%s the fix): %s: %s\n", b + 1, side_name(cmp.boots[b].side),
			       boot_outcome_name(cmp.boots[b].rec.outcome), detail);
			free(detail);
		}
	for (int s = 0; s < 2; s++)
		if (cmp.image[s].failure) {
			char *failure = visible_lines(cmp.image[s].failure);

			printf("the kernel %s the fix failed to build:\n%s\n", side_name((enum side)s),
			       failure);
			free(failure);
		}
	if (!report_write_patch(db, cid, cfg->report_dir, &report, &err) ||
	    !report_write_index(db, q, cfg->report_dir, &err) ||
	    !report_write_trend(db, cfg->report_dir, &err))
		goto fail;
	printf("perfbot: %s; comparison %lld stored in %s (seed %lu); report %s (%.0f s)\n",
	       status_name(cmp.status), cid, cfg->db_path, cmp.seed, report, cmp.wall_seconds);
	outcome_set(jo, cid, &cmp);
	rc = cmp.status != STATUS_MEASURED ? PB_EXIT_KERNEL : PB_EXIT_OK;
	goto out;
fail:
	cli_error("%s", err.msg);
	rc = PB_EXIT_ERROR;
out:
	if (db)
		db_close(db);
	comparison_free(&cmp);
	noise_free(noise, nnoise);
	guest_plan_free(&gp);
	kernel_config_free(&kc);
	pair_plan_free(&plan);
	tree_free(&tree);
	workloads_free(&wset);
	free(log_dir);
	free(initrd);
	free(stamp);
	free(report);
	return rc;
}

/* Random splits: run.boots ok boots against run.boots others. Counts the
 * splits with any flag and the flags per metric (into flags_by_metric,
 * indexed like cmp->results). */
static void false_alarms(struct comparison *cmp, int per_side, unsigned long seed,
			 int *flags_by_metric)
{
	const struct boot **ok = xcalloc((size_t)cmp->nboots + 1, sizeof(*ok));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int nok = 0;

	for (int b = 0; b < cmp->nboots; b++)
		if (cmp->boots[b].rec.outcome == BOOT_OK)
			ok[nok++] = &cmp->boots[b];
	gsl_rng_set(rng, seed ^ 0x5eedUL);
	cmp->fa_splits = cmp->fa_flagged = cmp->fa_metric_tests = cmp->fa_metric_flags = 0;
	for (int s = 0; nok >= 2 * per_side && s < FA_SPLITS; s++) {
		struct comparison sub;
		int tested, flagged;

		/* a partial Fisher-Yates shuffle: the first 2 per_side are the split */
		for (int i = 0; i < 2 * per_side; i++) {
			int j = i + (int)gsl_rng_uniform_int(rng, (unsigned long)(nok - i));
			const struct boot *t = ok[i];

			ok[i] = ok[j];
			ok[j] = t;
		}
		compare_subset(cmp, ok, per_side, ok + per_side, per_side, &sub);
		flagged = compare_flagged(&sub, &tested);
		for (int i = 0; i < sub.nresults; i++)
			flags_by_metric[i] += verdict_is_notable(sub.results[i].verdict);
		cmp->fa_splits++;
		cmp->fa_flagged += flagged > 0;
		cmp->fa_metric_tests += tested;
		cmp->fa_metric_flags += flagged;
		compare_subset_free(&sub);
	}
	gsl_rng_free(rng);
	free(ok);
}

static void print_noise(const struct comparison *cmp, const int *flags_by_metric, int split,
			FILE *out)
{
	fprintf(out, "\n%-15s %-35s %5s %12s %12s %13s %s\n", "workload", "metric", "boots",
		"between CV", "within CV", "deterministic", "A/A flags");
	for (int i = 0; i < cmp->nmeasured_noise; i++) {
		const struct noise_floor *nf = &cmp->measured_noise[i];
		int flags = 0;

		for (int r = 0; r < cmp->nresults; r++)
			if (!strcmp(cmp->results[r].workload, nf->workload) &&
			    !strcmp(cmp->results[r].def->name, nf->metric))
				flags = flags_by_metric[r];
		fprintf(out, "%-15s %-35s %5d %11.4f%% %11.4f%% %13s %d/%d\n", nf->workload, nf->metric,
			nf->boots, isnan(nf->between_cv_pct) ? 0 : nf->between_cv_pct,
			isnan(nf->within_cv_pct) ? 0 : nf->within_cv_pct, nf->deterministic ? "yes" : "no",
			flags, cmp->fa_splits);
	}
	fprintf(out, "\nfalse alarms: %d of %d A/A comparisons (%d+%d boots each, drawn from these %d) "
		     "flagged something; %d of %d metric verdicts\n",
		cmp->fa_flagged, cmp->fa_splits, split, split, cmp->nboots,
		cmp->fa_metric_flags, cmp->fa_metric_tests);
}

int job_calibrate(const struct pb_config *cfg, const struct pb_queue *q, char **only, int nonly,
		  int per_side, struct job_outcome *jo)
{
	const struct workload *chosen[CLI_MAX_WORKLOADS];
	struct workload_set wset = { 0 };
	struct kernel_tree tree = { 0 };
	struct pair_plan plan = { 0 };
	struct kernel_config kc = { 0 };
	struct comparison cmp = { 0 };
	struct guest_plan gp = { 0 };
	sqlite3 *db = NULL;
	char *log_dir = NULL, *initrd = NULL, *stamp = NULL;
	int *flags = NULL, nchosen, rc = PB_EXIT_ERROR;
	double start = now_seconds();
	long long cid;
	pb_err err;

	if (jo)
		memset(jo, 0, sizeof(*jo));
	if (!workloads_load(cfg->workloads_dir, &wset, &err))
		goto fail;
	if (nonly) {
		if (!host_workloads_named(&wset, only, nonly, chosen, &err))
			goto fail;
		nchosen = nonly;
	} else {
		nchosen = wset.n < CLI_MAX_WORKLOADS ? wset.n : CLI_MAX_WORKLOADS;
		for (int i = 0; i < nchosen; i++)
			chosen[i] = &wset.w[i];
	}
	if (!host_check_requirements(chosen, nchosen, &err) ||
	    !guest_plan_init(&gp, cfg, chosen, nchosen, &err) || !tree_prepare(cfg, &tree, &err) ||
	    !host_selftests(&tree, &gp, &err) ||
	    !kernel_config_prepare(cfg, &tree, &kc, &err) || !db_lock(cfg->db_path, &err) ||
	    !db_open(cfg->db_path, &db, &err))
		goto fail;
	plan.method = PAIR_FORWARD;
	plan.detail = xasprintf("A/A calibration: the base kernel %s on both sides", tree.version);
	kernel_change_set(&plan.without, NULL, false, "base");
	kernel_change_set(&plan.with, NULL, false, "base");
	cmp.kind = "calibration";
	cmp.queue_dir = q->dir;
	cmp.tree = &tree;
	cmp.plan = &plan;
	cmp.config = &kc;
	cmp.workloads = chosen;
	cmp.nworkloads = nchosen;
	cmp.iterations = cfg->iterations;
	cmp.seed = measure_seed(cfg);
	cmp.started_at = iso_time_now();
	{
		pb_str why;

		str_init(&why);
		str_addf(&why, "calibration (A/A) of:");
		for (int i = 0; i < nchosen; i++)
			str_addf(&why, " %s", chosen[i]->name);
		cmp.workload_choice = str_steal(&why);
	}
	verdict_policy_init(&cmp.policy, cfg, NULL, cmp.seed);
	printf("perfbot: A/A calibration of the base kernel %s, %d boots per side, workloads:",
	       tree.version, per_side);
	for (int i = 0; i < nchosen; i++)
		printf(" %s", chosen[i]->name);
	printf("\n");
	for (int s = 0; s < 2; s++)
		if (!kernel_build(cfg, &tree, &kc, s ? &plan.with : &plan.without, &cmp.image[s], &err))
			goto fail;
	if (!cmp.image[0].built) {
		cmp.status = STATUS_BUILD_FAILED;
		char *failure = visible_lines(cmp.image[0].failure);

		printf("the base kernel failed to build:\n%s\n", failure);
		free(failure);
	} else {
		stamp = host_timestamp();
		log_dir = xasprintf("%s/logs/calibrate-%s", cfg->report_dir, stamp);
		if (!host_guest_prepare(cfg, &gp, cmp.image[0].bzimage, log_dir, &initrd, &cmp.accel, &err))
			goto fail;
		cmp.booted = true;
		printf("perfbot: accelerator %s: %s\n", cmp.accel.name, cmp.accel.reason);
		verdict_policy_init(&cmp.policy, cfg, cmp.accel.name, cmp.seed);
		{
			struct measure_plan mp = {
				.guest = &gp, .initrd = initrd, .log_dir = log_dir,
				.kernel = { cmp.image[0].bzimage, cmp.image[1].bzimage },
				.label = { "base", "base" },
				.first_rounds = per_side, .max_rounds = per_side, .aa = true,
			};

			if (!measure_boots(cfg, &cmp, &mp, &err))
				goto fail;
		}
		unlink(initrd);
		cmp.status = measure_ok_boots(&cmp, SIDE_WITHOUT) + measure_ok_boots(&cmp, SIDE_WITH) >= 2
				     ? STATUS_MEASURED
				     : STATUS_BOOT_FAILED;
		cmp.measured_noise = noise_measure(&cmp, &cmp.nmeasured_noise);
		/* the splits use this noise floor, as later runs will */
		cmp.noise = cmp.measured_noise;
		cmp.nnoise = cmp.nmeasured_noise;
		flags = xcalloc((size_t)cmp.nresults + 1, sizeof(int));
		false_alarms(&cmp, cfg->boots, cmp.seed, flags);
		cmp.noise = NULL;
		cmp.nnoise = 0;
	}
	cmp.finished_at = iso_time_now();
	cmp.wall_seconds = now_seconds() - start;
	if (!db_store_comparison(db, &cmp, perfbot_version, &cid, &err))
		goto fail;
	if (cmp.nmeasured_noise)
		print_noise(&cmp, flags, cfg->boots, stdout);
	for (int b = 0; b < cmp.nboots; b++)
		if (cmp.boots[b].rec.outcome != BOOT_OK) {
			char *detail = visible_lines(cmp.boots[b].rec.detail);

			printf("boot %d: %s: %s\n", b + 1, boot_outcome_name(cmp.boots[b].rec.outcome),
			       detail);
			free(detail);
		}
	printf("perfbot: calibration %s; stored as comparison %lld in %s (accel %s, seed %lu, %.0f s); "
	       "runs under %s now use its noise floor\n",
	       status_name(cmp.status), cid, cfg->db_path, cmp.booted ? cmp.accel.name : "-", cmp.seed,
	       cmp.wall_seconds, cmp.booted ? cmp.accel.name : "-");
	outcome_set(jo, cid, &cmp);
	rc = cmp.status != STATUS_MEASURED ? PB_EXIT_KERNEL : PB_EXIT_OK;
	goto out;
fail:
	cli_error("%s", err.msg);
out:
	if (db)
		db_close(db);
	noise_free(cmp.measured_noise, cmp.nmeasured_noise);
	comparison_free(&cmp);
	guest_plan_free(&gp);
	kernel_config_free(&kc);
	pair_plan_free(&plan);
	tree_free(&tree);
	workloads_free(&wset);
	free(flags);
	free(log_dir);
	free(initrd);
	free(stamp);
	return rc;
}

