#!/usr/bin/env bash
# Real files written by the real producers must be accepted (no errors, no
# warnings: everything real files do is legal). Skips cleanly when ../shared
# is absent (a user's clone does not have it).
source "$(dirname "$0")/lib.sh"

dbs="$SHARED/real-samples/hpctoolkit"
need_samples "$dbs"
n=0
for d in "$dbs"/*.d; do
	[ -f "$d/meta.db" ] || continue
	n=$((n + 1))
	expect_exit 0 "$d/meta.db is conforming" "$HPCVET" "$d/meta.db"
	check "$d/meta.db: release edition detected" grep -q "conforming (hpctoolkit meta.db, release edition, v4.0" "$TMP/out"
	expect_exit 0 "$d/meta.db is conforming with --strict (no warnings)" "$HPCVET" --strict "$d/meta.db"
	expect_exit 0 "$d/meta.db is conforming with --edition=release" "$HPCVET" --edition=release "$d/meta.db"
	# Forcing the other edition must fail: the layouts really differ.
	expect_exit 1 "$d/meta.db read as the draft edition is nonconforming" "$HPCVET" --edition=draft "$d/meta.db"
	check "$d/meta.db --edition=draft: summary says draft" grep -q "meta.db: nonconforming" "$TMP/out"
done
check "14 real meta.db found" test "$n" -eq 14
# JSON output carries the detected edition.
expect_exit 0 "JSON output for a real meta.db" "$HPCVET" --format=json "$dbs/small.d/meta.db"
check "JSON edition is release" grep -q '"edition":[[:space:]]*"release"' "$TMP/out"
done_testing
