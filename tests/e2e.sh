#!/bin/bash
# End-to-end: `perfbot run --patch 771` on real 6.1 kernels in QEMU, from an
# empty cache directory and an empty database, then the cached second run
# and the inputs perfbot must refuse. Prints "e2e: N passed, N failed".
#
# The kernel trees and builds start empty every time (a real cold build);
# only the compiler cache is shared with the normal cache directory, so a
# re-run on the same machine compiles from ccache. PERFBOT_E2E_CACHE and
# PERFBOT_CCACHE move them.
set -u
cd "$(dirname "$0")/.."
top=$PWD
perfbot=$top/build/perfbot
cache=${PERFBOT_E2E_CACHE:-/var/cache/perfbot/e2e}
ccache_dir=${PERFBOT_CCACHE:-/var/cache/perfbot/ccache}
work=$(mktemp -d /tmp/perfbot-e2e.XXXXXX)
db=$work/results.db
reports=$work/reports
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { # check "what" command...
	local what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
q() { sqlite3 "$db" "$1"; }
# run's exit status for comparison $1, from what the database stored: 3 a
# kernel that failed, 5 a regression, 6 a behaviour change alone, else 0
expected_rc() {
	q "SELECT CASE WHEN status<>'measured' THEN 3 WHEN verdict='regression' THEN 5
	   WHEN behaviour='behaviour change' THEN 6 ELSE 0 END FROM comparisons WHERE id=$1"
}
# the lines of a run's answer, from its headline to the end of its
# reproduce line, which is cut with '\' before 100 columns (where depends
# on how long the queue's path is)
answer_of() { awk -v h="^$1: " '$0 ~ h { on = 1 } on { print } on && /^reproduce: / { r = 1 }
	r && !/\\$/ { exit }' "$2"; }
# an answer's reproduce command on one line, its cuts joined
reproduce_of() { sed -n '/^reproduce: /,$p' "$1" | sed -e ':a' -e '/\\$/{N;s/ \\\n *\([^ ]\)/ \1/;ta}'; }
# a patch's report page, of the queue whose directory is named $2 (the
# bundled stable-5.13 by default): queue-<name>-<hash>-<label>.html (the
# literal pattern, which does not exist, if there is none). The nightly's
# queue has a 771 too, in this database.
page() { local f; for f in "$reports"/queue-"${2:-stable-5.13}"-????????-"$1".html; do echo "$f"; return; done; }
# a queue's page, by its directory's name: queue-<name>-<hash>.html
queue_page() { local f; for f in "$reports"/queue-"$1"-????????.html; do echo "$f"; return; done; }
# perfbot takes its options after the subcommand
# The kernel's vm selftests run for 771 and 765 (kselftest-vm): the e2e runs
# three of them (about 10 s a boot) instead of the set (about 27 s).
kst=khugepaged,migration,hugepage-vmemmap
pb() { local cmd=$1; shift; "$perfbot" "$cmd" --cache-dir "$cache" --db "$db" \
	--report-dir "$reports" -c cache.ccache="$ccache_dir" -c workload.kselftest-vm.only=$kst "$@"; }

rm -rf "$cache"
mkdir -p "$cache" "$ccache_dir"

echo "e2e: cold run of patch 771 (cache $cache, database $db)"
start=$(date +%s)
pb run --patch 771 > "$work/run1.out" 2> >(tee "$work/run1.err" >&2)
rc=$?
cold=$(( $(date +%s) - start ))
cat "$work/run1.out"
check "cold run exits 6, a behaviour change (rc=$rc, ${cold}s)" test "$rc" -eq 6
check "the pair is formed by the port" grep -q "pair formed by port" "$work/run1.out"
check "the accelerator and why are printed" grep -q "perfbot: accelerator tcg-icount: auto: " "$work/run1.out"
check "both kernels were built now" test "$(grep -c '(built now)' "$work/run1.err")" -eq 2
check "4 runs stored, all ok" test "$(q "SELECT count(*) FROM runs WHERE outcome='ok'")" -eq 4
# why: no /dev/kvm at all, one without vmx/svm (kvm_pvm), or a silent probe boot
check "runs record the accelerator and why KVM was not used" \
	test "$(q "SELECT count(*) FROM runs WHERE accel='tcg-icount' AND accel_reason LIKE 'auto: %' AND (accel_reason LIKE '%no /dev/kvm%' OR accel_reason LIKE '%not accessible to this user%' OR accel_reason LIKE '%no vmx/svm%' OR accel_reason LIKE '%probe boot under KVM printed nothing%')")" -eq 4
check "every run has samples" test "$(q "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM samples s WHERE s.run_id=r.id) < 30")" -eq 0
# qemu.parallel's auto under tcg-icount: one guest per host CPU (this
# machine's memory allows that many 1 GiB guests)
ncpu=$(nproc)
check "guests side by side: $ncpu at once, said and recorded" \
	test "$(grep -c "^perfbot: $ncpu guests\{0,1\} at once (auto: " "$work/run1.out"),$(q "SELECT guests_at_once FROM comparisons WHERE id=1")" = "1,$ncpu"
kst_results() { # kst_results comparison -> "metric=without/with ..." of the selftests
	q "SELECT group_concat(metric || '=' || w || '/' || x, ' ') FROM (SELECT s.metric,
	   group_concat(DISTINCT CASE WHEN r.side='without' THEN s.value END) w,
	   group_concat(DISTINCT CASE WHEN r.side='with' THEN s.value END) x
	   FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$1 AND s.workload='kselftest-vm'
	   GROUP BY s.metric ORDER BY s.metric)"
}
check "771: its paths chose the kernel's vm selftests too" grep -q "workloads: hugetlb-migrate, kselftest-vm (chosen by the paths" "$work/run1.out"
echo "e2e: vm selftests of 771 (0 pass, 1 fail, 2 skip; without/with): $(kst_results 1)"
# The selftests give no time: they run in a kernel's boots until one is ok,
# and its later boots leave them out. The first boots start together
# (guests side by side), so all of those ran them.
g=$(q "SELECT guests_at_once FROM comparisons WHERE id=1")
together=$(( g > 3 ? 4 : 2 ))
check "771: khugepaged, migration and hugepage-vmemmap gave a result in the first $together boots" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=1 AND r.boot_index<=$together AND workload='kselftest-vm' AND metric IN ('khugepaged_result','migration_result','hugepage_vmemmap_result') AND value IN (0,1,2)")" -eq $(( 3 * together ))
check "771: the boots after them left the selftests out, and told the guest" \
	test "$(q "SELECT count(*) FROM runs r WHERE r.comparison_id=1 AND r.boot_index>$together AND (qemu_cmdline NOT LIKE '% perfbot.skip=kselftest-vm%' OR EXISTS (SELECT 1 FROM samples s WHERE s.run_id=r.id AND s.workload='kselftest-vm'))")" -eq 0
check "771: the selftests ran (not all skipped): hugepage-vmemmap passed on both kernels" \
	test "$(q "SELECT count(DISTINCT r.side) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=1 AND metric='hugepage_vmemmap_result' AND value=0")" -eq 2
check "771: every selftest result is in the table with its verdict" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=1 AND workload='kselftest-vm' AND kind='behaviour' AND verdict IN ('same','behaviour change','flaky')")" -eq 3
check "771: the selftests' output is in the console log" grep -q "kselftest-vm: hugepage-vmemmap: pass" "$(q "SELECT console_log FROM runs WHERE comparison_id=1 ORDER BY boot_index LIMIT 1")"
migrated() { # migrated side case -> min,max of pages_migrated per round trip
	q "SELECT min(value) || ',' || max(value) FROM samples s JOIN runs r ON r.id=s.run_id
	   WHERE r.side='$1' AND s.metric='$2_pages_migrated'"
}
check "without the fix no anonymous huge page with optimised vmemmap migrates" \
	test "$(migrated without anon_vmemmap_on)" = "0.0,0.0"
check "without the fix the kernel fails those migrations (pgmigrate_fail)" \
	test "$(q "SELECT min(value) > 0 FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.side='without' AND s.metric='anon_vmemmap_on_pgmigrate_fail'")" = "1"
check "with the fix all 16 pages move both ways (32 per round trip)" \
	test "$(migrated with anon_vmemmap_on)" = "32.0,32.0"
for c in anon_vmemmap_off file_vmemmap_on file_vmemmap_off; do
	check "$c: all pages migrate on both kernels" \
		test "$(migrated without $c)/$(migrated with $c)" = "32.0,32.0/32.0,32.0"
done
check "the result says behaviour change for anon_vmemmap_on_pages_migrated" \
	test "$(q "SELECT verdict FROM results WHERE metric='anon_vmemmap_on_pages_migrated'")" = "behaviour change"
check "and same for the file case" \
	test "$(q "SELECT verdict FROM results WHERE metric='file_vmemmap_on_pages_migrated'")" = "same"
check "the terminal table shows it" grep -Eq "anon_vmemmap_on_pages_migrated +0 +32 .*behaviour change" "$work/run1.out"
check "the kernels are recorded with their pair labels" \
	test "$(q "SELECT group_concat(label, ',') FROM (SELECT label FROM kernels ORDER BY label)")" = "base,base+port"
answer_of 771 "$work/run1.out" > "$work/answer1"
check "the answer's headline names the behaviour change and its values" \
	grep -Eq "^ +[0-9]+ behaviour changes?: hugetlb-migrate\.anon_vmemmap_on_[a-z_]+ [0-9]+ -> [0-9]+$|^771: .*behaviour changes?: hugetlb-migrate\.anon_vmemmap_on_[a-z_]+ [0-9]+ -> [0-9]+$" "$work/answer1"
check "the answer fits in 100 columns" test "$(awk 'length > 100' "$work/answer1" | wc -l)" -eq 0
check "the answer lists only what changed or is undecided" \
	bash -c "! grep -Eq ' (same|no data|no change|not comparable)$' '$work/answer1' && grep -q '^not shown: .*[0-9]* same' '$work/answer1'"
reproduce_of "$work/answer1" > "$work/reproduce1"
check "the answer has the command that repeats the run, seed included" \
	grep -q "^reproduce: perfbot run --patch 771 --queue $top/queue/stable-5.13 -c run.seed=$(q "SELECT seed FROM comparisons WHERE id=1") " "$work/reproduce1"
check "the seed of the boot order is printed and stored" \
	grep -q "(seed $(q "SELECT seed FROM comparisons WHERE seed > 0")); report" "$work/run1.out"
check "time metrics were tested: p-values and a CI stored" \
	test "$(q "SELECT count(*) FROM results WHERE kind='time' AND n_with > 0 AND n_without > 0 AND (p_mw IS NULL OR p_ks IS NULL OR ci_lo_pct IS NULL)")" -eq 0
check "iteration 1 is stored as warm-up, iteration 0 (perf, once per run) never" \
	test "$(q "SELECT count(DISTINCT iteration) || '/' || min(iteration) FROM samples WHERE warmup=1")" = "1/1"
check "the report was written" grep -q "behaviour change" "$(page 771)"
check "the report shows CIs and what decided each verdict" grep -q "decided by" "$(page 771)"
check "the report links the serial logs" grep -q 'href="logs/771-' "$(page 771)"
check "serial logs exist" test "$(ls "$reports"/logs/771-*/boot0*-with.console.log | wc -l)" -eq 2

echo "e2e: warm run of patch 771"
start=$(date +%s)
pb run --patch 771 --all > "$work/run2.out" 2> "$work/run2.err"
rc=$?
warm=$(( $(date +%s) - start ))
check "warm run exits 6 (rc=$rc, ${warm}s)" test "$rc" -eq 6
check "--all: the table has CIs and Holm-adjusted p-values" grep -Eq "^workload +metric .*95% CI +p\(Holm\) +noise +verdict" "$work/run2.out"
check "--all: every metric has its row" test "$(grep -c '^hugetlb-migrate ' "$work/run2.out")" -eq "$(q "SELECT count(*) FROM results WHERE comparison_id=2 AND workload='hugetlb-migrate'")"
check "--all: the verdict line" grep -q "^verdict: not comparable (timing, worst metric); behaviour change (behaviour)" "$work/run2.out"
check "the warm run rebuilds no kernel" test "$(grep -c '(cached)' "$work/run2.err")" -eq 2
check "the warm run compiles nothing" bash -c "! grep -q 'building' '$work/run2.err'"
check "two comparisons, eight runs" test "$(q "SELECT count(*) FROM comparisons"),$(q "SELECT count(*) FROM runs")" = "2,8"
check "still two kernels" test "$(q "SELECT count(*) FROM kernels")" -eq 2

echo "e2e: A/A calibration of thp-anon"
# with 765's 2 iterations: a run uses only a calibration of its own
# iterations and warm-up (a median of 1 is noisier than one of 5)
pb calibrate --workload thp-anon --per-side 2 --iterations 2 > "$work/cal.out" 2>&1
rc=$?
grep -v '^  build' "$work/cal.out"
check "calibrate: exit 0 (rc=$rc)" test "$rc" -eq 0
check "calibrate: stored as a calibration of no patch, 4 boots ok" \
	test "$(q "SELECT count(*) FROM comparisons c WHERE kind='calibration' AND patch_id IS NULL AND kernel_without=kernel_with AND (SELECT count(*) FROM runs r WHERE r.comparison_id=c.id AND outcome='ok')=4")" -eq 1
check "calibrate: a noise floor for every thp-anon metric, perf's included" \
	test "$(q "SELECT count(*) FROM noise")" -eq "$(( $(grep -c '^\[metric ' "$top/workloads/thp-anon.ini") + \
		$(sed -n 's/^perf_events = //p' "$top/workloads/thp-anon.ini" | tr ',' '\n' | wc -l) ))"
check "calibrate: a THP fault counter is found deterministic" \
	test "$(q "SELECT deterministic FROM noise WHERE metric='thp_fault_alloc_madvise'")" -eq 1
check "calibrate: the false-alarm rate was measured over drawn A/A splits" \
	grep -Eq "^false alarms: [0-9]+ of 200 A/A comparisons" "$work/cal.out"

echo "e2e: guests side by side measure what one at a time does (the A/A check)"
pb bench --parallel 2 --pool 4 --workload thp-anon > "$work/par.out" 2>&1
rc=$?
grep -v '^  build' "$work/par.out"
check "bench --parallel 2: the A/A check passes (rc=$rc)" test "$rc" -eq 0
check "bench --parallel 2: its second half booted 2 at once" \
	grep -q "^perfbot: 2 guests at once (as the caller asked)" "$work/par.out"
check "bench --parallel 2: some metric the same in every boot, and said so" \
	grep -Eq "^perfbot: the A/A check of 2 guests at once passed: [1-9][0-9]* metric" "$work/par.out"
check "bench --parallel: stores nothing" test "$(q "SELECT count(*) FROM comparisons")" -eq 3

before=$(q "SELECT (SELECT count(*) FROM comparisons) || '/' || (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM samples)")
one_line_error() { # one_line_error "what" expected-rc pattern command...
	local what=$1 want=$2 pattern=$3; shift 3
	"$@" > "$work/out" 2> "$work/err"
	local rc=$?
	check "$what: exit $want (got $rc)" test "$rc" -eq "$want"
	check "$what: one line on stderr" test "$(wc -l < "$work/err")" -eq 1
	check "$what: says '$pattern'" grep -q -- "$pattern" "$work/err"
}
pb run --patch 188 > "$work/out" 2>&1
check "patch 188: exits 0 and says it is not an mm patch" \
	bash -c "[ $? -eq 0 ] && grep -q 'is not an mm patch' '$work/out'"
one_line_error "unknown patch" 1 "patch 12345 is not in the queue" pb run --patch 12345
one_line_error "unappliable patch" 1 "patch 999 applies neither forward nor in reverse" \
	pb run --patch 999 --queue "$top/tests/data/unappliable"
check "unappliable patch: names the failed hunk" grep -q "mm/migrate.c Hunk #1 FAILED" "$work/err"
printf '[qemu]\naccel = warp\n' > "$work/bad.ini"
one_line_error "broken config.ini" 1 "bad.ini:2: \[qemu\] accel" "$perfbot" run --config "$work/bad.ini" --patch 771
one_line_error "missing kernel tarball" 1 "kernel source /nonexistent.tar.xz not found" \
	pb run --patch 771 --kernel-source /nonexistent.tar.xz
one_line_error "calibrate an unknown workload" 1 "no workload 'nope'" pb calibrate --workload nope
one_line_error "a bad statistics setting" 1 "stats.alpha: .2. is not a number from 0 to 1" pb run --patch 771 -c stats.alpha=2
after=$(q "SELECT (SELECT count(*) FROM comparisons) || '/' || (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM samples)")
check "bad input left the database unchanged ($before)" test "$before" = "$after"

run_pair() { # run_pair N label iterations [boots]: one boot per kernel unless boots; sets $cid, output in $work/label.out
	pb run --patch "$1" --all --boots "${4:-1}" -c run.max_boots="${4:-1}" --iterations "$3" > "$work/$2.out" 2>&1
	local rc=$?
	grep -v '^  build' "$work/$2.out"
	cid=$(q "SELECT max(id) FROM comparisons")
	check "$2: exit $(expected_rc "$cid"), as its verdicts say (rc=$rc)" test "$rc" -eq "$(expected_rc "$cid")"
}

echo "e2e: patch 765 (read-only file THP on ext4)"
run_pair 765 765 2
c765=$cid
check "765: thp-anon and thp-file-ro chosen by its paths" \
	grep -q "workloads: kselftest-vm, thp-anon, thp-file-ro (chosen by the paths" "$work/765.out"
check "765: THPs were allocated at fault time on both kernels" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c765 AND s.metric='thp_fault_alloc_madvise' AND s.value = 16 AND NOT s.warmup")" -eq 4
check "765: MADV_COLLAPSE and khugepaged made 32 MiB of AnonHugePages" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c765 AND s.metric IN ('anon_huge_kb_collapsed','anon_huge_kb_khugepaged') AND s.value = 32768 AND NOT s.warmup")" -eq 8
side_value() { # side_value comparison side metric -> the distinct values seen
	q "SELECT group_concat(DISTINCT value) FROM samples s JOIN runs r ON r.id=s.run_id
	   WHERE r.comparison_id=$1 AND r.side='$2' AND s.metric='$3'"
}
check "765: THPeligible is 0 without the fix" test "$(side_value "$c765" without thp_eligible)" = "0.0"
check "765: THPeligible is 1 with the fix" test "$(side_value "$c765" with thp_eligible)" = "1.0"
check "765: the collapse made 8 MiB of FilePmdMapped on both kernels" \
	test "$(side_value "$c765" without file_pmd_mapped_kb),$(side_value "$c765" with file_pmd_mapped_kb)" = "8192.0,8192.0"
check "765: reported as a behaviour change" \
	test "$(q "SELECT verdict FROM results WHERE comparison_id=$c765 AND metric='thp_eligible'")" = "behaviour change"
check "765: thp-anon's noise floor came from the calibration" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c765 AND workload='thp-anon' AND kind='time' AND noise_from='calibration'")" -gt 0
check "765: the run says which calibration it used" grep -q "noise floor from calibration" "$work/765.out"

echo "e2e: patch 772 (zswap writeback)"
run_pair 772 772 1 2
c772=$cid
check "772: the pair is formed by reverting the patch" grep -q "pair formed by reverse" "$work/772.out"
check "772: zswap wrote pages back on both kernels" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c772 AND s.metric='written_back_pages' AND s.value > 0 AND NOT s.warmup")" -eq 4
check "772: pages went to the swap device on both kernels" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c772 AND s.metric='pswpout' AND s.value > 0 AND NOT s.warmup")" -eq 4
check "772: all four boots read every page back intact (check ok)" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$c772 AND outcome='ok'")" -eq 4
# Two boots a kernel, as run's default: under tcg-icount the boots of a
# kernel agree, so every time has its answer at the first look.
check "772: no time metric is inconclusive at 2 boots a kernel" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c772 AND kind='time' AND verdict='inconclusive'")" -eq 0
check "772: its times were tested (a t test, exact values or identical values)" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c772 AND kind='time' AND look=2 AND regime IN ('t test','exact values','inside the gate','inside what it resolves','identical values')")" -gt 0
check "772: the perf counters are diagnostics, never a verdict" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c772 AND metric LIKE 'perf_%' AND (kind<>'diagnostic' OR verdict<>'diagnostic')")" -eq 0
check "772: the terminal says how the verdict was reached" \
	grep -q "^how: .*a t test on log boot medians at each look" "$work/772.out"

echo "e2e: patch 031 (memory-map initialisation at boot)"
run_pair 31 031 1
c031=$cid
check "031: 1 iteration a boot: the 2-iteration calibration is not its noise floor" \
	grep -q "no calibration for tcg-icount with 1 iteration(s), 1 warm-up, yet" "$work/031.out"
check "031: boot, stress-ng-mm and thp-anon chosen by its paths" grep -q "workloads: boot, stress-ng-mm, thp-anon (chosen by the paths" "$work/031.out"
check "031: both boots ok: boot, stress-ng-mm and thp-anon each saw their path run" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$c031 AND outcome='ok'")" -eq 2
check "031: stress-ng did the fixed vm ops on both kernels" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c031 AND s.metric='vm_bogo_ops' AND s.value=40")" -eq 2
check "031: both guests have two NUMA nodes" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c031 AND s.metric='nodes_online' AND s.value=2")" -eq 2
check "031: the kernels initialise different numbers of hole pages" \
	test "$(q "SELECT verdict FROM results WHERE comparison_id=$c031 AND metric='unavailable_pages'")" = "behaviour change"

# The bundled queue as stable-queue publishes one: a quilt directory whose
# series file gives the order (here the reverse of the numbers), with a
# patch taken out and a file it leaves out.
quilt=$work/quilt
mkdir -p "$quilt"
cp "$top"/queue/stable-5.13/*.patch "$quilt/"
(cd "$quilt" && { echo "# 5.13.2-rc1, as a series"; ls *.patch | sort -r | sed '3s/^/#/'; } > series)
pb list --queue "$quilt" > "$work/quilt.out" 2>&1
check "quilt series: the same patches and numbers as the directory, less the one taken out" \
	test "$(grep -c '^[0-9][0-9][0-9]/800 ' "$work/quilt.out")" -eq 10
check "quilt series: listed by number whatever the series order" \
	bash -c "grep -o '^[0-9]*/800' '$work/quilt.out' | sort -c"
check "quilt series: it says what the series leaves out" \
	grep -q "^a quilt series: its order is the series file's; 1 patch file(s) of the directory are not in it" "$work/quilt.out"

# The bundled queue as a review thread saved from the list: a cover letter,
# each patch a mail answering it (arriving in reverse order), a review
# reply and an ack without a diff. The same patches, numbers and order as
# the directory; 772 applied from its spooled mail as from its file.
mbox=$work/thread.mbox
{
	printf 'From gregkh@linuxfoundation.org Mon Jul 12 08:00:00 2021\nFrom: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n'
	printf 'To: linux-kernel@vger.kernel.org\nSubject: [PATCH 5.13 000/800] 5.13.2-rc1 review\n'
	printf 'Message-ID: <cover@e2e.example>\n\nThis is the start of the stable review cycle.\n\n'
	for f in $(ls "$top"/queue/stable-5.13/*.patch | sort -r); do
		n=$(sed -n 's/^Subject: \[PATCH 5.13 0*\([0-9]*\)\/800\].*/\1/p' "$f")
		printf 'From gregkh@linuxfoundation.org Mon Jul 12 08:01:00 2021\nMessage-ID: <%s@e2e.example>\n' "$n"
		printf 'In-Reply-To: <cover@e2e.example>\nTo: linux-kernel@vger.kernel.org\n'
		printf 'Cc: stable@vger.kernel.org,\n\tGreg Kroah-Hartman <gregkh@linuxfoundation.org>\n'
		cat "$f"
		echo
	done
	printf 'From r@e2e.example Mon Jul 12 09:00:00 2021\nFrom: R <r@e2e.example>\nSubject: Re: [PATCH 5.13 771/800] mm/migrate\n\n'
	printf '> --- a/mm/migrate.c\n> +++ b/mm/migrate.c\nReviewed-by: R <r@e2e.example>\n\n'
	printf 'From b@e2e.example Mon Jul 12 10:00:00 2021\nFrom: B <b@e2e.example>\nSubject: [PATCH 5.13 000/800] 5.13.2-rc1 review: tested\n\nNo regressions.\n'
} > "$mbox"
pb list > "$work/dir-list.out" 2>&1
pb list --queue "$mbox" > "$work/mbox-list.out" 2>&1
check "mbox: the same rows (patches, numbers, order) as the directory" \
	cmp <(grep '/800 ' "$work/dir-list.out") <(grep '/800 ' "$work/mbox-list.out")
check "mbox: the cover letter names the -rc, the reply and the ack are skipped and counted" \
	grep -q "^an mbox: 5.13.2-rc1 review; 1 reply and 1 mail(s) without a diff skipped" "$work/mbox-list.out"
pb list --long --mm --queue "$mbox" > "$work/mbox-long.out" 2>&1
check "mbox: each patch keeps its Message-ID and In-Reply-To" \
	test "$(grep -c 'Message-ID: <[0-9]*@e2e.example>' "$work/mbox-long.out")/$(grep -c 'In-Reply-To: <cover@e2e.example>' "$work/mbox-long.out")" = 4/4
pb pair --patch 772 --queue "$mbox" > "$work/mbox-pair.out" 2>&1
check "mbox: 772 reverse-applies from its spooled mail" grep -Eq "^772 reverse" "$work/mbox-pair.out"

echo "e2e: the HTML report"
pb report > "$work/report.out" 2>&1
rc=$?
cat "$work/report.out"
check "report: exit 0 (rc=$rc)" test "$rc" -eq 0
check "report: the index lists all 11 patches, 4 measured, 7 skipped" \
	grep -q "11 patches: 4 measured, 7 skipped as not mm" "$reports/index.html"
check "report: each skipped patch says why" \
	test "$(grep -o 'skipped: not an mm patch ([^)]*)' "$(queue_page stable-5.13)" | wc -l)" -eq 7
check "report: a page for each measured patch" \
	test "$(ls "$(page 031)" "$(page 765)" "$(page 771)" "$(page 772)" | wc -l)" -eq 4
check "report: the 771 page has its plots" test "$(grep -c '<img src="plots/' "$(page 771)")" -gt 5
check "report: every plot it names exists and is an SVG" bash -c "
	for f in \$(grep -ho 'src=\"plots/[^\"]*' '$reports'/*.html | cut -d/ -f2); do
		grep -q '<svg' '$reports'/plots/\$f || exit 1; done"
check "report: the trend page plots the base kernel" grep -q '<img src="plots/trend-tcg-icount-' "$reports/trend.html"
# a link to a patch's Link: is not a fetch: an image, a script or a style sheet is
check "report: no network fetches" bash -c "! grep -Eq '(src=|<link[^>]* href=)\"(https?:)?//' '$reports'/*.html"
printf '<!DOCTYPE html><html><body><p>x</p><img src="plots/missing.svg" alt="x"></body></html>' > "$work/broken.html"
shots=${PERFBOT_E2E_SHOTS:-/tmp/perfbot-e2e-screenshots}
python3 tests/browser.py "$shots" \
	"$reports/index.html:11 patches: 4 measured, 7 skipped|hugetlb-migrate: behaviour change" \
	"$(page 771):Timing (medians|Behaviour changes|anon_vmemmap_on_pages_migrated|Samples" \
	"$(page 765):thp_eligible" "$reports/trend.html:the base kernel over time" \
	"!$work/broken.html" > "$work/browser.out" 2>&1
rc=$?
sed 's/^/  browser: /' "$work/browser.out"
check "report: headless Chromium renders index, patch and trend pages with every image (screenshots in $shots)" \
	test "$rc" -eq 0

# 995 (the comment-only patch of the next case, whose kernel is not built
# yet) builds beside 771's boots
echo "e2e: nightly on a small queue (771, 995 and 188)"
mkdir -p "$work/small"
cp $(grep -l -e ' 771/800\]' -e ' 188/800\]' "$top"/queue/stable-5.13/*.patch) "$work/small/"
cp "$top"/tests/data/comment-only/*.patch "$work/small/"
nightly() { pb nightly --queue "$work/small" --report-dir "$work/nightly" -c calibrate.boots=2 "$@"; }
before_n=$(q "SELECT count(*) FROM comparisons")
nightly > "$work/n1.out" 2>&1
rc=$?
grep '^perfbot nightly' "$work/n1.out"
check "nightly: exit 0 (rc=$rc)" test "$rc" -eq 0
check "nightly: 771 and 995 measured, 188 skipped with the reason" \
	bash -c "grep -q '^perfbot nightly: 771 measured: ' '$work/n1.out' && grep -q '^perfbot nightly: 995 measured: ' '$work/n1.out' && grep -q '^perfbot nightly: 188 skipped: not an mm patch' '$work/n1.out'"
check "nightly: two comparisons and a calibration of their workloads" \
	test "$(( $(q "SELECT count(*) FROM comparisons") - before_n ))/$(q "SELECT workloads FROM comparisons WHERE kind='calibration' ORDER BY id DESC LIMIT 1")" = "3/hugetlb-migrate kselftest-vm thp-anon thp-file-ro"
check "nightly: its summary is stored" \
	test "$(q "SELECT patches_run || '/' || patches_skipped || '/' || (calibration_id IS NOT NULL) FROM nightly")" = "2/1/1"
check "nightly: it wrote the report of its queue" grep -q "3 patches: 2 measured, 1 skipped" "$work/nightly/index.html"
check "nightly: 995's kernels built beside 771's boots, at idle priority" \
	bash -c "grep -q \"^perfbot nightly: 995's kernels build beside 771's boots, at idle priority (log $work/nightly/logs/prebuild-995.log)\" '$work/n1.out' && grep -q '^perfbot: built base+patch kernel' '$work/nightly/logs/prebuild-995.log'"
check "nightly: 995's run found them built" \
	bash -c "sed -n '/^perfbot: patch 995\//,\$p' '$work/n1.out' | grep -Eq '^perfbot: with +the fix: base\+patch .*\(cached\)'"
check "nightly: 771 changed behaviour: its answer is written, and parses" \
	bash -c "grep -q '^perfbot nightly: 771 mail $work/nightly/mail/patch-771.eml' '$work/n1.out' && python3 tests/check-mail.py '$work/nightly/mail/patch-771.eml'"
before_n=$(q "SELECT count(*) FROM comparisons")
nightly > "$work/n2.out" 2>&1
rc=$?
check "nightly again: exit 0 (rc=$rc)" test "$rc" -eq 0
check "nightly again: last night's calibration still holds, not run again" \
	grep -q "^perfbot: calibration $(q "SELECT calibration_id FROM nightly ORDER BY id LIMIT 1") still holds" "$work/n2.out"
check "nightly again: skips what was already measured" \
	grep -q "^perfbot nightly: 771 skipped: already measured for this base, config and perfbot" "$work/n2.out"
check "nightly again: measured nothing" \
	test "$(q "SELECT count(*) FROM comparisons")/$(q "SELECT patches_run FROM nightly ORDER BY id DESC LIMIT 1")" = "$before_n/0"
flock -o "$db.lock" sleep 20 &   # -o: the lock goes with flock itself
holder=$!
sleep 0.5
one_line_error "nightly while another perfbot holds the database" 1 "another perfbot is working on" nightly
one_line_error "run while another perfbot holds the database" 1 "another perfbot is working on" pb run --patch 771
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# A guest that runs past the boot timeout is a result, not a hang: 100000
# iterations take far longer than 5 s.
pb run --patch 771 --boots 1 --iterations 100000 -c qemu.boot_timeout=5 > "$work/out" 2>&1
rc=$?
check "a guest past its timeout: exit 3 (got $rc)" test "$rc" -eq 3
check "a guest past its timeout: both boots stored as timeout" \
	test "$(q "SELECT count(*) FROM runs WHERE outcome='timeout'")" -eq 2
check "a guest past its timeout: the comparison is boot-failed" \
	test "$(q "SELECT status FROM comparisons ORDER BY id DESC LIMIT 1")" = "boot-failed"

# One boot of one side hangs (issue 20: a flaky guest under plain TCG):
# its samples count for nothing, no metric whose values are the same on
# both sides is a change, and the verdict comes from the ok boots. The
# second boot started hangs after its first workload (PERFBOT_FAULT); one
# ok boot a side does not decide under plain tcg, so a third round runs.
PERFBOT_FAULT=hang-boot=2 pb run --patch 771 --all --accel tcg -w hugetlb-migrate --boots 2 \
	-c run.max_boots=3 -c qemu.boot_timeout=60 > "$work/hang.out" 2>&1
rc=$?
hang_cmp=$(q "SELECT max(id) FROM comparisons")
check "one hung boot: perfbot exits with the verdict, 6 (got $rc)" test "$rc" -eq 6
check "one hung boot: it is stored as a timeout" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$hang_cmp AND outcome='timeout'")" -eq 1
check "one hung boot: the table says how many boots of each side were ok" \
	grep -q '^boots ok: [0-9]* of [0-9]* without, [0-9]* of [0-9]* with' "$work/hang.out"
check "one hung boot: the report says how many boots of each side were ok" \
	grep -q '<th>boots ok</th><td class="bad">[0-9]* of [0-9]* without, [0-9]* of [0-9]* with' \
	"$(page 771)"
check "one hung boot: no behaviour change where both sides gave the same values" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$hang_cmp AND kind='behaviour'
		AND verdict='behaviour change' AND median_without = median_with")" -eq 0
check "one hung boot: 771's real change is still found (pages migrated 0 -> 32)" \
	test "$(q "SELECT verdict FROM results WHERE comparison_id=$hang_cmp
		AND metric='anon_vmemmap_on_pages_migrated'")" = "behaviour change"

# A patch that breaks the build is a result too (base cached, the other an
# incremental build that fails in mm/migrate.c).
pb run --patch 998 --queue "$top/tests/data/breaks-build" > "$work/out" 2>&1
rc=$?
check "a patch that breaks the build: exit 3 (got $rc)" test "$rc" -eq 3
check "a patch that breaks the build: stored as build-failed with the compiler's error" \
	test "$(q "SELECT count(*) FROM kernels WHERE build_status='build-failed' AND failure LIKE '%#error perfbot test%'")" -eq 1
check "a patch that breaks the build: the comparison says so" \
	test "$(q "SELECT status FROM comparisons ORDER BY id DESC LIMIT 1")" = "build-failed"
check "a patch that breaks the build: the report shows the error" \
	grep -q "perfbot test: this patch breaks the build" "$(page 998 breaks-build)"
# (by its file: 995's base+patch kernel was built by the nightly before)
check "a patch that breaks the build: no kernel is marked built for it" \
	test "$(q "SELECT sum(build_status='built') || '/' || sum(build_status='build-failed') FROM kernels WHERE change_file LIKE '%/998-mm-breaks-the-build.patch'")" = "0/1"

# An innocent patch: a comment reworded in mm/huge_memory.c, with the
# defaults (2 boots a kernel, looks up to run.max_boots): "no change", and
# at 2 boots for every time whose boots agree within a tenth of the gate.
# Some times vary more than that between boots even under tcg-icount
# (khugepaged waits on timers): they get their answer at a later look, or
# "no change larger than" what they resolve, never the budget.
echo "e2e: a patch that only changes a comment"
start=$(date +%s)
pb run --patch 995 --queue "$top/tests/data/comment-only" > "$work/995.out" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
grep -v '^  build' "$work/995.out"
c995=$(q "SELECT max(id) FROM comparisons")
gate=$(q "SELECT gate_pct FROM comparisons WHERE id=$c995")
check "comment only: exit 0 (rc=$rc, ${took}s)" test "$rc" -eq 0
check "comment only: the verdict is no change, the behaviour the same" \
	test "$(q "SELECT verdict || '/' || behaviour FROM comparisons WHERE id=$c995")" = "no change/same"
check "comment only: no metric is inconclusive" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c995 AND verdict='inconclusive'")" -eq 0
check "comment only: it stopped before run.max_boots (10)" \
	test "$(q "SELECT boots_per_kernel FROM comparisons WHERE id=$c995")" -lt 10
# "agree": this run's first two boots a side, each boot's mean, within a
# tenth of the gate of each other (a calibration's quiet floor is not
# enough: under tcg-icount khugepaged's collapse_ms once spread 0.3% over
# them against a floor of 0.04%, and more boots were rightly taken)
check "comment only: times whose boots agree within a tenth of the gate ($gate%) decided at 2 boots" \
	test "$(q "SELECT count(*) FROM results r WHERE comparison_id=$c995 AND kind='time' AND noise_pct < $gate / 10
		AND regime<>'identical values' AND (look IS NULL OR look<>2 OR verdict<>'no change')
		AND (SELECT (max(m) - min(m)) / avg(m) * 100 FROM (SELECT avg(s.value) m FROM samples s
			JOIN runs u ON u.id=s.run_id WHERE u.comparison_id=$c995 AND u.boot_index<=4
			AND s.workload=r.workload AND s.metric=r.metric AND NOT s.warmup GROUP BY u.id)) < $gate / 10")" -eq 0
check "comment only: some time was decided at 2 boots" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c995 AND kind='time' AND look=2 AND verdict='no change'")" -gt 0
check "comment only: a quiet time's no change is within the gate" \
	test "$(q "SELECT count(*) FROM results WHERE comparison_id=$c995 AND verdict='no change' AND noise_pct < $gate / 10 AND threshold_pct > $gate")" -eq 0
check "comment only: the report says what no change means" \
	grep -q "no change larger than $gate%" "$(page 995 comment-only)"
echo "e2e: comment-only patch: ${took}s from start to report"

echo "e2e: a developer's own patch: --patch-file, a regression, --json, --bisect-exit"
# git format-patch -1 of a change that slows the anonymous THP fault (the
# diff of tests/data/series-slow's culprit): "[PATCH]", no series number
mine=$work/0001-mm-huge_memory-clear-32-subpages-of-a-new-THP-twice.patch
{
	printf 'From 5a1f0e0c0ffee0000000000000000000000000ff Mon Sep 17 00:00:00 2001\n'
	printf 'From: A Developer <dev@example.org>\nDate: Mon, 7 Dec 2026 01:00:00 +0000\n'
	printf 'Subject: [PATCH] mm/huge_memory: clear 32 subpages of a new THP twice\n\n'
	printf 'Signed-off-by: A Developer <dev@example.org>\n'
	sed -n '/^---$/,$p' "$top"/tests/data/series-slow/003-*.patch
} > "$mine"
mine_id=$(sha256sum "$mine" | cut -c1-12)
pb run --patch-file "$mine" -w thp-anon --json > "$work/mine.json" 2> "$work/mine.err"
rc=$?
answer_of "$mine_id" <(grep -v '^  build' "$work/mine.err")
check "--patch-file: a regression exits 5 (rc=$rc)" test "$rc" -eq 5
check "--patch-file: the patch is named by its content's hash, beside its subject" \
	grep -q "^perfbot: patch $mine_id mm/huge_memory: clear 32 subpages of a new THP twice$" "$work/mine.err"
mine_sha=$(sha256sum "$mine" | cut -d' ' -f1)
check "--patch-file: stored as number 0, its file the cache's copy named by its sha256" \
	test "$(q "SELECT number || ' ' || file FROM patches WHERE sha256='$mine_sha'")" = "0 $cache/queue-mails/$mine_sha.patch"
check "--patch-file: the cache's copy has its bytes" cmp -s "$mine" "$cache/queue-mails/$mine_sha.patch"
check "--patch-file: the index lists it on its own with its page, and makes no queue of it" \
	bash -c "grep -q 'href=\"patch-$mine_id.html\"' '$reports/index.html' && test -s '$reports/patch-$mine_id.html' && ! ls '$reports'/queue-*$mine_id* > /dev/null 2>&1"
check "--patch-file: the headline names the regression, LKP's way" \
	grep -Eq "^$mine_id: \+[0-9.]+% regression of thp-anon\.[a-z_]+" "$work/mine.err"
check "--patch-file: the reduced table shows the regressed rows" \
	grep -Eq "^  [a-z_]+ .* regression$" "$work/mine.err"
check "--json: one document on stdout, with the answer and how to repeat it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["comparisons"][0]
assert d["exit_status"] == 5, d["exit_status"]
assert len(d["comparisons"]) == 1
assert c["patch"]["number"] is None and c["patch"]["label"] == sys.argv[2], c["patch"]
assert c["patch"]["subject"] == "mm/huge_memory: clear 32 subpages of a new THP twice"
assert c["status"] == "measured" and c["verdict"] == "regression" and c["crash"] is None
assert c["accelerator"]["name"] == "tcg-icount"
assert c["kernels"]["without"]["label"] == "base" and c["kernels"]["with"]["label"] == "base+patch"
assert c["headline"].startswith("+") and " regression of thp-anon." in c["headline"]
assert any(m["verdict"] == "regression" and m["change_pct"] > 0 for m in c["metrics"])
# what decided each regression: its test, its adjusted p, its noise and its boots
for m in c["metrics"]:
    if m["verdict"] == "regression":
        assert m["regime"] and m["p_adj"] is not None and m["p_adj"] < 0.05, m
        assert m["noise_pct"] is not None and m["noise_from"] and m["better"] == "lower", m
        assert m["boots_with"] >= 2 and m["samples_with"] >= m["boots_with"] and m["look"] >= 2, m
assert c["reproduce"]["command"].startswith("perfbot run --patch-file " + sys.argv[3] + " -c run.seed="), c["reproduce"]
assert c["reproduce"]["seed"] > 0 and c["reproduce"]["perfbot_version"]
' "$work/mine.json" "$mine_id" "$cache/queue-mails/$mine_sha.patch"
# the same bytes on standard input: the same identity, the same kernels,
# and git bisect run's "bad"
pb run --patch-file - -w thp-anon --bisect-exit < "$mine" > "$work/mine2.out" 2> "$work/mine2.err"
rc=$?
check "--patch-file -: --bisect-exit says bad (1) for the regression (rc=$rc)" test "$rc" -eq 1
check "--patch-file -: the same identity, its kernels cached" \
	bash -c "grep -q '^perfbot: patch $mine_id ' '$work/mine2.out' && test \$(grep -c '(cached)' '$work/mine2.err') -eq 2"
pb run --patch 995 --queue "$top/tests/data/comment-only" -w thp-anon --bisect-exit > "$work/995b.out" 2>&1
rc=$?
check "--bisect-exit: a patch that changed nothing is good (0, rc=$rc)" test "$rc" -eq 0
pb run --patch 12345 --bisect-exit > "$work/out" 2>&1
rc=$?
check "--bisect-exit: bad input stops git bisect (128, rc=$rc)" test "$rc" -eq 128

echo "e2e: fault matrix"
counts() { q "SELECT (SELECT count(*) FROM comparisons) || '/' || (SELECT count(*) FROM runs) || '/' ||
	(SELECT count(*) FROM samples) || '/' || (SELECT count(*) FROM results) || '/' ||
	(SELECT count(*) FROM kernels WHERE build_status='built')"; }
marked_built_without_image() { # kernel directories that claim to be built but are not
	local n=0 d
	for d in "$cache"/kernels/*/; do
		case $d in *.tmp.*) continue ;; esac
		[ -f "$d/info" ] && [ -f "$d/bzImage" ] || n=$((n + 1))
	done
	echo "$n"
}
wait_for() { # wait_for seconds command...: until the command succeeds
	local t=$(( $1 * 5 )); shift
	while [ "$t" -gt 0 ]; do "$@" && return 0; sleep 0.2; t=$((t - 1)); done
	return 1
}
qemu_of() { pgrep -f "[q]emu-system.*$reports/logs/$1-" > /dev/null; }
# processes matching a pattern under this test's root: a perfbot in a chroot
# on the same machine (make fresh-test) builds in a path of the same name
running_here() {
	local pid root
	root=$(readlink /proc/$$/root)
	for pid in $(pgrep -f "$1"); do
		[ "$(readlink "/proc/$pid/root" 2> /dev/null)" = "$root" ] && return 0
	done
	return 1
}
one_boot=(--boots 1 -c run.max_boots=1)
# what pb passes, for runs in the background: "$perfbot" ... & is perfbot's own pid
pbargs=(--cache-dir "$cache" --db "$db" --report-dir "$reports" -c cache.ccache="$ccache_dir"
	-c workload.kselftest-vm.only=$kst)
panicq=$top/tests/data/panics-at-boot

# perfbot killed (SIGKILL) while it builds a kernel
before=$(counts)
"$perfbot" run "${pbargs[@]}" --patch 997 --queue "$panicq" "${one_boot[@]}" --iterations 1 > "$work/k1.out" 2> "$work/k1.err" &
pid=$!
wait_for 300 grep -q "building base+patch kernel" "$work/k1.err"
sleep 3
kill -KILL "$pid"
wait "$pid" 2> /dev/null
sleep 1
check "SIGKILL during a build: it was building" grep -q "building base+patch kernel" "$work/k1.err"
check "SIGKILL during a build: the top make died with perfbot" eval "! running_here '[m]ake O=$cache'"
check "SIGKILL during a build: nothing stored" test "$(counts)" = "$before"
check "SIGKILL during a build: no kernel is marked built that is not" test "$(marked_built_without_image)" -eq 0
check "SIGKILL during a build: its half-built kernel is only in a .tmp.$pid directory" \
	bash -c "ls -d '$cache'/kernels/*.tmp.$pid > /dev/null 2>&1"
# the next run cleans up, builds it and boots it: a kernel that BUG()s in mm init
pb run --patch 997 --queue "$panicq" "${one_boot[@]}" --iterations 1 > "$work/k2.out" 2> "$work/k2.err"
rc=$?
check "the next run removes the killed build's debris" grep -q "removing .*\.tmp\.$pid, left by perfbot pid $pid that died" "$work/k2.err"
make_group=$(sed -n 's/.*stopping the build (process group \([0-9]*\)).*/\1/p' "$work/k2.err")
check "the next run stopped the sub-makes the killed one left${make_group:+ (group $make_group)}, or they had ended" \
	eval "{ [ -z '$make_group' ] || ! pgrep -g '$make_group' > /dev/null; } && ! running_here '[m]ake -f .*Makefile.build'"
check "a kernel that BUG()s in mm init: exit 3 (rc=$rc)" test "$rc" -eq 3
c997=$(q "SELECT max(id) FROM comparisons")
check "BUG() in mm init: stored as boot-panic, with the BUG and the panic" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$c997 AND side='with' AND outcome='boot-panic' AND detail LIKE '%kernel BUG at %mm/vmscan.c:%' AND detail LIKE '%Kernel panic - not syncing%'")" -eq 1
check "BUG() in mm init: the kernel without it booted ok" \
	test "$(q "SELECT outcome FROM runs WHERE comparison_id=$c997 AND side='without'")" = "ok"
check "BUG() in mm init: the comparison is boot-failed" test "$(q "SELECT status FROM comparisons WHERE id=$c997")" = "boot-failed"
check "BUG() in mm init: the answer's headline is the BUG line" \
	grep -Eq "^997: the kernel with the patch crashed: kernel BUG at [./a-z]*mm/vmscan.c:[0-9]+!$" "$work/k2.out"
check "BUG() in mm init: the answer names the boot, the kernel and its console log" \
	grep -Eq "^boot-panic: boot [0-9]+, the kernel with the patch \(base\+patch\)" "$work/k2.out"
check "BUG() in mm init: the BUG line once, and no oops on the terminal" \
	test "$(grep -c 'kernel BUG at' "$work/k2.out"),$(grep -c 'kernel BUG at' "$work/k2.err"),$(cat "$work/k2.out" "$work/k2.err" | grep -c 'invalid opcode\|Call Trace')" = "1,1,0"
check "BUG() in mm init: its console log is where the answer says" \
	grep -q "invalid opcode" "$(sed -n 's/^  console log: //p' "$work/k2.out")"
p997=$(page 997 panics-at-boot)
check "BUG() in mm init: its page leads with the crash, above the boots table" \
	test "$(grep -n '<div id="crash">' "$p997" | cut -d: -f1 | head -1)" -lt "$(grep -n '<h2>Boots</h2>' "$p997" | cut -d: -f1 | head -1)"
check "BUG() in mm init: the crash banner names the BUG line and links the console log" \
	bash -c "sed -n '/<div id=\"crash\">/,/<\/div>/p' '$p997' | grep -q 'kernel BUG at' && sed -n '/<div id=\"crash\">/,/<\/div>/p' '$p997' | grep -q 'href=\"logs/'"
# the report keeps every run: this run was on another queue
check "the index still lists 771 after a run on another queue" \
	grep -q "href=\"$(basename "$(page 771)")\"" "$reports/index.html"
check "the index links a page per queue, and both are there" \
	bash -c "grep -q 'href=\"$(basename "$(queue_page stable-5.13)")\"' '$reports/index.html' && test -s '$(queue_page stable-5.13)' -a -s '$(queue_page panics-at-boot)'"
p771=$(page 771)
check "771's page: a reproduce section with the command and its seed" \
	bash -c "grep -q '<h2>Reproduce</h2>' '$p771' && grep -q 'perfbot run --patch 771 .*-c run.seed=[0-9]' '$p771'"
check "771's page: both kernels' .config copied into the report and linked" \
	test "$(for f in $(grep -o 'href="configs/[^"]*"' "$p771" | sort -u | sed 's/href="//; s/"$//'); do grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$reports/$f" && echo "$f"; done | wc -l)" -eq 2
check "771's page: the QEMU and guest command lines, and a way back to the index" \
	bash -c "grep -q 'qemu-system-x86_64' '$p771' && grep -q 'console=ttyS0' '$p771' && grep -q 'href=\"index.html\"' '$p771'"
check "BUG() in mm init: the report shows the panic text" grep -Eq "kernel BUG at [./a-z]*mm/vmscan.c" "$(page 997 panics-at-boot)"

# a kernel that panics in setup_arch(), before panic=-1 is parsed and before
# the serial console is up: CONFIG_PANIC_TIMEOUT ends the boot at once and
# the early console shows why; under tcg-icount it is booted only once
pb run --patch 996 --queue "$panicq" --workload hugetlb-migrate --iterations 1 > "$work/e1.out" 2> "$work/e1.err"
rc=$?
c996=$(q "SELECT max(id) FROM comparisons")
check "an early-boot panic: exit 3 (rc=$rc)" test "$rc" -eq 3
check "an early-boot panic: stored as boot-panic with its message" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$c996 AND side='with' AND outcome='boot-panic' AND detail LIKE '%Kernel panic - not syncing: perfbot test: no memory map in free_area_init%'")" -eq 1
check "an early-boot panic: it ended in seconds, not at the boot timeout" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$c996 AND side='with' AND wall_seconds < 60")" -eq 1
check "an early-boot panic: the broken kernel is booted once under tcg-icount, the pair once each" \
	test "$(q "SELECT group_concat(side || ':' || outcome, ' ') FROM (SELECT side, outcome FROM runs WHERE comparison_id=$c996 ORDER BY side)")" = "with:boot-panic without:ok"
check "an early-boot panic: the run says why it booted no more" grep -q "not booted again" "$work/e1.err"
check "an early-boot panic: the comparison is boot-failed" test "$(q "SELECT status FROM comparisons WHERE id=$c996")" = "boot-failed"
check "no kernel is marked built that is not" test "$(marked_built_without_image)" -eq 0

# QEMU killed in the middle of a boot: a qemu-error result. The round's
# two guests run side by side: the newest QEMU alone is killed.
"$perfbot" run "${pbargs[@]}" --patch 771 --workload hugetlb-migrate "${one_boot[@]}" > "$work/q.out" 2>&1 &
pid=$!
wait_for 300 qemu_of 771
sleep 1
pkill -KILL -n -f "[q]emu-system.*$reports/logs/771-"
wait "$pid"
rc=$?
cq=$(q "SELECT max(id) FROM comparisons")
check "QEMU killed mid-boot: exit 3 (rc=$rc)" test "$rc" -eq 3
check "QEMU killed mid-boot: that boot is stored as qemu-error, killed by signal 9" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$cq AND outcome='qemu-error' AND detail LIKE 'QEMU was killed by signal 9%'")" -eq 1
check "QEMU killed mid-boot: the other kernel's boot still ran" \
	test "$(q "SELECT count(*) FROM runs WHERE comparison_id=$cq AND outcome='ok'")" -eq 1

# perfbot killed during a boot: its QEMU goes too, nothing is stored
before=$(counts)
"$perfbot" run "${pbargs[@]}" --patch 771 --workload hugetlb-migrate "${one_boot[@]}" > "$work/b.out" 2>&1 &
pid=$!
wait_for 300 qemu_of 771
kill -KILL "$pid"
wait "$pid" 2> /dev/null
check "SIGKILL during a boot: QEMU died with perfbot" wait_for 5 bash -c "! pgrep -f '[q]emu-system.*$reports/logs/771-' > /dev/null"
check "SIGKILL during a boot: nothing stored" test "$(counts)" = "$before"

# perfbot killed in its database write, after every row, before the commit
PERFBOT_FAULT=kill-before-commit pb run --patch 771 --workload hugetlb-migrate "${one_boot[@]}" > "$work/w.out" 2>&1
rc=$?
check "SIGKILL in the database write: it died of it (rc=$rc)" test "$rc" -eq 137
check "SIGKILL in the database write: not one of its rows is there" test "$(counts)" = "$before"
check "SIGKILL in the database write: the database is intact" test "$(q 'PRAGMA integrity_check')" = "ok"
pb run --patch 771 --workload hugetlb-migrate "${one_boot[@]}" > "$work/w2.out" 2>&1
check "the next run stores its comparison" test "$(q "SELECT count(*) FROM comparisons")" -eq $(( ${before%%/*} + 1 ))

# two perfbot runs at once on one database: the second refuses, the first finishes
"$perfbot" run "${pbargs[@]}" --patch 771 --workload hugetlb-migrate "${one_boot[@]}" > "$work/a.out" 2>&1 &
pid=$!
wait_for 300 qemu_of 771
one_line_error "a second perfbot run while one runs" 1 "another perfbot is working on" \
	pb run --patch 765 --workload hugetlb-migrate "${one_boot[@]}"
check "a second perfbot run while one runs: it names the first (pid $pid)" grep -q "pid $pid" "$work/err"
pb report > "$work/r.out" 2>&1
check "perfbot report while a run writes: reads what is committed (rc=$?)" grep -q "index.html" "$work/r.out"
wait "$pid"
check "the first run finishes as if alone (rc=$?)" grep -q "^perfbot: measured; comparison" "$work/a.out"

# the disk fills while a kernel builds: the tree fits in a small tmpfs, the objects do not
tree_key=$(ls "$cache/trees" | head -n 1)
full=$work/full
mkdir -p "$full/trees/$tree_key"
need=$(du -sm "$cache/trees/$tree_key/pristine" "$cache/trees/$tree_key/work" | awk '{ s += $1 } END { print s + 80 }')
if mount -t tmpfs -o size="${need}m" perfbot-e2e-full "$full" 2> "$work/mount.err"; then
	mkdir -p "$full/trees/$tree_key"
	cp -a "$cache/trees/$tree_key/pristine" "$cache/trees/$tree_key/work" "$full/trees/$tree_key/"
	before=$(counts)
	"$perfbot" run --patch 771 --cache-dir "$full" --db "$db" --report-dir "$reports" \
		-c cache.ccache="$ccache_dir" "${one_boot[@]}" > "$work/full.out" 2> "$work/full.err"
	rc=$?
	grep -v '^  build' "$work/full.err" | tail -n 3
	check "disk full while building: exit 1 (rc=$rc)" test "$rc" -eq 1
	check "disk full while building: the error says so" grep -qi "space left on device" "$work/full.err"
	check "disk full while building: nothing stored" test "$(counts)" = "$before"
	check "disk full while building: no kernel marked built" \
		test "$(find "$full/kernels" -name bzImage 2> /dev/null | wc -l)" -eq 0
	umount "$full"
else
	fail "disk full: cannot mount a tmpfs ($(cat "$work/mount.err"))"
fi

echo "e2e: one full perfbot run under valgrind"
valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --log-file="$work/valgrind.log" \
	"$perfbot" run "${pbargs[@]}" --patch 771 "${one_boot[@]}" > "$work/vg.out" 2>&1
rc=$?
grep -E "ERROR SUMMARY|definitely lost|in use at exit" "$work/valgrind.log"
vg_rc=$(expected_rc "$(q "SELECT max(id) FROM comparisons")")
check "valgrind: perfbot run --patch 771 exits $vg_rc with no memory error and no leak (rc=$rc)" \
	bash -c "[ $rc -eq $vg_rc ] && grep -q 'ERROR SUMMARY: 0 errors' '$work/valgrind.log'"
check "valgrind: that run measured and stored its comparison" grep -q "^perfbot: measured; comparison" "$work/vg.out"

echo "e2e: perfbotd: two jobs, SIGKILL during the first, a restart"
# perfbotd takes the same options as perfbot; two boots a kernel, no extra rounds
# (an array, not a function: "$perfbotd" "${pbd[@]}" & gives perfbotd's own pid)
perfbotd=$top/build/perfbotd
pbd=(--foreground --poll 1 --cache-dir "$cache" --db "$db" --report-dir "$reports" -c workload.kselftest-vm.only=$kst
	-c cache.ccache="$ccache_dir" -c run.boots=2 -c run.max_boots=2)
jobs_before=$(q "SELECT count(*) FROM jobs")
one_line_error "submit of a patch not in the queue" 1 "patch 999 is not in the queue" pb submit --patch 999
one_line_error "submit of a patch that is not mm" 1 "patch 188 is not an mm patch" pb submit --patch 188
one_line_error "submit of an unknown workload" 1 "nosuch" pb submit --patch 771 --workload nosuch
check "bad submits queue nothing" test "$(q "SELECT count(*) FROM jobs")" -eq "$jobs_before"
pb submit --patch 771 --workload hugetlb-migrate > "$work/s1.out" 2>&1
pb submit --patch 765 --workload hugetlb-migrate > "$work/s2.out" 2>&1
cat "$work/s1.out" "$work/s2.out"
j1=$(sed -n 's/^perfbot: job \([0-9]*\) queued.*/\1/p' "$work/s1.out")
j2=$(sed -n 's/^perfbot: job \([0-9]*\) queued.*/\1/p' "$work/s2.out")
check "submit: two jobs queued" test "${j1:-0}" -gt 0 -a "${j2:-0}" -gt "${j1:-0}" \
	-a "$(q "SELECT count(*) FROM jobs WHERE state='queued'")" -eq 2
"$perfbotd" "${pbd[@]}" > "$work/d1.log" 2>&1 &
dpid=$!
for _ in $(seq 1 300); do
	[ "$(q "SELECT count(*) FROM job_boots WHERE job_id=$j1")" -ge 1 ] && break
	sleep 0.5
done
kill -KILL "$dpid"
wait "$dpid" 2>/dev/null
sleep 1
first_log=$(q "SELECT console_log FROM job_boots WHERE job_id=$j1 AND boot_index=1")
first_samples=$(q "SELECT count(*) FROM job_samples WHERE job_id=$j1 AND boot_index=1")
journaled=$(q "SELECT count(*) FROM job_boots WHERE job_id=$j1")
cat "$work/d1.log"
check "SIGKILL during job $j1: $journaled boot(s) journaled, the first with $first_samples samples" \
	test -n "$first_log" -a "${first_samples:-0}" -gt 0 -a "$journaled" -lt 4
check "SIGKILL: no QEMU of the killed perfbotd runs on" bash -c "! pgrep -f '[q]emu-system.*$reports/logs' > /dev/null"
check "SIGKILL: job $j1 is left running, nothing stored for it" \
	test "$(q "SELECT state || '/' || coalesce(comparison_id, 0) FROM jobs WHERE id=$j1")" = "running/0"
comparisons_before=$(q "SELECT count(*) FROM comparisons")
timeout 900 "$perfbotd" "${pbd[@]}" --once > "$work/d2.log" 2>&1
rc=$?
cat "$work/d2.log"
check "restarted perfbotd: exit 0 once the queue is empty (rc=$rc)" test "$rc" -eq 0
check "restart: job $j1 queued again as an orphan" grep -q "1 job(s) were running when the last perfbotd stopped" "$work/d2.log"
check "restart: job $j1 resumed after its $journaled journaled boot(s)" \
	grep -q "job $j1 resumes after its last completed boot: $journaled boot(s) journaled" "$reports/logs/job-$j1.log"
check "job $j1: the next job's kernels built beside its boots" \
	grep -q "^perfbot: job $j2's kernels (patch 765) build beside these boots, at idle priority" "$reports/logs/job-$j1.log"
check "both jobs done, each with its comparison and perfbot run's exit status for it" \
	test "$(q "SELECT count(*) FROM jobs j JOIN comparisons c ON c.id=j.comparison_id WHERE j.id IN ($j1,$j2)
		AND j.state='done' AND j.exit_status = CASE WHEN c.status<>'measured' THEN 3
		WHEN c.verdict='regression' THEN 5 WHEN c.behaviour='behaviour change' THEN 6 ELSE 0 END")" -eq 2
check "two new comparisons, no more" test $(( $(q "SELECT count(*) FROM comparisons") - comparisons_before )) -eq 2
c1=$(q "SELECT comparison_id FROM jobs WHERE id=$j1")
check "job $j1: 4 runs, boots 1 to 4 once each" \
	test "$(q "SELECT count(*) || '/' || count(DISTINCT boot_index) || '/' || min(boot_index) || '/' || max(boot_index) FROM runs WHERE comparison_id=$c1")" = "4/4/1/4"
check "job $j1: its first boot is the journaled one, not booted again" \
	test "$(q "SELECT console_log FROM runs WHERE comparison_id=$c1 AND boot_index=1")" = "$first_log"
check "job $j1: that boot's $first_samples samples are stored once" \
	test "$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id=s.run_id WHERE r.comparison_id=$c1 AND r.boot_index=1")" -eq "$first_samples"
check "job $j1: a boot of each kernel per round (2 without, 2 with)" \
	test "$(q "SELECT group_concat(n) FROM (SELECT count(*) n FROM runs WHERE comparison_id=$c1 GROUP BY side)")" = "2,2"
check "the journal is empty" test "$(q "SELECT (SELECT count(*) FROM job_boots) + (SELECT count(*) FROM job_samples)")" -eq 0
check "job $j1's patch page was written, with its plots" grep -q "771-c$c1-" "$(page 771)"
pb jobs > "$work/jobs.out" 2>&1
cat "$work/jobs.out"
check "perfbot jobs: both done, with what they found" \
	test "$(grep -Ec "^ +($j1|$j2) done .*measured: comparison [0-9]+, 2 boots per kernel" "$work/jobs.out")" -eq 2

echo "e2e: perfbotd: SIGHUP re-reads config.ini, SIGTERM stops once the boots under way end"
# a config.ini of its own that the test can change (perfbot's own files
# are found from the binary, wherever the config is)
cp "$top/config.ini" "$work/d.ini"
# 3 rounds: with 2 guests at once, a SIGTERM during the first batch still
# leaves a round to resume
pbd3=("${pbd[@]/run.boots=2/run.boots=3}")
pbd3=("${pbd3[@]/run.max_boots=2/run.max_boots=3}")
"$perfbotd" "${pbd3[@]}" -C "$work/d.ini" > "$work/d3.log" 2>&1 &
dpid=$!
( sleep 600; kill -KILL "$dpid" 2> /dev/null ) &  # a perfbotd that never stops fails, not hangs
watchdog=$!
waitlog() { for _ in $(seq 1 240); do grep -q -- "$1" "$work/d3.log" && return 0; sleep 0.5; done; return 1; }
waitlog "started (pid $dpid"
cp "$work/d.ini" "$work/d.ini.good"
printf '[run]\nboots = many\n' >> "$work/d.ini"
kill -HUP "$dpid"
check "SIGHUP with a broken config.ini: says so and keeps the old one" waitlog "SIGHUP: .*keeping the configuration read before"
sed -E 's/^iterations = .*/iterations = 3/' "$work/d.ini.good" > "$work/d.ini"
kill -HUP "$dpid"
check "SIGHUP: re-reads config.ini (now 3 boots of 3 iterations)" waitlog "SIGHUP: re-read $work/d.ini (run.boots 3, run.iterations 3"
pb submit --patch 771 --workload hugetlb-migrate > "$work/s3.out" 2>&1
j3=$(sed -n 's/^perfbot: job \([0-9]*\) queued.*/\1/p' "$work/s3.out")
check "submit while perfbotd runs: it says which perfbotd runs it" grep -q "perfbotd (pid $dpid) runs it" "$work/s3.out"
for _ in $(seq 1 300); do
	[ "$(q "SELECT count(*) FROM job_boots WHERE job_id=${j3:-0}")" -ge 1 ] && break
	sleep 0.5
done
kill -TERM "$dpid"
stop_start=$(date +%s)
wait "$dpid"
rc=$?
stop_took=$(( $(date +%s) - stop_start ))
cat "$work/d3.log"
check "SIGTERM: perfbotd exits 0 once the boots under way end (rc=$rc, ${stop_took}s)" test "$rc" -eq 0
check "SIGTERM: it said it would stop once the boots under way end" grep -q "job $j3: stopping once the boots under way end" "$work/d3.log"
check "SIGTERM: job $j3 is queued again with 1 to 5 of its 6 boots journaled" \
	test "$(q "SELECT state FROM jobs WHERE id=$j3")/$(q "SELECT count(*) BETWEEN 1 AND 5 FROM job_boots WHERE job_id=$j3")" = "queued/1"
check "SIGTERM: no QEMU runs on" bash -c "! pgrep -f '[q]emu-system.*$reports/logs' > /dev/null"
kill "$watchdog" 2> /dev/null
timeout 900 "$perfbotd" "${pbd3[@]}" -C "$work/d.ini" --once > "$work/d4.log" 2>&1
rc=$?
c3=$(q "SELECT coalesce(comparison_id, 0) FROM jobs WHERE id=$j3")
check "job $j3 resumed and done (rc=$rc)" \
	grep -q "job $j3 resumes after its last completed boot" "$reports/logs/job-$j3.log"
check "job $j3: 6 runs of 3 iterations each (the re-read config)" \
	test "$(q "SELECT count(*) || '/' || c.iterations FROM runs r JOIN comparisons c ON c.id=r.comparison_id WHERE c.id=$c3")" = "6/3"
if command -v systemd-analyze > /dev/null; then
	check "the systemd unit verifies" systemd-analyze verify "$top/build/perfbotd.service"
fi

# The answer to 771's review mail, as a mail program reads it (the
# directory queue's patches have no Message-ID: no In-Reply-To)
pb mail --patch 771 > "$work/mail.out" 2>&1
rc=$?
check "mail --patch 771 writes the reply (rc=$rc)" test "$rc" -eq 0 -a -f "$reports/mail/patch-771.eml"
check "mail: Python's email package parses it, lines of at most 72 columns" \
	python3 tests/check-mail.py "$reports/mail/patch-771.eml"
check "mail: it names the behaviour change" \
	grep -q "^perfbot noticed a behaviour change of" "$reports/mail/patch-771.eml"

pb pair > "$work/pair.out" 2>&1
check "pair: 772 reverse-applies" grep -Eq "^772 reverse" "$work/pair.out"
check "pair: 765 has a port" grep -Eq "^765 port" "$work/pair.out"

echo "e2e: cold run ${cold}s, warm run ${warm}s"
rm -rf "$work"
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
