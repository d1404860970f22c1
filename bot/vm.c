/* One boot under QEMU: its command line (accelerator, vCPUs, NUMA nodes,
 * disks, the two serial ports), the run with its timeout, and reading back
 * what the guest wrote, bounded, for the outcome. */
#include "vm.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static void add_arg(char ***argv, int *n, const char *s)
{
	*argv = xrealloc(*argv, sizeof(char *) * (size_t)(*n + 2));
	(*argv)[(*n)++] = xstrdup(s);
	(*argv)[*n] = NULL;
}

bool vm_boot(const struct pb_config *cfg, const struct accel *a, const struct guest_plan *gp,
	     const char *kernel, const char *initrd, const char *log_prefix,
	     struct boot_record *br, pb_err *err)
{
	char **argv = NULL, *qemu_log, *tmp, *console = NULL, *qlog = NULL, *results = NULL;
	int n = 0, vcpus = strcmp(a->name, "tcg-icount") ? cfg->vcpus : 1;
	int nodes = gp->numa_nodes, per = (vcpus + nodes - 1) / nodes;
	struct spawn_opts o = { 0 };
	struct spawn_result r;
	pb_str line;
	size_t rlen = 0;
	bool flooded;

	memset(br, 0, sizeof(*br));
	br->console_log = xasprintf("%s.console.log", log_prefix);
	br->results_log = xasprintf("%s.results.log", log_prefix);
	qemu_log = xasprintf("%s.qemu.log", log_prefix);
	unlink(br->console_log);
	unlink(br->results_log);

	add_arg(&argv, &n, QEMU);
	for (const char *s = "-nodefaults\0-no-user-config\0-display\0none\0-no-reboot\0-nic\0none\0";
	     *s; s += strlen(s) + 1)
		add_arg(&argv, &n, s);
	add_arg(&argv, &n, "-accel");
	add_arg(&argv, &n, strcmp(a->name, "kvm") ? "tcg" : "kvm");
	if (!strcmp(a->name, "tcg-icount")) {
		/* Guest time follows the instruction count: the same work reads the
		 * same time in every boot. -icount needs one vCPU (two hung here). */
		add_arg(&argv, &n, "-icount");
		add_arg(&argv, &n, "shift=0");
	}
	tmp = xasprintf("%d", vcpus);
	add_arg(&argv, &n, "-smp");
	add_arg(&argv, &n, tmp);
	free(tmp);
	tmp = xasprintf("%d", cfg->memory_mb);
	add_arg(&argv, &n, "-m");
	add_arg(&argv, &n, tmp);
	free(tmp);
	if (nodes > 1) {
		int left = cfg->memory_mb;

		for (int i = 0; i < nodes; i++) {
			int mb = i == nodes - 1 ? left : cfg->memory_mb / nodes;
			int c0 = i * per, c1 = c0 + per - 1 < vcpus - 1 ? c0 + per - 1 : vcpus - 1;

			left -= mb;
			tmp = xasprintf("memory-backend-ram,id=m%d,size=%dM", i, mb);
			add_arg(&argv, &n, "-object");
			add_arg(&argv, &n, tmp);
			free(tmp);
			/* A node past the last vCPU gets memory only. */
			if (c0 < vcpus)
				tmp = xasprintf("node,nodeid=%d,cpus=%d-%d,memdev=m%d", i, c0, c1, i);
			else
				tmp = xasprintf("node,nodeid=%d,memdev=m%d", i, i);
			add_arg(&argv, &n, "-numa");
			add_arg(&argv, &n, tmp);
			free(tmp);
		}
	}
	for (int d = 0; d < gp->ndisks; d++) {
		char *img = xasprintf("%s.disk-%s.img", log_prefix, gp->disks[d].def->name);

		if (!disk_create(img, gp->disks[d].def, err)) {
			free(img);
			for (int i = 0; i < n; i++)
				free(argv[i]);
			free(argv);
			free(qemu_log);
			return false;
		}
		tmp = xasprintf("file=%s,if=virtio,format=raw,cache=unsafe", img);
		add_arg(&argv, &n, "-drive");
		add_arg(&argv, &n, tmp);
		free(tmp);
		free(img);
	}
	add_arg(&argv, &n, "-kernel");
	add_arg(&argv, &n, kernel);
	add_arg(&argv, &n, "-initrd");
	add_arg(&argv, &n, initrd);
	add_arg(&argv, &n, "-append");
	add_arg(&argv, &n, gp->kernel_cmdline);
	tmp = xasprintf("file:%s", br->console_log);
	add_arg(&argv, &n, "-serial");
	add_arg(&argv, &n, tmp);
	free(tmp);
	tmp = xasprintf("file:%s", br->results_log);
	add_arg(&argv, &n, "-serial");
	add_arg(&argv, &n, tmp);
	free(tmp);

	str_init(&line);
	for (int i = 0; i < n; i++)
		str_addf(&line, i ? " %s" : "%s", argv[i]);
	br->qemu_cmdline = str_steal(&line);

	o.stdout_path = qemu_log;
	o.stderr_path = "=stdout";
	o.timeout = cfg->boot_timeout;
	if (!spawn_wait(argv, &o, &r)) {
		pb_seterr(err, "%s cannot be started (apt-get install qemu-system-x86)", QEMU);
		for (int i = 0; i < n; i++)
			free(argv[i]);
		free(argv);
		free(qemu_log);
		return false;
	}
	br->wall_seconds = r.seconds;

	/* The kernel under test wrote these: bounded, whatever it printed. The
	 * results port is read whole up to a limit results_parse refuses. */
	console = read_file_tail(br->console_log, VM_CONSOLE_MAX, NULL);
	{
		struct stat st;

		flooded = stat(br->results_log, &st) == 0 && st.st_size > VM_RESULTS_MAX;
		results = flooded ? NULL : read_file(br->results_log, &rlen, NULL);
	}
	qlog = read_file_tail(qemu_log, 1 << 20, NULL);
	/* The images are scratch space: the guest writes only there. */
	for (int d = 0; d < gp->ndisks; d++) {
		char *img = xasprintf("%s.disk-%s.img", log_prefix, gp->disks[d].def->name);

		unlink(img);
		free(img);
	}
	if (flooded) {
		br->outcome = BOOT_INVALID;
		br->detail = xasprintf("results port: the guest wrote more than %d MiB", VM_RESULTS_MAX >> 20);
	} else {
		boot_classify(br, gp, console ? console : "", results ? results : "", results ? rlen : 0,
			      qlog ? qlog : "", r.timed_out, r.status, cfg->boot_timeout);
	}
	for (int i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	free(qemu_log);
	free(console);
	free(results);
	free(qlog);
	return true;
}
