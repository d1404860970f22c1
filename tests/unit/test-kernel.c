/* The fragment check: every option asked for must hold in the final .config;
 * the tree cache on a tiny tarball. */
#include <stdlib.h>

#include "check.h"
#include "kernel.h"

/* tree_prepare on a tiny gzip tarball: extracted once into pristine/, a
 * work copy beside it, the version from its Makefile, nothing left over. */
static void test_tree_prepare(void)
{
	char *dir = test_tmpdir(), *src = xasprintf("%s/src/linux-6.1", dir);
	char *tarball = xasprintf("%s/linux-source-6.1.tar.gz", dir);
	char *srcdir = xasprintf("%s/src", dir), *mm = xasprintf("%s/mm", src), *path;
	char *argv[] = { "tar", "-C", srcdir, "-czf", tarball, "linux-6.1", NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "" };
	struct spawn_result r;
	struct pb_config cfg = { 0 };
	struct kernel_tree t;
	pb_err err = { "" };
	char hex[65], *key;
	int n = 0;
	char **names;

	CHECK(mkdir_p(mm, &err));
	free(test_write(src, "Makefile", "# SPDX\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n"));
	free(test_write(mm, "a.c", "int a;\n"));
	CHECK(spawn_wait(argv, &o, &r) && r.status == 0);
	cfg.kernel_source = tarball;
	cfg.cache_dir = xasprintf("%s/cache", dir);
	CHECK(tree_prepare(&cfg, &t, &err));
	CHECK_STR(err.msg, "");
	CHECK_STR(t.version, "6.1.99");
	CHECK_STR(t.series, "6.1");
	CHECK(sha256_file(tarball, hex, &err));
	CHECK_STR(t.tarball_sha, hex);
	/* the tree's directory is named by the tarball's hash: a tree extracted
	 * before is found again */
	key = xasprintf("%s/trees/%.16s", cfg.cache_dir, hex);
	CHECK_STR(t.dir, key);
	free(key);
	path = xasprintf("%s/mm/a.c", t.work);
	CHECK(path_exists(path));
	free(path);
	path = xasprintf("%s/Makefile", t.pristine);
	CHECK(path_exists(path));
	free(path);
	/* once: a second prepare finds what the first extracted */
	free(test_write(t.pristine, "marker", "kept\n"));
	tree_free(&t);
	CHECK(tree_prepare(&cfg, &t, &err));
	path = xasprintf("%s/marker", t.pristine);
	CHECK(path_exists(path));
	free(path);
	/* no .tmp.<pid> directory is left under trees/ */
	path = xasprintf("%s/trees", cfg.cache_dir);
	{
		static const char *const any[] = { "", NULL };

		names = dir_names(path, any, &n);
	}
	CHECK(names != NULL);
	for (int i = 0; i < n; i++)
		CHECK(!strstr(names[i], ".tmp."));
	names_free(names, n);
	free(path);
	tree_free(&t);
	free(cfg.cache_dir);
	rm_rf(dir);
	free(dir);
	free(src);
	free(tarball);
	free(srcdir);
	free(mm);
}

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
	test_tree_prepare();
}
