#!/bin/bash
# make bench-throughput: what perfbot gets through on this machine. Each mm
# patch of the bundled queue (031 765 771 772) is run with its kernels
# cached, one guest at a time (qemu.parallel=1) and then side by side
# (qemu.parallel=0: one per host CPU under tcg-icount); then where a boot's
# seconds go (tests/boot-cost.py); then perfbot nightly runs over the queue,
# its A/A calibration included, and again the next night, when that
# calibration still holds (--all: every patch again). Kernels missing from
# the cache are built by the first pass, which is then printed as the cold
# figures and run again warm. It prints figures; it passes or fails nothing.
#
# PERFBOT_BENCH_CACHE (default /var/cache/perfbot) is the cache dir used,
# BENCH_PATCHES the patches, BENCH_NIGHTLY=0 leaves the nightly out.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
perfbot=$top/build/perfbot
cache=${PERFBOT_BENCH_CACHE:-/var/cache/perfbot}
patches=${BENCH_PATCHES:-031 765 771 772}
work=$(mktemp -d /tmp/perfbot-throughput.XXXXXX)
trap 'rm -rf "$work"' EXIT
ncpu=$(nproc)
npatches=$(echo $patches | wc -w)

pb() { "$perfbot" "$1" --cache-dir "$cache" --db "$work/$2.db" --report-dir "$work/reports-$2" "${@:3}"; }

# run_pass NAME PARALLEL: each patch once; a row per patch in NAME.tsv:
# patch, exit status, wall s, boots, boot s, verdict, kernels built now.
run_pass() {
	local name=$1 par=$2 p start rc wall built row
	: > "$work/$name.tsv"
	for p in $patches; do
		echo "bench-throughput: $name: perfbot run --patch $p -c qemu.parallel=$par" >&2
		start=$(date +%s.%N)
		pb run "$name" --patch "$p" -c qemu.parallel="$par" > "$work/$name-$p.out" 2> "$work/$name-$p.err"
		rc=$?
		wall=$(echo "$(date +%s.%N) - $start" | bc)
		built=$(grep -c '(built now)' "$work/$name-$p.err")
		row=$(sqlite3 -separator $'\t' "$work/$name.db" \
			"SELECT count(r.id), round(coalesce(sum(r.wall_seconds), 0), 1),
			        coalesce(c.verdict, c.status) || '/' || coalesce(c.behaviour, '-')
			 FROM comparisons c LEFT JOIN runs r ON r.comparison_id=c.id
			 WHERE c.id=(SELECT max(id) FROM comparisons)")
		printf '%s\t%s\t%.1f\t%s\t%s\n' "$p" "$rc" "$wall" "$row" "$built" >> "$work/$name.tsv"
	done
}

# show_pass NAME TITLE: the rows and the totals.
show_pass() {
	local name=$1 title=$2
	printf '\n%s\n' "$title"
	printf '  %-6s %-4s %8s %6s %8s  %s\n' patch exit "wall s" boots "boot s" "verdict/behaviour"
	awk -F'\t' '{ printf "  %-6s %-4s %8.1f %6d %8.1f  %s%s\n", $1, $2, $3, $4, $5, $6, ($7 > 0 ? " (built " $7 " kernel(s))" : "") }' "$work/$name.tsv"
	awk -F'\t' -v n="$npatches" '{ w += $3; b += $4; s += $5 }
		END { printf "  %d patches in %.0f s: %.1f s a patch, %.1f patches an hour; %.1f boots and %.0f boot-seconds a verdict\n",
			n, w, w / n, 3600 * n / w, b / n, s / n }' "$work/$name.tsv"
}

total() { awk -F'\t' '{ w += $3 } END { printf "%.1f", w }' "$work/$1.tsv"; }

echo "bench-throughput: $ncpu CPUs, cache $cache, patches $patches" >&2
run_pass serial 1
if awk -F'\t' '$7 > 0 { found = 1 } END { exit !found }' "$work/serial.tsv"; then
	show_pass serial "cold: kernels built now (ccache as it was), one guest at a time"
	run_pass serial 1
fi
run_pass parallel 0
show_pass serial "warm, one guest at a time (qemu.parallel=1)"
show_pass parallel "warm, guests side by side (qemu.parallel=0: $(sqlite3 "$work/parallel.db" "SELECT max(guests_at_once) FROM comparisons") at once)"
s=$(total serial) p=$(total parallel)
printf '\nspeed-up of side by side over one at a time: %.2fx (%.0f s against %.0f s for %d patches)\n' \
	"$(echo "$s / $p" | bc -l)" "$s" "$p" "$npatches"
# A boot's seconds do not depend on how many run beside it under
# tcg-icount (bench --parallel): a machine with C cores gets through about
# C boots at once, if its memory holds C guests (1 GiB and a quarter each).
g=$(sqlite3 "$work/parallel.db" "SELECT max(guests_at_once) FROM comparisons")
awk -F'\t' -v n="$npatches" -v g="${g:-1}" '{ s += $5; w += $3 } END {
	other = (w - s / g) / n
	printf "16 cores, from these boots: %.0f boot-seconds a verdict, so about %.0f verdicts an hour with 16 guests at once from the boots alone; the rest of a patch (pairing, initramfs, statistics, report: about %.0f s here) comes on top, about %.0f patches an hour in all\n",
		s / n, 3600 * 16 / (s / n), other, 3600 / (other + s / n / 16) }' "$work/parallel.tsv"
# where a boot's seconds go: perfbot's own boot of thp-anon, booted again
# alone with its serial lines stamped as they arrive
printf '\nwhere a boot'"'"'s wall seconds go (tests/boot-cost.py: a thp-anon boot of the base kernel, again, one at a time):\n'
python3 "$top/tests/boot-cost.py" "$perfbot" "$cache" 3
if [ "${BENCH_NIGHTLY:-1}" != 0 ]; then
	echo "bench-throughput: perfbot nightly over the queue" >&2
	start=$(date +%s)
	pb nightly nightly > "$work/nightly.out" 2>&1
	rc=$?
	printf '\nperfbot nightly over the queue (its calibration included), side by side: %d s (exit %d); %s\n' \
		"$(( $(date +%s) - start ))" "$rc" \
		"$(sqlite3 "$work/nightly.db" "SELECT count(*) || ' comparisons, ' || (SELECT count(*) FROM runs) || ' boots' FROM comparisons")"
	# the next night: the same base, workloads and perfbot, so the
	# calibration still holds; --all measures every patch again
	before=$(sqlite3 "$work/nightly.db" "SELECT count(*) FROM runs")
	start=$(date +%s)
	pb nightly nightly --all > "$work/nightly2.out" 2>&1
	rc=$?
	printf 'perfbot nightly --all the next night (the calibration holds: %s): %d s (exit %d); %d boots\n' \
		"$(grep -c '^perfbot: calibration [0-9]* still holds' "$work/nightly2.out") of 1" \
		"$(( $(date +%s) - start ))" "$rc" \
		"$(( $(sqlite3 "$work/nightly.db" "SELECT count(*) FROM runs") - before ))"
fi
