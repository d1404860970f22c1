#!/bin/bash
# The Debian package: dpkg-buildpackage -us -uc -b on a copy of the work
# tree's files (tracked and new, not ignored: a clean clone's, in CI), then
# lintian over the .deb, which must report no error and no warning. Leaves
# the .deb in build/deb/ and prints lintian's summary and the file count.
# Needs dpkg-dev, debhelper and lintian (scripts/setup --tests), not root.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
out=$top/build/deb
work=$(mktemp -d /var/tmp/perfbot-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
src=$work/perfbot

say() { echo "deb: $*"; }
die() { echo "deb: $*" >&2; exit 1; }

for p in dpkg-buildpackage dh lintian; do
	command -v "$p" > /dev/null || die "$p is missing (scripts/setup --tests installs it)"
done
mkdir -p "$src" "$out"
git ls-files -z --cached --others --exclude-standard |
	tar --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -xf - -C "$src"
# the commit the package is built from, for its version (debian/rules)
cp -a .git "$src/.git" 2> /dev/null || true

start=$(date +%s)
if ! (cd "$src" && dpkg-buildpackage -us -uc -b -j"$(nproc)") > "$work/build.log" 2>&1; then
	tail -n 25 "$work/build.log"
	die "dpkg-buildpackage failed (the log's last lines above)"
fi
deb=$(ls "$work"/perfbot_*_amd64.deb)
say "built $(basename "$deb") in $(( $(date +%s) - start )) s"

set +e
lintian --fail-on error,warning --display-info "$deb" > "$work/lintian.log" 2>&1
lrc=$?
set -e
sed 's/^/    /' "$work/lintian.log"
summary=$(grep -oE '^[EWIPXO]: ' "$work/lintian.log" | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }')
say "lintian: ${summary:-no tags} (exit $lrc)"

rm -f "$out"/perfbot_*.deb
cp "$deb" "$out/"
dpkg -c "$deb" > "$out/contents.txt"
say "$(grep -c . "$out/contents.txt") entries (build/deb/contents.txt); the .deb is in build/deb/"
[ "$lrc" -eq 0 ] || die "lintian reports errors or warnings"
