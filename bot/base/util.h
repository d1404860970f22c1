/* Small helpers every module needs: errors, strings, files, hashing and
 * spawning programs with an argv (never through a shell). */
#ifndef PERFBOT_UTIL_H
#define PERFBOT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define PB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses of the perfbot binary (documented in README.md). */
enum pb_exit {
	PB_EXIT_OK = 0,         /* measured, or nothing to measure (not an mm patch) */
	PB_EXIT_ERROR = 1,      /* bad input or environment: nothing was stored */
	PB_EXIT_USAGE = 2,      /* bad command line */
	PB_EXIT_KERNEL = 3,     /* a kernel failed to build or boot: stored as a result */
	PB_EXIT_STOPPED = 4,    /* perfbotd's job stopped by SIGTERM: its boots are journaled */
	PB_EXIT_REGRESSION = 5, /* run: measured, and a time metric regressed (stored) */
	PB_EXIT_BEHAVIOUR = 6,  /* run: measured, no regression, a behaviour changed (stored) */
};
/* perfbot measured and stored an answer (whatever it found). */
static inline bool pb_exit_answered(int rc)
{
	return rc == PB_EXIT_OK || rc == PB_EXIT_KERNEL || rc == PB_EXIT_REGRESSION ||
	       rc == PB_EXIT_BEHAVIOUR;
}

/* perfbot could not go on where it ran (bad input or environment, which may
 * be that machine's: a full disk) or was stopped from outside: another
 * machine may answer. */
static inline bool pb_exit_not_answered_there(int rc)
{
	return rc == PB_EXIT_ERROR || rc == PB_EXIT_STOPPED;
}

/* An error message filled in by a failing call; callers print it once. */
typedef struct {
	char msg[1024];
} pb_err;

void pb_seterr(pb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Growable, always NUL-terminated byte string. */
typedef struct {
	char *buf;
	size_t len, cap;
} pb_str;

void str_init(pb_str *s);
void str_free(pb_str *s);
void str_addn(pb_str *s, const char *p, size_t n);
void str_add(pb_str *s, const char *p);
void str_addf(pb_str *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *str_steal(pb_str *s);

/* Text perfbot did not write (from a patch, a guest, the database, the
 * command line) made harmless on a terminal: control characters (C0, DEL,
 * the C1 range U+0080-U+009F, so ESC and CSI too) and bytes that are not
 * UTF-8 become a visible \xNN; other text, UTF-8 included, is unchanged.
 * With lines, '\n' and '\t' are kept (a compiler's error, a panic). */
void str_add_visible(pb_str *s, const char *text, bool lines);
/* The one-line form, to be freed (NULL reads as ""). */
char *visible(const char *text);
/* The form that keeps '\n' and '\t', to be freed. */
char *visible_lines(const char *text);
/* The one-line form into out (size bytes, NUL-terminated), cut before a
 * character or an escape that does not fit. */
void visible_into(char *out, size_t size, const char *text);

/* Out of memory: says so and aborts (what every x*alloc does). */
__attribute__((noreturn)) void xalloc_failed(void);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
char *trim(char *s);

/* Files. read_file() returns NULL and sets err on failure. */
char *read_file(const char *path, size_t *len, pb_err *err);
/* Writes via a temporary file and rename(), so readers never see half a file. */
/* For files a guest or QEMU wrote: at most max bytes (the end of a longer
 * file), NUL bytes turned into '?' so that string searches see all of it.
 * NULL if it cannot be read. */
char *read_file_tail(const char *path, size_t max, size_t *len);
/* "rsync: not found" where a log says a program could not be run, or NULL:
 * what a failed step lacked from the machine, for its one-line error. */
char *log_missing_program(const char *log);
bool write_file_atomic(const char *path, const char *data, size_t len, pb_err *err);
bool copy_file(const char *from, const char *to, pb_err *err);
bool mkdir_p(const char *path, pb_err *err);
bool path_exists(const char *path);
bool is_dir(const char *path);
bool rm_rf(const char *path);
/* The names in dir that end in one of suffixes (NULL-terminated), sorted;
 * NULL when dir cannot be opened. Free with names_free(). */
char **dir_names(const char *dir, const char *const *suffixes, int *n);
void names_free(char **names, int n);
/* Directory of the running binary, or NULL. */
char *exe_dir(void);
/* Absolute form of path, relative paths taken from base_dir. */
char *path_join(const char *base_dir, const char *path);
char *abs_path_from(const char *base_dir, const char *path);
double now_seconds(void);
char *iso_time_now(void);

/* SHA-256 as 64 hex digits (+NUL). */
bool sha256_file(const char *path, char hex[65], pb_err *err);
void sha256_buf(const void *data, size_t len, char hex[65]);

/* Spawning. argv[0] is looked up in PATH. */
struct spawn_opts {
	const char *cwd;          /* NULL: inherit */
	const char *stdin_path;   /* NULL: /dev/null */
	const char *stdout_path;  /* NULL: inherit; "" : /dev/null */
	const char *stderr_path;  /* NULL: inherit; "" : /dev/null; "=stdout": same as stdout */
	bool append;              /* open stdout/stderr files for append */
	char *const *env_add;     /* extra NAME=value entries, NULL-terminated */
	double timeout;           /* seconds, 0 = none; the process group is killed */
};

/* Result of a spawned program. */
struct spawn_result {
	int status;       /* exit status, or 128+signal */
	bool timed_out;
	bool failed_exec; /* the program could not be started */
	double seconds;
};

bool spawn_wait(char *const argv[], const struct spawn_opts *opts,
		struct spawn_result *res);
/* Runs argv and captures its stdout (and stderr if merge) into out. */
bool spawn_capture(char *const argv[], const char *cwd, bool merge, pb_str *out,
		   int *status);
/* Starts argv with stdout+stderr on a pipe; *fd is its read end. */
pid_t spawn_pipe(char *const argv[], const char *cwd, char *const *env_add, int *fd);
bool program_in_path(const char *name);
/* Appends /usr/sbin and /sbin to $PATH where missing: an ordinary user's
 * PATH on Debian lacks them, and mkfs.ext4 lives there. */
void path_add_sbin(void);

/* $PERFBOT_FAULT names a fault the tests inject (a comma-separated list):
 * true if it names this one. */
bool fault_injected(const char *name);
/* K of a "name=K" in $PERFBOT_FAULT, 0 if there is none. */
int fault_number(const char *name);

/* Progress line on stderr: rewritten in place on a terminal, printed every
 * interval seconds otherwise (cron logs stay short). */
struct progress {
	bool tty;
	double last, interval, start;
};
void progress_init(struct progress *p);
void progress_show(struct progress *p, bool force, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void progress_done(struct progress *p);

#endif
