#include "cli.h"
#include "queue.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Named shortcuts for the keys people override most; -c section.key=value
 * reaches every other key. */
static const struct shortcut {
	const char *option, *key, *help;
} shortcuts[] = {
	{ "accel", "qemu.accel", "auto|kvm|tcg|tcg-icount" },
	{ "boots", "run.boots", "boots per kernel" },
	{ "iterations", "run.iterations", "iterations per boot" },
	{ "cache-dir", "cache.dir", "kernel trees, builds, ccache" },
	{ "db", "database.path", "results database" },
	{ "queue", "queue.dir", "directory of patch files" },
	{ "report-dir", "report.dir", "where HTML reports go" },
	{ "jobs", "kernel.jobs", "make -j (0: all CPUs)" },
	{ "kernel-source", "kernel.source", "linux-source tarball" },
};

const char *cli_program = "perfbot";

void cli_bad_option(char **argv)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";
	bool daemon = strcmp(cli_program, "perfbot") != 0;
	char *help = daemon ? xasprintf("%s --help", cli_program)
			    : xasprintf("perfbot %s --help", argv[0]);

	/* opterr is 0: this is the only line a bad option prints */
	cli_error("%s%sunknown option '%s', or it lacks its value (%s lists the options)",
		  daemon ? "" : argv[0], daemon ? "" : ": ", opt, help);
	free(help);
}

/* One line, whatever the arguments held (a newline in --patch, an escape
 * sequence from a patch): see visible(). */
void cli_error(const char *fmt, ...)
{
	va_list ap;
	char *raw, *line;

	va_start(ap, fmt);
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	va_end(ap);
	line = visible(raw ? raw : "out of memory");
	fprintf(stderr, "%s: %s\n", cli_program, line);
	free(line);
	free(raw);
}

struct option *cli_options(const struct option *own)
{
	int n = 0, k = 0;
	struct option *all;

	while (own && own[n].name)
		n++;
	all = xcalloc((size_t)n + PB_ARRAY_SIZE(shortcuts) + 3, sizeof(*all));
	for (int i = 0; i < n; i++)
		all[k++] = own[i];
	all[k++] = (struct option){ "config", required_argument, NULL, 'C' };
	all[k++] = (struct option){ "set", required_argument, NULL, 'c' };
	for (size_t i = 0; i < PB_ARRAY_SIZE(shortcuts); i++)
		all[k++] = (struct option){ shortcuts[i].option, required_argument, NULL,
					    CLI_COMMON_BASE + (int)i };
	return all;
}

static void add_override(struct cli *c, char *s)
{
	c->overrides = xrealloc(c->overrides, sizeof(char *) * (size_t)(c->noverrides + 1));
	c->overrides[c->noverrides++] = s;
}

bool cli_common(struct cli *c, int opt, const char *arg)
{
	if (opt == 'C') {
		c->config_path = arg;
		return true;
	}
	if (opt == 'c') {
		add_override(c, xstrdup(arg));
		return true;
	}
	if (opt >= CLI_COMMON_BASE && opt < CLI_COMMON_BASE + (int)PB_ARRAY_SIZE(shortcuts)) {
		add_override(c, xasprintf("%s=%s", shortcuts[opt - CLI_COMMON_BASE].key, arg));
		return true;
	}
	return false;
}

void cli_common_usage(FILE *out)
{
	fprintf(out, "  -C, --config FILE          configuration (default: ./config.ini)\n"
		     "  -c, --set SECTION.KEY=VAL  override any configuration key\n");
	for (size_t i = 0; i < PB_ARRAY_SIZE(shortcuts); i++)
		fprintf(out, "      --%-22s %s (%s)\n", shortcuts[i].option, shortcuts[i].key,
			shortcuts[i].help);
}

/* config.ini of the checkout this binary was built in (build/perfbot). */
static char *config_beside_binary(void)
{
	char *dir = exe_dir(), *p = NULL;

	for (int up = 0; dir && up < 2 && !p; up++) {
		char *slash;

		p = xasprintf("%s/config.ini", dir);
		if (!path_exists(p)) {
			free(p);
			p = NULL;
		}
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			break;
	}
	free(dir);
	return p;
}

bool cli_load_config(struct cli *c, struct pb_config *cfg, pb_err *err)
{
	char *found = NULL;
	const char *path = c->config_path;
	bool ok;

	if (!path)
		path = getenv("PERFBOT_CONFIG");
	if (!path && path_exists("config.ini"))
		path = "config.ini";
	if (!path)
		path = found = config_beside_binary();
	if (!path) {
		pb_seterr(err, "no config.ini here or beside perfbot (use --config FILE)");
		return false;
	}
	ok = config_load(cfg, path, err);
	free(found);
	if (!ok)
		return false; /* config_load freed what it had */
	for (int i = 0; ok && i < c->noverrides; i++)
		ok = config_override(cfg, c->overrides[i], err);
	if (!ok)
		config_free(cfg);
	return ok;
}

void cli_free(struct cli *c)
{
	for (int i = 0; i < c->noverrides; i++)
		free(c->overrides[i]);
	free(c->overrides);
	memset(c, 0, sizeof(*c));
}

int cli_patch_args(int argc, char **argv, struct cli *c, struct patch_args *a,
		   void (*usage)(FILE *out))
{
	static const struct option own[] = { { "patch", required_argument, NULL, 'p' },
					     { "workload", required_argument, NULL, 'w' },
					     { "force", no_argument, NULL, 'f' },
					     { "help", no_argument, NULL, 'h' },
					     { 0 } };
	struct option *opts = cli_options(own);
	int opt, rc = -1;

	memset(a, 0, sizeof(*a));
	a->number = -1;
	while (rc < 0 && (opt = getopt_long(argc, argv, "p:w:fhC:c:", opts, NULL)) != -1) {
		if (cli_common(c, opt, optarg))
			continue;
		if (opt == 'f') {
			a->force = true;
		} else if (opt == 'w') {
			if (!cli_workload_arg(a->only, &a->nonly, optarg))
				rc = PB_EXIT_USAGE;
		} else if (opt == 'p') {
			if (!cli_patch_number(optarg, &a->number))
				rc = PB_EXIT_USAGE;
		} else if (opt == 'h') {
			usage(stdout);
			rc = PB_EXIT_OK;
		} else {
			cli_bad_option(argv);
			rc = PB_EXIT_USAGE;
		}
	}
	/* -w X -w X is one X (the limit above counts the options given) */
	for (int i = 0, k = 0; i <= a->nonly; i++) {
		if (i == a->nonly) {
			a->nonly = k;
			break;
		}
		for (int d = 0; d < k && a->only[i]; d++)
			if (!strcmp(a->only[d], a->only[i]))
				a->only[i] = NULL;
		if (a->only[i])
			a->only[k++] = a->only[i];
	}
	if (rc < 0 && (optind < argc || a->number < 0)) {
		if (a->number < 0)
			cli_error("%s needs --patch N (perfbot list shows the numbers)", argv[0]);
		else
			cli_error("unexpected argument '%s'", argv[optind]);
		rc = PB_EXIT_USAGE;
	}
	free(opts);
	return rc;
}

int cli_no_args(int argc, char **argv, struct cli *c, void (*usage)(FILE *out))
{
	static const struct option own[] = { { "help", no_argument, NULL, 'h' }, { 0 } };
	struct option *opts = cli_options(own);
	int opt, rc = -1;

	while (rc < 0 && (opt = getopt_long(argc, argv, "hC:c:", opts, NULL)) != -1) {
		if (cli_common(c, opt, optarg))
			continue;
		if (opt == 'h') {
			usage(stdout);
			rc = PB_EXIT_OK;
		} else {
			cli_bad_option(argv);
			rc = PB_EXIT_USAGE;
		}
	}
	if (rc < 0 && cli_extra_argument(argc, argv))
		rc = PB_EXIT_USAGE;
	free(opts);
	return rc;
}

bool cli_extra_argument(int argc, char **argv)
{
	if (optind >= argc)
		return false;
	cli_error("unexpected argument '%s'", argv[optind]);
	return true;
}

bool cli_load_config_queue(struct cli *c, struct pb_config *cfg, struct pb_queue *q)
{
	pb_err err;

	if (!cli_load_config(c, cfg, &err)) {
		cli_error("%s", err.msg);
		return false;
	}
	if (!queue_load(cfg->queue_dir, q, &err)) {
		cli_error("%s", err.msg);
		config_free(cfg);
		return false;
	}
	return true;
}

const struct pb_patch *cli_queue_patch(const struct pb_queue *q, int number)
{
	const struct pb_patch *p = queue_find(q, number);
	pb_str nums;

	if (p)
		return p;
	str_init(&nums);
	for (int i = 0; i < q->npatches; i++)
		str_addf(&nums, "%s%03d", i ? " " : "", q->patches[i].number);
	cli_error("patch %d is not in the queue %s (it has %s)", number, q->dir, nums.buf);
	str_free(&nums);
	return NULL;
}

bool cli_patch_number(const char *arg, int *number)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!arg[0] || *end || v < 1 || v > 100000) {
		cli_error("--patch '%s': expected a patch number such as 765", arg);
		return false;
	}
	*number = (int)v;
	return true;
}

bool cli_workload_arg(char **names, int *n, char *arg)
{
	if (*n == CLI_MAX_WORKLOADS) {
		cli_error("at most %d --workload options", CLI_MAX_WORKLOADS);
		return false;
	}
	names[(*n)++] = arg;
	return true;
}
