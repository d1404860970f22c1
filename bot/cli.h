/* What every subcommand shares: the dispatch table's entry type and the
 * options that choose and override the configuration. */
#ifndef PERFBOT_CLI_H
#define PERFBOT_CLI_H

#include "config.h"
#include "run-end.h"
#include "request.h"
#include "parse-options.h"
#include "version.h"
#include "workload.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_mail(int argc, char **argv);
/* perfbot mail --patch's answer to p's review mail, written to
 * <report dir>/mail/ (and sent by [mail] sendmail when set), for nightly's
 * patches that changed; *eml its path (the caller's), once written. */
struct sqlite3;
struct pb_queue;
struct pb_patch;
bool mail_answer_patch(struct sqlite3 *db, const struct pb_config *cfg, const struct pb_queue *q,
		       const struct pb_patch *p, char **eml, pb_err *err);
int cmd_nightly(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_pair(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_bundle(int argc, char **argv);
int cmd_import(int argc, char **argv);

struct cli {
	const char *config_path;
	char **overrides;  /* "section.key=value", applied in order after the file */
	int noverrides;
};

/* The options every command and perfbotd take, into a struct cli: -C, -c
 * and the named configuration keys. OPT_CLI_COMMON(&c) in a table. */
extern const struct pb_option cli_common_options[];
#define OPT_CLI_COMMON(c) OPT_INCLUDE(cli_common_options, PB_OPT_PTR(struct cli, c))

/* Reads the config file (the -C/--config one, else $PERFBOT_CONFIG, else
 * ./config.ini, else the one of the checkout perfbot was built in, else
 * the user's ~/.config/perfbot/config.ini, else /etc/perfbot/config.ini)
 * and the overrides. */
bool cli_load_config(struct cli *c, struct pb_config *cfg, pb_err *err);
void cli_free(struct cli *c);

struct pb_queue;
struct patch_args;
/* cli_load_config, then the queue it names; prints the error (and frees
 * what it loaded) on failure. */
bool cli_load_config_queue(struct cli *c, struct pb_config *cfg, struct pb_queue *q);
/* The same for a's queue: the one patch of --patch-file (a->number is
 * set to its number, 0), else the configured queue. */
bool cli_load_config_patches(struct cli *c, struct pb_config *cfg, struct pb_queue *q,
			     struct patch_args *a);
/* Patch number of q, or NULL after printing what the queue has. */
const struct pb_patch *cli_queue_patch(const struct pb_queue *q, int number);

/* The request (request.h) run's options ask. */
void cli_run_request(const struct patch_args *a, struct request *r);
/* bisect's and calibrate's options, into a request (calibrate's workload
 * names into only); parse_options' return. */
int cli_bisect_args(int argc, char **argv, struct cli *c, struct request *r, const struct pb_usage *u);
int cli_calibrate_args(int argc, char **argv, struct cli *c, struct request *r, char **only,
		       const struct pb_usage *u);

/* The exit status of a library run that ended so (end.h), its error said
 * first when it has one. With an outcome (a patch's or a series' run), a
 * stored regression is PB_EXIT_REGRESSION and a behaviour change without
 * one PB_EXIT_BEHAVIOUR; o NULL: only how it ended counts (a calibration,
 * a bisect, a check). */
struct pipeline_outcome;
int cli_run_status(enum run_end end, const struct pipeline_outcome *o, const pb_err *err);

/* The exit status of a request that ended so (executor_submit): a Slurm
 * node's perfbot's own when its job ran to its end, else cli_run_status's
 * (run: a request of run's, whose outcome counts). */
struct submitted;
int cli_submitted_status(enum run_end end, const struct submitted *s, const pb_err *err, bool run);

/* The report and the answer of what the library measured and stored
 * (present.h): the pages written, the answer and run --all's table said
 * through event.h, so that they follow the command's sink. */
extern const struct presenter cli_presenter;

/* --workload NAME is repeatable, CLI_MAX_WORKLOADS times. */
#define CLI_MAX_WORKLOADS WORKLOADS_MAX

/* -p, --patch N into an int: a series number such as 765. */
bool cli_patch_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err);
#define OPT_CLI_PATCH(v, h) \
	OPT_CALLBACK('p', "patch", PB_OPT_PTR(int, v), "N", (h), cli_patch_option)
/* -w, --workload NAME, repeatable: into names, *n of them. */
#define OPT_CLI_WORKLOADS(names, n, h)                                                \
	OPT_STRING_LIST('w', "workload", (names), (n), CLI_MAX_WORKLOADS, "NAME", (h))

/* What run and submit are told: --patch N, --workload NAME..., --force. */
struct patch_args {
	int number;
	const char *patch_file; /* run --patch-file FILE|-: a patch of one's own (series_ok) */
	char *only[CLI_MAX_WORKLOADS];
	int nonly;
	bool force;
	bool series, mm_only;   /* run --series [--mm-only] (series_ok) */
	bool no_bisect;         /* run --series --no-bisect: what it finds is not bisected */
	/* run's (series_ok): every metric's row; the answer as JSON on stdout;
	 * git bisect run's exit statuses */
	bool all, json, bisect_exit;
};
/* Parses them (and the common options, into c); PB_OPT_GO_ON, else the
 * exit status to return (the error or the usage printed). */
int cli_patch_args(int argc, char **argv, struct cli *c, struct patch_args *a,
		   const struct pb_usage *u, bool series_ok);

/* The options of a command that has none of its own: -h and the common
 * ones (into c), no arguments. PB_OPT_GO_ON, else the exit status to
 * return (the error or the usage printed). */
int cli_no_args(int argc, char **argv, struct cli *c, const struct pb_usage *u);

/* Prints "perfbot: <msg>" on one line (cli_program: perfbotd's own name). */
extern const char *cli_program;
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
