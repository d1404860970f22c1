/* The report's queries: each page's rows as structs, read from results.db
 * by column name (db_cursor), so that report.c holds HTML and no SQL. */
#ifndef PERFBOT_DB_REPORT_H
#define PERFBOT_DB_REPORT_H

#include "db.h"
#include "names.h"
#include "verdict.h"

/* One kernel of a comparison, as the patch page shows it. */
struct kernel_row {
	const char *label, *key, *failure;
	enum build_status build_status;
	const char *build_log; /* in the kernel cache's directory of it ("" none) */
};

/* A comparison with its patch and kernels: the head of a patch page, and
 * of the mail that answers the patch. */
struct patch_page_row {
	int number, total, cc_stable, boots_per_kernel, iterations, warmup;
	const char *series, *sha256; /* 5.13 of [PATCH 5.13 771/800]; the patch file's */
	const char *subject, *author, *upstream, *fixes, *mm_reason, *file;
	enum pair_method pair_method;
	enum accel_kind accel;             /* ACCEL_AUTO: nothing booted */
	enum comparison_status status;
	/* decided (both stored, else NULL): the worst timing verdict, and the
	 * behaviour metrics' (same, behaviour change, ...) */
	int decided;
	enum verdict verdict, behaviour;
	const char *pair_detail, *accel_reason, *workloads;
	const char *workload_choice, *started_at, *perfbot_version;
	/* the patch's mail ("" where it had none) and the queue it came from */
	const char *message_id, *in_reply_to, *mail_to, *mail_cc, *mail_date, *queue;
	/* kind series: the series' ("" and 0 for a patch's comparison) */
	enum comparison_kind kind;
	enum series_mode series_mode;
	const char *series_name, *series_description, *series_patches;
	const char *series_queue, *series_cover_message_id;
	int series_mm_only;
	struct kernel_row kernel[2];   /* without, with the fix */
	const char *base_version, *config_sha256, *port_file, *finished_at;
	double wall_seconds, gate_pct, alpha, beta; /* beta 0: before schema 6 */
	double noise_factor;               /* before schema 6 (0 after) */
	long long seed, noise_calibration; /* 0: none */
	int guests_at_once;                /* 0: before schema 8 (one at a time) */
	int boots_run[2], boots_ok[2];     /* boots of each side, and those that came out ok */
	const char *host, *host_cpu, *qemu_version; /* where it ran ("" unknown: before schema 9) */
	const char *qemu_cmdline[2];       /* the first boot's of each side ("" none) */
};
/* *found false if there is no comparison cid. Strings valid until close. */
bool db_report_patch_page(struct db_cursor *c, sqlite3 *db, long long cid,
			  struct patch_page_row *row, bool *found, pb_err *err);
/* The newest stored copy of patch number of queue, its patch fields alone
 * (the rest of row untouched): a series' patch has one only where it was
 * also measured alone. *found false if none. */
bool db_report_queue_patch(struct db_cursor *c, sqlite3 *db, const char *queue, int number,
			   struct patch_page_row *row, bool *found, pb_err *err);

/* One metric of a comparison, timing first by workload. */
struct result_row {
	const char *workload, *metric, *unit, *noise_from, *regime;
	enum metric_kind kind;
	enum better better;
	enum verdict verdict;
	double median_without, median_with, change_pct, ci_lo_pct, p_adj, noise_pct; /* NAN: NULL */
	double ci_hi_pct, threshold_pct;   /* threshold: NAN before schema 6 */
	int n_without, n_with, boots_without, boots_with, look; /* look 0: none */
};
bool db_report_results(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err);

/* One sample of a metric of a comparison, of a boot that came out ok. */
struct sample_row {
	int with_fix, run;
	double value;
};
bool db_report_samples(struct db_cursor *c, sqlite3 *db, long long cid, const char *workload,
		       const char *metric, pb_err *err);

/* One boot of a comparison. */
struct boot_row {
	int boot_index;
	enum side side;
	enum boot_outcome outcome;
	const char *detail, *console_log, *results_log;
	const char *ran;     /* the workloads it has samples of, comma-separated ("" none) */
	double wall_seconds;
};
bool db_report_boots(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err);

/* The newest patch comparison of a patch of a queue: the index's row. */
struct index_row {
	long long id;
	enum comparison_status status;
	enum accel_kind accel;
	const char *finished_at;
};
bool db_report_newest(struct db_cursor *c, sqlite3 *db, const char *queue, int number,
		      pb_err *err);
/* The newest series comparison of each series name of queue, newest first. */
struct series_index_row {
	struct index_row run;
	const char *name, *patches;
	enum series_mode mode;
};
bool db_report_series(struct db_cursor *c, sqlite3 *db, const char *queue, pb_err *err);

/* Each metric's verdict of a comparison, by workload. */
struct workload_verdict_row {
	const char *workload;
	enum verdict verdict;
};
bool db_report_workload_verdicts(struct db_cursor *c, sqlite3 *db, long long cid, pb_err *err);

/* The base kernel's time samples, by accelerator, metric and comparison;
 * version: the base kernel's (6.1.192). */
struct trend_row {
	enum accel_kind accel;
	const char *workload, *metric, *unit, *finished_at, *version;
	long long cid;
	double value;
};
bool db_report_trend(struct db_cursor *c, sqlite3 *db, pb_err *err);
/* The same by accelerator, metric, base version (as text: the caller
 * orders the versions) and comparison. */
bool db_report_trend_versions(struct db_cursor *c, sqlite3 *db, pb_err *err);

/* The comparison of every page of the report, oldest first: the newest
 * patch comparison of every patch of every queue (by queue and number),
 * of every patch without a series number (by its sha256), and the newest
 * series comparison of every series (by queue and name). */
struct comparison_id_row {
	long long id;
};
bool db_report_pages(struct db_cursor *c, sqlite3 *db, pb_err *err);

/* Every queue the database holds a comparison of (a numbered patch's or a
 * series'), the one whose newest comparison is newest first; patches: its
 * numbered patches measured. */
struct queue_row {
	const char *queue, *newest;
	int patches;
};
bool db_report_queues(struct db_cursor *c, sqlite3 *db, pb_err *err);

/* A measured patch, its stored fields and its newest comparison: every
 * numbered patch of queue, by number; or (queue NULL) every patch without a
 * series number, by its sha256, the newest first. */
struct measured_row {
	struct index_row run;
	int number, cc_stable, is_mm;
	const char *queue, *sha256, *subject, *upstream, *fixes, *mm_reason, *file;
};
bool db_report_measured(struct db_cursor *c, sqlite3 *db, const char *queue, pb_err *err);
/* Every comparison of a patch or a series, newest first (report --json). */
bool db_report_answers(struct db_cursor *c, sqlite3 *db, pb_err *err);

/* The bisects of a series comparison, newest first, and each one's steps
 * with their kernels and the bisected metric's change. */
struct bisect_row {
	long long id, series_comparison;
	const char *workload, *metric, *detail, *finished_at;
	enum bisect_change change;
	enum bisect_status status;
	int npatches, culprit, culprit_number, steps; /* culprit 0: none */
	double wall_seconds;
};
bool db_report_bisects(struct db_cursor *c, sqlite3 *db, long long series_cid, pb_err *err);
/* One bisect by its id; *found false if there is none. */
bool db_report_bisect(struct db_cursor *c, sqlite3 *db, long long bisect_id, struct bisect_row *row,
		      bool *found, pb_err *err);
struct bisect_step_row {
	int step, prefix_a, prefix_b, bad, boots;
	long long comparison_id;
	enum bisect_role role;
	const char *verdict, *key_a, *key_b, *kernel_a, *kernel_b; /* verdict: or a status */
	double wall_seconds, change_pct, ci_lo_pct, ci_hi_pct; /* NAN: none */
};
bool db_report_bisect_steps(struct db_cursor *c, sqlite3 *db, long long bisect_id, pb_err *err);

#endif
