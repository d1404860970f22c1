/* Verdicts from synthetic boots: the shapes perfbot meets (a behaviour
 * change, a clean slowdown, a null), the regimes (few deterministic boots,
 * many noisy ones), and detection and false-alarm rates over many synthetic
 * comparisons with a fixed seed. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fixture.h"
#include "stats.h"

static const struct metric_result *result(const struct comparison *c, const char *metric)
{
	for (int i = 0; i < c->findings.nresults; i++)
		if (!strcmp(c->findings.results[i].def->name, metric))
			return &c->findings.results[i];
	return NULL;
}

static const char *verdict(const struct comparison *c, const char *metric)
{
	const struct metric_result *m = result(c, metric);

	return m ? verdict_name(m->verdict) : NULL;
}

#define W "PB1 sample hugetlb-migrate "

static void test_shapes(void)
{
	struct fixture f;
	const struct metric_result *m;

	/* The 771 shape: nothing migrates without the fix, everything with it. */
	CHECK(fixture_init(&f,
			   W "1 migrate_ms 0.05\n" W "1 pages_migrated 0\n" W "1 pgmigrate_fail 8192\n"
			   W "2 migrate_ms 0.05\n" W "2 pages_migrated 0\n" W "2 pgmigrate_fail 8192\n",
			   W "1 migrate_ms 9.0\n" W "1 migrate_ms_per_mib 0.14\n" W "1 pages_migrated 32\n"
			   W "1 pgmigrate_fail 0\n" W "2 migrate_ms 9.2\n" W "2 migrate_ms_per_mib 0.15\n"
			   W "2 pages_migrated 32\n" W "2 pgmigrate_fail 0\n"));
	m = result(&f.cmp, "pages_migrated");
	CHECK(m && m->n[0] == 4 && m->n[1] == 4 && m->boots[0] == 2);
	CHECK(m && m->median[0] == 0 && m->median[1] == 32 && m->deterministic);
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "behaviour change");
	CHECK_STR(m ? m->regime : NULL, "exact values");
	CHECK_STR(verdict(&f.cmp, "migrate_ms_per_mib"), "behaviour change"); /* one side only */
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "not comparable"); /* different work */
	CHECK_STR(verdict(&f.cmp, "pgmigrate_success"), "no data");
	/* the worst timing verdict is of the times compared, not of a time
	 * one kernel never reported (that one is a behaviour change) */
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "not comparable");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "behaviour change");
	fixture_free(&f);

	/* 10% slower, every boot alike, two boots a side: no noise at all, so
	 * the difference is exact (under icount boots repeat themselves); the
	 * rank tests, shown only, cannot go below p = 1/3 there. */
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n" W "1 pages_migrated 32\n" W "2 migrate_ms 10\n" W "2 pages_migrated 32\n",
			   W "1 migrate_ms 11\n" W "1 pages_migrated 32\n" W "2 migrate_ms 11\n" W "2 pages_migrated 32\n"));
	m = result(&f.cmp, "migrate_ms");
	CHECK(m && fabs(m->change_pct - 10) < 1e-9);
	CHECK(m && fabs(m->p_mw - 1.0 / 3) < 1e-12 && m->p == 0 && m->p_adj == 0);
	CHECK(m && fabs(m->ci_lo_pct - 10) < 1e-9 && fabs(m->ci_hi_pct - 10) < 1e-9);
	CHECK(m && fabs(m->hl_shift - 1) < 1e-12);
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "regression");
	CHECK_STR(m ? m->regime : NULL, "exact values");
	CHECK_INT(m ? m->look : -1, 2);
	CHECK_INT(compare_inconclusive(&f.cmp.findings), 0);
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "same");
	{
		/* with a calibration that measured 0.01% between boots: the t test */
		struct noise_floor nf = { "hugetlb-migrate", "migrate_ms", 8, 0.01, 0.01, false, 0, NAN, "" };

		f.cmp.noise.floor = &nf;
		f.cmp.noise.n = 1;
		comparison_compute(&f.cmp);
		CHECK_STR(verdict(&f.cmp, "migrate_ms"), "regression");
		CHECK_STR(result(&f.cmp, "migrate_ms")->regime, "t test");
		CHECK_INT(result(&f.cmp, "migrate_ms")->noise_from, NOISE_CALIBRATION);
		CHECK(result(&f.cmp, "migrate_ms")->p < 1e-6);
		CHECK_STR(verdict_name(f.cmp.findings.verdict), "regression");
		{
			const char *t1[2] = { W "1 migrate_ms 10\n", W "1 migrate_ms 11\n" };
			const enum side s1[2] = { SIDE_WITHOUT, SIDE_WITH };

			/* one boot a side where run.boots is 2 (a boot failed): no
			 * look before the policy's first, another round */
			CHECK(fixture_set_boots(&f, 2, t1, s1));
			CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive");
			CHECK_INT(result(&f.cmp, "migrate_ms")->look, 0);
			/* run.boots = 1: the calibration's degrees of freedom test it */
			f.cmp.policy.first_look = 1;
			comparison_compute(&f.cmp);
			CHECK_STR(verdict(&f.cmp, "migrate_ms"), "regression");
			CHECK_INT(result(&f.cmp, "migrate_ms")->look, 1);
			/* and without one there is nothing to test on */
			f.cmp.noise.n = 0;
			comparison_compute(&f.cmp);
			CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive");
			CHECK_STR(result(&f.cmp, "migrate_ms")->regime, "too few boots or too noisy");
			f.cmp.noise.n = 1;
			f.cmp.policy.first_look = 2;
		}
		/* a calibration that found 3% noise: 10% over 2 boots a side is
		 * not enough at the first look's level (p about 0.011 > 0.003);
		 * the boots' own agreement (no noise) does not lower the
		 * calibration's 3% (it would give p about 0.006) */
		{
			const char *t2[4] = { W "1 migrate_ms 10\n", W "1 migrate_ms 11\n",
					      W "1 migrate_ms 10\n", W "1 migrate_ms 11\n" };
			const enum side s2[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };

			nf.between_cv_pct = 3;
			CHECK(fixture_set_boots(&f, 4, t2, s2));
			CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive");
			m = result(&f.cmp, "migrate_ms");
			CHECK(m && m->p > 0.01 && m->p < 0.012);
			/* 3% noise cannot resolve the 0.5% gate in 10 boots: about
			 * (t + z) 3% sqrt(2/10), 8.3% */
			CHECK(m && m->threshold_pct > 7.5 && m->threshold_pct < 9);
		}
		f.cmp.noise.floor = NULL;
		f.cmp.noise.n = 0;
	}
	fixture_free(&f);

	/* Under the gate (0.5% here), boots that agree: no change; 10% faster
	 * over three boots a side that agree: an improvement. */
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n", W "1 migrate_ms 10.02\n"));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	CHECK_STR(result(&f.cmp, "migrate_ms")->regime, "inside the gate");
	CHECK(fabs(result(&f.cmp, "migrate_ms")->threshold_pct - 0.5) < 1e-12);
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "no change");
	{
		const char *t[6] = { W "1 migrate_ms 10\n", W "1 migrate_ms 9\n", W "1 migrate_ms 10.001\n",
				     W "1 migrate_ms 9.001\n", W "1 migrate_ms 9.999\n", W "1 migrate_ms 8.999\n" };
		const enum side s[6] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };

		CHECK(fixture_set_boots(&f, 6, t, s));
		CHECK_STR(verdict(&f.cmp, "migrate_ms"), "improvement");
		CHECK_INT(result(&f.cmp, "migrate_ms")->noise_from, NOISE_THIS_RUN);
		/* decided at the first look, 2 boots a side: a third does not undo it */
		CHECK_INT(result(&f.cmp, "migrate_ms")->look, 2);
		/* a boot that was not ok does not count */
		f.cmp.obs.boots[1].rec.outcome = BOOT_PANIC;
		comparison_compute(&f.cmp);
		CHECK_INT(result(&f.cmp, "migrate_ms")->n[1], 2);
		CHECK_STR(verdict(&f.cmp, "migrate_ms"), "improvement");
	}
	fixture_free(&f);

	/* Identical samples everywhere: no change, nothing to test. */
	CHECK(fixture_init(&f, W "1 migrate_ms 5\n" W "1 pages_migrated 16\n",
			   W "1 migrate_ms 5\n" W "1 pages_migrated 16\n"));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	CHECK_STR(result(&f.cmp, "migrate_ms")->regime, "identical values");
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "same");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
	fixture_free(&f);
	/* A constant 0 (a perf counter that never fired) is no change either. */
	CHECK(fixture_init(&f, W "1 migrate_ms 0\n", W "1 migrate_ms 0\n"));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	fixture_free(&f);
}

/* A diagnostic is shown with its change, never decides, and is no part of
 * the Holm family. */
static void test_diagnostic(void)
{
	struct fixture f;
	const struct metric_result *m;

	CHECK(fixture_init(&f, W "1 migrate_ms 10\n" W "1 context_switches 195\n",
			   W "1 migrate_ms 10\n" W "1 context_switches 390\n"));
	m = result(&f.cmp, "context_switches");
	CHECK_STR(verdict(&f.cmp, "context_switches"), "diagnostic");
	CHECK_STR(m ? m->regime : NULL, "shown, never decides");
	CHECK(m && fabs(m->change_pct - 100) < 1e-9 && isnan(m->p_adj));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	CHECK_STR(verdict_name(f.cmp.findings.verdict), "no change");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
	CHECK(!verdict_is_notable(VERDICT_DIAGNOSTIC));
	CHECK(compare_inconclusive(&f.cmp.findings) == 0);
	fixture_free(&f);
}

/* A workload that ran in no ok boot of one side (a boot left it out, or
 * those that ran it failed) has no data there: not a behaviour change. One
 * that ran but did not report a metric did change. */
static void test_not_run(void)
{
	struct fixture f;

	CHECK(fixture_init(&f, W "1 migrate_ms 10\n" W "1 pages_migrated 32\n",
			   "PB1 sample kselftest-vm 0 khugepaged_result 0\n"));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no data");
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "no data");
	CHECK_STR(result(&f.cmp, "pages_migrated")->regime, "not run on one side");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
	fixture_free(&f);
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n" W "1 pages_migrated 32\n",
			   W "1 migrate_ms 10\n"));
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "behaviour change");
	fixture_free(&f);
}

/* Identical is never a change: a behaviour metric whose values are the
 * same in every ok boot of both sides is "same" however many ok boots
 * each side has, one included; a failed boot's samples count for nothing
 * (issue 20: a timed-out boot on one side turned 40 identical metrics
 * into behaviour changes). Boots: without, with, without, with. */
static void test_identical_uneven(void)
{
	static const char ok_text[] = W "1 migrate_ms 10\n" W "1 pages_migrated 32\n" W "1 pgmigrate_fail 0\n";
	const char *t[4] = { ok_text, ok_text, ok_text, ok_text };
	const enum side s[4] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITHOUT, SIDE_WITH };
	const char *t3[3] = { ok_text, ok_text, ok_text };
	const enum side s3[3] = { SIDE_WITHOUT, SIDE_WITH, SIDE_WITH };
	struct fixture f;
	const struct metric_result *m;

	/* 1 ok boot without, 2 with, identical values: under kvm/plain tcg
	 * (no boot repeats itself) and under tcg-icount alike */
	for (int repeats = 0; repeats < 2; repeats++) {
		CHECK(fixture_init(&f, "", ""));
		f.cmp.policy.boot_repeats = repeats;
		CHECK(fixture_set_boots(&f, 3, t3, s3));
		m = result(&f.cmp, "pages_migrated");
		CHECK(m && m->boots[0] == 1 && m->boots[1] == 2 && m->n[0] == 1 && m->n[1] == 2);
		CHECK_STR(verdict(&f.cmp, "pages_migrated"), "same");
		CHECK_STR(verdict(&f.cmp, "pgmigrate_fail"), "same");
		CHECK_STR(m ? m->regime : NULL, "identical values");
		CHECK(m && !m->values_differ);
		CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
		fixture_free(&f);
	}

	/* a side whose only other boot failed (timed out after half its
	 * samples, which differ): its samples are not counted */
	CHECK(fixture_init(&f, "", ""));
	f.cmp.policy.boot_repeats = false;
	t[2] = W "1 migrate_ms 10\n" W "1 pages_migrated 0\n";
	CHECK(fixture_set_boots(&f, 4, t, s));
	f.cmp.obs.boots[2].rec.outcome = BOOT_TIMEOUT;
	comparison_compute(&f.cmp);
	m = result(&f.cmp, "pages_migrated");
	CHECK(m && m->boots[0] == 1 && m->boots[1] == 2);
	CHECK_STR(verdict(&f.cmp, "pages_migrated"), "same");
	CHECK_STR(verdict(&f.cmp, "pgmigrate_fail"), "same");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
	fixture_free(&f);

	/* values that differ, one ok boot on a side: under tcg-icount a boot
	 * repeats itself, so one shows the kernel's behaviour; elsewhere it
	 * does not decide (more boots), even with the other side's two */
	for (int repeats = 0; repeats < 2; repeats++) {
		const char *td[3] = { W "1 migrate_ms 10\n" W "1 pages_migrated 0\n", ok_text, ok_text };

		CHECK(fixture_init(&f, "", ""));
		f.cmp.policy.boot_repeats = repeats;
		CHECK(fixture_set_boots(&f, 3, td, s3));
		m = result(&f.cmp, "pages_migrated");
		CHECK(m && m->values_differ);
		CHECK_STR(verdict(&f.cmp, "pages_migrated"), repeats ? "behaviour change" : "inconclusive");
		CHECK(m && m->deterministic == (bool)repeats);
		fixture_free(&f);
	}
	/* two ok boots a side that agree within each side and differ between
	 * them: a behaviour change in any mode */
	{
		const char *td[4] = { W "1 migrate_ms 10\n" W "1 pages_migrated 0\n", ok_text,
				      W "1 migrate_ms 10\n" W "1 pages_migrated 0\n", ok_text };

		CHECK(fixture_init(&f, "", ""));
		f.cmp.policy.boot_repeats = false;
		CHECK(fixture_set_boots(&f, 4, td, s));
		CHECK_STR(verdict(&f.cmp, "pages_migrated"), "behaviour change");
		fixture_free(&f);
	}
}

/* The first look that decides sticks; a metric that is open at 2 boots and
 * decided later says at which look. */
static void test_looks(void)
{
	struct fixture f;
	const char *t[12];
	enum side s[12];
	/* two boots a side that overlap, then four that settle it: +19% */
	const double w0[6] = { 10, 11, 10.2, 10.1, 10.2, 10.1 };
	const double w1[6] = { 11, 12, 12.2, 12.1, 12.2, 12.1 };
	char buf[12][96];

	for (int b = 0; b < 12; b++) {
		snprintf(buf[b], sizeof(buf[b]), W "1 migrate_ms %.3f\n", b % 2 ? w1[b / 2] : w0[b / 2]);
		t[b] = buf[b];
		s[b] = (enum side)(b % 2);
	}
	CHECK(fixture_init(&f, "", ""));
	CHECK(fixture_set_boots(&f, 4, t, s));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive");
	CHECK_INT(result(&f.cmp, "migrate_ms")->look, 0);
	CHECK(fixture_set_boots(&f, 12, t, s));
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "regression");
	CHECK(result(&f.cmp, "migrate_ms")->look > 2 && result(&f.cmp, "migrate_ms")->look <= 6);
	/* the policy's last look at 2: there the metric gets its answer, "no
	 * change larger than" what 2 noisy boots resolve, and nothing after it
	 * decides */
	f.cmp.policy.last_look = 2;
	comparison_compute(&f.cmp);
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	CHECK_INT(result(&f.cmp, "migrate_ms")->look, 2);
	CHECK(result(&f.cmp, "migrate_ms")->threshold_pct > 20);
	fixture_free(&f);
}

/* Rounds: a drift both boots of a round share cancels in the paired test,
 * which a calibration that found such a drift chooses. */
static void test_round_pairing(void)
{
	struct fixture f;
	const double level[4] = { 10, 12, 9, 11 };
	const char *t[8];
	enum side s[8];
	char buf[8][96];
	struct noise_floor nf = { "hugetlb-migrate", "migrate_ms", 8, 10, 0.01, false, 4, 0.1, "" };

	for (int b = 0; b < 8; b++) {
		/* +5% with the fix, and +-0.05% of its own */
		snprintf(buf[b], sizeof(buf[b]), W "1 migrate_ms %.4f\n",
			 level[b / 2] * (b % 2 ? 1.05 * (b & 2 ? 1.0005 : 0.9995) : 1));
		t[b] = buf[b];
		s[b] = (enum side)(b % 2);
	}
	CHECK(fixture_init(&f, "", ""));
	CHECK(fixture_set_boots(&f, 8, t, s));
	/* unpaired, the drift swamps it */
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive");
	f.cmp.obs.rounds = true;
	comparison_compute(&f.cmp);
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "inconclusive"); /* no calibration: unpaired */
	f.cmp.noise.floor = &nf;
	f.cmp.noise.n = 1;
	comparison_compute(&f.cmp);
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "regression");
	CHECK(fabs(result(&f.cmp, "migrate_ms")->change_pct - 5) < 0.1);
	/* a calibration whose rounds shared nothing: unpaired again */
	nf.paired_cv_pct = 9.5;
	comparison_compute(&f.cmp);
	CHECK(strcmp(verdict(&f.cmp, "migrate_ms"), "regression") != 0);
	f.cmp.noise.floor = NULL;
	f.cmp.noise.n = 0;
	fixture_free(&f);

	/* noise_measure over rounds: what pairing leaves of the noise */
	{
		struct noise_floor *m;
		int n;

		for (int b = 0; b < 8; b++) {
			snprintf(buf[b], sizeof(buf[b]), W "1 migrate_ms %.4f\n",
				 level[b / 2] * (b % 2 ? 1.001 : 1));
			t[b] = buf[b];
		}
		CHECK(fixture_init(&f, "", ""));
		CHECK(fixture_set_boots(&f, 8, t, s));
		f.cmp.obs.rounds = true;
		m = noise_measure(&f.cmp.policy, &f.cmp.obs, &n);
		CHECK(n >= 1 && m[0].rounds == 4 && m[0].paired_cv_pct < 0.01);
		CHECK(m[0].between_cv_pct > 5);
		noise_free(m, n);
		fixture_free(&f);
	}
}

/* Warm-up: iteration 1 of a workload that iterates is left out. */
static void test_warmup(void)
{
	struct fixture f;

	CHECK(fixture_init(&f, W "1 migrate_ms 50\n" W "2 migrate_ms 10\n" W "3 migrate_ms 10\n",
			   W "1 migrate_ms 90\n" W "2 migrate_ms 10\n" W "3 migrate_ms 10\n"));
	CHECK_INT(result(&f.cmp, "migrate_ms")->n[0], 6);
	f.cmp.policy.warmup = 1;
	comparison_compute(&f.cmp);
	CHECK_INT(result(&f.cmp, "migrate_ms")->n[0], 4);
	CHECK_STR(verdict(&f.cmp, "migrate_ms"), "no change");
	CHECK(compare_is_warmup(&f.cmp.policy, f.chosen[0], 1) && !compare_is_warmup(&f.cmp.policy, f.chosen[0], 0) &&
	      !compare_is_warmup(&f.cmp.policy, f.chosen[0], 2));
	fixture_free(&f);
}

/* Synthetic boots in the two regimes of environment.md:
 * value = base (1 + shift) (1 + it_offset[i] + boot_noise + iteration_noise)
 * where it_offset is the same in every boot (icount repeats itself). */
struct regime {
	const char *name;
	double gate_pct, boot_sd, iter_sd, offset_sd;
	int boots, iterations;
};

static char *boot_text(gsl_rng *r, const struct regime *g, const double *offset, double shift)
{
	pb_str s;
	double boot = gsl_ran_gaussian(r, g->boot_sd);

	str_init(&s);
	for (int i = 0; i < g->iterations; i++)
		str_addf(&s, W "%d migrate_ms %.9f\n" W "%d pages_migrated 32\n", i + 1,
			 100 * (1 + shift) * (1 + offset[i] + boot + gsl_ran_gaussian(r, g->iter_sd)), i + 1);
	return str_steal(&s);
}

/* Fills f with a comparison of g->boots a side; returns its verdict. */
static const char *trial(struct fixture *f, gsl_rng *r, const struct regime *g, const double *offset,
			 double shift)
{
	char *t[64] = { 0 };
	enum side s[64] = { 0 };
	int n = 2 * g->boots;

	for (int b = 0; b < n; b++) {
		s[b] = (enum side)(b % 2);
		t[b] = boot_text(r, g, offset, s[b] == SIDE_WITH ? shift : 0);
	}
	if (!fixture_set_boots(f, n, (const char *const *)t, s))
		CHECK(!"synthetic boots parse");
	for (int b = 0; b < n; b++)
		free(t[b]);
	return verdict(&f->cmp, "migrate_ms");
}

/* Detection of a shift, and false alarms at no shift, over trials comparisons:
 * both must fall in their bounds (fractions of trials). */
static void rates(const struct regime *g, double shift, int trials, double min_detect,
		  double max_detect, double max_false)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct fixture f;
	double offset[16];
	struct noise_floor *nf;
	int nnf, detected = 0, false_alarms = 0, calib = 8;

	gsl_rng_set(r, 20261203);
	CHECK(fixture_init(&f, "", ""));
	f.cmp.policy.gate_pct = g->gate_pct;
	for (int i = 0; i < g->iterations; i++)
		offset[i] = gsl_ran_gaussian(r, g->offset_sd);
	{
		/* the calibration: 2 x calib boots of one kernel */
		struct regime c = *g;

		c.boots = calib;
		trial(&f, r, &c, offset, 0);
		nf = noise_measure(&f.cmp.policy, &f.cmp.obs, &nnf);
		f.cmp.noise.floor = nf;
		f.cmp.noise.n = nnf;
	}
	for (int k = 0; k < trials; k++) {
		detected += !strcmp(trial(&f, r, g, offset, shift), "regression");
		false_alarms += verdict_is_notable(verdict_from_name(trial(&f, r, g, offset, 0)));
	}
	printf("  %-10s %2d boots/side, shift %.1f%%: detected %d/%d, false alarms %d/%d\n", g->name,
	       g->boots, shift * 100, detected, trials, false_alarms, trials);
	CHECK(detected >= min_detect * trials);
	CHECK(detected <= max_detect * trials);
	CHECK(false_alarms <= max_false * trials);
	f.cmp.noise.floor = NULL;
	f.cmp.noise.n = 0;
	noise_free(nf, nnf);
	fixture_free(&f);
	gsl_rng_free(r);
}

/* Every name parses back to its verdict, and the ranking is the enum's. */
static void test_verdict_names(void)
{
	enum verdict v;
	enum comparison_status st;

	for (int i = 0; i < VERDICT_COUNT; i++) {
		CHECK(verdict_parse(verdict_name((enum verdict)i), &v));
		CHECK_INT(v, i);
	}
	for (int i = 0; i < STATUS_COUNT; i++) {
		CHECK(status_parse(status_name((enum comparison_status)i), &st));
		CHECK_INT(st, i);
	}
	CHECK(!verdict_parse("regresion", &v));
	CHECK(!verdict_parse(NULL, &v));
	CHECK(!status_parse("built", &st));
	CHECK_INT(verdict_from_name("junk"), VERDICT_NO_DATA);
	CHECK_INT(verdict_from_name("behaviour change"), VERDICT_BEHAVIOUR_CHANGE);
	CHECK(!strcmp(verdict_name((enum verdict)VERDICT_COUNT), "?"));
	/* a regression asks more of a reader than anything; a time that could
	 * not be compared more than one that did not change */
	CHECK(VERDICT_REGRESSION > VERDICT_BEHAVIOUR_CHANGE);
	CHECK(VERDICT_INCONCLUSIVE > VERDICT_IMPROVEMENT);
	CHECK(VERDICT_NOT_COMPARABLE > VERDICT_NO_CHANGE);
	CHECK(verdict_is_notable(VERDICT_REGRESSION) && verdict_is_notable(VERDICT_IMPROVEMENT) &&
	      verdict_is_notable(VERDICT_BEHAVIOUR_CHANGE));
	CHECK(VERDICT_DIAGNOSTIC < VERDICT_NO_CHANGE); /* shown, asks nothing */
	CHECK(!verdict_is_notable(VERDICT_INCONCLUSIVE) && !verdict_is_notable(VERDICT_FLAKY) &&
	      !verdict_is_notable(VERDICT_NOT_COMPARABLE));
}

/* bench --parallel's A/A check of one metric: a count the boots one at a
 * time all gave once is held to it side by side, unless a calibration saw
 * it move; a time is held to its noise. */
static void test_parallel_disagreement(void)
{
	struct metric_def faults = { .name = "perf_page_faults", .kind = METRIC_DIAGNOSTIC };
	struct metric_def ms = { .name = "migrate_ms", .kind = METRIC_TIME };
	struct noise_floor fixed = { .workload = "thp-anon", .metric = "perf_page_faults", .boots = 4,
				     .deterministic = true };
	struct noise_floor moved = fixed, fixed_cal = fixed;
	struct noise_set serial = { &fixed, 1 }, none = { NULL, 0 };
	struct noise_set cal_moved = { &moved, 1 }, cal_fixed = { &fixed_cal, 1 };
	struct metric_result m = { .workload = "thp-anon", .def = &faults, .n = { 4, 4 },
				   .median = { 98528, 98529 }, .values_differ = true };

	moved.deterministic = false;
	moved.boots = 8;
	moved.between_cv_pct = 0.0019;
	CHECK_STR(compare_parallel_disagreement(&m, &serial, &none),
		  "the same in every boot one at a time, different side by side");
	CHECK_STR(compare_parallel_disagreement(&m, &serial, &cal_fixed),
		  "the same in every boot one at a time, different side by side");
	CHECK(compare_parallel_disagreement(&m, &serial, &cal_moved) == NULL);
	m.values_differ = false;
	CHECK(compare_parallel_disagreement(&m, &serial, &none) == NULL);
	m.n[1] = 0;
	CHECK_STR(compare_parallel_disagreement(&m, &serial, &cal_moved), "reported on one side only");
	/* a time that moved beyond its noise is wrong whatever a calibration says */
	m = (struct metric_result){ .workload = "thp-anon", .def = &ms, .n = { 4, 4 },
				    .values_differ = true, .verdict = VERDICT_REGRESSION };
	CHECK_STR(compare_parallel_disagreement(&m, &none, &none),
		  "side by side differs from one at a time beyond its noise");
	m.verdict = VERDICT_NO_CHANGE;
	CHECK(compare_parallel_disagreement(&m, &none, &none) == NULL);
}

void test_compare(void)
{
	/* icount: boots agree to 0.001%, iterations differ by their index. */
	const struct regime icount = { "icount", 0.5, 1e-5, 1e-6, 1e-4, 2, 4 };
	/* wall clock, after adaptive boots: 1% between boots, 2% within */
	const struct regime wall = { "wallclock", 2, 0.01, 0.02, 0, 8, 4 };

	test_verdict_names();
	test_shapes();
	test_diagnostic();
	test_not_run();
	test_identical_uneven();
	test_looks();
	test_round_pairing();
	test_warmup();
	test_parallel_disagreement();
	/* the targets: icount >= 99% of 1% at <= 0.1% false alarms from 2 boots
	 * a kernel; wall clock >= 95% of 5% at <= 1% (here after 8 boots) */
	rates(&icount, 0.01, 1000, 0.99, 1, 0.001);
	rates(&icount, 0.003, 200, 0, 0, 0.001); /* under the gate: never flagged */
	rates(&wall, 0.05, 500, 0.95, 1, 0.01);
	/* 2% at a 2% gate: half the estimates fall under the gate, so at most
	 * about half are flagged whatever the boots, and some are */
	rates(&wall, 0.02, 200, 0.1, 0.6, 0.02);
}
