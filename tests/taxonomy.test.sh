#!/usr/bin/env bash
# The metric taxonomy metrics/default.yaml of an HPCToolkit database:
# generated databases carry a valid one; hostile YAML (an alias bomb, a
# recursive alias, a long merge chain, a file past the size limit, a syntax
# error, nesting past the depth bound) is a report, quickly; offsets after a byte order mark
# (UTF-8, UTF-16) point at the offending bytes; merge keys are resolved; a standard: formula
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
# Beside the top-level keys no reader walks it (hpcviewer and hatchet load it
# at once): hpcvet's own limit, a warning. Held by an input, hpcviewer hashes
# it and does not finish: an error.
expect_exit 0 "a billion laughs no reader walks is no error" timeout 10 "$HPCVET" "$TMP/bomb"
check "a billion laughs: hpctkdb.taxonomy.limit names the expansion" grep -q "warning\[hpctkdb.taxonomy.limit\].*expand to" "$TMP/out"
expect_exit 1 "... and --strict refuses it" timeout 10 "$HPCVET" --strict "$TMP/bomb"
variant bomb-input "${bomb}"$'\ninputs:\n  - {metric: x, scope: point, formula: $$, combine: sum, notes: *l9}\nroots: []'
expect_exit 1 "a billion laughs in an input is refused" timeout 10 "$HPCVET" "$TMP/bomb-input"
check "a billion laughs in an input: hpctkdb.taxonomy.bounds, hpcviewer does not finish" \
	grep -q "error\[hpctkdb.taxonomy.bounds\].*expand to.*hpcviewer 2025.01 hashes or walks it and does not finish" "$TMP/out"

variant recursive $'version: 0\ninputs: []\nroots: &r\n  - name: loop\n    children: *r'
expect_exit 1 "an alias inside its own node is refused" timeout 10 "$HPCVET" "$TMP/recursive"
check "a recursive alias: hpctkdb.taxonomy.alias with line and column" \
	grep -q "error\[hpctkdb.taxonomy.alias\]: line 5 column 15: alias \*r is inside the node it names" "$TMP/out"

variant syntax $'version: 0\ninputs: [\nroots: []'
expect_exit 1 "a syntax error is refused" "$HPCVET" "$TMP/syntax"
check "a syntax error: hpctkdb.taxonomy.yaml with line and column" \
	grep -q "error\[hpctkdb.taxonomy.yaml\]: line [0-9]* column [0-9]*: not well-formed YAML" "$TMP/out"

# A byte order mark: libyaml's reader skips a leading one and its marks do
# not count it, so each diagnostic's offset (and length) is mapped past it to
# the offending bytes: UTF-8 (3 bytes), UTF-16 both ways (2 bytes, then
# 2-byte units, a pair of surrogates one character). at_bytes TEXT ENCODING
# RULE OFFSET HEX: the taxonomy TEXT (UTF-8, written in ENCODING, with its
# mark) gives RULE at OFFSET, over the bytes HEX.
at_bytes() {
	rm -rf "$TMP/bom" && cp -r "$db" "$TMP/bom"
	printf '%s' "$1" | iconv -f UTF-8 -t "$2" >"$TMP/bom/metrics/default.yaml"
	"$HPCVET" --format=json "$TMP/bom" >"$TMP/bom.json" 2>/dev/null
	local got f="$TMP/bom/metrics/default.yaml"
	got=$(jq -r --arg r "$3" '[.inputs[0].diagnostics[] | select(.rule == $r)][0] | "\(.offset) \(.length)"' "$TMP/bom.json")
	local at=${got% *} len=${got#* }
	check "$2 with a byte order mark: $3 at byte $4, over $5 (got $got)" \
		test "$at" = "$4" -a "$(tail -c +$((at + 1)) "$f" | head -c "$len" | od -An -tx1 | tr -d ' \n')" = "$5"
}
bom=$'\xef\xbb\xbf'
at_bytes "${bom}version: 0"$'\ninputs: [a, b}\nroots: []\n' UTF-8 hpctkdb.taxonomy.yaml 27 7d
at_bytes "${bom}version: bad"$'\ninputs: []\nroots: []\n' UTF-8 hpctkdb.taxonomy.version 12 626164
at_bytes "${bom}# h"$'\xc3\xa9\xf0\x9f\x98\x80\nversion: 0\ninputs: [a, b}\nroots: []\n' UTF-8 hpctkdb.taxonomy.yaml 37 7d
at_bytes "${bom}version: 0"$'\ninputs: [*nope]\nroots: []\n' UTF-8 hpctkdb.taxonomy.alias 23 2a6e6f7065
# iconv's UTF-16 writes a little-endian mark; UTF-16BE writes the text's own
at_bytes "# h"$'\xc3\xa9\xf0\x9f\x98\x80\nversion: b\xc3\xa9d\ninputs: []\nroots: []\n' UTF-16 hpctkdb.taxonomy.version 34 6200e9006400
at_bytes "${bom}# h"$'\xc3\xa9\xf0\x9f\x98\x80\nversion: b\xc3\xa9d\ninputs: []\nroots: []\n' UTF-16BE hpctkdb.taxonomy.version 34 006200e90064
at_bytes "version: 0"$'\ninputs: [a, b}\nroots: []\n' UTF-16 hpctkdb.taxonomy.yaml 50 7d00
# and without a mark, as before: the offset is libyaml's, in bytes
at_bytes "version: 0"$'\ninputs: [a, b}\nroots: []\n' UTF-8 hpctkdb.taxonomy.yaml 24 7d

# 1500 levels of 5 pairs: 7500 steps to find metric:, an expansion of ~12 M
# (under the alias bound, so the merge bound is what fires)
chain=$'version: 0\nm0: &m0 {metric: x}'
for i in $(seq 1 1500); do chain+=$'\n'"m$i: &m$i {<<: *m$((i - 1)), a: 1, b: 2, c: 3, d: 4}"; done
chain+=$'\ninputs:\n  - {<<: *m1500, scope: point}\nroots: []'
variant chain "$chain"
# The input's metric: is past the bound: hpcvet did not find it, and says
# only that (the limit, alone), never that the input lacks it.
"$HPCVET" --no-context "$TMP/chain" >"$TMP/out" 2>&1
check "a long merge chain: hpctkdb.taxonomy.limit" grep -q "warning\[hpctkdb.taxonomy.limit\].*merge key" "$TMP/out"
check "a long merge chain: no hpctkdb.taxonomy.bounds" sh -c "! grep -q 'taxonomy.bounds' '$TMP/out'"
"$HPCVET" --format=json "$TMP/chain" | jq -r '.inputs[0].diagnostics[] | select(.rule | startswith("hpctkdb.taxonomy.")) | .rule + " " + .message' >"$TMP/chain.rules"
check "a long merge chain: the limit alone, no input reported without metric: ($(tr '\n' ';' <"$TMP/chain.rules" | cut -c1-200))" \
	test "$(cut -d' ' -f1 "$TMP/chain.rules")" = hpctkdb.taxonomy.limit

rm -rf "$TMP/big" && cp -r "$db" "$TMP/big"
{ echo 'version: 0'; head -c $((65 * 1024 * 1024)) /dev/zero | tr '\0' '#'; echo; } >"$TMP/big/metrics/default.yaml"
expect_exit 0 "a 65 MiB taxonomy is left unparsed, no error" timeout 10 "$HPCVET" "$TMP/big"
check "65 MiB: hpctkdb.taxonomy.limit says not parsed" grep -q "warning\[hpctkdb.taxonomy.limit\].*not parsed" "$TMP/out"
expect_exit 1 "... and --strict refuses it" timeout 10 "$HPCVET" --strict "$TMP/big"

# Nesting: hpcviewer's SnakeYAML counts every node from the top map at level
# 1 and refuses one at level 52, flow or block; hpcvet refuses the same
# where it opens, before libyaml's cost per token grows with the flow depth.
# The deep shapes (flow sequences, flow maps, block maps, 100,000 deep) give
# one error each.
nest() { printf '%*s' "$1" '' | tr ' ' "$2"; }
block() { awk -v k="$1" 'BEGIN { for (i = 1; i < k; i++) printf "%*sa:\n", i, ""; printf "%*sa: x\n", k, "" }'; }
variant block51 "version: 0
inputs: []
roots: []
nested:
$(block 49)"
expect_exit 0 "a taxonomy nested to level 51 in block style passes --strict" "$HPCVET" --strict "$TMP/block51"
variant block52 "version: 0
inputs: []
roots: []
nested:
$(block 50)"
expect_exit 1 "a node at level 52 is refused" "$HPCVET" "$TMP/block52"
check "level 52: hpctkdb.taxonomy.depth at the innermost key (line 54 column 51)" \
	grep -q "error\[hpctkdb.taxonomy.depth\]: line 54 column 51: a node at level 52; hpcviewer 2025.01 refuses more than 51 levels" "$TMP/out"
variant flow51 "version: 0
inputs: []
roots: []
nested: $(nest 50 '[')$(nest 50 ']')"
expect_exit 0 "50 flow sequences nested (level 51) pass --strict" "$HPCVET" --strict "$TMP/flow51"
variant flow52 "version: 0
inputs: []
roots: []
nested: $(nest 50 '[')1$(nest 50 ']')"
expect_exit 1 "a scalar inside them (level 52) is refused" "$HPCVET" "$TMP/flow52"
check "level 52 in flow: hpctkdb.taxonomy.depth at the scalar (line 4 column 59)" \
	grep -q "error\[hpctkdb.taxonomy.depth\]: line 4 column 59: a node at level 52" "$TMP/out"
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

# The spec's own example (shared/specs): as metrics/default.yaml hpcviewer
# refuses it (inputs without formula:/combine:, parenthesised formulas); saved
# beside a database's default.yaml it is read by no reader: one note.
spec=$SHARED/specs/hpctoolkit-METRICS.yaml
if [ -f "$spec" ]; then
	mkdir -p "$TMP/spec/metrics" && cp "$spec" "$TMP/spec/metrics/default.yaml"
	expect_exit 1 "the spec's example as default.yaml is refused, as hpcviewer refuses it" "$HPCVET" "$TMP/spec"
	check "the spec's example: the parenthesised form is hpctkdb.taxonomy.viewer-formula" \
		grep -q "error\[hpctkdb.taxonomy.viewer-formula\].*'inclusive' is a sequence (the parenthesised form)" "$TMP/out"
	check "the spec's example: an input without combine: is hpctkdb.taxonomy.viewer-input" \
		grep -q "error\[hpctkdb.taxonomy.viewer-input\].*no combine: key" "$TMP/out"
	rm -rf "$TMP/specx" && cp -r "$db" "$TMP/specx" && cp "$spec" "$TMP/specx/metrics/example.yaml"
	expect_exit 0 "the spec's example as metrics/example.yaml passes --strict" "$HPCVET" --strict "$TMP/specx"
	check "metrics/example.yaml: only hpctkdb.taxonomy.unread" \
		sh -c "grep -c '\[hpctkdb.taxonomy' '$TMP/out' | grep -qx 1 && grep -q 'example.yaml: note\[hpctkdb.taxonomy.unread\]' '$TMP/out'"
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

# One-change variants of small.d's taxonomy, each judged as hpcviewer 2025.01
# and hatchet 1.4.0 were seen to judge it (hpctoolkit/taxonomy/rules.def): an error where
# hpcviewer refuses or misreads, the hatchet note where only hatchet fails.
if [ -d "$small" ]; then
	base=$(cat "$small/metrics/default.yaml")
	E='*CPUTIMEx20_x28_secx29_-sum-x5b_0x0x5d_-execution'
	F='*CPUTIMEx20_x28_secx29_-sum-x5b_0x0x5d_-function'
	L='*CPUTIMEx20_x28_secx29_-sum-x5b_0x0x5d_-lex_aware'
	# reader_case NAME WANT(rule|none) SEVERITY TEXT
	reader_case() {
		rm -rf "$TMP/rv" && mkdir -p "$TMP/rv/metrics" && cp "$small"/*.db "$TMP/rv/"
		printf '%s\n' "$4" >"$TMP/rv/metrics/default.yaml"
		"$HPCVET" "$TMP/rv" >"$TMP/rv.out" 2>&1
		if [ "$2" = none ]; then
			check "$1: no taxonomy diagnostic" sh -c "! grep -q '\[hpctkdb.taxonomy' '$TMP/rv.out'"
		else
			# the rule, and no other error (a note may follow from the same change)
			check "$1: $3[$2] and no other taxonomy error" \
				sh -c "grep -q '$3\[$2\]' '$TMP/rv.out' && test \$(grep -c 'error\[hpctkdb.taxonomy' '$TMP/rv.out') -eq $([ "$3" = error ] && echo 1 || echo 0)"
		fi
	}
	reader_case "an input without combine:" hpctkdb.taxonomy.viewer-input error "$(sed '0,/^    combine: sum$/{//d}' <<<"$base")"
	reader_case "an input without formula:" hpctkdb.taxonomy.viewer-input error "$(sed '0,/^    formula: \$\$$/{//d}' <<<"$base")"
	reader_case "standard: in the parenthesised form" hpctkdb.taxonomy.viewer-formula error "${base/"standard: $E"/"standard: [4*, [$E, -, $E]]"}"
	reader_case "standard: as text" hpctkdb.taxonomy.viewer-formula error "${base/"standard: $E"/"standard: '2 * 3'"}"
	three="standard: {+: [$E, $E, $E]}" times2="standard: {'*': [2, $E]}" # (braces kept out of ${...})
	reader_case "standard: {+: [a, a, a]}" hpctkdb.taxonomy.viewer-formula error "${base/"standard: $E"/$three}"
	reader_case "a second variant on Sum's input" hpctkdb.taxonomy.viewer-input-reuse error \
		"$base"$'\n      Copy:\n        render: [number]\n        formula:\n          inclusive:\n            standard: '"$E"
	reader_case "a root without variants:" hpctkdb.taxonomy.viewer-variants error "$(sed '/^    variants:/,$d' <<<"$base")"
	reader_case "exclusive: standard: before custom:" hpctkdb.taxonomy.viewer-order error \
		"${base/"custom: $L"$'\n'"            standard: $F"/"standard: $F"$'\n'"            custom: $L"}"
	reader_case "render: number (one string)" hpctkdb.taxonomy.hatchet note "${base/render: \[number, percent\]/render: number}"
	reader_case "render: percent (one string)" none - "${base/render: \[number, percent\]/render: percent}"
	reader_case "render: [number, percentage]" hpctkdb.taxonomy.hatchet note "${base/render: \[number, percent\]/render: [number, percentage]}"
	reader_case "a variant named Total" hpctkdb.taxonomy.hatchet note "${base/      Sum:/      Total:}"
	reader_case "a renamed root" hpctkdb.taxonomy.hatchet note "${base/  - name: CPUTIME (sec)/  - name: CPU time}"
	reader_case "inclusive: without standard:" hpctkdb.taxonomy.hatchet note "${base/"standard: $E"/"$E"}"
	reader_case "standard: {*: [2, a]}" hpctkdb.taxonomy.hatchet note "${base/"standard: $E"/$times2}"
	many() { printf '%s\nmany:\n' "$base"; for _ in $(seq 1 "$1"); do printf '  - %s\n' "$F"; done; }
	reader_case "10000 aliases of maps" none - "$(many 9997)"
	reader_case "10001 aliases of maps" hpctkdb.taxonomy.viewer-alias-cap error "$(many 9998)"
	check "hpcviewer's message is kept" grep -q "exceeds the specified max=10000" "$TMP/rv.out"
	bomb=$'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'
	for i in $(seq 1 12); do bomb+=$'\n'"l$i: &l$i [*l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1)), *l$((i - 1))]"; done
	reader_case "an alias bomb under an unread key" hpctkdb.taxonomy.limit warning "$base"$'\n'"$bomb"
	check "the bomb's message: no reader walks it" grep -q "under l12, which neither hpcviewer 2025.01 nor hatchet 1.4.0 walks" "$TMP/rv.out"
	reader_case "an alias bomb in an input" hpctkdb.taxonomy.bounds error "$bomb"$'\n'"$(sed '0,/^    combine: sum$/{s//    combine: sum\n    notes: *l12/}' <<<"$base")"
	check "the bomb's message: hpcviewer does not finish" grep -q "hpcviewer 2025.01 hashes or walks it and does not finish" "$TMP/rv.out"

	# hpcviewer's 3 Mi characters (SnakeYAML's codePointLimit, checked as each
	# token's scan starts): small.d's taxonomy with a padding key, its counted
	# extent made exactly 3 Mi (loads) or one more (refused), in each way the
	# count can go: what ends the last token, line ends, encodings, a byte
	# order mark, characters of 2 and 4 bytes, comments after it.
	# size_case MODE T: write that taxonomy into $TMP/sz
	size_case() {
		rm -rf "$TMP/sz" && mkdir -p "$TMP/sz/metrics" && cp "$small"/*.db "$TMP/sz/"
		python3 - "$small/metrics/default.yaml" "$TMP/sz/metrics/default.yaml" "$1" "$2" <<'PY'
import sys
src, dst, mode, T = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
base = open(src, encoding='utf-8').read().rstrip('\n') + '\n'
unit, head, tail, after, enc, bom = 'x', 'padding: ', '\n', '', 'utf-8', b''
if mode == 'quoted': head, tail, after = "padding: '", "'", '\n'  # the line end after a quote is not read
if mode == 'crlf': tail = '\r\n'                                   # two characters, both swallowed
if mode == 'tail': tail, after = ' \t \n\n   \n \n', '# c\n'       # a plain scalar swallows blanks and breaks
if mode == 'flow': head, tail, after = 'padding: [', ']', '\n# after\n'
if mode == 'comment': after = '# ' + 'c' * 3000 + '\n\n  # more\n'
if mode == 'e2': unit = '\u00e9'
if mode == 'e4': unit = '\U0001F600'                                # one code point, two UTF-16 units
if mode == 'bom': bom = b'\xef\xbb\xbf'
if mode == 'utf16': enc, bom = 'utf-16-le', b'\xff\xfe'
n = T - len(base) - len(head) - len(tail)
open(dst, 'wb').write(bom + (base + head + unit * n + tail + after).encode(enc))
PY
	}
	cap=$((3 << 20))
	for mode in plain quoted crlf tail flow comment e2 e4 bom utf16; do
		size_case $mode $cap
		"$HPCVET" "$TMP/sz" >"$TMP/sz.out" 2>&1
		check "$mode, 3 Mi characters: loads, no taxonomy diagnostic" sh -c "! grep -q 'hpctkdb.taxonomy' '$TMP/sz.out'"
		size_case $mode $((cap + 1))
		"$HPCVET" "$TMP/sz" >"$TMP/sz.out" 2>&1
		check "$mode, 3 Mi + 1 characters: hpctkdb.taxonomy.viewer-size with the count, alone" \
			sh -c "grep -q 'error\[hpctkdb.taxonomy.viewer-size\]: 3145729 characters.*refuses more than 3145728' '$TMP/sz.out' &&
				test \$(grep -c '\[hpctkdb.taxonomy' '$TMP/sz.out') -eq 1"
	done
	# the place: character number 3 Mi counting from 0 (after small.d's ASCII
	# text, the key and 2-byte characters: the final line break) to the end
	# of the count
	size_case e2 $((cap + 1))
	"$HPCVET" --format=json "$TMP/sz" >"$TMP/sz.json" 2>/dev/null
	head_chars=$(($(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read().rstrip("\n")))' "$small/metrics/default.yaml") + 1 + 9))
	check "viewer-size points at character 3 Mi, up to the end of the count" \
		test "$(jq -r '.inputs[0].diagnostics[] | select(.rule == "hpctkdb.taxonomy.viewer-size") | "\(.offset) \(.length)"' "$TMP/sz.json")" \
		= "$((head_chars + 2 * (cap - head_chars))) 1"
	# a short document with megabytes of comments after it: nothing counted
	size_case comment 1000
	python3 -c 'import sys; open(sys.argv[1], "a").write(("# " + "c" * 1000 + "\n") * 5000)' "$TMP/sz/metrics/default.yaml"
	expect_exit 0 "a short taxonomy with 5 MB of comments after it passes --strict" "$HPCVET" --strict "$TMP/sz"
else
	skip "readers' variants of small.d: $small not present"
fi
done_testing
