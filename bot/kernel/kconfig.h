/* The kernel's .config, cached per tree, compiler and fragment:
 *   trees/<src>/configs/<in>/  the merged .config for one fragment + compiler */
#ifndef PERFBOT_KCONFIG_H
#define PERFBOT_KCONFIG_H

#include "config.h"
#include "tree.h"

struct kernel_config {
	char *path;       /* the merged .config */
	char sha256[65];
};

/* defconfig + kvm_guest.config + fragment, merged, olddefconfig, checked. */
bool kernel_config_prepare(const struct pb_config *cfg, struct kernel_tree *t,
			   struct kernel_config *kc, pb_err *err);
void kernel_config_free(struct kernel_config *kc);

/* Every line of the fragment must hold in the final .config; lists those
 * that do not. Exposed for the tests. */
bool fragment_check(const char *fragment_text, const char *config_text, pb_str *missing);

#endif
