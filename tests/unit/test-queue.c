/* The queue parser on the 11 bundled patches and on malformed ones. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "queue.h"

static const struct expected {
	int number;
	const char *upstream;   /* first 12 hex digits */
	bool mm, cc_stable;
	int nfiles, added, removed;
	const char *subject_start;
} bundled[] = {
	{ 31, "122e093c1734", true, true, 2, 59, 38, "mm/page_alloc: fix memory map" },
	{ 146, "f1a0a376ca0c", false, false, 25, 8, 34, "sched/core: Initialize the idle task" },
	{ 188, "897f6339893b", false, false, 2, 5, 4, "hwmon: (max31790)" },
	{ 365, "2b2bcc76e2ff", false, false, 1, 1, 1, "HID: surface-hid" },
	{ 556, "364745fbe981", false, false, 1, 0, 4, "bpf: Do not change gso_size" },
	{ 666, "23d6fefbb3f6", false, false, 2, 283, 198, "scsi: iscsi: Fix in-kernel" },
	{ 699, "ecfbd7b9054b", false, false, 1, 32, 33, "usb: gadget: f_fs" },
	{ 765, "e6be37b2e7bd", true, false, 5, 48, 29, "mm/huge_memory.c: add missing read-only" },
	{ 771, "6acfb5ba150c", true, false, 2, 6, 1, "mm: migrate: fix missing update" },
	{ 772, "46b76f2e09dc", true, false, 1, 7, 10, "mm/zswap.c: fix two bugs" },
	{ 785, "01131e7aae5d", false, true, 6, 115, 40, "scsi: lpfc: Fix unreleased RPIs" },
};

static void bundled_queue(void)
{
	struct pb_queue q;
	pb_err err = { "" };

	CHECK(queue_load("queue/stable-5.13", NULL, &q, &err));
	CHECK_INT(q.npatches, 11);
	{
		char *name = queue_series_name(&q);

		CHECK_STR(name, "stable-5.13");
		free(name);
	}
	for (size_t i = 0; i < PB_ARRAY_SIZE(bundled) && (int)i < q.npatches; i++) {
		const struct expected *e = &bundled[i];
		const struct pb_patch *p = queue_find(&q, e->number);
		int added = 0, removed = 0;

		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK_INT(p->total, 800);
		CHECK_STR(p->series, "5.13");
		CHECK_INT(strncmp(p->upstream, e->upstream, 12), 0);
		CHECK_INT(strlen(p->upstream), 40);
		CHECK_INT(p->is_mm, e->mm);
		CHECK_INT(p->cc_stable, e->cc_stable);
		CHECK_INT(p->nfiles, e->nfiles);
		for (int f = 0; f < p->nfiles; f++) {
			added += p->files[f].added;
			removed += p->files[f].removed;
		}
		CHECK_INT(added, e->added);
		CHECK_INT(removed, e->removed);
		CHECK(starts_with(p->subject, e->subject_start));
		CHECK(p->nsignoffs >= 2);
		CHECK(strstr(p->signoffs[p->nsignoffs - 1], "Greg Kroah-Hartman") ||
		      strstr(p->signoffs[p->nsignoffs - 1], "Sasha Levin"));
	}
	{
		const struct pb_patch *p = queue_find(&q, 771);

		CHECK_STR(p->author, "Muchun Song <songmuchun@bytedance.com>");
		CHECK_INT(p->nfixes, 1);
		CHECK_HAS(p->fixes[0], "d6995da31122");
		CHECK_STR(p->mm_reason, "include/linux/hugetlb.h, mm/migrate.c");
		CHECK_HAS(queue_find(&q, 188)->mm_reason, "no mm/");
		CHECK(queue_find(&q, 999) == NULL);
	}
	queue_free(&q);
}

static const char good_head[] =
	"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
	"Subject: [PATCH 5.13 42/99] mm: a test\n"
	"\n"
	"From: Some One <some@one.org>\n"
	"\n"
	"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n"
	"\n"
	"Cc: stable@vger.kernel.org\n"
	"Signed-off-by: Some One <some@one.org>\n"
	"---\n";

static bool parse(const char *text, struct pb_patch *p, pb_err *err)
{
	return patch_parse_buffer("t.patch", text, strlen(text), p, err);
}

static void expect_error(const char *text, const char *msg_part)
{
	struct pb_patch p;
	pb_err err = { "" };

	CHECK(!parse(text, &p, &err));
	CHECK_HAS(err.msg, msg_part);
}

static void malformed(void)
{
	struct pb_patch p;
	pb_err err = { "" };
	char *text;

	text = xasprintf("%sdiff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n"
			 "@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n-- \n2.30.2\n",
			 good_head);
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.number, 42);
	CHECK_INT(p.total, 99);
	CHECK(p.cc_stable);
	CHECK(p.is_mm);
	CHECK_STR(p.author, "Some One <some@one.org>");
	CHECK_STR(p.upstream, "0123456789abcdef0123456789abcdef01234567");
	CHECK_INT(p.files[0].added, 1);
	CHECK_INT(p.files[0].removed, 1); /* the "-- " signature is not a removed line */
	patch_free(&p);
	free(text);

	/* terminal escapes in a subject or author are made harmless */
	text = xasprintf("From: Eve \x1b[2J<eve@x.org>\nSubject: [PATCH 5.13 7/9] mm: \x1b]0;owned\x07x\n\n"
			 "diff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n"
			 "@@ -1,1 +1,1 @@\n-b\n+c\n");
	CHECK(parse(text, &p, &err));
	CHECK_STR(p.subject, "mm: ?]0;owned?x");
	CHECK_STR(p.author, "Eve ?[2J<eve@x.org>");
	patch_free(&p);
	free(text);
	/* more hunk lines than the header counts */
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n"
			 "@@ -1,1 +1,1 @@\n-b\n+c\n+d\n", good_head);
	CHECK(!parse(text, &p, &err));
	CHECK_HAS(err.msg, "longer than its header says");
	free(text);

	/* [PATCHv2 N/M] is a patch; [PATCHES, [PATCHSET and two N/M are not */
	text = xasprintf("Subject: [PATCHv2 3/7] mm: x\n\n--- a/mm/x.c\n+++ b/mm/x.c\n"
			 "@@ -1 +1 @@\n-a\n+b\n");
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.number, 3);
	patch_free(&p);
	free(text);
	expect_error("Subject: [PATCHES 1/2] mm: x\n\n", "'[PATCHES' is not one patch");
	expect_error("Subject: [PATCHSET 1/2] mm: x\n\n", "is not one patch");
	expect_error("Subject: [PATCH 1/2 2/2] mm: x\n\n", "two series numbers");
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,0 +1,0 @@\n", good_head);
	expect_error(text, "counts no line");
	free(text);
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,2 +1,2 @@\n a\n b\n", good_head);
	expect_error(text, "changes no line");
	free(text);
	/* one mail with its mbox From_ line is a patch; two are refused */
	text = xasprintf("From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
			 "%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n", good_head);
	CHECK(parse(text, &p, &err));
	patch_free(&p);
	{
		char *two = xasprintf("%s\n%s", text, text);

		expect_error(two, "an mbox of 2 messages");
		free(two);
	}
	free(text);
	expect_error("", "empty file");
	{
		static const char nul[] = "Subject: [PATCH 1/1] x\n\0junk";

		CHECK(!patch_parse_buffer("t.patch", nul, sizeof(nul), &p, &err));
		CHECK_HAS(err.msg, "binary");
	}
	expect_error("From: a\n\nno subject\n", "no Subject");
	expect_error("Subject: mm: no prefix\n\n", "no [PATCH");
	expect_error("Subject: [PATCH] mm: no number\n\n", "no series number");
	expect_error("Subject: [PATCH 5.13 7/3] mm: bad\n\n", "bad series number");
	expect_error("Subject: [PATCH 1/1] a\nSubject: [PATCH 1/1] b\n\n", "two Subject");
	expect_error("Subject: [PATCH 1/1] mm: x\n\nno diff here\n", "no diff");
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,3 +1,3 @@\n a\n-b\n", good_head);
	expect_error(text, "truncated");
	free(text);
	text = xasprintf("%s--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", good_head);
	expect_error(text, "outside the tree");
	free(text);
	text = xasprintf("%s--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", good_head);
	expect_error(text, "outside the tree");
	free(text);
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@ \n@@ junk\n", good_head);
	expect_error(text, "hunk");
	free(text);
}

/* git's extended headers: what they name is touched, and checked. */
static void git_headers(void)
{
	struct pb_patch p;
	pb_err err = { "" };
	char *text;

	/* a binary diff of an mm/ file, beside a driver change */
	text = xasprintf("%sdiff --git a/drivers/x.c b/drivers/x.c\n--- a/drivers/x.c\n"
			 "+++ b/drivers/x.c\n@@ -1 +1 @@\n-a\n+b\n"
			 "diff --git a/mm/blob.bin b/mm/blob.bin\nindex 1111111..2222222 100644\n"
			 "GIT binary patch\nliteral 5\nMcmZQzWMXCk0003A00000\n\nliteral 0\n"
			 "HcmV?d00001\n\n-- \n2.30.2\n", good_head);
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.nfiles, 2);
	CHECK(p.is_mm);
	CHECK_STR(p.mm_reason, "mm/blob.bin");
	patch_free(&p);
	free(text);
	/* a rename out of mm/ with no content change, and a mode change */
	text = xasprintf("%sdiff --git a/mm/old.c b/lib/new.c\nsimilarity index 100%%\n"
			 "rename from mm/old.c\nrename to lib/new.c\n"
			 "diff --git a/lib/run.sh b/lib/run.sh\nold mode 100644\nnew mode 100755\n",
			 good_head);
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.nfiles, 3);
	CHECK(p.is_mm);
	CHECK_STR(p.mm_reason, "mm/old.c");
	patch_free(&p);
	free(text);
	/* a new empty file, a deleted one */
	text = xasprintf("%sdiff --git a/mm/empty.h b/mm/empty.h\nnew file mode 100644\n"
			 "index 0000000..e69de29\n", good_head);
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.nfiles, 1);
	patch_free(&p);
	free(text);
	/* the paths they name are checked like any other */
	text = xasprintf("%sdiff --git a/mm/x.c b/../x\nrename from mm/x.c\nrename to ../x\n",
			 good_head);
	expect_error(text, "outside the tree: '../x'");
	free(text);
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/y.c\ncopy from mm/x.c\ncopy to /etc/y\n",
			 good_head);
	expect_error(text, "outside the tree: '/etc/y'");
	free(text);
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/y.c\nrename from mm/x.c\nrename to mm/z.c\n",
			 good_head);
	expect_error(text, "does not match");
	free(text);
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/x.c\n--- a/drivers/y.c\n+++ b/drivers/y.c\n"
			 "@@ -1 +1 @@\n-a\n+b\n", good_head);
	expect_error(text, "--- names drivers/y.c");
	free(text);
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/y.c\nindex 1..2 100644\n", good_head);
	expect_error(text, "names two paths but no rename or copy");
	free(text);
	text = xasprintf("%sdiff --git a/mm/x.c b/mm/x.c\n-- \n2.30.2\n", good_head);
	expect_error(text, "is followed by no change");
	free(text);
}

/* The steps of the parser, at the boundaries where the order of the steps
 * or the choice of one decides what a line is. */
static void parse_steps(void)
{
	struct pb_patch p;
	pb_err err = { "" };
	char *text;

	/* a hunk's body is counted before anything else reads it: "+++ b/y"
	 * there is an added line, not a file; "\ No newline" is no line */
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,1 +1,2 @@\n-a\n+++ b/mm/y.c\n"
			 "+Fixes: nothing\n+c\n", good_head);
	CHECK(!parse(text, &p, &err)); /* three + lines where the header counts two */
	CHECK_HAS(err.msg, "hunk of mm/x.c is longer than its header says");
	free(text);
	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,1 +1,2 @@\n-a\n"
			 "\\ No newline at end of file\n+++ b/mm/y.c\n+Fixes: nothing\n", good_head);
	CHECK(parse(text, &p, &err));
	CHECK_INT(p.nfiles, 1);
	CHECK_INT(p.files[0].added, 2);
	CHECK_INT(p.files[0].removed, 1);
	CHECK_INT(p.nfixes, 0);
	patch_free(&p);
	free(text);

	/* Subject: goes on over indented lines; a From: in the body names the
	 * author only before any other text of the body */
	text = xasprintf("From: Mail <m@x.org>\nSubject: [PATCH 5.13 3/9] mm: a long\n\tsubject\n\n"
			 "\nFrom: Author <a@x.org>\n\n[ Upstream commit "
			 "0123456789abcdef0123456789abcdef01234567 ]\n\nfixes: 0123 (\"x\")\n"
			 "Cc: <stable@kernel.org> # 5.10\n"
			 "--- a/mm/x.c\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
	CHECK(parse(text, &p, &err));
	CHECK_STR(p.subject, "mm: a long subject");
	CHECK_STR(p.author, "Author <a@x.org>");
	CHECK_STR(p.upstream, "0123456789abcdef0123456789abcdef01234567");
	CHECK_INT(p.nfixes, 1);
	CHECK(p.cc_stable);
	/* a deletion: the --- line names the file */
	CHECK_INT(p.nfiles, 1);
	CHECK_STR(p.files[0].path, "mm/x.c");
	CHECK_INT(p.files[0].removed, 2);
	patch_free(&p);
	free(text);
	text = xasprintf("From: Mail <m@x.org>\nSubject: [PATCH 3/9] mm: x\n\nSome text.\n"
			 "From: Not The Author <n@x.org>\n"
			 "commit 0123456789abcdef0123456789abcdef01234567\n"
			 "Cc: Someone <s@x.org>\n"
			 "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK(parse(text, &p, &err));
	CHECK_STR(p.author, "Mail <m@x.org>");
	CHECK_STR(p.upstream, ""); /* a commit line that does not say upstream */
	CHECK(!p.cc_stable);
	patch_free(&p);
	free(text);
	/* an indented line continues the header before it (RFC 5322
	 * folding), so one with no header before it is no mail */
	expect_error(" b\nFrom: a\nSubject: [PATCH 1/1] x\n\n", "malformed mail header line ' b'");
	expect_error("From a@b Mon Jul 12 08:00:00 2021\n b\nSubject: [PATCH 1/1] x\n\n",
		     "malformed mail header line ' b'");
	/* a header name without its colon, at the very end of the file too */
	expect_error("From", "malformed mail header line 'From'");
	expect_error("Subject", "malformed mail header line 'Subject'");
	text = xasprintf("From: A Long\n Name <a@x.org>\nX-Mailer: some\n  thing\n"
			 "Subject: [PATCH 3/9]\n mm: x\n\n"
			 "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK(parse(text, &p, &err));
	CHECK_STR(p.author, "A Long Name <a@x.org>");
	CHECK_STR(p.subject, "mm: x");
	patch_free(&p);
	free(text);
	/* the mail's headers end at the first empty line */
	expect_error("Subject: [PATCH 1/1] x\n\nFrom: a\nSubject: [PATCH 1/1] y\n\n", "no diff");
}

static void mm_paths(void)
{
	CHECK(path_is_mm("mm/migrate.c"));
	CHECK(path_is_mm("arch/x86/mm/fault.c"));
	CHECK(path_is_mm("include/linux/huge_mm.h"));
	CHECK(path_is_mm("include/linux/swap.h"));
	CHECK(!path_is_mm("fs/proc/task_mmu.c"));
	CHECK(!path_is_mm("drivers/hwmon/max31790.c"));
	CHECK(!path_is_mm("arch/x86/kernel/mm.c"));
	CHECK(!path_is_mm("include/linux/mmc/host.h"));
}

static void duplicate_numbers(void)
{
	char *dir = test_tmpdir(), *a, *b, *text;
	struct pb_queue q;
	pb_err err = { "" };

	text = xasprintf("%s--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n", good_head);
	a = test_write(dir, "001.patch", text);
	b = test_write(dir, "002.patch", text);
	CHECK(!queue_load(dir, NULL, &q, &err));
	CHECK_HAS(err.msg, "both carry patch number 42");
	unlink(a);
	unlink(b);
	rmdir(dir);
	CHECK(!queue_load(dir, NULL, &q, &err));
	CHECK_HAS(err.msg, "cannot open");
	free(a);
	free(b);
	free(text);
	free(dir);
}

/* A patch of number n touching mm/x.c, as a file of dir. */
static char *numbered(const char *dir, const char *name, int n)
{
	char *text = xasprintf("From: A <a@b>\nSubject: [PATCH 6.1 %d/9] mm: patch %d\n\nbody\n"
			       "---\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b%d\n", n, n, n);
	char *path = test_write(dir, name, text);

	free(text);
	return path;
}

/* A quilt directory: the series file's patches in its order, comments,
 * disabled lines and -p1 as quilt reads them; a plain directory by number. */
static void quilt_series(void)
{
	char *dir = test_tmpdir(), *f[4], *series;
	struct pb_queue q;
	pb_err err = { "" };
	const struct pb_patch **order;

	f[0] = numbered(dir, "b-first.patch", 3);
	f[1] = numbered(dir, "a-second.patch", 1);
	f[2] = numbered(dir, "c-disabled.patch", 2);
	f[3] = numbered(dir, "d-not-in-series.patch", 4);
	/* no series yet: every file, by number (not by file name) */
	CHECK(queue_load(dir, NULL, &q, &err));
	CHECK(!q.quilt && q.npatches == 4);
	CHECK(q.npatches == 4 && q.patches[0].number == 1 && q.patches[1].number == 2 &&
	      q.patches[2].number == 3 && q.patches[3].number == 4);
	queue_free(&q);
	series = test_write(dir, "series",
			    "# stable-queue style\n\nb-first.patch -p1   # the first\n"
			    "#c-disabled.patch\n  a-second.patch\n");
	CHECK(queue_load(dir, NULL, &q, &err));
	CHECK(q.quilt && q.npatches == 2 && q.not_in_series == 2);
	CHECK(q.npatches == 2 && q.patches[0].number == 3 && q.patches[1].number == 1);
	order = queue_by_number(&q);
	CHECK(order[0] == &q.patches[1] && order[1] == &q.patches[0]);
	free(order);
	CHECK(!queue_find(&q, 2) && !queue_find(&q, 4));
	queue_free(&q);
	/* what quilt would not apply as perfbot does, or cannot find */
	{
		static const struct {
			const char *series, *error;
		} bad[] = {
			{ "b-first.patch -p0\n", "takes no other option" },
			{ "b-first.patch -R\n", "takes no other option" },
			{ "../outside.patch\n", "is not a patch inside the queue" },
			{ "/etc/passwd\n", "is not a patch inside the queue" },
			{ "a-second.patch\nb-first.patch\na-second.patch\n", "in the series twice" },
			{ "missing.patch\n", "missing.patch" },
			{ "# nothing\n\n", "names no patch" },
		};

		for (size_t i = 0; i < PB_ARRAY_SIZE(bad); i++) {
			free(test_write(dir, "series", bad[i].series));
			CHECK(!queue_load(dir, NULL, &q, &err));
			CHECK_HAS(err.msg, bad[i].error);
		}
		unlink(series);
		CHECK(mkfifo(series, 0600) == 0);
		CHECK(!queue_load(dir, NULL, &q, &err));
		CHECK_HAS(err.msg, "a FIFO, not a regular series file");
	}
	unlink(series);
	for (int i = 0; i < 4; i++) {
		unlink(f[i]);
		free(f[i]);
	}
	free(series);
	rmdir(dir);
	free(dir);
}

/* stable-queue's own files are format-patch output of the upstream commits,
 * with no [PATCH N/M]: a series of them, and a one-patch mbox, are numbered
 * by their place; a plain directory of them cannot be, and says so. */
static void unnumbered_queues(void)
{
	static const char *const subject[] = { "mm: fix the first", "[PATCH] mm: fix the second",
					       "[PATCH v2 6.1] mm: fix the third" };
	char *dir = test_tmpdir(), *spool = xasprintf("%s/spool", dir), *f[3], *series, *mbox;
	struct pb_queue q;
	pb_err err = { "" };

	for (int i = 0; i < 3; i++) {
		char *name = xasprintf("p%d.patch", i), *text;

		text = xasprintf("From: A <a@b>\nSubject: %s\n\nbody\n---\n--- a/mm/x.c\n+++ "
				 "b/mm/x.c\n@@ -1 +1 @@\n-a\n+b%d\n", subject[i], i);
		f[i] = test_write(dir, name, text);
		free(text);
		free(name);
	}
	CHECK(!queue_load(dir, NULL, &q, &err));
	CHECK_HAS(err.msg, "Subject has no");
	series = test_write(dir, "series", "p2.patch\np0.patch\np1.patch\n");
	err.msg[0] = '\0';
	CHECK(queue_load(dir, NULL, &q, &err));
	CHECK(q.quilt && q.numbered_by_place && q.npatches == 3);
	if (q.npatches == 3) {
		CHECK(q.patches[0].number == 1 && q.patches[1].number == 2 &&
		      q.patches[2].number == 3 && q.patches[0].total == 3);
		CHECK_STR(q.patches[0].subject, "mm: fix the third");
		CHECK_STR(q.patches[1].subject, "mm: fix the first");
		CHECK_STR(q.patches[2].subject, "mm: fix the second");
		CHECK(queue_find(&q, 2) == &q.patches[1]);
	}
	queue_free(&q);
	/* one numbered patch among them: still by place, all alike */
	free(numbered(dir, "p0.patch", 7));
	CHECK(queue_load(dir, NULL, &q, &err));
	CHECK(q.numbered_by_place && q.npatches == 3 && q.patches[1].number == 2);
	queue_free(&q);
	/* git format-patch --stdout of one commit */
	mbox = test_write(dir, "one.mbox",
			  "From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n"
			  "From: A <a@b>\nSubject: [PATCH] mm: one fix\n\nbody\n---\n--- a/mm/x.c\n"
			  "+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK(queue_load(mbox, spool, &q, &err));
	CHECK(q.mbox && q.numbered_by_place && q.npatches == 1);
	if (q.npatches == 1) {
		CHECK(q.patches[0].number == 1 && q.patches[0].total == 1);
		CHECK_STR(q.patches[0].subject, "mm: one fix");
	}
	queue_free(&q);
	/* one numbered mail among unnumbered ones: an mbox's order is its
	 * arrival's, so it is refused rather than renumbered */
	free(mbox);
	mbox = test_write(dir, "one.mbox",
			  "From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n"
			  "From: A <a@b>\nSubject: [PATCH 1/2] mm: one fix\n\nbody\n---\n--- a/mm/x.c\n"
			  "+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n\n"
			  "From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n"
			  "From: B <b@b>\nSubject: Fwd: mm: a fix\n\nbody\n---\n--- a/mm/y.c\n"
			  "+++ b/mm/y.c\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK(!queue_load(mbox, spool, &q, &err));
	CHECK_HAS(err.msg, "the mail 'Fwd: mm: a fix' has no [PATCH N/M] where 1 others have one");
	/* an empty Subject is still refused */
	free(test_write(dir, "p1.patch", "From: A <a@b>\nSubject:  x\n\nbody\n---\n--- a/mm/x.c\n"
					 "+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n"));
	free(test_write(dir, "p1.patch", "From: A <a@b>\nSubject: [PATCH] \n\nbody\n---\n"
					 "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n"));
	CHECK(!queue_load(dir, NULL, &q, &err));
	CHECK_HAS(err.msg, "p1.patch: Subject is empty after its [PATCH] prefix");
	unlink(mbox);
	unlink(series);
	for (int i = 0; i < 3; i++) {
		unlink(f[i]);
		free(f[i]);
	}
	rmdir(spool);
	rmdir(dir);
	free(mbox);
	free(series);
	free(spool);
	free(dir);
}

/* dir and the files in it */
static void rm_tree_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			char *path = xasprintf("%s/%s", dir, e->d_name);

			unlink(path);
			free(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The bundled queue as one review thread, the way a reviewer saves it
 * from the list: a cover letter, every patch as a reply to it (in
 * arrival order, not the series'), a folded Cc:, a review reply and an
 * ack without a diff. It must read as the same 11 patches. */
static void mbox_thread(void)
{
	char *dir = test_tmpdir(), *spool = xasprintf("%s/spool", dir), *mbox;
	struct pb_queue q, d;
	pb_err err = { "" };
	pb_str t;
	DIR *qd;
	struct dirent *e;
	int n = 0;

	CHECK(queue_load("queue/stable-5.13", NULL, &d, &err));
	str_init(&t);
	str_add(&t, "From gregkh@linuxfoundation.org Mon Jul 12 08:00:00 2021\n"
		    "From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
		    "To: linux-kernel@vger.kernel.org\n"
		    "Subject: [PATCH 5.13 000/800] 5.13.2-rc1 review\n"
		    "Message-ID: <cover@linuxfoundation.org>\n\n"
		    "This is the start of the stable review cycle for the 5.13.2 release.\n"
		    " 1 file changed\n\n");
	qd = opendir("queue/stable-5.13");
	CHECK(qd != NULL);
	while (qd && (e = readdir(qd))) {
		char *path, *text;
		size_t len;

		if (!strstr(e->d_name, ".patch"))
			continue;
		path = xasprintf("queue/stable-5.13/%s", e->d_name);
		text = read_file(path, &len, &err);
		CHECK(text != NULL);
		str_addf(&t, "From gregkh@linuxfoundation.org Mon Jul 12 08:%02d:00 2021\n"
			     "Message-ID: <%.3s@linuxfoundation.org>\n"
			     "In-Reply-To: <cover@linuxfoundation.org>\n"
			     "To: linux-kernel@vger.kernel.org\n"
			     "Cc: Greg Kroah-Hartman <gregkh@linuxfoundation.org>,\n"
			     "\tstable@vger.kernel.org\n",
			 ++n, e->d_name);
		str_add(&t, text ? text : "");
		str_add(&t, "\n");
		if (n == 3)
			str_add(&t, "From someone@example.org Mon Jul 12 09:00:00 2021\n"
				    "From: A Reviewer <someone@example.org>\n"
				    "Subject: Re: [PATCH 5.13 765/800] mm/huge_memory.c: add missing\n"
				    "In-Reply-To: <008@linuxfoundation.org>\n\n"
				    "> diff --git a/mm/huge_memory.c b/mm/huge_memory.c\n"
				    "--- a/mm/huge_memory.c\n+++ b/mm/huge_memory.c\n"
				    "Looks good.\n\n"
				    "From bot@example.org Mon Jul 12 10:00:00 2021\n"
				    "From: A Bot <bot@example.org>\n"
				    "Subject: [PATCH 5.13 000/800] tested\n\n"
				    "Built and booted, no regressions.\n\n");
		free(text);
		free(path);
	}
	if (qd)
		closedir(qd);
	mbox = test_write(dir, "thread.mbox", t.buf);
	/* no spool, no mbox */
	CHECK(!queue_load(mbox, NULL, &q, &err));
	CHECK_HAS(err.msg, "needs a cache directory");
	CHECK(queue_load(mbox, spool, &q, &err));
	CHECK(access(spool, F_OK) != 0); /* loading writes nothing */
	CHECK(q.mbox && !q.quilt);
	CHECK_STR(q.description, "5.13.2-rc1 review");
	CHECK_STR(q.cover_message_id, "<cover@linuxfoundation.org>");
	CHECK_STR(q.cover_from, "Greg Kroah-Hartman <gregkh@linuxfoundation.org>");
	CHECK_INT(q.replies, 1);
	CHECK_INT(q.no_diff, 1); /* the bot's second "000/800", which is no cover */
	CHECK_INT(q.npatches, d.npatches);
	for (int i = 0; i < q.npatches && i < d.npatches; i++) {
		const struct pb_patch *a = &q.patches[i], *b = &d.patches[i];
		char *want = xasprintf("<%03d@linuxfoundation.org>", i + 1);

		CHECK_INT(a->number, b->number); /* sorted, as the directory */
		CHECK_STR(a->subject, b->subject);
		CHECK_STR(a->upstream, b->upstream);
		CHECK_INT(a->nfiles, b->nfiles);
		CHECK_INT(a->is_mm, b->is_mm);
		CHECK_INT(a->cc_stable, b->cc_stable);
		CHECK_STR(a->in_reply_to, "<cover@linuxfoundation.org>");
		CHECK_STR(a->cc, "Greg Kroah-Hartman <gregkh@linuxfoundation.org>, "
				 "stable@vger.kernel.org");
		CHECK_STR(a->to, "linux-kernel@vger.kernel.org");
		CHECK_STR(a->date, b->date);
		CHECK(a->date[0] != '\0');
		/* the directory's file names start with the series position */
		CHECK_STR(a->message_id, want);
		CHECK_STR(b->message_id, "");
		/* the spooled file is the mail's bytes, named by them */
		{
			char *sp = xasprintf("%s/%s.patch", spool, a->sha256), *bytes;
			size_t len;
			struct pb_patch again;

			CHECK_STR(a->file, sp);
			CHECK(patch_spool(a, &err));
			CHECK(patch_spool(a, &err)); /* there already */
			CHECK(patch_spool(b, &err)); /* a file of its own: nothing to do */
			bytes = read_file(a->file, &len, &err);
			CHECK(bytes && patch_parse_buffer("again", bytes, len, &again, &err));
			if (bytes) {
				char hex[65];

				sha256_buf(bytes, len, hex);
				CHECK_STR(hex, a->sha256);
				patch_free(&again);
			}
			free(bytes);
			free(sp);
		}
		free(want);
	}
	{
		char *name = queue_series_name(&q);

		CHECK_STR(name, "5.13.2-rc1");
		free(name);
		free(q.description);
		q.description = xstrdup("no rc named; 6.1-rc1x");
		name = queue_series_name(&q);
		CHECK_STR(name, "thread");
		free(name);
	}
	queue_free(&q);
	/* loaded again: the same files */
	CHECK(queue_load(mbox, spool, &q, &err));
	CHECK_INT(q.npatches, d.npatches);
	queue_free(&q);
	queue_free(&d);
	/* what is refused */
	{
		static const struct {
			const char *text, *error;
		} bad[] = {
			{ "Subject: [PATCH 1/1] x\n\n--- a/mm/x.c\n", "not an mbox" },
			{ "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 0/2] cover\n\nhi\n",
			  "no patch in its 1 mail (0 replies, 0 without a diff)" },
			{ "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 1/2] a\n\n"
			  "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n\n"
			  "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 2/2] b\n\n"
			  "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,2 +1 @@\n-a\n+b\n\n",
			  "thread.mbox, mail 2: hunk of mm/x.c" },
			{ "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 1/2] a\n"
			  "Message-ID: <x>\n\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n\n"
			  "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 1/2] again\n"
			  "Message-ID: <y>\n\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n",
			  "mails <x> and <y> both carry patch number 1" },
			{ "From a@b Mon Jul 12 08:00:00 2021\nSubject: [PATCH 1/1] a\n"
			  "Message-ID: <x>\nMessage-ID: <y>\n\n--- a/mm/x.c\n+++ b/mm/x.c\n"
			  "@@ -1 +1 @@\n-a\n+b\n",
			  "two Message-ID: headers" },
		};

		for (size_t i = 0; i < PB_ARRAY_SIZE(bad); i++) {
			free(test_write(dir, "thread.mbox", bad[i].text));
			CHECK(!queue_load(mbox, spool, &q, &err));
			CHECK_HAS(err.msg, bad[i].error);
		}
	}
	str_free(&t);
	rm_tree_files(spool);
	unlink(mbox);
	free(mbox);
	free(spool);
	rmdir(dir);
	free(dir);
}

/* fn in a child given limit seconds of CPU time (user + system: a loaded
 * machine does not make it fail): true if it returned true within them. */
static bool within(const char *what, unsigned limit, bool (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status = 0;
	struct rusage ru;

	if (pid == 0) {
		struct rlimit rl = { limit, limit + 1 };

		setrlimit(RLIMIT_CPU, &rl); /* SIGXCPU at the limit */
		_exit(fn(arg) ? 0 : 1);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return false;
	printf("           %s: %.2f s of CPU%s\n", what,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       WIFSIGNALED(status) ? " (killed at the limit)" : "");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool parse_many_files(void *arg)
{
	const pb_str *text = arg;
	struct pb_patch p;
	pb_err err = { "" };
	bool ok = patch_parse_buffer("many.patch", text->buf, text->len, &p, &err);

	ok = ok && p.nfiles == 240000 && p.files[239999].added == 1;
	patch_free(&p);
	return ok;
}

static bool load_big_queue(void *arg)
{
	struct pb_queue q;
	pb_err err = { "" };
	bool ok = queue_load(arg, NULL, &q, &err);

	ok = ok && q.npatches == 100000 && queue_find(&q, 100000);
	queue_free(&q);
	return ok;
}

/* Parsing is linear: 240k files in one patch, a queue of 100k files. The
 * quadratic parser took minutes for the first and over 60 s under ASan for
 * the second; linear, about 1.5 s and 5 s here (ASan, a loaded machine),
 * hence the generous limits. */
static void scale(void)
{
	pb_str text;
	char *dir = test_tmpdir();
	char name[32];

	str_init(&text);
	str_add(&text, "Subject: [PATCH 1/1] many files\n\n");
	for (int i = 0; i < 240000; i++)
		str_addf(&text, "diff --git a/d/%d b/d/%d\n--- a/d/%d\n+++ b/d/%d\n@@ -1 +1 @@\n-\n+\n",
			 i, i, i, i);
	CHECK(within("240k files in a patch", 10, parse_many_files, &text));
	str_free(&text);

	for (int i = 1; i <= 100000; i++) {
		char *t = xasprintf("Subject: [PATCH %d/100000] x\n\n--- a/f\n+++ b/f\n"
					   "@@ -1 +1 @@\n-\n+\n", i);

		snprintf(name, sizeof(name), "%06d.patch", i);
		free(test_write(dir, name, t));
		free(t);
	}
	CHECK(within("a queue of 100k files", 30, load_big_queue, dir));
	for (int i = 1; i <= 100000; i++) {
		char *path;

		snprintf(name, sizeof(name), "%06d.patch", i);
		path = xasprintf("%s/%s", dir, name);
		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
}

/* perfbot run --patch-file: one patch of one's own, whatever its Subject. */
static void patch_files(void)
{
	static const char diff[] = "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n";
	static const struct {
		const char *head, *subject;
	} cases[] = {
		{ "From 1234 Mon Sep 17 00:00:00 2001\nFrom: A <a@b>\nSubject: [PATCH] mm: mine\n\nwhy\n---\n",
		  "mm: mine" },
		{ "From: A <a@b>\nSubject: [PATCH v2 3/7] mm: second\n\n---\n", "mm: second" },
		{ "From: A <a@b>\nSubject: [RFC PATCH v3 2/4] mm: asking\n\n---\n", "mm: asking" },
		{ "From: A <a@b>\nSubject: [RFC] mm: just asking\n\n---\n", "mm: just asking" },
		{ "From: A <a@b>\nSubject: [RESEND PATCH v2] mm: again\n\n---\n", "mm: again" },
		{ "From: A <a@b>\nSubject: [RFC v2][PATCH net-next 3/7] mm: tagged\n\n---\n", "mm: tagged" },
		{ "From: A <a@b>\nSubject: mm: no tag at all\n\n---\n", "mm: no tag at all" },
		/* no mail at all: a description then the diff, or the diff alone */
		{ "mm: fix the thing\n\nSigned-off-by: A <a@b>\n---\n", "mm: fix the thing" },
		{ "", "plain.diff" },
	};
	char *dir = test_tmpdir();
	pb_err err = { "" };

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *text = xasprintf("%s%s", cases[i].head, diff), *path;
		char label[PATCH_LABEL_SIZE];
		struct pb_queue q;

		path = test_write(dir, "plain.diff", text);
		CHECK(queue_load_patch_file(path, NULL, &q, &err));
		if (q.npatches == 1) {
			CHECK_STR(q.patches[0].subject, cases[i].subject);
			CHECK_INT(q.patches[0].number, 0);
			CHECK(q.patches[0].is_mm);
			CHECK(q.one_patch);
			CHECK_STR(q.dir, path);
			CHECK_STR(q.patches[0].file, path);
			CHECK_INT(strlen(patch_label(label, 0, q.patches[0].sha256)), 12);
			CHECK(!strncmp(label, q.patches[0].sha256, 12));
			CHECK(queue_find(&q, 0) == &q.patches[0]);
		}
		queue_free(&q);
		free(path);
		free(text);
	}
	{
		char label[PATCH_LABEL_SIZE];

		CHECK_STR(patch_label(label, 7, "ab"), "007");
		CHECK_STR(patch_label(label, 771, "ab"), "771");
	}
	/* what a queue refuses, one patch of one's own still refuses */
	{
		struct pb_queue q;
		char *path = test_write(dir, "bad.diff", "From: A <a@b>\nSubject: [PATCH] mm: x\n\nno diff\n");

		CHECK(!queue_load_patch_file(path, NULL, &q, &err));
		CHECK_HAS(err.msg, "no diff");
		CHECK(!queue_load_patch_file("/nonexistent/x.patch", NULL, &q, &err));
		CHECK(!queue_load_patch_file("-", NULL, &q, &err));
		CHECK_HAS(err.msg, "needs a cache directory");
		free(path);
	}
	/* and a queue still wants [PATCH N/M] where it has no series file */
	{
		struct pb_queue q;
		char *path = test_write(dir, "001.patch", "From: A <a@b>\nSubject: [RFC PATCH] mm: x\n\n---\n"
							  "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");

		CHECK(!queue_load(dir, NULL, &q, &err));
		unlink(path);
		free(path);
	}
	/* with a spool, the bytes are kept there, named by their hash */
	{
		struct pb_queue q;
		char *path = test_write(dir, "mine.patch", "From: A <a@b>\nSubject: [PATCH] mm: x\n\n---\n"
							   "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");
		char *spool = xasprintf("%s/spool", dir), *want;

		CHECK(queue_load_patch_file(path, spool, &q, &err));
		want = xasprintf("%s/%s.patch", spool, q.patches[0].sha256);
		CHECK_STR(q.patches[0].file, want);
		CHECK_STR(q.dir, want);
		CHECK(!path_exists(want)); /* loading writes nothing */
		CHECK(patch_spool(&q.patches[0], &err));
		CHECK(path_exists(want));
		queue_free(&q);
		free(want);
		free(spool);
		free(path);
	}
	rm_rf(dir);
	free(dir);
}

void test_queue(void)
{
	patch_files();
	bundled_queue();
	malformed();
	git_headers();
	parse_steps();
	mm_paths();
	duplicate_numbers();
	quilt_series();
	unnumbered_queues();
	mbox_thread();
	scale();
}
