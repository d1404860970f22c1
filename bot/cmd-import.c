/* perfbot import: comparisons measured elsewhere (a cluster node's, a Slurm
 * job's own results database) brought into results.db, each bundle in one
 * transaction, each comparison once however often it is imported. */
#include <stdlib.h>

#include "bundle.h"
#include "cli.h"
#include "db.h"

static const struct pb_usage usage = {
	"perfbot import", "[options] BUNDLE.db...",
	"exit status: 0 imported (or held already), 1 a bundle refused or the database "
	"unusable (nothing of that bundle stored), 2 bad usage\n"
};

int cmd_import(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	sqlite3 *db = NULL;
	pb_err err = { "" };
	char *log_dir = NULL;
	int rc, nargs = 0;
	const struct pb_option opts[] = {
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, &nargs);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (!nargs) {
		cli_error("perfbot import: name a bundle (a results database a job wrote)");
		rc = PB_EXIT_USAGE;
		goto out;
	}
	rc = PB_EXIT_ERROR;
	if (!cli_load_config(&c, &cfg, &err)) {
		cli_error("%s", err.msg);
		goto out;
	}
	/* every bundle checked before the first is stored */
	for (int i = 0; i < nargs; i++)
		if (!bundle_check(argv[i], perfbot_version, &err)) {
			cli_error("%s", err.msg);
			goto out_cfg;
		}
	if (!db_lock(cfg.db_path, &err) || !db_open(cfg.db_path, &db, &err)) {
		cli_error("%s", err.msg);
		goto out_cfg;
	}
	log_dir = xasprintf("%s/logs", cfg.report_dir);
	for (int i = 0; i < nargs; i++) {
		struct bundle_outcome o;
		char *name = visible(argv[i]);

		if (!bundle_import(db, argv[i], perfbot_version, log_dir, &o, &err)) {
			cli_error("%s", err.msg);
			free(name);
			goto out_db;
		}
		if (o.imported) {
			char *hosts = visible(o.hosts); /* the bundle's words */

			printf("perfbot: %s: %d of its %d comparison(s) imported as %lld..%lld (ran on %s); "
			       "%d log(s) under %s%s\n", name, o.imported, o.comparisons, o.first, o.last,
			       hosts, o.logs, log_dir, o.logs_missing ? ", some not found" : "");
			free(hosts);
		}
		else
			printf("perfbot: %s: its %d comparison(s) are here already\n", name, o.comparisons);
		if (o.logs_missing)
			printf("perfbot: %d log(s) its runs name were neither in the bundle nor on this "
			       "machine: their report links lead nowhere\n", o.logs_missing);
		free(name);
	}
	printf("perfbot: perfbot report writes the pages of what was imported\n");
	rc = PB_EXIT_OK;
out_db:
	db_close(db);
out_cfg:
	free(log_dir);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
