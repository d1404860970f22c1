#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "event.h"

extern char **environ;

/* Length of the UTF-8 character at s if it is one a terminal shows as
 * text (not a C1 control, not overlong, no surrogate), else 0. */
static size_t utf8_printable(const unsigned char *s)
{
	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 && !(s[0] == 0xc2 && s[1] < 0xa0) ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f))
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* The next character of *in as it is shown: into out (at most 4 bytes
 * and a NUL); returns its length and advances *in. */
static size_t visible_char(const char **in, char out[5], bool lines)
{
	const unsigned char *s = (const unsigned char *)*in;
	size_t n = utf8_printable(s);

	if (!n && lines && (s[0] == '\n' || s[0] == '\t'))
		n = 1;
	if (n) {
		memcpy(out, s, n);
		out[n] = '\0';
		*in += n;
		return n;
	}
	snprintf(out, 5, "\\x%02x", s[0]);
	*in += 1;
	return 4;
}

void str_add_visible(pb_str *s, const char *text, bool lines)
{
	char c[5];

	while (text && *text) {
		size_t n = visible_char(&text, c, lines);

		str_addn(s, c, n);
	}
}

char *visible(const char *text)
{
	pb_str s;

	str_init(&s);
	str_add_visible(&s, text, false);
	return str_steal(&s);
}

char *visible_lines(const char *text)
{
	pb_str s;

	str_init(&s);
	str_add_visible(&s, text, true);
	return str_steal(&s);
}

void visible_into(char *out, size_t size, const char *text)
{
	size_t len = 0;
	char c[5];

	if (!size)
		return;
	while (text && *text) {
		size_t n = visible_char(&text, c, false);

		if (len + n >= size)
			break;
		memcpy(out + len, c, n);
		len += n;
	}
	out[len] = '\0';
}

/* The message is one line of visible text whatever its arguments held (a
 * newline in --patch, an escape sequence from a patch). */
void pb_seterr(pb_err *err, const char *fmt, ...)
{
	char raw[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	visible_into(err->msg, sizeof(err->msg), raw);
}

void xalloc_failed(void)
{
	fputs("perfbot: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_failed();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		xalloc_failed();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xalloc_failed();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		xalloc_failed();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s ? s : "", n);

	if (!p)
		xalloc_failed();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		xalloc_failed();
	va_end(ap);
	return p;
}

void str_init(pb_str *s)
{
	s->buf = NULL;
	s->len = s->cap = 0;
	str_addn(s, "", 0);
}

void str_free(pb_str *s)
{
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
}

void str_addn(pb_str *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 64;

		while (cap < s->len + n + 1)
			cap *= 2;
		s->buf = xrealloc(s->buf, cap);
		s->cap = cap;
	}
	if (n)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void str_add(pb_str *s, const char *p)
{
	str_addn(s, p, strlen(p));
}

void str_addf(pb_str *s, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_failed();
	str_addn(s, p, (size_t)n);
	free(p);
}

char *str_steal(pb_str *s)
{
	char *p = s->buf ? s->buf : xstrdup("");

	s->buf = NULL;
	s->len = s->cap = 0;
	return p;
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *read_file(const char *path, size_t *len, pb_err *err)
{
	FILE *f = fopen(path, "rb");
	pb_str s;
	char buf[65536];
	size_t n;

	if (!f) {
		pb_seterr(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	str_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		str_addn(&s, buf, n);
	if (ferror(f)) {
		pb_seterr(err, "%s: read error", path);
		fclose(f);
		str_free(&s);
		return NULL;
	}
	fclose(f);
	if (len)
		*len = s.len;
	return str_steal(&s);
}

char *read_file_tail(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	off_t size;

	if (!f)
		return NULL;
	if (fseeko(f, 0, SEEK_END) != 0 || (size = ftello(f)) < 0) {
		fclose(f);
		return NULL;
	}
	if ((size_t)size > max)
		fseeko(f, size - (off_t)max, SEEK_SET);
	else
		fseeko(f, 0, SEEK_SET);
	buf = xmalloc(max < (size_t)size ? max + 1 : (size_t)size + 1);
	n = fread(buf, 1, max < (size_t)size ? max : (size_t)size, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = '?';
	if (len)
		*len = n;
	return buf;
}

/* How a shell, make or bash says it could not run a program:
 * "/bin/sh: 1: rsync: not found", "make[2]: flex: No such file or directory",
 * "bash: line 1: bc: command not found". */
char *log_missing_program(const char *log)
{
	static const char *const says[] = { ": not found", ": command not found", ": Command not found",
					    ": No such file or directory" };
	char *text = read_file_tail(log, 65536, NULL), *found = NULL;

	for (char *line = text, *next; line && *line && !found; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		for (size_t i = 0; i < PB_ARRAY_SIZE(says) && !found; i++) {
			size_t n = strlen(line), m = strlen(says[i]);
			char *prog;

			if (n <= m || strcmp(line + n - m, says[i]))
				continue;
			/* make's "No such file" is about a program only when it
			 * failed to exec one, not a "*** target" or a header */
			if (i == 3 && (!starts_with(line, "make") || strstr(line, "***")))
				continue;
			line[n - m] = '\0';
			prog = strrchr(line, ' ');
			prog = prog ? prog + 1 : line;
			if (*prog && !strchr(prog, ':') && strlen(prog) < 64)
				found = xasprintf("%s: not found", prog);
		}
	}
	free(text);
	return found;
}

bool write_file_atomic(const char *path, const char *data, size_t len, pb_err *err)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wb");
	bool ok;

	if (!f) {
		pb_seterr(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return false;
	}
	ok = fwrite(data, 1, len, f) == len;
	ok = (fflush(f) == 0) && ok;
	ok = (fsync(fileno(f)) == 0) && ok;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		pb_seterr(err, "%s: %s", path, strerror(errno ? errno : EIO));
		unlink(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

bool copy_file(const char *from, const char *to, pb_err *err)
{
	size_t len;
	char *data = read_file(from, &len, err);
	struct stat st;
	bool ok;

	if (!data)
		return false;
	ok = write_file_atomic(to, data, len, err);
	free(data);
	/* Keep the mode: a kernel tree has scripts that must stay executable. */
	if (ok && stat(from, &st) == 0)
		chmod(to, st.st_mode & 07777);
	return ok;
}

bool mkdir_p(const char *path, pb_err *err)
{
	char *p = xstrdup(path), *q;

	for (q = p + 1; *q; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			pb_seterr(err, "cannot create %s: %s", p, strerror(errno));
			free(p);
			return false;
		}
		*q = '/';
	}
	if (mkdir(p, 0755) != 0 && errno != EEXIST) {
		pb_seterr(err, "cannot create %s: %s", p, strerror(errno));
		free(p);
		return false;
	}
	free(p);
	return true;
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };
	struct spawn_opts o = { .stdout_path = "" }; /* stdout is the command's (run --json) */
	struct spawn_result r;

	if (!path_exists(path))
		return true;
	return spawn_wait(argv, &o, &r) && r.status == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **dir_names(const char *dir, const char *const *suffixes, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;

	*n = 0;
	if (!d)
		return NULL;
	names = xmalloc(sizeof(char *));
	while ((de = readdir(d)))
		for (const char *const *s = suffixes; *s; s++)
			if (ends_with(de->d_name, *s)) {
				/* doubling: a directory of many names costs linear time */
				if (*n && (*n & (*n - 1)) == 0)
					names = xrealloc(names, sizeof(char *) * (size_t)(*n * 2));
				names[(*n)++] = xstrdup(de->d_name);
				break;
			}
	closedir(d);
	qsort(names, (size_t)*n, sizeof(char *), cmp_names);
	return names;
}

void names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

char *exe_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(exe);
}

char *path_join(const char *base_dir, const char *path)
{
	if (path[0] == '/' || !base_dir || !base_dir[0])
		return xstrdup(path);
	return xasprintf("%s/%s", base_dir, path);
}

char *abs_path_from(const char *base_dir, const char *path)
{
	char *joined = path_join(base_dir, path);
	char *real;

	if (joined[0] == '/')
		return joined;
	real = realpath(joined, NULL);
	if (real) {
		free(joined);
		return real;
	}
	{
		char cwd[4096];

		if (getcwd(cwd, sizeof(cwd))) {
			char *a = xasprintf("%s/%s", cwd, joined);

			free(joined);
			return a;
		}
	}
	return joined;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *iso_time_now(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

static void hex_of(const unsigned char *md, unsigned n, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned i;

	for (i = 0; i < n && i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * i] = '\0';
}

bool sha256_file(const char *path, char hex[65], pb_err *err)
{
	FILE *f = fopen(path, "rb");
	EVP_MD_CTX *ctx;
	unsigned char md[EVP_MAX_MD_SIZE], buf[1 << 16];
	unsigned n = 0;
	size_t got;

	if (!f) {
		pb_seterr(err, "%s: %s", path, strerror(errno));
		return false;
	}
	ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, got);
	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	fclose(f);
	hex_of(md, n, hex);
	return true;
}

void sha256_buf(const void *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	hex_of(md, n, hex);
}

static int open_out(const char *path, bool append)
{
	if (!path[0])
		return open("/dev/null", O_WRONLY);
	return open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
}

/* In the child: its own process group (a timeout kills the whole group),
 * and killed with its parent, so that a perfbot killed with SIGKILL leaves no
 * QEMU or build running on. */
static void child_setup(const struct spawn_opts *o, pid_t parent)
{
	int fd;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	fd = open(o && o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
	if (fd < 0)
		_exit(127);
	dup2(fd, 0);
	if (o && o->stdout_path) {
		fd = open_out(o->stdout_path, o->append);
		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
	}
	if (o && o->stderr_path) {
		if (strcmp(o->stderr_path, "=stdout") == 0) {
			dup2(1, 2);
		} else {
			fd = open_out(o->stderr_path, o->append);
			if (fd < 0)
				_exit(127);
			dup2(fd, 2);
		}
	}
	if (o && o->cwd && chdir(o->cwd) != 0)
		_exit(127);
	if (o && o->env_add)
		for (char *const *e = o->env_add; *e; e++)
			putenv(*e);
}

static int decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 255;
}

bool spawn_wait(char *const argv[], const struct spawn_opts *o, struct spawn_result *res)
{
	pid_t parent;
	double start = now_seconds();
	pid_t pid;
	int st = 0;

	memset(res, 0, sizeof(*res));
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		res->failed_exec = true;
		return false;
	}
	if (pid == 0) {
		child_setup(o, parent);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, o && o->timeout > 0 ? WNOHANG : 0);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			res->failed_exec = true;
			return false;
		}
		if (o && o->timeout > 0 && now_seconds() - start > o->timeout) {
			res->timed_out = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		if (o && o->timeout > 0) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	res->status = decode_status(st);
	res->seconds = now_seconds() - start;
	if (res->status == 127 && !res->timed_out)
		res->failed_exec = !program_in_path(argv[0]);
	return !res->failed_exec;
}

pid_t spawn_pipe(char *const argv[], const char *cwd, char *const *env_add, int *fd)
{
	pid_t parent;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		struct spawn_opts o = { .cwd = cwd, .env_add = env_add };

		dup2(p[1], 1);
		dup2(p[1], 2);
		child_setup(&o, parent);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(p[1]);
	*fd = p[0];
	return pid;
}

bool spawn_capture(char *const argv[], const char *cwd, bool merge, pb_str *out, int *status)
{
	pid_t parent;
	int p[2], st = 0;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	if (pipe2(p, O_CLOEXEC) != 0)
		return false;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		struct spawn_opts o = { .cwd = cwd, .stderr_path = merge ? NULL : "" };

		dup2(p[1], 1);
		if (merge)
			dup2(p[1], 2);
		child_setup(&o, parent);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			str_addn(out, buf, (size_t)n);
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*status = decode_status(st);
	return *status != 127 || program_in_path(argv[0]);
}

bool program_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", dir, name);

		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

void path_add_sbin(void)
{
	const char *path = getenv("PATH");
	pb_str p;

	if (!path || !path[0])
		path = "/usr/local/bin:/usr/bin:/bin";
	str_init(&p);
	str_addf(&p, "%s", path);
	for (const char *d = "/usr/sbin\0/sbin\0"; *d; d += strlen(d) + 1) {
		char *with = xasprintf(":%s:", p.buf), *want = xasprintf(":%s:", d);

		if (!strstr(with, want))
			str_addf(&p, ":%s", d);
		free(with);
		free(want);
	}
	setenv("PATH", p.buf, 1);
	str_free(&p);
}

void progress_init(struct progress *p)
{
	p->tty = isatty(2);
	p->start = now_seconds();
	p->last = 0;
	p->interval = p->tty ? 0.2 : 30;
}

void progress_show(struct progress *p, bool force, const char *fmt, ...)
{
	double t = now_seconds();
	char line[512];
	va_list ap;

	if (!force && t - p->last < p->interval)
		return;
	p->last = t;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (p->tty)
		event_progress("\r\033[K%s", line);
	else
		event_progress("%s\n", line);
}

void progress_done(struct progress *p)
{
	if (p->tty)
		event_progress("\n");
}

int fault_number(const char *name)
{
	const char *list = getenv("PERFBOT_FAULT");
	size_t n = strlen(name);

	for (const char *at = list; at && (at = strstr(at, name)); at += n)
		if ((at == list || at[-1] == ',') && at[n] == '=')
			return atoi(at + n + 1);
	return 0;
}

bool fault_injected(const char *name)
{
	const char *list = getenv("PERFBOT_FAULT");
	size_t n = strlen(name);

	for (const char *at = list; at && (at = strstr(at, name)); at += n)
		if ((at == list || at[-1] == ',') && (at[n] == '\0' || at[n] == ','))
			return true;
	return false;
}
