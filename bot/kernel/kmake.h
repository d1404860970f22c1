/* make on a kernel tree, for the kernel modules:
 *   trees/<src>/build.pgid     the process group of the make that is running
 *   ccache/                    compiler cache (or [build] ccache_dir) */
#ifndef PERFBOT_KMAKE_H
#define PERFBOT_KMAKE_H

#include "config.h"
#include "tree.h"

/* "gcc (Debian 12.2.0-14) 12.2.0": part of every config and kernel key.
 * Asked once per process. */
const char *compiler_version(void);

/* make O=objdir bzImage in t->work, its output to log, a progress line on
 * the terminal; make's exit status (128 + signal), or -1 if it could not
 * be started. */
int run_make(const struct pb_config *cfg, struct kernel_tree *t, const char *objdir,
	     const char *log, const char *label);

/* Kills what is left of the make group a perfbot that died left running. */
void kill_orphaned_build(const struct kernel_tree *t);

/* The last lines of a failed build's log that say what went wrong. */
char *build_failure_text(const char *log);

/* The build failed for want of disk space (err says so). */
bool out_of_space(const char *log, const char *objdir, pb_err *err);

#endif
