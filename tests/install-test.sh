#!/bin/bash
# make install into a scratch DESTDIR, then the installed perfbot as an
# ordinary user (nobody, with a home of its own) who cannot enter the
# checkout (its mode is narrowed for the test where it would): it must
# find its own files from its path alone and keep its state and cache in
# that user's XDG directories. Then make uninstall leaves only the config.
# Needs root (runuser), like the e2e. No mount namespace: a chroot (make
# fresh-test) cannot make one. Prints "install-test: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
# /var/tmp: pair extracts the kernel tarball into the user's cache (1.4 GB)
work=$(mktemp -d /var/tmp/perfbot-install.XXXXXX)
chmod 755 "$work"
top_mode=$(stat -c %a "$top")
trap 'chmod "$top_mode" "$top"; rm -rf "$work"' EXIT
dest=$work/dest
prefix=/usr/local
passed=0 failed=0

check() {
	local what=$1
	shift
	if "$@" > "$work/out" 2>&1; then
		passed=$((passed + 1))
		echo "ok - $what"
	else
		failed=$((failed + 1))
		echo "FAIL - $what"
		sed 's/^/    /' "$work/out" | tail -n 8
	fi
}

[ "$(id -u)" -eq 0 ] || { echo "install-test: needs root (runuser)"; exit 1; }
if ! make -s install DESTDIR="$dest" PREFIX=$prefix > "$work/install.log" 2>&1; then
	echo "install-test: make install failed:"
	tail -n 15 "$work/install.log"
	exit 1
fi
chmod -R a+rX "$work"
home=$work/home
mkdir -p "$home"
chown nobody "$home"

# One command as nobody, from the scratch directory, with nothing but the
# installed files; the checkout out of its reach (others lose x on it when
# they had it: /root/perfbot in CI is out of reach already).
as_user() {
	(cd "$work" && runuser -u nobody -- env -i HOME="$HOME_DIR" PATH=/usr/bin:/bin \
		LANG=C.UTF-8 PERFBOT_CONFIG="$CONFIG" "$@")
}
runuser -u nobody -- test -x "$top" 2> /dev/null && chmod o-rwx "$top"
export HOME_DIR=$home CONFIG=$dest/etc/perfbot/config.ini
perfbot=$dest$prefix/bin/perfbot

hidden() { ! as_user /bin/ls "$top/config.ini" && ! as_user test -x "$top"; }
check "the checkout is out of the installed perfbot's reach" hidden
check "the installed files: perfbot, perfbotd, guest programs, man pages, units" \
	test -x "$perfbot" -a -x "$dest$prefix/sbin/perfbotd" \
	-a -x "$dest$prefix/lib/perfbot/workloads/thp-anon" \
	-a -f "$dest$prefix/share/perfbot/workloads/thp-anon.ini" \
	-a -x "$dest$prefix/share/perfbot/workloads/init" \
	-a -f "$dest$prefix/share/perfbot/kernels/mm.config" \
	-a -f "$dest$prefix/share/man/man1/perfbot.1" -a -f "$dest$prefix/share/man/man5/perfbot.ini.5" \
	-a -f "$dest$prefix/share/man/man8/perfbotd.8" -a -f "$dest/etc/perfbot/config.ini" \
	-a -f "$dest$prefix/share/bash-completion/completions/perfbot" \
	-a -f "$dest$prefix/lib/systemd/system/perfbotd.service" \
	-a -f "$dest$prefix/lib/systemd/system/perfbot-nightly.timer"
check "the installed unit runs perfbotd as the perfbot user from PREFIX" \
	grep -qx "ExecStart=$prefix/sbin/perfbotd --foreground" "$dest$prefix/lib/systemd/system/perfbotd.service"
unit_user() { grep -qx "User=perfbot" "$1" && grep -qx "StateDirectory=perfbot" "$1"; }
check "the installed unit runs as the perfbot user, systemd making its state directory" \
	unit_user "$dest$prefix/lib/systemd/system/perfbotd.service"

# The paths in force: perfbot's files from the install, state and cache the user's.
config_is() { as_user "$perfbot" config | grep -qxF "$1 = $2" || { as_user "$perfbot" config; return 1; }; }
check "config: the queue is the installed example" config_is queue.dir "$dest$prefix/share/perfbot/queue/stable-5.13"
check "config: the workloads are the installed ones" config_is run.workloads "$dest$prefix/share/perfbot/workloads"
check "config: the fragment is the installed one" config_is kernel.fragment "$dest$prefix/share/perfbot/kernels/mm.config"
check "config: results.db in the user's ~/.local/state/perfbot" config_is database.path "$home/.local/state/perfbot/results.db"
check "config: reports in the user's ~/.local/state/perfbot" config_is report.dir "$home/.local/state/perfbot/reports"
check "config: the cache in the user's ~/.cache/perfbot" config_is cache.dir "$home/.cache/perfbot"

list_ok() { as_user "$perfbot" list > "$work/list" && [ "$(grep -c '^[0-9]\{3\}/800' "$work/list")" -eq 11 ] && grep -q '^771/800 *mm' "$work/list"; }
check "list: the example queue's 11 patches, 771 an mm one" list_ok
pair_ok() { as_user "$perfbot" pair --patch 771 > "$work/pair" && cat "$work/pair" && grep -q "^771 .*$dest$prefix/share/perfbot/kernels/ports/6.1/" "$work/pair"; }
check "pair --patch 771: a dry run, with the installed port, the tree in the user's cache" pair_ok
report_ok() {
	as_user "$perfbot" report > "$work/report" &&
		[ -s "$home/.local/state/perfbot/reports/index.html" ] &&
		[ -s "$home/.local/state/perfbot/results.db" ] &&
		[ "$(stat -c %U "$home/.local/state/perfbot/results.db")" = nobody ]
}
# first: perfbotd with a fresh home makes the state directory it locks in
perfbotd_once() {
	as_user "$dest$prefix/sbin/perfbotd" --foreground --once &&
		[ "$(stat -c %U "$home/.local/state/perfbot/results.db.perfbotd.lock")" = nobody ]
}
check "perfbotd --once as the user: no job, exit 0, its lock in the user's state directory" perfbotd_once
jobs_ok() { as_user "$perfbot" submit --patch 771 > /dev/null && as_user "$perfbot" jobs | grep -q 'queued'; }
check "submit and jobs as the user" jobs_ok
check "report: index.html and results.db in the user's state directory, owned by the user" report_ok
man_ok() { MANWIDTH=80 man -l "$dest$prefix/share/man/man5/perfbot.ini.5" 2> /dev/null | grep -q 'icount_gate_pct'; }
check "man -l perfbot.ini(5) renders" man_ok

# uninstall: only the config is left (it may hold the user's settings)
make -s uninstall DESTDIR="$dest" PREFIX=$prefix > "$work/uninstall.log" 2>&1
left() { (cd "$dest" && find . ! -type d) | grep -vx './etc/perfbot/config.ini' && return 1; return 0; }
check "make uninstall leaves only /etc/perfbot/config.ini" left
# what perfbot wrote is not perfbot's to remove: state and cache stay
check "make uninstall leaves the user's results" test -s "$home/.local/state/perfbot/results.db"

echo "install-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
