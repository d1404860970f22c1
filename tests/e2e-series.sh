#!/bin/bash
# End-to-end, the stable workflow as it runs (make e2e-series; longer than
# make e2e, so a target of its own): the synthetic -rc of
# tests/data/series-slow (four patches on 6.1, the third clears 32
# subpages of each new anonymous THP twice) run as a whole, bisected to
# its known culprit and confirmed, and the answers mailed; the bundled
# queue paired as a series (taken out of the base), a series with a patch
# that does not apply refused. Real kernels in QEMU under tcg-icount.
# Prints "e2e-series: N passed, N failed" and the wall times.
#
# Its kernel cache is tests/e2e.sh's, kept: after make e2e the base kernel
# is there (PERFBOT_E2E_SERIES_CACHE moves it); the compiler cache is the
# normal one.
set -u
cd "$(dirname "$0")/.."
top=$PWD
perfbot=$top/build/perfbot
cache=${PERFBOT_E2E_SERIES_CACHE:-/var/cache/perfbot/e2e}
ccache_dir=${PERFBOT_CCACHE:-/var/cache/perfbot/ccache}
work=$(mktemp -d /tmp/perfbot-e2e-series.XXXXXX)
db=$work/results.db
reports=$work/reports
slow=$top/tests/data/series-slow
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { # check "what" command...
	local what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
q() { sqlite3 "$db" "$1"; }
pb() { local cmd=$1; shift; "$perfbot" "$cmd" --cache-dir "$cache" --db "$db" \
	--report-dir "$reports" -c cache.ccache="$ccache_dir" --accel tcg-icount "$@"; }
mkdir -p "$cache" "$ccache_dir"

echo "e2e-series: the bundled queue as a series: in the base already"
pb pair --series > "$work/pair.out" 2>&1
check "pair --series: the bundled queue is taken out of the base, mm patches last first" \
	grep -q "^series reverse  without: base-series with: base .*its 4 mm patches taken out, last first (3 by a port)" "$work/pair.out"
check "pair --series: in the order 772 771 765 031" grep -q "4 patches: 772 771 765 031 (reverted, last first)" "$work/pair.out"

echo "e2e-series: a series whose second patch does not apply after the first"
broken=$work/broken
mkdir -p "$broken"
cp "$slow"/*.patch "$broken/"
# patch 2's context next to its new line no longer matches the tree (the
# outer context lines would be fuzzed over)
sed -i 's/^ void folio_migrate_copy(/ void folio_migrate_copy_renamed(/' "$broken"/002-*.patch
pb run --series --queue "$broken" -w thp-anon > "$work/broken.out" 2> "$work/broken.err"
rc=$?
check "a patch that does not apply stops the series (exit 1, rc=$rc)" test "$rc" -eq 1
check "in one line naming it" bash -c "test \$(wc -l < '$work/broken.err') -eq 1 && grep -q 'series: patch 002 does not apply to 6.1.[0-9]* after the 1 before it' '$work/broken.err'"
check "and nothing was stored" bash -c "test ! -e '$db' || test \$(sqlite3 '$db' 'SELECT count(*) FROM comparisons') -eq 0"

echo "e2e-series: the synthetic -rc as a whole, as its review thread"
# the thread as a reviewer saves it: the cover letter (it names the -rc),
# each patch answering it, in the series' order
rc_mbox=$work/rc.mbox
{
	printf 'From gregkh@linuxfoundation.org Sat Dec  5 12:00:00 2026\nFrom: A Stable Maintainer <stable-maint@e2e.example>\n'
	printf 'To: stable@vger.kernel.org\nSubject: [PATCH 6.1 0/4] 6.1.999-rc1 review\nMessage-ID: <cover@rc.e2e.example>\n\n'
	printf 'This is the start of the stable review cycle for the 6.1.999 release.\n\n'
	for f in "$slow"/0*.patch; do
		n=$(basename "$f" | cut -c1-3)
		printf 'From gregkh@linuxfoundation.org Sat Dec  5 12:01:00 2026\nMessage-ID: <%s@rc.e2e.example>\n' "$n"
		printf 'In-Reply-To: <cover@rc.e2e.example>\nTo: stable@vger.kernel.org\n'
		cat "$f"
		echo
	done
} > "$rc_mbox"
# what the series finds it bisects, as the -rc's answer needs
start=$(date +%s)
pb run --series --queue "$rc_mbox" -w thp-anon --iterations 3 > "$work/series.out" 2> >(tee "$work/series.err" >&2)
rc=$?
total_s=$(( $(date +%s) - start ))
cat "$work/series.out"
series_s=$(q "SELECT CAST(round(wall_seconds) AS INTEGER) FROM comparisons WHERE kind='series'")
check "series run, bisect included, exits 5: the series' regression, its culprit confirmed (rc=$rc, ${total_s}s)" test "$rc" -eq 5
check "the -rc applies forward to its base" grep -q "^perfbot: pair formed by forward: 4 patches apply forward in series order" "$work/series.out"
check "the series is stored with its patches in order" \
	test "$(q "SELECT mode || ' ' || patches || ' ' || mm_only FROM series")" = "forward 001 002 003 004 0"
check "a series comparison, no patch" \
	test "$(q "SELECT count(*) FROM comparisons WHERE kind='series' AND patch_id IS NULL AND series_id IS NOT NULL")" -eq 1
# (the bisect's steps are stored comparisons too: the series' own results)
sc="comparison_id=(SELECT id FROM comparisons WHERE kind='series')"
check "the THP fault time regressed by the series" \
	test "$(q "SELECT verdict FROM results WHERE metric='fault_always_ms_per_gib' AND $sc")" = "regression"
check "by about the 32/512 of clearing the culprit adds (+3% to +9%)" \
	test "$(q "SELECT change_pct BETWEEN 3 AND 9 FROM results WHERE metric='fault_always_ms_per_gib' AND $sc")" = 1
check "named by the -rc its cover letter names" test "$(q "SELECT name || '|' || description || '|' || cover_message_id FROM series")" = "6.1.999-rc1|6.1.999-rc1 review|<cover@rc.e2e.example>"
# series-<name>-<8 hex of the sha256 of the queue's path as stored>.html
series_page=series-6.1.999-rc1-$(printf '%s' "$(q "SELECT queue FROM series")" | sha256sum | cut -c1-8).html
check "the series' page, keyed by its name and its queue ($series_page)" \
	grep -q "<h1>Series 6.1.999-rc1: 6.1.999-rc1 review" "$reports/$series_page"
check "the index lists it under the queue as a whole" grep -q "href=\"$series_page\"" "$reports/index.html"

echo "e2e-series: which patch did it"
bisect_s=$(q "SELECT CAST(round(wall_seconds) AS INTEGER) FROM bisects")
steps=$(q "SELECT steps FROM bisects")
check "the series run bisected the regression it found" \
	grep -q "^perfbot: the series showed a regression: bisecting comparison $(q "SELECT id FROM comparisons WHERE kind='series'") (--no-bisect: not)" "$work/series.out"
check "it names patch 3/4, confirmed" \
	grep -q "confirmed: \[PATCH 6.1 3/4\] mm/huge_memory: perfbot test: clear 32 subpages" "$work/series.out"
check "stored: culprit 3 at position 3 of 4, confirmed" \
	test "$(q "SELECT culprit || '/' || culprit_number || '/' || npatches || '/' || status FROM bisects")" = "3/3/4/confirmed"
check "confirmed as KernelCI asks: prefix 2 -> 3 bad twice, prefix 0 -> 2 good" \
	test "$(q "SELECT (SELECT count(*) FROM bisect_steps WHERE prefix_a=2 AND prefix_b=3 AND bad=1)
	        || '/' || (SELECT count(*) FROM bisect_steps WHERE prefix_a=0 AND prefix_b=2 AND bad=0)")" = "2/1"
check "every step is a stored comparison of kind bisect" \
	test "$(q "SELECT count(*) FROM bisect_steps s JOIN comparisons c ON c.id=s.comparison_id WHERE c.kind='bisect'")" -eq "$steps"
check "a log2(4) search: at most 4 comparisons with the confirmation ($steps)" test "$steps" -le 4
check "the series page shows the bisection and names the culprit" \
	grep -q "the culprit is \[PATCH 6.1 3/4\]" "$reports/$series_page"

echo "e2e-series: the answers, as a mail program reads them"
# each threads under the mail it answers: the cover letter, the culprit's
for what in "--series:<cover@rc.e2e.example>" "--bisect $(q "SELECT id FROM bisects"):<003@rc.e2e.example>"; do
	# shellcheck disable=SC2086
	if pb mail --queue "$rc_mbox" ${what%%:*} > "$work/mail.out" 2>&1; then
		eml=$(ls -t "$reports"/mail/*.eml | head -1)
		check "mail ${what%%:*}: parsed by Python's email package, In-Reply-To ${what#*:}" \
			python3 tests/check-mail.py "$eml" "${what#*:}"
	else
		fail "mail ${what%%:*}: $(head -1 "$work/mail.out")"
	fi
done

echo "e2e-series: series run ${series_s}s, bisect ${bisect_s}s in ${steps} steps"
rm -rf "$work"
echo "e2e-series: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
