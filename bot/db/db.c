/* results.db: opening (the checks that refuse what is not perfbot's, the
 * schema, its upgrades, WAL), the named-column cursor every query reads
 * through, storing a comparison in one transaction, the noise floors,
 * nightly's rows and the lock beside the database. */
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "event.h"
#include "kernel.h"
#include "layout.h"
#include "vm.h"

/* bot/db/schema.sql, turned into a C string by the Makefile. */
extern const char perfbot_schema_sql[];

bool db_exec(sqlite3 *db, const char *sql, pb_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pb_seterr(err, "database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return false;
	}
	return true;
}

/* PRAGMA user_version; false (and SQLite's error code in *rc) if it cannot
 * be read: not a database, or one SQLite cannot read. */
static bool read_user_version(sqlite3 *db, int *v, int *rc)
{
	sqlite3_stmt *st;

	*rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return false;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return *rc == SQLITE_ROW;
}

static int user_version(sqlite3 *db)
{
	int v = -1, rc;

	return read_user_version(db, &v, &rc) ? v : -1;
}

/* One CREATE TABLE statement of the current schema, so that the upgrade
 * below creates exactly what a new database gets. */
static char *schema_table(const char *name)
{
	char *head = xasprintf("CREATE TABLE %s (", name);
	const char *at = strstr(perfbot_schema_sql, head), *end = at ? strstr(at, "\n);") : NULL;

	free(head);
	return at && end ? xstrndup(at, (size_t)(end + 3 - at)) : NULL;
}

static const char *const upgrade_1_to_2_tail =
	"INSERT INTO comparisons_new (id, patch_id, pair_method, pair_detail, kernel_without, "
	"kernel_with, accel, accel_reason, workloads, workload_choice, boots_per_kernel, iterations, "
	"status, started_at, finished_at, wall_seconds, perfbot_version) SELECT id, patch_id, "
	"pair_method, pair_detail, kernel_without, kernel_with, accel, accel_reason, workloads, "
	"workload_choice, boots_per_kernel, iterations, status, started_at, finished_at, "
	"wall_seconds, perfbot_version FROM comparisons;"
	"DROP TABLE comparisons;"
	"ALTER TABLE comparisons_new RENAME TO comparisons;"
	"CREATE INDEX comparisons_by_patch ON comparisons (patch_id);"
	"ALTER TABLE samples ADD COLUMN warmup INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE results ADD COLUMN boots_without INTEGER;"
	"ALTER TABLE results ADD COLUMN boots_with INTEGER;"
	"ALTER TABLE results ADD COLUMN ci_lo_pct REAL;"
	"ALTER TABLE results ADD COLUMN ci_hi_pct REAL;"
	"ALTER TABLE results ADD COLUMN hl_shift REAL;"
	"ALTER TABLE results ADD COLUMN p_mw REAL;"
	"ALTER TABLE results ADD COLUMN p_ks REAL;"
	"ALTER TABLE results ADD COLUMN p REAL;"
	"ALTER TABLE results ADD COLUMN p_adj REAL;"
	"ALTER TABLE results ADD COLUMN noise_pct REAL;"
	"ALTER TABLE results ADD COLUMN noise_from TEXT;"
	"ALTER TABLE results ADD COLUMN deterministic INTEGER;"
	"ALTER TABLE results ADD COLUMN regime TEXT;"
	"PRAGMA user_version = 2;";

/* One upgrade from version from, sql its whole work (ending in the new
 * user_version), all or nothing; a database another perfbot upgraded
 * meanwhile is left as it is. */
static bool upgrade_step(sqlite3 *db, int from, const char *sql, pb_err *err)
{
	bool ok = db_exec(db, "BEGIN IMMEDIATE", err);

	if (ok && user_version(db) == from) {
		ok = db_exec(db, sql, err);
		if (!ok)
			db_exec(db, "ROLLBACK", NULL);
		else
			ok = db_exec(db, "COMMIT", err);
	} else if (ok) {
		ok = db_exec(db, "COMMIT", err); /* another perfbot upgraded it meanwhile */
	}
	return ok;
}

/* Version 1 (issue 2's database) to 2: comparisons gain a kind and may have
 * no patch (calibrations), so that table is rebuilt; the others gain
 * columns. All or nothing, in one transaction. */
static bool upgrade_1_to_2(sqlite3 *db, pb_err *err)
{
	char *cmp = schema_table("comparisons"), *noise = schema_table("noise"), *sql;
	bool ok;

	if (!cmp || !noise) {
		free(cmp);
		free(noise);
		pb_seterr(err, "database: the built-in schema lacks a table");
		return false;
	}
	/* comparisons_new: the same definition, under the name it starts with */
	sql = xasprintf("CREATE TABLE comparisons_new%s;%s;%s", cmp + strlen("CREATE TABLE comparisons"),
			noise, upgrade_1_to_2_tail);
	ok = db_exec(db, "PRAGMA foreign_keys=OFF", err) && upgrade_step(db, 1, sql, err);
	db_exec(db, "PRAGMA foreign_keys=ON", NULL);
	free(sql);
	free(cmp);
	free(noise);
	return ok;
}

/* Upgrades that add: the tables names (NULL-terminated, may be NULL) from
 * the built-in schema, then each of cols ({ table, "name TYPE ..." }) the
 * table does not have yet (a database created by a perfbot between two
 * versions may have them already); then the version from + 1. */
static bool upgrade_add(sqlite3 *db, int from, const char *const *names,
			const char *const (*cols)[2], size_t ncols, const char *tail, pb_err *err)
{
	pb_str sql;
	bool ok;

	str_init(&sql);
	for (const char *const *n = names; n && *n; n++) {
		char *t = schema_table(*n);

		if (!t) {
			str_free(&sql);
			pb_seterr(err, "database: the built-in schema lacks the table %s", *n);
			return false;
		}
		str_addf(&sql, "%s;\n", t);
		free(t);
	}
	for (size_t i = 0; i < ncols; i++) {
		char *name = xstrndup(cols[i][1], strcspn(cols[i][1], " "));
		char *q = xasprintf("SELECT count(*) FROM pragma_table_info('%s') WHERE name='%s'",
				    cols[i][0], name);

		if (!db_count(db, q, 0))
			str_addf(&sql, "ALTER TABLE %s ADD COLUMN %s;", cols[i][0], cols[i][1]);
		free(q);
		free(name);
	}
	if (tail)
		str_add(&sql, tail);
	str_addf(&sql, "PRAGMA user_version = %d;", from + 1);
	ok = upgrade_step(db, from, sql.buf, err);
	str_free(&sql);
	return ok;
}

/* 2 to 3 the nightly table, 3 to 4 perfbotd's jobs and their boot journal. */
static bool upgrade_add_tables(sqlite3 *db, int from, const char *const *names, pb_err *err)
{
	return upgrade_add(db, from, names, NULL, 0, NULL, err);
}

/* 4 to 5: a job keeps the configuration its submit was given (jobs.overrides).
 * A version 3 database upgraded by this perfbot got the current jobs table,
 * which has the column already. */
static bool upgrade_4_to_5(sqlite3 *db, pb_err *err)
{
	bool has = db_count(db, "SELECT count(*) FROM pragma_table_info('jobs') WHERE name='overrides'",
			    0) > 0;

	return upgrade_step(db, 4,
			    has ? "PRAGMA user_version = 5;"
				: "ALTER TABLE jobs ADD COLUMN overrides TEXT NOT NULL DEFAULT '';"
				  "PRAGMA user_version = 5;",
			    err);
}

/* 5 to 6: the sequential t test. A comparison records its beta (and no
 * noise factor, which only older rows keep); a result its threshold ("no
 * change larger than") and the look that decided it; a noise floor what
 * pairing the rounds leaves of it. */
static bool upgrade_5_to_6(sqlite3 *db, pb_err *err)
{
	static const char *const cols[][2] = {
		{ "comparisons", "beta REAL" },
		{ "results", "threshold_pct REAL" },
		{ "results", "look INTEGER" },
		{ "noise", "rounds INTEGER" },
		{ "noise", "paired_cv_pct REAL" },
	};

	return upgrade_add(db, 5, NULL, cols, PB_ARRAY_SIZE(cols), NULL, err);
}

/* 6 to 7: queues as published. A patch from a review thread keeps its
 * mail's headers, which the report shows and a reply threads under
 * (patches stored before have none: ''); a comparison may be of a whole
 * series (the -rc), which the series table describes. */
static bool upgrade_6_to_7(sqlite3 *db, pb_err *err)
{
	static const char *const tables[] = { "series", "bisects", "bisect_steps", NULL };
	static const char *const cols[][2] = {
		{ "comparisons", "series_id INTEGER REFERENCES series(id)" },
		{ "patches", "message_id TEXT NOT NULL DEFAULT ''" },
		{ "patches", "in_reply_to TEXT NOT NULL DEFAULT ''" },
		{ "patches", "mail_to TEXT NOT NULL DEFAULT ''" },
		{ "patches", "mail_cc TEXT NOT NULL DEFAULT ''" },
		{ "patches", "mail_date TEXT NOT NULL DEFAULT ''" },
	};

	return upgrade_add(db, 6, tables, cols, PB_ARRAY_SIZE(cols), NULL, err);
}

/* 7 to 8: guests booted side by side. A comparison records how many at
 * most (rows before booted one at a time: NULL); a noise floor which
 * version of its workload it measured (before: '', no run uses it). */
static bool upgrade_7_to_8(sqlite3 *db, pb_err *err)
{
	static const char *const cols[][2] = {
		{ "comparisons", "guests_at_once INTEGER" },
		{ "noise", "workload_sha256 TEXT NOT NULL DEFAULT ''" },
	};

	return upgrade_add(db, 7, NULL, cols, PB_ARRAY_SIZE(cols), NULL, err);
}

/* 8 to 9: comparisons from elsewhere (a cluster's nodes). A comparison
 * has an identity that holds in any database, so that one brought home
 * twice is stored once, and the machine that ran it; a run the CPU model
 * of that machine, beside its QEMU version, as boots under another QEMU
 * build or CPU do not pool. Rows stored before get a uid, and no host
 * or CPU (NULL: this machine's). */
static bool upgrade_8_to_9(sqlite3 *db, pb_err *err)
{
	static const char *const cols[][2] = {
		{ "comparisons", "uid TEXT" },
		{ "comparisons", "host TEXT" },
		{ "runs", "host_cpu TEXT" },
	};

	/* the comparisons stored before get their identity too, so that
	 * such a database can be imported elsewhere */
	return upgrade_add(db, 8, NULL, cols, PB_ARRAY_SIZE(cols),
			   "UPDATE comparisons SET uid=lower(hex(randomblob(16))) WHERE uid IS NULL;"
			   "CREATE UNIQUE INDEX IF NOT EXISTS comparisons_by_uid ON comparisons (uid);", err);
}

/* The statements that rebuild table name as the built-in schema defines
 * it, rows kept (every column it has now, the new ones defaulted), its
 * indexes made again; NULL if the schema lacks it. SQLite adds no CHECK
 * to a table: it is made anew, as its documentation's way of altering
 * one does (foreign keys off, around the transaction). */
static char *rebuild_table(sqlite3 *db, const char *name)
{
	char *def = schema_table(name), *q = xasprintf("SELECT name FROM pragma_table_info('%s')", name);
	char *on;
	const char *at = perfbot_schema_sql;
	sqlite3_stmt *st;
	pb_str sql, cols;

	if (!def || sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		free(def);
		free(q);
		return NULL;
	}
	str_init(&cols);
	while (sqlite3_step(st) == SQLITE_ROW)
		str_addf(&cols, "%s\"%s\"", cols.len ? ", " : "", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	str_init(&sql);
	str_addf(&sql, "CREATE TABLE %s_new%s;\nINSERT INTO %s_new (%s) SELECT %s FROM %s;\n"
		       "DROP TABLE %s;\nALTER TABLE %s_new RENAME TO %s;\n",
		 name, def + strlen("CREATE TABLE ") + strlen(name), name, cols.buf, cols.buf, name, name,
		 name, name);
	/* its indexes: the schema's CREATE [UNIQUE] INDEX ... ON name (...); */
	on = xasprintf(" ON %s (", name);
	while ((at = strstr(at, "\nCREATE "))) {
		const char *end = strchr(++at, ';'), *index = strstr(at, " INDEX "), *of = strstr(at, on);

		if (end && index && index < end && of && of < end)
			str_addf(&sql, "%.*s;\n", (int)(end - at), at);
	}
	free(on);
	free(def);
	free(q);
	str_free(&cols);
	return str_steal(&sql);
}

/* 9 to 10: the columns that hold the model's names allow only those
 * (CHECK): their tables are made again from the built-in schema. A row
 * that holds another name fails the upgrade, which says so. */
static bool upgrade_9_to_10(sqlite3 *db, pb_err *err)
{
	static const char *const tables[] = { "series", "kernels", "comparisons", "bisects",
					      "bisect_steps", "runs", "results", "job_boots" };
	pb_str sql;
	bool ok = true;

	str_init(&sql);
	for (size_t i = 0; ok && i < PB_ARRAY_SIZE(tables); i++) {
		char *t = rebuild_table(db, tables[i]);

		if (!t) {
			pb_seterr(err, "database: cannot rebuild the table %s", tables[i]);
			ok = false;
		} else {
			str_add(&sql, t);
		}
		free(t);
	}
	str_add(&sql, "PRAGMA user_version = 10;");
	ok = ok && db_exec(db, "PRAGMA foreign_keys=OFF", err) && upgrade_step(db, 9, sql.buf, err);
	db_exec(db, "PRAGMA foreign_keys=ON", NULL);
	str_free(&sql);
	return ok;
}

/* How a perfbot database is recognised: its user_version is a schema
 * version perfbot has had (1 to DB_SCHEMA_VERSION; newer ones are refused
 * as a newer perfbot's) and it has every table that version has (tables of
 * its own besides are left alone). Nothing else is perfbot's: a database
 * of other tables, or of none, is refused before a byte is written. The
 * only files a writing command initialises are a missing one and an empty
 * (0-byte) one. */
static const char *const tables_v1[] = { "patches", "kernels", "comparisons", "runs", "samples",
					 "results", NULL };
static const char *const tables_v2[] = { "noise", NULL };
static const char *const tables_v3[] = { "nightly", NULL };
static const char *const tables_v4[] = { "jobs", "job_boots", "job_samples", NULL };

/* The tables a database of version v has, by the version that added them. */
static const char *const tables_v5[] = { NULL }; /* jobs gained a column */
static const char *const tables_v6[] = { NULL }; /* comparisons and results gained columns */
static const char *const tables_v7[] = { "series", "bisects", "bisect_steps", NULL };
static const char *const *const tables_since[] = { NULL,      tables_v1, tables_v2, tables_v3,
						   tables_v4, tables_v5, tables_v6, tables_v7 };

static bool has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1,
			       &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* Up to three of the tables of a foreign database, for its error line. */
static void some_tables(sqlite3 *db, char *out, size_t len)
{
	sqlite3_stmt *st;
	int n = 0;
	size_t at = 0;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW && at < len) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (n++ == 3) {
			snprintf(out + at, len - at, ", ...");
			break;
		}
		at += (size_t)snprintf(out + at, len - at, "%s%.40s", n > 1 ? ", " : "", name ? name : "");
	}
	sqlite3_finalize(st);
}

/* The file at path, before SQLite opens it: absent or empty (*fresh), or a
 * regular file; a read-only one is refused for writing. */
static bool check_file(const char *path, enum db_mode mode, bool *fresh, pb_err *err)
{
	struct stat sb;

	*fresh = false;
	if (stat(path, &sb) < 0) {
		if (errno != ENOENT) {
			pb_seterr(err, "database %s: %s", path, strerror(errno));
			return false;
		}
		if (mode == DB_READ_ONLY) {
			pb_seterr(err, "database %s does not exist", path);
			return false;
		}
		*fresh = true;
		return true;
	}
	if (!S_ISREG(sb.st_mode)) {
		pb_seterr(err, "database %s is not a regular file (%s)", path,
			  S_ISDIR(sb.st_mode) ? "a directory" :
			  S_ISCHR(sb.st_mode) ? "a character device" :
			  S_ISBLK(sb.st_mode) ? "a block device" :
			  S_ISFIFO(sb.st_mode) ? "a FIFO" : S_ISSOCK(sb.st_mode) ? "a socket" : "not a file");
		return false;
	}
	if (mode == DB_READ_WRITE && access(path, W_OK) < 0) {
		pb_seterr(err, "database %s is read-only (%s)", path, strerror(errno));
		return false;
	}
	if (sb.st_size == 0) {
		if (mode == DB_READ_ONLY) {
			pb_seterr(err, "database %s is empty: no perfbot database yet (perfbot run or "
				       "submit creates one)", path);
			return false;
		}
		*fresh = true;
	}
	return true;
}

/* Whether the open db is perfbot's (see above); *version its schema version,
 * *fresh if it is still empty (a writing command creates the schema). */
static bool recognise(sqlite3 *db, const char *path, enum db_mode mode, int *version, bool *fresh,
		      pb_err *err)
{
	struct stat sb;
	int v = 0, rc;

	if (!read_user_version(db, &v, &rc)) {
		if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN)
			pb_seterr(err, "database %s is read-only: SQLite cannot use it or its -wal/-shm "
				       "files (%s)", path, sqlite3_errmsg(db));
		else if ((rc & 0xff) == SQLITE_NOTADB)
			pb_seterr(err, "database %s: not an SQLite database (%s)", path, sqlite3_errmsg(db));
		else
			pb_seterr(err, "database %s cannot be read: %s", path, sqlite3_errmsg(db));
		return false;
	}
	*version = v;
	/* reading it rolled back any transaction a dead perfbot left: still empty? */
	if (*fresh || (v == 0 && stat(path, &sb) == 0 && sb.st_size == 0)) {
		*fresh = true;
		if (mode == DB_READ_ONLY) {
			pb_seterr(err, "database %s is empty: no perfbot database yet", path);
			return false;
		}
		return true;
	}
	if (v > DB_SCHEMA_VERSION) {
		pb_seterr(err, "database %s has schema version %d; this perfbot knows version %d", path, v,
			  DB_SCHEMA_VERSION);
		return false;
	}
	if (v < 0) {
		pb_seterr(err, "database %s has schema version %d, not one perfbot knows (1 to %d)", path,
			  v, DB_SCHEMA_VERSION);
		return false;
	}
	if (v == 0) {
		char some[160];

		some_tables(db, some, sizeof(some));
		pb_seterr(err, "database %s is not a perfbot database (no perfbot schema version%s%s)",
			  path, some[0] ? "; its tables: " : ", no tables", some);
		return false;
	}
	for (int since = 1; since <= v && since < (int)PB_ARRAY_SIZE(tables_since); since++)
		for (const char *const *t = tables_since[since]; *t; t++)
			if (!has_table(db, *t)) {
				pb_seterr(err, "database %s is not a perfbot database (schema version %d "
					       "without the table %s)", path, v, *t);
				return false;
			}
	if (mode == DB_READ_ONLY && v < DB_SCHEMA_VERSION) {
		pb_seterr(err, "database %s has schema version %d, older than this perfbot's %d: a "
			       "command that writes (run, submit, nightly, perfbotd) upgrades it; this "
			       "one only reads", path, v, DB_SCHEMA_VERSION);
		return false;
	}
	return true;
}

bool db_prepare_path(const char *path, pb_err *err)
{
	const char *state = layout_get()->state_dir;
	size_t n = state ? strlen(state) : 0;
	struct stat st;

	if (!n || strncmp(path, state, n) || path[n] != '/' || strchr(path + n + 1, '/'))
		return true;
	if (stat(state, &st) != 0)
		return mkdir_p(state, err);
	if (geteuid() == 0 && st.st_uid != 0) {
		struct passwd *pw = getpwuid(st.st_uid);
		const char *who = pw ? pw->pw_name : "its owner";

		pb_seterr(err, "%s belongs to %s, whose perfbotd and nightly could not write what "
			       "root leaves there: run as it (runuser -u %s -- the command)", state, who,
			  who);
		return false;
	}
	return true;
}

/* Opens path with the mode's flags after the checks above; *version and
 * *fresh as recognise() says. */
static bool open_checked(const char *path, enum db_mode mode, sqlite3 **out, int *version,
			 bool *fresh, pb_err *err)
{
	int flags = mode == DB_READ_ONLY ? SQLITE_OPEN_READONLY
					 : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	sqlite3 *db = NULL;

	*out = NULL;
	if (!check_file(path, mode, fresh, err) || (mode == DB_READ_WRITE && !db_prepare_path(path, err)))
		return false;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		pb_seterr(err, "database %s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return false;
	}
	sqlite3_busy_timeout(db, 30000);
	/* a file SQLite could open for reading only (an immutable one, as root) */
	if (mode == DB_READ_WRITE && sqlite3_db_readonly(db, "main") == 1) {
		pb_seterr(err, "database %s is read-only (SQLite cannot write it)", path);
		sqlite3_close(db);
		return false;
	}
	if (!recognise(db, path, mode, version, fresh, err)) {
		sqlite3_close(db);
		return false;
	}
	*out = db;
	return true;
}

bool db_check(const char *path, enum db_mode mode, pb_err *err)
{
	sqlite3 *db;
	bool fresh;
	int v;

	if (!check_file(path, mode, &fresh, err))
		return false;
	if (fresh)
		return true;
	/* read-only: checking writes nothing, whatever the file turns out to be */
	if (!open_checked(path, DB_READ_ONLY, &db, &v, &fresh, err)) {
		/* an older schema is one a writing command upgrades */
		if (mode == DB_READ_WRITE && strstr(err->msg, "older than this perfbot's"))
			return true;
		return false;
	}
	sqlite3_close(db);
	return true;
}

bool db_open_readonly(const char *path, sqlite3 **out, pb_err *err)
{
	int v;
	bool fresh;

	if (!open_checked(path, DB_READ_ONLY, out, &v, &fresh, err))
		return false;
	if (!db_exec(*out, "PRAGMA foreign_keys=ON; PRAGMA query_only=ON;", err)) {
		sqlite3_close(*out);
		*out = NULL;
		return false;
	}
	return true;
}

/* A new database: the whole schema or nothing, before anything else (the
 * WAL switch) writes to it; *v its version after. */
static bool create_schema(sqlite3 *db, int *v, pb_err *err)
{
	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (user_version(db) == 0 && !db_exec(db, perfbot_schema_sql, err)) {
		db_exec(db, "ROLLBACK", NULL);
		return false;
	}
	if (!db_exec(db, "COMMIT", err))
		return false;
	*v = user_version(db);
	return true;
}

/* From schema version *v up to the current one, a step at a time. */
static bool upgrade(sqlite3 *db, int *v, pb_err *err)
{
	static const char *const nightly[] = { "nightly", NULL };
	static const char *const jobs[] = { "jobs", "job_boots", "job_samples", NULL };

	if (*v == 1) {
		if (!upgrade_1_to_2(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 2) {
		if (!upgrade_add_tables(db, 2, nightly, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 3) {
		if (!upgrade_add_tables(db, 3, jobs, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 4) {
		if (!upgrade_4_to_5(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 5) {
		if (!upgrade_5_to_6(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 6) {
		if (!upgrade_6_to_7(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 7) {
		if (!upgrade_7_to_8(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 8) {
		if (!upgrade_8_to_9(db, err))
			return false;
		*v = user_version(db);
	}
	if (*v == 9) {
		if (!upgrade_9_to_10(db, err))
			return false;
		*v = user_version(db);
	}
	return true;
}

bool db_open(const char *path, sqlite3 **out, pb_err *err)
{
	sqlite3 *db = NULL;
	bool fresh;
	int v;

	if (!open_checked(path, DB_READ_WRITE, &db, &v, &fresh, err))
		return false;
	if (fresh && !create_schema(db, &v, err))
		goto fail;
	if (!db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;", err)) {
		pb_seterr(err, "database %s: cannot switch to WAL: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return false;
	}
	if (!upgrade(db, &v, err))
		goto fail;
	if (v != DB_SCHEMA_VERSION) {
		pb_seterr(err, "database %s has schema version %d; this perfbot knows version %d", path,
			  v, DB_SCHEMA_VERSION);
		goto fail;
	}
	*out = db;
	return true;
fail:
	{
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		pb_seterr(err, "database %s: %s", path, msg);
	}
	sqlite3_close(db);
	return false;
}

void db_close(sqlite3 *db)
{
	const char *name = db ? sqlite3_db_filename(db, "main") : NULL;
	char *path = name && name[0] && sqlite3_db_readonly(db, "main") == 1 ? xstrdup(name) : NULL;

	sqlite3_close(db);
	/* A read-only connection leaves a WAL database's -wal and -shm behind
	 * (it may not checkpoint). When they hold nothing and the file may be
	 * written, a connection that reads one page and closes lets SQLite
	 * remove them as a writer's last close does; it writes nothing to the
	 * database, and removes nothing while another connection is open. */
	if (path) {
		char *wal = xasprintf("%s-wal", path);
		struct stat sb;
		sqlite3 *tidy = NULL;

		if (stat(wal, &sb) == 0 && sb.st_size == 0 && access(path, W_OK) == 0 &&
		    sqlite3_open_v2(path, &tidy, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
		    sqlite3_db_readonly(tidy, "main") == 0)
			sqlite3_exec(tidy, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
		sqlite3_close(tidy);
		free(wal);
		free(path);
	}
}

/* Binds a printf-like list to st (see db_run). */
static void bind_values(sqlite3_stmt *st, const char *types, va_list ap)
{
	int i = 1;

	for (const char *t = types; *t; t++, i++) {
		switch (*t) {
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (s)
				sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(st, i);
			break;
		}
		case 'i':
			sqlite3_bind_int(st, i, va_arg(ap, int));
			break;
		case 'I':
			sqlite3_bind_int64(st, i, va_arg(ap, long long));
			break;
		case 'd': {
			double d = va_arg(ap, double);

			if (isnan(d))
				sqlite3_bind_null(st, i);
			else
				sqlite3_bind_double(st, i, d);
			break;
		}
		}
	}
}

/* Prepares sql with as many parameters as types has values. */
static bool prepare_for(sqlite3 *db, const char *sql, const char *types, sqlite3_stmt **st,
			const char *what, pb_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		pb_seterr(err, "%s: %s", what, sqlite3_errmsg(db));
		return false;
	}
	if ((int)strlen(types) != sqlite3_bind_parameter_count(*st)) {
		pb_seterr(err, "%s: %d values for %d parameters in: %.80s", what, (int)strlen(types),
			  sqlite3_bind_parameter_count(*st), sql);
		sqlite3_finalize(*st);
		*st = NULL;
		return false;
	}
	return true;
}

bool db_run(sqlite3 *db, long long *rowid, pb_err *err, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc;

	if (!prepare_for(db, sql, types, &st, "database", err))
		return false;
	va_start(ap, types);
	bind_values(st, types, ap);
	va_end(ap);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && rowid)
		*rowid = sqlite3_column_int64(st, 0);
	else if (rowid && rc == SQLITE_DONE)
		*rowid = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(db));
		return false;
	}
	return true;
}

bool db_insert(sqlite3 *db, const char *table, const struct db_value *v, int n, long long *rowid,
	       pb_err *err)
{
	sqlite3_stmt *st;
	pb_str sql;
	int rc;

	str_init(&sql);
	str_addf(&sql, "INSERT INTO %s (", table);
	for (int i = 0; i < n; i++)
		str_addf(&sql, "%s%s", i ? ", " : "", v[i].column);
	str_add(&sql, ") VALUES (");
	for (int i = 0; i < n; i++)
		str_add(&sql, i ? ", ?" : "?");
	str_add(&sql, ")");
	rc = sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL);
	str_free(&sql);
	if (rc != SQLITE_OK) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(db));
		return false;
	}
	for (int i = 0; i < n; i++)
		if ((v[i].type == DBV_TEXT && !v[i].s) || (v[i].type == DBV_REAL && isnan(v[i].d)) ||
		    (v[i].type == DBV_INT && v[i].zero_null && !v[i].i))
			sqlite3_bind_null(st, i + 1);
		else if (v[i].type == DBV_TEXT)
			sqlite3_bind_text(st, i + 1, v[i].s, -1, SQLITE_TRANSIENT);
		else if (v[i].type == DBV_INT)
			sqlite3_bind_int64(st, i + 1, v[i].i);
		else
			sqlite3_bind_double(st, i + 1, v[i].d);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(db));
		return false;
	}
	if (rowid)
		*rowid = sqlite3_last_insert_rowid(db);
	return true;
}

/* Each of the cursor's columns by its name in the statement. */
static bool map_columns(struct db_cursor *c, pb_err *err)
{
	int n = sqlite3_column_count(c->st);

	if (c->ncols > DB_MAX_COLUMNS) {
		pb_seterr(err, "%s: %d columns, more than %d", c->what, c->ncols, DB_MAX_COLUMNS);
		return false;
	}
	for (int i = 0; i < c->ncols; i++) {
		c->index[i] = -1;
		for (int k = 0; k < n && c->index[i] < 0; k++)
			if (!strcmp(sqlite3_column_name(c->st, k), c->cols[i].name))
				c->index[i] = k;
		if (c->index[i] < 0) {
			pb_seterr(err, "%s: the query has no column %s", c->what, c->cols[i].name);
			return false;
		}
	}
	return true;
}

static bool cursor_start(struct db_cursor *c, sqlite3 *db, const char *what,
			 const struct db_column *cols, int ncols)
{
	memset(c, 0, sizeof(*c));
	c->db = db;
	c->what = what;
	c->cols = cols;
	c->ncols = ncols;
	return true;
}

bool db_cursor_open_sql(struct db_cursor *c, sqlite3 *db, const char *what,
			const struct db_column *cols, int ncols, pb_err *err, const char *sql)
{
	cursor_start(c, db, what, cols, ncols);
	if (sqlite3_prepare_v2(db, sql, -1, &c->st, NULL) != SQLITE_OK) {
		pb_seterr(err, "%s: %s", what, sqlite3_errmsg(db));
		return false;
	}
	if (!map_columns(c, err)) {
		sqlite3_finalize(c->st);
		c->st = NULL;
		return false;
	}
	return true;
}

bool db_cursor_open(struct db_cursor *c, sqlite3 *db, const char *what,
		    const struct db_column *cols, int ncols, pb_err *err, const char *tail,
		    const char *types, ...)
{
	pb_str sql;
	va_list ap;
	bool ok;

	cursor_start(c, db, what, cols, ncols);
	str_init(&sql);
	str_add(&sql, "SELECT ");
	for (int i = 0; i < ncols; i++)
		str_addf(&sql, "%s%s AS \"%s\"", i ? ", " : "", cols[i].expr, cols[i].name);
	str_addf(&sql, " %s", tail);
	ok = prepare_for(db, sql.buf, types, &c->st, what, err);
	str_free(&sql);
	if (ok && !map_columns(c, err)) {
		sqlite3_finalize(c->st);
		c->st = NULL;
		ok = false;
	}
	if (!ok)
		return false;
	va_start(ap, types);
	bind_values(c->st, types, ap);
	va_end(ap);
	return true;
}

bool db_cursor_step(struct db_cursor *c, void *row)
{
	int rc = c->st && !c->failed ? sqlite3_step(c->st) : SQLITE_DONE;

	if (rc != SQLITE_ROW) {
		c->failed |= rc != SQLITE_DONE;
		return false;
	}
	for (int i = 0; i < c->ncols; i++) {
		const struct db_column *col = &c->cols[i];
		int k = c->index[i];
		bool null = sqlite3_column_type(c->st, k) == SQLITE_NULL;
		char *at = (char *)row + col->offset;

		switch (col->type) {
		case DB_TEXT: {
			const unsigned char *t = sqlite3_column_text(c->st, k);

			*(const char **)at = t ? (const char *)t : "";
			break;
		}
		case DB_TEXT_OR_NULL: {
			const unsigned char *t = sqlite3_column_text(c->st, k);

			*(const char **)at = (const char *)t;
			break;
		}
		case DB_INT:
			*(int *)at = sqlite3_column_int(c->st, k);
			break;
		case DB_INT64:
			*(long long *)at = sqlite3_column_int64(c->st, k);
			break;
		case DB_REAL:
			*(double *)at = sqlite3_column_double(c->st, k);
			break;
		case DB_REAL_OR_NAN:
			*(double *)at = null ? NAN : sqlite3_column_double(c->st, k);
			break;
		case DB_ENUM: {
			const char *t = (const char *)sqlite3_column_text(c->st, k);
			int v = 0;

			if (t && !pb_names_parse(col->names, t, &v)) {
				snprintf(c->bad, sizeof(c->bad), "%s: '%.60s' names no %s", col->name, t,
					 col->names->what);
				c->failed = true;
				return false;
			}
			*(int *)at = v;
			break;
		}
		}
	}
	return true;
}

bool db_cursor_step_one(struct db_cursor *c, void *row, bool *found, pb_err *err)
{
	*found = db_cursor_step(c, row);
	if (c->failed) {
		*found = false;
		db_cursor_close(c, err);
		return false;
	}
	return true;
}

bool db_cursor_close(struct db_cursor *c, pb_err *err)
{
	bool ok = !c->failed;

	if (!ok && err && c->bad[0])
		pb_seterr(err, "%s: %s", c->what, c->bad);
	else if (!ok && err)
		pb_seterr(err, "%s: %s", c->what, sqlite3_errmsg(c->db));
	sqlite3_finalize(c->st);
	c->st = NULL;
	return ok;
}

static char *join_lines(char **v, int n)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < n; i++)
		str_addf(&s, "%s%s", i ? "\n" : "", v[i]);
	return str_steal(&s);
}

bool db_store_patch(sqlite3 *db, const struct pb_patch *p, const char *queue, long long *id,
			pb_err *err)
{
	char *fixes = join_lines(p->fixes, p->nfixes);
	bool ok = db_run(db, NULL, err,
		      "INSERT OR IGNORE INTO patches (queue, number, total, series, file, sha256, "
		      "subject, author, upstream, fixes, cc_stable, is_mm, mm_reason, message_id, "
		      "in_reply_to, mail_to, mail_cc, mail_date) "
		      "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		      "siisssssssiissssss", queue, p->number, p->total, p->series, p->file,
		      p->sha256, p->subject, p->author, p->upstream, fixes, (int)p->cc_stable,
		      (int)p->is_mm, p->mm_reason, p->message_id, p->in_reply_to, p->to, p->cc,
		      p->date) &&
		  db_run(db, id, err, "SELECT id FROM patches WHERE queue=? AND number=? AND sha256=?",
		      "sis", queue, p->number, p->sha256);

	free(fixes);
	return ok;
}

static bool store_kernel(sqlite3 *db, const struct comparison *cmp, enum side s, long long *id,
			 pb_err *err)
{
	const struct kernel_image *img = &cmp->image[s];
	const struct kernel_change *c = s == SIDE_WITH ? &cmp->plan->with : &cmp->plan->without;

	/* A failed build is stored with its log; a later successful build of
	 * the same inputs replaces the failure. */
	return db_run(db, NULL, err,
		   "INSERT INTO kernels (key, version, tree_sha256, config_sha256, label, change_file, "
		   "change_sha256, reverse, build_status, build_seconds, build_log, failure) "
		   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(key) DO UPDATE SET "
		   "build_status=excluded.build_status, build_log=excluded.build_log, "
		   "failure=excluded.failure, build_seconds=CASE WHEN kernels.build_status="
		   SQL_NAME(NAME_BUILT) " AND "
		   "excluded.build_status=" SQL_NAME(NAME_BUILT)
		     " THEN kernels.build_seconds ELSE excluded.build_seconds END",
		   "sssssssisdss", img->key, cmp->tree->version, cmp->tree->tarball_sha,
		   cmp->config->sha256, c->label, c->file ? c->file : c->summary,
		   kernel_change_is_base(c) ? NULL : c->sha256, (int)c->reverse,
		   build_status_name(img->built ? BUILD_BUILT : BUILD_FAILED), img->build_seconds, img->log, img->failure) &&
	       db_run(db, id, err, "SELECT id FROM kernels WHERE key=?", "s", img->key);
}

static bool store_runs(sqlite3 *db, const struct comparison *cmp, long long cid,
		       const long long kid[2], pb_err *err)
{
	for (int b = 0; b < cmp->obs.nboots; b++) {
		const struct boot *bt = &cmp->obs.boots[b];
		long long rid;

		if (!db_run(db, &rid, err,
			 "INSERT INTO runs (comparison_id, kernel_id, side, boot_index, accel, "
			 "accel_reason, qemu_version, host_cpu, qemu_cmdline, outcome, detail, wall_seconds, "
			 "console_log, results_log) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			 "IIsisssssssdss", cid, kid[bt->side], side_name(bt->side), b + 1,
			 accel_kind_name(cmp->accel.kind), cmp->accel.reason, qemu_version(), host_cpu_model(),
			 bt->rec.qemu_cmdline,
			 boot_outcome_name(bt->rec.outcome), bt->rec.detail ? bt->rec.detail : "",
			 bt->rec.wall_seconds, bt->rec.console_log, bt->rec.results_log))
			return false;
		for (int i = 0; i < bt->rec.results.nsamples; i++) {
			const struct result_sample *s = &bt->rec.results.samples[i];
			const struct workload *wl = compare_workload(&cmp->obs, s->workload);
			int warm = wl && compare_is_warmup(&cmp->policy, wl, s->iteration);

			/* A guest that repeats a line: the first value stands. */
			if (!db_run(db, NULL, err,
				 "INSERT OR IGNORE INTO samples (run_id, workload, metric, iteration, value, "
				 "warmup) VALUES (?,?,?,?,?,?)",
				 "Issidi", rid, s->workload, s->metric, s->iteration, s->value, warm))
				return false;
		}
	}
	return true;
}

static bool store_results(sqlite3 *db, const struct comparison *cmp, long long cid, pb_err *err)
{
	for (int i = 0; i < cmp->findings.nresults; i++) {
		const struct metric_result *m = &cmp->findings.results[i];

		if (!db_run(db, NULL, err,
			 "INSERT INTO results (comparison_id, workload, metric, unit, kind, better, "
			 "n_without, n_with, median_without, median_with, change_pct, verdict, "
			 "boots_without, boots_with, ci_lo_pct, ci_hi_pct, hl_shift, p_mw, p_ks, p, p_adj, "
			 "noise_pct, noise_from, deterministic, regime, threshold_pct, look) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULLIF(?,0))",
			 "Isssssiidddsiiddddddddsisdi", cid, m->workload, m->def->name, m->def->unit,
			 metric_kind_name(m->def->kind),
			 better_name(m->def->better > 0 ? BETTER_HIGHER : BETTER_LOWER), m->n[0], m->n[1],
			 m->n[0] ? m->median[0] : NAN, m->n[1] ? m->median[1] : NAN, m->change_pct,
			 verdict_name(m->verdict), m->boots[0], m->boots[1], m->ci_lo_pct, m->ci_hi_pct, m->hl_shift,
			 m->p_mw, m->p_ks, m->p, m->p_adj, m->noise_pct, noise_from_name(m->noise_from),
			 (int)m->deterministic, m->regime, m->threshold_pct, m->look))
			return false;
	}
	for (int i = 0; i < cmp->nmeasured_noise; i++) {
		const struct noise_floor *nf = &cmp->measured_noise[i];

		if (!db_run(db, NULL, err,
			 "INSERT INTO noise (calibration_id, workload, metric, boots, between_cv_pct, "
			 "within_cv_pct, deterministic, rounds, paired_cv_pct, workload_sha256) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?)",
			 "Issiddiids", cid, nf->workload, nf->metric, nf->boots, nf->between_cv_pct,
			 nf->within_cv_pct, (int)nf->deterministic, nf->rounds, nf->paired_cv_pct,
			 nf->sha256))
			return false;
	}
	return true;
}

/* The series a series comparison applied: its patches in the order the
 * applied side's steps took them. */
static bool store_series(sqlite3 *db, const struct comparison *cmp, long long *id, pb_err *err)
{
	const struct series_info *si = cmp->series;
	const struct kernel_change *c = cmp->plan->method == PAIR_FORWARD ? &cmp->plan->with
									 : &cmp->plan->without;
	pb_str nums;
	bool ok;

	str_init(&nums);
	for (int i = 0; i < c->nsteps; i++)
		str_addf(&nums, "%s%03d", i ? " " : "", c->steps[i].number);
	ok = db_run(db, NULL, err,
		    "INSERT OR IGNORE INTO series (queue, name, description, cover_message_id, mode, "
		    "mm_only, patches, sha256) VALUES (?,?,?,?,?,?,?,?)",
		    "sssssiss", cmp->queue_dir, si->name, si->description, si->cover_message_id,
		    series_mode_name(cmp->plan->method == PAIR_FORWARD ? SERIES_FORWARD : SERIES_REVERSE), (int)si->mm_only,
		    nums.buf, c->sha256) &&
	     db_run(db, id, err, "SELECT id FROM series WHERE queue=? AND sha256=?", "ss",
		    cmp->queue_dir, c->sha256);
	str_free(&nums);
	return ok;
}

/* A comparison's identity in any database: 128 random bits in hex, so
 * that comparisons of many machines brought into one never collide. */
static void new_uid(char out[33])
{
	unsigned char b[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && read(fd, b, sizeof(b)) == (ssize_t)sizeof(b);
	struct timespec ts;

	if (fd >= 0)
		close(fd);
	if (!ok) { /* no /dev/urandom: the time, the pid and an address */
		uint64_t x[2];

		clock_gettime(CLOCK_REALTIME, &ts);
		x[0] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		x[1] = (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)b;
		memcpy(b, x, sizeof(b));
	}
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static bool store_all(sqlite3 *db, const struct comparison *cmp, const char *version,
		      long long *cid, pb_err *err)
{
	long long pid = 0, sid = 0, kid[2];
	char uid[33];
	bool bisect = cmp->kind == KIND_BISECT;
	bool calibration = !cmp->patch && !cmp->series && !bisect;
	pb_str names;
	bool ok;

	if (cmp->patch && !db_store_patch(db, cmp->patch, cmp->queue_dir, &pid, err))
		return false;
	if (cmp->series && !store_series(db, cmp, &sid, err))
		return false;
	if (!store_kernel(db, cmp, SIDE_WITHOUT, &kid[0], err) ||
	    !store_kernel(db, cmp, SIDE_WITH, &kid[1], err))
		return false;
	str_init(&names);
	for (int i = 0; i < cmp->obs.nworkloads; i++)
		str_addf(&names, "%s%s", i ? " " : "", cmp->obs.workloads[i]->name);
	new_uid(uid);
	{
		const bool decided = cmp->findings.decided;
		const struct db_value v[] = {
			DBV_S("kind", comparison_kind_name(bisect ? KIND_BISECT
							: cmp->series ? KIND_SERIES
							: calibration ? KIND_CALIBRATION : KIND_PATCH)),
			DBV_ID("patch_id", pid),
			DBV_S("pair_method", pair_method_name(calibration ? PAIR_SAME : cmp->plan->method)),
			DBV_S("pair_detail", cmp->plan->detail),
			DBV_I("kernel_without", kid[0]),
			DBV_I("kernel_with", kid[1]),
			DBV_S("accel", cmp->booted ? accel_kind_name(cmp->accel.kind) : NULL),
			DBV_S("accel_reason", cmp->booted ? cmp->accel.reason : NULL),
			DBV_S("workloads", names.buf),
			DBV_S("workload_choice", cmp->workload_choice),
			DBV_I("boots_per_kernel", cmp->boots_per_kernel),
			DBV_I("iterations", cmp->obs.iterations),
			DBV_S("status", status_name(cmp->status)),
			DBV_S("started_at", cmp->started_at),
			DBV_S("finished_at", cmp->finished_at),
			DBV_D("wall_seconds", cmp->wall_seconds),
			DBV_S("perfbot_version", version),
			DBV_I("warmup", cmp->policy.warmup),
			DBV_I("seed", (long long)cmp->seed),
			DBV_D("gate_pct", cmp->policy.gate_pct),
			DBV_D("alpha", cmp->policy.alpha),
			DBV_D("beta", cmp->policy.beta),
			DBV_ID("noise_calibration", cmp->noise_calibration),
			DBV_S("verdict", decided ? verdict_name(cmp->findings.verdict) : NULL),
			DBV_S("behaviour", decided ? verdict_name(cmp->findings.behaviour) : NULL),
			DBV_ID("fa_splits", cmp->fa_splits),
			DBV_I("fa_flagged", cmp->fa_flagged),
			DBV_I("fa_metric_tests", cmp->fa_metric_tests),
			DBV_I("fa_metric_flags", cmp->fa_metric_flags),
			DBV_ID("series_id", sid),
			DBV_ID("guests_at_once", cmp->booted ? cmp->guests_at_once : 0),
			DBV_S("uid", uid),
			DBV_S("host", host_name()),
		};

		ok = db_insert(db, "comparisons", v, (int)PB_ARRAY_SIZE(v), cid, err);
	}
	str_free(&names);
	return ok && store_runs(db, cmp, *cid, kid, err) && store_results(db, cmp, *cid, err);
}

bool db_store_comparison(sqlite3 *db, const struct comparison *cmp, const char *version,
			 db_job_stored_fn *job_stored, long long *id, pb_err *err)
{
	if (cmp->job_id && !job_stored) {
		pb_seterr(err, "database: no job queue to mark job %lld done in", cmp->job_id);
		return false;
	}
	if (!db_exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (!store_all(db, cmp, version, id, err) ||
	    (cmp->job_id && !job_stored(db, cmp->job_id, *id, err))) {
		db_exec(db, "ROLLBACK", NULL);
		return false;
	}
	/* Fault injection for tests/e2e.sh: die with everything written but
	 * nothing committed, as a SIGKILL or a power cut would. */
	if (fault_injected("kill-before-commit"))
		raise(SIGKILL);
	return db_exec(db, "COMMIT", err);
}

long long db_count(sqlite3 *db, const char *sql, long long param)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, param);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A comparison's id, as the cursor reads it. */
struct id_row {
	long long id;
};
static const struct db_column comparison_id_cols[] = {
	DB_COLUMN(struct id_row, id, DB_INT64, "c.id"),
};

#define R struct db_comparison_outcome
static const struct db_column outcome_cols[] = {
	DB_COLUMN(R, id, DB_INT64, "c.id"),
	DB_ENUM_COLUMN(R, status, status_names, "c.status"),
	DB_COLUMN(R, decided, DB_INT, "c.verdict IS NOT NULL"),
	DB_ENUM_COLUMN(R, verdict, verdict_names, "c.verdict"),
	DB_ENUM_COLUMN(R, behaviour, verdict_names, "c.behaviour"),
};
#undef R

bool db_comparison_by_uid(sqlite3 *db, const char *uid, struct db_comparison_outcome *o,
			  bool *found, pb_err *err)
{
	struct db_cursor c;

	memset(o, 0, sizeof(*o));
	if (!db_cursor_open(&c, db, "database", outcome_cols, (int)PB_ARRAY_SIZE(outcome_cols), err,
			    "FROM comparisons c WHERE c.uid=?", "s", uid))
		return false;
	*found = db_cursor_step(&c, o);
	return db_cursor_close(&c, err);
}

long long db_comparison_of_uid(sqlite3 *db, const char *uid, enum comparison_kind kind, pb_err *err)
{
	struct db_cursor c;
	struct id_row r = { 0 };

	if (!db_cursor_open(&c, db, "database", comparison_id_cols, 1, err,
			    "FROM comparisons c WHERE c.uid=? AND c.kind=?", "ss", uid,
			    comparison_kind_name(kind)))
		return 0;
	if (!db_cursor_step(&c, &r))
		r.id = 0;
	return db_cursor_close(&c, err) ? r.id : 0;
}

struct uids_row {
	const char *uid, *calibration;
};

bool db_comparison_uids(sqlite3 *db, long long cid, char **uid, char **calibration_uid, pb_err *err)
{
	static const struct db_column cols[] = {
		DB_COLUMN(struct uids_row, uid, DB_TEXT_OR_NULL, "c.uid"),
		DB_COLUMN(struct uids_row, calibration, DB_TEXT_OR_NULL, "cal.uid"),
	};
	struct db_cursor c;
	struct uids_row r;

	*uid = *calibration_uid = NULL;
	if (!db_cursor_open(&c, db, "database", cols, (int)PB_ARRAY_SIZE(cols), err,
			    "FROM comparisons c LEFT JOIN comparisons cal ON cal.id=c.noise_calibration "
			    "WHERE c.id=?", "I", cid))
		return false;
	if (db_cursor_step(&c, &r)) {
		*uid = r.uid ? xstrdup(r.uid) : NULL;
		*calibration_uid = r.calibration ? xstrdup(r.calibration) : NULL;
	}
	return db_cursor_close(&c, err);
}

bool db_calibration_holds(sqlite3 *db, long long cid, int per_side, const char *key,
			  const char *version)
{
	struct db_cursor c;
	struct id_row r;
	bool found;

	if (!db_cursor_open(&c, db, "database", comparison_id_cols, 1, NULL,
			    "FROM comparisons c JOIN kernels k ON k.id = c.kernel_without WHERE c.id = ? "
			    "AND c.status = ? AND c.boots_per_kernel >= ? AND k.key = ? "
			    "AND c.perfbot_version = ?", "Isiss", cid, status_name(STATUS_MEASURED),
			    per_side, key, version))
		return false;
	found = db_cursor_step(&c, &r);
	return db_cursor_close(&c, NULL) && found;
}

/* A calibration's noise floor of one metric, as the cursor reads it. */
struct noise_row {
	const char *workload, *metric, *workload_sha256;
	int boots, deterministic, rounds;
	double between_cv_pct, within_cv_pct, paired_cv_pct;
};
#define R struct noise_row
static const struct db_column noise_cols[] = {
	DB_COLUMN(R, workload, DB_TEXT, "workload"),
	DB_COLUMN(R, metric, DB_TEXT, "metric"),
	DB_COLUMN(R, boots, DB_INT, "boots"),
	DB_COLUMN(R, between_cv_pct, DB_REAL_OR_NAN, "between_cv_pct"),
	DB_COLUMN(R, within_cv_pct, DB_REAL_OR_NAN, "within_cv_pct"),
	DB_COLUMN(R, deterministic, DB_INT, "deterministic"),
	DB_COLUMN(R, rounds, DB_INT, "rounds"),
	DB_COLUMN(R, paired_cv_pct, DB_REAL_OR_NAN, "paired_cv_pct"),
	DB_COLUMN(R, workload_sha256, DB_TEXT, "workload_sha256"),
};
#undef R

/* A calibration whose every boot ran under this QEMU build and, outside
 * tcg-icount (whose guest time the host's CPU does not change), on this
 * CPU model: two parameters, the QEMU version and the CPU. Rows from
 * before schema 9 have no CPU and count as this machine's. */
#define CALIBRATION_HERE                                                                          \
	"NOT EXISTS (SELECT 1 FROM runs r WHERE r.comparison_id=c.id AND (r.qemu_version<>? OR "  \
	"(c.accel<>" SQL_NAME(NAME_TCG_ICOUNT) " AND r.host_cpu IS NOT NULL AND r.host_cpu<>?)))"

bool db_load_noise(sqlite3 *db, enum accel_kind accel, const char *config_sha256, int iterations,
		   int warmup, struct noise_floor **out, int *n, long long *calibration,
		   long long *elsewhere, pb_err *err)
{
	struct db_cursor c;
	struct noise_row r;
	struct id_row cal;
	int cap = 0;

	*out = NULL;
	*n = 0;
	*calibration = 0;
	/* a kernel of the same .config first, then the newest */
	if (!db_cursor_open(&c, db, "database", comparison_id_cols, 1, err,
			    "FROM comparisons c JOIN kernels k ON k.id=c.kernel_without "
			    "WHERE c.kind=" SQL_NAME(NAME_CALIBRATION)
			      " AND c.status=" SQL_NAME(NAME_MEASURED) " AND c.accel=? "
			    "AND c.iterations=? AND c.warmup=? AND " CALIBRATION_HERE " "
			    "ORDER BY k.config_sha256=? DESC, c.finished_at DESC, c.id DESC LIMIT 1",
			    "siisss", accel_kind_name(accel), iterations, warmup, qemu_version(), host_cpu_model(),
			    config_sha256 ? config_sha256 : ""))
		return false;
	if (db_cursor_step(&c, &cal))
		*calibration = cal.id;
	db_cursor_close(&c, NULL);
	if (elsewhere) {
		/* a newer one from another QEMU or CPU (a cluster's node), set aside */
		*elsewhere = 0;
		if (!db_cursor_open(&c, db, "database", comparison_id_cols, 1, err,
				    "FROM comparisons c WHERE c.kind=" SQL_NAME(NAME_CALIBRATION)
				    " AND c.status=" SQL_NAME(NAME_MEASURED) " "
				    "AND c.accel=? AND c.iterations=? AND c.warmup=? AND c.finished_at > "
				    "coalesce((SELECT finished_at FROM comparisons WHERE id=?), '') AND NOT "
				    CALIBRATION_HERE " ORDER BY c.finished_at DESC, c.id DESC LIMIT 1",
				    "siiIss", accel_kind_name(accel), iterations, warmup, *calibration, qemu_version(),
				    host_cpu_model()))
			return false;
		if (db_cursor_step(&c, &cal))
			*elsewhere = cal.id;
		db_cursor_close(&c, NULL);
	}
	if (!*calibration)
		return true;
	if (!db_cursor_open(&c, db, "database", noise_cols, (int)PB_ARRAY_SIZE(noise_cols), err,
			    "FROM noise WHERE calibration_id=?", "I", *calibration))
		return false;
	while (db_cursor_step(&c, &r)) {
		struct noise_floor *nf;

		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			*out = xrealloc(*out, sizeof(**out) * (size_t)cap);
		}
		nf = &(*out)[(*n)++];
		nf->workload = xstrdup(r.workload);
		nf->metric = xstrdup(r.metric);
		nf->boots = r.boots;
		nf->between_cv_pct = r.between_cv_pct;
		nf->within_cv_pct = r.within_cv_pct;
		nf->deterministic = r.deterministic != 0;
		nf->rounds = r.rounds;
		nf->paired_cv_pct = r.paired_cv_pct;
		snprintf(nf->sha256, sizeof(nf->sha256), "%s", r.workload_sha256);
	}
	db_cursor_close(&c, NULL);
	return true;
}

long long db_measured_before(sqlite3 *db, const char *queue, int number, const char *patch_sha256,
			     const char *tree_sha256, const char *config_sha256,
			     const char *perfbot_version)
{
	struct id_row r = { 0 };
	struct db_cursor c;

	if (!db_cursor_open(&c, db, "database", comparison_id_cols, 1, NULL,
			    "FROM comparisons c JOIN patches p ON p.id=c.patch_id JOIN kernels k "
			    "ON k.id=c.kernel_with WHERE c.kind=" SQL_NAME(NAME_PATCH)
			      " AND p.queue=? AND p.number=? AND "
			    "p.sha256=? AND k.tree_sha256=? AND k.config_sha256=? AND c.perfbot_version=? "
			    "ORDER BY c.finished_at DESC, c.id DESC LIMIT 1",
			    "sissss", queue, number, patch_sha256, tree_sha256, config_sha256,
			    perfbot_version))
		return 0;
	if (!db_cursor_step(&c, &r))
		r.id = 0;
	db_cursor_close(&c, NULL);
	return r.id;
}

bool db_store_nightly(sqlite3 *db, const struct db_nightly *n, long long *id, pb_err *err)
{
	return db_run(db, id, err,
		      "INSERT INTO nightly (queue, started_at, finished_at, wall_seconds, "
		      "perfbot_version, tree_sha256, config_sha256, patches_run, patches_skipped, "
		      "regressions, behaviour_changes, failures, calibration_id, summary) "
		      "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULLIF(?,0),?)",
		      "sssdsssiiiiiIs", n->queue, n->started_at, n->finished_at, n->wall_seconds,
		      n->perfbot_version, n->tree_sha256, n->config_sha256, n->patches_run,
		      n->patches_skipped, n->regressions, n->behaviour_changes, n->failures,
		      n->calibration, n->summary);
}

/* The lock of this process, held until it exits (the kernel drops it when
 * perfbot dies, however it dies). */
static int lock_fd = -1;
static pid_t lock_pid; /* a forked child does not hold its parent's lock */

/* Takes the lock, or says who holds it (*busy) or why it cannot (err). */
static bool lock_try(const char *db_path, bool *busy, pb_err *err)
{
	char *path, held[128] = "";
	int fd;

	*busy = false;
	if (lock_fd >= 0 && lock_pid == getpid())
		return true;
	path = xasprintf("%s.lock", db_path);
	if (!db_prepare_path(path, err)) {
		free(path);
		return false;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		pb_seterr(err, "cannot open the lock %s: %s", path, strerror(errno));
		free(path);
		return false;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = pread(fd, held, sizeof(held) - 1, 0);

		held[n > 0 ? n : 0] = '\0';
		held[strcspn(held, "\n")] = '\0';
		pb_seterr(err, "another perfbot is working on %s (%s): try again when it is done", db_path,
			  held[0] ? held : "its lock is held");
		*busy = true;
		close(fd);
		free(path);
		return false;
	}
	{
		char *iso = iso_time_now(), *who = xasprintf("pid %d, since %s\n", (int)getpid(), iso);

		if (ftruncate(fd, 0) == 0 && pwrite(fd, who, strlen(who), 0) < 0)
			(void)0; /* the lock holds without its note */
		free(iso);
		free(who);
	}
	lock_fd = fd;
	lock_pid = getpid();
	free(path);
	return true;
}

bool db_lock(const char *db_path, pb_err *err)
{
	bool busy;

	/* no lock file beside what is not a perfbot database */
	return db_check(db_path, DB_READ_WRITE, err) && lock_try(db_path, &busy, err);
}

bool db_lock_wait(const char *db_path, volatile sig_atomic_t *stop, pb_err *err)
{
	bool busy, said = false;

	if (!db_check(db_path, DB_READ_WRITE, err))
		return false;
	while (!lock_try(db_path, &busy, err)) {
		if (!busy)
			return false;
		if (!said)
			event_progress("perfbot: %s; waiting\n", err->msg);
		said = true;
		if (stop && *stop) {
			pb_seterr(err, "stopped while waiting for the lock of %s", db_path);
			return false;
		}
		sleep(2);
	}
	return true;
}

/* The series comparison a bisect starts from, as read. */
#define R struct series_target
static const struct db_column series_target_cols[] = {
	DB_COLUMN(R, id, DB_INT64, "c.id"),
	DB_ENUM_COLUMN(R, status, status_names, "c.status"),
	DB_ENUM_COLUMN(R, accel, accel_kind_names, "c.accel"),
	DB_ENUM_COLUMN(R, mode, series_mode_names, "s.mode"),
	DB_COLUMN(R, mm_only, DB_INT, "s.mm_only"),
	DB_COLUMN(R, sha256, DB_TEXT, "s.sha256"),
	DB_COLUMN(R, name, DB_TEXT, "s.name"),
	DB_COLUMN(R, patches, DB_TEXT, "s.patches"),
};
static const struct db_column series_metric_cols[] = {
	DB_COLUMN(R, workload, DB_TEXT, "workload"),
	DB_COLUMN(R, metric, DB_TEXT, "metric"),
	DB_COLUMN(R, change, DB_TEXT, "verdict"),
	DB_COLUMN(R, change_pct, DB_REAL_OR_NAN, "change_pct"),
};
#undef R

static void series_target_copy(struct series_target *t)
{
	t->sha256 = xstrdup(t->sha256);
	t->name = xstrdup(t->name);
	t->patches = xstrdup(t->patches);
}

bool db_series_target(sqlite3 *db, const char *queue, long long cid, const char *workload,
		      const char *metric, struct series_target *t, pb_err *err)
{
	struct db_cursor c;
	bool found;

	memset(t, 0, sizeof(*t));
	if (!db_cursor_open(&c, db, "database", series_target_cols,
			    (int)PB_ARRAY_SIZE(series_target_cols), err,
			    "FROM comparisons c JOIN series s ON s.id=c.series_id "
			    "WHERE c.kind=" SQL_NAME(NAME_SERIES) " "
			    "AND (c.id=? OR (?=0 AND s.queue=?)) ORDER BY c.id DESC LIMIT 1",
			    "IIs", cid, cid, queue))
		return false;
	found = db_cursor_step(&c, t);
	if (found)
		series_target_copy(t);
	if (!db_cursor_close(&c, err))
		return false;
	if (!found) {
		if (cid)
			pb_seterr(err, "no series comparison %lld in the database", cid);
		else
			pb_seterr(err, "no series comparison of queue %s yet: perfbot run --series "
				  "measures one first", queue);
		return false;
	}
	/* the metric: the one named, else what the series showed, worst first */
	if (!db_cursor_open(&c, db, "database", series_metric_cols,
			    (int)PB_ARRAY_SIZE(series_metric_cols), err,
			    "FROM results WHERE comparison_id=? AND ((?<>'' AND workload=? AND metric=?) OR "
			    "(?='' AND verdict IN ('regression','behaviour change','improvement'))) "
			    "ORDER BY CASE verdict WHEN " SQL_NAME(NAME_REGRESSION)
			      " THEN 0 WHEN " SQL_NAME(NAME_BEHAVIOUR_CHANGE) " THEN 1 "
			    "ELSE 2 END, abs(coalesce(change_pct, 0)) DESC LIMIT 1",
			    "Issss", t->id, metric ? metric : "", workload ? workload : "",
			    metric ? metric : "", metric ? metric : "")) {
		series_target_free(t);
		return false;
	}
	found = db_cursor_step(&c, t);
	if (found) {
		t->workload = xstrdup(t->workload);
		t->metric = xstrdup(t->metric);
		t->change = xstrdup(t->change);
	}
	if (!db_cursor_close(&c, err)) {
		series_target_free(t);
		return false;
	}
	if (!found) {
		t->workload = xstrdup("");
		t->metric = xstrdup("");
		t->change = xstrdup("");
	}
	return true;
}

void series_target_free(struct series_target *t)
{
	free((char *)t->sha256);
	free((char *)t->name);
	free((char *)t->patches);
	free((char *)t->workload);
	free((char *)t->metric);
	free((char *)t->change);
	memset(t, 0, sizeof(*t));
}

bool db_store_bisect(sqlite3 *db, const struct bisect_record *b, long long *id, pb_err *err)
{
	bool ok = db_exec(db, "BEGIN IMMEDIATE", err);

	ok = ok &&
	     db_run(db, id, err,
		    "INSERT INTO bisects (series_comparison, workload, metric, change, npatches, "
		    "culprit, culprit_number, status, detail, steps, started_at, finished_at, "
		    "wall_seconds) VALUES (?,?,?,?,?,NULLIF(?,0),NULLIF(?,0),?,?,?,?,?,?)",
		    "Isssiiississd", b->series_comparison, b->workload, b->metric,
		    bisect_change_name(b->change), b->npatches, b->culprit, b->culprit_number,
		    bisect_status_name(b->status), b->detail, b->nsteps,
		    b->started_at, b->finished_at, b->wall_seconds);
	for (int i = 0; ok && i < b->nsteps; i++) {
		const struct bisect_step *s = &b->steps[i];

		ok = db_run(db, NULL, err,
			    "INSERT INTO bisect_steps (bisect_id, step, role, prefix_a, prefix_b, "
			    "comparison_id, verdict, bad) VALUES (?,?,?,?,?,?,?,?)",
			    "IisiiIsi", *id, i + 1, bisect_role_name(s->role), s->prefix_a, s->prefix_b,
			    s->comparison_id,
			    s->verdict, (int)s->bad);
	}
	if (!ok) {
		db_exec(db, "ROLLBACK", NULL);
		return false;
	}
	return db_exec(db, "COMMIT", err);
}
