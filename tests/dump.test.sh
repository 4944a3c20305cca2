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
# broken file says where and why, as validation does). The validator's
# report is the case's checked-in expected report (corpus.test.sh proves
# hpcvet still writes exactly it), so dumps run from the corpus folder with
# the same relative paths. Text dumps of every fourth case (the same
# decoders, another rendering). The sanitizer build dumps every 10th case
# (the plain build covers all).
mkdir -p "$TMP/d"
n=0 bad=0 badrc=0 ndiag=0
: >"$TMP/pairs"
: >"$TMP/schema_list"
while IFS=$'\t' read -r path expect verdict; do
	n=$((n + 1))
	name=${path#*/}
	name=${name//\//_}
	(cd "$CASES" && timeout 60 "$HPCVET" dump --format=json "$path") >"$TMP/d/$name.json" 2>"$TMP/d/$name.err"
	rc=$?
	want=1
	[ "$verdict" = accept ] && want=0
	[ "$rc" -eq "$want" ] || { badrc=$((badrc + 1)); echo "exit $rc, validator $want: $name"; }
	echo "$TMP/d/$name.json $CASES/$expect" >>"$TMP/pairs"
	case $name in n_*) ndiag=$((ndiag + 1)) ;; esac
	# The schema check (python's jsonschema, ~0.3 ms per item) takes every
	# y_ and i_ dump and every 4th n_ one: an n_ case is mostly a valid
	# input's items again, and the schema is about their shape; within a
	# dump it checks a few items of each shape (dump_check.py, shape_sample).
	case $name in n_*) [ $((ndiag % 4)) -eq 1 ] && echo "$TMP/d/$name.json" >>"$TMP/schema_list" ;;
	*) echo "$TMP/d/$name.json" >>"$TMP/schema_list" ;; esac
	if [ $((n % 4)) -eq 0 ]; then
		timeout 60 "$HPCVET" dump "$CASES/$path" >"$TMP/d/$name.txt" 2>&1
		[ $? -le 3 ] && grep -q '^== validation: ' "$TMP/d/$name.txt" || { bad=$((bad + 1)); echo "text dump failed: $name"; }
	fi
done < <(jq -r '.cases[] | select(.path | endswith(".json") | not) | [.path, .expect, .verdict] | @tsv' "$CASES/MANIFEST.json" |
	san_sample 10)
if is_san_build; then want_n=40 want_nd=25; else want_n=400 want_nd=300; fi
check "the corpus has cases ($n, $ndiag n_)" test "$n" -gt "$want_n" -a "$ndiag" -gt "$want_nd"
# the cases the checks below look at, whether sampled or not
for c in dumpi/n_dumpi.rec.contained_01.bin; do
	[ -e "$TMP/d/${c#*/}.json" ] || "$HPCVET" dump --format=json "$CASES/$c" >"$TMP/d/${c#*/}.json"
done
check "every case dumps with the validator's exit code" test "$badrc" -eq 0
check "text dumps end with the validation summary (no crash, no timeout)" test "$bad" -eq 0
check "the JSON dumps validate against the schema (every y_ and i_, every 4th n_)" $CHECK schema "$SCHEMA" $(cat "$TMP/schema_list")
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

# The DUMPI header item spans its bytes (version, starttime, host and user
# names, meshdim and its arrays): writers put the next section right after.
for v in 0.2.0 0.6.9; do
	check "DUMPI $v: the header item's length reaches the next section" \
		jqe '[.files[0].items[] | select(.kind == "header" or .kind == "index")] | .[1] as $h
		| $h.length > 0 and $h.offset + $h.length == ([.[0].sections[] | select(. > $h.offset)] | min)
		and $h.meshdim == 0' <("$HPCVET" dump --format=json "$CASES/dumpi/y_dumpi-bin.$v.bin")
done

# meta.db: the tree, metrics, strings, modules, files and functions.
H="$CASES/hpctoolkit/y_hpctoolkit-db.release.4.0_s1.d"
"$HPCVET" dump --format=json "$H" >"$TMP/h.json"
M='.files[] | select(.name | endswith("meta.db")) | .items'
check "meta.db: every kind of item is dumped" \
	jqe "[$M[] | .kind] | unique | contains([\"general\", \"id-names\", \"metrics-header\", \"scope\", \"metric\",
	\"string\", \"module\", \"source-file\", \"function\", \"context-header\", \"entry-point\", \"context\"])" "$TMP/h.json"
check "meta.db: one metric item per nMetrics, their scopes are the scope items' names" \
	jqe "($M) as \$i | ([\$i[] | select(.kind == \"metric\")] | length) == ([\$i[] | select(.kind == \"metrics-header\")][0].nMetrics)
	and ([\$i[] | select(.kind == \"scope\") | .name]) as \$s | all(\$i[] | select(.kind == \"metric\") | .scopeInsts[], .summaries[]; .scope as \$n | \$s | index(\$n))
	and any(\$i[] | select(.kind == \"metric\"); (.summaries | length) > 0)" "$TMP/h.json"
check "meta.db: the string items tile the Strings section" \
	jqe "($M) as \$i | ([\$i[] | select(.kind == \"section\" and .name == \"Strings\")][0]) as \$s
	| ([\$i[] | select(.kind == \"string\") | .length] | add) == \$s.length
	and ([\$i[] | select(.kind == \"string\")][0].offset) == \$s.offset" "$TMP/h.json"
check "meta.db: a context's function, file and module are those the pointed-to items hold" \
	jqe "($M) as \$i | (reduce (\$i[] | select(.kind == \"function\" or .kind == \"source-file\" or .kind == \"module\")) as \$x ({};
	.[\$x.offset | tostring] = (if \$x.kind == \"function\" then \$x.name elif \$x.kind == \"source-file\" then \$x.file else \$x.module end))) as \$at
	| [\$i[] | select(.kind == \"context\")] as \$c | (\$c | length) > 50
	and all(\$c[] | select(.pFunction); .function == \$at[.pFunction | tostring])
	and all(\$c[] | select(.pFile); .file == \$at[.pFile | tostring])
	and all(\$c[] | select(.pModule); .module == \$at[.pModule | tostring])" "$TMP/h.json"
check "meta.db: the tree is in pre-order (each context's parent is an entry point or came before it, one level up)" \
	jqe "[$M[] | select(.kind == \"entry-point\" or .kind == \"context\")] | reduce .[] as \$x ({ok: true, d: {}};
	(if \$x.kind == \"context\" then .ok = (.ok and (.d[\$x.parent | tostring] == \$x.depth - 1)) else . end)
	| .d[\$x.ctxId | tostring] = (\$x.depth // 0)) | .ok" "$TMP/h.json"
check "a draft meta.db: metrics with summaries, contexts without propagation" \
	jqe '.files[0].items as $i | any($i[]; .kind == "metric" and (.summaries | length) > 0)
	and ([$i[] | select(.kind == "context")] | length > 20 and all(.[]; has("propagation") | not))' \
	<("$HPCVET" dump --format=json "$CASES/hpctoolkit/y_metadb.draft.4.0_s1.db")
check "meta.db: a leaf context (szChildren 0) says it has no children" \
	jqe "[$M[] | select(.kind == \"context\" and .szChildren == 0)] | length > 0 and all(.[]; .children == \"no children\")" "$TMP/h.json"
# --select=context:ID: that subtree of meta.db (as in the full dump), that
# context's values in profile.db and cct.db.
id=$(jq "[$M[] | select(.kind == \"context\" and .depth >= 2 and .szChildren > 0)][0].ctxId" "$TMP/h.json")
jq "[$M[] | select(.kind == \"context\")] | (reduce .[] as \$x ({in: false, d: 0, out: []};
	if .in and \$x.depth > .d then .out += [\$x.ctxId] elif \$x.ctxId == $id then {in: true, d: \$x.depth, out: [\$x.ctxId]}
	else .in = false end)) | .out" "$TMP/h.json" >"$TMP/subtree.json"
"$HPCVET" dump --format=json --select=subtree:$id "$H" >"$TMP/sub.json"
check "--select=subtree:$id: meta.db holds exactly that subtree of the full dump ($(jq length "$TMP/subtree.json") contexts)" \
	jqe --slurpfile want "$TMP/subtree.json" "[$M[] | select(.kind == \"context\") | .ctxId] == \$want[0] and (\$want[0] | length) > 1" "$TMP/sub.json"
check "--select=subtree:$id: profile.db and cct.db hold the values of the subtree's contexts, and of no other" \
	jqe --slurpfile want "$TMP/subtree.json" "(\$want[0] | sort) as \$w
	| ([.files[] | select(.name | endswith(\"profile.db\")) | .items[] | select(.kind == \"profile\") | .contexts[].ctxId] | unique) as \$p
	| (\$p | length) > 1 and (\$p - \$w) == []
	and ([.files[] | select(.name | endswith(\"cct.db\")) | .items[] | select(.kind == \"cct\") | .ctxId] | sort) == \$w" "$TMP/sub.json"
check "--select=subtree:$id: trace.db samples are of the subtree's contexts only" \
	jqe --slurpfile want "$TMP/subtree.json" "[.files[] | select(.name | endswith(\"trace.db\")) | .items[] | select(.kind == \"trace\") | .elements[][1]] as \$e
	| (\$e | length) > 0 and (\$e - \$want[0]) == []" "$TMP/sub.json"
"$HPCVET" dump --format=json --select=context:$id "$H" >"$TMP/ctx.json"
check "--select=context:$id: meta.db holds that context alone" \
	jqe "[$M[] | select(.kind == \"context\") | .ctxId] == [$id]" "$TMP/ctx.json"
check "--select=context:$id: profile.db and cct.db hold that context's values only" \
	jqe "[.files[] | select(.name | endswith(\"profile.db\")) | .items[] | select(.kind == \"profile\") | .contexts[].ctxId] as \$p
	| (\$p | length) > 0 and all(\$p[]; . == $id)
	and ([.files[] | select(.name | endswith(\"cct.db\")) | .items[] | select(.kind == \"cct\") | .ctxId] == [$id])" "$TMP/ctx.json"
check "--select=context=$id and context:$id dump the same" cmp -s "$TMP/ctx.json" <("$HPCVET" dump --format=json --select=context=$id "$H")
expect_exit 2 "--select=context= and subtree= together is a usage error" "$HPCVET" dump --select=context=$id,subtree=$id "$H"

# KEY:VALUE and KEY=VALUE are one syntax, for every key.
for kv in records:3-5 records:4 events:3-5 items:3-5 file:contained; do
	check "--select=$kv dumps as --select=${kv/:/=}" \
		cmp -s <("$HPCVET" dump --format=json --select="$kv" "$B") <("$HPCVET" dump --format=json --select="${kv/:/=}" "$B")
done
check "--select=records:3-5 selects records 3 to 5" \
	jqe '[.files[0].items[] | select(.kind == "record") | .index] == [3, 4, 5]' <("$HPCVET" dump --format=json --select=records:3-5 "$B")
check "--select=profile:1 is accepted and keeps profile 1 (profile.db, trace.db) and its values (cct.db)" \
	jqe '[.files[].items[] | select(.kind == "profile" or .kind == "trace") | .profIndex] == [1, 1]
	and ([.files[].items[] | select(.kind == "cct") | .metrics[].values[].profIndex] | length > 0 and all(. == 1))' \
	<("$HPCVET" dump --format=json --select=profile:1 "$H")
check "--select=file:meta.db,subtree:$id works with colons throughout" \
	jqe '[.files[].name | sub(".*/"; "")] == ["meta.db"]' <("$HPCVET" dump --format=json --select=file:meta.db,subtree:$id "$H")

# A selector that matches nothing: the dump still comes, stderr names the selector, exit 2.
nomatch() { # selector input stderr-pattern
	expect_exit 2 "--select=$1 matches nothing: exit 2" "$HPCVET" dump --select="$1" "$2"
	check "--select=$1 matches nothing: stderr says which selector" grep -q -- "$3" "$TMP/err"
	check "--select=$1 matches nothing: the report is still dumped" grep -q '^== validation: ' "$TMP/out"
}
nomatch context=4000000000 "$H" "^hpcvet dump: --select=context=4000000000 matched no context"
nomatch subtree:4000000000 "$H" "^hpcvet dump: --select=subtree=4000000000 matched no context"
nomatch profile:99 "$H" "^hpcvet dump: --select=profile=99 matched no profile"
nomatch records=100000-200000 "$B" "^hpcvet dump: --select=records=100000-200000 matched no record"
nomatch file=nothing-like-it "$H" "^hpcvet dump: --select=file=nothing-like-it matched no file"
nomatch rank:7 "$B" "^hpcvet dump: --select=rank=7 matched no file"
nomatch profile=0 "$B" "^hpcvet dump: --select=profile=0 matched no profile"
check "--select=context of an id not in the tree: a stop item says so" \
	jqe "any($M[]; .kind == \"stop\" and (.reason | test(\"no context\")))" \
	<("$HPCVET" dump --format=json --select=context=4000000000 "$H" 2>/dev/null)
Y="$CASES/dumpi/y_dumpi-bin.8.1.0_s1.bin"
expect_exit 0 "--max-items ending the dump before a range: no 'matched nothing' (it is unknown)" \
	"$HPCVET" dump --max-items=2 --select=records=30-40 "$Y"
check "--max-items ending the dump before a range: nothing on stderr" test ! -s "$TMP/err"
expect_exit 0 "a selector that matches: the validator's exit code" "$HPCVET" dump --select=context:$id "$H"
check "a selector that matches: nothing on stderr" test ! -s "$TMP/err"

# ovni event arguments by the 1.14 signatures' names (the checker reads the
# signatures from the spec itself, not from hpcvet's table).
if [ -f "$SHARED/specs/ovni-events-1.14.md" ]; then
	"$HPCVET" dump --format=json "$CASES/ovni/y_ovni-trace.v3_s3.d" >"$TMP/ov.json"
	check "ovni: every event with a signature carries its arguments by name, decoded from its payload" \
		$CHECK ovni-args "$TMP/ov.json" "$SHARED/specs/ovni-events-1.14.md"
	jq '(.files[].items[] | select(.mcv == "OHx") | .args.tag) |= 7' "$TMP/ov.json" >"$TMP/ov2.json"
	check "the comparison notices one changed argument" \
		bash -c "! $CHECK ovni-args '$TMP/ov2.json' '$SHARED/specs/ovni-events-1.14.md' >/dev/null"
fi
check "ovni: a jumbo event's string argument is named" \
	jqe '[.files[].items[] | select(.mcv == "6Yc" or .mcv == "VYc" or .mcv == "POc") | .args | has("typeid") and has("label")] | length > 0 and all' \
	<("$HPCVET" dump --format=json "$CASES/ovni/y_ovni-trace.v3_s3.d")

# ovni metadata documents: every member and element, in document order,
# with jq (another JSON reader) agreeing on paths and scalar values, and
# each member's offset at its key token in the file.
J=$(ls "$CASES"/ovni/y_ovni-trace.v3_s3.d/loom.*/proc.*/thread.*/stream.json | head -1)
"$HPCVET" dump --format=json "$J" >"$TMP/sj.json"
SJ='[.files[0].items[] | select(.kind == "json-member" or .kind == "json-element")]'
check "stream.json: the items' paths are the document's paths in order, as jq lists them" \
	cmp -s <(jq -r "$SJ[] | .path | sub(\"^stream.json/\"; \"\")" "$TMP/sj.json") \
	<(jq -r 'paths | map(if type == "number" then "[\(.)]" else ".\(.)" end) | join("") | ltrimstr(".") | gsub("\\.\\["; "[")' "$J")
check "stream.json: the scalar values are jq's" \
	cmp -s <(jq -c "[$SJ[] | select(.count == null) | .value]" "$TMP/sj.json") <(jq -c '[paths(scalars or . == null) as $p | getpath($p)]' "$J")
check "stream.json: each member's offset and length cover its key token" \
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); raw = open(sys.argv[2], "rb").read()
its = [i for i in d["files"][0]["items"] if i["kind"] == "json-member"]
bad = [i["path"] for i in its if raw[i["offset"]:i["offset"] + i["length"]].decode() != "\"%s\"" % i["path"].rsplit(".", 1)[-1].rsplit("/", 1)[-1]]
sys.exit(1 if bad or not its else 0)' "$TMP/sj.json" "$J"
check "stream.json: the dump validates against the schema" $CHECK schema "$SCHEMA" "$TMP/sj.json"

# The output budget: N items, then one stop item saying why, then nothing.
O="$CASES/ovni/y_ovni-trace.v3_s3.d"
expect_exit 0 "--max-items=5: the exit code is still the validation's" "$HPCVET" dump --format=json --max-items=5 "$O"
cp "$TMP/out" "$TMP/cap.json"
check "--max-items=5: 5 items, then a stop item naming --max-items, nothing after" \
	jqe '[.files[].items[]] | length == 6 and .[5].kind == "stop" and (.[5].reason | test("--max-items"))' "$TMP/cap.json"
check "--max-items=5: the cut dump validates against the schema" $CHECK schema "$SCHEMA" "$TMP/cap.json"
check "--max-items=0: no limit (as many items as the default)" \
	test "$("$HPCVET" dump --format=json --max-items=0 "$O" | jq '[.files[].items[]] | length')" = \
	"$(jq '[.files[].items[]] | length' "$TMP/ov.json" 2>/dev/null || "$HPCVET" dump --format=json "$O" | jq '[.files[].items[]] | length')"
check "--max-items in text: the stop line is the last item line" \
	bash -c "'$HPCVET' dump --max-items=3 '$O' | grep '^0x' | tail -1 | grep -q ' stop .*--max-items'"
expect_exit 2 "--max-items wants a count" "$HPCVET" dump --max-items=many "$O"

# Real samples (skipped when ../shared is absent).
S="$SHARED/real-samples"

# A cct.db whose 102 value blocks all overlap (a fuzzer's input) dumped each
# block's values again: 158 KB in, 25 MB out. Entries and values shown stay
# within what the file's bytes hold, and the rest is counted.
AMP="$ROOT/corpus/dump/crash_3bf02640_overlapping-value-blocks-amplify"
"$HPCVET" dump "$AMP" >"$TMP/amp.txt" 2>&1
check "overlapping value blocks: the dump stays within 8x the input (got $(wc -c <"$TMP/amp.txt") bytes)" \
	test "$(wc -c <"$TMP/amp.txt")" -le $((8 * $(wc -c <"$AMP")))
check "overlapping value blocks: what is not shown is counted" grep -q "metrics_not_shown=" "$TMP/amp.txt"

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
	# The schema check (python's jsonschema, ~11 CPU-s over these 103 MB of
	# JSON, whichever build wrote them) takes every 4th dump in the sanitizer
	# build: its job is running every dump under the sanitizers, and the
	# plain build checks the same dumps' bytes, all of them.
	mapfile -t rdumps < <(ls "$TMP"/r/*.json | san_sample 4)
	check "every real sample's dump validates against the schema (${#rdumps[@]} of $k)" $CHECK schema "$SCHEMA" "${rdumps[@]}"
	# hpcprof gives a leaf a pChildren pointer with szChildren 0: no children, not "outside"
	"$HPCVET" dump --format=json "$S/hpctoolkit/small.d" >"$TMP/small.json"
	check "small.d: its leaves with a pChildren pointer say no children" \
		jqe '[.files[] | select(.name | endswith("meta.db")) | .items[] | select(.kind == "context" and .szChildren == 0)]
		| any(.[]; .pChildren > 0) and all(.[]; .children == "no children")' "$TMP/small.json"
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
	check "--select=rank:2 on a trace: the same" cmp -s "$TMP/rank.json" <("$HPCVET" dump --format=json --select=rank:2 "$T/testtrace.meta")
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED)"
fi
done_testing
