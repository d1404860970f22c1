/* The source-tree cache. Layout under [cache] dir:
 *   trees/<src>/pristine/      the linux-source tarball, extracted once
 *   trees/<src>/work/          hard-linked copy where one change at a time is applied
 *   trees/<src>/work.dirty     paths the applied change touched (written before applying)
 * <src> is the first 16 hex of the tarball's SHA-256. */
#ifndef PERFBOT_TREE_H
#define PERFBOT_TREE_H

#include "config.h"

struct kernel_tree {
	char *tarball_sha;  /* 64 hex */
	char *key;          /* first 16 hex of it */
	char *version;      /* "6.1.192" */
	char *series;       /* "6.1": the ports directory used */
	char *dir, *pristine, *work;
	char *cache_dir;
};

/* The kernel source exists and looks like a tarball: what tree_prepare
 * checks first, for perfbot submit to check the same. */
bool kernel_source_check(const struct pb_config *cfg, pb_err *err);
bool tree_prepare(const struct pb_config *cfg, struct kernel_tree *t, pb_err *err);
void tree_free(struct kernel_tree *t);

/* For the other kernel modules. One perfbot at a time touches a tree's work
 * copy and object directories: tree_lock waits for it (fd, or -1). */
int tree_lock(const struct kernel_tree *t);
void tree_unlock(int fd);
/* <tree>/work.dirty: the paths the change being applied touches. */
char *tree_dirty_path(const struct kernel_tree *t);
/* Puts every path in work.dirty back as it is in the pristine tree. */
bool tree_reset(struct kernel_tree *t, pb_err *err);
/* Removes the "<name>.tmp.<pid>" entries of dir whose perfbot died. */
void remove_stale_tmp(const char *dir);

#endif
