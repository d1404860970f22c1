/* The report's HTML kit (html.h): escaping, links, the pages' head and
 * navigation, table cells. */
#include "report.h"
#include "html.h"

#include "compare.h"
#include "db-report.h"
#include "outcome.h"
#include "plot.h"
#include "queue.h"
#include "stats.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void html_escape(pb_str *out, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&':
			str_add(out, "&amp;");
			break;
		case '<':
			str_add(out, "&lt;");
			break;
		case '>':
			str_add(out, "&gt;");
			break;
		case '"':
			str_add(out, "&quot;");
			break;
		case '\'':
			str_add(out, "&#39;");
			break;
		default:
			str_addn(out, s, 1);
		}
	}
}

/* A name's characters that are safe in a file name and a URL: [A-Za-z0-9._-],
 * '_' for any other; at most size - 1 of them. */
void html_safe_name(char *out, size_t size, const char *in, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < size; i++) {
		char ch = in[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';

		out[k++] = ok ? ch : '_';
	}
	out[k] = 0;
}

void html_cell(pb_str *h, const char *tag, const char *text, const char *cls)
{
	str_addf(h, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(h, text);
	str_addf(h, "</%s>", tag);
}

void html_row_kv(pb_str *h, const char *k, const char *v)
{
	str_add(h, "<tr>");
	html_cell(h, "th", k, NULL);
	html_cell(h, "td", v, NULL);
	str_add(h, "</tr>\n");
}

/* A number as the tables show it: "-" for none (NULL). */
void html_fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* The colour of a verdict's row or tag. */
const char *html_verdict_class(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
		return "bad";
	case VERDICT_BEHAVIOUR_CHANGE:
		return "change";
	case VERDICT_IMPROVEMENT:
		return "good";
	case VERDICT_INCONCLUSIVE:
		return "open";
	default:
		return "same";
	}
}

/* Is the text at s an http(s) URL's start, after a word's end? */
static size_t url_length(const char *text, const char *s)
{
	size_t n, open = 0, close = 0;

	if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '/' || s[-1] == '.'))
		return 0;
	if (starts_with(s, "https://"))
		n = 8;
	else if (starts_with(s, "http://"))
		n = 7;
	else
		return 0;
	if (!isalnum((unsigned char)s[n]) && s[n] != '[')
		return 0;
	/* up to a space, a control or what would end it in HTML or in a mail */
	while (s[n] && (unsigned char)s[n] > ' ' && s[n] != 0x7f && !strchr("<>\"'`{}|\\^", s[n])) {
		open += s[n] == '(';
		close += s[n] == ')';
		n++;
	}
	/* a sentence's full stop, a closing parenthesis the URL did not open */
	while (n > 8 && (strchr(".,;:!?", s[n - 1]) || (s[n - 1] == ')' && close > open))) {
		close -= s[n - 1] == ')';
		n--;
	}
	return n;
}

bool html_is_hex(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") >= n;
}

void html_commit_link(pb_str *out, const char *hex, size_t n)
{
	char h[41];

	snprintf(h, sizeof(h), "%.*s", (int)(n < 40 ? n : 40), hex);
	str_addf(out, "<a href=\"https://git.kernel.org/linus/%s\">%s</a>", h, h);
}

/* A stable patch's upstream line ("commit <sha> upstream.", "[ Upstream
 * commit <sha> ]") at s: the length of what precedes the commit id. */
static size_t upstream_prefix(const char *s)
{
	static const char *const prefix[] = { "commit ", "[ Upstream commit ", "[ upstream commit " };

	for (size_t i = 0; i < PB_ARRAY_SIZE(prefix); i++) {
		size_t n = strlen(prefix[i]);

		if (starts_with(s, prefix[i]) && html_is_hex(s + n, 40) && !isalnum((unsigned char)s[n + 40]) &&
		    (i || starts_with(s + n + 40, " upstream")))
			return n;
	}
	return 0;
}

void html_linkify(pb_str *out, const char *s)
{
	const char *text = s, *plain;

	if (!s)
		return;
	for (plain = s; *s;) {
		size_t n = url_length(text, s), up = s == text || s[-1] == '\n' ? upstream_prefix(s) : 0;
		char *part;

		if (!n && !up) {
			s++;
			continue;
		}
		part = xstrndup(plain, (size_t)(s - plain));
		html_escape(out, part);
		free(part);
		if (up) {
			part = xstrndup(s, up);
			html_escape(out, part);
			free(part);
			html_commit_link(out, s + up, 40);
			s += up + 40;
		} else {
			part = xstrndup(s, n);
			str_add(out, "<a href=\"");
			html_escape(out, part);
			str_add(out, "\">");
			html_escape(out, part);
			str_add(out, "</a>");
			free(part);
			s += n;
		}
		plain = s;
	}
	html_escape(out, plain);
}

/* A link to a page, its text escaped. */
void html_page_link(pb_str *h, const char *page, const char *text)
{
	str_add(h, "<a href=\"");
	html_escape(h, page);
	str_add(h, "\">");
	html_escape(h, text);
	str_add(h, "</a>");
}

/* A queue's name as headings show it: its directory's or file's. */
const char *html_queue_name(const char *queue)
{
	const char *slash = strrchr(queue, '/');

	return slash && slash[1] ? slash + 1 : queue;
}

/* The line under a page's heading: back to the index, and to the page's
 * queue (queue: a queue's path), or to the patches on their own ("": a
 * patch without a series number). */
void html_nav(pb_str *h, const char *queue)
{
	str_add(h, "<p><a href=\"index.html\">All queues</a>");
	if (queue && !queue[0])
		str_add(h, " &middot; <a href=\"index.html#own\">Patches on their own</a>");
	if (queue && queue[0]) {
		char *page = report_queue_page(queue), *what = xasprintf("queue %s", html_queue_name(queue));

		str_add(h, " &middot; ");
		html_page_link(h, page, what);
		free(what);
		free(page);
	}
	str_add(h, "</p>\n");
}

/* A link to a log that sits below the report directory, else its path. */
void html_log_link(pb_str *h, const char *path, const char *report_dir, const char *label)
{
	size_t n = strlen(report_dir);

	if (!strncmp(path, report_dir, n) && path[n] == '/') {
		str_add(h, "<a href=\"");
		html_escape(h, path + n + 1);
		str_add(h, "\">");
		html_escape(h, label);
		str_add(h, "</a>");
	} else {
		html_escape(h, path);
	}
}

const char html_style[] =
	"body{font-family:sans-serif;margin:2em;max-width:80em}"
	"table{border-collapse:collapse;margin:1em 0;font-size:90%}"
	"td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}"
	"td.num{text-align:right;font-family:monospace}"
	".bad{background:#f6c6c6}.good{background:#c8ecc8}.change{background:#fbe3a6}"
	"figure{display:inline-block;margin:.5em}figcaption{font-size:90%;color:#444}"
	".tag{padding:0 .3em;margin:.1em;display:inline-block;border-radius:3px}"
	".same{background:#fff}.open{background:#e4e4f4}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}";


void html_page_head(pb_str *h, const char *title)
{
	str_add(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	html_escape(h, title);
	str_addf(h, "</title><style>%s</style></head><body>\n<h1>", html_style);
	html_escape(h, title);
	str_add(h, "</h1>\n");
}
