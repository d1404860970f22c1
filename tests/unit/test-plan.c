/* Plans as data (run/pipeline.h): a stage run before what it needs is a
 * failed assertion, not a result; pipeline_prepare runs only the stages
 * it is asked for. */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pipeline.h"

/* Whether calling stage s on a fresh pipeline aborts (in a child). */
static bool aborts_fresh(int which)
{
	struct pb_config cfg = { 0 };
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		struct pipeline pl;
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 2); /* the assertion's message */
		pipeline_init(&pl, &cfg);
		if (which == 0)
			stage_configure(&pl);   /* needs the tree */
		else if (which == 1)
			stage_pair(&pl, NULL);  /* needs the tree */
		else
			stage_selftests(&pl);   /* needs the workloads and the tree */
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return false;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

void test_plan(void)
{
	struct pb_config cfg = { 0 };
	struct pipeline pl;

	CHECK(aborts_fresh(0));
	CHECK(aborts_fresh(1));
	CHECK(aborts_fresh(2));
	/* nothing asked, nothing run: no stage is done */
	pipeline_init(&pl, &cfg);
	CHECK(pipeline_prepare(&pl, &(struct prepare){ .stages = 0 }));
	CHECK_INT(pl.done, 0);
	pipeline_free(&pl);
}
