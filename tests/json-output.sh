#!/bin/bash
# perfbot list, pair and jobs --json, each document parsed by Python's json
# module: a queue written here whose first subject carries a quote, a
# backslash and a byte that is not UTF-8, paired on a tiny kernel tarball
# (no kernel is built or booted), and a database with a job whose message
# carries the same. Each command must print one document and nothing else
# on stdout, with its usual exit status; submit, which prints no JSON, must
# print that subject as UTF-8. Prints "json-output: N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
perfbot=$PWD/build/perfbot
work=$(mktemp -d /tmp/perfbot-json.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

if ! command -v python3 > /dev/null; then
	echo "json-output: python3 is missing (scripts/setup --tests installs it)"
	exit 1
fi

# a "kernel" 6.1.0 of a Makefile and mm/a.c ("line 1" to "line 40", line
# 30 already "line thirty")
mkdir -p "$work/linux-6.1/mm" "$work/queue"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' > "$work/linux-6.1/Makefile"
seq 1 40 | sed -e 's/^/line /' -e 's/^line 30$/line thirty/' > "$work/linux-6.1/mm/a.c"
tar -C "$work" -cJf "$work/linux.tar.xz" linux-6.1

# write_patch N SUBJECT AT OLD NEW: [PATCH 6.1 N/3] changing line AT of mm/a.c
write_patch() {
	{
		printf 'From: Test <t@example.org>\nSubject: [PATCH 6.1 %03d/3] %s\n\n' "$1" "$2"
		printf 'Signed-off-by: Test <t@example.org>\n---\n--- a/mm/a.c\n+++ b/mm/a.c\n'
		printf '@@ -%d,7 +%d,7 @@\n' $(($3 - 3)) $(($3 - 3))
		printf ' line %d\n' $(($3 - 3)) $(($3 - 2)) $(($3 - 1))
		printf -- '-%s\n+%s\n' "$4" "$5"
		printf ' line %d\n' $(($3 + 1)) $(($3 + 2)) $(($3 + 3))
	} > "$work/queue/$(printf %03d "$1").patch"
}
subject=$(printf 'mm: a "quoted" back\\slash \xff fix')
write_patch 1 "$subject" 20 "line 20" "line twenty"
write_patch 2 "mm: already in the base" 30 "line 30" "line thirty"
write_patch 3 "mm: applies nowhere" 10 "line ten" "line TEN"

common=(--queue "$work/queue" --kernel-source "$work/linux.tar.xz"
	--cache-dir "$work/cache" --db "$work/results.db")

# check WANT_RC CHECK ARGS...: perfbot ARGS exits WANT_RC and prints one
# JSON document for which the Python expression CHECK (over d) is true.
check() {
	local want=$1 expr=$2 rc why=""
	shift 2
	"$perfbot" "$1" "${common[@]}" "${@:2}" > "$work/out" 2> "$work/err"
	rc=$?
	[ "$rc" -eq "$want" ] || why="exit $rc, not $want"
	[ -z "$why" ] && ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if eval(sys.argv[2]) else 3)' "$work/out" "$expr" 2> "$work/py" &&
		why="not one JSON document, or not $expr: $(tail -1 "$work/py")"
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		echo "ok   - $* (exit $rc)"
	else
		failed=$((failed + 1))
		echo "FAIL - $*: $why"
		head -c 600 "$work/out" | sed 's/^/       /'
		sed 's/^/       /' "$work/err" | head -n 5
	fi
}

# the subject as Python reads the document: U+FFFD for the stray byte
s='"mm: a \"quoted\" back\\slash \ufffd fix"'
check 0 "[p['subject'] for p in d['patches']] == [$s, 'mm: already in the base', 'mm: applies nowhere'] and d['patches'][0]['number'] == 1 and d['patches'][0]['files'][0] == {'path': 'mm/a.c', 'added': 1, 'removed': 1} and d['description'] is None" \
	list --json
check 0 "len(d['patches']) == 3 and all(p['is_mm'] for p in d['patches'])" list --json --mm --long
check 1 "[p['method'] for p in d] == ['forward', 'reverse', None] and d[2]['error'].startswith('patch 003') and d[0]['with']['applied'][0]['patch'] == 1 and d[1]['without']['applied'][0]['reverse']" \
	pair --json
check 0 "len(d) == 1 and d[0]['label'] == '002' and d[0]['with'] == {'label': 'base', 'applied': []}" \
	pair --json --patch 2
check 0 "d == []" jobs --json

rm "$work/queue/002.patch" "$work/queue/003.patch"
check 0 "len(d) == 1 and d[0]['patch'] is None and d[0]['method'] == 'forward' and d[0]['summary'] == '1 patch: 001 (forward)' and d[0]['detail'].startswith('1 patch applies forward in series order')" \
	pair --json --series
"$perfbot" submit "${common[@]}" --patch 1 -w thp-anon -f > "$work/submit.out" 2>&1
# not JSON, but the same subject: submit names it without its stray byte
if python3 -c 'import sys; t = open(sys.argv[1], "rb").read(); t.decode("utf-8"); assert b"job 1 queued" in t and b"quoted" in t, t' "$work/submit.out" 2> /dev/null; then
	passed=$((passed + 1)); echo "ok   - submit: the subject's line is UTF-8"
else
	failed=$((failed + 1)); echo "FAIL - submit: no 'job 1 queued' line with the subject, in UTF-8: $(cat -v "$work/submit.out")"
fi
sqlite3 "$work/results.db" "UPDATE jobs SET state = 'failed', exit_status = 1, message = 'it \"broke\" \\ here' || char(10) || CAST(x'ff' AS TEXT)"
check 0 "len(d) == 1 and d[0]['state'] == 'failed' and d[0]['workloads'] == ['thp-anon'] and d[0]['force'] and d[0]['message'] == 'it \"broke\" \\\\ here\\n\ufffd' and d[0]['comparison_id'] is None" \
	jobs --json

# the database has no comparison yet: the document says so
check 0 "d == {'comparisons': []}" report --json
# run --json prints its document even when it cannot run: the status it exits with
check 1 "d == {'exit_status': 1, 'comparisons': []}" run --json --patch 12345
check 1 "d == {'exit_status': 1, 'comparisons': []}" run --json --patch-file "$work/nonexistent.patch"
check 128 "d == {'exit_status': 128, 'comparisons': []}" run --json --bisect-exit --patch 12345
# a patch of one's own that is not mm: nothing measured, exit 0
printf 'Subject: [RESEND PATCH v2] docs: a typo\n\n---\n--- a/Documentation/x.txt\n+++ b/Documentation/x.txt\n@@ -1 +1 @@\n-a\n+b\n' > "$work/docs.patch"
check 0 "d == {'exit_status': 0, 'comparisons': []}" run --json --patch-file "$work/docs.patch"
grep -q "^perfbot: patch [0-9a-f]\{12\} (docs: a typo) is not an mm patch" "$work/err" ||
	{ failed=$((failed + 1)); echo "FAIL - run --patch-file of a docs patch: not said on stderr"; }

echo "json-output: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq 13 ]
