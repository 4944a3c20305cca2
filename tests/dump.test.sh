#!/usr/bin/env bash
# hpcvet dump: every golden case and real sample dumps (text and JSON) and
# terminates; the JSON validates against docs/dump.schema.json; a dump
# carries exactly the validation's diagnostics; the DUMPI records of
# sst-dumpi's test trace carry dumpi2ascii's values; --select limits output.
source "$(dirname "$0")/lib.sh"
CASES="$ROOT/golden/cases"
CHECK="python3 $ROOT/tests/dump_check.py"
SCHEMA="$ROOT/docs/dump.schema.json"
jqe() { jq -e "$@" >/dev/null; }
if ! python3 -c 'import jsonschema' 2>/dev/null; then
	echo "skipping: python3-jsonschema is not installed"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# Every case of the corpus: the dump ends with the validator's exit code
# and carries exactly its diagnostics (n_ cases above all: the dump of a
# broken file says where and why, as validation does). Text dumps of every
# fourth case (the same decoders, another rendering).
mkdir -p "$TMP/d"
n=0 bad=0 badrc=0 ndiag=0
: >"$TMP/pairs"
for c in "$CASES"/*/[yni]_*; do
	case $c in *.expect.json) continue ;; esac
	n=$((n + 1))
	name=$(basename "$c")
	timeout 60 "$HPCVET" dump --format=json "$c" >"$TMP/d/$name.json" 2>"$TMP/d/$name.err"
	rc=$?
	"$HPCVET" --format=json "$c" >"$TMP/d/$name.report" 2>/dev/null
	want=$?
	[ "$rc" -eq "$want" ] || { badrc=$((badrc + 1)); echo "exit $rc, validator $want: $name"; }
	echo "$TMP/d/$name.json $TMP/d/$name.report" >>"$TMP/pairs"
	case $name in n_*) ndiag=$((ndiag + 1)) ;; esac
	if [ $((n % 4)) -eq 0 ]; then
		timeout 60 "$HPCVET" dump "$c" >"$TMP/d/$name.txt" 2>&1
		[ $? -le 3 ] && grep -q '^== validation: ' "$TMP/d/$name.txt" || { bad=$((bad + 1)); echo "text dump failed: $name"; }
	fi
done
check "the corpus has cases ($n, $ndiag n_)" test "$n" -gt 400 -a "$ndiag" -gt 300
check "every case dumps with the validator's exit code" test "$badrc" -eq 0
check "text dumps end with the validation summary (no crash, no timeout)" test "$bad" -eq 0
check "every case's JSON dump validates against the schema" $CHECK schema "$SCHEMA" "$TMP"/d/*.json
check "every case's dump carries exactly the validation's diagnostics and verdict" $CHECK same-diags-list "$TMP/pairs"
check "an n_ dump has diagnostics (the comparison is not vacuous)" \
	jqe '.report.diagnostics | length > 0' "$TMP/d/n_dumpi.rec.contained_01.bin.json"
check "a broken DUMPI stream: untrusted_from is the first error, a stop item says why" \
	jqe '.files[0] | .untrusted_from.rule == "dumpi.rec.contained" and
	any(.items[]; .kind == "stop" and (.reason | test("^record [0-9]+ .MPI_Waitall. cannot be decoded .dumpi.rec.contained.")))' \
	"$TMP/d/n_dumpi.rec.contained_01.bin.json"
check "items past the first error are marked untrusted, none before" \
	jqe '.files[0] | .untrusted_from.offset as $u | all(.items[]; (.offset >= $u) == (.untrusted == true))' \
	"$TMP/d/n_dumpi.rec.contained_01.bin.json"
# the checker can fail: another diagnostic list is noticed
jq '.report.diagnostics[0].offset += 1' "$TMP/d/n_dumpi.rec.contained_01.bin.json" >"$TMP/tampered.json"
"$HPCVET" --format=json "$CASES/dumpi/n_dumpi.rec.contained_01.bin" >"$TMP/rep.json"
check "same-diags notices a different diagnostic" bash -c "! $CHECK same-diags '$TMP/tampered.json' '$TMP/rep.json' >/dev/null"

# --select
B="$CASES/dumpi/n_dumpi.rec.contained_01.bin"
"$HPCVET" dump --format=json --select=records=3-5 "$B" >"$TMP/sel.json"
check "--select=records=3-5: exactly records 3, 4, 5" \
	jqe '[.files[0].items[] | select(.kind == "record") | .index] == [3, 4, 5]' "$TMP/sel.json"
expect_exit 2 "--select with an unknown key is a usage error" "$HPCVET" dump --select=colour=red "$B"
expect_exit 2 "--select with a reversed range is a usage error" "$HPCVET" dump --select=records=5-3 "$B"
expect_exit 3 "dump of a missing path: unreadable" "$HPCVET" dump "$TMP/nope"

# Real samples (skipped when ../shared is absent).
S="$SHARED/real-samples"
if [ -d "$S" ]; then
	mkdir -p "$TMP/r"
	bad=0 k=0
	for s in "$S"/dumpi/*/*.meta "$S"/dumpi/*/*.bin "$S"/hpctoolkit/*.d "$S"/ovni/*; do
		[ -e "$s" ] || continue
		k=$((k + 1))
		timeout 120 "$HPCVET" dump --format=json "$s" >"$TMP/r/$k.json" 2>/dev/null
		[ $? -le 1 ] || { bad=$((bad + 1)); echo "dump failed: $s"; }
	done
	check "every real sample dumps ($k)" test "$bad" -eq 0
	check "every real sample's dump validates against the schema" $CHECK schema "$SCHEMA" "$TMP"/r/*.json
	T="$S/dumpi/sst-dumpi-testtrace"
	"$HPCVET" dump --format=json "$T/testtrace-0000.bin" >"$TMP/tt.json"
	check "testtrace-0000.bin: every record's function, thread, times and arguments equal dumpi2ascii's" \
		$CHECK dumpi-ref "$TMP/tt.json" "$T/testtrace-0000.txt"
	jq '(.files[0].items[] | select(.kind == "record" and .index == 4) | .args.tag) = 1338' "$TMP/tt.json" >"$TMP/tt2.json"
	check "the comparison notices one changed argument" \
		bash -c "! $CHECK dumpi-ref '$TMP/tt2.json' '$T/testtrace-0000.txt' >/dev/null"
	"$HPCVET" dump --format=json --select=rank=2 "$T/testtrace.meta" >"$TMP/rank.json"
	check "--select=rank=2 on a trace: only rank 2's .bin" \
		jqe '[.files[].name | sub(".*/"; "")] == ["testtrace-0002.bin"]' "$TMP/rank.json"
else
	echo "# skip: no real samples in $SHARED"
fi
done_testing
