#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

/* Names the guest may use: lower-case words, digits, '_' and '-'. */
static bool word_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static struct workload_result *workload_entry(struct boot_results *r, const char *name)
{
	for (int i = 0; i < r->nworkloads; i++)
		if (!strcmp(r->workloads[i].name, name))
			return &r->workloads[i];
	if (r->nworkloads >= RESULTS_MAX_WORKLOADS)
		return NULL;
	r->workloads = xrealloc(r->workloads, sizeof(*r->workloads) * (size_t)(r->nworkloads + 1));
	r->workloads[r->nworkloads] = (struct workload_result){ .name = xstrdup(name), .exit_status = -1 };
	return &r->workloads[r->nworkloads++];
}

const struct workload_result *results_workload(const struct boot_results *r, const char *name)
{
	for (int i = 0; i < r->nworkloads; i++)
		if (!strcmp(r->workloads[i].name, name))
			return &r->workloads[i];
	return NULL;
}

bool results_ran(const struct boot_results *r, const char *name)
{
	if (results_workload(r, name))
		return true;
	for (int i = 0; i < r->nsamples; i++)
		if (!strcmp(r->samples[i].workload, name))
			return true;
	return false;
}

/* "end <workload> <status>": a status no exit could give is -1. */
static void end_line(struct workload_result *w, char **save)
{
	char *st = strtok_r(NULL, " ", save), *end;
	long v = st ? strtol(st, &end, 10) : -1;

	w->ended = true;
	w->exit_status = (st && !*end && v >= 0 && v < 256) ? (int)v : -1;
}

/* "check <workload> ok|invalid <why>": the workload's own judgement of its
 * run, in the words of the boot it makes; the first one counts, so that a
 * confused guest cannot take it back. */
static void check_line(struct boot_results *r, struct workload_result *w, char **save)
{
	char *verdict = strtok_r(NULL, " ", save);
	enum boot_outcome o;

	if (w->checked || !boot_outcome_parse(verdict, &o) || (o != BOOT_OK && o != BOOT_INVALID)) {
		r->ignored_lines++;
		return;
	}
	w->checked = true;
	w->ok = o == BOOT_OK;
	free(w->reason);
	w->reason = xstrndup(*save ? trim(*save) : "", 300);
}

/* "sample <workload> <iteration> <metric> <value>": a malformed one is
 * ignored, a flood of them refuses the whole boot. */
static bool sample_line(struct boot_results *r, const char *workload, char **save, pb_err *err)
{
	char *it = strtok_r(NULL, " ", save), *metric = strtok_r(NULL, " ", save);
	char *val = strtok_r(NULL, " ", save), *e1, *e2;
	long iteration;
	double value;

	if (!it || !metric || !val || !word_ok(metric)) {
		r->ignored_lines++;
		return true;
	}
	errno = 0;
	iteration = strtol(it, &e1, 10);
	value = strtod(val, &e2);
	if (*e1 || *e2 || errno || iteration < 0 || iteration > 1000000 || !isfinite(value)) {
		r->ignored_lines++;
		return true;
	}
	if (r->nsamples >= RESULTS_MAX_SAMPLES) {
		pb_seterr(err, "guest reported more than %d samples", RESULTS_MAX_SAMPLES);
		return false;
	}
	if (r->nsamples == r->samples_cap) {
		r->samples_cap = r->samples_cap ? 2 * r->samples_cap : 64;
		r->samples = xrealloc(r->samples, sizeof(*r->samples) * (size_t)r->samples_cap);
	}
	r->samples[r->nsamples++] = (struct result_sample){
		.workload = xstrdup(workload), .metric = xstrdup(metric),
		.iteration = (int)iteration, .value = value };
	return true;
}

/* One line of the port: "PB1 <verb> ..."; anything else is the kernel's
 * or the guest's chatter, counted and ignored. False only for a guest
 * that reports more than perfbot keeps. */
static bool parse_line(struct boot_results *r, char *line, pb_err *err)
{
	char *save = NULL, *verb, *name;
	struct workload_result *w;

	if (!starts_with(line, "PB1 ")) {
		r->ignored_lines++;
		return true;
	}
	strtok_r(line, " ", &save);
	verb = strtok_r(NULL, " ", &save);
	if (!verb) {
		r->ignored_lines++;
		return true;
	}
	if (!strcmp(verb, "done")) { /* names: the guest's verb, not a job's state */
		r->done = true;
		return true;
	}
	if (!strcmp(verb, "setup")) {
		char *rest = save ? trim(save) : NULL;

		if (rest && ends_with(rest, " failed") && !r->setup_failure)
			r->setup_failure = xstrndup(rest, strlen(rest) - 7);
		return true;
	}
	name = strtok_r(NULL, " ", &save);
	if (!name || !word_ok(name)) {
		r->ignored_lines++;
		return true;
	}
	w = workload_entry(r, name);
	if (!w) {
		pb_seterr(err, "guest reported more than %d workloads", RESULTS_MAX_WORKLOADS);
		return false;
	}
	if (!strcmp(verb, "begin"))
		w->begun = true;
	else if (!strcmp(verb, "end"))
		end_line(w, &save);
	else if (!strcmp(verb, "check"))
		check_line(r, w, &save);
	else if (!strcmp(verb, "sample"))
		return sample_line(r, name, &save, err);
	else
		r->ignored_lines++;
	return true;
}

bool results_parse(const char *text, size_t len, struct boot_results *r, pb_err *err)
{
	char *copy, *line, *next;
	bool ok = true;

	memset(r, 0, sizeof(*r));
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = copy; line && ok; line = next) {
		size_t n;

		next = memchr(line, '\n', len - (size_t)(line - copy));
		if (next)
			*next++ = '\0';
		n = strlen(line); /* a NUL from the guest ends the line there */
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (n > 4096) {
			r->ignored_lines++;
			continue;
		}
		ok = parse_line(r, line, err);
		if (next && (size_t)(next - copy) >= len)
			next = NULL;
	}
	free(copy);
	if (!ok)
		results_free(r);
	return ok;
}

