#!/usr/bin/env bash
# The CLI contract: exit codes, text and JSON report shapes, rules/explain.
source "$(dirname "$0")/lib.sh"

"$GEN" --what=metadb -o "$TMP/good.db" || not_ok "generate good meta.db"
"$GEN" --what=metadb --break=metadb.hdr.footer -o "$TMP/bad.db" || not_ok "generate broken meta.db"
"$GEN" --what=metadb --break=metadb.hdr.minor-newer -o "$TMP/newer.db" || not_ok "generate newer minor"

expect_exit 0 "valid file" "$HPCVET" "$TMP/good.db"
check "text summary says conforming" grep -q "^$TMP/good.db: conforming (hpctoolkit meta.db, release edition, v4.0, [0-9]* rules checked)" "$TMP/out"
expect_exit 1 "broken file" "$HPCVET" "$TMP/bad.db"
check "text diagnostic line shape" grep -Eq "^$TMP/bad.db:0x[0-9a-f]+: error\[metadb.hdr.footer\]: .+ \(at meta.db/footer\)$" "$TMP/out"
check "text summary says nonconforming" grep -q "^$TMP/bad.db: nonconforming (1 error, 0 warnings)" "$TMP/out"
expect_exit 0 "warning only" "$HPCVET" "$TMP/newer.db"
expect_exit 1 "warning under --strict" "$HPCVET" --strict "$TMP/newer.db"
expect_exit 3 "missing input" "$HPCVET" "$TMP/does-not-exist"
check "missing input is reported" grep -q "unreadable" "$TMP/out"
expect_exit 3 "not a regular file" "$HPCVET" /dev/null
if [ "$(id -u)" != 0 ]; then
	cp "$TMP/good.db" "$TMP/noperm.db" && chmod 000 "$TMP/noperm.db"
	expect_exit 3 "permission denied" "$HPCVET" "$TMP/noperm.db"
fi
expect_exit 2 "no path" "$HPCVET"
expect_exit 2 "unknown option" "$HPCVET" --frobnicate "$TMP/good.db"
expect_exit 2 "bad --max-diagnostics" "$HPCVET" --max-diagnostics=x "$TMP/good.db"
expect_exit 2 "bad --edition" "$HPCVET" --edition=beta "$TMP/good.db"
expect_exit 3 "highest exit wins (1 and 3)" "$HPCVET" "$TMP/bad.db" "$TMP/does-not-exist"
expect_exit 1 "highest exit wins (0 and 1)" "$HPCVET" "$TMP/good.db" "$TMP/bad.db"
expect_exit 0 "-q prints summaries only" "$HPCVET" -q "$TMP/good.db" "$TMP/newer.db"
check "-q: two lines" test "$(wc -l <"$TMP/out")" -eq 2
expect_exit 1 "--max-diagnostics=0" "$HPCVET" --max-diagnostics=0 "$TMP/bad.db"
check "--max-diagnostics=0 hides the diagnostic" bash -c "! grep -q 'error\[' '$TMP/out'"
check "--max-diagnostics=0 says how many are hidden" grep -q "1 more diagnostic not shown" "$TMP/out"

# JSON: parses and has the documented shape (checked with jq).
expect_exit 1 "json output" "$HPCVET" --format=json "$TMP/good.db" "$TMP/bad.db"
cp "$TMP/out" "$TMP/report.json"
check "json parses" jq -e . "$TMP/report.json" >/dev/null
check "json tool" jq -e '.tool.name == "hpcvet" and (.tool.version|type) == "string"' "$TMP/report.json" >/dev/null
check "json inputs" jq -e '(.inputs|length) == 2 and .inputs[0].verdict == "conforming" and .inputs[1].verdict == "nonconforming"' "$TMP/report.json" >/dev/null
check "json input keys" jq -e '.inputs[0] | has("path") and has("format") and has("edition") and has("version") and has("verdict") and has("rules_checked") and has("diagnostics")' "$TMP/report.json" >/dev/null
check "json diagnostic keys" jq -e '.inputs[1].diagnostics[0] | .rule == "metadb.hdr.footer" and .severity == "error" and (.offset|type) == "number" and (.length|type) == "number" and (.struct_path|type) == "string" and (.message|type) == "string"' "$TMP/report.json" >/dev/null

# Rule catalogue.
expect_exit 0 "rules" "$HPCVET" rules
check "rules lists metadb.hdr.magic" grep -q '^metadb.hdr.magic ' "$TMP/out"
expect_exit 0 "rules json" "$HPCVET" rules --format=json
check "rules json parses, ids unique" jq -e '(.rules|length) > 0 and ([.rules[].id]|unique|length) == (.rules|length)' "$TMP/out" >/dev/null
check "rule ids are well-formed" jq -e 'all(.rules[].id; test("^[a-z0-9]+(\\.[a-z0-9-]+)+$"))' "$TMP/out" >/dev/null
expect_exit 0 "explain" "$HPCVET" explain metadb.hdr.magic
check "explain shows the rule" grep -q "severity: error" "$TMP/out"
check "explain says where the rule is checked" grep -qx "checked in:   validator/hpctoolkit/metadb/metadb.c" "$TMP/out"
check "explain lists the rule's corpus cases" grep -q "^golden cases: golden/cases/hpctoolkit/n_metadb.hdr.magic_01" "$TMP/out"
# Every rule's "checked in" names files that exist (sanitizer build: every 20th rule).
"$HPCVET" rules | awk '{print $1}' | san_sample 20 >"$TMP/ids"
while read -r id; do
	"$HPCVET" explain "$id" | sed -n 's/^checked in:   //p' | tr -d ' ' | tr ',' '\n' | sed "s|^|$id |"
done <"$TMP/ids" >"$TMP/sources"
check "every rule has a checked-in file" test "$(cut -d' ' -f1 "$TMP/sources" | sort -u | wc -l)" -eq "$(wc -l <"$TMP/ids")"
check "every checked-in file exists" bash -c 'while read -r id f; do test -f "$0/$f" || { echo "$id: $f"; exit 1; }; done <"$1"' "$ROOT" "$TMP/sources"
check "no rule text ends in the generator's break recipe" bash -c '! "$0" rules --format=json | jq -e "any(.rules[]; .detail | test(\"(^|\\\\s)Break[:( ]\"))" >/dev/null' "$HPCVET"
expect_exit 2 "explain unknown" "$HPCVET" explain no.such.rule

# Inputs are opened read-only: a read-only copy validates.
cp "$TMP/good.db" "$TMP/ro.db" && chmod 444 "$TMP/ro.db"
expect_exit 0 "read-only file" "$HPCVET" "$TMP/ro.db"

# Garbage is unrecognised, and a directory of garbage too.
head -c 300 /dev/urandom >"$TMP/junk.bin"
expect_exit 1 "unrecognised file" "$HPCVET" "$TMP/junk.bin"
check "unrecognised rule" grep -q 'input.unrecognized' "$TMP/out"
mkdir -p "$TMP/junkdir" && cp "$TMP/junk.bin" "$TMP/junkdir/"
expect_exit 1 "unrecognised directory" "$HPCVET" "$TMP/junkdir"

# Input bytes reach reports through file names and messages: the certificate
# JSON, like the report JSON, stays valid UTF-8 (decoded strictly here).
hostile="$TMP/bad-$(printf '\xff\x01')-name.db"
cp "$TMP/bad.db" "$hostile"
expect_exit 1 "certify a file with a hostile name" "$HPCVET" certify --format=json "$hostile"
check "certificate JSON is strict UTF-8 JSON" python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$TMP/out"
expect_exit 1 "report a file with a hostile name" "$HPCVET" --format=json "$hostile"
check "report JSON is strict UTF-8 JSON" python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$TMP/out"

# A hostile 8 GiB sparse meta.db whose header describes no usable section must
# cost no more than its header: checked with a 512 MiB address-space limit
# (plain build only: sanitizers reserve huge address ranges).
case "$BUILD" in
*-san) ;;
*)
	printf 'HPCTOOLKITmeta\x04\x00' >"$TMP/huge-meta.db" && truncate -s 8G "$TMP/huge-meta.db"
	expect_exit 1 "8 GiB sparse meta.db under a 512 MiB limit" bash -c "ulimit -v 524288; exec '$HPCVET' -q '$TMP/huge-meta.db'"
	rm -f "$TMP/huge-meta.db"
	;;
esac

done_testing
