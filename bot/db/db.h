/* results.db: SQLite, schema in bot/db/schema.sql, WAL, one transaction per
 * comparison so that nothing is ever half-written. */
#ifndef PERFBOT_DB_H
#define PERFBOT_DB_H

#include <signal.h>
#include <stddef.h>
#include <sqlite3.h>

#include "comparison.h"
#include "names.h"
#include "util.h"

#define DB_SCHEMA_VERSION 10

/* What a command does with the database: run, submit, nightly, calibrate
 * and perfbotd write; jobs and report only read. */
enum db_mode { DB_READ_WRITE, DB_READ_ONLY };

/* Opens for writing (creating it and its schema if it is missing or a
 * 0-byte file, upgrading an older schema in place, switching to WAL).
 * Refuses, before writing a byte, what is not perfbot's: a path that is not
 * a regular file, a file that is not SQLite, a database of other tables or
 * an unknown schema version, or one that cannot be written. */
bool db_open(const char *path, sqlite3 **db, pb_err *err);
/* Opens an existing perfbot database of the current schema read-only
 * (SQLITE_OPEN_READONLY: no schema, no WAL switch, no upgrade; works on a
 * read-only file). */
bool db_open_readonly(const char *path, sqlite3 **db, pb_err *err);
/* The checks of db_open (or db_open_readonly), writing nothing: for what
 * must refuse a bad database before it creates anything (a lock file,
 * perfbotd's detaching). A missing or empty file passes for writing. */
bool db_check(const char *path, enum db_mode mode, pb_err *err);
/* Before writing path (a database or a lock): perfbot's own state
 * directory (layout.h) is made on first use, for a file directly in it;
 * root is refused one owned by another user (the package's perfbot),
 * whose services could not write what root left. A missing directory
 * anywhere else is the user's typo, refused when the file is opened. */
bool db_prepare_path(const char *path, pb_err *err);
void db_close(sqlite3 *db);

/* Stores the comparison with its patch, kernels, runs, samples and results
 * in one transaction; *id is the comparison's row id. A comparison made for
 * one of perfbotd's jobs (cmp->job_id) has its job marked done in the same
 * transaction, by the hook below. */
/* What db_store_comparison does, inside its transaction, for the job a
 * comparison was made for: perfbotd's caller passes jobdb_complete, so that
 * the queue depends on the database and not the other way round. */
typedef bool db_job_stored_fn(sqlite3 *db, long long job, long long comparison, pb_err *err);
bool db_store_comparison(sqlite3 *db, const struct comparison *cmp, const char *perfbot_version,
			 db_job_stored_fn *job_stored, long long *id, pb_err *err);

/* The noise floor of the newest calibration under accel with the same
 * iterations and warm-up (a boot median of 1 iteration is noisier than one
 * of 5: another's noise would be a wrong prior), one of a kernel built
 * from the same .config first (none: *n = 0, *calibration = 0), whose
 * boots ran under this QEMU build and, outside tcg-icount, on this host
 * CPU model. *elsewhere (if not NULL): a newer calibration set aside as
 * another QEMU's or CPU's, else 0. */
bool db_load_noise(sqlite3 *db, enum accel_kind accel, const char *config_sha256, int iterations,
		   int warmup, struct noise_floor **noise, int *n, long long *calibration,
		   long long *elsewhere, pb_err *err);

/* The row of patch p of queue (added if missing); its id into *id. */
struct pb_patch;
bool db_store_patch(sqlite3 *db, const struct pb_patch *p, const char *queue, long long *id,
		    pb_err *err);

/* The newest patch comparison of this patch file (queue, number, sha256)
 * on this base tree and config by this perfbot version; 0 if none. */
long long db_measured_before(sqlite3 *db, const char *queue, int number, const char *patch_sha256,
			     const char *tree_sha256, const char *config_sha256,
			     const char *perfbot_version);

/* A nightly's summary, a row of the nightly table. */
struct db_nightly {
	const char *queue, *started_at, *finished_at, *perfbot_version, *tree_sha256;
	const char *config_sha256, *summary;
	double wall_seconds;
	int patches_run, patches_skipped, regressions, behaviour_changes, failures;
	long long calibration; /* 0: none */
};
bool db_store_nightly(sqlite3 *db, const struct db_nightly *n, long long *id, pb_err *err);

/* <db_path>.lock, exclusive, for as long as this process lives: two runs,
 * or a run and a nightly, never work on one database at once. Fails (err
 * names the holder) when another perfbot has it; true if this one does. */
bool db_lock(const char *db_path, pb_err *err);
/* The same, waiting (every 2 s) while another perfbot has it, until *stop
 * is set (stop may be NULL). */
bool db_lock_wait(const char *db_path, volatile sig_atomic_t *stop, pb_err *err);

/* Runs one statement, binding a printf-like list: s text (NULL -> NULL),
 * i int, I long long, d double (NAN -> NULL). *rowid (if not NULL) gets the
 * first column of a returned row, else the last inserted row id. */
bool db_run(sqlite3 *db, long long *rowid, pb_err *err, const char *sql, const char *types, ...);
/* One column's value of an INSERT, bound by the column's name: text
 * (NULL: NULL), an integer (an id of none, 0, as NULL with DBV_ID), a
 * real (NAN: NULL). */
struct db_value {
	const char *column;
	enum { DBV_TEXT, DBV_INT, DBV_REAL } type;
	bool zero_null;
	const char *s;
	long long i;
	double d;
};
#define DBV_S(col, v) { .column = (col), .type = DBV_TEXT, .s = (v) }
#define DBV_I(col, v) { .column = (col), .type = DBV_INT, .i = (v) }
#define DBV_ID(col, v) { .column = (col), .type = DBV_INT, .i = (v), .zero_null = true }
#define DBV_D(col, v) { .column = (col), .type = DBV_REAL, .d = (v) }
/* INSERT INTO table (each value's column) VALUES (each value); *rowid
 * (if not NULL) gets the new row's id. */
bool db_insert(sqlite3 *db, const char *table, const struct db_value *v, int n, long long *rowid,
	       pb_err *err);
/* Runs SQL text of one or more statements. */
bool db_exec(sqlite3 *db, const char *sql, pb_err *err);

/* Named columns: a query's row is a struct, and a table of db_column
 * names each of its fields once, with the SQL expression it is read from.
 * The SELECT list is made from the table ("expr AS name, ...") and each
 * field is found by its name in the statement, never by its position: a
 * column added to or missing from a query cannot shift the others, and
 * one the statement lacks is an error. */
enum db_type {
	DB_TEXT,        /* const char *: "" for NULL; valid until the next step */
	DB_TEXT_OR_NULL, /* const char *: NULL for NULL; valid until the next step */
	DB_INT,         /* int: 0 for NULL */
	DB_INT64,       /* long long: 0 for NULL */
	DB_REAL,        /* double: 0 for NULL, as sqlite3_column_double */
	DB_REAL_OR_NAN, /* double: NAN for NULL (SQLite stores no NaN) */
	DB_ENUM,        /* an enum of the model, from its name (names.h): the value
			 * 0 for NULL; a name the table lacks fails the step */
};

struct db_column {
	const char *name, *expr;
	enum db_type type;
	size_t offset;
	const struct pb_names *names; /* DB_ENUM's */
};
#define DB_COLUMN(row, field, type_, expr_) \
	{ .name = #field, .expr = (expr_), .type = (type_), .offset = offsetof(row, field) }
/* A column whose AS name is not a field's (kernel[0].label: "kernel_0_label"). */
#define DB_COLUMN_AS(name_, expr_, type_, offset_) \
	{ .name = (name_), .expr = (expr_), .type = (type_), .offset = (offset_) }
/* An enum field, read from its name: one parse, at the database. */
#define DB_ENUM_COLUMN(row, field, names_, expr_) \
	{ .name = #field, .expr = (expr_), .type = DB_ENUM, .offset = offsetof(row, field), \
	  .names = &(names_) }
#define DB_ENUM_COLUMN_AS(name_, expr_, names_, offset_) \
	{ .name = (name_), .expr = (expr_), .type = DB_ENUM, .offset = (offset_), .names = &(names_) }
#define DB_MAX_COLUMNS 96

/* A query being read row by row into a struct. */
struct db_cursor {
	sqlite3 *db;
	sqlite3_stmt *st;
	const struct db_column *cols;
	int ncols, index[DB_MAX_COLUMNS];
	const char *what;   /* the error's prefix: "database", "report" */
	bool failed;
	char bad[200];      /* a stored name the model lacks, for db_cursor_close */
};

/* Prepares "SELECT <cols> <tail>", binding as db_run does; err (prefixed
 * with what) if it cannot. */
bool db_cursor_open(struct db_cursor *c, sqlite3 *db, const char *what,
		    const struct db_column *cols, int ncols, pb_err *err, const char *tail,
		    const char *types, ...);
/* The same over SQL text of its own, whose columns are found by name. */
bool db_cursor_open_sql(struct db_cursor *c, sqlite3 *db, const char *what,
			const struct db_column *cols, int ncols, pb_err *err, const char *sql);
/* The next row into *row; false at the end or on an error (c->failed). */
bool db_cursor_step(struct db_cursor *c, void *row);
/* The first row into *row, *found false if there is none; false (err,
 * and the cursor closed) if the step failed: a query's error, or a
 * stored name the model lacks, is not "none". */
bool db_cursor_step_one(struct db_cursor *c, void *row, bool *found, pb_err *err);
/* Finalizes; false (err, if not NULL) if a step failed. */
bool db_cursor_close(struct db_cursor *c, pb_err *err);

/* The series comparison a bisect starts from (cid, else the newest of
 * queue) and the metric it bisects: workload.metric when named (its
 * verdict in change; "" if the series has no such result), else what the
 * series showed, a regression first, then a behaviour change, then an
 * improvement, the largest change first ("" where it showed none). */
struct series_target {
	long long id;
	enum comparison_status status;
	enum accel_kind accel;
	enum series_mode mode;
	const char *sha256, *name, *patches;
	int mm_only;
	const char *workload, *metric, *change;
	double change_pct;
};
bool db_series_target(sqlite3 *db, const char *queue, long long cid, const char *workload,
		      const char *metric, struct series_target *t, pb_err *err);
void series_target_free(struct series_target *t);

/* A bisect and its steps, stored in one transaction. */
struct bisect_step {
	enum bisect_role role;
	int prefix_a, prefix_b;  /* the kernels of the series' first prefix_a / prefix_b patches */
	long long comparison_id;
	const char *verdict;     /* the metric's verdict, or the kernels' status: a name */
	bool bad;                /* prefix_b showed the change against prefix_a */
	bool good;               /* it showed no change (neither: undecided; not stored) */
};
struct bisect_record {
	long long series_comparison;
	const char *workload, *metric;
	enum bisect_change change;
	int npatches, culprit, culprit_number; /* culprit 0: none */
	enum bisect_status status;
	const char *detail;
	struct bisect_step *steps;
	int nsteps;
	const char *started_at, *finished_at;
	double wall_seconds;
};
bool db_store_bisect(sqlite3 *db, const struct bisect_record *b, long long *id, pb_err *err);

/* What a stored comparison came to, found by its uid (a job's, a node's):
 * *found false if none. */
struct db_comparison_outcome {
	long long id;
	enum comparison_status status;
	int decided;                 /* a verdict was stored */
	enum verdict verdict, behaviour;
};
bool db_comparison_by_uid(sqlite3 *db, const char *uid, struct db_comparison_outcome *o,
			  bool *found, pb_err *err);
/* The id of the comparison of kind with uid; 0 if none. */
long long db_comparison_of_uid(sqlite3 *db, const char *uid, enum comparison_kind kind, pb_err *err);
/* The uid of comparison cid and of the calibration whose noise it used
 * (NULL where there is none, or it was stored before schema 9). Free them. */
bool db_comparison_uids(sqlite3 *db, long long cid, char **uid, char **calibration_uid,
			pb_err *err);
/* Calibration cid was measured by this perfbot version with at least
 * per_side boots a side on the kernel of key. */
bool db_calibration_holds(sqlite3 *db, long long cid, int per_side, const char *key,
			  const char *version);

/* Helpers the report and the tests use. */
long long db_count(sqlite3 *db, const char *sql_with_one_int_param, long long param);

#endif
