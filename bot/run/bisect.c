/* perfbot bisect (bisect.h): a binary search over a series' prefixes,
 * each step a comparison stored like any other (kind 'bisect'), then the
 * confirmation, then the record (bisects, bisect_steps) and the series'
 * report page again with its bisection log. */
#include "bisect.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "event.h"
#include "pipeline.h"

int bisect_prefix_steps(int k, int n, bool reverse)
{
	return reverse ? n - k : k;
}

int bisect_step_position(int i, int n, bool reverse)
{
	return reverse ? n - i : i + 1;
}

/* A step's outcome. */
enum judged { JUDGED_ERROR = -2, JUDGED_UNDECIDED = -1, JUDGED_GOOD = 0, JUDGED_BAD = 1 };
/* What the confirmation found. */
enum confirmation { CONFIRM_ERROR, CONFIRMED, NOT_REPRODUCED, NOT_ABSENT_BEFORE };

struct bisect {
	const struct pb_config *cfg;
	const struct pb_queue *q;
	const struct presenter *show;
	struct pipeline pl;
	struct run_request rq;
	struct series_target t;
	struct kernel_change applied; /* the series' applied side: n steps */
	bool reverse;                 /* the queue was taken out of the base */
	int n;
	enum verdict want;            /* the change the series showed in the metric */
	bool by_status;               /* the series failed to build or boot: judge that */
	char *choice;                 /* why these workloads */
	struct bisect_record rec;
	double start;
};

/* Prefix k's kernel: the base, or the first steps of applied. */
static void prefix_change(const struct bisect *b, int k, struct kernel_change *c)
{
	int m = bisect_prefix_steps(k, b->n, b->reverse);
	char *label, *summary;
	pb_str s;

	if (!m) {
		kernel_change_set(c, NULL, false, "base");
		return;
	}
	str_init(&s);
	str_addf(&s, "prefix %d of %d:%s", k, b->n, b->reverse ? " the base without" : "");
	for (int i = 0; i < m; i++)
		str_addf(&s, " %03d", b->applied.steps[i].number);
	summary = str_steal(&s);
	label = xasprintf("prefix-%d", k);
	kernel_change_series(c, b->applied.steps, m, label, summary);
	free(label);
	free(summary);
}

static enum comparison_status kernel_status(const struct comparison *cmp)
{
	if (!cmp->image[0].built || !cmp->image[1].built)
		return STATUS_BUILD_FAILED;
	return cmp->status;
}

/* What prefix b showed against prefix a, on the metric alone (or, by
 * status, whether b's kernel failed as the series' did). */
static enum judged verdict_of(const struct bisect *b, const struct comparison *cmp,
			      const char **verdict)
{
	const struct metric_result *m;

	if (b->by_status) {
		*verdict = status_name(kernel_status(cmp));
		/* the good side failed too: this step tells nothing (a failed
		 * build on the bad side boots neither) */
		if (!cmp->image[0].built ||
		    (cmp->image[1].built && measure_ok_boots(cmp, SIDE_WITHOUT) == 0))
			return JUDGED_UNDECIDED;
		return kernel_status(cmp) == b->t.status ? JUDGED_BAD
		       : cmp->status == STATUS_MEASURED ? JUDGED_GOOD
							 : JUDGED_UNDECIDED;
	}
	if (cmp->status != STATUS_MEASURED) {
		*verdict = status_name(kernel_status(cmp));
		return JUDGED_UNDECIDED;
	}
	m = comparison_result(cmp, b->t.workload, b->t.metric);
	*verdict = verdict_name(m ? m->verdict : VERDICT_NO_DATA);
	if (m && m->verdict == b->want)
		return JUDGED_BAD;
	if (m && (m->verdict == VERDICT_NO_CHANGE || m->verdict == VERDICT_SAME))
		return JUDGED_GOOD;
	return JUDGED_UNDECIDED;
}

/* What the bisect looks for: the series' failure, or its metric's change. */
static enum bisect_change bisect_change_of(const struct bisect *b)
{
	if (b->by_status)
		return b->t.status == STATUS_BUILD_FAILED ? CHANGE_BUILD_FAILED : CHANGE_BOOT_FAILED;
	return b->want == VERDICT_REGRESSION	  ? CHANGE_REGRESSION
	       : b->want == VERDICT_IMPROVEMENT ? CHANGE_IMPROVEMENT
						: CHANGE_BEHAVIOUR;
}

/* One step: prefix pa's kernel against prefix pb's, measured and stored. */
static enum judged judge(struct bisect *b, int pa, int pb, enum bisect_role role)
{
	struct comparison cmp = { 0 };
	struct bisect_step *st;
	const char *verdict = "";
	enum judged j;
	char *name;
	bool ok;

	pair_plan_free(&b->pl.pair);
	b->pl.pair.method = PAIR_FORWARD;
	prefix_change(b, pa, &b->pl.pair.without);
	prefix_change(b, pb, &b->pl.pair.with);
	b->pl.pair.detail = xasprintf("bisect of series %s: its prefix %d against its prefix %d (%s)",
				      b->t.name, pa, pb, bisect_role_name(role));
	event_progress("perfbot: bisect step %d (%s): prefix %d against prefix %d\n",
		       b->rec.nsteps + 1, bisect_role_name(role), pa, pb);
	name = xasprintf("bisect-%s-%d-%d-%d", b->t.name, pa, pb, b->rec.nsteps + 1);
	b->pl.start = now_seconds(); /* the step's own wall time */
	ok = pipeline_compare(&b->pl, b->q, &b->rq, &cmp, KIND_BISECT, xstrdup(b->choice), name);
	free(name);
	if (!ok) {
		comparison_free(&cmp);
		return JUDGED_ERROR;
	}
	j = verdict_of(b, &cmp, &verdict);
	b->rec.steps = xrealloc(b->rec.steps, (size_t)(b->rec.nsteps + 1) * sizeof(*b->rec.steps));
	st = &b->rec.steps[b->rec.nsteps++];
	st->role = role;
	st->prefix_a = pa;
	st->prefix_b = pb;
	st->comparison_id = b->pl.cid;
	st->verdict = verdict; /* a static name */
	st->bad = j == JUDGED_BAD;
	st->good = j == JUDGED_GOOD;
	{
		const struct metric_result *m = b->by_status ? NULL
			: comparison_result(&cmp, b->t.workload, b->t.metric);

		event_say("bisect: step %d %-13s prefix %d -> %d  %s%s", b->rec.nsteps, bisect_role_name(role), pa, pb,
			  verdict, m && m->n[0] && m->n[1] ? "" : "\n");
		if (m && m->n[0] && m->n[1])
			event_say(" (%+.2f%%, %d boots a side)  %s\n", m->change_pct, cmp.boots_per_kernel,
				  j == JUDGED_BAD ? "bad" : j == JUDGED_GOOD ? "good" : "undecided");
	}
	comparison_free(&cmp);
	return j;
}

/* Steps that judged prefix b against a bad (or, bad false, good). */
static int steps_with(const struct bisect *b, int pa, int pb, bool bad)
{
	int n = 0;

	for (int i = 0; i < b->rec.nsteps; i++) {
		const struct bisect_step *st = &b->rec.steps[i];

		n += st->prefix_a == pa && st->prefix_b == pb && (bad ? st->bad : st->good);
	}
	return n;
}

/* The first prefix that shows the change, between good lo and bad hi:
 * its position, 0 when a step could not decide, -1 on an error. */
static int search(struct bisect *b)
{
	int lo = 0, hi = b->n;

	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		enum judged j = judge(b, lo, mid, ROLE_SEARCH);

		if (j == JUDGED_UNDECIDED) {
			/* against the bad end instead: no change there puts it before mid */
			j = judge(b, mid, hi, ROLE_SEARCH);
			if (j == JUDGED_BAD)
				j = JUDGED_GOOD;
			else if (j == JUDGED_GOOD)
				j = JUDGED_BAD;
		}
		if (j == JUDGED_ERROR)
			return -1;
		if (j == JUDGED_UNDECIDED)
			return 0;
		if (j == JUDGED_BAD)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* KernelCI's rule: k-1 -> k shows it twice, independently; 0 -> k-1 not. */
static enum confirmation confirm(struct bisect *b, int k)
{
	while (steps_with(b, k - 1, k, true) < 2) {
		enum judged j = judge(b, k - 1, k, ROLE_CONFIRM);

		if (j == JUDGED_ERROR)
			return CONFIRM_ERROR;
		if (j != JUDGED_BAD)
			return NOT_REPRODUCED;
	}
	if (k - 1 > 0 && !steps_with(b, 0, k - 1, false)) {
		enum judged j = judge(b, 0, k - 1, ROLE_ABSENT_BEFORE);

		if (j == JUDGED_ERROR)
			return CONFIRM_ERROR;
		if (j != JUDGED_GOOD)
			return NOT_ABSENT_BEFORE;
	}
	return CONFIRMED;
}

/* The metric, the series comparison and what it showed; false with
 * pl.err when there is nothing to bisect. */
static bool bisect_target(struct bisect *b, const struct bisect_request *rq)
{
	char *w = NULL;
	const char *dot = rq->metric ? strchr(rq->metric, '.') : NULL;
	bool ok;

	if (rq->metric && (!dot || dot == rq->metric || !dot[1])) {
		pb_seterr(&b->pl.err, "bisect: --metric takes workload.metric (e.g. "
			  "thp-anon.fault_always_ms_per_gib), not '%s'", rq->metric);
		return false;
	}
	if (dot)
		w = xstrndup(rq->metric, (size_t)(dot - rq->metric));
	ok = db_series_target(b->pl.db, b->q->dir, rq->series_cid, w, dot ? dot + 1 : NULL, &b->t,
			      &b->pl.err);
	free(w);
	if (!ok)
		return false;
	if (rq->metric && !b->t.change[0]) {
		pb_seterr(&b->pl.err, "bisect: series comparison %lld has no result for %s", b->t.id,
			  rq->metric);
		return false;
	}
	if (b->t.change[0]) {
		if (!verdict_parse(b->t.change, &b->want) ||
		    (b->want != VERDICT_REGRESSION && b->want != VERDICT_IMPROVEMENT &&
		     b->want != VERDICT_BEHAVIOUR_CHANGE)) {
			pb_seterr(&b->pl.err, "bisect: series comparison %lld shows %s for %s.%s: "
				  "no change to bisect", b->t.id, b->t.change, b->t.workload, b->t.metric);
			return false;
		}
		return true;
	}
	if (b->t.status != STATUS_MEASURED) {
		b->by_status = true;
		return true;
	}
	pb_seterr(&b->pl.err, "bisect: series comparison %lld found no regression, behaviour change "
		  "or improvement: nothing to bisect (--metric names one to bisect anyway)", b->t.id);
	return false;
}

bool bisect_find_series(sqlite3 *db, const struct pb_queue *q, const struct bisect_request *rq,
			long long *id, pb_err *err)
{
	struct bisect b = { .q = q };
	bool ok;

	b.pl.db = db;
	ok = bisect_target(&b, rq);
	*id = ok ? b.t.id : 0;
	if (!ok)
		*err = b.pl.err;
	series_target_free(&b.t);
	return ok;
}

/* The series again, as its comparison applied it (the queue may have
 * changed since), and the workload the metric belongs to. */
static bool bisect_prepare(struct bisect *b)
{
	const struct pb_patch **ps = xcalloc((size_t)b->q->npatches + 1, sizeof(*ps));
	const struct pb_patch **mm = xcalloc((size_t)b->q->npatches + 1, sizeof(*mm));
	int np = queue_series_patches(b->q, b->t.mm_only, ps), nmm = queue_series_patches(b->q, true, mm);
	struct workload_set set;
	char *only[1] = { NULL };
	bool ok = false;
	const struct kernel_change *c;

	/* results name a workload by its binary; --workload by its name */
	if (!b->by_status) {
		if (!workloads_load(b->cfg->workloads_dir, &set, &b->pl.err))
			goto out;
		for (int i = 0; i < set.n && !only[0]; i++)
			if (!strcmp(set.w[i].binary, b->t.workload))
				only[0] = xstrdup(set.w[i].name);
		workloads_free(&set);
		if (!only[0]) {
			pb_seterr(&b->pl.err, "bisect: no workload runs %s any more", b->t.workload);
			goto out;
		}
	}
	if (!pipeline_prepare(&b->pl, &(struct prepare){
					      .stages = STAGE_WORKLOADS | STAGE_TREE | STAGE_PAIR,
					      .only = only, .nonly = b->by_status ? 0 : 1, .choose = mm,
					      .nchoose = b->by_status ? nmm : 0, .why = &b->choice,
					      .series = ps, .nseries = np }))
		goto out;
	if (!b->by_status) {
		free(b->choice);
		b->choice = xasprintf("the workload of the bisected metric %s.%s", b->t.workload,
				      b->t.metric);
	}
	c = b->pl.pair.method == PAIR_FORWARD ? &b->pl.pair.with : &b->pl.pair.without;
	if (strcmp(c->sha256, b->t.sha256)) {
		pb_seterr(&b->pl.err, "bisect: the queue is no longer what series comparison %lld "
			  "applied (%s): perfbot run --series measures it again", b->t.id,
			  b->t.patches);
		goto out;
	}
	b->reverse = b->pl.pair.method != PAIR_FORWARD;
	b->n = c->nsteps;
	kernel_change_series(&b->applied, c->steps, c->nsteps, c->label, c->summary);
	ok = stage_selftests(&b->pl) && stage_configure(&b->pl);
out:
	free(only[0]);
	free(ps);
	free(mm);
	return ok;
}

/* The culprit found and confirmed (or not): said, stored, reported. */
static enum run_end bisect_finish(struct bisect *b, int k, enum confirmation confirmed)
{
	const struct pb_patch *p = NULL;
	char *page = NULL;
	long long id = 0;
	pb_str detail;
	enum run_end rc;

	str_init(&detail);
	if (k > 0) {
		int i = b->reverse ? b->n - k : k - 1;

		b->rec.culprit = k;
		b->rec.culprit_number = b->applied.steps[i].number;
		p = queue_find(b->q, b->rec.culprit_number);
	}
	b->rec.status = k > 0 && confirmed == CONFIRMED ? BISECT_CONFIRMED
			: k > 0				   ? BISECT_NOT_CONFIRMED
							   : BISECT_FAILED;
	if (k > 0) {
		char *subject = visible(p ? p->subject : "?");

		str_addf(&detail, "[PATCH %s %d/%d] %s", p ? p->series : "?", b->rec.culprit_number,
			 p ? p->total : 0, subject);
		free(subject);
		if (confirmed != CONFIRMED)
			str_add(&detail, confirmed == NOT_REPRODUCED
						 ? "; the change did not reproduce between its prefixes"
						 : "; the change shows before it too");
	} else {
		str_add(&detail, "a step could not decide: no culprit named");
	}
	b->rec.detail = detail.buf;
	b->rec.finished_at = iso_time_now();
	b->rec.wall_seconds = now_seconds() - b->start;
	if (!db_store_bisect(b->pl.db, &b->rec, &id, &b->pl.err) ||
	    (b->show && b->show->bisect_pages &&
	     !b->show->bisect_pages(b->pl.db, b->q, b->cfg->report_dir, b->t.id, &page, &b->pl.err))) {
		rc = RUN_FAILED;
	} else {
		event_say("perfbot: bisect %lld of series %s (%s%s%s): %s: %s; %d steps, %.0f s; report %s\n",
			  id, b->t.name, b->by_status ? "" : b->t.workload, b->by_status ? "" : ".",
			  b->by_status ? status_name(b->t.status) : b->t.metric,
			  bisect_status_name(b->rec.status), detail.buf,
			  b->rec.nsteps, b->rec.wall_seconds, page);
		rc = b->rec.status == BISECT_CONFIRMED ? RUN_DONE : RUN_KERNEL_FAILED;
	}
	free((char *)b->rec.finished_at);
	free(page);
	str_free(&detail);
	return rc;
}

enum run_end pipeline_bisect(const struct pb_config *cfg, const struct pb_queue *q,
			     const struct bisect_request *rq, pb_err *err)
{
	struct bisect b = { .cfg = cfg, .q = q, .show = rq->show, .start = now_seconds() };
	enum run_end rc = RUN_FAILED;
	enum confirmation confirmed = NOT_REPRODUCED;
	int k;

	err->msg[0] = '\0';
	pipeline_init(&b.pl, cfg);
	if (!path_exists(cfg->db_path)) {
		pb_seterr(err, "no database %s yet: perfbot run --series measures a series first",
			  cfg->db_path);
		goto out;
	}
	if (!stage_open_db(&b.pl, false, NULL) || !bisect_target(&b, rq) || !bisect_prepare(&b))
		goto fail;
	b.rq.focus_workload = b.by_status ? NULL : b.t.workload;
	b.rq.focus_metric = b.by_status ? NULL : b.t.metric;
	b.rec.series_comparison = b.t.id;
	b.rec.workload = b.by_status ? "" : b.t.workload;
	b.rec.metric = b.by_status ? "" : b.t.metric;
	b.rec.change = bisect_change_of(&b);
	b.rec.npatches = b.n;
	b.rec.started_at = iso_time_now();
	event_say("perfbot: bisect of series %s (comparison %lld): %s in %s%s%s over %d prefixes (%s); "
		  "about %d steps\n", b.t.name, b.t.id, bisect_change_name(b.rec.change), b.rec.workload,
		  b.by_status ? "" : ".", b.rec.metric, b.n + 1,
		  b.reverse ? "the queue taken out of the base" : "the -rc on its base",
		  b.n > 1 ? 32 - __builtin_clz((unsigned)b.n - 1) : 1);
	k = search(&b);
	if (k < 0)
		goto fail;
	if (k > 0) {
		confirmed = confirm(&b, k);
		if (confirmed == CONFIRM_ERROR)
			goto fail;
	}
	rc = bisect_finish(&b, k, confirmed);
	if (rc == RUN_FAILED)
		*err = b.pl.err;
	goto out;
fail:
	*err = b.pl.err;
	rc = RUN_FAILED;
out:
	free((char *)b.rec.started_at);
	free(b.rec.steps);
	free(b.choice);
	kernel_change_free(&b.applied);
	series_target_free(&b.t);
	pipeline_free(&b.pl);
	return rc;
}
