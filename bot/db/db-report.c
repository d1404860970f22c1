/* The report's queries over results.db: one column table per row struct
 * (see db-report.h), the only place that names the columns each page reads. */
#include "db-report.h"

#define R struct patch_page_row
/* The patch's own columns: a patch page's, and a queue patch's alone. */
#define PATCH_COLUMNS                                                   \
	DB_COLUMN(R, number, DB_INT, "p.number"),                       \
	DB_COLUMN(R, total, DB_INT, "p.total"),                         \
	DB_COLUMN(R, series, DB_TEXT, "p.series"),                      \
	DB_COLUMN(R, sha256, DB_TEXT, "p.sha256"),                      \
	DB_COLUMN(R, subject, DB_TEXT, "p.subject"),                    \
	DB_COLUMN(R, author, DB_TEXT, "p.author"),                      \
	DB_COLUMN(R, upstream, DB_TEXT, "p.upstream"),                  \
	DB_COLUMN(R, cc_stable, DB_INT, "p.cc_stable"),                 \
	DB_COLUMN(R, fixes, DB_TEXT, "p.fixes"),                        \
	DB_COLUMN(R, mm_reason, DB_TEXT, "p.mm_reason"),                \
	DB_COLUMN(R, file, DB_TEXT, "p.file"),                          \
	DB_COLUMN(R, queue, DB_TEXT, "p.queue"),                        \
	DB_COLUMN(R, message_id, DB_TEXT, "p.message_id"),              \
	DB_COLUMN(R, in_reply_to, DB_TEXT, "p.in_reply_to"),            \
	DB_COLUMN(R, mail_to, DB_TEXT, "p.mail_to"),                    \
	DB_COLUMN(R, mail_cc, DB_TEXT, "p.mail_cc"),                    \
	DB_COLUMN(R, mail_date, DB_TEXT, "p.mail_date")
static const struct db_column patch_page_cols[] = {
	PATCH_COLUMNS,
	DB_ENUM_COLUMN(R, kind, comparison_kind_names, "c.kind"),
	DB_COLUMN(R, series_name, DB_TEXT, "s.name"),
	DB_COLUMN(R, series_description, DB_TEXT, "s.description"),
	DB_ENUM_COLUMN(R, series_mode, series_mode_names, "s.mode"),
	DB_COLUMN(R, series_patches, DB_TEXT, "s.patches"),
	DB_COLUMN(R, series_mm_only, DB_INT, "s.mm_only"),
	DB_COLUMN(R, series_queue, DB_TEXT, "s.queue"),
	DB_COLUMN(R, series_cover_message_id, DB_TEXT, "s.cover_message_id"),
	DB_ENUM_COLUMN(R, pair_method, pair_method_names, "c.pair_method"),
	DB_COLUMN(R, pair_detail, DB_TEXT, "c.pair_detail"),
	DB_ENUM_COLUMN(R, accel, accel_kind_names, "c.accel"),
	DB_COLUMN(R, accel_reason, DB_TEXT, "c.accel_reason"),
	DB_ENUM_COLUMN(R, status, status_names, "c.status"),
	DB_COLUMN(R, workloads, DB_TEXT, "c.workloads"),
	DB_COLUMN(R, workload_choice, DB_TEXT, "c.workload_choice"),
	DB_COLUMN(R, boots_per_kernel, DB_INT, "c.boots_per_kernel"),
	DB_COLUMN(R, iterations, DB_INT, "c.iterations"),
	DB_COLUMN(R, started_at, DB_TEXT, "c.started_at"),
	DB_COLUMN(R, finished_at, DB_TEXT, "c.finished_at"),
	DB_COLUMN(R, wall_seconds, DB_REAL, "c.wall_seconds"),
	/* AS names are the fields' names: kernel[0].label is "kernel_0_label" */
	DB_COLUMN_AS("kernel_0_label", "kw.label", DB_TEXT, offsetof(R, kernel[0].label)),
	DB_COLUMN_AS("kernel_0_key", "kw.key", DB_TEXT, offsetof(R, kernel[0].key)),
	DB_ENUM_COLUMN_AS("kernel_0_build_status", "kw.build_status", build_status_names, offsetof(R, kernel[0].build_status)),
	DB_COLUMN_AS("kernel_0_failure", "kw.failure", DB_TEXT, offsetof(R, kernel[0].failure)),
	DB_COLUMN_AS("kernel_1_label", "kx.label", DB_TEXT, offsetof(R, kernel[1].label)),
	DB_COLUMN_AS("kernel_1_key", "kx.key", DB_TEXT, offsetof(R, kernel[1].key)),
	DB_ENUM_COLUMN_AS("kernel_1_build_status", "kx.build_status", build_status_names, offsetof(R, kernel[1].build_status)),
	DB_COLUMN_AS("kernel_1_failure", "kx.failure", DB_TEXT, offsetof(R, kernel[1].failure)),
	DB_COLUMN_AS("kernel_0_build_log", "kw.build_log", DB_TEXT, offsetof(R, kernel[0].build_log)),
	DB_COLUMN_AS("kernel_1_build_log", "kx.build_log", DB_TEXT, offsetof(R, kernel[1].build_log)),
	DB_COLUMN(R, base_version, DB_TEXT, "kw.version"),
	DB_COLUMN(R, config_sha256, DB_TEXT, "kw.config_sha256"),
	DB_COLUMN(R, perfbot_version, DB_TEXT, "c.perfbot_version"),
	DB_COLUMN(R, port_file, DB_TEXT, "kw.change_file"),
	DB_ENUM_COLUMN(R, verdict, verdict_names, "c.verdict"),
	DB_ENUM_COLUMN(R, behaviour, verdict_names, "c.behaviour"),
	DB_COLUMN(R, decided, DB_INT, "c.verdict IS NOT NULL"),
	DB_COLUMN(R, seed, DB_INT64, "c.seed"),
	DB_COLUMN(R, gate_pct, DB_REAL, "c.gate_pct"),
	DB_COLUMN(R, alpha, DB_REAL, "c.alpha"),
	DB_COLUMN(R, noise_factor, DB_REAL, "c.noise_factor"),
	DB_COLUMN(R, beta, DB_REAL, "c.beta"),
	/* stored as NULLIF(?,0): 0 is none */
	DB_COLUMN(R, noise_calibration, DB_INT64, "c.noise_calibration"),
	DB_COLUMN(R, warmup, DB_INT, "c.warmup"),
	DB_COLUMN(R, guests_at_once, DB_INT, "c.guests_at_once"),
	DB_COLUMN_AS("boots_run_0",
		     "(SELECT count(*) FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITHOUT) ")", DB_INT, offsetof(R, boots_run[0])),
	DB_COLUMN_AS("boots_run_1",
		     "(SELECT count(*) FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITH) ")", DB_INT, offsetof(R, boots_run[1])),
	DB_COLUMN_AS("boots_ok_0",
		     "(SELECT count(*) FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITHOUT) " AND outcome=" SQL_NAME(NAME_OK) ")", DB_INT,
		     offsetof(R, boots_ok[0])),
	DB_COLUMN_AS("boots_ok_1",
		     "(SELECT count(*) FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITH) " AND outcome=" SQL_NAME(NAME_OK) ")", DB_INT,
		     offsetof(R, boots_ok[1])),
	DB_COLUMN(R, host, DB_TEXT, "coalesce(c.host, '')"),
	DB_COLUMN(R, host_cpu, DB_TEXT,
		  "coalesce((SELECT host_cpu FROM runs WHERE comparison_id=c.id ORDER BY boot_index LIMIT 1), '')"),
	DB_COLUMN(R, qemu_version, DB_TEXT,
		  "coalesce((SELECT qemu_version FROM runs WHERE comparison_id=c.id ORDER BY boot_index LIMIT 1), '')"),
	DB_COLUMN_AS("qemu_cmdline_0",
		     "(SELECT qemu_cmdline FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITHOUT) " ORDER BY boot_index LIMIT 1)", DB_TEXT,
		     offsetof(R, qemu_cmdline[0])),
	DB_COLUMN_AS("qemu_cmdline_1",
		     "(SELECT qemu_cmdline FROM runs WHERE comparison_id=c.id AND side="
		     SQL_NAME(NAME_WITH) " ORDER BY boot_index LIMIT 1)", DB_TEXT,
		     offsetof(R, qemu_cmdline[1])),
};
static const struct db_column queue_patch_cols[] = { PATCH_COLUMNS };
#undef PATCH_COLUMNS
#undef R

bool db_report_queue_patch(struct db_cursor *c, sqlite3 *db, const char *queue, int number,
			   struct patch_page_row *row, bool *found, pb_err *err)
{
	*found = false;
	if (!db_cursor_open(c, db, "report", queue_patch_cols, (int)PB_ARRAY_SIZE(queue_patch_cols),
			    err, "FROM patches p WHERE p.queue=? AND p.number=? ORDER BY p.id DESC LIMIT 1",
			    "si", queue, number))
		return false;
	return db_cursor_step_one(c, row, found, err);
}

bool db_report_patch_page(struct db_cursor *c, sqlite3 *db, long long cid,
			  struct patch_page_row *row, bool *found, pb_err *err)
{
	*found = false;
	if (!db_cursor_open(c, db, "report", patch_page_cols, (int)PB_ARRAY_SIZE(patch_page_cols), err,
			    "FROM comparisons c LEFT JOIN patches p ON p.id=c.patch_id "
			    "LEFT JOIN series s ON s.id=c.series_id "
			    "JOIN kernels kw ON kw.id=c.kernel_without JOIN kernels kx ON kx.id=c.kernel_with "
			    "WHERE c.id=? AND (p.id IS NOT NULL OR s.id IS NOT NULL)",
			    "I", cid))
		return false;
	return db_cursor_step_one(c, row, found, err);
}

#define R struct result_row
static const struct db_column result_cols[] = {
	DB_COLUMN(R, workload, DB_TEXT, "workload"),
	DB_COLUMN(R, metric, DB_TEXT, "metric"),
	DB_COLUMN(R, unit, DB_TEXT, "unit"),
	DB_ENUM_COLUMN(R, kind, metric_kind_names, "kind"),
	DB_ENUM_COLUMN(R, better, better_names, "better"),
	DB_COLUMN(R, median_without, DB_REAL_OR_NAN, "median_without"),
	DB_COLUMN(R, median_with, DB_REAL_OR_NAN, "median_with"),
	DB_COLUMN(R, change_pct, DB_REAL_OR_NAN, "change_pct"),
	DB_ENUM_COLUMN(R, verdict, verdict_names, "verdict"),
	DB_COLUMN(R, n_without, DB_INT, "n_without"),
	DB_COLUMN(R, n_with, DB_INT, "n_with"),
	DB_COLUMN(R, ci_lo_pct, DB_REAL_OR_NAN, "ci_lo_pct"),
	DB_COLUMN(R, ci_hi_pct, DB_REAL, "ci_hi_pct"),
	DB_COLUMN(R, p_adj, DB_REAL_OR_NAN, "p_adj"),
	DB_COLUMN(R, noise_pct, DB_REAL_OR_NAN, "noise_pct"),
	DB_COLUMN(R, noise_from, DB_TEXT, "noise_from"),
	DB_COLUMN(R, regime, DB_TEXT, "regime"),
	DB_COLUMN(R, boots_without, DB_INT, "boots_without"),
	DB_COLUMN(R, boots_with, DB_INT, "boots_with"),
	DB_COLUMN(R, threshold_pct, DB_REAL_OR_NAN, "threshold_pct"),
	DB_COLUMN(R, look, DB_INT, "look"),
};
#undef R

bool db_report_results(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err)
{
	return db_cursor_open(c, db, "report", result_cols, (int)PB_ARRAY_SIZE(result_cols), err,
			      "FROM results WHERE comparison_id=? ORDER BY workload, kind DESC, metric",
			      "I", cid);
}

#define R struct sample_row
static const struct db_column sample_cols[] = {
	DB_COLUMN(R, with_fix, DB_INT, "r.side=" SQL_NAME(NAME_WITH)),
	DB_COLUMN(R, run, DB_INT, "r.id"),
	DB_COLUMN(R, value, DB_REAL, "s.value"),
};
#undef R

bool db_report_samples(struct db_cursor *c, sqlite3 *db, long long cid, const char *workload,
		       const char *metric, pb_err *err)
{
	return db_cursor_open(c, db, "report", sample_cols, (int)PB_ARRAY_SIZE(sample_cols), err,
			      "FROM samples s JOIN runs r ON r.id=s.run_id "
			      "WHERE r.comparison_id=? AND s.workload=? AND s.metric=? AND NOT s.warmup "
			      "AND r.outcome=" SQL_NAME(NAME_OK)
			        " ORDER BY r.boot_index, s.iteration",
			      "Iss", cid, workload, metric);
}

#define R struct boot_row
static const struct db_column boot_cols[] = {
	DB_COLUMN(R, boot_index, DB_INT, "boot_index"),
	DB_ENUM_COLUMN(R, side, side_names, "side"),
	DB_ENUM_COLUMN(R, outcome, boot_outcome_names, "outcome"),
	DB_COLUMN(R, detail, DB_TEXT, "detail"),
	DB_COLUMN(R, wall_seconds, DB_REAL, "wall_seconds"),
	DB_COLUMN(R, console_log, DB_TEXT, "console_log"),
	DB_COLUMN(R, results_log, DB_TEXT, "results_log"),
	DB_COLUMN_AS("ran", "(SELECT coalesce(group_concat(workload, ', '), '') FROM (SELECT DISTINCT workload "
		 "FROM samples s WHERE s.run_id=runs.id ORDER BY workload))", DB_TEXT, offsetof(R, ran)),
};
#undef R

bool db_report_boots(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err)
{
	return db_cursor_open(c, db, "report", boot_cols, (int)PB_ARRAY_SIZE(boot_cols), err,
			      "FROM runs WHERE comparison_id=? ORDER BY boot_index", "I", cid);
}

#define R struct index_row
static const struct db_column index_cols[] = {
	DB_COLUMN(R, id, DB_INT64, "c.id"),
	DB_ENUM_COLUMN(R, status, status_names, "c.status"),
	DB_ENUM_COLUMN(R, accel, accel_kind_names, "c.accel"),
	DB_COLUMN(R, finished_at, DB_TEXT, "c.finished_at"),
};
#undef R

#define R struct series_index_row
static const struct db_column series_index_cols[] = {
	/* AS names are the fields' names: run.id is "run_id" */
	DB_COLUMN_AS("run_id", "c.id", DB_INT64, offsetof(R, run.id)),
	DB_ENUM_COLUMN_AS("run_status", "c.status", status_names, offsetof(R, run.status)),
	DB_ENUM_COLUMN_AS("run_accel", "c.accel", accel_kind_names, offsetof(R, run.accel)),
	DB_COLUMN_AS("run_finished_at", "c.finished_at", DB_TEXT, offsetof(R, run.finished_at)),
	DB_COLUMN(R, name, DB_TEXT, "s.name"),
	DB_COLUMN(R, patches, DB_TEXT, "s.patches"),
	DB_ENUM_COLUMN(R, mode, series_mode_names, "s.mode"),
};
#undef R

bool db_report_series(struct db_cursor *c, sqlite3 *db, const char *queue, pb_err *err)
{
	return db_cursor_open(c, db, "report", series_index_cols,
			      (int)PB_ARRAY_SIZE(series_index_cols), err,
			      "FROM comparisons c JOIN series s ON s.id=c.series_id WHERE s.queue=? AND "
			      "c.id=(SELECT max(c2.id) FROM comparisons c2 JOIN series s2 ON "
			      "s2.id=c2.series_id WHERE s2.queue=s.queue AND s2.name=s.name) "
			      "ORDER BY c.id DESC",
			      "s", queue);
}

bool db_report_newest(struct db_cursor *c, sqlite3 *db, const char *queue, int number,
		      pb_err *err)
{
	return db_cursor_open(c, db, "report", index_cols, (int)PB_ARRAY_SIZE(index_cols), err,
			      "FROM comparisons c JOIN patches p ON p.id=c.patch_id "
			      "WHERE c.kind=" SQL_NAME(NAME_PATCH) " "
			      "AND p.queue=? AND p.number=? ORDER BY c.finished_at DESC, c.id DESC LIMIT 1",
			      "si", queue, number);
}

#define R struct workload_verdict_row
static const struct db_column workload_verdict_cols[] = {
	DB_COLUMN(R, workload, DB_TEXT, "workload"),
	DB_ENUM_COLUMN(R, verdict, verdict_names, "verdict"),
};
#undef R

bool db_report_workload_verdicts(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err)
{
	return db_cursor_open(c, db, "report", workload_verdict_cols,
			      (int)PB_ARRAY_SIZE(workload_verdict_cols), err,
			      "FROM results WHERE comparison_id=? ORDER BY workload", "I", cid);
}

#define R struct trend_row
static const struct db_column trend_cols[] = {
	DB_ENUM_COLUMN(R, accel, accel_kind_names, "c.accel"),
	DB_COLUMN(R, workload, DB_TEXT, "s.workload"),
	DB_COLUMN(R, metric, DB_TEXT, "s.metric"),
	DB_COLUMN(R, unit, DB_TEXT, "x.unit"),
	DB_COLUMN(R, cid, DB_INT64, "c.id"),
	DB_COLUMN(R, finished_at, DB_TEXT, "c.finished_at"),
	DB_COLUMN(R, version, DB_TEXT, "k.version"),
	DB_COLUMN(R, value, DB_REAL, "s.value"),
};
#undef R

/* the base kernel's ok boots' time samples */
#define TREND_FROM                                                                         \
	"FROM samples s JOIN runs r ON r.id=s.run_id JOIN comparisons c "                  \
	"ON c.id=r.comparison_id JOIN kernels k ON k.id=r.kernel_id JOIN results x "       \
	"ON x.comparison_id=c.id AND x.workload=s.workload AND x.metric=s.metric "         \
	"WHERE k.label='base' AND r.outcome=" SQL_NAME(NAME_OK) " AND NOT s.warmup "         \
	"AND x.kind=" SQL_NAME(NAME_TIME) " "

bool db_report_trend(struct db_cursor *c, sqlite3 *db, pb_err *err)
{
	return db_cursor_open(c, db, "report", trend_cols, (int)PB_ARRAY_SIZE(trend_cols), err,
			      TREND_FROM "ORDER BY c.accel, s.workload, s.metric, c.id", "");
}

bool db_report_trend_versions(struct db_cursor *c, sqlite3 *db, pb_err *err)
{
	return db_cursor_open(c, db, "report", trend_cols, (int)PB_ARRAY_SIZE(trend_cols), err,
			      TREND_FROM "ORDER BY c.accel, s.workload, s.metric, k.version, c.id", "");
}
#undef TREND_FROM

/* a patch's newest comparison: the one that finished last (an imported
 * one can be older than its id says), the later id among equals; a
 * numbered patch is its queue's and number's, one without a number its
 * sha256's */
#define NEWEST_OF_PATCH                                                                    \
	"(SELECT c2.id FROM comparisons c2 JOIN patches p2 ON p2.id=c2.patch_id WHERE "    \
	"c2.kind=" SQL_NAME(NAME_PATCH) " AND p2.number=p.number AND CASE WHEN p.number>0 "  \
	"THEN "                                                                             \
	"p2.queue=p.queue ELSE p2.sha256=p.sha256 END ORDER BY c2.finished_at DESC, "      \
	"c2.id DESC LIMIT 1)"

static const struct db_column comparison_id_cols[] = {
	DB_COLUMN(struct comparison_id_row, id, DB_INT64, "cid"),
};

bool db_report_pages(struct db_cursor *c, sqlite3 *db, pb_err *err)
{
	return db_cursor_open(c, db, "report", comparison_id_cols,
			      (int)PB_ARRAY_SIZE(comparison_id_cols), err,
			      "FROM (SELECT " NEWEST_OF_PATCH " AS cid FROM comparisons c JOIN patches p "
			      "ON p.id=c.patch_id WHERE c.kind=" SQL_NAME(NAME_PATCH)
			        " GROUP BY CASE WHEN p.number>0 "
			      "THEN p.queue ELSE p.sha256 END, p.number "
			      "UNION SELECT max(c.id) FROM comparisons c JOIN series s ON s.id=c.series_id "
			      "WHERE c.kind=" SQL_NAME(NAME_SERIES)
			        " GROUP BY s.queue, s.name) ORDER BY cid",
			      "");
}

#define R struct queue_row
static const struct db_column queue_cols[] = {
	DB_COLUMN(R, queue, DB_TEXT, "queue"),
	DB_COLUMN(R, newest, DB_TEXT, "max(at)"),
	DB_COLUMN(R, patches, DB_INT, "count(DISTINCT number)"),
};
#undef R

bool db_report_queues(struct db_cursor *c, sqlite3 *db, pb_err *err)
{
	return db_cursor_open(c, db, "report", queue_cols, (int)PB_ARRAY_SIZE(queue_cols), err,
			      "FROM (SELECT p.queue AS queue, c.finished_at AS at, p.number AS number "
			      "FROM comparisons c JOIN patches p ON p.id=c.patch_id "
			      "WHERE c.kind=" SQL_NAME(NAME_PATCH) " "
			      "AND p.number>0 UNION ALL SELECT s.queue, c.finished_at, NULL FROM "
			      "comparisons c JOIN series s ON s.id=c.series_id WHERE c.kind=" SQL_NAME(NAME_SERIES) ") "
			      "GROUP BY queue ORDER BY max(at) DESC, queue",
			      "");
}

#define R struct measured_row
static const struct db_column measured_cols[] = {
	/* AS names are the fields' names: run.id is "run_id" */
	DB_COLUMN_AS("run_id", "c.id", DB_INT64, offsetof(R, run.id)),
	DB_ENUM_COLUMN_AS("run_status", "c.status", status_names, offsetof(R, run.status)),
	DB_ENUM_COLUMN_AS("run_accel", "c.accel", accel_kind_names, offsetof(R, run.accel)),
	DB_COLUMN_AS("run_finished_at", "c.finished_at", DB_TEXT, offsetof(R, run.finished_at)),
	DB_COLUMN(R, number, DB_INT, "p.number"),
	DB_COLUMN(R, cc_stable, DB_INT, "p.cc_stable"),
	DB_COLUMN(R, is_mm, DB_INT, "p.is_mm"),
	DB_COLUMN(R, queue, DB_TEXT, "p.queue"),
	DB_COLUMN(R, sha256, DB_TEXT, "p.sha256"),
	DB_COLUMN(R, subject, DB_TEXT, "p.subject"),
	DB_COLUMN(R, upstream, DB_TEXT, "p.upstream"),
	DB_COLUMN(R, fixes, DB_TEXT, "p.fixes"),
	DB_COLUMN(R, mm_reason, DB_TEXT, "p.mm_reason"),
	DB_COLUMN(R, file, DB_TEXT, "p.file"),
};
#undef R

bool db_report_measured(struct db_cursor *c, sqlite3 *db, const char *queue, pb_err *err)
{
	if (!queue)
		return db_cursor_open(c, db, "report", measured_cols,
				      (int)PB_ARRAY_SIZE(measured_cols), err,
				      "FROM comparisons c JOIN patches p ON p.id=c.patch_id WHERE "
				      "c.kind=" SQL_NAME(NAME_PATCH)
				        " AND p.number=0 AND c.id=" NEWEST_OF_PATCH
				      " ORDER BY c.finished_at DESC, c.id DESC",
				      "");
	return db_cursor_open(c, db, "report", measured_cols, (int)PB_ARRAY_SIZE(measured_cols), err,
			      "FROM comparisons c JOIN patches p ON p.id=c.patch_id "
			      "WHERE c.kind=" SQL_NAME(NAME_PATCH) " "
			      "AND p.queue=? AND p.number>0 AND c.id=" NEWEST_OF_PATCH " ORDER BY p.number",
			      "s", queue);
}
#undef NEWEST_OF_PATCH

#define R struct bisect_row
static const struct db_column bisect_cols[] = {
	DB_COLUMN(R, id, DB_INT64, "id"),
	DB_COLUMN(R, series_comparison, DB_INT64, "series_comparison"),
	DB_COLUMN(R, workload, DB_TEXT, "workload"),
	DB_COLUMN(R, metric, DB_TEXT, "metric"),
	DB_ENUM_COLUMN(R, change, bisect_change_names, "change"),
	DB_COLUMN(R, npatches, DB_INT, "npatches"),
	DB_COLUMN(R, culprit, DB_INT, "culprit"),
	DB_COLUMN(R, culprit_number, DB_INT, "culprit_number"),
	DB_ENUM_COLUMN(R, status, bisect_status_names, "status"),
	DB_COLUMN(R, detail, DB_TEXT, "detail"),
	DB_COLUMN(R, steps, DB_INT, "steps"),
	DB_COLUMN(R, wall_seconds, DB_REAL, "wall_seconds"),
	DB_COLUMN(R, finished_at, DB_TEXT, "finished_at"),
};
#undef R

bool db_report_bisects(struct db_cursor *c, sqlite3 *db, long long series_cid, pb_err *err)
{
	return db_cursor_open(c, db, "report", bisect_cols, (int)PB_ARRAY_SIZE(bisect_cols), err,
			      "FROM bisects WHERE series_comparison=? ORDER BY id DESC", "I", series_cid);
}

bool db_report_bisect(struct db_cursor *c, sqlite3 *db, long long bisect_id, struct bisect_row *row,
		      bool *found, pb_err *err)
{
	*found = false;
	if (!db_cursor_open(c, db, "report", bisect_cols, (int)PB_ARRAY_SIZE(bisect_cols), err,
			    "FROM bisects WHERE id=?", "I", bisect_id))
		return false;
	return db_cursor_step_one(c, row, found, err);
}

#define R struct bisect_step_row
static const struct db_column bisect_step_cols[] = {
	DB_COLUMN(R, step, DB_INT, "bs.step"),
	DB_ENUM_COLUMN(R, role, bisect_role_names, "bs.role"),
	DB_COLUMN(R, prefix_a, DB_INT, "bs.prefix_a"),
	DB_COLUMN(R, prefix_b, DB_INT, "bs.prefix_b"),
	DB_COLUMN(R, comparison_id, DB_INT64, "bs.comparison_id"),
	DB_COLUMN(R, verdict, DB_TEXT, "bs.verdict"),
	DB_COLUMN(R, bad, DB_INT, "bs.bad"),
	DB_COLUMN(R, boots, DB_INT, "c.boots_per_kernel"),
	DB_COLUMN(R, wall_seconds, DB_REAL, "c.wall_seconds"),
	DB_COLUMN(R, key_a, DB_TEXT, "kw.key"),
	DB_COLUMN(R, key_b, DB_TEXT, "kx.key"),
	DB_COLUMN(R, kernel_a, DB_TEXT, "coalesce(kw.change_file, kw.label)"),
	DB_COLUMN(R, kernel_b, DB_TEXT, "coalesce(kx.change_file, kx.label)"),
	DB_COLUMN(R, change_pct, DB_REAL_OR_NAN, "r.change_pct"),
	DB_COLUMN(R, ci_lo_pct, DB_REAL_OR_NAN, "r.ci_lo_pct"),
	DB_COLUMN(R, ci_hi_pct, DB_REAL_OR_NAN, "r.ci_hi_pct"),
};
#undef R

bool db_report_bisect_steps(struct db_cursor *c, sqlite3 *db, long long bisect_id, pb_err *err)
{
	return db_cursor_open(c, db, "report", bisect_step_cols,
			      (int)PB_ARRAY_SIZE(bisect_step_cols), err,
			      "FROM bisect_steps bs JOIN bisects b ON b.id=bs.bisect_id "
			      "JOIN comparisons c ON c.id=bs.comparison_id "
			      "JOIN kernels kw ON kw.id=c.kernel_without JOIN kernels kx ON kx.id=c.kernel_with "
			      "LEFT JOIN results r ON r.comparison_id=c.id AND r.workload=b.workload AND "
			      "r.metric=b.metric WHERE bs.bisect_id=? ORDER BY bs.step",
			      "I", bisect_id);
}

static const struct db_column answer_id_cols[] = {
	DB_COLUMN(struct comparison_id_row, id, DB_INT64, "c.id"),
};

bool db_report_answers(struct db_cursor *c, sqlite3 *db, pb_err *err)
{
	return db_cursor_open(c, db, "report", answer_id_cols, (int)PB_ARRAY_SIZE(answer_id_cols), err,
			      "FROM comparisons c WHERE c.kind IN (" SQL_NAME(NAME_PATCH)
			        ", " SQL_NAME(NAME_SERIES) ") "
			      "ORDER BY c.finished_at DESC, c.id DESC", "");
}
