/* What a boot ended as, from what it left: the results port, the console
 * (a panic's text), QEMU's own output and exit. */
#include "outcome.h"

#include <stdlib.h>
#include <string.h>

/* The panic and what led to it: from the start of the last oops or BUG
 * report before "Kernel panic" (where the culprit is named), or the 25 lines
 * before it, to the panic line. */
static char *panic_text(const char *console)
{
	static const char *const starts[] = { "------------[ cut here ]", "kernel BUG at", "BUG: ",
					      "Oops: " };
	const char *hit = strstr(console, "Kernel panic - not syncing");
	const char *start = NULL, *end;
	int lines = 0;

	if (!hit)
		return NULL;
	/* each marker's last appearance in the 16 KiB before the panic; the
	 * earliest of those opens the report */
	for (size_t i = 0; i < PB_ARRAY_SIZE(starts); i++) {
		const char *from = hit - console > 16384 ? hit - 16384 : console, *last = NULL;

		for (const char *at = strstr(from, starts[i]); at && at < hit; at = strstr(at + 1, starts[i]))
			last = at;
		if (last && (!start || last < start))
			start = last;
	}
	if (!start) {
		for (start = hit; start > console && lines < 25; start--)
			if (start[-1] == '\n')
				lines++;
		/* an early panic: what the decompressor printed before the
		 * kernel's banner says nothing of it */
		for (const char *at = strstr(start, "Linux version "); at && at < hit;
		     at = strstr(at + 1, "Linux version "))
			start = at;
	}
	while (start > console && start[-1] != '\n')
		start--;
	end = strchr(hit, '\n');
	if (!end)
		end = hit + strlen(hit);
	return xstrndup(start, (size_t)(end - start));
}

char *crash_headline(const char *detail)
{
	static const char *const markers[] = { "kernel BUG at", "BUG: ", "Oops: ",
					       "general protection fault", "WARNING: ",
					       "Kernel panic - not syncing" };
	const char *first = NULL, *end;

	for (size_t i = 0; i < PB_ARRAY_SIZE(markers); i++) {
		const char *at = strstr(detail, markers[i]);

		if (at && (!first || at < first))
			first = at;
	}
	if (first) {
		while (first > detail && first[-1] != '\n')
			first--;
	} else
		first = detail + strspn(detail, "\r\n");
	/* "[    0.390281] " */
	if (*first == '[' && (end = strchr(first, ']')) && !memchr(first, '\n', (size_t)(end - first)))
		first = end + 1 + (end[1] == ' ');
	end = first + strcspn(first, "\r\n");
	return xstrndup(first, (size_t)(end - first));
}

static char *tail_text(const char *text, size_t max)
{
	size_t n = strlen(text);

	return xstrdup(n > max ? text + n - max : text);
}

/* The guest's last line on the results port ("" if none), at most 120
 * bytes: where a quiet guest stopped, when its console says nothing. */
static char *last_result_line(const char *results, size_t rlen)
{
	size_t end = rlen, start;

	while (end && (results[end - 1] == '\n' || results[end - 1] == '\r'))
		end--;
	start = end;
	while (start && results[start - 1] != '\n' && end - start < 120)
		start--;
	return xstrndup(results + start, end - start);
}

void boot_classify(struct boot_record *br, const struct guest_plan *gp, const char *console,
		   const char *results, size_t rlen, const char *qemu_log, bool timed_out,
		   int qemu_status, int timeout_s)
{
	pb_err err;
	char *tail;

	if (!results_parse(results, rlen, &br->results, &err)) {
		/* A guest that floods the port: its boot is invalid, not our crash. */
		br->outcome = BOOT_INVALID;
		br->detail = xasprintf("results port: %s", err.msg);
	} else if (br->results.done) {
		pb_str why;

		str_init(&why);
		br->outcome = BOOT_OK;
		if (br->results.setup_failure) {
			br->outcome = BOOT_INVALID;
			str_addf(&why, "guest set-up failed: %s", br->results.setup_failure);
		}
		for (int i = 0; i < gp->nworkloads; i++) {
			const struct workload_result *wr =
				results_workload(&br->results, gp->workloads[i]->binary);

			if (!wr || !wr->ended || !wr->checked || !wr->ok || wr->exit_status != 0) {
				br->outcome = BOOT_INVALID;
				str_addf(&why, "%s%s: %s", why.len ? "; " : "", gp->workloads[i]->name,
					 !wr ? "did not run" : !wr->checked ? "reported no check"
					 : !wr->ok ? (wr->reason ? wr->reason : boot_outcome_name(BOOT_INVALID))
						   : "exited non-zero");
			}
		}
		br->detail = str_steal(&why);
	} else if ((br->detail = panic_text(console))) {
		br->outcome = BOOT_PANIC;
	} else if (timed_out) {
		char *last = last_result_line(results, rlen);

		br->outcome = BOOT_TIMEOUT;
		tail = tail_text(console, 600);
		br->detail = xasprintf("no 'PB1 done' within %d s%s%s%s; the console ends: %s", timeout_s,
				       last[0] ? ", the guest's last result line '" : "", last,
				       last[0] ? "'" : "", tail[0] ? tail : "(nothing)");
		free(last);
		free(tail);
	} else if (qemu_status != 0) {
		br->outcome = BOOT_QEMU_ERROR;
		tail = tail_text(qemu_log, 600);
		if (qemu_status > 128)
			br->detail = xasprintf("QEMU was killed by signal %d: %s", qemu_status - 128,
					       tail[0] ? tail : "(no output)");
		else
			br->detail = xasprintf("qemu exit %d: %s", qemu_status, tail);
		free(tail);
	} else if (!console[strspn(console, " \t\r\n")]) {
		/* QEMU ended by itself and the kernel printed nothing, not even
		 * to the early console: it reset the machine (a panic, with
		 * CONFIG_PANIC_TIMEOUT=-1, or a triple fault) before that console
		 * was up. */
		br->outcome = BOOT_PANIC;
		br->detail = xstrdup("the kernel reset the machine before it printed a line: it died "
				     "before its early console (decompressor or early setup_arch)");
	} else {
		br->outcome = BOOT_INCOMPLETE;
		tail = tail_text(console, 600);
		br->detail = xasprintf("the guest stopped without reporting done; the console ends: %s",
				       tail[0] ? tail : "(nothing)");
		free(tail);
	}
}

