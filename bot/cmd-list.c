/* perfbot list: the queue as a table, one patch a row. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

static const struct pb_usage usage = { "perfbot list", "[--long] [--mm] [options]", NULL };

int cmd_list(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	bool lng = false, mm_only = false;
	int rc, nmm = 0, ncc = 0;
	const struct pb_option opts[] = {
		OPT_BOOL('l', "long", &lng,
			 "add why mm, Fixes:, files with +/-, the sign-off chain and the mail's ids"),
		OPT_BOOL('m', "mm", &mm_only, "only the mm patches"),
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
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
