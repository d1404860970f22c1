/* The kernel's vm selftests: built static from the pristine tree, once per
 * tree, compiler and static libraries, for the guests that run them. */
#include "selftests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"

/* What the built set depends on besides the tree: the compiler, and the
 * static libraries some tests need (a test that lacked one was left out, so
 * installing it later must rebuild the set). */
static char *build_inputs(void)
{
	static const char *const libs[] = { "/usr/lib/x86_64-linux-gnu/libnuma.a",
					    "/usr/lib/x86_64-linux-gnu/libcap.a" };
	char *argv[] = { "gcc", "--version", NULL };
	pb_str in, out;
	int st;

	str_init(&in);
	str_init(&out);
	if (spawn_capture(argv, NULL, false, &out, &st) && st == 0)
		str_addf(&in, "%.*s\n", (int)strcspn(out.buf, "\n"), out.buf);
	for (size_t i = 0; i < PB_ARRAY_SIZE(libs); i++)
		str_addf(&in, "%s %s\n", libs[i], path_exists(libs[i]) ? "present" : "absent");
	str_free(&out);
	return str_steal(&in);
}

/* The UAPI headers of this very tree, not the host's, into hdr. */
static bool headers_install(const struct kernel_tree *t, const char *obj, const char *hdr,
			    const char *log, pb_err *err)
{
	char *o = xasprintf("O=%s", obj), *ih = xasprintf("INSTALL_HDR_PATH=%s", hdr);
	char *argv[] = { "make", "-s", o, "headers_install", ih, NULL };
	struct spawn_opts so = { .cwd = t->pristine, .stdout_path = log, .stderr_path = "=stdout" };
	struct spawn_result r;
	bool ok = spawn_wait(argv, &so, &r) && r.status == 0;

	free(o);
	free(ih);
	if (!ok) {
		char *lacks = log_missing_program(log);

		if (lacks)
			pb_seterr(err, "make headers_install failed for the vm selftests: %s (run "
				       "scripts/setup; see %s)", lacks, log);
		else
			pb_seterr(err, "make headers_install failed for the vm selftests (see %s)", log);
		free(lacks);
	}
	return ok;
}

/* make -k in the selftests' source: a test that needs a library we lack is
 * left out, not the suite. */
static void make_tests(const char *src, const char *out, const char *hdr, const char *log)
{
	char *output = xasprintf("OUTPUT=%s", out), *kh = xasprintf("KHDR_INCLUDES=-isystem %s/include", hdr);
	char *argv[] = { "make", "-k", output, kh, "EXTRA_CFLAGS=-static", "LDFLAGS=-static", NULL };
	struct spawn_opts so = { .cwd = src, .stdout_path = log, .stderr_path = "=stdout", .append = true };
	struct spawn_result r;

	spawn_wait(argv, &so, &r);
	free(output);
	free(kh);
}

bool selftests_build(const struct kernel_tree *t, char **dir, pb_err *err)
{
	char *top = xasprintf("%s/selftests-vm", t->dir), *tmp = xasprintf("%s.tmp.%d", top, (int)getpid());
	char *bin = xasprintf("%s/bin", top), *stamp = xasprintf("%s/.built", bin);
	char *log = xasprintf("%s.build.log", top), *inputs = build_inputs();
	char *had = read_file(stamp, NULL, NULL), *hdr = NULL, *obj = NULL, *out = NULL, *src = NULL;
	bool ok = false;

	*dir = NULL;
	if (had && !strcmp(had, inputs)) {
		*dir = bin;
		bin = NULL;
		ok = true;
		goto out;
	}
	hdr = xasprintf("%s/hdr", tmp);
	obj = xasprintf("%s/obj", tmp);
	out = xasprintf("%s/bin", tmp);
	src = xasprintf("%s/tools/testing/selftests/vm", t->pristine);
	rm_rf(tmp);
	if (!mkdir_p(out, err) || !mkdir_p(obj, err))
		goto out;
	event_progress("perfbot: building the vm selftests of %s (once per tree) in %s\n", t->version,
		       top);
	ok = headers_install(t, obj, hdr, log, err);
	if (!ok)
		goto out;
	make_tests(src, out, hdr, log);
	{
		char *s = xasprintf("%s/.built", out);

		ok = write_file_atomic(s, inputs, strlen(inputs), err);
		free(s);
	}
	rm_rf(obj);
	/* The rename is what marks them built; a perfbot that lost the race keeps the other's. */
	if (ok && had)
		rm_rf(top); /* built with other inputs */
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
	free(inputs);
	free(had);
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

bool host_selftests(const struct kernel_tree *t, struct guest_plan *gp, pb_err *err)
{
	for (int i = 0; i < gp->nworkloads; i++)
		if (gp->workloads[i]->selftests_vm)
			return gp->selftests_dir || selftests_build(t, &gp->selftests_dir, err);
	return true;
}
