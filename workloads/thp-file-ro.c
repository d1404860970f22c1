/* thp-file-ro: the path of stable patch 765 (read-only file THP,
 * CONFIG_READ_ONLY_THP_FOR_FS; hugepage_vma_check() in mm/huge_memory.c).
 *
 * Writes a regular file on a real block-device file system (ext4 on a virtio
 * disk), closes it, maps it read-only PROT_READ|PROT_EXEC at a 2 MiB-aligned
 * address with MADV_HUGEPAGE, faults it in and collapses it with
 * MADV_COLLAPSE. Reports what /proc/self/smaps says of the mapping before
 * and after: THPeligible (the pre-fix kernel says 0 for such a mapping, the
 * fixed one 1) and FilePmdMapped (the collapse really made huge pages).
 *
 * Output: PB1 sample / check lines as in workloads/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NAME "thp-file-ro"
#include "workload.h"
#define HPAGE (2UL << 20)
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static int write_file(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *buf = malloc(1 << 20);
	int ok = fd >= 0 && buf;

	for (size_t off = 0; ok && off < size; off += 1 << 20) {
		for (size_t i = 0; i < (1 << 20); i += 64)
			buf[i] = (char)((off + i) >> 12);
		ok = write(fd, buf, 1 << 20) == 1 << 20;
	}
	ok = ok && fsync(fd) == 0;
	if (fd >= 0)
		close(fd); /* not open for write any more: a condition of read-only file THP */
	free(buf);
	return ok;
}

int main(int argc, char **argv)
{
	const char *dir = "/mnt/data";
	int iterations = 3;
	size_t size = 4 * HPAGE;
	long collapsed = 0, eligible_seen = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iterations = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--size-mb") && i + 1 < argc)
			size = strtoul(argv[++i], NULL, 10) << 20;
		else {
			fprintf(stderr, "usage: " NAME " [--dir D] [--iterations N] [--size-mb N]\n");
			return 2;
		}
	}
	if (iterations < 1 || size < HPAGE || size % HPAGE || size > (1UL << 30)) {
		fprintf(stderr, NAME ": bad arguments (size: a multiple of 2 MiB)\n");
		return 2;
	}

	for (int it = 1; it <= iterations; it++) {
		char path[256];
		long eligible, pmd_after;
		unsigned char *reserve, *map;
		volatile unsigned char sink = 0;
		double t0, fault_ms, collapse_ms;
		int fd, rc, collapse_errno = 0;

		snprintf(path, sizeof(path), "%s/thp-file-%d", dir, it);
		if (!write_file(path, size))
			return pb_invalid("cannot write the test file: %s", strerror(errno));
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return pb_invalid("cannot reopen the test file: %s", strerror(errno));
		/* 2 MiB-aligned, file offset 0: what a PMD mapping needs. */
		reserve = mmap(NULL, size + HPAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (reserve == MAP_FAILED)
			return pb_invalid("mmap reserve failed: %s", strerror(errno));
		map = (unsigned char *)(((uintptr_t)reserve + HPAGE - 1) & ~(HPAGE - 1));
		map = mmap(map, size, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 0);
		if (map == MAP_FAILED)
			return pb_invalid("mmap of the file failed: %s", strerror(errno));
		if (madvise(map, size, MADV_HUGEPAGE) != 0)
			return pb_invalid("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
		eligible = pb_smaps_field(map, "THPeligible");
		if (eligible < 0)
			return pb_invalid("the mapping has no THPeligible line in /proc/self/smaps");

		t0 = pb_now_ms();
		for (size_t off = 0; off < size; off += 4096)
			sink += map[off];
		fault_ms = pb_now_ms() - t0;

		t0 = pb_now_ms();
		rc = madvise(map, size, MADV_COLLAPSE);
		collapse_ms = pb_now_ms() - t0;
		if (rc != 0)
			collapse_errno = errno;
		pmd_after = pb_smaps_field(map, "FilePmdMapped");
		if (pmd_after < 0)
			return pb_invalid("the mapping vanished from /proc/self/smaps");

		pb_sample(it, "fault_ms", fault_ms);
		if (rc == 0)
			pb_sample(it, "collapse_ms", collapse_ms);
		pb_sample(it, "thp_eligible", (double)eligible);
		pb_sample(it, "file_pmd_mapped_kb", (double)pmd_after);
		pb_sample(it, "collapse_errno", (double)collapse_errno);
		if (rc == 0 && pmd_after > 0)
			collapsed++;
		eligible_seen = eligible;
		munmap(reserve, size + HPAGE);
		close(fd);
		unlink(path);
	}
	/* The path ran when the kernel answered for this mapping and collapsed
	 * it into PMD-mapped file THPs. */
	if (!collapsed)
		return pb_invalid("MADV_COLLAPSE made no PMD-mapped file THP in any iteration");
	printf("PB1 check " NAME " ok %ld of %d iterations collapsed to FilePmdMapped, THPeligible %ld\n",
	       collapsed, iterations, eligible_seen);
	return 0;
}
