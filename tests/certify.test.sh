#!/usr/bin/env bash
# hpcvet certify / --certify: a certificate per input with every rule's
# result and counts, the rule-table version and the verdict (text and JSON).
source "$(dirname "$0")/lib.sh"
CASES="$ROOT/golden/cases"
Y="$CASES/hpctoolkit/y_hpctoolkit-db.release.4.0_s1.d"
N="$CASES/hpctoolkit/n_metadb.ctx.children-contained_01.db"
jqe() { jq -e "$@" >/dev/null; }
NRULES=$("$HPCVET" rules --format=json | jq '.rules | length')

expect_exit 0 "certify a conforming database" "$HPCVET" certify "$Y"
check "text certificate says conforming" grep -qE '^  verdict: +conforming$' "$TMP/out"
check "text certificate names format, edition, version" \
	bash -c "grep -q 'hpctoolkit database' '$TMP/out' && grep -qE 'edition: +release' '$TMP/out' && grep -qE 'version: +4.0' '$TMP/out'"
check "text certificate lists passed rules" grep -qE '^  metadb\.hdr\.magic +error +1 +1 +0  pass$' "$TMP/out"
expect_exit 1 "certify a broken case" "$HPCVET" certify "$N"
check "broken case: nonconforming" grep -qE '^  verdict: +nonconforming$' "$TMP/out"
check "broken case: the rule fails with where" \
	bash -c "grep -qE '^  metadb\.ctx\.children-contained +error .* fail$' '$TMP/out' && grep -q 'first at .*n_metadb.ctx.children-contained_01.db:0x' '$TMP/out'"

# JSON: every rule listed once, counts that add up, the table version.
"$HPCVET" certify --format=json "$Y" "$N" >"$TMP/c.json"
check "certify --format=json exits 1 with a broken input" test $? -eq 1
check "JSON lists every rule for each input" \
	jqe --argjson n "$NRULES" '.certificate.inputs | length == 2 and all(.[]; (.rules | length) == $n)' "$TMP/c.json"
check "rule table version is <count>-<16 hex>" \
	jqe --argjson n "$NRULES" '.certificate.rule_table | .rules == $n and (.version | test("^\($n)-[0-9a-f]{16}$"))' "$TMP/c.json"
check "per rule: passed + failed == evaluated, result matches the counts" jqe '[.certificate.inputs[].rules[] |
	(.passed + .failed == .evaluated) and
	(if .failed > 0 then (.result == "fail" or .result == "warning" or .result == "note")
	 elif .evaluated > 0 then .result == "pass" else .result == "not-applicable" end)] | all' "$TMP/c.json"
check "summary counts add up to the table" jqe '.certificate.rule_table.rules as $n | all(.certificate.inputs[];
	.summary.rules_passed + .summary.rules_failed + .summary.rules_warned + .summary.rules_noted +
	.summary.rules_not_applicable == $n and
	.summary.rules_failed == ([.rules[] | select(.result == "fail")] | length))' "$TMP/c.json"
check "the conforming input fails no rule and passes some" \
	jqe '.certificate.inputs[0] | .verdict == "conforming" and .summary.rules_failed == 0 and .summary.rules_passed > 50' "$TMP/c.json"
check "the broken input fails exactly its rule, with the first failure's place" jqe '.certificate.inputs[1] |
	.verdict == "nonconforming" and ([.rules[] | select(.result == "fail") | .id] == ["metadb.ctx.children-contained"]) and
	(.rules[] | select(.id == "metadb.ctx.children-contained") | .first_failure.offset > 0)' "$TMP/c.json"
check "other formats' rules are not applicable" \
	jqe '.certificate.inputs[0].rules | all(.[] | select(.format | startswith("ovni")); .result == "not-applicable")' "$TMP/c.json"
check "hpcvet rules --format=json carries the same rule-table version" test \
	"$("$HPCVET" rules --format=json | jq -r .rule_table_version)" = "$(jq -r .certificate.rule_table.version "$TMP/c.json")"
# The version is a hash of the table: stable between runs, and the --certify
# option writes the same certificate as the subcommand.
"$HPCVET" --certify --format=json "$Y" "$N" >"$TMP/c2.json"
check "--certify equals certify" cmp -s "$TMP/c.json" "$TMP/c2.json"
expect_exit 1 "certify --strict fails a warning" "$HPCVET" certify --strict "$CASES/hpctoolkit/y_metadb.release.4.1.db"
check "--strict is recorded" grep -q -- '--strict' "$TMP/out"
# A warning or a note is not a failure: a newer minor's warning shows as such.
"$HPCVET" certify --format=json "$CASES/hpctoolkit/y_metadb.release.4.1.db" >"$TMP/w.json"
check "a warning rule's result is 'warning', the verdict conforming" jqe '.certificate.inputs[0] |
	.verdict == "conforming" and .summary.rules_failed == 0 and .summary.rules_warned == 1 and
	(.rules[] | select(.id == "metadb.hdr.minor-newer") | .result == "warning" and .first_failure.offset == 15)' "$TMP/w.json"
"$HPCVET" certify --format=json "$CASES/hpctoolkit/y_hpctkdb.ctx.elided_01.d" >"$TMP/n.json"
check "a note rule's result is 'note'" jqe '.certificate.inputs[0] | .verdict == "conforming" and .summary.rules_noted == 1 and
	(.rules[] | select(.id == "hpctkdb.ctx.elided") | .result == "note")' "$TMP/n.json"
expect_exit 3 "certify a missing path" "$HPCVET" certify "$TMP/nope"
check "unreadable input: verdict unreadable" grep -qE 'verdict: +unreadable' "$TMP/out"

# Real samples (skipped when ../shared is absent).
real=$(ls -d "$SHARED"/real-samples/hpctoolkit/*.d 2>/dev/null | head -1)
if [ -n "$real" ]; then
	expect_exit 0 "certify a real hpcprof database ($real)" "$HPCVET" certify "$real"
	check "real database: conforming release edition" \
		bash -c "grep -qE 'verdict: +conforming' '$TMP/out' && grep -qE 'edition: +release' '$TMP/out'"
else
	echo "# skip: no real samples in $SHARED"
fi
done_testing
