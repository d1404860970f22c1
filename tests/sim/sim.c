/* The simulation of sim.h. */
#include "sim.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "util.h"

#define SIM_MAX_METRICS 8
#define SIM_CALIBRATION_BOOTS 8
#define SIM_SPLITS 200

static char sim_binary[] = "sim";
static char *metric_names[SIM_MAX_METRICS] = { "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7" };

/* The simulated workload: nmetrics time metrics, lower is better. */
struct sim_world {
	struct metric_def defs[SIM_MAX_METRICS];
	struct workload wl;
	const struct workload *wlp;
	struct observations obs;
	int cap;
	gsl_rng *rng;
	struct verdict_policy vp;
	struct noise_floor *nf;
	int nnf;
};

static void world_init(struct sim_world *w, const struct sim_regime *g,
		       const struct sim_schedule *s, unsigned long seed)
{
	memset(w, 0, sizeof(*w));
	for (int k = 0; k < g->nmetrics && k < SIM_MAX_METRICS; k++)
		w->defs[k] = (struct metric_def){ .name = metric_names[k], .unit = sim_binary,
						  .description = sim_binary, .better = -1,
						  .kind = METRIC_TIME };
	w->wl.name = w->wl.binary = sim_binary;
	w->wl.metrics = w->defs;
	w->wl.nmetrics = g->nmetrics < SIM_MAX_METRICS ? g->nmetrics : SIM_MAX_METRICS;
	w->wlp = &w->wl;
	w->obs.workloads = &w->wlp;
	w->obs.nworkloads = 1;
	w->obs.iterations = g->iterations;
	w->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(w->rng, seed);
	verdict_policy_set(&w->vp, g->gate_pct, s->alpha, s->beta, s->first_look, s->last_look);
}

static void clear_boots(struct sim_world *w)
{
	for (int b = 0; b < w->obs.nboots; b++)
		free(w->obs.boots[b].rec.results.samples);
	w->obs.nboots = 0;
}

static void world_free(struct sim_world *w)
{
	clear_boots(w);
	free(w->obs.boots);
	if (w->nf)
		noise_free(w->nf, w->nnf);
	gsl_rng_free(w->rng);
}

/* One boot of side s in a round whose drift is drift. */
static void add_boot(struct sim_world *w, const struct sim_regime *g, enum side s, double effect,
		     double drift)
{
	struct boot *bt;
	int n = g->iterations * w->wl.nmetrics, at = 0;

	if (w->obs.nboots == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 32;
		w->obs.boots = xrealloc(w->obs.boots, sizeof(*w->obs.boots) * (size_t)w->cap);
	}
	bt = &w->obs.boots[w->obs.nboots++];
	memset(bt, 0, sizeof(*bt));
	bt->side = s;
	bt->rec.outcome = BOOT_OK;
	bt->rec.results.samples = xcalloc((size_t)n, sizeof(struct result_sample));
	bt->rec.results.nsamples = n;
	for (int k = 0; k < w->wl.nmetrics; k++) {
		double level = drift + gsl_ran_gaussian(w->rng, g->between_cv);

		if (s == SIDE_WITH && k == 0)
			level += log1p(effect);
		for (int i = 0; i < g->iterations; i++) {
			struct result_sample *rs = &bt->rec.results.samples[at++];

			rs->workload = sim_binary;
			rs->metric = metric_names[k];
			rs->iteration = i + 1;
			rs->value = 100 * exp(level + gsl_ran_gaussian(w->rng, g->within_cv));
		}
	}
}

/* A round: one boot of each kernel, the same drift. */
static void add_round(struct sim_world *w, const struct sim_regime *g, double effect)
{
	double drift = g->round_cv > 0 ? gsl_ran_gaussian(w->rng, g->round_cv) : 0;

	add_boot(w, g, SIDE_WITHOUT, 0, drift);
	add_boot(w, g, SIDE_WITH, effect, drift);
}

/* A calibration: 8 boots of one kernel, in rounds of two. Its noise floor
 * becomes w's; the boots are left in w->obs for the caller. */
static void calibrate(struct sim_world *w, const struct sim_regime *g)
{
	clear_boots(w);
	for (int r = 0; r < SIM_CALIBRATION_BOOTS / 2; r++)
		add_round(w, g, 0);
	w->obs.rounds = g->rounds; /* as measure_boots boots a calibration */
	if (w->nf)
		noise_free(w->nf, w->nnf);
	w->nf = noise_measure(&w->vp, &w->obs, &w->nnf);
}

static void compute(struct sim_world *w, const struct sim_regime *g, struct findings *f)
{
	struct noise_set ns = { g->calibrated ? w->nf : NULL, g->calibrated ? w->nnf : 0 };

	w->obs.rounds = g->rounds;
	compare_compute(&w->vp, &ns, &w->obs, f);
}

void sim_sequential(const struct sim_regime *g, const struct sim_schedule *s, double effect,
		    int trials, unsigned long seed, struct sim_outcome *out)
{
	struct sim_world w;
	struct findings f = { 0 };

	memset(out, 0, sizeof(*out));
	world_init(&w, g, s, seed);
	for (int t = 0; t < trials; t++) {
		const struct metric_result *m0;
		int rounds = 0, tested;

		if (g->calibrated)
			calibrate(&w, g);
		clear_boots(&w);
		/* measure_boots' rule: the first rounds, then one more while a
		 * metric is open, up to the last look */
		while (rounds < s->first_look)
			add_round(&w, g, effect), rounds++;
		compute(&w, g, &f);
		while (compare_inconclusive(&f) && rounds < s->last_look) {
			add_round(&w, g, effect), rounds++;
			compute(&w, g, &f);
		}
		m0 = &f.results[0];
		out->trials++;
		out->boots += rounds;
		if (effect == 0)
			out->flagged += compare_flagged(&f, &tested) > 0;
		else
			out->flagged += m0->verdict == VERDICT_REGRESSION;
		out->wrong_way += m0->verdict == VERDICT_IMPROVEMENT && effect > 0;
		out->no_change += m0->verdict == VERDICT_NO_CHANGE;
		out->no_change_first += m0->verdict == VERDICT_NO_CHANGE && m0->look == s->first_look;
		if (m0->verdict == VERDICT_NO_CHANGE) {
			out->no_change_gate += !(m0->threshold_pct > g->gate_pct);
			out->threshold_sum += m0->threshold_pct;
		}
		out->inconclusive += m0->verdict == VERDICT_INCONCLUSIVE;
	}
	findings_free(&f);
	world_free(&w);
}

double sim_coverage(const struct sim_regime *g, const struct sim_schedule *s, double effect, int n,
		    int trials, unsigned long seed)
{
	struct sim_schedule one = *s;
	struct sim_world w;
	struct findings f = { 0 };
	int covered = 0;

	one.first_look = one.last_look = n;
	world_init(&w, g, &one, seed);
	for (int t = 0; t < trials; t++) {
		const struct metric_result *m0;

		if (g->calibrated)
			calibrate(&w, g);
		clear_boots(&w);
		for (int r = 0; r < n; r++)
			add_round(&w, g, effect);
		compute(&w, g, &f);
		m0 = &f.results[0];
		covered += m0->ci_lo_pct <= effect * 100 && effect * 100 <= m0->ci_hi_pct;
	}
	findings_free(&f);
	world_free(&w);
	return (double)covered / trials;
}

void sim_calibration(const struct sim_regime *g, const struct sim_schedule *s, int calibrations,
		     unsigned long seed, double *estimated, double *true_rate)
{
	struct sim_regime cal = *g;
	struct sim_world w;
	struct findings f = { 0 };
	long splits = 0, flagged = 0, trials = 0, alarms = 0;

	cal.calibrated = true;
	world_init(&w, &cal, s, seed);
	for (int c = 0; c < calibrations; c++) {
		struct aa_false_alarms fa;
		int tested;

		/* the estimate, from the calibration's own boots */
		calibrate(&w, &cal);
		compare_aa_false_alarms(&w.vp, &w.obs, s->first_look, SIM_SPLITS, seed + (unsigned long)c,
					&fa, NULL);
		splits += fa.splits;
		flagged += fa.flagged;
		/* the truth: later null comparisons judged against that calibration,
		 * at the look the splits stand for (the first) */
		for (int t = 0; t < SIM_SPLITS; t++) {
			clear_boots(&w);
			for (int r = 0; r < s->first_look; r++)
				add_round(&w, &cal, 0);
			compute(&w, &cal, &f);
			alarms += compare_flagged(&f, &tested) > 0;
			trials++;
		}
	}
	*estimated = splits ? (double)flagged / splits : NAN;
	*true_rate = trials ? (double)alarms / trials : NAN;
	findings_free(&f);
	world_free(&w);
}

void sim_wilson(int k, int n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p, c, h;

	if (n <= 0) {
		*lo = *hi = NAN;
		return;
	}
	p = (double)k / n;
	c = (p + z * z / (2.0 * n)) / (1 + z * z / n);
	h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
	*lo = fmax(0, c - h);
	*hi = fmin(1, c + h);
}
