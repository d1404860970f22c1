# perfbot: `make` builds the bot and the guest workloads, `make test` installs
# what is missing (as root), then runs the unit tests under ASan+UBSan and
# the end-to-end test on real kernels. `make run PATCH=771` is the main job;
# `make install` (PREFIX, DESTDIR) and `make deb` install it.

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral
# safe.directory: root installing from a user's checkout (sudo make install)
VERSION := $(shell git -c safe.directory='$(CURDIR)' describe --always --dirty 2>/dev/null || echo 0.1)
# bot/ holds the programs and their subcommands; each module directory
# below it one concern (kernel, vm, stats, run, db, report, input). Objects
# keep their file's name: names are unique across the directories.
# The directories are layers (README.md, Layout), each seeing only its own
# headers and those below: a file of a layer is compiled with the include
# path up to its layer, so an include that points up does not compile.
INC_base     := -Ibot/base
INC_model    := $(INC_base) -Ibot/model
INC_core     := $(INC_model) -Ibot/input -Ibot/stats -Ibot/kernel -Ibot/vm
INC_db       := $(INC_core) -Ibot/db
INC_run      := $(INC_db) -Ibot/run
INC_report   := $(INC_run) -Ibot/report
# the commands (cli.c, cmd-*.c, main.c, perfbotd.c) and the tests see all
INC_commands := $(INC_report) -Ibot
LAYER_DIRS_base   := bot/base
LAYER_DIRS_model  := bot/model
LAYER_DIRS_core   := bot/input bot/stats bot/kernel bot/vm
LAYER_DIRS_db     := bot/db
LAYER_DIRS_run    := bot/run
LAYER_DIRS_report := bot/report
LAYER_INC := $(INC_commands)
define layer_objects
$(foreach d,obj asan fuzz,$(patsubst %.c,$(BUILD)/$(d)/%.o,$(notdir $(wildcard $(addsuffix /*.c,$(LAYER_DIRS_$(1))))))): LAYER_INC := $(INC_$(1))
endef
MODULE_DIRS := $(sort $(dir $(wildcard bot/*/*.c)))
vpath %.c bot $(MODULE_DIRS)
CPPFLAGS += -D_GNU_SOURCE
HEADERS := $(wildcard bot/*.h bot/*/*.h)
LIBS    := -linih -lsqlite3 -lcrypto -lgsl -lgslcblas -lm -pthread
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD   := build
HEADERS += $(BUILD)/sysconfdir.h
$(foreach l,base model core db run report,$(eval $(call layer_objects,$(l))))
# The library (every layer but the commands) is an archive: libperfbot.a,
# and its ASan+UBSan twin for the tests; the commands are objects of
# their own, linked with it into perfbot and perfbotd (and the tests).
LIB_SRC := $(notdir $(wildcard bot/*/*.c))
CMD_SRC := $(notdir $(filter-out bot/main.c bot/perfbotd.c,$(wildcard bot/*.c)))
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/schema.o $(BUILD)/obj/version.o
CMD_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(CMD_SRC))
SAN_OBJ := $(patsubst %.c,$(BUILD)/asan/%.o,$(LIB_SRC)) $(BUILD)/asan/schema.o $(BUILD)/asan/version.o
SAN_CMD_OBJ := $(patsubst %.c,$(BUILD)/asan/%.o,$(CMD_SRC))
LIB     := $(BUILD)/libperfbot.a
SAN_LIB := $(BUILD)/asan/libperfbot.a
UNIT_SRC := $(wildcard tests/unit/*.c) tests/sim/sim.c
WORKLOADS := $(patsubst workloads/%.c,$(BUILD)/workloads/%,$(wildcard workloads/*.c))

PATCH ?= 771

# make install: PREFIX/bin/perfbot, PREFIX/sbin/perfbotd, perfbot's own files
# in PREFIX/share/perfbot (workload declarations, the guest's init, the
# example queue, the kernel fragment and ports) and the static guest
# programs in PREFIX/lib/perfbot; the config in SYSCONFDIR/perfbot. An
# installed perfbot finds them from its own path (bot/input/layout.c).
PREFIX        ?= /usr/local
SYSCONFDIR    ?= /etc
BINDIR        := $(PREFIX)/bin
SBINDIR       := $(PREFIX)/sbin
DATADIR       := $(PREFIX)/share/perfbot
LIBDIR        := $(PREFIX)/lib/perfbot
MANDIR        := $(PREFIX)/share/man
BASHCOMPDIR   ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
CPPFLAGS += -I$(BUILD)
MANPAGES := doc/perfbot.1 doc/perfbotd.8 doc/perfbot.ini.5
UNITS    := $(BUILD)/install/perfbotd.service $(BUILD)/install/perfbot-nightly.service

.PHONY: all setup run test unit layers names golden bad-input json-output fuzz fuzz-smoke e2e e2e-series bench bench-throughput bench-stats fresh-test clean FORCE \
	install uninstall install-test check-docs deb tcg-soak slurm-test
all: $(BUILD)/perfbot $(BUILD)/perfbotd $(BUILD)/perfbotd.service $(WORKLOADS)

$(BUILD)/obj $(BUILD)/asan $(BUILD)/workloads:
	mkdir -p $@

# The schema is one .sql file; the binary carries it as a string.
$(BUILD)/schema.c: bot/db/schema.sql | $(BUILD)/obj
	{ echo 'const char perfbot_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/obj/%.o: %.c $(HEADERS) | $(BUILD)/obj
	$(CC) $(CPPFLAGS) $(LAYER_INC) $(WARN) $(CFLAGS) -c -o $@ $<
$(BUILD)/obj/schema.o: $(BUILD)/schema.c
	$(CC) $(CFLAGS) -c -o $@ $<

# Where an installed perfbot looks for its config, compiled in: a header
# that changes only when SYSCONFDIR does (every object depends on it).
$(BUILD)/sysconfdir.h: FORCE | $(BUILD)/obj
	@v='#define PERFBOT_SYSCONFDIR "$(SYSCONFDIR)"'; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@

# The version is a file that changes only when git describe does.
$(BUILD)/version.c: FORCE | $(BUILD)/obj
	@v='const char perfbot_version[] = "$(VERSION)";'; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@
$(BUILD)/obj/version.o: $(BUILD)/version.c
	$(CC) $(CFLAGS) -c -o $@ $<
$(BUILD)/asan/version.o: $(BUILD)/version.c | $(BUILD)/asan
	$(CC) -O1 -g -c -o $@ $<
$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(SAN_LIB): $(SAN_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/perfbot: $(BUILD)/obj/main.o $(CMD_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/perfbotd: $(BUILD)/obj/perfbotd.o $(CMD_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
# The systemd units: from a checkout, perfbotd as root with the checkout's
# paths; installed, as the `perfbot` user with the installed ones.
$(BUILD)/perfbotd.service: scripts/systemd/perfbotd.service.in | $(BUILD)/obj
	sed -e '/@USER@/d' -e 's|@DOC@|file://$(abspath .)/README.md|' \
	    -e 's|@WORKDIR@|$(abspath .)|' -e 's|@SBINDIR@|$(abspath $(BUILD))|' $< > $@
# (rewritten only when PREFIX changes what they say)
$(BUILD)/install/%.service: scripts/systemd/%.service.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@USER@|User=perfbot\nGroup=perfbot\nStateDirectory=perfbot\nCacheDirectory=perfbot|' \
	    -e 's|@DOC@|man:perfbotd(8)|' -e 's|@WORKDIR@|/var/lib/perfbot|' \
	    -e 's|@SBINDIR@|$(SBINDIR)|' -e 's|@BINDIR@|$(BINDIR)|' $< > $@.new && \
	  { cmp -s $@.new $@ && rm $@.new || mv $@.new $@; }

# Guest programs: static, so the initramfs needs no libraries.
$(BUILD)/workloads/%: workloads/%.c workloads/*.h | $(BUILD)/workloads
	$(CC) -std=gnu11 -Wall -Wextra -Werror -O2 -static -o $@ $<

$(BUILD)/asan/%.o: %.c $(HEADERS) | $(BUILD)/asan
	$(CC) $(CPPFLAGS) $(LAYER_INC) $(WARN) -O1 -g $(SAN) -c -o $@ $<
$(BUILD)/asan/schema.o: $(BUILD)/schema.c | $(BUILD)/asan
	$(CC) -O1 -g -c -o $@ $<
$(BUILD)/unit-tests: $(UNIT_SRC) tests/unit/*.h tests/sim/sim.h $(HEADERS) $(SAN_CMD_OBJ) $(SAN_LIB)
	$(CC) $(CPPFLAGS) $(INC_commands) -Itests/unit -Itests/sim $(WARN) -O1 -g $(SAN) -o $@ $(UNIT_SRC) \
	  $(SAN_CMD_OBJ) $(SAN_LIB) $(LIBS)
# The statistics on synthetic boots (tests/sim): no kernel, seconds.
$(BUILD)/bench-stats: tests/bench-stats.c tests/sim/sim.c tests/sim/sim.h $(HEADERS) $(LIB)
	$(CC) $(CPPFLAGS) $(INC_commands) -Itests/sim $(WARN) $(CFLAGS) -o $@ tests/bench-stats.c tests/sim/sim.c \
	  $(LIB) $(LIBS)

# libFuzzer targets (clang): the patch parser, config.ini, the guest's
# result lines, over the same sources built with the fuzzer's coverage.
FUZZ_CC      := clang
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz-%.c,$(BUILD)/fuzz/fuzz-%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_OBJ     := $(patsubst %.c,$(BUILD)/fuzz/%.o,$(LIB_SRC) $(CMD_SRC)) $(BUILD)/asan/schema.o \
		$(BUILD)/asan/version.o
FUZZ_SECONDS ?= 300

$(BUILD)/fuzz:
	mkdir -p $@
$(BUILD)/fuzz/%.o: %.c $(HEADERS) | $(BUILD)/fuzz
	$(FUZZ_CC) $(CPPFLAGS) $(LAYER_INC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(CPPFLAGS) $(INC_commands) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)

# make test: a short bounded run of each; make fuzz: FUZZ_SECONDS each.
fuzz-smoke: $(FUZZ_TARGETS)
	tests/fuzz/run $(BUILD)/fuzz 20
fuzz: $(FUZZ_TARGETS)
	tests/fuzz/run $(BUILD)/fuzz $(FUZZ_SECONDS)

setup:
	scripts/setup

# the run's answer is its job: a regression (5) or a behaviour change (6)
# found is a run that worked; a kernel that failed (3) or an error is not
run: setup all
	$(BUILD)/perfbot run --patch $(PATCH); rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ] || [ $$rc -eq 6 ]

# make unit SUITE='stats compare': those suites alone (tests/unit/main.c)
unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests $(SUITE)

# Each case of tests/bad-input/ refused in one line, nothing written.
bad-input: all
	tests/bad-input.sh

# list, pair and jobs --json parsed by python3 (a tiny kernel tarball, no build).
json-output: $(BUILD)/perfbot
	tests/json-output.sh

e2e: all
	tests/e2e.sh

# What perfbot shows of stored comparisons (report, report --text and
# --json, mail) from the fixture database of tests/golden/, byte for byte
# against tests/golden/expected/ (GOLDEN=--update writes it anew).
golden: $(BUILD)/perfbot
	tests/golden.sh $(GOLDEN)

# The layers (tests/layers.sh): which includes which, and none pointing up
# but the known ones of tests/layers.allow, no SQL outside bot/db/; no
# function over 80 lines but those of tests/long-functions.allow; then
# that each check catches what it is for.
layers:
	tests/layers.sh --graph
	tests/layers.sh --self-test
	tests/long-functions.sh
	tests/long-functions.sh --self-test

# The model's names spelled only in its tables (tests/names.sh), and that
# the check catches one spelled again.
names:
	tests/names.sh
	tests/names.sh --self-test

# The stable workflow on a synthetic -rc: a series run, a bisect to its
# known culprit, the mails (about 15 minutes with a warm ccache; not in
# make test, which must stay well inside CI's time on a fresh machine).
e2e-series: all
	tests/e2e-series.sh

# perfbot nightly, run, a perfbotd job, a series and its bisect through
# Slurm on a one-machine cluster the test starts (root; installs
# slurm-wlm and munge when missing; about 40 minutes).
slurm-test: all
	tests/slurm.sh

test:
	scripts/setup --tests
	$(MAKE) all unit
	$(MAKE) layers names golden bad-input json-output fuzz-smoke check-docs install-test deb
	$(MAKE) e2e

# Plain TCG boot after boot: the base kernel SOAK_BOOTS times in a row,
# every boot ok or it fails (about 20 minutes on 2 cores, kernel cached).
SOAK_BOOTS ?= 30
tcg-soak: setup all
	tests/tcg-soak.sh $(SOAK_BOOTS)

# The README's two commands in a fresh debootstrap root (about an hour).
fresh-test:
	tests/fresh-machine.sh

# Sensitivity of the verdicts (prints figures, passes or fails nothing):
# about 25 minutes on 2 cores with the defaults; BENCH='--pool 4' is quicker.
bench: setup all
	$(BUILD)/perfbot bench $(BENCH)

# Throughput (prints figures): the bundled queue's mm patches one guest at
# a time and side by side, with the kernels cached, then a nightly; about
# 20 minutes on 2 cores warm (PERFBOT_BENCH_CACHE: the cache dir to use).
bench-throughput: setup all
	tests/bench-throughput.sh

# False alarms, power, coverage of the verdict rules on synthetic boots
# (seconds; BENCH_TRIALS per cell).
BENCH_TRIALS ?= 2000
bench-stats: $(BUILD)/bench-stats
	$(BUILD)/bench-stats $(BENCH_TRIALS)

# make install [PREFIX=/usr/local] [DESTDIR=]: see PREFIX above.
install: all $(UNITS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBDIR)/workloads \
	  $(DESTDIR)$(DATADIR)/workloads $(DESTDIR)$(DATADIR)/queue/stable-5.13 \
	  $(DESTDIR)$(SYSCONFDIR)/perfbot $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
	  $(DESTDIR)$(PREFIX)/share/doc/perfbot
	install -m 755 $(BUILD)/perfbot $(DESTDIR)$(BINDIR)/perfbot
	install -m 755 $(BUILD)/perfbotd $(DESTDIR)$(SBINDIR)/perfbotd
	install -m 755 $(WORKLOADS) $(DESTDIR)$(LIBDIR)/workloads/
	install -m 644 workloads/*.ini $(DESTDIR)$(DATADIR)/workloads/
	install -m 644 workloads/README.md $(DESTDIR)$(PREFIX)/share/doc/perfbot/workloads.md
	install -m 755 workloads/init $(DESTDIR)$(DATADIR)/workloads/init
	install -m 644 queue/stable-5.13/* $(DESTDIR)$(DATADIR)/queue/stable-5.13/
	cd kernels && find . -type f | while read -r f; do \
	  install -D -m 644 "$$f" "$(DESTDIR)$(DATADIR)/kernels/$$f" || exit 1; done
	@# the config is the user's once installed: never overwritten
	[ -e $(DESTDIR)$(SYSCONFDIR)/perfbot/config.ini ] || \
	  install -m 644 config.ini $(DESTDIR)$(SYSCONFDIR)/perfbot/config.ini
	install -m 644 doc/perfbot.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 doc/perfbot.ini.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 doc/perfbotd.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 completion/perfbot $(DESTDIR)$(BASHCOMPDIR)/perfbot
	ln -sf perfbot $(DESTDIR)$(BASHCOMPDIR)/perfbotd
	install -m 644 $(UNITS) scripts/systemd/perfbot-nightly.timer $(DESTDIR)$(SYSTEMDUNITDIR)/

# Leaves the config (it may hold the user's settings) and what perfbot
# wrote: results, reports, the cache.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perfbot $(DESTDIR)$(SBINDIR)/perfbotd
	rm -rf $(DESTDIR)$(LIBDIR)/workloads $(DESTDIR)$(DATADIR)/workloads \
	  $(DESTDIR)$(DATADIR)/queue/stable-5.13 $(DESTDIR)$(DATADIR)/kernels
	rm -f $(DESTDIR)$(PREFIX)/share/doc/perfbot/workloads.md
	rmdir $(DESTDIR)$(LIBDIR) $(DESTDIR)$(DATADIR)/queue $(DESTDIR)$(DATADIR) \
	  $(DESTDIR)$(PREFIX)/share/doc/perfbot 2> /dev/null || true
	rm -f $(DESTDIR)$(MANDIR)/man1/perfbot.1 $(DESTDIR)$(MANDIR)/man5/perfbot.ini.5 \
	  $(DESTDIR)$(MANDIR)/man8/perfbotd.8 $(DESTDIR)$(BASHCOMPDIR)/perfbot $(DESTDIR)$(BASHCOMPDIR)/perfbotd \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/perfbotd.service $(DESTDIR)$(SYSTEMDUNITDIR)/perfbot-nightly.service \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/perfbot-nightly.timer

# The man pages and the completion against the binary's own help and
# config table (mandoc -T lint included).
check-docs: all
	tests/check-docs.sh $(BUILD)

# make install into a scratch DESTDIR, run from there with no checkout.
install-test: all
	tests/install-test.sh

# The Debian package from the work tree's files (a clean clone's, in CI)
# and lintian over it (the .deb is left in $(BUILD)/deb/).
deb:
	tests/deb.sh

clean:
	rm -rf $(BUILD)
