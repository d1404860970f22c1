/* Comparisons measured elsewhere (a Slurm job's results database, a
 * node's) brought into this results.db: perfbot import. */
#ifndef PERFBOT_BUNDLE_H
#define PERFBOT_BUNDLE_H

#include <sqlite3.h>
#include <stdbool.h>

#include "names.h"
#include "util.h"

struct bundle_outcome {
	int comparisons;        /* in the bundle */
	int imported;           /* of them, new here and stored */
	long long first, last;  /* the ids the imported got here (0: none) */
	int logs;               /* boot logs copied under the report dir */
	int logs_missing;       /* named by a run but found nowhere */
	int bisects;            /* bisects new here and stored, with their steps */
	char hosts[256];        /* where the imported ran, space-separated */
};

/* Checks the bundle at path before anything is written: a perfbot
 * database of this schema version whose every comparison has an identity
 * (a uid) and, but for what its job started from (bundle_start_from), was
 * measured by this perfbot version (another version may judge otherwise). */
bool bundle_check(const char *path, const char *perfbot_version, pb_err *err);

/* Stores the bundle's comparisons that db does not hold yet (by uid) with
 * their patches, series, kernels, runs, samples, results and noise floors,
 * and its bisects with their steps, all in one transaction (what its job
 * started from is not brought back); the boots' logs go to log_dir/imported-<uid>/,
 * from the bundle's bundle_files table or else the path its run names.
 * Importing a bundle twice stores it once. Checks it first. */
bool bundle_import(sqlite3 *db, const char *path, const char *perfbot_version, const char *log_dir,
		   struct bundle_outcome *out, pb_err *err);

/* The uid of the newest comparison of kind in the bundle at path that its
 * job made (not one it started from); "" if none. */
void bundle_newest_uid(const char *path, enum comparison_kind kind, char uid[33]);

/* Makes the database at path (a job's, which this perfbot wrote) carry its
 * boots' logs: every console and results log its runs name that is a
 * regular file goes into its bundle_files table, in one transaction, so
 * that it imports on a machine that never saw the node's files. *missing
 * counts the logs named but not found. Packing twice replaces. */
bool bundle_pack(const char *path, const char *perfbot_version, int *packed, int *missing,
		 pb_err *err);

/* A job's database at path, started from the database seed (a calibration
 * job's bundle, an export): a copy without seed's packed logs that knows
 * which comparisons came with it (table bundle_seed), so that its bundle
 * packs, checks and imports only its own. */
bool bundle_start_from(const char *seed, const char *path, pb_err *err);

/* A new database at path with the comparisons of db_path named by uid
 * (their patches, series, kernels, runs, samples, results, noise), for a
 * job that needs them (a bisect its series comparison). Their logs stay
 * where they are. */
bool bundle_export(const char *db_path, const char *const *uids, int n, const char *path, pb_err *err);

#endif
