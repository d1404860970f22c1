/* The VM runner: an initramfs of busybox + the workloads, QEMU with KVM where
 * it really works and TCG (with -icount for deterministic guest time)
 * otherwise, and what became of each boot. Test kernels run nowhere else.
 * This header brings the accelerator, the guest plan and the outcomes, which
 * every caller of vm_boot uses. */
#ifndef PERFBOT_VM_H
#define PERFBOT_VM_H

#include "accel.h"
#include "config.h"
#include "guest.h"
#include "outcome.h"
#include "results.h"
#include "workload.h"

#define QEMU "qemu-system-x86_64"
/* What perfbot reads of a console a guest wrote: its last 8 MiB (the panic
 * is at its end). */
#define VM_CONSOLE_MAX (8 << 20)

/* Boots kernel + initrd once. Returns false only if perfbot could not start
 * anything (bad log dir); all guest failures are outcomes. */
bool vm_boot(const struct pb_config *cfg, const struct accel *a, const struct guest_plan *gp,
	     const char *kernel, const char *initrd, const char *log_prefix,
	     struct boot_record *br, pb_err *err);

/* "QEMU emulator version 7.2.x", cached. */
const char *qemu_version(void);
/* The host's CPU model ("model name" of /proc/cpuinfo, else the machine
 * uname gives) and its host name, cached: where the guests ran. */
const char *host_cpu_model(void);
const char *host_name(void);

#endif
