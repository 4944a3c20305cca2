#!/usr/bin/env bash
# The 14 real HPCToolkit databases (written by hpcprof) validated AS
# DIRECTORIES: no error, release edition detected; and every real
# profile.db, cct.db and trace.db on its own. Elided contexts may give notes.
# Skips cleanly when ../shared is absent (a user's clone does not have it).
source "$(dirname "$0")/lib.sh"

dbs="$SHARED/real-samples/hpctoolkit"
need_samples "$dbs"
n=0
traces=0
hazards=0
for d in "$dbs"/*.d; do
	[ -f "$d/meta.db" ] || continue
	n=$((n + 1))
	expect_exit 0 "$d is conforming as a database" "$HPCVET" "$d"
	check "$d: release edition detected" grep -q "conforming (hpctoolkit database, release edition, v4.0" "$TMP/out"
	check "$d: no error or warning" grep -q "$(basename "$d"): conforming" "$TMP/out"
	check "$d: no error or warning lines" sh -c "! grep -Eq ': (error|warning)\[' '$TMP/out'"
	# --strict: notes (elided contexts) are fine, warnings are not.
	expect_exit 0 "$d is conforming under --strict" "$HPCVET" --strict "$d"
	expect_exit 0 "$d is conforming as release when forced" "$HPCVET" --edition=release "$d"
	for f in profile.db cct.db trace.db; do
		[ -f "$d/$f" ] || continue
		[ "$f" = trace.db ] && traces=$((traces + 1))
		expect_exit 0 "$d/$f alone is conforming" "$HPCVET" --strict "$d/$f"
		# The GPU runs' trace.db has one line without samples (a GPU stream
		# that took none): the hpcviewer reader-hazard note, once, and
		# nothing else; every other file has no diagnostic at all.
		hazard=0
		case "$f:$(basename "$d")" in trace.db:*cuda*-t.*|trace.db:*hip*-t.*) hazard=1 ;; esac
		check "$d/$f alone: no diagnostics but the empty-line note" \
			sh -c "! grep -E ': (error|warning|note)\[' '$TMP/out' | grep -vq 'note\[tracedb.line.reader-hazard-empty\]'"
		check "$d/$f alone: empty-line note $hazard time(s)" \
			test "$(grep -c 'note\[tracedb.line.reader-hazard-empty\]' "$TMP/out")" -eq "$hazard"
		[ "$hazard" = 1 ] && hazards=$((hazards + 1))
		if [ "$f" != cct.db ]; then
			check "$d/$f alone: release edition detected" grep -q "release edition" "$TMP/out"
		fi
	done
done
check "14 real databases found" test "$n" -eq 14
check "12 real trace.db found (loops-perf has none)" test "$traces" -eq 12
check "8 real trace.db with an empty line (GPU runs, with and without structure)" test "$hazards" -eq 8

# Without meta.db the cross-checks are impossible: a warning says so.
mkdir -p "$TMP/nometa"
cp "$dbs/small.d/profile.db" "$dbs/small.d/cct.db" "$dbs/small.d/trace.db" "$TMP/nometa/"
expect_exit 0 "a database without meta.db has no error" "$HPCVET" "$TMP/nometa"
check "a database without meta.db: hpctkdb.metadb.missing warns" grep -q "warning\[hpctkdb.metadb.missing\]" "$TMP/out"
expect_exit 1 "a database without meta.db fails --strict" "$HPCVET" --strict "$TMP/nometa"
# A whole database without its metric taxonomy is refused (hpcviewer opens
# none), and the taxonomy of every real database is checked, not skipped.
mkdir -p "$TMP/notax"
cp "$dbs/small.d/"*.db "$TMP/notax/"
expect_exit 1 "a database without metrics/default.yaml is nonconforming" "$HPCVET" "$TMP/notax"
check "a database without metrics/default.yaml: hpctkdb.taxonomy.missing" grep -q "error\[hpctkdb.taxonomy.missing\]" "$TMP/out"
for d in "$dbs"/*.d; do
	"$HPCVET" --format=junit "$d" >"$TMP/tax.xml" 2>/dev/null
	check "$(basename "$d"): the taxonomy's inputs are checked against meta.db" \
		grep -q 'name="hpctkdb.taxonomy.input-metadb"' "$TMP/tax.xml"
done
# A missing trace.db is fine.
mkdir -p "$TMP/notrace"
cp "$dbs/small.d/meta.db" "$dbs/small.d/profile.db" "$dbs/small.d/cct.db" "$TMP/notrace/"
cp -r "$dbs/small.d/metrics" "$TMP/notrace/"
expect_exit 0 "a database without trace.db is conforming under --strict" "$HPCVET" --strict "$TMP/notrace"
# cct.db must be the transpose of profile.db: double one value of context 1
# in cct.db (the top byte of the f64 at 0x35c+7: 0x3f -> 0x40) and the first
# difference is located exactly.
mkdir -p "$TMP/transpose"
cp "$dbs/small.d/"*.db "$TMP/transpose/"
cp -r "$dbs/small.d/metrics" "$TMP/transpose/"
chmod u+w "$TMP/transpose/cct.db"
printf '\100' | dd of="$TMP/transpose/cct.db" bs=1 seek=$((0x363)) conv=notrunc status=none
expect_exit 1 "a cct.db value changed: the database is nonconforming" "$HPCVET" "$TMP/transpose"
check "the transpose difference is located at ctx 1, metric 3, profile 1" \
	grep -q "error\[hpctkdb.cct.transpose\].*first difference at ctx 1, metric 3, profile 1: profile.db has 1.21" "$TMP/out"
check "only the transpose rule fires" test "$(grep -c 'error\[' "$TMP/out")" -eq 1
expect_exit 0 "the changed cct.db alone is still conforming" "$HPCVET" "$TMP/transpose/cct.db"
done_testing
