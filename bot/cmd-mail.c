/* perfbot mail: writes perfbot's answer on the list as
 * <report dir>/mail/<name>.eml, and hands it to [mail] sendmail when that
 * names a program. What is answered is a target: a patch's review mail
 * (--patch N, its newest comparison), the cover letter (--series, the
 * queue's newest series comparison) or a bisect's culprit (--bisect ID).
 * Each loads its view (mail-view.h) and renders its message; the writing
 * and sending are shared. Nothing is measured. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "mail-view.h"
#include "queue.h"

static const struct pb_usage usage = {
	"perfbot mail", "--patch N | --series | --bisect ID [options]",
	"Writes <report dir>/mail/patch-N.eml, series-<name>.eml or bisect-<ID>.eml;\n"
	"sends it only when [mail] sendmail is set.\n"
	"exit status: 0 written (and sent), 1 bad input or the sending failed, 2 bad command line\n",
};

/* What the mail answers: one of them is given. */
struct mail_target {
	int patch;  /* --patch N, -1: not given */
	bool series;
	int bisect; /* --bisect ID, 0: not given */
};

/* The queue's cover letter, as the series and bisect mails answer it. */
static struct mail_cover queue_cover(const struct pb_queue *q)
{
	return (struct mail_cover){
		.from = q->cover_from ? q->cover_from : "",
	};
}

/* The message answering patch p of q, and the name of its file. */
static bool patch_message(sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
			  const struct pb_patch *p, pb_str *msg, char **name, pb_err *err)
{
	struct mail_patch_view m;
	bool ok;

	if (!mail_patch_view_load(&m, db, cfg->db_path, q, p, err))
		return false;
	if (!m.queued)
		printf("perfbot: patch %d changed since it was measured: its trailers "
		       "are left out of Cc\n", p->number);
	ok = mail_patch_message(&(struct mail_patch_input){
		.view = &m.view, .queued = m.queued, .from = cfg->mail_from,
		.list_cc = cfg->mail_cc, .report_url = cfg->report_url, .date = time(NULL) }, msg, err);
	*name = xasprintf("patch-%03d.eml", p->number);
	mail_patch_view_free(&m);
	return ok;
}

/* The message answering the cover letter of q: its newest series
 * comparison, and that comparison's newest bisect if it has one. */
static bool series_message(sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
			   pb_str *msg, char **name, pb_err *err)
{
	struct mail_series_view m;
	bool ok;

	if (!mail_series_view_load(&m, db, q, err))
		return false;
	ok = mail_series_message(&(struct mail_series_input){
		.view = &m.view, .bisect = m.bisected ? &m.bisect : NULL, .cover = queue_cover(q),
		.from = cfg->mail_from, .list_cc = cfg->mail_cc, .report_url = cfg->report_url,
		.date = time(NULL) }, msg, err);
	*name = xasprintf("series-%s.eml", m.view.r.series_name);
	mail_series_view_free(&m);
	return ok;
}

/* The message answering bisect id's culprit (the cover letter where it
 * named none): the bisect, its log, the series comparison it bisected. */
static bool bisect_message(sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
			   long long id, pb_str *msg, char **name, pb_err *err)
{
	struct mail_bisect_view m;
	bool ok;

	if (!mail_bisect_view_load(&m, db, cfg->db_path, q, id, err))
		return false;
	ok = mail_bisect_message(&(struct mail_bisect_input){
		.bisect = &m.bisect, .steps = &m.steps, .series = &m.series,
		.culprit = m.has_culprit ? &m.culprit : NULL, .queued = m.queued,
		.cover = queue_cover(q), .from = cfg->mail_from, .list_cc = cfg->mail_cc,
		.report_url = cfg->report_url, .date = time(NULL) }, msg, err);
	*name = xasprintf("bisect-%lld.eml", id);
	mail_bisect_view_free(&m);
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

/* The message into <report dir>/mail/name, then to [mail] sendmail when
 * it names a program; *eml (the caller's) its path once written. */
static bool write_and_send(const struct pb_config *cfg, const pb_str *msg, const char *name,
			   char **eml, pb_err *err)
{
	char *dir = xasprintf("%s/mail", cfg->report_dir), *log;
	bool ok = false;

	*eml = xasprintf("%s/%s", dir, name);
	log = xasprintf("%s.sendmail.log", *eml);
	if (mkdir_p(dir, err) && write_file_atomic(*eml, msg->buf, msg->len, err)) {
		printf("perfbot: mail %s\n", *eml);
		ok = !cfg->mail_sendmail[0] || send_mail(cfg->mail_sendmail, *eml, log, err);
		if (ok && cfg->mail_sendmail[0])
			printf("perfbot: sent with %s\n", cfg->mail_sendmail);
	}
	free(dir);
	free(log);
	return ok;
}

bool mail_answer_patch(sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
		       const struct pb_patch *p, char **eml, pb_err *err)
{
	char *name = NULL;
	pb_str msg;
	bool ok;

	*eml = NULL;
	str_init(&msg);
	ok = patch_message(db, cfg, q, p, &msg, &name, err) && write_and_send(cfg, &msg, name, eml, err);
	free(name);
	str_free(&msg);
	return ok;
}

int cmd_mail(int argc, char **argv)
{
	struct mail_target t = { .patch = -1 };
	struct cli c = { 0 };
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&t.patch, "answer this patch's review mail (765 of [PATCH 5.13 765/800])"),
		OPT_BOOL(0, "series", &t.series,
			 "answer the cover letter with the queue's newest series comparison"),
		OPT_INTEGER(0, "bisect", &t.bisect, "ID", 1, 2000000000, "bisect",
			    "answer this bisect's culprit's review mail (perfbot bisect's id)"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};
	struct pb_config cfg;
	struct pb_queue q;
	const struct pb_patch *p = NULL;
	sqlite3 *db = NULL;
	char *name = NULL, *eml = NULL;
	pb_str msg;
	pb_err err;
	int rc = parse_options(argc, argv, opts, &usage, NULL);

	str_init(&msg);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if ((t.patch >= 0) + t.series + (t.bisect > 0) != 1) {
		cli_error("mail needs exactly one of --patch N, --series, --bisect ID");
		rc = PB_EXIT_USAGE;
		goto out;
	}
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	if (t.patch >= 0 && !(p = cli_queue_patch(&q, t.patch)))
		goto out_queue;
	/* built in memory first: a refusal leaves no directory and no file */
	if (!path_exists(cfg.db_path))
		pb_seterr(&err, "no database %s yet: perfbot run measures first", cfg.db_path);
	else if (db_open_readonly(cfg.db_path, &db, &err) &&
		 (p	     ? patch_message(db, &cfg, &q, p, &msg, &name, &err)
		  : t.series ? series_message(db, &cfg, &q, &msg, &name, &err)
			     : bisect_message(db, &cfg, &q, t.bisect, &msg, &name, &err)) &&
		 write_and_send(&cfg, &msg, name, &eml, &err))
		rc = PB_EXIT_OK;
	if (rc != PB_EXIT_OK)
		cli_error("%s", err.msg);
	if (db)
		db_close(db);
out_queue:
	queue_free(&q);
	config_free(&cfg);
out:
	free(name);
	free(eml);
	str_free(&msg);
	cli_free(&c);
	return rc;
}
