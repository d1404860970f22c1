/* The name tables of verdict.h. */
#include <string.h>

#include "verdict.h"

static const char *const verdict_list[VERDICT_COUNT] = {
	[VERDICT_NO_DATA] = "no data",
	[VERDICT_DIAGNOSTIC] = "diagnostic",
	[VERDICT_SAME] = "same",
	[VERDICT_FLAKY] = "flaky",
	[VERDICT_NO_CHANGE] = "no change",
	[VERDICT_NOT_COMPARABLE] = "not comparable",
	[VERDICT_IMPROVEMENT] = NAME_IMPROVEMENT,
	[VERDICT_INCONCLUSIVE] = "inconclusive",
	[VERDICT_BEHAVIOUR_CHANGE] = NAME_BEHAVIOUR_CHANGE,
	[VERDICT_REGRESSION] = NAME_REGRESSION,
};
const struct pb_names verdict_names = { "verdict", verdict_list, VERDICT_COUNT, NULL };

static const char *const status_list[STATUS_COUNT] = {
	[STATUS_MEASURED] = NAME_MEASURED,
	[STATUS_BUILD_FAILED] = "build-failed",
	[STATUS_BOOT_FAILED] = "boot-failed",
};
const struct pb_names status_names = { "comparison status", status_list, STATUS_COUNT, NULL };

enum verdict verdict_from_name(const char *name)
{
	enum verdict v;

	return verdict_parse(name, &v) ? v : VERDICT_NO_DATA;
}

bool verdict_is_notable(enum verdict v)
{
	return v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT || v == VERDICT_BEHAVIOUR_CHANGE;
}
