/* The jobs that build, boot, measure and store. */
#ifndef PERFBOT_JOBS_H
#define PERFBOT_JOBS_H

#include <signal.h>

#include "config.h"
#include "queue.h"
#include "verdict.h"

/* What a job left, for nightly's summary. */
struct job_outcome {
	long long comparison;   /* its id, 0 if nothing was stored */
	enum comparison_status status;
	bool decided;           /* verdict is set: something was compared */
	enum verdict verdict;   /* worst timing verdict */
	bool behaviour_change;
	bool skipped;           /* not an mm patch: nothing to measure */
};

/* What perfbot run --patch N is asked to do. */
struct run_request {
	int number;
	char **only;            /* --workload names, nonly of them */
	int nonly;
	bool force;             /* measure a patch that is not mm too */
	/* perfbotd's: its job (boots journaled, resumed; done with the store),
	 * and the flag that stops it after the current boot. 0/NULL: none. */
	long long job_id;
	volatile sig_atomic_t *stop;
};

/* perfbot run --patch N; returns the exit status (PB_EXIT_*). jo may be NULL. */
int job_run_patch(const struct pb_config *cfg, const struct pb_queue *q,
		  const struct run_request *rq, struct job_outcome *jo);

/* What run --patch checks of p before it builds (its workloads, their
 * packages and parameters, the kernel source), for perfbot submit. */
bool job_check_run(const struct pb_config *cfg, const struct pb_patch *p, char **only, int nonly,
		   pb_err *err);

/* perfbot calibrate; returns the exit status. jo may be NULL. */
int job_calibrate(const struct pb_config *cfg, const struct pb_queue *q, char **only, int nonly,
		  int per_side, struct job_outcome *jo);

#endif
