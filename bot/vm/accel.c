/* The accelerator: KVM where the CPU has vmx/svm and a probe boot prints,
 * else TCG with -icount (deterministic guest time), or what the
 * configuration asks for, with the reason recorded for every run. */
#include "accel.h"
#include "vm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	/* QEMU's accelerators are named as perfbot's are */
	char *argv[] = { QEMU, "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
			 "-nic", "none", "-accel", (char *)accel_kind_name(ACCEL_KVM), "-smp", "1", "-m",
			 "512", "-kernel",
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
	/* there, but not ours: the kvm group gives a user access to it */
	const char *no_dev = path_exists("/dev/kvm") ? "/dev/kvm is not accessible to this user "
						       "(not in the kvm group?)"
						     : "no /dev/kvm";
	double secs = 0;

	memset(a, 0, sizeof(*a));
	switch (cfg->accel) {
	case ACCEL_TCG:
		a->kind = ACCEL_TCG;
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration (plain TCG: wall-clock guest time)");
		return true;
	case ACCEL_TCG_ICOUNT:
		a->kind = ACCEL_TCG_ICOUNT;
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration (TCG -icount shift=0: guest time counts instructions)");
		return true;
	case ACCEL_KVM:
		if (!dev) {
			pb_seterr(err, "qemu.accel = kvm, but %s", no_dev);
			return false;
		}
		if (!kvm_probe_boot(cfg, kernel, scratch_dir, &secs)) {
			pb_seterr(err, "qemu.accel = kvm, but a probe boot under KVM printed nothing in %d s "
				  "(use auto or tcg-icount)", cfg->kvm_probe_timeout);
			return false;
		}
		a->kind = ACCEL_KVM;
		snprintf(a->reason, sizeof(a->reason), "chosen in the configuration; probe boot printed in %.1f s", secs);
		return true;
	default:
		break;
	}
	a->kind = ACCEL_TCG_ICOUNT;
	if (!dev) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: %s, so TCG with -icount shift=0 (deterministic guest time)", no_dev);
	} else if (!flags) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: /dev/kvm exists but the CPU flags show no vmx/svm, so KVM cannot boot a "
			 "normal kernel here; fell back to TCG with -icount shift=0 (deterministic guest time)");
	} else if (!kvm_probe_boot(cfg, kernel, scratch_dir, &secs)) {
		snprintf(a->reason, sizeof(a->reason),
			 "auto: a probe boot under KVM printed nothing in %d s; fell back to TCG with "
			 "-icount shift=0 (deterministic guest time)", cfg->kvm_probe_timeout);
	} else {
		a->kind = ACCEL_KVM;
		snprintf(a->reason, sizeof(a->reason),
			 "auto: vmx/svm present and a probe boot under KVM printed in %.1f s", secs);
	}
	return true;
}
