/* Patching: running patch(1) on a tree's work copy, reading what it says,
 * and the pair of kernels a patch gives (forward, reverse or a port). */
#ifndef PERFBOT_PATCHING_H
#define PERFBOT_PATCHING_H

#include "config.h"
#include "queue.h"
#include "tree.h"


/* One patch(1) run of a change: a file, forward or in reverse. */
struct change_step {
	char *file;
	bool reverse;
	char sha256[65];
	int number;       /* the queue's patch it stands for, 0 if none */
};

/* One kernel of a pair: the base tree with nothing, a patch or a port applied
 * forward, a patch taken out (applied in reverse), or a series: several
 * such steps in order (a whole -rc, or a prefix of it for bisect). */
struct kernel_change {
	char *file;       /* the one file; NULL: the base tree, or a series */
	bool reverse;
	char sha256[65];  /* the file's; a series', of its steps in order */
	char *label;      /* "base", "base+patch", "base-patch", "base+port", "base+series" ... */
	struct change_step *steps; /* every change has its steps: none for the base */
	int nsteps;
	char *summary;    /* a series: "11 patches: 031 146 ... (forward)"; else NULL */
};

/* file NULL: the base tree; the file's SHA-256 goes into the kernel's key. */
void kernel_change_set(struct kernel_change *c, const char *file, bool reverse, const char *label);
/* A series of steps (copied), applied in order; its key hashes them all. */
void kernel_change_series(struct kernel_change *c, const struct change_step *steps, int n,
			  const char *label, const char *summary);
bool kernel_change_is_base(const struct kernel_change *c);
void kernel_change_free(struct kernel_change *c);

struct pair_plan {
	enum pair_method method;
	struct kernel_change without, with;  /* without and with the fix */
	char *detail;     /* what patch(1) said: offsets, fuzz */
};

/* Forward, reverse, or a port from cfg->ports_dir/<series>/<upstream>.patch;
 * fails with one line naming the hunks that failed. */
bool pair_decide(const struct pb_config *cfg, struct kernel_tree *t, const struct pb_patch *p,
		 struct pair_plan *plan, pb_err *err);
void pair_plan_free(struct pair_plan *plan);

/* The -rc as a whole: the base against the base with every patch of
 * patches[] applied in order (the first applies forward), or, where the
 * queue is in the base already (the first does not), the base with its mm
 * patches taken out in reverse order (each reverted, or its port applied)
 * against the base. Every step is tried on the work copy in turn; a patch
 * that does not apply stops it with one line naming it. */
bool pair_decide_series(const struct pb_config *cfg, struct kernel_tree *t,
			const struct pb_patch *const *patches, int n, struct pair_plan *plan,
			pb_err *err);

/* Applies change's steps in order (each forward or in reverse) to the work
 * copy, noting in work.dirty first the files each touches, for tree_reset
 * to put back. */
bool change_apply(struct kernel_tree *t, const struct kernel_change *change, pb_err *err);

/* patch -p1 -f on t->work (dry_run: --dry-run); its exit status, -1 if it
 * could not be run; out gets what it said. */
int run_patch(const struct kernel_tree *t, const char *file, bool reverse, bool dry_run,
	      pb_str *out);
/* The files patch(1)'s output says it checks or patches (both names of a
 * rename, symbolic links too), unquoted, one a line, appended to list. */
void touched_files(const char *patch_out, pb_str *list);
/* "mm/migrate.c Hunk #1 FAILED at 1288. ..." from patch(1)'s output: every
 * hunk line, or (failures_only) the failed ones; "clean" or "patch(1)
 * failed" when there is none. */
char *summarize_patch_output(const char *out, bool failures_only);

#endif
