#!/bin/bash
# tests/long-functions.sh [TOP]: no function of bot/ over 80 lines (from
# the line that names it to its closing brace). The ones still being
# taken apart are listed in tests/long-functions.allow: one not listed
# fails, and so does a listed one that is gone or now fits (strike it),
# so the list only shrinks. A function is a definition whose body opens
# with "{" alone at the start of a line and ends with "}" alone there, as
# every function of bot/ is written.
# tests/long-functions.sh --self-test: the check fails on a long one.
# Last line: "long-functions: N passed, N failed"; exit 1 if any failed.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --self-test ]; then
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/tests"
	cp -a "$here/bot" "$t/"
	cp "$here/tests/long-functions.allow" "$t/tests/"
	{
		echo 'int too_long(int x)'
		echo '{'
		for i in $(seq 90); do echo "	x += $i;"; done
		echo '	return x;'
		echo '}'
	} >> "$t/bot/stats/stats.c"
	if "$0" "$t" > "$t/out" 2>&1; then
		echo "long-functions: the check passed a 94-line function"
		echo "long-functions: 0 passed, 1 failed"
		exit 1
	elif ! grep -q '^long-functions: bot/stats/stats.c:[0-9]*: too_long is 94 lines' "$t/out"; then
		echo "long-functions: the check failed, but did not name too_long:"
		cat "$t/out"
		echo "long-functions: 0 passed, 1 failed"
		exit 1
	fi
	echo "long-functions: a function over 80 lines is caught"
	echo "long-functions: 1 passed, 0 failed"
	exit 0
fi
top=${1:-$here}
cd "$top" || exit 2
exec python3 - <<'EOF'
import glob, re, sys

LIMIT = 80
allowed = {}
for line in open("tests/long-functions.allow"):
    if line.strip() and not line.startswith("#"):
        f, name = line.split()[:2]
        allowed[(f, name)] = False
passed = failed = 0
for path in sorted(glob.glob("bot/*.c") + glob.glob("bot/*/*.c")):
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            j = i - 1
            while j > 0 and lines[j][:1] in ("\t", " "):
                j -= 1
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            name, n = (m.group(1) if m else "?"), k - j + 1
            if n <= LIMIT:
                passed += 1
            elif (path, name) in allowed:
                allowed[(path, name)] = True
                passed += 1
            else:
                failed += 1
                print("long-functions: %s:%d: %s is %d lines, over %d" % (path, j + 1, name, n, LIMIT))
            i = k
        i += 1
for (path, name), seen in sorted(allowed.items()):
    if not seen:
        failed += 1
        print("long-functions: tests/long-functions.allow lists %s in %s, which is gone or fits "
              "now: strike it" % (name, path))
print("long-functions: %d functions, %d over %d lines and known (tests/long-functions.allow)"
      % (passed + failed, sum(allowed.values()), LIMIT))
print("long-functions: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
