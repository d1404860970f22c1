# perfbot: `make` builds the bot and the guest workloads, `make test` installs
# what is missing (as root), then runs the unit tests under ASan+UBSan and
# the end-to-end test on real kernels. `make run PATCH=771` is the main job.

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)
# bot/ holds the programs and their subcommands; each module directory
# below it one concern (kernel, vm, stats, run, db, report, input). Objects
# keep their file's name: names are unique across the directories.
MODULE_DIRS := $(sort $(dir $(wildcard bot/*/*.c)))
vpath %.c bot $(MODULE_DIRS)
CPPFLAGS += -D_GNU_SOURCE -Ibot $(patsubst %/,-I%,$(MODULE_DIRS))
HEADERS := $(wildcard bot/*.h bot/*/*.h)
LIBS    := -linih -lsqlite3 -lcrypto -lgsl -lgslcblas -lm -pthread
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD   := build
LIB_SRC := $(notdir $(filter-out bot/main.c bot/perfbotd.c,$(wildcard bot/*.c bot/*/*.c)))
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/schema.o $(BUILD)/obj/version.o
SAN_OBJ := $(patsubst %.c,$(BUILD)/asan/%.o,$(LIB_SRC)) $(BUILD)/asan/schema.o $(BUILD)/asan/version.o
UNIT_SRC := $(wildcard tests/unit/*.c) tests/sim/sim.c
WORKLOADS := $(patsubst workloads/%.c,$(BUILD)/workloads/%,$(wildcard workloads/*.c))

PATCH ?= 771

.PHONY: all setup run test unit bad-input fuzz fuzz-smoke e2e e2e-series bench bench-throughput bench-stats fresh-test clean FORCE
all: $(BUILD)/perfbot $(BUILD)/perfbotd $(BUILD)/perfbotd.service $(WORKLOADS)

$(BUILD)/obj $(BUILD)/asan $(BUILD)/workloads:
	mkdir -p $@

# The schema is one .sql file; the binary carries it as a string.
$(BUILD)/schema.c: bot/db/schema.sql | $(BUILD)/obj
	{ echo 'const char perfbot_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/obj/%.o: %.c $(HEADERS) | $(BUILD)/obj
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<
$(BUILD)/obj/schema.o: $(BUILD)/schema.c
	$(CC) $(CFLAGS) -c -o $@ $<

# The version is a file that changes only when git describe does.
$(BUILD)/version.c: FORCE | $(BUILD)/obj
	@v='const char perfbot_version[] = "$(VERSION)";'; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@
$(BUILD)/obj/version.o: $(BUILD)/version.c
	$(CC) $(CFLAGS) -c -o $@ $<
$(BUILD)/asan/version.o: $(BUILD)/version.c | $(BUILD)/asan
	$(CC) -O1 -g -c -o $@ $<
$(BUILD)/perfbot: $(BUILD)/obj/main.o $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/perfbotd: $(BUILD)/obj/perfbotd.o $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)
# The systemd unit, with this checkout's path.
$(BUILD)/perfbotd.service: scripts/perfbotd.service.in | $(BUILD)/obj
	sed 's|@TOP@|$(abspath .)|g' $< > $@

# Guest programs: static, so the initramfs needs no libraries.
$(BUILD)/workloads/%: workloads/%.c workloads/*.h | $(BUILD)/workloads
	$(CC) -std=gnu11 -Wall -Wextra -Werror -O2 -static -o $@ $<

$(BUILD)/asan/%.o: %.c $(HEADERS) | $(BUILD)/asan
	$(CC) $(CPPFLAGS) $(WARN) -O1 -g $(SAN) -c -o $@ $<
$(BUILD)/asan/schema.o: $(BUILD)/schema.c | $(BUILD)/asan
	$(CC) -O1 -g -c -o $@ $<
$(BUILD)/unit-tests: $(UNIT_SRC) tests/unit/*.h tests/sim/sim.h $(HEADERS) $(SAN_OBJ)
	$(CC) $(CPPFLAGS) -Itests/unit -Itests/sim $(WARN) -O1 -g $(SAN) -o $@ $(UNIT_SRC) $(SAN_OBJ) $(LIBS)
# The statistics on synthetic boots (tests/sim): no kernel, seconds.
$(BUILD)/bench-stats: tests/bench-stats.c tests/sim/sim.c tests/sim/sim.h $(HEADERS) $(LIB_OBJ)
	$(CC) $(CPPFLAGS) -Itests/sim $(WARN) $(CFLAGS) -o $@ tests/bench-stats.c tests/sim/sim.c $(LIB_OBJ) $(LIBS)

# libFuzzer targets (clang): the patch parser, config.ini, the guest's
# result lines, over the same sources built with the fuzzer's coverage.
FUZZ_CC      := clang
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz-%.c,$(BUILD)/fuzz/fuzz-%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_OBJ     := $(patsubst %.c,$(BUILD)/fuzz/%.o,$(LIB_SRC)) $(BUILD)/asan/schema.o $(BUILD)/asan/version.o
FUZZ_SECONDS ?= 300

$(BUILD)/fuzz:
	mkdir -p $@
$(BUILD)/fuzz/%.o: %.c $(HEADERS) | $(BUILD)/fuzz
	$(FUZZ_CC) $(CPPFLAGS) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(CPPFLAGS) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)

# make test: a short bounded run of each; make fuzz: FUZZ_SECONDS each.
fuzz-smoke: $(FUZZ_TARGETS)
	tests/fuzz/run $(BUILD)/fuzz 20
fuzz: $(FUZZ_TARGETS)
	tests/fuzz/run $(BUILD)/fuzz $(FUZZ_SECONDS)

setup:
	scripts/setup

run: setup all
	$(BUILD)/perfbot run --patch $(PATCH)

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests

# Each case of tests/bad-input/ refused in one line, nothing written.
bad-input: all
	tests/bad-input.sh

e2e: all
	tests/e2e.sh

# The stable workflow on a synthetic -rc: a series run, a bisect to its
# known culprit, the mails (about 15 minutes with a warm ccache; not in
# make test, which must stay well inside CI's time on a fresh machine).
e2e-series: all
	tests/e2e-series.sh

test:
	scripts/setup --tests
	$(MAKE) all unit
	$(MAKE) bad-input fuzz-smoke
	$(MAKE) e2e

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

clean:
	rm -rf $(BUILD)
