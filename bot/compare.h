/* One comparison of a patch: its pair of kernels, the boots of both, and
 * per-metric results. Medians only for now; significance tests come with
 * the statistics module. */
#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H

#include "kernel.h"
#include "vm.h"
#include "workload.h"

enum side { SIDE_WITHOUT = 0, SIDE_WITH = 1 };

/* A time metric whose medians differ by less than this is "no change". */
#define CHANGE_GATE_PCT 2.0

struct metric_result {
	const char *workload;          /* the workload's binary name */
	const struct metric_def *def;
	int n[2];                      /* samples without, with */
	double median[2];
	double change_pct;             /* (with - without) / without; NAN if undefined */
	bool values_differ;            /* the two sides' sample sets are not the same */
	const char *verdict;           /* regression, improvement, no change, not comparable
					  (the workload's behaviour changed), behaviour change,
					  same, no data */
};

struct boot {
	enum side side;
	struct boot_record rec;
};

struct comparison {
	const struct pb_patch *patch;
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
	int boots_per_kernel, iterations;
	struct boot *boots;
	int nboots;
	struct metric_result *results;
	int nresults;
	const char *status;            /* measured, build-failed, boot-failed */
	char *started_at, *finished_at;
	double wall_seconds;
};

double median_of(double *v, int n); /* sorts v */

/* Fills cmp->results from the samples of the boots that came out ok. */
void compare_compute(struct comparison *cmp);
void comparison_free(struct comparison *cmp);

const char *side_name(enum side s);

/* Prints the comparison table (workload, metric, without, with, change). */
void compare_print(const struct comparison *cmp, FILE *out);

#endif
