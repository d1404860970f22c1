#!/bin/bash
# tests/golden.sh [--update]: what perfbot shows of stored comparisons,
# byte for byte. From the fixture database of tests/golden/ (fixture.sql,
# its paths under @DIR@: the checkout's queues and ports, and the files
# of its own in files/), it renders
# every face of every comparison:
#  - the HTML report (perfbot report: index, queue, patch, series and trend
#    pages, the configs it copies, the SVG plots by their sha256);
#  - the terminal answer of each comparison (perfbot report --text);
#  - the JSON of each (perfbot report --json);
#  - the mails: of each measured patch of the bundled queue, of the series
#    and of the bisect (perfbot mail);
#  - what each of those commands printed, and its exit status;
# and compares them with tests/golden/expected/. The rendering is a pure
# function of the database and the files its rows name (the checkout's
# queues and ports, laid beside it): any difference fails, with its diff. --update
# writes expected/ anew (for a change that means to change what perfbot
# shows; say so in its commit).
#
# Made the same wherever it runs: the temporary directory is written as
# @DIR@, the 8 hex digits of a queue path's sha256 in page names as
# @H-<queue's name>@, a mail's Date: header as @DATE@.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
top=$PWD
perfbot=$top/build/perfbot
golden=$top/tests/golden
update=false
[ "${1:-}" = --update ] && update=true

for tool in sqlite3 python3 gnuplot; do
	if ! command -v "$tool" > /dev/null; then
		echo "golden: $tool is missing (scripts/setup --tests installs it)"
		echo "golden: 0 passed, 1 failed"
		exit 1
	fi
done
tmp=$(mktemp -d /tmp/perfbot-golden.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/d
out=$tmp/out
mkdir -p "$dir" "$out"
# what the rows name: the queues, the test queues and the ports of the
# checkout, and the files of the fixture's own (a nightly's queue, a patch
# file's kept bytes, a kernel's .config in the cache)
mkdir -p "$dir/tests"
cp -a "$top/queue" "$top/kernels" "$dir/"
cp -a "$top/tests/data" "$dir/tests/"
cp -a "$golden/files/." "$dir/"
: > "$dir/config.ini"
sed "s|@DIR@|$dir|g" "$golden/fixture.sql" | sqlite3 "$dir/results.db" || {
	echo "golden: cannot load tests/golden/fixture.sql"
	echo "golden: 0 passed, 1 failed"
	exit 1
}

# perfbot on the fixture alone: an empty config.ini, the fixture's
# directories, a fixed report URL and mail headers
pb() {
	local cmd=$1
	shift
	"$perfbot" "$cmd" --config "$dir/config.ini" --db "$dir/results.db" --report-dir "$dir/reports" \
		--cache-dir "$dir/cache" -c report.url=https://perfbot.example.org/r \
		-c mail.from='perfbot <perfbot@example.org>' -c mail.sendmail= "$@"
}
# step NAME CMD...: CMD's stdout to out/NAME.out, its stderr and exit
# status to out/NAME.err
step() {
	local name=$1 rc
	shift
	"$@" > "$out/$name.out" 2> "$out/$name.err"
	rc=$?
	echo "exit status $rc" >> "$out/$name.err"
}

stable=$dir/queue/stable-5.13
step report pb report --queue "$stable"
step answers-text pb report --text
step answers-json pb report --json
for n in $(sqlite3 "$dir/results.db" "SELECT DISTINCT p.number FROM patches p JOIN comparisons c
		ON c.patch_id=p.id WHERE p.queue='$stable' AND c.kind='patch' ORDER BY p.number"); do
	step "mail-patch-$n" pb mail --patch "$n" --queue "$stable"
done
for q in $(sqlite3 "$dir/results.db" "SELECT DISTINCT queue FROM series ORDER BY queue"); do
	step "mail-series-${q##*/}" pb mail --series --queue "$q"
done
for b in $(sqlite3 "$dir/results.db" "SELECT b.id || ':' || s.queue FROM bisects b
		JOIN comparisons c ON c.id=b.series_comparison JOIN series s ON s.id=c.series_id ORDER BY b.id"); do
	step "mail-bisect-${b%%:*}" pb mail --bisect "${b%%:*}" --queue "${b#*:}"
done
cp -a "$dir/reports" "$out/reports"

# The same wherever it runs: paths, the hashes of queue paths, dates.
sqlite3 "$dir/results.db" "SELECT queue FROM patches UNION SELECT queue FROM series" > "$tmp/queues"
python3 - "$out" "$dir" "$tmp/queues" <<'EOF'
import hashlib, os, re, sys

out, d, queues = sys.argv[1], sys.argv[2], sys.argv[3]
subs = [(d, "@DIR@")]
for q in open(queues).read().split("\n"):
    if q:
        name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(q.rstrip("/")))[:40]
        subs.append((hashlib.sha256(q.encode()).hexdigest()[:8], "@H-%s@" % name))

def norm(s):
    for a, b in subs:
        s = s.replace(a, b)
    return s

for root, dirs, files in os.walk(out, topdown=False):
    for f in files:
        p = os.path.join(root, f)
        data = open(p, "rb").read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            text = norm(text)
            if f.endswith(".eml"):
                text = re.sub(r"(?m)^Date: .*$", "Date: @DATE@", text)
            data = text.encode("utf-8")
        os.unlink(p)
        open(os.path.join(root, norm(f)), "wb").write(data)
EOF

# gnuplot's SVGs by their sha256, a line each: the same bytes without
# keeping megabytes of them, less the line that names gnuplot's version
(cd "$out/reports" && for f in $(find plots -type f | sort); do
	printf '%s  %s\n' "$(grep -v '^<desc>Produced by GNUPLOT' "$f" | sha256sum | cut -c1-64)" "$f"
done > plots.sha256 && rm -rf plots)

if $update; then
	rm -rf "$golden/expected"
	cp -a "$out" "$golden/expected"
	echo "golden: wrote tests/golden/expected ($(find "$golden/expected" -type f | wc -l) files)"
	exit 0
fi
passed=0
failed=0
while read -r f; do
	if [ ! -f "$out/$f" ]; then
		echo "golden: $f: no longer written"
		failed=$((failed + 1))
	elif ! cmp -s "$golden/expected/$f" "$out/$f"; then
		echo "golden: $f differs:"
		diff -u "$golden/expected/$f" "$out/$f" | head -40
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done < <(cd "$golden/expected" && find . -type f | sed 's|^\./||' | sort)
while read -r f; do
	[ -f "$golden/expected/$f" ] || { echo "golden: $f: written, but not in expected/"; failed=$((failed + 1)); }
done < <(cd "$out" && find . -type f | sed 's|^\./||' | sort)
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
