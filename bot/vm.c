#include "vm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define QEMU "qemu-system-x86_64"
#define BUSYBOX "/bin/busybox"
/* What perfbot reads of files a guest wrote: a console's last 8 MiB (the
 * panic is at its end); a results port larger than 32 MiB is a flood. */
#define VM_CONSOLE_MAX (8 << 20)
#define VM_RESULTS_MAX (32 << 20)

const char *boot_outcome_name(enum boot_outcome o)
{
	static const char *const names[] = { "ok", "invalid", "boot-panic", "timeout",
					     "qemu-error", "incomplete" };

	return (unsigned)o < PB_ARRAY_SIZE(names) ? names[o] : "?";
}

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

static bool cpu_has_virt_flags(void)
{
	char *info = read_file("/proc/cpuinfo", NULL, NULL), *line, *save = NULL;
	bool found = false;

	if (!info)
		return false;
	for (line = strtok_r(info, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save))
		if (starts_with(line, "flags"))
			found = strstr(line, " vmx") || strstr(line, " svm");
	free(info);
	return found;
}

/* A KVM that cannot run a normal kernel prints nothing at all (seen on
 * hosts whose /dev/kvm comes from kvm_pvm): boot once and look. */
static bool kvm_probe_boot(const struct pb_config *cfg, const char *kernel, const char *dir,
			   double *seconds)
{
	char *console = xasprintf("%s/kvm-probe.console.log", dir);
	char *serial = xasprintf("file:%s", console);
	char *argv[] = { QEMU, "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
			 "-nic", "none", "-accel", "kvm", "-smp", "1", "-m", "512", "-kernel",
			 (char *)kernel, "-append", "console=ttyS0 panic=-1", "-serial", serial, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "", .timeout = cfg->kvm_probe_timeout };
	struct spawn_result r;
	char *text;
	bool ok;

	unlink(console);
	spawn_wait(argv, &o, &r);
	*seconds = r.seconds;
	text = read_file_tail(console, VM_CONSOLE_MAX, NULL);
	ok = text && strstr(text, "Linux version");
	free(text);
	free(console);
	free(serial);
	return ok;
}

bool accel_choose(const struct pb_config *cfg, const char *kernel, const char *scratch_dir,
		  struct accel *a, pb_err *err)
{
	bool flags = cpu_has_virt_flags();
	bool dev = access("/dev/kvm", R_OK | W_OK) == 0;
	double secs = 0;

	memset(a, 0, sizeof(*a));
	switch (cfg->accel) {
	case ACCEL_TCG:
		snprintf(a->name, sizeof(a->name), "tcg");
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration (plain TCG: wall-clock guest time)");
		return true;
	case ACCEL_TCG_ICOUNT:
		snprintf(a->name, sizeof(a->name), "tcg-icount");
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration (TCG -icount shift=0: guest time counts instructions)");
		return true;
	case ACCEL_KVM:
		if (!dev) {
			pb_seterr(err, "qemu.accel = kvm, but /dev/kvm cannot be opened");
			return false;
		}
		if (!kvm_probe_boot(cfg, kernel, scratch_dir, &secs)) {
			pb_seterr(err, "qemu.accel = kvm, but a probe boot under KVM printed nothing in %d s "
				  "(use auto or tcg-icount)", cfg->kvm_probe_timeout);
			return false;
		}
		snprintf(a->name, sizeof(a->name), "kvm");
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration; probe boot printed in %.1f s", secs);
		return true;
	default:
		break;
	}
	snprintf(a->name, sizeof(a->name), "tcg-icount");
	if (!dev) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: no usable /dev/kvm, so TCG with -icount shift=0 (deterministic guest time)");
	} else if (!flags) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: /dev/kvm exists but the CPU flags show no vmx/svm, so KVM cannot boot a "
			 "normal kernel here; fell back to TCG with -icount shift=0 (deterministic guest time)");
	} else if (!kvm_probe_boot(cfg, kernel, scratch_dir, &secs)) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: a probe boot under KVM printed nothing in %d s; fell back to TCG with "
			 "-icount shift=0 (deterministic guest time)", cfg->kvm_probe_timeout);
	} else {
		snprintf(a->name, sizeof(a->name), "kvm");
		snprintf(a->reason, sizeof(a->reason),
			 "auto: vmx/svm present and a probe boot under KVM printed in %.1f s", secs);
	}
	return true;
}

static bool cmdline_has(const char *cmdline, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = cmdline; (s = strstr(s, word)); s += n)
		if ((s == cmdline || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return true;
	return false;
}

bool guest_plan_init(struct guest_plan *gp, const struct pb_config *cfg,
		     const struct workload **w, int n, pb_err *err)
{
	pb_str cmd;

	memset(gp, 0, sizeof(*gp));
	gp->workloads = w;
	gp->nworkloads = n;
	gp->numa_nodes = cfg->numa_nodes;
	str_init(&cmd);
	/* panic=-1 with -no-reboot turns a panic into QEMU exiting, never a hang
	 * (CONFIG_PANIC_TIMEOUT=-1 does it before panic= is parsed); earlyprintk
	 * shows what the kernel printed before the serial console came up. */
	str_add(&cmd, "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 oops=panic quiet "
		      "rdinit=/init");
	for (int i = 0; i < n; i++) {
		char *copy = xstrdup(w[i]->kernel_cmdline), *tok, *save = NULL;

		if (w[i]->numa_nodes > gp->numa_nodes)
			gp->numa_nodes = w[i]->numa_nodes;
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			if (!cmdline_has(cmd.buf, tok))
				str_addf(&cmd, " %s", tok);
		free(copy);
	}
	gp->kernel_cmdline = str_steal(&cmd);
	gp->args = xcalloc((size_t)(n ? n : 1), sizeof(char *));
	for (int i = 0; i < n; i++)
		if (!(gp->args[i] = workload_args(w[i], cfg, err))) {
			guest_plan_free(gp);
			return false;
		}
	/* Every disk of every workload, in order: vda, vdb, ... */
	for (int i = 0; i < n; i++)
		for (int d = 0; d < w[i]->ndisks; d++) {
			struct guest_disk *gd = &gp->disks[gp->ndisks];

			if (gp->ndisks == GUEST_MAX_DISKS) {
				pb_seterr(err, "the workloads of this run declare more than %d disks",
					  GUEST_MAX_DISKS);
				guest_plan_free(gp);
				return false;
			}
			gd->def = &w[i]->disks[d];
			snprintf(gd->dev, sizeof(gd->dev), "/dev/vd%c", 'a' + gp->ndisks);
			gp->ndisks++;
		}
	return true;
}

void guest_plan_free(struct guest_plan *gp)
{
	free(gp->selftests_dir);
	for (int i = 0; gp->args && i < gp->nworkloads; i++)
		free(gp->args[i]);
	free(gp->args);
	free(gp->kernel_cmdline);
	memset(gp, 0, sizeof(*gp));
}

static bool stage_file(const char *from, const char *to, mode_t mode, pb_err *err)
{
	if (!copy_file(from, to, err))
		return false;
	chmod(to, mode);
	return true;
}

/* Copies a host program into the stage at the same path, with every shared
 * library ldd names for it (and the loader). */
static bool stage_host_binary(const char *stage, const char *bin, const char *package, pb_err *err)
{
	char *argv[] = { "ldd", (char *)bin, NULL };
	pb_str out;
	int st;
	bool ok = true;
	char *line, *save = NULL;

	if (access(bin, X_OK) != 0) {
		pb_seterr(err, "%s not found (apt-get install %s)", bin, package ? package : "?");
		return false;
	}
	str_init(&out);
	if (!spawn_capture(argv, NULL, false, &out, &st)) {
		str_free(&out);
		pb_seterr(err, "ldd not found (apt-get install libc-bin)");
		return false;
	}
	/* ldd's exit is non-zero for a static program: then it needs nothing */
	str_addf(&out, "\n%s\n", bin);
	for (line = strtok_r(out.buf, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, '/'), *end, *to, *slash;

		if (!p || strstr(line, "not found"))
			continue;
		end = p + strcspn(p, " \t(");
		*end = '\0';
		to = xasprintf("%s%s", stage, p);
		slash = strrchr(to, '/');
		*slash = '\0';
		ok = mkdir_p(to, err);
		*slash = '/';
		if (ok && !path_exists(to))
			ok = stage_file(p, to, 0755, err);
		free(to);
	}
	str_free(&out);
	return ok;
}

/* "{disk:NAME}" in a workload's step -> the guest device of its disk NAME. */
static char *expand_disks(const struct guest_plan *gp, const struct workload *w, const char *text)
{
	pb_str s;
	const char *p = text, *hit;

	str_init(&s);
	while ((hit = strstr(p, "{disk:"))) {
		const char *end = strchr(hit, '}');
		const struct disk_def *d;
		const char *dev = NULL;

		if (!end)
			break;
		d = workload_disk(w, hit + 6, (size_t)(end - hit - 6));
		for (int i = 0; i < gp->ndisks; i++)
			if (gp->disks[i].def == d)
				dev = gp->disks[i].dev;
		str_addn(&s, p, (size_t)(hit - p));
		if (dev)
			str_add(&s, dev);
		else
			str_addn(&s, hit, (size_t)(end - hit + 1));
		p = end + 1;
	}
	str_add(&s, p);
	return str_steal(&s);
}

/* Every program of the built selftests into /selftests. */
static bool stage_selftests(const char *from_dir, const char *stage, pb_err *err)
{
	static const char *const any[] = { "", NULL };
	char *to_dir = xasprintf("%s/selftests", stage);
	int n = 0;
	char **names = mkdir_p(to_dir, err) ? dir_names(from_dir, any, &n) : NULL;
	bool ok = names != NULL;

	for (int i = 0; ok && i < n; i++) {
		char *from = xasprintf("%s/%s", from_dir, names[i]), *to = xasprintf("%s/%s", to_dir, names[i]);

		if (names[i][0] != '.' && access(from, X_OK) == 0 && !is_dir(from))
			ok = stage_file(from, to, 0755, err);
		free(from);
		free(to);
	}
	if (!names && !err->msg[0])
		pb_seterr(err, "%s: cannot read the built selftests", from_dir);
	names_free(names, n);
	free(to_dir);
	return ok;
}

bool initramfs_build(const struct guest_plan *gp, const char *init_script, const char *bin_dir,
		     const char *out, pb_err *err)
{
	char *stage = xasprintf("%s.stage", out);
	char *p;
	pb_str setup, run;
	bool ok = false;

	str_init(&setup);
	str_init(&run);
	rm_rf(stage);
	p = xasprintf("%s/bin", stage);
	ok = mkdir_p(p, err);
	free(p);
	for (const char *d = "proc\0sys\0dev\0tmp\0mnt\0perfbot\0"; ok && *d; d += strlen(d) + 1) {
		p = xasprintf("%s/%s", stage, d);
		ok = mkdir_p(p, err);
		free(p);
	}
	if (!ok)
		goto out;
	ok = false;
	if (!path_exists(BUSYBOX)) {
		pb_seterr(err, "%s not found (apt-get install busybox-static)", BUSYBOX);
		goto out;
	}
	p = xasprintf("%s/bin/busybox", stage);
	ok = stage_file(BUSYBOX, p, 0755, err);
	free(p);
	if (!ok)
		goto out;
	p = xasprintf("%s/init", stage);
	ok = stage_file(init_script, p, 0755, err);
	free(p);
	for (int i = 0; ok && i < gp->nworkloads; i++) {
		const struct workload *w = gp->workloads[i];
		char *from = xasprintf("%s/%s", bin_dir, w->binary), *to = xasprintf("%s/bin/%s", stage, w->binary);
		const char *args = gp->args[i];

		if (!path_exists(from)) {
			pb_seterr(err, "workload binary %s is missing (run make)", from);
			ok = false;
		} else {
			ok = stage_file(from, to, 0755, err);
		}
		for (int h = 0; ok && h < w->nhost_binaries; h++)
			ok = stage_host_binary(stage, w->host_binaries[h], w->host_package, err);
		for (int s = 0; s < w->nsteps; s++) {
			char *step = expand_disks(gp, w, w->steps[s].text);

			str_addf(&setup, "%c %s\n", w->steps[s].kind, step);
			free(step);
		}
		str_addf(&run, "%s %s %s\n", w->binary, w->perf_events ? w->perf_events : "-", args);
		if (ok && w->perf_events)
			ok = stage_host_binary(stage, GUEST_PERF, "linux-perf", err);
		free(from);
		free(to);
	}
	if (ok && gp->selftests_dir)
		ok = stage_selftests(gp->selftests_dir, stage, err);
	if (!ok)
		goto out;
	p = xasprintf("%s/perfbot/setup", stage);
	ok = write_file_atomic(p, setup.buf, setup.len, err);
	free(p);
	p = xasprintf("%s/perfbot/run", stage);
	ok = ok && write_file_atomic(p, run.buf, run.len, err);
	free(p);
	if (!ok)
		goto out;
	{
		/* The directory is passed as $1, never pasted into the script. */
		char *argv[] = { "sh", "-c",
				 "cd \"$1\" && find . -print0 | LC_ALL=C sort -z | "
				 "cpio --null -o -H newc --quiet --owner=0:0",
				 "sh", stage, NULL };
		struct spawn_opts o = { .stdout_path = out, .stderr_path = "" };
		struct spawn_result r;

		ok = spawn_wait(argv, &o, &r) && r.status == 0;
		if (!ok)
			pb_seterr(err, "cpio could not write %s (apt-get install cpio)", out);
	}
out:
	rm_rf(stage);
	free(stage);
	str_free(&setup);
	str_free(&run);
	return ok;
}

/* A fresh image for one boot: zeros, or an empty ext4 file system. */
static bool disk_create(const char *img, const struct disk_def *d, pb_err *err)
{
	int fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && ftruncate(fd, (off_t)d->size_mb << 20) == 0;

	if (fd >= 0)
		close(fd);
	if (!ok) {
		pb_seterr(err, "%s: cannot create a %d MiB disk image: %s", img, d->size_mb,
			  strerror(errno));
		return false;
	}
	if (!strcmp(d->fs, "ext4")) {
		char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", d->name, (char *)img, NULL };
		struct spawn_opts o = { .stdout_path = "", .stderr_path = "" };
		struct spawn_result r;

		if (!spawn_wait(argv, &o, &r) || r.status != 0) {
			pb_seterr(err, "mkfs.ext4 failed on %s (apt-get install e2fsprogs)", img);
			return false;
		}
	}
	return true;
}

static void add_arg(char ***argv, int *n, const char *s)
{
	*argv = xrealloc(*argv, sizeof(char *) * (size_t)(*n + 2));
	(*argv)[(*n)++] = xstrdup(s);
	(*argv)[*n] = NULL;
}

/* The panic and what led to it: from the start of the last oops or BUG
 * report before "Kernel panic" (where the culprit is named), or the 25 lines
 * before it, to the panic line. */
static char *panic_text(const char *console)
{
	static const char *const starts[] = { "------------[ cut here ]", "kernel BUG at", "BUG: ",
					      "Oops: " };
	const char *hit = strstr(console, "Kernel panic - not syncing");
	const char *start = NULL, *end;
	int lines = 0;

	if (!hit)
		return NULL;
	/* each marker's last appearance in the 16 KiB before the panic; the
	 * earliest of those opens the report */
	for (size_t i = 0; i < PB_ARRAY_SIZE(starts); i++) {
		const char *from = hit - console > 16384 ? hit - 16384 : console, *last = NULL;

		for (const char *at = strstr(from, starts[i]); at && at < hit; at = strstr(at + 1, starts[i]))
			last = at;
		if (last && (!start || last < start))
			start = last;
	}
	if (!start) {
		for (start = hit; start > console && lines < 25; start--)
			if (start[-1] == '\n')
				lines++;
		/* an early panic: what the decompressor printed before the
		 * kernel's banner says nothing of it */
		for (const char *at = strstr(start, "Linux version "); at && at < hit;
		     at = strstr(at + 1, "Linux version "))
			start = at;
	}
	while (start > console && start[-1] != '\n')
		start--;
	end = strchr(hit, '\n');
	if (!end)
		end = hit + strlen(hit);
	return xstrndup(start, (size_t)(end - start));
}

static char *tail_text(const char *text, size_t max)
{
	size_t n = strlen(text);

	return xstrdup(n > max ? text + n - max : text);
}

void boot_classify(struct boot_record *br, const struct guest_plan *gp, const char *console,
		   const char *results, size_t rlen, const char *qemu_log, bool timed_out,
		   int qemu_status, int timeout_s)
{
	pb_err err;
	char *tail;

	if (!results_parse(results, rlen, &br->results, &err)) {
		/* A guest that floods the port: its boot is invalid, not our crash. */
		br->outcome = BOOT_INVALID;
		br->detail = xasprintf("results port: %s", err.msg);
	} else if (br->results.done) {
		pb_str why;

		str_init(&why);
		br->outcome = BOOT_OK;
		if (br->results.setup_failure) {
			br->outcome = BOOT_INVALID;
			str_addf(&why, "guest set-up failed: %s", br->results.setup_failure);
		}
		for (int i = 0; i < gp->nworkloads; i++) {
			const struct workload_result *wr =
				results_workload(&br->results, gp->workloads[i]->binary);

			if (!wr || !wr->ended || !wr->checked || !wr->ok || wr->exit_status != 0) {
				br->outcome = BOOT_INVALID;
				str_addf(&why, "%s%s: %s", why.len ? "; " : "", gp->workloads[i]->name,
					 !wr ? "did not run" : !wr->checked ? "reported no check"
					 : !wr->ok ? (wr->reason ? wr->reason : "invalid")
						   : "exited non-zero");
			}
		}
		br->detail = str_steal(&why);
	} else if ((br->detail = panic_text(console))) {
		br->outcome = BOOT_PANIC;
	} else if (timed_out) {
		br->outcome = BOOT_TIMEOUT;
		tail = tail_text(console, 600);
		br->detail = xasprintf("no 'PB1 done' within %d s; the console ends: %s", timeout_s,
				       tail[0] ? tail : "(nothing)");
		free(tail);
	} else if (qemu_status != 0) {
		br->outcome = BOOT_QEMU_ERROR;
		tail = tail_text(qemu_log, 600);
		if (qemu_status > 128)
			br->detail = xasprintf("QEMU was killed by signal %d: %s", qemu_status - 128,
					       tail[0] ? tail : "(no output)");
		else
			br->detail = xasprintf("qemu exit %d: %s", qemu_status, tail);
		free(tail);
	} else if (!console[strspn(console, " \t\r\n")]) {
		/* QEMU ended by itself and the kernel printed nothing, not even
		 * to the early console: it reset the machine (a panic, with
		 * CONFIG_PANIC_TIMEOUT=-1, or a triple fault) before that console
		 * was up. */
		br->outcome = BOOT_PANIC;
		br->detail = xstrdup("the kernel reset the machine before it printed a line: it died "
				     "before its early console (decompressor or early setup_arch)");
	} else {
		br->outcome = BOOT_INCOMPLETE;
		tail = tail_text(console, 600);
		br->detail = xasprintf("the guest stopped without reporting done; the console ends: %s",
				       tail[0] ? tail : "(nothing)");
		free(tail);
	}
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

void boot_record_free(struct boot_record *br)
{
	free(br->detail);
	free(br->console_log);
	free(br->results_log);
	free(br->qemu_cmdline);
	results_free(&br->results);
	memset(br, 0, sizeof(*br));
}
