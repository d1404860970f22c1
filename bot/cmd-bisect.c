/* perfbot bisect [--metric W.M] [--comparison ID]: which patch of a series
 * made the change its series run found (bisect.h). */
#include <stdlib.h>

#include "bisect.h"
#include "cli.h"
#include "queue.h"

static const struct pb_usage usage = {
	"perfbot bisect", "[--metric WORKLOAD.METRIC] [--comparison ID] [options]",
	"Bisects the newest series comparison of the queue (perfbot run --series),\n"
	"or the one named, on what it found (a regression first) or on the metric\n"
	"named. exit status: 0 a culprit confirmed, 1 bad input or environment,\n"
	"2 bad usage, 3 no culprit confirmed (stored as a result)\n",
};

int cmd_bisect(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	const char *metric = NULL;
	int rc, cid = 0;
	const struct pb_option opts[] = {
		OPT_STRING('m', "metric", &metric, "W.M",
			   "the metric to bisect on, e.g. thp-anon.fault_always_ms_per_gib\n"
			   "(default: what the series comparison found)"),
		OPT_INTEGER(0, "comparison", &cid, "ID", 1, 2000000000, "comparison",
			    "the series comparison (default: the queue's newest)"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	{
		struct bisect_request rq = { .series_cid = cid, .metric = metric };

		rc = pipeline_bisect(&cfg, &q, &rq);
	}
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
