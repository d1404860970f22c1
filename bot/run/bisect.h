/* perfbot bisect: which patch of a series made the change its series run
 * found. The series' prefixes are kernels of their own (prefix 0 is the
 * series comparison's kernel without, prefix n its kernel with); each step
 * compares two of them with the same procedure as a run, judged on one
 * metric alone; the culprit is confirmed as KernelCI asks: the change
 * reproduced between prefixes k-1 and k in two independent comparisons,
 * and absent between prefix 0 and k-1. */
#ifndef PERFBOT_BISECT_H
#define PERFBOT_BISECT_H

#include <sqlite3.h>

#include "config.h"
#include "run-end.h"
#include "present.h"
#include "queue.h"

struct bisect_request {
	long long series_cid;   /* the series comparison; 0: the queue's newest */
	const char *metric;     /* "workload.metric"; NULL: what the series showed */
	const struct presenter *show; /* the commands': the series' page (NULL: none) */
};

/* RUN_DONE: a culprit confirmed; RUN_KERNEL_FAILED: none confirmed (stored);
 * RUN_FAILED: an error, or the series showed nothing to bisect (err). */
enum run_end pipeline_bisect(const struct pb_config *cfg, const struct pb_queue *q,
			     const struct bisect_request *rq, pb_err *err);

/* The series comparison rq names in db (as pipeline_bisect finds it, and
 * refuses it: a metric not "workload.metric", nothing to bisect): its id
 * into *id. For a bisect run elsewhere (a Slurm job). */
bool bisect_find_series(sqlite3 *db, const struct pb_queue *q, const struct bisect_request *rq,
			long long *id, pb_err *err);

/* The series' prefix k as the steps of applied (n of them): forward, its
 * first k; the queue taken out of the base (reverse), the reverts of the
 * patches after k, which are the first n - k. */
int bisect_prefix_steps(int k, int n, bool reverse);
/* The series position (1..n) of step i's patch. */
int bisect_step_position(int i, int n, bool reverse);

#endif
