#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "layout.h"
#include "rfc5322.h"

/* K_TEXT: free text without control characters, may be empty;
 * K_ADDRESSES: a comma-separated list of min to max mail addresses. */
/* K_ACCEL, K_EXECUTOR: one of the names of key_names(), stored as the enum. */
enum key_type { K_PATH, K_INT, K_REAL, K_ACCEL, K_TEXT, K_ADDRESSES, K_EXECUTOR };

/* Every key config.ini may hold: anything else is an error, so a typo never
 * silently falls back to a default. */
static const struct config_key {
	const char *section, *key;
	enum key_type type;
	size_t offset;
	int min, max;
} keys[] = {
	{ "queue", "dir", K_PATH, offsetof(struct pb_config, queue_dir), 0, 0 },
	{ "kernel", "source", K_PATH, offsetof(struct pb_config, kernel_source), 0, 0 },
	{ "kernel", "fragment", K_PATH, offsetof(struct pb_config, fragment), 0, 0 },
	{ "kernel", "ports", K_PATH, offsetof(struct pb_config, ports_dir), 0, 0 },
	{ "kernel", "jobs", K_INT, offsetof(struct pb_config, jobs), 0, 256 },
	{ "cache", "dir", K_PATH, offsetof(struct pb_config, cache_dir), 0, 0 },
	{ "cache", "ccache", K_PATH, offsetof(struct pb_config, ccache_dir), 0, 0 },
	{ "qemu", "accel", K_ACCEL, offsetof(struct pb_config, accel), 0, 0 },
	{ "qemu", "memory_mb", K_INT, offsetof(struct pb_config, memory_mb), 256, 65536 },
	{ "qemu", "vcpus", K_INT, offsetof(struct pb_config, vcpus), 1, 64 },
	{ "qemu", "numa_nodes", K_INT, offsetof(struct pb_config, numa_nodes), 1, 8 },
	{ "qemu", "boot_timeout", K_INT, offsetof(struct pb_config, boot_timeout), 5, 86400 },
	{ "qemu", "kvm_probe_timeout", K_INT, offsetof(struct pb_config, kvm_probe_timeout), 1, 600 },
	{ "qemu", "parallel", K_INT, offsetof(struct pb_config, parallel), 0, 1024 },
	{ "run", "boots", K_INT, offsetof(struct pb_config, boots), 1, 1000 },
	{ "run", "iterations", K_INT, offsetof(struct pb_config, iterations), 1, 100000 },
	{ "run", "warmup", K_INT, offsetof(struct pb_config, warmup), 0, 1000 },
	{ "run", "max_boots", K_INT, offsetof(struct pb_config, max_boots), 1, 1000 },
	{ "run", "budget_minutes", K_INT, offsetof(struct pb_config, budget_minutes), 0, 100000 },
	{ "run", "seed", K_INT, offsetof(struct pb_config, seed), 0, INT_MAX },
	{ "run", "workloads", K_PATH, offsetof(struct pb_config, workloads_dir), 0, 0 },
	{ "stats", "gate_pct", K_REAL, offsetof(struct pb_config, gate_pct), 0, 100 },
	{ "stats", "icount_gate_pct", K_REAL, offsetof(struct pb_config, icount_gate_pct), 0, 100 },
	{ "stats", "alpha", K_REAL, offsetof(struct pb_config, alpha), 0, 1 },
	{ "stats", "beta", K_REAL, offsetof(struct pb_config, beta), 0, 1 },
	{ "calibrate", "boots", K_INT, offsetof(struct pb_config, calibrate_boots), 2, 1000 },
	{ "database", "path", K_PATH, offsetof(struct pb_config, db_path), 0, 0 },
	{ "report", "dir", K_PATH, offsetof(struct pb_config, report_dir), 0, 0 },
	{ "report", "url", K_TEXT, offsetof(struct pb_config, report_url), 0, 0 },
	{ "mail", "from", K_ADDRESSES, offsetof(struct pb_config, mail_from), 1, 1 },
	{ "mail", "cc", K_ADDRESSES, offsetof(struct pb_config, mail_cc), 0, 100 },
	{ "mail", "sendmail", K_TEXT, offsetof(struct pb_config, mail_sendmail), 0, 0 },
	{ "executor", "kind", K_EXECUTOR, offsetof(struct pb_config, executor), 0, 0 },
	{ "executor", "partition", K_TEXT, offsetof(struct pb_config, slurm_partition), 0, 0 },
	{ "executor", "account", K_TEXT, offsetof(struct pb_config, slurm_account), 0, 0 },
	{ "executor", "time_limit", K_INT, offsetof(struct pb_config, slurm_time_limit), 0, 100000 },
	{ "executor", "cpus_per_job", K_INT, offsetof(struct pb_config, slurm_cpus), 1, 1024 },
	{ "executor", "max_jobs", K_INT, offsetof(struct pb_config, slurm_max_jobs), 1, 100000 },
	{ "executor", "resubmits", K_INT, offsetof(struct pb_config, slurm_resubmits), 0, 100 },
	{ "executor", "extra_args", K_TEXT, offsetof(struct pb_config, slurm_extra_args), 0, 0 },
	{ "executor", "spool_dir", K_PATH, offsetof(struct pb_config, spool_dir), 0, 0 },
	{ "executor", "keep_days", K_INT, offsetof(struct pb_config, spool_keep_days), 0, 36500 },
};

/* Keys an older perfbot read: refused by name, so that a config.ini that
 * still sets one is not silently judged by other rules. */
static const struct retired_key {
	const char *section, *key, *why;
} retired[] = {
	{ "stats", "noise_factor", "the gate over noise is replaced by the sequential t test" },
	{ "stats", "bootstrap", "the change's interval is a t interval, no bootstrap" },
};

/* The names of an enum key's values (NULL: not an enum key). */
static const struct pb_names *key_names(const struct config_key *k)
{
	return k->type == K_ACCEL ? &accel_choice_names : k->type == K_EXECUTOR ? &executor_names : NULL;
}

static const struct retired_key *find_retired(const char *section, const char *key)
{
	for (size_t i = 0; i < PB_ARRAY_SIZE(retired); i++)
		if (!strcmp(retired[i].section, section) && !strcmp(retired[i].key, key))
			return &retired[i];
	return NULL;
}

static double *real_field(struct pb_config *cfg, const struct config_key *k)
{
	return (double *)((char *)cfg + k->offset);
}

static char **string_field(struct pb_config *cfg, const struct config_key *k)
{
	return (char **)((char *)cfg + k->offset);
}

/* The keys whose value is a string of their own, freed with the config. */
static bool is_string_key(const struct config_key *k)
{
	return k->type == K_PATH || k->type == K_TEXT || k->type == K_ADDRESSES;
}

/* A value that goes into a mail header or an argv: one line of text. */
static bool has_control_chars(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return true;
	return false;
}

static int *int_field(struct pb_config *cfg, const struct config_key *k)
{
	return (int *)((char *)cfg + k->offset);
}

static const struct config_key *find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < PB_ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].key, key))
			return &keys[i];
	return NULL;
}

static bool known_section(const char *section)
{
	for (size_t i = 0; i < PB_ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, section))
			return true;
	return false;
}

/* Parses and stores one value; relative paths are taken from base_dir. */
static bool set_int(struct pb_config *cfg, const struct config_key *k, const char *value, char *why,
		    size_t whylen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (!value[0] || *end || errno || v < k->min || v > k->max) {
		snprintf(why, whylen, "'%.100s' is not a whole number from %d to %d", value, k->min,
			 k->max);
		return false;
	}
	*int_field(cfg, k) = (int)v;
	return true;
}

static bool set_real(struct pb_config *cfg, const struct config_key *k, const char *value, char *why,
		     size_t whylen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (!value[0] || *end || errno || !(v >= k->min && v <= k->max)) {
		snprintf(why, whylen, "'%.100s' is not a number from %d to %d", value, k->min, k->max);
		return false;
	}
	/* beta: the interval at 1 - 2 beta must be an interval */
	if (k->offset == offsetof(struct pb_config, beta) && !(v > 0 && v < 0.5)) {
		snprintf(why, whylen, "'%.100s' is not a number above 0 and below 0.5", value);
		return false;
	}
	*real_field(cfg, k) = v;
	return true;
}

/* K_TEXT and K_ADDRESSES: one line, and for addresses min to max of them. */
static bool set_text(struct pb_config *cfg, const struct config_key *k, const char *value, char *why,
		     size_t whylen)
{
	pb_err aerr;
	int n = 0;

	if (has_control_chars(value)) {
		snprintf(why, whylen, "a control character in '%.100s'", value);
		return false;
	}
	if (k->type == K_ADDRESSES && !mail_address_list(value, NULL, &n, &aerr)) {
		snprintf(why, whylen, "%.200s", aerr.msg);
		return false;
	}
	if (k->type == K_ADDRESSES && (n < k->min || n > k->max)) {
		if (k->max == 1)
			snprintf(why, whylen, "'%.100s' is not one mail address", value);
		else
			snprintf(why, whylen, "more than %d addresses", k->max);
		return false;
	}
	free(*string_field(cfg, k));
	*string_field(cfg, k) = xstrdup(value);
	return true;
}

/* K_ACCEL and K_EXECUTOR: one of the names of its table. */
static bool set_enum(struct pb_config *cfg, const struct config_key *k, const char *value, char *why,
		     size_t whylen)
{
	const struct pb_names *names = key_names(k);
	int i;
	pb_str all;

	if (pb_names_parse(names, value, &i)) {
		*int_field(cfg, k) = i;
		return true;
	}
	str_init(&all);
	for (i = 0; i < names->count; i++)
		str_addf(&all, "%s%s", i ? ", " : "", names->names[i]);
	snprintf(why, whylen, "'%.100s' is not one of %s", value, all.buf);
	str_free(&all);
	return false;
}

static bool set_value(struct pb_config *cfg, const struct config_key *k, const char *value,
		      const char *base_dir, char *why, size_t whylen)
{
	switch (k->type) {
	case K_PATH: {
		char **f = string_field(cfg, k);

		if (!value[0]) {
			snprintf(why, whylen, "empty path");
			return false;
		}
		free(*f);
		*f = abs_path_from(base_dir, value);
		return true;
	}
	case K_INT:
		return set_int(cfg, k, value, why, whylen);
	case K_REAL:
		return set_real(cfg, k, value, why, whylen);
	case K_TEXT:
	case K_ADDRESSES:
		return set_text(cfg, k, value, why, whylen);
	case K_ACCEL:
	case K_EXECUTOR:
		return set_enum(cfg, k, value, why, whylen);
	}
	return false;
}

struct parse_state {
	struct pb_config *cfg;
	FILE *file;
	int lineno;          /* of the line inih read last */
	bool at_line_start;
	int error_line;      /* of first_error */
	char first_error[512];
	bool seen[PB_ARRAY_SIZE(keys)];
};

/* inih's reader, counting lines so that the handler knows where it is
 * (inih reports only the first error's line, and goes on parsing). */
static char *counting_reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	char *r = fgets(str, num, ps->file);

	if (r) {
		if (ps->at_line_start)
			ps->lineno++;
		ps->at_line_start = strchr(r, '\n') != NULL;
	}
	return r;
}

/* A value that goes into a guest's argument list: one plain word. */
static bool param_value_ok(const char *v)
{
	if (!*v || strlen(v) > 64)
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._-/,", *v))
			return false;
	return true;
}

static struct workload_param *find_param(struct pb_config *cfg, const char *workload,
					 const char *key)
{
	for (int i = 0; i < cfg->nparams; i++)
		if (!strcmp(cfg->params[i].workload, workload) && !strcmp(cfg->params[i].key, key))
			return &cfg->params[i];
	return NULL;
}

/* The file gives a key once; -c overrides it (or an earlier -c). */
static bool set_param(struct pb_config *cfg, const char *workload, const char *key,
		      const char *value, char *why, size_t whylen)
{
	struct workload_param *wp = find_param(cfg, workload, key);

	if (!param_value_ok(value)) {
		snprintf(why, whylen, "'%.60s' is not one plain word (letters, digits, . _ - /)", value);
		return false;
	}
	if (wp) {
		free(wp->value);
		wp->value = xstrdup(value);
		return true;
	}
	cfg->params = xrealloc(cfg->params, sizeof(*cfg->params) * (size_t)(cfg->nparams + 1));
	cfg->params[cfg->nparams++] = (struct workload_param){ xstrdup(workload), xstrdup(key),
							       xstrdup(value) };
	return true;
}

static int ini_handler_cb(void *user, const char *section, const char *name, const char *value)
{
	struct parse_state *ps = user;
	const struct config_key *k;
	char why[256];

	if (ps->first_error[0])
		return 0; /* only the first error is reported; later lines are not judged */
	ps->error_line = ps->lineno;
	if (starts_with(section, "workload ") && section[9]) {
		if (find_param(ps->cfg, section + 9, name)) {
			snprintf(ps->first_error, sizeof(ps->first_error),
				 "[%.60s] %.60s: given twice (or continued on an indented line)",
				 section, name);
			return 0;
		}
		/* checked against the workload's placeholders when it runs */
		if (!set_param(ps->cfg, section + 9, name, value, why, sizeof(why))) {
			snprintf(ps->first_error, sizeof(ps->first_error), "[%.60s] %.60s: %s", section,
				 name, why);
			return 0;
		}
		return 1;
	}
	if (!known_section(section)) {
		snprintf(ps->first_error, sizeof(ps->first_error), "unknown section [%.100s]",
			 section);
		return 0;
	}
	k = find_key(section, name);
	if (!k && find_retired(section, name)) {
		snprintf(ps->first_error, sizeof(ps->first_error),
			 "[%s] %s: no longer used (%s): remove it", section, name,
			 find_retired(section, name)->why);
		return 0;
	}
	if (!k) {
		snprintf(ps->first_error, sizeof(ps->first_error), "[%s] %.100s: unknown key",
			 section, name);
		return 0;
	}
	if (ps->seen[k - keys]) {
		snprintf(ps->first_error, sizeof(ps->first_error),
			 "[%s] %s: given twice (or continued on an indented line)", section, name);
		return 0;
	}
	ps->seen[k - keys] = true;
	if (!set_value(ps->cfg, k, value, ps->cfg->base_dir, why, sizeof(why))) {
		snprintf(ps->first_error, sizeof(ps->first_error), "[%s] %s: %s", section, name,
			 why);
		return 0;
	}
	return 1;
}

/* Paths a config.ini leaves out: perfbot's own files wherever it is
 * (checkout or install), results and reports beside config.ini in a
 * checkout and in the state directory when installed (layout.h). */
static void set_default_paths(struct pb_config *cfg)
{
	const struct pb_layout *l = layout_get();
	const char *data = l->data_dir ? l->data_dir : cfg->base_dir;
	const char *state = cfg->base_dir;

	if (l->installed)
		state = l->state_dir;
	cfg->queue_dir = path_join(data, "queue/stable-5.13");
	cfg->fragment = path_join(data, "kernels/mm.config");
	cfg->ports_dir = path_join(data, "kernels/ports");
	cfg->workloads_dir = path_join(data, "workloads");
	cfg->db_path = path_join(state, "results.db");
	cfg->report_dir = path_join(state, "reports");
	cfg->cache_dir = xstrdup(l->cache_dir);
}

char *config_spool_dir(const struct pb_config *cfg)
{
	const char *slash;

	if (cfg->spool_dir)
		return xstrdup(cfg->spool_dir);
	slash = strrchr(cfg->db_path, '/');
	if (!slash)
		return xstrdup("spool");
	return xasprintf("%.*s/spool", (int)(slash - cfg->db_path), cfg->db_path);
}

static void set_defaults(struct pb_config *cfg)
{
	set_default_paths(cfg);
	cfg->kernel_source = xstrdup("/usr/src/linux-source-6.1.tar.xz");
	cfg->jobs = 0;
	cfg->ccache_dir = NULL; /* NULL: <cache dir>/ccache, whatever cache.dir ends up */
	cfg->accel = ACCEL_AUTO;
	cfg->memory_mb = 1024;
	cfg->vcpus = 2;
	cfg->numa_nodes = 2;
	cfg->boot_timeout = 300;
	cfg->kvm_probe_timeout = 15;
	cfg->parallel = 0;
	cfg->boots = CONFIG_DEFAULT_BOOTS;
	cfg->iterations = CONFIG_DEFAULT_ITERATIONS;
	cfg->warmup = CONFIG_DEFAULT_WARMUP;
	cfg->max_boots = 10;
	cfg->budget_minutes = 15;
	cfg->seed = 0;
	cfg->gate_pct = 2.0;
	cfg->icount_gate_pct = 0.5;
	cfg->alpha = 0.01;
	cfg->beta = 0.05;
	cfg->calibrate_boots = 4;
	cfg->report_url = xstrdup("");
	cfg->mail_from = xstrdup("perfbot <perfbot@localhost>");
	cfg->mail_cc = xstrdup("linux-mm@kvack.org");
	cfg->mail_sendmail = xstrdup("");
	cfg->executor = EXECUTOR_LOCAL;
	cfg->slurm_partition = xstrdup("");
	cfg->slurm_account = xstrdup("");
	cfg->slurm_time_limit = 120;
	cfg->slurm_cpus = 2;
	cfg->slurm_max_jobs = 16;
	cfg->slurm_resubmits = 2;
	cfg->slurm_extra_args = xstrdup("");
	cfg->spool_keep_days = 14;
}

bool config_load(struct pb_config *cfg, const char *path, pb_err *err)
{
	struct parse_state ps;
	char *slash;
	int line;

	memset(cfg, 0, sizeof(*cfg));
	cfg->path = abs_path_from(NULL, path);
	cfg->base_dir = xstrdup(cfg->path);
	slash = strrchr(cfg->base_dir, '/');
	if (slash)
		*(slash == cfg->base_dir ? slash + 1 : slash) = '\0';
	set_defaults(cfg);

	memset(&ps, 0, sizeof(ps));
	ps.cfg = cfg;
	ps.at_line_start = true;
	ps.file = fopen(cfg->path, "r");
	if (!ps.file) {
		pb_seterr(err, "%s: cannot read config: %s", cfg->path, strerror(errno));
		config_free(cfg);
		return false;
	}
	{
		struct stat st;

		/* fopen() opens a directory; reading it would give an empty config */
		if (fstat(fileno(ps.file), &st) != 0 || !S_ISREG(st.st_mode)) {
			pb_seterr(err, "%s: cannot read config: not a regular file", cfg->path);
			fclose(ps.file);
			config_free(cfg);
			return false;
		}
	}
	line = ini_parse_stream(counting_reader, &ps, ini_handler_cb, &ps);
	fclose(ps.file);
	if (line < 0) {
		pb_seterr(err, "%s: out of memory while reading", cfg->path);
	} else if (line > 0 && ps.first_error[0] && ps.error_line <= line) {
		pb_seterr(err, "%s:%d: %s", cfg->path, ps.error_line, ps.first_error);
	} else if (line > 0) {
		pb_seterr(err, "%s:%d: syntax error (expected [section] or key = value)", cfg->path,
			  line);
	} else {
		return true;
	}
	config_free(cfg);
	return false;
}

bool config_set(struct pb_config *cfg, const char *section, const char *key, const char *value,
		pb_err *err)
{
	const struct config_key *k = find_key(section, key);
	char why[256], cwd[PATH_MAX];
	const char *dot = strchr(key, '.');

	if (!strcmp(section, "workload") && dot && dot > key && dot[1]) {
		/* -c workload.NAME.key=value */
		char *wl = xstrndup(key, (size_t)(dot - key));
		bool ok = set_param(cfg, wl, dot + 1, value, why, sizeof(why));

		if (!ok)
			pb_seterr(err, "workload.%s: %s", key, why);
		free(wl);
		return ok;
	}
	if (!k && find_retired(section, key)) {
		pb_seterr(err, "%s.%s: no longer used (%s)", section, key,
			  find_retired(section, key)->why);
		return false;
	}
	if (!k) {
		pb_seterr(err, "unknown configuration key %s.%s", section, key);
		return false;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	/* On the command line a relative path means relative to where you are. */
	if (!set_value(cfg, k, value, cwd, why, sizeof(why))) {
		pb_seterr(err, "%s.%s: %s", section, key, why);
		return false;
	}
	return true;
}

bool config_override(struct pb_config *cfg, const char *assignment, pb_err *err)
{
	const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
	char section[64], key[64];

	if (!dot || !eq || dot > eq || (size_t)(dot - assignment) >= sizeof(section) ||
	    (size_t)(eq - dot - 1) >= sizeof(key)) {
		pb_seterr(err, "'%.200s': expected section.key=value", assignment);
		return false;
	}
	snprintf(section, sizeof(section), "%.*s", (int)(dot - assignment), assignment);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	return config_set(cfg, section, key, eq + 1, err);
}

void config_dump(const struct pb_config *cfg, FILE *out)
{
	for (int i = 0; i < cfg->nparams; i++)
		fprintf(out, "workload.%s.%s = %s\n", cfg->params[i].workload, cfg->params[i].key,
			cfg->params[i].value);
	for (size_t i = 0; i < PB_ARRAY_SIZE(keys); i++) {
		const struct config_key *k = &keys[i];
		struct pb_config *c = (struct pb_config *)cfg;

		fprintf(out, "%s.%s = ", k->section, k->key);
		switch (k->type) {
		case K_PATH:
			if (*string_field(c, k)) {
				fprintf(out, "%s\n", *string_field(c, k));
			} else if (string_field(c, k) == &c->spool_dir) {
				char *spool = config_spool_dir(cfg);

				fprintf(out, "%s\n", spool);
				free(spool);
			} else {
				fprintf(out, "%s/ccache\n", cfg->cache_dir);
			}
			break;
		case K_INT:
			fprintf(out, "%d\n", *int_field(c, k));
			break;
		case K_REAL:
			fprintf(out, "%g\n", *real_field(c, k));
			break;
		case K_ACCEL:
		case K_EXECUTOR:
			fprintf(out, "%s\n", pb_names_name(key_names(k), *int_field(c, k)));
			break;
		case K_TEXT:
		case K_ADDRESSES:
			fprintf(out, "%s\n", *string_field(c, k));
			break;
		}
	}
}

char *config_queue_spool(const struct pb_config *cfg)
{
	return xasprintf("%s/queue-mails", cfg->cache_dir);
}

void config_free(struct pb_config *cfg)
{
	for (size_t i = 0; i < PB_ARRAY_SIZE(keys); i++)
		if (is_string_key(&keys[i]))
			free(*string_field(cfg, &keys[i]));
	for (int i = 0; i < cfg->nparams; i++) {
		free(cfg->params[i].workload);
		free(cfg->params[i].key);
		free(cfg->params[i].value);
	}
	free(cfg->params);
	free(cfg->path);
	free(cfg->base_dir);
	memset(cfg, 0, sizeof(*cfg));
}
