/* config.ini: defaults, values, overrides, and every kind of mistake naming
 * the file, the line and the key. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "config.h"

static void expect_bad(const char *dir, const char *text, const char *where, const char *what)
{
	char *path = test_write(dir, "bad.ini", text);
	struct pb_config cfg;
	pb_err err = { "" };
	char *loc = xasprintf("%s%s", path, where);

	CHECK(!config_load(&cfg, path, &err));
	CHECK_HAS(err.msg, loc);
	CHECK_HAS(err.msg, what);
	unlink(path);
	free(loc);
	free(path);
}

void test_config(void)
{
	char *dir = test_tmpdir(), *path;
	struct pb_config cfg;
	pb_err err = { "" };

	path = test_write(dir, "ok.ini",
			  "; comment\n[qemu]\naccel = tcg-icount\nmemory_mb = 2048\n\n"
			  "[run]\nboots = 3\n[database]\npath = sub/r.db\n[workload zswap]\nsize_mb = 48\n");
	CHECK(config_load(&cfg, path, &err));
	CHECK_INT(cfg.accel, ACCEL_TCG_ICOUNT);
	CHECK_INT(cfg.memory_mb, 2048);
	CHECK_INT(cfg.boots, 3);
	CHECK_INT(cfg.iterations, 5); /* default */
	CHECK(starts_with(cfg.db_path, dir) && ends_with(cfg.db_path, "/sub/r.db"));
	CHECK_STR(cfg.kernel_source, "/usr/src/linux-source-6.1.tar.xz");
	CHECK(cfg.ccache_dir == NULL);
	CHECK(config_override(&cfg, "run.iterations=9", &err));
	CHECK_INT(cfg.iterations, 9);
	CHECK(config_override(&cfg, "qemu.accel=kvm", &err));
	CHECK_INT(cfg.accel, ACCEL_KVM);
	CHECK(config_override(&cfg, "cache.dir=/tmp/x", &err));
	CHECK_STR(cfg.cache_dir, "/tmp/x");
	/* the statistics: defaults, a real number, and its bounds */
	CHECK(cfg.gate_pct == 2 && cfg.icount_gate_pct == 0.5 && cfg.alpha == 0.01);
	CHECK(cfg.warmup == 1 && cfg.max_boots == 10 && cfg.seed == 0);
	CHECK(config_override(&cfg, "stats.gate_pct=1.5", &err));
	CHECK(cfg.gate_pct == 1.5);
	CHECK(!config_override(&cfg, "stats.alpha=2", &err));
	CHECK_HAS(err.msg, "'2' is not a number from 0 to 1");
	CHECK(!config_override(&cfg, "stats.gate_pct=1.5%", &err));
	CHECK(!config_override(&cfg, "stats.alpha=nan", &err));
	/* beta: the interval at 1 - 2 beta must be one */
	CHECK(cfg.beta == 0.05);
	CHECK(config_override(&cfg, "stats.beta=0.1", &err) && cfg.beta == 0.1);
	CHECK(!config_override(&cfg, "stats.beta=0.5", &err));
	CHECK_HAS(err.msg, "above 0 and below 0.5");
	CHECK(!config_override(&cfg, "stats.beta=0", &err));
	/* the retired keys are named as such, not as unknown */
	CHECK(!config_override(&cfg, "stats.noise_factor=5", &err));
	CHECK_HAS(err.msg, "stats.noise_factor: no longer used");
	CHECK(!config_override(&cfg, "stats.bootstrap=2000", &err));
	CHECK_HAS(err.msg, "no bootstrap");
	CHECK(config_override(&cfg, "run.seed=12345", &err));
	CHECK_INT(cfg.seed, 12345);
	CHECK(!config_override(&cfg, "run.nope=1", &err));
	CHECK_HAS(err.msg, "unknown configuration key run.nope");
	CHECK(!config_override(&cfg, "run.boots=0", &err));
	CHECK_HAS(err.msg, "run.boots");
	CHECK(!config_override(&cfg, "boots=3", &err));
	CHECK_HAS(err.msg, "section.key=value");
	CHECK(config_override(&cfg, "workload.thp-anon.size_mb=64", &err));
	CHECK_INT(cfg.nparams, 2);
	CHECK_STR(cfg.params[1].value, "64");
	CHECK_STR(cfg.params[0].workload, "zswap");
	/* the command line overrides the file's [workload zswap] size_mb, and itself */
	CHECK(config_override(&cfg, "workload.zswap.size_mb=32", &err));
	CHECK(config_override(&cfg, "workload.zswap.size_mb=24", &err));
	CHECK_INT(cfg.nparams, 2);
	CHECK_STR(cfg.params[0].value, "24");
	CHECK(!config_override(&cfg, "workload.zswap.size_mb=1;reboot", &err));
	CHECK_HAS(err.msg, "one plain word");
	CHECK(!config_override(&cfg, "qemu.accel=xen", &err));
	CHECK_HAS(err.msg, "not one of auto");
	config_free(&cfg);
	unlink(path);
	free(path);

	expect_bad(dir, "[qemu]\naccel = auto\n[kernal]\njobs = 2\n", ":4:", "unknown section [kernal]");
	expect_bad(dir, "[run]\nboots = 2\nbootz = 3\n", ":3:", "[run] bootz: unknown key");
	expect_bad(dir, "[run]\nboots = two\n", ":2:", "[run] boots: 'two' is not a whole number");
	expect_bad(dir, "[run]\nboots = 0\n", ":2:", "from 1 to 1000");
	expect_bad(dir, "[qemu]\nmemory_mb = 99999999999\n", ":2:", "memory_mb");
	expect_bad(dir, "[qemu]\naccel = fast\n", ":2:", "[qemu] accel: 'fast' is not one of");
	expect_bad(dir, "[run]\nboots = 2\nboots = 3\n", ":3:", "given twice");
	expect_bad(dir, "[workload thp-anon]\nsize_mb = 16\nsize_mb = 64\n", ":3:",
		   "[workload thp-anon] size_mb: given twice");
	expect_bad(dir, "[workload zswap]\nsize_mb = 16\n[run]\nboots = 2\n[workload zswap]\nsize_mb = 8\n",
		   ":6:", "[workload zswap] size_mb: given twice");
	expect_bad(dir, "[run]\nthis line has no equals sign\n", ":2:", "syntax error");
	expect_bad(dir, "[run\nboots = 2\n", ":1:", "syntax error");
	expect_bad(dir, "boots = 2\n", ":1:", "unknown section []");
	expect_bad(dir, "[database]\npath =\n", ":2:", "empty path");
	expect_bad(dir, "[run]\nboots = 2\n[workload zswap]\nsize_mb = $(rm -rf /)\n", ":4:", "one plain word");

	path = xasprintf("%s/missing.ini", dir);
	CHECK(!config_load(&cfg, path, &err));
	CHECK_HAS(err.msg, "cannot read config");
	free(path);
	rmdir(dir);
	free(dir);
}
