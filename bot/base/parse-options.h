/* One option parser for every perfbot command and perfbotd, after git's
 * parse-options: a command describes its options in a table, the parser
 * sets what they point to, and the usage text is generated from the same
 * table, so that --help cannot go stale. Every refusal is the same: an
 * unknown option, a missing or malformed value or a stray argument is one
 * line "<prog>: ..." on stderr and PB_EXIT_USAGE; -h/--help prints the
 * usage on stdout and PB_EXIT_OK.
 *
 * Accepted forms, as getopt_long accepted them before: --name=value,
 * --name value, an unambiguous prefix of a long name, -x value, -xvalue,
 * bundled short options (-fw NAME), options after non-options, and "--"
 * ending the options. A value is the next argument whatever it starts
 * with (--patch -5 is a bad patch number, not an unknown option). */
#ifndef PERFBOT_PARSE_OPTIONS_H
#define PERFBOT_PARSE_OPTIONS_H

#include "util.h"

enum pb_opt_type {
	OPTION_END,
	OPTION_GROUP,       /* a heading in the usage */
	OPTION_INCLUDE,     /* another table (data), its options acting on value */
	OPTION_BOOL,        /* bool *: true when given */
	OPTION_INTEGER,     /* int *: a whole number from min to max */
	OPTION_STRING,      /* const char **: the last one given */
	OPTION_STRING_LIST, /* char **: each one given, *count of them, at most max */
	OPTION_CALLBACK,    /* callback(opt, arg, value, err) */
	OPTION_HELP,        /* the parser's own -h, --help */
};

struct pb_option;
/* false, with err set, refuses the value (the parser prints the error). */
typedef bool pb_opt_cb(const struct pb_option *opt, const char *arg, void *value, pb_err *err);

struct pb_option {
	enum pb_opt_type type;
	int short_name;         /* 0: none */
	const char *long_name;  /* NULL: none */
	void *value;            /* what it sets; NULL in an included table: the include's value */
	const char *argh;       /* its value's name in the usage ("N"); NULL: it takes none */
	const char *help;       /* a '\n' starts another line of it */
	int *count;             /* STRING_LIST: how many value holds */
	int min, max;           /* INTEGER: the range; STRING_LIST: max is value's capacity */
	const char *unit;       /* INTEGER: what it counts ("boots"), for the error */
	pb_opt_cb *callback;
	const void *data;       /* CALLBACK: for the callback (a config key); INCLUDE: the table */
};

/* v, checked to be a T * at compile time. */
#define PB_OPT_PTR(T, v) (1 ? (v) : (T *)0)

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
#define OPT_INCLUDE(table, v) { .type = OPTION_INCLUDE, .value = (v), .data = (table) }
#define OPT_BOOL(s, l, v, h)                                                          \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l),                   \
	  .value = PB_OPT_PTR(bool, v), .help = (h) }
/* e.g. OPT_INTEGER('b', "per-side", &n, "N", 2, 1000, "boots", "boots per side"):
 * "--per-side needs a number of boots from 2 to 1000, not 'x'" */
#define OPT_INTEGER(s, l, v, a, lo, hi, u, h)                                         \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l),                \
	  .value = PB_OPT_PTR(int, v), .argh = (a), .help = (h), .min = (lo),         \
	  .max = (hi), .unit = (u) }
#define OPT_STRING(s, l, v, a, h)                                                     \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l),                 \
	  .value = PB_OPT_PTR(const char *, v), .argh = (a), .help = (h) }
#define OPT_STRING_LIST(s, l, v, n, cap, a, h)                                        \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l),            \
	  .value = PB_OPT_PTR(char *, v), .count = (n), .max = (cap), .argh = (a),    \
	  .help = (h) }
/* a NULL argh: the callback takes no value (arg is NULL) */
#define OPT_CALLBACK(s, l, v, a, h, f)                                                \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_DATA(s, l, v, a, h, f, d)                                        \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (f), .data = (d) }

/* What the usage says around the options. */
struct pb_usage {
	const char *prog;     /* "perfbot run": the usage and every refusal start with it */
	const char *synopsis; /* what follows prog on the usage line: "--patch N [options]" */
	const char *footer;   /* after the options (exit statuses), or NULL */
};

/* parse_options(): go on with the command. */
#define PB_OPT_GO_ON (-1)

/* Parses argv[1..argc-1] (argv[0] is the command's name: prog when u is
 * NULL) into what opts point to. PB_OPT_GO_ON, or the exit status to
 * return: PB_EXIT_OK after --help, PB_EXIT_USAGE after a refusal. A
 * non-option argument is refused, unless nargs is given: then the
 * non-option arguments are moved to argv[0..*nargs-1], in order. */
int parse_options(int argc, char **argv, const struct pb_option *opts, const struct pb_usage *u,
		  int *nargs);

/* The usage generated from opts: the synopsis, one line per option with
 * the help aligned, the groups' headings, the footer. */
void usage_with_options(FILE *out, const struct pb_option *opts, const struct pb_usage *u);

#endif
