/* What the statistics decide a comparison by (the policy, the noise floors
 * of a calibration) and what they found: per metric a change, its interval,
 * the threshold the metric resolves and a verdict. stats/compare.h computes
 * them; the procedure is in compare.c's header comment. */
#ifndef PERFBOT_FINDINGS_H
#define PERFBOT_FINDINGS_H

#include <stdbool.h>

#include "names.h"
#include "verdict.h"

/* A metric's role: time decides the timing verdict; behaviour is compared
 * exactly (counters, errnos); diagnostic is shown and plotted but never
 * decides (perf counters, context switches: they move with scheduling). */
struct metric_def {
	char *name, *unit, *description;
	int better;             /* +1 higher is better, -1 lower is better */
	enum metric_kind kind;  /* time: compared as performance; behaviour: any difference counts */
};

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
void noise_free(struct noise_floor *nf, int n);

/* The noise floors a comparison is judged against (a calibration's), or none. */
struct noise_set {
	const struct noise_floor *floor;
	int n;
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

/* What the statistics decided: per metric, and for the comparison. */
struct findings {
	struct metric_result *results;
	int nresults;
	bool decided;                  /* computed: verdict and behaviour are set */
	enum verdict verdict;          /* the worst timing verdict (verdict.h's ranking) */
	enum verdict behaviour;        /* VERDICT_BEHAVIOUR_CHANGE or VERDICT_SAME */
};
void findings_free(struct findings *f);

#endif
