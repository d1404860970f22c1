/* The boot schedule (measure.c) with fake guests: the first rounds, the
 * extra rounds while a metric is inconclusive, the budget, the journal's
 * boots replayed in the seed's order, SIGTERM's stop, and a kernel that
 * fails for good under tcg-icount. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fixture.h"
#include "measure.h"

#define W "PB1 sample hugetlb-migrate "

struct fake {
	int calls[2];               /* boots per side */
	int calls_total;
	enum side order[64];        /* the sides in the order they were booted */
	double wall;                /* each boot's wall_seconds */
	double noise;               /* relative sd of migrate_ms between boots; 0: identical */
	enum boot_outcome outcome[2];
	gsl_rng *r;
	int stop_after;             /* raise *stop after this many boots (0: never) */
	volatile sig_atomic_t *stop;
	int done_calls;             /* boot_done, the journal's hook */
};

static bool fake_boot(void *ctx, enum side s, const char *prefix, struct boot_record *br, pb_err *err)
{
	struct fake *fk = ctx;
	double v = 100 * (1 + (fk->noise ? gsl_ran_gaussian(fk->r, fk->noise) : 0));
	char *text = xasprintf(W "1 migrate_ms %.6f\n" W "1 pages_migrated 32\n", v);
	bool ok;

	memset(br, 0, sizeof(*br));
	br->outcome = fk->outcome[s];
	br->detail = xstrdup(fk->outcome[s] == BOOT_OK ? "" : "Kernel panic - not syncing: fake");
	br->console_log = xasprintf("%s.console.log", prefix);
	br->results_log = xasprintf("%s.results.log", prefix);
	br->qemu_cmdline = xstrdup("qemu-system-x86_64 (fake)");
	br->wall_seconds = fk->wall;
	ok = fk->outcome[s] != BOOT_OK || results_parse(text, strlen(text), &br->results, err);
	free(text);
	if (fk->calls_total < 64)
		fk->order[fk->calls_total] = s;
	fk->calls[s]++;
	fk->calls_total++;
	if (fk->stop_after && fk->calls_total == fk->stop_after)
		*fk->stop = 1;
	return ok;
}

static bool fake_done(void *ctx, const struct comparison *cmp, int b, pb_err *err)
{
	struct fake *fk = ctx;

	(void)err;
	CHECK(b == cmp->obs.nboots - 1);
	fk->done_calls++;
	return true;
}

/* A fixture comparison with no boots yet, and a plan that boots fakes. */
static void setup(struct fixture *f, struct fake *fk, struct measure_plan *mp, const char *accel,
		  int first, int max)
{
	CHECK(fixture_init(f, W "1 migrate_ms 100\n", W "1 migrate_ms 100\n"));
	for (int b = 0; b < f->cmp.obs.nboots; b++)
		boot_record_free(&f->cmp.obs.boots[b].rec);
	free(f->cmp.obs.boots);
	f->cmp.obs.boots = NULL;
	f->cmp.obs.nboots = 0;
	f->cmp.seed = 4242;
	snprintf(f->cmp.accel.name, sizeof(f->cmp.accel.name), "%s", accel);
	memset(fk, 0, sizeof(*fk));
	fk->r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(fk->r, 7);
	fk->wall = 1;
	*mp = (struct measure_plan){ .log_dir = "/nonexistent", .label = { "base", "base+patch" },
				     .first_rounds = first, .max_rounds = max,
				     .boot = fake_boot, .boot_ctx = fk };
}

static void teardown(struct fixture *f, struct fake *fk)
{
	gsl_rng_free(fk->r);
	fixture_free(f);
}

static int sides_booted(const struct comparison *cmp, enum side s)
{
	int n = 0;

	for (int b = 0; b < cmp->obs.nboots; b++)
		n += cmp->obs.boots[b].side == s;
	return n;
}

/* Decided after the first rounds: no extra boot; inconclusive: up to max. */
static void test_stop_rules(void)
{
	struct pb_config cfg = { 0 };
	struct measure_plan mp;
	struct fixture f;
	struct fake fk;
	pb_err err = { "" };

	setup(&f, &fk, &mp, "tcg-icount", 2, 6);
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(f.cmp.obs.nboots, 4);
	CHECK_INT(fk.calls[SIDE_WITHOUT], 2);
	CHECK_INT(fk.calls[SIDE_WITH], 2);
	CHECK_INT(f.cmp.boots_per_kernel, 2);
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "no change");
	/* every round boots each side once */
	for (int r = 0; r < 2; r++)
		CHECK(f.cmp.obs.boots[2 * r].side != f.cmp.obs.boots[2 * r + 1].side);
	teardown(&f, &fk);

	/* 20% noise between boots against a 0.5% gate: open at the first look,
	 * one more round while it is, and it stops at the look that decides
	 * it: "no change larger than" what 20% noise resolves */
	setup(&f, &fk, &mp, "tcg-icount", 2, 5);
	f.cmp.policy.gate_pct = 0.5;
	f.cmp.policy.last_look = 5; /* as verdict_policy_init makes it: run.max_boots */
	fk.noise = 0.2;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK(f.cmp.boots_per_kernel > 2 && f.cmp.boots_per_kernel <= 5);
	CHECK_INT(f.cmp.obs.nboots, 2 * f.cmp.boots_per_kernel);
	CHECK_INT(sides_booted(&f.cmp, SIDE_WITH), f.cmp.boots_per_kernel);
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "no change");
	CHECK_INT(compare_inconclusive(&f.cmp.findings), 0);
	CHECK(f.cmp.findings.results[0].threshold_pct > 10);
	CHECK_INT(f.cmp.findings.results[0].look, f.cmp.boots_per_kernel);
	teardown(&f, &fk);
}

/* The budget: a round is started only while the boots so far plus one more
 * round's worth (their mean) fit. */
static void test_budget(void)
{
	struct pb_config cfg = { 0 };
	struct measure_plan mp;
	struct fixture f;
	struct fake fk;
	pb_err err = { "" };

	setup(&f, &fk, &mp, "tcg", 2, 20);
	fk.noise = 0.2;
	fk.wall = 10;
	mp.budget_seconds = 60;
	/* 4 boots: 40 s, +20 fits 60; 6 boots: 60 s, +20 does not */
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(f.cmp.obs.nboots, 6);
	CHECK_INT(f.cmp.boots_per_kernel, 3);
	teardown(&f, &fk);
}

/* A resumed job: the journaled boots count as the first of the schedule,
 * in the seed's order, and are not booted again nor journaled again. */
static void test_journal_replay(void)
{
	struct pb_config cfg = { 0 };
	struct measure_plan mp;
	struct fixture f;
	struct fake fk, fresh;
	enum side order[4];
	pb_err err = { "" };

	/* the order seed 4242 gives, from an uninterrupted run */
	setup(&f, &fk, &mp, "tcg-icount", 2, 2);
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls_total, 4);
	memcpy(order, fk.order, sizeof(order));
	teardown(&f, &fk);

	/* three of them journaled: one boot left */
	setup(&f, &fk, &mp, "tcg-icount", 2, 2);
	memset(&fresh, 0, sizeof(fresh));
	fresh.r = fk.r;
	f.cmp.obs.boots = xcalloc(4, sizeof(*f.cmp.obs.boots));
	for (int b = 0; b < 3; b++) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "/nonexistent/j%d", b);
		f.cmp.obs.boots[b].side = order[b];
		CHECK(fake_boot(&fresh, order[b], prefix, &f.cmp.obs.boots[b].rec, &err));
		f.cmp.obs.nboots++;
	}
	mp.boot_done = fake_done;
	mp.ctx = &fk;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls_total, 1);
	CHECK_INT(fk.order[0], order[3]);
	CHECK_INT(fk.done_calls, 1);
	CHECK_INT(f.cmp.obs.nboots, 4);
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "no change");
	teardown(&f, &fk);

	/* a journal whose first boot is on the other side than the seed says */
	setup(&f, &fk, &mp, "tcg-icount", 2, 2);
	memset(&fresh, 0, sizeof(fresh));
	fresh.r = fk.r;
	f.cmp.obs.boots = xcalloc(1, sizeof(*f.cmp.obs.boots));
	f.cmp.obs.boots[0].side = (enum side)!order[0];
	CHECK(fake_boot(&fresh, f.cmp.obs.boots[0].side, "/nonexistent/j", &f.cmp.obs.boots[0].rec, &err));
	f.cmp.obs.nboots = 1;
	CHECK(!measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_HAS(err.msg, "journaled boot 1");
	CHECK_INT(fk.calls_total, 0);
	teardown(&f, &fk);
}

/* SIGTERM: the boot in progress ends, no other starts, nothing decided. */
static void test_stop(void)
{
	struct pb_config cfg = { 0 };
	volatile sig_atomic_t stop = 0;
	struct measure_plan mp;
	struct fixture f;
	struct fake fk;
	pb_err err = { "" };

	setup(&f, &fk, &mp, "tcg-icount", 2, 4);
	fk.stop = &stop;
	fk.stop_after = 3;
	mp.stop = &stop;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK(f.cmp.interrupted);
	CHECK_INT(f.cmp.obs.nboots, 3);
	CHECK_INT(fk.calls_total, 3);
	teardown(&f, &fk);
}

/* Under tcg-icount a kernel that panicked panics again: booted once; in a
 * wall-clock mode it keeps its rounds. */
static void test_failed_for_good(void)
{
	struct pb_config cfg = { 0 };
	struct measure_plan mp;
	struct fixture f;
	struct fake fk;
	pb_err err = { "" };

	setup(&f, &fk, &mp, "tcg-icount", 3, 6);
	fk.outcome[SIDE_WITH] = BOOT_PANIC;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls[SIDE_WITH], 1);
	CHECK_INT(f.cmp.obs.nboots, 2);
	CHECK_INT(measure_ok_boots(&f.cmp, SIDE_WITH), 0);
	CHECK_INT(measure_ok_boots(&f.cmp, SIDE_WITHOUT), 1);
	teardown(&f, &fk);

	setup(&f, &fk, &mp, "tcg", 3, 6);
	fk.outcome[SIDE_WITH] = BOOT_PANIC;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls[SIDE_WITH], 3);
	/* no ok boot on one side: no extra rounds either */
	CHECK_INT(f.cmp.obs.nboots, 6);
	teardown(&f, &fk);
}

void test_measure(void)
{
	test_stop_rules();
	test_budget();
	test_journal_replay();
	test_stop();
	test_failed_for_good();
}
