/* perfbot report: writes the HTML report from results.db again: the index
 * of every queue, each queue's page, the page of every measured patch and
 * series (its newest comparison), and the base kernel's trend. Nothing is
 * measured. */
#include <stdlib.h>

#include "answer.h"
#include "cli.h"
#include "db.h"
#include "parse-options.h"
#include "queue.h"
#include "report.h"

static const struct pb_usage usage = { "perfbot report", "[--json | --text] [options]", NULL };

/* Every comparison of a patch or a series, newest first, into *ids. */
static bool answer_ids(sqlite3 *db, long long **ids, int *n, pb_err *err)
{
	struct db_cursor c;
	struct comparison_id_row row;

	*ids = NULL;
	*n = 0;
	if (!db_report_answers(&c, db, err))
		return false;
	while (db_cursor_step(&c, &row)) {
		*ids = xrealloc(*ids, sizeof(**ids) * (size_t)(*n + 1));
		(*ids)[(*n)++] = row.id;
	}
	return db_cursor_close(&c, err);
}

/* report --json: each of them as run --json prints one; report --text:
 * each one's answer as perfbot run printed it, a blank line between.
 * Printed once every one was read: no half document. No HTML is written. */
static bool report_answers(sqlite3 *db, bool json, pb_err *err)
{
	long long *ids;
	int n;
	struct json j;
	pb_str s;
	bool ok;

	if (!answer_ids(db, &ids, &n, err)) {
		free(ids);
		return false;
	}
	ok = true;
	str_init(&s);
	json_init(&j, &s);
	if (json) {
		json_object_begin(&j, NULL);
		json_array_begin(&j, "comparisons");
	}
	for (int i = 0; ok && i < n; i++) {
		struct answer a;

		ok = view_load(&a.view, db, ids[i], err);
		if (ok && json)
			answer_json(&a, &j, NULL);
		else if (ok) {
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);

			answer_print(&a, true, f);
			fclose(f);
			str_addf(&s, "%s%s", i ? "\n" : "", text);
			free(text);
		}
		if (ok)
			answer_free(&a);
	}
	if (json) {
		json_array_end(&j);
		json_object_end(&j);
	}
	if (ok)
		fputs(s.buf, stdout);
	str_free(&s);
	free(ids);
	return ok;
}

int cmd_report(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q = { 0 };
	sqlite3 *db = NULL;
	bool json = false, text = false;
	const struct pb_option opts[] = {
		OPT_BOOL(0, "json", &json,
			 "print every comparison of a patch or a series as JSON, newest\n"
			 "first (as perfbot run --json prints its own), instead of writing HTML"),
		OPT_BOOL(0, "text", &text,
			 "print every comparison's answer as perfbot run printed it, newest\n"
			 "first, instead of writing HTML"),
		OPT_CLI_COMMON(&c), OPT_END(),
	};
	int rc = parse_options(argc, argv, opts, &usage, NULL), pages = 0;
	pb_err err;

	if (rc != PB_OPT_GO_ON)
		goto out;
	if (json && text) {
		cli_error("--json and --text: one or the other");
		rc = PB_EXIT_USAGE;
		goto out;
	}
	/* the answers are the database's alone: no queue needed */
	if (json || text ? !cli_load_config(&c, &cfg, &err) : !cli_load_config_queue(&c, &cfg, &q)) {
		if (json || text)
			cli_error("%s", err.msg);
		rc = PB_EXIT_ERROR;
		goto out;
	}
	rc = PB_EXIT_ERROR;
	if (!path_exists(cfg.db_path))
		pb_seterr(&err, "no database %s yet: perfbot run measures first", cfg.db_path);
	else if (db_open_readonly(cfg.db_path, &db, &err) &&
		 (json || text ? report_answers(db, json, &err)
			       : report_write_all(db, &q, cfg.report_dir, &pages, &err)))
		rc = PB_EXIT_OK;
	if (rc == PB_EXIT_OK && (json || text))
		;
	else if (rc == PB_EXIT_OK)
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
