#!/bin/bash
# Plain TCG, boot after boot (make tcg-soak; issue 20): the base kernel
# booted N times in a row (default 30) under qemu.accel=tcg with its
# configured vCPUs, running thp-anon (which switches a trace event on and
# off, patching kernel text each time) and hugetlb-migrate. QEMU 7.2's
# multi-threaded TCG missed such text patching now and then, and a guest
# spun on a stale int3 until its timeout; perfbot now runs plain TCG's
# vCPUs on one host thread. Prints how many boots came out ok in a row
# and each one that did not; exits 1 if any did not.
#
# thp-anon runs SOAK_ITERATIONS (20) iterations a boot, two trace-event
# switches each: some 1200 text patches in 30 boots. The control,
# PERFBOT_FAULT=mttcg tests/tcg-soak.sh, runs the vCPUs multi-threaded
# as QEMU's default is, and should hang.
#
# Kernels come from the normal cache (PERFBOT_SOAK_CACHE moves it);
# results go to a temporary database, removed afterwards.
set -u
cd "$(dirname "$0")/.."
top=$PWD
boots=${1:-30}
cache=${PERFBOT_SOAK_CACHE:-/var/cache/perfbot}
work=$(mktemp -d /tmp/perfbot-tcg-soak.XXXXXX)
trap 'rm -rf "$work"' EXIT
db=$work/results.db
start=$(date +%s)

case $boots in ''|*[!0-9]*|0|1) echo "tcg-soak: boots must be a number of at least 2" >&2; exit 2 ;; esac
"$top/build/perfbot" calibrate --accel tcg --cache-dir "$cache" --db "$db" --report-dir "$work/reports" \
	-w thp-anon -w hugetlb-migrate --per-side $(( (boots + 1) / 2 )) -c qemu.parallel=1 \
	--iterations "${SOAK_ITERATIONS:-20}" -c qemu.boot_timeout=180 \
	2>&1 | grep -E '^perfbot: (boot|accelerator|calibration)'
q() { sqlite3 "$db" "$1"; }
ran=$(q "SELECT count(*) FROM runs")
ok=$(q "SELECT count(*) FROM runs WHERE outcome='ok'")
single=$(q "SELECT count(*) FROM runs WHERE accel='tcg' AND qemu_cmdline LIKE '%-accel tcg,thread=single%'")
streak=$(q "SELECT count(*) FROM runs WHERE boot_index < coalesce((SELECT min(boot_index) FROM runs
	WHERE outcome<>'ok'), 1000000)")
q "SELECT '  boot ' || boot_index || ' (' || side || '): ' || outcome || ' after ' ||
	printf('%.0f', wall_seconds) || ' s: ' || detail || ' (' || console_log || ')'
	FROM runs WHERE outcome<>'ok' ORDER BY boot_index"
echo "tcg-soak: $ok of $ran boots ok under plain TCG, $streak in a row from the first;" \
	"$single on one TCG thread; $(( $(date +%s) - start )) s"
[ "$ran" -ge "$boots" ] && [ "$ok" -eq "$ran" ] && [ "$single" -eq "$ran" ]
