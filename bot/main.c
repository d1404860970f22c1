/* perfbot: a performance-regression bot for Linux mm stable backports.
 * One subcommand per source file (cmd-*.c), dispatched from this table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct command commands[] = {
	{ "run", cmd_run, "build, boot and compare the kernels without and with a patch" },
	{ "bisect", cmd_bisect, "which patch of a series made the change its series run found" },
	{ "calibrate", cmd_calibrate, "A/A runs of the base kernel: each metric's noise floor and the false-alarm rate" },
	{ "bench", cmd_bench, "sensitivity: detection and false-alarm rates on synthetic slowdowns" },
	{ "submit", cmd_submit, "queue a run of a patch for perfbotd (the daemon)" },
	{ "jobs", cmd_jobs, "list perfbotd's jobs: queued, running, done, failed" },
	{ "nightly", cmd_nightly, "the cron job: a calibration, every mm patch not yet measured, the report" },
	{ "bundle", cmd_bundle, "make a job's results database carry its boots' logs, for perfbot import" },
	{ "import", cmd_import, "bring comparisons measured elsewhere (a cluster job's results database) into results.db" },
	{ "report", cmd_report, "write the HTML report (index, patch pages, trend) from results.db" },
	{ "mail", cmd_mail, "write (and send) the answer to a patch's review mail: its verdict" },
	{ "pair", cmd_pair, "show how each mm patch's kernel pair is formed (dry runs, no build)" },
	{ "list", cmd_list, "print the queue: numbers, subjects, upstream commits, mm or not" },
	{ "config", cmd_config, "print the effective configuration" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: perfbot <command> [options]   (perfbot <command> --help)\n\n");
	for (size_t i = 0; i < PB_ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
	/* Progress goes to stderr, results to stdout: keep them in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	path_add_sbin();
	if (argc < 2) {
		usage(stderr);
		return PB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return PB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perfbot %s\n", perfbot_version);
		return PB_EXIT_OK;
	}
	for (size_t i = 0; i < PB_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	cli_error("'%s' is not a perfbot command (perfbot --help lists them)", argv[1]);
	return PB_EXIT_USAGE;
}
