/* perfbot run --patch N: build the kernels without and with patch N, boot
 * both in QEMU, run the patch's workloads, store everything, compare. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jobs.h"
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

/* Builds both kernels, even when the first fails (each is a result of its
 * own); false only when perfbot itself cannot go on. */

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
	rc = job_run_patch(&cfg, &q, number, only, nonly, force, NULL);
	queue_free(&q);
	config_free(&cfg);
out:
	free(opts);
	cli_free(&c);
	return rc;
}
