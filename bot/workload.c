#include "workload.h"

#include <ctype.h>
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

static int wl_handler(void *user, const char *section, const char *name, const char *value)
{
	struct wl_parse *ps = user;
	struct workload *w = ps->w;

	if (ps->error[0])
		return 0;
	if (!strcmp(section, "workload")) {
		char **field = NULL;

		if (!strcmp(name, "binary"))
			field = &w->binary;
		else if (!strcmp(name, "description"))
			field = &w->description;
		else if (!strcmp(name, "args"))
			field = &w->args;
		else if (!strcmp(name, "kernel_cmdline"))
			field = &w->kernel_cmdline;
		if (field) {
			free(*field);
			*field = xstrdup(value);
		} else if (!strcmp(name, "numa_nodes")) {
			w->numa_nodes = atoi(value);
			if (w->numa_nodes < 1 || w->numa_nodes > 8) {
				snprintf(ps->error, sizeof(ps->error), "numa_nodes: '%s' is not 1..8", value);
				return 0;
			}
		} else if (!strcmp(name, "setup") || !strcmp(name, "run_before")) {
			bool write = !strcmp(name, "setup");

			if (write && (value[0] != '/' || !strchr(value, ' '))) {
				snprintf(ps->error, sizeof(ps->error),
					 "setup: '%.100s' is not '/absolute/path value'", value);
				return 0;
			}
			if (!value[0] || strchr(value, '\n')) {
				snprintf(ps->error, sizeof(ps->error), "%s: empty", name);
				return 0;
			}
			w->steps = xrealloc(w->steps, sizeof(*w->steps) * (size_t)(w->nsteps + 1));
			w->steps[w->nsteps++] = (struct guest_step){ write ? 'w' : 'x', xstrdup(value) };
		} else if (!strcmp(name, "disk")) {
			char dname[64], fs[16];
			int mb;

			if (sscanf(value, "%63s %d %15s", dname, &mb, fs) != 3 || !name_ok(dname) ||
			    mb < 1 || mb > 65536 || (strcmp(fs, "ext4") && strcmp(fs, "raw"))) {
				snprintf(ps->error, sizeof(ps->error),
					 "disk: '%.100s' is not 'name size_mb ext4|raw'", value);
				return 0;
			}
			w->disks = xrealloc(w->disks, sizeof(*w->disks) * (size_t)(w->ndisks + 1));
			w->disks[w->ndisks++] = (struct disk_def){ xstrdup(dname), mb, xstrdup(fs) };
		} else if (!strcmp(name, "host_binary")) {
			if (value[0] != '/' || strchr(value, ' ')) {
				snprintf(ps->error, sizeof(ps->error), "host_binary: '%.100s' is not an absolute path",
					 value);
				return 0;
			}
			w->host_binaries = xrealloc(w->host_binaries,
						    sizeof(char *) * (size_t)(w->nhost_binaries + 1));
			w->host_binaries[w->nhost_binaries++] = xstrdup(value);
		} else if (!strcmp(name, "perf_events")) {
			/* each event becomes a metric perf_<event>, compared with the
			 * magnitude gate: fault and switch counts move a little with
			 * reclaim and scheduling even under icount */
			char *copy = xstrdup(value), *tok, *save = NULL;

			for (const char *p = value; *p; p++)
				if (!islower((unsigned char)*p) && !strchr("-,", *p)) {
					snprintf(ps->error, sizeof(ps->error),
						 "perf_events: '%.80s' is not a list like page-faults,major-faults",
						 value);
					free(copy);
					return 0;
				}
			for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				char *metric = xasprintf("perf_%s", tok);

				for (char *m = metric; *m; m++)
					if (*m == '-')
						*m = '_';
				if (!workload_metric(w, metric)) {
					w->metrics = xrealloc(w->metrics,
							      sizeof(*w->metrics) * (size_t)(w->nmetrics + 1));
					w->metrics[w->nmetrics++] = (struct metric_def){
						.name = metric, .unit = xstrdup("events"),
						.description = xasprintf("perf stat -e %s around the whole workload", tok),
						.better = -1, .kind = METRIC_TIME };
				} else {
					free(metric);
				}
			}
			free(copy);
			free(w->perf_events);
			w->perf_events = xstrdup(value);
			ps->cur = NULL; /* metrics may have moved */
		} else if (!strcmp(name, "selftests")) {
			if (strcmp(value, "vm")) {
				snprintf(ps->error, sizeof(ps->error), "selftests: '%.40s': only vm is known", value);
				return 0;
			}
			w->selftests_vm = true;
		} else if (!strcmp(name, "host_package")) {
			free(w->host_package);
			w->host_package = xstrdup(value);
		} else if (!strcmp(name, "fallback")) {
			if (strcmp(value, "yes") && strcmp(value, "no")) {
				snprintf(ps->error, sizeof(ps->error), "fallback: '%.20s' is not yes or no", value);
				return 0;
			}
			w->fallback = !strcmp(value, "yes");
		} else if (!strcmp(name, "paths")) {
			split_words(value, &w->paths, &w->npaths);
		} else {
			snprintf(ps->error, sizeof(ps->error), "[workload] %.60s: unknown key", name);
			return 0;
		}
		return 1;
	}
	if (starts_with(section, "metric ")) {
		const char *mname = section + 7;

		if (!ps->cur || strcmp(ps->cur->name, mname)) {
			if (!name_ok(mname) || workload_metric(w, mname)) {
				snprintf(ps->error, sizeof(ps->error), "[metric %.60s]: bad or repeated name",
					 mname);
				return 0;
			}
			w->metrics = xrealloc(w->metrics, sizeof(*w->metrics) * (size_t)(w->nmetrics + 1));
			ps->cur = &w->metrics[w->nmetrics++];
			*ps->cur = (struct metric_def){ .name = xstrdup(mname), .unit = xstrdup(""),
							.description = xstrdup(""), .better = -1 };
		}
		if (!strcmp(name, "unit")) {
			free(ps->cur->unit);
			ps->cur->unit = xstrdup(value);
		} else if (!strcmp(name, "description")) {
			free(ps->cur->description);
			ps->cur->description = xstrdup(value);
		} else if (!strcmp(name, "better")) {
			if (!strcmp(value, "higher"))
				ps->cur->better = 1;
			else if (!strcmp(value, "lower"))
				ps->cur->better = -1;
			else {
				snprintf(ps->error, sizeof(ps->error), "better: '%.40s' is not higher or lower",
					 value);
				return 0;
			}
		} else if (!strcmp(name, "kind")) {
			if (!strcmp(value, "time"))
				ps->cur->kind = METRIC_TIME;
			else if (!strcmp(value, "behaviour"))
				ps->cur->kind = METRIC_BEHAVIOUR;
			else {
				snprintf(ps->error, sizeof(ps->error), "kind: '%.40s' is not time or behaviour",
					 value);
				return 0;
			}
		} else {
			snprintf(ps->error, sizeof(ps->error), "[metric] %.60s: unknown key", name);
			return 0;
		}
		return 1;
	}
	snprintf(ps->error, sizeof(ps->error), "unknown section [%.60s]", section);
	return 0;
}

static void workload_free(struct workload *w)
{
	free(w->name);
	free(w->binary);
	free(w->description);
	free(w->args);
	free(w->kernel_cmdline);
	for (int i = 0; i < w->nhost_binaries; i++)
		free(w->host_binaries[i]);
	free(w->host_binaries);
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
	for (int i = 0; i < w->npaths; i++)
		free(w->paths[i]);
	free(w->paths);
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

int workloads_for_patch(const struct workload_set *set, const struct pb_patch *p,
			const struct workload **out, int max, bool *fallback)
{
	int n = 0;

	for (int i = 0; i < set->n && n < max; i++) {
		bool covers = false;

		for (int f = 0; f < p->nfiles && !covers; f++)
			for (int k = 0; k < set->w[i].npaths && !covers; k++)
				covers = starts_with(p->files[f].path, set->w[i].paths[k]);
		if (covers)
			out[n++] = &set->w[i];
	}
	*fallback = n == 0;
	for (int i = 0; i < set->n && *fallback && n < max; i++)
		if (set->w[i].fallback)
			out[n++] = &set->w[i];
	for (int i = 0; i < set->n && *fallback && !n && n < max; i++)
		out[n++] = &set->w[i];
	return n;
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
