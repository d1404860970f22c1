/* RFC 5322 for perfbot's mails and its configuration's addresses (see
 * rfc5322.h). */
#include "rfc5322.h"

#include <stdlib.h>
#include <string.h>


/* The columns n bytes of UTF-8 take: one a character. */
size_t mail_columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of the first cols characters of s (n bytes). */
size_t mail_bytes_of_columns(const char *s, size_t n, size_t cols)
{
	size_t i = 0, c = 0;

	for (; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (c == cols)
			break;
		c++;
	}
	return i;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Where a word too long for the room left is cut: after the last '.',
 * '_', '-' or '/' that fits, else where the room ends. */
static size_t cut_word(const char *w, size_t n, size_t room)
{
	size_t max = mail_bytes_of_columns(w, n, room ? room : 1), at = 0;

	for (size_t i = 1; i <= max; i++)
		if (strchr("._-/", w[i - 1]))
			at = i;
	return at ? at : max;
}

void mail_wrap(pb_str *out, const char *first, const char *indent, const char *text)
{
	size_t col = mail_columns(first, strlen(first)), ind = mail_columns(indent, strlen(indent));
	bool empty = true; /* nothing after the line's prefix yet */
	const char *p = text;

	str_add(out, first);
	while (*p) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		while (n) {
			size_t w = mail_columns(p, n), take;

			if (!empty && col + 1 + w > MAIL_BODY_COLUMNS) {
				str_addf(out, "\n%s", indent);
				col = ind;
				empty = true;
			}
			if (!empty) {
				str_add(out, " ");
				col++;
			}
			take = col + w <= MAIL_BODY_COLUMNS ? n : cut_word(p, n, MAIL_BODY_COLUMNS - col);
			str_addn(out, p, take);
			col += mail_columns(p, take);
			empty = false;
			p += take;
			n -= take;
			if (n) { /* the rest of a word longer than a line */
				str_addf(out, "\n%s", indent);
				col = ind;
				empty = true;
			}
		}
	}
	str_add(out, "\n");
}

/* "Name:" and the words of value (prepared: spaces are where it may fold,
 * NOFOLD a space it must keep), a line never passing column 78 unless one
 * word does. A word of over 900 bytes is cut, so that no line passes
 * RFC 5322's 998. */
void mail_header_folded(pb_str *out, const char *name, const char *value)
{
	size_t start = strlen(name) + 1, col = start;

	str_addf(out, "%s:", name);
	for (const char *p = value; *(p += strspn(p, " "));) {
		size_t n = strcspn(p, " "), w;

		if (n > 900)
			n = mail_bytes_of_columns(p, n, 900);
		w = mail_columns(p, n);
		if (col > start && col + 1 + w > MAIL_HEADER_COLUMNS) {
			str_add(out, "\n");
			col = 0;
		}
		str_add(out, " ");
		for (size_t i = 0; i < n; i++)
			str_addn(out, p[i] == NOFOLD ? " " : p + i, 1);
		col += 1 + w;
		p += n;
	}
	str_add(out, "\n");
}

/* The bytes of the UTF-8 character s starts with (visible() text: valid). */
static size_t utf8_char_len(const char *s)
{
	unsigned char c = (unsigned char)*s;
	size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

	for (size_t i = 1; i < n; i++)
		if (!s[i])
			return i;
	return n;
}

/* s as RFC 2047 "Q" encoded words, each at most 66 characters (one fits
 * beside "Subject: " in 78 columns; RFC 2047 allows 75), a character never
 * split between two, spaces between them (the decoder drops those: the
 * text's own spaces are inside, as '_'). Only the characters a phrase
 * allows stay as they are. */
static void add_encoded_words(pb_str *out, const char *s)
{
	size_t len = 0;

	str_add(out, "=?UTF-8?Q?");
	while (*s) {
		size_t n = utf8_char_len(s), e = 0;
		char enc[16];

		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    (c && strchr("!*+-/", c)))
				enc[e++] = (char)c;
			else if (c == ' ')
				enc[e++] = '_';
			else
				e += (size_t)snprintf(enc + e, sizeof(enc) - e, "=%02X", c);
		}
		if (len + e > 66 - 12) {
			str_add(out, "?= =?UTF-8?Q?");
			len = 0;
		}
		str_addn(out, enc, e);
		len += e;
		s += n;
	}
	str_add(out, "?=");
}

/* A word a reader's program would decode or take as non-ASCII. */
static bool word_needs_encoding(const char *w, size_t n)
{
	char *s = xstrndup(w, n);
	bool yes = !is_ascii(s) || strstr(s, "=?");

	free(s);
	return yes;
}

void mail_header(pb_str *out, const char *name, const char *value)
{
	char *text = visible(value);
	const char *p = text;
	pb_str v;

	str_init(&v);
	/* a run of words to encode is encoded as one, so that the spaces
	 * between them (dropped between two encoded words) are kept */
	while (*(p += strspn(p, " "))) {
		size_t n = strcspn(p, " "), run = n;
		char *words;

		if (!word_needs_encoding(p, n)) {
			str_addn(&v, p, n);
		} else {
			for (;;) {
				size_t gap = strspn(p + run, " "), next = strcspn(p + run + gap, " ");

				if (!next || !word_needs_encoding(p + run + gap, next))
					break;
				run += gap + next;
			}
			words = xstrndup(p, run);
			add_encoded_words(&v, words);
			free(words);
		}
		str_add(&v, " ");
		p += run;
	}
	mail_header_folded(out, name, v.buf);
	str_free(&v);
	free(text);
}

void mail_address_free(struct mail_address *a)
{
	free(a->name);
	free(a->addr);
	memset(a, 0, sizeof(*a));
}

void mail_addresses_free(struct mail_address *v, int n)
{
	for (int i = 0; i < n; i++)
		mail_address_free(&v[i]);
	free(v);
}

/* local@domain in ASCII, without spaces or specials: one an MTA takes. */
static bool addr_spec_ok(const char *s)
{
	const char *at = strchr(s, '@');
	size_t n = strlen(s);

	if (n < 3 || n > 254 || !at || at == s || !at[1] || at[1] == '.' || s[n - 1] == '.' ||
	    strchr(at + 1, '@'))
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f || strchr("<>()[]\\,;:\"", *s))
			return false;
	return true;
}

/* A name without its quotes and their backslashes. */
static char *unquote(char *name)
{
	size_t n = strlen(name), k = 0;

	if (n < 2 || name[0] != '"' || name[n - 1] != '"')
		return xstrdup(name);
	name[n - 1] = '\0';
	for (char *s = name + 1; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		name[k++] = *s;
	}
	name[k] = '\0';
	return xstrdup(name);
}

bool mail_address_parse(const char *text, struct mail_address *a)
{
	char *copy = xstrdup(text), *s = trim(copy), *lt = strrchr(s, '<'), *gt;

	memset(a, 0, sizeof(*a));
	if (lt && (gt = strchr(lt, '>'))) {
		*gt = '\0';
		a->addr = xstrdup(lt + 1);
		*lt = '\0';
		a->name = unquote(trim(s));
	} else {
		/* "a@b (comment)", "a@b # 5.10": the address is the first word */
		s[strcspn(s, " \t")] = '\0';
		a->addr = xstrdup(s);
		a->name = xstrdup("");
	}
	free(copy);
	if (addr_spec_ok(a->addr))
		return true;
	mail_address_free(a);
	return false;
}

bool mail_address_list(const char *text, struct mail_address **v, int *n, pb_err *err)
{
	const char *p = text;

	*n = 0;
	if (v)
		*v = NULL;
	while (*p) {
		size_t len = 0;
		bool quoted = false;
		char *entry, *e;

		for (; p[len] && (quoted || p[len] != ','); len++) {
			if (p[len] == '"')
				quoted = !quoted;
			else if (quoted && p[len] == '\\' && p[len + 1])
				len++;
		}
		entry = xstrndup(p, len);
		e = trim(entry);
		if (*e) {
			struct mail_address a;

			if (!mail_address_parse(e, &a)) {
				pb_seterr(err, "'%.100s' is not a mail address", e);
				free(entry);
				if (v)
					mail_addresses_free(*v, *n);
				return false;
			}
			if (v) {
				*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
				(*v)[*n] = a;
			} else {
				mail_address_free(&a);
			}
			(*n)++;
		}
		free(entry);
		p += len + (p[len] == ',');
	}
	return true;
}

/* A display name as a header carries it: words as they are, quoted when it
 * holds a special, encoded when it is not ASCII. A list folds between its
 * addresses (and between a long name's encoded words), not inside a name. */
static void add_phrase(pb_str *v, const char *name)
{
	static const char atext[] = "!#$%&'*+-/=?^_`{|}~ ";
	bool plain = true;

	if (!is_ascii(name) || strstr(name, "=?")) {
		add_encoded_words(v, name);
		return;
	}
	for (const char *s = name; *s; s++)
		plain &= (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || strchr(atext, *s);
	if (plain) {
		for (const char *s = name; *s; s++)
			str_addn(v, *s == ' ' ? (const char[]){ NOFOLD } : s, 1);
		return;
	}
	str_add(v, "\"");
	for (const char *s = name; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_add(v, "\\");
		str_addn(v, *s == ' ' ? (const char[]){ NOFOLD } : s, 1);
	}
	str_add(v, "\"");
}

/* The addresses as a header's value: "Name <addr>, addr, ...". */
char *mail_address_value(const struct mail_address *v, int n)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < n; i++) {
		if (v[i].name[0]) {
			add_phrase(&s, v[i].name);
			str_addf(&s, "%c<%s>", NOFOLD, v[i].addr);
		} else {
			str_add(&s, v[i].addr);
		}
		str_add(&s, i + 1 < n ? ", " : "");
	}
	return str_steal(&s);
}

/* One address from text that came from input: made one line first, its
 * name cut to 100 characters so that no header line passes 998. */
bool mail_address_from_input(const char *text, struct mail_address *a)
{
	char *v = visible(text);
	bool ok = mail_address_parse(v, a);

	if (ok)
		a->name[mail_bytes_of_columns(a->name, strlen(a->name), 100)] = '\0';
	free(v);
	return ok;
}
