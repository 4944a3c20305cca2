#!/usr/bin/env bash
# Real files written by the real producers must be accepted (no errors).
# Skips cleanly when ../shared is absent (a user's clone does not have it).
source "$(dirname "$0")/lib.sh"

dbs="$SHARED/real-samples/hpctoolkit"
if [ ! -d "$dbs" ]; then
	echo "skipping: $dbs not present"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
n=0
for d in "$dbs"/*.d; do
	[ -f "$d/meta.db" ] || continue
	n=$((n + 1))
	expect_exit 0 "$d/meta.db is conforming" "$HPCVET" "$d/meta.db"
	check "$d/meta.db: release edition detected" grep -q "conforming (hpctoolkit meta.db, release edition, v4.0" "$TMP/out"
done
check "14 real meta.db found" test "$n" -eq 14
done_testing
