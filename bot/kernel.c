#include "kernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

const char *pair_method_name(enum pair_method m)
{
	switch (m) {
	case PAIR_FORWARD:
		return "forward";
	case PAIR_REVERSE:
		return "reverse";
	case PAIR_PORT:
		return "port";
	}
	return "?";
}

/* One perfbot at a time touches a tree's work copy and object directories. */
static int tree_lock(const struct kernel_tree *t)
{
	char *path = xasprintf("%s.lock", t->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	free(path);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		fprintf(stderr, "perfbot: waiting for another perfbot that is using %s\n", t->dir);
		flock(fd, LOCK_EX);
	}
	return fd;
}

static void tree_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

static char *read_makefile_var(const char *makefile, const char *var)
{
	char *text = read_file(makefile, NULL, NULL), *line, *save = NULL, *val = NULL;
	size_t n = strlen(var);

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, var, n) && (line[n] == ' ' || line[n] == '=')) {
			char *eq = strchr(line, '=');

			if (eq)
				val = xstrdup(trim(eq + 1));
			break;
		}
	free(text);
	return val;
}

static void remove_stale_tmp(const char *dir);

/* The first line tar (or its decompressor) wrote to path, or "". */
static char *first_line_of(const char *path)
{
	char *text = read_file(path, NULL, NULL);
	char *line = xstrndup(text ? text : "", text ? strcspn(text, "\n") : 0);

	free(text);
	return line;
}

/* Extracts the tarball beside t->dir, in <key>.tmp.<pid>, and renames its
 * top directory into place as t->dir/pristine, creating t->dir only then:
 * a tarball tar cannot read (truncated, corrupt) or that is no kernel
 * leaves nothing behind but what was there before. */
static bool extract_tarball(const struct pb_config *cfg, struct kernel_tree *t, pb_err *err)
{
	char *tmp = xasprintf("%s.tmp.%d", t->dir, (int)getpid());
	char *errors = xasprintf("%s/.tar-errors", tmp);
	char *argv[] = { "tar", "-C", tmp, "-xf", cfg->kernel_source, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = errors };
	struct spawn_result r;
	DIR *d;
	struct dirent *de;
	char *top = NULL, *trees = xstrndup(t->dir, (size_t)(strrchr(t->dir, '/') - t->dir));
	bool ok = false, tty = isatty(2), made_dir = false;

	remove_stale_tmp(trees);
	rm_rf(tmp);
	free(trees);
	if (!mkdir_p(tmp, err))
		goto out;
	/* on a terminal, a line the result replaces; elsewhere (logs) the
	 * result's line alone, so that a failure is one line */
	if (tty)
		fprintf(stderr, "perfbot: extracting %s into %s (once per tarball)", cfg->kernel_source,
			t->pristine);
	if (!spawn_wait(argv, &o, &r) || r.status != 0) {
		char *said = first_line_of(errors);

		pb_seterr(err, "%s: tar could not extract it (exit %d%s%.200s; truncated, corrupt or the "
			       "disk full?)", cfg->kernel_source, r.status, said[0] ? ": " : "", said);
		free(said);
		goto out;
	}
	d = opendir(tmp);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			free(top);
			top = xasprintf("%s/%s", tmp, de->d_name);
		}
	if (d)
		closedir(d);
	if (!top || !path_exists(top)) {
		pb_seterr(err, "%s: no top directory in the tarball", cfg->kernel_source);
		goto out;
	}
	{
		char *mk = xasprintf("%s/Makefile", top);
		bool has = path_exists(mk);

		free(mk);
		if (!has) {
			pb_seterr(err, "%s: not a kernel source tarball (no Makefile)",
				  cfg->kernel_source);
			goto out;
		}
	}
	if (mkdir(t->dir, 0755) == 0) {
		made_dir = true;
	} else if (errno != EEXIST) {
		pb_seterr(err, "%s: %s", t->dir, strerror(errno));
		goto out;
	}
	/* The rename is what marks the tree complete. */
	if (rename(top, t->pristine) != 0) {
		pb_seterr(err, "%s: %s", t->pristine, strerror(errno));
		if (made_dir)
			rmdir(t->dir);
		goto out;
	}
	ok = true;
out:
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (ok)
		fprintf(stderr, "perfbot: extracted %s into %s (once per tarball)\n", cfg->kernel_source,
			t->pristine);
	rm_rf(tmp);
	free(tmp);
	free(errors);
	free(top);
	return ok;
}

static bool make_work_copy(struct kernel_tree *t, pb_err *err)
{
	char *tmp = xasprintf("%s.tmp.%d", t->work, (int)getpid());
	char *argv[] = { "cp", "-al", t->pristine, tmp, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "" };
	struct spawn_result r;
	bool ok;

	rm_rf(tmp);
	/* Hard links cost nothing; patch(1) and our own reset replace files
	 * rather than writing into them, so the pristine tree stays pristine. */
	ok = spawn_wait(argv, &o, &r) && r.status == 0 && rename(tmp, t->work) == 0;
	if (!ok) {
		pb_seterr(err, "%s: cannot make the work copy of the tree", t->work);
		rm_rf(tmp);
	}
	free(tmp);
	return ok;
}

/* Compressed (xz, gzip, bzip2, zstd) or plain tar by its first bytes:
 * anything else is refused before a cache directory is made for it. */
static bool tarball_looks_like_one(const char *path, pb_err *err)
{
	static const struct {
		const char *magic;
		size_t len, at;
	} kinds[] = { { "\xfd" "7zXZ", 6, 0 }, { "\x1f\x8b", 2, 0 }, { "BZh", 3, 0 },
		      { "\x28\xb5\x2f\xfd", 4, 0 }, { "ustar", 5, 257 } };
	unsigned char head[262] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;

	if (f)
		fclose(f);
	for (size_t i = 0; i < PB_ARRAY_SIZE(kinds); i++)
		if (n >= kinds[i].at + kinds[i].len &&
		    !memcmp(head + kinds[i].at, kinds[i].magic, kinds[i].len))
			return true;
	pb_seterr(err, "kernel source %s is not a tarball (apt-get install --reinstall linux-source-6.1)",
		  path);
	return false;
}

bool kernel_source_check(const struct pb_config *cfg, pb_err *err)
{
	if (!path_exists(cfg->kernel_source)) {
		pb_seterr(err, "kernel source %s not found (apt-get install linux-source-6.1)",
			  cfg->kernel_source);
		return false;
	}
	return tarball_looks_like_one(cfg->kernel_source, err);
}

bool tree_prepare(const struct pb_config *cfg, struct kernel_tree *t, pb_err *err)
{
	char hex[65];
	char *mk, *v, *p, *s, *trees, *lock_path;
	int lock;
	bool ok = true, had_cache, had_trees, had_lock;

	memset(t, 0, sizeof(*t));
	if (!kernel_source_check(cfg, err) || !sha256_file(cfg->kernel_source, hex, err))
		return false;
	t->tarball_sha = xstrdup(hex);
	t->key = xstrndup(hex, 16);
	t->cache_dir = xstrdup(cfg->cache_dir);
	t->dir = xasprintf("%s/trees/%s", cfg->cache_dir, t->key);
	t->pristine = xasprintf("%s/pristine", t->dir);
	t->work = xasprintf("%s/work", t->dir);
	/* t->dir itself only once its tree is extracted (extract_tarball) */
	trees = xasprintf("%s/trees", cfg->cache_dir);
	had_cache = is_dir(cfg->cache_dir);
	had_trees = is_dir(trees);
	lock_path = xasprintf("%s.lock", t->dir);
	had_lock = path_exists(lock_path);
	if (!mkdir_p(trees, err)) {
		ok = false;
	} else {
		lock = tree_lock(t);
		if (!is_dir(t->pristine)) {
			ok = extract_tarball(cfg, t, err);
			/* a tarball that never extracted leaves no trace in the cache */
			if (!ok && !had_lock)
				unlink(lock_path);
		}
		if (ok && !is_dir(t->work))
			ok = make_work_copy(t, err);
		tree_unlock(lock);
	}
	if (!ok && !had_trees)
		rmdir(trees); /* only if empty: another tree may have come meanwhile */
	if (!ok && !had_cache)
		rmdir(cfg->cache_dir);
	free(trees);
	free(lock_path);
	if (!ok) {
		tree_free(t);
		return false;
	}
	mk = xasprintf("%s/Makefile", t->pristine);
	v = read_makefile_var(mk, "VERSION");
	p = read_makefile_var(mk, "PATCHLEVEL");
	s = read_makefile_var(mk, "SUBLEVEL");
	free(mk);
	if (!v || !p) {
		pb_seterr(err, "%s: no VERSION/PATCHLEVEL in its Makefile", t->pristine);
		free(v);
		free(p);
		free(s);
		tree_free(t);
		return false;
	}
	t->series = xasprintf("%s.%s", v, p);
	t->version = xasprintf("%s.%s.%s", v, p, s ? s : "0");
	free(v);
	free(p);
	free(s);
	return true;
}

void tree_free(struct kernel_tree *t)
{
	free(t->tarball_sha);
	free(t->key);
	free(t->version);
	free(t->series);
	free(t->dir);
	free(t->pristine);
	free(t->work);
	free(t->cache_dir);
	memset(t, 0, sizeof(*t));
}

static char *dirty_path(const struct kernel_tree *t)
{
	return xasprintf("%s/work.dirty", t->dir);
}

/* Puts every file the last applied change touched back as it is in the
 * pristine tree, as a new file with a new mtime so make rebuilds it. */
static bool tree_reset(struct kernel_tree *t, pb_err *err)
{
	char *dp = dirty_path(t), *text = read_file(dp, NULL, NULL), *line, *save = NULL;
	bool ok = true;

	if (!text) {
		free(dp);
		return true;
	}
	for (line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
		char *w = xasprintf("%s/%s", t->work, line), *pr = xasprintf("%s/%s", t->pristine, line);

		if (unlink(w) != 0 && errno != ENOENT) {
			pb_seterr(err, "%s: %s", w, strerror(errno));
			ok = false;
		} else if (path_exists(pr)) {
			ok = copy_file(pr, w, err);
		}
		free(w);
		free(pr);
	}
	if (ok)
		unlink(dp);
	free(text);
	free(dp);
	return ok;
}

/* Runs patch(1) on the work tree; out gets what it said. */
static int run_patch(const struct kernel_tree *t, const char *file, bool reverse, bool dry_run,
		     pb_str *out)
{
	char *argv[12];
	int n = 0, status = 0;

	argv[n++] = "patch";
	argv[n++] = "-p1";
	argv[n++] = "-f"; /* never ask, never guess "reversed" */
	argv[n++] = "--no-backup-if-mismatch";
	if (reverse)
		argv[n++] = "-R";
	if (dry_run)
		argv[n++] = "--dry-run";
	else {
		argv[n++] = "-r";
		argv[n++] = "-";
	}
	argv[n++] = "-i";
	argv[n++] = (char *)file;
	argv[n] = NULL;
	if (!spawn_capture(argv, t->work, true, out, &status))
		return -1;
	return status;
}

/* The files patch(1) named in its "checking file X" / "patching file X" lines. */
static void touched_files(const char *patch_out, pb_str *list)
{
	const char *s = patch_out;

	while ((s = strstr(s, " file "))) {
		const char *e;

		s += 6;
		e = s + strcspn(s, "\n");
		if (e > s) {
			str_addn(list, s, (size_t)(e - s));
			str_add(list, "\n");
		}
		s = e;
	}
}

/* "mm/migrate.c hunk #1 FAILED at 1288; ..." from patch(1)'s output. */
static char *summarize_patch_output(const char *out, bool failures_only)
{
	pb_str s;
	char *copy = xstrdup(out), *line, *save = NULL, *file = NULL;

	str_init(&s);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (starts_with(line, "checking file ") || starts_with(line, "patching file ")) {
			file = line + 14;
		} else if (starts_with(line, "Hunk #")) {
			bool failed = strstr(line, "FAILED") != NULL;

			if (failures_only && !failed)
				continue;
			if (s.len)
				str_add(&s, "; ");
			str_addf(&s, "%s %s", file ? file : "?", line);
		} else if (strstr(line, "can't find file") || strstr(line, "No file to patch") ||
			   strstr(line, "malformed") || strstr(line, "Only garbage")) {
			if (s.len)
				str_add(&s, "; ");
			str_add(&s, line);
		}
	}
	free(copy);
	if (!s.len)
		str_add(&s, failures_only ? "patch(1) failed" : "clean");
	return str_steal(&s);
}

static bool dry_run(struct kernel_tree *t, const char *file, bool reverse, char **summary,
		    pb_err *err)
{
	pb_str out;
	int rc;

	str_init(&out);
	rc = run_patch(t, file, reverse, true, &out);
	if (rc < 0) {
		pb_seterr(err, "patch(1) not found (apt-get install patch)");
		str_free(&out);
		*summary = NULL;
		return false;
	}
	*summary = summarize_patch_output(out.buf, rc != 0);
	str_free(&out);
	return rc == 0;
}

void kernel_change_set(struct kernel_change *c, const char *file, bool reverse, const char *label)
{
	memset(c, 0, sizeof(*c));
	c->label = xstrdup(label);
	c->reverse = reverse;
	if (file) {
		c->file = xstrdup(file);
		if (!sha256_file(file, c->sha256, NULL))
			c->sha256[0] = '\0';
	}
}

bool pair_decide(const struct pb_config *cfg, struct kernel_tree *t, const struct pb_patch *p,
		 struct pair_plan *plan, pb_err *err)
{
	char *fwd = NULL, *rev = NULL, *port = NULL, *port_sum = NULL;
	bool ok = false;
	int lock = tree_lock(t);

	memset(plan, 0, sizeof(*plan));
	if (!tree_reset(t, err))
		goto out;
	if (dry_run(t, p->file, false, &fwd, err)) {
		plan->method = PAIR_FORWARD;
		kernel_change_set(&plan->without, NULL, false, "base");
		kernel_change_set(&plan->with, p->file, false, "base+patch");
		plan->detail = xasprintf("applies forward to %s: %s", t->version, fwd);
		ok = true;
		goto out;
	}
	if (!fwd)
		goto out;
	if (dry_run(t, p->file, true, &rev, err)) {
		plan->method = PAIR_REVERSE;
		kernel_change_set(&plan->without, p->file, true, "base-patch");
		kernel_change_set(&plan->with, NULL, false, "base");
		plan->detail = xasprintf("already in %s, reverts cleanly: %s", t->version, rev);
		ok = true;
		goto out;
	}
	if (!rev)
		goto out;
	if (p->upstream[0])
		port = xasprintf("%s/%s/%s.patch", cfg->ports_dir, t->series, p->upstream);
	if (port && path_exists(port)) {
		if (!dry_run(t, port, false, &port_sum, err)) {
			pb_seterr(err, "patch %03d: its port %s does not apply to %s: %s", p->number, port,
				  t->version, port_sum ? port_sum : "");
			goto out;
		}
		plan->method = PAIR_PORT;
		kernel_change_set(&plan->without, port, false, "base+port");
		kernel_change_set(&plan->with, NULL, false, "base");
		plan->detail = xasprintf("already in %s in reworked form; pre-fix behaviour "
					 "restored by port %s", t->version, port);
		ok = true;
		goto out;
	}
	pb_seterr(err,
		  "patch %03d applies neither forward nor in reverse to linux %s and has no port %s "
		  "(forward: %s | reverse: %s)",
		  p->number, t->version,
		  port ? port : "(no upstream commit named)", fwd, rev);
out:
	tree_unlock(lock);
	free(fwd);
	free(rev);
	free(port);
	free(port_sum);
	if (!ok)
		pair_plan_free(plan);
	return ok;
}

void kernel_change_free(struct kernel_change *c)
{
	free(c->file);
	free(c->label);
	memset(c, 0, sizeof(*c));
}

void pair_plan_free(struct pair_plan *plan)
{
	kernel_change_free(&plan->without);
	kernel_change_free(&plan->with);
	free(plan->detail);
	memset(plan, 0, sizeof(*plan));
}

/* "gcc (Debian 12.2.0-14) 12.2.0": part of every config and kernel key.
 * Asked once per process. */
static const char *compiler_version(void)
{
	static char version[256];

	if (!version[0]) {
		char *argv[] = { "gcc", "--version", NULL };
		pb_str out;
		int st;

		str_init(&out);
		if (spawn_capture(argv, NULL, false, &out, &st) && st == 0)
			snprintf(version, sizeof(version), "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
		else
			snprintf(version, sizeof(version), "unknown");
		str_free(&out);
	}
	return version;
}

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

static bool files_equal(const char *a, const char *b)
{
	size_t la, lb;
	char *x = read_file(a, &la, NULL), *y = read_file(b, &lb, NULL);
	bool eq = x && y && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return eq;
}

/* The last lines of a failed build that say what went wrong. */
static char *build_failure_text(const char *log)
{
	char *text = read_file(log, NULL, NULL), *line, *save = NULL;
	pb_str s, tail;
	int errors = 0;

	str_init(&s);
	str_init(&tail);
	if (!text)
		return xstrdup("no build log");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if ((strstr(line, "error:") || strstr(line, "Error ")) && errors < 12) {
			str_add(&s, line);
			str_add(&s, "\n");
			errors++;
		}
		str_add(&tail, line);
		str_add(&tail, "\n");
		if (tail.len > 4000) {
			char *keep = xstrdup(tail.buf + tail.len - 2000);

			str_free(&tail);
			str_init(&tail);
			str_add(&tail, keep);
			free(keep);
		}
	}
	free(text);
	if (!s.len) {
		str_free(&s);
		return str_steal(&tail);
	}
	str_free(&tail);
	return str_steal(&s);
}

static void image_paths(struct kernel_image *img, const char *dir)
{
	img->dir = xstrdup(dir);
	img->bzimage = xasprintf("%s/bzImage", dir);
	img->config = xasprintf("%s/config", dir);
	img->log = xasprintf("%s/build.log", dir);
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* make runs in a process group of its own (spawn_pipe), noted in
 * <tree>/build.pgid while it runs. The top make dies with perfbot
 * (PR_SET_PDEATHSIG), but its sub-makes and compilers would go on writing
 * into the object directory; the next build, under the tree's lock, kills
 * what is left of that group first. pid 0: the build is over. */
static void build_group_note(const struct kernel_tree *t, pid_t pid)
{
	char *path = xasprintf("%s/build.pgid", t->dir);

	if (pid) {
		char *s = xasprintf("%d\n", (int)pid);

		write_file_atomic(path, s, strlen(s), NULL);
		free(s);
	} else {
		unlink(path);
	}
	free(path);
}

static void kill_orphaned_build(const struct kernel_tree *t)
{
	char *path = xasprintf("%s/build.pgid", t->dir), *text = read_file(path, NULL, NULL);
	long pgid = text ? strtol(text, NULL, 10) : 0;

	if (pgid > 1 && pgid != getpgrp() && kill((pid_t)-pgid, 0) == 0) {
		fprintf(stderr, "perfbot: stopping the build (process group %ld) that a perfbot which "
				"died left running in %s\n", pgid, t->dir);
		kill((pid_t)-pgid, SIGKILL);
		for (int i = 0; i < 100 && kill((pid_t)-pgid, 0) == 0; i++)
			usleep(100 * 1000);
	}
	unlink(path);
	free(text);
	free(path);
}

/* make ... bzImage, its output to log, a progress line on the terminal. */
static int run_make(const struct pb_config *cfg, struct kernel_tree *t, const char *objdir,
		    const char *log, const char *label)
{
	char *o = xasprintf("O=%s", objdir), *j = xasprintf("-j%d", cfg->jobs ? cfg->jobs : ncpus());
	char *steps_file = xasprintf("%s/.perfbot-steps", objdir);
	char *prev = read_file(steps_file, NULL, NULL);
	long expected = prev ? strtol(prev, NULL, 10) : 0;
	bool ccache = program_in_path("ccache");
	char *ccache_dir = cfg->ccache_dir ? xasprintf("CCACHE_DIR=%s", cfg->ccache_dir)
					   : xasprintf("CCACHE_DIR=%s/ccache", cfg->cache_dir);
	char *ccache_base = xasprintf("CCACHE_BASEDIR=%s", t->cache_dir);
	char *env[] = { ccache_dir, ccache_base, "CCACHE_MAXSIZE=8G", "KBUILD_BUILD_USER=perfbot",
			"KBUILD_BUILD_HOST=perfbot",
			"KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 2026", NULL };
	char *argv[] = { "make", o, j, ccache ? "CC=ccache gcc" : "CC=gcc", "bzImage", NULL };
	struct progress pr;
	FILE *out = fopen(log, "w"), *in;
	char *line = NULL, last[160] = "";
	size_t cap = 0;
	long steps = 0;
	int fd, st = 0;
	pid_t pid;

	free(prev);
	if (!out)
		goto fail;
	pid = spawn_pipe(argv, t->work, env, &fd);
	if (pid < 0)
		goto fail;
	build_group_note(t, pid);
	in = fdopen(fd, "r");
	progress_init(&pr);
	while (getline(&line, &cap, in) > 0) {
		fputs(line, out);
		if (line[0] == ' ' && line[1] == ' ' && line[2] >= 'A' && line[2] <= 'Z') {
			steps++;
			snprintf(last, sizeof(last), "%s", trim(line));
		}
		{
			double el = now_seconds() - pr.start;

			if (expected > steps)
				progress_show(&pr, false, "  build %-10s %5ld/~%ld steps %3d:%02d  %.60s",
					      label, steps, expected, (int)el / 60, (int)el % 60, last);
			else
				progress_show(&pr, false, "  build %-10s %5ld steps %3d:%02d  %.60s", label,
					      steps, (int)el / 60, (int)el % 60, last);
		}
	}
	progress_done(&pr);
	free(line);
	fclose(in);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	build_group_note(t, 0);
	fclose(out);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && steps > expected) {
		/* Remember a cold build's size so the next one can show how far it is. */
		char *s = xasprintf("%ld\n", steps);

		write_file_atomic(steps_file, s, strlen(s), NULL);
		free(s);
	}
	free(o);
	free(j);
	free(steps_file);
	free(ccache_dir);
	free(ccache_base);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
fail:
	if (out)
		fclose(out);
	free(o);
	free(j);
	free(steps_file);
	free(ccache_dir);
	free(ccache_base);
	return -1;
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

/* "<name>.tmp.<pid>" entries of dir whose perfbot died mid-way (SIGKILL,
 * power): removed, so that a killed build leaves no debris behind. A live
 * perfbot's are left alone. */
static void remove_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *at = strstr(e->d_name, ".tmp."), *digits = at ? at + 5 : NULL;
		char *end;
		long pid = digits ? strtol(digits, &end, 10) : 0;

		/* alive (kill works, or EPERM: someone else's), or not ours to judge */
		if (!at || !*digits || *end || pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		{
			char *path = xasprintf("%s/%s", dir, e->d_name);

			fprintf(stderr, "perfbot: removing %s, left by perfbot pid %ld that died\n", path,
				pid);
			rm_rf(path);
			free(path);
		}
	}
	closedir(d);
}

/* A make that failed for want of space: the machine's problem, not the
 * kernel's, so not a build-failed result. */
static bool out_of_space(const char *log, const char *objdir, pb_err *err)
{
	struct statvfs vfs;
	char *text = read_file(log, NULL, NULL);
	bool full = text && strstr(text, "No space left on device");
	unsigned long long free_mb = 0;

	if (statvfs(objdir, &vfs) == 0)
		free_mb = (unsigned long long)vfs.f_bavail * vfs.f_frsize >> 20;
	free(text);
	if (full)
		pb_seterr(err, "disk full while building in %s (%llu MiB free): no space left on device; "
			       "nothing was marked built", objdir, free_mb);
	return full;
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
		char *dp = dirty_path(t);
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
