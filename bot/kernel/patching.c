/* Patching: patch(1) dry runs and applies on the work copy, what its output
 * says (the files it touches, the hunks that failed or moved), and the pair
 * decision (forward, reverse or a port) made from them. */
#include "patching.h"

#include <stdlib.h>
#include <string.h>

const char *pair_method_name(enum pair_method m)
{
	switch (m) {
	case PAIR_FORWARD:
		return "forward";
	case PAIR_REVERSE:
		return "reverse";
	case PAIR_PORT:
		return "port";
	}
	return "?";
}

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
	}
}

bool pair_decide(const struct pb_config *cfg, struct kernel_tree *t, const struct pb_patch *p,
		 struct pair_plan *plan, pb_err *err)
{
	char *fwd = NULL, *rev = NULL, *port = NULL, *port_sum = NULL;
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
			pb_seterr(err, "patch %03d: its port %s does not apply to %s: %s", p->number, port,
				  t->version, port_sum ? port_sum : "");
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
		  "patch %03d applies neither forward nor in reverse to linux %s and has no port %s "
		  "(forward: %s | reverse: %s)",
		  p->number, t->version,
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
	free(c->file);
	free(c->label);
	memset(c, 0, sizeof(*c));
}

void pair_plan_free(struct pair_plan *plan)
{
	kernel_change_free(&plan->without);
	kernel_change_free(&plan->with);
	free(plan->detail);
	memset(plan, 0, sizeof(*plan));
}

bool change_apply(struct kernel_tree *t, const struct kernel_change *change, pb_err *err)
{
	pb_str said, files;
	char *dp = tree_dirty_path(t);
	bool ok = false;
	int rc;

	str_init(&said);
	str_init(&files);
	rc = run_patch(t, change->file, change->reverse, true, &said);
	touched_files(said.buf, &files);
	/* Record what will be touched before touching it: a perfbot killed
	 * half-way through still knows what to put back. */
	if (rc != 0 || !write_file_atomic(dp, files.buf, files.len, err)) {
		if (rc != 0)
			pb_seterr(err, "%s no longer applies to the tree", change->file);
		goto out;
	}
	str_free(&said);
	str_init(&said);
	rc = run_patch(t, change->file, change->reverse, false, &said);
	if (rc != 0) {
		pb_seterr(err, "applying %s failed: %.200s", change->file, said.buf);
		goto out;
	}
	ok = true;
out:
	free(dp);
	str_free(&said);
	str_free(&files);
	return ok;
}
