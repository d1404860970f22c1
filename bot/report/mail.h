/* perfbot's answers on the list: RFC 5322 plain-text messages in the style
 * of the kernel test robot's, rendered from a comparison's view (view.h)
 * and the rows the caller loaded alone (no database, no file), so that
 * every rule below is tested without a run. The headers are folded at 78 columns, and what came from input in
 * them is made one line (visible()) and RFC 2047 encoded where it is not
 * ASCII; the body is UTF-8, sent 8bit, in lines of at most 72 columns. A
 * message answers a patch's newest comparison (its review mail), a series
 * comparison (the cover letter) or a bisect (its culprit's review mail):
 * three builders over the same addressing, headers and body parts. */
#ifndef PERFBOT_MAIL_H
#define PERFBOT_MAIL_H

#include <time.h>

#include "names.h"
#include "rfc5322.h"
#include "util.h"
#include "verdict.h"
#include "view.h"

struct patch_page_row;
struct bisect_row;
struct bisect_step_row;
struct pb_patch;

/* What the mail answering one patch is made of. */
struct mail_patch_input {
	const struct view *view; /* its newest comparison: the patch, the kernels, the metrics */
	/* the queue's copy of the patch, for its Signed-off-by and Cc: trailers;
	 * NULL when it is not the file measured (the database keeps none) */
	const struct pb_patch *queued;
	const char *from, *list_cc; /* [mail] from, [mail] cc */
	const char *report_url;     /* [report] url, "" for none */
	time_t date;
};

/* The whole message, headers and body, into out; false (err) when the
 * patch's author or the From address has no address to use. */
bool mail_patch_message(const struct mail_patch_input *in, pb_str *out, pb_err *err);

/* The cover letter of the queue measured, as the queue has it. */
struct mail_cover {
	const char *from;   /* its sender, the reply's To; "": unknown, [mail] cc is the To */
};

/* What the mail answering the -rc as a whole is made of. */
struct mail_series_input {
	const struct view *view; /* the series comparison (kind "series") */
	const struct bisect_row *bisect; /* its newest bisect, NULL: none */
	struct mail_cover cover;
	const char *from, *list_cc, *report_url;
	time_t date;
};
/* Threads under the cover letter; false (err) when From is no address or
 * there is no one to send it to. */
bool mail_series_message(const struct mail_series_input *in, pb_str *out, pb_err *err);

/* One step of a bisection log, copied out of its bisect_step_row. */
struct mail_step {
	int step, prefix_a, prefix_b;
	bool bad;
	enum bisect_role role;
	char *verdict;
	double change_pct; /* NAN: none */
};
struct mail_steps {
	struct mail_step *v;
	int n;
};
void mail_steps_add(struct mail_steps *s, const struct bisect_step_row *r);
void mail_steps_free(struct mail_steps *s);

/* What the mail answering a bisect's culprit is made of. */
struct mail_bisect_input {
	const struct bisect_row *bisect;
	const struct mail_steps *steps;
	const struct view *series; /* the series comparison it bisected: the change */
	/* the culprit's patch fields; NULL: none named, the cover letter is answered */
	const struct patch_page_row *culprit;
	const struct pb_patch *queued; /* its trailers, as mail_patch_input's */
	struct mail_cover cover;
	const char *from, *list_cc, *report_url;
	time_t date;
};
/* Threads under the culprit's review mail (the cover letter's where it had
 * none). A culprit that was not confirmed is never called one: the first
 * line says it could not be confirmed. */
bool mail_bisect_message(const struct mail_bisect_input *in, pb_str *out, pb_err *err);

#endif
