/* The workload table: workloads/<name>.ini declares each guest program, the
 * guest it needs, the patches it is for, and its metrics (unit, direction). */
#ifndef PERFBOT_WORKLOAD_H
#define PERFBOT_WORKLOAD_H

#include "config.h"
#include "findings.h"
#include "queue.h"
#include "util.h"

/* One step of a workload's guest set-up, run by init in declared order. */
struct guest_step {
	char kind;              /* 'w': write "path value"; 'x': run a command */
	char *text;             /* may name a disk as {disk:NAME} */
};

/* A disk image the guest gets as a virtio disk, made fresh for every boot. */
struct disk_def {
	char *name;
	int size_mb;
	char *fs;               /* "ext4" (made on the host) or "raw" (zeros) */
};

struct workload {
	char *name;             /* the .ini file's name */
	char *binary, *description, *args, *kernel_cmdline;
	int numa_nodes;
	bool iterates;          /* args take {iterations}: iterations 1..warmup are warm-up */
	struct guest_step *steps; /* setup = / run_before = lines, in order */
	int nsteps;
	struct disk_def *disks;
	int ndisks;
	char **paths;           /* patch path prefixes this workload covers */
	int npaths;
	bool fallback;          /* runs for an mm patch that no workload's paths cover */
	bool side_by_side;      /* parallel = yes (the default): its guests may boot beside others */
	char **host_binaries;   /* host programs copied into the guest with their libraries */
	int nhost_binaries;
	char *host_package;     /* the Debian package that brings them */
	char *perf_events;      /* software events perf stat counts around the run, or NULL */
	bool selftests_vm;      /* the tree's tools/testing/selftests/vm go into /selftests */
	struct metric_def *metrics;
	int nmetrics;
};

/* The most workloads one run chooses (run --workload is repeatable as often). */
#define WORKLOADS_MAX 32

struct workload_set {
	struct workload *w;
	int n;
};

bool workloads_load(const char *dir, struct workload_set *set, pb_err *err);
bool workload_load_file(const char *path, struct workload *w, pb_err *err);
void workloads_free(struct workload_set *set);
const struct workload *workload_find(const struct workload_set *set, const char *name);
const struct metric_def *workload_metric(const struct workload *w, const char *name);
/* A workload without a time metric (the kernel's selftests: pass or fail)
 * says all it has to say in one ok boot of each kernel. */
bool workload_once_per_side(const struct workload *w);
/* The disk of w whose name is the len bytes at name, or NULL. */
const struct disk_def *workload_disk(const struct workload *w, const char *name, size_t len);

/* The workloads whose paths cover a file of the patch; *fallback is set when
 * none does and the fallback workloads (every one, if none is marked) are
 * chosen instead. Returns how many. */
int workloads_for_patch(const struct workload_set *set, const struct pb_patch *p,
			const struct workload **out, int max, bool *fallback);
/* The union of what each of ps[] chooses (a series: its mm patches), in
 * the set's order; the fallback set only when none chooses any. */
int workloads_for_patches(const struct workload_set *set, const struct pb_patch *const *ps, int np,
			  const struct workload **out, int max, bool *fallback);

/* args with {iterations} and every {key=default} filled in from the
 * configuration's [workload NAME] section; NULL (err set) when that section
 * names a parameter the workload does not have. */
char *workload_args(const struct workload *w, const struct pb_config *cfg, pb_err *err);

#endif
