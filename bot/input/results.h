/* What a guest reports on its second serial port (/dev/ttyS1), one framed
 * line each (workloads/README.md):
 *   PB1 setup <path> <value> ok|failed
 *   PB1 begin <workload>
 *   PB1 sample <workload> <iteration> <metric> <value>
 *   PB1 check <workload> ok|invalid <free text>
 *   PB1 end <workload> <exit status>
 *   PB1 done
 * Anything else on the port is ignored; a boot without "PB1 done" did not
 * finish. */
#ifndef PERFBOT_RESULTS_H
#define PERFBOT_RESULTS_H

#include "util.h"

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

struct boot_results {
	bool done;
	struct result_sample *samples;
	int nsamples, samples_cap;
	struct workload_result *workloads;
	int nworkloads;
	char *setup_failure;   /* first setup line that failed, or NULL */
	int ignored_lines;
};

#define RESULTS_MAX_SAMPLES 200000
#define RESULTS_MAX_WORKLOADS 64

bool results_parse(const char *text, size_t len, struct boot_results *r, pb_err *err);
void results_free(struct boot_results *r);
const struct workload_result *results_workload(const struct boot_results *r, const char *name);
/* Whether the boot ran the workload: it reported it, or (a boot read back
 * from the database, which keeps samples only) has a sample of it. */
bool results_ran(const struct boot_results *r, const char *name);

#endif
