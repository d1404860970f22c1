/* libFuzzer target: the parser of what a guest writes on its results port
 * (results.c). A guest's kernel is under test, so its output may be
 * anything. */
#include <stdint.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct boot_results r = { 0 };
	pb_err err;

	if (results_parse((const char *)data, size, &r, &err)) {
		if (r.nsamples < 0 || r.nsamples > RESULTS_MAX_SAMPLES ||
		    r.nworkloads > RESULTS_MAX_WORKLOADS)
			__builtin_trap();
		for (int i = 0; i < r.nsamples; i++)
			if (!r.samples[i].workload || !r.samples[i].metric)
				__builtin_trap();
	}
	results_free(&r);
	return 0;
}
