/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pipeline.h"
#include "queue.h"

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

int cmd_run(int argc, char **argv)
{
	struct cli c = { 0 };
	struct patch_args a;
	struct pb_config cfg;
	struct pb_queue q;
	int rc = cli_patch_args(argc, argv, &c, &a, usage);

	if (rc < 0 && !cli_load_config_queue(&c, &cfg, &q))
		rc = PB_EXIT_ERROR;
	if (rc < 0) {
		struct run_request rq = { .number = a.number, .only = a.only, .nonly = a.nonly,
					  .force = a.force };

		rc = pipeline_run_patch(&cfg, &q, &rq, NULL);
		queue_free(&q);
		config_free(&cfg);
	}
	cli_free(&c);
	return rc;
}
