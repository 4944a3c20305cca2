#!/usr/bin/env bash
# The metric taxonomy metrics/default.yaml of an HPCToolkit database:
# generated databases carry a valid one; hostile YAML (an alias bomb, a
# recursive alias, a long merge chain, a file past the size limit, a syntax
# error, nesting past the depth bound) is a report, quickly; merge keys are resolved; a standard: formula
# may not use a custom scope's input (checked against the real small.d).
source "$(dirname "$0")/lib.sh"

db=$TMP/db
"$GEN" --what=hpctoolkit-db --seed=3 -o "$db" >/dev/null
check "a generated database has metrics/default.yaml" test -s "$db/metrics/default.yaml"
expect_exit 0 "a generated database with its taxonomy passes --strict" "$HPCVET" --strict "$db"
"$HPCVET" --format=junit "$db" >"$TMP/j.xml" 2>/dev/null
check "the generated taxonomy's inputs are checked against meta.db" grep -q 'name="hpctkdb.taxonomy.input-metadb"' "$TMP/j.xml"

# variant DIR TEXT: the generated database with the taxonomy TEXT
variant() {
	rm -rf "$TMP/$1"
	cp -r "$db" "$TMP/$1"
	printf '%s\n' "$2" >"$TMP/$1/metrics/default.yaml"
}

bomb='version: 0'
bomb+=$'\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'
for i in 1 2 3 4 5 6 7 8 9; do
	p=$((i - 1))
	bomb+=$'\n'"l$i: &l$i [*l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p]"
done
variant bomb "$bomb"
expect_exit 1 "a billion laughs is refused" timeout 10 "$HPCVET" "$TMP/bomb"
check "a billion laughs: hpctkdb.taxonomy.bounds names the expansion" grep -q "error\[hpctkdb.taxonomy.bounds\].*expand to" "$TMP/out"

variant recursive $'version: 0\ninputs: []\nroots: &r\n  - name: loop\n    children: *r'
expect_exit 1 "an alias inside its own node is refused" timeout 10 "$HPCVET" "$TMP/recursive"
check "a recursive alias: hpctkdb.taxonomy.alias with line and column" \
	grep -q "error\[hpctkdb.taxonomy.alias\]: line 5 column 15: alias \*r is inside the node it names" "$TMP/out"

variant syntax $'version: 0\ninputs: [\nroots: []'
expect_exit 1 "a syntax error is refused" "$HPCVET" "$TMP/syntax"
check "a syntax error: hpctkdb.taxonomy.yaml with line and column" \
	grep -q "error\[hpctkdb.taxonomy.yaml\]: line [0-9]* column [0-9]*: not well-formed YAML" "$TMP/out"

# 1500 levels of 5 pairs: 7500 steps to find metric:, an expansion of ~12 M
# (under the alias bound, so the merge bound is what fires)
chain=$'version: 0\nm0: &m0 {metric: x}'
for i in $(seq 1 1500); do chain+=$'\n'"m$i: &m$i {<<: *m$((i - 1)), a: 1, b: 2, c: 3, d: 4}"; done
chain+=$'\ninputs:\n  - {<<: *m1500, scope: point}\nroots: []'
variant chain "$chain"
expect_exit 1 "a merge chain past its bound is refused" timeout 10 "$HPCVET" "$TMP/chain"
check "a long merge chain: hpctkdb.taxonomy.bounds" grep -q "error\[hpctkdb.taxonomy.bounds\].*merge key" "$TMP/out"

rm -rf "$TMP/big" && cp -r "$db" "$TMP/big"
{ echo 'version: 0'; head -c $((65 * 1024 * 1024)) /dev/zero | tr '\0' '#'; echo; } >"$TMP/big/metrics/default.yaml"
expect_exit 1 "a 65 MiB taxonomy is refused unparsed" timeout 10 "$HPCVET" "$TMP/big"
check "65 MiB: hpctkdb.taxonomy.bounds says not parsed" grep -q "error\[hpctkdb.taxonomy.bounds\].*not parsed" "$TMP/out"

# Nesting: 64 levels in all (the top map and 63 block maps) and 32 in flow
# style pass; one more of either is refused where it opens, before libyaml's
# cost per token grows with the flow depth. The deep shapes (flow sequences,
# flow maps, block maps, 100,000 deep) give one error each.
nest() { printf '%*s' "$1" '' | tr ' ' "$2"; }
block() { awk -v k="$1" 'BEGIN { for (i = 1; i < k; i++) printf "%*sa:\n", i, ""; printf "%*sa: x\n", k, "" }'; }
variant block64 "version: 0
inputs: []
roots: []
nested:
$(block 63)"
expect_exit 0 "a taxonomy nested 64 deep in block style passes --strict" "$HPCVET" --strict "$TMP/block64"
variant block65 "version: 0
inputs: []
roots: []
nested:
$(block 64)"
expect_exit 1 "a taxonomy nested 65 deep is refused" "$HPCVET" "$TMP/block65"
check "65 deep: hpctkdb.taxonomy.depth at the 65th collection (line 68 column 65)" \
	grep -q "error\[hpctkdb.taxonomy.depth\]: line 68 column 65: a collection at depth 65, past the limit of 64" "$TMP/out"
variant flow32 "version: 0
inputs: []
roots: []
nested: $(nest 32 '[')$(nest 32 ']')"
expect_exit 0 "32 flow sequences nested pass --strict" "$HPCVET" --strict "$TMP/flow32"
variant flow33 "version: 0
inputs: []
roots: []
nested: $(nest 33 '[')$(nest 33 ']')"
expect_exit 1 "33 flow sequences nested are refused" "$HPCVET" "$TMP/flow33"
check "33 in flow: hpctkdb.taxonomy.depth at the 33rd '[' (line 4 column 41)" \
	grep -q "error\[hpctkdb.taxonomy.depth\]: line 4 column 41: a flow collection at depth 33, past the limit of 32" "$TMP/out"
variant deepseq "version: 0
inputs: []
roots: $(nest 100000 '[')$(nest 100000 ']')"
variant deepmap "version: 0
inputs: []
roots: $(nest 100000 '{' | sed 's/{/{a: /g')x$(nest 100000 '}')"
variant deepblock "version: 0
inputs: []
roots:
$(awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%*s- a:\n", i * 2, "" }')"
for shape in deepseq deepmap deepblock; do
	expect_exit 1 "$shape: refused" timeout 10 "$HPCVET" "$TMP/$shape"
	check "$shape: one error, hpctkdb.taxonomy.depth, and no other taxonomy finding" \
		sh -c "grep -c 'error\[' '$TMP/out' | grep -qx 1 && grep -c 'taxonomy\.' '$TMP/out' | grep -qx 1 && grep -q 'error\[hpctkdb.taxonomy.depth\]' '$TMP/out'"
done

# Offsets are bytes, not libyaml's characters: 5000 two-byte characters
# before the fault (past the first step of the character table).
long=$(printf 'µ%.0s' $(seq 1 5000))
variant utf8 $'version: 0\ninputs: []\nroots:\n  - name: "'"$long"$'"\n    visible by default: maybe'
want=$(grep -bo maybe "$TMP/utf8/metrics/default.yaml" | cut -d: -f1)
expect_exit 1 "a non-ASCII taxonomy with a fault" "$HPCVET" "$TMP/utf8"
check "the fault's offset is its byte offset ($want) after non-ASCII text" \
	grep -q "default.yaml:$(printf '0x%x' "$want"): error\[hpctkdb.taxonomy.metric\]" "$TMP/out"

# The spec's own example (shared/specs), alone in a metrics/ folder: valid,
# with the note that hatchet needs standard: (the example writes bare formulas).
spec=$SHARED/specs/hpctoolkit-METRICS.yaml
if [ -f "$spec" ]; then
	mkdir -p "$TMP/spec/metrics" && cp "$spec" "$TMP/spec/metrics/default.yaml"
	expect_exit 0 "the spec's example taxonomy passes --strict" "$HPCVET" --strict "$TMP/spec"
	check "the spec's example: only the hatchet note" sh -c "grep -c '\[hpctkdb.taxonomy' '$TMP/out' | grep -qx 1 && grep -q 'note\[hpctkdb.taxonomy.hatchet\]' '$TMP/out'"
else
	skip "the spec's example: $spec not present"
fi

small=$SHARED/real-samples/hpctoolkit/small.d
if [ -d "$small" ]; then
	merged='version: 0
inputs:
  - &e {metric: CPUTIME (sec), scope: execution, formula: $$, combine: sum}
  - &l {<<: *e, scope: lex_aware}
  - &f {<<: *e, scope: function}
roots:
  - name: CPUTIME (sec)
    variants:
      Sum:
        render: [number, percent]
        formula:
          inclusive: {standard: *e}
          exclusive: {custom: *l, standard: *f}'
	rm -rf "$TMP/merge" && mkdir -p "$TMP/merge/metrics" && cp "$small"/*.db "$TMP/merge/"
	printf '%s\n' "$merged" >"$TMP/merge/metrics/default.yaml"
	expect_exit 0 "inputs written with merge keys match meta.db (--strict)" "$HPCVET" --strict "$TMP/merge"
	printf '%s\n' "${merged/standard: \*f/standard: *l}" >"$TMP/merge/metrics/default.yaml"
	expect_exit 1 "a standard: formula on the custom lex_aware scope is refused" "$HPCVET" "$TMP/merge"
	check "standard: on a custom scope: hpctkdb.taxonomy.input-metadb" \
		grep -q "error\[hpctkdb.taxonomy.input-metadb\].*lex_aware.*custom propagation scope" "$TMP/out"
	printf '%s\n' "${merged/metric: CPUTIME (sec)/metric: CPUTIME (usec)}" >"$TMP/merge/metrics/default.yaml"
	expect_exit 1 "an input naming no metric of meta.db is refused" "$HPCVET" "$TMP/merge"
	check "unknown metric: hpctkdb.taxonomy.input-metadb" \
		grep -q "error\[hpctkdb.taxonomy.input-metadb\].*'CPUTIME (usec)' is not a metric of meta.db" "$TMP/out"
else
	skip "merge keys against small.d: $small not present"
fi
done_testing
