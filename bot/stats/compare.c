/* How a metric gets its verdict.
 *
 * Samples: every iteration of every boot that came out ok, except the first
 * run.warmup iterations of workloads that iterate. The unit of the tests is
 * the boot (the median of its iterations), so between-boot noise, the large
 * part under plain TCG, is never hidden by many iterations of one boot.
 *
 * Per metric: the change of the pooled medians; a 95% CI of it from a
 * hierarchical bootstrap (boots, then iterations within them); p, the smaller
 * of Mann-Whitney U and Kolmogorov-Smirnov over boot medians (doubled, for
 * the choice of the two), adjusted with Holm over every metric tested in the
 * comparison; the noise floor, the
 * between-boot CV from an A/A calibration (or, without one, from the spread
 * within each side of this run).
 *
 * A change is flagged (regression or improvement, by the metric's direction)
 * when it is at least the gate, its CI excludes zero, and either
 *  - the rank test is significant (p_adj < alpha): enough boots; or
 *  - at least 2 boots a side do not overlap and the change is at least
 *    noise_factor times a noise floor measured on enough boots (4 in a
 *    calibration, or 3 per side here). A rank test over 2 boots against 2
 *    can never go below p = 1/3; under icount, whose boots agree to 0.001%,
 *    this gate is what decides.
 * "no change" needs the whole CI inside the gate; anything else is
 * "inconclusive", which more boots may settle.
 *
 * Behaviour metrics (counters, smaps values, errnos) that were the same in
 * every boot of each side are compared exactly: any difference is a
 * behaviour change. Those that vary between boots go through the test above,
 * a flag then counting as a behaviour change; one that varied between the
 * boots of an A/A calibration is "flaky" and never a change on its own
 * (a selftest that fails now and then). When a workload's behaviour
 * changed, its times are "not comparable": the kernels did different work. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const char *side_name(enum side s)
{
	return s == SIDE_WITH ? "with" : "without";
}

void verdict_policy_init(struct verdict_policy *vp, const struct pb_config *cfg,
			 const char *accel, unsigned long seed)
{
	vp->gate_pct = accel && !strcmp(accel, "tcg-icount") ? cfg->icount_gate_pct : cfg->gate_pct;
	vp->alpha = cfg->alpha;
	vp->noise_factor = cfg->noise_factor;
	vp->bootstrap = cfg->bootstrap;
	vp->warmup = cfg->warmup;
	vp->seed = seed;
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
	int nboots, total;
};

static void side_collect(const struct verdict_policy *vp, const struct observations *obs, int side,
			 const struct workload *wl, const struct metric_def *def,
			 struct side_samples *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->v = xcalloc((size_t)obs->nboots + 1, sizeof(double *));
	ss->n = xcalloc((size_t)obs->nboots + 1, sizeof(int));
	ss->boot_median = xcalloc((size_t)obs->nboots + 1, sizeof(double));
	for (int b = 0; b < obs->nboots; b++) {
		const struct boot *bt = &obs->boots[b];
		double *v;
		int n;

		if ((side >= 0 && (int)bt->side != side) || bt->rec.outcome != BOOT_OK)
			continue;
		n = boot_samples(vp, bt, wl, def, &v);
		if (!n) {
			free(v);
			continue;
		}
		ss->v[ss->nboots] = v;
		ss->n[ss->nboots] = n;
		ss->boot_median[ss->nboots] = stats_median(v, n);
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

/* Every boot of the side gave the same values (in any order). */
static bool side_deterministic(const struct side_samples *ss)
{
	for (int b = 1; b < ss->nboots; b++) {
		double *x, *y;
		bool same;

		if (ss->n[b] != ss->n[0])
			return false;
		x = xmalloc(sizeof(double) * (size_t)ss->n[0]);
		y = xmalloc(sizeof(double) * (size_t)ss->n[0]);
		memcpy(x, ss->v[0], sizeof(double) * (size_t)ss->n[0]);
		memcpy(y, ss->v[b], sizeof(double) * (size_t)ss->n[0]);
		qsort(x, (size_t)ss->n[0], sizeof(double), cmp_double);
		qsort(y, (size_t)ss->n[0], sizeof(double), cmp_double);
		same = !memcmp(x, y, sizeof(double) * (size_t)ss->n[0]);
		free(x);
		free(y);
		if (!same)
			return false;
	}
	return true;
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

/* Each metric its own random stream: results do not depend on the order
 * of the metrics. */
static unsigned long metric_seed(unsigned long seed, const char *w, const char *m)
{
	unsigned long h = 1469598103934665603UL ^ seed;

	for (const char *s = w; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211UL;
	h = (h ^ '/') * 1099511628211UL;
	for (const char *s = m; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211UL;
	return h;
}

/* All boot medians of one side above all of the other's. */
static bool separated(const struct side_samples *ss)
{
	double max0 = -INFINITY, min0 = INFINITY, max1 = -INFINITY, min1 = INFINITY;

	if (!ss[0].nboots || !ss[1].nboots)
		return false;
	for (int b = 0; b < ss[0].nboots; b++)
		max0 = fmax(max0, ss[0].boot_median[b]), min0 = fmin(min0, ss[0].boot_median[b]);
	for (int b = 0; b < ss[1].nboots; b++)
		max1 = fmax(max1, ss[1].boot_median[b]), min1 = fmin(min1, ss[1].boot_median[b]);
	return min1 > max0 || max1 < min0;
}

/* Noise floor reliable enough for the gate to decide on its own. */
#define NOISE_BOOTS_CALIBRATED 4
#define NOISE_BOOTS_PER_SIDE 3

struct metric_work {
	struct side_samples ss[2];
	bool separated, noise_reliable, tested;
};

static void metric_stats(const struct inputs *in, const struct workload *wl,
			 struct metric_result *m, struct metric_work *w, gsl_rng *rng)
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
	m->values_differ = m->n[0] != m->n[1] ||
			   (m->n[0] && memcmp(sorted[0], sorted[1], sizeof(double) * (size_t)m->n[0]));
	free(sorted[0]);
	free(sorted[1]);
	m->deterministic = side_deterministic(&w->ss[0]) && side_deterministic(&w->ss[1]) &&
			   (!nf || nf->deterministic);
	m->change_pct = (m->n[0] && m->n[1] && m->median[0] != 0)
				? (m->median[1] - m->median[0]) / fabs(m->median[0]) * 100
				: NAN;
	m->ci_lo_pct = m->ci_hi_pct = m->hl_shift = NAN;
	m->p_mw = m->p_ks = m->p = m->p_adj = NAN;
	m->noise_pct = NAN;
	m->noise_from = "-";
	m->regime = "-";
	w->separated = separated(w->ss);
	if (!m->n[0] || !m->n[1])
		return;
	m->p_mw = stats_mann_whitney_p(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median,
				       m->boots[1], NULL);
	m->p_ks = stats_ks_p(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median, m->boots[1],
			     NULL);
	/* the smaller of two tests, doubled (Bonferroni) so that picking the
	 * smaller does not double the false alarms */
	m->p = fmin(1, 2 * fmin(m->p_mw, m->p_ks));
	m->hl_shift = stats_hodges_lehmann(w->ss[0].boot_median, m->boots[0], w->ss[1].boot_median,
					   m->boots[1]);
	/* exact comparison needs no interval (and most metrics are counters) */
	if (!(m->def->kind == METRIC_BEHAVIOUR && m->deterministic)) {
		struct stats_group g[2];
		double lo, hi;

		for (int s = 0; s < 2; s++) {
			g[s].nboots = w->ss[s].nboots;
			g[s].v = (const double *const *)w->ss[s].v;
			g[s].n = w->ss[s].n;
		}
		gsl_rng_set(rng, metric_seed(in->vp->seed, wl->binary, m->def->name));
		if (stats_bootstrap_ratio_ci(&g[0], &g[1], in->vp->bootstrap, 0.95, rng, &lo, &hi)) {
			m->ci_lo_pct = (lo - 1) * 100;
			m->ci_hi_pct = (hi - 1) * 100;
		}
	}
	if (nf && nf->boots >= 2) {
		m->noise_pct = nf->between_cv_pct;
		m->noise_from = "calibration";
		w->noise_reliable = nf->boots >= NOISE_BOOTS_CALIBRATED;
	} else {
		m->noise_pct = pooled_between_cv(w->ss, 2);
		m->noise_from = isnan(m->noise_pct) ? "-" : "this run";
		w->noise_reliable = !isnan(m->noise_pct) && m->boots[0] >= NOISE_BOOTS_PER_SIDE &&
				    m->boots[1] >= NOISE_BOOTS_PER_SIDE;
	}
}

/* The test above for one metric: +1 flagged, 0 no change, -1 inconclusive. */
static int decide(const struct verdict_policy *vp, struct metric_result *m,
		  const struct metric_work *w)
{
	bool big, ci_excludes, rank_ok, gate_ok;

	if (isnan(m->change_pct)) {
		/* a median of 0 on the without side: a ratio means nothing */
		big = m->median[1] != m->median[0];
		ci_excludes = w->separated;
	} else {
		big = fabs(m->change_pct) >= vp->gate_pct;
		ci_excludes = !isnan(m->ci_lo_pct) && (m->ci_lo_pct > 0 || m->ci_hi_pct < 0);
	}
	rank_ok = !isnan(m->p_adj) && m->p_adj < vp->alpha;
	/* "the boots do not overlap" means nothing with one boot a side */
	gate_ok = w->noise_reliable && w->separated && !isnan(m->noise_pct) && m->boots[0] >= 2 &&
		  m->boots[1] >= 2 &&
		  (isnan(m->change_pct) || fabs(m->change_pct) >= vp->noise_factor * m->noise_pct);
	if (big && ci_excludes && (rank_ok || gate_ok)) {
		m->regime = rank_ok ? "rank test" : "gate over noise";
		return 1;
	}
	if (!isnan(m->ci_lo_pct) && m->ci_lo_pct > -vp->gate_pct && m->ci_hi_pct < vp->gate_pct) {
		m->regime = "CI inside gate";
		return 0;
	}
	m->regime = rank_ok ? "rank test" : "too few boots or too noisy";
	return -1;
}

static bool tested(const struct metric_result *m)
{
	return m->n[0] && m->n[1] && (m->def->kind == METRIC_TIME || !m->deterministic);
}

static void judge(const struct inputs *in, struct metric_result *m, const struct metric_work *w)
{
	int d;

	if (!m->n[0] && !m->n[1]) {
		m->verdict = VERDICT_NO_DATA;
		return;
	}
	if (!m->n[0] || !m->n[1]) {
		/* e.g. a time per migrated MiB where one kernel migrated nothing */
		m->verdict = VERDICT_BEHAVIOUR_CHANGE;
		m->regime = "exact values";
		return;
	}
	if (m->def->kind == METRIC_BEHAVIOUR) {
		const struct noise_floor *nf = noise_lookup(in->noise, m->workload, m->def->name);

		/* a result that already differed between boots of one kernel (a
		 * flaky selftest, say) is no behaviour change on its own */
		if (nf && !nf->deterministic && nf->boots >= 2) {
			m->verdict = m->values_differ ? VERDICT_FLAKY : VERDICT_SAME;
			m->regime = "varied in A/A calibration";
			return;
		}
	}
	if (m->def->kind == METRIC_BEHAVIOUR && m->deterministic) {
		m->verdict = m->values_differ ? VERDICT_BEHAVIOUR_CHANGE : VERDICT_SAME;
		m->regime = "exact values";
		return;
	}
	d = decide(in->vp, m, w);
	if (m->def->kind == METRIC_BEHAVIOUR) {
		m->verdict = d > 0 ? VERDICT_BEHAVIOUR_CHANGE : d == 0 ? VERDICT_SAME : VERDICT_INCONCLUSIVE;
		return;
	}
	if (d < 0)
		m->verdict = VERDICT_INCONCLUSIVE;
	else if (d == 0)
		m->verdict = VERDICT_NO_CHANGE;
	else /* better=lower: a rise is a regression; better=higher: a fall is */
		m->verdict = (m->median[1] > m->median[0]) == (m->def->better < 0) ? VERDICT_REGRESSION
										    : VERDICT_IMPROVEMENT;
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
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *p, *adj;
	int cap = 0, at = 0;

	for (int w = 0; w < obs->nworkloads; w++)
		cap += obs->workloads[w]->nmetrics;
	free(out->results);
	out->results = xcalloc((size_t)(cap ? cap : 1), sizeof(*out->results));
	work = xcalloc((size_t)(cap ? cap : 1), sizeof(*work));
	p = xcalloc((size_t)(cap ? cap : 1), sizeof(double));
	adj = xcalloc((size_t)(cap ? cap : 1), sizeof(double));
	out->nresults = 0;
	for (int w = 0; w < obs->nworkloads; w++) {
		const struct workload *wl = obs->workloads[w];

		for (int k = 0; k < wl->nmetrics; k++) {
			struct metric_result *m = &out->results[out->nresults];

			m->workload = wl->binary;
			m->def = &wl->metrics[k];
			metric_stats(&in, wl, m, &work[out->nresults], rng);
			p[out->nresults] = tested(m) ? m->p : NAN;
			out->nresults++;
		}
	}
	/* Holm over every metric that goes through the test: the patch's
	 * verdict is its worst metric's, so the family is the whole comparison. */
	stats_holm(p, out->nresults, adj);
	for (int i = 0; i < out->nresults; i++) {
		out->results[i].p_adj = adj[i];
		judge(&in, &out->results[i], &work[i]);
	}
	for (int w = 0; w < obs->nworkloads; w++) {
		mark_incomparable_times(out->results + at, obs->workloads[w]->nmetrics);
		at += obs->workloads[w]->nmetrics;
	}
	summarise(out);
	for (int i = 0; i < out->nresults; i++) {
		side_free(&work[i].ss[0]);
		side_free(&work[i].ss[1]);
	}
	free(work);
	free(p);
	free(adj);
	gsl_rng_free(rng);
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
				n++;
			}
			side_free(&all);
		}
	}
	*count = n;
	return nf;
}

void noise_free(struct noise_floor *nf, int n)
{
	for (int i = 0; i < n; i++) {
		free(nf[i].workload);
		free(nf[i].metric);
	}
	free(nf);
}

void findings_free(struct findings *f)
{
	free(f->results);
	memset(f, 0, sizeof(*f));
}
