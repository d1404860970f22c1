/* The guest result-line parser: framing, junk, bounds. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "results.h"

void test_results(void)
{
	static const char text[] =
		"PB1 boot 0.55\r\n"
		"garbage the kernel printed\n"
		"PB1 setup /sys/x 20 ok\n"
		"PB1 setup /sys/y 20 got=3 failed\n"
		"PB1 begin hugetlb-migrate\n"
		"PB1 sample hugetlb-migrate 1 migrate_ms 9.5\r\n"
		"PB1 sample hugetlb-migrate 2 migrate_ms 9.25\n"
		"PB1 sample hugetlb-migrate 2 pages_migrated 32\n"
		"PB1 sample hugetlb-migrate x migrate_ms 1\n"     /* bad iteration */
		"PB1 sample hugetlb-migrate 3 migrate_ms nan\n"   /* not finite */
		"PB1 sample hugetlb-migrate 3 Bad-Name 1\n"       /* bad metric name */
		"PB1 sample hugetlb-migrate 3 migrate_ms 1e999\n" /* overflow */
		"PB1 check hugetlb-migrate invalid too few free huge pages\n"
		"PB1 check hugetlb-migrate ok second check ignored\n"
		"PB1 end hugetlb-migrate 1\n"
		"PB1 begin other\n"
		"PB1 done\n";
	struct boot_results r;
	const struct workload_result *w;
	pb_err err = { "" };

	CHECK(results_parse(text, sizeof(text) - 1, &r, &err));
	CHECK(r.done);
	CHECK_INT(r.nsamples, 3);
	CHECK_STR(r.samples[0].metric, "migrate_ms");
	CHECK(fabs(r.samples[1].value - 9.25) < 1e-12);
	CHECK_INT(r.samples[2].iteration, 2);
	CHECK_STR(r.setup_failure, "/sys/y 20 got=3");
	w = results_workload(&r, "hugetlb-migrate");
	CHECK(w && w->begun && w->ended && w->checked && !w->ok);
	CHECK_INT(w ? w->exit_status : 0, 1);
	CHECK_STR(w ? w->reason : NULL, "too few free huge pages");
	w = results_workload(&r, "other");
	CHECK(w && w->begun && !w->ended && !w->checked);
	CHECK(r.ignored_lines >= 5);
	results_free(&r);

	/* No "done": the boot did not finish. */
	CHECK(results_parse("PB1 begin a\n", 12, &r, &err));
	CHECK(!r.done);
	results_free(&r);
	CHECK(results_parse("", 0, &r, &err));
	CHECK(!r.done && r.nsamples == 0);
	results_free(&r);

	/* the fields of end and check lines, at their bounds */
	{
		static const char lines[] =
			"PB1 end a 255\nPB1 end b 256\nPB1 end c x1\nPB1 end d\n"
			"PB1 check a maybe fine\nPB1 check b ok\nPB1 check c invalid  why  \n"
			"PB1 frobnicate a\nPB1\n";
		const struct workload_result *a, *b, *c, *d;

		CHECK(results_parse(lines, sizeof(lines) - 1, &r, &err));
		a = results_workload(&r, "a");
		b = results_workload(&r, "b");
		c = results_workload(&r, "c");
		d = results_workload(&r, "d");
		CHECK(a && a->ended && a->exit_status == 255 && !a->checked);
		CHECK(b && b->exit_status == -1 && b->checked && b->ok);
		CHECK_STR(b ? b->reason : NULL, "");
		CHECK(c && c->exit_status == -1 && c->checked && !c->ok);
		CHECK_STR(c ? c->reason : NULL, "why");
		CHECK(d && d->ended && d->exit_status == -1);
		/* the unknown check verdict, the unknown verb and the bare PB1 */
		CHECK_INT(r.ignored_lines, 3);
		CHECK(!r.done);
		results_free(&r);
	}
	/* A guest flooding the port is refused, not trusted. */
	{
		pb_str flood;

		str_init(&flood);
		for (int i = 0; i < RESULTS_MAX_SAMPLES + 1; i++)
			str_addf(&flood, "PB1 sample w %d m 1\n", i % 1000);
		CHECK(!results_parse(flood.buf, flood.len, &r, &err));
		CHECK_HAS(err.msg, "more than");
		str_free(&flood);
	}
	/* An over-long line is skipped, the rest still read. */
	{
		pb_str s;

		str_init(&s);
		str_add(&s, "PB1 sample w 1 m ");
		for (int i = 0; i < 5000; i++)
			str_add(&s, "1");
		str_add(&s, "\nPB1 done\n");
		CHECK(results_parse(s.buf, s.len, &r, &err));
		CHECK(r.done && r.nsamples == 0);
		results_free(&r);
		str_free(&s);
	}
}
