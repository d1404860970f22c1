/* The JSON writer: structure, separators, escaping, invalid UTF-8, numbers;
 * and the document list --json prints. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "cli.h"
#include "json.h"

static void check_commands(void);

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
	check_commands();
}

/* The document of list --json, from a queue written here whose first
 * subject carries a quote, a backslash and a byte that is not UTF-8. */

/* [PATCH 6.1 N/4] subject, line at of mm/a.c ("line N" of 40) from old to new */
static void write_patch(const char *dir, int n, const char *subject, int at, const char *old,
			const char *new)
{
	char *name = xasprintf("%03d.patch", n);
	char *text = xasprintf("From: Test <t@example.org>\nSubject: [PATCH 6.1 %03d/4] %s\n\n"
			       "Fixes: 0123456789ab (\"mm: the bug\")\n"
			       "Signed-off-by: Test <t@example.org>\n---\n"
			       "--- a/mm/a.c\n+++ b/mm/a.c\n@@ -%d,7 +%d,7 @@\n"
			       " line %d\n line %d\n line %d\n-%s\n+%s\n line %d\n line %d\n line %d\n",
			       n, subject, at - 3, at - 3, at - 3, at - 2, at - 1, old, new, at + 1,
			       at + 2, at + 3);

	free(test_write(dir, name, text));
	free(text);
	free(name);
}

#define HOSTILE_SUBJECT "mm: a \"quoted\" back\\slash \xff fix"
#define HOSTILE_JSON "\"subject\": \"mm: a \\\"quoted\\\" back\\\\slash \\ufffd fix\""

static void check_list_json(const char *cfg, const char *qdir)
{
	char *argv[] = { "list", "--json", "--config", (char *)cfg, "--queue", (char *)qdir, NULL };
	char *mm[] = { "list", "--json", "--mm", "--long", "--config", (char *)cfg, "--queue",
		       (char *)qdir, NULL };
	char *err, *out, *want;
	int rc = -1;

	out = test_run_command(cmd_list, argv, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_STR(err, "");
	CHECK(out[0] == '{');
	want = xasprintf("\"queue\": \"%s\",\n  \"description\": null,\n  \"patches\": [\n", qdir);
	CHECK_HAS(out, want);
	free(want);
	CHECK_HAS(out, "\"number\": 1,\n      \"label\": \"001\",\n      " HOSTILE_JSON);
	CHECK_HAS(out, "\"series\": \"6.1\",\n      \"total\": 4,\n");
	CHECK_HAS(out, "\"author\": \"Test <t@example.org>\",\n      \"upstream\": null,\n"
		       "      \"cc_stable\": false,\n      \"is_mm\": true,\n      \"mm_reason\": \"mm/a.c\"");
	CHECK_HAS(out, "\"files\": [\n        {\n          \"path\": \"mm/a.c\",\n"
		       "          \"added\": 1,\n          \"removed\": 1\n        }\n      ],\n");
	CHECK_HAS(out, "\"fixes\": [\n        \"0123456789ab (\\\"mm: the bug\\\")\"\n      ]");
	CHECK_HAS(out, "\"message_id\": null");
	CHECK_HAS(out, "\"label\": \"003\"");
	CHECK_HAS(out, "\"label\": \"004\"");
	CHECK(!strstr(out, "NUM/TOTAL") && !strstr(out, "\xff"));
	free(out);
	free(err);

	/* --mm leaves 004 out; --long changes nothing */
	out = test_run_command(cmd_list, mm, &rc, &err);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK(out[0] == '{');
	CHECK_HAS(out, "\"label\": \"003\"");
	CHECK(!strstr(out, "\"label\": \"004\""));
	free(out);
	free(err);
}

static void check_commands(void)
{
	char *dir = test_tmpdir(), *qdir = xasprintf("%s/queue", dir);
	char *cfg = test_write(dir, "config.ini", "");
	pb_err err = { "" };

	CHECK(mkdir_p(qdir, &err));
	write_patch(qdir, 1, HOSTILE_SUBJECT, 20, "line 20", "line twenty");
	write_patch(qdir, 2, "mm: already in the base", 30, "line 30", "line thirty");
	write_patch(qdir, 3, "mm: applies nowhere", 10, "line ten", "line TEN");
	{
		/* 004: not mm */
		char *text = xasprintf("From: Test <t@example.org>\nSubject: [PATCH 6.1 004/4] doc: x\n\n"
				       "Signed-off-by: Test <t@example.org>\n---\n--- a/doc/x\n+++ b/doc/x\n"
				       "@@ -1 +1 @@\n-a\n+b\n");

		free(test_write(qdir, "004.patch", text));
		free(text);
	}
	check_list_json(cfg, qdir);
	rm_rf(dir);
	free(cfg);
	free(qdir);
	free(dir);
}
