#!/bin/bash
# tests/layers.sh [--graph] [TOP]: perfbot's layers, each calling only down.
# tests/layers.sh --self-test: the check fails on a tree with an include
# that points up, SQL in run/, a print in kernel/ and a renderer that
# reads a file.
#
#   0 base      bot/base/: strings, files,
#               processes, options, mail headers, number formats, JSON
#   1 model     bot/model/: the types and their names
#   2 core      bot/input/, bot/stats/, bot/kernel/, bot/vm/
#   3 db        bot/db/: model <-> rows, the only SQL
#   4 run       bot/run/: the library that measures (events out, outcomes back)
#   5 report    bot/report/: load a view, render it (HTML, mail, terminal, JSON)
#   6 commands  bot/cli, bot/cmd-*, bot/main.c, bot/perfbotd.c: print, exit
#
# Reads every #include "..." of bot/ and resolves it to the file it names;
# and SQL (a statement's text, a call of sqlite3's that runs one) outside
# bot/db/ fails, a line each; so does, in every layer but base and the
# commands, a print to the terminal (printf, puts, stdout, stderr),
# an exit(), an exit status (PB_EXIT_*) or cli_error: those layers say
# what they do through event.h and return how it ended; and a renderer
# (answer.c, mail.c, json.c, html.c, pages.c, page-*.c) that queries,
# touches a file or runs a program: it renders a view loaded before.
# Prints, with --graph, which layer includes which and how often; always
# each include that points up (a lower layer's file naming a higher
# layer's header), one line each. Known ones still being taken apart are
# listed in tests/layers.allow, with why: one not listed there fails, and
# so does a listed one that is gone (strike it), so the list only shrinks.
# Last line: "layers: N passed, N failed" (an include each); exit 1 if any failed.
set -u
export LC_ALL=C
graph=false
[ "${1:-}" = --graph ] && { graph=true; shift; }
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --self-test ]; then
	# the check must fail on an include that points up: one added to a
	# copy of the tree (stats including the report's header)
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/tests"
	cp -a "$here/bot" "$t/"
	cp "$here/tests/layers.allow" "$t/tests/"
	echo '#include "report.h"' >> "$t/bot/stats/stats.c"
	echo 'static const char *q = "SELECT id FROM runs";' >> "$t/bot/run/host.c"
	printf 'static void say(void)\n{\n\tfprintf(stderr, "built\\n");\n}\n' >> "$t/bot/kernel/kernel.c"
	printf 'static char *peek(void)\n{\n\treturn read_file_tail\n\t\t("x", 64, NULL);\n}\n' >> "$t/bot/report/page-index.c"
	# literals and comments that only look like printing: none of these is one
	printf 'static const char *u = "http://x/*"; /* printf( */\nstatic const char *v = "stderr printf(";\nstatic char w = \x27"\x27;\n' >> "$t/bot/vm/guest.c"
	if "$0" "$t" > "$t/out" 2>&1; then
		echo "layers: the check passed a tree whose bot/stats/stats.c includes report.h"
		echo "layers: 0 passed, 1 failed"
		exit 1
	elif ! grep -q '^layers: bot/stats/stats.c:[0-9]*: core includes report (report.h)' "$t/out" ||
		! grep -q '^layers: bot/run/host.c:[0-9]*: SQL outside bot/db/' "$t/out" ||
		! grep -q '^layers: bot/kernel/kernel.c:[0-9]*: prints' "$t/out" ||
		! grep -q '^layers: bot/report/page-index.c:[0-9]*: a renderer queries' "$t/out" ||
		grep -q '^layers: bot/vm/guest.c' "$t/out"; then
		echo "layers: the check failed, but did not name stats.c including report.h, host.c's SQL, kernel.c's fprintf and page-index.c's read_file:"
		cat "$t/out"
		echo "layers: 0 passed, 1 failed"
		exit 1
	fi
	echo "layers: an include pointing up, SQL in run/, a print in kernel/ and a renderer reading a file are caught: $(grep -c '^layers: bot/' "$t/out") line(s)"
	echo "layers: 1 passed, 0 failed"
	exit 0
fi
top=${1:-$here}
allow=$top/tests/layers.allow
cd "$top" || exit 2

# layer NAME of a path under bot/
layer_of() {
	case $1 in
	bot/base/*) echo 0 base ;;
	bot/model/*) echo 1 model ;;
	bot/input/* | bot/stats/* | bot/kernel/* | bot/vm/*) echo 2 core ;;
	bot/db/*) echo 3 db ;;
	bot/run/*) echo 4 run ;;
	bot/report/*) echo 5 report ;;
	bot/cli.* | bot/cmd-*.c | bot/main.c | bot/perfbotd.c) echo 6 commands ;;
	*) echo "? unknown" ;;
	esac
}

declare -A where # header name -> its path
while read -r f; do
	where[${f##*/}]=$f
done < <(find bot -name '*.h' | sort)

passed=0
failed=0
: > /tmp/layers.$$.edges
trap 'rm -f /tmp/layers.$$.*' EXIT
while read -r f; do
	read -r rank name < <(layer_of "$f")
	if [ "$rank" = "?" ]; then
		echo "layers: $f is in no layer (tests/layers.sh: layer_of)"
		failed=$((failed + 1))
		continue
	fi
	while IFS=: read -r line inc; do
		inc=${inc#*\"}
		inc=${inc%%\"*}
		t=${where[${inc##*/}]:-}
		[ -n "$t" ] || continue # a header of the build (sysconfdir.h) or of a test
		read -r trank tname < <(layer_of "$t")
		echo "$name $tname" >> /tmp/layers.$$.edges
		if [ "$trank" != "?" ] && [ "$trank" -gt "$rank" ]; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$line" "$name" "$tname" "$inc" >> /tmp/layers.$$.up
		else
			passed=$((passed + 1))
		fi
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
done < <(find bot -name '*.[ch]' | sort)

if $graph; then
	echo "which layer includes which (includes, from a layer's files to another's headers):"
	sort /tmp/layers.$$.edges | uniq -c | awk '$2 != $3 { printf "  %-9s -> %-9s %4d\n", $2, $3, $1 }'
fi

# what points up, against the list of known ones (file: included header)
touch /tmp/layers.$$.up
grep -v '^#' "$allow" 2>/dev/null | awk 'NF { print $1 " " $2 }' | sort -u > /tmp/layers.$$.allowed
while IFS=$'\t' read -r f line name tname inc; do
	if grep -qx "$f $inc" /tmp/layers.$$.allowed; then
		echo "$f $inc" >> /tmp/layers.$$.seen
		passed=$((passed + 1))
	else
		echo "layers: $f:$line: $name includes $tname ($inc): a lower layer may not"
		failed=$((failed + 1))
	fi
done < /tmp/layers.$$.up
touch /tmp/layers.$$.seen
while read -r f inc; do
	if ! grep -qx "$f $inc" /tmp/layers.$$.seen; then
		echo "layers: tests/layers.allow lists $f including $inc, which no longer points up: strike it"
		failed=$((failed + 1))
	fi
done < /tmp/layers.$$.allowed
# SQL is the database layer's: no statement, and no call that runs one,
# anywhere else
while IFS=: read -r f line _; do
	echo "layers: $f:$line: SQL outside bot/db/: a function of db/ runs it"
	failed=$((failed + 1))
done < <(grep -rnE 'sqlite3_(prepare|exec|step|bind|column|mprintf)|"(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|BEGIN|COMMIT|ROLLBACK|PRAGMA)[ ";]' \
	--include='*.[ch]' bot | grep -v '^bot/db/')
passed=$((passed + 1))
# The library layers say what they do through event.h and return how it
# ended: no printing to the terminal, no exit status, no cli_error (code
# only: comments and string and character literals left out, in one pass
# from the left; a file such as a build log is theirs to write)
while IFS= read -r hit; do
	echo "layers: $hit: prints or picks an exit status: a library layer says it through event.h and returns how it ended"
	failed=$((failed + 1))
done < <(for f in $(find bot/model bot/input bot/stats bot/kernel bot/vm bot/db bot/run bot/report -name '*.[ch]' | sort); do
	perl -0777 -ne '
		s{(/\*.*?\*/)|(//[^\n]*)|("(?:\\.|[^"\\\n])*")|(\x27(?:\\.|[^\x27\\\n])*\x27)}
		 { defined $1 ? $1 =~ s/[^\n]//gr : defined $2 ? "" : defined $3 ? "\"\"" : "0" }gse;
		my $n = 0;
		for my $l (split /\n/, $_, -1) {
			$n++;
			print "$ARGV:$n\n" if $l =~ /(?<![\w.>])(printf|vprintf|dprintf|puts|putchar|perror|exit|_Exit|quick_exit|err|errx|warn|warnx|cli_error)\s*\(/ ||
				$l =~ /\b(stdout|stderr|STDOUT_FILENO|STDERR_FILENO)\b/ || $l =~ /\bwrite\s*\(\s*[12]\s*,/ ||
				$l =~ /\bPB_EXIT_/;
		}' "$f"
done)
passed=$((passed + 1))
# The renderers are pure functions of a view: what they show was loaded
# before (view.h, patch-view.h, index-view.h, trend-view.h, mail-view.h)
# and what a page links beside it written apart, so none of them runs a
# query, reads or writes a file or runs a program (code only, as above;
# a stream it is handed, the caller's, is no file of its own)
while IFS= read -r hit; do
	echo "layers: $hit: a renderer queries or touches a file: load it into the view, write it apart"
	failed=$((failed + 1))
done < <(for f in $(ls bot/report/answer.c bot/report/mail.c bot/report/json.c bot/report/html.c \
		bot/report/pages.c bot/report/page-*.c 2> /dev/null | sort); do
	perl -0777 -ne '
		s{(/\*.*?\*/)|(//[^\n]*)|("(?:\\.|[^"\\\n])*")|(\x27(?:\\.|[^\x27\\\n])*\x27)}
		 { defined $1 ? $1 =~ s/[^\n]//gr : defined $2 ? "" : defined $3 ? "\"\"" : "0" }gse;
		# over the whole text: a call whose "(" is on the next line counts
		while (/(?<![\w.>])(db_\w+|jobdb_\w+|sqlite3_\w+|\w*view_load|\w+_view_(?:plots|configs)|report_write_\w+|read_file\w*|log_missing_program|write_file\w*|copy_file|mkdir_p|path_exists|is_dir|dir_names|sha256_file|rm_rf|exe_dir|plot_strip|plot_trend|fopen|fdopen|freopen|open|opendir|stat|lstat|access|remove|rename|unlink|popen|system|spawn_\w+|program_in_path)\s*\(/g) {
			print "$ARGV:", 1 + (substr($_, 0, $-[0]) =~ tr/\n//), "\n";
		}' "$f" || echo "$f:0"
done)
passed=$((passed + 1))

echo "layers: $(wc -l < /tmp/layers.$$.edges) includes of $(find bot -name '*.[ch]' | wc -l) files;" \
	"$(wc -l < /tmp/layers.$$.up) point up, $(wc -l < /tmp/layers.$$.allowed) known (tests/layers.allow)"
echo "layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
