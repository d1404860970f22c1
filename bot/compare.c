#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *side_name(enum side s)
{
	return s == SIDE_WITH ? "with" : "without";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_of(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Every sample of one metric on one side, from boots that came out ok. */
static int collect(const struct comparison *cmp, enum side side, const char *workload,
		   const char *metric, double **out)
{
	int n = 0;

	*out = NULL;
	for (int b = 0; b < cmp->nboots; b++) {
		const struct boot *bt = &cmp->boots[b];

		if (bt->side != side || bt->rec.outcome != BOOT_OK)
			continue;
		for (int i = 0; i < bt->rec.results.nsamples; i++) {
			const struct result_sample *s = &bt->rec.results.samples[i];

			if (strcmp(s->workload, workload) || strcmp(s->metric, metric))
				continue;
			*out = xrealloc(*out, sizeof(double) * (size_t)(n + 1));
			(*out)[n++] = s->value;
		}
	}
	return n;
}

static void judge(struct metric_result *m)
{
	if (!m->n[0] && !m->n[1]) {
		m->verdict = "no data";
		return;
	}
	if (!m->n[0] || !m->n[1]) {
		/* e.g. a time per migrated MiB where one kernel migrated nothing */
		m->verdict = "behaviour change";
		return;
	}
	if (m->def->kind == METRIC_BEHAVIOUR) {
		m->verdict = m->values_differ ? "behaviour change" : "same";
		return;
	}
	if (isnan(m->change_pct) || fabs(m->change_pct) < CHANGE_GATE_PCT) {
		m->verdict = "no change";
		return;
	}
	/* better=lower: a rise is a regression; better=higher: a fall is. */
	m->verdict = (m->change_pct > 0) == (m->def->better < 0) ? "regression" : "improvement";
}

/* A kernel that does different work is not faster or slower: when any
 * behaviour metric of a workload changed, its times are not compared. */
static void mark_incomparable_times(struct metric_result *m, int n)
{
	bool changed = false;

	for (int i = 0; i < n; i++)
		changed |= m[i].def->kind == METRIC_BEHAVIOUR && !strcmp(m[i].verdict, "behaviour change");
	for (int i = 0; changed && i < n; i++)
		if (m[i].def->kind == METRIC_TIME && m[i].n[0] && m[i].n[1])
			m[i].verdict = "not comparable";
}

void compare_compute(struct comparison *cmp)
{
	int cap = 0;

	for (int w = 0; w < cmp->nworkloads; w++)
		cap += cmp->workloads[w]->nmetrics;
	cmp->results = xcalloc((size_t)(cap ? cap : 1), sizeof(*cmp->results));
	cmp->nresults = 0;
	for (int w = 0; w < cmp->nworkloads; w++) {
		const struct workload *wl = cmp->workloads[w];

		for (int k = 0; k < wl->nmetrics; k++) {
			struct metric_result *m = &cmp->results[cmp->nresults++];
			double *v[2];

			m->workload = wl->binary;
			m->def = &wl->metrics[k];
			for (int s = 0; s < 2; s++) {
				m->n[s] = collect(cmp, (enum side)s, wl->binary, m->def->name, &v[s]);
				m->median[s] = median_of(v[s], m->n[s]); /* sorts */
			}
			m->values_differ = m->n[0] != m->n[1] ||
					   (m->n[0] && memcmp(v[0], v[1], sizeof(double) * (size_t)m->n[0]));
			m->change_pct = (m->n[0] && m->n[1] && m->median[0] != 0)
						? (m->median[1] - m->median[0]) / fabs(m->median[0]) * 100
						: NAN;
			judge(m);
			free(v[0]);
			free(v[1]);
		}
		mark_incomparable_times(cmp->results + cmp->nresults - wl->nmetrics, wl->nmetrics);
	}
}

void comparison_free(struct comparison *cmp)
{
	kernel_image_free(&cmp->image[0]);
	kernel_image_free(&cmp->image[1]);
	for (int b = 0; b < cmp->nboots; b++)
		boot_record_free(&cmp->boots[b].rec);
	free(cmp->boots);
	free(cmp->results);
	free(cmp->workload_choice);
	free(cmp->started_at);
	free(cmp->finished_at);
	memset(cmp, 0, sizeof(*cmp));
}

static void fmt_value(char *buf, size_t n, int count, double v)
{
	if (!count)
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* Verdicts that ask for a reader's attention. */
static bool is_notable(const char *verdict)
{
	return !strcmp(verdict, "regression") || !strcmp(verdict, "improvement") ||
	       !strcmp(verdict, "behaviour change");
}

void compare_print(const struct comparison *cmp, FILE *out)
{
	fprintf(out, "\n%-16s %-30s %12s %12s %9s  %s\n", "workload", "metric", side_name(SIDE_WITHOUT),
		side_name(SIDE_WITH), "change", "verdict");
	for (int i = 0; i < cmp->nresults; i++) {
		const struct metric_result *m = &cmp->results[i];
		char a[32], b[32], c[32];

		fmt_value(a, sizeof(a), m->n[0], m->median[0]);
		fmt_value(b, sizeof(b), m->n[1], m->median[1]);
		if (isnan(m->change_pct))
			snprintf(c, sizeof(c), "-");
		else
			snprintf(c, sizeof(c), "%+.2f%%", m->change_pct);
		fprintf(out, "%-16s %-30s %12s %12s %9s  %s%s\n", m->workload, m->def->name, a, b, c,
			m->verdict, is_notable(m->verdict) ? "  <==" : "");
	}
	fprintf(out, "(medians of the boots that came out ok, of %d per kernel x %d iteration(s); accel %s)\n",
		cmp->boots_per_kernel, cmp->iterations, cmp->accel.name[0] ? cmp->accel.name : "-");
}
