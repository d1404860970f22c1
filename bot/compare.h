/* One comparison of two kernels: their boots, and per metric the samples,
 * the rank tests over boots, a bootstrap CI of the change, the noise floor
 * and a verdict. The procedure is in compare.c's header comment and in
 * README.md ("How a verdict is reached"). */
#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H

#include "config.h"
#include "verdict.h"
#include "kernel.h"
#include "vm.h"
#include "workload.h"

enum side { SIDE_WITHOUT = 0, SIDE_WITH = 1 };

/* How a comparison decides, from config.ini's [stats] and [run]. */
struct verdict_policy {
	double gate_pct;        /* smallest change worth reporting, for this accelerator */
	double alpha;           /* family-wise error rate, Holm over the comparison's metrics */
	double noise_factor;    /* a change must exceed this many times the noise floor */
	int bootstrap;          /* replicates */
	int warmup;             /* leading iterations left out (workloads that iterate) */
	unsigned long seed;     /* of the bootstrap */
};

/* The gate for an accelerator: icount's own where guest time is an
 * instruction count, gate_pct elsewhere. */
void verdict_policy_init(struct verdict_policy *vp, const struct pb_config *cfg,
			 const char *accel, unsigned long seed);

/* A metric's noise as an A/A calibration measured it. */
struct noise_floor {
	char *workload, *metric;
	int boots;
	double between_cv_pct;  /* sd of the boot medians / their mean */
	double within_cv_pct;   /* pooled sd of a boot's iterations / mean */
	bool deterministic;     /* every boot gave exactly the same values */
};

struct metric_result {
	const char *workload;          /* the workload's binary name */
	const struct metric_def *def;
	int n[2];                      /* samples without, with (warm-up left out) */
	int boots[2];                  /* boots that gave the metric */
	double median[2];              /* pooled medians */
	double change_pct;             /* (with - without) / without; NAN if undefined */
	double ci_lo_pct, ci_hi_pct;   /* bootstrap 95% CI of the change, NAN if none */
	double hl_shift;               /* Hodges-Lehmann shift of the boot medians, in units */
	double p_mw, p_ks, p, p_adj;   /* over boot medians; p = the smaller; p_adj: Holm */
	double noise_pct;              /* between-boot CV used as the noise floor */
	const char *noise_from;        /* "calibration", "this run" or "-" */
	bool deterministic;            /* identical values in every boot of each side */
	bool values_differ;            /* the two sides' sample sets are not the same */
	const char *regime;            /* what decided: "rank test", "gate over noise",
					  "exact values", or "-" */
	enum verdict verdict;
};

struct boot {
	enum side side;
	struct boot_record rec;
};

struct comparison {
	const char *kind;              /* "patch" or "calibration" (A/A) */
	const struct pb_patch *patch;  /* NULL for a calibration */
	const char *queue_dir;
	const struct kernel_tree *tree;
	const struct pair_plan *plan;
	const struct kernel_config *config;
	struct kernel_image image[2];
	struct accel accel;
	bool booted;
	const struct workload **workloads;
	int nworkloads;
	char *workload_choice;
	int boots_per_kernel, iterations, warmup;
	unsigned long seed;            /* boot order and bootstrap */
	struct verdict_policy policy;
	const struct noise_floor *noise; /* from a calibration, or NULL */
	int nnoise;
	long long noise_calibration;   /* the calibration's comparison id, 0 if none */
	/* a calibration's own findings: each metric's noise, and how often the
	 * procedure flagged something over A/A splits of its boots */
	struct noise_floor *measured_noise;
	int nmeasured_noise;
	int fa_splits, fa_flagged, fa_metric_tests, fa_metric_flags;
	struct boot *boots;
	int nboots;
	struct metric_result *results;
	int nresults;
	bool decided;                  /* compare_compute ran: verdict and behaviour are set */
	enum verdict verdict;          /* the worst timing verdict (verdict.h's ranking) */
	enum verdict behaviour;        /* VERDICT_BEHAVIOUR_CHANGE or VERDICT_SAME */
	enum comparison_status status;
	char *started_at, *finished_at;
	double wall_seconds;
	long long job_id;              /* perfbotd's job, 0 if none: done when this is stored */
	bool interrupted;              /* measure_boots stopped early (SIGTERM): not to be stored */
};

/* Fills cmp->results (and cmp->verdict, cmp->behaviour) from the samples of
 * the boots that came out ok; may be called again after more boots. */
void compare_compute(struct comparison *cmp);
void comparison_free(struct comparison *cmp);

bool compare_is_warmup(const struct comparison *cmp, const struct workload *wl, int iteration);
const struct workload *compare_workload(const struct comparison *cmp, const char *binary);

/* How many time metrics are inconclusive: more boots may decide them. */
int compare_inconclusive(const struct comparison *cmp);

const char *side_name(enum side s);

/* Prints the comparison table (workload, metric, without, with, change, CI,
 * p, noise, verdict) and the patch's verdict. */
void compare_print(const struct comparison *cmp, FILE *out);

/* A comparison of the given boots only, a's as the side without and b's as
 * the side with (shallow copies: the records stay tmpl's), computed: for A/A
 * splits of a calibration and the benchmark's resampled comparisons. */
void compare_subset(const struct comparison *tmpl, const struct boot *const *a, int na,
		    const struct boot *const *b, int nb, struct comparison *out);
void compare_subset_free(struct comparison *out);

/* Metrics with a notable verdict; *tested gets those with data on both sides. */
int compare_flagged(const struct comparison *cmp, int *tested);

/* The noise of every metric over a set of boots of one kernel. */
struct noise_floor *noise_measure(const struct comparison *cmp, int *n);
void noise_free(struct noise_floor *nf, int n);

#endif
