/* The stop of stop.h. */
#include "stop.h"

#include <string.h>

volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void stop_catch(struct stop_saved *saved)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART */
	sigaction(SIGTERM, &sa, saved ? &saved->term : NULL);
	sigaction(SIGINT, &sa, saved ? &saved->intr : NULL);
}

void stop_release(const struct stop_saved *saved)
{
	sigaction(SIGTERM, &saved->term, NULL);
	sigaction(SIGINT, &saved->intr, NULL);
}
