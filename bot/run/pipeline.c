/* The stages of pipeline.h and the two plans that store a comparison:
 * a patch's (perfbot run, nightly, perfbotd's jobs) and an A/A calibration
 * (perfbot calibrate, nightly). Each plan prints its progress and table. */
#include <assert.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "event.h"
#include "host.h"
#include "jobdb.h"
#include "pipeline.h"
#include "version.h"

#define FA_SPLITS 200

void pipeline_init(struct pipeline *pl, const struct pb_config *cfg)
{
	memset(pl, 0, sizeof(*pl));
	pl->cfg = cfg;
	pl->start = now_seconds();
}

void pipeline_free(struct pipeline *pl)
{
	if (pl->db)
		db_close(pl->db);
	if (pl->initrd)
		unlink(pl->initrd);
	noise_free(pl->noise, pl->nnoise);
	guest_plan_free(&pl->gp);
	kernel_config_free(&pl->kc);
	pair_plan_free(&pl->pair);
	tree_free(&pl->tree);
	workloads_free(&pl->wset);
	free(pl->stamp);
	free(pl->log_dir);
	free(pl->initrd);
	free(pl->report);
	memset(pl, 0, sizeof(*pl));
}

static char *names_of(const struct workload *const *w, int n, const char *head)
{
	pb_str s;

	str_init(&s);
	str_add(&s, head);
	for (int i = 0; i < n; i++)
		str_addf(&s, " %s", w[i]->name);
	return str_steal(&s);
}

/* The stages as data: what each needs done before it (pipeline.h), in
 * the one order a plan may prepare them. */
static const struct {
	enum stage stage;
	unsigned needs;
} stage_table[] = {
	{ STAGE_WORKLOADS, 0 },
	{ STAGE_TREE, 0 },
	{ STAGE_PAIR, STAGE_TREE },
	{ STAGE_SELFTESTS, STAGE_WORKLOADS | STAGE_TREE },
	{ STAGE_CONFIGURE, STAGE_TREE },
	{ STAGE_DB, 0 },
	{ STAGE_BUILD, STAGE_CONFIGURE },
	{ STAGE_GUESTS, STAGE_WORKLOADS },
	{ STAGE_NOISE, STAGE_DB | STAGE_GUESTS | STAGE_CONFIGURE },
	{ STAGE_BOOTS, STAGE_GUESTS },
	{ STAGE_STORE, STAGE_DB },
};

/* A stage begins: what it needs is done, or the plan is wrong (a bug, not
 * an input: asserted, as SQLite asserts its pager's states). */
static void stage_enter(const struct pipeline *pl, enum stage s)
{
	for (size_t i = 0; i < PB_ARRAY_SIZE(stage_table); i++)
		if (stage_table[i].stage == s)
			assert((pl->done & stage_table[i].needs) == stage_table[i].needs);
}

/* A stage ended: ok, what it provides is there for the stages after it. */
static bool stage_leave(struct pipeline *pl, enum stage s, bool ok)
{
	if (ok)
		pl->done |= (unsigned)s;
	return ok;
}

bool pipeline_prepare(struct pipeline *pl, const struct prepare *p)
{
	char *why = NULL;
	bool ok = true;

	/* in the table's order: the prepare stages come first there */
	for (size_t i = 0; ok && i < PB_ARRAY_SIZE(stage_table); i++) {
		enum stage s = stage_table[i].stage;

		if (!(p->stages & s))
			continue;
		switch (s) {
		case STAGE_WORKLOADS:
			ok = stage_workloads(pl, p->choose, p->nchoose, p->only, p->nonly, &why);
			if (p->why)
				*p->why = why;
			else
				free(why);
			break;
		case STAGE_TREE:
			ok = stage_tree(pl);
			break;
		case STAGE_PAIR:
			/* a series with nothing to apply is refused there, not A/A */
			ok = p->patch	? stage_pair(pl, p->patch)
			     : p->series ? stage_pair_series(pl, p->series, p->nseries)
					 : stage_pair(pl, NULL);
			break;
		case STAGE_SELFTESTS:
			ok = stage_selftests(pl);
			break;
		case STAGE_CONFIGURE:
			ok = stage_configure(pl);
			break;
		case STAGE_DB:
			ok = stage_open_db(pl, false, NULL);
			break;
		default:
			assert(!"a stage pipeline_prepare does not run");
		}
		if (ok && p->said)
			p->said(pl, s, p->ctx);
	}
	return ok;
}

bool stage_workloads(struct pipeline *pl, const struct pb_patch *const *ps, int np, char **only,
		     int nonly, char **why)
{
	bool fallback = false;

	stage_enter(pl, STAGE_WORKLOADS);
	*why = NULL;
	if (!workloads_load(pl->cfg->workloads_dir, &pl->wset, &pl->err))
		return false;
	if (nonly) {
		if (!host_workloads_named(&pl->wset, only, nonly, pl->chosen, &pl->err))
			return false;
		pl->nchosen = nonly;
		*why = xstrdup("named on the command line (--workload)");
	} else if (np) {
		pl->nchosen = workloads_for_patches(&pl->wset, ps, np, pl->chosen, WORKLOADS_MAX,
						    &fallback);
		if (np == 1)
			*why = names_of(pl->chosen, pl->nchosen,
					fallback ? "no workload declares a path this patch touches; "
						   "ran the fallback set:"
						 : "chosen by the paths the patch touches:");
		else
			*why = names_of(pl->chosen, pl->nchosen,
					fallback ? "no workload declares a path the series' mm patches "
						   "touch; ran the fallback set:"
						 : "chosen by the paths the series' mm patches touch:");
	} else {
		pl->nchosen = pl->wset.n < WORKLOADS_MAX ? pl->wset.n : WORKLOADS_MAX;
		for (int i = 0; i < pl->nchosen; i++)
			pl->chosen[i] = &pl->wset.w[i];
		*why = xstrdup("every workload");
	}
	/* Before any build: a missing package or a bad workload parameter. */
	return stage_leave(pl, STAGE_WORKLOADS,
			   host_check_requirements(pl->chosen, pl->nchosen, &pl->err) &&
				   guest_plan_init(&pl->gp, pl->cfg, pl->chosen, pl->nchosen, &pl->err));
}

bool stage_tree(struct pipeline *pl)
{
	stage_enter(pl, STAGE_TREE);
	return stage_leave(pl, STAGE_TREE, tree_prepare(pl->cfg, &pl->tree, &pl->err));
}

bool stage_selftests(struct pipeline *pl)
{
	stage_enter(pl, STAGE_SELFTESTS);
	return stage_leave(pl, STAGE_SELFTESTS, host_selftests(&pl->tree, &pl->gp, &pl->err));
}

bool stage_pair(struct pipeline *pl, const struct pb_patch *p)
{
	stage_enter(pl, STAGE_PAIR);
	if (p)
		return stage_leave(pl, STAGE_PAIR, pair_decide(pl->cfg, &pl->tree, p, &pl->pair, &pl->err));
	pl->pair.method = PAIR_FORWARD;
	pl->pair.detail = xasprintf("A/A calibration: the base kernel %s on both sides",
				    pl->tree.version);
	kernel_change_set(&pl->pair.without, NULL, false, "base");
	kernel_change_set(&pl->pair.with, NULL, false, "base");
	return stage_leave(pl, STAGE_PAIR, true);
}

bool stage_pair_series(struct pipeline *pl, const struct pb_patch *const *ps, int np)
{
	stage_enter(pl, STAGE_PAIR);
	return stage_leave(pl, STAGE_PAIR,
			   pair_decide_series(pl->cfg, &pl->tree, ps, np, &pl->pair, &pl->err));
}

bool stage_configure(struct pipeline *pl)
{
	stage_enter(pl, STAGE_CONFIGURE);
	return stage_leave(pl, STAGE_CONFIGURE,
			   kernel_config_prepare(pl->cfg, &pl->tree, &pl->kc, &pl->err));
}

bool stage_open_db(struct pipeline *pl, bool wait, volatile sig_atomic_t *stop)
{
	stage_enter(pl, STAGE_DB);
	return stage_leave(pl, STAGE_DB,
			   (wait ? db_lock_wait(pl->cfg->db_path, stop, &pl->err)
				 : db_lock(pl->cfg->db_path, &pl->err)) &&
				   db_open(pl->cfg->db_path, &pl->db, &pl->err));
}

bool stage_build(struct pipeline *pl, const struct kernel_change *const change[2],
		 struct kernel_image img[2], bool announce)
{
	stage_enter(pl, STAGE_BUILD);
	for (int s = 0; s < 2; s++) {
		if (!kernel_build(pl->cfg, &pl->tree, &pl->kc, change[s], &img[s], &pl->err))
			return false;
		if (!announce)
			continue;
		if (img[s].built)
			event_progress("perfbot: %-7s the fix: %-10s %s (%s)\n", side_name((enum side)s),
				       change[s]->label, img[s].bzimage, img[s].cached ? "cached" : "built now");
		else
			event_progress("perfbot: %-7s the fix: %-10s BUILD FAILED, log %s\n",
				       side_name((enum side)s), change[s]->label, img[s].log);
	}
	return stage_leave(pl, STAGE_BUILD, true);
}

bool stage_guests(struct pipeline *pl, const char *name, const char *probe_kernel)
{
	stage_enter(pl, STAGE_GUESTS);
	if (!pl->stamp)
		pl->stamp = host_timestamp();
	free(pl->log_dir);
	pl->log_dir = xasprintf("%s/logs/%s-%s", pl->cfg->report_dir, name, pl->stamp);
	if (pl->initrd)
		unlink(pl->initrd);
	free(pl->initrd);
	pl->initrd = NULL;
	return stage_leave(pl, STAGE_GUESTS,
			   host_guest_prepare(pl->cfg, &pl->gp, probe_kernel, pl->log_dir, &pl->initrd,
					      &pl->accel, &pl->err));
}

/* The index in pl->chosen of the workload whose binary is name, or -1. */
static int chosen_binary(const struct pipeline *pl, const char *name)
{
	for (int i = 0; i < pl->nchosen; i++)
		if (!strcmp(pl->chosen[i]->binary, name))
			return i;
	return -1;
}

/* Each chosen workload's fingerprint, once: a noise floor has one per metric. */
static void chosen_fingerprints(const struct pipeline *pl, char (*fp)[65])
{
	for (int i = 0; i < pl->nchosen; i++)
		guest_workload_fingerprint(pl->cfg, pl->chosen[i], fp[i]);
}

/* The newest calibration's noise floors of the workloads as they are now:
 * a floor another version of a workload measured (another ini, binary or
 * guest init) is no prior for this one, and would be a wrong floor. */
bool stage_noise(struct pipeline *pl)
{
	char fp[WORKLOADS_MAX][65];
	long long elsewhere;
	int kept = 0;
	pb_str stale;

	stage_enter(pl, STAGE_NOISE);
	/* a bisect's steps load it again: the last step's goes */
	noise_free(pl->noise, pl->nnoise);
	pl->noise = NULL;
	pl->nnoise = 0;
	if (!db_load_noise(pl->db, pl->accel.kind, pl->kc.sha256, pl->cfg->iterations,
			   pl->cfg->warmup, &pl->noise, &pl->nnoise, &pl->noise_calibration, &elsewhere,
			   &pl->err))
		return false;
	if (elsewhere)
		event_say("perfbot: calibration %lld ran under another QEMU build%s: not its noise floor "
			  "(this machine: %s%s%s)\n", elsewhere,
			  pl->accel.kind != ACCEL_TCG_ICOUNT ? " or host CPU" : "", qemu_version(),
			  pl->accel.kind != ACCEL_TCG_ICOUNT ? ", " : "",
			  pl->accel.kind != ACCEL_TCG_ICOUNT ? host_cpu_model() : "");
	chosen_fingerprints(pl, fp);
	str_init(&stale);
	for (int i = 0; i < pl->nnoise; i++) {
		struct noise_floor *nf = &pl->noise[i];
		int w = chosen_binary(pl, nf->workload);

		if (w < 0 || (fp[w][0] && !strcmp(fp[w], nf->sha256))) {
			pl->noise[kept++] = *nf;
			continue;
		}
		if (!strstr(stale.buf, nf->workload))
			str_addf(&stale, "%s%s", stale.len ? ", " : "", nf->workload);
		free(nf->workload);
		free(nf->metric);
	}
	pl->nnoise = kept;
	if (stale.len)
		event_say("perfbot: calibration %lld measured another version of %s (its ini, binary or the "
			  "guest's init): not its noise floor\n", pl->noise_calibration, stale.buf);
	if (!kept)
		pl->noise_calibration = 0;
	str_free(&stale);
	return stage_leave(pl, STAGE_NOISE, true);
}

/* Where a run's noise floor comes from, said once its boots are known. */
static void print_noise_source(const struct pipeline *pl)
{
	if (pl->noise_calibration)
		event_say("perfbot: noise floor from calibration %lld (%s)\n", pl->noise_calibration,
			  accel_kind_name(pl->accel.kind));
	else
		event_say("perfbot: no calibration for %s with %d iteration(s), %d warm-up, yet (perfbot "
			  "calibrate): the noise floor comes from this run's own boots\n", accel_kind_name(pl->accel.kind),
			  pl->cfg->iterations, pl->cfg->warmup);
}

bool stage_boots(struct pipeline *pl, struct comparison *cmp, struct measure_plan *mp)
{
	char why[160];

	stage_enter(pl, STAGE_BOOTS);
	mp->guest = &pl->gp;
	mp->initrd = pl->initrd;
	mp->log_dir = pl->log_dir;
	if (mp->parallel > 0)
		snprintf(why, sizeof(why), "as the caller asked");
	else
		mp->parallel = host_guests_at_once(pl->cfg, &pl->accel, &pl->gp, why, sizeof(why));
	cmp->guests_at_once = mp->parallel;
	event_say("perfbot: %d guest%s at once (%s)\n", mp->parallel, mp->parallel == 1 ? "" : "s", why);
	event_flush(EVENT_SAY);
	return stage_leave(pl, STAGE_BOOTS, measure_boots(pl->cfg, cmp, mp, &pl->err));
}

bool stage_store(struct pipeline *pl, struct comparison *cmp)
{
	stage_enter(pl, STAGE_STORE);
	cmp->finished_at = iso_time_now();
	cmp->wall_seconds = now_seconds() - pl->start;
	return stage_leave(pl, STAGE_STORE, db_store_comparison(pl->db, cmp, perfbot_version,
								 jobdb_complete, &pl->cid, &pl->err));
}

/* The comparison's inputs, as the stages so far left them. */
static void comparison_from(struct comparison *cmp, struct pipeline *pl, enum comparison_kind kind,
			    const struct pb_queue *q, char *why)
{
	cmp->kind = kind;
	cmp->queue_dir = q->dir;
	cmp->tree = &pl->tree;
	cmp->plan = &pl->pair;
	cmp->config = &pl->kc;
	cmp->obs.workloads = pl->chosen;
	cmp->obs.nworkloads = pl->nchosen;
	cmp->workload_choice = why;
	cmp->obs.iterations = pl->cfg->iterations;
	cmp->seed = measure_seed(pl->cfg);
	cmp->started_at = iso_time_now();
}

/* After stage_guests: the accelerator the comparison's boots run under. */
static void comparison_booted(struct comparison *cmp, const struct pipeline *pl)
{
	cmp->accel = pl->accel;
	cmp->booted = true;
	event_say("perfbot: accelerator %s: %s\n", accel_kind_name(cmp->accel.kind), cmp->accel.reason);
}

/* The gate goes with the accelerator and the bootstrap with the seed: set
 * once both are final (after a resumed job's journal gave its seed). */
static void comparison_policy(struct comparison *cmp, const struct pb_config *cfg)
{
	verdict_policy_init(&cmp->policy, cfg, cmp->booted ? cmp->accel.kind : ACCEL_AUTO);
}

static void outcome_set(struct pipeline_outcome *out, long long cid, const struct comparison *cmp)
{
	if (!out)
		return;
	out->comparison = cid;
	out->status = cmp->status;
	out->decided = cmp->findings.decided;
	out->verdict = cmp->findings.verdict;
	out->behaviour_change = cmp->findings.decided && cmp->findings.behaviour == VERDICT_BEHAVIOUR_CHANGE;
}

/* What the guest's console and the compiler said: their lines, made visible(). */
static void print_failures(const struct comparison *cmp, bool aa)
{
	for (int b = 0; b < cmp->obs.nboots; b++) {
		const struct boot *bt = &cmp->obs.boots[b];
		char *detail;

		if (bt->rec.outcome == BOOT_OK)
			continue;
		detail = visible_lines(bt->rec.detail);
		if (aa)
			event_say("boot %d: %s: %s\n", b + 1, boot_outcome_name(bt->rec.outcome), detail);
		else
			event_say("boot %d (%s the fix): %s: %s\n", b + 1, side_name(bt->side),
				  boot_outcome_name(bt->rec.outcome), detail);
		free(detail);
	}
	for (int s = 0; !aa && s < 2; s++)
		if (cmp->image[s].failure) {
			char *failure = visible_lines(cmp->image[s].failure);

			event_say("the kernel %s the fix failed to build:\n%s\n", side_name((enum side)s),
				  failure);
			free(failure);
		}
}

/* What the journaled boots of a job depend on: were any of these different,
 * its boots would not belong in one comparison. */
static char *journal_inputs(const struct comparison *cmp, const struct guest_plan *gp,
			    const struct pb_config *cfg)
{
	pb_str s;

	str_init(&s);
	str_addf(&s, "kernels %s %s; accel %s; iterations %d; cmdline %s; workloads", cmp->image[0].key,
		 cmp->image[1].key, accel_kind_name(cmp->accel.kind), cfg->iterations, gp->kernel_cmdline);
	for (int i = 0; i < gp->nworkloads; i++)
		str_addf(&s, " [%s %s]", gp->workloads[i]->name, gp->args[i] ? gp->args[i] : "");
	return str_steal(&s);
}

struct journal {
	sqlite3 *db;
	long long job;
};

static bool journal_boot(void *ctx, const struct comparison *cmp, int b, pb_err *err)
{
	const struct journal *j = ctx;

	return jobdb_journal_boot(j->db, j->job, cmp, b, err);
}

/* perfbotd's job: its journaled boots into cmp (the seed with them). */
static bool journal_resume(struct pipeline *pl, struct comparison *cmp, long long job)
{
	char *inputs = journal_inputs(cmp, &pl->gp, pl->cfg);
	bool ok = jobdb_journal_open(pl->db, job, inputs, cmp, &pl->err);

	free(inputs);
	if (ok && cmp->obs.nboots)
		event_say("perfbot: job %lld resumes after its last completed boot: %d boot(s) "
			  "journaled (seed %lu)\n", job, cmp->obs.nboots, cmp->seed);
	return ok;
}

bool pipeline_check_run(const struct pb_config *cfg, const struct pb_patch *p, char **only,
			int nonly, pb_err *err)
{
	struct pipeline pl;
	char *why;
	bool ok;

	pipeline_init(&pl, cfg);
	ok = stage_workloads(&pl, &p, 1, only, nonly, &why) && kernel_source_check(cfg, &pl.err);
	free(why);
	if (!ok)
		*err = pl.err;
	pipeline_free(&pl);
	return ok;
}

static void print_line(const char *fmt, const char *text)
{
	char *v = visible(text);

	event_say(fmt, v);
	free(v);
}

/* "patch 771/800 subject", or a patch of one's own by its identity. */
static void print_patch(const struct pb_patch *p)
{
	char label[PATCH_LABEL_SIZE], *v = visible(p->subject);

	patch_label(label, p->number, p->sha256);
	if (p->number)
		event_say("perfbot: patch %s/%d %s\n", label, p->total, v);
	else
		event_say("perfbot: patch %s %s\n", label, v);
	free(v);
}

/* Not an mm patch and not --force: said, and nothing measured. */
static bool run_skips(const struct pb_patch *p, const struct run_request *rq,
		      struct pipeline_outcome *out)
{
	char *subject, *reason, label[PATCH_LABEL_SIZE];

	if (p->is_mm || rq->force)
		return false;
	subject = visible(p->subject);
	reason = visible(p->mm_reason);
	if (out)
		out->skipped = true;
	event_say("perfbot: patch %s (%s) is not an mm patch (%s): nothing to measure "
		  "(--force measures it anyway)\n", patch_label(label, p->number, p->sha256), subject,
		  reason);
	free(subject);
	free(reason);
	return true;
}

/* What a run's and a series' plans say between their stages: the patch
 * (or the series) once its workloads are chosen, the pair once the
 * selftests are there too. */
struct run_said {
	const struct pb_patch *patch;  /* a patch's run; NULL: a series' */
	const struct series_info *si;
	const struct pb_queue *q;
	int nmm;
	bool mm_only;
};

static void run_say(const struct pipeline *pl, enum stage done, const void *ctx)
{
	const struct run_said *r = ctx;

	if (done == STAGE_WORKLOADS && r->patch)
		print_patch(r->patch);
	else if (done == STAGE_WORKLOADS)
		event_say("perfbot: series %s%s%s: %d patch%s, %d mm; %s\n", r->si->name,
			  r->si->description[0] ? ", " : "", r->si->description, r->q->npatches,
			  r->q->npatches == 1 ? "" : "es", r->nmm,
			  r->mm_only ? "only the mm patches applied (--mm-only)"
				     : "every patch applied, as in the -rc (--mm-only: the mm ones alone)");
	if (done == STAGE_SELFTESTS) {
		event_say("perfbot: pair formed by %s: ", pair_method_name(pl->pair.method));
		print_line("%s\n", pl->pair.detail);
	}
}

/* The stages before the database: bad input stops here, having created
 * and touched nothing. */
static bool run_prepare(struct pipeline *pl, const struct pb_patch *p, const struct run_request *rq,
			char **why)
{
	struct run_said said = { .patch = p };

	*why = NULL;
	return pipeline_prepare(pl, &(struct prepare){
					    .stages = STAGE_WORKLOADS | STAGE_TREE | STAGE_PAIR |
						      STAGE_SELFTESTS | STAGE_CONFIGURE,
					    .only = rq->only, .nonly = rq->nonly, .choose = &p,
					    .nchoose = 1, .why = why, .patch = p, .said = run_say,
					    .ctx = &said });
}

/* Why no build may run beside these boots (prebuild.h), or NULL: under
 * kvm and plain tcg a build slows the guests' clocks; a workload that
 * says parallel = no waits on a disk, whose time follows the host's. */
static const char *builds_beside_why_not(const struct pipeline *pl)
{
	if (pl->accel.kind != ACCEL_TCG_ICOUNT)
		return "a build beside the guests would slow their clocks";
	for (int i = 0; i < pl->nchosen; i++)
		if (!pl->chosen[i]->side_by_side)
			return "a workload's times wait on a disk (parallel = no)";
	return NULL;
}

bool pipeline_build_patch(const struct pb_config *cfg, const struct pb_patch *p)
{
	struct run_request rq = { .number = p->number };
	struct kernel_image img[2];
	struct pipeline pl;
	char *why = NULL;
	bool ok;

	memset(img, 0, sizeof(img));
	pipeline_init(&pl, cfg);
	ok = run_prepare(&pl, p, &rq, &why);
	if (ok) {
		const struct kernel_change *change[2] = { &pl.pair.without, &pl.pair.with };

		ok = stage_build(&pl, change, img, true);
	}
	if (!ok)
		event_progress("perfbot: %s\n", pl.err.msg);
	for (int s = 0; s < 2; s++)
		kernel_image_free(&img[s]);
	free(why);
	pipeline_free(&pl);
	return ok;
}

/* Build, boot, decide: false only when perfbot cannot go on. */
static bool run_measure(struct pipeline *pl, struct comparison *cmp, const struct run_request *rq,
			const char *name)
{
	const struct kernel_change *change[2] = { &pl->pair.without, &pl->pair.with };
	struct journal journal = { pl->db, rq->job_id };
	struct measure_plan mp = {
		.label = { pl->pair.without.label, pl->pair.with.label },
		.first_rounds = pl->cfg->boots,
		.max_rounds = pl->cfg->max_boots > pl->cfg->boots ? pl->cfg->max_boots : pl->cfg->boots,
		.budget_seconds = pl->cfg->budget_minutes * 60.0,
		.boot_done = rq->job_id ? journal_boot : NULL, .ctx = &journal,
		.stop = rq->stop,
		.focus_workload = rq->focus_workload, .focus_metric = rq->focus_metric,
	};
	if (!stage_build(pl, change, cmp->image, true))
		return false;
	if (!cmp->image[0].built || !cmp->image[1].built) {
		cmp->status = STATUS_BUILD_FAILED;
		comparison_policy(cmp, pl->cfg);
		return true;
	}
	if (!stage_guests(pl, name, cmp->image[1].bzimage))
		return false;
	comparison_booted(cmp, pl);
	if (rq->boots_begin)
		rq->boots_begin(rq->ctx, cmp, builds_beside_why_not(pl));
	if (!stage_noise(pl) || (rq->job_id && !journal_resume(pl, cmp, rq->job_id)))
		return false;
	print_noise_source(pl);
	cmp->noise.floor = pl->noise;
	cmp->noise.n = pl->nnoise;
	cmp->noise_calibration = pl->noise_calibration;
	comparison_policy(cmp, pl->cfg);
	mp.kernel[0] = cmp->image[0].bzimage;
	mp.kernel[1] = cmp->image[1].bzimage;
	if (!stage_boots(pl, cmp, &mp))
		return false;
	cmp->status = measure_ok_boots(cmp, SIDE_WITHOUT) && measure_ok_boots(cmp, SIDE_WITH)
			      ? STATUS_MEASURED
			      : STATUS_BOOT_FAILED;
	return true;
}

bool pipeline_compare(struct pipeline *pl, const struct pb_queue *q, const struct run_request *rq,
		      struct comparison *cmp, enum comparison_kind kind, char *why, const char *name)
{
	const struct pb_patch *p = cmp->patch;
	const struct series_info *si = cmp->series;

	comparison_from(cmp, pl, kind, q, why);
	cmp->patch = p;
	cmp->series = si;
	cmp->job_id = rq->job_id;
	cmp->boots_per_kernel = pl->cfg->boots;
	event_say("perfbot: workloads: ");
	for (int i = 0; i < pl->nchosen; i++)
		event_say("%s%s", i ? ", " : "", pl->chosen[i]->name);
	event_say(" (%s)\n", cmp->workload_choice);
	if (!run_measure(pl, cmp, rq, name))
		return false;
	return cmp->interrupted || stage_store(pl, cmp);
}

/* What a patch's and a series' run share once their inputs are ready
 * (the stages before the database): open it, build, boot, decide, store,
 * print and report. p or si says what is compared; why is taken. */
static enum run_end run_compare(struct pipeline *pl, const struct pb_queue *q,
				const struct run_request *rq, const struct pb_patch *p,
				const struct series_info *si, char *why, const char *name,
				struct pipeline_outcome *out, pb_err *err)
{
	const struct pb_config *cfg = pl->cfg;
	const struct presenter *show = rq->show;
	struct comparison cmp = { .patch = p, .series = si };
	enum run_end rc = RUN_FAILED;

	/* Opened only now: bad input above never creates or touches the database.
	 * perfbotd's job waits for a manual run to finish; a manual run refuses. */
	if (!stage_open_db(pl, rq->job_id != 0, rq->stop)) {
		free(why);
		if (rq->stop && *rq->stop) {
			event_say("perfbot: %s; job %lld stays queued\n", pl->err.msg, rq->job_id);
			return RUN_STOPPED;
		}
		goto fail;
	}
	if (!pipeline_compare(pl, q, rq, &cmp, si ? KIND_SERIES : KIND_PATCH, why, name))
		goto fail;
	if (cmp.interrupted) {
		event_say("perfbot: stopped after boot %d; job %lld resumes from there\n", cmp.obs.nboots,
			  rq->job_id);
		rc = RUN_STOPPED;
		goto out;
	}
	if (rq->all) {
		if (cmp.findings.nresults && show && show->measured)
			show->measured(&cmp);
		print_failures(&cmp, false);
	}
	if (show && show->pages && !show->pages(pl->db, q, cfg->report_dir, pl->cid, &pl->report, &pl->err))
		goto fail;
	if (show && show->answer)
		show->answer(pl->db, pl->cid, !rq->all);
	event_say("perfbot: %s; comparison %lld stored in %s (seed %lu); report %s (%.0f s)\n",
		  status_name(cmp.status), pl->cid, cfg->db_path, cmp.seed, pl->report ? pl->report : "-",
		  cmp.wall_seconds);
	outcome_set(out, pl->cid, &cmp);
	rc = cmp.status != STATUS_MEASURED ? RUN_KERNEL_FAILED : RUN_DONE;
	goto out;
fail:
	*err = pl->err;
	rc = RUN_FAILED;
out:
	comparison_free(&cmp);
	return rc;
}

enum run_end pipeline_run_patch(const struct pb_config *cfg, const struct pb_queue *q,
				const struct run_request *rq, struct pipeline_outcome *out, pb_err *err)
{
	const struct pb_patch *p = queue_patch(q, rq->number, err);
	struct pipeline pl;
	char *why = NULL, name[PATCH_LABEL_SIZE];
	enum run_end rc;

	if (!p)
		return RUN_FAILED;
	err->msg[0] = '\0';
	if (out)
		memset(out, 0, sizeof(*out));
	if (run_skips(p, rq, out))
		return RUN_DONE;
	pipeline_init(&pl, cfg);
	if (run_prepare(&pl, p, rq, &why)) {
		patch_label(name, p->number, p->sha256);
		rc = run_compare(&pl, q, rq, p, NULL, why, name, out, err);
	} else {
		free(why);
		*err = pl.err;
		rc = RUN_FAILED;
	}
	pipeline_free(&pl);
	return rc;
}

/* The stages before the database for a series: its mm patches choose the
 * workloads; every patch (or, mm_only, the mm ones) makes the pair. */
static bool series_prepare(struct pipeline *pl, const struct pb_queue *q,
			   const struct run_request *rq, const struct series_info *si, char **why)
{
	const struct pb_patch **all = xcalloc((size_t)q->npatches + 1, sizeof(*all));
	const struct pb_patch **mm = xcalloc((size_t)q->npatches + 1, sizeof(*mm));
	int nall = queue_series_patches(q, rq->mm_only, all), nmm = queue_series_patches(q, true, mm);
	struct run_said said;
	bool ok = false;

	*why = NULL;
	if (!nmm && !rq->nonly) {
		pb_seterr(&pl->err, "series %s: no mm patch among its %d: nothing to measure (-w "
			  "names workloads to run anyway)", si->name, q->npatches);
		goto out;
	}
	said = (struct run_said){ .si = si, .q = q, .nmm = nmm, .mm_only = rq->mm_only };
	ok = pipeline_prepare(pl, &(struct prepare){
					  .stages = STAGE_WORKLOADS | STAGE_TREE | STAGE_PAIR |
						    STAGE_SELFTESTS | STAGE_CONFIGURE,
					  .only = rq->only, .nonly = rq->nonly, .choose = mm, .nchoose = nmm,
					  .why = why, .series = all, .nseries = nall, .said = run_say,
					  .ctx = &said });
out:
	free(all);
	free(mm);
	return ok;
}

enum run_end pipeline_run_series(const struct pb_config *cfg, const struct pb_queue *q,
				 const struct run_request *rq, struct pipeline_outcome *out, pb_err *err)
{
	struct series_info si = {
		.name = queue_series_name(q),
		.description = q->description ? q->description : "",
		.cover_message_id = q->cover_message_id ? q->cover_message_id : "",
		.mm_only = rq->mm_only,
	};
	struct pipeline pl;
	char *why = NULL, *name = xasprintf("series-%s", si.name);
	enum run_end rc;

	err->msg[0] = '\0';
	if (out)
		memset(out, 0, sizeof(*out));
	pipeline_init(&pl, cfg);
	if (series_prepare(&pl, q, rq, &si, &why)) {
		rc = run_compare(&pl, q, rq, NULL, &si, why, name, out, err);
	} else {
		free(why);
		*err = pl.err;
		rc = RUN_FAILED;
	}
	pipeline_free(&pl);
	free(name);
	free(si.name);
	return rc;
}

/* Random splits: run.boots ok boots against run.boots others, each judged
 * against the noise of the boots it left out (compare_aa_false_alarms). */
static void false_alarms(struct comparison *cmp, int per_side, unsigned long seed,
			 int *flags_by_metric)
{
	struct aa_false_alarms fa;

	compare_aa_false_alarms(&cmp->policy, &cmp->obs, per_side, FA_SPLITS, seed, &fa,
				flags_by_metric);
	cmp->fa_splits = fa.splits;
	cmp->fa_flagged = fa.flagged;
	cmp->fa_metric_tests = fa.metric_tests;
	cmp->fa_metric_flags = fa.metric_flags;
}

/* A role the workload declares that the calibration contradicts: a time
 * metric every boot gave exactly (a count: behaviour), a behaviour metric
 * that varied (flaky, or a time). NULL when it agrees. */
static const char *role_mismatch(const struct metric_def *def, const struct noise_floor *nf)
{
	if (nf->boots < 2)
		return NULL;
	if (def->kind == METRIC_TIME && nf->deterministic)
		return "declared time, but every boot gave the same values: a count is kind = behaviour";
	if (def->kind == METRIC_BEHAVIOUR && !nf->deterministic)
		return "declared behaviour, but it varied between boots of one kernel: it will be "
		       "'flaky', never a change; a measure of speed is kind = time";
	return NULL;
}

static void print_noise(const struct comparison *cmp, const int *flags_by_metric, int split)
{
	event_say("\n%-15s %-35s %5s %12s %12s %13s %s\n", "workload", "metric", "boots",
		  "between CV", "within CV", "deterministic", "A/A flags");
	for (int i = 0; i < cmp->nmeasured_noise; i++) {
		const struct noise_floor *nf = &cmp->measured_noise[i];
		int flags = 0;

		for (int r = 0; r < cmp->findings.nresults; r++)
			if (!strcmp(cmp->findings.results[r].workload, nf->workload) &&
			    !strcmp(cmp->findings.results[r].def->name, nf->metric))
				flags = flags_by_metric[r];
		event_say("%-15s %-35s %5d %11.4f%% %11.4f%% %13s %d/%d\n", nf->workload, nf->metric,
			  nf->boots, isnan(nf->between_cv_pct) ? 0 : nf->between_cv_pct,
			  isnan(nf->within_cv_pct) ? 0 : nf->within_cv_pct, nf->deterministic ? "yes" : "no",
			  flags, cmp->fa_splits);
	}
	for (int i = 0; i < cmp->nmeasured_noise; i++) {
		const struct noise_floor *nf = &cmp->measured_noise[i];

		for (int r = 0; r < cmp->findings.nresults; r++) {
			const struct metric_result *m = &cmp->findings.results[r];
			const char *why;

			if (!strcmp(m->workload, nf->workload) && !strcmp(m->def->name, nf->metric) &&
			    (why = role_mismatch(m->def, nf)))
				event_say("role: %s %s: %s\n", nf->workload, nf->metric, why);
		}
	}
	event_say("\nfalse alarms: %d of %d A/A comparisons (%d+%d boots each, drawn from these %d, "
		       "judged against the noise of the boots each left out) flagged something; %d of %d "
		       "metric verdicts\n",
		  cmp->fa_flagged, cmp->fa_splits, split, split, cmp->obs.nboots,
		  cmp->fa_metric_flags, cmp->fa_metric_tests);
}

/* The calibration's own findings: each metric's noise, and how often the
 * procedure flags an A/A split of its boots judged against that noise. */
static int *calibration_findings(struct comparison *cmp, int split)
{
	int *flags = xcalloc((size_t)cmp->findings.nresults + 1, sizeof(int));

	cmp->measured_noise = noise_measure(&cmp->policy, &cmp->obs, &cmp->nmeasured_noise);
	false_alarms(cmp, split, cmp->seed, flags);
	return flags;
}

/* A calibration of these very inputs is stored: the newest for this
 * accelerator, config, iterations and warm-up, of the same base kernel,
 * measured, with per_side boots a side or more, holding a noise floor of
 * the current version of every workload. Its id, or 0. */
static long long calibration_current(struct pipeline *pl, const struct comparison *cmp,
				     int per_side)
{
	struct noise_floor *noise = NULL;
	char fp[WORKLOADS_MAX][65];
	long long cid = 0;
	int n = 0;
	bool ok;

	if (!db_load_noise(pl->db, cmp->accel.kind, pl->kc.sha256, pl->cfg->iterations,
			   pl->cfg->warmup, &noise, &n, &cid, NULL, &pl->err) || !cid) {
		noise_free(noise, n);
		return 0;
	}
	/* and by this perfbot: another may boot its guests otherwise */
	ok = db_calibration_holds(pl->db, cid, per_side, cmp->image[0].key, perfbot_version);
	chosen_fingerprints(pl, fp);
	for (int w = 0; ok && w < pl->nchosen; w++) {
		bool found = false;

		for (int i = 0; i < n && !found; i++)
			found = chosen_binary(pl, noise[i].workload) == w && fp[w][0] &&
				!strcmp(fp[w], noise[i].sha256);
		ok = found;
	}
	noise_free(noise, n);
	return ok ? cid : 0;
}

/* Build the base, boot it per_side times a side, parallel guests at once
 * (0: as qemu.parallel says), logs under reports/logs/<name>-<stamp>:
 * false only when perfbot cannot go on.
 * *flags: the A/A flags per metric, when it booted; *boots_wall, when not
 * NULL: the seconds the boots took, start to end. With reused, a calibration
 * that still holds (calibration_current) is taken instead of booting
 * again: *reused is its id. */
static bool calibrate_measure(struct pipeline *pl, struct comparison *cmp, const char *name,
			      int per_side, int parallel, int **flags, double *boots_wall,
			      long long *reused)
{
	const struct kernel_change *change[2] = { &pl->pair.without, &pl->pair.with };
	struct measure_plan mp = {
		.label = { "base", "base" },
		.first_rounds = per_side, .max_rounds = per_side, .aa = true, .parallel = parallel,
	};
	char fp[WORKLOADS_MAX][65];
	double t0;

	if (!stage_build(pl, change, cmp->image, false))
		return false;
	if (!cmp->image[0].built) {
		char *failure = visible_lines(cmp->image[0].failure);

		cmp->status = STATUS_BUILD_FAILED;
		event_say("the base kernel failed to build:\n%s\n", failure);
		free(failure);
		comparison_policy(cmp, pl->cfg);
		return true;
	}
	if (!stage_guests(pl, name, cmp->image[0].bzimage))
		return false;
	comparison_booted(cmp, pl);
	comparison_policy(cmp, pl->cfg);
	if (reused && (*reused = calibration_current(pl, cmp, per_side)))
		return true;
	mp.kernel[0] = cmp->image[0].bzimage;
	mp.kernel[1] = cmp->image[1].bzimage;
	t0 = now_seconds();
	if (!stage_boots(pl, cmp, &mp))
		return false;
	if (boots_wall)
		*boots_wall = now_seconds() - t0;
	cmp->status = measure_ok_boots(cmp, SIDE_WITHOUT) + measure_ok_boots(cmp, SIDE_WITH) >= 2
			      ? STATUS_MEASURED
			      : STATUS_BOOT_FAILED;
	*flags = calibration_findings(cmp, pl->cfg->boots);
	chosen_fingerprints(pl, fp);
	for (int i = 0; i < cmp->nmeasured_noise; i++) {
		int w = chosen_binary(pl, cmp->measured_noise[i].workload);

		if (w >= 0)
			memcpy(cmp->measured_noise[i].sha256, fp[w], sizeof(fp[w]));
	}
	return true;
}

/* An A/A plan's stages (a calibration's, the parallel check's): the
 * workloads named or every one, the base on both sides, the database. */
static bool aa_prepare(struct pipeline *pl, char **only, int nonly, char **why)
{
	return pipeline_prepare(pl, &(struct prepare){
					    .stages = STAGE_WORKLOADS | STAGE_TREE | STAGE_PAIR |
						      STAGE_SELFTESTS | STAGE_CONFIGURE | STAGE_DB,
					    .only = only, .nonly = nonly, .why = why });
}

enum run_end pipeline_calibrate(const struct pb_config *cfg, const struct pb_queue *q, char **only,
				int nonly, int per_side, bool reuse, struct pipeline_outcome *out,
				pb_err *err)
{
	struct comparison cmp = { 0 };
	struct pipeline pl;
	long long reused = 0;
	int *flags = NULL;
	enum run_end rc = RUN_FAILED;
	char *why = NULL;

	err->msg[0] = '\0';
	if (out)
		memset(out, 0, sizeof(*out));
	pipeline_init(&pl, cfg);
	if (!aa_prepare(&pl, only, nonly, &why))
		goto fail;
	free(why);
	comparison_from(&cmp, &pl, KIND_CALIBRATION, q,
			names_of(pl.chosen, pl.nchosen, "calibration (A/A) of:"));
	why = NULL;
	event_say("perfbot: A/A calibration of the base kernel %s, %d boots per side, workloads:",
		  pl.tree.version, per_side);
	for (int i = 0; i < pl.nchosen; i++)
		event_say(" %s", pl.chosen[i]->name);
	event_say("\n");
	if (!calibrate_measure(&pl, &cmp, "calibrate", per_side, 0, &flags, NULL,
			       reuse ? &reused : NULL))
		goto fail;
	if (reused) {
		event_say("perfbot: calibration %lld still holds (the same base kernel, accelerator %s, "
			  "config, iterations and version of every workload, %d boots a side or more): "
			  "not calibrating again\n", reused, accel_kind_name(cmp.accel.kind), per_side);
		if (out) {
			out->comparison = reused;
			out->status = STATUS_MEASURED;
		}
		rc = RUN_DONE;
		goto out;
	}
	if (!stage_store(&pl, &cmp))
		goto fail;
	if (cmp.nmeasured_noise)
		print_noise(&cmp, flags, cfg->boots);
	print_failures(&cmp, true);
	event_say("perfbot: calibration %s; stored as comparison %lld in %s (accel %s, seed %lu, %.0f s); "
		  "runs under %s now use its noise floor\n",
		  status_name(cmp.status), pl.cid, cfg->db_path, cmp.booted ? accel_kind_name(cmp.accel.kind) : "-", cmp.seed,
		  cmp.wall_seconds, cmp.booted ? accel_kind_name(cmp.accel.kind) : "-");
	outcome_set(out, pl.cid, &cmp);
	rc = cmp.status != STATUS_MEASURED ? RUN_KERNEL_FAILED : RUN_DONE;
	goto out;
fail:
	*err = pl.err;
out:
	free(why);
	free(flags);
	noise_free(cmp.measured_noise, cmp.nmeasured_noise);
	comparison_free(&cmp);
	pipeline_free(&pl);
	return rc;
}

/* The boots of both halves of the A/A check as one comparison: those one
 * at a time on the side without, those side by side on the side with. */
static void parallel_check_obs(const struct comparison half[2], struct observations *obs)
{
	*obs = half[0].obs;
	obs->rounds = false;
	obs->boots = xcalloc((size_t)(half[0].obs.nboots + half[1].obs.nboots) + 1, sizeof(*obs->boots));
	obs->nboots = 0;
	for (int h = 0; h < 2; h++)
		for (int b = 0; b < half[h].obs.nboots; b++) {
			obs->boots[obs->nboots] = half[h].obs.boots[b]; /* shares the record */
			obs->boots[obs->nboots++].side = h ? SIDE_WITH : SIDE_WITHOUT;
		}
}

/* How many guests the A/A check boots at once: as asked, or one a CPU
 * when fewer than 2 were; said with the rest of its plan. */
static int parallel_check_plan(const struct pipeline *pl, int per_side, int guests)
{
	if (guests < 2) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		guests = cpus > 1 ? (int)cpus : 2;
	}
	event_say("perfbot: A/A check of guests side by side: the base kernel %s, %d boots one at a time, "
		  "then %d with %d at once; workloads:", pl->tree.version, 2 * per_side, 2 * per_side, guests);
	for (int i = 0; i < pl->nchosen; i++)
		event_say(" %s", pl->chosen[i]->name);
	event_say("\n");
	return guests;
}

/* Both halves of the A/A check measured, each per_side boots a side: one
 * at a time, then guests at once; ok[h] how many of half h's were ok.
 * RUN_FAILED when measuring failed (pl's error); RUN_KERNEL_FAILED (err)
 * when a boot was not ok, as the check compares every boot. */
static enum run_end parallel_check_measure(struct pipeline *pl, const struct pb_queue *q,
					   struct comparison half[2], int per_side, int guests,
					   int *flags[2], double wall[2], int ok[2], pb_err *err)
{
	for (int h = 0; h < 2; h++) {
		comparison_from(&half[h], pl, KIND_CALIBRATION, q,
				names_of(pl->chosen, pl->nchosen, "A/A check of guests side by side:"));
		if (!calibrate_measure(pl, &half[h], h ? "aa-side-by-side" : "aa-one-at-a-time", per_side,
				       h ? guests : 1, &flags[h], &wall[h], NULL))
			return RUN_FAILED;
		ok[h] = measure_ok_boots(&half[h], SIDE_WITHOUT) + measure_ok_boots(&half[h], SIDE_WITH);
		if (half[h].status != STATUS_MEASURED || ok[h] < half[h].obs.nboots) {
			print_failures(&half[h], true);
			pb_seterr(err, "the A/A check needs every boot ok: %d of %d were (%s)", ok[h],
				  half[h].obs.nboots, h ? "side by side" : "one at a time");
			return RUN_KERNEL_FAILED;
		}
	}
	return RUN_DONE;
}

/* How the metrics of the A/A check came out, counted for its verdict. */
struct parallel_tally {
	int bad;   /* decide verdicts, and differ from one at a time */
	int shown; /* diagnostics that differ: shown, failing nothing */
	int same;  /* the same value in every boot */
	int quiet; /* apart, but within their noise */
};

/* The A/A check's table: each metric one at a time against at once, and
 * why it is wrong when the two disagree beyond the noise. */
static void parallel_check_table(const struct findings *f, const struct verdict_policy *vp,
				 const struct noise_set *serial, const struct noise_set *calibrated,
				 struct parallel_tally *t)
{
	event_say("\n%-15s %-35s %13s %13s %9s  %s\n", "workload", "metric", "one at a time", "at once",
		  "change", "verdict");
	for (int i = 0; i < f->nresults; i++) {
		const struct metric_result *m = &f->results[i];
		const char *wrong = compare_parallel_disagreement(m, serial, calibrated);

		/* a diagnostic decides no verdict in a run: shown when it
		 * differs, it fails nothing */
		bool decides = m->def->kind != METRIC_DIAGNOSTIC;

		if (!decides && !wrong)
			continue;
		t->bad += wrong && decides;
		t->shown += wrong && !decides;
		t->same += !wrong && !m->values_differ;
		t->quiet += !wrong && m->values_differ;
		char resolves[48] = "";

		/* a noisy time's "no change" is only as fine as what it resolves */
		if (m->verdict == VERDICT_NO_CHANGE && m->threshold_pct > vp->gate_pct)
			snprintf(resolves, sizeof(resolves), " > %.1f%%", m->threshold_pct);
		event_say("%-15s %-35s %13.6g %13.6g %8.3f%%  %s%s%s%s%s\n", m->workload, m->def->name, m->median[0],
			  m->median[1], isnan(m->change_pct) ? 0 : m->change_pct, verdict_name(m->verdict),
			  resolves, wrong ? ": " : "", wrong ? wrong : "",
			  wrong && !decides ? " (decides nothing)" : "");
	}
}

enum run_end pipeline_parallel_check(const struct pb_config *cfg, const struct pb_queue *q, char **only,
				     int nonly, int per_side, int guests, pb_err *err)
{
	struct comparison half[2];
	struct observations obs = { 0 };
	struct findings f = { 0 };
	struct verdict_policy vp;
	struct noise_set serial = { 0 }, calibrated = { 0 };
	struct parallel_tally t = { 0 };
	struct pipeline pl;
	double wall[2] = { 0, 0 };
	int *flags[2] = { NULL, NULL }, ok[2];
	enum run_end rc = RUN_FAILED, measured;
	char *why = NULL;

	err->msg[0] = '\0';
	memset(half, 0, sizeof(half));
	pipeline_init(&pl, cfg);
	if (!aa_prepare(&pl, only, nonly, &why))
		goto fail;
	guests = parallel_check_plan(&pl, per_side, guests);
	measured = parallel_check_measure(&pl, q, half, per_side, guests, flags, wall, ok, err);
	if (measured == RUN_FAILED)
		goto fail;
	if (measured != RUN_DONE) {
		rc = measured;
		goto out;
	}
	parallel_check_obs(half, &obs);
	serial = (struct noise_set){ half[0].measured_noise, half[0].nmeasured_noise };
	if (!stage_noise(&pl))
		goto fail;
	calibrated = (struct noise_set){ pl.noise, pl.nnoise };
	if (pl.noise_calibration)
		event_say("perfbot: a metric calibration %lld saw move is not held to one value\n",
			  pl.noise_calibration);
	else
		event_say("perfbot: no calibration under %s: a metric the same in the %d boots one at a "
			  "time is held to that value (perfbot calibrate knows better)\n", accel_kind_name(pl.accel.kind), ok[0]);
	vp = half[0].policy;
	vp.first_look = vp.last_look = ok[0] < ok[1] ? ok[0] : ok[1];
	compare_compute(&vp, &serial, &obs, &f);
	parallel_check_table(&f, &vp, &serial, &calibrated, &t);
	event_say("\nboots: %d one at a time in %.0f s (%.1f s a boot), %d with %d at once in %.0f s "
		  "(%.1f s a boot): %.2fx the boots per hour\n", ok[0], wall[0], wall[0] / ok[0], ok[1],
		  guests, wall[1], wall[1] / ok[1], wall[1] > 0 ? (wall[0] / ok[0]) / (wall[1] / ok[1]) : 0);
	if (t.bad) {
		pb_seterr(err, "the A/A check of %d guests at once failed: %d metric(s) differ from one at a "
			  "time (above)", guests, t.bad);
		rc = RUN_KERNEL_FAILED;
	} else {
		event_say("perfbot: the A/A check of %d guests at once passed: %d metric(s) the same in "
			  "every boot, %d within their noise, %d diagnostic(s) apart, which decide no "
			  "verdict (accel %s)\n", guests, t.same, t.quiet, t.shown, accel_kind_name(half[1].accel.kind));
		rc = RUN_DONE;
	}
	goto out;
fail:
	*err = pl.err;
out:
	free(why);
	free(obs.boots);
	findings_free(&f);
	for (int h = 0; h < 2; h++) {
		free(flags[h]);
		noise_free(half[h].measured_noise, half[h].nmeasured_noise);
		comparison_free(&half[h]);
	}
	pipeline_free(&pl);
	return rc;
}
