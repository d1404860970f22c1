/* The JSON writer: structure, separators, escaping, invalid UTF-8, numbers. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "json.h"

static char *quoted(const char *s)
{
	pb_str out;

	str_init(&out);
	json_quote(&out, s);
	return str_steal(&out);
}

void test_json(void)
{
	pb_str out;
	struct json j;
	char *s;

	str_init(&out);
	json_init(&j, &out);
	json_object_begin(&j, NULL);
	json_string(&j, "patch", "771");
	json_int(&j, "n", -3);
	json_number(&j, "pct", 4.75);
	json_number(&j, "none", NAN);
	json_number(&j, "whole", 16);
	json_bool(&j, "ok", true);
	json_null(&j, "nothing");
	json_array_begin(&j, "empty");
	json_array_end(&j);
	json_array_begin(&j, "list");
	json_int(&j, NULL, 1);
	json_object_begin(&j, NULL);
	json_string(&j, "k", NULL);
	json_object_end(&j);
	json_array_end(&j);
	json_object_end(&j);
	CHECK_STR(out.buf, "{\n  \"patch\": \"771\",\n  \"n\": -3,\n  \"pct\": 4.75,\n  \"none\": null,\n"
			   "  \"whole\": 16,\n  \"ok\": true,\n  \"nothing\": null,\n  \"empty\": [],\n"
			   "  \"list\": [\n    1,\n    {\n      \"k\": null\n    }\n  ]\n}\n");
	str_free(&out);

	s = quoted("a\"b\\c\nd\te\x01");
	CHECK_STR(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(s);
	/* UTF-8 passes; a stray byte, an overlong form and a cut character do not */
	s = quoted("M\xc3\xbcller \xff \xc0\xaf \xe2\x82");
	CHECK_STR(s, "\"M\xc3\xbcller \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\"");
	free(s);
	s = quoted("\xed\xa0\x80"); /* a surrogate */
	CHECK_STR(s, "\"\\ufffd\\ufffd\\ufffd\"");
	free(s);
}
