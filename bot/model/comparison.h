/* The record of one comparison, as it is stored: its inputs (the patch,
 * the kernels and how they were paired, the workloads, the accelerator),
 * the policy it was judged by, the observations (its boots), the findings
 * (the statistics over them), and what became of it. The database stores
 * and loads this struct (db.h); the statistics fill its findings
 * (compare.h); the renderers show what the database loads of it. */
#ifndef PERFBOT_COMPARISON_H
#define PERFBOT_COMPARISON_H

#include <stdbool.h>

#include "boot.h"
#include "findings.h"
#include "names.h"
#include "verdict.h"

struct pb_patch;
struct kernel_tree;
struct pair_plan;
struct kernel_config;

/* One kernel of a comparison, built (or found in the cache). */
struct kernel_image {
	char key[65];
	char *dir, *bzimage, *config, *log;
	bool built;       /* false: the build failed, see failure */
	bool cached;      /* it was already built: nothing was compiled */
	double build_seconds;
	char *failure;    /* the compiler's last error lines */
};
void kernel_image_free(struct kernel_image *img);

/* The accelerator the boots ran under, and why it was chosen. */
struct accel {
	enum accel_kind kind; /* kvm, tcg or tcg-icount (names.h) */
	char reason[400]; /* why this one: recorded with every run and shown in the report */
};

/* A series comparison's (perfbot run --series): the -rc as a whole. */
struct series_info {
	char *name;                    /* 5.13.2-rc1, else the queue's name */
	const char *description;       /* the cover letter's subject, "" if none */
	const char *cover_message_id;  /* "" if none */
	bool mm_only;                  /* only the mm patches were applied */
};

struct comparison {
	/* inputs */
	enum comparison_kind kind;     /* a patch's, a calibration (A/A), a series', a bisect step */
	const struct pb_patch *patch;  /* NULL for a calibration or a series */
	const struct series_info *series; /* a series comparison's, else NULL */
	const char *queue_dir;
	const struct kernel_tree *tree;
	const struct pair_plan *plan;
	const struct kernel_config *config;
	struct kernel_image image[2];
	struct accel accel;
	bool booted;
	char *workload_choice;
	int boots_per_kernel;          /* rounds booted, extra ones included */
	unsigned long seed;            /* boot order and bootstrap */
	/* the rules */
	struct verdict_policy policy;
	struct noise_set noise;        /* from a calibration, or none */
	long long noise_calibration;   /* the calibration's comparison id, 0 if none */
	int guests_at_once;            /* booted side by side, at most (qemu.parallel as resolved) */
	/* the boots, and what the statistics found in them */
	struct observations obs;
	struct findings findings;
	enum comparison_status status;
	/* a calibration's own findings: each metric's noise, and how often the
	 * procedure flagged something over A/A splits of its boots */
	struct noise_floor *measured_noise;
	int nmeasured_noise;
	int fa_splits, fa_flagged, fa_metric_tests, fa_metric_flags;
	char *started_at, *finished_at;
	double wall_seconds;
	long long job_id;              /* perfbotd's job, 0 if none: done when this is stored */
	bool interrupted;              /* measure_boots stopped early (SIGTERM): not to be stored */
};

/* The result of workload's metric (by the workload's name or binary), or NULL. */
const struct metric_result *comparison_result(const struct comparison *cmp, const char *workload,
					      const char *metric);
void comparison_free(struct comparison *cmp);

#endif
