#!/usr/bin/env bash
# Memory is bounded by live state, not by the length of a trace: hpcvet
# validates inputs that keep 1,000,000 things unresolved at once -- what the
# semantic mutators (fuzz/mutate_sem_*.c) push the checks towards -- and its
# peak RSS must stay under a bound made of a fixed base and the per-item
# bytes the headers document:
#  - DUMPI: rank 0 sends 1,000,000 messages, each with its own tag, that no
#    rank receives (hpcvet-gen --unmatched). The MPI layer keeps message
#    channels, not messages: at most MPI_MAX_CHANS = 65,536 per rank, then
#    merged over tags; about 612 bytes per channel at a growth peak
#    (validator/dumpi/mpi/internal.h). Bound: base + 65,536 x 640 B.
#  - ovni: a worker creates 1,000,000 nOS-V tasks that never run
#    (--open-tasks), all live at the end. A task that never ran is one
#    slot: 4 bytes in a dense page, or, as here (one worker's burst of ids
#    spaced by the 8 workers' interleaving), a hashed-map slot of at most 64
#    bytes, 96 while the map doubles (validator/ovni/model/model.h).
#    Bound: base + 1,000,000 x 96 B.
# The base is the peak RSS of the same generator's trace without the extra
# items, plus 8 MiB (read windows and thread stacks of a 43 MB input).
# Measured 2026-11-26 (gcc -O2): 32 MiB for the DUMPI trace (bound 51 MiB,
# the same at 100,000 messages: the channels are capped), 51 MiB for the
# ovni trace (about 49 B per task; bound 102 MiB); about 4 s in all.
# Not in the sanitizer build: ASan's shadow and quarantine are most of its RSS.
source "$(dirname "$0")/lib.sh"
if is_san_build; then
	skip "peak RSS under ASan measures the sanitizer, not hpcvet"
	done_testing
	exit
fi
# peak_kb OUT CMD...: run CMD with stdout to OUT; print its peak RSS in KiB
# (GNU time's %M; else getrusage from python3, whose forked child starts
# with the interpreter's ~10 MiB, the same in the base and the measured run).
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null; then
	peak_kb() {
		local out=$1 rc
		shift
		/usr/bin/time -o "$TMP/rss" -f %M "$@" >"$out"
		rc=$?
		tail -1 "$TMP/rss"
		[ $rc -le 1 ]
	}
elif command -v python3 >/dev/null; then
	peak_kb() {
		python3 - "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    rc = subprocess.run(sys.argv[2:], stdout=out).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(0 if rc in (0, 1) else rc)
PY
	}
else
	skip "neither GNU time nor python3 to read the peak RSS"
	done_testing
	exit
fi
N=1000000
MIB=1024
measure() { # name, base generator args, live-state args, per-item bytes, live items
	local name=$1 gen=$2 extra=$3 per=$4 items=$5
	"$GEN" $gen -o "$TMP/$name-0" || not_ok "$name: generator (base)"
	"$GEN" $gen $extra -o "$TMP/$name" || not_ok "$name: generator ($extra)"
	local base peak bound
	base=$(peak_kb "$TMP/$name-0.out" "$HPCVET" "$TMP/$name-0") || not_ok "$name: hpcvet on the base trace"
	peak=$(peak_kb "$TMP/$name.out" "$HPCVET" "$TMP/$name") || not_ok "$name: hpcvet on the live-state trace"
	bound=$((base + 8 * MIB + items * per / 1024))
	echo "$name: peak RSS $((peak / MIB)) MiB with $extra (base $((base / MIB)) MiB; bound $((bound / MIB)) MiB = base + 8 MiB + $items x $per B)"
	check "$name: peak RSS ${peak} KiB <= ${bound} KiB" test "$peak" -le "$bound"
}
measure dumpi "--what=dumpi-trace" "--unmatched=$N" 640 65536
check "dumpi: the unmatched sends are reported" grep -q "dumpi.mpi.send-unmatched" "$TMP/dumpi.out"
check "dumpi: still conforming (warnings only)" grep -q ": conforming (dumpi trace" "$TMP/dumpi.out"
measure ovni "--what=ovni-trace-runtime" "--open-tasks=$N" 96 $N
check "ovni: a million open tasks are conforming" grep -q ": conforming (ovni trace" "$TMP/ovni.out"
done_testing
