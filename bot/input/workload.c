#include "workload.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

struct wl_parse {
	struct workload *w;
	struct metric_def *cur;
	char error[300];
};

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static void split_words(const char *value, char ***arr, int *n)
{
	char *copy = xstrdup(value), *tok, *save = NULL;

	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		*arr = xrealloc(*arr, sizeof(char *) * (size_t)(*n + 1));
		(*arr)[(*n)++] = xstrdup(tok);
	}
	free(copy);
}

static bool wl_fail(struct wl_parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The error, for the "FILE:LINE: why" message: false, so that inih stops. */
static bool wl_fail(struct wl_parse *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->error, sizeof(ps->error), fmt, ap);
	va_end(ap);
	return false;
}

/* A key of a section: set() checks and stores the value; offset is that of
 * a plain string field (in struct workload, or struct metric_def). */
struct wl_key {
	const char *name;
	bool (*set)(struct wl_parse *ps, const struct wl_key *k, const char *value);
	size_t offset;
};

static void set_string(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static bool wl_string(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	set_string((char **)((char *)ps->w + k->offset), value);
	return true;
}

static bool wl_numa_nodes(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	(void)k;
	ps->w->numa_nodes = atoi(value);
	if (ps->w->numa_nodes < 1 || ps->w->numa_nodes > 8)
		return wl_fail(ps, "numa_nodes: '%s' is not 1..8", value);
	return true;
}

/* setup = /path value (written) and run_before = command (run) are one
 * list: init runs them in the order the file gives them. */
static bool wl_step(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	struct workload *w = ps->w;
	bool write = !strcmp(k->name, "setup");

	if (write && (value[0] != '/' || !strchr(value, ' ')))
		return wl_fail(ps, "setup: '%.100s' is not '/absolute/path value'", value);
	if (!value[0] || strchr(value, '\n'))
		return wl_fail(ps, "%s: empty", k->name);
	w->steps = xrealloc(w->steps, sizeof(*w->steps) * (size_t)(w->nsteps + 1));
	w->steps[w->nsteps++] = (struct guest_step){ write ? 'w' : 'x', xstrdup(value) };
	return true;
}

static bool wl_disk(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	struct workload *w = ps->w;
	char dname[64], fs[16];
	int mb;

	(void)k;
	if (sscanf(value, "%63s %d %15s", dname, &mb, fs) != 3 || !name_ok(dname) || mb < 1 ||
	    mb > 65536 || (strcmp(fs, "ext4") && strcmp(fs, "raw")))
		return wl_fail(ps, "disk: '%.100s' is not 'name size_mb ext4|raw'", value);
	w->disks = xrealloc(w->disks, sizeof(*w->disks) * (size_t)(w->ndisks + 1));
	w->disks[w->ndisks++] = (struct disk_def){ xstrdup(dname), mb, xstrdup(fs) };
	return true;
}

static bool wl_host_binary(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	struct workload *w = ps->w;

	(void)k;
	if (value[0] != '/' || strchr(value, ' '))
		return wl_fail(ps, "host_binary: '%.100s' is not an absolute path", value);
	w->host_binaries = xrealloc(w->host_binaries, sizeof(char *) * (size_t)(w->nhost_binaries + 1));
	w->host_binaries[w->nhost_binaries++] = xstrdup(value);
	return true;
}

/* Room for one more metric, which is returned (pointers into w->metrics
 * may move). */
static struct metric_def *add_metric(struct workload *w)
{
	w->metrics = xrealloc(w->metrics, sizeof(*w->metrics) * (size_t)(w->nmetrics + 1));
	return &w->metrics[w->nmetrics++];
}

/* Each event becomes a metric perf_<event>, a diagnostic: fault and switch
 * counts move a little with reclaim and scheduling even under icount, and
 * what they explain is shown, never a verdict on its own. */
static bool wl_perf_events(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	struct workload *w = ps->w;
	char *copy, *tok, *save = NULL;

	(void)k;
	for (const char *p = value; *p; p++)
		if (!islower((unsigned char)*p) && !strchr("-,", *p))
			return wl_fail(ps, "perf_events: '%.80s' is not a list like page-faults,major-faults",
				       value);
	copy = xstrdup(value);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *metric = xasprintf("perf_%s", tok);

		for (char *m = metric; *m; m++)
			if (*m == '-')
				*m = '_';
		if (workload_metric(w, metric)) {
			free(metric);
			continue;
		}
		*add_metric(w) = (struct metric_def){
			.name = metric, .unit = xstrdup("events"),
			.description = xasprintf("perf stat -e %s around the whole workload", tok),
			.better = -1, .kind = METRIC_DIAGNOSTIC };
	}
	free(copy);
	set_string(&w->perf_events, value);
	ps->cur = NULL; /* metrics may have moved */
	return true;
}

static bool wl_selftests(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	(void)k;
	if (strcmp(value, "vm"))
		return wl_fail(ps, "selftests: '%.40s': only vm is known", value);
	ps->w->selftests_vm = true;
	return true;
}

/* fallback, parallel: a yes or no into the bool at k->offset. */
static bool wl_yes_no(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	if (strcmp(value, "yes") && strcmp(value, "no"))
		return wl_fail(ps, "%s: '%.20s' is not yes or no", k->name, value);
	*(bool *)((char *)ps->w + k->offset) = !strcmp(value, "yes");
	return true;
}

static bool wl_paths(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	(void)k;
	split_words(value, &ps->w->paths, &ps->w->npaths);
	return true;
}

/* Every key of [workload]: anything else is an error, so that a typo never
 * silently drops a setting (workloads/README.md says what each does). */
static const struct wl_key workload_keys[] = {
	{ "binary", wl_string, offsetof(struct workload, binary) },
	{ "description", wl_string, offsetof(struct workload, description) },
	{ "args", wl_string, offsetof(struct workload, args) },
	{ "kernel_cmdline", wl_string, offsetof(struct workload, kernel_cmdline) },
	{ "numa_nodes", wl_numa_nodes, 0 },
	{ "setup", wl_step, 0 },
	{ "run_before", wl_step, 0 },
	{ "disk", wl_disk, 0 },
	{ "host_binary", wl_host_binary, 0 },
	{ "perf_events", wl_perf_events, 0 },
	{ "selftests", wl_selftests, 0 },
	{ "host_package", wl_string, offsetof(struct workload, host_package) },
	{ "fallback", wl_yes_no, offsetof(struct workload, fallback) },
	{ "parallel", wl_yes_no, offsetof(struct workload, side_by_side) },
	{ "paths", wl_paths, 0 },
};

static bool metric_string(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	set_string((char **)((char *)ps->cur + k->offset), value);
	return true;
}

/* A key whose value is one of names' names: "key: 'x' is not a, b or c". */
static bool metric_enum(struct wl_parse *ps, const struct wl_key *k, const char *value,
			const struct pb_names *names, int *v)
{
	char *all;
	bool ok;

	if (pb_names_parse(names, value, v))
		return true;
	all = pb_names_list(names);
	ok = wl_fail(ps, "%s: '%.40s' is not %s", k->name, value, all);
	free(all);
	return ok;
}

static bool metric_better(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	int b;

	if (!metric_enum(ps, k, value, &better_names, &b))
		return false;
	ps->cur->better = b == BETTER_HIGHER ? 1 : -1;
	return true;
}

static bool metric_kind(struct wl_parse *ps, const struct wl_key *k, const char *value)
{
	int kind;

	if (!metric_enum(ps, k, value, &metric_kind_names, &kind))
		return false;
	ps->cur->kind = (enum metric_kind)kind;
	return true;
}

/* Every key of a [metric NAME] section. */
static const struct wl_key metric_keys[] = {
	{ "unit", metric_string, offsetof(struct metric_def, unit) },
	{ "description", metric_string, offsetof(struct metric_def, description) },
	{ "better", metric_better, 0 },
	{ "kind", metric_kind, 0 },
};

static const struct wl_key *find_wl_key(const struct wl_key *keys, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* [metric NAME]: a new metric (lower is better unless it says otherwise),
 * or the one the lines before are filling in. */
static bool metric_section(struct wl_parse *ps, const char *mname)
{
	if (ps->cur && !strcmp(ps->cur->name, mname))
		return true;
	if (!name_ok(mname) || workload_metric(ps->w, mname))
		return wl_fail(ps, "[metric %.60s]: bad or repeated name", mname);
	ps->cur = add_metric(ps->w);
	*ps->cur = (struct metric_def){ .name = xstrdup(mname), .unit = xstrdup(""),
					.description = xstrdup(""), .better = -1 };
	return true;
}

static int wl_handler(void *user, const char *section, const char *name, const char *value)
{
	struct wl_parse *ps = user;
	const struct wl_key *k;

	if (ps->error[0])
		return 0;
	if (!strcmp(section, "workload")) {
		k = find_wl_key(workload_keys, PB_ARRAY_SIZE(workload_keys), name);
		if (!k)
			return wl_fail(ps, "[workload] %.60s: unknown key", name);
		return k->set(ps, k, value);
	}
	if (starts_with(section, "metric ")) {
		if (!metric_section(ps, section + 7))
			return 0;
		k = find_wl_key(metric_keys, PB_ARRAY_SIZE(metric_keys), name);
		if (!k)
			return wl_fail(ps, "[metric] %.60s: unknown key", name);
		return k->set(ps, k, value);
	}
	return wl_fail(ps, "unknown section [%.60s]", section);
}

static void workload_free(struct workload *w)
{
	free(w->name);
	free(w->binary);
	free(w->description);
	free(w->args);
	free(w->kernel_cmdline);
	names_free(w->host_binaries, w->nhost_binaries);
	free(w->host_package);
	free(w->perf_events);
	for (int i = 0; i < w->nsteps; i++)
		free(w->steps[i].text);
	free(w->steps);
	for (int i = 0; i < w->ndisks; i++) {
		free(w->disks[i].name);
		free(w->disks[i].fs);
	}
	free(w->disks);
	names_free(w->paths, w->npaths);
	for (int i = 0; i < w->nmetrics; i++) {
		free(w->metrics[i].name);
		free(w->metrics[i].unit);
		free(w->metrics[i].description);
	}
	free(w->metrics);
	memset(w, 0, sizeof(*w));
}

bool workload_load_file(const char *path, struct workload *w, pb_err *err)
{
	struct wl_parse ps = { .w = w };
	const char *base = strrchr(path, '/');
	int line;

	memset(w, 0, sizeof(*w));
	base = base ? base + 1 : path;
	w->name = xstrndup(base, strlen(base) - (ends_with(base, ".ini") ? 4 : 0));
	w->numa_nodes = 1;
	w->side_by_side = true;
	line = ini_parse(path, wl_handler, &ps);
	if (line != 0) {
		pb_seterr(err, "%s:%d: %s", path, line < 0 ? 0 : line,
			  line < 0 ? "cannot read" : ps.error[0] ? ps.error : "syntax error");
		workload_free(w);
		return false;
	}
	if (!name_ok(w->name) || !w->binary || !name_ok(w->binary) || !w->nmetrics) {
		pb_seterr(err, "%s: needs a lower-case name, [workload] binary and at least one [metric]",
			  path);
		workload_free(w);
		return false;
	}
	for (int s = 0; s < w->nsteps; s++) {
		/* every {disk:NAME} must name one of this workload's disks */
		for (const char *p = w->steps[s].text; (p = strstr(p, "{disk:")); p++) {
			const char *end = strchr(p, '}');

			if (!end || !workload_disk(w, p + 6, (size_t)(end - p - 6))) {
				pb_seterr(err, "%s: '%.80s' names a disk the workload does not declare", path,
					  w->steps[s].text);
				workload_free(w);
				return false;
			}
		}
	}
	if (!w->args)
		w->args = xstrdup("");
	w->iterates = strstr(w->args, "{iterations}") != NULL;
	if (!w->kernel_cmdline)
		w->kernel_cmdline = xstrdup("");
	if (!w->description)
		w->description = xstrdup("");
	return true;
}

bool workloads_load(const char *dir, struct workload_set *set, pb_err *err)
{
	static const char *const suffixes[] = { ".ini", NULL };
	int n;
	char **names = dir_names(dir, suffixes, &n);
	bool ok = true;

	memset(set, 0, sizeof(*set));
	if (!names) {
		pb_seterr(err, "workloads %s: cannot open directory", dir);
		return false;
	}
	set->w = xcalloc((size_t)(n ? n : 1), sizeof(struct workload));
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);

		if (ok && workload_load_file(path, &set->w[set->n], err))
			set->n++;
		else
			ok = false;
		free(path);
	}
	names_free(names, n);
	if (ok && !set->n) {
		pb_seterr(err, "workloads %s: no *.ini workload declarations", dir);
		ok = false;
	}
	if (!ok)
		workloads_free(set);
	return ok;
}

void workloads_free(struct workload_set *set)
{
	for (int i = 0; i < set->n; i++)
		workload_free(&set->w[i]);
	free(set->w);
	memset(set, 0, sizeof(*set));
}

const struct workload *workload_find(const struct workload_set *set, const char *name)
{
	for (int i = 0; i < set->n; i++)
		if (!strcmp(set->w[i].name, name))
			return &set->w[i];
	return NULL;
}

const struct disk_def *workload_disk(const struct workload *w, const char *name, size_t len)
{
	for (int d = 0; d < w->ndisks; d++)
		if (strlen(w->disks[d].name) == len && !strncmp(w->disks[d].name, name, len))
			return &w->disks[d];
	return NULL;
}

const struct metric_def *workload_metric(const struct workload *w, const char *name)
{
	for (int i = 0; i < w->nmetrics; i++)
		if (!strcmp(w->metrics[i].name, name))
			return &w->metrics[i];
	return NULL;
}

bool workload_once_per_side(const struct workload *w)
{
	for (int i = 0; i < w->nmetrics; i++)
		if (w->metrics[i].kind == METRIC_TIME)
			return false;
	return true;
}

/* Does any file of ps[] start with one of w's paths? */
static bool covers_any(const struct workload *w, const struct pb_patch *const *ps, int np)
{
	for (int j = 0; j < np; j++)
		for (int f = 0; f < ps[j]->nfiles; f++)
			for (int k = 0; k < w->npaths; k++)
				if (starts_with(ps[j]->files[f].path, w->paths[k]))
					return true;
	return false;
}

int workloads_for_patches(const struct workload_set *set, const struct pb_patch *const *ps, int np,
			  const struct workload **out, int max, bool *fallback)
{
	int n = 0;

	for (int i = 0; i < set->n && n < max; i++)
		if (covers_any(&set->w[i], ps, np))
			out[n++] = &set->w[i];
	*fallback = n == 0;
	for (int i = 0; i < set->n && *fallback && n < max; i++)
		if (set->w[i].fallback)
			out[n++] = &set->w[i];
	for (int i = 0; i < set->n && *fallback && !n && n < max; i++)
		out[n++] = &set->w[i];
	return n;
}

int workloads_for_patch(const struct workload_set *set, const struct pb_patch *p,
			const struct workload **out, int max, bool *fallback)
{
	return workloads_for_patches(set, &p, 1, out, max, fallback);
}

char *workload_args(const struct workload *w, const struct pb_config *cfg, pb_err *err)
{
	pb_str s;
	const char *p = w->args, *open;

	/* every parameter the configuration gives must be a placeholder here */
	for (int i = 0; i < cfg->nparams; i++) {
		char *ph;
		bool found;

		if (strcmp(cfg->params[i].workload, w->name))
			continue;
		ph = xasprintf("{%s=", cfg->params[i].key);
		found = strstr(w->args, ph) != NULL;
		free(ph);
		if (!found) {
			pb_seterr(err, "config: workload %s has no parameter '%s' (its args: %s)", w->name,
				  cfg->params[i].key, w->args);
			return NULL;
		}
	}
	str_init(&s);
	while ((open = strchr(p, '{'))) {
		const char *close = strchr(open, '}'), *eq;
		const char *value = NULL;

		if (!close)
			break;
		str_addn(&s, p, (size_t)(open - p));
		eq = memchr(open, '=', (size_t)(close - open));
		if (!eq && !strncmp(open, "{iterations}", 12)) {
			/* the warm-up iterations run first; compare leaves them out */
			str_addf(&s, "%d", cfg->iterations + cfg->warmup);
		} else if (eq) {
			for (int i = 0; i < cfg->nparams && !value; i++)
				if (!strcmp(cfg->params[i].workload, w->name) &&
				    strlen(cfg->params[i].key) == (size_t)(eq - open - 1) &&
				    !strncmp(cfg->params[i].key, open + 1, (size_t)(eq - open - 1)))
					value = cfg->params[i].value;
			if (value)
				str_add(&s, value);
			else
				str_addn(&s, eq + 1, (size_t)(close - eq - 1));
		} else {
			str_addn(&s, open, (size_t)(close - open + 1));
		}
		p = close + 1;
	}
	str_add(&s, p);
	return str_steal(&s);
}
