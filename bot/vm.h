/* The VM runner: an initramfs of busybox + the workloads, QEMU with KVM where
 * it really works and TCG (with -icount for deterministic guest time)
 * otherwise, and what became of each boot. Test kernels run nowhere else. */
#ifndef PERFBOT_VM_H
#define PERFBOT_VM_H

#include "config.h"
#include "results.h"
#include "workload.h"

/* What a boot ended as. */
enum boot_outcome {
	BOOT_OK,          /* every workload ran and its check passed */
	BOOT_INVALID,     /* it ran, but a workload's check failed or it reported nothing */
	BOOT_PANIC,       /* the kernel panicked (panic=-1 + -no-reboot stops QEMU) */
	BOOT_TIMEOUT,     /* no "PB1 done" within the boot timeout */
	BOOT_QEMU_ERROR,  /* QEMU itself failed */
	BOOT_INCOMPLETE,  /* the guest stopped without reporting done */
};
const char *boot_outcome_name(enum boot_outcome o);

struct accel {
	char name[16];    /* "kvm", "tcg" or "tcg-icount" */
	char reason[400]; /* why this one: recorded with every run and shown in the report */
};

/* Decides the accelerator. For auto, KVM must pass a probe boot of kernel
 * (it prints on the serial console within cfg->kvm_probe_timeout). */
bool accel_choose(const struct pb_config *cfg, const char *kernel, const char *scratch_dir,
		  struct accel *a, pb_err *err);

#define GUEST_MAX_DISKS 16
/* perf, copied into the guest for workloads that declare perf_events */
#define GUEST_PERF "/usr/bin/perf"

struct guest_disk {
	const struct disk_def *def;
	char dev[16];          /* /dev/vda, ... in the order they are attached */
};

/* What a guest runs: each workload with its arguments, after its set-up. */
struct guest_plan {
	const struct workload **workloads;
	int nworkloads;
	int numa_nodes;        /* the largest any workload needs, at least cfg's */
	char *kernel_cmdline;  /* console, panic and every workload's additions */
	char **args;           /* each workload's arguments, parameters filled in */
	struct guest_disk disks[GUEST_MAX_DISKS];
	int ndisks;
	char *selftests_dir;   /* built vm selftests for /selftests, NULL if none is wanted */
};

/* Fails (err set) when the configuration gives a workload a parameter it
 * does not have. */
bool guest_plan_init(struct guest_plan *gp, const struct pb_config *cfg,
		     const struct workload **w, int n, pb_err *err);
void guest_plan_free(struct guest_plan *gp);

/* Writes an uncompressed newc initramfs to out: busybox-static, init, the
 * workload binaries from bin_dir, and the plan. */
bool initramfs_build(const struct guest_plan *gp, const char *init_script, const char *bin_dir,
		     const char *out, pb_err *err);

struct boot_record {
	enum boot_outcome outcome;
	char *detail;          /* panic text, timeout, the failed check, ... */
	char *console_log, *results_log;
	char *qemu_cmdline;    /* the argv as one line */
	double wall_seconds;
	struct boot_results results;
};

/* Boots kernel + initrd once. Returns false only if perfbot could not start
 * anything (bad log dir); all guest failures are outcomes. */
bool vm_boot(const struct pb_config *cfg, const struct accel *a, const struct guest_plan *gp,
	     const char *kernel, const char *initrd, const char *log_prefix,
	     struct boot_record *br, pb_err *err);
void boot_record_free(struct boot_record *br);

/* The outcome of a boot from what it left: the console, the results port,
 * QEMU's own output and exit. Sets br->outcome, detail and results. */
void boot_classify(struct boot_record *br, const struct guest_plan *gp, const char *console,
		   const char *results, size_t rlen, const char *qemu_log, bool timed_out,
		   int qemu_status, int timeout_s);

/* "QEMU emulator version 7.2.x", cached. */
const char *qemu_version(void);

#endif
