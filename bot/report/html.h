/* The report's HTML kit, for its pages (report/ only): what each page is
 * made of, escaped. */
#ifndef PERFBOT_HTML_H
#define PERFBOT_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"
#include "verdict.h"

/* The stylesheet every page carries. */
extern const char html_style[];
/* "<!DOCTYPE html>...<h1>title</h1>": a page's head and heading. */
void html_page_head(pb_str *h, const char *title);
/* The links back to the index (and to queue's page, if not NULL). */
void html_nav(pb_str *h, const char *queue);
/* <tag class="cls">text</tag>, text escaped (cls NULL: none). */
void html_cell(pb_str *h, const char *tag, const char *text, const char *cls);
/* A table row of a key and its value. */
void html_row_kv(pb_str *h, const char *k, const char *v);
/* A link to a page of the report (relative). */
void html_page_link(pb_str *h, const char *page, const char *text);
/* A log's link when it is under report_dir (its path relative), else its
 * path as text. */
void html_log_link(pb_str *h, const char *path, const char *report_dir, const char *label);
/* A queue's name, its directory's or file's. */
const char *html_queue_name(const char *queue);
/* A number in a table cell ("-" for NAN). */
void html_fmt_num(char *buf, size_t n, double v);
/* The class of a verdict's cell. */
const char *html_verdict_class(enum verdict v);
/* in[0..n) made [A-Za-z0-9._-] (others '_'), at most size - 1 bytes. */
void html_safe_name(char *out, size_t size, const char *in, size_t n);
/* n hex digits; a link to the upstream commit of those. */
bool html_is_hex(const char *s, size_t n);
void html_commit_link(pb_str *out, const char *hex, size_t n);

#endif
