/* perfbot config: the configuration as perfbot sees it, after overrides. */
#include <stdlib.h>

#include "cli.h"

static const struct pb_usage usage = { "perfbot config", "[options]", NULL };

int cmd_config(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	pb_err err;
	int rc = cli_no_args(argc, argv, &c, &usage);

	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_OK;
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		rc = PB_EXIT_ERROR;
		goto out;
	}
	printf("# %s\n", cfg.path);
	config_dump(&cfg, stdout);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
