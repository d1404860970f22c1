/* config.ini: what perfbot measures, where it keeps things, how it boots. */
#ifndef PERFBOT_CONFIG_H
#define PERFBOT_CONFIG_H

#include "names.h"
#include "util.h"

/* A run's schedule as a fresh config.ini sets it: what a mail's
 * reproduction line leaves out. */
#define CONFIG_DEFAULT_BOOTS 2
#define CONFIG_DEFAULT_ITERATIONS 5
#define CONFIG_DEFAULT_WARMUP 1

/* A workload parameter from a [workload NAME] section: it fills the
 * {key=default} placeholder of that workload's args. */
struct workload_param {
	char *workload, *key, *value;
};

struct pb_config {
	char *path;          /* the file read, absolute */
	char *base_dir;      /* its directory: relative paths are taken from here */

	char *queue_dir;     /* [queue] dir */
	char *kernel_source; /* [kernel] source: tarball of linux-source-6.1 */
	char *fragment;      /* [kernel] fragment */
	char *ports_dir;     /* [kernel] ports */
	int jobs;            /* [kernel] jobs, 0 = number of CPUs */
	char *cache_dir;     /* [cache] dir */
	char *ccache_dir;    /* [cache] ccache: may be shared by several cache dirs */
	enum accel_kind accel; /* [qemu] accel */
	int memory_mb;       /* [qemu] memory_mb */
	int vcpus;           /* [qemu] vcpus (icount always uses 1) */
	int numa_nodes;      /* [qemu] numa_nodes */
	int boot_timeout;    /* [qemu] boot_timeout, seconds */
	int kvm_probe_timeout; /* [qemu] kvm_probe_timeout, seconds */
	int parallel;        /* [qemu] parallel: guests at once; 0: auto (host CPUs under tcg-icount, else 1) */
	int boots;           /* [run] boots per kernel */
	int iterations;      /* [run] iterations per boot, warm-up not counted */
	int warmup;          /* [run] warmup: iterations run first and left out of the statistics */
	int max_boots;       /* [run] max_boots per kernel when the verdict is inconclusive */
	int budget_minutes;  /* [run] budget_minutes of boots per comparison (0: no limit) */
	int seed;            /* [run] seed of the boot order; 0: a new one */
	double gate_pct;     /* [stats] gate_pct: smallest change reported, wall-clock modes */
	double icount_gate_pct; /* [stats] icount_gate_pct: the same under tcg-icount */
	double alpha;        /* [stats] alpha: false alarms (Holm over metrics, spent over looks) */
	double beta;         /* [stats] beta: a real change called "no change", over the looks */
	int calibrate_boots; /* [calibrate] boots per side of an A/A calibration */
	char *workloads_dir; /* [run] workloads */
	char *db_path;       /* [database] path */
	char *report_dir;    /* [report] dir */
	char *report_url;    /* [report] url where report_dir is published, "" if nowhere */
	char *mail_from;     /* [mail] from: the one address perfbot's mails come from */
	char *mail_cc;       /* [mail] cc: addresses every mail is copied to, comma-separated */
	char *mail_sendmail; /* [mail] sendmail: the program and its arguments, "" sends nothing */
	enum executor_kind executor; /* [executor] kind */
	char *slurm_partition; /* [executor] partition for sbatch, "" the cluster's default */
	char *slurm_account;   /* [executor] account for sbatch, "" none */
	int slurm_time_limit;  /* [executor] time_limit of a job, minutes (0: the partition's) */
	int slurm_cpus;        /* [executor] cpus_per_job */
	int slurm_max_jobs;    /* [executor] max_jobs queued or running at once */
	int slurm_resubmits;   /* [executor] resubmits of a job that ended for a reason outside perfbot */
	char *slurm_extra_args; /* [executor] extra_args for sbatch, split at white space */
	char *spool_dir;       /* [executor] spool_dir: jobs' scripts, databases, output; NULL:
				* beside database.path (config_spool_dir) */
	int spool_keep_days;   /* [executor] keep_days: a command's spool is removed this many
				* days after it was last written (0: kept) */
	struct workload_param *params; /* [workload NAME] key = value */
	int nparams;
};

/* [executor] spool_dir, or spool/ beside database.path: the caller's to free. */
char *config_spool_dir(const struct pb_config *cfg);

/* Fills cfg with defaults, then reads path. A missing file, an unknown
 * section or key, or a bad value fails with "FILE:LINE: key: why". */
bool config_load(struct pb_config *cfg, const char *path, pb_err *err);
/* One "section.key=value" from the command line, checked like the file. */
bool config_override(struct pb_config *cfg, const char *assignment, pb_err *err);
/* Sets one key, checked like the file (used by named command-line options). */
bool config_set(struct pb_config *cfg, const char *section, const char *key,
		const char *value, pb_err *err);
void config_free(struct pb_config *cfg);
/* Where an mbox queue's patches are written, one file a mail (free it). */
char *config_queue_spool(const struct pb_config *cfg);
/* Prints the effective configuration, one section.key = value per line. */
void config_dump(const struct pb_config *cfg, FILE *out);

#endif
