#!/bin/bash
# tests/check-docs.sh BINDIR: the man pages (doc/) and the bash completion
# (completion/perfbot) against the perfbot and perfbotd in BINDIR (build):
#  - mandoc -T lint -W warning says nothing of any page;
#  - every command of `perfbot -h` has its subsection in perfbot.1, with
#    every option its --help prints (the common ones in COMMON OPTIONS);
#    every option of `perfbotd --help` is in perfbotd.8;
#  - every key `perfbot config` prints, and every key and retired key of
#    bot/input/config.c, is in its [section] of perfbot.ini.5, with the
#    range keys[] gives and the default perfbot config prints for an empty
#    file;
#  - the completion, sourced in bash, completes a command, an option, the
#    bundled queue's patch numbers and the workloads.
# One line per problem; the last line counts them; exit 1 if any failed.
# CHECK_DOCS_DIR=DIR and CHECK_DOCS_COMPLETION=FILE check copies instead.
set -u
export LC_ALL=C

if [ $# -ne 1 ] || [ ! -x "$1/perfbot" ]; then
	echo "usage: $0 BINDIR   (the directory of perfbot and perfbotd, e.g. build)" >&2
	exit 2
fi
bindir=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
docdir=${CHECK_DOCS_DIR:-$top/doc}
completion=${CHECK_DOCS_COMPLETION:-$top/completion/perfbot}
config_c=$top/bot/input/config.c
perfbot=$bindir/perfbot
perfbotd=$bindir/perfbotd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() {
	echo "check-docs: $*"
	failed=$((failed + 1))
}
check() { # check WHAT CMD...: CMD succeeds, else "WHAT"
	local what=$1
	shift
	if "$@"; then ok; else fail "$what"; fi
}

if ! command -v mandoc >/dev/null; then
	echo "check-docs: mandoc is missing (apt-get install mandoc)"
	echo "check-docs: 0 checks passed, 1 failed"
	exit 1
fi

# A page as text, one paragraph line unbroken (wide), without overstrikes.
render() { mandoc -T ascii -O width=400 "$1" 2>/dev/null | sed 's/.\x08//g'; }

# The lines of a subsection (heading "   TITLE") or section ("TITLE") of a
# rendered page, up to the next heading of either.
part() { # part FILE TITLE
	awk -v t="$2" '
		found && (/^[^ ]/ || /^   [^ ]/) { exit }
		found { print }
		$0 == "   " t || $0 == t { found = 1 }
	' "$1"
}

# Is OPT (short SHORT, "-" for none; long LONG, "-" for none) an item of
# a list in FILE: "     -p, --patch N", "     --mm-only", "     -1, --once"?
has_item() { # has_item FILE SHORT LONG
	local head
	if [ "$2" != - ] && [ "$3" != - ]; then
		head="$2, $3"
	elif [ "$3" != - ]; then
		head=$3
	else
		head=$2
	fi
	grep -qE -- "^     $head( |,|\$)" "$1"
}

# --- the pages: lint, and they render ------------------------------------
for page in perfbot.1 perfbotd.8 perfbot.ini.5; do
	f=$docdir/$page
	if [ ! -f "$f" ]; then
		fail "$page: missing"
		continue
	fi
	out=$(mandoc -T lint -W warning "$f" 2>&1)
	check "$page: mandoc -T lint -W warning: $(echo "$out" | head -3 | tr '\n' ' ')" test -z "$out"
	render "$f" >"$tmp/$page.txt"
	check "$page: renders to nothing" grep -q '^NAME' "$tmp/$page.txt"
	if command -v man >/dev/null; then
		check "$page: man -l fails" sh -c "MANWIDTH=80 man -l '$f' 2>/dev/null | grep -q NAME"
	fi
done

# --- perfbot.1 against perfbot -h and perfbot CMD --help ------------------
commands=$("$perfbot" -h | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
check "perfbot -h lists no commands" test -n "$commands"
part "$tmp/perfbot.1.txt" "COMMON OPTIONS" >"$tmp/common"
check "perfbot.1: no COMMON OPTIONS subsection" test -s "$tmp/common"

# The options of a usage ("$@" --help), one "SHORT LONG" a line ("-" for
# none); group: 0 before the first heading (the command's own), 1 after.
options() {
	"$@" --help 2>/dev/null | awk '
		BEGIN { group = 0 }
		/^[^ ].*:$/ && NR > 1 { group = 1 }
		/^  -/ || /^      --/ {
			s = "-"; l = "-"
			if (match($0, /^  -[A-Za-z0-9]/)) s = substr($0, 3, 2)
			if (match($0, /--[a-z0-9][a-z0-9-]*/)) l = substr($0, RSTART, RLENGTH)
			print group, s, l
		}'
}

for cmd in $commands; do
	part "$tmp/perfbot.1.txt" "perfbot $cmd" >"$tmp/sec"
	if [ ! -s "$tmp/sec" ]; then
		fail "perfbot.1: no subsection 'perfbot $cmd' for the command perfbot -h lists"
		continue
	fi
	ok
	options "$perfbot" "$cmd" >"$tmp/opts"
	check "perfbot $cmd --help: no options read" test -s "$tmp/opts"
	while read -r group short long; do
		where=$tmp/sec what="the subsection perfbot $cmd"
		if [ "$group" = 1 ] || [ "$long" = --help ]; then
			where=$tmp/common what="COMMON OPTIONS"
		fi
		check "perfbot.1: perfbot $cmd's option $short $long is not an item of $what" \
			has_item "$where" "$short" "$long"
	done <"$tmp/opts"
done
# and no subsection for a command perfbot does not have
grep -E '^   perfbot [a-z-]+$' "$tmp/perfbot.1.txt" | sed 's/^   perfbot //' | while read -r c; do
	echo "$commands" | grep -qx "$c" || echo "$c"
done >"$tmp/extra"
check "perfbot.1: subsections for commands perfbot -h does not list: $(tr '\n' ' ' <"$tmp/extra")" \
	test ! -s "$tmp/extra"

# --- perfbotd.8 against perfbotd --help ----------------------------------
part "$tmp/perfbotd.8.txt" "OPTIONS" >"$tmp/dopts"
options "$perfbotd" >"$tmp/opts"
check "perfbotd --help: no options read" test -s "$tmp/opts"
while read -r group short long; do
	check "perfbotd.8: option $short $long is not an item of OPTIONS" has_item "$tmp/dopts" "$short" "$long"
done <"$tmp/opts"
for s in SIGTERM SIGHUP; do
	check "perfbotd.8: $s is not in SIGNALS" grep -q "$s" <(part "$tmp/perfbotd.8.txt" SIGNALS)
done

# --- perfbot.ini.5 against perfbot config and config.c's keys[] ----------
ini=$tmp/perfbot.ini.5.txt
# The paragraph of KEY in subsection [SECTION], as one line.
key_text() { # key_text SECTION KEY
	part "$ini" "[$1]" | awk -v k="$2" '
		/^     [^ ]/ { on = (index($0, "     " k " = ") == 1) }
		on { sub(/^ +/, ""); printf "%s ", $0 }'
}
key_documented() { test -n "$(key_text "$1" "$2")"; }

: >"$tmp/empty.ini"
(cd "$top" && "$perfbot" config) >"$tmp/config" 2>"$tmp/config.err"
check "perfbot config failed: $(head -1 "$tmp/config.err")" test -s "$tmp/config"
"$perfbot" config -C "$tmp/empty.ini" >"$tmp/defaults" 2>/dev/null
check "perfbot config -C (an empty file) failed" test -s "$tmp/defaults"
sed -n 's/^\([a-z_]*\)\.\([a-z_]*\) = .*/\1 \2/p' "$tmp/config" | grep -v '^workload ' >"$tmp/keys"
check "perfbot config printed no keys" test -s "$tmp/keys"
while read -r section key; do
	check "perfbot.ini.5: $section.$key (perfbot config) is not under [$section]" key_documented "$section" "$key"
done <"$tmp/keys"

if [ -f "$config_c" ]; then
	# { "qemu", "vcpus", K_INT, offsetof(...), 1, 64 },
	sed -n 's/^[[:space:]]*{ "\([a-z_]*\)", "\([a-z_]*\)", \(K_[A-Z]*\), offsetof([^)]*), \([0-9A-Z_]*\), \([0-9A-Z_]*\) },.*/\1 \2 \3 \4 \5/p' \
		"$config_c" >"$tmp/table"
	check "bot/input/config.c: no keys[] read" test -s "$tmp/table"
	while read -r section key type min max; do
		check "perfbot.ini.5: $section.$key (config.c keys[]) is not under [$section]" \
			key_documented "$section" "$key"
		grep -qx "$section $key" "$tmp/keys" || fail "perfbot config does not print $section.$key of keys[]"
		[ "$max" = INT_MAX ] && max=2147483647
		text=$(key_text "$section" "$key")
		case $type in
		K_INT | K_REAL)
			if [ "$section.$key" != stats.beta ]; then
				check "perfbot.ini.5: $section.$key: its range '$min to $max' is not given" \
					grep -qF "Range $min to $max" <<<"$text"
			fi
			def=$(sed -n "s/^$section\\.$key = //p" "$tmp/defaults")
			check "perfbot.ini.5: $section.$key: its default '$def' is not given" \
				grep -qiF "default $def" <<<"$text"
			;;
		K_ACCEL)
			def=$(sed -n "s/^$section\\.$key = //p" "$tmp/defaults")
			check "perfbot.ini.5: $section.$key: its default '$def' is not given" \
				grep -qiF "default $def" <<<"$text"
			;;
		esac
	done <"$tmp/table"
	# { "stats", "noise_factor", "why" },  in retired[]
	sed -n '/^} retired\[\] = {/,/^};/s/^[[:space:]]*{ "\([a-z_]*\)", "\([a-z_]*\)", ".*/\1.\2/p' "$config_c" >"$tmp/retired"
	while read -r k; do
		check "perfbot.ini.5: the retired key $k is not under Retired keys" \
			grep -qF "$k" <(part "$ini" "Retired keys")
	done <"$tmp/retired"
else
	echo "check-docs: (no $config_c: keys[] not checked)"
fi
check "perfbot.ini.5: no [workload NAME] subsection" grep -q '^   \[workload NAME\]$' "$ini"

# --- the completion ------------------------------------------------------
if [ ! -f "$completion" ]; then
	fail "completion: $completion is missing"
else
	check "completion: bash -n $completion fails" bash -n "$completion"
	# complete WORD...: the candidates, one a line, for the last word
	cat >"$tmp/complete.sh" <<'EOS'
[ -f /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
. "$COMPLETION" || exit 1
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
f=$(complete -p "${1##*/}" 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$f" ] || { echo "NO-FUNCTION"; exit 1; }
"$f" "${1##*/}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
EOS
	complete() { (cd "$top" && PATH="$bindir:$PATH" COMPLETION="$completion" bash "$tmp/complete.sh" "$@" 2>/dev/null); }
	expect() { # expect WANT WORD...: WANT is among the candidates
		local want=$1
		shift
		complete "$@" >"$tmp/got"
		check "completion: '$* <TAB>' does not offer $want (offers: $(head -20 "$tmp/got" | tr '\n' ' '))" \
			grep -qxF -- "$want" "$tmp/got"
	}
	expect run perfbot ru
	for cmd in $commands; do
		expect "$cmd" perfbot ""
	done
	expect --patch perfbot run --pat
	expect --series perfbot run --ser
	for cmd in list pair jobs; do
		expect --json perfbot $cmd --js
	done
	expect --foreground perfbotd --fo
	expect --poll perfbotd --p
	queue=$(sed -n 's/^queue\.dir = //p' "$tmp/config")
	case $queue in
	*/queue/stable-5.13) expect 771 perfbot run --patch "" ;;
	*)
		complete perfbot run --patch "" >"$tmp/got"
		check "completion: 'perfbot run --patch <TAB>' offers no patch numbers of $queue" \
			grep -qxE '[0-9]+' "$tmp/got"
		;;
	esac
	expect 771 perfbot run -C "$top/config.ini" --patch 77
	expect thp-anon perfbot run -w ""
	expect thp-anon perfbot calibrate --workload thp
	expect tcg-icount perfbot run --accel tcg-
	expect run.boots= perfbot run -c run.bo
fi

echo "check-docs: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
