/* The workload table: declarations, metric directions, patch -> workload. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "queue.h"
#include "workload.h"

/* Every key of the tables lands in its own field (string keys are stored
 * by offset: two swapped entries would pass a file of one key). */
static void every_key(const char *dir)
{
	static const char text[] =
		"[workload]\nbinary = b\ndescription = d\nargs = a {iterations}\n"
		"kernel_cmdline = k\nhost_package = hp\nhost_binary = /usr/bin/hb\n"
		"numa_nodes = 3\nrun_before = mkdir /x\nsetup = /sys/y 1\ndisk = scratch 16 raw\n"
		"paths = mm/ include/linux/mm.h\nfallback = yes\nselftests = vm\n"
		"[metric t_ms]\nunit = ms\ndescription = md\nbetter = higher\nkind = behaviour\n"
		"[workload]\nperf_events = page-faults,major-faults\n";
	struct workload_set set;
	struct workload w;
	pb_err err = { "" };
	char *path = test_write(dir, "every.ini", text);
	const struct metric_def *m;

	CHECK(workloads_load(dir, &set, &err));
	CHECK_STR(err.msg, "");
	if (set.n != 1)
		return;
	w = set.w[0];
	CHECK_STR(w.name, "every");
	CHECK_STR(w.binary, "b");
	CHECK_STR(w.description, "d");
	CHECK_STR(w.args, "a {iterations}");
	CHECK(w.iterates);
	CHECK_STR(w.kernel_cmdline, "k");
	CHECK_STR(w.host_package, "hp");
	CHECK(w.nhost_binaries == 1 && !strcmp(w.host_binaries[0], "/usr/bin/hb"));
	CHECK_INT(w.numa_nodes, 3);
	CHECK(w.nsteps == 2 && w.steps[0].kind == 'x' && w.steps[1].kind == 'w');
	CHECK(w.ndisks == 1 && w.disks[0].size_mb == 16 && !strcmp(w.disks[0].fs, "raw"));
	CHECK(w.npaths == 2 && !strcmp(w.paths[1], "include/linux/mm.h"));
	CHECK(w.fallback && w.selftests_vm);
	CHECK_STR(w.perf_events, "page-faults,major-faults");
	CHECK_INT(w.nmetrics, 3);
	m = workload_metric(&w, "t_ms");
	CHECK(m && !strcmp(m->unit, "ms") && !strcmp(m->description, "md"));
	CHECK(m && m->better == 1 && m->kind == METRIC_BEHAVIOUR);
	m = workload_metric(&w, "perf_major_faults");
	CHECK(m && !strcmp(m->unit, "events") && m->better == -1 && m->kind == METRIC_DIAGNOSTIC);
	workloads_free(&set);
	unlink(path);
	free(path);
}

static void expect_bad_workload(const char *dir, const char *text, const char *what)
{
	struct workload w;
	pb_err err = { "" };
	char *path = test_write(dir, "bad.ini", text);

	CHECK(!workload_load_file(path, &w, &err));
	CHECK_HAS(err.msg, what);
	unlink(path);
	free(path);
}

/* Each key's check, and where a key or a section is unknown. */
static void bad_keys(const char *dir)
{
	expect_bad_workload(dir, "[workload]\nbinary = x\nbinery = y\n", ":3: [workload] binery: unknown key");
	expect_bad_workload(dir, "[workload]\nunit = ms\n", "[workload] unit: unknown key");
	expect_bad_workload(dir, "[metric m]\nbinary = x\n", ":2: [metric] binary: unknown key");
	expect_bad_workload(dir, "[metrics m]\nunit = s\n", ":2: unknown section [metrics m]");
	expect_bad_workload(dir, "[workload]\nnuma_nodes = 9\n", "numa_nodes: '9' is not 1..8");
	expect_bad_workload(dir, "[workload]\nsetup = /sys/x\n", "is not '/absolute/path value'");
	expect_bad_workload(dir, "[workload]\nrun_before =\n", "run_before: empty");
	expect_bad_workload(dir, "[workload]\ndisk = d 0 ext4\n", "is not 'name size_mb ext4|raw'");
	expect_bad_workload(dir, "[workload]\nhost_binary = bin/x\n", "is not an absolute path");
	expect_bad_workload(dir, "[workload]\nperf_events = page_faults\n", "is not a list like");
	expect_bad_workload(dir, "[workload]\nselftests = net\n", "only vm is known");
	expect_bad_workload(dir, "[workload]\nfallback = maybe\n", "is not yes or no");
	expect_bad_workload(dir, "[metric m]\nkind = speed\n", "is not time, behaviour or diagnostic");
	expect_bad_workload(dir, "[metric m]\nunit = s\n[metric n]\nunit = s\n[metric m]\nunit = s\n",
			    ":6: [metric m]: bad or repeated name");
	expect_bad_workload(dir, "[workload]\nperf_events = page-faults\n[metric perf_page_faults]\n"
			    "unit = s\n", ":4: [metric perf_page_faults]: bad or repeated name");
	/* perf_events may move the metrics: the section before is not resumed */
	expect_bad_workload(dir, "[metric m]\nunit = s\n[workload]\nperf_events = page-faults\n"
			    "[metric m]\nunit = s\n", ":6: [metric m]: bad or repeated name");
	expect_bad_workload(dir, "[metric Big]\nunit = s\n", "[metric Big]: bad or repeated name");
}

void test_workload(void)
{
	struct workload_set set;
	struct workload tmp;
	const struct workload *w, *chosen[8];
	struct pb_queue q;
	pb_err err = { "" };
	bool fallback;
	char *dir, *path, *args;

	CHECK(workloads_load("workloads", &set, &err));
	w = workload_find(&set, "hugetlb-migrate");
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_STR(w->binary, "hugetlb-migrate");
	CHECK_INT(w->numa_nodes, 2);
	/* zswap's times wait on its swap disk: one guest at a time */
	CHECK(w->side_by_side && workload_find(&set, "zswap") && !workload_find(&set, "zswap")->side_by_side);
	CHECK_INT(w->nsteps, 0);
	CHECK_HAS(w->kernel_cmdline, "hugetlb_free_vmemmap=on");
	CHECK(workload_metric(w, "anon_vmemmap_on_migrate_ms")->kind == METRIC_TIME);
	CHECK_INT(workload_metric(w, "anon_vmemmap_on_migrate_ms")->better, -1);
	CHECK(workload_metric(w, "file_vmemmap_off_pages_migrated")->kind == METRIC_BEHAVIOUR);
	CHECK_INT(workload_metric(w, "file_vmemmap_off_pages_migrated")->better, 1);
	{
		const struct workload *f = workload_find(&set, "thp-file-ro");

		CHECK(f && f->ndisks == 1 && !strcmp(f->disks[0].fs, "ext4"));
		CHECK(f && f->nsteps == 3 && f->steps[0].kind == 'x' && f->steps[2].kind == 'w');
	}
	CHECK(workload_metric(w, "nope") == NULL);
	{
		struct pb_config cfg = { .iterations = 7 };
		struct workload tw = { .name = "t", .args = "--size-mb {size_mb=32} --n {iterations} {x" };

		args = workload_args(w, &cfg, &err);
		CHECK_HAS(args, "--iterations 7");
		free(args);
		args = workload_args(&tw, &cfg, &err);
		CHECK_STR(args, "--size-mb 32 --n 7 {x");
		free(args);
		cfg.params = &(struct workload_param){ "t", "size_mb", "64" };
		cfg.nparams = 1;
		args = workload_args(&tw, &cfg, &err);
		CHECK_STR(args, "--size-mb 64 --n 7 {x");
		free(args);
		cfg.params = &(struct workload_param){ "t", "sise_mb", "64" };
		CHECK(workload_args(&tw, &cfg, &err) == NULL);
		CHECK_HAS(err.msg, "has no parameter 'sise_mb'");
	}

	CHECK(queue_load("queue/stable-5.13", NULL, &q, &err));
	{
		/* The patch -> workload table on the bundled mm patches. */
		static const struct {
			int number;
			const char *names;
			bool fallback;
		} want[] = {
			{ 31, "boot stress-ng-mm thp-anon", false },
			{ 765, "kselftest-vm thp-anon thp-file-ro", false },
			{ 771, "hugetlb-migrate kselftest-vm", false },
			{ 772, "zswap", false },
			/* the seven that are not mm get the fallback set, should --force run them */
			{ 146, "stress-ng-mm thp-anon", true },
			{ 188, "stress-ng-mm thp-anon", true },
			{ 365, "stress-ng-mm thp-anon", true },
			{ 556, "stress-ng-mm thp-anon", true },
			{ 666, "stress-ng-mm thp-anon", true },
			{ 699, "stress-ng-mm thp-anon", true },
			{ 785, "stress-ng-mm thp-anon", true },
		};

		for (size_t i = 0; i < PB_ARRAY_SIZE(want); i++) {
			int n = workloads_for_patch(&set, queue_find(&q, want[i].number), chosen, 8, &fallback);
			pb_str names;

			str_init(&names);
			for (int k = 0; k < n; k++)
				str_addf(&names, "%s%s", k ? " " : "", chosen[k]->name);
			CHECK_STR(names.buf, want[i].names);
			CHECK_INT(fallback, want[i].fallback);
			str_free(&names);
		}
	}
	queue_free(&q);
	workloads_free(&set);

	dir = test_tmpdir();
	path = test_write(dir, "x.ini", "[workload]\nbinary = x\n[metric t]\nbetter = sideways\n");
	CHECK(!workload_load_file(path, &tmp, &err));
	CHECK_HAS(err.msg, "better");
	unlink(path);
	free(path);
	path = test_write(dir, "y.ini", "[workload]\nbinary = y\n");
	CHECK(!workloads_load(dir, &set, &err));
	CHECK_HAS(err.msg, "at least one [metric]");
	unlink(path);
	free(path);
	every_key(dir);
	bad_keys(dir);
	rmdir(dir);
	free(dir);
}
