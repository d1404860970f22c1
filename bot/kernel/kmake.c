/* Running make on a tree: the compiler's version, ccache and the build
 * environment, the progress line, orphaned sub-makes of a perfbot that died,
 * and what a failed build's log says. */
#include "kmake.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event.h"

/* "gcc (Debian 12.2.0-14) 12.2.0": part of every config and kernel key.
 * Asked once per process. */
const char *compiler_version(void)
{
	static char version[256];

	if (!version[0]) {
		char *argv[] = { "gcc", "--version", NULL };
		pb_str out;
		int st;

		str_init(&out);
		if (spawn_capture(argv, NULL, false, &out, &st) && st == 0)
			snprintf(version, sizeof(version), "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
		else
			snprintf(version, sizeof(version), "unknown");
		str_free(&out);
	}
	return version;
}

/* The last lines of a failed build that say what went wrong. */
char *build_failure_text(const char *log)
{
	char *text = read_file(log, NULL, NULL), *line, *save = NULL;
	pb_str s, tail;
	int errors = 0;

	str_init(&s);
	str_init(&tail);
	if (!text)
		return xstrdup("no build log");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if ((strstr(line, "error:") || strstr(line, "Error ")) && errors < 12) {
			str_add(&s, line);
			str_add(&s, "\n");
			errors++;
		}
		str_add(&tail, line);
		str_add(&tail, "\n");
		if (tail.len > 4000) {
			char *keep = xstrdup(tail.buf + tail.len - 2000);

			str_free(&tail);
			str_init(&tail);
			str_add(&tail, keep);
			free(keep);
		}
	}
	free(text);
	if (!s.len) {
		str_free(&s);
		return str_steal(&tail);
	}
	str_free(&tail);
	return str_steal(&s);
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* make runs in a process group of its own (spawn_pipe), noted in
 * <tree>/build.pgid while it runs. The top make dies with perfbot
 * (PR_SET_PDEATHSIG), but its sub-makes and compilers would go on writing
 * into the object directory; the next build, under the tree's lock, kills
 * what is left of that group first. pid 0: the build is over. */
static void build_group_note(const struct kernel_tree *t, pid_t pid)
{
	char *path = xasprintf("%s/build.pgid", t->dir);

	if (pid) {
		char *s = xasprintf("%d\n", (int)pid);

		write_file_atomic(path, s, strlen(s), NULL);
		free(s);
	} else {
		unlink(path);
	}
	free(path);
}

void kill_orphaned_build(const struct kernel_tree *t)
{
	char *path = xasprintf("%s/build.pgid", t->dir), *text = read_file(path, NULL, NULL);
	long pgid = text ? strtol(text, NULL, 10) : 0;

	if (pgid > 1 && pgid != getpgrp() && kill((pid_t)-pgid, 0) == 0) {
		event_progress("perfbot: stopping the build (process group %ld) that a perfbot which "
				       "died left running in %s\n", pgid, t->dir);
		kill((pid_t)-pgid, SIGKILL);
		for (int i = 0; i < 100 && kill((pid_t)-pgid, 0) == 0; i++)
			usleep(100 * 1000);
	}
	unlink(path);
	free(text);
	free(path);
}

/* make's arguments and environment: ccache under the cache dir, and the
 * same build user, host and timestamp in every kernel. */
struct make_args {
	char *o, *j, *ccache_dir, *ccache_base;
	char *env[7], *argv[6];
};

static void make_args_init(struct make_args *m, const struct pb_config *cfg,
			   const struct kernel_tree *t, const char *objdir)
{
	bool ccache = program_in_path("ccache");

	m->o = xasprintf("O=%s", objdir);
	m->j = xasprintf("-j%d", cfg->jobs ? cfg->jobs : ncpus());
	m->ccache_dir = cfg->ccache_dir ? xasprintf("CCACHE_DIR=%s", cfg->ccache_dir)
					: xasprintf("CCACHE_DIR=%s/ccache", cfg->cache_dir);
	m->ccache_base = xasprintf("CCACHE_BASEDIR=%s", t->cache_dir);
	{
		char *env[] = { m->ccache_dir, m->ccache_base, "CCACHE_MAXSIZE=8G",
				"KBUILD_BUILD_USER=perfbot", "KBUILD_BUILD_HOST=perfbot",
				"KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 2026", NULL };
		char *argv[] = { "make", m->o, m->j, ccache ? "CC=ccache gcc" : "CC=gcc", "bzImage",
				 NULL };

		memcpy(m->env, env, sizeof(env));
		memcpy(m->argv, argv, sizeof(argv));
	}
}

static void make_args_free(struct make_args *m)
{
	free(m->o);
	free(m->j);
	free(m->ccache_dir);
	free(m->ccache_base);
}

/* Copies make's output to out and shows its steps on the terminal, against
 * the expected count when a cold build noted one; the steps it made. */
static long follow_make(FILE *in, FILE *out, const char *label, long expected)
{
	struct progress pr;
	char *line = NULL, last[160] = "";
	size_t cap = 0;
	long steps = 0;

	progress_init(&pr);
	while (getline(&line, &cap, in) > 0) {
		double el;

		fputs(line, out);
		if (line[0] == ' ' && line[1] == ' ' && line[2] >= 'A' && line[2] <= 'Z') {
			steps++;
			snprintf(last, sizeof(last), "%s", trim(line));
		}
		el = now_seconds() - pr.start;
		if (expected > steps)
			progress_show(&pr, false, "  build %-10s %5ld/~%ld steps %3d:%02d  %.60s", label,
				      steps, expected, (int)el / 60, (int)el % 60, last);
		else
			progress_show(&pr, false, "  build %-10s %5ld steps %3d:%02d  %.60s", label, steps,
				      (int)el / 60, (int)el % 60, last);
	}
	progress_done(&pr);
	free(line);
	return steps;
}

/* make ... bzImage, its output to log, a progress line on the terminal. */
int run_make(const struct pb_config *cfg, struct kernel_tree *t, const char *objdir,
	     const char *log, const char *label)
{
	struct make_args m;
	char *steps_file = xasprintf("%s/.perfbot-steps", objdir);
	char *prev = read_file(steps_file, NULL, NULL);
	long expected = prev ? strtol(prev, NULL, 10) : 0, steps;
	FILE *out, *in;
	int fd, st = 0, rc = -1;
	pid_t pid = -1;

	free(prev);
	make_args_init(&m, cfg, t, objdir);
	out = fopen(log, "w");
	if (out)
		pid = spawn_pipe(m.argv, t->work, m.env, &fd);
	if (pid < 0)
		goto out;
	build_group_note(t, pid);
	in = fdopen(fd, "r");
	steps = follow_make(in, out, label, expected);
	fclose(in);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	build_group_note(t, 0);
	fclose(out);
	out = NULL;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && steps > expected) {
		/* Remember a cold build's size so the next one can show how far it is. */
		char *s = xasprintf("%ld\n", steps);

		write_file_atomic(steps_file, s, strlen(s), NULL);
		free(s);
	}
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
out:
	if (out)
		fclose(out);
	make_args_free(&m);
	free(steps_file);
	return rc;
}

/* Under this much left, a make that failed ran out of space, whatever its
 * log says: the log is on that disk too, and the write that failed may
 * have been the one that would have said so. */
#define OUT_OF_SPACE_MB 16

/* A make that failed for want of space: the machine's problem, not the
 * kernel's, so not a build-failed result. */
bool out_of_space(const char *log, const char *objdir, pb_err *err)
{
	struct statvfs vfs;
	char *text = read_file(log, NULL, NULL);
	bool full = text && strstr(text, "No space left on device");
	unsigned long long free_mb = 0;

	if (statvfs(objdir, &vfs) == 0) {
		free_mb = (unsigned long long)vfs.f_bavail * vfs.f_frsize >> 20;
		full |= free_mb < OUT_OF_SPACE_MB;
	}
	free(text);
	if (full)
		pb_seterr(err, "disk full while building in %s (%llu MiB free): no space left on device; "
			       "nothing was marked built", objdir, free_mb);
	return full;
}
