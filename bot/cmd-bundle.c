/* perfbot bundle: a job's results database made to carry its boots' logs,
 * so that perfbot import brings them to a machine that never saw the node
 * (a Slurm job runs it after its run; see bot/run/slurm.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bundle.h"
#include "cli.h"

static const struct pb_usage usage = {
	"perfbot bundle", "BUNDLE.db...\n   or: perfbot bundle --start-from SEED.db BUNDLE.db",
	"--start-from makes BUNDLE.db (anew) a copy of SEED.db for a job to run\n"
	"into: only what the job adds is packed and imported.\n"
	"exit status: 0 packed (or made), 1 a database refused (nothing of it changed),\n"
	"             2 bad usage\n"
};

int cmd_bundle(int argc, char **argv)
{
	pb_err err = { "" };
	const char *seed = NULL;
	int rc, nargs = 0;
	const struct pb_option opts[] = {
		OPT_STRING(0, "start-from", &seed, "SEED.db",
			   "make BUNDLE.db a copy of SEED.db that knows what it started from"),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, &nargs);
	if (rc != PB_OPT_GO_ON)
		return rc;
	if (!nargs) {
		cli_error("perfbot bundle: name a results database (a job's)");
		return PB_EXIT_USAGE;
	}
	if (seed) {
		if (nargs != 1) {
			cli_error("perfbot bundle: --start-from makes one database, not %d", nargs);
			return PB_EXIT_USAGE;
		}
		if (!bundle_start_from(seed, argv[0], &err)) {
			cli_error("%s", err.msg);
			return PB_EXIT_ERROR;
		}
		return PB_EXIT_OK;
	}
	for (int i = 0; i < nargs; i++) {
		int packed, missing;
		char *name = visible(argv[i]);

		if (!bundle_pack(argv[i], perfbot_version, &packed, &missing, &err)) {
			cli_error("%s", err.msg);
			free(name);
			return PB_EXIT_ERROR;
		}
		printf("perfbot: %s: %d log(s) packed%s\n", name, packed,
		       missing ? ", some its runs name were not found" : "");
		free(name);
	}
	return PB_EXIT_OK;
}
