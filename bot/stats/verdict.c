/* The name tables of verdict.h. */
#include <string.h>

#include "verdict.h"

static const char *const verdict_names[VERDICT_COUNT] = {
	[VERDICT_NO_DATA] = "no data",
	[VERDICT_DIAGNOSTIC] = "diagnostic",
	[VERDICT_SAME] = "same",
	[VERDICT_FLAKY] = "flaky",
	[VERDICT_NO_CHANGE] = "no change",
	[VERDICT_NOT_COMPARABLE] = "not comparable",
	[VERDICT_IMPROVEMENT] = "improvement",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
	[VERDICT_BEHAVIOUR_CHANGE] = "behaviour change",
	[VERDICT_REGRESSION] = "regression",
};

static const char *const status_names[STATUS_COUNT] = {
	[STATUS_MEASURED] = "measured",
	[STATUS_BUILD_FAILED] = "build-failed",
	[STATUS_BOOT_FAILED] = "boot-failed",
};

const char *verdict_name(enum verdict v)
{
	return (unsigned)v < VERDICT_COUNT ? verdict_names[v] : "?";
}

bool verdict_parse(const char *name, enum verdict *v)
{
	for (int i = 0; name && i < VERDICT_COUNT; i++)
		if (!strcmp(name, verdict_names[i])) {
			*v = (enum verdict)i;
			return true;
		}
	return false;
}

enum verdict verdict_from_name(const char *name)
{
	enum verdict v;

	return verdict_parse(name, &v) ? v : VERDICT_NO_DATA;
}

bool verdict_is_notable(enum verdict v)
{
	return v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT || v == VERDICT_BEHAVIOUR_CHANGE;
}

const char *status_name(enum comparison_status s)
{
	return (unsigned)s < STATUS_COUNT ? status_names[s] : "?";
}

bool status_parse(const char *name, enum comparison_status *s)
{
	for (int i = 0; name && i < STATUS_COUNT; i++)
		if (!strcmp(name, status_names[i])) {
			*s = (enum comparison_status)i;
			return true;
		}
	return false;
}
