/* The Slurm executor's rules: what scontrol's line says, what follows
 * each state, and sbatch's argv (lines as Slurm 22.05 prints them). */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"
#include "cluster.h"
#include "executor.h"
#include "slurm.h"

/* path's times set days ago */
static void age(const char *path, int days)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec -= (time_t)days * 86400;
	tv[1] = tv[0];
	CHECK(utimes(path, tv) == 0);
}

/* The spool keeps [executor] keep_days of what its commands wrote, and
 * never touches a name perfbot does not give. */
static void test_spool_pruning(void)
{
	char *root = test_tmpdir(), *spool, *p;
	struct pb_config cfg = { .spool_dir = root, .spool_keep_days = 14 };
	const char *names[] = { "nightly-2026-11-01T02-00-00Z-123", "run-2026-12-01T10-00-00Z-9",
				"bisect-seed-2026-11-01T02-00-00Z-77.db", "mine", "nightly-notours" };
	pb_err err;

	for (int i = 0; i < 5; i++) {
		p = xasprintf("%s/%s", root, names[i]);
		if (i == 2)
			free(test_write(root, names[i], "seed\n"));
		else
			CHECK(mkdir_p(p, &err));
		/* all old but the run's */
		if (i != 1)
			age(p, 30);
		free(p);
	}
	spool = executor_spool(&cfg, "run");
	CHECK_HAS(spool, "/run-");
	for (int i = 0; i < 5; i++) {
		p = xasprintf("%s/%s", root, names[i]);
		CHECK_INT(path_exists(p), i == 0 || i == 2 ? 0 : 1);
		free(p);
	}
	free(spool);
	/* 0 keeps everything */
	p = xasprintf("%s/%s", root, names[0]);
	CHECK(mkdir_p(p, &err));
	age(p, 3000);
	cfg.spool_keep_days = 0;
	free(executor_spool(&cfg, "run"));
	CHECK(path_exists(p));
	free(p);
	rm_rf(root);
	free(root);
}

#define JOB_LINE(state, reason, code) \
	"JobId=2 JobName=perfbot-771 UserId=root(0) GroupId=root(0) Priority=1 Nice=0 " \
	"JobState=" state " Reason=" reason " Dependency=(null) Requeue=1 Restarts=0 " \
	"BatchFlag=1 ExitCode=" code " RunTime=00:00:01 NodeList=vm BatchHost=vm"

static enum slurm_next next_of(const char *line, int attempts)
{
	struct slurm_job j;

	return slurm_parse_job(line, &j) ? slurm_next(&j, attempts, 2) : (enum slurm_next)-1;
}

void test_slurm(void)
{
	struct slurm_job j;
	struct pb_config cfg = { 0 };
	char *args[] = { "--patch", "771", NULL };
	char **argv;

	CHECK(slurm_parse_job(JOB_LINE("FAILED", "NonZeroExitCode", "3:0"), &j));
	CHECK_STR(j.state, "FAILED");
	CHECK_STR(j.reason, "NonZeroExitCode");
	CHECK_STR(j.node, "vm");
	CHECK(j.exit_code == 3 && j.signal == 0 && j.restarts == 0);
	CHECK(!slurm_parse_job("slurm_load_jobs error: Invalid job id specified", &j));
	CHECK(slurm_parse_job("JobId=7 JobState=PENDING Reason=BeginTime Restarts=1 NodeList=(null) "
			      "ExitCode=0:0", &j));
	CHECK(j.restarts == 1 && !j.node[0]);
	/* JobStateX= is not JobState= */
	CHECK(slurm_parse_job("JobStateX=RUNNING JobState=RUNNING", &j) && !strcmp(j.state, "RUNNING"));

	/* perfbot's own answers are done: measured, bad input, a kernel that failed */
	CHECK_INT(next_of(JOB_LINE("COMPLETED", "None", "0:0"), 1), SLURM_DONE);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "3:0"), 1), SLURM_DONE);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "1:0"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "2:0"), 1), SLURM_DONE);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "139:0"), 1), SLURM_DONE);
	/* held: nothing would release it */
	CHECK_INT(next_of(JOB_LINE("PENDING", "launch_failed_requeued_held", "0:0"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("PENDING", "JobHeldAdmin", "0:0"), 3), SLURM_GIVE_UP);
	CHECK_INT(next_of(JOB_LINE("REQUEUE_HOLD", "None", "0:0"), 1), SLURM_RESUBMIT);
	/* under way, or a state perfbot does not know: never resubmitted beside itself */
	CHECK_INT(next_of(JOB_LINE("POWER_UP_NODE", "None", "0:0"), 1), SLURM_WAIT);
	CHECK_INT(next_of(JOB_LINE("SUSPENDED", "None", "0:0"), 1), SLURM_WAIT);
	CHECK_INT(next_of(JOB_LINE("RECONFIG_FAIL", "None", "0:0"), 1), SLURM_WAIT);
	CHECK_INT(next_of(JOB_LINE("BOOT_FAIL", "None", "0:0"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("RUNNING", "None", "0:0"), 1), SLURM_WAIT);
	CHECK_INT(next_of(JOB_LINE("PENDING", "Resources", "0:0"), 1), SLURM_WAIT);
	CHECK_INT(next_of(JOB_LINE("COMPLETING", "None", "0:0"), 1), SLURM_WAIT);
	/* reasons outside perfbot: again, up to the limit */
	CHECK_INT(next_of(JOB_LINE("CANCELLED", "None", "0:15"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("CANCELLED", "None", "0:15"), 3), SLURM_GIVE_UP);
	CHECK_INT(next_of(JOB_LINE("TIMEOUT", "TimeLimit", "0:15"), 2), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("NODE_FAIL", "NodeDown", "0:0"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("PREEMPTED", "None", "0:15"), 1), SLURM_RESUBMIT);
	/* dropped at the deadline extra_args set: given up at once */
	CHECK_INT(next_of(JOB_LINE("DEADLINE", "DeadLine", "0:0"), 1), SLURM_GIVE_UP);
	CHECK_INT(next_of(JOB_LINE("OUT_OF_MEMORY", "OutOfMemory", "0:125"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("FAILED", "JobLaunchFailure", "0:53"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "4:0"), 1), SLURM_RESUBMIT);
	CHECK_INT(next_of(JOB_LINE("FAILED", "NonZeroExitCode", "0:11"), 1), SLURM_RESUBMIT);

	/* sbatch's argv: every setting its own word, extra_args split, no shell */
	cfg.slurm_cpus = 2;
	cfg.slurm_time_limit = 120;
	cfg.slurm_partition = "mm";
	cfg.slurm_account = "";
	cfg.slurm_extra_args = "  --qos=low\t--exclusive ";
	argv = slurm_sbatch_argv(&cfg, "perfbot-771", "/spool/job-1.out", "/srv/perfbot", "/spool/job-1.sh", args);
	{
		pb_str all;

		str_init(&all);
		for (char **a = argv; *a; a++)
			str_addf(&all, "[%s]", *a);
		CHECK_STR(all.buf, "[sbatch][--parsable][--job-name=perfbot-771][--output=/spool/job-1.out][--chdir=/srv/perfbot]"
				   "[--cpus-per-task=2][--time=120][--partition=mm][--qos=low][--exclusive]"
				   "[/spool/job-1.sh][--patch][771]");
		str_free(&all);
	}
	slurm_argv_free(argv);
	cfg.slurm_time_limit = 0;
	cfg.slurm_partition = "";
	cfg.slurm_extra_args = "";
	argv = slurm_sbatch_argv(&cfg, "n", "o", NULL, "s", NULL);
	CHECK(argv[5] && !strcmp(argv[5], "s") && !argv[6]);
	slurm_argv_free(argv);

	/* the job script, under sh as sbatch runs it, with a perfbot that
	 * records its calls and exits as told */
	{
		char *dir = test_tmpdir(), *script = test_write(dir, "job.sh", cluster_job_script);
		char *fake = test_write(dir, "perfbot",
					"#!/bin/sh\n"
					"{ printf '%s|' \"$@\"; echo; } >> \"${0%/*}/calls\"\n"
					"if [ \"$1\" = bundle ] && [ \"$2\" = --start-from ]; then cp \"$3\" \"$4\"; exit; fi\n"
					"if [ \"$1\" = bundle ]; then exit \"${BUNDLE_RC:-0}\"; fi\n"
					"[ -f \"${0%/*}/seed.db\" ] && [ ! -f \"${0%/*}/job.db\" ] && exit 9\n"
					"echo stored > \"${0%/*}/job.db\"; exit \"${RUN_RC:-0}\"\n");
		char *db = xasprintf("%s/job.db", dir), *seed = test_write(dir, "seed.db", "calibration\n");
		char *calls_path = xasprintf("%s/calls", dir), *calls;
		struct spawn_result r;
		char *env_run3[] = { "RUN_RC=3", NULL }, *env_bundle[] = { "BUNDLE_RC=1", NULL };
		char *job[] = { "sh", script, fake, db, seed, "run", "--patch", "771", "-c", "a.b=c d", NULL };
		struct spawn_opts quiet = { .stdout_path = "", .stderr_path = "" };

		CHECK(chmod(fake, 0755) == 0);
		CHECK(spawn_wait(job, &quiet, &r));
		CHECK_INT(r.status, 0);
		calls = read_file(calls_path, NULL, NULL);
		/* perfbot's own words (one with a space in it), its database, then bundle */
		{
			char *want = xasprintf("bundle|--start-from|%s|%s|\nrun|--patch|771|-c|a.b=c d|--db|%s|\n"
					       "bundle|%s|\n", seed, db, db, db);

			CHECK_STR(calls, want);
			free(want);
		}
		free(calls);
		/* the job's database was made from the seed first (the fake exits 9 without it) */
		CHECK(unlink(calls_path) == 0);
		quiet.env_add = env_run3;
		CHECK(spawn_wait(job, &quiet, &r));
		CHECK_INT(r.status, 3); /* perfbot's status is the job's */
		CHECK(unlink(calls_path) == 0);
		quiet.env_add = env_bundle;
		CHECK(spawn_wait(job, &quiet, &r));
		CHECK_INT(r.status, 1); /* a bundle that could not be packed fails an ok run */
		free(calls_path);
		free(seed);
		free(db);
		free(fake);
		free(script);
		rm_rf(dir);
		free(dir);
	}
	test_spool_pruning();
}
