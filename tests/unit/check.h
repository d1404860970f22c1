/* A small test harness: CHECK* count passes and failures; main() prints the
 * closing "N passed, N failed" line and exits non-zero on any failure. */
#ifndef PERFBOT_CHECK_H
#define PERFBOT_CHECK_H

#include <stdio.h>
#include <string.h>

extern int checks_passed, checks_failed;

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (cond) {                                                          \
			checks_passed++;                                             \
		} else {                                                             \
			checks_failed++;                                             \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                    \
	} while (0)

#define CHECK_INT(a, b)                                                              \
	do {                                                                         \
		long long a_ = (long long)(a), b_ = (long long)(b);                  \
		if (a_ == b_) {                                                      \
			checks_passed++;                                             \
		} else {                                                             \
			checks_failed++;                                             \
			fprintf(stderr, "%s:%d: FAILED: %s == %s (%lld != %lld)\n", __FILE__, \
				__LINE__, #a, #b, a_, b_);                           \
		}                                                                    \
	} while (0)

#define CHECK_STR(a, b)                                                              \
	do {                                                                         \
		const char *a_ = (a), *b_ = (b);                                     \
		if (a_ && b_ && !strcmp(a_, b_)) {                                   \
			checks_passed++;                                             \
		} else {                                                             \
			checks_failed++;                                             \
			fprintf(stderr, "%s:%d: FAILED: %s == %s ('%s' != '%s')\n", __FILE__, \
				__LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
		}                                                                    \
	} while (0)

/* The message contains the substring. */
#define CHECK_HAS(msg, sub)                                                          \
	do {                                                                         \
		const char *m_ = (msg);                                              \
		if (m_ && strstr(m_, (sub))) {                                       \
			checks_passed++;                                             \
		} else {                                                             \
			checks_failed++;                                             \
			fprintf(stderr, "%s:%d: FAILED: '%s' does not contain '%s'\n", \
				__FILE__, __LINE__, m_ ? m_ : "(null)", (sub));      \
		}                                                                    \
	} while (0)

void test_queue(void);
void test_config(void);
void test_db(void);
void test_bundle(void);
void test_slurm(void);
void test_jobdb(void);
void test_hostile(void);
void test_kselftest(void);
void test_stats(void);
void test_results(void);
void test_kernel(void);
void test_compare(void);
void test_measure(void);
void test_workload(void);
void test_vm(void);
void test_options(void);
void test_pairing(void);
void test_sim(void);
void test_mail(void);
void test_layout(void);
void test_json(void);
void test_answer(void);
void test_report(void);
void test_index_view(void);
void test_trend_view(void);
void test_model(void);
void test_request(void);
void test_event(void);
void test_plan(void);

/* A fresh temporary directory for one test: removed at the end of the run
 * when every check passed, kept when one failed. Free the name. */
char *test_tmpdir(void);
/* Writes text to dir/name and returns the path. */
char *test_write(const char *dir, const char *name, const char *text);
/* How many times sub is in s, one after the other (0 for a NULL s). */
int test_occurrences(const char *s, const char *sub);
/* What cmd (a subcommand) wrote on stdout, run with argv (NULL-terminated)
 * as from main(); *err gets its stderr (NULL: stderr is left alone). */
char *test_run_command(int (*cmd)(int, char **), char **argv, int *rc, char **err);

#endif
