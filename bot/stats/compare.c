/* How a metric gets its verdict.
 *
 * Samples: every iteration of every boot that came out ok, except the first
 * run.warmup iterations of workloads that iterate. The unit of the test is
 * the boot (the median of its iterations), so between-boot noise, the large
 * part in wall-clock modes, is never hidden by many iterations of one boot.
 *
 * Roles (the workload declarations): a time metric decides the timing
 * verdict; a behaviour metric is compared exactly when every boot of each
 * side gave the same values (any difference is a behaviour change); a
 * diagnostic (perf counters) is shown, never decides. A metric whose every
 * value is the same on both sides is "no change" (or "same"): there is
 * nothing to test.
 *
 * The test is sequential: the comparison looks after run.boots boots a
 * side and after each extra round, up to run.max_boots. Look j uses the
 * first j boots of each side, and the first look that decides a metric
 * decides it for good (a later recomputation replays the same looks). At
 * each look:
 *  - a pooled two-sample t test on the logarithms of the boot medians (their
 *    ratio is the change); an A/A calibration's between-boot variance is a
 *    prior estimate that adds its degrees of freedom, and a floor: boots
 *    that happen to agree never claim less noise than it. The t quantile,
 *    not the normal, holds the coverage at 2 or 3 boots a side;
 *  - Holm over every metric tested, at the level the look may spend of
 *    stats.alpha (Lan-DeMets, Pocock-type: stats_look_level), so that
 *    stopping at the first look that decides never raises false alarms;
 *  - flagged (regression or improvement, by the metric's direction) when
 *    p_adj is below that level and the change is at least the gate;
 *  - "no change" when the interval at 1 - 2 beta_j lies inside +-threshold,
 *    beta spent mostly at the first look (stats_look_level_early: the
 *    point of "no change" is to end early, an innocent patch at 2 boots). The threshold is the gate, or, for a metric
 *    too noisy to resolve the gate within run.max_boots, the smallest change
 *    it can resolve there (the report says "no change larger than X%"), so
 *    that a noisy metric gets an answer instead of spinning to the budget;
 *  - else open: more boots may decide it ("inconclusive" when none remain).
 *
 * Behaviour metrics that vary between boots go through the same test, a
 * flag then counting as a behaviour change; one that varied between the
 * boots of an A/A calibration is "flaky" and never a change on its own (a
 * selftest that fails now and then). When a workload's behaviour changed,
 * its times are "not comparable": the kernels did different work. */
#include "compare.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void verdict_policy_init(struct verdict_policy *vp, const struct pb_config *cfg,
			 enum accel_kind accel)
{
	vp->gate_pct = accel == ACCEL_TCG_ICOUNT ? cfg->icount_gate_pct : cfg->gate_pct;
	vp->alpha = cfg->alpha;
	vp->beta = cfg->beta;
	vp->first_look = cfg->boots;
	vp->last_look = cfg->max_boots > cfg->boots ? cfg->max_boots : cfg->boots;
	vp->warmup = cfg->warmup;
	vp->boot_repeats = accel == ACCEL_TCG_ICOUNT;
}

void verdict_policy_set(struct verdict_policy *vp, double gate_pct, double alpha, double beta,
			int first_look, int last_look)
{
	*vp = (struct verdict_policy){ .gate_pct = gate_pct, .alpha = alpha, .beta = beta,
				       .first_look = first_look,
				       .last_look = last_look > first_look ? last_look : first_look,
				       .boot_repeats = true };
}

/* Warm-up: the first iterations of a loop, never once-per-run values
 * (iteration 0) nor workloads that do not iterate. */
bool compare_is_warmup(const struct verdict_policy *vp, const struct workload *wl, int iteration)
{
	return wl->iterates && iteration >= 1 && iteration <= vp->warmup;
}

const struct workload *compare_workload(const struct observations *obs, const char *binary)
{
	for (int w = 0; w < obs->nworkloads; w++)
		if (!strcmp(obs->workloads[w]->binary, binary))
			return obs->workloads[w];
	return NULL;
}

/* What one computation sees: the rules and the boots. */
struct inputs {
	const struct verdict_policy *vp;
	const struct noise_set *noise;
	const struct observations *obs;
};

/* One boot's kept samples of a metric, in iteration order. */
static int boot_samples(const struct verdict_policy *vp, const struct boot *bt,
			const struct workload *wl, const struct metric_def *def, double **out)
{
	int n = 0;

	*out = NULL;
	for (int i = 0; i < bt->rec.results.nsamples; i++) {
		const struct result_sample *s = &bt->rec.results.samples[i];

		if (strcmp(s->workload, wl->binary) || strcmp(s->metric, def->name))
			continue;
		if (compare_is_warmup(vp, wl, s->iteration))
			continue;
		*out = xrealloc(*out, sizeof(double) * (size_t)(n + 1));
		(*out)[n++] = s->value;
	}
	return n;
}

/* One side's samples of one metric, boot by boot. */
struct side_samples {
	double **v;
	int *n;
	double *boot_median;
	int *boot;              /* each one's index in obs->boots (the rounds pair by it) */
	int nboots, total;
	int ran;                /* ok boots that ran the workload (a boot may leave one out) */
};

static void side_collect(const struct verdict_policy *vp, const struct observations *obs, int side,
			 const struct workload *wl, const struct metric_def *def,
			 struct side_samples *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->v = xcalloc((size_t)obs->nboots + 1, sizeof(double *));
	ss->n = xcalloc((size_t)obs->nboots + 1, sizeof(int));
	ss->boot_median = xcalloc((size_t)obs->nboots + 1, sizeof(double));
	ss->boot = xcalloc((size_t)obs->nboots + 1, sizeof(int));
	for (int b = 0; b < obs->nboots; b++) {
		const struct boot *bt = &obs->boots[b];
		double *v;
		int n;

		if ((side >= 0 && (int)bt->side != side) || bt->rec.outcome != BOOT_OK)
			continue;
		ss->ran += results_ran(&bt->rec.results, wl->binary);
		n = boot_samples(vp, bt, wl, def, &v);
		if (!n) {
			free(v);
			continue;
		}
		ss->v[ss->nboots] = v;
		ss->n[ss->nboots] = n;
		ss->boot_median[ss->nboots] = stats_median(v, n);
		ss->boot[ss->nboots] = b;
		ss->nboots++;
		ss->total += n;
	}
}

static void side_free(struct side_samples *ss)
{
	for (int b = 0; b < ss->nboots; b++)
		free(ss->v[b]);
	free(ss->v);
	free(ss->n);
	free(ss->boot_median);
	free(ss->boot);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every sample of a side, sorted. */
static double *side_sorted(const struct side_samples *ss)
{
	double *all = xmalloc(sizeof(double) * (size_t)(ss->total + 1));
	int k = 0;

	for (int b = 0; b < ss->nboots; b++)
		for (int i = 0; i < ss->n[b]; i++)
			all[k++] = ss->v[b][i];
	qsort(all, (size_t)k, sizeof(double), cmp_double);
	return all;
}

/* Boot i of a and boot j of b gave the same values, in any order. */
static bool boots_alike(const struct side_samples *a, int i, const struct side_samples *b, int j)
{
	size_t bytes = sizeof(double) * (size_t)a->n[i];
	double *x, *y;
	bool same;

	if (a->n[i] != b->n[j])
		return false;
	x = xmalloc(bytes + 1);
	y = xmalloc(bytes + 1);
	memcpy(x, a->v[i], bytes);
	memcpy(y, b->v[j], bytes);
	qsort(x, (size_t)a->n[i], sizeof(double), cmp_double);
	qsort(y, (size_t)a->n[i], sizeof(double), cmp_double);
	same = !memcmp(x, y, bytes);
	free(x);
	free(y);
	return same;
}

/* Every boot of the side gave the same values (in any order). */
static bool side_deterministic(const struct side_samples *ss)
{
	for (int b = 1; b < ss->nboots; b++)
		if (!boots_alike(ss, 0, ss, b))
			return false;
	return true;
}

/* Every ok boot of both sides gave the same values: identical, which is
 * never a change, whatever the number of boots each side has (one
 * included, as when the side's other boots failed). */
static bool sides_identical(const struct side_samples *ss)
{
	return ss[0].nboots && ss[1].nboots && side_deterministic(&ss[0]) &&
	       side_deterministic(&ss[1]) && boots_alike(&ss[0], 0, &ss[1], 0);
}

/* A side shows it is deterministic when its boots agree and there are
 * enough of them to say so: two ok boots, or one where a boot repeats
 * itself by construction (tcg-icount: guest time counts instructions, so
 * a boot's results do not depend on the host's timing) or where an A/A
 * calibration of two boots or more found the metric never varied. Under
 * kvm and plain tcg one boot is not enough: a selftest can fail once, and
 * one boot would read that as a change. */
static bool side_shows_deterministic(const struct verdict_policy *vp,
				     const struct side_samples *ss, const struct noise_floor *nf)
{
	if (!side_deterministic(ss))
		return false;
	return ss->nboots >= 2 || vp->boot_repeats || (nf && nf->deterministic && nf->boots >= 2);
}

/* sd of the boot medians over their mean, in percent, pooled over sides. */
static double pooled_between_cv(const struct side_samples *ss, int nsides)
{
	double ss_dev = 0, sum = 0;
	int df = 0, n = 0;

	for (int s = 0; s < nsides; s++) {
		double mean = stats_mean(ss[s].boot_median, ss[s].nboots);

		for (int b = 0; b < ss[s].nboots; b++) {
			ss_dev += pow(ss[s].boot_median[b] - mean, 2);
			sum += ss[s].boot_median[b];
			n++;
		}
		df += ss[s].nboots > 0 ? ss[s].nboots - 1 : 0;
	}
	if (df < 1 || sum == 0)
		return NAN;
	return sqrt(ss_dev / df) / fabs(sum / n) * 100;
}

/* Pooled sd of the iterations within boots over the mean, in percent. */
static double within_cv(const struct side_samples *ss)
{
	double dev = 0, sum = 0;
	int df = 0, n = 0;

	for (int b = 0; b < ss->nboots; b++) {
		double mean = stats_mean(ss->v[b], ss->n[b]);

		for (int i = 0; i < ss->n[b]; i++) {
			dev += pow(ss->v[b][i] - mean, 2);
			sum += ss->v[b][i];
			n++;
		}
		df += ss->n[b] - 1;
	}
	if (df < 1 || sum == 0)
		return NAN;
	return sqrt(dev / df) / fabs(sum / n) * 100;
}

static const struct noise_floor *noise_lookup(const struct noise_set *noise, const char *workload,
					      const char *metric)
{
	for (int i = 0; i < noise->n; i++)
		if (!strcmp(noise->floor[i].workload, workload) && !strcmp(noise->floor[i].metric, metric))
			return &noise->floor[i];
	return NULL;
}

/* Nothing to test: every sample of both sides is the same value. */
static bool all_identical(const struct side_samples *ss)
{
	double v = ss[0].total ? ss[0].v[0][0] : 0;

	for (int s = 0; s < 2; s++)
		for (int b = 0; b < ss[s].nboots; b++)
			for (int i = 0; i < ss[s].n[b]; i++)
				if (ss[s].v[b][i] != v)
					return false;
	return ss[0].total && ss[1].total;
}

/* The prior of the t test's variance, on the log scale: the calibration's
 * between-boot CV, on its boots' degrees of freedom. */
struct prior {
	double var;
	int df;
};

/* One look: the first j boots a side, or the first j rounds (paired). */
struct look {
	int boots;
	struct stats_t t;
	bool ok;                /* the test could be computed */
	bool paired;            /* a one-sample test of the rounds' differences */
	int scale;              /* 1 log, 2 relative to the without side's mean, 0 raw */
	double ref;             /* the without side's mean, for scale 2 */
};

/* The values of the look's test on its scale: x[s][b] from boot medians. */
static int look_scale(const double *const med[2], int j, struct look *l)
{
	bool positive = true;

	for (int s = 0; s < 2; s++)
		for (int b = 0; b < j; b++)
			positive &= med[s][b] > 0;
	l->ref = stats_mean(med[0], j);
	return positive ? 1 : l->ref != 0 ? 2 : 0;
}

static double on_scale(const struct look *l, double v)
{
	return l->scale == 1 ? log(v) : l->scale == 2 ? v / fabs(l->ref) : v;
}

/* The rounds of a metric: the boot medians of the two kernels of each
 * round that gave it on both sides, in round order. */
struct rounds {
	double *med[2];
	int n;
};

/* The run's boots never claim less noise than its A/A calibration showed.
 * They may agree more closely by chance, and do so often when a metric is
 * lumpy: when a boot's timings all land on one of a few levels (under
 * tcg-icount KASLR did that, ~0.3-1.2% apart, until guests got nokaslr), a
 * spell of boots on one level reads as no noise at all, and a split of the
 * levels between the sides as a change (a comment-only patch got
 * "improvement" that way). The calibration, with more boots, has seen the
 * levels. */
static void noise_floor_apply(struct look *l, const struct prior *pr)
{
	double se_floor = sqrt(pr->var * (2.0 / l->boots));

	if (pr->df < 1 || !(l->t.se < se_floor))
		return;
	l->t.se = se_floor;
	l->t.p = 2 * gsl_cdf_tdist_Q(fabs(l->t.diff) / l->t.se, l->t.df);
}

static struct look look_compute(const struct side_samples *ss, const struct rounds *rd, int j,
				const struct prior *pr)
{
	struct look l = { .boots = j, .paired = rd != NULL };
	const double *med[2] = { rd ? rd->med[0] : ss[0].boot_median,
				 rd ? rd->med[1] : ss[1].boot_median };
	double x[2][j > 0 ? j : 1];

	l.scale = look_scale(med, j, &l);
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < j; b++)
			x[s][b] = on_scale(&l, med[s][b]);
	if (l.paired) {
		/* the drift of a round lands on both of its boots: it cancels */
		double d[j > 0 ? j : 1];

		for (int b = 0; b < j; b++)
			d[b] = x[1][b] - x[0][b];
		l.ok = stats_t_one_sample(d, j, l.scale ? pr->var : 0, l.scale ? pr->df : 0, &l.t);
		return l;
	}
	/* the calibration's CV is relative: it is no prior on the raw scale */
	l.ok = stats_t_test(x[0], j, x[1], j, l.scale ? pr->var : 0, l.scale ? pr->df : 0, &l.t);
	if (l.ok && l.scale)
		noise_floor_apply(&l, pr);
	return l;
}

/* A difference on the look's scale, as a change in percent. */
static double look_pct(const struct look *l, double d)
{
	return l->scale == 1 ? expm1(d) * 100 : l->scale == 2 ? d * 100 : NAN;
}

#define NULL_PASSES 0.995 /* one side of the 99% a null's estimate stays within */

/* The smallest change the metric can tell from no change within the last
 * look: there, its interval at 1 - 2 beta_last fits inside +-threshold in
 * 99% of null comparisons. The estimate's own spread is a t quantile at the
 * last look's degrees of freedom, not the normal's: at 2 boots a side and
 * no calibration (df 2) the normal's 2.58 would leave 12% of nulls
 * inconclusive at the last look, the t's 9.92 leaves 1%. At least the
 * gate, rounded up to 0.1%. */
static double threshold_pct(const struct verdict_policy *vp, const struct look *l,
			    const struct prior *pr)
{
	int last = vp->last_look;
	int df = (l->paired ? last - 1 : 2 * last - 2) + (l->scale ? pr->df : 0);
	double se_last, beta_last, r;

	if (!l->ok || l->scale == 0)
		return vp->gate_pct;
	/* the standard error the last look will have, from this look's
	 * estimate of the noise (the calibration's prior pooled in, if any):
	 * the same estimate the interval that must fit is made of */
	se_last = l->t.se * sqrt((double)l->boots / last);
	beta_last = stats_look_level_early(vp->beta, last, vp->first_look, last);
	if (beta_last <= 0 || df < 1)
		return vp->gate_pct;
	r = (gsl_cdf_tdist_Pinv(1 - beta_last, df) + gsl_cdf_tdist_Pinv(NULL_PASSES, df)) * se_last;
	r = ceil(look_pct(l, r) * 10 - 1e-9) / 10;
	return r > vp->gate_pct ? r : vp->gate_pct;
}

struct metric_work {
	struct side_samples ss[2];
	struct prior prior;
	struct rounds rounds;    /* the observations come in rounds: the paired test */
	bool paired;
	bool tested, decided;
	bool identical;          /* every ok boot of both sides gave the same values */
	struct look at;          /* the look the result shows */
};

/* Pairing a round's boots pays when the calibration found that a drift
 * both share is most of the noise: what pairing leaves (paired_cv) under
 * 0.7 of the unpaired CV, about half its variance, which is what the
 * paired test's fewer degrees of freedom cost at 2 to 10 rounds (make
 * bench-stats). It takes a calibration of 4 rounds (calibrate.boots' 4)
 * to say so: from 2 or 3, a paired CV under 0.7 of the other is often
 * chance. Without one: unpaired. A schedule of few rounds costs the paired
 * test more: at its last look the interval's t quantile at last - 1
 * degrees of freedom (12.7 at 2 rounds) against the unpaired one's, which
 * the calibration's prior adds to (2.3), so pairing must leave less than
 * their ratio of the noise too. */
#define PAIRING_PAYS 0.7
#define PAIRING_ROUNDS 4
static bool pairing_pays(const struct verdict_policy *vp, const struct noise_floor *nf)
{
	int last = vp->last_look;
	double cost;

	if (!nf || nf->rounds < PAIRING_ROUNDS || isnan(nf->paired_cv_pct) ||
	    isnan(nf->between_cv_pct) || last < 2)
		return false;
	cost = gsl_cdf_tdist_Pinv(0.975, last - 1) /
	       gsl_cdf_tdist_Pinv(0.975, 2 * last - 2 + (nf->boots >= 2 ? nf->boots - 1 : 0));
	return nf->paired_cv_pct < PAIRING_PAYS * nf->between_cv_pct &&
	       nf->paired_cv_pct * cost < nf->between_cv_pct;
}

/* measure_boots' rounds: boots 2r and 2r+1, one of each kernel, paired
 * from the boot medians the sample sets took (sides, or one set of
 * both). A round missing a side (a boot that failed or gave nothing) is
 * left out whole. */
static void collect_rounds(const struct observations *obs, const struct side_samples *sets,
			   int nsets, struct rounds *rd)
{
	double *med = xcalloc((size_t)obs->nboots + 1, sizeof(double));
	bool *has = xcalloc((size_t)obs->nboots + 1, sizeof(bool));

	memset(rd, 0, sizeof(*rd));
	rd->med[0] = xcalloc((size_t)obs->nboots / 2 + 1, sizeof(double));
	rd->med[1] = xcalloc((size_t)obs->nboots / 2 + 1, sizeof(double));
	for (int s = 0; s < nsets; s++)
		for (int k = 0; k < sets[s].nboots; k++) {
			med[sets[s].boot[k]] = sets[s].boot_median[k];
			has[sets[s].boot[k]] = true;
		}
	for (int r = 0; 2 * r + 1 < obs->nboots; r++) {
		const struct boot *a = &obs->boots[2 * r], *b = &obs->boots[2 * r + 1];

		if (a->side == b->side || !has[2 * r] || !has[2 * r + 1])
			continue;
		rd->med[a->side][rd->n] = med[2 * r];
		rd->med[b->side][rd->n] = med[2 * r + 1];
		rd->n++;
	}
	free(med);
	free(has);
}

/* The result's numbers from a look: change, interval, p. */
static void show_look(struct metric_result *m, const struct look *l)
{
	double hw;

	if (!l->ok)
		return;
	hw = stats_t_half_width(&l->t, 0.95);
	m->change_pct = look_pct(l, l->t.diff);
	m->ci_lo_pct = look_pct(l, l->t.diff - hw);
	m->ci_hi_pct = look_pct(l, l->t.diff + hw);
	m->p = l->t.p;
}

static void metric_stats(const struct inputs *in, const struct workload *wl,
			 struct metric_result *m, struct metric_work *w)
{
	const struct noise_floor *nf = noise_lookup(in->noise, wl->binary, m->def->name);
	double *sorted[2];

	for (int s = 0; s < 2; s++) {
		side_collect(in->vp, in->obs, s, wl, m->def, &w->ss[s]);
		m->n[s] = w->ss[s].total;
		m->boots[s] = w->ss[s].nboots;
		sorted[s] = side_sorted(&w->ss[s]);
		m->median[s] = m->n[s] ? stats_median(sorted[s], m->n[s]) : NAN;
	}
	w->identical = sides_identical(w->ss);
	m->values_differ = !w->identical &&
			   (m->n[0] != m->n[1] ||
			    (m->n[0] && memcmp(sorted[0], sorted[1], sizeof(double) * (size_t)m->n[0])));
	free(sorted[0]);
	free(sorted[1]);
	w->paired = in->obs->rounds && pairing_pays(in->vp, nf);
	if (w->paired)
		collect_rounds(in->obs, w->ss, 2, &w->rounds);
	m->deterministic = side_shows_deterministic(in->vp, &w->ss[0], nf) &&
			   side_shows_deterministic(in->vp, &w->ss[1], nf) && (!nf || nf->deterministic);
	m->change_pct = (m->n[0] && m->n[1] && m->median[0] != 0)
				? (m->median[1] - m->median[0]) / fabs(m->median[0]) * 100
				: NAN;
	m->ci_lo_pct = m->ci_hi_pct = m->hl_shift = NAN;
	m->p_mw = m->p_ks = m->p = m->p_adj = NAN;
	m->noise_pct = m->threshold_pct = NAN;
	m->look = 0;
	m->noise_from = NOISE_NONE;
	m->regime = "-";
	if (!m->n[0] || !m->n[1])
		return;
	m->p_mw = stats_mann_whitney_p(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median,
				       m->boots[1], NULL);
	m->p_ks = stats_ks_p(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median, m->boots[1],
			     NULL);
	m->hl_shift = stats_hodges_lehmann(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median,
					   m->boots[1]);
	if (nf && nf->boots >= 2 && !isnan(nf->between_cv_pct)) {
		m->noise_pct = nf->between_cv_pct;
		m->noise_from = NOISE_CALIBRATION;
		w->prior.var = log1p(pow(nf->between_cv_pct / 100, 2));
		w->prior.df = nf->boots - 1;
		/* the paired test uses no prior: the calibration chose it because
		 * its rounds looked alike, so its paired CV is biased low by that
		 * choice; the run's own rounds are an estimate the choice did not see */
		if (w->paired)
			w->prior = (struct prior){ 0, 0 };
	} else {
		m->noise_pct = pooled_between_cv(w->ss, 2);
		m->noise_from = isnan(m->noise_pct) ? NOISE_NONE : NOISE_THIS_RUN;
	}
}

/* The verdicts that need no test. True when m got one. */
static bool judge_untested(const struct inputs *in, struct metric_result *m,
			   const struct metric_work *w)
{
	if (!m->n[0] && !m->n[1]) {
		m->verdict = VERDICT_NO_DATA;
		return true;
	}
	if (!w->ss[0].ran || !w->ss[1].ran) {
		/* the workload ran in no ok boot of one side (its boots failed,
		 * or left it out): nothing to compare, no change */
		m->verdict = VERDICT_NO_DATA;
		m->regime = "not run on one side";
		return true;
	}
	if (!m->n[0] || !m->n[1]) {
		/* e.g. a time per migrated MiB where one kernel migrated nothing */
		m->verdict = m->def->kind == METRIC_DIAGNOSTIC ? VERDICT_DIAGNOSTIC
							       : VERDICT_BEHAVIOUR_CHANGE;
		m->regime = "exact values";
		return true;
	}
	if (m->def->kind == METRIC_DIAGNOSTIC) {
		m->verdict = VERDICT_DIAGNOSTIC;
		m->regime = "shown, never decides";
		return true;
	}
	if (m->def->kind == METRIC_BEHAVIOUR && w->identical) {
		m->verdict = VERDICT_SAME;
		m->regime = "identical values";
		return true;
	}
	if (m->def->kind == METRIC_BEHAVIOUR) {
		const struct noise_floor *nf = noise_lookup(in->noise, m->workload, m->def->name);

		/* a result that already differed between boots of one kernel (a
		 * flaky selftest, say) is no behaviour change on its own */
		if (nf && !nf->deterministic && nf->boots >= 2) {
			m->verdict = m->values_differ ? VERDICT_FLAKY : VERDICT_SAME;
			m->regime = "varied in A/A calibration";
			return true;
		}
		if (m->deterministic) {
			m->verdict = m->values_differ ? VERDICT_BEHAVIOUR_CHANGE : VERDICT_SAME;
			m->regime = "exact values";
			return true;
		}
	}
	if (all_identical(w->ss)) {
		m->verdict = m->def->kind == METRIC_TIME ? VERDICT_NO_CHANGE : VERDICT_SAME;
		m->regime = "identical values";
		m->change_pct = 0;
		m->threshold_pct = in->vp->gate_pct;
		return true;
	}
	return false;
}

/* A decision for m: +1 flagged, 0 no change. */
static void decided(struct metric_result *m, struct metric_work *w, int d)
{
	w->decided = true;
	m->look = w->at.boots;
	if (m->def->kind == METRIC_BEHAVIOUR)
		m->verdict = d > 0 ? VERDICT_BEHAVIOUR_CHANGE : VERDICT_SAME;
	else if (d == 0)
		m->verdict = VERDICT_NO_CHANGE;
	else /* better=lower: a rise is a regression; better=higher: a fall is */
		m->verdict = (w->at.t.diff > 0) == (m->def->better < 0) ? VERDICT_REGRESSION
									: VERDICT_IMPROVEMENT;
}

/* One look's decision for an open metric, at the levels the look spends. */
static void look_decide(const struct verdict_policy *vp, struct metric_result *m,
			struct metric_work *w, double alpha_j, double beta_j)
{
	const struct look *l = &w->at;
	double change = look_pct(l, l->t.diff), hw, lo, hi;
	bool big;

	m->threshold_pct = threshold_pct(vp, l, &w->prior);
	if (!l->ok)
		return;
	big = isnan(change) ? l->t.diff != 0 : fabs(change) >= vp->gate_pct;
	if (!isnan(m->p_adj) && m->p_adj < alpha_j && big) {
		m->regime = l->t.se == 0 ? "exact values" : "t test";
		decided(m, w, 1);
		return;
	}
	if (l->scale == 0 || beta_j <= 0)
		return;
	hw = stats_t_half_width(&l->t, 1 - 2 * beta_j);
	lo = look_pct(l, l->t.diff - hw);
	hi = look_pct(l, l->t.diff + hw);
	if (lo > -m->threshold_pct && hi < m->threshold_pct) {
		m->regime = m->threshold_pct > vp->gate_pct ? "inside what it resolves"
							    : "inside the gate";
		decided(m, w, 0);
	}
}

/* The looks a metric has: boots a side, or complete rounds. */
static int looks_available(const struct metric_result *m, const struct metric_work *w)
{
	if (w->paired)
		return w->rounds.n;
	return m->boots[0] < m->boots[1] ? m->boots[0] : m->boots[1];
}

/* The looks from the first to the present one (the fewest boots a side
 * has), Holm over the tested metrics at each; the first look that decides
 * a metric is its look. */
static void run_looks(const struct verdict_policy *vp, struct metric_result *res,
		      struct metric_work *work, int n)
{
	double *p = xcalloc((size_t)n + 1, sizeof(double)), *adj = xcalloc((size_t)n + 1, sizeof(double));
	int present = -1, first;

	for (int i = 0; i < n; i++)
		if (work[i].tested) {
			int k = looks_available(&res[i], &work[i]);

			present = present < 0 || k > present ? k : present;
		}
	/* the looks are the policy's, first_look to last_look, whatever boots
	 * failed: a look taken early would vanish at the next recomputation,
	 * and what it spent with it (fewer boots: open, another round) */
	first = vp->first_look < 1 ? 1 : vp->first_look;
	for (int j = first; j <= present; j++) {
		/* a look past the last spends nothing: the budget is spent */
		double alpha_j = stats_look_level(vp->alpha, j, first, vp->last_look);
		double beta_j = stats_look_level_early(vp->beta, j, first, vp->last_look);

		for (int i = 0; i < n; i++) {
			bool avail = work[i].tested && looks_available(&res[i], &work[i]) >= j;
			bool here = avail && !work[i].decided;
			struct look l = { 0 };

			if (avail)
				l = look_compute(work[i].ss, work[i].paired ? &work[i].rounds : NULL, j,
						 &work[i].prior);
			p[i] = l.ok ? l.t.p : NAN;
			if (here)
				work[i].at = l;
		}
		stats_holm(p, n, adj);
		for (int i = 0; i < n; i++)
			if (work[i].tested && !work[i].decided && work[i].at.boots == j) {
				res[i].p_adj = adj[i];
				show_look(&res[i], &work[i].at);
				look_decide(vp, &res[i], &work[i], alpha_j, beta_j);
			}
	}
	for (int i = 0; i < n; i++)
		if (work[i].tested && !work[i].decided) {
			res[i].verdict = VERDICT_INCONCLUSIVE;
			res[i].regime = "too few boots or too noisy";
		}
	free(p);
	free(adj);
}
/* A kernel that does different work is not faster or slower: when any
 * behaviour metric of a workload changed, its times are not compared. */
static void mark_incomparable_times(struct metric_result *m, int n)
{
	bool changed = false;

	for (int i = 0; i < n; i++)
		changed |= m[i].def->kind == METRIC_BEHAVIOUR && m[i].verdict == VERDICT_BEHAVIOUR_CHANGE;
	for (int i = 0; changed && i < n; i++)
		if (m[i].def->kind == METRIC_TIME && m[i].n[0] && m[i].n[1])
			m[i].verdict = VERDICT_NOT_COMPARABLE;
}

static void summarise(struct findings *out)
{
	out->decided = true;
	out->verdict = VERDICT_NO_DATA;
	out->behaviour = VERDICT_SAME;
	for (int i = 0; i < out->nresults; i++) {
		enum verdict v = out->results[i].verdict;

		/* a time metric one kernel did not report at all is a behaviour
		 * change, not a timing verdict */
		if (v == VERDICT_BEHAVIOUR_CHANGE)
			out->behaviour = VERDICT_BEHAVIOUR_CHANGE;
		/* the enum's order is the ranking: the worst timing verdict */
		else if (out->results[i].def->kind == METRIC_TIME && v > out->verdict)
			out->verdict = v;
	}
}

void compare_compute(const struct verdict_policy *vp, const struct noise_set *noise,
		     const struct observations *obs, struct findings *out)
{
	const struct inputs in = { vp, noise, obs };
	struct metric_work *work;
	int cap = 0, at = 0;

	for (int w = 0; w < obs->nworkloads; w++)
		cap += obs->workloads[w]->nmetrics;
	free(out->results);
	out->results = xcalloc((size_t)(cap ? cap : 1), sizeof(*out->results));
	work = xcalloc((size_t)(cap ? cap : 1), sizeof(*work));
	out->nresults = 0;
	for (int w = 0; w < obs->nworkloads; w++) {
		const struct workload *wl = obs->workloads[w];

		for (int k = 0; k < wl->nmetrics; k++) {
			struct metric_result *m = &out->results[out->nresults];
			struct metric_work *mw = &work[out->nresults];

			m->workload = wl->binary;
			m->def = &wl->metrics[k];
			metric_stats(&in, wl, m, mw);
			mw->tested = !judge_untested(&in, m, mw);
			if (m->verdict == VERDICT_DIAGNOSTIC && m->n[0] && m->n[1]) {
				struct look l = look_compute(mw->ss, mw->paired ? &mw->rounds : NULL,
							     looks_available(m, mw), &mw->prior);

				show_look(m, &l);
			}
			out->nresults++;
		}
	}
	/* Holm over every metric that goes through the test: the patch's
	 * verdict is its worst metric's, so the family is the whole comparison. */
	run_looks(vp, out->results, work, out->nresults);
	for (int w = 0; w < obs->nworkloads; w++) {
		mark_incomparable_times(out->results + at, obs->workloads[w]->nmetrics);
		at += obs->workloads[w]->nmetrics;
	}
	summarise(out);
	for (int i = 0; i < out->nresults; i++) {
		side_free(&work[i].ss[0]);
		side_free(&work[i].ss[1]);
		free(work[i].rounds.med[0]);
		free(work[i].rounds.med[1]);
	}
	free(work);
}

int compare_inconclusive(const struct findings *f)
{
	int n = 0;

	for (int i = 0; i < f->nresults; i++)
		n += f->results[i].verdict == VERDICT_INCONCLUSIVE;
	return n;
}

int compare_flagged(const struct findings *f, int *tested)
{
	int flagged = 0;

	*tested = 0;
	for (int i = 0; i < f->nresults; i++) {
		const struct metric_result *m = &f->results[i];

		if (!m->n[0] || !m->n[1])
			continue;
		(*tested)++;
		flagged += verdict_is_notable(m->verdict);
	}
	return flagged;
}

/* What pairing leaves of a calibration's noise: the sd of each round's
 * B - A on the log scale, over sqrt 2 (a boot's share), in percent. */
static void rounds_noise(const struct observations *obs, const struct side_samples *all,
			 struct noise_floor *nf)
{
	struct rounds rd;
	double d[obs->nboots / 2 + 1];
	int n = 0;

	collect_rounds(obs, all, 1, &rd);
	for (int r = 0; r < rd.n; r++)
		if (rd.med[0][r] > 0 && rd.med[1][r] > 0)
			d[n++] = log(rd.med[1][r]) - log(rd.med[0][r]);
	nf->rounds = n == rd.n ? n : 0; /* no logarithm of a 0: not known */
	nf->paired_cv_pct = nf->rounds >= 2 ? stats_sd(d, n) / sqrt(2) * 100 : NAN;
	free(rd.med[0]);
	free(rd.med[1]);
}

struct noise_floor *noise_measure(const struct verdict_policy *vp, const struct observations *obs,
				  int *count)
{
	struct noise_floor *nf;
	int cap = 0, n = 0;

	for (int w = 0; w < obs->nworkloads; w++)
		cap += obs->workloads[w]->nmetrics;
	nf = xcalloc((size_t)(cap ? cap : 1), sizeof(*nf));
	for (int w = 0; w < obs->nworkloads; w++) {
		const struct workload *wl = obs->workloads[w];

		for (int k = 0; k < wl->nmetrics; k++) {
			struct side_samples all;

			side_collect(vp, obs, -1, wl, &wl->metrics[k], &all); /* both sides: one kernel */
			if (all.nboots) {
				nf[n].workload = xstrdup(wl->binary);
				nf[n].metric = xstrdup(wl->metrics[k].name);
				nf[n].boots = all.nboots;
				nf[n].between_cv_pct = pooled_between_cv(&all, 1);
				nf[n].within_cv_pct = within_cv(&all);
				nf[n].deterministic = side_deterministic(&all);
				nf[n].paired_cv_pct = NAN;
				if (obs->rounds)
					rounds_noise(obs, &all, &nf[n]);
				n++;
			}
			side_free(&all);
		}
	}
	*count = n;
	return nf;
}

/* The boots of obs at the given indices, as side s (shallow copies). */
static void pick_boots(const struct observations *obs, const int *idx, int n, int side,
		       struct observations *out)
{
	*out = *obs;
	out->rounds = false; /* a random split has no rounds */
	out->boots = xcalloc((size_t)n + 1, sizeof(*out->boots));
	out->nboots = n;
	for (int i = 0; i < n; i++) {
		out->boots[i] = obs->boots[idx[i]];
		if (side >= 0)
			out->boots[i].side = (enum side)side;
	}
}

/* A partial Fisher-Yates shuffle of v: its first k are a random draw. */
static void draw(gsl_rng *rng, int *v, int n, int k)
{
	for (int i = 0; i < k; i++) {
		int j = i + (int)gsl_rng_uniform_int(rng, (unsigned long)(n - i));
		int t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* The boots of the given rounds, both of each, in round order. */
static void round_boots(const int *round, int n, int *idx)
{
	for (int i = 0; i < n; i++) {
		idx[2 * i] = 2 * round[i];
		idx[2 * i + 1] = 2 * round[i] + 1;
	}
}

void compare_aa_false_alarms(const struct verdict_policy *vp, const struct observations *obs,
			     int per_side, int nsplits, unsigned long seed,
			     struct aa_false_alarms *out, int *flags_by_metric)
{
	int *unit = xcalloc((size_t)obs->nboots + 1, sizeof(int)), nunit = 0;
	int *idx = xcalloc((size_t)obs->nboots + 1, sizeof(int));
	/* boots in rounds are split by rounds, as a run pairs them: a round's
	 * sides A and B stand for without and with */
	bool by_round = obs->rounds;
	int need = by_round ? per_side : 2 * per_side;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	memset(out, 0, sizeof(*out));
	for (int b = 0; !by_round && b < obs->nboots; b++)
		if (obs->boots[b].rec.outcome == BOOT_OK)
			unit[nunit++] = b;
	for (int r = 0; by_round && 2 * r + 1 < obs->nboots; r++)
		if (obs->boots[2 * r].rec.outcome == BOOT_OK &&
		    obs->boots[2 * r + 1].rec.outcome == BOOT_OK &&
		    obs->boots[2 * r].side != obs->boots[2 * r + 1].side)
			unit[nunit++] = r;
	gsl_rng_set(rng, seed ^ 0x5eedUL);
	for (int s = 0; per_side > 0 && nunit >= need && s < nsplits; s++) {
		struct observations split, rest;
		struct noise_floor *nf;
		struct noise_set held = { 0 };
		struct findings f = { 0 };
		int tested, flagged, nnf = 0;

		draw(rng, unit, nunit, need);
		if (by_round) {
			round_boots(unit, per_side, idx);
			pick_boots(obs, idx, 2 * per_side, -1, &split);
			round_boots(unit + per_side, nunit - per_side, idx);
			pick_boots(obs, idx, 2 * (nunit - per_side), -1, &rest);
			split.rounds = rest.rounds = true;
		} else {
			pick_boots(obs, unit, 2 * per_side, -1, &split);
			for (int i = 0; i < 2 * per_side; i++)
				split.boots[i].side = i < per_side ? SIDE_WITHOUT : SIDE_WITH;
			pick_boots(obs, unit + 2 * per_side, nunit - 2 * per_side, -1, &rest);
		}
		nf = rest.nboots >= 2 ? noise_measure(vp, &rest, &nnf) : NULL;
		held.floor = nf;
		held.n = nnf;
		compare_compute(vp, &held, &split, &f);
		flagged = compare_flagged(&f, &tested);
		for (int i = 0; flags_by_metric && i < f.nresults; i++)
			flags_by_metric[i] += verdict_is_notable(f.results[i].verdict);
		out->splits++;
		out->flagged += flagged > 0;
		out->metric_tests += tested;
		out->metric_flags += flagged;
		findings_free(&f);
		if (nf)
			noise_free(nf, nnf);
		free(split.boots);
		free(rest.boots);
	}
	gsl_rng_free(rng);
	free(unit);
	free(idx);
}

const char *compare_parallel_disagreement(const struct metric_result *m, const struct noise_set *serial,
					  const struct noise_set *calibrated)
{
	const struct noise_floor *nf = noise_lookup(serial, m->workload, m->def->name);
	const struct noise_floor *cal = noise_lookup(calibrated, m->workload, m->def->name);

	if (!m->n[0] || !m->n[1])
		return m->n[0] || m->n[1] ? "reported on one side only" : NULL;
	/* A few boots one at a time miss a count that moves by one now and
	 * then (perf's page faults, as the I/O lands a little earlier or
	 * later): a calibration that saw it move knows it is not fixed. */
	if (nf && nf->deterministic && nf->boots >= 2 && !(cal && !cal->deterministic))
		return m->values_differ ? "the same in every boot one at a time, different side by side"
					: NULL;
	if (m->def->kind != METRIC_TIME)
		return NULL;
	if (m->verdict == VERDICT_REGRESSION || m->verdict == VERDICT_IMPROVEMENT)
		return "side by side differs from one at a time beyond its noise";
	if (m->verdict == VERDICT_INCONCLUSIVE)
		return "too few boots to tell (a larger --pool)";
	return NULL;
}

void comparison_compute(struct comparison *cmp)
{
	compare_compute(&cmp->policy, &cmp->noise, &cmp->obs, &cmp->findings);
}

void comparison_subset(const struct comparison *tmpl, const struct boot *const *a, int na,
		    const struct boot *const *b, int nb, struct comparison *out)
{
	*out = *tmpl;
	out->obs.rounds = false; /* boots drawn from pools: no rounds to pair */
	memset(&out->findings, 0, sizeof(out->findings));
	out->obs.boots = xcalloc((size_t)(na + nb + 1), sizeof(*out->obs.boots));
	out->obs.nboots = na + nb;
	for (int i = 0; i < na + nb; i++) {
		out->obs.boots[i] = i < na ? *a[i] : *b[i - na]; /* shallow: the records stay tmpl's */
		out->obs.boots[i].side = i < na ? SIDE_WITHOUT : SIDE_WITH;
	}
	out->boots_per_kernel = na > nb ? na : nb;
	comparison_compute(out);
}

void comparison_subset_free(struct comparison *out)
{
	free(out->obs.boots);
	findings_free(&out->findings);
	memset(out, 0, sizeof(*out));
}
