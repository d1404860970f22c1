/* The observations of a comparison: what one boot left (its outcome and
 * the samples its guest reported, results.h's lines parsed), and the
 * boots of both kernels, as the statistics see them. */
#ifndef PERFBOT_BOOT_H
#define PERFBOT_BOOT_H

#include <stdbool.h>

#include "names.h"

struct workload;

/* One value a workload reported: PB1 sample <workload> <iteration> <metric> <value>. */
struct result_sample {
	char *workload, *metric;
	int iteration;
	double value;
};

struct workload_result {
	char *name;
	bool begun, ended, checked, ok;
	int exit_status;
	char *reason;          /* from the check line */
};

/* What a guest reported on its results port. */
struct boot_results {
	bool done;
	struct result_sample *samples;
	int nsamples, samples_cap;
	struct workload_result *workloads;
	int nworkloads;
	char *setup_failure;   /* first setup line that failed, or NULL */
	int ignored_lines;
};
void results_free(struct boot_results *r);

struct boot_record {
	enum boot_outcome outcome;
	char *detail;          /* panic text, timeout, the failed check, ... */
	char *console_log, *results_log;
	char *qemu_cmdline;    /* the argv as one line */
	double wall_seconds;
	struct boot_results results;
};
void boot_record_free(struct boot_record *br);

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

#endif
