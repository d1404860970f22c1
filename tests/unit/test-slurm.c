/* The Slurm executor's rules: what scontrol's line says, what follows
 * each state, and sbatch's argv (lines as Slurm 22.05 prints them); many
 * requests at once on a fake Slurm. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"
#include "cluster.h"
#include "db.h"
#include "event.h"
#include "executor.h"
#include "fixture.h"
#include "slurm.h"
#include "version.h"

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

/* A fake Slurm in dir: sbatch logs each job ("ID NAME seed=SEED CMD"),
 * writes its output and copies dir/NAME.db, when there is one, to the
 * job's database (the bundle its node would have made); it refuses
 * every job while dir/refuse is there. scontrol says every job completed
 * on node1, but 772's: that one runs, and scontrol stops perfbot
 * (SIGTERM to its parent) as it says so. scancel logs what it cancels. */
static void fake_slurm(const char *dir)
{
	static const char *const scripts[][2] = {
		{ "sbatch",
		  "#!/bin/sh\n"
		  "d=${0%/*}\n"
		  "for a; do case $a in --job-name=perfbot-*) name=${a#--job-name=perfbot-};;\n"
		  "\t--output=*) out=${a#--output=};; esac; done\n"
		  "[ -f \"$d/refuse\" ] && { echo 'sbatch: error: Batch job submission failed'; exit 1; }\n"
		  "while [ $# -gt 0 ] && [ \"${1##*/}\" != job.sh ]; do shift; done\n"
		  "n=$(( $(cat \"$d/count\" 2>/dev/null || echo 0) + 1 )); echo $n > \"$d/count\"\n"
		  "echo \"$n $name seed=${4##*/} $5 $6 $7\" >> \"$d/log\"\n"
		  "[ -f \"$d/$name.db\" ] && cp \"$d/$name.db\" \"$3\"\n"
		  "echo \"job $name\" > \"$out\"\n"
		  "echo $n\n" },
		{ "scontrol",
		  "#!/bin/sh\n"
		  "name=$(awk -v id=\"$4\" '$1 == id { print $2 }' \"${0%/*}/log\")\n"
		  "state=COMPLETED\n"
		  "[ \"$name\" = 772 ] && { state=RUNNING; kill -TERM $PPID; }\n"
		  "echo \"JobId=$4 JobName=perfbot-$name JobState=$state Reason=None Restarts=0 \\\n"
		  "NodeList=node1 ExitCode=0:0\"\n" },
		{ "scancel", "#!/bin/sh\necho \"$*\" >> \"${0%/*}/cancelled\"\n" },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(scripts); i++) {
		char *path = test_write(dir, scripts[i][0], scripts[i][1]);

		CHECK(chmod(path, 0755) == 0);
		free(path);
	}
}

/* A bundle of one comparison, f's, in dir/name.db, as a job stores it. */
static void fake_bundle(const char *dir, const char *name, struct fixture *f)
{
	char *path = xasprintf("%s/%s.db", dir, name);
	sqlite3 *b;
	long long id;
	pb_err err = { "" };

	CHECK(db_open(path, &b, &err));
	CHECK(db_store_comparison(b, &f->cmp, perfbot_version, NULL, &id, &err));
	db_close(b);
	free(path);
}

static void heard_write(void *ctx, enum event_stream s, const char *text, size_t len)
{
	(void)s;
	str_addn(ctx, text, len);
}

/* What was said and what was handed back, in their own buffers. */
struct heard {
	pb_str said, back;
};

/* Each task as it is handed back: "number:end:imported " (a calibration's
 * 0), and "[handed number]" among what was said, where it came. */
static void handed_back(void *ctx, const struct submit_task *t)
{
	struct heard *h = ctx;

	str_addf(&h->back, "%d:%d:%d ", t->request.number, (int)t->end, (int)t->imported);
	str_addf(&h->said, "[handed %d]\n", t->request.number);
}

/* The n tasks on the fake Slurm; what was said into *said and what was
 * handed back into *handed (the caller's to free). */
static enum run_end submit_many(const struct pb_config *cfg, struct fixture *f, sqlite3 *db,
				struct submit_task *t, int n, char **handed, char **said,
				pb_err *err)
{
	struct heard h;
	const struct event_sink sink = { heard_write, NULL, &h.said };
	struct submit how = { .name = "nightly", .who = "perfbot nightly",
			      .task_ended = handed_back, .ctx = &h };
	enum run_end end;

	str_init(&h.said);
	str_init(&h.back);
	event_sink_set(&sink);
	end = executor_submit_many(cfg, &f->queue, db, t, n, &how, err);
	event_sink_set(NULL);
	*said = h.said.buf ? h.said.buf : xstrdup("");
	*handed = h.back.buf ? h.back.buf : xstrdup("");
	return end;
}

/* What dir/name holds ("" nothing), the caller's to free. */
static char *text_of(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL, NULL);

	free(path);
	return text ? text : xstrdup("");
}

/* Entries of directory path. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

#define W "PB1 sample hugetlb-migrate "

/* A nightly's jobs: the calibration first, each patch's job started
 * from its database once it is done; stopped (SIGTERM) while 772 runs:
 * 772's job cancelled, the calibration and 771 still brought home (771
 * onto the queue's patch), each task handed back in order after its
 * import. Then Slurm refuses the first job: nothing handed back, no
 * spool left. */
static void test_submit_many(void)
{
	char *dir = test_tmpdir(), *spool = xasprintf("%s/spool", dir), *home = xasprintf("%s/home.db", dir);
	char *old_path = xstrdup(getenv("PATH")), *path = xasprintf("%s:%s", dir, old_path);
	char *said, *handed, *text;
	struct pb_config cfg = { .path = "/nonexistent/perfbot.ini", .report_dir = dir,
				 .spool_dir = spool, .slurm_max_jobs = 4, .slurm_resubmits = 2,
				 .slurm_cpus = 1, .slurm_partition = "", .slurm_account = "",
				 .slurm_extra_args = "" };
	struct submit_task t[3] = {
		{ .request = { .kind = REQUEST_CALIBRATE, .per_side = 2 }, .seed_from = -1 },
		{ .request = { .kind = REQUEST_PATCH, .number = 771 }, .seed_from = 0 },
		{ .request = { .kind = REQUEST_PATCH, .number = 772 }, .seed_from = 0 },
	};
	struct fixture f;
	sqlite3 *db = NULL;
	pb_err err = { "" };

	CHECK(fixture_init(&f, W "1 migrate_ms 1\n", W "1 migrate_ms 2\n"));
	fake_slurm(dir);
	/* the node's copy of the queue is at another path */
	f.cmp.queue_dir = "/node/queue";
	fake_bundle(dir, "771", &f);
	f.cmp.patch = NULL; /* of no patch: a calibration */
	fake_bundle(dir, "calibration", &f);
	setenv("PATH", path, 1);
	CHECK(db_open(home, &db, &err));

	CHECK_INT(submit_many(&cfg, &f, db, t, 3, &handed, &said, &err), RUN_STOPPED);
	CHECK_HAS(err.msg, "stopped");
	CHECK_HAS(said, "perfbot nightly: 3 job(s) for Slurm (at most 4 at once), spool ");
	CHECK_HAS(said, "perfbot nightly: calibration: imported 1 comparison(s) of its bundle");
	CHECK_HAS(said, "perfbot nightly: 771: imported 1 comparison(s) of its bundle");
	CHECK_HAS(said, "perfbot: 772: Slurm job 3 cancelled (perfbot stopped)");
	CHECK_STR(handed, "0:0:1 771:0:1 772:3:0 ");
	/* each handed back once its import was said, before the next one's */
	{
		const char *steps[] = { "calibration: imported", "[handed 0]", "771: imported",
					"[handed 771]", "[handed 772]" };
		const char *at = said;

		for (size_t i = 0; i < PB_ARRAY_SIZE(steps) && at; i++) {
			at = strstr(at, steps[i]);
			CHECK(at != NULL);
		}
	}
	free(said);
	free(handed);
	CHECK(t[0].outcome.comparison > 0 && t[1].outcome.comparison > t[0].outcome.comparison);
	CHECK_INT(t[1].outcome.status, STATUS_MEASURED);
	CHECK_STR(t[1].node, "node1");
	CHECK_INT(t[1].exit_code, 0);
	CHECK(t[1].patch == queue_find(&f.queue, 771) && t[2].patch == queue_find(&f.queue, 772));
	CHECK_HAS(t[1].out, "/771-1.out");
	CHECK(t[2].out && !t[2].outcome.comparison);
	CHECK_INT(entries(spool), 1);
	/* the patches after the calibration, from its database */
	text = text_of(dir, "log");
	CHECK_STR(text, "1 calibration seed= calibrate -b 2\n"
			"2 771 seed=calibration-1.db run --patch 771\n"
			"3 772 seed=calibration-1.db run --patch 772\n");
	free(text);
	text = text_of(dir, "cancelled");
	CHECK_STR(text, "3\n");
	free(text);
	/* both here, 771's on the row of this queue's patch, not the node's */
	CHECK_INT(fixture_rows(db, "comparisons"), 2);
	CHECK_INT(fixture_rows(db, "patches"), 1);
	CHECK_INT(db_count(db, "SELECT count(*) FROM patches WHERE queue='/node/queue'", 0), 0);
	for (int i = 0; i < 3; i++)
		submit_task_free(&t[i]);

	free(test_write(dir, "refuse", ""));
	rm_rf(spool);
	CHECK_INT(submit_many(&cfg, &f, db, t, 3, &handed, &said, &err), RUN_FAILED);
	CHECK_HAS(err.msg, "sbatch refused the job of calibration");
	CHECK_STR(handed, "");
	CHECK(t[0].end == RUN_STOPPED && !t[0].out);
	CHECK_INT(entries(spool), 0);
	free(said);
	free(handed);
	for (int i = 0; i < 3; i++)
		submit_task_free(&t[i]);

	setenv("PATH", old_path, 1);
	db_close(db);
	fixture_free(&f);
	free(old_path);
	free(path);
	free(home);
	free(spool);
	free(dir);
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
	test_submit_many();
}
