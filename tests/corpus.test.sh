#!/usr/bin/env bash
# The conformance corpus (golden/cases): the manifest is consistent with the
# files, hpcvet's report on every case equals its checked-in expected report,
# every rule of the table has its case (the coverage gate), and regenerating
# a sample of cases gives the same bytes (make golden is deterministic).
source "$(dirname "$0")/lib.sh"
CASES="$ROOT/golden/cases"
M="$CASES/MANIFEST.json"
command -v jq >/dev/null || { echo "jq missing"; not_ok "jq is needed"; done_testing; exit; }
check "MANIFEST.json exists and parses" bash -c "jq -e '.cases | length > 0' \"$M\" >/dev/null"

# --- the manifest matches the files
jq -r '.cases[] | [.name, .path, .kind, .verdict, .expect] | @tsv' "$M" >"$TMP/cases.tsv"
bad=0
while IFS=$'\t' read -r name path kind verdict expect; do
	[ -e "$CASES/$path" ] || { not_ok "$name: $path missing"; bad=1; }
	[ -f "$CASES/$expect" ] || { not_ok "$name: $expect missing"; bad=1; }
	[[ $name == ${kind}_* ]] || { not_ok "$name: prefix is not ${kind}_"; bad=1; }
	[[ ${path##*/} == "$name".* || $path == */"$name".d/* ]] || { not_ok "$name: path $path does not carry the name"; bad=1; }
	case $kind.$verdict in y.accept | n.reject | i.accept | i.reject) ;; *) not_ok "$name: $kind with verdict $verdict"; bad=1 ;; esac
done <"$TMP/cases.tsv"
[ $bad -eq 0 ] && ok
# Nothing in the corpus folder that the manifest does not list.
(cd "$CASES" && find . -mindepth 2 -maxdepth 2 | sed 's|^\./||' | sed -E 's/\.(expect|content)\.json$//; s/\.(d|db|obs|json|bin)$//' | sort -u) >"$TMP/on_disk"
jq -r '.cases[] | "\(.family)/\(.name)"' "$M" | sort -u >"$TMP/listed"
check "every file under golden/cases is a listed case" diff "$TMP/on_disk" "$TMP/listed"

# --- the expected reports: one hpcvet run over every case, compared with the
# checked-in reports (tool version removed, paths relative to golden/cases).
mapfile -t paths < <(jq -r '.cases[].path' "$M")
(cd "$CASES" && "$HPCVET" --format=json "${paths[@]}") >"$TMP/all.json"
rc=$?
check "hpcvet over the corpus exits 1 (it holds n_ cases), not $rc" test "$rc" -eq 1
jq '.inputs' "$TMP/all.json" >"$TMP/got.json"
jq -r '.cases[].expect' "$M" | (cd "$CASES" && xargs jq -s '[.[].inputs[]]') >"$TMP/want.json"
if diff -q "$TMP/want.json" "$TMP/got.json" >/dev/null; then
	ok
else
	not_ok "hpcvet's reports differ from the expected reports (make golden rewrites them):"
	jq -r --slurpfile w "$TMP/want.json" 'to_entries[] | select(.value != $w[0][.key]) | "  \(.value.path)"' "$TMP/got.json" | head -20
	diff "$TMP/want.json" "$TMP/got.json" | head -30
fi
check "the expected reports carry no tool version" \
	jq -e -s 'all(.[]; .tool.name == "hpcvet" and (.tool | has("version") | not))' $(jq -r '.cases[] | "'"$CASES"'/" + .expect' "$M") >/dev/null

# Every case reports exactly its rules, with the verdict of its prefix.
jq -r --slurpfile m "$M" '
	[.[] | {path, rules: ([.diagnostics[].rule] | unique), ok: (.verdict == "conforming")}] as $got |
	$m[0].cases | to_entries[] |
	.value as $c | $got[.key] as $g |
	select($g.path != $c.path or $g.rules != ($c.rules | unique) or
	       $g.ok != ($c.verdict == "accept")) | "\($c.name): reports \($g.rules) (\($g.ok)), manifest \($c.rules) \($c.verdict)"' \
	"$TMP/got.json" >"$TMP/mismatch"
check "every case reports exactly its manifest rules and verdict" test ! -s "$TMP/mismatch"
head -10 "$TMP/mismatch"

# --- content conformance: every y_ case lists its decoded content, and
# hpcvet dump of the case still gives exactly those bytes.
check "every y_ case (and only y_) lists a content file" \
	jq -e '[.cases[] | (.kind == "y") == (has("content"))] | all' "$M" >/dev/null
bad=0
while IFS=$'\t' read -r path content; do
	[ -f "$CASES/$content" ] || { echo "missing $content"; bad=$((bad + 1)); continue; }
	(cd "$CASES" && "$HPCVET" dump --format=json "$path" 2>/dev/null) |
		sed '1s/"tool":{"name":"hpcvet","version":"[^"]*"}/"tool":{"name":"hpcvet"}/' >"$TMP/content.json"
	cmp -s "$TMP/content.json" "$CASES/$content" || { echo "differs: $content"; bad=$((bad + 1)); }
done < <(jq -r '.cases[] | select(has("content")) | [.path, .content] | @tsv' "$M")
check "hpcvet dump of every y_ case equals its content file (make golden rewrites them)" test "$bad" -eq 0

# --- the coverage gate
"$HPCVET" rules --format=json >"$TMP/rules.json"
gate() { # MANIFEST: prints one line per gap
	jq -r --slurpfile m "$1" '
	($m[0].cases) as $c |
	(.rules[] | .id as $id | .severity as $s |
	 [$c[] | select(.rules | index($id))] as $mine |
	 if ($mine | length) == 0 then "rule \($id) has no case"
	 elif $s == "error" and ([$mine[] | select(.kind == "n")] | length) == 0 then "error rule \($id) has no n_ case"
	 else empty end),
	(([.rules[].id]) as $ids | $c[] | .name as $n | .rules[] | select(. as $r | $ids | index($r) | not) |
	 "case \($n) targets \(.), which is not a rule")' "$TMP/rules.json"
}
gate "$M" >"$TMP/gate"
check "coverage gate: every rule has its case, every targeted rule exists" test ! -s "$TMP/gate"
head -20 "$TMP/gate"
# The gate itself: drop one error rule's cases and add a case naming no rule.
jq '.cases |= (map(select(.rules != ["metadb.hdr.magic"])) + [{name: "n_bogus_01", kind: "n", rules: ["no.such.rule"]}])' \
	"$M" >"$TMP/bad_manifest.json"
gate "$TMP/bad_manifest.json" >"$TMP/bad_gate"
check "the gate catches a rule without a case" grep -qx 'rule metadb.hdr.magic has no case' "$TMP/bad_gate"
check "the gate catches a case naming no rule" grep -qx 'case n_bogus_01 targets no.such.rule, which is not a rule' "$TMP/bad_gate"
# n_ cases break exactly one rule each (the one in their name), beside the
# reader-hazard note every input of their kind gets (make-cases.sh ambient_for:
# draft-edition databases, v1/v2 ovni trees).
check "each n_ case targets exactly the rule in its name" test -z "$(jq -r '.cases[] | select(.kind == "n") |
	(.rules - ["hpctkdb.edition.reader-hazard-draft", "ovni.tree.reader-hazard-legacy"]) as $rules |
	select(($rules | length) != 1 or ($rules[0] as $r | .name | startswith("n_" + $r + "_") | not)) | .name' "$M")"
# `hpcvet rules --format=json` lists each rule's cases, from the manifest.
jq -S --slurpfile m "$M" '[.rules[] | {id, cases: .cases}]' "$TMP/rules.json" >"$TMP/rc_got"
jq -S --slurpfile m "$M" '[.rules[] | .id as $id | {id: $id, cases: [$m[0].cases[] | select(.rules | index($id)) | .path]}]' \
	"$TMP/rules.json" >"$TMP/rc_want"
check "hpcvet rules --format=json lists each rule's corpus cases" diff "$TMP/rc_want" "$TMP/rc_got"

# Without a manifest the compiled-in table is empty (every rule: "cases": []).
"$BUILD/tools/manifest2c" "$TMP/no-such-manifest.json" "$TMP/empty_cases.c"
check "manifest2c with no manifest writes an empty table" \
	bash -c "grep -q '{NULL, NULL}' '$TMP/empty_cases.c' && ! grep -q '\"' <(grep -v '^/\*' '$TMP/empty_cases.c' | grep -v '#include')"
"$BUILD/tools/manifest2c" "$M" "$TMP/cases.c"
check "manifest2c writes one entry per (case, rule)" \
	test "$(grep -c '^	{"' "$TMP/cases.c")" -eq "$(jq '[.cases[].rules[]] | length' "$M")"

# --- determinism: regenerate a sample (one case of each shape of making:
# a break, a break in a folder, a y_ database, a byte patch, ovni and DUMPI
# trees) and compare bytes and manifest entries. Plain build only: the
# generator's memory safety is covered by test_breaks/test_valid in both.
if [ "$(basename "$BUILD")" = build ]; then
	sample='^(n_metadb\.ctx\.children-contained_0[12]|n_metadb\.hdr\.magic_01|y_hpctoolkit-db\.release\.4\.0_s1|y_hpctoolkit-db\.draft\.4\.7|i_metadb\.release\.stride-larger-minor0|y_ovni-trace\.v1\.no-header|n_ovni\.tree\.duplicate-tid_01|y_dumpi-trace\.8\.1\.0_s2|n_dumpi\.sizes\.count_01)$'
	bash "$ROOT/golden/make-cases.sh" "$BUILD" "$TMP/regen" "$sample" 2>"$TMP/regen.err"
	check "make-cases.sh regenerates the sample" test $? -eq 0
	cat "$TMP/regen.err"
	n=$(jq '.cases | length' "$TMP/regen/MANIFEST.sample.json")
	check "the sample has 10 cases (got $n)" test "$n" -eq 10
	same=0
	for c in $(jq -r '.cases[] | "\(.family)/\(.name)"' "$TMP/regen/MANIFEST.sample.json"); do
		for f in "$TMP/regen/$c".*; do
			diff -r "$f" "$CASES/${f#"$TMP/regen/"}" >/dev/null || { not_ok "regenerated $c differs"; same=1; }
		done
	done
	[ $same -eq 0 ] && ok
	jq -S '.cases' "$TMP/regen/MANIFEST.sample.json" >"$TMP/s_got"
	jq -S --slurpfile s "$TMP/regen/MANIFEST.sample.json" '[.cases[] | select(.name as $n | $s[0].cases | map(.name) | index($n))]' "$M" >"$TMP/s_want"
	check "regenerated manifest entries equal the checked-in ones" diff "$TMP/s_want" "$TMP/s_got"
fi
done_testing
