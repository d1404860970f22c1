/* Unit tests of perfbot's modules, run under ASan + UBSan by `make unit`. */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "util.h"

int checks_passed, checks_failed;

/* The directories test_tmpdir() made: removed when every check passed,
 * kept (and named) for a look when one failed. */
static char **tmpdirs;
static size_t ntmpdirs;

char *test_tmpdir(void)
{
	char tmpl[] = "/tmp/perfbot-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	if (!d)
		return NULL;
	tmpdirs = xrealloc(tmpdirs, (ntmpdirs + 1) * sizeof(*tmpdirs));
	tmpdirs[ntmpdirs++] = xstrdup(d);
	return xstrdup(d);
}

static void tmpdirs_clean(bool keep)
{
	for (size_t i = 0; i < ntmpdirs; i++) {
		if (keep)
			fprintf(stderr, "unit: kept %s\n", tmpdirs[i]);
		else if (!rm_rf(tmpdirs[i]))
			fprintf(stderr, "unit: cannot remove %s\n", tmpdirs[i]);
		free(tmpdirs[i]);
	}
	free(tmpdirs);
	tmpdirs = NULL;
	ntmpdirs = 0;
}

int test_occurrences(const char *s, const char *sub)
{
	int n = 0;

	for (const char *p = s; p && (p = strstr(p, sub)); p += strlen(sub))
		n++;
	return n;
}

char *test_write(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/* A temporary file that fd (1 or 2) writes to until fd_restore. */
static int fd_capture(int fd, char *path)
{
	int tmp = mkstemp(path), saved = dup(fd);

	dup2(tmp, fd);
	close(tmp);
	return saved;
}

static char *fd_restore(int fd, int saved, const char *path)
{
	char *text;

	dup2(saved, fd);
	close(saved);
	text = read_file(path, NULL, NULL);
	unlink(path);
	return text ? text : xstrdup("");
}

char *test_run_command(int (*cmd)(int, char **), char **argv, int *rc, char **err)
{
	char out_path[] = "/tmp/perfbot-unit-out-XXXXXX", err_path[] = "/tmp/perfbot-unit-err-XXXXXX";
	int argc = 0, saved_out, saved_err = -1;
	char *out;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	saved_out = fd_capture(1, out_path);
	if (err)
		saved_err = fd_capture(2, err_path);
	optind = 0;
	*rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	out = fd_restore(1, saved_out, out_path);
	if (err)
		*err = fd_restore(2, saved_err, err_path);
	return out;
}

static const struct {
	const char *name;
	void (*fn)(void);
} suites[] = {
	{ "queue", test_queue },     { "config", test_config },   { "db", test_db },     { "bundle", test_bundle }, { "slurm", test_slurm },     { "jobdb", test_jobdb },   { "hostile", test_hostile }, { "kselftest", test_kselftest },
	{ "results", test_results }, { "kernel", test_kernel },   { "compare", test_compare }, { "measure", test_measure },
	{ "workload", test_workload }, { "vm", test_vm },         { "stats", test_stats },
	{ "options", test_options }, { "mail", test_mail }, { "json", test_json }, { "answer", test_answer },
	{ "report", test_report }, { "index-view", test_index_view }, { "trend-view", test_trend_view },
	{ "model", test_model }, { "request", test_request }, { "event", test_event }, { "plan", test_plan },
	{ "pairing", test_pairing }, { "layout", test_layout }, { "sim", test_sim },
};

/* unit-tests [SUITE ...]: the suites named (make unit SUITE=stats), or
 * every suite; an unknown name is refused with the list. */
int main(int argc, char **argv)
{
	bool run[PB_ARRAY_SIZE(suites)];

	for (size_t i = 0; i < PB_ARRAY_SIZE(suites); i++)
		run[i] = argc < 2;
	for (int a = 1; a < argc; a++) {
		size_t i = 0;

		while (i < PB_ARRAY_SIZE(suites) && strcmp(suites[i].name, argv[a]))
			i++;
		if (i == PB_ARRAY_SIZE(suites)) {
			fprintf(stderr, "unit: no suite '%s'; the suites:", argv[a]);
			for (i = 0; i < PB_ARRAY_SIZE(suites); i++)
				fprintf(stderr, " %s", suites[i].name);
			fputc('\n', stderr);
			return 2;
		}
		run[i] = true;
	}
	for (size_t i = 0; i < PB_ARRAY_SIZE(suites); i++) {
		int before = checks_failed, pb = checks_passed;

		if (!run[i])
			continue;
		suites[i].fn();
		printf("%-10s %3d checks, %d failed\n", suites[i].name,
		       checks_passed - pb + checks_failed - before, checks_failed - before);
	}
	tmpdirs_clean(checks_failed > 0);
	printf("unit: %d passed, %d failed\n", checks_passed, checks_failed);
	return checks_failed ? 1 : 0;
}
