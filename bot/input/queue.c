#include "queue.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Headers whose changes are memory management even outside mm/. */
static const char *const mm_headers[] = {
	"include/linux/mm.h", "include/linux/mm_types.h", "include/linux/mm_inline.h",
	"include/linux/mmzone.h", "include/linux/huge_mm.h", "include/linux/hugetlb.h",
	"include/linux/hugetlb_inline.h", "include/linux/swap.h", "include/linux/swapops.h",
	"include/linux/migrate.h", "include/linux/migrate_mode.h", "include/linux/memcontrol.h",
	"include/linux/page-flags.h", "include/linux/pagemap.h", "include/linux/gfp.h",
	"include/linux/rmap.h", "include/linux/mempolicy.h", "include/linux/zswap.h",
	"include/linux/zpool.h", "include/linux/zsmalloc.h", "include/linux/khugepaged.h",
	"include/linux/page_ref.h", "include/linux/memory_hotplug.h", "include/linux/mmap_lock.h",
	"include/linux/vmstat.h", "include/linux/shmem_fs.h", "include/linux/ksm.h",
	"include/linux/userfaultfd_k.h", "include/linux/memblock.h", "include/linux/vmalloc.h",
	"include/linux/slab.h", "include/linux/highmem.h", "include/linux/page_idle.h",
	"include/linux/compaction.h", "include/linux/pgtable.h",
};

bool path_is_mm(const char *path)
{
	const char *rest;

	if (starts_with(path, "mm/"))
		return true;
	/* arch/<arch>/mm/ */
	if (starts_with(path, "arch/") && (rest = strchr(path + 5, '/')) && starts_with(rest, "/mm/"))
		return true;
	for (size_t i = 0; i < PB_ARRAY_SIZE(mm_headers); i++)
		if (!strcmp(path, mm_headers[i]))
			return true;
	return false;
}

/* Room for one more element of an array of n: it doubles when n reaches a
 * power of two, so that n appends cost O(n) in all. */
static void *grow(void *arr, int n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		arr = xrealloc(arr, size * (size_t)(n ? 2 * n : 1));
	return arr;
}

static void add_string(char ***arr, int *n, const char *s)
{
	*arr = grow(*arr, *n, sizeof(char *));
	(*arr)[(*n)++] = xstrdup(s);
}

/* A path in a diff header must stay inside the kernel tree. */
static bool path_is_safe(const char *p)
{
	const char *s;

	if (!p[0] || p[0] == '/')
		return false;
	for (s = p; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '\\')
			return false;
	for (s = p; s; s = strchr(s, '/')) {
		if (*s == '/')
			s++;
		if (starts_with(s, "../") || !strcmp(s, ".."))
			return false;
	}
	return true;
}

static void no_control_chars(char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static bool is_hex40(const char *s)
{
	for (int i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return !isxdigit((unsigned char)s[40]);
}

const char *patch_label(char buf[PATCH_LABEL_SIZE], int number, const char *sha256)
{
	if (number > 0)
		snprintf(buf, PATCH_LABEL_SIZE, "%03d", number);
	else
		snprintf(buf, PATCH_LABEL_SIZE, "%.12s", sha256 ? sha256 : "");
	return buf;
}

/* What a Subject must carry: a series number N/M (a queue's patch files),
 * or not (a quilt series, an mbox: their place numbers them), or nothing
 * at all (a developer's own patch, perfbot run --patch-file: [PATCH],
 * [RFC PATCH v2 3/7], no tag, or no mail headers). */
enum subject_rule { SUBJECT_NUMBERED, SUBJECT_UNNUMBERED, SUBJECT_ONE_PATCH };

/* The words of a Subject's [PATCH ...] prefix (inner, cut up): PATCH or
 * PATCHvN first, then its series number N/M and the stable series (5.13)
 * into p. */
static bool parse_prefix(char *inner, struct pb_patch *p, pb_err *err, const char *name)
{
	char *save = NULL, *tok = strtok_r(inner, " \t", &save);

	if (!tok || strncasecmp(tok, "PATCH", 5) != 0 ||
	    (tok[5] && !((tok[5] == 'v' || tok[5] == 'V') && tok[6] &&
			 strspn(tok + 6, "0123456789") == strlen(tok + 6)))) {
		pb_seterr(err, "%s: Subject prefix is not [PATCH ...]: '[%.20s' is not one patch", name,
			  tok ? tok : "");
		return false;
	}
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char *slash = strchr(tok, '/');

		if (slash && isdigit((unsigned char)tok[0])) {
			char *end1, *end2;
			long n = strtol(tok, &end1, 10), m = strtol(slash + 1, &end2, 10);

			if (end1 != slash || *end2 || n < 1 || m < n || m > PATCH_MAX_NUMBER) {
				pb_seterr(err, "%s: bad series number '%.40s' in Subject", name, tok);
				return false;
			}
			if (p->number) {
				pb_seterr(err, "%s: two series numbers (%d/%d and %.20s) in Subject", name,
					  p->number, p->total, tok);
				return false;
			}
			p->number = (int)n;
			p->total = (int)m;
		} else if (isdigit((unsigned char)tok[0])) {
			free(p->series);
			p->series = xstrdup(tok);
		}
	}
	return true;
}

/* "[PATCH 5.13 765/800] subject" -> series, number, total, subject. The
 * bracket may also read [PATCH], [PATCH v2 3/7], [PATCHv2 3/7], [PATCH 5.13] ...
 * What is refused, and why:
 *  - a first word other than PATCH or PATCHv<n> ([PATCHES, [PATCHSET, [RFC):
 *    a cover letter, a pull request or a request for comments, not a patch
 *    of the queue (the check was a prefix test, so [PATCHES passed);
 *  - two N/M groups ([PATCH 1/2 3/4]): the patch's place in the series is
 *    ambiguous (the last one silently won).
 * With unnumbered, a subject without N/M, or with no bracket at all
 * (stable-queue's files are format-patch output of upstream commits:
 * "Subject: mm: fix ..."), is number 0: its place in the queue numbers it.
 * SUBJECT_ONE_PATCH takes any tags ([RFC PATCH v2 3/7], [RESEND PATCH],
 * [RFC][PATCH net-next]) and leaves the number 0 whatever N/M says: the
 * patch is known by its bytes, not by its place in a series perfbot does
 * not have. */
static bool parse_subject(const char *subj, struct pb_patch *p, enum subject_rule rule,
			  pb_err *err, const char *name)
{
	const char *open = strchr(subj, '['), *close;
	char inner[256];
	bool unnumbered = rule != SUBJECT_NUMBERED;

	p->number = p->total = 0;
	p->series = xstrdup("");
	/* one's own patch: whatever its tags say ([RESEND PATCH v2], [RFC]
	 * [PATCH net-next 3/7]), the subject is what follows them */
	if (rule == SUBJECT_ONE_PATCH) {
		const char *t = subj + strspn(subj, " \t");

		while (*t == '[' && strchr(t, ']'))
			t = strchr(t, ']') + 1 + strspn(strchr(t, ']') + 1, " \t");
		if (!*t) {
			pb_seterr(err, "%s: the Subject is empty after its tags", name);
			return false;
		}
		p->subject = xstrdup(t);
		return true;
	}
	if (unnumbered && (!open || strspn(subj, " \t") != (size_t)(open - subj))) {
		const char *t = subj + strspn(subj, " \t");

		if (!*t) {
			pb_seterr(err, "%s: the Subject is empty", name);
			return false;
		}
		p->subject = xstrdup(t);
		return true;
	}
	if (!open || !(close = strchr(open, ']')) || (size_t)(close - open) >= sizeof(inner)) {
		pb_seterr(err, "%s: Subject has no [PATCH ...] prefix", name);
		return false;
	}
	snprintf(inner, sizeof(inner), "%.*s", (int)(close - open - 1), open + 1);
	if (!parse_prefix(inner, p, err, name))
		return false;
	if (!p->number && !unnumbered) {
		pb_seterr(err, "%s: Subject has no series number N/M", name);
		return false;
	}
	close++;
	while (*close == ' ' || *close == '\t')
		close++;
	if (!*close) {
		pb_seterr(err, "%s: Subject is empty after its [PATCH] prefix", name);
		return false;
	}
	p->subject = xstrdup(close);
	return true;
}

/* The files of a patch by path: an open-addressing hash of indexes into
 * p->files, so that a patch of many files parses in linear time. */
struct file_index {
	int *slot; /* index + 1, 0 free */
	size_t mask;
};

static size_t path_hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The index in p->files of path, added if new. */
static int file_stat(struct pb_patch *p, struct file_index *ix, const char *path)
{
	size_t i;

	if ((size_t)p->nfiles * 2 >= ix->mask) { /* rehash at half full */
		size_t mask = ix->mask ? ix->mask * 2 + 1 : 63;

		free(ix->slot);
		ix->slot = xcalloc(mask + 1, sizeof(int));
		ix->mask = mask;
		for (int f = 0; f < p->nfiles; f++) {
			for (i = path_hash(p->files[f].path) & mask; ix->slot[i]; i = (i + 1) & mask)
				;
			ix->slot[i] = f + 1;
		}
	}
	for (i = path_hash(path) & ix->mask; ix->slot[i]; i = (i + 1) & ix->mask)
		if (!strcmp(p->files[ix->slot[i] - 1].path, path))
			return ix->slot[i] - 1;
	p->files = grow(p->files, p->nfiles, sizeof(*p->files));
	p->files[p->nfiles] = (struct patch_file_stat){ xstrdup(path), 0, 0 };
	ix->slot[i] = p->nfiles + 1;
	return p->nfiles++;
}

/* "a/mm/x.c" or "b/mm/x.c" (tab-separated timestamp allowed) -> "mm/x.c". */
static char *diff_path(const char *s)
{
	const char *end = s + strcspn(s, "\t");
	char *out;

	while (end > s && end[-1] == ' ')
		end--;
	if (end - s > 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/')
		s += 2;
	out = xmalloc((size_t)(end - s) + 1);
	memcpy(out, s, (size_t)(end - s));
	out[end - s] = '\0';
	return out;
}

static bool parse_hunk_header(const char *line, long *old_n, long *new_n)
{
	long a, b = 1, c, d = 1;
	const char *s = line + 3;
	char *end;

	a = strtol(s, &end, 10);
	if (*s != '-' || end == s)
		return false;
	if (*end == ',')
		b = strtol(end + 1, &end, 10);
	if (*end != ' ' || end[1] != '+')
		return false;
	c = strtol(end + 2, &end, 10);
	if (*end == ',')
		d = strtol(end + 1, &end, 10);
	if (*end != ' ' || b < 0 || d < 0 || a > 0 || c < 0)
		return false;
	*old_n = b;
	*new_n = d;
	return true;
}

/* A "diff --git" section: git's extended headers name paths too, and a
 * section may change a file with no hunk at all (a rename, a copy, a mode,
 * a binary diff, a new empty file). Every path they name must stay inside
 * the tree, and the files they name are touched (an mm/ rename or binary
 * diff makes the patch mm). */
struct git_sec {
	bool active;
	char *a, *b;      /* of "diff --git a/A b/B" */
	bool changed;     /* a header, a binary patch or a ---/+++ after it */
	bool moved;       /* rename or copy lines (needed when A != B) */
	bool hunks;       /* past its headers */
	bool binary;      /* in the lines of a GIT binary patch */
	char *line;       /* its diff --git line, for messages */
};

static void git_sec_free(struct git_sec *g)
{
	free(g->a);
	free(g->b);
	free(g->line);
	memset(g, 0, sizeof(*g));
}

/* The section ends: did it change something, and are its paths explained? */
static bool git_sec_end(struct git_sec *g, const char *name, pb_err *err)
{
	bool ok = true;

	if (g->active && !g->changed) {
		pb_seterr(err, "%s: '%.80s' is followed by no change", name, g->line);
		ok = false;
	} else if (g->active && strcmp(g->a, g->b) && !g->moved) {
		pb_seterr(err, "%s: '%.80s' names two paths but no rename or copy", name, g->line);
		ok = false;
	}
	git_sec_free(g);
	return ok;
}

static bool check_path(const char *path, const char *name, pb_err *err)
{
	if (path_is_safe(path))
		return true;
	pb_seterr(err, "%s: diff touches a path outside the tree: '%.80s'", name, path);
	return false;
}

/* "a/X b/Y" of a diff --git line: the same path twice, else the one " b/". */
static bool git_paths(const char *rest, char **a, char **b)
{
	size_t len = strlen(rest), half;
	const char *sep;

	if (len >= 7 && (len - 5) % 2 == 0) {
		half = (len - 5) / 2;
		if (starts_with(rest, "a/") && !strncmp(rest + 2 + half, " b/", 3) &&
		    !memcmp(rest + 2, rest + 5 + half, half)) {
			*a = xstrndup(rest + 2, half);
			*b = xstrndup(rest + 2, half);
			return true;
		}
	}
	if (!starts_with(rest, "a/") || !(sep = strstr(rest, " b/")) || strstr(sep + 1, " b/") ||
	    sep == rest + 2 || !sep[3])
		return false;
	*a = xstrndup(rest + 2, (size_t)(sep - rest - 2));
	*b = xstrdup(sep + 3);
	return true;
}

static bool is_base85_line(const char *s)
{
	static const char b85[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				  "!#$%&()*+-;<=>?@^_`{|}~";

	return isalpha((unsigned char)s[0]) && s[1] && strspn(s + 1, b85) == strlen(s + 1);
}

/* The mail headers kept with a patch: the report shows them and a reply
 * to the review thread needs them. To: and Cc: may be given more than
 * once (they are joined); any other twice is refused. */
enum mail_field {
	MAIL_SUBJECT,
	MAIL_FROM,
	MAIL_MESSAGE_ID,
	MAIL_IN_REPLY_TO,
	MAIL_TO,
	MAIL_CC,
	MAIL_DATE,
	MAIL_NFIELDS
};
static const struct {
	const char *name;
	bool list;
} mail_fields[MAIL_NFIELDS] = {
	[MAIL_SUBJECT] = { "Subject", false },	       [MAIL_FROM] = { "From", false },
	[MAIL_MESSAGE_ID] = { "Message-ID", false },   [MAIL_IN_REPLY_TO] = { "In-Reply-To", false },
	[MAIL_TO] = { "To", true },		       [MAIL_CC] = { "Cc", true },
	[MAIL_DATE] = { "Date", false },
};

/* What patch_parse_buffer knows between one line and the next: where in
 * the mail it is, the hunk being counted and the git section being read. */

struct patch_parse {
	struct pb_patch *p;
	const char *name;         /* the file's, for messages */
	pb_err *err;
	enum subject_rule rule;   /* what the Subject must carry (parse_subject) */
	char *first_text;         /* SUBJECT_ONE_PATCH: the first line of text before the diff */
	char *next;               /* the line after this one (a --- needs its +++) */
	bool in_headers;          /* before the blank line that ends the mail's headers */
	int in_field;             /* the mail_fields entry the last header was, or -1 */
	bool had_header;          /* a header line came: an indented line may go on */
	bool in_body_from_window; /* no text of the body yet: a From: names the author */
	pb_str field[MAIL_NFIELDS]; /* the mail's headers perfbot keeps */
	bool hunk_just_ended;     /* the line before closed a hunk */
	long hunk_changes;        /* + and - lines of the current hunk */
	long old_left, new_left;  /* lines the current hunk's header still counts */
	int cur;                  /* the file whose hunks are read, in p->files */
	struct git_sec git;
	struct file_index ix;
};

/* "diff --git a/A b/B" closes the section before and opens one: its paths
 * must be unquoted, tell apart and stay inside the tree; one path twice is
 * a file touched even if no hunk follows (a mode change, a binary diff). */
static int git_section_start(struct patch_parse *ps, const char *line)
{
	struct git_sec *g = &ps->git;

	if (!git_sec_end(g, ps->name, ps->err))
		return -1;
	g->line = xstrdup(line);
	if (line[11] == '"') {
		pb_seterr(ps->err, "%s: quoted path in '%.80s': not supported", ps->name, line);
		return -1;
	}
	if (!git_paths(line + 11, &g->a, &g->b)) {
		pb_seterr(ps->err, "%s: cannot tell the two paths of '%.80s'", ps->name, line);
		return -1;
	}
	g->active = true;
	if (!check_path(g->a, ps->name, ps->err) || !check_path(g->b, ps->name, ps->err))
		return -1;
	if (!strcmp(g->a, g->b))
		file_stat(ps->p, &ps->ix, g->a);
	return 1;
}

/* "rename from/to", "copy from/to": the path must be the one its side of
 * the diff --git line names; a rename touches both, a copy its target. */
static int git_move(struct patch_parse *ps, const char *line)
{
	static const struct {
		const char *prefix;
		bool from, touch;
	} moves[] = { { "rename from ", true, true }, { "rename to ", false, true },
		      { "copy from ", true, false }, { "copy to ", false, true } };
	struct git_sec *g = &ps->git;

	for (size_t i = 0; i < PB_ARRAY_SIZE(moves); i++)
		if (starts_with(line, moves[i].prefix)) {
			const char *path = line + strlen(moves[i].prefix);
			const char *want = moves[i].from ? g->a : g->b;

			if (!check_path(path, ps->name, ps->err))
				return -1;
			if (strcmp(path, want)) {
				pb_seterr(ps->err, "%s: '%.60s' does not match '%.80s'", ps->name, line,
					  g->line);
				return -1;
			}
			if (moves[i].touch)
				file_stat(ps->p, &ps->ix, path);
			g->changed = g->moved = true;
			return 1;
		}
	return 0;
}

/* A line of a git section's headers: 1 taken, 0 not one, -1 refused. */
static int git_header(struct patch_parse *ps, const char *line)
{
	static const char *const plain[] = { "old mode ", "new mode ", "deleted file mode ",
					     "new file mode ", "similarity index ",
					     "dissimilarity index ", "index ", "Binary files ",
					     NULL };
	struct git_sec *g = &ps->git;

	if (starts_with(line, "diff --git "))
		return git_section_start(ps, line);
	if (!g->active || g->hunks)
		return 0;
	if (g->binary) {
		if (!line[0] || is_base85_line(line) || starts_with(line, "literal ") ||
		    starts_with(line, "delta "))
			return 1;
		g->binary = false;
		return 0;
	}
	if (!strcmp(line, "GIT binary patch")) {
		g->binary = g->changed = true;
		return 1;
	}
	for (int i = 0; plain[i]; i++)
		if (starts_with(line, plain[i])) {
			g->changed = true;
			return 1;
		}
	return git_move(ps, line);
}

/* A ---/+++ path of a git section must be the one its diff --git line names. */
static bool git_side(struct git_sec *g, const char *path, bool old_side, const char *name,
		     pb_err *err)
{
	if (!g->active || !strcmp(path, "/dev/null"))
		return true;
	g->changed = true;
	if (!strcmp(path, old_side ? g->a : g->b))
		return true;
	pb_seterr(err, "%s: %s names %.80s, but '%.80s' does not", name, old_side ? "---" : "+++",
		  path, g->line);
	return false;
}

/* Is the line at s (to end) an mbox "From " separator: "From <sender>
 * <date>" with an hh:mm time in the date, followed by a mail header line?
 * (git format-patch: "From <sha> Mon Sep 17 00:00:00 2001", b4 and mail
 * clients: "From <address> <asctime date>".) */
static bool is_mbox_from(const char *s, const char *end)
{
	const char *eol = memchr(s, '\n', (size_t)(end - s)), *c, *next;
	bool time = false;

	if (!eol || end - s < 5 || memcmp(s, "From ", 5) != 0 || s[5] == ' ' || s[5] == '\n')
		return false;
	c = memchr(s + 5, ' ', (size_t)(eol - s - 5));
	if (!c)
		return false;
	for (; c + 4 < eol && !time; c++)
		time = isdigit((unsigned char)c[0]) && isdigit((unsigned char)c[1]) && c[2] == ':' &&
		       isdigit((unsigned char)c[3]) && isdigit((unsigned char)c[4]);
	if (!time)
		return false;
	/* the next line: "Name: value", a header */
	next = eol + 1;
	for (c = next; c < end && *c != ':' && *c != '\n' && *c != ' ' && *c != '\t'; c++)
		;
	return c > next && c < end && *c == ':';
}

/* Where each mail of an mbox starts: "From " separators at its start or
 * after a blank line (free *starts). */
static int mbox_starts(const char *text, size_t len, const char ***starts)
{
	const char *end = text + len, *s = text;
	int n = 0;
	bool after_blank = true;

	*starts = NULL;
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		size_t l = eol ? (size_t)(eol - s) : (size_t)(end - s);

		if (after_blank && is_mbox_from(s, end)) {
			*starts = grow(*starts, n, sizeof(**starts));
			(*starts)[n++] = s;
		}
		after_blank = l == 0 || (l == 1 && s[0] == '\r');
		if (!eol)
			break;
		s = eol + 1;
	}
	return n;
}

/* The number of mails in text. */
static int mbox_messages(const char *text, size_t len)
{
	const char **starts;
	int n = mbox_starts(text, len, &starts);

	free(starts);
	return n;
}

/* What is refused before a line is read. An mbox of several mails (git
 * format-patch --stdout, b4, a saved thread) would be read as one patch of
 * all their diffs, under the first one's number: perfbot takes one patch a
 * file. */
static bool patch_file_ok(const char *name, const char *text, size_t len, pb_err *err)
{
	int mails;

	if (len == 0) {
		pb_seterr(err, "%s: empty file", name);
		return false;
	}
	if (memchr(text, '\0', len)) {
		pb_seterr(err, "%s: binary data (NUL byte) in a patch file", name);
		return false;
	}
	mails = mbox_messages(text, len);
	if (mails > 1) {
		pb_seterr(err, "%s: an mbox of %d messages, perfbot takes one patch a file "
			  "(split it: git mailsplit)", name, mails);
		return false;
	}
	return true;
}

/* A line of the mail's headers. The mail_fields are read; any header may
 * go on over indented lines (RFC 5322 folding: a long Cc: does), and a
 * line that is no header at all means the file is not a mail. */
static bool mail_header(struct patch_parse *ps, char *line, size_t n)
{
	size_t name_len;

	if (!n) {
		ps->in_headers = false;
		return true;
	}
	if ((line[0] == ' ' || line[0] == '\t') && ps->had_header) {
		if (ps->in_field >= 0) {
			str_add(&ps->field[ps->in_field], " ");
			str_add(&ps->field[ps->in_field], trim(line));
		}
		return true;
	}
	ps->in_field = -1;
	name_len = strcspn(line, ":");
	/* "From" alone is no header: the value starts after a colon */
	for (int f = 0; line[name_len] == ':' && f < MAIL_NFIELDS; f++) {
		if (name_len != strlen(mail_fields[f].name) ||
		    strncasecmp(line, mail_fields[f].name, name_len))
			continue;
		if (ps->field[f].len && !mail_fields[f].list) {
			pb_seterr(ps->err, "%s: two %s: headers", ps->name, mail_fields[f].name);
			return false;
		}
		if (ps->field[f].len)
			str_add(&ps->field[f], ", ");
		str_add(&ps->field[f], trim(line + name_len + 1));
		ps->in_field = f;
		ps->had_header = true;
		return true;
	}
	/* a field name is printable and has no blank (RFC 5322 2.2); the
	 * mbox "From " line has a colon in its time */
	if (line[name_len] && name_len && strcspn(line, " \t") > name_len) {
		ps->had_header = true;
	} else if (!starts_with(line, "From ")) {
		pb_seterr(ps->err, "%s: malformed mail header line '%.60s'", ps->name, line);
		return false;
	}
	return true;
}

/* A line of a hunk's body, counted against its header. Taken before any
 * other reading: a body line may look like anything ("+++ ", "From: ").
 * 1 taken, 0 not in a hunk, -1 refused. */
static int hunk_line(struct patch_parse *ps, const char *line, size_t n)
{
	struct patch_file_stat *f;

	if (ps->old_left <= 0 && ps->new_left <= 0)
		return 0;
	f = &ps->p->files[ps->cur];
	if (line[0] == '+') {
		ps->new_left--;
		f->added++;
		ps->hunk_changes++;
	} else if (line[0] == '-') {
		ps->old_left--;
		f->removed++;
		ps->hunk_changes++;
	} else if (line[0] == ' ' || !n) {
		ps->old_left--;
		ps->new_left--;
	} else if (line[0] != '\\') { /* "\ No newline at end of file" is no line */
		pb_seterr(ps->err, "%s: hunk of %s ends early", ps->name, f->path);
		return -1;
	}
	if (ps->old_left < 0 || ps->new_left < 0) {
		pb_seterr(ps->err, "%s: hunk of %s is longer than its header says", ps->name, f->path);
		return -1;
	}
	ps->hunk_just_ended = ps->old_left == 0 && ps->new_left == 0;
	return 1;
}

/* Context alone adds and removes nothing: a hunk that closed with no + or
 * - line is not a hunk (patch(1) would have nothing to apply). */
static bool hunk_changed(const struct patch_parse *ps)
{
	if (!ps->hunk_just_ended || ps->hunk_changes)
		return true;
	pb_seterr(ps->err, "%s: a hunk of %s changes no line (context only)", ps->name,
		  ps->p->files[ps->cur].path);
	return false;
}

/* Right after a hunk only another hunk, file or the signature may follow:
 * more hunk lines mean its header undercounts them (GNU patch would apply
 * a different change than the one parsed). Judged before hunk_changed(),
 * as it explains more. */
static bool hunk_closed(struct patch_parse *ps, const char *line, size_t n)
{
	if (!ps->hunk_just_ended)
		return true;
	if (n && strchr("+- ", line[0]) && strcmp(line, "-- ") && strcmp(line, "--") &&
	    !starts_with(line, "--- ")) {
		pb_seterr(ps->err, "%s: hunk of %s is longer than its header says", ps->name,
			  ps->p->files[ps->cur].path);
		return false;
	}
	if (!hunk_changed(ps))
		return false;
	ps->hunk_just_ended = false;
	return true;
}

/* A From: before any other text of the body is the author's (git
 * send-email puts it there when a maintainer sends someone's patch): it
 * wins over the mail's From:. */
static bool body_author(struct patch_parse *ps, char *line, size_t n)
{
	if (ps->in_body_from_window && !strncmp(line, "From: ", 6) && !ps->p->author) {
		ps->p->author = xstrdup(trim(line + 6));
		return true;
	}
	if (n)
		ps->in_body_from_window = false;
	return false;
}

static void set_upstream(struct pb_patch *p, const char *hex)
{
	free(p->upstream);
	p->upstream = xstrndup(hex, 40);
}

/* The lines of the commit message the report shows: the upstream commit
 * (in either of the stable trees' spellings), Fixes:, the sign-off chain
 * and the Cc: trailers (a reply goes to them), an explicit Cc: stable
 * among them. True if the line was one. */
static bool trailer(struct pb_patch *p, char *line)
{
	if (!strncmp(line, "commit ", 7) && is_hex40(line + 7) && strstr(line + 47, "upstream"))
		set_upstream(p, line + 7);
	else if (!strncmp(line, "[ Upstream commit ", 18) && is_hex40(line + 18))
		set_upstream(p, line + 18);
	else if (!strncasecmp(line, "Fixes:", 6))
		add_string(&p->fixes, &p->nfixes, trim(line + 6));
	else if (!strncasecmp(line, "Signed-off-by:", 14))
		add_string(&p->signoffs, &p->nsignoffs, trim(line + 14));
	else if (!strncasecmp(line, "Cc:", 3)) {
		add_string(&p->ccs, &p->nccs, trim(line + 3));
		if (strcasestr(line, "stable@vger.kernel.org") || strcasestr(line, "stable@kernel.org"))
			p->cc_stable = true;
	} else
		return false;
	return true;
}

/* "+++ PATH": the hunks that follow count for PATH (a deletion's
 * /dev/null names nothing: its --- line named the file). */
static bool plus_line(struct patch_parse *ps, const char *line)
{
	char *path = diff_path(line + 4);
	bool ok = true;

	if (strcmp(path, "/dev/null")) {
		ok = git_side(&ps->git, path, false, ps->name, ps->err) &&
		     check_path(path, ps->name, ps->err);
		if (ok)
			ps->cur = file_stat(ps->p, &ps->ix, path);
	}
	free(path);
	return ok;
}

/* "--- PATH" before a "+++ " line: a deleted file is named here only. */
static bool minus_line(struct patch_parse *ps, const char *line)
{
	char *path = diff_path(line + 4);
	bool named = strcmp(path, "/dev/null") != 0;
	bool ok = (!named || check_path(path, ps->name, ps->err)) &&
		  git_side(&ps->git, path, true, ps->name, ps->err);

	if (ok && named && starts_with(ps->next + 4, "/dev/null"))
		ps->cur = file_stat(ps->p, &ps->ix, path);
	free(path);
	return ok;
}

/* "@@ -a,b +c,d @@": a hunk of the current file, b and d lines to count. */
static bool hunk_start(struct patch_parse *ps, const char *line)
{
	if (ps->cur < 0 || !parse_hunk_header(line, &ps->old_left, &ps->new_left)) {
		pb_seterr(ps->err, "%s: malformed hunk header '%.60s'", ps->name, line);
		return false;
	}
	/* "@@ -1,0 +1,0 @@" adds and removes nothing: not a hunk */
	if (!ps->old_left && !ps->new_left) {
		pb_seterr(ps->err, "%s: hunk header '%.60s' of %s counts no line: not a hunk",
			  ps->name, line, ps->p->files[ps->cur].path);
		return false;
	}
	ps->git.hunks = true;
	ps->hunk_changes = 0;
	return true;
}

/* The lines of a unified diff outside hunks; any other line is prose. */
static bool diff_line(struct patch_parse *ps, const char *line)
{
	if (starts_with(line, "+++ "))
		return plus_line(ps, line);
	if (starts_with(line, "--- ") && ps->next && starts_with(ps->next, "+++ "))
		return minus_line(ps, line);
	if (starts_with(line, "@@ -"))
		return hunk_start(ps, line);
	return true;
}

/* One line of the file, cut off from the next, read by the first step it
 * belongs to, in the order that keeps a hunk's body from being read as
 * anything else: false when it is refused. */
static bool patch_line(struct patch_parse *ps, char *line)
{
	size_t n;
	int r;

	ps->next = strchr(line, '\n');
	if (ps->next)
		*ps->next++ = '\0';
	n = strlen(line);
	if (n && line[n - 1] == '\r')
		line[--n] = '\0';
	if (n > 65536) {
		pb_seterr(ps->err, "%s: a line of %zu characters: not a patch", ps->name, n);
		return false;
	}
	if (ps->in_headers)
		return mail_header(ps, line, n);
	if ((r = hunk_line(ps, line, n)))
		return r > 0;
	if (!hunk_closed(ps, line, n))
		return false;
	if (ps->rule == SUBJECT_ONE_PATCH && !ps->first_text && n && !ps->p->nfiles &&
	    !starts_with(line, "diff ") && !starts_with(line, "--- ") && !starts_with(line, "+++ ") &&
	    !starts_with(line, "Index: "))
		ps->first_text = xstrdup(trim(line));
	if ((r = git_header(ps, line)))
		return r > 0;
	if (body_author(ps, line, n) || trailer(ps->p, line))
		return true;
	return diff_line(ps, line);
}

/* After the last line: nothing may be left open (a hunk, a git section),
 * and a patch has a subject with its series number and at least one file. */
static bool patch_complete(struct patch_parse *ps)
{
	struct pb_patch *p = ps->p;

	if (!hunk_changed(ps) || !git_sec_end(&ps->git, ps->name, ps->err))
		return false;
	if (ps->old_left > 0 || ps->new_left > 0) {
		pb_seterr(ps->err, "%s: truncated: the last hunk of %s is incomplete", ps->name,
			  p->files[ps->cur].path);
		return false;
	}
	/* a plain diff of one's own: its first line of text, else its name */
	if (!ps->field[MAIL_SUBJECT].len && ps->rule == SUBJECT_ONE_PATCH)
		str_add(&ps->field[MAIL_SUBJECT], ps->first_text && ps->first_text[0] ? ps->first_text
											 : ps->name);
	if (!ps->field[MAIL_SUBJECT].len) {
		pb_seterr(ps->err, "%s: no Subject: header", ps->name);
		return false;
	}
	if (!parse_subject(ps->field[MAIL_SUBJECT].buf, p, ps->rule, ps->err, ps->name))
		return false;
	if (!p->nfiles) {
		pb_seterr(ps->err, "%s: no diff in the file", ps->name);
		return false;
	}
	return true;
}

/* Is it an mm patch? mm_reason names the mm paths it touches (for the list
 * and the report), or says why it is not one. */
static void classify_mm(struct pb_patch *p)
{
	pb_str why;

	str_init(&why);
	for (int i = 0; i < p->nfiles; i++)
		if (path_is_mm(p->files[i].path)) {
			if (why.len)
				str_add(&why, ", ");
			str_add(&why, p->files[i].path);
		}
	p->is_mm = why.len > 0;
	if (!p->is_mm)
		str_add(&why, "touches no mm/ file or mm header");
	p->mm_reason = str_steal(&why);
}

/* Does text start with a mail's headers? An mbox's "From " line, or a
 * header block (up to the first empty line) that has a Subject: a plain
 * diff, or a patch whose description comes first ("mm: fix foo" looks
 * like a header), does not. */
static bool has_mail_headers(const char *text)
{
	if (starts_with(text, "From "))
		return true;
	for (const char *l = text; *l && *l != '\n' && !(*l == '\r' && l[1] == '\n');) {
		if (!strncasecmp(l, "Subject:", 8))
			return true;
		l = strchr(l, '\n');
		if (!l)
			break;
		l++;
	}
	return false;
}

static bool parse_buffer(const char *name, const char *text, size_t len, struct pb_patch *p,
			 enum subject_rule rule, pb_err *err)
{
	struct patch_parse ps = { .p = p, .name = name, .err = err, .rule = rule,
				  .in_headers = true, .in_body_from_window = true, .cur = -1,
				  .in_field = -1 };
	char *copy, *line;
	char hex[65];
	bool ok = false;

	memset(p, 0, sizeof(*p));
	if (!patch_file_ok(name, text, len, err))
		return false;
	sha256_buf(text, len, hex);
	p->sha256 = xstrdup(hex);
	p->upstream = xstrdup("");
	for (int f = 0; f < MAIL_NFIELDS; f++)
		str_init(&ps.field[f]);
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (rule == SUBJECT_ONE_PATCH && !has_mail_headers(copy))
		ps.in_headers = false;
	for (line = copy; line; line = ps.next)
		if (!patch_line(&ps, line))
			goto out;
	if (!patch_complete(&ps))
		goto out;
	if (!p->author)
		p->author = xstrdup(ps.field[MAIL_FROM].buf);
	p->message_id = xstrdup(ps.field[MAIL_MESSAGE_ID].buf);
	p->in_reply_to = xstrdup(ps.field[MAIL_IN_REPLY_TO].buf);
	p->to = xstrdup(ps.field[MAIL_TO].buf);
	p->cc = xstrdup(ps.field[MAIL_CC].buf);
	p->date = xstrdup(ps.field[MAIL_DATE].buf);
	/* printed on terminals, in logs and syslog: no escape sequences */
	no_control_chars(p->subject);
	no_control_chars(p->author);
	no_control_chars(p->message_id);
	no_control_chars(p->in_reply_to);
	no_control_chars(p->to);
	no_control_chars(p->cc);
	no_control_chars(p->date);
	for (int i = 0; i < p->nfixes; i++)
		no_control_chars(p->fixes[i]);
	classify_mm(p);
	ok = true;
out:
	git_sec_free(&ps.git);
	free(ps.ix.slot);
	free(ps.first_text);
	free(copy);
	for (int f = 0; f < MAIL_NFIELDS; f++)
		str_free(&ps.field[f]);
	if (!ok)
		patch_free(p);
	return ok;
}

bool patch_parse_buffer(const char *name, const char *text, size_t len, struct pb_patch *p,
			pb_err *err)
{
	return parse_buffer(name, text, len, p, SUBJECT_NUMBERED, err);
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* A queue file's bytes (what: "patch file", "series file"): a regular
 * file only (a FIFO would block every command that loads the queue, a
 * device never ends), read no further than one byte past max.
 * O_NONBLOCK so that opening a FIFO returns at once; a symlink is
 * followed, but what it names must be a regular file too. */
static char *read_regular(const char *path, size_t max, const char *what, size_t *len,
			  pb_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t cap = max + 1, n = 0, size;
	char *buf;

	if (fd < 0) {
		pb_seterr(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		pb_seterr(err, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		pb_seterr(err, "%s: %s, not a regular %s", path, file_kind(st.st_mode), what);
		close(fd);
		return NULL;
	}
	/* the size is a hint only (the file may grow while it is read) */
	size = st.st_size > 0 && (size_t)st.st_size < cap ? (size_t)st.st_size + 1 : 65536;
	buf = xmalloc(size + 1);
	while (n < cap) {
		ssize_t r;

		if (n == size) {
			size = size * 2 < cap ? size * 2 : cap;
			buf = xrealloc(buf, size + 1);
		}
		r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			pb_seterr(err, "%s: read error: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > max) {
		pb_seterr(err, "%s: more than %zu bytes, larger than any %s perfbot takes", path, max,
			  what);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char *read_patch_bytes(const char *path, size_t *len, pb_err *err)
{
	return read_regular(path, PATCH_MAX_BYTES, "patch file", len, err);
}

static bool parse_file(const char *path, struct pb_patch *p, enum subject_rule rule, pb_err *err)
{
	size_t len;
	char *text = read_patch_bytes(path, &len, err);
	bool ok;

	memset(p, 0, sizeof(*p));
	if (!text)
		return false;
	{
		const char *base = strrchr(path, '/');

		ok = parse_buffer(base ? base + 1 : path, text, len, p, rule, err);
	}
	free(text);
	if (ok)
		p->file = abs_path_from(NULL, path);
	return ok;
}

bool patch_parse_file(const char *path, struct pb_patch *p, pb_err *err)
{
	return parse_file(path, p, SUBJECT_NUMBERED, err);
}

/* A queue whose patches are not all numbered by their Subjects is
 * numbered by their place in it, every patch alike (numbers from two
 * sources could clash). A quilt series' place is its series file's; an
 * mbox's is only its arrival order, which need not be the series', so
 * there every mail or none must be numbered (a one-commit format-patch
 * --stdout has none): a lone unnumbered mail among numbered ones (a
 * forwarded fix, say) is refused, not allowed to renumber the thread. */
static bool number_by_place(struct pb_queue *q, const char *where, pb_err *err)
{
	int numbered = 0, first_bare = -1;

	for (int i = 0; i < q->npatches; i++)
		if (q->patches[i].number > 0)
			numbered++;
		else if (first_bare < 0)
			first_bare = i;
	if (first_bare < 0)
		return true;
	if (q->mbox && numbered) {
		pb_seterr(err, "queue %s: the mail '%.60s' has no [PATCH N/M] where %d others have one",
			  where, q->patches[first_bare].subject, numbered);
		return false;
	}
	for (int i = 0; i < q->npatches; i++) {
		q->patches[i].number = i + 1;
		q->patches[i].total = q->npatches;
	}
	q->numbered_by_place = true;
	return true;
}

/* Two patch files of a directory with one number: which is "run --patch N"?
 * Checked once the numbers are final (a series numbered by place has none
 * of its Subjects' left). */
static bool numbers_unique(const struct pb_queue *q, const char *where, pb_err *err)
{
	int *index_of = xcalloc(PATCH_MAX_NUMBER + 1, sizeof(int));
	bool ok = true;

	for (int i = 0; i < q->npatches && ok; i++) {
		int num = q->patches[i].number, j = index_of[num] - 1;

		if (j >= 0) {
			pb_seterr(err, "queue %s: %s and %s both carry patch number %d", where,
				  strrchr(q->patches[j].file, '/') + 1,
				  strrchr(q->patches[i].file, '/') + 1, num);
			ok = false;
		}
		index_of[num] = i + 1;
	}
	free(index_of);
	return ok;
}

void patch_free(struct pb_patch *p)
{
	free(p->file);
	free(p->sha256);
	free(p->series);
	free(p->subject);
	free(p->author);
	free(p->upstream);
	free(p->message_id);
	free(p->in_reply_to);
	free(p->to);
	free(p->cc);
	free(p->date);
	free(p->mail);
	names_free(p->fixes, p->nfixes);
	names_free(p->signoffs, p->nsignoffs);
	names_free(p->ccs, p->nccs);
	for (int i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->files);
	free(p->mm_reason);
	memset(p, 0, sizeof(*p));
}

/* One entry of a quilt series line: "name [-p1] [# comment]". Quilt's
 * own rules: a line whose first character is '#' is a comment (a patch
 * taken out of the series), blank lines are nothing, '#' after the name
 * starts a comment. perfbot applies with -p1, so a series that asks for
 * another strip level is refused rather than misapplied. *name is NULL
 * for a line without an entry. */
static bool series_entry(char *line, int lineno, const char *series, char **name, pb_err *err)
{
	char *save = NULL, *tok;

	*name = NULL;
	if (line[0] == '#')
		return true;
	for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (tok[0] == '#')
			break;
		if (!*name) {
			*name = tok;
			continue;
		}
		if (strcmp(tok, "-p1")) {
			pb_seterr(err, "%s:%d: %.40s: perfbot applies patches with -p1 and takes no "
				       "other option", series, lineno, tok);
			return false;
		}
	}
	if (*name && !path_is_safe(*name)) {
		pb_seterr(err, "%s:%d: '%.80s' is not a patch inside the queue", series, lineno, *name);
		return false;
	}
	return true;
}

/* A quilt queue: the patches its series file names, in its order. */
static char **series_names(const char *dir, const char *series, int *n, pb_err *err)
{
	size_t len;
	char *text = read_regular(series, PATCH_MAX_BYTES, "series file", &len, err);
	char **names = NULL, *save = NULL;
	int lineno = 0;
	bool ok = text != NULL;

	*n = 0;
	if (ok && memchr(text, '\0', len)) {
		pb_seterr(err, "%s: binary data, not a quilt series", series);
		ok = false;
	}
	for (char *line = ok ? strtok_r(text, "\n", &save) : NULL; ok && line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name;

		lineno++;
		ok = series_entry(line, lineno, series, &name, err);
		for (int i = 0; ok && name && i < *n; i++)
			if (!strcmp(names[i], name)) {
				pb_seterr(err, "%s:%d: %.80s is in the series twice", series, lineno,
					  name);
				ok = false;
			}
		if (ok && name) {
			names = grow(names, *n, sizeof(char *));
			names[(*n)++] = xstrdup(name);
		}
	}
	free(text);
	if (ok && !*n) {
		pb_seterr(err, "queue %s: its series file names no patch", dir);
		ok = false;
	}
	if (!ok) {
		names_free(names, *n);
		*n = 0;
		return NULL;
	}
	return names;
}

/* Patch files of dir that the series does not name: left out, as quilt
 * leaves them, and counted so that the listing can say so. */
static int files_not_in(const char *dir, const char *const *suffixes, char **names, int n)
{
	int nfiles, out = 0;
	char **files = dir_names(dir, suffixes, &nfiles);

	for (int i = 0; files && i < nfiles; i++) {
		bool named = false;

		for (int k = 0; k < n && !named; k++)
			named = !strcmp(files[i], names[k]);
		out += !named;
	}
	names_free(files, files ? nfiles : 0);
	return out;
}

static int by_number(const void *a, const void *b)
{
	const struct pb_patch *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

static int by_number_of(const void *a, const void *b)
{
	return by_number(*(const struct pb_patch *const *)a, *(const struct pb_patch *const *)b);
}

const struct pb_patch **queue_by_number(const struct pb_queue *q)
{
	const struct pb_patch **order = xcalloc((size_t)q->npatches + 1, sizeof(*order));

	for (int i = 0; i < q->npatches; i++)
		order[i] = &q->patches[i];
	qsort(order, (size_t)q->npatches, sizeof(*order), by_number_of);
	return order;
}


/* The header called field of the mail at msg (its first, its folded
 * lines joined), "" if none. */
static char *mail_field_value(const char *msg, size_t len, const char *field)
{
	size_t flen = strlen(field);

	const char *end = msg + len, *s = msg;
	pb_str subj;
	bool in = false;

	str_init(&subj);
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		size_t l = (eol ? (size_t)(eol - s) : (size_t)(end - s));
		char *line;

		if (l && s[l - 1] == '\r')
			l--;
		if (!l)
			break;
		line = xstrndup(s, l);
		if ((line[0] == ' ' || line[0] == '\t') && in) {
			str_add(&subj, " ");
			str_add(&subj, trim(line));
		} else {
			in = !strncasecmp(line, field, flen) && line[flen] == ':' && !subj.len;
			if (in)
				str_add(&subj, trim(line + flen + 1));
		}
		free(line);
		if (!eol)
			break;
		s = eol + 1;
	}
	return str_steal(&subj);
}

/* A reply in the thread ("Re: [PATCH 5.13 031/800] ..."): a review, not a
 * patch of the queue, whatever it quotes. */
static bool subject_is_reply(const char *subj)
{
	return !strncasecmp(subj, "re:", 3) || !strncasecmp(subj, "aw:", 3);
}

/* "[PATCH 5.13 000/800] 5.13.2-rc1 review": the cover letter, number 0. */
static bool subject_is_cover(const char *subj)
{
	const char *open = strchr(subj, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return false;
	for (const char *c = open + 1; c < close; c++)
		if ((c == open + 1 || c[-1] == ' ') && *c == '0') {
			const char *d = c + strspn(c, "0");

			if (*d == '/' && isdigit((unsigned char)d[1]))
				return true;
		}
	return false;
}

/* Does the mail carry a diff: a "diff " line, or a "--- " line whose next
 * line is "+++ "? (An ack, a test report, a pull request has none.) */
static bool mail_has_diff(const char *msg, size_t len)
{
	const char *end = msg + len, *s = msg;

	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));

		if (!eol)
			break;
		if ((size_t)(end - s) > 5 && !memcmp(s, "diff ", 5))
			return true;
		if ((size_t)(end - s) > 4 && !memcmp(s, "--- ", 4) && (size_t)(end - eol) > 5 &&
		    !memcmp(eol + 1, "+++ ", 4))
			return true;
		s = eol + 1;
	}
	return false;
}

bool patch_spool(const struct pb_patch *p, pb_err *err)
{
	struct stat st;
	char *dir;
	bool ok;

	if (!p->mail || (lstat(p->file, &st) == 0 && S_ISREG(st.st_mode) &&
			 (size_t)st.st_size == p->mail_len))
		return true;
	dir = xstrndup(p->file, (size_t)(strrchr(p->file, '/') - p->file));
	ok = mkdir_p(dir, err) && write_file_atomic(p->file, p->mail, p->mail_len, err);
	free(dir);
	return ok;
}

/* Standard input, at most max bytes; NULL (err set) past that or on an error. */
static char *read_stdin(size_t max, size_t *len, pb_err *err)
{
	size_t cap = 65536, n = 0;
	char *buf = xmalloc(cap + 1);

	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(0, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			pb_seterr(err, "standard input: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (!r)
			break;
		n += (size_t)r;
		if (n > max) {
			pb_seterr(err, "standard input: more than %zu MiB, not a patch", max >> 20);
			free(buf);
			return NULL;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

bool queue_load_patch_file(const char *path, const char *spool, struct pb_queue *q, pb_err *err)
{
	struct pb_patch *p;
	bool from_stdin = !strcmp(path, "-"), ok;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len;
	char *text;

	memset(q, 0, sizeof(*q));
	if (from_stdin && !spool) {
		pb_seterr(err, "a patch on standard input needs a cache directory to keep it in");
		return false;
	}
	text = from_stdin ? read_stdin(PATCH_MAX_BYTES, &len, err) : read_patch_bytes(path, &len, err);
	if (!text)
		return false;
	q->patches = p = xcalloc(1, sizeof(*p));
	ok = parse_buffer(from_stdin ? "(standard input)" : base, text, len, p, SUBJECT_ONE_PATCH, err);
	if (!ok) {
		free(text);
		free(q->patches);
		q->patches = NULL;
		return false;
	}
	q->npatches = 1;
	if (spool) {
		/* kept like an mbox's patch, named by its bytes, written only
		 * when first applied (patch_spool): the page and the reproduce
		 * line must not follow the developer's file when it is edited */
		p->file = xasprintf("%s/%s.patch", spool, p->sha256);
		p->mail = text;
		p->mail_len = len;
	} else {
		p->file = abs_path_from(NULL, path);
		free(text);
	}
	q->dir = xstrdup(p->file);
	q->one_patch = true;
	return true;
}

/* The 000/N cover letter of an mbox (its Subject subj): what follows its
 * [PATCH ...] prefix describes the queue; its Message-ID and From are
 * where a reply to the -rc as a whole goes. */
static void mbox_cover(struct pb_queue *q, char *subj, const char *msg, size_t mlen)
{
	char *close = strchr(subj, ']');

	free(q->description);
	q->description = xstrdup(trim(close + 1));
	no_control_chars(q->description);
	free(q->cover_message_id);
	q->cover_message_id = mail_field_value(msg, mlen, "Message-ID");
	no_control_chars(q->cover_message_id);
	/* who a reply to the -rc as a whole is addressed to */
	free(q->cover_from);
	q->cover_from = mail_field_value(msg, mlen, "From");
	no_control_chars(q->cover_from);
}

/* Mail i of the mbox at path, one with a diff, as the next patch of q.
 * index_of[N] is 1 + the place in q->patches of patch number N so far:
 * two mails of one number are refused. */
static bool mbox_patch(struct pb_queue *q, const char *path, const char *spool, int i,
		       const char *msg, size_t mlen, int *index_of, pb_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct pb_patch *p = &q->patches[q->npatches];
	char *name = xasprintf("%s, mail %d", base, i + 1);
	bool parsed = parse_buffer(name, msg, mlen, p, SUBJECT_UNNUMBERED, err);
	int j;

	free(name);
	if (!parsed)
		return false;
	q->npatches++;
	/* patch(1) applies files: the mail is written there, named
	 * by its bytes, when it is first applied (patch_spool) */
	p->file = xasprintf("%s/%s.patch", spool, p->sha256);
	p->mail = xmalloc(mlen);
	memcpy(p->mail, msg, mlen);
	p->mail_len = mlen;
	j = index_of[p->number] - 1;
	if (p->number > 0 && j >= 0) {
		pb_seterr(err, "queue %s: mails %s and %s both carry patch number %d", path,
			  q->patches[j].message_id[0] ? q->patches[j].message_id : "(no id)",
			  p->message_id[0] ? p->message_id : "(no id)", p->number);
		return false;
	}
	index_of[p->number] = q->npatches;
	return true;
}

/* One mbox file as the queue: a review thread as saved from the list, or
 * git format-patch --stdout. Each mail with a diff is one patch; the
 * 000/N cover letter is the queue's description; replies and mails
 * without a diff are skipped and counted. */
static bool queue_load_mbox(const char *path, const char *spool, struct pb_queue *q,
			    pb_err *err)
{
	size_t len;
	char *text = read_regular(path, 64 * (size_t)PATCH_MAX_BYTES, "mbox file", &len, err);
	const char **starts = NULL;
	int n, *index_of = NULL;
	bool ok = false;

	if (!text)
		return false;
	n = memchr(text, '\0', len) ? 0 : mbox_starts(text, len, &starts);
	if (!n || starts[0] != text) {
		pb_seterr(err, "queue %s: a file, but not an mbox (it does not start with a "
			  "'From ' line; a queue is a directory or an mbox)", path);
		goto out;
	}
	if (!spool) {
		pb_seterr(err, "queue %s: an mbox queue needs a cache directory for its patches",
			  path);
		goto out;
	}
	q->mbox = true;
	q->dir = abs_path_from(NULL, path);
	q->description = xstrdup("");
	q->cover_message_id = xstrdup("");
	q->cover_from = xstrdup("");
	q->patches = xcalloc((size_t)n, sizeof(struct pb_patch));
	index_of = xcalloc(PATCH_MAX_NUMBER + 1, sizeof(int));
	for (int i = 0; i < n; i++) {
		const char *msg = starts[i];
		size_t mlen = (size_t)((i + 1 < n ? starts[i + 1] : text + len) - msg);
		char *subj = mail_field_value(msg, mlen, "Subject");
		bool kept = true;

		if (subject_is_reply(subj))
			q->replies++;
		else if (subject_is_cover(subj) && !q->description[0])
			mbox_cover(q, subj, msg, mlen);
		else if (!mail_has_diff(msg, mlen))
			q->no_diff++;
		else
			kept = mbox_patch(q, path, spool, i, msg, mlen, index_of, err);
		free(subj);
		if (!kept)
			goto out;
	}
	if (!q->npatches) {
		pb_seterr(err, "queue %s: no patch in its %d mail%s (%d repl%s, %d without a diff)",
			  path, n, n == 1 ? "" : "s", q->replies, q->replies == 1 ? "y" : "ies",
			  q->no_diff);
		goto out;
	}
	/* a thread is saved in arrival order, which need not be the series';
	 * unnumbered mails (git format-patch --stdout of one commit) keep it */
	if (!number_by_place(q, path, err))
		goto out;
	qsort(q->patches, (size_t)q->npatches, sizeof(*q->patches), by_number);
	ok = true;
out:
	free(index_of);
	free(starts);
	free(text);
	return ok;
}

int queue_series_patches(const struct pb_queue *q, bool mm_only, const struct pb_patch **out)
{
	int n = 0;

	for (int i = 0; i < q->npatches; i++)
		if (q->patches[i].is_mm || !mm_only)
			out[n++] = &q->patches[i];
	return n;
}

/* "5.13.2-rc1" in "5.13.2-rc1 review": digits and dots, "-rc", digits. */
static bool is_rc_name(const char *w, size_t n)
{
	size_t d = strspn(w, "0123456789.");
	const char *rc = w + d;

	return d && d + 3 < n && !strncmp(rc, "-rc", 3) && strspn(rc + 3, "0123456789") == n - d - 3;
}

char *queue_series_name(const struct pb_queue *q)
{
	const char *base = strrchr(q->dir, '/') ? strrchr(q->dir, '/') + 1 : q->dir;
	char *name = NULL;

	for (const char *w = q->description ? q->description : ""; *w && !name;) {
		size_t n = strcspn(w, " \t");

		if (is_rc_name(w, n))
			name = xstrndup(w, n);
		w += n + strspn(w + n, " \t");
	}
	if (!name) {
		const char *dot = strrchr(base, '.');

		name = dot && dot != base && (!strcmp(dot, ".mbox") || !strcmp(dot, ".eml"))
			       ? xstrndup(base, (size_t)(dot - base))
			       : xstrdup(base[0] ? base : "queue");
	}
	/* a file name in reports/: nothing but these */
	for (char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '-';
	if (name[0] == '.')
		name[0] = '-';
	return name;
}

bool queue_load(const char *dir, const char *spool, struct pb_queue *q, pb_err *err)
{
	static const char *const suffixes[] = { ".patch", ".mbox", ".eml", NULL };
	char *series;
	struct stat st;
	int nnames;
	char **names;
	bool ok = true;

	memset(q, 0, sizeof(*q));
	/* what the queue is, by what is there: a file is an mbox */
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		ok = queue_load_mbox(dir, spool, q, err);
		if (!ok)
			queue_free(q);
		return ok;
	}
	series = xasprintf("%s/series", dir);
	/* a quilt directory (stable-queue's queue-6.1/): the series file says
	 * which patches, in which order; the others are not in the queue */
	q->quilt = lstat(series, &st) == 0;
	if (q->quilt) {
		names = series_names(dir, series, &nnames, err);
		if (!names) {
			free(series);
			return false;
		}
	} else {
		names = dir_names(dir, suffixes, &nnames);
		if (!names) {
			pb_seterr(err, "queue %s: cannot open directory", dir);
			free(series);
			return false;
		}
	}
	free(series);
	q->dir = xstrdup(dir);
	q->patches = xcalloc((size_t)(nnames ? nnames : 1), sizeof(struct pb_patch));
	for (int i = 0; i < nnames && ok; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);

		ok = parse_file(path, &q->patches[q->npatches],
				q->quilt ? SUBJECT_UNNUMBERED : SUBJECT_NUMBERED, err);
		free(path);
		if (ok)
			q->npatches++;
	}
	if (ok && q->quilt) {
		q->not_in_series = files_not_in(dir, suffixes, names, nnames);
		ok = number_by_place(q, dir, err);
	}
	ok = ok && numbers_unique(q, dir, err);
	names_free(names, nnames);
	if (ok && q->npatches == 0) {
		pb_seterr(err, "queue %s: no *.patch files", dir);
		ok = false;
	}
	/* a directory's order is its file names', which need not be the
	 * series' (007-x before 001-y): by number; a quilt series keeps its own */
	if (ok && !q->quilt)
		qsort(q->patches, (size_t)q->npatches, sizeof(*q->patches), by_number);
	if (!ok)
		queue_free(q);
	return ok;
}

const struct pb_patch *queue_find(const struct pb_queue *q, int number)
{
	for (int i = 0; i < q->npatches; i++)
		if (q->patches[i].number == number)
			return &q->patches[i];
	return NULL;
}

char *queue_missing(const struct pb_queue *q, int number)
{
	pb_str s;

	str_init(&s);
	str_addf(&s, "patch %d is not in the queue %s (it has ", number, q->dir);
	for (int i = 0; i < q->npatches; i++)
		str_addf(&s, "%s%03d", i ? " " : "", q->patches[i].number);
	str_add(&s, ")");
	return str_steal(&s);
}

const struct pb_patch *queue_patch(const struct pb_queue *q, int number, pb_err *err)
{
	const struct pb_patch *p = queue_find(q, number);
	char *missing;

	if (p)
		return p;
	missing = queue_missing(q, number);
	pb_seterr(err, "%s", missing);
	/* an error holds 1023 bytes: a queue of hundreds says how many */
	if (strlen(err->msg) >= sizeof(err->msg) - 1)
		pb_seterr(err, "patch %d is not in the queue %s (it has %d patches, %03d to %03d)",
			  number, q->dir, q->npatches, q->patches[0].number,
			  q->patches[q->npatches - 1].number);
	free(missing);
	return NULL;
}

void queue_free(struct pb_queue *q)
{
	for (int i = 0; i < q->npatches; i++)
		patch_free(&q->patches[i]);
	free(q->patches);
	free(q->dir);
	free(q->description);
	free(q->cover_message_id);
	free(q->cover_from);
	memset(q, 0, sizeof(*q));
}
