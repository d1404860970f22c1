/* The mail answering a patch's review mail (see mail.h): its addresses,
 * its headers, folded and encoded, and its body in 72 columns. */
#include "mail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "db-report.h"
#include "queue.h"
#include "report.h"

/* A space the header folding must keep: one inside a quoted name. Text
 * from input never holds it: it went through visible() first. */
#define NOFOLD '\x01'

/* The columns n bytes of UTF-8 take: one a character. */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of the first cols characters of s (n bytes). */
static size_t bytes_of_columns(const char *s, size_t n, size_t cols)
{
	size_t i = 0, c = 0;

	for (; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (c == cols)
			break;
		c++;
	}
	return i;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Where a word too long for the room left is cut: after the last '.',
 * '_', '-' or '/' that fits, else where the room ends. */
static size_t cut_word(const char *w, size_t n, size_t room)
{
	size_t max = bytes_of_columns(w, n, room ? room : 1), at = 0;

	for (size_t i = 1; i <= max; i++)
		if (strchr("._-/", w[i - 1]))
			at = i;
	return at ? at : max;
}

void mail_wrap(pb_str *out, const char *first, const char *indent, const char *text)
{
	size_t col = columns(first, strlen(first)), ind = columns(indent, strlen(indent));
	bool empty = true; /* nothing after the line's prefix yet */
	const char *p = text;

	str_add(out, first);
	while (*p) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		while (n) {
			size_t w = columns(p, n), take;

			if (!empty && col + 1 + w > MAIL_BODY_COLUMNS) {
				str_addf(out, "\n%s", indent);
				col = ind;
				empty = true;
			}
			if (!empty) {
				str_add(out, " ");
				col++;
			}
			take = col + w <= MAIL_BODY_COLUMNS ? n : cut_word(p, n, MAIL_BODY_COLUMNS - col);
			str_addn(out, p, take);
			col += columns(p, take);
			empty = false;
			p += take;
			n -= take;
			if (n) { /* the rest of a word longer than a line */
				str_addf(out, "\n%s", indent);
				col = ind;
				empty = true;
			}
		}
	}
	str_add(out, "\n");
}

/* "Name:" and the words of value (prepared: spaces are where it may fold,
 * NOFOLD a space it must keep), a line never passing column 78 unless one
 * word does. A word of over 900 bytes is cut, so that no line passes
 * RFC 5322's 998. */
static void header_folded(pb_str *out, const char *name, const char *value)
{
	size_t start = strlen(name) + 1, col = start;

	str_addf(out, "%s:", name);
	for (const char *p = value; *(p += strspn(p, " "));) {
		size_t n = strcspn(p, " "), w;

		if (n > 900)
			n = bytes_of_columns(p, n, 900);
		w = columns(p, n);
		if (col > start && col + 1 + w > MAIL_HEADER_COLUMNS) {
			str_add(out, "\n");
			col = 0;
		}
		str_add(out, " ");
		for (size_t i = 0; i < n; i++)
			str_addn(out, p[i] == NOFOLD ? " " : p + i, 1);
		col += 1 + w;
		p += n;
	}
	str_add(out, "\n");
}

/* The bytes of the UTF-8 character s starts with (visible() text: valid). */
static size_t utf8_char_len(const char *s)
{
	unsigned char c = (unsigned char)*s;
	size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

	for (size_t i = 1; i < n; i++)
		if (!s[i])
			return i;
	return n;
}

/* s as RFC 2047 "Q" encoded words, each at most 66 characters (one fits
 * beside "Subject: " in 78 columns; RFC 2047 allows 75), a character never
 * split between two, spaces between them (the decoder drops those: the
 * text's own spaces are inside, as '_'). Only the characters a phrase
 * allows stay as they are. */
static void add_encoded_words(pb_str *out, const char *s)
{
	size_t len = 0;

	str_add(out, "=?UTF-8?Q?");
	while (*s) {
		size_t n = utf8_char_len(s), e = 0;
		char enc[16];

		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    (c && strchr("!*+-/", c)))
				enc[e++] = (char)c;
			else if (c == ' ')
				enc[e++] = '_';
			else
				e += (size_t)snprintf(enc + e, sizeof(enc) - e, "=%02X", c);
		}
		if (len + e > 66 - 12) {
			str_add(out, "?= =?UTF-8?Q?");
			len = 0;
		}
		str_addn(out, enc, e);
		len += e;
		s += n;
	}
	str_add(out, "?=");
}

/* A word a reader's program would decode or take as non-ASCII. */
static bool word_needs_encoding(const char *w, size_t n)
{
	char *s = xstrndup(w, n);
	bool yes = !is_ascii(s) || strstr(s, "=?");

	free(s);
	return yes;
}

void mail_header(pb_str *out, const char *name, const char *value)
{
	char *text = visible(value);
	const char *p = text;
	pb_str v;

	str_init(&v);
	/* a run of words to encode is encoded as one, so that the spaces
	 * between them (dropped between two encoded words) are kept */
	while (*(p += strspn(p, " "))) {
		size_t n = strcspn(p, " "), run = n;
		char *words;

		if (!word_needs_encoding(p, n)) {
			str_addn(&v, p, n);
		} else {
			for (;;) {
				size_t gap = strspn(p + run, " "), next = strcspn(p + run + gap, " ");

				if (!next || !word_needs_encoding(p + run + gap, next))
					break;
				run += gap + next;
			}
			words = xstrndup(p, run);
			add_encoded_words(&v, words);
			free(words);
		}
		str_add(&v, " ");
		p += run;
	}
	header_folded(out, name, v.buf);
	str_free(&v);
	free(text);
}

void mail_address_free(struct mail_address *a)
{
	free(a->name);
	free(a->addr);
	memset(a, 0, sizeof(*a));
}

void mail_addresses_free(struct mail_address *v, int n)
{
	for (int i = 0; i < n; i++)
		mail_address_free(&v[i]);
	free(v);
}

/* local@domain in ASCII, without spaces or specials: one an MTA takes. */
static bool addr_spec_ok(const char *s)
{
	const char *at = strchr(s, '@');
	size_t n = strlen(s);

	if (n < 3 || n > 254 || !at || at == s || !at[1] || at[1] == '.' || s[n - 1] == '.' ||
	    strchr(at + 1, '@'))
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f || strchr("<>()[]\\,;:\"", *s))
			return false;
	return true;
}

/* A name without its quotes and their backslashes. */
static char *unquote(char *name)
{
	size_t n = strlen(name), k = 0;

	if (n < 2 || name[0] != '"' || name[n - 1] != '"')
		return xstrdup(name);
	name[n - 1] = '\0';
	for (char *s = name + 1; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		name[k++] = *s;
	}
	name[k] = '\0';
	return xstrdup(name);
}

bool mail_address_parse(const char *text, struct mail_address *a)
{
	char *copy = xstrdup(text), *s = trim(copy), *lt = strrchr(s, '<'), *gt;

	memset(a, 0, sizeof(*a));
	if (lt && (gt = strchr(lt, '>'))) {
		*gt = '\0';
		a->addr = xstrdup(lt + 1);
		*lt = '\0';
		a->name = unquote(trim(s));
	} else {
		/* "a@b (comment)", "a@b # 5.10": the address is the first word */
		s[strcspn(s, " \t")] = '\0';
		a->addr = xstrdup(s);
		a->name = xstrdup("");
	}
	free(copy);
	if (addr_spec_ok(a->addr))
		return true;
	mail_address_free(a);
	return false;
}

bool mail_address_list(const char *text, struct mail_address **v, int *n, pb_err *err)
{
	const char *p = text;

	*n = 0;
	if (v)
		*v = NULL;
	while (*p) {
		size_t len = 0;
		bool quoted = false;
		char *entry, *e;

		for (; p[len] && (quoted || p[len] != ','); len++) {
			if (p[len] == '"')
				quoted = !quoted;
			else if (quoted && p[len] == '\\' && p[len + 1])
				len++;
		}
		entry = xstrndup(p, len);
		e = trim(entry);
		if (*e) {
			struct mail_address a;

			if (!mail_address_parse(e, &a)) {
				pb_seterr(err, "'%.100s' is not a mail address", e);
				free(entry);
				if (v)
					mail_addresses_free(*v, *n);
				return false;
			}
			if (v) {
				*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
				(*v)[*n] = a;
			} else {
				mail_address_free(&a);
			}
			(*n)++;
		}
		free(entry);
		p += len + (p[len] == ',');
	}
	return true;
}

/* A display name as a header carries it: words as they are, quoted when it
 * holds a special, encoded when it is not ASCII. A list folds between its
 * addresses (and between a long name's encoded words), not inside a name. */
static void add_phrase(pb_str *v, const char *name)
{
	static const char atext[] = "!#$%&'*+-/=?^_`{|}~ ";
	bool plain = true;

	if (!is_ascii(name) || strstr(name, "=?")) {
		add_encoded_words(v, name);
		return;
	}
	for (const char *s = name; *s; s++)
		plain &= (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || strchr(atext, *s);
	if (plain) {
		for (const char *s = name; *s; s++)
			str_addn(v, *s == ' ' ? (const char[]){ NOFOLD } : s, 1);
		return;
	}
	str_add(v, "\"");
	for (const char *s = name; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_add(v, "\\");
		str_addn(v, *s == ' ' ? (const char[]){ NOFOLD } : s, 1);
	}
	str_add(v, "\"");
}

/* The addresses as a header's value: "Name <addr>, addr, ...". */
static char *address_value(const struct mail_address *v, int n)
{
	pb_str s;

	str_init(&s);
	for (int i = 0; i < n; i++) {
		if (v[i].name[0]) {
			add_phrase(&s, v[i].name);
			str_addf(&s, "%c<%s>", NOFOLD, v[i].addr);
		} else {
			str_add(&s, v[i].addr);
		}
		str_add(&s, i + 1 < n ? ", " : "");
	}
	return str_steal(&s);
}

/* One address from text that came from input: made one line first, its
 * name cut to 100 characters so that no header line passes 998. */
static bool address_from_input(const char *text, struct mail_address *a)
{
	char *v = visible(text);
	bool ok = mail_address_parse(v, a);

	if (ok)
		a->name[bytes_of_columns(a->name, strlen(a->name), 100)] = '\0';
	free(v);
	return ok;
}

/* Appends a to the Cc list unless it is there, or is From or To. */
static void cc_add(struct mail_address **cc, int *n, struct mail_address *a,
		   const struct mail_address *from, const struct mail_address *to)
{
	bool seen = !strcasecmp(a->addr, from->addr) || !strcasecmp(a->addr, to->addr);

	for (int i = 0; i < *n && !seen; i++)
		seen = !strcasecmp((*cc)[i].addr, a->addr);
	if (seen) {
		mail_address_free(a);
		return;
	}
	*cc = xrealloc(*cc, sizeof(**cc) * (size_t)(*n + 1));
	(*cc)[(*n)++] = *a;
}

/* The trailers' addresses (sign-offs, then Cc:), then the list's. */
static bool cc_list(const struct mail_patch_input *in, const struct mail_address *from,
		    const struct mail_address *to, struct mail_address **cc, int *n, pb_err *err)
{
	struct mail_address *list, a;
	int nlist;

	*cc = NULL;
	*n = 0;
	for (int i = 0; in->queued && i < in->queued->nsignoffs + in->queued->nccs; i++) {
		int k = i - in->queued->nsignoffs;

		if (address_from_input(k < 0 ? in->queued->signoffs[i] : in->queued->ccs[k], &a))
			cc_add(cc, n, &a, from, to);
	}
	if (!mail_address_list(in->list_cc, &list, &nlist, err))
		return false;
	for (int i = 0; i < nlist; i++)
		cc_add(cc, n, &list[i], from, to);
	free(list);
	return true;
}

/* A Message-ID a reply may name: <left@right>, printable ASCII, no spaces. */
static bool message_id_ok(const char *id)
{
	size_t n = strlen(id);

	if (n < 5 || n > 250 || id[0] != '<' || id[n - 1] != '>' || !strchr(id, '@'))
		return false;
	for (size_t i = 1; i < n - 1; i++)
		if (id[i] <= 0x20 || id[i] >= 0x7f || id[i] == '<' || id[i] == '>')
			return false;
	return true;
}

/* The patch's subject as its mail had it: "[PATCH 5.13 771/800] ...". */
static char *patch_subject(const struct patch_page_row *r)
{
	int width = snprintf(NULL, 0, "%d", r->total);

	if (r->total <= 0)
		return xasprintf("[PATCH%s%s] %s", r->series[0] ? " " : "", r->series, r->subject);
	return xasprintf("[PATCH%s%s %0*d/%d] %s", r->series[0] ? " " : "", r->series, width,
			 r->number, r->total, r->subject);
}

static void headers(pb_str *out, const struct mail_patch_input *in, const struct mail_address *from,
		    const struct mail_address *to, const struct mail_address *cc, int ncc)
{
	const struct patch_page_row *r = in->row;
	char *v, *subject = patch_subject(r), *idtext, date[64], hex[65];
	struct tm tm;

	v = address_value(from, 1);
	header_folded(out, "From", v);
	free(v);
	v = address_value(to, 1);
	header_folded(out, "To", v);
	free(v);
	if (ncc) {
		v = address_value(cc, ncc);
		header_folded(out, "Cc", v);
		free(v);
	}
	v = xasprintf("Re: %s", subject);
	mail_header(out, "Subject", v);
	free(v);
	gmtime_r(&in->date, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	header_folded(out, "Date", date);
	/* the same comparison's mail has the same id, whenever it is written */
	idtext = xasprintf("perfbot mail\n%lld\n%s\n%s", in->comparison_id, r->sha256, r->started_at);
	sha256_buf(idtext, strlen(idtext), hex);
	v = xasprintf("<perfbot-%03d-c%lld-%.16s@perfbot>", r->number, in->comparison_id, hex);
	header_folded(out, "Message-ID", v);
	free(v);
	free(idtext);
	if (message_id_ok(r->message_id)) {
		header_folded(out, "In-Reply-To", r->message_id);
		header_folded(out, "References", r->message_id);
	}
	str_add(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
		     "Content-Transfer-Encoding: 8bit\n\n");
	free(subject);
}

void mail_metrics_add(struct mail_metrics *m, const struct result_row *r)
{
	struct mail_metric *x;

	m->v = xrealloc(m->v, sizeof(*m->v) * (size_t)(m->n + 1));
	x = &m->v[m->n++];
	x->name = xasprintf("%s.%s", r->workload, r->metric);
	x->unit = xstrdup(r->unit);
	x->verdict = verdict_from_name(r->verdict);
	x->without = r->median_without;
	x->with = r->median_with;
	x->change_pct = r->change_pct;
	x->ci_lo_pct = r->ci_lo_pct;
	x->ci_hi_pct = isnan(r->ci_lo_pct) ? NAN : r->ci_hi_pct;
}

void mail_metrics_free(struct mail_metrics *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].unit);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* What a reader must look at: the notable verdicts, and one more boots
 * may still decide. */
static bool metric_changed(const struct mail_metric *m)
{
	return verdict_is_notable(m->verdict) || m->verdict == VERDICT_INCONCLUSIVE;
}

/* The ranking of verdict.h, most pressing first, then the larger change. */
static int by_rank(const void *a, const void *b)
{
	const struct mail_metric *x = *(const struct mail_metric *const *)a;
	const struct mail_metric *y = *(const struct mail_metric *const *)b;
	double cx = isnan(x->change_pct) ? -1 : fabs(x->change_pct);
	double cy = isnan(y->change_pct) ? -1 : fabs(y->change_pct);

	if (x->verdict != y->verdict)
		return x->verdict < y->verdict ? 1 : -1;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The changed metrics, most pressing first; *n of them. */
static const struct mail_metric **changed_metrics(const struct mail_metrics *m, int *n)
{
	const struct mail_metric **v = xcalloc((size_t)m->n + 1, sizeof(*v));

	*n = 0;
	for (int i = 0; i < m->n; i++)
		if (metric_changed(&m->v[i]))
			v[(*n)++] = &m->v[i];
	qsort(v, (size_t)*n, sizeof(*v), by_rank);
	return v;
}

/* A change in percent in a few columns, never in e-notation below 1000%. */
static void fmt_pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fabs(v) < 1000 ? "%+.1f%%" : "%+.2g%%", v);
}

/* A median in at most 11 columns. */
static void fmt_value(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) < 1e9 && (fabs(v) >= 1000 || v == floor(v)))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* The body's first line: the most pressing thing the comparison found. */
static char *summary(const struct patch_page_row *r, const struct mail_metric *top,
		     const char *subject)
{
	char pct[32], *name = top ? visible(top->name) : NULL, *s;

	fmt_pct(pct, sizeof(pct), top ? top->change_pct : NAN);
	if (!strcmp(r->status, "build-failed"))
		s = xasprintf("perfbot could not build the kernel %s the patch:",
			      !strcmp(r->kernel[1].build_status, "built") ? "without" : "with");
	else if (!strcmp(r->status, "boot-failed"))
		s = xstrdup("perfbot found no boot of a kernel that came out ok on:");
	else if (!top)
		s = xasprintf("perfbot found no regression in %s", subject);
	else if (top->verdict == VERDICT_REGRESSION || top->verdict == VERDICT_IMPROVEMENT)
		s = xasprintf("perfbot noticed a %s%s%s of %s on:", isnan(top->change_pct) ? "" : pct,
			      isnan(top->change_pct) ? "" : " ", verdict_name(top->verdict), name);
	else if (top->verdict == VERDICT_BEHAVIOUR_CHANGE)
		s = xasprintf("perfbot noticed a behaviour change of %s on:", name);
	else
		s = xasprintf("perfbot could not decide whether %s changed on:", name);
	free(name);
	return s;
}

/* "key:" and its value, wrapped under a 10-column hanging indent. */
static void kv(pb_str *out, const char *key, const char *value)
{
	char first[16], *v = visible(value);

	snprintf(first, sizeof(first), "%-9s ", key);
	mail_wrap(out, first, "          ", v);
	free(v);
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The table of what changed: the metric on its line (wrapped, never past
 * 72 columns), its numbers under it; then how many did not change. */
static void metrics_table(pb_str *out, const struct mail_patch_input *in,
			  const struct mail_metric *const *changed, int nchanged)
{
	static const char row_fmt[] = "%11s %11s %8s  %-16s";
	int counts[VERDICT_COUNT] = { 0 }, nother = 0;
	char line[256];

	if (nchanged) {
		str_addf(out, "%d+%d boots of %d iteration(s), the medians of the boots:\n\n",
			 in->row->boots_per_kernel, in->row->boots_per_kernel, in->row->iterations);
		snprintf(line, sizeof(line), row_fmt, "without", "with", "change", "95% CI");
		str_addf(out, "%s  verdict\n", line);
	}
	for (int i = 0; i < nchanged; i++) {
		const struct mail_metric *m = changed[i];
		char a[32], b[32], c[32], lo[32], hi[32], ci[80] = "-";
		char *name = xasprintf("%s (%s)", m->name, m->unit), *vname = visible(name);

		fmt_value(a, sizeof(a), m->without);
		fmt_value(b, sizeof(b), m->with);
		fmt_pct(c, sizeof(c), m->change_pct);
		if (!isnan(m->ci_lo_pct)) {
			fmt_pct(lo, sizeof(lo), m->ci_lo_pct);
			fmt_pct(hi, sizeof(hi), m->ci_hi_pct);
			snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		}
		mail_wrap(out, "", "  ", vname);
		snprintf(line, sizeof(line), row_fmt, a, b, c, ci);
		/* numbers too wide for the verdict beside them: it goes below */
		if (strlen(line) + 2 + strlen(verdict_name(m->verdict)) > MAIL_BODY_COLUMNS)
			str_addf(out, "%s\n%38s  %s\n", line, "", verdict_name(m->verdict));
		else
			str_addf(out, "%s  %s\n", line, verdict_name(m->verdict));
		free(name);
		free(vname);
	}
	for (int i = 0; i < in->metrics->n; i++)
		if (!metric_changed(&in->metrics->v[i])) {
			counts[in->metrics->v[i].verdict]++;
			nother++;
		}
	if (nother) {
		pb_str s;

		str_init(&s);
		str_addf(&s, "%s%d metric(s):", nchanged ? "The other " : "", nother);
		for (int v = VERDICT_COUNT - 1, k = 0; v >= 0; v--)
			if (counts[v])
				str_addf(&s, "%s %d %s", k++ ? "," : "", counts[v], verdict_name((enum verdict)v));
		str_add(&s, ".");
		str_add(out, nchanged ? "\n" : "");
		mail_wrap(out, "", "", s.buf);
		str_free(&s);
	}
}

/* The kernels: base, .config, what each side applied, the pair. */
static void kernels(pb_str *out, const struct patch_page_row *r)
{
	char *v;

	v = xasprintf("%s, .config %.12s", r->base_version, r->config_sha256);
	kv(out, "base:", v);
	free(v);
	v = r->port_file[0] ? xasprintf("%s, %s", r->kernel[0].label, basename_of(r->port_file))
			    : xstrdup(r->kernel[0].label);
	kv(out, "without:", v);
	free(v);
	kv(out, "with:", r->kernel[1].label);
	v = xasprintf("%s: %s", r->pair_method, r->pair_detail);
	kv(out, "pair:", v);
	free(v);
	kv(out, "file:", basename_of(r->file));
}

/* perfbot run with what makes the run the same: the seed, the accelerator,
 * a schedule other than a fresh config.ini's; continued with '\' before 72. */
static void reproduce(pb_str *out, const struct patch_page_row *r)
{
	char *opt[5], *accel = visible(r->accel);
	int nopt = 0;
	size_t col;

	str_add(out, "To reproduce, in a perfbot checkout with this queue:\n\n");
	col = (size_t)snprintf(NULL, 0, "  perfbot run --patch %d", r->number);
	str_addf(out, "  perfbot run --patch %d", r->number);
	opt[nopt++] = xasprintf("-c run.seed=%lld", r->seed);
	if (accel[0])
		opt[nopt++] = xasprintf("-c qemu.accel=%s", accel);
	/* a run takes more boots while a metric is undecided: only fewer than
	 * a fresh config.ini's tells that run.boots was set */
	if (r->boots_per_kernel < CONFIG_DEFAULT_BOOTS)
		opt[nopt++] = xasprintf("-c run.boots=%d", r->boots_per_kernel);
	if (r->iterations != CONFIG_DEFAULT_ITERATIONS)
		opt[nopt++] = xasprintf("-c run.iterations=%d", r->iterations);
	if (r->warmup != CONFIG_DEFAULT_WARMUP)
		opt[nopt++] = xasprintf("-c run.warmup=%d", r->warmup);
	for (int i = 0; i < nopt; i++) {
		size_t w = columns(opt[i], strlen(opt[i]));

		if (col + 1 + w > MAIL_BODY_COLUMNS - 2) {
			str_add(out, " \\\n     ");
			col = 5;
		}
		str_addf(out, " %s", opt[i]);
		col += 1 + w;
		free(opt[i]);
	}
	str_add(out, "\n");
	free(accel);
}

static void body(pb_str *out, const struct mail_patch_input *in)
{
	const struct patch_page_row *r = in->row;
	int nchanged;
	const struct mail_metric **changed = changed_metrics(in->metrics, &nchanged);
	char *subject = patch_subject(r), *vsubject = visible(subject), *plain = visible(r->subject);
	char *line = summary(r, nchanged ? changed[0] : NULL, plain), *v;

	mail_wrap(out, "", "", line);
	str_add(out, "\n");
	kv(out, "patch:", vsubject);
	kv(out, "author:", r->author);
	v = xasprintf("%.12s", r->upstream[0] ? r->upstream : "(not named)");
	kv(out, "upstream:", v);
	free(v);
	str_add(out, "\n");
	metrics_table(out, in, changed, nchanged);
	str_add(out, "\n");
	v = xasprintf("%s%s%s", r->accel[0] ? r->accel : "(nothing booted)", r->accel_reason[0] ? ": " : "",
		      r->accel_reason);
	kv(out, "accel:", v);
	free(v);
	v = report_statistics(r);
	kv(out, "how:", v);
	free(v);
	str_add(out, "\n");
	kernels(out, r);
	str_add(out, "\n");
	reproduce(out, r);
	if (in->report_url[0]) {
		size_t n = strlen(in->report_url);

		while (n && in->report_url[n - 1] == '/')
			n--;
		v = xasprintf("%.*s/%03d.html", (int)n, in->report_url, r->number);
		str_add(out, "\nThe report, with every sample and boot:\n\n");
		mail_wrap(out, "  ", "  ", v);
		free(v);
	}
	v = xasprintf("perfbot %s, comparison %lld, finished %s", r->perfbot_version, in->comparison_id,
		      r->finished_at);
	str_add(out, "\n-- \n");
	mail_wrap(out, "", "", v);
	free(v);
	free(line);
	free(plain);
	free(vsubject);
	free(subject);
	free(changed);
}

bool mail_patch_message(const struct mail_patch_input *in, pb_str *out, pb_err *err)
{
	struct mail_address from, to, *cc = NULL;
	int ncc = 0;
	bool ok;

	if (!address_from_input(in->from, &from)) {
		pb_seterr(err, "[mail] from: '%.100s' is not a mail address", in->from);
		return false;
	}
	if (!address_from_input(in->row->author, &to)) {
		pb_seterr(err, "patch %d: its author '%.100s' has no mail address to answer",
			  in->row->number, in->row->author);
		mail_address_free(&from);
		return false;
	}
	ok = cc_list(in, &from, &to, &cc, &ncc, err);
	if (ok) {
		headers(out, in, &from, &to, cc, ncc);
		body(out, in);
	}
	mail_addresses_free(cc, ncc);
	mail_address_free(&from);
	mail_address_free(&to);
	return ok;
}
