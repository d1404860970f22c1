/* The host side of every subcommand that builds and boots: requirements,
 * the workloads asked for, a timestamp; and, through guest.h and
 * selftests.h, the initramfs, the accelerator and the vm selftests. */
#ifndef PERFBOT_HOST_H
#define PERFBOT_HOST_H

#include "guest.h"
#include "kernel.h"
#include "selftests.h"
#include "vm.h"
#include "workload.h"

/* The fixed requirements and those the workloads declare (host_binary,
 * perf_events); err names what is missing and the apt-get line. */
bool host_check_requirements(const struct workload *const *w, int n, pb_err *err);

/* The workloads named (e.g. with --workload), in the order given. */
bool host_workloads_named(const struct workload_set *set, char **names, int n,
			  const struct workload **out, pb_err *err);

/* How many guests of plan gp boot at once, at most, and why (qemu.parallel,
 * or its auto: one per host CPU under tcg-icount, within the memory
 * available; one under kvm and plain tcg, whose guests' clocks feel each
 * other, and for a workload that says parallel = no). */
int host_guests_at_once(const struct pb_config *cfg, const struct accel *a,
			const struct guest_plan *gp, char *why, size_t whylen);

/* "20261203T101500Z": for log directories. */
char *host_timestamp(void);

#endif
