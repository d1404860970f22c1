/* The option parser every command and perfbotd use: values, refusals (one
 * line each, PB_EXIT_USAGE), the forms getopt_long accepted, and a usage
 * generated with every option in it. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "parse-options.h"

struct captured {
	int rc, nargs;
	char *out, *err;
};

static char *read_back(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	s = xcalloc((size_t)(n > 0 ? n : 0) + 1, 1);
	rewind(f);
	if (n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = '\0';
	fclose(f);
	return s;
}

/* parse_options() on argv (NULL-terminated), its stdout and stderr kept. */
static struct captured parse(char **argv, const struct pb_option *opts, bool keep_args)
{
	static const struct pb_usage u = { "perfbot test", "[options]", "exit status: 0 or 2\n" };
	FILE *out = tmpfile(), *err = tmpfile();
	int argc = 0, saved_out = dup(1), saved_err = dup(2);
	struct captured c = { 0 };

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(out), 1);
	dup2(fileno(err), 2);
	c.rc = parse_options(argc, argv, opts, &u, keep_args ? &c.nargs : NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	c.out = read_back(out);
	c.err = read_back(err);
	return c;
}

static void captured_free(struct captured *c)
{
	free(c->out);
	free(c->err);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A refusal: PB_EXIT_USAGE and one line on stderr saying what. */
#define CHECK_REFUSED(c, what)                                                        \
	do {                                                                          \
		CHECK_INT((c).rc, PB_EXIT_USAGE);                                     \
		CHECK_INT(lines((c).err), 1);                                         \
		CHECK(!strncmp((c).err, "perfbot test: ", 14));                       \
		CHECK_HAS((c).err, what);                                             \
		CHECK_STR((c).out, "");                                               \
	} while (0)

struct opts {
	bool force, verbose;
	int num;
	const char *str;
	char *names[2];
	int nnames;
	int calls;
	const char *last;
};

/* Counts its calls; refuses "bad". */
static bool count_cb(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	struct opts *o = value;

	if (arg && !strcmp(arg, "bad")) {
		pb_seterr(err, "--%s '%s': not a good one (%s)", opt->long_name, arg,
			  (const char *)opt->data);
		return false;
	}
	o->calls++;
	o->last = arg;
	return true;
}

/* A table of another module, included: its options act on the includer's value. */
static const struct pb_option shared[] = {
	OPT_GROUP("shared"),
	OPT_CALLBACK_DATA('c', "call", NULL, "X", "a callback of the shared table", count_cb, "data"),
	OPT_CALLBACK(0, "tick", NULL, NULL, "a callback that takes no value", count_cb),
	OPT_END(),
};

#define NOPTS 9

static void table(struct pb_option *t, struct opts *o)
{
	const struct pb_option opts[] = {
		OPT_BOOL('f', "force", &o->force, "force it"),
		OPT_BOOL('v', "verbose", &o->verbose, "say more"),
		OPT_INTEGER('n', "num", &o->num, "N", 2, 1000, "boots", "a number\nof two lines"),
		OPT_STRING('s', "string", &o->str, "TEXT", "a string"),
		OPT_STRING_LIST('w', "workload", o->names, &o->nnames, 2, "NAME", "repeatable"),
		OPT_BOOL('1', NULL, &o->verbose, "a short one only"),
		OPT_STRING(0, "wall-strengths-and-a-very-long-name", &o->str, "LIST", "on its own line"),
		OPT_INCLUDE(shared, o),
		OPT_END(),
	};

	_Static_assert(sizeof(opts) == NOPTS * sizeof(opts[0]), "NOPTS options");
	memcpy(t, opts, sizeof(opts));
}

static void test_values(void)
{
	char *argv[] = { "test", "-f", "--num=7", "-s", "-x", "--workload", "a", "-wb", "--call", "y",
			 "--tick", NULL };
	struct pb_option t[NOPTS];
	struct opts o = { 0 };
	struct captured c;

	table(t, &o);
	c = parse(argv, t, false);
	CHECK_INT(c.rc, PB_OPT_GO_ON);
	CHECK_STR(c.err, "");
	CHECK(o.force && !o.verbose);
	CHECK_INT(o.num, 7);
	CHECK_STR(o.str, "-x"); /* a value is the next argument, whatever it starts with */
	CHECK_INT(o.nnames, 2);
	CHECK_STR(o.names[0], "a");
	CHECK_STR(o.names[1], "b");
	CHECK_INT(o.calls, 2);
	CHECK(o.last == NULL);
	captured_free(&c);

	/* --opt value, -xVALUE, bundles, a prefix of a long name, options after arguments */
	{
		char *argv2[] = { "test", "--num", "8", "-vfn9", "--str=", "--verb", NULL };
		struct opts o2 = { 0 };

		table(t, &o2);
		c = parse(argv2, t, false);
		CHECK_INT(c.rc, PB_OPT_GO_ON);
		CHECK_INT(o2.num, 9);
		CHECK(o2.force && o2.verbose);
		CHECK_STR(o2.str, "");
		captured_free(&c);
	}
	{
		char *argv3[] = { "test", "-fn", "1000", "-1", "-c", "z", NULL };
		struct opts o3 = { 0 };

		table(t, &o3);
		c = parse(argv3, t, false);
		CHECK_INT(c.rc, PB_OPT_GO_ON);
		CHECK_INT(o3.num, 1000);
		CHECK(o3.force && o3.verbose);
		CHECK_INT(o3.calls, 1);
		CHECK_STR(o3.last, "z");
		captured_free(&c);
	}
	/* a number as strtol reads it, as the getopt loops before did */
	for (int i = 0; i < 2; i++) {
		char *argv4[] = { "test", "--num", i ? " 5" : "+5", NULL };
		struct opts o4 = { 0 };

		table(t, &o4);
		c = parse(argv4, t, false);
		CHECK_INT(c.rc, PB_OPT_GO_ON);
		CHECK_INT(o4.num, 5);
		captured_free(&c);
	}
}

static void check_refused(char **argv, const char *what)
{
	struct pb_option t[NOPTS];
	struct opts o = { 0 };
	struct captured c;

	table(t, &o);
	c = parse(argv, t, false);
	CHECK_REFUSED(c, what);
	captured_free(&c);
}

static void test_refusals(void)
{
	check_refused((char *[]){ "test", "--num", "x", NULL },
		      "--num needs a number of boots from 2 to 1000, not 'x'");
	check_refused((char *[]){ "test", "-n1", NULL },
		      "--num needs a number of boots from 2 to 1000, not '1'");
	check_refused((char *[]){ "test", "--num=1001", NULL }, "not '1001'");
	check_refused((char *[]){ "test", "--num", "", NULL }, "not ''");
	check_refused((char *[]){ "test", "--num", "5x", NULL }, "not '5x'");
	check_refused((char *[]){ "test", "--num", "99999999999999999999", NULL }, "from 2 to 1000");
	check_refused((char *[]){ "test", "--num", "-3", NULL }, "not '-3'");
	check_refused((char *[]){ "test", "--num", NULL }, "option '--num' needs a value");
	check_refused((char *[]){ "test", "-fn", NULL }, "option '-n' needs a value");
	check_refused((char *[]){ "test", "--force=yes", NULL }, "option '--force' takes no value");
	check_refused((char *[]){ "test", "--frobnicate", NULL },
		      "unknown option '--frobnicate' (perfbot test --help lists the options)");
	check_refused((char *[]){ "test", "-fz", NULL }, "unknown option '-z'");
	check_refused((char *[]){ "test", "--w", NULL }, "option '--w' is ambiguous (--workload, --wall");
	check_refused((char *[]){ "test", "-w", "a", "-w", "b", "-w", "c", NULL },
		      "at most 2 --workload options");
	check_refused((char *[]){ "test", "--call", "bad", NULL },
		      "perfbot test: --call 'bad': not a good one (data)");
	/* a stray argument, wherever it is; the options are all looked at first */
	check_refused((char *[]){ "test", "junk", NULL }, "unexpected argument 'junk'");
	check_refused((char *[]){ "test", "-f", "junk", "--num", "3", "more", NULL },
		      "unexpected argument 'junk'");
	check_refused((char *[]){ "test", "junk", "--frob", NULL }, "unknown option '--frob'");
	check_refused((char *[]){ "test", "-", NULL }, "unexpected argument '-'");
	check_refused((char *[]){ "test", "--", "-f", NULL }, "unexpected argument '-f'");
	/* one line, whatever the argument held */
	check_refused((char *[]){ "test", "--num", "3\n\033[2J", NULL }, "not '3\\x0a\\x1b[2J'");
	check_refused((char *[]){ "test", "x\ny", NULL }, "unexpected argument 'x\\x0ay'");
}

static void test_arguments(void)
{
	char *argv[] = { "test", "one", "-f", "--", "-v", "--num", NULL };
	struct pb_option t[NOPTS];
	struct opts o = { 0 };
	struct captured c;

	table(t, &o);
	c = parse(argv, t, true);
	CHECK_INT(c.rc, PB_OPT_GO_ON);
	CHECK_STR(c.err, "");
	CHECK(o.force && !o.verbose);
	CHECK_INT(o.num, 0);
	CHECK_INT(c.nargs, 3);
	CHECK_STR(argv[0], "one");
	CHECK_STR(argv[1], "-v");
	CHECK_STR(argv[2], "--num");
	captured_free(&c);
}

/* The start of the line p is in. */
static const char *line_of(const char *text, const char *p)
{
	while (p > text && p[-1] != '\n')
		p--;
	return p;
}

static void test_usage(void)
{
	char *help[] = { "test", "junk", "-f", "--help", "--num=x", NULL };
	char *bad_first[] = { "test", "--num=x", "--help", NULL };
	char *bundled[] = { "test", "-fh", NULL };
	struct pb_option t[NOPTS];
	struct opts o = { 0 };
	struct captured c;
	const char *force, *second;
	static const char *const every[] = {
		"usage: perfbot test [options]\n",
		"  -h, --help ",
		"  -f, --force ",
		"  -v, --verbose ",
		"  -n, --num N ",
		"  -s, --string TEXT ",
		"  -w, --workload NAME ",
		"  -1 ",
		"      --wall-strengths-and-a-very-long-name LIST\n",
		"\nshared:\n",
		"  -c, --call X ",
		"      --tick ",
		"exit status: 0 or 2\n",
	};

	table(t, &o);
	/* --help, wherever it is, before a stray argument is refused */
	c = parse(help, t, false);
	CHECK_INT(c.rc, PB_EXIT_OK);
	CHECK_STR(c.err, "");
	for (size_t i = 0; i < PB_ARRAY_SIZE(every); i++)
		CHECK_HAS(c.out, every[i]);
	/* every help in one column, its continuation lines too */
	force = strstr(c.out, "force it");
	second = strstr(c.out, "of two lines");
	CHECK(force && second);
	if (force && second)
		CHECK_INT(second - line_of(c.out, second), force - line_of(c.out, force));
	CHECK_HAS(c.out, " a number\n");
	captured_free(&c);
	/* what is wrong before --help is refused first */
	c = parse(bad_first, t, false);
	CHECK_REFUSED(c, "not 'x'");
	captured_free(&c);
	c = parse(bundled, t, false);
	CHECK_INT(c.rc, PB_EXIT_OK);
	CHECK_HAS(c.out, "usage: perfbot test [options]\n");
	captured_free(&c);
}

/* The common options every command includes, in a table of its own. */
static void test_common(void)
{
	char *argv[] = { "test", "-C", "x.ini", "--boots", "3", "-c", "run.seed=4",
			 "--kernel-source=k.tar.xz", "--rep", "r", "-p", "765", NULL };
	struct cli c = { 0 };
	int number = 0;
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&number, "the patch"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};
	struct captured r = parse(argv, opts, false);

	CHECK_INT(r.rc, PB_OPT_GO_ON);
	CHECK_STR(c.config_path, "x.ini");
	CHECK_INT(number, 765);
	CHECK_INT(c.noverrides, 4);
	if (c.noverrides == 4) {
		CHECK_STR(c.overrides[0], "run.boots=3");
		CHECK_STR(c.overrides[1], "run.seed=4");
		CHECK_STR(c.overrides[2], "kernel.source=k.tar.xz");
		CHECK_STR(c.overrides[3], "report.dir=r");
	}
	captured_free(&r);
	cli_free(&c);
	{
		char *bad[] = { "test", "--patch", "7\n71", NULL };

		r = parse(bad, opts, false);
		CHECK_REFUSED(r, "perfbot test: --patch '7\\x0a71': expected a patch number such as 765");
		captured_free(&r);
	}
	{
		char *help[] = { "test", "--help", NULL };
		static const char *const every[] = { "-p, --patch N ", "-C, --config FILE ",
						     "-c, --set SECTION.KEY=VAL ", "--accel MODE ",
						     "--boots N ", "--iterations N ", "--cache-dir DIR ",
						     "--db FILE ", "--queue DIR ", "--report-dir DIR ",
						     "--jobs N ", "--kernel-source FILE " };

		r = parse(help, opts, false);
		CHECK_INT(r.rc, PB_EXIT_OK);
		for (size_t i = 0; i < PB_ARRAY_SIZE(every); i++)
			CHECK_HAS(r.out, every[i]);
		captured_free(&r);
	}
}

void test_options(void)
{
	test_common();
	test_values();
	test_refusals();
	test_arguments();
	test_usage();
}
