/* perfbot pair [--patch N | --series [--mm-only]]: how the kernel pair of
 * each mm patch, or of the queue as a whole, would be formed (forward,
 * reverse, port), from patch(1) on the work copy only: nothing is built. */
#include <stdlib.h>

#include "cli.h"
#include "kernel.h"
#include "queue.h"

static const struct pb_usage usage = { "perfbot pair", "[--patch N | --series [--mm-only]] [options]",
					NULL };

/* The queue as a whole, as run --series would pair it. */
static int pair_series(const struct pb_config *cfg, struct kernel_tree *tree,
		       const struct pb_queue *q, bool mm_only)
{
	const struct pb_patch **ps = xcalloc((size_t)q->npatches + 1, sizeof(*ps));
	int n = queue_series_patches(q, mm_only, ps), rc = PB_EXIT_ERROR;
	struct pair_plan plan;
	pb_err err;

	if (pair_decide_series(cfg, tree, ps, n, &plan, &err)) {
		const struct kernel_change *c = plan.method == PAIR_FORWARD ? &plan.with : &plan.without;
		char *detail = visible(plan.detail), *summary = visible(c->summary);

		printf("series %-8s without: %-11s with: %-11s %s\n  %s\n",
		       pair_method_name(plan.method), plan.without.label, plan.with.label, detail,
		       summary);
		free(detail);
		free(summary);
		pair_plan_free(&plan);
		rc = PB_EXIT_OK;
	} else {
		cli_error("%s", err.msg);
	}
	free(ps);
	return rc;
}

int cmd_pair(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	struct kernel_tree tree;
	int rc, number = 0, tried = 0;
	bool series = false, mm_only = false;
	pb_err err;
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&number, "only this patch, mm or not (default: every mm patch)"),
		OPT_BOOL('s', "series", &series, "the queue as a whole, as run --series pairs it"),
		OPT_BOOL(0, "mm-only", &mm_only, "with --series: only its mm patches"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	if (number && !queue_find(&q, number)) {
		cli_error("patch %d is not in the queue %s", number, q.dir);
	} else if ((series && number) || (mm_only && !series)) {
		cli_error("pair: --series takes no --patch, and --mm-only goes with --series");
		rc = PB_EXIT_USAGE;
	} else if (!tree_prepare(&cfg, &tree, &err)) {
		cli_error("%s", err.msg);
	} else if (series) {
		rc = pair_series(&cfg, &tree, &q, mm_only);
		tree_free(&tree);
	} else {
		rc = PB_EXIT_OK;
		for (int i = 0; i < q.npatches; i++) {
			const struct pb_patch *p = &q.patches[i];
			struct pair_plan plan;

			if (number ? p->number != number : !p->is_mm)
				continue;
			tried++;
			if (pair_decide(&cfg, &tree, p, &plan, &err)) {
				/* the detail may quote patch(1) on the patch's own file names */
				char *without = visible(plan.without.label), *with = visible(plan.with.label);
				char *detail = visible(plan.detail);

				printf("%03d %-8s without: %-10s with: %-10s %s\n", p->number,
				       pair_method_name(plan.method), without, with, detail);
				free(without);
				free(with);
				free(detail);
				pair_plan_free(&plan);
			} else {
				printf("%03d %-8s %s\n", p->number, "none", err.msg);
				rc = PB_EXIT_ERROR;
			}
		}
		if (!tried) {
			char *dir = visible(q.dir);

			printf("no mm patch in %s\n", dir);
			free(dir);
		}
		tree_free(&tree);
	}
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
