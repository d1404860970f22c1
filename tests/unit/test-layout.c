/* Where perfbot finds its own files and keeps its state and cache: a
 * checkout above the binary, an install under a prefix (with or without
 * its data), and the XDG directories of a user who does not own the
 * system ones. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "layout.h"
#include "util.h"

static void touch(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel), *slash = strrchr(path, '/');
	pb_err err = { "" };

	*slash = '\0';
	CHECK(mkdir_p(path, &err));
	*slash = '/';
	free(test_write(dir, rel, "x\n"));
	free(path);
}

static void test_layout_places(void)
{
	char *tmp = test_tmpdir(), *p;
	struct pb_layout l;
	bool root = geteuid() == 0;

	/* a checkout: build/perfbot, and a tool one level further down */
	touch(tmp, "co/workloads/init");
	touch(tmp, "co/kernels/mm.config");
	touch(tmp, "co/build/fuzz/x");
	p = xasprintf("%s/co/build", tmp);
	layout_compute(&l, p);
	free(p);
	CHECK(!l.installed);
	p = xasprintf("%s/co", tmp);
	CHECK_STR(l.data_dir, p);
	CHECK(l.state_dir == NULL); /* beside config.ini */
	free(p);
	p = xasprintf("%s/co/build/workloads", tmp);
	CHECK_STR(l.guest_bin_dir, p);
	free(p);
	layout_free(&l);
	p = xasprintf("%s/co/build/fuzz", tmp);
	layout_compute(&l, p);
	free(p);
	p = xasprintf("%s/co", tmp);
	CHECK_STR(l.data_dir, p);
	free(p);
	layout_free(&l);

	/* an install, its data there or not: both are installs */
	touch(tmp, "usr/share/perfbot/workloads/init");
	touch(tmp, "usr/bin/perfbot");
	touch(tmp, "bare/bin/perfbot");
	setenv("XDG_STATE_HOME", "/xdg/state", 1);
	setenv("XDG_CACHE_HOME", "relative/is/ignored", 1);
	setenv("XDG_CONFIG_HOME", "/xdg/config", 1);
	for (int i = 0; i < 2; i++) {
		const char *prefix = i ? "bare" : "usr";

		p = xasprintf("%s/%s/bin", tmp, prefix);
		layout_compute(&l, p);
		free(p);
		CHECK(l.installed);
		p = xasprintf("%s/%s/share/perfbot", tmp, prefix);
		CHECK_STR(l.data_dir, p);
		free(p);
		p = xasprintf("%s/%s/lib/perfbot/workloads", tmp, prefix);
		CHECK_STR(l.guest_bin_dir, p);
		free(p);
		/* root keeps things in the system's directories; a user who
		 * does not own them in the XDG ones (a relative XDG_ is ignored) */
		if (root) {
			CHECK_STR(l.state_dir, LAYOUT_SYSTEM_STATE);
			CHECK_STR(l.cache_dir, LAYOUT_SYSTEM_CACHE);
		} else {
			CHECK_STR(l.state_dir, "/xdg/state/perfbot");
			p = xasprintf("%s/.cache/perfbot", getenv("HOME"));
			CHECK_STR(l.cache_dir, p);
			free(p);
		}
		CHECK_STR(l.user_config, "/xdg/config/perfbot/config.ini");
		CHECK_STR(l.system_config, PERFBOT_SYSCONFDIR "/perfbot/config.ini");
		layout_free(&l);
	}
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("XDG_CONFIG_HOME");

	/* neither: the config's own directory decides (data_dir NULL) */
	touch(tmp, "elsewhere/tools/perfbot");
	p = xasprintf("%s/elsewhere/tools", tmp);
	layout_compute(&l, p);
	free(p);
	CHECK(!l.installed && l.data_dir == NULL);
	layout_free(&l);
	layout_compute(&l, NULL);
	CHECK(!l.installed && l.data_dir == NULL && l.guest_bin_dir);
	layout_free(&l);
	CHECK(rm_rf(tmp));
	free(tmp);
}

void test_layout(void)
{
	test_layout_places();
}
