/* What perfbot is asked to measure, as data: a patch's run, a series', a
 * bisect of a series comparison, a calibration. The commands build one
 * from their options (cli.c); the executor runs it here, or ships it to a
 * Slurm node as the command line that asks the same (request_argv), which
 * the node's perfbot parses back into the same request. */
#ifndef PERFBOT_REQUEST_H
#define PERFBOT_REQUEST_H

#include <stdbool.h>

enum request_kind {
	REQUEST_PATCH,      /* run --patch N */
	REQUEST_SERIES,     /* run --series */
	REQUEST_BISECT,     /* bisect */
	REQUEST_CALIBRATE,  /* calibrate */
};

struct request {
	enum request_kind kind;
	int number;             /* the patch's series number */
	char *const *only;      /* --workload NAME, nonly of them (none: the patch's paths
				 * choose, or every workload for a calibration) */
	int nonly;
	bool force;             /* measure a patch that is not mm too */
	bool all;               /* run --all */
	bool mm_only;           /* a series: only its mm patches applied */
	bool no_bisect;         /* a series: what it finds is not bisected */
	long long comparison;   /* a bisect's series comparison; 0: the queue's newest */
	const char *metric;     /* a bisect's "workload.metric"; NULL: what the series showed */
	int per_side;           /* a calibration's boots per side; 0: [calibrate] boots */
};

/* perfbot's command line that asks r, after the binary's name: "run",
 * "--patch", "765", "--workload", ... NULL-terminated, *n (may be NULL)
 * its count; every word the caller's (request_argv_free). */
char **request_argv(const struct request *r, int *n);
void request_argv_free(char **argv);

/* Whether a and b ask the same (the round trip through the command line). */
bool request_equal(const struct request *a, const struct request *b);

#endif
