/* What a boot ended as: the outcomes, the record of one boot, and the
 * classification of what it left behind. */
#ifndef PERFBOT_OUTCOME_H
#define PERFBOT_OUTCOME_H

#include "boot.h"
#include "guest.h"
#include "names.h"
#include "results.h"

/* The one line that names what a failed boot's detail (its panic text, an
 * oops, a timeout) is: the first "kernel BUG at", "BUG: ", "Oops: ",
 * "general protection fault", "WARNING: " or "Kernel panic" line, else its
 * first line; without the console's "[    0.39] " time stamp or a trailing
 * CR. Free it. */
char *crash_headline(const char *detail);

/* The outcome of a boot from what it left: the console, the results port,
 * QEMU's own output and exit. Sets br->outcome, detail and results. */
void boot_classify(struct boot_record *br, const struct guest_plan *gp, const char *console,
		   const char *results, size_t rlen, const char *qemu_log, bool timed_out,
		   int qemu_status, int timeout_s);

#endif
