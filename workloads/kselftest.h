/* How kselftest-vm reads a selftest's end: its exit code and what its
 * output says. Header-only, shared by the guest program and perfbot's unit
 * tests (tests/unit/test-kselftest.c). */
#ifndef PERFBOT_KSELFTEST_H
#define PERFBOT_KSELFTEST_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* The values of the <test>_result metrics. */
enum kst_result { KST_PASS = 0, KST_FAIL = 1, KST_SKIP = 2 };

#define KSFT_EXIT_SKIP 4 /* tools/testing/selftests/kselftest.h: KSFT_SKIP */

static inline const char *kst_result_name(enum kst_result r)
{
	return r == KST_PASS ? "pass" : r == KST_SKIP ? "skip" : "fail";
}

/* What a test's output says beyond its exit code: a kselftest-harness
 * summary ("# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0") or a
 * TAP plan of nothing ("1..0 # SKIP ...") means every case skipped itself. */
struct kst_scan {
	char line[512];
	size_t len;
	int only_skips;
};

static inline void kst_scan_line(const char *line, struct kst_scan *sc)
{
	int pass, fail, xfail, xpass, skip, error;

	if (sscanf(line, "# Totals: pass:%d fail:%d xfail:%d xpass:%d skip:%d error:%d", &pass, &fail,
		   &xfail, &xpass, &skip, &error) == 6)
		sc->only_skips = pass + fail + xfail + xpass + error == 0 && skip > 0;
	else if (!strncmp(line, "1..0 # SKIP", 11))
		sc->only_skips = 1;
}

/* Output as it comes, in pieces of any size. */
static inline void kst_scan_output(const char *buf, size_t n, struct kst_scan *sc)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			sc->line[sc->len] = '\0';
			kst_scan_line(sc->line, sc);
			sc->len = 0;
		} else if (sc->len + 1 < sizeof(sc->line)) {
			sc->line[sc->len++] = buf[i];
		}
	}
}

/* kselftest's exit codes: 0 pass, 4 skip, anything else fail; so are a
 * signal and a time limit. A harness that exits 0 with every case skipped
 * is a skip. */
static inline enum kst_result kst_result_of(int wait_status, int timed_out, int only_skips)
{
	if (timed_out || !WIFEXITED(wait_status))
		return KST_FAIL;
	if (WEXITSTATUS(wait_status) == KSFT_EXIT_SKIP)
		return KST_SKIP;
	if (WEXITSTATUS(wait_status) != 0)
		return KST_FAIL;
	return only_skips ? KST_SKIP : KST_PASS;
}

#endif
