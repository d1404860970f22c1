/* A stable queue: git format-patch / mbox files of a stable review series. */
#ifndef PERFBOT_QUEUE_H
#define PERFBOT_QUEUE_H

#include "util.h"

struct patch_file_stat {
	char *path;      /* as in the diff, without a/ b/ */
	int added, removed;
};

struct pb_patch {
	char *file;          /* absolute path of the patch file */
	char *sha256;        /* of the file's bytes */
	char *series;        /* "5.13" of [PATCH 5.13 765/800], "" if none */
	int number, total;   /* 765, 800 */
	char *subject;       /* without the [PATCH ...] prefix */
	char *author;        /* From: in the body, else the mail's From: */
	char *upstream;      /* 40-hex upstream commit, "" if not named */
	/* its mail's headers, "" where it has none (a quilt patch has none) */
	char *message_id;    /* "<...>" */
	char *in_reply_to;   /* the cover letter's Message-ID in a review thread */
	char *to, *cc;       /* as given, folded lines joined */
	char *date;
	char *mail;          /* an mbox's patch: its mail, written to file by patch_spool */
	size_t mail_len;
	char **fixes;        /* "Fixes:" values */
	int nfixes;
	char **signoffs;     /* Signed-off-by chain, in order */
	int nsignoffs;
	char **ccs;          /* Cc: trailers, in order, as given ("Name <addr> # 5.10") */
	int nccs;
	bool cc_stable;      /* carries an explicit Cc: stable@ tag */
	struct patch_file_stat *files;
	int nfiles;
	bool is_mm;
	char *mm_reason;     /* the paths that made it mm, or why not */
};

struct pb_queue {
	char *dir;           /* the directory, or the mbox file */
	bool mbox;           /* one mbox file: a review thread, format-patch --stdout */
	char *description;   /* an mbox's cover letter subject ("5.13.2-rc1 review"), else NULL */
	char *cover_message_id; /* its Message-ID, "" if none; NULL without an mbox */
	char *cover_from;    /* its From (the stable maintainer), "" if none; NULL without an mbox */
	int replies;         /* Re: mails of an mbox, skipped */
	int no_diff;         /* mails of an mbox without a diff (not the cover), skipped */
	bool quilt;          /* dir has a quilt series file: its patches, its order */
	int not_in_series;   /* patch files of a quilt dir its series leaves out */
	/* one patch file of a developer's own (queue_load_patch_file): dir is
	 * the file, its patch has number 0 and is known by its sha256 */
	bool one_patch;
	/* not every Subject had N/M (quilt, mbox): numbered 1..n by place */
	bool numbered_by_place;
	struct pb_patch *patches;  /* in series order (quilt), else by number */
	int npatches;
};

/* Largest patch file perfbot reads: a stable patch is kilobytes. */
#define PATCH_MAX_BYTES (8u << 20)
/* Largest N and M of a [PATCH N/M] subject. */
#define PATCH_MAX_NUMBER 100000

/* How a patch is named to people and in file names: its series number
 * ("771", "003"), or, for a patch without one (number 0: a patch file of
 * its own, perfbot run --patch-file), the first 12 hex digits of its
 * file's sha256. Returns buf. */
#define PATCH_LABEL_SIZE 16
const char *patch_label(char buf[PATCH_LABEL_SIZE], int number, const char *sha256);

bool patch_parse_buffer(const char *name, const char *text, size_t len, struct pb_patch *p,
			pb_err *err);
bool patch_parse_file(const char *path, struct pb_patch *p, pb_err *err);
void patch_free(struct pb_patch *p);

/* Is this a path that makes a patch an mm patch (mm/, arch/ARCH/mm/, mm headers)? */
bool path_is_mm(const char *path);

/* A queue: a directory or an mbox file, told apart by what path is. An
 * mbox holds one patch a mail (by series number); its 000/N cover letter
 * gives q->description, replies and mails without a diff are counted and
 * skipped, and each patch's file is spool/<sha256>.patch (written by
 * patch_spool; spool NULL: an mbox is refused). A directory: with a quilt `series` file (stable-queue's
 * queue-6.1/): the patches it names, in its order (comments and
 * '#'-disabled lines as quilt reads them; a patch not in it is not in the
 * queue). Without one: every *.patch, *.mbox and *.eml file, by series
 * number. Any malformed file, a series naming a file that is not there, or
 * two patches with the same number, fails. */
bool queue_load(const char *path, const char *spool, struct pb_queue *q, pb_err *err);
/* A queue of one patch: a file of any git format-patch, mail or plain
 * unified diff, "-" for standard input, whatever its Subject ([PATCH],
 * [RFC PATCH v2 3/7], none); the patch is number 0, known by its sha256
 * (patch_label). Its bytes go to spool/<sha256>.patch when first applied
 * (patch_spool), and that is its file; without a spool (NULL), the file
 * given is (standard input needs one). */
bool queue_load_patch_file(const char *path, const char *spool, struct pb_queue *q, pb_err *err);
const struct pb_patch *queue_find(const struct pb_queue *q, int number);
/* "patch N is not in the queue DIR (it has 031 146 ...)", every number
 * however many. Free it. */
char *queue_missing(const struct pb_queue *q, int number);
/* queue_find, or NULL with an error that says which patches q has. */
const struct pb_patch *queue_patch(const struct pb_queue *q, int number, pb_err *err);
/* The patches a series run applies, in series order (a quilt series' own,
 * else by number): every one, or (mm_only) the mm ones; out has room for
 * q->npatches. Returns how many. */
int queue_series_patches(const struct pb_queue *q, bool mm_only, const struct pb_patch **out);
/* What a series run of q is called (reports/series-<name>-<hash>.html): the -rc
 * its cover letter names ("5.13.2-rc1"), else its directory's or file's
 * name; made of [A-Za-z0-9._-] only. Free it. */
char *queue_series_name(const struct pb_queue *q);
/* Writes an mbox patch's mail to its p->file (under the cache's spool)
 * unless it is there already; nothing to do for a patch file of its own.
 * Loading a queue writes nothing, so a refused command leaves no file. */
bool patch_spool(const struct pb_patch *p, pb_err *err);
/* q's patches by series number (whatever q's order); free the array. */
const struct pb_patch **queue_by_number(const struct pb_queue *q);
void queue_free(struct pb_queue *q);

#endif
