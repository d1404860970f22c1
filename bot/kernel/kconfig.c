/* The kernel's .config: defconfig + kvm_guest.config + the mm fragment,
 * merged by merge_config.sh, olddefconfig, then every line of the fragment
 * checked; cached per tree, compiler and fragment. */
#include "kconfig.h"
#include "kmake.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does .config text hold a line equal to line, or (prefix) starting with it? */
static bool config_has(const char *config_text, const char *line, bool prefix)
{
	size_t n = strlen(line);

	for (const char *s = config_text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, line, n) && (prefix || s[n] == '\n' || s[n] == '\0'))
			return true;
	return false;
}

bool fragment_check(const char *fragment_text, const char *config_text, pb_str *missing)
{
	char *copy = xstrdup(fragment_text), *line, *save = NULL;
	bool ok = true;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char opt[128];

		line = trim(line);
		if (starts_with(line, "CONFIG_")) {
			/* CONFIG_X=v: that exact line must be in .config */
			if (!config_has(config_text, line, false)) {
				str_addf(missing, "%s%s", missing->len ? ", " : "", line);
				ok = false;
			}
		} else if (sscanf(line, "# %127[A-Za-z0-9_] is not set", opt) == 1 &&
			   starts_with(opt, "CONFIG_")) {
			/* "# CONFIG_X is not set": no CONFIG_X= line may survive */
			char *set = xasprintf("%s=", opt);

			if (config_has(config_text, set, true)) {
				str_addf(missing, "%s%s off", missing->len ? ", " : "", opt);
				ok = false;
			}
			free(set);
		}
	}
	free(copy);
	return ok;
}

static bool run_logged(char *const argv[], const char *cwd, const char *log, pb_err *err,
		       const char *what)
{
	struct spawn_opts o = { .cwd = cwd, .stdout_path = log, .stderr_path = "=stdout",
				.append = true };
	struct spawn_result r;

	if (!spawn_wait(argv, &o, &r) || r.status != 0) {
		char *lacks = log_missing_program(log);

		if (lacks)
			pb_seterr(err, "kernel config: %s failed: %s (run scripts/setup; see %s)", what,
				  lacks, log);
		else
			pb_seterr(err, "kernel config: %s failed (exit %d), see %s", what, r.status, log);
		free(lacks);
		return false;
	}
	return true;
}

/* defconfig, kvm_guest.config, the fragment merged, olddefconfig: a .config
 * in tmp, every step's output in tmp/config.log. */
static bool config_steps(const struct pb_config *cfg, const struct kernel_tree *t,
			 const char *tmp, pb_err *err)
{
	char *o = xasprintf("O=%s", tmp), *log = xasprintf("%s/config.log", tmp);
	char *merge = xasprintf("%s/scripts/kconfig/merge_config.sh", t->work);
	char *defconfig[] = { "make", o, "defconfig", NULL };
	char *kvm[] = { "make", o, "kvm_guest.config", NULL };
	char *mrg[] = { merge, "-m", "-O", (char *)tmp, ".config", cfg->fragment, NULL };
	char *olddef[] = { "make", o, "olddefconfig", NULL };
	bool ok = run_logged(defconfig, t->work, log, err, "make defconfig") &&
		  run_logged(kvm, t->work, log, err, "make kvm_guest.config") &&
		  run_logged(mrg, tmp, log, err, "merge_config.sh") &&
		  run_logged(olddef, t->work, log, err, "make olddefconfig");

	free(o);
	free(log);
	free(merge);
	return ok;
}

/* Makes the .config in <dir>.tmp.<pid>, checks it against the fragment and
 * renames it into place as dir: the rename is what marks it made. */
static bool config_make(const struct pb_config *cfg, struct kernel_tree *t, const char *frag,
			const char *dir, pb_err *err)
{
	char *tmp = xasprintf("%s.tmp.%d", dir, (int)getpid()), *tmpcfg = xasprintf("%s/.config", tmp);
	char *text = NULL;
	pb_str missing;
	bool ok = false;

	str_init(&missing);
	rm_rf(tmp);
	if (!mkdir_p(tmp, err) || !tree_reset(t, err) || !config_steps(cfg, t, tmp, err) ||
	    !(text = read_file(tmpcfg, NULL, err)))
		goto out;
	if (!fragment_check(frag, text, &missing)) {
		pb_seterr(err, "kernel config: %s asks for what the final .config lacks: %s",
			  cfg->fragment, missing.buf);
		goto out;
	}
	rm_rf(dir);
	if (rename(tmp, dir) != 0) {
		pb_seterr(err, "%s: %s", dir, strerror(errno));
		goto out;
	}
	ok = true;
out:
	if (!ok)
		rm_rf(tmp);
	str_free(&missing);
	free(tmp);
	free(tmpcfg);
	free(text);
	return ok;
}

bool kernel_config_prepare(const struct pb_config *cfg, struct kernel_tree *t,
			   struct kernel_config *kc, pb_err *err)
{
	char *frag = read_file(cfg->fragment, NULL, err), *dir, *final;
	char key[65];
	pb_str in;
	bool ok = true;
	int lock = -1;

	memset(kc, 0, sizeof(*kc));
	if (!frag)
		return false;
	/* the config's key: what it is made from */
	str_init(&in);
	str_addf(&in, "tree=%s\ncompiler=%s\nfragment=\n%s", t->tarball_sha, compiler_version(), frag);
	sha256_buf(in.buf, in.len, key);
	str_free(&in);
	dir = xasprintf("%s/configs/%.16s", t->dir, key);
	final = xasprintf("%s/.config", dir);
	if (!path_exists(final)) {
		lock = tree_lock(t);
		ok = config_make(cfg, t, frag, dir, err);
	}
	if (ok) {
		kc->path = xstrdup(final);
		if (!sha256_file(final, kc->sha256, err)) {
			free(kc->path);
			kc->path = NULL;
			ok = false;
		}
	}
	tree_unlock(lock);
	free(frag);
	free(dir);
	free(final);
	return ok;
}

void kernel_config_free(struct kernel_config *kc)
{
	free(kc->path);
	memset(kc, 0, sizeof(*kc));
}
