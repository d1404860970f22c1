/* The words perfbot decides in: a metric's verdict, a comparison's status.
 * Each is an enum with one name table (the terminal table, the database and
 * the report all print these names) and, for verdicts, one ranking: the
 * enum's order is how much a verdict asks of a reader, least first. */
#ifndef PERFBOT_VERDICT_H
#define PERFBOT_VERDICT_H

#include <stdbool.h>

#include "names.h"

enum verdict {
	VERDICT_NO_DATA,          /* neither kernel gave the metric */
	VERDICT_DIAGNOSTIC,       /* shown, never decides (a diagnostic metric) */
	VERDICT_SAME,             /* behaviour: the same values */
	VERDICT_FLAKY,            /* behaviour: differed, but varied in A/A calibration too */
	VERDICT_NO_CHANGE,        /* time: the change's interval is inside its threshold */
	VERDICT_NOT_COMPARABLE,   /* time: the workload's behaviour changed */
	VERDICT_IMPROVEMENT,
	VERDICT_INCONCLUSIVE,     /* more boots may decide it */
	VERDICT_BEHAVIOUR_CHANGE,
	VERDICT_REGRESSION,
};
#define VERDICT_COUNT (VERDICT_REGRESSION + 1)

/* verdict_name(): "no data", "same", ..., "regression"; verdict_parse(). */
PB_NAMED_ENUM(verdict, verdict)
/* The verdict a stored name names, VERDICT_NO_DATA for NULL or junk (a
 * database row is read back as what it says, or as nothing). */
enum verdict verdict_from_name(const char *name);
/* A change a reader must look at: regression, improvement, behaviour change. */
bool verdict_is_notable(enum verdict v);

/* What became of a comparison as a whole. */
enum comparison_status {
	STATUS_MEASURED,          /* both kernels built and booted */
	STATUS_BUILD_FAILED,      /* a kernel did not build: nothing booted */
	STATUS_BOOT_FAILED,       /* a side has no boot that came out ok */
};
#define STATUS_COUNT (STATUS_BOOT_FAILED + 1)

/* status_name(): "measured", "build-failed", "boot-failed"; status_parse(). */
PB_NAMED_ENUM(comparison_status, status)

#endif
