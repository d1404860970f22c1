/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare.
 * perfbot run --series: the same for the queue as a whole (the -rc). */
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "cli.h"
#include "executor.h"
#include "pipeline.h"
#include "queue.h"

static const struct pb_usage usage = {
	"perfbot run", "--patch N [options]\n   or: perfbot run --series [--mm-only] [--no-bisect] [options]",
	"exit status: 0 measured (or nothing to measure), 1 bad input or environment,\n"
	"             2 bad usage, 3 a kernel failed to build or boot (stored as a result)\n",
};

/* A series run that found a regression, a behaviour change or a kernel
 * that failed is bisected to the patch that did it, as the -rc's answer
 * needs; an improvement is not. The series' exit status stands unless the
 * bisect could not go on. */
static int run_series(const struct pb_config *cfg, const struct pb_queue *q,
		      const struct run_request *rq, bool bisect)
{
	struct pipeline_outcome out;
	int rc = pipeline_run_series(cfg, q, rq, &out), brc;
	const char *what = out.status == STATUS_BUILD_FAILED  ? "a kernel that failed to build"
			   : out.status == STATUS_BOOT_FAILED ? "a kernel that failed to boot"
			   : out.decided && out.verdict == VERDICT_REGRESSION ? "a regression"
			   : out.behaviour_change ? "a behaviour change" : NULL;

	if (rc == PB_EXIT_ERROR || rc == PB_EXIT_STOPPED || !out.comparison || !what)
		return rc;
	if (!bisect) {
		printf("perfbot: the series showed %s: perfbot bisect --comparison %lld finds the "
		       "patch\n", what, out.comparison);
		return rc;
	}
	printf("perfbot: the series showed %s: bisecting comparison %lld (--no-bisect: not)\n",
	       what, out.comparison);
	fflush(stdout);
	brc = pipeline_bisect(cfg, q, &(struct bisect_request){ .series_cid = out.comparison });
	return brc == PB_EXIT_ERROR ? brc : rc;
}

/* [executor] kind = slurm: the same command as one Slurm job, which runs
 * it locally on its node (the series' bisect too), its answer imported
 * here. A patch that is not mm is said here, as run says it. */
static int run_on_slurm(const struct cli *c, const struct pb_config *cfg, const struct pb_queue *q,
			const struct patch_args *a, const struct run_request *rq)
{
	char *cmd[6 + 2 * CLI_MAX_WORKLOADS], num[16], name[16];
	struct executor_one one = { .cmd = cmd, .name = "series", .kind = "series" };
	int n = 0;

	/* the node would need the file, and a queue to find it in */
	if (a->patch_file) {
		cli_error("--patch-file runs on this machine: add -c executor.kind=local");
		return PB_EXIT_ERROR;
	}
	cmd[n++] = "run";
	if (a->series) {
		cmd[n++] = "--series";
		if (a->mm_only)
			cmd[n++] = "--mm-only";
		if (a->no_bisect)
			cmd[n++] = "--no-bisect";
	} else {
		const struct pb_patch *p = cli_queue_patch(q, a->number);

		if (!p)
			return PB_EXIT_ERROR;
		if (!p->is_mm && !a->force)
			return pipeline_run_patch(cfg, q, rq, NULL);
		snprintf(num, sizeof(num), "%d", a->number);
		snprintf(name, sizeof(name), "%03d", a->number);
		cmd[n++] = "--patch";
		cmd[n++] = num;
		one.name = name;
		one.kind = "patch";
		one.patch = p;
	}
	for (int i = 0; i < a->nonly; i++) {
		cmd[n++] = "--workload";
		cmd[n++] = a->only[i];
	}
	if (a->force)
		cmd[n++] = "--force";
	one.ncmd = n;
	return executor_run_one(cfg, c, q, &one);
}

int cmd_run(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	int rc = cli_patch_args(argc, argv, &c, &a, &usage, true);

	if (rc < 0 && !cli_load_config_patches(&c, &cfg, &q, &a))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		struct run_request rq = { .number = a.number, .only = a.only, .nonly = a.nonly,
					  .force = a.force, .series = a.series,
					  .mm_only = a.mm_only };

		rc = cfg.executor == EXECUTOR_SLURM ? run_on_slurm(&c, &cfg, &q, &a, &rq)
		     : a.series			    ? run_series(&cfg, &q, &rq, !a.no_bisect)
						    : pipeline_run_patch(&cfg, &q, &rq, NULL);
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
