/* The names of the report's pages: pure functions of what a row stores,
 * so that the pages, the mail's link and the JSON's "report_page" agree,
 * and the renderers of a view name a page without report.h. */
#ifndef PERFBOT_PAGES_H
#define PERFBOT_PAGES_H

struct patch_page_row;

/* Where each page is, relative to the report directory. Every page sits
 * in it, so that logs/, plots/ and configs/ are linked alike from each,
 * and nothing of one queue overwrites another's:
 *   queue-<name>-<hash>.html          a queue's page: <name> its directory's
 *                                     or file's name ([A-Za-z0-9._-], at most
 *                                     40), <hash> the first 8 hex digits of
 *                                     the sha256 of its path as stored
 *   queue-<name>-<hash>-<label>.html  a patch of that queue (patch_label: 771)
 *   patch-<sha256, 12 hex>.html       a patch without a series number (a
 *                                     patch file of its own), by its identity
 *   series-<name>-<hash>.html         a series comparison (run --series)
 *                                     of the queue of that <hash>: a
 *                                     queue directory and the review
 *                                     mbox of the same -rc share a name
 * The same queue path always gives the same name: a queue keeps its pages
 * across runs. Free them. */
char *report_queue_page(const char *queue);
char *report_patch_page(const char *queue, int number, const char *sha256);
char *report_series_page(const char *queue, const char *name);
/* r's page: its patch's, or its series'. */
char *report_page_of(const struct patch_page_row *r);

#endif
