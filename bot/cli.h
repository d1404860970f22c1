/* What every subcommand shares: the dispatch table's entry type and the
 * options that choose and override the configuration. */
#ifndef PERFBOT_CLI_H
#define PERFBOT_CLI_H

#include <getopt.h>

#include "config.h"
#include "parse-options.h"

/* git describe of the tree that was built (build/version.c, rewritten
 * only when it changes, so a new commit relinks with the right string). */
extern const char perfbot_version[];

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_nightly(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_pair(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_jobs(int argc, char **argv);

/* getopt_long values of the common options start here. */
#define CLI_COMMON_BASE 1000

struct cli {
	const char *config_path;
	char **overrides;  /* "section.key=value", applied in order after the file */
	int noverrides;
};

/* The options every command and perfbotd take, into a struct cli: -C, -c
 * and the named configuration keys. OPT_CLI_COMMON(&c) in a table. */
extern const struct pb_option cli_common_options[];
#define OPT_CLI_COMMON(c) OPT_INCLUDE(cli_common_options, PB_OPT_PTR(struct cli, c))

/* Appends the common long options to a command's own (NULL-terminated
 * result, to be freed). */
struct option *cli_options(const struct option *own);
/* Handles a common option; false if opt is not one. */
bool cli_common(struct cli *c, int opt, const char *arg);
/* The usage lines of the common options. */
void cli_common_usage(FILE *out);
/* Reads the config file (the -C/--config one, else $PERFBOT_CONFIG, else
 * ./config.ini, else the one beside the perfbot checkout) and the overrides. */
bool cli_load_config(struct cli *c, struct pb_config *cfg, pb_err *err);
void cli_free(struct cli *c);

struct pb_queue;
/* cli_load_config, then the queue it names; prints the error (and frees
 * what it loaded) on failure. */
bool cli_load_config_queue(struct cli *c, struct pb_config *cfg, struct pb_queue *q);
/* Patch number of q, or NULL after printing what the queue has. */
const struct pb_patch *cli_queue_patch(const struct pb_queue *q, int number);
/* --patch N: a series number such as 765; prints the error on failure. */
bool cli_patch_number(const char *arg, int *number);

/* --workload NAME, repeatable: appends to names (CLI_MAX_WORKLOADS of them);
 * prints the error when there are too many. */
#define CLI_MAX_WORKLOADS 32

/* -p, --patch N into an int: a series number such as 765. */
bool cli_patch_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err);
#define OPT_CLI_PATCH(v, h) \
	OPT_CALLBACK('p', "patch", PB_OPT_PTR(int, v), "N", (h), cli_patch_option)
/* -w, --workload NAME, repeatable: into names, *n of them. */
#define OPT_CLI_WORKLOADS(names, n, h)                                                \
	OPT_STRING_LIST('w', "workload", (names), (n), CLI_MAX_WORKLOADS, "NAME", (h))
bool cli_workload_arg(char **names, int *n, char *arg);

/* What run and submit are told: --patch N, --workload NAME..., --force. */
struct patch_args {
	int number;
	char *only[CLI_MAX_WORKLOADS];
	int nonly;
	bool force;
};
/* Parses them (and the common options, into c); PB_OPT_GO_ON, else the
 * exit status to return (the error or the usage printed). */
int cli_patch_args(int argc, char **argv, struct cli *c, struct patch_args *a,
		   const struct pb_usage *u);

/* The options of a command that has none of its own: -h and the common
 * ones (into c), no arguments. PB_OPT_GO_ON, else the exit status to
 * return (the error or the usage printed). */
int cli_no_args(int argc, char **argv, struct cli *c, const struct pb_usage *u);

/* After a command's getopt_long loop: true, with the error printed, if an
 * argument that is no option is left (no command takes one). */
bool cli_extra_argument(int argc, char **argv);

/* Prints "perfbot: <msg>" on one line (cli_program: perfbotd's own name). */
extern const char *cli_program;
/* After getopt_long returned '?': one line naming the bad option. */
void cli_bad_option(char **argv);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
