/* The statistics' targets (issue 14), asserted on fixed seeds with
 * perfbot's own compare code on synthetic boots (tests/sim). `make
 * bench-stats` prints the whole table; these are the rows the verdicts
 * stand on. Trials are few enough for ASan, many enough that a bound
 * means something: each bound has room for its Wilson interval. */
#include <stdio.h>

#include "check.h"
#include "sim.h"

static const struct sim_schedule run = { 2, 10, 0.01, 0.05 };
static const struct sim_schedule one = { 2, 2, 0.01, 0.05 };

void test_sim(void)
{
	const struct sim_regime icount = { "icount", 0.5, 0.00001, 0.000005, 0, 4, 3, false, true };
	const struct sim_regime wall = { "wall 3%", 2.0, 0.03, 0.01, 0, 4, 3, false, true };
	const struct sim_regime drift = { "drift", 2.0, 0.0108, 0.01, 0.028, 4, 3, true, true };
	struct sim_regime drift_unpaired = drift;
	struct sim_outcome o, u;
	const int ns[] = { 2, 3, 5, 10 };

	/* icount: a null patch is "no change" at 2 boots; 1% is found at 2 */
	sim_sequential(&icount, &run, 0, 1000, 1, &o);
	CHECK(o.flagged <= 1);                     /* <= 0.1% */
	CHECK(o.no_change_first >= 990);           /* >= 99% */
	CHECK(o.no_change_gate >= 990);            /* and inside the gate itself */
	sim_sequential(&icount, &run, 0.01, 500, 2, &o);
	CHECK(o.flagged >= 495);                   /* >= 99% */
	CHECK(o.boots <= 2 * 500 + 10);            /* at 2 boots a kernel */
	/* wall clock, 3% between boots: false alarms over all metrics and all
	 * looks within alpha, and a null answered "no change" (larger than
	 * what 3% noise resolves in 10 boots: about 9%) */
	sim_sequential(&wall, &run, 0, 1000, 3, &o);
	printf("  sim wall 3%%: false alarms %d/1000, no change %d, inconclusive %d\n", o.flagged,
	       o.no_change, o.inconclusive);
	CHECK(o.flagged <= 15);                    /* 1%, and room for the trials' own spread */
	CHECK(o.no_change >= 950);
	CHECK(o.wrong_way == 0);
	for (int i = 0; i < 4; i++) {
		double c = sim_coverage(&wall, &run, 0.02, ns[i], 400, 10 + (unsigned long)i);

		CHECK(c >= 0.93);
	}
	/* a drift both kernels of a round share: with a calibration that saw
	 * it, the paired test finds 5%, the unpaired one mostly does not */
	sim_sequential(&drift, &run, 0.05, 300, 4, &o);
	drift_unpaired.rounds = false;
	sim_sequential(&drift_unpaired, &run, 0.05, 300, 4, &u);
	printf("  sim drift: 5%% found %d/300 paired, %d/300 unpaired\n", o.flagged, u.flagged);
	CHECK(o.flagged >= 240);                   /* >= 80% */
	CHECK(o.flagged >= 2 * u.flagged);
	sim_sequential(&drift, &run, 0, 500, 5, &o);
	CHECK(o.flagged <= 10);
	/* one look, the last (run.boots = run.max_boots = 2, as the e2e runs):
	 * a null fits inside what 2 boots resolve 99% of the time, unpaired at
	 * 2 degrees of freedom (the normal's quantile left 10% open) and with a
	 * calibration that would pair 10 rounds (pairing 2 left 1 degree of
	 * freedom: 12% open, thresholds of 100%) */
	sim_sequential(&wall, &one, 0, 1000, 6, &o);
	printf("  sim wall 3%%, one look: no change %d/1000, inconclusive %d\n", o.no_change,
	       o.inconclusive);
	CHECK(o.inconclusive <= 20);
	CHECK(o.flagged <= 15);
	sim_sequential(&drift, &one, 0, 500, 7, &o);
	printf("  sim drift, one look: no change %d/500 (mean threshold %.1f%%), inconclusive %d\n",
	       o.no_change, o.no_change ? o.threshold_sum / o.no_change : 0, o.inconclusive);
	CHECK(o.inconclusive <= 10);
	CHECK(o.no_change >= 480 && o.threshold_sum / o.no_change < 60);
}
