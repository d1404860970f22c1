/* The host side of every subcommand that builds and boots: requirements,
 * the workloads asked for, the initramfs and the accelerator. */
#ifndef PERFBOT_HOST_H
#define PERFBOT_HOST_H

#include "kernel.h"
#include "vm.h"
#include "workload.h"

/* The fixed requirements and those the workloads declare (host_binary,
 * perf_events); err names what is missing and the apt-get line. */
bool host_check_requirements(const struct workload *const *w, int n, pb_err *err);

/* The workloads named (e.g. with --workload), in the order given. */
bool host_workloads_named(const struct workload_set *set, char **names, int n,
			  const struct workload **out, pb_err *err);

/* "20261203T101500Z": for log directories. */
char *host_timestamp(void);

/* The tree's vm selftests, built (or found cached) when a workload of gp
 * declares selftests = vm. */
bool host_selftests(const struct kernel_tree *t, struct guest_plan *gp, pb_err *err);

/* Makes log_dir, writes the initramfs (*initrd, in log_dir) and chooses the
 * accelerator, probing KVM with probe_kernel. */
bool host_guest_prepare(const struct pb_config *cfg, const struct guest_plan *gp,
			const char *probe_kernel, const char *log_dir, char **initrd,
			struct accel *a, pb_err *err);

#endif
