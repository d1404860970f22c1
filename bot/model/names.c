/* The name tables of names.h, and the columns that store them. */
#include <string.h>

#include "names.h"
#include "util.h"
#include "verdict.h"

#define NAMES(prefix, what_, ...)                                                     \
	static const char *const prefix##_list[] = { __VA_ARGS__ };                   \
	const struct pb_names prefix##_names = { what_, prefix##_list,                \
						 (int)PB_ARRAY_SIZE(prefix##_list), NULL }

NAMES(side, "side", [SIDE_WITHOUT] = NAME_WITHOUT, [SIDE_WITH] = NAME_WITH);
NAMES(comparison_kind, "comparison kind", [KIND_PATCH] = NAME_PATCH, [KIND_CALIBRATION] = NAME_CALIBRATION,
      [KIND_SERIES] = NAME_SERIES, [KIND_BISECT] = "bisect");
NAMES(accel_kind, "accelerator", [ACCEL_AUTO] = "", [ACCEL_KVM] = "kvm", [ACCEL_TCG] = "tcg",
      [ACCEL_TCG_ICOUNT] = NAME_TCG_ICOUNT);
NAMES(accel_choice, "accelerator", [ACCEL_AUTO] = "auto", [ACCEL_KVM] = "kvm", [ACCEL_TCG] = "tcg",
      [ACCEL_TCG_ICOUNT] = NAME_TCG_ICOUNT);
NAMES(pair_method, "pair method", [PAIR_FORWARD] = "forward", [PAIR_REVERSE] = "reverse",
      [PAIR_PORT] = "port", [PAIR_SAME] = "same");
NAMES(boot_outcome, "boot outcome", [BOOT_OK] = NAME_OK, [BOOT_INVALID] = "invalid",
      [BOOT_PANIC] = "boot-panic", [BOOT_TIMEOUT] = "timeout", [BOOT_QEMU_ERROR] = "qemu-error",
      [BOOT_INCOMPLETE] = "incomplete");
NAMES(metric_kind, "metric kind", [METRIC_TIME] = NAME_TIME, [METRIC_BEHAVIOUR] = "behaviour",
      [METRIC_DIAGNOSTIC] = "diagnostic");
NAMES(better, "direction", [BETTER_HIGHER] = "higher", [BETTER_LOWER] = "lower");
NAMES(build_status, "build status", [BUILD_BUILT] = NAME_BUILT, [BUILD_FAILED] = "build-failed");
NAMES(series_mode, "series mode", [SERIES_FORWARD] = "forward", [SERIES_REVERSE] = "reverse");
NAMES(noise_from, "noise source", [NOISE_NONE] = "-", [NOISE_CALIBRATION] = "calibration",
      [NOISE_THIS_RUN] = "this run");
NAMES(bisect_role, "bisect role", [ROLE_SEARCH] = "search", [ROLE_CONFIRM] = "confirm",
      [ROLE_ABSENT_BEFORE] = "absent before");
NAMES(bisect_status, "bisect status", [BISECT_CONFIRMED] = "confirmed",
      [BISECT_NOT_CONFIRMED] = "not confirmed", [BISECT_FAILED] = "failed");
NAMES(bisect_change, "bisected change", [CHANGE_REGRESSION] = NAME_REGRESSION,
      [CHANGE_IMPROVEMENT] = NAME_IMPROVEMENT, [CHANGE_BEHAVIOUR] = NAME_BEHAVIOUR_CHANGE,
      [CHANGE_BUILD_FAILED] = "build-failed", [CHANGE_BOOT_FAILED] = "boot-failed");
static const char *const job_state_list[] = { [JOB_QUEUED] = "queued", [JOB_RUNNING] = "running",
					      [JOB_DONE] = "done", [JOB_FAILED] = "failed" };
const struct pb_names job_state_names = { "job state", job_state_list,
					  (int)PB_ARRAY_SIZE(job_state_list), "unknown" };
NAMES(executor, "executor", [EXECUTOR_LOCAL] = "local", [EXECUTOR_SLURM] = "slurm");

const char *pb_names_name(const struct pb_names *t, int v)
{
	return v >= 0 && v < t->count ? t->names[v] : t->unknown ? t->unknown : "?";
}

bool pb_names_parse(const struct pb_names *t, const char *name, int *v)
{
	for (int i = 0; name && i < t->count; i++)
		if (!strcmp(name, t->names[i])) {
			*v = i;
			return true;
		}
	return false;
}

char *pb_names_list(const struct pb_names *t)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < t->count; i++)
		str_addf(&s, "%s%s", i == 0 ? "" : i == t->count - 1 ? " or " : ", ", t->names[i]);
	return str_steal(&s);
}

const struct model_column model_columns[] = {
	{ "comparisons", "kind", &comparison_kind_names, 0, false },
	{ "comparisons", "pair_method", &pair_method_names, 0, false },
	{ "comparisons", "accel", &accel_kind_names, ACCEL_KVM, true },
	{ "comparisons", "status", &status_names, 0, false },
	{ "comparisons", "verdict", &verdict_names, 0, true },
	{ "comparisons", "behaviour", &verdict_names, 0, true },
	{ "kernels", "build_status", &build_status_names, 0, false },
	{ "series", "mode", &series_mode_names, 0, false },
	{ "runs", "side", &side_names, 0, false },
	{ "runs", "accel", &accel_kind_names, ACCEL_KVM, false },
	{ "runs", "outcome", &boot_outcome_names, 0, false },
	{ "results", "kind", &metric_kind_names, 0, false },
	{ "results", "better", &better_names, 0, false },
	{ "results", "verdict", &verdict_names, 0, false },
	{ "results", "noise_from", &noise_from_names, 0, true },
	{ "bisects", "change", &bisect_change_names, 0, false },
	{ "bisects", "status", &bisect_status_names, 0, false },
	{ "bisect_steps", "role", &bisect_role_names, 0, false },
	{ "job_boots", "side", &side_names, 0, false },
	{ "job_boots", "outcome", &boot_outcome_names, 0, false },
};
const int model_ncolumns = (int)PB_ARRAY_SIZE(model_columns);
