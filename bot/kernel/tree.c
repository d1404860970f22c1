/* The source-tree cache: Debian's linux-source tarball extracted once per
 * tarball into <cache>/trees/<key>/pristine, the hard-linked work copy beside
 * it, the tree's lock, and putting the work copy back after a change. */
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"

/* One perfbot at a time touches a tree's work copy and object directories. */
int tree_lock(const struct kernel_tree *t)
{
	char *path = xasprintf("%s.lock", t->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	free(path);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		event_progress("perfbot: waiting for another perfbot that is using %s\n", t->dir);
		flock(fd, LOCK_EX);
	}
	return fd;
}

void tree_unlock(int fd)
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

/* "<name>.tmp.<pid>" entries of dir whose perfbot died mid-way (SIGKILL,
 * power): removed, so that a killed build leaves no debris behind. A live
 * perfbot's are left alone. */
void remove_stale_tmp(const char *dir)
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

			event_progress("perfbot: removing %s, left by perfbot pid %ld that died\n", path,
				       pid);
			rm_rf(path);
			free(path);
		}
	}
	closedir(d);
}

/* The first line tar (or its decompressor) wrote to path, or "". */
static char *first_line_of(const char *path)
{
	char *text = read_file(path, NULL, NULL);
	char *line = xstrndup(text ? text : "", text ? strcspn(text, "\n") : 0);

	free(text);
	return line;
}

/* tar -xf the kernel source into tmp; err has tar's first complaint. */
static bool untar(const struct pb_config *cfg, const char *tmp, pb_err *err)
{
	char *errors = xasprintf("%s/.tar-errors", tmp);
	char *argv[] = { "tar", "-C", (char *)tmp, "-xf", cfg->kernel_source, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = errors };
	struct spawn_result r;
	bool ok = spawn_wait(argv, &o, &r) && r.status == 0;

	if (!ok) {
		char *said = first_line_of(errors);

		pb_seterr(err, "%s: tar could not extract it (exit %d%s%.200s; truncated, corrupt or the "
			       "disk full?)", cfg->kernel_source, r.status, said[0] ? ": " : "", said);
		free(said);
	}
	free(errors);
	return ok;
}

/* The top directory tar made in tmp, if it holds a kernel (a Makefile). */
static char *tarball_top(const char *tmp, const char *source, pb_err *err)
{
	DIR *d = opendir(tmp);
	struct dirent *de;
	char *top = NULL, *mk;
	bool has;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			free(top);
			top = xasprintf("%s/%s", tmp, de->d_name);
		}
	if (d)
		closedir(d);
	if (!top || !path_exists(top)) {
		pb_seterr(err, "%s: no top directory in the tarball", source);
		free(top);
		return NULL;
	}
	mk = xasprintf("%s/Makefile", top);
	has = path_exists(mk);
	free(mk);
	if (!has) {
		pb_seterr(err, "%s: not a kernel source tarball (no Makefile)", source);
		free(top);
		return NULL;
	}
	return top;
}

/* top renamed into place as t->pristine, t->dir made only now. */
static bool tree_place(struct kernel_tree *t, const char *top, pb_err *err)
{
	bool made_dir = false;

	if (mkdir(t->dir, 0755) == 0) {
		made_dir = true;
	} else if (errno != EEXIST) {
		pb_seterr(err, "%s: %s", t->dir, strerror(errno));
		return false;
	}
	/* The rename is what marks the tree complete. */
	if (rename(top, t->pristine) != 0) {
		pb_seterr(err, "%s: %s", t->pristine, strerror(errno));
		if (made_dir)
			rmdir(t->dir);
		return false;
	}
	return true;
}

/* Extracts the tarball beside t->dir, in <key>.tmp.<pid>, and renames its
 * top directory into place as t->dir/pristine, creating t->dir only then:
 * a tarball tar cannot read (truncated, corrupt) or that is no kernel
 * leaves nothing behind but what was there before. */
static bool extract_tarball(const struct pb_config *cfg, struct kernel_tree *t, pb_err *err)
{
	char *tmp = xasprintf("%s.tmp.%d", t->dir, (int)getpid()), *top = NULL;
	char *trees = xstrndup(t->dir, (size_t)(strrchr(t->dir, '/') - t->dir));
	bool ok = false, tty = isatty(2);

	remove_stale_tmp(trees);
	rm_rf(tmp);
	free(trees);
	if (!mkdir_p(tmp, err))
		goto out;
	/* on a terminal, a line the result replaces; elsewhere (logs) the
	 * result's line alone, so that a failure is one line */
	if (tty)
		event_progress("perfbot: extracting %s into %s (once per tarball)", cfg->kernel_source,
			       t->pristine);
	ok = untar(cfg, tmp, err) && (top = tarball_top(tmp, cfg->kernel_source, err)) &&
	     tree_place(t, top, err);
out:
	if (tty)
		event_progress("\r\033[K");
	if (ok)
		event_progress("perfbot: extracted %s into %s (once per tarball)\n", cfg->kernel_source,
			       t->pristine);
	rm_rf(tmp);
	free(tmp);
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

char *tree_dirty_path(const struct kernel_tree *t)
{
	return xasprintf("%s/work.dirty", t->dir);
}

/* A symbolic link of the pristine tree, made again at w. */
static bool copy_link(const char *pr, const char *w, pb_err *err)
{
	char target[4096];
	ssize_t n = readlink(pr, target, sizeof(target) - 1);

	if (n >= 0) {
		target[n] = '\0';
		if (symlink(target, w) == 0)
			return true;
	}
	pb_seterr(err, "%s: %s", w, strerror(errno));
	return false;
}

/* Puts every file the last applied change touched back as it is in the
 * pristine tree, as a new file with a new mtime so make rebuilds it. */
bool tree_reset(struct kernel_tree *t, pb_err *err)
{
	char *dp = tree_dirty_path(t), *text = read_file(dp, NULL, NULL), *line, *save = NULL;
	bool ok = true;

	if (!text) {
		free(dp);
		return true;
	}
	for (line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
		char *w = xasprintf("%s/%s", t->work, line), *pr = xasprintf("%s/%s", t->pristine, line);
		struct stat st;

		if (unlink(w) != 0 && errno != ENOENT) {
			pb_seterr(err, "%s: %s", w, strerror(errno));
			ok = false;
		} else if (lstat(pr, &st) == 0 && S_ISLNK(st.st_mode)) {
			ok = copy_link(pr, w, err);
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
