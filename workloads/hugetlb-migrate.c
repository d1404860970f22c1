/* hugetlb-migrate: the path of stable patch 771 (mm/migrate.c,
 * unmap_and_move_huge_page()).
 *
 * Maps huge pages bound to one NUMA node, fills them, and moves them to
 * another node and back with move_pages(2), several times, in four cases:
 * anonymous MAP_HUGETLB memory and a hugetlbfs file, each with the hugetlb
 * vmemmap optimisation on and off (vm.hugetlb_optimize_vmemmap, with the
 * pools refilled after each switch so their pages really are optimised or
 * not). A kernel with the pre-fix test page_private(hpage) refuses to
 * migrate anonymous huge pages whose vmemmap is optimised (-EBUSY); a fixed
 * kernel moves them all. File pages have a mapping and are not affected.
 *
 * Metrics carry the case as a prefix: anon_vmemmap_on_pages_migrated, ...
 *
 * Output (one line each, see workloads/README.md):
 *   PB1 sample hugetlb-migrate <iteration> <metric> <value>
 *   PB1 check hugetlb-migrate ok <what ran>
 *   PB1 check hugetlb-migrate invalid <why>
 * Exit status: 0 when the check is ok, 1 when invalid, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NAME "hugetlb-migrate"
#include "workload.h"
#define HPAGE_SIZE (2UL << 20)
#define MPOL_BIND 2
#define MPOL_MF_MOVE (1 << 1)
#define MAX_PAGES 512

/* A /proc/vmstat counter, or -1 when the kernel does not count it. */
static long sys_move_pages(unsigned long count, void **pages, const int *nodes, int *status)
{
	return syscall(SYS_move_pages, 0, count, pages, nodes, status, MPOL_MF_MOVE);
}

/* Where each page is now (status = node, or -errno). */
static int locate(unsigned long n, void **pages, int *where)
{
	return sys_move_pages(n, pages, NULL, where) < 0 ? -1 : 0;
}

static uint64_t checksum(const unsigned char *p, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i += 64)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

static void case_sample(const char *prefix, int iteration, const char *metric, double value)
{
	printf("PB1 sample " NAME " %d %s_%s %.6f\n", iteration, prefix, metric, value);
}

static int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ok = f && fprintf(f, "%ld", v) > 0;

	if (f)
		ok = (fclose(f) == 0) && ok;
	return ok;
}

static char pool_path[2][160];

/* Empties and refills both nodes' pools: pages allocated now follow the
 * current vm.hugetlb_optimize_vmemmap. */
static int refill_pools(long per_node)
{
	for (int n = 0; n < 2; n++)
		if (!write_long(pool_path[n], 0))
			return 0;
	for (int n = 0; n < 2; n++)
		if (!write_long(pool_path[n], per_node) || pb_read_long(pool_path[n]) != per_node)
			return 0;
	return 1;
}

struct totals {
	long migrated, failed, pgfail;
};

/* One case: map npages huge pages (anonymous, or a hugetlbfs file), bind
 * them to from, and move them to and fro iterations times. Returns 0, or
 * an pb_invalid() result. */
static int run_case(const char *prefix, int file, unsigned long npages, int iterations, int from,
		    int to, struct totals *tot)
{
	int status[MAX_PAGES], nodes[MAX_PAGES], where[MAX_PAGES], fd = -1;
	void *pages[MAX_PAGES];
	unsigned long mask = 1UL << from;
	unsigned char *mem;
	uint64_t sum;

	if (file) {
		fd = open("/mnt/huge/perfbot-migrate", O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)(npages * HPAGE_SIZE)) != 0)
			return pb_invalid("cannot create the hugetlbfs file: %s", strerror(errno));
		mem = mmap(NULL, npages * HPAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	} else {
		mem = mmap(NULL, npages * HPAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	}
	if (mem == MAP_FAILED)
		return pb_invalid("mmap of huge pages failed: %s", strerror(errno));
	if (syscall(SYS_mbind, mem, npages * HPAGE_SIZE, MPOL_BIND, &mask, 64UL, 0) != 0)
		return pb_invalid("mbind to the first node failed: %s", strerror(errno));
	for (unsigned long i = 0; i < npages; i++) {
		pages[i] = mem + i * HPAGE_SIZE;
		for (size_t off = 0; off < HPAGE_SIZE; off += 4096)
			mem[i * HPAGE_SIZE + off] = (unsigned char)(i * 31 + off / 4096);
	}
	sum = checksum(mem, npages * HPAGE_SIZE);
	if (locate(npages, pages, where) != 0)
		return pb_invalid("move_pages(2) cannot query pages: %s", strerror(errno));
	for (unsigned long i = 0; i < npages; i++)
		if (where[i] != from)
			return pb_invalid("huge pages were not placed on the first node");

	for (int it = 1; it <= iterations; it++) {
		long s0 = pb_vmstat("pgmigrate_success"), f0 = pb_vmstat("pgmigrate_fail");
		long migrated = 0, failed = 0, refused = 0, pgfail;
		double ms = 0;

		for (int leg = 0; leg < 2; leg++) {
			int target = leg ? from : to;
			long ret;
			double t0;

			if (locate(npages, pages, where) != 0)
				return pb_invalid("move_pages(2) cannot query pages: %s", strerror(errno));
			for (unsigned long i = 0; i < npages; i++)
				nodes[i] = target;
			t0 = pb_now_ms();
			ret = sys_move_pages(npages, pages, nodes, status);
			ms += pb_now_ms() - t0;
			if (ret < 0)
				return pb_invalid("move_pages(2) failed: %s", strerror(errno));
			/* A positive return counts pages the kernel did not migrate
			 * (e.g. -EBUSY from unmap_and_move_huge_page()); their status
			 * still names the target, so ask where each page really is. */
			refused += ret;
			for (unsigned long i = 0; i < npages; i++)
				status[i] = where[i];
			if (locate(npages, pages, where) != 0)
				return pb_invalid("move_pages(2) cannot query pages: %s", strerror(errno));
			for (unsigned long i = 0; i < npages; i++) {
				if (where[i] == target && status[i] != target)
					migrated++;
				else if (where[i] != target)
					failed++;
			}
		}
		pgfail = pb_vmstat("pgmigrate_fail") - f0;
		case_sample(prefix, it, "migrate_ms", ms);
		if (migrated)
			case_sample(prefix, it, "migrate_ms_per_mib",
				    ms / ((double)migrated * HPAGE_SIZE / (1 << 20)));
		case_sample(prefix, it, "pages_migrated", (double)migrated);
		case_sample(prefix, it, "pages_failed", (double)failed);
		case_sample(prefix, it, "pages_refused", (double)refused);
		case_sample(prefix, it, "pgmigrate_success", (double)(pb_vmstat("pgmigrate_success") - s0));
		case_sample(prefix, it, "pgmigrate_fail", (double)pgfail);
		tot->migrated += migrated;
		tot->failed += failed;
		tot->pgfail += pgfail;
	}
	if (checksum(mem, npages * HPAGE_SIZE) != sum)
		return pb_invalid("the data changed across migration");
	munmap(mem, npages * HPAGE_SIZE);
	if (fd >= 0) {
		close(fd);
		unlink("/mnt/huge/perfbot-migrate");
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long npages = 16;
	int iterations = 5, from = 0, to = 1;
	long pool = 20;
	struct totals tot = { 0, 0, 0 };
	char path[160], node_s[16];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pages") && i + 1 < argc)
			npages = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--pool") && i + 1 < argc)
			pool = atol(argv[++i]);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iterations = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--from") && i + 1 < argc)
			from = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--to") && i + 1 < argc)
			to = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: " NAME " [--pages N] [--pool N] [--iterations N] [--from NODE] [--to NODE]\n");
			return 2;
		}
	}
	if (npages < 1 || npages > MAX_PAGES || pool < (long)npages || iterations < 1 || from < 0 ||
	    to < 0 || from > 62 || to > 62 || from == to) {
		fprintf(stderr, NAME ": bad arguments (pool >= pages)\n");
		return 2;
	}

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", to);
	if (access(path, F_OK) != 0) {
		snprintf(node_s, sizeof(node_s), "%d", to);
		return pb_invalid("the guest has no NUMA node %s to migrate to", node_s);
	}
	for (int n = 0; n < 2; n++)
		snprintf(pool_path[n], sizeof(pool_path[n]),
			 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
			 n ? to : from);
	if (pb_vmstat("pgmigrate_success") < 0)
		return pb_invalid("no pgmigrate_* counters in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS?)");
	mkdir("/mnt/huge", 0755);
	if (mount("none", "/mnt/huge", "hugetlbfs", 0, "pagesize=2M") != 0 && errno != EBUSY)
		return pb_invalid("cannot mount hugetlbfs: %s", strerror(errno));

	for (int vmemmap = 1; vmemmap >= 0; vmemmap--) {
		for (int file = 0; file < 2; file++) {
			char prefix[32];
			int rc;

			if (!write_long("/proc/sys/vm/hugetlb_optimize_vmemmap", vmemmap) ||
			    pb_read_long("/proc/sys/vm/hugetlb_optimize_vmemmap") != vmemmap)
				return pb_invalid("cannot set vm.hugetlb_optimize_vmemmap: %s", strerror(errno));
			if (!refill_pools(pool)) {
				snprintf(node_s, sizeof(node_s), "%ld", pool);
				return pb_invalid("cannot fill both nodes' pools with %s huge pages", node_s);
			}
			snprintf(prefix, sizeof(prefix), "%s_vmemmap_%s", file ? "file" : "anon",
				 vmemmap ? "on" : "off");
			rc = run_case(prefix, file, npages, iterations, from, to, &tot);
			if (rc)
				return rc;
		}
	}

	/* The path ran when the kernel moved the pages, or tried and failed
	 * (pgmigrate_fail rose): a refusal is a result, nothing is not. */
	if (tot.migrated == 0 && !(tot.failed > 0 && tot.pgfail > 0))
		return pb_invalid("move_pages(2) neither moved a page nor failed a migration");
	printf("PB1 check " NAME " ok %ld page moves, %ld pages left behind, pgmigrate_fail +%ld\n",
	       tot.migrated, tot.failed, tot.pgfail);
	return 0;
}
