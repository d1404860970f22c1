/* The kernel's own mm selftests (tools/testing/selftests/vm), built static
 * from the same pristine tree as the kernels and cached beside it, so that
 * a guest's initramfs can carry them. */
#ifndef PERFBOT_SELFTESTS_H
#define PERFBOT_SELFTESTS_H

#include "guest.h"
#include "kernel.h"

/* <tree>/selftests-vm/bin: every test program that builds (static) here,
 * built once per tree, compiler and set of static libraries; *dir is that
 * directory. Tests that do not build (a missing -dev package) are left out;
 * <tree>/selftests-vm.build.log says why. */
bool selftests_build(const struct kernel_tree *t, char **dir, pb_err *err);

/* The tree's vm selftests, built (or found cached) when a workload of gp
 * declares selftests = vm. */
bool host_selftests(const struct kernel_tree *t, struct guest_plan *gp, pb_err *err);

#endif
