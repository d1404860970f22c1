/* The HTML report on a small database built here: where each page is
 * (nothing of one queue overwrites another's), the index of every queue,
 * the trend across base versions, the links, the crash banner and the
 * reproduce section. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "db-report.h"
#include "db.h"
#include "fixture.h"
#include "report.h"

#define W "PB1 sample hugetlb-migrate "

/* Page names: a queue's patch by the queue and its label, two queues of
 * one name apart, a patch of its own by its identity. */
static void check_page_names(void)
{
	char *a = report_patch_page("/srv/a/stable-5.13", 771, "331a264fdc689d89f4b1"),
	     *b = report_patch_page("/srv/b/stable-5.13", 771, "331a264fdc689d89f4b1"),
	     *a2 = report_patch_page("/srv/a/stable-5.13/", 771, "ffff"),
	     *qa = report_queue_page("/srv/a/stable-5.13"), *own = report_patch_page("/x", 0,
										"331a264fdc689d89f4b1"),
	     *own2 = report_patch_page("", 0, "331a264fdc689d89f4b1"),
	     *odd = report_queue_page("/q/a b<c>&\"d.mbox"), *empty = report_queue_page("");
	struct patch_page_row r = { .number = 5, .queue = "/srv/a/stable-5.13", .sha256 = "ab",
				    .kind = "patch" };
	char *ra;

	CHECK(starts_with(a, "queue-stable-5.13-") && ends_with(a, "-771.html"));
	CHECK_INT(strlen(a), strlen("queue-stable-5.13-12345678-771.html"));
	CHECK(strcmp(a, b) != 0);
	/* the key is the path as stored: the same path, the same page, run
	 * after run; the name without a trailing slash */
	CHECK(starts_with(a2, "queue-stable-5.13-") && ends_with(a2, "-771.html"));
	free(a2);
	a2 = report_patch_page("/srv/a/stable-5.13", 771, "ffff");
	CHECK_STR(a2, a);
	/* a queue's patch pages start with its page's name */
	CHECK_INT(strncmp(a, qa, strlen(qa) - 5), 0);
	CHECK(ends_with(qa, ".html") && strchr(qa, '/') == NULL);
	CHECK_STR(own, "patch-331a264fdc68.html");
	CHECK_STR(own2, own);
	CHECK(starts_with(odd, "queue-a_b_c___d.mbox-"));
	CHECK(starts_with(empty, "queue-q-"));
	ra = report_page_of(&r);
	CHECK(starts_with(ra, "queue-stable-5.13-") && ends_with(ra, "-005.html"));
	free(ra);
	r.kind = "series";
	r.series_name = "5.13.2-rc1";
	ra = report_page_of(&r);
	CHECK_STR(ra, "series-5.13.2-rc1.html");
	free(ra);
	free(a);
	free(b);
	free(a2);
	free(qa);
	free(own);
	free(own2);
	free(odd);
	free(empty);
}

void test_report(void)
{
	check_page_names();
}
