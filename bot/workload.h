/* The workload table: workloads/<name>.ini declares each guest program, the
 * guest it needs, the patches it is for, and its metrics (unit, direction). */
#ifndef PERFBOT_WORKLOAD_H
#define PERFBOT_WORKLOAD_H

#include "queue.h"
#include "util.h"

enum metric_kind { METRIC_TIME, METRIC_BEHAVIOUR };

struct metric_def {
	char *name, *unit, *description;
	int better;             /* +1 higher is better, -1 lower is better */
	enum metric_kind kind;  /* time: compared as performance; behaviour: any difference counts */
};

struct workload {
	char *name;             /* the .ini file's name */
	char *binary, *description, *args, *kernel_cmdline;
	int numa_nodes;
	char **setup;           /* "path value": written in the guest before the run */
	int nsetup;
	char **paths;           /* patch path prefixes this workload covers */
	int npaths;
	struct metric_def *metrics;
	int nmetrics;
};

struct workload_set {
	struct workload *w;
	int n;
};

bool workloads_load(const char *dir, struct workload_set *set, pb_err *err);
bool workload_load_file(const char *path, struct workload *w, pb_err *err);
void workloads_free(struct workload_set *set);
const struct workload *workload_find(const struct workload_set *set, const char *name);
const struct metric_def *workload_metric(const struct workload *w, const char *name);

/* The workloads whose paths cover a file of the patch; *fallback is set when
 * none does and every workload is chosen instead. Returns how many. */
int workloads_for_patch(const struct workload_set *set, const struct pb_patch *p,
			const struct workload **out, int max, bool *fallback);

/* args with {iterations} replaced. */
char *workload_args(const struct workload *w, int iterations);

#endif
