/* A request and its command line (run/request.h, cli.c): what a Slurm node
 * is asked is what the command here was asked. Each request goes to argv
 * (request_argv) and back through the command's own option parser; and
 * how a run ended maps to the exit statuses README.md documents. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "executor.h"
#include "request.h"

static char *two_workloads[] = { "thp-anon", "zswap" };

/* r through argv and the parser of its command, into back; false if the
 * parser refused the line. */
static bool round_trip(const struct request *r, struct request *back, struct patch_args *a,
		       char **only)
{
	int n, rc;
	char **argv = request_argv(r, &n);
	struct cli c = { 0 };

	CHECK(argv[n] == NULL);
	optind = 0;
	switch (r->kind) {
	case REQUEST_PATCH:
	case REQUEST_SERIES:
		CHECK_STR(argv[0], "run");
		rc = cli_patch_args(n, argv, &c, a, NULL, true);
		if (rc < 0)
			cli_run_request(a, back);
		break;
	case REQUEST_BISECT:
		CHECK_STR(argv[0], "bisect");
		rc = cli_bisect_args(n, argv, &c, back, NULL);
		break;
	case REQUEST_CALIBRATE:
	default:
		CHECK_STR(argv[0], "calibrate");
		rc = cli_calibrate_args(n, argv, &c, back, only, NULL);
		break;
	}
	optind = 0;
	cli_free(&c);
	/* the parser keeps pointers into argv for strings: compare before freeing */
	bool same = rc < 0 && request_equal(r, back);

	request_argv_free(argv);
	return same;
}

static void test_round_trips(void)
{
	const struct request cases[] = {
		{ .kind = REQUEST_PATCH, .number = 765 },
		{ .kind = REQUEST_PATCH, .number = 31, .only = two_workloads, .nonly = 2, .force = true,
		  .all = true },
		{ .kind = REQUEST_SERIES },
		{ .kind = REQUEST_SERIES, .mm_only = true, .no_bisect = true, .only = two_workloads,
		  .nonly = 1 },
		{ .kind = REQUEST_BISECT },
		{ .kind = REQUEST_BISECT, .comparison = 42, .metric = "thp-anon.fault_ms" },
		{ .kind = REQUEST_CALIBRATE },
		{ .kind = REQUEST_CALIBRATE, .only = two_workloads, .nonly = 2, .per_side = 6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct request back;
		struct patch_args a;
		char *only[CLI_MAX_WORKLOADS];

		memset(&back, 0, sizeof(back));
		if (!round_trip(&cases[i], &back, &a, only))
			fprintf(stderr, "request: case %zu did not come back as itself\n", i);
		CHECK(round_trip(&cases[i], &back, &a, only));
	}
}

/* request_equal must see a difference, or the round trip proves nothing. */
static void test_equal_sees_differences(void)
{
	struct request a = { .kind = REQUEST_PATCH, .number = 765, .only = two_workloads, .nonly = 2 };
	struct request b = a;
	char *other[] = { "thp-anon", "hugetlb" };

	CHECK(request_equal(&a, &b));
	b.number = 766;
	CHECK(!request_equal(&a, &b));
	b = a;
	b.only = other;
	CHECK(!request_equal(&a, &b));
	b = a;
	b.force = true;
	CHECK(!request_equal(&a, &b));
	b = a;
	b.kind = REQUEST_SERIES;
	CHECK(!request_equal(&a, &b));
	a = (struct request){ .kind = REQUEST_BISECT, .metric = "a.b" };
	b = a;
	b.metric = NULL;
	CHECK(!request_equal(&a, &b));
	b.metric = "a.c";
	CHECK(!request_equal(&a, &b));
}

/* How a run ended, and what it found, as the exit status README.md's
 * table says; a Slurm node's own status is the command's. */
static void test_exit_statuses(void)
{
	const pb_err none = { "" };
	struct pipeline_outcome o = { .comparison = 7, .decided = true, .verdict = VERDICT_NO_CHANGE };
	struct submitted s = { .exit_code = -1 };

	CHECK_INT(cli_run_status(RUN_DONE, NULL, &none), PB_EXIT_OK);
	CHECK_INT(cli_run_status(RUN_DONE, &o, &none), PB_EXIT_OK);
	CHECK_INT(cli_run_status(RUN_FAILED, &o, &none), PB_EXIT_ERROR);
	CHECK_INT(cli_run_status(RUN_KERNEL_FAILED, &o, &none), PB_EXIT_KERNEL);
	CHECK_INT(cli_run_status(RUN_STOPPED, &o, &none), PB_EXIT_STOPPED);
	o.verdict = VERDICT_REGRESSION;
	CHECK_INT(cli_run_status(RUN_DONE, &o, &none), PB_EXIT_REGRESSION);
	/* a calibration's or a bisect's outcome decides nothing */
	CHECK_INT(cli_run_status(RUN_DONE, NULL, &none), PB_EXIT_OK);
	o.verdict = VERDICT_IMPROVEMENT;
	o.behaviour_change = true;
	CHECK_INT(cli_run_status(RUN_DONE, &o, &none), PB_EXIT_BEHAVIOUR);
	o.comparison = 0; /* nothing stored: nothing found */
	CHECK_INT(cli_run_status(RUN_DONE, &o, &none), PB_EXIT_OK);
	s.outcome = o;
	CHECK_INT(cli_submitted_status(RUN_DONE, &s, &none, true), PB_EXIT_OK);
	s.exit_code = PB_EXIT_REGRESSION;
	CHECK_INT(cli_submitted_status(RUN_DONE, &s, &none, true), PB_EXIT_REGRESSION);
	CHECK_INT(cli_submitted_status(RUN_STOPPED, &s, &none, true), PB_EXIT_STOPPED);
}

void test_request(void)
{
	test_round_trips();
	test_equal_sees_differences();
	test_exit_statuses();
}
