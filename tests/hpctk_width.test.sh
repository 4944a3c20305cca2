#!/usr/bin/env bash
# HPCToolkit databases at width: many small thread profiles, as hpcprof writes
# them for a run of thousands of ranks (a few hundred values each). A
# generated database of 5,000 profiles passes --strict; damage to one late
# profile (4,000, its block somewhere in a file laid out in completion
# order, checked in a later unit when profile.db is cut into units) gives
# exactly its rules, and the same report at -j1 and -j2, in one unit and in
# many (HPCVET_UNIT_BYTES).
source "$(dirname "$0")/lib.sh"

shape=(--what=hpctoolkit-db --profiles=5000 --contexts=40 --metrics=3 --trace-len=16)
check "generate 5,000 profiles (draft)" "$GEN" "${shape[@]}" --edition=draft -o "$TMP/draft" >/dev/null
"$HPCVET" --strict --format=json "$TMP/draft" >"$TMP/draft.json"
check "5,000 profiles (draft): --strict passes" test $? -eq 0
# (every draft database gets the readers' hazard note, once)
check "5,000 profiles (draft): only the draft edition's note" \
	test "$(jq -r '[.inputs[0].diagnostics[].rule] | join(" ")' "$TMP/draft.json")" = hpctkdb.edition.reader-hazard-draft
check "generate 5,000 profiles (release)" "$GEN" "${shape[@]}" -o "$TMP/release" >/dev/null
"$HPCVET" --strict --format=json "$TMP/release" >"$TMP/release.json"
check "5,000 profiles (release): --strict passes" test $? -eq 0
check "5,000 profiles (release): notes only" \
	test "$(jq '[.inputs[0].diagnostics[] | select(.severity != "note")] | length' "$TMP/release.json")" = 0

# patch HOW: a copy of the draft database with profile 4,000's block damaged
patch() {
	python3 - "$TMP/draft" "$TMP/$1" 4000 "$1" <<'PY'
import shutil, struct, sys
src, dst, prof, how = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
shutil.copytree(src, dst)
p = dst + "/profile.db"
d = bytearray(open(p, "rb").read())
_, psec = struct.unpack_from("<QQ", d, 0x10)           # Profile Info section
parr, n, sz = struct.unpack_from("<QIB", d, psec)     # {PI} array
pi = parr + prof * sz
nv, pv, nc, _, pidx = struct.unpack_from("<QQIIQ", d, pi)
assert nc >= 2, "profile has fewer than two contexts"
if how == "contained":  # nValues far past the end of the file
    struct.pack_into("<Q", d, pi, 1 << 60)
elif how == "order":    # the first two index entries' ctxIds swapped
    a, b = struct.unpack_from("<I", d, pidx)[0], struct.unpack_from("<I", d, pidx + 12)[0]
    struct.pack_into("<I", d, pidx, b)
    struct.pack_into("<I", d, pidx + 12, a)
open(p, "wb").write(d)
PY
}

# broken HOW RULES...: exactly RULES, at profile 4,000, the same report at -j1/-j2, one unit or many
broken() {
	local how=$1
	shift
	check "$how: patch profile 4,000" patch "$how"
	"$HPCVET" -j1 --format=json "$TMP/$how" >"$TMP/$how.j1"
	check "$how: rejected" test "$(jq -r '.inputs[0].verdict' "$TMP/$how.j1")" = nonconforming
	check "$how: exactly $* (beside the draft note)" test "$(jq -r '[.inputs[0].diagnostics[].rule] | unique |
		map(select(. != "hpctkdb.edition.reader-hazard-draft")) | join(" ")' "$TMP/$how.j1")" = "$*"
	check "$how: profile.db's diagnostic at profile 4,000" \
		test "$(jq -r '.inputs[0].diagnostics[] | select(.file | endswith("profile.db")) | .struct_path' "$TMP/$how.j1" | grep -c '^profile.db/profile\[4000\]/')" = 1
	local j u
	for j in 1 2; do
		for u in 65536 ""; do
			HPCVET_UNIT_BYTES=$u "$HPCVET" -j$j --format=json "$TMP/$how" >"$TMP/$how.out"
			check "$how: the same report at -j$j${u:+, units of $u bytes}" cmp -s "$TMP/$how.j1" "$TMP/$how.out"
		done
	done
}
broken contained profiledb.psvb.values-contained
# the values attributed to swapped contexts are no longer cct.db's transpose
broken order hpctkdb.cct.transpose profiledb.psvb.ctx-increasing

done_testing
