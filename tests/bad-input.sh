#!/bin/bash
# The bad-input corpus: every directory of tests/bad-input/ is one case, a
# perfbot command line that must be refused cleanly:
#   cmd     the arguments after "perfbot" (shell words; @DIR@ is the case's
#           scratch copy, also in its *.ini files)
#   expect  a text the error must contain
#   setup   (optional) bash, run in the scratch copy first (generated input)
#   program (optional) "perfbotd": cmd is perfbotd's arguments, not perfbot's
#   ...     the case's files: queues, patches, config.ini, databases
# Each must exit 1 or 2 with exactly one line on stderr that contains the
# expected text, and leave the database, the case's own files, the report
# and cache directories as they were. Prints "bad-input: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
perfbot=$top/build/perfbot
work=$(mktemp -d /tmp/perfbot-bad-input.XXXXXX)
db=$work/results.db
passed=0 failed=0 cases=0
common=(--db "$db" --report-dir "$work/reports" --cache-dir "$work/cache")

# a database with something in it: a queued job
if ! "$perfbot" submit --patch 771 "${common[@]}" > /dev/null; then
	echo "bad-input: cannot set up the database"
	exit 1
fi
dump() { sqlite3 "$db" .dump | sha256sum; }
tree() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum 2> /dev/null | sha256sum; find . | sort | sha256sum); }
db_before=$(dump)

for dir in tests/bad-input/*/; do
	name=$(basename "$dir")
	scratch=$work/case/$name
	mkdir -p "$scratch"
	cp -r "$dir". "$scratch"
	for f in "$scratch"/cmd "$scratch"/*.ini; do
		[ -f "$f" ] && sed -i "s|@DIR@|$scratch|g" "$f"
	done
	if [ -f "$scratch/setup" ] && ! (cd "$scratch" && bash setup); then
		echo "FAIL - $name: its setup failed"
		failed=$((failed + 1))
		continue
	fi
	read -r line < "$scratch/cmd"
	eval "set -- $line"
	expect=$(cat "$scratch/expect")
	files_before=$(tree "$scratch")
	if [ "$(cat "$scratch/program" 2> /dev/null)" = perfbotd ]; then
		timeout -s KILL 60 "$top/build/perfbotd" "${common[@]}" "$@" > "$work/out" 2> "$work/err"
		rc=$?
	else
		sub=$1
		shift
		timeout -s KILL 60 "$perfbot" "$sub" "${common[@]}" "$@" > "$work/out" 2> "$work/err"
		rc=$?
	fi
	cases=$((cases + 1))
	why=""
	[ "$rc" -eq 137 ] && why="still running after 60 s (a refusal is immediate)"
	[ -z "$why" ] && { [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || why="exit $rc, not 1 or 2"; }
	[ -z "$why" ] && [ "$(wc -l < "$work/err")" -ne 1 ] && why="$(wc -l < "$work/err") lines on stderr"
	[ -z "$why" ] && ! grep -qF -- "$expect" "$work/err" && why="the error does not say '$expect'"
	[ -z "$why" ] && [ "$(dump)" != "$db_before" ] && why="the database changed"
	[ -z "$why" ] && [ "$(tree "$scratch")" != "$files_before" ] && why="its files changed"
	[ -z "$why" ] && [ -e "$work/reports" ] && why="a report directory appeared"
	[ -z "$why" ] && [ -e "$work/cache" ] && why="a cache directory appeared"
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		echo "ok   - $name (exit $rc): $(cut -c1-150 "$work/err")"
	else
		failed=$((failed + 1))
		echo "FAIL - $name: $why"
		sed 's/^/       /' "$work/err" | head -n 5
		rm -rf "$work/reports" "$work/cache"
		db_before=$(dump) # the next case is judged on its own
	fi
done
rm -rf "$work"
echo "bad-input: $cases cases, $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$cases" -ge 50 ]
