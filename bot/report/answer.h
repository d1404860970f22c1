/* A stored comparison's answer outside HTML and mail: its summary on the
 * terminal (perfbot run), its JSON (--json), and run --all's table.
 * Rendered from the comparison's view (view.h) alone, as the mail is, so
 * that the terminal, the page, the mail and the JSON say the same; nothing
 * here runs a query. */
#ifndef PERFBOT_ANSWER_H
#define PERFBOT_ANSWER_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"
#include "view.h"

/* A stored comparison as the answer tells it: its view, which the
 * commands hold under this name. */
struct answer {
	struct view view;
};
/* An answer is loaded by view_load(&a->view, ...) (the renderers here
 * run no query); answer_free frees it. */
void answer_free(struct answer *a);

/* The line that says what it found, LKP's way: "the kernel with the patch
 * crashed: kernel BUG at mm/vmscan.c:7562!", "+4.8% regression of
 * thp-anon.fault_ms (and 1 more)", "no change in 9 timing metrics; 1
 * behaviour change: hugetlb-migrate.pages_failed 16 -> 0". Free it. */
char *answer_headline(const struct answer *a);

/* What perfbot run prints once the comparison is stored: "<patch>:" and
 * the headline; the crash with its boot, kernel and console log (once);
 * the metrics that changed or were not decided, at most 100 columns wide
 * (table false: none, the caller printed every metric), with how many of
 * each other verdict were left out; the boots; the command that repeats it. */
void answer_print(const struct answer *a, bool table, FILE *out);

/* The comparison as one JSON object: patch, kernels, accelerator, boots,
 * headline, crash, verdicts, every metric, the command that repeats it. */
void answer_json(const struct answer *a, struct json *j, const char *key);

/* Prints a comparison's table (workload, metric, without, with, change,
 * CI, p, noise, verdict), its verdict and how it was reached: perfbot run
 * --all, from the comparison as it was measured. */
void comparison_print(const struct comparison *cmp, FILE *out);

#endif
