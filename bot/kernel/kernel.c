/* One kernel image: its key (the hash of every build input), the cache of
 * built kernels under <cache>/kernels/, and kernel_build, which applies the
 * change, runs make and publishes the image with a rename. */
#include "kernel.h"
#include "event.h"
#include "kmake.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool files_equal(const char *a, const char *b)
{
	size_t la, lb;
	char *x = read_file(a, &la, NULL), *y = read_file(b, &lb, NULL);
	bool eq = x && y && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return eq;
}

static void image_paths(struct kernel_image *img, const char *dir)
{
	img->dir = xstrdup(dir);
	img->bzimage = xasprintf("%s/bzImage", dir);
	img->config = xasprintf("%s/config", dir);
	img->log = xasprintf("%s/build.log", dir);
}

static bool write_info(const char *path, const struct kernel_tree *t, const struct kernel_config *kc,
		       const struct kernel_change *c, double seconds, pb_err *err)
{
	char *s = xasprintf("status=built\nversion=%s\ntree=%s\nconfig=%s\nlabel=%s\nchange=%s\n"
			    "change_sha256=%s\nreverse=%d\nbuild_seconds=%.1f\n",
			    t->version, t->tarball_sha, kc->sha256, c->label,
			    c->file ? c->file : c->summary ? c->summary : "", c->sha256, c->reverse,
			    seconds);
	bool ok = write_file_atomic(path, s, strlen(s), err);

	free(s);
	return ok;
}

/* The paths of one build: the image's place in the cache, the directory it
 * is made in, the tree's object directory for its config, the log. */
struct build_paths {
	char *dir, *info, *tmp, *objdir, *objcfg, *log;
};

static void build_paths_init(struct build_paths *b, const struct pb_config *cfg,
			     const struct kernel_tree *t, const struct kernel_config *kc,
			     const char *key)
{
	b->dir = xasprintf("%s/kernels/%.16s", cfg->cache_dir, key);
	b->info = xasprintf("%s/info", b->dir);
	b->objdir = xasprintf("%s/obj-%.16s", t->dir, kc->sha256);
	b->objcfg = xasprintf("%s/.config", b->objdir);
	b->tmp = xasprintf("%s.tmp.%d", b->dir, (int)getpid());
	b->log = xasprintf("%s/build.log", b->tmp);
}

static void build_paths_free(struct build_paths *b)
{
	free(b->dir);
	free(b->info);
	free(b->tmp);
	free(b->objdir);
	free(b->objcfg);
	free(b->log);
}

/* The hash of every input of the build. Kernels already cached are found
 * by it: what goes into it must not change. */
static void kernel_key(const struct kernel_tree *t, const struct kernel_config *kc,
		       const struct kernel_change *change, char key[65])
{
	pb_str in;

	str_init(&in);
	str_addf(&in, "tree=%s\nconfig=%s\ncompiler=%s\nchange=%s\nreverse=%d\n", t->tarball_sha,
		 kc->sha256, compiler_version(), kernel_change_is_base(change) ? "none" : change->sha256,
		 change->reverse);
	sha256_buf(in.buf, in.len, key);
	str_free(&in);
}

/* Built before: its info and bzImage are in place. */
static bool image_cached(const struct build_paths *b, struct kernel_image *img)
{
	char *text, *bs;

	if (!path_exists(b->info) || !path_exists(img->bzimage))
		return false;
	text = read_file(b->info, NULL, NULL);
	bs = text ? strstr(text, "build_seconds=") : NULL;
	img->built = img->cached = true;
	img->build_seconds = bs ? strtod(bs + 14, NULL) : 0;
	free(text);
	return true;
}

/* What a perfbot that died in a build left: its sub-makes, its .tmp.<pid>
 * directories. Under the tree's lock. */
static void remove_debris(const struct pb_config *cfg, const struct kernel_tree *t)
{
	char *kernels = xasprintf("%s/kernels", cfg->cache_dir);

	kill_orphaned_build(t);
	remove_stale_tmp(kernels);
	remove_stale_tmp(t->dir);
	free(kernels);
}

/* A result, not a perfbot error: keep the log where the report finds it. */
static void build_failed(const struct build_paths *b, const struct kernel_change *change, int rc,
			 struct kernel_image *img)
{
	char *failed_log = xasprintf("%s.failed.log", b->dir);

	img->built = false;
	img->failure = build_failure_text(b->log);
	rename(b->log, failed_log);
	free(img->log);
	img->log = failed_log;
	event_progress("perfbot: the %s kernel failed to build (make exit %d)\n", change->label, rc);
}

/* The image, its config and info into b->tmp, renamed into place. */
static bool image_publish(const struct build_paths *b, const char *built,
			  const struct kernel_tree *t, const struct kernel_config *kc,
			  const struct kernel_change *change, struct kernel_image *img, pb_err *err)
{
	char *dst = xasprintf("%s/bzImage", b->tmp), *cfgdst = xasprintf("%s/config", b->tmp),
	     *infotmp = xasprintf("%s/info", b->tmp);
	bool copied = copy_file(built, dst, err) && copy_file(b->objcfg, cfgdst, err) &&
		      write_info(infotmp, t, kc, change, img->build_seconds, err);

	free(dst);
	free(cfgdst);
	free(infotmp);
	if (!copied)
		return false;
	/* The rename is what marks the kernel built. */
	rm_rf(b->dir);
	if (rename(b->tmp, b->dir) != 0) {
		pb_seterr(err, "%s: %s", b->dir, strerror(errno));
		return false;
	}
	img->built = true;
	event_progress("perfbot: built %s kernel in %.0f s\n", change->label, img->build_seconds);
	return true;
}

/* make, and what came of it: false when perfbot cannot go on (no make, a
 * full disk, a program the machine lacks), true with img->built saying
 * whether the kernel built. */
static bool build_image(const struct pb_config *cfg, struct kernel_tree *t,
			const struct kernel_config *kc, const struct kernel_change *change,
			const struct build_paths *b, struct kernel_image *img, pb_err *err)
{
	double start = now_seconds();
	char *built = xasprintf("%s/arch/x86/boot/bzImage", b->objdir), *lacks = NULL;
	bool ok = false;
	int rc;

	event_progress("perfbot: building %s kernel (%s) in %s\n", change->label, t->version,
		       b->objdir);
	rc = run_make(cfg, t, b->objdir, b->log, change->label);
	img->build_seconds = now_seconds() - start;
	if (rc < 0) {
		pb_seterr(err, "cannot run make");
	} else if (rc != 0 && out_of_space(b->log, b->objdir, err)) {
		/* the machine's problem, err says so */
	} else if (rc != 0 && (lacks = log_missing_program(b->log))) {
		/* a program the machine lacks fails every kernel alike: the
		 * machine's fault, not the patch's result */
		pb_seterr(err, "the %s kernel cannot be built here: %s (run scripts/setup); "
			       "nothing was marked built", change->label, lacks);
	} else if (rc != 0 || !path_exists(built)) {
		build_failed(b, change, rc, img);
		ok = true;
	} else {
		ok = image_publish(b, built, t, kc, change, img, err);
	}
	free(lacks);
	free(built);
	return ok;
}

bool kernel_build(const struct pb_config *cfg, struct kernel_tree *t,
		  const struct kernel_config *kc, const struct kernel_change *change,
		  struct kernel_image *img, pb_err *err)
{
	struct build_paths b;
	pb_err ignore;
	bool ok;
	int lock;

	memset(img, 0, sizeof(*img));
	kernel_key(t, kc, change, img->key);
	build_paths_init(&b, cfg, t, kc, img->key);
	image_paths(img, b.dir);
	if (image_cached(&b, img)) {
		build_paths_free(&b);
		return true;
	}
	lock = tree_lock(t);
	/* built meanwhile by the perfbot (or the build beside boots) it waited for */
	if (image_cached(&b, img)) {
		tree_unlock(lock);
		build_paths_free(&b);
		return true;
	}
	remove_debris(cfg, t);
	rm_rf(b.tmp);
	ok = mkdir_p(b.tmp, err) && mkdir_p(b.objdir, err) && tree_reset(t, err) &&
	     (kernel_change_is_base(change) || change_apply(t, change, err)) &&
	     (files_equal(kc->path, b.objcfg) || copy_file(kc->path, b.objcfg, err)) &&
	     build_image(cfg, t, kc, change, &b, img, err);
	if (lock >= 0)
		tree_reset(t, &ignore);
	tree_unlock(lock);
	rm_rf(b.tmp);
	build_paths_free(&b);
	return ok;
}

