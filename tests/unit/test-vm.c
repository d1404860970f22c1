/* Boot outcomes from what a boot left behind, and the guest plan. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "vm.h"

static enum boot_outcome classify(const struct guest_plan *gp, const char *console,
				  const char *results, bool timed_out, int status, char **detail)
{
	struct boot_record br;
	enum boot_outcome o;

	memset(&br, 0, sizeof(br));
	boot_classify(&br, gp, console, results, strlen(results), "qemu: could not load kernel",
		      timed_out, status, 300);
	o = br.outcome;
	*detail = xstrdup(br.detail ? br.detail : "");
	boot_record_free(&br);
	return o;
}

/* The line a crash is known by, wherever it is in the boot's detail. */
static void crash_lines(void)
{
	static const struct {
		const char *detail, *line;
	} cases[] = {
		{ "[    0.390281] kernel BUG at ../mm/vmscan.c:7562!\r\n[    0.390291] invalid opcode\r\n"
		  "[    0.390765] Kernel panic - not syncing: Fatal exception\r",
		  "kernel BUG at ../mm/vmscan.c:7562!" },
		{ "Linux version 6.1\n[    0.1] Kernel panic - not syncing: no memory map\n",
		  "Kernel panic - not syncing: no memory map" },
		{ "[  2.5] ------------[ cut here ]------------\n[  2.5] WARNING: CPU: 0 PID: 1 at mm/x.c:9\n"
		  "[  2.6] BUG: unable to handle page fault\n",
		  "WARNING: CPU: 0 PID: 1 at mm/x.c:9" },
		{ "\nno PB1 done within 300 s\nlast line: x\n", "no PB1 done within 300 s" },
		{ "", "" },
	};

	for (size_t i = 0; i < PB_ARRAY_SIZE(cases); i++) {
		char *line = crash_headline(cases[i].detail);

		CHECK_STR(line, cases[i].line);
		free(line);
	}
}

void test_vm(void)
{
	struct workload_set set;
	const struct workload *w[1];
	struct pb_config cfg = { .iterations = 3, .numa_nodes = 1 };
	struct guest_plan gp;
	pb_err err = { "" };
	char *d;
	static const char ok[] = "PB1 begin hugetlb-migrate\nPB1 sample hugetlb-migrate 1 migrate_ms 1\n"
				 "PB1 check hugetlb-migrate ok moved\nPB1 end hugetlb-migrate 0\nPB1 done\n";

	crash_lines();
	CHECK(workloads_load("workloads", &set, &err));
	w[0] = workload_find(&set, "hugetlb-migrate");
	CHECK(guest_plan_init(&gp, &cfg, w, 1, &err));
	CHECK_HAS(gp.args[0], "--iterations 3");
	CHECK_INT(gp.numa_nodes, 2); /* the workload asks for two */
	CHECK_HAS(gp.kernel_cmdline, "panic=-1");
	CHECK_HAS(gp.kernel_cmdline, "console=ttyS0");
	CHECK_HAS(gp.kernel_cmdline, "earlyprintk=serial,ttyS0");
	CHECK_HAS(gp.kernel_cmdline, " hugetlb_free_vmemmap=on");

	CHECK_INT(classify(&gp, "", ok, false, 0, &d), BOOT_OK);
	free(d);
	CHECK_INT(classify(&gp, "[ 1.0] Kernel panic - not syncing: VFS: Unable to mount root fs\n", "",
			   false, 0, &d), BOOT_PANIC);
	CHECK_HAS(d, "Unable to mount root fs");
	free(d);
	{
		/* a BUG() report 40 lines above the panic: the culprit is in the detail */
		pb_str con;

		str_init(&con);
		str_add(&con, "[ 0.1] booting\n[ 0.9] ------------[ cut here ]------------\n"
			      "[ 0.9] kernel BUG at mm/vmscan.c:7563!\n");
		for (int i = 0; i < 40; i++)
			str_addf(&con, "[ 0.9]  ? trace line %d\n", i);
		str_add(&con, "[ 1.0] Kernel panic - not syncing: Fatal exception\n[ 1.0] end\n");
		CHECK_INT(classify(&gp, con.buf, "", false, 0, &d), BOOT_PANIC);
		CHECK_HAS(d, "kernel BUG at mm/vmscan.c:7563!");
		CHECK_HAS(d, "Fatal exception");
		CHECK(!strstr(d, "booting") && !strstr(d, "end"));
		free(d);
		str_free(&con);
	}
	{
		/* a guest's console is read bounded, its NUL bytes visible to searches */
		char *dir = test_tmpdir(), *path = xasprintf("%s/console.log", dir), *got;
		FILE *f = fopen(path, "wb");
		size_t n = 0;

		fputs("early junk that falls off\n", f);
		fputc('\0', f);
		fputs("Kernel panic - not syncing: x\n", f);
		fclose(f);
		got = read_file_tail(path, 31, &n);
		CHECK_INT((long long)n, 31);
		CHECK_STR(got, "?Kernel panic - not syncing: x\n");
		free(got);
		CHECK(read_file_tail("/nonexistent", 10, NULL) == NULL);
		unlink(path);
		free(path);
		free(dir);
	}
	CHECK_INT(classify(&gp, "", "", false, 137, &d), BOOT_QEMU_ERROR);
	CHECK_HAS(d, "QEMU was killed by signal 9");
	free(d);
	CHECK_INT(classify(&gp, "[ 0.5] still booting", "PB1 begin hugetlb-migrate\n", true, 137, &d),
		  BOOT_TIMEOUT);
	CHECK_HAS(d, "within 300 s");
	CHECK_HAS(d, "still booting");
	/* where a quiet guest stopped: its last result line */
	CHECK_HAS(d, "300 s, the guest's last result line 'PB1 begin hugetlb-migrate'; the console ends");
	free(d);
	CHECK_INT(classify(&gp, "[ 0.5] quiet", "", true, 137, &d), BOOT_TIMEOUT);
	CHECK_HAS(d, "no 'PB1 done' within 300 s; the console ends: [ 0.5] quiet");
	free(d);
	CHECK_INT(classify(&gp, "", "", false, 1, &d), BOOT_QEMU_ERROR);
	CHECK_HAS(d, "could not load kernel");
	free(d);
	CHECK_INT(classify(&gp, "reboot: Power down\n", "PB1 begin hugetlb-migrate\n", false, 0, &d),
		  BOOT_INCOMPLETE);
	free(d);
	/* QEMU ended by itself with not a byte on the console: the kernel reset
	 * the machine before its early console was up, a failed boot at once */
	CHECK_INT(classify(&gp, "", "", false, 0, &d), BOOT_PANIC);
	CHECK_HAS(d, "before it printed a line");
	free(d);
	CHECK_INT(classify(&gp, " \r\n", "", false, 0, &d), BOOT_PANIC);
	free(d);
	/* what the early console shows of a panic in setup_arch(): no
	 * timestamps before the clock is set up, no oops above it */
	CHECK_INT(classify(&gp, "early console in extract_kernel\ninput_data: 0x0245b2c4\n"
				"Decompressing Linux... Parsing ELF... done.\n"
				"[    0.000000] Linux version 6.1.0 (gcc)\n"
				"[    0.000000] BIOS-e820: [mem 0x0-0x9fbff] usable\n"
				"[    0.005453] Kernel panic - not syncing: perfbot test: "
				"no memory map in free_area_init\nCPU: 0 PID: 0 Comm: swapper\n",
			   "", false, 0, &d), BOOT_PANIC);
	CHECK_HAS(d, "no memory map in free_area_init");
	CHECK(starts_with(d, "[    0.000000] Linux version 6.1.0")); /* not the decompressor's lines */
	CHECK_HAS(d, "BIOS-e820");
	free(d);
	CHECK_INT(classify(&gp, "", "PB1 begin hugetlb-migrate\nPB1 check hugetlb-migrate invalid no node 1\n"
				    "PB1 end hugetlb-migrate 1\nPB1 done\n", false, 0, &d), BOOT_INVALID);
	CHECK_HAS(d, "no node 1");
	free(d);
	CHECK_INT(classify(&gp, "", "PB1 setup /sys/x 20 got=3 failed\nPB1 done\n", false, 0, &d),
		  BOOT_INVALID);
	CHECK_HAS(d, "set-up failed");
	CHECK_HAS(d, "did not run");
	free(d);
	CHECK_STR(boot_outcome_name(BOOT_PANIC), "boot-panic");
	CHECK_STR(boot_outcome_name(BOOT_QEMU_ERROR), "qemu-error");
	guest_plan_free(&gp);
	workloads_free(&set);
}
