/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare.
 * perfbot run --series: the same for the queue as a whole (the -rc). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pipeline.h"
#include "queue.h"

static const struct pb_usage usage = {
	"perfbot run", "--patch N [options]\n   or: perfbot run --series [--mm-only] [options]",
	"exit status: 0 measured (or nothing to measure), 1 bad input or environment,\n"
	"             2 bad usage, 3 a kernel failed to build or boot (stored as a result)\n",
};

int cmd_run(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	int rc = cli_patch_args(argc, argv, &c, &a, &usage, true);

	if (rc < 0 && !cli_load_config_queue(&c, &cfg, &q))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		struct run_request rq = { .number = a.number, .only = a.only, .nonly = a.nonly,
					  .force = a.force, .series = a.series,
					  .mm_only = a.mm_only };

		rc = a.series ? pipeline_run_series(&cfg, &q, &rq, NULL)
			      : pipeline_run_patch(&cfg, &q, &rq, NULL);
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
