/* Kernel images, built once per set of inputs. Cache layout under [cache]
 * dir, never in the repository (the trees: tree.h, kconfig.h, kmake.h):
 *   trees/<src>/obj-<cfg>/     O= object directory shared by every kernel of that config
 *   kernels/<key>/             one built kernel: bzImage, config, build.log, info
 * <key> is the hash of every build input, so a kernel is only ever rebuilt
 * when something it is built from changed. This header also brings the
 * tree cache, patching and kconfig, which every caller of kernel_build uses. */
#ifndef PERFBOT_KERNEL_H
#define PERFBOT_KERNEL_H

#include "comparison.h"
#include "config.h"
#include "kconfig.h"
#include "patching.h"
#include "queue.h"
#include "tree.h"

/* Builds (or finds in the cache) one kernel. Returns false only when perfbot
 * itself could not go on; a kernel that fails to compile returns true with
 * img->built false and img->failure set: that is a result. */
bool kernel_build(const struct pb_config *cfg, struct kernel_tree *t,
		  const struct kernel_config *kc, const struct kernel_change *change,
		  struct kernel_image *img, pb_err *err);

#endif
