/* boot: what the kernel did before init, read from its own log (the path
 * of stable patch 031: memory-map initialisation in mm/page_alloc.c).
 *
 * With CONFIG_PRINTK_TIME every kernel message carries a timestamp; under
 * TCG -icount those count instructions, so they repeat from boot to boot.
 * Metrics (once per boot, iteration 1):
 *   boot_to_init_ms  timestamp of "Run /init as init process"
 *   memmap_init_us   from the first "Initmem setup node" line to the last
 *                    "pages in unavailable ranges" line: node set-up and
 *                    memory-map initialisation
 *   unavailable_pages the pages those lines report (behaviour)
 *   nodes_online, mem_total_kb (behaviour)
 * Output: PB1 sample / check lines as in workloads/README.md.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#define NAME "boot"
#include "workload.h"
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

/* "<6>[    1.234567] text" -> 1.234567 s and text; false for other lines. */
static int parse_line(char *line, double *t, char **text)
{
	char *open = strchr(line, '['), *close;

	if (!open || !(close = strchr(open, ']')) || open - line > 8)
		return 0;
	*t = strtod(open + 1, NULL);
	*text = close + 1;
	while (**text == ' ')
		(*text)++;
	return 1;
}

static long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char k[64];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld kB", k, &v) == 2)
		if (!strncmp(k, key, strlen(key)) && k[strlen(key)] == ':') {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	int want_nodes = 2, size, nodes = 0;
	char *buf, *line, *save = NULL;
	double t_init = -1, t_setup = -1, t_unavail = -1;
	long unavailable = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
			want_nodes = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			i++; /* one boot is one sample: iterations do not apply */
		else {
			fprintf(stderr, "usage: " NAME " [--nodes N]\n");
			return 2;
		}
	}
	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0)
		return pb_invalid("cannot size the kernel log");
	buf = calloc(1, (size_t)size + 1);
	if (!buf || klogctl(SYSLOG_ACTION_READ_ALL, buf, size) <= 0)
		return pb_invalid("cannot read the kernel log");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double t;
		char *text;
		long n;

		if (!parse_line(line, &t, &text))
			continue;
		if (!strncmp(text, "Initmem setup node ", 19)) {
			nodes++;
			if (t_setup < 0)
				t_setup = t;
		} else if (strstr(text, " pages in unavailable ranges")) {
			char *colon = strrchr(text, ':');

			t_unavail = t;
			if (colon && sscanf(colon + 1, "%ld", &n) == 1)
				unavailable += n;
		} else if (strstr(text, "as init process") && t_init < 0) {
			t_init = t;
		}
	}
	free(buf);
	if (t_init < 0)
		return pb_invalid("no 'Run /init as init process' line: is CONFIG_PRINTK_TIME on?");
	if (t_setup < 0 || t_unavail < t_setup)
		return pb_invalid("no 'Initmem setup node' / 'unavailable ranges' lines in the kernel log");
	if (nodes != want_nodes)
		return pb_invalid("the guest does not have the NUMA nodes it asked for");
	pb_sample(1, "boot_to_init_ms", t_init * 1e3);
	pb_sample(1, "memmap_init_us", (t_unavail - t_setup) * 1e6);
	pb_sample(1, "unavailable_pages", (double)unavailable);
	pb_sample(1, "nodes_online", (double)nodes);
	pb_sample(1, "mem_total_kb", (double)meminfo("MemTotal"));
	printf("PB1 check " NAME " ok %d nodes set up, memmap initialised, init at %.3f s\n", nodes,
	       t_init);
	return 0;
}
