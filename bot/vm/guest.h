/* What a guest runs and is given: the plan, its initramfs and its disks. */
#ifndef PERFBOT_GUEST_H
#define PERFBOT_GUEST_H

#include "accel.h"
#include "config.h"
#include "workload.h"

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

/* What a workload measures with, as a SHA-256: its .ini, its binary, the
 * guest's init and perfbot's part of the kernel command line. A noise
 * floor is a prior only for the version it measured ("" when a file
 * cannot be read). */
void guest_workload_fingerprint(const struct pb_config *cfg, const struct workload *w,
				char hex[65]);

/* Writes an uncompressed newc initramfs to out: busybox-static, init, the
 * workload binaries from bin_dir, and the plan. */
bool initramfs_build(const struct guest_plan *gp, const char *init_script, const char *bin_dir,
		     const char *out, pb_err *err);

/* A fresh image for one boot at img: zeros, or an empty ext4 file system. */
bool disk_create(const char *img, const struct disk_def *d, pb_err *err);

/* Makes log_dir, writes the initramfs (*initrd, in log_dir) and chooses the
 * accelerator, probing KVM with probe_kernel. */
bool host_guest_prepare(const struct pb_config *cfg, const struct guest_plan *gp,
			const char *probe_kernel, const char *log_dir, char **initrd,
			struct accel *a, pb_err *err);

#endif
