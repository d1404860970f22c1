/* Synthetic boots for the statistics: a pure simulation, no kernel, no
 * QEMU, that drives perfbot's own compare code (compare_compute, the
 * adaptive schedule's rule, the calibration's A/A splits) with boots whose
 * truth is known. Used by `make bench-stats`, which prints the rates, and
 * by the unit tests, which assert them on fixed seeds.
 *
 * A sample of metric k in round r, boot b, iteration i:
 *   100 exp(effect_k + drift_r + boot_b + iter_i)
 * effect on the with side only (metric 0 only; the others stay null),
 * drift_r ~ N(0, round_cv) shared by both boots of a round (the host's
 * drift, what pairing would cancel), boot_b ~ N(0, between_cv) and
 * iter_i ~ N(0, within_cv), all on the log scale. */
#ifndef PERFBOT_SIM_H
#define PERFBOT_SIM_H

#include <stdbool.h>

struct sim_regime {
	const char *name;
	double gate_pct;
	double between_cv, within_cv, round_cv; /* fractions: 0.03 is 3% */
	int iterations;          /* per boot */
	int nmetrics;            /* time metrics judged together (Holm) */
	bool calibrated;         /* judged against a calibration of 8 boots of its own */
	bool rounds;             /* the boots come in rounds, as measure_boots boots them */
};

/* Run's schedule: looks from first_look to last_look boots a side. */
struct sim_schedule {
	int first_look, last_look;
	double alpha, beta;
};

struct sim_outcome {
	int trials;
	int flagged;             /* any metric (effect 0) / metric 0 as a regression */
	int wrong_way;           /* metric 0 flagged as an improvement */
	int no_change;           /* metric 0 "no change" */
	int no_change_first;     /* ... at the first look */
	int no_change_gate;      /* ... inside the gate itself (not a wider threshold) */
	double threshold_sum;    /* of metric 0's thresholds, over its "no change"s */
	int inconclusive;        /* metric 0 still open at the last look */
	long boots;              /* boots a side, summed over trials */
};

/* trials comparisons on run's adaptive schedule. */
void sim_sequential(const struct sim_regime *g, const struct sim_schedule *s, double effect,
		    int trials, unsigned long seed, struct sim_outcome *out);

/* The fraction of trials whose 95% interval of metric 0's change at n
 * boots a side (one look) holds the true effect. */
double sim_coverage(const struct sim_regime *g, const struct sim_schedule *s, double effect, int n,
		    int trials, unsigned long seed);

/* The calibration's false-alarm estimate (A/A splits of 8 boots, judged
 * against the ones they left out) against the true rate of the first look
 * of a comparison judged against an independent 8-boot calibration. */
void sim_calibration(const struct sim_regime *g, const struct sim_schedule *s, int calibrations,
		     unsigned long seed, double *estimated, double *true_rate);

/* Wilson's 95% interval of k successes in n. */
void sim_wilson(int k, int n, double *lo, double *hi);

#endif
