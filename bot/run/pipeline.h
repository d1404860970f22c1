/* The measurement pipeline: one set of named stages (workloads -> tree ->
 * pair -> selftests -> configure -> build -> guests -> boots -> store ->
 * report), each a function over struct pipeline, which owns every resource
 * a run holds and frees them in one place. run, calibrate, bench, nightly and perfbotd's
 * jobs are plans over these stages: which kernels, how many boots, what is
 * stored. A new stage is added here once. */
#ifndef PERFBOT_PIPELINE_H
#define PERFBOT_PIPELINE_H

#include <signal.h>
#include <sqlite3.h>

#include "compare.h"
#include "comparison.h"
#include "config.h"
#include "run-end.h"
#include "kernel.h"
#include "measure.h"
#include "present.h"
#include "queue.h"
#include "verdict.h"
#include "vm.h"
#include "workload.h"

/* What a plan left, for nightly's summary. With comparison 0 (nothing
 * stored: an error, a stop, a skip) only skipped means anything. */
struct pipeline_outcome {
	long long comparison;   /* its id, 0 if nothing was stored */
	enum comparison_status status;
	bool decided;           /* verdict is set: something was compared */
	enum verdict verdict;   /* worst timing verdict */
	bool behaviour_change;
	bool skipped;           /* not an mm patch: nothing to measure */
};

/* What perfbot run --patch N is asked to do. */
struct run_request {
	int number;
	char **only;            /* --workload names, nonly of them */
	int nonly;
	bool force;             /* measure a patch that is not mm too */
	bool series;            /* run --series: the queue as a whole, not patch number */
	bool mm_only;           /* with series: apply only its mm patches */
	bool all;               /* run --all: every metric's row, the statistics, each failed boot whole */
	/* bisect: only this metric's verdict asks for more boots (NULL: all) */
	const char *focus_workload, *focus_metric;
	/* perfbotd's: its job (boots journaled, resumed; done with the store),
	 * and the flag that stops it once the boots under way end. 0/NULL: none. */
	long long job_id;
	volatile sig_atomic_t *stop;
	/* nightly's and perfbotd's: called once the kernels are built and the
	 * accelerator chosen, before the first boot (NULL: none); why_not says
	 * why no build may run beside these boots, NULL when one may */
	void (*boots_begin)(void *ctx, const struct comparison *cmp, const char *why_not);
	void *ctx;
	/* the commands': the table (--all), the pages and the answer (NULL: none) */
	const struct presenter *show;
};

/* perfbot run --patch N: how it ended (run-end.h), what it found in out (may
 * be NULL), why it could not go on in err. */
enum run_end pipeline_run_patch(const struct pb_config *cfg, const struct pb_queue *q,
				const struct run_request *rq, struct pipeline_outcome *out, pb_err *err);

/* perfbot run --series: the base against the base with the whole queue
 * (pair_decide_series), measured, stored and reported like a patch. */
enum run_end pipeline_run_series(const struct pb_config *cfg, const struct pb_queue *q,
				 const struct run_request *rq, struct pipeline_outcome *out, pb_err *err);

/* What run --patch checks of p before it builds (its workloads, their
 * packages and parameters, the kernel source), for perfbot submit. */
bool pipeline_check_run(const struct pb_config *cfg, const struct pb_patch *p, char **only,
			int nonly, pb_err *err);

/* The stages of run --patch up to its kernels, built or found cached, and
 * no further: nothing stored, no guest. For builds beside boots
 * (prebuild.h); false, with the error said (event_progress), when it
 * could not. */
bool pipeline_build_patch(const struct pb_config *cfg, const struct pb_patch *p);

/* perfbot calibrate; out may be NULL. With
 * reuse, a stored calibration of the same base kernel, accelerator, config,
 * iterations and workload versions, of per_side boots or more, is taken
 * (out names it) instead of booting again. */
enum run_end pipeline_calibrate(const struct pb_config *cfg, const struct pb_queue *q, char **only,
				int nonly, int per_side, bool reuse, struct pipeline_outcome *out,
				pb_err *err);

/* perfbot bench --parallel: the A/A check that guests side by side measure
 * what one guest at a time does. The base kernel boots per_side times a
 * side one at a time, then as often guests at once (under 2: one per host
 * CPU); the two halves are compared as without and with. Every metric the
 * same in every boot one at a time must be the same side by side, every
 * time metric "no change". Says the table and the boots per hour of
 * each; RUN_KERNEL_FAILED (err says why) when the check fails or a boot did. */
enum run_end pipeline_parallel_check(const struct pb_config *cfg, const struct pb_queue *q, char **only,
				     int nonly, int per_side, int guests, pb_err *err);

/* The stages, each a bit of pipeline.done once it has run. What each
 * needs done before it is pipeline.c's table (stage_table): a plan that
 * runs one too early fails an assertion, as SQLite asserts its pager's
 * states. */
enum stage {
	STAGE_WORKLOADS = 1 << 0,   /* chosen, gp */
	STAGE_TREE = 1 << 1,        /* tree */
	STAGE_PAIR = 1 << 2,        /* pair: needs the tree */
	STAGE_SELFTESTS = 1 << 3,   /* needs the workloads and the tree */
	STAGE_CONFIGURE = 1 << 4,   /* kc: needs the tree */
	STAGE_DB = 1 << 5,          /* db, locked */
	STAGE_BUILD = 1 << 6,       /* kernels (the caller's): needs the config */
	STAGE_GUESTS = 1 << 7,      /* log_dir, initrd, accel: needs the workloads */
	STAGE_NOISE = 1 << 8,       /* noise: needs the database, the guests, the config */
	STAGE_BOOTS = 1 << 9,       /* needs the guests */
	STAGE_STORE = 1 << 10,      /* cid: needs the database */
};

/* Everything one pass of the stages holds. Zeroed by pipeline_init, freed
 * (whatever stage it got to) by pipeline_free. */
struct pipeline {
	const struct pb_config *cfg;
	double start;
	unsigned done;                  /* the stages run (enum stage) */
	/* stage_workloads */
	struct workload_set wset;
	const struct workload *chosen[WORKLOADS_MAX];
	int nchosen;
	struct guest_plan gp;
	/* stage_tree, stage_pair, stage_configure */
	struct kernel_tree tree;
	struct pair_plan pair;
	struct kernel_config kc;
	/* stage_guests */
	char *stamp, *log_dir, *initrd;
	struct accel accel;
	/* stage_open_db, stage_noise */
	sqlite3 *db;
	struct noise_floor *noise;
	int nnoise;
	long long noise_calibration;
	/* stage_store, the presenter's pages */
	long long cid;
	char *report;
	pb_err err;
};

void pipeline_init(struct pipeline *pl, const struct pb_config *cfg);
void pipeline_free(struct pipeline *pl);

/* What a plan prepares before its kernels are built, as data: the stages
 * (STAGE_WORKLOADS .. STAGE_DB), which pipeline_prepare runs in their one
 * order (workloads, tree, pair, selftests, configure, database), and
 * their inputs. */
struct prepare {
	unsigned stages;
	/* the workloads: the named ones, else those these patches' paths
	 * choose (none: every one); *why (when why is set; the caller's to
	 * free) says how */
	char **only;
	int nonly;
	const struct pb_patch *const *choose;
	int nchoose;
	char **why;
	/* the pair: a patch's, a series' patches' (series set, even with
	 * nseries 0: refused), else A/A (the base twice) */
	const struct pb_patch *patch;
	const struct pb_patch *const *series;
	int nseries;
	/* what the plan says once a stage is done (NULL: nothing) */
	void (*said)(const struct pipeline *pl, enum stage done, const void *ctx);
	const void *ctx;
};
/* The stages p asks, in order, to the first that fails (pl->err). The
 * database is opened without waiting for its lock. */
bool pipeline_prepare(struct pipeline *pl, const struct prepare *p);

/* Which workloads run: the named ones, else those the paths of ps[] choose
 * (a patch, or a series' mm patches; np 0: every workload); their packages
 * and parameters are checked and the guest plan made. *why (the caller's
 * to free) says how they were chosen. */
bool stage_workloads(struct pipeline *pl, const struct pb_patch *const *ps, int np, char **only,
		     int nonly, char **why);
/* The base tree, extracted or found in the cache. */
bool stage_tree(struct pipeline *pl);
/* The vm selftests the workloads want, built from the tree (or cached). */
bool stage_selftests(struct pipeline *pl);
/* The pair: from the patch (p), or the base on both sides (p NULL: A/A). */
bool stage_pair(struct pipeline *pl, const struct pb_patch *p);
/* The pair of a series (pair_decide_series): the -rc against its base. */
bool stage_pair_series(struct pipeline *pl, const struct pb_patch *const *ps, int np);
bool stage_configure(struct pipeline *pl);
/* pl->pair's kernels built, booted, judged and stored (pl->cid) as a
 * comparison of kind, cmp's patch or series (or neither) set by the
 * caller; nothing printed but the progress, no report. why is taken;
 * name names the log directory. False only when perfbot cannot go on; a
 * failed build or boot is cmp's status. */
bool pipeline_compare(struct pipeline *pl, const struct pb_queue *q, const struct run_request *rq,
		      struct comparison *cmp, enum comparison_kind kind, char *why, const char *name);
/* The results database, locked (perfbotd's job waits while stop allows,
 * anything else refuses) and opened. */
bool stage_open_db(struct pipeline *pl, bool wait, volatile sig_atomic_t *stop);
/* Builds (or finds cached) the kernel of each change into img[], and
 * with announce says which. False only when perfbot cannot go on: a
 * failed build is img's. */
bool stage_build(struct pipeline *pl, const struct kernel_change *const change[2],
		 struct kernel_image img[2], bool announce);
/* The log directory reports/logs/<name>-<stamp>, the initramfs and the
 * accelerator (probed with probe_kernel). */
bool stage_guests(struct pipeline *pl, const char *name, const char *probe_kernel);
/* The noise floor of the latest calibration for this accelerator and config. */
bool stage_noise(struct pipeline *pl);
/* The boot rounds of mp (its guest, initrd and log dir are the pipeline's). */
bool stage_boots(struct pipeline *pl, struct comparison *cmp, struct measure_plan *mp);
bool stage_store(struct pipeline *pl, struct comparison *cmp);

#endif
