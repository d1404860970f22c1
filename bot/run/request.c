/* A request's command line (request.h). */
#include "request.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add(char **argv, int *n, char *word)
{
	argv[(*n)++] = word;
}

char **request_argv(const struct request *r, int *n)
{
	char **argv = xcalloc((size_t)(2 * r->nonly + 12), sizeof(char *));
	int k = 0;

	switch (r->kind) {
	case REQUEST_PATCH:
	case REQUEST_SERIES:
		add(argv, &k, xstrdup("run"));
		if (r->kind == REQUEST_SERIES) {
			add(argv, &k, xstrdup("--series"));
			if (r->mm_only)
				add(argv, &k, xstrdup("--mm-only"));
			if (r->no_bisect)
				add(argv, &k, xstrdup("--no-bisect"));
		} else {
			add(argv, &k, xstrdup("--patch"));
			add(argv, &k, xasprintf("%d", r->number));
		}
		for (int i = 0; i < r->nonly; i++) {
			add(argv, &k, xstrdup("--workload"));
			add(argv, &k, xstrdup(r->only[i]));
		}
		if (r->force)
			add(argv, &k, xstrdup("--force"));
		if (r->all)
			add(argv, &k, xstrdup("--all"));
		break;
	case REQUEST_BISECT:
		add(argv, &k, xstrdup("bisect"));
		if (r->comparison) {
			add(argv, &k, xstrdup("--comparison"));
			add(argv, &k, xasprintf("%lld", r->comparison));
		}
		if (r->metric) {
			add(argv, &k, xstrdup("--metric"));
			add(argv, &k, xstrdup(r->metric));
		}
		break;
	case REQUEST_CALIBRATE:
		add(argv, &k, xstrdup("calibrate"));
		for (int i = 0; i < r->nonly; i++) {
			add(argv, &k, xstrdup("-w"));
			add(argv, &k, xstrdup(r->only[i]));
		}
		if (r->per_side) {
			add(argv, &k, xstrdup("-b"));
			add(argv, &k, xasprintf("%d", r->per_side));
		}
		break;
	}
	if (n)
		*n = k;
	return argv;
}

void request_argv_free(char **argv)
{
	for (char **w = argv; w && *w; w++)
		free(*w);
	free(argv);
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool request_equal(const struct request *a, const struct request *b)
{
	if (a->kind != b->kind || a->nonly != b->nonly)
		return false;
	for (int i = 0; i < a->nonly; i++)
		if (strcmp(a->only[i], b->only[i]))
			return false;
	switch (a->kind) {
	case REQUEST_PATCH:
		return a->number == b->number && a->force == b->force && a->all == b->all;
	case REQUEST_SERIES:
		return a->mm_only == b->mm_only && a->no_bisect == b->no_bisect &&
		       a->force == b->force && a->all == b->all;
	case REQUEST_BISECT:
		return a->comparison == b->comparison && same_string(a->metric, b->metric);
	case REQUEST_CALIBRATE:
		return a->per_side == b->per_side;
	}
	return false;
}
