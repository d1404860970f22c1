/* What perfbot needs from the host before it builds or boots anything (the
 * programs and headers, with the Debian package that brings each), the
 * workloads named on the command line, and a run's timestamp. */
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* MemAvailable of /proc/meminfo in MiB, or -1. */
static long mem_available_mb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

int host_guests_at_once(const struct pb_config *cfg, const struct accel *a,
			const struct guest_plan *gp, char *why, size_t whylen)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), mem = mem_available_mb(), by_mem;
	int n;

	if (cfg->parallel > 0) {
		snprintf(why, whylen, "qemu.parallel %d", cfg->parallel);
		return cfg->parallel;
	}
	if (a->kind != ACCEL_TCG_ICOUNT) {
		snprintf(why, whylen, "auto: one at a time under %s, where guests side by side slow "
				      "each other's clocks", accel_kind_name(a->kind));
		return 1;
	}
	for (int i = 0; gp && i < gp->nworkloads; i++)
		if (!gp->workloads[i]->side_by_side) {
			snprintf(why, whylen, "auto: one at a time, as %s says (parallel = no: its times "
					      "wait on a disk, whose time follows the host's clock)",
				 gp->workloads[i]->name);
			return 1;
		}
	n = cpus > 0 ? (int)cpus : 1;
	/* a guest takes its memory and about a quarter more for QEMU */
	by_mem = mem > 0 ? mem / (cfg->memory_mb + cfg->memory_mb / 4) : n;
	if (by_mem < n) {
		n = by_mem > 1 ? (int)by_mem : 1;
		snprintf(why, whylen, "auto: %d of %ld host CPUs under tcg-icount, as %ld MiB of memory "
				      "allow", n, cpus, mem);
		return n;
	}
	snprintf(why, whylen, "auto: one per host CPU under tcg-icount, whose guest time counts "
			      "instructions");
	return n;
}

/* What a run needs on the machine, and the Debian package that brings it. */
static const struct requirement {
	const char *what;  /* a program in PATH, or an absolute file */
	const char *package;
} requirements[] = {
	{ "make", "make" },
	{ "gcc", "gcc" },
	{ "patch", "patch" },
	{ "tar", "tar" },
	{ "xz", "xz-utils" },
	{ "flex", "flex" },
	{ "bison", "bison" },
	{ "bc", "bc" },
	{ "cpio", "cpio" },
	{ "qemu-system-x86_64", "qemu-system-x86" },
	{ "/bin/busybox", "busybox-static" },
	{ "mkfs.ext4", "e2fsprogs" },
	{ "/usr/include/libelf.h", "libelf-dev" },
	{ "/usr/include/openssl/ssl.h", "libssl-dev" },
};

static void require(const char *what, const char *package, pb_str *missing, pb_str *pkgs)
{
	bool have = what[0] == '/' ? path_exists(what) : program_in_path(what);

	if (!have) {
		str_addf(missing, "%s%s", missing->len ? ", " : "", what);
		str_addf(pkgs, " %s", package ? package : "?");
	}
}

/* The fixed requirements, and the host programs the chosen workloads
 * declare (host_binary, perf_events): checked before anything is built. */
bool host_check_requirements(const struct workload *const *w, int n, pb_err *err)
{
	pb_str missing, pkgs;
	bool ok;

	str_init(&missing);
	str_init(&pkgs);
	for (size_t i = 0; i < PB_ARRAY_SIZE(requirements); i++)
		require(requirements[i].what, requirements[i].package, &missing, &pkgs);
	for (int i = 0; i < n; i++) {
		for (int h = 0; h < w[i]->nhost_binaries; h++)
			require(w[i]->host_binaries[h], w[i]->host_package, &missing, &pkgs);
		if (w[i]->perf_events)
			require(GUEST_PERF, "linux-perf", &missing, &pkgs);
	}
	ok = missing.len == 0;
	if (!ok)
		pb_seterr(err, "missing %s; as root: apt-get install -y%s", missing.buf, pkgs.buf);
	str_free(&missing);
	str_free(&pkgs);
	return ok;
}

char *host_timestamp(void)
{
	char *iso = iso_time_now(), *out = xstrdup(iso);
	int k = 0;

	for (char *s = iso; *s; s++)
		if (*s != '-' && *s != ':')
			out[k++] = *s;
	out[k] = '\0';
	free(iso);
	return out;
}

/* The workloads named with --workload, in the order given. */
bool host_workloads_named(const struct workload_set *set, char **names, int n,
			    const struct workload **out, pb_err *err)
{
	for (int i = 0; i < n; i++) {
		out[i] = workload_find(set, names[i]);
		if (!out[i]) {
			pb_str all;

			str_init(&all);
			for (int k = 0; k < set->n; k++)
				str_addf(&all, "%s%s", k ? ", " : "", set->w[k].name);
			pb_seterr(err, "no workload '%s' (there are: %s)", names[i], all.buf);
			str_free(&all);
			return false;
		}
	}
	return true;
}
