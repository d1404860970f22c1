/* kselftest-vm: the kernel's own mm selftests (tools/testing/selftests/vm of
 * the same tree, built static by perfbot and put in /selftests), each run
 * with a time limit, its output on the console.
 *
 * Metrics (behaviour, iteration 1), one per test: <test>_result with
 *   0 pass (exit 0), 1 fail (any other exit, a signal, or past the time
 *   limit), 2 skip (kselftest's exit 4, or the program was not built).
 * The check is ok when at least one test passed or failed: a set of which
 * nothing ran is invalid, not a row of skips.
 *
 * A kselftest-harness program that exits 0 with every case skipped ("# Totals:
 * pass:0 fail:0 ... skip:N") counts as skip. Tests run from the directory
 * above the hugetlbfs mount, as run_vmtests.sh runs them beside "huge".
 *
 * usage: kselftest-vm --dir D --timeout S --hugetlbfs M [--only t1,t2,...]
 * Output: PB1 sample / check lines as in workloads/README.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME "kselftest-vm"
#include "workload.h"

#include "kselftest.h"

/* The tests, with the arguments run_vmtests.sh gives them; "@" is the
 * hugetlbfs mount. */
static const struct test {
	const char *name, *metric;
	const char *args[6];
	int hugetlb_pages; /* the pool of 2 MiB pages it needs, freed again for the others */
} tests[] = {
	{ "khugepaged", "khugepaged_result", { NULL }, 0 },
	{ "migration", "migration_result", { NULL }, 0 },
	{ "hugepage-vmemmap", "hugepage_vmemmap_result", { NULL }, 160 },
	{ "hugetlb-madvise", "hugetlb_madvise_result", { "@/madvise-test", NULL }, 160 },
	{ "hugepage-mmap", "hugepage_mmap_result", { NULL }, 160 },
	{ "hugepage-shm", "hugepage_shm_result", { NULL }, 160 },
	{ "map_hugetlb", "map_hugetlb_result", { NULL }, 160 },
	{ "hugepage-mremap", "hugepage_mremap_result", { "@/huge_mremap", NULL }, 160 },
	{ "split_huge_page_test", "split_huge_page_test_result", { NULL }, 0 },
	{ "madv_populate", "madv_populate_result", { NULL }, 0 },
	{ "soft-dirty", "soft_dirty_result", { NULL }, 0 },
	{ "map_populate", "map_populate_result", { NULL }, 0 },
	{ "map_fixed_noreplace", "map_fixed_noreplace_result", { NULL }, 0 },
	{ "mremap_dontunmap", "mremap_dontunmap_result", { NULL }, 0 },
	{ "mlock2-tests", "mlock2_tests_result", { NULL }, 0 },
	{ "userfaultfd", "userfaultfd_anon_result", { "anon", "20", "16", NULL }, 0 },
	{ "ksm_tests", "ksm_tests_merge_result", { "-M", "-p", "10", NULL }, 0 },
};

static volatile sig_atomic_t alarmed;
static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static enum kst_result run_one(const struct test *t, const char *dir, const char *mnt, int timeout,
			   double *seconds)
{
	char path[512], argbuf[6][256], parent[256], buf[4096];
	char *argv[8], *slash;
	int n = 0, status = 0, fds[2];
	pid_t pid;
	double start = pb_now_ms();
	struct kst_scan scan = { .len = 0 };

	snprintf(parent, sizeof(parent), "%s", mnt);
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = '\0';

	snprintf(path, sizeof(path), "%s/%s", dir, t->name);
	*seconds = 0;
	if (access(path, X_OK) != 0) {
		fprintf(stderr, "kselftest-vm: %s: not built (see selftests-vm.build.log beside the tree in perfbot's cache)\n",
			t->name);
		return KST_SKIP;
	}
	argv[n++] = path;
	for (int i = 0; t->args[i] && n < 7; i++, n++) {
		const char *a = t->args[i];

		if (a[0] == '@')
			snprintf(argbuf[i], sizeof(argbuf[i]), "%s%s", mnt, a + 1);
		else
			snprintf(argbuf[i], sizeof(argbuf[i]), "%s", a);
		argv[n] = argbuf[i];
	}
	argv[n] = NULL;
	fprintf(stderr, "kselftest-vm: ---- %s ----\n", t->name);
	fflush(stderr);
	if (pipe(fds) != 0)
		return KST_FAIL;
	pid = fork();
	if (pid < 0)
		return KST_FAIL;
	if (pid == 0) {
		/* its output goes through us to the console, next to the kernel's */
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		setpgid(0, 0);
		/* run_vmtests.sh runs them beside the hugetlbfs mount "huge" */
		if (chdir(parent) != 0 && chdir("/tmp") != 0)
			_exit(1);
		execv(path, argv);
		_exit(127);
	}
	close(fds[1]);
	alarmed = 0;
	alarm((unsigned)timeout);
	for (;;) {
		ssize_t got = read(fds[0], buf, sizeof(buf));

		if (got > 0) {
			if (write(2, buf, (size_t)got) < 0)
				break;
			kst_scan_output(buf, (size_t)got, &scan);
		} else if (got == 0 || errno != EINTR || alarmed) {
			break;
		}
	}
	if (alarmed) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		if (alarmed) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	alarm(0);
	*seconds = (pb_now_ms() - start) / 1e3;
	{
		enum kst_result r = kst_result_of(status, alarmed, scan.only_skips);

		fprintf(stderr, "kselftest-vm: %s: %s (%s %d%s, %.1f s)\n", t->name, kst_result_name(r),
			alarmed ? "past its limit of" : WIFEXITED(status) ? "exit" : "signal",
			alarmed ? timeout : WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			scan.only_skips ? ", every case skipped" : "", *seconds);
		return r;
	}
}

static int wanted(const char *only, const char *name)
{
	size_t n = strlen(name);

	if (!only)
		return 1;
	for (const char *at = strstr(only, name); at; at = strstr(at + 1, name))
		if ((at == only || at[-1] == ',') && (at[n] == '\0' || at[n] == ','))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/selftests", *mnt = "/mnt/huge", *only = NULL;
	int timeout = 120, counted[3] = { 0 }, ran = 0;
	struct sigaction sa = { 0 };

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--timeout"))
			timeout = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--hugetlbfs"))
			mnt = argv[i + 1];
		else if (!strcmp(argv[i], "--only"))
			only = strcmp(argv[i + 1], "all") ? argv[i + 1] : NULL;
		else
			return pb_invalid("unknown argument %s", argv[i]);
	}
	if (timeout < 1)
		return pb_invalid("--timeout %d", timeout);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		double seconds;
		enum kst_result r;

		if (!wanted(only, tests[i].name))
			continue;
		/* a pool only while a hugetlb test runs: THP tests need the memory */
		{
			char pool[16];

			snprintf(pool, sizeof(pool), "%d", tests[i].hugetlb_pages);
			if (pb_read_long("/proc/sys/vm/nr_hugepages") != tests[i].hugetlb_pages &&
			    !pb_write_str("/proc/sys/vm/nr_hugepages", pool))
				fprintf(stderr, "kselftest-vm: cannot set nr_hugepages to %s\n", pool);
		}
		/* every test from the same state, whatever ran before it in this
		 * boot: caches dropped, memory compacted (THP tests need order-9) */
		pb_write_str("/proc/sys/vm/drop_caches", "3");
		pb_write_str("/proc/sys/vm/compact_memory", "1");
		r = run_one(&tests[i], dir, mnt, timeout, &seconds);
		counted[r]++;
		ran += r != KST_SKIP;
		pb_sample(1, tests[i].metric, r);
		fflush(stdout);
	}
	if (!ran)
		return pb_invalid("no vm selftest ran: %d skipped (are they in %s?)", counted[KST_SKIP], dir);
	printf("PB1 check " NAME " ok %d passed, %d failed, %d skipped\n", counted[KST_PASS], counted[KST_FAIL],
	       counted[KST_SKIP]);
	return 0;
}
