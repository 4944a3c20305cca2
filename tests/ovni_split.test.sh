#!/usr/bin/env bash
# One ovni stream checked in chunks (ovni/stream/split.c): every lone
# stream.obs of the golden corpus (y_, n_ and i_ cases) and of the real
# samples, and a generated stream of ~1 MB with a break near its end, at
# -j1, -j2 and -j3 with chunks of a few bytes or kilobytes
# (HPCVET_UNIT_BYTES), reports what the one walk reports (the default unit
# size: one chunk for these sizes), byte for byte, text and JSON, with the
# same exit code. The sanitizer build runs a sample of the inputs.
source "$(dirname "$0")/lib.sh"

mapfile -t golden < <(ls "$ROOT"/golden/cases/ovni/*.obs | san_sample 4)
check "golden ovni streams present (${#golden[@]})" test "${#golden[@]}" -ge 5
mapfile -t real < <([ -d "$SHARED/real-samples" ] && find "$SHARED/real-samples" -name '*.obs' | sort | san_sample 8)
[ "${#real[@]}" -gt 0 ] || skip "real streams: $SHARED/real-samples not present (set HV_SHARED)"
"$GEN" --what=ovni-stream --trace-len=40000 -o "$TMP/big.obs" >/dev/null 2>&1
"$GEN" --what=ovni-stream --trace-len=40000 --break=ovni.obs.sort-region -o "$TMP/brk.obs" >/dev/null 2>&1
check "generated streams over 512 kB" test "$(stat -c %s "$TMP/big.obs")" -gt 524288

# same_split DESCRIPTION UNIT_BYTES JOBS -- hpcvet ARGS...
same_split() {
	local desc=$1 unit=$2 j=$3
	shift 4
	"$HPCVET" -j1 "$@" >"$TMP/ref" 2>&1
	local rc1=$?
	HPCVET_UNIT_BYTES=$unit "$HPCVET" -j"$j" "$@" >"$TMP/out" 2>&1
	local rc2=$?
	if [ "$rc1" -eq "$rc2" ] && cmp -s "$TMP/ref" "$TMP/out"; then ok; else
		not_ok "$desc: chunks of $unit bytes at -j$j differ from the one walk (exit $rc1 vs $rc2)"
		diff "$TMP/ref" "$TMP/out" | head -6
	fi
}

text=(--color=never --no-context)
for j in 1 2 3; do
	same_split "golden streams" 1 $j -- "${text[@]}" "${golden[@]}"
	same_split "golden streams, JSON, 2 diagnostics" 50 $j -- --format=json --max-diagnostics=2 "${golden[@]}"
	[ "${#real[@]}" -gt 0 ] && same_split "real samples' streams (${#real[@]})" 700 $j -- --format=json "${real[@]}"
	same_split "generated streams" 20000 $j -- --format=json "$TMP/big.obs" "$TMP/brk.obs"
done
same_split "generated streams, tiny chunks" 1 2 -- "${text[@]}" "$TMP/big.obs" "$TMP/brk.obs"
check "the break is reported" grep -q ovni.obs.sort-region "$TMP/ref"
done_testing
