/* perfbot mail: writes the answer to a patch's review mail, perfbot's
 * verdict on its newest comparison, as <report dir>/mail/patch-N.eml, and
 * hands it to [mail] sendmail when that names a program. What is answered
 * is a target (today --patch N; a series or a bisect later): each finds
 * its comparison and builds its message, the writing and sending are
 * shared. Nothing is measured. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "db-report.h"
#include "mail.h"
#include "queue.h"
#include "report.h"

static const struct pb_usage usage = {
	"perfbot mail", "--patch N [options]",
	"Writes <report dir>/mail/patch-N.eml; sends it only when [mail] sendmail is set.\n"
	"exit status: 0 written (and sent), 1 bad input or the sending failed, 2 bad command line\n",
};

/* What the mail answers: one of them is given. */
struct mail_target {
	int patch; /* --patch N, -1: not given */
};

/* The message answering patch p of q, and the name of its file. */
static bool patch_message(sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
			  const struct pb_patch *p, pb_str *msg, char **name, pb_err *err)
{
	struct mail_metrics metrics = { 0 };
	struct patch_page_row row;
	struct index_row newest = { 0 };
	struct result_row r;
	struct db_cursor page, results, c;
	bool ok = false, found;

	if (!db_report_newest(&c, db, q->dir, p->number, err))
		return false;
	if (!db_cursor_step(&c, &newest))
		newest.id = 0;
	if (!db_cursor_close(&c, err))
		return false;
	if (!newest.id) {
		pb_seterr(err, "no comparison of patch %d in %s yet: perfbot run --patch %d measures it",
			  p->number, cfg->db_path, p->number);
		return false;
	}
	if (!db_report_patch_page(&page, db, newest.id, &row, &found, err))
		return false;
	if (!found)
		pb_seterr(err, "no comparison %lld in %s", newest.id, cfg->db_path);
	else if (db_report_results(&results, db, newest.id, err)) {
		while (db_cursor_step(&results, &r))
			mail_metrics_add(&metrics, &r);
		ok = db_cursor_close(&results, err);
	}
	if (ok) {
		/* the trailers are the queue's: only if its file is the one measured */
		bool same = !strcmp(row.sha256, p->sha256);
		struct mail_patch_input in = {
			.row = &row, .comparison_id = newest.id, .metrics = &metrics,
			.queued = same ? p : NULL, .from = cfg->mail_from, .list_cc = cfg->mail_cc,
			.report_url = cfg->report_url, .date = time(NULL),
		};

		if (!same)
			printf("perfbot: patch %d changed since it was measured: its trailers "
			       "are left out of Cc\n", p->number);
		ok = mail_patch_message(&in, msg, err);
		*name = xasprintf("patch-%03d.eml", p->number);
	}
	db_cursor_close(&page, NULL);
	mail_metrics_free(&metrics);
	return ok;
}

/* [mail] sendmail's words, the message on its stdin (never a shell, no
 * recipients: the program takes them from the headers, as sendmail -t);
 * what it prints goes to log. */
static bool send_mail(const char *command, const char *eml, const char *log, pb_err *err)
{
	char *copy = xstrdup(command), *argv[64], *save = NULL;
	struct spawn_opts o = { .stdin_path = eml, .stdout_path = log, .stderr_path = "=stdout",
				.timeout = 120 };
	struct spawn_result res;
	int n = 0;
	bool ok;

	for (char *w = strtok_r(copy, " ", &save); w && n < 63; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	ok = n && spawn_wait(argv, &o, &res) && !res.failed_exec && !res.timed_out && !res.status;
	if (!n)
		pb_seterr(err, "[mail] sendmail names no program");
	else if (!ok && res.failed_exec)
		pb_seterr(err, "[mail] sendmail: cannot run '%s' (see %s)", argv[0], log);
	else if (!ok && res.timed_out)
		pb_seterr(err, "[mail] sendmail: '%s' still running after %.0f s (see %s)", argv[0],
			  o.timeout, log);
	else if (!ok)
		pb_seterr(err, "[mail] sendmail: '%s' exited with status %d, the mail is not sent "
			       "(see %s)", argv[0], res.status, log);
	free(copy);
	return ok;
}

int cmd_mail(int argc, char **argv)
{
	struct mail_target t = { .patch = -1 };
	struct cli c = { 0 };
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&t.patch, "answer this patch's review mail (765 of [PATCH 5.13 765/800])"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};
	struct pb_config cfg;
	struct pb_queue q;
	const struct pb_patch *p;
	sqlite3 *db = NULL;
	char *name = NULL, *dir = NULL, *eml = NULL, *log = NULL;
	pb_str msg;
	pb_err err;
	int rc = parse_options(argc, argv, opts, &usage, NULL);

	str_init(&msg);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (t.patch < 0) {
		cli_error("mail needs --patch N (perfbot list shows the numbers)");
		rc = PB_EXIT_USAGE;
		goto out;
	}
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	p = cli_queue_patch(&q, t.patch);
	if (!p)
		goto out_queue;
	/* built in memory first: a refusal leaves no directory and no file */
	if (!path_exists(cfg.db_path))
		pb_seterr(&err, "no database %s yet: perfbot run measures first", cfg.db_path);
	else if (db_open_readonly(cfg.db_path, &db, &err) &&
		 patch_message(db, &cfg, &q, p, &msg, &name, &err)) {
		dir = xasprintf("%s/mail", cfg.report_dir);
		eml = xasprintf("%s/%s", dir, name);
		log = xasprintf("%s.sendmail.log", eml);
		if (mkdir_p(dir, &err) && write_file_atomic(eml, msg.buf, msg.len, &err)) {
			printf("perfbot: mail %s\n", eml);
			if (!cfg.mail_sendmail[0] || send_mail(cfg.mail_sendmail, eml, log, &err))
				rc = PB_EXIT_OK;
			if (rc == PB_EXIT_OK && cfg.mail_sendmail[0])
				printf("perfbot: sent with %s\n", cfg.mail_sendmail);
		}
	}
	if (rc != PB_EXIT_OK)
		cli_error("%s", err.msg);
	if (db)
		db_close(db);
out_queue:
	queue_free(&q);
	config_free(&cfg);
out:
	free(name);
	free(dir);
	free(eml);
	free(log);
	str_free(&msg);
	cli_free(&c);
	return rc;
}
