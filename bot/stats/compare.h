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

#include "config.h"
#include "outcome.h"
#include "verdict.h"
#include "workload.h"

/* How a comparison decides, from config.ini's [stats] and [run]. */
struct verdict_policy {
	double gate_pct;        /* smallest change worth reporting, for this accelerator */
	double alpha;           /* false alarms: Holm over the metrics, spent over the looks */
	double beta;            /* a real change above the threshold called "no change" */
	int first_look;         /* boots a side at the first look (run.boots) */
	int last_look;          /* and at the last (run.max_boots) */
	int warmup;             /* leading iterations left out (workloads that iterate) */
	bool boot_repeats;      /* a boot's results repeat exactly (tcg-icount): one ok
				 * boot a side shows what a kernel does */
};

/* The gate for an accelerator: icount's own where guest time is an
 * instruction count, gate_pct elsewhere. */
void verdict_policy_init(struct verdict_policy *vp, const struct pb_config *cfg,
			 enum accel_kind accel);

/* The tests' and the simulation's policy: first..last looks, no warm-up. */
void verdict_policy_set(struct verdict_policy *vp, double gate_pct, double alpha, double beta,
			int first_look, int last_look);

/* A metric's noise as an A/A calibration measured it. */
struct noise_floor {
	char *workload, *metric;
	int boots;
	double between_cv_pct;  /* sd of the boot medians / their mean */
	double within_cv_pct;   /* pooled sd of a boot's iterations / mean */
	bool deterministic;     /* every boot gave exactly the same values */
	/* the A/A rounds: how much of the noise is a drift both boots of a
	 * round share, which the paired test cancels (0 rounds: not known) */
	int rounds;             /* complete rounds */
	double paired_cv_pct;   /* sd of a round's B - A (log) / sqrt 2, in percent */
	char sha256[65];        /* the workload's fingerprint (guest_workload_fingerprint), "" unknown */
};

struct metric_result {
	const char *workload;          /* the workload's binary name */
	const struct metric_def *def;
	int n[2];                      /* samples without, with (warm-up left out) */
	int boots[2];                  /* boots that gave the metric */
	double median[2];              /* pooled medians */
	double change_pct;             /* of the boot medians' geometric means (the t test's
					  estimate), else of the pooled medians; NAN if undefined */
	double ci_lo_pct, ci_hi_pct;   /* 95% t interval of the change, NAN if none */
	double hl_shift;               /* Hodges-Lehmann shift of the boot medians, in units */
	double p_mw, p_ks;             /* rank tests over all boot medians, shown only */
	double p, p_adj;               /* t test at the deciding look; p_adj: Holm over metrics */
	double noise_pct;              /* between-boot CV: the prior of the t test's variance */
	enum noise_from noise_from;    /* a calibration's, this run's, or none */
	double threshold_pct;          /* "no change" means no change larger than this: the
					  gate, or what the metric resolves in last_look boots */
	int look;                      /* boots a side at the look that decided; 0: none */
	bool deterministic;            /* identical values in every boot of each side */
	bool values_differ;            /* the two sides' sample sets are not the same */
	const char *regime;            /* what decided (README: "How a verdict is reached") */
	enum verdict verdict;
};

struct boot {
	enum side side;
	struct boot_record rec;
};

/* What the statistics see: the boots, and what their samples are of. */
struct observations {
	const struct workload **workloads;
	int nworkloads;
	int iterations;                /* measured per boot */
	struct boot *boots;
	int nboots;
	/* the boots come in rounds (measure_boots): boots 2r and 2r+1 are one
	 * of each kernel, booted back to back, and the test pairs them */
	bool rounds;
};

/* The noise floors a comparison is judged against (a calibration's), or none. */
struct noise_set {
	const struct noise_floor *floor;
	int n;
};

/* What the statistics decided: per metric, and for the comparison. */
struct findings {
	struct metric_result *results;
	int nresults;
	bool decided;                  /* computed: verdict and behaviour are set */
	enum verdict verdict;          /* the worst timing verdict (verdict.h's ranking) */
	enum verdict behaviour;        /* VERDICT_BEHAVIOUR_CHANGE or VERDICT_SAME */
};

/* Fills out from the samples of the boots that came out ok; may be called
 * again (on the same out) after more boots. */
void compare_compute(const struct verdict_policy *vp, const struct noise_set *noise,
		     const struct observations *obs, struct findings *out);
void findings_free(struct findings *f);

bool compare_is_warmup(const struct verdict_policy *vp, const struct workload *wl, int iteration);
const struct workload *compare_workload(const struct observations *obs, const char *binary);

/* How many time metrics are inconclusive: more boots may decide them. */
int compare_inconclusive(const struct findings *f);

/* Metrics with a notable verdict; *tested gets those with data on both sides. */
int compare_flagged(const struct findings *f, int *tested);

/* The noise of every metric over a set of boots of one kernel. */
struct noise_floor *noise_measure(const struct verdict_policy *vp, const struct observations *obs,
				  int *n);
void noise_free(struct noise_floor *nf, int n);

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

#endif
