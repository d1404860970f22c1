/* perfbot list: the queue as a table, one patch a row, or (--json) as
 * one JSON document. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "queue.h"

/* "Name <mail>" -> "Name", cut to width bytes without splitting a UTF-8 character. */
static void author_name(const char *author, char *out, size_t width)
{
	size_t n = strcspn(author, "<");

	while (n && author[n - 1] == ' ')
		n--;
	if (n > width)
		n = width;
	while (n && ((unsigned char)author[n] & 0xc0) == 0x80)
		n--;
	memcpy(out, author, n);
	out[n] = '\0';
}

/* Prints fmt with text, which came from the patch, made visible(). */
static void print_text(const char *fmt, const char *text)
{
	char *v = visible(text);

	printf(fmt, "", v);
	free(v);
}

static void print_row(const struct pb_patch *p, bool lng)
{
	int added = 0, removed = 0;
	char files[32], num[24], author[24], *upstream, *name, *subject;

	for (int i = 0; i < p->nfiles; i++) {
		added += p->files[i].added;
		removed += p->files[i].removed;
	}
	snprintf(files, sizeof(files), "%d +%d/-%d", p->nfiles, added, removed);
	snprintf(num, sizeof(num), "%03d/%d", p->number, p->total);
	author_name(p->author, author, 22);
	upstream = visible(p->upstream[0] ? p->upstream : "?");
	name = visible(author);
	subject = visible(p->subject);
	printf("%-9s %-3s %-7s %-12.12s %-14s %-22s %s\n", num, p->is_mm ? "mm" : "-",
	       p->cc_stable ? "Cc" : "picked", upstream, files, name, subject);
	free(upstream);
	free(name);
	free(subject);
	if (!lng)
		return;
	print_text(p->is_mm ? "%10smm because: %s\n" : "%10snot mm: %s\n", p->mm_reason);
	for (int i = 0; i < p->nfixes; i++)
		print_text("%10sFixes: %s\n", p->fixes[i]);
	for (int i = 0; i < p->nfiles; i++) {
		char *path = visible(p->files[i].path);

		printf("%10s%s +%d -%d\n", "", path, p->files[i].added, p->files[i].removed);
		free(path);
	}
	for (int i = 0; i < p->nsignoffs; i++)
		print_text("%10sSigned-off-by: %s\n", p->signoffs[i]);
	if (p->message_id[0])
		print_text("%10sMessage-ID: %s\n", p->message_id);
	if (p->in_reply_to[0])
		print_text("%10sIn-Reply-To: %s\n", p->in_reply_to);
	if (p->date[0])
		print_text("%10sDate: %s\n", p->date);
	printf("\n");
}

/* One patch as an object of the "patches" array: everything --long
 * prints, the strings as they are (the writer escapes them), "" as null. */
static void json_patch(struct json *j, const struct pb_patch *p)
{
	char label[PATCH_LABEL_SIZE];

	json_object_begin(j, NULL);
	if (p->number > 0)
		json_int(j, "number", p->number);
	else
		json_null(j, "number");
	json_string(j, "label", patch_label(label, p->number, p->sha256));
	json_string(j, "subject", p->subject);
	json_string(j, "series", p->series[0] ? p->series : NULL);
	if (p->total > 0)
		json_int(j, "total", p->total);
	else
		json_null(j, "total");
	json_string(j, "author", p->author[0] ? p->author : NULL);
	json_string(j, "upstream", p->upstream[0] ? p->upstream : NULL);
	json_bool(j, "cc_stable", p->cc_stable);
	json_bool(j, "is_mm", p->is_mm);
	json_string(j, "mm_reason", p->mm_reason);
	json_string(j, "file", p->file);
	json_string(j, "sha256", p->sha256);
	json_array_begin(j, "files");
	for (int i = 0; i < p->nfiles; i++) {
		json_object_begin(j, NULL);
		json_string(j, "path", p->files[i].path);
		json_int(j, "added", p->files[i].added);
		json_int(j, "removed", p->files[i].removed);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "fixes");
	for (int i = 0; i < p->nfixes; i++)
		json_string(j, NULL, p->fixes[i]);
	json_array_end(j);
	json_array_begin(j, "signoffs");
	for (int i = 0; i < p->nsignoffs; i++)
		json_string(j, NULL, p->signoffs[i]);
	json_array_end(j);
	json_string(j, "message_id", p->message_id[0] ? p->message_id : NULL);
	json_string(j, "in_reply_to", p->in_reply_to[0] ? p->in_reply_to : NULL);
	json_string(j, "date", p->date[0] ? p->date : NULL);
	json_object_end(j);
}

/* The queue and its patches by series number (the mm ones, with
 * mm_only) as one document. */
static void print_json(const struct pb_queue *q, bool mm_only)
{
	const struct pb_patch **order = queue_by_number(q);
	pb_str out;
	struct json j;

	str_init(&out);
	json_init(&j, &out);
	json_object_begin(&j, NULL);
	json_string(&j, "queue", q->dir);
	json_string(&j, "description", q->description && q->description[0] ? q->description : NULL);
	json_array_begin(&j, "patches");
	for (int k = 0; k < q->npatches; k++)
		if (!mm_only || order[k]->is_mm)
			json_patch(&j, order[k]);
	json_array_end(&j);
	json_object_end(&j);
	fputs(out.buf, stdout);
	str_free(&out);
	free(order);
}

static const struct pb_usage usage = { "perfbot list", "[--long] [--mm] [--json] [options]", NULL };

int cmd_list(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	bool lng = false, mm_only = false, json = false;
	int rc, nmm = 0, ncc = 0;
	const struct pb_option opts[] = {
		OPT_BOOL('l', "long", &lng,
			 "add why mm, Fixes:, files with +/-, the sign-off chain and the mail's ids"),
		OPT_BOOL('m', "mm", &mm_only, "only the mm patches"),
		OPT_BOOL(0, "json", &json,
			 "the queue and its patches as one JSON document, --long's facts included"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_OK;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	if (json) {
		print_json(&q, mm_only);
		goto done;
	}
	printf("%-9s %-3s %-7s %-12s %-14s %-22s %s\n", "NUM/TOTAL", "MM", "STABLE", "UPSTREAM",
	       "FILES +/-", "AUTHOR", "SUBJECT");
	{
		/* by series number, whatever the queue's order (a quilt series
		 * keeps its own for applying) */
		const struct pb_patch **order = queue_by_number(&q);

		for (int k = 0; k < q.npatches; k++) {
			const struct pb_patch *p = order[k];

			nmm += p->is_mm;
			ncc += p->cc_stable;
			if (!mm_only || p->is_mm)
				print_row(p, lng);
		}
		free(order);
	}
	{
		char *dir = visible(q.dir);

		printf("%d patches in %s: %d mm, %d with an explicit Cc: stable tag, %d picked without one\n",
		       q.npatches, dir, nmm, ncc, q.npatches - ncc);
		if (q.quilt)
			printf("a quilt series: its order is the series file's; %d patch file(s) of the "
			       "directory are not in it\n", q.not_in_series);
		if (q.mbox) {
			char *desc = visible(q.description[0] ? q.description : "(no cover letter)");

			printf("an mbox: %s; %d repl%s and %d mail(s) without a diff skipped\n", desc,
			       q.replies, q.replies == 1 ? "y" : "ies", q.no_diff);
			free(desc);
		}
		if (q.numbered_by_place)
			printf("numbered 1 to %d by their place in the %s: not every Subject carries "
			       "[PATCH N/M]\n", q.npatches, q.mbox ? "mbox" : "series");
		free(dir);
	}
done:
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
