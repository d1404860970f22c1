/* zswap: the path of stable patch 772 (mm/zswap.c, zswap_writeback_entry()).
 *
 * Runs itself in a memory cgroup limited well below what it allocates, so
 * reclaim pushes its anonymous, compressible pages into zswap; zswap's pool
 * is kept small (zswap.max_pool_percent on the kernel command line), so the
 * pool fills and zswap writes entries back to the swap device. Every page is
 * then read back and checked: data that came back different makes the run
 * invalid.
 *
 * Metrics per iteration: write and read-back times, and the deltas of the
 * zswap debugfs counters and of pswpin/pswpout.
 * Output: PB1 sample / check lines as in workloads/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NAME "zswap"
#include "workload.h"
#define PAGE 4096UL
#define ZSWAP "/sys/kernel/debug/zswap/"
#define CGROOT "/sys/fs/cgroup"
#define CG CGROOT "/perfbot-zswap"

static const char *const counters[] = {
	"stored_pages", "written_back_pages", "pool_limit_hit", "reject_reclaim_fail",
	"reject_alloc_fail", "reject_kmemcache_fail", "reject_compress_poor", "same_filled_pages",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

/* Half of every page is a pattern, half zeros: compressible, never
 * same-filled, so each page really goes through the compressor. */
static void fill_page(unsigned char *p, unsigned long n, int it)
{
	uint32_t x = (uint32_t)(n * 2654435761u) ^ (uint32_t)it;

	for (unsigned long i = 0; i < PAGE / 2; i += 4) {
		x = x * 1103515245u + 12345u;
		memcpy(p + i, &x, 4);
		if (i % 64 == 0)
			x = (uint32_t)n; /* repeats keep it compressible */
	}
	memset(p + PAGE / 2, 0, PAGE / 2);
}

static int page_ok(const unsigned char *p, unsigned long n, int it)
{
	unsigned char want[PAGE];

	fill_page(want, n, it);
	return !memcmp(p, want, PAGE);
}

int main(int argc, char **argv)
{
	unsigned long size_mb = 64, limit_mb = 24;
	int iterations = 2;
	char buf[64];
	long written_back_total = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size-mb") && i + 1 < argc)
			size_mb = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--limit-mb") && i + 1 < argc)
			limit_mb = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iterations = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: " NAME " [--size-mb N] [--limit-mb N] [--iterations N]\n");
			return 2;
		}
	}
	if (iterations < 1 || size_mb < 2 || limit_mb < 1 || limit_mb >= size_mb || size_mb > 4096) {
		fprintf(stderr, NAME ": bad arguments (limit below size)\n");
		return 2;
	}
	if (pb_read_long("/sys/module/zswap/parameters/enabled") < 0 && access(ZSWAP, F_OK) != 0)
		return pb_invalid("no zswap in this kernel (CONFIG_ZSWAP, debugfs)");
	{
		FILE *f = fopen("/sys/module/zswap/parameters/enabled", "r");
		char c = 0;

		if (!f || fread(&c, 1, 1, f) != 1 || c != 'Y') {
			if (f)
				fclose(f);
			return pb_invalid("zswap is not enabled (zswap.enabled=1)");
		}
		fclose(f);
	}
	if (pb_read_long("/proc/sys/vm/swappiness") < 0 || pb_vmstat("pswpout") < 0)
		return pb_invalid("no swap counters in /proc/vmstat");

	/* A memory cgroup below what we touch: reclaim, not the OOM killer of
	 * the whole guest, is what pushes pages out. */
	mkdir(CGROOT, 0755);
	if (mount("none", CGROOT, "cgroup2", 0, NULL) != 0 && errno != EBUSY)
		return pb_invalid("cannot mount cgroup2: %s", strerror(errno));
	if (!pb_write_str(CGROOT "/cgroup.subtree_control", "+memory"))
		return pb_invalid("cannot enable the memory controller: %s", strerror(errno));
	if (mkdir(CG, 0755) != 0 && errno != EEXIST)
		return pb_invalid("cannot create the memory cgroup: %s", strerror(errno));
	snprintf(buf, sizeof(buf), "%lu", limit_mb << 20);
	if (!pb_write_str(CG "/memory.max", buf))
		return pb_invalid("cannot set memory.max: %s", strerror(errno));
	snprintf(buf, sizeof(buf), "%d", (int)getpid());
	if (!pb_write_str(CG "/cgroup.procs", buf))
		return pb_invalid("cannot join the memory cgroup: %s", strerror(errno));

	for (int it = 1; it <= iterations; it++) {
		unsigned long npages = (size_mb << 20) / PAGE, bad = 0;
		long before[NCOUNTERS], in0 = pb_vmstat("pswpin"), out0 = pb_vmstat("pswpout");
		unsigned char *mem;
		double t0, write_ms, read_ms;

		for (size_t c = 0; c < NCOUNTERS; c++) {
			char path[128];

			snprintf(path, sizeof(path), ZSWAP "%s", counters[c]);
			before[c] = pb_read_long(path);
			if (before[c] < 0)
				return pb_invalid("cannot read zswap counter: %s", path);
		}
		mem = mmap(NULL, npages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			return pb_invalid("mmap failed: %s", strerror(errno));
		t0 = pb_now_ms();
		for (unsigned long n = 0; n < npages; n++)
			fill_page(mem + n * PAGE, n, it);
		write_ms = pb_now_ms() - t0;
		t0 = pb_now_ms();
		for (unsigned long n = 0; n < npages; n++)
			bad += !page_ok(mem + n * PAGE, n, it);
		read_ms = pb_now_ms() - t0;

		pb_sample(it, "write_ms", write_ms);
		pb_sample(it, "read_ms", read_ms);
		for (size_t c = 0; c < NCOUNTERS; c++) {
			char path[128];
			long now;

			snprintf(path, sizeof(path), ZSWAP "%s", counters[c]);
			now = pb_read_long(path);
			/* stored_pages is a level, the others are event counts */
			pb_sample(it, counters[c], (double)(c == 0 ? now : now - before[c]));
			if (!strcmp(counters[c], "written_back_pages"))
				written_back_total += now - before[c];
		}
		pb_sample(it, "pswpout", (double)(pb_vmstat("pswpout") - out0));
		pb_sample(it, "pswpin", (double)(pb_vmstat("pswpin") - in0));
		munmap(mem, npages * PAGE);
		if (bad) {
			snprintf(buf, sizeof(buf), "%lu pages", bad);
			return pb_invalid("data read back differs from what was written: %s", buf);
		}
	}
	/* The path of 772 ran only if zswap wrote entries back to swap. */
	if (written_back_total <= 0)
		return pb_invalid("zswap wrote nothing back (written_back_pages did not rise)");
	printf("PB1 check " NAME " ok %ld pages written back by zswap; all data read back intact\n",
	       written_back_total);
	return 0;
}
