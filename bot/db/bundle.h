/* Comparisons measured elsewhere (a Slurm job's results database, a
 * node's) brought into this results.db: perfbot import. */
#ifndef PERFBOT_BUNDLE_H
#define PERFBOT_BUNDLE_H

#include <sqlite3.h>
#include <stdbool.h>

#include "util.h"

struct bundle_outcome {
	int comparisons;        /* in the bundle */
	int imported;           /* of them, new here and stored */
	long long first, last;  /* the ids the imported got here (0: none) */
	int logs;               /* boot logs copied under the report dir */
	int logs_missing;       /* named by a run but found nowhere */
	char hosts[256];        /* where the imported ran, space-separated */
};

/* Checks the bundle at path before anything is written: a perfbot
 * database of this schema version whose every comparison this perfbot
 * version measured (another version may judge otherwise) and has an
 * identity (a uid); no bisect (which it does not bring yet). */
bool bundle_check(const char *path, const char *perfbot_version, pb_err *err);

/* Stores the bundle's comparisons that db does not hold yet (by uid) with
 * their patches, series, kernels, runs, samples, results and noise floors,
 * all in one transaction; the boots' logs go to log_dir/imported-<uid>/,
 * from the bundle's bundle_files table or else the path its run names.
 * Importing a bundle twice stores it once. Checks it first. */
bool bundle_import(sqlite3 *db, const char *path, const char *perfbot_version, const char *log_dir,
		   struct bundle_outcome *out, pb_err *err);

/* Makes the database at path (a job's, which this perfbot wrote) carry its
 * boots' logs: every console and results log its runs name that is a
 * regular file goes into its bundle_files table, in one transaction, so
 * that it imports on a machine that never saw the node's files. *missing
 * counts the logs named but not found. Packing twice replaces. */
bool bundle_pack(const char *path, const char *perfbot_version, int *packed, int *missing,
		 pb_err *err);

#endif
