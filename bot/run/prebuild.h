/* Builds beside boots: while one comparison's guests run under tcg-icount,
 * the next queued patch's kernels build in a child process at idle
 * priority (SCHED_IDLE, nice 19, the idle I/O class), on whatever CPU the
 * guests leave. Guest time under -icount counts instructions, so a build
 * beside a guest slows its wall clock, never what it measures; under kvm
 * and plain tcg no build runs beside a boot. The kernel tree's lock orders
 * the child's builds and the parent's: a kernel the child is still
 * building is waited for, then found in the cache, not built again (one
 * that failed to build is: failures are not cached, its run reports it). */
#ifndef PERFBOT_PREBUILD_H
#define PERFBOT_PREBUILD_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "config.h"
#include "queue.h"

struct prebuild {
	pid_t pid;              /* 0: none running */
	int number;             /* its patch */
	bool cancelled;         /* prebuild_cancel killed it */
	char *log;              /* what it printed */
};

/* Starts building p's kernels in the background (a previous prebuild is
 * waited for first). False, with nothing started, when the log directory
 * cannot be made or fork fails. */
bool prebuild_start(struct prebuild *pb, const struct pb_config *cfg, const struct pb_patch *p);

/* Stops the prebuild, if any (SIGKILL: its build's debris is the next
 * build's to clear, as after any killed perfbot); prebuild_finish reaps it. */
void prebuild_cancel(struct prebuild *pb);

/* Waits for the prebuild, if any, and says how it ended when it failed
 * (the patch's own run then builds, and reports, what it could not).
 * Once *stop is set (NULL: never) it is cancelled instead. */
void prebuild_finish(struct prebuild *pb, volatile sig_atomic_t *stop);

#endif
