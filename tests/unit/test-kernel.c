/* The fragment check: every option asked for must hold in the final .config. */
#include <stdlib.h>

#include "check.h"
#include "kernel.h"

void test_kernel(void)
{
	static const char fragment[] = "# comment\n"
				       "CONFIG_ZSWAP=y\n"
				       "CONFIG_NR_CPUS=64\n"
				       "# CONFIG_SOUND is not set\n"
				       "# CONFIG_CPU_FREQ is not set\n";
	static const char good[] = "CONFIG_ZSWAP=y\nCONFIG_NR_CPUS=64\n# CONFIG_SOUND is not set\n";
	static const char bad[] = "CONFIG_ZSWAP_DEFAULT_ON=y\nCONFIG_NR_CPUS=640\nCONFIG_CPU_FREQ=y\n"
				  "CONFIG_SOUND=m\n";
	pb_str missing;

	str_init(&missing);
	CHECK(fragment_check(fragment, good, &missing));
	CHECK_INT(missing.len, 0);
	CHECK(!fragment_check(fragment, bad, &missing));
	/* a prefix (CONFIG_ZSWAP_DEFAULT_ON) or a longer value is not a match */
	CHECK_HAS(missing.buf, "CONFIG_ZSWAP=y");
	CHECK_HAS(missing.buf, "CONFIG_NR_CPUS=64");
	CHECK_HAS(missing.buf, "CONFIG_SOUND off");
	CHECK_HAS(missing.buf, "CONFIG_CPU_FREQ off");
	str_free(&missing);

	/* the project's own fragment asks only for what defconfig-based kernels can have */
	{
		pb_err err = { "" };
		char *text = read_file("kernels/mm.config", NULL, &err);

		CHECK(text != NULL);
		CHECK_HAS(text, "CONFIG_HUGETLB_PAGE_OPTIMIZE_VMEMMAP=y");
		CHECK_HAS(text, "CONFIG_VM_EVENT_COUNTERS=y");
		CHECK_HAS(text, "CONFIG_ADVISE_SYSCALLS=y");
		free(text);
	}
	CHECK_STR(pair_method_name(PAIR_FORWARD), "forward");
	CHECK_STR(pair_method_name(PAIR_REVERSE), "reverse");
	CHECK_STR(pair_method_name(PAIR_PORT), "port");
}
