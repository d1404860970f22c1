/* Statistics for comparing two kernels' samples: rank tests, a hierarchical
 * bootstrap over boots then iterations, Holm's correction. GSL supplies the
 * normal distribution and the random numbers; the exact null distributions
 * of the rank tests are computed here because GSL has none.
 *
 * Tests take one value per unit; perfbot passes one value per boot (the
 * median of its iterations), so between-boot noise is never hidden by many
 * iterations of one boot. */
#ifndef PERFBOT_STATS_H
#define PERFBOT_STATS_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>

double stats_median(const double *v, int n); /* copies; NAN when n == 0 */
double stats_mean(const double *v, int n);
double stats_sd(const double *v, int n);     /* sample sd (n - 1); 0 when n < 2 */

/* Mann-Whitney U, two-sided. Exact (the permutation distribution of the
 * rank sum given the ties, mid-ranks) when m + n <= STATS_EXACT_MAX, else the
 * normal approximation with tie correction and continuity correction.
 * *u (if set) gets U of the first sample. p = 1 when either is empty. */
#define STATS_EXACT_MAX 60
double stats_mann_whitney_p(const double *a, int m, const double *b, int n, double *u);

/* Two-sample Kolmogorov-Smirnov, two-sided: the exact permutation
 * probability of D >= d given the ties, for any sizes (a walk over the
 * pooled order, O(m n)). *d (if set) gets the statistic. */
double stats_ks_p(const double *a, int m, const double *b, int n, double *d);

/* The smallest two-sided Mann-Whitney p that m against n units can give:
 * with 2 boots against 2 it is 1/3, so a rank test over boots alone can
 * never decide there. */
double stats_mann_whitney_min_p(int m, int n);

/* Holm's step-down adjustment of n p-values (family-wise error rate). NAN
 * entries are left out of the family and stay NAN. */
void stats_holm(const double *p, int n, double *adjusted);

/* Hodges-Lehmann shift: the median of all b_j - a_i. */
double stats_hodges_lehmann(const double *a, int m, const double *b, int n);

/* One side's samples grouped by boot. */
struct stats_group {
	int nboots;
	const double *const *v;   /* v[boot][i] */
	const int *n;             /* samples per boot */
};

/* The pooled median of a group's samples. */
double stats_group_median(const struct stats_group *g);

/* Percentile bootstrap CI of median(b) / median(a): each replicate draws
 * boots with replacement, then samples with replacement within each drawn
 * boot, on both sides. False when a side is empty or a median is 0. */
bool stats_bootstrap_ratio_ci(const struct stats_group *a, const struct stats_group *b, int reps,
			      double level, gsl_rng *rng, double *lo, double *hi);

#endif
