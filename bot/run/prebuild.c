/* Builds beside boots (prebuild.h). */
#include "prebuild.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event.h"
#include "pipeline.h"
#include "util.h"

/* linux/ioprio.h's, which glibc does not wrap */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_CLASS_SHIFT 13

/* In the child: nothing of the parent's but the configuration. Its
 * database handle and lock stay the parent's (an inherited flock would
 * outlive the parent), its signals are the default, and it dies with it. */
static void child_run(const struct pb_config *cfg, const struct pb_patch *p, const char *log,
		      pid_t parent)
{
	struct sched_param sp = { 0 };
	int fd;

	close_range(3, ~0U, 0);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	/* whatever the guests leave, and only that: make and the compilers inherit it */
	sched_setscheduler(0, SCHED_IDLE, &sp);
	setpriority(PRIO_PROCESS, 0, 19);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(1);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	_exit(pipeline_build_patch(cfg, p) ? 0 : 1);
}

bool prebuild_start(struct prebuild *pb, const struct pb_config *cfg, const struct pb_patch *p)
{
	char *dir = xasprintf("%s/logs", cfg->report_dir);
	pid_t parent = getpid(), pid;
	pb_err err;

	prebuild_finish(pb, NULL);
	if (!mkdir_p(dir, &err)) {
		free(dir);
		return false;
	}
	pb->log = xasprintf("%s/prebuild-%03d.log", dir, p->number);
	free(dir);
	fflush(NULL); /* the child must not write what the parent has buffered */
	pid = fork();
	if (pid < 0) {
		free(pb->log);
		pb->log = NULL;
		return false;
	}
	if (pid == 0)
		child_run(cfg, p, pb->log, parent);
	pb->pid = pid;
	pb->number = p->number;
	return true;
}

void prebuild_cancel(struct prebuild *pb)
{
	if (pb->pid > 0) {
		kill(pb->pid, SIGKILL);
		pb->cancelled = true;
	}
}

void prebuild_finish(struct prebuild *pb, volatile sig_atomic_t *stop)
{
	int st = 0;
	pid_t w = 0;

	if (pb->pid > 0) {
		/* polled: a stop must not wait for a build's end */
		while ((w = waitpid(pb->pid, &st, WNOHANG)) == 0 || (w < 0 && errno == EINTR)) {
			if (stop && *stop && !pb->cancelled)
				prebuild_cancel(pb);
			usleep(100 * 1000);
		}
		if (w == pb->pid && !pb->cancelled && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			event_progress("perfbot: building %03d's kernels in the background failed "
					       "(log %s): its run builds them\n", pb->number, pb->log);
	}
	free(pb->log);
	memset(pb, 0, sizeof(*pb));
}
