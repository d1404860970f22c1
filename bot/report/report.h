/* HTML reports, written from the database. Everything that came from a patch
 * or a guest is escaped. */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <sqlite3.h>

#include "util.h"

/* Appends s to out with & < > " ' escaped. */
void html_escape(pb_str *out, const char *s);
/* html_escape, with each http:// or https:// URL a link to itself (a
 * sentence's full stop, a parenthesis it did not open left out) and each
 * stable patch's upstream line ("commit <sha> upstream.", "[ Upstream
 * commit <sha> ]") linking its commit on git.kernel.org. */
void html_linkify(pb_str *out, const char *s);

struct patch_page_row;
/* How a comparison's verdicts were reached, in a paragraph (the patch
 * page's statistics row, the mail's): the test, alpha, beta, the gate, the
 * looks, the noise, the seed. Free it. */
char *report_statistics(const struct patch_page_row *r);

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

/* The guest kernel's command line of a QEMU command line (the argument
 * of its -append, which runs.qemu_cmdline holds unquoted, up to the next
 * option perfbot gives after it), or NULL. *at and *len: where it is. */
char *report_guest_cmdline(const char *qemu, size_t *at, size_t *len);

/* Writes <report_dir>/<report_page_of()> for one comparison. */
bool report_write_patch(sqlite3 *db, long long comparison_id, const char *report_dir,
			char **written, pb_err *err);

struct pb_queue;
/* reports/index.html: every queue of the database, the one with the
 * newest comparison first, each with its measured patches (their newest
 * comparison's verdict per workload) and its series; then the patches
 * without a series number. And each queue's page: every patch of it, its
 * verdicts or why it was skipped; of q (the queue loaded, may be NULL)
 * what the queue says, of the others what the database holds. */
bool report_write_index(sqlite3 *db, const struct pb_queue *q, const char *report_dir, pb_err *err);

/* reports/trend.html: each time metric of the base kernel across runs. */
bool report_write_trend(sqlite3 *db, const char *report_dir, pb_err *err);

/* Every page: of every patch of every queue and of every series (their
 * newest comparison each), the index and the queues' pages, the trend;
 * *pages gets the number of patch and series pages. */
bool report_write_all(sqlite3 *db, const struct pb_queue *q, const char *report_dir, int *pages,
		      pb_err *err);

#endif
