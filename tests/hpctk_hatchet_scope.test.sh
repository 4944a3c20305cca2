#!/usr/bin/env bash
# hpctkdb.metrics.reader-hazard-hatchet-scope: hatchet 1.4.0 shows the value
# of a metric's other scope (point, lex_aware) in its exclusive column where
# that scope is the last cct.db lists at a (context, profile) cell and its
# value differs from the exclusive scope's. The generator's lex_aware values
# are their own, so its release databases carry the note: on seed 2 the cells
# the reader matrix found hatchet misreading (391), the first one named with
# both scopes' ids and values; the same report in one unit of work and in
# many, at -j1 and -j2; none on a real sample (hpcprof writes the other
# scopes' values equal to the function scope's).
source "$(dirname "$0")/lib.sh"
R=hpctkdb.metrics.reader-hazard-hatchet-scope

check "generate release seed 2" "$GEN" --what=hpctoolkit-db --edition=release --seed=2 -o "$TMP/db" >/dev/null
"$HPCVET" --strict --format=json "$TMP/db" >"$TMP/db.json"
check "seed 2: --strict passes (a note)" test $? -eq 0
note() { jq -r --arg r "$R" '[.inputs[0].diagnostics[] | select(.rule == $r)]' "$1"; }
check "seed 2: one note" test "$(note "$TMP/db.json" | jq length)" = 1
msg=$(note "$TMP/db.json" | jq -r '.[0].message')
check "seed 2: the 391 cells hatchet misreads" grep -q 'at 391 (context, profile) cells' <<<"$msg"
check "seed 2: the first cell, with both scopes" grep -qF "metric 'cpu-time': 601.19849999999997 of propMetricId 2 (lex_aware, the last cct.db lists there), not 740.05949999999996 of propMetricId 1 (function)" <<<"$msg"
check "seed 2: at the value hatchet shows in cct.db" \
	test "$(note "$TMP/db.json" | jq -r '.[0] | "\(.offset) \(.length) \(.struct_path)"')" = "4272 12 cct.db/ctx[2]/valueBlock/value"
# The same in many units of work, in one process and in two.
for j in 1 2; do
	HPCVET_UNIT_BYTES=64 "$HPCVET" -j$j --format=json "$TMP/db" >"$TMP/units$j.json"
	check "seed 2: the same note in many units (-j$j)" diff <(note "$TMP/db.json") <(note "$TMP/units$j.json")
done

# hpcprof writes the other scopes' values equal to the function scope's
# wherever both have one: the real samples read right, and get no note.
for d in "$SHARED"/real-samples/hpctoolkit/*.d; do
	[ -d "$d" ] || continue
	"$HPCVET" --format=json "$d" >"$TMP/real.json"
	check "real sample $(basename "$d"): no such note" test "$(note "$TMP/real.json" | jq length)" = 0
done
done_testing
