#!/bin/bash
# tests/names.sh [TOP]: the model's names are spelled once, in its name
# tables (bot/model/names.c, bot/model/verdict.c). Anywhere else in bot/,
# outside comments, a C string literal that is one of those names is an
# enum spelled again, and fails, one line each:
#  - a name that is no ordinary word ("tcg-icount", "boot-panic", "no
#    change", "build-failed", ...), wherever it stands;
#  - a name that is also an ordinary word ("patch", "series", "with",
#    "same", "done", ...: GENERIC below), where it is compared: on a line
#    that calls strcmp, strncmp, strcasecmp, streq, starts_with or
#    ends_with, whatever else it compares. As prose, a command or option
#    name, a table name or a program's name, such a word is not the enum.
#  - a name quoted in SQL inside a literal of bot/db/, where all SQL is
#    ("c.kind='patch'"): a query spells it SQL_NAME(NAME_PATCH), from
#    names.h, as the table does.
# Not counted: a JSON member's name (the key argument of json_*()), and a
# literal on a line that says in a "/* names: ..." comment why it is
# another vocabulary's word (the guest's protocol). What it does not see:
# an ordinary word compared on another line or by a function not named
# above. Last line: "names: N passed,
# N failed" (a literal each); exit 1 if any failed. "-", the name of no
# noise source, is every table's "none" and is not counted.
# tests/names.sh --self-test: the check fails on a tree that spells one.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --self-test ]; then
	# the check must fail on a name spelled again: a copy of the tree
	# whose stats compare an accelerator by its name
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	cp -a "$here/bot" "$t/"
	printf '%s\n' 'static int icount(const char *a) { return !strcmp(a, "tcg-icount"); }' \
		'/* "tcg-icount" in a comment is no spelling */' >> "$t/bot/stats/stats.c"
	printf '%s\n' 'static const char *q = "SELECT id FROM runs WHERE outcome='"'ok'"'";' >> "$t/bot/db/db.c"
	if "$0" "$t" > "$t/out" 2>&1; then
		echo "names: the check passed a tree whose bot/stats/stats.c compares \"tcg-icount\""
		echo "names: 0 passed, 1 failed"
		exit 1
	elif [ "$(grep -c '^names: bot/' "$t/out")" != 2 ] ||
		! grep -q '^names: bot/stats/stats.c:[0-9]*: "tcg-icount"' "$t/out" ||
		! grep -q "^names: bot/db/db.c:[0-9]*: 'ok' in SQL" "$t/out"; then
		echo "names: the check failed, but not once each on stats.c and db.c's SQL:"
		cat "$t/out"
		echo "names: 0 passed, 1 failed"
		exit 1
	fi
	echo "names: a name spelled again, in C or in SQL, is caught; one in a comment is not"
	echo "names: 1 passed, 0 failed"
	exit 0
fi
top=${1:-$here}
cd "$top" || exit 2
exec python3 - <<'EOF'
import glob, re, sys

GENERIC = {"patch", "series", "bisect", "calibration", "with", "without", "same", "failed",
           "behaviour", "time", "done", "forward", "reverse", "port", "search", "confirm",
           "ok", "local", "slurm", "running", "queued", "higher", "lower", "built",
           "unknown"}
COMPARE = re.compile(r"\b(strcmp|strncmp|strcasecmp|streq|starts_with|ends_with)\s*\(")
JSON_KEY = re.compile(r"\b(json_\w+|kernel_json)\(\s*&?\w+\s*,\s*$")
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')

tables = open("bot/model/names.c").read() + open("bot/model/verdict.c").read()
names = set(re.findall(r'\] = "([^"]+)"', tables))
names |= set(re.findall(r'^#define NAME_\w+ "([^"]+)"', open("bot/model/names.h").read(), re.M))
names.discard("-")  # a table's "none" (no noise source), as every table prints none
if len(names) < 40:
    print("names: only %d names found in bot/model/: the tables' form changed?" % len(names))
    print("names: 0 passed, 1 failed")
    sys.exit(1)

def uncomment(text):
    """The text with comments blanked (lines kept), string literals intact."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)

passed = failed = 0
for path in sorted(glob.glob("bot/*.[ch]") + glob.glob("bot/*/*.[ch]")):
    if path.startswith("bot/model/"):
        continue
    raw = open(path).read().split("\n")
    for no, line in enumerate(uncomment(open(path).read()).split("\n"), 1):
        for m in LITERAL.finditer(line):
            # a name quoted for SQL inside a literal: SQL_NAME(NAME_...) spells it
            for q in re.finditer(r"'([^'%]+)'", m.group(1) if path.startswith("bot/db/") else ""):
                if q.group(1) in names:
                    failed += 1
                    print("names: %s:%d: '%s' in SQL is a name of bot/model/: SQL_NAME(NAME_...)" %
                          (path, no, q.group(1)))
            word = m.group(1)
            if word not in names:
                continue
            if JSON_KEY.search(line[:m.start()]) or "/* names: " in raw[no - 1]:
                passed += 1
                continue
            if word in GENERIC and not COMPARE.search(line):
                passed += 1
                continue
            failed += 1
            print('names: %s:%d: "%s" is a name of bot/model/: use its enum and %s' %
                  (path, no, word, "its _name()" if word not in GENERIC else "compare the enum"))
print("names: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
