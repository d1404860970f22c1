#include "db.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* bot/schema.sql, turned into a C string by the Makefile. */
extern const char perfbot_schema_sql[];

static bool exec(sqlite3 *db, const char *sql, pb_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pb_seterr(err, "database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return false;
	}
	return true;
}

static int user_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

bool db_open(const char *path, sqlite3 **out, pb_err *err)
{
	sqlite3 *db = NULL;
	int v;

	*out = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		pb_seterr(err, "database %s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return false;
	}
	sqlite3_busy_timeout(db, 30000);
	v = user_version(db);
	if (v < 0) {
		pb_seterr(err, "database %s: not an SQLite database (%s)", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return false;
	}
	if (!exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;", err)) {
		pb_seterr(err, "database %s: cannot switch to WAL: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return false;
	}
	if (v == 0) {
		/* A new database: the whole schema or nothing. */
		if (!exec(db, "BEGIN IMMEDIATE", err))
			goto fail;
		if (user_version(db) == 0 && !exec(db, perfbot_schema_sql, err)) {
			exec(db, "ROLLBACK", NULL);
			goto fail;
		}
		if (!exec(db, "COMMIT", err))
			goto fail;
		v = user_version(db);
	}
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
	sqlite3_close(db);
}

/* Binds a printf-like list: s text (NULL -> NULL), i int, I long long,
 * d double (NAN -> NULL). */
static bool run(sqlite3 *db, long long *rowid, pb_err *err, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc, i = 1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		pb_seterr(err, "database: %s", sqlite3_errmsg(db));
		return false;
	}
	if ((int)strlen(types) != sqlite3_bind_parameter_count(st)) {
		pb_seterr(err, "database: %d values for %d parameters in: %.80s", (int)strlen(types),
			  sqlite3_bind_parameter_count(st), sql);
		sqlite3_finalize(st);
		return false;
	}
	va_start(ap, types);
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

static char *join_lines(char **v, int n)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < n; i++)
		str_addf(&s, "%s%s", i ? "\n" : "", v[i]);
	return str_steal(&s);
}

static bool store_patch(sqlite3 *db, const struct pb_patch *p, const char *queue, long long *id,
			pb_err *err)
{
	char *fixes = join_lines(p->fixes, p->nfixes);
	bool ok = run(db, NULL, err,
		      "INSERT OR IGNORE INTO patches (queue, number, total, series, file, sha256, "
		      "subject, author, upstream, fixes, cc_stable, is_mm, mm_reason) "
		      "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
		      "siisssssssiis", queue, p->number, p->total, p->series, p->file, p->sha256,
		      p->subject, p->author, p->upstream, fixes, (int)p->cc_stable, (int)p->is_mm,
		      p->mm_reason) &&
		  run(db, id, err, "SELECT id FROM patches WHERE queue=? AND number=? AND sha256=?",
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
	return run(db, NULL, err,
		   "INSERT INTO kernels (key, version, tree_sha256, config_sha256, label, change_file, "
		   "change_sha256, reverse, build_status, build_seconds, build_log, failure) "
		   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(key) DO UPDATE SET "
		   "build_status=excluded.build_status, build_log=excluded.build_log, "
		   "failure=excluded.failure, build_seconds=CASE WHEN kernels.build_status='built' AND "
		   "excluded.build_status='built' THEN kernels.build_seconds ELSE excluded.build_seconds END",
		   "sssssssisdss", img->key, cmp->tree->version, cmp->tree->tarball_sha,
		   cmp->config->sha256, c->label, c->file, c->file ? c->sha256 : NULL, (int)c->reverse,
		   img->built ? "built" : "build-failed", img->build_seconds, img->log, img->failure) &&
	       run(db, id, err, "SELECT id FROM kernels WHERE key=?", "s", img->key);
}

static bool store_all(sqlite3 *db, const struct comparison *cmp, const char *version,
		      long long *cid, pb_err *err)
{
	long long pid, kid[2];
	pb_str names;
	bool ok;

	if (!store_patch(db, cmp->patch, cmp->queue_dir, &pid, err))
		return false;
	if (!store_kernel(db, cmp, SIDE_WITHOUT, &kid[0], err) ||
	    !store_kernel(db, cmp, SIDE_WITH, &kid[1], err))
		return false;
	str_init(&names);
	for (int i = 0; i < cmp->nworkloads; i++)
		str_addf(&names, "%s%s", i ? " " : "", cmp->workloads[i]->name);
	ok = run(db, cid, err,
		 "INSERT INTO comparisons (patch_id, pair_method, pair_detail, kernel_without, "
		 "kernel_with, accel, accel_reason, workloads, workload_choice, boots_per_kernel, "
		 "iterations, status, started_at, finished_at, wall_seconds, perfbot_version) "
		 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		 "IssIIssssiisssds", pid, pair_method_name(cmp->plan->method), cmp->plan->detail,
		 kid[0], kid[1], cmp->booted ? cmp->accel.name : NULL,
		 cmp->booted ? cmp->accel.reason : NULL, names.buf, cmp->workload_choice,
		 cmp->boots_per_kernel, cmp->iterations, cmp->status, cmp->started_at,
		 cmp->finished_at, cmp->wall_seconds, version);
	str_free(&names);
	if (!ok)
		return false;
	for (int b = 0; b < cmp->nboots; b++) {
		const struct boot *bt = &cmp->boots[b];
		long long rid;

		if (!run(db, &rid, err,
			 "INSERT INTO runs (comparison_id, kernel_id, side, boot_index, accel, "
			 "accel_reason, qemu_version, qemu_cmdline, outcome, detail, wall_seconds, "
			 "console_log, results_log) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
			 "IIsissssssdss", *cid, kid[bt->side], side_name(bt->side), b + 1,
			 cmp->accel.name, cmp->accel.reason, qemu_version(), bt->rec.qemu_cmdline,
			 boot_outcome_name(bt->rec.outcome), bt->rec.detail ? bt->rec.detail : "",
			 bt->rec.wall_seconds, bt->rec.console_log, bt->rec.results_log))
			return false;
		for (int i = 0; i < bt->rec.results.nsamples; i++) {
			const struct result_sample *s = &bt->rec.results.samples[i];

			/* A guest that repeats a line: the first value stands. */
			if (!run(db, NULL, err,
				 "INSERT OR IGNORE INTO samples (run_id, workload, metric, iteration, value) "
				 "VALUES (?,?,?,?,?)",
				 "Issid", rid, s->workload, s->metric, s->iteration, s->value))
				return false;
		}
	}
	for (int i = 0; i < cmp->nresults; i++) {
		const struct metric_result *m = &cmp->results[i];

		if (!run(db, NULL, err,
			 "INSERT INTO results (comparison_id, workload, metric, unit, kind, better, "
			 "n_without, n_with, median_without, median_with, change_pct, verdict) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
			 "Isssssiiddds", *cid, m->workload, m->def->name, m->def->unit,
			 m->def->kind == METRIC_TIME ? "time" : "behaviour",
			 m->def->better > 0 ? "higher" : "lower", m->n[0], m->n[1],
			 m->n[0] ? m->median[0] : NAN, m->n[1] ? m->median[1] : NAN, m->change_pct,
			 m->verdict))
			return false;
	}
	return true;
}

bool db_store_comparison(sqlite3 *db, const struct comparison *cmp, const char *version,
			 long long *id, pb_err *err)
{
	if (!exec(db, "BEGIN IMMEDIATE", err))
		return false;
	if (!store_all(db, cmp, version, id, err)) {
		exec(db, "ROLLBACK", NULL);
		return false;
	}
	return exec(db, "COMMIT", err);
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
