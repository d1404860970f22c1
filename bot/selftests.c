#include "selftests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool selftests_build(const struct pb_config *cfg, const struct kernel_tree *t, char **dir,
		     pb_err *err)
{
	char *top = xasprintf("%s/selftests-vm", t->dir), *tmp = xasprintf("%s.tmp.%d", top, (int)getpid());
	char *bin = xasprintf("%s/bin", top), *stamp = xasprintf("%s/.built", bin);
	char *hdr = NULL, *obj = NULL, *out = NULL, *log = NULL, *src = NULL;
	bool ok = false;

	(void)cfg;
	*dir = NULL;
	if (path_exists(stamp)) {
		*dir = bin;
		bin = NULL;
		ok = true;
		goto out;
	}
	hdr = xasprintf("%s/hdr", tmp);
	obj = xasprintf("%s/obj", tmp);
	out = xasprintf("%s/bin", tmp);
	log = xasprintf("%s/build.log", tmp);
	src = xasprintf("%s/tools/testing/selftests/vm", t->pristine);
	rm_rf(tmp);
	if (!mkdir_p(out, err) || !mkdir_p(obj, err))
		goto out;
	fprintf(stderr, "perfbot: building the vm selftests of %s (once per tree) in %s\n", t->version,
		top);
	{
		/* the UAPI headers of this very tree, not the host's */
		char *o = xasprintf("O=%s", obj), *ih = xasprintf("INSTALL_HDR_PATH=%s", hdr);
		char *argv[] = { "make", "-s", o, "headers_install", ih, NULL };
		struct spawn_opts so = { .cwd = t->pristine, .stdout_path = log, .stderr_path = "=stdout" };
		struct spawn_result r;

		ok = spawn_wait(argv, &so, &r) && r.status == 0;
		free(o);
		free(ih);
		if (!ok) {
			pb_seterr(err, "make headers_install failed for the vm selftests (see %s)", log);
			goto out;
		}
	}
	{
		/* -k: a test that needs a library we lack is left out, not the suite */
		char *output = xasprintf("OUTPUT=%s", out), *kh = xasprintf("KHDR_INCLUDES=-isystem %s/include", hdr);
		char *argv[] = { "make", "-k", output, kh, "EXTRA_CFLAGS=-static", "LDFLAGS=-static", NULL };
		struct spawn_opts so = { .cwd = src, .stdout_path = log, .stderr_path = "=stdout", .append = true };
		struct spawn_result r;

		spawn_wait(argv, &so, &r);
		free(output);
		free(kh);
	}
	{
		char *s = xasprintf("%s/.built", out);

		ok = write_file_atomic(s, "", 0, err);
		free(s);
	}
	rm_rf(obj);
	/* The rename is what marks them built; a perfbot that lost the race keeps the other's. */
	if (ok && rename(tmp, top) != 0 && !path_exists(stamp)) {
		pb_seterr(err, "%s: cannot put the built selftests in place", top);
		ok = false;
	}
	if (ok) {
		*dir = bin;
		bin = NULL;
	}
out:
	rm_rf(tmp);
	free(top);
	free(tmp);
	free(bin);
	free(stamp);
	free(hdr);
	free(obj);
	free(out);
	free(log);
	free(src);
	return ok;
}
