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

bool kernel_config_prepare(const struct pb_config *cfg, struct kernel_tree *t,
			   struct kernel_config *kc, pb_err *err)
{
	char *frag = read_file(cfg->fragment, NULL, err), *dir = NULL, *tmp = NULL;
	const char *gcc;
	char *log = NULL, *final = NULL, *merge = NULL, *text = NULL;
	char key[65];
	pb_str in, missing;
	bool ok = false;
	int lock = -1;

	memset(kc, 0, sizeof(*kc));
	if (!frag)
		return false;
	gcc = compiler_version();
	str_init(&in);
	str_init(&missing);
	str_addf(&in, "tree=%s\ncompiler=%s\nfragment=\n%s", t->tarball_sha, gcc, frag);
	sha256_buf(in.buf, in.len, key);
	dir = xasprintf("%s/configs/%.16s", t->dir, key);
	final = xasprintf("%s/.config", dir);
	if (!path_exists(final)) {
		lock = tree_lock(t);
		tmp = xasprintf("%s.tmp.%d", dir, (int)getpid());
		log = xasprintf("%s/config.log", tmp);
		merge = xasprintf("%s/scripts/kconfig/merge_config.sh", t->work);
		rm_rf(tmp);
		if (!mkdir_p(tmp, err) || !tree_reset(t, err))
			goto out;
		{
			char *o = xasprintf("O=%s", tmp);
			char *defconfig[] = { "make", o, "defconfig", NULL };
			char *kvm[] = { "make", o, "kvm_guest.config", NULL };
			char *mrg[] = { merge, "-m", "-O", tmp, ".config", cfg->fragment, NULL };
			char *olddef[] = { "make", o, "olddefconfig", NULL };
			bool steps = run_logged(defconfig, t->work, log, err, "make defconfig") &&
				     run_logged(kvm, t->work, log, err, "make kvm_guest.config") &&
				     run_logged(mrg, tmp, log, err, "merge_config.sh") &&
				     run_logged(olddef, t->work, log, err, "make olddefconfig");

			free(o);
			if (!steps)
				goto out;
		}
		{
			char *tmpcfg = xasprintf("%s/.config", tmp);

			text = read_file(tmpcfg, NULL, err);
			free(tmpcfg);
		}
		if (!text)
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
		free(text);
		text = NULL;
	}
	kc->path = xstrdup(final);
	if (!sha256_file(final, kc->sha256, err)) {
		free(kc->path);
		kc->path = NULL;
		goto out;
	}
	ok = true;
out:
	if (tmp && !ok)
		rm_rf(tmp);
	tree_unlock(lock);
	str_free(&in);
	str_free(&missing);
	free(frag);
	free(dir);
	free(tmp);
	free(log);
	free(final);
	free(merge);
	free(text);
	return ok;
}

void kernel_config_free(struct kernel_config *kc)
{
	free(kc->path);
	memset(kc, 0, sizeof(*kc));
}
