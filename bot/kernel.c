/* One kernel image: its key (the hash of every build input), the cache of
 * built kernels under <cache>/kernels/, and kernel_build, which applies the
 * change, runs make and publishes the image with a rename. */
#include "kernel.h"
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
			    c->file ? c->file : "", c->sha256, c->reverse, seconds);
	bool ok = write_file_atomic(path, s, strlen(s), err);

	free(s);
	return ok;
}

bool kernel_build(const struct pb_config *cfg, struct kernel_tree *t,
		  const struct kernel_config *kc, const struct kernel_change *change,
		  struct kernel_image *img, pb_err *err)
{
	char *dir = NULL, *info = NULL, *tmp = NULL, *objdir = NULL, *objcfg = NULL, *log = NULL;
	const char *gcc = compiler_version();
	pb_str in;
	bool ok = false;
	int lock = -1;
	double start;

	memset(img, 0, sizeof(*img));
	str_init(&in);
	str_addf(&in, "tree=%s\nconfig=%s\ncompiler=%s\nchange=%s\nreverse=%d\n", t->tarball_sha,
		 kc->sha256, gcc, change->file ? change->sha256 : "none", change->reverse);
	sha256_buf(in.buf, in.len, img->key);
	dir = xasprintf("%s/kernels/%.16s", cfg->cache_dir, img->key);
	info = xasprintf("%s/info", dir);
	image_paths(img, dir);
	if (path_exists(info) && path_exists(img->bzimage)) {
		char *text = read_file(info, NULL, NULL), *bs = text ? strstr(text, "build_seconds=") : NULL;

		img->built = img->cached = true;
		img->build_seconds = bs ? strtod(bs + 14, NULL) : 0;
		free(text);
		ok = true;
		goto out;
	}

	lock = tree_lock(t);
	{
		char *kernels = xasprintf("%s/kernels", cfg->cache_dir);

		kill_orphaned_build(t);
		remove_stale_tmp(kernels);
		remove_stale_tmp(t->dir);
		free(kernels);
	}
	objdir = xasprintf("%s/obj-%.16s", t->dir, kc->sha256);
	objcfg = xasprintf("%s/.config", objdir);
	tmp = xasprintf("%s.tmp.%d", dir, (int)getpid());
	log = xasprintf("%s/build.log", tmp);
	rm_rf(tmp);
	if (!mkdir_p(tmp, err) || !mkdir_p(objdir, err) || !tree_reset(t, err))
		goto out;
	if (change->file) {
		pb_str said, files;
		char *dp = tree_dirty_path(t);
		int rc;

		str_init(&said);
		str_init(&files);
		rc = run_patch(t, change->file, change->reverse, true, &said);
		touched_files(said.buf, &files);
		/* Record what will be touched before touching it: a perfbot killed
		 * half-way through still knows what to put back. */
		if (rc != 0 || !write_file_atomic(dp, files.buf, files.len, err)) {
			if (rc != 0)
				pb_seterr(err, "%s no longer applies to the tree", change->file);
			free(dp);
			str_free(&said);
			str_free(&files);
			goto out;
		}
		free(dp);
		str_free(&said);
		str_init(&said);
		rc = run_patch(t, change->file, change->reverse, false, &said);
		str_free(&files);
		if (rc != 0) {
			pb_seterr(err, "applying %s failed: %.200s", change->file, said.buf);
			str_free(&said);
			goto out;
		}
		str_free(&said);
	}
	if (!files_equal(kc->path, objcfg) && !copy_file(kc->path, objcfg, err))
		goto out;

	start = now_seconds();
	fprintf(stderr, "perfbot: building %s kernel (%s) in %s\n", change->label, t->version, objdir);
	{
		int rc = run_make(cfg, t, objdir, log, change->label);
		char *built = xasprintf("%s/arch/x86/boot/bzImage", objdir);

		img->build_seconds = now_seconds() - start;
		if (rc < 0) {
			pb_seterr(err, "cannot run make");
			free(built);
			goto out;
		}
		if (rc != 0 && out_of_space(log, objdir, err)) {
			free(built);
			goto out;
		}
		if (rc != 0) {
			/* a program the machine lacks fails every kernel alike: the
			 * machine's fault, not the patch's result */
			char *lacks = log_missing_program(log);

			if (lacks) {
				pb_seterr(err, "the %s kernel cannot be built here: %s (run scripts/setup); "
					       "nothing was marked built", change->label, lacks);
				free(lacks);
				free(built);
				goto out;
			}
		}
		if (rc != 0 || !path_exists(built)) {
			/* A result, not a perfbot error: keep the log where the report finds it. */
			char *failed_log = xasprintf("%s.failed.log", dir);

			img->built = false;
			img->failure = build_failure_text(log);
			rename(log, failed_log);
			free(img->log);
			img->log = failed_log;
			fprintf(stderr, "perfbot: the %s kernel failed to build (make exit %d)\n",
				change->label, rc);
			free(built);
			ok = true;
			goto out;
		}
		{
			char *dst = xasprintf("%s/bzImage", tmp), *cfgdst = xasprintf("%s/config", tmp),
			     *infotmp = xasprintf("%s/info", tmp);
			bool copied = copy_file(built, dst, err) && copy_file(objcfg, cfgdst, err) &&
				      write_info(infotmp, t, kc, change, img->build_seconds, err);

			free(dst);
			free(cfgdst);
			free(infotmp);
			free(built);
			if (!copied)
				goto out;
		}
	}
	/* The rename is what marks the kernel built. */
	rm_rf(dir);
	if (rename(tmp, dir) != 0) {
		pb_seterr(err, "%s: %s", dir, strerror(errno));
		goto out;
	}
	img->built = true;
	fprintf(stderr, "perfbot: built %s kernel in %.0f s\n", change->label, img->build_seconds);
	ok = true;
out:
	if (lock >= 0) {
		pb_err ignore;

		tree_reset(t, &ignore);
	}
	tree_unlock(lock);
	if (tmp)
		rm_rf(tmp);
	str_free(&in);
	free(dir);
	free(info);
	free(tmp);
	free(objdir);
	free(objcfg);
	free(log);
	return ok;
}

void kernel_image_free(struct kernel_image *img)
{
	free(img->dir);
	free(img->bzimage);
	free(img->config);
	free(img->log);
	free(img->failure);
	memset(img, 0, sizeof(*img));
}
