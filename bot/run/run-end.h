/* How a run of the library ended (a patch's, a series', a calibration, a
 * bisect, a Slurm job's): the command says its error and picks its exit
 * status from it (cli_run_status); the library itself never does. */
#ifndef PERFBOT_RUN_END_H
#define PERFBOT_RUN_END_H

enum run_end {
	RUN_DONE,           /* it ran to its end: what it found is in its outcome */
	RUN_FAILED,         /* perfbot could not go on (bad input, the environment, the
			     * database): err says why; what was stored before stays
			     * (a comparison whose page could not be written) */
	RUN_KERNEL_FAILED,  /* a kernel failed to build or boot: stored as a result (a
			     * check or a bisect that could not conclude: err may say what) */
	RUN_STOPPED,        /* stopped (SIGTERM) before its end: a job's boots are journaled */
};

#endif
