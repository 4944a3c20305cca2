#!/usr/bin/env bash
# Every report format on generated files (valid, broken, unreadable, hostile
# names) and on real samples: SARIF against a SARIF 2.1.0 schema, JSON
# against docs/report.schema.json, JUnit through an XML parser, GitHub
# annotations by their line grammar, and the text report's context view.
source "$(dirname "$0")/lib.sh"

SARIF_SCHEMA="$ROOT/tests/output/sarif-2.1.0-subset.schema.json"
REPORT_SCHEMA="$ROOT/docs/report.schema.json"

# A Python with jsonschema (Debian: python3-jsonschema; .ci/run installs it).
PY=""
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
schema_ok() { # schema-file json-file : exit 0 when valid (draft 7, formats checked)
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1], encoding="utf-8"))
doc = json.load(open(sys.argv[2], encoding="utf-8"))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
for e in errs[:5]:
    print("schema:", list(e.absolute_path), e.message[:300], file=sys.stderr)
sys.exit(1 if errs else 0)
PYEOF
}
if [ -n "$PY" ]; then
	check "the SARIF subset schema is a valid draft-7 schema" "$PY" -c "import json,jsonschema; jsonschema.Draft7Validator.check_schema(json.load(open('$SARIF_SCHEMA')))"
	check "docs/report.schema.json is a valid draft-7 schema" "$PY" -c "import json,jsonschema; jsonschema.Draft7Validator.check_schema(json.load(open('$REPORT_SCHEMA')))"
elif [ -n "${CI:-}" ]; then
	not_ok "no python3 with jsonschema in CI (install python3-jsonschema)"
else
	skip "schema validation: no python3 jsonschema here (apt-get install python3-jsonschema)"
fi
sarif_valid() { [ -z "$PY" ] || schema_ok "$SARIF_SCHEMA" "$1"; }
report_valid() { [ -z "$PY" ] || schema_ok "$REPORT_SCHEMA" "$1"; }

cd "$TMP" || exit 1
"$GEN" --what=metadb -o good.db || not_ok "generate good meta.db"
"$GEN" --what=metadb --break=metadb.hdr.footer -o bad.db || not_ok "generate broken meta.db"
"$GEN" --what=metadb --break=metadb.hdr.minor-newer -o newer.db || not_ok "generate newer minor"
NRULES=$("$HPCVET" rules | wc -l)

# ---- SARIF ----
expect_exit 1 "sarif: exit code follows the verdict" "$HPCVET" --format=sarif good.db bad.db "$TMP/newer.db"
cp out s1.sarif
check "sarif: valid against the SARIF 2.1.0 schema" sarif_valid s1.sarif
check "sarif: version and one run" jq -e '.version == "2.1.0" and (.runs|length) == 1' s1.sarif >/dev/null
check "sarif: one reportingDescriptor per rule" jq -e --argjson n "$NRULES" '.runs[0].tool.driver.rules|length == $n' s1.sarif >/dev/null
"$HPCVET" rules --format=json | jq -c '[.rules[] | [.id, .severity, .summary]]' >ids.json
check "sarif: descriptors in table order with level and summary" jq -e --slurpfile t ids.json \
	'[.runs[0].tool.driver.rules[] | [.id, .defaultConfiguration.level, .shortDescription.text]] == $t[0]' s1.sarif >/dev/null
check "sarif: every descriptor has full description and help" jq -e \
	'all(.runs[0].tool.driver.rules[]; (.fullDescription.text|length) > 0 and (.help.text|length) > 0)' s1.sarif >/dev/null
check "sarif: ruleIndex names the same rule as ruleId" jq -e \
	'.runs[0] as $r | all($r.results[]; $r.tool.driver.rules[.ruleIndex].id == .ruleId)' s1.sarif >/dev/null
"$HPCVET" --format=json bad.db >bad.json
check "sarif: the broken file's result" jq -e --slurpfile j bad.json '.runs[0].results | map(select(.level == "error")) | length == 1 and
	(.[0] | .ruleId == "metadb.hdr.footer"
	 and .locations[0].physicalLocation.artifactLocation.uri == "bad.db"
	 and .locations[0].physicalLocation.artifactLocation.uriBaseId == "SRCROOT"
	 and .locations[0].physicalLocation.region.byteOffset == $j[0].inputs[0].diagnostics[0].offset
	 and .locations[0].physicalLocation.region.byteLength == $j[0].inputs[0].diagnostics[0].length
	 and .locations[0].logicalLocations[0].fullyQualifiedName == $j[0].inputs[0].diagnostics[0].struct_path
	 and .message.text == $j[0].inputs[0].diagnostics[0].message)' s1.sarif >/dev/null
check "sarif: the newer minor is a warning result" jq -e '[.runs[0].results[] | select(.ruleId == "metadb.hdr.minor-newer")][0].level == "warning"' s1.sarif >/dev/null
check "sarif: SRCROOT is the working directory" jq -e --arg d "file://$TMP/" '.runs[0].originalUriBaseIds.SRCROOT.uri == $d' s1.sarif >/dev/null
check "sarif: verdicts per input" jq -e '[.runs[0].properties.inputs[].verdict] == ["conforming","nonconforming","conforming"]' s1.sarif >/dev/null
check "sarif: invocation exit code" jq -e '.runs[0].invocations[0] | .executionSuccessful and .exitCode == 1' s1.sarif >/dev/null
"$HPCVET" --format=sarif bad.db >s2.sarif
check "sarif: fingerprints stable across runs" jq -e --slurpfile a s1.sarif \
	'[.runs[0].results[].partialFingerprints] - [$a[0].runs[0].results[].partialFingerprints] == []' s2.sarif >/dev/null
mkdir -p elsewhere && cp bad.db elsewhere/
(cd elsewhere && "$HPCVET" --format=sarif "$TMP/bad.db" >../abs.sarif)
check "sarif: a path outside the working directory is an absolute file URI" jq -e --arg u "file://$TMP/bad.db" \
	'.runs[0].results[0].locations[0].physicalLocation.artifactLocation | .uri == $u and (has("uriBaseId")|not)' abs.sarif >/dev/null
expect_exit 3 "sarif: unreadable input" "$HPCVET" --format=sarif good.db does-not-exist
cp out s3.sarif
check "sarif: unreadable input is a notification" sarif_valid s3.sarif
check "sarif: notification text" jq -e '.runs[0].invocations[0].toolExecutionNotifications[0].message.text | startswith("does-not-exist: unreadable")' s3.sarif >/dev/null
if [ -n "$PY" ]; then
	# The schema check is real: it rejects a level SARIF does not define, a
	# property SARIF does not define, and a negative byteLength.
	jq '.runs[0].results[0].level = "fatal"' s1.sarif >m1.sarif
	jq '.runs[0].results[0].locations[0].physicalLocation.region.column = 3' s1.sarif >m2.sarif
	jq '.runs[0].results[0].locations[0].physicalLocation.region.byteLength = -1' s1.sarif >m3.sarif
	# With rfc3987 installed (CI), URI formats are checked too: a raw space is no URI.
	if "$PY" -c 'import rfc3987' 2>/dev/null; then
		jq '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = "a b"' s1.sarif >m4.sarif
		check "sarif schema checks URI syntax" bash -c "PY=$PY; $(declare -f schema_ok); ! schema_ok '$SARIF_SCHEMA' m4.sarif 2>/dev/null"
	elif [ -n "${CI:-}" ]; then
		not_ok "python3-rfc3987 missing in CI: URI formats unchecked"
	fi
	for m in m1 m2 m3; do check "sarif schema rejects mutant $m" bash -c "PY=$PY; $(declare -f schema_ok); ! schema_ok '$SARIF_SCHEMA' $m.sarif 2>/dev/null"; done
fi

# ---- hostile file names ----
HOSTILE=$'h<a>&"q\'%,:\x01\xff\nx.db'
cp bad.db "$HOSTILE"
"$HPCVET" --format=sarif "$HOSTILE" >h.sarif
check "sarif: hostile name stays valid" sarif_valid h.sarif
check "sarif: hostile name percent-encoded" jq -e '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri == "h%3Ca%3E%26%22q%27%25%2C%3A%01%FF%0Ax.db"' h.sarif >/dev/null
"$HPCVET" --format=json "$HOSTILE" >h.json
check "json: hostile name stays valid against the schema" report_valid h.json
check "json: hostile name cleaned" jq -e '.inputs[0].path == "h<a>&\"q'"'"'%,:\\x01\\xff\nx.db"' h.json >/dev/null
"$HPCVET" --format=junit "$HOSTILE" >h.xml
check "junit: hostile name is well-formed XML" xmllint --noout h.xml
check "junit: hostile name round-trips through the parser" bash -c \
	"xmllint --xpath 'string(/testsuites/testsuite/@name)' h.xml | grep -qF 'h<a>&\"q'\"'\"'%,:\\x01\\xff'"
"$HPCVET" --format=github "$HOSTILE" >h.gh
check "github: one annotation line for one diagnostic" test "$(grep -c '^::' h.gh)" -eq 1
check "github: name escaped in the property" grep -qF '::error file=h<a>&"q'"'"'%25%2C%3A\x01\xff%0Ax.db,title=metadb.hdr.footer::' h.gh

# ---- JUnit ----
expect_exit 1 "junit: exit code" "$HPCVET" --format=junit good.db bad.db
cp out j1.xml
check "junit: well-formed" xmllint --noout j1.xml
check "junit: one testsuite per input" test "$(xmllint --xpath 'count(/testsuites/testsuite)' j1.xml)" = 2
"$HPCVET" --format=json good.db bad.db >j1.json
good_rules=$(jq '.inputs[0].rules_checked' j1.json)
check "junit: one testcase per rule evaluated" test "$(xmllint --xpath 'count(/testsuites/testsuite[1]/testcase)' j1.xml)" = "$good_rules"
check "junit: tests attribute matches" test "$(xmllint --xpath 'string(/testsuites/testsuite[1]/@tests)' j1.xml)" = "$good_rules"
check "junit: valid input has no failure" test "$(xmllint --xpath 'count(/testsuites/testsuite[1]//failure)' j1.xml)" = 0
check "junit: broken input fails exactly its rule" test "$(xmllint --xpath 'string(/testsuites/testsuite[2]/testcase[failure]/@name)' j1.xml)" = metadb.hdr.footer
check "junit: failure carries the diagnostic" bash -c "xmllint --xpath 'string(/testsuites/testsuite[2]/testcase/failure)' j1.xml | grep -q '^bad.db:0x[0-9a-f]*+[0-9]*: error: .*(at meta.db/footer)'"
check "junit: failures counted" test "$(xmllint --xpath 'string(/testsuites/@failures)' j1.xml)" = 1
"$HPCVET" --format=junit newer.db >j2.xml
check "junit: warning-only input passes" test "$(xmllint --xpath 'count(//failure)' j2.xml)" = 0
"$HPCVET" --format=junit --strict newer.db >j3.xml
check "junit: --strict makes the warning a failure" test "$(xmllint --xpath 'string(//testcase[failure]/@name)' j3.xml)" = metadb.hdr.minor-newer
"$HPCVET" --format=junit does-not-exist >j4.xml
check "junit: unreadable input is an error testcase" test "$(xmllint --xpath 'count(//testcase/error[@type="unreadable"])' j4.xml)" = 1

# ---- GitHub ----
expect_exit 1 "github: exit code" "$HPCVET" --format=github good.db bad.db newer.db
cp out g1.txt
check "github: error annotation" grep -Eq '^::error file=bad\.db,title=metadb\.hdr\.footer::.+ \[byte 0x[0-9a-f]+, [0-9]+ bytes?, at meta\.db/footer\]$' g1.txt
check "github: warning annotation" grep -q '^::warning file=newer\.db,title=metadb\.hdr\.minor-newer::' g1.txt
check "github: summary lines follow" grep -q '^good.db: conforming' g1.txt
check "github: annotations only for diagnostics" test "$(grep -c '^::' g1.txt)" -eq 2

# ---- a finding about a directory or file as a whole (offset 0, length 0): no byte position ----
"$GEN" --what=dumpi-trace -o nometa.d || not_ok "generate a DUMPI trace"
rm -f nometa.d/*.meta
"$HPCVET" nometa.d >nm.txt
check "text: a directory-level diagnostic names the directory without :0x0" \
	grep -q '^nometa\.d: warning\[dumpi\.trace\.meta-missing\]: ' nm.txt
check "text: a diagnostic on bytes keeps its offset" grep -Eq '^bad\.db:0x[0-9a-f]+: error\[metadb\.hdr\.footer\]' <("$HPCVET" bad.db)
"$GEN" --what=ovni-trace --break=ovni.tree.json-missing -o jm.d || not_ok "generate an ovni trace without a stream.json"
check "text: a whole-file finding (a stream.obs without its stream.json) names the file without :0x0" \
	grep -q '^jm\.d/.*/stream\.obs: warning\[ovni\.tree\.json-missing\]: ' <("$HPCVET" jm.d)
"$HPCVET" --context nometa.d >nmc.txt
check "text --context: no hex view of a directory" bash -c "! grep -q 'offset  +0' nmc.txt"
"$HPCVET" --format=github nometa.d >nm.gh
check "github: a directory-level annotation has no [byte 0x0, 0 bytes]" \
	grep -Eq '^::warning file=nometa\.d,title=dumpi\.trace\.meta-missing::[^[]+$' nm.gh
"$HPCVET" --format=junit nometa.d >nm.xml
check "junit: a directory-level diagnostic line has no :0x0+0" bash -c \
	"xmllint --xpath 'string(//testcase[@name=\"dumpi.trace.meta-missing\"]/system-out)' nm.xml | grep -q '^nometa\.d: warning: '"
"$HPCVET" --format=sarif nometa.d >nm.sarif
check "sarif: a directory-level result has an artifact but no region" jq -e '[.runs[0].results[] | select(.ruleId == "dumpi.trace.meta-missing")]
	| length == 1 and (.[0].locations[0].physicalLocation | .artifactLocation.uri == "nometa.d" and (has("region") | not))' nm.sarif >/dev/null
check "sarif: directory-level result still valid" sarif_valid nm.sarif
"$HPCVET" dump nometa.d >nm.dump
check "dump report: a directory-level diagnostic without :0x0" grep -q '^warning\[dumpi\.trace\.meta-missing\] at nometa\.d: ' nm.dump
"$HPCVET" certify nometa.d >nm.cert
check "certify: a directory-level first failure without :0x0" grep -q '^      first at nometa\.d: ' nm.cert
check "sarif: an unreadable input is no successful execution" \
	jq -e '.runs[0].invocations[0] | (.executionSuccessful | not) and .exitCode == 3' s3.sarif >/dev/null

# ---- JSON report schema ----
"$HPCVET" --format=json good.db bad.db newer.db does-not-exist >r1.json
check "json: valid against docs/report.schema.json" report_valid r1.json
if [ -n "$PY" ]; then
	jq '.inputs[1].verdict = "ok"' r1.json >rm1.json
	jq 'del(.inputs[1].diagnostics[0].offset)' r1.json >rm2.json
	jq '.inputs[0].errors = 3' r1.json >rm3.json
	jq 'del(.inputs[3].problem)' r1.json >rm4.json
	for m in rm1 rm2 rm3 rm4; do check "json schema rejects mutant $m" bash -c "PY=$PY; $(declare -f schema_ok); ! schema_ok '$REPORT_SCHEMA' $m.json 2>/dev/null"; done
fi

# ---- text: colour and context ----
"$HPCVET" bad.db >t1.txt
check "text piped: no escape codes" bash -c "! grep -q $'\\033' t1.txt"
check "text piped: no context view" bash -c "! grep -q 'offset  +0' t1.txt"
"$HPCVET" --context bad.db >t2.txt
off=$(jq '.inputs[0].diagnostics[0].offset' bad.json)
len=$(jq '.inputs[0].diagnostics[0].length' bad.json)
row=$(printf '0x%06x' $((off & ~15)))
check "context: ruler" grep -q '^      offset  +0 +1 +2 +3 +4 +5 +6 +7  +8 +9 +a +b +c +d +e +f$' t2.txt
check "context: structure path" grep -q '^    --> meta.db/footer$' t2.txt
check "context: the row holding the field" grep -q "^    $row  " t2.txt
# The caret line marks exactly the field's bytes (within the first row shown).
first=$((off & 15)); n=$len; [ $((first + n)) -gt 16 ] && n=$((16 - first))
expected=$(python3 -c "
cols=['  ']*16
for i in range($first, $first+$n): cols[i]='^^'
s=' '.join(cols[:8])+'  '+' '.join(cols[8:])
print(('              '+s).rstrip())" 2>/dev/null)
check "context: carets under the field's bytes" grep -qxF "$expected" t2.txt
hexrow=$(grep "^    $row  " t2.txt | head -1 | cut -c15-62 | tr -d ' ')
filehex=$(od -An -tx1 -v -j $((off & ~15)) -N 16 bad.db | tr -d ' \n')
check "context: bytes shown are the file's" test "$hexrow" = "$filehex"
"$HPCVET" --color=always bad.db >t3.txt
check "--color=always: escape codes" grep -q $'\033\\[1;31merror\\[metadb.hdr.footer\\]' t3.txt
"$HPCVET" --color=always --context bad.db >t3b.txt
check "--color=always --context: highlighted bytes" grep -q $'\033\\[1;31m[0-9a-f][0-9a-f]\033\\[0m' t3b.txt
check "same text without colour codes" cmp -s <(sed $'s/\033\\[[0-9;]*m//g' t3b.txt) t2.txt
# A terminal (script gives the program a pty): colour and context by default,
# NO_COLOR and --color=never turn colour off but keep the context view.
# (stdin from /dev/null: with no stdin at all, script gives up at once.)
if command -v script >/dev/null 2>&1 && script -qec "echo pty-ok" /dev/null </dev/null | grep -q pty-ok; then
	script -qec "$HPCVET bad.db" /dev/null </dev/null >t4.txt
	check "terminal: colour by default" grep -q $'\033\\[' t4.txt
	check "terminal: context view by default" grep -q 'offset  +0' t4.txt
	NO_COLOR=1 script -qec "$HPCVET bad.db" /dev/null </dev/null >t5.txt
	check "terminal with NO_COLOR: no colour" bash -c "! grep -q $'\\033\\[' t5.txt"
	check "terminal with NO_COLOR: still the context view" grep -q 'offset  +0' t5.txt
	script -qec "$HPCVET --color=never --no-context bad.db" /dev/null </dev/null >t6.txt
	check "terminal with --color=never --no-context: plain" bash -c "! grep -q $'\\033\\[' t6.txt && ! grep -q 'offset  +0' t6.txt"
else
	echo "note: no pseudo-terminal available (script); terminal defaults not checked"
fi
head -c 100 bad.db >short.db
"$HPCVET" --context short.db >t7.txt
check "context on a truncated file still prints" grep -q 'nonconforming' t7.txt
expect_exit 2 "bad --color value" "$HPCVET" --color=sometimes good.db
expect_exit 2 "bad --format value" "$HPCVET" --format=xml good.db

# ---- broken inputs of the other families, every format ----
mkdir -p fam
"$GEN" --what=ovni-json --break=ovni.json.duplicate-key -o fam/stream.json || not_ok "generate ovni json"
"$GEN" --what=ovni-stream --break=ovni.obs.version -o fam/stream.obs || not_ok "generate ovni stream"
"$GEN" --what=dumpi-bin --break=dumpi.index.magic -o fam/rank.bin || not_ok "generate dumpi bin"
for pair in stream.json:ovni.json.duplicate-key stream.obs:ovni.obs.version rank.bin:dumpi.index.magic; do
	f=fam/${pair%%:*} rule=${pair#*:}
	"$HPCVET" --format=sarif "$f" >fam.sarif
	check "$rule: sarif valid" sarif_valid fam.sarif
	check "$rule: sarif result" jq -e --arg r "$rule" --arg u "$f" '.runs[0].results | length == 1 and .[0].ruleId == $r
		and .[0].locations[0].physicalLocation.artifactLocation.uri == $u' fam.sarif >/dev/null
	"$HPCVET" --format=junit "$f" >fam.xml
	check "$rule: junit fails the rule" test "$(xmllint --xpath 'string(//testcase[failure]/@name)' fam.xml)" = "$rule"
	"$HPCVET" --format=github "$f" >fam.gh
	check "$rule: github annotation" grep -q "^::error file=${f//./\\.},title=$rule::" fam.gh
	"$HPCVET" --format=json "$f" >fam.json
	check "$rule: json valid" report_valid fam.json
	"$HPCVET" --context "$f" >fam.txt
	check "$rule: context view" grep -q '^      offset  +0' fam.txt
done

# ---- real samples (skipped without ../shared) ----
if [ -d "$SHARED/real-samples" ]; then
	samples=()
	for s in hpctoolkit/small.d ovni/nosv-mutex dumpi/sst-dumpi-testtrace; do
		[ -e "$SHARED/real-samples/$s" ] && samples+=("$SHARED/real-samples/$s")
	done
	for s in "${samples[@]}"; do
		name=$(basename "$s")
		expect_exit 0 "real $name: sarif" "$HPCVET" --format=sarif "$s"
		cp out "real-$name.sarif"
		check "real $name: sarif valid" sarif_valid "real-$name.sarif"
		check "real $name: sarif has no error result" jq -e '[.runs[0].results[] | select(.level == "error")] == []' "real-$name.sarif" >/dev/null
		expect_exit 0 "real $name: junit" "$HPCVET" --format=junit "$s"
		cp out "real-$name.xml"
		check "real $name: junit well-formed, no failure" bash -c "xmllint --noout real-$name.xml && test \"\$(xmllint --xpath 'count(//failure)' real-$name.xml)\" = 0 && test \"\$(xmllint --xpath 'count(//testcase)' real-$name.xml)\" -gt 0"
		expect_exit 0 "real $name: github" "$HPCVET" --format=github "$s"
		check "real $name: github has no error annotation" bash -c "! grep -q '^::error' '$TMP/out'"
		expect_exit 0 "real $name: json" "$HPCVET" --format=json "$s"
		cp out "real-$name.json"
		check "real $name: json valid against the schema" report_valid "real-$name.json"
	done
	# A real database with one byte flipped in meta.db's magic.
	cp -r "$SHARED/real-samples/hpctoolkit/small.d" broken.d
	chmod -R u+w broken.d
	printf 'x' | dd of=broken.d/meta.db bs=1 seek=10 conv=notrunc 2>/dev/null
	expect_exit 1 "real broken: sarif" "$HPCVET" --format=sarif broken.d
	cp out rb.sarif
	check "real broken: sarif valid" sarif_valid rb.sarif
	check "real broken: sarif result at the magic" jq -e '.runs[0].results | length == 1 and .[0].ruleId == "metadb.hdr.magic"
		and .[0].locations[0].physicalLocation.artifactLocation.uri == "broken.d/meta.db"
		and .[0].locations[0].physicalLocation.region.byteOffset == 0' rb.sarif >/dev/null
	"$HPCVET" --format=junit broken.d >rb.xml
	check "real broken: junit fails the magic rule" test "$(xmllint --xpath 'string(//testcase[failure]/@name)' rb.xml)" = metadb.hdr.magic
	"$HPCVET" --format=github broken.d >rb.gh
	check "real broken: github annotation on meta.db" grep -q '^::error file=broken.d/meta.db,title=metadb.hdr.magic::' rb.gh
	"$HPCVET" --format=json broken.d >rb.json
	check "real broken: json valid against the schema" report_valid rb.json
	"$HPCVET" --context broken.d >rb.txt
	check "real broken: context shows the flipped byte" grep -q '^    0x000000  48 50 43 54 4f 4f 4c 4b  49 54 78 ' rb.txt
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED)"
fi

done_testing
