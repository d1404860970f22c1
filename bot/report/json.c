/* A JSON writer: indented two spaces a level, a newline after the document. */
#include "json.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, pb_str *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

/* The separator, indentation and key before a value. */
static void member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		str_add(j->out, j->has_member[j->depth - 1] ? ",\n" : "\n");
		j->has_member[j->depth - 1] = true;
		str_addf(j->out, "%*s", 2 * j->depth, "");
	}
	if (key) {
		json_quote(j->out, key);
		str_add(j->out, ": ");
	}
}

static void level_open(struct json *j, const char *key, const char *bracket)
{
	member(j, key);
	str_add(j->out, bracket);
	if (j->depth < JSON_MAX_DEPTH) /* deeper is a caller's bug: keep the text whole */
		j->has_member[j->depth] = false;
	j->depth++;
}

static void close_level(struct json *j, const char *bracket)
{
	j->depth--;
	if (j->depth < JSON_MAX_DEPTH && j->has_member[j->depth])
		str_addf(j->out, "\n%*s", 2 * j->depth, "");
	str_add(j->out, bracket);
	if (!j->depth)
		str_add(j->out, "\n");
}

void json_object_begin(struct json *j, const char *key)
{
	level_open(j, key, "{");
}

void json_object_end(struct json *j)
{
	close_level(j, "}");
}

void json_array_begin(struct json *j, const char *key)
{
	level_open(j, key, "[");
}

void json_array_end(struct json *j)
{
	close_level(j, "]");
}

/* The length of the UTF-8 character at s (n bytes left), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void json_quote(pb_str *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	str_add(out, "\"");
	while (n) {
		size_t len = utf8_len(p, n);

		if (!len) {
			str_add(out, "\\ufffd");
			len = 1;
		} else if (*p == '"' || *p == '\\')
			str_addf(out, "\\%c", *p);
		else if (*p == '\n')
			str_add(out, "\\n");
		else if (*p == '\t')
			str_add(out, "\\t");
		else if (*p == '\r')
			str_add(out, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			str_addf(out, "\\u%04x", *p);
		else
			str_addn(out, (const char *)p, len);
		p += len;
		n -= len;
	}
	str_add(out, "\"");
}

void json_string(struct json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		json_quote(j->out, s);
	else
		str_add(j->out, "null");
}

void json_number(struct json *j, const char *key, double v)
{
	member(j, key);
	if (!isfinite(v))
		str_add(j->out, "null");
	else if (v == floor(v) && fabs(v) < 1e15)
		str_addf(j->out, "%.0f", v);
	else
		str_addf(j->out, "%.15g", v);
}

void json_int(struct json *j, const char *key, long long v)
{
	member(j, key);
	str_addf(j->out, "%lld", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	str_add(j->out, v ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	str_add(j->out, "null");
}
