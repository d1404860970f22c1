/* The statistics of a comparison: from the boots of two kernels (the
 * observations) and the rules (the policy, and the noise floors of a
 * calibration), per metric the samples, a sequential t test over boot
 * medians, its interval, the threshold the metric can resolve and a
 * verdict (the findings).
 * They see nothing of how the kernels were built or booted: that is the
 * comparison's record, in comparison.h. The procedure is in compare.c's
 * header comment and in README.md ("How a verdict is reached"). */
#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H

#include "comparison.h"
#include "config.h"
#include "outcome.h"
#include "verdict.h"
#include "workload.h"

/* The gate for an accelerator: icount's own where guest time is an
 * instruction count, gate_pct elsewhere. */
void verdict_policy_init(struct verdict_policy *vp, const struct pb_config *cfg,
			 enum accel_kind accel);

/* The tests' and the simulation's policy: first..last looks, no warm-up. */
void verdict_policy_set(struct verdict_policy *vp, double gate_pct, double alpha, double beta,
			int first_look, int last_look);

/* Fills out from the samples of the boots that came out ok; may be called
 * again (on the same out) after more boots. */
void compare_compute(const struct verdict_policy *vp, const struct noise_set *noise,
		     const struct observations *obs, struct findings *out);

bool compare_is_warmup(const struct verdict_policy *vp, const struct workload *wl, int iteration);
const struct workload *compare_workload(const struct observations *obs, const char *binary);

/* How many time metrics are inconclusive: more boots may decide them. */
int compare_inconclusive(const struct findings *f);

/* Metrics with a notable verdict; *tested gets those with data on both sides. */
int compare_flagged(const struct findings *f, int *tested);

/* The noise of every metric over a set of boots of one kernel. */
struct noise_floor *noise_measure(const struct verdict_policy *vp, const struct observations *obs,
				  int *n);

/* How often the procedure flags an A/A comparison: nsplits random splits of
 * obs's ok boots (all of one kernel), per_side against per_side (per_side
 * of its rounds, when it has rounds), each judged against the noise floor
 * of the boots it left out, not of its own (judged by noise it set itself,
 * every split would pass by construction).
 * flags_by_metric (or NULL) is indexed like a comparison's results. */
struct aa_false_alarms {
	int splits, flagged;          /* splits, and those with any metric flagged */
	int metric_tests, metric_flags;
};
void compare_aa_false_alarms(const struct verdict_policy *vp, const struct observations *obs,
			     int per_side, int nsplits, unsigned long seed,
			     struct aa_false_alarms *out, int *flags_by_metric);

/* The A/A check of guests side by side (bench --parallel), of one metric:
 * the boots one at a time are m's side without, those side by side its
 * side with. serial: the floors of the boots one at a time; calibrated: a
 * calibration's under the same accelerator (n 0 when there is none). What
 * is wrong, or NULL when the two agree. */
const char *compare_parallel_disagreement(const struct metric_result *m, const struct noise_set *serial,
					  const struct noise_set *calibrated);

/* compare_compute over a comparison's policy, noise and boots. */
void comparison_compute(struct comparison *cmp);

/* A comparison of the given boots only, a's as the side without and b's as
 * the side with (shallow copies: the records stay tmpl's), computed: for A/A
 * splits of a calibration and the benchmark's resampled comparisons. */
void comparison_subset(const struct comparison *tmpl, const struct boot *const *a, int na,
		       const struct boot *const *b, int nb, struct comparison *out);
void comparison_subset_free(struct comparison *out);

#endif
