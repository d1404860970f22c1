/* perfbot calibrate: A/A runs. The base kernel on both sides, boots
 * interleaved as in a run; per metric its noise (between-boot and
 * within-boot CV, whether it is deterministic), stored as the noise floor
 * later runs under the same accelerator use; and the false-alarm rate of
 * the whole procedure over A/A splits. The plan itself is in pipeline.c. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pipeline.h"
#include "queue.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: perfbot calibrate [options]\n"
		     "  -w, --workload NAME   calibrate this workload (repeatable; default: every one)\n"
		     "  -b, --per-side N      boots per side (default [calibrate] boots, 4)\n");
	cli_common_usage(out);
	fprintf(out, "exit status: 0 calibrated, 1 bad input or environment, 2 bad usage,\n"
		     "             3 the base kernel failed to build or boot (stored as a result)\n");
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
			cli_bad_option(argv);
			goto out;
		}
	}
	if (cli_extra_argument(argc, argv))
		goto out;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = pipeline_calibrate(&cfg, &q, only, nonly, per_side ? per_side : cfg.calibrate_boots, NULL);
	queue_free(&q);
	config_free(&cfg);
out:
	free(opts);
	cli_free(&c);
	return rc;
}
