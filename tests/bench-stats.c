/* make bench-stats: how perfbot's statistics behave on synthetic boots of
 * known truth, per regime: false alarms, power, "no change" for a null
 * patch, boots to a verdict, coverage of the 95% interval, and the
 * calibration's false-alarm estimate against the true rate. Seconds to
 * run; no kernel is built or booted. Prints figures, asserts nothing (the
 * unit tests assert the targets: tests/unit/test-sim.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* As run boots them: in rounds of one boot of each kernel. Without a
 * calibration the test is unpaired; with one (8 boots of its own, in
 * rounds) it pairs the rounds when the calibration found that pairing
 * leaves under 0.7 of the noise. */
static const struct sim_regime regimes[] = {
	/* icount: boots agree to about 0.001% (environment.md) */
	{ "icount",             0.5, 0.00001, 0.000005, 0, 4, 3, false, true },
	/* icount metrics that still vary 0.2% between boots (fault times) */
	{ "icount 0.2%",        0.5, 0.002, 0.0005, 0, 4, 3, false, true },
	{ "icount 0.2%, calib", 0.5, 0.002, 0.0005, 0, 4, 3, true, true },
	/* wall clock (kvm, tcg): between-boot CV 1%, 3%, 10%, within 1% */
	{ "wall 1%",            2.0, 0.01, 0.01, 0, 4, 3, false, true },
	{ "wall 3%",            2.0, 0.03, 0.01, 0, 4, 3, false, true },
	{ "wall 3%, calib.",    2.0, 0.03, 0.01, 0, 4, 3, true, true },
	{ "wall 10%",           2.0, 0.10, 0.01, 0, 4, 3, false, true },
	/* 3% of which 2.8% is a drift both kernels of a round share */
	{ "wall 3% drift",      2.0, 0.0108, 0.01, 0.028, 4, 3, false, true },
	{ "wall 3% drift, cal.", 2.0, 0.0108, 0.01, 0.028, 4, 3, true, true },
};
static const double effects[] = { 0.005, 0.01, 0.02, 0.03, 0.05, 0.10 };
static const int coverage_n[] = { 2, 3, 5, 10 };

static void pct_with_bounds(char *buf, size_t len, int k, int n)
{
	double lo, hi;

	sim_wilson(k, n, &lo, &hi);
	snprintf(buf, len, "%5.1f%% [%.1f,%.1f]", 100.0 * k / n, 100 * lo, 100 * hi);
}

int main(int argc, char **argv)
{
	const struct sim_schedule run = { 2, 10, 0.01, 0.05 }; /* config.ini's defaults */
	int trials = argc > 1 ? atoi(argv[1]) : 2000;
	unsigned long seed = 20261204;
	char a[64], b[64], c[64], d[64], ng[64];

	if (trials < 50)
		trials = 50;
	printf("bench-stats: perfbot's compare code on synthetic boots, %d trials a cell, looks %d to "
	       "%d boots a side, alpha %g, beta %g; [95%% Wilson bounds]\n"
	       "a null's \"no change\" is inside the gate or, for a noisy metric, inside its own "
	       "threshold: the last column gives their mean\n\n", trials, run.first_look,
	       run.last_look, run.alpha, run.beta);
	printf("%-19s %5s  %-22s %-22s %-22s %-22s %-22s %s\n", "regime", "gate", "false alarms",
	       "null: no change", "  ... inside the gate", "null: at 2 boots", "null: inconclusive",
	       "mean boots/side, threshold");
	for (size_t r = 0; r < sizeof(regimes) / sizeof(*regimes); r++) {
		struct sim_outcome o;

		sim_sequential(&regimes[r], &run, 0, trials, seed + r, &o);
		pct_with_bounds(a, sizeof(a), o.flagged, o.trials);
		pct_with_bounds(b, sizeof(b), o.no_change, o.trials);
		pct_with_bounds(ng, sizeof(ng), o.no_change_gate, o.trials);
		pct_with_bounds(c, sizeof(c), o.no_change_first, o.trials);
		pct_with_bounds(d, sizeof(d), o.inconclusive, o.trials);
		printf("%-19s %4.1f%%  %-22s %-22s %-22s %-22s %-22s %.2f, %.1f%%\n", regimes[r].name,
		       regimes[r].gate_pct, a, b, ng, c, d, (double)o.boots / o.trials,
		       o.no_change ? o.threshold_sum / o.no_change : 0);
	}
	/* run.max_boots = run.boots: the one look is also the last, where a
	 * null's interval must fit inside its threshold or stay inconclusive
	 * (the e2e runs so: 2 boots a kernel) */
	printf("\none look at 2 boots a side (run.boots = run.max_boots = 2): a null patch\n"
	       "%-19s %-22s %-22s %-22s %s\n", "regime", "false alarms", "no change",
	       "inconclusive", "mean threshold");
	for (size_t r = 0; r < sizeof(regimes) / sizeof(*regimes); r++) {
		const struct sim_schedule one = { 2, 2, run.alpha, run.beta };
		struct sim_outcome o;

		sim_sequential(&regimes[r], &one, 0, trials, seed + 3 * r, &o);
		pct_with_bounds(a, sizeof(a), o.flagged, o.trials);
		pct_with_bounds(b, sizeof(b), o.no_change, o.trials);
		pct_with_bounds(d, sizeof(d), o.inconclusive, o.trials);
		printf("%-19s %-22s %-22s %-22s %.1f%%\n", regimes[r].name, a, b, d,
		       o.no_change ? o.threshold_sum / o.no_change : 0);
	}
	printf("\npower: metric 0 flagged as a regression (mean boots a side)\n%-19s", "regime");
	for (size_t e = 0; e < sizeof(effects) / sizeof(*effects); e++)
		printf(" %13.1f%%         ", effects[e] * 100);
	printf("\n");
	for (size_t r = 0; r < sizeof(regimes) / sizeof(*regimes); r++) {
		printf("%-19s", regimes[r].name);
		for (size_t e = 0; e < sizeof(effects) / sizeof(*effects); e++) {
			struct sim_outcome o;

			sim_sequential(&regimes[r], &run, effects[e], trials / 2, seed + 100 * r + e, &o);
			pct_with_bounds(a, sizeof(a), o.flagged, o.trials);
			printf(" %s (%4.1f)", a, (double)o.boots / o.trials);
		}
		printf("\n");
	}
	printf("\ncoverage of the 95%% interval of a 2%% change, one look at n boots a side\n%-19s",
	       "regime");
	for (size_t i = 0; i < sizeof(coverage_n) / sizeof(*coverage_n); i++)
		printf("   n = %-2d ", coverage_n[i]);
	printf("\n");
	for (size_t r = 0; r < sizeof(regimes) / sizeof(*regimes); r++) {
		printf("%-19s", regimes[r].name);
		for (size_t i = 0; i < sizeof(coverage_n) / sizeof(*coverage_n); i++)
			printf("   %5.1f%% ", 100 * sim_coverage(&regimes[r], &run, 0.02, coverage_n[i],
							      trials / 2, seed + 7 * r + i));
		printf("\n");
	}
	printf("\ncalibration: its A/A false-alarm estimate (2+2 splits of 8 boots, judged against the "
	       "4 left out) against the true rate of a first look judged against an 8-boot "
	       "calibration\n");
	for (size_t r = 0; r < sizeof(regimes) / sizeof(*regimes); r++) {
		double est, truth;

		sim_calibration(&regimes[r], &run, trials / 5, seed + 31 * r, &est, &truth);
		printf("%-19s estimate %6.3f%%   true %6.3f%%\n", regimes[r].name, 100 * est, 100 * truth);
	}
	return 0;
}
