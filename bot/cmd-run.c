/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare. */
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
#include "report.h"
#include "vm.h"
#include "workload.h"


static void usage(FILE *out)
{
	fprintf(out, "usage: perfbot run --patch N [options]\n"
		     "  -p, --patch N              the series number of the patch (765 of [PATCH 5.13 765/800])\n"
		     "  -w, --workload NAME        run this workload instead of those the patch's paths choose\n"
		     "                             (repeatable; workloads/*.ini lists them)\n"
		     "  -f, --force                measure a patch that is not an mm patch too\n");
	cli_common_usage(out);
	fprintf(out, "exit status: 0 measured (or nothing to measure), 1 bad input or environment,\n"
		     "             2 bad usage, 3 a kernel failed to build or boot (stored as a result)\n");
}

/* Builds both kernels, even when the first fails (each is a result of its
 * own); false only when perfbot itself cannot go on. */
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

static int run_patch(const struct pb_config *cfg, const struct pb_queue *q, int number,
		     char **only, int nonly, bool force)
{
	const struct pb_patch *p = queue_find(q, number);
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

	if (!p) {
		pb_str nums;

		str_init(&nums);
		for (int i = 0; i < q->npatches; i++)
			str_addf(&nums, "%s%03d", i ? " " : "", q->patches[i].number);
		cli_error("patch %d is not in the queue %s (it has %s)", number, q->dir, nums.buf);
		str_free(&nums);
		return PB_EXIT_ERROR;
	}
	if (!p->is_mm && !force) {
		printf("perfbot: patch %03d (%s) is not an mm patch (%s): nothing to measure "
		       "(--force measures it anyway)\n", p->number, p->subject, p->mm_reason);
		return PB_EXIT_OK;
	}
	if (!workloads_load(cfg->workloads_dir, &wset, &err))
		goto fail;
	if (nonly) {
		if (!host_workloads_named(&wset, only, nonly, chosen, &err))
			goto fail;
		nchosen = nonly;
		fallback = false;
	} else {
		nchosen = workloads_for_patch(&wset, p, chosen, CLI_MAX_WORKLOADS, &fallback);
	}
	/* Before any build: a missing package or a bad workload parameter. */
	if (!host_check_requirements(chosen, nchosen, &err) ||
	    !guest_plan_init(&gp, cfg, chosen, nchosen, &err))
		goto fail;
	printf("perfbot: patch %03d/%d %s\n", p->number, p->total, p->subject);

	if (!tree_prepare(cfg, &tree, &err) || !pair_decide(cfg, &tree, p, &plan, &err))
		goto fail;
	printf("perfbot: pair formed by %s: %s\n", pair_method_name(plan.method), plan.detail);
	if (!kernel_config_prepare(cfg, &tree, &kc, &err))
		goto fail;
	/* Opened only now: bad input above never creates or touches the database. */
	if (!db_open(cfg->db_path, &db, &err))
		goto fail;

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
		cmp.status = "build-failed";
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
			};

			if (!measure_boots(cfg, &cmp, &mp, &err))
				goto fail;
		}
		unlink(initrd);
		cmp.status = measure_ok_boots(&cmp, SIDE_WITHOUT) && measure_ok_boots(&cmp, SIDE_WITH)
				     ? "measured"
				     : "boot-failed";
	}
	cmp.finished_at = iso_time_now();
	cmp.wall_seconds = now_seconds() - start;
	if (!db_store_comparison(db, &cmp, PERFBOT_VERSION, &cid, &err))
		goto fail;
	if (cmp.nresults)
		compare_print(&cmp, stdout);
	for (int b = 0; b < cmp.nboots; b++)
		if (cmp.boots[b].rec.outcome != BOOT_OK)
			printf("boot %d (%s the fix): %s: %s\n", b + 1, side_name(cmp.boots[b].side),
			       boot_outcome_name(cmp.boots[b].rec.outcome), cmp.boots[b].rec.detail);
	for (int s = 0; s < 2; s++)
		if (cmp.image[s].failure)
			printf("the kernel %s the fix failed to build:\n%s\n", side_name((enum side)s),
			       cmp.image[s].failure);
	if (!report_write_patch(db, cid, cfg->report_dir, &report, &err) ||
	    !report_write_index(db, q, cfg->report_dir, &err) ||
	    !report_write_trend(db, cfg->report_dir, &err))
		goto fail;
	printf("perfbot: %s; comparison %lld stored in %s (seed %lu); report %s (%.0f s)\n",
	       cmp.status, cid, cfg->db_path, cmp.seed, report, cmp.wall_seconds);
	rc = strcmp(cmp.status, "measured") ? PB_EXIT_KERNEL : PB_EXIT_OK;
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

int cmd_run(int argc, char **argv)
{
	static const struct option own[] = { { "patch", required_argument, NULL, 'p' },
					     { "workload", required_argument, NULL, 'w' },
					     { "force", no_argument, NULL, 'f' },
					     { "help", no_argument, NULL, 'h' },
					     { 0 } };
	struct option *opts = cli_options(own);
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	char *only[CLI_MAX_WORKLOADS];
	int opt, rc = PB_EXIT_USAGE, number = -1, nonly = 0;
	bool force = false;

	while ((opt = getopt_long(argc, argv, "p:w:fhC:c:", opts, NULL)) != -1) {
		if (cli_common(&c, opt, optarg))
			continue;
		if (opt == 'f') {
			force = true;
		} else if (opt == 'w') {
			if (!cli_workload_arg(only, &nonly, optarg))
				goto out;
		} else if (opt == 'p') {
			if (!cli_patch_number(optarg, &number))
				goto out;
		} else if (opt == 'h') {
			usage(stdout);
			rc = PB_EXIT_OK;
			goto out;
		} else {
			usage(stderr);
			goto out;
		}
	}
	if (optind < argc || number < 0) {
		if (number < 0)
			cli_error("run needs --patch N (perfbot list shows the numbers)");
		else
			cli_error("unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = run_patch(&cfg, &q, number, only, nonly, force);
	queue_free(&q);
	config_free(&cfg);
out:
	free(opts);
	cli_free(&c);
	return rc;
}
