/* The boot schedule (measure.c) with fake guests: the first rounds, the
 * extra rounds while a metric is inconclusive, the budget, the journal's
 * boots replayed in the seed's order, SIGTERM's stop, and a kernel that
 * fails for good under tcg-icount. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

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
	int hold_ms;                /* each boot lasts this long (0: returns at once) */
	int fail_first[2];          /* the first this many boots of a side fail, as fail_as */
	enum boot_outcome fail_as;
	bool ran_selftests[64];     /* by call: the plan had kselftest-vm */
	bool said_skip[64];         /* by call: its command line said perfbot.skip=kselftest-vm */
	int active, max_active;     /* boots running at once, now and at most */
	pthread_mutex_t lock;       /* guests side by side call fake_boot on threads */
};

static bool fake_boot(void *ctx, enum side s, const struct guest_plan *gp, const char *prefix,
		      struct boot_record *br, pb_err *err)
{
	struct fake *fk = ctx;
	enum boot_outcome outcome = fk->outcome[s];
	bool selftests = false;
	double v;
	char *text;
	bool ok;

	for (int i = 0; gp && i < gp->nworkloads; i++)
		selftests |= !strcmp(gp->workloads[i]->binary, "kselftest-vm");
	pthread_mutex_lock(&fk->lock);
	if (fk->calls[s] < fk->fail_first[s])
		outcome = fk->fail_as;
	if (fk->calls_total < 64) {
		fk->ran_selftests[fk->calls_total] = selftests;
		fk->said_skip[fk->calls_total] = gp && strstr(gp->kernel_cmdline, " perfbot.skip=kselftest-vm");
	}
	v = 100 * (1 + (fk->noise ? gsl_ran_gaussian(fk->r, fk->noise) : 0));
	if (++fk->active > fk->max_active)
		fk->max_active = fk->active;
	pthread_mutex_unlock(&fk->lock);
	if (fk->hold_ms)
		nanosleep(&(struct timespec){ 0, fk->hold_ms * 1000000L }, NULL);
	text = xasprintf(W "1 migrate_ms %.6f\n" W "1 pages_migrated 32\n%s", v,
			 selftests ? "PB1 sample kselftest-vm 0 khugepaged_result 0\n" : "");

	memset(br, 0, sizeof(*br));
	br->outcome = outcome;
	br->detail = xstrdup(outcome == BOOT_OK ? "" : "Kernel panic - not syncing: fake");
	br->console_log = xasprintf("%s.console.log", prefix);
	br->results_log = xasprintf("%s.results.log", prefix);
	br->qemu_cmdline = xstrdup("qemu-system-x86_64 (fake)");
	br->wall_seconds = fk->wall;
	ok = outcome != BOOT_OK || results_parse(text, strlen(text), &br->results, err);
	free(text);
	pthread_mutex_lock(&fk->lock);
	fk->active--;
	if (fk->calls_total < 64)
		fk->order[fk->calls_total] = s;
	fk->calls[s]++;
	fk->calls_total++;
	if (fk->stop_after && fk->calls_total == fk->stop_after)
		*fk->stop = 1;
	pthread_mutex_unlock(&fk->lock);
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
	CHECK(accel_kind_parse(accel, &f->cmp.accel.kind));
	memset(fk, 0, sizeof(*fk));
	pthread_mutex_init(&fk->lock, NULL);
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
		CHECK(fake_boot(&fresh, order[b], NULL, prefix, &f.cmp.obs.boots[b].rec, &err));
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
	CHECK(fake_boot(&fresh, f.cmp.obs.boots[0].side, NULL, "/nonexistent/j", &f.cmp.obs.boots[0].rec, &err));
	f.cmp.obs.nboots = 1;
	CHECK(!measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_HAS(err.msg, "journaled boot 1");
	CHECK_INT(fk.calls_total, 0);
	teardown(&f, &fk);
}

/* Guests side by side: the same schedule as one at a time (the seed's
 * sides, boot by boot), as many at once as mp.parallel and the rounds
 * allow, each journaled in schedule order. */
static void test_parallel(void)
{
	struct pb_config cfg = { 0 };
	struct measure_plan mp;
	struct fixture f;
	struct fake fk;
	enum side serial[12];
	int nserial;
	pb_err err = { "" };

	/* one at a time, with extra rounds (20% noise against 0.5%) */
	setup(&f, &fk, &mp, "tcg-icount", 2, 6);
	f.cmp.policy.gate_pct = 0.5;
	f.cmp.policy.last_look = 6;
	fk.noise = 0.2;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.max_active, 1);
	nserial = f.cmp.obs.nboots;
	CHECK(nserial > 4 && nserial <= 12);
	for (int b = 0; b < nserial && b < 12; b++)
		serial[b] = f.cmp.obs.boots[b].side;
	teardown(&f, &fk);

	/* 4 at once: the first two rounds together, then the extra rounds'
	 * two boots together; the same sides in the same order */
	setup(&f, &fk, &mp, "tcg-icount", 2, 6);
	f.cmp.policy.gate_pct = 0.5;
	f.cmp.policy.last_look = 6;
	fk.noise = 0.2;
	fk.hold_ms = 30;
	mp.parallel = 4;
	mp.boot_done = fake_done;
	mp.ctx = &fk;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.max_active, 4);
	CHECK_INT(fk.done_calls, f.cmp.obs.nboots);
	CHECK(f.cmp.obs.nboots >= 4);
	for (int b = 0; b < f.cmp.obs.nboots && b < nserial; b++)
		CHECK_INT(f.cmp.obs.boots[b].side, serial[b]);
	for (int r = 0; 2 * r + 1 < f.cmp.obs.nboots; r++)
		CHECK(f.cmp.obs.boots[2 * r].side != f.cmp.obs.boots[2 * r + 1].side);
	CHECK_INT(f.cmp.obs.nboots, 2 * f.cmp.boots_per_kernel);
	teardown(&f, &fk);

	/* 3 at once: whole rounds only, so two at a time */
	setup(&f, &fk, &mp, "tcg-icount", 3, 3);
	fk.hold_ms = 30;
	mp.parallel = 3;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.max_active, 2);
	CHECK_INT(f.cmp.obs.nboots, 6);
	teardown(&f, &fk);

	/* SIGTERM during a batch: its boots end, no other starts */
	{
		volatile sig_atomic_t stop = 0;

		setup(&f, &fk, &mp, "tcg-icount", 2, 4);
		fk.hold_ms = 10;
		fk.stop = &stop;
		fk.stop_after = 1;
		mp.stop = &stop;
		mp.parallel = 2;
		CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
		CHECK(f.cmp.interrupted);
		CHECK_INT(f.cmp.obs.nboots, 2);
		teardown(&f, &fk);
	}
}

/* A workload without a time metric (kselftest-vm) runs in one ok boot a
 * side under tcg-icount: later boots leave it out, and tell the guest so;
 * a side whose boot that ran it failed runs it again. Not so under kvm and
 * plain tcg, in a calibration, or when a calibration found it flaky. */
static void test_once_per_side(void)
{
	struct pb_config cfg = { 0 };
	struct workload_set set;
	struct measure_plan mp;
	struct guest_plan gp = { 0 };
	const struct workload *w[2];
	struct noise_floor flaky = { "kselftest-vm", "khugepaged_result", 8, 10, 0, false, 4, NAN, "" };
	struct fixture f;
	struct fake fk;
	pb_err err = { "" };

	CHECK(workloads_load("workloads", &set, &err));
	w[1] = workload_find(&set, "kselftest-vm");
	CHECK(w[1] && workload_once_per_side(w[1]));
	if (!w[1]) {
		workloads_free(&set);
		return;
	}
	gp.nworkloads = 2;
	gp.workloads = w;
	gp.kernel_cmdline = "console=ttyS0";

	/* decided at the first look: boots 1 and 2 run it, 3 and 4 do not */
	setup(&f, &fk, &mp, "tcg-icount", 2, 4);
	w[0] = f.chosen[0];
	CHECK(!workload_once_per_side(w[0]));
	mp.guest = &gp;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(f.cmp.obs.nboots, 4);
	for (int b = 0; b < 4; b++) {
		CHECK_INT(fk.ran_selftests[b], b < 2);
		CHECK_INT(fk.said_skip[b], b >= 2);
	}
	teardown(&f, &fk);

	/* every boot runs it: in a calibration, under plain tcg, and where a
	 * calibration found it vary */
	for (int c = 0; c < 3; c++) {
		setup(&f, &fk, &mp, c == 1 ? "tcg" : "tcg-icount", 2, 4);
		w[0] = f.chosen[0];
		mp.guest = &gp;
		mp.aa = c == 0;
		if (c == 2)
			f.cmp.noise = (struct noise_set){ &flaky, 1 };
		CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
		CHECK_INT(f.cmp.obs.nboots, 4);
		for (int b = 0; b < f.cmp.obs.nboots; b++)
			CHECK(fk.ran_selftests[b] && !fk.said_skip[b]);
		f.cmp.noise = (struct noise_set){ NULL, 0 };
		teardown(&f, &fk);
	}

	/* the first boot with the fix fails (QEMU was killed): the second,
	 * which ran after it, runs it again; the second without does not */
	setup(&f, &fk, &mp, "tcg-icount", 2, 4);
	w[0] = f.chosen[0];
	mp.guest = &gp;
	fk.fail_first[SIDE_WITH] = 1;
	fk.fail_as = BOOT_QEMU_ERROR;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(f.cmp.obs.nboots, 4);
	for (int b = 2; b < 4; b++)
		CHECK_INT(fk.ran_selftests[b], f.cmp.obs.boots[b].side == SIDE_WITH);
	teardown(&f, &fk);
	workloads_free(&set);
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

/* Under tcg-icount a kernel that panicked panics again: booted once; one
 * that hung is booted twice; one that booted ok is not failed; in a
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

	/* a hang under tcg-icount is given a second boot: one that hangs
	 * every time is booted twice, one that hung once goes on */
	setup(&f, &fk, &mp, "tcg-icount", 3, 6);
	fk.outcome[SIDE_WITH] = BOOT_TIMEOUT;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls[SIDE_WITH], 2);
	teardown(&f, &fk);
	setup(&f, &fk, &mp, "tcg-icount", 3, 6);
	fk.fail_first[SIDE_WITH] = 1;
	fk.fail_as = BOOT_TIMEOUT;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls[SIDE_WITH], 3);
	CHECK_INT(measure_ok_boots(&f.cmp, SIDE_WITH), 2);
	teardown(&f, &fk);
	/* a calibration: both sides one kernel, which booted ok on the other
	 * side, so even a panic there is no kernel that fails for good */
	setup(&f, &fk, &mp, "tcg-icount", 3, 6);
	snprintf(f.cmp.image[SIDE_WITH].key, sizeof(f.cmp.image[SIDE_WITH].key), "%s",
		 f.cmp.image[SIDE_WITHOUT].key);
	fk.fail_first[SIDE_WITH] = 1;
	fk.fail_as = BOOT_PANIC;
	CHECK(measure_boots(&cfg, &f.cmp, &mp, &err));
	CHECK_INT(fk.calls[SIDE_WITH], 3);
	teardown(&f, &fk);
}

void test_measure(void)
{
	test_stop_rules();
	test_budget();
	test_journal_replay();
	test_stop();
	test_parallel();
	test_once_per_side();
	test_failed_for_good();
}
