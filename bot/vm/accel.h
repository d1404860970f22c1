/* The accelerator a run's boots use, and why it was chosen. */
#ifndef PERFBOT_ACCEL_H
#define PERFBOT_ACCEL_H

#include "comparison.h"
#include "config.h"
#include "names.h"

/* Decides the accelerator. For auto, KVM must pass a probe boot of kernel
 * (it prints on the serial console within cfg->kvm_probe_timeout). */
bool accel_choose(const struct pb_config *cfg, const char *kernel, const char *scratch_dir,
		  struct accel *a, pb_err *err);

#endif
