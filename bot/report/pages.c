/* The names of the report's pages (pages.h). */
#include "pages.h"

#include <stdlib.h>
#include <string.h>

#include "db-report.h"
#include "html.h"
#include "queue.h"

/* "<kind>-<name>-<hash>": name (n bytes, made safe, at most 40; fallback
 * when it is empty) and the first 8 hex digits of the sha256 of the queue's
 * path as stored, so that pages of two queues of one name stay apart. */
static char *keyed_name(const char *kind, const char *name, size_t n, const char *fallback,
			const char *queue)
{
	const char *q = queue ? queue : "";
	char safe[41], hash[65];

	html_safe_name(safe, sizeof(safe), name, n);
	sha256_buf(q, strlen(q), hash);
	return xasprintf("%s-%s-%.8s", kind, safe[0] ? safe : fallback, hash);
}

/* "queue-<name>-<hash>": where a queue's pages' names start. */
static char *queue_key(const char *queue)
{
	const char *q = queue ? queue : "", *base;
	size_t n = strlen(q);

	while (n > 1 && q[n - 1] == '/')
		n--;
	for (base = q + n; base > q && base[-1] != '/'; base--)
		;
	return keyed_name("queue", base, (size_t)(q + n - base), "q", q);
}

char *report_queue_page(const char *queue)
{
	char *key = queue_key(queue), *page = xasprintf("%s.html", key);

	free(key);
	return page;
}

char *report_patch_page(const char *queue, int number, const char *sha256)
{
	char label[PATCH_LABEL_SIZE], safe[PATCH_LABEL_SIZE], *key, *page;

	patch_label(label, number, sha256);
	html_safe_name(safe, sizeof(safe), label, strlen(label));
	if (number <= 0)
		return xasprintf("patch-%s.html", safe);
	key = queue_key(queue);
	page = xasprintf("%s-%s.html", key, safe);
	free(key);
	return page;
}

char *report_series_page(const char *queue, const char *name)
{
	char *key = keyed_name("series", name, strlen(name), "s", queue), *page;

	page = xasprintf("%s.html", key);
	free(key);
	return page;
}

char *report_page_of(const struct patch_page_row *r)
{
	if (r->kind == KIND_SERIES)
		return report_series_page(r->series_queue, r->series_name);
	return report_patch_page(r->queue, r->number, r->sha256);
}
