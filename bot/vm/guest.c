/* What a guest gets: the plan (workloads, arguments, kernel command line,
 * disks), the initramfs staged from it, each boot's fresh disk images, and
 * host_guest_prepare, which every subcommand that boots calls. */
#include "guest.h"
#include "layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUSYBOX "/bin/busybox"

/* panic=-1 with -no-reboot turns a panic into QEMU exiting, never a hang
 * (CONFIG_PANIC_TIMEOUT=-1 does it before panic= is parsed); earlyprintk
 * shows what the kernel printed before the serial console came up.
 * nokaslr: KASLR draws the kernel's place from RDTSC, which under -icount
 * follows how long the firmware idled in host time, and each placement
 * costs a fixed number of instructions more or less: every thp-anon
 * timing of a boot sat on one of two levels ~0.35-1.1% apart (KASLR's
 * luck), which split between the sides reads as a change. Without it
 * thp-anon's between-boot CV fell from 0.17-0.58% to 0.001-0.02%. */
static const char guest_base_cmdline[] =
	"console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 oops=panic quiet nokaslr "
	"rdinit=/init";

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
	str_add(&cmd, guest_base_cmdline);
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

/* The initramfs's skeleton: its directories, busybox and init. */
static bool stage_skeleton(const char *stage, const char *init_script, pb_err *err)
{
	char *p = xasprintf("%s/bin", stage);
	bool ok = mkdir_p(p, err);

	free(p);
	for (const char *d = "proc\0sys\0dev\0tmp\0mnt\0perfbot\0"; ok && *d; d += strlen(d) + 1) {
		p = xasprintf("%s/%s", stage, d);
		ok = mkdir_p(p, err);
		free(p);
	}
	if (!ok)
		return false;
	if (!path_exists(BUSYBOX)) {
		pb_seterr(err, "%s not found (apt-get install busybox-static)", BUSYBOX);
		return false;
	}
	p = xasprintf("%s/bin/busybox", stage);
	ok = stage_file(BUSYBOX, p, 0755, err);
	free(p);
	if (!ok)
		return false;
	p = xasprintf("%s/init", stage);
	ok = stage_file(init_script, p, 0755, err);
	free(p);
	return ok;
}

/* Workload i of the plan: its binary and the host programs it needs into
 * the stage, its set-up steps to setup and its command line to run. */
static bool stage_workload(const struct guest_plan *gp, int i, const char *bin_dir,
			   const char *stage, pb_str *setup, pb_str *run, pb_err *err)
{
	const struct workload *w = gp->workloads[i];
	char *from = xasprintf("%s/%s", bin_dir, w->binary), *to = xasprintf("%s/bin/%s", stage, w->binary);
	const char *args = gp->args[i];
	bool ok;

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

		str_addf(setup, "%c %s\n", w->steps[s].kind, step);
		free(step);
	}
	str_addf(run, "%s %s %s\n", w->binary, w->perf_events ? w->perf_events : "-", args);
	if (ok && w->perf_events)
		ok = stage_host_binary(stage, GUEST_PERF, "linux-perf", err);
	free(from);
	free(to);
	return ok;
}

/* The plan, for the guest's init: /perfbot/setup and /perfbot/run. */
static bool stage_plan(const char *stage, const pb_str *setup, const pb_str *run, pb_err *err)
{
	char *p = xasprintf("%s/perfbot/setup", stage);
	bool ok = write_file_atomic(p, setup->buf, setup->len, err);

	free(p);
	p = xasprintf("%s/perfbot/run", stage);
	ok = ok && write_file_atomic(p, run->buf, run->len, err);
	free(p);
	return ok;
}

/* The stage as an uncompressed newc archive, its files in a fixed order. */
static bool cpio_write(const char *stage, const char *out, pb_err *err)
{
	/* The directory is passed as $1, never pasted into the script. */
	char *argv[] = { "sh", "-c",
			 "cd \"$1\" && find . -print0 | LC_ALL=C sort -z | "
			 "cpio --null -o -H newc --quiet --owner=0:0",
			 "sh", (char *)stage, NULL };
	struct spawn_opts o = { .stdout_path = out, .stderr_path = "" };
	struct spawn_result r;
	bool ok = spawn_wait(argv, &o, &r) && r.status == 0;

	if (!ok)
		pb_seterr(err, "cpio could not write %s (apt-get install cpio)", out);
	return ok;
}

bool initramfs_build(const struct guest_plan *gp, const char *init_script, const char *bin_dir,
		     const char *out, pb_err *err)
{
	char *stage = xasprintf("%s.stage", out);
	pb_str setup, run;
	bool ok;

	str_init(&setup);
	str_init(&run);
	rm_rf(stage);
	ok = stage_skeleton(stage, init_script, err);
	/* the timed workloads first: what runs once per side (measure.c) must
	 * not leave a boot that ran it in another state for them than one that
	 * left it out */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; ok && i < gp->nworkloads; i++)
			if (workload_once_per_side(gp->workloads[i]) == (pass == 1))
				ok = stage_workload(gp, i, bin_dir, stage, &setup, &run, err);
	if (ok && gp->selftests_dir)
		ok = stage_selftests(gp->selftests_dir, stage, err);
	ok = ok && stage_plan(stage, &setup, &run, err) && cpio_write(stage, out, err);
	rm_rf(stage);
	free(stage);
	str_free(&setup);
	str_free(&run);
	return ok;
}

/* A fresh image for one boot: zeros, or an empty ext4 file system. */
bool disk_create(const char *img, const struct disk_def *d, pb_err *err)
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

/* The static guest programs: build/workloads/ in a checkout,
 * PREFIX/lib/perfbot/workloads/ installed. */
static char *workload_bin_dir(void)
{
	return xstrdup(layout_get()->guest_bin_dir);
}

void guest_workload_fingerprint(const struct pb_config *cfg, const struct workload *w,
				char hex[65])
{
	char *bin_dir = workload_bin_dir(), *bin = xasprintf("%s/%s", bin_dir, w->binary);
	char *ini = xasprintf("%s/%s.ini", cfg->workloads_dir, w->name);
	char *init = xasprintf("%s/init", cfg->workloads_dir);
	char part[3][65];
	const char *paths[3] = { ini, bin, init };
	bool ok = true;

	for (int i = 0; i < 3; i++)
		ok = ok && sha256_file(paths[i], part[i], NULL);
	hex[0] = '\0';
	if (ok) {
		char *all = xasprintf("ini %s\nbinary %s\ninit %s\ncmdline %s\n", part[0], part[1],
				      part[2], guest_base_cmdline);

		sha256_buf(all, strlen(all), hex);
		free(all);
	}
	free(bin_dir);
	free(bin);
	free(ini);
	free(init);
}

/* Log dir, initramfs and accelerator, the same for run, calibrate and bench. */
bool host_guest_prepare(const struct pb_config *cfg, const struct guest_plan *gp,
			const char *probe_kernel, const char *log_dir, char **initrd,
			struct accel *a, pb_err *err)
{
	char *bin_dir = workload_bin_dir(), *init_script = xasprintf("%s/init", cfg->workloads_dir);
	bool ok;

	*initrd = xasprintf("%s/initramfs.cpio", log_dir);
	ok = mkdir_p(log_dir, err) && initramfs_build(gp, init_script, bin_dir, *initrd, err) &&
	     accel_choose(cfg, probe_kernel, log_dir, a, err);
	free(bin_dir);
	free(init_script);
	return ok;
}
