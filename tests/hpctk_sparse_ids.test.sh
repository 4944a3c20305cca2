#!/usr/bin/env bash
# Cross-file ctxId lookups take two roads: a bitmap of meta.db's ids when they
# are dense (hpcprof numbers contexts 0..n) and a binary search of the sorted
# ids when one id is far from the rest (hpctoolkit/metadb/ctxids.c, crossdb.c). Both
# must give the same answers. Take one database, move meta.db's entry point's ctxId
# (44) to 70000 (still dense) and to 0xfffffff0 (sparse): either way id 44
# is gone, so exactly the trace elements naming 44 become unknown, and every
# other id profile.db, cct.db and trace.db name is found just the same.
source "$(dirname "$0")/lib.sh"

# patch FILE OFFSET OLDHEX NEWHEX, refusing when the old bytes differ (the
# generator's layout moved: this test must then be updated, not pass).
patch() {
	local have
	have=$(od -An -v -tx1 -j "$2" -N $((${#3} / 2)) "$1" | tr -d ' \n')
	[ "$have" = "$3" ] || { echo "patch: $1 at $2 holds $have, expected $3" >&2; return 1; }
	printf '%b' "$(sed 's/../\\x&/g' <<<"$4")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# The diagnostics that do not depend on the moved id's value, whole (cct.db's
# coverage message names the id, so it is checked apart).
# The value rules are left out too: their messages name the moved id, and
# they are checked apart below.
digest() { jq -r '.inputs[0].diagnostics[] | select(.rule != "hpctkdb.cct.ctx-covered" and (.rule | startswith("hpctkdb.values.") | not)) |
	"\(.rule) \(.file | sub(".*/"; "")) \(.offset) \(.struct_path) \(.message)"' "$1" | sort; }

check "generate the database" "$GEN" --what=hpctoolkit-db --edition=release --seed=1 -o "$TMP/db" >/dev/null
for form in dense sparse; do
	cp -r "$TMP/db" "$TMP/$form"
done
check "move ctxId 44 to 70000" patch "$TMP/dense/meta.db" 5408 2c000000 70110100
check "move ctxId 44 to 0xfffffff0" patch "$TMP/sparse/meta.db" 5408 2c000000 f0ffffff

expect_exit 0 "unpatched database is conforming" "$HPCVET" --format=json "$TMP/db"
cp "$TMP/out" "$TMP/db.json"
for form in dense sparse; do
	expect_exit 1 "$form: nonconforming" "$HPCVET" --format=json "$TMP/$form"
	cp "$TMP/out" "$TMP/$form.json"
	digest "$TMP/$form.json" >"$TMP/$form.digest"
done
check "the same diagnostics either way" diff "$TMP/dense.digest" "$TMP/sparse.digest"
# What they are: the unpatched database's notes, plus one unknown-id error
# per trace element naming 44, and one cct.db coverage error.
# (the generator's custom lex_aware scope has values of its own, which hatchet
# shows in the function scope's column: the hatchet-scope note)
check "unpatched: only the elided-context, hatchet-column and custom-scope notes" \
	test "$(jq -r '[.inputs[0].diagnostics[].rule] | unique | join(" ")' "$TMP/db.json")" = "hpctkdb.ctx.elided hpctkdb.metrics.reader-hazard-hatchet-scope hpctkdb.values.unverifiable"
# Id 44 had values: it is now one more elided context in profile.db and cct.db.
elided() { jq -r --arg f "$2" '.inputs[0].diagnostics[] | select(.rule == "hpctkdb.ctx.elided" and (.file | endswith($f))) |
	.message | split(" ")[0]' "$1"; }
# The note fires on profile.db and on cct.db and is one diagnostic per input
# (the first file's, saying on how many files): profile.db's count is shown.
check "sparse: more elided-context entries in profile.db" \
	test "$(elided "$TMP/sparse.json" profile.db)" -gt "$(elided "$TMP/db.json" profile.db)"
check "sparse: the elided-context note is one, on both files" \
	jq -e '[.inputs[0].diagnostics[] | select(.rule == "hpctkdb.ctx.elided")] | length == 1 and (.[0].message | test("the same note on 2 files"))' "$TMP/sparse.json" >/dev/null
check "sparse: every unknown trace id is 44" \
	test "$(jq -r '[.inputs[0].diagnostics[] | select(.rule == "hpctkdb.trace.ctx-known") | .message | split(" ")[1]] | unique | join(" ")' "$TMP/sparse.json")" = 44
check "sparse: one coverage error, naming the moved id" \
	test "$(jq -r '[.inputs[0].diagnostics[] | select(.rule == "hpctkdb.cct.ctx-covered") | .message] | join("|")' "$TMP/sparse.json" | grep -c 'ctxId 4294967280 ')" = 1
# The moved context kept its children but lost its own values (they are
# under 44, now elided): its propagated values no longer add up, the same
# number of times either way.
values() { jq -r '[.inputs[0].diagnostics[] | select(.rule | startswith("hpctkdb.values.")) | select(.severity == "error")] | length' "$1"; }
check "dense and sparse: the moved context's values no longer add up" \
	test "$(values "$TMP/dense.json")" -gt 0 -a "$(values "$TMP/dense.json")" = "$(values "$TMP/sparse.json")"
check "sparse: no other rule fires" \
	test "$(jq -r '[.inputs[0].diagnostics[].rule] | unique | join(" ")' "$TMP/sparse.json")" = "hpctkdb.cct.ctx-covered hpctkdb.ctx.elided hpctkdb.metrics.reader-hazard-hatchet-scope hpctkdb.trace.ctx-known hpctkdb.values.execution hpctkdb.values.unverifiable"
done_testing
