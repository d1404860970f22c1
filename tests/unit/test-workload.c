/* The workload table: declarations, metric directions, patch -> workload. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "queue.h"
#include "workload.h"

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

	CHECK(queue_load("queue/stable-5.13", &q, &err));
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
	rmdir(dir);
	free(dir);
}
