/* The comparison's record: computing its findings, printing its table,
 * subsets of its boots, freeing it. */
#include "comparison.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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


void comparison_free(struct comparison *cmp)
{
	kernel_image_free(&cmp->image[0]);
	kernel_image_free(&cmp->image[1]);
	for (int b = 0; b < cmp->obs.nboots; b++)
		boot_record_free(&cmp->obs.boots[b].rec);
	free(cmp->obs.boots);
	findings_free(&cmp->findings);
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

static void fmt_pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%+.2f%%", v);
}

/* Boots of side s: all of them, or only those that ended ok (the
 * statistics see nothing of the others). */
static int boots_of(const struct comparison *cmp, enum side s, bool ok_only)
{
	int n = 0;

	for (int b = 0; b < cmp->obs.nboots; b++)
		n += cmp->obs.boots[b].side == s &&
		     (!ok_only || cmp->obs.boots[b].rec.outcome == BOOT_OK);
	return n;
}

void comparison_print(const struct comparison *cmp, FILE *out)
{
	int tested_n = 0;

	fprintf(out, "\n%-15s %-34s %11s %11s %9s %-19s %7s %7s  %s\n", "workload", "metric",
		side_name(SIDE_WITHOUT), side_name(SIDE_WITH), "change", "95% CI", "p(Holm)", "noise",
		"verdict");
	for (int i = 0; i < cmp->findings.nresults; i++) {
		const struct metric_result *m = &cmp->findings.results[i];
		char a[32], b[32], c[32], lo[24], hi[24], ci[64], pv[16], nz[16], how[48] = "";

		fmt_value(a, sizeof(a), m->n[0], m->median[0]);
		fmt_value(b, sizeof(b), m->n[1], m->median[1]);
		fmt_pct(c, sizeof(c), m->change_pct);
		fmt_pct(lo, sizeof(lo), m->ci_lo_pct);
		fmt_pct(hi, sizeof(hi), m->ci_hi_pct);
		if (isnan(m->ci_lo_pct))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%s,%s]", lo, hi);
		if (isnan(m->p_adj))
			snprintf(pv, sizeof(pv), "-");
		else
			snprintf(pv, sizeof(pv), "%.3g", m->p_adj);
		if (isnan(m->noise_pct))
			snprintf(nz, sizeof(nz), "-");
		else
			snprintf(nz, sizeof(nz), "%.2g%%", m->noise_pct);
		tested_n += !isnan(m->p_adj);
		/* a noisy metric's "no change" is only as fine as what it resolves */
		if (m->verdict == VERDICT_NO_CHANGE && m->threshold_pct > cmp->policy.gate_pct)
			snprintf(how, sizeof(how), " > %.1f%%", m->threshold_pct);
		if (m->look && (m->look < m->boots[0] || m->look < m->boots[1]))
			snprintf(how + strlen(how), sizeof(how) - strlen(how), " (at %d boots)", m->look);
		fprintf(out, "%-15s %-34s %11s %11s %9s %-19s %7s %7s  %s%s%s\n", m->workload,
			m->def->name, a, b, c, ci, pv, nz, verdict_name(m->verdict), how,
			verdict_is_notable(m->verdict) ? "  <==" : "");
	}
	fprintf(out, "\nverdict: %s (timing, worst metric); %s (behaviour)\n", verdict_name(cmp->findings.verdict),
		verdict_name(cmp->findings.behaviour));
	{
		int run[2] = { boots_of(cmp, SIDE_WITHOUT, false), boots_of(cmp, SIDE_WITH, false) };
		int ok[2] = { boots_of(cmp, SIDE_WITHOUT, true), boots_of(cmp, SIDE_WITH, true) };

		/* a failed boot's samples count for nothing: say how many counted */
		if (ok[0] != run[0] || ok[1] != run[1])
			fprintf(out, "boots ok: %d of %d without, %d of %d with; the failed ones' samples "
				     "are left out\n", ok[0], run[0], ok[1], run[1]);
	}
	fprintf(out, "how: %d+%d boots x %d iteration(s) (%d warm-up left out), accel %s, %d at once; a t test on "
		     "log boot medians at each look (%d to %d boots a side),\n"
		     "     Holm over %d metrics, alpha %g spent over the looks (Pocock-type), beta %g mostly at the first; "
		     "gate %g%%; noise: %s\n",
		boots_of(cmp, SIDE_WITHOUT, false), boots_of(cmp, SIDE_WITH, false), cmp->obs.iterations,
		cmp->policy.warmup, cmp->accel.kind != ACCEL_AUTO ? accel_kind_name(cmp->accel.kind) : "-",
		cmp->guests_at_once > 1 ? cmp->guests_at_once : 1, cmp->policy.first_look,
		cmp->policy.last_look, tested_n, cmp->policy.alpha, cmp->policy.beta,
		cmp->policy.gate_pct,
		cmp->noise_calibration ? "a calibration's between-boot CV adds to the t test's variance and is its floor"
				       : "this run's boots alone (no calibration for this accelerator)");
	if (cmp->noise_calibration)
		fprintf(out, "     noise floor: calibration %lld\n", cmp->noise_calibration);
	if (cmp->accel.kind == ACCEL_TCG_ICOUNT)
		fprintf(out, "note: under tcg-icount guest time counts instructions: it measures the work "
			     "a kernel path does, not cache or TLB stalls\n");
}

const struct metric_result *comparison_result(const struct comparison *cmp, const char *workload,
					      const char *metric)
{
	for (int i = 0; i < cmp->findings.nresults; i++) {
		const struct metric_result *m = &cmp->findings.results[i];

		if (!strcmp(m->workload, workload) && !strcmp(m->def->name, metric))
			return m;
	}
	return NULL;
}
