#include <stdlib.h>

#include "check.h"
#include "db.h"
#include "fixture.h"

static void set_change(struct kernel_change *c, const char *label, const char *file)
{
	c->label = xstrdup(label);
	c->file = file ? xstrdup(file) : NULL;
	snprintf(c->sha256, sizeof(c->sha256), "%s", file ? "ab12" : "");
	if (file) {
		c->steps = xcalloc(1, sizeof(*c->steps));
		c->steps[0].file = xstrdup(file);
		snprintf(c->steps[0].sha256, sizeof(c->steps[0].sha256), "ab12");
		c->nsteps = 1;
	}
}

bool fixture_init(struct fixture *f, const char *without, const char *with)
{
	pb_err err = { "" };

	memset(f, 0, sizeof(*f));
	if (!queue_load("queue/stable-5.13", NULL, &f->queue, &err) ||
	    !workloads_load("tests/data/workloads", &f->workloads, &err)) {
		fprintf(stderr, "fixture: %s\n", err.msg);
		return false;
	}
	f->chosen[0] = workload_find(&f->workloads, "hugetlb-migrate");
	f->tree.tarball_sha = xstrdup("cafe");
	f->tree.version = xstrdup("6.1.192");
	f->plan.method = PAIR_PORT;
	f->plan.detail = xstrdup("a test <pair> & \"detail\"");
	set_change(&f->plan.without, "base+port", "/nonexistent/port.patch");
	set_change(&f->plan.with, "base", NULL);
	snprintf(f->config.sha256, sizeof(f->config.sha256), "c0nf");
	f->cmp.patch = queue_find(&f->queue, 771);
	f->cmp.queue_dir = f->queue.dir;
	f->cmp.tree = &f->tree;
	f->cmp.plan = &f->plan;
	f->cmp.config = &f->config;
	for (int s = 0; s < 2; s++) {
		snprintf(f->cmp.image[s].key, sizeof(f->cmp.image[s].key), "key%d", s);
		f->cmp.image[s].built = true;
		f->cmp.image[s].log = xstrdup("/nonexistent/build.log");
	}
	f->cmp.accel.kind = ACCEL_TCG_ICOUNT;
	snprintf(f->cmp.accel.reason, sizeof(f->cmp.accel.reason), "test");
	f->cmp.booted = true;
	f->cmp.obs.workloads = f->chosen;
	f->cmp.obs.nworkloads = 1;
	f->cmp.workload_choice = xstrdup("test");
	f->cmp.kind = KIND_PATCH;
	f->cmp.seed = 1;
	/* run's defaults: looks from 2 to 10 boots a side */
	verdict_policy_set(&f->cmp.policy, 0.5, 0.01, 0.05, 2, 10);
	f->cmp.boots_per_kernel = 2;
	f->cmp.obs.iterations = 2;
	f->cmp.status = STATUS_MEASURED;
	f->cmp.started_at = xstrdup("2026-12-03T00:00:00Z");
	f->cmp.finished_at = xstrdup("2026-12-03T00:01:00Z");
	{
		const char *texts[4] = { without, with, without, with };
		const enum side sides[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };

		return fixture_set_boots(f, 4, texts, sides);
	}
}

bool fixture_set_boots(struct fixture *f, int n, const char *const *texts, const enum side *sides)
{
	pb_err err = { "" };

	for (int b = 0; b < f->cmp.obs.nboots; b++)
		boot_record_free(&f->cmp.obs.boots[b].rec);
	free(f->cmp.obs.boots);
	f->cmp.obs.nboots = 0;
	f->cmp.obs.boots = xcalloc((size_t)n, sizeof(struct boot));
	for (int b = 0; b < n; b++) {
		struct boot *bt = &f->cmp.obs.boots[b];

		bt->side = sides[b];
		bt->rec.outcome = BOOT_OK;
		bt->rec.detail = xstrdup("");
		bt->rec.console_log = xasprintf("/nonexistent/boot%d.console.log", b);
		bt->rec.results_log = xasprintf("/nonexistent/boot%d.results.log", b);
		bt->rec.qemu_cmdline = xstrdup("qemu-system-x86_64 ...");
		f->cmp.obs.nboots++;
		if (!results_parse(texts[b], strlen(texts[b]), &bt->rec.results, &err)) {
			fprintf(stderr, "fixture: %s\n", err.msg);
			return false;
		}
	}
	comparison_compute(&f->cmp);
	return true;
}

void fixture_free(struct fixture *f)
{
	comparison_free(&f->cmp);
	pair_plan_free(&f->plan);
	free(f->tree.tarball_sha);
	free(f->tree.version);
	workloads_free(&f->workloads);
	queue_free(&f->queue);
}

long long fixture_rows(struct sqlite3 *db, const char *table)
{
	char *sql = xasprintf("SELECT count(*) FROM %s", table);
	long long n = db_count(db, sql, 0);

	free(sql);
	return n;
}
