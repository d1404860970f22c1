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

static const struct pb_usage usage = {
	"perfbot calibrate", "[options]",
	"exit status: 0 calibrated, 1 bad input or environment, 2 bad usage,\n"
	"             3 the base kernel failed to build or boot (stored as a result)\n",
};

int cmd_calibrate(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	struct request r;
	char *only[CLI_MAX_WORKLOADS];
	pb_err err;
	int rc;

	rc = cli_calibrate_args(argc, argv, &c, &r, only, &usage);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	/* here, whatever [executor] says: a calibration measures this machine */
	rc = cli_run_status(pipeline_calibrate(&cfg, &q, only, r.nonly,
					       r.per_side ? r.per_side : cfg.calibrate_boots, false,
					       NULL, &err),
			    NULL, &err);
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
