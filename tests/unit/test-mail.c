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

#define W "PB1 sample hugetlb-migrate "
#define LONG_METRIC "thp-anon.fault_around_bytes_per_huge_page_with_khugepaged_defrag_always_" \
		    "and_shmem_enabled_within_size_ms_per_gib"

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

/* How many times sub is in s. */
static int occurrences(const char *s, const char *sub)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
		n++;
	return n;
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
	CHECK(occurrences(h.buf, "\n ") >= 1); /* folded, continued with a space */
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
	CHECK_INT(occurrences(h.buf, "\n"), 1);
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
	CHECK_INT(occurrences(h.buf, "=?UTF-8?Q?"), 3);
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
	CHECK_INT(occurrences(s.buf, "\n"), 2);
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
		.pair_method = "port", .pair_detail = "reverts cleanly after the port",
		.accel = "tcg-icount", .accel_reason = "/dev/kvm cannot boot a normal kernel (kvm_pvm)",
		.status = "measured", .workloads = "hugetlb-migrate", .workload_choice = "paths",
		.started_at = "2026-12-03T00:00:00Z", .finished_at = "2026-12-03T00:01:00Z",
		.perfbot_version = "test", .verdict = "no change", .behaviour = "same",
		.message_id = "", .in_reply_to = "", .mail_to = "", .mail_cc = "", .mail_date = "",
		.queue = "/q", .base_version = "6.1.192", .config_sha256 = "c0nfc0nfc0nfc0nf",
		.port_file = "/k/ports/6.1/6acfb5ba150cf75005ce10e42e1ae11e8b6ffc5b.patch",
		.gate_pct = 0.5, .alpha = 0.01, .beta = 0.05, .seed = 12345,
	};

	r.kernel[0] = (struct kernel_row){ "base+port", "key0", "built", "" };
	r.kernel[1] = (struct kernel_row){ "base", "key1", "built", "" };
	return r;
}

static void add_metric(struct mail_metrics *m, const char *workload, const char *metric,
		       const char *verdict, double a, double b)
{
	struct result_row r = { .workload = workload, .metric = metric, .unit = "ms",
				.verdict = verdict, .median_without = a, .median_with = b,
				.change_pct = (b - a) / a * 100, .ci_lo_pct = (b - a) / a * 80,
				.ci_hi_pct = (b - a) / a * 120 };

	mail_metrics_add(m, &r);
}

/* The message of row and metrics; NULL (err) when it cannot be built. */
static char *message(const struct patch_page_row *r, const struct mail_metrics *m,
		     const struct pb_patch *queued, const char *list_cc, pb_err *err)
{
	struct mail_patch_input in = { .row = r, .comparison_id = 7, .metrics = m, .queued = queued,
				       .from = "perfbot <perfbot@localhost>", .list_cc = list_cc,
				       .report_url = "https://perfbot.example.org/r/", .date = 0 };
	pb_str s;

	str_init(&s);
	if (!mail_patch_message(&in, &s, err)) {
		str_free(&s);
		return NULL;
	}
	return str_steal(&s);
}

/* The body's first line for a comparison with one metric of verdict. */
static char *first_line(const char *status, const char *verdict, double a, double b)
{
	struct patch_page_row r = test_row();
	struct mail_metrics m = { 0 };
	pb_err err = { "" };
	char *msg, *head, *body, *line;

	r.status = status;
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
	mail_metrics_free(&m);
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
	struct mail_metrics m = { 0 };
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
	split_message(msg, &head, &body);
	CHECK(lines_fit(head, MAIL_HEADER_COLUMNS));
	CHECK(lines_fit(body, MAIL_BODY_COLUMNS));
	CHECK_HAS(head, "From: perfbot <perfbot@localhost>\nTo: Muchun Song <songmuchun@bytedance.com>\n"
			"Cc: Andrew Morton <akpm@linux-foundation.org>,\n \"Kirill A. Shutemov\"");
	/* each address once, the author and From never in Cc */
	CHECK_INT(occurrences(head, "akpm@"), 1);
	CHECK_INT(occurrences(head, "songmuchun@"), 1);
	CHECK_INT(occurrences(head, "perfbot@localhost"), 1);
	CHECK_INT(occurrences(head, "avetz@"), 1);
	CHECK_HAS(head, "\"Kirill A. Shutemov\" <kirill@shutemov.name>");
	CHECK_HAS(head, "=?UTF-8?Q?J=C3=A9r=C3=B4me_Glisse?= <jglisse@redhat.com>");
	CHECK_HAS(head, " stable@vger.kernel.org,");
	CHECK_HAS(head, "linux-mm@kvack.org\n");
	CHECK_HAS(head, "\nSubject: Re: [PATCH 5.13 771/800] mm: migrate: fix missing update page_private\n"
			" to hugetlb_page_subpool\n");
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
	CHECK_HAS(body, "\n  https://perfbot.example.org/r/771.html\n");
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
	mail_metrics_free(&m);
}

/* python3 tests/check-mail.py eml [id]: true when it passes. */
static bool check_mail_py(const char *eml, const char *id)
{
	char *argv[] = { "python3", "tests/check-mail.py", (char *)eml, (char *)id, NULL };
	struct spawn_opts o = { .timeout = 60 };
	struct spawn_result res;

	return spawn_wait(argv, &o, &res) && !res.failed_exec && res.status == 0;
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
	struct pb_patch *p;
	pb_err err = { "" };
	sqlite3 *db;
	long long cid;
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

	p = (struct pb_patch *)f.cmp.patch;
	free(p->message_id);
	p->message_id = xstrdup(id);
	/* the queue as config.ini names it: an absolute path */
	qdir = abs_path_from(NULL, f.cmp.queue_dir);
	f.cmp.queue_dir = qdir;
	CHECK(db_store_comparison(db, &f.cmp, "test", NULL, &cid, &err));
	db_close(db);

	out = test_run_command(cmd_mail, argv, &rc, &errs);
	CHECK_INT(rc, PB_EXIT_OK);
	CHECK_HAS(out, "perfbot: mail ");
	CHECK_STR(errs, "");
	text = read_file(eml, NULL, NULL);
	CHECK_HAS(text, "\n\nperfbot noticed a behaviour change of hugetlb-migrate.pages_migrated on:\n");
	CHECK_HAS(text, "Oscar Salvador <osalvador@suse.de>");
	CHECK_HAS(text, "\n  https://perfbot.example.org/r/771.html\n");
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
	CHECK_INT(occurrences(errs, "\n"), 1);
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
		CHECK_INT(occurrences(errs, "\n"), 1);
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

void test_mail(void)
{
	check_headers();
	check_addresses();
	check_config();
	check_wrap();
	check_wording();
	check_message();
	check_command();
}
