#!/usr/bin/env bash
# The real ovni traces (../shared/real-samples/ovni) must conform: each trace
# directory as a whole, under --strict (no warning either), and each
# stream.obs and stream.json alone. The ten traces ovniemu 1.14 refuses
# (real-samples/README.md) are rejected, each by exactly the rule that says
# why, and by nothing else; nosv-flag-enable-all, refused as ovniemu -l
# refuses it, passes with --ovni-all-models as it does with ovniemu -a.
# Skips cleanly when ../shared is absent.
source "$(dirname "$0")/lib.sh"

traces="$SHARED/real-samples/ovni"
need_samples "$traces"
# trace -> the one rule that rejects it (ovniemu's message in the README)
declare -A refused=(
	[mpi-func-nested]=ovni.model.state-repeated
	[nanos6-rerun-task-bad]=ovni.model.body-rerun
	[nanos6-ss-mismatch]=ovni.model.state-open
	[tampi-ss-mismatch]=ovni.model.state-open
	[nosv-bad-double-execute-parallel]=ovni.model.body-nest
	[nosv-bad-nest-from-parallel]=ovni.model.body-nest
	[nosv-bad-nest-same-task]=ovni.model.body-state
	[nosv-bad-pause-parallel]=ovni.model.body-pause
	[nosv-events-from-outside-cpu]=ovni.model.out-of-cpu
	[nosv-flag-enable-all]=ovni.tree.model-not-required
)
n=0 nref=0
for d in "$traces"/*/; do
	d=${d%/}
	n=$((n + 1))
	rule=${refused[$(basename "$d")]:-}
	if [ -z "$rule" ]; then
		expect_exit 0 "$d is conforming under --strict" "$HPCVET" --strict -q "$d"
		check "$d: detected as an ovni trace" grep -q ": conforming (ovni trace, v3," "$TMP/out"
		continue
	fi
	nref=$((nref + 1))
	expect_exit 1 "$d is refused" "$HPCVET" --format=json "$d"
	got=$(grep -o '"rule":[[:space:]]*"[^"]*"' "$TMP/out" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u | tr '\n' ' ')
	check "$d: refused by exactly $rule (got: $got)" test "$got" = "$rule "
done
check "at least 53 real traces found ($n)" test "$n" -ge 53
check "the ten traces ovniemu refuses were all found ($nref)" test "$nref" -eq 10
expect_exit 0 "nosv-flag-enable-all passes --strict with --ovni-all-models (ovniemu -a)" \
	"$HPCVET" --strict --ovni-all-models -q "$traces/nosv-flag-enable-all"
check "nosv-flag-enable-all: conforming with --ovni-all-models" grep -q ": conforming (ovni trace, v3," "$TMP/out"
streams=0
while IFS= read -r f; do
	streams=$((streams + 1))
	expect_exit 0 "$f alone is conforming" "$HPCVET" -q "$f"
done < <(find "$traces" -name 'stream.obs' -o -name 'stream.json' | sort)
check "every stream file found ($streams)" test "$streams" -ge 180
# One stream directory alone is a trace of one stream.
one=$(find "$traces/mpi-func" -name stream.json | sort | head -n 1)
expect_exit 0 "a single stream directory conforms" "$HPCVET" "$(dirname "$one")"
# ... and the event model replays it alone (the one-stream path, no merge).
bad=$(find "$traces/mpi-func-nested" -name stream.json | sort | head -n 1)
expect_exit 1 "a single refused stream directory is refused" "$HPCVET" "$(dirname "$bad")"
check "... by ovni.model.state-repeated" grep -q 'error\[ovni.model.state-repeated\]' "$TMP/out"
done_testing
