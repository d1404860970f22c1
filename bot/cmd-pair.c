/* perfbot pair [--patch N]: how the kernel pair of each mm patch would be
 * formed (forward, reverse, port), from dry runs only: nothing is built. */
#include <stdlib.h>

#include "cli.h"
#include "kernel.h"
#include "queue.h"

int cmd_pair(int argc, char **argv)
{
	static const struct option own[] = { { "patch", required_argument, NULL, 'p' },
					     { "help", no_argument, NULL, 'h' },
					     { 0 } };
	struct option *opts = cli_options(own);
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	struct kernel_tree tree;
	int opt, rc = PB_EXIT_USAGE, number = 0, tried = 0;
	pb_err err;

	while ((opt = getopt_long(argc, argv, "p:hC:c:", opts, NULL)) != -1) {
		if (cli_common(&c, opt, optarg))
			continue;
		if (opt == 'p') {
			if (!cli_patch_number(optarg, &number))
				goto out;
		} else if (opt == 'h') {
			printf("usage: perfbot pair [--patch N] [options]\n");
			cli_common_usage(stdout);
			rc = PB_EXIT_OK;
			goto out;
		} else {
			cli_bad_option(argv);
			goto out;
		}
	}
	if (cli_extra_argument(argc, argv))
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
	free(opts);
	cli_free(&c);
	return rc;
}
