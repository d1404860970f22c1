#include "layout.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* root, or the user a system directory belongs to (the package creates
 * them for its `perfbot` user), keeps things there; nobody else can. */
static bool system_dir_is_ours(const char *dir)
{
	struct stat st;

	if (geteuid() == 0)
		return true;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
}

static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && home[0] == '/')
		return home;
	pw = getpwuid(geteuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

/* $XDG_<var> if absolute (the spec ignores relative ones), else
 * ~/<fallback>; with "/perfbot" and then leaf appended. */
static char *xdg_dir(const char *var, const char *fallback, const char *leaf)
{
	const char *v = getenv(var), *home = home_dir();

	if (v && v[0] == '/')
		return xasprintf("%s/perfbot%s", v, leaf);
	if (!home)
		return NULL;
	return xasprintf("%s/%s/perfbot%s", home, fallback, leaf);
}

/* The directory of a checkout above the binary: build/perfbot, or a tool
 * one level further down (build/fuzz/...). */
static char *checkout_above(const char *bin_dir)
{
	char *dir = xstrdup(bin_dir);

	for (int up = 0; up < 3; up++) {
		char *init = xasprintf("%s/workloads/init", dir);
		char *fragment = xasprintf("%s/kernels/mm.config", dir);
		bool found = path_exists(init) && path_exists(fragment);
		char *slash;

		free(init);
		free(fragment);
		if (found)
			return dir;
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	free(dir);
	return NULL;
}

/* PREFIX of PREFIX/bin/perfbot or PREFIX/sbin/perfbotd. */
static char *install_prefix(const char *bin_dir)
{
	const char *slash = strrchr(bin_dir, '/');

	if (!slash || (strcmp(slash, "/bin") && strcmp(slash, "/sbin")))
		return NULL;
	return xasprintf("%.*s", (int)(slash - bin_dir), bin_dir);
}

void layout_compute(struct pb_layout *l, const char *bin_dir)
{
	char *prefix;

	memset(l, 0, sizeof(*l));
	/* a checkout above the binary wins; else a binary in some bin/ is an
	 * install, even one whose share/perfbot is missing: its errors then
	 * name the files an install lacks, not some path beside config.ini */
	l->data_dir = bin_dir ? checkout_above(bin_dir) : NULL;
	prefix = bin_dir && !l->data_dir ? install_prefix(bin_dir) : NULL;
	if (prefix) {
		l->installed = true;
		l->data_dir = xasprintf("%s/share/perfbot", prefix);
		l->guest_bin_dir = xasprintf("%s/lib/perfbot/workloads", prefix);
		l->state_dir = system_dir_is_ours(LAYOUT_SYSTEM_STATE)
				       ? xstrdup(LAYOUT_SYSTEM_STATE)
				       : xdg_dir("XDG_STATE_HOME", ".local/state", "");
		if (!l->state_dir) /* no home at all: as for the cache below */
			l->state_dir = xstrdup(LAYOUT_SYSTEM_STATE);
		free(prefix);
	} else {
		/* the guest programs are built beside perfbot (build/workloads/) */
		l->guest_bin_dir = xasprintf("%s/workloads", bin_dir ? bin_dir : "build");
	}
	l->cache_dir = system_dir_is_ours(LAYOUT_SYSTEM_CACHE) ? xstrdup(LAYOUT_SYSTEM_CACHE)
							       : xdg_dir("XDG_CACHE_HOME", ".cache", "");
	if (!l->cache_dir) /* no home at all: say where in the error, not crash */
		l->cache_dir = xstrdup(LAYOUT_SYSTEM_CACHE);
	l->user_config = xdg_dir("XDG_CONFIG_HOME", ".config", "/config.ini");
	l->system_config = xstrdup(PERFBOT_SYSCONFDIR "/perfbot/config.ini");
}

void layout_free(struct pb_layout *l)
{
	free(l->data_dir);
	free(l->guest_bin_dir);
	free(l->state_dir);
	free(l->cache_dir);
	free(l->user_config);
	free(l->system_config);
	memset(l, 0, sizeof(*l));
}

const struct pb_layout *layout_get(void)
{
	static struct pb_layout layout;
	static bool done;

	if (!done) {
		char *bin_dir = exe_dir();

		layout_compute(&layout, bin_dir);
		free(bin_dir);
		done = true;
	}
	return &layout;
}
