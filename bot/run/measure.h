/* The boot schedule of a comparison: rounds of one boot of each kernel in an
 * order shuffled with a recorded seed, then, while a metric is inconclusive,
 * more rounds up to run.max_boots per kernel or run.budget_minutes. Used by
 * run and calibrate. */
#ifndef PERFBOT_MEASURE_H
#define PERFBOT_MEASURE_H

#include <signal.h>

#include "compare.h"
#include "comparison.h"

/* run.seed, or a new one from /dev/urandom when it is 0. */
unsigned long measure_seed(const struct pb_config *cfg);

struct measure_plan {
	const struct guest_plan *guest;
	const char *initrd, *log_dir;
	const char *kernel[2];        /* bzImage of each side */
	const char *label[2];         /* shown on the terminal */
	int first_rounds;             /* rounds before any verdict */
	int parallel;                 /* guests booted at once, at most (0 or 1: one at a time) */
	int max_rounds;               /* at most, when inconclusive */
	double budget_seconds;        /* of boots; 0: no limit */
	bool aa;                      /* one kernel on both sides: sides A and B, no "fix" */
	/* bisect: only this metric's verdict keeps boots coming (NULL: every metric's) */
	const char *focus_workload, *focus_metric;
	/* perfbotd's journal: called after each boot (NULL: none) */
	bool (*boot_done)(void *ctx, const struct comparison *cmp, int b, pb_err *err);
	void *ctx;
	/* set (SIGTERM): no further boot starts, cmp->interrupted (NULL: none) */
	volatile sig_atomic_t *stop;
	/* boots one guest of side s with plan gp (guest's, less what this boot
	 * leaves out; NULL when guest is) into br (NULL: vm_boot of kernel[s]);
	 * the unit tests' fake guests. False only when perfbot cannot go on. */
	bool (*boot)(void *ctx, enum side s, const struct guest_plan *gp, const char *log_prefix,
		     struct boot_record *br, pb_err *err);
	void *boot_ctx;
};

/* Boots, computing cmp's results after the first rounds and after each
 * extra one. A workload that runs once per side (workload_once_per_side)
 * is left out of a boot whose side had an ok boot that ran it when the
 * boot started: a side's boots run it until one of them is ok. Boots already in cmp (a resumed job's) count as the first ones
 * of the schedule and are not booted again; they must be in the order the
 * seed gives. False only when perfbot cannot go on (err set). */
bool measure_boots(const struct pb_config *cfg, struct comparison *cmp,
		   const struct measure_plan *mp, pb_err *err);

/* Boots of a side that came out ok. */
int measure_ok_boots(const struct comparison *cmp, enum side s);

#endif
