/* JSON output (--json): a writer that emits one document into a pb_str.
 * Keys are given with each value inside an object (NULL inside an array).
 * Strings are escaped for JSON and made valid UTF-8 (a byte that is not
 * part of a UTF-8 character becomes U+FFFD): patch subjects and guest
 * output are input, a script's parser must not choke on them. */
#ifndef PERFBOT_JSON_H
#define PERFBOT_JSON_H

#include <stdbool.h>

#include "util.h"

#define JSON_MAX_DEPTH 16

struct json {
	pb_str *out;
	int depth;
	bool has_member[JSON_MAX_DEPTH]; /* a value was written at this level: comma next */
};

void json_init(struct json *j, pb_str *out);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* NULL s: null */
void json_string(struct json *j, const char *key, const char *s);
/* NAN or an infinity: null (JSON has neither) */
void json_number(struct json *j, const char *key, double v);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);

/* s as a JSON string literal, quotes included, appended to out. */
void json_quote(pb_str *out, const char *s);

#endif
