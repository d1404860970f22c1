/* A synthetic but complete comparison, for the database and compare tests. */
#ifndef PERFBOT_FIXTURE_H
#define PERFBOT_FIXTURE_H

#include "compare.h"
#include "comparison.h"
#include "kernel.h"
#include "queue.h"
#include "workload.h"

struct fixture {
	struct pb_queue queue;
	struct workload_set workloads;
	const struct workload *chosen[1];
	struct kernel_tree tree;
	struct pair_plan plan;
	struct kernel_config config;
	struct comparison cmp;
};

/* Two boots per side; each side's boots report the given results text. */
bool fixture_init(struct fixture *f, const char *without, const char *with);
/* Replaces the boots (n of them, texts[b] on side sides[b]) and recomputes. */
bool fixture_set_boots(struct fixture *f, int n, const char *const *texts, const enum side *sides);
void fixture_free(struct fixture *f);

/* Rows of a table of db (-1 on error), for the database tests. */
struct sqlite3;
long long fixture_rows(struct sqlite3 *db, const char *table);

#endif
