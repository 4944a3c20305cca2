#!/usr/bin/env bash
# The program output shown in README.md, CONTRIBUTING.md and the man page
# comes from real runs (tests/examples.sh): every marked example is run again
# and must print exactly its block, so a change in output fails here until
# the docs follow ('make docs' rewrites the blocks).
source "$(dirname "$0")/lib.sh"
files="README.md CONTRIBUTING.md docs/hpcvet.1"
for f in $files; do
	check "$f has examples from real runs" grep -qE '^(<!-- example: |\.\\" example: )' "$ROOT/$f"
done
check "every example is current (run 'make docs')" bash "$ROOT/tests/examples.sh" check "$BUILD" $files
# Every option `hpcvet --help` lists is in a row of README's option table;
# the subcommands' options of its usage lines are in README too.
"$HPCVET" --help >"$TMP/help"
grep -oE -- '^  (-[a-z]( [A-Z]+)?, )?--[a-z-]+' "$TMP/help" | grep -oE -- '(^| )-[a-z-]+' | tr -d ' ' | sort -u >"$TMP/opts"
check "--help lists options" test "$(wc -l <"$TMP/opts")" -ge 15
while read -r opt; do
	check "README's option table has $opt" grep -qE -- "^\|.*[^a-z-]$opt([^a-z-]|\$)" "$ROOT/README.md"
done <"$TMP/opts"
for opt in $(grep -E '^(usage: |       )hpcvet ' "$TMP/help" | grep -oE -- '\[--[a-z-]+' | tr -d '[' | sort -u); do
	check "README mentions $opt" grep -qE -- "[^a-z-]$opt([^a-z-]|\$)" "$ROOT/README.md"
done
# The check can fail: one changed line in an example block of a copy of the
# README must be reported.
awk '/^<!-- example: /{e=1} e && /^```$/ && ++n==1 {print; getline; print $0 "x"; e=0; next} {print}' \
	"$ROOT/README.md" >"$TMP/README.md"
check "the copy differs from README.md" bash -c '! cmp -s "$0" "$1"' "$ROOT/README.md" "$TMP/README.md"
check "a changed example fails the check" bash -c '! bash "$0" check "$1" "$2" >/dev/null 2>&1' \
	"$ROOT/tests/examples.sh" "$BUILD" "$TMP/README.md"
done_testing
