#!/bin/bash
# The README's two set-up commands on a truly fresh Debian 12: a minimal
# root made by debootstrap (--variant=minbase, from this machine's own apt
# mirror), a clean clone of this repository's HEAD copied in, and each
# command run in it with chroot as root, the way a new user would. Prints
# what each command installed and how long it took. Slow (two cold kernel
# builds, the whole e2e): `make fresh-test`, not part of `make test`.
# Then, in a fresh root of its own, the Debian package: built here
# (tests/deb.sh), installed with apt-get (its Depends from the mirror),
# and `perfbot run --patch 771` run as its perfbot user from the installed
# files.
#
#   PERFBOT_FRESH_ROOT  where the root goes (default /var/tmp/perfbot-fresh;
#                       it needs about 20 GB)
#   PERFBOT_FRESH_KEEP  1: keep the root afterwards, to look inside
#   PERFBOT_FRESH_ONLY  a comma-separated list of deb, run, test: only the
#                       package's run, or those of the README's two commands
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
root=${PERFBOT_FRESH_ROOT:-/var/tmp/perfbot-fresh}
only=${PERFBOT_FRESH_ONLY:-}
logs=$root.logs

say() { echo "fresh-machine: $*"; }
die() { echo "fresh-machine: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, mount, chroot)"
git diff --quiet HEAD 2> /dev/null || say "note: the work tree has uncommitted changes; this tests HEAD ($(git rev-parse --short HEAD))"

# The README's two commands: the indented lines of its Set-up section.
mapfile -t readme_cmds < <(awk '/^## Set-up/ { on = 1; next } /^## / { on = 0 }
	on && /^    [^ ]/ { sub(/^    /, ""); print }' README.md)
[ "${#readme_cmds[@]}" -eq 2 ] || die "README.md's Set-up section has ${#readme_cmds[@]} commands, not 2"
names=(run test)

if ! command -v debootstrap > /dev/null; then
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap > /dev/null ||
		{ apt-get update -q > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap > /dev/null; } ||
		die "cannot install debootstrap"
fi
# This machine's configured mirror for bookworm, as apt itself resolves it.
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2> /dev/null |
	awk '$2 == "bookworm" { print $1; exit }')
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian/
say "mirror $mirror"

unmount_all() {
	for m in dev/pts dev sys proc; do
		mountpoint -q "$root/$m" 2> /dev/null && umount -l "$root/$m"
	done
	return 0
}
# what the commands left running inside (QEMU, make) ends with them
kill_inside() {
	for pid in $(ls /proc | grep -E '^[0-9]+$'); do
		[ "$(readlink "/proc/$pid/root" 2> /dev/null)" = "$root" ] && kill -KILL "$pid" 2> /dev/null
	done
	return 0
}
cleanup() {
	kill_inside
	unmount_all
	if [ "${PERFBOT_FRESH_KEEP:-0}" != 1 ]; then rm -rf --one-file-system "$root"; fi
}
cleanup_now() {
	kill_inside
	unmount_all
	rm -rf --one-file-system "$root"
}
# A new root: debootstrap, the machine's apt configuration, the mounts, a
# clean clone of HEAD. Any root before it is dropped first.
t_boot=0
new_root() {
	local t0
	cleanup_now
	mkdir -p "$root" "$logs"
	t0=$(date +%s)
	say "debootstrap --variant=minbase bookworm $root (log: $logs/debootstrap-$1.log)"
	debootstrap --variant=minbase bookworm "$root" "$mirror" > "$logs/debootstrap-$1.log" 2>&1 ||
		die "debootstrap failed: $(tail -n 1 "$logs/debootstrap-$1.log")"
	t_boot=$(( t_boot + $(date +%s) - t0 ))
	# the machine's own apt sources and its Acquire settings (a snapshot
	# mirror's Release may be past Valid-Until): configuration, not packages
	rm -f "$root/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2> /dev/null || true
	[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/"
	apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|http::Proxy|https::Proxy) ' \
		> "$root/etc/apt/apt.conf.d/99fresh-machine" || true
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2> /dev/null || true
	# what Debian's installer (and every cloud image) writes and debootstrap
	# does not: without a localhost, chromedriver cannot reach its browser
	[ -f "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"

	mount --bind /proc "$root/proc"
	mount --bind /sys "$root/sys"
	mount --bind /dev "$root/dev"
	mount --bind /dev/pts "$root/dev/pts"

	git clone -q --no-hardlinks "$top" "$root/root/perfbot"
	say "a clean clone of $(git rev-parse --short HEAD) in /root/perfbot; $(chroot "$root" dpkg-query -W -f '.\n' | wc -l) packages before"
}
trap cleanup EXIT

in_root() { chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }
packages() { chroot "$root" dpkg-query -W -f '${Package}\n' | sort; }

summary=()
status=0
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
if wanted run || wanted test; then
	new_root readme
fi

for i in 0 1; do
	wanted "${names[$i]}" || continue
	cmd=${readme_cmds[$i]}
	log=$logs/${names[$i]}.log
	packages > "$logs/before-${names[$i]}.txt"
	say "README command $((i + 1)): $cmd (log: $log)"
	start=$(date +%s)
	set +e
	in_root "cd /root/perfbot && $cmd" < /dev/null > "$log" 2>&1
	rc=$?
	set -e
	took=$(( $(date +%s) - start ))
	packages > "$logs/after-${names[$i]}.txt"
	new=$(comm -13 "$logs/before-${names[$i]}.txt" "$logs/after-${names[$i]}.txt")
	nnew=$(printf '%s' "$new" | grep -c . || true)
	# the test runners' closing lines: "unit: N passed, N failed", ...
	closing=$(grep -E '^[a-z0-9-]+: [0-9]+ (cases, [0-9]+ )?passed, [0-9]+ failed' "$log" | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
	line="${names[$i]}: '$cmd' exit $rc in $((took / 60)) min $((took % 60)) s; installed $nnew packages"
	[ -n "$closing" ] && line="$line; $closing"
	summary+=("$line")
	say "$line"
	say "installed: $(echo $new)"
	if [ "$rc" -ne 0 ]; then
		status=1
		say "it failed; the log's last lines:"
		tail -n 15 "$log" | sed 's/^/    /'
	fi
done

# The package, as a user of it would: apt-get install ./perfbot_*.deb, then
# a run as its perfbot user, in its home, with nothing but the installed
# files; in a root of its own, so that neither its Depends nor the README
# commands' root runs change what the other finds.
if wanted deb; then
	new_root deb
	log=$logs/deb.log
	say "the package: tests/deb.sh, apt-get install, perfbot run --patch 771 as perfbot (log: $log)"
	start=$(date +%s)
	packages > "$logs/before-deb.txt"
	set +e
	{
		tests/deb.sh && cp build/deb/perfbot_*_amd64.deb "$root/tmp/" &&
			in_root "apt-get install -y -q --no-install-recommends /tmp/perfbot_*_amd64.deb" &&
			in_root "id perfbot && [ \"\$(stat -c %U /var/lib/perfbot /var/cache/perfbot | sort -u)\" = perfbot ]" &&
			in_root "cd /var/lib/perfbot && { runuser -u perfbot -- perfbot run --patch 771; rc=\$?; [ \$rc -eq 0 ] || [ \$rc -eq 5 ] || [ \$rc -eq 6 ]; }"
	} < /dev/null > "$log" 2>&1
	rc=$?
	set -e
	took=$(( $(date +%s) - start ))
	packages > "$logs/after-deb.txt"
	nnew=$(comm -13 "$logs/before-deb.txt" "$logs/after-deb.txt" | grep -c . || true)
	verdict=$(grep -m1 -E '^771: ' "$log" || true)
	line="deb: apt-get install ./perfbot.deb, perfbot run --patch 771 as perfbot: exit $rc in $((took / 60)) min $((took % 60)) s; installed $nnew packages; ${verdict:-no headline}"
	summary+=("$line")
	say "$line"
	if [ "$rc" -ne 0 ]; then
		status=1
		say "it failed; the log's last lines:"
		tail -n 15 "$log" | sed 's/^/    /'
	fi
fi

echo "fresh-machine: summary (debootstrap $((t_boot / 60)) min $((t_boot % 60)) s, logs in $logs)"
for line in "${summary[@]}"; do echo "  $line"; done
exit $status
