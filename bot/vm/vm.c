/* One boot under QEMU: its command line (accelerator, vCPUs, NUMA nodes,
 * disks, the two serial ports), the run with its timeout, and reading back
 * what the guest wrote, bounded, for the outcome. */
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* What perfbot reads of files a guest wrote: a results port larger than
 * 32 MiB is a flood. */
#define VM_RESULTS_MAX (32 << 20)

const char *qemu_version(void)
{
	static char version[128];

	if (!version[0]) {
		char *argv[] = { QEMU, "--version", NULL };
		pb_str out;
		int st;

		str_init(&out);
		if (spawn_capture(argv, NULL, false, &out, &st) && st == 0) {
			char *nl = strchr(out.buf, '\n');

			if (nl)
				*nl = '\0';
			snprintf(version, sizeof(version), "%s", out.buf);
		} else {
			snprintf(version, sizeof(version), "unknown");
		}
		str_free(&out);
	}
	return version;
}

const char *host_cpu_model(void)
{
	static char model[128];

	if (!model[0]) {
		FILE *f = fopen("/proc/cpuinfo", "r");
		char line[256];

		char arm[2][32] = { "", "" }; /* arm64 has no model name: its implementer and part */

		while (f && !model[0] && fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!colon)
				continue;
			colon += strspn(colon + 1, " \t") + 1;
			colon[strcspn(colon, "\n")] = '\0';
			if (!strncmp(line, "model name", 10))
				snprintf(model, sizeof(model), "%s", colon);
			else if (!strncmp(line, "CPU implementer", 15))
				snprintf(arm[0], sizeof(arm[0]), "%s", colon);
			else if (!strncmp(line, "CPU part", 8))
				snprintf(arm[1], sizeof(arm[1]), "%s", colon);
		}
		if (!model[0] && arm[0][0])
			snprintf(model, sizeof(model), "arm implementer %s part %s", arm[0], arm[1]);
		if (f)
			fclose(f);
		if (!model[0]) {
			struct utsname u;

			snprintf(model, sizeof(model), "%s", uname(&u) == 0 ? u.machine : "unknown");
		}
	}
	return model;
}

const char *host_name(void)
{
	static char name[256];

	if (!name[0] && (gethostname(name, sizeof(name) - 1) != 0 || !name[0]))
		snprintf(name, sizeof(name), "unknown");
	return name;
}

static void add_arg(char ***argv, int *n, const char *s)
{
	*argv = xrealloc(*argv, sizeof(char *) * (size_t)(*n + 2));
	(*argv)[(*n)++] = xstrdup(s);
	(*argv)[*n] = NULL;
}

static void argv_free(char **argv, int n)
{
	for (int i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
}

/* An option and its value, which this frees. */
static void add_opt(char ***argv, int *n, const char *opt, char *value)
{
	add_arg(argv, n, opt);
	add_arg(argv, n, value);
	free(value);
}

/* One -object memory backend and one -numa node per node, the memory split
 * evenly (the last node takes the rest), the vCPUs in blocks. */
static void qemu_numa_args(char ***argv, int *n, const struct pb_config *cfg, int nodes, int vcpus)
{
	int per = (vcpus + nodes - 1) / nodes, left = cfg->memory_mb;

	for (int i = 0; i < nodes; i++) {
		int mb = i == nodes - 1 ? left : cfg->memory_mb / nodes;
		int c0 = i * per, c1 = c0 + per - 1 < vcpus - 1 ? c0 + per - 1 : vcpus - 1;

		left -= mb;
		add_opt(argv, n, "-object", xasprintf("memory-backend-ram,id=m%d,size=%dM", i, mb));
		/* A node past the last vCPU gets memory only. */
		if (c0 < vcpus)
			add_opt(argv, n, "-numa",
				xasprintf("node,nodeid=%d,cpus=%d-%d,memdev=m%d", i, c0, c1, i));
		else
			add_opt(argv, n, "-numa", xasprintf("node,nodeid=%d,memdev=m%d", i, i));
	}
}

/* The machine: no defaults, no network, the accelerator, vCPUs, memory and
 * NUMA nodes. */
static void qemu_machine_args(char ***argv, int *n, const struct pb_config *cfg,
			      const struct accel *a, const struct guest_plan *gp)
{
	int vcpus = a->kind != ACCEL_TCG_ICOUNT ? cfg->vcpus : 1;

	add_arg(argv, n, QEMU);
	for (const char *s = "-nodefaults\0-no-user-config\0-display\0none\0-no-reboot\0-nic\0none\0";
	     *s; s += strlen(s) + 1)
		add_arg(argv, n, s);
	add_arg(argv, n, "-accel");
	/* Plain TCG runs the vCPUs one host thread each (MTTCG) by default,
	 * and QEMU 7.2's then misses a guest rewriting its own kernel text now
	 * and then: a vCPU keeps the stale translation with text_poke_bp's
	 * int3 in it, whose handler sees the finished instruction in memory
	 * and steps back onto the int3 forever, IRQs off, while the other
	 * vCPU waits for it in on_each_cpu(): the boot hangs silently or with
	 * an RCU stall. A trace event toggled (thp-anon) or a hugetlb static
	 * key flipped (kselftest-vm) patches text. Toggling one 300 times
	 * hung 7 of 7 guests multi-threaded, 0 of 8 with thread=single, which
	 * runs the 2 vCPUs round-robin on one host thread. */
	/* QEMU's accelerators are named as perfbot's are */
	add_arg(argv, n, a->kind == ACCEL_KVM ? accel_kind_name(ACCEL_KVM)
			 : a->kind != ACCEL_TCG ? accel_kind_name(ACCEL_TCG)
			 /* make tcg-soak's control: the threads that hang */
			 : fault_injected("mttcg") ? "tcg,thread=multi"
						   : "tcg,thread=single");
	if (a->kind == ACCEL_TCG_ICOUNT) {
		/* Guest time follows the instruction count: the same work reads the
		 * same time in every boot. -icount needs one vCPU (two hung here). */
		add_arg(argv, n, "-icount");
		add_arg(argv, n, "shift=0");
	}
	add_opt(argv, n, "-smp", xasprintf("%d", vcpus));
	add_opt(argv, n, "-m", xasprintf("%d", cfg->memory_mb));
	if (gp->numa_nodes > 1)
		qemu_numa_args(argv, n, cfg, gp->numa_nodes, vcpus);
}

static char *disk_image_path(const char *log_prefix, const struct guest_disk *gd)
{
	return xasprintf("%s.disk-%s.img", log_prefix, gd->def->name);
}

/* A fresh image for each disk of the plan, attached in order (vda, ...). */
static bool qemu_disk_args(char ***argv, int *n, const struct guest_plan *gp,
			   const char *log_prefix, pb_err *err)
{
	for (int d = 0; d < gp->ndisks; d++) {
		char *img = disk_image_path(log_prefix, &gp->disks[d]);

		if (!disk_create(img, gp->disks[d].def, err)) {
			free(img);
			return false;
		}
		add_opt(argv, n, "-drive", xasprintf("file=%s,if=virtio,format=raw,cache=unsafe", img));
		free(img);
	}
	return true;
}

static int boots_begun; /* by this process, for PERFBOT_FAULT=hang-boot=K */

/* The kernel, initramfs and command line; the console on the first serial
 * port, the results on the second. */
static void qemu_boot_args(char ***argv, int *n, const struct guest_plan *gp, const char *kernel,
			   const char *initrd, const struct boot_record *br)
{
	add_arg(argv, n, "-kernel");
	add_arg(argv, n, kernel);
	add_arg(argv, n, "-initrd");
	add_arg(argv, n, initrd);
	add_arg(argv, n, "-append");
	/* the tests' one failed boot: PERFBOT_FAULT=hang-boot=K makes the K-th
	 * boot of this process hang after its first workload (the guest's init
	 * reads perfbot.fault=hang), so that it times out with half its
	 * samples, as a flaky guest does */
	if (fault_number("hang-boot") > 0 &&
	    __atomic_add_fetch(&boots_begun, 1, __ATOMIC_SEQ_CST) == fault_number("hang-boot")) {
		char *line = xasprintf("%s perfbot.fault=hang", gp->kernel_cmdline);

		add_arg(argv, n, line);
		free(line);
	} else {
		add_arg(argv, n, gp->kernel_cmdline);
	}
	add_opt(argv, n, "-serial", xasprintf("file:%s", br->console_log));
	add_opt(argv, n, "-serial", xasprintf("file:%s", br->results_log));
}

static char *argv_line(char *const *argv, int n)
{
	pb_str line;

	str_init(&line);
	for (int i = 0; i < n; i++)
		str_addf(&line, i ? " %s" : "%s", argv[i]);
	return str_steal(&line);
}

/* What the guest left, read bounded, and the outcome from it. The disk
 * images are scratch space (the guest writes only there): removed. */
static void boot_read_back(const struct pb_config *cfg, const struct guest_plan *gp,
			   const char *log_prefix, const char *qemu_log,
			   const struct spawn_result *r, struct boot_record *br)
{
	char *console, *results, *qlog;
	size_t rlen = 0;
	struct stat st;
	bool flooded;

	/* The kernel under test wrote these: bounded, whatever it printed. The
	 * results port is read whole up to a limit results_parse refuses. */
	console = read_file_tail(br->console_log, VM_CONSOLE_MAX, NULL);
	flooded = stat(br->results_log, &st) == 0 && st.st_size > VM_RESULTS_MAX;
	results = flooded ? NULL : read_file(br->results_log, &rlen, NULL);
	qlog = read_file_tail(qemu_log, 1 << 20, NULL);
	for (int d = 0; d < gp->ndisks; d++) {
		char *img = disk_image_path(log_prefix, &gp->disks[d]);

		unlink(img);
		free(img);
	}
	if (flooded) {
		br->outcome = BOOT_INVALID;
		br->detail = xasprintf("results port: the guest wrote more than %d MiB", VM_RESULTS_MAX >> 20);
	} else {
		boot_classify(br, gp, console ? console : "", results ? results : "", results ? rlen : 0,
			      qlog ? qlog : "", r->timed_out, r->status, cfg->boot_timeout);
	}
	free(console);
	free(results);
	free(qlog);
}

bool vm_boot(const struct pb_config *cfg, const struct accel *a, const struct guest_plan *gp,
	     const char *kernel, const char *initrd, const char *log_prefix,
	     struct boot_record *br, pb_err *err)
{
	char **argv = NULL, *qemu_log;
	int n = 0;
	struct spawn_opts o = { 0 };
	struct spawn_result r;
	bool ok;

	memset(br, 0, sizeof(*br));
	br->console_log = xasprintf("%s.console.log", log_prefix);
	br->results_log = xasprintf("%s.results.log", log_prefix);
	qemu_log = xasprintf("%s.qemu.log", log_prefix);
	unlink(br->console_log);
	unlink(br->results_log);

	qemu_machine_args(&argv, &n, cfg, a, gp);
	ok = qemu_disk_args(&argv, &n, gp, log_prefix, err);
	if (ok) {
		qemu_boot_args(&argv, &n, gp, kernel, initrd, br);
		br->qemu_cmdline = argv_line(argv, n);
		o.stdout_path = qemu_log;
		o.stderr_path = "=stdout";
		o.timeout = cfg->boot_timeout;
		ok = spawn_wait(argv, &o, &r);
		if (!ok)
			pb_seterr(err, "%s cannot be started (apt-get install qemu-system-x86)", QEMU);
	}
	if (ok) {
		br->wall_seconds = r.seconds;
		boot_read_back(cfg, gp, log_prefix, qemu_log, &r, br);
	}
	argv_free(argv, n);
	free(qemu_log);
	return ok;
}
