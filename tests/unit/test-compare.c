/* Medians and verdicts from synthetic boots. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fixture.h"

static const struct metric_result *result(const struct comparison *c, const char *metric)
{
	for (int i = 0; i < c->nresults; i++)
		if (!strcmp(c->results[i].def->name, metric))
			return &c->results[i];
	return NULL;
}

#define W "PB1 sample hugetlb-migrate "

void test_compare(void)
{
	struct fixture f;
	const struct metric_result *m;
	double v[] = { 5, 1, 4, 2, 3 }, e[] = { 4, 1, 3, 2 };

	CHECK(fabs(median_of(v, 5) - 3) < 1e-12);
	CHECK(fabs(median_of(e, 4) - 2.5) < 1e-12);
	CHECK(isnan(median_of(v, 0)));

	/* The 771 shape: nothing migrates without the fix, everything with it. */
	CHECK(fixture_init(&f,
			   W "1 migrate_ms 0.05\n" W "1 pages_migrated 0\n" W "1 pgmigrate_fail 8192\n"
			   W "2 migrate_ms 0.05\n" W "2 pages_migrated 0\n" W "2 pgmigrate_fail 8192\n",
			   W "1 migrate_ms 9.0\n" W "1 migrate_ms_per_mib 0.14\n" W "1 pages_migrated 32\n"
			   W "1 pgmigrate_fail 0\n" W "2 migrate_ms 9.2\n" W "2 migrate_ms_per_mib 0.15\n"
			   W "2 pages_migrated 32\n" W "2 pgmigrate_fail 0\n"));
	m = result(&f.cmp, "pages_migrated");
	CHECK(m && m->n[0] == 4 && m->n[1] == 4);
	CHECK(m && m->median[0] == 0 && m->median[1] == 32);
	CHECK_STR(m ? m->verdict : NULL, "behaviour change");
	m = result(&f.cmp, "migrate_ms_per_mib");
	CHECK_STR(m ? m->verdict : NULL, "behaviour change"); /* only one side has it */
	m = result(&f.cmp, "migrate_ms");
	CHECK_STR(m ? m->verdict : NULL, "not comparable"); /* different work, not a speed-up */
	m = result(&f.cmp, "pgmigrate_success");
	CHECK_STR(m ? m->verdict : NULL, "no data");
	fixture_free(&f);

	/* Same behaviour, 10% slower with the patch: a regression. */
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n" W "1 pages_migrated 32\n" W "2 migrate_ms 10\n" W "2 pages_migrated 32\n",
			   W "1 migrate_ms 11\n" W "1 pages_migrated 32\n" W "2 migrate_ms 11\n" W "2 pages_migrated 32\n"));
	m = result(&f.cmp, "migrate_ms");
	CHECK(m && fabs(m->change_pct - 10) < 1e-9);
	CHECK_STR(m ? m->verdict : NULL, "regression");
	CHECK_STR(result(&f.cmp, "pages_migrated")->verdict, "same");
	fixture_free(&f);

	/* 1% faster is under the gate; 10% faster is an improvement. */
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n", W "1 migrate_ms 9.9\n"));
	CHECK_STR(result(&f.cmp, "migrate_ms")->verdict, "no change");
	fixture_free(&f);
	CHECK(fixture_init(&f, W "1 migrate_ms 10\n", W "1 migrate_ms 9\n"));
	CHECK_STR(result(&f.cmp, "migrate_ms")->verdict, "improvement");
	/* a boot that was not ok does not count */
	f.cmp.boots[1].rec.outcome = BOOT_PANIC;
	free(f.cmp.results);
	compare_compute(&f.cmp);
	CHECK_INT(result(&f.cmp, "migrate_ms")->n[1], 1);
	fixture_free(&f);
}
