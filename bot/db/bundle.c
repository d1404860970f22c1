/* perfbot import: a bundle is a results database written elsewhere (a
 * Slurm job's own SQLite file). It is attached to results.db and copied
 * table by table with INSERT ... SELECT, every reference mapped by what
 * identifies a row in any database: a comparison's uid, a kernel's key, a
 * patch's queue, number and hash, a series' queue and hash, a run's
 * comparison and boot index. Column lists come from the schema itself,
 * so a column added later travels without a change here. */
#include "bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"

/* The columns of table but id, with each in map ({ column, expression })
 * replaced by its expression: "a, b, c" (names) and "x.a, (...), x.c". */
static void column_lists(sqlite3 *db, const char *table, const char *alias,
			 const char *const (*map)[2], size_t nmap, pb_str *names, pb_str *values)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q) ORDER BY cid", table);

	str_init(names);
	str_init(values);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *col = (const char *)sqlite3_column_text(st, 0);
			const char *expr = NULL;

			if (!strcmp(col, "id"))
				continue;
			for (size_t i = 0; i < nmap; i++)
				if (!strcmp(map[i][0], col))
					expr = map[i][1];
			str_addf(names, "%s%s", names->len ? ", " : "", col);
			if (expr)
				str_addf(values, "%s(%s)", values->len ? ", " : "", expr);
			else
				str_addf(values, "%s%s.%s", values->len ? ", " : "", alias, col);
		}
		sqlite3_finalize(st);
	}
	sqlite3_free(sql);
}

/* INSERT [OR IGNORE] INTO main.table (...) SELECT ... FROM rest. */
static bool copy_rows(sqlite3 *db, const char *table, const char *alias, const char *const (*map)[2],
		      size_t nmap, bool or_ignore, const char *rest, pb_err *err)
{
	pb_str names, values;
	char *sql;
	bool ok;

	column_lists(db, table, alias, map, nmap, &names, &values);
	sql = xasprintf("INSERT %sINTO main.%s (%s) SELECT %s FROM %s", or_ignore ? "OR IGNORE " : "",
			table, names.buf, values.buf, rest);
	ok = db_exec(db, sql, err);
	free(sql);
	str_free(&names);
	str_free(&values);
	return ok;
}

static long long bundle_count(sqlite3 *db, const char *sql)
{
	return db_count(db, sql, 0);
}

/* Whether schema ("" main, else "name.") has table name. */
static bool has_table(sqlite3 *db, const char *schema, const char *name)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM %ssqlite_master WHERE type='table' AND "
				    "name=%Q", schema, name);
	bool yes = db_count(db, sql, 0) > 0;

	sqlite3_free(sql);
	return yes;
}

bool bundle_check(const char *path, const char *perfbot_version, pb_err *err)
{
	sqlite3 *b = NULL;
	sqlite3_stmt *st;
	struct stat sb;
	long long ncomparisons;
	bool ok = false, seeded;
	int v = -1;

	/* the schema version first: a bundle of another perfbot is not to be
	 * upgraded (only a regular file is read here: a FIFO would block, and
	 * db_open_readonly says what anything else is) */
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sqlite3_open_v2(path, &b, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(b, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(b);
	b = NULL;
	if (v > 0 && v != DB_SCHEMA_VERSION) {
		pb_seterr(err, "bundle %s has schema version %d, this perfbot %d: it came from another "
			       "perfbot version (run its job again with this one)", path, v, DB_SCHEMA_VERSION);
		return false;
	}
	if (!db_open_readonly(path, &b, err))
		return false;
	seeded = has_table(b, "", "bundle_seed");
	ncomparisons = bundle_count(b, seeded ? "SELECT count(*) FROM comparisons WHERE uid NOT IN "
						"(SELECT uid FROM bundle_seed)"
					      : "SELECT count(*) FROM comparisons");
	if (ncomparisons < 0) {
		pb_seterr(err, "bundle %s cannot be read: %s", path, sqlite3_errmsg(b));
	} else if (ncomparisons == 0) {
		pb_seterr(err, "bundle %s holds no comparison%s", path, seeded ? " of its own" : "");
	} else if (bundle_count(b, "SELECT count(*) FROM comparisons WHERE uid IS NULL OR uid=''") > 0) {
		pb_seterr(err, "bundle %s has comparisons without a uid (stored before schema 9)", path);
	} else if (bundle_count(b, "SELECT count(*) FROM comparisons WHERE length(uid)<>32 OR "
				   "uid GLOB '*[^0-9a-f]*'") > 0) {
		/* it names their log directories: 32 hex digits, as perfbot makes them */
		pb_seterr(err, "bundle %s has a comparison whose uid is not perfbot's (32 hex digits)", path);
	} else {
		/* what its job started from came from home: measured there, by
		 * whichever version, and not brought back */
		char *sql = sqlite3_mprintf("SELECT perfbot_version FROM comparisons WHERE "
					    "perfbot_version <> %Q%s LIMIT 1", perfbot_version,
					    seeded ? " AND uid NOT IN (SELECT uid FROM bundle_seed)" : "");
		char *other = NULL;

		if (sqlite3_prepare_v2(b, sql, -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW)
				other = xstrdup((const char *)sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
		}
		sqlite3_free(sql);
		if (other) {
			char *v_other = visible(other);

			pb_seterr(err, "bundle %s was measured by perfbot %s, this is perfbot %s: another "
				       "version may boot and judge otherwise", path, v_other, perfbot_version);
			free(v_other);
			free(other);
		} else {
			ok = true;
		}
	}
	sqlite3_close(b);
	return ok;
}

/* One log to bring: the run it belongs to, the path it names, its comparison's uid. */
struct log_ref {
	long long run;
	char *from, *uid;
};

/* A log larger than this is no boot's: not brought. */
#define BUNDLE_LOG_MAX (64 << 20)

/* The log's content, from the bundle's bundle_files if it holds it, else
 * from the path itself if that is a regular file under root (the bundle's
 * directory: a job's reports beside its database), never larger than
 * BUNDLE_LOG_MAX: the path comes from the bundle, and the copy is
 * published with the report. NULL if neither. */
static char *log_content(sqlite3 *db, bool has_files, const char *from, const char *root, size_t *len)
{
	sqlite3_stmt *f;
	char *data = NULL, *real;
	struct stat st;
	size_t n = strlen(root);

	if (has_files &&
	    sqlite3_prepare_v2(db, "SELECT content FROM bundle.bundle_files WHERE path=?", -1, &f, NULL) == SQLITE_OK) {
		sqlite3_bind_text(f, 1, from, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(f) == SQLITE_ROW && sqlite3_column_type(f, 0) != SQLITE_NULL &&
		    sqlite3_column_bytes(f, 0) <= BUNDLE_LOG_MAX) {
			*len = (size_t)sqlite3_column_bytes(f, 0);
			data = xmalloc(*len + 1);
			if (*len)
				memcpy(data, sqlite3_column_blob(f, 0), *len);
		}
		sqlite3_finalize(f);
	}
	if (data)
		return data;
	real = realpath(from, NULL);
	if (real && !strncmp(real, root, n) && real[n] == '/' && stat(real, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size <= BUNDLE_LOG_MAX)
		data = read_file(real, len, NULL);
	free(real);
	return data;
}

/* The new rows' logs: each run's console and results log into
 * log_dir/imported-<uid>/<run>-<its file name> (a name that is no name,
 * "" or "..", gets the kind instead; cut to 100 bytes); the run then names
 * the copy. root: where a log may be read from disk. The runs are read
 * first, then changed. */
static bool bring_logs(sqlite3 *db, const char *log_dir, bool has_files, const char *root,
		       struct bundle_outcome *out, pb_err *err)
{
	static const char *const kinds[] = { "console_log", "results_log" };
	bool ok = true;

	for (int k = 0; ok && k < 2; k++) {
		char *sql = xasprintf("SELECT r.id, r.%s, c.uid FROM main.runs r JOIN main.comparisons c "
				      "ON c.id=r.comparison_id WHERE c.uid IN (SELECT uid FROM temp.import_new) "
				      "AND r.%s <> ''", kinds[k], kinds[k]);
		struct log_ref *refs = NULL;
		size_t n = 0, cap = 0;
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
			pb_seterr(err, "database: %s", sqlite3_errmsg(db));
			free(sql);
			return false;
		}
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				refs = xrealloc(refs, cap * sizeof(*refs));
			}
			refs[n].run = sqlite3_column_int64(st, 0);
			refs[n].from = xstrdup((const char *)sqlite3_column_text(st, 1));
			refs[n++].uid = xstrdup((const char *)sqlite3_column_text(st, 2));
		}
		sqlite3_finalize(st);
		free(sql);
		for (size_t i = 0; i < n; i++) {
			const char *slash = strrchr(refs[i].from, '/'), *base = slash ? slash + 1 : refs[i].from;
			char *dir = xasprintf("%s/imported-%s", log_dir, refs[i].uid), *to, *data, *upd;
			size_t len = 0;

			if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
				base = kinds[k];
			to = xasprintf("%s/%lld-%.100s", dir, refs[i].run, base);
			data = ok ? log_content(db, has_files, refs[i].from, root, &len) : NULL;
			if (ok && !data) {
				out->logs_missing++;
			} else if (ok) {
				upd = xasprintf("UPDATE main.runs SET %s=? WHERE id=?", kinds[k]);
				ok = mkdir_p(dir, err) && write_file_atomic(to, data, len, err) &&
				     db_run(db, NULL, err, upd, "sI", to, refs[i].run);
				out->logs += ok;
				free(upd);
			}
			free(data);
			free(dir);
			free(to);
			free(refs[i].from);
			free(refs[i].uid);
		}
		free(refs);
	}
	return ok;
}

/* Every table of the bundle's new comparisons, in the order references
 * need them; inside the caller's transaction. */
static bool copy_new(sqlite3 *db, pb_err *err)
{
	static const char *const cmp_map[][2] = {
		/* by number and hash: the queue is a path, another on a node; the
		 * one of the same queue path first, else the newest */
		{ "patch_id", "SELECT m.id FROM main.patches m JOIN bundle.patches b ON m.number=b.number AND "
			      "m.sha256=b.sha256 WHERE b.id=c.patch_id ORDER BY m.queue=b.queue DESC, m.id DESC "
			      "LIMIT 1" },
		{ "series_id", "SELECT m.id FROM main.series m JOIN bundle.series b ON m.sha256=b.sha256 "
			       "WHERE b.id=c.series_id ORDER BY m.queue=b.queue DESC, m.id DESC LIMIT 1" },
		{ "kernel_without", "SELECT m.id FROM main.kernels m JOIN bundle.kernels b ON m.key=b.key "
				    "WHERE b.id=c.kernel_without" },
		{ "kernel_with", "SELECT m.id FROM main.kernels m JOIN bundle.kernels b ON m.key=b.key "
				 "WHERE b.id=c.kernel_with" },
		{ "noise_calibration", "NULL" }, /* mapped below, once every comparison is in */
	};
	static const char *const run_map[][2] = {
		{ "comparison_id", "SELECT m.id FROM main.comparisons m WHERE m.uid=bc.uid" },
		{ "kernel_id", "SELECT m.id FROM main.kernels m JOIN bundle.kernels b ON m.key=b.key "
			       "WHERE b.id=r.kernel_id" },
	};
	static const char *const sample_map[][2] = {
		{ "run_id", "SELECT mr.id FROM main.runs mr JOIN main.comparisons mc ON "
			    "mc.id=mr.comparison_id WHERE mc.uid=bc.uid AND mr.boot_index=br.boot_index" },
	};
	static const char *const result_map[][2] = {
		{ "comparison_id", "SELECT m.id FROM main.comparisons m WHERE m.uid=bc.uid" },
	};
	static const char *const noise_map[][2] = {
		{ "calibration_id", "SELECT m.id FROM main.comparisons m WHERE m.uid=bc.uid" },
	};
	char *rest;
	bool ok;

	ok = copy_rows(db, "patches", "p", NULL, 0, true,
		       "bundle.patches p WHERE p.id IN (SELECT patch_id FROM bundle.comparisons WHERE uid IN "
		       "(SELECT uid FROM temp.import_new)) AND NOT EXISTS (SELECT 1 FROM main.patches m WHERE "
		       "m.number=p.number AND m.sha256=p.sha256)", err) &&
	     copy_rows(db, "series", "s", NULL, 0, true,
		       "bundle.series s WHERE s.id IN (SELECT series_id FROM bundle.comparisons WHERE uid IN "
		       "(SELECT uid FROM temp.import_new)) AND NOT EXISTS (SELECT 1 FROM main.series m WHERE "
		       "m.sha256=s.sha256)", err) &&
	     /* a kernel known here stays as it is, unless here it failed to
	      * build and there it was built (as store_kernel does) */
	     copy_rows(db, "kernels", "k", NULL, 0, false,
		       "bundle.kernels k WHERE k.id IN (SELECT kernel_without FROM bundle.comparisons WHERE "
		       "uid IN (SELECT uid FROM temp.import_new) UNION SELECT kernel_with FROM "
		       "bundle.comparisons WHERE uid IN (SELECT uid FROM temp.import_new)) "
		       "ON CONFLICT(key) DO UPDATE SET build_status=excluded.build_status, "
		       "build_seconds=excluded.build_seconds, build_log=excluded.build_log, "
		       "failure=excluded.failure WHERE kernels.build_status<>" SQL_NAME(NAME_BUILT) " AND "
		       "excluded.build_status=" SQL_NAME(NAME_BUILT), err) &&
	     copy_rows(db, "comparisons", "c", cmp_map, PB_ARRAY_SIZE(cmp_map), false,
		       "bundle.comparisons c WHERE c.uid IN (SELECT uid FROM temp.import_new) ORDER BY c.id",
		       err) &&
	     /* a calibration whose noise it used: here too, by its uid, else none */
	     db_exec(db, "UPDATE main.comparisons SET noise_calibration=(SELECT m.id FROM main.comparisons m "
			 "JOIN bundle.comparisons cal ON cal.uid=m.uid JOIN bundle.comparisons b ON "
			 "b.noise_calibration=cal.id WHERE b.uid=main.comparisons.uid) WHERE uid IN "
			 "(SELECT uid FROM temp.import_new)", err);
	if (!ok)
		return false;
	rest = xasprintf("bundle.runs r JOIN bundle.comparisons bc ON bc.id=r.comparison_id WHERE bc.uid IN "
			 "(SELECT uid FROM temp.import_new) ORDER BY r.id");
	ok = copy_rows(db, "runs", "r", run_map, PB_ARRAY_SIZE(run_map), false, rest, err);
	free(rest);
	ok = ok && copy_rows(db, "samples", "s", sample_map, PB_ARRAY_SIZE(sample_map), false,
			     "bundle.samples s JOIN bundle.runs br ON br.id=s.run_id JOIN bundle.comparisons bc "
			     "ON bc.id=br.comparison_id WHERE bc.uid IN (SELECT uid FROM temp.import_new)", err);
	ok = ok && copy_rows(db, "results", "x", result_map, PB_ARRAY_SIZE(result_map), false,
			     "bundle.results x JOIN bundle.comparisons bc ON bc.id=x.comparison_id WHERE "
			     "bc.uid IN (SELECT uid FROM temp.import_new)", err);
	ok = ok && copy_rows(db, "noise", "n", noise_map, PB_ARRAY_SIZE(noise_map), false,
			     "bundle.noise n JOIN bundle.comparisons bc ON bc.id=n.calibration_id WHERE "
			     "bc.uid IN (SELECT uid FROM temp.import_new)", err);
	return ok;
}

/* The bundle's bisects that are not here (a bisect is its series
 * comparison's uid and its start), with their steps; after copy_new, in
 * the caller's transaction. A step's comparison and the series' are here
 * by now: brought in the same bundle, or here before (what a job started
 * from). */
static bool copy_bisects(sqlite3 *db, struct bundle_outcome *out, pb_err *err)
{
	static const char *const bisect_map[][2] = {
		{ "series_comparison", "SELECT m.id FROM main.comparisons m WHERE m.uid=ib.suid" },
	};
	static const char *const step_map[][2] = {
		{ "bisect_id", "SELECT m.id FROM main.bisects m JOIN main.comparisons mc ON "
			       "mc.id=m.series_comparison WHERE mc.uid=ib.suid AND m.started_at=ib.started_at" },
		{ "comparison_id", "SELECT m.id FROM main.comparisons m JOIN bundle.comparisons bc ON "
				   "bc.uid=m.uid WHERE bc.id=s.comparison_id" },
	};
	long long orphan;
	bool ok = db_exec(db, "DROP TABLE IF EXISTS temp.import_bisects; CREATE TEMP TABLE import_bisects "
			      "AS SELECT b.id AS bid, bc.uid AS suid, b.started_at AS started_at FROM "
			      "bundle.bisects b JOIN bundle.comparisons bc ON bc.id=b.series_comparison "
			      "WHERE NOT EXISTS (SELECT 1 FROM main.bisects m JOIN main.comparisons mc ON "
			      "mc.id=m.series_comparison WHERE mc.uid=bc.uid AND m.started_at=b.started_at)",
			  err) &&
		  /* its series comparison is here (brought now or before), or
		   * the bisect has nothing to belong to */
		  ((orphan = db_count(db, "SELECT count(*) FROM temp.import_bisects WHERE suid NOT IN "
					  "(SELECT uid FROM main.comparisons WHERE uid IS NOT NULL)", 0)) == 0 ||
		   (pb_seterr(err, "it holds %lld bisect(s) of a series comparison this database does "
				   "not hold: import the series' bundle first", orphan), false)) &&
		  copy_rows(db, "bisects", "b", bisect_map, PB_ARRAY_SIZE(bisect_map), false,
			    "bundle.bisects b JOIN temp.import_bisects ib ON ib.bid=b.id ORDER BY b.id", err) &&
		  copy_rows(db, "bisect_steps", "s", step_map, PB_ARRAY_SIZE(step_map), false,
			    "bundle.bisect_steps s JOIN temp.import_bisects ib ON ib.bid=s.bisect_id "
			    "ORDER BY s.bisect_id, s.step", err);

	if (ok)
		out->bisects = (int)db_count(db, "SELECT count(*) FROM temp.import_bisects", 0);
	db_exec(db, "DROP TABLE IF EXISTS temp.import_bisects", NULL);
	return ok;
}

/* The log copies of the import under way, before its rollback: nothing
 * half-written stays. */
static void remove_log_copies(sqlite3 *db, const char *log_dir)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT uid FROM temp.import_new", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *d = xasprintf("%s/imported-%s", log_dir, sqlite3_column_text(st, 0));

		rm_rf(d);
		free(d);
	}
	sqlite3_finalize(st);
}

/* The bundle's directory, where its job left its reports: its real path,
 * "/nonexistent" if it has none. */
static char *bundle_root(const char *path)
{
	char *root, *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	root = realpath(slash ? dir : ".", NULL);
	free(dir);
	return root ? root : xstrdup("/nonexistent");
}

/* The ids the comparisons just imported took here, first to last, and
 * the hosts that measured them; in the import's transaction. */
static void imported_range(sqlite3 *db, struct bundle_outcome *out)
{
	sqlite3_stmt *st;

	out->first = db_count(db, "SELECT min(id) FROM main.comparisons WHERE uid IN (SELECT uid FROM "
				  "temp.import_new)", 0);
	out->last = db_count(db, "SELECT max(id) FROM main.comparisons WHERE uid IN (SELECT uid FROM "
				 "temp.import_new)", 0);
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT coalesce(host, '?') FROM main.comparisons WHERE uid IN "
				   "(SELECT uid FROM temp.import_new) ORDER BY 1", -1, &st, NULL) == SQLITE_OK) {
		size_t at = 0;

		while (sqlite3_step(st) == SQLITE_ROW && at < sizeof(out->hosts) - 1)
			at += (size_t)snprintf(out->hosts + at, sizeof(out->hosts) - at, "%s%s",
					       at ? " " : "", sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
}

bool bundle_import(sqlite3 *db, const char *path, const char *perfbot_version, const char *log_dir,
		   struct bundle_outcome *out, pb_err *err)
{
	bool ok, has_files, seeded;
	char *root;

	memset(out, 0, sizeof(*out));
	if (!bundle_check(path, perfbot_version, err))
		return false;
	root = bundle_root(path);
	if (!db_run(db, NULL, err, "ATTACH DATABASE ? AS bundle", "s", path)) {
		free(root);
		return false;
	}
	/* the new ones, outside the transaction so that a rollback keeps the
	 * list of the log copies to remove (this process holds the lock) */
	seeded = has_table(db, "bundle.", "bundle_seed");
	ok = db_exec(db, seeded ? "DROP TABLE IF EXISTS temp.import_new; CREATE TEMP TABLE import_new AS "
				  "SELECT uid FROM bundle.comparisons WHERE uid NOT IN (SELECT uid FROM "
				  "main.comparisons WHERE uid IS NOT NULL) AND uid NOT IN (SELECT uid FROM "
				  "bundle.bundle_seed)"
				: "DROP TABLE IF EXISTS temp.import_new; CREATE TEMP TABLE import_new AS "
				  "SELECT uid FROM bundle.comparisons WHERE uid NOT IN (SELECT uid FROM "
				  "main.comparisons WHERE uid IS NOT NULL)", err) &&
	     /* deferred: BEGIN IMMEDIATE would take the attached bundle's write
	      * lock too, and wait on a job still writing it; the first INSERT
	      * locks main alone (this process holds perfbot's lock) */
	     db_exec(db, "BEGIN", err);
	if (!ok)
		goto detach;
	has_files = has_table(db, "bundle.", "bundle_files");
	out->comparisons = (int)db_count(db, seeded ? "SELECT count(*) FROM bundle.comparisons WHERE uid "
						      "NOT IN (SELECT uid FROM bundle.bundle_seed)"
						    : "SELECT count(*) FROM bundle.comparisons", 0);
	out->imported = (int)db_count(db, "SELECT count(*) FROM temp.import_new", 0);
	if (out->imported < 0 || out->comparisons < 0) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(db));
		ok = false;
	}
	ok = ok && (!out->imported || (copy_new(db, err) && copy_bisects(db, out, err) &&
				       bring_logs(db, log_dir, has_files, root, out, err)));
	if (ok && out->imported)
		imported_range(db, out);
	if (ok)
		ok = db_exec(db, "COMMIT", err);
	if (!ok) {
		db_exec(db, "ROLLBACK", NULL);
		remove_log_copies(db, log_dir);
		memset(out, 0, sizeof(*out));
	}
detach:
	db_exec(db, "DROP TABLE IF EXISTS temp.import_new", NULL);
	db_exec(db, "DETACH DATABASE bundle", NULL);
	free(root);
	if (!ok && !strstr(err->msg, path)) {
		/* say which bundle: SQLite's message names no database */
		char *msg = xstrdup(err->msg);

		pb_seterr(err, "importing %s: %s", path, msg);
		free(msg);
	}
	return ok;
}

void bundle_newest_uid(const char *path, enum comparison_kind kind, char uid[33])
{
	sqlite3 *b = NULL;
	pb_err err;
	sqlite3_stmt *st;

	uid[0] = '\0';
	if (!db_open_readonly(path, &b, &err))
		return;
	if (sqlite3_prepare_v2(b, has_table(b, "", "bundle_seed")
					  ? "SELECT uid FROM comparisons WHERE kind=? AND uid NOT IN "
					    "(SELECT uid FROM bundle_seed) ORDER BY id DESC LIMIT 1"
					  : "SELECT uid FROM comparisons WHERE kind=? ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, comparison_kind_name(kind), -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(uid, 33, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	db_close(b);
}

/* One log into bundle_files, if it is a regular file of at most
 * BUNDLE_LOG_MAX; *missing counts one that is not. */
static bool pack_one(sqlite3 *b, sqlite3_stmt *ins, const char *path, int *packed, int *missing,
		     pb_err *err)
{
	struct stat st;
	size_t len = 0;
	char *data = NULL;
	bool ok = true;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= BUNDLE_LOG_MAX)
		data = read_file(path, &len, NULL);
	if (!data) {
		(*missing)++;
		return true;
	}
	sqlite3_reset(ins);
	sqlite3_bind_text(ins, 1, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_blob(ins, 2, data, (int)len, SQLITE_TRANSIENT);
	if (sqlite3_step(ins) != SQLITE_DONE) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(b));
		ok = false;
	} else {
		(*packed)++;
	}
	free(data);
	return ok;
}

bool bundle_pack(const char *path, const char *perfbot_version, int *packed, int *missing,
		 pb_err *err)
{
	sqlite3 *b = NULL;
	sqlite3_stmt *logs = NULL, *ins = NULL;
	bool ok;

	*packed = *missing = 0;
	if (!bundle_check(path, perfbot_version, err))
		return false;
	if (sqlite3_open_v2(path, &b, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		pb_seterr(err, "%s: %s", path, b ? sqlite3_errmsg(b) : "cannot open");
		sqlite3_close(b);
		return false;
	}
	sqlite3_busy_timeout(b, 30000);
	ok = db_exec(b, "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS bundle_files "
			"(path TEXT PRIMARY KEY, content BLOB NOT NULL)", err);
	/* not the logs of what the job started from: home has them */
	if (ok && (sqlite3_prepare_v2(b, has_table(b, "", "bundle_seed")
					      ? "SELECT r.console_log FROM runs r JOIN comparisons c ON "
						"c.id=r.comparison_id WHERE r.console_log <> '' AND c.uid NOT IN "
						"(SELECT uid FROM bundle_seed) UNION SELECT r.results_log FROM runs "
						"r JOIN comparisons c ON c.id=r.comparison_id WHERE r.results_log "
						"<> '' AND c.uid NOT IN (SELECT uid FROM bundle_seed)"
					      : "SELECT console_log FROM runs WHERE console_log <> '' UNION "
						"SELECT results_log FROM runs WHERE results_log <> ''",
				      -1, &logs, NULL) != SQLITE_OK ||
		   sqlite3_prepare_v2(b, "INSERT OR REPLACE INTO bundle_files(path, content) VALUES (?, ?)",
				      -1, &ins, NULL) != SQLITE_OK)) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(b));
		ok = false;
	}
	while (ok && sqlite3_step(logs) == SQLITE_ROW)
		ok = pack_one(b, ins, (const char *)sqlite3_column_text(logs, 0), packed, missing, err);
	sqlite3_finalize(logs);
	sqlite3_finalize(ins);
	ok = ok && db_exec(b, "COMMIT", err);
	if (!ok) {
		db_exec(b, "ROLLBACK", NULL);
		*packed = 0;
		if (!strstr(err->msg, path)) {
			char *msg = xstrdup(err->msg);

			pb_seterr(err, "packing %s: %s", path, msg);
			free(msg);
		}
	}
	sqlite3_close(b);
	return ok;
}

/* A database at path and what SQLite keeps beside it, gone (a stale -wal
 * would be replayed into the new one). */
static void remove_db_files(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };

	for (size_t i = 0; i < PB_ARRAY_SIZE(ext); i++) {
		char *p = xasprintf("%s%s", path, ext[i]);

		unlink(p);
		free(p);
	}
}

bool bundle_start_from(const char *seed, const char *path, pb_err *err)
{
	sqlite3 *from = NULL, *b = NULL;
	sqlite3_backup *copy;
	char *uri;
	bool ok = true;

	/* a perfbot database first (one line says what else it is) */
	if (!db_open_readonly(seed, &from, err))
		return false;
	db_close(from);
	from = NULL;
	/* then read as immutable: many nodes start from it at once, over a
	 * shared filesystem, so no lock, no -shm and nothing written beside it;
	 * unless its -wal still holds pages (a writer not closed), which only
	 * a normal read sees */
	{
		char *wal = xasprintf("%s-wal", seed);
		struct stat ws;
		bool settled = stat(wal, &ws) != 0 || ws.st_size == 0;

		free(wal);
		uri = sqlite3_mprintf(settled ? "file:%s?immutable=1" : "file:%s?mode=ro", seed);
	}
	for (const char *c = seed; *c; c++)
		if (*c == '%' || *c == '#' || *c == '?') {
			/* SQLite's URI would read these otherwise */
			pb_seterr(err, "%s: a path with %%, # or ? cannot start a job's database", seed);
			sqlite3_free(uri);
			return false;
		}
	if (sqlite3_open_v2(uri, &from, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		pb_seterr(err, "%s: %s", seed, from ? sqlite3_errmsg(from) : "cannot open");
		sqlite3_close(from);
		sqlite3_free(uri);
		return false;
	}
	sqlite3_free(uri);
	remove_db_files(path);
	/* SQLite's own copy: a consistent one, whatever the seed's journal */
	if (sqlite3_open_v2(path, &b, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    !(copy = sqlite3_backup_init(b, "main", from, "main")) ||
	    (sqlite3_backup_step(copy, -1), sqlite3_backup_finish(copy)) != SQLITE_OK) {
		pb_seterr(err, "%s: %s", path, b ? sqlite3_errmsg(b) : "cannot open");
		ok = false;
	}
	sqlite3_close(from);
	ok = ok && db_exec(b, "BEGIN; DROP TABLE IF EXISTS bundle_files; CREATE TABLE IF NOT EXISTS "
			      "bundle_seed (uid TEXT PRIMARY KEY); INSERT OR IGNORE INTO bundle_seed SELECT "
			      "uid FROM comparisons WHERE uid IS NOT NULL; COMMIT", err);
	sqlite3_close(b);
	if (!ok) {
		char *msg = xstrdup(err->msg);

		remove_db_files(path);
		pb_seterr(err, "starting %s from %s: %s", path, seed, msg);
		free(msg);
	}
	return ok;
}

bool bundle_export(const char *db_path, const char *const *uids, int n, const char *path, pb_err *err)
{
	sqlite3 *db = NULL;
	bool ok;

	remove_db_files(path);
	if (!db_open(path, &db, err))
		return false;
	ok = db_run(db, NULL, err, "ATTACH DATABASE ? AS bundle", "s", db_path) &&
	     db_exec(db, "CREATE TEMP TABLE import_new (uid TEXT PRIMARY KEY)", err);
	for (int i = 0; ok && i < n; i++)
		ok = db_run(db, NULL, err, "INSERT OR IGNORE INTO temp.import_new SELECT uid FROM "
					   "bundle.comparisons WHERE uid=?", "s", uids[i]);
	ok = ok && db_exec(db, "BEGIN", err) && copy_new(db, err) && db_exec(db, "COMMIT", err);
	if (!ok)
		db_exec(db, "ROLLBACK", NULL);
	db_exec(db, "DETACH DATABASE bundle", NULL);
	db_close(db);
	if (!ok) {
		char *msg = xstrdup(err->msg);

		remove_db_files(path);
		pb_seterr(err, "exporting to %s: %s", path, msg);
		free(msg);
	}
	return ok;
}
