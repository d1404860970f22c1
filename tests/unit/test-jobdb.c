/* perfbotd's queue and boot journal: claims in order, orphans re-queued
 * (and given up after too many attempts), journaled boots read back as they
 * were, a journal of other inputs discarded, the job done in the
 * comparison's own transaction, the daemon's lock. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "db.h"
#include "fixture.h"
#include "jobdb.h"

#define W "PB1 sample hugetlb-migrate "

static const char *state_of(sqlite3 *db, long long id, char *buf, size_t n)
{
	struct job *j = NULL;
	int nj = 0;
	pb_err err;

	snprintf(buf, n, "?");
	if (jobdb_list(db, &j, &nj, &err))
		for (int i = 0; i < nj; i++)
			if (j[i].id == id)
				snprintf(buf, n, "%s", job_state_name(j[i].state));
	jobs_free(j, nj);
	return buf;
}

static void test_journal(sqlite3 *db, struct fixture *f)
{
	struct comparison back = { 0 }, other = { 0 };
	pb_err err = { "" };

	f->cmp.seed = 7;
	CHECK(jobdb_journal_open(db, 1, "kernels a b", &f->cmp, &err));
	CHECK_INT(f->cmp.obs.nboots, 4); /* a new journal adds nothing to the comparison */
	CHECK(jobdb_journal_boot(db, 1, &f->cmp, 0, &err));
	CHECK(jobdb_journal_boot(db, 1, &f->cmp, 1, &err));
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 2);
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_samples WHERE job_id=?", 1),
		  f->cmp.obs.boots[0].rec.results.nsamples + f->cmp.obs.boots[1].rec.results.nsamples);
	/* the same boot twice: refused, nothing counted twice */
	CHECK(!jobdb_journal_boot(db, 1, &f->cmp, 1, &err));
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 2);

	/* read back by the next attempt: the boots as they were, and their seed */
	back.seed = 99;
	CHECK(jobdb_journal_open(db, 1, "kernels a b", &back, &err));
	CHECK_INT(back.obs.nboots, 2);
	CHECK_INT((long long)back.seed, 7);
	for (int b = 0; b < back.obs.nboots && b < 2; b++) {
		const struct boot *a = &f->cmp.obs.boots[b], *r = &back.obs.boots[b];

		CHECK_INT(r->side, a->side);
		CHECK_INT(r->rec.outcome, a->rec.outcome);
		CHECK_STR(r->rec.console_log, a->rec.console_log);
		CHECK_STR(r->rec.qemu_cmdline, a->rec.qemu_cmdline);
		CHECK_INT(r->rec.results.nsamples, a->rec.results.nsamples);
		for (int i = 0; i < r->rec.results.nsamples && i < a->rec.results.nsamples; i++) {
			CHECK_STR(r->rec.results.samples[i].metric, a->rec.results.samples[i].metric);
			CHECK(r->rec.results.samples[i].value == a->rec.results.samples[i].value);
		}
	}
	comparison_free(&back);

	/* other kernels or settings: the old boots are not this comparison's */
	other.seed = 11;
	CHECK(jobdb_journal_open(db, 1, "kernels a c", &other, &err));
	CHECK_INT(other.obs.nboots, 0);
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 0);
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_samples WHERE job_id=?", 1), 0);
	CHECK_INT(db_count(db, "SELECT journal_seed FROM jobs WHERE id=?", 1), 11);
	comparison_free(&other);
	CHECK(jobdb_journal_boot(db, 1, &f->cmp, 0, &err));
}

static void test_daemon_lock(const char *path)
{
	int go[2], ready[2];
	pid_t child;
	pb_err err = { "" };
	char c = 0;

	CHECK_INT(jobdb_daemon_pid(path), 0);
	if (pipe(go) || pipe(ready))
		return;
	child = fork();
	if (child == 0) {
		pb_err e;
		bool ok = jobdb_daemon_lock(path, &e);

		if (write(ready[1], ok ? "y" : "n", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(2);
		_exit(ok ? 0 : 1);
	}
	CHECK(read(ready[0], &c, 1) == 1 && c == 'y');
	CHECK_INT(jobdb_daemon_pid(path), child);
	CHECK(!jobdb_daemon_lock(path, &err));
	CHECK_HAS(err.msg, "another perfbotd (pid");
	if (write(go[1], "x", 1) != 1)
		CHECK(false);
	waitpid(child, NULL, 0);
	CHECK_INT(jobdb_daemon_pid(path), 0); /* the kernel dropped the dead daemon's lock */
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

/* -w X -w X is one X, for run and submit alike (their shared parser); the
 * limit counts the options given. */
static void test_workload_args(void)
{
	char *argv[] = { "submit", "--patch", "771", "-w", "thp-anon", "-w", "zswap", "-w", "thp-anon",
			 NULL };
	struct cli c = { 0 };
	struct patch_args a;

	optind = 0;
	CHECK_INT(cli_patch_args(9, argv, &c, &a, NULL, false), -1);
	CHECK_INT(a.nonly, 2);
	if (a.nonly == 2) {
		CHECK_STR(a.only[0], "thp-anon");
		CHECK_STR(a.only[1], "zswap");
	}
	cli_free(&c);
	optind = 0;
}

/* One name per state, each read back as itself; junk is no state. */
static void test_job_states(void)
{
	static const char *const names[] = { "queued", "running", "done", "failed" };
	enum job_state s;

	CHECK_INT(JOB_STATE_COUNT, 5);
	for (int i = 0; i < (int)PB_ARRAY_SIZE(names); i++) {
		CHECK_STR(job_state_name((enum job_state)i), names[i]);
		CHECK(job_state_parse(names[i], &s) && s == (enum job_state)i);
	}
	CHECK(!job_state_parse("Done", &s));
	CHECK(!job_state_parse(NULL, &s));
	CHECK(!job_state_parse("unknown", &s));
	CHECK_STR(job_state_name(JOB_STATE_COUNT), "unknown");
}

void test_jobdb(void)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/r.db", dir), st[16];
	struct fixture f;
	struct job j = { 0 }, *all = NULL;
	sqlite3 *db;
	long long id = 0, cid = 0;
	bool found;
	int n = 0;
	pb_err err = { "" };

	CHECK(db_open(path, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n"));
	CHECK(jobdb_submit(db, "/q", 771, "hugetlb-migrate", false,
			   "run.iterations=3\nqemu.accel=tcg\nworkload.hugetlb-migrate.pages=64", &id,
			   &err));
	CHECK_INT(id, 1);
	CHECK(jobdb_submit(db, "/q", 765, "", true, NULL, &id, &err));
	CHECK_INT(id, 2);
	CHECK(jobdb_list(db, &all, &n, &err));
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK(all[0].state == JOB_QUEUED);
		CHECK_STR(all[1].overrides, "");
		CHECK_INT(all[1].patch, 765);
		CHECK(all[1].force);
		CHECK_INT(all[1].exit_status, -1);
	}
	jobs_free(all, n);

	/* the oldest first, once */
	CHECK(jobdb_claim(db, 4242, "/logs", &j, &found, &err));
	CHECK(found);
	CHECK_INT(j.id, 1);
	CHECK_INT(j.attempts, 1);
	CHECK_INT(j.pid, 4242);
	CHECK_STR(j.log, "/logs/job-1.log");
	CHECK_STR(j.workloads, "hugetlb-migrate");
	/* what perfbotd's child applies over its configuration: submit's -c run.iterations=3 */
	{
		struct pb_config cfg;
		int boots;

		CHECK(config_load(&cfg, "config.ini", &err));
		boots = cfg.boots;
		CHECK(cfg.iterations != 3);
		CHECK(jobdb_job_config(&cfg, &j, &err));
		CHECK_INT(cfg.iterations, 3);
		CHECK_INT(cfg.accel, ACCEL_TCG);
		CHECK_INT(cfg.boots, boots); /* what it was not given stays perfbotd's */
		CHECK(cfg.nparams > 0 && !strcmp(cfg.params[cfg.nparams - 1].key, "pages") &&
		      !strcmp(cfg.params[cfg.nparams - 1].value, "64"));
		config_free(&cfg);
		/* a setting this perfbot no longer takes fails the job, in a line naming it */
		free(j.overrides);
		j.overrides = xstrdup("run.iterations=3\nrun.nosuch=1");
		CHECK(config_load(&cfg, "config.ini", &err));
		CHECK(!jobdb_job_config(&cfg, &j, &err));
		CHECK_HAS(err.msg, "job 1's settings from perfbot submit: unknown configuration key run.nosuch");
		config_free(&cfg);
	}
	job_free(&j);

	test_journal(db, &f);

	/* perfbotd died: job 1 goes back to the queue, its journal kept */
	CHECK(jobdb_requeue_orphans(db, 3, &n, &err));
	CHECK_INT(n, 1);
	CHECK_STR(state_of(db, 1, st, sizeof(st)), "queued");
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 1);
	CHECK(jobdb_claim(db, 4243, "/logs", &j, &found, &err));
	CHECK_INT(j.id, 1);
	CHECK_INT(j.attempts, 2);
	CHECK_INT(j.journaled_boots, 1);
	job_free(&j);

	/* a store that fails leaves the job running and its journal whole */
	f.cmp.job_id = 1;
	char *choice = f.cmp.workload_choice;
	f.cmp.workload_choice = NULL; /* comparisons.workload_choice is NOT NULL */
	CHECK(!db_store_comparison(db, &f.cmp, "test", jobdb_complete, &cid, &err));
	CHECK_STR(state_of(db, 1, st, sizeof(st)), "running");
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 1);
	f.cmp.workload_choice = choice;
	/* a job's comparison with nothing to mark the job done: refused, nothing stored */
	CHECK(!db_store_comparison(db, &f.cmp, "test", NULL, &cid, &err));
	CHECK_HAS(err.msg, "no job queue to mark job 1 done");
	CHECK_INT(db_count(db, "SELECT count(*) FROM comparisons WHERE id>?", 0), 0);
	CHECK_STR(state_of(db, 1, st, sizeof(st)), "running");
	/* the store that succeeds: job done with its comparison, journal gone, one transaction */
	CHECK(db_store_comparison(db, &f.cmp, "test", jobdb_complete, &cid, &err));
	CHECK_STR(state_of(db, 1, st, sizeof(st)), "done");
	CHECK_INT(db_count(db, "SELECT comparison_id FROM jobs WHERE id=?", 1), cid);
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_boots WHERE job_id=?", 1), 0);
	CHECK_INT(db_count(db, "SELECT count(*) FROM job_samples WHERE job_id=?", 1), 0);
	CHECK(jobdb_finish(db, 1, JOB_DONE, 0, "measured", &err));
	CHECK_INT(db_count(db, "SELECT exit_status FROM jobs WHERE id=? AND finished_at IS NOT NULL", 1), 0);
	{
		struct db_cursor c;
		struct job_result_row r;

		CHECK(jobdb_result(&c, db, 1, &err));
		CHECK(db_cursor_step(&c, &r));
		CHECK(r.comparison == cid && r.boots_per_kernel == 2);
		CHECK_STR(r.status, "measured");
		CHECK(db_cursor_close(&c, &err));
		CHECK(jobdb_result(&c, db, 2, &err)); /* not done: no row */
		CHECK(!db_cursor_step(&c, &r));
		CHECK(db_cursor_close(&c, &err));
	}
	/* queued again: no longer finished */
	CHECK(jobdb_finish(db, 1, JOB_QUEUED, -1, "again", &err));
	CHECK_INT(db_count(db, "SELECT count(*) FROM jobs WHERE id=? AND finished_at IS NULL AND "
			       "exit_status IS NULL AND state='queued'", 1), 1);
	CHECK(jobdb_finish(db, 1, JOB_DONE, 0, "measured", &err));

	/* job 2: its perfbotd keeps dying; the third time it is given up */
	for (int attempt = 1; attempt <= 3; attempt++) {
		CHECK(jobdb_claim(db, 1, "/logs", &j, &found, &err));
		CHECK(found && j.id == 2);
		job_free(&j);
		CHECK(jobdb_requeue_orphans(db, 3, &n, &err));
	}
	CHECK_STR(state_of(db, 2, st, sizeof(st)), "failed");
	CHECK(jobdb_claim(db, 1, "/logs", &j, &found, &err));
	CHECK(!found);

	db_close(db);
	fixture_free(&f);
	test_daemon_lock(path);
	test_workload_args();
	test_job_states();
	free(path);
	free(dir);
}
