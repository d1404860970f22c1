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
		/* a panic before panic= is parsed must still end the boot */
		CHECK_HAS(text, "CONFIG_PANIC_TIMEOUT=-1");
		CHECK_HAS(text, "CONFIG_EARLY_PRINTK=y");
		free(text);
	}
	/* a failed step names the program the machine lacks, from its log */
	{
		static const struct { const char *log, *want; } logs[] = {
			{ "  INSTALL headers\n/bin/sh: 1: rsync: not found\nmake[1]: *** [Makefile:1] Error 127\n",
			  "rsync: not found" },
			{ "  LEX scripts/kconfig/lexer.lex.c\nmake[2]: flex: No such file or directory\n",
			  "flex: not found" },
			{ "bash: line 1: bc: command not found\n", "bc: not found" },
			{ "make[3]: bison: Command not found\n", "bison: not found" },
			/* a missing header, a missing target, a failed compile: no program */
			{ "foo.c:1:10: fatal error: gelf.h: No such file or directory\n", NULL },
			{ "make[1]: *** No rule to make target 'x'.  Stop.\nmake: *** [Makefile:2] Error 2: No such file or directory\n",
			  NULL },
			{ "mm/x.c:3: error: 'y' undeclared\n", NULL },
		};
		char *dir = test_tmpdir();

		for (size_t i = 0; i < PB_ARRAY_SIZE(logs); i++) {
			char *path = test_write(dir, "build.log", logs[i].log), *got = log_missing_program(path);

			if (logs[i].want)
				CHECK_STR(got ? got : "(none)", logs[i].want);
			else
				CHECK(got == NULL);
			free(got);
			free(path);
		}
		CHECK(log_missing_program("/nonexistent/build.log") == NULL);
		rm_rf(dir);
		free(dir);
	}
	CHECK_STR(pair_method_name(PAIR_FORWARD), "forward");
	CHECK_STR(pair_method_name(PAIR_REVERSE), "reverse");
	CHECK_STR(pair_method_name(PAIR_PORT), "port");
}
