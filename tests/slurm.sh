#!/bin/bash
# make slurm-test: perfbot nightly through a real Slurm (22.05, Debian's
# slurm-wlm) on a one-machine cluster this test starts and stops
# (tests/slurm-cluster.sh: munge with a generated key, slurmctld and slurmd
# with a generated slurm.conf, all under a temporary directory). Root, like
# the e2e: slurmd runs jobs as their user.
#
# The bundled queue's nightly runs twice, with the local executor and with
# Slurm, on the same settings; their verdicts must be the same. While the
# Slurm nightly runs, one patch's job is cancelled with scancel: it must be
# submitted again and still give its verdict. One bundle is imported twice
# (stored once), and a Slurm nightly stopped with SIGTERM must leave no job
# behind. run --patch, a perfbotd job, run --series and its bisect (the
# synthetic -rc of make e2e-series) each run as a Slurm job and come home. Prints the two nightlies' wall times and "slurm: N passed, N
# failed". The kernels come from the normal cache (PERFBOT_SLURM_CACHE).
set -u
cd "$(dirname "$0")/.."
top=$PWD
perfbot=$top/build/perfbot
work=$(mktemp -d /tmp/perfbot-slurm.XXXXXX)
chmod 755 "$work" # munged wants every directory above its socket searchable by all
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { # check "what" command...
	local what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

if [ "$(id -u)" -ne 0 ]; then
	echo "slurm: needs root (slurmd runs the jobs as their user)" >&2
	exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	echo "slurm: installing slurm-wlm and munge" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge \
		>"$work/apt.log" 2>&1 || { tail -5 "$work/apt.log" >&2; exit 1; }
fi

export SLURM_TEST_DIR=$work/cluster
export SLURM_CONF=$SLURM_TEST_DIR/etc/slurm.conf
cluster_stop() { sh tests/slurm-cluster.sh stop >/dev/null 2>&1 || true; }
trap 'cluster_stop' EXIT
sh tests/slurm-cluster.sh start || { echo "slurm: the test cluster did not start" >&2; exit 1; }

# The e2e's settings: three of the vm selftests, 2 boots a kernel, a
# calibration of 2 boots a side. Kept the same for both executors.
common=(-c workload.kselftest-vm.only=khugepaged,migration,hugepage-vmemmap --iterations 2
	-c calibrate.boots=2)
[ -n "${PERFBOT_SLURM_CACHE:-}" ] && common+=(--cache-dir "$PERFBOT_SLURM_CACHE")
verdicts() { # verdicts DB: one line per patch comparison: number status verdict behaviour
	sqlite3 "$1" "SELECT p.number, c.status, coalesce(c.verdict,'-'), coalesce(c.behaviour,'-')
		      FROM comparisons c JOIN patches p ON p.id=c.patch_id WHERE c.kind='patch' ORDER BY p.number"
}

echo "slurm: the local nightly"
start=$(date +%s)
"$perfbot" nightly --db "$work/local.db" --report-dir "$work/local-reports" "${common[@]}" \
	>"$work/local.out" 2>&1
rc=$?
local_s=$(( $(date +%s) - start ))
grep '^perfbot nightly' "$work/local.out"
check "local nightly: exit 0 (rc=$rc, ${local_s}s)" test "$rc" -eq 0

# The first patch job to run is cancelled once, 5 s into its run. The
# calibration's job runs first: 633 s here on 2 cores, past the 600 s this
# waited for once; it waits 30 minutes now.
canceller() {
	local id="" n=0
	while [ -z "$id" ] && [ $n -lt 3600 ]; do
		id=$(squeue -h -t RUNNING -o '%i %j' | awk '$2 ~ /^perfbot-[0-9]+$/ {print $1; exit}')
		[ -n "$id" ] || { sleep 0.5; n=$((n + 1)); }
	done
	[ -n "$id" ] || return
	sleep 5
	scancel "$id" && echo "$id" >"$work/cancelled"
}

echo "slurm: the Slurm nightly (one job cancelled on the way)"
canceller &
cpid=$!
start=$(date +%s)
"$perfbot" nightly --db "$work/slurm.db" --report-dir "$work/slurm-reports" "${common[@]}" \
	-c executor.kind=slurm -c executor.spool_dir="$work/spool" >"$work/slurm.out" 2>&1
rc=$?
slurm_s=$(( $(date +%s) - start ))
wait "$cpid"
grep -E '^perfbot( nightly)?:' "$work/slurm.out"
check "Slurm nightly: exit 0 (rc=$rc, ${slurm_s}s)" test "$rc" -eq 0
# Each job's time on the node, from Slurm's own record of it (jobcomp)
job_times() {
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	       print f["JobId"], f["Name"], f["JobState"], f["StartTime"], f["EndTime"] }' \
		"$SLURM_TEST_DIR/log/jobcomp.txt" | while read -r id name state t0 t1; do
		echo "$id $name $state $(( $(date -d "$t1" +%s) - $(date -d "$t0" +%s) ))"
	done
}
job_times >"$work/job-times"
sed 's/^/  job /' "$work/job-times"
per=$(awk '$2 ~ /^perfbot-[0-9]+$/ && $3 == "COMPLETED" { s += $4; n++ } END { if (n) printf "%.0f", s / n }' "$work/job-times")
cal=$(awk '$2 == "perfbot-calibration" && $3 == "COMPLETED" { print $4 }' "$work/job-times")
[ -n "$per" ] && echo "slurm: a patch's job took ${per}s on average, the calibration's ${cal:-?}s:" \
	"N nodes of $(nproc) CPUs do N x $(( 3600 / per )) comparisons an hour"
check "Slurm nightly: the same verdicts as the local one" \
	test "$(verdicts "$work/slurm.db")" = "$(verdicts "$work/local.db")"
verdicts "$work/slurm.db" | sed 's/^/  /'
check "Slurm nightly: it measured the bundled queue's four mm patches" \
	test "$(verdicts "$work/slurm.db" | wc -l)" -eq 4
cancelled=$(cat "$work/cancelled" 2>/dev/null)
check "a job was cancelled with scancel (job ${cancelled:-none})" test -n "$cancelled"
check "the cancelled job was submitted again" \
	grep -q "Slurm job $cancelled CANCELLED.*submitted again" "$work/slurm.out"
check "the calibration ran as a job and was imported" \
	test "$(sqlite3 "$work/slurm.db" "SELECT count(*) FROM comparisons WHERE kind='calibration'")" -eq 1
check "each patch was judged by the nodes' calibration" \
	test "$(sqlite3 "$work/slurm.db" "SELECT count(DISTINCT r.comparison_id) FROM results r JOIN comparisons c
		ON c.id=r.comparison_id WHERE c.kind='patch' AND r.noise_from='calibration'")" -ge 3
check "every comparison says where it ran" \
	test "$(sqlite3 "$work/slurm.db" "SELECT count(*) FROM comparisons WHERE host IS NULL OR host=''")" -eq 0
check "every boot's logs came home with its bundle" \
	test "$(sqlite3 "$work/slurm.db" "SELECT count(*) FROM runs WHERE console_log NOT LIKE '$work/slurm-reports/logs/imported-%'")" -eq 0
missing=0
for f in $(sqlite3 "$work/slurm.db" "SELECT console_log FROM runs UNION SELECT results_log FROM runs"); do
	[ -s "$f" ] || missing=$((missing + 1))
done
check "every log a run names is there ($missing missing)" test "$missing" -eq 0
"$perfbot" report --db "$work/slurm.db" --report-dir "$work/slurm-reports" >/dev/null 2>&1
check "the report shows the node of an imported comparison" \
	grep -qr "ran on" "$work/slurm-reports"

echo "slurm: a bundle imported twice"
# a patch's bundle (a cancelled attempt's holds only the calibration it started from)
bundle=$(for b in "$work"/spool/nightly-*/[0-9]*.db; do
	[ "$(sqlite3 "$b" "SELECT count(*) FROM comparisons WHERE kind='patch'")" -gt 0 ] && echo "$b"
done | head -1)
echo "  $bundle"
"$perfbot" import --db "$work/twice.db" --report-dir "$work/twice-reports" "$bundle" >"$work/import1.out" 2>&1
rc1=$?
before=$(sqlite3 "$work/twice.db" "SELECT (SELECT count(*) FROM comparisons)||'/'||(SELECT count(*) FROM runs)||'/'||(SELECT count(*) FROM samples)")
"$perfbot" import --db "$work/twice.db" --report-dir "$work/twice-reports" "$bundle" >"$work/import2.out" 2>&1
rc2=$?
after=$(sqlite3 "$work/twice.db" "SELECT (SELECT count(*) FROM comparisons)||'/'||(SELECT count(*) FROM runs)||'/'||(SELECT count(*) FROM samples)")
cat "$work/import1.out" "$work/import2.out"
check "import: both exit 0 ($rc1, $rc2)" test "$rc1" -eq 0 -a "$rc2" -eq 0
check "import: stored once ($before, then $after)" test "$before" = "$after"
check "import: the second says it holds them already" grep -q "here already" "$work/import2.out"

echo "slurm: the next Slurm nightly"
"$perfbot" nightly --no-calibrate --db "$work/slurm.db" --report-dir "$work/slurm-reports" "${common[@]}" \
	-c executor.kind=slurm -c executor.spool_dir="$work/spool" >"$work/next.out" 2>&1
rc=$?
grep '^perfbot nightly [0-9]' "$work/next.out"
check "next nightly: exit 0, every imported patch counts as measured, no job" \
	test "$rc" -eq 0 -a "$(grep -c 'skipped: already measured' "$work/next.out")" -eq 4 \
	-a "$(grep -c 'Slurm job' "$work/next.out")" -eq 0

echo "slurm: run --patch as a Slurm job"
"$perfbot" run --patch 772 --db "$work/slurm.db" --report-dir "$work/slurm-reports" "${common[@]}" \
	-c executor.kind=slurm -c executor.spool_dir="$work/spool" >"$work/run.out" 2>&1
rc=$?
grep -E '^perfbot: (772|Slurm|---)' "$work/run.out"
newest772="SELECT c.status||' '||coalesce(c.verdict,'-')||' '||coalesce(c.behaviour,'-') FROM comparisons c
	JOIN patches p ON p.id=c.patch_id WHERE p.number=772 AND c.kind='patch' ORDER BY c.id DESC LIMIT 1"
# run's status says what it found: 3 a kernel failed, 5 a regression, 6 a behaviour change
want=$(sqlite3 "$work/slurm.db" "SELECT CASE WHEN c.status<>'measured' THEN 3 WHEN c.verdict='regression' THEN 5
	WHEN c.behaviour='behaviour change' THEN 6 ELSE 0 END FROM comparisons c JOIN patches p ON p.id=c.patch_id
	WHERE p.number=772 AND c.kind='patch' ORDER BY c.id DESC LIMIT 1")
check "run --patch 772 through Slurm: exit ${want:-?}, the node's, as its answer says (rc=$rc)" test "$rc" = "${want:-x}"
check "run through Slurm: its job's output is shown here" \
	grep -q "^perfbot: --- the output of Slurm job [0-9]* " "$work/run.out"
check "run through Slurm: its comparison came home (772 measured twice now)" \
	test "$(sqlite3 "$work/slurm.db" "SELECT count(*) FROM comparisons c JOIN patches p ON p.id=c.patch_id
		WHERE p.number=772 AND c.kind='patch'")" -eq 2
check "run through Slurm: the local run's answer" \
	test "$(sqlite3 "$work/slurm.db" "$newest772")" = "$(sqlite3 "$work/local.db" "$newest772")"

echo "slurm: a perfbotd job as a Slurm job"
"$perfbot" submit --patch 772 --db "$work/slurm.db" --report-dir "$work/slurm-reports" "${common[@]}" \
	>"$work/submit.out" 2>&1
job=$(sed -n 's/^perfbot: job \([0-9]*\) queued.*/\1/p' "$work/submit.out")
"$top/build/perfbotd" --foreground --once --db "$work/slurm.db" --report-dir "$work/slurm-reports" \
	-c executor.kind=slurm -c executor.spool_dir="$work/spool" >"$work/perfbotd.out" 2>&1
rc=$?
grep -E "job ${job:-?}" "$work/perfbotd.out" | tail -2
check "perfbotd: exit 0 (rc=$rc)" test "$rc" -eq 0
check "perfbotd: job ${job:-none} done with the comparison its Slurm job brought" \
	test "$(sqlite3 "$work/slurm.db" "SELECT j.state FROM jobs j JOIN comparisons c ON c.id=j.comparison_id
		WHERE j.id=${job:-0} AND c.kind='patch'")" = done
check "perfbotd: the job's settings went with it (2 iterations, not 5)" \
	test "$(sqlite3 "$work/slurm.db" "SELECT c.iterations FROM jobs j JOIN comparisons c
		ON c.id=j.comparison_id WHERE j.id=${job:-0}")" = 2

echo "slurm: a series as a Slurm job, then its bisect as another"
# the synthetic -rc of make e2e-series (its third patch slows THP faults),
# with its kernel cache
slow=$top/tests/data/series-slow
sdb=$work/series.db
series=(--db "$sdb" --report-dir "$work/series-reports" --queue "$slow" --accel tcg-icount
	--cache-dir "${PERFBOT_E2E_SERIES_CACHE:-/var/cache/perfbot/e2e}" -c executor.kind=slurm
	-c executor.spool_dir="$work/spool")
start=$(date +%s)
"$perfbot" run --series --no-bisect -w thp-anon --iterations 3 "${series[@]}" >"$work/series.out" 2>&1
rc=$?
series_s=$(( $(date +%s) - start ))
grep -E '^perfbot: (series|Slurm|the series)' "$work/series.out"
check "run --series through Slurm: exit 5, the series' regression (rc=$rc, ${series_s}s)" test "$rc" -eq 5
check "the series' regression came home" \
	test "$(sqlite3 "$sdb" "SELECT r.verdict FROM results r JOIN comparisons c ON c.id=r.comparison_id
		WHERE c.kind='series' AND r.metric='fault_always_ms_per_gib'")" = regression
start=$(date +%s)
"$perfbot" bisect "${series[@]}" >"$work/bisect.out" 2>&1
rc=$?
bisect_s=$(( $(date +%s) - start ))
grep -E '^perfbot: (bisect|Slurm)' "$work/bisect.out"
check "bisect through Slurm: exit 0, a culprit confirmed (rc=$rc, ${bisect_s}s)" test "$rc" -eq 0
check "bisect through Slurm: stored here, patch 3 of 4, confirmed, of the series comparison here" \
	test "$(sqlite3 "$sdb" "SELECT b.culprit_number||'/'||b.npatches||'/'||b.status FROM bisects b
		JOIN comparisons c ON c.id=b.series_comparison WHERE c.kind='series'")" = "3/4/confirmed"
check "bisect through Slurm: every step a comparison here, of kind bisect" \
	test "$(sqlite3 "$sdb" "SELECT count(*) FROM bisect_steps s JOIN comparisons c ON c.id=s.comparison_id
		WHERE c.kind='bisect'")" -eq "$(sqlite3 "$sdb" "SELECT steps FROM bisects")"
check "bisect through Slurm: one series comparison here (what the job started from stayed there)" \
	test "$(sqlite3 "$sdb" "SELECT count(*) FROM comparisons WHERE kind='series'")" -eq 1
check "bisect through Slurm: the series page names the culprit" \
	grep -qr "the culprit is \[PATCH 6.1 3/4\]" "$work/series-reports"

echo "slurm: a partition Slurm does not have"
"$perfbot" nightly --all --no-calibrate --db "$work/slurm.db" --report-dir "$work/slurm-reports" \
	"${common[@]}" -c executor.kind=slurm -c executor.spool_dir="$work/spool-bad" \
	-c executor.partition=nosuch >"$work/bad.out" 2>&1
rc=$?
grep -v 'skipped: not an mm patch' "$work/bad.out"
check "wrong partition: exit 1 (rc=$rc)" test "$rc" -eq 1
check "wrong partition: one line says sbatch refused it, and why" \
	grep -q "^perfbot: sbatch refused the job of .*: .*[Pp]artition" "$work/bad.out"
check "wrong partition: no spool left behind" test -z "$(ls -A "$work/spool-bad" 2>/dev/null)"

echo "slurm: a Slurm nightly stopped with SIGTERM"
"$perfbot" nightly --all --no-calibrate --db "$work/slurm.db" --report-dir "$work/slurm-reports" \
	"${common[@]}" -c executor.kind=slurm -c executor.spool_dir="$work/spool" >"$work/stop.out" 2>&1 &
npid=$!
n=0
until [ -n "$(squeue -h -t RUNNING -o %i)" ] || [ $n -ge 600 ]; do sleep 0.5; n=$((n + 1)); done
kill -TERM "$npid"
wait "$npid"
rc=$?
sleep 2
cat "$work/stop.out" | grep -E '^perfbot'
check "stopped: exit 1 (rc=$rc)" test "$rc" -eq 1
check "stopped: it cancelled its jobs" grep -q "cancelled (perfbot stopped)" "$work/stop.out"
check "stopped: no job of it is left in Slurm" test -z "$(squeue -h -o %i)"

echo "slurm: local nightly ${local_s}s, Slurm nightly ${slurm_s}s (one job cancelled and run again);" \
	"series ${series_s}s and its bisect ${bisect_s}s as Slurm jobs"
echo "slurm: $passed passed, $failed failed"
# the cluster first: its pid files are under $work
cluster_stop
trap - EXIT
[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
