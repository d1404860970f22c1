/* perfbot calibrate: A/A runs. The base kernel on both sides, boots
 * interleaved as in a run; per metric its noise (between-boot and
 * within-boot CV, whether it is deterministic), stored as the noise floor
 * later runs under the same accelerator use; and the false-alarm rate of
 * the whole procedure, from comparisons of run.boots against run.boots
 * drawn from these boots, where every flag is a false alarm. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "db.h"
#include "host.h"
#include "kernel.h"
#include "measure.h"
#include "queue.h"

#define FA_SPLITS 200

static void usage(FILE *out)
{
	fprintf(out, "usage: perfbot calibrate [options]\n"
		     "  -w, --workload NAME   calibrate this workload (repeatable; default: every one)\n"
		     "  -b, --per-side N      boots per side (default [calibrate] boots, 4)\n");
	cli_common_usage(out);
	fprintf(out, "exit status: 0 calibrated, 1 bad input or environment, 2 bad usage,\n"
		     "             3 the base kernel failed to build or boot (stored as a result)\n");
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

static int calibrate(const struct pb_config *cfg, const struct pb_queue *q, char **only, int nonly,
		     int per_side)
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
	    !kernel_config_prepare(cfg, &tree, &kc, &err) || !db_open(cfg->db_path, &db, &err))
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
		cmp.status = "build-failed";
		printf("the base kernel failed to build:\n%s\n", cmp.image[0].failure);
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
				     ? "measured"
				     : "boot-failed";
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
	if (!db_store_comparison(db, &cmp, PERFBOT_VERSION, &cid, &err))
		goto fail;
	if (cmp.nmeasured_noise)
		print_noise(&cmp, flags, cfg->boots, stdout);
	for (int b = 0; b < cmp.nboots; b++)
		if (cmp.boots[b].rec.outcome != BOOT_OK)
			printf("boot %d: %s: %s\n", b + 1, boot_outcome_name(cmp.boots[b].rec.outcome),
			       cmp.boots[b].rec.detail);
	printf("perfbot: calibration %s; stored as comparison %lld in %s (accel %s, seed %lu, %.0f s); "
	       "runs under %s now use its noise floor\n",
	       cmp.status, cid, cfg->db_path, cmp.booted ? cmp.accel.name : "-", cmp.seed,
	       cmp.wall_seconds, cmp.booted ? cmp.accel.name : "-");
	rc = strcmp(cmp.status, "measured") ? PB_EXIT_KERNEL : PB_EXIT_OK;
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

int cmd_calibrate(int argc, char **argv)
{
	static const struct option own[] = { { "workload", required_argument, NULL, 'w' },
					     { "per-side", required_argument, NULL, 'b' },
					     { "help", no_argument, NULL, 'h' },
					     { 0 } };
	struct option *opts = cli_options(own);
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	char *only[CLI_MAX_WORKLOADS], *end;
	int opt, rc = PB_EXIT_USAGE, nonly = 0, per_side = 0;

	while ((opt = getopt_long(argc, argv, "w:b:hC:c:", opts, NULL)) != -1) {
		if (cli_common(&c, opt, optarg))
			continue;
		if (opt == 'w') {
			if (!cli_workload_arg(only, &nonly, optarg))
				goto out;
		} else if (opt == 'b') {
			long v = strtol(optarg, &end, 10);

			if (!optarg[0] || *end || v < 2 || v > 1000) {
				cli_error("--per-side needs a number of boots from 2 to 1000, not '%s'", optarg);
				goto out;
			}
			per_side = (int)v;
		} else if (opt == 'h') {
			usage(stdout);
			rc = PB_EXIT_OK;
			goto out;
		} else {
			usage(stderr);
			goto out;
		}
	}
	if (optind < argc) {
		cli_error("unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = calibrate(&cfg, &q, only, nonly, per_side ? per_side : cfg.calibrate_boots);
	queue_free(&q);
	config_free(&cfg);
out:
	free(opts);
	cli_free(&c);
	return rc;
}
