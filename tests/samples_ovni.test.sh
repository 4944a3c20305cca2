#!/usr/bin/env bash
# The real ovni traces (../shared/real-samples/ovni) must conform: each trace
# directory as a whole, under --strict (no warning either), and each
# stream.obs and stream.json alone. The thirteen traces ovniemu 1.14 refuses
# (real-samples/README.md) are rejected, each by exactly the rule that says
# why, and by nothing else; nosv-flag-enable-all, refused as ovniemu -l
# refuses it, passes with --ovni-all-models as it does with ovniemu -a. The
# nOS-V 4.1.0 traces (nosv4.1-*: a production runtime, which writes OCn with
# 8 payload bytes) pass --strict where ovniemu accepts them, and three are
# refused as ovniemu refuses them: a same-CPU OAr, kernel events out of clock
# order (each such stream alone too), a body id nOS-V 4.1.0 got wrong.
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
	[nosv4.1-basic-attach-l1]=ovni.model.remote-same-cpu
	[nosv4.1-basic-init-l5]=ovni.obs.clock-monotonic
	[nosv4.1-regression-parallel-tasks-yield-l2]=ovni.model.body-parallel
)
# the nOS-V 4.1.0 traces ovniemu 1.14 accepts
accepted_nosv41="nosv4.1-basic-mix-l2 nosv4.1-basic-deadline-l1 nosv4.1-basic-parallel-cancel-l2 nosv4.1-basic-suspend-l1 nosv4.1-basic-yield-l5-sorted"
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
check "at least 62 real traces found ($n)" test "$n" -ge 62
check "the thirteen traces ovniemu refuses were all found ($nref)" test "$nref" -eq 13
for t in $accepted_nosv41; do
	check "$t is present" test -d "$traces/$t"
	expect_exit 0 "$t (nOS-V 4.1.0, OCn with 8 bytes) passes --strict" "$HPCVET" --strict -q "$traces/$t"
done
# the nOS-V process writes OCn with 8 payload bytes, where the 1.14 table declares OCn(i32 cpu)
check "nosv4.1-basic-mix-l2 holds an 8-byte OCn" python3 -c "
import os, struct, sys
found = False
for d, _, fs in os.walk(sys.argv[1]):
    if 'stream.obs' not in fs: continue
    b = open(os.path.join(d, 'stream.obs'), 'rb').read(); o = 8
    while o + 12 <= len(b):
        f = b[o]
        if b[o+1:o+4] == b'OCn' and not f & 0x10 and (f & 15) + 1 == 8: found = True
        o += 16 + struct.unpack_from('<I', b, o + 12)[0] if f & 0x10 else 12 + ((f & 15) + 1 if f & 15 else 0)
sys.exit(0 if found else 1)
" "$traces/nosv4.1-basic-mix-l2"
# the refused nOS-V 4.1.0 traces: where ovniemu stops
expect_exit 1 "nosv4.1-basic-attach-l1 is refused" "$HPCVET" "$traces/nosv4.1-basic-attach-l1"
check "... at its OAr that moves thread 19441 to CPU 1, where it is" \
	grep -q 'proc.19441/thread.19552/stream.obs:0xac: error\[ovni.model.remote-same-cpu\]: thread 19552 moves thread 19441 to CPU 1' "$TMP/out"
expect_exit 0 "nosv-flag-enable-all passes --strict with --ovni-all-models (ovniemu -a)" \
	"$HPCVET" --strict --ovni-all-models -q "$traces/nosv-flag-enable-all"
check "nosv-flag-enable-all: conforming with --ovni-all-models" grep -q ": conforming (ovni trace, v3," "$TMP/out"
# Every other stream file alone is conforming: one input each of a single
# run (each input is judged by itself; the per-input verdicts of its JSON
# report, checked below, one per file): under ASan a process's start and
# leak check cost ~25 ms, over 900 files most of this test's CPU.
streams=0 backwards=0 alone=()
while IFS= read -r f; do
	streams=$((streams + 1))
	case $f in
	"$traces"/nosv4.1-basic-init-l5/*/stream.obs)
		# level-5 kernel events written out of clock order: some streams
		# alone are refused, by that rule only
		"$HPCVET" --format=json "$f" >"$TMP/out" 2>&1
		rc=$?
		got=$(grep -o '"rule":[[:space:]]*"[^"]*"' "$TMP/out" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u | tr '\n' ' ')
		if [ "$rc" -eq 1 ]; then
			backwards=$((backwards + 1))
			check "$f alone: refused by ovni.obs.clock-monotonic only (got: $got)" test "$got" = "ovni.obs.clock-monotonic "
		else
			check "$f alone is conforming (exit $rc)" test "$rc" -eq 0
		fi
		;;
	*) alone+=("$f") ;;
	esac
done < <(find "$traces" -name 'stream.obs' -o -name 'stream.json' | sort)
"$HPCVET" --format=json "${alone[@]}" >"$TMP/alone.json" 2>"$TMP/err"
rc=$?
check "the ${#alone[@]} stream files, one input each: exit 0 or 1 (got $rc)" test "$rc" -le 1
jq -r '.inputs[] | [.path, .verdict, (.diagnostics[0] // {} | .message // "")] | @tsv' "$TMP/alone.json" >"$TMP/alone.tsv" 2>/dev/null
check "the report holds each stream file once, in order" cmp -s <(cut -f1 "$TMP/alone.tsv") <(printf '%s\n' "${alone[@]}")
while IFS=$'\t' read -r f verdict first; do
	check "$f alone is conforming ($verdict${first:+: $first})" test "$verdict" = conforming
done <"$TMP/alone.tsv"
check "nosv4.1-basic-init-l5: streams going backwards found alone ($backwards)" test "$backwards" -gt 0
check "every stream file found ($streams)" test "$streams" -ge 180
# One stream directory alone is a trace of one stream.
one=$(find "$traces/mpi-func" -name stream.json | sort | head -n 1)
expect_exit 0 "a single stream directory conforms" "$HPCVET" "$(dirname "$one")"
# ... and the event model replays it alone (the one-stream path, no merge).
bad=$(find "$traces/mpi-func-nested" -name stream.json | sort | head -n 1)
expect_exit 1 "a single refused stream directory is refused" "$HPCVET" "$(dirname "$bad")"
check "... by ovni.model.state-repeated" grep -q 'error\[ovni.model.state-repeated\]' "$TMP/out"
done_testing
