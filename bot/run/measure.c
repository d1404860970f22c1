/* The boot schedule of measure.h: rounds, the adaptive extra rounds, the
 * budget, the journal's boots taken as they are. */
#include "measure.h"

#include <fcntl.h>
#include <gsl/gsl_rng.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event.h"
#include "vm.h"

unsigned long measure_seed(const struct pb_config *cfg)
{
	unsigned int r = 0;
	int fd;

	if (cfg->seed)
		return (unsigned long)cfg->seed;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		r = (unsigned int)time(NULL) ^ (unsigned int)getpid();
	if (fd >= 0)
		close(fd);
	r &= 0x7fffffff; /* fits config's run.seed, so any run can be repeated */
	return r ? r : 1;
}

int measure_ok_boots(const struct comparison *cmp, enum side s)
{
	int n = 0;

	for (int b = 0; b < cmp->obs.nboots; b++)
		n += cmp->obs.boots[b].side == s && cmp->obs.boots[b].rec.outcome == BOOT_OK;
	return n;
}

static const char *side_label(const struct measure_plan *mp, enum side s)
{
	return mp->aa ? (s ? "side B" : "side A") : s ? "with    the fix" : "without the fix";
}

/* One boot of the schedule, on a thread of its own when guests run side by
 * side: it writes only its own record and files. */
struct boot_job {
	const struct pb_config *cfg;
	const struct comparison *cmp;
	const struct measure_plan *mp;
	enum side side;
	int index;                      /* in the schedule */
	char *prefix;
	struct guest_plan plan;         /* mp->guest less what this boot leaves out */
	char *left_out;                 /* "a,b": those workloads' binaries, NULL: none */
	struct boot_record rec;
	bool ok, started;
	pb_err err;
	pthread_t thread;
};

static void *boot_job_run(void *arg)
{
	struct boot_job *j = arg;
	const struct measure_plan *mp = j->mp;

	if (mp->boot)
		j->ok = mp->boot(mp->boot_ctx, j->side, mp->guest ? &j->plan : NULL, j->prefix, &j->rec,
				 &j->err);
	else
		j->ok = vm_boot(j->cfg, &j->cmp->accel, &j->plan, mp->kernel[j->side], mp->initrd,
				j->prefix, &j->rec, &j->err);
	return NULL;
}

/* A finished job's boot joins the observations, is said, and is journaled. */
static bool boot_job_take(struct comparison *cmp, const struct measure_plan *mp,
			  struct boot_job *j, bool said_start, int shown_total, pb_err *err)
{
	struct boot *bt;

	if (!j->ok) {
		if (said_start)
			event_progress("\n");
		*err = j->err;
		return false;
	}
	cmp->obs.boots = xrealloc(cmp->obs.boots, sizeof(*cmp->obs.boots) * (size_t)(cmp->obs.nboots + 1));
	bt = &cmp->obs.boots[cmp->obs.nboots++];
	memset(bt, 0, sizeof(*bt));
	bt->side = j->side;
	bt->rec = j->rec;
	memset(&j->rec, 0, sizeof(j->rec));
	if (!said_start)
		event_progress("perfbot: boot %d/%d  %s:", j->index + 1, shown_total,
			       side_label(mp, j->side));
	if (bt->rec.outcome != BOOT_OK && bt->rec.detail) {
		/* its line, not the oops: the answer and the console log have the rest */
		char *line = crash_headline(bt->rec.detail), *v = visible(line);

		event_progress(" %s in %.1f s: %s\n", boot_outcome_name(bt->rec.outcome),
			       bt->rec.wall_seconds, v);
		free(v);
		free(line);
	} else
		event_progress(" %s in %.1f s\n", boot_outcome_name(bt->rec.outcome),
			       bt->rec.wall_seconds);
	return !mp->boot_done || mp->boot_done(mp->ctx, cmp, cmp->obs.nboots - 1, err);
}

/* Boots the jobs: one after the other, or all at once, each on a thread,
 * taken in schedule order as they end (the journal's order). */
static bool boot_jobs(struct comparison *cmp, const struct measure_plan *mp, struct boot_job *jobs,
		      int n, int shown_total, pb_err *err)
{
	bool ok = true, together = n > 1;

	for (int k = 0; k < n; k++) {
		struct boot_job *j = &jobs[k];

		event_progress("perfbot: boot %d/%d  %s (%s, %s%s%s) %s", j->index + 1, shown_total,
			       side_label(mp, j->side), mp->label[j->side], accel_kind_name(cmp->accel.kind),
			       j->left_out ? "; once per kernel, left out: " : "", j->left_out ? j->left_out : "",
			       together ? "started\n" : "...");
		event_flush(EVENT_PROGRESS);
		if (!together) {
			boot_job_run(j);
			ok = ok && boot_job_take(cmp, mp, j, true, shown_total, err);
			if (!ok)
				return false;
			continue;
		}
		j->started = pthread_create(&j->thread, NULL, boot_job_run, j) == 0;
		if (!j->started) {
			pb_seterr(err, "cannot start a thread for boot %d", j->index + 1);
			ok = false;
			break;
		}
	}
	for (int k = 0; together && k < n; k++) {
		if (!jobs[k].started)
			continue;
		pthread_join(jobs[k].thread, NULL);
		ok = ok && boot_job_take(cmp, mp, &jobs[k], false, shown_total, err);
	}
	return ok;
}

/* Whether side s has an ok boot that ran w. */
static bool side_ran(const struct comparison *cmp, enum side s, const struct workload *w)
{
	for (int b = 0; b < cmp->obs.nboots; b++) {
		const struct boot *bt = &cmp->obs.boots[b];

		if (bt->side == s && bt->rec.outcome == BOOT_OK && results_ran(&bt->rec.results, w->binary))
			return true;
	}
	return false;
}

/* Whether w may run in one boot a side: it has no time metric, the boots
 * are deterministic (tcg-icount: under kvm and plain tcg a selftest may
 * time out under load, or fail now and then, and one boot would read that
 * as a change, or miss it), and no calibration found a metric of it vary. */
static bool runs_once(const struct comparison *cmp, const struct workload *w)
{
	if (!workload_once_per_side(w) || cmp->accel.kind != ACCEL_TCG_ICOUNT)
		return false;
	for (int i = 0; i < cmp->noise.n; i++)
		if (!strcmp(cmp->noise.floor[i].workload, w->binary) &&
		    !cmp->noise.floor[i].deterministic && cmp->noise.floor[i].boots >= 2)
			return false;
	return true;
}

/* The job's plan: the guest's, less the once-per-side workloads its side
 * has an ok boot of already (perfbot.skip= tells the guest's init). An A/A
 * calibration runs them in every boot: it is what finds them flaky. */
static void boot_job_plan(struct boot_job *j)
{
	const struct guest_plan *gp = j->mp->guest;
	pb_str skip;

	if (!gp)
		return;
	j->plan = *gp;
	j->plan.workloads = xcalloc((size_t)gp->nworkloads + 1, sizeof(*j->plan.workloads));
	j->plan.args = xcalloc((size_t)gp->nworkloads + 1, sizeof(*j->plan.args));
	j->plan.nworkloads = 0;
	str_init(&skip);
	for (int i = 0; i < gp->nworkloads; i++) {
		const struct workload *w = gp->workloads[i];

		if (!j->mp->aa && runs_once(j->cmp, w) && side_ran(j->cmp, j->side, w)) {
			str_addf(&skip, "%s%s", skip.len ? "," : "", w->binary);
		} else {
			j->plan.args[j->plan.nworkloads] = gp->args ? gp->args[i] : NULL;
			j->plan.workloads[j->plan.nworkloads++] = w;
		}
	}
	if (skip.len) {
		j->plan.kernel_cmdline = xasprintf("%s perfbot.skip=%s", gp->kernel_cmdline, skip.buf);
		j->left_out = str_steal(&skip);
	} else {
		str_free(&skip);
	}
}

static void boot_job_free(struct boot_job *j)
{
	free(j->prefix);
	boot_record_free(&j->rec);
	if (j->left_out)
		free(j->plan.kernel_cmdline);
	free(j->left_out);
	free((void *)j->plan.workloads);
	free(j->plan.args); /* the pointers only: the strings are the guest's */
}

/* Rounds [first, first + nrounds): one boot of each side a round, in an
 * order the seeded generator picks, so that a drift of the host (another
 * job starting, thermal) lands on both sides alike. A boot the journal
 * already holds is taken as it is. The others boot mp->parallel at a time
 * at most: all of the rounds' boots at once when it allows. */
static bool rounds_of_boots(const struct pb_config *cfg, struct comparison *cmp,
			    const struct measure_plan *mp, gsl_rng *order, int first, int nrounds,
			    int shown_total, pb_err *err)
{
	struct boot_job *jobs = xcalloc((size_t)(2 * nrounds), sizeof(*jobs));
	int n = 0;
	bool ok = true;

	for (int r = first; r < first + nrounds; r++) {
		enum side lead = gsl_rng_uniform_int(order, 2) ? SIDE_WITH : SIDE_WITHOUT;

		for (int k = 0; k < 2; k++) {
			enum side s = k ? (enum side)!lead : lead;
			int index = 2 * r + k;

			if (index < cmp->obs.nboots) {
				const struct boot *bt = &cmp->obs.boots[index];

				if (bt->side != s) {
					pb_seterr(err, "the journaled boot %d ran %s the fix, where seed %lu "
						       "puts the kernel %s it", index + 1, side_name(bt->side),
						  cmp->seed, side_name(s));
					ok = false;
					goto out;
				}
				event_progress("perfbot: boot %d/%d  %s: %s in %.1f s, from the journal (not "
						       "booted again)\n", index + 1, shown_total, side_name(s),
					       boot_outcome_name(bt->rec.outcome), bt->rec.wall_seconds);
				continue;
			}
			jobs[n++] = (struct boot_job){ .cfg = cfg, .cmp = cmp, .mp = mp, .side = s, .index = index,
						       .prefix = xasprintf("%s/boot%02d-%s", mp->log_dir, index + 1,
									   side_name(s)) };
		}
	}
	for (int k = 0; ok && k < n;) {
		int at_once = mp->parallel > 1 ? mp->parallel : 1;

		if (mp->stop && *mp->stop) {
			cmp->interrupted = true;
			break;
		}
		if (at_once > n - k)
			at_once = n - k;
		/* planned as the batch starts: from the boots ended before it */
		for (int b = k; b < k + at_once; b++)
			boot_job_plan(&jobs[b]);
		ok = boot_jobs(cmp, mp, jobs + k, at_once, shown_total, err);
		k += at_once;
	}
out:
	for (int k = 0; k < n; k++)
		boot_job_free(&jobs[k]);
	free(jobs);
	return ok;
}

static double boot_seconds(const struct comparison *cmp)
{
	double t = 0;

	for (int b = 0; b < cmp->obs.nboots; b++)
		t += cmp->obs.boots[b].rec.wall_seconds;
	return t;
}

/* Whether the kernel of side s (by its key: a calibration's two sides are
 * one kernel) had a boot that came out ok. */
static bool kernel_booted_ok(const struct comparison *cmp, enum side s)
{
	for (int t = 0; t < 2; t++)
		if (!strcmp(cmp->image[t].key, cmp->image[s].key) && measure_ok_boots(cmp, (enum side)t))
			return true;
	return false;
}

/* Under tcg-icount a guest's run is a function of its kernel and inputs: a
 * kernel that panicked will do it again at every boot, so it is booted
 * once, not first_rounds times. A hang is not as sure: the disk's I/O
 * completes on the host's clock, and a guest that waits on it can take
 * another path (a calibration boot of the base kernel hung in the
 * khugepaged selftest, the next boot of the same kernel was ok in 86 s).
 * So a hang or a guest that stopped without its results counts after the
 * second, and no failure counts once the kernel booted ok. In wall-clock
 * modes a failure may be a race that the next boot does not hit: those
 * keep their rounds. */
static bool kernel_failed_for_good(const struct comparison *cmp)
{
	if (cmp->accel.kind != ACCEL_TCG_ICOUNT)
		return false;
	for (int s = 0; s < 2; s++) {
		int panics = 0, hangs = 0;

		if (kernel_booted_ok(cmp, (enum side)s))
			continue;
		for (int b = 0; b < cmp->obs.nboots; b++) {
			enum boot_outcome o = cmp->obs.boots[b].rec.outcome;

			if ((int)cmp->obs.boots[b].side != s)
				continue;
			panics += o == BOOT_PANIC;
			hangs += o == BOOT_TIMEOUT || o == BOOT_INCOMPLETE;
		}
		if (panics || hangs >= 2)
			return true;
	}
	return false;
}

/* 1 if the focus metric is inconclusive yet, else 0. */
static int focus_inconclusive(const struct comparison *cmp, const struct measure_plan *mp)
{
	const struct metric_result *m = comparison_result(cmp, mp->focus_workload, mp->focus_metric);

	return m && m->verdict == VERDICT_INCONCLUSIVE;
}

bool measure_boots(const struct pb_config *cfg, struct comparison *cmp,
		   const struct measure_plan *mp, pb_err *err)
{
	gsl_rng *order = gsl_rng_alloc(gsl_rng_mt19937);
	int rounds = 0, journaled = cmp->obs.nboots;
	bool ok = true;

	gsl_rng_set(order, cmp->seed);
	cmp->interrupted = false;
	cmp->obs.rounds = true; /* boots 2r and 2r+1: round r, one of each kernel */
	while (ok && !cmp->interrupted && rounds < mp->first_rounds) {
		/* as many whole rounds as can boot at once */
		int n = mp->parallel > 2 ? mp->parallel / 2 : 1;

		if (n > mp->first_rounds - rounds)
			n = mp->first_rounds - rounds;
		ok = rounds_of_boots(cfg, cmp, mp, order, rounds, n, 2 * mp->first_rounds, err);
		rounds += n;
		if (ok && !cmp->interrupted && rounds < mp->first_rounds && kernel_failed_for_good(cmp)) {
			event_progress("perfbot: a kernel failed under tcg-icount, where every boot of it "
					       "would fail alike: not booted again\n");
			break;
		}
	}
	cmp->boots_per_kernel = rounds;
	if (ok && !cmp->interrupted)
		comparison_compute(cmp);
	while (ok && !cmp->interrupted && rounds < mp->max_rounds &&
	       measure_ok_boots(cmp, SIDE_WITHOUT) && measure_ok_boots(cmp, SIDE_WITH)) {
		int open = mp->focus_metric ? focus_inconclusive(cmp, mp)
					    : compare_inconclusive(&cmp->findings);
		double spent = boot_seconds(cmp);
		bool replay = 2 * rounds < journaled; /* journaled extra rounds were decided already */

		if (!open && !replay)
			break;
		/* a round takes about what the last two boots took */
		if (!replay && mp->budget_seconds > 0 && spent + spent / rounds > mp->budget_seconds) {
			event_progress("perfbot: %d metric(s) inconclusive; the boot budget (%.0f s) is "
					       "spent\n", open, mp->budget_seconds);
			break;
		}
		if (!replay)
			event_progress("perfbot: %d metric(s) inconclusive after %d boots per kernel: one "
					       "more of each (at most %d)\n", open, rounds, mp->max_rounds);
		ok = rounds_of_boots(cfg, cmp, mp, order, rounds, 1, 2 * (rounds + 1), err);
		rounds++;
		if (ok && !cmp->interrupted) {
			cmp->boots_per_kernel = rounds;
			comparison_compute(cmp);
		}
	}
	gsl_rng_free(order);
	return ok;
}
