/* Statistics for comparing two kernels' samples: rank tests, a t test on
 * boot medians, the levels of a sequential test, Holm's correction. GSL
 * supplies the t and normal distributions; the exact null distributions of
 * the rank tests are computed here because GSL has none.
 *
 * Tests take one value per unit; perfbot passes one value per boot (the
 * median of its iterations), so between-boot noise is never hidden by many
 * iterations of one boot. */
#ifndef PERFBOT_STATS_H
#define PERFBOT_STATS_H

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

/* A two-sample t test with a pooled variance, to which a prior estimate
 * (an A/A calibration's, prior_var on prior_df degrees of freedom; 0 and 0
 * for none) adds its degrees of freedom. diff = mean(b) - mean(a). False
 * when there are no degrees of freedom (one value a side, no prior). */
struct stats_t {
	double diff, se, p;  /* p: two-sided; 0 when se is 0 and diff is not */
	int df;
};
bool stats_t_test(const double *a, int m, const double *b, int n, double prior_var, int prior_df,
		  struct stats_t *out);
/* A one-sample t test of mean(d) = 0 (the paired test, d the differences
 * of pairs): diff = mean(d), df = n - 1 + prior_df, the prior as in
 * stats_t_test. False when there are no degrees of freedom. */
bool stats_t_one_sample(const double *d, int n, double prior_var, int prior_df,
			struct stats_t *out);
/* Half the width of the t interval of diff at level (0.95: a 95% interval). */
double stats_t_half_width(const struct stats_t *t, double level);

/* Sequential testing: the error rate a look may spend, of alpha over looks
 * first..last (one look per boot count), by Lan-DeMets' Pocock-type
 * spending function at information fraction look/last. The first look
 * spends everything up to its fraction, each later one the increment, and
 * the levels sum to alpha(first..last) <= alpha: by Bonferroni over the
 * looks, stopping at the first that decides never raises the error rate
 * above alpha. 0 for a look outside first..last. */
double stats_look_level(double alpha, int look, int first, int last);
/* The same with most of alpha spent at the first look (Kim-DeMets' power
 * family, alpha t^(1/4)): for "no change", whose point is to end early. */
double stats_look_level_early(double alpha, int look, int first, int last);

#endif
