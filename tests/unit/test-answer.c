/* The answer of a stored comparison: its headline, the terminal's summary
 * (at most 100 columns, the crash once), its JSON, the reproduce line. */
#include <math.h>
#include <stdlib.h>

#include "answer.h"
#include "check.h"
#include "mail.h"

static struct answer sample_answer(void)
{
	struct answer a;

	memset(&a, 0, sizeof(a));
	a.view.id = 7;
	a.view.r = (struct patch_page_row){
		.number = 771, .total = 800, .iterations = 5, .warmup = 1, .boots_per_kernel = 2,
		.series = "5.13", .sha256 = "0123456789abcdef", .subject = "mm: \"quoted\" \\ subject",
		.author = "A <a@b>", .upstream = "", .file = "/q/771.patch", .queue = "/q/stable 5.13",
		.kind = KIND_PATCH, .status = STATUS_MEASURED, .accel = ACCEL_TCG_ICOUNT, .accel_reason = "auto",
		.decided = 1, .verdict = VERDICT_REGRESSION, .behaviour = VERDICT_SAME, .base_version = "6.1.192",
		.config_sha256 = "c0nf", .pair_method = PAIR_FORWARD, .pair_detail = "clean",
		.perfbot_version = "test", .seed = 42, .started_at = "s", .finished_at = "f",
		.boots_run = { 2, 2 }, .boots_ok = { 2, 2 },
	};
	a.view.r.kernel[0] = (struct kernel_row){ .label = "base", .key = "k0", .failure = "",
					     .build_status = BUILD_BUILT, .build_log = "" };
	a.view.r.kernel[1] = (struct kernel_row){ .label = "base+patch", .key = "k1", .failure = "",
					     .build_status = BUILD_BUILT, .build_log = "" };
	a.view.r.qemu_cmdline[1] = "qemu-system-x86_64 -kernel k1 -append console=ttyS0 panic=-1 -serial stdio";
	return a;
}

static void add(struct answer *a, const char *workload, const char *metric, const char *kind,
		const char *verdict, double x, double y)
{
	struct result_row r = { .workload = workload, .metric = metric, .unit = "ms",
				.verdict = verdict_from_name(verdict), .median_without = x, .median_with = y,
				.change_pct = x ? (y - x) / x * 100 : NAN, .ci_lo_pct = NAN,
				.ci_hi_pct = NAN };

	CHECK(metric_kind_parse(kind, &r.kind));
	view_metrics_add(&a->view.metrics, &r);
}

static char *printed(const struct answer *a, bool table)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	answer_print(a, table, f);
	fclose(f);
	return buf;
}

static char *headline(const struct answer *a)
{
	static char line[512];
	char *h = answer_headline(a);

	snprintf(line, sizeof(line), "%s", h);
	free(h);
	return line;
}

static void headlines(void)
{
	struct answer a = sample_answer();

	for (int i = 0; i < 9; i++)
		add(&a, "thp-anon", i ? "other_ms" : "fault_always_ms_per_gib", "time", "no change", 100, 100);
	CHECK_STR(headline(&a), "no change in 9 timing metrics");
	add(&a, "hugetlb-migrate", "anon_vmemmap_on_pages_failed", "behaviour", "behaviour change", 16, 0);
	CHECK_STR(headline(&a), "no change in 9 timing metrics; 1 behaviour change: "
				"hugetlb-migrate.anon_vmemmap_on_pages_failed 16 -> 0");
	view_metrics_free(&a.view.metrics);

	add(&a, "thp-anon", "fault_always_ms_per_gib", "time", "regression", 100, 104.8);
	add(&a, "thp-anon", "small_ms", "time", "regression", 100, 101);
	add(&a, "thp-anon", "faster_ms", "time", "improvement", 100, 90);
	add(&a, "zswap", "ms", "time", "inconclusive", 100, 100.5);
	CHECK_STR(headline(&a), "+4.8% regression of thp-anon.fault_always_ms_per_gib (and 1 more), "
				"1 improvement; 1 timing metric undecided");
	view_metrics_free(&a.view.metrics);
	add(&a, "thp-anon", "faster_ms", "time", "improvement", 100, 90);
	CHECK_STR(headline(&a), "-10.0% improvement of thp-anon.faster_ms");

	/* a crash leads, whatever the metrics of the boots that came out ok */
	a.view.r.status = STATUS_BOOT_FAILED;
	a.view.crash = (struct view_crash){ .boot = 2, .failed = 1, .outcome = BOOT_PANIC,
					 .side = SIDE_WITH, .kernel = xstrdup("base+patch"),
					 .line = xstrdup("kernel BUG at mm/vmscan.c:7562!"),
					 .console_log = xstrdup("/r/logs/boot02-with.console.log") };
	CHECK_STR(headline(&a), "the kernel with the patch crashed: kernel BUG at mm/vmscan.c:7562!");
	a.view.r.status = STATUS_BUILD_FAILED;
	a.view.r.kernel[1].build_status = BUILD_FAILED;
	CHECK_HAS(headline(&a), "the kernel with the patch failed to build");
	answer_free(&a);
	a = sample_answer();
	CHECK_STR(headline(&a), "no data");
	answer_free(&a);
}

static void terminal(void)
{
	struct answer a = sample_answer();
	char *out, *line;
	int rows = 0;

	add(&a, "thp-anon", "fault_always_ms_per_gib", "time", "regression", 100, 104.8);
	for (int i = 0; i < 30; i++)
		add(&a, "thp-anon", "same_counter", "behaviour", "same", 1, 1);
	add(&a, "hugetlb-migrate", "anon_vmemmap_on_pgmigrate_success_with_a_long_name", "behaviour",
	    "behaviour change", 0, 16384);
	a.view.crash = (struct view_crash){ .boot = 3, .failed = 2, .outcome = BOOT_PANIC,
					 .side = SIDE_WITH, .kernel = xstrdup("base+patch"),
					 .line = xstrdup("kernel BUG at mm/vmscan.c:7562!"),
					 .console_log = xstrdup("/r/logs/boot03-with.console.log") };
	out = printed(&a, true);
	/* a boot that failed among ok ones: first, then what the others showed */
	CHECK_HAS(out, "\n771: the kernel with the patch crashed: kernel BUG at mm/vmscan.c:7562!;\n"
		       "    +4.8% regression of thp-anon.fault_always_ms_per_gib;\n    1 behaviour change:");
	CHECK_HAS(out, "boot-panic: boot 3, the kernel with the patch (base+patch); more boots failed");
	CHECK_HAS(out, "console log: /r/logs/boot03-with.console.log");
	CHECK_HAS(out, "not shown: 30 same (--all: every metric)");
	CHECK_HAS(out, "reproduce: perfbot run --patch 771 --queue '/q/stable 5.13' -c run.seed=42");
	CHECK(!strstr(out, "same_counter"));
	/* the crash line once; every line within 100 columns */
	CHECK_INT(test_occurrences(out, "kernel BUG"), 1);
	for (char *p = out; (line = p) && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		size_t n = strcspn(line, "\n");

		CHECK(n <= 100);
		rows += !strncmp(line, "  fault_always_ms_per_gib ", 26);
	}
	CHECK_INT(rows, 1);
	free(out);
	/* --all printed the table itself: no rows, no count of them */
	out = printed(&a, false);
	CHECK(!strstr(out, "fault_always_ms_per_gib "));
	CHECK(!strstr(out, "not shown"));
	free(out);
	answer_free(&a);
}

static void json(void)
{
	struct answer a = sample_answer();
	struct json j;
	pb_str s;

	add(&a, "thp-anon", "fault_ms", "time", "no change", 100, 100.2);
	str_init(&s);
	json_init(&j, &s);
	answer_json(&a, &j, NULL);
	CHECK_HAS(s.buf, "\"comparison\": 7,");
	CHECK_HAS(s.buf, "\"number\": 771,");
	CHECK_HAS(s.buf, "\"label\": \"771\",");
	CHECK_HAS(s.buf, "\"subject\": \"mm: \\\"quoted\\\" \\\\ subject\",");
	CHECK_HAS(s.buf, "\"headline\": \"no change in 1 timing metric\",");
	CHECK_HAS(s.buf, "\"crash\": null,");
	CHECK_HAS(s.buf, "\"ci_lo_pct\": null,");
	CHECK_HAS(s.buf, "\"command\": \"perfbot run --patch 771 --queue '/q/stable 5.13' -c run.seed=42 "
			 "-c qemu.accel=tcg-icount\",");
	CHECK_HAS(s.buf, "\"report_page\": \"queue-");
	CHECK_HAS(s.buf, "-771.html\"");
	CHECK_HAS(s.buf, "\"qemu_cmdline\": {\n      \"without\": null,");
	CHECK_HAS(s.buf, "\"guest_cmdline\": {\n      \"without\": null,\n      \"with\": \"console=ttyS0 panic=-1\"");
	CHECK(s.buf[s.len - 2] == '}');
	str_free(&s);
	/* what decided a verdict goes with it */
	view_metrics_add(&a.view.metrics, &(struct result_row){
		.workload = "thp-anon", .metric = "collapse_ms", .unit = "ms", .kind = METRIC_TIME,
		.better = BETTER_LOWER, .verdict = VERDICT_REGRESSION, .median_without = 10, .median_with = 11,
		.change_pct = 10, .ci_lo_pct = 6.5, .ci_hi_pct = 13.25, .p_adj = 0.0025,
		.noise_pct = 1.5, .noise_from = "calibration", .regime = "sequential t test",
		.threshold_pct = 2, .n_without = 12, .n_with = 12, .boots_without = 4,
		.boots_with = 4, .look = 4 });
	view_metrics_add(&a.view.metrics, &(struct result_row){
		.workload = "thp-anon", .metric = "never_ran", .unit = "ms", .kind = METRIC_TIME,
		.better = BETTER_HIGHER, .verdict = VERDICT_NO_DATA, .median_without = NAN, .median_with = NAN,
		.change_pct = NAN, .ci_lo_pct = NAN, .ci_hi_pct = NAN, .p_adj = NAN,
		.noise_pct = NAN, .noise_from = "-", .regime = "-", .threshold_pct = NAN });
	str_init(&s);
	json_init(&j, &s);
	answer_json(&a, &j, NULL);
	CHECK_HAS(s.buf, "\"metric\": \"collapse_ms\",");
	CHECK_HAS(s.buf, "\"ci_lo_pct\": 6.5,\n      \"ci_hi_pct\": 13.25,\n"
			 "      \"better\": \"lower\",\n      \"regime\": \"sequential t test\",\n"
			 "      \"p_adj\": 0.0025,\n      \"noise_pct\": 1.5,\n"
			 "      \"noise_from\": \"calibration\",\n      \"threshold_pct\": 2,\n"
			 "      \"samples_without\": 12,\n      \"samples_with\": 12,\n"
			 "      \"boots_without\": 4,\n      \"boots_with\": 4,\n      \"look\": 4\n");
	/* a row without them: values null, not 0, "" or "-"; counts 0 (its
	 * direction is the workload's, stored with every row) */
	CHECK_HAS(s.buf, "\"metric\": \"never_ran\",");
	CHECK_HAS(strstr(s.buf, "\"metric\": \"never_ran\","),
		  "\"better\": \"higher\",\n      \"regime\": null,\n      \"p_adj\": null,\n"
		  "      \"noise_pct\": null,\n      \"noise_from\": null,\n"
		  "      \"threshold_pct\": null,\n      \"samples_without\": 0,\n"
		  "      \"samples_with\": 0,\n      \"boots_without\": 0,\n      \"boots_with\": 0,\n"
		  "      \"look\": null\n");
	str_free(&s);
	/* a patch of one's own: no number, known by its sha256 */
	a.view.r.number = 0;
	str_init(&s);
	json_init(&j, &s);
	answer_json(&a, &j, NULL);
	CHECK_HAS(s.buf, "\"number\": null,");
	CHECK_HAS(s.buf, "\"label\": \"0123456789ab\",");
	CHECK_HAS(s.buf, "perfbot run --patch-file /q/771.patch -c run.seed=42");
	CHECK_HAS(s.buf, "\"report_page\": \"patch-0123456789ab.html\"");
	str_free(&s);
	answer_free(&a);
}

/* Everything the renderers write of a: the terminal's answer, the JSON
 * and the patch's mail, one after the other. */
static char *rendered(const struct answer *a)
{
	struct mail_patch_input in = { .view = &a->view, .from = "perfbot <perfbot@localhost>",
				       .list_cc = "linux-mm@kvack.org", .report_url = "", .date = 0 };
	char *term = printed(a, true);
	struct json j;
	pb_str s;
	pb_err err = { "" };

	str_init(&s);
	str_add(&s, term);
	free(term);
	json_init(&j, &s);
	answer_json(a, &j, NULL);
	CHECK(mail_patch_message(&in, &s, &err));
	return str_steal(&s);
}

/* The renderers are pure functions of the view: a view built in memory,
 * with no database behind it (its page cursor never opened), renders; the
 * same view renders to the same bytes again, in any order, and rendering
 * leaves it as it was (a renderer sorting the metrics in place, freeing
 * the crash or keeping state between calls fails here). The terminal and
 * the mail write a metric's numbers alike (view_metric_cells). */
static void pure(void)
{
	struct answer a = sample_answer();
	struct view_cells c;
	char *first, *again, *json_before, *json_after, *mail_only;
	struct json j;
	pb_str s;
	pb_err err = { "" };

	a.view.r.message_id = "<771@example.org>";
	a.view.r.port_file = "";
	add(&a, "zswap", "ms", "time", "no change", 100, 100.1);
	add(&a, "thp-anon", "small_ms", "time", "regression", 100, 101);
	add(&a, "thp-anon", "fault_ms", "time", "regression", 100, 104.8);
	add(&a, "hugetlb-migrate", "pages_failed", "behaviour", "behaviour change", 16, 0);
	a.view.metrics.v[2].ci_lo_pct = 3.5;
	a.view.metrics.v[2].ci_hi_pct = 6.25;
	a.view.crash = (struct view_crash){ .boot = 3, .failed = 1, .outcome = BOOT_TIMEOUT,
					    .side = SIDE_WITH, .kernel = xstrdup("base+patch"),
					    .line = xstrdup("no result line"),
					    .console_log = xstrdup("/r/logs/boot03-with.console.log") };
	CHECK(!a.view.page.st);
	str_init(&s);
	json_init(&j, &s);
	answer_json(&a, &j, NULL);
	json_before = str_steal(&s);
	first = rendered(&a);
	/* the mail alone, then everything again: no order between them */
	str_init(&s);
	CHECK(mail_patch_message(&(struct mail_patch_input){ .view = &a.view, .from = "p@localhost",
							     .list_cc = "", .report_url = "" },
				 &s, &err));
	mail_only = str_steal(&s);
	again = rendered(&a);
	CHECK_STR(again, first);
	str_init(&s);
	json_init(&j, &s);
	answer_json(&a, &j, NULL);
	json_after = str_steal(&s);
	CHECK_STR(json_after, json_before);
	/* the metrics keep the order they were loaded in */
	CHECK_STR(a.view.metrics.v[0].name, "zswap.ms");
	CHECK_STR(a.view.metrics.v[2].name, "thp-anon.fault_ms");
	CHECK_STR(a.view.crash.line, "no result line");
	/* one metric's cells, in both renderers' tables */
	view_metric_cells(&a.view.metrics.v[2], ",", &c);
	CHECK_STR(c.ci, "[+3.5%,+6.2%]");
	CHECK_HAS(first, "\n  fault_ms                                 100     104.8    +4.8%  [+3.5%,+6.2%]    regression\n");
	view_metric_cells(&a.view.metrics.v[2], ", ", &c);
	CHECK_STR(c.ci, "[+3.5%, +6.2%]");
	CHECK_HAS(mail_only, "\n        100       104.8    +4.8%  [+3.5%, +6.2%]    regression\n");
	free(first);
	free(again);
	free(json_before);
	free(json_after);
	free(mail_only);
	answer_free(&a);
}

void test_answer(void)
{
	char *q = shell_quote("it's");

	CHECK_STR(q, "'it'\\''s'");
	free(q);
	q = shell_quote("/plain/path-1.2");
	CHECK_STR(q, "/plain/path-1.2");
	free(q);
	headlines();
	terminal();
	json();
	pure();
}
