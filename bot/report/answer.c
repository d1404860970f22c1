/* A stored comparison's answer: the command that repeats it (answer.h). */
#include "answer.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"

char *shell_quote(const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789._/=:,+-@%";
	pb_str q;

	if (s[0] && strspn(s, plain) == strlen(s))
		return xstrdup(s);
	str_init(&q);
	str_add(&q, "'");
	for (; *s; s++)
		if (*s == '\'')
			str_add(&q, "'\\''");
		else
			str_addn(&q, s, 1);
	str_add(&q, "'");
	return str_steal(&q);
}

/* A row's text, "" for a column it did not read (the tests' rows). */
static const char *text(const char *s)
{
	return s ? s : "";
}

char **answer_reproduce_words(const struct patch_page_row *r, bool with_queue, int *n)
{
	char **w = xcalloc(12, sizeof(*w)), *q;
	int k = 0;

	w[k++] = xstrdup("perfbot run");
	if (!strcmp(text(r->kind), "series")) {
		w[k++] = xstrdup(r->series_mm_only ? "--series --mm-only" : "--series");
		if (with_queue && text(r->series_queue)[0]) {
			q = shell_quote(text(r->series_queue));
			w[k++] = xasprintf("--queue %s", q);
			free(q);
		}
	} else if (r->number) {
		w[k++] = xasprintf("--patch %d", r->number);
		if (with_queue && text(r->queue)[0]) {
			q = shell_quote(text(r->queue));
			w[k++] = xasprintf("--queue %s", q);
			free(q);
		}
	} else {
		q = shell_quote(text(r->file));
		w[k++] = xasprintf("--patch-file %s", q);
		free(q);
	}
	w[k++] = xasprintf("-c run.seed=%lld", r->seed);
	if (text(r->accel)[0]) {
		q = shell_quote(r->accel);
		w[k++] = xasprintf("-c qemu.accel=%s", q);
		free(q);
	}
	/* a run takes more boots while a metric is undecided: only fewer than
	 * a fresh config.ini's tells that run.boots was set */
	if (r->boots_per_kernel < CONFIG_DEFAULT_BOOTS)
		w[k++] = xasprintf("-c run.boots=%d", r->boots_per_kernel);
	if (r->iterations != CONFIG_DEFAULT_ITERATIONS)
		w[k++] = xasprintf("-c run.iterations=%d", r->iterations);
	if (r->warmup != CONFIG_DEFAULT_WARMUP)
		w[k++] = xasprintf("-c run.warmup=%d", r->warmup);
	if (n)
		*n = k;
	return w;
}

void answer_words_free(char **words)
{
	for (int i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}

char *answer_reproduce_line(const struct patch_page_row *r, bool with_queue)
{
	char **w = answer_reproduce_words(r, with_queue, NULL);
	pb_str s;

	str_init(&s);
	for (int i = 0; w[i]; i++)
		str_addf(&s, "%s%s", i ? " " : "", w[i]);
	answer_words_free(w);
	return str_steal(&s);
}
