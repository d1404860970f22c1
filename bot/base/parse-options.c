#include "parse-options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Past this, an option's help starts on the next line. */
#define USAGE_MAX_COLUMN 30
/* Tables include tables this deep at most (a loop would never end). */
#define MAX_INCLUDE_DEPTH 4

static const struct pb_option help_option = {
	.type = OPTION_HELP, .short_name = 'h', .long_name = "help", .help = "print this help",
};

/* An option of the whole tree of tables and what it acts on. */
struct flat {
	const struct pb_option *opt;
	void *value;
};

struct parser {
	int argc;
	char **argv;
	int i;                  /* the argument being looked at */
	const char *prog;
	const struct pb_option *opts;
	const struct pb_usage *u;
	struct flat *all;
	int nall;
	const char *stray;      /* the first argument that is no option */
	int *nargs;
};

/* Fills out (when given) and returns how many there are: the built-in help
 * first, then the tables in order, includes expanded in place. */
static int flatten(const struct pb_option *opts, void *outer, struct flat *out, int n, int depth)
{
	if (!depth && out)
		out[n] = (struct flat){ &help_option, NULL };
	if (!depth)
		n++;
	for (; depth < MAX_INCLUDE_DEPTH && opts->type != OPTION_END; opts++) {
		void *value = opts->value ? opts->value : outer;

		if (opts->type == OPTION_INCLUDE) {
			n = flatten(opts->data, value, out, n, depth + 1);
			continue;
		}
		if (out)
			out[n] = (struct flat){ opts, value };
		n++;
	}
	return n;
}

static struct flat *flat_options(const struct pb_option *opts, int *n)
{
	struct flat *all;

	*n = flatten(opts, NULL, NULL, 0, 0);
	all = xcalloc((size_t)*n, sizeof(*all));
	flatten(opts, NULL, all, 0, 0);
	return all;
}

/* One line on stderr, visible() whatever the arguments held. */
static int refuse(const struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse(const struct parser *p, const char *fmt, ...)
{
	char *raw;
	pb_err err;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	va_end(ap);
	pb_seterr(&err, "%s", raw ? raw : "out of memory");
	fprintf(stderr, "%s: %s\n", p->prog, err.msg);
	free(raw);
	return PB_EXIT_USAGE;
}

/* "--patch", or "-p" for an option without a long name. */
static const char *opt_name(const struct pb_option *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

static int set_integer(const struct parser *p, const struct flat *f, const char *arg)
{
	const struct pb_option *o = f->opt;
	char *end, buf[64];
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	/* what strtol takes (" 4", "+4" too), as the getopt loops before it did */
	if (!arg[0] || *end || errno || v < o->min || v > o->max)
		return refuse(p, "%s needs a number of %s from %d to %d, not '%s'",
			      opt_name(o, buf, sizeof(buf)), o->unit ? o->unit : "units", o->min, o->max,
			      arg);
	*(int *)f->value = (int)v;
	return PB_OPT_GO_ON;
}

/* The option f given (arg: its value, NULL if it takes none). */
static int set_option(struct parser *p, const struct flat *f, char *arg)
{
	const struct pb_option *o = f->opt;
	char buf[64];
	pb_err err;

	switch (o->type) {
	case OPTION_HELP:
		usage_with_options(stdout, p->opts, p->u);
		return PB_EXIT_OK;
	case OPTION_BOOL:
		*(bool *)f->value = true;
		return PB_OPT_GO_ON;
	case OPTION_INTEGER:
		return set_integer(p, f, arg);
	case OPTION_STRING:
		*(const char **)f->value = arg;
		return PB_OPT_GO_ON;
	case OPTION_STRING_LIST:
		if (*o->count >= o->max)
			return refuse(p, "at most %d %s options", o->max, opt_name(o, buf, sizeof(buf)));
		((char **)f->value)[(*o->count)++] = arg;
		return PB_OPT_GO_ON;
	case OPTION_CALLBACK:
		if (!o->callback(o, arg, f->value, &err))
			return refuse(p, "%s", err.msg);
		return PB_OPT_GO_ON;
	default:
		return refuse(p, "%s: not an option perfbot knows how to parse", opt_name(o, buf, sizeof(buf)));
	}
}

static bool takes_value(const struct pb_option *o)
{
	return o->argh && o->type != OPTION_BOOL && o->type != OPTION_HELP;
}

static bool is_option(const struct pb_option *o)
{
	return o->type != OPTION_GROUP && o->type != OPTION_END;
}

/* The value of an option that takes one from the next argument. */
static int next_value(struct parser *p, const struct flat *f, const char *given)
{
	if (p->i + 1 >= p->argc)
		return refuse(p, "option '%s' needs a value (%s --help lists the options)", given,
			      p->prog);
	return set_option(p, f, p->argv[++p->i]);
}

/* The long option by its name or an unambiguous prefix of it (len bytes). */
static const struct flat *find_long(const struct parser *p, const char *name, size_t len, int *rc)
{
	const struct flat *found = NULL, *other = NULL;

	for (int k = 0; k < p->nall; k++) {
		const char *l = p->all[k].opt->long_name;

		if (!is_option(p->all[k].opt) || !l || strncmp(l, name, len))
			continue;
		if (!l[len])
			return &p->all[k];
		if (!found)
			found = &p->all[k];
		else if (!other)
			other = &p->all[k];
	}
	if (found && other)
		*rc = refuse(p, "option '--%.*s' is ambiguous (--%s, --%s, ...; %s --help lists the options)",
			     (int)len, name, found->opt->long_name, other->opt->long_name, p->prog);
	else if (!found)
		*rc = refuse(p, "unknown option '--%.*s' (%s --help lists the options)", (int)len, name,
			     p->prog);
	return other ? NULL : found;
}

/* argv[i] is "--name", "--name=value" or "--name value". */
static int parse_long(struct parser *p)
{
	char *name = p->argv[p->i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int rc = PB_EXIT_USAGE;
	const struct flat *f = find_long(p, name, len, &rc);

	if (!f)
		return rc;
	if (!takes_value(f->opt)) {
		if (eq)
			return refuse(p, "option '--%s' takes no value", f->opt->long_name);
		return set_option(p, f, NULL);
	}
	if (eq)
		return set_option(p, f, eq + 1);
	return next_value(p, f, p->argv[p->i]);
}

static const struct flat *find_short(const struct parser *p, int c)
{
	for (int k = 0; k < p->nall; k++)
		if (is_option(p->all[k].opt) && p->all[k].opt->short_name == c)
			return &p->all[k];
	return NULL;
}

/* argv[i] is "-x", "-xvalue", "-x value" or bundled ones, "-fx value". */
static int parse_short(struct parser *p)
{
	char *arg = p->argv[p->i];

	for (char *c = arg + 1; *c; c++) {
		const struct flat *f = find_short(p, (unsigned char)*c);
		char given[3] = { '-', *c, '\0' };
		int rc;

		if (!f)
			return refuse(p, "unknown option '%s' (%s --help lists the options)", given,
				      p->prog);
		if (takes_value(f->opt))
			return c[1] ? set_option(p, f, c + 1) : next_value(p, f, given);
		rc = set_option(p, f, NULL);
		if (rc != PB_OPT_GO_ON)
			return rc;
	}
	return PB_OPT_GO_ON;
}

static void non_option(struct parser *p, char *arg)
{
	if (p->nargs)
		p->argv[(*p->nargs)++] = arg; /* never ahead of p->i: nothing unread is overwritten */
	else if (!p->stray)
		p->stray = arg;
}

int parse_options(int argc, char **argv, const struct pb_option *opts, const struct pb_usage *u,
		  int *nargs)
{
	struct parser p = { .argc = argc, .argv = argv, .prog = u ? u->prog : argv[0],
			    .opts = opts, .u = u, .nargs = nargs };
	int rc = PB_OPT_GO_ON;
	bool dashdash = false;

	p.all = flat_options(opts, &p.nall);
	if (nargs)
		*nargs = 0;
	/* Every option is looked at before a stray argument is refused, as
	 * getopt_long did: --help anywhere prints the usage. */
	for (p.i = 1; rc == PB_OPT_GO_ON && p.i < argc; p.i++) {
		char *arg = argv[p.i];

		if (dashdash || arg[0] != '-' || !arg[1])
			non_option(&p, arg);
		else if (!strcmp(arg, "--"))
			dashdash = true;
		else if (arg[1] == '-')
			rc = parse_long(&p);
		else
			rc = parse_short(&p);
	}
	if (rc == PB_OPT_GO_ON && p.stray)
		rc = refuse(&p, "unexpected argument '%s'", p.stray);
	free(p.all);
	return rc;
}

/* "-p, --patch N", "    --modes LIST" or "-1": an option as the usage shows it. */
static char *option_spec(const struct pb_option *o)
{
	const char *a = takes_value(o) ? o->argh : NULL;

	if (o->short_name && o->long_name)
		return xasprintf("-%c, --%s%s%s", o->short_name, o->long_name, a ? " " : "", a ? a : "");
	if (o->long_name)
		return xasprintf("    --%s%s%s", o->long_name, a ? " " : "", a ? a : "");
	return xasprintf("-%c%s%s", o->short_name, a ? " " : "", a ? a : "");
}

/* The help column: after the longest spec that is not too long. */
static int help_column(const struct flat *all, int n)
{
	int col = 0;

	for (int k = 0; k < n; k++) {
		char *spec;
		int len;

		if (!is_option(all[k].opt))
			continue;
		spec = option_spec(all[k].opt);
		len = (int)strlen(spec);
		if (len <= USAGE_MAX_COLUMN && len > col)
			col = len;
		free(spec);
	}
	return col + 2;
}

static void print_option(FILE *out, const struct pb_option *o, int col)
{
	char *spec = option_spec(o);
	const char *h = o->help ? o->help : "";
	int len = (int)strlen(spec);

	fprintf(out, "  %s", spec);
	if (len > col - 2)
		fprintf(out, "\n%*s", col + 2, "");
	else
		fprintf(out, "%*s", col - len, "");
	for (;;) {
		size_t n = strcspn(h, "\n");

		fprintf(out, "%.*s\n", (int)n, h);
		if (!h[n])
			break;
		h += n + 1;
		fprintf(out, "%*s", col + 2, "");
	}
	free(spec);
}

void usage_with_options(FILE *out, const struct pb_option *opts, const struct pb_usage *u)
{
	int n;
	struct flat *all = flat_options(opts, &n);
	int col = help_column(all, n);

	if (u)
		fprintf(out, "usage: %s %s\n", u->prog, u->synopsis ? u->synopsis : "[options]");
	for (int k = 0; k < n; k++) {
		if (all[k].opt->type == OPTION_GROUP)
			fprintf(out, "\n%s:\n", all[k].opt->help);
		else
			print_option(out, all[k].opt, col);
	}
	if (u && u->footer)
		fprintf(out, "\n%s", u->footer);
	free(all);
}
