/* The model's name tables: every value's name parses back to the value,
 * no two values of an enum share a name, a name the table lacks is
 * refused, and a stored enum is read back through its name (DB_ENUM). */
#include <stdlib.h>

#include "check.h"
#include "db-report.h"
#include "db.h"
#include "fixture.h"
#include "names.h"
#include "verdict.h"

static void check_table(const struct pb_names *t)
{
	int v;

	CHECK(t->count > 0 && t->what && t->what[0]);
	for (int i = 0; i < t->count; i++) {
		CHECK(t->names[i] != NULL);
		CHECK(pb_names_parse(t, t->names[i], &v) && v == i);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(t->names[i], t->names[j]) != 0);
	}
	CHECK_STR(pb_names_name(t, t->count), t->unknown ? t->unknown : "?");
	CHECK_STR(pb_names_name(t, -1), t->unknown ? t->unknown : "?");
	CHECK(!pb_names_parse(t, "no such name", &v));
	CHECK(!pb_names_parse(t, NULL, &v));
}

struct enum_row {
	int v;
};

extern const char perfbot_schema_sql[];

/* The line of table's column in the built-in schema, or NULL. Free it. */
static char *schema_line(const char *table, const char *column)
{
	char *head = xasprintf("CREATE TABLE %s (", table), *col = xasprintf("\n    %s ", column);
	const char *at = strstr(perfbot_schema_sql, head), *end = at ? strstr(at, "\n);") : NULL;
	const char *line = at ? strstr(at, col) : NULL;
	char *out = NULL;

	if (line && line < end) {
		line++;
		out = xstrndup(line, strcspn(line, "\n"));
	}
	free(head);
	free(col);
	return out;
}

/* Every column that stores a model's name allows just the names it may
 * hold (CHECK), in the order of the table; NULL where the model says so;
 * and the schema has no other CHECK. */
static void check_schema(void)
{
	int checks = 0;

	for (const char *s = perfbot_schema_sql; (s = strstr(s, "CHECK (")); s++)
		checks++;
	CHECK_INT(checks, model_ncolumns);
	for (int i = 0; i < model_ncolumns; i++) {
		const struct model_column *mc = &model_columns[i];
		char *line = schema_line(mc->table, mc->column);
		pb_str want;

		str_init(&want);
		str_addf(&want, "CHECK (%s IN (", mc->column);
		for (int v = mc->first; v < mc->names->count; v++)
			str_addf(&want, "%s'%s'", v > mc->first ? ", " : "", mc->names->names[v]);
		str_add(&want, "))");
		if (!line || !strstr(line, want.buf))
			fprintf(stderr, "model: %s.%s: the schema says '%s', the model '%s'\n", mc->table,
				mc->column, line ? line : "(no such column)", want.buf);
		CHECK(line && strstr(line, want.buf));
		CHECK(line && (strstr(line, "NOT NULL") == NULL) == mc->nullable);
		free(line);
		str_free(&want);
	}
}

void test_model(void)
{
	enum accel_kind a;
	enum verdict v;
	char *list;

	for (int i = 0; i < model_ncolumns; i++) {
		check_table(model_columns[i].names);
		CHECK(model_columns[i].first >= 0 && model_columns[i].first < model_columns[i].names->count);
	}
	check_table(&accel_choice_names);
	check_table(&executor_names);
	check_table(&job_state_names);
	/* the typed wrappers */
	CHECK(accel_kind_parse("tcg-icount", &a) && a == ACCEL_TCG_ICOUNT);
	CHECK(accel_choice_parse("auto", &a) && a == ACCEL_AUTO);
	CHECK(!accel_kind_parse("auto", &a));
	CHECK_STR(accel_kind_name(ACCEL_AUTO), "");
	CHECK(verdict_parse("behaviour change", &v) && v == VERDICT_BEHAVIOUR_CHANGE);
	CHECK_STR(status_name(STATUS_BOOT_FAILED), "boot-failed");
	list = pb_names_list(&metric_kind_names);
	CHECK_STR(list, "time, behaviour or diagnostic");
	free(list);
	list = pb_names_list(&better_names);
	CHECK_STR(list, "higher or lower");
	free(list);

	check_schema();

	/* a row that holds a name the model lacks (forged past the CHECKs)
	 * is an error that names it, never "no such comparison" */
	{
		char *dir = test_tmpdir(), *path = xasprintf("%s/forged.db", dir);
		struct fixture f;
		struct db_cursor c;
		struct patch_page_row row;
		sqlite3 *db;
		long long cid = 0;
		bool found = true;
		pb_err err = { "" };

		CHECK(db_open(path, &db, &err));
		CHECK(fixture_init(&f, "PB1 sample hugetlb-migrate 1 migrate_ms 1\n",
				   "PB1 sample hugetlb-migrate 1 migrate_ms 2\n"));
		CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &cid, &err));
		CHECK(db_report_patch_page(&c, db, cid, &row, &found, &err) && found);
		db_cursor_close(&c, NULL);
		CHECK(!db_exec(db, "UPDATE comparisons SET status='exploded'", &err));
		CHECK(db_exec(db, "PRAGMA ignore_check_constraints=ON; "
			      "UPDATE comparisons SET status='exploded'", &err));
		CHECK(!db_report_patch_page(&c, db, cid, &row, &found, &err) && !found);
		CHECK_STR(err.msg, "report: status: 'exploded' names no comparison status");
		CHECK(c.st == NULL);
		db_close(db);
		fixture_free(&f);
		free(path);
		free(dir);
	}

	/* DB_ENUM: a name read back as its value, NULL as 0, a name the
	 * model lacks fails the step with the column and the name */
	{
		sqlite3 *db;
		struct db_cursor c;
		struct enum_row row;
		const struct db_column cols[] = { DB_ENUM_COLUMN(struct enum_row, v, accel_kind_names, "x") };
		pb_err err = { "" };

		CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
		CHECK(db_exec(db, "CREATE TABLE t (n INTEGER, x TEXT);"
			      "INSERT INTO t VALUES (1, 'tcg'), (2, NULL), (3, 'tcg-icount-ish');", &err));
		CHECK(db_cursor_open(&c, db, "test", cols, 1, &err, "FROM t ORDER BY n", ""));
		CHECK(db_cursor_step(&c, &row) && row.v == ACCEL_TCG);
		CHECK(db_cursor_step(&c, &row) && row.v == ACCEL_AUTO);
		CHECK(!db_cursor_step(&c, &row));
		CHECK(!db_cursor_close(&c, &err));
		CHECK_STR(err.msg, "test: v: 'tcg-icount-ish' names no accelerator");
		sqlite3_close(db);
	}
}
