/* Pairing: what perfbot reads in patch(1)'s output (the files a change
 * touches, the hunks it reports), from fixtures that GNU patch 2.7.6
 * printed on tiny trees (tests/data/pairing/), and the pair decision made
 * with the real patch(1) on a one-file tree. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "check.h"
#include "kernel.h"

#define FIXTURES "tests/data/pairing"

static char *fixture(const char *name)
{
	char *path = xasprintf("%s/%s", FIXTURES, name), *text = read_file(path, NULL, NULL);

	CHECK(text != NULL);
	free(path);
	return text ? text : xstrdup("");
}

static void test_touched(void)
{
	static const struct {
		const char *fixture, *want;
	} cases[] = {
		{ "forward.out", "mm/a.c\n" },
		{ "applied-reverse.out", "mm/a.c\n" },
		{ "offset.out", "mm/a.c\n" },
		{ "fuzz.out", "mm/a.c\n" },
		{ "applied-forward.out", "mm/a.c\n" },
		/* a rename touches both names: the new file goes, the old comes back */
		{ "rename.out", "mm/new.c\nmm/old.c\n" },
		/* a copy leaves its source alone */
		{ "copy.out", "mm/copy.c\n" },
		{ "symlink.out", "mm/link\n" },
		{ "relink.out", "mm/link\n" },
		/* a name with a space, a quote or a parenthesis is shell-quoted */
		{ "quoted.out", "doc/a\"b c.txt\ndoc/x'y\"z.txt\ndoc/it's here.txt\nmm/a(b).c\n" },
		{ "git.out", "doc/a file list.txt\nmm/link\nmm/new.c\nmm/old.c\n" },
		/* the real apply says "patching" where the dry run says "checking" */
		{ "git-apply.out", "doc/a file list.txt\nmm/link\nmm/new.c\nmm/old.c\n" },
		/* "can't find file to patch" and the mail it echoes ("a file leak")
		 * name no file */
		{ "missing-file.out", "" },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *out = fixture(cases[i].fixture);
		pb_str list;

		str_init(&list);
		touched_files(out, &list);
		if (strcmp(list.buf, cases[i].want))
			fprintf(stderr, "touched_files(%s)\n", cases[i].fixture);
		CHECK_STR(list.buf, cases[i].want);
		str_free(&list);
		free(out);
	}
}

static void test_summaries(void)
{
	static const struct {
		const char *fixture;
		bool failures_only;
		const char *want;
	} cases[] = {
		{ "forward.out", false, "clean" },
		{ "applied-reverse.out", false, "clean" },
		{ "offset.out", false, "mm/a.c Hunk #1 succeeded at 20 (offset 3 lines)." },
		{ "fuzz.out", false, "mm/a.c Hunk #1 succeeded at 17 with fuzz 1." },
		{ "applied-forward.out", true, "mm/a.c Hunk #1 FAILED at 17." },
		{ "neither-forward.out", true, "mm/a.c Hunk #1 FAILED at 17." },
		{ "neither-reverse.out", true, "mm/a.c Hunk #1 FAILED at 17." },
		{ "missing-file.out", true,
		  "can't find file to patch at input line 8; No file to patch.  Skipping patch." },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *out = fixture(cases[i].fixture), *got = summarize_patch_output(out, cases[i].failures_only);

		CHECK_STR(got, cases[i].want);
		free(got);
		free(out);
	}
	{
		char *s = summarize_patch_output("patch: **** Only garbage was found in the patch input.\n",
						 true);

		CHECK_STR(s, "patch: **** Only garbage was found in the patch input.");
		free(s);
		s = summarize_patch_output("", true);
		CHECK_STR(s, "patch(1) failed");
		free(s);
	}
}

/* Writes text to root/rel, making its directories. */
static void put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *slash = strrchr(path, '/');
	pb_err err = { "" };

	*slash = '\0';
	CHECK(mkdir_p(path, &err));
	*slash = '/';
	CHECK(write_file_atomic(path, text, strlen(text), &err));
	free(path);
}

/* The file mm-a.patch was made against: "line 1" to "line 40", here with
 * line 17 or 20 replaced and extra lines on top. */
static char *a_text(const char *line17, const char *line20, int extra)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < extra; i++)
		str_addf(&s, "extra %d\n", i + 1);
	for (int i = 1; i <= 40; i++) {
		if (i == 17 && line17)
			str_addf(&s, "%s\n", line17);
		else if (i == 20 && line20)
			str_addf(&s, "%s\n", line20);
		else
			str_addf(&s, "line %d\n", i);
	}
	return str_steal(&s);
}

/* A kernel tree in a temporary directory: pristine/ and work/ under dir/. */
struct tiny {
	char *root;
	struct kernel_tree t;
	struct pb_config cfg;
	struct pb_patch p;
};

static void tiny_init(struct tiny *y, const char *patch)
{
	char *cwd = getcwd(NULL, 0);
	pb_err err = { "" };

	memset(y, 0, sizeof(*y));
	y->root = test_tmpdir();
	y->t.dir = xasprintf("%s/tree", y->root);
	y->t.pristine = xasprintf("%s/tree/pristine", y->root);
	y->t.work = xasprintf("%s/tree/work", y->root);
	y->t.version = xstrdup("6.1.0");
	y->t.series = xstrdup("6.1");
	CHECK(mkdir_p(y->t.pristine, &err) && mkdir_p(y->t.work, &err));
	y->cfg.ports_dir = xasprintf("%s/ports", y->root);
	/* patch(1) runs in the work copy: the patch's path is absolute */
	y->p.file = xasprintf("%s/%s/%s", cwd, FIXTURES, patch);
	y->p.upstream = xstrdup("");
	y->p.number = 765;
	free(cwd);
}

static void tiny_free(struct tiny *y)
{
	rm_rf(y->root);
	free(y->root);
	free(y->t.dir);
	free(y->t.pristine);
	free(y->t.work);
	free(y->t.version);
	free(y->t.series);
	free(y->cfg.ports_dir);
	free(y->p.file);
	free(y->p.upstream);
}

#define UPSTREAM "0123456789abcdef0123456789abcdef01234567"

/* pair_decide for mm-a.patch on a work copy whose mm/a.c is a_text(...);
 * port: the fixture installed as the port of UPSTREAM. */
static bool decide(const char *line17, const char *line20, int extra, bool upstream,
		   const char *port, struct pair_plan *plan, char **err_out)
{
	struct tiny y;
	pb_err err = { "" };
	char *a = a_text(line17, line20, extra);
	bool ok;

	tiny_init(&y, "mm-a.patch");
	put(y.t.work, "mm/a.c", a);
	if (upstream) {
		free(y.p.upstream);
		y.p.upstream = xstrdup(UPSTREAM);
	}
	if (port) {
		char *text = fixture(port);

		put(y.cfg.ports_dir, "6.1/" UPSTREAM ".patch", text);
		free(text);
	}
	ok = pair_decide(&y.cfg, &y.t, &y.p, plan, &err);
	*err_out = xstrdup(err.msg);
	tiny_free(&y);
	free(a);
	return ok;
}

static void test_pair_decide(void)
{
	struct pair_plan plan;
	char *err;

	/* it applies to the base: (base, base+patch) */
	CHECK(decide(NULL, NULL, 0, false, NULL, &plan, &err));
	CHECK_INT(plan.method, PAIR_FORWARD);
	CHECK_STR(plan.without.label, "base");
	CHECK(plan.without.file == NULL);
	CHECK_STR(plan.with.label, "base+patch");
	CHECK(plan.with.file && !plan.with.reverse);
	CHECK_INT(strlen(plan.with.sha256), 64);
	CHECK_STR(plan.detail, "applies forward to 6.1.0: clean");
	pair_plan_free(&plan);
	free(err);

	/* at an offset, with fuzz: forward still, and the detail says how */
	CHECK(decide(NULL, NULL, 3, false, NULL, &plan, &err));
	CHECK_INT(plan.method, PAIR_FORWARD);
	CHECK_STR(plan.detail, "applies forward to 6.1.0: mm/a.c Hunk #1 succeeded at 20 (offset 3 lines).");
	pair_plan_free(&plan);
	free(err);
	CHECK(decide("line seventeen", NULL, 0, false, NULL, &plan, &err));
	CHECK_INT(plan.method, PAIR_FORWARD);
	CHECK_STR(plan.detail, "applies forward to 6.1.0: mm/a.c Hunk #1 succeeded at 17 with fuzz 1.");
	pair_plan_free(&plan);
	free(err);

	/* already in the base: (base-patch, base) */
	CHECK(decide(NULL, "line twenty", 0, false, NULL, &plan, &err));
	CHECK_INT(plan.method, PAIR_REVERSE);
	CHECK_STR(plan.without.label, "base-patch");
	CHECK(plan.without.file && plan.without.reverse);
	CHECK_STR(plan.with.label, "base");
	CHECK(plan.with.file == NULL);
	CHECK_STR(plan.detail, "already in 6.1.0, reverts cleanly: clean");
	pair_plan_free(&plan);
	free(err);

	/* neither way and no upstream commit named: one line naming the hunks */
	CHECK(!decide(NULL, "line 20 changed", 0, false, NULL, &plan, &err));
	CHECK_HAS(err, "patch 765 applies neither forward nor in reverse to linux 6.1.0 and has no "
		       "port (no upstream commit named)");
	CHECK_HAS(err, "(forward: mm/a.c Hunk #1 FAILED at 17. | reverse: mm/a.c Hunk #1 FAILED at 17.)");
	CHECK(!strchr(err, '\n'));
	free(err);

	/* an upstream commit without a port file names the file it looked for */
	CHECK(!decide(NULL, "line 20 changed", 0, true, NULL, &plan, &err));
	CHECK_HAS(err, "has no port ");
	CHECK_HAS(err, "/ports/6.1/" UPSTREAM ".patch (forward:");
	free(err);

	/* a port that applies: (base+port, base) */
	CHECK(decide(NULL, "line 20 changed", 0, true, "port.patch", &plan, &err));
	CHECK_INT(plan.method, PAIR_PORT);
	CHECK_STR(plan.without.label, "base+port");
	CHECK_HAS(plan.without.file, "/ports/6.1/" UPSTREAM ".patch");
	CHECK(!plan.without.reverse);
	CHECK_STR(plan.with.label, "base");
	CHECK_HAS(plan.detail, "already in 6.1.0 in reworked form");
	pair_plan_free(&plan);
	free(err);

	/* a port that does not apply either */
	CHECK(!decide(NULL, "line 20 changed", 0, true, "mm-a.patch", &plan, &err));
	CHECK_HAS(err, "patch 765: its port ");
	CHECK_HAS(err, " does not apply to 6.1.0: mm/a.c Hunk #1 FAILED at 17.");
	free(err);
}

static bool is_link_to(const char *path, const char *target)
{
	char buf[64];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, target);
}

/* change_apply, then tree_reset: the work copy is the pristine tree again,
 * after a git patch that renames a file, adds a symbolic link and edits a
 * name with spaces, and after one that changes where a link points. */
static void test_apply_and_reset(void)
{
	struct tiny y;
	struct kernel_change c;
	pb_err err = { "" };
	struct stat st;
	char *a = a_text(NULL, NULL, 0), *path, *text;

	tiny_init(&y, "git.patch");
	put(y.t.pristine, "mm/old.c", a);
	put(y.t.pristine, "doc/a file list.txt", "hi\n");
	put(y.t.work, "mm/old.c", a);
	put(y.t.work, "doc/a file list.txt", "hi\n");
	kernel_change_set(&c, y.p.file, false, "base+patch");
	CHECK(change_apply(&y.t, &c, &err));
	path = tree_dirty_path(&y.t);
	text = read_file(path, NULL, NULL);
	CHECK_STR(text, "doc/a file list.txt\nmm/link\nmm/new.c\nmm/old.c\n");
	free(text);
	free(path);
	path = xasprintf("%s/mm/link", y.t.work);
	CHECK(is_link_to(path, "new.c"));
	CHECK(tree_reset(&y.t, &err));
	CHECK(lstat(path, &st) != 0);
	free(path);
	path = xasprintf("%s/mm/new.c", y.t.work);
	CHECK(!path_exists(path));
	free(path);
	path = xasprintf("%s/mm/old.c", y.t.work);
	text = read_file(path, NULL, NULL);
	CHECK_STR(text, a);
	free(text);
	free(path);
	path = xasprintf("%s/doc/a file list.txt", y.t.work);
	text = read_file(path, NULL, NULL);
	CHECK_STR(text, "hi\n");
	free(text);
	free(path);
	kernel_change_free(&c);
	tiny_free(&y);

	/* a link the patch points elsewhere is a link again, to where it was */
	tiny_init(&y, "relink.patch");
	for (int side = 0; side < 2; side++) {
		const char *root = side ? y.t.work : y.t.pristine;

		put(root, "mm/old.c", "x\n");
		path = xasprintf("%s/mm/link", root);
		CHECK(symlink("old.c", path) == 0);
		free(path);
	}
	kernel_change_set(&c, y.p.file, false, "base+patch");
	CHECK(change_apply(&y.t, &c, &err));
	path = xasprintf("%s/mm/link", y.t.work);
	CHECK(is_link_to(path, "new.c"));
	CHECK(tree_reset(&y.t, &err));
	CHECK(is_link_to(path, "old.c"));
	free(path);
	kernel_change_free(&c);
	tiny_free(&y);
	free(a);
}

/* A series of two patches of mm/a.c (mm-a.patch: line 20; a second made
 * here: line 30) on a work copy whose mm/a.c has line 20 and line 30 as
 * given: the plan, or the error. */
static bool decide_series(const char *line20, const char *line30, bool second_mm,
			  struct pair_plan *plan, char **err_out, bool apply_after)
{
	struct tiny y;
	struct pb_patch second = { 0 };
	const struct pb_patch *patches[2];
	pb_err err = { "" };
	pb_str a;
	bool ok;

	tiny_init(&y, "mm-a.patch");
	y.p.is_mm = true;
	str_init(&a);
	for (int i = 1; i <= 40; i++) {
		if (i == 20 && line20)
			str_addf(&a, "%s\n", line20);
		else if (i == 30 && line30)
			str_addf(&a, "%s\n", line30);
		else
			str_addf(&a, "line %d\n", i);
	}
	put(y.t.work, "mm/a.c", a.buf);
	put(y.t.pristine, "mm/a.c", a.buf);
	second.file = xasprintf("%s/second.patch", y.root);
	put(y.root, "second.patch",
	    "--- a/mm/a.c\n+++ b/mm/a.c\n@@ -27,7 +27,7 @@\n line 27\n line 28\n line 29\n"
	    "-line 30\n+line thirty\n line 31\n line 32\n line 33\n");
	second.number = 766;
	second.is_mm = second_mm;
	second.upstream = "";
	patches[0] = &y.p;
	patches[1] = &second;
	ok = pair_decide_series(&y.cfg, &y.t, patches, 2, plan, &err);
	*err_out = xstrdup(err.msg);
	{
		/* the work copy is the pristine tree again */
		char *path = xasprintf("%s/mm/a.c", y.t.work), *text = read_file(path, NULL, NULL);

		CHECK_STR(text, a.buf);
		free(text);
		if (ok && apply_after) {
			const struct kernel_change *c = plan->method == PAIR_FORWARD ? &plan->with
										     : &plan->without;

			CHECK(change_apply(&y.t, c, &err));
			text = read_file(path, NULL, NULL);
			CHECK(text && strstr(text, plan->method == PAIR_FORWARD ? "line twenty" : "line 20\n"));
			CHECK(text && strstr(text, plan->method == PAIR_FORWARD ? "line thirty" : "line 30\n"));
			free(text);
			CHECK(tree_reset(&y.t, &err));
			text = read_file(path, NULL, NULL);
			CHECK_STR(text, a.buf);
			free(text);
		}
		free(path);
	}
	free(second.file);
	str_free(&a);
	tiny_free(&y);
	return ok;
}

static void test_pair_decide_series(void)
{
	struct pair_plan plan;
	struct kernel_change one;
	char *err;

	/* an -rc on its base: both forward, in order, one kernel of both */
	CHECK(decide_series(NULL, NULL, true, &plan, &err, true));
	CHECK_INT(plan.method, PAIR_FORWARD);
	CHECK(kernel_change_is_base(&plan.without));
	CHECK_STR(plan.with.label, "base+series");
	CHECK_INT(plan.with.nsteps, 2);
	CHECK(plan.with.file == NULL);
	CHECK(plan.with.nsteps == 2 && plan.with.steps[0].number == 765 &&
	      plan.with.steps[1].number == 766 && !plan.with.steps[0].reverse);
	CHECK_STR(plan.with.summary, "2 patches: 765 766 (forward)");
	CHECK_STR(plan.detail, "2 patches apply forward in series order to 6.1.0");
	/* its key is no single file's */
	kernel_change_set(&one, plan.with.steps[0].file, false, "base+patch");
	CHECK(strcmp(one.sha256, plan.with.sha256) != 0);
	CHECK_INT(strlen(plan.with.sha256), 64);
	kernel_change_free(&one);
	pair_plan_free(&plan);
	free(err);

	/* the queue in the base: the mm patches out, last first */
	CHECK(decide_series("line twenty", "line thirty", true, &plan, &err, true));
	CHECK_INT(plan.method, PAIR_REVERSE);
	CHECK(kernel_change_is_base(&plan.with));
	CHECK_STR(plan.without.label, "base-series");
	CHECK(plan.without.nsteps == 2 && plan.without.steps[0].number == 766 &&
	      plan.without.steps[1].number == 765 && plan.without.steps[0].reverse);
	CHECK_STR(plan.without.summary, "2 patches: 766 765 (reverted, last first)");
	CHECK_HAS(plan.detail, "the queue is in 6.1.0 already: its 2 mm patches taken out");
	pair_plan_free(&plan);
	free(err);

	/* in the base, the second not mm: only the first taken out */
	CHECK(decide_series("line twenty", "line thirty", false, &plan, &err, false));
	CHECK(plan.without.nsteps == 1 && plan.without.steps[0].number == 765);
	CHECK_HAS(plan.detail, "the queue is in 6.1.0 already: its 1 mm patch taken out");
	CHECK_STR(plan.without.summary, "1 patch: 765 (reverted, last first)");
	pair_plan_free(&plan);
	free(err);

	/* the first applies, the second does not: one line naming it */
	CHECK(!decide_series(NULL, "line 30 changed", true, &plan, &err, false));
	CHECK_HAS(err, "series: patch 766 does not apply to 6.1.0 after the 1 before it: mm/a.c Hunk #1 FAILED");
	CHECK(!strchr(err, '\n'));
	free(err);

	/* in the base, but the second one neither reverts nor has a port */
	CHECK(!decide_series("line twenty", "line 30 changed", true, &plan, &err, false));
	CHECK_HAS(err, "series: patch 766 does not apply forward to 6.1.0 (");
	CHECK_HAS(err, "nor does it revert after the 0 mm patches after it (mm/a.c Hunk #1 FAILED");
	free(err);
}

/* Prefix k of a series of 4 and the position of each step's patch. */
static void test_bisect_prefixes(void)
{
	/* the -rc on its base: prefix k is its first k steps */
	CHECK_INT(bisect_prefix_steps(0, 4, false), 0);
	CHECK_INT(bisect_prefix_steps(3, 4, false), 3);
	CHECK_INT(bisect_step_position(0, 4, false), 1);
	CHECK_INT(bisect_step_position(3, 4, false), 4);
	/* taken out of the base, last first: prefix k keeps patches 1..k in,
	 * so it reverts the n - k after it, which are the first n - k steps */
	CHECK_INT(bisect_prefix_steps(0, 4, true), 4);
	CHECK_INT(bisect_prefix_steps(4, 4, true), 0);
	CHECK_INT(bisect_prefix_steps(3, 4, true), 1);
	CHECK_INT(bisect_step_position(0, 4, true), 4); /* the first revert is the last patch */
	CHECK_INT(bisect_step_position(3, 4, true), 1);
	/* the culprit at position k: the step that adds it to prefix k - 1 */
	for (int k = 1; k <= 4; k++) {
		int fwd = bisect_prefix_steps(k, 4, false) - 1;
		int rev = bisect_prefix_steps(k - 1, 4, true) - 1;

		CHECK_INT(bisect_step_position(fwd, 4, false), k);
		CHECK_INT(bisect_step_position(rev, 4, true), k);
	}
}

void test_pairing(void)
{
	test_bisect_prefixes();
	test_pair_decide_series();
	test_touched();
	test_summaries();
	test_pair_decide();
	test_apply_and_reset();
}
