#!/usr/bin/env bash
# Damaged input gets a bounded report: a stream.obs with a zero-filled tail,
# or a zero-filled region between events, yields exactly one
# ovni.obs.damaged-region diagnostic whose offset and length cover the
# region, the same at any chunk size and -j; a GitHub report holds no
# ::notice annotation unless --github-notes asks for notes; a note repeated
# on every rank file is one diagnostic.
source "$(dirname "$0")/lib.sh"

"$GEN" --what=ovni-stream --trace-len=4000 -o "$TMP/s.obs" >/dev/null 2>&1
size=$(stat -c %s "$TMP/s.obs")
# a zero tail of 1 MiB
cp "$TMP/s.obs" "$TMP/tail.obs"
head -c 1048576 /dev/zero >>"$TMP/tail.obs"
"$HPCVET" -j1 --format=json "$TMP/tail.obs" >"$TMP/tail.json"
check "zero tail: exactly one diagnostic" test "$(grep -c '"rule":' "$TMP/tail.json")" -eq 1
check "zero tail: it is the damaged region" grep -q '"rule":[[:space:]]*"ovni.obs.damaged-region"' "$TMP/tail.json"
check "zero tail: it starts where the zeros start" grep -q "\"offset\":[[:space:]]*$size," "$TMP/tail.json"
check "zero tail: it covers the zeros" grep -q '"length":[[:space:]]*1048576,' "$TMP/tail.json"
check "zero tail: one error in all" grep -q '"errors":[[:space:]]*1,' "$TMP/tail.json"
"$HPCVET" -j1 "$TMP/tail.obs" >"$TMP/ref.txt"
HPCVET_UNIT_BYTES=65536 "$HPCVET" -j2 "$TMP/tail.obs" >"$TMP/split.txt"
check "zero tail: chunks of 64 KiB at -j2 report the same" cmp -s "$TMP/ref.txt" "$TMP/split.txt"

# a zero-filled region of 4096 bytes between the header and the events of
# a second stream: the walk resumes at the first event after it
head -c "$size" "$TMP/s.obs" >"$TMP/mid.obs"
head -c 4096 /dev/zero >>"$TMP/mid.obs"
tail -c +9 "$TMP/s.obs" >>"$TMP/mid.obs"
"$HPCVET" -j1 --format=json "$TMP/mid.obs" >"$TMP/mid.json"
check "zero region: exactly one damaged-region diagnostic" test "$(grep -c '"rule":[[:space:]]*"ovni.obs.damaged-region"' "$TMP/mid.json")" -eq 1
check "zero region: its offset" grep -q "\"offset\":[[:space:]]*$size," "$TMP/mid.json"
check "zero region: its length" grep -q '"length":[[:space:]]*4096,' "$TMP/mid.json"
check "zero region: the events after it are walked" grep -q 'ovni.obs.clock-monotonic' "$TMP/mid.json"
for unit in 1000 50000; do
	"$HPCVET" -j1 "$TMP/mid.obs" >"$TMP/ref.txt"
	HPCVET_UNIT_BYTES=$unit "$HPCVET" -j2 "$TMP/mid.obs" >"$TMP/split.txt"
	check "zero region: chunks of $unit bytes report the same" cmp -s "$TMP/ref.txt" "$TMP/split.txt"
done

# a note that fires once per file of an input is one diagnostic with the
# number of files, and the note count stays exact
tt="$SHARED/real-samples/dumpi/sst-dumpi-testtrace"
if [ -d "$tt" ]; then
	"$HPCVET" -j1 --format=json "$tt" >"$TMP/tt1.json"
	"$HPCVET" -j3 --format=json "$tt" >"$TMP/tt3.json"
	check "per-file notes: one clock-epoch diagnostic" test "$(grep -c '"rule":[[:space:]]*"dumpi.time.clock-epoch"' "$TMP/tt1.json")" -eq 1
	check "per-file notes: it says on how many files" grep -q 'the same note on 4 files of this input' "$TMP/tt1.json"
	check "per-file notes: the count stays exact" grep -q '"notes":[[:space:]]*4,' "$TMP/tt1.json"
	check "per-file notes: the same at -j3" cmp -s "$TMP/tt1.json" "$TMP/tt3.json"
fi

# A zeroed region inside profile.db and cct.db: its records are counted in
# bulk once each rule is past its cap; the counts are exactly those of the
# record-by-record path (no per-rule cap), and the wide and narrow paths agree.
"$GEN" --what=hpctoolkit-db --profiles=3 --contexts=3000 --metrics=6 -o "$TMP/zdb" >/dev/null
for f in "$TMP"/zdb/profile.db "$TMP"/zdb/cct.db; do
	size=$(stat -c %s "$f")
	dd if=/dev/zero of="$f" bs=1024 seek="$((size / 4 / 1024))" count="$((size / 2 / 1024))" conv=notrunc status=none
done
"$HPCVET" -j1 --format=json "$TMP/zdb" >"$TMP/z1.json"
"$HPCVET" -j1 --format=json --max-per-rule=0 "$TMP/zdb" >"$TMP/z0.json"
HPCVET_NO_AVX512=1 "$HPCVET" -j1 --format=json "$TMP/zdb" >"$TMP/zn.json"
counts() { jq -c '.inputs[0] | [.errors, .warnings, .notes]' "$1"; }
check "zeroed db: many errors" test "$(jq '.inputs[0].errors' "$TMP/z1.json")" -gt 1000
check "zeroed db: bulk counts equal the record-by-record counts" test "$(counts "$TMP/z1.json")" = "$(counts "$TMP/z0.json")"
check "zeroed db: the narrow path gives the same report" cmp -s "$TMP/z1.json" "$TMP/zn.json"

# GitHub annotations: notes only when asked
if [ -d "$SHARED/real-samples/hpctoolkit" ]; then
	db=""
	for d in "$SHARED"/real-samples/hpctoolkit/*.d; do
		if "$HPCVET" "$d" | grep -q 'note\['; then db=$d; break; fi
	done
	check "a real database with notes" test -n "$db"
	"$HPCVET" --format=github "$db" >"$TMP/gh.txt"
	check "github: no ::notice by default" sh -c "! grep -q '^::notice' '$TMP/gh.txt'"
	"$HPCVET" --format=github --github-notes "$db" >"$TMP/ghn.txt"
	check "github --github-notes: notes are ::notice annotations" grep -q '^::notice' "$TMP/ghn.txt"
else
	skip "github notes on a real database: $SHARED/real-samples not present (set HV_SHARED)"
fi
done_testing
