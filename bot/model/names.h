/* The words perfbot records in: each is an enum with one name table, and
 * the name table is the only place its names are spelled. The database
 * stores the names (its CHECK constraints allow only these: a unit test
 * holds the schema against model_columns[]), the terminal, the report,
 * the mail and the JSON print them; everything in between holds the enum.
 * A name is parsed once, where it comes in: config.ini, a workload's .ini,
 * a database row (db_cursor's DB_ENUM).
 *
 * Each enum E with prefix P has P_names (its table), P_name(E) ("?", or
 * the table's own word, for a value out of range) and P_parse(name, &E)
 * (false for a name it lacks; NULL is not a name). verdict.h has the
 * verdicts and statuses. The database's cursor and config.ini's parser
 * store an enum through an int: every such enum is int-sized. */
#ifndef PERFBOT_NAMES_H
#define PERFBOT_NAMES_H

#include <stdbool.h>

/* One enum's names, by value from 0. */
struct pb_names {
	const char *what;          /* what it names, for an error: "boot outcome" */
	const char *const *names;
	int count;
	const char *unknown;       /* the name of a value out of range: "?" if NULL */
};
const char *pb_names_name(const struct pb_names *t, int v);
bool pb_names_parse(const struct pb_names *t, const char *name, int *v);
/* "a, b or c": for an error that says what is allowed. Free it. */
char *pb_names_list(const struct pb_names *t);

/* The names the database's queries compare in SQL, as C string literals
 * (SQL_NAME('x') quotes one for SQL): the name tables are made of these
 * too, so that a query and the table spell a name once. */
#define NAME_WITHOUT "without"
#define NAME_WITH "with"
#define NAME_PATCH "patch"
#define NAME_SERIES "series"
#define NAME_CALIBRATION "calibration"
#define NAME_TCG_ICOUNT "tcg-icount"
#define NAME_OK "ok"
#define NAME_TIME "time"
#define NAME_BUILT "built"
#define NAME_MEASURED "measured"
#define NAME_IMPROVEMENT "improvement"
#define NAME_BEHAVIOUR_CHANGE "behaviour change"
#define NAME_REGRESSION "regression"
#define SQL_NAME(name) "'" name "'"

#define PB_NAMED_ENUM(type, prefix)                                                   \
	_Static_assert(sizeof(enum type) == sizeof(int), #type " is stored as an int"); \
	extern const struct pb_names prefix##_names;                                  \
	static inline const char *prefix##_name(enum type v)                          \
	{                                                                             \
		return pb_names_name(&prefix##_names, (int)v);                        \
	}                                                                             \
	static inline bool prefix##_parse(const char *name, enum type *v)             \
	{                                                                             \
		int i;                                                                \
		if (!pb_names_parse(&prefix##_names, name, &i))                       \
			return false;                                                 \
		*v = (enum type)i;                                                    \
		return true;                                                          \
	}

/* A kernel of a comparison: the one without the patch, the one with it. */
enum side { SIDE_WITHOUT = 0, SIDE_WITH = 1 };
PB_NAMED_ENUM(side, side)

/* What a comparison compares. */
enum comparison_kind {
	KIND_PATCH,        /* a patch's two kernels (run --patch) */
	KIND_CALIBRATION,  /* A/A: one kernel on both sides */
	KIND_SERIES,       /* a queue as a whole (run --series) */
	KIND_BISECT,       /* a step of a bisect */
};
PB_NAMED_ENUM(comparison_kind, comparison_kind)

/* The accelerator: config.ini's choice (auto: KVM if a probe boot works,
 * else tcg-icount), and what a run's boots ran under (never auto: a
 * comparison of which nothing booted has ACCEL_AUTO, stored as NULL, its
 * name ""). accel_choice_name() is config.ini's word, "auto" for the
 * first. */
enum accel_kind { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG, ACCEL_TCG_ICOUNT };
PB_NAMED_ENUM(accel_kind, accel_kind)
PB_NAMED_ENUM(accel_kind, accel_choice)

/* How a comparison's two kernels were formed: the patch applied forward
 * to the base, taken out of it (reverse), its port applied, or (an A/A
 * calibration) the same kernel twice. */
enum pair_method { PAIR_FORWARD, PAIR_REVERSE, PAIR_PORT, PAIR_SAME };
PB_NAMED_ENUM(pair_method, pair_method)

/* What a boot ended as. */
enum boot_outcome {
	BOOT_OK,          /* every workload ran and its check passed */
	BOOT_INVALID,     /* it ran, but a workload's check failed or it reported nothing */
	BOOT_PANIC,       /* the kernel panicked (panic=-1 + -no-reboot stops QEMU) */
	BOOT_TIMEOUT,     /* no "PB1 done" within the boot timeout */
	BOOT_QEMU_ERROR,  /* QEMU itself failed */
	BOOT_INCOMPLETE,  /* the guest stopped without reporting done */
};
PB_NAMED_ENUM(boot_outcome, boot_outcome)

/* What a metric measures: time (judged by the statistics), behaviour
 * (judged by equality), or a diagnostic (shown, never judged). */
enum metric_kind { METRIC_TIME, METRIC_BEHAVIOUR, METRIC_DIAGNOSTIC };
PB_NAMED_ENUM(metric_kind, metric_kind)

/* Which way a metric is better. */
enum better { BETTER_HIGHER, BETTER_LOWER };
PB_NAMED_ENUM(better, better)

/* Whether a kernel built. */
enum build_status { BUILD_BUILT, BUILD_FAILED };
PB_NAMED_ENUM(build_status, build_status)

/* How a series comparison formed its kernel with the patches: the -rc
 * applied forward to its base, or the queue taken out of the base. */
enum series_mode { SERIES_FORWARD, SERIES_REVERSE };
PB_NAMED_ENUM(series_mode, series_mode)

/* Where a metric's noise came from: a calibration's boots, the run's own,
 * or nowhere (too few boots). */
enum noise_from { NOISE_NONE, NOISE_CALIBRATION, NOISE_THIS_RUN };
PB_NAMED_ENUM(noise_from, noise_from)

/* A step of a bisect: a search step, its confirmation, or the check that
 * the change is absent before the culprit. */
enum bisect_role { ROLE_SEARCH, ROLE_CONFIRM, ROLE_ABSENT_BEFORE };
PB_NAMED_ENUM(bisect_role, bisect_role)

/* What a bisect came to. */
enum bisect_status { BISECT_CONFIRMED, BISECT_NOT_CONFIRMED, BISECT_FAILED };
PB_NAMED_ENUM(bisect_status, bisect_status)

/* What a bisect looks for: what the series showed. */
enum bisect_change {
	CHANGE_REGRESSION,
	CHANGE_IMPROVEMENT,
	CHANGE_BEHAVIOUR,
	CHANGE_BUILD_FAILED,
	CHANGE_BOOT_FAILED,
};
PB_NAMED_ENUM(bisect_change, bisect_change)

/* A job of perfbotd's queue. */
enum job_state {
	JOB_QUEUED,     /* waiting for perfbotd, or stopped and to resume */
	JOB_RUNNING,    /* claimed by the perfbotd of its pid */
	JOB_DONE,       /* its comparison is stored, or it had nothing to measure */
	JOB_FAILED,     /* perfbot could not go on, or it was given up */
	JOB_UNKNOWN,    /* a stored state this perfbot has no name for: named
			 * "unknown", which no name parses to */
};
#define JOB_STATE_COUNT (JOB_UNKNOWN + 1)
PB_NAMED_ENUM(job_state, job_state)

/* Where perfbot runs a comparison: on this machine, or as a Slurm job. */
enum executor_kind { EXECUTOR_LOCAL, EXECUTOR_SLURM };
PB_NAMED_ENUM(executor_kind, executor)

/* Every enum the database stores, with the columns that hold its names:
 * the schema's CHECK constraints are held against these (tests/unit). */
struct model_column {
	const char *table, *column;
	const struct pb_names *names;
	int first;       /* the first value a row may hold (ACCEL_KVM: never auto) */
	bool nullable;   /* NULL stands for the value 0 */
};
extern const struct model_column model_columns[];
extern const int model_ncolumns;

#endif
