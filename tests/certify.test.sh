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

# Certificates are bound to the bytes: each file's size and SHA-256
# (checked against sha256sum), and `certify --verify` re-validates and says
# whether the certificate still holds.
(cd "$Y" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
	echo "$(sha256sum "$f" | cut -d' ' -f1) $(stat -c %s "$f") $f"
done) >"$TMP/want"
jq -r '.certificate.inputs[0].files[] | "\(.sha256) \(.size) \(.name)"' "$TMP/c.json" >"$TMP/got"
check "certified digests equal sha256sum and stat" cmp -s "$TMP/want" "$TMP/got"
check "text certificate lists each file with size and SHA-256" \
	grep -qE "^  file: +meta\.db  $(stat -c %s "$Y/meta.db") bytes  sha256 $(sha256sum "$Y/meta.db" | cut -d' ' -f1)$" \
	<("$HPCVET" certify "$Y")
# A database bigger than what is read whole (files read through windows,
# hashed as the windows pass by): digests still equal sha256sum, with -j too.
"$GEN" --what=hpctoolkit-db --profiles=16 --contexts=2000 --trace-len=8000 -o "$TMP/big.d" >/dev/null
for j in 1 2; do
	"$HPCVET" certify -j$j --format=json "$TMP/big.d" >"$TMP/big$j.json"
	jq -r '.certificate.inputs[0].files[] | "\(.sha256)  \(.name)"' "$TMP/big$j.json" >"$TMP/bgot"
	# every file, metrics/default.yaml included, by its path in the database
	(cd "$TMP/big.d" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum --) >"$TMP/bwant"
	check "windowed files (-j$j): digests equal sha256sum" cmp -s "$TMP/bwant" "$TMP/bgot"
done
check "the big database has files over the 1 MiB read-whole limit" test "$(stat -c %s "$TMP/big.d/profile.db")" -gt 1048576
"$HPCVET" certify --format=json "$Y" >"$TMP/cert.json"
expect_exit 0 "verify: the certificate holds for the same bytes" "$HPCVET" certify --verify "$TMP/cert.json"
check "verify says it holds" grep -q ": certificate holds ($(find "$Y" -type f | wc -l) files" "$TMP/out"
cp -r "$Y" "$TMP/copy.d"
expect_exit 0 "verify against a copy elsewhere (names are relative)" "$HPCVET" certify --verify "$TMP/cert.json" "$TMP/copy.d"
# Flip one byte (the last of trace.db): the digest and here the verdict differ.
off=$(($(stat -c %s "$TMP/copy.d/trace.db") - 1))
byte=$(od -An -tu1 -j$off -N1 "$TMP/copy.d/trace.db")
printf "$(printf '\\%03o' $((byte ^ 0xff)))" | dd of="$TMP/copy.d/trace.db" bs=1 seek=$off conv=notrunc 2>/dev/null
expect_exit 1 "verify after flipping one byte: does not hold" "$HPCVET" certify --verify "$TMP/cert.json" "$TMP/copy.d"
check "says which file's SHA-256 differs" \
	bash -c "grep -q 'certificate does NOT hold' '$TMP/out' && grep -q 'trace.db: SHA-256 differs: certificate $(sha256sum "$Y/trace.db" | cut -d' ' -f1), file now $(sha256sum "$TMP/copy.d/trace.db" | cut -d' ' -f1)' '$TMP/out'"
"$HPCVET" certify --format=json --verify "$TMP/cert.json" "$TMP/copy.d" >"$TMP/v.json"
check "verify --format=json: holds false, one reason naming trace.db" \
	jqe '.verification.holds == false and (.verification.inputs[0].reasons | length >= 1) and
	any(.verification.inputs[0].reasons[]; test("^trace.db: SHA-256 differs"))' "$TMP/v.json"
jq '.certificate.rule_table.version = "270-0123456789abcdef"' "$TMP/cert.json" >"$TMP/oldtable.json"
expect_exit 1 "verify with another rule-table version: does not hold" "$HPCVET" certify --verify "$TMP/oldtable.json"
check "says why: the rule table version differs, both shown" \
	grep -q "rule table version differs: certificate 270-0123456789abcdef, hpcvet .* now $(jq -r .certificate.rule_table.version "$TMP/cert.json")" "$TMP/out"
check "only the rule table is blamed (same bytes)" test "$(grep -c '^  - ' "$TMP/out")" -eq 1
jq '.certificate.inputs[0].verdict = "nonconforming"' "$TMP/cert.json" >"$TMP/otherverdict.json"
expect_exit 1 "verify with another verdict: does not hold" "$HPCVET" certify --verify "$TMP/otherverdict.json"
check "says the verdict differs" grep -q 'verdict differs: certificate nonconforming, validation now conforming' "$TMP/out"
jq '.certificate.inputs[0].files |= map(select(.name != "cct.db"))' "$TMP/cert.json" >"$TMP/fewer.json"
expect_exit 1 "verify when the input has a file the certificate lacks" "$HPCVET" certify --verify "$TMP/fewer.json"
check "names the uncertified file" grep -q 'cct.db: part of the input now, but not certified' "$TMP/out"
rm "$TMP/copy.d/cct.db"
expect_exit 1 "verify when a certified file is gone" "$HPCVET" certify --verify "$TMP/cert.json" "$TMP/copy.d"
check "names the missing file" grep -q 'cct.db: certified, but not part of the input now' "$TMP/out"
"$HPCVET" certify --format=json "$N" >"$TMP/ncert.json"
expect_exit 0 "a nonconforming certificate holds too (the verdict is what it certifies)" \
	"$HPCVET" certify --verify "$TMP/ncert.json"
expect_exit 3 "verify a missing certificate" "$HPCVET" certify --verify "$TMP/nope.json"
echo '{"not": "a certificate"}' >"$TMP/junk.json"
expect_exit 3 "verify something that is no certificate" "$HPCVET" certify --verify "$TMP/junk.json"
expect_exit 2 "verify: a certificate of two inputs with one PATH is a usage error" \
	"$HPCVET" certify --verify "$TMP/c.json" "$Y"
expect_exit 3 "verify against a missing input: unreadable" "$HPCVET" certify --verify "$TMP/cert.json" "$TMP/nope.d"

# A certificate kept beside what it certifies verifies from any folder; a
# --base names where the certified paths are; a missing input is named.
mkdir -p "$TMP/far/sub"
"$GEN" --what=hpctoolkit-db -o "$TMP/far/sub/db.d" >/dev/null
(cd "$TMP/far/sub" && "$HPCVET" certify --format=json db.d >cert.json)
expect_exit 0 "verify from another folder: paths beside the certificate" \
	bash -c "cd / && '$HPCVET' certify --verify '$TMP/far/sub/cert.json'"
check "the input found beside the certificate" grep -q "^$TMP/far/sub/db.d: certificate holds" "$TMP/out"
expect_exit 0 "verify with --base" bash -c "cd / && '$HPCVET' certify --verify '$TMP/far/sub/cert.json' --base='$TMP/far/sub'"
expect_exit 3 "verify with a wrong --base" "$HPCVET" certify --verify "$TMP/far/sub/cert.json" --base="$TMP/nowhere"
check "the path tried is named" grep -q "input unreadable now: $TMP/nowhere/db.d: No such file" "$TMP/out"

# Real samples (skipped when ../shared is absent).
real=$(ls -d "$SHARED"/real-samples/hpctoolkit/*.d 2>/dev/null | head -1)
if [ -n "$real" ]; then
	expect_exit 0 "certify a real hpcprof database ($real)" "$HPCVET" certify "$real"
	check "real database: conforming release edition" \
		bash -c "grep -qE 'verdict: +conforming' '$TMP/out' && grep -qE 'edition: +release' '$TMP/out'"
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED)"
fi
done_testing
