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

#include "boot.h"
#include "util.h"

#define RESULTS_MAX_SAMPLES 200000
#define RESULTS_MAX_WORKLOADS 64

bool results_parse(const char *text, size_t len, struct boot_results *r, pb_err *err);
const struct workload_result *results_workload(const struct boot_results *r, const char *name);
/* Whether the boot ran the workload: it reported it, or (a boot read back
 * from the database, which keeps samples only) has a sample of it. */
bool results_ran(const struct boot_results *r, const char *name);

#endif
