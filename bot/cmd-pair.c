/* perfbot pair [--patch N]: how the kernel pair of each mm patch would be
 * formed (forward, reverse, port), from dry runs only: nothing is built. */
#include <stdlib.h>

#include "cli.h"
#include "kernel.h"
#include "queue.h"

static const struct pb_usage usage = { "perfbot pair", "[--patch N] [options]", NULL };

int cmd_pair(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	struct kernel_tree tree;
	int rc, number = 0, tried = 0;
	pb_err err;
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&number, "only this patch, mm or not (default: every mm patch)"),
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
	} else if (!tree_prepare(&cfg, &tree, &err)) {
		cli_error("%s", err.msg);
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
