/* The record of a comparison: looking a metric up, and freeing it and
 * what it holds (each part where it is declared: boot.h, findings.h,
 * comparison.h). */
#include "comparison.h"

#include <stdlib.h>
#include <string.h>

void results_free(struct boot_results *r)
{
	for (int i = 0; i < r->nsamples; i++) {
		free(r->samples[i].workload);
		free(r->samples[i].metric);
	}
	free(r->samples);
	for (int i = 0; i < r->nworkloads; i++) {
		free(r->workloads[i].name);
		free(r->workloads[i].reason);
	}
	free(r->workloads);
	free(r->setup_failure);
	memset(r, 0, sizeof(*r));
}

void boot_record_free(struct boot_record *br)
{
	free(br->detail);
	free(br->console_log);
	free(br->results_log);
	free(br->qemu_cmdline);
	results_free(&br->results);
	memset(br, 0, sizeof(*br));
}

void kernel_image_free(struct kernel_image *img)
{
	free(img->dir);
	free(img->bzimage);
	free(img->config);
	free(img->log);
	free(img->failure);
	memset(img, 0, sizeof(*img));
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
