/* stress-ng-mm: a fixed set of stress-ng's mm stressors with fixed op
 * counts (Debian's stress-ng, copied into the initramfs with its libraries).
 *
 * Runs /usr/bin/stress-ng once with every stressor, one instance each, and
 * reads its --yaml report. Metrics per stressor: bogo-ops per second of wall
 * time (time kind, higher is better) and the bogo-ops done (behaviour: with
 * fixed op counts it must equal what was asked), plus the wall time of the
 * whole run. The run is valid only if stress-ng exited 0 and every stressor
 * reported the ops it was asked for.
 * Output: PB1 sample / check lines as in workloads/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NAME "stress-ng-mm"
#include "workload.h"
#define STRESS_NG "/usr/bin/stress-ng"
#define YAML "/tmp/stress-ng.yaml"

/* stressor, its ops option, ops at scale 1, extra options */
static const struct stressor {
	const char *name;
	long ops;
	const char *extra[2];
} stressors[] = {
	{ "vm", 40, { "--vm-bytes", "8M" } },
	{ "mmap", 4, { "--mmap-bytes", "4M" } },
	{ "madvise", 4, { NULL, NULL } },
	{ "fault", 400, { NULL, NULL } },
	{ "numa", 4, { NULL, NULL } },
};
#define NSTRESSORS (sizeof(stressors) / sizeof(stressors[0]))

/* Runs one stressor alone (concurrent stressors on one vCPU would time
 * each other's scheduling) and reads its bogo-ops and rate from the YAML. */
static int run_one(const struct stressor *st, int scale, long *ops_done, double *rate, double *ms)
{
	char *args[16], opt[32], opsopt[40], ops[32], line[256], current[64] = "";
	int n = 0, status;
	double t0;
	FILE *f;
	pid_t pid;

	snprintf(opt, sizeof(opt), "--%s", st->name);
	snprintf(opsopt, sizeof(opsopt), "--%s-ops", st->name);
	snprintf(ops, sizeof(ops), "%ld", st->ops * scale);
	args[n++] = STRESS_NG;
	args[n++] = opt;
	args[n++] = "1";
	args[n++] = opsopt;
	args[n++] = ops;
	for (int e = 0; e < 2 && st->extra[e]; e++)
		args[n++] = (char *)st->extra[e];
	args[n++] = "--metrics-brief"; /* without it the YAML report has no metrics */
	args[n++] = "--yaml";
	args[n++] = YAML;
	args[n++] = "--timeout";
	args[n++] = "120";
	args[n] = NULL;

	unlink(YAML);
	*ops_done = -1;
	*rate = -1;
	t0 = pb_now_ms();
	pid = fork();
	if (pid == 0) {
		dup2(2, 1); /* its chatter goes to the console, not the results port */
		execv(STRESS_NG, args);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	*ms = pb_now_ms() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	f = fopen(YAML, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char key[64], value[64];

		if (sscanf(line, " - stressor: %63s", value) == 1) {
			snprintf(current, sizeof(current), "%s", value);
			continue;
		}
		if (strcmp(current, st->name) || sscanf(line, " %63[^:]: %63s", key, value) != 2)
			continue;
		if (!strcmp(key, "bogo-ops"))
			*ops_done = atol(value);
		else if (!strcmp(key, "bogo-ops-per-second-real-time"))
			*rate = atof(value);
	}
	fclose(f);
	return *ops_done >= 0 && *rate >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int scale = 1, found = 0;
	double wall = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			i++; /* fixed op counts: stress-ng has its own repetition */
		else {
			fprintf(stderr, "usage: " NAME " [--scale N]\n");
			return 2;
		}
	}
	if (scale < 1 || scale > 1000) {
		fprintf(stderr, NAME ": bad --scale\n");
		return 2;
	}
	if (access(STRESS_NG, X_OK) != 0)
		return pb_invalid("stress-ng is not in the initramfs: %s", STRESS_NG);
	for (size_t s = 0; s < NSTRESSORS; s++) {
		long ops;
		double rate, ms;

		if (run_one(&stressors[s], scale, &ops, &rate, &ms) != 0)
			return pb_invalid("stress-ng failed or reported nothing for: %s", stressors[s].name);
		wall += ms;
		printf("PB1 sample " NAME " 1 %s_bogo_ops_per_s %.6f\n", stressors[s].name, rate);
		printf("PB1 sample " NAME " 1 %s_bogo_ops %ld\n", stressors[s].name, ops);
		found += ops >= stressors[s].ops * scale;
	}
	printf("PB1 sample " NAME " 1 wall_ms %.6f\n", wall);
	if (found != (int)NSTRESSORS)
		return pb_invalid("a stressor did fewer bogo-ops than asked");
	printf("PB1 check " NAME " ok %d stressors ran their ops in %.0f ms\n", found, wall);
	return 0;
}
