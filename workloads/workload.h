/* What every guest workload shares: the result lines of workloads/README.md
 * and the few /proc and /sys readers they all use. Header-only, so that each
 * workload stays one small static program. Define NAME before including. */
#ifndef PERFBOT_WORKLOAD_UTIL_H
#define PERFBOT_WORKLOAD_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef NAME
#error "define NAME (the workload's binary name) before including workload.h"
#endif

/* "PB1 check NAME invalid <why>"; returns the exit status for main(). */
__attribute__((format(printf, 1, 2))) static inline int pb_invalid(const char *fmt, ...)
{
	va_list ap;

	printf("PB1 check " NAME " invalid ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return 1;
}

static inline void pb_sample(int iteration, const char *metric, double value)
{
	printf("PB1 sample " NAME " %d %s %.6f\n", iteration, metric, value);
}

/* CLOCK_MONOTONIC in ms: under TCG -icount it counts instructions. */
static inline double pb_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The first number in a file, or -1. */
static inline long pb_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static inline int pb_write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(s, f) >= 0;

	if (f)
		ok = (fclose(f) == 0) && ok;
	return ok;
}

/* A /proc/vmstat counter, or -1 when the kernel does not count it. */
static inline long pb_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name)) {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

/* The value of "field:" in the /proc/self/smaps entry that starts at addr
 * (kB for sizes), or -1 when there is no such entry or field. */
static inline long pb_smaps_field(const void *addr, const char *field)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	size_t n = strlen(field);
	long value = -1;
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = start == (unsigned long)addr;
			continue;
		}
		if (in && !strncmp(line, field, n) && line[n] == ':')
			value = strtol(line + n + 1, NULL, 10);
	}
	fclose(f);
	return value;
}

#endif
