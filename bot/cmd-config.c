/* perfbot config: the configuration as perfbot sees it, after overrides. */
#include <stdlib.h>

#include "cli.h"

int cmd_config(int argc, char **argv)
{
	static const struct option own[] = { { "help", no_argument, NULL, 'h' }, { 0 } };
	struct option *opts = cli_options(own);
	struct cli c = { 0 };
	struct pb_config cfg;
	pb_err err;
	int opt, rc = PB_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "hC:c:", opts, NULL)) != -1) {
		if (cli_common(&c, opt, optarg))
			continue;
		if (opt == 'h') {
			printf("usage: perfbot config [options]\n");
			cli_common_usage(stdout);
			goto out;
		}
		cli_bad_option(argv);
		rc = PB_EXIT_USAGE;
		goto out;
	}
	if (cli_extra_argument(argc, argv)) {
		rc = PB_EXIT_USAGE;
		goto out;
	}
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		rc = PB_EXIT_ERROR;
		goto out;
	}
	printf("# %s\n", cfg.path);
	config_dump(&cfg, stdout);
	config_free(&cfg);
out:
	free(opts);
	cli_free(&c);
	return rc;
}
