/* thp-anon: anonymous transparent huge pages (mm/huge_memory.c,
 * mm/khugepaged.c): faults with THP "always" and with "madvise" +
 * MADV_HUGEPAGE, MADV_COLLAPSE of memory faulted as small pages, and a
 * khugepaged collapse of such memory.
 *
 * Metrics per iteration: fault times per GiB, collapse times, and the deltas
 * of thp_fault_alloc, thp_fault_fallback, thp_collapse_alloc and the
 * mapping's AnonHugePages. khugepaged's time comes from the kernel's trace
 * events, not from polling for the result. The run is valid only if THP
 * faults really happened and both collapses produced huge pages.
 * Output: PB1 sample / check lines as in workloads/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NAME "thp-anon"
#include "workload.h"
#define HPAGE (2UL << 20)
#define THP "/sys/kernel/mm/transparent_hugepage/"
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* A 2 MiB-aligned anonymous mapping of size bytes. */
static unsigned char *map_aligned(size_t size, void **reserve)
{
	unsigned char *r = mmap(NULL, size + HPAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	unsigned char *p;

	if (r == MAP_FAILED)
		return NULL;
	p = (unsigned char *)(((uintptr_t)r + HPAGE - 1) & ~(HPAGE - 1));
	/* trim both ends so the mapping starts at p: smaps then shows it alone */
	if (p > r)
		munmap(r, (size_t)(p - r));
	if (p + size < r + size + HPAGE)
		munmap(p + size, (size_t)(r + size + HPAGE - (p + size)));
	*reserve = p;
	return p;
}

/* khugepaged's collapses as the kernel traces them (huge_memory:
 * mm_collapse_huge_page). Its time is read off the trace clock, from a
 * marker written as the scan starts to the collapse that completed the
 * region. Polling smaps for the result instead rounds the time up to the
 * next poll, a whole poll period (a boot's median jumped by ~4% between two
 * values), and the poller steals the one vCPU from khugepaged at moments
 * that vary. The reader of trace_pipe wakes once per event: the same
 * number of times in every boot. */
struct collapse_trace {
	char dir[40];
	int pipe;
	char buf[8192];
	size_t len;
	double mark_s, last_s;  /* trace clock, seconds */
	int succeeded;          /* collapses since the mark */
};

static int trace_write(const struct collapse_trace *t, const char *file, const char *s)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", t->dir, file);
	return pb_write_str(path, s);
}

/* The trace clock's reading of a line, just before its ": event:". */
static double trace_line_seconds(const char *line, const char *event_at)
{
	const char *p = event_at;

	while (p > line && p[-1] != ' ')
		p--;
	return strtod(p, NULL);
}

static int collapse_trace_open(struct collapse_trace *t)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[128];
	int fd;

	memset(t, 0, sizeof(*t));
	t->pipe = -1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !t->dir[0]; i++) {
		snprintf(path, sizeof(path), "%s/trace_marker", dirs[i]);
		if (access(path, W_OK) == 0)
			snprintf(t->dir, sizeof(t->dir), "%s", dirs[i]);
	}
	if (!t->dir[0])
		return 0;
	if (!trace_write(t, "events/huge_memory/mm_collapse_huge_page/enable", "1") ||
	    !trace_write(t, "tracing_on", "1"))
		return 0;
	/* empty the buffer: what trace_pipe gives is then ours */
	snprintf(path, sizeof(path), "%s/trace", t->dir);
	if ((fd = open(path, O_WRONLY | O_TRUNC)) < 0)
		return 0;
	close(fd);
	snprintf(path, sizeof(path), "%s/trace_pipe", t->dir);
	t->pipe = open(path, O_RDONLY | O_NONBLOCK);
	return t->pipe >= 0;
}

static void collapse_trace_close(struct collapse_trace *t)
{
	if (t->pipe >= 0)
		close(t->pipe);
	t->pipe = -1;
	if (t->dir[0])
		trace_write(t, "events/huge_memory/mm_collapse_huge_page/enable", "0");
}

static void collapse_trace_line(struct collapse_trace *t, const char *line)
{
	const char *at;

	if ((at = strstr(line, ": tracing_mark_write: perfbot khugepaged start")))
		t->mark_s = trace_line_seconds(line, at);
	else if ((at = strstr(line, ": mm_collapse_huge_page: ")) && t->mark_s > 0 &&
		 strstr(at, "status=succeeded")) {
		t->last_s = trace_line_seconds(line, at);
		t->succeeded++;
	}
}

/* Read events until at least want collapses succeeded after the mark, or
 * until the monotonic clock passes deadline_ms. 1 when they did. */
static int collapse_trace_wait(struct collapse_trace *t, int want, double deadline_ms)
{
	while (t->succeeded < want) {
		struct pollfd pfd = { .fd = t->pipe, .events = POLLIN };
		double left = deadline_ms - pb_now_ms();
		ssize_t n;
		char *nl;

		if (left <= 0)
			return 0;
		if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left + 1) < 0 && errno != EINTR)
			return 0;
		n = read(t->pipe, t->buf + t->len, sizeof(t->buf) - 1 - t->len);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return 0;
		t->len += n > 0 ? (size_t)n : 0;
		t->buf[t->len] = '\0';
		while ((nl = strchr(t->buf, '\n'))) {
			*nl = '\0';
			collapse_trace_line(t, t->buf);
			t->len -= (size_t)(nl + 1 - t->buf);
			memmove(t->buf, nl + 1, t->len + 1);
		}
		if (t->len == sizeof(t->buf) - 1)
			t->len = 0; /* a line longer than the buffer: no event of ours */
	}
	return 1;
}

static double touch(unsigned char *p, size_t size)
{
	double t0 = pb_now_ms();

	for (size_t off = 0; off < size; off += 4096)
		p[off] = 1;
	return pb_now_ms() - t0;
}

int main(int argc, char **argv)
{
	size_t size = 32UL << 20;
	int iterations = 3;
	double khugepaged_timeout_ms = 20000;
	long total_fault_alloc = 0, total_collapse = 0, total_khugepaged = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size-mb") && i + 1 < argc)
			size = strtoul(argv[++i], NULL, 10) << 20;
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iterations = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--khugepaged-timeout-ms") && i + 1 < argc)
			khugepaged_timeout_ms = atof(argv[++i]);
		else {
			fprintf(stderr, "usage: " NAME " [--size-mb N] [--iterations N] [--khugepaged-timeout-ms N]\n");
			return 2;
		}
	}
	if (iterations < 1 || size < HPAGE || size % HPAGE || size > (4UL << 30)) {
		fprintf(stderr, NAME ": bad arguments (size: a multiple of 2 MiB)\n");
		return 2;
	}
	if (pb_vmstat("thp_fault_alloc") < 0)
		return pb_invalid("no thp_* counters in /proc/vmstat");
	if (!pb_write_str(THP "khugepaged/alloc_sleep_millisecs", "0") ||
	    !pb_write_str(THP "khugepaged/pages_to_scan", "4096"))
		return pb_invalid("cannot tune khugepaged in sysfs: %s", strerror(errno));

	for (int it = 1; it <= iterations; it++) {
		const double gib = (double)size / (1UL << 30);
		const char *modes[2] = { "always", "madvise" };
		void *res;
		unsigned char *p;

		for (int m = 0; m < 2; m++) {
			long a0 = pb_vmstat("thp_fault_alloc"), f0 = pb_vmstat("thp_fault_fallback");
			char metric[64];
			double ms;

			if (!pb_write_str(THP "enabled", modes[m]))
				return pb_invalid("cannot set THP enabled: %s", modes[m]);
			if (!(p = map_aligned(size, &res)))
				return pb_invalid("mmap failed: %s", strerror(errno));
			if (m == 1 && madvise(p, size, MADV_HUGEPAGE) != 0)
				return pb_invalid("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
			ms = touch(p, size);
			snprintf(metric, sizeof(metric), "fault_%s_ms_per_gib", modes[m]);
			pb_sample(it, metric, ms / gib);
			snprintf(metric, sizeof(metric), "thp_fault_alloc_%s", modes[m]);
			pb_sample(it, metric, (double)(pb_vmstat("thp_fault_alloc") - a0));
			total_fault_alloc += pb_vmstat("thp_fault_alloc") - a0;
			snprintf(metric, sizeof(metric), "thp_fault_fallback_%s", modes[m]);
			pb_sample(it, metric, (double)(pb_vmstat("thp_fault_fallback") - f0));
			snprintf(metric, sizeof(metric), "anon_huge_kb_%s", modes[m]);
			pb_sample(it, metric, (double)pb_smaps_field(p, "AnonHugePages"));
			munmap(res, size);
		}

		/* Small pages first (madvise mode, no advice), then MADV_COLLAPSE. */
		{
			long c0 = pb_vmstat("thp_collapse_alloc");
			double t0, ms;
			int rc;

			if (!(p = map_aligned(size, &res)))
				return pb_invalid("mmap failed: %s", strerror(errno));
			touch(p, size);
			t0 = pb_now_ms();
			rc = madvise(p, size, MADV_COLLAPSE);
			ms = pb_now_ms() - t0;
			if (rc == 0)
				pb_sample(it, "madv_collapse_ms", ms);
			pb_sample(it, "madv_collapse_errno", rc ? (double)errno : 0);
			pb_sample(it, "thp_collapse_alloc_madv", (double)(pb_vmstat("thp_collapse_alloc") - c0));
			pb_sample(it, "anon_huge_kb_collapsed", (double)pb_smaps_field(p, "AnonHugePages"));
			if (rc == 0 && pb_smaps_field(p, "AnonHugePages") > 0)
				total_collapse++;
			munmap(res, size);
		}

		/* Small pages, then MADV_HUGEPAGE: khugepaged collapses them. */
		{
			long c0 = pb_vmstat("thp_collapse_alloc"), kb = 0;
			const int want = (int)(size / HPAGE);
			struct collapse_trace tr;
			double deadline;
			long before;
			int done = 0;

			if (!(p = map_aligned(size, &res)))
				return pb_invalid("mmap failed: %s", strerror(errno));
			touch(p, size);
			if (madvise(p, size, MADV_HUGEPAGE) != 0)
				return pb_invalid("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
			if (!collapse_trace_open(&tr) ||
			    !trace_write(&tr, "trace_marker", "perfbot khugepaged start")) {
				int e = errno;

				collapse_trace_close(&tr);
				return pb_invalid("cannot trace huge_memory:mm_collapse_huge_page in tracefs "
						  "(CONFIG_FTRACE): %s", strerror(e));
			}
			/* what khugepaged's own timer collapsed before the mark */
			before = pb_smaps_field(p, "AnonHugePages");
			/* Scan without pauses only now: a khugepaged busy in the
			 * background would steal the one vCPU from the fault timings. */
			if (!pb_write_str(THP "khugepaged/scan_sleep_millisecs", "0")) {
				int e = errno;

				collapse_trace_close(&tr);
				return pb_invalid("cannot tune khugepaged in sysfs: %s", strerror(e));
			}
			/* the collapses left to do, unless one was of another
			 * mapping: then more */
			deadline = pb_now_ms() + khugepaged_timeout_ms;
			for (int n = want - (int)((before > 0 ? before : 0) / (HPAGE >> 10)); !done &&
			     collapse_trace_wait(&tr, n, deadline); n++)
				done = (kb = pb_smaps_field(p, "AnonHugePages")) >= (long)(size >> 10);
			pb_write_str(THP "khugepaged/scan_sleep_millisecs", "10000");
			collapse_trace_close(&tr);
			if (!done)
				kb = pb_smaps_field(p, "AnonHugePages");
			/* no collapse after the mark: nothing was timed */
			if (done && tr.mark_s > 0 && tr.succeeded > 0) {
				pb_sample(it, "khugepaged_ms", (tr.last_s - tr.mark_s) * 1e3);
				total_khugepaged++;
			}
			pb_sample(it, "thp_collapse_alloc_khugepaged", (double)(pb_vmstat("thp_collapse_alloc") - c0));
			pb_sample(it, "anon_huge_kb_khugepaged", (double)kb);
			munmap(res, size);
		}
	}
	pb_write_str(THP "enabled", "madvise");
	if (total_fault_alloc <= 0)
		return pb_invalid("no THP was allocated at fault time (thp_fault_alloc did not rise)");
	if (!total_collapse)
		return pb_invalid("MADV_COLLAPSE made no huge page");
	if (!total_khugepaged)
		return pb_invalid("khugepaged did not collapse the region in time");
	printf("PB1 check " NAME " ok thp_fault_alloc +%ld, %ld MADV_COLLAPSE and %ld khugepaged collapses\n",
	       total_fault_alloc, total_collapse, total_khugepaged);
	return 0;
}
