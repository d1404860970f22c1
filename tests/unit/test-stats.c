/* The statistics against values computed independently, with Debian's
 * python3-scipy 1.10.1 and brute force (tests/unit/stats-reference.py,
 * whose output is quoted beside each value):
 * - scipy.stats.mannwhitneyu(a, b, method='exact') and ks_2samp(a, b,
 *   method='exact') where there are no ties;
 * - with ties, the permutation p-value by enumerating every assignment of
 *   the pooled values to the two sides (itertools.combinations), with the
 *   statistics |U - mn/2| and scipy's D;
 * - the normal approximation against mannwhitneyu(method='asymptotic',
 *   use_continuity=True), which corrects for ties the same way. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats.h"

#define NEAR(x, want, tol) (fabs((x) - (want)) <= (tol))
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void test_rank_tests(void)
{
	double u, d;
	/* no_ties: mw exact U=0 p=0.0158730159; ks exact D=1 p=0.0158730159 */
	double a1[] = { 1.1, 2.3, 0.7, 4.4, 3.9 }, b1[] = { 5.2, 6.1, 4.8, 7.3 };
	/* overlap: mw U=15 p=0.4452214452; ks D=0.2857142857 p=0.8717948718 */
	double a2[] = { 1, 3, 5, 7, 9, 11 }, b2[] = { 2, 4, 6, 8, 10, 12, 14 };
	/* ties: permutation mw p=0.1082251082, ks p=0.1082251082 */
	double a3[] = { 1, 2, 2, 3, 3, 3 }, b3[] = { 2, 3, 4, 4, 5 };
	/* two boots against two, all apart: p=1/3 from both, the floor */
	double a4[] = { 10, 11 }, b4[] = { 12, 13 };
	double same[] = { 5, 5, 5, 5 }, one_a[] = { 1 }, one_b[] = { 2 };

	CHECK(NEAR(stats_mann_whitney_p(a1, N(a1), b1, N(b1), &u), 0.0158730159, 1e-9));
	CHECK(u == 0);
	CHECK(NEAR(stats_mann_whitney_p(b1, N(b1), a1, N(a1), &u), 0.0158730159, 1e-9));
	CHECK(u == 20); /* the other side's U: m n - 0 */
	CHECK(NEAR(stats_ks_p(a1, N(a1), b1, N(b1), &d), 0.0158730159, 1e-9));
	CHECK(d == 1);
	CHECK(NEAR(stats_mann_whitney_p(a2, N(a2), b2, N(b2), &u), 0.4452214452, 1e-9));
	CHECK(u == 15);
	CHECK(NEAR(stats_ks_p(a2, N(a2), b2, N(b2), &d), 0.8717948718, 1e-9));
	CHECK(NEAR(d, 0.2857142857, 1e-9));
	CHECK(NEAR(stats_mann_whitney_p(a3, N(a3), b3, N(b3), NULL), 0.1082251082, 1e-9));
	CHECK(NEAR(stats_ks_p(a3, N(a3), b3, N(b3), NULL), 0.1082251082, 1e-9));
	CHECK(NEAR(stats_mann_whitney_p(a4, 2, b4, 2, NULL), 1.0 / 3, 1e-12));
	CHECK(NEAR(stats_ks_p(a4, 2, b4, 2, NULL), 1.0 / 3, 1e-12));
	CHECK(NEAR(stats_mann_whitney_min_p(2, 2), 1.0 / 3, 1e-12));
	CHECK(NEAR(stats_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-12));
	/* identical samples and single values: nothing to see, p = 1 */
	CHECK(stats_mann_whitney_p(same, 4, same, 4, NULL) == 1);
	CHECK(stats_ks_p(same, 4, same, 4, &d) == 1 && d == 0);
	CHECK(stats_mann_whitney_p(one_a, 1, one_b, 1, NULL) == 1);
	CHECK(stats_ks_p(one_a, 1, one_b, 1, NULL) == 1);
	CHECK(stats_mann_whitney_p(one_a, 0, one_b, 1, NULL) == 1);
}

/* 40 against 35 values with ties (one decimal): above STATS_EXACT_MAX, so
 * the normal approximation: scipy asymptotic U=334 p=0.0001020871. */
static const double big_a[] = { 10.0, 10.3, 9.7, 9.1, 9.5, 9.0, 10.1, 11.3, 9.5, 9.4, 10.5, 10.4, 10.1,
				9.1, 10.0, 10.7, 8.7, 9.5, 8.1, 8.7, 8.2, 9.8, 8.7, 10.3, 10.2, 9.8,
				7.5, 9.5, 10.0, 10.1, 8.5, 9.5, 9.0, 9.2, 11.1, 9.2, 10.0, 10.9, 9.4, 9.9 };
static const double big_b[] = { 10.6, 10.6, 9.3, 10.6, 11.9, 9.0, 11.4, 10.6, 9.9, 12.5, 11.3, 9.3,
				10.6, 11.1, 10.3, 11.2, 10.4, 11.2, 11.9, 9.8, 10.7, 10.0, 10.6, 9.3,
				9.9, 10.3, 11.4, 11.6, 9.2, 9.7, 11.1, 8.5, 10.0, 10.4, 11.8 };
/* 30 against 25 without ties: scipy exact KS D=0.3733333333 p=0.0334689518,
 * exact MW U=268 p=0.0716356907. */
static const double ks_a[] = {
	10.689403900570756, 9.672786579777803,  9.6314241059000416, 9.7498045994820757, 11.523529400456161,
	9.5719750574271334, 9.6963196116352712, 10.352589067285265, 9.8792295549135449, 9.8027157720342775,
	8.8859328568489442, 9.9884785319614515, 9.5564187770255806, 11.166127776190223, 10.653088502701165,
	9.9758563869900669, 10.668381023267344, 9.66013044828685,   11.052126358426946, 9.9946004393283729,
	10.583382354180413, 8.7091067546765135, 10.346680048878429, 8.3117958826334579, 7.9646710550600677,
	9.6955231222885629, 9.1000723924014046, 10.164052795712223, 12.244756626486049, 9.168276818587918
};
static const double ks_b[] = {
	9.9760564135560941, 10.805403946064699, 11.093013291412356, 10.423593934094242, 10.394069669746782,
	11.302462955120545, 11.119907637033897, 9.5663241679263109, 10.520818681384158, 10.635286848661474,
	9.5455153779508883, 10.859839100674362, 9.7420435228234563, 11.572066707917042, 10.792745912605072,
	10.68930648576905,  10.008971647143726, 10.481390176122305, 8.6022537070929452, 9.4685925294769415,
	10.962839799188753, 8.4714329581778554, 11.446608521481163, 8.8539035246260909, 11.356738502664268
};

static void test_large_samples(void)
{
	double u, d;

	CHECK(NEAR(stats_mann_whitney_p(big_a, N(big_a), big_b, N(big_b), &u), 0.0001020871, 1e-9));
	CHECK(u == 334);
	CHECK(NEAR(stats_ks_p(ks_a, N(ks_a), ks_b, N(ks_b), &d), 0.0334689518, 1e-8));
	CHECK(NEAR(d, 0.3733333333, 1e-9));
	CHECK(NEAR(stats_mann_whitney_p(ks_a, N(ks_a), ks_b, N(ks_b), &u), 0.0716356907, 1e-9));
	CHECK(u == 268);
}

static void test_holm_hl(void)
{
	/* sorted .005 .01 .03 .04 times 4 3 2 1 = .02 .03 .06 .04, made
	 * monotone: .02 .03 .06 .06 (Holm 1979, by hand) */
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, adj[5];
	double a1[] = { 1.1, 2.3, 0.7, 4.4, 3.9 }, b1[] = { 5.2, 6.1, 4.8, 7.3 };

	stats_holm(p, 5, adj);
	CHECK(NEAR(adj[0], 0.03, 1e-12) && NEAR(adj[1], 0.06, 1e-12));
	CHECK(NEAR(adj[2], 0.06, 1e-12) && NEAR(adj[3], 0.02, 1e-12));
	CHECK(isnan(adj[4])); /* left out of the family */
	/* numpy.median of the 20 differences b_j - a_i: 3.55 */
	CHECK(NEAR(stats_hodges_lehmann(a1, 5, b1, 4), 3.55, 1e-12));
	CHECK(NEAR(stats_median(b1, 4), 5.65, 1e-12));
	CHECK(isnan(stats_median(b1, 0)));
}

/* References computed by numerical integration of Student's density
 * (tests/unit/stats-reference.py). */
static void test_t(void)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, k[] = { 7, 7 };
	struct stats_t t;

	CHECK(stats_t_test(a, 3, b, 3, 0, 0, &t));
	CHECK(NEAR(t.diff, 3, 1e-12) && t.df == 4 && NEAR(t.se, sqrt(2.0 / 3), 1e-12));
	CHECK(NEAR(t.p, 0.021311641130108527, 1e-9));
	/* a prior of the same variance on 4 degrees of freedom: the same se, df 8 */
	CHECK(stats_t_test(a, 3, b, 3, 1, 4, &t));
	CHECK(t.df == 8 && NEAR(t.se, sqrt(2.0 / 3), 1e-12));
	CHECK(NEAR(t.p, 0.006271062105904542, 1e-9));
	/* the 95% interval at df 8: 2.306004 se */
	CHECK(NEAR(stats_t_half_width(&t, 0.95) / t.se, 2.306004135, 1e-6));
	/* no noise at all: a difference is certain, none is none */
	CHECK(stats_t_test(k, 2, k, 2, 0, 0, &t) && t.p == 1 && t.se == 0);
	{
		double k2[] = { 8, 8 };

		CHECK(stats_t_test(k, 2, k2, 2, 0, 0, &t) && t.p == 0 && t.diff == 1);
	}
	/* one value a side and no prior: nothing to test */
	CHECK(!stats_t_test(a, 1, b, 1, 0, 0, &t) && isnan(t.p));
	CHECK(stats_t_test(a, 1, b, 1, 0.5, 3, &t) && t.df == 3);
	CHECK(!stats_t_test(a, 0, b, 1, 0.5, 3, &t));
	/* the paired test: differences 3, 3.5, 2.5: mean 3, sd 0.5, se 0.5/sqrt 3 */
	{
		double d[] = { 3, 3.5, 2.5 };

		CHECK(stats_t_one_sample(d, 3, 0, 0, &t) && t.df == 2 && NEAR(t.diff, 3, 1e-12));
		CHECK(NEAR(t.se, 0.5 / sqrt(3), 1e-12));
		/* t = 10.392, df 2: two-sided p 0.0091325 (stats-reference.py) */
		CHECK(NEAR(t.p, 0.009132, 2e-5));
		CHECK(!stats_t_one_sample(d, 1, 0, 0, &t));
		/* one difference and a prior: df from the prior alone */
		CHECK(stats_t_one_sample(d, 1, 0.25, 3, &t) && t.df == 3 && NEAR(t.se, 0.5, 1e-12));
	}
}

/* The levels of the looks sum to alpha and never exceed what the
 * spending function allows up to each look. */
static void test_look_levels(void)
{
	double sum = 0, prev = 1;

	for (int j = 2; j <= 10; j++) {
		double l = stats_look_level(0.01, j, 2, 10);

		CHECK(l > 0 && l < prev);
		sum += l;
		CHECK(sum <= 0.01 * log(1 + (M_E - 1) * j / 10.0) + 1e-15);
		prev = j > 2 ? l : 1;
	}
	CHECK(NEAR(sum, 0.01, 1e-12));
	CHECK(NEAR(stats_look_level(0.01, 2, 2, 10), 0.01 * log(1 + (M_E - 1) * 0.2), 1e-15));
	CHECK(stats_look_level(0.01, 11, 2, 10) == 0 && stats_look_level(0.01, 0, 2, 10) == 0);
	CHECK(NEAR(stats_look_level(0.05, 3, 3, 3), 0.05, 1e-15)); /* one look: all of it */
	/* beta's early spending: two thirds at the first of 2..10, the rest after */
	sum = 0;
	for (int j = 2; j <= 10; j++)
		sum += stats_look_level_early(0.05, j, 2, 10);
	CHECK(NEAR(sum, 0.05, 1e-12));
	CHECK(NEAR(stats_look_level_early(0.05, 2, 2, 10), 0.05 * pow(0.2, 0.25), 1e-15));
	CHECK(stats_look_level_early(0.05, 2, 2, 10) > 2 * stats_look_level(0.05, 2, 2, 10));
}

void test_stats(void)
{
	test_rank_tests();
	test_large_samples();
	test_holm_hl();
	test_t();
	test_look_levels();
}
