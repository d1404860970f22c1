/* A stored comparison's answer outside HTML and mail: the command that
 * repeats it, its summary on the terminal (perfbot run), and its JSON
 * (--json). Everything here is built from the rows of the report's queries,
 * like the mail, so that the terminal, the page, the mail and the JSON say
 * the same. */
#ifndef PERFBOT_ANSWER_H
#define PERFBOT_ANSWER_H

#include <stdbool.h>
#include <stdio.h>

#include "db-report.h"

/* The command that repeats comparison r, as shell-ready words (a path
 * quoted where the shell would split it): "perfbot run", what it measured
 * ("--patch 771", "--patch-file PATH" for a patch without a series number,
 * "--series [--mm-only]"), "--queue DIR" when with_queue and the patch has
 * a queue, then what makes the run the same ("-c run.seed=N", the
 * accelerator, a schedule other than a fresh config.ini's). NULL-terminated;
 * *n (may be NULL) gets their count. Free with answer_words_free. */
char **answer_reproduce_words(const struct patch_page_row *r, bool with_queue, int *n);
void answer_words_free(char **words);
/* The same words as one line. Free it. */
char *answer_reproduce_line(const struct patch_page_row *r, bool with_queue);

/* s quoted for a POSIX shell where it has to be ('...'), else a copy. */
char *shell_quote(const char *s);

#endif
