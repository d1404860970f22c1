/* Kernel trees, pairs and builds.
 *
 * Cache layout (all under [cache] dir, never in the repository):
 *   trees/<src>/pristine/      the linux-source tarball, extracted once
 *   trees/<src>/work/          hard-linked copy where one change at a time is applied
 *   trees/<src>/work.dirty     paths the applied change touched (written before applying)
 *   trees/<src>/obj-<cfg>/     O= object directory shared by every kernel of that config
 *   trees/<src>/configs/<in>/  the merged .config for one fragment + compiler
 *   kernels/<key>/             one built kernel: bzImage, config, build.log, info
 *   ccache/                    compiler cache
 * <src> is the tarball's SHA-256, <key> the hash of every build input, so a
 * kernel is only ever rebuilt when something it is built from changed. */
#ifndef PERFBOT_KERNEL_H
#define PERFBOT_KERNEL_H

#include "config.h"
#include "queue.h"

struct kernel_tree {
	char *tarball_sha;  /* 64 hex */
	char *key;          /* first 16 hex of it */
	char *version;      /* "6.1.192" */
	char *series;       /* "6.1": the ports directory used */
	char *dir, *pristine, *work;
	char *cache_dir;
};

enum pair_method { PAIR_FORWARD, PAIR_REVERSE, PAIR_PORT };
const char *pair_method_name(enum pair_method m);

/* One kernel of a pair: the base tree with nothing, a patch or a port applied
 * forward, or a patch taken out (applied in reverse). */
struct kernel_change {
	char *file;       /* NULL: the base tree as shipped */
	bool reverse;
	char sha256[65];
	char *label;      /* "base", "base+patch", "base-patch", "base+port" */
};

/* file NULL: the base tree; the file's SHA-256 goes into the kernel's key. */
void kernel_change_set(struct kernel_change *c, const char *file, bool reverse, const char *label);
void kernel_change_free(struct kernel_change *c);

struct pair_plan {
	enum pair_method method;
	struct kernel_change without, with;  /* without and with the fix */
	char *detail;     /* what patch(1) said: offsets, fuzz */
};

struct kernel_config {
	char *path;       /* the merged .config */
	char sha256[65];
};

struct kernel_image {
	char key[65];
	char *dir, *bzimage, *config, *log;
	bool built;       /* false: the build failed, see failure */
	bool cached;      /* it was already built: nothing was compiled */
	double build_seconds;
	char *failure;    /* the compiler's last error lines */
};

/* The kernel source exists and looks like a tarball: what tree_prepare
 * checks first, for perfbot submit to check the same. */
bool kernel_source_check(const struct pb_config *cfg, pb_err *err);
bool tree_prepare(const struct pb_config *cfg, struct kernel_tree *t, pb_err *err);
void tree_free(struct kernel_tree *t);

/* Forward, reverse, or a port from cfg->ports_dir/<series>/<upstream>.patch;
 * fails with one line naming the hunks that failed. */
bool pair_decide(const struct pb_config *cfg, struct kernel_tree *t, const struct pb_patch *p,
		 struct pair_plan *plan, pb_err *err);
void pair_plan_free(struct pair_plan *plan);

/* defconfig + kvm_guest.config + fragment, merged, olddefconfig, checked. */
bool kernel_config_prepare(const struct pb_config *cfg, struct kernel_tree *t,
			   struct kernel_config *kc, pb_err *err);
void kernel_config_free(struct kernel_config *kc);

/* Every line of the fragment must hold in the final .config; lists those
 * that do not. Exposed for the tests. */
bool fragment_check(const char *fragment_text, const char *config_text, pb_str *missing);

/* Builds (or finds in the cache) one kernel. Returns false only when perfbot
 * itself could not go on; a kernel that fails to compile returns true with
 * img->built false and img->failure set: that is a result. */
bool kernel_build(const struct pb_config *cfg, struct kernel_tree *t,
		  const struct kernel_config *kc, const struct kernel_change *change,
		  struct kernel_image *img, pb_err *err);
void kernel_image_free(struct kernel_image *img);

#endif
