#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static double *sorted_copy(const double *v, int n)
{
	double *c = xmalloc(sizeof(double) * (size_t)(n ? n : 1));

	if (n)
		memcpy(c, v, sizeof(double) * (size_t)n);
	gsl_sort(c, 1, (size_t)n);
	return c;
}

double stats_median(const double *v, int n)
{
	double *c, m;

	if (n <= 0)
		return NAN;
	c = sorted_copy(v, n);
	m = gsl_stats_median_from_sorted_data(c, 1, (size_t)n);
	free(c);
	return m;
}

double stats_mean(const double *v, int n)
{
	return n > 0 ? gsl_stats_mean(v, 1, (size_t)n) : NAN;
}

double stats_sd(const double *v, int n)
{
	return n > 1 ? gsl_stats_sd(v, 1, (size_t)n) : 0;
}

/* The pooled sample, sorted, with which side each value came from. */
struct pooled {
	double *v;
	char *from_a;
	int n;
};

static int cmp_pair(const void *x, const void *y)
{
	const double *a = x, *b = y;

	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

static void pool(const double *a, int m, const double *b, int n, struct pooled *p)
{
	double *pairs = xmalloc(sizeof(double) * 2 * (size_t)(m + n));

	for (int i = 0; i < m; i++)
		pairs[2 * i] = a[i], pairs[2 * i + 1] = 1;
	for (int j = 0; j < n; j++)
		pairs[2 * (m + j)] = b[j], pairs[2 * (m + j) + 1] = 0;
	qsort(pairs, (size_t)(m + n), 2 * sizeof(double), cmp_pair);
	p->n = m + n;
	p->v = xmalloc(sizeof(double) * (size_t)p->n);
	p->from_a = xmalloc((size_t)p->n);
	for (int k = 0; k < p->n; k++)
		p->v[k] = pairs[2 * k], p->from_a[k] = pairs[2 * k + 1] != 0;
	free(pairs);
}

static void pooled_free(struct pooled *p)
{
	free(p->v);
	free(p->from_a);
}

/* Twice the mid-rank of every pooled value (integers), and the tie term
 * sum(t^3 - t) over groups of equal values. */
static long *doubled_ranks(const struct pooled *p, double *tie_term)
{
	long *r2 = xmalloc(sizeof(long) * (size_t)(p->n ? p->n : 1));

	*tie_term = 0;
	for (int k = 0; k < p->n;) {
		int e = k;

		while (e + 1 < p->n && p->v[e + 1] == p->v[k])
			e++;
		for (int i = k; i <= e; i++)
			r2[i] = (long)(k + 1) + (long)(e + 1); /* 2 * (k+1 + e+1)/2 */
		*tie_term += pow(e - k + 1, 3) - (e - k + 1);
		k = e + 1;
	}
	return r2;
}

/* P(|W2 - E W2| >= |w - E W2|) for the doubled rank sum W2 of m values
 * drawn without replacement from the doubled ranks r2 (the permutation
 * distribution given the ties): counts of subsets by their sum. */
static double exact_rank_sum_p(const long *r2, int N, int m, long w)
{
	long smax = 0, mean2 = (long)m * (N + 1), dev = labs(w - mean2);
	long double *cnt, total = 0, extreme = 0;

	for (int i = 0; i < N; i++)
		smax += r2[i];
	cnt = xcalloc((size_t)(m + 1) * (size_t)(smax + 1), sizeof(long double));
#define CNT(k, s) cnt[(size_t)(k) * (size_t)(smax + 1) + (size_t)(s)]
	CNT(0, 0) = 1;
	for (int i = 0; i < N; i++)
		for (int k = (i + 1 < m ? i + 1 : m); k >= 1; k--)
			for (long s = smax - r2[i]; s >= 0; s--)
				if (CNT(k - 1, s) != 0)
					CNT(k, s + r2[i]) += CNT(k - 1, s);
	for (long s = 0; s <= smax; s++) {
		total += CNT(m, s);
		if (labs(s - mean2) >= dev)
			extreme += CNT(m, s);
	}
#undef CNT
	free(cnt);
	return (double)(extreme / total);
}

double stats_mann_whitney_p(const double *a, int m, const double *b, int n, double *u)
{
	struct pooled p;
	double tie, p_two;
	long *r2, w2 = 0;

	if (u)
		*u = NAN;
	if (m <= 0 || n <= 0)
		return 1;
	pool(a, m, b, n, &p);
	r2 = doubled_ranks(&p, &tie);
	for (int k = 0; k < p.n; k++)
		if (p.from_a[k])
			w2 += r2[k];
	/* U of a = R_a - m(m+1)/2 */
	double ua = w2 / 2.0 - m * (m + 1) / 2.0;

	if (u)
		*u = ua;
	if (m + n <= STATS_EXACT_MAX) {
		p_two = exact_rank_sum_p(r2, p.n, m, w2);
	} else {
		double N = m + n, mu = m * (double)n / 2;
		double var = m * (double)n / 12 * ((N + 1) - tie / (N * (N - 1)));

		if (var <= 0) {
			p_two = 1;
		} else {
			double z = (fabs(ua - mu) - 0.5) / sqrt(var);

			p_two = z <= 0 ? 1 : 2 * gsl_cdf_ugaussian_Q(z);
		}
	}
	free(r2);
	pooled_free(&p);
	return p_two > 1 ? 1 : p_two;
}

/* |F_a - F_b| at the end of each group of equal values, for i of the first
 * k pooled values from a. */
static double ecdf_gap(int i, int k, int m, int n)
{
	return fabs((double)i / m - (double)(k - i) / n);
}

double stats_ks_p(const double *a, int m, const double *b, int n, double *dout)
{
	struct pooled p;
	double d = 0, *prob, *next, inside;
	int i = 0;

	if (dout)
		*dout = NAN;
	if (m <= 0 || n <= 0)
		return 1;
	pool(a, m, b, n, &p);
	for (int k = 1; k <= p.n; k++) {
		i += p.from_a[k - 1];
		if (k == p.n || p.v[k] != p.v[k - 1])
			d = fmax(d, ecdf_gap(i, k, m, n));
	}
	if (dout)
		*dout = d;
	/* Under the null every assignment of m labels to the pooled order is
	 * equally likely: walk the order, keeping the probability of each count
	 * of a-labels so far, and drop the walks that reach a gap >= d where a
	 * group of equal values ends. What survives is P(D < d). */
	prob = xcalloc((size_t)m + 1, sizeof(double));
	next = xcalloc((size_t)m + 1, sizeof(double));
	prob[0] = 1;
	for (int k = 0; k < p.n; k++) {
		int left = p.n - k;

		memset(next, 0, sizeof(double) * ((size_t)m + 1));
		for (int c = 0; c <= m && c <= k; c++) {
			int b_seen = k - c;

			if (prob[c] == 0)
				continue;
			if (c < m)
				next[c + 1] += prob[c] * (m - c) / left;
			if (b_seen < n)
				next[c] += prob[c] * (double)(n - b_seen) / left;
		}
		memcpy(prob, next, sizeof(double) * ((size_t)m + 1));
		if (k + 1 == p.n || p.v[k + 1] != p.v[k])
			for (int c = 0; c <= m; c++)
				if (ecdf_gap(c, k + 1, m, n) >= d - 1e-12)
					prob[c] = 0;
	}
	inside = 0;
	for (int c = 0; c <= m; c++)
		inside += prob[c];
	free(prob);
	free(next);
	pooled_free(&p);
	return fmin(1, fmax(0, 1 - inside));
}

double stats_mann_whitney_min_p(int m, int n)
{
	double c;

	if (m <= 0 || n <= 0)
		return 1;
	c = exp(lgamma(m + n + 1.0) - lgamma(m + 1.0) - lgamma(n + 1.0)); /* C(m+n, m) */
	return fmin(1, 2 / c);
}

struct indexed_p {
	double p;
	int i;
};

static int cmp_indexed_p(const void *x, const void *y)
{
	const struct indexed_p *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : a->i - b->i;
}

void stats_holm(const double *p, int n, double *adj)
{
	struct indexed_p *s = xmalloc(sizeof(*s) * (size_t)(n ? n : 1));
	int k = 0;
	double run = 0;

	for (int i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			s[k].p = p[i], s[k].i = i, k++;
	}
	qsort(s, (size_t)k, sizeof(*s), cmp_indexed_p);
	for (int j = 0; j < k; j++) {
		double v = fmin(1, (k - j) * s[j].p);

		run = fmax(run, v); /* adjusted p-values never decrease */
		adj[s[j].i] = run;
	}
	free(s);
}

double stats_hodges_lehmann(const double *a, int m, const double *b, int n)
{
	double *d, hl;

	if (m <= 0 || n <= 0)
		return NAN;
	d = xmalloc(sizeof(double) * (size_t)m * (size_t)n);
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			d[(size_t)i * (size_t)n + (size_t)j] = b[j] - a[i];
	hl = stats_median(d, m * n);
	free(d);
	return hl;
}

static int group_size(const struct stats_group *g)
{
	int t = 0;

	for (int b = 0; b < g->nboots; b++)
		t += g->n[b];
	return t;
}

double stats_group_median(const struct stats_group *g)
{
	int t = group_size(g), k = 0;
	double *all, med;

	if (!t)
		return NAN;
	all = xmalloc(sizeof(double) * (size_t)t);
	for (int b = 0; b < g->nboots; b++)
		for (int i = 0; i < g->n[b]; i++)
			all[k++] = g->v[b][i];
	med = stats_median(all, t);
	free(all);
	return med;
}

/* The sum of squared deviations from the mean. */
static double sum_sq(const double *v, int n)
{
	double mean = stats_mean(v, n), ss = 0;

	for (int i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return ss;
}

bool stats_t_test(const double *a, int m, const double *b, int n, double prior_var, int prior_df,
		  struct stats_t *out)
{
	double var;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (m < 1 || n < 1)
		return false;
	if (!(prior_var >= 0) || prior_df < 0)
		prior_var = 0, prior_df = 0;
	out->df = m - 1 + n - 1 + prior_df;
	out->diff = stats_mean(b, n) - stats_mean(a, m);
	if (out->df < 1)
		return false;
	var = (sum_sq(a, m) + sum_sq(b, n) + prior_df * prior_var) / out->df;
	out->se = sqrt(var * (1.0 / m + 1.0 / n));
	if (out->se == 0)
		out->p = out->diff == 0 ? 1 : 0; /* no noise at all: any difference is real */
	else
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->diff) / out->se, out->df);
	return true;
}

bool stats_t_one_sample(const double *d, int n, double prior_var, int prior_df,
			struct stats_t *out)
{
	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (n < 1)
		return false;
	if (!(prior_var >= 0) || prior_df < 0)
		prior_var = 0, prior_df = 0;
	out->diff = stats_mean(d, n);
	out->df = n - 1 + prior_df;
	if (out->df < 1)
		return false;
	out->se = sqrt((sum_sq(d, n) + prior_df * prior_var) / out->df / n);
	if (out->se == 0)
		out->p = out->diff == 0 ? 1 : 0;
	else
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->diff) / out->se, out->df);
	return true;
}

double stats_t_half_width(const struct stats_t *t, double level)
{
	if (t->df < 1)
		return NAN;
	return gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, t->df) * t->se;
}

/* Lan-DeMets' Pocock-type spending function: alpha(t) = alpha ln(1 + (e - 1) t). */
static double pocock_spent(double alpha, double t)
{
	return alpha * log(1 + (M_E - 1) * (t < 0 ? 0 : t > 1 ? 1 : t));
}

/* Kim-DeMets' power family with rho 1/4: alpha t^(1/4), most of it early. */
static double early_spent(double alpha, double t)
{
	return alpha * pow(t < 0 ? 0 : t > 1 ? 1 : t, 0.25);
}

/* What look may spend of what spent() allows by each information fraction
 * look / last: all of it up to the first look, the increment after. */
static double look_level(double (*spent)(double, double), double alpha, int look, int first,
			 int last)
{
	double prev;

	if (last < 1 || look > last || look < 1)
		return 0;
	prev = look <= first ? 0 : spent(alpha, (double)(look - 1) / last);
	return spent(alpha, (double)look / last) - prev;
}

double stats_look_level(double alpha, int look, int first, int last)
{
	return look_level(pocock_spent, alpha, look, first, last);
}

double stats_look_level_early(double alpha, int look, int first, int last)
{
	return look_level(early_spent, alpha, look, first, last);
}
