#!/usr/bin/env bash
# The propagation checker evaluates a node's equations eight slots at a time
# where the processor has AVX-512 and two at a time elsewhere (core/simd.h,
# hpctoolkit/values/check.c), and the value walk checks profile.db's and cct.db's
# values eight at a time there and one at a time elsewhere
# (hpctoolkit/format/svb_wide.c). Both must give the same report, digit for digit:
# every lane does the same arithmetic. HPCVET_NO_AVX512 makes the CLI take the
# narrow path, so on an AVX-512 machine this compares the two; elsewhere
# both runs are narrow and the comparison holds trivially (said below).
source "$(dirname "$0")/lib.sh"

if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
	echo "# this processor has AVX-512: the wide and narrow paths are compared"
else
	echo "# no AVX-512 here: both runs take the narrow path"
fi

# same NAME DIR: both paths give the same report and the same counts of
# evaluated equations (the certificate's rule table), and the run evaluated
# execution equations, so the comparison covered them
counts() { jq -c '[.certificate.inputs[0].rules[] | select(.id | startswith("hpctkdb.values.")) | [.id, .evaluated, .failed]]' "$1"; }
# every rule's counts: the value walk's rules are counted in bulk from what
# the chunk checks take, value by value where they refuse a chunk
all_counts() { jq -c '[.certificate.inputs[0].rules[] | [.id, .evaluated, .failed]]' "$1"; }
walk_same() {
	"$HPCVET" --certify --format=json "$2" 2>/dev/null | all_counts /dev/stdin >"$TMP/$1.aw"
	HPCVET_NO_AVX512=1 "$HPCVET" --certify --format=json "$2" 2>/dev/null | all_counts /dev/stdin >"$TMP/$1.an"
	check "$1: every rule evaluated as often either way" cmp -s "$TMP/$1.aw" "$TMP/$1.an"
	"$HPCVET" --format=json "$2" >"$TMP/$1.ww" 2>/dev/null
	HPCVET_NO_AVX512=1 "$HPCVET" --format=json "$2" >"$TMP/$1.wn" 2>/dev/null
	check "$1: the same report either way" cmp -s "$TMP/$1.ww" "$TMP/$1.wn"
	check "$1: reported" test "$(jq -r --arg r "$3" '[.inputs[0].diagnostics[] | select(.rule == $r)] | length' "$TMP/$1.ww")" -gt 0
}
same() {
	"$HPCVET" --format=json "$2" >"$TMP/$1.wide" 2>/dev/null
	HPCVET_NO_AVX512=1 "$HPCVET" --format=json "$2" >"$TMP/$1.narrow" 2>/dev/null
	check "$1: the same report either way" cmp -s "$TMP/$1.wide" "$TMP/$1.narrow"
	"$HPCVET" --certify --format=json "$2" 2>/dev/null | counts /dev/stdin >"$TMP/$1.cw"
	HPCVET_NO_AVX512=1 "$HPCVET" --certify --format=json "$2" 2>/dev/null | counts /dev/stdin >"$TMP/$1.cn"
	check "$1: the same evaluation counts either way" cmp -s "$TMP/$1.cw" "$TMP/$1.cn"
	check "$1: execution equations evaluated" test "$(jq -r '.[] | select(.[0] == "hpctkdb.values.execution") | .[1]' "$TMP/$1.cw")" -gt 0
}

# 12 metrics: 19 derived slots, so two full groups of eight and a masked third
check "generate a database" "$GEN" --what=hpctoolkit-db --edition=release --seed=3 --contexts=3000 --profiles=4 \
	--metrics=12 -o "$TMP/db" >/dev/null
same valid "$TMP/db"
check "valid: conforming" test "$(jq -r '.inputs[0].verdict' "$TMP/valid.wide")" = conforming
for rule in hpctkdb.values.execution hpctkdb.values.transitive; do
	check "generate a break of $rule" "$GEN" --what=hpctoolkit-db --break=$rule -o "$TMP/$rule" >/dev/null
	same "$rule" "$TMP/$rule"
	check "$rule: reported" test "$(jq -r --arg r $rule '[.inputs[0].diagnostics[] | select(.rule == $r)] | length' "$TMP/$rule.wide")" -gt 0
done
check "generate an input at the tolerance" "$GEN" --what=hpctoolkit-db --break=hpctkdb.values.execution~inside-tolerance \
	-o "$TMP/inside" >/dev/null
same inside "$TMP/inside"
check "inside the tolerance: no value error" \
	test "$(jq -r '[.inputs[0].diagnostics[] | select(.rule | startswith("hpctkdb.values.")) | select(.severity == "error")] | length' "$TMP/inside.wide")" = 0
# the value walk's per-value rules, each broken in a file of its own: the
# chunk that holds the bad value is refused by either check and walked
# value by value (40 profiles, 12 metrics: runs long enough for the wide check)
for rule in profiledb.psvb.metric-increasing profiledb.psvb.value-finite profiledb.psvb.value-nonzero \
	cctdb.csvb.prof-increasing cctdb.csvb.prof-nonzero cctdb.csvb.value-finite hpctkdb.metric.prop-known \
	hpctkdb.cct.prof-in-range hpctkdb.cct.transpose; do
	made=false
	for kind in hpctoolkit-db profiledb cctdb; do
		if "$GEN" --what=$kind --profiles=40 --metrics=12 --break="$rule" -o "$TMP/w.$rule" >/dev/null 2>&1; then made=true; break; fi
		rm -rf "$TMP/w.$rule"
	done
	check "generate a break of $rule" $made
	$made && walk_same "w.$rule" "$TMP/w.$rule" "$rule"
done
if [ -d "$SHARED/real-samples/hpctoolkit" ]; then
	for d in "$SHARED"/real-samples/hpctoolkit/*/; do
		same "$(basename "$d")" "$d"
	done
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED); the generated inputs only"
fi
done_testing
