/* The kernel's vm selftests as perfbot reads them: kselftest-vm's exit-code
 * and output mapping (workloads/kselftest.h, shared with the guest program),
 * and a result that differs between the kernels: a behaviour change, unless
 * an A/A calibration saw it vary on one kernel (flaky). */
#include <stdlib.h>
#include <sys/wait.h>

#include "../../workloads/kselftest.h"
#include "check.h"
#include "comparison.h"
#include "fixture.h"

#define W "PB1 sample hugetlb-migrate "

static int exited(int code)
{
	return (code & 0xff) << 8; /* a wait status: WIFEXITED, WEXITSTATUS == code */
}

static void mapping(void)
{
	struct kst_scan sc = { .len = 0 };
	static const char harness[] = "#  RUN  migration.shared_anon ...\n"
				      "#      SKIP      Not enough threads or NUMA nodes available\n"
				      "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0\n";

	CHECK(WIFEXITED(exited(4)) && WEXITSTATUS(exited(4)) == 4);
	CHECK_INT(kst_result_of(exited(0), 0, 0), KST_PASS);
	CHECK_INT(kst_result_of(exited(4), 0, 0), KST_SKIP);
	CHECK_INT(kst_result_of(exited(1), 0, 0), KST_FAIL);
	CHECK_INT(kst_result_of(exited(127), 0, 0), KST_FAIL);  /* could not exec */
	CHECK_INT(kst_result_of(SIGSEGV, 0, 0), KST_FAIL);       /* killed by a signal */
	CHECK_INT(kst_result_of(exited(0), 1, 0), KST_FAIL);     /* past its time limit */
	CHECK_INT(kst_result_of(exited(0), 0, 1), KST_SKIP);     /* every case skipped itself */
	CHECK_INT(kst_result_of(exited(1), 0, 1), KST_FAIL);
	CHECK_STR(kst_result_name(KST_SKIP), "skip");

	/* the summary line, fed in pieces as a pipe delivers it */
	for (size_t i = 0; i < sizeof(harness) - 1; i += 7)
		kst_scan_output(harness + i, sizeof(harness) - 1 - i < 7 ? sizeof(harness) - 1 - i : 7, &sc);
	CHECK(sc.only_skips);
	kst_scan_output("# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n", 55, &sc);
	CHECK(!sc.only_skips);
	kst_scan_output("1..0 # SKIP soft-dirty is not support\n", 38, &sc);
	CHECK(sc.only_skips);
}

static const char *verdict_of(const struct comparison *cmp, const char *metric)
{
	for (int i = 0; i < cmp->findings.nresults; i++)
		if (!strcmp(cmp->findings.results[i].def->name, metric))
			return verdict_name(cmp->findings.results[i].verdict);
	return "?";
}

static void differences(void)
{
	struct fixture f;
	struct noise_floor nf = { .workload = "hugetlb-migrate", .metric = "pages_refused", .boots = 4,
				  .deterministic = false };

	/* a result metric: pass (0) without, fail (1) with; another the same */
	CHECK(fixture_init(&f, W "1 pages_refused 0\n" W "1 pages_failed 2\n",
			   W "1 pages_refused 1\n" W "1 pages_failed 2\n"));
	CHECK_STR(verdict_of(&f.cmp, "pages_refused"), "behaviour change");
	CHECK_STR(verdict_of(&f.cmp, "pages_failed"), "same");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "behaviour change");
	/* the same, after a calibration in which pages_refused varied */
	f.cmp.noise.floor = &nf;
	f.cmp.noise.n = 1;
	comparison_compute(&f.cmp);
	CHECK_STR(verdict_of(&f.cmp, "pages_refused"), "flaky");
	CHECK_STR(verdict_of(&f.cmp, "pages_failed"), "same");
	CHECK_STR(verdict_name(f.cmp.findings.behaviour), "same");
	CHECK(!verdict_is_notable(VERDICT_FLAKY));
	/* a calibration that saw it steady changes nothing */
	nf.deterministic = true;
	comparison_compute(&f.cmp);
	CHECK_STR(verdict_of(&f.cmp, "pages_refused"), "behaviour change");
	f.cmp.noise.floor = NULL;
	f.cmp.noise.n = 0;
	fixture_free(&f);
}

void test_kselftest(void)
{
	mapping();
	differences();
}
