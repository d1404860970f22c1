/* perfbot report: writes the HTML report from results.db again: the index
 * of every queue, each queue's page, the page of every measured patch and
 * series (its newest comparison), and the base kernel's trend. Nothing is
 * measured. */
#include <stdlib.h>

#include "cli.h"
#include "db.h"
#include "queue.h"
#include "report.h"

static const struct pb_usage usage = { "perfbot report", "[options]", NULL };

int cmd_report(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	sqlite3 *db = NULL;
	int rc = cli_no_args(argc, argv, &c, &usage), pages = 0;
	pb_err err;

	if (rc >= 0)
		goto out;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = PB_EXIT_ERROR;
	if (!path_exists(cfg.db_path))
		pb_seterr(&err, "no database %s yet: perfbot run measures first", cfg.db_path);
	else if (db_open_readonly(cfg.db_path, &db, &err) && report_write_all(db, &q, cfg.report_dir, &pages, &err))
		rc = PB_EXIT_OK;
	if (rc == PB_EXIT_OK)
		printf("perfbot: report %s/index.html: %d patch page(s), the trend page\n", cfg.report_dir,
		       pages);
	else
		cli_error("%s", err.msg);
	if (db)
		db_close(db);
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
