/* The mail answering a patch's review: its headers folded at 78 columns
 * and safe from what a patch holds, its body in 72, its Cc without
 * repeats, its threading, its first line for each kind of verdict; and
 * perfbot mail on a fixture's database, the .eml checked by
 * tests/check-mail.py as a mail program would read it. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "db-report.h"
#include "fixture.h"
#include "mail.h"
#include "report.h"

#define W "PB1 sample hugetlb-migrate "
#define LONG_METRIC "thp-anon.fault_around_bytes_per_huge_page_with_khugepaged_defrag_always_" \
		    "and_shmem_enabled_within_size_ms_per_gib"

/* The link to a series' page, of 5.13.2-rc1 of the queue at that path
 * (report_series_page()), as a mail prints it. */
#define CHECK_HAS_SERIES_LINK(text, queue)                                           \
	do {                                                                         \
		char *page_ = report_series_page((queue), "5.13.2-rc1");             \
		char *link_ = xasprintf("\n  https://perfbot.example.org/r/%s\n", page_); \
                                                                                     \
		CHECK_HAS((text), link_);                                            \
		free(link_);                                                         \
		free(page_);                                                         \
	} while (0)

/* Every line of text at most max columns (characters). */
static bool lines_fit(const char *text, size_t max)
{
	size_t col = 0;

	for (; text && *text; text++) {
		if (*text == '\n')
			col = 0;
		else if (((unsigned char)*text & 0xc0) != 0x80 && ++col > max)
			return false;
	}
	return text != NULL;
}

/* The headers (up to the blank line) and the body of a message. */
static void split_message(const char *msg, char **head, char **body)
{
	const char *blank = strstr(msg, "\n\n");

	*head = xstrndup(msg, blank ? (size_t)(blank - msg) + 1 : strlen(msg));
	*body = xstrdup(blank ? blank + 2 : "");
}

/* split_message(), each part checked to fit its columns. */
static void split_checked(const char *msg, char **head, char **body)
{
	split_message(msg, head, body);
	CHECK(lines_fit(*head, MAIL_HEADER_COLUMNS));
	CHECK(lines_fit(*body, MAIL_BODY_COLUMNS));
}

static void check_headers(void)
{
	pb_str h;
	char *subject = xstrdup("Re: [PATCH 5.13 771/800] mm: migrate: fix missing update page_private "
				"to hugetlb_page_subpool when a hugetlb page is migrated by "
				"move_pages or mbind on a node with a subpool");

	str_init(&h);
	mail_header(&h, "Subject", subject);
	CHECK(lines_fit(h.buf, MAIL_HEADER_COLUMNS));
	CHECK(test_occurrences(h.buf, "\n ") >= 1); /* folded, continued with a space */
	CHECK(starts_with(h.buf, "Subject: Re: [PATCH 5.13 771/800] mm:"));
	/* unfolding gives the words back */
	{
		pb_str u;

		str_init(&u);
		for (const char *p = h.buf + 9; *p; p++)
			if (*p != '\n')
				str_addn(&u, p, 1);
		CHECK_STR(u.buf, subject);
		str_free(&u);
	}
	h.len = 0;
	/* a subject that forges a header stays one header line */
	mail_header(&h, "Subject", "fix\r\nBcc: victim@example.org\nX-Evil: 1");
	CHECK_INT(test_occurrences(h.buf, "\n"), 1);
	CHECK(!strstr(h.buf, "\nBcc:") && !strstr(h.buf, "\r"));
	CHECK_HAS(h.buf, "fix\\x0d\\x0aBcc:");
	h.len = 0;
	/* non-ASCII is RFC 2047 encoded; adjacent words as one encoded run */
	mail_header(&h, "Subject", "mm: J\xc3\xa9r\xc3\xb4me C\xc3\xa9" "dric fix");
	CHECK_STR(h.buf, "Subject: mm: =?UTF-8?Q?J=C3=A9r=C3=B4me_C=C3=A9dric?= fix\n");
	h.len = 0;
	/* a word that looks encoded is encoded, not decoded by the reader */
	mail_header(&h, "Subject", "=?UTF-8?Q?forged?=");
	CHECK_HAS(h.buf, "=?UTF-8?Q?=3D=3FUTF-8=3FQ=3Fforged=3F=3D?=");
	h.len = 0;
	/* a long non-ASCII text: encoded words that fit a line, folded */
	mail_header(&h, "Subject", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	CHECK(lines_fit(h.buf, MAIL_HEADER_COLUMNS));
	CHECK_INT(test_occurrences(h.buf, "=?UTF-8?Q?"), 3);
	str_free(&h);
	free(subject);
}

static void check_addresses(void)
{
	struct mail_address a, *v;
	pb_err err = { "" };
	int n;

	CHECK(mail_address_parse(" Muchun Song <songmuchun@bytedance.com> ", &a));
	CHECK_STR(a.name, "Muchun Song");
	CHECK_STR(a.addr, "songmuchun@bytedance.com");
	mail_address_free(&a);
	CHECK(mail_address_parse("<stable@vger.kernel.org> # 5.10+", &a));
	CHECK_STR(a.addr, "stable@vger.kernel.org");
	CHECK_STR(a.name, "");
	mail_address_free(&a);
	CHECK(mail_address_parse("x@y.org (a comment)", &a));
	CHECK_STR(a.addr, "x@y.org");
	mail_address_free(&a);
	CHECK(!mail_address_parse("Nobody", &a));
	CHECK(!mail_address_parse("Eve <e@x\r\nBcc: v@y>", &a));
	CHECK(!mail_address_parse("<@x>", &a));
	CHECK(mail_address_list("\"Kumar, Aneesh\" <a@b.org>, c@d.org,", &v, &n, &err));
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(v[0].name, "Kumar, Aneesh");
		CHECK_STR(v[1].addr, "c@d.org");
	}
	mail_addresses_free(v, n);
	CHECK(!mail_address_list("a@b.org, not an address", NULL, &n, &err));
	CHECK_HAS(err.msg, "'not an address' is not a mail address");
	CHECK(mail_address_list("", NULL, &n, &err) && n == 0);
}

/* The [mail] keys are checked as config.ini is read, not when a mail is. */
static void check_config(void)
{
	struct pb_config cfg;
	pb_err err = { "" };

	CHECK(config_load(&cfg, "config.ini", &err));
	CHECK_STR(cfg.mail_from, "perfbot <perfbot@localhost>");
	CHECK_STR(cfg.mail_cc, "linux-mm@kvack.org");
	CHECK_STR(cfg.mail_sendmail, "");
	CHECK_STR(cfg.report_url, "");
	CHECK(!config_override(&cfg, "mail.from=perfbot", &err));
	CHECK_HAS(err.msg, "mail.from: 'perfbot' is not a mail address");
	CHECK(!config_override(&cfg, "mail.from=a@b.org, c@d.org", &err));
	CHECK_HAS(err.msg, "is not one mail address");
	CHECK(!config_override(&cfg, "mail.from=", &err));
	CHECK(!config_override(&cfg, "mail.cc=list@x.org, junk", &err));
	CHECK_HAS(err.msg, "'junk' is not a mail address");
	CHECK(!config_override(&cfg, "mail.sendmail=sendmail -t\nBcc: x@y", &err));
	CHECK_HAS(err.msg, "a control character");
	CHECK(config_override(&cfg, "mail.cc=", &err) && !cfg.mail_cc[0]);
	CHECK(config_override(&cfg, "mail.cc=\"Last, First\" <l@f.org>, x@y.org", &err));
	CHECK(config_override(&cfg, "report.url=https://perfbot.example.org/r", &err));
	CHECK_STR(cfg.report_url, "https://perfbot.example.org/r");
	config_free(&cfg);
}

static void check_wrap(void)
{
	pb_str s;

	str_init(&s);
	mail_wrap(&s, "", "  ", LONG_METRIC " (ms)");
	CHECK(lines_fit(s.buf, MAIL_BODY_COLUMNS));
	CHECK_INT(test_occurrences(s.buf, "\n"), 2);
	/* cut after a '_', the rest indented */
	CHECK_HAS(s.buf, "_\n  ");
	s.len = 0;
	mail_wrap(&s, "patch:    ", "          ", "short words only");
	CHECK_STR(s.buf, "patch:    short words only\n");
	str_free(&s);
}

/* A comparison's row as the database would give it. */
static struct patch_page_row test_row(void)
{
	struct patch_page_row r = {
		.number = 771, .total = 800, .boots_per_kernel = 2, .iterations = 5, .warmup = 1,
		.series = "5.13", .sha256 = "ab12", .subject = "mm: migrate: fix missing update "
		"page_private to hugetlb_page_subpool", .author = "Muchun Song <songmuchun@bytedance.com>",
		.upstream = "6acfb5ba150cf75005ce10e42e1ae11e8b6ffc5b", .fixes = "", .mm_reason = "mm/",
		.file = "/q/009-patch-mm-migrate-fix-missing-update-page-private-to-hugetlb-pa.patch",
		.pair_method = PAIR_PORT, .pair_detail = "reverts cleanly after the port",
		.accel = ACCEL_TCG_ICOUNT, .accel_reason = "/dev/kvm cannot boot a normal kernel (kvm_pvm)",
		.status = STATUS_MEASURED, .workloads = "hugetlb-migrate", .workload_choice = "paths",
		.started_at = "2026-12-03T00:00:00Z", .finished_at = "2026-12-03T00:01:00Z",
		.perfbot_version = "test", .decided = 1, .verdict = VERDICT_NO_CHANGE, .behaviour = VERDICT_SAME,
		.message_id = "", .in_reply_to = "", .mail_to = "", .mail_cc = "", .mail_date = "",
		.queue = "/q", .base_version = "6.1.192", .config_sha256 = "c0nfc0nfc0nfc0nf",
		.port_file = "/k/ports/6.1/6acfb5ba150cf75005ce10e42e1ae11e8b6ffc5b.patch",
		.gate_pct = 0.5, .alpha = 0.01, .beta = 0.05, .seed = 12345,
	};

	r.kernel[0] = (struct kernel_row){ .label = "base+port", .key = "key0", .failure = "",
					   .build_status = BUILD_BUILT, .build_log = "" };
	r.kernel[1] = (struct kernel_row){ .label = "base", .key = "key1", .failure = "",
					   .build_status = BUILD_BUILT, .build_log = "" };
	return r;
}

static void add_metric(struct view_metrics *m, const char *workload, const char *metric,
		       const char *verdict, double a, double b)
{
	struct result_row r = { .workload = workload, .metric = metric, .unit = "ms",
				.verdict = verdict_from_name(verdict), .median_without = a, .median_with = b,
				.change_pct = (b - a) / a * 100, .ci_lo_pct = (b - a) / a * 80,
				.ci_hi_pct = (b - a) / a * 120 };

	view_metrics_add(m, &r);
}

/* What a builder wrote into s; NULL (s freed) when it refused. */
static char *built(bool ok, pb_str *s)
{
	if (ok)
		return str_steal(s);
	str_free(s);
	return NULL;
}

/* The message of row and metrics; NULL (err) when it cannot be built. */
static char *message(const struct patch_page_row *r, const struct view_metrics *m,
		     const struct pb_patch *queued, const char *list_cc, pb_err *err)
{
	/* a view built in memory: the mail renders it as one loaded */
	struct view v = { .id = 7, .r = *r, .metrics = *m };
	struct mail_patch_input in = { .view = &v, .queued = queued,
				       .from = "perfbot <perfbot@localhost>", .list_cc = list_cc,
				       .report_url = "https://perfbot.example.org/r/", .date = 0 };
	pb_str s;

	str_init(&s);
	return built(mail_patch_message(&in, &s, err), &s);
}

/* The body's first line for a comparison with one metric of verdict. */
static char *first_line(const char *status, const char *verdict, double a, double b)
{
	struct patch_page_row r = test_row();
	struct view_metrics m = { 0 };
	pb_err err = { "" };
	char *msg, *head, *body, *line;

	CHECK(status_parse(status, &r.status));
	add_metric(&m, "thp-anon", "fault_ms", verdict, a, b);
	add_metric(&m, "thp-anon", "other_ms", "no change", 1, 1);
	msg = message(&r, &m, NULL, "", &err);
	if (!msg)
		return xstrdup(err.msg);
	split_message(msg, &head, &body);
	line = xstrndup(body, strcspn(body, "\n"));
	free(msg);
	free(head);
	free(body);
	view_metrics_free(&m);
	return line;
}

static void check_wording(void)
{
	static const struct {
		const char *status, *verdict;
		double a, b;
		const char *line;
	} cases[] = {
		{ "measured", "regression", 100, 104.8,
		  "perfbot noticed a +4.8% regression of thp-anon.fault_ms on:" },
		{ "measured", "improvement", 100, 97,
		  "perfbot noticed a -3.0% improvement of thp-anon.fault_ms on:" },
		{ "measured", "behaviour change", 0, 32,
		  "perfbot noticed a behaviour change of thp-anon.fault_ms on:" },
		{ "measured", "inconclusive", 100, 101,
		  "perfbot could not decide whether thp-anon.fault_ms changed on:" },
		{ "measured", "no change", 100, 100.1,
		  "perfbot found no regression in mm: migrate: fix missing update" },
		{ "measured", "not comparable", 100, 120,
		  "perfbot found no regression in mm: migrate: fix missing update" },
		{ "build-failed", "no data", NAN, NAN,
		  "perfbot could not build the kernel without the patch:" },
		{ "boot-failed", "no data", NAN, NAN,
		  "perfbot found no boot of a kernel that came out ok on:" },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *line = first_line(cases[i].status, cases[i].verdict, cases[i].a, cases[i].b);

		CHECK_STR(line, cases[i].line);
		free(line);
	}
}

static void check_message(void)
{
	struct patch_page_row r = test_row();
	struct view_metrics m = { 0 };
	struct pb_patch queued = { 0 };
	char *signoffs[] = { "Muchun Song <songmuchun@bytedance.com>",
			     "Andrew Morton <akpm@linux-foundation.org>",
			     "\"Kirill A. Shutemov\" <kirill@shutemov.name>" };
	char *ccs[] = { "<stable@vger.kernel.org> # 5.10+", "akpm@linux-foundation.org",
			"Mike Kravetz <mike.kravetz@oracle.com>", "Mike Kravetz <MIKE.KRAVETZ@oracle.com>",
			"no address here", "J\xc3\xa9r\xc3\xb4me Glisse <jglisse@redhat.com>" };
	char *msg, *head, *body;
	pb_err err = { "" };

	queued.signoffs = signoffs;
	queued.nsignoffs = 3;
	queued.ccs = ccs;
	queued.nccs = 6;
	add_metric(&m, "thp-anon", "fault_always_ms_per_gib", "regression", 102.3, 107.2);
	add_metric(&m, "thp-anon", LONG_METRIC + 9, "regression", 10, 11);
	add_metric(&m, "hugetlb-migrate", "pages_migrated", "behaviour change", 0, 32);
	add_metric(&m, "hugetlb-migrate", "migrate_ms", "not comparable", 3, 3.5);
	add_metric(&m, "zswap", "stores", "same", 5, 5);
	add_metric(&m, "zswap", "store_ms", "no change", 5, 5.01);
	r.message_id = "<20210712060912.995381202@linuxfoundation.org>";
	msg = message(&r, &m, &queued, "linux-mm@kvack.org, perfbot@localhost, Akpm@linux-foundation.org",
		      &err);
	CHECK(msg != NULL);
	if (!msg)
		goto out;
	split_checked(msg, &head, &body);
	CHECK_HAS(head, "From: perfbot <perfbot@localhost>\nTo: Muchun Song <songmuchun@bytedance.com>\n"
			"Cc: Andrew Morton <akpm@linux-foundation.org>,\n \"Kirill A. Shutemov\"");
	/* each address once, the author and From never in Cc */
	CHECK_INT(test_occurrences(head, "akpm@"), 1);
	CHECK_INT(test_occurrences(head, "songmuchun@"), 1);
	CHECK_INT(test_occurrences(head, "perfbot@localhost"), 1);
	CHECK_INT(test_occurrences(head, "avetz@"), 1);
	CHECK_HAS(head, "\"Kirill A. Shutemov\" <kirill@shutemov.name>");
	CHECK_HAS(head, "=?UTF-8?Q?J=C3=A9r=C3=B4me_Glisse?= <jglisse@redhat.com>");
	CHECK_HAS(head, " stable@vger.kernel.org,");
	CHECK_HAS(head, "linux-mm@kvack.org\n");
	/* LKP's subject: what was found, on which patch; a metric's name too
	 * long for a header line is cut (the body names it whole) */
	CHECK_HAS(head, "\nSubject: perfbot noticed a +10.0% regression of\n"
			" thp-anon.fault_around_bytes_per_huge_page_with_khugepaged... on [PATCH 5.13\n"
			" 771/800] mm: migrate: fix missing update page_private to hugetlb_page_subpool\n");
	CHECK_HAS(head, "\nDate: Thu, 01 Jan 1970 00:00:00 +0000\n");
	CHECK_HAS(head, "\nIn-Reply-To: <20210712060912.995381202@linuxfoundation.org>\n"
			"References: <20210712060912.995381202@linuxfoundation.org>\n");
	CHECK_HAS(head, "\nMessage-ID: <perfbot-771-c7-");
	CHECK_HAS(head, "\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n");
	CHECK(!strncmp(body, "perfbot noticed a +10.0% regression of\n", 39));
	CHECK_HAS(body, "\nthp-anon.fault_always_ms_per_gib (ms)\n"
			"      102.3       107.2    +4.8%  [+3.8%, +5.7%]    regression\n");
	CHECK_HAS(body, "hugetlb-migrate.pages_migrated (ms)\n");
	CHECK_HAS(body, "The other 3 metric(s): 1 not comparable, 1 no change, 1 same.\n");
	CHECK_HAS(body, "perfbot run --patch 771 -c run.seed=12345 -c qemu.accel=tcg-icount\n");
	{
		char *page = report_patch_page("/q", 771, "ab12"), *line;

		line = xasprintf("\n  https://perfbot.example.org/r/%s\n", page);
		CHECK_HAS(body, line);
		free(line);
		free(page);
	}
	CHECK_HAS(body, "alpha 0.01");
	/* the same comparison's mail has the same id */
	{
		char *again = message(&r, &m, &queued, "", &err);

		CHECK(again && !strncmp(strstr(again, "Message-ID:"), strstr(msg, "Message-ID:"), 60));
		free(again);
	}
	free(head);
	free(body);
	free(msg);

	/* no Message-ID, or one a reply cannot name: no threading headers */
	r.message_id = "";
	msg = message(&r, &m, NULL, "", &err);
	CHECK(msg && !strstr(msg, "In-Reply-To:") && !strstr(msg, "References:"));
	CHECK(msg && !strstr(msg, "\nCc:"));
	free(msg);
	r.message_id = "<x@y>\nBcc: v@w";
	msg = message(&r, &m, NULL, "", &err);
	CHECK(msg && !strstr(msg, "In-Reply-To:") && !strstr(msg, "\nBcc:"));
	free(msg);

	/* what a patch carries cannot add a header */
	r.subject = "fix\r\nBcc: victim@example.org";
	r.author = "Eve\nBcc: victim@example.org <eve@example.org>";
	msg = message(&r, &m, NULL, "", &err);
	CHECK(msg && !strstr(msg, "\nBcc:") && !strchr(msg, '\r'));
	free(msg);
	r.author = "Nobody";
	CHECK(!message(&r, &m, NULL, "", &err));
	CHECK_HAS(err.msg, "patch 771: its author 'Nobody' has no mail address to answer");
	r.author = "Muchun Song <songmuchun@bytedance.com>";
	CHECK(!message(&r, &m, NULL, "junk", &err));
	CHECK_HAS(err.msg, "'junk' is not a mail address");
out:
	view_metrics_free(&m);
}

/* The first paragraph of a message's body, its wrapped lines joined. */
static char *first_paragraph(const char *msg)
{
	const char *body = strstr(msg, "\n\n"), *end;
	char *p;

	body = body ? body + 2 : msg;
	end = strstr(body, "\n\n");
	p = xstrndup(body, end ? (size_t)(end - body) : strlen(body));
	for (char *c = p; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return p;
}

/* A series comparison's row: no patch, its series' fields set. */
static struct patch_page_row series_row(void)
{
	struct patch_page_row r = test_row();

	r.number = r.total = 0;
	r.series = r.sha256 = r.subject = r.author = r.upstream = r.file = r.port_file = "";
	r.kind = KIND_SERIES;
	r.series_name = "5.13.2-rc1";
	r.series_description = "5.13.2-rc1 review";
	r.series_mode = SERIES_FORWARD;
	r.series_patches = "031 765 771 800";
	r.series_queue = "/q";
	r.queue = NULL; /* as the database gives a series row: its queue is the series' */
	r.series_cover_message_id = "<cover@linuxfoundation.org>";
	r.pair_method = PAIR_FORWARD;
	r.pair_detail = "4 patches apply forward in series order to 6.1.192";
	r.kernel[0].label = "base";
	r.kernel[1].label = "base+series";
	return r;
}

static const struct mail_cover test_cover = { "Greg Kroah-Hartman <gregkh@linuxfoundation.org>" };

/* The series message of row and metrics (NULL, err: refused). */
static char *series_message(const struct patch_page_row *r, const struct view_metrics *m,
			    const struct bisect_row *b, struct mail_cover cover, pb_err *err)
{
	struct view v = { .id = 12, .r = *r, .metrics = *m };
	struct mail_series_input in = { .view = &v, .bisect = b,
					.cover = cover, .from = "perfbot <perfbot@localhost>",
					.list_cc = "linux-mm@kvack.org",
					.report_url = "https://perfbot.example.org/r", .date = 0 };
	pb_str s;

	str_init(&s);
	return built(mail_series_message(&in, &s, err), &s);
}

static void check_series_message(void)
{
	struct patch_page_row r = series_row();
	struct view_metrics m = { 0 }, same = { 0 };
	struct bisect_row b = { .id = 3, .series_comparison = 12, .workload = "thp-anon",
				.metric = "fault_madvise_ms_per_gib", .change = CHANGE_REGRESSION,
				.status = BISECT_CONFIRMED, .detail = "[PATCH 5.13 771/800] mm: migrate",
				.culprit = 3, .culprit_number = 771, .npatches = 4 };
	char *msg, *head, *body, *line;
	pb_err err = { "" };

	add_metric(&m, "thp-anon", "fault_madvise_ms_per_gib", "regression", 100, 105.7);
	add_metric(&m, "thp-anon", "fault_always_ms_per_gib", "no change", 100, 100.1);
	add_metric(&same, "thp-anon", "fault_madvise_ms_per_gib", "no change", 100, 100.1);
	msg = series_message(&r, &m, &b, test_cover, &err);
	CHECK(msg != NULL);
	if (!msg)
		goto out;
	split_checked(msg, &head, &body);
	/* the cover letter's sender and thread; the list copied */
	CHECK_HAS(head, "To: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nCc: linux-mm@kvack.org\n");
	CHECK_HAS(head, "\nSubject: perfbot noticed a +5.7% regression of\n"
			" thp-anon.fault_madvise_ms_per_gib in 4 patches of 5.13.2-rc1\n");
	CHECK_HAS(head, "\nIn-Reply-To: <cover@linuxfoundation.org>\n"
			"References: <cover@linuxfoundation.org>\n");
	CHECK_HAS(head, "\nMessage-ID: <perfbot-series-5.13.2-rc1-c12-");
	line = first_paragraph(msg);
	CHECK_STR(line, "perfbot noticed a +5.7% regression of thp-anon.fault_madvise_ms_per_gib "
			"in 4 patches of 5.13.2-rc1:");
	free(line);
	CHECK_HAS(body, "\npatches:  031 765 771 800 (every patch of the queue)\n");
	CHECK_HAS(body, "\nbisect:   3 (thp-anon.fault_madvise_ms_per_gib): confirmed, the culprit\n"
			"          is [PATCH 5.13 771/800] mm: migrate\n");
	CHECK_HAS(body, "\n  perfbot run --series -c run.seed=12345 -c qemu.accel=tcg-icount");
	CHECK_HAS_SERIES_LINK(body, "/q");
	CHECK(!strstr(body, "file:"));
	free(head);
	free(body);
	free(msg);

	/* nothing changed; only the mm patches applied, or taken out */
	r.series_mm_only = 1;
	msg = series_message(&r, &same, NULL, test_cover, &err);
	line = msg ? first_paragraph(msg) : NULL;
	CHECK_STR(line, "perfbot found no regression in 4 mm patches of 5.13.2-rc1");
	CHECK(msg && strstr(msg, "perfbot run --series --mm-only -c") && !strstr(msg, "bisect:"));
	free(line);
	free(msg);
	r.series_mm_only = 0;
	r.series_mode = SERIES_REVERSE;
	r.series_patches = "771";
	msg = series_message(&r, &same, NULL, test_cover, &err);
	line = msg ? first_paragraph(msg) : NULL;
	CHECK_STR(line, "perfbot found no regression in 1 mm patch of 5.13.2-rc1");
	CHECK(msg && strstr(msg, "(the queue's mm patches)"));
	free(line);
	free(msg);
	r.series_mode = SERIES_FORWARD;
	r.series_patches = "031 765 771 800";

	/* no cover letter's sender: the list is the To; no cover letter: the
	 * series is named by its own name */
	msg = series_message(&r, &same, NULL, (struct mail_cover){ "" }, &err);
	CHECK(msg && strstr(msg, "\nTo: linux-mm@kvack.org\nSubject: perfbot found no regression in 4 "
				 "patches of 5.13.2-rc1\n"));
	CHECK(msg && !strstr(msg, "\nCc:"));
	free(msg);
	r.series_description = "";
	r.series_cover_message_id = "";
	msg = series_message(&r, &same, NULL, test_cover, &err);
	CHECK(msg && strstr(msg, "\nSubject: perfbot found no regression in 4 patches of 5.13.2-rc1\n"));
	CHECK(msg && !strstr(msg, "In-Reply-To:"));
	free(msg);
	{
		struct view v = { .r = r, .metrics = same };
		struct mail_series_input in = { .view = &v, .from = "perfbot@localhost",
						.list_cc = "", .report_url = "" };
		pb_str s;

		str_init(&s);
		CHECK(!mail_series_message(&in, &s, &err));
		CHECK_HAS(err.msg, "no one to send it to");
		str_free(&s);
	}
out:
	view_metrics_free(&m);
	view_metrics_free(&same);
}

/* The bisect message of b over the series row (NULL, err: refused). */
static char *bisect_message(const struct bisect_row *b, const struct patch_page_row *culprit,
			    const struct view_metrics *m, pb_err *err)
{
	struct view s = { .r = series_row(), .metrics = *m };
	struct mail_steps steps = { 0 };
	struct bisect_step_row rows[] = {
		{ .step = 1, .role = ROLE_SEARCH, .prefix_a = 0, .prefix_b = 2, .verdict = "no change",
		  .change_pct = 0.1 },
		{ .step = 2, .role = ROLE_SEARCH, .prefix_a = 2, .prefix_b = 3, .verdict = "regression",
		  .bad = 1, .change_pct = 5.6 },
		{ .step = 3, .role = ROLE_CONFIRM, .prefix_a = 2, .prefix_b = 3, .verdict = "regression",
		  .bad = 1, .change_pct = 5.9 },
		{ .step = 4, .role = ROLE_ABSENT_BEFORE, .prefix_a = 0, .prefix_b = 2,
		  .verdict = "behaviour change", .change_pct = NAN },
	};
	struct mail_bisect_input in = { .bisect = b, .steps = &steps, .series = &s,
					.culprit = culprit, .cover = test_cover,
					.from = "perfbot <perfbot@localhost>", .list_cc = "linux-mm@kvack.org",
					.report_url = "https://perfbot.example.org/r", .date = 0 };
	char *msg;
	pb_str out;

	for (size_t i = 0; i < PB_ARRAY_SIZE(rows); i++)
		mail_steps_add(&steps, &rows[i]);
	str_init(&out);
	msg = built(mail_bisect_message(&in, &out, err), &out);
	mail_steps_free(&steps);
	return msg;
}

static void check_bisect_message(void)
{
	struct patch_page_row c = test_row();
	struct view_metrics m = { 0 };
	struct bisect_row b = { .id = 3, .series_comparison = 12, .workload = "thp-anon",
				.metric = "fault_madvise_ms_per_gib", .change = CHANGE_REGRESSION,
				.status = BISECT_CONFIRMED, .culprit = 3, .culprit_number = 771, .npatches = 4,
				.detail = "[PATCH 5.13 771/800] mm: migrate: fix missing update "
					  "page_private to hugetlb_page_subpool",
				.steps = 4, .wall_seconds = 294, .finished_at = "2026-12-03T01:00:00Z" };
	char *msg, *head, *body, *line;
	pb_err err = { "" };

	c.message_id = "<771@linuxfoundation.org>";
	add_metric(&m, "thp-anon", "fault_madvise_ms_per_gib", "regression", 100, 105.7);
	msg = bisect_message(&b, &c, &m, &err);
	CHECK(msg != NULL);
	if (!msg)
		goto out;
	split_checked(msg, &head, &body);
	CHECK_HAS(head, "To: Muchun Song <songmuchun@bytedance.com>\nCc: linux-mm@kvack.org\n");
	CHECK_HAS(head, "\nSubject: perfbot bisected a +5.7% regression of\n"
			" thp-anon.fault_madvise_ms_per_gib in 5.13.2-rc1 to [PATCH 5.13 771/800] mm:\n"
			" migrate: fix missing update page_private to hugetlb_page_subpool\n");
	CHECK_HAS(head, "\nIn-Reply-To: <771@linuxfoundation.org>\n");
	CHECK_HAS(head, "\nMessage-ID: <perfbot-bisect-3-");
	line = first_paragraph(msg);
	CHECK_STR(line, "perfbot bisected a +5.7% regression of thp-anon.fault_madvise_ms_per_gib "
			"in 5.13.2-rc1 to this patch:");
	free(line);
	CHECK_HAS(body, "step  role            prefixes    change  verdict\n"
			"   1  search              0->2     +0.1%  no change\n"
			"   2  search              2->3     +5.6%  regression (bad)\n");
	CHECK_HAS(body, "   4  absent before       0->2         -  behaviour change\n");
	CHECK_HAS(body, "KernelCI");
	CHECK_HAS(body, "This bisect is confirmed.");
	CHECK_HAS(body, "\n  perfbot bisect --comparison 12 \\\n"
			"      --metric thp-anon.fault_madvise_ms_per_gib\n");
	CHECK_HAS_SERIES_LINK(body, "/q");
	free(head);
	free(body);
	free(msg);

	/* not confirmed: never called the culprit */
	b.status = BISECT_NOT_CONFIRMED;
	c.message_id = "";
	msg = bisect_message(&b, &c, &m, &err);
	line = msg ? first_paragraph(msg) : NULL;
	CHECK_STR(line, "perfbot could not confirm that this patch caused a +5.7% regression of "
			"thp-anon.fault_madvise_ms_per_gib in 5.13.2-rc1:");
	CHECK(msg && !strstr(msg, "bisected") && !strstr(msg, "the culprit is"));
	/* no Message-ID of its own: under the cover letter */
	CHECK(msg && strstr(msg, "\nIn-Reply-To: <cover@linuxfoundation.org>\n"));
	CHECK(msg && lines_fit(msg, MAIL_HEADER_COLUMNS));
	free(line);
	free(msg);

	/* a build failure bisected; a bisect that named no culprit */
	b.status = BISECT_CONFIRMED;
	b.workload = b.metric = "";
	b.change = CHANGE_BUILD_FAILED;
	msg = bisect_message(&b, &c, &m, &err);
	line = msg ? first_paragraph(msg) : NULL;
	CHECK_STR(line, "perfbot bisected a build failure in 5.13.2-rc1 to this patch:");
	CHECK(msg && strstr(msg, "perfbot bisect --comparison 12\n"));
	free(line);
	free(msg);
	b.status = BISECT_FAILED;
	b.culprit = b.culprit_number = 0;
	b.detail = "a step could not decide: no culprit named";
	msg = bisect_message(&b, NULL, &m, &err);
	line = msg ? first_paragraph(msg) : NULL;
	CHECK_STR(line, "perfbot could not confirm which patch caused a build failure in 5.13.2-rc1:");
	CHECK(msg && strstr(msg, "\nTo: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"));
	CHECK_HAS(msg, "\nSubject: perfbot could not confirm which patch caused a build failure in\n"
		       " 5.13.2-rc1\n");
	free(line);
	free(msg);
	c.author = "Nobody";
	CHECK(!bisect_message(&b, &c, &m, &err));
	CHECK_HAS(err.msg, "patch 771: its author 'Nobody' has no mail address to answer");
out:
	view_metrics_free(&m);
}

/* python3 tests/check-mail.py eml [id]: true when it passes. */
static bool check_mail_py(const char *eml, const char *id)
{
	char *argv[] = { "python3", "tests/check-mail.py", (char *)eml, (char *)id, NULL };
	struct spawn_opts o = { .timeout = 60 };
	struct spawn_result res;

	return spawn_wait(argv, &o, &res) && !res.failed_exec && res.status == 0;
}

/* Stores the fixture's comparison of patch 771, its mail's Message-ID
 * id, under the queue as config.ini names it: an absolute path, returned
 * (free it). */
static char *store_patch_comparison(sqlite3 *db, struct fixture *f, const char *id)
{
	struct pb_patch *p = (struct pb_patch *)f->cmp.patch;
	char *qdir = abs_path_from(NULL, f->cmp.queue_dir);
	pb_err err = { "" };
	long long cid;

	free(p->message_id);
	p->message_id = xstrdup(id);
	f->cmp.queue_dir = qdir;
	CHECK(db_store_comparison(db, &f->cmp, "test", NULL, &cid, &err));
	return qdir;
}

/* perfbot mail on a database holding the fixture's comparison. */
static void check_command(void)
{
	char *dir = test_tmpdir(), *dbp = xasprintf("%s/r.db", dir), *reports = xasprintf("%s/reports", dir);
	char *eml = xasprintf("%s/mail/patch-771.eml", reports), *sent = xasprintf("%s/sent.eml", dir);
	char *tee = xasprintf("mail.sendmail=tee %s", sent), *nodb = xasprintf("%s/none.db", dir);
	char *bad_dir = xasprintf("%s/r.db/reports", dir);
	const char *id = "<20210712060912.995381202@linuxfoundation.org>";
	char *argv[] = { "mail", "--patch", "771", "--config", "config.ini", "--db", dbp, "--report-dir", reports,
			 "-c", "report.url=https://perfbot.example.org/r", "-c", "mail.sendmail=", NULL };
	char *out, *errs, *text, *again, *qdir;
	struct fixture f;
	pb_err err = { "" };
	sqlite3 *db;
	int rc;

	/* no database yet: refused, nothing written */
	argv[6] = nodb;
	free(test_run_command(cmd_mail, argv, &rc, &errs));
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK_HAS(errs, "no database");
	CHECK(!path_exists(reports) && !path_exists(nodb));
	free(errs);
	argv[6] = dbp;

	CHECK(db_open(dbp, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n"));
	/* no comparison of the patch yet */
	free(test_run_command(cmd_mail, argv, &rc, &errs));
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK_HAS(errs, "no comparison of patch 771");
	CHECK(!path_exists(reports));
	free(errs);

	qdir = store_patch_comparison(db, &f, id);
	db_close(db);

	out = test_run_command(cmd_mail, argv, &rc, &errs);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_HAS(out, "perfbot: mail ");
	CHECK_STR(errs, "");
	text = read_file(eml, NULL, NULL);
	CHECK_HAS(text, "\n\nperfbot noticed a behaviour change of hugetlb-migrate.pages_migrated on:\n");
	CHECK_HAS(text, "Oscar Salvador <osalvador@suse.de>");
	{
		char *page = report_patch_page(qdir, 771, f.cmp.patch->sha256), *line;

		line = xasprintf("\n  https://perfbot.example.org/r/%s\n", page);
		CHECK_HAS(text, line);
		free(line);
		free(page);
	}
	if (program_in_path("python3"))
		CHECK(check_mail_py(eml, id));
	else
		printf("mail: python3 is absent: tests/check-mail.py not run\n");
	free(out);
	free(errs);

	/* sendmail: the message on its stdin; a failure is one line, exit 1 */
	argv[12] = tee;
	free(test_run_command(cmd_mail, argv, &rc, &errs));
	CHECK_INT(rc, PB_EXIT_OK);
	again = read_file(sent, NULL, NULL);
	free(text);
	text = read_file(eml, NULL, NULL);
	CHECK(again && text && !strcmp(again, text));
	free(again);
	free(errs);
	argv[12] = "mail.sendmail=false --to nobody";
	free(test_run_command(cmd_mail, argv, &rc, &errs));
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK_HAS(errs, "[mail] sendmail: 'false' exited with status 1, the mail is not sent");
	CHECK_INT(test_occurrences(errs, "\n"), 1);
	free(errs);
	argv[12] = "mail.sendmail=";

	/* the queue's copy changed since: the database's word only */
	CHECK(db_open(dbp, &db, &err));
	CHECK(sqlite3_exec(db, "UPDATE patches SET sha256='changed'", NULL, NULL, NULL) == SQLITE_OK);
	db_close(db);
	out = test_run_command(cmd_mail, argv, &rc, &errs);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_HAS(out, "changed since it was measured");
	free(out);
	again = read_file(eml, NULL, NULL);
	CHECK(again && !strstr(again, "osalvador") && strstr(again, "Cc: linux-mm@kvack.org\n"));
	free(again);
	free(errs);

	/* an unknown patch, a report directory that cannot be made */
	{
		char *unknown[] = { "mail", "--patch", "12345", "--config", "config.ini", "--db", dbp, NULL };
		char *unwritable[] = { "mail", "--patch", "771", "--config", "config.ini", "--db", dbp,
				       "--report-dir", bad_dir, NULL };

		free(test_run_command(cmd_mail, unknown, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_ERROR);
		CHECK_HAS(errs, "patch 12345 is not in the queue");
		free(errs);
		free(test_run_command(cmd_mail, unwritable, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_ERROR);
		CHECK_INT(test_occurrences(errs, "\n"), 1);
		CHECK_HAS(errs, "cannot create");
		CHECK(!path_exists(bad_dir));
		free(errs);
	}
	free(text);
	free(qdir);
	fixture_free(&f);
	rm_rf(dir);
	free(bad_dir);
	free(nodb);
	free(tee);
	free(sent);
	free(eml);
	free(reports);
	free(dbp);
	free(dir);
}

/* perfbot mail --series and --bisect on a database holding the fixture's
 * patch comparison, a series comparison of its queue and a bisect of it
 * (as tests/unit/test-db.c stores them). */
static void check_series_command(void)
{
	char *dir = test_tmpdir(), *dbp = xasprintf("%s/r.db", dir), *reports = xasprintf("%s/reports", dir);
	char *series_eml = xasprintf("%s/mail/series-5.13.2-rc1.eml", reports), *bisect_eml;
	char *argv[] = { "mail", "--series", "--config", "config.ini", "--db", dbp, "--report-dir", reports,
			 "-c", "report.url=https://perfbot.example.org/r", "-c", "mail.sendmail=", NULL };
	char bid_text[32];
	char *bisect_argv[] = { "mail", "--bisect", bid_text, "--config", "config.ini", "--db", dbp,
				"--report-dir", reports, "-c", "report.url=https://perfbot.example.org/r",
				"-c", "mail.sendmail=", NULL };
	const char *cover = "<cover@linuxfoundation.org>", *id = "<771@linuxfoundation.org>";
	struct series_info si = { .name = "5.13.2-rc1", .description = "5.13.2-rc1 review",
				  .cover_message_id = cover, .mm_only = false };
	struct change_step cs[2] = { { .file = "/q/031.patch", .sha256 = "s1", .number = 31 },
				     { .file = "/q/771.patch", .sha256 = "s2", .number = 771 } };
	struct bisect_step bs[3] = {
		{ .role = ROLE_SEARCH, .prefix_a = 1, .prefix_b = 2, .verdict = "behaviour change", .bad = true },
		{ .role = ROLE_CONFIRM, .prefix_a = 1, .prefix_b = 2, .verdict = "behaviour change", .bad = true },
		{ .role = ROLE_ABSENT_BEFORE, .prefix_a = 0, .prefix_b = 1, .verdict = "same" },
	};
	struct bisect_record br = {
		.workload = "hugetlb-migrate", .metric = "pages_migrated", .change = CHANGE_BEHAVIOUR,
		.npatches = 2, .culprit = 2, .culprit_number = 771, .status = BISECT_CONFIRMED,
		.detail = "[PATCH 5.13 771/800] mm: migrate", .steps = bs, .nsteps = 3,
		.started_at = "t0", .finished_at = "t1", .wall_seconds = 12,
	};
	char *out, *errs, *text, *qdir;
	struct pair_plan keep;
	struct fixture f;
	pb_err err = { "" };
	sqlite3 *db;
	long long sid = 0, bid = 0;
	int rc;

	CHECK(db_open(dbp, &db, &err));
	CHECK(fixture_init(&f, W "1 migrate_ms 1\n" W "1 pages_migrated 0\n",
			   W "1 migrate_ms 2\n" W "1 pages_migrated 32\n"));
	/* no series comparison yet: refused, nothing written */
	free(test_run_command(cmd_mail, argv, &rc, &errs));
	CHECK_INT(rc, PB_EXIT_ERROR);
	CHECK_HAS(errs, "no series comparison of queue");
	CHECK_INT(test_occurrences(errs, "\n"), 1);
	CHECK(!path_exists(reports));
	free(errs);

	/* the culprit measured alone too: its row gives its Message-ID */
	qdir = store_patch_comparison(db, &f, id);
	keep = f.plan;
	memset(&f.plan, 0, sizeof(f.plan));
	f.plan.method = PAIR_FORWARD;
	f.plan.detail = xstrdup("2 patches apply forward in series order to 6.1.192");
	kernel_change_set(&f.plan.without, NULL, false, "base");
	kernel_change_series(&f.plan.with, cs, 2, "base+series", "2 patches: 031 771 (forward)");
	f.cmp.patch = NULL;
	f.cmp.series = &si;
	snprintf(f.cmp.image[1].key, sizeof(f.cmp.image[1].key), "key-series");
	CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &sid, &err));
	br.series_comparison = sid;
	for (int i = 0; i < 3; i++)
		bs[i].comparison_id = sid;
	CHECK(db_store_bisect(db, &br, &bid, &err));
	db_close(db);

	out = test_run_command(cmd_mail, argv, &rc, &errs);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_STR(errs, "");
	text = read_file(series_eml, NULL, NULL);
	CHECK_HAS(text, "\nSubject: perfbot noticed a behaviour change of hugetlb-migrate.pages_migrated\n"
			" in 2 patches of 5.13.2-rc1\n");
	CHECK_HAS(text, "\nTo: linux-mm@kvack.org\n");
	CHECK_HAS(text, "\n\nperfbot noticed a behaviour change of hugetlb-migrate.pages_migrated in\n"
			"2 patches of 5.13.2-rc1:\n");
	CHECK_HAS(text, "confirmed, the culprit");
	CHECK_HAS_SERIES_LINK(text, qdir);
	CHECK(lines_fit(text ? strstr(text, "\n\n") : NULL, MAIL_BODY_COLUMNS));
	if (program_in_path("python3"))
		CHECK(check_mail_py(series_eml, cover));
	free(text);
	free(out);
	free(errs);

	/* the bisect: under the culprit's own review mail */
	snprintf(bid_text, sizeof(bid_text), "%lld", bid);
	bisect_eml = xasprintf("%s/mail/bisect-%lld.eml", reports, bid);
	out = test_run_command(cmd_mail, bisect_argv, &rc, &errs);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_STR(errs, "");
	text = read_file(bisect_eml, NULL, NULL);
	CHECK_HAS(text, "\nSubject: perfbot bisected a behaviour change of hugetlb-migrate.pages_migrated\n"
			" in 5.13.2-rc1 to [PATCH 5.13 771/800] mm: migrate: fix missing update\n"
			" page_private to hugetlb_page_subpool\n");
	CHECK_HAS(text, "Oscar Salvador <osalvador@suse.de>");
	CHECK_HAS(text, "\n\nperfbot bisected a behaviour change of hugetlb-migrate.pages_migrated in\n"
			"5.13.2-rc1 to this patch:\n");
	CHECK_HAS(text, "   3  absent before       0->1         -  same\n");
	CHECK_HAS_SERIES_LINK(text, qdir);
	CHECK(lines_fit(text ? strstr(text, "\n\n") : NULL, MAIL_BODY_COLUMNS));
	if (program_in_path("python3"))
		CHECK(check_mail_py(bisect_eml, id));
	free(text);
	free(out);
	free(errs);

	/* exactly one target; an unknown bisect; a bisect of another queue */
	{
		char *both[] = { "mail", "--series", "--patch", "771", "--config", "config.ini", "--db", dbp, NULL };
		char *unknown[] = { "mail", "--bisect", "99", "--config", "config.ini", "--db", dbp,
				    "--report-dir", reports, NULL };

		free(test_run_command(cmd_mail, both, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_USAGE);
		CHECK_HAS(errs, "exactly one of --patch N, --series, --bisect ID");
		free(errs);
		rm_rf(reports);
		free(test_run_command(cmd_mail, unknown, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_ERROR);
		CHECK_HAS(errs, "no bisect 99 in");
		CHECK_INT(test_occurrences(errs, "\n"), 1);
		free(errs);
		/* a newest bisect that cannot be read fails the series' mail
		 * (as a name the model lacks, past the schema's CHECK) */
		CHECK(db_open(dbp, &db, &err));
		CHECK(sqlite3_exec(db, "PRAGMA ignore_check_constraints=ON; UPDATE bisects SET "
				       "status='half-done'", NULL, NULL, NULL) == SQLITE_OK);
		db_close(db);
		free(test_run_command(cmd_mail, argv, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_ERROR);
		CHECK_HAS(errs, "half-done");
		CHECK_INT(test_occurrences(errs, "\n"), 1);
		CHECK(!path_exists(reports));
		free(errs);
		CHECK(db_open(dbp, &db, &err));
		CHECK(sqlite3_exec(db, "PRAGMA ignore_check_constraints=ON; UPDATE bisects SET "
				       "status='confirmed'", NULL, NULL, NULL) == SQLITE_OK);
		CHECK(sqlite3_exec(db, "UPDATE series SET queue='/other/queue'", NULL, NULL, NULL) == SQLITE_OK);
		db_close(db);
		free(test_run_command(cmd_mail, bisect_argv, &rc, &errs));
		CHECK_INT(rc, PB_EXIT_ERROR);
		CHECK_HAS(errs, "is of the queue /other/queue");
		CHECK_INT(test_occurrences(errs, "\n"), 1);
		CHECK(!path_exists(reports));
		free(errs);
	}
	pair_plan_free(&f.plan);
	f.plan = keep;
	f.cmp.series = NULL;
	fixture_free(&f);
	rm_rf(dir);
	free(qdir);
	free(bisect_eml);
	free(series_eml);
	free(reports);
	free(dbp);
	free(dir);
}

/* The metrics' head line counts the boots that counted: a failed one's
 * samples are left out, and the mail says so. */
static void check_boots_line(void)
{
	struct patch_page_row r = test_row();
	struct view_metrics m = { 0 };
	pb_err err = { "" };
	char *msg;

	add_metric(&m, "thp-anon", "fault_ms", "regression", 100, 105);
	msg = message(&r, &m, NULL, "", &err);
	CHECK_HAS(msg, "\n2+2 boots of 5 iteration(s), the medians of the boots:\n");
	free(msg);
	r.boots_run[0] = 3;
	r.boots_run[1] = r.boots_ok[0] = r.boots_ok[1] = 2;
	msg = message(&r, &m, NULL, "", &err);
	CHECK_HAS(msg, "\n2+2 ok boots of 5 iteration(s) (1 failed, left out),\n"
		       "the medians of the ok boots:\n");
	free(msg);
	r.boots_run[0] = r.boots_ok[0] = 4;
	msg = message(&r, &m, NULL, "", &err);
	CHECK_HAS(msg, "\n4+2 boots of 5 iteration(s), the medians of the boots:\n");
	free(msg);
	view_metrics_free(&m);
}

void test_mail(void)
{
	check_headers();
	check_addresses();
	check_config();
	check_wrap();
	check_wording();
	check_message();
	check_boots_line();
	check_series_message();
	check_bisect_message();
	check_command();
	check_series_command();
}
