/* Patching: patch(1) dry runs and applies on the work copy, what its output
 * says (the files it touches, the hunks that failed or moved), and the pair
 * decision (forward, reverse or a port) made from them. */
#include "patching.h"

#include <stdlib.h>
#include <string.h>

/* Runs patch(1) on the work tree; out gets what it said. */
int run_patch(const struct kernel_tree *t, const char *file, bool reverse, bool dry_run,
	      pb_str *out)
{
	char *argv[12];
	int n = 0, status = 0;

	argv[n++] = "patch";
	argv[n++] = "-p1";
	argv[n++] = "-f"; /* never ask, never guess "reversed" */
	argv[n++] = "--no-backup-if-mismatch";
	if (reverse)
		argv[n++] = "-R";
	if (dry_run)
		argv[n++] = "--dry-run";
	else {
		argv[n++] = "-r";
		argv[n++] = "-";
	}
	argv[n++] = "-i";
	argv[n++] = (char *)file;
	argv[n] = NULL;
	if (!spawn_capture(argv, t->work, true, out, &status))
		return -1;
	return status;
}

/* A name as patch(1) prints it: bare when it needs no quoting, else
 * shell-quoted ('a b', "it's", 'x'\''y'), so that a bare name has no space
 * or parenthesis: it ends at an unquoted one, or the line's end, *end
 * there. */
static char *patch_name(const char *s, const char **end)
{
	pb_str name;
	char q = 0;

	str_init(&name);
	for (; *s && *s != '\n' && (q || (*s != ' ' && *s != ')')); s++) {
		if (q && *s == q)
			q = 0;
		else if (!q && (*s == '\'' || *s == '"'))
			q = *s;
		else if (*s == '\\' && q != '\'' && s[1] && s[1] != '\n')
			str_addn(&name, ++s, 1);
		else
			str_addn(&name, s, 1);
	}
	*end = s;
	return str_steal(&name);
}

static void add_patch_name(pb_str *list, const char *s, const char **end)
{
	char *name = patch_name(s, end);

	if (name[0]) {
		str_add(list, name);
		str_add(list, "\n");
	}
	free(name);
}

/* patch(1) names what it touches at the start of a line: "checking file
 * X" in a dry run, "patching file X" in a real one, "... symbolic link X"
 * for a link, and " (renamed from Y)" after X when a git rename takes Y
 * away. Only those lines count: "can't find file to patch" and the mail
 * text it echoes then ("|Subject: fix a file leak") name nothing. */
void touched_files(const char *patch_out, pb_str *list)
{
	static const char *const says[] = { "checking file ", "patching file ",
					    "checking symbolic link ", "patching symbolic link " };

	for (const char *s = patch_out; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		for (size_t i = 0; i < PB_ARRAY_SIZE(says); i++) {
			const char *rest;

			if (!starts_with(s, says[i]))
				continue;
			add_patch_name(list, s + strlen(says[i]), &rest);
			if (starts_with(rest, " (renamed from "))
				add_patch_name(list, rest + 15, &rest);
			break;
		}
}

/* "mm/migrate.c hunk #1 FAILED at 1288; ..." from patch(1)'s output. */
char *summarize_patch_output(const char *out, bool failures_only)
{
	pb_str s;
	char *copy = xstrdup(out), *line, *save = NULL, *file = NULL;

	str_init(&s);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (starts_with(line, "checking file ") || starts_with(line, "patching file ")) {
			file = line + 14;
		} else if (starts_with(line, "Hunk #")) {
			bool failed = strstr(line, "FAILED") != NULL;

			if (failures_only && !failed)
				continue;
			if (s.len)
				str_add(&s, "; ");
			str_addf(&s, "%s %s", file ? file : "?", line);
		} else if (strstr(line, "can't find file") || strstr(line, "No file to patch") ||
			   strstr(line, "malformed") || strstr(line, "Only garbage")) {
			if (s.len)
				str_add(&s, "; ");
			str_add(&s, line);
		}
	}
	free(copy);
	if (!s.len)
		str_add(&s, failures_only ? "patch(1) failed" : "clean");
	return str_steal(&s);
}

static bool dry_run(struct kernel_tree *t, const char *file, bool reverse, char **summary,
		    pb_err *err)
{
	pb_str out;
	int rc;

	str_init(&out);
	rc = run_patch(t, file, reverse, true, &out);
	if (rc < 0) {
		pb_seterr(err, "patch(1) not found (apt-get install patch)");
		str_free(&out);
		*summary = NULL;
		return false;
	}
	*summary = summarize_patch_output(out.buf, rc != 0);
	str_free(&out);
	return rc == 0;
}

void kernel_change_set(struct kernel_change *c, const char *file, bool reverse, const char *label)
{
	memset(c, 0, sizeof(*c));
	c->label = xstrdup(label);
	c->reverse = reverse;
	if (file) {
		c->file = xstrdup(file);
		if (!sha256_file(file, c->sha256, NULL))
			c->sha256[0] = '\0';
		c->steps = xcalloc(1, sizeof(*c->steps));
		c->steps[0].file = xstrdup(file);
		c->steps[0].reverse = reverse;
		memcpy(c->steps[0].sha256, c->sha256, sizeof(c->sha256));
		c->nsteps = 1;
	}
}

void kernel_change_series(struct kernel_change *c, const struct change_step *steps, int n,
			  const char *label, const char *summary)
{
	pb_str in;

	memset(c, 0, sizeof(*c));
	c->label = xstrdup(label);
	c->summary = xstrdup(summary);
	c->steps = xcalloc((size_t)(n ? n : 1), sizeof(*c->steps));
	c->nsteps = n;
	/* "series" first: no single file's SHA-256 can be a series' */
	str_init(&in);
	str_add(&in, "series\n");
	for (int i = 0; i < n; i++) {
		c->steps[i] = steps[i];
		c->steps[i].file = xstrdup(steps[i].file);
		str_addf(&in, "%s %d\n", steps[i].sha256, steps[i].reverse);
	}
	sha256_buf(in.buf, in.len, c->sha256);
	str_free(&in);
}

bool kernel_change_is_base(const struct kernel_change *c)
{
	return c->nsteps == 0;
}

bool pair_decide(const struct pb_config *cfg, struct kernel_tree *t, const struct pb_patch *p,
		 struct pair_plan *plan, pb_err *err)
{
	char *fwd = NULL, *rev = NULL, *port = NULL, *port_sum = NULL, label[PATCH_LABEL_SIZE];
	bool ok = false;
	int lock = tree_lock(t);

	memset(plan, 0, sizeof(*plan));
	if (!patch_spool(p, err) || !tree_reset(t, err))
		goto out;
	if (dry_run(t, p->file, false, &fwd, err)) {
		plan->method = PAIR_FORWARD;
		kernel_change_set(&plan->without, NULL, false, "base");
		kernel_change_set(&plan->with, p->file, false, "base+patch");
		plan->detail = xasprintf("applies forward to %s: %s", t->version, fwd);
		ok = true;
		goto out;
	}
	if (!fwd)
		goto out;
	if (dry_run(t, p->file, true, &rev, err)) {
		plan->method = PAIR_REVERSE;
		kernel_change_set(&plan->without, p->file, true, "base-patch");
		kernel_change_set(&plan->with, NULL, false, "base");
		plan->detail = xasprintf("already in %s, reverts cleanly: %s", t->version, rev);
		ok = true;
		goto out;
	}
	if (!rev)
		goto out;
	if (p->upstream[0])
		port = xasprintf("%s/%s/%s.patch", cfg->ports_dir, t->series, p->upstream);
	if (port && path_exists(port)) {
		if (!dry_run(t, port, false, &port_sum, err)) {
			pb_seterr(err, "patch %s: its port %s does not apply to %s: %s",
				  patch_label(label, p->number, p->sha256), port, t->version,
				  port_sum ? port_sum : "");
			goto out;
		}
		plan->method = PAIR_PORT;
		kernel_change_set(&plan->without, port, false, "base+port");
		kernel_change_set(&plan->with, NULL, false, "base");
		plan->detail = xasprintf("already in %s in reworked form; pre-fix behaviour "
					 "restored by port %s", t->version, port);
		ok = true;
		goto out;
	}
	pb_seterr(err,
		  "patch %s applies neither forward nor in reverse to linux %s and has no port %s "
		  "(forward: %s | reverse: %s)",
		  patch_label(label, p->number, p->sha256), t->version,
		  port ? port : "(no upstream commit named)", fwd, rev);
out:
	tree_unlock(lock);
	free(fwd);
	free(rev);
	free(port);
	free(port_sum);
	if (!ok)
		pair_plan_free(plan);
	return ok;
}

void kernel_change_free(struct kernel_change *c)
{
	for (int i = 0; i < c->nsteps; i++)
		free(c->steps[i].file);
	free(c->steps);
	free(c->file);
	free(c->label);
	free(c->summary);
	memset(c, 0, sizeof(*c));
}

void pair_plan_free(struct pair_plan *plan)
{
	kernel_change_free(&plan->without);
	kernel_change_free(&plan->with);
	free(plan->detail);
	memset(plan, 0, sizeof(*plan));
}

/* One step on the work copy: a dry run, then (only if it applies) the
 * files it touches added to touched and recorded in work.dirty before
 * anything is touched (a perfbot killed half-way still knows what to put
 * back), then the real run. 1: applied; 0: it does not apply (*summary
 * names the hunks that failed); -1: an error (err). */
static int step_apply(struct kernel_tree *t, const char *file, bool reverse, pb_str *touched,
		      char **summary, pb_err *err)
{
	pb_str said;
	char *dp = NULL;
	int rc, applied = -1;

	*summary = NULL;
	if (!dry_run(t, file, reverse, summary, err))
		return *summary ? 0 : -1;
	str_init(&said);
	run_patch(t, file, reverse, true, &said);
	touched_files(said.buf, touched);
	dp = tree_dirty_path(t);
	if (!write_file_atomic(dp, touched->buf, touched->len, err))
		goto out;
	str_free(&said);
	str_init(&said);
	rc = run_patch(t, file, reverse, false, &said);
	if (rc != 0) {
		pb_seterr(err, "applying %s failed: %.200s", file, said.buf);
		goto out;
	}
	applied = 1;
out:
	free(dp);
	str_free(&said);
	return applied;
}

bool change_apply(struct kernel_tree *t, const struct kernel_change *change, pb_err *err)
{
	pb_str touched;
	bool ok = true;

	str_init(&touched);
	for (int i = 0; ok && i < change->nsteps; i++) {
		const struct change_step *st = &change->steps[i];
		char *summary;
		int r = step_apply(t, st->file, st->reverse, &touched, &summary, err);

		if (r == 0)
			pb_seterr(err, "%s no longer applies to the tree: %s", st->file, summary);
		ok = r == 1;
		free(summary);
	}
	str_free(&touched);
	return ok;
}

/* The steps tried so far, and the files they touched. */
struct series_try {
	struct change_step *steps;
	int n, ports;
	pb_str touched;
	char *fuzz;      /* the first step's offsets or fuzz, said in the detail */
};

static void series_try_reset(struct series_try *st)
{
	for (int i = 0; i < st->n; i++)
		free(st->steps[i].file);
	st->n = st->ports = 0;
	str_free(&st->touched);
	str_init(&st->touched);
	free(st->fuzz);
	st->fuzz = NULL;
}

/* 1: step added; 0: it does not apply (*summary); -1: error. */
static int series_step(struct kernel_tree *t, struct series_try *st, const char *file,
		       bool reverse, int number, char **summary, pb_err *err)
{
	int r = step_apply(t, file, reverse, &st->touched, summary, err);
	struct change_step *s;

	if (r != 1)
		return r;
	s = &st->steps[st->n++];
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	s->reverse = reverse;
	s->number = number;
	if (!sha256_file(file, s->sha256, err))
		return -1;
	if (!st->fuzz && strcmp(*summary, "clean"))
		st->fuzz = xasprintf("%03d: %s", number, *summary);
	return 1;
}

/* "11 patches: 031 146 ... 785 (forward)" */
static char *series_summary(const struct series_try *st, const char *how)
{
	pb_str s;

	str_init(&s);
	str_addf(&s, "%d patch%s:", st->n, st->n == 1 ? "" : "es");
	for (int i = 0; i < st->n; i++)
		str_addf(&s, " %03d", st->steps[i].number);
	str_addf(&s, " (%s)", how);
	return str_steal(&s);
}

/* Every patch forward, in order: 1 all applied, 0 the first does not (the
 * queue is in the base; *first_fails: patch(1)'s words on it, the
 * caller's), -1 an error or a later one does not (err). */
static int series_forward(struct kernel_tree *t, const struct pb_patch *const *patches, int n,
			  struct series_try *st, char **first_fails, pb_err *err)
{
	for (int i = 0; i < n; i++) {
		const struct pb_patch *p = patches[i];
		char *summary = NULL;
		int r = patch_spool(p, err) ? series_step(t, st, p->file, false, p->number, &summary, err)
					    : -1;

		if (r == 0 && i == 0) {
			*first_fails = summary;
			return 0;
		}
		if (r == 0)
			pb_seterr(err, "series: patch %03d does not apply to %s after the %d before it: "
				  "%s", p->number, t->version, i, summary);
		free(summary);
		if (r != 1)
			return -1;
	}
	return 1;
}

/* The queue in the base: each mm patch taken out, last first, by
 * reverting it or, where the base has it in reworked form, by its port. */
static bool series_reverse(const struct pb_config *cfg, struct kernel_tree *t,
			   const struct pb_patch *const *patches, int n, const char *fwd,
			   struct series_try *st, pb_err *err)
{
	for (int i = n - 1; i >= 0; i--) {
		const struct pb_patch *p = patches[i];
		char *rev = NULL, *port = NULL, *port_sum = NULL;
		int r;

		if (!p->is_mm)
			continue;
		r = series_step(t, st, p->file, true, p->number, &rev, err);
		if (r == 0 && p->upstream[0]) {
			port = xasprintf("%s/%s/%s.patch", cfg->ports_dir, t->series, p->upstream);
			if (path_exists(port)) {
				r = series_step(t, st, port, false, p->number, &port_sum, err);
				st->ports += r == 1;
			}
		}
		if (r == 0)
			pb_seterr(err, "series: patch %03d does not apply forward to %s (%s), nor does "
				  "it revert after the %d mm %s after it (%s)%s%s", p->number,
				  t->version, fwd, st->n, st->n == 1 ? "patch" : "patches",
				  rev, port_sum ? ", nor does its port: " : "",
				  port_sum ? port_sum : "");
		free(rev);
		free(port);
		free(port_sum);
		if (r != 1)
			return false;
	}
	if (!st->n) {
		pb_seterr(err, "series: the queue does not apply forward to %s (%s) and has no mm "
			  "patch to take out of it", t->version, fwd);
		return false;
	}
	return true;
}

bool pair_decide_series(const struct pb_config *cfg, struct kernel_tree *t,
			const struct pb_patch *const *patches, int n, struct pair_plan *plan,
			pb_err *err)
{
	struct series_try st = { .steps = xcalloc((size_t)n + 1, 2 * sizeof(struct change_step)) };
	char *fwd = NULL, *summary = NULL;
	pb_err ignore;
	int lock = tree_lock(t), r;
	bool ok = false;

	memset(plan, 0, sizeof(*plan));
	str_init(&st.touched);
	if (!n) {
		pb_seterr(err, "series: no patch to apply");
		goto out;
	}
	if (!tree_reset(t, err))
		goto out;
	r = series_forward(t, patches, n, &st, &fwd, err);
	if (r < 0)
		goto out;
	if (r == 1) {
		summary = series_summary(&st, "forward");
		plan->method = PAIR_FORWARD;
		kernel_change_set(&plan->without, NULL, false, "base");
		kernel_change_series(&plan->with, st.steps, st.n, "base+series", summary);
		plan->detail = xasprintf("%d %s forward in series order to %s%s%s", st.n,
					 st.n == 1 ? "patch applies" : "patches apply", t->version,
					 st.fuzz ? "; first offset or fuzz: " : "",
					 st.fuzz ? st.fuzz : "");
		ok = true;
		goto out;
	}
	/* the first patch does not apply forward: is the queue in the base? */
	series_try_reset(&st);
	if (!tree_reset(t, err) || !series_reverse(cfg, t, patches, n, fwd ? fwd : "?", &st, err))
		goto out;
	summary = series_summary(&st, "reverted, last first");
	plan->method = PAIR_REVERSE;
	kernel_change_series(&plan->without, st.steps, st.n, "base-series", summary);
	kernel_change_set(&plan->with, NULL, false, "base");
	plan->detail = xasprintf("the queue is in %s already: its %d mm %s taken out, last "
				 "first (%d by a port)%s%s", t->version, st.n,
				 st.n == 1 ? "patch" : "patches", st.ports,
				 st.fuzz ? "; first offset or fuzz: " : "", st.fuzz ? st.fuzz : "");
	ok = true;
out:
	if (lock >= 0)
		tree_reset(t, &ignore);
	tree_unlock(lock);
	series_try_reset(&st);
	str_free(&st.touched);
	free(st.steps);
	free(fwd);
	free(summary);
	if (!ok)
		pair_plan_free(plan);
	return ok;
}
