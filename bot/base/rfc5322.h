/* RFC 5322 for every layer: the mailboxes of a patch's trailers, a list
 * and config.ini; a header made one line, RFC 2047 encoded where it is not
 * ASCII and folded at 78 columns; a body's text wrapped at 72 columns
 * (characters, not bytes). Strings in, strings out: the mail itself is the
 * report's (mail.h). */
#ifndef PERFBOT_RFC5322_H
#define PERFBOT_RFC5322_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define MAIL_BODY_COLUMNS 72
#define MAIL_HEADER_COLUMNS 78

/* One mailbox: name "" when it has none. */
struct mail_address {
	char *name, *addr;
};
/* The address of a trailer or of a list's entry: "Name <a@b>",
 * "\"Last, First\" <a@b>", "<a@b> # 5.10+", "a@b (comment)". False when it
 * holds none (an ASCII local@domain, without spaces or specials). */
bool mail_address_parse(const char *text, struct mail_address *a);
/* The comma-separated addresses of text (a comma between quotes is part of
 * a name; empty entries are skipped) into *v (NULL: only counted), *n of
 * them; false with err at the first entry that is not an address. */
bool mail_address_list(const char *text, struct mail_address **v, int *n, pb_err *err);
void mail_address_free(struct mail_address *a);
/* Frees each of v's n addresses and v. */
void mail_addresses_free(struct mail_address *v, int n);

/* "Name: value" with value an unstructured text from input (a subject):
 * made one line, its non-ASCII words RFC 2047 encoded, folded before a word
 * that would pass column 78. */
void mail_header(pb_str *out, const char *name, const char *value);
/* text as lines of at most 72 columns (characters, not bytes), the first
 * starting with first, the others with indent; broken at spaces, and a word
 * longer than a line after a '.', '_', '-' or '/' where it has one. */
void mail_wrap(pb_str *out, const char *first, const char *indent, const char *text);

/* A space the header folding must keep: one inside a quoted name. Text
 * from input never holds it: it went through visible() first. */
#define NOFOLD '\x01'
/* "Name:" and the words of value (prepared: spaces are where it may fold,
 * NOFOLD a space it must keep), a line never passing column 78 unless one
 * word does; a word of over 900 bytes is cut (RFC 5322's 998). */
void mail_header_folded(pb_str *out, const char *name, const char *value);
/* The addresses as a header's value: "Name <addr>, addr, ...", names
 * quoted or encoded as they need, folded between addresses. Free it. */
char *mail_address_value(const struct mail_address *v, int n);
/* One address from text that came from input: made one line first, its
 * name cut to 100 characters so that no header line passes 998. */
bool mail_address_from_input(const char *text, struct mail_address *a);
/* The columns n bytes of UTF-8 take (one a character), and the bytes of
 * the first cols characters. */
size_t mail_columns(const char *s, size_t n);
size_t mail_bytes_of_columns(const char *s, size_t n, size_t cols);

#endif
