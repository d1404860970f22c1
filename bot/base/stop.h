/* The one stop of a perfbot process: SIGTERM and SIGINT set
 * stop_requested, which whatever is under way looks at (a run ends after
 * its boot and journals it, Slurm jobs are cancelled, perfbotd ends after
 * its job). The handler restarts no system call: a waitpid or a sleep
 * returns, and the loop around it looks at the flag. */
#ifndef PERFBOT_STOP_H
#define PERFBOT_STOP_H

#include <signal.h>

extern volatile sig_atomic_t stop_requested;

struct stop_saved {
	struct sigaction term, intr;
};

/* From now on SIGTERM and SIGINT set stop_requested; saved (NULL: for
 * good) keeps the handlers they had. */
void stop_catch(struct stop_saved *saved);
/* The handlers stop_catch saved, back. */
void stop_release(const struct stop_saved *saved);

#endif
