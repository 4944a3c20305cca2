#!/usr/bin/env bash
# The real ovni traces (../shared/real-samples/ovni) must conform: each trace
# directory as a whole, and each stream.obs and stream.json alone. Warnings
# are allowed. Skips cleanly when ../shared is absent.
source "$(dirname "$0")/lib.sh"

traces="$SHARED/real-samples/ovni"
need_samples "$traces"
n=0
for d in "$traces"/*/; do
	d=${d%/}
	n=$((n + 1))
	expect_exit 0 "$d is conforming" "$HPCVET" -q "$d"
	check "$d: detected as an ovni trace" grep -q ": conforming (ovni trace, v3," "$TMP/out"
done
check "at least 53 real traces found ($n)" test "$n" -ge 53
streams=0
while IFS= read -r f; do
	streams=$((streams + 1))
	expect_exit 0 "$f alone is conforming" "$HPCVET" -q "$f"
done < <(find "$traces" -name 'stream.obs' -o -name 'stream.json' | sort)
check "every stream file found ($streams)" test "$streams" -ge 180
# One stream directory alone is a trace of one stream.
one=$(find "$traces" -name stream.json | sort | head -n 1)
expect_exit 0 "a single stream directory conforms" "$HPCVET" "$(dirname "$one")"
done_testing
